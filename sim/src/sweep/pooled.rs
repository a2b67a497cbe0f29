//! The pooled figures of a sweep's aggregate ([`super::aggregate`]): every seed's flows of a
//! size bin, and a switch's summed monitored queues per sample, pooled into one sample per
//! group (algorithm and grid values) and their percentiles taken by
//! [`stats::pooled_percentile`]. The module documentation of [`super::aggregate`] and
//! Documentation/results/README.md ("What a sweep writes") define the figures.

use super::SweepFile;
use crate::error::{Error, Result};
use crate::stats;
use std::path::Path;

/// The statement of method of the pooled figures.
pub const POOLED_METHOD: &str = "pooled_*: nearest-rank percentile of every seed's values \
    together (rdcc_sim::stats::pooled_percentile): flows' slowdown per size bin, and each \
    switch's summed monitored queues per sample in measure_from_us < t <= workload.stop_us";

/// Percentiles of the pooled figures: (name part, p).
pub const POOLED_PERCENTILES: [(&str, f64); 4] =
    [("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p999", 99.9)];

/// Scenario keys the pooled figures read from the base; a grid over them is refused.
pub(super) const POOLED_BASE_KEYS: [&str; 3] = [
    "report.fct_bins_bytes",
    "measure_from_us",
    "workload.stop_us",
];

/// A number of the base scenario at `path` (`a.b`), if there.
fn base_num(file: &SweepFile, path: &str) -> Option<f64> {
    let mut v: Option<&toml::Value> = None;
    for (i, k) in path.split('.').enumerate() {
        v = if i == 0 { file.base.get(k) } else { v?.get(k) };
    }
    v.and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
}

/// Column `name`'s index in `head`, or an error naming the file.
fn col(p: &Path, head: &csv::StringRecord, name: &str) -> Result<usize> {
    head.iter()
        .position(|h| h == name)
        .ok_or_else(|| Error::file(p, format!("no column {name:?}")))
}

/// One point's values to pool: per size bin (in `bins` order) the completed flows' slowdowns,
/// and per switch (in order of appearance) the summed monitored queue per sample, KB.
type PointPool = (Vec<Vec<f64>>, Vec<(String, Vec<f64>)>);

/// Read one point's pooled values from its algorithm's directory `adir`.
fn point_pool(adir: &Path, bins: &[(u64, u64, String)], window: (f64, f64)) -> Result<PointPool> {
    let mut sl = vec![Vec::new(); bins.len()];
    let p = adir.join("flows.csv");
    let mut r = csv::Reader::from_path(&p).map_err(Error::at(&p))?;
    let head = r.headers().map_err(Error::at(&p))?.clone();
    let (ci, cs) = (col(&p, &head, "size_bytes")?, col(&p, &head, "slowdown")?);
    let bad = |c: &str, v: &str| Error::file(&p, format!("column {c}: {v:?} is not a number"));
    for rec in r.records() {
        let rec = rec.map_err(Error::at(&p))?;
        let (size, slow) = (&rec[ci], &rec[cs]);
        let size: u64 = size.parse().map_err(|_| bad("size_bytes", size))?;
        if size == 0 || slow.is_empty() {
            continue; // a long-lived flow, or one that did not complete
        }
        let slow: f64 = slow.parse().map_err(|_| bad("slowdown", slow))?;
        if let Some(b) = bins.iter().position(|b| size >= b.0 && size < b.1) {
            sl[b].push(slow);
        }
    }
    let mut buf: Vec<(String, Vec<f64>)> = Vec::new();
    let p = adir.join("port_series.csv");
    let mut r = csv::Reader::from_path(&p).map_err(Error::at(&p))?;
    let head = r.headers().map_err(Error::at(&p))?.clone();
    let (ct, cp, cq) = (
        col(&p, &head, "t_us")?,
        col(&p, &head, "port")?,
        col(&p, &head, "queue_bytes")?,
    );
    let bad = |c: &str, v: &str| Error::file(&p, format!("column {c}: {v:?} is not a number"));
    // Rows are sample-major: a switch's sum for one sample is added to while t stays the same.
    let mut last_t: Option<f64> = None;
    let mut fresh: Vec<bool> = Vec::new();
    for rec in r.records() {
        let rec = rec.map_err(Error::at(&p))?;
        let t: f64 = rec[ct].parse().map_err(|_| bad("t_us", &rec[ct]))?;
        if t <= window.0 || t > window.1 {
            continue;
        }
        if last_t != Some(t) {
            last_t = Some(t);
            fresh = vec![true; buf.len()];
        }
        let q: f64 = rec[cq].parse().map_err(|_| bad("queue_bytes", &rec[cq]))?;
        let sw = rec[cp].split("->").next().unwrap_or_default();
        let i = match buf.iter().position(|(n, _)| n == sw) {
            Some(i) => i,
            None => {
                buf.push((sw.to_string(), Vec::new()));
                fresh.push(true);
                buf.len() - 1
            }
        };
        if fresh[i] {
            fresh[i] = false;
            buf[i].1.push(0.0);
        }
        *buf[i].1.last_mut().expect("pushed") += q / 1000.0;
    }
    Ok((sl, buf))
}

/// The pooled figures of one group's points ([`POOLED_METHOD`]): (figure, values pooled,
/// pooled value). Points whose algorithm directory has no `flows.csv` (no per-run files)
/// give none.
pub(super) fn pooled_figures(
    dir: &Path,
    file: &SweepFile,
    points: &[&super::Point],
) -> Result<Vec<(String, usize, Option<f64>)>> {
    let edges: Vec<u64> = match file
        .base
        .get("report")
        .and_then(|r| r.get("fct_bins_bytes"))
    {
        Some(v) => v
            .as_array()
            .map(|a| a.iter().filter_map(|x| x.as_integer()).map(|x| x as u64))
            .into_iter()
            .flatten()
            .collect(),
        None => crate::scenario::Report::default().fct_bins_bytes,
    };
    let bins = crate::metrics::size_bins(&edges);
    let from = base_num(file, "measure_from_us").unwrap_or(0.0);
    let to = base_num(file, "workload.stop_us")
        .or_else(|| base_num(file, "duration_us"))
        .unwrap_or(f64::INFINITY);
    let mut slow: Vec<Vec<Vec<f64>>> = vec![Vec::new(); bins.len()];
    let mut buf: Vec<(String, Vec<Vec<f64>>)> = Vec::new();
    for p in points {
        let adir = SweepFile::point_dir(dir, p).join(&p.algorithm);
        if !adir.join("flows.csv").is_file() {
            continue;
        }
        let (sl, b) = point_pool(&adir, &bins, (from, to))?;
        for (all, v) in slow.iter_mut().zip(sl) {
            all.push(v);
        }
        for (sw, v) in b {
            match buf.iter_mut().find(|(n, _)| *n == sw) {
                Some((_, all)) => all.push(v),
                None => buf.push((sw, vec![v])),
            }
        }
    }
    let mut out = Vec::new();
    let mut add = |what: &str, key: &str, runs: &[Vec<f64>]| {
        if runs.is_empty() {
            return;
        }
        let rs: Vec<&[f64]> = runs.iter().map(Vec::as_slice).collect();
        let n = rs.iter().map(|r| r.len()).sum();
        for (pn, p) in POOLED_PERCENTILES {
            let v = stats::pooled_percentile(&rs, p);
            out.push((format!("pooled_{what}_{pn}[{key}]"), n, v));
        }
    };
    for ((_, _, label), runs) in bins.iter().zip(&slow) {
        add("slowdown", label, runs);
    }
    for (sw, runs) in &buf {
        add("buffer_kb", sw, runs);
    }
    Ok(out)
}
