//! A figure's fresh value, from the CSV files a run writes (Documentation/results/README.md,
//! "What a run writes"): the same text `sim` writes, so a reader checks a page by opening the
//! file the figure names.

use super::block::{Figure, Stat};
use std::collections::BTreeMap;

/// A run's files: path relative to the run directory -> contents.
pub type Files = BTreeMap<String, String>;

/// The columns that identify a row of each file (joined by `:` in a figure's key).
fn key_columns(file: &str) -> Result<&'static [&'static str], String> {
    let base = file.rsplit('/').next().unwrap_or(file);
    Ok(match base {
        "summary.csv" => &["algorithm"],
        "fct_bins.csv" => &["algorithm", "size_bin"],
        "ports.csv" => &["algorithm", "port"],
        "flows.csv" | "flow_series.csv" | "credits.csv" => &["flow"],
        "port_series.csv" | "eq1_bounds.csv" => &["port"],
        "network_series.csv" => &[],
        _ => return Err(format!("no such output file: {file}")),
    })
}

/// The figure's value in `files`; `Ok(None)`: undefined (an empty field, or no row meets a
/// time statistic).
pub fn fresh(f: &Figure, files: &Files) -> Result<Option<f64>, String> {
    let text = files
        .get(&f.file)
        .ok_or_else(|| format!("the run wrote no {}", f.file))?;
    let keys = key_columns(&f.file)?;
    if keys.is_empty() && f.key != "*" {
        return Err(format!("{} has no key column: use *", f.file));
    }
    let mut rd = csv::Reader::from_reader(text.as_bytes());
    let head = rd.headers().map_err(|e| e.to_string())?.clone();
    let col = |name: &str| {
        head.iter()
            .position(|h| h == name)
            .ok_or_else(|| format!("{} has no column {name}", f.file))
    };
    let key_idx: Vec<usize> = keys.iter().map(|k| col(k)).collect::<Result<_, _>>()?;
    let c = col(&f.column)?;
    let t_idx = match f.window {
        Some(_) => Some(col("t_us")?),
        None => None,
    };
    let num = |s: &str| -> Result<Option<f64>, String> {
        if s.is_empty() {
            Ok(None)
        } else {
            s.parse()
                .map(Some)
                .map_err(|_| format!("{}: not a number: {s}", f.column))
        }
    };
    // (t_us, value) of the selected rows, in file order.
    let mut rows: Vec<(f64, Option<f64>)> = Vec::new();
    for rec in rd.records() {
        let rec = rec.map_err(|e| e.to_string())?;
        if f.key != "*" {
            let k: Vec<&str> = key_idx.iter().map(|&i| &rec[i]).collect();
            if k.join(":") != f.key {
                continue;
            }
        }
        let t = match t_idx {
            Some(i) => num(&rec[i])?.unwrap_or(f64::NAN),
            None => 0.0,
        };
        if let Some((a, b)) = f.window {
            // A sample at t covers (t - sample_us, t]: the window keeps those ending in (a, b].
            if !(t > a && t <= b) {
                continue;
            }
        }
        rows.push((t, num(&rec[c])?));
    }
    if rows.is_empty() {
        return Err(format!("no row of {} has key {}", f.file, f.key));
    }
    let Some(stat) = f.stat else {
        return match rows.as_slice() {
            [(_, v)] => Ok(*v),
            _ => Err(format!(
                "{} rows of {} have key {}: add a statistic",
                rows.len(),
                f.file,
                f.key
            )),
        };
    };
    let from = f.window.map_or(0.0, |w| w.0);
    let defined: Vec<f64> = rows.iter().filter_map(|r| r.1).collect();
    let fold = |init: f64, g: fn(f64, f64) -> f64| {
        (!defined.is_empty()).then(|| defined.iter().copied().fold(init, g))
    };
    Ok(match stat {
        Stat::Min => fold(f64::INFINITY, f64::min),
        Stat::Max => fold(f64::NEG_INFINITY, f64::max),
        Stat::Mean => fold(0.0, |a, b| a + b).map(|s| s / defined.len() as f64),
        Stat::Sum => fold(0.0, |a, b| a + b),
        Stat::Spread => fold(f64::NEG_INFINITY, f64::max)
            .zip(fold(f64::INFINITY, f64::min))
            .map(|(hi, lo)| hi - lo),
        Stat::FirstAtLeast(x) => rows
            .iter()
            .find(|r| r.1.is_some_and(|v| v >= x))
            .map(|r| r.0 - from),
        Stat::SettledAtMost(x) => {
            let mut since = None;
            for &(t, v) in &rows {
                if v.is_some_and(|v| v <= x) {
                    since.get_or_insert(t);
                } else {
                    since = None;
                }
            }
            since.map(|t| t - from)
        }
    })
}
