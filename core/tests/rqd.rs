//! The remote-queuing-delay option: parser cases for every hostile shape the issue lists
//! (forged, truncated, oversized, wrong ExID, duplicate, nonsensical TTL), property tests (no
//! panic on any bytes, round trip, position independence), agreement of the C wire header with
//! the Rust constants, and the Swift side of the channel (per-ACK fallback, clamp flag, expiry,
//! report).

#[path = "c_header/mod.rs"]
mod c_header;
use proptest::prelude::*;
use rdcc_core::event::{
    AckEvent, Controller, ACK_HAS_HOPS, ACK_HAS_LOCAL_RX, ACK_HAS_REMOTE_DELAY, ACK_HAS_RTT,
    DEC_ENDPOINT_BINDS, DEC_ENDPOINT_EXPIRED, DEC_REMOTE_CLAMPED, DEC_REMOTE_USED,
    REP_HAS_ENDPOINT,
};
use rdcc_core::rqd::{
    encode, forward_hops, scan, Outcome, Scan, EXID, KIND, LEN, OUTCOMES, SCAN_BAD_TTL,
    SCAN_FOREIGN, SCAN_HAS_HOPS, SRC_HW_RX, SRC_SW_RX, SRC_TCP, VERSION,
};
use rdcc_core::swift::{self, Params, State, Swift, ENDPOINT_STALE_ACKS};
use rdcc_core::swift_vectors::BASE;

const NOP: u8 = 1;
/// A timestamp option as Linux sends it: NOP NOP TS(10).
const TS: [u8; 12] = [1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2];

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

#[test]
fn valid_option_after_timestamps() {
    let o = encode(250_000, 62, SRC_TCP);
    let s = scan(&cat(&[&TS, &o, &[NOP, NOP]]));
    assert_eq!(s.outcome(), Outcome::Valid);
    assert_eq!(s.delay_ns, 250_000);
    assert_eq!(s.hops, 2);
    assert_eq!(s.flags, SCAN_HAS_HOPS);
}

#[test]
fn absent_and_eol() {
    assert_eq!(scan(&[]).outcome(), Outcome::Absent);
    assert_eq!(scan(&TS).outcome(), Outcome::Absent);
    // An option after EOL is not part of the list.
    let o = encode(1, 64, SRC_TCP);
    assert_eq!(scan(&cat(&[&[0, 0], &o])).outcome(), Outcome::Absent);
}

#[test]
fn truncated_and_oversized() {
    let o = encode(1000, 64, SRC_TCP);
    // The list ends in the middle of the option: the length byte runs past the end.
    assert_eq!(scan(&o[..7]).outcome(), Outcome::Malformed);
    // Our ExID with a shorter length (a truncated option that still parses as a list).
    let mut short = o[..8].to_vec();
    short[1] = 8;
    assert_eq!(scan(&short).outcome(), Outcome::BadLength);
    // Oversized: 12 bytes.
    let mut long = o.to_vec();
    long[1] = 12;
    long.extend_from_slice(&[0, 0]);
    assert_eq!(scan(&long).outcome(), Outcome::BadLength);
    // Length 0 or 1 anywhere breaks the walk.
    assert_eq!(scan(&[8, 0, 0, 0]).outcome(), Outcome::Malformed);
    assert_eq!(scan(&[8, 1]).outcome(), Outcome::Malformed);
    assert_eq!(scan(&[8]).outcome(), Outcome::Malformed);
    // A broken list after a valid option: nothing is used.
    assert_eq!(scan(&cat(&[&o, &[8, 20]])).outcome(), Outcome::Malformed);
}

#[test]
fn wrong_exid_is_foreign() {
    let mut o = encode(1000, 64, SRC_TCP);
    o[2] = 0x12;
    let s = scan(&o);
    assert_eq!(s.outcome(), Outcome::Foreign);
    assert_eq!(s.flags, SCAN_FOREIGN);
    // A foreign experiment next to ours: ours is used, the foreign one is flagged.
    let s = scan(&cat(&[&o, &encode(7, 64, SRC_TCP)]));
    assert_eq!(s.outcome(), Outcome::Valid);
    assert_eq!(s.delay_ns, 7);
    assert_eq!(s.flags, SCAN_HAS_HOPS | SCAN_FOREIGN);
    // Kind 253 too short to hold an ExID is someone else's.
    assert_eq!(scan(&[KIND, 2]).outcome(), Outcome::Foreign);
}

#[test]
fn duplicates_are_rejected() {
    let a = encode(1000, 64, SRC_TCP);
    let b = encode(2000, 64, SRC_TCP);
    assert_eq!(scan(&cat(&[&a, &b])).outcome(), Outcome::Duplicate);
    assert_eq!(scan(&cat(&[&a, &a])).outcome(), Outcome::Duplicate);
    let mut bad = a[..8].to_vec();
    bad[1] = 8;
    assert_eq!(scan(&cat(&[&bad, &a])).outcome(), Outcome::Duplicate);
}

#[test]
fn bad_version_and_ttl() {
    let mut o = encode(1000, 64, SRC_TCP);
    o[9] = 2 << 4;
    assert_eq!(scan(&o).outcome(), Outcome::BadVersion);
    let o = encode(1000, 0, SRC_HW_RX);
    let s = scan(&o);
    assert_eq!(s.outcome(), Outcome::Valid);
    assert_eq!(s.flags, SCAN_BAD_TTL);
    assert_eq!(s.source, SRC_HW_RX);
}

#[test]
fn saturating_delay() {
    let s = scan(&encode(u64::MAX, 64, SRC_SW_RX));
    assert_eq!(s.delay_ns, u32::MAX);
    assert_eq!(s.source, SRC_SW_RX);
}

#[test]
fn only_forty_bytes_are_read() {
    // 40 NOPs then an option: beyond the largest TCP option area, ignored.
    let mut v = vec![NOP; 40];
    v.extend_from_slice(&encode(1, 64, SRC_TCP));
    assert_eq!(scan(&v).outcome(), Outcome::Absent);
}

#[test]
fn hops_from_ttl() {
    for ttl in 1..=255u8 {
        let h = forward_hops(ttl).unwrap();
        assert!(u16::from(h) + u16::from(ttl) <= 255);
        assert!([32u16, 64, 128, 255].contains(&(u16::from(h) + u16::from(ttl))));
    }
}

/// The C header shared by the BPF program and the glue states the same numbers.
#[test]
fn c_wire_header_matches() {
    let h = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../modules/glue/rdcc_rqd_wire.h"
    ))
    .unwrap();
    let def = |name: &str| c_header::c_define(&h, name);
    assert_eq!(def("RDCC_RQD_KIND"), u64::from(KIND));
    assert_eq!(def("RDCC_RQD_LEN"), u64::from(LEN));
    assert_eq!(def("RDCC_RQD_EXID"), u64::from(EXID));
    assert_eq!(def("RDCC_RQD_VERSION"), u64::from(VERSION));
    assert_eq!(def("RDCC_RQD_SRC_TCP"), u64::from(SRC_TCP));
    assert_eq!(def("RDCC_RQD_SRC_SW_RX"), u64::from(SRC_SW_RX));
    assert_eq!(def("RDCC_RQD_SRC_HW_RX"), u64::from(SRC_HW_RX));
    assert_eq!(def("RDCC_RQD_ABSENT"), Outcome::Absent as u64);
    assert_eq!(def("RDCC_RQD_VALID"), Outcome::Valid as u64);
    assert_eq!(def("RDCC_RQD_MALFORMED"), Outcome::Malformed as u64);
    assert_eq!(def("RDCC_RQD_BAD_LENGTH"), Outcome::BadLength as u64);
    assert_eq!(def("RDCC_RQD_DUPLICATE"), Outcome::Duplicate as u64);
    assert_eq!(def("RDCC_RQD_BAD_VERSION"), Outcome::BadVersion as u64);
    assert_eq!(def("RDCC_RQD_FOREIGN"), Outcome::Foreign as u64);
    assert_eq!(def("RDCC_RQD_OUTCOMES"), OUTCOMES as u64);
    assert_eq!(def("RDCC_RQD_SCAN_HAS_HOPS"), u64::from(SCAN_HAS_HOPS));
    assert_eq!(def("RDCC_RQD_SCAN_BAD_TTL"), u64::from(SCAN_BAD_TTL));
    assert_eq!(def("RDCC_RQD_SCAN_FOREIGN"), u64::from(SCAN_FOREIGN));
}

fn opt_list() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..64),
        // Mostly well-formed lists mixing NOP, timestamps, SACK-like blocks and RQD options.
        prop::collection::vec(
            prop_oneof![
                Just(vec![NOP]),
                Just(TS.to_vec()),
                (any::<u64>(), any::<u8>(), 0u8..4).prop_map(|(d, t, s)| encode(d, t, s).to_vec()),
                (2u8..12, any::<u8>()).prop_map(|(l, b)| {
                    let mut v = vec![KIND, l];
                    v.resize(l as usize, b);
                    v
                }),
                (2u8..20).prop_map(|l| {
                    let mut v = vec![5, l];
                    v.resize(l as usize, 0);
                    v
                }),
            ],
            0..6
        )
        .prop_map(|parts| parts.concat()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// Any bytes: no panic, a defined outcome, fields zero unless valid.
    #[test]
    fn any_bytes(v in opt_list()) {
        let s = scan(&v);
        prop_assert!((s.outcome as usize) < OUTCOMES);
        if s.outcome() != Outcome::Valid {
            prop_assert_eq!(Scan { flags: 0, ..s }, Scan { outcome: s.outcome, ..Scan::default() });
        }
        if s.flags & SCAN_HAS_HOPS != 0 {
            prop_assert!(s.outcome() == Outcome::Valid);
        }
    }

    /// Encode then scan gives the values back, wherever the option sits among NOPs.
    #[test]
    fn roundtrip(d in any::<u64>(), ttl in any::<u8>(), src in 0u8..4, pad in 0usize..30) {
        let mut v = vec![NOP; pad];
        v.extend_from_slice(&encode(d, ttl, src));
        let s = scan(&v);
        prop_assert_eq!(s.outcome(), Outcome::Valid);
        prop_assert_eq!(u64::from(s.delay_ns), d.min(u64::from(u32::MAX)));
        prop_assert_eq!(s.source, src & 3);
        prop_assert_eq!(s.flags & SCAN_HAS_HOPS != 0, ttl != 0);
    }
}

// ---- Swift's use of the channel ----------------------------------------------------------

const US: u64 = 1000;

fn ack(now_us: u64, rtt_us: u64, remote_ns: Option<u64>) -> AckEvent {
    let mut e = AckEvent {
        now_ns: now_us * US,
        rtt_ns: rtt_us * US,
        acked_bytes: 1024,
        mss_bytes: 1024,
        flags: ACK_HAS_RTT,
        ..AckEvent::default()
    };
    if let Some(r) = remote_ns {
        e.flags |= ACK_HAS_REMOTE_DELAY;
        e.remote_delay_ns = r;
    }
    e
}

fn params() -> Params {
    Params::new(&BASE).unwrap()
}

#[test]
fn local_rx_adds_to_the_endpoint_delay() {
    let mut e = ack(1000, 100, Some(30 * US));
    e.flags |= ACK_HAS_LOCAL_RX;
    e.local_rx_delay_ns = 20_000;
    assert_eq!(
        swift::endpoint_delay_ns(&e, 100 * US),
        Some((50 * US, false))
    );
    // Without a remote delay the local Rx delay alone is not used (fabric-only ACK).
    let mut e = ack(1000, 100, None);
    e.flags |= ACK_HAS_LOCAL_RX;
    e.local_rx_delay_ns = 20_000;
    assert_eq!(swift::endpoint_delay_ns(&e, 100 * US), None);
}

#[test]
fn delay_above_rtt_is_clamped_and_flagged() {
    let p = params();
    let mut s = State::default();
    // Within the 1 µs slack: clamped silently.
    let d = Swift::on_ack(&p, &mut s, &ack(1000, 100, Some(100 * US + 500)));
    assert_eq!(d.flags & DEC_REMOTE_CLAMPED, 0);
    assert_ne!(d.flags & DEC_REMOTE_USED, 0);
    // Far above the RTT: clamped and flagged.
    let d = Swift::on_ack(&p, &mut s, &ack(1100, 100, Some(10_000 * US)));
    assert_ne!(d.flags & DEC_REMOTE_CLAMPED, 0);
    let r = Swift::report(&p, &s);
    assert_eq!(r.fabric_delay_ns, 0);
}

#[test]
fn report_and_binding_flags() {
    let p = params();
    let mut s = State::default();
    Swift::init(&p, &mut s, 0, 1024);
    assert_eq!(Swift::report(&p, &s).flags & REP_HAS_ENDPOINT, 0);
    // Endpoint delay 200 µs of a 220 µs RTT against the 50 µs endpoint target: ecwnd decreases
    // (from 256 by at most half per RTT) while the fabric (20 µs < 25 µs) grows.
    let mut last = Default::default();
    let mut hops_ev = ack(0, 220, Some(200 * US));
    hops_ev.flags |= ACK_HAS_HOPS;
    hops_ev.hops = 3;
    for i in 0..40 {
        let mut e = hops_ev;
        e.now_ns = (1000 + i * 300) * US;
        last = Swift::on_ack(&p, &mut s, &e);
    }
    assert_ne!(last.flags & DEC_ENDPOINT_BINDS, 0, "{last:?}");
    assert_ne!(last.flags & DEC_REMOTE_USED, 0);
    let r = Swift::report(&p, &s);
    assert_eq!(r.fabric_delay_ns, 20 * US);
    assert_eq!(r.endpoint_delay_ns, 200 * US);
    assert_eq!(r.hops, 3);
    assert_eq!(
        r.flags,
        DEC_ENDPOINT_BINDS | DEC_REMOTE_USED | REP_HAS_ENDPOINT
    );
    // Then the receiver stops reporting: the endpoint window binds for ENDPOINT_STALE_ACKS - 1
    // more ACKs, then expires; the fabric window alone decides and the report says so.
    for i in 1..=u64::from(ENDPOINT_STALE_ACKS) {
        let d = Swift::on_ack(&p, &mut s, &ack(20_000 + i, 20, None));
        assert_eq!(d.flags & DEC_REMOTE_USED, 0);
        if i < u64::from(ENDPOINT_STALE_ACKS) {
            assert_ne!(d.flags & DEC_ENDPOINT_BINDS, 0);
        } else {
            assert_eq!(
                d.flags & (DEC_ENDPOINT_BINDS | DEC_ENDPOINT_EXPIRED),
                DEC_ENDPOINT_EXPIRED
            );
        }
    }
    let r = Swift::report(&p, &s);
    assert_eq!(r.flags, 0);
    assert_eq!(r.fabric_delay_ns, 20 * US);
}

/// Without any option Swift is exactly fabric-only: `ecwnd` never moves from its ceiling, no
/// decision carries a split flag, and the reported fabric delay is the whole RTT of each ACK.
#[test]
fn no_option_is_fabric_only() {
    let p = params();
    let mut a = State::default();
    for i in 0..500u64 {
        let rtt = 10 + (i * 37) % 90;
        let d = Swift::on_ack(&p, &mut a, &ack(1000 + i * 50, rtt, None));
        assert_eq!(d.flags, 0);
        assert_eq!(a.ecwnd_pkts_q20(), BASE.max_cwnd_pkts_q20);
        let r = Swift::report(&p, &a);
        assert_eq!(r.fabric_delay_ns, rtt * US);
    }
}
