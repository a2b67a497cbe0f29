//! Topologies: nodes (hosts and switches), full-duplex links as pairs of output ports, and
//! shortest-path routing with every equal-cost next hop kept for ECMP.

use crate::error::{invalid, Result};
use serde::{Deserialize, Serialize};
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
    /// Index of the port on `peer` that leads back here (the reverse direction of the link:
    /// where this port's PFC pause frames come from).
    pub rev: u16,
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
    /// Switches: the output ports on a shortest path (ECMP set) per destination host, stored as
    /// host ranges (hosts are numbered edge switch by edge switch, so a switch needs one range
    /// per down port plus a few for "everything else": linear in hosts, not quadratic).
    pub routes: RouteTable,
}

/// Per switch: destination host ranges, each with its ECMP set of output ports.
#[derive(Clone, Debug, Default)]
pub struct RouteTable {
    /// `(first host, one past the last host, start in ports, count)`, sorted, disjoint.
    ranges: Vec<(u32, u32, u32, u32)>,
    /// The ECMP sets, back to back.
    ports: Vec<u16>,
}

impl RouteTable {
    /// The ECMP set towards host `h` (empty: unreachable).
    pub fn lookup(&self, h: u32) -> &[u16] {
        let i = self.ranges.partition_point(|r| r.1 <= h);
        match self.ranges.get(i) {
            Some(&(lo, _, start, n)) if lo <= h => {
                &self.ports[start as usize..(start + n) as usize]
            }
            _ => &[],
        }
    }

    /// Number of ranges (memory check in tests).
    pub fn len(&self) -> usize {
        self.ranges.len()
    }

    /// No routes at all (hosts).
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Append `[lo, hi) -> set`; hosts must be appended in increasing order. Merges with the
    /// previous range when it is adjacent and has the same set.
    fn push(&mut self, lo: u32, hi: u32, set: &[u16]) {
        if set.is_empty() {
            return;
        }
        if let Some(last) = self.ranges.last_mut() {
            let (start, n) = (last.2 as usize, last.3 as usize);
            if last.1 == lo && self.ports[start..start + n] == *set {
                last.1 = hi;
                return;
            }
        }
        let start = self.ports.len() as u32;
        self.ports.extend_from_slice(set);
        self.ranges.push((lo, hi, start, set.len() as u32));
    }
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
#[derive(Clone, Debug, Deserialize, Serialize)]
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
    /// k-ary fat-tree (Al-Fares et al., SIGCOMM'08): k pods of k/2 edge and k/2 aggregation
    /// switches, (k/2)^2 core switches; edge `e` of pod `p` links to every aggregation switch
    /// of its pod, aggregation switch `a` to cores `a*k/2 .. (a+1)*k/2`. ECMP over every
    /// shortest path. Host `(p*k/2 + e) * hosts_per_edge + j` hangs off edge `e` of pod `p`.
    FatTree {
        /// Switch radix k (even).
        k: u32,
        /// Hosts per edge switch (default k/2: full bisection at equal rates).
        hosts_per_edge: Option<u32>,
        /// Host link rate.
        host_rate_gbps: f64,
        /// Switch-to-switch link rate.
        fabric_rate_gbps: f64,
        /// Delay of every link (but the core links, when given).
        link_delay_us: f64,
        /// Delay of the aggregation-core links (default: `link_delay_us`). ExpressPass Table 1
        /// (§3.1): "propagation delay of 5 µs for core links and 1 µs for others".
        core_link_delay_us: Option<f64>,
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
            routes: RouteTable::default(),
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
            routes: RouteTable::default(),
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
                rev: 0,
                name,
            });
            (n.ports.len() - 1) as u16
        };
        let pa = add(a, b, self);
        let pb = add(b, a, self);
        self.nodes[a as usize].ports[pa as usize].rev = pb;
        self.nodes[b as usize].ports[pb as usize].rev = pa;
        pa
    }

    /// Routes: breadth-first search from every edge switch (the switch a host hangs off) over
    /// switches only (hosts do not forward); at a switch, the ECMP set towards a host is every
    /// port one hop closer to the host's edge switch, and at the edge switch the host's own
    /// port. Hosts of one edge switch share everything but the last hop, so each block of
    /// consecutive hosts on one edge switch costs one search and one range per switch, merged
    /// with its neighbour when the set is the same. O(edge switches x links) time.
    fn finish(mut self, monitors: Vec<(u32, u16)>) -> Network {
        let hosts = self.host_nodes.clone();
        let n = self.nodes.len();
        let edge_of = |b: &Builder, h: usize| -> Option<(u32, u16)> {
            let p = b.nodes[hosts[h] as usize].ports.first()?;
            Some((p.peer, p.rev))
        };
        let mut dist = vec![u32::MAX; n];
        let mut q = VecDeque::new();
        let mut set = Vec::new();
        let mut h = 0;
        while h < hosts.len() {
            let Some((edge, _)) = edge_of(&self, h) else {
                h += 1;
                continue;
            };
            let mut hi = h + 1;
            while hi < hosts.len() && edge_of(&self, hi).map(|e| e.0) == Some(edge) {
                hi += 1;
            }
            dist.iter_mut().for_each(|d| *d = u32::MAX);
            dist[edge as usize] = 0;
            q.push_back(edge);
            while let Some(u) = q.pop_front() {
                for p in &self.nodes[u as usize].ports {
                    let v = p.peer as usize;
                    if dist[v] == u32::MAX && self.nodes[v].host.is_none() {
                        dist[v] = dist[u as usize] + 1;
                        q.push_back(p.peer);
                    }
                }
            }
            for u in 0..n {
                if self.nodes[u].host.is_some() || dist[u] == u32::MAX {
                    continue;
                }
                if u == edge as usize {
                    for k in h..hi {
                        let port = edge_of(&self, k).expect("host has a port").1;
                        self.nodes[u].routes.push(k as u32, k as u32 + 1, &[port]);
                    }
                    continue;
                }
                set.clear();
                for (i, p) in self.nodes[u].ports.iter().enumerate() {
                    let v = p.peer as usize;
                    if self.nodes[v].host.is_none() && dist[v] != u32::MAX && dist[v] + 1 == dist[u]
                    {
                        set.push(i as u16);
                    }
                }
                self.nodes[u].routes.push(h as u32, hi as u32, &set);
            }
            h = hi;
        }
        Network {
            nodes: self.nodes,
            host_nodes: self.host_nodes,
            monitors,
        }
    }
}

/// A link override applied after the topology is built: `host`'s access link, or the link
/// between the two named nodes (`between = ["leaf0", "spine1"]`); both directions.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpec {
    /// Host index: its access link.
    #[serde(default)]
    pub host: Option<u32>,
    /// Node names at the two ends.
    #[serde(default)]
    pub between: Option<[String; 2]>,
    /// New rate, Gbit/s.
    #[serde(default)]
    pub rate_gbps: Option<f64>,
    /// New one-way propagation delay, µs.
    #[serde(default)]
    pub delay_us: Option<f64>,
}

impl Network {
    /// Set the rate and/or delay of a link (both directions). Errors name the link.
    pub fn apply(&mut self, l: &LinkSpec) -> Result<()> {
        let (a, pa) = match (&l.host, &l.between) {
            (Some(h), None) => {
                let n = *self
                    .host_nodes
                    .get(*h as usize)
                    .ok_or_else(|| invalid!("links: host {h} does not exist"))?;
                (n, 0u16)
            }
            (None, Some([x, y])) => {
                let find = |name: &str| {
                    self.nodes
                        .iter()
                        .position(|n| n.name == name)
                        .ok_or_else(|| invalid!("links: no node named {name:?}"))
                };
                let (a, b) = (find(x)?, find(y)?);
                let p = self.nodes[a]
                    .ports
                    .iter()
                    .position(|p| p.peer as usize == b)
                    .ok_or_else(|| invalid!("links: {x:?} and {y:?} are not linked"))?;
                (a as u32, p as u16)
            }
            _ => {
                return Err(invalid!(
                    "links: give exactly one of host = N or between = [A, B]"
                ))
            }
        };
        let (b, pb) = {
            let p = &self.nodes[a as usize].ports[pa as usize];
            (p.peer, p.rev)
        };
        for (n, p) in [(a, pa), (b, pb)] {
            let port = &mut self.nodes[n as usize].ports[p as usize];
            if let Some(r) = l.rate_gbps {
                port.rate_bits_per_s = gbps(r);
            }
            if let Some(d) = l.delay_us {
                port.delay_ns = us(d);
            }
        }
        Ok(())
    }

    /// The (node, port) of the port named `name` (`from->to`).
    pub fn port_named(&self, name: &str) -> Option<(u32, u16)> {
        let (from, _) = name.split_once("->")?;
        let n = self.nodes.iter().position(|n| n.name == from)?;
        let p = self.nodes[n].ports.iter().position(|p| p.name == name)?;
        Some((n as u32, p as u16))
    }
}

/// The link fields every [`TopologySpec`] has ([`TopologySpec::links`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Links {
    /// Host link rate, Gbit/s.
    pub host_rate_gbps: f64,
    /// Delay of every link (but a dumbbell's bottleneck, when given), µs.
    pub link_delay_us: f64,
    /// Buffer per switch port, KB.
    pub buffer_kb: f64,
    /// ECN threshold, KB (0 = off).
    pub ecn_k_kb: f64,
}

impl TopologySpec {
    /// Number of hosts the topology has (without building it).
    pub fn hosts(&self) -> u64 {
        match *self {
            TopologySpec::Incast { senders, .. } => senders as u64 + 1,
            TopologySpec::Dumbbell { left, right, .. } => left as u64 + right as u64,
            TopologySpec::ParkingLot {
                switches,
                hosts_per_switch,
                ..
            } => switches as u64 * hosts_per_switch as u64,
            TopologySpec::LeafSpine {
                leaves,
                hosts_per_leaf,
                ..
            } => leaves as u64 * hosts_per_leaf as u64,
            TopologySpec::FatTree {
                k, hosts_per_edge, ..
            } => k as u64 * (k as u64 / 2) * hosts_per_edge.unwrap_or(k / 2) as u64,
        }
    }

    /// The link fields every topology has.
    pub fn links(&self) -> Links {
        match *self {
            TopologySpec::Incast {
                host_rate_gbps,
                link_delay_us,
                buffer_kb,
                ecn_k_kb,
                ..
            }
            | TopologySpec::Dumbbell {
                host_rate_gbps,
                link_delay_us,
                buffer_kb,
                ecn_k_kb,
                ..
            }
            | TopologySpec::ParkingLot {
                host_rate_gbps,
                link_delay_us,
                buffer_kb,
                ecn_k_kb,
                ..
            }
            | TopologySpec::LeafSpine {
                host_rate_gbps,
                link_delay_us,
                buffer_kb,
                ecn_k_kb,
                ..
            }
            | TopologySpec::FatTree {
                host_rate_gbps,
                link_delay_us,
                buffer_kb,
                ecn_k_kb,
                ..
            } => Links {
                host_rate_gbps,
                link_delay_us,
                buffer_kb,
                ecn_k_kb,
            },
        }
    }

    /// Build the network.
    pub fn build(&self) -> Network {
        let mut b = Builder::new();
        let links = self.links();
        let host = gbps(links.host_rate_gbps);
        let (d, buf, ecn) = (
            us(links.link_delay_us),
            kb(links.buffer_kb),
            kb(links.ecn_k_kb),
        );
        match *self {
            TopologySpec::Incast {
                senders,
                receiver_rate_gbps,
                ..
            } => {
                let hosts: Vec<u32> = (0..=senders).map(|_| b.host()).collect();
                let sw = b.switch("sw".into());
                let mut mon = 0;
                for (i, &h) in hosts.iter().enumerate() {
                    let rate = if i as u32 == senders {
                        receiver_rate_gbps.map_or(host, gbps)
                    } else {
                        host
                    };
                    b.link(h, sw, rate, d, buf, ecn);
                    mon = b.nodes[sw as usize].ports.len() as u16 - 1;
                }
                b.finish(vec![(sw, mon)])
            }
            TopologySpec::Dumbbell {
                left,
                right,
                bottleneck_rate_gbps,
                bottleneck_delay_us,
                ..
            } => {
                let lh: Vec<u32> = (0..left).map(|_| b.host()).collect();
                let rh: Vec<u32> = (0..right).map(|_| b.host()).collect();
                let l = b.switch("L".into());
                let r = b.switch("R".into());
                for &h in lh.iter() {
                    b.link(h, l, host, d, buf, ecn);
                }
                for &h in rh.iter() {
                    b.link(h, r, host, d, buf, ecn);
                }
                let bd = bottleneck_delay_us.map_or(d, us);
                let p = b.link(l, r, gbps(bottleneck_rate_gbps), bd, buf, ecn);
                b.finish(vec![(l, p)])
            }
            TopologySpec::ParkingLot {
                switches,
                hosts_per_switch,
                chain_rate_gbps,
                ..
            } => {
                let hosts: Vec<u32> = (0..switches * hosts_per_switch).map(|_| b.host()).collect();
                let sws: Vec<u32> = (0..switches).map(|s| b.switch(format!("s{s}"))).collect();
                for (i, &h) in hosts.iter().enumerate() {
                    b.link(h, sws[i / hosts_per_switch as usize], host, d, buf, ecn);
                }
                let mut mons = Vec::new();
                for w in sws.windows(2) {
                    let p = b.link(w[0], w[1], gbps(chain_rate_gbps), d, buf, ecn);
                    mons.push((w[0], p));
                }
                b.finish(mons)
            }
            TopologySpec::LeafSpine {
                leaves,
                spines,
                hosts_per_leaf,
                fabric_rate_gbps,
                ..
            } => {
                let hosts: Vec<u32> = (0..leaves * hosts_per_leaf).map(|_| b.host()).collect();
                let lv: Vec<u32> = (0..leaves).map(|l| b.switch(format!("leaf{l}"))).collect();
                let sp: Vec<u32> = (0..spines).map(|s| b.switch(format!("spine{s}"))).collect();
                let mut mons = Vec::new();
                for (i, &h) in hosts.iter().enumerate() {
                    b.link(h, lv[i / hosts_per_leaf as usize], host, d, buf, ecn);
                    if i == 0 {
                        let p = b.nodes[lv[0] as usize].ports.len() as u16 - 1;
                        mons.push((lv[0], p));
                    }
                }
                for &l in &lv {
                    for &s in &sp {
                        let p = b.link(l, s, gbps(fabric_rate_gbps), d, buf, ecn);
                        if l == lv[0] && s == sp[0] {
                            mons.push((l, p));
                        }
                    }
                }
                b.finish(mons)
            }
            TopologySpec::FatTree {
                k,
                hosts_per_edge,
                fabric_rate_gbps,
                core_link_delay_us,
                ..
            } => {
                let half = k / 2;
                let core_d = core_link_delay_us.map_or(d, us);
                let hpe = hosts_per_edge.unwrap_or(half);
                let hosts: Vec<u32> = (0..k * half * hpe).map(|_| b.host()).collect();
                let edges: Vec<u32> = (0..k * half)
                    .map(|i| b.switch(format!("edge{}_{}", i / half, i % half)))
                    .collect();
                let aggs: Vec<u32> = (0..k * half)
                    .map(|i| b.switch(format!("agg{}_{}", i / half, i % half)))
                    .collect();
                let cores: Vec<u32> = (0..half * half)
                    .map(|i| b.switch(format!("core{i}")))
                    .collect();
                let mut mons = Vec::new();
                for (i, &h) in hosts.iter().enumerate() {
                    let e = edges[i / hpe as usize];
                    b.link(h, e, host, d, buf, ecn);
                    if i == 0 {
                        let p = b.nodes[e as usize].ports.len() as u16 - 1;
                        mons.push((e, p));
                    }
                }
                let f = gbps(fabric_rate_gbps);
                for pod in 0..k {
                    for e in 0..half {
                        for a in 0..half {
                            let (en, an) = (
                                edges[(pod * half + e) as usize],
                                aggs[(pod * half + a) as usize],
                            );
                            let p = b.link(en, an, f, d, buf, ecn);
                            if pod == 0 && e == 0 && a == 0 {
                                mons.push((en, p));
                            }
                        }
                    }
                    for a in 0..half {
                        for c in 0..half {
                            let an = aggs[(pod * half + a) as usize];
                            let p = b.link(an, cores[(a * half + c) as usize], f, core_d, buf, ecn);
                            if pod == 0 && a == 0 && c == 0 {
                                mons.push((an, p));
                            }
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
            leaf0.routes.lookup(1).len(),
            1,
            "same-leaf host: the downlink only"
        );
        assert_eq!(
            leaf0.routes.lookup(7).len(),
            3,
            "remote host: one next hop per spine"
        );
        let spine0 = &n.nodes[12];
        assert_eq!(spine0.routes.lookup(7).len(), 1);
    }

    #[test]
    fn fat_tree_routes_are_shortest_and_compact() {
        let t = TopologySpec::FatTree {
            k: 4,
            hosts_per_edge: None,
            host_rate_gbps: 10.0,
            fabric_rate_gbps: 10.0,
            link_delay_us: 1.0,
            core_link_delay_us: None,
            buffer_kb: 100.0,
            ecn_k_kb: 0.0,
        };
        let n = t.build();
        // k^3/4 hosts, 5k^2/4 switches.
        assert_eq!(n.host_nodes.len(), 16);
        assert_eq!(n.nodes.len(), 16 + 20);
        let node = |name: &str| n.nodes.iter().find(|x| x.name == name).unwrap();
        // Edge 0 of pod 0: hosts 0,1 below it; everything else over both aggregation switches.
        let e = node("edge0_0");
        assert_eq!(e.routes.lookup(1).len(), 1);
        assert_eq!(e.routes.lookup(2).len(), 2);
        assert_eq!(e.routes.lookup(15).len(), 2);
        // Aggregation: same pod goes down (one port); other pods over its k/2 cores.
        let a = node("agg0_0");
        assert_eq!(a.routes.lookup(3).len(), 1);
        assert_eq!(a.routes.lookup(4).len(), 2);
        // Core: one port per pod; four ranges (pods), not one entry per host.
        let c = node("core0");
        assert_eq!(c.routes.lookup(9).len(), 1);
        assert_eq!(c.routes.len(), 4);
        assert_eq!(
            e.routes.len(),
            2 + 1,
            "its two hosts, then one range for every other host"
        );
        // Table 1: 5 µs on the aggregation-core links (both directions), 1 µs elsewhere.
        let mut t5 = t.clone();
        if let TopologySpec::FatTree {
            core_link_delay_us, ..
        } = &mut t5
        {
            *core_link_delay_us = Some(5.0);
        }
        let n5 = t5.build();
        for x in &n5.nodes {
            for p in &x.ports {
                let core = |id: u32| n5.nodes[id as usize].name.starts_with("core");
                let want = if core(p.peer) || x.name.starts_with("core") {
                    5_000
                } else {
                    1_000
                };
                assert_eq!(p.delay_ns, want, "{}", p.name);
            }
        }
    }

    #[test]
    fn ten_thousand_host_routes_are_linear_in_hosts() {
        // 100 leaves x 100 hosts, 16 spines: a leaf holds its 100 hosts, one range for the
        // hosts numbered below its own and one for those above; a spine one range per leaf.
        let t = TopologySpec::LeafSpine {
            leaves: 100,
            spines: 16,
            hosts_per_leaf: 100,
            host_rate_gbps: 25.0,
            fabric_rate_gbps: 100.0,
            link_delay_us: 1.0,
            buffer_kb: 1000.0,
            ecn_k_kb: 0.0,
        };
        let n = t.build();
        assert_eq!(n.host_nodes.len(), 10_000);
        let ranges: usize = n.nodes.iter().map(|x| x.routes.len()).sum();
        // Leaves: 100 host ranges each, plus 1 (first, last leaf) or 2 (the other 98).
        assert_eq!(ranges, 100 * 100 + 2 + 98 * 2 + 16 * 100);
        let spine = n.nodes.iter().find(|x| x.name == "spine3").unwrap();
        assert_eq!(spine.routes.lookup(9_999).len(), 1);
        let leaf = n.nodes.iter().find(|x| x.name == "leaf50").unwrap();
        assert_eq!(leaf.routes.lookup(0).len(), 16);
        assert_eq!(leaf.routes.lookup(5_042).len(), 1);
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
