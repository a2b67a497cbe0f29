//! The files a run writes besides its text summary and plots: tidy tables, one row per
//! observation, written with the `csv` crate from `serde` rows, and a JSON file beside every
//! summary table with the same rows. Every column and file is documented in
//! `Documentation/results/README.md` ("What a run writes"); the names carry their units
//! (`_us`, `_gbps`, `_bytes`, `_kb` = 1000 bytes).
//!
//! Numbers are rounded to fixed decimals (the same for equal runs, so equal runs give equal
//! bytes); an undefined number (no sample, fewer than two flows for a Jain index) is an empty
//! CSV field and a JSON `null`.

use crate::engine::RunOutput;
use crate::error::{Error, Result};
use crate::metrics::Summary;
use crate::stats;
use crate::xpass::XpassStats;
use serde::Serialize;

/// `x` rounded to `decimals`; `None` when not finite.
fn num(x: f64, decimals: i32) -> Option<f64> {
    let k = 10f64.powi(decimals);
    x.is_finite().then(|| (x * k).round() / k)
}

fn us(ns: u64) -> f64 {
    ns as f64 / 1000.0
}

/// `rows` as CSV text, the header from `R`'s field names (also when there is no row).
pub fn to_csv<R: Serialize + Default>(rows: &[R]) -> Result<String> {
    let err = |e: &dyn std::fmt::Display| Error::encode("csv", e);
    let mut w = csv::Writer::from_writer(Vec::new());
    if rows.is_empty() {
        // The csv crate writes a header with the first row: write a default row and keep its
        // header line.
        w.serialize(R::default()).map_err(|e| err(&e))?;
        let text = String::from_utf8(w.into_inner().map_err(|e| err(&e))?).map_err(|e| err(&e))?;
        return Ok(text.lines().next().unwrap_or_default().to_string() + "\n");
    }
    for r in rows {
        w.serialize(r).map_err(|e| err(&e))?;
    }
    String::from_utf8(w.into_inner().map_err(|e| err(&e))?).map_err(|e| err(&e))
}

/// `v` as pretty JSON with a final newline.
pub fn to_json<T: Serialize + ?Sized>(v: &T) -> Result<String> {
    serde_json::to_string_pretty(v)
        .map(|s| s + "\n")
        .map_err(|e| Error::encode("json", e))
}

/// One traced flow at one sample (`flow_series.csv`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct FlowSample<'a> {
    /// Sample time (end of the interval), µs.
    pub t_us: f64,
    /// Flow index (as in `flows.csv`).
    pub flow: usize,
    /// The flow's algorithm (profile).
    pub algo: &'a str,
    /// Goodput over the interval, Gbit/s.
    pub goodput_gbps: Option<f64>,
    /// Bytes received in order over the interval.
    pub rx_bytes: u64,
    /// Congestion window at the sample, bytes.
    pub cwnd_bytes: Option<f64>,
    /// Pacing rate in force at the sample, Gbit/s (0 = unpaced).
    pub pacing_gbps: Option<f64>,
}

/// One monitored port at one sample (`port_series.csv`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct PortSample<'a> {
    /// Sample time, µs.
    pub t_us: f64,
    /// Port name (`from->to`).
    pub port: &'a str,
    /// Queue at the sample, bytes.
    pub queue_bytes: u64,
    /// Largest queue since the previous sample, bytes.
    pub queue_max_bytes: u64,
    /// Bytes the port has transmitted so far.
    pub tx_bytes: u64,
}

/// The whole network at one sample (`network_series.csv`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct NetworkSample {
    /// Sample time, µs.
    pub t_us: f64,
    /// All flows' goodput over the interval, Gbit/s.
    pub total_goodput_gbps: Option<f64>,
    /// Jain's index over the flows active for the whole interval (empty when none).
    pub jain_index: Option<f64>,
    /// Flows in `jain_index`.
    pub jain_active_flows: u32,
}

/// One flow's summary (`flows.csv`, `flows.json`), what ns-3's FlowMonitor gives.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct FlowSummary<'a> {
    /// Flow index.
    pub flow: usize,
    /// Algorithm (profile).
    pub algo: &'a str,
    /// Sending host.
    pub src: u32,
    /// Receiving host.
    pub dst: u32,
    /// Flow size, bytes (0 = long-lived).
    pub size_bytes: u64,
    /// Bytes received in order by the end of the run.
    pub rx_bytes: u64,
    /// Start time, µs.
    pub start_us: f64,
    /// Completion time (all data acknowledged), µs; empty if unfinished.
    pub finish_us: Option<f64>,
    /// Flow completion time, µs; empty if unfinished.
    pub fct_us: Option<f64>,
    /// FCT on an empty network, µs; empty for a long-lived flow.
    pub ideal_fct_us: Option<f64>,
    /// `fct_us / ideal_fct_us`; empty if unfinished.
    pub slowdown: Option<f64>,
    /// RTT samples in the measurement window.
    pub rtt_samples: usize,
    /// Mean RTT in the measurement window, µs.
    pub rtt_mean_us: Option<f64>,
    /// 99th percentile RTT (nearest rank) in the measurement window, µs.
    pub rtt_p99_us: Option<f64>,
    /// Smallest RTT of the whole run, µs.
    pub rtt_min_us: Option<f64>,
    /// Retransmitted segments.
    pub retransmits: u64,
    /// Data packets dropped at switches.
    pub dropped_packets: u64,
}

/// One algorithm's headline numbers (`summary.csv`, `summary.json`), the first table of
/// `summary.txt`.
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct SummaryRow<'a> {
    /// Algorithm (profile).
    pub algorithm: &'a str,
    /// Total goodput in the measurement window, Gbit/s.
    pub goodput_gbps: Option<f64>,
    /// The first named bottleneck's wire bytes over rate × window.
    pub bottleneck_utilization: Option<f64>,
    /// RTT mean, µs.
    pub rtt_mean_us: Option<f64>,
    /// RTT median, µs.
    pub rtt_p50_us: Option<f64>,
    /// RTT 99th percentile, µs.
    pub rtt_p99_us: Option<f64>,
    /// Mean Jain index over the window's samples with at least two active flows.
    pub jain_index_mean: Option<f64>,
    /// Jain index of the long-lived traced flows' mean goodputs over the window.
    pub jain_index_of_window_means: Option<f64>,
    /// First time Jain >= 0.9, µs.
    pub jain_first_at_least_0_9_us: Option<f64>,
    /// Time from which Jain stays >= 0.9 until the first completion or the end, µs.
    pub jain_settled_at_least_0_9_us: Option<f64>,
    /// The first named bottleneck's mean queue in the window, KB.
    pub bottleneck_queue_mean_kb: Option<f64>,
    /// Its 99th percentile queue in the window, KB.
    pub bottleneck_queue_p99_kb: Option<f64>,
    /// Its largest queue (any time), KB.
    pub bottleneck_queue_max_kb: Option<f64>,
    /// Packets dropped (data and ACKs).
    pub dropped_packets: u64,
    /// Retransmission timeouts.
    pub rto_timeouts: u64,
    /// Finite flows completed.
    pub finite_flows_done: usize,
    /// Finite flows.
    pub finite_flows: usize,
    /// PFC pause frames sent.
    pub pfc_pause_frames: u64,
    /// Time transmitters were paused by PFC, summed over all ports, µs.
    pub pfc_paused_us: Option<f64>,
}

/// One named bottleneck port of one algorithm (`ports.csv`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct PortRow<'a> {
    /// Algorithm (profile).
    pub algorithm: &'a str,
    /// Port name (`from->to`).
    pub port: &'a str,
    /// Wire bytes sent in the window over rate × window.
    pub utilization: Option<f64>,
    /// Mean queue in the window, KB.
    pub queue_mean_kb: Option<f64>,
    /// 99th percentile queue in the window, KB.
    pub queue_p99_kb: Option<f64>,
    /// Largest queue (any time), KB.
    pub queue_max_kb: Option<f64>,
    /// Packets dropped at the port.
    pub dropped_packets: u64,
    /// Time the port's transmitter was paused by PFC, µs.
    pub pfc_paused_us: Option<f64>,
}

/// FCT slowdown of one flow-size bin of one algorithm (`fct_bins.csv`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct BinRow<'a> {
    /// Algorithm (profile).
    pub algorithm: &'a str,
    /// Size bin, e.g. `<10KB`, `10KB-100KB`, `>=1MB`.
    pub size_bin: &'a str,
    /// Completed flows in the bin.
    pub flows_done: usize,
    /// Flows in the bin that did not complete.
    pub flows_unfinished: usize,
    /// Median slowdown (FCT / ideal).
    pub slowdown_p50: Option<f64>,
    /// 99th percentile slowdown.
    pub slowdown_p99: Option<f64>,
    /// 99.9th percentile slowdown.
    pub slowdown_p999: Option<f64>,
    /// Median completion time, µs.
    pub fct_p50_us: Option<f64>,
    /// 99th percentile completion time, µs.
    pub fct_p99_us: Option<f64>,
}

/// `summary.json`: the three summary tables.
#[derive(Clone, Debug, Serialize)]
pub struct SummaryJson<'a> {
    /// `summary.csv`'s rows.
    pub algorithms: Vec<SummaryRow<'a>>,
    /// `ports.csv`'s rows.
    pub ports: Vec<PortRow<'a>>,
    /// `fct_bins.csv`'s rows.
    pub fct_bins: Vec<BinRow<'a>>,
}

/// The summary tables' rows.
pub fn summary_rows(rows: &[Summary]) -> SummaryJson<'_> {
    SummaryJson {
        algorithms: rows
            .iter()
            .map(|r| SummaryRow {
                algorithm: &r.name,
                goodput_gbps: num(r.goodput_gbps, 4),
                bottleneck_utilization: num(r.utilization, 4),
                rtt_mean_us: num(r.rtt_mean_us, 3),
                rtt_p50_us: num(r.rtt_p50_us, 3),
                rtt_p99_us: num(r.rtt_p99_us, 3),
                jain_index_mean: num(r.jain_mean, 4),
                jain_index_of_window_means: num(r.jain_window, 4),
                jain_first_at_least_0_9_us: r.jain09_first_us.and_then(|v| num(v, 3)),
                jain_settled_at_least_0_9_us: r.jain09_settled_us.and_then(|v| num(v, 3)),
                bottleneck_queue_mean_kb: num(r.queue_mean_kb, 3),
                bottleneck_queue_p99_kb: num(r.queue_p99_kb, 3),
                bottleneck_queue_max_kb: num(r.queue_max_kb, 3),
                dropped_packets: r.drops,
                rto_timeouts: r.timeouts,
                finite_flows_done: r.flows_done,
                finite_flows: r.flows_finite,
                pfc_pause_frames: r.pfc_pauses,
                pfc_paused_us: num(r.pfc_paused_us, 3),
            })
            .collect(),
        ports: rows
            .iter()
            .flat_map(|r| {
                r.ports.iter().map(|p| PortRow {
                    algorithm: &r.name,
                    port: &p.name,
                    utilization: num(p.utilization, 4),
                    queue_mean_kb: num(p.queue_mean_kb, 3),
                    queue_p99_kb: num(p.queue_p99_kb, 3),
                    queue_max_kb: num(p.queue_max_kb, 3),
                    dropped_packets: p.drops,
                    pfc_paused_us: num(p.paused_us, 3),
                })
            })
            .collect(),
        fct_bins: rows
            .iter()
            .flat_map(|r| {
                r.bins.iter().map(|b| BinRow {
                    algorithm: &r.name,
                    size_bin: &b.label,
                    flows_done: b.n,
                    flows_unfinished: b.unfinished,
                    slowdown_p50: num(b.p50, 4),
                    slowdown_p99: num(b.p99, 4),
                    slowdown_p999: num(b.p999, 4),
                    fct_p50_us: num(b.fct_p50_us, 3),
                    fct_p99_us: num(b.fct_p99_us, 3),
                })
            })
            .collect(),
    }
}

/// The scenario-level summary files: (file name, contents).
pub fn summary_files(rows: &[Summary]) -> Result<Vec<(&'static str, String)>> {
    let t = summary_rows(rows);
    Ok(vec![
        ("summary.csv", to_csv(&t.algorithms)?),
        ("ports.csv", to_csv(&t.ports)?),
        ("fct_bins.csv", to_csv(&t.fct_bins)?),
        ("summary.json", to_json(&t)?),
    ])
}

/// Every flow's summary row. RTT statistics use the samples taken in the measurement window
/// (as the summary's), percentiles by [`crate::stats`].
pub fn flow_summaries(out: &RunOutput) -> Vec<FlowSummary<'_>> {
    let mut rtts: Vec<Vec<f64>> = vec![Vec::new(); out.flows.len()];
    for (&r, &f) in out.rtt_ns.iter().zip(&out.rtt_flow) {
        rtts[f as usize].push(r as f64 / 1000.0);
    }
    out.flows
        .iter()
        .zip(rtts)
        .enumerate()
        .map(|(i, (f, mut rtt))| {
            rtt.sort_by(|a, b| a.total_cmp(b));
            let mean = if rtt.is_empty() {
                f64::NAN
            } else {
                rtt.iter().sum::<f64>() / rtt.len() as f64
            };
            let fct_ns = f.finish_ns.map(|t| t - f.spec.start_ns);
            FlowSummary {
                flow: i,
                algo: &out.profiles[f.spec.profile],
                src: f.spec.src,
                dst: f.spec.dst,
                size_bytes: f.spec.size_bytes,
                rx_bytes: f.rx_bytes,
                start_us: us(f.spec.start_ns),
                finish_us: f.finish_ns.map(us),
                fct_us: fct_ns.map(us),
                ideal_fct_us: (f.spec.size_bytes > 0).then(|| us(f.ideal_ns)),
                slowdown: fct_ns.and_then(|d| num(d as f64 / f.ideal_ns.max(1) as f64, 4)),
                rtt_samples: rtt.len(),
                rtt_mean_us: num(mean, 3),
                rtt_p99_us: stats::percentile_sorted(&rtt, 99.0).and_then(|v| num(v, 3)),
                rtt_min_us: f.min_rtt_ns.map(us),
                retransmits: f.retransmits,
                dropped_packets: f.drops,
            }
        })
        .collect()
}

/// The traced flows' long time series, one row per flow per sample (sample-major).
pub fn flow_series(out: &RunOutput) -> Vec<FlowSample<'_>> {
    let s = &out.series;
    let mut rows = Vec::with_capacity(s.t_ns.len() * s.flow_bps.len());
    for (k, &t) in s.t_ns.iter().enumerate() {
        for i in 0..s.flow_bps.len() {
            rows.push(FlowSample {
                t_us: us(t),
                flow: i,
                algo: &out.profiles[out.flows[i].spec.profile],
                goodput_gbps: num(s.flow_bps[i][k] / 1e9, 4),
                rx_bytes: s.flow_rx_bytes[i][k],
                cwnd_bytes: num(s.flow_cwnd_bytes[i][k], 1),
                pacing_gbps: num(s.flow_rate_bps[i][k] / 1e9, 4),
            });
        }
    }
    rows
}

/// The monitored ports' long time series, one row per port per sample (sample-major).
pub fn port_series(out: &RunOutput) -> Vec<PortSample<'_>> {
    let s = &out.series;
    let mut rows = Vec::with_capacity(s.t_ns.len() * s.queue_bytes.len());
    for (k, &t) in s.t_ns.iter().enumerate() {
        for (m, name) in out.monitor_names.iter().enumerate() {
            rows.push(PortSample {
                t_us: us(t),
                port: name,
                queue_bytes: s.queue_bytes[m][k],
                queue_max_bytes: s.queue_max_bytes[m][k],
                tx_bytes: s.port_tx_bytes[m][k],
            });
        }
    }
    rows
}

/// The network-wide time series, one row per sample.
pub fn network_series(out: &RunOutput) -> Vec<NetworkSample> {
    let s = &out.series;
    (0..s.t_ns.len())
        .map(|k| NetworkSample {
            t_us: us(s.t_ns[k]),
            total_goodput_gbps: num(s.total_bps[k] / 1e9, 4),
            jain_index: num(s.jain[k], 5),
            jain_active_flows: s.active[k],
        })
        .collect()
}

/// The per-run files (in the algorithm's directory): (file name, contents).
pub fn run_files(out: &RunOutput) -> Result<Vec<(&'static str, String)>> {
    let flows = flow_summaries(out);
    Ok(vec![
        ("flow_series.csv", to_csv(&flow_series(out))?),
        ("port_series.csv", to_csv(&port_series(out))?),
        ("network_series.csv", to_csv(&network_series(out))?),
        ("flows.csv", to_csv(&flows)?),
        ("flows.json", to_json(&flows)?),
    ])
}

/// One port's Eq. 1 bound (ExpressPass, `eq1_bounds.csv`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct Eq1Row<'a> {
    /// Port name.
    pub port: &'a str,
    /// Spread of the credit paths' delays into the port, ns.
    pub spread_ns: u64,
    /// ExpressPass's Eq. 1 bound on the port's data queue, bytes.
    pub eq1_bound_bytes: u64,
    /// The port's largest data queue, bytes.
    pub max_queue_bytes: u64,
}

/// One flow's credits (ExpressPass, `credits.csv`).
#[derive(Clone, Debug, Default, Serialize, PartialEq)]
pub struct CreditRow {
    /// Flow index.
    pub flow: usize,
    /// Credits its receiver sent.
    pub credits_sent: u64,
    /// Credits that reached the sender.
    pub credits_received: u64,
    /// Of those, credits the sender could not use.
    pub credits_wasted: u64,
}

/// ExpressPass's per-run files: (file name, contents).
pub fn xpass_files(x: &XpassStats) -> Result<Vec<(&'static str, String)>> {
    let eq1: Vec<Eq1Row> = x
        .eq1
        .iter()
        .map(|e| Eq1Row {
            port: &e.name,
            spread_ns: e.spread_ns,
            eq1_bound_bytes: e.bound_bytes,
            max_queue_bytes: e.max_queue_bytes,
        })
        .collect();
    let credits: Vec<CreditRow> = x
        .flow_credits
        .iter()
        .enumerate()
        .map(|(flow, &(s, r, w))| CreditRow {
            flow,
            credits_sent: s,
            credits_received: r,
            credits_wasted: w,
        })
        .collect();
    Ok(vec![
        ("eq1_bounds.csv", to_csv(&eq1)?),
        ("credits.csv", to_csv(&credits)?),
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_round_and_undefined_is_empty() {
        for (x, d, want) in [
            (1.23456, 3, Some(1.235)),
            (2.0, 4, Some(2.0)),
            (f64::NAN, 3, None),
            (f64::INFINITY, 1, None),
        ] {
            assert_eq!(num(x, d), want, "{x} to {d}");
        }
    }

    #[test]
    fn an_empty_table_still_has_its_header() {
        let t = to_csv::<PortSample>(&[]).unwrap();
        assert_eq!(t, "t_us,port,queue_bytes,queue_max_bytes,tx_bytes\n");
        let row = NetworkSample {
            t_us: 1.5,
            total_goodput_gbps: Some(9.5),
            jain_index: None,
            jain_active_flows: 1,
        };
        let t = to_csv(&[row]).unwrap();
        assert_eq!(
            t,
            "t_us,total_goodput_gbps,jain_index,jain_active_flows\n1.5,9.5,,1\n"
        );
    }
}
