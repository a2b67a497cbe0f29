// SPDX-License-Identifier: GPL-2.0-only
//! Host tests for ExpressPass's per-flow logic: the receiver vector table by name, parameter
//! validation, the credit-rate formula of §3.1, the sender's credit consumption, property tests
//! over arbitrary event sequences (hostile values included), and a closed-loop check with
//! delayed feedback: receivers sharing one credit-rate-limited bottleneck converge to equal
//! shares of it.

use proptest::prelude::*;
use rdcc_core::expresspass::{
    max_credit_rate_bps, Config, CreditUse, Params, Receiver, Sender, MODE_PAPER,
};
use rdcc_core::expresspass_vectors::{run_all, run_case, CASES, VECTOR_MAX_RATE_BPS};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

#[test]
fn every_vector_case_by_name() {
    let mut failures = Vec::new();
    for case in CASES {
        if let Err(m) = run_case(case) {
            failures.push(format!(
                "{}: step {}: got {:?}, credit {:?}\n    input {:?}\n    want {:?}",
                case.name,
                m.step,
                m.got,
                m.credit,
                case.steps.get(m.step).map(|s| s.input),
                case.steps.get(m.step).and_then(|s| s.expect)
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
    assert_eq!(run_all(), Ok(CASES.len()));
    let mut names: Vec<_> = CASES.iter().map(|c| c.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), CASES.len());
}

#[test]
fn max_credit_rate_is_the_papers_fraction_of_the_link() {
    // (link Mbit/s, credit B, frame B, C/8 * credit / (credit + frame) by hand, floored)
    let cases: &[(u64, u64, u64, u64)] = &[
        (10_000, 84, 1538, 64_734_895), // 1.25e9 * 84/1622 = 64,734,895.2 (= artifact)
        (25_000, 84, 1538, 161_837_237), // 3.125e9 * 84/1622 = 161,837,238.0 - 0.02
        (40_000, 84, 1538, 258_939_580), // 5e9 * 84/1622 = 258,939,580.8
        (100_000, 84, 1538, 647_348_951), // 1.25e10 * 84/1622 = 647,348,951.9
        (40_000, 72, 9042, 39_499_670), // BESS jumbo: 5e9 * 72/9114 = 39,499,670.8
        (1, 64, 10_000, 794),           // 125,000 * 64/10064 = 794.9 -> the smallest case
    ];
    for &(mbps, c, f, want) in cases {
        assert_eq!(
            max_credit_rate_bps(mbps, c, f),
            want,
            "{mbps} Mbit/s {c}/{f}"
        );
    }
    assert_eq!(VECTOR_MAX_RATE_BPS, 64_734_895);
    // The inter-credit gap at peak rate is one MTU of link time: 1538 B at 10 Gbit/s plus the
    // credit itself = 1622 B * 0.8 ns = 1297.6 ns (spec §4.1).
    let p = Params::new(&Config::DEFAULT).unwrap();
    let mut r = Receiver::default();
    r.on_request(&p, 0);
    r.rate_bps = p.max_rate_bps();
    assert_eq!(r.gap_ns(&p, 6554), 1297);
}

#[test]
fn every_parameter_is_range_checked() {
    let d = Config::DEFAULT;
    let bad: &[(&str, Config)] = &[
        (
            "link_rate_mbps",
            Config {
                link_rate_mbps: 0,
                ..d
            },
        ),
        (
            "link_rate_mbps",
            Config {
                link_rate_mbps: 1_600_001,
                ..d
            },
        ),
        (
            "credit_bytes",
            Config {
                credit_bytes: 63,
                ..d
            },
        ),
        (
            "credit_bytes",
            Config {
                credit_bytes: 10_001,
                ..d
            },
        ),
        (
            "max_data_frame_bytes",
            Config {
                max_data_frame_bytes: 83,
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
        ("w_max_q16", Config { w_max_q16: 0, ..d }),
        ("w_min_q16", Config { w_min_q16: 0, ..d }),
        (
            "w_min_q16",
            Config {
                w_min_q16: 40_000,
                ..d
            },
        ),
        (
            "w_init_q16",
            Config {
                w_init_q16: 600,
                ..d
            },
        ),
        (
            "w_init_q16",
            Config {
                w_init_q16: 40_000,
                ..d
            },
        ),
        (
            "w_step_q16",
            Config {
                w_step_q16: 65_537,
                ..d
            },
        ),
        (
            "target_loss_q16",
            Config {
                target_loss_q16: 32_769,
                ..d
            },
        ),
        (
            "target_loss_scaling_q16",
            Config {
                target_loss_scaling_q16: 32_769,
                ..d
            },
        ),
        (
            "jitter_q16",
            Config {
                jitter_q16: 32_769,
                ..d
            },
        ),
        (
            "rtt_ewma_q16",
            Config {
                rtt_ewma_q16: 0,
                ..d
            },
        ),
        ("mode", Config { mode: 2, ..d }),
        ("rto_ns", Config { rto_ns: 999, ..d }),
        (
            "min_credits_per_update",
            Config {
                min_credits_per_update: 0,
                ..d
            },
        ),
        (
            "min_credits_per_update",
            Config {
                min_credits_per_update: 4_097,
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
    assert!(Params::new(&Config {
        mode: MODE_PAPER,
        ..d
    })
    .is_ok());
}

#[test]
fn sender_uses_one_credit_per_packet_and_stops_when_empty() {
    let p = Params::new(&Config::DEFAULT).unwrap();
    let mut s = Sender::default();
    // Nothing open: a stray credit is wasted.
    assert_eq!(s.on_credit(5000, 1460), CreditUse::default());
    assert_eq!(s.wasted, 1);
    assert!(s.on_backlog(0));
    assert!(!s.on_backlog(10), "one request per session");
    // RTO: 100 µs without a credit resends the request, not before.
    assert!(!s.on_rto(&p, 99_999));
    assert!(s.on_rto(&p, 100_000));
    assert_eq!((s.requests, s.request_ns), (2, 100_000));
    // (backlog, want payload, want stop): 3000 B = 1460 + 1460 + 80.
    let steps: &[(u64, u32, bool)] = &[(3000, 1460, false), (1540, 1460, false), (80, 80, true)];
    for &(backlog, bytes, stop) in steps {
        assert_eq!(
            s.on_credit(backlog, 1460),
            CreditUse {
                data_bytes: bytes,
                stop
            }
        );
    }
    assert!(!s.on_rto(&p, 1_000_000), "no request outstanding");
    // Credits still in flight after CREDIT_STOP are wasted (spec §4.9).
    assert_eq!(s.on_credit(0, 1460), CreditUse::default());
    assert_eq!((s.used, s.wasted), (3, 2));
    // New data opens a new session.
    assert!(s.on_backlog(2_000_000));
}

fn arb_config() -> impl Strategy<Value = Config> {
    (
        1u64..=1_600_000,
        64u64..=200,
        1u64..=65_536,
        1u64..=32_768,
        0u64..=32_768,
        0u64..=32_768,
        0u64..=1,
    )
        .prop_map(|(link, credit, alpha, w_max, tl, jitter, mode)| Config {
            link_rate_mbps: link,
            credit_bytes: credit,
            alpha_q16: alpha,
            w_max_q16: w_max,
            w_min_q16: w_max.min(655),
            w_init_q16: w_max.min(4096),
            target_loss_q16: tl,
            target_loss_scaling_q16: tl,
            jitter_q16: jitter,
            mode,
            ..Config::DEFAULT
        })
}

#[derive(Clone, Debug)]
enum Ev {
    Request(u64),
    Timer(u64, u32),
    Data(u64, u32, u64),
    Stop,
}

fn arb_event() -> impl Strategy<Value = Ev> {
    prop_oneof![
        1 => any::<u64>().prop_map(Ev::Request),
        6 => (any::<u64>(), any::<u32>()).prop_map(|(t, r)| Ev::Timer(t, r)),
        6 => (any::<u64>(), any::<u32>(), any::<u64>()).prop_map(|(t, s, x)| Ev::Data(t, s, x)),
        1 => Just(Ev::Stop),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any event sequence, times and sequence numbers arbitrary: the rate stays in
    /// [1, max_rate], w in [w_min, w_max], dropped <= total, and every gap is finite and within
    /// the jitter band of credit / rate.
    #[test]
    fn receiver_stays_in_bounds(c in arb_config(), evs in prop::collection::vec(arb_event(), 1..200)) {
        let p = Params::new(&c).unwrap();
        let mut r = Receiver::default();
        for ev in evs {
            match ev {
                Ev::Request(t) => { r.on_request(&p, t); }
                Ev::Stop => r.on_stop(),
                Ev::Data(t, s, x) => r.on_data(&p, t, s, x),
                Ev::Timer(t, x) => {
                    if let Some(cr) = r.on_credit_timer(&p, t, x) {
                        let base = (c.credit_bytes as u128 * 1_000_000_000 / r.rate_bps as u128) as u64;
                        prop_assert!(cr.gap_ns >= 1);
                        prop_assert!(cr.gap_ns <= base + base / 2 + 1);
                        prop_assert!(cr.gap_ns + 1 >= base / 2);
                    }
                }
            }
            if r.active {
                prop_assert!(r.rate_bps >= 1 && r.rate_bps <= p.max_rate_bps(), "{r:?}");
                prop_assert!(r.w_q16 >= c.w_min_q16 && r.w_q16 <= c.w_max_q16, "{r:?}");
            }
            prop_assert!(r.dropped <= r.total);
        }
    }

    /// In order, lossless echoes never decrease the rate and reach max_rate.
    #[test]
    fn no_loss_only_increases(c in arb_config(), n in 10u32..60) {
        let p = Params::new(&c).unwrap();
        let mut r = Receiver::default();
        r.on_request(&p, 0);
        let rtt = 10_000u64;
        let mut prev = r.rate_bps;
        for k in 0..n {
            let t = k as u64 * rtt;
            let cr = r.on_credit_timer(&p, t, 6554).unwrap();
            r.on_data(&p, t + rtt, cr.seq, t);
            prop_assert!(r.rate_bps >= prev);
            prev = r.rate_bps;
        }
        if c.w_max_q16 >= 655 && n >= 50 {
            // w >= 0.01 per RTT closes at least 1 % of the gap each round: 1 - 0.99^48 > 38 %.
            prop_assert!(r.rate_bps >= p.max_rate_bps() / 2 || r.rate_bps as u128 * 100 >= p.max_rate_bps() as u128 * 38);
        }
    }
}

/// The closed loop of §3 Fig. 3 with delayed feedback: `n` receivers send credits through one
/// port whose credit class drains at `max_rate` with an 8-credit queue (drop-tail) and a
/// 2-credit bucket; each surviving credit comes back as data one base RTT after it left the
/// port. Returns each flow's credits that passed in the last `tail_ns`.
fn bottleneck(n: usize, mode: u64, start_stagger_ns: u64, end_ns: u64, tail_ns: u64) -> Vec<u64> {
    let p = Params::new(&Config {
        mode,
        ..Config::DEFAULT
    })
    .unwrap();
    let service_ns = 84_000_000_000 / p.max_rate_bps(); // 1297 ns per credit at 10 Gbit/s
    let base_rtt_ns = 10_000;
    let queue_cap = 8u64;
    let mut rx = vec![Receiver::default(); n];
    // (time, kind 0 = data arrives / 1 = credit timer, flow, seq, sent)
    let mut heap = BinaryHeap::new();
    for (f, r) in rx.iter_mut().enumerate() {
        let t = f as u64 * start_stagger_ns;
        r.on_request(&p, t);
        heap.push(Reverse((t, 1u8, f, 0u32, 0u64)));
    }
    let mut port_free_ns = 0u64; // when the credit class finishes its backlog
    let mut passed = vec![0u64; n];
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    while let Some(Reverse((t, kind, f, seq, sent))) = heap.pop() {
        if t > end_ns {
            break;
        }
        if kind == 0 {
            rx[f].on_data(&p, t, seq, sent);
            continue;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let Some(c) = rx[f].on_credit_timer(&p, t, rng as u32) else {
            continue;
        };
        heap.push(Reverse((t + c.gap_ns, 1, f, 0, 0)));
        // Drop-tail FIFO served at one credit per `service_ns`: an idle port sends at once,
        // otherwise the credit waits behind the backlog, or is dropped past `queue_cap`.
        let leave = port_free_ns.max(t);
        if (leave - t).div_ceil(service_ns) > queue_cap {
            continue;
        }
        port_free_ns = leave + service_ns;
        if leave + tail_ns > end_ns {
            passed[f] += 1;
        }
        heap.push(Reverse((leave + base_rtt_ns, 0, f, c.seq, t)));
    }
    passed
}

fn jain(x: &[u64]) -> f64 {
    let s: f64 = x.iter().map(|&v| v as f64).sum();
    let q: f64 = x.iter().map(|&v| (v as f64) * (v as f64)).sum();
    s * s / (x.len() as f64 * q)
}

#[test]
fn closed_loop_shares_a_bottleneck_fairly_and_fully() {
    // Capacity: one credit per 1297 ns. Measured over the last 10 ms of 20 ms (1000 base RTTs),
    // the artifact's law fills >= 90 % of it; the paper's reconstructed law (fixed 10 % target
    // loss, [M] in the spec) settles lower, about 88 %, so its bound is 85 %. Fairness: Jain
    // >= 0.95 for both (seen: >= 0.99).
    for (mode, util_pct) in [(0, 90), (MODE_PAPER, 85)] {
        for n in [2usize, 4, 16] {
            let end = 20_000_000;
            let tail = 10_000_000;
            let got = bottleneck(n, mode, 0, end, tail);
            let cap = tail / 1297;
            let sum: u64 = got.iter().sum();
            let j = jain(&got);
            assert!(
                sum * 100 >= cap * util_pct,
                "mode {mode} n {n}: {sum} of {cap} credits: {got:?}"
            );
            assert!(j >= 0.95, "mode {mode} n {n}: Jain {j:.3}: {got:?}");
        }
    }
}

#[test]
fn min_credits_per_update_holds_the_update_for_credits_or_four_rtts() {
    // RTT 10 µs (one echo sets it), credits one per µs from t = 0; each case: how many
    // credits are echoed (none lost) before the timer at `now_ns`, and whether it updates.
    // 1 (the artifact's `credit_total > 0`): an RTT and one credit suffice; 16: an RTT is not
    // enough with 12 credits but is with 16; after MAX_UPDATE_RTTS (4) RTTs 12 suffice.
    let cases: &[(u64, u32, u64, bool)] = &[
        (1, 12, 12_000, true),
        (16, 12, 12_000, false),
        (16, 16, 16_000, true),
        (16, 12, 39_999, false),
        (16, 12, 40_000, true),
    ];
    for &(min, echoed, now_ns, want) in cases {
        let p = Params::new(&Config {
            min_credits_per_update: min,
            ..Config::DEFAULT
        })
        .unwrap();
        let mut r = Receiver::default();
        assert!(r.on_request(&p, 0));
        for i in 0..echoed as u64 {
            let c = r.on_credit_timer(&p, i * 1_000, 0).unwrap();
            assert!(!c.updated || i == 0);
        }
        for i in 0..echoed {
            // Every echo 10 µs after its credit: the RTT EWMA stays at 10 µs.
            r.on_data(&p, i as u64 * 1_000 + 10_000, i, i as u64 * 1_000);
        }
        let c = r.on_credit_timer(&p, now_ns, 0).unwrap();
        assert_eq!(
            c.updated, want,
            "min {min}, {echoed} echoed, at {now_ns} ns"
        );
    }
}
