//! VM experiment scenarios: TOML files under `scenarios/vm/` (or any path) describing the
//! bottleneck (rate, delay, queue limit, ECN marking threshold, random loss) and the flows
//! (algorithm, start time, size or duration). `cargo xtask run --scenario NAME|PATH` runs one;
//! the file is parsed and validated here, on the host, before anything is built or booted, and
//! handed to the guest (`selftests/_scenario.sh`) as a flat shell-variable file.
//!
//! A flow's `algo` is either an algorithm name (a fixed flow, e.g. a reference) or
//! `"under_test"`: the scenario is run once per algorithm in `algos` (a "pass"), with the
//! algorithm of that pass in those flows.

pub use crate::path::{Bed, PathSpec};
use crate::util::repo_root;
pub use crate::workload::Workload;
use serde::Deserialize;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The placeholder for the algorithm of the current pass.
pub const UNDER_TEST: &str = "under_test";

/// The default algorithm set of a scenario without `algos`: the baselines a researcher
/// compares against, then ours.
pub const DEFAULT_BASELINES: &[&str] = &["cubic", "bbr", "vegas", "dctcp"];

/// At most 64 flows, 10 min (the path's limits: `crate::path`).
pub const MAX_FLOWS: u32 = 64;
pub const MAX_DURATION_S: u32 = 600;
pub const MAX_TRIALS: u32 = 15;
/// From this bottleneck rate (Mbit/s) on, a scenario without sized flows traces one in
/// 2^[`TRACE_SAMPLE_BITS`] of the per-ACK events (`Scenario::trace_sample_bits`): at 10 Gbit/s
/// eight flows' ACK and decision events came at ~500 k/s and overflowed 320 MiB of trace buffer
/// in 2 s (VAI/SF's; Documentation/results/uml_testbed.md, which also shows that the sampling
/// leaves the figures and, mostly, the wall time as they were).
pub const TRACE_SAMPLE_FROM_MBIT: u32 = 1000;
/// One in 2^3 = 8 per-ACK events traced on a fast path; at 10 Gbit/s one flow still leaves
/// ~9 k ACK samples per second.
pub const TRACE_SAMPLE_BITS: u32 = 3;
/// `test.max_stall_ms` at most a minute (a trial is at most `MAX_DURATION_S`).
pub const MAX_STALL_MS: u32 = 60_000;

/// A scenario file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Name: the output directory `results/vm/<name>` (default: the file stem).
    #[serde(default)]
    pub name: String,
    /// One line on what this measures.
    #[serde(default)]
    pub description: String,
    /// Algorithms of the passes (default: cubic bbr vegas dctcp and every module we build).
    #[serde(default)]
    pub algos: Vec<String>,
    /// Trials per pass; figures are medians over trials, with min and max.
    #[serde(default = "one")]
    pub trials: u32,
    /// Length of one trial, s: the flows given a duration end by then, sized flows are
    /// waited for up to `duration_s` + 30 s.
    pub duration_s: u32,
    /// Seconds at the start of a trial left out of the throughput and RTT statistics.
    #[serde(default)]
    pub warmup_s: u32,
    /// The bottleneck.
    pub path: PathSpec,
    /// Flow groups.
    #[serde(default)]
    pub flows: Vec<FlowGroup>,
    /// Sized flows drawn from a flow-size CDF with Poisson arrivals (`crate::workload`), after
    /// the groups' flows.
    #[serde(default)]
    pub workload: Option<Workload>,
    /// `cargo xtask test`: the shortened run and its functional checks.
    #[serde(default)]
    pub test: TestSpec,
    /// Our modules' parameters: `"profile"` (selftests/lib_profile.sh, derived for the TCG
    /// path at 50 Mbit/s and 2 ms) or `"defaults"` (the modules' own: the papers' values).
    #[serde(default)]
    pub params: Params,
    /// Extra insmod parameters per module of ours (`swift_vaisf = "base_target_ns=25000"`),
    /// after the set `params` chose: words `name=digits`. Each needs a reason in the file.
    #[serde(default)]
    pub params_set: std::collections::BTreeMap<String, String>,
}

/// The parameter set of our modules in a scenario.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Params {
    /// selftests/lib_profile.sh's values for the TCG path.
    #[default]
    Profile,
    /// The modules' defaults (the papers').
    Defaults,
}

fn one() -> u32 {
    1
}

/// A group of identical flows.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct FlowGroup {
    /// Algorithm name, or `"under_test"`.
    pub algo: String,
    /// Number of flows.
    #[serde(default = "one")]
    pub count: u32,
    /// Start time after the trial starts, ms.
    #[serde(default)]
    pub start_ms: u32,
    /// Bytes to send, KiB (a short flow; its completion time is measured).
    #[serde(default)]
    pub size_kb: Option<u32>,
    /// Seconds to send (default: until the end of the trial).
    #[serde(default)]
    pub duration_s: Option<u32>,
}

/// The shortened run of `cargo xtask test` and its checks.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TestSpec {
    /// Algorithms of the test passes.
    #[serde(default = "test_algos")]
    pub algos: Vec<String>,
    /// Trial length, s (flow durations are scaled by the same factor).
    #[serde(default = "test_duration")]
    pub duration_s: u32,
    /// Each flow's throughput must be at least this % of the reference flow's (a single
    /// `reference` flow run through the same path, in the same boot, just before). 0 = no
    /// throughput check (e.g. short flows). Only with `reference_flows = "single"`.
    #[serde(default)]
    pub min_share_pct: u32,
    /// The scenario's total goodput must be at least this % of the reference pass's; with
    /// `reference_flows = "scenario"` so must its `under_test` long flows' goodput from the
    /// launch of its first later flow, against the same flows of the reference pass. 0 = neither
    /// comparison (`min_share_pct` still compares): a scenario whose harness load decides what
    /// its flows move (incast: scenarios/vm/incast.toml) is judged by `max_stall_ms` instead.
    #[serde(default = "min_total")]
    pub min_total_pct: u32,
    /// The `under_test` long flows must each acknowledge new data at least this often (ms)
    /// from the launch of the first later flow (or the warm-up) to the end of the trial, from
    /// their own first acknowledged byte if later, less the time the guest did not run
    /// (`experiment::longest_stall`): a stall, not a rate. An absolute limit, not against the
    /// reference. 0 = no check; at most `MAX_STALL_MS`, and twice it must fit in that window
    /// (`check_stall`).
    #[serde(default)]
    pub max_stall_ms: u32,
    /// The reference algorithm.
    #[serde(default = "ref_algo")]
    pub reference: String,
    /// What the reference pass runs.
    #[serde(default)]
    pub reference_flows: RefFlows,
    /// Absolute bounds per test algorithm, on a virtual-time bed only (`bounds.rs`).
    #[serde(default)]
    pub bounds: crate::bounds::Bounds,
}

/// The flows of a test run's reference pass.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum RefFlows {
    /// One flow of the reference algorithm for the whole trial: what the path delivers.
    #[default]
    Single,
    /// The scenario's own flows, `under_test` ones running the reference algorithm: what the
    /// path delivers when the guest also runs every one of those flows. Under TCG the guest's
    /// CPU carries them all (measured when each flow was its own iperf3 client, with the other
    /// host core busy: 17 cubic flows moved 12.5-17.3 Mbit/s through a path where one moved
    /// 46), so a scenario whose own harness load bounds its goodput is judged against the
    /// reference algorithm under that same load. The reference pass must then
    /// report every flow, each with data and traced ACKs, and the `under_test` long flows are
    /// judged on their own from the first later launch (`experiment::checks`).
    Scenario,
    /// No reference pass: on a virtual-time bed the test algorithms are judged by their
    /// `test.bounds` alone (every one needs a bound).
    None,
}

fn test_algos() -> Vec<String> {
    vec!["cubic".into(), "swift".into()]
}
fn test_duration() -> u32 {
    4
}
fn min_total() -> u32 {
    50
}
fn ref_algo() -> String {
    "cubic".into()
}

impl Default for TestSpec {
    fn default() -> Self {
        TestSpec {
            algos: test_algos(),
            duration_s: test_duration(),
            min_share_pct: 0,
            min_total_pct: min_total(),
            max_stall_ms: 0,
            reference: ref_algo(),
            reference_flows: RefFlows::Single,
            bounds: Default::default(),
        }
    }
}

/// `test.max_stall_ms` judges `under_test` long flows that run the whole trial, from the first
/// later flow's start (or the warm-up) to the end, and can fail only if a stall that long fits
/// in the first half of that window.
fn check_stall(s: &Scenario) -> Result<(), String> {
    let long: Vec<usize> = s
        .flows
        .iter()
        .enumerate()
        .filter(|(_, f)| f.size_kb.is_none() && f.algo == "under_test")
        .map(|(i, _)| i)
        .collect();
    if long.is_empty() {
        return Err(
            "test.max_stall_ms judges the under_test long flows: the scenario has none".into(),
        );
    }
    if let Some(&i) = long.iter().find(|&&i| {
        s.flows[i].start_ms > 0 || s.flows[i].duration_s.is_some_and(|d| d < s.duration_s)
    }) {
        return Err(format!(
            "test.max_stall_ms judges under_test long flows that run the whole trial: flows[{i}] \
             starts later or stops early"
        ));
    }
    // The window of the test trial, ms, as `experiment::long_after` takes it.
    let scale = |ms: u64| ms * u64::from(s.test.duration_s) / u64::from(s.duration_s);
    let later = s
        .flows
        .iter()
        .filter(|f| f.start_ms > 0)
        .map(|f| scale(u64::from(f.start_ms)))
        .min();
    // As `experiment::boot` scales the warm-up.
    let warm = (s.test_warmup_s() * 1000.0) as u64;
    let from = later.map_or(warm, |l| l.max(warm));
    let window = (u64::from(s.test.duration_s) * 1000).saturating_sub(from);
    if u64::from(s.test.max_stall_ms) * 2 > window {
        return Err(format!(
            "test.max_stall_ms = {} must fit twice in the judged window of {window} ms (from \
             {from} ms to the end of the {} s test trial)",
            s.test.max_stall_ms, s.test.duration_s
        ));
    }
    Ok(())
}

/// Every algorithm a scenario may name on the default (qemu) kernel profile.
#[cfg(test)]
pub fn available_algos() -> Vec<String> {
    crate::algos::available(&crate::kernel::PROFILES[0]).unwrap_or_default()
}

/// The default passes: baselines, then ours.
pub fn default_algos() -> Vec<String> {
    DEFAULT_BASELINES
        .iter()
        .map(|s| s.to_string())
        .chain(crate::algos::ours_default().unwrap_or_default())
        .collect()
}

/// The built-in scenarios (`scenarios/vm/<name>.toml`), in the order `make` runs the default
/// set.
pub const BUILT_IN: &[&str] = &["baseline", "eight_flows", "late_joiner", "incast", "lossy"];
/// What `cargo xtask run` (and `make`) runs without `--scenario`.
pub const DEFAULT_SET: &[&str] = &["baseline", "eight_flows"];
/// The datacenter-regime scenarios (`scenarios/vm/dc_*.toml`): the UML test bed's
/// (`cargo xtask run --kernel uml --scenario datacenter`); the QEMU bed refuses them.
pub const DC_SET: &[&str] = &["dc_one_flow", "dc_eight_flows", "dc_incast_16to1"];
/// More datacenter scenarios of the UML test bed, outside `make`'s set (their wall time:
/// Documentation/results/uml_testbed.md): a 25 Gbit/s bottleneck, and a path of three switches
/// whose TTL reaches Swift's hop scaling.
pub const DC_MORE: &[&str] = &[
    "dc_one_flow_25g",
    "dc_multihop",
    "dc_int_incast_10to1",
    "dc_int_fairness",
    "dc_int_fairness_gso1",
    "dc_int_websearch",
];
/// The datacenter scenarios through the software INT switch (`path.int`; issue #35 item 5):
/// `cargo xtask run --kernel uml --scenario int`.
pub const DC_INT_SET: &[&str] = &["dc_int_incast_10to1", "dc_int_fairness"];
/// The datacenter scenarios `cargo xtask test` judges on a UML profile, by their bounds (all
/// of `DC_SET` since rdcc-flowgen starts no process during a trial: with one iperf3 client per
/// flow the incast measured the clients' start-up, Documentation/results/uml_vs_sim.md item 2),
/// and the multi-hop path with Swift and dctcp (its `[test]`: three routers and the receiver's
/// channel under the debug kernel; the hop count itself is `rdcc_rqd_hops.sh`'s check), and the
/// INT laws' incast, fairness and web search through the software INT switch.
pub const DC_TEST_SET: &[&str] = &[
    "dc_one_flow",
    "dc_eight_flows",
    "dc_incast_16to1",
    "dc_multihop",
    "dc_int_incast_10to1",
    "dc_int_fairness",
    "dc_int_websearch",
];

/// Where scenario NAME lives.
pub fn builtin_path(name: &str) -> PathBuf {
    repo_root()
        .join("scenarios/vm")
        .join(format!("{name}.toml"))
}

/// Resolve NAME (a file in `scenarios/vm/`) or PATH, parse and validate it for test bed `bed`.
pub fn load(name_or_path: &str, available: &[String], bed: Bed) -> Result<Scenario, String> {
    let p = Path::new(name_or_path);
    let path = if name_or_path.contains('/') || name_or_path.ends_with(".toml") {
        p.to_path_buf()
    } else {
        builtin_path(name_or_path)
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        let names = BUILT_IN.join(", ");
        let dc = DC_SET
            .iter()
            .chain(DC_MORE)
            .copied()
            .collect::<Vec<_>>()
            .join(", ");
        format!(
            "scenario {name_or_path}: cannot read {}: {e} (built-in scenarios: {names}; on the \
             UML test bed: {dc})",
            path.display()
        )
    })?;
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("scenario");
    parse_for(&text, stem, available, bed).map_err(|e| format!("scenario {}: {e}", path.display()))
}

/// Parse and validate scenario text for the QEMU test bed; `stem` is the default name.
#[cfg(test)]
pub fn parse(text: &str, stem: &str, available: &[String]) -> Result<Scenario, String> {
    parse_for(text, stem, available, Bed::Qemu)
}

/// Parse and validate scenario text for test bed `bed`; `stem` is the default name.
pub fn parse_for(
    text: &str,
    stem: &str,
    available: &[String],
    bed: Bed,
) -> Result<Scenario, String> {
    let mut s: Scenario = toml::from_str(text).map_err(|e| e.to_string())?;
    if s.name.is_empty() {
        s.name = stem.to_string();
    }
    if s.algos.is_empty() {
        s.algos = default_algos();
    }
    validate(&s, available, bed)?;
    Ok(s)
}

fn check_algo(a: &str, available: &[String], what: &str) -> Result<(), String> {
    if available.iter().any(|x| x == a) {
        Ok(())
    } else {
        Err(format!(
            "{what}: unknown algorithm {a:?}; available: {}",
            available.join(" ")
        ))
    }
}

/// Every value in range for test bed `bed`, every name known; the first problem found, in words.
pub fn validate(s: &Scenario, available: &[String], bed: Bed) -> Result<(), String> {
    let name_ok = !s.name.is_empty()
        && s.name.len() <= 64
        && s.name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !name_ok {
        return Err(format!(
            "name {:?}: 1-64 characters of [A-Za-z0-9_-] (it names the output directory)",
            s.name
        ));
    }
    if s.description.contains('\n') {
        return Err("description: one line".into());
    }
    for a in &s.algos {
        check_algo(a, available, "algos")?;
    }
    for a in &s.test.algos {
        check_algo(a, available, "test.algos")?;
    }
    check_algo(&s.test.reference, available, "test.reference")?;
    if s.test.algos.is_empty() {
        return Err("test.algos: at least one algorithm".into());
    }
    if !(1..=MAX_TRIALS).contains(&s.trials) {
        return Err(format!("trials = {}: 1..={MAX_TRIALS}", s.trials));
    }
    if !(1..=MAX_DURATION_S).contains(&s.duration_s) {
        return Err(format!(
            "duration_s = {}: 1..={MAX_DURATION_S}",
            s.duration_s
        ));
    }
    if !(1..=s.duration_s).contains(&s.test.duration_s) {
        return Err(format!(
            "test.duration_s = {}: 1..=duration_s ({})",
            s.test.duration_s, s.duration_s
        ));
    }
    if s.warmup_s >= s.duration_s {
        return Err(format!(
            "warmup_s = {} must be below duration_s = {}",
            s.warmup_s, s.duration_s
        ));
    }
    if s.test.min_share_pct > 100 || s.test.min_total_pct > 100 {
        return Err("test.min_share_pct and test.min_total_pct: 0..=100".into());
    }
    if s.test.max_stall_ms > MAX_STALL_MS {
        return Err(format!(
            "test.max_stall_ms = {}: 0..={MAX_STALL_MS}",
            s.test.max_stall_ms
        ));
    }
    if s.test.max_stall_ms > 0 {
        check_stall(s)?;
    }
    if s.test.min_total_pct == 0
        && s.test.min_share_pct == 0
        && s.test.max_stall_ms == 0
        && s.test.bounds.is_empty()
    {
        return Err(
            "test: min_total_pct, min_share_pct and max_stall_ms are all 0 and there are no \
             test.bounds: nothing would judge what the flows moved"
                .into(),
        );
    }
    if s.test.min_share_pct > 0 && s.test.reference_flows != RefFlows::Single {
        return Err(
            "test.min_share_pct compares each flow with one reference flow: it needs \
             test.reference_flows = \"single\""
                .into(),
        );
    }
    check_params(s)?;
    crate::path::validate(&s.path, bed)?;
    check_int(s)?;
    if s.flows.is_empty() && s.workload.is_none() {
        return Err("flows: at least one [[flows]] group or a [workload]".into());
    }
    if let Some(w) = &s.workload {
        if w.algo != UNDER_TEST {
            check_algo(
                &w.algo,
                available,
                &format!("workload.algo (or \"{UNDER_TEST}\")"),
            )?;
        }
        w.validate(s.duration_s, s.path.rate_mbit)?;
    }
    let mut total = 0u32;
    for (i, f) in s.flows.iter().enumerate() {
        let at = format!("flows[{i}]");
        if f.algo != UNDER_TEST {
            check_algo(
                &f.algo,
                available,
                &format!("{at}.algo (or \"{UNDER_TEST}\")"),
            )?;
        }
        if f.count == 0 {
            return Err(format!("{at}.count: at least 1"));
        }
        total = total.saturating_add(f.count);
        if f.start_ms >= s.duration_s.saturating_mul(1000) {
            return Err(format!(
                "{at}.start_ms = {} is not within the trial ({} s)",
                f.start_ms, s.duration_s
            ));
        }
        match (f.size_kb, f.duration_s) {
            (Some(_), Some(_)) => {
                return Err(format!("{at}: size_kb or duration_s, not both"));
            }
            (Some(0), _) => return Err(format!("{at}.size_kb: at least 1")),
            (Some(kb), _) if kb > 1_048_576 => {
                return Err(format!("{at}.size_kb = {kb}: at most 1048576 (1 GiB)"));
            }
            (_, Some(d))
                if d == 0 || f.start_ms as u64 + d as u64 * 1000 > s.duration_s as u64 * 1000 =>
            {
                return Err(format!(
                    "{at}.duration_s = {d}: at least 1, and start_ms + duration within the trial ({} s)",
                    s.duration_s
                ));
            }
            _ => {}
        }
    }
    if total > MAX_FLOWS {
        return Err(format!("{total} flows: at most {MAX_FLOWS}"));
    }
    crate::bounds::validate(s, bed)
}

/// Our INT laws read the switches' records: a scenario that runs one needs `path.int`.
/// Without the records tcp_powertcp holds HostBw·τ and tcp_hpcc its initial window: the run
/// would measure a fixed window under the law's name.
fn check_int(s: &Scenario) -> Result<(), String> {
    if s.path.int {
        return Ok(());
    }
    let named = s
        .algos
        .iter()
        .chain(&s.test.algos)
        .chain((s.test.reference_flows != RefFlows::None).then_some(&s.test.reference))
        .chain(s.flows.iter().map(|f| &f.algo))
        .chain(s.workload.iter().map(|w| &w.algo));
    for a in named {
        if crate::algos::INT_LAWS.contains(&a.as_str()) {
            return Err(format!(
                "{a} reads in-band telemetry: set path.int = true (the software INT switch and \
                 the receiver's echo); without the records it holds a fixed window"
            ));
        }
    }
    Ok(())
}

/// `params_set`: only our modules, each value insmod words `name=digits` (the guest passes them
/// unquoted).
fn check_params(s: &Scenario) -> Result<(), String> {
    let ours = crate::algos::ours().unwrap_or_default();
    for (m, v) in &s.params_set {
        if !ours.contains(m) {
            return Err(format!(
                "params_set.{m}: not one of our modules ({})",
                ours.join(" ")
            ));
        }
        let ok = |w: &str| {
            w.split_once('=').is_some_and(|(k, n)| {
                !k.is_empty()
                    && k.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                    && !n.is_empty()
                    && n.chars().all(|c| c.is_ascii_digit())
            })
        };
        if v.split_whitespace().next().is_none() || !v.split_whitespace().all(ok) {
            return Err(format!(
                "params_set.{m} = {v:?}: words name=digits (module parameters)"
            ));
        }
    }
    Ok(())
}

/// One flow of a trial, as the guest runs it.
#[derive(Clone, Debug, PartialEq)]
pub struct Flow {
    /// `under_test` or an algorithm.
    pub algo: String,
    pub start_ms: u32,
    /// Bytes (sized flow) or None (timed).
    pub bytes: Option<u64>,
    /// Seconds (timed flow), to the ms (rdcc-flowgen takes fractions).
    pub secs: f64,
}

impl Scenario {
    /// The individual flows, with durations scaled to a trial of `trial_s` seconds; then the
    /// workload's flows that arrive within it, at their own times (scaling them would scale
    /// the load).
    pub fn expand(&self, trial_s: u32) -> Vec<Flow> {
        let scale = |v: u64| v * trial_s as u64 / self.duration_s as u64;
        let mut v = Vec::new();
        for g in &self.flows {
            for _ in 0..g.count {
                let start_ms = scale(g.start_ms as u64) as u32;
                // A flow's own duration scaled as the start times are; without one, to the
                // trial's end (validate: every start is within the trial). In ms: whole
                // seconds ran a flow started at 0.5 s of a 1 s test until 1.5 s.
                let ms = match g.duration_s {
                    Some(d) => scale(u64::from(d) * 1000),
                    None => (u64::from(trial_s) * 1000).saturating_sub(u64::from(start_ms)),
                };
                let secs = ms.max(1) as f64 / 1000.0;
                v.push(Flow {
                    algo: g.algo.clone(),
                    start_ms,
                    bytes: g.size_kb.map(|k| k as u64 * 1024),
                    secs,
                });
            }
        }
        if let Some(w) = &self.workload {
            let end_ms = u64::from(trial_s) * 1000;
            v.extend(
                w.arrivals(self.path.rate_mbit)
                    .into_iter()
                    .filter(|a| u64::from(a.0) < end_ms)
                    .map(|(start_ms, bytes)| Flow {
                        algo: w.algo.clone(),
                        start_ms,
                        bytes: Some(bytes),
                        secs: 0.001,
                    }),
            );
        }
        v
    }

    /// The guest's input: shell variables (every value validated, so no quoting issues but
    /// the description, which is single-quoted). `test`: the shortened run with a reference
    /// pass first.
    /// The per-ACK trace events are sampled, one in 2^bits (0 = every one), on a path of at
    /// least [`TRACE_SAMPLE_FROM_MBIT`] without sized flows (a completion time needs the flow's
    /// last ACK traced: `series::fct`). Goodput comes from `snd_una`, which a sample still
    /// carries in full; the RTT percentiles come from an evenly spread subset.
    pub fn trace_sample_bits(&self) -> u32 {
        let sized = self.workload.is_some() || self.flows.iter().any(|f| f.size_kb.is_some());
        if self.path.rate_mbit >= TRACE_SAMPLE_FROM_MBIT && !sized {
            TRACE_SAMPLE_BITS
        } else {
            0
        }
    }

    /// The warm-up of the `cargo xtask test` run, s: `warmup_s` scaled to `test.duration_s` as
    /// the start times are ([`Scenario::expand`]), exactly (a 1 s test of a 2 s file with 1 s
    /// of warm-up measures from 0.5 s; whole seconds made it 0 and the window took in the
    /// start).
    pub fn test_warmup_s(&self) -> f64 {
        f64::from(self.warmup_s) * f64::from(self.test.duration_s) / f64::from(self.duration_s)
    }

    pub fn guest_env(&self, test: bool) -> String {
        let (algos, trials, dur, warm) = if test {
            let w = self.warmup_s * self.test.duration_s / self.duration_s;
            (self.test.algos.clone(), 1, self.test.duration_s, w)
        } else {
            (
                self.algos.clone(),
                self.trials,
                self.duration_s,
                self.warmup_s,
            )
        };
        let flows: Vec<String> = self
            .expand(dur)
            .iter()
            .map(|f| match f.bytes {
                Some(b) => format!("{}:{}:b:{b}", f.algo, f.start_ms),
                None => format!("{}:{}:t:{}", f.algo, f.start_ms, f.secs),
            })
            .collect();
        let mut e = String::new();
        let p = &self.path;
        let _ = writeln!(e, "SCN_NAME={}", self.name);
        let _ = writeln!(e, "SCN_RATE_MBIT={}", p.rate_mbit);
        let _ = writeln!(e, "SCN_DELAY_US={}", p.delay_us);
        let _ = writeln!(e, "SCN_QLIMIT_PKTS={}", p.queue_pkts);
        let _ = writeln!(e, "SCN_ECN_K_PKTS={}", p.ecn_k_pkts);
        let _ = writeln!(e, "SCN_LOSS_PCT={}", p.loss_pct);
        let gso = p.gso_max_segs.map_or(String::new(), |g| g.to_string());
        let _ = writeln!(e, "SCN_GSO_MAX_SEGS={gso}");
        let _ = writeln!(e, "SCN_HOPS={}", p.hops);
        let _ = writeln!(e, "SCN_INT={}", u8::from(p.int));
        let _ = writeln!(e, "SCN_DURATION_S={dur}");
        let _ = writeln!(e, "SCN_WARMUP_S={warm}");
        let _ = writeln!(e, "SCN_TRIALS={trials}");
        let _ = writeln!(e, "SCN_PASSES='{}'", algos.join(" "));
        let _ = writeln!(e, "SCN_FLOWS='{}'", flows.join(" "));
        let _ = writeln!(
            e,
            "SCN_REF='{}'",
            if test && self.test.reference_flows != RefFlows::None {
                self.test.reference.as_str()
            } else {
                ""
            }
        );
        let ref_flows = match self.test.reference_flows {
            _ if !test => String::new(),
            RefFlows::None => String::new(),
            RefFlows::Single => format!("REF:0:t:{dur}"),
            RefFlows::Scenario => flows.join(" "),
        };
        let _ = writeln!(e, "SCN_REF_FLOWS='{ref_flows}'");
        let params = match self.params {
            Params::Profile => "profile",
            Params::Defaults => "defaults",
        };
        let _ = writeln!(e, "SCN_PARAMS={params}");
        let _ = writeln!(e, "SCN_TRACE_SAMPLE_BITS={}", self.trace_sample_bits());
        for (m, v) in &self.params_set {
            let _ = writeln!(e, "SCN_SET_{m}='{v}'");
        }
        e
    }
}

#[cfg(test)]
#[path = "scenario_tests.rs"]
mod tests;
