//! `[test.bounds.<algo>]`: absolute figures a scenario's test run must reach on a virtual-time
//! test bed (UML, `time-travel=inf-cpu`, issue #36 item 6). There a run does not depend on the
//! host's load (Documentation/testbed.md, "Determinism"), so a law is judged against what the
//! paper says it does on the path (a share of the link, an RTT near its target, Jain's index),
//! not against a reference flow of the same boot as under TCG. The QEMU bed refuses bounds: a
//! check that a loaded host can fail is a broken check.

use crate::ktap::Summary;
use crate::scenario::{Bed, RefFlows, Scenario, UNDER_TEST};
use crate::series::TrialStats;
use serde::Deserialize;
use std::collections::BTreeMap;

/// What one algorithm's test pass must reach. A zero field is not checked.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Bound {
    /// Total goodput after the warm-up at least this % of the path's rate.
    #[serde(default)]
    pub min_link_pct: u32,
    /// Jain's index of the long flows' goodput at least this (0..=1; needs two long flows).
    #[serde(default)]
    pub min_jain: f64,
    /// The 99th percentile of the RTT after the warm-up at most this, µs: the per-ACK samples
    /// our laws act on (`tcp_<name>:decision`), the kernel's sRTT for the others.
    #[serde(default)]
    pub max_rtt_p99_us: u32,
    /// The 99th percentile (nearest rank) of the sized flows' completion times at most this,
    /// ms: the sender's release to its receipt of every byte (series::flow_fct). The scenario
    /// needs sized `under_test` flows; every sized flow must have a completion time.
    #[serde(default)]
    pub max_fct_p99_ms: u32,
}

/// Per algorithm of `test.algos`.
pub type Bounds = BTreeMap<String, Bound>;

/// The largest RTT bound, µs (a second: far beyond any datacenter path).
pub const MAX_RTT_BOUND_US: u32 = 1_000_000;
/// The largest completion-time bound, ms (a minute: a trial is at most `MAX_DURATION_S`).
pub const MAX_FCT_BOUND_MS: u32 = 60_000;

/// How many of the scenario's flows `pick` selects (each group counts `count` flows).
fn flows(s: &Scenario, pick: impl Fn(&crate::scenario::FlowGroup) -> bool) -> u32 {
    s.flows.iter().filter(|f| pick(f)).map(|f| f.count).sum()
}

/// `test.bounds` is consistent with the scenario and the bed: only on a virtual-time bed, only
/// for algorithms the test runs, each with something to check, in range; with
/// `test.reference_flows = "none"` every test algorithm has a bound.
pub fn validate(s: &Scenario, bed: Bed) -> Result<(), String> {
    let b = &s.test.bounds;
    if !b.is_empty() && bed != Bed::Uml {
        return Err(format!(
            "test.bounds: absolute bounds need a virtual-time test bed (--kernel uml or \
             uml-debug); on {} the figures follow the host's load",
            bed.name()
        ));
    }
    let long = flows(s, |f| f.algo == UNDER_TEST && f.size_kb.is_none());
    let sized = flows(s, |f| f.algo == UNDER_TEST && f.size_kb.is_some())
        + s.workload
            .as_ref()
            .filter(|w| w.algo == UNDER_TEST)
            .map_or(0, |w| w.flows);
    for (algo, x) in b {
        let at = format!("test.bounds.{algo}");
        if !s.test.algos.contains(algo) {
            return Err(format!("{at}: {algo} is not in test.algos"));
        }
        if x.min_link_pct == 0
            && x.min_jain == 0.0
            && x.max_rtt_p99_us == 0
            && x.max_fct_p99_ms == 0
        {
            return Err(format!("{at}: nothing to check (every field 0)"));
        }
        if x.min_link_pct > 100 {
            return Err(format!("{at}.min_link_pct = {}: 0..=100", x.min_link_pct));
        }
        if !(0.0..=1.0).contains(&x.min_jain) {
            return Err(format!("{at}.min_jain = {}: 0..=1", x.min_jain));
        }
        if x.min_jain > 0.0 && long < 2 {
            return Err(format!(
                "{at}.min_jain: Jain's index needs at least two under_test long flows ({long})"
            ));
        }
        if x.max_fct_p99_ms > MAX_FCT_BOUND_MS {
            return Err(format!(
                "{at}.max_fct_p99_ms = {}: 0..={MAX_FCT_BOUND_MS}",
                x.max_fct_p99_ms
            ));
        }
        if x.max_fct_p99_ms > 0 && sized == 0 {
            return Err(format!(
                "{at}.max_fct_p99_ms: completion times need under_test flows with size_kb or \
                 a [workload]"
            ));
        }
        if x.max_rtt_p99_us > MAX_RTT_BOUND_US {
            return Err(format!(
                "{at}.max_rtt_p99_us = {}: 0..={MAX_RTT_BOUND_US}",
                x.max_rtt_p99_us
            ));
        }
    }
    if s.test.reference_flows == RefFlows::None {
        if let Some(a) = s.test.algos.iter().find(|a| !b.contains_key(*a)) {
            return Err(format!(
                "test.reference_flows = \"none\": every test algorithm needs test.bounds \
                 ({a} has none)"
            ));
        }
        if s.test.min_total_pct > 0 || s.test.min_share_pct > 0 {
            return Err(
                "test.reference_flows = \"none\": min_total_pct and min_share_pct compare with \
                 the reference pass; set them to 0"
                    .into(),
            );
        }
    }
    Ok(())
}

/// Record the checks of `algo`'s bound (if any) on its test trial's figures.
pub fn check(s: &Scenario, algo: &str, st: &TrialStats, sum: &mut Summary) {
    let Some(b) = s.test.bounds.get(algo) else {
        return;
    };
    let n = &s.name;
    if b.min_link_pct > 0 {
        let need = f64::from(s.path.rate_mbit) * f64::from(b.min_link_pct) / 100.0;
        sum.record(
            &format!(
                "{n}/{algo}: goodput {:.1} Mbit/s >= {}% of the {} Mbit/s link",
                st.tput_mbit, b.min_link_pct, s.path.rate_mbit
            ),
            st.tput_mbit >= need,
        );
    }
    if b.min_jain > 0.0 {
        sum.record(
            &format!(
                "{n}/{algo}: Jain's index {} >= {} (per flow {:.0?} Mbit/s)",
                st.jain.map_or("-".into(), |j| format!("{j:.3}")),
                b.min_jain,
                st.per_flow_mbit
            ),
            st.jain.is_some_and(|j| j >= b.min_jain),
        );
    }
    if b.max_rtt_p99_us > 0 {
        let ours = crate::algos::ours()
            .unwrap_or_default()
            .iter()
            .any(|a| a == algo);
        let (what, p99) = if ours {
            ("law RTT", st.rtt_p99_us)
        } else {
            ("sRTT", st.srtt_p99_us)
        };
        sum.record(
            &format!(
                "{n}/{algo}: {what} p99 {} <= {} us",
                p99.map_or("-".into(), |v| format!("{v:.0}")),
                b.max_rtt_p99_us
            ),
            p99.is_some_and(|v| v <= f64::from(b.max_rtt_p99_us)),
        );
    }
    if b.max_fct_p99_ms > 0 {
        let sized = s
            .expand(s.test.duration_s)
            .iter()
            .filter(|f| f.bytes.is_some())
            .count();
        let p99 = rdcc_sim::stats::percentile(&st.fct_ms, 99.0);
        sum.record(
            &format!(
                "{n}/{algo}: completion time p99 {} <= {} ms ({} of {sized} sized flows)",
                p99.map_or("-".into(), |v| format!("{v:.3}")),
                b.max_fct_p99_ms,
                st.fct_ms.len()
            ),
            st.fct_ms.len() == sized && p99.is_some_and(|v| v <= f64::from(b.max_fct_p99_ms)),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::parse_for;

    /// A 16:1 incast beside one long flow, with completion times bounded at 5 ms.
    const INCAST: &str = r#"
description = "incast"
algos = ["swift"]
trials = 1
duration_s = 2
warmup_s = 0
params = "defaults"
[path]
rate_mbit = 10000
delay_us = 20
queue_pkts = 1000
ecn_k_pkts = 65
[[flows]]
algo = "under_test"
[[flows]]
algo = "under_test"
count = 16
start_ms = 1000
size_kb = 256
[test]
duration_s = 2
reference_flows = "none"
min_total_pct = 0
algos = ["swift"]
[test.bounds]
swift = { max_fct_p99_ms = 5 }
"#;

    /// (completion times, ms) -> the bound passes: every one of the 16 sized flows must have
    /// one, and their p99 (nearest rank of 16: the largest) must be within 5 ms.
    #[test]
    fn completion_time_bound() {
        let avail = vec!["cubic".to_string(), "swift".to_string()];
        let s = parse_for(INCAST, "incast", &avail, Bed::Uml).unwrap_or_else(|e| panic!("{e}"));
        let cases: &[(Vec<f64>, bool)] = &[
            (vec![3.7; 16], true),
            ([vec![3.7; 15], vec![5.0]].concat(), true),
            ([vec![3.7; 15], vec![5.01]].concat(), false),
            (vec![3.7; 15], false),
            (vec![], false),
        ];
        for (fct, ok) in cases {
            let st = TrialStats {
                fct_ms: fct.clone(),
                ..TrialStats::default()
            };
            let mut sum = Summary::default();
            check(&s, "swift", &st, &mut sum);
            assert_eq!(
                (sum.passed, sum.failed),
                (usize::from(*ok), usize::from(!*ok)),
                "{fct:?}"
            );
        }
    }
}
