//! `cargo run --release -p rdcc-sim --bin sim-bench`: simulator speed on two set-ups, as
//! simulated packets per second of wall time, events per second, and simulated time over wall
//! time.
//!
//! 1. A 100-flow dumbbell: 100 Swift flows from 100 hosts over one 100 Gbit/s bottleneck.
//! 2. A 128-host leaf-spine (8 leaves x 16 hosts at 25 Gbit/s, 4 spines at 100 Gbit/s) under
//!    the web-search workload at 60% load with Swift.

use rdcc_sim::Scenario;
use std::time::Instant;

const DUMBBELL: &str = r#"
name = "bench_dumbbell_100"
duration_us = 20000
sample_us = 100
algorithms = ["swift"]
[topology]
kind = "dumbbell"
left = 100
right = 1
host_rate_gbps = 100
bottleneck_rate_gbps = 100
link_delay_us = 1
buffer_kb = 4000
[cc.swift]
law = "swift"
base_target_ns = 15000
[[flows]]
src = 0
dst = 100
count = 100
[report]
trace_flows = 0
"#;

const LEAF_SPINE: &str = r#"
name = "bench_leafspine_128"
duration_us = 20000
sample_us = 100
algorithms = ["swift"]
[topology]
kind = "leaf_spine"
leaves = 8
spines = 4
hosts_per_leaf = 16
host_rate_gbps = 25
fabric_rate_gbps = 100
link_delay_us = 1
buffer_kb = 1000
[transport]
mss_bytes = 1000
header_bytes = 48
[workload]
cdf = "websearch"
load = 0.6
stop_us = 20000
[report]
trace_flows = 0
"#;

fn main() {
    println!(
        "{:<22} {:>9} {:>12} {:>12} {:>10} {:>10} {:>12}",
        "set-up", "sim ms", "data pkts", "events", "Mpkt/s", "Mev/s", "sim/wall"
    );
    for text in [DUMBBELL, LEAF_SPINE] {
        let sc = Scenario::parse(text).expect("built-in scenario");
        let sim = sc.build("swift").expect("builds");
        let t = Instant::now();
        let out = sim.run();
        let wall = t.elapsed().as_secs_f64();
        let c = &out.counters;
        let sim_s = out.end_ns as f64 / 1e9;
        println!(
            "{:<22} {:>9.1} {:>12} {:>12} {:>10.2} {:>10.2} {:>12.5}",
            sc.name,
            sim_s * 1e3,
            c.data_sent,
            c.events,
            c.data_sent as f64 / wall / 1e6,
            c.events as f64 / wall / 1e6,
            sim_s / wall
        );
    }
}
