//! The sections of a scenario file other than its top level and topology: transport, fabric,
//! host receive paths, flow groups, workload, reporting and loss injection, with their defaults.

use crate::engine::{FabricConfig, SimConfig};
use serde::{Deserialize, Serialize};

/// Drop the first transmission of segment `seg` (0-based, MSS-sized) of flow `flow` (index
/// in the order flows are listed) at the first switch; with `ack = true`, the first ACK sent
/// for that segment instead.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct InjectDrop {
    /// Flow index.
    pub flow: u32,
    /// Segment index.
    pub seg: u64,
    /// Drop the segment's ACK instead of the segment.
    #[serde(default)]
    pub ack: bool,
}

/// Switch buffer model (see `engine::FabricConfig`; sizes in KB = 1000 B).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Fabric {
    /// "static" (drop-tail limit `buffer_kb` per output port) or "shared" (one buffer per
    /// switch, dynamic thresholds).
    pub buffer: String,
    /// Shared buffer per switch, KB; 0 = `buffer_kb` x the switch's ports.
    pub switch_buffer_kb: f64,
    /// Egress dynamic-threshold alpha without PFC.
    pub dt_alpha: f64,
    /// Priority flow control (needs buffer = "shared").
    pub pfc: bool,
    /// PFC dynamic-threshold alpha (ns-3: 1/8).
    pub pfc_alpha: f64,
    /// Reserved bytes per ingress queue, KB (ns-3: 4 KiB).
    pub pfc_reserve_kb: f64,
    /// Resume offset, KB (ns-3: 3 KiB).
    pub pfc_resume_offset_kb: f64,
    /// Headroom per ingress queue, KB; 0 = per link 2 x rate x delay + 2 packets + a frame.
    pub pfc_headroom_kb: f64,
}

impl Default for Fabric {
    fn default() -> Self {
        let f = FabricConfig::default();
        Fabric {
            buffer: "static".into(),
            switch_buffer_kb: 0.0,
            dt_alpha: f.dt_alpha_q16 as f64 / 65536.0,
            pfc: false,
            pfc_alpha: f.pfc_alpha_q16 as f64 / 65536.0,
            pfc_reserve_kb: f.pfc_reserve_bytes as f64 / 1000.0,
            pfc_resume_offset_kb: f.pfc_resume_offset_bytes as f64 / 1000.0,
            pfc_headroom_kb: 0.0,
        }
    }
}

/// Hosts with a receive path: packets are processed at `rx_rate_gbps` (0 = unlimited) and
/// wait `rx_delay_us` more before TCP sees them.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct HostGroup {
    /// Host indices.
    pub ids: Vec<u32>,
    /// Processing rate, Gbit/s of wire bytes; 0 = unlimited.
    #[serde(default)]
    pub rx_rate_gbps: f64,
    /// Fixed receive delay, µs.
    #[serde(default)]
    pub rx_delay_us: f64,
}

pub(super) fn one() -> u64 {
    1
}
pub(super) fn ten() -> f64 {
    10.0
}

/// Transport model (see `engine::SimConfig`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Transport {
    /// Payload bytes per segment.
    pub mss_bytes: u32,
    /// Header bytes per data packet on the wire.
    pub header_bytes: u32,
    /// ACK size on the wire.
    pub ack_bytes: u32,
    /// 1: ACK every packet; 2: every second packet (delayed-ACK timer for a lone one).
    pub ack_every: u32,
    /// Delayed-ACK timeout, µs.
    pub delack_us: f64,
    /// RTT quantum fed to the laws, ns (1000 = Linux µs).
    pub rtt_quantum_ns: u64,
    /// Uniform RTT noise [0, x] ns fed to the laws.
    pub rtt_noise_ns: u64,
    /// Minimum RTO, µs.
    pub min_rto_us: f64,
    /// Report the receiver's ACK hold time as remote delay.
    pub remote_delay: bool,
    /// Echo the forward switch-hop count.
    pub echo_hops: bool,
    /// Tail-loss probe (RFC 8985 §7); off by default (see `SimConfig::tlp`).
    pub tlp: bool,
    /// Pacing granularity, bytes on the wire: 0 paces every packet; otherwise a paced flow
    /// sends bursts of this many bytes back to back and then waits burst / rate (TIMELY §3.3's
    /// per-segment pacing; see `SimConfig::pace_burst_bytes`).
    pub pace_burst_bytes: u64,
}

impl Default for Transport {
    fn default() -> Self {
        let c = SimConfig::default();
        Transport {
            mss_bytes: c.mss_bytes,
            header_bytes: c.header_bytes,
            ack_bytes: c.ack_bytes,
            ack_every: c.ack_every,
            delack_us: c.delack_ns as f64 / 1000.0,
            rtt_quantum_ns: 0,
            rtt_noise_ns: 0,
            min_rto_us: c.min_rto_ns as f64 / 1000.0,
            remote_delay: false,
            echo_hops: false,
            tlp: c.tlp,
            pace_burst_bytes: c.pace_burst_bytes,
        }
    }
}

/// A group of flows: flow i (0..count) goes from host `src + (i / conns_per_src) * src_step`
/// to `dst`, starting at `start_us + stagger_us * (i / stagger_every)`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FlowGroup {
    /// First sender host.
    pub src: u32,
    /// Receiver host.
    pub dst: u32,
    /// Number of flows.
    #[serde(default = "one_u32")]
    pub count: u32,
    /// Flows per sender host.
    #[serde(default = "one_u32")]
    pub conns_per_src: u32,
    /// Host step between senders.
    #[serde(default = "one_u32")]
    pub src_step: u32,
    /// Bytes per flow; 0 = unlimited.
    #[serde(default)]
    pub size_bytes: u64,
    /// Start of the first flow, µs.
    #[serde(default)]
    pub start_us: f64,
    /// Start offset between consecutive batches, µs.
    #[serde(default)]
    pub stagger_us: f64,
    /// Flows per batch.
    #[serde(default = "one_u32")]
    pub stagger_every: u32,
    /// Algorithm for this group (default: the run's).
    #[serde(default)]
    pub cc: Option<String>,
}

fn one_u32() -> u32 {
    1
}

/// Poisson traffic over all hosts (or `hosts`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// Built-in CDF name: "websearch" or "hadoop".
    pub cdf: String,
    /// Offered load per host as a fraction of its link rate.
    pub load: f64,
    /// Arrivals from, µs.
    #[serde(default)]
    pub start_us: f64,
    /// Arrivals until, µs.
    pub stop_us: f64,
    /// Participating hosts (default: all).
    #[serde(default)]
    pub hosts: Option<Vec<u32>>,
}

/// PowerTCP §4.1's "distributed file system" requests (`[requests]`): every requesting host
/// draws Poisson request times; each request makes `fan_in` hosts of other racks send
/// `size_bytes / fan_in` each to it at once ([`crate::workload::file_requests`]).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Requests {
    /// Requests per second per requesting host (Poisson).
    pub rate_per_s: f64,
    /// File size S, bytes, split over the responders.
    pub size_bytes: u64,
    /// Responders per request, chosen uniformly among the hosts outside the requester's rack.
    #[serde(default = "ten_u32")]
    pub fan_in: u32,
    /// Requests from, µs.
    #[serde(default)]
    pub start_us: f64,
    /// Requests until, µs.
    pub stop_us: f64,
    /// Requesting hosts (default: all).
    #[serde(default)]
    pub hosts: Option<Vec<u32>>,
}

fn ten_u32() -> u32 {
    10
}

/// Reporting options.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct Report {
    /// FCT bin edges, bytes.
    pub fct_bins_bytes: Vec<u64>,
    /// Jain settling is searched from here, µs (default: the last explicit flow start).
    pub jain_from_us: Option<f64>,
    /// Flows with per-flow time series.
    pub trace_flows: usize,
    /// Write PNG plots.
    pub plots: bool,
    /// Named bottleneck ports (`"sw->h11"`) whose queue and utilization are recorded and
    /// summarised; empty = the topology's default (its first bottleneck candidates).
    pub bottlenecks: Vec<String>,
    /// Width of the bins of a sweep's `pooled_buffer_binmax_kb` figures, µs: each full bin of
    /// the arrival window contributes the largest of its samples of a switch's summed
    /// monitored queues, as the PowerTCP artifact's `printBuffer` reports buffer occupancy
    /// (Documentation/results/README.md, "What a sweep writes"). 0 = no such figures.
    pub buffer_bin_us: f64,
}

impl Default for Report {
    fn default() -> Self {
        Report {
            fct_bins_bytes: vec![10_000, 100_000, 1_000_000],
            jain_from_us: None,
            trace_flows: 32,
            plots: true,
            bottlenecks: Vec::new(),
            buffer_bin_us: 0.0,
        }
    }
}
