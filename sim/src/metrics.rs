//! Summaries of a run and the text table. Floats appear only here and in [`crate::tables`]
//! (statistics and output), never in the controller path. The CSV and JSON files are written
//! by [`crate::tables`].

use crate::engine::RunOutput;
use crate::stats;
use std::fmt::Write;

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

/// A number in the text table: `-` when there is none (not finite).
struct T(f64, usize);
impl std::fmt::Display for T {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_finite() {
            f.pad(&format!("{:.*}", self.1, self.0))
        } else {
            f.pad("-")
        }
    }
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
    let mut bin_stats = Vec::new();
    for b in 0..=bins.len() {
        let lo = if b == 0 { 0 } else { bins[b - 1] };
        let hi = bins.get(b).copied().unwrap_or(u64::MAX);
        let label = match (b, bins.get(b)) {
            (0, Some(&h)) => format!("<{}", size_label(h)),
            (_, Some(&h)) => format!("{}-{}", size_label(lo), size_label(h)),
            (_, None) => format!(">={}", size_label(lo)),
        };
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

fn opt(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| format!("{v:.1}"))
}

/// The summary table (one row per algorithm) as aligned text.
pub fn table(rows: &[Summary]) -> String {
    let mut t = String::new();
    let _ = writeln!(
        t,
        "{:<16} {:>12} {:>6} {:>10} {:>9} {:>9} {:>9} {:>13} {:>15} {:>17} {:>9} {:>8} {:>8} {:>6} {:>5} {:>9}",
        "algorithm",
        "goodput_Gbps",
        "util",
        "RTTmean_us",
        "RTTp50_us",
        "RTTp99_us",
        "Jain_mean",
        "Jain_of_means",
        "Jain>=0.9_at_us",
        "Jain>=0.9_from_us",
        "Qmean_KB",
        "Qp99_KB",
        "Qmax_KB",
        "drops",
        "RTOs",
        "done"
    );
    for r in rows {
        let _ = writeln!(
            t,
            "{:<16} {:>12} {:>6} {:>10} {:>9} {:>9} {:>9} {:>13} {:>15} {:>17} {:>9} {:>8} {:>8} {:>6} {:>5} {:>9}",
            r.name,
            T(r.goodput_gbps, 2),
            T(r.utilization, 3),
            T(r.rtt_mean_us, 1),
            T(r.rtt_p50_us, 1),
            T(r.rtt_p99_us, 1),
            T(r.jain_mean, 3),
            T(r.jain_window, 3),
            opt(r.jain09_first_us),
            opt(r.jain09_settled_us),
            T(r.queue_mean_kb, 1),
            T(r.queue_p99_kb, 1),
            T(r.queue_max_kb, 1),
            r.drops,
            r.timeouts,
            format!("{}/{}", r.flows_done, r.flows_finite)
        );
    }
    if rows.iter().any(|r| r.ports.len() > 1 || r.pfc_pauses > 0) {
        let _ = writeln!(
            t,
            "\nPer bottleneck port (util = wire bytes sent / rate x window):"
        );
        let _ = writeln!(
            t,
            "{:<16} {:<18} {:>6} {:>8} {:>8} {:>8} {:>6} {:>10}",
            "algorithm", "port", "util", "Qmean_KB", "Qp99_KB", "Qmax_KB", "drops", "paused_us"
        );
        for r in rows {
            for p in &r.ports {
                let _ = writeln!(
                    t,
                    "{:<16} {:<18} {:>6} {:>8} {:>8} {:>8} {:>6} {:>10}",
                    r.name,
                    p.name,
                    T(p.utilization, 3),
                    T(p.queue_mean_kb, 1),
                    T(p.queue_p99_kb, 1),
                    T(p.queue_max_kb, 1),
                    p.drops,
                    T(p.paused_us, 1)
                );
            }
        }
        let _ = writeln!(
            t,
            "\nPFC: pause frames sent, time paused summed over all ports:"
        );
        for r in rows {
            let _ = writeln!(
                t,
                "{:<16} {:>8} pauses {:>12} us paused",
                r.name,
                r.pfc_pauses,
                T(r.pfc_paused_us, 1)
            );
        }
    }
    if rows.iter().any(|r| r.bins.iter().any(|b| b.n > 0)) {
        let _ = writeln!(t, "\nFCT slowdown (FCT / ideal) per flow size:");
        let _ = writeln!(
            t,
            "{:<16} {:<14} {:>6} {:>6} {:>9} {:>9} {:>9}",
            "algorithm", "size", "flows", "unfin", "p50", "p99", "p99.9"
        );
        for r in rows {
            for b in &r.bins {
                let _ = writeln!(
                    t,
                    "{:<16} {:<14} {:>6} {:>6} {:>9} {:>9} {:>9}",
                    r.name,
                    b.label,
                    b.n,
                    b.unfinished,
                    T(b.p50, 2),
                    T(b.p99, 2),
                    T(b.p999, 2)
                );
            }
        }
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
