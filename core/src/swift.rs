// SPDX-License-Identifier: GPL-2.0-only
//! Swift: delay-based AIMD window control for the datacenter.
//!
//! G. Kumar, N. Dukkipati, K. Jang, H. M. G. Wassel, X. Wu, B. Montazeri, Y. Wang,
//! K. Springborn, C. Alfeld, M. Ryan, D. Wetherall, A. Vahdat, "Swift: Delay is Simple and
//! Effective for Congestion Control in the Datacenter", ACM SIGCOMM 2020, pp. 514-528,
//! <https://doi.org/10.1145/3387514.3406591>. Paper text: `shared/papers/swift-sigcomm2020.fragment.txt`;
//! implementation spec: `shared/specs/swift-timely-expresspass.md` §2.
//!
//! The law, per window `w` in {fabric window `fcwnd`, endpoint window `ecwnd`} (Alg. 1, §3.3):
//!
//! ```text
//! can_decrease = now - t_last_decrease >= rtt                         (Alg. 1 line 3)
//! ACK:  retransmit_cnt = 0                                              (line 4)
//!       delay < target:  w += ai/w * num_acked   (w >= 1)               (lines 6-8)
//!                        w += ai * num_acked     (w <  1)               (line 10)
//!       else if can_decrease:
//!             w *= max(1 - beta * (delay - target)/delay, 1 - max_mdf)  (lines 11-14)
//! RTO:  retransmit_cnt += 1; >= RETX_RESET_THRESHOLD: w = min_cwnd      (lines 15-19)
//!       else if can_decrease: w *= 1 - max_mdf                          (lines 20-21)
//! Fast recovery: retransmit_cnt = 0; if can_decrease: w *= 1 - max_mdf (lines 22-25)
//! Always: w = clamp(min_cwnd, w, max_cwnd); decreased: t_last_decrease = now (lines 26-28)
//! cwnd = min(fcwnd, ecwnd)                                              (§3.3)
//! cwnd < 1: pace one packet every rtt/cwnd, else ACK-clocked             (lines 29-32, §3.4)
//! fabric target = base_target + hops * h
//!               + clamp(fs_alpha/sqrt(fcwnd) + fs_beta, 0, fs_range)    (§3.5, reconstructed)
//! ```
//!
//! Event mapping: the endpoint delay is the receiver-reported remote queuing plus the local
//! receive delay of the ACK (§3.3, `remote_delay_ns + local_rx_delay_ns`) and the fabric delay
//! is `rtt_ns - endpoint delay` (§3.1, §3.3); an endpoint delay above the RTT is clamped to
//! it. Per ACK: an ACK without a remote delay runs the fabric window on the whole RTT and leaves
//! `ecwnd` alone; after [`ENDPOINT_STALE_ACKS`] such ACKs in a row `ecwnd` expires to its
//! ceiling, so with no receiver channel Swift is exactly fabric-only. Every choice the paper leaves open is listed in
//! `Documentation/algorithms/swift.md`, "Deviations from the paper".
//!
//! Uses `super::fixed` and `super::event` only, so a kernel module can include it with
//! `#[path]` next to those files.

use super::event::{
    AckEvent, Controller, Decision, LossEvent, LossKind, Reason, Report, ACK_APP_LIMITED,
    ACK_DELAYED, ACK_IN_RECOVERY, DEC_ENDPOINT_BINDS, DEC_ENDPOINT_EXPIRED, DEC_REMOTE_CLAMPED,
    DEC_REMOTE_USED, REP_HAS_ENDPOINT,
};
use super::fixed::{
    clamp, ewma, isqrt_near, mul_div, mul_q16, MAX_CWND_PKTS, MAX_DELAY_NS, MAX_MSS_BYTES,
    MAX_RATE_BPS, NS_PER_S, NS_PER_US, PKT_Q20_ONE, PKT_Q20_SHIFT, Q16_ONE,
};

/// Largest window any configuration may use, packets in Q20 (`MAX_CWND_PKTS` packets = 2^40).
pub const MAX_CWND_Q20: u64 = MAX_CWND_PKTS << PKT_Q20_SHIFT;

/// MSS assumed when an event carries MSS 0 and no valid MSS was ever seen: Linux's
/// `TCP_MSS_DEFAULT` (536 bytes, RFC 9293 §3.7.1).
pub const FALLBACK_MSS_BYTES: u32 = 536;

/// An endpoint delay may exceed the RTT sample by this much without being flagged as
/// nonsensical: Linux reports the RTT in whole µs, truncated, while the option carries ns. Any
/// excess is clamped to the RTT (deviation D8); beyond the slack the decision is flagged
/// `DEC_REMOTE_CLAMPED` so hosts count broken or forged reports.
pub const REMOTE_SLACK_NS: u64 = NS_PER_US;

/// Consecutive ACKs with an RTT sample but no remote delay after which the endpoint
/// window expires (back to `max_cwnd`, EWMA forgotten): a receiver that stopped reporting
/// (program detached, option space full for a long stretch) must not leave a stale `ecwnd`
/// binding for ever (deviation D8b).
pub const ENDPOINT_STALE_ACKS: u8 = 16;

/// Shift from "packets Q20 times bytes" to "bytes Q16" (`PKT_Q20_SHIFT - BYTES_Q16_SHIFT`).
const Q20_TO_Q16_BYTES_DIV: u64 = 1 << 4;

#[path = "swift_params.rs"]
mod swift_params;
pub use swift_params::{check_shared, Config, Params, SharedFields, PARAMS_ABI};

/// `1/sqrt(w)` for a window `w` in packets Q20, result in Q20 (packets^-1/2).
///
/// `isqrt(w_q20 << 20) = sqrt(w) * 2^20` (exact to one unit, so 1e-6 relative at 0.1 packet), and
/// `2^40 / (sqrt(w) * 2^20) = 2^20 / sqrt(w)`. Range: `w_q20 <= MAX_CWND_Q20 = 2^40`, so the
/// shifted value is at most 2^60; the result is at most 2^30 (w = 2^-20 packet). `w_q20 = 0`
/// gives `u64::MAX`.
pub fn inv_sqrt_q20(w_q20: u64) -> u64 {
    inv_sqrt_near_q20(w_q20, &mut 0)
}

/// [`inv_sqrt_q20`] with a known root: `*root` is a guess for `isqrt(w << 20)` (0 = none, see
/// [`isqrt_near`]) and receives the root. Same result for every guess.
#[inline(always)]
fn inv_sqrt_near_q20(w_q20: u64, root: &mut u64) -> u64 {
    let w = if w_q20 > MAX_CWND_Q20 {
        MAX_CWND_Q20
    } else {
        w_q20
    };
    *root = isqrt_near(w << PKT_Q20_SHIFT, *root);
    mul_div(1 << 40, 1, *root)
}

/// Flow-based scaling term of the fabric target, ns (§3.5, reconstructed in spec §2.4(a)):
/// `clamp(fs_alpha/sqrt(fcwnd) + fs_beta, 0, fs_range)`.
pub fn flow_scaling_ns(p: &Params, fcwnd_q20: u64) -> u64 {
    flow_scaling_near_ns(p, fcwnd_q20, &mut 0)
}

/// [`flow_scaling_ns`] with a guess of the window's root (see [`inv_sqrt_near_q20`]); `*root`
/// is left alone when the window is outside the scaling range (no root taken).
#[inline(always)]
fn flow_scaling_near_ns(p: &Params, fcwnd_q20: u64, root: &mut u64) -> u64 {
    let range = p.cfg.fs_range_ns;
    if range == 0 || fcwnd_q20 >= p.cfg.fs_max_cwnd_pkts_q20 {
        return 0;
    }
    if fcwnd_q20 <= p.cfg.fs_min_cwnd_pkts_q20 {
        return range;
    }
    // fs_min < fcwnd < fs_max, so inv_max <= inv <= inv_min and the ratio is in [0, 1].
    let inv = inv_sqrt_near_q20(fcwnd_q20, root);
    let num = inv.saturating_sub(p.inv_sqrt_fs_max_q20);
    let den = p.inv_sqrt_fs_min_q20.saturating_sub(p.inv_sqrt_fs_max_q20);
    let extra = mul_div(range, num, den);
    if extra > range {
        range
    } else {
        extra
    }
}

/// Fabric target delay, ns (§3.5): `base_target + hops * h + flow_scaling(fcwnd)`.
/// At most 10 ms + 255 ms + 10 ms, far from overflow.
pub fn target_delay_ns(p: &Params, fcwnd_q20: u64, hops: u8) -> u64 {
    target_delay_near_ns(p, fcwnd_q20, hops, &mut 0)
}

/// [`target_delay_ns`] with a guess of `isqrt(fcwnd_q20 << 20)` in `*root` (0 = none), which
/// receives the root when one is taken: the same target, with no division for the root when
/// the guess is it (issue #13).
#[inline(always)]
fn target_delay_near_ns(p: &Params, fcwnd_q20: u64, hops: u8, root: &mut u64) -> u64 {
    p.cfg
        .base_target_ns
        .saturating_add(p.cfg.per_hop_ns.saturating_mul(hops as u64)) // §3.5 topology scaling
        .saturating_add(flow_scaling_near_ns(p, fcwnd_q20, root)) // §3.5 flow scaling
}

/// The fabric target for `s.fcwnd_q20` and `s.hops`, using and refreshing the state's cached
/// root of the window ([`State::root_hint`]): the decision of one ACK takes the root of the
/// window it leaves, and the next ACK's target is for that same window, so the root is found
/// by two multiplications instead of a square root.
#[inline(always)]
fn target_cached_ns(p: &Params, s: &mut State) -> u64 {
    let mut root = s.root_hint();
    let t = target_delay_near_ns(p, s.fcwnd_q20, s.hops, &mut root);
    s.set_root_hint(root);
    t
}

/// Multiplicative-decrease factor, Q16 (Alg. 1 line 12, Snyder & Lebeck Eq. 1 with the floor
/// read as `1 - max_mdf`): `max(1 - beta * (delay - target)/delay, 1 - max_mdf)`.
///
/// `beta_q16 * (delay - target)` is at most 2^16 * 2^34 = 2^50 for clamped delays, and the
/// quotient is at most `beta_q16 <= 2^16`; one rounding (down) of the cut. `delay < target`
/// gives 1.0 (no decrease).
pub fn md_factor_q16(delay_ns: u64, target_ns: u64, beta_q16: u64, max_mdf_q16: u64) -> u64 {
    let excess = delay_ns.saturating_sub(target_ns);
    let cut = mul_div(beta_q16, excess, delay_ns); // delay = 0 implies excess = 0: cut = 0
    let cut = if cut > max_mdf_q16 { max_mdf_q16 } else { cut };
    Q16_ONE.saturating_sub(cut)
}

/// Additive increase for one ACK, packets Q20 (Alg. 1 lines 7-10): `ai/w * acked` when
/// `w >= 1` packet, `ai * acked` below one packet. Rounds down; saturates (the caller clamps).
pub fn additive_increase_q20(w_q20: u64, ai_q20: u64, acked_q20: u64) -> u64 {
    if w_q20 >= PKT_Q20_ONE {
        mul_div(ai_q20, acked_q20, w_q20) // Alg. 1 line 8: ai/cwnd per acked packet
    } else {
        mul_div(ai_q20, acked_q20, PKT_Q20_ONE) // Alg. 1 line 10: ai per acked packet
    }
}

/// Bytes acknowledged converted to packets Q20 (`num_acked` of Alg. 1), capped at
/// [`MAX_CWND_Q20`]: `acked << 20` is below 2^52 and the cap keeps later products small.
pub fn acked_pkts_q20(acked_bytes: u32, mss_bytes: u32) -> u64 {
    let v = mul_div(acked_bytes as u64, PKT_Q20_ONE, mss_bytes as u64);
    if v > MAX_CWND_Q20 {
        MAX_CWND_Q20
    } else {
        v
    }
}

/// A window in packets Q20 as bytes Q16 (the `Decision` unit): `w_q20 * mss >> 4`, rounded
/// down. At most 2^40 * 2^16 = 2^56.
pub fn window_bytes_q16(w_q20: u64, mss_bytes: u32) -> u64 {
    mul_div(w_q20, mss_bytes as u64, Q20_TO_Q16_BYTES_DIV)
}

/// Pacing rate for a window below one packet, bytes/s (Alg. 1 lines 29-30, §3.4: one packet
/// every `rtt/cwnd`, i.e. `cwnd * mss / rtt`); 0 (ACK-clocked, not paced) at or above one
/// packet (line 31). Clamped to [1, `MAX_RATE_BPS`] when paced, so a paced flow never reads as
/// "unpaced". `w_q20 * mss < 2^36`; `rtt << 20 < 2^54`; `mul_div` takes the 2^66 product.
pub fn pacing_rate_bps(w_q20: u64, mss_bytes: u32, rtt_ns: u64) -> u64 {
    if w_q20 >= PKT_Q20_ONE {
        return 0;
    }
    let rtt = clamp(rtt_ns, 1, MAX_DELAY_NS);
    let bytes_q20 = w_q20.saturating_mul(mss_bytes as u64);
    let r = mul_div(bytes_q20, NS_PER_S, rtt << PKT_Q20_SHIFT);
    clamp(r, 1, MAX_RATE_BPS)
}

/// The MSS to use for an event: the event's value clamped to `MAX_MSS_BYTES`, or for 0 the
/// last valid one (`stored`), or [`FALLBACK_MSS_BYTES`].
pub fn resolve_mss(ev_mss: u32, stored: u32) -> u32 {
    if ev_mss == 0 {
        if stored == 0 {
            FALLBACK_MSS_BYTES
        } else {
            stored
        }
    } else if ev_mss > MAX_MSS_BYTES {
        MAX_MSS_BYTES
    } else {
        ev_mss
    }
}

/// An RTT sample clamped to [1, `MAX_DELAY_NS`] (0 is bogus; huge samples are clock jumps).
pub fn clamp_rtt_ns(rtt_ns: u64) -> u64 {
    clamp(rtt_ns, 1, MAX_DELAY_NS)
}

/// Alg. 1 line 3, `now - t_last_decrease >= rtt`. A clock that went backwards re-anchors
/// `t_last_decrease` at `now` (no time has passed).
pub fn can_decrease(now_ns: u64, t_last_decrease_ns: &mut u64, rtt_ns: u64) -> bool {
    match now_ns.checked_sub(*t_last_decrease_ns) {
        Some(elapsed) => elapsed >= rtt_ns,
        None => {
            *t_last_decrease_ns = now_ns;
            rtt_ns == 0
        }
    }
}

const F_INIT: u8 = 1 << 0;
const F_HAS_EWMA: u8 = 1 << 1;
const F_UNDO_ARMED: u8 = 1 << 2;
/// The latest ACK with an RTT sample carried a remote delay.
const F_REMOTE_USED: u8 = 1 << 3;
/// The increase lease's bits (`swift_lease.rs`), set only by its grant, between law calls.
const F_LEASE: u8 = 1 << 4;
const F_LEASE_SUB: u8 = 1 << 5;
const F_LEASE_MIN: u8 = 1 << 6;
/// The remote-delay regime's lease (`swift_lease.rs`; `F_LEASE` is then clear, so the fast path
/// of the other regime never reads these terms): granted under an endpoint EWMA, its terms in
/// `undo_fcwnd_q20` and in the bits of `endpoint_delay_ewma_ns` above [`EWMA_MASK`].
const F_LEASE_REMOTE: u8 = 1 << 7;

/// Per-flow Swift state (72 bytes: exactly `CORE_STATE_BUDGET`). All-zero is "not
/// initialised": every handler initialises lazily.
///
/// `#[repr(C)]` because the increase lease's C fast path (issue #13; `swift_lease.rs`,
/// modules/glue/rdcc_lease_swift.h) steps it in place as `struct rdcc_swift_state`
/// (rdcc_abi.h; core/tests/abi_offsets.rs checks the layout through [`STATE_ABI`]). While
/// `F_LEASE` is set (only between calls of the law, never seen by it: the glue ends the lease
/// before any law call), `endpoint_delay_ewma_ns` and `undo_fcwnd_q20`, which are dead then
/// (no EWMA, no undo armed: the grant's premises), hold the lease's terms.
#[repr(C)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct State {
    /// Fabric window, packets Q20, in [min_cwnd, max_cwnd] once initialised.
    fcwnd_q20: u64,
    /// Endpoint window, packets Q20; starts at max_cwnd (the non-binding ceiling, §3.3 fn. 3).
    ecwnd_q20: u64,
    /// Time of the last fabric-window decrease, ns.
    t_last_decrease_f_ns: u64,
    /// Time of the last endpoint-window decrease, ns.
    t_last_decrease_e_ns: u64,
    /// Latest RTT sample, ns (0 = none yet), in bits 0..34 (`RTT_MASK`: samples are clamped to
    /// `MAX_DELAY_NS` = 10^10 < 2^34), and in bits 34..64 a cached `isqrt(w << 20)` of a
    /// recent fabric window `w` (0 = none): a hint only, checked before use, so any value is
    /// valid (issue #13: the 72-byte budget has no other room for it). Accessors:
    /// [`State::rtt_ns`], [`State::root_hint`].
    rtt_root: u64,
    /// EWMA of the endpoint delay, ns (valid with `F_HAS_EWMA`), in bits 0..34 (`EWMA_MASK`:
    /// every sample is clamped to the RTT, at most `MAX_DELAY_NS` < 2^34, and an average stays
    /// between its samples); the bits above are 0 but under a lease. With `F_LEASE` and no
    /// EWMA, the lease's targets; with `F_LEASE_REMOTE`, the lease's window bound above
    /// `EWMA_MASK`.
    endpoint_delay_ewma_ns: u64,
    /// Fabric window before the first loss reaction of the open loss episode (valid with
    /// `F_UNDO_ARMED`; with `F_LEASE`, the lease's window bound and AI).
    undo_fcwnd_q20: u64,
    /// Last valid MSS, bytes (0 = none yet).
    mss_bytes: u32,
    /// Bytes acknowledged by ACKs whose delay could not be used (no RTT sample, or a possibly
    /// delayed ACK above target), carried to the next usable sample's additive increase so a
    /// flow below target still gains `ai` per RTT however its ACKs are flagged (deviation D12b).
    pending_acked_bytes: u32,
    /// Fabric delay of the latest ACK with an RTT sample, ns, saturating (for `report`).
    fabric_delay_ns: u32,
    /// Consecutive RTOs (Alg. 1 line 16), saturating.
    retransmit_cnt: u8,
    /// Forward hop count (from `ACK_HAS_HOPS` or `default_hops`).
    hops: u8,
    /// `F_*` bits.
    flags: u8,
    /// ACKs in a row with an RTT sample but no remote delay while an endpoint EWMA exists
    /// (saturating; not counted without one, when nothing reads it); at
    /// [`ENDPOINT_STALE_ACKS`] the endpoint window expires.
    endpoint_misses: u8,
}

// The kernel's get_info reads this state without the socket lock: its copy may mix versions or
// hold another algorithm's bytes, so every field is an integer (event::AnyBitPattern, which the
// glue requires of every module's law).
super::event::any_bit_pattern!(State {
    fcwnd_q20,
    ecwnd_q20,
    t_last_decrease_f_ns,
    t_last_decrease_e_ns,
    rtt_root,
    endpoint_delay_ewma_ns,
    undo_fcwnd_q20,
    mss_bytes,
    pending_acked_bytes,
    fabric_delay_ns,
    retransmit_cnt,
    hops,
    flags,
    endpoint_misses,
});

const _: () = assert!(core::mem::size_of::<State>() <= super::event::CORE_STATE_BUDGET);

/// Bits of `State::rtt_root` that hold the RTT (the rest hold the root hint).
const RTT_BITS: u32 = 34;
/// Mask of the RTT's bits of `State::rtt_root` (C: `RDCC_SWIFT_RTT_MASK`).
pub const RTT_MASK: u64 = (1 << RTT_BITS) - 1;
const _: () = assert!(MAX_DELAY_NS <= RTT_MASK);
/// Bits of `State::endpoint_delay_ewma_ns` that hold the EWMA (the rest hold a remote-delay
/// lease's window bound, `F_LEASE_REMOTE`). C: `RDCC_SWIFT_EWMA_MASK`.
pub const EWMA_BITS: u32 = 34;
/// Mask of the EWMA's bits of `State::endpoint_delay_ewma_ns`.
pub const EWMA_MASK: u64 = (1 << EWMA_BITS) - 1;
const _: () = assert!(MAX_DELAY_NS <= EWMA_MASK);
/// Largest root hint that fits the 30 remaining bits.
const ROOT_HINT_MAX: u64 = (1 << (64 - RTT_BITS)) - 1;

impl State {
    /// Store an RTT (at most `MAX_DELAY_NS`: callers clamp), keeping the root hint.
    fn set_rtt_ns(&mut self, rtt_ns: u64) {
        self.rtt_root = (self.rtt_root & !RTT_MASK) | (rtt_ns & RTT_MASK);
    }
    /// The cached root of a recent fabric window, 0 = none (a guess for [`isqrt_near`]).
    fn root_hint(&self) -> u64 {
        self.rtt_root >> RTT_BITS
    }
    /// Cache a root (one above 2^30 - 1, a window beyond 2^20 packets, is not cached).
    fn set_root_hint(&mut self, root: u64) {
        let r = if root > ROOT_HINT_MAX { 0 } else { root };
        self.rtt_root = (r << RTT_BITS) | (self.rtt_root & RTT_MASK);
    }
    /// Has the state been initialised (by `init` or lazily)?
    pub fn initialised(&self) -> bool {
        self.flags & F_INIT != 0
    }
    /// Fabric window, packets Q20.
    pub fn fcwnd_pkts_q20(&self) -> u64 {
        self.fcwnd_q20
    }
    /// Endpoint window, packets Q20.
    pub fn ecwnd_pkts_q20(&self) -> u64 {
        self.ecwnd_q20
    }
    /// Latest RTT sample, ns.
    pub fn rtt_ns(&self) -> u64 {
        self.rtt_root & RTT_MASK
    }
    /// Last valid MSS seen, bytes (0 before any).
    pub fn mss_bytes(&self) -> u32 {
        self.mss_bytes
    }
    /// Consecutive retransmit timeouts.
    pub fn retransmit_cnt(&self) -> u8 {
        self.retransmit_cnt
    }
    /// Hop count in use.
    pub fn hops(&self) -> u8 {
        self.hops
    }
    /// Endpoint-delay EWMA, ns, if a remote delay was ever seen.
    pub fn endpoint_delay_ewma_ns(&self) -> Option<u64> {
        if self.flags & F_HAS_EWMA != 0 {
            // Masked: a remote-delay lease keeps its window bound above the EWMA's bits.
            Some(self.endpoint_delay_ewma_ns & EWMA_MASK)
        } else {
            None
        }
    }
}

/// The Swift controller.
#[derive(Clone, Copy, Debug, Default)]
pub struct Swift;

fn init_state(p: &Params, s: &mut State, now_ns: u64, mss_bytes: u32) {
    let c = &p.cfg;
    *s = State {
        fcwnd_q20: c.init_cwnd_pkts_q20,
        ecwnd_q20: c.max_cwnd_pkts_q20,
        t_last_decrease_f_ns: now_ns,
        t_last_decrease_e_ns: now_ns,
        rtt_root: 0,
        endpoint_delay_ewma_ns: 0,
        undo_fcwnd_q20: 0,
        mss_bytes: resolve_mss(mss_bytes, 0),
        retransmit_cnt: 0,
        hops: c.default_hops as u8, // validated <= 255
        flags: F_INIT,
        pending_acked_bytes: 0,
        fabric_delay_ns: 0,
        endpoint_misses: 0,
    };
}

#[inline(always)]
fn ensure_init(p: &Params, s: &mut State, now_ns: u64, mss_bytes: u32) {
    if !s.initialised() {
        init_state(p, s, now_ns, mss_bytes);
    }
}

fn clamp_window(p: &Params, w_q20: u64) -> u64 {
    clamp(w_q20, p.cfg.min_cwnd_pkts_q20, p.cfg.max_cwnd_pkts_q20) // Alg. 1 line 26
}

/// Alg. 1 lines 27-28 for one window.
fn refresh_guard(p: &Params, t_last_ns: &mut u64, now_ns: u64, new_q20: u64, prev_q20: u64) {
    let decreased = if p.cfg.literal_decrease_guard != 0 {
        new_q20 <= prev_q20 // the paper's line 27 as printed
    } else {
        new_q20 < prev_q20 || new_q20 <= p.cfg.min_cwnd_pkts_q20
    };
    if decreased {
        *t_last_ns = now_ns;
    }
}

/// One delay-driven step of Alg. 1 (lines 6-14) for one window; returns the clamped window
/// and the reason.
#[inline(always)]
fn window_step(
    p: &Params,
    w_q20: u64,
    delay_ns: u64,
    target_ns: u64,
    acked_q20: u64,
    can_dec: bool,
    app_limited: bool,
) -> (u64, Reason) {
    let c = &p.cfg;
    if delay_ns < target_ns {
        // Alg. 1 line 6. An application-limited flow does not grow (Linux convention).
        if app_limited {
            return (clamp_window(p, w_q20), Reason::Hold);
        }
        let inc = additive_increase_q20(w_q20, c.ai_pkts_q20, acked_q20);
        (
            clamp_window(p, w_q20.saturating_add(inc)),
            Reason::AdditiveIncrease,
        )
    } else if can_dec {
        // Alg. 1 line 12.
        let f = md_factor_q16(delay_ns, target_ns, c.beta_q16, c.max_mdf_q16);
        (
            clamp_window(p, mul_q16(w_q20, f)),
            Reason::MultiplicativeDecrease,
        )
    } else {
        (clamp_window(p, w_q20), Reason::DecreaseGuarded)
    }
}

/// Endpoint delay of an ACK for the split (§3.3): `remote + local_rx` (the receiver's queuing
/// plus this host's receive delay of the ACK, `t6 - t5`), clamped to the RTT (D8); `None` when
/// the ACK carries no remote delay. The flag is true when the unclamped value exceeded the RTT
/// by more than [`REMOTE_SLACK_NS`] (a nonsensical report, counted by hosts).
///
/// Clamping (rather than ignoring) keeps the window monotone in the delay: the fabric delay
/// `rtt - min(e, rtt)` and the endpoint delay `min(e, rtt)` never fall when the RTT grows.
pub fn endpoint_delay_ns(ev: &AckEvent, rtt_ns: u64) -> Option<(u64, bool)> {
    let remote = ev.remote_delay()?;
    let d = remote.saturating_add(ev.local_rx_delay().unwrap_or(0));
    if d > rtt_ns {
        Some((rtt_ns, d > rtt_ns.saturating_add(REMOTE_SLACK_NS)))
    } else {
        Some((d, false))
    }
}

fn decide(p: &Params, s: &State, mss_bytes: u32, reason: Reason) -> Decision {
    decide_with(p, s, mss_bytes, reason, 0, None)
}

/// The fabric target for the decision: `known = Some((fcwnd_q20, target_ns))` is a target the
/// caller already computed for the same hop count; it is reused when the window has not moved
/// since (a guarded or clamped ACK), saving a second square root per ACK (issue #13). The
/// result is `target_delay_ns(p, s.fcwnd_q20, s.hops)` either way.
#[inline(always)]
fn decision_target(p: &Params, s: &State, known: Option<(u64, u64)>) -> u64 {
    match known {
        Some((w, t)) if w == s.fcwnd_q20 => t,
        _ => target_delay_ns(p, s.fcwnd_q20, s.hops),
    }
}

#[inline(always)]
fn decide_with(
    p: &Params,
    s: &State,
    mss_bytes: u32,
    reason: Reason,
    flags: u32,
    known_target: Option<(u64, u64)>,
) -> Decision {
    let w = clamp_window(
        p,
        if s.ecwnd_q20 < s.fcwnd_q20 {
            s.ecwnd_q20
        } else {
            s.fcwnd_q20
        }, // §3.3: min(fcwnd, ecwnd)
    );
    let target = decision_target(p, s, known_target);
    // Before the first RTT sample the target stands in for the RTT (it is the RTT the law aims
    // at).
    let rtt = if s.rtt_ns() == 0 { target } else { s.rtt_ns() };
    Decision {
        cwnd_bytes_q16: window_bytes_q16(w, mss_bytes),
        pacing_rate_bps: pacing_rate_bps(w, mss_bytes, rtt),
        signal: target as i64, // <= 275 ms in ns: fits
        reason,
        flags: flags | binds(s),
    }
}

fn binds(s: &State) -> u32 {
    if s.ecwnd_q20 < s.fcwnd_q20 {
        DEC_ENDPOINT_BINDS
    } else {
        0
    }
}

fn loss_reaction(p: &Params, s: &mut State, ev: &LossEvent) -> Reason {
    let now = ev.now_ns;
    let prev = s.fcwnd_q20; // Alg. 1 line 2
    let rtt = s.rtt_ns();
    let can_dec = can_decrease(now, &mut s.t_last_decrease_f_ns, rtt); // line 3
    if s.flags & F_UNDO_ARMED == 0 {
        s.undo_fcwnd_q20 = s.fcwnd_q20;
        s.flags |= F_UNDO_ARMED;
    }
    let reason = match ev.kind {
        LossKind::RetransmitTimeout => {
            s.retransmit_cnt = s.retransmit_cnt.saturating_add(1); // line 16
            if s.retransmit_cnt as u64 >= p.cfg.retx_reset_threshold {
                s.fcwnd_q20 = p.cfg.min_cwnd_pkts_q20; // line 18
                Reason::RetransmitReset
            } else if can_dec {
                s.fcwnd_q20 = mul_q16(s.fcwnd_q20, p.loss_factor_q16); // line 21
                Reason::RetransmitTimeout
            } else {
                Reason::DecreaseGuarded
            }
        }
        LossKind::FastRecovery => {
            s.retransmit_cnt = 0; // line 23
            if can_dec {
                s.fcwnd_q20 = mul_q16(s.fcwnd_q20, p.loss_factor_q16); // line 25
                Reason::FastRecovery
            } else {
                Reason::DecreaseGuarded
            }
        }
    };
    s.fcwnd_q20 = clamp_window(p, s.fcwnd_q20); // line 26
    refresh_guard(p, &mut s.t_last_decrease_f_ns, now, s.fcwnd_q20, prev); // line 27
    reason
}

impl Controller for Swift {
    type Params = Params;
    type State = State;

    fn init(p: &Params, s: &mut State, now_ns: u64, mss_bytes: u32) -> Decision {
        init_state(p, s, now_ns, mss_bytes);
        decide(p, s, s.mss_bytes, Reason::Init)
    }

    // Inlined into the trampolines (issue #13): tcp_swift has two, rdcc_rs_on_ack and the
    // leased rdcc_rs_on_ack_swift, and a plain #[inline] left the law out of line in both.
    // Its per-ACK helpers (`ensure_init`, the target's chain, `window_step`, `decide_with`)
    // are `#[inline(always)]` too: the kernel's build called them out of line, and the calls
    // and register saves cost about 125 instructions per ACK on the full path (round 9).
    #[inline(always)]
    fn on_ack(p: &Params, s: &mut State, ev: &AckEvent) -> Decision {
        ensure_init(p, s, ev.now_ns, ev.mss_bytes);
        let mss = resolve_mss(ev.mss_bytes, s.mss_bytes);
        s.mss_bytes = mss;
        if !ev.has(ACK_IN_RECOVERY) {
            s.flags &= !F_UNDO_ARMED; // the loss episode is over: nothing left to undo
        }
        if ev.acked_bytes > 0 {
            s.retransmit_cnt = 0; // Alg. 1 line 4 (an ACK of new data)
        }
        if let Some(h) = ev.hop_count() {
            s.hops = h; // §3.5: forward hop count reflected in the ACK
        }
        let Some(raw_rtt) = ev.rtt() else {
            // No delay sample (Karn, dup-ACK): its acked bytes wait for the next sample.
            s.pending_acked_bytes = s.pending_acked_bytes.saturating_add(ev.acked_bytes);
            return decide(p, s, mss, Reason::NoSample);
        };
        // A possibly delayed ACK (the receiver's ACK timer held it) can only overstate the delay:
        // if even the overstated delay is below target, the additive increase is safe; a
        // decrease, or the RTT used for the guard and pacing, must not come from it.
        let delayed = ev.has(ACK_DELAYED);
        let rtt = clamp_rtt_ns(raw_rtt);
        let now = ev.now_ns;
        // Alg. 1 lines 2-3, evaluated before this ACK is processed (with the RTT known so far).
        let prev_f = s.fcwnd_q20;
        let prev_e = s.ecwnd_q20;
        let rtt_before = s.rtt_ns();
        let can_f = can_decrease(now, &mut s.t_last_decrease_f_ns, rtt_before) && !delayed;
        let can_e = can_decrease(now, &mut s.t_last_decrease_e_ns, rtt_before) && !delayed;
        if !delayed {
            s.set_rtt_ns(rtt); // clamped to MAX_DELAY_NS above
        }
        // §3.1/§3.3: endpoint delay = remote queuing + local Rx of the ACK; fabric delay =
        // RTT - endpoint delay. Per ACK: no remote delay means fabric-only on the
        // whole RTT for this ACK; nothing from an earlier ACK is reused (D8, D8b).
        let mut dflags = 0u32;
        let remote = match endpoint_delay_ns(ev, rtt) {
            Some((d, nonsense)) => {
                if nonsense {
                    dflags |= DEC_REMOTE_CLAMPED;
                }
                Some(d)
            }
            None => None,
        };
        let fabric = rtt.saturating_sub(remote.unwrap_or(0));
        s.fabric_delay_ns = if fabric > u32::MAX as u64 {
            u32::MAX
        } else {
            fabric as u32
        };
        if remote.is_some() {
            s.endpoint_misses = 0;
            s.flags |= F_REMOTE_USED;
            dflags |= DEC_REMOTE_USED;
        } else {
            s.flags &= !F_REMOTE_USED;
            // Counted only while an EWMA exists: its expiry is the counter's only reader, and
            // the remote delay that starts an EWMA resets it, so without one the count is
            // unobservable (the increase lease's fast path then stores nothing here, issue #13).
            if s.flags & F_HAS_EWMA != 0 {
                s.endpoint_misses = s.endpoint_misses.saturating_add(1);
                if s.endpoint_misses >= ENDPOINT_STALE_ACKS {
                    // D8b: the receiver stopped reporting: the endpoint window no longer binds.
                    s.ecwnd_q20 = p.cfg.max_cwnd_pkts_q20;
                    s.endpoint_delay_ewma_ns = 0;
                    s.flags &= !F_HAS_EWMA;
                    s.t_last_decrease_e_ns = now;
                    dflags |= DEC_ENDPOINT_EXPIRED;
                }
            }
        }
        let app_limited = ev.has(ACK_APP_LIMITED);

        let target = target_cached_ns(p, s); // Alg. 1 line 5, §3.5 (root cached: see there)
        if delayed && fabric >= target && remote.is_none() {
            // A possibly delayed sample above target says nothing (see above): keep its acked
            // bytes for the next usable sample and hold the window.
            s.pending_acked_bytes = s.pending_acked_bytes.saturating_add(ev.acked_bytes);
            let known = Some((s.fcwnd_q20, target));
            return decide_with(p, s, mss, Reason::DecreaseGuarded, dflags, known);
        }
        // num_acked (Alg. 1 line 8) includes the bytes of ACKs that carried no usable delay.
        let acked = acked_pkts_q20(ev.acked_bytes.saturating_add(s.pending_acked_bytes), mss);
        s.pending_acked_bytes = 0;
        let (f, reason_f) = window_step(p, prev_f, fabric, target, acked, can_f, app_limited);
        s.fcwnd_q20 = f;
        refresh_guard(p, &mut s.t_last_decrease_f_ns, now, f, prev_f);

        let mut reason = reason_f;
        // A possibly delayed ACK's endpoint delay includes the receiver's delayed-ACK timer
        // (up to tens of ms on Linux), which is not queuing: it stays out of the endpoint EWMA
        // and ecwnd (D12c). Its fabric delay above is exact (the hold is in the endpoint part).
        let endpoint_sample = if delayed { None } else { remote };
        if let Some(r) = endpoint_sample {
            // §3.3: EWMA-filtered endpoint delay drives ecwnd against its own target.
            let d = if s.flags & F_HAS_EWMA != 0 {
                ewma(s.endpoint_delay_ewma_ns, r, p.cfg.endpoint_ewma_q16)
            } else {
                r
            };
            s.endpoint_delay_ewma_ns = d;
            s.flags |= F_HAS_EWMA;
            let (e, reason_e) = window_step(
                p,
                prev_e,
                d,
                p.cfg.endpoint_target_ns,
                acked,
                can_e,
                app_limited,
            );
            s.ecwnd_q20 = e;
            refresh_guard(p, &mut s.t_last_decrease_e_ns, now, e, prev_e);
            if e < f {
                reason = reason_e; // the endpoint window is the binding one
            }
        }
        // The decision reports the target of the window it leaves; computing it here caches
        // that window's root for the next ACK's target (target_cached_ns).
        let target_after = if s.fcwnd_q20 == prev_f {
            target
        } else {
            target_cached_ns(p, s)
        };
        decide_with(p, s, mss, reason, dflags, Some((s.fcwnd_q20, target_after)))
    }

    fn on_loss(p: &Params, s: &mut State, ev: &LossEvent) -> Decision {
        ensure_init(p, s, ev.now_ns, ev.mss_bytes);
        let mss = resolve_mss(ev.mss_bytes, s.mss_bytes);
        s.mss_bytes = mss;
        let reason = loss_reaction(p, s, ev);
        decide(p, s, mss, reason)
    }

    fn on_idle_restart(p: &Params, s: &mut State, now_ns: u64, mss_bytes: u32) -> Decision {
        // Not specified by the paper (long-lived flows, §3.2): keep the window.
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
        if s.undo_fcwnd_q20 > s.fcwnd_q20 {
            s.fcwnd_q20 = clamp_window(p, s.undo_fcwnd_q20);
        }
        s.retransmit_cnt = 0;
        decide(p, s, mss, Reason::Undo)
    }

    fn current(p: &Params, s: &State, mss_bytes: u32) -> Decision {
        if s.initialised() {
            decide(p, s, resolve_mss(mss_bytes, s.mss_bytes), Reason::Hold)
        } else {
            // What init would give, without changing anything.
            let mut tmp = State::default();
            init_state(p, &mut tmp, 0, mss_bytes);
            decide(p, &tmp, tmp.mss_bytes, Reason::Hold)
        }
    }

    fn report(_p: &Params, s: &State) -> Report {
        let mut flags = binds(s);
        if s.flags & F_REMOTE_USED != 0 {
            flags |= DEC_REMOTE_USED;
        }
        if s.flags & F_HAS_EWMA != 0 {
            flags |= REP_HAS_ENDPOINT;
        }
        Report {
            fabric_delay_ns: s.fabric_delay_ns as u64,
            // Gated and masked: the word may hold a lease's terms (get_info snapshots any state).
            endpoint_delay_ns: s.endpoint_delay_ewma_ns().unwrap_or(0),
            hops: s.hops as u32,
            flags,
        }
    }
}

#[path = "swift_lease.rs"]
pub mod swift_lease;
pub use swift_lease::{on_ack_leased, STATE_ABI, SWIFT_RTT_US_MAX};
