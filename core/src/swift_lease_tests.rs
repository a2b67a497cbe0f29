// SPDX-License-Identifier: GPL-2.0-only
//! Tests of Swift's increase lease (`swift_lease.rs`). The whole file is test code:
//! core/tests/forbidden.rs skips a file from its first `#[cfg(test)]` line on, the next line.
#[cfg(test)]
use super::super::super::event::{
    AckEvent, Controller, Enforced, LossEvent, LossKind, ACK_APP_LIMITED, ACK_DELAYED,
    ACK_HAS_HOPS, ACK_HAS_LOCAL_RX, ACK_HAS_REMOTE_DELAY, ACK_HAS_RTT, ACK_IN_RECOVERY,
};
use super::super::super::fixed::ewma;
use super::super::{
    target_delay_ns, Config, Params, State, Swift, EWMA_BITS, EWMA_MASK, F_HAS_EWMA, F_LEASE,
    F_LEASE_MIN, F_LEASE_REMOTE, F_LEASE_SUB, F_REMOTE_USED, F_UNDO_ARMED, RTT_MASK,
};
use super::{
    end, grant, on_ack_leased, remote_terms, terms, RemoteTerms, LEASE_AI_MAX_Q20, SWIFT_RTT_US_MAX,
};
use core::mem::MaybeUninit;
use proptest::prelude::*;
extern crate std;
use std::vec::Vec;

const MAX_RATE: u64 = 1 << 40;

/// What a socket gives the glue for one ACK (the fields `rdcc_fill_ack_in` reads).
#[derive(Clone, Copy, Debug)]
struct Ack {
    now_ns: u64,
    /// `rs->rtt_us`; -1 = no sample.
    rtt_us: i64,
    acked_pkts: u32,
    delayed: bool,
    app_limited: bool,
    in_recovery: bool,
    /// A remote delay in the slot, with the entry's local Rx delay and hop count.
    remote_ns: Option<u64>,
    local_rx_ns: Option<u32>,
    hops: Option<u8>,
    srtt_us: u32,
    clamp: u32,
}

impl Ack {
    fn event(&self, mss: u32) -> AckEvent {
        let mut flags = 0;
        if self.rtt_us > 0 {
            flags |= ACK_HAS_RTT;
        }
        if self.app_limited {
            flags |= ACK_APP_LIMITED;
        }
        if self.delayed {
            flags |= ACK_DELAYED;
        }
        if self.in_recovery {
            flags |= ACK_IN_RECOVERY;
        }
        let mut ev = AckEvent {
            now_ns: self.now_ns,
            rtt_ns: if self.rtt_us > 0 {
                self.rtt_us as u64 * 1000
            } else {
                0
            },
            acked_bytes: (u64::from(self.acked_pkts) * u64::from(mss)).min(u32::MAX as u64) as u32,
            mss_bytes: mss,
            flags,
            ..AckEvent::default()
        };
        if let Some(r) = self.remote_ns {
            ev.remote_delay_ns = r;
            ev.flags |= ACK_HAS_REMOTE_DELAY;
            if let Some(l) = self.local_rx_ns {
                ev.local_rx_delay_ns = l;
                ev.flags |= ACK_HAS_LOCAL_RX;
            }
            if let Some(h) = self.hops {
                ev.hops = h;
                ev.flags |= ACK_HAS_HOPS;
            }
        }
        ev
    }
}

/// The C fast path (`rdcc_swift_take`, rdcc_lease_swift.h), transcribed from the paper's
/// lines as the lease's module docs state them, reading only the stored terms and the state:
/// `Some(window, rate)` when it takes the ACK (the state stepped), `None` when it stores
/// nothing and the full path runs.
fn model_take(s: &mut State, a: &Ack, mss: u32, gens_match: bool) -> Option<Enforced> {
    let t = terms(s)?;
    if !gens_match || a.in_recovery || a.remote_ns.is_some() || s.mss_bytes != mss {
        return None;
    }
    if a.rtt_us < 1 || a.rtt_us as u64 > SWIFT_RTT_US_MAX {
        return None;
    }
    let d = a.rtt_us as u64 * 1000; // fabric delay = RTT (no remote delay)
    let acked = (u64::from(a.acked_pkts) * u64::from(mss)).min(u32::MAX as u64) as u32;
    let now = a.now_ns;
    let rtt_before = s.rtt_root & RTT_MASK;
    let w = s.fcwnd_q20;
    let mut f = w;
    enum Zone {
        Increase,
        Hold,
        DelayedHold,
    }
    // The targets in whole µs of the sample (Terms): d < t_lo and d >= t_hi.
    let zone = if (a.rtt_us as u64) <= u64::from(t.inc_max_us) {
        if !a.app_limited {
            // Alg. 1 line 8: cwnd += ai / cwnd per acked packet; num_acked includes the
            // carried bytes (D12b).
            let total = acked.saturating_add(s.pending_acked_bytes);
            let acked_q20 = ((u64::from(total) << 20) / u64::from(mss)).min(1 << 40);
            let inc = (u128::from(t.ai_q20) * u128::from(acked_q20) / u128::from(w)) as u64;
            f = w + inc;
            if f > u64::from(t.w_hi_pkts) << 20 {
                return None;
            }
        }
        Zone::Increase
    } else if (a.rtt_us as u64) >= u64::from(t.hold_min_us) {
        if a.delayed {
            Zone::DelayedHold
        } else {
            // Alg. 1 line 3: an open guard is a decrease (line 12): the full path's.
            if now >= s.t_last_decrease_f_ns && now - s.t_last_decrease_f_ns >= rtt_before {
                return None;
            }
            Zone::Hold
        }
    } else {
        return None;
    };
    // Line 3's clock-went-back rule, for both windows' guards.
    s.t_last_decrease_f_ns = s.t_last_decrease_f_ns.min(now);
    s.t_last_decrease_e_ns = s.t_last_decrease_e_ns.min(now);
    if !a.delayed {
        s.rtt_root = (s.rtt_root & !RTT_MASK) | d;
    }
    // d < 2^32 (SWIFT_RTT_US_MAX); F_REMOTE_USED is clear (a grant premise), and without an
    // EWMA (a grant premise too) the law does not count endpoint_misses.
    s.fabric_delay_ns = u32::try_from(d).unwrap();
    match zone {
        Zone::DelayedHold => s.pending_acked_bytes = s.pending_acked_bytes.saturating_add(acked),
        Zone::Increase => {
            s.pending_acked_bytes = 0;
            s.fcwnd_q20 = f;
        }
        Zone::Hold => {
            s.pending_acked_bytes = 0;
            if t.at_min {
                s.t_last_decrease_f_ns = now; // line 27: at min_cwnd
            }
        }
    }
    // Decision::enforce of the decision: below one packet one packet at w·mss/RTT (line 30),
    // else w >> 20 packets (clamped) at the kernel's 2·cwnd·mss/srtt.
    let clamp = if a.clamp == 0 { 1 } else { a.clamp };
    if t.sub_packet {
        let rtt = s.rtt_root & RTT_MASK;
        let r = u128::from(f) * u128::from(mss) * 1_000_000_000 / (u128::from(rtt) << 20);
        let r = (r.min(u128::from(MAX_RATE)) as u64).max(1);
        return Some(Enforced {
            pacing_rate_bps: r,
            cwnd_pkts: 1,
            _pad: 0,
        });
    }
    Some(enforce_pkts(f, mss, a.srtt_us, clamp))
}

/// Decision::enforce of a window of two packets or more, read from the rule's text: `w >> 20`
/// packets, clamped, at the kernel's `2·cwnd·mss/srtt` (unlimited without an srtt).
fn enforce_pkts(f: u64, mss: u32, srtt_us: u32, clamp: u32) -> Enforced {
    let pkts = ((f >> 20) as u32).min(clamp);
    let rate = if srtt_us == 0 {
        u64::MAX
    } else {
        u64::from(pkts) * u64::from(mss) * 2 * 1_000_000 / u64::from(srtt_us)
    };
    Enforced {
        pacing_rate_bps: rate,
        cwnd_pkts: pkts,
        _pad: 0,
    }
}

/// The C fast path of the remote-delay regime (`rdcc_swift_take_remote`), transcribed from the
/// paper's lines as the lease's module docs state them, reading the stored terms, the state and
/// three parameters (`ai`, the endpoint target and the EWMA's gain, as the C reads them from
/// the parameter block of the lease's generation).
fn model_take_remote(
    p: &Params,
    s: &mut State,
    a: &Ack,
    mss: u32,
    gens_match: bool,
) -> Option<Enforced> {
    let t = remote_terms(s)?;
    let remote = a.remote_ns?;
    if !gens_match || a.in_recovery || s.mss_bytes != mss {
        return None;
    }
    // §3.5: a hop count other than the targets' takes the full path.
    if a.hops.is_some_and(|h| h != s.hops) {
        return None;
    }
    if a.rtt_us < 1 || a.rtt_us as u64 > SWIFT_RTT_US_MAX {
        return None;
    }
    let rtt = a.rtt_us as u64 * 1000;
    // §3.3: the endpoint delay (remote queuing + local Rx); one above the RTT is clamped by
    // the law (D8): the full path's.
    let r = remote.saturating_add(u64::from(a.local_rx_ns.unwrap_or(0)));
    if r > rtt {
        return None;
    }
    let fabric = rtt - r; // §3.3: fabric delay = RTT - endpoint delay, below 2^32
    let c = p.config();
    let acked = (u64::from(a.acked_pkts) * u64::from(mss)).min(u32::MAX as u64) as u32;
    let now = a.now_ns;
    let rtt_before = s.rtt_root & RTT_MASK;
    let w = s.fcwnd_q20;
    let mut f = w;
    let increase = if fabric < u64::from(t.t_lo_ns) {
        if !a.app_limited {
            // Alg. 1 line 8, num_acked with the carried bytes (D12b).
            let total = acked.saturating_add(s.pending_acked_bytes);
            let acked_q20 = ((u64::from(total) << 20) / u64::from(mss)).min(1 << 40);
            let inc = (u128::from(c.ai_pkts_q20) * u128::from(acked_q20) / u128::from(w)) as u64;
            f = w + inc;
            if f > u64::from(t.w_hi_pkts) << 20 {
                return None;
            }
        }
        true
    } else if fabric >= u64::from(t.t_hi_ns) {
        // Alg. 1 line 3: a possibly delayed ACK never decreases; else an open guard is a
        // decrease (line 12), the full path's.
        if !a.delayed && now >= s.t_last_decrease_f_ns && now - s.t_last_decrease_f_ns >= rtt_before
        {
            return None;
        }
        false
    } else {
        return None;
    };
    // §3.3: the endpoint EWMA (not from a possibly delayed ACK, D12c) must stay below its
    // target, where the endpoint window at max_cwnd stays (an increase clamped, line 26).
    let avg = if a.delayed {
        None
    } else {
        let e = ewma(s.endpoint_delay_ewma_ns & EWMA_MASK, r, c.endpoint_ewma_q16);
        if e >= c.endpoint_target_ns {
            return None;
        }
        Some(e)
    };
    s.t_last_decrease_f_ns = s.t_last_decrease_f_ns.min(now);
    s.t_last_decrease_e_ns = s.t_last_decrease_e_ns.min(now);
    if !a.delayed {
        s.rtt_root = (s.rtt_root & !RTT_MASK) | rtt;
    }
    s.fabric_delay_ns = u32::try_from(fabric).unwrap();
    s.pending_acked_bytes = 0; // a remote delay: num_acked is consumed, held or not
    s.fcwnd_q20 = f;
    if !increase && t.at_min {
        s.t_last_decrease_f_ns = now; // line 27: at min_cwnd
    }
    if let Some(e) = avg {
        s.endpoint_delay_ewma_ns = e | (s.endpoint_delay_ewma_ns & !EWMA_MASK);
    }
    let clamp = if a.clamp == 0 { 1 } else { a.clamp };
    Some(enforce_pkts(f, mss, a.srtt_us, clamp))
}

/// The state as the law defines it: the root hint (a guess) cleared, the lease bits cleared,
/// the dead words (no EWMA, no undo armed) zeroed.
fn live(s: &State) -> State {
    let mut n = *s;
    n.rtt_root &= RTT_MASK;
    n.flags &= !(F_LEASE | F_LEASE_SUB | F_LEASE_MIN | F_LEASE_REMOTE);
    if n.flags & F_HAS_EWMA == 0 {
        n.endpoint_delay_ewma_ns = 0;
    } else {
        n.endpoint_delay_ewma_ns &= EWMA_MASK;
    }
    if n.flags & F_UNDO_ARMED == 0 {
        n.undo_fcwnd_q20 = 0;
    }
    n
}

#[derive(Clone, Debug)]
enum Op {
    Ack(Ack),
    Loss(LossKind),
    Undo,
    Idle,
    /// A parameter write: the generation moves, and the set becomes `sets[i % sets.len()]`.
    Gen(usize),
    Mss(u32),
}

/// Runs `ops` twice: the law on every event (the reference), and the glue with the lease (the
/// fast path where it takes the ACK, else the full path; `end` before every other law call).
/// Returns the number of ACKs the fast path took.
fn run(sets: &[Params], ops: &[Op]) -> Result<usize, TestCaseError> {
    let mut p = &sets[0];
    let mut r = State::default();
    let mut l = State::default();
    let mut mss = 1448u32;
    let (mut gen, mut lease_gen) = (1u32, 0u32);
    Swift::init(p, &mut r, 1_000_000, mss);
    Swift::init(p, &mut l, 1_000_000, mss);
    let mut fast = 0;
    for (i, op) in ops.iter().enumerate() {
        match op {
            Op::Ack(a) => {
                let ev = a.event(mss);
                let want = Swift::on_ack(p, &mut r, &ev).enforce(mss, a.srtt_us, a.clamp);
                let took = if a.remote_ns.is_some() {
                    model_take_remote(p, &mut l, a, mss, lease_gen == gen)
                } else {
                    model_take(&mut l, a, mss, lease_gen == gen)
                };
                let got = match took {
                    Some(e) => {
                        fast += 1;
                        e
                    }
                    None => {
                        let (mut d, mut e) = (MaybeUninit::uninit(), MaybeUninit::uninit());
                        let (_, e) =
                            on_ack_leased(p, &mut l, &ev, a.srtt_us, a.clamp, &mut d, &mut e);
                        lease_gen = gen;
                        *e
                    }
                };
                prop_assert_eq!(got, want, "op {}: {:?}", i, a);
            }
            Op::Loss(k) => {
                let ev = LossEvent {
                    now_ns: 0,
                    mss_bytes: mss,
                    kind: *k,
                };
                Swift::on_loss(p, &mut r, &ev);
                end(&mut l);
                Swift::on_loss(p, &mut l, &ev);
            }
            Op::Undo => {
                Swift::on_undo(p, &mut r, mss);
                end(&mut l);
                Swift::on_undo(p, &mut l, mss);
            }
            Op::Idle => {
                Swift::on_idle_restart(p, &mut r, 0, mss);
                end(&mut l);
                Swift::on_idle_restart(p, &mut l, 0, mss);
            }
            Op::Gen(k) => {
                gen += 1;
                p = &sets[k % sets.len()];
            }
            Op::Mss(m) => mss = *m,
        }
        prop_assert_eq!(live(&l), live(&r), "op {}: {:?}", i, op);
    }
    Ok(fast)
}

fn arb_config() -> impl Strategy<Value = Config> {
    (
        prop_oneof![Just(1u64 << 20), 1u64..(8 << 20), Just(u64::MAX >> 20)],
        prop_oneof![Just(1048u64), Just(1 << 20), Just(2 << 20), Just(3 << 20)],
        prop_oneof![Just(0u64), Just(1)],
        prop_oneof![Just(25_000u64), 5_000u64..60_000],
        prop_oneof![Just(256u64 << 20), (4u64 << 20)..(64 << 20)],
        prop_oneof![Just(50_000u64), 1_000u64..60_000],
        prop_oneof![Just(8_192u64), Just(65_536), 1u64..65_537],
    )
        .prop_map(|(ai, min, literal, base, max, e_target, gain)| Config {
            ai_pkts_q20: ai.min(max),
            min_cwnd_pkts_q20: min,
            max_cwnd_pkts_q20: max,
            init_cwnd_pkts_q20: Config::DEFAULT.init_cwnd_pkts_q20.min(max),
            literal_decrease_guard: literal,
            base_target_ns: base,
            endpoint_target_ns: e_target,
            endpoint_ewma_q16: gain,
            ..Config::DEFAULT
        })
}

/// An ACK near `base_us` µs of RTT; with probability `remote_p` a remote delay (an RTT of the
/// base plus that delay), sometimes with a local Rx delay and a hop count.
fn arb_ack(base_us: i64, remote_p: f64) -> impl Strategy<Value = (u64, Ack)> {
    (
        prop_oneof![8 => 0u64..2_000, 1 => 0u64..200_000, 1 => Just(u64::MAX - 5_000_000)],
        prop_oneof![10 => (base_us - 15)..(base_us + 25), 1 => Just(-1i64), 1 => Just(0), 1 => Just(SWIFT_RTT_US_MAX as i64), 1 => Just(SWIFT_RTT_US_MAX as i64 + 1)],
        prop_oneof![6 => 1u32..3, 1 => Just(0), 1 => 0u32..100_000],
        prop::bool::weighted(0.2),
        prop::bool::weighted(0.1),
        prop::bool::weighted(0.05),
        prop::option::weighted(
            remote_p,
            (
                prop_oneof![8 => 0u64..40_000, 1 => 40_000u64..80_000, 1 => Just(u64::MAX)],
                prop::option::weighted(0.3, 0u32..5_000),
                prop::option::weighted(0.3, prop_oneof![Just(2u8), 0u8..8]),
            ),
        ),
        prop_oneof![Just(0u32), 1u32..500],
        prop_oneof![Just(0u32), 1u32..100, Just(u32::MAX)],
    )
        .prop_map(|(dt, rtt_us, acked, delayed, app, rec, remote, srtt, clamp)| {
            let (remote_ns, local_rx_ns, hops) = match remote {
                Some((r, l, h)) => (Some(r), l, h),
                None => (None, None, None),
            };
            // A remote delay adds to the RTT (most of the time: else it is clamped, D8).
            let rtt_us = match remote_ns {
                Some(r) if rtt_us > 0 && rtt_us < 1_000_000 && r % 8 != 0 => {
                    rtt_us + (r.min(1 << 20) / 1000) as i64
                }
                _ => rtt_us,
            };
            (
                dt,
                Ack {
                    now_ns: 0,
                    rtt_us,
                    acked_pkts: acked,
                    delayed,
                    app_limited: app,
                    in_recovery: rec,
                    remote_ns,
                    local_rx_ns,
                    hops,
                    srtt_us: srtt,
                    clamp,
                },
            )
        })
}

fn arb_ops(remote_p: f64) -> impl Strategy<Value = Vec<Op>> {
    (20i64..40).prop_flat_map(move |base_us| {
        proptest::collection::vec(
            prop_oneof![
                60 => arb_ack(base_us, remote_p).prop_map(|(dt, a)| Op::Ack(Ack { now_ns: dt, ..a })),
                1 => prop_oneof![Just(LossKind::FastRecovery), Just(LossKind::RetransmitTimeout)].prop_map(Op::Loss),
                1 => Just(Op::Undo),
                1 => Just(Op::Idle),
                1 => (0usize..4).prop_map(Op::Gen),
                1 => prop_oneof![Just(1448u32), Just(9000), 1u32..70_000].prop_map(Op::Mss),
            ],
            1..400,
        )
    })
}

/// Turns the ACKs' time steps into a clock (wrapping, so a huge step is a clock going back).
fn clocked(mut ops: Vec<Op>) -> Vec<Op> {
    let mut now = 1_000_000u64;
    for op in &mut ops {
        if let Op::Ack(a) = op {
            now = now.wrapping_add(a.now_ns);
            a.now_ns = now;
        }
    }
    ops
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// With the lease, every event gives the window, the rate and the state of the law called
    /// on every event.
    #[test]
    fn lease_keeps_every_decision(
        cfgs in proptest::collection::vec(arb_config(), 1..3),
        ops in arb_ops(0.05),
    ) {
        let p: Vec<Params> = cfgs.iter().map(|c| Params::new(c).unwrap()).collect();
        let ops = clocked(ops);
        run(&p, &ops)?;
    }

    /// The same in the remote-delay regime (most ACKs carry a remote delay): the lease of that
    /// regime keeps every decision too.
    #[test]
    fn remote_lease_keeps_every_decision(
        cfgs in proptest::collection::vec(arb_config(), 1..3),
        ops in arb_ops(0.9),
    ) {
        let p: Vec<Params> = cfgs.iter().map(|c| Params::new(c).unwrap()).collect();
        let ops = clocked(ops);
        run(&p, &ops)?;
    }
}

/// The bench's `dc` stream (18-30 µs RTTs, delayed ACKs of two segments 240 ns apart), the same
/// with the receiver's remote delay on every ACK (1-5 µs, 2 hops: `swift+rqd`) and its `subpkt`
/// stream (150-250 µs, one segment 10 µs apart), open loop: the law's decisions are kept, and
/// the fast path takes most ACKs (the lease is not vacuous).
#[test]
fn bench_streams_are_leased() {
    let p = Params::new(&Config::DEFAULT).unwrap();
    for (name, lo, span, dt, segs, remote, min_fast) in [
        ("dc", 18u32, 12u32, 240u64, 2u32, false, 0.9),
        ("dc+rqd", 18, 12, 240, 2, true, 0.9),
        ("subpkt", 150, 100, 10_000, 1, false, 0.9),
    ] {
        let mut rng: u32 = 2_463_534_242;
        let mut now = 1_000_000u64;
        let ops: Vec<Op> = (0..20_000)
            .map(|_| {
                rng ^= rng << 13;
                rng ^= rng >> 17;
                rng ^= rng << 5;
                now += dt;
                Op::Ack(Ack {
                    now_ns: now,
                    rtt_us: i64::from(lo + rng % span),
                    acked_pkts: segs,
                    delayed: false,
                    app_limited: false,
                    in_recovery: false,
                    remote_ns: remote.then_some(1_000 + u64::from(rng >> 8) % 4_000),
                    local_rx_ns: None,
                    hops: remote.then_some(2),
                    srtt_us: 25,
                    clamp: 64,
                })
            })
            .collect();
        let fast = run(core::slice::from_ref(&p), &ops).unwrap();
        let share = fast as f64 / ops.len() as f64;
        assert!(
            share >= min_fast,
            "{name}: {share:.3} of ACKs on the fast path"
        );
    }
}

/// Each premise of the grant, alone, refuses it; the terms are the targets at the bounds.
#[test]
fn grant_table() {
    let p = Params::new(&Config::DEFAULT).unwrap();
    let c = Config::DEFAULT;
    // A state after a few ACKs at 40 packets, 20 µs, no remote delay.
    let base = || {
        let mut s = State::default();
        Swift::init(&p, &mut s, 1_000_000, 1448);
        s.fcwnd_q20 = 40 << 20;
        s.rtt_root = 20_000;
        s
    };
    let mut s = base();
    assert!(grant(&p, &mut s, false));
    let t = terms(&s).unwrap();
    // w_hi = 40 + max(2·ai, 40/16) = 42.5 -> 42 packets (ai = 1 packet by default).
    assert_eq!(c.ai_pkts_q20, 1 << 20);
    assert_eq!(t.w_hi_pkts, 42);
    // The targets in whole µs: increases for d = rtt_us·1000 < t_lo, holds for d >= t_hi.
    let (t_lo, t_hi) = (
        target_delay_ns(&p, 42 << 20, s.hops),
        target_delay_ns(&p, 40 << 20, s.hops),
    );
    assert_eq!(u64::from(t.inc_max_us), (t_lo - 1) / 1000);
    assert_eq!(u64::from(t.hold_min_us), t_hi.div_ceil(1000));
    assert!(u64::from(t.inc_max_us) * 1000 < t_lo && (u64::from(t.inc_max_us) + 1) * 1000 >= t_lo);
    assert!(
        u64::from(t.hold_min_us) * 1000 >= t_hi && (u64::from(t.hold_min_us) - 1) * 1000 < t_hi
    );
    assert!(t.inc_max_us < t.hold_min_us && !t.sub_packet && !t.at_min);
    assert_eq!(t.ai_q20, 1 << 20);
    type Edit = fn(&mut State);
    let refused: &[(&str, Edit, bool)] = &[
        ("recovery", |_| {}, true),
        ("not initialised", |s| *s = State::default(), false),
        ("EWMA", |s| s.flags |= F_HAS_EWMA, false),
        ("undo armed", |s| s.flags |= F_UNDO_ARMED, false),
        (
            "remote delay used",
            |s| s.flags |= super::super::F_REMOTE_USED,
            false,
        ),
        ("RTO pending", |s| s.retransmit_cnt = 1, false),
        ("no RTT", |s| s.rtt_root = 0, false),
        // 2^32 ns: bits 32-33 of rtt_root set (the C stores RTTs into the low 32 bits)
        ("RTT of 2^32 ns", |s| s.rtt_root = 1 << 32, false),
        ("endpoint binds", |s| s.ecwnd_q20 = 39 << 20, false),
        ("1.5 packets", |s| s.fcwnd_q20 = 3 << 19, false),
        ("1 packet", |s| s.fcwnd_q20 = 1 << 20, false),
        (
            "0 bytes",
            |s| {
                s.fcwnd_q20 = 1;
                s.mss_bytes = 15;
            },
            false,
        ),
        ("no MSS", |s| s.mss_bytes = 0, false),
    ];
    for &(name, edit, rec) in refused {
        let mut s = base();
        edit(&mut s);
        let before = s;
        assert!(!grant(&p, &mut s, rec), "{name}");
        assert_eq!(s.flags & F_LEASE, 0, "{name}");
        assert_eq!(live(&s), live(&before), "{name}");
    }
    // Below one packet: holds only, paced; at min_cwnd the hold refreshes the guard.
    let mut s = base();
    s.fcwnd_q20 = c.min_cwnd_pkts_q20;
    assert!(grant(&p, &mut s, false));
    let t = terms(&s).unwrap();
    assert!(t.sub_packet && t.at_min && t.inc_max_us == 0);
    // The paper-literal guard: no lease.
    let lit = Params::new(&Config {
        literal_decrease_guard: 1,
        ..Config::DEFAULT
    })
    .unwrap();
    let mut s = base();
    assert!(!grant(&lit, &mut s, false));
    // The window bound at max_cwnd: no increase leased when max_cwnd is within the packet.
    let cap = Params::new(&Config {
        max_cwnd_pkts_q20: (40 << 20) + 5,
        ..Config::DEFAULT
    })
    .unwrap();
    let mut s = base();
    s.ecwnd_q20 = cap.config().max_cwnd_pkts_q20;
    assert!(grant(&cap, &mut s, false));
    assert_eq!(terms(&s).unwrap().inc_max_us, 0);
    // ai at the lease's bound: increases leased just below it, none at it (the C's
    // ai·num_acked must fit 64 bits).
    for (ai, leased) in [(LEASE_AI_MAX_Q20 - 1, true), (LEASE_AI_MAX_Q20, false)] {
        let q = Params::new(&Config {
            ai_pkts_q20: ai,
            ..Config::DEFAULT
        })
        .unwrap();
        let mut s = base();
        s.fcwnd_q20 = 200 << 20; // w_hi = min(200 + 2·ai, max_cwnd): past the window
        s.ecwnd_q20 = q.config().max_cwnd_pkts_q20;
        assert!(grant(&q, &mut s, false), "ai {ai}");
        let t = terms(&s).unwrap();
        assert_eq!(t.inc_max_us != 0, leased, "ai {ai}");
        assert_eq!(u64::from(t.ai_q20), if leased { ai } else { 0 }, "ai {ai}");
    }
    // end() restores the dead words.
    let mut s = base();
    let before = s;
    grant(&p, &mut s, false);
    end(&mut s);
    assert_eq!(s.flags, before.flags);
    assert_eq!(s.endpoint_delay_ewma_ns, 0);
    assert_eq!(s.undo_fcwnd_q20, 0);
}

/// The remote-delay regime's grant: its premises, alone, each refuse it; the terms are the
/// targets at the bounds in ns and the bound above the EWMA's bits, which `end` keeps.
#[test]
fn remote_grant_table() {
    let p = Params::new(&Config::DEFAULT).unwrap();
    let c = Config::DEFAULT;
    // A state after ACKs with a remote delay at 40 packets, 24 µs, an EWMA of 3 µs, 2 hops.
    let base = || {
        let mut s = State::default();
        Swift::init(&p, &mut s, 1_000_000, 1448);
        s.fcwnd_q20 = 40 << 20;
        s.rtt_root = 24_000;
        s.hops = 2;
        s.endpoint_delay_ewma_ns = 3_000;
        s.flags |= F_HAS_EWMA | F_REMOTE_USED;
        s
    };
    let mut s = base();
    assert!(grant(&p, &mut s, false));
    assert!(
        terms(&s).is_none(),
        "the other regime's fast path sees no lease"
    );
    assert_eq!(s.flags & (F_LEASE | F_LEASE_REMOTE), F_LEASE_REMOTE);
    let t = remote_terms(&s).unwrap();
    // w_hi = 40 + max(2·ai, 40/16) = 42.5 -> 42 packets; the targets in ns.
    assert_eq!(
        t,
        RemoteTerms {
            t_lo_ns: target_delay_ns(&p, 42 << 20, 2) as u32,
            t_hi_ns: target_delay_ns(&p, 40 << 20, 2) as u32,
            w_hi_pkts: 42,
            at_min: false,
        }
    );
    assert_eq!(s.endpoint_delay_ewma_ns, 3_000 | 42 << EWMA_BITS);
    assert_eq!(
        s.endpoint_delay_ewma_ns(),
        Some(3_000),
        "the EWMA reads through the bound"
    );
    end(&mut s);
    assert_eq!(
        live(&s),
        live(&base()),
        "end restores the state the law made"
    );
    assert_eq!(s.endpoint_delay_ewma_ns, 3_000);
    type Edit = fn(&mut State);
    let refused: &[(&str, Edit, bool)] = &[
        ("recovery", |_| {}, true),
        (
            "EWMA without a remote delay",
            |s| s.flags &= !F_REMOTE_USED,
            false,
        ),
        (
            "a remote delay without an EWMA",
            |s| s.flags &= !F_HAS_EWMA,
            false,
        ),
        ("a miss counted", |s| s.endpoint_misses = 1, false),
        (
            "endpoint window below max_cwnd",
            |s| s.ecwnd_q20 -= 1,
            false,
        ),
        ("undo armed", |s| s.flags |= F_UNDO_ARMED, false),
        ("RTO pending", |s| s.retransmit_cnt = 1, false),
        ("no RTT", |s| s.rtt_root = 0, false),
        ("1.5 packets", |s| s.fcwnd_q20 = 3 << 19, false),
        ("below one packet", |s| s.fcwnd_q20 = 1 << 19, false),
    ];
    for &(name, edit, rec) in refused {
        let mut s = base();
        edit(&mut s);
        let before = s;
        assert!(!grant(&p, &mut s, rec), "{name}");
        assert_eq!(s.flags, before.flags, "{name}");
        assert_eq!(live(&s), live(&before), "{name}");
    }
    // max_cwnd == min_cwnd: the endpoint window's guard would be refreshed (line 27).
    let flat = Params::new(&Config {
        min_cwnd_pkts_q20: 40 << 20,
        max_cwnd_pkts_q20: 40 << 20,
        init_cwnd_pkts_q20: 40 << 20,
        ..c
    })
    .unwrap();
    let mut s = base();
    s.ecwnd_q20 = 40 << 20;
    assert!(!grant(&flat, &mut s, false));
}
