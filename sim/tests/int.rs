//! In-band network telemetry and the INT laws: the records the laws read are the queue each
//! packet saw, and each law's key outcome (PowerTCP drains an incast faster than θ-PowerTCP,
//! HPCC holds utilisation near η, VAI/SF reaches a Jain index of 0.9 sooner than plain HPCC).
//! Scaled-down versions of `sim/scenarios/int_incast_10to1.toml` and `sl_hpcc_16to1.toml`; the
//! runs simulate at most 2.5 ms.

use rdcc_core::int::{IntHop, INT_MAX_HOPS, QLEN_UNIT_BYTES};
use rdcc_sim::scenario::RunResult;
use rdcc_sim::Scenario;

fn run(text: &str, alg: &str) -> RunResult {
    Scenario::parse(text).unwrap().run_one(alg, false).unwrap()
}

/// Two cross-leaf flows and one same-leaf flow on a leaf-spine with PFC: three switches on the
/// cross-leaf paths (leaf, spine, leaf), one on the local one.
const LEAF_SPINE: &str = r#"
name = "int_records"
duration_us = 300
sample_us = 10
algorithms = ["hpcc"]
[topology]
kind = "leaf_spine"
leaves = 2
spines = 1
hosts_per_leaf = 3
host_rate_gbps = 25
fabric_rate_gbps = 100
link_delay_us = 1
buffer_kb = 500
[fabric]
buffer = "shared"
pfc = true
[transport]
mss_bytes = 1000
header_bytes = 48
[cc.hpcc]
law = "hpcc"
base_rtt_ns = 10000
host_bw_bps = 3125000000
[[flows]]
src = 0
dst = 3
[[flows]]
src = 1
dst = 3
[[flows]]
src = 4
dst = 3
"#;

#[test]
fn int_records_are_the_queue_each_packet_saw() {
    let sc = Scenario::parse(LEAF_SPINE).unwrap();
    let mut sim = sc.build("hpcc").unwrap();
    sim.log_int();
    sim.run_until(300_000);
    let log = sim.int_log().unwrap();
    assert!(log.acks.len() > 500, "{} ACKs", log.acks.len());
    // The queue at the receiver's downlink must have been non-empty for the test to mean
    // anything: three senders into one 25 Gbit/s link.
    assert!(log
        .dequeues
        .iter()
        .any(|d| d.queue_bytes >= 10 * QLEN_UNIT_BYTES));
    let mut checked = 0;
    for (flow, ack_seg, stack) in &log.acks {
        // ACK every segment, in order: cumulative ACK s + 1 acknowledges segment s.
        let seg = ack_seg - 1;
        let mut truth: Vec<_> = log
            .dequeues
            .iter()
            .filter(|d| d.flow == *flow && d.seg == seg)
            .collect();
        truth.sort_by_key(|d| d.now_ns); // path order
        let want_hops = if *flow == 2 { 1 } else { 3 };
        if truth.len() != want_hops {
            continue; // a retransmitted segment (two dequeues per hop): ambiguous, skip
        }
        assert_eq!(stack.hops().len(), want_hops, "flow {flow} seg {seg}");
        assert!(stack.hops().len() <= INT_MAX_HOPS);
        for (h, d) in stack.hops().iter().zip(&truth) {
            // Queue: the bytes behind the packet at its dequeue, in 80-byte units.
            assert_eq!(
                h.qlen_bytes(),
                d.queue_bytes / QLEN_UNIT_BYTES * QLEN_UNIT_BYTES,
                "flow {flow} seg {seg} node {}",
                d.node
            );
            let expect =
                IntHop::encode(d.queue_bytes, d.tx_bytes, d.now_ns, d.rate_bits_per_s / 8).unwrap();
            assert_eq!(*h, expect, "flow {flow} seg {seg} node {}", d.node);
            assert_eq!(h.rate_bps(), d.rate_bits_per_s / 8);
            assert_eq!(h.ts_ns(), d.now_ns % (1 << 24));
        }
        checked += 1;
    }
    assert!(
        checked > 500,
        "only {checked} ACKs matched one dequeue per hop"
    );
}

#[test]
fn int_laws_are_refused_on_port_rates_a_record_cannot_name() {
    let text = LEAF_SPINE.replace("host_rate_gbps = 25", "host_rate_gbps = 30");
    let e = Scenario::parse(&text)
        .and_then(|s| s.validate())
        .unwrap_err()
        .to_string();
    assert!(e.contains("INT record cannot name"), "{e}");
}

/// `int_incast_10to1.toml`, 1.5 ms after the incast at 0.5 ms.
fn incast() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/int_incast_10to1.toml"
    ))
    .unwrap()
    .replace("duration_us = 3000", "duration_us = 2000")
    .replace("measure_from_us = 1000", "measure_from_us = 500")
    .replace("start_us = 1000", "start_us = 500")
    .replace("jain_from_us = 1000", "jain_from_us = 500")
}

/// The first time after `from_ns` from which the bottleneck queue stays at or below
/// `limit_bytes`, µs.
fn settled_below_us(r: &RunResult, from_ns: u64, limit_bytes: u64) -> Option<f64> {
    let s = &r.out.series;
    let q = &s.queue_bytes[0];
    let mut t = None;
    for (i, &ts) in s.t_ns.iter().enumerate() {
        if ts < from_ns {
            continue;
        }
        if q[i] <= limit_bytes {
            t.get_or_insert(ts);
        } else {
            t = None;
        }
    }
    t.map(|ts| (ts - from_ns) as f64 / 1000.0)
}

#[test]
fn powertcp_drains_an_incast_faster_than_theta_powertcp() {
    let text = incast();
    let p = run(&text, "powertcp_int");
    let t = run(&text, "theta_powertcp");
    // "Near-zero" for PowerTCP is its equilibrium queue Σβ (Thm. 1): 11 flows x β = HostBw·τ/10
    // = 6.56 KB, 72 KB; 100 KB leaves room for one packet per flow in flight.
    let tp = settled_below_us(&p, 500_000, 100_000).expect("PowerTCP settles");
    let tt = settled_below_us(&t, 500_000, 100_000).expect("theta-PowerTCP settles");
    eprintln!("settled below 100 KB: PowerTCP {tp} us, theta-PowerTCP {tt} us");
    assert!(
        tp + 100.0 < tt,
        "PowerTCP {tp} us vs theta-PowerTCP {tt} us"
    );
    // Both without loss (PFC) and at full throughput.
    for r in [&p, &t] {
        assert_eq!(r.out.counters.data_dropped, 0);
        assert!(r.summary.goodput_gbps > 23.0, "{}", r.summary.goodput_gbps);
    }
}

#[test]
fn hpcc_holds_utilisation_near_eta() {
    let r = run(&incast(), "hpcc");
    // η = 0.95 of the 25 Gbit/s bottleneck over the 1.5 ms after the incast (Qavg near 0).
    let u = r.summary.goodput_gbps / 25.0 * 1048.0 / 1000.0; // goodput to wire rate
    eprintln!("HPCC utilisation {u}, queue {} KB", r.summary.queue_mean_kb);
    assert!((0.90..=1.0).contains(&u), "utilisation {u}");
    assert!(
        r.summary.queue_mean_kb < 80.0,
        "queue {}",
        r.summary.queue_mean_kb
    );
    // The window the law holds at the end: the 11 flows' windows sum to η·b·T plus W_AI each.
    let s = &r.out.series;
    let end = s.t_ns.len() - 1;
    let sum: f64 = s.flow_cwnd_bytes.iter().map(|c| c[end]).sum();
    let bdp = 3.125e9 * 21e-6;
    assert!(
        sum > 0.85 * bdp && sum < 1.1 * bdp,
        "sum of windows {sum} vs BDP {bdp}"
    );
}

#[test]
fn vai_sf_reaches_jain_09_sooner_than_hpcc() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/sl_hpcc_16to1.toml"
    ))
    .unwrap()
    .replace("duration_us = 1500", "duration_us = 900");
    let h = run(&text, "hpcc");
    let v = run(&text, "hpcc_vaisf");
    let th = h.summary.jain09_settled_us.unwrap_or(f64::INFINITY);
    let tv = v
        .summary
        .jain09_settled_us
        .expect("VAI/SF settles above 0.9");
    eprintln!("Jain >= 0.9 settled: VAI/SF {tv} us, HPCC {th} us");
    assert!(tv + 100.0 < th, "VAI/SF {tv} us vs HPCC {th} us");
}
