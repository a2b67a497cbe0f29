//! `sim compare`: two saved runs overlaid, one table; misuse exits 2.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sim"))
        .args(args)
        .output()
        .expect("sim runs")
}

fn scenario(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(format!("{name}.toml"))
        .display()
        .to_string()
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

#[test]
fn compare_overlays_saved_runs_with_one_table() {
    let tmp = std::env::temp_dir().join(format!("rdcc-sim-compare-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let (a, b, out) = (tmp.join("a"), tmp.join("b"), tmp.join("cmp"));
    let sc = scenario("dumbbell_swift_2flow");
    for (dir, extra) in [(&a, "duration_us=4000"), (&b, "duration_us=3000")] {
        let o = sim(&[
            &sc,
            "--out",
            &s(dir),
            "--quiet",
            "--set",
            extra,
            "--set",
            "measure_from_us=1000",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let o = sim(&["compare", &s(&a), &s(&b), "--out", &s(&out)]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // One table: a row per run and algorithm, with the commit each ran at.
    let table = std::fs::read_to_string(out.join("compare.txt")).unwrap();
    assert!(text.starts_with(&table), "{text}");
    let lines: Vec<&str> = table.lines().collect();
    assert!(
        lines[0].starts_with("run ") && lines[0].contains("commit"),
        "{table}"
    );
    assert_eq!(lines.len(), 4, "{table}");
    assert!(
        lines[2].starts_with("a ") && lines[3].starts_with("b "),
        "{table}"
    );
    let csv = std::fs::read_to_string(out.join("compare.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    // The overlays, PNG and SVG; the legend names run/algorithm; the time axis spans the
    // longer run (4 ms, in µs).
    for f in ["jain", "total_throughput", "queue"] {
        for ext in ["png", "svg"] {
            assert!(out.join(format!("{f}.{ext}")).is_file(), "{f}.{ext}");
        }
    }
    let svg = std::fs::read_to_string(out.join("total_throughput.svg")).unwrap();
    if rdcc_sim::plot::fonts_available() {
        assert!(svg.contains("a/swift") && svg.contains("b/swift"), "legend");
        assert!(svg.contains("time (µs)"));
    }
    // Misuse: not a run directory; an output directory in use without --force.
    let o = sim(&["compare", &s(&tmp), "--out", &s(&tmp.join("x"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no summary.csv"));
    let o = sim(&["compare", &s(&a), "--out", &s(&out)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("not empty"));
    let _ = std::fs::remove_dir_all(&tmp);
}
