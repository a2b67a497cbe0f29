//! What the standard figures draw of one run ([`RunData`]), from a run in memory
//! ([`RunData::from_result`]) or from the tidy files a run wrote ([`RunData::load`]; the
//! columns are those of `Documentation/results/README.md`, "What a run writes"), so that a
//! run's own figures and `sim compare`'s overlays of saved runs are drawn by the same code.

use crate::error::{Error, Result};
use crate::scenario::RunResult;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// One flow's times, µs.
#[derive(Clone, Debug, PartialEq)]
pub struct FlowTimes {
    /// Flow size, bytes (0 = long-lived).
    pub size_bytes: u64,
    /// Start.
    pub start_us: f64,
    /// Completion (all data acknowledged), if it completed.
    pub finish_us: Option<f64>,
}

/// One FCT size bin.
#[derive(Clone, Debug, PartialEq)]
pub struct Bin {
    /// Its label (`<10KB`).
    pub label: String,
    /// Completed flows in it.
    pub flows: usize,
    /// p99 slowdown (`None` without flows).
    pub p99: Option<f64>,
}

/// One run of one algorithm, as the figures need it. Times in µs, rates in Gbit/s, queues
/// in KB (1000 bytes).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RunData {
    /// The name in legends (the algorithm; `run/algorithm` in a comparison).
    pub label: String,
    /// The run's time span: from 0 to the last sample (the end of the run).
    pub span_us: f64,
    /// Sample times.
    pub t_us: Vec<f64>,
    /// Total goodput per sample.
    pub total_gbps: Vec<f64>,
    /// Jain's index per sample (NaN when undefined).
    pub jain: Vec<f64>,
    /// Flows in each Jain sample.
    pub active: Vec<u32>,
    /// The first monitored port's name, if any.
    pub port: Option<String>,
    /// Its largest queue per sample.
    pub queue_max_kb: Vec<f64>,
    /// Traced flows' goodput per sample (each aligned with `t_us`).
    pub flow_gbps: Vec<Vec<f64>>,
    /// Every flow's times.
    pub flows: Vec<FlowTimes>,
    /// FCT size bins.
    pub bins: Vec<Bin>,
    /// Draw its lines dashed (every second run of a comparison, so that equal runs both
    /// show).
    pub dashed: bool,
}

impl RunData {
    /// From a run in memory.
    pub fn from_result(r: &RunResult) -> RunData {
        let s = &r.out.series;
        let t_us: Vec<f64> = s.t_ns.iter().map(|&t| t as f64 / 1e3).collect();
        RunData {
            label: r.name.clone(),
            span_us: t_us.last().copied().unwrap_or(0.0),
            total_gbps: s.total_bps.iter().map(|b| b / 1e9).collect(),
            jain: s.jain.clone(),
            active: s.active.clone(),
            port: r.out.monitor_names.first().cloned(),
            queue_max_kb: s
                .queue_max_bytes
                .first()
                .map(|q| q.iter().map(|&b| b as f64 / 1e3).collect())
                .unwrap_or_default(),
            flow_gbps: s
                .flow_bps
                .iter()
                .map(|v| v.iter().map(|b| b / 1e9).collect())
                .collect(),
            flows: r
                .out
                .flows
                .iter()
                .map(|f| FlowTimes {
                    size_bytes: f.spec.size_bytes,
                    start_us: f.spec.start_ns as f64 / 1e3,
                    finish_us: f.finish_ns.map(|t| t as f64 / 1e3),
                })
                .collect(),
            bins: r
                .summary
                .bins
                .iter()
                .map(|b| Bin {
                    label: b.label.clone(),
                    flows: b.n,
                    p99: (b.n > 0 && b.p99.is_finite()).then_some(b.p99),
                })
                .collect(),
            dashed: false,
            t_us,
        }
    }

    /// From the files of algorithm `algo` in the output directory `dir`
    /// (`DIR/<algo>/{network_series,port_series,flow_series,flows}.csv`, `DIR/fct_bins.csv`).
    pub fn load(dir: &Path, algo: &str, label: &str) -> Result<RunData> {
        let d = dir.join(algo);
        let net: Vec<NetRow> = read_csv(&d.join("network_series.csv"))?;
        let t_us: Vec<f64> = net.iter().map(|r| r.t_us).collect();
        // The first port of the file is the first monitored one (rows are per sample, ports in
        // order).
        let ports: Vec<PortRow> = read_csv(&d.join("port_series.csv"))?;
        let port = ports.first().map(|p| p.port.clone());
        let queue_max_kb = ports
            .iter()
            .filter(|p| Some(&p.port) == port.as_ref())
            .map(|p| p.queue_max_bytes as f64 / 1e3)
            .collect();
        let mut by_flow: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
        for r in read_csv::<FlowSeriesRow>(&d.join("flow_series.csv"))? {
            by_flow
                .entry(r.flow)
                .or_default()
                .push(r.goodput_gbps.unwrap_or(f64::NAN));
        }
        let flows = read_csv::<FlowRow>(&d.join("flows.csv"))?
            .into_iter()
            .map(|f| FlowTimes {
                size_bytes: f.size_bytes,
                start_us: f.start_us,
                finish_us: f.finish_us,
            })
            .collect();
        let bins = match std::fs::metadata(dir.join("fct_bins.csv")) {
            Ok(_) => read_csv::<BinRow>(&dir.join("fct_bins.csv"))?
                .into_iter()
                .filter(|b| b.algorithm == algo)
                .map(|b| Bin {
                    label: b.size_bin,
                    flows: b.flows_done,
                    p99: b.slowdown_p99,
                })
                .collect(),
            Err(_) => vec![],
        };
        Ok(RunData {
            label: label.to_string(),
            span_us: t_us.last().copied().unwrap_or(0.0),
            total_gbps: net
                .iter()
                .map(|r| r.total_goodput_gbps.unwrap_or(f64::NAN))
                .collect(),
            jain: net
                .iter()
                .map(|r| r.jain_index.unwrap_or(f64::NAN))
                .collect(),
            active: net.iter().map(|r| r.jain_active_flows).collect(),
            port,
            queue_max_kb,
            flow_gbps: by_flow.into_values().collect(),
            flows,
            bins,
            dashed: false,
            t_us,
        })
    }
}

/// The algorithms of an output directory, in its `summary.csv`'s order.
pub fn algorithms(dir: &Path) -> Result<Vec<String>> {
    #[derive(Deserialize)]
    struct Alg {
        algorithm: String,
    }
    Ok(read_csv::<Alg>(&dir.join("summary.csv"))?
        .into_iter()
        .map(|a| a.algorithm)
        .collect())
}

/// The rows of a CSV file (extra columns ignored).
pub fn read_csv<R: for<'de> Deserialize<'de>>(path: &Path) -> Result<Vec<R>> {
    let mut rd = csv::Reader::from_path(path).map_err(Error::at(path))?;
    rd.deserialize()
        .map(|r| r.map_err(Error::at(path)))
        .collect()
}

#[derive(Deserialize)]
struct NetRow {
    t_us: f64,
    total_goodput_gbps: Option<f64>,
    jain_index: Option<f64>,
    jain_active_flows: u32,
}

#[derive(Deserialize)]
struct PortRow {
    port: String,
    queue_max_bytes: u64,
}

#[derive(Deserialize)]
struct FlowSeriesRow {
    flow: usize,
    goodput_gbps: Option<f64>,
}

#[derive(Deserialize)]
struct FlowRow {
    size_bytes: u64,
    start_us: f64,
    finish_us: Option<f64>,
}

#[derive(Deserialize)]
struct BinRow {
    algorithm: String,
    size_bin: String,
    flows_done: usize,
    slowdown_p99: Option<f64>,
}
