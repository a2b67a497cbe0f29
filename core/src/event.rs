// SPDX-License-Identifier: GPL-2.0-only
//! The boundary between a host (kernel glue, simulator, tests) and a control law.
//!
//! A host translates what it observes into these plain `#[repr(C)]` records and calls a
//! [`Controller`]; the law answers with a [`Decision`]. The records are `repr(C)` with explicit
//! padding so the kernel's C glue can fill them directly (one FFI call per ACK) and the layout can
//! be checked at compile time on both sides of the ABI.
//!
//! Every field is "whatever the host saw": a law must accept any value (zero, huge, out of
//! order) and clamp or ignore it. Nothing here is trusted.
//!
//! This file uses only `core` and refers to no sibling module.

/// `AckEvent::flags`: the RTT field carries a valid sample.
pub const ACK_HAS_RTT: u32 = 1 << 0;
/// `AckEvent::flags`: `remote_delay_ns` carries the receiver-reported endpoint delay.
pub const ACK_HAS_REMOTE_DELAY: u32 = 1 << 1;
/// `AckEvent::flags`: `hops` carries the forward hop count echoed by the receiver.
pub const ACK_HAS_HOPS: u32 = 1 << 2;
/// `AckEvent::flags`: the acknowledged data carried an ECN CE mark (ECE seen).
pub const ACK_ECE: u32 = 1 << 3;
/// `AckEvent::flags`: the sender was application-limited during this sample.
pub const ACK_APP_LIMITED: u32 = 1 << 4;
/// `AckEvent::flags`: the ACK may have been delayed by the receiver (rate_sample.is_ack_delayed).
pub const ACK_DELAYED: u32 = 1 << 5;
/// `AckEvent::flags`: the connection is in loss recovery (CA state Recovery or Loss).
pub const ACK_IN_RECOVERY: u32 = 1 << 6;
/// `AckEvent::flags`: `telemetry` carries per-hop telemetry (reserved for INT PowerTCP).
pub const ACK_HAS_TELEMETRY: u32 = 1 << 7;
/// `AckEvent::flags`: `local_rx_delay_ns` carries the sender-side receive delay of the ACK
/// itself (Swift §3.3 `t6 - t5`: from the ACK's receive timestamp to its processing). Only
/// meaningful together with `ACK_HAS_REMOTE_DELAY`.
pub const ACK_HAS_LOCAL_RX: u32 = 1 << 8;

/// One processed ACK, as the host observed it.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AckEvent {
    /// Host clock at ACK processing, ns (monotonic; wraps are treated as "no time passed").
    pub now_ns: u64,
    /// RTT sample, ns, valid when `flags & ACK_HAS_RTT`. Linux gives µs: the glue multiplies by
    /// 1000, so the resolution there is 1 µs.
    pub rtt_ns: u64,
    /// Receiver-side (endpoint) delay for the acknowledged data, ns, valid with
    /// `ACK_HAS_REMOTE_DELAY`. Untrusted: may exceed the RTT.
    pub remote_delay_ns: u64,
    /// Cumulative bytes delivered (acked or sacked) on this connection, wrapping. Lets a law
    /// detect rounds BBR-style and measure delivery rate. No law reads it today, and the kernel
    /// glue leaves it 0 (a multiplication per ACK saved, issue #13): a law that starts reading
    /// it must have `rdcc_fill_ack_in` (`modules/glue/rdcc_event.h`) fill it, and the KUnit case
    /// `rdcc_glue_event` check it.
    pub delivered_bytes: u64,
    /// Bytes newly acknowledged or selectively acknowledged by this ACK.
    pub acked_bytes: u32,
    /// Bytes in flight after this ACK was processed (`tcp_packets_in_flight` x MSS in the kernel,
    /// saturating). TIMELY's round gate reads it (`timely.rs` `gate_open`).
    pub inflight_bytes: u32,
    /// Current sender MSS, bytes. Zero or absurd values are clamped by the law.
    pub mss_bytes: u32,
    /// Cumulative ACK sequence (snd_una after processing).
    pub snd_una: u32,
    /// Next sequence to be sent (snd_nxt), for once-per-RTT markers.
    pub snd_nxt: u32,
    /// `ACK_*` flag bits.
    pub flags: u32,
    /// Forward hop count echoed by the receiver, valid with `ACK_HAS_HOPS`.
    pub hops: u8,
    /// Explicit padding: keeps the C layout identical and free of implicit holes.
    pub _pad: [u8; 3],
    /// Local receive delay of this ACK, ns (Swift §3.3 `t6 - t5`), valid with
    /// `ACK_HAS_LOCAL_RX`; saturates at `u32::MAX`. Untrusted.
    pub local_rx_delay_ns: u32,
    /// Reserved for telemetry (INT PowerTCP): an opaque host-side reference, 0 when none.
    pub telemetry: u64,
}

impl AckEvent {
    /// The RTT sample, if the host supplied one.
    pub fn rtt(&self) -> Option<u64> {
        if self.flags & ACK_HAS_RTT != 0 {
            Some(self.rtt_ns)
        } else {
            None
        }
    }

    /// The receiver-reported endpoint delay, if present.
    pub fn remote_delay(&self) -> Option<u64> {
        if self.flags & ACK_HAS_REMOTE_DELAY != 0 {
            Some(self.remote_delay_ns)
        } else {
            None
        }
    }

    /// The local receive delay of the ACK (Swift `t6 - t5`), if present.
    pub fn local_rx_delay(&self) -> Option<u64> {
        if self.flags & ACK_HAS_LOCAL_RX != 0 {
            Some(self.local_rx_delay_ns as u64)
        } else {
            None
        }
    }

    /// The echoed forward hop count, if present.
    pub fn hop_count(&self) -> Option<u8> {
        if self.flags & ACK_HAS_HOPS != 0 {
            Some(self.hops)
        } else {
            None
        }
    }

    /// Has `flag` set.
    pub fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }
}

/// A loss signal from the host's loss detection.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LossKind {
    /// Fast recovery entered (SACK/dupack-detected loss): Linux `set_state(TCP_CA_Recovery)`.
    FastRecovery = 1,
    /// A retransmission timeout fired: Linux `set_state(TCP_CA_Loss)`, once per expiry.
    RetransmitTimeout = 2,
}

/// A loss event.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LossEvent {
    /// Host clock, ns.
    pub now_ns: u64,
    /// Current MSS, bytes.
    pub mss_bytes: u32,
    /// What happened.
    pub kind: LossKind,
}

/// Why a law produced its decision (tracepoints and `ss -ti` report it).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Reason {
    /// No change (state not yet initialised, or nothing to do).
    #[default]
    Hold = 0,
    /// First event: state initialised.
    Init = 1,
    /// Additive increase.
    AdditiveIncrease = 2,
    /// Multiplicative decrease.
    MultiplicativeDecrease = 3,
    /// A decrease was due but the once-per-RTT guard held it back.
    DecreaseGuarded = 4,
    /// Fast-recovery reaction.
    FastRecovery = 5,
    /// Retransmit-timeout reaction.
    RetransmitTimeout = 6,
    /// Retransmit-timeout count reached its reset threshold: window to its minimum.
    RetransmitReset = 7,
    /// TIMELY hyperactive increase.
    HyperactiveIncrease = 8,
    /// Gradient-driven (TIMELY) or power-driven (PowerTCP) update.
    GradientUpdate = 9,
    /// RTT below TIMELY's T_low (or above T_high) guard.
    LowGuard = 10,
    /// Above TIMELY's T_high guard.
    HighGuard = 11,
    /// Undo of a spurious reduction.
    Undo = 12,
    /// Idle restart.
    IdleRestart = 13,
    /// The sample was rejected (no RTT, bogus input).
    NoSample = 14,
}

/// What the host must enforce after an event.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Decision {
    /// Congestion window in bytes, Q16 (`fixed::BYTES_Q16_SHIFT`): fractional windows below one
    /// MSS are meaningful and must be realised by pacing. Zero only before initialisation.
    pub cwnd_bytes_q16: u64,
    /// Pacing rate, bytes per second; `0` means "not paced by this law" (ACK-clocked; the host
    /// leaves its default or unlimited pacing in place).
    pub pacing_rate_bps: u64,
    /// The law's main signal for tracing, in the unit the law documents (Swift: target delay ns;
    /// TIMELY: normalized gradient Q16; θ-PowerTCP: normalized power Q16).
    pub signal: i64,
    /// Why.
    pub reason: Reason,
    /// `DEC_*` bits: details of the decision for counters and tracing (laws with one window
    /// and no remote delay leave it 0).
    pub flags: u32,
}

/// `Decision::flags` / `Report::flags`: the endpoint window is below the fabric window (Swift
/// §3.3: it is the one that binds).
pub const DEC_ENDPOINT_BINDS: u32 = 1 << 0;
/// `Decision::flags`: this ACK's remote delay was used (fabric/endpoint split).
pub const DEC_REMOTE_USED: u32 = 1 << 1;
/// `Decision::flags`: this ACK's endpoint delay made no sense (larger than the RTT beyond the
/// law's slack) and was clamped to the RTT.
pub const DEC_REMOTE_CLAMPED: u32 = 1 << 2;
/// `Decision::flags`: the endpoint window expired on this ACK (too many ACKs in a row without a
/// usable remote delay) and no longer binds.
pub const DEC_ENDPOINT_EXPIRED: u32 = 1 << 3;
/// `Report::flags`: an endpoint-delay estimate exists (`Report::endpoint_delay_ns` is valid).
pub const REP_HAS_ENDPOINT: u32 = 1 << 4;

/// Per-flow details a host shows (tracepoint, `ss -ti`); not an input to anything. A law
/// without a fabric/endpoint split reports zeros.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Fabric delay of the latest ACK with an RTT sample, ns (the whole RTT when it carried no
    /// usable remote delay).
    pub fabric_delay_ns: u64,
    /// Endpoint-delay estimate (EWMA), ns, valid with `REP_HAS_ENDPOINT`.
    pub endpoint_delay_ns: u64,
    /// Hop count in use.
    pub hops: u32,
    /// `DEC_ENDPOINT_BINDS`, `DEC_REMOTE_USED` (of the latest ACK), `REP_HAS_ENDPOINT`.
    pub flags: u32,
}

impl Decision {
    /// The window rounded down to whole packets for `mss_bytes`, at least 1 (Linux's floor; the
    /// fraction is carried by `pacing_rate_bps`). A zero MSS is treated as 1 byte.
    pub fn cwnd_pkts(&self, mss_bytes: u32) -> u32 {
        let mss = if mss_bytes == 0 { 1 } else { mss_bytes as u64 };
        let pkts = (self.cwnd_bytes_q16 >> 16).checked_div(mss).unwrap_or(0);
        if pkts == 0 {
            1
        } else if pkts > u32::MAX as u64 {
            u32::MAX
        } else {
            pkts as u32
        }
    }
}

/// What a host enforces for a [`Decision`] ([`Decision::enforce`]): the window in whole
/// packets and the pacing rate. `#[repr(C)]`: the kernel glue receives it from the trampolines
/// (`struct rdcc_enforced` in `modules/glue/rdcc_abi.h`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Enforced {
    /// Pacing rate to set, bytes per second (`u64::MAX` = unlimited). The host still caps it
    /// with its own limit (Linux: `sk_max_pacing_rate`).
    pub pacing_rate_bps: u64,
    /// Window to set, whole packets, in `[1, clamp]`; 0 = leave the host's window and rate
    /// alone (the law has no state yet: `cwnd_bytes_q16 == 0`).
    pub cwnd_pkts: u32,
    /// Explicit padding (C layout without implicit holes).
    pub _pad: u32,
}

/// Microseconds per second: `bytes * US_PER_S / srtt_us` is a rate in bytes per second.
const US_PER_S: u64 = 1_000_000;

/// `floor(a * US_PER_S / d)` for `d > 0`, saturating at `u64::MAX`. One multiplication and one
/// division when `a * 10^6` fits in 64 bits (every window a law can output: at most 2^37 bytes
/// doubled, times 2^20); otherwise split as `(a / d) * 10^6 + (a % d) * 10^6 / d`, still exact:
/// the remainder is below `d < 2^32`, so its product stays below 2^52.
fn per_us_to_per_s(a: u64, d: u32) -> u64 {
    let d = d as u64;
    match a.checked_mul(US_PER_S) {
        Some(p) => p.checked_div(d).unwrap_or(u64::MAX),
        None => {
            let q = a.checked_div(d).unwrap_or(u64::MAX);
            let r = a.checked_rem(d).unwrap_or(0);
            q.saturating_mul(US_PER_S)
                .saturating_add(r.wrapping_mul(US_PER_S).checked_div(d).unwrap_or(0))
        }
    }
}

impl Decision {
    /// The window and pacing rate a host sets for this decision (ARCHITECTURE.md,
    /// "Enforcement"; the kernel glue and the simulator follow the same rule):
    ///
    /// - `cwnd_bytes_q16 == 0` (no state yet): `cwnd_pkts = 0`, leave the host's values.
    /// - A window `W` below 2 packets that is not a whole number of packets (issue #12 item 3):
    ///   `ceil(W / mss)` packets (1 or 2), paced at the law's own rate when it has one (Swift
    ///   below one packet: `cwnd * mss / rtt` with the RTT the law saw, §3.4; the host does not
    ///   second-guess it with its smoothed RTT), else at `W / srtt`. Flooring `1.84` packets to 1 would send one packet per RTT, less than
    ///   `0.99` packets (which pacing realises); the ceiling lets the second packet go and the
    ///   pacing rate holds the average at `W` per RTT. Without an RTT estimate
    ///   (`srtt_us == 0`) the law's rate, or none (unlimited), as below.
    /// - Otherwise `floor(W / mss)` packets in `[1, clamp]` and the law's pacing rate; a law
    ///   that does not pace (rate 0) gets `2 * cwnd * mss / srtt` (the kernel's own default in
    ///   slow start; unlimited without an RTT estimate), which does not bind but keeps TSO
    ///   bursts near 1 ms of that rate.
    ///
    /// `mss_bytes` 0 is treated as 1, `clamp_pkts` 0 as 1. `srtt_us` is the host's smoothed
    /// RTT in µs (Linux: `tp->srtt_us >> 3`).
    ///
    /// Range: on the sub-2-packet path `W < 2 * mss * 2^16 <= 2^49`, so `W * 10^6` exceeds
    /// 2^64 only for an MSS above 2^27 bytes; `per_us_to_per_s` is exact either way, and
    /// `>> 16` turns bytes Q16 per second into bytes per second (rounded down, at least 1).
    #[inline]
    pub fn enforce(&self, mss_bytes: u32, srtt_us: u32, clamp_pkts: u32) -> Enforced {
        let w_q16 = self.cwnd_bytes_q16;
        let mss = if mss_bytes == 0 { 1 } else { mss_bytes as u64 };
        // floor(W / mss): W >> 16 whole bytes, the fraction does not change the floor.
        let floor = (w_q16 >> 16).checked_div(mss).unwrap_or(0);
        let law = self.pacing_rate_bps;
        if floor < 2 {
            if w_q16 == 0 {
                return Enforced::default(); // no state yet
            }
            let pkt_q16 = mss << 16; // < 2^48; floor <= 1, so floor * pkt_q16 < 2^49
            if w_q16 != floor.wrapping_mul(pkt_q16) {
                // Below 2 packets, fractional: ceil(W / mss) = floor + 1 (1 or 2).
                let pkts = floor.wrapping_add(1) as u32;
                let rate = if law != 0 {
                    law // the law paces (Swift below one packet, §3.4): the law decides
                } else if srtt_us == 0 {
                    u64::MAX
                } else {
                    // W < 2^49 here: per_us_to_per_s is exact (it splits W * 10^6 >= 2^64).
                    let r = per_us_to_per_s(w_q16, srtt_us) >> 16;
                    if r == 0 {
                        1 // a paced flow never reads as unpaced
                    } else {
                        r
                    }
                };
                return Enforced {
                    pacing_rate_bps: rate,
                    cwnd_pkts: if clamp_pkts == 0 {
                        1
                    } else if pkts > clamp_pkts {
                        clamp_pkts
                    } else {
                        pkts
                    },
                    _pad: 0,
                };
            }
        }
        let clamp = if clamp_pkts == 0 { 1 } else { clamp_pkts };
        let pkts = if floor == 0 {
            1
        } else if floor > clamp as u64 {
            clamp
        } else {
            floor as u32
        };
        let rate = if law != 0 {
            law
        } else if srtt_us == 0 {
            u64::MAX
        } else {
            // 2 * pkts * mss <= 2 * 2^32 * 2^32 saturates only for absurd inputs.
            per_us_to_per_s((pkts as u64).saturating_mul(mss).saturating_mul(2), srtt_us)
        };
        Enforced {
            pacing_rate_bps: rate,
            cwnd_pkts: pkts,
            _pad: 0,
        }
    }
}

/// A parameter set failed validation. `field` names the parameter; `min`/`max` give the
/// accepted range, so a host can print "swift: base_target_ns=0 out of range [1000, 10000000]".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamError {
    /// Parameter name as the host exposes it (module parameter, scenario key).
    pub field: &'static str,
    /// The rejected value.
    pub value: u64,
    /// Smallest accepted value.
    pub min: u64,
    /// Largest accepted value.
    pub max: u64,
}

impl ParamError {
    /// Check `value` against `[min, max]`.
    pub fn check(field: &'static str, value: u64, min: u64, max: u64) -> Result<(), ParamError> {
        if value < min || value > max {
            Err(ParamError {
                field,
                value,
                min,
                max,
            })
        } else {
            Ok(())
        }
    }
}

/// Size the kernel gives every socket for congestion-control private data
/// (`ICSK_CA_PRIV_SIZE`, 13 * u64 on Linux 6.12).
pub const ICSK_CA_PRIV_SIZE: usize = 104;

/// Bytes of that area a law's per-flow state may use: the rest (32 bytes) stays free for the
/// kernel glue (Swift's remote-delay slot, or tcp_timely's hold lease, `lease::Lease`).
pub const CORE_STATE_BUDGET: usize = 72;

/// Every bit pattern of `size_of::<Self>()` bytes is a valid `Self`: the type is a fixed-width
/// integer, an array of such types, or a struct whose every field is one of these
/// (`event::any_bit_pattern!` checks that at compile time and is the only source of struct
/// impls; core/tests/forbidden.rs holds every `impl` of this trait in the core to that).
///
/// The kernel glue relies on it for the law's `State` (`rdcc_glue!` requires it): `get_info`
/// (inet_diag, `TCP_CC_INFO`) reads the per-socket area without the socket lock, so the copy it
/// hands to the law may mix words of two versions, hold a writer's intermediate values, or hold
/// another algorithm's bytes entirely (inet_diag reads `icsk_ca_ops` locklessly, and a
/// concurrent `tcp_reinit_congestion_control` re-initialises the area for the new algorithm).
/// With an integer-only state every such copy is still a valid value (its fields meaningless,
/// perhaps, but a `bool` reading 2 or an enum out of range cannot happen), and `current` and
/// `report`, which are total and panic-free like all core code, answer for it. Core is
/// `#![forbid(unsafe_code)]`, so this is a safe trait; the glue's unsafe code relies on it only
/// through the compile-time checks of `any_bit_pattern!`.
pub trait AnyBitPattern: Copy {}

impl AnyBitPattern for u8 {}
impl AnyBitPattern for u16 {}
impl AnyBitPattern for u32 {}
impl AnyBitPattern for u64 {}
impl AnyBitPattern for i8 {}
impl AnyBitPattern for i16 {}
impl AnyBitPattern for i32 {}
impl AnyBitPattern for i64 {}
impl<T: AnyBitPattern, const N: usize> AnyBitPattern for [T; N] {}

/// `any_bit_pattern!(Type { field, field, ... })`, next to a struct's definition (in the same
/// module: the fields may be private): implements [`AnyBitPattern`] for `Type` after checking at
/// compile time that the list names every field (an exhaustive destructuring pattern: a field
/// left out is error E0027, "pattern does not mention field") and that every field's type is
/// `AnyBitPattern` (a `bool`, an enum, a reference or a pointer field is error E0277). The
/// check is a closure that is type-checked, never called: nothing of it reaches the object
/// code. core/tests/any_bit_pattern.rs compiles mutated copies of the core to show both errors.
macro_rules! any_bit_pattern {
    ($name:ident { $($field:ident),+ $(,)? }) => {
        impl super::event::AnyBitPattern for $name {}
        const _: fn(&$name) = |s| {
            fn any_bit_pattern<T: super::event::AnyBitPattern>(_: &T) {}
            let $name { $($field),+ } = s;
            $(any_bit_pattern($field);)+
        };
    };
}
pub(crate) use any_bit_pattern;

/// A control law. Parameters are validated once and shared by reference; per-flow state is a
/// plain value that is valid when all-zero (`Default` must be all-zero) because the kernel can
/// call a hook before `init`.
///
/// All methods are total: any event sequence, including events before `init`, is accepted.
pub trait Controller {
    /// Validated parameters.
    type Params;
    /// Per-flow state; must be `Default` = all-zero and fit [`CORE_STATE_BUDGET`].
    type State: Copy + Default;

    /// Initialise per-flow state at connection start (`init`). `mss_bytes` is the current MSS.
    fn init(p: &Self::Params, s: &mut Self::State, now_ns: u64, mss_bytes: u32) -> Decision;
    /// Per-ACK law.
    fn on_ack(p: &Self::Params, s: &mut Self::State, ev: &AckEvent) -> Decision;
    /// Loss reaction.
    fn on_loss(p: &Self::Params, s: &mut Self::State, ev: &LossEvent) -> Decision;
    /// Restart after idle (Linux `CA_EVENT_TX_START`/`CA_EVENT_CWND_RESTART`).
    fn on_idle_restart(
        p: &Self::Params,
        s: &mut Self::State,
        now_ns: u64,
        mss_bytes: u32,
    ) -> Decision;
    /// Spurious-loss undo: restore the window saved before the last loss reaction.
    fn on_undo(p: &Self::Params, s: &mut Self::State, mss_bytes: u32) -> Decision;
    /// The current decision without changing state (for `get_info` and re-assertion).
    fn current(p: &Self::Params, s: &Self::State, mss_bytes: u32) -> Decision;
    /// Details for tracing and `ss` (fabric and endpoint delay, hops, binding window). Laws
    /// without them report zeros.
    fn report(_p: &Self::Params, _s: &Self::State) -> Report {
        Report::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_is_stable() {
        // The C glue mirrors these sizes; a change here must change both sides.
        assert_eq!(core::mem::size_of::<AckEvent>(), 72);
        assert_eq!(core::mem::size_of::<LossEvent>(), 16);
        assert_eq!(core::mem::size_of::<Decision>(), 32);
        assert_eq!(core::mem::size_of::<Report>(), 24);
    }

    #[test]
    fn cwnd_pkts_floor_is_one() {
        let cases: &[(u64, u32, u32)] = &[
            (0, 1448, 1),
            (1448 << 16, 1448, 1),
            ((1448 * 10) << 16, 1448, 10),
            ((1448 * 10 + 1447) << 16, 1448, 10),
            (u64::MAX, 0, u32::MAX),
        ];
        for &(c, mss, want) in cases {
            let d = Decision {
                cwnd_bytes_q16: c,
                ..Decision::default()
            };
            assert_eq!(d.cwnd_pkts(mss), want);
        }
    }

    /// Decision::enforce's table (core/src/event_vectors.rs, also run by KUnit), case by case
    /// with its values in the message.
    #[test]
    fn enforce_table() {
        use crate::event_vectors::{ENFORCE_CASES, ENFORCE_MSS};
        for c in ENFORCE_CASES {
            let d = Decision {
                cwnd_bytes_q16: c.cwnd_bytes_q16,
                pacing_rate_bps: c.law_rate_bps,
                ..Decision::default()
            };
            let e = d.enforce(ENFORCE_MSS, c.srtt_us, c.clamp_pkts);
            assert_eq!(
                (e.cwnd_pkts, e.pacing_rate_bps),
                (c.pkts, c.rate_bps),
                "w={} law={} srtt={} clamp={}",
                c.cwnd_bytes_q16,
                c.law_rate_bps,
                c.srtt_us,
                c.clamp_pkts
            );
        }
        assert_eq!(crate::event_vectors::run_enforce(), Ok(ENFORCE_CASES.len()));
    }

    proptest::proptest! {
        /// Invariants of enforce for any input: the window is in [1, clamp] for a state; at or
        /// above 2 packets, or on whole packets, it is Decision::cwnd_pkts clamped (the old
        /// rule); below 2 fractional packets it is the ceiling, paced at the
        /// law's rate if it has one, else at W / srtt; a rate is never 0.
        #[test]
        fn enforce_invariants(w: u64, law: u64, mss: u32, srtt: u32, clamp: u32) {
            enforce_check(w, law, mss, srtt, clamp)?;
        }

        /// The same near the 2-packet boundary (any-u64 windows rarely fall there).
        #[test]
        fn enforce_invariants_small_windows(
            w in 0u64..1 << 32, law in 0u64..1 << 32, mss in 0u32..=9000, srtt: u32, clamp in 0u32..4,
        ) {
            enforce_check(w, law, mss, srtt, clamp)?;
        }
    }

    fn enforce_check(
        w: u64,
        law: u64,
        mss: u32,
        srtt: u32,
        clamp: u32,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        {
            let d = Decision {
                cwnd_bytes_q16: w,
                pacing_rate_bps: law,
                ..Decision::default()
            };
            let e = d.enforce(mss, srtt, clamp);
            let clamp = clamp.max(1);
            if w == 0 {
                proptest::prop_assert_eq!(e, Enforced::default());
                return Ok(());
            }
            proptest::prop_assert!(e.cwnd_pkts >= 1 && e.cwnd_pkts <= clamp);
            proptest::prop_assert!(e.pacing_rate_bps >= 1);
            let unit = (mss.max(1) as u64) << 16;
            let fractional_below_2 = w < 2 * unit && w % unit != 0;
            if fractional_below_2 {
                let ceil = w.div_ceil(unit) as u32;
                proptest::prop_assert_eq!(e.cwnd_pkts, ceil.min(clamp));
                if law != 0 {
                    proptest::prop_assert_eq!(e.pacing_rate_bps, law);
                } else if srtt != 0 {
                    let exact = (w as u128 * 1_000_000 / srtt as u128) >> 16;
                    proptest::prop_assert_eq!(e.pacing_rate_bps, exact.max(1) as u64);
                }
            } else {
                proptest::prop_assert_eq!(e.cwnd_pkts, d.cwnd_pkts(mss).min(clamp));
                if law != 0 {
                    proptest::prop_assert_eq!(e.pacing_rate_bps, law);
                } else if srtt != 0 {
                    let bytes = 2u128 * e.cwnd_pkts as u128 * mss.max(1) as u128;
                    let want = (bytes * 1_000_000 / srtt as u128).min(u64::MAX as u128) as u64;
                    proptest::prop_assert_eq!(e.pacing_rate_bps, want);
                }
            }
        }
        Ok(())
    }

    #[test]
    fn param_check() {
        assert!(ParamError::check("x", 5, 1, 10).is_ok());
        assert_eq!(
            ParamError::check("x", 0, 1, 10),
            Err(ParamError {
                field: "x",
                value: 0,
                min: 1,
                max: 10
            })
        );
    }
}
