// SPDX-License-Identifier: GPL-2.0-only
//! TCP-INT: the TCP option that P4 TCP-INT switches write (Intel's open-source in-band telemetry
//! for TCP), its parser and writer, and the conversion of its aggregated telemetry into the
//! one-hop [`IntStack`] the INT laws read.
//!
//! Specification read (never copied): the public repository `p4lang/p4app-TCP-INT`, releases
//! v0.2.0-alpha (commit `6949b46`), v0.3.0-alpha (`3efc3b0`) and v0.4.0-alpha (`6aa478b`):
//! `README.md` ("TCP-INT option format", "Workflow"), `code/include/tcp_int_opt.h` and
//! `tcp_int_common.h` (field types, scales, the HopLatEcr and IDEcr encodings) and
//! `code/src/bpf/tcp_int.bpf.c` (the option as the end hosts write it); Jereczek et al.,
//! "TCP-INT: Lightweight Network Telemetry with TCP Transport", SIGCOMM'22 demo. The reading of
//! TCP-INT by the PowerTCP authors' Linux port (`inet-tub/powertcp-linux`,
//! `bpf/powertcp_tcp-int.bpf.c`, which builds against v0.2.0-alpha) guided [`to_stack`].
//! Everything is described in `Documentation/algorithms/tcp-int.md`.
//!
//! One option, kind 0x72, length 12, on every segment of a monitored flow. Switches update the
//! forward fields; the receiver copies the latest forward values it received into the echo
//! fields of the segments it sends. Two layouts share kind and length, so the wire cannot tell
//! them apart and the [`Version`] is a setting of the deployment:
//!
//! ```text
//! v0.2:   byte 0     1     2       3          4       5          6..9          9..12
//!         kind  len   INTval  INTecr     HopID   HopIDecr   SWLat (be24)  SWLatEcr (be24)
//!
//! v0.3+:  byte 0     1     2                    3       4       5..8          8
//!         kind  len   TagFreq<<4 | LinkSpd  INTval  HopID   HopLat (be24) INTEcr
//!         byte 9                  10..12
//!              HIDEcr<<4 | LnkSEcr  HopLatEcr (16 bits, little-endian: see below)
//! ```
//!
//! Forward fields (switches): INTval, the congestion of the most congested hop (the largest
//! value wins: "pkt.INTval = switch.INTval if switch.INTval > pkt.INTval"); HopID, that hop's
//! IP TTL ("pkt.HopID = IP.TTL if switch.INTval > pkt.INTval"), 0 until a switch tags; HopLat,
//! the saturating sum of the hop latencies, in units of [`HOPLAT_UNIT_NS`] ("the upper 24 bits of
//! a 32-bit unsigned that represents the sum of hop latencies in ns"); LinkSpd (v0.4), a code
//! of the port speed ([`LINK_SPEED_GBPS`]). TagFreq is the sender's request of a tagging
//! frequency (a key, [`TAG_FREQ_SWITCH_DEFAULT`] = the switch's default).
//!
//! INTval ([`Congestion`]): 0x80 and above, a queue of `(INTval & 0x7f) · 8 KiB`; below, the
//! link utilisation in 8 % steps (v0.2, v0.3: `INTval << 3` %) or the available bandwidth
//! `0x7f − INTval` Gbit/s (v0.4).
//!
//! Echo fields (receiver): v0.2 copies INTval, HopID and SWLat as they arrived. v0.3 and v0.4
//! carry the hop as a 4-bit index from the sender (`64 − HopID + 1` in v0.3, `64 − HopID` in
//! v0.4; 0 = no echo) and HopLat compressed to 16 bits ([`hop_lat_to_ecr`]); v0.4 echoes LinkSpd.
//!
//! Where the README's diagram and the hosts' code disagree, this file follows the code, because
//! the echo is only ever written by that code: the echo's 4-bit fields (byte 9) are HIDEcr in
//! the high nibble and LnkSEcr in the low one (the diagram draws them the other way round), and
//! HopLatEcr is written in the echoing host's byte order, little-endian on the x86 hosts the
//! release was tested on (the diagram gives no order). The v0.2 diagram's "Length = 6" is the
//! hosts' 12.
//!
//! Everything here is untrusted input: [`scan`] reads at most [`MAX_OPTIONS_LEN`] bytes, never
//! panics, and classifies every list into one [`Outcome`] a host can count.
//!
//! Uses only `core` and its siblings `event`, `fixed` and `int`.

use super::event::ParamError;
use super::fixed::{mul_div, mul_q16, NS_PER_S, Q16_ONE};
use super::int::{IntHop, IntStack, RATE_TABLE_BPS};

/// TCP option kind of TCP-INT (README: "Kind = 0x72"; not assigned by IANA).
pub const KIND: u8 = 0x72;
/// Length of the option, bytes, in every version (the `struct tcp_int_opt` the hosts write).
pub const LEN: u8 = 12;
/// Largest TCP option area, bytes (`doff` = 15).
pub const MAX_OPTIONS_LEN: usize = 40;
/// The TTL the TCP-INT hosts assume senders start with (`TCP_INT_TTL_INIT`).
pub const TTL_INIT: u8 = 64;

/// INTval at or above this is a queue depth (`TCP_INT_MIN_QDEPTH_SCALED`).
pub const INTVAL_QUEUE: u8 = 0x80;
/// The value bits of INTval (`TCP_INT_MAX_UTIL_SCALED` / `TCP_INT_MIN_AVAILBW_SCALED`).
pub const INTVAL_MASK: u8 = 0x7f;
/// Bytes per unit of a queue INTval (`1 << TCP_INT_QDEPTH_BITSHIFT`, 8 KiB).
pub const QDEPTH_UNIT_BYTES: u64 = 1 << 13;
/// Largest queue INTval can name, bytes (127 units: 1,040,384 B); deeper queues saturate.
pub const QDEPTH_MAX_BYTES: u64 = INTVAL_MASK as u64 * QDEPTH_UNIT_BYTES;
/// Percent per unit of a utilisation INTval (v0.2, v0.3: `1 << TCP_INT_UTIL_BITSHIFT`).
pub const UTIL_UNIT_PCT: u16 = 8;
const UTIL_UNIT_PCT_U64: u64 = UTIL_UNIT_PCT as u64;
/// Full utilisation, percent (`TCP_INT_MAX_UTIL_PERCENT`): values above it (INTval 13 to 127
/// in v0.2 and v0.3) are read as 100 %.
pub const UTIL_MAX_PCT: u16 = 100;
/// Bytes per second per unit of an available-bandwidth INTval (v0.4: 1 Gbit/s, the tool's
/// `"AVAIL BW[Gbps]"`); 0 to 127 Gbit/s.
pub const AVAIL_BW_UNIT_BPS: u64 = 125_000_000;
/// Nanoseconds per unit of HopLat and of a fine HopLatEcr (`1 << TCP_INT_HLAT_BITSHIFT`).
pub const HOPLAT_UNIT_NS: u64 = 256;
/// Largest HopLat (24 bits): 4,294,967,040 ns; the switches' sum saturates there.
pub const HOPLAT_MAX: u32 = (1 << 24) - 1;
/// HopLatEcr (v0.3+): this bit set means the coarse form, units of [`HOPLATECR_COARSE_UNIT_NS`].
pub const HOPLATECR_COARSE: u32 = 0x8000;
/// Nanoseconds per unit of a coarse HopLatEcr (`1 << (2 · TCP_INT_HLAT_BITSHIFT)`).
pub const HOPLATECR_COARSE_UNIT_NS: u64 = 1 << 16;
/// Largest hop index of the v0.3+ echo (4 bits, 0 = no echo): "at most 15 hops".
pub const HOP_INDEX_MAX: u8 = 15;
/// TagFreq asking for the switch's default tagging frequency
/// (`TCP_INT_TAGFREQKEY_SWITCH_DEFAULT`).
pub const TAG_FREQ_SWITCH_DEFAULT: u8 = 0xf;
/// Port speed of each LinkSpd code, Gbit/s (`tcp_int_unmap_link_speed`); 0 = unknown (codes 0
/// and 8 to 15).
pub const LINK_SPEED_GBPS: [u64; 8] = [0, 10, 25, 40, 50, 100, 200, 400];

/// The release whose layout and field meanings the deployment uses (kind and length are the
/// same in all of them).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// v0.2.0-alpha: INTval is utilisation or queue; the echo copies the fields (the version
    /// the PowerTCP Linux port builds against).
    V0_2 = 2,
    /// v0.3.0-alpha: TagFreq and LinkSpd, the compact echo (4-bit hop index `65 − HopID`,
    /// 16-bit HopLatEcr).
    V0_3 = 3,
    /// v0.4.0-alpha: as v0.3, INTval's low range is available bandwidth, the hop index is
    /// `64 − HopID`, LinkSpd is echoed.
    V0_4 = 4,
}

impl Version {
    /// The version named by a module parameter or scenario key (2, 3 or 4).
    pub fn new(v: u64) -> Result<Version, ParamError> {
        match v {
            2 => Ok(Version::V0_2),
            3 => Ok(Version::V0_3),
            4 => Ok(Version::V0_4),
            _ => Err(ParamError {
                field: "tcp_int_version",
                value: v,
                min: 2,
                max: 4,
            }),
        }
    }
}

/// The fields of one TCP-INT option as they are on the wire (unscaled). Fields a version does
/// not have are 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpIntOpt {
    /// TagFreq (v0.3+), 4 bits.
    pub tag_freq: u8,
    /// LinkSpd (v0.3+), 4 bits: a [`LINK_SPEED_GBPS`] code.
    pub link_speed: u8,
    /// INTval: see [`congestion`].
    pub intval: u8,
    /// HopID: the TTL at the most congested hop; 0 = no switch tagged.
    pub hop_id: u8,
    /// HopLat (SWLat in v0.2), 24 bits, units of [`HOPLAT_UNIT_NS`].
    pub hop_lat: u32,
    /// INTEcr: an INTval echoed.
    pub intval_ecr: u8,
    /// LnkSEcr (v0.3+), 4 bits.
    pub link_speed_ecr: u8,
    /// HopIDecr: a TTL (v0.2) or a 4-bit hop index (v0.3+); 0 = no echo.
    pub hop_id_ecr: u8,
    /// SWLatEcr (v0.2, 24 bits) or HopLatEcr (v0.3+, 16 bits): see [`hop_lat_ecr_ns`].
    pub hop_lat_ecr: u32,
}

/// What [`scan`] found in one segment's option list. The discriminants are counter indices.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Outcome {
    /// No kind-0x72 option.
    #[default]
    Absent = 0,
    /// One well-formed TCP-INT option: [`Scan::opt`] is valid.
    Valid = 1,
    /// An option of the list has a length byte of 0 or 1: the list is broken.
    BadOptionLength = 2,
    /// An option (or a kind byte without its length) runs past the end of the bytes given,
    /// within the 40-byte option space: the header was cut short.
    Truncated = 3,
    /// An option runs past byte 40: no TCP header can hold it.
    BeyondOptionSpace = 4,
    /// A kind-0x72 option whose length is not [`LEN`].
    BadLength = 5,
    /// More than one kind-0x72 option (none is used).
    Duplicate = 6,
}

/// Number of [`Outcome`] values.
pub const OUTCOMES: usize = 7;

/// The result of [`scan`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scan {
    /// What the list held.
    pub outcome: Outcome,
    /// The option's fields (all 0 unless `outcome` is `Valid`).
    pub opt: TcpIntOpt,
    /// Offset of the option's kind byte in the list (0 unless `Valid`).
    pub offset: u8,
}

fn failed(outcome: Outcome) -> Scan {
    Scan {
        outcome,
        ..Scan::default()
    }
}

/// An option that runs past the list: past byte 40, or past the bytes given.
fn overrun(end: usize) -> Scan {
    failed(if end > MAX_OPTIONS_LEN {
        Outcome::BeyondOptionSpace
    } else {
        Outcome::Truncated
    })
}

/// Walk a TCP option list (the bytes after the 20-byte fixed header, `doff · 4 − 20` of them;
/// bytes past [`MAX_OPTIONS_LEN`] are outside every header) and find the TCP-INT option.
///
/// The walk follows RFC 9293 §3.1: kind 0 (EOL) ends the list, kind 1 (NOP) is one byte, every
/// other option has a length byte of at least 2 that must not run past the end. A broken list
/// (`BadOptionLength`, `Truncated`, `BeyondOptionSpace`) is reported even when a TCP-INT option
/// came before the break: the header cannot be trusted. Then two or more kind-0x72 options are
/// `Duplicate`, one of the wrong length `BadLength`.
pub fn scan(opts: &[u8], v: Version) -> Scan {
    let list = opts.get(..MAX_OPTIONS_LEN).unwrap_or(opts);
    let mut rest = list;
    let mut off: usize = 0;
    let mut ours: u8 = 0;
    let mut bad_len = false;
    let mut first: Option<(&[u8], usize)> = None;
    loop {
        let step = match rest {
            [] | [0, ..] => break,
            [1, ..] => 1,
            // A kind byte whose length byte would be at `off + 1`.
            [_] => return overrun(off.saturating_add(2)),
            [kind, len, ..] => {
                let l = usize::from(*len);
                if l < 2 {
                    return failed(Outcome::BadOptionLength);
                }
                let Some(opt) = rest.get(..l) else {
                    return overrun(off.saturating_add(l));
                };
                if *kind == KIND {
                    ours = ours.saturating_add(1);
                    if l == usize::from(LEN) {
                        first = first.or(Some((opt, off)));
                    } else {
                        bad_len = true;
                    }
                }
                l
            }
        };
        rest = rest.get(step..).unwrap_or(&[]);
        off = off.saturating_add(step);
    }
    match (ours, bad_len, first) {
        (0, _, _) => Scan::default(),
        (1, false, Some((bytes, at))) => match decode(bytes, v) {
            Some(opt) => Scan {
                outcome: Outcome::Valid,
                opt,
                offset: u8::try_from(at).unwrap_or(u8::MAX),
            },
            None => failed(Outcome::BadLength), // not reached: `bytes` has LEN bytes
        },
        (1, _, _) => failed(Outcome::BadLength),
        _ => failed(Outcome::Duplicate),
    }
}

/// The fields of a whole option (kind and length already checked), in `v`'s layout.
pub fn decode(bytes: &[u8], v: Version) -> Option<TcpIntOpt> {
    let [_, _, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11] = bytes else {
        return None;
    };
    Some(match v {
        Version::V0_2 => TcpIntOpt {
            intval: *b2,
            intval_ecr: *b3,
            hop_id: *b4,
            hop_id_ecr: *b5,
            hop_lat: u32::from_be_bytes([0, *b6, *b7, *b8]),
            hop_lat_ecr: u32::from_be_bytes([0, *b9, *b10, *b11]),
            ..TcpIntOpt::default()
        },
        Version::V0_3 | Version::V0_4 => TcpIntOpt {
            tag_freq: *b2 >> 4,
            link_speed: *b2 & 0xf,
            intval: *b3,
            hop_id: *b4,
            hop_lat: u32::from_be_bytes([0, *b5, *b6, *b7]),
            intval_ecr: *b8,
            hop_id_ecr: *b9 >> 4,
            link_speed_ecr: *b9 & 0xf,
            hop_lat_ecr: u32::from(u16::from_le_bytes([*b10, *b11])),
        },
    })
}

/// The option's bytes in `v`'s layout. Fields wider than their wire width are cut to it (the
/// 4-bit fields, HopLat to 24 bits, HopLatEcr to 24 (v0.2) or 16 bits); fields `v` does not
/// have are left out. `decode(&encode(o, v), v)` is `o` for every `o` within the widths.
pub fn encode(o: &TcpIntOpt, v: Version) -> [u8; LEN as usize] {
    let [_, l1, l2, l3] = (o.hop_lat & HOPLAT_MAX).to_be_bytes();
    match v {
        Version::V0_2 => {
            let [_, e1, e2, e3] = (o.hop_lat_ecr & HOPLAT_MAX).to_be_bytes();
            [
                KIND,
                LEN,
                o.intval,
                o.intval_ecr,
                o.hop_id,
                o.hop_id_ecr,
                l1,
                l2,
                l3,
                e1,
                e2,
                e3,
            ]
        }
        Version::V0_3 | Version::V0_4 => {
            let [e0, e1, _, _] = (o.hop_lat_ecr & 0xffff).to_le_bytes();
            [
                KIND,
                LEN,
                (o.tag_freq & 0xf) << 4 | (o.link_speed & 0xf),
                o.intval,
                o.hop_id,
                l1,
                l2,
                l3,
                o.intval_ecr,
                (o.hop_id_ecr & 0xf) << 4 | (o.link_speed_ecr & 0xf),
                e0,
                e1,
            ]
        }
    }
}

/// What an INTval says about the most congested hop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Congestion {
    /// Link utilisation, percent (v0.2, v0.3), `INTval · 8`: 0 to 1016; above
    /// [`UTIL_MAX_PCT`] has no meaning and is read as full.
    UtilPct(u16),
    /// Available bandwidth, Gbit/s (v0.4), `0x7f − INTval`: 0 to 127.
    AvailGbps(u8),
    /// A queue, bytes, `(INTval & 0x7f) · 8 KiB`: 0 to [`QDEPTH_MAX_BYTES`]; the link is full.
    QueueBytes(u64),
}

/// Decode an INTval (`tcp_int_ival_to_*` of the release's `tcp_int_common.h`).
pub fn congestion(intval: u8, v: Version) -> Congestion {
    let value = intval & INTVAL_MASK;
    if intval >= INTVAL_QUEUE {
        return Congestion::QueueBytes(u64::from(value).saturating_mul(QDEPTH_UNIT_BYTES));
    }
    match v {
        Version::V0_2 | Version::V0_3 => {
            Congestion::UtilPct(u16::from(value).saturating_mul(UTIL_UNIT_PCT))
        }
        Version::V0_4 => Congestion::AvailGbps(INTVAL_MASK.saturating_sub(value)),
    }
}

/// The INTval a switch port reports (our reading of the README's "the link utilization (or
/// queue depth if utilization is 100%)"; the switch program is not public): a non-empty queue
/// as a queue value (rounded down to 8 KiB, saturating at [`QDEPTH_MAX_BYTES`]); otherwise the
/// utilisation, percent, rounded down to 8 % (v0.2, v0.3), or the available bandwidth, bytes/s,
/// rounded down to 1 Gbit/s (v0.4). Larger means more congested in every version.
pub fn intval_of(queue_bytes: u64, util_pct: u64, avail_bps: u64, v: Version) -> u8 {
    if queue_bytes > 0 {
        let units = (queue_bytes / QDEPTH_UNIT_BYTES).min(u64::from(INTVAL_MASK));
        return INTVAL_QUEUE | u8::try_from(units).unwrap_or(INTVAL_MASK);
    }
    let value = match v {
        Version::V0_2 | Version::V0_3 => util_pct.min(u64::from(UTIL_MAX_PCT)) / UTIL_UNIT_PCT_U64,
        Version::V0_4 => u64::from(INTVAL_MASK)
            .saturating_sub((avail_bps / AVAIL_BW_UNIT_BPS).min(u64::from(INTVAL_MASK))),
    };
    u8::try_from(value).unwrap_or(INTVAL_MASK)
}

/// One switch's update of a data segment's option (README "Workflow"): the larger INTval wins,
/// with this hop's TTL and (v0.3+, our reading) its LinkSpd code; HopLat grows by this hop's
/// latency, summed in ns in 32 bits with saturation and kept as the upper 24 bits
/// (`tcp_int_common.h`).
pub fn switch_update(o: &mut TcpIntOpt, intval: u8, ttl: u8, latency_ns: u64, link_speed: u8) {
    if intval > o.intval {
        o.intval = intval;
        o.hop_id = ttl;
        o.link_speed = link_speed & 0xf;
    }
    let sum_ns = u64::from(o.hop_lat & HOPLAT_MAX)
        .saturating_mul(HOPLAT_UNIT_NS)
        .saturating_add(latency_ns)
        .min(u64::from(u32::MAX));
    o.hop_lat = u32::try_from(sum_ns / HOPLAT_UNIT_NS).unwrap_or(HOPLAT_MAX);
}

/// HopLat in ns (0 to 4,294,967,040).
pub fn hop_lat_ns(hop_lat: u32) -> u64 {
    u64::from(hop_lat & HOPLAT_MAX).saturating_mul(HOPLAT_UNIT_NS)
}

/// The receiver's HopLatEcr for a HopLat: v0.2 copies it; v0.3+ keeps a HopLat below 2^15
/// units (8.39 ms) exactly and otherwise its upper bits in units of 65,536 ns with
/// [`HOPLATECR_COARSE`] set (`tcp_int_hoplat_to_hoplatecr`). A HopLat of 2^23 units (2.15 s)
/// or more saturates at 0xffff (the release's macro would drop its top bit into the flag).
pub fn hop_lat_to_ecr(hop_lat: u32, v: Version) -> u32 {
    let h = hop_lat & HOPLAT_MAX;
    match v {
        Version::V0_2 => h,
        Version::V0_3 | Version::V0_4 => {
            if h < HOPLATECR_COARSE {
                h
            } else {
                (h >> 8).min(0x7fff) | HOPLATECR_COARSE
            }
        }
    }
}

/// The echoed latency in ns (`tcp_int_hoplatecr_to_ns`, with the flag bit removed from the
/// coarse value: the release's macro leaves it in, adding 2^31 ns to every coarse echo).
pub fn hop_lat_ecr_ns(ecr: u32, v: Version) -> u64 {
    match v {
        Version::V0_2 => hop_lat_ns(ecr),
        Version::V0_3 | Version::V0_4 => {
            let e = ecr & 0xffff;
            if e & HOPLATECR_COARSE != 0 {
                u64::from(e & 0x7fff).saturating_mul(HOPLATECR_COARSE_UNIT_NS)
            } else {
                u64::from(e).saturating_mul(HOPLAT_UNIT_NS)
            }
        }
    }
}

/// The echo's hop for a HopID (a TTL): v0.2 the TTL itself; v0.3 `65 − TTL`, v0.4 `64 − TTL`
/// (`tcp_int_id_to_idecr`), held within [1, [`HOP_INDEX_MAX`]] (the release cuts it to 4 bits,
/// so hop 16 would read as "no echo" and hop 17 as hop 1; and in v0.4 a TTL of 64 gives 0,
/// which the sender would drop). 0 (no switch tagged) stays 0.
pub fn hop_index(hop_id: u8, v: Version) -> u8 {
    let base = match v {
        Version::V0_2 => return hop_id,
        Version::V0_3 => TTL_INIT.saturating_add(1),
        Version::V0_4 => TTL_INIT,
    };
    if hop_id == 0 {
        return 0;
    }
    base.saturating_sub(hop_id).clamp(1, HOP_INDEX_MAX)
}

/// Port rate of a LinkSpd code, bytes/s; `None` for the unknown codes.
pub fn link_speed_bps(code: u8) -> Option<u64> {
    match LINK_SPEED_GBPS.get(usize::from(code)) {
        Some(&g) if g > 0 => Some(g.saturating_mul(AVAIL_BW_UNIT_BPS)),
        _ => None,
    }
}

/// The LinkSpd code of a port rate (bytes/s), 0 if it has none.
pub fn link_speed_code(rate_bps: u64) -> u8 {
    let mut code: u8 = 0;
    for g in LINK_SPEED_GBPS {
        if g > 0 && g.saturating_mul(AVAIL_BW_UNIT_BPS) == rate_bps {
            return code;
        }
        code = code.saturating_add(1);
    }
    0
}

/// The echo a receiver keeps after a data segment with forward fields `data` (README
/// "Workflow": "the eBPF sets the ecr fields to the latest INT received"; the hosts take a
/// segment's values only when a switch tagged it, HopID ≠ 0). `None`: nothing to echo, keep
/// the previous echo.
pub fn echo_of(data: &TcpIntOpt, v: Version) -> Option<TcpIntOpt> {
    if data.hop_id == 0 {
        return None;
    }
    Some(TcpIntOpt {
        intval_ecr: data.intval,
        hop_id_ecr: hop_index(data.hop_id, v),
        hop_lat_ecr: hop_lat_to_ecr(data.hop_lat, v),
        link_speed_ecr: match v {
            Version::V0_4 => data.link_speed & 0xf,
            Version::V0_2 | Version::V0_3 => 0,
        },
        ..TcpIntOpt::default()
    })
}

/// The option a TCP-INT host sends on every segment: forward fields 0 for the switches to fill,
/// the tagging-frequency key (v0.3+), and the echo fields of `echo` (from [`echo_of`], or all 0
/// before anything was received).
pub fn outgoing(echo: &TcpIntOpt, tag_freq: u8, v: Version) -> [u8; LEN as usize] {
    let o = TcpIntOpt {
        tag_freq: match v {
            Version::V0_2 => 0,
            Version::V0_3 | Version::V0_4 => tag_freq & 0xf,
        },
        intval_ecr: echo.intval_ecr,
        link_speed_ecr: echo.link_speed_ecr,
        hop_id_ecr: echo.hop_id_ecr,
        hop_lat_ecr: echo.hop_lat_ecr,
        ..TcpIntOpt::default()
    };
    encode(&o, v)
}

// ---------------------------------------------------------------------------------------------
// What the INT laws can take from it (Documentation/algorithms/tcp-int.md "Mapping").

/// Largest interval the adapter's clock advances by between two echoes, ns (2^23, 8.39 ms:
/// half the wrap of [`IntHop`]'s 24-bit timestamp, so the laws' modular differences stay exact).
pub const ADAPTER_DT_MAX_NS: u64 = 1 << 23;

/// The adapter's validated settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AdapterParams {
    /// The deployment's release.
    pub version: Version,
    /// Rate of the most congested hop when the echo names none (v0.2, v0.3, or an unknown
    /// LinkSpd code), bytes/s: one of [`RATE_TABLE_BPS`] (the PowerTCP Linux port's `hop_bw`).
    pub hop_rate_bps: u64,
}

impl AdapterParams {
    /// Range-check the settings: `version` 2 to 4, `hop_rate_bps` a rate the record can name.
    pub fn new(version: u64, hop_rate_bps: u64) -> Result<AdapterParams, ParamError> {
        let version = Version::new(version)?;
        if IntHop::rate_index(hop_rate_bps).is_none() {
            return Err(ParamError {
                field: "hop_rate_bps",
                value: hop_rate_bps,
                min: RATE_TABLE_BPS.first().copied().unwrap_or(0),
                max: RATE_TABLE_BPS.last().copied().unwrap_or(0),
            });
        }
        Ok(AdapterParams {
            version,
            hop_rate_bps,
        })
    }
}

/// The adapter's per-flow state: its clock and the transmitted-bytes counter it estimates.
/// All-zero is the state before the first echo.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Adapter {
    /// Estimated bytes transmitted by the bottleneck port since the first echo (wrapping).
    pub tx_bytes: u64,
    /// The adapter's clock, ns: advances by the ACK interval, at most [`ADAPTER_DT_MAX_NS`].
    pub clock_ns: u64,
    /// The sender's time of the last echo, ns.
    pub last_ns: u64,
    /// 1 once an echo has been converted.
    pub have: u8,
}

/// Why [`to_stack`] produced no stack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skip {
    /// The segment carried no echo (HopIDecr = 0: no switch has tagged this flow's data yet).
    NoEcho,
    /// The echoed LinkSpd names no rate and the configured one is not usable (not reached with
    /// validated [`AdapterParams`]).
    UnknownRate,
}

/// The bottleneck's utilisation, Q16 (0 to 1.0), from an INTval and the port rate (bytes/s):
/// a queue is full utilisation; v0.2/v0.3 `min(pct, 100)/100`; v0.4 `(C − A)/C` with C the
/// rate and A the available bandwidth (at most C).
pub fn util_q16(intval: u8, rate_bps: u64, v: Version) -> u64 {
    match congestion(intval, v) {
        Congestion::QueueBytes(_) => Q16_ONE,
        Congestion::UtilPct(p) => mul_div(
            u64::from(p.min(UTIL_MAX_PCT)),
            Q16_ONE,
            u64::from(UTIL_MAX_PCT),
        ),
        Congestion::AvailGbps(a) => {
            let avail = u64::from(a).saturating_mul(AVAIL_BW_UNIT_BPS).min(rate_bps);
            mul_div(rate_bps.saturating_sub(avail), Q16_ONE, rate_bps)
        }
    }
}

/// Convert one echo into the one-hop stack the INT laws read, and the adapter's next state.
///
/// The record is the most congested hop as TCP-INT names it: its queue (the queue INTval, 0
/// otherwise), its rate (the echoed LinkSpd, else `hop_rate_bps`), a timestamp from the
/// sender's clock (`now_ns`: TCP-INT carries no switch time; the interval is clamped to
/// [`ADAPTER_DT_MAX_NS`]), and a transmitted-bytes counter advanced by `util · rate · dt`
/// (TCP-INT carries no byte counter; the PowerTCP Linux port estimates it the same way). The
/// stack's `path_id` is the echoed hop, so a new bottleneck is a path change for the laws.
pub fn to_stack(
    p: &AdapterParams,
    st: &Adapter,
    echo: &TcpIntOpt,
    now_ns: u64,
) -> Result<(IntStack, Adapter), Skip> {
    if echo.hop_id_ecr == 0 {
        return Err(Skip::NoEcho);
    }
    let v = p.version;
    let rate_bps = match v {
        Version::V0_4 => link_speed_bps(echo.link_speed_ecr).unwrap_or(p.hop_rate_bps),
        Version::V0_2 | Version::V0_3 => p.hop_rate_bps,
    };
    let dt_ns = if st.have != 0 {
        now_ns.saturating_sub(st.last_ns).min(ADAPTER_DT_MAX_NS)
    } else {
        0
    };
    // Bytes at line rate in dt (rate ≤ 2^37, dt ≤ 2^23: below 2^60), times the utilisation.
    let moved = mul_q16(
        mul_div(rate_bps, dt_ns, NS_PER_S),
        util_q16(echo.intval_ecr, rate_bps, v),
    );
    let next = Adapter {
        tx_bytes: st.tx_bytes.wrapping_add(moved),
        clock_ns: st.clock_ns.wrapping_add(dt_ns),
        last_ns: now_ns,
        have: 1,
    };
    let queue_bytes = match congestion(echo.intval_ecr, v) {
        Congestion::QueueBytes(q) => q,
        Congestion::UtilPct(_) | Congestion::AvailGbps(_) => 0,
    };
    let hop = IntHop::encode(queue_bytes, next.tx_bytes, next.clock_ns, rate_bps)
        .ok_or(Skip::UnknownRate)?;
    let mut stack = IntStack::EMPTY;
    stack.push(hop);
    stack.path_id = echo.hop_id_ecr;
    Ok((stack, next))
}
