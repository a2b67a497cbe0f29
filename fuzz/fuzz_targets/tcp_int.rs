//! Drives the TCP-INT option parser (`rdcc_core::tcp_int::scan`) with arbitrary TCP option
//! bytes under each release's layout, the receiver's echo writer with what it parsed, and the
//! INT laws (PowerTCP with INT, HPCC) with the one-hop stacks the adapter makes of the echoes.
//!
//! Checks: no panic (overflow checks on); nothing is reported of a list that failed; a valid
//! option is at its offset and re-encodes to exactly its bytes; the receiver's echo parses back
//! to itself; the adapter's stack has one record; the laws' windows stay within their bounds.
//!
//! Input: byte 0 selects the version and the law; then rounds of (a time step, 4 bytes, and an
//! option list: a length byte, then that many bytes modulo 64).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdcc_core::event::AckEvent;
use rdcc_core::int::{IntController, RATE_TABLE_BPS};
use rdcc_core::tcp_int::{
    echo_of, encode, outgoing, scan, to_stack, Adapter, AdapterParams, Outcome, Scan,
};
use rdcc_core::{hpcc, powertcp_int};
use rdcc_fuzz::Bytes;

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let sel = b.u8();
    let p = AdapterParams::new(
        2 + u64::from(sel % 3),
        RATE_TABLE_BPS[usize::from(sel / 3 % 8)],
    )
    .unwrap();
    let v = p.version;
    let pp = powertcp_int::Params::new(&powertcp_int::Config::DEFAULT).unwrap();
    let hp = hpcc::Params::new(&hpcc::Config::DEFAULT).unwrap();
    let (mut ps, mut hs) = (powertcp_int::State::default(), hpcc::State::default());
    let mut a = Adapter::default();
    let (mut now, mut una) = (0u64, 0u32);
    while !b.is_empty() {
        now = now.wrapping_add(u64::from(b.u32()) % 20_000_000);
        let len = usize::from(b.u8() % 64);
        let opts: Vec<u8> = (0..len).map(|_| b.u8()).collect();
        let s = scan(&opts, v);
        if s.outcome != Outcome::Valid {
            assert_eq!(
                s,
                Scan {
                    outcome: s.outcome,
                    ..Scan::default()
                }
            );
            continue;
        }
        let at = usize::from(s.offset);
        assert!(at + 12 <= 40);
        assert_eq!(&opts[at..at + 12], &encode(&s.opt, v)[..]);
        // The receiver's side: its echo of these forward fields parses back to itself.
        if let Some(e) = echo_of(&s.opt, v) {
            let back = scan(&outgoing(&e, sel, v), v);
            assert_eq!(back.outcome, Outcome::Valid);
            assert_eq!(
                (
                    back.opt.intval_ecr,
                    back.opt.hop_id_ecr,
                    back.opt.hop_lat_ecr
                ),
                (e.intval_ecr, e.hop_id_ecr, e.hop_lat_ecr)
            );
        }
        // The sender's side: the echo fields through the adapter into both laws.
        let Ok((stack, next)) = to_stack(&p, &a, &s.opt, now) else {
            assert_eq!(s.opt.hop_id_ecr, 0);
            continue;
        };
        assert_eq!(stack.hops().len(), 1);
        a = next;
        una = una.wrapping_add(1448);
        let ev = AckEvent {
            now_ns: now,
            snd_una: una,
            snd_nxt: una.wrapping_add(100_000),
            acked_bytes: 1448,
            mss_bytes: 1448,
            ..AckEvent::default()
        };
        let d = powertcp_int::PowerTcpInt::on_ack(&pp, &mut ps, &ev, &stack);
        assert!(d.cwnd_bytes_q16 <= pp.init_cwnd_q16().max(1 << 16));
        let d = hpcc::Hpcc::on_ack(&hp, &mut hs, &ev, &stack);
        assert!(d.cwnd_bytes_q16 <= hp.init_cwnd_q16().max(1 << 16));
    }
});
