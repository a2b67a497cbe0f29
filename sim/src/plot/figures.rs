//! The simulator's standard figures of a scenario's runs ([`standard`]): per algorithm its
//! goodput (`throughput_<alg>`: the total, and the traced flows as lines or, above
//! [`MAX_FLOW_LINES`], as a distribution), and across algorithms (or across the saved runs
//! `sim compare` overlays) `jain`, `total_throughput`, `queue`, `start_finish` and
//! `fct_p99_slowdown` (size bins as categories).

use super::data::RunData;
use super::{paper, Figure, Mark, Panel, Series, XAxis};
use crate::stats::percentile_sorted;

/// More traced flows than this are drawn as a distribution (median, p10-p90, min-max).
pub const MAX_FLOW_LINES: usize = 8;

/// The time axis for a run of `span_us`: its unit (µs up to 5 ms, else ms) and the factor
/// from µs.
pub fn time_unit(span_us: f64) -> (&'static str, f64) {
    if span_us <= 5_000.0 {
        ("µs", 1.0)
    } else {
        ("ms", 1e-3)
    }
}

/// A file-name-safe form of a label.
pub fn file_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// What to draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Which {
    /// A scenario's own figures (per-algorithm throughput included).
    Run,
    /// Overlays of several runs (no per-run figures).
    Compare,
}

/// The standard figures of `runs` (one per algorithm, or per saved run and algorithm) of
/// scenario `scenario`.
pub fn standard(scenario: &str, runs: &[RunData], which: Which) -> Vec<Figure> {
    let span = runs.iter().map(|r| r.span_us).fold(0.0, f64::max);
    let (unit, k) = time_unit(span);
    let time = XAxis::Value {
        desc: format!("time ({unit})"),
        range: Some((0.0, span * k)),
    };
    let mut figs = Vec::new();
    if which == Which::Run {
        for r in runs {
            figs.push(throughput(scenario, r));
        }
    }
    let per_run = |f: &dyn Fn(&RunData) -> Vec<(f64, f64)>| -> Vec<Series> {
        runs.iter()
            .enumerate()
            .map(|(i, r)| {
                let mark = if r.dashed {
                    Mark::Dashed { color: i, width: 2 }
                } else {
                    Mark::Line { color: i }
                };
                Series::new(r.label.clone(), mark, f(r))
            })
            .collect()
    };
    let labels: Vec<&str> = runs.iter().map(|r| r.label.as_str()).collect();
    figs.push(Figure {
        file: "jain".into(),
        title: format!("{scenario}: Jain index of the flows active for a whole sample"),
        x: time.clone(),
        panels: vec![Panel {
            y_desc: "Jain index".into(),
            y_floor: Some(0.0),
            series: per_run(&|r| {
                r.t_us
                    .iter()
                    .zip(&r.jain)
                    .zip(&r.active)
                    .map(|((&t, &j), &n)| (t * k, if n >= 2 { j } else { f64::NAN }))
                    .collect()
            }),
        }],
    });
    let mut total = per_run(&|r| {
        r.t_us
            .iter()
            .zip(&r.total_gbps)
            .map(|(&t, &g)| (t * k, g))
            .collect()
    });
    total.extend(paper::series(scenario, "total_throughput", 0, &labels));
    figs.push(Figure {
        file: "total_throughput".into(),
        title: format!("{scenario}: total goodput"),
        x: time.clone(),
        panels: vec![Panel {
            y_desc: "Gbit/s".into(),
            y_floor: Some(0.0),
            series: total,
        }],
    });
    if let Some(port) = runs.iter().find_map(|r| r.port.clone()) {
        figs.push(Figure {
            file: "queue".into(),
            title: format!("{scenario}: queue at {port} (largest per sample)"),
            x: time.clone(),
            panels: vec![Panel {
                y_desc: "queue (KB)".into(),
                y_floor: Some(0.0),
                series: per_run(&|r| {
                    r.t_us
                        .iter()
                        .zip(&r.queue_max_kb)
                        .map(|(&t, &q)| (t * k, q))
                        .collect()
                }),
            }],
        });
    }
    let finite = runs
        .iter()
        .map(|r| r.flows.iter().filter(|f| f.size_bytes > 0).count())
        .max()
        .unwrap_or(0);
    if (1..=256).contains(&finite) {
        let series = runs
            .iter()
            .enumerate()
            .map(|(i, r)| {
                Series::new(
                    r.label.clone(),
                    Mark::Points { color: i },
                    r.flows
                        .iter()
                        .filter_map(|f| f.finish_us.map(|t| (f.start_us * k, t * k)))
                        .collect(),
                )
            })
            .collect();
        figs.push(Figure {
            file: "start_finish".into(),
            title: format!("{scenario}: finish time against start time, per flow"),
            x: XAxis::Value {
                desc: format!("start ({unit})"),
                range: None,
            },
            panels: vec![Panel {
                y_desc: format!("finish ({unit})"),
                y_floor: None,
                series,
            }],
        });
    }
    if let Some(f) = fct_bins(scenario, runs) {
        figs.push(f);
    }
    figs
}

/// `throughput_<alg>`: the total (black, thick) over the run, and the traced flows below it.
fn throughput(scenario: &str, r: &RunData) -> Figure {
    let (unit, k) = time_unit(r.span_us);
    let ts: Vec<f64> = r.t_us.iter().map(|t| t * k).collect();
    let mut top = vec![Series::new(
        "total (all flows)",
        Mark::Total,
        ts.iter()
            .copied()
            .zip(r.total_gbps.iter().copied())
            .collect(),
    )];
    top.extend(paper::series(scenario, "throughput", 0, &[&r.label]));
    let mut panels = vec![Panel {
        y_desc: "total Gbit/s".into(),
        y_floor: Some(0.0),
        series: top,
    }];
    let n = r.flow_gbps.len();
    let what = match n {
        0 => "total; no flow traced".to_string(),
        n if n <= MAX_FLOW_LINES => format!("total and {n} traced flows"),
        n => format!("total and {n} traced flows: median, p10-p90, min-max"),
    };
    if n > 0 {
        let mut flows = if n <= MAX_FLOW_LINES {
            r.flow_gbps
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    Series::new(
                        format!("flow {i}"),
                        Mark::Line { color: i },
                        ts.iter().copied().zip(v.iter().copied()).collect(),
                    )
                })
                .collect()
        } else {
            distribution(&ts, &r.flow_gbps, DIST_BINS)
        };
        flows.extend(paper::series(scenario, "throughput", 1, &[&r.label]));
        let y_desc = if n <= MAX_FLOW_LINES || ts.len() <= DIST_BINS {
            "per flow Gbit/s".to_string()
        } else {
            // The samples each group of `distribution` averages.
            let per = ts.len().div_ceil(DIST_BINS);
            let w = per as f64 * r.span_us / ts.len() as f64;
            let (u, f) = if w < 1000.0 {
                ("µs", 1.0)
            } else {
                ("ms", 1e-3)
            };
            format!(
                "per flow Gbit/s (means over {} {u})",
                super::render::tick(w * f)
            )
        };
        panels.push(Panel {
            y_desc,
            y_floor: Some(0.0),
            series: flows,
        });
    }
    Figure {
        file: format!("throughput_{}", file_safe(&r.label)),
        title: format!("{scenario}: goodput of {} ({what})", r.label),
        x: XAxis::Value {
            desc: format!("time ({unit})"),
            range: Some((0.0, r.span_us * k)),
        },
        panels,
    }
}

/// At most this many points in a distribution of many flows: each flow's goodput is averaged
/// over the samples of a bin first (one sample of a flow sending in bursts is all or nothing).
pub const DIST_BINS: usize = 100;

/// Many flows' series as their distribution, per group of samples (at most `bins` groups;
/// each flow's mean over the group): the p10-p90 band, the median and the min-max envelope.
pub fn distribution(ts: &[f64], flows: &[Vec<f64>], bins: usize) -> Vec<Series> {
    let per = ts.len().div_ceil(bins.max(1)).max(1);
    let mut q: [Vec<(f64, f64)>; 5] = Default::default();
    for (g, chunk) in ts.chunks(per).enumerate() {
        let t = *chunk.last().expect("chunks are not empty");
        let range = g * per..g * per + chunk.len();
        let mut v: Vec<f64> = flows
            .iter()
            .filter_map(|f| {
                let xs: Vec<f64> = f
                    .get(range.clone())?
                    .iter()
                    .copied()
                    .filter(|x| x.is_finite())
                    .collect();
                (!xs.is_empty()).then(|| xs.iter().sum::<f64>() / xs.len() as f64)
            })
            .collect();
        v.sort_by(|a, b| a.total_cmp(b));
        for (j, p) in [0.0, 10.0, 50.0, 90.0, 100.0].into_iter().enumerate() {
            q[j].push((t, percentile_sorted(&v, p).unwrap_or(f64::NAN)));
        }
    }
    let [min, p10, med, p90, max] = q;
    vec![
        Series::new(
            format!("p10-p90 of {} flows", flows.len()),
            Mark::Band { color: 0, hi: p90 },
            p10,
        ),
        Series::new("min, max", Mark::Dashed { color: 0, width: 1 }, min),
        Series {
            name: None,
            mark: Mark::Dashed { color: 0, width: 1 },
            pts: max,
        },
        Series::new("median", Mark::Line { color: 0 }, med),
    ]
}

/// A goodput figure of named flows whose points sit on a common grid of `step` (e.g. the VM
/// harness' 100 ms bins; a flow may lack some): the total per grid point (black, thick) over
/// `x` = (its label, the span), and below it the flows as lines, or as their distribution
/// beyond [`MAX_FLOW_LINES`] (a flow without a point at a time is not in that time's).
pub fn goodput_figure(
    file: &str,
    title: &str,
    x: (&str, f64),
    unit: &str,
    flows: &[(String, Vec<(f64, f64)>)],
    step: f64,
) -> Figure {
    let key = |t: f64| (t / step).round() as i64;
    let mut grid: Vec<i64> = flows
        .iter()
        .flat_map(|(_, p)| p.iter().map(|&(t, _)| key(t)))
        .collect();
    grid.sort_unstable();
    grid.dedup();
    let ts: Vec<f64> = grid.iter().map(|&k| k as f64 * step).collect();
    let aligned: Vec<Vec<f64>> = flows
        .iter()
        .map(|(_, pts)| {
            let mut v = vec![f64::NAN; ts.len()];
            for &(t, y) in pts {
                if let Ok(i) = grid.binary_search(&key(t)) {
                    v[i] = y;
                }
            }
            v
        })
        .collect();
    let total: Vec<(f64, f64)> = ts
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let vals = aligned.iter().map(|f| f[i]).filter(|y| y.is_finite());
            (t, vals.sum())
        })
        .collect();
    let n = flows.len();
    let lines = if n <= MAX_FLOW_LINES {
        flows
            .iter()
            .enumerate()
            .map(|(i, (name, pts))| Series::new(name.clone(), Mark::Line { color: i }, pts.clone()))
            .collect()
    } else {
        distribution(&ts, &aligned, ts.len())
    };
    Figure {
        file: file.into(),
        title: title.into(),
        x: XAxis::Value {
            desc: x.0.into(),
            range: Some((0.0, x.1)),
        },
        panels: vec![
            Panel {
                y_desc: format!("total {unit}"),
                y_floor: Some(0.0),
                series: vec![Series::new("total (all flows)", Mark::Total, total)],
            },
            Panel {
                y_desc: format!("per flow {unit}"),
                y_floor: Some(0.0),
                series: lines,
            },
        ],
    }
}

/// `fct_p99_slowdown`: the p99 slowdown per size bin, bins as categories, one bar per run.
fn fct_bins(scenario: &str, runs: &[RunData]) -> Option<Figure> {
    let with_bins = runs
        .iter()
        .find(|r| r.bins.iter().filter(|b| b.flows > 0).count() > 1)?;
    let names: Vec<String> = with_bins.bins.iter().map(|b| b.label.clone()).collect();
    let series = runs
        .iter()
        .enumerate()
        .map(|(i, r)| {
            Series::new(
                r.label.clone(),
                Mark::Bars { color: i },
                r.bins
                    .iter()
                    .filter_map(|b| {
                        let x = names.iter().position(|n| *n == b.label)?;
                        b.p99.map(|v| (x as f64, v))
                    })
                    .collect(),
            )
        })
        .collect();
    Some(Figure {
        file: "fct_p99_slowdown".into(),
        title: format!("{scenario}: p99 FCT slowdown (FCT / ideal FCT) per flow size"),
        x: XAxis::Categories {
            desc: "flow size".into(),
            names,
        },
        panels: vec![Panel {
            y_desc: "p99 slowdown".into(),
            y_floor: Some(0.0),
            series,
        }],
    })
}
