// SPDX-License-Identifier: GPL-2.0-only
//! The INT TCP option: how the per-hop records of [`super::int`] travel on Linux (issue #35).
//!
//! A sender reserves the option, with empty slots, in its data segments; each software INT
//! switch (the qdisc `sch_rdcc_int`, `modules/int_switch/`) writes its record into the next free
//! slot when it dequeues the segment for transmission ([`stamp`]); the receiver returns the
//! latest stack it received, as an echo, in its ACKs. One RFC 6994 experimental option carries
//! both forms:
//!
//! ```text
//!  byte  0      1      2..3          4                               5 ..
//!       kind   len    ExID          hdr                             slots x 8 B
//!       253    5+8n   0x494e (be)   ver(7..6) echo(5) ovf(4) cnt(3..0)   records, be64
//! ```
//!
//! - `len` = [`HEADER_LEN`] + 8 × slots, 1 ≤ slots ≤ [`MAX_SLOTS`]; `cnt` ≤ slots records are
//!   filled, in path order (the first switch's first).
//! - `ver` = [`VERSION`]; `echo` = 0 in a data segment (a request, switches stamp it), 1 in an
//!   ACK (an echo, switches leave it alone); `ovf` = a switch found every slot full and could not
//!   record itself (the stack then describes only the first `cnt` hops of the path).
//! - A record is the 64-bit [`IntHop`] (queue in 80 B units, transmitted bytes in 128 B units,
//!   the switch's ns clock, the port rate index), big-endian.
//!
//! Room: the TCP option space is 40 bytes. With TCP timestamps (10 bytes, 12 aligned; Linux's
//! default) 28 bytes remain: 2 slots (21 bytes, 24 aligned). Without timestamps, 4 slots (37
//! bytes). Past that a path's later hops set `ovf` instead of recording: the sender's law sees
//! the first hops only (`Documentation/int-channel.md` says what that costs). The sender
//! reserves the option in its own segments, so the kernel's MSS already leaves room for it and no
//! switch ever grows a packet.
//!
//! Everything here reads untrusted bytes: every walk is bounded by the slice it is given, nothing
//! panics, and each outcome is a distinct value a host can count.
//!
//! Uses `core` and the sibling `int` only, so a kernel module can include it with `#[path]`.

use super::int::{IntHop, IntStack, INT_MAX_HOPS};

/// TCP option kind for experiments with an ExID (RFC 6994 §3, RFC 4727).
pub const KIND: u8 = 253;
/// The experiment identifier ("IN"), big-endian on the wire.
pub const EXID: u16 = 0x494e;
/// Wire-format version, bits 7..6 of the header byte.
pub const VERSION: u8 = 1;
/// Kind, length, ExID and the header byte.
pub const HEADER_LEN: usize = 5;
/// Bytes per record.
pub const RECORD_LEN: usize = 8;
/// Largest TCP option area, bytes (`doff` = 15).
pub const MAX_OPTIONS_LEN: usize = 40;
/// Most slots an option can have: (40 − 5) / 8.
pub const MAX_SLOTS: usize = (MAX_OPTIONS_LEN - HEADER_LEN) / RECORD_LEN;
const _: () = assert!(MAX_SLOTS == 4 && MAX_SLOTS <= INT_MAX_HOPS);

/// Header bit: the option is an echo (in an ACK), not a request.
pub const HDR_ECHO: u8 = 1 << 5;
/// Header bit: a switch found no free slot.
pub const HDR_OVERFLOW: u8 = 1 << 4;
/// Header bits 3..0: the number of filled slots.
pub const HDR_COUNT_MASK: u8 = 0x0f;
const HDR_VERSION_SHIFT: u32 = 6;

/// The option length for `slots` slots (`slots` is clamped to 1..=[`MAX_SLOTS`]).
pub const fn option_len(slots: usize) -> usize {
    let s = if slots < 1 {
        1
    } else if slots > MAX_SLOTS {
        MAX_SLOTS
    } else {
        slots
    };
    HEADER_LEN.saturating_add(s.saturating_mul(RECORD_LEN)) // ≤ 37
}

/// Copy `src` over the start of `dst` (as many bytes as both have), without the length panic of
/// `copy_from_slice`.
fn put(dst: &mut [u8], src: &[u8]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d = *s;
    }
}

/// What [`stamp`] did to a segment's option list. The discriminants are the switch's counter
/// indices (`RDCC_INT_*` in `modules/glue/rdcc_int_wire.h`).
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Stamp {
    /// No INT option: nothing written.
    #[default]
    Absent = 0,
    /// The record went into the next free slot.
    Stamped = 1,
    /// Every slot was full: the overflow bit is set (it may have been already).
    Full = 2,
    /// An echo: switches never write into one.
    Echo = 3,
    /// The option list is broken, or our option has a bad length, version or count: nothing
    /// written.
    Malformed = 4,
    /// More than one INT option: nothing written.
    Duplicate = 5,
}

/// Number of [`Stamp`] values (the switch's counter array).
pub const STAMP_OUTCOMES: usize = 6;

/// Why [`parse`] rejected an option list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// A length byte of 0 or 1, or an option running past the end of the list.
    Malformed,
    /// Our ExID with a length that is not `5 + 8n`, 1 ≤ n ≤ 4.
    BadLength,
    /// Our ExID with another version.
    BadVersion,
    /// More filled slots than slots.
    BadCount,
    /// More than one INT option.
    Duplicate,
}

/// A well-formed INT option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntOption {
    /// An echo (ACK) rather than a request (data).
    pub echo: bool,
    /// A switch found no free slot.
    pub overflow: bool,
    /// Slots the option has (1..=4).
    pub slots: u8,
    /// The filled slots, in path order.
    pub stack: IntStack,
}

/// TCP option kind of the timestamps option (RFC 7323 §3.2) and its length.
const TS_KIND: u8 = 8;
const TS_LEN: usize = 10;

/// Where our option sits in a list: its offset and length. `Err` as [`parse`].
fn find(opts: &[u8]) -> Result<Option<(usize, usize)>, ParseError> {
    walk::<false>(opts).map(|(found, _)| found)
}

/// What [`walk`] finds: our option's offset and length, and a TSval.
type Walked = (Option<(usize, usize)>, Option<u32>);

/// The one walk of an option list: our option's offset and length, and, with `TS`, the TSval of
/// the last timestamps option of length 10 (as `int_intake::last_tsval` reads it; without `TS`
/// always `None`). `Err` as [`parse`]: a list that is `Ok` here is one `last_tsval` walks to
/// the same end with the same checks, so the two TSvals agree (`core/tests/int_intake.rs`, `one_walk_reads_what_two_walks_read`).
fn walk<const TS: bool>(opts: &[u8]) -> Result<Walked, ParseError> {
    let [exid_hi, exid_lo] = EXID.to_be_bytes();
    let mut rest = opts;
    let mut found: Option<(usize, usize)> = None;
    let mut tsval: Option<u32> = None;
    loop {
        match rest {
            [] | [0, ..] => break,                    // end of option list (RFC 9293 §3.2)
            [1, tail @ ..] => rest = tail,            // no-operation
            [_] => return Err(ParseError::Malformed), // a kind without its length byte
            [_, len, ..] => {
                let len = usize::from(*len);
                if len < 2 {
                    return Err(ParseError::Malformed);
                }
                // `opt`: this option, `len` bytes; `tail`: the rest of the list.
                let (Some(opt), Some(tail)) = (rest.get(..len), rest.get(len..)) else {
                    return Err(ParseError::Malformed); // runs past the end of the list
                };
                match opt {
                    [KIND, _, hi, lo, ..] if *hi == exid_hi && *lo == exid_lo => {
                        if found.is_some() {
                            return Err(ParseError::Duplicate);
                        }
                        // `rest` is a suffix of `opts`: the difference is the offset.
                        found = Some((opts.len().wrapping_sub(rest.len()), len));
                    }
                    [TS_KIND, _, a, b, c, d, ..] if TS && len == TS_LEN => {
                        tsval = Some(u32::from_be_bytes([*a, *b, *c, *d]));
                    }
                    _ => {}
                }
                rest = tail;
            }
        }
    }
    Ok((found, tsval))
}

/// Checks our option's length, version and count; returns (slots, header byte).
fn check(opt: &[u8]) -> Result<(usize, u8), ParseError> {
    let len = opt.len();
    let body = len.checked_sub(HEADER_LEN).ok_or(ParseError::BadLength)?;
    if body < RECORD_LEN || body > MAX_SLOTS.saturating_mul(RECORD_LEN) || body % RECORD_LEN != 0 {
        return Err(ParseError::BadLength);
    }
    let slots = body / RECORD_LEN; // 1..=4
    let hdr = *opt.get(HEADER_LEN - 1).ok_or(ParseError::BadLength)?;
    if hdr >> HDR_VERSION_SHIFT != VERSION {
        return Err(ParseError::BadVersion);
    }
    if usize::from(hdr & HDR_COUNT_MASK) > slots {
        return Err(ParseError::BadCount);
    }
    Ok((slots, hdr))
}

fn record_at(opt: &[u8], slot: usize) -> IntHop {
    let at = HEADER_LEN.saturating_add(slot.saturating_mul(RECORD_LEN));
    match opt.get(at..at.saturating_add(RECORD_LEN)) {
        Some(&[a, b, c, d, e, f, g, h]) => IntHop(u64::from_be_bytes([a, b, c, d, e, f, g, h])),
        _ => IntHop(0), // check() proved every filled slot is inside: never taken
    }
}

/// A well-formed INT option found in a list, not yet copied out: what [`parse`] returns, read
/// in place ([`Found::read_stack`]), and the list's TSval ([`locate`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Found<'a> {
    /// The option's bytes, its length checked ([`check`]).
    opt: &'a [u8],
    /// Its header byte, version and count checked.
    hdr: u8,
    /// Its slots (1..=4).
    slots: usize,
    /// The TSval of the list's last timestamps option of length 10, if any (only [`locate`]
    /// reads it; `None` from [`parse`]).
    pub tsval: Option<u32>,
}

impl Found<'_> {
    /// An echo (ACK) rather than a request (data).
    pub fn echo(&self) -> bool {
        self.hdr & HDR_ECHO != 0
    }

    /// Filled slots (≤ the option's slots ≤ 4).
    pub fn count(&self) -> usize {
        usize::from(self.hdr & HDR_COUNT_MASK)
    }

    /// Overwrite `stack` with the option's records: exactly the stack [`parse`] returns (the
    /// filled slots in path order, the overflow bit, everything else zero), written in place.
    pub fn read_stack(&self, stack: &mut IntStack) {
        *stack = IntStack::EMPTY;
        for slot in 0..self.count() {
            stack.push(record_at(self.opt, slot)); // count ≤ 4 < INT_MAX_HOPS: never refused
        }
        // The laws read a truncated path from the stack itself (`IntStack::overflow`).
        stack.overflow = u8::from(self.hdr & HDR_OVERFLOW != 0);
    }
}

/// [`find`] (or, with `TS`, [`walk`]'s TSval too) and [`check`]: the checked option in place.
fn found<const TS: bool>(opts: &[u8]) -> Result<Option<Found<'_>>, ParseError> {
    let (Some((at, len)), tsval) = walk::<TS>(opts)? else {
        return Ok(None);
    };
    let opt = opts
        .get(at..at.saturating_add(len))
        .ok_or(ParseError::Malformed)?;
    let (slots, hdr) = check(opt)?;
    Ok(Some(Found {
        opt,
        hdr,
        slots,
        tsval,
    }))
}

/// [`parse`] without copying the records out, in the same single walk of the list that also
/// finds the TSval of its last timestamps option of length 10 ([`Found::tsval`]): the echo
/// hook's step (`int_intake::on_rx`). Accepts and refuses exactly what [`parse`] does.
pub fn locate(opts: &[u8]) -> Result<Option<Found<'_>>, ParseError> {
    found::<true>(opts)
}

/// Parse a TCP option list (the bytes after the 20-byte header, `doff`·4 − 20 of them) for the
/// INT option. `Ok(None)` when there is none.
pub fn parse(opts: &[u8]) -> Result<Option<IntOption>, ParseError> {
    let Some(f) = found::<false>(opts)? else {
        return Ok(None);
    };
    let mut stack = IntStack::EMPTY;
    f.read_stack(&mut stack);
    Ok(Some(IntOption {
        echo: f.echo(),
        overflow: f.hdr & HDR_OVERFLOW != 0,
        slots: f.slots as u8, // ≤ 4
        stack,
    }))
}

/// A switch's step (issue #35 item 1): write `rec` into the next free slot of the INT request
/// in `opts` (a segment's TCP option list), or set the overflow bit when every slot is full.
/// Echoes, broken lists and foreign options are left exactly as they are.
pub fn stamp(opts: &mut [u8], rec: IntHop) -> Stamp {
    let (at, len) = match find(opts) {
        Ok(Some(f)) => f,
        Ok(None) => return Stamp::Absent,
        Err(ParseError::Duplicate) => return Stamp::Duplicate,
        Err(_) => return Stamp::Malformed,
    };
    let Some(opt) = opts.get_mut(at..at.saturating_add(len)) else {
        return Stamp::Malformed;
    };
    let Ok((slots, hdr)) = check(opt) else {
        return Stamp::Malformed;
    };
    if hdr & HDR_ECHO != 0 {
        return Stamp::Echo;
    }
    let count = usize::from(hdr & HDR_COUNT_MASK);
    if count >= slots {
        if let Some(h) = opt.get_mut(HEADER_LEN - 1) {
            *h = hdr | HDR_OVERFLOW;
        }
        return Stamp::Full;
    }
    let start = HEADER_LEN.saturating_add(count.saturating_mul(RECORD_LEN));
    let Some(dst) = opt.get_mut(start..start.saturating_add(RECORD_LEN)) else {
        return Stamp::Malformed; // check() proved the slot is inside: never taken
    };
    put(dst, &rec.0.to_be_bytes());
    if let Some(h) = opt.get_mut(HEADER_LEN - 1) {
        *h = hdr.wrapping_add(1); // count < slots ≤ 4: stays inside bits 3..0
    }
    Stamp::Stamped
}

/// Write an option of `slots` slots into `buf`: a request with no records (`echo` false, the
/// sender's form) or an echo of `stack` (its hops, at most `slots`; `overflow` as received).
/// Returns the bytes written, or 0 when `buf` is too short or `slots` is not 1..=4.
pub fn write(buf: &mut [u8], slots: usize, echo: bool, overflow: bool, stack: &IntStack) -> usize {
    if !(1..=MAX_SLOTS).contains(&slots) {
        return 0;
    }
    let len = option_len(slots);
    let Some(out) = buf.get_mut(..len) else {
        return 0;
    };
    out.fill(0);
    let hops = stack.hops();
    let count = if echo { hops.len().min(slots) } else { 0 };
    let mut hdr = (VERSION << HDR_VERSION_SHIFT) | (count as u8 & HDR_COUNT_MASK);
    if echo {
        hdr |= HDR_ECHO;
    }
    if overflow {
        hdr |= HDR_OVERFLOW;
    }
    let head = [KIND, len as u8, (EXID >> 8) as u8, EXID as u8, hdr]; // len ≤ 37
    put(out, &head);
    for (slot, hop) in hops.iter().take(count).enumerate() {
        let start = HEADER_LEN.saturating_add(slot.saturating_mul(RECORD_LEN)); // ≤ 29
        if let Some(dst) = out.get_mut(start..) {
            put(dst, &hop.0.to_be_bytes());
        }
    }
    len
}
