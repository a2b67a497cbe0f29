//! Checks of a valid scenario before it runs, for runs that cannot mean what they say:
//!
//! - [`estimate`]: the memory and set-up time of a scenario's topology, flows and series, from
//!   counts alone (nothing is built), judged against this machine by [`Limits::judge`]: a
//!   note above [`NOTE_BYTES`] or [`NOTE_SECONDS`], a refusal (unless `--allow-big`) above the
//!   memory available or [`Limits::setup_s`].
//! - [`Scenario::warnings`]: the topology built once, every flow's ECMP paths walked: a warning
//!   when no flow crosses a monitored bottleneck port (its utilization and queue would read 0).
//!
//! The estimate's constants were fitted to the `sim` binary (opt-level 3) on the 2-core
//! development machine: 1,000 B per host, 550 B per output port, 1 KB per flow; set-up time
//! 4 µs per host, 2 µs per port and 20 ns per (switch, port) pair (route computation), which
//! matched dumbbells of 100k and 400k hosts and a 400x400 leaf-spine within 15 % and the k=64
//! fat-tree (40 s, 264 MB) within 10 %, and overestimates a k=32 fat-tree's time about 4x.

use crate::error::Result;
use crate::topo::TopologySpec;
use crate::workload::Cdf;
use crate::Scenario;
use std::collections::HashSet;

/// An estimate above this much memory is printed.
pub const NOTE_BYTES: f64 = 1e9;
/// An estimate above this set-up time is printed.
pub const NOTE_SECONDS: f64 = 10.0;
/// Default refusal limit on set-up time (building the network and the simulator, three times:
/// validation, the algorithms' build check, the run), seconds.
pub const SETUP_LIMIT_S: f64 = 600.0;

/// What a scenario will cost before it simulates a single event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Hosts.
    pub hosts: u64,
    /// Switches.
    pub switches: u64,
    /// Output ports (two per link).
    pub ports: u64,
    /// Flows (explicit groups, plus the workload's expected arrivals).
    pub flows: u64,
    /// Peak memory, bytes.
    pub mem_bytes: f64,
    /// Set-up time, seconds.
    pub setup_s: f64,
}

impl std::fmt::Display for Estimate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} hosts, {} switches, {} ports, {} flows: about {:.1} GB of memory and {:.0} s \
             to set up",
            self.hosts,
            self.switches,
            self.ports,
            self.flows,
            self.mem_bytes / 1e9,
            self.setup_s
        )
    }
}

/// (hosts, switches, links) of a topology, from its fields.
pub fn counts(t: &TopologySpec) -> (u64, u64, u64) {
    let h = t.hosts();
    match *t {
        TopologySpec::Incast { .. } => (h, 1, h),
        TopologySpec::Dumbbell { .. } => (h, 2, h + 1),
        TopologySpec::ParkingLot { switches, .. } => {
            let s = switches as u64;
            (h, s, h + s.saturating_sub(1))
        }
        TopologySpec::LeafSpine { leaves, spines, .. } => {
            let (l, s) = (leaves as u64, spines as u64);
            (h, l + s, h + l * s)
        }
        TopologySpec::FatTree { k, .. } => {
            let (k, half) = (k as u64, k as u64 / 2);
            // k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 cores; edge-agg and
            // agg-core links k^3/4 each.
            (h, k * k + half * half, h + 2 * k * half * half)
        }
    }
}

/// Estimate the cost of `sc` (see the module's constants). Cheap: nothing is built.
pub fn estimate(sc: &Scenario) -> Estimate {
    let (hosts, switches, links) = counts(&sc.topology);
    let ports = 2 * links;
    let mut flows: u64 = sc.flows.iter().map(|g| g.count as u64).sum();
    if let Some(w) = &sc.workload {
        if let Some(cdf) = Cdf::named(&w.cdf) {
            let n = w.hosts.as_ref().map_or(hosts, |h| h.len() as u64) as f64;
            let rate = sc.topology.links().host_rate_gbps * 1e9;
            let per_host = w.load * rate * (w.stop_us - w.start_us).max(0.0) * 1e-6
                / (cdf.mean() * 8.0).max(1.0);
            flows += (n * per_host).ceil() as u64;
        }
    }
    if let Some(q) = &sc.requests {
        let n = q.hosts.as_ref().map_or(hosts, |h| h.len() as u64) as f64;
        let per_host = q.rate_per_s * (q.stop_us - q.start_us).max(0.0) * 1e-6;
        flows += (n * per_host * q.fan_in as f64).ceil() as u64;
    }
    let samples = sc.duration_us / sc.sample_us;
    let traced = flows.min(sc.report.trace_flows as u64) as f64;
    let monitors = sc.report.bottlenecks.len().max(1) as f64;
    let series = samples * (28.0 + 24.0 * (traced + monitors));
    let mem_bytes =
        10e6 + 1000.0 * hosts as f64 + 550.0 * ports as f64 + 1000.0 * flows as f64 + series;
    let setup_s = 4e-6 * hosts as f64
        + 2e-6 * ports as f64
        + 20e-9 * switches as f64 * ports as f64
        + 2e-6 * flows as f64;
    Estimate {
        hosts,
        switches,
        ports,
        flows,
        mem_bytes,
        setup_s,
    }
}

/// What this machine can take.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Memory available (`MemAvailable` of /proc/meminfo), bytes; `None` when unknown (no
    /// memory refusal then).
    pub mem_bytes: Option<f64>,
    /// Longest set-up accepted, seconds.
    pub setup_s: f64,
}

/// What to do about an estimate.
#[derive(Clone, Debug, PartialEq)]
pub enum Verdict {
    /// Nothing to say.
    Fine,
    /// Print this and go on.
    Note(String),
    /// Refuse unless --allow-big; the reason.
    Refuse(String),
}

impl Limits {
    /// This machine's limits.
    pub fn machine() -> Limits {
        let mem = std::fs::read_to_string("/proc/meminfo").ok().and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("MemAvailable:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
                .map(|kb| kb * 1024.0)
        });
        Limits {
            mem_bytes: mem,
            setup_s: SETUP_LIMIT_S,
        }
    }

    /// Judge estimate `e`.
    pub fn judge(&self, e: &Estimate) -> Verdict {
        if let Some(m) = self.mem_bytes.filter(|&m| e.mem_bytes > m) {
            return Verdict::Refuse(format!(
                "the scenario needs {e}: more memory than this machine has available ({:.1} GB); \
                 pass --allow-big to run it anyway",
                m / 1e9
            ));
        }
        if e.setup_s > self.setup_s {
            return Verdict::Refuse(format!(
                "the scenario needs {e}: longer than the {:.0} s limit; pass --allow-big to run it \
                 anyway",
                self.setup_s
            ));
        }
        if e.mem_bytes > NOTE_BYTES || e.setup_s > NOTE_SECONDS {
            return Verdict::Note(format!("the scenario needs {e}"));
        }
        Verdict::Fine
    }
}

impl Scenario {
    /// Warnings about what this (valid) scenario's results can mean: none of its flows crosses
    /// a monitored bottleneck port. Builds the network once.
    pub fn warnings(&self) -> Result<Vec<String>> {
        let net = self.network()?;
        let flows = self.flow_specs(&net, |_| Ok(0))?;
        if flows.is_empty() || net.monitors.is_empty() {
            return Ok(Vec::new());
        }
        let monitors: HashSet<(u32, u16)> = net.monitors.iter().copied().collect();
        let crosses = |src: u32, dst: u32| {
            let start = net.host_nodes[src as usize];
            if monitors.contains(&(start, 0)) {
                return true;
            }
            // Every ECMP path: a walk over the (small) set of switches they visit.
            let mut todo = vec![net.nodes[start as usize].ports[0].peer];
            let mut seen: HashSet<u32> = todo.iter().copied().collect();
            while let Some(n) = todo.pop() {
                let node = &net.nodes[n as usize];
                if node.host.is_some() {
                    continue;
                }
                for &p in node.routes.lookup(dst) {
                    if monitors.contains(&(n, p)) {
                        return true;
                    }
                    let next = node.ports[p as usize].peer;
                    if seen.insert(next) {
                        todo.push(next);
                    }
                }
            }
            false
        };
        if flows.iter().any(|f| crosses(f.src, f.dst)) {
            return Ok(Vec::new());
        }
        let names: Vec<&str> = net
            .monitors
            .iter()
            .map(|&(n, p)| net.nodes[n as usize].ports[p as usize].name.as_str())
            .collect();
        let f = &flows[0];
        Ok(vec![format!(
            "no flow crosses the bottleneck {} (report.bottlenecks, or the topology's): its \
             utilization and queue will read 0 (flow 0 goes host {} -> host {} without it)",
            names.join(", "),
            f.src,
            f.dst
        )])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(mem_gb: f64, setup_s: f64) -> Estimate {
        Estimate {
            hosts: 10,
            switches: 1,
            ports: 20,
            flows: 2,
            mem_bytes: mem_gb * 1e9,
            setup_s,
        }
    }

    #[test]
    fn verdicts() {
        let lim = Limits {
            mem_bytes: Some(8e9),
            setup_s: 600.0,
        };
        let unknown = Limits {
            mem_bytes: None,
            ..lim
        };
        // (limits, memory GB, set-up s, expected: 0 fine, 1 note, 2 refuse; text)
        let cases: &[(Limits, f64, f64, u8, &str)] = &[
            (lim, 0.05, 0.1, 0, ""),
            (
                lim,
                1.5,
                13.0,
                1,
                "about 1.5 GB of memory and 13 s to set up",
            ),
            (lim, 0.2, 30.0, 1, "30 s"),
            (
                lim,
                9.0,
                1.0,
                2,
                "more memory than this machine has available (8.0 GB)",
            ),
            (unknown, 9.0, 1.0, 1, "9.0 GB"),
            (
                lim,
                0.5,
                900.0,
                2,
                "longer than the 600 s limit; pass --allow-big",
            ),
        ];
        for &(l, m, s, want, text) in cases {
            let v = l.judge(&est(m, s));
            let (kind, got) = match &v {
                Verdict::Fine => (0, String::new()),
                Verdict::Note(t) => (1, t.clone()),
                Verdict::Refuse(t) => (2, t.clone()),
            };
            assert_eq!(kind, want, "{m} GB {s} s: {v:?}");
            assert!(got.contains(text), "{m} GB {s} s: {got}");
        }
    }

    proptest::proptest! {
        /// The counts from a topology's fields are those of the network it builds.
        #[test]
        fn counts_are_the_built_networks(kind in 0u8..5, a in 1u32..7, b in 1u32..7, c in 1u32..5, edge in proptest::option::of(1u32..4)) {
            let (r, d, buf, ecn) = (10.0, 1.0, 100.0, 0.0);
            let spec = match kind {
                0 => TopologySpec::Incast { senders: a, host_rate_gbps: r, receiver_rate_gbps: None, link_delay_us: d, buffer_kb: buf, ecn_k_kb: ecn },
                1 => TopologySpec::Dumbbell { left: a, right: b, host_rate_gbps: r, bottleneck_rate_gbps: r, link_delay_us: d, bottleneck_delay_us: None, buffer_kb: buf, ecn_k_kb: ecn },
                2 => TopologySpec::ParkingLot { switches: a + 1, hosts_per_switch: b, host_rate_gbps: r, chain_rate_gbps: r, link_delay_us: d, buffer_kb: buf, ecn_k_kb: ecn },
                3 => TopologySpec::LeafSpine { leaves: a, spines: b, hosts_per_leaf: c, host_rate_gbps: r, fabric_rate_gbps: r, link_delay_us: d, buffer_kb: buf, ecn_k_kb: ecn },
                _ => TopologySpec::FatTree { k: 2 * c, hosts_per_edge: edge, host_rate_gbps: r, fabric_rate_gbps: r, link_delay_us: d, core_link_delay_us: None, buffer_kb: buf, ecn_k_kb: ecn },
            };
            let net = spec.build();
            let ports: u64 = net.nodes.iter().map(|n| n.ports.len() as u64).sum();
            let switches = net.nodes.iter().filter(|n| n.host.is_none()).count() as u64;
            let (h, s, l) = counts(&spec);
            proptest::prop_assert_eq!((h, s, 2 * l), (net.host_nodes.len() as u64, switches, ports));
        }
    }

    #[test]
    fn large_topologies_are_noted_or_refused() {
        let scenario = |topo: &str| {
            Scenario::parse_fields(
                &format!(
                    "name = \"x\"\nduration_us = 100\nalgorithms = [\"dctcp\"]\n[topology]\n{topo}\n\
                     host_rate_gbps = 10\nfabric_rate_gbps = 10\nlink_delay_us = 1\nbuffer_kb = 100\n\
                     [[flows]]\nsrc = 0\ndst = 1\n"
                ),
                &[],
            )
            .unwrap()
        };
        let lim = Limits {
            mem_bytes: Some(16e9),
            setup_s: SETUP_LIMIT_S,
        };
        // (topology, (hosts, switches, ports), verdict: 0 fine, 1 note, 2 refuse)
        let cases: &[(&str, (u64, u64, u64), u8)] = &[
            ("kind = \"fat_tree\"\nk = 4", (16, 20, 96), 0),
            (
                "kind = \"leaf_spine\"\nleaves = 1000\nspines = 16\nhosts_per_leaf = 1000",
                (1_000_000, 1016, 2_032_000),
                1,
            ),
            (
                "kind = \"fat_tree\"\nk = 256\nhosts_per_edge = 1",
                (32_768, 81_920, 16_842_752),
                2,
            ),
        ];
        for &(topo, want, verdict) in cases {
            let e = estimate(&scenario(topo));
            assert_eq!((e.hosts, e.switches, e.ports), want, "{topo}");
            let got = match lim.judge(&e) {
                Verdict::Fine => 0,
                Verdict::Note(_) => 1,
                Verdict::Refuse(_) => 2,
            };
            assert_eq!(got, verdict, "{topo}: {e}");
        }
    }
}
