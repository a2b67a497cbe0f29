// SPDX-License-Identifier: GPL-2.0-only
//! Swift VAI SF's steady-decrease lease (issue #13): on most ACKs of a congested datacenter
//! stream the kernel neither builds an event nor calls the law.
//!
//! A child module of `vaisf` (declared there with `#[path]`, so a kernel module that includes
//! `vaisf.rs` gets this file too) because it reads the law's private state and helpers.
//!
//! **The regime.** With the fabric delay `d` at or above `D*` on every ACK, SL Eq. 1's cut
//! `⌊β(d − t)/d⌋` is capped at `max_mdf` (`swift::md_factor_q16`), so the factor is the constant
//! `1 − max_mdf`. If the reference window is then a fixed point of the decrease,
//! `W_ref = clamp(⌊W_ref·(1 − max_mdf)⌋ + AI)`, and AI is the constant `base_AI` (the VAI token
//! multiplier at 1.0), every such ACK leaves the window where it is: the SF commits every `s`
//! ACKs set `W_ref` to the same value and debit the bank; nothing else of the decision moves but
//! the pacing rate, `W·mss/RTT` with this ACK's RTT (Swift Alg. 1 line 30). What does change
//! per ACK is bookkeeping: the RTT, the RTT's largest delay and the congested flag, the SF
//! counter, the bank (debit at a commit, SL Alg. 1's mint at the RTT's end), the dampener (SL
//! Alg. 1 lines 5-6) and the round marker. The C fast path (`rdcc_vaisf_take`,
//! modules/glue/rdcc_lease_vaisf.h) does that bookkeeping in the law's own `#[repr(C)]` state,
//! exactly as `on_ack` does it, and sets one packet paced at the law's rate; any ACK outside
//! the regime takes the full path, which runs the law and grants the next lease.
//!
//! **Why the regime lasts.** `D_fast = max(D*, Token_Thresh + 1)`: a fast ACK's delay is above
//! `Token_Thresh`, so its RTT's largest delay is too, and the RTT's end takes SL Alg. 1's mint
//! branch: the dampener only grows, and the token multiplier `max(min(AI_Cap, bank) /
//! (dampener/D + 1), 1)` is non-increasing in the dampener and non-decreasing in the tokens, so
//! once it is 1.0 with `AI_Cap` tokens (checked at the grant) it stays 1.0 for every bank.
//! `on_ack` reads no clock on an ACK (only the loss reaction does), so the lease has no time
//! limit; a parameter write bumps the generation, a loss, undo or idle restart ends the lease,
//! and none lives in Recovery or Loss (`set_state` ends it on the way in, the grant refuses
//! there).
//!
//! Not leased (those ACKs take the full path): windows of one packet or more (the rate is then
//! the kernel's `srtt`-based one, not the law's), application-limited and possibly delayed
//! ACKs, a delay below `D_fast`, the SF counting segments (`sf_count_segments`) or off
//! (`sf_acks = 0`). The claim, tested closed-loop on a real socket against the law called on
//! every ACK (KUnit `rdcc_glue_vaisf_lease`): the state, the socket's window and its pacing
//! rate are exactly those of calling the law on every ACK; the trace too, since a traced
//! socket takes the full path on every ACK.

use core::mem::{offset_of, size_of, MaybeUninit};

use super::super::event::{
    AckEvent, Controller, Decision, Enforced, ACK_IN_RECOVERY, CORE_STATE_BUDGET, ICSK_CA_PRIV_SIZE,
};
use super::super::fixed::{
    mul_div, mul_q16, MAX_DELAY_NS, MAX_RATE_BPS, NS_PER_S, NS_PER_US, PKT_Q20_ONE, PKT_Q20_SHIFT,
    Q16_ONE,
};
use super::super::swift::{md_factor_q16, window_bytes_q16};
use super::{
    base_ai_pkts_q20, clamp_window, target_delay_ns, token_numerator, vai_tokens_q16, Params,
    State, SwiftVaiSf, F_INIT, F_MARKER, F_UNDO_ARMED,
};

/// Largest `rs->rtt_us` the fast path takes, µs: `10^7 · 1000 = MAX_DELAY_NS`, so on every
/// sample in `[1, VAISF_RTT_US_MAX]` the law's `clamp_rtt_ns` is the identity.
pub const VAISF_RTT_US_MAX: u64 = 10_000_000;
const _: () = assert!(VAISF_RTT_US_MAX * NS_PER_US == MAX_DELAY_NS);

/// `State`'s layout as C reads it (`struct rdcc_vaisf_state`, rdcc_abi.h): its size, then each
/// field's name and offset, for core/tests/abi_offsets.rs (the fields are private).
pub const STATE_ABI: (usize, [(&str, usize); 14]) = (
    size_of::<State>(),
    [
        ("cwnd_q20", offset_of!(State, cwnd_q20)),
        ("wref_q20", offset_of!(State, wref_q20)),
        ("rtt_ns", offset_of!(State, rtt_ns)),
        ("t_last_decrease_ns", offset_of!(State, t_last_decrease_ns)),
        ("max_delay_ns", offset_of!(State, max_delay_ns)),
        ("undo_cwnd_q20", offset_of!(State, undo_cwnd_q20)),
        ("dampener_q16", offset_of!(State, dampener_q16)),
        ("rtt_marker", offset_of!(State, rtt_marker)),
        ("mss_bytes", offset_of!(State, mss_bytes)),
        ("ai_bank", offset_of!(State, ai_bank)),
        ("acks_since_dec", offset_of!(State, acks_since_dec)),
        ("retransmit_cnt", offset_of!(State, retransmit_cnt)),
        ("hops", offset_of!(State, hops)),
        ("flags", offset_of!(State, flags)),
    ],
);

/// The lease (`struct rdcc_vaisf_lease` in modules/glue/rdcc_abi.h, same layout; checked by
/// core/tests/abi_offsets.rs): the terms of the regime, in the 32 glue bytes of `icsk_ca_priv`
/// of tcp_swift_vaisf. All-zero is no lease (`gen == 0`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VaisfLease {
    /// Parameter generation of the grant; 0 = no lease (a generation is never 0).
    pub gen: u32,
    /// `D_fast`, ns: a sample at or above it is in the regime.
    pub d_fast_ns: u32,
    /// `Token_Thresh = t + token_thresh_extra`, ns (SL Alg. 1), the dampener's divisor.
    pub thresh_ns: u32,
    /// What SL Alg. 1 line 2's numerator subtracts from the RTT's largest delay, ns: `t`
    /// (`QUEUEING`), 0 (`LITERAL`) or `Token_Thresh` (`ABOVE_THRESHOLD`).
    pub num_sub_ns: u32,
    /// AI_DIV, ns per minted token, in `[1, 10^6]`.
    pub ai_div_ns: u32,
    /// `s`, ACKs per SF commit, in `[1, 65535]`.
    pub sf_acks: u16,
    /// AI_Cap, most tokens a commit spends.
    pub ai_cap: u16,
    /// Bank_Cap, most tokens the bank holds.
    pub bank_cap: u16,
    /// `mss_cache` at the grant, bytes, in `[1, 65535]` (the state's MSS).
    pub mss: u16,
    /// Reserved, 0.
    pub _spare: u32,
}

const _: () = assert!(size_of::<VaisfLease>() == 32);
const _: () = assert!(size_of::<VaisfLease>() <= ICSK_CA_PRIV_SIZE - CORE_STATE_BUDGET);
const _: () = assert!(size_of::<State>() <= CORE_STATE_BUDGET);

/// `D*`, the least delay at which SL Eq. 1's cut is capped for target `t_ns`:
/// `⌈β·t / (β − max_mdf)⌉`, or `None` when `β <= max_mdf` (the cap then needs `d = ∞`).
///
/// Derivation (`swift::md_factor_q16`: `cut = ⌊β(d − t)/d⌋`, capped at `max_mdf`): for
/// integers `⌊x/d⌋ >= m ⟺ x >= m·d`, so the cut is capped exactly when `β(d − t) >= max_mdf·d`,
/// i.e. `(β − max_mdf)·d >= β·t`. `β <= 2^16` and `t <= 2^29` keep `β·t` below 2^45.
pub fn capped_delay_ns(p: &Params, t_ns: u64) -> Option<u64> {
    let c = p.config();
    let slope = c.beta_q16.checked_sub(c.max_mdf_q16).filter(|&x| x != 0)?;
    let num = c.beta_q16.checked_mul(t_ns)?;
    // ⌈num / slope⌉ without `div_ceil` (its `+ 1` is an overflow check in a kernel build):
    // num < 2^45, so the wrapping add does not wrap.
    let (q, r) = (num.checked_div(slope)?, num.checked_rem(slope)?);
    Some(q.wrapping_add(u64::from(r != 0)))
}

impl VaisfLease {
    /// The lease after a full `on_ack` that left the state `s` under parameters `p` of
    /// generation `gen`, for an ACK with `mss_bytes` (`mss_cache`) that was (`in_recovery`) or
    /// was not in Recovery or Loss. No lease (all-zero) unless the regime of the module docs
    /// holds for every ACK with a delay of at least `D_fast`:
    /// - `gen != 0`, not in Recovery or Loss;
    /// - initialised with the round marker set, no undo armed, no RTO pending
    ///   (`retransmit_cnt == 0`), so `on_ack`'s first lines change nothing;
    /// - the SF on and counting ACKs (`sf_acks != 0`, `sf_count_segments == 0`);
    /// - the state's MSS is `mss_bytes`, in `[1, 65535]`;
    /// - `β > max_mdf`, `D_fast = max(D*, Token_Thresh + 1) <= MAX_DELAY_NS` and `<= u32::MAX`;
    /// - the token multiplier 1.0 with `AI_Cap` tokens at this dampener;
    /// - `cwnd == W_ref`, a fixed point of the capped decrease: `clamp(⌊W_ref·(1 − max_mdf)⌋
    ///   + base_AI) == W_ref`;
    /// - below one packet and not 0 bytes, so that `Decision::enforce` gives one packet at the
    ///   law's own rate (`w·mss/RTT`) for every `srtt` and clamp;
    /// - that rate unclamped, in `[1, MAX_RATE_BPS)`, for every delay in `[D_fast, MAX_DELAY_NS]`;
    /// - the SF counter below `sf_acks`.
    pub fn grant(p: &Params, s: &State, mss_bytes: u32, gen: u32, in_recovery: bool) -> Self {
        Self::terms(p, s, mss_bytes, gen, in_recovery).unwrap_or_default()
    }

    fn terms(p: &Params, s: &State, mss_bytes: u32, gen: u32, in_recovery: bool) -> Option<Self> {
        let c = p.config();
        let flags_ok = s.flags & (F_INIT | F_MARKER) == F_INIT | F_MARKER
            && s.flags & F_UNDO_ARMED == 0
            && s.retransmit_cnt == 0;
        if gen == 0 || in_recovery || !flags_ok || c.sf_acks == 0 || c.sf_count_segments != 0 {
            return None;
        }
        let mss16 = u16::try_from(mss_bytes).ok().filter(|&m| m != 0)?;
        if s.mss_bytes != mss_bytes {
            return None;
        }
        let t = target_delay_ns(p, s.hops);
        let thresh = t.saturating_add(c.token_thresh_extra_ns);
        let d_fast = capped_delay_ns(p, t)?.max(thresh.saturating_add(1));
        if d_fast > MAX_DELAY_NS {
            return None;
        }
        let num_sub = match c.token_numerator {
            token_numerator::LITERAL => 0,
            token_numerator::ABOVE_THRESHOLD => thresh,
            _ => t,
        };
        // SL Alg. 2 lines 2-7 with AI_Cap tokens (the most any bank gives) at this dampener.
        let ai_cap16 = u16::try_from(c.ai_cap).ok()?;
        if vai_tokens_q16(p, ai_cap16, s.dampener_q16).0 != Q16_ONE {
            return None;
        }
        // The fixed point of SL Eq. 1 at the cap plus the constant AI (Alg. 2 line 8 at 1.0).
        let w = s.cwnd_q20;
        let ai = mul_q16(base_ai_pkts_q20(p, t, mss_bytes), Q16_ONE);
        let next = clamp_window(p, mul_q16(s.wref_q20, p.loss_factor_q16).saturating_add(ai));
        if w != s.wref_q20 || next != w || w >= PKT_Q20_ONE || window_bytes_q16(w, mss_bytes) == 0 {
            return None;
        }
        // Every delay >= D_fast gets the capped factor (capped_delay_ns); checked once more on
        // the value itself, as the law computes it.
        if md_factor_q16(d_fast, t, c.beta_q16, c.max_mdf_q16) != p.loss_factor_q16 {
            return None;
        }
        // The law's rate w·mss·10^9 / (d·2^20) (swift::pacing_rate_bps) is non-increasing in d,
        // so inside [1, MAX_RATE_BPS) at both ends of [D_fast, MAX_DELAY_NS] means inside it for
        // every sample the fast path takes: its clamp is the identity and the C has none.
        let wm = w.saturating_mul(u64::from(mss16));
        let fastest = mul_div(wm, NS_PER_S, d_fast << PKT_Q20_SHIFT);
        let slowest = mul_div(wm, NS_PER_S, MAX_DELAY_NS << PKT_Q20_SHIFT);
        if fastest >= MAX_RATE_BPS || slowest == 0 {
            return None;
        }
        // The SF counter below its commit point, so the fast path's `+ 1` never saturates
        // (it is reset at `sf_acks`, at most 65535).
        if u64::from(s.acks_since_dec) >= c.sf_acks {
            return None;
        }
        Some(VaisfLease {
            gen,
            d_fast_ns: u32::try_from(d_fast).ok()?,
            thresh_ns: u32::try_from(thresh).ok()?,
            num_sub_ns: u32::try_from(num_sub).ok()?,
            ai_div_ns: u32::try_from(c.ai_div_ns).ok()?,
            sf_acks: u16::try_from(c.sf_acks).ok()?,
            ai_cap: ai_cap16,
            bank_cap: u16::try_from(c.bank_cap).ok()?,
            mss: mss16,
            _spare: 0,
        })
    }
}

/// One ACK on the full path of tcp_swift_vaisf (the glue's `rdcc_rs_on_ack_vaisf`): the law,
/// its enforcement as `rdcc_rs_on_ack` does, then the next lease for generation `gen` (read
/// before `p`: rdcc_glue.c `rdcc_params_gen`).
///
/// `d` and `e` may be uninitialized (the glue's `struct rdcc_ack_out` on the C stack): each is
/// written whole once, in place, before anything reads it; the written values are returned.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn on_ack_leased<'o>(
    p: &Params,
    s: &mut State,
    ev: &AckEvent,
    srtt_us: u32,
    clamp_pkts: u32,
    lease: &mut VaisfLease,
    gen: u32,
    d: &'o mut MaybeUninit<Decision>,
    e: &'o mut MaybeUninit<Enforced>,
) -> (&'o Decision, &'o Enforced) {
    let d = d.write(SwiftVaiSf::on_ack(p, s, ev));
    let e = e.write(d.enforce(ev.mss_bytes, srtt_us, clamp_pkts));
    let in_recovery = ev.flags & ACK_IN_RECOVERY != 0;
    *lease = VaisfLease::grant(p, s, ev.mss_bytes, gen, in_recovery);
    (d, e)
}

#[cfg(test)]
#[path = "vaisf_lease_tests.rs"]
mod tests;
