// SPDX-License-Identifier: GPL-2.0-only
//! The random event sequences of the two hold-lease equivalence tests, `lease_equivalence.rs`
//! (TIMELY) and `theta_lease_equivalence.rs` (θ-PowerTCP): the building blocks they share. Each
//! test passes in its own law's edges (the gaps between ACKs, the RTT samples, the MSS values);
//! everything else, weights included, is the same for both.

use super::lease_model::{Ca, InFlight, Op, Rs};
use proptest::prelude::*;

/// A rate sample with an RTT from `rtt_us`.
pub fn arb_rs(rtt_us: impl Strategy<Value = i64>) -> impl Strategy<Value = Rs> {
    (
        rtt_us,
        prop_oneof![
            10 => Just(2u32),
            6 => Just(1u32),
            3 => Just(0u32), // SACK-only or duplicate: snd_una stays (θ: the marker holds)
            1 => 3u32..64,
            1 => Just(u32::MAX),
        ],
        prop::bool::weighted(0.05),
        prop::bool::weighted(0.15),
        prop::bool::weighted(0.05),
    )
        .prop_map(|(rtt_us, pkts, app_limited, delayed, ce)| Rs {
            rtt_us,
            pkts,
            app_limited,
            delayed,
            ce,
        })
}

/// An ACK `dt` after the previous event (1 in 50 that far before it), sample `rs`, now and then
/// a new MSS from `mss`.
pub fn arb_ack(
    dt: impl Strategy<Value = u64>,
    rs: impl Strategy<Value = Rs>,
    mss: impl Strategy<Value = u32>,
) -> impl Strategy<Value = Op> {
    (
        dt,
        prop::bool::weighted(0.02),
        rs,
        prop_oneof![30 => Just(None::<u32>), 1 => mss.prop_map(Some)],
        // a fresh srtt on every ACK: a lease that leaked enforce's srtt branches would show
        prop_oneof![4 => 10u32..1_000, 1 => Just(0u32), 1 => any::<u32>()],
        // snd_nxt near (the window) and far: both of θ's due conditions fire
        prop_oneof![
            10 => Just(InFlight::Window),
            1 => Just(InFlight::Fixed(0)),
            1 => Just(InFlight::Fixed(1)),
            1 => (0u32..100_000).prop_map(InFlight::Fixed),
        ],
    )
        .prop_map(|(dt, back, rs, mss, srtt_us, in_flight)| Op::Ack {
            dt,
            back,
            rs,
            mss,
            srtt_us,
            in_flight,
        })
}

/// The gap before a loss, an idle restart or an init.
pub fn arb_gap() -> impl Strategy<Value = u64> {
    prop_oneof![0u64..100_000, 100_000u64..10_000_000_000, any::<u64>()]
}

/// One event: mostly `ack`, then the hooks, the state changes without a law call, parameter
/// writes, clamp and pacing-cap changes, the tracepoint.
pub fn arb_op(ack: impl Strategy<Value = Op> + 'static) -> impl Strategy<Value = Op> {
    prop_oneof![
        60 => ack,
        2 => arb_gap().prop_map(|dt| Op::FastRecovery { dt }),
        2 => arb_gap().prop_map(|dt| Op::Rto { dt }),
        1 => Just(Op::SetState(Ca::Open)),
        1 => Just(Op::SetState(Ca::Disorder)),
        1 => Just(Op::SetState(Ca::Cwr)),
        1 => Just(Op::SetState(Ca::Loss)),
        2 => Just(Op::Undo),
        2 => arb_gap().prop_map(|dt| Op::Idle { dt }),
        2 => Just(Op::Switch),
        1 => Just(Op::Touch),
        1 => arb_gap().prop_map(|dt| Op::Init { dt }),
        1 => prop_oneof![
            Just(64u32),
            Just(0u32),
            Just(1u32),
            Just(2u32),
            Just(u32::MAX),
            any::<u32>()
        ]
        .prop_map(Op::Clamp),
        1 => prop_oneof![Just(u64::MAX), any::<u64>()].prop_map(Op::MaxPacing),
        1 => any::<bool>().prop_map(Op::Trace),
    ]
}
