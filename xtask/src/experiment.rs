//! `cargo xtask run --scenario` and the scenario part of `cargo xtask test`: one VM boot runs
//! the (already validated) scenarios with `selftests/_scenario.sh`; their data comes back on the
//! data channel (`vm::Boot::data_out`) and becomes files, plots, a table and, for `test`,
//! functional checks judged against a reference pass of the same boot.

use crate::ktap::Summary;
use crate::scenario::{RefFlows, Scenario};
use crate::series::{self, Ack, Pass, Trial};
use crate::util::{err, fmt_dur, out_dir, repo_root, Result};
use crate::{kernel, say, vm};
use std::time::Duration;

/// The guest job: every scenario's variable file, then the runner on each. The selftests are
/// in /selftests in a QEMU guest, in $RDCC_SELFTESTS in a UML one (vm.rs `UML_INIT`).
fn job(scs: &[Scenario], test: bool) -> String {
    let mut j =
        String::from("rc=0\n: \"${RDCC_SELFTESTS:=/selftests}\"\nmodprobe ipv6 2>/dev/null\n");
    for s in scs {
        j.push_str(&format!(
            "cat > /tmp/scn-{n}.env <<'RDCC_EOF'\n{}RDCC_EOF\nsh \"$RDCC_SELFTESTS\"/_scenario.sh /tmp/scn-{n}.env || rc=1\n",
            s.guest_env(test),
            n = s.name
        ));
    }
    j.push_str("sync\nexit $rc\n");
    j
}

/// Each scenario with its passes (or why there are none), what ran the guest ("UML", "KVM",
/// "TCG"), how the boot ended ("status Some(0)", or its status and whether it timed out).
type Booted = (
    Vec<(Scenario, std::result::Result<Vec<Pass>, String>)>,
    &'static str,
    std::result::Result<(), String>,
);

/// Boot once with the scenarios (main.rs `boot_job`: a QEMU or a UML guest, as `p` is); the
/// passes of each (scenario order), the boot's success. The data channel is a host file either
/// way (vm.rs `Boot::data_out`).
fn boot(
    p: &'static kernel::Profile,
    scs: &[Scenario],
    test: bool,
    timeout_s: u64,
    quiet: bool,
) -> Result<Booted> {
    // One name per profile: the default plan's test boots both a UML and a QEMU guest, and a
    // later boot's log must not replace the one a failure points to.
    let data = out_dir()?.join(if test {
        format!("scenario-test-{}-data.bin", p.name)
    } else {
        "run-data.bin".into()
    });
    let b = vm::Boot {
        stream: !quiet,
        timeout: Duration::from_secs(timeout_s),
        data_out: Some(data.clone()),
        // `cargo xtask test` boots the datacenter scenarios beside the selftests' UML guest
        // (test_plan.rs `profile_boot`): a stage and boot lock of their own.
        uml_stage: if test { "uml-scenarios" } else { "uml" },
        ..vm::Boot::default()
    };
    let log = out_dir()?.join(if test {
        format!("scenario-test-{}-console.log", p.name)
    } else {
        "run-console.log".into()
    });
    say!(
        "run: {} scenario(s) in one boot of the {} kernel; console log {}",
        scs.len(),
        p.name,
        log.display()
    );
    let (r, _, engine) = crate::boot_job(p, job(scs, test), b, &log)?;
    say!(
        "run: {engine} guest finished in {} (status {:?}{})",
        fmt_dur(r.elapsed),
        r.status,
        if r.timed_out { ", timed out" } else { "" }
    );
    for l in r
        .console
        .lines()
        .filter(|l| l.contains("RDCC-SCN") && l.contains("FAILED"))
    {
        eprintln!("{l}");
    }
    let bytes = std::fs::read(&data)?;
    let (frames, done) = crate::frames::read_frames(&bytes).map_err(|e| crate::util::Error {
        msg: format!("run: {e} ({})", data.display()),
        detail: vec![],
    })?;
    let mut out = Vec::new();
    for s in scs {
        let (dur, warm) = if test {
            (s.test.duration_s, s.test_warmup_s())
        } else {
            (s.duration_s, f64::from(s.warmup_s))
        };
        let mut res = series::passes(s, &frames, warm, f64::from(dur));
        if !done.contains(&s.name) {
            res = Err(unfinished(s, &r, &log));
        }
        out.push((s.clone(), res));
    }
    let end = if r.status == Some(0) && !r.timed_out {
        Ok(())
    } else {
        Err(format!(
            "status {:?}{} after {}",
            r.status,
            if r.timed_out { ", timed out" } else { "" },
            fmt_dur(r.elapsed)
        ))
    };
    Ok((out, engine, end))
}

/// Why a scenario has no data, in words a CI log's last lines can carry: the boot's end
/// (timed out, or its status) and the scenario's last progress line on the console (a
/// `FAILED:` line names the step that stopped it).
fn unfinished(s: &Scenario, r: &vm::RunResult, log: &std::path::Path) -> String {
    let tag = format!("RDCC-SCN {}:", s.name);
    let last = r
        .console
        .lines()
        .rfind(|l| l.contains(&tag))
        .map_or("none".to_string(), |l| {
            let l = l.trim();
            l[l.find(&tag).unwrap_or(0)..].chars().take(240).collect()
        });
    let end = if r.timed_out {
        // uml::inspect's verdict on the guest's clock, if it asked.
        let clock = r
            .console
            .lines()
            .rfind(|l| l.starts_with("RDCC-HUNG: virtual time"))
            .map_or(String::new(), |l| {
                format!(" ({})", &l["RDCC-HUNG: ".len()..])
            });
        format!("the boot timed out after {}{clock}", fmt_dur(r.elapsed))
    } else {
        format!(
            "the boot ended with status {:?} after {}",
            r.status,
            fmt_dur(r.elapsed)
        )
    };
    format!(
        "{}: the guest did not finish it: {end}; its last progress line: {last:?} (see {})",
        s.name,
        log.display()
    )
}

/// `cargo xtask run --scenario`: table, files and plots per scenario.
pub fn run(
    p: &'static kernel::Profile,
    scs: &[Scenario],
    timeout_s: u64,
    quiet: bool,
) -> Result<u8> {
    // A UML guest runs in virtual time: a trial gives the same figures every time, so one is
    // enough (Documentation/results/uml_testbed.md shows it).
    let scs: Vec<Scenario> = scs
        .iter()
        .cloned()
        .map(|mut s| {
            if p.arch == kernel::Arch::Um && s.trials > 1 {
                say!(
                    "run: {}: one trial on UML (deterministic), not {}",
                    s.name,
                    s.trials
                );
                s.trials = 1;
            }
            s
        })
        .collect();
    let (res, engine, ok) = boot(p, &scs, false, timeout_s, quiet)?;
    let mut code = if ok.is_ok() { 0 } else { 1 };
    for (s, passes) in res {
        let passes = match passes {
            Ok(p) => p,
            Err(e) => {
                eprintln!("run: {e}");
                code = 1;
                continue;
            }
        };
        let label = crate::outputs::path_label(&s, engine);
        let dir = repo_root().join("results/vm").join(&s.name);
        let files = crate::outputs::write_outputs(&s, &passes, &dir, &label).map_err(|e| {
            crate::util::Error {
                msg: e,
                detail: vec![],
            }
        })?;
        println!();
        println!("{}: {} ({label})", s.name, s.description);
        println!(
            "medians over trials [min-max]; sRTT = kernel smoothed RTT at every ACK; RTT (law) = our laws' per-ACK samples"
        );
        print!("{}", crate::outputs::table(&s, &passes));
        println!("files in {}:", dir.display());
        for f in files.iter().filter(|f| {
            f.extension()
                .is_some_and(|e| e == "png" || e == "svg" || e == "json")
                || f.file_name().is_some_and(|n| n == "summary.txt")
        }) {
            println!("  {}", f.display());
        }
        println!(
            "  ... and {} per-trial CSV files (acks, tput, decisions, queue, flows)",
            files
                .iter()
                .filter(|f| f.extension().is_some_and(|e| e == "csv"))
                .count()
        );
    }
    Ok(code)
}

/// The functional checks of one scenario's test run (reference pass first).
pub fn checks(s: &Scenario, passes: &[Pass]) -> Summary {
    let mut sum = Summary::default();
    let n = &s.name;
    let reference = passes.iter().find(|p| p.algo == "ref");
    if reference.is_none() && s.test.reference_flows != RefFlows::None {
        sum.record(&format!("{n}: reference pass ran"), false);
        return sum;
    }
    let ref_mbit = reference
        .and_then(|r| r.stats.first())
        .map_or(0.0, |st| st.tput_mbit);
    if reference.is_some() {
        sum.record(
            &format!(
                "{n}: reference {} moved data ({ref_mbit:.1} Mbit/s)",
                s.test.reference
            ),
            ref_mbit > 0.0,
        );
    }
    // With the scenario's own flows as the reference, the long flows under test are judged on
    // their own against the reference pass's (`long_after`).
    let ref_long = match (s.test.reference_flows, reference) {
        (RefFlows::Scenario, Some(r)) => r.trials.first().and_then(|tr| long_after(s, tr)),
        _ => None,
    };
    if let (RefFlows::Scenario, Some(reference)) = (s.test.reference_flows, reference) {
        // A reference pass of many flows sets the bar only if every one of them ran.
        for tr in &reference.trials {
            record_flows_ran(&mut sum, &format!("{n}/ref"), s, tr);
        }
        if let Some(l) = ref_long {
            sum.record(
                &format!(
                    "{n}/ref: long flows moved data from {:.2} s ({:.1} Mbit/s)",
                    l.from_s, l.mbit
                ),
                l.mbit > 0.0,
            );
        }
    }
    let marks_any = passes.iter().flat_map(|p| &p.stats).any(|st| st.marks > 0);
    if s.path.ecn_k_pkts > 0 {
        sum.record(
            &format!(
                "{n}: the bottleneck marked CE (fq_codel ce_threshold, K={} packets)",
                s.path.ecn_k_pkts
            ),
            marks_any,
        );
    }
    for want in &s.test.algos {
        let Some(p) = passes.iter().find(|p| &p.algo == want) else {
            sum.record(&format!("{n}/{want}: pass ran"), false);
            continue;
        };
        for (tr, st) in p.trials.iter().zip(&p.stats) {
            record_flows_ran(&mut sum, &format!("{n}/{want}"), s, tr);
            // A flow with a start time is launched at it and moves no data before: the sender
            // marks the trial's clock ("rdcctrial") and each release ("rdccflow") in the trace,
            // so the check judges the harness's timing by the trace's own clock.
            let late = late_start_faults(tr);
            if tr.flows.iter().any(|f| f.start_ms > 0) {
                sum.record(
                    &format!("{n}/{want}: late flows start at their start time (faults: {late:?})"),
                    late.is_empty(),
                );
            }
            if crate::algos::ours().unwrap_or_default().contains(want) {
                sum.record(
                    &format!("{n}/{want}: decision tracepoint samples ({})", st.decisions),
                    st.decisions > 0,
                );
            }
            let qn = tr.queue.len();
            sum.record(
                &format!(
                    "{n}/{want}: queue sampled ({qn} samples in {} s)",
                    s.test.duration_s
                ),
                // Nominally 10 per second; a loaded emulated CPU gives fewer.
                qn as u32 >= s.test.duration_s,
            );
            if s.path.loss_pct > 0.0 {
                sum.record(
                    &format!(
                        "{n}/{want}: random loss caused retransmissions ({})",
                        st.retrans
                    ),
                    st.retrans > 0,
                );
            }
            let sized = tr.flows.iter().filter(|f| f.size.is_some()).count();
            if sized > 0 {
                // The sender reports every sized flow's completion time (series::flow_fct).
                sum.record(
                    &format!(
                        "{n}/{want}: short flows' completion times measured ({} of {sized})",
                        st.fct_ms.len()
                    ),
                    st.fct_ms.len() == sized,
                );
            }
            let long = long_after(s, tr);
            if let (true, Some(l)) = (s.test.max_stall_ms > 0, long) {
                let limit_s = f64::from(s.test.max_stall_ms) / 1000.0;
                sum.record(
                    &format!(
                        "{n}/{want}: long flows acknowledged data at least every {} ms from {:.2} s or their first data (longest gap {:.2} s, from {:.2} s)",
                        s.test.max_stall_ms, l.from_s, l.stall_s, l.stall_at_s
                    ),
                    l.stall_s <= limit_s,
                );
            }
            // min_total_pct = 0: no goodput comparison (scenario.rs `TestSpec::min_total_pct`).
            if s.test.min_total_pct > 0 {
                let need = ref_mbit * s.test.min_total_pct as f64 / 100.0;
                let of = match s.test.reference_flows {
                    RefFlows::Scenario => "the reference pass's (the same flows)",
                    _ => "the reference's",
                };
                sum.record(
                    &format!(
                        "{n}/{want}: total goodput {:.1} >= {}% of {of} {ref_mbit:.1} Mbit/s",
                        st.tput_mbit, s.test.min_total_pct
                    ),
                    st.tput_mbit >= need,
                );
            }
            if let (true, Some(r), Some(l)) = (s.test.min_total_pct > 0, ref_long, long) {
                sum.record(
                    &format!(
                        "{n}/{want}: long flows' goodput from {:.2} s {:.1} >= {}% of the reference pass's {:.1} Mbit/s (from {:.2} s)",
                        l.from_s, l.mbit, s.test.min_total_pct, r.mbit, r.from_s
                    ),
                    l.mbit >= r.mbit * s.test.min_total_pct as f64 / 100.0,
                );
            }
            if s.test.min_share_pct > 0 {
                let need = ref_mbit * s.test.min_share_pct as f64 / 100.0;
                let low: Vec<String> = st
                    .per_flow_mbit
                    .iter()
                    .filter(|&&x| x < need)
                    .map(|x| format!("{x:.1}"))
                    .collect();
                sum.record(
                    &format!(
                        "{n}/{want}: every long flow >= {}% of the reference ({need:.1} Mbit/s; below: {low:?})",
                        s.test.min_share_pct
                    ),
                    low.is_empty(),
                );
            }
            crate::bounds::check(s, want, st, &mut sum);
        }
    }
    sum
}

/// `cargo xtask test`: the built-in scenarios of `p`'s test bed (QEMU: `BUILT_IN`, judged
/// against a reference pass; UML: `DC_TEST_SET`, judged by their bounds), shortened, in one boot;
/// their checks.
pub fn test(p: &'static kernel::Profile, quiet: bool) -> Result<Summary> {
    let avail = crate::algos::available(p)?;
    let bed = crate::scenario::Bed::of(p);
    let names = match bed {
        crate::scenario::Bed::Qemu => crate::scenario::BUILT_IN,
        crate::scenario::Bed::Uml => crate::scenario::DC_TEST_SET,
    };
    let mut scs = Vec::new();
    for n in names {
        match crate::scenario::load(n, &avail, bed) {
            Ok(s) => scs.push(s),
            Err(e) => return err(e),
        }
    }
    // UML: one virtual-time boot whose wall time follows the host's speed and load (14-20
    // minutes on uml-debug here, loaded); a hung guest is caught by vm.rs's stall watchdog
    // within minutes, so the bound is for a slow host, not for a hang.
    let timeout_s = match bed {
        crate::scenario::Bed::Qemu => 1500,
        crate::scenario::Bed::Uml => 2400,
    };
    let (res, _, end) = boot(p, &scs, true, timeout_s, quiet)?;
    let mut sum = Summary::default();
    match end {
        Ok(()) => sum.record("scenario test boot finished with status 0", true),
        Err(e) => sum.record(
            &format!("scenario test boot finished with status 0 (it ended with {e})"),
            false,
        ),
    }
    for (s, passes) in res {
        match passes {
            Ok(p) => sum.extend("", checks(&s, &p)),
            Err(e) => sum.record(&format!("{}: data ({e})", s.name), false),
        }
    }
    Ok(sum)
}

/// A launch marker may precede its start on the trial's clock by this: the sender marks the
/// trial before it reads the clock its releases are timed from, and releases on an absolute
/// sleep on the trace's own clock, so only the trace's µs stamps round.
const LAUNCH_SLACK_S: f64 = 0.000_01;

/// The checks that a trial ran every flow of the scenario's test run, each moving data with
/// traced ACKs: for the pass under test, and for a reference pass of the scenario's own flows.
fn record_flows_ran(sum: &mut Summary, label: &str, s: &Scenario, tr: &Trial) {
    let expected = s.expand(s.test.duration_s).len();
    sum.record(
        &format!(
            "{label}: all {expected} flows reported ({} did)",
            tr.flows.len()
        ),
        tr.flows.len() == expected,
    );
    let bad = flows_without_data(tr);
    sum.record(
        &format!("{label}: every flow moved data {bad:?}"),
        bad.is_empty(),
    );
    let no_acks = flows_without_acks(tr);
    sum.record(
        &format!("{label}: per-ACK samples for every flow (missing: {no_acks:?})"),
        no_acks.is_empty(),
    );
}

/// Flows without a traced ACK.
fn flows_without_acks(tr: &Trial) -> Vec<usize> {
    tr.flows
        .iter()
        .filter(|f| tr.acks.get(&f.idx).is_none_or(|a| a.is_empty()))
        .map(|f| f.idx)
        .collect()
}

/// The long flows under test of one trial, after the later flows began.
#[derive(Clone, Copy, Debug, PartialEq)]
struct LongAfter {
    /// Start of the window, s after the trial's time zero.
    from_s: f64,
    /// Their summed goodput over [from_s, end of the trial], Mbit/s.
    mbit: f64,
    /// The longest time one of them went without a newly acknowledged byte while the guest ran,
    /// each from `from_s` or its own first acknowledged byte if later (but not later than two
    /// stall limits before the end) to the end of the trial, s, and when that gap began.
    stall_s: f64,
    stall_at_s: f64,
}

/// A silence of the guest's queue sampler longer than this, s, means the guest did not run
/// (QEMU descheduled on the host): nominally it samples every 0.1 s, under load every 0.11-0.15
/// s (nice -19; selftests/_scenario.sh), 83-98 samples in incast's 8 s loaded trials.
const GUEST_FROZEN_S: f64 = 0.5;

/// How long within `[a, b]` the guest's queue sampler (`alive`: sample times, ascending) was
/// silent for more than `GUEST_FROZEN_S` at a stretch, s. Before the first and after the last
/// sample nothing is known, so nothing counts; with fewer than two samples, nothing either.
fn frozen_within(alive: &[f64], a: f64, b: f64) -> f64 {
    alive
        .windows(2)
        .filter(|w| w[1] - w[0] > GUEST_FROZEN_S)
        .map(|w| (w[1].min(b) - w[0].max(a)).max(0.0))
        .sum()
}

/// The longest interval within `[from_s, to_s]` in which `acks` acknowledged nothing new while
/// the guest ran, s, and where it began: from `from_s` to the first ACK that moved past what was
/// acknowledged by then, between such ACKs, and from the last of them to `to_s`; each less the
/// time the guest was frozen within it (`frozen_within`, from the queue sampler's times
/// `alive`).
fn longest_stall(acks: &[Ack], from_s: f64, to_s: f64, alive: &[f64]) -> (f64, f64) {
    let mut seen = acks
        .iter()
        .take_while(|a| a.t_s <= from_s)
        .last()
        .map_or(0, |a| a.acked);
    let (mut prev, mut worst) = (from_s, (0.0, from_s));
    let moved = acks
        .iter()
        .filter(|a| a.t_s > from_s && a.t_s <= to_s)
        .filter(|a| {
            let new = a.acked > seen;
            seen = seen.max(a.acked);
            new
        })
        .map(|a| a.t_s)
        .chain(std::iter::once(to_s));
    for t in moved {
        let gap = t - prev - frozen_within(alive, prev, t);
        if gap > worst.0 {
            worst = (gap, prev);
        }
        prev = t;
    }
    worst
}

/// The goodput of the scenario's `under_test` long flows from the launch of its first
/// later-starting flow (the incast; without one, the warm-up) to the end of the test trial, and
/// their longest stall (`longest_stall`) within it. Only `under_test` flows: a named flow could
/// take a stalled one's share. Only after the launch: a long flow that stalls when the later
/// flows start must not pass on what it moved before. A flow's stall window starts at its own
/// first ACK of data if that comes later (a starved guest connects slowly: CI, 17 clients took up
/// to 3.7 s to their first ACK, and time zero is the first ACK of any flow), unless that comes
/// after the trial (then the whole window counts). None: the scenario has no such flow.
fn long_after(s: &Scenario, tr: &Trial) -> Option<LongAfter> {
    let plan = s.expand(s.test.duration_s);
    let is_long = |i: usize| {
        plan.get(i)
            .is_some_and(|f| f.bytes.is_none() && f.algo == "under_test")
    };
    if !(0..plan.len()).any(is_long) {
        return None;
    }
    // The same warm-up and length as the trial's figures (`boot`).
    let warm_s = s.test_warmup_s();
    let end_s = f64::from(s.test.duration_s);
    let later = tr
        .flows
        .iter()
        .filter(|f| f.start_ms > 0)
        .filter_map(|f| tr.launch_s.get(&f.idx).copied())
        .min_by(|a, b| a.total_cmp(b));
    let from_s = later.map_or(warm_s, |l| l.max(warm_s));
    let alive: Vec<f64> = tr.queue.iter().map(|q| q.t_s).collect();
    let (mut mbit, mut stall) = (0.0, (0.0, from_s));
    for f in tr.flows.iter().filter(|f| is_long(f.idx)) {
        let acks = tr.acks.get(&f.idx).map(Vec::as_slice).unwrap_or(&[]);
        mbit += series::goodput(acks, from_s, end_s);
        let first_data = acks.iter().find(|a| a.acked > 0).map(|a| a.t_s);
        // Never later than two stall limits before the end (scenario.rs `check_stall` keeps two
        // in the window): a flow whose data began at the very end must still be able to fail.
        let latest = (end_s - 2.0 * f64::from(s.test.max_stall_ms) / 1000.0).max(from_s);
        let start = first_data
            .filter(|t| *t < end_s)
            .map_or(from_s, |t| t.clamp(from_s, latest));
        let g = longest_stall(acks, start, end_s, &alive);
        if g.0 > stall.0 {
            stall = g;
        }
    }
    Some(LongAfter {
        from_s,
        mbit,
        stall_s: stall.0,
        stall_at_s: stall.1,
    })
}

/// Flows that failed or moved nothing, by the receiver's count of the bytes it read (the
/// sender's line, flowgen/src/send.rs; a sender whose count differs from the receiver's fails
/// the flow).
fn flows_without_data(tr: &Trial) -> Vec<String> {
    tr.flows
        .iter()
        .filter(|f| f.rc != 0 || f.bytes == 0)
        .map(|f| format!("flow {} rc={} bytes={} {}", f.idx, f.rc, f.bytes, f.err))
        .collect()
}

/// Flows with a start time that were launched before it (after the trial's clock marker, or
/// the first launch in a trace without one), have no launch marker, or have an ACK before
/// their launch.
fn late_start_faults(tr: &Trial) -> Vec<String> {
    let base = tr
        .start_s
        .or_else(|| tr.launch_s.values().copied().min_by(|a, b| a.total_cmp(b)));
    let mut out = Vec::new();
    for f in tr.flows.iter().filter(|f| f.start_ms > 0) {
        let start_s = f64::from(f.start_ms) / 1e3;
        let (Some(base), Some(&l)) = (base, tr.launch_s.get(&f.idx)) else {
            out.push(format!("flow {}: no launch marker", f.idx));
            continue;
        };
        if l - base < start_s - LAUNCH_SLACK_S {
            out.push(format!(
                "flow {} launched at {:.2} s, start {start_s:.2} s",
                f.idx,
                l - base
            ));
        }
        if let Some(a) = tr.acks.get(&f.idx).and_then(|a| a.first()) {
            if a.t_s < l {
                out.push(format!(
                    "flow {}: first ACK {:.2} s before its launch",
                    f.idx,
                    l - a.t_s
                ));
            }
        }
    }
    out
}

#[cfg(test)]
#[path = "experiment_tests.rs"]
mod tests;
