//! Summaries of a run and the text table. Floats appear only here and in [`crate::tables`]
//! (statistics and output), never in the controller path. The CSV and JSON files are written
//! by [`crate::tables`].

use crate::engine::RunOutput;
use crate::stats;
use crate::text_table::{render, Cell, Col};

/// Nearest-rank percentile of an ascending slice ([`crate::stats::percentile_sorted`]); NaN
/// when empty (the table and CSV print it as missing).
fn pct(sorted: &[f64], p: f64) -> f64 {
    stats::percentile_sorted(sorted, p).unwrap_or(f64::NAN)
}

/// Slowdown statistics of one flow-size bin.
#[derive(Clone, Debug)]
pub struct BinStat {
    /// Label, e.g. "<10KB".
    pub label: String,
    /// Completed flows in the bin.
    pub n: usize,
    /// Flows in the bin that did not complete.
    pub unfinished: usize,
    /// Median slowdown.
    pub p50: f64,
    /// 99th percentile slowdown.
    pub p99: f64,
    /// 99.9th percentile slowdown.
    pub p999: f64,
    /// Median completion time, µs.
    pub fct_p50_us: f64,
    /// 99th percentile completion time, µs.
    pub fct_p99_us: f64,
}

/// Completion times of one flow-size bin ([`fct_by_size`]).
#[derive(Clone, Debug, PartialEq)]
pub struct FctBin {
    /// Label, as [`size_bins`] names it.
    pub label: String,
    /// Completed flows in the bin.
    pub n: usize,
    /// Median completion time (the unit of the input); NaN for an empty bin.
    pub p50: f64,
    /// 99th percentile (nearest rank); NaN for an empty bin.
    pub p99: f64,
}

/// Completion times by flow size: for each bin of [`size_bins`]`(bins)`, the count and the
/// nearest-rank 50th and 99th percentiles of the completion times of `fcts` ((size bytes,
/// completion time in any one unit)) in it. The simulator's `fct_bins.csv` and the test bed's
/// (`cargo xtask run`) both come from here.
pub fn fct_by_size(bins: &[u64], fcts: &[(u64, f64)]) -> Vec<FctBin> {
    size_bins(bins)
        .into_iter()
        .map(|(lo, hi, label)| {
            let mut v: Vec<f64> = fcts
                .iter()
                .filter(|f| f.0 >= lo && f.0 < hi)
                .map(|f| f.1)
                .collect();
            v.sort_by(|a, b| a.total_cmp(b));
            FctBin {
                label,
                n: v.len(),
                p50: pct(&v, 50.0),
                p99: pct(&v, 99.0),
            }
        })
        .collect()
}

/// Headline numbers of one run.
#[derive(Clone, Debug)]
pub struct Summary {
    /// Algorithm (profile) name.
    pub name: String,
    /// Total goodput in the measurement window, Gbit/s.
    pub goodput_gbps: f64,
    /// The first named bottleneck port's utilization (see `PortSummary::utilization`).
    pub utilization: f64,
    /// RTT mean, µs.
    pub rtt_mean_us: f64,
    /// RTT median, µs.
    pub rtt_p50_us: f64,
    /// RTT 99th percentile, µs.
    pub rtt_p99_us: f64,
    /// Mean Jain index over the measurement window (samples with at least 2 active flows).
    pub jain_mean: f64,
    /// Jain index of the long-lived traced flows' mean goodput over the measurement window.
    pub jain_window: f64,
    /// First time at or after `jain_from` with Jain >= 0.9, µs.
    pub jain09_first_us: Option<f64>,
    /// Earliest time at or after `jain_from` from which Jain stays >= 0.9 while at least two
    /// flows are active and none has finished, µs.
    pub jain09_settled_us: Option<f64>,
    /// Mean queue of the first named bottleneck port in the window, KB.
    pub queue_mean_kb: f64,
    /// 99th percentile of the sampled queue, KB.
    pub queue_p99_kb: f64,
    /// Largest queue (any time), KB.
    pub queue_max_kb: f64,
    /// Packets dropped (data + ACKs).
    pub drops: u64,
    /// Retransmission timeouts.
    pub timeouts: u64,
    /// Completed / total finite flows.
    pub flows_done: usize,
    /// Finite flows.
    pub flows_finite: usize,
    /// Slowdown per size bin.
    pub bins: Vec<BinStat>,
    /// Per named bottleneck port.
    pub ports: Vec<PortSummary>,
    /// PFC pause frames sent.
    pub pfc_pauses: u64,
    /// Time transmitters were paused, summed over all ports, µs.
    pub pfc_paused_us: f64,
}

/// Headline numbers of one named bottleneck port.
#[derive(Clone, Debug)]
pub struct PortSummary {
    /// Port name (`from->to`).
    pub name: String,
    /// Bytes the port put on its link in the measurement window (headers, ACKs and
    /// retransmissions included) over its rate times the window.
    pub utilization: f64,
    /// Mean sampled queue in the window, KB.
    pub queue_mean_kb: f64,
    /// 99th percentile of the sampled queue in the window, KB.
    pub queue_p99_kb: f64,
    /// Largest queue (any time), KB.
    pub queue_max_kb: f64,
    /// Packets dropped at the port.
    pub drops: u64,
    /// Time the port's transmitter was paused by PFC, µs.
    pub paused_us: f64,
}

fn kb(b: f64) -> f64 {
    b / 1000.0
}

/// Human-readable size.
pub fn size_label(b: u64) -> String {
    if b >= 1_000_000 && b % 1_000_000 == 0 {
        format!("{}MB", b / 1_000_000)
    } else if b >= 1000 && b % 1000 == 0 {
        format!("{}KB", b / 1000)
    } else {
        format!("{b}B")
    }
}

/// The FCT size bins of the edges `bins` (bytes, ascending): (lowest size, size above the
/// bin, label), `[0, e0)`, `[e0, e1)`, ..., `[e_last, u64::MAX)`; labels as `fct_bins.csv`
/// prints them (`<10KB`, `10KB-100KB`, `>=1MB`).
pub fn size_bins(bins: &[u64]) -> Vec<(u64, u64, String)> {
    (0..=bins.len())
        .map(|b| {
            let lo = if b == 0 { 0 } else { bins[b - 1] };
            let hi = bins.get(b).copied().unwrap_or(u64::MAX);
            let label = match (b, bins.get(b)) {
                (0, Some(&h)) => format!("<{}", size_label(h)),
                (_, Some(&h)) => format!("{}-{}", size_label(lo), size_label(h)),
                (_, None) => format!(">={}", size_label(lo)),
            };
            (lo, hi, label)
        })
        .collect()
}

/// Summarise `out` for its first profile. `jain_from_ns`: start of the Jain-settling search;
/// `measure_from_ns`: start of the averaging window; `bins`: FCT bin edges in bytes.
pub fn summarize(
    name: &str,
    out: &RunOutput,
    jain_from_ns: u64,
    measure_from_ns: u64,
    bins: &[u64],
) -> Summary {
    let s = &out.series;
    let win: Vec<usize> = (0..s.t_ns.len())
        .filter(|&i| s.t_ns[i] > measure_from_ns)
        .collect();
    let goodput_gbps = if win.is_empty() {
        f64::NAN
    } else {
        win.iter().map(|&i| s.total_bps[i]).sum::<f64>() / win.len() as f64 / 1e9
    };
    let mut rtts: Vec<f64> = out.rtt_ns.iter().map(|&r| r as f64 / 1000.0).collect();
    rtts.sort_by(|a, b| a.total_cmp(b));
    let rtt_mean_us = if rtts.is_empty() {
        f64::NAN
    } else {
        rtts.iter().sum::<f64>() / rtts.len() as f64
    };
    let js: Vec<f64> = win
        .iter()
        .filter(|&&i| s.active[i] >= 2 && s.jain[i].is_finite())
        .map(|&i| s.jain[i])
        .collect();
    let jain_mean = if js.is_empty() {
        f64::NAN
    } else {
        js.iter().sum::<f64>() / js.len() as f64
    };
    let means: Vec<f64> = s
        .flow_bps
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            let f = &out.flows[*i];
            f.spec.size_bytes == 0 && f.spec.start_ns <= measure_from_ns
        })
        .map(|(_, v)| win.iter().map(|&i| v[i]).sum::<f64>() / win.len().max(1) as f64)
        .collect();
    let jain_window = if means.len() >= 2 {
        stats::fairness(&means).unwrap_or(f64::NAN)
    } else {
        f64::NAN
    };
    // Jain settling: samples from jain_from until the first completion (the set of flows
    // changes then) or the end.
    let first_finish = out
        .flows
        .iter()
        .filter_map(|f| f.finish_ns)
        .min()
        .unwrap_or(u64::MAX);
    let idx: Vec<usize> = (0..s.t_ns.len())
        .filter(|&i| s.t_ns[i] >= jain_from_ns && s.t_ns[i] <= first_finish && s.active[i] >= 2)
        .collect();
    let jain09_first_us = idx
        .iter()
        .find(|&&i| s.jain[i] >= 0.9)
        .map(|&i| s.t_ns[i] as f64 / 1000.0);
    let mut settled = None;
    for &i in idx.iter().rev() {
        if s.jain[i] >= 0.9 {
            settled = Some(s.t_ns[i] as f64 / 1000.0);
        } else {
            break;
        }
    }
    let ports: Vec<PortSummary> = (0..out.monitor_names.len())
        .map(|m| {
            let q = &s.queue_bytes[m];
            let mut v: Vec<f64> = win.iter().map(|&i| q[i] as f64).collect();
            v.sort_by(|a, b| a.total_cmp(b));
            let mean = if v.is_empty() {
                f64::NAN
            } else {
                v.iter().sum::<f64>() / v.len() as f64
            };
            let max = s.queue_max_bytes[m].iter().copied().max().unwrap_or(0) as f64;
            // Utilization over the window: tx bytes from the last sample at or before its
            // start to the last sample.
            let utilization = match (win.first(), win.last()) {
                (Some(&a), Some(&b)) if out.monitor_rates[m] > 0 => {
                    let (t0, tx0) = if a == 0 {
                        (0, 0)
                    } else {
                        (s.t_ns[a - 1], s.port_tx_bytes[m][a - 1])
                    };
                    let dt = (s.t_ns[b] - t0) as f64 / 1e9;
                    let bits = (s.port_tx_bytes[m][b] - tx0) as f64 * 8.0;
                    bits / (out.monitor_rates[m] as f64 * dt)
                }
                _ => f64::NAN,
            };
            let name = &out.monitor_names[m];
            let st = out.port_stats.iter().find(|p| &p.name == name);
            PortSummary {
                name: name.clone(),
                utilization,
                queue_mean_kb: kb(mean),
                queue_p99_kb: kb(pct(&v, 99.0)),
                queue_max_kb: kb(max),
                drops: st.map_or(0, |p| p.drops),
                paused_us: st.map_or(0.0, |p| p.paused_ns as f64 / 1000.0),
            }
        })
        .collect();
    let first = ports.first();
    let utilization = first.map_or(f64::NAN, |p| p.utilization);
    let queue_mean_kb = first.map_or(f64::NAN, |p| p.queue_mean_kb);
    let queue_p99_kb = first.map_or(f64::NAN, |p| p.queue_p99_kb);
    let queue_max_kb = first.map_or(f64::NAN, |p| p.queue_max_kb);
    let finite: Vec<_> = out.flows.iter().filter(|f| f.spec.size_bytes > 0).collect();
    let done: Vec<(u64, f64)> = finite
        .iter()
        .filter_map(|f| {
            f.finish_ns
                .map(|t| (f.spec.size_bytes, (t - f.spec.start_ns) as f64 / 1000.0))
        })
        .collect();
    let abs = fct_by_size(bins, &done);
    let mut bin_stats = Vec::new();
    for ((lo, hi, label), a) in size_bins(bins).into_iter().zip(abs) {
        let in_bin: Vec<_> = finite
            .iter()
            .filter(|f| f.spec.size_bytes >= lo && f.spec.size_bytes < hi)
            .collect();
        let mut sl: Vec<f64> = in_bin
            .iter()
            .filter_map(|f| {
                f.finish_ns
                    .map(|t| (t - f.spec.start_ns) as f64 / f.ideal_ns.max(1) as f64)
            })
            .collect();
        sl.sort_by(|a, b| a.total_cmp(b));
        bin_stats.push(BinStat {
            label,
            n: sl.len(),
            unfinished: in_bin.len() - sl.len(),
            p50: pct(&sl, 50.0),
            p99: pct(&sl, 99.0),
            p999: pct(&sl, 99.9),
            fct_p50_us: a.p50,
            fct_p99_us: a.p99,
        });
    }
    Summary {
        name: name.to_string(),
        goodput_gbps,
        utilization,
        rtt_mean_us,
        rtt_p50_us: pct(&rtts, 50.0),
        rtt_p99_us: pct(&rtts, 99.0),
        jain_mean,
        jain_window,
        jain09_first_us,
        jain09_settled_us: settled,
        queue_mean_kb,
        queue_p99_kb,
        queue_max_kb,
        drops: out.counters.data_dropped + out.counters.acks_dropped,
        timeouts: out.counters.timeouts,
        flows_done: finite.iter().filter(|f| f.finish_ns.is_some()).count(),
        flows_finite: finite.len(),
        bins: bin_stats,
        ports,
        pfc_pauses: out.counters.pfc_pauses,
        pfc_paused_us: out.counters.pfc_paused_ns as f64 / 1000.0,
    }
}

/// The summary table (one row per algorithm) as aligned text ([`crate::text_table`]).
pub fn table(rows: &[Summary]) -> String {
    let mut t = render(
        &[
            Col::text("algorithm"),
            Col::num("goodput_Gbps", 2),
            Col::num("util", 3),
            Col::num("RTTmean_µs", 1),
            Col::num("RTTp50_µs", 1),
            Col::num("RTTp99_µs", 1),
            Col::num("Jain_mean", 3),
            Col::num("Jain_of_means", 3),
            Col::num("Jain>=0.9_at_µs", 1),
            Col::num("Jain>=0.9_from_µs", 1),
            Col::num("Qmean_KB", 1),
            Col::num("Qp99_KB", 1),
            Col::num("Qmax_KB", 1),
            Col::num("drops", 0),
            Col::num("RTOs", 0),
            Col::num("done", 0),
        ],
        &rows
            .iter()
            .map(|r| {
                vec![
                    r.name.as_str().into(),
                    r.goodput_gbps.into(),
                    r.utilization.into(),
                    r.rtt_mean_us.into(),
                    r.rtt_p50_us.into(),
                    r.rtt_p99_us.into(),
                    r.jain_mean.into(),
                    r.jain_window.into(),
                    r.jain09_first_us.into(),
                    r.jain09_settled_us.into(),
                    r.queue_mean_kb.into(),
                    r.queue_p99_kb.into(),
                    r.queue_max_kb.into(),
                    r.drops.into(),
                    r.timeouts.into(),
                    format!("{}/{}", r.flows_done, r.flows_finite).into(),
                ]
            })
            .collect::<Vec<Vec<Cell>>>(),
        true,
    );
    if rows.iter().any(|r| r.ports.len() > 1 || r.pfc_pauses > 0) {
        t.push_str("\nPer bottleneck port (util = wire bytes sent / rate x window):\n");
        t.push_str(&render(
            &[
                Col::text("algorithm"),
                Col::text("port"),
                Col::num("util", 3),
                Col::num("Qmean_KB", 1),
                Col::num("Qp99_KB", 1),
                Col::num("Qmax_KB", 1),
                Col::num("drops", 0),
                Col::num("paused_µs", 1),
            ],
            &rows
                .iter()
                .flat_map(|r| {
                    r.ports.iter().map(|p| {
                        vec![
                            r.name.as_str().into(),
                            p.name.as_str().into(),
                            p.utilization.into(),
                            p.queue_mean_kb.into(),
                            p.queue_p99_kb.into(),
                            p.queue_max_kb.into(),
                            p.drops.into(),
                            p.paused_us.into(),
                        ]
                    })
                })
                .collect::<Vec<Vec<Cell>>>(),
            true,
        ));
        t.push_str("\nPFC: pause frames sent, time paused summed over all ports:\n");
        t.push_str(&render(
            &[
                Col::text("algorithm"),
                Col::num("pauses", 0),
                Col::num("paused_µs", 1),
            ],
            &rows
                .iter()
                .map(|r| {
                    vec![
                        r.name.as_str().into(),
                        r.pfc_pauses.into(),
                        r.pfc_paused_us.into(),
                    ]
                })
                .collect::<Vec<Vec<Cell>>>(),
            true,
        ));
    }
    if rows.iter().any(|r| r.bins.iter().any(|b| b.n > 0)) {
        t.push_str("\nFCT slowdown (FCT / ideal) per flow size:\n");
        t.push_str(&render(
            &[
                Col::text("algorithm"),
                Col::text("size"),
                Col::num("flows", 0),
                Col::num("unfin", 0),
                Col::num("p50", 2),
                Col::num("p99", 2),
                Col::num("p99.9", 2),
            ],
            &rows
                .iter()
                .flat_map(|r| {
                    r.bins.iter().map(|b| {
                        vec![
                            r.name.as_str().into(),
                            b.label.as_str().into(),
                            b.n.into(),
                            b.unfinished.into(),
                            b.p50.into(),
                            b.p99.into(),
                            b.p999.into(),
                        ]
                    })
                })
                .collect::<Vec<Vec<Cell>>>(),
            true,
        ));
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_percentiles_are_nan() {
        // The rule itself is crate::stats's (nearest rank); an empty input is NaN here.
        assert_eq!(pct(&[1.0, 2.0, 3.0, 4.0], 50.0), 2.0);
        assert!(pct(&[], 50.0).is_nan());
    }
}
