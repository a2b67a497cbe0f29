//! The `sim` and `sim-bench` command lines: help exits 0, misuse exits 2 with the reason, and
//! nothing runs (no output directory appears) when any input is invalid.

use std::path::PathBuf;
use std::process::{Command, Output};

fn run(bin: &str, args: &[&str]) -> Output {
    Command::new(bin).args(args).output().expect("binary runs")
}

fn scenario(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(format!("{name}.toml"))
        .display()
        .to_string()
}

#[test]
fn help_exits_zero() {
    let cases: &[(&str, &[&str])] = &[
        (
            env!("CARGO_BIN_EXE_sim"),
            &[
                "<SCENARIO.toml>",
                "--out",
                "--algos",
                "--set",
                "--no-plots",
                "--quiet",
                "--force",
                "--allow-big",
            ],
        ),
        (
            env!("CARGO_BIN_EXE_sim-bench"),
            &["bench_dumbbell_100", "bench_fattree_10k"],
        ),
    ];
    for (bin, has) in cases {
        for flag in ["--help", "-h"] {
            let o = run(bin, &[flag]);
            let text = String::from_utf8_lossy(&o.stdout);
            assert_eq!(o.status.code(), Some(0), "{bin} {flag}");
            for h in *has {
                assert!(text.contains(h), "{bin} {flag} lacks {h}:\n{text}");
            }
        }
    }
}

#[test]
fn misuse_exits_two_and_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("rdcc-sim-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "name = \"x\"\nnot toml [").unwrap();
    let out = dir.join("out");
    let out_s = out.display().to_string();
    let good = scenario("dumbbell_swift_2flow");
    let fattree = scenario("bench_fattree_10k");
    let bad_s = bad.display().to_string();
    let sim = env!("CARGO_BIN_EXE_sim");
    // (arguments, text stderr must contain)
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec![], "<SCENARIO.toml>"),
        (
            vec!["/no/such/file.toml"],
            "no such file: /no/such/file.toml",
        ),
        (vec![&good, "--nosuch"], "unexpected argument '--nosuch'"),
        (vec![&good, "--rate", "5"], "unexpected argument '--rate'"),
        (
            vec![&good, "extra.toml"],
            "unexpected argument 'extra.toml'",
        ),
        (vec![&good, "--set", "novalue"], "is not KEY.PATH=VALUE"),
        (vec![&good, "--set", "a..b=1"], "is not KEY.PATH=VALUE"),
        (vec![&good, "--out"], "a value is required"),
        (vec![&bad_s], "bad.toml"),
        (
            vec![&good, "--algos", "nosuch"],
            "unknown algorithm \"nosuch\"; valid: ",
        ),
        (
            // 81,920 switches and 16.8M ports: refused from its counts, before any building.
            vec![
                &fattree,
                "--set",
                "topology.k=256",
                "--set",
                "topology.hosts_per_edge=1",
            ],
            "switches, 16842752 ports, ",
        ),
        (
            vec![
                &fattree,
                "--set",
                "topology.k=256",
                "--set",
                "topology.hosts_per_edge=1",
            ],
            "s limit; pass --allow-big to run it anyway",
        ),
        (
            // --force empties the output directory; it does not override the size refusal.
            vec![
                &fattree,
                "--set",
                "topology.k=256",
                "--set",
                "topology.hosts_per_edge=1",
                "--force",
            ],
            "s limit; pass --allow-big to run it anyway",
        ),
        (
            vec![&good, "--set", "cc.swift.base_target_ns=25xs"],
            "--set cc.swift.base_target_ns=25xs: not a number in this parameter's unit; \
             expected time: 25us, 1.5ms, or integer ns",
        ),
        // The example: ports are u16, one switch takes at most 65535.
        (
            vec![&good, "--set", "topology.left=999999"],
            "topology.left = 999999: must be within [1, 65534]",
        ),
        (vec![&good, "--algos", " , "], "--algos: no algorithm given"),
        (
            vec![&good, "--algos", "swift,dctcp swift"],
            "--algos: algorithm \"swift\" is listed twice",
        ),
        (
            vec![&good, "--set", "topology.host_rate_gbps=0"],
            "host_rate_gbps",
        ),
    ];
    // Errors of the command line itself (clap's, with its usage text); every other one is a
    // content error: the message alone.
    let clap_errors = [
        "<SCENARIO.toml>",
        "no such file: /no/such/file.toml",
        "unexpected argument '--nosuch'",
        "unexpected argument '--rate'",
        "unexpected argument 'extra.toml'",
        "is not KEY.PATH=VALUE",
        "a value is required",
    ];
    for (mut args, want) in cases {
        args.extend(["--out", &out_s, "--quiet"]);
        if want == "<SCENARIO.toml>" {
            args = vec![];
        }
        let o = run(sim, &args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(want),
            "{args:?}: stderr lacks {want:?}:\n{err}"
        );
        assert_eq!(
            err.contains("try '--help'"),
            clap_errors.contains(&want),
            "{args:?}: usage text:\n{err}"
        );
        assert!(!out.exists(), "{args:?} wrote {}", out.display());
    }
    let bench = env!("CARGO_BIN_EXE_sim-bench");
    for (args, want) in [
        (&["nosuch"][..], "invalid value 'nosuch'"),
        (&["--fast"][..], "unexpected argument '--fast'"),
    ] {
        let o = run(bench, args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn algos_take_spaces_and_commas() {
    let sim = env!("CARGO_BIN_EXE_sim");
    let good = scenario("dumbbell_swift_2flow");
    let dir = std::env::temp_dir().join(format!("rdcc-sim-algos-{}", std::process::id()));
    for (i, list) in ["swift dctcp", "swift,dctcp", " swift , dctcp "]
        .iter()
        .enumerate()
    {
        let out = dir.join(i.to_string());
        let out_s = out.display().to_string();
        let o = run(
            sim,
            &[
                &good,
                "--algos",
                list,
                "--set",
                "duration_us=1000",
                "--set",
                "measure_from_us=0",
                "--no-plots",
                "--quiet",
                "--out",
                &out_s,
            ],
        );
        assert_eq!(
            o.status.code(),
            Some(0),
            "{list:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
        assert!(
            summary.contains("algorithms swift dctcp;"),
            "{list:?}: {summary}"
        );
        assert!(
            out.join("swift").is_dir() && out.join("dctcp").is_dir(),
            "{list:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_run_no_flow_of_which_crosses_the_bottleneck_is_warned() {
    // Host 2 moves to the left switch: both flows stay on it and never cross L->R.
    let sim = env!("CARGO_BIN_EXE_sim");
    let good = scenario("dumbbell_swift_2flow");
    let out = std::env::temp_dir().join(format!("rdcc-sim-warn-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let out_s = out.display().to_string();
    let want = "no flow crosses the bottleneck L->R";
    for (left, warned) in [("3", true), ("2", false)] {
        let set = format!("topology.left={left}");
        let o = run(
            sim,
            &[
                &good,
                "--set",
                &set,
                "--set",
                "duration_us=1000",
                "--set",
                "measure_from_us=0",
                "--no-plots",
                "--quiet",
                "--force",
                "--out",
                &out_s,
            ],
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(0), "{err}");
        let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
        let rec = std::fs::read_to_string(out.join("run.toml")).unwrap();
        let info = rdcc_sim::record::parse_run_info(&rec).unwrap();
        assert_eq!(err.contains(want), warned, "left={left}: {err}");
        assert_eq!(
            summary.contains(&format!("warning: {want}")),
            warned,
            "{summary}"
        );
        assert_eq!(
            info.warnings.iter().any(|w| w.contains(want)),
            warned,
            "{rec}"
        );
        if warned {
            assert!(
                err.contains("flow 0 goes host 0 -> host 2 without it"),
                "{err}"
            );
        }
    }
    let _ = std::fs::remove_dir_all(&out);
}
