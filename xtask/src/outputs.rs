//! What becomes of a scenario run's series: the table (medians over trials with their
//! spread), CSV and JSON under `results/vm/<scenario>/`, and plots (PNG and SVG) drawn with
//! the simulator's plotting code (`rdcc_sim::plot`).

use crate::scenario::Scenario;
use crate::series::{
    flow_fct, spread, throughput_bins, FlowInfo, Pass, Spread, TrialStats, LATE_START_S,
};
use rdcc_sim::metrics::{fct_by_size, FctBin};
use rdcc_sim::stats::{cdf_points, percentile};
use rdcc_sim::text_table::{render, Cell, Col};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub fn path_label(sc: &Scenario, engine: &str) -> String {
    let p = &sc.path;
    let mut s = if p.delay_us < 1000 {
        format!("{engine}, {} Mbit/s, {} us", p.rate_mbit, p.delay_us)
    } else {
        format!(
            "{engine}, {} Mbit/s, {} ms",
            p.rate_mbit,
            p.delay_us as f64 / 1000.0
        )
    };
    if p.ecn_k_pkts > 0 {
        let _ = write!(s, ", ECN K={}", p.ecn_k_pkts);
    } else {
        let _ = write!(s, ", drop-tail {} pkts", p.queue_pkts);
    }
    if p.loss_pct > 0.0 {
        let _ = write!(s, ", {}% loss", p.loss_pct);
    }
    if p.hops > 1 {
        let _ = write!(s, ", {} hops", p.hops);
    }
    if p.int {
        s.push_str(", INT");
    }
    s
}

fn fmt_spread(s: Option<Spread>, scale: f64, prec: usize) -> String {
    match s {
        None => "-".into(),
        Some(s) if s.n == 1 => format!("{:.*}", prec, s.median * scale),
        Some(s) => format!(
            "{:.*} [{:.*}-{:.*}]",
            prec,
            s.median * scale,
            prec,
            s.min * scale,
            prec,
            s.max * scale
        ),
    }
}

fn col<F: Fn(&TrialStats) -> Option<f64>>(p: &Pass, f: F) -> Option<Spread> {
    spread(&p.stats.iter().filter_map(f).collect::<Vec<_>>())
}

/// The table: one row per pass, medians over trials with [min-max].
pub fn table(sc: &Scenario, passes: &[Pass]) -> String {
    // Microsecond paths (the datacenter regime) in us and FCTs to the us, the others in ms.
    let us = sc.path.delay_us < 1000;
    let (t_scale, t_prec, fct_prec) = if us { (1.0, 0, 3) } else { (1e-3, 1, 0) };
    let hdr = if us {
        [
            "algorithm",
            "trials",
            "goodput Mbit/s",
            "% of rate",
            "Jain",
            "sRTT p50 us",
            "sRTT p99 us",
            "RTT p99 us (law)",
            "queue pkts",
            "CE marks",
            "retrans",
            "FCT p50/p99 ms",
        ]
    } else {
        [
            "algorithm",
            "trials",
            "goodput Mbit/s",
            "% of rate",
            "Jain",
            "sRTT p50 ms",
            "sRTT p99 ms",
            "RTT p99 ms (law)",
            "queue pkts",
            "CE marks",
            "retrans",
            "FCT p50/p99 ms",
        ]
    };
    let rate = sc.path.rate_mbit as f64;
    let rows: Vec<Vec<String>> = passes
        .iter()
        .map(|p| {
            let fcts: Vec<f64> = p.stats.iter().flat_map(|s| s.fct_ms.clone()).collect();
            vec![
                p.algo.clone(),
                p.stats.len().to_string(),
                fmt_spread(col(p, |s| Some(s.tput_mbit)), 1.0, 1),
                fmt_spread(col(p, |s| Some(s.tput_mbit)), 100.0 / rate, 0),
                fmt_spread(col(p, |s| s.jain), 1.0, 3),
                fmt_spread(col(p, |s| s.srtt_p50_us), t_scale, t_prec),
                fmt_spread(col(p, |s| s.srtt_p99_us), t_scale, t_prec),
                fmt_spread(col(p, |s| s.rtt_p99_us), t_scale, t_prec),
                fmt_spread(col(p, |s| s.queue_mean_pkts), 1.0, 0),
                fmt_spread(col(p, |s| Some(s.marks as f64)), 1.0, 0),
                fmt_spread(col(p, |s| Some(s.retrans as f64)), 1.0, 0),
                match (percentile(&fcts, 50.0), percentile(&fcts, 99.0)) {
                    (Some(a), Some(b)) => {
                        format!("{a:.fct_prec$}/{b:.fct_prec$} (n={})", fcts.len())
                    }
                    _ => "-".into(),
                },
            ]
        })
        .collect();
    let cols: Vec<Col> = hdr
        .iter()
        .enumerate()
        .map(|(i, h)| if i == 0 { Col::text(h) } else { Col::num(h, 0) })
        .collect();
    let body: Vec<Vec<Cell>> = rows
        .into_iter()
        .map(|r| r.into_iter().map(Cell::from).collect())
        .collect();
    // The figures are text already at their column's decimals (median [min-max]).
    let mut out = render(&cols, &body, true);
    if let Some(t) = fct_bins_table(sc, passes) {
        out.push_str(&t);
    }
    // Flows that started late are named: their figures cover less of the window, and a Jain
    // index over them measures the start, not the law.
    for p in passes {
        for (k, st) in p.stats.iter().enumerate() {
            for (f, d) in &st.late_starts {
                let _ = writeln!(
                    out,
                    "note: {} trial {}: flow {f}'s data began {d:.1} s after its launch \
                     (more than {LATE_START_S} s: a starved sender or a lost first segment)",
                    p.algo,
                    k + 1
                );
            }
        }
    }
    out
}

/// A workload's completion times by flow size, per pass over its trials, in µs: the
/// simulator's bins and statistics (`rdcc_sim::metrics::fct_by_size`, its `fct_bins.csv`), so
/// the two beds' tables compare row by row. None without a `[workload]`.
fn fct_bins(sc: &Scenario, passes: &[Pass]) -> Option<Vec<(String, Vec<FctBin>)>> {
    sc.workload.as_ref()?;
    let edges = rdcc_sim::scenario::Report::default().fct_bins_bytes;
    Some(
        passes
            .iter()
            .map(|p| {
                let fcts: Vec<(u64, f64)> = p
                    .stats
                    .iter()
                    .flat_map(|s| s.fct_bytes.iter().copied().zip(s.fct_ms.iter().copied()))
                    .map(|(b, ms)| (b, ms * 1e3))
                    .collect();
                (p.algo.clone(), fct_by_size(&edges, &fcts))
            })
            .collect(),
    )
}

/// [`fct_bins`] as a text table.
fn fct_bins_table(sc: &Scenario, passes: &[Pass]) -> Option<String> {
    let cols = [
        Col::text("algorithm"),
        Col::text("flow size"),
        Col::num("flows", 0),
        Col::num("FCT p50 us", 1),
        Col::num("FCT p99 us", 1),
    ];
    let mut body: Vec<Vec<Cell>> = Vec::new();
    for (algo, bins) in fct_bins(sc, passes)? {
        for b in bins {
            body.push(vec![
                Cell::from(algo.clone()),
                Cell::from(b.label),
                Cell::from(b.n.to_string()),
                Cell::from(fmt_us(b.p50)),
                Cell::from(fmt_us(b.p99)),
            ]);
        }
    }
    Some(format!(
        "completion times by flow size (the workload's sized flows, every trial):\n{}",
        render(&cols, &body, true)
    ))
}

fn fmt_us(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.1}")
    } else {
        "-".into()
    }
}

fn opt(v: Option<f64>) -> serde_json::Value {
    v.map_or(serde_json::Value::Null, |x| serde_json::json!(x))
}

fn spread_json(s: Option<Spread>) -> serde_json::Value {
    match s {
        None => serde_json::Value::Null,
        Some(s) => {
            serde_json::json!({"median": s.median, "min": s.min, "max": s.max, "trials": s.n})
        }
    }
}

/// Write CSV, JSON and PNG files of a scenario's passes into `dir`; returns the paths.
pub fn write_outputs(
    sc: &Scenario,
    passes: &[Pass],
    dir: &Path,
    label: &str,
) -> Result<Vec<PathBuf>, String> {
    let io = |e: std::io::Error| format!("{}: {e}", dir.display());
    std::fs::create_dir_all(dir).map_err(io)?;
    let mut files = Vec::new();
    // Per pass and trial: the time series.
    for p in passes {
        for (k, tr) in p.trials.iter().enumerate() {
            let base = format!("{}-t{}", p.algo, k + 1);
            let mut acks = String::from("t_s,flow,algo,acked_bytes,cwnd_pkts,srtt_us\n");
            let mut tput = String::from("t_s,flow,algo,mbit_per_s\n");
            let mut dec =
                String::from("t_s,flow,algo,rtt_us,cwnd_bytes,pacing_mbit_per_s,signal,hops\n");
            for f in &tr.flows {
                if let Some(a) = tr.acks.get(&f.idx) {
                    for x in a {
                        let _ = writeln!(
                            acks,
                            "{:.6},{},{},{},{},{}",
                            x.t_s, f.idx, f.algo, x.acked, x.cwnd_pkts, x.srtt_us
                        );
                    }
                    for (t, m) in throughput_bins(a, 0.1) {
                        let _ = writeln!(tput, "{t:.1},{},{},{m:.3}", f.idx, f.algo);
                    }
                }
                if let Some(d) = tr.decisions.get(&f.idx) {
                    let opt = |v: Option<String>| v.unwrap_or_default();
                    for x in d {
                        let _ = writeln!(
                            dec,
                            "{:.6},{},{},{:.1},{:.4},{:.3},{},{}",
                            x.t_s,
                            f.idx,
                            f.algo,
                            x.rtt_us,
                            x.cwnd_bytes,
                            x.pacing_mbit,
                            opt(x.signal.map(|v| v.to_string())),
                            opt(x.hops.map(|v| v.to_string()))
                        );
                    }
                }
            }
            let mut q = String::from("t_s,backlog_bytes,backlog_pkts,dropped,ce_marked\n");
            for x in &tr.queue {
                let _ = writeln!(
                    q,
                    "{:.3},{},{},{},{}",
                    x.t_s, x.bytes, x.pkts, x.drops, x.marks
                );
            }
            let mut fl = String::from(
                "flow,algo,start_ms,size_bytes,app_rc,app_goodput_mbit,retrans,app_bytes,acked_bytes,fct_ms\n",
            );
            for f in &tr.flows {
                let acks = tr.acks.get(&f.idx).map(Vec::as_slice).unwrap_or(&[]);
                let fc = flow_fct(f, acks);
                // app_bytes: what the receiver confirmed; acked_bytes: what the trace saw
                // acknowledged (less when the trace is sampled or lost the flow's end).
                let acked = acks.last().map_or(0, |a| a.acked);
                let _ = writeln!(
                    fl,
                    "{},{},{},{},{},{},{},{},{},{}",
                    f.idx,
                    f.algo,
                    f.start_ms,
                    f.size.map_or(String::new(), |s| s.to_string()),
                    f.rc,
                    f.app_mbit,
                    f.retrans,
                    f.bytes,
                    acked,
                    fc.map_or(String::new(), |t| format!("{:.2}", t * 1e3))
                );
            }
            for (suffix, text) in [
                ("acks", acks),
                ("tput", tput),
                ("decisions", dec),
                ("queue", q),
                ("flows", fl),
            ] {
                let path = dir.join(format!("{base}-{suffix}.csv"));
                std::fs::write(&path, text).map_err(io)?;
                files.push(path);
            }
        }
    }
    // Summary JSON and CSV.
    let rows: Vec<serde_json::Value> = passes
        .iter()
        .map(|p| {
            let fcts: Vec<f64> = p.stats.iter().flat_map(|s| s.fct_ms.clone()).collect();
            serde_json::json!({
                "algo": p.algo,
                "goodput_mbit": spread_json(col(p, |s| Some(s.tput_mbit))),
                "jain": spread_json(col(p, |s| s.jain)),
                "srtt_p50_us": spread_json(col(p, |s| s.srtt_p50_us)),
                "srtt_p99_us": spread_json(col(p, |s| s.srtt_p99_us)),
                "rtt_p50_us_law": spread_json(col(p, |s| s.rtt_p50_us)),
                "rtt_p99_us_law": spread_json(col(p, |s| s.rtt_p99_us)),
                "queue_mean_pkts": spread_json(col(p, |s| s.queue_mean_pkts)),
                "ce_marks": spread_json(col(p, |s| Some(s.marks as f64))),
                "drops": spread_json(col(p, |s| Some(s.drops as f64))),
                "retrans": spread_json(col(p, |s| Some(s.retrans as f64))),
                "fct_p50_ms": opt(percentile(&fcts, 50.0)),
                "fct_p99_ms": opt(percentile(&fcts, 99.0)),
                "trials": p.stats.iter().map(|s| serde_json::json!({
                    "goodput_mbit": s.tput_mbit, "per_flow_mbit": s.per_flow_mbit, "jain": opt(s.jain),
                    "srtt_p50_us": opt(s.srtt_p50_us), "srtt_p99_us": opt(s.srtt_p99_us),
                    "rtt_p50_us_law": opt(s.rtt_p50_us), "rtt_p99_us_law": opt(s.rtt_p99_us),
                    "queue_mean_pkts": opt(s.queue_mean_pkts), "ce_marks": s.marks, "drops": s.drops,
                    "retrans": s.retrans, "fct_ms": s.fct_ms, "ack_samples": s.acks, "decision_samples": s.decisions,
                    "late_starts": s.late_starts.iter().map(|(f, d)| serde_json::json!({"flow": f, "delay_s": d})).collect::<Vec<_>>(),
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let j = serde_json::json!({
        "scenario": sc.name,
        "description": sc.description,
        "path": label,
        "rate_mbit": sc.path.rate_mbit,
        "delay_us": sc.path.delay_us,
        "queue_pkts": sc.path.queue_pkts,
        "ecn_k_pkts": sc.path.ecn_k_pkts,
        "loss_pct": sc.path.loss_pct,
        "hops": sc.path.hops,
        "int": sc.path.int,
        "note": "medians over trials with min and max; sRTT: the kernel's smoothed RTT at every ACK (tcp:tcp_probe), every algorithm; RTT (law): the per-ACK RTT sample our laws act on (tcp_<name>:decision)",
        "passes": rows,
    });
    let path = dir.join("summary.json");
    std::fs::write(&path, serde_json::to_string_pretty(&j).unwrap_or_default()).map_err(io)?;
    files.push(path);
    if let Some(rows) = fct_bins(sc, passes) {
        let mut csv = String::from("algorithm,size_bin,flows_done,fct_p50_us,fct_p99_us\n");
        for (algo, bins) in rows {
            for b in bins {
                let v = |x: f64| {
                    if x.is_finite() {
                        format!("{x:.3}")
                    } else {
                        String::new()
                    }
                };
                let _ = writeln!(csv, "{algo},{},{},{},{}", b.label, b.n, v(b.p50), v(b.p99));
            }
        }
        let path = dir.join("fct_bins.csv");
        std::fs::write(&path, csv).map_err(io)?;
        files.push(path);
    }
    let path = dir.join("summary.txt");
    std::fs::write(
        &path,
        format!("{} ({label})\n{}", sc.name, table(sc, passes)),
    )
    .map_err(io)?;
    files.push(path);
    // The caller (experiment.rs) takes the message.
    files.extend(plots(sc, passes, dir, label).map_err(|e| e.to_string())?);
    Ok(files)
}

/// The plots: per algorithm (trial 1) the total and per-flow goodput, and the window over time; across
/// algorithms the RTT CDF (every trial's per-ACK samples) and the queue over time (trial 1).
fn plots(
    sc: &Scenario,
    passes: &[Pass],
    dir: &Path,
    label: &str,
) -> rdcc_sim::Result<Vec<PathBuf>> {
    use rdcc_sim::plot::figures::goodput_figure;
    use rdcc_sim::plot::{chart, Line};
    let mut files = Vec::new();
    let ntr = |p: &Pass| p.trials.len();
    for p in passes {
        let Some(tr) = p.trials.first() else { continue };
        let flows_line = |f: &FlowInfo, pts: Vec<(f64, f64)>| Line {
            name: format!("flow {} ({})", f.idx, f.algo),
            pts,
        };
        // Goodput per 100 ms bin: the total, and the flows (as their distribution beyond 8).
        let tput: Vec<(String, Vec<(f64, f64)>)> = tr
            .flows
            .iter()
            .filter_map(|f| {
                tr.acks.get(&f.idx).map(|a| {
                    (
                        format!("flow {} ({})", f.idx, f.algo),
                        throughput_bins(a, 0.1),
                    )
                })
            })
            .collect();
        let span = tput
            .iter()
            .flat_map(|(_, p)| p.last().map(|x| x.0 + 0.1))
            .fold(0.0, f64::max);
        let fig = goodput_figure(
            &format!("{}-tput", p.algo),
            &format!(
                "{}: {} goodput /100 ms, trial 1/{} ({label})",
                sc.name,
                p.algo,
                ntr(p)
            ),
            ("time (s)", span),
            "Mbit/s",
            &tput,
            0.1,
        );
        files.extend(fig.write(dir)?);
        // Window: the law's (bytes with fraction, in packets of 1448) where it reports it,
        // else the kernel's snd_cwnd.
        let win: Vec<Line> = tr
            .flows
            .iter()
            .filter_map(|f| match tr.decisions.get(&f.idx) {
                Some(d) if !d.is_empty() => Some(flows_line(
                    f,
                    d.iter().map(|x| (x.t_s, x.cwnd_bytes / 1448.0)).collect(),
                )),
                _ => tr.acks.get(&f.idx).map(|a| {
                    flows_line(f, a.iter().map(|x| (x.t_s, x.cwnd_pkts as f64)).collect())
                }),
            })
            .collect();
        let path = dir.join(format!("{}-cwnd.png", p.algo));
        files.extend(chart(
            &path,
            &format!(
                "{}: {} window, trial 1/{} ({label})",
                sc.name,
                p.algo,
                ntr(p)
            ),
            "time (s)",
            "window (packets of 1448 B)",
            &win,
            Some(0.0),
            false,
        )?);
    }
    // RTT CDF per algorithm: every per-ACK sRTT sample of every trial.
    let cdf: Vec<Line> = passes
        .iter()
        .map(|p| {
            let v: Vec<f64> = p
                .trials
                .iter()
                .flat_map(|t| t.acks.values().flatten().map(|a| a.srtt_us as f64 / 1e3))
                .collect();
            Line {
                name: p.algo.clone(),
                pts: cdf_points(&v, 400),
            }
        })
        .collect();
    let path = dir.join("rtt_cdf.png");
    files.extend(chart(
        &path,
        &format!("{}: per-ACK sRTT CDF, all trials ({label})", sc.name),
        "RTT (ms)",
        "fraction of ACKs",
        &cdf,
        Some(0.0),
        false,
    )?);
    let q: Vec<Line> = passes
        .iter()
        .filter_map(|p| {
            p.trials.first().map(|t| Line {
                name: p.algo.clone(),
                pts: t.queue.iter().map(|x| (x.t_s, x.pkts as f64)).collect(),
            })
        })
        .collect();
    let path = dir.join("queue.png");
    files.extend(chart(
        &path,
        &format!("{}: queue /100 ms, trial 1 ({label})", sc.name),
        "time (s)",
        "backlog (packets)",
        &q,
        Some(0.0),
        false,
    )?);
    Ok(files)
}
