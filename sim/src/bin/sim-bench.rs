//! `cargo run --release -p rdcc-sim --bin sim-bench [NAME...]`: simulator speed, as simulated
//! packets per second of wall time, events per second, and simulated time over wall time, on
//! (all by default, or the named ones):
//!
//! 1. `bench_dumbbell_100`: 100 Swift flows from 100 hosts over one 100 Gbit/s bottleneck.
//! 2. `bench_leafspine_128`: a 128-host leaf-spine (8 leaves x 16 hosts at 25 Gbit/s, 4 spines
//!    at 100 Gbit/s) under the web-search workload at 60% load with Swift.
//! 3. `bench_fattree_10k`: 10,000 hosts in a k = 20 fat-tree, web search at 60% load, Swift.
//!
//! It also prints the time to build each set-up (topology, routes, workload) and, last, the
//! process's peak resident memory (`VmHWM`; the largest set-up runs last, so this is its peak).

use clap::builder::PossibleValuesParser;
use clap::Parser;
use rdcc_sim::Scenario;
use std::process::ExitCode;
use std::time::Instant;

const SETUPS: &[(&str, &str)] = &[
    (
        "bench_dumbbell_100",
        include_str!("../../scenarios/bench_dumbbell_100.toml"),
    ),
    (
        "bench_leafspine_128",
        include_str!("../../scenarios/bench_leafspine_128.toml"),
    ),
    (
        "bench_fattree_10k",
        include_str!("../../scenarios/bench_fattree_10k.toml"),
    ),
];

#[derive(Parser, Debug)]
#[command(
    name = "sim-bench",
    version,
    about = "Simulator speed: simulated packets and events per second of wall time, simulated over \
        wall time, set-up time and peak RSS",
    after_help = "Run it in release: cargo run --release -p rdcc-sim --bin sim-bench [SETUP...]"
)]
struct Cli {
    /// Set-ups to run (default: all, in this order).
    #[arg(value_name = "SETUP", value_parser = PossibleValuesParser::new(SETUPS.iter().map(|(n, _)| *n)))]
    setups: Vec<String>,
}

/// Peak resident set size of this process, KiB (Linux `VmHWM`).
fn peak_rss_kib() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = s.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() -> ExitCode {
    let want = Cli::parse().setups;
    println!(
        "{:<22} {:>7} {:>8} {:>9} {:>12} {:>12} {:>8} {:>8} {:>10}",
        "set-up",
        "hosts",
        "build s",
        "sim ms",
        "data pkts",
        "events",
        "Mpkt/s",
        "Mev/s",
        "sim/wall"
    );
    for (name, text) in SETUPS {
        if !want.is_empty() && !want.iter().any(|w| w == name) {
            continue;
        }
        let sc = Scenario::parse(text).expect("built-in scenario");
        let t0 = Instant::now();
        let sim = sc.build("swift").expect("builds");
        let build = t0.elapsed().as_secs_f64();
        let t = Instant::now();
        let out = sim.run();
        let wall = t.elapsed().as_secs_f64();
        let c = &out.counters;
        let sim_s = out.end_ns as f64 / 1e9;
        println!(
            "{:<22} {:>7} {:>8.2} {:>9.1} {:>12} {:>12} {:>8.2} {:>8.2} {:>10.5}",
            sc.name,
            sc.topology.hosts(),
            build,
            sim_s * 1e3,
            c.data_sent,
            c.events,
            c.data_sent as f64 / wall / 1e6,
            c.events as f64 / wall / 1e6,
            sim_s / wall
        );
    }
    if let Some(kib) = peak_rss_kib() {
        println!("peak RSS {:.1} MB", kib as f64 / 1024.0);
    }
    ExitCode::SUCCESS
}
