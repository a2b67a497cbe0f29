// SPDX-License-Identifier: GPL-2.0-only
//! PowerTCP with in-band network telemetry, in integer arithmetic.
//!
//! Source: V. Addanki, O. Michel, S. Schmid, "PowerTCP: Pushing the Performance Limits of
//! Datacenter Networks", USENIX NSDI 2022, §3.3 and Algorithm 1 ("PowerTCP"). Ambiguities are
//! resolved as the project specification `shared/specs/powertcp-vaisf.md` §1 and §8 recommend;
//! every choice is listed in `Documentation/algorithms/powertcp_int.md`.
//!
//! Per ACK carrying the INT stack H[1..n] (Alg. 1):
//!
//! ```text
//! cwnd_old  = getCwnd(ack.seq)                                  Alg. 1 line 3
//! per hop j: dt = H[j].ts − prev[j].ts
//!            λ_j/b_j = (Δqlen + ΔtxBytes) / (dt · b_j)           Alg. 1 lines 15-17
//!            ν_j/(b_j τ) = 1 + qlen_j / (b_j τ)                  Alg. 1 lines 18-19
//!            Γ_j = (λ_j/b_j) · (ν_j/(b_j τ))                     Alg. 1 lines 20-22
//! Γ_norm = max_j Γ_j, Δt = dt of that hop                       Alg. 1 lines 23-25 (A1)
//! Γ_smooth = (Γ_smooth · (τ − Δt) + Γ_norm · Δt) / τ            Alg. 1 line 27
//! cwnd = γ · (cwnd_old / Γ_smooth + β) + (1 − γ) · cwnd         Alg. 1 line 31
//!        (`kept_from_ref`: (1 − γ) · cwnd_old, the authors' ns-3 code)
//! rate = cwnd / τ                                               Alg. 1 line 9
//! prevInt = H; updateOld(cwnd, ack.seq)                         Alg. 1 lines 10-11
//! ```
//!
//! `getCwnd`/`updateOld` (spec §1.4.1 (a), A4): a reference window `W_ref` and a sequence
//! marker; when an ACK reaches the marker (one RTT has passed), `W_ref := cwnd` and the marker
//! moves to `snd_nxt`. `getCwnd` returns `W_ref`, the window in force when the acknowledged
//! data was sent.
//!
//! Units: windows bytes Q16, times ns, rates bytes/s, powers and γ Q16. `Decision::signal` is
//! Γ_smooth in Q16 (0 before the first power sample).

use super::event::{AckEvent, Decision, LossEvent, LossKind, ParamError, Reason};
use super::fixed::{clamp, mul_div, mul_q16, seq_after_eq, Q16_ONE};
use super::int::{
    bdp_frac_q16, check_cwnd_bytes, check_link, rate_frac_q16, take_history, CwndBounds,
    IntController, IntStack, F_INIT, F_PREV,
};
use super::powertcp::{EXPECTED_FLOWS_MAX, MAX_CWND_BYTES, POWER_MAX_Q16, POWER_MIN_Q16};

/// Raw configuration (scenario keys). Validate with [`Params::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// γ, EWMA weight of the new window (Alg. 1 line 31), Q16: [1, 65536].
    pub gamma_q16: u64,
    /// τ, base RTT, ns: [`BASE_RTT_MIN_NS`, `BASE_RTT_MAX_NS`].
    pub base_rtt_ns: u64,
    /// HostBw, host NIC rate, bytes/s: [`HOST_BW_MIN_BPS`, `MAX_RATE_BPS`], HostBw·τ ≤
    /// [`MAX_CWND_BYTES`].
    pub host_bw_bps: u64,
    /// N in β = HostBw·τ/N: [1, `EXPECTED_FLOWS_MAX`]. Unused when `beta_bytes` is set.
    pub expected_flows: u64,
    /// β, bytes: 0 = HostBw·τ/N (§3.3), otherwise [1, `MAX_CWND_BYTES`].
    pub beta_bytes: u64,
    /// Smallest window, bytes: [1, `MAX_CWND_BYTES`].
    pub min_cwnd_bytes: u64,
    /// Largest window, bytes: 0 = HostBw·τ (spec A6), otherwise [min, `MAX_CWND_BYTES`].
    pub max_cwnd_bytes: u64,
    /// Initial Γ_smooth, Q16: 0 = first Γ_norm unsmoothed (spec A3), otherwise
    /// [`POWER_MIN_Q16`, `POWER_MAX_Q16`].
    pub smooth_init_q16: u64,
    /// Target normalised power η, Q16: [32768, 65536] (0.5 to 1.0). The paper's law targets 1.0
    /// (default); the authors' ns-3 code divides by η = 0.95 (spec A8, §1.8).
    pub target_q16: u64,
    /// Floor of the current λ_j/b_j, Q16: [0, 65536]. The paper has none (0 = λ ≥ 0 only,
    /// spec A5); the authors' ns-3 code (HEAD) uses 0.5 (spec §1.8), the default here: without
    /// it, the gap in arrivals that follows a window cut reads as λ ≈ 0 and every flow jumps
    /// back to its largest window (see `Documentation/algorithms/powertcp_int.md`).
    pub lambda_floor_q16: u64,
    /// The (1 − γ) term of Alg. 1 line 31: 0 = the current window, as Alg. 1 prints it
    /// (default); 1 = the reference window `W_ref`, as the authors' ns-3 code keeps it
    /// (`0.1 · m_curRate` in `UpdateRatePower`; spec §1.4.1 (a), A4).
    pub kept_from_ref: u64,
}

impl Config {
    /// The paper's values (and the specification's where the paper is silent).
    pub const DEFAULT: Config = Config {
        gamma_q16: 58_982,          // γ = 0.9: §3.3, §4.1
        base_rtt_ns: 20_000,        // τ = 20 µs: Fig. 3's example; configure per topology
        host_bw_bps: 3_125_000_000, // 25 Gbit/s: §4.1 server NICs
        expected_flows: 10,         // N = 10: spec A7 (the authors' Linux module)
        beta_bytes: 0,              // β = HostBw·τ/N: §3.3
        min_cwnd_bytes: 1_000,      // one 1000-byte packet (the artifacts' payload): spec A6
        max_cwnd_bytes: 0,          // HostBw·τ: spec A6
        smooth_init_q16: 0,         // spec A3
        target_q16: 65_536,         // η = 1.0: Eq. 7 (e = b²τ), spec A8
        lambda_floor_q16: 32_768,   // λ ≥ 0.5·b: spec §1.8 (ART-NS3 HEAD)
        kept_from_ref: 0,           // (1 − γ)·cwnd: Alg. 1 line 31
    };
}

impl Default for Config {
    fn default() -> Self {
        Config::DEFAULT
    }
}

/// Validated parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    cfg: Config,
    one_minus_gamma_q16: u64,
    gamma_beta_q16: u64,
    beta_q16: u64,
    bounds: CwndBounds,
}

impl Params {
    /// Range-check `c` and derive the constants.
    pub fn new(c: &Config) -> Result<Params, ParamError> {
        ParamError::check("gamma_q16", c.gamma_q16, 1, Q16_ONE)?;
        // HostBw·τ in Q16 bytes, ≤ 2^47.
        let bdp_q16 = check_link(c.base_rtt_ns, c.host_bw_bps)?;
        ParamError::check("expected_flows", c.expected_flows, 1, EXPECTED_FLOWS_MAX)?;
        ParamError::check("beta_bytes", c.beta_bytes, 0, MAX_CWND_BYTES)?;
        check_cwnd_bytes(c.min_cwnd_bytes, c.max_cwnd_bytes)?;
        if c.smooth_init_q16 != 0 {
            ParamError::check(
                "smooth_init_q16",
                c.smooth_init_q16,
                POWER_MIN_Q16,
                POWER_MAX_Q16,
            )?;
        }
        ParamError::check("target_q16", c.target_q16, Q16_ONE / 2, Q16_ONE)?;
        ParamError::check("lambda_floor_q16", c.lambda_floor_q16, 0, Q16_ONE)?;
        ParamError::check("kept_from_ref", c.kept_from_ref, 0, 1)?;
        let beta_q16 = if c.beta_bytes == 0 {
            bdp_q16.checked_div(c.expected_flows).unwrap_or(0)
        } else {
            c.beta_bytes << 16
        };
        if beta_q16 == 0 {
            return Err(ParamError {
                field: "expected_flows",
                value: c.expected_flows,
                min: 1,
                max: bdp_q16,
            });
        }
        let bounds = CwndBounds::new(c.min_cwnd_bytes, c.max_cwnd_bytes, bdp_q16)?;
        Ok(Params {
            cfg: *c,
            one_minus_gamma_q16: Q16_ONE.saturating_sub(c.gamma_q16),
            gamma_beta_q16: mul_q16(beta_q16, c.gamma_q16),
            beta_q16,
            bounds,
        })
    }
    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.cfg
    }
    /// β, bytes Q16.
    pub fn beta_q16(&self) -> u64 {
        self.beta_q16
    }
    /// Initial window HostBw·τ, bytes Q16.
    pub fn init_cwnd_q16(&self) -> u64 {
        self.bounds.init_q16
    }
}

const F_SMOOTH: u32 = 1 << 2;

/// Per-flow state (112 bytes: the previous INT stack makes it larger than the kernel budget).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct State {
    /// Window, bytes Q16.
    pub cwnd_q16: u64,
    /// `W_ref`: the window `getCwnd` returns (Alg. 1 line 3), bytes Q16.
    pub wref_q16: u64,
    /// Γ_smooth, Q16, valid with the smoothed flag.
    pub power_smooth_q16: u64,
    /// prevInt (Alg. 1 line 10).
    pub prev: IntStack,
    /// `updateOld` marker: `snd_nxt` when `W_ref` was last set.
    pub marker_seq: u32,
    /// Flag bits.
    pub flags: u32,
}

/// INT PowerTCP as an [`IntController`].
pub struct PowerTcpInt;

fn fresh(p: &Params) -> State {
    State {
        cwnd_q16: p.bounds.init_q16,
        wref_q16: p.bounds.init_q16,
        flags: F_INIT,
        ..State::default()
    }
}

fn decision(p: &Params, s: &State, reason: Reason) -> Decision {
    if s.flags & F_INIT == 0 {
        return Decision {
            reason,
            ..Decision::default()
        };
    }
    let signal = if s.flags & F_SMOOTH != 0 {
        i64::try_from(s.power_smooth_q16).unwrap_or(i64::MAX)
    } else {
        0
    };
    // rate = cwnd / τ (Alg. 1 line 9).
    p.bounds
        .decision(s.cwnd_q16, p.cfg.base_rtt_ns, signal, reason)
}

/// `normPower` (Alg. 1 lines 13-26): the largest per-hop normalised power over the path and
/// the interval of that hop, or `None` when no hop has a positive interval. Γ_j is computed in
/// the dimensionless form `(λ/b) · (1 + q/(bτ))` (spec §1.4, §5.3: b² would overflow), with
/// λ = max(q̇ + μ, 0) (spec A5). Divided by η (spec A8) and clamped to
/// [`POWER_MIN_Q16`, `POWER_MAX_Q16`].
pub fn norm_power_q16(p: &Params, int: &IntStack, prev: &IntStack) -> Option<(u64, u64)> {
    let tau = p.cfg.base_rtt_ns;
    let mut best: Option<(u64, u64)> = None;
    for (h, o) in int.hops().iter().zip(prev.hops().iter()) {
        let dt = h.ts_delta_ns(o); // Alg. 1 line 14
        if dt == 0 {
            continue; // no time passed at this hop: no rate
        }
        let b = h.rate_bps();
        // λ·dt = Δqlen + ΔtxBytes (Alg. 1 lines 15-17), floored at 0 (spec A5).
        let tx = h.tx_delta_bytes(o);
        let arrived = tx
            .saturating_add(h.qlen_bytes())
            .saturating_sub(o.qlen_bytes());
        let lambda_q16 = rate_frac_q16(arrived, dt, b).max(p.cfg.lambda_floor_q16);
        // ν/(bτ) = 1 + q/(bτ) (Alg. 1 lines 18-19).
        let volt_q16 = Q16_ONE.saturating_add(bdp_frac_q16(h.qlen_bytes(), b, tau));
        // Γ' / e = λν / (b²τ) (Alg. 1 lines 20-22), normalised before comparing (A1).
        let g = mul_div(lambda_q16, volt_q16, Q16_ONE);
        let g = mul_div(g, Q16_ONE, p.cfg.target_q16); // ÷ η (A8), η ≥ 0.5
        let g = clamp(g, POWER_MIN_Q16, POWER_MAX_Q16);
        // Alg. 1 lines 23-25: keep the maximum and its interval.
        if best.map_or(true, |(bg, _)| g > bg) {
            best = Some((g, dt));
        }
    }
    best
}

/// Time-weighted smoothing (Alg. 1 line 27), Δt clamped to τ (spec A2). Both powers ≤ 2^32,
/// τ ≤ 2^30: each product ≤ 2^62.
pub fn smooth_q16(p: &Params, old_q16: u64, norm_q16: u64, dt_ns: u64) -> u64 {
    let tau = p.cfg.base_rtt_ns;
    let d = dt_ns.min(tau);
    let old = clamp(old_q16, POWER_MIN_Q16, POWER_MAX_Q16);
    let sum = old
        .saturating_mul(tau.saturating_sub(d))
        .saturating_add(norm_q16.saturating_mul(d));
    clamp(
        sum.checked_div(tau).unwrap_or(POWER_MAX_Q16),
        POWER_MIN_Q16,
        POWER_MAX_Q16,
    )
}

/// `updateWindow` (Alg. 1 line 31): `γ · (cwnd_old / Γ + β) + (1 − γ) · cwnd`, each term
/// rounded down, clamped; with `kept_from_ref` the last term is `(1 − γ) · cwnd_old` (the
/// authors' ns-3 code). cwnd ≤ 2^47, γ ≤ 2^16: `cwnd_old · γ` < 2^63; Γ ≥ 655.
pub fn window_update(p: &Params, cwnd_old_q16: u64, cwnd_q16: u64, power_q16: u64) -> u64 {
    let old = p.bounds.clamp(cwnd_old_q16);
    let cur = if p.cfg.kept_from_ref != 0 {
        old
    } else {
        p.bounds.clamp(cwnd_q16)
    };
    let power = clamp(power_q16, POWER_MIN_Q16, POWER_MAX_Q16);
    let scaled = mul_div(old, p.cfg.gamma_q16, power);
    let kept = mul_q16(cur, p.one_minus_gamma_q16);
    p.bounds
        .clamp(scaled.saturating_add(p.gamma_beta_q16).saturating_add(kept))
}

impl IntController for PowerTcpInt {
    type Params = Params;
    type State = State;

    fn init(p: &Params, s: &mut State, _now_ns: u64, _mss_bytes: u32) -> Decision {
        *s = fresh(p);
        decision(p, s, Reason::Init)
    }

    fn on_ack(p: &Params, s: &mut State, ev: &AckEvent, int: &IntStack) -> Decision {
        if s.flags & F_INIT == 0 {
            *s = fresh(p);
        }
        // No stack, first ACK or path change (spec §1.6): store the stack, start the marker.
        let (flags, prev, marker) = (&mut s.flags, &mut s.prev, &mut s.marker_seq);
        if let Some(reason) = take_history(flags, prev, marker, int, ev.snd_nxt) {
            return decision(p, s, reason);
        }
        // Alg. 1 line 3: cwnd_old = getCwnd(ack.seq).
        let cwnd_old = s.wref_q16;
        let Some((norm, dt)) = norm_power_q16(p, int, &s.prev) else {
            return decision(p, s, Reason::Hold); // same timestamps: nothing measured
        };
        // Alg. 1 line 27 (first sample unsmoothed or smoothed into the configured start, A3).
        s.power_smooth_q16 = if s.flags & F_SMOOTH != 0 {
            smooth_q16(p, s.power_smooth_q16, norm, dt)
        } else if p.cfg.smooth_init_q16 != 0 {
            smooth_q16(p, p.cfg.smooth_init_q16, norm, dt)
        } else {
            norm
        };
        s.flags |= F_SMOOTH;
        // Alg. 1 line 31.
        s.cwnd_q16 = window_update(p, cwnd_old, s.cwnd_q16, s.power_smooth_q16);
        // Alg. 1 lines 10-11: prevInt = H; updateOld(cwnd, ack.seq).
        s.prev = *int;
        if seq_after_eq(ev.snd_una, s.marker_seq) {
            s.wref_q16 = s.cwnd_q16;
            s.marker_seq = ev.snd_nxt;
        }
        decision(p, s, Reason::GradientUpdate)
    }

    fn on_loss(p: &Params, s: &mut State, ev: &LossEvent) -> Decision {
        if s.flags & F_INIT == 0 {
            return decision(p, s, Reason::Hold);
        }
        // Paper silent (lossless fabric); spec A11: no cut, INT history and smoothing reset
        // on a timeout.
        match ev.kind {
            LossKind::FastRecovery => decision(p, s, Reason::FastRecovery),
            LossKind::RetransmitTimeout => {
                s.flags &= !(F_PREV | F_SMOOTH);
                s.prev = IntStack::EMPTY;
                s.power_smooth_q16 = 0;
                decision(p, s, Reason::RetransmitTimeout)
            }
        }
    }

    fn current(p: &Params, s: &State, _mss_bytes: u32) -> Decision {
        decision(p, s, Reason::Hold)
    }
}
