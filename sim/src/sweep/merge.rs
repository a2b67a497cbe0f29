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
