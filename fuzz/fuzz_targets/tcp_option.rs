//! Drives the remote-queuing-delay option parser (`rdcc_core::rqd::scan`, the function the
//! kernel's netfilter hook calls on every ACK of a Swift socket) with arbitrary TCP option
//! bytes, and the Swift law with whatever the parser accepted.
//!
//! Checks: no panic (overflow checks on); the outcome is one of the defined values; every field
//! is zero unless the option is valid; a valid option re-encodes to the bytes it came from
//! (modulo the reserved bits); and feeding the parsed delay and hop count to Swift keeps its
//! window within bounds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdcc_core::event::{AckEvent, Controller, ACK_HAS_HOPS, ACK_HAS_REMOTE_DELAY, ACK_HAS_RTT};
use rdcc_core::rqd::{encode, scan, Outcome, OUTCOMES, SCAN_HAS_HOPS};
use rdcc_core::swift::{Config, Params, State, Swift};

fuzz_target!(|data: &[u8]| {
    // First byte: RTT in µs for the law step; the rest: the option list (the hook passes at
    // most 40 bytes, the parser must cope with anything).
    let (rtt_us, opts) = match data.split_first() {
        Some((r, rest)) => (u64::from(*r) + 1, rest),
        None => (1, data),
    };
    let s = scan(opts);
    assert!((s.outcome as usize) < OUTCOMES);
    if s.outcome() != Outcome::Valid {
        assert_eq!((s.delay_ns, s.hops, s.source), (0, 0, 0));
        assert_eq!(s.flags & SCAN_HAS_HOPS, 0);
        return;
    }
    // A valid option is somewhere in the list: kind, length, ExID, delay and version match.
    let enc = encode(u64::from(s.delay_ns), 0, s.source);
    assert!(
        opts.windows(enc.len())
            .any(|w| w[..8] == enc[..8] && w[9] >> 4 == enc[9] >> 4 && w[9] & 3 == s.source),
        "valid scan without its option bytes"
    );
    let p = Params::new(&Config::DEFAULT).unwrap();
    let mut st = State::default();
    let mut ev = AckEvent {
        now_ns: 1_000_000,
        rtt_ns: rtt_us * 1000,
        remote_delay_ns: u64::from(s.delay_ns),
        acked_bytes: 1448,
        mss_bytes: 1448,
        flags: ACK_HAS_RTT | ACK_HAS_REMOTE_DELAY,
        ..AckEvent::default()
    };
    if s.flags & SCAN_HAS_HOPS != 0 {
        ev.flags |= ACK_HAS_HOPS;
        ev.hops = s.hops;
    }
    for i in 0..4u64 {
        ev.now_ns += i * 1_000_000;
        let d = Swift::on_ack(&p, &mut st, &ev);
        assert!(d.cwnd_bytes_q16 <= (256u64 * 1448) << 16);
    }
});
