// SPDX-License-Identifier: GPL-2.0-only
//! Unit and property tests of θ-PowerTCP's hold lease (`powertcp_lease.rs`), in a file of their
//! own to keep both within the project's file size; `pacing_bps`'s test moved here from
//! `powertcp.rs` for the same reason. The whole file is test code: core/tests/forbidden.rs skips
//! a file from its first `#[cfg(test)]` line on, the next line.
#[cfg(test)]
use super::super::super::event::{
    AckEvent, Controller, Decision, LossEvent, LossKind, Reason, ACK_APP_LIMITED, ACK_DELAYED,
    ACK_ECE, ACK_HAS_REMOTE_DELAY, ACK_HAS_RTT, ACK_IN_RECOVERY,
};
use super::super::super::fixed::{mul_div, MAX_RATE_BPS, NS_PER_S, Q16_SHIFT};
use super::super::{
    pacing_bps, smooth, Config, Params, State, ThetaPowerTcp, BASE_RTT_CONFIGURED,
    BASE_RTT_MIN_RTT, FLAG_HAVE_PREV, FLAG_INIT, FLAG_SMOOTH, GRADIENT_PER_ACK, GRADIENT_PER_RTT,
    MAX_CWND_BYTES,
};
use super::{
    on_due, DueIn, Take, ThetaLease, THETA_LIFE_NS, THETA_RTT_US_MAX, THETA_UPDATE_MAX_NS,
};
use core::cell::Cell;
use core::mem::MaybeUninit;
use proptest::prelude::*;
use proptest::test_runner::TestRunner;

fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

/// Raw values -> a θ-PowerTCP configuration the law accepts (hold_equivalence.rs's generator,
/// copied, weighted towards the leased modes, with τ at its edges 1 µs and 1 s).
fn arb_params() -> impl Strategy<Value = Params> {
    (
        (
            prop_oneof![Just(58_982u64), 1u64..=65_536],
            prop_oneof![
                3 => Just(20_000u64),
                1 => Just(1_000u64),
                1 => Just(1_000_000_000u64),
                2 => 1_000u64..=200_000,
                1 => 1_000u64..=1_000_000_000,
            ],
            prop_oneof![
                Just(3_125_000_000u64),
                Just(125_000u64),
                125_000u64..=(1u64 << 40)
            ],
            prop_oneof![Just(10u64), 1u64..=1_000],
            prop_oneof![Just(0u64), 1u64..=100_000],
            prop_oneof![Just(1_448u64), 1u64..=10_000],
        ),
        (
            prop_oneof![Just(0u64), 10_000u64..=10_000_000],
            prop_oneof![Just(32_768u64), 0u64..=65_536],
            prop_oneof![Just(0u64), 655u64..=(1u64 << 32)],
            prop_oneof![3 => Just(GRADIENT_PER_RTT), 1 => Just(GRADIENT_PER_ACK)],
            prop_oneof![Just(0u64), 0u64..=65_536],
            prop_oneof![3 => Just(BASE_RTT_CONFIGURED), 1 => Just(BASE_RTT_MIN_RTT)],
        ),
    )
        .prop_filter_map(
            "the law validates the configuration",
            |((g, tau, bw, n, beta, min), (max, floor, sinit, mode, md, tmode))| {
                Params::new(&Config {
                    gamma_q16: g,
                    base_rtt_ns: tau,
                    host_bw_bps: bw,
                    expected_flows: n,
                    beta_bytes: beta,
                    min_cwnd_bytes: min,
                    max_cwnd_bytes: max,
                    grad_floor_q16: floor,
                    smooth_init_q16: sinit,
                    gradient_mode: mode,
                    loss_md_q16: md,
                    base_rtt_mode: tmode,
                })
                .ok()
            },
        )
}

/// Init, then `n` pseudo-random ACKs (xorshift from `seed`) through `on_ack`, with a loss event
/// now and then: a state the law reaches.
fn reached(p: &Params, n: u32, seed: u64) -> State {
    let mut s = State::default();
    ThetaPowerTcp::init(p, &mut s, 0, 1448);
    let mut x = seed | 1;
    let mut now = 1_000_000 + seed % 1_000_000;
    let mut una = (seed >> 20) as u32;
    for _ in 0..n {
        let r = xorshift(&mut x);
        now = now.wrapping_add(match r % 8 {
            0 => 0,
            1 => r % 100_000,
            _ => 240 + r % 2_000,
        });
        una = una.wrapping_add(((r >> 8) % 3) as u32 * 1448);
        let rtt = 18_000 + (r >> 32) % 200_000;
        let ev = AckEvent {
            now_ns: now,
            rtt_ns: rtt,
            mss_bytes: 1448,
            snd_una: una,
            snd_nxt: una.wrapping_add(((r >> 16) % 64) as u32 * 1448),
            flags: if (r >> 24) % 16 == 0 { 0 } else { ACK_HAS_RTT },
            ..AckEvent::default()
        };
        ThetaPowerTcp::on_ack(p, &mut s, &ev);
        if (r >> 40) % 64 == 0 {
            let kind = if r % 2 == 0 {
                LossKind::FastRecovery
            } else {
                LossKind::RetransmitTimeout
            };
            let ev = LossEvent {
                now_ns: now,
                mss_bytes: 1448,
                kind,
            };
            ThetaPowerTcp::on_loss(p, &mut s, &ev);
        }
    }
    s
}

/// A state no ACK sequence need reach but every grant premise holds for, at the edges of
/// `update_ns`, `last_ack_ns − update_ns` and `rtt_smooth_ns` (`pick`), the rest from `seed`.
fn literal(seed: u64, pick: u32) -> State {
    let mut x = seed | 1;
    let mut r = || xorshift(&mut x);
    let update_ns = match pick % 4 {
        0 => THETA_UPDATE_MAX_NS,
        1 => r() % THETA_UPDATE_MAX_NS,
        2 => 1_000_000,
        _ => r() >> 20,
    };
    let gap = match (pick / 4) % 4 {
        0 => 0,
        1 => THETA_LIFE_NS,
        2 => r() % 100_000,
        _ => r() % THETA_LIFE_NS,
    };
    State {
        cwnd_q16: r() >> (r() % 48),
        prev_cwnd_q16: r() >> (r() % 48),
        power_smooth_q16: r() >> 31,
        undo_cwnd_q16: 0,
        update_ns,
        last_ack_ns: update_ns + gap,
        marker_seq: r() as u32,
        prev_rtt_ns: r() as u32,
        rtt_smooth_ns: match (pick / 16) % 4 {
            0 => 0,
            1 => u32::MAX,
            2 => 24_000,
            _ => r() as u32,
        },
        min_rtt_ns: 0,
        flags: FLAG_INIT | FLAG_HAVE_PREV | if r() % 2 == 0 { FLAG_SMOOTH } else { 0 },
    }
}

/// The clock of an ACK at an edge of the state (`pick`): relative to `last_ack_ns` (0, 1,
/// τ − 1, τ, τ + 1, back by 1 or 2^40), to `update_ns + rtt` (−1, 0, +1) or to the lease's
/// lifetime after `update_ns` (0, +1); otherwise anywhere within 4 τ after `last_ack_ns`.
fn edge_now(s: &State, tau: u64, rtt_ns: u64, pick: u32, r: u64) -> u64 {
    let (last, upd) = (s.last_ack_ns, s.update_ns);
    match pick {
        0 => last,
        1 => last.wrapping_add(1),
        2 => last.wrapping_add(tau - 1),
        3 => last.wrapping_add(tau),
        4 => last.wrapping_add(tau + 1),
        5 => last.wrapping_sub(1),
        6 => last.wrapping_sub(1 << 40),
        7 => upd.wrapping_add(rtt_ns - 1),
        8 => upd.wrapping_add(rtt_ns),
        9 => upd.wrapping_add(rtt_ns + 1),
        10 => upd.wrapping_add(THETA_LIFE_NS),
        11 => upd.wrapping_add(THETA_LIFE_NS + 1),
        _ => last.wrapping_add(r % (4 * tau)),
    }
}

/// `snd_una` at an edge of `marker_seq` (`pick`: −1, 0, +1, +2^31, +2^31 − 1), or anywhere.
fn edge_una(marker: u32, pick: u32, r: u64) -> u32 {
    match pick {
        0 => marker.wrapping_sub(1),
        1 => marker,
        2 => marker.wrapping_add(1),
        3 => marker.wrapping_add(1 << 31),
        4 => marker.wrapping_add((1 << 31) - 1),
        _ => r as u32,
    }
}

fn arb_rtt_us() -> impl Strategy<Value = i64> {
    prop_oneof![
        6 => 18i64..30,
        2 => 1i64..2_000,
        1 => Just(-1i64),
        1 => Just(0i64),
        1 => Just(1i64),
        1 => Just(4_294_967i64),
        1 => Just(4_294_968i64),
        1 => Just(i64::MAX),
        1 => any::<i64>(),
    ]
}

/// One case of `take_matches_on_ack`.
#[derive(Clone, Debug)]
struct Case {
    p: Params,
    /// The parameters in force at the due path (a write since the grant), or the same.
    p2: Params,
    warm: u32,
    seed: u64,
    /// Some: a `literal` state instead of a reached one.
    literal: Option<u32>,
    mss: u32,
    clamp: u32,
    srtt: u32,
    rtt_us: i64,
    now_pick: u32,
    una_pick: u32,
    r: u64,
    nxt_off: u32,
    /// 0-5: the socket has the lease's keys; 6: the next generation, 7: another MSS, 8:
    /// another clamp.
    key: u32,
}

fn arb_case() -> impl Strategy<Value = Case> {
    (
        (
            arb_params(),
            prop::option::of(arb_params()),
            0u32..200,
            any::<u64>(),
            prop_oneof![3 => Just(None::<u32>), 1 => (0u32..64).prop_map(Some)],
        ),
        (
            prop_oneof![
                Just(1448u32),
                Just(9000u32),
                Just(1u32),
                Just(88u32),
                any::<u32>()
            ],
            prop_oneof![
                Just(64u32),
                Just(0u32),
                Just(1u32),
                Just(u32::MAX),
                any::<u32>()
            ],
            prop_oneof![Just(25u32), Just(0u32), any::<u32>()],
            arb_rtt_us(),
        ),
        (0u32..16, 0u32..6, any::<u64>(), any::<u32>(), 0u32..9),
    )
        .prop_map(
            |((p, p2, warm, seed, literal), (mss, clamp, srtt, rtt_us), (np, up, r, nxt, key))| {
                Case {
                    p2: p2.unwrap_or(p),
                    p,
                    warm,
                    seed,
                    literal,
                    mss,
                    clamp,
                    srtt,
                    rtt_us,
                    now_pick: np,
                    una_pick: up,
                    r,
                    nxt_off: nxt,
                    key,
                }
            },
        )
}

/// The single-step claim for one case: whatever `take` says, it agrees with `on_ack` on the
/// same ACK (Hold: the same state and enforced output; Due: nothing stored, and `on_due`
/// under the parameters then in force gives `on_ack`'s state, decision, enforcement and next
/// lease; Full: nothing stored). `n` counts the outcomes (Full, Hold, Due).
fn check(c: &Case, n: &Cell<[u64; 3]>) -> Result<(), TestCaseError> {
    let p = &c.p;
    let s = match c.literal {
        Some(pick) => literal(c.seed, pick),
        None => reached(p, c.warm, c.seed),
    };
    let d = ThetaPowerTcp::current(p, &s, c.mss);
    let e = d.enforce(c.mss, c.srtt, c.clamp);
    let lease = ThetaLease::grant(p, &s, &d, &e, c.mss, c.clamp, 7, false);
    if lease == ThetaLease::default() {
        return Ok(());
    }
    let tau = u64::from(lease.tau_ns);
    let rtt_ns = if c.rtt_us > 0 {
        (c.rtt_us as u64).wrapping_mul(1000)
    } else {
        0
    };
    let in_range = c.rtt_us >= 1 && c.rtt_us <= THETA_RTT_US_MAX as i64;
    let edge_rtt_ns = if in_range { rtt_ns } else { 25_000 };
    let now = edge_now(&s, tau, edge_rtt_ns, c.now_pick, c.r);
    let una = edge_una(s.marker_seq, c.una_pick, c.r);
    let (gen, mss, clamp) = match c.key {
        6 => (8, c.mss, c.clamp),
        7 => (7, c.mss.wrapping_add(1), c.clamp),
        8 => (7, c.mss, c.clamp.wrapping_add(1)),
        _ => (7, c.mss, c.clamp),
    };
    let ev = AckEvent {
        now_ns: now,
        rtt_ns,
        mss_bytes: mss,
        snd_una: una,
        snd_nxt: una.wrapping_add(c.nxt_off),
        flags: if c.rtt_us > 0 { ACK_HAS_RTT } else { 0 },
        ..AckEvent::default()
    };
    let srtt = c.srtt.wrapping_add(1); // any srtt: the lease must not depend on it
    let mut s_ref = s;
    let d_ref = ThetaPowerTcp::on_ack(p, &mut s_ref, &ev);
    let mut s_take = s;
    let mut counts = n.get();
    match lease.take(&mut s_take, gen, mss, clamp, now, c.rtt_us, una) {
        Take::Full => {
            counts[0] += 1;
            prop_assert_eq!(s_take, s, "Full stored something");
        }
        Take::Hold(e_take) => {
            counts[1] += 1;
            prop_assert_eq!(s_take, s_ref, "Hold: state");
            prop_assert_eq!(e_take, d_ref.enforce(mss, srtt, clamp), "Hold: output");
            prop_assert!(matches!(d_ref.reason, Reason::Hold | Reason::NoSample));
        }
        Take::Due {
            now_ns,
            rtt_ns,
            rtt_smooth_ns,
        } => {
            counts[2] += 1;
            prop_assert_eq!(s_take, s, "Due stored something");
            prop_assert_eq!(d_ref.reason, Reason::GradientUpdate);
            let inp = DueIn {
                now_ns,
                rtt_ns,
                rtt_smooth_ns,
                snd_una: una,
                snd_nxt: ev.snd_nxt,
                mss,
                srtt_us: srtt,
                clamp_pkts: clamp,
            };
            for q in [p, &c.p2] {
                let mut s_want = s;
                let d_want = ThetaPowerTcp::on_ack(q, &mut s_want, &ev);
                let e_want = d_want.enforce(mss, srtt, clamp);
                let l_want =
                    ThetaLease::grant(q, &s_want, &d_want, &e_want, mss, clamp, gen, false);
                let (mut s_due, mut l_due) = (s, lease);
                let (mut d_due, mut e_due) = (MaybeUninit::uninit(), MaybeUninit::uninit());
                let (d_due, e_due) =
                    on_due(q, &mut s_due, &inp, &mut l_due, gen, &mut d_due, &mut e_due);
                prop_assert_eq!(s_due, s_want, "on_due: state");
                prop_assert_eq!(*d_due, d_want, "on_due: decision");
                prop_assert_eq!(*e_due, e_want, "on_due: enforced");
                prop_assert_eq!(l_due, l_want, "on_due: next lease");
            }
        }
    }
    n.set(counts);
    Ok(())
}

/// The core single-step claim (plan §6.1), on reached and on literal states, with every ACK
/// input at an edge of the fast path's tests; each outcome must occur in at least 1 case in 20
/// of those with a lease (a lease never taken would pass the comparisons alone).
#[test]
fn take_matches_on_ack() {
    let mut runner = TestRunner::new(ProptestConfig {
        cases: 1024,
        ..ProptestConfig::default()
    });
    let n = Cell::new([0u64; 3]);
    let outcome = runner.run(&arb_case(), |c| check(&c, &n));
    assert!(outcome.is_ok(), "{}", outcome.unwrap_err());
    let [full, hold, due] = n.get();
    let all = full + hold + due;
    assert!(all >= 200, "only {} of 1024 cases had a lease", all);
    for (what, k) in [("Full", full), ("Hold", hold), ("Due", due)] {
        assert!(k * 20 >= all, "{} in {} of {} leased cases", what, k, all);
    }
}

/// `on_due` under parameters written since the grant (another τ, the per-ACK cadence, the
/// minimum-RTT τ, another γ), under the same ones, and with a lease of another generation:
/// always `on_ack`'s result under the parameters in force. Another τ catches an `on_due` that
/// uses the C's average without comparing τ (the average depends on τ through dt < τ).
#[test]
fn due_matches_on_ack_under_new_params() {
    let p1 = Params::new(&Config::DEFAULT).unwrap();
    let with = |f: fn(&mut Config)| {
        let mut c = Config::DEFAULT;
        f(&mut c);
        Params::new(&c).unwrap()
    };
    let others = [
        p1,
        with(|c| c.base_rtt_ns = 40_000),
        with(|c| c.gradient_mode = GRADIENT_PER_ACK),
        with(|c| c.base_rtt_mode = BASE_RTT_MIN_RTT),
        with(|c| c.gamma_q16 = 32_768),
    ];
    let s = reached(&p1, 60, 5);
    let d = ThetaPowerTcp::current(&p1, &s, 1448);
    let e = d.enforce(1448, 25, 64);
    let lease = ThetaLease::grant(&p1, &s, &d, &e, 1448, 64, 3, false);
    assert_ne!(lease, ThetaLease::default(), "no lease on {:?}", s);
    // 240 ns after the last sample (dt < τ: the average is a true average), snd_una at the
    // marker (due by sequence).
    let (now, una) = (s.last_ack_ns + 240, s.marker_seq);
    let mut s_take = s;
    let taken = lease.take(&mut s_take, 3, 1448, 64, now, 25, una);
    assert!(matches!(taken, Take::Due { .. }), "not due: {:?}", taken);
    let Take::Due {
        now_ns,
        rtt_ns,
        rtt_smooth_ns,
    } = taken
    else {
        return;
    };
    let inp = DueIn {
        now_ns,
        rtt_ns,
        rtt_smooth_ns,
        snd_una: una,
        snd_nxt: una.wrapping_add(40 * 1448),
        mss: 1448,
        srtt_us: 25,
        clamp_pkts: 64,
    };
    let ev = AckEvent {
        now_ns,
        rtt_ns,
        mss_bytes: 1448,
        snd_una: una,
        snd_nxt: inp.snd_nxt,
        flags: ACK_HAS_RTT,
        ..AckEvent::default()
    };
    for (i, q) in others.iter().enumerate() {
        for gen in [3, 4] {
            let mut s_want = s;
            let d_want = ThetaPowerTcp::on_ack(q, &mut s_want, &ev);
            let e_want = d_want.enforce(1448, 25, 64);
            let (mut s_due, mut l_due) = (s, lease);
            let (mut d_due, mut e_due) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (d_due, e_due) =
                on_due(q, &mut s_due, &inp, &mut l_due, gen, &mut d_due, &mut e_due);
            assert_eq!(
                (s_due, *d_due, *e_due),
                (s_want, d_want, e_want),
                "set {i}, gen {gen}"
            );
            let l_want = ThetaLease::grant(q, &s_want, &d_want, &e_want, 1448, 64, gen, false);
            assert_eq!(l_due, l_want, "set {i}, gen {gen}: lease");
        }
    }
}

proptest! {
    /// `on_ack` reads nothing of an event but `now_ns`, `rtt_ns` with `ACK_HAS_RTT`, `snd_una`
    /// and `snd_nxt`: with every other field and flag bit changed, the decision and the state
    /// are the same. `on_due`'s fallback rebuilds the event from those fields only; if θ ever
    /// reads another one, this fails and `DueIn` must carry it.
    #[test]
    fn on_ack_reads_only(
        p in arb_params(), warm in 0u32..100, seed: u64, dt in 0u64..100_000, rtt: u64,
        una: u32, nxt: u32, has_rtt: bool, noise: [u64; 6],
    ) {
        let s = reached(&p, warm, seed);
        let ev = AckEvent {
            now_ns: s.last_ack_ns.wrapping_add(dt),
            rtt_ns: rtt % 1_000_000,
            snd_una: una,
            snd_nxt: nxt,
            flags: if has_rtt { ACK_HAS_RTT } else { 0 },
            ..AckEvent::default()
        };
        let other = AckEvent {
            remote_delay_ns: noise[0],
            delivered_bytes: noise[1],
            acked_bytes: noise[2] as u32,
            inflight_bytes: (noise[2] >> 32) as u32,
            mss_bytes: noise[3] as u32,
            flags: ev.flags | ((noise[3] >> 32) as u32 & !ACK_HAS_RTT),
            hops: noise[4] as u8,
            _pad: [noise[4] as u8; 3],
            local_rx_delay_ns: (noise[4] >> 32) as u32,
            telemetry: noise[5],
            ..ev
        };
        let (mut a, mut b) = (s, s);
        let da = ThetaPowerTcp::on_ack(&p, &mut a, &ev);
        let db = ThetaPowerTcp::on_ack(&p, &mut b, &other);
        prop_assert_eq!(da, db);
        prop_assert_eq!(a, b);
    }
}

/// The flags on_ack_reads_only varies include every one the glue sets.
const _: () = assert!(
    (ACK_APP_LIMITED | ACK_DELAYED | ACK_ECE | ACK_IN_RECOVERY | ACK_HAS_REMOTE_DELAY)
        & ACK_HAS_RTT
        == 0
);

/// Alg. 2 line 21 at the fast path's overflow bounds: the C's plain u64
/// `(old · (τ − dt) + rtt · dt) / τ` does not overflow (the exact 128-bit value agrees) and
/// equals `smooth`, the quotient fits a u32.
#[test]
fn ewma_edges() {
    let (old_max, rtt_max, tau_max) = (u64::from(u32::MAX), 4_294_967_000u64, 1_000_000_000u64);
    let cases = [
        (old_max, rtt_max, tau_max, tau_max - 1),
        (old_max, rtt_max, tau_max, 1),
        (0, rtt_max, tau_max, tau_max - 1),
        (old_max, 1_000, 1_000, 999),
        (old_max, 1_000, 1_000, 1),
        (24_000, 25_000, 20_000, 240),
        (0, 0, 1_000, 500),
    ];
    for (old, rtt, tau, dt) in cases {
        let c = (old * (tau - dt) + rtt * dt) / tau;
        let wide = (u128::from(old) * u128::from(tau - dt) + u128::from(rtt) * u128::from(dt))
            / u128::from(tau);
        assert_eq!(u128::from(c), wide, "({old}, {rtt}, {tau}, {dt})");
        assert_eq!(smooth(old, rtt, dt, tau), c, "({old}, {rtt}, {tau}, {dt})");
        assert!(c <= u64::from(u32::MAX));
    }
}

/// A state every premise holds for, with the default parameters.
fn grantable(p: &Params) -> State {
    State {
        cwnd_q16: p.init_cwnd_q16(),
        prev_cwnd_q16: p.init_cwnd_q16(),
        update_ns: 1_000_000,
        last_ack_ns: 1_000_240,
        marker_seq: 100,
        prev_rtt_ns: 25_000,
        rtt_smooth_ns: 25_000,
        flags: FLAG_INIT | FLAG_HAVE_PREV,
        ..State::default()
    }
}

/// Is a lease granted for a window of `w_bytes` at law rate `rate`, MSS `mss`, on state `s`?
fn granted(p: &Params, s: &State, w_bytes: u64, rate: u64, mss: u32) -> bool {
    let d = Decision {
        cwnd_bytes_q16: w_bytes << 16,
        pacing_rate_bps: rate,
        ..Decision::default()
    };
    let e = d.enforce(mss, 25, 64);
    ThetaLease::grant(p, s, &d, &e, mss, 64, 7, false) != ThetaLease::default()
}

/// Every refusal of `grant`, each with the accepted case on the other side of its boundary.
#[test]
fn grant_refuses() {
    let p = Params::new(&Config::DEFAULT).unwrap();
    let per_ack = Params::new(&Config {
        gradient_mode: GRADIENT_PER_ACK,
        ..Config::DEFAULT
    })
    .unwrap();
    let min_rtt = Params::new(&Config {
        base_rtt_mode: BASE_RTT_MIN_RTT,
        ..Config::DEFAULT
    })
    .unwrap();
    let s = grantable(&p);
    let (w, r) = (62_500u64, 3_125_000_000u64);
    // The default window and rate on state `t`; the state's clock fields; its flags.
    let on = |t: &State| granted(&p, t, w, r, 1448);
    let at = |update_ns: u64, last_ack_ns: u64| {
        on(&State {
            update_ns,
            last_ack_ns,
            ..s
        })
    };
    let flags = |flags: u32| on(&State { flags, ..s });
    // The window, rate and MSS on the base state.
    let out = |w_bytes: u64, rate: u64, mss: u32| granted(&p, &s, w_bytes, rate, mss);
    let d = ThetaPowerTcp::current(&p, &s, 1448);
    let e = d.enforce(1448, 25, 64);
    let other = |q: &Params, gen: u32, rec: bool| {
        ThetaLease::grant(q, &s, &d, &e, 1448, 64, gen, rec) != ThetaLease::default()
    };
    let top = THETA_UPDATE_MAX_NS;
    let life = THETA_LIFE_NS;
    let cases: &[(&str, bool, bool)] = &[
        ("base", on(&s), true),
        ("base, gen 7", other(&p, 7, false), true),
        ("gen 0", other(&p, 0, false), false),
        ("Recovery", other(&p, 7, true), false),
        ("per-ACK", other(&per_ack, 7, false), false),
        ("min-RTT τ", other(&min_rtt, 7, false), false),
        ("no HAVE_PREV", flags(FLAG_INIT), false),
        ("no INIT", flags(FLAG_HAVE_PREV), false),
        ("last < update", at(10, 9), false),
        ("last = update", at(10, 10), true),
        ("last − update = 2^32", at(10, 10 + life), true),
        ("last − update = 2^32 + 1", at(10, 11 + life), false),
        ("update at the top", at(top, top), true),
        ("update above it", at(top + 1, top + 1), false),
        ("floor 1", out(2 * 1448 - 1, r, 1448), false),
        ("floor 2", out(2 * 1448, r, 1448), true),
        ("floor 2^24 - 1", out((1 << 24) - 1, r, 1), true),
        ("floor 2^24", out(1 << 24, r, 1), false),
        ("rate 0", out(w, 0, 1448), false),
        ("rate 2^40 - 1", out(w, (1 << 40) - 1, 1448), true),
        ("rate 2^40", out(w, 1 << 40, 1448), false),
        ("mss 65535", out(10 * 65_535, r, 65_535), true),
        ("mss 65536", out(10 * 65_536, r, 65_536), false),
        ("mss 0 (as 1)", out(10, r, 0), true),
    ];
    for &(name, got, want) in cases {
        assert_eq!(got, want, "{name}");
    }
}

/// An accepted lease's record: the enforced window (clamped), the law's rate, the keys, τ.
#[test]
fn grant_records() {
    let p = Params::new(&Config::DEFAULT).unwrap();
    let s = grantable(&p);
    let d = ThetaPowerTcp::current(&p, &s, 1448);
    for clamp in [64u32, 0, 10, u32::MAX] {
        let e = d.enforce(1448, 25, clamp);
        let l = ThetaLease::grant(&p, &s, &d, &e, 1448, clamp, 9, false);
        let want = ThetaLease {
            rate_bps: 3_125_000_000, // 62,500 B / 20 µs
            cwnd_pkts: 43u32.min(clamp.max(1)),
            gen: 9,
            clamp,
            tau_ns: 20_000,
            mss: 1448,
            _pad: 0,
            _spare: 0,
        };
        assert_eq!(l, want, "clamp {clamp}");
    }
}

/// The all-zero lease covers nothing (generations start at 1) and stores nothing.
#[test]
fn zero_lease_is_none() {
    let p = Params::new(&Config::DEFAULT).unwrap();
    let s = grantable(&p);
    for gen in [1u32, 2, u32::MAX] {
        let mut t = s;
        let got = ThetaLease::default().take(&mut t, gen, 0, 0, s.last_ack_ns + 1, 25, 0);
        assert_eq!((got, t), (Take::Full, s));
    }
}

/// Issue #13: `pacing_bps` divides inline for every window the law outputs (at most
/// `MAX_CWND_BYTES`); the result is `mul_div`'s, as before the change. (window bytes, τ ns)
/// at the edges, then a deterministic sweep of every magnitude.
#[test]
fn pacing_inline_equals_mul_div() {
    let reference = |tau_ns: u64, cwnd_q16: u64| {
        mul_div(cwnd_q16 >> Q16_SHIFT, NS_PER_S, tau_ns).min(MAX_RATE_BPS)
    };
    let edges = [
        (0, 1),
        (1, 1),
        (MAX_CWND_BYTES, 1),
        (MAX_CWND_BYTES, 1_000),
        (MAX_CWND_BYTES - 1, 7),
        (MAX_CWND_BYTES + 1, 1_000),
        (62_500, 20_000),
        (1, u64::MAX),
        (MAX_CWND_BYTES, u64::MAX),
        (u64::MAX >> Q16_SHIFT, 3),
    ];
    let check = |w: u64, tau: u64, frac: u64| {
        let q = (w << Q16_SHIFT) | (frac & 0xffff);
        assert_eq!(
            pacing_bps(tau, q),
            reference(tau, q),
            "window {w} B, τ {tau} ns"
        );
    };
    for (w, tau) in edges {
        check(w, tau, 0xffff);
    }
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..20_000 {
        xorshift(&mut x);
        // Windows of every magnitude up to 2^31 and a little above; τ of every magnitude.
        let w = (x >> 32) >> (x % 33);
        let tau = (x.rotate_left(21) >> (x % 64)).max(1);
        check(w, tau, x);
    }
    // τ = 0 (never produced by `tau_ns`) gives what `mul_div` gives.
    assert_eq!(pacing_bps(0, 1_000 << 16), reference(0, 1_000 << 16));
}
