//! Turning raw output into results: cargo's test summaries, the VM console (selftest TAP, KUnit
//! KTAP, kernel log problems), and the experiment's RESULT lines into a table.

use crate::ktap::{self, Summary};
use crate::util::{repo_root, Error, Result};
use crate::vm::{self, RunResult};
use rdcc_sim::text_table::{render, Cell, Col};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// Parse cargo's `test result: ok. 10 passed; 0 failed; 2 ignored; ...` lines.
pub fn parse_cargo(text: &str) -> (usize, usize, usize) {
    let (mut p, mut f, mut i) = (0, 0, 0);
    for line in text.lines() {
        let Some(rest) = line.trim().strip_prefix("test result: ") else {
            continue;
        };
        for part in rest.split(';') {
            let words: Vec<&str> = part.split_whitespace().collect();
            let n = words
                .iter()
                .find_map(|w| w.parse::<usize>().ok())
                .unwrap_or(0);
            if part.contains(" passed") {
                p += n;
            } else if part.contains(" failed") {
                f += n;
            } else if part.contains(" ignored") {
                i += n;
            }
        }
    }
    (p, f, i)
}

/// Run `cargo test ARGS` (`--workspace --no-fail-fast` for the host tests: one failing test
/// binary must not hide the others' results; a failure in core/tests stopped the count at 106
/// of ~300 host tests once), echoing its output, and count its results.
pub fn cargo_test(args: &[&str]) -> Result<Summary> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let (before, after) = match args.iter().position(|a| *a == "--") {
        Some(i) => (&args[..i], &args[i..]),
        None => (args, &[][..]),
    };
    let mut child = Command::new(cargo)
        .arg("test")
        .args(before)
        .args(["--color", "never"])
        .args(after)
        .current_dir(repo_root())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| Error {
            msg: format!("cannot run cargo test: {e}"),
            detail: vec![],
        })?;
    let mut text = String::new();
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines().map_while(|l| l.ok()) {
            println!("{line}");
            text.push_str(&line);
            text.push('\n');
        }
    }
    let st = child.wait()?;
    let (p, f, i) = parse_cargo(&text);
    let mut s = Summary::default();
    for n in 0..p {
        s.record(&format!("cargo test #{n}"), true);
    }
    for n in 0..f {
        s.record(&format!("cargo test failure #{n}"), false);
    }
    for n in 0..i {
        s.results.push(ktap::TestResult {
            name: format!("cargo test ignored #{n}"),
            outcome: ktap::Outcome::Skip,
        });
        s.skipped += 1;
    }
    if !st.success() && f == 0 {
        s.record(
            &format!("cargo test exited with {st} (build failure?)"),
            false,
        );
    }
    if p == 0 {
        s.record("cargo test ran no test", false);
    }
    Ok(s)
}

/// `cargo doc --workspace --no-deps` with rustdoc warnings as errors (broken intra-doc links,
/// source tags read as links, `<name>` read as HTML): one result. Its output is shown only when
/// it fails.
pub fn cargo_doc() -> Result<Summary> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["doc", "--workspace", "--no-deps", "--color", "never"])
        .env("RUSTDOCFLAGS", "-D warnings")
        .current_dir(repo_root())
        .output()
        .map_err(|e| Error {
            msg: format!("cannot run cargo doc: {e}"),
            detail: vec![],
        })?;
    if !out.status.success() {
        eprint!("{}", String::from_utf8_lossy(&out.stderr));
    }
    let mut s = Summary::default();
    s.record(
        "cargo doc --workspace --no-deps: no rustdoc warnings",
        out.status.success(),
    );
    Ok(s)
}

/// Selftests the guest is expected to run: executable `selftests/*.sh` not named lib*/_*.
pub fn expected_selftests() -> Vec<String> {
    use std::os::unix::fs::PermissionsExt;
    let mut v = Vec::new();
    if let Ok(rd) = std::fs::read_dir(repo_root().join("selftests")) {
        for e in rd.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(stem) = name.strip_suffix(".sh") else {
                continue;
            };
            if stem.starts_with("lib") || stem.starts_with('_') {
                continue;
            }
            let exec = e
                .metadata()
                .map(|m| m.permissions().mode() & 0o111 != 0)
                .unwrap_or(false);
            if exec {
                v.push(stem.to_string());
            }
        }
    }
    v.sort();
    v
}

/// Everything the test VM reported, as one summary. `expected`: the selftests the job ran
/// (every one of them must have reported).
pub fn vm_results(
    r: &RunResult,
    our_modules: &[PathBuf],
    kunit: bool,
    expected: &[String],
) -> Summary {
    let mut s = Summary::default();
    let finished = r.status.is_some() && !r.timed_out;
    s.record(
        &if r.timed_out {
            "VM finished (timed out)".to_string()
        } else if r.status.is_none() {
            "VM finished (no exit status: crash or panic)".to_string()
        } else {
            "VM finished".to_string()
        },
        finished,
    );
    if !finished {
        eprintln!("--- last console lines ---");
        for l in crate::util::tail_lines(&r.console, 40) {
            eprintln!("  | {l}");
        }
    }

    // Selftests.
    let secs = vm::sections(&r.console, "RDCC-SELFTEST-BEGIN", "RDCC-SELFTEST-END");
    for want in expected {
        if !secs.iter().any(|(n, _, _)| n == want) {
            s.record(&format!("selftest {want}: did not run"), false);
        }
    }
    for (name, body, end) in &secs {
        let t = ktap::parse(body);
        let (tf, tp) = (t.failed, t.passed + t.skipped);
        s.extend(&format!("selftest/{name}/"), t);
        match end {
            None => s.record(&format!("selftest {name}: cut off"), false),
            Some(e) => {
                let rc_ok = end_status(e) == Some(0);
                if !rc_ok && tf == 0 {
                    s.record(
                        &format!("selftest {name}: exit status {e} without a failing result"),
                        false,
                    );
                }
            }
        }
        if tp + tf == 0 {
            s.record(&format!("selftest {name}: no results"), false);
        }
    }

    // Module loading.
    for l in r
        .console
        .lines()
        .filter(|l| l.contains("RDCC-INSMOD-FAILED"))
    {
        s.record(&format!("insmod: {}", l.trim()), false);
    }

    // KUnit from the kernel log.
    let dmesg = vm::sections(&r.console, "RDCC-DMESG-BEGIN", "RDCC-DMESG-END")
        .into_iter()
        .map(|(_, b, _)| b)
        .next();
    match dmesg {
        None => s.record("kernel log collected", false),
        Some(d) => {
            let k = ktap::parse(&d);
            if kunit && k.passed + k.failed + k.skipped == 0 {
                s.record("KUnit produced results", false);
            }
            // The test module rdcc_kunit.ko registers a suite rdcc_<name> for every product
            // module tcp_<name>.ko: each must have reported (kernels with KUnit only).
            for m in our_modules.iter().filter(|_| kunit) {
                let Some(name) = m
                    .file_stem()
                    .and_then(|n| n.to_str())
                    .and_then(|n| n.strip_prefix("tcp_"))
                else {
                    continue;
                };
                let suite = format!("rdcc_{name}/");
                let ran = k.results.iter().any(|r| r.name.starts_with(&suite));
                s.record(&format!("KUnit suite rdcc_{name} reported"), ran);
            }
            // ... and the suite rdcc_glue: the C glue's per-ACK event (rdcc_event.h).
            if kunit && !our_modules.is_empty() {
                let ran = k.results.iter().any(|r| r.name.starts_with("rdcc_glue/"));
                s.record("KUnit suite rdcc_glue reported", ran);
            }
            s.extend("kunit/", k);
            let probs = ktap::kernel_problems(&d);
            for p in &probs {
                eprintln!("kernel log: {p}");
            }
            s.record(
                &format!(
                    "kernel log has no WARNING/BUG/Oops ({} problem lines)",
                    probs.len()
                ),
                probs.is_empty(),
            );
        }
    }
    s
}

/// The exit status in the rest of an end marker line (`<name> rc=<n>`).
pub fn end_status(rest: &str) -> Option<i32> {
    rest.split_whitespace()
        .find_map(|w| w.strip_prefix("rc="))
        .and_then(|n| n.parse().ok())
}

/// One `# RESULT key=value ...` line.
pub type Row = BTreeMap<String, String>;

/// The experiment's RESULT lines.
pub fn parse_results(console: &str) -> Vec<Row> {
    console
        .lines()
        .filter_map(|l| l.find("# RESULT ").map(|p| &l[p + "# RESULT ".len()..]))
        .map(|rest| {
            rest.split_whitespace()
                .filter_map(|kv| kv.split_once('='))
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

/// The rows as an aligned table ([`rdcc_sim::text_table`]); a figure the guest did not report
/// in any row (a column of `-`) is left out.
pub fn table(rows: &[Row]) -> String {
    // (key, header, decimals; None = text)
    let cols: &[(&str, &str, Option<usize>)] = &[
        ("algo", "algorithm", None),
        ("mode", "selection", None),
        ("tput_mbit", "Mbit/s", Some(1)),
        ("util", "% of rate", Some(1)),
        ("retrans", "retrans", Some(0)),
        ("rtt_mean_us", "RTT mean µs", Some(0)),
        ("rtt_p99_us", "RTT p99 µs", Some(0)),
        ("bound_us", "RTT bound µs", Some(0)),
        ("jain4", "Jain 4 flows", Some(3)),
        ("tput8_mbit", "8 flows Mbit/s", Some(1)),
        ("rtt8_mean_us", "8 flows RTT µs", Some(0)),
        ("jain8", "Jain 8 flows", Some(3)),
        ("delay_us", "delay µs", Some(0)),
    ];
    let num = |r: &Row, k: &str| -> Option<f64> { r.get(k).and_then(|v| v.parse().ok()) };
    let cell = |r: &Row, k: &str, d: Option<usize>| -> Cell {
        if k == "util" {
            let t = num(r, "tput_mbit").unwrap_or(0.0);
            let rate = num(r, "rate_mbit").unwrap_or(0.0);
            return if rate > 0.0 {
                Cell::Num(100.0 * t / rate)
            } else {
                Cell::None
            };
        }
        match (r.get(k), d) {
            (None, _) => Cell::None,
            (Some(v), Some(_)) => Cell::parse(v),
            (Some(v), None) => v.as_str().into(),
        }
    };
    let head: Vec<Col> = cols
        .iter()
        .map(|&(_, h, d)| match d {
            Some(d) => Col::num(h, d),
            None => Col::text(h),
        })
        .collect();
    let body: Vec<Vec<Cell>> = rows
        .iter()
        .map(|r| cols.iter().map(|&(k, _, d)| cell(r, k, d)).collect())
        .collect();
    render(&head, &body, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A boot that exited 0 with this console.
    fn booted(console: &str) -> RunResult {
        RunResult {
            status: Some(0),
            console: console.into(),
            elapsed: std::time::Duration::ZERO,
            boot_time: None,
            timed_out: false,
        }
    }

    #[test]
    fn missing_kunit_suite_of_a_module_fails() {
        let r = booted("RDCC-BOOTED\nRDCC-DMESG-BEGIN\nKTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: rdcc_swift\n    1..1\n    ok 1 rdcc_kunit_vectors\nok 1 rdcc_swift\nRDCC-DMESG-END\nRDCC-EXIT-STATUS=0\n");
        let mods = vec![
            PathBuf::from("modules/tcp_swift.ko"),
            PathBuf::from("modules/tcp_timely.ko"),
        ];
        let s = vm_results(&r, &mods, true, &expected_selftests());
        assert!(s.results.iter().any(
            |x| x.name == "KUnit suite rdcc_swift reported" && x.outcome == ktap::Outcome::Pass
        ));
        assert!(s
            .results
            .iter()
            .any(|x| x.name == "KUnit suite rdcc_timely reported"
                && x.outcome == ktap::Outcome::Fail));
        // No rdcc_glue suite in this log either.
        assert!(s.results.iter().any(
            |x| x.name == "KUnit suite rdcc_glue reported" && x.outcome == ktap::Outcome::Fail
        ));
    }

    #[test]
    fn glue_suite_is_required_only_with_kunit() {
        let r = booted("RDCC-BOOTED\nRDCC-DMESG-BEGIN\nKTAP version 1\n1..1\n    KTAP version 1\n    # Subtest: rdcc_glue\n    1..1\n    ok 1 rdcc_glue_event\nok 1 rdcc_glue\nRDCC-DMESG-END\nRDCC-EXIT-STATUS=0\n");
        let mods = vec![PathBuf::from("modules/tcp_swift.ko")];
        let glue = |s: &ktap::Summary| {
            s.results
                .iter()
                .find(|x| x.name == "KUnit suite rdcc_glue reported")
                .map(|x| x.outcome == ktap::Outcome::Pass)
        };
        // With KUnit: the suite reported, so the check passes.
        let s = vm_results(&r, &mods, true, &expected_selftests());
        assert_eq!(glue(&s), Some(true));
        // Without KUnit (distro profile): no such check at all.
        let s = vm_results(&r, &mods, false, &expected_selftests());
        assert_eq!(glue(&s), None);
    }

    #[test]
    fn end_marker_status() {
        assert_eq!(end_status("cc_basic rc=0"), Some(0));
        assert_eq!(end_status("rdcc_cc rc=143"), Some(143));
        assert_eq!(end_status("x"), None);
    }

    #[test]
    fn cargo_summary_lines() {
        let t = "running 3 tests\ntest result: ok. 3 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\
                 test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out\n";
        assert_eq!(parse_cargo(t), (5, 1, 1));
    }

    #[test]
    fn result_rows_and_table() {
        let c = "x\n# RESULT algo=cubic mode=per-socket rate_mbit=100 tput_mbit=95.0 retrans=0 rtt_mean_us=300 rtt_p99_us=900 samples=40\n";
        let rows = parse_results(c);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0]["algo"], "cubic");
        let t = table(&rows);
        // One precision per column, absent figures' columns left out and named.
        assert_eq!(
            t,
            "algorithm selection  Mbit/s % of rate retrans RTT mean µs RTT p99 µs\n\
             --------- ---------- ------ --------- ------- ----------- ----------\n\
             cubic     per-socket   95.0      95.0       0         300        900\n\
             (no value: RTT bound µs, Jain 4 flows, 8 flows Mbit/s, 8 flows RTT µs, Jain 8 flows, delay µs)\n"
        );
    }
}
