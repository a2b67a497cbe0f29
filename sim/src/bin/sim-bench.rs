//! `cargo run --release -p rdcc-sim --bin sim-bench`: simulator speed on two set-ups, as
//! simulated packets per second of wall time, events per second, and simulated time over wall
//! time.
//!
//! 1. A 100-flow dumbbell: 100 Swift flows from 100 hosts over one 100 Gbit/s bottleneck.
//! 2. A 128-host leaf-spine (8 leaves x 16 hosts at 25 Gbit/s, 4 spines at 100 Gbit/s) under
//!    the web-search workload at 60% load with Swift.

use rdcc_sim::Scenario;
use std::time::Instant;

const DUMBBELL: &str = include_str!("../../scenarios/bench_dumbbell_100.toml");

const LEAF_SPINE: &str = include_str!("../../scenarios/bench_leafspine_128.toml");

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
