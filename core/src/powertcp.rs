// SPDX-License-Identifier: GPL-2.0-only
//! θ-PowerTCP: the RTT-only ("standalone") variant of PowerTCP, in integer arithmetic.
//!
//! Source: V. Addanki, O. Michel, S. Schmid, "PowerTCP: Pushing the Performance Limits of
//! Datacenter Networks", USENIX NSDI 2022 (author version), §3.3 (control law and parameters),
//! §3.5 (Eq. 8, the RTT form of power) and Appendix B, Algorithm 2 ("θ-PowerTCP (w/o switch
//! support)"). Ambiguities are resolved as recommended by the project specification
//! `shared/specs/powertcp-vaisf.md` §2 and §8; every choice is listed in
//! `Documentation/algorithms/theta_powertcp.md`, "Deviations from the paper".
//!
//! The model, in six lines (τ = base RTT, θ = RTT sample, t_c = ACK time):
//!
//! ```text
//! θ̇        = (θ − θ_prev) / (t_c − t_c_prev)                 Alg. 2 line 19
//! Γ_norm   = (θ̇ + 1) · θ / τ                                Alg. 2 line 20, Eq. 8
//! Γ_smooth = (Γ_smooth · (τ − Δt) + Γ_norm · Δt) / τ         Alg. 2 line 21, Δt = min(dt, τ)
//! cwnd_old = getCwnd(ack.seq)                                Alg. 2 line 8, Eq. 7 w(t − θ)
//! cwnd     = γ · (cwnd_old / Γ_smooth + β) + (1 − γ) · cwnd  Alg. 2 line 31, once per RTT
//! rate     = cwnd / τ                                        Alg. 2 line 11
//! ```
//!
//! Once per RTT means: the window is updated on the first ACK whose `snd_una` reaches the
//! `snd_nxt` recorded at the previous update (Alg. 2 lines 27 and 34), or whose RTT sample is
//! of data sent after the previous update (a hole in loss recovery holds `snd_una` back, while
//! SACKed data keeps bringing samples). `cwnd_old` is the window in force when the sampled data
//! was sent: the current window for data sent after the last update, otherwise the one before
//! it (a two-entry history, `State::prev_cwnd_q16`).
//!
//! With the default per-RTT cadence the gradient is a secant over the RTT (spec §2.4 (DESIGN),
//! A9) and line 21's time-weighted average runs on every ACK over the RTT samples, so Γ_smooth
//! = (θ̇ + 1) · θ_smooth / τ averages the last τ of samples; [`GRADIENT_PER_ACK`] selects the
//! literal per-ACK gradient and smoothing of Alg. 2. τ is configured, or with
//! [`BASE_RTT_MIN_RTT`] the flow's smallest RTT sample (PowerTCP §3.3) capped by the
//! configured value; [`BASE_RTT_ARTIFACT`] adds the authors' ns-3 θ-mode's 1.05·τ in Eq. 8 and
//! its window rate·τ (an option, Documentation/algorithms/theta_powertcp.md D10a).
//!
//! Units: windows are bytes in Q16 (`_q16`, the unit of `Decision::cwnd_bytes_q16`), times are
//! ns, rates bytes/s, normalised power and γ are Q16 fractions. No floats, no 128-bit integers,
//! no panics: every product is bounded in a comment or goes through `fixed::mul_div`.
//!
//! `Decision::signal` is the smoothed normalised power Γ_smooth in Q16 (65536 = 1.0, the
//! equilibrium with an empty queue); 0 until the first power sample.

use super::event::{AckEvent, Controller, Decision, LossEvent, LossKind, ParamError, Reason};
use super::fixed::{
    clamp, mul_div, mul_div_fits, mul_q16, seq_after, MAX_RATE_BPS, NS_PER_S, Q16_ONE, Q16_SHIFT,
};

/// The bounds, [`Config`] and [`Params`]: a child module in its own file (this file's size).
#[path = "powertcp_params.rs"]
mod powertcp_params;
pub use powertcp_params::*;

/// `State::flags`: the window has been initialised (by `init`, idle restart or lazily by the
/// first ACK).
pub const FLAG_INIT: u32 = 1 << 0;
/// `State::flags`: `prev_rtt_ns`, `rtt_smooth_ns`, `update_ns`, `last_ack_ns` and `marker_seq`
/// hold a sample.
pub const FLAG_HAVE_PREV: u32 = 1 << 1;
/// `State::flags`: `power_smooth_q16` holds a measured value.
pub const FLAG_SMOOTH: u32 = 1 << 2;
/// `State::flags`: `undo_cwnd_q16` holds the window before the last loss reaction.
pub const FLAG_UNDO: u32 = 1 << 3;

/// Per-flow state. All-zero (`Default`) is valid and means "not initialised": the first ACK
/// or idle restart initialises it. 68 bytes of fields, 72 with alignment.
///
/// `#[repr(C)]` because the hold lease's C fast path (issue #13; `powertcp_lease.rs`,
/// modules/glue/rdcc_lease_theta.h) steps it in place on a hold: it reads `update_ns`,
/// `last_ack_ns`, `marker_seq` and `rtt_smooth_ns` and writes `rtt_smooth_ns` and `last_ack_ns`
/// (Alg. 2 lines 21 and 13). The layout is `struct rdcc_theta_state` in modules/glue/rdcc_abi.h
/// (core/tests/abi_offsets.rs checks it); to every other C line the state is opaque.
#[repr(C)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct State {
    /// The congestion window, bytes Q16, in [min, max] once initialised: the window in force
    /// for data sent since the last update (`update_ns`, `marker_seq`).
    pub cwnd_q16: u64,
    /// The window in force before the last update, bytes Q16: `getCwnd` (Alg. 2 line 8) for
    /// data sent before it. Together with `cwnd_q16` the history of `updateOld` (line 13).
    pub prev_cwnd_q16: u64,
    /// Γ_smooth (Alg. 2 line 21), Q16, valid with [`FLAG_SMOOTH`].
    pub power_smooth_q16: u64,
    /// The window before the last loss reaction, bytes Q16, valid with [`FLAG_UNDO`].
    pub undo_cwnd_q16: u64,
    /// Host time of the last window update (or of the first sample), ns: the start of the
    /// per-RTT gradient's secant and the boundary between `prev_cwnd_q16` and `cwnd_q16`.
    pub update_ns: u64,
    /// t_c^prev (Alg. 2 line 13): host time of the previous RTT sample, ns.
    pub last_ack_ns: u64,
    /// lastUpdated (Alg. 2 line 34): `snd_nxt` at the last window update.
    pub marker_seq: u32,
    /// prevRTT (Alg. 2 line 12), ns: the previous sample (per ACK) or the sample of the last
    /// update (per RTT).
    pub prev_rtt_ns: u32,
    /// Per-RTT cadence: the RTT samples averaged with Alg. 2 line 21's weights, ns.
    pub rtt_smooth_ns: u32,
    /// The smallest RTT sample seen, ns (0 = none); kept only with [`BASE_RTT_MIN_RTT`] and
    /// [`BASE_RTT_ARTIFACT`]. With the latter `cwnd_q16` and `prev_cwnd_q16` are the rate
    /// times the configured τ (see `decision_tau`).
    pub min_rtt_ns: u32,
    /// `FLAG_*` bits.
    pub flags: u32,
}

// The kernel's get_info reads this state without the socket lock: its copy may mix versions or
// hold another algorithm's bytes, so every field is an integer (event::AnyBitPattern, which the
// glue requires of every module's law).
super::event::any_bit_pattern!(State {
    cwnd_q16,
    prev_cwnd_q16,
    power_smooth_q16,
    undo_cwnd_q16,
    update_ns,
    last_ack_ns,
    marker_seq,
    prev_rtt_ns,
    rtt_smooth_ns,
    min_rtt_ns,
    flags,
});

const _: () = assert!(core::mem::size_of::<State>() <= super::event::CORE_STATE_BUDGET);

/// θ-PowerTCP as a [`Controller`].
pub struct ThetaPowerTcp;

impl State {
    fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }

    /// A freshly initialised state: window HostBw·τ, no samples (PowerTCP §3.3: "all flows
    /// transmit at line rate in the first RTT and use cwnd_init = HostBw×τ"). The minimum RTT
    /// is a property of the path, not of the connection's history, and is kept.
    fn fresh(p: &Params, min_rtt_ns: u32) -> State {
        State {
            cwnd_q16: p.init_cwnd_q16,
            prev_cwnd_q16: p.init_cwnd_q16,
            min_rtt_ns,
            flags: FLAG_INIT,
            ..State::default()
        }
    }

    /// Set the window outside the law (loss cut, undo): data in flight and data sent next
    /// are both paired with it.
    fn set_window(&mut self, cwnd_q16: u64) {
        self.cwnd_q16 = cwnd_q16;
        self.prev_cwnd_q16 = cwnd_q16;
    }

    /// Forget the gradient history and the smoothed power (RTO, spec A11).
    fn reset_history(&mut self) {
        self.flags &= !(FLAG_HAVE_PREV | FLAG_SMOOTH);
        self.power_smooth_q16 = 0;
        self.prev_rtt_ns = 0;
        self.rtt_smooth_ns = 0;
        self.update_ns = 0;
        self.last_ack_ns = 0;
    }

    /// Restart the measurement at this sample (first sample, clock went backwards). The
    /// window history collapses to the current window: `update_ns` is now the boundary, and
    /// data sent before it is paired with the window in force now.
    fn restart_at(&mut self, now_ns: u64, rtt_ns: u32) {
        self.prev_cwnd_q16 = self.cwnd_q16;
        self.prev_rtt_ns = rtt_ns;
        self.rtt_smooth_ns = rtt_ns;
        self.update_ns = now_ns;
        self.last_ack_ns = now_ns;
    }
}

/// τ for this flow, ns: the configured base RTT, or with [`BASE_RTT_MIN_RTT`] the smallest RTT
/// sample within [`BASE_RTT_MIN_NS`, configured τ]. Always in [1 µs, 1 s].
fn tau_ns(p: &Params, s: &State) -> u64 {
    if p.min_rtt_tau && s.min_rtt_ns != 0 {
        clamp(u64::from(s.min_rtt_ns), BASE_RTT_MIN_NS, p.base_rtt_ns)
    } else {
        p.base_rtt_ns
    }
}

/// τ of Eq. 8's normalisation, ns: τ, or with [`BASE_RTT_ARTIFACT`] ⌊21·τ/20⌋ = ⌊1.05·τ⌋
/// (the authors' ns-3 θ-mode, `rdma-hw.cc` line 1035: `power / (1.05 * m_baseRtt)`). τ ≤ 2^30,
/// so 21·τ < 2^35 and the result is below 2^31.
fn norm_tau_ns(p: &Params, tau_ns: u64) -> u64 {
    if p.artifact_tau {
        tau_ns.wrapping_mul(21) / 20 // ≤ 21 · 2^30 < 2^35: no wrap
    } else {
        tau_ns
    }
}

/// Pacing rate for a window: `rate = cwnd / τ` (Alg. 2 line 11), bytes/s, capped at
/// `MAX_RATE_BPS`. The window's fraction of a byte is dropped first: `cwnd_bytes < 2^31` and
/// `NS_PER_S < 2^30` keep the product below 2^61. The error is below 10^9/τ_ns bytes/s.
///
/// Every window the law outputs is clamped to `max_cwnd_q16 ≤ MAX_CWND_BYTES << 16`, so the
/// product fits and the quotient is computed inline, without `mul_div`'s call and its checks
/// (issue #13); the same value as `mul_div` (which is used for any larger input).
fn pacing_bps(tau_ns: u64, cwnd_q16: u64) -> u64 {
    let cwnd_bytes = cwnd_q16 >> Q16_SHIFT;
    if cwnd_bytes <= MAX_CWND_BYTES && tau_ns != 0 {
        // ≤ 2^31 · 10^9 < 2^61: no overflow; τ ≠ 0 checked.
        let product = cwnd_bytes.wrapping_mul(NS_PER_S);
        return product.checked_div(tau_ns).unwrap_or(0).min(MAX_RATE_BPS);
    }
    mul_div(cwnd_bytes, NS_PER_S, tau_ns).min(MAX_RATE_BPS)
}

/// The decision for the current state. Before initialisation: all zero (not paced).
fn decision(p: &Params, s: &State, reason: Reason) -> Decision {
    if !s.has(FLAG_INIT) {
        return Decision {
            reason,
            ..Decision::default()
        };
    }
    decision_tau(p, s, tau_ns(p, s), reason)
}

/// [`decision`] for an initialised state whose τ (`tau_ns(p, s)`) the caller has at hand: a
/// hold in `on_ack` (issue #13: τ is not looked up twice).
///
/// With [`BASE_RTT_ARTIFACT`] the stored window W is rate·τ_c (τ_c the configured τ): the flow
/// paces at W/τ_c and its window is ⌊W·τ_f/τ_c⌋ within [min, max] (the authors' ns-3 code:
/// window = `m_rate · m_baseRtt`, `rdma-queue-pair.cc` lines 129–130, with `m_baseRtt` the
/// minimum RTT, `rdma-hw.cc` line 992; the rate at most the line rate, lines 260 and
/// 1074–1075, so the window at most HostBw·τ_f). τ_f ≤ τ_c, so it never exceeds W; the floor
/// `min` keeps one packet in flight where the artifact's `m_minRate` (line 1072) has none.
fn decision_tau(p: &Params, s: &State, tau_ns: u64, reason: Reason) -> Decision {
    // The stored window is always within the bounds; clamping again keeps the output within
    // them even if the parameters changed since (a module parameter write).
    let law_cwnd = clamp(s.cwnd_q16, p.min_cwnd_q16, p.max_cwnd_q16);
    let (cwnd, rate_bps) = if p.artifact_tau {
        // W·τ_f/τ_c: W < 2^48, τ_f ≤ 2^30; mul_div never overflows and τ_c ≥ 1 µs.
        let flow_q16 = mul_div(law_cwnd, tau_ns, p.base_rtt_ns);
        let flow_q16 = clamp(flow_q16, p.min_cwnd_q16, p.max_cwnd_q16);
        (flow_q16, pacing_bps(p.base_rtt_ns, law_cwnd))
    } else {
        (law_cwnd, pacing_bps(tau_ns, law_cwnd))
    };
    let signal = if s.has(FLAG_SMOOTH) {
        i64::try_from(s.power_smooth_q16).unwrap_or(i64::MAX)
    } else {
        0
    };
    Decision {
        cwnd_bytes_q16: cwnd,
        pacing_rate_bps: rate_bps,
        signal,
        reason,
        flags: 0,
    }
}

/// `(θ̇ + 1)` in Q16 from an RTT change over `dt_ns` (PowerTCP Alg. 2 line 19):
/// `1 ± |ΔRTT| · 2^16 / dt` (truncated toward zero, which is monotone in RTT), clamped to
/// [`grad_floor`, `GRAD_FACTOR_MAX_Q16`] (spec §2.4 guard). Requires `dt > 0`; `mul_div` never
/// overflows. Callers pass RTTs below 2^32: `|ΔRTT| · 2^16 < 2^48`, `mul_div_fits` divides
/// inline.
fn grad_factor_q16(p: &Params, rtt_ns: u64, prev_rtt_ns: u64, dt_ns: u64) -> u64 {
    let one_plus_grad_q16 = if rtt_ns >= prev_rtt_ns {
        // rtt ≥ prev
        let up_q16 = mul_div_fits(rtt_ns.wrapping_sub(prev_rtt_ns), Q16_ONE, dt_ns);
        Q16_ONE.saturating_add(up_q16)
    } else {
        // prev > rtt
        let down_q16 = mul_div_fits(prev_rtt_ns.wrapping_sub(rtt_ns), Q16_ONE, dt_ns);
        Q16_ONE.saturating_sub(down_q16)
    };
    clamp(one_plus_grad_q16, p.grad_floor_q16, GRAD_FACTOR_MAX_Q16)
}

/// Normalised power, Q16 (PowerTCP Alg. 2 line 20, Eq. 8): `Γ_norm = (θ̇ + 1) · θ / τ`, clamped
/// to [`POWER_MIN_Q16`, `POWER_MAX_Q16`]. τ ≥ 1 µs.
fn norm_power_q16(one_plus_grad_q16: u64, rtt_ns: u64, tau_ns: u64) -> u64 {
    let power_q16 = mul_div_fits(one_plus_grad_q16, rtt_ns, tau_ns);
    clamp(power_q16, POWER_MIN_Q16, POWER_MAX_Q16)
}

/// Time-weighted average (PowerTCP Alg. 2 line 21): `(old · (τ − Δt) + new · Δt) / τ`, with
/// `Δt = min(dt, τ)` (spec A2: Alg. 2 never defines Δt; dt clamped to τ keeps the weights in
/// [0, 1]). Used for Γ (per-ACK cadence) and for θ (per-RTT cadence).
///
/// Overflow: callers pass values of at most 2^32 (powers are clamped to `POWER_MAX_Q16`, RTTs
/// to `RTT_MAX_NS`) and `τ ≤ 2^30`, so each product is at most 2^62 and the sum at most 2^63.
/// Rounded down; a constant input is an exact fixed point.
fn smooth(old: u64, new: u64, dt_ns: u64, tau_ns: u64) -> u64 {
    if dt_ns >= tau_ns {
        return new; // weight 1: (old·0 + new·τ)/τ, without the division
    }
    let delta = dt_ns;
    let kept = old.saturating_mul(tau_ns.saturating_sub(delta));
    let added = new.saturating_mul(delta);
    kept.saturating_add(added)
        .checked_div(tau_ns)
        .unwrap_or(new) // τ ≥ 1 µs
}

/// The window law (PowerTCP Alg. 2 line 31, Eq. 7 with Eq. 8):
/// `cwnd = γ · (cwnd_old / Γ_smooth + β) + (1 − γ) · cwnd`, clamped to [min, max].
///
/// `cwnd_old = getCwnd(ack.seq)` (Alg. 2 line 8; Eq. 7's w(t − θ), "window size at the time of
/// transmission of the acknowledged segment") and `cwnd` is the current window: they differ
/// whenever the window changed within the last RTT, which after any update it did. The three
/// terms are computed separately, each rounded down: `cwnd_old · γ / Γ` (cwnd ≤ 2^47,
/// γ ≤ 2^16: product < 2^63, Γ ≥ 655 never zero), `γ·β` (precomputed) and `(1 − γ) · cwnd`.
fn window_update(p: &Params, cwnd_old_q16: u64, cwnd_q16: u64, power_q16: u64) -> u64 {
    let cwnd_old_q16 = clamp(cwnd_old_q16, p.min_cwnd_q16, p.max_cwnd_q16);
    let cwnd_q16 = clamp(cwnd_q16, p.min_cwnd_q16, p.max_cwnd_q16);
    let power_q16 = clamp(power_q16, POWER_MIN_Q16, POWER_MAX_Q16);
    // γ · cwnd_old / Γ_smooth (Alg. 2 line 31, first term).
    let scaled_q16 = mul_div_fits(cwnd_old_q16, p.gamma_q16, power_q16);
    // (1 − γ) · cwnd (Alg. 2 line 31, EWMA term).
    let kept_q16 = mul_q16(cwnd_q16, p.one_minus_gamma_q16);
    let new_q16 = scaled_q16
        .saturating_add(p.gamma_beta_q16)
        .saturating_add(kept_q16);
    clamp(new_q16, p.min_cwnd_q16, p.max_cwnd_q16)
}

/// A due ACK as [`update_per_rtt`] needs it: what `on_ack` has at hand after Alg. 2 line 13,
/// or what the hold lease's due path hands over (`powertcp_lease::on_due`).
struct DueAck {
    /// t_c, ns.
    now_ns: u64,
    /// The RTT sample, clamped to [1, `RTT_MAX_NS`], ns.
    rtt_ns: u64,
    /// The same sample as a `u32` (exact: `RTT_MAX_NS` = `u32::MAX`).
    rtt_u32: u32,
    /// The ACK's `snd_una`.
    snd_una: u32,
    /// The ACK's `snd_nxt`.
    snd_nxt: u32,
    /// τ of this ACK (`tau_ns(p, s)`), ns; the update does not change it.
    tau_ns: u64,
    /// `now − RTT > update_ns`: the sampled data left after the last update.
    sent_after_update: bool,
}

/// The once-per-RTT window update of a due ACK (Alg. 2 lines 19-20 per RTT, 8, 31, 13 and 34),
/// after `on_ack` (or the lease's due path) has averaged the sample and set `last_ack_ns`.
/// `per_ack_power_q16`: Γ_smooth when the per-ACK cadence computed it on this ACK; `None`
/// computes the per-RTT power here. The decision is `decision_tau` with the ACK's τ: the
/// update changes neither `min_rtt_ns` nor the flag `FLAG_INIT`, so it is `decision`'s.
#[inline(always)]
fn update_per_rtt(
    p: &Params,
    s: &mut State,
    ack: &DueAck,
    per_ack_power_q16: Option<u64>,
) -> Decision {
    let tau = ack.tau_ns;
    let power_q16 = match per_ack_power_q16 {
        Some(power_q16) => power_q16,
        None => {
            // Lines 19-20 with the gradient over the RTT since the last update (the secant,
            // spec §2.4 (DESIGN)) and the averaged RTT: Γ_smooth = (θ̇ + 1) · θ_smooth / τ, line
            // 21 applied to the samples' Γ_norm with this RTT's gradient.
            let span_ns = ack.now_ns.saturating_sub(s.update_ns).max(1);
            let g = grad_factor_q16(p, ack.rtt_ns, u64::from(s.prev_rtt_ns), span_ns);
            let norm_tau = norm_tau_ns(p, tau);
            s.power_smooth_q16 = norm_power_q16(g, u64::from(s.rtt_smooth_ns), norm_tau);
            s.flags |= FLAG_SMOOTH;
            s.prev_rtt_ns = ack.rtt_u32;
            s.power_smooth_q16
        }
    };
    // Alg. 2 line 8: cwnd_old = getCwnd(ack.seq), the window the sampled data was sent
    // under: the current one if it left after the last update (or snd_una passed the
    // marker), otherwise the one before. Data older than that (a flow that sent nothing
    // for a whole RTT) gets the one before as well.
    let cwnd_old_q16 = if ack.sent_after_update || seq_after(ack.snd_una, s.marker_seq) {
        s.cwnd_q16
    } else {
        s.prev_cwnd_q16
    };
    // Alg. 2 line 31; line 13 updateOld(cwnd, ack.seq); line 34 lastUpdated = snd_nxt.
    let new_q16 = window_update(p, cwnd_old_q16, s.cwnd_q16, power_q16);
    s.prev_cwnd_q16 = s.cwnd_q16;
    s.cwnd_q16 = new_q16;
    s.marker_seq = ack.snd_nxt;
    s.update_ns = ack.now_ns;
    decision_tau(p, s, tau, Reason::GradientUpdate)
}

impl Controller for ThetaPowerTcp {
    type Params = Params;
    type State = State;

    fn init(p: &Params, s: &mut State, _now_ns: u64, _mss_bytes: u32) -> Decision {
        *s = State::fresh(p, 0);
        decision(p, s, Reason::Init)
    }

    fn on_ack(p: &Params, s: &mut State, ev: &AckEvent) -> Decision {
        // The hold lease (issue #13) transcribes what this function does on a hold of the
        // per-RTT cadence with a configured τ (down to `if !due`): `ThetaLease::take` in
        // powertcp_lease.rs and `rdcc_theta_take` in modules/glue/rdcc_lease_theta.h. Change
        // them together: theta_lease_equivalence, take_matches_on_ack and the KUnit case
        // rdcc_glue_theta_lease fail otherwise. The due path in C (`rdcc_theta_update`, same
        // header) transcribes update_per_rtt, grad_factor_q16, norm_power_q16, window_update,
        // decision_tau, pacing_bps, Decision::enforce, ThetaLease::grant and on_due for the
        // common case: change it with any of them (KUnit rdcc_glue_theta_update fails otherwise).
        //
        // Lazy initialisation: the kernel may deliver an ACK before `init`.
        let first = !s.has(FLAG_INIT);
        if first {
            *s = State::fresh(p, 0);
        }
        let hold_reason = if first { Reason::Init } else { Reason::Hold };
        let rtt_ns = match ev.rtt() {
            // A zero RTT (sub-µs in Linux) counts as 1 ns; a bogus one as RTT_MAX_NS.
            Some(r) => clamp(r, 1, RTT_MAX_NS),
            None => {
                let reason = if first {
                    Reason::Init
                } else {
                    Reason::NoSample
                };
                return decision(p, s, reason);
            }
        };
        let rtt_u32 = u32::try_from(rtt_ns).unwrap_or(u32::MAX); // ≤ RTT_MAX_NS = u32::MAX
        if p.min_rtt_tau && (s.min_rtt_ns == 0 || rtt_u32 < s.min_rtt_ns) {
            // PowerTCP §3.3: "keep track of minimum observed RTT".
            s.min_rtt_ns = rtt_u32;
        }

        // First sample (Alg. 2 leaves prevRTT, t_c^prev and lastUpdated uninitialised): record
        // it, and the first update happens one RTT later (line-rate first RTT, PowerTCP §3.3).
        if !s.has(FLAG_HAVE_PREV) {
            s.restart_at(ev.now_ns, rtt_u32);
            s.marker_seq = ev.snd_nxt;
            s.flags |= FLAG_HAVE_PREV;
            return decision(p, s, hold_reason);
        }
        if ev.now_ns < s.last_ack_ns {
            // The clock went backwards: restart the gradient measurement from here.
            s.restart_at(ev.now_ns, rtt_u32);
            return decision(p, s, Reason::Hold);
        }
        // Alg. 2 line 18: dt = t_c − t_c^prev.
        let dt_ns = ev.now_ns.wrapping_sub(s.last_ack_ns); // now ≥ last checked above
        if dt_ns == 0 {
            // No time passed (ACKs of one GRO batch): no gradient and no weight. Keep prevRTT
            // and t_c^prev so the RTT change is measured over the next non-zero interval; a due
            // update waits.
            return decision(p, s, Reason::Hold);
        }
        let tau = tau_ns(p, s);
        // Alg. 2 line 27, `if ack.seq < lastUpdated then return` (once per RTT), read as "this
        // ACK's sample is of data sent before the last update": snd_una has not reached the
        // marker, and the sampled data left before `update_ns` (its send time is now − RTT).
        // The time test lets SACKed data sent after the update trigger it while a hole holds
        // snd_una back (loss recovery); without holes both tests agree.
        let sent_after_update = ev
            .now_ns
            .checked_sub(rtt_ns)
            .is_some_and(|sent| sent > s.update_ns);
        let due = sent_after_update || !seq_after(s.marker_seq, ev.snd_una);

        let per_ack_power_q16 = if p.per_ack {
            // Alg. 2 lines 19-21 on every ACK.
            let g = grad_factor_q16(p, rtt_ns, u64::from(s.prev_rtt_ns), dt_ns);
            let norm_q16 = norm_power_q16(g, rtt_ns, norm_tau_ns(p, tau));
            let old_q16 = if s.has(FLAG_SMOOTH) {
                clamp(s.power_smooth_q16, POWER_MIN_Q16, POWER_MAX_Q16)
            } else {
                p.smooth_init_q16 // 0: spec A3, the first sample counts in full
            };
            let smoothed = if old_q16 == 0 {
                norm_q16
            } else {
                smooth(old_q16, norm_q16, dt_ns, tau)
            };
            s.power_smooth_q16 = clamp(smoothed, POWER_MIN_Q16, POWER_MAX_Q16);
            s.flags |= FLAG_SMOOTH;
            // Alg. 2 line 12: prevRTT = RTT.
            s.prev_rtt_ns = rtt_u32;
            Some(s.power_smooth_q16)
        } else {
            // Alg. 2 line 21's average over the RTT samples of the last τ, on every ACK.
            let old = u64::from(s.rtt_smooth_ns);
            let avg = smooth(old, rtt_ns, dt_ns, tau).min(RTT_MAX_NS);
            s.rtt_smooth_ns = u32::try_from(avg).unwrap_or(u32::MAX);
            None // computed by update_per_rtt, only when due
        };
        // Alg. 2 line 13: t_c^prev = t_c.
        s.last_ack_ns = ev.now_ns;
        if !due {
            // Nothing the decision depends on changed since `tau` (initialised state).
            return decision_tau(p, s, tau, Reason::Hold);
        }
        let ack = DueAck {
            now_ns: ev.now_ns,
            rtt_ns,
            rtt_u32,
            snd_una: ev.snd_una,
            snd_nxt: ev.snd_nxt,
            tau_ns: tau,
            sent_after_update,
        };
        update_per_rtt(p, s, &ack, per_ack_power_q16)
    }

    fn on_loss(p: &Params, s: &mut State, ev: &LossEvent) -> Decision {
        if !s.has(FLAG_INIT) {
            return decision(p, s, Reason::Hold); // nothing to react on before the first ACK
        }
        // The paper is silent on loss (lossless fabrics); spec A11 (DESIGN): no cut by
        // default, an optional multiplicative cut that `on_undo` can revert.
        if p.loss_keep_q16 < Q16_ONE {
            s.undo_cwnd_q16 = s.cwnd_q16;
            s.flags |= FLAG_UNDO;
            let cut = mul_q16(s.cwnd_q16, p.loss_keep_q16);
            s.set_window(clamp(cut, p.min_cwnd_q16, p.max_cwnd_q16));
        }
        match ev.kind {
            LossKind::FastRecovery => decision(p, s, Reason::FastRecovery),
            LossKind::RetransmitTimeout => {
                // Spec §5.4 set_state(TCP_CA_Loss) and A11: reset the gradient history and the
                // smoothed power; the next ACK starts a fresh measurement.
                s.reset_history();
                decision(p, s, Reason::RetransmitTimeout)
            }
        }
    }

    fn on_idle_restart(p: &Params, s: &mut State, _now_ns: u64, _mss_bytes: u32) -> Decision {
        // Paper silent; the authors' Linux module restarts at line rate on
        // CA_EVENT_CWND_RESTART (spec §1.6): window HostBw·τ, all history cleared (the
        // minimum RTT, a property of the path, is kept).
        *s = State::fresh(p, s.min_rtt_ns);
        decision(p, s, Reason::IdleRestart)
    }

    fn on_undo(p: &Params, s: &mut State, _mss_bytes: u32) -> Decision {
        if !s.has(FLAG_INIT) || !s.has(FLAG_UNDO) {
            return decision(p, s, Reason::Hold); // no loss reaction to undo
        }
        // Restore what the loss cut removed, as Reno's undo does: max(cwnd, prior window).
        let restored = s.cwnd_q16.max(s.undo_cwnd_q16);
        s.set_window(clamp(restored, p.min_cwnd_q16, p.max_cwnd_q16));
        s.undo_cwnd_q16 = 0;
        s.flags &= !FLAG_UNDO;
        decision(p, s, Reason::Undo)
    }

    fn current(p: &Params, s: &State, _mss_bytes: u32) -> Decision {
        decision(p, s, Reason::Hold)
    }
}

/// The hold lease (issue #13, `ThetaLease`): a child module in its own file, so it reaches the
/// law's private parameters and helpers (`smooth`, `tau_ns`, `update_per_rtt`) without widening
/// their visibility; a kernel module that includes this file gets it too.
#[path = "powertcp_lease.rs"]
mod powertcp_lease;
pub use powertcp_lease::{
    on_ack_leased, on_due, DueIn, Take, ThetaLease, PARAMS_ABI, THETA_LIFE_NS, THETA_PKTS_LIMIT,
    THETA_RTT_US_MAX, THETA_UPDATE_MAX_NS,
};
