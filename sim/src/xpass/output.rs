//! ExpressPass run output: sampled series, the ideal FCT, paths, and the final collection.

use super::port::KIND_DATA;
use super::{Eq1Port, Ev, XpassSim, XpassStats, EQ1_MAX_FLOWS};
use crate::engine::{FlowRecord, PortStat, RunOutput};
use crate::series::FlowAt;

impl XpassSim {
    // ---- output ----------------------------------------------------------------------------

    pub(super) fn on_sample(&mut self) {
        let now = self.now;
        let dt = self.cfg.sample_ns;
        let frame_per_credit =
            (self.cfg.mss_bytes + self.cfg.header_bytes) as f64 / self.cfg.credit_bytes as f64;
        let flows = self.flows.iter().map(|f| FlowAt {
            rx_bytes: f.rx_bytes,
            started: f.started,
            start_ns: f.spec.start_ns,
            done: f.done,
            finish_ns: f.finish_ns,
        });
        let traced = |i: usize| {
            let f = &self.flows[i];
            // No window; the data rate the credit rate authorises, bits/s.
            let r = if f.rx.active {
                f.rx.rate_bps as f64
            } else {
                0.0
            };
            (0.0, r * frame_per_credit * 8.0)
        };
        let s = &mut self.series;
        s.sample_flows(now, dt, &mut self.last_rx, flows, traced);
        for (k, &(node, port)) in self.monitors.iter().enumerate() {
            let p = &mut self.nodes[node as usize].ports[port as usize];
            s.sample_port(k, p.data_bytes, p.max_since_sample, p.tx_bytes);
            p.max_since_sample = p.data_bytes;
        }
        if now + dt <= self.cfg.duration_ns {
            self.schedule(now + dt, Ev::Sample);
        }
    }

    /// Lower bound on a flow's FCT: request out, first credit back, then the payload at the
    /// path's slowest data rate (95 % of it, the rest is credits) plus one data propagation.
    pub(super) fn ideal_ns(&self, f: usize) -> u64 {
        let fl = &self.flows[f];
        if fl.spec.size_bytes == 0 {
            return 0;
        }
        let mut node = self.host_nodes[fl.spec.src as usize];
        let target = self.host_nodes[fl.spec.dst as usize];
        let probe = self.ctrl(f, KIND_DATA, true, 0);
        let (mut one_way, mut min_rate, mut guard) = (0u64, u64::MAX, 0);
        while node != target && guard < 64 {
            let port = self.route_port(node, &probe);
            let p = &self.nodes[node as usize].ports[port as usize];
            one_way += p.delay_ns;
            min_rate = min_rate.min(p.rate_bits_per_s);
            node = p.peer;
            guard += 1;
        }
        let frame = (self.cfg.mss_bytes + self.cfg.header_bytes) as u64;
        let credit = self.cfg.credit_bytes as u64;
        let pkts = fl.spec.size_bytes.div_ceil(self.cfg.mss_bytes as u64);
        let wire = fl.spec.size_bytes + pkts * self.cfg.header_bytes as u64;
        let data_rate = min_rate as f64 * frame as f64 / (frame + credit) as f64;
        3 * one_way + (wire as f64 * 8e9 / data_rate) as u64
    }

    /// The links (node, port) a flow's packets in one direction cross.
    pub fn path(&self, flow: usize, to_receiver: bool) -> Vec<(u32, u16)> {
        let fl = &self.flows[flow];
        let (src, dst) = if to_receiver {
            (fl.spec.src, fl.spec.dst)
        } else {
            (fl.spec.dst, fl.spec.src)
        };
        let probe = self.ctrl(flow, KIND_DATA, to_receiver, 0);
        let mut node = self.host_nodes[src as usize];
        let target = self.host_nodes[dst as usize];
        let mut hops = Vec::new();
        while node != target && hops.len() < 64 {
            let port = self.route_port(node, &probe);
            hops.push((node, port));
            node = self.nodes[node as usize].ports[port as usize].peer;
        }
        hops
    }

    /// The peer of a port.
    pub fn peer(&self, node: u32, port: u16) -> u32 {
        self.nodes[node as usize].ports[port as usize].peer
    }

    /// Collect the output at the current time.
    pub fn finish(self) -> (RunOutput, XpassStats) {
        let eq1: Vec<Eq1Port> = if self.flows.len() <= EQ1_MAX_FLOWS {
            self.eq1_bounds()
                .into_iter()
                .map(|((n, p), b)| Eq1Port {
                    name: b.name,
                    spread_ns: b.spread_ns,
                    bound_bytes: b.bytes,
                    max_queue_bytes: self.nodes[n as usize].ports[p as usize].max_data_bytes,
                })
                .collect()
        } else {
            Vec::new()
        };
        let mut in_net = 0u64;
        for n in &self.nodes {
            for p in &n.ports {
                in_net += p.data_q.iter().filter(|k| k.kind == KIND_DATA).count() as u64;
            }
        }
        for e in self.events.iter() {
            if let Ev::Arrive { pkt, .. } | Ev::HostTx { pkt, .. } = e.ev {
                in_net += (pkt.kind == KIND_DATA) as u64;
            }
        }
        let mut port_stats = Vec::new();
        for n in self.nodes.iter().filter(|n| n.host.is_none()) {
            for (p, name) in n.ports.iter().zip(&n.names) {
                port_stats.push(PortStat {
                    name: name.clone(),
                    drops: p.data_drops,
                    max_queue_bytes: p.max_data_bytes,
                    tx_bytes: p.tx_bytes,
                    paused_ns: 0,
                    pauses_sent: 0,
                });
            }
        }
        let monitor_rates = self
            .monitors
            .iter()
            .map(|&(n, p)| self.nodes[n as usize].ports[p as usize].rate_bits_per_s)
            .collect();
        let flows = (0..self.flows.len())
            .map(|i| {
                let f = &self.flows[i];
                FlowRecord {
                    spec: f.spec.clone(),
                    finish_ns: f.done.then_some(f.finish_ns),
                    ideal_ns: self.ideal_ns(i),
                    rx_bytes: f.rx_bytes,
                    retransmits: f.retransmits,
                    drops: f.drops,
                    last_signal: f.rx.rate_bps as i64,
                    min_rtt_ns: f.min_rtt_ns,
                }
            })
            .collect();
        let mut x = self.x;
        x.eq1 = eq1;
        x.flow_credits = self
            .flows
            .iter()
            .map(|f| (f.credits_sent, f.tx.used + f.tx.wasted, f.tx.wasted))
            .collect();
        x.credits_wasted = x
            .credits_wasted
            .max(self.flows.iter().map(|f| f.tx.wasted).sum());
        let out = RunOutput {
            profiles: self.profiles,
            flows,
            series: self.series,
            monitor_names: self.monitor_names,
            monitor_rates,
            rtt_ns: self.rtt_samples,
            rtt_flow: self.rtt_flows,
            counters: self.c,
            data_in_network: in_net,
            port_stats,
            end_ns: self.now,
        };
        (out, x)
    }
}
