//! A sweep's aggregated table: the points' summaries (`points/<id>/summary.csv` and
//! `fct_bins.csv`, as the points wrote them) grouped by algorithm and grid values (every seed
//! of a group together), each figure's mean, standard deviation and 95 % confidence interval
//! by [`stats::mean_ci`]. Read from the files, in point order, so a local sweep and a Slurm
//! array's collect step give the same bytes from the same points.
//!
//! Figures: every numeric column of `summary.csv` (`goodput_gbps`, `rtt_p99_us`, ...), and of
//! `fct_bins.csv` per size bin as `COLUMN[BIN]` (`slowdown_p99[<10KB]`). An undefined value
//! (empty field) is left out of its figure's statistics; `n` counts the values used.
//!
//! **Pooled figures** ([`POOLED_METHOD`]): a percentile of one seed's flows is its maximum
//! when the bin holds at most 1,000 flows (nearest rank), so the group's seeds are also
//! pooled into one sample and its percentiles taken ([`stats::pooled_percentile`]):
//! `pooled_slowdown_pP[BIN]` over every completed flow of the bin in `<algorithm>/flows.csv`
//! (`n` = the flows pooled), and `pooled_buffer_kb_pP[SWITCH]` over the samples of
//! `<algorithm>/port_series.csv`, each sample the sum of the queues of the monitored ports
//! leaving SWITCH (its buffer occupancy when every port of it is in `report.bottlenecks`),
//! taken in the window `measure_from_us` < t ≤ `workload.stop_us` (the arrivals; the
//! scenario's `duration_us` without a workload). Their `mean` is the pooled value; they have
//! no interval.

use super::pooled::{pooled_figures, POOLED_BASE_KEYS};
pub use super::pooled::{POOLED_METHOD, POOLED_PERCENTILES};
use super::{SweepFile, POINTS_DIR};
use crate::error::{invalid, Error, Result};
use crate::plot::figures::file_safe;
use crate::plot::{chart, Line};
use crate::stats;
use crate::tables::to_json;
use crate::text_table::{render, Cell, Col};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The aggregated table's files in a sweep directory.
pub const FILES: [&str; 3] = ["aggregate.csv", "aggregate.json", "aggregate.txt"];

/// The statement of method printed with the table and written into `aggregate.json`.
pub const METHOD: &str = "mean ± half-width of the 95 % confidence interval over the seeds \
    (Student's t with n-1 degrees of freedom × sample standard deviation / √n; rdcc_sim::stats::mean_ci)";

/// One figure of one group.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// Algorithm.
    pub algorithm: String,
    /// Grid key -> value of the group.
    pub grid: BTreeMap<String, String>,
    /// Figure: a `summary.csv` column, or `COLUMN[BIN]` of `fct_bins.csv`.
    pub figure: String,
    /// Points (seeds) in the group.
    pub points: usize,
    /// Values defined (used in the statistics).
    pub n: usize,
    /// Mean.
    pub mean: Option<f64>,
    /// Sample standard deviation (n >= 2).
    pub stddev: Option<f64>,
    /// Half-width of the 95 % interval (n >= 2).
    pub ci95_half: Option<f64>,
    /// mean - ci95_half.
    pub ci95_low: Option<f64>,
    /// mean + ci95_half.
    pub ci95_high: Option<f64>,
}

/// The aggregated table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Aggregate {
    /// The method ([`METHOD`]).
    pub method: String,
    /// The pooled figures' method ([`POOLED_METHOD`]).
    pub pooled_method: String,
    /// The scenario's name.
    pub scenario: String,
    /// The grid's keys, in order.
    pub grid_keys: Vec<String>,
    /// The seeds of every group.
    pub seeds: Vec<u64>,
    /// The rows: groups in point order, figures in file order.
    pub rows: Vec<Row>,
    /// Pooled CDFs of the buffer figures, for [`Aggregate::write_plots`]. Not in the files.
    #[serde(skip)]
    pub cdfs: Vec<PooledCdf>,
}

/// A group's pooled CDF of one buffer figure: (figure as `buffer_kb[SWITCH]`, group label
/// `algorithm key=value ...`, points (x, F(x))).
pub type PooledCdf = (String, String, Vec<(f64, f64)>);

/// `x` rounded to 6 decimals (fixed, so equal inputs give equal bytes); `None` if not finite.
fn round6(x: f64) -> Option<f64> {
    x.is_finite().then(|| (x * 1e6).round() / 1e6)
}

/// The figures of one point's run: (figure, value) in file order.
fn point_figures(dir: &Path) -> Result<Vec<(String, Option<f64>)>> {
    let mut out = Vec::new();
    for (file, key_col) in [("summary.csv", None), ("fct_bins.csv", Some("size_bin"))] {
        let p = dir.join(file);
        let mut r = csv::Reader::from_path(&p).map_err(Error::at(&p))?;
        let head = r.headers().map_err(Error::at(&p))?.clone();
        for rec in r.records() {
            let rec = rec.map_err(Error::at(&p))?;
            let bin =
                key_col.and_then(|k| head.iter().position(|h| h == k).and_then(|i| rec.get(i)));
            for (h, v) in head.iter().zip(rec.iter()) {
                if h == "algorithm" || Some(h) == key_col {
                    continue;
                }
                let val = if v.is_empty() {
                    None
                } else {
                    Some(v.parse::<f64>().map_err(|_| {
                        Error::file(&p, format!("column {h}: {v:?} is not a number"))
                    })?)
                };
                let name = match bin {
                    Some(b) => format!("{h}[{b}]"),
                    None => h.to_string(),
                };
                out.push((name, val));
            }
        }
    }
    Ok(out)
}

/// Aggregate the points of the sweep in `dir`. Every point must have run: a missing point is
/// an error naming it.
pub fn aggregate(dir: &Path, file: &SweepFile) -> Result<Aggregate> {
    // Groups in point order: (algorithm, values) -> figure -> values.
    type Figures = Vec<(String, Vec<Option<f64>>)>;
    let mut groups: Vec<((String, Vec<String>), usize, Figures)> = Vec::new();
    let mut missing = Vec::new();
    for p in &file.points {
        let pd = SweepFile::point_dir(dir, p);
        let figs = match point_figures(&pd) {
            Ok(f) => f,
            Err(e) => {
                missing.push(format!("point {} ({}): {e}", p.id, file.describe(p)));
                continue;
            }
        };
        let key = (p.algorithm.clone(), p.values.clone());
        let gi = match groups.iter().position(|g| g.0 == key) {
            Some(i) => i,
            None => {
                groups.push((key, 0, Vec::new()));
                groups.len() - 1
            }
        };
        let g = &mut groups[gi];
        let seen = g.1;
        g.1 += 1;
        for (name, v) in figs {
            match g.2.iter_mut().find(|(n, _)| *n == name) {
                Some((_, vals)) => vals.push(v),
                None => {
                    // A figure the earlier points lacked (a size bin they had no row for).
                    let mut vals = vec![None; seen];
                    vals.push(v);
                    g.2.push((name, vals));
                }
            }
        }
        for (_, vals) in g.2.iter_mut() {
            vals.resize(g.1, None);
        }
    }
    if !missing.is_empty() {
        return Err(invalid!(
            "{} of {} points have no summary in {}/ (did they run?):\n{}",
            missing.len(),
            file.points.len(),
            dir.join(POINTS_DIR).display(),
            missing.join("\n")
        ));
    }
    let keys: Vec<String> = file.sweep.grid.iter().map(|g| g.key.clone()).collect();
    if let Some(k) = keys.iter().find(|k| POOLED_BASE_KEYS.contains(&k.as_str())) {
        return Err(invalid!(
            "--grid {k}: the pooled figures read it from the base scenario; set it with --set"
        ));
    }
    let mut rows = Vec::new();
    let mut cdfs = Vec::new();
    for ((algorithm, values), points, figs) in groups {
        let members: Vec<&super::Point> = file
            .points
            .iter()
            .filter(|p| p.algorithm == algorithm && p.values == values)
            .collect();
        let (pooled, group_cdfs) = pooled_figures(dir, file, &members)?;
        let label = std::iter::once(algorithm.clone())
            .chain(keys.iter().zip(&values).map(|(k, v)| format!("{k}={v}")))
            .collect::<Vec<_>>()
            .join(" ");
        cdfs.extend(
            group_cdfs
                .into_iter()
                .map(|(f, pts)| (f, label.clone(), pts)),
        );
        let grid: BTreeMap<String, String> = keys.iter().cloned().zip(values).collect();
        for (figure, vals) in figs {
            let xs: Vec<f64> = vals.iter().flatten().copied().collect();
            let m = stats::mean_ci(&xs);
            let half = m.and_then(|m| m.ci95_half);
            rows.push(Row {
                algorithm: algorithm.clone(),
                grid: grid.clone(),
                figure,
                points,
                n: m.map_or(0, |m| m.n),
                mean: m.and_then(|m| round6(m.mean)),
                stddev: m.and_then(|m| m.stddev).and_then(round6),
                ci95_half: half.and_then(round6),
                ci95_low: m.zip(half).and_then(|(m, h)| round6(m.mean - h)),
                ci95_high: m.zip(half).and_then(|(m, h)| round6(m.mean + h)),
            });
        }
        for (figure, n, v) in pooled {
            rows.push(Row {
                algorithm: algorithm.clone(),
                grid: grid.clone(),
                figure,
                points,
                n,
                mean: v.and_then(round6),
                stddev: None,
                ci95_half: None,
                ci95_low: None,
                ci95_high: None,
            });
        }
    }
    let scenario = file
        .base
        .get("name")
        .and_then(|v| v.as_str())
        .unwrap_or("?")
        .to_string();
    Ok(Aggregate {
        method: METHOD.into(),
        pooled_method: POOLED_METHOD.into(),
        scenario,
        grid_keys: keys,
        seeds: file.sweep.seeds.clone(),
        rows,
        cdfs,
    })
}

fn cell(x: Option<f64>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

impl Aggregate {
    /// `aggregate.csv`: `algorithm,<grid keys>,figure,points,n,mean,stddev,ci95_half,ci95_low,ci95_high`.
    pub fn csv(&self) -> Result<String> {
        let err = |e: &dyn std::fmt::Display| Error::encode("aggregate.csv", e);
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut head = vec!["algorithm".to_string()];
        head.extend(self.grid_keys.iter().cloned());
        head.extend(
            [
                "figure",
                "points",
                "n",
                "mean",
                "stddev",
                "ci95_half",
                "ci95_low",
                "ci95_high",
            ]
            .map(String::from),
        );
        w.write_record(&head).map_err(|e| err(&e))?;
        for r in &self.rows {
            let mut row = vec![r.algorithm.clone()];
            row.extend(self.grid_keys.iter().map(|k| r.grid[k].clone()));
            row.extend([
                r.figure.clone(),
                r.points.to_string(),
                r.n.to_string(),
                cell(r.mean),
                cell(r.stddev),
                cell(r.ci95_half),
                cell(r.ci95_low),
                cell(r.ci95_high),
            ]);
            w.write_record(&row).map_err(|e| err(&e))?;
        }
        String::from_utf8(w.into_inner().map_err(|e| err(&e))?).map_err(|e| err(&e))
    }

    fn find(&self, algorithm: &str, grid: &BTreeMap<String, String>, figure: &str) -> Option<&Row> {
        self.rows
            .iter()
            .find(|r| r.algorithm == algorithm && &r.grid == grid && r.figure == figure)
    }

    /// The groups (algorithm, grid values, points), in order.
    fn groups(&self) -> Vec<(&str, &BTreeMap<String, String>, usize)> {
        let mut g: Vec<(&str, &BTreeMap<String, String>, usize)> = Vec::new();
        for r in &self.rows {
            if !g.iter().any(|(a, v, _)| *a == r.algorithm && *v == &r.grid) {
                g.push((&r.algorithm, &r.grid, r.points));
            }
        }
        g
    }

    /// The printed table (`aggregate.txt`): the headline figures of every group, mean ± the
    /// interval's half-width, then FCT slowdown per size bin when the runs had finite flows.
    pub fn text(&self) -> String {
        // (figure, header, decimals of the mean and the half-width)
        const HEAD: [(&str, &str, usize); 7] = [
            ("goodput_gbps", "goodput_Gbps", 2),
            ("bottleneck_utilization", "util", 3),
            ("rtt_p50_us", "RTTp50_µs", 2),
            ("rtt_p99_us", "RTTp99_µs", 2),
            ("jain_index_mean", "Jain_mean", 3),
            ("bottleneck_queue_p99_kb", "Qp99_KB", 2),
            ("dropped_packets", "drops", 1),
        ];
        let groups = self.groups();
        let lead = |a: &str, g: &BTreeMap<String, String>, pts: usize| {
            let mut v: Vec<Cell> = vec![a.into()];
            v.extend(self.grid_keys.iter().map(|k| g[k].as_str().into()));
            v.push(pts.into());
            v
        };
        let mut head = vec![Col::text("algorithm")];
        head.extend(self.grid_keys.iter().map(|k| Col::text(k)));
        head.push(Col::num("seeds", 0));
        let mut cols = head.clone();
        cols.extend(HEAD.map(|(_, h, d)| Col::num(h, d)));
        let mut t = Vec::new();
        for &(a, g, pts) in &groups {
            let mut row = lead(a, g, pts);
            row.extend(HEAD.map(|(f, _, d)| pm(self.find(a, g, f), d)));
            t.push(row);
        }
        let mut out = format!(
            "sweep {}: {} point(s), seeds {}; every figure in aggregate.csv\n{METHOD}\n\n",
            self.scenario,
            groups.iter().map(|g| g.2).sum::<usize>(),
            self.seeds
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(",")
        );
        out.push_str(&render(&cols, &t, true));
        // FCT slowdown per size bin, bins in order of appearance; a bin no group completed a
        // flow in is left out (and the table, when no bin is left).
        let mut bins: Vec<&str> = Vec::new();
        for r in self.rows.iter().filter(|r| r.mean.is_some()) {
            if let Some(b) = r
                .figure
                .strip_prefix("slowdown_p99[")
                .and_then(|b| b.strip_suffix(']'))
            {
                if !bins.contains(&b) {
                    bins.push(b);
                }
            }
        }
        if !bins.is_empty() {
            const FIGS: [(&str, &str, usize); 6] = [
                ("flows_done", "flows_done", 1),
                ("slowdown_p50", "slowdown_p50", 2),
                ("slowdown_p99", "slowdown_p99", 2),
                ("slowdown_p999", "slowdown_p999", 2),
                ("pooled_slowdown_p99", "pooled_p99", 2),
                ("pooled_slowdown_p999", "pooled_p999", 2),
            ];
            let mut cols = head.clone();
            cols.push(Col::text("size"));
            cols.extend(FIGS.map(|(_, h, d)| Col::num(h, d)));
            let mut t = Vec::new();
            for &(a, g, pts) in &groups {
                for b in &bins {
                    let mut row = lead(a, g, pts);
                    row.push((*b).into());
                    for (f, _, d) in FIGS {
                        row.push(pm(self.find(a, g, &format!("{f}[{b}]")), d));
                    }
                    t.push(row);
                }
            }
            out.push_str(
                "\nFCT slowdown (FCT / ideal) per flow size; pooled_*: every seed's flows together:\n",
            );
            out.push_str(&render(&cols, &t, true));
        }
        // Buffer occupancy per switch, pooled over the seeds' samples.
        let mut sws: Vec<&str> = Vec::new();
        for r in &self.rows {
            if let Some(s) = r
                .figure
                .strip_prefix("pooled_buffer_kb_p50[")
                .and_then(|b| b.strip_suffix(']'))
            {
                if !sws.contains(&s) {
                    sws.push(s);
                }
            }
        }
        if !sws.is_empty() {
            let mut cols = head;
            cols.push(Col::text("switch"));
            cols.push(Col::num("samples", 0));
            cols.extend(POOLED_PERCENTILES.map(|(p, _)| Col::num(p, 2)));
            let mut t = Vec::new();
            for &(a, g, pts) in &groups {
                for s in &sws {
                    let mut row = lead(a, g, pts);
                    row.push((*s).into());
                    let n = self.find(a, g, &format!("pooled_buffer_kb_p50[{s}]"));
                    row.push(n.map_or(Cell::None, |r| r.n.into()));
                    for (p, _) in POOLED_PERCENTILES {
                        row.push(pm(
                            self.find(a, g, &format!("pooled_buffer_kb_{p}[{s}]")),
                            2,
                        ));
                    }
                    t.push(row);
                }
            }
            out.push_str(
                "\nBuffer occupancy, KB (sum of the monitored queues leaving the switch; \
                 every seed's samples together):\n",
            );
            out.push_str(&render(&cols, &t, true));
        }
        if self.rows.iter().any(|r| r.figure.starts_with("pooled_")) {
            out.push_str(&format!("\n{POOLED_METHOD}\n"));
        }
        out
    }

    /// Write one plot per pooled buffer figure into `dir`, `cdf_buffer_kb_SWITCH.png` (and
    /// `.svg`; `cdf_buffer_binmax_kb_SWITCH` likewise): the pooled CDF of every group, one
    /// line each. Returns the files written.
    pub fn write_plots(&self, dir: &Path) -> Result<Vec<std::path::PathBuf>> {
        let mut figures: Vec<&str> = Vec::new();
        for (f, _, _) in &self.cdfs {
            if !figures.contains(&f.as_str()) {
                figures.push(f);
            }
        }
        let seeds = match (self.seeds.first(), self.seeds.last()) {
            (Some(a), Some(b)) if self.seeds.len() > 1 => format!("seeds {a}-{b}"),
            (Some(a), _) => format!("seed {a}"),
            _ => String::new(),
        };
        let mut files = Vec::new();
        for f in figures {
            let lines: Vec<Line> = self
                .cdfs
                .iter()
                .filter(|c| c.0 == f)
                .map(|(_, g, pts)| Line {
                    name: g.clone(),
                    pts: pts.clone(),
                })
                .collect();
            let (x, y, what) = if f.starts_with("buffer_binmax_kb[") {
                (
                    "largest sample per bin (KB)",
                    "fraction of bins",
                    "per-bin maxima of",
                )
            } else {
                ("buffer occupancy (KB)", "fraction of samples", "samples of")
            };
            let (base, sw) = f
                .split_once('[')
                .map_or((f, f), |(b, s)| (b, s.trim_end_matches(']')));
            let path = dir.join(format!("cdf_{base}_{}.png", file_safe(sw)));
            files.extend(chart(
                &path,
                &format!(
                    "{}: pooled CDF, {what} {sw}'s occupancy ({seeds})",
                    self.scenario
                ),
                x,
                y,
                &lines,
                Some(0.0),
                false,
            )?);
        }
        Ok(files)
    }

    /// Write `aggregate.csv`, `aggregate.json` and `aggregate.txt` into `dir`.
    pub fn write(&self, dir: &Path) -> Result<()> {
        let texts = [self.csv()?, to_json(self)?, self.text()];
        for (name, text) in FILES.iter().zip(texts) {
            let p = dir.join(name);
            std::fs::write(&p, text).map_err(Error::at(&p))?;
        }
        Ok(())
    }
}

/// `mean ± half` of a row with `d` decimals (the column's); `mean` alone for one value; `-`
/// when undefined.
fn pm(r: Option<&Row>, d: usize) -> Cell {
    match r.and_then(|r| r.mean.map(|m| (m, r.ci95_half))) {
        None => Cell::None,
        Some((m, None)) => Cell::Num(m),
        Some((m, Some(h))) => format!("{m:.d$} ± {h:.d$}").into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sweep::{expand, GridKey, SweepInfo};

    fn file(seeds: &[u64]) -> SweepFile {
        let grid = vec![GridKey {
            key: "topology.x".into(),
            values: vec!["1".into(), "2".into()],
        }];
        let algos = vec!["swift".to_string()];
        SweepFile {
            points: expand(&algos, &grid, seeds),
            sweep: SweepInfo {
                command: vec![],
                scenario_file: "t.toml".into(),
                seeds: seeds.to_vec(),
                algorithms: algos,
                sets: vec![],
                plots: false,
                allow_big: false,
                grid,
            },
            base: toml::from_str("name = \"t\"").unwrap(),
        }
    }

    /// Point i's files: goodput i, an undefined RTT but for point 0, one size bin.
    fn write_points(dir: &Path, f: &SweepFile) {
        for (i, p) in f.points.iter().enumerate() {
            let d = SweepFile::point_dir(dir, p);
            std::fs::create_dir_all(&d).unwrap();
            let rtt = if i == 0 { "5.5" } else { "" };
            std::fs::write(
                d.join("summary.csv"),
                format!("algorithm,goodput_gbps,rtt_p99_us\nswift,{i},{rtt}\n"),
            )
            .unwrap();
            std::fs::write(
                d.join("fct_bins.csv"),
                format!("algorithm,size_bin,flows_done,slowdown_p99\nswift,<10KB,{i},2.5\n"),
            )
            .unwrap();
        }
    }

    #[test]
    fn groups_are_algorithm_and_grid_values_over_the_seeds() {
        let dir = std::env::temp_dir().join(format!("rdcc-agg-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let f = file(&[1, 2, 3]);
        write_points(&dir, &f);
        let a = aggregate(&dir, &f).unwrap();
        // (x, figure, n, mean, half-width)
        type Want<'a> = (&'a str, &'a str, usize, Option<f64>, Option<f64>);
        let t2 = crate::stats::T_975[1];
        let want: &[Want] = &[
            ("1", "goodput_gbps", 3, Some(1.0), round6(t2 / 3f64.sqrt())),
            ("1", "rtt_p99_us", 1, Some(5.5), None),
            (
                "1",
                "flows_done[<10KB]",
                3,
                Some(1.0),
                round6(t2 / 3f64.sqrt()),
            ),
            ("1", "slowdown_p99[<10KB]", 3, Some(2.5), Some(0.0)),
            ("2", "goodput_gbps", 3, Some(4.0), round6(t2 / 3f64.sqrt())),
            ("2", "rtt_p99_us", 0, None, None),
        ];
        for &(x, fig, n, mean, half) in want {
            let r = a
                .rows
                .iter()
                .find(|r| r.grid["topology.x"] == x && r.figure == fig)
                .unwrap_or_else(|| panic!("{x} {fig}"));
            assert_eq!(
                (r.points, r.n, r.mean, r.ci95_half),
                (3, n, mean, half),
                "{x} {fig}"
            );
        }
        assert_eq!(a.rows.len(), 8);
        let csv = a.csv().unwrap();
        assert_eq!(
            csv.lines().next(),
            Some("algorithm,topology.x,figure,points,n,mean,stddev,ci95_half,ci95_low,ci95_high")
        );
        assert!(csv.contains("\nswift,2,rtt_p99_us,3,0,,,,,\n"), "{csv}");
        let text = a.text();
        assert!(
            text.contains("swift     1              3  1.00 ± 2.48      5.50"),
            "{text}"
        );
        assert!(text.contains("FCT slowdown"), "{text}");
        // A point that did not run is named.
        std::fs::remove_file(SweepFile::point_dir(&dir, &f.points[4]).join("summary.csv")).unwrap();
        let e = aggregate(&dir, &f).unwrap_err().to_string();
        assert!(
            e.contains("1 of 6 points") && e.contains("point 4 (swift, seed 2, topology.x=2)"),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Ten seeds of 100 short flows each, seed k's slowdowns 100k+1 ..= 100k+100 (plus a
    /// long-lived flow, an unfinished one and one 2 MB flow of slowdown 7); two samples of
    /// three monitored ports, two leaving switch `e0`.
    #[test]
    fn pooled_percentiles_over_the_seeds() {
        let dir = std::env::temp_dir().join(format!("rdcc-agg-pool-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let seeds: Vec<u64> = (1..=10).collect();
        let mut f = file(&seeds);
        f.base = toml::from_str(
            "name = \"t\"\nmeasure_from_us = 5.0\n[workload]\nstop_us = 30\n\
             [report]\nbuffer_bin_us = 20",
        )
        .unwrap();
        write_points(&dir, &f);
        for p in &f.points {
            let k = p.seed - 1;
            let d = SweepFile::point_dir(&dir, p).join("swift");
            std::fs::create_dir_all(&d).unwrap();
            let mut flows = String::from("flow,size_bytes,slowdown\n0,0,\n1,5000,\n2,2000000,7\n");
            for i in 1..=100 {
                flows.push_str(&format!("{},{},{}\n", i + 2, 1000 + i, 100 * k + i));
            }
            std::fs::write(d.join("flows.csv"), flows).unwrap();
            // t = 5 is outside the window (t > 5), t = 10 and 20 inside, t = 40 after it.
            let mut ports = String::from("t_us,port,queue_bytes\n");
            for (t, q) in [(5, 9000), (10, 1000 * k), (20, 2000 * k), (40, 9000)] {
                ports.push_str(&format!("{t},e0->a,{q}\n{t},e1->a,{q}\n{t},e0->b,500\n"));
            }
            std::fs::write(d.join("port_series.csv"), ports).unwrap();
        }
        let a = aggregate(&dir, &f).unwrap();
        let get = |x: &str, fig: &str| {
            let r = a
                .rows
                .iter()
                .find(|r| r.grid["topology.x"] == x && r.figure == fig)
                .unwrap_or_else(|| panic!("{x} {fig}"));
            (r.points, r.n, r.mean, r.ci95_half)
        };
        // The pool is 1 ..= 1000: p99.9 = rank 999, not the maximum; p50 = 500.
        for x in ["1", "2"] {
            assert_eq!(
                get(x, "pooled_slowdown_p999[<10KB]"),
                (10, 1000, Some(999.0), None)
            );
            assert_eq!(
                get(x, "pooled_slowdown_p99[<10KB]"),
                (10, 1000, Some(990.0), None)
            );
            assert_eq!(
                get(x, "pooled_slowdown_p50[<10KB]"),
                (10, 1000, Some(500.0), None)
            );
            assert_eq!(
                get(x, "pooled_slowdown_p999[>=1MB]"),
                (10, 10, Some(7.0), None)
            );
            assert_eq!(
                get(x, "pooled_slowdown_p50[10KB-100KB]"),
                (10, 0, None, None)
            );
            // e0's samples: (k + 0.5) and (2k + 0.5) KB for k = 0..9, 20 in all; the samples
            // at t = 5 and 40 are outside the window. Sorted: 0.5, 0.5, 1.5, 2.5, 2.5, 3.5,
            // 4.5, 4.5, 5.5, 6.5, ...: p50 = rank 10 = 6.5; p99.9 = rank 20 = 18.5.
            assert_eq!(
                get(x, "pooled_buffer_kb_p50[e0]"),
                (10, 20, Some(6.5), None)
            );
            assert_eq!(
                get(x, "pooled_buffer_kb_p999[e0]"),
                (10, 20, Some(18.5), None)
            );
            assert_eq!(
                get(x, "pooled_buffer_kb_p999[e1]"),
                (10, 20, Some(18.0), None)
            );
            // Bins of 20 µs from 5: (5, 25] is full and holds both samples, (25, 45] ends
            // after the window. One maximum per seed, 2k + 0.5: 0.5, 2.5, ..., 18.5; p50 =
            // rank 5 = 8.5.
            assert_eq!(
                get(x, "pooled_buffer_binmax_kb_p50[e0]"),
                (10, 10, Some(8.5), None)
            );
            assert_eq!(
                get(x, "pooled_buffer_binmax_kb_p999[e0]"),
                (10, 10, Some(18.5), None)
            );
        }
        let text = a.text();
        assert!(
            text.contains("pooled_p999") && text.contains("Buffer occupancy"),
            "{text}"
        );
        assert!(text.contains(POOLED_METHOD), "{text}");
        // The pooled CDFs: per group, e0's 20 samples and its 10 bin maxima (every rank of
        // so few), e1's; one plot per figure, a line per group.
        let cdf = |f: &str, g: &str| {
            a.cdfs
                .iter()
                .find(|c| c.0 == f && c.1 == g)
                .map(|c| c.2.clone())
                .unwrap_or_else(|| panic!("{f} {g}"))
        };
        let e0 = cdf("buffer_kb[e0]", "swift topology.x=1");
        assert_eq!((e0.len(), e0[0], e0[19]), (20, (0.5, 0.05), (18.5, 1.0)));
        let bm = cdf("buffer_binmax_kb[e0]", "swift topology.x=2");
        assert_eq!((bm.len(), bm[4], bm[9]), (10, (8.5, 0.5), (18.5, 1.0)));
        let files = a.write_plots(&dir).unwrap();
        let names: Vec<String> = files
            .iter()
            .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        for n in [
            "cdf_buffer_kb_e0.png",
            "cdf_buffer_kb_e1.svg",
            "cdf_buffer_binmax_kb_e0.png",
        ] {
            assert!(names.iter().any(|x| x == n), "{n} in {names:?}");
        }
        // e0 and e1, each as samples and as bin maxima: four figures, PNG and SVG each.
        assert_eq!(files.len(), 8, "{names:?}");
        // A grid over a key the pooled figures take from the base is refused.
        f.sweep.grid[0].key = "workload.stop_us".into();
        let e = aggregate(&dir, &f).unwrap_err().to_string();
        assert!(e.contains("--grid workload.stop_us"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn cells_and_alignment() {
        let row = |mean, half| Row {
            algorithm: "a".into(),
            grid: BTreeMap::new(),
            figure: "f".into(),
            points: 2,
            n: 2,
            mean,
            stddev: None,
            ci95_half: half,
            ci95_low: None,
            ci95_high: None,
        };
        // Every cell of a column gets the column's decimals, whatever its size.
        let cases = [
            (row(Some(1234.6), Some(10.0)), 1, "1234.6 ± 10.0"),
            (row(Some(123.45), Some(1.0)), 2, "123.45 ± 1.00"),
            (row(Some(9.5), Some(0.25)), 2, "9.50 ± 0.25"),
            (row(Some(0.5), None), 3, "0.500"),
        ];
        for (r, d, want) in cases {
            let t = render(&[Col::num("x", d)], &[vec![pm(Some(&r), d)]], false);
            assert_eq!(t.lines().last().map(str::trim), Some(want), "{t}");
        }
        assert_eq!(pm(Some(&row(None, None)), 2), Cell::None);
        assert_eq!(pm(None, 1), Cell::None);
    }
}
