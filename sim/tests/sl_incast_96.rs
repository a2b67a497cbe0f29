//! Snyder & Lebeck §VI-A, Figs. 5(c) and 6(c): the 96-1 incast (`sl_incast_96to1.toml` for
//! Swift, `sl_hpcc_96to1.toml` for HPCC: one switch, 97 hosts at 100 Gbit/s, 1 µs links, 96
//! flows of 1 MB, two starting every 20 µs, the last two at 940 µs). SL: "when using VAI and
//! SF, the system becomes fair quickly", as at 16-1, where it reaches a Jain index of nearly 1
//! "much quicker than with default settings". SL print no number.
//!
//! Tolerances (Documentation/results/sl_incast_96to1.md; stated, and this test committed,
//! before the scenarios were first run): for Swift and for HPCC, with Jain's index of the
//! flows' goodput over 50 µs samples and times counted from the last join (940 µs):
//! - VAI/SF reaches Jain ≥ 0.9 in at most half the time the default law takes ("much
//!   quicker", k = 2 as at 16-1, `swift_outcomes.rs`); a default law that never reaches 0.9
//!   before the first flow ends counts as taking the whole run after the last join (2060 µs);
//! - VAI/SF stays ≥ 0.9 from at most 1000 µs after the last join until the first flow ends;
//! - no drops (a shared buffer with PFC, lossless as SL's ns-3 framework).
//!
//! **Not reproduced** (first run, at 431a547): Swift+VAI/SF 510 µs against Swift's 660 µs
//! (0.77×, not ≤ 0.5×); HPCC+VAI/SF 210 µs against default HPCC's 110 µs. Both tests are
//! therefore `#[ignore]`d with that reason: `cargo test --release -p rdcc-sim --test
//! sl_incast_96 -- --ignored` shows the failure. The page explains it with isolating runs
//! (default HPCC's windows all sit at the one-packet floor, above the fair share of 0.65
//! packet), and its drift block pins every measured number in CI.

mod common;
use common::{run, scenario_file};

/// The last two flows start here, µs.
const LAST_JOIN_US: f64 = 940.0;
/// "Much quicker": VAI/SF's time to Jain ≥ 0.9 at most this fraction of the default's.
const MUCH_QUICKER: f64 = 0.5;
/// VAI/SF settled at Jain ≥ 0.9 within this long after the last join, µs.
const SETTLED_WITHIN_US: f64 = 1000.0;

/// Checks one scenario's default law against its VAI/SF variant; returns the violations.
fn check(file: &str, default: &str, vaisf: &str) -> Vec<String> {
    let sc = scenario_file(file);
    let whole_run_us = sc.duration_us - LAST_JOIN_US;
    let d = run(&sc, default);
    let v = run(&sc, vaisf);
    let since = |t: Option<f64>| t.map(|t| t - LAST_JOIN_US);
    let t_d = since(d.summary.jain09_first_us);
    let t_v = since(v.summary.jain09_first_us);
    let msg = format!(
        "{file}: first Jain >= 0.9 after the last join: {default} {t_d:?} us, {vaisf} {t_v:?} us; \
         settled: {default} {:?}, {vaisf} {:?} us; drops {} / {}",
        since(d.summary.jain09_settled_us),
        since(v.summary.jain09_settled_us),
        d.summary.drops,
        v.summary.drops
    );
    eprintln!("{msg}");
    let mut bad = Vec::new();
    match t_v {
        Some(t) if t <= MUCH_QUICKER * t_d.unwrap_or(whole_run_us) => {}
        _ => bad.push(format!("{vaisf} not much quicker: {msg}")),
    }
    match since(v.summary.jain09_settled_us) {
        Some(t) if t <= SETTLED_WITHIN_US => {}
        _ => bad.push(format!("{vaisf} not settled: {msg}")),
    }
    if d.summary.drops + v.summary.drops != 0 {
        bad.push(format!("drops: {msg}"));
    }
    bad
}

#[test]
#[ignore = "not reproduced: Documentation/results/sl_incast_96to1.md (0.77x, not <= 0.5x)"]
fn sl_96_to_1_swift_vaisf_fair_much_sooner() {
    let bad = check("sl_incast_96to1.toml", "swift", "swift_vaisf");
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
#[ignore = "not reproduced: Documentation/results/sl_incast_96to1.md (HPCC's one-packet floor)"]
fn sl_96_to_1_hpcc_vaisf_fair_much_sooner() {
    let bad = check("sl_hpcc_96to1.toml", "hpcc", "hpcc_vaisf");
    assert!(bad.is_empty(), "{bad:#?}");
}
