//! Tests of scenario.rs: parsing, validation per test bed, the built-in files.

use super::*;

fn avail() -> Vec<String> {
    ["cubic", "dctcp", "bbr", "vegas", "reno", "swift", "timely"]
        .iter()
        .map(|s| s.to_string())
        .collect()
}

const GOOD: &str = r#"
description = "two flows"
algos = ["cubic", "swift"]
trials = 3
duration_s = 10
warmup_s = 2
[path]
rate_mbit = 50
delay_us = 2000
queue_pkts = 500
ecn_k_pkts = 20
loss_pct = 0.5
[[flows]]
algo = "under_test"
count = 2
[[flows]]
algo = "cubic"
start_ms = 4000
size_kb = 64
"#;

/// Three timed flows: at 0, at 0.25 s and at 2 s for 1 s (DC's trial is 3 s).
const LATE_FLOWS: &str = "[[flows]]\nalgo = \"under_test\"\n[[flows]]\nalgo = \"under_test\"\nstart_ms = 250\n[[flows]]\nalgo = \"under_test\"\nstart_ms = 2000\nduration_s = 1\n";

#[test]
fn good_file_parses_with_defaults() {
    let s = parse(GOOD, "two", &avail()).unwrap();
    assert_eq!(s.name, "two");
    assert_eq!(s.flows.len(), 2);
    assert_eq!(s.test, TestSpec::default());
    let f = s.expand(10);
    assert_eq!(f.len(), 3);
    assert_eq!(f[0].secs, 10.0);
    assert_eq!(f[2].bytes, Some(65536));
    assert_eq!(f[2].start_ms, 4000);
    // A 5 s trial halves start times.
    assert_eq!(s.expand(5)[2].start_ms, 2000);
    // Timed flows without a duration end with the trial, to the ms; durations scale.
    let late = LATE_FLOWS;
    let t = DC.replace("[[flows]]\nalgo = \"under_test\"\n", late);
    let sc = parse_for(&t, "x", &avail(), Bed::Uml).unwrap();
    let secs: Vec<(u32, f64)> = sc.expand(1).iter().map(|f| (f.start_ms, f.secs)).collect();
    assert_eq!(
        secs,
        [(0, 1.0), (83, 0.917), (666, 0.333)],
        "3 s file, 1 s trial: 1 s scales to 333 ms"
    );
    // The test run is DC's own 3 s: the late flow to the end, the last one its own 1 s.
    let env = sc.guest_env(true);
    assert!(
        env.contains("under_test:250:t:2.75 under_test:2000:t:1'"),
        "{env}"
    );
    let env = s.guest_env(false);
    assert!(
        env.contains("SCN_FLOWS='under_test:0:t:10 under_test:0:t:10 cubic:4000:b:65536'"),
        "{env}"
    );
    assert!(env.contains("SCN_ECN_K_PKTS=20\n"));
    assert!(env.contains("SCN_REF=''\n"));
    let t = s.guest_env(true);
    assert!(
        t.contains("SCN_PASSES='cubic swift'") && t.contains("SCN_REF='cubic'"),
        "{t}"
    );
    assert!(
        t.contains("SCN_DURATION_S=4\n") && t.contains("SCN_TRIALS=1\n"),
        "{t}"
    );
    // The reference pass: one flow by default, none outside tests, or the scenario's flows.
    assert!(t.contains("SCN_REF_FLOWS='REF:0:t:4'\n"), "{t}");
    assert!(env.contains("SCN_REF_FLOWS=''\n"), "{env}");
    let text = format!("{GOOD}[test]\nreference_flows = \"scenario\"\n");
    let s = parse(&text, "two", &avail()).unwrap();
    assert_eq!(s.test.reference_flows, RefFlows::Scenario);
    let t = s.guest_env(true);
    assert!(
        t.contains("SCN_REF_FLOWS='under_test:0:t:4 under_test:0:t:4 cubic:1600:b:65536'\n"),
        "{t}"
    );
    assert!(s.guest_env(false).contains("SCN_REF_FLOWS=''\n"));
}

/// Each mutation of the good file, and the words its refusal must contain.
#[test]
fn malformed_files_are_refused() {
    let cases: &[(&str, &str, &str)] = &[
        ("rate_mbit = 50", "rate_mbit = 0", "rate_mbit = 0"),
        ("rate_mbit = 50", "rate_mbit = 5000", "rate_mbit = 5000"),
        ("rate_mbit = 50", "rate_mbit = -1", "invalid value"),
        ("rate_mbit = 50", "rate_mbit = \"fast\"", "invalid type"),
        ("rate_mbit = 50\n", "", "missing field `rate_mbit`"),
        ("delay_us = 2000", "delay_us = 2000000", "delay_us"),
        ("queue_pkts = 500", "queue_pkts = 1", "queue_pkts = 1"),
        ("ecn_k_pkts = 20", "ecn_k_pkts = 500", "ecn_k_pkts = 500"),
        ("rate_mbit = 50\ndelay_us = 2000\nqueue_pkts = 500", "rate_mbit = 1\ndelay_us = 2000\nqueue_pkts = 5000", "drains in 60.6 s"),
        ("loss_pct = 0.5", "loss_pct = 60.0", "loss_pct = 60"),
        ("loss_pct = 0.5", "loss_pct = nan", "loss_pct = NaN"),
        ("loss_pct = 0.5", "loss_pct = 0.5\ngso_max_segs = 0", "gso_max_segs = 0: 1..=65535"),
        ("trials = 3", "trials = 0", "trials = 0"),
        ("duration_s = 10", "duration_s = 0", "duration_s = 0"),
        ("warmup_s = 2", "warmup_s = 10", "warmup_s = 10"),
        ("algos = [\"cubic\", \"swift\"]", "algos = [\"nosuch\"]", "unknown algorithm \"nosuch\"; available: cubic"),
        ("algo = \"cubic\"", "algo = \"cubik\"", "flows[1].algo"),
        ("count = 2", "count = 0", "flows[0].count"),
        ("count = 2", "count = 70", "71 flows: at most 64"),
        ("start_ms = 4000", "start_ms = 10000", "flows[1].start_ms = 10000"),
        ("size_kb = 64", "size_kb = 64\nduration_s = 2", "size_kb or duration_s, not both"),
        ("size_kb = 64", "size_kb = 0", "size_kb: at least 1"),
        ("size_kb = 64", "duration_s = 7", "flows[1].duration_s = 7"),
        ("description = \"two flows\"", "descriptio = \"x\"", "unknown field `descriptio`"),
        ("[path]", "[pth]", "unknown field `pth`"),
        ("description = \"two flows\"", "name = \"../etc\"", "name \"../etc\""),
        ("size_kb = 64\n", "size_kb = 64\n[test]\nalgos = []", "test.algos: at least one"),
        ("size_kb = 64\n", "size_kb = 64\n[test]\nduration_s = 11", "test.duration_s = 11"),
        ("size_kb = 64\n", "size_kb = 64\n[test]\nreference = \"x\"", "test.reference"),
        ("size_kb = 64\n", "size_kb = 64\n[test]\nreference_flows = \"all\"", "unknown variant `all`"),
        ("size_kb = 64\n", "size_kb = 64\n[test]\nreference_flows = \"scenario\"\nmin_share_pct = 50", "needs test.reference_flows = \"single\""),
        ("size_kb = 64\n", "size_kb = 64\n[test]\nmax_stall_ms = 60001", "test.max_stall_ms = 60001: 0..=60000"),
        ("size_kb = 64\n", "size_kb = 64\n[test]\nduration_s = 10\nmax_stall_ms = 3001", "must fit twice in the judged window of 6000 ms (from 4000 ms"),
        ("size_kb = 64\n", "size_kb = 64\n[test]\nduration_s = 5\nmax_stall_ms = 1501", "judged window of 3000 ms (from 2000 ms to the end of the 5 s"),
        ("size_kb = 64\n", "size_kb = 64\n[[flows]]\nalgo = \"under_test\"\nduration_s = 5\n[test]\nmax_stall_ms = 1000\n", "flows[2] starts later or stops early"),
        ("size_kb = 64\n", "size_kb = 64\n[test]\nmin_total_pct = 0", "nothing would judge"),
        ("algo = \"under_test\"\ncount = 2\n[[flows]]\nalgo = \"cubic\"\nstart_ms = 4000\nsize_kb = 64\n", "algo = \"cubic\"\ncount = 2\n[[flows]]\nalgo = \"under_test\"\nstart_ms = 4000\nsize_kb = 64\n[test]\nmax_stall_ms = 1000\n", "the scenario has none"),
        ("[[flows]]\nalgo = \"under_test\"\ncount = 2\n[[flows]]\nalgo = \"cubic\"\nstart_ms = 4000\nsize_kb = 64\n", "", "at least one [[flows]] group or a [workload]"),
        ("rate_mbit = 50", "rate_mbit = 50 oops", "expected"),
    ];
    for (from, to, want) in cases {
        assert!(GOOD.contains(from), "case {from:?} does not apply");
        let text = GOOD.replacen(from, to, 1);
        match parse(&text, "x", &avail()) {
            Ok(_) => panic!("accepted with {from:?} -> {to:?}"),
            Err(e) => assert!(e.contains(want), "{from:?} -> {to:?}: {e:?} lacks {want:?}"),
        }
    }
}

#[test]
fn built_in_scenarios_are_valid() {
    let avail = available_algos();
    for n in BUILT_IN {
        let s = load(n, &avail, Bed::Qemu).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(&s.name, n);
        assert!(!s.description.is_empty(), "{n}: description");
        assert!(!s.expand(s.test.duration_s).is_empty());
    }
    for n in DEFAULT_SET {
        assert!(BUILT_IN.contains(n));
    }
    assert!(load("nosuch", &avail, Bed::Qemu)
        .unwrap_err()
        .contains("built-in scenarios: baseline"));
}

/// A datacenter-regime file: valid on the UML bed.
const DC: &str = r#"
description = "dc"
algos = ["cubic", "swift"]
trials = 1
duration_s = 3
params = "defaults"
[params_set]
swift = "base_target_ns=25000 per_hop_ns=1000"
[path]
rate_mbit = 10000
delay_us = 20
queue_pkts = 1000
ecn_k_pkts = 65
[[flows]]
algo = "under_test"
[test]
duration_s = 3
"#;

#[test]
fn dc_file_runs_on_uml_only() {
    let s = parse_for(DC, "dc", &avail(), Bed::Uml).unwrap();
    assert_eq!(s.params, Params::Defaults);
    let env = s.guest_env(false);
    assert!(env.contains("SCN_PARAMS=defaults\n"), "{env}");
    assert!(
        env.contains("SCN_SET_swift='base_target_ns=25000 per_hop_ns=1000'\n"),
        "{env}"
    );
    let e = parse_for(DC, "dc", &avail(), Bed::Qemu).unwrap_err();
    assert!(
        e.contains("rate_mbit = 10000: 1..=1000 on the QEMU test bed"),
        "{e}"
    );
    // Without `params`, the TCG profile's.
    let s = parse(GOOD, "two", &avail()).unwrap();
    assert!(s.guest_env(false).contains("SCN_PARAMS=profile\n"));
}

/// What the UML bed cannot honour, and malformed parameters: each mutation of `DC` with the
/// words its refusal must contain.
#[test]
fn dc_refusals() {
    let cases: &[(&str, &str, &str)] = &[
        // Faster than HTB was measured to hold there.
        (
            "rate_mbit = 10000",
            "rate_mbit = 100000",
            "rate_mbit = 100000: 1..=25000 on the UML test bed (at 100 Gbit/s its HTB shaper \
             passed 93.8 %",
        ),
        (
            "rate_mbit = 10000",
            "rate_mbit = 25001",
            "1..=25000 on the UML",
        ),
        (
            "rate_mbit = 10000",
            "rate_mbit = 40000",
            "1..=25000 on the UML",
        ),
        // Below the delay measured exact there (0 = no netem is fine: see below).
        (
            "delay_us = 20",
            "delay_us = 5",
            "path.delay_us = 5: 0 or at least 10 on the UML test bed",
        ),
        ("delay_us = 20", "delay_us = 1", "path.delay_us = 1"),
        // K packets' time rounds to whole microseconds: 1 packet at 10 Gbit/s is 1.211 us -> 2.
        (
            "ecn_k_pkts = 65",
            "ecn_k_pkts = 1",
            "K packets take 1.211 us",
        ),
        ("ecn_k_pkts = 65", "ecn_k_pkts = 5", "more than 10% off"),
        // Parameters: only our modules, only name=digits words.
        (
            "swift = \"base_target_ns=25000 per_hop_ns=1000\"",
            "cubic = \"x=1\"",
            "params_set.cubic: not one of our modules",
        ),
        (
            "swift = \"base_target_ns=25000 per_hop_ns=1000\"",
            "swift = \"base_target_ns=25us\"",
            "words name=digits",
        ),
        (
            "swift = \"base_target_ns=25000 per_hop_ns=1000\"",
            "swift = \"x=1; reboot\"",
            "words name=digits",
        ),
        (
            "swift = \"base_target_ns=25000 per_hop_ns=1000\"",
            "swift = \"\"",
            "words name=digits",
        ),
        (
            "swift = \"base_target_ns=25000 per_hop_ns=1000\"",
            "swift = \"=1\"",
            "words name=digits",
        ),
        (
            "params = \"defaults\"",
            "params = \"paper\"",
            "unknown variant `paper`",
        ),
    ];
    for (from, to, want) in cases {
        assert!(DC.contains(from), "case {from:?} does not apply");
        let text = DC.replacen(from, to, 1);
        match parse_for(&text, "x", &avail(), Bed::Uml) {
            Ok(_) => panic!("accepted with {from:?} -> {to:?}"),
            Err(e) => assert!(e.contains(want), "{from:?} -> {to:?}: {e:?} lacks {want:?}"),
        }
    }
    // At the limits: accepted.
    for (from, to) in [
        ("rate_mbit = 10000", "rate_mbit = 25000"),
        ("delay_us = 20", "delay_us = 0"),
        ("delay_us = 20", "delay_us = 10"),
        ("ecn_k_pkts = 65", "ecn_k_pkts = 0"),
        ("ecn_k_pkts = 65", "ecn_k_pkts = 9"),
    ] {
        let text = DC.replacen(from, to, 1);
        parse_for(&text, "x", &avail(), Bed::Uml).unwrap_or_else(|e| panic!("{to}: {e}"));
    }
}

/// `path.hops`: (bed, value, None = accepted or Some(the refusal's words)). One switch (the
/// default) on either bed; a chain of up to `UML_MAX_HOPS` on the UML bed only.
#[test]
fn path_hops_per_bed() {
    let rows: &[(Bed, &str, Option<&str>)] = &[
        (Bed::Uml, "", None),
        (Bed::Uml, "hops = 1", None),
        (Bed::Uml, "hops = 2", None),
        (Bed::Uml, "hops = 3", None),
        (Bed::Uml, "hops = 8", None),
        (
            Bed::Uml,
            "hops = 0",
            Some("path.hops = 0: 1..=8 on the UML test bed"),
        ),
        (
            Bed::Uml,
            "hops = 9",
            Some("path.hops = 9: 1..=8 on the UML test bed (every switch"),
        ),
        (Bed::Uml, "hops = 64", Some("path.hops = 64: 1..=8")),
        (Bed::Uml, "hops = -1", Some("invalid value")),
        (Bed::Uml, "hops = \"3\"", Some("invalid type")),
        (Bed::Qemu, "", None),
        (Bed::Qemu, "hops = 1", None),
        (
            Bed::Qemu,
            "hops = 2",
            Some("path.hops = 2: 1..=1 on the QEMU test bed (a chain"),
        ),
    ];
    for &(bed, line, want) in rows {
        // A path either bed takes but for the hops: 1 Gbit/s, 20 us, K = 10 (121 us).
        let text = DC
            .replace("rate_mbit = 10000", "rate_mbit = 1000")
            .replace("ecn_k_pkts = 65", &format!("ecn_k_pkts = 10\n{line}"));
        match (parse_for(&text, "x", &avail(), bed), want) {
            (Ok(s), None) => {
                let hops = line
                    .split('=')
                    .nth(1)
                    .map_or(1, |v| v.trim().parse().unwrap());
                assert_eq!(s.path.hops, hops, "{bed:?} {line:?}");
                assert_eq!(s.path.receiver_channel(), hops > 1);
                let env = s.guest_env(false);
                assert!(env.contains(&format!("SCN_HOPS={hops}\n")), "{env}");
            }
            (Ok(_), Some(w)) => panic!("{bed:?} {line:?}: accepted, want {w:?}"),
            (Err(e), None) => panic!("{bed:?} {line:?}: {e}"),
            (Err(e), Some(w)) => assert!(e.contains(w), "{bed:?} {line:?}: {e:?} lacks {w:?}"),
        }
    }
}

#[test]
fn dc_scenarios_are_valid_on_uml() {
    let avail = available_algos();
    for n in DC_SET.iter().chain(DC_MORE) {
        let s = load(n, &avail, Bed::Uml).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(&s.name, n);
        assert_eq!(s.trials, 1, "{n}: deterministic, one trial");
        assert_eq!(s.params, Params::Defaults, "{n}: paper defaults");
        assert!(load(n, &avail, Bed::Qemu).is_err(), "{n} on QEMU");
        assert!(
            !BUILT_IN.contains(n),
            "{n}: `cargo xtask test` runs BUILT_IN on QEMU"
        );
    }
}

/// `test.bounds` (bounds.rs): each mutation of `DC`'s test section with the words its refusal
/// must contain; the QEMU bed refuses bounds outright; a bounded file without a reference pass
/// gives the guest no reference.
#[test]
fn bounds_refusals() {
    const T: &str = "[test]\nduration_s = 3\n";
    let two = "[[flows]]\nalgo = \"under_test\"\ncount = 2\n[test]\nduration_s = 3\n";
    let none = "reference_flows = \"none\"\nmin_total_pct = 0\nalgos = [\"swift\"]\n";
    let cases: &[(&str, String, &str)] = &[
        (
            T,
            format!("{T}[test.bounds]\ndctcp = {{ min_link_pct = 90 }}\n"),
            "test.bounds.dctcp: dctcp is not in test.algos",
        ),
        (
            T,
            format!("{T}[test.bounds]\nswift = {{ }}\n"),
            "test.bounds.swift: nothing to check",
        ),
        (
            T,
            format!("{T}[test.bounds]\nswift = {{ min_link_pct = 101 }}\n"),
            "min_link_pct = 101: 0..=100",
        ),
        (
            T,
            format!("{T}[test.bounds]\nswift = {{ min_jain = 1.5 }}\n"),
            "min_jain = 1.5: 0..=1",
        ),
        // One long flow: no Jain's index.
        (
            T,
            format!("{T}[test.bounds]\nswift = {{ min_jain = 0.9 }}\n"),
            "needs at least two under_test long flows (1)",
        ),
        (
            T,
            format!("{T}[test.bounds]\nswift = {{ max_rtt_p99_us = 2000000 }}\n"),
            "max_rtt_p99_us = 2000000: 0..=1000000",
        ),
        (
            T,
            format!("{T}[test.bounds]\nswift = {{ max_fct_p99_ms = 60001 }}\n"),
            "max_fct_p99_ms = 60001: 0..=60000",
        ),
        // No sized flow: no completion time.
        (
            T,
            format!("{T}[test.bounds]\nswift = {{ max_fct_p99_ms = 5 }}\n"),
            "max_fct_p99_ms: completion times need under_test flows with size_kb",
        ),
        (
            T,
            format!("{T}{none}algos = [\"swift\", \"cubic\"]\n[test.bounds]\nswift = {{ min_link_pct = 90 }}\n")
                .replacen("algos = [\"swift\"]\n", "", 1),
            "every test algorithm needs test.bounds (cubic has none)",
        ),
        (
            T,
            // min_total_pct's default (50) compares with a reference pass.
            format!("{T}reference_flows = \"none\"\nalgos = [\"swift\"]\n[test.bounds]\nswift = {{ min_link_pct = 90 }}\n"),
            "min_total_pct and min_share_pct compare with the reference pass",
        ),
        (
            T,
            format!("{T}min_total_pct = 0\n"),
            "there are no test.bounds: nothing would judge",
        ),
    ];
    let dc = DC.replacen("[test]\nduration_s = 3\n", T, 1);
    for (from, to, want) in cases {
        assert!(dc.contains(from), "case {from:?} does not apply");
        let text = dc.replacen(from, to, 1);
        match parse_for(&text, "x", &avail(), Bed::Uml) {
            Ok(_) => panic!("accepted: {to:?}"),
            Err(e) => assert!(e.contains(want), "{to:?}: {e:?} lacks {want:?}"),
        }
    }
    // Jain with two long flows, on UML: accepted; the same file on QEMU: refused.
    let ok = dc.replacen(
        &format!("[[flows]]\nalgo = \"under_test\"\n{T}"),
        &format!("{two}{none}[test.bounds]\nswift = {{ min_jain = 0.99, min_link_pct = 90 }}\n"),
        1,
    );
    assert_ne!(ok, dc, "the two-flow mutation applies");
    let s = parse_for(&ok, "x", &avail(), Bed::Uml).unwrap_or_else(|e| panic!("{e}"));
    let env = s.guest_env(true);
    assert!(
        env.contains("SCN_REF=''\n") && env.contains("SCN_REF_FLOWS=''\n"),
        "{env}"
    );
    let e = parse_for(&ok.replace("10000", "1000"), "x", &avail(), Bed::Qemu).unwrap_err();
    assert!(
        e.contains("absolute bounds need a virtual-time test bed"),
        "{e}"
    );
}

/// The per-ACK trace is sampled on fast paths only, and never when a completion time needs a
/// flow's last ACK.
#[test]
fn trace_sampling_on_fast_paths_without_sized_flows() {
    let dc = parse_for(DC, "dc", &avail(), Bed::Uml).unwrap();
    assert_eq!(dc.trace_sample_bits(), TRACE_SAMPLE_BITS);
    assert!(dc.guest_env(true).contains("SCN_TRACE_SAMPLE_BITS=3\n"));
    let sized = DC.replacen(
        "[test]",
        "[[flows]]\nalgo = \"under_test\"\nstart_ms = 1000\nsize_kb = 64\n[test]",
        1,
    );
    let s = parse_for(&sized, "dc", &avail(), Bed::Uml).unwrap();
    assert_eq!(s.trace_sample_bits(), 0);
    let slow = DC.replacen("rate_mbit = 10000", "rate_mbit = 999", 1);
    let s = parse_for(&slow, "dc", &avail(), Bed::Uml).unwrap();
    assert_eq!(s.trace_sample_bits(), 0);
    let g = parse(GOOD, "two", &avail()).unwrap();
    assert!(g.guest_env(false).contains("SCN_TRACE_SAMPLE_BITS=0\n"));
}

/// What `cargo xtask test` judges on UML: datacenter scenarios with bounds for every test
/// algorithm and no reference pass.
#[test]
fn dc_test_set_is_judged_by_bounds() {
    let avail = available_algos();
    for n in DC_TEST_SET {
        assert!(DC_SET.contains(n) || DC_MORE.contains(n), "{n}");
        let s = load(n, &avail, Bed::Uml).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(s.test.reference_flows, RefFlows::None, "{n}");
        for a in &s.test.algos {
            assert!(s.test.bounds.contains_key(a), "{n}: {a} has no bound");
        }
    }
}

/// `path.int`: refused with ECN marking and at a rate no INT record names; an INT law needs it;
/// with it the guest is told (SCN_INT) and Swift's receiver channel is off.
#[test]
fn int_path_is_validated() {
    let avail: Vec<String> = ["cubic", "swift", "powertcp", "hpcc"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    // (algos, path lines replacing "ecn_k_pkts = 65", Ok(receiver channel) or the error's words)
    type Row = (&'static str, &'static str, Result<bool, &'static str>);
    let rows: &[Row] = &[
        (r#"["powertcp", "hpcc"]"#, "int = true", Ok(false)),
        (r#"["swift"]"#, "int = true\nhops = 2", Ok(false)),
        (r#"["swift"]"#, "hops = 2", Ok(true)),
        (
            r#"["powertcp"]"#,
            "ecn_k_pkts = 0",
            Err("powertcp reads in-band telemetry: set path.int = true"),
        ),
        (
            r#"["cubic"]"#,
            "ecn_k_pkts = 0",
            Ok(false), // cubic needs no INT
        ),
        (
            r#"["hpcc"]"#,
            "int = true\necn_k_pkts = 65",
            Err("path.int with ecn_k_pkts = 65: the software INT switch is a drop-tail FIFO"),
        ),
        (r#"["hpcc"]"#, "int = \"yes\"", Err("invalid type")),
    ];
    for &(algos, lines, want) in rows {
        let text = DC
            .replace(r#"["cubic", "swift"]"#, algos)
            .replace("ecn_k_pkts = 65", lines);
        match (parse_for(&text, "x", &avail, Bed::Uml), want) {
            (Ok(s), Ok(chan)) => {
                assert_eq!(s.path.receiver_channel(), chan, "{algos} {lines:?}");
                let int = u8::from(lines.contains("int = true"));
                assert!(s.guest_env(false).contains(&format!("SCN_INT={int}\n")));
            }
            (Ok(_), Err(w)) => panic!("{algos} {lines:?}: accepted, want {w:?}"),
            (Err(e), Ok(_)) => panic!("{algos} {lines:?}: {e}"),
            (Err(e), Err(w)) => assert!(e.contains(w), "{algos} {lines:?}: {e:?} lacks {w:?}"),
        }
    }
    // A rate an INT record cannot name (1 Gbit/s; K = 10 is 121 us there, but int needs K = 0).
    let slow = DC
        .replace("rate_mbit = 10000", "rate_mbit = 1000")
        .replace("ecn_k_pkts = 65", "int = true");
    let e = parse_for(&slow, "x", &avail, Bed::Uml).unwrap_err();
    assert!(
        e.contains("path.int with rate_mbit = 1000: an INT record names only 10000, 25000"),
        "{e}"
    );
    // The test algorithms count too.
    let t = DC
        .replace("ecn_k_pkts = 65", "")
        .replace("[test]\n", "[test]\nalgos = [\"hpcc\"]\n");
    let e = parse_for(&t, "x", &avail, Bed::Uml).unwrap_err();
    assert!(e.contains("hpcc reads in-band telemetry"), "{e}");
}

/// `[workload]` (workload.rs): the drawn flows follow the groups', at their own times in a
/// shorter test trial; each mutation is refused with its words.
#[test]
fn workload_flows_are_drawn_and_validated() {
    let text =
        format!("{GOOD}[workload]\ncdf = \"websearch\"\nload_pct = 60\nflows = 5\nseed = 3\n");
    let s = parse(&text, "w", &avail()).unwrap();
    let w = s.workload.as_ref().unwrap();
    // 50 Mbit/s at 60 %: web search's mean 1.71 MB every 0.46 s.
    let drawn = w.arrivals(50);
    assert_eq!(drawn.len(), 5);
    let f = s.expand(10);
    assert_eq!(f.len(), 3 + 5, "groups, then the workload");
    for (fl, (st, b)) in f[3..].iter().zip(&drawn) {
        assert_eq!(
            (fl.algo.as_str(), fl.start_ms, fl.bytes),
            ("under_test", *st, Some(*b))
        );
    }
    // A shorter trial keeps the arrivals' times (and so the load): only those within it.
    let cut = 1000 * 2;
    let within = drawn.iter().filter(|a| a.0 < cut).count();
    assert_eq!(s.expand(2).len(), 3 + within);
    let env = s.guest_env(false);
    let spec = format!("under_test:{}:b:{}", drawn[0].0, drawn[0].1);
    assert!(env.contains(&spec), "{env}");
    // Only the workload's flows are enough; the trace keeps every ACK with sized flows.
    let only = text.replace("[[flows]]\nalgo = \"under_test\"\ncount = 2\n[[flows]]\nalgo = \"cubic\"\nstart_ms = 4000\nsize_kb = 64\n", "");
    let o = parse(&only, "w", &avail()).unwrap();
    assert_eq!(o.expand(10).len(), 5);
    assert_eq!(o.trace_sample_bits(), 0);
    let cases: &[(&str, &str, &str)] = &[
        (
            "cdf = \"websearch\"",
            "cdf = \"cache\"",
            "workload.cdf = \"cache\"",
        ),
        ("load_pct = 60", "load_pct = 95", "workload.load_pct = 95"),
        ("flows = 5", "flows = 961", "workload.flows = 961"),
        ("flows = 5", "flows = 50", "arrives at"),
        ("seed = 3", "seed = 3\nalgo = \"cubik\"", "workload.algo"),
        ("seed = 3", "seed = 3\nrate = 1", "unknown field `rate`"),
    ];
    for (from, to, want) in cases {
        let t = text.replacen(from, to, 1);
        match parse(&t, "x", &avail()) {
            Ok(_) => panic!("accepted with {from:?} -> {to:?}"),
            Err(e) => assert!(e.contains(want), "{from:?} -> {to:?}: {e:?} lacks {want:?}"),
        }
    }
    // An INT law's workload needs path.int as its flows do.
    let int_avail: Vec<String> = ["cubic", "swift", "powertcp"].map(String::from).to_vec();
    let t = text.replace("seed = 3", "seed = 3\nalgo = \"powertcp\"");
    let e = parse(&t, "x", &int_avail).unwrap_err();
    assert!(e.contains("powertcp reads in-band telemetry"), "{e}");
}
