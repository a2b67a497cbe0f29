// SPDX-License-Identifier: GPL-2.0-only
//! Host tests for TIMELY: every vector case by name, then property tests over arbitrary
//! configurations and event sequences (hostile values included), from the all-zero state with
//! or without `init`.

use proptest::prelude::*;
use rdcc_core::event::{
    AckEvent, Controller, Decision, LossEvent, LossKind, Reason, ACK_APP_LIMITED, ACK_DELAYED,
    ACK_HAS_RTT,
};
use rdcc_core::fixed::{MAX_CWND_PKTS, MAX_DELAY_NS, MAX_MSS_BYTES, MAX_RATE_BPS};
use rdcc_core::timely::{Config, Params, State, Timely, MAX_LINE_RATE_MBPS};
use rdcc_core::timely_vectors::{run_all, CASES};
use rdcc_core::vectors::run_steps;

// ---------------------------------------------------------------------------------------------
// Vector tables

#[test]
fn every_vector_case_by_name() {
    let mut failures = Vec::new();
    for case in CASES {
        let p = match Params::new(&case.config) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{}: invalid config {:?}", case.name, e));
                continue;
            }
        };
        if let Err(m) = run_steps::<Timely>(&p, case.steps) {
            failures.push(format!(
                "{}: step {}: got {:?}\n    want {:?}\n    input {:?}",
                case.name,
                m.step,
                m.got,
                m.want,
                case.steps.get(m.step).map(|s| s.input)
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn run_all_passes_every_case() {
    assert_eq!(run_all(), Ok(CASES.len()));
    assert!(CASES.len() >= 10);
}

#[test]
fn vector_case_names_are_unique() {
    let mut names: Vec<_> = CASES.iter().map(|c| c.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), CASES.len());
}

#[test]
fn state_fits_the_budget() {
    let size = core::mem::size_of::<State>();
    println!("timely State = {size} bytes");
    assert!(size <= rdcc_core::event::CORE_STATE_BUDGET);
}

#[test]
fn current_before_init_is_the_init_decision() {
    let p = Params::new(&Config::DEFAULT).unwrap();
    let zero = State::default();
    let mut s = State::default();
    let d_init = Timely::init(&p, &mut s, 0, 1448);
    let d_cur = Timely::current(&p, &zero, 1448);
    assert_eq!(d_cur.cwnd_bytes_q16, d_init.cwnd_bytes_q16);
    assert_eq!(d_cur.pacing_rate_bps, d_init.pacing_rate_bps);
    assert_eq!(d_cur.reason, Reason::Hold);
}

#[test]
fn every_config_field_is_range_checked() {
    let d = Config::DEFAULT;
    let bad: &[(&str, Config)] = &[
        (
            "segment_bytes",
            Config {
                segment_bytes: 0,
                ..d
            },
        ),
        (
            "segment_bytes",
            Config {
                segment_bytes: (1 << 20) + 1,
                ..d
            },
        ),
        (
            "t_low_ns",
            Config {
                t_low_ns: MAX_DELAY_NS + 1,
                ..d
            },
        ),
        (
            "t_high_ns",
            Config {
                t_high_ns: d.t_low_ns - 1,
                ..d
            },
        ),
        (
            "t_high_ns",
            Config {
                t_low_ns: 0,
                t_high_ns: 999,
                ..d
            },
        ),
        (
            "min_rtt_ns",
            Config {
                min_rtt_ns: 999,
                ..d
            },
        ),
        (
            "min_rtt_ns",
            Config {
                min_rtt_ns: MAX_DELAY_NS + 1,
                ..d
            },
        ),
        ("alpha_q16", Config { alpha_q16: 0, ..d }),
        (
            "alpha_q16",
            Config {
                alpha_q16: 65_537,
                ..d
            },
        ),
        ("beta_q16", Config { beta_q16: 0, ..d }),
        (
            "beta_q16",
            Config {
                beta_q16: 65_537,
                ..d
            },
        ),
        (
            "line_rate_mbps",
            Config {
                line_rate_mbps: 0,
                ..d
            },
        ),
        (
            "line_rate_mbps",
            Config {
                line_rate_mbps: MAX_LINE_RATE_MBPS + 1,
                ..d
            },
        ),
        ("delta_mbps", Config { delta_mbps: 0, ..d }),
        (
            "delta_mbps",
            Config {
                delta_mbps: 10_001,
                ..d
            },
        ),
        (
            "hai_threshold",
            Config {
                hai_threshold: 0,
                ..d
            },
        ),
        (
            "hai_factor",
            Config {
                hai_factor: 1001,
                ..d
            },
        ),
        (
            "hai_in_low_guard",
            Config {
                hai_in_low_guard: 2,
                ..d
            },
        ),
        (
            "min_rate_mbps",
            Config {
                min_rate_mbps: 0,
                ..d
            },
        ),
        (
            "min_rate_mbps",
            Config {
                min_rate_mbps: 10_001,
                ..d
            },
        ),
        (
            "init_rate_mbps",
            Config {
                init_rate_mbps: 9,
                ..d
            },
        ),
        (
            "init_rate_mbps",
            Config {
                init_rate_mbps: 10_001,
                ..d
            },
        ),
        (
            "app_limit_q16",
            Config {
                app_limit_q16: 65_537,
                ..d
            },
        ),
        (
            "update_mode",
            Config {
                update_mode: 3,
                ..d
            },
        ),
        (
            "rto_beta_q16",
            Config {
                rto_beta_q16: 65_537,
                ..d
            },
        ),
        (
            "rto_reset_count",
            Config {
                rto_reset_count: 256,
                ..d
            },
        ),
        (
            "skip_delayed_acks",
            Config {
                skip_delayed_acks: 2,
                ..d
            },
        ),
    ];
    for (field, c) in bad {
        match Params::new(c) {
            Err(e) => assert_eq!(e.field, *field, "{c:?}"),
            Ok(_) => panic!("{field}: accepted {c:?}"),
        }
    }
    // The largest line rate stays within fixed::MAX_RATE_BPS.
    let top = Config {
        line_rate_mbps: MAX_LINE_RATE_MBPS,
        init_rate_mbps: MAX_LINE_RATE_MBPS,
        ..d
    };
    let p = Params::new(&top).unwrap();
    assert!(p.rate_bounds_bps().1 <= MAX_RATE_BPS);
}

/// The vector configuration (see timely_vectors.rs): paper parameters, 1 Gbit/s start, an
/// update per completion, no sending-rate rule.
fn vcfg() -> Config {
    Config {
        init_rate_mbps: 1_000,
        app_limit_q16: 0,
        update_mode: rdcc_core::timely::UPDATE_PER_COMPLETION,
        ..Config::DEFAULT
    }
}

fn seg_ack(now_ns: u64, rtt_us: u64) -> AckEvent {
    rdcc_core::vectors::ack(now_ns, rtt_us * 1000, 16_384, 1448)
}

/// Drive `rtts_us` (one completion each, 10 µs apart) from a fresh state.
fn drive(p: &Params, rtts_us: &[u64]) -> State {
    let mut s = State::default();
    Timely::init(p, &mut s, 0, 1448);
    for (i, r) in rtts_us.iter().enumerate() {
        Timely::on_ack(p, &mut s, &seg_ack((i as u64 + 1) * 10_000, *r));
    }
    s
}

/// Exclusion 1 of `more_rtt_never_raises_the_rate` is real: after four negative gradients,
/// 40 µs (< T_low) adds delta while 150 µs (gradient zone, fifth negative) adds 5 * delta.
#[test]
fn monotonicity_exclusion_hai_above_low_is_real() {
    let p = Params::new(&vcfg()).unwrap();
    let s = drive(&p, &[200, 190, 180, 170, 160]);
    assert_eq!(s.hai_count, 4);
    let (mut s1, mut s2) = (s, s);
    let d1 = Timely::on_ack(&p, &mut s1, &seg_ack(100_000, 40));
    let d2 = Timely::on_ack(&p, &mut s2, &seg_ack(100_000, 150));
    assert_eq!(d1.reason, Reason::LowGuard);
    assert_eq!(d2.reason, Reason::HyperactiveIncrease);
    assert_eq!(d2.pacing_rate_bps - d1.pacing_rate_bps, 4 * 1_250_000);
}

/// Exclusion 2 is real: 400 µs (<= T_high, steep gradient) drops to min_rate while 600 µs
/// (> T_high) only multiplies by 1 - 0.8 * (1 - 500/600).
#[test]
fn monotonicity_exclusion_gradient_below_high_is_real() {
    let p = Params::new(&vcfg()).unwrap();
    let s = drive(&p, &[100]);
    let (mut s1, mut s2) = (s, s);
    let d1 = Timely::on_ack(&p, &mut s1, &seg_ack(100_000, 400));
    let d2 = Timely::on_ack(&p, &mut s2, &seg_ack(100_000, 600));
    assert_eq!(d1.reason, Reason::GradientUpdate);
    assert_eq!(d2.reason, Reason::HighGuard);
    assert_eq!(d1.pacing_rate_bps, 1_250_000);
    assert!(d2.pacing_rate_bps > 100_000_000);
}

/// After a bump, a flat RTT drives rtt_diff to exactly 0 (the EWMA rounds toward the new
/// sample), so the law increases with signal 0, as Alg. 1 line 11 says, instead of being held
/// in tiny decreases by a +1 ns residue.
#[test]
fn flat_rtt_returns_to_zero_gradient() {
    let p = Params::new(&vcfg()).unwrap();
    let mut rtts = vec![100, 110, 100];
    rtts.extend(std::iter::repeat(100).take(12));
    let s = drive(&p, &rtts);
    assert_eq!(s.rtt_diff_ns, 0);
    let mut s1 = s;
    let d = Timely::on_ack(&p, &mut s1, &seg_ack(1_000_000, 100));
    // The decay 8750 -> -7657 -> -957 -> -119 -> -14 -> -1 -> 0 gave five negative gradients,
    // and a zero gradient neither counts nor ends HAI (spec §3.4 reading): 5 * delta.
    assert_eq!(d.signal, 0);
    assert_eq!(d.reason, Reason::HyperactiveIncrease);
    assert_eq!(d.pacing_rate_bps, s.rate_bps + 5 * 1_250_000);
}

// ---------------------------------------------------------------------------------------------
// Generators

/// Build a valid configuration from raw numbers (each mapped into its documented range).
fn config_from(r: [u64; 18]) -> Config {
    let line = 1 + r[0] % 400_000;
    let line = if r[1] % 16 == 0 {
        MAX_LINE_RATE_MBPS
    } else {
        line
    };
    let t_low = if r[2] % 5 == 0 { 0 } else { r[2] % 2_000_000 };
    let t_high = t_low.max(1_000) + r[3] % 5_000_000;
    let min_rate = 1 + r[4] % line;
    Config {
        segment_bytes: 1 + r[5] % (1 << 20),
        t_low_ns: t_low,
        t_high_ns: t_high,
        min_rtt_ns: 1_000 + r[6] % 1_000_000,
        alpha_q16: 1 + r[7] % 65_536,
        beta_q16: 1 + r[8] % 65_536,
        delta_mbps: 1 + r[9] % line,
        hai_threshold: 1 + r[10] % 8,
        hai_factor: 1 + r[11] % 10,
        hai_in_low_guard: r[12] % 2,
        line_rate_mbps: line,
        min_rate_mbps: min_rate,
        init_rate_mbps: min_rate + r[13] % (line - min_rate + 1),
        app_limit_q16: if r[14] % 3 == 0 { 0 } else { r[14] % 65_537 },
        update_mode: r[15] % 3,
        rto_beta_q16: r[16] % 65_537,
        rto_reset_count: r[17] % 6,
        skip_delayed_acks: (r[17] >> 8) % 2,
    }
}

fn arb_config() -> impl Strategy<Value = Config> {
    prop_oneof![
        Just(Config::DEFAULT),
        Just(Config {
            update_mode: rdcc_core::timely::UPDATE_PER_COMPLETION,
            app_limit_q16: 0,
            init_rate_mbps: 1_000,
            ..Config::DEFAULT
        }),
        any::<[u64; 18]>().prop_map(config_from),
    ]
}

fn arb_rtt() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(u64::MAX),
        Just(MAX_DELAY_NS),
        1u64..100_000,
        40_000u64..600_000,
        1u64..20_000_000,
        any::<u64>(),
    ]
}

fn arb_mss() -> impl Strategy<Value = u32> {
    prop_oneof![Just(0u32), Just(1448u32), Just(9000u32), any::<u32>()]
}

/// One host event; times are deltas on a running clock unless `abs` (hostile absolute time).
#[derive(Clone, Debug)]
enum Op {
    Init {
        dt: u64,
        mss: u32,
    },
    Ack {
        dt: u64,
        abs: Option<u64>,
        ev: AckEvent,
    },
    Loss {
        dt: u64,
        rto: bool,
        mss: u32,
    },
    Idle {
        dt: u64,
        mss: u32,
    },
    Undo {
        mss: u32,
    },
}

fn arb_ack() -> impl Strategy<Value = AckEvent> {
    (
        arb_rtt(),
        prop_oneof![
            Just(0u32),
            Just(1448u32),
            Just(16_384u32),
            Just(65_536u32),
            any::<u32>()
        ],
        arb_mss(),
        any::<u32>(),
        0u32..200_000,
        any::<u32>(),
        prop_oneof![
            Just(ACK_HAS_RTT),
            Just(ACK_HAS_RTT | ACK_APP_LIMITED),
            Just(ACK_HAS_RTT | ACK_DELAYED),
            any::<u32>(),
        ],
        any::<u64>(),
    )
        .prop_map(
            |(rtt, acked, mss, una, span, inflight, flags, other)| AckEvent {
                now_ns: 0,
                rtt_ns: rtt,
                remote_delay_ns: other,
                delivered_bytes: other.rotate_left(17),
                acked_bytes: acked,
                inflight_bytes: inflight,
                mss_bytes: mss,
                snd_una: una,
                snd_nxt: una.wrapping_add(span),
                flags,
                hops: other as u8,
                _pad: [0; 3],
                local_rx_delay_ns: 0,
                telemetry: 0,
            },
        )
}

fn arb_dt() -> impl Strategy<Value = u64> {
    prop_oneof![Just(0u64), 1u64..50_000, 1u64..5_000_000, any::<u64>()]
}

fn arb_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => (arb_dt(), arb_mss()).prop_map(|(dt, mss)| Op::Init { dt, mss }),
        12 => (arb_dt(), proptest::option::weighted(0.05, any::<u64>()), arb_ack())
            .prop_map(|(dt, abs, ev)| Op::Ack { dt, abs, ev }),
        2 => (arb_dt(), any::<bool>(), arb_mss()).prop_map(|(dt, rto, mss)| Op::Loss { dt, rto, mss }),
        1 => (arb_dt(), arb_mss()).prop_map(|(dt, mss)| Op::Idle { dt, mss }),
        1 => arb_mss().prop_map(|mss| Op::Undo { mss }),
    ]
}

/// Apply `op` on the running clock; returns the decision and the MSS it was asked for.
fn apply(p: &Params, s: &mut State, clock: &mut u64, op: &Op) -> (Decision, u32) {
    let tick = |clock: &mut u64, dt: u64| {
        *clock = clock.wrapping_add(dt);
        *clock
    };
    match op {
        Op::Init { dt, mss } => {
            let now = tick(clock, *dt);
            (Timely::init(p, s, now, *mss), *mss)
        }
        Op::Ack { dt, abs, ev } => {
            let now = match abs {
                Some(t) => *t,
                None => tick(clock, *dt),
            };
            let ev = AckEvent { now_ns: now, ..*ev };
            (Timely::on_ack(p, s, &ev), ev.mss_bytes)
        }
        Op::Loss { dt, rto, mss } => {
            let ev = LossEvent {
                now_ns: tick(clock, *dt),
                mss_bytes: *mss,
                kind: if *rto {
                    LossKind::RetransmitTimeout
                } else {
                    LossKind::FastRecovery
                },
            };
            (Timely::on_loss(p, s, &ev), *mss)
        }
        Op::Idle { dt, mss } => {
            let now = tick(clock, *dt);
            (Timely::on_idle_restart(p, s, now, *mss), *mss)
        }
        Op::Undo { mss } => (Timely::on_undo(p, s, *mss), *mss),
    }
}

fn is_increase(r: Reason) -> bool {
    matches!(
        r,
        Reason::AdditiveIncrease | Reason::HyperactiveIncrease | Reason::LowGuard | Reason::Undo
    )
}

fn is_decrease(r: Reason) -> bool {
    matches!(
        r,
        Reason::HighGuard
            | Reason::GradientUpdate
            | Reason::RetransmitTimeout
            | Reason::RetransmitReset
    )
}

/// Which Alg. 1 threshold region a (clamped) RTT falls in: 0 below T_low, 1 gradient zone,
/// 2 above T_high.
fn region(c: &Config, rtt_ns: u64) -> u8 {
    let r = rtt_ns.clamp(1, MAX_DELAY_NS);
    if r < c.t_low_ns {
        0
    } else if r > c.t_high_ns {
        2
    } else {
        1
    }
}

// ---------------------------------------------------------------------------------------------
// Properties

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Never panics (debug build: overflow checks on); cwnd and pacing stay within bounds;
    /// `current` re-asserts the last decision; the reason tells the direction of the change.
    #[test]
    fn bounded_and_consistent(
        cfg in arb_config(),
        with_init in any::<bool>(),
        start in any::<u64>(),
        ops in prop::collection::vec(arb_op(), 0..120),
    ) {
        let p = Params::new(&cfg).unwrap();
        let (min_rate, max_rate) = p.rate_bounds_bps();
        let mut s = State::default();
        let mut clock = start;
        if with_init {
            Timely::init(&p, &mut s, clock, 1448);
        }
        for op in &ops {
            let before = Timely::current(&p, &s, 1448).pacing_rate_bps;
            let (d, mss) = apply(&p, &mut s, &mut clock, op);
            // Every event initialises lazily.
            prop_assert!(s.rate_bps != 0);
            prop_assert!(d.pacing_rate_bps >= min_rate && d.pacing_rate_bps <= max_rate,
                "pacing {} outside [{min_rate}, {max_rate}] after {op:?}", d.pacing_rate_bps);
            prop_assert!(d.pacing_rate_bps <= MAX_RATE_BPS);
            prop_assert!(s.rate_bps >= min_rate && s.rate_bps <= max_rate);
            let (lo, hi) = p.cwnd_bounds_bytes(mss);
            prop_assert!(d.cwnd_bytes_q16 >= lo << 16 && d.cwnd_bytes_q16 <= hi << 16,
                "cwnd {} outside [{lo}, {hi}] B after {op:?}", d.cwnd_bytes_q16 >> 16);
            prop_assert!(d.cwnd_bytes_q16 <= (MAX_CWND_PKTS * u64::from(MAX_MSS_BYTES)) << 16);
            prop_assert!(d.cwnd_pkts(mss) >= 1);
            // current() re-asserts exactly what the event decided.
            let c = Timely::current(&p, &s, mss);
            prop_assert_eq!(
                (c.cwnd_bytes_q16, c.pacing_rate_bps, c.signal),
                (d.cwnd_bytes_q16, d.pacing_rate_bps, d.signal)
            );
            // The reason tells the truth about the direction (Init resets the rate).
            if d.reason != Reason::Init {
                if is_increase(d.reason) {
                    prop_assert!(d.pacing_rate_bps >= before, "{:?}: {} < {}", d.reason, d.pacing_rate_bps, before);
                } else if is_decrease(d.reason) {
                    prop_assert!(d.pacing_rate_bps <= before, "{:?}: {} > {}", d.reason, d.pacing_rate_bps, before);
                } else {
                    prop_assert_eq!(d.pacing_rate_bps, before, "{:?} changed the rate", d.reason);
                }
            }
        }
    }

    /// Identical inputs give identical outputs and identical state.
    #[test]
    fn deterministic(
        cfg in arb_config(),
        with_init in any::<bool>(),
        start in any::<u64>(),
        ops in prop::collection::vec(arb_op(), 0..80),
    ) {
        let p = Params::new(&cfg).unwrap();
        let run = || {
            let mut s = State::default();
            let mut clock = start;
            let mut out = Vec::new();
            if with_init {
                out.push(Timely::init(&p, &mut s, clock, 1448));
            }
            for op in &ops {
                out.push(apply(&p, &mut s, &mut clock, op).0);
            }
            (out, s)
        };
        prop_assert_eq!(run(), run());
    }

    /// From the same state, an ACK with more RTT never yields a higher rate than the same ACK
    /// with less RTT, except in two places where Alg. 1 makes it false by design:
    /// - r1 < T_low <= r2 and r2 takes hyperactive increase: the T_low branch adds plain delta
    ///   (Alg. 1 line 6) while the gradient branch may add N * delta (line 12), so a sample
    ///   just above T_low can raise the rate more than one below it;
    /// - r1 <= T_high < r2 and r1 takes the gradient decrease: the T_high branch returns
    ///   before the gradient is used (lines 8-10), and its decrease beta * (1 - T_high/r2)
    ///   can be milder than the gradient decrease beta * g at r1.
    #[test]
    fn more_rtt_never_raises_the_rate(
        cfg in arb_config(),
        with_init in any::<bool>(),
        start in any::<u64>(),
        ops in prop::collection::vec(arb_op(), 0..60),
        ack in arb_ack(),
        dt in arb_dt(),
        ra in arb_rtt(),
        rb in arb_rtt(),
    ) {
        let p = Params::new(&cfg).unwrap();
        let mut s = State::default();
        let mut clock = start;
        if with_init {
            Timely::init(&p, &mut s, clock, 1448);
        }
        for op in &ops {
            apply(&p, &mut s, &mut clock, op);
        }
        let (r1, r2) = if ra <= rb { (ra, rb) } else { (rb, ra) };
        let base = AckEvent {
            now_ns: clock.wrapping_add(dt),
            flags: ack.flags | ACK_HAS_RTT,
            ..ack
        };
        let (mut s1, mut s2) = (s, s);
        let d1 = Timely::on_ack(&p, &mut s1, &AckEvent { rtt_ns: r1, ..base });
        let d2 = Timely::on_ack(&p, &mut s2, &AckEvent { rtt_ns: r2, ..base });
        if d2.pacing_rate_bps > d1.pacing_rate_bps {
            let (g1, g2) = (region(&cfg, r1), region(&cfg, r2));
            let hai_above_low = g1 == 0 && g2 == 1 && d2.reason == Reason::HyperactiveIncrease;
            let gradient_below_high = g1 <= 1 && g2 == 2 && d1.reason == Reason::GradientUpdate;
            prop_assert!(hai_above_low || gradient_below_high,
                "rtt {r1} -> {:?} {}, rtt {r2} -> {:?} {}", d1.reason, d1.pacing_rate_bps,
                d2.reason, d2.pacing_rate_bps);
        }
    }

    /// Validation is total: any raw configuration is accepted or rejected, never a panic, and
    /// an accepted one keeps every rate within fixed::MAX_RATE_BPS.
    #[test]
    fn params_new_is_total(raw in any::<[u64; 18]>(), pick in any::<[bool; 18]>()) {
        let d = Config::DEFAULT;
        let v = |i: usize, dflt: u64| if pick[i] { raw[i] } else { dflt };
        let c = Config {
            segment_bytes: v(0, d.segment_bytes),
            t_low_ns: v(1, d.t_low_ns),
            t_high_ns: v(2, d.t_high_ns),
            min_rtt_ns: v(3, d.min_rtt_ns),
            alpha_q16: v(4, d.alpha_q16),
            beta_q16: v(5, d.beta_q16),
            delta_mbps: v(6, d.delta_mbps),
            hai_threshold: v(7, d.hai_threshold),
            hai_factor: v(8, d.hai_factor),
            hai_in_low_guard: v(9, d.hai_in_low_guard),
            line_rate_mbps: v(10, d.line_rate_mbps),
            min_rate_mbps: v(11, d.min_rate_mbps),
            init_rate_mbps: v(12, d.init_rate_mbps),
            app_limit_q16: v(13, d.app_limit_q16),
            update_mode: v(14, d.update_mode),
            rto_beta_q16: v(15, d.rto_beta_q16),
            rto_reset_count: v(16, d.rto_reset_count),
            skip_delayed_acks: v(17, d.skip_delayed_acks),
        };
        if let Ok(p) = Params::new(&c) {
            let (lo, hi) = p.rate_bounds_bps();
            prop_assert!(lo >= 1 && lo <= hi && hi <= MAX_RATE_BPS);
        }
    }
}
