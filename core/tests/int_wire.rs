// SPDX-License-Identifier: GPL-2.0-only
//! The INT option (core/src/int_wire.rs): hand-built option lists, byte by byte from the format
//! in the module documentation (not from the code's output), the switch's stamp on each, the
//! parser, the writer, the C header, and properties over any bytes.

#[path = "c_header/mod.rs"]
mod c_header;
use proptest::prelude::*;
use rdcc_core::int::{IntHop, IntStack};
use rdcc_core::int_wire::*;

/// Version 1 in bits 7..6.
const V: u8 = 0x40;
const R1: u64 = 0x0102_0304_0506_0708;
const R2: u64 = 0x1112_1314_1516_1718;
const R3: u64 = 0x2122_2324_2526_2728;

/// A request of `slots` empty slots, as the format defines it.
fn request(slots: u8) -> Vec<u8> {
    let mut v = vec![253, 5 + 8 * slots, 0x49, 0x4e, V];
    v.resize(5 + 8 * usize::from(slots), 0);
    v
}

/// Linux's aligned timestamp option (NOP, NOP, kind 8, len 10, TSval, TSecr).
fn ts() -> Vec<u8> {
    vec![1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2]
}

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.concat()
}

/// (name, option list before, record, outcome, list after)
type StampRow = (&'static str, Vec<u8>, IntHop, Stamp, Vec<u8>);

#[test]
fn stamp_table() {
    // (name, option list before, record, outcome, list after)
    let one = request(1);
    let mut one_after = one.clone();
    one_after[4] = V | 1;
    one_after[5..13].copy_from_slice(&R1.to_be_bytes());
    let mut one_full = one_after.clone();
    one_full[4] = V | 0x10 | 1;

    let two = cat(&[&ts(), &request(2), &[1, 1, 1]]); // 12 + 21 + 3 = 36 bytes
    let mut two_1 = two.clone();
    two_1[12 + 4] = V | 1;
    two_1[17..25].copy_from_slice(&R1.to_be_bytes());
    let mut two_2 = two_1.clone();
    two_2[12 + 4] = V | 2;
    two_2[25..33].copy_from_slice(&R2.to_be_bytes());
    let mut two_full = two_2.clone();
    two_full[12 + 4] = V | 0x10 | 2;

    let mut echo = request(2);
    echo[4] = V | 0x20 | 1;
    let rqd = vec![253, 10, 0x53, 0x57, 0, 0, 0, 9, 60, 0x10]; // Swift's option: foreign to us
    let after_eol = cat(&[&[0, 1, 1, 1], &request(1)]);
    let short_len = cat(&[&[253, 12, 0x49, 0x4e, V], &[0; 7]]);
    let mut v2 = request(1);
    v2[4] = 0x80;
    let mut bad_count = request(2);
    bad_count[4] = V | 3;
    let past_end = vec![253, 13, 0x49, 0x4e, V, 0, 0];
    let len_one = cat(&[&[5, 1], &request(1)]);
    let dup = cat(&[&request(1), &request(1)]);
    let five_slots = cat(&[&[253, 45, 0x49, 0x4e, V], &[0; 40]]);

    let r1 = IntHop(R1);
    let r2 = IntHop(R2);
    let rows: Vec<StampRow> = vec![
        (
            "one slot, empty",
            one.clone(),
            r1,
            Stamp::Stamped,
            one_after.clone(),
        ),
        (
            "one slot, filled",
            one_after.clone(),
            r2,
            Stamp::Full,
            one_full.clone(),
        ),
        (
            "one slot, overflowed already",
            one_full.clone(),
            r2,
            Stamp::Full,
            one_full,
        ),
        (
            "timestamps + two slots, first hop",
            two.clone(),
            r1,
            Stamp::Stamped,
            two_1.clone(),
        ),
        (
            "timestamps + two slots, second hop",
            two_1,
            r2,
            Stamp::Stamped,
            two_2.clone(),
        ),
        (
            "timestamps + two slots, third hop",
            two_2,
            IntHop(R3),
            Stamp::Full,
            two_full,
        ),
        (
            "an echo is never written",
            echo.clone(),
            r1,
            Stamp::Echo,
            echo,
        ),
        ("no option", ts(), r1, Stamp::Absent, ts()),
        ("empty list", vec![], r1, Stamp::Absent, vec![]),
        (
            "only Swift's option (another ExID)",
            rqd.clone(),
            r1,
            Stamp::Absent,
            rqd,
        ),
        (
            "after end-of-list",
            after_eol.clone(),
            r1,
            Stamp::Absent,
            after_eol,
        ),
        (
            "length 12 (not 5 + 8n)",
            short_len.clone(),
            r1,
            Stamp::Malformed,
            short_len,
        ),
        ("version 2", v2.clone(), r1, Stamp::Malformed, v2),
        (
            "count 3 of 2 slots",
            bad_count.clone(),
            r1,
            Stamp::Malformed,
            bad_count,
        ),
        (
            "option past the list's end",
            past_end.clone(),
            r1,
            Stamp::Malformed,
            past_end,
        ),
        (
            "a length byte of 1 before ours",
            len_one.clone(),
            r1,
            Stamp::Malformed,
            len_one,
        ),
        ("two INT options", dup.clone(), r1, Stamp::Duplicate, dup),
        (
            "five slots (45 bytes)",
            five_slots.clone(),
            r1,
            Stamp::Malformed,
            five_slots,
        ),
    ];
    for (name, before, rec, want, after) in rows {
        let mut b = before.clone();
        assert_eq!(stamp(&mut b, rec), want, "{name}");
        assert_eq!(b, after, "{name}: bytes after");
    }
}

#[test]
fn parse_table() {
    let mut two = cat(&[&ts(), &request(2)]);
    two[16] = V | 0x20 | 0x10 | 2;
    two[17..25].copy_from_slice(&R1.to_be_bytes());
    two[25..33].copy_from_slice(&R2.to_be_bytes());
    let got = parse(&two).unwrap().unwrap();
    assert!(got.echo && got.overflow);
    assert_eq!(
        got.stack.overflow, 1,
        "the laws see the truncation in the stack"
    );
    assert_eq!(got.slots, 2);
    assert_eq!(got.stack.hops(), &[IntHop(R1), IntHop(R2)]);

    let req = parse(&request(4)).unwrap().unwrap();
    assert!(!req.echo && !req.overflow);
    assert_eq!(req.stack.overflow, 0);
    assert_eq!((req.slots, req.stack.hops().len()), (4, 0));

    let rows: Vec<(&str, Vec<u8>, Result<bool, ParseError>)> = vec![
        ("none", ts(), Ok(false)),
        ("len 2 of ours", vec![253, 2], Ok(false)), // too short to carry an ExID: not ours
        (
            "len 4, ExID only",
            vec![253, 4, 0x49, 0x4e],
            Err(ParseError::BadLength),
        ),
        // Another experiment whose ExID shares one byte with ours (RFC 6994: the two bytes
        // together name it): not ours, and its bad length is not our error.
        ("ExID 0x4900", vec![253, 4, 0x49, 0x00], Ok(false)),
        ("ExID 0x004e", vec![253, 4, 0x00, 0x4e], Ok(false)),
        ("len 1", vec![8, 1], Err(ParseError::Malformed)),
        ("len byte missing", vec![8], Err(ParseError::Malformed)),
        (
            "version 0",
            cat(&[&[253, 13, 0x49, 0x4e, 0x01], &[0; 8]]),
            Err(ParseError::BadVersion),
        ),
        (
            "count 2 of 1",
            cat(&[&[253, 13, 0x49, 0x4e, V | 2], &[0; 8]]),
            Err(ParseError::BadCount),
        ),
        (
            "duplicate",
            cat(&[&request(1), &request(2)]),
            Err(ParseError::Duplicate),
        ),
    ];
    for (name, bytes, want) in rows {
        assert_eq!(parse(&bytes).map(|o| o.is_some()), want, "{name}");
    }
}

#[test]
fn writer_forms() {
    let mut buf = [0xaa_u8; 40];
    assert_eq!(write(&mut buf, 2, false, false, &IntStack::EMPTY), 21);
    assert_eq!(&buf[..21], request(2).as_slice());
    assert_eq!(buf[21], 0xaa, "nothing past the option");

    let mut s = IntStack::EMPTY;
    for r in [R1, R2, R3] {
        assert!(s.push(IntHop(r)));
    }
    // An echo of three hops into two slots keeps the first two.
    let n = write(&mut buf, 2, true, true, &s);
    let mut want = vec![253, 21, 0x49, 0x4e, V | 0x20 | 0x10 | 2];
    want.extend_from_slice(&R1.to_be_bytes());
    want.extend_from_slice(&R2.to_be_bytes());
    assert_eq!(&buf[..n], want.as_slice());
    // Lengths per slot count: 13, 21, 29, 37; out of range or a short buffer writes nothing.
    for (slots, len) in [(1, 13), (2, 21), (3, 29), (4, 37), (0, 0), (5, 0)] {
        assert_eq!(
            write(&mut buf, slots, false, false, &s),
            len,
            "{slots} slots"
        );
    }
    assert_eq!(write(&mut buf[..20], 2, false, false, &s), 0);
    assert_eq!(MAX_SLOTS, 4);
    assert_eq!(option_len(2) + 12, 33, "two slots fit beside timestamps");
    assert!(option_len(3) + 12 > 40, "three do not");
}

/// A record stamped by the switch reads back as the values it encoded (core/src/int.rs units).
#[test]
fn stamped_record_reads_back() {
    let rec = IntHop::encode(3_000, 1_000_000, 123_456, 1_250_000_000).unwrap();
    let mut b = request(1);
    assert_eq!(stamp(&mut b, rec), Stamp::Stamped);
    let hop = parse(&b).unwrap().unwrap().stack.hops()[0];
    assert_eq!(hop.qlen_bytes(), 2_960); // 3000 rounded down to 80 B
    assert_eq!(hop.tx_units(), 1_000_000 / 128);
    assert_eq!(hop.ts_ns(), 123_456);
    assert_eq!(hop.rate_bps(), 1_250_000_000);
}

/// The C header shared by the switch and the receiver's BPF program states the same numbers.
#[test]
fn c_wire_header_matches() {
    let h = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../modules/glue/rdcc_int_wire.h"
    ))
    .unwrap();
    let def = |name: &str| c_header::c_define(&h, name);
    let rows: [(&str, u64); 16] = [
        ("RDCC_INT_KIND", KIND.into()),
        ("RDCC_INT_EXID", EXID.into()),
        ("RDCC_INT_VERSION", VERSION.into()),
        ("RDCC_INT_HEADER_LEN", HEADER_LEN as u64),
        ("RDCC_INT_RECORD_LEN", RECORD_LEN as u64),
        ("RDCC_INT_MAX_SLOTS", MAX_SLOTS as u64),
        ("RDCC_INT_HDR_ECHO", HDR_ECHO.into()),
        ("RDCC_INT_HDR_OVERFLOW", HDR_OVERFLOW.into()),
        ("RDCC_INT_HDR_COUNT_MASK", HDR_COUNT_MASK.into()),
        ("RDCC_INT_ABSENT", Stamp::Absent as u64),
        ("RDCC_INT_STAMPED", Stamp::Stamped as u64),
        ("RDCC_INT_FULL", Stamp::Full as u64),
        ("RDCC_INT_ECHO", Stamp::Echo as u64),
        ("RDCC_INT_MALFORMED", Stamp::Malformed as u64),
        ("RDCC_INT_DUPLICATE", Stamp::Duplicate as u64),
        ("RDCC_INT_OUTCOMES", STAMP_OUTCOMES as u64),
    ];
    for (name, want) in rows {
        assert_eq!(def(name), want, "{name}");
    }
}

proptest! {
    /// Any bytes: no panic; unless the outcome is Stamped or Full, not one byte changes; a stamp
    /// changes only the header byte and the slot it filled, and the parser then sees the record.
    #[test]
    fn stamp_changes_only_what_it_says(bytes in proptest::collection::vec(any::<u8>(), 0..48), r in any::<u64>()) {
        let mut b = bytes.clone();
        let before = parse(&bytes);
        let out = stamp(&mut b, IntHop(r));
        match out {
            Stamp::Stamped => {
                let was = before.unwrap().unwrap();
                let now = parse(&b).unwrap().unwrap();
                prop_assert_eq!(now.stack.hops().len(), was.stack.hops().len() + 1);
                prop_assert_eq!(*now.stack.hops().last().unwrap(), IntHop(r));
                let changed = bytes.iter().zip(&b).filter(|(x, y)| x != y).count();
                prop_assert!(changed <= 9);
            }
            Stamp::Full => {
                let now = parse(&b).unwrap().unwrap();
                prop_assert!(now.overflow && !now.echo);
                prop_assert_eq!(now.stack.hops().len(), usize::from(now.slots));
            }
            _ => prop_assert_eq!(&b, &bytes),
        }
    }

    /// An echo written from any stack parses back to that stack's first `slots` hops.
    #[test]
    fn echo_round_trips(recs in proptest::collection::vec(any::<u64>(), 0..5), slots in 1usize..=4, ovf in any::<bool>()) {
        let mut s = IntStack::EMPTY;
        for r in &recs {
            s.push(IntHop(*r));
        }
        let mut buf = [0u8; 40];
        let n = write(&mut buf, slots, true, ovf, &s);
        prop_assert_eq!(n, option_len(slots));
        let o = parse(&buf[..n]).unwrap().unwrap();
        prop_assert!(o.echo);
        prop_assert_eq!(o.overflow, ovf);
        let keep = recs.len().min(slots);
        prop_assert_eq!(o.stack.hops(), &s.hops()[..keep]);
        // A switch never writes into it.
        let mut c = buf;
        prop_assert_eq!(stamp(&mut c[..n], IntHop(1)), Stamp::Echo);
        prop_assert_eq!(c, buf);
    }

    /// Valid lists (NOPs, timestamps, a request with some slots filled, in any order): each
    /// stamp fills the next slot until the last, then sets the overflow bit, and the records
    /// come back in path order.
    #[test]
    fn stamps_fill_in_path_order(slots in 1u8..=4, with_ts in any::<bool>(), nops in 0usize..3, recs in proptest::collection::vec(any::<u64>(), 1..7)) {
        let mut list = vec![1u8; nops];
        if with_ts && slots <= 2 {
            list.extend(ts());
        }
        list.extend(request(slots));
        for (i, r) in recs.iter().enumerate() {
            let want = if i < usize::from(slots) { Stamp::Stamped } else { Stamp::Full };
            prop_assert_eq!(stamp(&mut list, IntHop(*r)), want);
        }
        let o = parse(&list).unwrap().unwrap();
        let kept = recs.len().min(usize::from(slots));
        let want: Vec<IntHop> = recs[..kept].iter().map(|r| IntHop(*r)).collect();
        prop_assert_eq!(o.stack.hops(), want.as_slice());
        prop_assert_eq!(o.overflow, recs.len() > usize::from(slots));
    }
}
