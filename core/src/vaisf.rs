// SPDX-License-Identifier: GPL-2.0-only
//! Swift with Variable Additive Increase and Sampling Frequency (Swift VAI SF).
//!
//! J. Snyder, A. R. Lebeck, "Fast Convergence to Fairness for Reduced Long Flow Tail Latency in
//! Datacenter Networks" (Duke University). Paper text:
//! `shared/papers/snyder-lebeck-fast-convergence-vai-sf.txt` ("SL" below); implementation
//! spec: `shared/specs/powertcp-vaisf.md` §3.2, §4.
//!
//! SL's modified Swift (§V-B; assembled per-ACK procedure in spec §4.4), on each ACK with
//! fabric delay `d`:
//!
//! ```text
//! t = base_target + hops * h                       (Swift §3.5 topology scaling; no FBS, SL §VI-B)
//! per RTT: max_delay = max(max_delay, d); congested |= d > t; acks_since_dec += 1
//! AI = VAI(bank, dampener) * base_AI               (SL Alg. 2, no debit)
//! d >= t: W = W_ref * max(1 - beta (d - t)/d, 1 - max_mdf) + AI     (SL Eq. 1, always-AI §V-B)
//!         every s ACKs: commit W_ref = W, acks_since_dec = 0, debit the bank  (SF, §IV-B)
//! d <  t: W = W_ref + AI                          (reference window, §V-B)
//! RTT end (snd_una passes the marker): commit W_ref = W if increasing, debit the bank;
//!         SL Alg. 1 (mint tokens, update the dampener) with Token_Thresh = t + 4 µs
//! cwnd = clamp(W); paced below one packet (Swift §3.4)
//! ```
//!
//! Loss reactions are Swift's (Alg. 1 lines 15-25) with Swift's once-per-RTT time guard; SL
//! does not cover loss. Every choice is listed in `Documentation/algorithms/swift_vaisf.md`,
//! "Deviations from the paper".
//!
//! Uses `super::swift`, `super::fixed` and `super::event` only.

use super::event::{
    AckEvent, Controller, Decision, LossEvent, LossKind, ParamError, Reason, ACK_APP_LIMITED,
    ACK_DELAYED, ACK_IN_RECOVERY,
};
use super::fixed::{
    clamp, div_or_max, mul_div, mul_q16, seq_after, seq_after_eq, MAX_RATE_BPS, NS_PER_S,
    NS_PER_US, PKT_Q20_SHIFT, Q16_ONE, Q16_SHIFT,
};
use super::swift::{
    acked_pkts_q20, can_decrease, check_shared, clamp_rtt_ns, md_factor_q16, pacing_rate_bps,
    resolve_mss, window_bytes_q16, SharedFields,
};

/// How the VAI token count is derived from the RTT's largest delay (SL Alg. 1 line 2; the
/// prose sentence is incomplete, spec §4.2.3).
pub mod token_numerator {
    /// `(max_delay - t) / AI_DIV`: tokens per AI_DIV of *queueing* delay above the target
    /// (SL §VI-A "an AI token for every 30ns of queueing delay"). Recommended reading.
    pub const QUEUEING: u64 = 0;
    /// `max_delay / AI_DIV`, the listing of Alg. 1 line 2 as printed.
    pub const LITERAL: u64 = 1;
    /// `(max_delay - Token_Thresh) / AI_DIV`, the "difference" of the prose taken against the
    /// threshold.
    pub const ABOVE_THRESHOLD: u64 = 2;
}

/// Raw Swift VAI SF parameters. Validate with [`Params::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// `base_AI` as a rate, bytes/s (SL §III-D: 50 Mb/s). Converted per ACK to a window
    /// increment `base_AI * t / mss` packets, with `t` the current target delay. Range
    /// [1, `MAX_RATE_BPS`].
    pub base_ai_bps: u64,
    /// Swift's MD constant `beta`, Q16 (SL Eq. 1). Range (0, 1.0].
    pub beta_q16: u64,
    /// Swift's `max_mdf`, Q16 (SL Eq. 1, floor read as `1 - max_mdf`). Range (0, 1.0).
    pub max_mdf_q16: u64,
    /// Window floor, packets Q20 (Swift §3.4). Range [1, max_cwnd].
    pub min_cwnd_pkts_q20: u64,
    /// Window ceiling, packets Q20. Range [1 packet, `MAX_CWND_PKTS`].
    pub max_cwnd_pkts_q20: u64,
    /// Initial window (and reference window), packets Q20. SL starts flows at line rate: set
    /// this to the path BDP for that. Range [min_cwnd, max_cwnd].
    pub init_cwnd_pkts_q20: u64,
    /// Swift's `RETX_RESET_THRESHOLD` (Alg. 1 line 17). Range [1, 255].
    pub retx_reset_threshold: u64,
    /// Base target delay, ns (SL §III-D "base RTT" of 5 µs). Range [1 µs, 10 ms].
    pub base_target_ns: u64,
    /// Target added per hop, ns (SL §III-D: 2 µs). Range [0, 1 ms].
    pub per_hop_ns: u64,
    /// Hop count used until an ACK echoes one. Range [0, 255].
    pub default_hops: u64,
    /// Sampling Frequency `s`: decreases are committed to the reference window every `s`
    /// ACKs (SL §VI-A: 30). 0 commits decreases at the RTT boundary instead (SF off, the
    /// HPCC-style once-per-RTT reference update), for ablation. Range [0, 65535].
    pub sf_acks: u64,
    /// 0: `s` counts ACK events (SL); 1: `s` counts acknowledged segments (robust to Linux ACK
    /// coalescing, spec §5.4). Range [0, 1].
    pub sf_count_segments: u64,
    /// Token_Thresh above the target, ns (SL §VI-A: 4 µs, the delay of a 50 KB queue at
    /// 100 Gb/s). Range [0, 10 ms].
    pub token_thresh_extra_ns: u64,
    /// AI_DIV: queueing delay per minted token, ns (SL §VI-A: 30 ns). Range [1, 1 ms].
    pub ai_div_ns: u64,
    /// Bank_Cap: most tokens the bank holds (SL §VI-A: 1000). 0 disables VAI (AI = base_AI).
    /// Range [0, 65535].
    pub bank_cap: u64,
    /// AI_Cap: most tokens spent per rate update (SL §VI-A: 100). Range [0, 65535].
    pub ai_cap: u64,
    /// Dampener_Constant (SL §VI-A: 8). Range [1, 65535].
    pub dampener_constant: u64,
    /// Token formula, one of [`token_numerator`]. Range [0, 2].
    pub token_numerator: u64,
}

impl Config {
    /// Defaults. Sources: \[SL\] Snyder & Lebeck §III-D/§VI-A, \[P\] Swift paper, \[G\] isekai
    /// Swift (via spec), \[I\] this project's choice.
    pub const DEFAULT: Config = Config {
        base_ai_bps: 6_250_000,                     // 50 Mb/s [SL §III-D]
        beta_q16: 52_429,                           // 0.8 [SL §III-D]
        max_mdf_q16: 32_768,                        // 0.5 [SL §III-D]
        min_cwnd_pkts_q20: 1_049,                   // 0.001 packet [P §3.4]
        max_cwnd_pkts_q20: 256 << PKT_Q20_SHIFT,    // 256 packets [G]
        init_cwnd_pkts_q20: 10 << PKT_Q20_SHIFT,    // Linux initial window [I]; SL: line rate
        retx_reset_threshold: 3,                    // [G]
        base_target_ns: 5 * NS_PER_US,              // 5 µs [SL §III-D]
        per_hop_ns: 2 * NS_PER_US,                  // 2 µs per hop [SL §III-D]
        default_hops: 0,                            // [I]
        sf_acks: 30,                                // [SL §VI-A]
        sf_count_segments: 0,                       // ACK events [SL §IV-B]
        token_thresh_extra_ns: 4 * NS_PER_US,       // 4 µs [SL §VI-A]
        ai_div_ns: 30,                              // 30 ns per token [SL §VI-A]
        bank_cap: 1_000,                            // [SL §VI-A]
        ai_cap: 100,                                // [SL §VI-A]
        dampener_constant: 8,                       // [SL §VI-A]
        token_numerator: token_numerator::QUEUEING, // spec §4.2.3 recommended reading
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
    /// `1 - max_mdf`, Q16 (Swift Alg. 1 lines 21, 25).
    loss_factor_q16: u64,
}

impl Params {
    /// Check every field of `c`.
    pub fn new(c: &Config) -> Result<Params, ParamError> {
        ParamError::check("base_ai_bps", c.base_ai_bps, 1, MAX_RATE_BPS)?;
        check_shared(&SharedFields {
            beta_q16: c.beta_q16,
            max_mdf_q16: c.max_mdf_q16,
            min_cwnd_pkts_q20: c.min_cwnd_pkts_q20,
            max_cwnd_pkts_q20: c.max_cwnd_pkts_q20,
            init_cwnd_pkts_q20: c.init_cwnd_pkts_q20,
            retx_reset_threshold: c.retx_reset_threshold,
            base_target_ns: c.base_target_ns,
            per_hop_ns: c.per_hop_ns,
            default_hops: c.default_hops,
        })?;
        ParamError::check("sf_acks", c.sf_acks, 0, u16::MAX as u64)?;
        ParamError::check("sf_count_segments", c.sf_count_segments, 0, 1)?;
        ParamError::check(
            "token_thresh_extra_ns",
            c.token_thresh_extra_ns,
            0,
            10_000 * NS_PER_US,
        )?;
        ParamError::check("ai_div_ns", c.ai_div_ns, 1, 1_000 * NS_PER_US)?;
        ParamError::check("bank_cap", c.bank_cap, 0, u16::MAX as u64)?;
        ParamError::check("ai_cap", c.ai_cap, 0, u16::MAX as u64)?;
        ParamError::check("dampener_constant", c.dampener_constant, 1, u16::MAX as u64)?;
        ParamError::check("token_numerator", c.token_numerator, 0, 2)?;
        Ok(Params {
            cfg: *c,
            loss_factor_q16: Q16_ONE.saturating_sub(c.max_mdf_q16),
        })
    }

    /// The validated configuration.
    pub fn config(&self) -> &Config {
        &self.cfg
    }
}

/// Target delay, ns: `base_target + hops * h` (Swift §3.5 topology scaling; SL's variant does
/// not use flow-based scaling, SL §VI-B). At most 10 ms + 255 ms.
pub fn target_delay_ns(p: &Params, hops: u8) -> u64 {
    p.cfg
        .base_target_ns
        .saturating_add(p.cfg.per_hop_ns.saturating_mul(hops as u64))
}

/// `base_AI` as a window increment for one RTT, packets Q20: `base_ai_bps * t / mss`
/// (SL gives AI as a rate, 50 Mb/s; one RTT of it at the target delay `t`).
/// `t << 20 <= 2^49`, `NS_PER_S * mss <= 2^46`; `mul_div` takes the wide product.
pub fn base_ai_pkts_q20(p: &Params, target_ns: u64, mss_bytes: u32) -> u64 {
    mul_div(
        p.cfg.base_ai_bps,
        target_ns << PKT_Q20_SHIFT,
        NS_PER_S.saturating_mul(mss_bytes as u64),
    )
}

/// Largest dampener value, Q16 (65535.99): keeps the dampener in a `u32`. At that value the
/// divisor of Alg. 2 is above 8000 and VAI spends one token, so the cap changes nothing.
pub const DAMPENER_MAX_Q16: u64 = u32::MAX as u64;

/// VAI token multiplier of SL Alg. 2, Q16: `max(min(AI_Cap, bank) / (dampener / D + 1), 1)`,
/// and the undampened token count that a committed update debits (Alg. 2 lines 2-4).
///
/// `tokens << 16 <= 2^32`; the quotient by a divisor >= 1.0 stays below 2^32.
pub fn vai_tokens_q16(p: &Params, bank: u16, dampener_q16: u32) -> (u64, u16) {
    let tokens = if (bank as u64) < p.cfg.ai_cap {
        bank
    } else {
        p.cfg.ai_cap as u16 // validated <= u16::MAX
    }; // Alg. 2 line 2
    let divisor_q16 = div_or_max(dampener_q16 as u64, p.cfg.dampener_constant) // D >= 1
        .saturating_add(Q16_ONE); // Alg. 2 line 6
    let t_q16 = mul_div((tokens as u64) << Q16_SHIFT, Q16_ONE, divisor_q16);
    let t_q16 = if t_q16 < Q16_ONE { Q16_ONE } else { t_q16 }; // Alg. 2 line 7
    (t_q16, tokens)
}

/// `State::flags`: initialised.
pub const F_INIT: u8 = 1 << 0;
/// `State::flags`: the per-RTT marker is set.
pub const F_MARKER: u8 = 1 << 1;
/// `State::flags`: a delay above the target in this RTT (SL §V-A).
pub const F_CONGESTED: u8 = 1 << 2;
/// `State::flags`: a loss episode's undo window is armed.
pub const F_UNDO_ARMED: u8 = 1 << 3;

/// Per-flow Swift VAI SF state (72 bytes). All-zero is "not initialised".
///
/// `#[repr(C)]` because the steady-decrease lease's C fast path (issue #13; `vaisf_lease.rs`,
/// modules/glue/rdcc_lease_vaisf.h) steps it in place: the layout is `struct rdcc_vaisf_state`
/// in modules/glue/rdcc_abi.h (core/tests/abi_offsets.rs checks it through [`STATE_ABI`]).
#[repr(C)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct State {
    /// Window in use (`W` of the last ACK), packets Q20.
    cwnd_q20: u64,
    /// Reference window `W_ref`, packets Q20 (SL §V-B).
    wref_q20: u64,
    /// Latest RTT sample, ns (0 = none yet).
    rtt_ns: u64,
    /// Time of the last committed decrease or loss reduction, ns.
    t_last_decrease_ns: u64,
    /// Largest fabric delay in this RTT, ns (SL "Measured Congestion").
    max_delay_ns: u64,
    /// Window before the first loss reaction of the open loss episode, packets Q20.
    undo_cwnd_q20: u64,
    /// VAI dampener, Q16, at most [`DAMPENER_MAX_Q16`].
    dampener_q16: u32,
    /// Per-RTT marker: `snd_nxt` when the round started.
    rtt_marker: u32,
    /// Last valid MSS, bytes.
    mss_bytes: u32,
    /// VAI AI_Bank, tokens, at most `bank_cap`.
    ai_bank: u16,
    /// ACKs (or segments) since the last committed decrease, saturating.
    acks_since_dec: u16,
    /// Consecutive RTOs, saturating.
    retransmit_cnt: u8,
    /// Hop count in use.
    hops: u8,
    /// `F_*` bits.
    flags: u8,
}

// The kernel's get_info reads this state without the socket lock: its copy may mix versions or
// hold another algorithm's bytes, so every field is an integer (event::AnyBitPattern, which the
// glue requires of every module's law).
super::event::any_bit_pattern!(State {
    cwnd_q20,
    wref_q20,
    rtt_ns,
    t_last_decrease_ns,
    max_delay_ns,
    undo_cwnd_q20,
    dampener_q16,
    rtt_marker,
    mss_bytes,
    ai_bank,
    acks_since_dec,
    retransmit_cnt,
    hops,
    flags,
});

const _: () = assert!(core::mem::size_of::<State>() <= super::event::CORE_STATE_BUDGET);

impl State {
    /// Initialised (by `init` or lazily)?
    pub fn initialised(&self) -> bool {
        self.flags & F_INIT != 0
    }
    /// Window in use, packets Q20.
    pub fn cwnd_pkts_q20(&self) -> u64 {
        self.cwnd_q20
    }
    /// Reference window, packets Q20.
    pub fn wref_pkts_q20(&self) -> u64 {
        self.wref_q20
    }
    /// VAI bank, tokens.
    pub fn ai_bank(&self) -> u16 {
        self.ai_bank
    }
    /// VAI dampener, Q16.
    pub fn dampener_q16(&self) -> u32 {
        self.dampener_q16
    }
    /// ACKs (or segments) since the last committed decrease.
    pub fn acks_since_decrease(&self) -> u16 {
        self.acks_since_dec
    }
    /// Largest fabric delay seen in the current RTT, ns.
    pub fn max_delay_ns(&self) -> u64 {
        self.max_delay_ns
    }
    /// Latest RTT sample, ns.
    pub fn rtt_ns(&self) -> u64 {
        self.rtt_ns
    }
    /// Last valid MSS, bytes.
    pub fn mss_bytes(&self) -> u32 {
        self.mss_bytes
    }
    /// Consecutive retransmit timeouts.
    pub fn retransmit_cnt(&self) -> u8 {
        self.retransmit_cnt
    }
}

/// The Swift VAI SF controller.
#[derive(Clone, Copy, Debug, Default)]
pub struct SwiftVaiSf;

fn init_state(p: &Params, s: &mut State, now_ns: u64, mss_bytes: u32) {
    let c = &p.cfg;
    *s = State {
        cwnd_q20: c.init_cwnd_pkts_q20,
        wref_q20: c.init_cwnd_pkts_q20,
        t_last_decrease_ns: now_ns,
        mss_bytes: resolve_mss(mss_bytes, 0),
        hops: c.default_hops as u8, // validated <= 255
        flags: F_INIT,
        ..State::default() // bank and dampener start at 0 (SL §V-A: a new flow's dampener)
    };
}

fn ensure_init(p: &Params, s: &mut State, now_ns: u64, mss_bytes: u32) {
    if !s.initialised() {
        init_state(p, s, now_ns, mss_bytes);
    }
}

fn clamp_window(p: &Params, w_q20: u64) -> u64 {
    clamp(w_q20, p.cfg.min_cwnd_pkts_q20, p.cfg.max_cwnd_pkts_q20)
}

fn decide(p: &Params, s: &State, mss_bytes: u32, reason: Reason) -> Decision {
    let w = clamp_window(p, s.cwnd_q20);
    let target = target_delay_ns(p, s.hops);
    let rtt = if s.rtt_ns == 0 { target } else { s.rtt_ns };
    Decision {
        cwnd_bytes_q16: window_bytes_q16(w, mss_bytes),
        pacing_rate_bps: pacing_rate_bps(w, mss_bytes, rtt), // Swift Alg. 1 lines 29-32
        signal: target as i64,                               // <= 265 ms in ns
        reason,
        flags: 0,
    }
}

/// Commit `w` as the new reference window and debit the tokens it spent (SL Alg. 2 lines 3-4).
fn commit(s: &mut State, w_q20: u64, spent: u16, now_ns: u64) {
    if w_q20 < s.wref_q20 {
        s.t_last_decrease_ns = now_ns; // a decrease: Swift's loss guard counts from here
    }
    s.wref_q20 = w_q20;
    s.ai_bank = s.ai_bank.saturating_sub(spent);
}

/// SL Alg. 1 at the end of an RTT, with `Token_Thresh = t + token_thresh_extra`.
fn end_of_rtt(p: &Params, s: &mut State, target_ns: u64) {
    let c = &p.cfg;
    let thresh = target_ns.saturating_add(c.token_thresh_extra_ns);
    let meas = s.max_delay_ns;
    if meas > thresh {
        // Alg. 1 lines 2-3: mint tokens, capped at Bank_Cap.
        let numerator = match c.token_numerator {
            token_numerator::LITERAL => meas,
            token_numerator::ABOVE_THRESHOLD => meas.saturating_sub(thresh),
            _ => meas.saturating_sub(target_ns),
        };
        let minted = div_or_max(numerator, c.ai_div_ns); // AI_DIV >= 1
        let bank = (s.ai_bank as u64).saturating_add(minted);
        s.ai_bank = if bank > c.bank_cap {
            c.bank_cap as u16 // validated <= u16::MAX
        } else {
            bank as u16 // bank <= bank_cap <= u16::MAX
        };
        // Alg. 1 lines 5-6: dampener += Meas. Cong. / Token_Thresh (> 1 here).
        let inc = mul_div(meas, Q16_ONE, thresh);
        let d = (s.dampener_q16 as u64).saturating_add(inc);
        s.dampener_q16 = if d > DAMPENER_MAX_Q16 {
            u32::MAX
        } else {
            d as u32 // d <= u32::MAX
        };
    } else if s.ai_bank == 0 {
        if s.flags & F_CONGESTED == 0 {
            s.dampener_q16 = 0; // Alg. 1 lines 8-9: no congestion over the whole RTT
        } else if meas < thresh {
            s.dampener_q16 = s.dampener_q16.saturating_sub(Q16_ONE as u32); // lines 10-11
        }
    }
    s.max_delay_ns = 0; // Alg. 1 line 14
    s.flags &= !F_CONGESTED;
}

fn loss_reaction(p: &Params, s: &mut State, ev: &LossEvent) -> Reason {
    let now = ev.now_ns;
    let prev = s.cwnd_q20;
    let rtt = s.rtt_ns;
    let can_dec = can_decrease(now, &mut s.t_last_decrease_ns, rtt); // Swift Alg. 1 line 3
    if s.flags & F_UNDO_ARMED == 0 {
        s.undo_cwnd_q20 = s.cwnd_q20;
        s.flags |= F_UNDO_ARMED;
    }
    let (w, reason) = match ev.kind {
        LossKind::RetransmitTimeout => {
            s.retransmit_cnt = s.retransmit_cnt.saturating_add(1); // Swift Alg. 1 line 16
            if s.retransmit_cnt as u64 >= p.cfg.retx_reset_threshold {
                (p.cfg.min_cwnd_pkts_q20, Reason::RetransmitReset) // line 18
            } else if can_dec {
                (mul_q16(prev, p.loss_factor_q16), Reason::RetransmitTimeout) // line 21
            } else {
                (prev, Reason::DecreaseGuarded)
            }
        }
        LossKind::FastRecovery => {
            s.retransmit_cnt = 0; // line 23
            if can_dec {
                (mul_q16(prev, p.loss_factor_q16), Reason::FastRecovery) // line 25
            } else {
                (prev, Reason::DecreaseGuarded)
            }
        }
    };
    let w = clamp_window(p, w); // line 26
    if w < prev || w <= p.cfg.min_cwnd_pkts_q20 {
        s.t_last_decrease_ns = now; // line 27, strict reading
    }
    if reason != Reason::DecreaseGuarded {
        // A loss reduction is committed: it becomes the reference too.
        s.cwnd_q20 = w;
        s.wref_q20 = w;
    }
    reason
}

impl Controller for SwiftVaiSf {
    type Params = Params;
    type State = State;

    fn init(p: &Params, s: &mut State, now_ns: u64, mss_bytes: u32) -> Decision {
        init_state(p, s, now_ns, mss_bytes);
        decide(p, s, s.mss_bytes, Reason::Init)
    }

    fn on_ack(p: &Params, s: &mut State, ev: &AckEvent) -> Decision {
        // The steady-decrease lease (issue #13) transcribes what this function does on an ACK
        // of its regime (a delay of at least D_fast, the fixed point, the multiplier at 1.0):
        // `rdcc_vaisf_take` in modules/glue/rdcc_lease_vaisf.h, under the premises
        // `VaisfLease::grant` checks (vaisf_lease.rs). A change here, in end_of_rtt, commit,
        // vai_tokens_q16, decide or swift::pacing_rate_bps must change them together:
        // regime_keeps_the_decision and the KUnit case rdcc_glue_vaisf_lease fail otherwise.
        ensure_init(p, s, ev.now_ns, ev.mss_bytes);
        let c = &p.cfg;
        let mss = resolve_mss(ev.mss_bytes, s.mss_bytes);
        s.mss_bytes = mss;
        if !ev.has(ACK_IN_RECOVERY) {
            s.flags &= !F_UNDO_ARMED;
        }
        if ev.acked_bytes > 0 {
            s.retransmit_cnt = 0; // Swift Alg. 1 line 4
        }
        if let Some(h) = ev.hop_count() {
            s.hops = h;
        }
        let Some(raw_rtt) = ev.rtt() else {
            return decide(p, s, mss, Reason::NoSample);
        };
        let now = ev.now_ns;
        let rtt = clamp_rtt_ns(raw_rtt);
        let remote = match ev.remote_delay() {
            Some(r) if r > rtt => rtt,
            Some(r) => r,
            None => 0,
        };
        let d = rtt.saturating_sub(remote); // fabric delay (Swift §3.3); SL is fabric-only
        let t = target_delay_ns(p, s.hops); // step 1
                                            // A possibly delayed ACK can only overstate the delay (as in swift.rs): below target it
                                            // is a valid increase sample; at or above target it proves nothing and is skipped, and
                                            // it never becomes the RTT estimate.
        if ev.has(ACK_DELAYED) {
            if d >= t {
                return decide(p, s, mss, Reason::DecreaseGuarded);
            }
        } else {
            s.rtt_ns = rtt;
        }

        // Step 2: per-RTT trackers and the SF counter.
        if d > s.max_delay_ns {
            s.max_delay_ns = d;
        }
        if d > t {
            s.flags |= F_CONGESTED; // SL §V-A: "a packet's delay exceeds the delay target"
        }
        let counted = if c.sf_count_segments != 0 {
            let segs = acked_pkts_q20(ev.acked_bytes, mss) >> PKT_Q20_SHIFT;
            if segs == 0 {
                1
            } else if segs > u16::MAX as u64 {
                u16::MAX
            } else {
                segs as u16 // <= u16::MAX
            }
        } else {
            1
        };
        s.acks_since_dec = s.acks_since_dec.saturating_add(counted);

        // Step 3: SL Alg. 2 without debit. An application-limited flow adds nothing.
        let (tokens_q16, spent) = vai_tokens_q16(p, s.ai_bank, s.dampener_q16);
        let (ai, spent) = if ev.has(ACK_APP_LIMITED) {
            (0, 0) // nothing added, so nothing spent
        } else {
            (mul_q16(base_ai_pkts_q20(p, t, mss), tokens_q16), spent) // Alg. 2 line 8
        };

        let increase = d < t; // Swift Alg. 1 line 6
        let (w, mut reason) = if increase {
            // Step 5: W = W_ref + AI (SL §V-B reference window).
            let r = if ai == 0 {
                Reason::Hold
            } else {
                Reason::AdditiveIncrease
            };
            (clamp_window(p, s.wref_q20.saturating_add(ai)), r)
        } else {
            // Step 4: SL Eq. 1 from the reference, plus AI (always-AI, §V-B).
            let f = md_factor_q16(d, t, c.beta_q16, c.max_mdf_q16);
            let w = clamp_window(p, mul_q16(s.wref_q20, f).saturating_add(ai));
            if c.sf_acks != 0 && s.acks_since_dec as u64 >= c.sf_acks {
                // SF (§IV-B): commit the decrease every s ACKs; VAI debits then (§IV-A).
                commit(s, w, spent, now);
                s.acks_since_dec = 0;
                (w, Reason::MultiplicativeDecrease)
            } else {
                (w, Reason::DecreaseGuarded) // applied from W_ref, not committed yet
            }
        };

        // Step 6: the end of an RTT (snd_una reaches the marker). A marker ahead of snd_nxt
        // means the sequence space moved under us (hostile or reset): close the round too.
        if s.flags & F_MARKER == 0 {
            s.rtt_marker = ev.snd_nxt;
            s.flags |= F_MARKER;
        } else if seq_after_eq(ev.snd_una, s.rtt_marker) || seq_after(s.rtt_marker, ev.snd_nxt) {
            if increase || c.sf_acks == 0 {
                // Increases are committed once per RTT (§V-B); with sf_acks = 0, decreases too.
                commit(s, w, spent, now);
                if !increase {
                    s.acks_since_dec = 0;
                    reason = Reason::MultiplicativeDecrease;
                }
            }
            end_of_rtt(p, s, t); // SL Alg. 1
            s.rtt_marker = ev.snd_nxt;
        }
        s.cwnd_q20 = w; // step 7
        decide(p, s, mss, reason)
    }

    fn on_loss(p: &Params, s: &mut State, ev: &LossEvent) -> Decision {
        ensure_init(p, s, ev.now_ns, ev.mss_bytes);
        let mss = resolve_mss(ev.mss_bytes, s.mss_bytes);
        s.mss_bytes = mss;
        let reason = loss_reaction(p, s, ev);
        decide(p, s, mss, reason)
    }

    fn on_idle_restart(p: &Params, s: &mut State, now_ns: u64, mss_bytes: u32) -> Decision {
        ensure_init(p, s, now_ns, mss_bytes);
        let mss = resolve_mss(mss_bytes, s.mss_bytes);
        s.mss_bytes = mss;
        decide(p, s, mss, Reason::IdleRestart)
    }

    fn on_undo(p: &Params, s: &mut State, mss_bytes: u32) -> Decision {
        ensure_init(p, s, 0, mss_bytes);
        let mss = resolve_mss(mss_bytes, s.mss_bytes);
        s.mss_bytes = mss;
        if s.flags & F_UNDO_ARMED == 0 {
            return decide(p, s, mss, Reason::Hold);
        }
        s.flags &= !F_UNDO_ARMED;
        if s.undo_cwnd_q20 > s.cwnd_q20 {
            let w = clamp_window(p, s.undo_cwnd_q20);
            s.cwnd_q20 = w;
            s.wref_q20 = w;
        }
        s.retransmit_cnt = 0;
        decide(p, s, mss, Reason::Undo)
    }

    fn current(p: &Params, s: &State, mss_bytes: u32) -> Decision {
        if s.initialised() {
            decide(p, s, resolve_mss(mss_bytes, s.mss_bytes), Reason::Hold)
        } else {
            let mut tmp = State::default();
            init_state(p, &mut tmp, 0, mss_bytes);
            decide(p, &tmp, tmp.mss_bytes, Reason::Hold)
        }
    }
}

/// The steady-decrease lease (issue #13, `VaisfLease`): a child module in its own file, so it
/// reaches the law's private state fields and helpers; a kernel module that includes this file
/// gets it too.
#[path = "vaisf_lease.rs"]
mod vaisf_lease;
pub use vaisf_lease::{on_ack_leased, VaisfLease, STATE_ABI, VAISF_RTT_US_MAX};
