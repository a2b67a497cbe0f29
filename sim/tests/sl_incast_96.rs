//! Snyder & Lebeck §VI-A, Figs. 5(c) and 6(c): the 96-1 incast (`sl_incast_96to1.toml` for
//! Swift, `sl_hpcc_96to1.toml` for HPCC: one switch, 97 hosts at 100 Gbit/s, 1 µs links, 96
//! flows of 1 MB, two starting every 20 µs, the last two at 940 µs). SL: "when using VAI and
//! SF, the system becomes fair quickly", as at 16-1, where it reaches a Jain index of nearly 1
//! "much quicker than with default settings". SL print no number.
//!
//! **Known difference** (Documentation/results/sl_incast_96to1.md): the tolerance stated at
//! 431a547 before the first run (VAI/SF at Jain ≥ 0.9 in at most half the default law's time
//! after the last join) did not hold: Swift+VAI/SF 510 µs against Swift's 660 µs (0.77×);
//! HPCC+VAI/SF 210 µs against HPCC's 110 µs (1.9×). The tests below hold what was measured
//! as the current behaviour, each with a band, and the page's isolating runs:
//! - `known_difference_*`: the scenarios as they are (the not-reproduced outcome, and the
//!   cause the page names: HPCC's windows at the 1000-byte floor; Swift's mean Jain after the
//!   last join pulled down by the joiners' line-rate bursts);
//! - `isolating_*`: HPCC with the artifact's 100 Mbit/s floor (`min_cwnd_bytes = 63`), and
//!   both Swift variants with a 2-packet initial window.
//!
//! The bands were written (commit before the re-run) from the page's numbers with margin;
//! each was shown to fail when tightened past its measurement (commit message).
//! Jain: the scenario's 50 µs samples over the flows active for the whole sample; a sample
//! at t covers (t − 50 µs, t], and a window (a, b] keeps the samples ending in it, as the
//! page's drift block (`sim/tests/drift/eval.rs`).

mod common;
use common::{run, scenario_file};
use rdcc_sim::scenario::RunResult;
use rdcc_sim::Scenario;
use std::path::Path;

/// The last two flows start here, µs.
const LAST_JOIN_US: f64 = 940.0;
/// The run ends here, µs (both scenarios' `duration_us`).
const END_US: f64 = 3000.0;

/// Swift+VAI/SF's time to Jain ≥ 0.9 after the last join, as a fraction of Swift's: quicker,
/// but not SL's "much quicker" (≤ 0.5). Measured 510/660 = 0.77.
const SWIFT_RATIO_BAND: (f64, f64) = (0.6, 0.95);
/// Mean Jain after the last join with the line-rate start, at most this for both Swift
/// variants (measured 0.819 and 0.886): what the 2-packet start lifts.
const SWIFT_LINE_RATE_MEAN_JAIN_MAX: f64 = 0.93;
/// HPCC+VAI/SF's time to Jain ≥ 0.9 after the last join over HPCC's, with the 1000-byte
/// floor: not faster (measured 210/110 = 1.9).
const HPCC_RATIO_BAND: (f64, f64) = (1.0, 3.0);
/// With the 1000-byte floor every default HPCC window is at the floor from 1100 µs on.
const HPCC_FLOOR_BYTES: f64 = 1000.0;
/// With the 63-byte floor: HPCC's time to Jain ≥ 0.8 after the last join over HPCC+VAI/SF's
/// ("several times sooner"; measured 560/110 = 5.1).
const HPCC_63_RATIO_08_BAND: (f64, f64) = (3.0, 8.0);
/// With a 2-packet initial window: mean Jain after the last join, at least this for both
/// Swift variants (measured 0.968 and 0.966).
const SWIFT_2PKT_MEAN_JAIN_MIN: f64 = 0.95;

fn load(file: &str, sets: &[&str]) -> Scenario {
    if sets.is_empty() {
        return scenario_file(file);
    }
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(file);
    let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
    Scenario::load_with(&p, &sets).unwrap()
}

/// The Jain samples ending in (from_us, to_us]: (end time µs, Jain), defined ones only.
fn jain_samples(r: &RunResult, from_us: f64, to_us: f64) -> Vec<(f64, f64)> {
    let s = &r.out.series;
    s.t_ns
        .iter()
        .zip(&s.jain)
        .map(|(&t, &j)| (t as f64 / 1e3, j))
        .filter(|&(t, j)| t > from_us && t <= to_us && j.is_finite())
        .collect()
}

/// The first sample after the last join with Jain ≥ `x`, µs after the last join.
fn first_at_least(r: &RunResult, x: f64) -> Option<f64> {
    jain_samples(r, LAST_JOIN_US, END_US)
        .into_iter()
        .find(|&(_, j)| j >= x)
        .map(|(t, _)| t - LAST_JOIN_US)
}

/// Mean Jain over the samples after the last join.
fn mean_after_join(r: &RunResult) -> f64 {
    let v = jain_samples(r, LAST_JOIN_US, END_US);
    assert!(
        !v.is_empty(),
        "{}: no Jain sample after the last join",
        r.name
    );
    v.iter().map(|s| s.1).sum::<f64>() / v.len() as f64
}

fn in_band(x: f64, (lo, hi): (f64, f64)) -> bool {
    (lo..=hi).contains(&x)
}

fn no_drops(rs: &[&RunResult]) {
    for r in rs {
        assert_eq!(r.summary.drops, 0, "{}: drops", r.name);
    }
}

/// Known difference (see the page): Swift+VAI/SF reaches Jain ≥ 0.9 after the last join
/// sooner than Swift, but in 0.6–0.95× its time, not SL's ≤ 0.5×; with the line-rate start
/// both variants' mean Jain after the last join stays below the 2-packet start's.
#[test]
fn known_difference_swift_vaisf_fair_sooner_but_not_twice() {
    let sc = load("sl_incast_96to1.toml", &[]);
    let (d, v) = (run(&sc, "swift"), run(&sc, "swift_vaisf"));
    let (t_d, t_v) = (first_at_least(&d, 0.9), first_at_least(&v, 0.9));
    let (m_d, m_v) = (mean_after_join(&d), mean_after_join(&v));
    let msg =
        format!("first Jain >= 0.9: swift {t_d:?}, swift_vaisf {t_v:?} us; mean {m_d:.3} {m_v:.3}");
    eprintln!("{msg}");
    let ratio = t_v.expect(&msg) / t_d.expect(&msg);
    assert!(
        in_band(ratio, SWIFT_RATIO_BAND),
        "ratio {ratio:.3} not in {SWIFT_RATIO_BAND:?}: {msg}"
    );
    assert!(
        m_d <= SWIFT_LINE_RATE_MEAN_JAIN_MAX && m_v <= SWIFT_LINE_RATE_MEAN_JAIN_MAX,
        "line-rate start fairer than {SWIFT_LINE_RATE_MEAN_JAIN_MAX}: {msg}"
    );
    no_drops(&[&d, &v]);
}

/// Known difference (see the page): with the simulator's 1000-byte window floor (above the
/// 651-byte fair share) default HPCC is fair by construction and HPCC+VAI/SF is not faster.
#[test]
fn known_difference_hpcc_vaisf_not_faster_at_1000_byte_floor() {
    let sc = load("sl_hpcc_96to1.toml", &[]);
    let (d, v) = (run(&sc, "hpcc"), run(&sc, "hpcc_vaisf"));
    let (t_d, t_v) = (first_at_least(&d, 0.9), first_at_least(&v, 0.9));
    let msg = format!("first Jain >= 0.9: hpcc {t_d:?}, hpcc_vaisf {t_v:?} us");
    eprintln!("{msg}");
    let ratio = t_v.expect(&msg) / t_d.expect(&msg);
    assert!(
        in_band(ratio, HPCC_RATIO_BAND),
        "ratio {ratio:.3} not in {HPCC_RATIO_BAND:?}: {msg}"
    );
    // The cause: every traced default-HPCC window at the floor from 1100 µs on.
    let s = &d.out.series;
    let max_cwnd = s
        .t_ns
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t as f64 / 1e3 > 1100.0)
        .flat_map(|(k, _)| s.flow_cwnd_bytes.iter().map(move |f| f[k]))
        .fold(0.0, f64::max);
    assert_eq!(
        max_cwnd, HPCC_FLOOR_BYTES,
        "largest HPCC window over 1.1-3 ms"
    );
    no_drops(&[&d, &v]);
}

/// Isolating run (see the page): with HPCC's floor at the artifact's 100 Mbit/s (63 B at
/// T = 5 µs) HPCC+VAI/SF reaches Jain ≥ 0.8 after the last join 3–8× sooner than HPCC.
#[test]
fn isolating_hpcc_63_byte_floor_vaisf_reaches_08_several_times_sooner() {
    let sc = load(
        "sl_hpcc_96to1.toml",
        &[
            "cc.hpcc.min_cwnd_bytes=63",
            "cc.hpcc_vaisf.min_cwnd_bytes=63",
        ],
    );
    let (d, v) = (run(&sc, "hpcc"), run(&sc, "hpcc_vaisf"));
    let (t_d, t_v) = (first_at_least(&d, 0.8), first_at_least(&v, 0.8));
    let msg = format!("first Jain >= 0.8: hpcc {t_d:?}, hpcc_vaisf {t_v:?} us");
    eprintln!("{msg}");
    let ratio = t_d.expect(&msg) / t_v.expect(&msg);
    assert!(
        in_band(ratio, HPCC_63_RATIO_08_BAND),
        "ratio {ratio:.3} not in {HPCC_63_RATIO_08_BAND:?}: {msg}"
    );
    no_drops(&[&d, &v]);
}

/// Isolating run (see the page): with a 2-packet initial window instead of the line-rate
/// start both Swift variants stay fair after the last join (mean Jain ≥ 0.95).
#[test]
fn isolating_swift_2_packet_start_both_stay_fair() {
    let sc = load(
        "sl_incast_96to1.toml",
        &[
            "cc.swift.init_cwnd_pkts_q20=2097152",
            "cc.swift_vaisf.init_cwnd_pkts_q20=2097152",
        ],
    );
    let (d, v) = (run(&sc, "swift"), run(&sc, "swift_vaisf"));
    let (m_d, m_v) = (mean_after_join(&d), mean_after_join(&v));
    eprintln!("mean Jain after the last join: swift {m_d:.4}, swift_vaisf {m_v:.4}");
    assert!(
        m_d >= SWIFT_2PKT_MEAN_JAIN_MIN && m_v >= SWIFT_2PKT_MEAN_JAIN_MIN,
        "mean Jain {m_d:.4} / {m_v:.4} < {SWIFT_2PKT_MEAN_JAIN_MIN}"
    );
    no_drops(&[&d, &v]);
}
