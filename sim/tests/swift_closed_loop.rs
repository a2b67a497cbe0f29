//! Closed-loop checks of Swift and Swift VAI/SF on the VM's path (`vm_8flow_50mbit.toml`:
//! 50 Mbit/s, ~4 ms base RTT, ACK every second segment, the VM profile of
//! `selftests/rdcc_cc.sh`). Feedback is delayed as on a real path: every window change reaches
//! the law only through the queue and the ACKs of packets sent under it.
//!
//! Each test failed on main before the fixes (numbers in Documentation/results/swift_vm_path.md):
//! windows between 1 and 2 packets were floored to one packet, so windows differing by a few
//! percent sent at rates differing by up to a factor 2, and a lone segment waited for the
//! receiver's 40 ms delayed-ACK timer (16 flows: Jain 0.65 Swift, 0.76 VAI/SF, RTT p99 47-49
//! ms); and VAI/SF's AI_Cap of 100 tokens, with the profile's base AI of 1 % of the link, let
//! one flow add the whole link per RTT (8 flows: feedback episodes with an RTT p99 of 12 and
//! 46 ms in 2 of 12 seeded runs).

use rdcc_sim::Scenario;
use std::path::Path;

mod common;
use common::run;

fn vm_path(flows: u32) -> Scenario {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/vm_8flow_50mbit.toml");
    let text = std::fs::read_to_string(p).unwrap();
    let text = text
        .replace("count = 8\n", &format!("count = {flows}\n"))
        .replace("conns_per_src = 8\n", &format!("conns_per_src = {flows}\n"));
    Scenario::parse(&text).unwrap()
}

/// The equilibrium delay of the profile: the 6 ms base target (no hop count on this path).
const TARGET_US: f64 = 6000.0;
/// VAI/SF's Token_Thresh in the profile: target + 4 ms.
const TOKEN_THRESH_US: f64 = 10_000.0;

/// 8 flows (windows of 3-5 packets), 12 runs of 60 s with 1 ms of RTT measurement noise
/// (seeds 1-12; the VM's emulation jitters by milliseconds). VAI/SF: in every run the mean RTT
/// within 1.5 ms of the target and the p99 below Token_Thresh. With main's AI_Cap of 100 two of
/// the twelve runs had VAI feedback episodes (seed 8: p99 12.4 ms, seed 10: 45.5 ms; 3 of 20
/// seeds, 0 of 60 runs with AI_Cap 5). Swift, the reference on the same path (seed 1): Jain of
/// 10 ms samples >= 0.93, mean RTT within target + fs_range (3 ms).
#[test]
fn eight_flows_hold_delay_and_share() {
    let mut sc = vm_path(8);
    let swift = run(&sc, "swift");
    let s = &swift.summary;
    assert!(s.jain_mean >= 0.93, "swift Jain {}", s.jain_mean);
    assert!(
        s.rtt_mean_us <= TARGET_US + 3000.0,
        "swift {}",
        s.rtt_mean_us
    );
    assert!(s.utilization > 0.98, "swift {}", s.utilization);
    sc.duration_us = 60e6;
    sc.transport.rtt_noise_ns = 1_000_000;
    let mut report = Vec::new();
    let mut ok = true;
    for seed in 1..=12 {
        sc.seed = seed;
        let v = run(&sc, "swift_vaisf").summary;
        report.push(format!(
            "seed {seed}: mean {:.0} p99 {:.0} us, Jain {:.3}",
            v.rtt_mean_us, v.rtt_p99_us, v.jain_mean
        ));
        ok &= v.rtt_mean_us <= TARGET_US + 1500.0
            && v.rtt_p99_us < TOKEN_THRESH_US
            && v.jain_mean >= 0.9
            && v.utilization > 0.98;
    }
    assert!(ok, "vai/sf:\n{}", report.join("\n"));
}

/// 16 flows: windows of 1-2 packets, where flooring halves some flows' rates. Both laws keep
/// Jain >= 0.85 and the RTT p99 within 2.5 x the target (main: Jain 0.65 / 0.76, p99 47-49 ms:
/// one-packet windows waited for the 40 ms delayed-ACK timer).
#[test]
fn sixteen_flows_with_one_to_two_packet_windows_share() {
    let sc = vm_path(16);
    for alg in ["swift", "swift_vaisf"] {
        let r = run(&sc, alg);
        let s = &r.summary;
        assert!(s.jain_mean >= 0.85, "{alg}: Jain {}", s.jain_mean);
        assert!(
            s.rtt_p99_us <= 2.5 * TARGET_US,
            "{alg}: RTT p99 {} us",
            s.rtt_p99_us
        );
        assert!(s.utilization > 0.98, "{alg}: {}", s.utilization);
    }
}
