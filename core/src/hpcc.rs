// SPDX-License-Identifier: GPL-2.0-only
//! HPCC, and HPCC with Snyder & Lebeck's Variable Additive Increase (VAI) and Sampling
//! Frequency (SF), in integer arithmetic.
//!
//! Sources: Y. Li et al., "HPCC: High Precision Congestion Control", SIGCOMM 2019, Algorithm 1
//! (as restated in the project specification `shared/specs/powertcp-vaisf.md` §3.1, checked
//! against the HPCC ns-3 artifact there); J. Snyder, A. R. Lebeck, "Fast Convergence to
//! Fairness for Reduced Long Flow Tail Latency in Datacenter Networks" (SL), Alg. 1 (tokens and
//! dampener), Alg. 2 (additive increase), §IV-B and §V (SF and the HPCC instantiation), as the
//! spec §4.2-§4.4 reconstructs them. Choices are listed in `Documentation/algorithms/hpcc.md`.
//!
//! ```text
//! per hop i: u'_i = min(qlen_i, qlen_i^prev) / (B_i T) + txRate_i / B_i   HPCC Alg. 1 line 4
//! u = max_i u'_i, τ = Δts of that hop, τ = min(τ, T)                       lines 5-7
//! U = (1 − τ/T) U + (τ/T) u                                                line 8
//! if U ≥ η or incStage ≥ maxStage: W = W_c / (U/η) + W_AI                  lines 11-13
//! else:                            W = W_c + W_AI                          lines 15-17
//! commit W_c = W once per RTT (ack.seq > lastUpdateSeq)                    lines 20-24
//! ```
//!
//! With VAI, `W_AI` is `tokens · W_AI` (SL Alg. 2) and tokens are minted once per RTT from the
//! largest queue seen (SL Alg. 1, HPCC instantiation §V-A). With SF (`sf_acks > 0`), a decrease
//! (U ≥ η) is committed to `W_c` every `sf_acks` ACKs instead of once per RTT; increases stay
//! once per RTT (SL §IV-B). Plain HPCC is `vai = 0, sf_acks = 0`.
//!
//! Units: windows bytes Q16, U and η Q16, times ns, rates bytes/s.

use super::event::{AckEvent, Decision, LossEvent, ParamError, Reason};
use super::fixed::{div_or_max, mul_div, mul_q16, seq_after, NS_PER_S, Q16_ONE, Q16_SHIFT};
use super::int::{
    bdp_frac_q16, check_cwnd_bytes, check_link, rate_frac_q16, take_history, CwndBounds,
    IntController, IntStack, F_INIT, F_PREV,
};

/// Largest U, Q16 (65536.0): larger hostile values change nothing (W is at its minimum).
pub const U_MAX_Q16: u64 = 1 << 32;
/// Smallest U used as a divisor, Q16 (0.01): bounds the multiplicative increase to 100x (then
/// the maximum window).
pub const U_MIN_Q16: u64 = 655;
/// Largest dampener, Q16 (keeps it in a `u32`).
pub const DAMPENER_MAX_Q16: u64 = u32::MAX as u64;

/// Raw configuration (scenario keys). Validate with [`Params::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// T, base RTT, ns: [`BASE_RTT_MIN_NS`, `BASE_RTT_MAX_NS`].
    pub base_rtt_ns: u64,
    /// Host NIC rate, bytes/s: [`HOST_BW_MIN_BPS`, `MAX_RATE_BPS`], with HostBw·T ≤
    /// [`MAX_CWND_BYTES`](super::powertcp::MAX_CWND_BYTES). W_init = HostBw·T (line rate start).
    pub host_bw_bps: u64,
    /// η, target utilisation, Q16: [32768, 65536].
    pub eta_q16: u64,
    /// maxStage: [0, 255].
    pub max_stage: u64,
    /// Additive increase as a rate, bytes/s (W_AI = R_AI·T): [1, HostBw].
    pub ai_bps: u64,
    /// Smallest window, bytes: [1, `MAX_CWND_BYTES`].
    pub min_cwnd_bytes: u64,
    /// Largest window, bytes: 0 = HostBw·T, otherwise [min, `MAX_CWND_BYTES`].
    pub max_cwnd_bytes: u64,
    /// VAI on (1) or off (0).
    pub vai: u64,
    /// SF: commit decreases every this many ACKs: 0 = off (once per RTT), [1, 65535].
    pub sf_acks: u64,
    /// VAI Token_Thresh, bytes of queue: [1, 2^32].
    pub token_thresh_bytes: u64,
    /// VAI AI_DIV, bytes of queue per token: [1, 2^32].
    pub ai_div_bytes: u64,
    /// VAI Bank_Cap, tokens: [1, 65535].
    pub bank_cap: u64,
    /// VAI AI_Cap, tokens per update: [1, 65535].
    pub ai_cap: u64,
    /// VAI Dampener_Constant: [1, 65535].
    pub dampener_constant: u64,
}

impl Config {
    /// Plain HPCC as SL's "default HPCC" (§III-D): AI 50 Mb/s, η 0.95, maxStage 5.
    pub const DEFAULT: Config = Config {
        base_rtt_ns: 8_000, // the 16:1 micro-benchmark's base RTT (SL §III-D set-up)
        host_bw_bps: 12_500_000_000, // 100 Gbit/s (SL §III-D)
        eta_q16: 62_259,    // η = 0.95 (HPCC §3.3; SL §III-D); 0.95·65536 floored
        max_stage: 5,       // HPCC §3.3; SL §III-D
        ai_bps: 6_250_000,  // 50 Mbit/s (SL §III-D, ART-HPCC)
        min_cwnd_bytes: 1_000, // one 1000-byte packet (artifact MIN_RATE analogue)
        max_cwnd_bytes: 0,  // HostBw·T (artifact: rate capped at line rate)
        vai: 0,
        sf_acks: 0,
        token_thresh_bytes: 50_000, // SL §V-A: min BDP ≈ 50 KB
        ai_div_bytes: 1_000,        // SL §VI-A: 1 KByte per token (spec A19: 1000 B)
        bank_cap: 1_000,            // SL §VI-A
        ai_cap: 100,                // SL §VI-A
        dampener_constant: 8,       // SL §VI-A
    };
    /// HPCC with VAI and SF as SL §VI-A sets them (s = 30 ACKs).
    pub const VAISF: Config = Config {
        vai: 1,
        sf_acks: 30,
        ..Config::DEFAULT
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
    w_ai_q16: u64,
    bounds: CwndBounds,
}

impl Params {
    /// Range-check `c` and derive W_AI and the window bounds.
    pub fn new(c: &Config) -> Result<Params, ParamError> {
        // W_init = HostBw·T, Q16 bytes (≤ 2^47: HostBw·T ≤ 2^31 checked).
        let bdp_q16 = check_link(c.base_rtt_ns, c.host_bw_bps)?;
        ParamError::check("eta_q16", c.eta_q16, Q16_ONE / 2, Q16_ONE)?;
        ParamError::check("max_stage", c.max_stage, 0, 255)?;
        ParamError::check("ai_bps", c.ai_bps, 1, c.host_bw_bps)?;
        check_cwnd_bytes(c.min_cwnd_bytes, c.max_cwnd_bytes)?;
        ParamError::check("vai", c.vai, 0, 1)?;
        ParamError::check("sf_acks", c.sf_acks, 0, 65_535)?;
        ParamError::check("token_thresh_bytes", c.token_thresh_bytes, 1, 1 << 32)?;
        ParamError::check("ai_div_bytes", c.ai_div_bytes, 1, 1 << 32)?;
        ParamError::check("bank_cap", c.bank_cap, 1, 65_535)?;
        ParamError::check("ai_cap", c.ai_cap, 1, 65_535)?;
        ParamError::check("dampener_constant", c.dampener_constant, 1, 65_535)?;
        // W_AI = R_AI·T, Q16 bytes (R_AI ≤ HostBw: ≤ 2^47).
        let w_ai_q16 = mul_div(c.ai_bps, c.base_rtt_ns << Q16_SHIFT, NS_PER_S);
        if w_ai_q16 == 0 {
            return Err(ParamError {
                field: "ai_bps",
                value: c.ai_bps,
                min: div_or_max(NS_PER_S, c.base_rtt_ns << Q16_SHIFT).saturating_add(1),
                max: c.host_bw_bps,
            });
        }
        Ok(Params {
            cfg: *c,
            w_ai_q16,
            bounds: CwndBounds::new(c.min_cwnd_bytes, c.max_cwnd_bytes, bdp_q16)?,
        })
    }
    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.cfg
    }
    /// W_AI, bytes Q16.
    pub fn w_ai_q16(&self) -> u64 {
        self.w_ai_q16
    }
    /// W_init = HostBw·T, bytes Q16.
    pub fn init_cwnd_q16(&self) -> u64 {
        self.bounds.init_q16
    }
}

const F_CONGESTED: u32 = 1 << 2;

/// Per-flow state.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct State {
    /// Window in use, bytes Q16.
    pub cwnd_q16: u64,
    /// W_c, the reference window, bytes Q16.
    pub wc_q16: u64,
    /// U, Q16.
    pub u_q16: u64,
    /// VAI "Measured Congestion": largest queue seen in this RTT, bytes.
    pub max_qlen_bytes: u64,
    /// L: the previous INT stack.
    pub prev: IntStack,
    /// lastUpdateSeq.
    pub last_update_seq: u32,
    /// Flag bits.
    pub flags: u32,
    /// VAI dampener, Q16.
    pub dampener_q16: u32,
    /// VAI AI_Bank, tokens.
    pub ai_bank: u16,
    /// ACKs since the last committed decrease (SF), saturating.
    pub acks_since_dec: u16,
    /// incStage.
    pub inc_stage: u8,
}

/// HPCC (+VAI/SF) as an [`IntController`].
pub struct Hpcc;

fn fresh(p: &Params) -> State {
    State {
        cwnd_q16: p.bounds.init_q16,
        wc_q16: p.bounds.init_q16,
        u_q16: Q16_ONE, // spec §4.4.1: U = 1 at start (ART-HPCC)
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
    let signal = i64::try_from(s.u_q16).unwrap_or(i64::MAX);
    // R = W/T (HPCC Alg. 1 line 26).
    p.bounds
        .decision(s.cwnd_q16, p.cfg.base_rtt_ns, signal, reason)
}

/// MeasureInflight's per-ACK sample (HPCC Alg. 1 lines 2-7): the largest
/// `u'_i = min(q_i, q_i^prev)/(B_i T) + txRate_i/B_i` over the hops, and that hop's interval,
/// or `None` if no hop has a positive interval.
pub fn inflight_sample_q16(p: &Params, int: &IntStack, prev: &IntStack) -> Option<(u64, u64)> {
    let mut best: Option<(u64, u64)> = None;
    for (h, o) in int.hops().iter().zip(prev.hops().iter()) {
        let dt = h.ts_delta_ns(o);
        if dt == 0 {
            continue;
        }
        let b = h.rate_bps();
        let q = h.qlen_bytes().min(o.qlen_bytes());
        let u = bdp_frac_q16(q, b, p.cfg.base_rtt_ns).saturating_add(rate_frac_q16(
            h.tx_delta_bytes(o),
            dt,
            b,
        ));
        let u = u.min(U_MAX_Q16);
        if best.map_or(true, |(bu, _)| u > bu) {
            best = Some((u, dt));
        }
    }
    best
}

/// U ← (1 − τ/T)·U + (τ/T)·u with τ = min(τ, T) (HPCC Alg. 1 lines 7-8). U, u ≤ 2^32 and
/// T ≤ 2^30: products ≤ 2^62.
pub fn smooth_u_q16(p: &Params, u_old_q16: u64, u_q16: u64, dt_ns: u64) -> u64 {
    let t = p.cfg.base_rtt_ns;
    let tau = dt_ns.min(t);
    let sum = u_old_q16
        .min(U_MAX_Q16)
        .saturating_mul(t.saturating_sub(tau))
        .saturating_add(u_q16.min(U_MAX_Q16).saturating_mul(tau));
    sum.checked_div(t).unwrap_or(U_MAX_Q16).min(U_MAX_Q16)
}

/// SL Alg. 2: the token multiplier `max(min(AI_Cap, bank) / (dampener/D + 1), 1)`, Q16, and the
/// undampened count a committed update debits. `tokens ≤ 2^16`: `tokens << 16 ≤ 2^32`.
pub fn vai_tokens_q16(p: &Params, bank: u16, dampener_q16: u32) -> (u64, u16) {
    let cap = u16::try_from(p.cfg.ai_cap).unwrap_or(u16::MAX);
    let tokens = bank.min(cap); // Alg. 2 line 2
    let divisor_q16 = div_or_max(u64::from(dampener_q16), p.cfg.dampener_constant) // D ≥ 1
        .saturating_add(Q16_ONE); // Alg. 2 line 6
    let t_q16 = mul_div(u64::from(tokens) << Q16_SHIFT, Q16_ONE, divisor_q16);
    (t_q16.max(Q16_ONE), tokens) // Alg. 2 line 7
}

/// SL Alg. 1 at the end of an RTT (HPCC instantiation, SL §V-A): Measured Congestion is the
/// largest queue seen; "no congestion" is C = U/η < 1 on every ACK of the RTT.
fn end_of_rtt(p: &Params, s: &mut State) {
    let c = &p.cfg;
    let meas = s.max_qlen_bytes;
    let thresh = c.token_thresh_bytes;
    if meas > thresh {
        // Alg. 1 lines 2-3: AI_Bank = min(meas / AI_DIV + AI_Bank, Bank_Cap).
        let bank = u64::from(s.ai_bank).saturating_add(div_or_max(meas, c.ai_div_bytes));
        s.ai_bank = u16::try_from(bank.min(c.bank_cap)).unwrap_or(u16::MAX);
        // Alg. 1 lines 5-6: dampener += meas / Token_Thresh.
        let d = u64::from(s.dampener_q16).saturating_add(mul_div(meas, Q16_ONE, thresh));
        s.dampener_q16 = u32::try_from(d.min(DAMPENER_MAX_Q16)).unwrap_or(u32::MAX);
    } else if s.ai_bank == 0 {
        if s.flags & F_CONGESTED == 0 {
            s.dampener_q16 = 0; // Alg. 1 lines 8-9
        } else if meas < thresh {
            s.dampener_q16 = s.dampener_q16.saturating_sub(1 << Q16_SHIFT); // lines 10-11
        }
    }
    s.max_qlen_bytes = 0; // Alg. 1 line 14
    s.flags &= !F_CONGESTED;
}

impl IntController for Hpcc {
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
        // No stack, first ACK (ART-HPCC: store L, start the per-RTT marker) or path change.
        let (flags, prev, marker) = (&mut s.flags, &mut s.prev, &mut s.last_update_seq);
        if let Some(reason) = take_history(flags, prev, marker, int, ev.snd_nxt) {
            return decision(p, s, reason);
        }
        let Some((u, dt)) = inflight_sample_q16(p, int, &s.prev) else {
            return decision(p, s, Reason::Hold);
        };
        s.u_q16 = smooth_u_q16(p, s.u_q16, u, dt); // Alg. 1 line 8
        let c = &p.cfg;
        let decrease = s.u_q16 >= c.eta_q16; // C = U/η ≥ 1 (spec A15)
        let vai = c.vai != 0;
        if vai {
            // SL §V-A trackers: max queue over the RTT, and whether C ≥ 1 was seen.
            let q = int.hops().iter().map(|h| h.qlen_bytes()).max().unwrap_or(0);
            s.max_qlen_bytes = s.max_qlen_bytes.max(q);
            if decrease {
                s.flags |= F_CONGESTED;
            }
        }
        s.acks_since_dec = s.acks_since_dec.saturating_add(1);
        // W_AI, or SL Alg. 2's tokens · W_AI.
        let (ai_q16, spent) = if vai {
            let (t, spent) = vai_tokens_q16(p, s.ai_bank, s.dampener_q16);
            (mul_q16(p.w_ai_q16, t), spent)
        } else {
            (p.w_ai_q16, 0)
        };
        let rtt_done = seq_after(ev.snd_una, s.last_update_seq); // Alg. 1 line 20
        let mi = decrease || u64::from(s.inc_stage) >= c.max_stage;
        let w = if mi {
            // Alg. 1 line 12: W = W_c / (U/η) + W_AI.
            let u_div = s.u_q16.max(U_MIN_Q16);
            mul_div(s.wc_q16, c.eta_q16, u_div).saturating_add(ai_q16)
        } else {
            s.wc_q16.saturating_add(ai_q16) // line 16
        };
        let w = p.bounds.clamp(w);
        let commit = if decrease && c.sf_acks > 0 {
            u64::from(s.acks_since_dec) >= c.sf_acks // SL §IV-B: every s ACKs
        } else {
            rtt_done // once per RTT (HPCC; SL: increases always)
        };
        if commit {
            s.wc_q16 = w;
            if mi {
                s.inc_stage = 0; // line 13
            } else {
                s.inc_stage = s.inc_stage.saturating_add(1); // line 17
            }
            if decrease {
                s.acks_since_dec = 0;
            }
            s.ai_bank = s.ai_bank.saturating_sub(spent); // SL Alg. 2 lines 3-4
        }
        s.cwnd_q16 = w;
        s.prev = *int; // Alg. 1 line 27: L = ack.L
        if rtt_done {
            s.last_update_seq = ev.snd_nxt; // line 22
            if vai {
                end_of_rtt(p, s);
            }
        }
        let reason = if decrease {
            Reason::MultiplicativeDecrease
        } else {
            Reason::AdditiveIncrease
        };
        decision(p, s, reason)
    }

    fn on_loss(p: &Params, s: &mut State, _ev: &LossEvent) -> Decision {
        // Neither HPCC nor SL covers loss (lossless RDMA). Spec §4.4.1 (DESIGN): keep the VAI
        // state; forget the INT history so the next stack starts a fresh difference.
        if s.flags & F_INIT != 0 {
            s.flags &= !F_PREV;
            s.prev = IntStack::EMPTY;
        }
        decision(p, s, Reason::Hold)
    }

    fn current(p: &Params, s: &State, _mss_bytes: u32) -> Decision {
        decision(p, s, Reason::Hold)
    }
}
