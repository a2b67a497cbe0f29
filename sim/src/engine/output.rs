//! Run output: counters, per-flow records, sampled time series and the final collection.

use super::*;
use crate::series::FlowAt;

/// Counters of one run.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    /// Events processed.
    pub events: u64,
    /// Data packets put on a host NIC (first transmissions and retransmissions).
    pub data_sent: u64,
    /// Data packets that reached their receiver (duplicates included).
    pub data_delivered: u64,
    /// Data packets dropped at switches.
    pub data_dropped: u64,
    /// ACKs dropped at switches.
    pub acks_dropped: u64,
    /// ECN marks.
    pub ecn_marks: u64,
    /// Retransmitted segments.
    pub retransmits: u64,
    /// Retransmission timeouts.
    pub timeouts: u64,
    /// Tail-loss probes sent.
    pub tlp_probes: u64,
    /// PFC pause (XOFF) frames sent by switches.
    pub pfc_pauses: u64,
    /// Time transmitters spent paused by PFC, summed over ports (hosts and switches), ns.
    pub pfc_paused_ns: u64,
    /// ACKs processed by a law in the measurement window.
    pub acks_processed: u64,
    /// ACKs in the measurement window on which the law reported its endpoint window
    /// binding (Swift §3.3).
    pub endpoint_binds: u64,
    /// INT records a switch could not append (stack full, or a port rate the record cannot
    /// name; `check_fabric` refuses the latter before a run).
    pub int_dropped_records: u64,
}

/// One port's totals at the end of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct PortStat {
    /// Port name (`from->to`).
    pub name: String,
    /// Packets dropped.
    pub drops: u64,
    /// Largest queue, bytes.
    pub max_queue_bytes: u64,
    /// Bytes transmitted.
    pub tx_bytes: u64,
    /// Time this transmitter was paused by PFC, ns.
    pub paused_ns: u64,
    /// Pause frames this switch sent for the port's ingress queue.
    pub pauses_sent: u64,
}

/// One finished (or unfinished) flow's record.
#[derive(Clone, Debug)]
pub struct FlowRecord {
    /// The flow.
    pub spec: FlowSpec,
    /// Completion time (all data acknowledged), ns; `None` if unfinished.
    pub finish_ns: Option<u64>,
    /// Smallest possible FCT on an empty network (propagation both ways, store-and-forward
    /// of the first packet and ACK per hop, the rest at the path's slowest link), ns.
    pub ideal_ns: u64,
    /// Bytes received in order.
    pub rx_bytes: u64,
    /// Retransmitted segments.
    pub retransmits: u64,
    /// Data packets of the flow dropped at switches.
    pub drops: u64,
    /// The law's last signal (Swift: target delay ns).
    pub last_signal: i64,
    /// Smallest RTT sample, ns (`None` without one).
    pub min_rtt_ns: Option<u64>,
}

/// Sampled time series.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// Sample times (end of interval), ns.
    pub t_ns: Vec<u64>,
    /// Per traced flow: goodput over the interval, bits/s.
    pub flow_bps: Vec<Vec<f64>>,
    /// Per traced flow: bytes received in order over the interval.
    pub flow_rx_bytes: Vec<Vec<u64>>,
    /// Per traced flow: window, bytes.
    pub flow_cwnd_bytes: Vec<Vec<f64>>,
    /// Per traced flow: pacing rate in force, bits/s (0 = unpaced).
    pub flow_rate_bps: Vec<Vec<f64>>,
    /// Jain index over flows active for the whole interval (NaN when none).
    pub jain: Vec<f64>,
    /// Number of flows in `jain`.
    pub active: Vec<u32>,
    /// Sum of all flows' goodput, bits/s.
    pub total_bps: Vec<f64>,
    /// Per monitored port: queue bytes at the sample.
    pub queue_bytes: Vec<Vec<u64>>,
    /// Per monitored port: largest queue since the previous sample.
    pub queue_max_bytes: Vec<Vec<u64>>,
    /// Per monitored port: bytes transmitted so far, at the sample.
    pub port_tx_bytes: Vec<Vec<u64>>,
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct RunOutput {
    /// Profile names (index = `FlowSpec::profile`).
    pub profiles: Vec<String>,
    /// Per flow.
    pub flows: Vec<FlowRecord>,
    /// Time series.
    pub series: Series,
    /// Names of the monitored ports.
    pub monitor_names: Vec<String>,
    /// Rates of the monitored ports, bits/s.
    pub monitor_rates: Vec<u64>,
    /// RTT samples (exact, before quantization and noise) taken in the measurement window, ns.
    pub rtt_ns: Vec<u32>,
    /// The flow (index into `flows`) of each of `rtt_ns`.
    pub rtt_flow: Vec<u32>,
    /// Counters.
    pub counters: Counters,
    /// Data packets in flight at the end (on wires, in queues, in NIC transmission).
    pub data_in_network: u64,
    /// Per switch port: (name, drops, max queue bytes, tx bytes).
    pub port_stats: Vec<PortStat>,
    /// Simulated time, ns.
    pub end_ns: u64,
}

impl Sim {
    /// Collect the output at the current time.
    pub fn finish(mut self) -> RunOutput {
        let now = self.now;
        for n in self.nodes.iter_mut() {
            for p in n.ports.iter_mut() {
                if p.paused {
                    p.paused_ns += now - p.paused_since_ns;
                    p.paused_since_ns = now;
                }
                self.c.pfc_paused_ns += p.paused_ns;
            }
        }
        let mut in_net = 0u64;
        for n in &self.nodes {
            for p in &n.ports {
                in_net += p.queue.iter().filter(|k| k.flags & PKT_ACK == 0).count() as u64;
                if let Some(k) = p.in_tx {
                    in_net += (k.flags & PKT_ACK == 0) as u64;
                }
            }
        }
        for e in self.events.iter() {
            if let Ev::Arrive { pkt, .. } | Ev::RxDone { pkt } = e.ev {
                in_net += (self.pkts[pkt as usize].flags & PKT_ACK == 0) as u64;
            }
        }
        let mut port_stats = Vec::new();
        for n in self.nodes.iter().filter(|n| n.host.is_none()) {
            for (p, name) in n.ports.iter().zip(&n.port_names) {
                port_stats.push(PortStat {
                    name: name.clone(),
                    drops: p.drops,
                    max_queue_bytes: p.max_queue_bytes,
                    tx_bytes: p.tx_bytes,
                    paused_ns: p.paused_ns,
                    pauses_sent: p.pauses_sent,
                });
            }
        }
        let monitor_rates = self
            .monitors
            .iter()
            .map(|&(n, p)| self.nodes[n as usize].ports[p as usize].rate_bits_per_s)
            .collect();
        RunOutput {
            profiles: self.profiles.iter().map(|p| p.name.clone()).collect(),
            flows: self
                .flows
                .iter()
                .enumerate()
                .map(|(i, f)| FlowRecord {
                    spec: f.spec.clone(),
                    finish_ns: f.done.then_some(f.finish_ns),
                    ideal_ns: self.ideal[i],
                    rx_bytes: f.rx_bytes,
                    retransmits: f.retransmits,
                    drops: f.drops,
                    last_signal: f.signal,
                    min_rtt_ns: (f.min_rtt_ns != u64::MAX).then_some(f.min_rtt_ns),
                })
                .collect(),
            series: self.series,
            monitor_names: self.monitor_names,
            monitor_rates,
            rtt_ns: self.rtt_samples,
            rtt_flow: self.rtt_flows,
            counters: self.c,
            data_in_network: in_net,
            port_stats,
            end_ns: self.now,
        }
    }

    // ---- metrics -----------------------------------------------------------------------

    pub(super) fn on_sample(&mut self) {
        let now = self.now;
        let dt = self.cfg.sample_ns;
        let flows = self.flows.iter().map(|f| FlowAt {
            rx_bytes: f.rx_bytes,
            started: f.started,
            start_ns: f.spec.start_ns,
            done: f.done,
            finish_ns: f.finish_ns,
        });
        let traced = |i: usize| {
            let f = &self.flows[i];
            (f.cwnd_q16 as f64 / 65536.0, f.pacing_bps as f64 * 8.0)
        };
        let s = &mut self.series;
        s.sample_flows(now, dt, &mut self.last_rx, flows, traced);
        for (k, &(node, port)) in self.monitors.iter().enumerate() {
            let p = &mut self.nodes[node as usize].ports[port as usize];
            s.sample_port(k, p.queue_bytes, p.max_since_sample, p.tx_bytes);
            p.max_since_sample = p.queue_bytes;
        }
        if now + dt <= self.cfg.duration_ns {
            self.schedule(now + dt, Ev::Sample);
        }
    }
}
