// SPDX-License-Identifier: GPL-2.0-only
//! Host-side quick check of the core's per-ACK cost (issue #13): drives one law through the
//! datacenter ACK stream of `cargo xtask bench` (100 Gbit/s, 18-30 µs RTTs, delayed ACKs of two
//! 1448-byte segments 240 ns apart, 40-packet window in flight), core only: no glue, no kernel.
//!
//! `cargo xtask bench --host` runs it under `valgrind --tool=callgrind` twice, with N and 2N
//! ACKs, and reports (Ir(2N) - Ir(N)) / N: the instructions of one ACK, start-up excluded.
//!
//! usage: ack_cost LAW ACKS [remote]   (LAW: swift | swift_vaisf | timely | theta_powertcp;
//! `remote`: every ACK carries a 2-4 µs remote delay, Swift's endpoint split)
//!        ack_cost rqd_scan ACKS        (the remote-delay hook's option scan, `rqd::scan`, on
//! the bench's option bytes: NOP NOP TS(10) RQD(10) NOP NOP, TSval and delay new every ACK)
//!        ack_cost int_rx ACKS          (the INT echo hook's step, `int_intake::on_rx`, then the
//! take of `cong_control`, `Intake::take`, on the bench's option bytes: NOP NOP TS(10) INT(13,
//! one record) NOP NOP NOP, TSval and record new every ACK)

use rdcc_core::event::{ACK_HAS_REMOTE_DELAY, ACK_HAS_RTT};
use rdcc_core::int::IntHop;
use rdcc_core::int_intake::{self, Intake, SegmentId};
use rdcc_core::{int_wire, powertcp, rqd, swift, timely, vaisf, AckEvent, Controller};
use std::hint::black_box;
use std::process::ExitCode;

const MSS: u32 = 1448;

fn stream<C: Controller>(p: &C::Params, acks: u64, remote: bool) -> u64 {
    let mut s = C::State::default();
    let mut rng: u32 = 2_463_534_242;
    let mut now_ns: u64 = 1_000_000;
    let mut una: u32 = 1;
    let mut delivered: u64 = 0;
    let mut sum = 0u64;
    C::init(p, &mut s, now_ns, MSS);
    for _ in 0..acks {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        now_ns += 240;
        una = una.wrapping_add(2 * MSS);
        delivered += 2 * MSS as u64;
        let mut ev = AckEvent {
            now_ns,
            rtt_ns: (18 + (rng % 12) as u64) * 1000,
            delivered_bytes: delivered,
            acked_bytes: 2 * MSS,
            inflight_bytes: 40 * MSS,
            mss_bytes: MSS,
            snd_una: una,
            snd_nxt: una.wrapping_add(40 * MSS),
            flags: ACK_HAS_RTT,
            ..AckEvent::default()
        };
        if remote {
            ev.remote_delay_ns = 2000 + (rng >> 8) as u64 % 2000;
            ev.flags |= ACK_HAS_REMOTE_DELAY;
        }
        let d = C::on_ack(p, &mut s, black_box(&ev));
        sum = sum.wrapping_add(d.cwnd_bytes_q16);
    }
    sum
}

/// The option scan of `rdcc_rqd.c`'s hook, alone: only the bytes an ACK changes are written.
fn rqd_stream(acks: u64) -> u64 {
    let mut opts = [0u8; 24];
    opts[0] = 1;
    opts[1] = 1;
    opts[2] = rqd::TS_KIND;
    opts[3] = rqd::TS_LEN;
    opts[12..22].copy_from_slice(&rqd::encode(0, 62, rqd::SRC_TCP));
    opts[22] = 1;
    opts[23] = 1;
    let mut rng: u32 = 2_463_534_242;
    let mut sum = 0u64;
    for tsval in 0..acks {
        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        opts[4..8].copy_from_slice(&(tsval as u32).to_be_bytes());
        opts[16..20].copy_from_slice(&(1000 + rng % 4000).to_be_bytes());
        let s = rqd::scan(black_box(&opts));
        sum = sum.wrapping_add(u64::from(s.delay_ns) + u64::from(s.tsval));
    }
    sum
}

/// The INT echo hook's step and `cong_control`'s take, alone, on `rdcc_bench_int.h`'s ACK.
fn int_rx_stream(acks: u64) -> u64 {
    let mut opts = [1u8; 28];
    opts[2] = 8;
    opts[3] = 10;
    let mut one = rdcc_core::int::IntStack::EMPTY;
    one.push(IntHop(0));
    let n = int_wire::write(&mut opts[12..], 1, true, false, &one);
    assert_eq!(n, 13);
    let mut k = Intake::default();
    let mut una: u32 = 1;
    let mut sum = 0u64;
    for tsval in 0..acks {
        let t = tsval as u32;
        let ack = una.wrapping_add(2 * MSS);
        let rec = IntHop::encode(8000, tsval * 300, tsval * 240, 1_250_000_000).unwrap_or_default();
        opts[4..8].copy_from_slice(&t.to_be_bytes());
        opts[17..25].copy_from_slice(&rec.0.to_be_bytes());
        let o = int_intake::on_rx(
            &mut k,
            black_box(&opts),
            ack,
            7,
            una,
            ack.wrapping_add(40 * MSS),
        );
        let id = SegmentId {
            ack_seq: ack,
            seq: 7,
            tsval: t,
            has_ts: 1,
        };
        let (taken, st) = k.take(black_box(&id), true, tsval * 240);
        sum = sum.wrapping_add(u64::from(o) + taken as u64 + st.hops[0].0);
        una = ack;
    }
    sum
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(law), Some(Ok(acks))) = (args.first(), args.get(1).map(|a| a.parse::<u64>())) else {
        eprintln!("usage: ack_cost LAW ACKS [remote]");
        return ExitCode::from(2);
    };
    let remote = args.get(2).is_some_and(|a| a == "remote");
    if law == "int_rx" {
        println!("{law} {acks} {}", int_rx_stream(acks));
        return ExitCode::SUCCESS;
    }
    if law == "rqd_scan" {
        println!("{law} {acks} {}", rqd_stream(acks));
        return ExitCode::SUCCESS;
    }
    let sum = match law.as_str() {
        "swift" => swift::Params::new(&swift::Config::default())
            .map(|p| stream::<swift::Swift>(&p, acks, remote)),
        "swift_vaisf" => vaisf::Params::new(&vaisf::Config::default())
            .map(|p| stream::<vaisf::SwiftVaiSf>(&p, acks, remote)),
        "timely" => timely::Params::new(&timely::Config::default())
            .map(|p| stream::<timely::Timely>(&p, acks, remote)),
        "theta_powertcp" => powertcp::Params::new(&powertcp::Config::default())
            .map(|p| stream::<powertcp::ThetaPowerTcp>(&p, acks, remote)),
        other => {
            eprintln!("ack_cost: unknown law {other}");
            return ExitCode::from(2);
        }
    };
    match sum {
        Ok(v) => {
            println!("{law} {acks} {v}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("ack_cost: default parameters refused: {e:?}");
            ExitCode::from(1)
        }
    }
}
