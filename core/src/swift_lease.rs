// SPDX-License-Identifier: GPL-2.0-only
//! Swift's increase lease (issue #13): on most ACKs of a datacenter stream the kernel neither
//! builds an event nor calls the law.
//!
//! A child module of `swift` (declared there with `#[path]`, so a kernel module that includes
//! `swift.rs` gets this file too) because it reads the law's private state and helpers.
//!
//! **Why it is exact.** Swift's fabric target (§3.5) is non-increasing in the fabric window
//! (`fs_alpha/sqrt(w)`, clamped), and an ACK without a remote delay changes the window only by
//! Alg. 1's additive increase (fabric delay below the target: lines 6-10) or, once per RTT, by
//! its decrease (line 12). After a full call that left the window at `w_lo`, the grant states a
//! bound `w_hi >= w_lo` and the two targets `t_lo = target(w_hi)`, `t_hi = target(w_lo)`. While
//! the window stays in `[w_lo, w_hi]`, its target is in `[t_lo, t_hi]`, so:
//! - an ACK whose fabric delay (its RTT: no remote delay) is below `t_lo` is below the target:
//!   an additive increase `ai·acked/w` (line 8), exact in C with one division (two when bytes
//!   were carried);
//! - one at or above `t_hi` is at or above the target: with the decrease guard closed (line 3,
//!   `now − t_last_decrease < rtt`) a hold (`DecreaseGuarded`), and a possibly delayed one a hold
//!   that carries its bytes (D12b);
//! - anything else (between the targets, a decrease, a window past `w_hi`) takes the full path,
//!   which runs the law and grants the next lease.
//!
//! Below one packet (`F_LEASE_SUB`) only holds are leased: the law then paces at `w·mss/RTT`
//! (Alg. 1 line 30), which the C computes with this ACK's RTT. Between one and two packets
//! nothing is leased (the enforcement changes class there).
//!
//! **Where it lives.** Swift's 32 glue bytes are the remote-delay slot, so the terms live in the
//! law's state, in the two words that are dead under the grant's premises (no endpoint EWMA, no
//! undo armed): `endpoint_delay_ewma_ns` holds the targets as the C compares them, in whole µs
//! of the kernel's RTT sample (`inc_max_us | hold_min_us << 32`, see [`Terms`]),
//! `undo_fcwnd_q20` holds `w_hi_pkts | ai_q20 << 32`, and `flags` gains `F_LEASE` (and the
//! class bits). The parameter generation is in the last 4 glue bytes, which the slot (28 bytes)
//! never writes. The glue ends the lease ([`end`]) before every call of the law, so the law
//! never sees these bits; a lockless reader may (get_info), and `report` gates the EWMA on
//! `F_HAS_EWMA`.
//!
//! Not leased (under `F_LEASE`; the remote-delay regime below has its own list): an ACK with a
//! remote-delay entry in the slot or a live side table (the C tests both; the full path or
//! the remote-delay regime's path consumes them), Recovery and Loss (`set_state` ends the lease; the grant
//! refuses), the paper-literal decrease guard, an armed undo, an endpoint EWMA (but see below),
//! a window the endpoint window binds or outside the parameters' `[min_cwnd, max_cwnd]`,
//! windows from one to two packets. An application-limited ACK below `t_lo` is leased: the
//! law's hold without growth, which resets the carried bytes.
//!
//! **The remote-delay regime** (`F_LEASE_REMOTE`, with `F_LEASE` clear): Swift with the remote
//! delay keeps an endpoint EWMA and every ACK carries a remote delay. While that EWMA stays
//! below the endpoint target, an endpoint window at `max_cwnd` stays there (Alg. 1 line 6 for
//! the endpoint window, §3.3: an increase clamped back by line 26; above `min_cwnd`, line 27
//! refreshes no guard), so the fabric window's zones above hold with the fabric delay (RTT less
//! the endpoint delay) in place of the RTT. Granted after an ACK with a remote delay (an EWMA,
//! `F_REMOTE_USED`, no miss counted) with the endpoint window at `max_cwnd > min_cwnd` and two
//! packets or more. The terms: `t_lo | t_hi << 32` in ns in the undo word (dead: no undo
//! armed), `w_hi_pkts` in the EWMA word above its 34 bits ([`EWMA_MASK`]; the EWMA below them
//! stays live). The C (`rdcc_swift_take_remote`) takes an ACK whose entry the channel found,
//! reading `ai`, the endpoint target and the EWMA's gain from the parameter block of the
//! lease's generation, and steps the EWMA itself (`fixed::ewma`).
//!
//! The claim, tested closed-loop on a real socket against the law called on every ACK (KUnit
//! `rdcc_glue_swift_lease`) and on the host against a transcription of the fast path
//! (`swift_lease_tests.rs`): the state (but the root hint, a guess checked before use, and the
//! dead words), the socket's window and its pacing rate are exactly those of calling the law on
//! every ACK. The trace too: a traced socket takes the full path on every ACK.

use core::mem::{offset_of, size_of, MaybeUninit};

use super::super::event::{
    AckEvent, Controller, Decision, Enforced, ACK_IN_RECOVERY, CORE_STATE_BUDGET,
};
use super::super::fixed::{MAX_DELAY_NS, MAX_MSS_BYTES, NS_PER_US, PKT_Q20_ONE, PKT_Q20_SHIFT};
use super::{
    target_cached_ns, target_delay_near_ns, window_bytes_q16, Params, State, Swift, EWMA_BITS,
    EWMA_MASK, F_HAS_EWMA, F_INIT, F_LEASE, F_LEASE_MIN, F_LEASE_REMOTE, F_LEASE_SUB,
    F_REMOTE_USED, F_UNDO_ARMED, MAX_CWND_Q20,
};

/// Largest additive increase (packets Q20, exclusive: 16 packets per RTT; the default is 1) for
/// which increases are leased: the C's `ai · acked_q20` is then below `2^24 · 2^40 = 2^64`
/// (`acked_q20` is capped at `MAX_CWND_Q20 = 2^40`), one 64-bit multiplication and division.
pub const LEASE_AI_MAX_Q20: u64 = 1 << 24;

/// Largest `rs->rtt_us` the fast path takes, µs (4.29 s): `· 1000` it is below both
/// `MAX_DELAY_NS` (10 s), so on every sample in `[1, SWIFT_RTT_US_MAX]` the law's
/// `clamp_rtt_ns` is the identity, and 2^32 ns, so the fabric delay (`u32`, saturating in the
/// law) is stored without a saturation. Larger samples take the full path.
pub const SWIFT_RTT_US_MAX: u64 = (u32::MAX as u64) / NS_PER_US;
const _: () = assert!(
    SWIFT_RTT_US_MAX * NS_PER_US <= MAX_DELAY_NS && SWIFT_RTT_US_MAX * NS_PER_US <= u32::MAX as u64
);
// Every increase bound (`Terms::inc_max_us`, from a target below 2^32 ns) is at most
// SWIFT_RTT_US_MAX: the C's increase test implies the sample's range.
const _: () = assert!((u32::MAX as u64 - 1) / NS_PER_US <= SWIFT_RTT_US_MAX);

/// The `F_*` bits C reads and writes (rdcc_abi.h `RDCC_SWIFT_F_*`).
pub const FLAG_ABI: [(&str, u8); 8] = [
    ("RDCC_SWIFT_F_INIT", F_INIT),
    ("RDCC_SWIFT_F_HAS_EWMA", F_HAS_EWMA),
    ("RDCC_SWIFT_F_UNDO_ARMED", F_UNDO_ARMED),
    ("RDCC_SWIFT_F_REMOTE_USED", super::F_REMOTE_USED),
    ("RDCC_SWIFT_F_LEASE", F_LEASE),
    ("RDCC_SWIFT_F_LEASE_SUB", F_LEASE_SUB),
    ("RDCC_SWIFT_F_LEASE_MIN", F_LEASE_MIN),
    ("RDCC_SWIFT_F_LEASE_REMOTE", F_LEASE_REMOTE),
];

/// `State`'s layout as C reads it (`struct rdcc_swift_state`, rdcc_abi.h): its size, then each
/// field's C name and offset, for core/tests/abi_offsets.rs (the fields are private). The two
/// lease words carry their lease names.
pub const STATE_ABI: (usize, [(&str, usize); 14]) = (
    size_of::<State>(),
    [
        ("fcwnd_q20", offset_of!(State, fcwnd_q20)),
        ("ecwnd_q20", offset_of!(State, ecwnd_q20)),
        (
            "t_last_decrease_f_ns",
            offset_of!(State, t_last_decrease_f_ns),
        ),
        (
            "t_last_decrease_e_ns",
            offset_of!(State, t_last_decrease_e_ns),
        ),
        ("rtt_root", offset_of!(State, rtt_root)),
        ("lease_t", offset_of!(State, endpoint_delay_ewma_ns)),
        ("lease_w", offset_of!(State, undo_fcwnd_q20)),
        ("mss_bytes", offset_of!(State, mss_bytes)),
        (
            "pending_acked_bytes",
            offset_of!(State, pending_acked_bytes),
        ),
        ("fabric_delay_ns", offset_of!(State, fabric_delay_ns)),
        ("retransmit_cnt", offset_of!(State, retransmit_cnt)),
        ("hops", offset_of!(State, hops)),
        ("flags", offset_of!(State, flags)),
        ("endpoint_misses", offset_of!(State, endpoint_misses)),
    ],
);
const _: () = assert!(size_of::<State>() == CORE_STATE_BUDGET);

/// The lease's terms as stored (for tests and `ss`-free inspection): `None` without `F_LEASE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// RTT samples of 1 to this many µs are below `t_lo` (additive increases): `(t_lo − 1) /
    /// 1000`, since `rtt_us · 1000 < t_lo ⟺ rtt_us ≤ ⌊(t_lo − 1) / 1000⌋` (0: no increase
    /// leased). The C tests `rtt_us − 1 < inc_max_us` (unsigned): the sample's range and the
    /// target in one comparison, before the sample is scaled.
    pub inc_max_us: u32,
    /// RTT samples of this many µs or more are at or above `t_hi`: `⌈t_hi / 1000⌉`.
    pub hold_min_us: u32,
    /// The window bound, whole packets (`w_hi = w_hi_pkts << 20`).
    pub w_hi_pkts: u32,
    /// `ai`, packets Q20 (below [`LEASE_AI_MAX_Q20`]; 0 when no increase is leased).
    pub ai_q20: u32,
    /// Below one packet: holds only, paced at the law's rate.
    pub sub_packet: bool,
    /// The window is `min_cwnd`: a hold refreshes the decrease guard (Alg. 1 line 27).
    pub at_min: bool,
}

/// The lease stored in `s`, if any.
pub fn terms(s: &State) -> Option<Terms> {
    if s.flags & F_LEASE == 0 {
        return None;
    }
    let t = s.endpoint_delay_ewma_ns;
    let w = s.undo_fcwnd_q20;
    Some(Terms {
        inc_max_us: t as u32,
        hold_min_us: (t >> 32) as u32,
        w_hi_pkts: w as u32,
        ai_q20: (w >> 32) as u32,
        sub_packet: s.flags & F_LEASE_SUB != 0,
        at_min: s.flags & F_LEASE_MIN != 0,
    })
}

/// A remote-delay lease's terms (`F_LEASE_REMOTE`), as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RemoteTerms {
    /// ACKs whose fabric delay (ns) is below this are additive increases (`target(w_hi)`; 0:
    /// none leased).
    pub t_lo_ns: u32,
    /// ACKs whose fabric delay is at or above this are holds (`target(w_lo)`).
    pub t_hi_ns: u32,
    /// The window bound, whole packets.
    pub w_hi_pkts: u32,
    /// The window is `min_cwnd`: a hold refreshes the decrease guard (Alg. 1 line 27).
    pub at_min: bool,
}

/// The remote-delay lease stored in `s`, if any.
pub fn remote_terms(s: &State) -> Option<RemoteTerms> {
    if s.flags & F_LEASE_REMOTE == 0 {
        return None;
    }
    let t = s.undo_fcwnd_q20;
    Some(RemoteTerms {
        t_lo_ns: t as u32,
        t_hi_ns: (t >> 32) as u32,
        w_hi_pkts: (s.endpoint_delay_ewma_ns >> EWMA_BITS) as u32,
        at_min: s.flags & F_LEASE_MIN != 0,
    })
}

/// End the lease, if any: the dead words back to 0 (a remote-delay lease: the undo word, and
/// the bits above the EWMA's) and the bits cleared, so the law sees a state it made. The glue
/// calls this before every call of the law.
#[inline(always)]
pub fn end(s: &mut State) {
    if s.flags & (F_LEASE | F_LEASE_REMOTE) != 0 {
        s.endpoint_delay_ewma_ns = if s.flags & F_LEASE_REMOTE != 0 {
            s.endpoint_delay_ewma_ns & EWMA_MASK
        } else {
            0
        };
        s.undo_fcwnd_q20 = 0;
        s.flags &= !(F_LEASE | F_LEASE_SUB | F_LEASE_MIN | F_LEASE_REMOTE);
    }
}

/// Grant the next lease after a full `on_ack` left the state `s` (for an ACK that was,
/// `in_recovery`, or was not in Recovery or Loss); returns whether it did. Premises (each one a
/// line of the fast path that then needs no test, or a test it makes):
/// - not in Recovery or Loss; initialised; no endpoint EWMA, no undo armed (the dead words);
///   no RTO pending (`retransmit_cnt == 0`, so line 4 changes nothing); the decrease guard as
///   the deviation D11 reads it (`literal_decrease_guard == 0`);
/// - the window within `[min_cwnd, max_cwnd]` of these parameters (a write may have moved
///   them; an ACK without a sample does not clamp), an RTT already stored (the guard and the
///   pacing use it) and below 2^32 ns (the C's 32-bit store), the endpoint window not binding;
/// - two packets or more (`w >> 20` is the enforced window) or below one packet and not 0
///   bytes (one packet at the law's rate).
///
/// Increases are leased only at two packets or more, above `min_cwnd`, with `ai <`
/// [`LEASE_AI_MAX_Q20`]:
/// `w_hi = min(w + max(2·ai, w/16), max_cwnd, ecwnd)` floored to whole packets (about two RTTs
/// of growth, or 1/16 of the window, whichever is more: a longer lease lowers `t_lo`).
///
/// The first premises are tested inline, the rest out of line: Swift with the remote delay
/// (an EWMA on every ACK) pays a test and a branch, and the trampoline stays small enough for
/// `on_ack` to be inlined into it.
#[inline(always)]
pub fn grant(p: &Params, s: &mut State, in_recovery: bool) -> bool {
    if in_recovery || s.flags & (F_INIT | F_UNDO_ARMED) != F_INIT || s.retransmit_cnt != 0 {
        return false;
    }
    match s.flags & (F_HAS_EWMA | F_REMOTE_USED) {
        0 => grant_terms(p, s, false),
        // The remote-delay regime: the last ACK with a sample carried a remote delay.
        REMOTE_REGIME => grant_terms(p, s, true),
        _ => false,
    }
}

/// The remote-delay lease's window bound lives above the EWMA's bits: at most
/// `MAX_CWND_Q20 >> 20 = 2^20` packets (max_cwnd's validated range), so `w_hi_pkts << EWMA_BITS`
/// loses no bit, and the C's `(bound >> EWMA_BITS) << 20` is at most `MAX_CWND_Q20`.
const _: () = assert!(MAX_CWND_Q20 >> PKT_Q20_SHIFT <= u64::MAX >> EWMA_BITS);

/// The flags of the remote-delay regime: an endpoint EWMA, and a remote delay on the last ACK
/// with a sample (so `endpoint_misses` is 0).
const REMOTE_REGIME: u8 = F_HAS_EWMA | F_REMOTE_USED;

#[inline(never)]
fn grant_terms(p: &Params, s: &mut State, remote: bool) -> bool {
    let c = p.config();
    let w = s.fcwnd_q20;
    // The remote-delay regime: the endpoint window pinned at max_cwnd (the EWMA below its
    // target keeps it there: an increase is clamped back, Alg. 1 line 26), above min_cwnd (so
    // its guard is not refreshed, line 27), no miss counted; two packets or more.
    if remote
        && (s.ecwnd_q20 != c.max_cwnd_pkts_q20
            || c.max_cwnd_pkts_q20 <= c.min_cwnd_pkts_q20
            || s.endpoint_misses != 0
            || w < 2 * PKT_Q20_ONE)
    {
        return false;
    }
    // The window inside this parameter set's bounds: a write may have moved them, and an ACK
    // without a sample does not clamp (the fast path's hold would keep a window the law clamps).
    if w < c.min_cwnd_pkts_q20 || w > c.max_cwnd_pkts_q20 {
        return false;
    }
    // The stored RTT below 2^32 ns: bits 32-33 of `rtt_root` clear, so the C stores a new RTT
    // (< 2^32) into the word's low 32 bits alone (rdcc_swift_set_rtt).
    if c.literal_decrease_guard != 0
        || s.rtt_ns() == 0
        || s.rtt_ns() > u64::from(u32::MAX)
        || s.mss_bytes == 0
        || s.mss_bytes > MAX_MSS_BYTES
        || s.ecwnd_q20 < s.fcwnd_q20
    {
        return false;
    }
    let sub = w < PKT_Q20_ONE;
    if !sub && w < 2 * PKT_Q20_ONE || sub && window_bytes_q16(w, s.mss_bytes) == 0 {
        return false;
    }
    let at_min = w <= c.min_cwnd_pkts_q20;
    let t_hi = target_cached_ns(p, s); // the window's root is cached: no square root
    let (mut t_lo, mut w_hi_pkts, mut ai) = (0u64, w >> PKT_Q20_SHIFT, 0u64);
    if !sub && !at_min && c.ai_pkts_q20 < LEASE_AI_MAX_Q20 {
        let step = c.ai_pkts_q20.saturating_mul(2).max(w >> 4);
        let bound = w
            .saturating_add(step)
            .min(c.max_cwnd_pkts_q20)
            .min(s.ecwnd_q20);
        let hi_pkts = bound >> PKT_Q20_SHIFT;
        if hi_pkts << PKT_Q20_SHIFT > w {
            // The window's root (cached above) seeds w_hi's: w_hi <= w + max(2·ai, w/16), so
            // Newton's iteration from it takes a division or two, not a square root's three
            // or four (the hint itself stays the window's, for the next ACK).
            let mut root = s.root_hint();
            t_lo = target_delay_near_ns(p, hi_pkts << PKT_Q20_SHIFT, s.hops, &mut root);
            w_hi_pkts = hi_pkts;
            ai = c.ai_pkts_q20;
        }
    }
    // Targets are at most 10 ms + 255 ms + 10 ms < 2^32 ns; w_hi_pkts <= 2^20.
    let (Ok(t_lo), Ok(t_hi)) = (u32::try_from(t_lo), u32::try_from(t_hi)) else {
        return false;
    };
    // In whole µs of the kernel's sample (Terms): at most 2^32 / 1000, so an increase's sample
    // is at most SWIFT_RTT_US_MAX.
    if remote {
        // The fabric delay (RTT less the endpoint delay) is not whole µs: the targets in ns;
        // the window bound above the EWMA's bits (w_hi_pkts <= 2^20 < 2^30); ai is read from
        // the parameter block by the C.
        s.undo_fcwnd_q20 = u64::from(t_lo) | u64::from(t_hi) << 32;
        s.endpoint_delay_ewma_ns = (s.endpoint_delay_ewma_ns & EWMA_MASK) | w_hi_pkts << EWMA_BITS;
        s.flags |= F_LEASE_REMOTE | if at_min { F_LEASE_MIN } else { 0 };
        return true;
    }
    const US: u32 = NS_PER_US as u32;
    let inc_max_us = t_lo
        .checked_sub(1)
        .and_then(|t| t.checked_div(US))
        .unwrap_or(0);
    let hold_min_us = t_hi.div_ceil(US);
    s.endpoint_delay_ewma_ns = u64::from(inc_max_us) | u64::from(hold_min_us) << 32;
    s.undo_fcwnd_q20 = w_hi_pkts | ai << 32;
    s.flags |= F_LEASE | if sub { F_LEASE_SUB } else { 0 } | if at_min { F_LEASE_MIN } else { 0 };
    true
}

/// One ACK on the full path of tcp_swift (the glue's `rdcc_rs_on_ack_swift`): end the lease,
/// run the law, enforce as `rdcc_rs_on_ack` does, grant the next lease.
///
/// `d` and `e` may be uninitialized (the glue's `struct rdcc_ack_out` on the C stack): each is
/// written whole once, in place, before anything reads it; the written values are returned.
#[inline(always)]
pub fn on_ack_leased<'o>(
    p: &Params,
    s: &mut State,
    ev: &AckEvent,
    srtt_us: u32,
    clamp_pkts: u32,
    d: &'o mut MaybeUninit<Decision>,
    e: &'o mut MaybeUninit<Enforced>,
) -> (&'o Decision, &'o Enforced) {
    end(s);
    let d = d.write(Swift::on_ack(p, s, ev));
    let e = e.write(d.enforce(ev.mss_bytes, srtt_us, clamp_pkts));
    grant(p, s, ev.flags & ACK_IN_RECOVERY != 0);
    (d, e)
}

#[cfg(test)]
#[path = "swift_lease_tests.rs"]
mod tests;
