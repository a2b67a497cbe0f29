//! Sweeps: one scenario run over a grid of seeds × scenario keys × algorithms, every point an
//! ordinary run (its own output directory and run record, [`crate::record`]), the points'
//! summaries aggregated into one table of means with 95 % confidence intervals
//! ([`aggregate`], by [`crate::stats::mean_ci`]).
//!
//! A sweep directory holds:
//! - `sweep.toml` ([`SweepFile`]): the definition (command, seeds, algorithms, grid), the base
//!   scenario in full (after `--set`) and every point (algorithm, seed, grid values). Written
//!   before any point runs, after every point's scenario has been validated completely; it is
//!   all a point needs ([`SweepFile::scenario`]), so a point runs anywhere that sees the
//!   directory (a Slurm task: [`slurm`]).
//! - `points.csv`: the points, one row each (`point,algorithm,seed,<grid keys>`).
//! - `points/<id>/`: point `id`'s run, exactly what `sim SCENARIO --out DIR` writes; its
//!   `run.toml` replays it.
//! - `aggregate.csv`, `aggregate.json`, `aggregate.txt`: the aggregated table ([`aggregate`]).
//!
//! Points are ordered algorithm-major, then grid values (the first `--grid` key slowest), then
//! seed; a point's id is its index, zero-padded to the width of the largest.

use crate::error::{invalid, Error, Result};
use crate::Scenario;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub mod aggregate;
pub mod merge;
mod pooled;
pub mod run;
pub mod slurm;

/// The sweep definition file in a sweep directory.
pub const SWEEP_FILE: &str = "sweep.toml";
/// The points' list (CSV) in a sweep directory.
pub const POINTS_CSV: &str = "points.csv";
/// The points' run directories, under the sweep directory.
pub const POINTS_DIR: &str = "points";

/// One scenario key swept over values (`--grid KEY=V1,V2`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridKey {
    /// The key, as `--set` takes it (`topology.bottleneck_rate_gbps`).
    pub key: String,
    /// Its values, in `--set` syntax, in the order given.
    pub values: Vec<String>,
}

/// The `[sweep]` table of `sweep.toml`: what was asked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepInfo {
    /// The command line that defined the sweep, program name first.
    pub command: Vec<String>,
    /// The scenario file the base came from (for people; the base below is what runs).
    pub scenario_file: String,
    /// Seeds, in order.
    pub seeds: Vec<u64>,
    /// Algorithms, in order.
    pub algorithms: Vec<String>,
    /// The `--set` overrides already applied to the base.
    #[serde(default)]
    pub sets: Vec<String>,
    /// Whether points write PNG plots.
    pub plots: bool,
    /// Points estimated too big for the machine that defined the sweep run anyway.
    #[serde(default)]
    pub allow_big: bool,
    /// The grid's keys, in order.
    #[serde(default)]
    pub grid: Vec<GridKey>,
}

/// One point of a sweep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// Its id: the index, zero-padded (the directory `points/<id>`).
    pub id: String,
    /// Its algorithm.
    pub algorithm: String,
    /// Its seed.
    pub seed: u64,
    /// Its value of each grid key, in the grid's order.
    #[serde(default)]
    pub values: Vec<String>,
}

impl Point {
    /// The `--set` overrides that make this point's scenario from the base: the seed, then the
    /// grid's values.
    pub fn sets(&self, grid: &[GridKey]) -> Vec<String> {
        std::iter::once(format!("seed={}", self.seed))
            .chain(
                grid.iter()
                    .zip(&self.values)
                    .map(|(g, v)| format!("{}={v}", g.key)),
            )
            .collect()
    }
}

/// `sweep.toml`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SweepFile {
    /// The definition.
    pub sweep: SweepInfo,
    /// Every point, in order.
    pub points: Vec<Point>,
    /// The base scenario, in full, after `--set`.
    pub base: toml::Table,
}

/// What a sweep is asked to run, from the command line.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// The command line, program name first.
    pub command: Vec<String>,
    /// The scenario file (or a run record).
    pub scenario: PathBuf,
    /// `--set` overrides of the base.
    pub sets: Vec<String>,
    /// `--seeds` (None: the scenario's seed).
    pub seeds: Option<String>,
    /// `--algos` (None: the scenario's algorithms).
    pub algos: Option<String>,
    /// `--grid KEY=V1,V2`, repeatable.
    pub grid: Vec<String>,
    /// `--no-plots`.
    pub no_plots: bool,
    /// `--allow-big`.
    pub allow_big: bool,
}

/// Parse `--seeds`: numbers and inclusive ranges separated by commas (`1,2,5`, `1-3`,
/// `1..=3`); no seed twice.
pub fn parse_seeds(s: &str) -> Result<Vec<u64>> {
    let num = |t: &str| {
        t.trim()
            .parse::<u64>()
            .map_err(|_| invalid!("--seeds {s:?}: {t:?} is not a seed (a whole number)"))
    };
    let mut out: Vec<u64> = Vec::new();
    for item in s.split(',').map(str::trim) {
        if item.is_empty() {
            return Err(invalid!("--seeds {s:?}: empty item"));
        }
        let range = item.split_once("..=").or_else(|| item.split_once('-'));
        let new: Vec<u64> = match range {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    return Err(invalid!("--seeds {s:?}: {item} is an empty range"));
                }
                if b - a >= 100_000 {
                    return Err(invalid!("--seeds {s:?}: {item} is over 100000 seeds"));
                }
                (a..=b).collect()
            }
            None if item.contains("..") => {
                return Err(invalid!(
                    "--seeds {s:?}: write an inclusive range as A..=B or A-B (e.g. 1..=3)"
                ))
            }
            None => vec![num(item)?],
        };
        for x in new {
            if out.contains(&x) {
                return Err(invalid!("--seeds {s:?}: seed {x} is listed twice"));
            }
            out.push(x);
        }
    }
    Ok(out)
}

/// Parse one `--grid KEY=V1,V2,...`: the key as `--set` takes it, at least one value, no
/// value twice. `seed` and `algorithms` have their own options.
pub fn parse_grid(s: &str) -> Result<GridKey> {
    let (key, vals) = s
        .split_once('=')
        .ok_or_else(|| invalid!("--grid {s:?}: expected KEY.PATH=V1,V2,..."))?;
    let key = key.trim();
    if key.is_empty() || key.split('.').any(str::is_empty) {
        return Err(invalid!("--grid {s:?}: expected KEY.PATH=V1,V2,..."));
    }
    match key {
        "seed" => return Err(invalid!("--grid {key}: sweep seeds with --seeds")),
        "algorithms" => return Err(invalid!("--grid {key}: sweep algorithms with --algos")),
        _ => {}
    }
    let mut values: Vec<String> = Vec::new();
    for v in vals.split(',').map(str::trim) {
        if v.is_empty() {
            return Err(invalid!("--grid {key}: empty value in {vals:?}"));
        }
        if values.iter().any(|x| x == v) {
            return Err(invalid!("--grid {key}: value {v:?} is listed twice"));
        }
        values.push(v.to_string());
    }
    Ok(GridKey {
        key: key.to_string(),
        values,
    })
}

/// Every combination of the grid's values, the first key slowest.
fn combinations(grid: &[GridKey]) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = vec![Vec::new()];
    for g in grid {
        out = out
            .iter()
            .flat_map(|prefix| {
                g.values.iter().map(move |v| {
                    let mut p = prefix.clone();
                    p.push(v.clone());
                    p
                })
            })
            .collect();
    }
    out
}

/// The points of a sweep, in order (see the module).
pub fn expand(algorithms: &[String], grid: &[GridKey], seeds: &[u64]) -> Vec<Point> {
    let combos = combinations(grid);
    let total = algorithms.len() * combos.len() * seeds.len();
    let width = total.saturating_sub(1).to_string().len();
    let mut points = Vec::with_capacity(total);
    for a in algorithms {
        for c in &combos {
            for &seed in seeds {
                points.push(Point {
                    id: format!("{:0width$}", points.len()),
                    algorithm: a.clone(),
                    seed,
                    values: c.clone(),
                });
            }
        }
    }
    points
}

/// A sweep of more points than this is refused (a typo in `--seeds` or `--grid`).
pub const MAX_POINTS: usize = 100_000;

impl SweepFile {
    /// Check a request completely and build its file: the base scenario with its `--set`, the
    /// seeds, algorithms and grid, then every point's scenario (parsed, validated, built once
    /// and the size estimate judged). Nothing is written. An error names the option or key.
    pub fn define(req: &Request) -> Result<(SweepFile, Vec<String>)> {
        let base = Scenario::load_fields(&req.scenario, &req.sets)?;
        let seeds = match &req.seeds {
            Some(s) => parse_seeds(s)?,
            None => vec![base.seed],
        };
        let algorithms = match &req.algos {
            Some(a) => crate::names::split_list(a).map_err(|e| e.context("--algos"))?,
            None => base.algorithms.clone(),
        };
        let mut grid: Vec<GridKey> = Vec::new();
        for g in &req.grid {
            let g = parse_grid(g)?;
            if grid.iter().any(|x| x.key == g.key) {
                return Err(invalid!("--grid {}: the key is given twice", g.key));
            }
            grid.push(g);
        }
        let n: usize = grid
            .iter()
            .map(|g| g.values.len())
            .try_fold(algorithms.len() * seeds.len(), |a, b| a.checked_mul(b))
            .filter(|&n| n <= MAX_POINTS)
            .ok_or_else(|| invalid!("the sweep has more than {MAX_POINTS} points"))?;
        let mut base = base;
        base.report.plots &= !req.no_plots;
        let base_text = base.to_toml()?;
        let base_table: toml::Table =
            toml::from_str(&base_text).map_err(|e| Error::Invalid(e.to_string()))?;
        let file = SweepFile {
            sweep: SweepInfo {
                command: req.command.clone(),
                scenario_file: req.scenario.display().to_string(),
                seeds,
                algorithms,
                sets: req.sets.clone(),
                plots: base.report.plots,
                allow_big: req.allow_big,
                grid,
            },
            points: Vec::new(),
            base: base_table,
        };
        // Each algorithm, and each grid value alone, first: an error names what is wrong.
        for a in &file.sweep.algorithms {
            let mut sc = base.clone();
            sc.algorithms = vec![a.clone()];
            sc.validate_fields().map_err(|e| e.context("--algos"))?;
        }
        for g in &file.sweep.grid {
            for v in &g.values {
                Scenario::parse_fields(&base_text, &[format!("{}={v}", g.key)])
                    .map_err(|e| e.context(format!("--grid {}={v}", g.key)))?;
            }
        }
        let mut file = file;
        file.points = expand(&file.sweep.algorithms, &file.sweep.grid, &file.sweep.seeds);
        debug_assert_eq!(file.points.len(), n);
        let mut warnings = Vec::new();
        for p in &file.points {
            let sc = file
                .scenario(p)
                .map_err(|e| e.context(format!("point {} ({})", p.id, file.describe(p))))?;
            let est = crate::preflight::estimate(&sc);
            match crate::preflight::Limits::machine().judge(&est) {
                crate::preflight::Verdict::Refuse(r) if !req.allow_big => {
                    return Err(invalid!("point {} ({}): {r}", p.id, file.describe(p)))
                }
                _ => {}
            }
            sc.validate()
                .and_then(|()| sc.check_builds())
                .map_err(|e| e.context(format!("point {} ({})", p.id, file.describe(p))))?;
            for w in sc.warnings()? {
                warnings.push(format!("point {} ({}): {w}", p.id, file.describe(p)));
            }
        }
        Ok((file, warnings))
    }

    /// Point `p`'s scenario: the base with the point's seed, grid values and algorithm. Fields
    /// only: call [`Scenario::validate`] before running it.
    pub fn scenario(&self, p: &Point) -> Result<Scenario> {
        let text = toml::to_string(&self.base).map_err(|e| Error::Invalid(e.to_string()))?;
        let mut sc = Scenario::parse_fields(&text, &p.sets(&self.sweep.grid))?;
        sc.algorithms = vec![p.algorithm.clone()];
        sc.validate_fields()?;
        Ok(sc)
    }

    /// `swift, seed 2, topology.x=10`: a point for people.
    pub fn describe(&self, p: &Point) -> String {
        let mut s = format!("{}, seed {}", p.algorithm, p.seed);
        for (g, v) in self.sweep.grid.iter().zip(&p.values) {
            s.push_str(&format!(", {}={v}", g.key));
        }
        s
    }

    /// The text of `sweep.toml`.
    pub fn text(&self) -> Result<String> {
        let body = toml::to_string(self).map_err(|e| Error::encode(SWEEP_FILE, e))?;
        Ok(format!(
            "# rdcc-sim sweep: [sweep] what was asked, [[points]] every point (points/<id>/), \
             [base] the scenario before each point's seed, grid values and algorithm.\n{body}"
        ))
    }

    /// `points.csv`: `point,algorithm,seed,<grid keys>`.
    pub fn points_csv(&self) -> Result<String> {
        let err = |e: &dyn std::fmt::Display| Error::encode(POINTS_CSV, e);
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut head = vec!["point".to_string(), "algorithm".into(), "seed".into()];
        head.extend(self.sweep.grid.iter().map(|g| g.key.clone()));
        w.write_record(&head).map_err(|e| err(&e))?;
        for p in &self.points {
            let mut row = vec![p.id.clone(), p.algorithm.clone(), p.seed.to_string()];
            row.extend(p.values.iter().cloned());
            w.write_record(&row).map_err(|e| err(&e))?;
        }
        String::from_utf8(w.into_inner().map_err(|e| err(&e))?).map_err(|e| err(&e))
    }

    /// Write `sweep.toml` and `points.csv` into `dir` (created if absent).
    pub fn write(&self, dir: &Path) -> Result<()> {
        std::fs::create_dir_all(dir.join(POINTS_DIR)).map_err(Error::at(dir))?;
        for (name, text) in [(SWEEP_FILE, self.text()?), (POINTS_CSV, self.points_csv()?)] {
            let p = dir.join(name);
            std::fs::write(&p, text).map_err(Error::at(&p))?;
        }
        Ok(())
    }

    /// Read `dir/sweep.toml`.
    pub fn read(dir: &Path) -> Result<SweepFile> {
        let p = dir.join(SWEEP_FILE);
        let text = std::fs::read_to_string(&p).map_err(Error::at(&p))?;
        toml::from_str(&text).map_err(Error::at(&p))
    }

    /// Point `i` (by index), or an error naming the range.
    pub fn point(&self, i: usize) -> Result<&Point> {
        self.points.get(i).ok_or_else(|| {
            invalid!(
                "no point {i}: the sweep has points 0 to {}",
                self.points.len().saturating_sub(1)
            )
        })
    }

    /// The same sweep restricted to the points of `seeds` (`sim sweep-collect --seeds`), each
    /// point keeping its id (its directory); an error names a seed the sweep did not run.
    pub fn only_seeds(&self, seeds: &[u64]) -> Result<SweepFile> {
        if let Some(s) = seeds.iter().find(|s| !self.sweep.seeds.contains(s)) {
            return Err(invalid!(
                "--seeds: the sweep has no seed {s} (its seeds: {:?})",
                self.sweep.seeds
            ));
        }
        let mut f = self.clone();
        f.sweep.seeds.retain(|s| seeds.contains(s));
        f.points.retain(|p| seeds.contains(&p.seed));
        Ok(f)
    }

    /// The run directory of point `p` under the sweep directory `dir`.
    pub fn point_dir(dir: &Path, p: &Point) -> PathBuf {
        dir.join(POINTS_DIR).join(&p.id)
    }
}

#[cfg(test)]
mod tests;
