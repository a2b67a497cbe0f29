//! `sim compare DIR1 DIR2 ... --out DIR [--force]`: overlay saved runs, as flent's `-p` over
//! several data files. Every algorithm of every run directory (what `sim` wrote: `summary.csv`,
//! `fct_bins.csv`, `<alg>/{network_series,port_series,flow_series,flows}.csv`, `run.toml`)
//! becomes one series, named `run/algorithm` (`run` = the directory's name, or its path when
//! two share a name), of the standard overlay figures ([`crate::plot::figures::standard`]:
//! `jain`, `total_throughput`, `queue`, `start_finish`, `fct_p99_slowdown`) written as PNG and
//! SVG into `--out`, and one row of one table (`compare.txt`, `compare.csv`, printed): each
//! run's headline numbers and its p99 slowdown per size bin, with the commit it ran at.

use crate::error::{Error, Result};
use crate::plot::data::{algorithms, read_csv, RunData};
use crate::plot::figures::{standard, Which};
use crate::record;
use crate::text_table::{render, Cell, Col};
use clap::Parser;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The command line of `sim compare`.
#[derive(Parser, Debug)]
#[command(
    name = "sim compare",
    about = "Overlay saved runs: one figure per kind over every run's algorithms, and one table",
    after_help = "Example: sim compare results/sim/a results/sim/b --out results/sim/a-vs-b"
)]
pub struct CompareCli {
    /// Output directories of earlier `sim` runs (each with summary.csv and run.toml).
    #[arg(value_name = "RUN_DIR", required = true, num_args = 1..)]
    pub dirs: Vec<PathBuf>,
    /// Where the figures and the table go.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Empty a non-empty output directory first.
    #[arg(long)]
    pub force: bool,
}

/// One run directory's part of the comparison.
struct Saved {
    name: String,
    dir: PathBuf,
    scenario: String,
    commit: String,
}

/// The row of `summary.csv` the table shows (other columns ignored).
#[derive(Deserialize)]
struct Row {
    algorithm: String,
    goodput_gbps: Option<f64>,
    rtt_p50_us: Option<f64>,
    rtt_p99_us: Option<f64>,
    jain_index_mean: Option<f64>,
    bottleneck_queue_p99_kb: Option<f64>,
    dropped_packets: u64,
    finite_flows_done: usize,
    finite_flows: usize,
}

#[derive(Deserialize)]
struct BinRow {
    algorithm: String,
    size_bin: String,
    slowdown_p99: Option<f64>,
}

fn saved(dirs: &[PathBuf]) -> Result<Vec<Saved>> {
    let base = |d: &Path| {
        d.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| d.display().to_string())
    };
    let mut out = Vec::new();
    for d in dirs {
        let name = if dirs.iter().filter(|o| base(o) == base(d)).count() > 1 {
            d.display().to_string()
        } else {
            base(d)
        };
        let rec = d.join(record::RECORD_FILE);
        let text = std::fs::read_to_string(&rec).map_err(Error::at(&rec))?;
        let info =
            record::parse_run_info(&text).map_err(|e| e.context(rec.display().to_string()))?;
        let doc: toml::Table = toml::from_str(&text).map_err(Error::at(&rec))?;
        let scenario = doc
            .get("scenario")
            .and_then(|s| s.get("name"))
            .and_then(|n| n.as_str())
            .unwrap_or("?")
            .to_string();
        let short: String = info.git_commit.chars().take(10).collect();
        let commit = match info.git_dirty {
            Some(true) => format!("{short}+dirty"),
            _ => short,
        };
        out.push(Saved {
            name,
            dir: d.clone(),
            scenario,
            commit,
        });
    }
    Ok(out)
}

fn cell(v: Option<f64>, prec: usize) -> String {
    v.filter(|x| x.is_finite())
        .map_or("-".into(), |x| format!("{x:.prec$}"))
}

/// The table's rows (header first) over the runs.
fn table_rows(runs: &[Saved]) -> Result<Vec<Vec<String>>> {
    let mut bins: Vec<String> = Vec::new();
    let mut p99: BTreeMap<(usize, String, String), Option<f64>> = BTreeMap::new();
    for (i, r) in runs.iter().enumerate() {
        let path = r.dir.join("fct_bins.csv");
        if path.is_file() {
            for b in read_csv::<BinRow>(&path)? {
                if !bins.contains(&b.size_bin) {
                    bins.push(b.size_bin.clone());
                }
                p99.insert((i, b.algorithm, b.size_bin), b.slowdown_p99);
            }
        }
    }
    // Bins no run has a number for are left out.
    bins.retain(|b| p99.iter().any(|((_, _, k), v)| k == b && v.is_some()));
    let mut head: Vec<String> = [
        "run",
        "commit",
        "scenario",
        "algorithm",
        "goodput_gbps",
        "rtt_p50_us",
        "rtt_p99_us",
        "jain_index_mean",
        "bottleneck_queue_p99_kb",
        "dropped_packets",
        "finite_flows_done",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    head.extend(bins.iter().map(|b| format!("slowdown_p99 {b}")));
    let mut rows = vec![head];
    for (i, r) in runs.iter().enumerate() {
        for s in read_csv::<Row>(&r.dir.join("summary.csv"))? {
            let mut row = vec![
                r.name.clone(),
                r.commit.clone(),
                r.scenario.clone(),
                s.algorithm.clone(),
                cell(s.goodput_gbps, 3),
                cell(s.rtt_p50_us, 2),
                cell(s.rtt_p99_us, 2),
                cell(s.jain_index_mean, 4),
                cell(s.bottleneck_queue_p99_kb, 1),
                s.dropped_packets.to_string(),
                format!("{}/{}", s.finite_flows_done, s.finite_flows),
            ];
            for b in &bins {
                let v = p99
                    .get(&(i, s.algorithm.clone(), b.clone()))
                    .copied()
                    .flatten();
                row.push(cell(v, 2));
            }
            rows.push(row);
        }
    }
    Ok(rows)
}

/// The rows (header first, as in `compare.csv`) as aligned text ([`crate::text_table`]): the
/// run, commit, scenario and algorithm as text, the figures (already at their column's
/// decimals) right-aligned; `_us` in a header reads `_µs`.
fn text_table(rows: &[Vec<String>]) -> String {
    let Some((head, body)) = rows.split_first() else {
        return String::new();
    };
    let cols: Vec<Col> = head
        .iter()
        .enumerate()
        .map(|(i, h)| {
            let h = h.replace("_us", "_µs");
            if i < 4 {
                Col::text(&h)
            } else {
                Col::num(&h, 0)
            }
        })
        .collect();
    let cells: Vec<Vec<Cell>> = body
        .iter()
        .map(|r| r.iter().map(|c| Cell::from(c.as_str())).collect())
        .collect();
    render(&cols, &cells, true)
}

/// Compare the runs in `dirs`: figures and the table into `out` (which must be absent or
/// empty); returns the table's text.
pub fn compare(dirs: &[PathBuf], out: &Path) -> Result<String> {
    let runs = saved(dirs)?;
    let mut data = Vec::new();
    for (k, r) in runs.iter().enumerate() {
        for alg in algorithms(&r.dir)? {
            let mut d = RunData::load(&r.dir, &alg, &format!("{}/{alg}", r.name))?;
            d.dashed = k % 2 == 1;
            data.push(d);
        }
    }
    let first = runs.first().map(|r| r.scenario.clone()).unwrap_or_default();
    let title = if runs.iter().all(|r| r.scenario == first) {
        first
    } else {
        "comparison".to_string()
    };
    std::fs::create_dir_all(out).map_err(Error::at(out))?;
    for f in standard(&title, &data, Which::Compare) {
        f.write(out)?;
    }
    let rows = table_rows(&runs)?;
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in &rows {
        w.write_record(r).map_err(|e| Error::encode("csv", e))?;
    }
    let csv_text = String::from_utf8(w.into_inner().map_err(|e| Error::encode("csv", e))?)
        .map_err(|e| Error::encode("csv", e))?;
    let text = text_table(&rows);
    for (name, body) in [("compare.csv", &csv_text), ("compare.txt", &text)] {
        let p = out.join(name);
        std::fs::write(&p, body).map_err(Error::at(&p))?;
    }
    Ok(text)
}

/// `sim compare ARGS` (`args` from the word `compare` on).
pub fn main(args: impl Iterator<Item = String>) -> ExitCode {
    let cli = CompareCli::parse_from(args);
    match record::check_out(&cli.out, cli.force) {
        Ok(true) => {
            if let Err(e) = record::empty_out(&cli.out) {
                eprintln!("sim compare: {e}");
                return ExitCode::FAILURE;
            }
        }
        Ok(false) => {}
        Err(e) => {
            eprintln!("sim compare: error: {e}");
            return ExitCode::from(2);
        }
    }
    for d in &cli.dirs {
        if !d.join("summary.csv").is_file() {
            eprintln!(
                "sim compare: error: {} is not a run's output directory (no summary.csv)",
                d.display()
            );
            return ExitCode::from(2);
        }
    }
    match compare(&cli.dirs, &cli.out) {
        Ok(t) => {
            print!("{t}");
            println!(
                "figures (PNG, SVG), compare.csv and compare.txt in {}",
                cli.out.display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sim compare: {e}");
            ExitCode::FAILURE
        }
    }
}
