//! The tidy output tables (`rdcc_sim::tables`): every file a run writes exists with the header
//! `Documentation/results/README.md` documents, each JSON file holds the same rows and numbers
//! as the CSV beside it, and the tables agree with each other and with the run (bytes, RTT
//! samples, drops, retransmissions, row counts).

use proptest::prelude::*;
use rdcc_sim::tables::{flow_series, flow_summaries, network_series, port_series};
use rdcc_sim::Scenario;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

mod common;
use common::run;

const SUMMARY: &str = "algorithm,goodput_gbps,bottleneck_utilization,rtt_mean_us,rtt_p50_us,rtt_p99_us,jain_index_mean,jain_index_of_window_means,jain_first_at_least_0_9_us,jain_settled_at_least_0_9_us,bottleneck_queue_mean_kb,bottleneck_queue_p99_kb,bottleneck_queue_max_kb,dropped_packets,rto_timeouts,finite_flows_done,finite_flows,pfc_pause_frames,pfc_paused_us";
const PORTS: &str =
    "algorithm,port,utilization,queue_mean_kb,queue_p99_kb,queue_max_kb,dropped_packets,pfc_paused_us";
const BINS: &str =
    "algorithm,size_bin,flows_done,flows_unfinished,slowdown_p50,slowdown_p99,slowdown_p999,fct_p50_us,fct_p99_us";
const FLOWS: &str = "flow,algo,src,dst,size_bytes,rx_bytes,start_us,finish_us,fct_us,ideal_fct_us,slowdown,rtt_samples,rtt_mean_us,rtt_p99_us,rtt_min_us,retransmits,dropped_packets";
const FLOW_SERIES: &str = "t_us,flow,algo,goodput_gbps,rx_bytes,cwnd_bytes,pacing_gbps";
const PORT_SERIES: &str = "t_us,port,queue_bytes,queue_max_bytes,tx_bytes";
const NETWORK_SERIES: &str = "t_us,total_goodput_gbps,jain_index,jain_active_flows";
const EQ1: &str = "port,spread_ns,eq1_bound_bytes,max_queue_bytes";
const CREDITS: &str = "flow,credits_sent,credits_received,credits_wasted";

/// The per-algorithm files of every run.
const PER_RUN: &[(&str, &str)] = &[
    ("flows.csv", FLOWS),
    ("flow_series.csv", FLOW_SERIES),
    ("port_series.csv", PORT_SERIES),
    ("network_series.csv", NETWORK_SERIES),
];

fn scenario_path(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(format!("{name}.toml"))
        .display()
        .to_string()
}

fn temp_out(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rdcc-sim-tables-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A CSV file's header and rows (as strings).
fn csv_rows(p: &Path) -> (String, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let header = r.headers().unwrap().iter().collect::<Vec<_>>().join(",");
    let rows = r
        .records()
        .map(|x| x.unwrap().iter().map(String::from).collect())
        .collect();
    (header, rows)
}

/// JSON rows hold the CSV's rows: same names in the same order, an empty field is `null`, a
/// number is the same number, a text the same text.
fn assert_same_rows(what: &str, header: &str, csv: &[Vec<String>], json: &Value) {
    let json = json
        .as_array()
        .unwrap_or_else(|| panic!("{what}: not an array"));
    assert_eq!(csv.len(), json.len(), "{what}: row count");
    let names: Vec<&str> = header.split(',').collect();
    for (k, (c, j)) in csv.iter().zip(json).enumerate() {
        let j = j.as_object().unwrap();
        let keys: Vec<&str> = j.keys().map(String::as_str).collect();
        let mut sorted = names.clone();
        sorted.sort_unstable();
        assert_eq!(keys, sorted, "{what} row {k}: names");
        for (name, field) in names.iter().zip(c) {
            let v = &j[*name];
            let same = match v {
                Value::Null => field.is_empty(),
                Value::Number(n) => field.parse::<f64>().ok() == n.as_f64(),
                Value::String(s) => s == field,
                _ => false,
            };
            assert!(same, "{what} row {k} {name}: csv {field:?}, json {v}");
        }
    }
}

/// One run of the binary: a built-in scenario, its `--set` overrides, the algorithms, and the
/// files beyond [`PER_RUN`] each algorithm writes.
struct Case {
    name: &'static str,
    sets: &'static [&'static str],
    algos: &'static [&'static str],
    extra: &'static [(&'static str, &'static str)],
}

#[test]
fn every_file_is_written_with_its_documented_header() {
    let doc =
        read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../Documentation/results/README.md"));
    let cases = [
        Case {
            name: "dumbbell_swift_2flow",
            sets: &["duration_us=2000", "measure_from_us=1000"],
            algos: &["swift", "dctcp"],
            extra: &[],
        },
        Case {
            name: "parking_lot",
            sets: &[
                "duration_us=1000",
                "measure_from_us=500",
                "report.jain_from_us=0",
            ],
            algos: &["swift"],
            extra: &[],
        },
        Case {
            name: "xpass_convergence",
            sets: &[
                "duration_us=1000",
                "measure_from_us=500",
                "report.jain_from_us=0",
            ],
            algos: &["expresspass"],
            extra: &[("eq1_bounds.csv", EQ1), ("credits.csv", CREDITS)],
        },
    ];
    for (k, c) in cases.iter().enumerate() {
        let Case {
            name,
            sets,
            algos,
            extra,
        } = c;
        let out = temp_out(&format!("doc{k}"));
        let mut args = vec![
            scenario_path(name),
            "--out".into(),
            out.display().to_string(),
            "--no-plots".into(),
            "--quiet".into(),
            "--algos".into(),
            algos.join(" "),
        ];
        for s in *sets {
            args.extend(["--set".to_string(), s.to_string()]);
        }
        let o = Command::new(env!("CARGO_BIN_EXE_sim"))
            .args(&args)
            .output()
            .unwrap();
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let mut files: Vec<(PathBuf, &str)> = [
            ("summary.csv", SUMMARY),
            ("ports.csv", PORTS),
            ("fct_bins.csv", BINS),
        ]
        .iter()
        .map(|&(f, h)| (out.join(f), h))
        .collect();
        for a in *algos {
            for &(f, h) in PER_RUN.iter().chain(extra.iter()) {
                files.push((out.join(a).join(f), h));
            }
        }
        for (path, want) in &files {
            let (header, rows) = csv_rows(path);
            assert_eq!(&header, want, "{}", path.display());
            assert!(
                doc.contains(&format!("`{want}`")),
                "{}: header not documented in Documentation/results/README.md",
                path.display()
            );
            assert!(!rows.is_empty(), "{}: no rows", path.display());
        }
        // Every JSON file holds its CSV's rows.
        let summary: Value = serde_json::from_str(&read(&out.join("summary.json"))).unwrap();
        for (key, file, header) in [
            ("algorithms", "summary.csv", SUMMARY),
            ("ports", "ports.csv", PORTS),
            ("fct_bins", "fct_bins.csv", BINS),
        ] {
            let (_, rows) = csv_rows(&out.join(file));
            assert_same_rows(&format!("{name} {file}"), header, &rows, &summary[key]);
        }
        assert_eq!(summary["algorithms"].as_array().unwrap().len(), algos.len());
        for a in *algos {
            let d = out.join(a);
            let flows: Value = serde_json::from_str(&read(&d.join("flows.json"))).unwrap();
            let (_, rows) = csv_rows(&d.join("flows.csv"));
            assert_same_rows(&format!("{name} {a} flows"), FLOWS, &rows, &flows);
        }
        // summary.txt names its columns plainly.
        let txt = read(&out.join("summary.txt"));
        for h in [
            "goodput_Gbps",
            "Jain_of_means",
            "Jain>=0.9_at_µs",
            "Jain>=0.9_from_µs",
        ] {
            assert!(txt.contains(h), "{name}: summary.txt lacks {h}");
        }
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// A small incast with a short buffer (drops, retransmissions), finite and long-lived flows.
fn incast(seed: u64, senders: u32, size_bytes: u64, buffer_kb: f64, alg: &str) -> Scenario {
    Scenario::parse(&format!(
        r#"
name = "tables"
seed = {seed}
duration_us = 1500
measure_from_us = 500
sample_us = 25
algorithms = ["{alg}"]
[topology]
kind = "incast"
senders = {senders}
host_rate_gbps = 10
link_delay_us = 1
buffer_kb = {buffer_kb}
ecn_k_kb = 10
[transport]
rtt_noise_ns = 1000
min_rto_us = 200
[[flows]]
src = 0
dst = {senders}
count = {senders}
size_bytes = {size_bytes}
stagger_us = 3
"#
    ))
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// The tables agree with each other and with the run: one summary row per flow, one series
    /// row per traced flow (or port) per sample, a flow's series bytes add up to its bytes at
    /// the last sample (the end of the run), and the per-flow RTT samples, drops and
    /// retransmissions add up to the run's.
    #[test]
    fn tables_agree_with_the_run(
        seed in 1u64..1000,
        senders in 1u32..6,
        size_bytes in prop::sample::select(vec![0u64, 20_000, 150_000, 2_000_000]),
        buffer_kb in prop::sample::select(vec![15.0, 200.0]),
        alg in prop::sample::select(vec!["reno", "dctcp", "swift", "expresspass"]),
    ) {
        let out = run(&incast(seed, senders, size_bytes, buffer_kb, alg), alg).out;
        let flows = flow_summaries(&out);
        prop_assert_eq!(flows.len(), out.flows.len());
        let samples = out.series.t_ns.len();
        prop_assert_eq!(out.series.t_ns.last().copied(), Some(out.end_ns));
        let traced = out.series.flow_bps.len();
        let fs = flow_series(&out);
        prop_assert_eq!(fs.len(), samples * traced);
        prop_assert_eq!(port_series(&out).len(), samples * out.monitor_names.len());
        prop_assert_eq!(network_series(&out).len(), samples);
        for (i, f) in flows.iter().enumerate().take(traced) {
            let sum: u64 = fs.iter().filter(|r| r.flow == i).map(|r| r.rx_bytes).sum();
            prop_assert_eq!(sum, f.rx_bytes, "flow {}", i);
            prop_assert!(fs.iter().filter(|r| r.flow == i).all(|r| r.algo == f.algo));
        }
        for f in &flows {
            prop_assert_eq!(f.finish_us.is_some(), f.fct_us.is_some());
            prop_assert_eq!(f.rtt_samples > 0, f.rtt_mean_us.is_some());
            if let (Some(m), Some(p99), Some(lo)) = (f.rtt_mean_us, f.rtt_p99_us, f.rtt_min_us) {
                prop_assert!(lo <= m + 1e-3 && m <= p99 + 1e-3, "min {} mean {} p99 {}", lo, m, p99);
            }
            if f.finish_us.is_some() {
                prop_assert_eq!(f.rx_bytes, f.size_bytes);
            }
        }
        let sum = |g: fn(&rdcc_sim::tables::FlowSummary) -> u64| flows.iter().map(g).sum::<u64>();
        prop_assert_eq!(sum(|f| f.rtt_samples as u64), out.rtt_ns.len() as u64);
        prop_assert_eq!(sum(|f| f.dropped_packets), out.counters.data_dropped);
        if alg != "expresspass" {
            prop_assert_eq!(sum(|f| f.retransmits), out.counters.retransmits);
        }
    }
}
