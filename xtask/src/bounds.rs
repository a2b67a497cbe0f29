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
}

/// Per algorithm of `test.algos`.
pub type Bounds = BTreeMap<String, Bound>;

/// The largest RTT bound, µs (a second: far beyond any datacenter path).
pub const MAX_RTT_BOUND_US: u32 = 1_000_000;

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
    let long = s
        .flows
        .iter()
        .filter(|f| f.algo == UNDER_TEST && f.size_kb.is_none())
        .map(|f| f.count)
        .sum::<u32>();
    for (algo, x) in b {
        let at = format!("test.bounds.{algo}");
        if !s.test.algos.contains(algo) {
            return Err(format!("{at}: {algo} is not in test.algos"));
        }
        if x.min_link_pct == 0 && x.min_jain == 0.0 && x.max_rtt_p99_us == 0 {
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
}
