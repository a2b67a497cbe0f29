//! θ-PowerTCP's paper outcome at packet level: the 10:1 incast of PowerTCP Fig. 4
//! (`sim/scenarios/powertcp_incast_10to1.toml`: one long flow, ten more starting at once at
//! line rate 1 ms later, 25 Gbit/s, base RTT 20.9 µs). Paper (§4.2): the queue drains and there
//! is no throughput loss. Tolerances (Documentation/results/powertcp_incast_10to1.md): goodput
//! from the incast to the end at least 99.5 % of what the link carries in payload, no 20 µs
//! interval below 75 % of it, and the queue of the last 0.5 ms at Thm. 1's Σβ within 25 % plus
//! one 1 KB packet per flow.
//!
//! With N = 50 expected flows (β = 1.3 KB) the law before issue #12, which paired the power
//! with the current window instead of the window the sampled data was sent under (Eq. 7's
//! w(t − θ), Alg. 2 line 8), lost throughput here: 98.5 % of the payload rate with the per-ACK
//! gradient (a 20 µs interval at 6.0 Gbit/s), 94.7 % with the per-RTT gradient (8.4 Gbit/s,
//! and its queue stayed at 37 KB against Σβ = 14 KB).

use rdcc_sim::scenario::RunResult;
use rdcc_sim::Scenario;

/// Payload rate of a 25 Gbit/s link with 1000-byte payloads and 48-byte headers, Gbit/s.
const PAYLOAD_GBPS: f64 = 25.0 * 1000.0 / 1048.0;
/// The incast starts here, ns.
const INCAST_NS: u64 = 1_000_000;

/// The scenario file, θ-PowerTCP only, run to 3 ms, with the gradient cadence `mode` and `n`
/// expected flows.
fn run(mode: u32, n: u32) -> RunResult {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/powertcp_incast_10to1.toml"
    ))
    .unwrap()
    .replace("duration_us = 4000", "duration_us = 3000")
    .replace(
        "gradient_mode = 1 ",
        &format!("gradient_mode = {mode}\nexpected_flows = {n}\n# "),
    );
    let sc = Scenario::parse(&text).unwrap();
    sc.run_one("theta_powertcp", false).unwrap()
}

/// Checks the paper's outcome; `n` is the expected number of flows (β = HostBw·τ/N).
fn check(r: &RunResult, n: f64, label: &str) -> Vec<String> {
    let mut bad = Vec::new();
    let s = &r.out.series;
    let q = &s.queue_bytes[0];
    // 20 µs windows of the total goodput (4 samples of 5 µs), from one RTT after the incast.
    let mut min_gbps = f64::INFINITY;
    let mut last_q = Vec::new();
    let mut settled_ns = None;
    for (i, &t_ns) in s.t_ns.iter().enumerate().skip(3) {
        if t_ns >= INCAST_NS + 25_000 {
            let avg = s.total_bps[i - 3..=i].iter().sum::<f64>() / 4.0 / 1e9;
            min_gbps = min_gbps.min(avg);
        }
        if t_ns >= INCAST_NS {
            if q[i] <= 100_000 {
                settled_ns.get_or_insert(t_ns - INCAST_NS);
            } else {
                settled_ns = None;
            }
        }
        if t_ns + 500_000 > 3_000_000 {
            last_q.push(q[i] as f64);
        }
    }
    let end_q = last_q.iter().sum::<f64>() / last_q.len() as f64;
    // Thm. 1: Σβ = 11·HostBw·τ/N, τ = 21 µs, HostBw = 3.125 GB/s.
    let sum_beta = 11.0 * 3.125e9 * 21e-6 / n;
    let goodput = r.summary.goodput_gbps;
    eprintln!(
        "{label}: goodput {goodput:.3} Gbit/s ({:.2} %), lowest 20 us {min_gbps:.2} Gbit/s, \
         queue {end_q:.0} B vs sum beta {sum_beta:.0} B, max {:.0} KB, below 100 KB from \
         {settled_ns:?} ns after the incast",
        goodput / PAYLOAD_GBPS * 100.0,
        r.summary.queue_max_kb
    );
    // The queue drains: below 100 KB for good within 700 µs of the incast (about three of
    // the inflated RTTs; see the results page).
    if settled_ns.map_or(true, |t| t > 700_000) {
        bad.push(format!(
            "{label}: queue above 100 KB until {settled_ns:?} ns"
        ));
    }
    if goodput < 0.995 * PAYLOAD_GBPS {
        bad.push(format!("{label}: goodput {goodput:.3} Gbit/s"));
    }
    if min_gbps < 0.75 * PAYLOAD_GBPS {
        bad.push(format!("{label}: a 20 us interval at {min_gbps:.2} Gbit/s"));
    }
    if (end_q - sum_beta).abs() > 0.25 * sum_beta + 11_000.0 {
        bad.push(format!("{label}: queue {end_q:.0} B vs {sum_beta:.0} B"));
    }
    assert_eq!(r.summary.drops, 0, "{label}");
    bad
}

#[test]
fn incast_10_to_1_drains_without_throughput_loss() {
    // The scenario as the results page runs it: N = 10, per-ACK gradient.
    let bad = check(&run(1, 10), 10.0, "N 10 per ACK");
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn incast_10_to_1_small_beta_keeps_the_link_busy() {
    let mut bad = Vec::new();
    for (mode, label) in [(1, "N 50 per ACK"), (0, "N 50 per RTT")] {
        bad.extend(check(&run(mode, 50), 50.0, label));
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
