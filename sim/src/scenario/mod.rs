//! Scenarios: TOML files describing a topology, a transport model, algorithm profiles and
//! traffic; one run per listed algorithm, written as CSV, PNG and a summary table.

use crate::cc::{build_params_with, Law};
use crate::engine::{FabricConfig, FlowSpec, HostRx, Profile, RunOutput, Sim, SimConfig};
use crate::error::{invalid, Error, Result};
use crate::metrics::{self, Summary};
use crate::params::{ParamSet, PARAMS_KEY};
use crate::rng::{mix, Rng};
use crate::topo::{LinkSpec, Network, TopologySpec};
use crate::workload::{file_requests, poisson, Cdf, FileRequests};
use crate::xpass::{self, XpassConfig, XpassSim, XpassStats};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::Path;
use std::time::Instant;

pub mod human;
mod output;
mod sections;

pub use output::{summary_header, xpass_line};
use sections::{one, ten};
pub use sections::{
    Fabric, FlowGroup, HostGroup, InjectDrop, Report, Requests, Transport, Workload,
};

/// A time in µs (a scenario's `_us` keys) to whole nanoseconds, rounded to nearest: `1.001`
/// (written `"1001ns"`) is 1001 ns, not the 1000 its f64 product truncates to.
pub fn us_to_ns(us: f64) -> u64 {
    (us * 1e3).round() as u64
}

/// A scenario file.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Name (default output directory `results/sim/<name>`).
    pub name: String,
    /// What this reproduces.
    #[serde(default)]
    pub description: String,
    /// Seed of every random choice (workload, ECMP salts, RTT noise).
    #[serde(default = "one")]
    pub seed: u64,
    /// Simulated time, µs.
    pub duration_us: f64,
    /// Statistics (goodput, RTT, queue, Jain mean) cover (measure_from_us, end].
    #[serde(default)]
    pub measure_from_us: f64,
    /// Metrics sampling interval, µs.
    #[serde(default = "ten")]
    pub sample_us: f64,
    /// Algorithms (profile names from `[cc.*]`, or law names) run one after the other; flows
    /// without their own `cc` use the run's algorithm.
    pub algorithms: Vec<String>,
    /// The network.
    pub topology: TopologySpec,
    /// Transport model.
    #[serde(default)]
    pub transport: Transport,
    /// Algorithm profiles: `[cc.NAME] law = "swift"`, optionally `params = "authors"` (the
    /// parameter set it starts from, [`crate::params`]; default `"paper"`), plus `Config` field
    /// overrides (the law's field and module-parameter names, in the modules' units: see
    /// [`human`]).
    #[serde(default)]
    pub cc: BTreeMap<String, toml::Table>,
    /// Explicit flow groups.
    #[serde(default)]
    pub flows: Vec<FlowGroup>,
    /// Generated traffic.
    #[serde(default)]
    pub workload: Option<Workload>,
    /// File requests (PowerTCP §4.1's synthetic incast), beside or without the workload.
    #[serde(default)]
    pub requests: Option<Requests>,
    /// Reporting options.
    #[serde(default)]
    pub report: Report,
    /// Switch buffers and PFC.
    #[serde(default)]
    pub fabric: Fabric,
    /// Host receive paths (slow receivers).
    #[serde(default)]
    pub hosts: Vec<HostGroup>,
    /// Per-link rate and delay overrides.
    #[serde(default)]
    pub links: Vec<LinkSpec>,
    /// Loss injection: drop the first transmission of these segments (tests).
    #[serde(default)]
    pub inject_drop: Vec<InjectDrop>,
}

/// Each host's rack, for the file requests' "different rack" rule: the switch its access link
/// leads to (a ToR in the fat tree and the leaf-spine, the one switch of an incast).
pub(crate) fn host_racks(net: &crate::topo::Network) -> Vec<u32> {
    net.host_nodes
        .iter()
        .map(|&n| net.nodes[n as usize].ports[0].peer)
        .collect()
}

/// One algorithm's run.
pub struct RunResult {
    /// Algorithm name.
    pub name: String,
    /// Raw output.
    pub out: RunOutput,
    /// Summary.
    pub summary: Summary,
    /// Wall time, seconds.
    pub wall_s: f64,
    /// ExpressPass counters (credits sent, dropped, wasted; switch queue), for ExpressPass runs.
    pub xpass: Option<XpassStats>,
}

/// Either engine, driven the same way.
enum Runner {
    Tcp(Box<Sim>),
    Xpass(Box<XpassSim>),
}

impl Runner {
    fn run_until(&mut self, t: u64) {
        match self {
            Runner::Tcp(s) => s.run_until(t),
            Runner::Xpass(s) => s.run_until(t),
        }
    }
    fn now_ns(&self) -> u64 {
        match self {
            Runner::Tcp(s) => s.now_ns(),
            Runner::Xpass(s) => s.now_ns(),
        }
    }
    fn events(&self) -> u64 {
        match self {
            Runner::Tcp(s) => s.events(),
            Runner::Xpass(s) => s.events(),
        }
    }
    fn finish(self) -> (RunOutput, Option<XpassStats>) {
        match self {
            Runner::Tcp(s) => (s.finish(), None),
            Runner::Xpass(s) => {
                let (o, x) = s.finish();
                (o, Some(x))
            }
        }
    }
}

impl Scenario {
    /// Parse a scenario from TOML text: a scenario file, or a run record
    /// ([`crate::record`]), whose `[scenario]` table is the scenario.
    pub fn parse(text: &str) -> Result<Scenario> {
        Scenario::parse_with(text, &[])
    }

    /// Load a scenario file (or a run record).
    pub fn load(path: &Path) -> Result<Scenario> {
        Scenario::load_with(path, &[])
    }

    /// Load a scenario file with `key.path=value` overrides applied before validation (value
    /// in TOML syntax; a bare word is a string): `fabric.pfc=true`, `fabric.buffer=shared`.
    pub fn load_with(path: &Path, overrides: &[String]) -> Result<Scenario> {
        let text = std::fs::read_to_string(path).map_err(Error::at(path))?;
        Scenario::parse_with(&text, overrides).map_err(|e| e.context(path.display().to_string()))
    }

    /// Parse with overrides (see [`Scenario::load_with`]). With overrides, the description
    /// says so (it was written for the file's values): `... (changed by --set K=V ...)`.
    pub fn parse_with(text: &str, overrides: &[String]) -> Result<Scenario> {
        let s = Scenario::parse_fields(text, overrides)?;
        s.validate()?;
        Ok(s)
    }

    /// [`Scenario::load_with`] without the checks that build the network: only
    /// [`Scenario::validate_fields`]. Call [`Scenario::validate`] before running it.
    pub fn load_fields(path: &Path, overrides: &[String]) -> Result<Scenario> {
        let text = std::fs::read_to_string(path).map_err(Error::at(path))?;
        Scenario::parse_fields(&text, overrides).map_err(|e| e.context(path.display().to_string()))
    }

    /// [`Scenario::parse_with`] without the checks that build the network.
    pub fn parse_fields(text: &str, overrides: &[String]) -> Result<Scenario> {
        let text = &human::normalize(text)?;
        let doc: toml::Table = toml::from_str(text).map_err(|e| Error::Invalid(e.to_string()))?;
        let is_record = doc.contains_key("run") && doc.contains_key("scenario");
        if overrides.is_empty() && !is_record {
            // Straight from the text: errors keep their line and column.
            let s: Scenario = toml::from_str(text).map_err(|e| Error::Invalid(e.to_string()))?;
            s.validate_fields()
                .map_err(|e| human::at_line(text, overrides, e))?;
            return Ok(s);
        }
        let mut doc = crate::record::scenario_table(doc);
        for o in overrides {
            let (key, val) = o
                .split_once('=')
                .ok_or_else(|| invalid!("--set {o:?}: expected key.path=value"))?;
            let value: toml::Value = toml::from_str::<toml::Table>(&format!("v = {val}"))
                .ok()
                .and_then(|mut t| t.remove("v"))
                .unwrap_or_else(|| toml::Value::String(val.to_string()));
            let value =
                human::convert_set(key, value).map_err(|e| e.context(format!("--set {o}")))?;
            let parts: Vec<&str> = key.split('.').collect();
            let (last, path) = parts.split_last().expect("split yields one part");
            let mut t = &mut doc;
            for p in path {
                t = t
                    .entry(p.to_string())
                    .or_insert_with(|| toml::Value::Table(toml::Table::new()))
                    .as_table_mut()
                    .ok_or_else(|| invalid!("--set {o:?}: {p} is not a table"))?;
            }
            t.insert(last.to_string(), value);
        }
        let mut s: Scenario = doc
            .try_into()
            .map_err(|e: toml::de::Error| Error::Invalid(e.to_string()))?;
        let changed: Vec<&str> = overrides
            .iter()
            .map(String::as_str)
            .filter(|o| !o.starts_with("description="))
            .collect();
        if !changed.is_empty() {
            s.description = format!(
                "{} (changed by --set {})",
                s.description.trim(),
                changed.join(" --set ")
            );
        }
        s.validate_fields()
            .map_err(|e| human::at_line(text, overrides, e))?;
        Ok(s)
    }

    /// An error about the scenario loaded from `path` with `overrides` (see
    /// [`Scenario::load_with`]), found after loading: `PATH: line N: ERROR` when it names a key
    /// of the file that no override replaced, else the error as it is.
    pub fn locate_error(path: &Path, overrides: &[String], err: Error) -> Error {
        let Ok(text) = std::fs::read_to_string(path) else {
            return err;
        };
        let before = err.to_string();
        match human::at_line(&text, overrides, err) {
            e if e.to_string() == before => e,
            e => e.context(path.display().to_string()),
        }
    }

    /// The scenario as TOML, in full (defaults included): parsing it gives this scenario.
    pub fn to_toml(&self) -> Result<String> {
        toml::to_string(self).map_err(|e| Error::Invalid(e.to_string()))
    }

    pub(crate) fn profile(&self, name: &str) -> Result<Profile> {
        let (law, set, overrides) = match self.cc.get(name) {
            Some(t) => {
                let law_name = t
                    .get("law")
                    .and_then(|v| v.as_str())
                    .ok_or_else(|| invalid!("cc.{name}: missing law = \"...\""))?;
                let law = Law::parse(law_name).ok_or_else(|| match Law::why_not(law_name) {
                    Some(why) => invalid!("cc.{name}: {why}"),
                    None => invalid!(
                        "cc.{name}: unknown law {law_name:?}; valid laws: {}",
                        Law::NAMES.join(", ")
                    ),
                })?;
                let set = match t.get(PARAMS_KEY) {
                    None => ParamSet::Paper,
                    Some(v) => {
                        let s = v
                            .as_str()
                            .ok_or_else(|| invalid!("cc.{name}.{PARAMS_KEY}: expected a string"))?;
                        ParamSet::parse(law, s).map_err(|e| e.context(format!("cc.{name}")))?
                    }
                };
                let mut ov = Vec::new();
                for (k, v) in t {
                    if k == "law" || k == PARAMS_KEY {
                        continue;
                    }
                    let n = v.as_integer().filter(|&n| n >= 0).ok_or_else(|| {
                        invalid!("cc.{name}.{k}: expected a non-negative integer")
                    })?;
                    ov.push((k.clone(), n as u64));
                }
                (law, set, ov)
            }
            None => (
                Law::parse(name).ok_or_else(|| {
                    if let Some(why) = Law::why_not(name) {
                        return invalid!("algorithm {why}");
                    }
                    let mut valid: Vec<&str> = Law::NAMES.to_vec();
                    valid.extend(self.cc.keys().map(|k| k.as_str()));
                    invalid!(
                        "unknown algorithm {name:?}; valid: {} (laws and [cc.*] profiles)",
                        valid.join(", ")
                    )
                })?,
                ParamSet::Paper,
                Vec::new(),
            ),
        };
        Ok(Profile {
            name: name.to_string(),
            law,
            params: build_params_with(law, set, &overrides)
                .map_err(|e| e.context(format!("cc.{name}")))?,
        })
    }

    /// The simulator configuration.
    pub fn sim_config(&self) -> SimConfig {
        let t = &self.transport;
        SimConfig {
            mss_bytes: t.mss_bytes,
            header_bytes: t.header_bytes,
            ack_bytes: t.ack_bytes,
            ack_every: t.ack_every,
            delack_ns: us_to_ns(t.delack_us),
            rtt_quantum_ns: t.rtt_quantum_ns,
            rtt_noise_ns: t.rtt_noise_ns,
            min_rto_ns: us_to_ns(t.min_rto_us),
            remote_delay: t.remote_delay,
            echo_hops: t.echo_hops,
            tlp: t.tlp,
            pace_burst_bytes: t.pace_burst_bytes,
            sample_ns: us_to_ns(self.sample_us),
            duration_ns: us_to_ns(self.duration_us),
            measure_from_ns: us_to_ns(self.measure_from_us),
            seed: self.seed,
            trace_flows: self.report.trace_flows,
            fabric: self.fabric_config(),
            inject_drops: self
                .inject_drop
                .iter()
                .map(|d| (d.flow, d.seg, d.ack))
                .collect(),
            host_rx: self
                .hosts
                .iter()
                .flat_map(|g| {
                    g.ids.iter().map(|&h| HostRx {
                        host: h,
                        rate_bits_per_s: (g.rx_rate_gbps * 1e9).round() as u64,
                        delay_ns: (g.rx_delay_us * 1e3).round() as u64,
                    })
                })
                .collect(),
        }
    }

    fn fabric_config(&self) -> FabricConfig {
        let f = &self.fabric;
        let q16 = |x: f64| (x * 65536.0).round() as u64;
        let b = |kb: f64| (kb * 1e3).round() as u64;
        FabricConfig {
            shared_buffer: f.buffer == "shared",
            switch_buffer_bytes: b(f.switch_buffer_kb),
            dt_alpha_q16: q16(f.dt_alpha),
            pfc: f.pfc,
            pfc_alpha_q16: q16(f.pfc_alpha),
            pfc_reserve_bytes: b(f.pfc_reserve_kb),
            pfc_resume_offset_bytes: b(f.pfc_resume_offset_kb),
            pfc_headroom_bytes: b(f.pfc_headroom_kb),
        }
    }

    /// The network with the link overrides and named bottlenecks applied.
    pub fn network(&self) -> Result<Network> {
        let mut net = self.topology.build();
        for l in &self.links {
            net.apply(l)?;
        }
        if !self.report.bottlenecks.is_empty() {
            net.monitors = self
                .report
                .bottlenecks
                .iter()
                .map(|name| {
                    net.port_named(name)
                        .ok_or_else(|| invalid!("report.bottlenecks: no port named {name:?}"))
                })
                .collect::<Result<_, _>>()?;
        }
        Ok(net)
    }

    /// Build the simulator for algorithm `alg`.
    pub fn build(&self, alg: &str) -> Result<Sim> {
        let net = self.network()?;
        let mut profiles = vec![self.profile(alg)?];
        let flows = self.flow_specs(&net, |cc| match cc {
            None => Ok(0),
            Some(n) => match profiles.iter().position(|p| &p.name == n) {
                Some(i) => Ok(i),
                None => {
                    profiles.push(self.profile(n)?);
                    Ok(profiles.len() - 1)
                }
            },
        })?;
        Ok(Sim::new(&net, profiles, flows, self.sim_config()))
    }

    /// The ExpressPass overrides of `alg` if it names ExpressPass (`expresspass`, or a
    /// `[cc.NAME]` with `law = "expresspass"`), else `None`.
    pub(crate) fn xpass_overrides(&self, alg: &str) -> Option<Result<Vec<(String, u64)>>> {
        let t = match self.cc.get(alg) {
            Some(t) if t.get("law").and_then(|v| v.as_str()) == Some(xpass::config::LAW_NAME) => t,
            None if alg == xpass::config::LAW_NAME => return Some(Ok(Vec::new())),
            _ => return None,
        };
        let mut ov = Vec::new();
        for (k, v) in t {
            if k == "law" {
                continue;
            }
            if k == PARAMS_KEY {
                return Some(Err(invalid!(
                    "cc.{alg}.{PARAMS_KEY}: expresspass has no named parameter sets"
                )));
            }
            match v.as_integer().filter(|&n| n >= 0) {
                Some(n) => ov.push((k.clone(), n as u64)),
                None => {
                    return Some(Err(invalid!(
                        "cc.{alg}.{k}: expected a non-negative integer"
                    )))
                }
            }
        }
        Some(Ok(ov))
    }

    /// ExpressPass settings from the scenario's transport, timing and report sections.
    fn xpass_base(&self) -> XpassConfig {
        let t = &self.transport;
        XpassConfig {
            mss_bytes: t.mss_bytes,
            header_bytes: t.header_bytes,
            sample_ns: us_to_ns(self.sample_us),
            duration_ns: us_to_ns(self.duration_us),
            seed: self.seed,
            trace_flows: self.report.trace_flows,
            ..XpassConfig::default()
        }
    }

    /// Check that `name` resolves to a valid profile: a law with valid parameters, or
    /// ExpressPass with valid keys (validation, before anything runs).
    pub(crate) fn check_profile(&self, name: &str) -> Result<()> {
        match self.xpass_overrides(name) {
            Some(ov) => {
                self.xpass_unsupported()
                    .map_err(|e| e.context(format!("cc.{name}")))?;
                xpass::config::apply(&self.xpass_base(), &ov?)
                    .map(|_| ())
                    .map_err(|e| e.context(format!("cc.{name}")))
            }
            None => self.profile(name).map(|_| ()),
        }
    }

    /// The TCP engine's fabric and host features the ExpressPass engine does not model: a
    /// scenario asking for them with ExpressPass is refused rather than silently run without.
    fn xpass_unsupported(&self) -> Result<()> {
        let f = &self.fabric;
        if f.buffer != "static" || f.pfc {
            return Err(invalid!("expresspass models static per-port buffers only (fabric.buffer = \"static\", no PFC)"));
        }
        if !self.hosts.is_empty() {
            return Err(invalid!(
                "expresspass does not model host receive paths ([[hosts]])"
            ));
        }
        if !self.inject_drop.is_empty() {
            return Err(invalid!("expresspass does not take inject_drop"));
        }
        Ok(())
    }

    /// Build the ExpressPass simulator for `alg` (see [`xpass`]); `None` if `alg` is not
    /// ExpressPass. Every flow of the run is ExpressPass: flow groups naming another algorithm
    /// are refused.
    pub fn build_xpass(&self, alg: &str) -> Option<Result<XpassSim>> {
        let ov = match self.xpass_overrides(alg)? {
            Ok(ov) => ov,
            Err(e) => return Some(Err(e)),
        };
        Some((|| {
            let cfg = xpass::config::apply(&self.xpass_base(), &ov)
                .map_err(|e| e.context(format!("cc.{alg}")))?;
            let net = self.network()?;
            let flows = self.flow_specs(&net, |cc| match cc {
                Some(n) if n != alg => Err(invalid!(
                    "{alg}: flow group with cc = {n:?}: ExpressPass runs cannot mix algorithms"
                )),
                _ => Ok(0),
            })?;
            XpassSim::new(&net, alg, flows, cfg, us_to_ns(self.measure_from_us))
        })())
    }

    /// The flows of the explicit groups and the workload; `profile_of` maps a group's `cc`.
    pub(crate) fn flow_specs(
        &self,
        net: &crate::topo::Network,
        mut profile_of: impl FnMut(&Option<String>) -> Result<usize>,
    ) -> Result<Vec<FlowSpec>> {
        let n_hosts = net.host_nodes.len() as u32;
        let mut flows = Vec::new();
        for (gi, g) in self.flows.iter().enumerate() {
            let profile = profile_of(&g.cc)?;
            for i in 0..g.count {
                let src = g.src + (i / g.conns_per_src.max(1)) * g.src_step;
                if src >= n_hosts || g.dst >= n_hosts || src == g.dst {
                    return Err(invalid!(
                        "flows[{gi}]: flow {i} goes {src} -> {}; hosts are 0..{n_hosts}",
                        g.dst
                    ));
                }
                let start = g.start_us + g.stagger_us * (i / g.stagger_every.max(1)) as f64;
                flows.push(FlowSpec {
                    src,
                    dst: g.dst,
                    size_bytes: g.size_bytes,
                    start_ns: (start * 1e3).round() as u64,
                    profile,
                });
            }
        }
        if let Some(w) = &self.workload {
            let cdf =
                Cdf::named(&w.cdf).ok_or_else(|| invalid!("workload: unknown cdf {}", w.cdf))?;
            let hosts: Vec<u32> = w.hosts.clone().unwrap_or_else(|| (0..n_hosts).collect());
            let rate = net.nodes[net.host_nodes[hosts[0] as usize] as usize].ports[0]
                .rate_bits_per_s as f64;
            let mut rng = Rng::new(mix(self.seed, 0x3017_10ad));
            for (src, dst, size, start) in poisson(
                &mut rng,
                &hosts,
                &cdf,
                w.load,
                rate,
                us_to_ns(w.start_us),
                us_to_ns(w.stop_us),
            ) {
                flows.push(FlowSpec {
                    src,
                    dst,
                    size_bytes: size,
                    start_ns: start,
                    profile: 0,
                });
            }
        }
        if let Some(q) = &self.requests {
            let requesters: Vec<u32> = q.hosts.clone().unwrap_or_else(|| (0..n_hosts).collect());
            let rack_of = host_racks(net);
            let req = FileRequests {
                rate_per_s: q.rate_per_s,
                size_bytes: q.size_bytes,
                fan_in: q.fan_in,
                start_ns: us_to_ns(q.start_us),
                stop_ns: us_to_ns(q.stop_us),
            };
            let mut rng = Rng::new(mix(self.seed, 0xf11e_5e7d));
            let gen = file_requests(&mut rng, &requesters, &rack_of, &req).ok_or_else(|| {
                invalid!(
                    "requests.fan_in = {}: a requester has fewer hosts than that outside its rack",
                    q.fan_in
                )
            })?;
            flows.extend(gen.into_iter().map(|(src, dst, size, start)| FlowSpec {
                src,
                dst,
                size_bytes: size,
                start_ns: start,
                profile: 0,
            }));
        }
        Ok(flows)
    }

    fn jain_from_ns(&self) -> u64 {
        match self.report.jain_from_us {
            Some(us) => us_to_ns(us),
            None => self
                .flows
                .iter()
                .map(|g| {
                    let last = (g.count.max(1) - 1) / g.stagger_every.max(1);
                    us_to_ns(g.start_us + g.stagger_us * last as f64)
                })
                .max()
                .unwrap_or(0),
        }
    }

    /// Run algorithm `alg`; `progress` draws a bar on stderr.
    pub fn run_one(&self, alg: &str, progress: bool) -> Result<RunResult> {
        let mut sim = match self.build_xpass(alg) {
            Some(x) => Runner::Xpass(Box::new(x?)),
            None => Runner::Tcp(Box::new(self.build(alg)?)),
        };
        let end = us_to_ns(self.duration_us);
        let wall = Instant::now();
        let steps = 50u64;
        for k in 1..=steps {
            sim.run_until(end * k / steps);
            if progress {
                let el = wall.elapsed().as_secs_f64();
                eprint!(
                    "\r{:<16} [{:<50}] {:>3}% sim {:.3} ms  {:.1} s  {:.2} Mev/s ",
                    alg,
                    "#".repeat(k as usize),
                    k * 2,
                    sim.now_ns() as f64 / 1e6,
                    el,
                    sim.events() as f64 / el.max(1e-9) / 1e6
                );
            }
        }
        if progress {
            eprintln!();
        }
        let wall_s = wall.elapsed().as_secs_f64();
        let (out, xpass) = sim.finish();
        let summary = metrics::summarize(
            alg,
            &out,
            self.jain_from_ns(),
            us_to_ns(self.measure_from_us),
            &self.report.fct_bins_bytes,
        );
        Ok(RunResult {
            name: alg.to_string(),
            out,
            summary,
            wall_s,
            xpass,
        })
    }

    /// Build every algorithm's simulator once and drop it: refuses a malformed algorithm or
    /// flow before anything runs (building is cheap next to running).
    pub fn check_builds(&self) -> Result<()> {
        for alg in &self.algorithms {
            match self.build_xpass(alg) {
                Some(x) => drop(x?),
                None => drop(self.build(alg)?),
            }
        }
        Ok(())
    }

    /// Run every algorithm; write CSVs, plots and the summary under `out_dir`; return the
    /// results and the summary table.
    pub fn run_all(&self, out_dir: &Path, progress: bool) -> Result<(Vec<RunResult>, String)> {
        let show = progress && std::io::stderr().is_terminal();
        self.check_builds()?;
        let warnings = self.warnings()?;
        let mut results = Vec::new();
        for alg in &self.algorithms {
            let r = self.run_one(alg, show)?;
            if progress && !show {
                eprintln!(
                    "{alg}: {} events in {:.1} s ({:.2} Mev/s)",
                    r.out.counters.events,
                    r.wall_s,
                    r.out.counters.events as f64 / r.wall_s.max(1e-9) / 1e6
                );
            }
            results.push(r);
        }
        let rows: Vec<Summary> = results.iter().map(|r| r.summary.clone()).collect();
        let mut table = metrics::table(&rows);
        for r in &results {
            if let Some(x) = &r.xpass {
                table.push_str(&xpass_line(&r.name, x));
            }
        }
        output::write_outputs(self, out_dir, &results, &rows, &table, &warnings)?;
        Ok((results, table))
    }
}
