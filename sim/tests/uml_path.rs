//! UML's 10 Gbit/s / 10 µs path (`uml_10g_10us.toml`; issue #36 item 5): the simulator as the
//! reference for the kernel's numbers in Documentation/results/uml_vaisf_10g.md. With the
//! laws' paper defaults Swift fills the link, and Swift VAI/SF, whose 5 µs target is below the
//! path's RTT, settles at SL Eq. 1's fixed point (`core/tests/vaisf.rs`
//! `target_below_path_rtt_settles_at_the_eq1_fixed_point`); with Linux's default delayed ACK
//! (every second segment, 40 ms timer) VAI/SF's sub-packet window collapses to one segment per
//! delayed-ACK timeout, as the kernel did without `quickack`. A target above the path's RTT
//! fills the link with either ACK policy.

use rdcc_sim::Scenario;
use std::path::Path;

mod common;
use common::run;

fn uml_path(ack_every: u32, vaisf_target: Option<&str>) -> Scenario {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/uml_10g_10us.toml");
    let mut text = std::fs::read_to_string(p).unwrap();
    text = text.replace("ack_every = 1\n", &format!("ack_every = {ack_every}\n"));
    if let Some(t) = vaisf_target {
        text = text.replace(
            "law = \"swift_vaisf\"\n",
            &format!("law = \"swift_vaisf\"\nbase_target_ns = \"{t}\"\n"),
        );
    }
    let mut sc = Scenario::parse(&text).unwrap();
    sc.duration_us = 600_000.0;
    sc.measure_from_us = 100_000.0;
    sc.transport.rtt_quantum_ns = 0; // exact RTTs: the fixed point below uses the mean
    sc
}

/// SL Eq. 1 with always-AI (§V-B) and every sample above the target: the rate settles at
/// `base_AI · t / (β (d − t))` bytes/s (the core test derives it); 50 Mb/s, 5 µs, β 0.8.
fn eq1_rate_bps(d_us: f64) -> f64 {
    let (base_ai, t, beta) = (6.25e6, 5.0, 52_429.0 / 65_536.0);
    base_ai * t / (beta * (d_us - t)) * 8.0
}

#[test]
fn quickack_paper_defaults() {
    let sc = uml_path(1, None);
    let s = run(&sc, "swift").summary;
    assert!(s.goodput_gbps > 9.4, "swift {}", s.goodput_gbps);
    let v = run(&sc, "swift_vaisf").summary;
    let want = eq1_rate_bps(v.rtt_mean_us) / 1e9;
    assert!(
        v.rtt_mean_us > 10.0 && v.rtt_mean_us < 13.0,
        "vai/sf RTT {}",
        v.rtt_mean_us
    );
    // Goodput is payload over the measurement window; the law paces payload bytes.
    assert!(
        (v.goodput_gbps / want - 1.0).abs() < 0.05,
        "vai/sf {} Gbit/s, Eq. 1 fixed point {want} at {} us",
        v.goodput_gbps,
        v.rtt_mean_us
    );
}

#[test]
fn delayed_ack_collapses_a_sub_packet_window() {
    let sc = uml_path(2, None);
    let v = run(&sc, "swift_vaisf").summary;
    // One segment per 40 ms timer: 1448 B / 40 ms = 0.29 Mbit/s.
    assert!(v.goodput_gbps < 0.001, "vai/sf {}", v.goodput_gbps);
    assert!(v.rtt_mean_us > 40_000.0, "vai/sf RTT {}", v.rtt_mean_us);
    let s = run(&sc, "swift").summary;
    assert!(s.goodput_gbps > 9.4, "swift {}", s.goodput_gbps);
}

#[test]
fn target_above_path_rtt_fills_the_link() {
    for ack_every in [1, 2] {
        let v = run(&uml_path(ack_every, Some("25us")), "swift_vaisf").summary;
        assert!(
            v.goodput_gbps > 9.4,
            "ack_every {ack_every}: {}",
            v.goodput_gbps
        );
        assert!(
            v.rtt_mean_us < 40.0,
            "ack_every {ack_every}: {}",
            v.rtt_mean_us
        );
    }
}
