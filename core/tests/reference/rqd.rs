// SPDX-License-Identifier: GPL-2.0-only
// Frozen reference (issue #13, round 3): `core/src/rqd.rs` as of commit 18e3b53 (before the
// one-walk scan that also returns the TSval), unit tests removed. core/tests/rqd_tsval.rs runs
// it beside the current scan on hostile option lists and requires identical results. Never
// edit it; when the scan's behaviour changes on purpose, delete this copy and that test.
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

fn be16(b: &[u8], at: usize) -> Option<u16> {
    let hi = *b.get(at)?;
    let lo = *b.get(at.checked_add(1)?)?;
    Some(u16::from_be_bytes([hi, lo]))
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    let b0 = *b.get(at)?;
    let b1 = *b.get(at.checked_add(1)?)?;
    let b2 = *b.get(at.checked_add(2)?)?;
    let b3 = *b.get(at.checked_add(3)?)?;
    Some(u32::from_be_bytes([b0, b1, b2, b3]))
}

/// Walk a TCP option list (the bytes after the 20-byte fixed header, `doff * 4 - 20` of them;
/// more than [`MAX_OPTIONS_LEN`] are ignored) and classify it.
///
/// The walk follows RFC 9293 §3.1: kind 0 (EOL) ends the list, kind 1 (NOP) is one byte, every
/// other option has a length byte of at least 2 that must not run past the end. An RQD option
/// is a kind-253 option whose first two data bytes are [`EXID`]. A broken list is
/// `Malformed` even if an RQD option came before the break (the header cannot be trusted);
/// two RQD options are `Duplicate` (neither is used).
pub fn scan(opts: &[u8]) -> Scan {
    let opts = opts.get(..MAX_OPTIONS_LEN).unwrap_or(opts);
    let mut ours: u8 = 0; // RQD options seen (saturating)
    let mut first: Option<(usize, usize)> = None; // offset and length of the first one
    let mut foreign = false;
    let mut i: usize = 0;
    while let Some(&kind) = opts.get(i) {
        if kind == 0 {
            break; // EOL
        }
        if kind == 1 {
            i = i.saturating_add(1); // NOP
            continue;
        }
        let Some(&len) = opts.get(i.saturating_add(1)) else {
            return outcome_only(Outcome::Malformed, 0);
        };
        let len = len as usize;
        let end = i.saturating_add(len);
        if len < 2 || end > opts.len() {
            return outcome_only(Outcome::Malformed, 0);
        }
        if kind == KIND {
            if len >= 4 && be16(opts, i.saturating_add(2)) == Some(EXID) {
                ours = ours.saturating_add(1);
                if first.is_none() {
                    first = Some((i, len));
                }
            } else {
                foreign = true;
            }
        }
        i = end;
    }
    let foreign_flag = if foreign { SCAN_FOREIGN } else { 0 };
    match (ours, first) {
        (0, _) | (_, None) if foreign => outcome_only(Outcome::Foreign, SCAN_FOREIGN),
        (0, _) | (_, None) => Scan::default(),
        (1, Some((at, len))) if len == LEN as usize => {
            let mut s = decode(opts, at);
            s.flags |= foreign_flag;
            s
        }
        (1, Some(_)) => outcome_only(Outcome::BadLength, foreign_flag),
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

/// Decode a 10-byte RQD option starting at `opts[i]` (the caller checked kind, length, ExID and
/// that all ten bytes are present).
fn decode(opts: &[u8], i: usize) -> Scan {
    let delay = be32(opts, i.saturating_add(4)).unwrap_or(u32::MAX);
    let ttl = opts.get(i.saturating_add(8)).copied().unwrap_or(0);
    let ver_src = opts.get(i.saturating_add(9)).copied().unwrap_or(0);
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
