//! Drives arbitrary ACK/INT-stack/loss streams through the INT laws (PowerTCP with INT, HPCC,
//! HPCC with VAI/SF) and checks: no panic, the window within the law's bounds, the pacing rate
//! within `MAX_RATE_BPS`. Stacks are arbitrary 64-bit records (hostile counts included) or
//! small perturbations of the previous stack (realistic differences).
//!
//! Input: byte 0 selects the law, byte 1 whether `init` runs; then events, each a kind byte and
//! field bytes (missing bytes read as zero).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdcc_fuzz::Bytes;
use rdcc_core::event::{AckEvent, Decision, LossEvent, LossKind, ACK_HAS_RTT};
use rdcc_core::fixed::MAX_RATE_BPS;
use rdcc_core::int::{IntController, IntHop, IntStack, INT_MAX_HOPS};
use rdcc_core::{hpcc, powertcp_int};

fn check(d: &Decision, min_q16: u64, max_q16: u64) {
    assert!(d.pacing_rate_bps <= MAX_RATE_BPS, "pacing {}", d.pacing_rate_bps);
    if d.cwnd_bytes_q16 != 0 {
        assert!(d.cwnd_bytes_q16 >= min_q16 && d.cwnd_bytes_q16 <= max_q16, "cwnd {}", d.cwnd_bytes_q16);
    }
}

fn drive<C: IntController>(p: &C::Params, data: &mut Bytes, with_init: bool, min_q16: u64, max_q16: u64) {
    let mut s = C::State::default();
    let (mut now, mut una, mut nxt) = (1_000_000u64, 0u32, 0u32);
    let mut stack = IntStack::EMPTY;
    if with_init {
        check(&C::init(p, &mut s, now, 1000), min_q16, max_q16);
    }
    let mut steps = 0;
    while !data.is_empty() && steps < 4096 {
        steps += 1;
        let kind = data.u8();
        now = now.wrapping_add(data.u32() as u64 % 100_000);
        let d = match kind % 4 {
            0 => {
                // A hostile stack.
                for h in stack.hops.iter_mut() {
                    *h = IntHop(data.u64());
                }
                stack.n = data.u8();
                C::on_ack(p, &mut s, &ack(now, &mut una, &mut nxt, data), &stack)
            }
            1 | 2 => {
                // The previous stack moved forward: time, bytes and queue change per hop.
                if stack.n == 0 || usize::from(stack.n) > INT_MAX_HOPS {
                    stack = IntStack::EMPTY;
                    for _ in 0..(1 + data.u8() as usize % INT_MAX_HOPS) {
                        stack.push(IntHop::encode(0, 0, 0, 12_500_000_000).unwrap());
                    }
                }
                let n = usize::from(stack.n);
                for h in stack.hops.iter_mut().take(n) {
                    let dt = data.u32() as u64 % 50_000;
                    let q = data.u32() as u64 % 20_000_000;
                    let tx = data.u32() as u64 % (1 << 27);
                    let prev_tx = h.tx_units() * 128;
                    *h = IntHop::encode(q, prev_tx + tx, h.ts_ns() + dt, h.rate_bps()).unwrap();
                }
                C::on_ack(p, &mut s, &ack(now, &mut una, &mut nxt, data), &stack)
            }
            _ => {
                let k = if data.u8() % 2 == 0 { LossKind::FastRecovery } else { LossKind::RetransmitTimeout };
                C::on_loss(p, &mut s, &LossEvent { now_ns: now, mss_bytes: 1000, kind: k })
            }
        };
        check(&d, min_q16, max_q16);
    }
}

fn ack(now: u64, una: &mut u32, nxt: &mut u32, data: &mut Bytes) -> AckEvent {
    *una = una.wrapping_add(data.u32() % (1 << 20));
    *nxt = una.wrapping_add(data.u32() % (1 << 22));
    AckEvent {
        now_ns: now,
        rtt_ns: data.u32() as u64,
        flags: ACK_HAS_RTT,
        mss_bytes: 1000,
        acked_bytes: 1000,
        snd_una: *una,
        snd_nxt: *nxt,
        ..AckEvent::default()
    }
}

fuzz_target!(|input: &[u8]| {
    let mut data = Bytes(input);
    let law = data.u8();
    let with_init = data.u8() % 2 == 0;
    match law % 3 {
        0 => {
            let p = powertcp_int::Params::new(&powertcp_int::Config::DEFAULT).unwrap();
            let max = p.init_cwnd_q16();
            drive::<powertcp_int::PowerTcpInt>(&p, &mut data, with_init, 1000 << 16, max)
        }
        1 => {
            let p = hpcc::Params::new(&hpcc::Config::DEFAULT).unwrap();
            let max = p.init_cwnd_q16();
            drive::<hpcc::Hpcc>(&p, &mut data, with_init, 1000 << 16, max)
        }
        _ => {
            let p = hpcc::Params::new(&hpcc::Config::VAISF).unwrap();
            let max = p.init_cwnd_q16();
            drive::<hpcc::Hpcc>(&p, &mut data, with_init, 1000 << 16, max)
        }
    }
});
