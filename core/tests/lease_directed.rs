// SPDX-License-Identifier: GPL-2.0-only
//! Issue #13, the hold lease, on chosen streams (the glue model and the checks after every event
//! are `lease_model`'s, as in `lease_equivalence.rs`): the lease is taken on the benchmark's
//! streams as often as the law's rounds allow, and it ends exactly at each of its boundaries
//! (stale horizon, segment, round, RTO episode, tracepoint, parameter write). Each boundary test
//! names the off-by-one it catches.

mod lease_model;

use lease_model::{xorshift, Ca, InFlight, Op, Pair, Step};
use rdcc_core::lease::Lease;
use rdcc_core::timely;

/// `lease_model::ack` with `in_flight` packets in flight: an ACK of `pkts` packets `dt` ns after
/// the previous event, RTT `rtt_us`, nothing else set.
fn ack(dt: u64, pkts: u32, rtt_us: i64, in_flight: u32) -> Op {
    lease_model::ack(dt, pkts, rtt_us, InFlight::Fixed(in_flight))
}

/// A pair with `params` (both sets), initialised at 1 ms, MSS `mss`.
fn started(params: &timely::Params, mss: u32) -> Pair<'_> {
    let mut pair = Pair::new([params, params], 1_000_000, 1);
    pair.r.tcp.mss = mss;
    pair.l.tcp.mss = mss;
    pair.init();
    pair
}

/// `started` at MSS 1448, then ten ACKs of 2 packets, 240 ns apart, RTT 25 µs, 64 in flight: the
/// pair and the next event's index.
fn warmed(params: &timely::Params) -> (Pair<'_>, usize) {
    let mut pair = started(params, 1448);
    let mut i = 0;
    for _ in 0..10 {
        pair.step(i, &ack(240, 2, 25, 64)).unwrap();
        i += 1;
    }
    (pair, i)
}

/// The benchmark's `dc` stream (2 packets of 1448 B per ACK every 240 ns, RTT 18-30 µs, 64 in
/// flight, clamp 64) with a 40-ACK fast-recovery episode in the middle: equivalent throughout,
/// and outside the episode the full path runs exactly on the first ACK and on the rate updates
/// (the lease ends where the round ends, 32 fast ACKs of every 33).
#[test]
fn datacenter_stream_takes_the_lease() {
    let p = timely::Params::new(&timely::Config::DEFAULT).unwrap();
    let mut pair = started(&p, 1448);
    let mut rng: u32 = 2_463_534_242;
    let (mut acks, mut fast, mut slow_outside, mut updates_outside) = (0u32, 0u32, 0u32, 0u32);
    let mut i = 0usize;
    for n in 0..4_000u32 {
        let episode = (2_000..2_040).contains(&n);
        if n == 2_000 {
            pair.step(i, &Op::FastRecovery { dt: 100 }).unwrap();
            i += 1;
        }
        if n == 2_040 {
            pair.step(i, &Op::SetState(Ca::Open)).unwrap();
            i += 1;
        }
        let rtt_us = i64::from(18 + xorshift(&mut rng) % 12);
        let mut op = ack(240, 2, rtt_us, 64);
        if let Op::Ack { rs, .. } = &mut op {
            rs.delayed = n % 7 == 0; // a sample still (skip_delayed_acks = 0)
        }
        let s = pair.step(i, &op).unwrap();
        i += 1;
        acks += 1;
        fast += u32::from(s.fast);
        if !episode {
            slow_outside += u32::from(!s.fast);
            updates_outside += u32::from(s.update);
            assert!(
                !(s.fast && s.update),
                "ACK {n}: a rate update taken from the lease"
            );
        } else {
            assert!(!s.fast, "ACK {n}: the lease taken in Recovery");
        }
    }
    assert_eq!(
        slow_outside,
        1 + updates_outside,
        "outside the episode: the first ACK and the updates only"
    );
    assert!(updates_outside >= 100, "{updates_outside} updates");
    assert!(
        fast * 100 >= acks * 95,
        "{fast} of {acks} ACKs from the lease"
    );
}

/// The benchmark's `subpkt` stream (1 packet per ACK every 10 µs, RTT 150-250 µs, 64 in
/// flight): the full path on the first ACK and on each update, one in 65 ACKs after the first.
#[test]
fn subpacket_stream_takes_the_lease() {
    let p = timely::Params::new(&timely::Config::DEFAULT).unwrap();
    let mut pair = started(&p, 1448);
    let mut rng: u32 = 88_675_123;
    let (mut fast, mut slow, mut updates) = (0u32, 0u32, 0u32);
    for n in 0..4_000usize {
        let rtt_us = i64::from(150 + xorshift(&mut rng) % 100);
        let s = pair.step(n, &ack(10_000, 1, rtt_us, 64)).unwrap();
        fast += u32::from(s.fast);
        slow += u32::from(!s.fast);
        updates += u32::from(s.update);
    }
    assert_eq!(slow, 1 + updates, "the first ACK and the updates only");
    // The first update after 12 ACKs (16,384 B), then one in 65: 1 + (4000 - 12) / 65 = 62.
    assert!((55..=70).contains(&updates), "{updates} updates");
    assert!(fast >= 3_900, "{fast} of 4000 ACKs from the lease");
}

/// After the first update (RTT 25 µs: stale horizon 4 x T_high = 2,000,000 ns, span 488 units =
/// 1,998,848 ns), six fast ACKs past a completion within the round, then one ACK `x` ns after
/// the update. Returns (fast, update) of that ACK.
fn horizon_case(x: u64) -> (bool, bool) {
    let p = timely::Params::new(&timely::Config::DEFAULT).unwrap();
    let mut pair = started(&p, 1448);
    let mut i = 0;
    // ACK 1 (no lease yet), 2-5 fast, 6 the first update (6 x 2,896 B >= 16,384 B).
    loop {
        let s = pair.step(i, &ack(240, 2, 25, 64)).unwrap();
        i += 1;
        if s.update {
            break;
        }
        assert!(i < 10, "no update");
    }
    assert_eq!(pair.l.lease.span, 488);
    let t_update = pair.r.s.last_update_ns;
    for _ in 0..6 {
        let s = pair.step(i, &ack(240, 2, 25, 64)).unwrap();
        i += 1;
        assert!(s.fast && !s.update, "within the round");
    }
    let dt = t_update + x - pair.r.tcp.now_ns;
    let s = pair.step(i, &ack(dt, 2, 25, 64)).unwrap();
    (s.fast, s.update)
}

/// The span is rounded down: the last covered ns is still fast, the next one is not (and no
/// update yet), and at the horizon itself the reference updates. A span rounded up (489 units)
/// would cover the 2,000,000 ns ACK, an update.
#[test]
fn lease_ends_at_the_stale_horizon() {
    assert_eq!(horizon_case(1_998_847), (true, false));
    assert_eq!(horizon_case(1_998_848), (false, false));
    assert_eq!(horizon_case(2_000_000), (false, true));
}

/// Per completion, segment 14,480 B = 5 ACKs of 2,896 B: after an update four ACKs are fast
/// and the fifth (exactly one segment) takes the full path and updates. A room of
/// `segment_bytes` instead of `segment_bytes - 1` would take the fifth from the lease.
#[test]
fn lease_ends_at_the_segment_boundary() {
    let p = timely::Params::new(&timely::Config {
        segment_bytes: 14_480,
        update_mode: timely::UPDATE_PER_COMPLETION,
        ..timely::Config::DEFAULT
    })
    .unwrap();
    let mut pair = started(&p, 1448);
    let mut i = 0;
    // ACK 1 (no lease yet), 2-4 fast, 5 the first update.
    let first: Vec<Step> = (0..5)
        .map(|_| {
            let s = pair.step(i, &ack(240, 2, 25, 64)).unwrap();
            i += 1;
            s
        })
        .collect();
    assert!(!first[0].fast && first[1..4].iter().all(|s| s.fast) && !first[4].fast);
    assert!(first[4].update);
    for round in 0..10 {
        for k in 0..5 {
            let s = pair.step(i, &ack(240, 2, 25, 64)).unwrap();
            i += 1;
            assert_eq!((s.fast, s.update), (k < 4, k == 4), "round {round} ACK {k}");
        }
    }
}

/// MSS 1, segment 16 B, 64 packets in flight, ACKs of one packet (1 byte): once updated per
/// round, the room is the round (64 B): ACK 64 after an update is fast, ACK 65 takes the full
/// path and updates. A room of `round + 1` would take the 65th from the lease.
#[test]
fn lease_ends_when_the_round_ends() {
    let p = timely::Params::new(&timely::Config {
        segment_bytes: 16,
        ..timely::Config::DEFAULT
    })
    .unwrap();
    let mut pair = started(&p, 1);
    let mut i = 0;
    // Before the first update the room is a segment: ACK 1 slow, 2-15 fast, 16 the update.
    for k in 1..=16 {
        let s = pair.step(i, &ack(240, 1, 25, 64)).unwrap();
        i += 1;
        assert_eq!(
            (s.fast, s.update),
            ((2..16).contains(&k), k == 16),
            "ACK {k}"
        );
    }
    for round in 0..5 {
        for k in 1..=65 {
            let s = pair.step(i, &ack(240, 1, 25, 64)).unwrap();
            i += 1;
            assert_eq!(
                (s.fast, s.update),
                (k < 65, k == 65),
                "round {round} ACK {k}"
            );
        }
    }
}

/// An RTO, back to Open, an ACK of nothing (rto_count stays 1, so no lease), then an ACK of two
/// packets: the full path, which ends the RTO episode (rto_count = 0). A grant with
/// rto_count != 0 would take it from the lease, and the folded state would keep rto_count 1.
#[test]
fn rto_then_zero_byte_ack() {
    let p = timely::Params::new(&timely::Config::DEFAULT).unwrap();
    let (mut pair, mut i) = warmed(&p);
    for op in [Op::Rto { dt: 1_000_000 }, Op::SetState(Ca::Open)] {
        pair.step(i, &op).unwrap();
        i += 1;
    }
    let s = pair.step(i, &ack(240, 0, 25, 64)).unwrap();
    i += 1;
    assert!(!s.fast);
    assert_eq!(pair.r.s.rto_count, 1);
    assert_eq!(
        pair.l.lease,
        Lease::default(),
        "no lease while an RTO episode is open"
    );
    let s = pair.step(i, &ack(240, 2, 25, 64)).unwrap();
    assert!(!s.fast);
    assert_eq!(pair.r.s.rto_count, 0);
}

/// With the tracepoint on, every ACK takes the full path and is traced, as without the lease;
/// switched off again, the lease is back on the next ACK after a full one.
#[test]
fn tracing_takes_the_full_path() {
    let p = timely::Params::new(&timely::Config::DEFAULT).unwrap();
    let (mut pair, mut i) = warmed(&p);
    pair.step(i, &Op::Trace(true)).unwrap();
    i += 1;
    for _ in 0..20 {
        let s = pair.step(i, &ack(240, 2, 25, 64)).unwrap();
        i += 1;
        assert!(!s.fast);
    }
    assert_eq!(pair.l.trace.len(), 20);
    pair.step(i, &Op::Trace(false)).unwrap();
    i += 1;
    let s = pair.step(i, &ack(240, 2, 25, 64)).unwrap();
    assert!(s.fast);
}

/// A parameter write ends the lease even with the same values (a new generation); the next ACK
/// takes the full path and grants a new one.
#[test]
fn parameter_write_ends_the_lease() {
    let p = timely::Params::new(&timely::Config::DEFAULT).unwrap();
    let (mut pair, mut i) = warmed(&p);
    let s = pair.step(i, &ack(240, 2, 25, 64)).unwrap();
    i += 1;
    assert!(s.fast);
    pair.step(i, &Op::Touch).unwrap();
    i += 1;
    let s = pair.step(i, &ack(240, 2, 25, 64)).unwrap();
    i += 1;
    assert!(!s.fast, "the old generation's lease");
    let s = pair.step(i, &ack(240, 2, 25, 64)).unwrap();
    assert!(s.fast, "the new generation's lease");
}
