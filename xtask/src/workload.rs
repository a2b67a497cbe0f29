//! `[workload]` of a VM scenario: sized flows with Poisson arrivals at a share of the path's
//! rate and sizes drawn from a flow-size CDF (web search, Hadoop), the traffic of the papers'
//! FCT figures (PowerTCP §4.1, HPCC §5) on the test bed. The flows are drawn here, on the host,
//! from the scenario's seed, with the simulator's own generator and CDFs
//! (`rdcc_sim::workload`, `rdcc_sim::rng`): the kernel bed and `cargo xtask sim
//! --vm-scenario` run the same flows, byte for byte and millisecond for millisecond.
//!
//! Arrival times are whole milliseconds (rdcc-flowgen's start times; the simulator gets the
//! same): at web search's 439 flows per second on 10 Gbit/s at 60 % that moves each arrival by
//! less than 1 ms of a mean gap of 2.3 ms, identically in both beds.

use rdcc_sim::rng::Rng;
use rdcc_sim::workload::Cdf;
use serde::Deserialize;

/// At most this many workload flows: rdcc-flowgen takes 1024 flows (one port each), of which
/// the `[[flows]]` groups may take [`crate::scenario::MAX_FLOWS`].
pub const MAX_WORKLOAD_FLOWS: u32 = 1024 - crate::scenario::MAX_FLOWS;
/// The offered load at most this % of the path's rate: at and above the payload's share of a
/// frame (94.1 % with INT's request option) the queue grows without bound.
pub const MAX_LOAD_PCT: u32 = 90;

/// The workload section.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// Flow-size CDF: `"websearch"` or `"hadoop"` (`rdcc_sim::workload`).
    pub cdf: String,
    /// Offered load, % of `path.rate_mbit` (payload bytes of the drawn sizes).
    pub load_pct: u32,
    /// Number of flows drawn.
    pub flows: u32,
    /// The generator's seed.
    #[serde(default = "one")]
    pub seed: u64,
    /// Arrivals start after this, ms.
    #[serde(default)]
    pub start_ms: u32,
    /// Algorithm name, or `"under_test"` (the default).
    #[serde(default = "under_test")]
    pub algo: String,
}

fn one() -> u64 {
    1
}
fn under_test() -> String {
    crate::scenario::UNDER_TEST.into()
}

impl Workload {
    /// The flows: (start ms, bytes), in arrival order. `rate_mbit`: the path's rate. The
    /// section's values must be valid ([`Workload::validate`]).
    pub fn arrivals(&self, rate_mbit: u32) -> Vec<(u32, u64)> {
        let Some(cdf) = Cdf::named(&self.cdf) else {
            return Vec::new();
        };
        // Mean gap between arrivals, ns: the mean flow's bits over the offered rate.
        let rate_bps = f64::from(self.load_pct) / 100.0 * f64::from(rate_mbit) * 1e6;
        let mean_gap_ns = cdf.mean() * 8.0 / rate_bps * 1e9;
        let mut rng = Rng::new(self.seed);
        let mut t_ns = f64::from(self.start_ms) * 1e6;
        (0..self.flows)
            .map(|_| {
                t_ns += rng.exp(mean_gap_ns);
                let bytes = cdf.sample(&mut rng);
                // Saturating: validate refuses an arrival past the trial.
                ((t_ns / 1e6).floor().min(f64::from(u32::MAX)) as u32, bytes)
            })
            .collect()
    }

    /// Every value in range; the last arrival within a trial of `duration_s` on a path of
    /// `rate_mbit`.
    pub fn validate(&self, duration_s: u32, rate_mbit: u32) -> Result<(), String> {
        if Cdf::named(&self.cdf).is_none() {
            return Err(format!(
                "workload.cdf = {:?}: \"websearch\" or \"hadoop\"",
                self.cdf
            ));
        }
        if !(1..=MAX_LOAD_PCT).contains(&self.load_pct) {
            return Err(format!(
                "workload.load_pct = {}: 1..={MAX_LOAD_PCT} (% of path.rate_mbit)",
                self.load_pct
            ));
        }
        if !(1..=MAX_WORKLOAD_FLOWS).contains(&self.flows) {
            return Err(format!(
                "workload.flows = {}: 1..={MAX_WORKLOAD_FLOWS}",
                self.flows
            ));
        }
        let end_ms = u64::from(duration_s) * 1000;
        if u64::from(self.start_ms) >= end_ms {
            return Err(format!(
                "workload.start_ms = {} is not within the trial ({duration_s} s)",
                self.start_ms
            ));
        }
        let last = self.arrivals(rate_mbit).last().map_or(0, |a| a.0);
        if u64::from(last) >= end_ms {
            return Err(format!(
                "workload: the last of {} flows arrives at {last} ms, after the trial's \
                 {duration_s} s: fewer flows, a higher load or a longer trial",
                self.flows
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws(load_pct: u32, flows: u32) -> Workload {
        Workload {
            cdf: "websearch".into(),
            load_pct,
            flows,
            seed: 1,
            start_ms: 0,
            algo: under_test(),
        }
    }

    #[test]
    fn the_offered_load_is_the_one_asked() {
        // Over many flows the bytes drawn over the span of the arrivals approach the load.
        for (load, rate) in [(30u32, 10_000u32), (60, 10_000), (80, 25_000)] {
            let w = ws(load, MAX_WORKLOAD_FLOWS);
            let a = w.arrivals(rate);
            let bytes: u64 = a.iter().map(|x| x.1).sum();
            let span_s = f64::from(a.last().unwrap().0) / 1e3;
            let offered = bytes as f64 * 8.0 / span_s / (f64::from(rate) * 1e6) * 100.0;
            // Web search's sizes are heavy-tailed (to 30 MB): 960 flows hold the load to
            // within a third.
            assert!(
                (offered / f64::from(load) - 1.0).abs() < 0.35,
                "load {load} % at {rate} Mbit/s: offered {offered:.1} %"
            );
            assert!(a.windows(2).all(|w| w[0].0 <= w[1].0), "arrivals in order");
        }
    }

    #[test]
    fn the_flows_follow_the_seed_and_only_it() {
        let a = ws(60, 100).arrivals(10_000);
        assert_eq!(a, ws(60, 100).arrivals(10_000));
        let mut other = ws(60, 100);
        other.seed = 2;
        assert_ne!(a, other.arrivals(10_000));
        // A longer draw starts with the shorter one.
        assert_eq!(a[..], ws(60, 200).arrivals(10_000)[..100]);
        // Web search's sizes: 2 kB to 30 MB.
        assert!(a.iter().all(|x| (2000..=30_000_000).contains(&x.1)));
    }

    #[test]
    fn bad_sections_are_refused() {
        let cases: &[(Workload, u32, &str)] = &[
            (
                Workload {
                    cdf: "cache".into(),
                    ..ws(60, 10)
                },
                1,
                "workload.cdf",
            ),
            (ws(0, 10), 1, "load_pct = 0"),
            (ws(91, 10), 1, "load_pct = 91"),
            (ws(60, 0), 1, "flows = 0"),
            (ws(60, MAX_WORKLOAD_FLOWS + 1), 10, "flows = 961"),
            // 600 flows at 60 % of 10 Gbit/s take about 1.4 s.
            (ws(60, 600), 1, "arrives at"),
            (
                Workload {
                    start_ms: 1000,
                    ..ws(60, 1)
                },
                1,
                "start_ms = 1000",
            ),
        ];
        for (w, dur, want) in cases {
            let e = w.validate(*dur, 10_000).unwrap_err();
            assert!(e.contains(want), "{w:?}: {e}");
        }
        ws(60, 600).validate(2, 10_000).unwrap();
    }
}
