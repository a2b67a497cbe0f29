//! Key outcomes the simulator must reproduce, and its own invariants (determinism,
//! conservation). Each test runs a scenario in at most a few simulated milliseconds.

use rdcc_sim::scenario::RunResult;
use rdcc_sim::tables::run_files;
use rdcc_sim::Scenario;

mod common;
use common::{run, scenario_file};

/// A lossy mix: DCTCP and Reno into an 8-1 incast with a 30 KB buffer, plus Swift, finite
/// flows, delayed ACKs and RTT noise, so drops, retransmissions and timeouts all happen.
const LOSSY: &str = r#"
name = "lossy"
seed = 7
duration_us = 4000
sample_us = 20
algorithms = ["reno"]
[topology]
kind = "incast"
senders = 8
host_rate_gbps = 10
link_delay_us = 1
buffer_kb = 30
ecn_k_kb = 10
[transport]
ack_every = 2
delack_us = 5
rtt_noise_ns = 2000
rtt_quantum_ns = 1000
min_rto_us = 200
[[flows]]
src = 0
dst = 8
count = 6
size_bytes = 300000
stagger_us = 7
[[flows]]
src = 6
dst = 8
count = 2
cc = "dctcp"
[[flows]]
src = 7
dst = 8
size_bytes = 200000
cc = "swift"
"#;

#[test]
fn same_seed_gives_identical_output_bytes() {
    for (sc, alg) in [
        (Scenario::parse(LOSSY).unwrap(), "reno"),
        (scenario_file("sl_incast_16to1.toml"), "swift_vaisf"),
    ] {
        let a = run_files(&run(&sc, alg).out).unwrap();
        let b = run_files(&run(&sc, alg).out).unwrap();
        assert!(a == b, "{}: two runs with seed {} differ", sc.name, sc.seed);
    }
    // And the seed matters where randomness is used (RTT noise, seen by Swift).
    let mut sc = Scenario::parse(LOSSY).unwrap();
    let a = run_files(&run(&sc, "swift").out).unwrap();
    sc.seed = 8;
    let b = run_files(&run(&sc, "swift").out).unwrap();
    assert!(a != b, "a different seed changed nothing");
}

#[test]
fn packets_are_conserved_even_with_loss() {
    let sc = Scenario::parse(LOSSY).unwrap();
    // Stop in the middle (packets in flight) and at the end.
    for dur in [1234.5, 4000.0] {
        let mut s = sc.clone();
        s.duration_us = dur;
        let r = run(&s, "reno");
        let c = &r.out.counters;
        assert!(c.data_dropped > 0, "the scenario is meant to drop packets");
        assert!(c.retransmits > 0);
        assert_eq!(
            c.data_sent,
            c.data_delivered + c.data_dropped + r.out.data_in_network,
            "sent = delivered + dropped + in flight at t={dur} us: {c:?}"
        );
    }
}

#[test]
fn lossy_finite_flows_all_complete() {
    let r = run(&Scenario::parse(LOSSY).unwrap(), "reno");
    let unfinished: Vec<_> = r
        .out
        .flows
        .iter()
        .filter(|f| f.spec.size_bytes > 0 && f.finish_ns.is_none())
        .collect();
    assert!(unfinished.is_empty(), "unfinished: {unfinished:?}");
    for f in &r.out.flows {
        if f.spec.size_bytes > 0 {
            assert_eq!(
                f.rx_bytes, f.spec.size_bytes,
                "receiver got every byte once"
            );
        }
    }
}

/// Swift's target is on the RTT (fabric delay with no remote-delay channel), so on a
/// dumbbell the measured RTT must settle near the target the law reports as its signal.
/// Tolerance 10 %: the AIMD sawtooth moves the RTT by about one packet's serialization per
/// RTT per flow (1.2 us at 10 Gbit/s, 4 % of the ~32 us target), and flow scaling moves the
/// target with the window by a few percent.
#[test]
fn swift_two_flow_dumbbell_delay_settles_at_target() {
    let sc = scenario_file("dumbbell_swift_2flow.toml");
    let r = run(&sc, "swift");
    let rtts = &r.out.rtt_ns; // measurement window: the second half
    let mean_rtt = rtts.iter().map(|&x| x as f64).sum::<f64>() / rtts.len() as f64;
    let targets: Vec<f64> = r.out.flows.iter().map(|f| f.last_signal as f64).collect();
    let target = targets.iter().sum::<f64>() / targets.len() as f64;
    assert!(target > 25_000.0, "target includes base 25 us: {target}");
    let err = (mean_rtt - target).abs() / target;
    assert!(
        err < 0.10,
        "mean RTT {mean_rtt:.0} ns vs target {target:.0} ns ({:.1} %)",
        err * 100.0
    );
    assert!(r.summary.utilization > 0.95, "{}", r.summary.utilization);
    // Equal shares over the window (per-flow means).
    let s = &r.out.series;
    let from = s.t_ns.iter().position(|&t| t > 10_000_000).unwrap();
    let m: Vec<f64> = s
        .flow_bps
        .iter()
        .map(|v| v[from..].iter().sum::<f64>() / (v.len() - from) as f64)
        .collect();
    assert!(rdcc_sim::stats::jain(&m).unwrap() > 0.99, "{m:?}");
}

/// Snyder & Lebeck's 16-1 staggered incast: both variants reach Jain >= 0.9 and stay there
/// until the first flow finishes; VAI/SF gets there sooner, and finish times are closer
/// together with VAI/SF (SL Figs. 3 and 9).
#[test]
fn sl_incast_vaisf_converges_sooner_than_swift() {
    let sc = scenario_file("sl_incast_16to1.toml");
    let swift = run(&sc, "swift");
    let vai = run(&sc, "swift_vaisf");
    let t_swift = swift
        .summary
        .jain09_settled_us
        .expect("swift settles above 0.9");
    let t_vai = vai
        .summary
        .jain09_settled_us
        .expect("vai/sf settles above 0.9");
    assert!(
        t_vai < t_swift,
        "VAI/SF settles at {t_vai} us, Swift at {t_swift} us"
    );
    for r in [&swift, &vai] {
        let last = r
            .out
            .series
            .jain
            .iter()
            .zip(&r.out.series.active)
            .filter(|(_, &n)| n >= 8);
        let j: Vec<f64> = last.map(|(&j, _)| j).collect();
        assert!(
            j.iter().rev().take(20).all(|&x| x > 0.9),
            "{}: late Jain {:?}",
            r.name,
            &j[j.len() - 20..]
        );
        assert_eq!(r.summary.flows_done, 16);
    }
    let spread = |r: &RunResult| {
        let f: Vec<u64> = r.out.flows.iter().map(|f| f.finish_ns.unwrap()).collect();
        f.iter().max().unwrap() - f.iter().min().unwrap()
    };
    assert!(spread(&vai) < spread(&swift), "finish-time spread");
}

/// DCTCP keeps the bottleneck queue near its marking threshold K at full utilization.
#[test]
fn dctcp_queue_stays_near_k() {
    let text = r#"
name = "dctcp_k"
duration_us = 10000
measure_from_us = 3000
sample_us = 20
algorithms = ["dctcp"]
[topology]
kind = "dumbbell"
left = 2
right = 1
host_rate_gbps = 10
bottleneck_rate_gbps = 10
link_delay_us = 2
buffer_kb = 400
ecn_k_kb = 65
[[flows]]
src = 0
dst = 2
count = 2
"#;
    let r = run(&Scenario::parse(text).unwrap(), "dctcp");
    let s = &r.summary;
    assert!(
        s.queue_mean_kb > 0.7 * 65.0 && s.queue_mean_kb < 1.3 * 65.0,
        "mean queue {} KB",
        s.queue_mean_kb
    );
    assert!(
        s.queue_p99_kb < 2.0 * 65.0,
        "p99 queue {} KB",
        s.queue_p99_kb
    );
    assert!(s.utilization > 0.95, "utilization {}", s.utilization);
    assert_eq!(s.drops, 0);
}
