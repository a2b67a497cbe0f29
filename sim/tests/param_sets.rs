//! Named parameter sets (`[cc.NAME] params = "..."`, `sim/src/params.rs`): what each set gives
//! a profile, that the profile's own keys win, and that an unknown name is refused while the
//! scenario is loaded, before anything runs.

use rdcc_sim::cc::{build_params_with, CcParams, Law};
use rdcc_sim::params::ParamSet;
use rdcc_sim::Scenario;
use std::path::Path;

fn ov(pairs: &[(&str, u64)]) -> Vec<(String, u64)> {
    pairs.iter().map(|(k, v)| (k.to_string(), *v)).collect()
}

/// The leaf-spine's τ and host rate: 11 µs, 25 Gbit/s.
const LINK: [(&str, u64); 2] = [("base_rtt_ns", 11_000), ("host_bw_bps", 3_125_000_000)];

/// A case: the set and the profile's own keys.
type Given = (ParamSet, &'static [(&'static str, u64)]);
/// PowerTCP-INT's expectation: β bytes, η Q16, Γ_smooth start Q16, kept_from_ref, min window.
type PtcpWant = (u64, u64, u64, u64, u64);
/// HPCC's expectation: η Q16, maxStage, R_AI bytes/s, min window bytes.
type HpccWant = (u64, u64, u64, u64);

/// PowerTCP-INT: (set, extra keys) -> (β bytes, η Q16, Γ_smooth start Q16, kept_from_ref,
/// min window bytes). By hand: 150 Mbit/s · 11 µs = 206.25 B, 100 Mbit/s · 11 µs = 137.5 B;
/// paper β = 25 Gbit/s · 11 µs / 10 = 3437.5 B.
#[test]
fn powertcp_int_sets() {
    let cases: &[(Given, PtcpWant)] = &[
        ((ParamSet::Paper, &[]), (3_437, 65_536, 0, 0, 1_000)),
        ((ParamSet::Authors, &[]), (206, 62_259, 65_536, 1, 137)),
        // The profile's own keys win over the set.
        (
            (ParamSet::Authors, &[("beta_bytes", 500)]),
            (500, 62_259, 65_536, 1, 137),
        ),
        (
            (ParamSet::Authors, &[("kept_from_ref", 0)]),
            (206, 62_259, 65_536, 0, 137),
        ),
        // β follows the profile's τ: 150 Mbit/s · 29 µs = 543.75 B.
        (
            (ParamSet::Authors, &[("base_rtt_ns", 29_000)]),
            (543, 62_259, 65_536, 1, 362),
        ),
    ];
    for ((set, extra), want) in cases {
        let mut o = ov(&LINK);
        o.extend(ov(extra));
        let CcParams::PowerTcpInt(p) = build_params_with(Law::PowerTcpInt, *set, &o).unwrap()
        else {
            panic!("not PowerTCP-INT")
        };
        let c = p.config();
        let got = (
            p.beta_q16() >> 16,
            c.target_q16,
            c.smooth_init_q16,
            c.kept_from_ref,
            c.min_cwnd_bytes,
        );
        assert_eq!(got, *want, "{set:?} {extra:?}");
    }
}

/// HPCC: (set, extra keys) -> (η Q16, maxStage, R_AI bytes/s, min window bytes). By hand:
/// 10 Mbit/s per 25 Gbit/s of NIC = 1.25e6 B/s (100 Gbit/s: 5e6); 1 Gbit/s · 11 µs = 1375 B.
/// The PowerTCP artifact's HPCC (`config-burst.txt`): 50 Mbit/s = 6.25e6 B/s at any NIC rate,
/// 100 Mbit/s · 11 µs = 137.5 B, · 29 µs = 362.5 B.
#[test]
fn hpcc_sets() {
    let cases: &[(Given, HpccWant)] = &[
        ((ParamSet::Paper, &[]), (62_259, 5, 6_250_000, 1_000)),
        ((ParamSet::Authors, &[]), (62_259, 0, 1_250_000, 1_375)),
        (
            (ParamSet::Authors, &[("max_stage", 5)]),
            (62_259, 5, 1_250_000, 1_375),
        ),
        (
            (ParamSet::Authors, &[("host_bw_bps", 12_500_000_000)]),
            (62_259, 0, 5_000_000, 1_375),
        ),
        (
            (ParamSet::PowertcpArtifact, &[]),
            (62_259, 5, 6_250_000, 137),
        ),
        (
            (ParamSet::PowertcpArtifact, &[("base_rtt_ns", 29_000)]),
            (62_259, 5, 6_250_000, 362),
        ),
        // R_AI is the file's fixed 50 Mbit/s, not scaled with the NIC as run.py's is.
        (
            (
                ParamSet::PowertcpArtifact,
                &[("host_bw_bps", 12_500_000_000)],
            ),
            (62_259, 5, 6_250_000, 137),
        ),
        // The profile's own keys win.
        (
            (ParamSet::PowertcpArtifact, &[("min_cwnd_bytes", 1_000)]),
            (62_259, 5, 6_250_000, 1_000),
        ),
    ];
    for ((set, extra), want) in cases {
        let mut o = ov(&LINK);
        o.extend(ov(extra));
        let CcParams::Hpcc(p) = build_params_with(Law::Hpcc, *set, &o).unwrap() else {
            panic!("not HPCC")
        };
        let c = p.config();
        let got = (c.eta_q16, c.max_stage, c.ai_bps, c.min_cwnd_bytes);
        assert_eq!(got, *want, "{set:?} {extra:?}");
    }
}

fn websearch(sets: &[&str]) -> Result<Scenario, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/websearch_leafspine_60.toml");
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    Scenario::load_with(&path, &sets).map_err(|e| e.to_string())
}

/// (--set, error text or "" when accepted). Loading validates every profile: an unknown set,
/// a set the law does not have, or a value that is not a string is refused before a run.
#[test]
fn unknown_sets_are_refused_when_loading() {
    let cases: &[(&str, &str)] = &[
        ("cc.powertcp_int.params=authors", ""),
        ("cc.hpcc.params=paper", ""),
        ("cc.hpcc.params=powertcp_artifact", ""),
        (
            "cc.powertcp_int.params=powertcp_artifact",
            "params = \"powertcp_artifact\": PowerTcpInt has no parameter set of that name; valid: paper, authors",
        ),
        (
            "cc.hpcc.params=authros",
            "params = \"authros\": Hpcc has no parameter set of that name; valid: paper, authors, powertcp_artifact",
        ),
        (
            "cc.powertcp_int.params=authros",
            "params = \"authros\": PowerTcpInt has no parameter set of that name; valid: paper, authors",
        ),
        (
            "cc.swift.params=authors",
            "params = \"authors\": Swift has no parameter set of that name; valid: paper",
        ),
        ("cc.hpcc.params=5", "cc.hpcc.params: expected a string"),
    ];
    for (set, want) in cases {
        match websearch(&[set]) {
            Ok(_) => assert!(want.is_empty(), "{set}: accepted"),
            Err(e) => assert!(!want.is_empty() && e.contains(want), "{set}: {e}"),
        }
    }
}
