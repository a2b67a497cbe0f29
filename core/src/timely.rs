// SPDX-License-Identifier: GPL-2.0-only
//! TIMELY: RTT-gradient rate control for the datacenter.
//!
//! R. Mittal, V. T. Lam, N. Dukkipati, E. Blem, H. Wassel, M. Ghobadi, A. Vahdat, Y. Wang,
//! D. Wetherall, D. Zats, "TIMELY: RTT-based Congestion Control for the Datacenter",
//! ACM SIGCOMM 2015, <https://doi.org/10.1145/2785956.2787510>. Paper text:
//! `shared/papers/timely-sigcomm2015.txt`; implementation spec:
//! `shared/specs/swift-timely-expresspass.md` §3.
//!
//! The law, run once per *completion event* (Alg. 1, §4.3):
//!
//! ```text
//! new_rtt_diff = new_rtt - prev_rtt; prev_rtt = new_rtt                  (Alg. 1 lines 1-2)
//! rtt_diff     = (1 - alpha) * rtt_diff + alpha * new_rtt_diff           (Alg. 1 line 3)
//! g            = rtt_diff / minRTT                                        (Alg. 1 line 4)
//! new_rtt <  T_low:  R += delta                                           (Alg. 1 lines 5-7)
//! new_rtt >  T_high: R *= 1 - beta * (1 - T_high / new_rtt)               (Alg. 1 lines 8-10)
//! g <= 0:            R += N * delta, N = 5 after 5 negative gradients     (Alg. 1 lines 11-12)
//! g >  0:            R *= 1 - beta * g                                    (Alg. 1 lines 13-14)
//! R = clamp(R, min_rate, line_rate)                  (§5 caps at line rate; floor: spec §3.4)
//! increases only if sending at > 80 % of R           (§5 "Application limited behavior")
//! ```
//!
//! Output: `pacing_rate_bps = R` and a window that does not bind,
//! `cwnd = 2 * R * max(prev_rtt, T_high)`, clamped to
//! `[2 * ceil(max(segment, mss) / mss) * mss, 2^20 * mss]`
//! (the paper's "static worst-case limit" on outstanding data, §3.3).
//!
//! Event mapping: a *completion* is an ACK that brings the bytes acknowledged since the last
//! rate update to at least one segment (`segment_bytes`, 16 KB in §6). A completion updates the
//! rate when its update gate is open: by default once per round trip (the first completion
//! that acknowledges data sent after the previous update, spec §3.4 option B, counted in
//! delivered bytes so that loss recovery does not stop it), which is how this law meets §5's
//! "scale the updates by the number of completions per minimum RTT".
//! Loss is outside the paper (§3): an RTO applies `R *= 1 - rto_beta` and, after
//! `rto_reset_count` RTOs in a row, `R = min_rate` (spec §3.5 extension); fast recovery does
//! not change the rate. Every choice is listed in `Documentation/algorithms/timely.md`,
//! "Deviations from the paper".
//!
//! Uses `super::fixed` and `super::event`; its child `timely_lease.rs` uses the sibling `lease`.
//! A kernel module includes all of them with `#[path]` side by side.

use super::event::{
    AckEvent, Controller, Decision, LossEvent, LossKind, ParamError, Reason, ACK_APP_LIMITED,
    ACK_DELAYED,
};
use super::fixed::{
    clamp, mbps_to_bytes_per_s, mul_div, mul_q16, BYTES_Q16_SHIFT, MAX_CWND_PKTS, MAX_DELAY_NS,
    MAX_MSS_BYTES, MAX_RATE_BPS, NS_PER_S, NS_PER_US, Q16_ONE, Q16_SHIFT,
};

/// Largest line rate a configuration may name, Mbit/s: `MAX_RATE_BPS` (2^40 B/s) / 125,000,
/// rounded down, so every rate the law produces stays at or below `fixed::MAX_RATE_BPS`.
pub const MAX_LINE_RATE_MBPS: u64 = MAX_RATE_BPS / 125_000;

/// Smallest MSS the law assumes, bytes: Linux `TCP_MIN_MSS` (88). An event with MSS 0 or below
/// this uses 88; above `fixed::MAX_MSS_BYTES` uses that. The MSS only shapes the window bounds.
pub const MIN_MSS_BYTES: u32 = 88;

/// Window gain over the rate-delay product: `cwnd = CWND_GAIN * R * max(prev_rtt, T_high)`.
/// Two times the largest RTT the law tolerates without a decrease keeps the window from
/// binding (the rate decides, §3.3 "rate-based rather than window-based").
pub const CWND_GAIN: u64 = 2;

/// The window is at least this many segments (or MSS, whichever is larger), in whole packets:
/// a whole segment must be able to leave as one burst (§3.3), even at the minimum rate, and
/// Linux sends at most half the window's packets per skb (`tcp_cwnd_test`).
pub const CWND_MIN_SEGMENTS: u64 = 2;

/// Staleness horizon, in units of `max(prev_rtt, T_high)`: after this long without a rate
/// update, (a) the round gate ([`UPDATE_PER_ROUND`]) opens even if the round has not ended,
/// so a host that reports a bogus in-flight count cannot freeze the rate, and (b) an idle
/// restart forgets the RTT history, which no longer describes the path.
pub const STALE_RTTS: u64 = 4;

/// `Config::update_mode`: update on the first completion that acknowledges data sent after the
/// previous update: more bytes delivered (acked or SACKed) since it than were in flight right
/// after it (one update per round trip; spec §3.4 option B, recommended for Linux).
pub const UPDATE_PER_ROUND: u64 = 0;
/// `Config::update_mode`: update on the first completion at least `min_rtt_ns` after the
/// previous update (enforces §5's "at most one completion event per \[minimum\] RTT interval").
pub const UPDATE_PER_MIN_RTT: u64 = 1;
/// `Config::update_mode`: update on every completion (Alg. 1 literally; right when a segment
/// takes longer than minRTT to send, e.g. 64 KB at 10 Gbit/s, §5).
pub const UPDATE_PER_COMPLETION: u64 = 2;

/// Raw TIMELY parameters as a host (module parameters, simulator scenario) supplies them.
/// Validate with [`Params::new`]. All fields are plain integers; flags are 0 or 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Segment size that makes a completion event, bytes (§3.1, §6: 16 KB; at most 64 KB with
    /// NIC offload, §3.3). Range [1, 1 MiB].
    pub segment_bytes: u64,
    /// `T_low`: below it the rate always increases by `delta` (Alg. 1 line 5), ns. 0 disables
    /// the low guard ("no T_low", Fig. 15). Range [0, `MAX_DELAY_NS`].
    pub t_low_ns: u64,
    /// `T_high`: above it the rate decreases in proportion to the excess (Alg. 1 line 8), ns.
    /// Range [max(T_low, 1 µs), `MAX_DELAY_NS`]. `T_low == T_high` gives §4.4's queue-target mode.
    pub t_high_ns: u64,
    /// `minRTT`: the fixed normaliser of the gradient (Alg. 1 line 4, §4.3), ns. Range
    /// [1 µs, `MAX_DELAY_NS`].
    pub min_rtt_ns: u64,
    /// `alpha`: EWMA weight of a new RTT difference, Q16 (Alg. 1 line 3; value not in the paper).
    /// Range (0, 1.0].
    pub alpha_q16: u64,
    /// `beta`: multiplicative decrement factor, Q16 (Alg. 1 lines 10 and 14). Range (0, 1.0].
    pub beta_q16: u64,
    /// `delta`: additive increment per update, Mbit/s (Alg. 1 line 6). Range [1, line rate].
    pub delta_mbps: u64,
    /// Consecutive negative-gradient completions that enter hyperactive increase (Alg. 1
    /// line 12 comment: "five completion events"). Range [1, 1000].
    pub hai_threshold: u64,
    /// `N`: increment multiplier in hyperactive increase (Alg. 1 line 12). 1 disables HAI.
    /// Range [1, 1000].
    pub hai_factor: u64,
    /// 1 = the `T_low` branch also counts toward, and uses, hyperactive increase (as a
    /// third-party ns-3 model does); 0 = Alg. 1 literally (plain `delta`, count untouched).
    /// Range [0, 1].
    pub hai_in_low_guard: u64,
    /// Line rate: the rate ceiling (§5 "cap the maximum target rate at 10 Gbps"), Mbit/s.
    /// Range [1, `MAX_LINE_RATE_MBPS`].
    pub line_rate_mbps: u64,
    /// Rate floor, Mbit/s (not in the paper; spec §3.3). Range [1, line rate].
    pub min_rate_mbps: u64,
    /// Rate at connection start, Mbit/s (not in the paper). Range [min rate, line rate].
    pub init_rate_mbps: u64,
    /// Increase only while the measured sending rate exceeds this fraction of `R`, Q16 (§5:
    /// "more than 80% of the target rate"); 0 disables the application-limited rule. Range
    /// [0, 1.0].
    pub app_limit_q16: u64,
    /// When a completion may update the rate: [`UPDATE_PER_ROUND`], [`UPDATE_PER_MIN_RTT`] or
    /// [`UPDATE_PER_COMPLETION`] (§5 "rate update frequency", spec §3.4). Range [0, 2].
    pub update_mode: u64,
    /// Rate decrease on a retransmission timeout, Q16: `R *= 1 - rto_beta` (extension, spec
    /// §3.5; TIMELY itself ignores loss, §3). 0 disables it. Range [0, 1.0].
    pub rto_beta_q16: u64,
    /// Consecutive RTOs after which the rate drops to the minimum (extension, spec §3.5);
    /// 0 disables it. Range [0, 255].
    pub rto_reset_count: u64,
    /// 1 = an ACK flagged `ACK_DELAYED` carries no usable RTT (its sample includes receiver
    /// delay, which TIMELY's NIC ACKs never have, §3.1). Range [0, 1].
    pub skip_delayed_acks: u64,
}

impl Config {
    /// The paper's settings. Sources: \[P §x\] the TIMELY paper, \[S\] the spec
    /// (`swift-timely-expresspass.md` §3), \[I\] this project's engineering choice.
    pub const DEFAULT: Config = Config {
        segment_bytes: 16_384,         // 16 KB [P §6 "segment size of 16 KB"]
        t_low_ns: 50 * NS_PER_US,      // 50 µs [P §6]
        t_high_ns: 500 * NS_PER_US,    // 500 µs [P §6]
        min_rtt_ns: 20 * NS_PER_US,    // 20 µs [P §5 "minimum RTT of 20 µs"]
        alpha_q16: 57_344,             // 0.875 [S §3.3, from an ns-3 model; not in P]
        beta_q16: 52_429,              // 0.8 = 52428.8 -> 52429 [P §6]
        delta_mbps: 10,                // 10 Mbit/s [P §6 "additive increment of 10 Mbps"]
        hai_threshold: 5,              // five completions [P Alg. 1 line 12, §6.1]
        hai_factor: 5,                 // N = 5 [P Alg. 1 line 12]
        hai_in_low_guard: 0,           // Alg. 1 as written [S §3.4]
        line_rate_mbps: 10_000,        // 10 Gbit/s [P §5, §6 "All links are 10 Gbps"]
        min_rate_mbps: 10,             // 10 Mbit/s = one delta [S §3.3, I]
        init_rate_mbps: 10_000,        // line rate [S §3.2, I; RDMA NICs start at line rate]
        app_limit_q16: 52_429,         // 0.8 [P §5]
        update_mode: UPDATE_PER_ROUND, // [S §3.4 option B]
        rto_beta_q16: 52_429,          // R *= 0.2 on RTO [S §3.5 extension, I]
        rto_reset_count: 3,            // [I] like Swift's RETX_RESET_THRESHOLD
        skip_delayed_acks: 0,          // [I] off: Linux mode may turn it on
    };
}

impl Default for Config {
    fn default() -> Self {
        Config::DEFAULT
    }
}

/// Validated parameters with derived constants (rates in bytes/s, computed once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    segment_bytes: u64,
    t_low_ns: u64,
    t_high_ns: u64,
    min_rtt_ns: u64,
    alpha_q16: u64,
    beta_q16: u64,
    /// `delta` in bytes/s (Alg. 1 line 6), from Mbit/s once here.
    delta_bps: u64,
    /// `N * delta` in bytes/s (Alg. 1 line 12), at most 1000 * 2^40 < 2^50.
    hai_delta_bps: u64,
    hai_threshold: u16,
    hai_in_low_guard: bool,
    min_rate_bps: u64,
    max_rate_bps: u64,
    init_rate_bps: u64,
    app_limit_q16: u64,
    update_mode: u64,
    /// `1 - rto_beta`, Q16.
    rto_keep_q16: u64,
    rto_reset_count: u8,
    skip_delayed_acks: bool,
    /// Key of the state's hold cache: `T_high | minRTT << 32` when both are below 2^32 ns, else
    /// [`NO_HOLD_KEY`] (no cache). Exact, and never 0 (an empty cache): both are at least 1 µs.
    hold_key: u64,
}

/// `Params::hold_key` of parameters too large for the key: never stored, so never matched.
const NO_HOLD_KEY: u64 = u64::MAX;

/// The hold cache holds a window below this many bytes (32 bits) and a signal within `i32`.
const HOLD_WINDOW_LIMIT_BYTES: u64 = 1 << 32;

impl Params {
    /// Validate `c`: every field is range-checked; the first bad field is reported.
    pub fn new(c: &Config) -> Result<Params, ParamError> {
        ParamError::check("segment_bytes", c.segment_bytes, 1, 1 << 20)?;
        ParamError::check("t_low_ns", c.t_low_ns, 0, MAX_DELAY_NS)?;
        let t_high_min = if c.t_low_ns > NS_PER_US {
            c.t_low_ns
        } else {
            NS_PER_US
        };
        ParamError::check("t_high_ns", c.t_high_ns, t_high_min, MAX_DELAY_NS)?;
        ParamError::check("min_rtt_ns", c.min_rtt_ns, NS_PER_US, MAX_DELAY_NS)?;
        ParamError::check("alpha_q16", c.alpha_q16, 1, Q16_ONE)?;
        ParamError::check("beta_q16", c.beta_q16, 1, Q16_ONE)?;
        ParamError::check("line_rate_mbps", c.line_rate_mbps, 1, MAX_LINE_RATE_MBPS)?;
        ParamError::check("delta_mbps", c.delta_mbps, 1, c.line_rate_mbps)?;
        ParamError::check("hai_threshold", c.hai_threshold, 1, 1000)?;
        ParamError::check("hai_factor", c.hai_factor, 1, 1000)?;
        ParamError::check("hai_in_low_guard", c.hai_in_low_guard, 0, 1)?;
        ParamError::check("min_rate_mbps", c.min_rate_mbps, 1, c.line_rate_mbps)?;
        ParamError::check(
            "init_rate_mbps",
            c.init_rate_mbps,
            c.min_rate_mbps,
            c.line_rate_mbps,
        )?;
        ParamError::check("app_limit_q16", c.app_limit_q16, 0, Q16_ONE)?;
        ParamError::check(
            "update_mode",
            c.update_mode,
            UPDATE_PER_ROUND,
            UPDATE_PER_COMPLETION,
        )?;
        ParamError::check("rto_beta_q16", c.rto_beta_q16, 0, Q16_ONE)?;
        ParamError::check("rto_reset_count", c.rto_reset_count, 0, 255)?;
        ParamError::check("skip_delayed_acks", c.skip_delayed_acks, 0, 1)?;

        // Rates: Mbit/s -> bytes/s once (1 Mbit/s = 125,000 B/s exactly); every rate is at most
        // MAX_LINE_RATE_MBPS * 125,000 <= MAX_RATE_BPS = 2^40.
        let delta_bps = mbps_to_bytes_per_s(c.delta_mbps);
        Ok(Params {
            segment_bytes: c.segment_bytes,
            t_low_ns: c.t_low_ns,
            t_high_ns: c.t_high_ns,
            min_rtt_ns: c.min_rtt_ns,
            alpha_q16: c.alpha_q16,
            beta_q16: c.beta_q16,
            delta_bps,
            // TIMELY Alg. 1 line 12: N * delta; <= 1000 * 2^40, no overflow.
            hai_delta_bps: delta_bps.saturating_mul(c.hai_factor),
            hai_threshold: u16::try_from(c.hai_threshold).unwrap_or(u16::MAX),
            hai_in_low_guard: c.hai_in_low_guard == 1,
            min_rate_bps: mbps_to_bytes_per_s(c.min_rate_mbps),
            max_rate_bps: mbps_to_bytes_per_s(c.line_rate_mbps),
            init_rate_bps: mbps_to_bytes_per_s(c.init_rate_mbps),
            app_limit_q16: c.app_limit_q16,
            update_mode: c.update_mode,
            rto_keep_q16: Q16_ONE.saturating_sub(c.rto_beta_q16),
            rto_reset_count: u8::try_from(c.rto_reset_count).unwrap_or(u8::MAX),
            skip_delayed_acks: c.skip_delayed_acks == 1,
            hold_key: match (u32::try_from(c.t_high_ns), u32::try_from(c.min_rtt_ns)) {
                (Ok(t_high), Ok(min_rtt)) => u64::from(t_high) | (u64::from(min_rtt) << 32),
                _ => NO_HOLD_KEY,
            },
        })
    }

    /// The rate bounds `[min_rate, line_rate]`, bytes/s: every initialised decision paces
    /// within them.
    pub fn rate_bounds_bps(&self) -> (u64, u64) {
        (self.min_rate_bps, self.max_rate_bps)
    }

    /// The window bounds for an MSS (clamped like an event's), bytes:
    /// `[CWND_MIN_SEGMENTS * ceil(max(segment, mss) / mss) * mss, MAX_CWND_PKTS * mss]`: whole
    /// packets, so Linux's half-window skb holds a segment (issue #36 item 5, timely.md §4).
    pub fn cwnd_bounds_bytes(&self, mss_bytes: u32) -> (u64, u64) {
        let mss = u64::from(clamp_mss(mss_bytes));
        // ceil(segment / mss) in [1, 2^20 / 88 + 1]; times mss < 2^34, times 2; the ceiling
        // <= 2^20 * 2^16: no overflow.
        let seg_pkts = self
            .segment_bytes
            .saturating_add(mss)
            .saturating_sub(1)
            .checked_div(mss);
        let unit_bytes = seg_pkts.unwrap_or(1).max(1).saturating_mul(mss);
        (
            unit_bytes.saturating_mul(CWND_MIN_SEGMENTS),
            mss.saturating_mul(MAX_CWND_PKTS),
        )
    }
}

/// `State::flags`: a rate update has happened since init or the last idle restart; until then
/// the update gate is open, and `round_bytes` is valid only with it.
pub const F_UPDATED: u8 = 1 << 0;
/// `State::flags`: the last rate update raised `R` by `delta` (Alg. 1 lines 6, 12 with N = 1).
pub const F_RAISED_DELTA: u8 = 1 << 1;
/// `State::flags`: the last rate update raised `R` by `N * delta` (Alg. 1 line 12, HAI).
pub const F_RAISED_HAI: u8 = 1 << 2;

/// Per-flow state. All-zero is valid and means "not initialised" (`rate_bps == 0`): the first
/// event initialises lazily.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct State {
    /// `R`: the target rate, bytes/s; 0 only before initialisation, then within
    /// `[min_rate, line_rate]` (at most 2^40).
    pub rate_bps: u64,
    /// `prev_rtt` (Alg. 1 line 2), ns, in [1, `MAX_DELAY_NS`]; 0 = no sample yet.
    pub prev_rtt_ns: u64,
    /// `rtt_diff`: the EWMA of RTT differences (Alg. 1 line 3), ns; |value| < `MAX_DELAY_NS`.
    pub rtt_diff_ns: i64,
    /// Rate before the first RTO of a loss episode, for undo, bytes/s; 0 = nothing to undo.
    pub saved_rate_bps: u64,
    /// Host time of the last rate update (or init / idle restart), ns.
    pub last_update_ns: u64,
    /// Bytes acknowledged since the last rate update (saturating): a completion is when this
    /// reaches `segment_bytes`; also the numerator of the §5 sending-rate check.
    pub acked_since_update_bytes: u64,
    /// Bytes in flight right after the last update (the event's `inflight_bytes`): the round
    /// ends when more than this many bytes have been delivered (acknowledged or selectively
    /// acknowledged) since, i.e. data sent after the update is being acknowledged. Delivered
    /// bytes, not `snd_una`, so a hole held in loss recovery does not stop the rate updates.
    pub round_bytes: u32,
    /// Consecutive negative-gradient completions (Alg. 1 line 12), saturating.
    pub hai_count: u16,
    /// Consecutive RTOs without an acknowledgement in between (extension).
    pub rto_count: u8,
    /// `F_*` bits.
    pub flags: u8,
    /// Hold cache (issue #13): the last full decision's window before the MSS bounds, bytes
    /// (below [`HOLD_WINDOW_LIMIT_BYTES`]), in the low 32 bits, and its signal (Q16, as `i32`)
    /// in the high 32 bits. Valid only while `hold_key` equals the parameters' key.
    hold_value: u64,
    /// `Params::hold_key` that `hold_value` was computed with (0 = empty), for the current
    /// `rate_bps` (inside the rate bounds), `prev_rtt_ns` and `rtt_diff_ns`: every path that
    /// changes one of those ends with a full decision, which stores the cache again or empties it.
    hold_key: u64,
}

// The kernel's get_info reads this state without the socket lock: its copy may mix versions or
// hold another algorithm's bytes, so every field is an integer (event::AnyBitPattern, which the
// glue requires of every module's law).
super::event::any_bit_pattern!(State {
    rate_bps,
    prev_rtt_ns,
    rtt_diff_ns,
    saved_rate_bps,
    last_update_ns,
    acked_since_update_bytes,
    round_bytes,
    hai_count,
    rto_count,
    flags,
    hold_value,
    hold_key,
});

const _: () = assert!(core::mem::size_of::<State>() <= super::event::CORE_STATE_BUDGET);

impl State {
    /// Empty the hold cache. Code outside the law that writes `rate_bps`, `prev_rtt_ns` or
    /// `rtt_diff_ns` must call this (the law itself never needs to).
    pub fn forget_hold(&mut self) {
        self.hold_key = 0;
    }
}

/// The TIMELY law.
pub struct Timely;

/// Clamp an event's MSS into `[MIN_MSS_BYTES, MAX_MSS_BYTES]`.
fn clamp_mss(mss_bytes: u32) -> u32 {
    // fixed::clamp rather than Ord::clamp, which carries a panic path for lo > hi.
    let mss = clamp(
        u64::from(mss_bytes),
        u64::from(MIN_MSS_BYTES),
        u64::from(MAX_MSS_BYTES),
    );
    u32::try_from(mss).unwrap_or(MAX_MSS_BYTES)
}

/// Clamp an RTT sample into `[1, MAX_DELAY_NS]` ns (0 from a sub-µs Linux sample becomes 1 ns).
fn clamp_rtt(rtt_ns: u64) -> u64 {
    clamp(rtt_ns, 1, MAX_DELAY_NS)
}

/// Signed EWMA with the new sample's weight in Q16 that rounds the step *up*, toward the new
/// sample: `old + ceil(|new - old| * w)` (sign of `new - old`). A constant input is reached
/// exactly, so a flat RTT drives `rtt_diff` to exactly 0 (and the law to increase, Alg. 1
/// line 11). `fixed::ewma_signed` rounds toward the old value and would leave a +1 ns residue
/// that decreases the rate forever on a flat RTT; hence this private helper.
///
/// Range: the result lies between `old` and `new`; for the law's inputs
/// (|x| < `MAX_DELAY_NS` < 2^34) `dist * w < 2^35 * 2^16 = 2^51` fits; other inputs saturate.
fn ewma_toward_new(old: i64, new: i64, w_new_q16: u64) -> i64 {
    let w = if w_new_q16 > Q16_ONE {
        Q16_ONE
    } else {
        w_new_q16
    };
    let up = new >= old;
    // |new - old| < 2^64 always fits in u64 in two's complement.
    let dist = if up {
        (new as u64).wrapping_sub(old as u64)
    } else {
        (old as u64).wrapping_sub(new as u64)
    };
    let step = match dist.checked_mul(w) {
        // ceil(p / 2^16): the low 16 bits decide the round-up. step <= dist since w <= 1.
        Some(p) => (p >> Q16_SHIFT).saturating_add(u64::from(p & (Q16_ONE - 1) != 0)),
        None => mul_q16(dist, w),
    };
    if up {
        old.saturating_add_unsigned(step)
    } else {
        old.saturating_sub_unsigned(step)
    }
}

/// Normalised gradient in Q16: `rtt_diff * 2^16 / minRTT`, truncated toward zero
/// (TIMELY Alg. 1 line 4). |rtt_diff| < 2^34 and minRTT >= 1000, so |g| < 2^41; the
/// `saturating_mul` only matters for states no event sequence reaches.
fn gradient_q16(p: &Params, rtt_diff_ns: i64) -> i64 {
    let min_rtt = i64::try_from(p.min_rtt_ns).unwrap_or(i64::MAX);
    rtt_diff_ns
        .saturating_mul(1 << Q16_SHIFT)
        .checked_div(min_rtt)
        .unwrap_or(0)
}

/// The window before the MSS bounds for rate `rate` (the clamped `R`), bytes:
/// `cwnd = CWND_GAIN * R * max(prev_rtt, T_high)` (non-binding window, §3.3 "static worst-case
/// limit"; see CWND_GAIN). R <= 2^40 and the delay <= 2 * 10^10 < 2^35: mul_div widens the
/// product by hand.
fn window_bytes(p: &Params, s: &State, rate_bps: u64) -> u64 {
    let rtt = if s.prev_rtt_ns > p.t_high_ns {
        s.prev_rtt_ns
    } else {
        p.t_high_ns
    };
    mul_div(rate_bps, rtt.saturating_mul(CWND_GAIN), NS_PER_S)
}

/// The decision from its three parts: the MSS bounds applied to the window.
fn assemble(
    p: &Params,
    rate_bps: u64,
    window_bytes: u64,
    signal_q16: i64,
    mss_bytes: u32,
    reason: Reason,
) -> Decision {
    let (lo, hi) = p.cwnd_bounds_bytes(mss_bytes);
    // hi <= 2^36, so the Q16 shift stays below 2^52.
    let cwnd = clamp(window_bytes, lo, hi) << BYTES_Q16_SHIFT;
    Decision {
        cwnd_bytes_q16: cwnd,
        pacing_rate_bps: rate_bps,
        signal: signal_q16,
        reason,
        flags: 0,
    }
}

/// The decision for state `s` (initialised) from scratch: window and gradient, no cache.
fn decision(p: &Params, s: &State, mss_bytes: u32, reason: Reason) -> Decision {
    let rate = clamp(s.rate_bps, p.min_rate_bps, p.max_rate_bps);
    let bytes = window_bytes(p, s, rate);
    assemble(
        p,
        rate,
        bytes,
        gradient_q16(p, s.rtt_diff_ns),
        mss_bytes,
        reason,
    )
}

/// [`decision`] that also stores the hold cache (or empties it: values too large, rate outside
/// the bounds); after every change of `R`, `prev_rtt`, `rtt_diff` and on a hold's cache miss.
fn decide(p: &Params, s: &mut State, mss_bytes: u32, reason: Reason) -> Decision {
    let rate = clamp(s.rate_bps, p.min_rate_bps, p.max_rate_bps);
    let bytes = window_bytes(p, s, rate);
    let signal = gradient_q16(p, s.rtt_diff_ns);
    s.hold_key = 0;
    if let Ok(sig) = i32::try_from(signal) {
        if p.hold_key != NO_HOLD_KEY && rate == s.rate_bps && bytes < HOLD_WINDOW_LIMIT_BYTES {
            // bytes < 2^32; the signal's two's complement in the high half.
            s.hold_value = bytes | (u64::from(sig as u32) << 32);
            s.hold_key = p.hold_key;
        }
    }
    assemble(p, rate, bytes, signal, mss_bytes, reason)
}

/// The decision from the hold cache, if it is valid for `p` (the key) and the clamped rate
/// (it was stored for `s.rate_bps`, which must still be inside the bounds). Equal to
/// [`decision`]: the cache holds exactly what that computed for these inputs, without the
/// window's `mul_div` and the gradient's division (issue #13).
#[inline(always)]
fn from_cache(p: &Params, s: &State, mss_bytes: u32, reason: Reason) -> Option<Decision> {
    let rate = clamp(s.rate_bps, p.min_rate_bps, p.max_rate_bps);
    if s.hold_key != p.hold_key || rate != s.rate_bps {
        return None;
    }
    let bytes = s.hold_value & (HOLD_WINDOW_LIMIT_BYTES - 1);
    let signal = i64::from((s.hold_value >> 32) as u32 as i32);
    Some(assemble(p, rate, bytes, signal, mss_bytes, reason))
}

/// A decision on an event that changed none of `R`, `prev_rtt`, `rtt_diff` (98 % of the ACKs
/// on a datacenter stream): from the hold cache; a miss fills it.
#[inline]
fn hold(p: &Params, s: &mut State, mss_bytes: u32, reason: Reason) -> Decision {
    match from_cache(p, s, mss_bytes, reason) {
        Some(d) => d,
        None => decide(p, s, mss_bytes, reason),
    }
}

/// Fresh state at `now_ns`: rate `init_rate`, no RTT history.
fn fresh(p: &Params, now_ns: u64) -> State {
    State {
        rate_bps: p.init_rate_bps,
        last_update_ns: now_ns,
        ..State::default()
    }
}

/// Initialise lazily: an all-zero state (hook called before `init`) starts at `now_ns`.
fn ensure_init(p: &Params, s: &mut State, now_ns: u64) {
    if s.rate_bps == 0 {
        *s = fresh(p, now_ns);
    }
}

/// `STALE_RTTS * max(prev_rtt, T_high)`, ns (<= 4 * 10^10, no overflow).
fn stale_after_ns(p: &Params, s: &State) -> u64 {
    let rtt = if s.prev_rtt_ns > p.t_high_ns {
        s.prev_rtt_ns
    } else {
        p.t_high_ns
    };
    rtt.saturating_mul(STALE_RTTS)
}

/// Forget the RTT history and the update gate (idle restart after a long idle): the next
/// completion seeds `prev_rtt` and updates.
fn reset_gradient(s: &mut State, now_ns: u64) {
    s.prev_rtt_ns = 0;
    s.rtt_diff_ns = 0;
    s.hai_count = 0;
    s.acked_since_update_bytes = 0;
    s.round_bytes = 0;
    s.flags &= !(F_UPDATED | F_RAISED_DELTA | F_RAISED_HAI);
    s.last_update_ns = now_ns;
}

/// Is the update gate open for this completion (§5 rate update frequency, spec §3.4)?
fn gate_open(p: &Params, s: &State, elapsed_ns: u64) -> bool {
    if s.flags & F_UPDATED == 0 {
        return true;
    }
    match p.update_mode {
        UPDATE_PER_ROUND => {
            // Option B: the ACK covers data sent after the last update: more bytes were
            // delivered (acked or SACKed) since than were in flight at it. Counted in delivered
            // bytes, so SACKs keep it moving while a hole holds snd_una back in loss recovery
            // (the paper's completions are per segment, whatever the transport's reliability,
            // TIMELY §3). The staleness horizon remains as a guard against a host reporting a
            // bogus in-flight count.
            s.acked_since_update_bytes > u64::from(s.round_bytes)
                || elapsed_ns >= stale_after_ns(p, s)
        }
        UPDATE_PER_MIN_RTT => elapsed_ns >= p.min_rtt_ns,
        _ => true,
    }
}

/// May the rate increase (TIMELY §5 "Application limited behavior": only if the application
/// sends at more than `app_limit` of the target rate)? The sending rate is measured as the
/// bytes acknowledged since the last update over the time since then, which were paced at the
/// rate before it: after an increase, `R` minus the step (D10, issue #36 item 5).
fn may_increase(p: &Params, s: &State, ev: &AckEvent, elapsed_ns: u64) -> bool {
    if p.app_limit_q16 == 0 {
        return true;
    }
    if ev.has(ACK_APP_LIMITED) {
        return false;
    }
    if elapsed_ns == 0 {
        return true; // no interval to measure over: do not block
    }
    let paced_bps = if s.flags & F_RAISED_HAI != 0 {
        s.rate_bps.saturating_sub(p.hai_delta_bps)
    } else if s.flags & F_RAISED_DELTA != 0 {
        s.rate_bps.saturating_sub(p.delta_bps)
    } else {
        s.rate_bps
    };
    // TIMELY §5: send_rate > 0.8 * R. bytes * 10^9 / ns saturates (mul_div); R <= 2^40.
    let send_rate_bps = mul_div(s.acked_since_update_bytes, NS_PER_S, elapsed_ns);
    send_rate_bps > mul_q16(paced_bps, p.app_limit_q16)
}

/// TIMELY Algorithm 1 on one completion event with RTT sample `rtt_ns` (already clamped).
/// Returns the reason for the decision.
fn algorithm1(p: &Params, s: &mut State, rtt_ns: u64, increase_ok: bool) -> Reason {
    // TIMELY Alg. 1 line 1: new_rtt_diff = new_rtt - prev_rtt (first sample: 0, spec §3.6).
    // Both are in [1, 10^10], so the difference fits in i64.
    let prev = if s.prev_rtt_ns == 0 {
        rtt_ns
    } else {
        s.prev_rtt_ns
    };
    let new_rtt_diff = i64::try_from(rtt_ns)
        .unwrap_or(i64::MAX)
        .saturating_sub(i64::try_from(prev).unwrap_or(i64::MAX));
    // TIMELY Alg. 1 line 2: prev_rtt = new_rtt.
    s.prev_rtt_ns = rtt_ns;
    // TIMELY Alg. 1 line 3: rtt_diff = (1 - alpha) * rtt_diff + alpha * new_rtt_diff.
    s.rtt_diff_ns = ewma_toward_new(s.rtt_diff_ns, new_rtt_diff, p.alpha_q16);
    // TIMELY Alg. 1 line 4: normalized_gradient = rtt_diff / minRTT (Q16).
    let g_q16 = gradient_q16(p, s.rtt_diff_ns);

    let rate = s.rate_bps;
    let reason;
    s.flags &= !(F_RAISED_DELTA | F_RAISED_HAI);
    if rtt_ns < p.t_low_ns {
        // TIMELY Alg. 1 lines 5-7: new_rtt < T_low: rate += delta; return.
        let (step, raised) = if p.hai_in_low_guard {
            // Option (spec §3.4): the low guard counts toward, and uses, HAI.
            s.hai_count = s.hai_count.saturating_add(1);
            if s.hai_count >= p.hai_threshold {
                (p.hai_delta_bps, F_RAISED_HAI)
            } else {
                (p.delta_bps, F_RAISED_DELTA)
            }
        } else {
            (p.delta_bps, F_RAISED_DELTA)
        };
        if increase_ok {
            s.rate_bps = rate.saturating_add(step);
            s.flags |= raised;
            reason = Reason::LowGuard;
        } else {
            reason = Reason::Hold;
        }
    } else if rtt_ns > p.t_high_ns {
        // TIMELY Alg. 1 lines 8-10: new_rtt > T_high:
        // rate *= 1 - beta * (1 - T_high / new_rtt) = 1 - beta * (new_rtt - T_high) / new_rtt.
        // beta <= 2^16 and the excess < 2^34: the product fits; the quotient is <= beta.
        let dec_q16 = mul_div(p.beta_q16, rtt_ns.saturating_sub(p.t_high_ns), rtt_ns);
        s.rate_bps = mul_q16(rate, Q16_ONE.saturating_sub(dec_q16));
        s.hai_count = 0; // spec §3.4: any decrease ends HAI
        reason = Reason::HighGuard;
    } else if g_q16 <= 0 {
        // TIMELY Alg. 1 lines 11-12: rate += N * delta, N = 5 once the gradient has been
        // negative for five completions (HAI), else 1. Spec §3.4: count strictly negative
        // gradients; a zero gradient neither counts nor resets.
        if g_q16 < 0 {
            s.hai_count = s.hai_count.saturating_add(1);
        }
        let hai = s.hai_count >= p.hai_threshold && p.hai_delta_bps > p.delta_bps;
        if increase_ok {
            if hai {
                s.rate_bps = rate.saturating_add(p.hai_delta_bps);
                s.flags |= F_RAISED_HAI;
                reason = Reason::HyperactiveIncrease;
            } else {
                s.rate_bps = rate.saturating_add(p.delta_bps);
                s.flags |= F_RAISED_DELTA;
                reason = Reason::AdditiveIncrease;
            }
        } else {
            reason = Reason::Hold;
        }
    } else {
        // TIMELY Alg. 1 lines 13-14: rate *= 1 - beta * normalized_gradient, the factor
        // clamped at 0 (spec §3.4; beta * g > 1 for g > 1.25 at beta = 0.8).
        // g_q16 > 0 here; mul_q16 saturates.
        let dec_q16 = mul_q16(p.beta_q16, g_q16.unsigned_abs());
        s.rate_bps = mul_q16(rate, Q16_ONE.saturating_sub(dec_q16));
        s.hai_count = 0;
        reason = Reason::GradientUpdate;
    }
    // TIMELY §5: cap at line rate; floor at min_rate (spec §3.4).
    s.rate_bps = clamp(s.rate_bps, p.min_rate_bps, p.max_rate_bps);
    reason
}

impl Controller for Timely {
    type Params = Params;
    type State = State;

    fn init(p: &Params, s: &mut State, now_ns: u64, mss_bytes: u32) -> Decision {
        *s = fresh(p, now_ns);
        decide(p, s, mss_bytes, Reason::Init)
    }

    fn on_ack(p: &Params, s: &mut State, ev: &AckEvent) -> Decision {
        ensure_init(p, s, ev.now_ns);
        // A clock that went backwards re-anchors the update time: no time has passed.
        if ev.now_ns < s.last_update_ns {
            s.last_update_ns = ev.now_ns;
        }
        let elapsed_ns = ev.now_ns.saturating_sub(s.last_update_ns);
        if ev.acked_bytes > 0 {
            s.rto_count = 0; // progress ends an RTO episode
        }
        s.acked_since_update_bytes = s
            .acked_since_update_bytes
            .saturating_add(u64::from(ev.acked_bytes));

        let rtt_ns = match ev.rtt() {
            Some(r) if !(p.skip_delayed_acks && ev.has(ACK_DELAYED)) => clamp_rtt(r),
            // No usable sample: a pending completion waits for the next ACK that has one.
            _ => return hold(p, s, ev.mss_bytes, Reason::NoSample),
        };
        // §3.1 completion event: a whole segment acknowledged since the last update.
        if s.acked_since_update_bytes < p.segment_bytes || !gate_open(p, s, elapsed_ns) {
            return hold(p, s, ev.mss_bytes, Reason::Hold);
        }
        let increase_ok = may_increase(p, s, ev, elapsed_ns);
        s.acked_since_update_bytes = 0;
        s.last_update_ns = ev.now_ns;
        s.round_bytes = ev.inflight_bytes;
        s.flags |= F_UPDATED;
        let reason = algorithm1(p, s, rtt_ns, increase_ok);
        decide(p, s, ev.mss_bytes, reason)
    }

    fn on_loss(p: &Params, s: &mut State, ev: &LossEvent) -> Decision {
        ensure_init(p, s, ev.now_ns);
        match ev.kind {
            // Not part of TIMELY (§3): the delay signal already reacts to the queue that
            // caused the drop. No change, nothing to undo.
            LossKind::FastRecovery => hold(p, s, ev.mss_bytes, Reason::FastRecovery),
            LossKind::RetransmitTimeout => {
                // Extension (spec §3.5): R *= 1 - rto_beta; after rto_reset_count RTOs in a
                // row, R = min_rate. The first RTO of an episode saves R for undo.
                if s.rto_count == 0 {
                    s.saved_rate_bps = s.rate_bps;
                }
                s.rto_count = s.rto_count.saturating_add(1);
                s.hai_count = 0;
                s.flags &= !(F_RAISED_DELTA | F_RAISED_HAI);
                let reason = if p.rto_reset_count != 0 && s.rto_count >= p.rto_reset_count {
                    s.rate_bps = p.min_rate_bps;
                    Reason::RetransmitReset
                } else {
                    s.rate_bps = mul_q16(s.rate_bps, p.rto_keep_q16);
                    Reason::RetransmitTimeout
                };
                s.rate_bps = clamp(s.rate_bps, p.min_rate_bps, p.max_rate_bps);
                decide(p, s, ev.mss_bytes, reason)
            }
        }
    }

    fn on_idle_restart(p: &Params, s: &mut State, now_ns: u64, mss_bytes: u32) -> Decision {
        ensure_init(p, s, now_ns);
        // Not in the paper; spec §3.5: keep R (the §5 sending-rate rule kept it from drifting
        // up while idle). Linux signals every restart from an empty pipe (CA_EVENT_TX_START),
        // e.g. each RPC of a request/response flow, and §6.2's RPC workloads need the gradient
        // across those completions: the RTT history is kept across a short gap and forgotten
        // only once stale. Kept, the gap also counts in the §5 sending-rate measurement.
        if now_ns < s.last_update_ns
            || now_ns.saturating_sub(s.last_update_ns) >= stale_after_ns(p, s)
        {
            reset_gradient(s, now_ns);
        }
        decide(p, s, mss_bytes, Reason::IdleRestart)
    }

    fn on_undo(p: &Params, s: &mut State, mss_bytes: u32) -> Decision {
        // No clock here: a lazy init starts at time 0 (the next ACK re-anchors it).
        ensure_init(p, s, 0);
        if s.saved_rate_bps == 0 {
            return hold(p, s, mss_bytes, Reason::Hold);
        }
        // Spurious RTO: restore the rate from before the episode, like Linux's
        // max(cwnd, prior_cwnd); undo happens once.
        if s.saved_rate_bps > s.rate_bps {
            s.rate_bps = clamp(s.saved_rate_bps, p.min_rate_bps, p.max_rate_bps);
        }
        s.saved_rate_bps = 0;
        s.rto_count = 0;
        s.flags &= !(F_RAISED_DELTA | F_RAISED_HAI);
        decide(p, s, mss_bytes, Reason::Undo)
    }

    fn current(p: &Params, s: &State, mss_bytes: u32) -> Decision {
        if s.rate_bps == 0 {
            // Before init: what init would give (the host never sees a zero window).
            return decision(p, &fresh(p, 0), mss_bytes, Reason::Hold);
        }
        from_cache(p, s, mss_bytes, Reason::Hold)
            .unwrap_or_else(|| decision(p, s, mss_bytes, Reason::Hold))
    }
}

/// The hold lease's terms (issue #13, `impl HoldLease for Timely`): a child module in its own
/// file, so it reads the private parameters; a kernel module including this file needs `lease`.
#[path = "timely_lease.rs"]
mod timely_lease;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ewma_reaches_a_constant_input() {
        // A +1 ns residue decays to exactly 0 on zero differences (fixed::ewma_signed would
        // keep it: floor(1 * 0.875) = 0).
        assert_eq!(ewma_toward_new(1, 0, 57_344), 0);
        assert_eq!(ewma_toward_new(-1, 0, 57_344), 0);
        assert_eq!(ewma_toward_new(0, 10_000, 57_344), 8_750);
        assert_eq!(ewma_toward_new(-8_750, -10_000, 57_344), -9_844); // 1093.75 -> 1094
        assert_eq!(ewma_toward_new(5, 9, 0), 5);
        assert_eq!(ewma_toward_new(i64::MIN, i64::MAX, Q16_ONE), i64::MAX);
        assert_eq!(ewma_toward_new(i64::MAX, i64::MIN, Q16_ONE), i64::MIN);
    }

    #[test]
    fn gradient_truncates_toward_zero() {
        let p = Params::new(&Config::DEFAULT).unwrap();
        assert_eq!(gradient_q16(&p, 8_750), 28_672); // 0.4375
        assert_eq!(gradient_q16(&p, -8_750), -28_672);
        assert_eq!(gradient_q16(&p, 1), 3); // 3.2768 -> 3
        assert_eq!(gradient_q16(&p, -1), -3);
    }

    #[test]
    fn default_config_is_valid() {
        let p = Params::new(&Config::DEFAULT).unwrap();
        assert_eq!(p.delta_bps, 1_250_000);
        assert_eq!(p.hai_delta_bps, 6_250_000);
        assert_eq!(p.max_rate_bps, 1_250_000_000);
        assert_eq!(p.rto_keep_q16, 13_107);
    }
}
