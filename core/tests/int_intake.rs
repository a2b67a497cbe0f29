// SPDX-License-Identifier: GPL-2.0-only
//! The sender's intake of echoed INT stacks (`core/src/int_intake.rs`): the rule of Swift's
//! remote-delay channel (`Documentation/remote-delay.md`) applied to INT echoes. A table of
//! sequences of hook stores and congestion-hook takes with the expected outcome, then properties
//! over arbitrary interleavings of forged and honest segments.

use proptest::prelude::*;
use rdcc_core::int::{IntHop, IntStack};
use rdcc_core::int_intake::{Intake, SegmentId, Stored, Taken, INTAKE_SLOTS, STALE_NS};

const RATE: u64 = 1_250_000_000; // 10 Gbit/s

fn stack(tag: u64) -> IntStack {
    let mut s = IntStack::EMPTY;
    s.push(IntHop::encode(tag * 80, tag * 128, tag, RATE).unwrap());
    s
}

fn id(ack: u32, seq: u32, ts: Option<u32>) -> SegmentId {
    SegmentId {
        ack_seq: ack,
        seq,
        tsval: ts.unwrap_or(0),
        has_ts: u32::from(ts.is_some()),
    }
}

enum Step {
    /// The hook saw an echo on this segment (snd_una, snd_nxt as it read them).
    Store(SegmentId, u64, u32, u32, Stored),
    /// The hook saw a segment of this ACK number without a valid echo.
    Supersede(u32, bool),
    /// cong_control of the accepted segment (advanced?) at a time: expected outcome and tag.
    Take(SegmentId, bool, u64, Taken, Option<u64>),
}
use Step::*;

#[test]
fn table() {
    let a = id(1000, 1, Some(7));
    let b = id(2000, 1, Some(8));
    let rows: Vec<(&str, Vec<Step>)> = vec![
        (
            "honest echo is used once",
            vec![
                Store(a, 1, 0, 5000, Stored::New),
                Take(a, true, 10, Taken::Used, Some(1)),
                Take(a, true, 11, Taken::Missed, None),
            ],
        ),
        (
            "no echo: missed",
            vec![Take(a, true, 10, Taken::Missed, None)],
        ),
        (
            "ACK number at snd_una: refused",
            vec![Store(a, 1, 1000, 5000, Stored::AckOld)],
        ),
        (
            "ACK number before snd_una: refused",
            vec![Store(a, 1, 1500, 5000, Stored::AckOld)],
        ),
        (
            "ACK number past snd_nxt: refused",
            vec![Store(a, 1, 0, 999, Stored::AckFuture)],
        ),
        ("empty stack: refused", vec![]),
        (
            "forged seq: stored but never used",
            vec![
                Store(id(1000, 99, Some(7)), 1, 0, 5000, Stored::New),
                Take(a, true, 10, Taken::Mismatch, None),
            ],
        ),
        (
            "forged TSval: never used",
            vec![
                Store(id(1000, 1, Some(6)), 1, 0, 5000, Stored::New),
                Take(a, true, 10, Taken::Mismatch, None),
            ],
        ),
        (
            "a forged echo without timestamp vs a segment with one",
            vec![
                Store(id(1000, 1, None), 1, 0, 5000, Stored::New),
                Take(a, true, 10, Taken::Mismatch, None),
            ],
        ),
        (
            "latest wins: the honest segment replaces a forged one",
            vec![
                Store(id(1000, 99, Some(7)), 66, 0, 5000, Stored::New),
                Store(a, 1, 0, 5000, Stored::Replaced),
                Take(a, true, 10, Taken::Used, Some(1)),
            ],
        ),
        (
            "latest wins: a forged one after the honest one makes the ACK miss",
            vec![
                Store(a, 1, 0, 5000, Stored::New),
                Store(id(1000, 99, Some(7)), 66, 0, 5000, Stored::Replaced),
                Take(a, true, 10, Taken::Mismatch, None),
            ],
        ),
        (
            "a segment of the ACK number without echo removes the entry",
            vec![
                Store(id(1000, 99, Some(7)), 66, 0, 5000, Stored::New),
                Supersede(1000, true),
                Take(a, true, 10, Taken::Missed, None),
            ],
        ),
        (
            "an ACK that did not advance snd_una takes nothing and consumes",
            vec![
                Store(a, 1, 0, 5000, Stored::New),
                Take(a, false, 10, Taken::NotAdvanced, None),
                Take(a, true, 11, Taken::Missed, None),
            ],
        ),
        (
            "a later ACK's entry waits; older ones are dropped",
            vec![
                Store(a, 1, 0, 5000, Stored::New),
                Store(b, 2, 0, 5000, Stored::New),
                Take(b, true, 10, Taken::Used, Some(2)),
                Take(a, true, 11, Taken::Missed, None),
            ],
        ),
        (
            "two pending, taken in order",
            vec![
                Store(a, 1, 0, 5000, Stored::New),
                Store(b, 2, 0, 5000, Stored::New),
                Take(a, true, 10, Taken::Used, Some(1)),
                Take(b, true, 11, Taken::Used, Some(2)),
            ],
        ),
        (
            "a fifth pending echo evicts the oldest",
            vec![
                Store(id(100, 1, None), 1, 0, 5000, Stored::New),
                Store(id(200, 1, None), 2, 0, 5000, Stored::New),
                Store(id(300, 1, None), 3, 0, 5000, Stored::New),
                Store(id(400, 1, None), 4, 0, 5000, Stored::New),
                Store(id(500, 1, None), 5, 0, 5000, Stored::Evicted),
                Take(id(100, 1, None), true, 10, Taken::Missed, None),
                Take(id(200, 1, None), true, 11, Taken::Used, Some(2)),
                Take(id(500, 1, None), true, 12, Taken::Used, Some(5)),
            ],
        ),
        (
            "sequence wrap: an ACK number past 2^32",
            vec![
                Store(id(10, 1, None), 1, u32::MAX - 10, 100, Stored::New),
                Take(id(10, 1, None), true, 10, Taken::Used, Some(1)),
            ],
        ),
    ];
    for (name, steps) in rows {
        let mut k = Intake::default();
        for (i, st) in steps.iter().enumerate() {
            match *st {
                Store(sid, tag, una, nxt, want) => {
                    assert_eq!(
                        k.store(sid, &stack(tag), una, nxt),
                        want,
                        "{name}: step {i}"
                    );
                }
                Supersede(ack, want) => assert_eq!(k.supersede(ack), want, "{name}: step {i}"),
                Take(sid, adv, now, want, tag) => {
                    let (got, s) = k.take(&sid, adv, now);
                    assert_eq!(got, want, "{name}: step {i}");
                    match tag {
                        Some(t) => assert_eq!(s.hops(), stack(t).hops(), "{name}: step {i}"),
                        None => assert!(s.hops().is_empty(), "{name}: step {i}"),
                    }
                }
            }
        }
    }
    // The empty-stack row.
    let mut k = Intake::default();
    assert_eq!(
        k.store(id(1, 1, None), &IntStack::EMPTY, 0, 10),
        Stored::Empty
    );
    assert_eq!(k.pending(), 0);
}

#[test]
fn history_epoch_after_a_gap() {
    let mut k = Intake::default();
    let at = |k: &mut Intake, ack: u32, now: u64| {
        assert_eq!(
            k.store(id(ack, 1, None), &stack(1), 0, u32::MAX / 2),
            Stored::New
        );
        let (t, s) = k.take(&id(ack, 1, None), true, now);
        assert_eq!(t, Taken::Used);
        s.path_id
    };
    let first = at(&mut k, 10, 1_000);
    assert_eq!(
        at(&mut k, 20, 1_000 + STALE_NS),
        first,
        "exactly the limit keeps the history"
    );
    let later = at(&mut k, 30, 1_000 + 2 * STALE_NS + 1);
    assert_ne!(later, first, "a gap past the limit starts a new epoch");
    assert_eq!(at(&mut k, 40, 1_000 + 2 * STALE_NS + 2), later);
    // STALE_NS is half the record timestamp's wrap.
    assert_eq!(STALE_NS * 2, 1 << rdcc_core::int::TS_BITS);
}

#[derive(Clone, Debug)]
enum Ev {
    /// An attacker's echo on a segment with this ACK-number offset and a wrong seq or TSval.
    Forge(u32, bool),
    /// The attacker's segment without echo.
    ForgeBare(u32),
    /// The next honest ACK: its echo reaches the hook (or is lost), then TCP accepts it.
    Honest(bool),
    /// The next honest ACK's hook runs, but TCP processes it only later (backlog).
    HonestDeferred,
}

fn ev() -> impl Strategy<Value = Ev> {
    prop_oneof![
        (0u32..4, any::<bool>()).prop_map(|(o, s)| Ev::Forge(o, s)),
        (0u32..4).prop_map(Ev::ForgeBare),
        any::<bool>().prop_map(Ev::Honest),
        Just(Ev::HonestDeferred),
    ]
}

proptest! {
    /// Whatever an off-path host injects (identities it cannot know exactly), a stack is used
    /// only for the segment that carried it, at most once; an honest echo stored after every
    /// forgery for its ACK number is used.
    #[test]
    fn forged_echoes_are_never_used(evs in proptest::collection::vec(ev(), 1..64)) {
        let mut k = Intake::default();
        let mut una: u32 = 1_000;
        let mut next_tag: u64 = 1;
        let mut deferred: Vec<(SegmentId, u64)> = Vec::new();
        let mut now = 0u64;
        for e in evs {
            now += 1_000;
            match e {
                Ev::Forge(off, bad_seq) => {
                    let ack = una + 1_000 * (off + 1);
                    let sid = if bad_seq { id(ack, 77, Some(ack)) } else { id(ack, 1, Some(ack ^ 1)) };
                    k.store(sid, &stack(999), una, una + 100_000);
                }
                Ev::ForgeBare(off) => { k.supersede(una + 1_000 * (off + 1)); }
                Ev::HonestDeferred if deferred.len() >= INTAKE_SLOTS => {}
                Ev::Honest(echo) => {
                    // Pending deferred ACKs are processed first, in order.
                    for (sid, tag) in deferred.drain(..) {
                        let (t, s) = k.take(&sid, true, now);
                        prop_assert!(t != Taken::Used || s.hops() == stack(tag).hops());
                        una = sid.ack_seq;
                    }
                    una += 1_000;
                    let sid = id(una, 1, Some(una));
                    let tag = next_tag;
                    next_tag += 1;
                    if echo {
                        let st = k.store(sid, &stack(tag), una - 1_000, una + 100_000);
                        prop_assert!(matches!(st, Stored::New | Stored::Replaced | Stored::Evicted), "{:?}", st);
                    }
                    let (t, s) = k.take(&sid, true, now);
                    if echo {
                        prop_assert_eq!(t, Taken::Used);
                        let want = stack(tag);
                        prop_assert_eq!(s.hops(), want.hops());
                    } else {
                        prop_assert_ne!(t, Taken::Used);
                        prop_assert!(s.hops().is_empty());
                    }
                    // A replay of the same identity finds nothing.
                    prop_assert_eq!(k.take(&sid, true, now).0, Taken::Missed);
                }
                Ev::HonestDeferred => {
                    let una_hook = deferred.last().map_or(una, |(s, _)| s.ack_seq);
                    let sid = id(una_hook + 1_000, 1, Some(una_hook + 1_000));
                    let tag = next_tag;
                    next_tag += 1;
                    k.store(sid, &stack(tag), una, una + 100_000);
                    deferred.push((sid, tag));
                }
            }
            prop_assert!(k.pending() <= INTAKE_SLOTS);
        }
    }
}

/// An ACK's option list: NOP NOP TS(tsval) when given, then the INT option as `int_wire::write`
/// makes it (echo or request), NOP-padded to a multiple of 4.
fn opts(ts: Option<u32>, echo: Option<bool>, tag: u64) -> Vec<u8> {
    let mut v = Vec::new();
    if let Some(t) = ts {
        v.extend_from_slice(&[1, 1, 8, 10]);
        v.extend_from_slice(&t.to_be_bytes());
        v.extend_from_slice(&[0, 0, 0, 9]);
    }
    if let Some(e) = echo {
        let mut b = [0u8; 40];
        let n = rdcc_core::int_wire::write(&mut b, 2, e, false, &stack(tag));
        v.extend_from_slice(&b[..n]);
    }
    while v.len() % 4 != 0 {
        v.push(1);
    }
    v
}

#[test]
fn hook_step_table() {
    use rdcc_core::int_intake::{last_tsval, on_rx, Rx};
    // (options, expected hook outcome, expected take outcome for (1000, 1, ts))
    let rows: Vec<(&str, Vec<u8>, u32, Taken)> = vec![
        (
            "echo with timestamps",
            opts(Some(7), Some(true), 3),
            Stored::New as u32,
            Taken::Used,
        ),
        (
            "echo, another TSval",
            opts(Some(6), Some(true), 3),
            Stored::New as u32,
            Taken::Mismatch,
        ),
        (
            "echo without timestamps",
            opts(None, Some(true), 3),
            Stored::New as u32,
            Taken::Mismatch,
        ),
        (
            "a request is no echo",
            opts(Some(7), Some(false), 3),
            Rx::Request as u32,
            Taken::Missed,
        ),
        (
            "no INT option",
            opts(Some(7), None, 3),
            Rx::Absent as u32,
            Taken::Missed,
        ),
        (
            "broken list",
            vec![1, 1, 8, 12, 0, 0],
            Rx::Malformed as u32,
            Taken::Missed,
        ),
    ];
    for (name, o, want_rx, want_take) in rows {
        let mut k = Intake::default();
        assert_eq!(on_rx(&mut k, &o, 1000, 1, 0, 5000), want_rx, "{name}");
        let (t, _) = k.take(&id(1000, 1, Some(7)), true, 1);
        assert_eq!(t, want_take, "{name}");
    }
    // A bare segment of the same ACK number after an echo supersedes it.
    let mut k = Intake::default();
    on_rx(&mut k, &opts(Some(7), Some(true), 3), 1000, 1, 0, 5000);
    assert_eq!(
        on_rx(&mut k, &opts(Some(7), None, 3), 1000, 1, 0, 5000),
        Rx::Absent as u32
    );
    assert_eq!(k.take(&id(1000, 1, Some(7)), true, 1).0, Taken::Missed);
    // TSval: the last of two timestamp options; none in a broken list.
    let mut two = opts(Some(5), None, 0);
    two.extend_from_slice(&opts(Some(9), None, 0));
    assert_eq!(last_tsval(&two), Some(9));
    assert_eq!(last_tsval(&[8, 10, 0, 0, 0, 1]), None);
    assert_eq!(last_tsval(&[]), None);
}

/// One piece of an option list for the single-walk properties: what Linux and a hostile host
/// put there (NOP, EOL, timestamps of any length, our option with any length, header and
/// records, another experiment's option, a foreign option, a stray byte).
fn piece() -> impl Strategy<Value = Vec<u8>> {
    let ts_len = prop_oneof![4 => Just(10u8), 1 => 8u8..=11];
    let int_len = prop_oneof![4 => prop_oneof![Just(13u8), Just(21), Just(29)], 1 => 2u8..40];
    // Mostly version 1 with a count the slots hold, sometimes any byte.
    let hdr =
        prop_oneof![4 => (0u8..4, 0u8..3).prop_map(|(f, c)| 0x40 | f << 4 | c), 1 => any::<u8>()];
    prop_oneof![
        3 => Just(vec![1]),
        1 => Just(vec![0]),
        3 => (ts_len, any::<[u8; 9]>()).prop_map(|(len, b)| {
            let mut v = vec![8, len];
            v.extend_from_slice(&b[..usize::from(len).saturating_sub(2).min(9)]);
            v
        }),
        3 => (int_len, hdr, any::<[u8; 35]>()).prop_map(|(len, hdr, b)| {
            let mut v = vec![253, len, 0x49, 0x4e, hdr];
            v.extend_from_slice(&b[..usize::from(len).saturating_sub(5).min(35)]);
            v.truncate(usize::from(len).max(2));
            v
        }),
        1 => (any::<u8>(), 0u8..12, any::<[u8; 10]>()).prop_map(|(k, len, b)| {
            let mut v = vec![k, len];
            v.extend_from_slice(&b[..usize::from(len).saturating_sub(2).min(10)]);
            v
        }),
        1 => any::<u8>().prop_map(|b| vec![b]),
    ]
}

fn list() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(piece(), 0..6).prop_map(|p| {
        let mut v = p.concat();
        v.truncate(40);
        v
    })
}

/// The hook's step as it was composed before the single walk (issue #35 cost): `parse`, then
/// `last_tsval` over the list a second time, then `store` of the parsed stack.
fn on_rx_two_walks(k: &mut Intake, o: &[u8], ack: u32, seq: u32, una: u32, nxt: u32) -> u32 {
    use rdcc_core::int_intake::{last_tsval, Rx};
    use rdcc_core::int_wire::parse;
    let opt = match parse(o) {
        Ok(Some(x)) if x.echo => x,
        r => {
            k.supersede(ack);
            return match r {
                Ok(Some(_)) => Rx::Request as u32,
                Ok(None) => Rx::Absent as u32,
                Err(_) => Rx::Malformed as u32,
            };
        }
    };
    let (tsval, has_ts) = last_tsval(o).map_or((0, 0), |t| (t, 1));
    let sid = SegmentId {
        ack_seq: ack,
        seq,
        tsval,
        has_ts,
    };
    k.store(sid, &opt.stack, una, nxt) as u32
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// The single walk (`int_wire::locate`) accepts and refuses what `parse` does, reads the
    /// same option, and finds the TSval `last_tsval` finds.
    #[test]
    fn one_walk_reads_what_two_walks_read(o in list()) {
        use rdcc_core::int_intake::last_tsval;
        use rdcc_core::int_wire::{locate, parse};
        match (locate(&o), parse(&o)) {
            (Ok(Some(f)), Ok(Some(p))) => {
                let mut s = IntStack::EMPTY;
                f.read_stack(&mut s);
                prop_assert_eq!(s, p.stack);
                prop_assert_eq!(f.echo(), p.echo);
                prop_assert_eq!(f.count(), p.stack.hops().len());
                prop_assert_eq!(f.tsval, last_tsval(&o));
            }
            (Ok(None), Ok(None)) => {}
            (Err(a), Err(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "locate {:?} parse {:?}", a, b),
        }
    }

    /// `on_rx` (one walk, the records written in place) leaves the intake exactly as the
    /// two-walk composition does, with the same outcome, ACK after ACK, and the takes after
    /// them agree.
    #[test]
    fn on_rx_is_the_two_walk_step(
        acks in proptest::collection::vec((list(), 0u32..6, 0u32..3, any::<bool>()), 1..24),
    ) {
        use rdcc_core::int_intake::on_rx;
        let (mut a, mut b) = (Intake::default(), Intake::default());
        let mut una: u32 = u32::MAX - 2; // wraps during the run
        for (n, (o, step, seq, take)) in acks.into_iter().enumerate() {
            let ack = una.wrapping_add(step);
            let nxt = una.wrapping_add(4);
            let ra = on_rx(&mut a, &o, ack, seq, una, nxt);
            let rb = on_rx_two_walks(&mut b, &o, ack, seq, una, nxt);
            prop_assert_eq!(ra, rb);
            prop_assert_eq!(a, b);
            if take {
                let (tsval, has_ts) = rdcc_core::int_intake::last_tsval(&o).map_or((0, 0), |t| (t, 1));
                let sid = SegmentId { ack_seq: ack, seq, tsval, has_ts };
                let now = (n as u64).wrapping_mul(STALE_NS / 3);
                prop_assert_eq!(a.take(&sid, step != 0, now), b.take(&sid, step != 0, now));
                una = ack;
            }
        }
    }
}

/// `IntHop::same_rate` answers what comparing `rate_bps` answers, for every pair of rate fields
/// (and whatever the other fields hold).
#[test]
fn same_rate_is_rate_equality() {
    for i in 0u64..8 {
        for j in 0u64..8 {
            let x = IntHop(i << 61 | 0x0123_4567_89ab);
            let y = IntHop(j << 61 | 0x1fff_ffff_ffff_ffff >> 3);
            assert_eq!(x.same_rate(&y), x.rate_bps() == y.rate_bps(), "{i} {j}");
        }
    }
}
