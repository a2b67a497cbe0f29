//! Scenario validation: every numeric field is range-checked, every name resolved (laws,
//! profiles, CDFs, hosts, links, bottleneck ports) before anything runs. The first error is
//! returned, naming the field and its accepted range.

use crate::error::{invalid, Result};
use crate::scenario::Scenario;
use crate::topo::TopologySpec;
use crate::workload::Cdf;

/// Largest simulated time, µs (60 s: far beyond any datacenter scenario, keeps ns in u64
/// and sample counts bounded).
pub const MAX_DURATION_US: f64 = 60e6;
/// Most metric samples per run (memory: one row per sample and traced flow).
pub const MAX_SAMPLES: f64 = 2e6;
/// Most hosts in a topology.
pub const MAX_HOSTS: u64 = 1_000_000;
/// Most ports on one switch: ports are numbered in `u16` (routes, monitors), so an incast's or
/// dumbbell's switch (its hosts plus one link) bounds `senders`, `left` and `right`.
pub const MAX_SWITCH_PORTS: u64 = 65_535;
/// Largest link rate, Gbit/s.
pub const MAX_RATE_GBPS: f64 = 10_000.0;
/// Largest link or receive delay, µs (1 s).
pub const MAX_DELAY_US: f64 = 1e6;
/// Largest buffer, KB (1 TB).
pub const MAX_BUFFER_KB: f64 = 1e9;

/// `x` must be finite and within `[lo, hi]`.
fn range(field: &str, x: f64, lo: f64, hi: f64) -> Result<()> {
    if x.is_finite() && x >= lo && x <= hi {
        Ok(())
    } else {
        Err(invalid!("{field} = {x}: must be within [{lo}, {hi}]"))
    }
}

/// `x` must be finite, above `lo` and at most `hi`.
fn above(field: &str, x: f64, lo: f64, hi: f64) -> Result<()> {
    if x.is_finite() && x > lo && x <= hi {
        Ok(())
    } else {
        Err(invalid!("{field} = {x}: must be within ({lo}, {hi}]"))
    }
}

fn int(field: &str, x: u64, lo: u64, hi: u64) -> Result<()> {
    if (lo..=hi).contains(&x) {
        Ok(())
    } else {
        Err(invalid!("{field} = {x}: must be within [{lo}, {hi}]"))
    }
}

fn rate(field: &str, x: f64) -> Result<()> {
    above(field, x, 0.0, MAX_RATE_GBPS)
}
fn delay(field: &str, x: f64) -> Result<()> {
    range(field, x, 0.0, MAX_DELAY_US)
}
fn buffer(field: &str, x: f64) -> Result<()> {
    above(field, x, 0.0, MAX_BUFFER_KB)
}
fn ecn(field: &str, x: f64) -> Result<()> {
    range(field, x, 0.0, MAX_BUFFER_KB)
}

/// A field's name (without the `topology.` prefix) and value.
type Named = (&'static str, f64);

impl TopologySpec {
    /// Range-check every field: first the topology's counts, then the links in the order the
    /// scenario lists them (host rate, the topology's other rate, link delay, its other delay,
    /// buffer, ECN threshold).
    pub fn validate(&self) -> Result<()> {
        let t = "topology";
        let field = |name: &str| format!("{t}.{name}");
        // The rate and delay only some topologies have, with their field names.
        let (other_rate, other_delay): (Option<Named>, Option<Named>) = match *self {
            TopologySpec::Incast {
                senders,
                receiver_rate_gbps,
                ..
            } => {
                int(&field("senders"), senders as u64, 1, MAX_SWITCH_PORTS - 1)?;
                (receiver_rate_gbps.map(|r| ("receiver_rate_gbps", r)), None)
            }
            TopologySpec::Dumbbell {
                left,
                right,
                bottleneck_rate_gbps,
                bottleneck_delay_us,
                ..
            } => {
                int(&field("left"), left as u64, 1, MAX_SWITCH_PORTS - 1)?;
                int(&field("right"), right as u64, 1, MAX_SWITCH_PORTS - 1)?;
                (
                    Some(("bottleneck_rate_gbps", bottleneck_rate_gbps)),
                    bottleneck_delay_us.map(|d| ("bottleneck_delay_us", d)),
                )
            }
            TopologySpec::ParkingLot {
                switches,
                hosts_per_switch,
                chain_rate_gbps,
                ..
            } => {
                int(&field("switches"), switches as u64, 2, 65_535)?;
                int(
                    &field("hosts_per_switch"),
                    hosts_per_switch as u64,
                    1,
                    65_000,
                )?;
                (Some(("chain_rate_gbps", chain_rate_gbps)), None)
            }
            TopologySpec::LeafSpine {
                leaves,
                spines,
                hosts_per_leaf,
                fabric_rate_gbps,
                ..
            } => {
                int(&field("leaves"), leaves as u64, 1, 65_000)?;
                int(&field("spines"), spines as u64, 1, 65_000)?;
                int(&field("hosts_per_leaf"), hosts_per_leaf as u64, 1, 65_000)?;
                if hosts_per_leaf as u64 + spines as u64 > 65_535 {
                    return Err(invalid!(
                        "{t}: hosts_per_leaf + spines = {}: a switch has at most 65535 ports",
                        hosts_per_leaf as u64 + spines as u64
                    ));
                }
                (Some(("fabric_rate_gbps", fabric_rate_gbps)), None)
            }
            TopologySpec::FatTree {
                k,
                hosts_per_edge,
                fabric_rate_gbps,
                core_link_delay_us,
                ..
            } => {
                int(&field("k"), k as u64, 2, 256)?;
                if k % 2 != 0 {
                    return Err(invalid!("{t}.k = {k}: must be even"));
                }
                if let Some(h) = hosts_per_edge {
                    int(&field("hosts_per_edge"), h as u64, 1, 60_000)?;
                }
                (
                    Some(("fabric_rate_gbps", fabric_rate_gbps)),
                    core_link_delay_us.map(|d| ("core_link_delay_us", d)),
                )
            }
        };
        let l = self.links();
        rate(&field("host_rate_gbps"), l.host_rate_gbps)?;
        if let Some((name, r)) = other_rate {
            rate(&field(name), r)?;
        }
        delay(&field("link_delay_us"), l.link_delay_us)?;
        if let Some((name, d)) = other_delay {
            delay(&field(name), d)?;
        }
        buffer(&field("buffer_kb"), l.buffer_kb)?;
        ecn(&field("ecn_k_kb"), l.ecn_k_kb)?;
        let n = self.hosts();
        if n > MAX_HOSTS {
            return Err(invalid!("{t}: {n} hosts; at most {MAX_HOSTS}"));
        }
        if n < 2 {
            return Err(invalid!("{t}: {n} host(s); at least 2"));
        }
        Ok(())
    }
}

impl Scenario {
    /// Check every field; the first problem is returned as an error naming the field. Builds
    /// the network (for the fabric and INT checks): [`Scenario::validate_fields`] first.
    pub fn validate(&self) -> Result<()> {
        self.validate_fields()?;
        self.validate_network()
    }

    /// Check every field that needs nothing built: ranges and names (laws, profiles, CDFs,
    /// hosts). Cheap whatever the topology's size, so it can run before an estimate of what
    /// building it costs ([`crate::preflight`]).
    pub fn validate_fields(&self) -> Result<()> {
        above("duration_us", self.duration_us, 0.0, MAX_DURATION_US)?;
        range(
            "measure_from_us",
            self.measure_from_us,
            0.0,
            self.duration_us,
        )?;
        if self.measure_from_us >= self.duration_us {
            return Err(invalid!(
                "measure_from_us = {}: must be below duration_us = {}",
                self.measure_from_us,
                self.duration_us
            ));
        }
        above("sample_us", self.sample_us, 0.0, self.duration_us)?;
        if self.sample_us < 0.001 || self.duration_us / self.sample_us > MAX_SAMPLES {
            return Err(invalid!(
                "sample_us = {}: at least 0.001 and at most {MAX_SAMPLES} samples per run \
                 (duration_us / sample_us = {})",
                self.sample_us,
                self.duration_us / self.sample_us
            ));
        }
        if self.algorithms.is_empty() {
            return Err(invalid!("algorithms: list at least one"));
        }
        if let Some((i, a)) = self
            .algorithms
            .iter()
            .enumerate()
            .find(|(i, a)| self.algorithms[..*i].contains(a))
        {
            return Err(invalid!(
                "algorithms: {a:?} is listed twice (entry {i}); each run writes DIR/{a}/"
            ));
        }
        self.topology.validate()?;
        let n_hosts = self.topology.hosts();

        let t = &self.transport;
        int("transport.mss_bytes", t.mss_bytes as u64, 64, 65_000)?;
        int("transport.header_bytes", t.header_bytes as u64, 0, 1_000)?;
        int("transport.ack_bytes", t.ack_bytes as u64, 1, 65_000)?;
        int("transport.ack_every", t.ack_every as u64, 1, 2)?;
        range("transport.delack_us", t.delack_us, 0.0, MAX_DELAY_US)?;
        int(
            "transport.rtt_quantum_ns",
            t.rtt_quantum_ns,
            0,
            1_000_000_000,
        )?;
        int("transport.rtt_noise_ns", t.rtt_noise_ns, 0, 1_000_000_000)?;
        int("transport.pace_burst_bytes", t.pace_burst_bytes, 0, 1 << 20)?;
        range("transport.min_rto_us", t.min_rto_us, 1.0, MAX_DELAY_US)?;

        let f = &self.fabric;
        if f.buffer != "static" && f.buffer != "shared" {
            return Err(invalid!(
                "fabric.buffer = {:?}: must be \"static\" or \"shared\"",
                f.buffer
            ));
        }
        if f.pfc && f.buffer != "shared" {
            return Err(invalid!(
                "fabric.pfc = true needs fabric.buffer = \"shared\""
            ));
        }
        range(
            "fabric.switch_buffer_kb",
            f.switch_buffer_kb,
            0.0,
            MAX_BUFFER_KB,
        )?;
        above("fabric.dt_alpha", f.dt_alpha, 0.0, 64.0)?;
        above("fabric.pfc_alpha", f.pfc_alpha, 0.0, 64.0)?;
        range(
            "fabric.pfc_reserve_kb",
            f.pfc_reserve_kb,
            0.0,
            MAX_BUFFER_KB,
        )?;
        range(
            "fabric.pfc_resume_offset_kb",
            f.pfc_resume_offset_kb,
            0.0,
            MAX_BUFFER_KB,
        )?;
        range(
            "fabric.pfc_headroom_kb",
            f.pfc_headroom_kb,
            0.0,
            MAX_BUFFER_KB,
        )?;

        for (i, g) in self.hosts.iter().enumerate() {
            if g.ids.is_empty() {
                return Err(invalid!("hosts[{i}].ids: list at least one host"));
            }
            for &h in &g.ids {
                int(&format!("hosts[{i}].ids"), h as u64, 0, n_hosts - 1)?;
            }
            range(
                &format!("hosts[{i}].rx_rate_gbps"),
                g.rx_rate_gbps,
                0.0,
                MAX_RATE_GBPS,
            )?;
            delay(&format!("hosts[{i}].rx_delay_us"), g.rx_delay_us)?;
        }
        for (i, l) in self.links.iter().enumerate() {
            if let Some(r) = l.rate_gbps {
                rate(&format!("links[{i}].rate_gbps"), r)?;
            }
            if let Some(d) = l.delay_us {
                delay(&format!("links[{i}].delay_us"), d)?;
            }
            if l.rate_gbps.is_none() && l.delay_us.is_none() {
                return Err(invalid!("links[{i}]: give rate_gbps and/or delay_us"));
            }
        }

        for (gi, g) in self.flows.iter().enumerate() {
            let fg = format!("flows[{gi}]");
            int(&format!("{fg}.count"), g.count as u64, 1, 10_000_000)?;
            int(
                &format!("{fg}.conns_per_src"),
                g.conns_per_src as u64,
                1,
                1 << 20,
            )?;
            int(&format!("{fg}.src_step"), g.src_step as u64, 0, n_hosts)?;
            int(
                &format!("{fg}.stagger_every"),
                g.stagger_every as u64,
                1,
                1 << 24,
            )?;
            int(&format!("{fg}.size_bytes"), g.size_bytes, 0, 1 << 50)?;
            range(&format!("{fg}.start_us"), g.start_us, 0.0, MAX_DURATION_US)?;
            range(
                &format!("{fg}.stagger_us"),
                g.stagger_us,
                0.0,
                MAX_DURATION_US,
            )?;
            int(&format!("{fg}.dst"), g.dst as u64, 0, n_hosts - 1)?;
            let batches = (g.count - 1) / g.stagger_every;
            if g.start_us + g.stagger_us * batches as f64 > MAX_DURATION_US {
                return Err(invalid!(
                    "{fg}: the last flow starts after {MAX_DURATION_US} us"
                ));
            }
            let last_src =
                g.src as u64 + ((g.count - 1) / g.conns_per_src) as u64 * g.src_step as u64;
            if last_src >= n_hosts {
                return Err(invalid!(
                    "{fg}: senders {}..={last_src} exceed the hosts 0..{n_hosts}",
                    g.src
                ));
            }
            for i in 0..g.count.min(1 << 20) {
                let src = g.src as u64 + (i / g.conns_per_src) as u64 * g.src_step as u64;
                if src == g.dst as u64 {
                    return Err(invalid!("{fg}: flow {i} goes from host {src} to itself"));
                }
            }
        }
        if let Some(w) = &self.workload {
            if Cdf::named(&w.cdf).is_none() {
                return Err(invalid!(
                    "workload.cdf = {:?}: must be \"websearch\" or \"hadoop\"",
                    w.cdf
                ));
            }
            above("workload.load", w.load, 0.0, 1.0)?;
            range("workload.start_us", w.start_us, 0.0, MAX_DURATION_US)?;
            range("workload.stop_us", w.stop_us, w.start_us, MAX_DURATION_US)?;
            if let Some(h) = &w.hosts {
                if h.len() < 2 {
                    return Err(invalid!("workload.hosts: list at least two hosts"));
                }
                for &x in h {
                    int("workload.hosts", x as u64, 0, n_hosts - 1)?;
                }
            }
        }
        if let Some(q) = &self.requests {
            above("requests.rate_per_s", q.rate_per_s, 0.0, 1e6)?;
            int("requests.fan_in", q.fan_in as u64, 1, n_hosts - 1)?;
            int(
                "requests.size_bytes",
                q.size_bytes,
                q.fan_in as u64,
                1 << 40,
            )?;
            range("requests.start_us", q.start_us, 0.0, MAX_DURATION_US)?;
            range("requests.stop_us", q.stop_us, q.start_us, MAX_DURATION_US)?;
            if let Some(h) = &q.hosts {
                if h.is_empty() {
                    return Err(invalid!("requests.hosts: list at least one host"));
                }
                for &x in h {
                    int("requests.hosts", x as u64, 0, n_hosts - 1)?;
                }
            }
        }
        let explicit: u64 = self.flows.iter().map(|g| g.count as u64).sum();
        for (i, d) in self.inject_drop.iter().enumerate() {
            if self.workload.is_none() && self.requests.is_none() {
                int(
                    &format!("inject_drop[{i}].flow"),
                    d.flow as u64,
                    0,
                    explicit.max(1) - 1,
                )?;
            }
            int(&format!("inject_drop[{i}].seg"), d.seg, 0, 1 << 40)?;
        }
        if self.flows.is_empty() && self.workload.is_none() && self.requests.is_none() {
            return Err(invalid!(
                "no traffic: give [[flows]], [workload] or [requests]"
            ));
        }

        let r = &self.report;
        let mut prev = 0;
        for &b in &r.fct_bins_bytes {
            if b <= prev {
                return Err(invalid!(
                    "report.fct_bins_bytes: {b} must be positive and above the previous edge"
                ));
            }
            prev = b;
        }
        if let Some(j) = r.jain_from_us {
            range("report.jain_from_us", j, 0.0, self.duration_us)?;
        }
        int("report.trace_flows", r.trace_flows as u64, 0, 100_000)?;
        // A bin holds at least one sample and fits in the run.
        let b = r.buffer_bin_us;
        if !(b == 0.0 || (b.is_finite() && b >= self.sample_us && b <= self.duration_us)) {
            return Err(invalid!(
                "report.buffer_bin_us = {b}: must be 0 (none) or within [sample_us, duration_us] \
                 = [{}, {}]",
                self.sample_us,
                self.duration_us
            ));
        }

        // Names: every algorithm and flow-group profile resolves and its parameters validate;
        // links and bottleneck ports exist.
        for a in &self.algorithms {
            self.check_profile(a).map_err(|e| e.context("algorithms"))?;
        }
        for (gi, g) in self.flows.iter().enumerate() {
            if let Some(c) = &g.cc {
                self.check_profile(c)
                    .map_err(|e| e.context(format!("flows[{gi}].cc")))?;
            }
        }
        for (name, _) in self.cc.iter() {
            self.check_profile(name)?;
        }
        Ok(())
    }

    /// The checks that need the network: link overrides, bottleneck ports, the PFC fabric's
    /// headroom, INT rates.
    fn validate_network(&self) -> Result<()> {
        let net = self.network()?;
        crate::engine::check_fabric(&net, &self.sim_config())?;
        if let Some(q) = &self.requests {
            // The different-rack rule needs `fan_in` hosts outside every requester's rack.
            let rack_of = crate::scenario::host_racks(&net);
            let n_hosts = rack_of.len() as u32;
            let mut per_rack = std::collections::BTreeMap::new();
            for &r in &rack_of {
                *per_rack.entry(r).or_insert(0usize) += 1;
            }
            for h in q.hosts.clone().unwrap_or_else(|| (0..n_hosts).collect()) {
                let others = rack_of.len() - per_rack[&rack_of[h as usize]];
                if others < q.fan_in as usize {
                    return Err(invalid!(
                        "requests.fan_in = {}: requester {h} has {others} hosts outside its rack \
                         (responders come from other racks)",
                        q.fan_in
                    ));
                }
            }
        }
        let names = self
            .algorithms
            .iter()
            .chain(self.flows.iter().filter_map(|g| g.cc.as_ref()))
            .chain(self.cc.keys());
        let mut int = false;
        for n in names {
            if self.xpass_overrides(n).is_none() {
                int |= self.profile(n)?.law.int();
            }
        }
        if int {
            crate::engine::check_int(&net)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::cc::Law;

    #[test]
    fn every_listed_law_name_parses() {
        for n in Law::NAMES {
            assert!(Law::parse(n).is_some(), "{n}");
        }
    }
}
