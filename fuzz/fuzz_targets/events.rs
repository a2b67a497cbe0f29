//! Drives arbitrary event streams through every control law and checks the invariants the
//! kernel depends on: no panic (overflow checks are on), the window within the law's bounds and
//! the pacing rate within `MAX_RATE_BPS`, from all-zero state with or without `init`.
//!
//! Input layout: byte 0 selects the law; byte 1 selects whether `init` runs first; the rest is a
//! sequence of events, each a kind byte followed by a fixed number of field bytes (missing bytes
//! read as zero).
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdcc_fuzz::Bytes;
use rdcc_core::event::{AckEvent, Controller, Decision, LossEvent, LossKind};
use rdcc_core::fixed::{MAX_CWND_PKTS, MAX_MSS_BYTES, MAX_RATE_BPS};
use rdcc_core::{powertcp, swift, timely, vaisf};

/// A time or delay: mostly realistic (< 1 ms or < 100 ms), sometimes extreme.
fn delay(data: &mut Bytes) -> u64 {
    data.time(1_000_000, 100_000_000)
}

/// Largest window any law may output, bytes Q16.
const CWND_CEILING_Q16: u64 = MAX_CWND_PKTS * (MAX_MSS_BYTES as u64) << 16;

fn check(d: &Decision) {
    assert!(d.pacing_rate_bps <= MAX_RATE_BPS, "pacing {} > MAX_RATE_BPS", d.pacing_rate_bps);
    assert!(d.cwnd_bytes_q16 <= CWND_CEILING_Q16, "cwnd {} over ceiling", d.cwnd_bytes_q16);
}

fn drive<C: Controller>(p: &C::Params, data: &mut Bytes, with_init: bool) {
    let mut s = C::State::default();
    let mut now: u64 = 1_000_000;
    let mut una: u32 = 0;
    if with_init {
        check(&C::init(p, &mut s, now, 1448));
    }
    let mut steps = 0;
    while !data.is_empty() && steps < 4096 {
        steps += 1;
        let kind = data.u8();
        // Time mostly moves forward, sometimes jumps or goes back.
        now = match kind >> 5 {
            0 => now.wrapping_sub(data.u32() as u64 % 10_000),
            7 => data.u64(),
            _ => now.wrapping_add(data.u32() as u64 % 200_000),
        };
        let d = match kind % 8 {
            0..=4 => {
                let acked = data.u32() % (1 << 20);
                una = una.wrapping_add(acked);
                let nxt = una.wrapping_add(data.u32() % (1 << 22));
                let ev = AckEvent {
                    now_ns: now,
                    rtt_ns: delay(data),
                    remote_delay_ns: delay(data),
                    delivered_bytes: data.u64(),
                    acked_bytes: acked,
                    inflight_bytes: data.u32(),
                    mss_bytes: match data.u8() % 4 {
                        0 => 1448,
                        1 => 0,
                        2 => 9000,
                        _ => data.u32(),
                    },
                    snd_una: una,
                    snd_nxt: nxt,
                    flags: data.u32() & 0x1ff,
                    hops: data.u8(),
                    _pad: [0; 3],
                    local_rx_delay_ns: data.u32(),
                    telemetry: 0,
                };
                C::on_ack(p, &mut s, &ev)
            }
            5 => {
                let k = if data.u8() % 2 == 0 { LossKind::FastRecovery } else { LossKind::RetransmitTimeout };
                C::on_loss(p, &mut s, &LossEvent { now_ns: now, mss_bytes: data.u32() % 10_000, kind: k })
            }
            6 => C::on_idle_restart(p, &mut s, now, data.u32() % 10_000),
            _ => {
                if data.u8() % 2 == 0 {
                    C::on_undo(p, &mut s, data.u32() % 10_000)
                } else {
                    C::current(p, &s, data.u32() % 10_000)
                }
            }
        };
        check(&d);
    }
}

fuzz_target!(|input: &[u8]| {
    let mut data = Bytes(input);
    let law = data.u8();
    let with_init = data.u8() % 2 == 0;
    match law % 4 {
        0 => {
            if let Ok(p) = swift::Params::new(&swift::Config::DEFAULT) {
                drive::<swift::Swift>(&p, &mut data, with_init)
            }
        }
        1 => {
            if let Ok(p) = vaisf::Params::new(&vaisf::Config::DEFAULT) {
                drive::<vaisf::SwiftVaiSf>(&p, &mut data, with_init)
            }
        }
        2 => {
            if let Ok(p) = timely::Params::new(&timely::Config::DEFAULT) {
                drive::<timely::Timely>(&p, &mut data, with_init)
            }
        }
        _ => {
            if let Ok(p) = powertcp::Params::new(&powertcp::Config::DEFAULT) {
                drive::<powertcp::ThetaPowerTcp>(&p, &mut data, with_init)
            }
        }
    }
});
