// SPDX-License-Identifier: GPL-2.0-only
//! Issue #13, round 3: the remote-delay hook walks the TCP options once. `rqd::scan` now also
//! returns the TSval that the C glue used to find with a second walk (`rdcc_rqd_tsval`, removed
//! from `modules/glue/rdcc_rqd.c`), and its walk was rewritten with slice patterns. Checked here:
//!
//! - a table of hostile option lists (truncated, bad lengths, kind-1 padding, EOL, duplicated
//!   options, timestamp options of the wrong length, options past 40 bytes), each with the
//!   outcome and TSval derived by hand from RFC 9293 §3.1 / RFC 7323 §3.2 and the C function;
//! - a property over arbitrary and hostile lists: every field the scan returned before is
//!   unchanged (the frozen copy in `tests/reference/rqd.rs`), and the TSval is exactly what the
//!   C function returned (transcribed below), present only with `Outcome::Valid` (the only case
//!   in which the hook uses it).

use proptest::prelude::*;
use rdcc_core::rqd::{encode, scan, Outcome, Scan, EXID, KIND, LEN, SRC_TCP, TS_KIND, TS_LEN};

#[allow(dead_code, clippy::all)]
mod reference {
    pub mod rqd;
}

const NOP: u8 = 1;
const EOL: u8 = 0;

/// A timestamp option with this TSval (TSecr 0x0a0b0c0d).
fn ts(tsval: u32) -> Vec<u8> {
    let mut v = vec![TS_KIND, TS_LEN];
    v.extend_from_slice(&tsval.to_be_bytes());
    v.extend_from_slice(&[0x0a, 0x0b, 0x0c, 0x0d]);
    v
}

fn rqd(delay_ns: u64) -> Vec<u8> {
    encode(delay_ns, 62, SRC_TCP).to_vec()
}

fn cat(parts: &[Vec<u8>]) -> Vec<u8> {
    parts.concat()
}

/// `rdcc_rqd_tsval()` of `modules/glue/rdcc_rqd.c` before this change, transcribed: the last
/// timestamp option of length 10 of the walk; the walk stops at EOL or at a broken length
/// (keeping what it found before). The hook gave it at most 40 bytes (`doff` <= 15).
fn c_tsval(opts: &[u8]) -> Option<u32> {
    let o = &opts[..opts.len().min(40)];
    let len = o.len();
    let mut i = 0usize;
    let mut found = None;
    while i < len {
        let kind = o[i];
        if kind == EOL {
            break;
        }
        if kind == NOP {
            i += 1;
            continue;
        }
        if i + 1 >= len {
            break;
        }
        let sz = usize::from(o[i + 1]);
        if sz < 2 || sz > len - i {
            break;
        }
        if kind == TS_KIND && sz == usize::from(TS_LEN) {
            found = Some(u32::from_be_bytes([o[i + 2], o[i + 3], o[i + 4], o[i + 5]]));
        }
        i += sz;
    }
    found
}

/// The hook's TSval before the change: the C walk's, used only with a valid option.
fn old_hook_tsval(opts: &[u8]) -> Option<u32> {
    let old = reference::rqd::scan(opts);
    if old.outcome == Outcome::Valid as u8 {
        c_tsval(opts)
    } else {
        None
    }
}

/// The hook's TSval now: from the scan.
fn new_hook_tsval(s: &Scan) -> Option<u32> {
    (s.has_ts == 1).then_some(s.tsval)
}

#[test]
fn hostile_lists_table() {
    let t1 = 0x1122_3344;
    let t2 = 0x5566_7788;
    let mut bad_exid = rqd(5);
    bad_exid[2] = 0x12;
    let mut rqd_len8 = rqd(5)[..8].to_vec();
    rqd_len8[1] = 8;
    let mut ts_len8 = ts(t2)[..8].to_vec();
    ts_len8[1] = 8;
    // (name, option bytes, outcome, TSval the hook uses). Derived from the walk's rules: EOL
    // ends the list, NOP is one byte, any other option needs a length byte >= 2 that stays
    // inside the list; a timestamp option counts only with length 10, the last one wins; the
    // TSval is used only when the list has exactly one valid RQD option.
    let cases: Vec<(&str, Vec<u8>, Outcome, Option<u32>)> = vec![
        (
            "linux layout",
            cat(&[vec![NOP, NOP], ts(t1), rqd(5), vec![NOP, NOP]]),
            Outcome::Valid,
            Some(t1),
        ),
        (
            "rqd first",
            cat(&[rqd(5), vec![NOP, NOP], ts(t1)]),
            Outcome::Valid,
            Some(t1),
        ),
        (
            "no timestamps",
            cat(&[rqd(5), vec![NOP, NOP]]),
            Outcome::Valid,
            None,
        ),
        (
            "ts only",
            cat(&[vec![NOP, NOP], ts(t1)]),
            Outcome::Absent,
            None,
        ),
        (
            "two ts: last wins",
            cat(&[ts(t1), rqd(5), ts(t2)]),
            Outcome::Valid,
            Some(t2),
        ),
        (
            "two ts: prefix then later",
            cat(&[vec![NOP, NOP], ts(t1), ts(t2), rqd(5)]),
            Outcome::Valid,
            Some(t2),
        ),
        (
            "ts of length 8 is not a ts",
            cat(&[ts_len8.clone(), rqd(5)]),
            Outcome::Valid,
            None,
        ),
        (
            "ts of length 8 after a good one",
            cat(&[ts(t1), ts_len8, rqd(5)]),
            Outcome::Valid,
            Some(t1),
        ),
        (
            "ts after EOL ignored",
            cat(&[rqd(5), vec![EOL], ts(t1)]),
            Outcome::Valid,
            None,
        ),
        (
            "rqd after EOL ignored",
            cat(&[ts(t1), vec![EOL, NOP], rqd(5)]),
            Outcome::Absent,
            None,
        ),
        (
            "kind-1 padding everywhere",
            cat(&[vec![NOP; 3], ts(t1), vec![NOP; 5], rqd(5), vec![NOP; 4]]),
            Outcome::Valid,
            Some(t1),
        ),
        (
            "truncated ts at the end",
            cat(&[rqd(5), ts(t1)[..7].to_vec()]),
            Outcome::Malformed,
            None,
        ),
        (
            "truncated rqd",
            cat(&[ts(t1), rqd(5)[..7].to_vec()]),
            Outcome::Malformed,
            None,
        ),
        (
            "length 0",
            cat(&[ts(t1), rqd(5), vec![8, 0, 0, 0]]),
            Outcome::Malformed,
            None,
        ),
        (
            "length 1",
            cat(&[rqd(5), vec![30, 1], ts(t1)]),
            Outcome::Malformed,
            None,
        ),
        (
            "lone kind byte at the end",
            cat(&[ts(t1), rqd(5), vec![30]]),
            Outcome::Malformed,
            None,
        ),
        (
            "rqd of length 8",
            cat(&[ts(t1), rqd_len8]),
            Outcome::BadLength,
            None,
        ),
        (
            "duplicate rqd",
            cat(&[ts(t1), rqd(5), rqd(6)]),
            Outcome::Duplicate,
            None,
        ),
        (
            "wrong exid only",
            cat(&[ts(t1), bad_exid.clone()]),
            Outcome::Foreign,
            None,
        ),
        (
            "wrong exid beside ours",
            cat(&[ts(t1), bad_exid, rqd(5)]),
            Outcome::Valid,
            Some(t1),
        ),
        (
            "kind 253 of length 2",
            cat(&[vec![KIND, 2], ts(t1), rqd(5)]),
            Outcome::Valid,
            Some(t1),
        ),
        // Past 40 bytes nothing is read: the second timestamp option starts at byte 36 and
        // would end at 46.
        (
            "ts past 40 bytes",
            cat(&[vec![NOP, NOP], ts(t1), rqd(5), vec![NOP; 14], ts(t2)]),
            Outcome::Malformed,
            None,
        ),
        (
            "ts ending at byte 40",
            cat(&[vec![NOP, NOP], ts(t1), rqd(5), vec![NOP; 8], ts(t2)]),
            Outcome::Valid,
            Some(t2),
        ),
    ];
    for (name, bytes, outcome, tsval) in &cases {
        let s = scan(bytes);
        assert_eq!(s.outcome(), *outcome, "{name}: outcome");
        assert_eq!(new_hook_tsval(&s), *tsval, "{name}: TSval");
        // The table is the old behaviour too.
        assert_eq!(
            old_hook_tsval(bytes),
            *tsval,
            "{name}: TSval before the change"
        );
        assert_eq!(
            reference::rqd::scan(bytes).outcome,
            *outcome as u8,
            "{name}: old outcome"
        );
        if *outcome != Outcome::Valid {
            assert_eq!((s.tsval, s.has_ts), (0, 0), "{name}: no TSval unless valid");
        }
    }
    assert_eq!(EXID, 0x5357);
    assert_eq!(LEN, 10);
}

/// One piece of an option list, hostile ones included.
fn part() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        3 => Just(vec![NOP]),
        1 => Just(vec![EOL]),
        3 => any::<u32>().prop_map(ts),
        2 => (any::<u64>(), any::<u8>(), 0u8..4).prop_map(|(d, t, s)| encode(d, t, s).to_vec()),
        // Version, ExID or length bytes changed.
        2 => (any::<u64>(), 0usize..10, any::<u8>()).prop_map(|(d, at, b)| {
            let mut v = encode(d, 62, SRC_TCP).to_vec();
            v[at] = b;
            v
        }),
        // A timestamp option with another length byte.
        1 => (any::<u32>(), any::<u8>()).prop_map(|(t, l)| {
            let mut v = ts(t);
            v[1] = l;
            v
        }),
        // Any kind with any length byte and some bytes.
        2 => (any::<u8>(), any::<u8>(), proptest::collection::vec(any::<u8>(), 0..12))
            .prop_map(|(k, l, rest)| {
                let mut v = vec![k, l];
                v.extend(rest);
                v
            }),
        1 => proptest::collection::vec(any::<u8>(), 1..6),
    ]
}

fn option_list() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        (
            proptest::collection::vec(part(), 0..8),
            any::<prop::sample::Index>(),
            any::<bool>()
        )
            .prop_map(|(parts, cut, truncate)| {
                let v = parts.concat();
                if truncate && !v.is_empty() {
                    v[..cut.index(v.len() + 1)].to_vec()
                } else {
                    v
                }
            }),
        proptest::collection::vec(any::<u8>(), 0..48),
        // What a Linux receiver sends (NOP NOP TS, one RQD option: the scan's one-step arm), with
        // any TTL and source byte, the version or ExID sometimes broken, and any tail: padding,
        // an EOL and garbage after it, another option, a truncation.
        (
            any::<u32>(),
            (any::<u64>(), any::<u8>(), 0u8..4),
            prop::option::weighted(0.2, (0usize..10, any::<u8>())),
            proptest::collection::vec(part(), 0..3),
            any::<prop::sample::Index>(),
            any::<bool>()
        )
            .prop_map(|(t, (d, ttl, src), edit, tail, cut, truncate)| {
                let mut v = vec![NOP, NOP];
                v.extend(ts(t));
                let mut o = encode(d, ttl, src).to_vec();
                if let Some((at, b)) = edit {
                    o[at] = b;
                }
                v.extend(o);
                v.extend(tail.concat());
                if truncate {
                    v.truncate(cut.index(v.len() + 1));
                }
                v
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8192, ..ProptestConfig::default() })]

    /// Every field the old scan returned is unchanged, and the TSval is the C walk's,
    /// exactly when the old hook used it.
    #[test]
    fn one_walk_equals_the_two_walks(v in option_list()) {
        let new = scan(&v);
        let old = reference::rqd::scan(&v);
        prop_assert_eq!(
            (new.delay_ns, new.outcome, new.hops, new.flags, new.source),
            (old.delay_ns, old.outcome, old.hops, old.flags, old.source)
        );
        prop_assert_eq!(new_hook_tsval(&new), old_hook_tsval(&v));
        prop_assert!(new.has_ts <= 1);
        if new.has_ts == 0 {
            prop_assert_eq!(new.tsval, 0);
        }
    }
}
