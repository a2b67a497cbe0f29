// SPDX-License-Identifier: GPL-2.0-only
//! The remote-queuing-delay (RQD) TCP option: Swift's receiver-to-sender channel (Swift §3.1,
//! §3.3 "the receiver reports ... remote queuing" and §3.5 "hop count ... reflected back").
//!
//! The receiver (the BPF program `rxstamp/bpf/rqd.bpf.c`) writes one RFC 6994 experimental option
//! on every ACK that acknowledges newly arrived data; the sender's netfilter hook
//! (`modules/glue/rdcc_rqd.c`) hands the TCP option bytes of each incoming ACK to [`scan`].
//! The wire format is defined once for C in `modules/glue/rdcc_rqd_wire.h` (shared by the BPF
//! program and the glue) and here for Rust; `core/tests/rqd.rs` checks that the two agree.
//!
//! ```text
//!  byte  0      1      2..3          4..7                 8            9
//!       kind   len    ExID          delay_ns             ttl          ver_src
//!       253    10     0x5357 (be)   be32, saturating     u8           version << 4 | source
//! ```
//!
//! - `delay_ns`: ACK departure minus the arrival of the newest data segment it acknowledges,
//!   at the receiver, ns; `0xffff_ffff` means "4.29 s or more".
//! - `ttl`: the IPv4 TTL / IPv6 hop limit that segment arrived with; the sender turns it into
//!   the forward hop count with [`forward_hops`].
//! - `ver_src`: version [`VERSION`] in the high nibble; the arrival-stamp source ([`SRC_TCP`],
//!   [`SRC_SW_RX`], [`SRC_HW_RX`]) in the low two bits; bits 2-3 reserved (sent as 0, ignored).
//!
//! Everything here is untrusted input: [`scan`] walks at most the bytes it is given, never
//! panics, and classifies the option list into one [`Outcome`] a host can count.
//!
//! Uses nothing but `core`, so a kernel module can include it with `#[path]`.

/// TCP option kind for experiments with an ExID (RFC 6994 §3, RFC 4727).
pub const KIND: u8 = 253;
/// Length of the option, bytes (kind, len, ExID, delay, ttl, ver_src).
pub const LEN: u8 = 10;
/// The experiment identifier ("SW"), big-endian on the wire.
pub const EXID: u16 = 0x5357;
/// Wire-format version carried in the high nibble of byte 9.
pub const VERSION: u8 = 1;
/// Arrival stamp taken at the TCP layer (BPF `cgroup_skb/ingress`, `bpf_ktime_get_ns`).
pub const SRC_TCP: u8 = 0;
/// Arrival stamp is the kernel's software RX timestamp (`skb->tstamp`, taken at `netif_rx` /
/// `netif_receive_skb`).
pub const SRC_SW_RX: u8 = 1;
/// Arrival stamp is the device's hardware RX timestamp, related to the host clock.
pub const SRC_HW_RX: u8 = 2;
/// Largest TCP option area, bytes (`doff` = 15).
pub const MAX_OPTIONS_LEN: usize = 40;

/// What [`scan`] found in one ACK's option list. The discriminants are the C glue's counter
/// indices (`RDCC_RQD_*` in `modules/glue/rdcc_rqd_wire.h`).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Outcome {
    /// No RQD option (and no kind-253 option of another experiment).
    #[default]
    Absent = 0,
    /// One well-formed RQD option: [`Scan::delay_ns`] and friends are valid.
    Valid = 1,
    /// The option list itself is broken: a length byte of 0 or 1, or an option running past the
    /// end of the header. Nothing in it is used.
    Malformed = 2,
    /// An option with our ExID but a length other than [`LEN`] (truncated or oversized).
    BadLength = 3,
    /// More than one option with our ExID.
    Duplicate = 4,
    /// Our ExID and length with a version other than [`VERSION`].
    BadVersion = 5,
    /// Only kind-253 options of other experiments (another ExID): not ours, ignored.
    Foreign = 6,
}

/// Number of [`Outcome`] values (the C counter array's size).
pub const OUTCOMES: usize = 7;

/// [`Scan::flags`]: `hops` is valid.
pub const SCAN_HAS_HOPS: u8 = 1 << 0;
/// [`Scan::flags`]: the echoed TTL made no sense (0), so no hop count was derived; the delay
/// is still used.
pub const SCAN_BAD_TTL: u8 = 1 << 1;
/// [`Scan::flags`]: a kind-253 option of another experiment was present too.
pub const SCAN_FOREIGN: u8 = 1 << 2;

/// TCP timestamp option kind (RFC 7323 §3.2).
pub const TS_KIND: u8 = 8;
/// Length of the timestamp option, bytes (kind, len, TSval, TSecr).
pub const TS_LEN: u8 = 10;

/// The result of [`scan`], `#[repr(C)]` for the kernel glue (`struct rdcc_rqd_scan`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Scan {
    /// Receiver-side delay, ns (valid with `Outcome::Valid`).
    pub delay_ns: u32,
    /// An [`Outcome`] as `u8`.
    pub outcome: u8,
    /// Forward hop count (valid with [`SCAN_HAS_HOPS`]).
    pub hops: u8,
    /// `SCAN_*` bits.
    pub flags: u8,
    /// Arrival-stamp source (`SRC_*`), valid with `Outcome::Valid`.
    pub source: u8,
    /// TSval of the list's last timestamp option of length [`TS_LEN`] (RFC 7323 §3.2), valid
    /// when `has_ts` is 1: the sender's identity of the ACK (`rdcc_rqd.c`), found by the same
    /// walk, so the hook reads the options once (issue #13).
    pub tsval: u32,
    /// 1 = `tsval` is valid (only with `Outcome::Valid`), 0 = no timestamp option (or not
    /// `Valid`: the hook uses nothing of such a list).
    pub has_ts: u8,
}

impl Scan {
    /// The outcome as the enum.
    pub fn outcome(&self) -> Outcome {
        match self.outcome {
            1 => Outcome::Valid,
            2 => Outcome::Malformed,
            3 => Outcome::BadLength,
            4 => Outcome::Duplicate,
            5 => Outcome::BadVersion,
            6 => Outcome::Foreign,
            _ => Outcome::Absent,
        }
    }
}

/// Forward hop count from the TTL (IPv4) or hop limit (IPv6) the data arrived with (Swift §3.5:
/// "hop count ... computed from the TTL"): the sender's initial TTL is taken as the smallest of
/// the common initial values 32, 64, 128 and 255 that is at least the received one (Linux uses
/// 64, `net.ipv4.ip_default_ttl`), and the hop count is the difference. A received TTL of 0 has
/// no meaning (a router drops a packet whose TTL reaches 0): `None`.
pub fn forward_hops(ttl: u8) -> Option<u8> {
    let initial: u8 = match ttl {
        0 => return None,
        1..=32 => 32,
        33..=64 => 64,
        65..=128 => 128,
        _ => 255,
    };
    initial.checked_sub(ttl)
}

/// The first four bytes of the options Linux writes on every segment of a connection with
/// timestamps (`tcp_options_write`: NOP, NOP, kind 8, length 10), as read in memory order.
const LINUX_TS_PREFIX: u32 = u32::from_ne_bytes([1, 1, TS_KIND, TS_LEN]);

/// The two bytes of [`EXID`] on the wire.
const EXID_HI: u8 = EXID.to_be_bytes()[0];
const EXID_LO: u8 = EXID.to_be_bytes()[1];

/// The first four bytes of a whole RQD option (kind, length, ExID), as read in memory order.
const RQD_PREFIX: u32 = u32::from_ne_bytes([KIND, LEN, EXID_HI, EXID_LO]);

/// NOP NOP TS(10) and one RQD option: the head of the list a Linux receiver sends.
const CANONICAL_LEN: usize = 2 + TS_LEN as usize + LEN as usize;
const _: () = assert!(CANONICAL_LEN == 22);

/// What follows the last option of a list is padding only: NOPs up to the end or an EOL (the
/// walk then ends without looking at anything else).
fn only_padding(mut tail: &[u8]) -> bool {
    // Slice patterns, not an iterator: the kernel's build left `into_iter` out of line.
    loop {
        tail = match tail {
            [] | [0, ..] => return true, // the end, or EOL: the walk stops here
            [1, rest @ ..] => rest,
            _ => return false,
        };
    }
}

/// Walk a TCP option list (the bytes after the 20-byte fixed header, `doff * 4 - 20` of them;
/// more than [`MAX_OPTIONS_LEN`] are ignored) and classify it.
///
/// The walk follows RFC 9293 §3.1: kind 0 (EOL) ends the list, kind 1 (NOP) is one byte, every
/// other option has a length byte of at least 2 that must not run past the end. An RQD option
/// is a kind-253 option whose first two data bytes are [`EXID`]. A broken list is
/// `Malformed` even if an RQD option came before the break (the header cannot be trusted);
/// two RQD options are `Duplicate` (neither is used). With `Valid`, the same walk also gives the
/// TSval of the last timestamp option of length [`TS_LEN`] ([`Scan::tsval`], with `has_ts` set), as the kernel's
/// `tcp_parse_options` takes it: the last one of a well-formed list.
pub fn scan(opts: &[u8]) -> Scan {
    let rest = opts.get(..MAX_OPTIONS_LEN).unwrap_or(opts);
    // The list every segment of a Linux receiver with the option carries: NOP NOP TS(10), one
    // whole RQD option, then nothing but NOPs up to the end or an EOL. The walk below gives
    // exactly this for it (the prefix step, the RQD arm, NOPs, the end: one RQD option, nothing
    // foreign, the timestamp option's TSval); here it is recognised in one step (issue #13).
    if let Some((h, tail)) = rest.split_first_chunk::<CANONICAL_LEN>() {
        // h: NOP NOP TS(10) (bytes 0..12, TSval at 4..8), then the RQD option (12..22: kind,
        // length, ExID, delay at 16..20, TTL, version and source).
        if u32::from_ne_bytes([h[0], h[1], h[2], h[3]]) == LINUX_TS_PREFIX
            && u32::from_ne_bytes([h[12], h[13], h[14], h[15]]) == RQD_PREFIX
            && only_padding(tail)
        {
            let mut s = decode(
                u32::from_be_bytes([h[16], h[17], h[18], h[19]]),
                h[20],
                h[21],
            );
            if s.outcome == Outcome::Valid as u8 {
                s.tsval = u32::from_be_bytes([h[4], h[5], h[6], h[7]]);
                s.has_ts = 1;
            }
            return s;
        }
    }
    walk(rest)
}

/// [`scan`]'s general walk, out of line: the canonical list above needs none of its registers.
#[inline(never)]
fn walk(mut rest: &[u8]) -> Scan {
    let mut ours: u8 = 0; // RQD options seen (saturating)
    let mut first: &[u8] = &[]; // the first one, whole (empty = none)
    let mut tsval: Option<u32> = None; // of the last timestamp option
    let mut foreign = false;
    // Slice patterns: each arm is one length check and byte comparisons, no index arithmetic
    // (issue #13). Linux's NOP NOP TS(10) in front is what the arms below would do with the
    // first three options, at once.
    if let [p0, p1, p2, p3, a, b, c, d, _, _, _, _, tail @ ..] = rest {
        // One 32-bit comparison rather than four byte comparisons.
        if u32::from_ne_bytes([*p0, *p1, *p2, *p3]) == LINUX_TS_PREFIX {
            tsval = Some(u32::from_be_bytes([*a, *b, *c, *d]));
            rest = tail;
        }
    }
    loop {
        rest = match rest {
            [] | [0, ..] => break,  // end of the header, or EOL
            [1, tail @ ..] => tail, // NOP
            // An RQD option of the right length, whole: the general arm's result, at once.
            [KIND, LEN, EXID_HI, EXID_LO, _, _, _, _, _, _, tail @ ..] => {
                if ours == 0 {
                    first = rest;
                }
                ours = ours.saturating_add(1);
                tail
            }
            [kind, len, ..] => {
                // The length must be at least 2 and not run past the end.
                let len = usize::from(*len);
                let (Some(opt), Some(tail)) = (rest.get(..len), rest.get(len..)) else {
                    return outcome_only(Outcome::Malformed, 0);
                };
                if len < 2 {
                    return outcome_only(Outcome::Malformed, 0);
                }
                match (*kind, opt) {
                    // Our ExID: the option's first two data bytes (RFC 6994 §3).
                    (KIND, [_, _, EXID_HI, EXID_LO, ..]) => {
                        if ours == 0 {
                            first = opt;
                        }
                        ours = ours.saturating_add(1);
                    }
                    (KIND, _) => foreign = true,
                    (TS_KIND, [_, TS_LEN, a, b, c, d, ..]) => {
                        tsval = Some(u32::from_be_bytes([*a, *b, *c, *d]));
                    }
                    _ => {}
                }
                tail
            }
            [_] => return outcome_only(Outcome::Malformed, 0), // no length byte
        };
    }
    let foreign_flag = if foreign { SCAN_FOREIGN } else { 0 };
    match ours {
        0 if foreign => outcome_only(Outcome::Foreign, SCAN_FOREIGN),
        0 => Scan::default(),
        1 => match first {
            [_, LEN, _, _, d0, d1, d2, d3, ttl, ver_src, ..] => {
                let mut s = decode(u32::from_be_bytes([*d0, *d1, *d2, *d3]), *ttl, *ver_src);
                s.flags |= foreign_flag;
                if let (Outcome::Valid, Some(ts)) = (s.outcome(), tsval) {
                    s.tsval = ts;
                    s.has_ts = 1;
                }
                s
            }
            _ => outcome_only(Outcome::BadLength, foreign_flag),
        },
        _ => outcome_only(Outcome::Duplicate, foreign_flag),
    }
}

fn outcome_only(o: Outcome, flags: u8) -> Scan {
    Scan {
        outcome: o as u8,
        flags,
        ..Scan::default()
    }
}

/// Decode the fields of an RQD option (the caller checked kind, length and ExID).
fn decode(delay: u32, ttl: u8, ver_src: u8) -> Scan {
    if ver_src >> 4 != VERSION {
        return outcome_only(Outcome::BadVersion, 0);
    }
    let (hops, flags) = match forward_hops(ttl) {
        Some(h) => (h, SCAN_HAS_HOPS),
        None => (0, SCAN_BAD_TTL),
    };
    Scan {
        delay_ns: delay,
        outcome: Outcome::Valid as u8,
        hops,
        flags,
        source: ver_src & 0x3,
        tsval: 0,
        has_ts: 0,
    }
}

/// Encode an RQD option (what the receiver writes; used by tests and the simulator).
pub fn encode(delay_ns: u64, ttl: u8, source: u8) -> [u8; LEN as usize] {
    let d = if delay_ns > u32::MAX as u64 {
        u32::MAX
    } else {
        delay_ns as u32
    };
    let e = EXID.to_be_bytes();
    let b = d.to_be_bytes();
    [
        KIND,
        LEN,
        e[0],
        e[1],
        b[0],
        b[1],
        b[2],
        b[3],
        ttl,
        (VERSION << 4) | (source & 0x3),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roundtrip() {
        let o = encode(123_456, 61, SRC_SW_RX);
        let s = scan(&o);
        assert_eq!(s.outcome(), Outcome::Valid);
        assert_eq!(s.delay_ns, 123_456);
        assert_eq!(s.hops, 3);
        assert_eq!(s.flags, SCAN_HAS_HOPS);
        assert_eq!(s.source, SRC_SW_RX);
    }

    #[test]
    fn hops_table() {
        assert_eq!(forward_hops(0), None);
        assert_eq!(forward_hops(1), Some(31));
        assert_eq!(forward_hops(32), Some(0));
        assert_eq!(forward_hops(33), Some(31));
        assert_eq!(forward_hops(64), Some(0));
        assert_eq!(forward_hops(60), Some(4));
        assert_eq!(forward_hops(128), Some(0));
        assert_eq!(forward_hops(255), Some(0));
        assert_eq!(forward_hops(250), Some(5));
    }
}
