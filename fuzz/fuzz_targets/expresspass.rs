//! Drives arbitrary event streams through ExpressPass's receiver and sender
//! (`rdcc_core::expresspass`) and checks what a datapath depends on: no panic (overflow checks
//! are on), the credit rate within [1, max_rate] and `w` within [w_min, w_max] while a session
//! is open, `dropped <= total`, every credit gap finite and at least 1 ns, and a sender packet
//! never larger than the MSS.
//!
//! Input layout: byte 0 selects the mode (artifact / paper), bytes 1-2 the link rate; the rest
//! is a sequence of events, each a kind byte followed by its field bytes (missing bytes read as
//! zero).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdcc_fuzz::Bytes;
use rdcc_core::expresspass::{Config, Params, Receiver, Sender, MODE_PAPER};

/// A time step: mostly µs-scale (< 10 µs or < 10 ms), sometimes anything.
fn step(b: &mut Bytes) -> u64 {
    b.time(10_000, 10_000_000)
}

fuzz_target!(|data: &[u8]| {
    let mut b = Bytes(data);
    let mode = (b.u8() & 1) as u64;
    let link = 1 + (b.u8() as u64 | (b.u8() as u64) << 8) * 25; // 1 Mbit/s .. 1.6 Tbit/s
    let c = Config {
        link_rate_mbps: link,
        mode: if mode == 1 { MODE_PAPER } else { 0 },
        ..Config::DEFAULT
    };
    let Ok(p) = Params::new(&c) else { return };
    let mut r = Receiver::default();
    let mut s = Sender::default();
    let mut now: u64 = 0;
    let mut steps = 0;
    while !b.is_empty() && steps < 4096 {
        steps += 1;
        match b.u8() % 8 {
            0 => {
                r.on_request(&p, now);
            }
            1 => r.on_stop(),
            2 | 3 => {
                let (seq, sent) = (b.u32(), now.wrapping_sub(step(&mut b)));
                r.on_data(&p, now, seq, sent);
            }
            4 | 5 => {
                if let Some(cr) = r.on_credit_timer(&p, now, b.u32()) {
                    assert!(cr.gap_ns >= 1);
                }
            }
            6 => {
                let (backlog, mss) = (b.u64(), b.u32());
                let u = s.on_credit(backlog, mss);
                assert!(u.data_bytes <= mss && u.data_bytes as u64 <= backlog);
                let _ = s.on_backlog(now);
                let _ = s.on_rto(&p, now);
            }
            _ => now = now.wrapping_add(step(&mut b)),
        }
        if r.active {
            assert!(r.rate_bps >= 1 && r.rate_bps <= p.max_rate_bps(), "{r:?}");
            assert!(r.w_q16 >= c.w_min_q16 && r.w_q16 <= c.w_max_q16, "{r:?}");
        }
        assert!(r.dropped <= r.total);
    }
});
