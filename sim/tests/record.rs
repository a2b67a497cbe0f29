//! The run record (`run.toml`) and reproducibility: every built-in scenario survives being
//! written out in full and read back; a run's record names its overrides, seed and provenance;
//! replaying the record gives the same outputs byte for byte; a non-empty output directory is
//! refused without `--force` and emptied with it.

use rdcc_sim::record::{parse_run_info, RECORD_FILE};
use rdcc_sim::Scenario;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
mod common;
use common::outputs;

fn scenarios_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios")
}

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .output()
        .expect("sim runs")
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rdcc-sim-record-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn every_scenario_round_trips_in_full() {
    let mut n = 0;
    for e in std::fs::read_dir(scenarios_dir()).unwrap().flatten() {
        let p = e.path();
        if p.extension().map_or(true, |x| x != "toml") {
            continue;
        }
        let sc = Scenario::load(&p).unwrap();
        let text = sc.to_toml().unwrap();
        let back =
            Scenario::parse(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", p.display()));
        assert_eq!(back.to_toml().unwrap(), text, "{}", p.display());
        n += 1;
    }
    assert!(n >= 20, "{n} scenarios");
}

#[test]
fn overrides_are_in_the_scenario_and_its_description() {
    let p = scenarios_dir().join("dumbbell_swift_2flow.toml");
    let sets = [
        "seed=7".to_string(),
        "topology.bottleneck_rate_gbps=5".to_string(),
    ];
    let sc = Scenario::load_with(&p, &sets).unwrap();
    assert_eq!(sc.seed, 7);
    assert!(
        sc.description
            .ends_with("(changed by --set seed=7 --set topology.bottleneck_rate_gbps=5)"),
        "{}",
        sc.description
    );
    let head = rdcc_sim::scenario::summary_header(&sc, &[]);
    assert!(head.contains("ran: seed 7,"), "{head}");
    assert!(head.contains("bottleneck_rate_gbps = 5.0"), "{head}");
    // Setting the description itself is not flagged.
    let sc = Scenario::load_with(&p, &["description=\"new\"".to_string()]).unwrap();
    assert_eq!(sc.description, "new");
}

#[test]
fn a_run_records_itself_and_replays_byte_for_byte() {
    let a = tmp("a");
    let b = tmp("b");
    let (a_s, b_s) = (a.display().to_string(), b.display().to_string());
    let scen = scenarios_dir()
        .join("dumbbell_swift_2flow.toml")
        .display()
        .to_string();
    let base = [
        scen.as_str(),
        "--set",
        "seed=7",
        "--set",
        "topology.bottleneck_rate_gbps=5",
        "--set",
        "duration_us=3000",
        "--set",
        "measure_from_us=1000",
        "--no-plots",
        "--quiet",
        "--out",
    ];
    let mut args = base.to_vec();
    args.push(&a_s);
    let o = sim(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    let rec_path = a.join(RECORD_FILE);
    let rec = std::fs::read_to_string(&rec_path).unwrap();
    let run = parse_run_info(&rec).unwrap();
    assert_eq!(run.seed, 7);
    assert_eq!(run.command[1..], args[..]);
    assert!(run.rustc.starts_with("rustc "), "{}", run.rustc);
    assert!(!run.host.is_empty() && !run.started.is_empty());
    assert!(run.git_commit == "unknown" || run.git_commit.len() == 40);
    let sc = Scenario::parse(&rec).unwrap();
    assert_eq!(sc.seed, 7);
    assert!(!sc.report.plots);
    let summary = std::fs::read_to_string(a.join("summary.txt")).unwrap();
    assert!(summary.contains("bottleneck_rate_gbps = 5.0"), "{summary}");
    assert!(summary.contains("changed by --set seed=7"), "{summary}");

    // Replay from the record alone.
    let o = sim(&[&rec_path.display().to_string(), "--quiet", "--out", &b_s]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let (oa, ob) = (outputs(&a), outputs(&b));
    assert!(oa.iter().any(|(p, _)| p == Path::new("summary.txt")));
    assert!(
        oa.len() >= 5,
        "{:?}",
        oa.iter().map(|x| &x.0).collect::<Vec<_>>()
    );
    assert_eq!(
        oa.iter().map(|x| &x.0).collect::<Vec<_>>(),
        ob.iter().map(|x| &x.0).collect::<Vec<_>>()
    );
    for ((p, x), (_, y)) in oa.iter().zip(&ob) {
        assert!(x == y, "{} differs after replay", p.display());
    }
    // The replay's record holds the same scenario; only its provenance and timing differ.
    let rec_b = std::fs::read_to_string(b.join(RECORD_FILE)).unwrap();
    let scenario_of = |t: &str| {
        let mut d: toml::Table = toml::from_str(t).unwrap();
        d.remove("scenario").unwrap()
    };
    assert_eq!(scenario_of(&rec), scenario_of(&rec_b));

    // The same output directory again: refused, nothing touched.
    let before = outputs(&a);
    let o = sim(&args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("is not empty") && err.contains("--force"),
        "{err}"
    );
    assert_eq!(outputs(&a), before);
    assert_eq!(std::fs::read_to_string(&rec_path).unwrap(), rec);

    // With --force: emptied first, so nothing of the older run remains.
    std::fs::write(a.join("stale.csv"), "old").unwrap();
    std::fs::create_dir_all(a.join("dctcp")).unwrap();
    args.push("--force");
    let o = sim(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!a.join("stale.csv").exists() && !a.join("dctcp").exists());
    assert_eq!(outputs(&a), before);

    let _ = std::fs::remove_dir_all(&a);
    let _ = std::fs::remove_dir_all(&b);
}
