// SPDX-License-Identifier: GPL-2.0-only
//! Issue #13, round 3: TIMELY's and θ-PowerTCP's hold decisions are built more cheaply (TIMELY
//! from a cache in its state, θ-PowerTCP without `mul_div` and without a second τ look-up).
//! The claim is that no decision and no state changed. This test checks it differentially: the
//! laws as they were before the change (frozen copies in `tests/reference/`, commit 18e3b53)
//! and the current laws get the same random event sequences, and every decision, every
//! `current()` view and every state field (TIMELY: every field of the old state; the cache is
//! new) must be identical after every event.
//!
//! The sequences are ACK streams with the shapes that matter for the cache: long runs of holds
//! between rate/window updates, ACKs without an RTT sample and delayed ACKs (the feedback of a
//! receiver that holds its ACKs), duplicate ACKs of a loss episode (nothing acknowledged, SACKed
//! bytes still delivered, `snd_una` held back by a hole while `snd_nxt` moves on), fast recovery,
//! RTOs in a row and their undo, idle restarts after short and long gaps, a clock that stalls
//! (GRO batches) or goes backwards, MSS changes, and parameter writes between events (two
//! parameter sets, switched at random, as a module parameter write does to a live socket),
//! including parameters too large for TIMELY's cache key.

use proptest::prelude::*;
use rdcc_core::event::{ACK_APP_LIMITED, ACK_DELAYED, ACK_HAS_RTT, ACK_IN_RECOVERY};
use rdcc_core::{AckEvent, Controller, Decision, LossEvent, LossKind, Reason};

/// The laws before the change, compiled against the current `event` and `fixed` modules
/// (which the change did not touch), so both sides share `AckEvent` and `Decision`.
#[allow(dead_code, clippy::all)]
mod reference {
    pub mod event {
        pub use rdcc_core::event::*;
    }
    pub mod fixed {
        pub use rdcc_core::fixed::*;
    }
    pub mod powertcp;
    pub mod timely;
}

/// One host event. Times are deltas on a running clock.
#[derive(Clone, Debug)]
enum Op {
    /// An ACK: `dt` after the previous event (`back`: that far *before* it), RTT sample or
    /// none, `adv` bytes cumulatively acknowledged (0 = duplicate ACK), `sacked` bytes newly
    /// SACKed, extra flags, MSS.
    Ack {
        dt: u64,
        back: bool,
        rtt_ns: Option<u64>,
        adv: u32,
        sacked: u32,
        flags: u32,
        mss: u32,
    },
    FastRecovery {
        dt: u64,
    },
    Rto {
        dt: u64,
    },
    Undo,
    Idle {
        dt: u64,
    },
    /// A module parameter write: the other parameter set from now on.
    Switch,
    Init {
        dt: u64,
    },
}

fn arb_mss() -> impl Strategy<Value = u32> {
    prop_oneof![12 => Just(1448u32), 1 => Just(9000u32), 1 => Just(0u32), 1 => any::<u32>()]
}

/// RTT samples around a datacenter path's: mostly 5-600 µs, sometimes extreme.
fn arb_rtt() -> impl Strategy<Value = Option<u64>> {
    prop_oneof![
        16 => (5_000u64..600_000).prop_map(Some),
        3 => (18_000u64..30_000).prop_map(Some),
        2 => Just(None),
        1 => Just(Some(0u64)),
        1 => any::<u64>().prop_map(Some),
    ]
}

fn arb_ack() -> impl Strategy<Value = Op> {
    (
        prop_oneof![10 => 0u64..2_000, 6 => 2_000u64..100_000, 1 => Just(0u64), 1 => 100_000u64..50_000_000, 1 => any::<u64>()],
        prop::bool::weighted(0.02),
        arb_rtt(),
        prop_oneof![10 => Just(2896u32), 6 => Just(1448u32), 3 => Just(0u32), 1 => 1u32..200_000],
        prop_oneof![10 => Just(0u32), 2 => Just(1448u32), 1 => 1u32..100_000],
        prop_oneof![
            12 => Just(0u32),
            2 => Just(ACK_DELAYED),
            1 => Just(ACK_APP_LIMITED),
            2 => Just(ACK_IN_RECOVERY),
        ],
        arb_mss(),
    )
        .prop_map(|(dt, back, rtt_ns, adv, sacked, flags, mss)| Op::Ack {
            dt,
            back,
            rtt_ns,
            adv,
            sacked,
            flags,
            mss,
        })
}

fn arb_gap() -> impl Strategy<Value = u64> {
    prop_oneof![0u64..100_000, 100_000u64..10_000_000_000, any::<u64>()]
}

fn arb_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        60 => arb_ack(),
        2 => arb_gap().prop_map(|dt| Op::FastRecovery { dt }),
        2 => arb_gap().prop_map(|dt| Op::Rto { dt }),
        2 => Just(Op::Undo),
        2 => arb_gap().prop_map(|dt| Op::Idle { dt }),
        2 => Just(Op::Switch),
        1 => arb_gap().prop_map(|dt| Op::Init { dt }),
    ]
}

/// The sender's view that the ACK stream moves along.
#[derive(Clone, Copy, Debug)]
struct Flow {
    clock_ns: u64,
    una: u32,
    delivered: u64,
    /// Bytes sent beyond `una`.
    window: u32,
}

impl Flow {
    fn new(start_ns: u64) -> Flow {
        Flow {
            clock_ns: start_ns,
            una: 1,
            delivered: 0,
            window: 60_000,
        }
    }

    fn tick(&mut self, dt: u64) -> u64 {
        self.clock_ns = self.clock_ns.wrapping_add(dt);
        self.clock_ns
    }

    /// The event of an `Op::Ack`: the cumulative ACK moves by `adv`, SACKed bytes count as
    /// delivered, `snd_nxt` stays one window ahead of `snd_una` (plus the holes' bytes while
    /// the ACK is a duplicate, as in loss recovery).
    #[allow(clippy::too_many_arguments)]
    fn ack(
        &mut self,
        dt: u64,
        back: bool,
        rtt_ns: Option<u64>,
        adv: u32,
        sacked: u32,
        flags: u32,
        mss: u32,
    ) -> AckEvent {
        let now_ns = if back {
            self.clock_ns = self.clock_ns.wrapping_sub(dt);
            self.clock_ns
        } else {
            self.tick(dt)
        };
        self.una = self.una.wrapping_add(adv);
        if adv == 0 {
            self.window = self.window.saturating_add(sacked).min(4_000_000);
        } else {
            self.window = 60_000;
        }
        self.delivered = self
            .delivered
            .wrapping_add(u64::from(adv))
            .wrapping_add(u64::from(sacked));
        let mut f = flags;
        if rtt_ns.is_some() {
            f |= ACK_HAS_RTT;
        }
        AckEvent {
            now_ns,
            rtt_ns: rtt_ns.unwrap_or(0),
            delivered_bytes: self.delivered,
            acked_bytes: adv.saturating_add(sacked),
            inflight_bytes: self.window,
            mss_bytes: mss,
            snd_una: self.una,
            snd_nxt: self.una.wrapping_add(self.window),
            flags: f,
            ..AckEvent::default()
        }
    }
}

/// Run `ops` through the old law `O` and the new law `N` side by side, comparing every
/// decision and `current()` view, and the states with `same_state`. Returns the decisions'
/// reasons (for the non-vacuity checks).
#[allow(clippy::too_many_arguments)]
fn differential<O: Controller, N: Controller>(
    old_p: [&O::Params; 2],
    new_p: [&N::Params; 2],
    start_ns: u64,
    with_init: bool,
    ops: &[Op],
    same_state: impl Fn(&O::State, &N::State) -> Result<(), TestCaseError>,
) -> Result<Vec<Reason>, TestCaseError> {
    let mut so = O::State::default();
    let mut sn = N::State::default();
    let mut flow = Flow::new(start_ns);
    let mut which = 0usize;
    let mut mss = 1448u32;
    let mut reasons = Vec::with_capacity(ops.len());
    if with_init {
        let d_old = O::init(old_p[0], &mut so, start_ns, mss);
        let d_new = N::init(new_p[0], &mut sn, start_ns, mss);
        prop_assert_eq!(d_old, d_new, "init");
        same_state(&so, &sn)?;
    }
    for (i, op) in ops.iter().enumerate() {
        let (po, pn) = (old_p[which], new_p[which]);
        let pair: Option<(Decision, Decision)> = match *op {
            Op::Ack {
                dt,
                back,
                rtt_ns,
                adv,
                sacked,
                flags,
                mss: m,
            } => {
                mss = m;
                let ev = flow.ack(dt, back, rtt_ns, adv, sacked, flags, m);
                Some((O::on_ack(po, &mut so, &ev), N::on_ack(pn, &mut sn, &ev)))
            }
            Op::FastRecovery { dt } | Op::Rto { dt } => {
                let kind = if matches!(op, Op::Rto { .. }) {
                    LossKind::RetransmitTimeout
                } else {
                    LossKind::FastRecovery
                };
                let ev = LossEvent {
                    now_ns: flow.tick(dt),
                    mss_bytes: mss,
                    kind,
                };
                Some((O::on_loss(po, &mut so, &ev), N::on_loss(pn, &mut sn, &ev)))
            }
            Op::Undo => Some((O::on_undo(po, &mut so, mss), N::on_undo(pn, &mut sn, mss))),
            Op::Idle { dt } => {
                let now = flow.tick(dt);
                Some((
                    O::on_idle_restart(po, &mut so, now, mss),
                    N::on_idle_restart(pn, &mut sn, now, mss),
                ))
            }
            Op::Init { dt } => {
                let now = flow.tick(dt);
                Some((
                    O::init(po, &mut so, now, mss),
                    N::init(pn, &mut sn, now, mss),
                ))
            }
            Op::Switch => {
                which ^= 1;
                None
            }
        };
        if let Some((d_old, d_new)) = pair {
            prop_assert_eq!(d_old, d_new, "event {} {:?}", i, op);
            reasons.push(d_new.reason);
        }
        same_state(&so, &sn)?;
        // The host's view between events, with the parameters in force now (a parameter
        // write since the last event included) and another MSS as well.
        let (po, pn) = (old_p[which], new_p[which]);
        for m in [mss, 9000] {
            prop_assert_eq!(
                O::current(po, &so, m),
                N::current(pn, &sn, m),
                "current after event {} {:?}",
                i,
                op
            );
        }
    }
    Ok(reasons)
}

// ---------------------------------------------------------------------------------------------
// TIMELY
// ---------------------------------------------------------------------------------------------

mod timely_eq {
    use super::reference::timely as old;
    use super::*;
    use rdcc_core::timely as new;

    /// Both laws' configurations from the same values (the types are distinct).
    macro_rules! configs {
        ($($f:ident: $v:expr),* $(,)?) => {
            (old::Config { $($f: $v),* }, new::Config { $($f: $v),* })
        };
    }

    /// Raw values -> a configuration both sides accept (rejected ones are filtered).
    pub fn arb_params() -> impl Strategy<Value = (old::Params, new::Params)> {
        (
            (
                prop_oneof![Just(16_384u64), 1u64..70_000],
                prop_oneof![Just(50_000u64), 0u64..100_000],
                prop_oneof![
                    Just(500_000u64),
                    20_000u64..1_000_000,
                    // T_high above 2^32 ns: TIMELY's hold cache is off for these.
                    (1u64 << 32)..=10_000_000_000,
                ],
                prop_oneof![
                    Just(20_000u64),
                    1_000u64..200_000,
                    (1u64 << 32)..=10_000_000_000
                ],
                prop_oneof![Just(57_344u64), 1u64..=65_536],
                prop_oneof![Just(52_429u64), 1u64..=65_536],
            ),
            (
                prop_oneof![Just(10u64), 1u64..500],
                1u64..10,
                1u64..10,
                0u64..=1,
                prop_oneof![Just(10_000u64), Just(100_000u64), 1u64..1_000_000],
                prop_oneof![Just(10u64), 1u64..1_000],
            ),
            (
                prop_oneof![Just(10_000u64), 1u64..1_000_000],
                prop_oneof![Just(52_429u64), 0u64..=65_536],
                0u64..=2,
                prop_oneof![Just(52_429u64), 0u64..=65_536],
                0u64..5,
                0u64..=1,
            ),
        )
            .prop_filter_map(
                "both sides validate the configuration",
                |(
                    (seg, tl, th, mr, a, b),
                    (d, ht, hf, hl, line, minr),
                    (init, al, um, rb, rc, sd),
                )| {
                    let (co, cn) = configs! {
                        segment_bytes: seg, t_low_ns: tl, t_high_ns: th, min_rtt_ns: mr,
                        alpha_q16: a, beta_q16: b, delta_mbps: d, hai_threshold: ht,
                        hai_factor: hf, hai_in_low_guard: hl, line_rate_mbps: line,
                        min_rate_mbps: minr, init_rate_mbps: init, app_limit_q16: al,
                        update_mode: um, rto_beta_q16: rb, rto_reset_count: rc,
                        skip_delayed_acks: sd,
                    };
                    match (old::Params::new(&co), new::Params::new(&cn)) {
                        (Ok(po), Ok(pn)) => Some((po, pn)),
                        (Err(eo), Err(en)) => {
                            assert_eq!(eo, en, "validation differs");
                            None
                        }
                        (o, n) => panic!("validation differs: {o:?} vs {n:?}"),
                    }
                },
            )
    }

    /// Every field of the old state is the same in the new one.
    pub fn same_state(o: &old::State, n: &new::State) -> Result<(), TestCaseError> {
        prop_assert_eq!(
            (
                o.rate_bps,
                o.prev_rtt_ns,
                o.rtt_diff_ns,
                o.saved_rate_bps,
                o.last_update_ns,
                o.acked_since_update_bytes,
            ),
            (
                n.rate_bps,
                n.prev_rtt_ns,
                n.rtt_diff_ns,
                n.saved_rate_bps,
                n.last_update_ns,
                n.acked_since_update_bytes,
            )
        );
        prop_assert_eq!(
            (o.round_bytes, o.hai_count, o.rto_count, o.flags),
            (n.round_bytes, n.hai_count, n.rto_count, n.flags)
        );
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    /// TIMELY: every decision, `current()` view and state field equals the old law's.
    #[test]
    fn timely_holds_are_unchanged(
        a in timely_eq::arb_params(),
        b in timely_eq::arb_params(),
        start in prop_oneof![Just(1_000_000u64), any::<u64>()],
        with_init in prop::bool::weighted(0.8),
        ops in prop::collection::vec(arb_op(), 0..400),
    ) {
        differential::<reference::timely::Timely, rdcc_core::timely::Timely>(
            [&a.0, &b.0],
            [&a.1, &b.1],
            start,
            with_init,
            &ops,
            timely_eq::same_state,
        )?;
    }
}

// ---------------------------------------------------------------------------------------------
// θ-PowerTCP
// ---------------------------------------------------------------------------------------------

mod powertcp_eq {
    use super::reference::powertcp as old;
    use super::*;
    use rdcc_core::powertcp as new;

    macro_rules! configs {
        ($($f:ident: $v:expr),* $(,)?) => {
            (old::Config { $($f: $v),* }, new::Config { $($f: $v),* })
        };
    }

    pub fn arb_params() -> impl Strategy<Value = (old::Params, new::Params)> {
        (
            (
                prop_oneof![Just(52_429u64), 1u64..=65_536],
                prop_oneof![
                    Just(20_000u64),
                    1_000u64..=200_000,
                    1_000u64..=1_000_000_000
                ],
                prop_oneof![Just(3_125_000_000u64), 125_000u64..=(1u64 << 40)],
                prop_oneof![Just(10u64), 1u64..=1_000],
                prop_oneof![Just(0u64), 1u64..=100_000],
                1u64..=10_000,
            ),
            (
                prop_oneof![Just(0u64), 10_000u64..=10_000_000],
                0u64..=65_536,
                prop_oneof![Just(0u64), 655u64..=(1u64 << 32)],
                prop_oneof![Just(new::GRADIENT_PER_RTT), Just(new::GRADIENT_PER_ACK)],
                prop_oneof![Just(0u64), 0u64..=65_536],
                prop_oneof![Just(new::BASE_RTT_CONFIGURED), Just(new::BASE_RTT_MIN_RTT)],
            ),
        )
            .prop_filter_map(
                "both sides validate the configuration",
                |((g, tau, bw, n, beta, min), (max, floor, sinit, mode, md, tmode))| {
                    let (co, cn) = configs! {
                        gamma_q16: g, base_rtt_ns: tau, host_bw_bps: bw, expected_flows: n,
                        beta_bytes: beta, min_cwnd_bytes: min, max_cwnd_bytes: max,
                        grad_floor_q16: floor, smooth_init_q16: sinit, gradient_mode: mode,
                        loss_md_q16: md, base_rtt_mode: tmode,
                    };
                    match (old::Params::new(&co), new::Params::new(&cn)) {
                        (Ok(po), Ok(pn)) => Some((po, pn)),
                        (Err(eo), Err(en)) => {
                            assert_eq!(eo, en, "validation differs");
                            None
                        }
                        (o, n) => panic!("validation differs: {o:?} vs {n:?}"),
                    }
                },
            )
    }

    /// Every field of the state is the same on both sides.
    pub fn same_state(o: &old::State, n: &new::State) -> Result<(), TestCaseError> {
        prop_assert_eq!(
            (
                o.cwnd_q16,
                o.prev_cwnd_q16,
                o.power_smooth_q16,
                o.undo_cwnd_q16,
                o.update_ns,
                o.last_ack_ns,
            ),
            (
                n.cwnd_q16,
                n.prev_cwnd_q16,
                n.power_smooth_q16,
                n.undo_cwnd_q16,
                n.update_ns,
                n.last_ack_ns,
            )
        );
        prop_assert_eq!(
            (
                o.marker_seq,
                o.prev_rtt_ns,
                o.rtt_smooth_ns,
                o.min_rtt_ns,
                o.flags
            ),
            (
                n.marker_seq,
                n.prev_rtt_ns,
                n.rtt_smooth_ns,
                n.min_rtt_ns,
                n.flags
            )
        );
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, ..ProptestConfig::default() })]

    /// θ-PowerTCP: every decision, `current()` view and state field equals the old law's.
    #[test]
    fn theta_powertcp_holds_are_unchanged(
        a in powertcp_eq::arb_params(),
        b in powertcp_eq::arb_params(),
        start in prop_oneof![Just(1_000_000u64), any::<u64>()],
        with_init in prop::bool::weighted(0.8),
        ops in prop::collection::vec(arb_op(), 0..400),
    ) {
        differential::<reference::powertcp::ThetaPowerTcp, rdcc_core::powertcp::ThetaPowerTcp>(
            [&a.0, &b.0],
            [&a.1, &b.1],
            start,
            with_init,
            &ops,
            powertcp_eq::same_state,
        )?;
    }
}

// ---------------------------------------------------------------------------------------------
// Non-vacuity: the sequences above do reach the paths that changed
// ---------------------------------------------------------------------------------------------

/// A datacenter stream (two segments per ACK, 18-30 µs RTTs, as `examples/ack_cost.rs`) with a
/// loss episode in the middle: both laws agree on every event, and most decisions are holds
/// (the cached path), with updates between them.
#[test]
fn datacenter_stream_is_mostly_holds_and_unchanged() {
    let mut ops = Vec::new();
    let mut rng: u32 = 2_463_534_242;
    for i in 0..4_000u32 {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        let rtt_ns = Some(u64::from(18 + rng % 12) * 1000);
        if (2_000..2_040).contains(&i) {
            // Loss episode: duplicate ACKs with SACKed bytes, no RTT on half of them.
            if i == 2_000 {
                ops.push(Op::FastRecovery { dt: 100 });
            }
            ops.push(Op::Ack {
                dt: 240,
                back: false,
                rtt_ns: if i % 2 == 0 { rtt_ns } else { None },
                adv: 0,
                sacked: 2896,
                flags: ACK_IN_RECOVERY,
                mss: 1448,
            });
            continue;
        }
        ops.push(Op::Ack {
            dt: 240,
            back: false,
            rtt_ns,
            adv: 2896,
            sacked: 0,
            flags: if i % 7 == 0 { ACK_DELAYED } else { 0 },
            mss: 1448,
        });
    }
    let share = |reasons: &[Reason]| {
        let holds = reasons.iter().filter(|r| **r == Reason::Hold).count();
        (holds, reasons.len() - holds)
    };

    let tc = rdcc_core::timely::Config::DEFAULT;
    let to = reference::timely::Config {
        segment_bytes: tc.segment_bytes,
        t_low_ns: tc.t_low_ns,
        t_high_ns: tc.t_high_ns,
        min_rtt_ns: tc.min_rtt_ns,
        alpha_q16: tc.alpha_q16,
        beta_q16: tc.beta_q16,
        delta_mbps: tc.delta_mbps,
        hai_threshold: tc.hai_threshold,
        hai_factor: tc.hai_factor,
        hai_in_low_guard: tc.hai_in_low_guard,
        line_rate_mbps: tc.line_rate_mbps,
        min_rate_mbps: tc.min_rate_mbps,
        init_rate_mbps: tc.init_rate_mbps,
        app_limit_q16: tc.app_limit_q16,
        update_mode: tc.update_mode,
        rto_beta_q16: tc.rto_beta_q16,
        rto_reset_count: tc.rto_reset_count,
        skip_delayed_acks: tc.skip_delayed_acks,
    };
    let (po, pn) = (
        reference::timely::Params::new(&to).unwrap(),
        rdcc_core::timely::Params::new(&tc).unwrap(),
    );
    let reasons = differential::<reference::timely::Timely, rdcc_core::timely::Timely>(
        [&po, &po],
        [&pn, &pn],
        1_000_000,
        true,
        &ops,
        timely_eq::same_state,
    )
    .unwrap();
    let (holds, others) = share(&reasons);
    assert!(
        holds > 9 * others && others >= 50,
        "TIMELY: {holds} holds, {others} others"
    );

    let pc = rdcc_core::powertcp::Config::DEFAULT;
    let oc = reference::powertcp::Config {
        gamma_q16: pc.gamma_q16,
        base_rtt_ns: pc.base_rtt_ns,
        host_bw_bps: pc.host_bw_bps,
        expected_flows: pc.expected_flows,
        beta_bytes: pc.beta_bytes,
        min_cwnd_bytes: pc.min_cwnd_bytes,
        max_cwnd_bytes: pc.max_cwnd_bytes,
        grad_floor_q16: pc.grad_floor_q16,
        smooth_init_q16: pc.smooth_init_q16,
        gradient_mode: pc.gradient_mode,
        loss_md_q16: pc.loss_md_q16,
        base_rtt_mode: pc.base_rtt_mode,
    };
    let (po, pn) = (
        reference::powertcp::Params::new(&oc).unwrap(),
        rdcc_core::powertcp::Params::new(&pc).unwrap(),
    );
    let reasons =
        differential::<reference::powertcp::ThetaPowerTcp, rdcc_core::powertcp::ThetaPowerTcp>(
            [&po, &po],
            [&pn, &pn],
            1_000_000,
            true,
            &ops,
            powertcp_eq::same_state,
        )
        .unwrap();
    let (holds, others) = share(&reasons);
    assert!(
        holds > 9 * others && others >= 20,
        "θ-PowerTCP: {holds} holds, {others} others"
    );
}
