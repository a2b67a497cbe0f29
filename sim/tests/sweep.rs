//! Sweeps (`sim sweep`, `sweep-point`, `sweep-collect`): a malformed sweep exits 2 naming what
//! is wrong and writes nothing; a 3-seed × 2-algorithm sweep of a shipped scenario (shortened)
//! run locally on all cores and run as a job array's tasks give the same aggregated table byte
//! for byte; every point replays exactly from its own run record; `sweep-collect --seeds` of
//! one seed gives the table of a sweep of that seed alone, and `sweep-merge` of two sweeps over
//! disjoint seeds the table of one sweep of all their seeds. `real_slurm_array` runs the
//! array on a real single-node Slurm (`tests/slurm/cluster.sh`); it is ignored by default and
//! run by `cargo xtask test`, which installs Slurm first.

use rdcc_sim::sweep::{aggregate, slurm, SweepFile, POINTS_CSV, SWEEP_FILE};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
mod common;
use common::outputs;

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .output()
        .expect("sim runs")
}

fn ok(o: &Output, what: &str) -> String {
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{what}: {}\n{text}",
        String::from_utf8_lossy(&o.stderr)
    );
    text
}

fn tmp(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("rdcc-sim-sweep-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn scenario(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(format!("{name}.toml"))
        .display()
        .to_string()
}

/// The CI sweep: web search on the leaf-spine shortened to 20 ms (arrivals for 10 ms), 3 seeds
/// × 2 algorithms; under 1 s of CPU per point (4.0 s for the 6 in release).
fn sweep_args(out: &Path) -> Vec<String> {
    [
        "sweep",
        &scenario("websearch_leafspine_60"),
        "--seeds",
        "1-3",
        "--algos",
        "swift,dctcp",
        "--set",
        "duration_us=20000",
        "--set",
        "workload.stop_us=10000",
        "--no-plots",
        "--out",
        &out.display().to_string(),
    ]
    .map(String::from)
    .to_vec()
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn aggregate_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    aggregate::FILES
        .iter()
        .map(|f| (f.to_string(), std::fs::read(dir.join(f)).unwrap()))
        .collect()
}

#[test]
fn a_malformed_sweep_exits_two_naming_the_key_and_writes_nothing() {
    let out = tmp("bad");
    let out_s = out.display().to_string();
    let good = scenario("dumbbell_swift_2flow");
    // (extra arguments, text stderr must contain)
    let cases: &[(&[&str], &str)] = &[
        (
            &["--seeds", "1..3"],
            "--seeds \"1..3\": write an inclusive range",
        ),
        (&["--seeds", "3-1"], "3-1 is an empty range"),
        (&["--seeds", "1,x"], "\"x\" is not a seed"),
        (
            &["--grid", "topology.nosuch=1,2"],
            "--grid topology.nosuch=1: ",
        ),
        (&["--grid", "topology.nosuch=1,2"], "nosuch"),
        (
            &["--grid", "topology.bottleneck_rate_gbps=10,-1"],
            "--grid topology.bottleneck_rate_gbps=-1: ",
        ),
        (
            &["--grid", "seed=1,2"],
            "--grid seed: sweep seeds with --seeds",
        ),
        (
            &["--grid", "topology.left=1,1"],
            "value \"1\" is listed twice",
        ),
        (
            &["--grid", "topology.left=1", "--grid", "topology.left=2"],
            "--grid topology.left: the key is given twice",
        ),
        (
            &["--grid", "novalues"],
            "--grid \"novalues\": expected KEY.PATH=V1,V2",
        ),
        (&["--algos", "swift,nosuch"], "unknown algorithm \"nosuch\""),
        (&["--set", "topology.left=0"], "topology.left"),
        (&["--jobs", "0"], "--jobs"),
    ];
    for (extra, want) in cases {
        let mut args = vec!["sweep", good.as_str(), "--out", out_s.as_str()];
        args.extend_from_slice(extra);
        let o = sim(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        assert!(err.contains(want), "{extra:?}: want {want:?} in {err}");
        assert!(!out.exists(), "{extra:?} wrote {}", out.display());
    }
    // A non-empty directory is refused without --force, untouched.
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("old.txt"), "x").unwrap();
    let o = sim(&["sweep", &good, "--out", &out_s]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not empty"));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
    // sweep-point and sweep-collect on a directory without a sweep, or a point out of range.
    let o = sim(&["sweep-point", &out_s, "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains(SWEEP_FILE));
    let _ = std::fs::remove_dir_all(&out);
    let o = sim(&["sweep", &good, "--out", &out_s, "--slurm", "--seeds", "1-2"]);
    ok(&o, "sweep --slurm");
    let o = sim(&["sweep-point", &out_s, "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no point 2: the sweep has points 0 to 1"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Collecting before the points ran names the missing ones.
    let o = sim(&["sweep-collect", &out_s]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("2 of 2 points have no summary"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_dir_all(&out);
}

/// A local sweep into `dir` on 2 jobs; its printed table.
fn local_sweep(dir: &Path) -> String {
    let mut args = sweep_args(dir);
    args.extend(["--jobs".into(), "2".into()]);
    let text = ok(&sim(&refs(&args)), "local sweep");
    assert_eq!(
        std::fs::read_to_string(dir.join("aggregate.txt")).unwrap(),
        text[..text
            .find("\n6 point(s) on 2 job(s)")
            .expect("the closing line")],
        "the printed table is aggregate.txt"
    );
    text
}

/// The same sweep written for Slurm into `dir`; its file.
fn slurm_sweep(dir: &Path) -> SweepFile {
    let mut args = sweep_args(dir);
    args.push("--slurm".into());
    let text = ok(&sim(&refs(&args)), "sweep --slurm");
    assert!(text.contains("sbatch "), "{text}");
    assert!(!dir.join("aggregate.csv").exists(), "--slurm runs nothing");
    SweepFile::read(dir).unwrap()
}

/// Every point of the sweep in `dir` replays byte for byte from its run record.
fn points_replay(dir: &Path, file: &SweepFile) {
    let replay = tmp("replay");
    for p in &file.points {
        let pd = SweepFile::point_dir(dir, p);
        let rec = pd.join(rdcc_sim::record::RECORD_FILE).display().to_string();
        let _ = std::fs::remove_dir_all(&replay);
        ok(
            &sim(&[&rec, "--quiet", "--out", &replay.display().to_string()]),
            "replay",
        );
        let (a, b) = (outputs(&pd), outputs(&replay));
        assert!(a.len() >= 5, "point {}: {} files", p.id, a.len());
        assert!(a == b, "point {} differs after replay", p.id);
    }
    let _ = std::fs::remove_dir_all(&replay);
}

/// `sweep-collect DIR --seeds 3 --out X` on the 3-seed sweep in `dir` writes into X the
/// tables of a fresh sweep of seed 3 alone, byte for byte, and leaves DIR's own; a seed the
/// sweep did not run exits 2.
fn seeds_collected_alone(dir: &Path) {
    let before = aggregate_files(dir);
    let (sub, alone) = (tmp("seed3-of-3"), tmp("seed3"));
    let mut args = sweep_args(&alone);
    let i = args.iter().position(|a| a == "1-3").unwrap();
    args[i] = "3".into();
    ok(&sim(&refs(&args)), "sweep of seed 3");
    let d = dir.display().to_string();
    let s = sub.display().to_string();
    ok(
        &sim(&["sweep-collect", &d, "--seeds", "3", "--out", &s]),
        "collect --seeds 3",
    );
    assert_eq!(aggregate_files(&sub), aggregate_files(&alone));
    assert_eq!(
        aggregate_files(dir),
        before,
        "DIR's aggregate is the whole sweep's"
    );
    let o = sim(&["sweep-collect", &d, "--seeds", "4", "--out", &s]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("no seed 4"),
        "{o:?}"
    );
    let o = sim(&["sweep-collect", &d, "--seeds", "3"]);
    assert_eq!(o.status.code(), Some(2), "--seeds without --out: {o:?}");
    merged_sweeps_pool_their_seeds(dir, &alone);
    let _ = std::fs::remove_dir_all(&sub);
    let _ = std::fs::remove_dir_all(&alone);
}

/// `sweep-merge OUT A B` of a sweep of seeds 1-2 and `seed3` (a sweep of seed 3) gives the
/// tables of `dir` (the sweep of seeds 1-3), byte for byte, and with `--algos dctcp` their
/// dctcp rows; a seed in two sweeps, or an algorithm a sweep did not run, exits 2.
fn merged_sweeps_pool_their_seeds(dir: &Path, seed3: &Path) {
    let (s12, out) = (tmp("seeds12"), tmp("merged"));
    let mut args = sweep_args(&s12);
    let i = args.iter().position(|a| a == "1-3").unwrap();
    args[i] = "1-2".into();
    ok(&sim(&refs(&args)), "sweep of seeds 1-2");
    let [a, b, os] = [&s12, seed3, &out].map(|p| p.display().to_string());
    ok(&sim(&["sweep-merge", &os, &a, &b]), "merge");
    assert_eq!(aggregate_files(&out), aggregate_files(dir));
    let file = SweepFile::read(&out).unwrap();
    assert_eq!(file.sweep.seeds, [1, 2, 3]);
    assert_eq!(file.points.len(), 6);
    let _ = std::fs::remove_dir_all(&out);
    let whole = dir.display().to_string();
    let o = sim(&["sweep-merge", &os, &whole, &b]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("seed 3 is in an earlier sweep"),
        "{o:?}"
    );
    // One algorithm of each: the tables of that algorithm's rows; one neither ran: exit 2.
    ok(
        &sim(&["sweep-merge", &os, &a, &b, "--algos", "dctcp"]),
        "merge --algos dctcp",
    );
    let csv = std::fs::read_to_string(out.join("aggregate.csv")).unwrap();
    let whole_csv = std::fs::read_to_string(dir.join("aggregate.csv")).unwrap();
    let dctcp: Vec<&str> = whole_csv
        .lines()
        .enumerate()
        .filter(|(i, l)| *i == 0 || l.starts_with("dctcp,"))
        .map(|(_, l)| l)
        .collect();
    assert_eq!(csv.lines().collect::<Vec<_>>(), dctcp);
    let _ = std::fs::remove_dir_all(&out);
    let o = sim(&["sweep-merge", &os, &a, &b, "--algos", "hpcc"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("did not run hpcc"),
        "{o:?}"
    );
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_dir_all(&s12);
}

#[test]
fn local_and_array_tasks_give_the_same_table_and_points_replay() {
    let local = tmp("local");
    let text = local_sweep(&local);
    for want in [
        "algorithm",
        "swift",
        "dctcp",
        "goodput_Gbps",
        " ± ",
        "FCT slowdown",
    ] {
        assert!(text.contains(want), "{want}: {text}");
    }
    let file = SweepFile::read(&local).unwrap();
    assert_eq!(file.points.len(), 6);
    let csv = std::fs::read_to_string(local.join(POINTS_CSV)).unwrap();
    assert_eq!(csv.lines().next(), Some("point,algorithm,seed"));
    assert_eq!(csv.lines().nth(6), Some("5,dctcp,3"));
    // Every group has its 3 seeds; the seeds differ (web search is random), so the goodput's
    // interval is not empty.
    let agg = std::fs::read_to_string(local.join("aggregate.csv")).unwrap();
    let goodput: Vec<&str> = agg
        .lines()
        .filter(|l| l.contains(",goodput_gbps,"))
        .collect();
    assert_eq!(goodput.len(), 2, "{agg}");
    for l in &goodput {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(&f[2..4], ["3", "3"], "{l}");
        assert!(f[5].parse::<f64>().unwrap() > 0.0, "stddev of {l}");
    }
    points_replay(&local, &file);
    seeds_collected_alone(&local);

    // The array's tasks, each by its SLURM_ARRAY_TASK_ID through the script's own body.
    let arr = tmp("tasks");
    let file_a = slurm_sweep(&arr);
    let sbatch = arr.join(slurm::SBATCH_FILE);
    let body = std::fs::read_to_string(&sbatch).unwrap();
    assert!(body.contains("#SBATCH --array=0-5\n"), "{body}");
    for i in 0..file_a.points.len() {
        let o = Command::new("sh")
            .arg(&sbatch)
            .env("SLURM_ARRAY_TASK_ID", i.to_string())
            .output()
            .unwrap();
        ok(&o, &format!("task {i}"));
    }
    let collected = ok(
        &sim(&["sweep-collect", &arr.display().to_string()]),
        "collect",
    );
    assert!(text.starts_with(&collected), "{collected}\n---\n{text}");
    assert_eq!(aggregate_files(&arr), aggregate_files(&local));
    let _ = std::fs::remove_dir_all(&local);
    let _ = std::fs::remove_dir_all(&arr);
}

#[test]
#[ignore = "needs a Slurm installation and root: cargo xtask test installs and runs it"]
fn real_slurm_array() {
    let local = tmp("slurm-local");
    local_sweep(&local);
    let arr = tmp("slurm-array");
    let file = slurm_sweep(&arr);
    let state = tmp("slurm-state");
    let cluster = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/slurm/cluster.sh");
    let o = Command::new("sh")
        .arg(&cluster)
        .arg(&state)
        .args(["timeout", "300", "sbatch", "--wait", "--parsable"])
        .arg(arr.join(slurm::SBATCH_FILE))
        .output()
        .unwrap();
    let logs = std::fs::read_dir(state.join("log"))
        .map(|rd| {
            rd.flatten()
                .map(|e| {
                    format!(
                        "== {}\n{}",
                        e.path().display(),
                        std::fs::read_to_string(e.path()).unwrap_or_default()
                    )
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    assert_eq!(
        o.status.code(),
        Some(0),
        "sbatch --wait: {}{}\n{logs}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    // Every task ran its point under Slurm and said so in its own log.
    for (i, p) in file.points.iter().enumerate() {
        let log = std::fs::read_to_string(arr.join(slurm::LOG_DIR).join(format!("{i}.out")))
            .unwrap_or_else(|e| panic!("task {i}'s log: {e}\n{logs}"));
        assert!(
            log.contains(&format!("point {} (", p.id)),
            "task {i}: {log}"
        );
        let rec = std::fs::read_to_string(
            SweepFile::point_dir(&arr, p).join(rdcc_sim::record::RECORD_FILE),
        )
        .unwrap();
        assert!(rec.contains("\"sweep-point\""), "{rec}");
    }
    ok(
        &sim(&["sweep-collect", &arr.display().to_string()]),
        "collect",
    );
    assert_eq!(aggregate_files(&arr), aggregate_files(&local));
    points_replay(&arr, &file);
    for d in [&local, &arr, &state] {
        let _ = std::fs::remove_dir_all(d);
    }
}
