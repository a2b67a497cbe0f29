//! Named parameter sets: what a `[cc.NAME]` profile starts from before its own keys
//! (`params = "paper"`, the default, `params = "authors"`, or for HPCC
//! `params = "powertcp_artifact"`).
//!
//! - `paper`: the law's `Config::DEFAULT`, the values the paper's text gives (and the project
//!   specification's where the text is silent; each law's page in Documentation/algorithms/).
//! - `authors`: the values the authors' own simulator code ran, for the INT laws:
//!   - PowerTCP (`powertcp_int`): the PowerTCP ns-3 artifact (`inet-tub/ns3-datacenter`,
//!     `rdma-hw.cc` `UpdateRatePower`, `config-burst.txt`, the file the web-search script runs);
//!   - HPCC (`hpcc`): the HPCC ns-3 artifact's `run.py` for `--cc hp`
//!     (`alibaba-edu/High-Precision-Congestion-Control`).
//! - `powertcp_artifact` (HPCC only): HPCC as the PowerTCP artifact ran it as its baseline
//!   (`inet-tub/ns3-datacenter`, `examples/PowerTCP/config-burst.txt`, the file its web-search
//!   and incast scripts pass, read by `powertcp-evaluation-workload.cc`): the `paper` set's η,
//!   maxStage and R_AI with the artifact's rate floor `MIN_RATE 100Mb/s`.
//!
//!   Documentation/algorithms/powertcp_int.md and hpcc.md list every value with its source and
//!   how it departs from the paper.
//!
//! A set writes only keys the profile does not set itself: `[cc.NAME]` keys (and `--set`)
//! always win. Values the artifacts give as rates are turned into windows with the profile's
//! own τ (or T) and host rate, after its keys are applied, so a scenario's `base_rtt_ns` is the
//! τ of `β = 150 Mbit/s · τ`.

use crate::cc::Law;
use crate::error::{invalid, Result};

/// The scenario key of a `[cc.NAME]` table that names its parameter set.
pub const PARAMS_KEY: &str = "params";

/// A named parameter set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamSet {
    /// The law's `Config::DEFAULT` (the paper's text).
    Paper,
    /// The authors' artifact (PowerTCP-INT and HPCC only).
    Authors,
    /// HPCC as the PowerTCP authors' artifact ran it (HPCC only).
    PowertcpArtifact,
}

/// How a set derives one key's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// This value.
    Fixed(u64),
    /// A rate in bytes/s times the profile's base RTT: `rate · τ / 10^9` bytes, rounded down,
    /// at least 1.
    RateTimesRtt(u64),
    /// The profile's host rate times `num / den`, bytes/s, rounded down, at least 1.
    HostRate(u64, u64),
}

impl Rule {
    /// The value for a profile with base RTT `rtt_ns` and host rate `host_bps`.
    pub fn value(self, rtt_ns: u64, host_bps: u64) -> u64 {
        let v = match self {
            Rule::Fixed(v) => return v,
            Rule::RateTimesRtt(r) => u128::from(r) * u128::from(rtt_ns) / 1_000_000_000,
            Rule::HostRate(num, den) => {
                u128::from(host_bps) * u128::from(num) / u128::from(den.max(1))
            }
        };
        u64::try_from(v).unwrap_or(u64::MAX).max(1)
    }
}

/// One key of a set: name, rule, source.
pub type Setting = (&'static str, Rule, &'static str);

/// PowerTCP-INT as the authors' ns-3 code runs it (`rdma-hw.cc` `UpdateRatePower`, non-delay
/// branch; `rdma-queue-pair.cc`; `config-burst.txt`).
pub const AUTHORS_POWERTCP_INT: &[Setting] = &[
    // new_rate = 0.9·(curRate/U + 150 Mbps) + 0.1·curRate: β = 150 Mbit/s · τ (spec §1.3, A7).
    (
        "beta_bytes",
        Rule::RateTimesRtt(18_750_000),
        "150 Mbit/s · τ (UpdateRatePower)",
    ),
    // max_c = hp.u / m_targetUtil, U_TARGET 0.95 (spec §1.8, A8); 0.95 · 65536 rounded down.
    ("target_q16", Rule::Fixed(62_259), "η = 0.95 (U_TARGET)"),
    // hp.u = 1 at start, every sample smoothed into it (spec §1.2, A3).
    (
        "smooth_init_q16",
        Rule::Fixed(65_536),
        "Γ_smooth starts at 1.0 (hp.u = 1)",
    ),
    // 0.1 · hp.m_curRate: the reference, committed once per RTT (spec §1.4.1 (a), A4).
    (
        "kept_from_ref",
        Rule::Fixed(1),
        "(1 − γ)·W_ref (0.1·m_curRate)",
    ),
    // MIN_RATE 100Mb/s (config-burst.txt): the window of 100 Mbit/s · τ.
    (
        "min_cwnd_bytes",
        Rule::RateTimesRtt(12_500_000),
        "100 Mbit/s · τ (MIN_RATE)",
    ),
];

/// HPCC as its artifact's `run.py` runs `--cc hp` (FAST_REACT 1, VAR_WIN 1, U_TARGET from
/// `--utgt` 95, MI_THRESH from `--mi` 0, RATE_AI `10 * bw / 25` Mb/s, MIN_RATE 1000Mb/s).
pub const AUTHORS_HPCC: &[Setting] = &[
    ("eta_q16", Rule::Fixed(62_259), "η = 0.95 (--utgt 95)"),
    ("max_stage", Rule::Fixed(0), "maxStage = 0 (--mi 0)"),
    // 10 Mbit/s per 25 Gbit/s of NIC: HostBw / 2500.
    ("ai_bps", Rule::HostRate(1, 2_500), "R_AI = 10·bw/25 Mbit/s"),
    (
        "min_cwnd_bytes",
        Rule::RateTimesRtt(125_000_000),
        "1000 Mbit/s · T (MIN_RATE)",
    ),
];

/// HPCC as the PowerTCP artifact runs it for its baselines (`inet-tub/ns3-datacenter`,
/// `simulator/ns-3.39/examples/PowerTCP/config-burst.txt`, unchanged since the ns-3.35 copy of
/// May 2022; `script-workload.sh` runs `hpcc` as `--algorithm=3 --wien=false --windowCheck=1`
/// with that file; `rdma-hw.cc` `UpdateRateHp`). The artifact's other settings match both HPCC
/// sets: `FAST_REACT 1`, `VAR_WIN 1`, `MULTI_RATE 0`, `INT_MULTI 1`, T the largest RTT of the
/// topology (`GLOBAL_T 1`), U = 1 and the line rate at start.
pub const POWERTCP_ARTIFACT_HPCC: &[Setting] = &[
    ("eta_q16", Rule::Fixed(62_259), "η = 0.95 (U_TARGET 0.95)"),
    ("max_stage", Rule::Fixed(5), "maxStage = 5 (MI_THRESH 5)"),
    // 50 Mbit/s = 6.25e6 B/s, whatever the NIC rate (a fixed RATE_AI, not run.py's bw-scaled one).
    (
        "ai_bps",
        Rule::Fixed(6_250_000),
        "R_AI = 50 Mbit/s (RATE_AI)",
    ),
    // UpdateRateHp floors the rate at MIN_RATE; with VAR_WIN the window is rate · T.
    (
        "min_cwnd_bytes",
        Rule::RateTimesRtt(12_500_000),
        "100 Mbit/s · T (MIN_RATE)",
    ),
];

impl ParamSet {
    /// Every set's name.
    pub const NAMES: &'static [&'static str] = &["paper", "authors", "powertcp_artifact"];

    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            ParamSet::Paper => "paper",
            ParamSet::Authors => "authors",
            ParamSet::PowertcpArtifact => "powertcp_artifact",
        }
    }

    /// The sets `law` has.
    pub fn of(law: Law) -> &'static [ParamSet] {
        match law {
            Law::PowerTcpInt => &[ParamSet::Paper, ParamSet::Authors],
            Law::Hpcc => &[
                ParamSet::Paper,
                ParamSet::Authors,
                ParamSet::PowertcpArtifact,
            ],
            _ => &[ParamSet::Paper],
        }
    }

    /// The set called `name` for `law`, or an error naming the sets it has.
    pub fn parse(law: Law, name: &str) -> Result<ParamSet> {
        let valid = ParamSet::of(law);
        valid
            .iter()
            .copied()
            .find(|s| s.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = valid.iter().map(|s| s.name()).collect();
                invalid!(
                    "{PARAMS_KEY} = {name:?}: {law:?} has no parameter set of that name; valid: {}",
                    names.join(", ")
                )
            })
    }

    /// The keys this set writes for `law` (empty for `paper`).
    pub fn settings(self, law: Law) -> &'static [Setting] {
        match (self, law) {
            (ParamSet::Authors, Law::PowerTcpInt) => AUTHORS_POWERTCP_INT,
            (ParamSet::Authors, Law::Hpcc) => AUTHORS_HPCC,
            (ParamSet::PowertcpArtifact, Law::Hpcc) => POWERTCP_ARTIFACT_HPCC,
            _ => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (rule, τ ns, host bytes/s, value): by hand.
    #[test]
    fn rules_by_hand() {
        let cases: &[(Rule, u64, u64, u64)] = &[
            (Rule::Fixed(7), 11_000, 3_125_000_000, 7),
            // 150 Mbit/s · 11 µs = 18.75e6 B/s · 11e-6 s = 206.25 B.
            (Rule::RateTimesRtt(18_750_000), 11_000, 3_125_000_000, 206),
            // 100 Mbit/s · 11 µs = 137.5 B; 1 Gbit/s · 11 µs = 1375 B.
            (Rule::RateTimesRtt(12_500_000), 11_000, 3_125_000_000, 137),
            (
                Rule::RateTimesRtt(125_000_000),
                11_000,
                3_125_000_000,
                1_375,
            ),
            // Never 0.
            (Rule::RateTimesRtt(1), 1_000, 3_125_000_000, 1),
            // 25 Gbit/s / 2500 = 10 Mbit/s = 1.25e6 B/s; 100 Gbit/s: 40 Mbit/s.
            (Rule::HostRate(1, 2_500), 11_000, 3_125_000_000, 1_250_000),
            (Rule::HostRate(1, 2_500), 11_000, 12_500_000_000, 5_000_000),
        ];
        for &(r, tau, bw, want) in cases {
            assert_eq!(r.value(tau, bw), want, "{r:?} τ {tau} bw {bw}");
        }
    }

    /// (law, name, accepted).
    #[test]
    fn names_per_law() {
        let cases: &[(Law, &str, bool)] = &[
            (Law::PowerTcpInt, "paper", true),
            (Law::PowerTcpInt, "authors", true),
            (Law::Hpcc, "authors", true),
            (Law::Hpcc, "powertcp_artifact", true),
            (Law::PowerTcpInt, "powertcp_artifact", false),
            (Law::HpccVaiSf, "powertcp_artifact", false),
            (Law::HpccVaiSf, "authors", false),
            (Law::Swift, "authors", false),
            (Law::Swift, "paper", true),
            (Law::PowerTcpInt, "author", false),
            (Law::PowerTcpInt, "", false),
        ];
        for &(law, name, ok) in cases {
            let r = ParamSet::parse(law, name);
            assert_eq!(r.is_ok(), ok, "{law:?} {name:?}: {r:?}");
            if let Err(e) = r {
                let e = e.to_string();
                assert!(e.contains("params") && e.contains("valid: paper"), "{e}");
            }
        }
    }
}
