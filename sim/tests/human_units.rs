//! One vocabulary with the kernel modules (issue #33): scenario values in the modules' human
//! units (`core/src/units.rs`), in the file and in `--set`; errors naming the line, the section
//! and the key; a shipped scenario rewritten in human units runs byte for byte as the original,
//! and its run record replays it.

use rdcc_sim::record::RECORD_FILE;
use rdcc_sim::scenario::human::normalize;
use rdcc_sim::Scenario;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use toml::Value;
mod common;
use common::outputs;

/// The value at dotted `path` (array elements by index) of a TOML table.
fn at<'a>(t: &'a toml::Table, path: &str) -> Option<&'a Value> {
    let mut parts = path.split('.');
    let mut v = t.get(parts.next()?)?;
    for p in parts {
        v = match v {
            Value::Table(t) => t.get(p)?,
            Value::Array(a) => a.get(p.parse::<usize>().ok()?)?,
            _ => return None,
        };
    }
    Some(v)
}

fn int(n: i64) -> Value {
    Value::Integer(n)
}

fn float(f: f64) -> Value {
    Value::Float(f)
}

#[test]
fn human_forms_become_numbers_in_the_keys_units() {
    let swift = "[cc.s]\nlaw = \"swift\"\n";
    let vaisf = "[cc.v]\nlaw = \"swift_vaisf\"\n";
    let timely = "[cc.t]\nlaw = \"timely\"\n";
    let xpass = "[cc.x]\nlaw = \"expresspass\"\n";
    // (section head, key = value line, dotted path, value after normalizing)
    let cases: Vec<(&str, &str, &str, Value)> = vec![
        // Law parameters: what the module parameter of the same name takes.
        (
            swift,
            "base_target_ns = \"25us\"",
            "cc.s.base_target_ns",
            int(25_000),
        ),
        (
            swift,
            "base_target_ns = \"1.5ms\"",
            "cc.s.base_target_ns",
            int(1_500_000),
        ),
        (
            swift,
            "base_target_ns = \"25000\"",
            "cc.s.base_target_ns",
            int(25_000),
        ),
        (
            swift,
            "base_target_ns = 25000",
            "cc.s.base_target_ns",
            int(25_000),
        ),
        (swift, "beta_q16 = 0.8", "cc.s.beta_q16", int(52_429)),
        (swift, "beta_q16 = \"0.8\"", "cc.s.beta_q16", int(52_429)),
        (swift, "beta_q16 = 52429", "cc.s.beta_q16", int(52_429)),
        (
            swift,
            "init_cwnd_pkts_q20 = \"52pkt\"",
            "cc.s.init_cwnd_pkts_q20",
            int(54_525_952),
        ),
        (
            swift,
            "init_cwnd_pkts_q20 = \"52pkts\"",
            "cc.s.init_cwnd_pkts_q20",
            int(54_525_952),
        ),
        // A float is packets even when whole (52.0 is not the raw Q20 integer 52).
        (
            swift,
            "init_cwnd_pkts_q20 = 52.0",
            "cc.s.init_cwnd_pkts_q20",
            int(54_525_952),
        ),
        (
            swift,
            "init_cwnd_pkts_q20 = 54525952",
            "cc.s.init_cwnd_pkts_q20",
            int(54_525_952),
        ),
        (
            swift,
            "ai_pkts_q20 = \"0.001\"",
            "cc.s.ai_pkts_q20",
            int(1_049),
        ),
        (swift, "default_hops = \"3\"", "cc.s.default_hops", int(3)),
        (
            vaisf,
            "base_ai_bps = \"500kbit\"",
            "cc.v.base_ai_bps",
            int(62_500),
        ),
        (
            vaisf,
            "base_ai_bps = \"62.5KB/s\"",
            "cc.v.base_ai_bps",
            int(62_500),
        ),
        (
            timely,
            "init_rate_mbps = \"10Gbit\"",
            "cc.t.init_rate_mbps",
            int(10_000),
        ),
        (xpass, "rto_ns = \"1ms\"", "cc.x.rto_ns", int(1_000_000)),
        (
            xpass,
            "credit_bytes = \"84B\"",
            "cc.x.credit_bytes",
            int(84),
        ),
        (xpass, "alpha_q16 = 0.5", "cc.x.alpha_q16", int(32_768)),
        // The simulator's float keys: a string in the unit's family, or a number as before.
        (
            "[topology]\n",
            "link_delay_us = \"500ns\"",
            "topology.link_delay_us",
            float(0.5),
        ),
        (
            "[topology]\n",
            "link_delay_us = \"2ms\"",
            "topology.link_delay_us",
            float(2000.0),
        ),
        (
            "[topology]\n",
            "link_delay_us = \"2.5\"",
            "topology.link_delay_us",
            float(2.5),
        ),
        (
            "[topology]\n",
            "link_delay_us = 2",
            "topology.link_delay_us",
            int(2),
        ),
        (
            "[topology]\n",
            "link_delay_us = 2.5",
            "topology.link_delay_us",
            float(2.5),
        ),
        (
            "[topology]\n",
            "buffer_kb = \"64KiB\"",
            "topology.buffer_kb",
            float(65.536),
        ),
        (
            "[topology]\n",
            "buffer_kb = \"1.5MB\"",
            "topology.buffer_kb",
            float(1500.0),
        ),
        (
            "[topology]\n",
            "host_rate_gbps = \"50Mbit\"",
            "topology.host_rate_gbps",
            float(0.05),
        ),
        (
            "[topology]\n",
            "host_rate_gbps = \"100Gbit/s\"",
            "topology.host_rate_gbps",
            float(100.0),
        ),
        (
            "[[links]]\nhost = 1\n",
            "rate_gbps = \"2.5Gbit\"",
            "links.0.rate_gbps",
            float(2.5),
        ),
        (
            "[[hosts]]\nids = [1]\n",
            "rx_delay_us = \"1ms\"",
            "hosts.0.rx_delay_us",
            float(1000.0),
        ),
        (
            "[fabric]\n",
            "switch_buffer_kb = \"3MB\"",
            "fabric.switch_buffer_kb",
            float(3000.0),
        ),
        (
            "[fabric]\n",
            "buffer = \"shared\"",
            "fabric.buffer",
            Value::String("shared".into()),
        ),
        (
            "[workload]\n",
            "stop_us = \"10ms\"",
            "workload.stop_us",
            float(10_000.0),
        ),
        // Integer keys with the modules' units.
        (
            "[transport]\n",
            "rtt_quantum_ns = \"1us\"",
            "transport.rtt_quantum_ns",
            int(1_000),
        ),
        (
            "[transport]\n",
            "mss_bytes = \"1.5KB\"",
            "transport.mss_bytes",
            int(1_500),
        ),
        (
            "[transport]\n",
            "delack_us = \"40ms\"",
            "transport.delack_us",
            float(40_000.0),
        ),
        (
            "[report]\n",
            "fct_bins_bytes = [\"10KB\", 100000, \"1MB\"]",
            "report.fct_bins_bytes",
            Value::Array(vec![int(10_000), int(100_000), int(1_000_000)]),
        ),
        (
            "",
            "duration_us = \"17s\"",
            "duration_us",
            float(17_000_000.0),
        ),
        // Inline tables and array elements.
        (
            "",
            "topology = { kind = \"incast\", link_delay_us = \"1us\" }",
            "topology.link_delay_us",
            float(1.0),
        ),
        (
            "",
            "flows = [{ src = 0, start_us = \"1ms\" }]",
            "flows.0.start_us",
            float(1_000.0),
        ),
        // A run record's scenario.
        (
            "[run]\nseed = 1\n[scenario]\n",
            "duration_us = \"3ms\"",
            "scenario.duration_us",
            float(3_000.0),
        ),
    ];
    for (head, line, path, want) in cases {
        let text = format!("{head}{line}\n");
        let out = normalize(&text).unwrap_or_else(|e| panic!("{line}: {e}"));
        let t: toml::Table = toml::from_str(&out).unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(at(&t, path), Some(&want), "{line}:\n{out}");
        // Only the value changed: as many lines, and normalizing again changes nothing.
        assert_eq!(out.lines().count(), text.lines().count(), "{out}");
        assert_eq!(normalize(&out).unwrap(), out, "{line}");
    }
}

#[test]
fn bad_values_are_refused_at_their_line_with_section_and_key() {
    let swift = "name = \"x\"\n[cc.s]\nlaw = \"swift\"\n";
    // (text, the whole error)
    let cases: &[(String, &str)] = &[
        (
            format!("{swift}base_target_ns = \"25xs\"\n"),
            "line 4: [cc.s] base_target_ns = \"25xs\": not a number in this parameter's unit; \
             expected time: 25us, 1.5ms, or integer ns",
        ),
        (
            // A float is a number without a unit: nanoseconds need one.
            format!("{swift}base_target_ns = 1.5\n"),
            "line 4: [cc.s] base_target_ns = 1.5: not a number in this parameter's unit; \
             expected time: 25us, 1.5ms, or integer ns",
        ),
        (
            format!("{swift}beta_q16 = -1\n"),
            "line 4: [cc.s] beta_q16 = -1: expected a non-negative integer or a fraction: 0.8, \
             or Q16 integer (65536 = 1.0)",
        ),
        (
            format!("{swift}beta_q16 = true\n"),
            "line 4: [cc.s] beta_q16 = true: expected a non-negative integer or a fraction: \
             0.8, or Q16 integer (65536 = 1.0)",
        ),
        (
            format!("{swift}beta_q16 = \"0.1234567891\"\n"),
            "line 4: [cc.s] beta_q16 = \"0.1234567891\": too many decimal places; expected \
             fraction: 0.8, or Q16 integer (65536 = 1.0)",
        ),
        (
            format!("{swift}init_cwnd_pkts_q20 = \"99999999999999pkt\"\n"),
            "line 4: [cc.s] init_cwnd_pkts_q20 = \"99999999999999pkt\": too large; expected \
             packets: 0.001, or integer packets << 20",
        ),
        (
            format!("{swift}default_hops = \"3hops\"\n"),
            "line 4: [cc.s] default_hops = \"3hops\": not a number in this parameter's unit; \
             expected integer",
        ),
        (
            format!("{swift}\nnosuch_ns = \"5us\"\n"),
            "line 5: [cc.s] nosuch_ns = \"5us\": unknown parameter \"nosuch_ns\" for Swift",
        ),
        (
            "[cc.x]\nlaw = \"expresspass\"\nnosuch = 1\n".to_string(),
            "line 3: [cc.x] nosuch = 1: expresspass: unknown key \"nosuch\"; known: ",
        ),
        (
            "name = \"x\"\n\n[topology]\nkind = \"incast\"\nlink_delay_us = \"5 parsecs\"\n"
                .to_string(),
            "line 5: [topology] link_delay_us = \"5 parsecs\": not a number in this \
             parameter's unit; expected time: 25us, 1.5ms, 500ns, or a number of µs",
        ),
        (
            "[topology]\nbuffer_kb = \"64Kb\"\n".to_string(),
            "line 2: [topology] buffer_kb = \"64Kb\": not a number in this parameter's unit; \
             expected size: 64KiB, 1.5MB, 9000B, or a number of KB (1000 B)",
        ),
        (
            "[topology]\nhost_rate_gbps = \"fast\"\n".to_string(),
            "line 2: [topology] host_rate_gbps = \"fast\": not a number in this parameter's \
             unit; expected rate: 10Gbit, 400Mbit, or a number of Gbit/s",
        ),
        (
            "[[flows]]\nsrc = 0\n[[flows]]\nsrc = 1\nstart_us = \"1xs\"\n".to_string(),
            "line 5: [flows[1]] start_us = \"1xs\": not a number in this parameter's unit; \
             expected time: 25us, 1.5ms, 500ns, or a number of µs",
        ),
        (
            "duration_us = \"1 fortnight\"\n".to_string(),
            "line 1: top level duration_us = \"1 fortnight\": not a number in this \
             parameter's unit; expected time: 25us, 1.5ms, 500ns, or a number of µs",
        ),
        (
            "[report]\nfct_bins_bytes = [1000, \"10 KB\", \"1 parsec\"]\n".to_string(),
            "line 2: [report] fct_bins_bytes = \"1 parsec\": not a number in this parameter's \
             unit; expected size: 64KiB, 1.5KB, or integer bytes",
        ),
        (
            "[run]\nseed = 1\n\n[scenario]\nsample_us = \"10 \"\nduration_us = \"x\"\n".to_string(),
            "line 6: [scenario] duration_us = \"x\": not a number in this parameter's unit; \
             expected time: 25us, 1.5ms, 500ns, or a number of µs",
        ),
    ];
    for (text, want) in cases {
        let e = normalize(text).expect_err(text).to_string();
        assert!(e.starts_with(want), "{text}\n got: {e}\nwant: {want}");
        // Through the scenario parser the same message, and the file's name before it.
        let dir = std::env::temp_dir().join(format!("rdcc-sim-units-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("bad.toml");
        std::fs::write(&p, text).unwrap();
        let e = Scenario::load_fields(&p, &[]).expect_err(text).to_string();
        assert!(
            e.starts_with(&format!("{}: {want}", p.display())),
            "{e}\nwant: {want}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios")
}

#[test]
fn set_takes_the_same_forms() {
    let p = scenarios_dir().join("vm_8flow_50mbit.toml");
    // (--set, dotted path in the scenario written out in full, value)
    let cases: &[(&str, &str, Value)] = &[
        (
            "cc.swift.base_target_ns=25us",
            "cc.swift.base_target_ns",
            int(25_000),
        ),
        (
            "cc.swift.base_target_ns=25000",
            "cc.swift.base_target_ns",
            int(25_000),
        ),
        ("cc.swift.beta_q16=0.8", "cc.swift.beta_q16", int(52_429)),
        (
            "cc.swift.init_cwnd_pkts_q20=52pkt",
            "cc.swift.init_cwnd_pkts_q20",
            int(54_525_952),
        ),
        // A bare integer, even quoted, is the name's unit: Q20 packets.
        (
            "cc.swift.init_cwnd_pkts_q20=\"2097152\"",
            "cc.swift.init_cwnd_pkts_q20",
            int(2_097_152),
        ),
        (
            "cc.swift_vaisf.base_ai_bps=500kbit",
            "cc.swift_vaisf.base_ai_bps",
            int(62_500),
        ),
        (
            "topology.bottleneck_delay_us=2ms",
            "topology.bottleneck_delay_us",
            float(2_000.0),
        ),
        (
            "topology.bottleneck_rate_gbps=50Mbit",
            "topology.bottleneck_rate_gbps",
            float(0.05),
        ),
        (
            "topology.buffer_kb=1.5MB",
            "topology.buffer_kb",
            float(1_500.0),
        ),
        (
            "transport.rtt_noise_ns=1ms",
            "transport.rtt_noise_ns",
            int(1_000_000),
        ),
        ("duration_us=20s", "duration_us", float(20_000_000.0)),
        (
            "report.fct_bins_bytes=[\"10KB\", 100000]",
            "report.fct_bins_bytes",
            Value::Array(vec![int(10_000), int(100_000)]),
        ),
    ];
    for (set, path, want) in cases {
        let sc =
            Scenario::load_with(&p, &[set.to_string()]).unwrap_or_else(|e| panic!("{set}: {e}"));
        let t: toml::Table = toml::from_str(&sc.to_toml().unwrap()).unwrap();
        assert_eq!(at(&t, path), Some(want), "--set {set}");
    }
    let e = Scenario::load_with(&p, &["cc.swift.beta_q16=0.8x".to_string()])
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with(
            "--set cc.swift.beta_q16=0.8x: not a number in this parameter's unit; expected \
             fraction: 0.8, or Q16 integer (65536 = 1.0)"
        ),
        "{e}"
    );
}

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .output()
        .expect("sim runs")
}

/// `text` with each `from` (which must occur once, as a whole line) replaced by `to`.
fn rewrite(text: &str, edits: &[(&str, &str)]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for (from, to) in edits {
        let hits: Vec<usize> = (0..lines.len()).filter(|&i| lines[i] == *from).collect();
        assert!(!hits.is_empty(), "{from:?} not in the scenario");
        for i in hits {
            lines[i] = to.to_string();
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn a_shipped_scenario_in_human_units_runs_byte_for_byte_as_the_original() {
    let orig = std::fs::read_to_string(scenarios_dir().join("vm_8flow_50mbit.toml")).unwrap();
    // Shorter than the shipped 17 s, in both files.
    let short = rewrite(
        &orig,
        &[
            ("duration_us = 17000000", "duration_us = 400000"),
            ("measure_from_us = 5000000", "measure_from_us = 100000"),
        ],
    );
    let human = rewrite(
        &short,
        &[
            ("duration_us = 400000", "duration_us = \"400ms\""),
            ("measure_from_us = 100000", "measure_from_us = \"100ms\""),
            ("sample_us = 10000", "sample_us = \"10ms\""),
            ("host_rate_gbps = 1", "host_rate_gbps = \"1Gbit\""),
            (
                "bottleneck_rate_gbps = 0.05",
                "bottleneck_rate_gbps = \"50Mbit\"",
            ),
            ("link_delay_us = 5", "link_delay_us = \"5us\""),
            (
                "bottleneck_delay_us = 2000",
                "bottleneck_delay_us = \"2ms\"",
            ),
            ("buffer_kb = 1500", "buffer_kb = \"1.5MB\""),
            ("mss_bytes = 1448", "mss_bytes = \"1448B\""),
            ("delack_us = 40000", "delack_us = \"40ms\""),
            ("rtt_quantum_ns = 1000", "rtt_quantum_ns = \"1us\""),
            ("min_rto_us = 200000", "min_rto_us = \"200ms\""),
            ("base_target_ns = 6000000", "base_target_ns = \"6ms\""),
            ("fs_range_ns = 3000000", "fs_range_ns = \"3ms\""),
            (
                "fs_max_cwnd_pkts_q20 = 104857600",
                "fs_max_cwnd_pkts_q20 = \"100pkt\"",
            ),
            ("base_ai_bps = 62500", "base_ai_bps = \"500kbit\""),
            (
                "token_thresh_extra_ns = 4000000",
                "token_thresh_extra_ns = \"4ms\"",
            ),
            ("ai_div_ns = 30000", "ai_div_ns = \"30us\""),
            ("init_cwnd_pkts_q20 = 52428800", "init_cwnd_pkts_q20 = 50.0"),
        ],
    );
    let a = Scenario::parse(&short).unwrap();
    let b = Scenario::parse(&human).unwrap();
    assert_eq!(a.to_toml().unwrap(), b.to_toml().unwrap());

    let dir = std::env::temp_dir().join(format!("rdcc-sim-human-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut runs = Vec::new();
    for (name, text) in [("orig", &short), ("human", &human)] {
        let file = dir.join(format!("{name}.toml"));
        std::fs::write(&file, text).unwrap();
        let out = dir.join(format!("out-{name}"));
        let o = sim(&[
            &file.display().to_string(),
            "--no-plots",
            "--quiet",
            "--out",
            &out.display().to_string(),
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        runs.push(out);
    }
    let (o, h) = (outputs(&runs[0]), outputs(&runs[1]));
    assert!(o.len() > 5, "{} files", o.len());
    assert_eq!(o, h, "outputs differ");

    // The human run's record holds numbers, and replays the run.
    let rec = std::fs::read_to_string(runs[1].join(RECORD_FILE)).unwrap();
    assert!(rec.contains("base_target_ns = 6000000"), "{rec}");
    assert!(!rec.contains("\"6ms\""), "{rec}");
    let replay = dir.join("out-replay");
    let o = sim(&[
        &runs[1].join(RECORD_FILE).display().to_string(),
        "--quiet",
        "--out",
        &replay.display().to_string(),
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(outputs(&replay), h, "replay differs");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn microsecond_keys_become_whole_nanoseconds_rounded() {
    let p = scenarios_dir().join("dumbbell_swift_2flow.toml");
    // (--set, the SimConfig field it sets, ns)
    type Field = fn(&rdcc_sim::SimConfig) -> u64;
    let cases: &[(&str, Field, u64)] = &[
        ("sample_us=1001ns", |c| c.sample_ns, 1_001),
        ("sample_us=1.001", |c| c.sample_ns, 1_001),
        ("transport.delack_us=40.007us", |c| c.delack_ns, 40_007),
        ("transport.min_rto_us=0.3ms", |c| c.min_rto_ns, 300_000),
        ("measure_from_us=1.1ms", |c| c.measure_from_ns, 1_100_000),
        ("duration_us=20.000001s", |c| c.duration_ns, 20_000_001_000),
    ];
    for (set, field, want) in cases {
        let sc =
            Scenario::load_with(&p, &[set.to_string()]).unwrap_or_else(|e| panic!("{set}: {e}"));
        assert_eq!(field(&sc.sim_config()), *want, "--set {set}");
    }
}

/// A valid small dumbbell scenario, one key per line (line numbers in the comments).
const SMALL: &str = "name = \"x\"
duration_us = 1000
algorithms = [\"s\"]
[topology]
kind = \"dumbbell\"
left = 1
right = 1
host_rate_gbps = 10
bottleneck_rate_gbps = 10
link_delay_us = 1
buffer_kb = 100
[cc.s]
law = \"swift\"
beta_q16 = 0.5
[[flows]]
src = 0
dst = 1
[[flows]]
src = 0
dst = 1
count = 1
";

#[test]
fn range_errors_found_after_parsing_point_at_the_key_line() {
    let dir = std::env::temp_dir().join(format!("rdcc-sim-lines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("s.toml");
    let shown = file.display().to_string();
    // (line replaced, its replacement, --set, the error's end after the file name)
    let cases: &[(&str, &str, &[&str], &str)] = &[
        (
            "left = 1",
            "left = 999999",
            &[],
            ": line 6: topology.left = 999999: must be within [1, 65534]",
        ),
        (
            "beta_q16 = 0.5",
            "beta_q16 = 0",
            &[],
            ": line 14: algorithms: cc.s: Swift: beta_q16=0 out of range [1, 65536]",
        ),
        (
            "count = 1",
            "count = 0",
            &[],
            ": line 21: flows[1].count = 0: must be within [1, 10000000]",
        ),
        (
            "duration_us = 1000",
            "duration_us = \"2ms\"",
            &["measure_from_us=3ms"],
            ": measure_from_us = 3000: must be within [0, 2000]",
        ),
        // A key --set gave its value has no line in the file.
        (
            "left = 1",
            "left = 1",
            &["topology.left=0"],
            ": topology.left = 0: must be within [1, 65534]",
        ),
    ];
    for (from, to, sets, want) in cases {
        assert!(SMALL.contains(from), "{from}");
        std::fs::write(&file, SMALL.replace(from, to)).unwrap();
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        let e = Scenario::load_fields(&file, &sets).expect_err(to);
        assert!(e.is_invalid(), "{to} {sets:?}: {e:?}");
        assert_eq!(e.to_string(), format!("{shown}{want}"), "{to} {sets:?}");
    }
    // Found when the network is built (after the size estimate): through the binary.
    std::fs::write(
        &file,
        format!("{SMALL}[[links]]\nbetween = [\"L\", \"nosuch\"]\nrate_gbps = 1\n"),
    )
    .unwrap();
    let o = sim(&[&shown, "--out", &dir.join("out").display().to_string()]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(
        err.trim(),
        format!("sim: error: {shown}: line 22: links: no node named \"nosuch\""),
    );
    let _ = std::fs::remove_dir_all(&dir);
}
