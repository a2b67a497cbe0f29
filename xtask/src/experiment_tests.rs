//! Tests of `experiment.rs`: the checks of a scenario test run, on hand-built passes.

use super::*;
use crate::series::{Ack, FlowInfo, QSample, Trial, TrialStats};

fn pass(algo: &str, mbit: f64, retrans: u64, marks: u64) -> Pass {
    let f = FlowInfo {
        idx: 0,
        algo: algo.into(),
        port: 5201,
        rc: 0,
        bytes: 1000,
        retrans,
        ..FlowInfo::default()
    };
    let mut tr = Trial {
        flows: vec![f],
        ..Trial::default()
    };
    tr.acks.insert(
        0,
        vec![Ack {
            t_s: 0.1,
            acked: 0,
            cwnd_pkts: 10,
            srtt_us: 3000,
        }],
    );
    tr.queue = (0..40)
        .map(|i| QSample {
            t_s: i as f64 / 10.0,
            bytes: 0,
            pkts: 0,
            drops: 0,
            marks: if i == 39 { marks } else { 0 },
        })
        .collect();
    let st = TrialStats {
        tput_mbit: mbit,
        per_flow_mbit: vec![mbit],
        retrans,
        marks,
        decisions: 5,
        ..TrialStats::default()
    };
    Pass {
        algo: algo.into(),
        trials: vec![tr],
        stats: vec![st],
    }
}

/// Each check passes on a healthy run and fails on the defect it exists for; throughput
/// is judged only against the reference pass of the same boot.
#[test]
fn scenario_checks_are_relative_to_the_reference() {
    let avail: Vec<String> = ["cubic", "swift"].iter().map(|s| s.to_string()).collect();
    let text = "description = \"x\"\nalgos = [\"cubic\"]\nduration_s = 4\n[path]\nrate_mbit = 50\ndelay_us = 2000\necn_k_pkts = 20\nloss_pct = 1.0\n[[flows]]\nalgo = \"under_test\"\n[test]\nalgos = [\"cubic\"]\nmin_share_pct = 50\n";
    let s = crate::scenario::parse(text, "t", &avail).unwrap();
    let ok = checks(&s, &[pass("ref", 40.0, 3, 9), pass("cubic", 30.0, 2, 4)]);
    assert_eq!(ok.failed, 0, "{:?}", ok.results);
    let cases: &[(Pass, &str)] = &[
        (pass("cubic", 15.0, 2, 4), "every long flow >= 50%"),
        (pass("cubic", 30.0, 0, 4), "retransmissions"),
    ];
    for (p, want) in cases {
        let r = checks(&s, &[pass("ref", 40.0, 3, 9), p.clone()]);
        assert!(
            r.results
                .iter()
                .any(|x| x.outcome == crate::ktap::Outcome::Fail && x.name.contains(want)),
            "{want}: {:?}",
            r.results
        );
    }
    let no_marks = checks(&s, &[pass("ref", 40.0, 3, 0), pass("cubic", 30.0, 2, 0)]);
    assert!(no_marks.failed > 0);
    let no_ref = checks(&s, &[pass("cubic", 30.0, 2, 4)]);
    assert_eq!(no_ref.failed, 1);
}

/// Acknowledged bytes over time from a first ACK at `t0`: (s, Mbit/s since the previous
/// point) -> ACK samples.
fn ramp(t0: f64, points: &[(f64, f64)]) -> Vec<Ack> {
    let mut acked = 0.0;
    let mut prev = t0;
    let mut v = vec![Ack {
        t_s: t0,
        acked: 0,
        cwnd_pkts: 10,
        srtt_us: 3000,
    }];
    for &(t, mbit) in points {
        acked += mbit * 1e6 / 8.0 * (t - prev);
        prev = t;
        v.push(Ack {
            t_s: t,
            acked: acked.round() as u64,
            cwnd_pkts: 10,
            srtt_us: 3000,
        });
    }
    v
}

/// Whether the first check of `r` whose name contains `needle` passed (one must have run).
fn passed(r: &Summary, needle: &str) -> bool {
    let c = r
        .results
        .iter()
        .find(|x| x.name.contains(needle))
        .unwrap_or_else(|| panic!("no check {needle:?} ran: {:?}", r.results));
    c.outcome == crate::ktap::Outcome::Pass
}

/// The names of the checks of `r` that failed.
fn failed_checks(r: &Summary) -> Vec<&str> {
    r.results
        .iter()
        .filter(|x| x.outcome == crate::ktap::Outcome::Fail)
        .map(|x| x.name.as_str())
        .collect()
}

/// A pass of the two-flow incast of the tests below: total `total` Mbit/s, the long flow (0)
/// with ACKs `long`, one 64 KiB flow (1) launched at 2 s (time zero: the first ACK, at 0).
fn incast_pass(algo: &str, total: f64, long: Vec<Ack>) -> Pass {
    let mut p = pass(algo, total, 0, 0);
    let tr = &mut p.trials[0];
    tr.flows.push(FlowInfo {
        idx: 1,
        start_ms: 2000,
        size: Some(65536),
        ..tr.flows[0].clone()
    });
    tr.launch_s.insert(0, 0.0);
    tr.launch_s.insert(1, 2.0);
    tr.acks.insert(0, long);
    tr.acks.insert(1, ramp(2.1, &[(2.5, 1.0)]));
    p.stats[0].fct_ms = vec![400.0];
    p
}

/// With `reference_flows = "scenario"` the long flows under test are judged against the
/// reference pass's from the incast's launch, as well as the total against its total, and
/// the reference pass must itself have run every flow: (reference pass, pass under test)
/// -> the one failing check.
#[test]
fn scenario_reference_judges_long_flows_and_its_own_flows() {
    let avail: Vec<String> = ["cubic", "swift"].iter().map(|s| s.to_string()).collect();
    // One long flow, one 64 KiB flow launched at 2 s (time zero: the first ACK, at 0).
    let text = "description = \"x\"\nalgos = [\"swift\"]\nduration_s = 4\n[path]\nrate_mbit = 50\ndelay_us = 2000\n[[flows]]\nalgo = \"under_test\"\n[[flows]]\nalgo = \"under_test\"\nstart_ms = 2000\nsize_kb = 64\n[test]\nalgos = [\"swift\"]\nreference_flows = \"scenario\"\n";
    let s = crate::scenario::parse(text, "t", &avail).unwrap();
    // A pass: its total, and its long flow's rate before and after the launch at 2 s.
    let with = |algo: &str, total: f64, before: f64, after: f64| {
        incast_pass(algo, total, ramp(0.0, &[(2.0, before), (4.0, after)]))
    };
    let ok = checks(
        &s,
        &[
            with("ref", 24.0, 20.0, 20.0),
            with("swift", 14.0, 10.0, 10.0),
        ],
    );
    assert_eq!(ok.failed, 0, "{:?}", ok.results);
    for want in [
        "of the reference pass's (the same flows) 24.0",
        "long flows' goodput from 2.00 s 10.0 >= 50% of the reference pass's 20.0",
        "ref: long flows moved data from 2.00 s (20.0 Mbit/s)",
    ] {
        assert!(
            ok.results.iter().any(|x| x.name.contains(want)),
            "{want}: {:?}",
            ok.results
        );
    }
    let mut no_flow = with("ref", 24.0, 20.0, 20.0);
    no_flow.trials[0].flows.pop();
    let mut failed = with("ref", 24.0, 20.0, 20.0);
    failed.trials[0].flows[1].rc = 1;
    let mut untraced = with("ref", 24.0, 20.0, 20.0);
    untraced.trials[0].acks.remove(&1);
    let cases: &[(Pass, Pass, &str)] = &[
        // Fast before the incast, stalled after it: 10 Mbit/s over the trial, 0 after.
        (
            with("ref", 24.0, 20.0, 20.0),
            with("swift", 13.0, 20.0, 0.0),
            "long flows' goodput from 2.00 s 0.0",
        ),
        (
            with("ref", 24.0, 20.0, 20.0),
            with("swift", 11.0, 11.0, 11.0),
            "total goodput 11.0 >= 50%",
        ),
        (
            with("ref", 24.0, 20.0, 0.0),
            with("swift", 24.0, 20.0, 20.0),
            "ref: long flows moved data",
        ),
        (
            no_flow,
            with("swift", 24.0, 20.0, 20.0),
            "ref: all 2 flows reported (1 did)",
        ),
        (
            failed,
            with("swift", 24.0, 20.0, 20.0),
            "ref: every flow moved data",
        ),
        (
            untraced,
            with("swift", 24.0, 20.0, 20.0),
            "ref: per-ACK samples for every flow (missing: [1])",
        ),
    ];
    for (r, p, want) in cases {
        let res = checks(&s, &[r.clone(), p.clone()]);
        let failed = failed_checks(&res);
        assert!(
            failed.len() == 1 && failed[0].contains(want),
            "{want}: {failed:?}"
        );
    }
    // A named long flow is not one under test: its rate does not count.
    let named = crate::scenario::parse(
        &text.replace("[test]", "[[flows]]\nalgo = \"cubic\"\n[test]"),
        "t",
        &avail,
    )
    .unwrap();
    let mut r = with("ref", 24.0, 20.0, 20.0);
    let mut p = with("swift", 24.0, 20.0, 0.0);
    for x in [&mut r, &mut p] {
        let tr = &mut x.trials[0];
        let mut f = tr.flows[0].clone();
        f.idx = 2;
        tr.flows.push(f);
        tr.acks.insert(2, ramp(0.0, &[(4.0, 30.0)]));
    }
    let res = checks(&named, &[r, p]);
    assert!(
        res.results
            .iter()
            .any(|x| x.outcome == crate::ktap::Outcome::Fail
                && x.name.contains("long flows' goodput from 2.00 s 0.0")),
        "{:?}",
        res.results
    );
    // With one reference flow neither the long-flow check nor the reference's own run.
    let single = crate::scenario::parse(
        &text.replace("reference_flows = \"scenario\"\n", ""),
        "t",
        &avail,
    )
    .unwrap();
    let r = checks(
        &single,
        &[
            with("ref", 24.0, 20.0, 20.0),
            with("swift", 14.0, 20.0, 0.0),
        ],
    );
    assert!(
        !r.results
            .iter()
            .any(|x| x.name.contains("long flows'") || x.name.contains("/ref:")),
        "{:?}",
        r.results
    );
}

/// `longest_stall`: (ACKs as (time s, bytes acknowledged), window, queue sample times) ->
/// (gap s, where it began s), derived by hand: only an ACK that moves past what was acknowledged
/// ends a gap, the ends of the window count, the first of equal gaps is reported, and a
/// sampler silence above `GUEST_FROZEN_S` (the guest did not run) is not stall time.
#[test]
fn longest_stall_table() {
    let acks = |v: &[(f64, u64)]| -> Vec<Ack> {
        v.iter()
            .map(|&(t_s, acked)| Ack {
                t_s,
                acked,
                cwnd_pkts: 10,
                srtt_us: 3000,
            })
            .collect()
    };
    // Queue samples every `step` s from `a` to `b` (inclusive).
    let every = |step: f64, a: f64, b: f64| -> Vec<f64> {
        (0..)
            .map(|k| a + f64::from(k) * step)
            .take_while(|t| *t <= b + 1e-9)
            .collect()
    };
    /// (name, ACKs, window from, window to, queue sample times, (gap, where it began)).
    type Case = (&'static str, Vec<Ack>, f64, f64, Vec<f64>, (f64, f64));
    let cases: &[Case] = &[
        (
            "no ACK: the whole window",
            acks(&[]),
            0.5,
            3.0,
            vec![],
            (2.5, 0.5),
        ),
        (
            "a repeated ACK does not end a gap",
            acks(&[(1.0, 10), (1.5, 10), (2.0, 20)]),
            0.5,
            3.0,
            vec![],
            (1.0, 1.0),
        ),
        (
            "what was acknowledged before the window counts as seen",
            acks(&[(0.2, 10), (1.0, 10), (1.2, 11)]),
            0.5,
            1.5,
            vec![],
            (0.7, 0.5),
        ),
        (
            "the tail to the end of the window",
            acks(&[(0.6, 1), (0.7, 2), (0.8, 3)]),
            0.5,
            2.0,
            vec![],
            (1.2, 0.8),
        ),
        (
            "ACKs after the window are not progress within it",
            acks(&[(0.6, 1), (5.0, 2)]),
            0.5,
            2.0,
            vec![],
            (1.4, 0.6),
        ),
        (
            "a frozen guest (the sampler silent 1.0 to 2.5 s) is not stall time",
            acks(&[(0.6, 1)]),
            0.5,
            3.0,
            [every(0.1, 0.0, 1.0), every(0.1, 2.5, 3.0)].concat(),
            (0.9, 0.6),
        ),
        (
            "a slow sampler (every 0.3 s) is no freeze",
            acks(&[(0.6, 1)]),
            0.5,
            2.0,
            every(0.3, 0.0, 2.1),
            (1.4, 0.6),
        ),
    ];
    for (name, a, from, to, alive, (gap, at)) in cases {
        let (g, t) = longest_stall(a, *from, *to, alive);
        assert!(
            (g - gap).abs() < 1e-9 && (t - at).abs() < 1e-9,
            "{name}: got ({g}, {t}), want ({gap}, {at})"
        );
    }
}

/// With `min_total_pct = 0` and `max_stall_ms`, an incast's long flow is judged by whether
/// it keeps acknowledging data, not by its rate: (long flow's ACKs after the launch at
/// 2 s) -> the one failing check, or none.
#[test]
fn stall_check_judges_progress_not_rate() {
    let avail: Vec<String> = ["cubic", "swift"].iter().map(|s| s.to_string()).collect();
    let text = "description = \"x\"\nalgos = [\"swift\"]\nduration_s = 4\n[path]\nrate_mbit = 50\ndelay_us = 2000\n[[flows]]\nalgo = \"under_test\"\n[[flows]]\nalgo = \"under_test\"\nstart_ms = 2000\nsize_kb = 64\n[test]\nalgos = [\"swift\"]\nreference_flows = \"scenario\"\nmin_total_pct = 0\nmax_stall_ms = 1000\n";
    let s = crate::scenario::parse(text, "t", &avail).unwrap();
    // ACKs every 50 ms at `mbit` from 0 to 4 s, none within `hole` (s). `k / 20` is the
    // correctly rounded k·0.05, so a hole's ends given as literals are exact ACK times.
    let steady = |mbit: f64, hole: (f64, f64)| -> Vec<Ack> {
        (0..=80)
            .map(|k| f64::from(k) / 20.0)
            .filter(|t| !(*t > hole.0 && *t < hole.1))
            .map(|t| Ack {
                t_s: t,
                acked: (mbit * 1e6 / 8.0 * t) as u64,
                cwnd_pkts: 10,
                srtt_us: 3000,
            })
            .collect()
    };
    let with =
        |algo: &str, mbit: f64, hole: (f64, f64)| incast_pass(algo, mbit, steady(mbit, hole));
    /// (name, long flow's rate Mbit/s, its hole in the ACKs (s), the failing check or none).
    type Case = (&'static str, f64, (f64, f64), Option<&'static str>);
    let cases: &[Case] = &[
        (
            "a tenth of the reference's rate, never stalled",
            2.0,
            (0.0, 0.0),
            None,
        ),
        (
            "a 1.5 s stall after the launch",
            20.0,
            (2.5, 4.05),
            Some("longest gap 1.50 s, from 2.50 s"),
        ),
        ("a 0.95 s gap", 20.0, (2.5, 3.45), None),
        ("a gap of exactly the limit", 20.0, (2.5, 3.5), None),
        (
            "a 1.6 s stall in mid-trial",
            20.0,
            (2.2, 3.8),
            Some("longest gap 1.60 s, from 2.20 s"),
        ),
        (
            "a stall before the launch is not judged",
            20.0,
            (0.2, 1.95),
            None,
        ),
    ];
    for (name, mbit, hole, want) in cases {
        let res = checks(
            &s,
            &[with("ref", 20.0, (0.0, 0.0)), with("swift", *mbit, *hole)],
        );
        let failed = failed_checks(&res);
        match want {
            None => assert!(failed.is_empty(), "{name}: {failed:?}"),
            Some(w) => assert!(
                failed.len() == 1 && failed[0].contains(w),
                "{name}: {failed:?}"
            ),
        }
        assert!(
            res.results
                .iter()
                .any(|x| x.name.contains("acknowledged data at least every 1000 ms")),
            "{name}: the stall check ran"
        );
        assert!(
            !res.results.iter().any(|x| x.name.contains("goodput")),
            "{name}: min_total_pct = 0 compares no goodput: {:?}",
            res.results
        );
    }
    let judged = |p: Pass| failed_checks(&checks(&s, &[with("ref", 20.0, (0.0, 0.0)), p])).len();
    // The same mid-trial stall while the guest's queue sampler was silent too (QEMU not
    // scheduled): the guest did not run, nothing to judge.
    let mut frozen = with("swift", 20.0, (2.2, 3.8));
    frozen.trials[0]
        .queue
        .retain(|q| !(q.t_s > 2.2 && q.t_s < 3.8));
    assert_eq!(judged(frozen), 0, "a frozen guest is no stall");
    // A long flow whose first byte of data was acknowledged only at `first` s (a slow connect;
    // its earlier ACK covers nothing), then every 50 ms to the end.
    let late = |first: f64| -> Vec<Ack> {
        std::iter::once((0.0, 0))
            .chain(
                (0..)
                    .map(move |k| first + f64::from(k) * 0.05)
                    .take_while(|t| *t <= 4.0 + 1e-9)
                    .map(move |t| (t, ((t - first + 0.1) * 2.5e6) as u64)),
            )
            .map(|(t_s, acked)| Ack {
                t_s,
                acked,
                cwnd_pkts: 10,
                srtt_us: 3000,
            })
            .collect()
    };
    // With a 500 ms limit a flow is judged from its first data up to 3.0 s (two limits before
    // the end of the 2.0-4.0 s window).
    let s500 = crate::scenario::parse(
        &text.replace("max_stall_ms = 1000", "max_stall_ms = 500"),
        "t",
        &avail,
    )
    .unwrap();
    let late_failed = |first: f64| {
        let res = checks(
            &s500,
            &[
                with("ref", 20.0, (0.0, 0.0)),
                incast_pass("swift", 20.0, late(first)),
            ],
        );
        failed_checks(&res)
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
    };
    // At 2.8 s: judged from then, so 0.8 s after the launch is no stall.
    assert!(
        late_failed(2.8).is_empty(),
        "first data at 2.8 s: {:?}",
        late_failed(2.8)
    );
    // At 3.95 s: judged from 3.0 s, 0.95 s without data.
    let f = late_failed(3.95);
    assert!(
        f.len() == 1 && f[0].contains("longest gap 0.95 s, from 3.00 s"),
        "first data at 3.95 s: {f:?}"
    );
}

/// With two long flows the stall check judges the worse: the second stalls, the first does
/// not, in either order.
#[test]
fn stall_check_judges_every_long_flow() {
    let avail: Vec<String> = ["cubic", "swift"].iter().map(|s| s.to_string()).collect();
    let text = "description = \"x\"\nalgos = [\"swift\"]\nduration_s = 4\n[path]\nrate_mbit = 50\ndelay_us = 2000\n[[flows]]\nalgo = \"under_test\"\n[[flows]]\nalgo = \"under_test\"\nstart_ms = 2000\nsize_kb = 64\n[[flows]]\nalgo = \"under_test\"\n[test]\nalgos = [\"swift\"]\nreference_flows = \"scenario\"\nmin_total_pct = 0\nmax_stall_ms = 1000\n";
    let s = crate::scenario::parse(text, "t", &avail).unwrap();
    // ACKs every 50 ms at 20 Mbit/s from 0 to 4 s, none after `stop` (s).
    let until = |stop: f64| -> Vec<Ack> {
        (0..=80)
            .map(|k| f64::from(k) * 0.05)
            .filter(|t| *t <= stop)
            .map(|t| Ack {
                t_s: t,
                acked: (2.5e6 * t) as u64,
                cwnd_pkts: 10,
                srtt_us: 3000,
            })
            .collect()
    };
    // Flow 0 with ACKs until `a`, flow 2 (the second long flow) until `b`.
    let two = |algo: &str, a: f64, b: f64| {
        let mut p = incast_pass(algo, 20.0, until(a));
        let tr = &mut p.trials[0];
        let mut f = tr.flows[0].clone();
        f.idx = 2;
        tr.flows.push(f);
        tr.launch_s.insert(2, 0.0);
        tr.acks.insert(2, until(b));
        p
    };
    for (a, b, fails) in [(4.0, 4.0, false), (4.0, 2.5, true), (2.5, 4.0, true)] {
        let res = checks(&s, &[two("ref", 4.0, 4.0), two("swift", a, b)]);
        let failed = failed_checks(&res);
        assert_eq!(
            failed.len() == 1 && failed[0].contains("longest gap 1.50 s, from 2.50 s"),
            fails,
            "flows stop at {a} and {b}: {failed:?}"
        );
        assert_eq!(failed.is_empty(), !fails, "{failed:?}");
    }
}

/// A flow moved data when its sender succeeded and the receiver confirmed bytes; the trace's
/// ACKs do not stand in for the receiver's count (rdcc-flowgen's is exact): (sender rc,
/// received bytes, bytes the last traced ACK covered) -> the check passes.
#[test]
fn moved_data_is_the_receivers_count() {
    let avail: Vec<String> = ["cubic"].iter().map(|s| s.to_string()).collect();
    let text = "description = \"x\"\nalgos = [\"cubic\"]\nduration_s = 4\n[path]\nrate_mbit = 50\ndelay_us = 2000\n[[flows]]\nalgo = \"under_test\"\n[test]\nduration_s = 4\nalgos = [\"cubic\"]\n";
    let s = crate::scenario::parse(text, "t", &avail).unwrap();
    let cases = [
        (0, 1000, 0, true),
        (0, 0, 65536, false),
        (0, 0, 0, false),
        (1, 1000, 65536, false),
    ];
    for &(rc, bytes, acked, ok) in &cases {
        let mut p = pass("cubic", 30.0, 2, 0);
        let tr = &mut p.trials[0];
        tr.flows[0].rc = rc;
        tr.flows[0].bytes = bytes;
        tr.acks.get_mut(&0).unwrap()[0].acked = acked;
        let r = checks(&s, &[pass("ref", 40.0, 3, 0), p]);
        assert_eq!(
            passed(&r, "every flow moved data"),
            ok,
            "rc {rc} bytes {bytes} acked {acked}"
        );
    }
}

/// A flow with a start time is launched at it and moves no data before it: (trial clock
/// marker, the late flow's launch marker and first ACK, s after time zero; its start is
/// 2 s after the trial's) -> the check passes. The first ACKs of a starved guest come late
/// for every flow, so the first flow's may follow the late one's (CI, incast/swift).
#[test]
fn late_flows_start_at_their_start_time() {
    let avail: Vec<String> = ["cubic"].iter().map(|s| s.to_string()).collect();
    let text = "description = \"x\"\nalgos = [\"cubic\"]\nduration_s = 4\n[path]\nrate_mbit = 50\ndelay_us = 2000\n[[flows]]\nalgo = \"under_test\"\n[[flows]]\nalgo = \"under_test\"\nstart_ms = 2000\n[test]\nduration_s = 4\nalgos = [\"cubic\"]\n";
    let s = crate::scenario::parse(text, "t", &avail).unwrap();
    /// (trial start, launch, first ACK, ok)
    type Case = (Option<f64>, Option<f64>, Option<f64>, bool);
    #[rustfmt::skip]
    let cases: &[Case] = &[
        (Some(-0.5), Some(1.5), Some(1.6), true),   // on time
        (Some(-3.7), Some(-1.7), Some(0.3), true),  // starved guest: its first ACK precedes the first flow's
        (Some(-0.5), Some(1.499995), Some(1.6), true), // within the trace's µs stamps
        (Some(-0.5), Some(1.499), Some(1.6), false),   // launched 1 ms early
        (Some(-0.5), Some(1.4), Some(1.6), false),  // launched 0.1 s early
        (Some(-0.5), Some(-0.5), Some(0.0), false), // launched with the first flow
        (Some(-0.5), Some(1.5), Some(1.4), false),  // data before the launch
        (Some(-0.5), None, Some(1.6), false),       // no launch marker
        (None, Some(2.0), Some(2.1), true),         // no trial marker: the first launch (0.0)
        (None, Some(1.0), Some(2.1), false),
    ];
    for &(start, launch, first_ack, ok) in cases {
        let mut p = pass("cubic", 30.0, 2, 0);
        let tr = &mut p.trials[0];
        tr.flows.push(FlowInfo {
            idx: 1,
            start_ms: 2000,
            ..tr.flows[0].clone()
        });
        tr.start_s = start;
        tr.launch_s.insert(0, 0.0);
        if let Some(l) = launch {
            tr.launch_s.insert(1, l);
        }
        if let Some(t_s) = first_ack {
            tr.acks.insert(
                1,
                vec![Ack {
                    t_s,
                    acked: 0,
                    cwnd_pkts: 10,
                    srtt_us: 3000,
                }],
            );
        }
        let r = checks(&s, &[pass("ref", 40.0, 3, 0), p]);
        assert_eq!(
            passed(&r, "late flows start"),
            ok,
            "start {start:?} launch {launch:?} first ACK {first_ack:?}"
        );
    }
}
