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
    switch's summed monitored queues per sample in measure_from_us < t <= workload.stop_us, and \
    (binmax, with report.buffer_bin_us) the largest such sample of each full bin of that width";

/// Percentiles of the pooled figures: (name part, p).
pub const POOLED_PERCENTILES: [(&str, f64); 4] =
    [("p50", 50.0), ("p90", 90.0), ("p99", 99.0), ("p999", 99.9)];

/// Scenario keys the pooled figures read from the base; a grid over them is refused.
pub(super) const POOLED_BASE_KEYS: [&str; 4] = [
    "report.fct_bins_bytes",
    "measure_from_us",
    "workload.stop_us",
    "report.buffer_bin_us",
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
/// and per switch (in order of appearance) the summed monitored queue per sample, (t µs, KB).
type PointPool = (Vec<Vec<f64>>, Vec<(String, Vec<(f64, f64)>)>);

/// The largest sample of each full bin: bin k is `from + k·width < t <= from + (k+1)·width`,
/// full when it ends by `to`; a bin without a sample gives nothing. `samples` are (t, value)
/// in time order. The PowerTCP artifact reports a ToR's buffer occupancy so
/// (`powertcp-evaluation-workload.cc`, `printBuffer`: the largest of each 100 samples).
pub(super) fn bin_maxima(samples: &[(f64, f64)], from: f64, to: f64, width: f64) -> Vec<f64> {
    let mut out = Vec::new();
    let mut cur: Option<(f64, f64)> = None; // (bin index, max so far)
    for &(t, v) in samples {
        let k = ((t - from) / width).ceil() - 1.0;
        if !(k >= 0.0 && from + (k + 1.0) * width <= to) {
            continue;
        }
        cur = match cur {
            Some((ck, m)) if ck == k => Some((k, m.max(v))),
            Some((_, m)) => {
                out.push(m);
                Some((k, v))
            }
            None => Some((k, v)),
        };
    }
    out.extend(cur.map(|(_, m)| m));
    out
}

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
    let mut buf: Vec<(String, Vec<(f64, f64)>)> = Vec::new();
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
            buf[i].1.push((t, 0.0));
        }
        buf[i].1.last_mut().expect("pushed").1 += q / 1000.0;
    }
    Ok((sl, buf))
}

/// Points of a pooled CDF plot per pooled buffer figure ([`stats::cdf_points`]).
pub const CDF_POINTS: usize = 500;

/// One group's pooled figures: (figure, values pooled, pooled value), and for each switch's
/// buffer figures (`buffer_kb[SWITCH]`, `buffer_binmax_kb[SWITCH]`) its pooled CDF's points.
pub(super) type GroupPool = (
    Vec<(String, usize, Option<f64>)>,
    Vec<(String, Vec<(f64, f64)>)>,
);

/// The pooled figures of one group's points ([`POOLED_METHOD`]) and the buffer figures' CDFs.
/// Points whose algorithm directory has no `flows.csv` (no per-run files) give none.
pub(super) fn pooled_figures(
    dir: &Path,
    file: &SweepFile,
    points: &[&super::Point],
) -> Result<GroupPool> {
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
    let bin_us = base_num(file, "report.buffer_bin_us").unwrap_or(0.0);
    let mut buf: Vec<(String, Vec<Vec<f64>>)> = Vec::new();
    let mut binmax: Vec<(String, Vec<Vec<f64>>)> = Vec::new();
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
            let put = |dst: &mut Vec<(String, Vec<Vec<f64>>)>, v: Vec<f64>| match dst
                .iter_mut()
                .find(|(n, _)| *n == sw)
            {
                Some((_, all)) => all.push(v),
                None => dst.push((sw.clone(), vec![v])),
            };
            if bin_us > 0.0 {
                put(&mut binmax, bin_maxima(&v, from, to, bin_us));
            }
            put(&mut buf, v.into_iter().map(|(_, q)| q).collect());
        }
    }
    let mut out = Vec::new();
    let mut cdfs = Vec::new();
    let mut add = |what: &str, key: &str, runs: &[Vec<f64>], cdf: bool| {
        if runs.is_empty() {
            return;
        }
        let rs: Vec<&[f64]> = runs.iter().map(Vec::as_slice).collect();
        let n = rs.iter().map(|r| r.len()).sum();
        for (pn, p) in POOLED_PERCENTILES {
            let v = stats::pooled_percentile(&rs, p);
            out.push((format!("pooled_{what}_{pn}[{key}]"), n, v));
        }
        if cdf {
            let all: Vec<f64> = rs.concat();
            cdfs.push((
                format!("{what}[{key}]"),
                stats::cdf_points(&all, CDF_POINTS),
            ));
        }
    };
    for ((_, _, label), runs) in bins.iter().zip(&slow) {
        add("slowdown", label, runs, false);
    }
    for (sw, runs) in &buf {
        add("buffer_kb", sw, runs, true);
    }
    for (sw, runs) in &binmax {
        add("buffer_binmax_kb", sw, runs, true);
    }
    Ok((out, cdfs))
}

#[cfg(test)]
mod tests {
    use super::bin_maxima;

    /// Bins of width 10 from 0 in a window ending at 35: (0, 10], (10, 20], (20, 30]; the
    /// samples at 0 (outside the window) and 32 (in the partial bin (30, 40]) count nowhere;
    /// (10, 20] has no sample and gives nothing. Expected maxima by hand.
    #[test]
    fn bin_maxima_cases() {
        let s = [
            (0.0, 99.0),
            (2.0, 1.0),
            (5.0, 4.0),
            (10.0, 3.0),
            (21.0, 2.0),
            (30.0, 6.0),
            (32.0, 50.0),
        ];
        let cases: [(f64, f64, f64, &[f64]); 4] = [
            (0.0, 35.0, 10.0, &[4.0, 6.0]),
            // One bin over the whole window: its maximum, 32 included.
            (0.0, 35.0, 35.0, &[50.0]),
            // The window starts at 5: (5, 15] holds 10 only, (15, 25] 21, (25, 35] 30 and 32.
            (5.0, 35.0, 10.0, &[3.0, 2.0, 50.0]),
            // A width above the window: no full bin.
            (0.0, 35.0, 40.0, &[]),
        ];
        for (from, to, w, want) in cases {
            assert_eq!(
                bin_maxima(&s, from, to, w),
                want,
                "from {from} to {to} width {w}"
            );
        }
    }
}
