// SPDX-License-Identifier: GPL-2.0-only
//! Host tests for Swift: the shared vector table (every case by name), parameter validation,
//! the fixed-point curves against real-valued references, and property tests over arbitrary
//! event sequences (no panic, bounds, monotonicity in delay, determinism).

use proptest::prelude::*;
use rdcc_core::event::{
    AckEvent, Controller, Decision, LossEvent, LossKind, ACK_DELAYED, ACK_HAS_RTT,
};
use rdcc_core::fixed::{MAX_RATE_BPS, PKT_Q20_ONE};
use rdcc_core::swift::{
    flow_scaling_ns, md_factor_q16, resolve_mss, target_delay_ns, window_bytes_q16, Config, Params,
    State, Swift,
};
use rdcc_core::swift_vectors::{run_all, BASE, CASES};
use rdcc_core::vectors::{apply, run_steps, Input};

#[test]
fn every_vector_case_passes() {
    let mut failures = Vec::new();
    for case in CASES {
        let p = match Params::new(&case.config) {
            Ok(p) => p,
            Err(e) => {
                failures.push(format!("{}: config rejected: {e:?}", case.name));
                continue;
            }
        };
        if let Err(m) = run_steps::<Swift>(&p, case.steps) {
            failures.push(format!(
                "{}: step {}: got {:?}, want {:?}",
                case.name, m.step, m.got, m.want
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(CASES.len() >= 10);
}

#[test]
fn run_all_reports_every_case() {
    assert_eq!(run_all(), Ok(CASES.len()));
}

#[test]
fn state_fits_budget() {
    let n = core::mem::size_of::<State>();
    println!("swift State: {n} bytes");
    assert!(n <= rdcc_core::event::CORE_STATE_BUDGET);
}

#[test]
fn defaults_validate() {
    assert!(Params::new(&Config::DEFAULT).is_ok());
    assert!(Params::new(&BASE).is_ok());
}

#[test]
fn bad_parameters_are_rejected_by_name() {
    let d = Config::DEFAULT;
    let cases: Vec<(&str, Config)> = vec![
        (
            "ai_pkts_q20",
            Config {
                ai_pkts_q20: 0,
                ..d
            },
        ),
        ("beta_q16", Config { beta_q16: 0, ..d }),
        (
            "beta_q16",
            Config {
                beta_q16: 65537,
                ..d
            },
        ),
        (
            "max_mdf_q16",
            Config {
                max_mdf_q16: 65536,
                ..d
            },
        ),
        (
            "max_cwnd_pkts_q20",
            Config {
                max_cwnd_pkts_q20: 1000,
                ..d
            },
        ),
        (
            "max_cwnd_pkts_q20",
            Config {
                max_cwnd_pkts_q20: (1 << 40) + 1,
                ..d
            },
        ),
        (
            "min_cwnd_pkts_q20",
            Config {
                min_cwnd_pkts_q20: 0,
                ..d
            },
        ),
        (
            "min_cwnd_pkts_q20",
            Config {
                min_cwnd_pkts_q20: 300 << 20,
                ..d
            },
        ),
        (
            "init_cwnd_pkts_q20",
            Config {
                init_cwnd_pkts_q20: 300 << 20,
                ..d
            },
        ),
        (
            "init_cwnd_pkts_q20",
            Config {
                init_cwnd_pkts_q20: 10,
                ..d
            },
        ),
        (
            "retx_reset_threshold",
            Config {
                retx_reset_threshold: 0,
                ..d
            },
        ),
        (
            "base_target_ns",
            Config {
                base_target_ns: 0,
                ..d
            },
        ),
        (
            "per_hop_ns",
            Config {
                per_hop_ns: 2_000_000,
                ..d
            },
        ),
        (
            "default_hops",
            Config {
                default_hops: 256,
                ..d
            },
        ),
        (
            "fs_range_ns",
            Config {
                fs_range_ns: 20_000_000,
                ..d
            },
        ),
        (
            "fs_min_cwnd_pkts_q20",
            Config {
                fs_min_cwnd_pkts_q20: 100 << 20,
                ..d
            },
        ),
        (
            "fs_max_cwnd_pkts_q20",
            Config {
                fs_max_cwnd_pkts_q20: 1,
                ..d
            },
        ),
        (
            "endpoint_target_ns",
            Config {
                endpoint_target_ns: 10,
                ..d
            },
        ),
        (
            "endpoint_ewma_q16",
            Config {
                endpoint_ewma_q16: 0,
                ..d
            },
        ),
        (
            "literal_decrease_guard",
            Config {
                literal_decrease_guard: 2,
                ..d
            },
        ),
    ];
    for (field, c) in cases {
        let e = Params::new(&c).expect_err(field);
        assert_eq!(e.field, field, "{c:?}");
        assert!(e.value < e.min || e.value > e.max, "{e:?}");
    }
}

/// Spec §2.4(a) worked example: fs_range 100 µs, fs_min 0.1, fs_max 100 gives fs_alpha = 32.66
/// µs * packet^1/2 and fs_beta = -3.27 µs.
#[test]
fn flow_scaling_constants_match_the_spec_example() {
    let p = Params::new(&Config::DEFAULT).unwrap();
    let alpha_ns = p.fs_alpha_ns_q20() as f64 / PKT_Q20_ONE as f64;
    let beta_ns = p.fs_beta_neg_ns_q20() as f64 / PKT_Q20_ONE as f64;
    let want_alpha = 100_000.0 / (1.0 / 0.1f64.sqrt() - 0.1);
    assert!(
        (alpha_ns - want_alpha).abs() < 1.0,
        "{alpha_ns} vs {want_alpha}"
    );
    assert!((beta_ns - want_alpha / 10.0).abs() < 1.0, "{beta_ns}");
    assert!((alpha_ns / 1000.0 - 32.66).abs() < 0.01);
    assert!((beta_ns / 1000.0 - 3.27).abs() < 0.01);
}

/// The integer target curve follows the real-valued §3.5 formula within 2 ns everywhere.
#[test]
fn flow_scaling_curve_tracks_real_formula() {
    for fs_max_pkts in [100u64, 256] {
        let c = Config {
            fs_max_cwnd_pkts_q20: fs_max_pkts << 20,
            max_cwnd_pkts_q20: 1024 << 20,
            ..Config::DEFAULT
        };
        let p = Params::new(&c).unwrap();
        let fs_min = c.fs_min_cwnd_pkts_q20 as f64 / PKT_Q20_ONE as f64;
        let fs_max = fs_max_pkts as f64;
        let alpha = 100_000.0 / (1.0 / fs_min.sqrt() - 1.0 / fs_max.sqrt());
        let beta = -alpha / fs_max.sqrt();
        let mut w_q20 = 1u64;
        while w_q20 <= (1024 << 20) {
            let w = w_q20 as f64 / PKT_Q20_ONE as f64;
            let want = (alpha / w.sqrt() + beta).clamp(0.0, 100_000.0);
            let got = flow_scaling_ns(&p, w_q20) as f64;
            assert!((got - want).abs() <= 2.0, "w={w}: {got} vs {want}");
            w_q20 = w_q20 * 5 / 4 + 1;
        }
        // Spec example values (fs_max 256: +30.2 µs at W = 1, +8.2 µs at 10, +1.2 µs at 100).
        if fs_max_pkts == 256 {
            for (w, us) in [(1u64, 30.2), (10, 8.2), (100, 1.2)] {
                let got = flow_scaling_ns(&p, w << 20) as f64 / 1000.0;
                assert!((got - us).abs() < 0.05, "{w}: {got}");
            }
        }
    }
}

/// Spec §2.4(b) table: with beta 0.8 and max_mdf 0.5, d/T = 1.25 gives 0.84, 2 gives 0.60 and
/// anything above 2.67 is capped at 0.5.
#[test]
fn md_factor_table() {
    let f = |d: u64, t: u64| md_factor_q16(d, t, 52_429, 32_768) as f64 / 65536.0;
    assert!((f(125_000, 100_000) - 0.84).abs() < 1e-4);
    assert!((f(200_000, 100_000) - 0.60).abs() < 1e-4);
    assert!((f(267_000, 100_000) - 0.5).abs() < 1e-3);
    assert_eq!(md_factor_q16(1_000_000, 100_000, 52_429, 32_768), 32_768);
    assert_eq!(md_factor_q16(50_000, 100_000, 52_429, 32_768), 65_536);
    assert_eq!(md_factor_q16(0, 0, 52_429, 32_768), 65_536);
}

#[test]
fn topology_scaling_adds_per_hop() {
    let p = Params::new(&BASE).unwrap();
    assert_eq!(target_delay_ns(&p, 10 << 20, 0), 25_000);
    assert_eq!(target_delay_ns(&p, 10 << 20, 7), 32_000);
    assert_eq!(target_delay_ns(&p, 10 << 20, 255), 280_000);
}

#[test]
fn current_before_init_reports_initial_window() {
    let p = Params::new(&BASE).unwrap();
    let s = State::default();
    let d = Swift::current(&p, &s, 1024);
    assert_eq!(d.cwnd_bytes_q16, (10 * 1024) << 16);
    assert_eq!(d.signal, 25_000);
    assert_eq!(s, State::default(), "current must not change state");
}

// ---------------------------------------------------------------------------------------------
// Property tests
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
enum Ev {
    Input(Input),
    Current { mss: u32 },
}

fn time() -> impl Strategy<Value = u64> {
    prop_oneof![
        4 => 0u64..20_000_000_000,
        1 => any::<u64>(),
        1 => Just(0u64),
    ]
}

fn delay() -> impl Strategy<Value = u64> {
    prop_oneof![
        6 => 0u64..2_000_000,
        1 => any::<u64>(),
        1 => Just(0u64),
        1 => 9_000_000_000u64..=11_000_000_000,
    ]
}

fn mss() -> impl Strategy<Value = u32> {
    prop_oneof![
        6 => 500u32..=9000,
        1 => Just(0u32),
        1 => any::<u32>(),
    ]
}

fn acked() -> impl Strategy<Value = u32> {
    prop_oneof![6 => 0u32..200_000, 1 => any::<u32>()]
}

prop_compose! {
    fn ack_event()(now_ns in time(), rtt_ns in delay(), remote_delay_ns in delay(),
                   delivered_bytes in any::<u64>(), acked_bytes in acked(),
                   inflight_bytes in any::<u32>(), mss_bytes in mss(), snd_una in any::<u32>(),
                   snd_nxt in any::<u32>(), flags in prop_oneof![3 => Just(ACK_HAS_RTT), 2 => 0u32..256],
                   hops in any::<u8>()) -> AckEvent {
        AckEvent { now_ns, rtt_ns, remote_delay_ns, delivered_bytes, acked_bytes, inflight_bytes,
                   mss_bytes, snd_una, snd_nxt, flags, hops, _pad: [0; 3],
        local_rx_delay_ns: 0, telemetry: 0 }
    }
}

fn event() -> impl Strategy<Value = Ev> {
    prop_oneof![
        1 => (time(), mss()).prop_map(|(now_ns, mss_bytes)| Ev::Input(Input::Init { now_ns, mss_bytes })),
        12 => ack_event().prop_map(|a| Ev::Input(Input::Ack(a))),
        2 => (time(), mss(), any::<bool>()).prop_map(|(now_ns, mss_bytes, rto)| {
            Ev::Input(Input::Loss(LossEvent {
                now_ns,
                mss_bytes,
                kind: if rto { LossKind::RetransmitTimeout } else { LossKind::FastRecovery },
            }))
        }),
        1 => (time(), mss()).prop_map(|(now_ns, mss_bytes)| Ev::Input(Input::IdleRestart { now_ns, mss_bytes })),
        1 => mss().prop_map(|mss_bytes| Ev::Input(Input::Undo { mss_bytes })),
        1 => mss().prop_map(|mss| Ev::Current { mss }),
    ]
}

prop_compose! {
    /// Any valid configuration (invalid draws are replaced by the defaults).
    fn config()(ai in 1u64..=(8 << 20), beta in 1u64..=65536, mdf in 1u64..65536,
                max_pkts in 1u64..=4096, min_frac in 1u64..=1_000_000, init_frac in 0u64..=1000,
                retx in 1u64..=10, base in 1_000u64..=1_000_000, hop in 0u64..=10_000,
                dhops in 0u64..=255, fs_range in prop_oneof![Just(0u64), 0u64..=1_000_000],
                fs_min in 1u64..(8 << 20), fs_span in 1u64..(512 << 20),
                et in 1_000u64..=1_000_000, ew in 1u64..=65536, lit in 0u64..=1) -> Config {
        let max_q20 = max_pkts << 20;
        let min_q20 = (min_frac * max_q20 / 1_000_000).max(1);
        let init_q20 = min_q20 + (max_q20 - min_q20) * init_frac / 1000;
        let c = Config {
            ai_pkts_q20: ai, beta_q16: beta, max_mdf_q16: mdf, min_cwnd_pkts_q20: min_q20,
            max_cwnd_pkts_q20: max_q20, init_cwnd_pkts_q20: init_q20, retx_reset_threshold: retx,
            base_target_ns: base, per_hop_ns: hop, default_hops: dhops, fs_range_ns: fs_range,
            fs_min_cwnd_pkts_q20: fs_min, fs_max_cwnd_pkts_q20: fs_min + fs_span,
            endpoint_target_ns: et, endpoint_ewma_q16: ew, literal_decrease_guard: lit,
        };
        if Params::new(&c).is_ok() { c } else { Config::DEFAULT }
    }
}

fn step(p: &Params, s: &mut State, ev: &Ev) -> (Decision, u32) {
    match ev {
        Ev::Input(i) => {
            let d = apply::<Swift>(p, s, i);
            (d, s.mss_bytes())
        }
        Ev::Current { mss } => {
            let d = Swift::current(p, s, *mss);
            let eff = if s.initialised() {
                resolve_mss(*mss, s.mss_bytes())
            } else {
                resolve_mss(*mss, 0)
            };
            (d, eff)
        }
    }
}

fn check_bounds(p: &Params, s: &State, d: &Decision, mss: u32) -> Result<(), TestCaseError> {
    let c = p.config();
    let lo = window_bytes_q16(c.min_cwnd_pkts_q20, mss);
    let hi = window_bytes_q16(c.max_cwnd_pkts_q20, mss);
    prop_assert!(
        d.cwnd_bytes_q16 >= lo && d.cwnd_bytes_q16 <= hi,
        "cwnd {} outside [{lo}, {hi}] (mss {mss})",
        d.cwnd_bytes_q16
    );
    prop_assert!(d.pacing_rate_bps <= MAX_RATE_BPS);
    if s.initialised() {
        let w = s.fcwnd_pkts_q20().min(s.ecwnd_pkts_q20());
        prop_assert!(
            s.fcwnd_pkts_q20() >= c.min_cwnd_pkts_q20 && s.fcwnd_pkts_q20() <= c.max_cwnd_pkts_q20
        );
        prop_assert!(
            s.ecwnd_pkts_q20() >= c.min_cwnd_pkts_q20 && s.ecwnd_pkts_q20() <= c.max_cwnd_pkts_q20
        );
        // Paced exactly when the window is below one packet (Alg. 1 lines 29-32).
        prop_assert_eq!(d.pacing_rate_bps != 0, w < PKT_Q20_ONE);
        prop_assert!(s.mss_bytes() >= 1 && s.mss_bytes() <= 1 << 16);
    }
    prop_assert!(d.signal >= c.base_target_ns as i64);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Any event sequence, from all-zero state, with or without init: no panic (debug build,
    /// overflow checks on), window within [min, max], pacing within bounds.
    #[test]
    fn never_panics_and_stays_in_bounds(c in config(), evs in prop::collection::vec(event(), 0..80)) {
        let p = Params::new(&c).unwrap();
        let mut s = State::default();
        for ev in &evs {
            let (d, mss) = step(&p, &mut s, ev);
            check_bounds(&p, &s, &d, mss)?;
        }
    }

    /// From any reachable state, an ACK with more delay never yields a larger window than the
    /// same ACK with less delay. No exclusions are needed: the decrease guard uses the RTT known
    /// before the ACK (Alg. 1 line 3 is evaluated at the start of the event), so a larger
    /// sample cannot turn a decrease into a guarded hold.
    #[test]
    fn more_delay_never_a_larger_window(c in config(), evs in prop::collection::vec(event(), 0..40),
                                        probe in ack_event(), r1 in delay(), r2 in delay()) {
        let p = Params::new(&c).unwrap();
        let mut s = State::default();
        for ev in &evs {
            step(&p, &mut s, ev);
        }
        let (lo, hi) = if r1 <= r2 { (r1, r2) } else { (r2, r1) };
        let mut probe = probe;
        probe.flags = (probe.flags | ACK_HAS_RTT) & !ACK_DELAYED;
        let mut s_lo = s;
        let mut s_hi = s;
        let d_lo = Swift::on_ack(&p, &mut s_lo, &AckEvent { rtt_ns: lo, ..probe });
        let d_hi = Swift::on_ack(&p, &mut s_hi, &AckEvent { rtt_ns: hi, ..probe });
        prop_assert!(d_hi.cwnd_bytes_q16 <= d_lo.cwnd_bytes_q16,
            "rtt {lo} -> {}, rtt {hi} -> {}", d_lo.cwnd_bytes_q16, d_hi.cwnd_bytes_q16);
    }

    /// Identical input sequences give identical outputs and states.
    #[test]
    fn deterministic(c in config(), evs in prop::collection::vec(event(), 0..60)) {
        let p = Params::new(&c).unwrap();
        let mut s1 = State::default();
        let mut s2 = State::default();
        for ev in &evs {
            let (d1, _) = step(&p, &mut s1, ev);
            let (d2, _) = step(&p, &mut s2, ev);
            prop_assert_eq!(d1, d2);
            prop_assert_eq!(s1, s2);
        }
    }

    /// Every ACK's signal is the fabric target at the window and hop count it leaves behind,
    /// whether `on_ack` reused the target it computed before the update (window unchanged) or
    /// computed it again (issue #13).
    #[test]
    fn ack_signal_is_the_target_after_the_ack(c in config(), evs in prop::collection::vec(event(), 1..60)) {
        let p = Params::new(&c).unwrap();
        let mut s = State::default();
        for ev in &evs {
            let (d, _) = step(&p, &mut s, ev);
            if let Ev::Input(Input::Ack(_)) = ev {
                let want = target_delay_ns(&p, s.fcwnd_pkts_q20(), s.hops());
                prop_assert_eq!(d.signal, want as i64);
            }
        }
    }

    /// `current` reports the last decision's window and pacing and changes nothing.
    #[test]
    fn current_matches_last_decision(c in config(), evs in prop::collection::vec(event(), 1..40)) {
        let p = Params::new(&c).unwrap();
        let mut s = State::default();
        let mut last = None;
        for ev in &evs {
            if let Ev::Input(i) = ev {
                let mss = match i {
                    Input::Init { mss_bytes, .. } | Input::IdleRestart { mss_bytes, .. }
                    | Input::Undo { mss_bytes } => *mss_bytes,
                    Input::Ack(a) => a.mss_bytes,
                    Input::Loss(l) => l.mss_bytes,
                };
                let d = apply::<Swift>(&p, &mut s, i);
                last = Some((d, mss));
            }
        }
        if let Some((d, mss)) = last {
            let before = s;
            let cur = Swift::current(&p, &s, mss);
            prop_assert_eq!(s, before);
            prop_assert_eq!(cur.cwnd_bytes_q16, d.cwnd_bytes_q16);
            prop_assert_eq!(cur.pacing_rate_bps, d.pacing_rate_bps);
            prop_assert_eq!(cur.signal, d.signal);
        }
    }
}

/// A small closed-loop sanity run: one flow against a fluid bottleneck whose queueing delay grows
/// with the window above the BDP. Swift must settle near its target without leaving bounds.
#[test]
fn closed_loop_settles_near_target() {
    let p = Params::new(&BASE).unwrap();
    let mut s = State::default();
    let mss = 1024u32;
    Swift::init(&p, &mut s, 0, mss);
    let base_rtt_ns = 10_000u64; // 10 µs propagation
    let bdp_pkts = 20.0f64; // packets in flight at zero queue
    let mut now = 0u64;
    let mut rtts = Vec::new();
    for _ in 0..20_000 {
        let w = s.fcwnd_pkts_q20() as f64 / PKT_Q20_ONE as f64;
        let queue_pkts = (w - bdp_pkts).max(0.0);
        // Each queued packet adds base_rtt/bdp of delay (the link drains bdp packets per RTT).
        let rtt = base_rtt_ns + (queue_pkts * base_rtt_ns as f64 / bdp_pkts) as u64;
        now += rtt / w.max(1.0) as u64;
        let ev = rdcc_core::vectors::ack(now, rtt, mss, mss);
        Swift::on_ack(&p, &mut s, &ev);
        rtts.push(rtt);
    }
    let tail = &rtts[rtts.len() - 2000..];
    let mean = tail.iter().sum::<u64>() as f64 / tail.len() as f64;
    // Target 25 µs: the mean RTT should sit within a few µs of it.
    assert!((mean - 25_000.0).abs() < 5_000.0, "mean rtt {mean}");
}
