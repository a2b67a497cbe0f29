//! `cargo xtask sim --vm-scenario NAME|PATH`: a VM scenario file (`scenarios/vm/`, the format of
//! [`crate::scenario`], parsed and validated by it) translated into the simulator's scenario, so
//! the kernel test bed and the simulator run one file. The mapping, and what is refused, is
//! Documentation/results/uml_vs_sim.md "The translation"; every refusal names its reason.
//!
//! The topology is the test bed's: one sender, one receiver, every flow between them through
//! one bottleneck (`selftests/lib.sh`'s three namespaces), as a 1 + 1 host dumbbell; a path of
//! `hops` > 1 switches (a chain of router namespaces on the bed) as a parking lot of `hops`
//! switches, the sender on the first, the receiver on the last, every switch's egress towards
//! the receiver at the bottleneck's rate, and the hop count echoed to the sender as the bed's
//! receiver channel echoes the TTL.

use crate::scenario::{self, Bed, Params, Scenario as VmScenario, UNDER_TEST};
use rdcc_sim::cc::Law;
use rdcc_sim::scenario::{FlowGroup, Report, Transport};
use rdcc_sim::topo::{LinkSpec, TopologySpec};
use rdcc_sim::Scenario as SimScenario;
use std::collections::BTreeMap;

/// Bytes of a full-size frame on the wire (1448 bytes of payload, 66 of headers with
/// timestamps): the unit of the file's packet counts.
pub const FRAME_BYTES: u64 = 1514;
/// Payload bytes per segment on a 1500-byte MTU with TCP timestamps (Linux's MSS on veth).
pub const MSS_BYTES: u32 = 1448;
/// Header (and ACK) bytes on the wire.
pub const HEADER_BYTES: u32 = 66;
/// The hosts' links (veth: no rate in virtual time), Gbit/s: at least ten times the
/// bottleneck, so they never bind ([`host_rate_gbps`]); this up to a 10 Gbit/s bottleneck.
pub const HOST_RATE_GBPS: f64 = 100.0;
/// Linux's RTO floor (`TCP_RTO_MIN`, 200 ms at every HZ), µs.
pub const MIN_RTO_US: f64 = 200_000.0;
/// With `path.int`, the request option `rxstamp int` writes into every data segment (2 slots
/// beside the timestamps: 21 bytes, 24 padded; Documentation/int-channel.md "Room"): Linux
/// takes it from the MSS (1448 → 1424), the frame stays 1514 bytes.
pub const INT_REQUEST_BYTES: u32 = 24;
/// The records a request carries beside timestamps: a longer path overflows (the first two
/// hops' records are kept).
pub const INT_SLOTS: u32 = 2;
/// The simulator's sampling interval for the series, µs.
pub const SAMPLE_US: f64 = 100.0;
/// The kernel's RTT resolution (µs samples), ns.
pub const RTT_QUANTUM_NS: u64 = 1000;

/// The hosts' link rate for a bottleneck of `rate_mbit`: [`HOST_RATE_GBPS`], or ten times the
/// bottleneck above 10 Gbit/s.
pub fn host_rate_gbps(rate_mbit: u32) -> f64 {
    HOST_RATE_GBPS.max(f64::from(rate_mbit) / 100.0)
}

/// The simulator's network for path `p`: the dumbbell of the bed's three namespaces, or for
/// `hops` > 1 a chain of `hops` switches (a parking lot, one host on each; host 0 sends to
/// host `hops` − 1) whose links all run at the bottleneck's rate but the sender's (the bed's
/// veth), and the link to the receiver set to the bottleneck's rate too: `hops` shaped
/// egresses, as the bed's chain of router namespaces. The bed's base RTT (netem on the ACK
/// direction, at one place) is spread evenly over the `hops` + 1 links of the way.
fn topology(
    p: &scenario::PathSpec,
    buffer_kb: f64,
    ecn_k_kb: f64,
) -> (TopologySpec, Vec<LinkSpec>) {
    let host = host_rate_gbps(p.rate_mbit);
    let rate = f64::from(p.rate_mbit) / 1000.0;
    if p.hops <= 1 {
        let t = TopologySpec::Dumbbell {
            left: 1,
            right: 1,
            host_rate_gbps: host,
            bottleneck_rate_gbps: rate,
            link_delay_us: 0.0,
            bottleneck_delay_us: Some(f64::from(p.delay_us) / 2.0),
            buffer_kb,
            ecn_k_kb,
        };
        return (t, Vec::new());
    }
    let t = TopologySpec::ParkingLot {
        switches: p.hops,
        hosts_per_switch: 1,
        host_rate_gbps: host,
        chain_rate_gbps: rate,
        link_delay_us: f64::from(p.delay_us) / (2.0 * f64::from(p.hops + 1)),
        buffer_kb,
        ecn_k_kb,
    };
    let to_receiver = LinkSpec {
        host: Some(p.hops - 1),
        between: None,
        rate_gbps: Some(rate),
        delay_us: None,
    };
    (t, vec![to_receiver])
}

/// A translated scenario: its name and the simulator's TOML, in full.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Translated {
    /// The VM scenario's name (the simulator's output directory `results/sim/NAME`).
    pub name: String,
    /// The simulator scenario as TOML.
    pub toml: String,
}

/// Every name a VM scenario may give that the translation knows: the VM's default algorithm
/// set, Linux's reno and cubic, the INT modules, and the simulator's laws (a name the
/// simulator cannot run is refused by [`translate`], with the reason).
fn known_names() -> Vec<String> {
    let mut v = scenario::default_algos();
    v.extend(["reno", "cubic"].map(String::from));
    v.extend(Law::NAMES.iter().map(|s| s.to_string()));
    // The kernel's INT modules (outside the default set): `powertcp` translates to
    // `powertcp_int`, `hpcc` is a law of both.
    v.extend(crate::algos::INT_LAWS.iter().map(|s| s.to_string()));
    v.sort();
    v.dedup();
    v
}

/// Load VM scenario NAME (`scenarios/vm/NAME.toml`) or PATH, validated for the UML bed (or the
/// QEMU bed, whose limits differ: a file valid for either is accepted).
pub fn load(name_or_path: &str) -> Result<VmScenario, String> {
    let known = known_names();
    scenario::load(name_or_path, &known, Bed::Uml)
        .or_else(|uml| scenario::load(name_or_path, &known, Bed::Qemu).map_err(|_| uml))
}

/// The simulator's name for kernel algorithm `algo`: `tcp_powertcp` is PowerTCP over INT, the
/// simulator's `powertcp_int` (the simulator refuses a bare `powertcp`); every other name,
/// `theta_powertcp` included, is the same on both sides.
fn sim_name(algo: &str) -> &str {
    if algo == "powertcp" {
        "powertcp_int"
    } else {
        algo
    }
}

/// The simulator's law for kernel algorithm `algo`, or why there is none.
fn law_of(algo: &str) -> Result<Law, String> {
    Law::parse(sim_name(algo)).ok_or_else(|| {
        format!(
            "{algo}: the simulator has no such law (it has {}); leave it out with --algos",
            Law::NAMES.join(" ")
        )
    })
}

/// Is `algo` one of our modules (a law whose parameters `params` chooses)?
fn is_ours(algo: &str) -> bool {
    !matches!(law_of(algo), Ok(Law::Dctcp | Law::Reno) | Err(_))
}

/// `[cc.ALGO]`: the law and the `params_set` words as `Config` fields.
fn profile(vm: &VmScenario, algo: &str) -> Result<toml::Table, String> {
    law_of(algo)?;
    if vm.params == Params::Profile && is_ours(algo) {
        return Err(format!(
            "{algo}: params = \"profile\" (selftests/lib_profile.sh, shell values derived for \
             the TCG path) is not translated; use params = \"defaults\" and [params_set]"
        ));
    }
    let mut t = toml::Table::new();
    t.insert(
        "law".into(),
        toml::Value::String(sim_name(algo).to_string()),
    );
    if let Some(words) = vm.params_set.get(algo) {
        for w in words.split_whitespace() {
            // scenario::check_params: `name=digits`.
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| format!("params_set.{algo}: {w:?} is not name=digits"))?;
            let n: i64 = v
                .parse()
                .map_err(|_| format!("params_set.{algo}: {w:?}: {v} does not fit 63 bits"))?;
            t.insert(k.to_string(), toml::Value::Integer(n));
        }
    }
    Ok(t)
}

/// The simulator's profile of flows of `algo`: None for `under_test` (the pass's), else the
/// algorithm's profile, added to `cc` on first use; `what` names the field in an error.
fn flow_cc(
    vm: &VmScenario,
    cc: &mut BTreeMap<String, toml::Table>,
    algo: &str,
    what: &str,
) -> Result<Option<String>, String> {
    if algo == UNDER_TEST {
        return Ok(None);
    }
    if !cc.contains_key(algo) {
        let t = profile(vm, algo).map_err(|e| format!("{what}: {e}"))?;
        cc.insert(algo.to_string(), t);
    }
    Ok(Some(algo.to_string()))
}

/// `count` flows from the first host to `dst` starting together at `start_ms`, of `bytes`
/// each (0: until the end), with profile `cc`.
fn group(dst: u32, count: u32, bytes: u64, start_ms: u32, cc: Option<String>) -> FlowGroup {
    FlowGroup {
        src: 0,
        dst,
        count,
        conns_per_src: count,
        src_step: 1,
        size_bytes: bytes,
        start_us: f64::from(start_ms) * 1000.0,
        stagger_us: 0.0,
        stagger_every: 1,
        cc,
    }
}

/// Translate `vm` into the simulator's scenario; `algos` replaces the file's algorithms.
pub fn translate(vm: &VmScenario, algos: Option<&[String]>) -> Result<SimScenario, String> {
    let p = &vm.path;
    // `path.gso_max_segs`: the simulator's port always serves packets, which the kernel bed
    // does with gso_max_segs = 1; with GSO batches it serves skbs (uml_vs_sim.md, item 1).
    if p.loss_pct > 0.0 {
        return Err(format!(
            "path.loss_pct = {}: the simulator has no random loss",
            p.loss_pct
        ));
    }
    let algorithms: Vec<String> = algos.map_or_else(|| vm.algos.clone(), <[String]>::to_vec);
    // The simulator echoes the hop count to every flow; on the bed only tcp_swift has the
    // receiver channel's hook, so tcp_swift_vaisf (whose law also scales by echoed hops) keeps
    // its default_hops there.
    if p.receiver_channel() {
        let vaisf = algorithms
            .iter()
            .chain(vm.flows.iter().map(|f| &f.algo))
            .find(|a| law_of(a).is_ok_and(|l| l == Law::SwiftVaiSf));
        if let Some(a) = vaisf {
            return Err(format!(
                "{a} on path.hops = {}: the simulator echoes the hops to every flow, the bed's \
                 {a} module has no receiver channel (it keeps default_hops); leave it out with \
                 --algos",
                p.hops
            ));
        }
    }
    let mut cc = BTreeMap::new();
    for a in &algorithms {
        cc.insert(
            a.clone(),
            profile(vm, a).map_err(|e| format!("algos: {e}"))?,
        );
    }
    let end_ms = u64::from(vm.duration_s) * 1000;
    // The receiver: the dumbbell's host 1, the chain's last host.
    let dst = if p.hops > 1 { p.hops - 1 } else { 1 };
    let mut flows = Vec::new();
    for (i, g) in vm.flows.iter().enumerate() {
        if let Some(d) = g.duration_s {
            if u64::from(g.start_ms) + u64::from(d) * 1000 < end_ms {
                return Err(format!(
                    "flows[{i}].duration_s = {d}: simulator flows do not stop before the end"
                ));
            }
        }
        let group_cc = flow_cc(vm, &mut cc, &g.algo, &format!("flows[{i}].algo"))?;
        let bytes = g.size_kb.map_or(0, |k| u64::from(k) * 1024);
        flows.push(group(dst, g.count, bytes, g.start_ms, group_cc));
    }
    // The workload's flows, one group each, as the bed runs them (`scenario::expand`).
    if let Some(w) = &vm.workload {
        let w_cc = flow_cc(vm, &mut cc, &w.algo, "workload.algo")?;
        for (start_ms, bytes) in w.arrivals(p.rate_mbit) {
            flows.push(group(dst, 1, bytes, start_ms, w_cc.clone()));
        }
    }
    // The INT options' bytes (an echo of k records: 5 + 8k bytes, padded to 4).
    let (int_request, int_echo) = if p.int {
        let k = p.hops.min(INT_SLOTS);
        (INT_REQUEST_BYTES, (5 + 8 * k).div_ceil(4) * 4)
    } else {
        (0, 0)
    };
    let frames_kb = |pkts: u32| (u64::from(pkts) * FRAME_BYTES) as f64 / 1000.0;
    let (topology, links) = topology(p, frames_kb(p.queue_pkts), frames_kb(p.ecn_k_pkts));
    Ok(SimScenario {
        name: vm.name.clone(),
        description: format!(
            "{} (translated from the VM scenario {} by cargo xtask sim --vm-scenario; \
             Documentation/results/uml_vs_sim.md)",
            vm.description, vm.name
        ),
        seed: 1,
        duration_us: f64::from(vm.duration_s) * 1e6,
        measure_from_us: f64::from(vm.warmup_s) * 1e6,
        sample_us: SAMPLE_US,
        algorithms,
        topology,
        transport: Transport {
            mss_bytes: MSS_BYTES - int_request,
            header_bytes: HEADER_BYTES + int_request,
            ack_bytes: HEADER_BYTES + int_echo,
            ack_every: 1,
            rtt_quantum_ns: RTT_QUANTUM_NS,
            min_rto_us: MIN_RTO_US,
            tlp: true,
            pace_burst_bytes: 0,
            // The bed's receiver channel (rxstamp) on a multi-hop path: the receiver's hold
            // time (0 here: every segment ACKed at once) and the TTL, as hops.
            remote_delay: p.receiver_channel(),
            echo_hops: p.receiver_channel(),
            ..Transport::default()
        },
        cc,
        flows,
        workload: None,
        requests: None,
        report: Report::default(),
        fabric: Default::default(),
        hosts: Vec::new(),
        links,
        inject_drop: Vec::new(),
    })
}

/// Load, translate and check VM scenario `name_or_path` with the simulator's own validation
/// and `sets` (`--set`) applied, as `cargo xtask sim` will run it: before any build.
pub fn check(
    name_or_path: &str,
    algos: Option<&str>,
    sets: &[String],
) -> Result<Translated, String> {
    let vm = load(name_or_path)?;
    let algos = algos
        .map(rdcc_sim::names::split_list)
        .transpose()
        .map_err(|e| format!("--algos: {e}"))?;
    let sim =
        translate(&vm, algos.as_deref()).map_err(|e| format!("scenario {name_or_path}: {e}"))?;
    let toml = sim.to_toml().map_err(|e| e.to_string())?;
    let checked = SimScenario::parse_with(&toml, sets)
        .map_err(|e| format!("scenario {name_or_path}, translated: {e}"))?;
    checked
        .check_builds()
        .map_err(|e| format!("scenario {name_or_path}, translated: {e}"))?;
    Ok(Translated {
        name: vm.name,
        toml,
    })
}

#[cfg(test)]
#[path = "vm_sim_tests.rs"]
mod tests;
