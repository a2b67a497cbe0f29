//! Topologies: nodes (hosts and switches), full-duplex links as pairs of output ports, and
//! shortest-path routing with every equal-cost next hop kept for ECMP.

use serde::Deserialize;
use std::collections::VecDeque;

/// One output port: a drop-tail FIFO (switches) in front of a link.
#[derive(Clone, Debug)]
pub struct PortDef {
    /// Node at the far end.
    pub peer: u32,
    /// Link rate, bits per second.
    pub rate_bits_per_s: u64,
    /// One-way propagation delay, ns.
    pub delay_ns: u64,
    /// Drop-tail limit on queued bytes (the packet on the wire not counted); `u64::MAX` for
    /// host NICs.
    pub buffer_bytes: u64,
    /// ECN marking threshold on the queue at enqueue, bytes; 0 = no marking.
    pub ecn_k_bytes: u64,
    /// Human-readable name (CSV column, plots).
    pub name: String,
}

/// A node.
#[derive(Clone, Debug)]
pub struct NodeDef {
    /// Host index if this is a host.
    pub host: Option<u32>,
    /// Name.
    pub name: String,
    /// Output ports.
    pub ports: Vec<PortDef>,
    /// Switches: per destination host, the output ports on a shortest path (ECMP set).
    pub routes: Vec<Vec<u16>>,
}

/// A built network.
#[derive(Clone, Debug)]
pub struct Network {
    /// All nodes; hosts first come in host order (`host_nodes`).
    pub nodes: Vec<NodeDef>,
    /// Node index of each host.
    pub host_nodes: Vec<u32>,
    /// Ports whose queue is recorded over time: (node, port).
    pub monitors: Vec<(u32, u16)>,
}

/// Topology as a scenario describes it. Rates in Gbit/s, delays in µs, buffers in KB (1000 B)
/// per switch output port.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum TopologySpec {
    /// N senders and one receiver on one switch (hosts 0..senders send, host `senders`
    /// receives). The switch port to the receiver is the bottleneck.
    Incast {
        /// Number of sender hosts.
        senders: u32,
        /// Sender NIC rate.
        host_rate_gbps: f64,
        /// Receiver link rate (default: host rate).
        receiver_rate_gbps: Option<f64>,
        /// Propagation delay of every link.
        link_delay_us: f64,
        /// Buffer per switch port.
        buffer_kb: f64,
        /// ECN threshold (0 = off).
        #[serde(default)]
        ecn_k_kb: f64,
    },
    /// `left` hosts on switch L, `right` hosts on switch R, one L-R bottleneck link. Hosts
    /// 0..left are on the left.
    Dumbbell {
        /// Hosts on the left switch.
        left: u32,
        /// Hosts on the right switch.
        right: u32,
        /// Host link rate.
        host_rate_gbps: f64,
        /// L-R link rate.
        bottleneck_rate_gbps: f64,
        /// Host link delay.
        link_delay_us: f64,
        /// L-R link delay (default: host link delay).
        bottleneck_delay_us: Option<f64>,
        /// Buffer per switch port.
        buffer_kb: f64,
        /// ECN threshold (0 = off).
        #[serde(default)]
        ecn_k_kb: f64,
    },
    /// A chain of `switches` switches with `hosts_per_switch` hosts on each; every chain link
    /// is a potential bottleneck. Host `s * hosts_per_switch + j` hangs off switch `s`.
    ParkingLot {
        /// Switches in the chain.
        switches: u32,
        /// Hosts per switch.
        hosts_per_switch: u32,
        /// Host link rate.
        host_rate_gbps: f64,
        /// Chain link rate.
        chain_rate_gbps: f64,
        /// Delay of every link.
        link_delay_us: f64,
        /// Buffer per switch port.
        buffer_kb: f64,
        /// ECN threshold (0 = off).
        #[serde(default)]
        ecn_k_kb: f64,
    },
    /// Two-tier leaf-spine (folded Clos): every leaf connects to every spine; ECMP over spines.
    /// Host `l * hosts_per_leaf + j` hangs off leaf `l`.
    LeafSpine {
        /// Leaf (ToR) switches.
        leaves: u32,
        /// Spine switches.
        spines: u32,
        /// Hosts per leaf.
        hosts_per_leaf: u32,
        /// Host link rate.
        host_rate_gbps: f64,
        /// Leaf-spine link rate.
        fabric_rate_gbps: f64,
        /// Delay of every link.
        link_delay_us: f64,
        /// Buffer per switch port.
        buffer_kb: f64,
        /// ECN threshold (0 = off).
        #[serde(default)]
        ecn_k_kb: f64,
    },
}

fn gbps(x: f64) -> u64 {
    (x * 1e9).round() as u64
}
fn us(x: f64) -> u64 {
    (x * 1e3).round() as u64
}
fn kb(x: f64) -> u64 {
    (x * 1e3).round() as u64
}

struct Builder {
    nodes: Vec<NodeDef>,
    host_nodes: Vec<u32>,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            nodes: Vec::new(),
            host_nodes: Vec::new(),
        }
    }
    fn host(&mut self) -> u32 {
        let h = self.host_nodes.len() as u32;
        let id = self.nodes.len() as u32;
        self.nodes.push(NodeDef {
            host: Some(h),
            name: format!("h{h}"),
            ports: Vec::new(),
            routes: Vec::new(),
        });
        self.host_nodes.push(id);
        id
    }
    fn switch(&mut self, name: String) -> u32 {
        let id = self.nodes.len() as u32;
        self.nodes.push(NodeDef {
            host: None,
            name,
            ports: Vec::new(),
            routes: Vec::new(),
        });
        id
    }
    /// Full-duplex link; returns the port index on `a` (towards `b`).
    fn link(&mut self, a: u32, b: u32, rate: u64, delay: u64, buf: u64, k: u64) -> u16 {
        let add = |from: u32, to: u32, s: &mut Builder| {
            let is_host = s.nodes[from as usize].host.is_some();
            let name = format!(
                "{}->{}",
                s.nodes[from as usize].name, s.nodes[to as usize].name
            );
            let n = &mut s.nodes[from as usize];
            n.ports.push(PortDef {
                peer: to,
                rate_bits_per_s: rate,
                delay_ns: delay,
                buffer_bytes: if is_host { u64::MAX } else { buf },
                ecn_k_bytes: if is_host { 0 } else { k },
                name,
            });
            (n.ports.len() - 1) as u16
        };
        let pa = add(a, b, self);
        add(b, a, self);
        pa
    }

    fn finish(mut self, monitors: Vec<(u32, u16)>) -> Network {
        let hosts = self.host_nodes.clone();
        let n = self.nodes.len();
        for node in self.nodes.iter_mut() {
            node.routes = vec![Vec::new(); hosts.len()];
        }
        // BFS from every destination host; hosts do not forward.
        for (h, &dst) in hosts.iter().enumerate() {
            let mut dist = vec![u32::MAX; n];
            dist[dst as usize] = 0;
            let mut q = VecDeque::from([dst]);
            while let Some(u) = q.pop_front() {
                if u != dst && self.nodes[u as usize].host.is_some() {
                    continue;
                }
                for p in &self.nodes[u as usize].ports {
                    let v = p.peer as usize;
                    if dist[v] == u32::MAX {
                        dist[v] = dist[u as usize] + 1;
                        q.push_back(p.peer);
                    }
                }
            }
            for u in 0..n {
                if self.nodes[u].host.is_some() || dist[u] == u32::MAX {
                    continue;
                }
                let d = dist[u];
                let set: Vec<u16> = self.nodes[u]
                    .ports
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| {
                        let pd = dist[p.peer as usize];
                        pd != u32::MAX
                            && pd + 1 == d
                            && (self.nodes[p.peer as usize].host.is_none() || p.peer == dst)
                    })
                    .map(|(i, _)| i as u16)
                    .collect();
                self.nodes[u].routes[h] = set;
            }
        }
        Network {
            nodes: self.nodes,
            host_nodes: self.host_nodes,
            monitors,
        }
    }
}

impl TopologySpec {
    /// Build the network.
    pub fn build(&self) -> Network {
        let mut b = Builder::new();
        match *self {
            TopologySpec::Incast {
                senders,
                host_rate_gbps,
                receiver_rate_gbps,
                link_delay_us,
                buffer_kb,
                ecn_k_kb,
            } => {
                let hosts: Vec<u32> = (0..=senders).map(|_| b.host()).collect();
                let sw = b.switch("sw".into());
                let (d, buf, k) = (us(link_delay_us), kb(buffer_kb), kb(ecn_k_kb));
                let mut mon = 0;
                for (i, &h) in hosts.iter().enumerate() {
                    let rate = if i as u32 == senders {
                        gbps(receiver_rate_gbps.unwrap_or(host_rate_gbps))
                    } else {
                        gbps(host_rate_gbps)
                    };
                    b.link(h, sw, rate, d, buf, k);
                    mon = b.nodes[sw as usize].ports.len() as u16 - 1;
                }
                b.finish(vec![(sw, mon)])
            }
            TopologySpec::Dumbbell {
                left,
                right,
                host_rate_gbps,
                bottleneck_rate_gbps,
                link_delay_us,
                bottleneck_delay_us,
                buffer_kb,
                ecn_k_kb,
            } => {
                let lh: Vec<u32> = (0..left).map(|_| b.host()).collect();
                let rh: Vec<u32> = (0..right).map(|_| b.host()).collect();
                let l = b.switch("L".into());
                let r = b.switch("R".into());
                let (d, buf, k) = (us(link_delay_us), kb(buffer_kb), kb(ecn_k_kb));
                for &h in lh.iter() {
                    b.link(h, l, gbps(host_rate_gbps), d, buf, k);
                }
                for &h in rh.iter() {
                    b.link(h, r, gbps(host_rate_gbps), d, buf, k);
                }
                let bd = us(bottleneck_delay_us.unwrap_or(link_delay_us));
                let p = b.link(l, r, gbps(bottleneck_rate_gbps), bd, buf, k);
                b.finish(vec![(l, p)])
            }
            TopologySpec::ParkingLot {
                switches,
                hosts_per_switch,
                host_rate_gbps,
                chain_rate_gbps,
                link_delay_us,
                buffer_kb,
                ecn_k_kb,
            } => {
                let (d, buf, k) = (us(link_delay_us), kb(buffer_kb), kb(ecn_k_kb));
                let hosts: Vec<u32> = (0..switches * hosts_per_switch).map(|_| b.host()).collect();
                let sws: Vec<u32> = (0..switches).map(|s| b.switch(format!("s{s}"))).collect();
                for (i, &h) in hosts.iter().enumerate() {
                    b.link(
                        h,
                        sws[i / hosts_per_switch as usize],
                        gbps(host_rate_gbps),
                        d,
                        buf,
                        k,
                    );
                }
                let mut mons = Vec::new();
                for w in sws.windows(2) {
                    let p = b.link(w[0], w[1], gbps(chain_rate_gbps), d, buf, k);
                    mons.push((w[0], p));
                }
                b.finish(mons)
            }
            TopologySpec::LeafSpine {
                leaves,
                spines,
                hosts_per_leaf,
                host_rate_gbps,
                fabric_rate_gbps,
                link_delay_us,
                buffer_kb,
                ecn_k_kb,
            } => {
                let (d, buf, k) = (us(link_delay_us), kb(buffer_kb), kb(ecn_k_kb));
                let hosts: Vec<u32> = (0..leaves * hosts_per_leaf).map(|_| b.host()).collect();
                let lv: Vec<u32> = (0..leaves).map(|l| b.switch(format!("leaf{l}"))).collect();
                let sp: Vec<u32> = (0..spines).map(|s| b.switch(format!("spine{s}"))).collect();
                let mut mons = Vec::new();
                for (i, &h) in hosts.iter().enumerate() {
                    b.link(
                        h,
                        lv[i / hosts_per_leaf as usize],
                        gbps(host_rate_gbps),
                        d,
                        buf,
                        k,
                    );
                    if i == 0 {
                        let p = b.nodes[lv[0] as usize].ports.len() as u16 - 1;
                        mons.push((lv[0], p));
                    }
                }
                for &l in &lv {
                    for &s in &sp {
                        let p = b.link(l, s, gbps(fabric_rate_gbps), d, buf, k);
                        if l == lv[0] && s == sp[0] {
                            mons.push((l, p));
                        }
                    }
                }
                b.finish(mons)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaf_spine_routes_use_every_spine_and_local_traffic_stays_local() {
        let t = TopologySpec::LeafSpine {
            leaves: 4,
            spines: 3,
            hosts_per_leaf: 2,
            host_rate_gbps: 25.0,
            fabric_rate_gbps: 100.0,
            link_delay_us: 1.0,
            buffer_kb: 500.0,
            ecn_k_kb: 0.0,
        };
        let n = t.build();
        assert_eq!(n.host_nodes.len(), 8);
        let leaf0 = &n.nodes[8];
        assert_eq!(leaf0.name, "leaf0");
        assert_eq!(
            leaf0.routes[1].len(),
            1,
            "same-leaf host: the downlink only"
        );
        assert_eq!(
            leaf0.routes[7].len(),
            3,
            "remote host: one next hop per spine"
        );
        let spine0 = &n.nodes[12];
        assert_eq!(spine0.routes[7].len(), 1);
    }

    #[test]
    fn dumbbell_monitors_the_bottleneck() {
        let t = TopologySpec::Dumbbell {
            left: 2,
            right: 1,
            host_rate_gbps: 10.0,
            bottleneck_rate_gbps: 10.0,
            link_delay_us: 1.0,
            bottleneck_delay_us: None,
            buffer_kb: 100.0,
            ecn_k_kb: 0.0,
        };
        let n = t.build();
        let (node, port) = n.monitors[0];
        assert_eq!(n.nodes[node as usize].ports[port as usize].name, "L->R");
    }
}
