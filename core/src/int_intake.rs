// SPDX-License-Identifier: GPL-2.0-only
//! The sender's intake of echoed INT stacks (issue #35 item 3): where a stack, parsed from an
//! ACK before TCP has looked at it, waits until the congestion hook of that same ACK, after TCP
//! accepted it, takes it.
//!
//! On Linux the echo is read by a netfilter hook at `LOCAL_IN` (`modules/glue/rdcc_int_rx.c`),
//! before TCP's checksum, sequence, PAWS and MD5/AO checks; `cong_control` runs later, for the
//! ACKs TCP accepted, and does not see the segment. The rule is the one of Swift's remote-delay
//! channel (`Documentation/remote-delay.md`, `modules/glue/rdcc_rqd_take.h`), so the threat
//! model is the same:
//!
//! - **Store** ([`Intake::store`]): only an echo whose ACK number lies in `(snd_una, snd_nxt]`
//!   (racy values at the hook; exact at take time), keyed by that ACK number; a later segment
//!   with the same ACK number replaces the entry (latest wins), and one with the same ACK number
//!   and no valid echo removes it ([`Intake::supersede`]).
//! - **Take** ([`Intake::take`]): only for an ACK that advanced `snd_una` (TCP validated its ACK
//!   number), and only the entry whose ACK number, sequence number and TSval are those of the
//!   segment TCP just accepted (`tp->snd_wl1`, `tp->rx_opt.rcv_tsval`). Consumed once; entries
//!   of older ACK numbers are dropped (their ACKs have been processed or never will be).
//!
//! An off-path host that forges a segment with an echo cannot make it count: TCP drops a
//! segment whose sequence, ACK number or timestamp is wrong, and the entry it left is then never
//! taken (a legitimate segment with that ACK number replaces or removes it; one with a different
//! identity does not match). A stack taken is therefore one the receiver sent in an accepted
//! segment. What an honest receiver sends the laws then judge ([`super::int::take_history`]:
//! a stack of another path restarts the history).
//!
//! **Order.** Segments can be reordered between the switches and the receiver (veth hands packets
//! to per-CPU backlogs), so an echo can carry records older than the last one taken. Such a
//! stack (a clock or byte count of some hop that stepped back, modulo the field) is not used
//! ([`Taken::Reordered`]): the laws difference consecutive stacks, and a step back would read as
//! a wrap of almost the whole field. The simulator never reorders.
//!
//! **History epochs.** A record's timestamp wraps every 16.8 ms ([`super::int::TS_BITS`]), so two
//! stacks further apart than that cannot be differenced. A stack taken more than
//! [`STALE_NS`] after the previous one (an idle or application-limited flow) is marked with a
//! new history epoch, added to [`IntStack::path_id`], which the laws read as a path change: they keep
//! it as the new reference and measure from the next one (as the simulator's flows, which never
//! pause that long, never need).
//!
//! Uses `core` and the siblings `int`, `int_wire` and `event` only, so a kernel module can include it with `#[path]`.

use super::int::{IntStack, TS_BITS, TX_BITS, TX_UNIT_BYTES};
use super::int_wire;

/// Entries an intake holds: ACKs parsed and not yet processed by TCP (a socket's backlog while a
/// process owns it, or ACKs racing on two CPUs). A fifth pending echo evicts the oldest.
pub const INTAKE_SLOTS: usize = 4;

/// Longest gap between two taken stacks that keeps the laws' history, ns: half the 2^24 ns wrap
/// of a record's timestamp, so a difference is never ambiguous.
pub const STALE_NS: u64 = 1 << 23;

/// The identity of a segment: its ACK number, sequence number and TSval (`has_ts` = 0 when it
/// carried no timestamp option).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SegmentId {
    /// ACK number.
    pub ack_seq: u32,
    /// Sequence number.
    pub seq: u32,
    /// TSval, valid when `has_ts` is 1.
    pub tsval: u32,
    /// 1: the segment carried a timestamp option.
    pub has_ts: u32,
}

/// One stored echo.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    id: SegmentId,
    stack: IntStack,
    /// Store order (wrapping); 0 with `live` false = empty.
    order: u32,
    live: bool,
}

/// What [`Intake::store`] did (also counter indices).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stored {
    /// Stored in a free entry.
    New = 0,
    /// Replaced the entry of the same ACK number (latest wins).
    Replaced = 1,
    /// Stored over the oldest pending entry, which is lost.
    Evicted = 2,
    /// Refused: the ACK number is at or before `snd_una` (old or duplicate).
    AckOld = 3,
    /// Refused: the ACK number is after `snd_nxt` (acknowledges data never sent).
    AckFuture = 4,
    /// Refused: the echo has no records.
    Empty = 5,
}

/// What [`Intake::take`] found (also counter indices).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Taken {
    /// The stack of this very segment.
    Used = 0,
    /// No entry for this ACK number.
    Missed = 1,
    /// The ACK did not advance `snd_una`: nothing is taken.
    NotAdvanced = 2,
    /// An entry with this ACK number, but another segment's sequence number or TSval.
    Mismatch = 3,
    /// The segment's own stack, but older than the last one taken at some hop (its records came
    /// back out of order: segments reordered between switches or namespaces): not used.
    Reordered = 4,
}

/// Number of [`Stored`] and [`Taken`] values.
pub const STORED_OUTCOMES: usize = 6;
/// Number of [`Taken`] values.
pub const TAKEN_OUTCOMES: usize = 5;

/// A step of a record's clock at or beyond this is a step back (half the 2^24 ns field).
const TS_BACK_NS: u64 = 1 << (TS_BITS - 1);
/// A step of a record's byte count at or beyond this is a step back (half the 2^20-unit field).
const TX_BACK_BYTES: u64 = (1 << (TX_BITS - 1)) * TX_UNIT_BYTES;

/// `a` after `b` in sequence space (RFC 9293 §3.4).
fn seq_after(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) > 0
}

/// The pending echoes of one connection and its history epoch. `Default` (all-zero) is empty.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Intake {
    entries: [Entry; INTAKE_SLOTS],
    /// Store counter (wrapping).
    order: u32,
    /// History epoch, put into taken stacks' `path_id`.
    epoch: u8,
    /// A stack has been taken (`last_take_ns` is valid).
    took: bool,
    /// Host clock of the last take, ns.
    last_take_ns: u64,
    /// The last stack taken (valid with `took`), as [`Intake::take`] returned it: with the
    /// history epoch added to its `path_id`.
    last: IntStack,
}

/// Is `s` older than `last` at some hop (same hops and rates, a clock or byte count that
/// stepped back)? Steps are modulo the fields' widths: a step of half the range or more is back.
fn older(s: &IntStack, last: &IntStack) -> bool {
    let (a, b) = (s.hops(), last.hops());
    if a.len() != b.len() {
        return false;
    }
    // One pass: every rate the same (else another path: not older), and some hop stepped back.
    let mut back = false;
    for (x, y) in a.iter().zip(b) {
        if !x.same_rate(y) {
            return false;
        }
        back |= x.ts_delta_ns(y) >= TS_BACK_NS || x.tx_delta_bytes(y) >= TX_BACK_BYTES;
    }
    back
}

/// `*dst = *src`, between two distinct stacks: through the two references the compiler knows
/// they do not overlap, so the copy is a few moves (a copy between two fields of the intake,
/// one of them indexed, is otherwise a call to `memmove`).
#[inline(always)]
fn copy_stack(dst: &mut IntStack, src: &IntStack) {
    *dst = *src;
}

impl Intake {
    /// An echo arrived on an ACK with identity `id`; `snd_una`/`snd_nxt` as the hook reads them.
    pub fn store(&mut self, id: SegmentId, stack: &IntStack, snd_una: u32, snd_nxt: u32) -> Stored {
        self.store_with(id, stack.hops().len(), snd_una, snd_nxt, |s| *s = *stack)
    }

    /// [`Intake::store`] of a stack of `hops` records that `fill` writes (whole) straight into
    /// the entry chosen, so the hook copies the records once, from the option into the intake.
    fn store_with(
        &mut self,
        id: SegmentId,
        hops: usize,
        snd_una: u32,
        snd_nxt: u32,
        fill: impl FnOnce(&mut IntStack),
    ) -> Stored {
        if hops == 0 {
            return Stored::Empty;
        }
        if !seq_after(id.ack_seq, snd_una) {
            return Stored::AckOld;
        }
        if seq_after(id.ack_seq, snd_nxt) {
            return Stored::AckFuture;
        }
        self.order = self.order.wrapping_add(1);
        let order = self.order;
        let (at, outcome) = self.slot_for(id.ack_seq, order);
        if let Some(e) = self.entries.get_mut(at) {
            e.id = id;
            e.order = order;
            e.live = true;
            fill(&mut e.stack);
        }
        outcome
    }

    /// Where a store of `ack_seq` goes (`order`: its store order): the live entry of the same
    /// ACK number (latest wins), else a free one, else the oldest store (largest age in
    /// wrapping order), which is lost. An index into `entries`.
    fn slot_for(&self, ack_seq: u32, order: u32) -> (usize, Stored) {
        // Index loops over the constant range (no iterator counters: their `+ 1` would be an
        // overflow check in a kernel build).
        let live = |at: usize| self.entries.get(at).filter(|e| e.live);
        if let Some(at) =
            (0..INTAKE_SLOTS).find(|&at| live(at).is_some_and(|e| e.id.ack_seq == ack_seq))
        {
            return (at, Stored::Replaced);
        }
        if let Some(at) = (0..INTAKE_SLOTS).find(|&at| live(at).is_none()) {
            return (at, Stored::New);
        }
        let mut oldest: Option<(usize, u32)> = None;
        for at in 0..INTAKE_SLOTS {
            let Some(e) = self.entries.get(at) else {
                continue;
            };
            let age = order.wrapping_sub(e.order);
            if oldest.map_or(true, |(_, a)| age > a) {
                oldest = Some((at, age));
            }
        }
        (oldest.map_or(0, |(at, _)| at), Stored::Evicted)
    }

    /// A segment with ACK number `ack_seq` and no valid echo: an entry stored for that ACK number
    /// (by a segment TCP may drop) must not be used for it. Returns whether one was removed.
    pub fn supersede(&mut self, ack_seq: u32) -> bool {
        let mut removed = false;
        for e in self.entries.iter_mut() {
            if e.live && e.id.ack_seq == ack_seq {
                e.live = false;
                removed = true;
            }
        }
        removed
    }

    /// The congestion hook of an ACK TCP accepted: `accepted` is that segment's identity as TCP
    /// recorded it (ACK number, `snd_wl1`, and `rcv_tsval` when it saw a timestamp), `advanced`
    /// whether it moved `snd_una`. Returns the stack of that very segment, with the history
    /// epoch in `path_id`, or why there is none. Entries of this and older ACK numbers are
    /// consumed.
    pub fn take(&mut self, accepted: &SegmentId, advanced: bool, now_ns: u64) -> (Taken, IntStack) {
        match self.take_in_place(accepted, advanced, now_ns) {
            Taken::Used => (Taken::Used, self.last),
            t => (t, IntStack::EMPTY),
        }
    }

    /// [`Intake::take`] without copying the stack out: when it returns [`Taken::Used`], the
    /// stack taken is `self.last` (with the history epoch in `path_id`, which [`older`] does not
    /// read).
    fn take_in_place(&mut self, accepted: &SegmentId, advanced: bool, now_ns: u64) -> Taken {
        let mut found: Option<usize> = None;
        for at in 0..INTAKE_SLOTS {
            let Some(e) = self.entries.get_mut(at).filter(|e| e.live) else {
                continue;
            };
            if e.id.ack_seq == accepted.ack_seq {
                found = Some(at);
                e.live = false;
            } else if !seq_after(e.id.ack_seq, accepted.ack_seq) {
                e.live = false; // an older ACK's: processed already, or never will be
            }
        }
        // Consumed (not live), its bytes still there.
        let Some(e) = found.and_then(|at| self.entries.get(at)) else {
            return Taken::Missed;
        };
        if !advanced {
            return Taken::NotAdvanced;
        }
        if e.id != *accepted {
            return Taken::Mismatch;
        }
        let stale = now_ns.wrapping_sub(self.last_take_ns) > STALE_NS;
        if self.took && !stale && older(&e.stack, &self.last) {
            return Taken::Reordered;
        }
        if self.took && stale {
            self.epoch = self.epoch.wrapping_add(1);
        }
        self.took = true;
        self.last_take_ns = now_ns;
        copy_stack(&mut self.last, &e.stack);
        self.last.path_id = self.last.path_id.wrapping_add(self.epoch);
        Taken::Used
    }

    /// Pending entries (for tests and counters).
    pub fn pending(&self) -> usize {
        self.entries.iter().filter(|e| e.live).count()
    }
}

/// TCP option kind of the timestamps option (RFC 7323 §3.2) and its length.
const TS_KIND: u8 = 8;
const TS_LEN: usize = 10;

/// The TSval of the last timestamps option of length 10 in a well-formed option list (as the
/// kernel's `tcp_parse_options` takes it), or `None` (no such option, or a broken list, which
/// [`int_wire::parse`] refuses anyway).
pub fn last_tsval(opts: &[u8]) -> Option<u32> {
    let mut i: usize = 0;
    let mut ts = None;
    while let Some(&kind) = opts.get(i) {
        match kind {
            0 => break,
            1 => i = i.saturating_add(1),
            _ => {
                let len = usize::from(*opts.get(i.saturating_add(1))?);
                let end = i.saturating_add(len);
                if len < 2 || end > opts.len() {
                    return None;
                }
                if kind == TS_KIND && len == TS_LEN {
                    let v = opts.get(i.saturating_add(2)..i.saturating_add(6))?;
                    ts = Some(u32::from_be_bytes([
                        *v.first()?,
                        *v.get(1)?,
                        *v.get(2)?,
                        *v.get(3)?,
                    ]));
                }
                i = end;
            }
        }
    }
    ts
}

/// What the hook did with one ACK's options (counter indices): beside [`Stored`]'s values
/// (0..6), these.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rx {
    /// No INT option.
    Absent = 6,
    /// An INT request (a data segment of a bidirectional connection), not an echo.
    Request = 7,
    /// A malformed or duplicated INT option, or a broken option list.
    Malformed = 8,
}

/// Number of hook outcomes ([`Stored`] and [`Rx`]).
pub const RX_OUTCOMES: usize = 9;

/// The hook's step for one ACK (`opts`: its option list; `ack_seq`, `seq`: its header;
/// `snd_una`, `snd_nxt`: the socket's, as read without its lock): a valid echo is stored
/// ([`Intake::store`]); a segment without one supersedes an entry of its ACK number
/// ([`Intake::supersede`]). Returns the counter index ([`Stored`] or [`Rx`] as `u32`).
pub fn on_rx(
    k: &mut Intake,
    opts: &[u8],
    ack_seq: u32,
    seq: u32,
    snd_una: u32,
    snd_nxt: u32,
) -> u32 {
    // One walk of the list: the option, checked, and the TSval (as `last_tsval` reads it).
    let opt = match int_wire::locate(opts) {
        Ok(Some(o)) if o.echo() => o,
        Ok(Some(_)) => {
            k.supersede(ack_seq);
            return Rx::Request as u32;
        }
        Ok(None) => {
            k.supersede(ack_seq);
            return Rx::Absent as u32;
        }
        Err(_) => {
            k.supersede(ack_seq);
            return Rx::Malformed as u32;
        }
    };
    let (tsval, has_ts) = match opt.tsval {
        Some(v) => (v, 1),
        None => (0, 0),
    };
    let id = SegmentId {
        ack_seq,
        seq,
        tsval,
        has_ts,
    };
    // The records go straight from the option into the entry (no intermediate stack).
    k.store_with(id, opt.count(), snd_una, snd_nxt, |s| opt.read_stack(s)) as u32
}

/// What a kernel module keeps per connection for an INT law: the law's state and the intake.
/// Larger than the 72-byte budget of `icsk_ca_priv`: the module allocates it per socket.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IntFlow<S> {
    /// The law's state.
    pub law: S,
    /// Pending echoes.
    pub intake: Intake,
}

/// One ACK of an INT law on Linux: take this segment's stack ([`Intake::take`]) and run the law
/// on it (with an empty stack when there is none: the law then holds, `Reason::NoSample`).
pub fn on_ack<L: super::int::IntController>(
    p: &L::Params,
    flow: &mut IntFlow<L::State>,
    ev: &super::event::AckEvent,
    accepted: &SegmentId,
    advanced: bool,
) -> (Taken, super::event::Decision) {
    let taken = flow.intake.take_in_place(accepted, advanced, ev.now_ns);
    // The stack taken, read where the intake keeps it (no copy); the law holds without one.
    let stack = match taken {
        Taken::Used => &flow.intake.last,
        _ => &IntStack::EMPTY,
    };
    (taken, L::on_ack(p, &mut flow.law, ev, stack))
}
