// SPDX-License-Identifier: GPL-2.0-only
//! Test vectors as plain data, and the one runner that host tests and the kernel's KUnit suites
//! both use.
//!
//! A [`Case`] is a raw configuration plus a list of [`Step`]s: an input event and, optionally,
//! the decision expected after it. Expected values are computed by hand from the papers'
//! equations; the comment beside each case shows the arithmetic. The runner is `no_std`, does
//! not allocate and does not panic, so the kernel can run it from a KUnit case and report the
//! first mismatch.
//!
//! Uses `super::event` only.

use super::event::{AckEvent, Controller, Decision, LossEvent, Reason};

/// One input to a law.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Input {
    /// `Controller::init(now_ns, mss_bytes)`.
    Init {
        /// Host clock, ns.
        now_ns: u64,
        /// MSS, bytes.
        mss_bytes: u32,
    },
    /// `Controller::on_ack`.
    Ack(AckEvent),
    /// `Controller::on_loss`.
    Loss(LossEvent),
    /// `Controller::on_idle_restart(now_ns, mss_bytes)`.
    IdleRestart {
        /// Host clock, ns.
        now_ns: u64,
        /// MSS, bytes.
        mss_bytes: u32,
    },
    /// `Controller::on_undo(mss_bytes)`.
    Undo {
        /// MSS, bytes.
        mss_bytes: u32,
    },
}

/// What a step must produce. Tolerances are absolute, in the field's own unit, and are zero
/// unless the comment beside the case explains the rounding that needs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expect {
    /// Expected `Decision::cwnd_bytes_q16`.
    pub cwnd_bytes_q16: u64,
    /// Allowed absolute difference on the window.
    pub cwnd_tol: u64,
    /// Expected `Decision::pacing_rate_bps`.
    pub pacing_rate_bps: u64,
    /// Allowed absolute difference on the pacing rate.
    pub pacing_tol: u64,
    /// Expected reason, or `None` to not check it.
    pub reason: Option<Reason>,
}

/// One step of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The event.
    pub input: Input,
    /// The decision expected after it, or `None` to only drive state.
    pub expect: Option<Expect>,
}

/// A named case: a raw configuration (validated by the runner's caller) and its steps.
#[derive(Clone, Copy, Debug)]
pub struct Case<Cfg: 'static> {
    /// Short name, printed on failure (KUnit prints it too).
    pub name: &'static str,
    /// The law's raw configuration.
    pub config: Cfg,
    /// Events and expectations, in order.
    pub steps: &'static [Step],
}

/// The first step whose decision did not match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Index of the step in the case.
    pub step: usize,
    /// What the law produced.
    pub got: Decision,
    /// What the case expected.
    pub want: Expect,
}

fn within(got: u64, want: u64, tol: u64) -> bool {
    got.abs_diff(want) <= tol
}

/// Apply one input.
pub fn apply<C: Controller>(p: &C::Params, s: &mut C::State, input: &Input) -> Decision {
    match *input {
        Input::Init { now_ns, mss_bytes } => C::init(p, s, now_ns, mss_bytes),
        Input::Ack(ref ev) => C::on_ack(p, s, ev),
        Input::Loss(ref ev) => C::on_loss(p, s, ev),
        Input::IdleRestart { now_ns, mss_bytes } => C::on_idle_restart(p, s, now_ns, mss_bytes),
        Input::Undo { mss_bytes } => C::on_undo(p, s, mss_bytes),
    }
}

/// Run `steps` from all-zero state; return the first mismatch.
pub fn run_steps<C: Controller>(p: &C::Params, steps: &[Step]) -> Result<(), Mismatch> {
    let mut s = C::State::default();
    for (i, step) in steps.iter().enumerate() {
        let got = apply::<C>(p, &mut s, &step.input);
        if let Some(want) = step.expect {
            let reason_ok = match want.reason {
                Some(r) => r == got.reason,
                None => true,
            };
            if !reason_ok
                || !within(got.cwnd_bytes_q16, want.cwnd_bytes_q16, want.cwnd_tol)
                || !within(got.pacing_rate_bps, want.pacing_rate_bps, want.pacing_tol)
            {
                return Err(Mismatch { step: i, got, want });
            }
        }
    }
    Ok(())
}

/// What a case reports when its configuration does not validate: step `usize::MAX`.
pub const INVALID_CONFIG: Mismatch = Mismatch {
    step: usize::MAX,
    got: Decision {
        cwnd_bytes_q16: 0,
        pacing_rate_bps: 0,
        signal: 0,
        reason: Reason::Hold,
        flags: 0,
    },
    want: Expect {
        cwnd_bytes_q16: 0,
        cwnd_tol: 0,
        pacing_rate_bps: 0,
        pacing_tol: 0,
        reason: None,
    },
};

/// Run one case: validate its configuration with `params`, then run its steps.
pub fn run_case<C: Controller, Cfg>(
    case: &Case<Cfg>,
    params: impl Fn(&Cfg) -> Option<C::Params>,
) -> Result<(), Mismatch> {
    match params(&case.config) {
        Some(p) => run_steps::<C>(&p, case.steps),
        None => Err(INVALID_CONFIG),
    }
}

/// Run a law's whole table (host tests and KUnit call this through `<law>_vectors::run_all`):
/// the number of cases passed, or the index of the first failing case and its mismatch.
pub fn run_cases<C: Controller, Cfg>(
    cases: &[Case<Cfg>],
    params: impl Fn(&Cfg) -> Option<C::Params>,
) -> Result<usize, (usize, Mismatch)> {
    for (i, case) in cases.iter().enumerate() {
        run_case::<C, Cfg>(case, &params).map_err(|m| (i, m))?;
    }
    Ok(cases.len())
}

/// Shorthand for an expectation with exact values and a checked reason.
pub const fn exact(cwnd_bytes_q16: u64, pacing_rate_bps: u64, reason: Reason) -> Expect {
    Expect {
        cwnd_bytes_q16,
        cwnd_tol: 0,
        pacing_rate_bps,
        pacing_tol: 0,
        reason: Some(reason),
    }
}

/// A plain ACK with an RTT sample: the most common vector input.
pub const fn ack(now_ns: u64, rtt_ns: u64, acked_bytes: u32, mss_bytes: u32) -> AckEvent {
    AckEvent {
        now_ns,
        rtt_ns,
        remote_delay_ns: 0,
        delivered_bytes: 0,
        acked_bytes,
        inflight_bytes: 0,
        mss_bytes,
        snd_una: 0,
        snd_nxt: 0,
        flags: super::event::ACK_HAS_RTT,
        hops: 0,
        _pad: [0; 3],
        local_rx_delay_ns: 0,
        telemetry: 0,
    }
}
