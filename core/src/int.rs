// SPDX-License-Identifier: GPL-2.0-only
//! In-band network telemetry (INT): the per-hop record a switch egress appends to a data packet,
//! the stack the receiver echoes in its ACK, and the controller trait of the laws that read it
//! (INT PowerTCP, HPCC, HPCC with VAI/SF).
//!
//! Record: 64 bits per hop in the layout of the HPCC/PowerTCP ns-3 artifact's `int-header.h`
//! (HPCC SIGCOMM'19 Fig. 4; spec `powertcp-vaisf.md` §1.8): all values as of the moment the
//! switch schedules the packet for transmission (PowerTCP §3.3 "Feedback"):
//!
//! ```text
//! bits  0..17  qlen      egress queue length, units of 80 B (max 10.48 MB)
//! bits 17..37  tx_bytes  cumulative transmitted bytes of the port, units of 128 B, wrapping
//!                         every 2^20 units (128 MiB)
//! bits 37..61  ts        switch timestamp, ns, wrapping every 2^24 ns (16.8 ms)
//! bits 61..64  rate      index into RATE_TABLE_BPS
//! ```
//!
//! Four hops fit the 40-byte TCP option space a Linux INT channel would use (32 B of records
//! plus a header), five the RDMA header of the artifacts; [`INT_MAX_HOPS`] is 5. The laws take
//! differences of `tx_bytes` and `ts` modulo their field width ([`IntHop::tx_delta_bytes`],
//! [`IntHop::ts_delta_ns`]), so wraps are harmless as long as two samples of one hop are less
//! than 16.8 ms apart (older ones are discarded as a path change would be).
//!
//! The stack is a fixed-size value (no allocation): 5 x 8 B + a count, 48 bytes. It is passed
//! alongside the [`AckEvent`], whose kernel ABI layout stays unchanged.
//!
//! The part the two INT laws share (their window bounds, their decision, the start of their
//! per-ACK step) is here too: [`check_link`], [`CwndBounds`], [`take_history`].
//!
//! This file uses only `core` and its siblings `event`, `fixed` and `powertcp` (for the link
//! ranges both INT laws accept).

use super::event::{AckEvent, Decision, LossEvent, ParamError, Reason};
use super::fixed::{clamp, mul_div, MAX_RATE_BPS, NS_PER_S, Q16_SHIFT};
use super::powertcp::{BASE_RTT_MAX_NS, BASE_RTT_MIN_NS, HOST_BW_MIN_BPS, MAX_CWND_BYTES};

/// Most hops a stack holds (the artifacts' `maxHop` = 5).
pub const INT_MAX_HOPS: usize = 5;

/// Bytes per unit of the `qlen` field.
pub const QLEN_UNIT_BYTES: u64 = 80;
/// Bytes per unit of the `tx_bytes` field.
pub const TX_UNIT_BYTES: u64 = 128;
/// Width of the `qlen` field, bits.
pub const QLEN_BITS: u32 = 17;
/// Width of the `tx_bytes` field, bits.
pub const TX_BITS: u32 = 20;
/// Width of the `ts` field, bits.
pub const TS_BITS: u32 = 24;
/// Width of the `rate` field, bits.
pub const RATE_BITS: u32 = 3;

const QLEN_SHIFT: u32 = 0;
const TX_SHIFT: u32 = QLEN_SHIFT + QLEN_BITS;
const TS_SHIFT: u32 = TX_SHIFT + TX_BITS;
const RATE_SHIFT: u32 = TS_SHIFT + TS_BITS;
const _: () = assert!(RATE_SHIFT + RATE_BITS == 64);

const QLEN_MASK: u64 = (1 << QLEN_BITS) - 1;
const TX_MASK: u64 = (1 << TX_BITS) - 1;
const TS_MASK: u64 = (1 << TS_BITS) - 1;
const RATE_MASK: u64 = (1 << RATE_BITS) - 1;

/// Largest queue length a record can carry, bytes (larger queues saturate there).
pub const QLEN_MAX_BYTES: u64 = QLEN_MASK * QLEN_UNIT_BYTES;

/// Port rates the 3-bit `rate` field can name, bytes per second (10, 25, 40, 50, 100, 200, 400,
/// 800 Gbit/s). A switch port at another rate cannot report INT (the simulator refuses such a
/// run before it starts).
pub const RATE_TABLE_BPS: [u64; 8] = [
    1_250_000_000,
    3_125_000_000,
    5_000_000_000,
    6_250_000_000,
    12_500_000_000,
    25_000_000_000,
    50_000_000_000,
    100_000_000_000,
];

/// One hop's telemetry, packed into 64 bits (layout in the module documentation).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IntHop(pub u64);

impl IntHop {
    /// The index of `rate_bps` (bytes/s) in [`RATE_TABLE_BPS`], if it is there.
    pub fn rate_index(rate_bps: u64) -> Option<u64> {
        let mut i: u64 = 0;
        for r in RATE_TABLE_BPS {
            if r == rate_bps {
                return Some(i);
            }
            i = i.saturating_add(1);
        }
        None
    }

    /// Encode a record: queue `qlen_bytes` (rounded down to 80 B, saturating at
    /// [`QLEN_MAX_BYTES`]), the port's cumulative `tx_bytes` (rounded down to 128 B, kept
    /// modulo 2^20 units), the switch clock `ts_ns` (modulo 2^24) and the port rate in bytes/s.
    /// `None` when the rate is not in [`RATE_TABLE_BPS`].
    pub fn encode(qlen_bytes: u64, tx_bytes: u64, ts_ns: u64, rate_bps: u64) -> Option<IntHop> {
        let rate = IntHop::rate_index(rate_bps)?;
        let q = (qlen_bytes / QLEN_UNIT_BYTES).min(QLEN_MASK);
        let tx = (tx_bytes / TX_UNIT_BYTES) & TX_MASK;
        let ts = ts_ns & TS_MASK;
        Some(IntHop(
            (q << QLEN_SHIFT) | (tx << TX_SHIFT) | (ts << TS_SHIFT) | (rate << RATE_SHIFT),
        ))
    }

    /// Queue length, bytes (a multiple of 80 B).
    pub fn qlen_bytes(&self) -> u64 {
        ((self.0 >> QLEN_SHIFT) & QLEN_MASK).saturating_mul(QLEN_UNIT_BYTES)
    }
    /// The raw `tx_bytes` field (units of 128 B, modulo 2^20).
    pub fn tx_units(&self) -> u64 {
        (self.0 >> TX_SHIFT) & TX_MASK
    }
    /// The raw timestamp field, ns modulo 2^24.
    pub fn ts_ns(&self) -> u64 {
        (self.0 >> TS_SHIFT) & TS_MASK
    }
    /// Port rate, bytes per second.
    pub fn rate_bps(&self) -> u64 {
        let i = (self.0 >> RATE_SHIFT) & RATE_MASK; // < 8
        RATE_TABLE_BPS
            .get(usize::try_from(i).unwrap_or(0))
            .copied()
            .unwrap_or(1_250_000_000) // i < 8: never taken
    }
    /// Does `other` name the same port rate? The same answer as comparing [`IntHop::rate_bps`]
    /// (the entries of [`RATE_TABLE_BPS`] are distinct), from the 3-bit fields alone.
    pub fn same_rate(&self, other: &IntHop) -> bool {
        (self.0 ^ other.0) >> RATE_SHIFT == 0
    }
    /// Bytes transmitted between `prev` and `self` (modulo the field width, in 128 B units).
    pub fn tx_delta_bytes(&self, prev: &IntHop) -> u64 {
        (self.tx_units().wrapping_sub(prev.tx_units()) & TX_MASK).saturating_mul(TX_UNIT_BYTES)
    }
    /// Time between `prev` and `self`, ns (modulo 2^24).
    pub fn ts_delta_ns(&self, prev: &IntHop) -> u64 {
        self.ts_ns().wrapping_sub(prev.ts_ns()) & TS_MASK
    }
}

/// The INT stack of one packet: up to [`INT_MAX_HOPS`] records in path order, and a count.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IntStack {
    /// Records, `hops[..n]` valid.
    pub hops: [IntHop; INT_MAX_HOPS],
    /// Valid records (a larger value from a hostile host is treated as [`INT_MAX_HOPS`]).
    pub n: u8,
    /// Set when a switch found the stack full and could not append (the path is longer than
    /// [`INT_MAX_HOPS`]; the laws then see only the first hops).
    pub overflow: u8,
    /// The path's identity where the records do not carry it, compared by
    /// [`IntStack::same_path`]: 0 for the per-hop stack (the hop count and rates identify the
    /// path); the TCP-INT adapter (`tcp_int.rs`) puts the echoed index of the most congested
    /// hop here, so that a change of bottleneck is a path change (`Documentation/algorithms/tcp-int.md`).
    pub path_id: u8,
    /// Explicit padding.
    pub _pad: [u8; 5],
}

const _: () = assert!(core::mem::size_of::<IntStack>() == 48);

impl IntStack {
    /// An empty stack.
    pub const EMPTY: IntStack = IntStack {
        hops: [IntHop(0); INT_MAX_HOPS],
        n: 0,
        overflow: 0,
        path_id: 0,
        _pad: [0; 5],
    };

    /// Append a record (a switch egress). Returns `false` (and sets `overflow`) when full.
    pub fn push(&mut self, hop: IntHop) -> bool {
        match self.hops.get_mut(usize::from(self.n)) {
            Some(slot) => {
                *slot = hop;
                self.n = self.n.saturating_add(1);
                true
            }
            None => {
                self.overflow = 1;
                false
            }
        }
    }

    /// The valid records.
    pub fn hops(&self) -> &[IntHop] {
        let n = usize::from(self.n).min(INT_MAX_HOPS);
        self.hops.get(..n).unwrap_or(&[])
    }

    /// Is `self` from the same path as `prev` (same `path_id`, hop count and port rates)? A
    /// change (reroute, a new bottleneck of a TCP-INT path, or a hostile stack) makes per-hop
    /// differences meaningless.
    pub fn same_path(&self, prev: &IntStack) -> bool {
        let (a, b) = (self.hops(), prev.hops());
        self.path_id == prev.path_id
            && a.len() == b.len()
            && a.iter()
                .zip(b.iter())
                .all(|(x, y)| x.rate_bps() == y.rate_bps())
    }
}

/// A control law that reads INT. Like [`super::event::Controller`], with the INT stack of the
/// acknowledged packet passed beside the ACK. Per-flow state keeps the previous stack, so it
/// does not fit the kernel's 72-byte budget; no kernel module uses these laws yet.
pub trait IntController {
    /// Validated parameters.
    type Params;
    /// Per-flow state; `Default` is all-zero and means "not initialised".
    type State: Copy + Default;

    /// Initialise at connection start.
    fn init(p: &Self::Params, s: &mut Self::State, now_ns: u64, mss_bytes: u32) -> Decision;
    /// Per-ACK law: `int` is the stack the receiver echoed (empty when the ACK carried none).
    fn on_ack(p: &Self::Params, s: &mut Self::State, ev: &AckEvent, int: &IntStack) -> Decision;
    /// Loss reaction.
    fn on_loss(p: &Self::Params, s: &mut Self::State, ev: &LossEvent) -> Decision;
    /// The current decision without changing state.
    fn current(p: &Self::Params, s: &Self::State, mss_bytes: u32) -> Decision;
}

/// `bytes / (dt · b)` in Q16: the fraction of a port's capacity `b` (bytes/s) that `bytes`
/// moved in `dt_ns` represent (PowerTCP Alg. 1 `txRate / b`; HPCC Alg. 1 line 4
/// `txRate_i / B_i`). `dt_ns ≤ 2^24` (field width) and `b ≤ 2^37` keep `dt · b` below 2^61;
/// `fixed::mul_div` forms the numerator without overflow and saturates a hostile quotient.
/// A zero interval or rate gives `u64::MAX` for a non-zero byte count (callers skip `dt = 0`).
pub fn rate_frac_q16(bytes: u64, dt_ns: u64, rate_bps: u64) -> u64 {
    let denom = dt_ns.saturating_mul(rate_bps);
    super::fixed::mul_div(
        bytes,
        super::fixed::Q16_ONE.saturating_mul(super::fixed::NS_PER_S),
        denom,
    )
}

/// `q / (b · τ)` in Q16: a queue as a fraction of the hop's BDP (PowerTCP `q_j / (b_j τ)`; HPCC
/// `qlen / (B_i · T)`). The BDP `b · τ / 10^9` is formed first (`b ≤ 2^37`, `τ ≤ 2^30`:
/// `mul_div` takes the 2^67 product in two halves); a zero BDP gives `u64::MAX` for `q > 0`.
pub fn bdp_frac_q16(qlen_bytes: u64, rate_bps: u64, tau_ns: u64) -> u64 {
    let bdp_bytes = super::fixed::mul_div(rate_bps, tau_ns, super::fixed::NS_PER_S);
    super::fixed::mul_div(qlen_bytes, super::fixed::Q16_ONE, bdp_bytes)
}

/// Range-check the link an INT law is configured for — its base RTT (`T`, `τ`) in
/// [`BASE_RTT_MIN_NS`, `BASE_RTT_MAX_NS`] and its host NIC rate in [`HOST_BW_MIN_BPS`,
/// `MAX_RATE_BPS`] with HostBw·T ≤ [`MAX_CWND_BYTES`] — and return HostBw·T, bytes Q16 (≤ 2^47:
/// `MAX_CWND_BYTES` is 2^31). HPCC's `W_init` and PowerTCP's initial window (HPCC Alg. 1 line
/// 1 "W = B·T"; PowerTCP §3.3 "HostBw × τ").
pub fn check_link(base_rtt_ns: u64, host_bw_bps: u64) -> Result<u64, ParamError> {
    ParamError::check("base_rtt_ns", base_rtt_ns, BASE_RTT_MIN_NS, BASE_RTT_MAX_NS)?;
    let bw_max = mul_div(MAX_CWND_BYTES, NS_PER_S, base_rtt_ns).min(MAX_RATE_BPS);
    ParamError::check("host_bw_bps", host_bw_bps, HOST_BW_MIN_BPS, bw_max)?;
    Ok(mul_div(host_bw_bps, base_rtt_ns << Q16_SHIFT, NS_PER_S))
}

/// Range-check an INT law's configured window bounds, bytes: the smallest in [1,
/// [`MAX_CWND_BYTES`]], the largest 0 (= HostBw·T) or up to [`MAX_CWND_BYTES`]. Whether
/// min ≤ max is checked by [`CwndBounds::new`], after the law's other fields.
pub fn check_cwnd_bytes(min_cwnd_bytes: u64, max_cwnd_bytes: u64) -> Result<(), ParamError> {
    ParamError::check("min_cwnd_bytes", min_cwnd_bytes, 1, MAX_CWND_BYTES)?;
    ParamError::check("max_cwnd_bytes", max_cwnd_bytes, 0, MAX_CWND_BYTES)
}

/// An INT law's window bounds and initial window, bytes Q16 (each ≤ 2^47).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CwndBounds {
    /// Smallest window.
    pub min_q16: u64,
    /// Largest window.
    pub max_q16: u64,
    /// Initial window: HostBw·T within the bounds.
    pub init_q16: u64,
}

impl CwndBounds {
    /// The bounds from bytes already range-checked by [`check_cwnd_bytes`] (so `<< 16` stays
    /// below 2^47); a zero maximum means `bdp_q16` ([`check_link`]). Refuses min > max.
    pub fn new(
        min_cwnd_bytes: u64,
        max_cwnd_bytes: u64,
        bdp_q16: u64,
    ) -> Result<CwndBounds, ParamError> {
        let min_q16 = min_cwnd_bytes << Q16_SHIFT;
        let max_q16 = if max_cwnd_bytes == 0 {
            bdp_q16
        } else {
            max_cwnd_bytes << Q16_SHIFT
        };
        if min_q16 > max_q16 {
            return Err(ParamError {
                field: "min_cwnd_bytes",
                value: min_cwnd_bytes,
                min: 1,
                max: max_q16 >> Q16_SHIFT,
            });
        }
        Ok(CwndBounds {
            min_q16,
            max_q16,
            init_q16: clamp(bdp_q16, min_q16, max_q16),
        })
    }

    /// `w_q16` within the bounds.
    pub fn clamp(&self, w_q16: u64) -> u64 {
        clamp(w_q16, self.min_q16, self.max_q16)
    }

    /// The decision for window `cwnd_q16` (clamped), paced at `R = W/T` (HPCC Alg. 1 line 26;
    /// PowerTCP Alg. 1 line 9). The window is < 2^31 B and 10^9 < 2^30: the product < 2^61.
    pub fn decision(
        &self,
        cwnd_q16: u64,
        base_rtt_ns: u64,
        signal: i64,
        reason: Reason,
    ) -> Decision {
        let cwnd = self.clamp(cwnd_q16);
        let rate = mul_div(cwnd >> Q16_SHIFT, NS_PER_S, base_rtt_ns).min(MAX_RATE_BPS);
        Decision {
            cwnd_bytes_q16: cwnd,
            pacing_rate_bps: rate,
            signal,
            reason,
            flags: 0,
        }
    }
}

/// State flag of both INT laws: initialised (an all-zero state is not).
pub const F_INIT: u32 = 1 << 0;
/// State flag of both INT laws: the previous stack is valid. Laws number their own flags from
/// bit 2.
pub const F_PREV: u32 = 1 << 1;

/// The start of both INT laws' per-ACK step. No records: `Some(NoSample)`. First stack
/// ([`F_PREV`] clear in `flags`) or a path change ([`IntStack::same_path`]): keep `int` as the
/// previous stack, set [`F_PREV`] — and on the first, start the per-RTT marker at `snd_nxt` — and
/// return `Some(Hold)` (HPCC artifact: "store L"; PowerTCP spec §1.6). Otherwise `None`:
/// measure against `prev`.
pub fn take_history(
    flags: &mut u32,
    prev: &mut IntStack,
    marker_seq: &mut u32,
    int: &IntStack,
    snd_nxt: u32,
) -> Option<Reason> {
    if int.hops().is_empty() {
        return Some(Reason::NoSample);
    }
    let have_prev = *flags & F_PREV != 0;
    if have_prev && int.same_path(prev) {
        return None;
    }
    if !have_prev {
        *marker_seq = snd_nxt;
    }
    *prev = *int;
    *flags |= F_PREV;
    Some(Reason::Hold)
}
