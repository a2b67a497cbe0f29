//! `sim sweep-merge OUT DIR... [--algos A,B]`: sweeps of one scenario, the same `--set` and
//! `--grid`, each with (at least) the algorithms merged, over disjoint seeds (run at different times, or at different commits whose
//! simulator gives the same points), as one sweep directory whose points are links to theirs, so
//! that `sim sweep-collect OUT` pools every seed of them.

use super::{expand, Point, SweepFile, POINTS_DIR};
use crate::error::{invalid, Error, Result};
use std::path::{Path, PathBuf};

/// What two merged sweeps must share of their base scenario: all of it but `description` and
/// the `[cc]` profiles no point runs (a scenario may gain a profile between two commits).
fn comparable(f: &SweepFile, algorithms: &[String]) -> toml::Table {
    let mut b = f.base.clone();
    b.remove("description");
    if let Some(toml::Value::Table(cc)) = b.get_mut("cc") {
        cc.retain(|k, _| algorithms.iter().any(|a| a == k));
    }
    b
}

/// The merged sweep of `sweeps` (each its directory and file, in the order given: their seeds
/// in that order) for `algorithms` (None: the first sweep's), and for each of its points the
/// directory of the point it is. An error names the first sweep that differs from the first
/// one or lacks an algorithm, or a seed in two of them.
pub fn merge(
    sweeps: &[(PathBuf, SweepFile)],
    algorithms: Option<Vec<String>>,
    command: Vec<String>,
) -> Result<(SweepFile, Vec<PathBuf>)> {
    let (_, first) = sweeps
        .first()
        .ok_or_else(|| invalid!("sweep-merge: no sweep given"))?;
    let algorithms = algorithms.unwrap_or_else(|| first.sweep.algorithms.clone());
    let mut seeds: Vec<u64> = Vec::new();
    for (dir, f) in sweeps {
        let (a, b) = (&f.sweep, &first.sweep);
        if let Some(x) = algorithms.iter().find(|x| !a.algorithms.contains(x)) {
            return Err(invalid!("{}: the sweep did not run {x}", dir.display()));
        }
        if (&a.sets, &a.grid, a.plots) != (&b.sets, &b.grid, b.plots) {
            return Err(invalid!(
                "{}: its --set, --grid or plots differ from the first sweep's",
                dir.display()
            ));
        }
        if comparable(f, &algorithms) != comparable(first, &algorithms) {
            return Err(invalid!(
                "{}: its base scenario differs from the first sweep's (beyond its description \
                 and the profiles no point runs)",
                dir.display()
            ));
        }
        if let Some(s) = a.seeds.iter().find(|s| seeds.contains(s)) {
            return Err(invalid!(
                "{}: seed {s} is in an earlier sweep",
                dir.display()
            ));
        }
        seeds.extend(&a.seeds);
    }
    let points = expand(&algorithms, &first.sweep.grid, &seeds);
    let same = |p: &Point, q: &Point| {
        (&p.algorithm, p.seed, &p.values) == (&q.algorithm, q.seed, &q.values)
    };
    let sources = points
        .iter()
        .map(|p| {
            sweeps
                .iter()
                .find_map(|(dir, f)| {
                    f.points
                        .iter()
                        .find(|q| same(p, q))
                        .map(|q| SweepFile::point_dir(dir, q))
                })
                .ok_or_else(|| invalid!("no sweep has the point {p:?}"))
        })
        .collect::<Result<Vec<_>>>()?;
    let mut file = first.clone();
    file.sweep.command = command;
    file.sweep.seeds = seeds;
    file.sweep.algorithms = algorithms;
    file.points = points;
    Ok((file, sources))
}

/// Write the merged sweep into `out` (empty or absent): `sweep.toml`, `points.csv` and each
/// `points/<id>` a symbolic link to the absolute path of its source.
pub fn write(out: &Path, file: &SweepFile, sources: &[PathBuf]) -> Result<()> {
    file.write(out)?;
    for (p, src) in file.points.iter().zip(sources) {
        let src = std::fs::canonicalize(src).map_err(Error::at(src))?;
        let link = out.join(POINTS_DIR).join(&p.id);
        std::os::unix::fs::symlink(&src, &link).map_err(Error::at(&link))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::SweepInfo;

    /// A sweep of `algorithms` over `seeds` whose base has `cc` profiles and a description.
    fn sweep(algorithms: &[&str], seeds: &[u64], base: &str) -> SweepFile {
        let algorithms: Vec<String> = algorithms.iter().map(|a| a.to_string()).collect();
        SweepFile {
            sweep: SweepInfo {
                command: vec!["sim".into()],
                scenario_file: "s.toml".into(),
                seeds: seeds.to_vec(),
                algorithms: algorithms.clone(),
                sets: vec!["duration_us=10".into()],
                plots: false,
                allow_big: false,
                grid: Vec::new(),
            },
            points: expand(&algorithms, &[], seeds),
            base: toml::from_str(base).unwrap(),
        }
    }

    const BASE: &str = "description = \"one\"\nduration_us = 10\n[cc.a]\nlaw = \"hpcc\"\n[cc.b]\nlaw = \"dctcp\"\n";

    #[test]
    fn merges_what_agrees_and_names_what_does_not() {
        // An older scenario: another description, no profile b, a profile c no point runs.
        let older = "description = \"two\"\nduration_us = 10\n[cc.a]\nlaw = \"hpcc\"\n[cc.c]\nlaw = \"swift\"\n";
        let d = |s: &str| PathBuf::from(s);
        let ok = [
            (d("x"), sweep(&["a", "c"], &[1, 2], older)),
            (d("y"), sweep(&["a", "b"], &[3], BASE)),
        ];
        let (f, src) = merge(&ok, Some(vec!["a".into()]), vec!["m".into()]).unwrap();
        assert_eq!(f.sweep.seeds, [1, 2, 3]);
        assert_eq!(f.sweep.algorithms, ["a"]);
        let ids: Vec<&str> = f.points.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["0", "1", "2"]);
        assert_eq!(src, [d("x/points/0"), d("x/points/1"), d("y/points/0")]);
        let err = |s: &[(PathBuf, SweepFile)], a: Option<Vec<String>>| {
            merge(s, a, vec![]).unwrap_err().to_string()
        };
        // b is not in x; by default the first sweep's algorithms, c not in y.
        assert!(err(&ok, Some(vec!["b".into()])).contains("x: the sweep did not run b"));
        assert!(err(&ok, None).contains("y: the sweep did not run c"));
        // Profile a differs, or another key; a seed twice; another --set.
        let a_differs = BASE.replace("law = \"hpcc\"", "law = \"swift\"");
        let dur_differs = BASE.replace("duration_us = 10", "duration_us = 20");
        for base in [a_differs, dur_differs] {
            let bad = [ok[0].clone(), (d("z"), sweep(&["a", "b"], &[3], &base))];
            let e = err(&bad, Some(vec!["a".into()]));
            assert!(e.contains("z: its base scenario differs"), "{e}");
        }
        let twice = [ok[0].clone(), (d("z"), sweep(&["a"], &[2], BASE))];
        assert!(err(&twice, Some(vec!["a".into()])).contains("z: seed 2 is in an earlier"));
        let mut other = sweep(&["a"], &[3], BASE);
        other.sweep.sets.push("seed=1".into());
        let e = err(&[ok[0].clone(), (d("z"), other)], Some(vec!["a".into()]));
        assert!(e.contains("z: its --set"), "{e}");
    }
}
