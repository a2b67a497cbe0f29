// SPDX-License-Identifier: GPL-2.0-only
//! Worked examples of the INT laws, computed by hand from the papers' formulas, that both the
//! host tests (`core/tests/int_laws.rs`) and the kernel's KUnit suites `rdcc_powertcp` and
//! `rdcc_hpcc` (`modules/glue/kunit.rs`) run, so the kernel-compiled laws are held to the same
//! numbers. Each example builds its parameters and a flow, feeds one measured stack, and checks
//! the window against the formula's real-number result within the fixed-point tolerance stated
//! with it (1e-4 relative, as integer bounds).
//!
//! Uses `core` and the siblings `event`, `int`, `powertcp_int` and `hpcc` only, so a kernel
//! module can include it with `#[path]`.

use super::event::{AckEvent, Decision, ACK_HAS_RTT};
use super::hpcc::{self, Hpcc};
use super::int::{IntController, IntHop, IntStack};
use super::powertcp_int::{self, PowerTcpInt};

/// 100 Gbit/s, bytes/s.
pub const B100G: u64 = 12_500_000_000;

/// An ACK of 1000 bytes (MSS 1000) at `now` ns with a 20 µs RTT sample, `snd_una` = `una`,
/// `snd_nxt` = `nxt`: the ACK of every example here and of `core/tests/int_laws.rs`.
pub fn ack(una: u32, nxt: u32, now: u64) -> AckEvent {
    AckEvent {
        now_ns: now,
        rtt_ns: 20_000,
        flags: ACK_HAS_RTT,
        mss_bytes: 1000,
        acked_bytes: 1000,
        snd_una: una,
        snd_nxt: nxt,
        ..AckEvent::default()
    }
}

/// A one-hop stack at 100 Gbit/s: queue `q` B, `tx` B transmitted, timestamp `ts` ns.
fn one_hop(q: u64, tx: u64, ts: u64) -> Result<IntStack, &'static str> {
    let mut s = IntStack::EMPTY;
    let h = IntHop::encode(q, tx, ts, B100G).ok_or("100 Gbit/s is in the rate table")?;
    s.push(h);
    Ok(s)
}

/// The window of `d` in whole bytes lies in `[lo, hi]`.
fn window_in(d: &Decision, lo: u64, hi: u64) -> Result<(), &'static str> {
    let w = d.cwnd_bytes_q16 >> 16;
    if w < lo || w > hi {
        return Err("window outside the formula's result");
    }
    Ok(())
}

/// PowerTCP Alg. 1 by hand: τ = 20 µs, HostBw = 100 Gbit/s, γ = 0.9, N = 10 (β = HostBw·τ/N =
/// 25,000 B), Γ_smooth starting at 1.0. prev (ts 0, q 50,000, tx 0), now (ts 1,000, q 60,000,
/// tx 12,800): λ = (10,000 + 12,800)/1 µs = 1.824 b; Γ = 1.824 · (1 + 60,000/250,000) = 2.26176
/// (lines 13-22); Γ_smooth = (19 · 1 + 2.26176)/20 = 1.063088 (line 27, Δt = 1 µs of τ); cwnd =
/// 0.9 · (100,000/1.063088 + 25,000) + 0.1 · 100,000 = 117,159.03 B (line 31). Bounds ±1e-4.
pub fn powertcp_worked_example() -> Result<(), &'static str> {
    let p = powertcp_int::Params::new(&powertcp_int::Config {
        host_bw_bps: B100G,
        base_rtt_ns: 20_000,
        smooth_init_q16: 65_536,
        ..powertcp_int::Config::DEFAULT
    })
    .map_err(|_| "the example's parameters validate")?;
    let mut s = powertcp_int::State::default();
    PowerTcpInt::init(&p, &mut s, 0, 1000);
    PowerTcpInt::on_ack(&p, &mut s, &ack(0, 100_000, 0), &one_hop(50_000, 0, 0)?);
    s.cwnd_q16 = 100_000 << 16;
    s.wref_q16 = 100_000 << 16;
    let d = PowerTcpInt::on_ack(
        &p,
        &mut s,
        &ack(1000, 101_000, 1_000),
        &one_hop(60_000, 12_800, 1_000)?,
    );
    window_in(&d, 117_147, 117_171)
}

/// HPCC Alg. 1 by hand: T = 20 µs, B = 100 Gbit/s (B·T = 250,000 B), η = 0.95, W_AI = 50 Mbit/s
/// · 20 µs = 125 B. prev (ts 0, q 50,000, tx 0), now (ts 1,000, q 60,000, tx 12,800):
/// u' = min(60,000, 50,000)/250,000 + 12,800/12,500 = 1.224; τ = 1 µs;
/// U = (19/20)·1.0 + (1/20)·1.224 = 1.0112 ≥ η: W = 100,000/(1.0112/0.95) + 125 = 94,072.78 B.
/// Bounds ±1e-4.
pub fn hpcc_worked_example() -> Result<(), &'static str> {
    let p = hpcc::Params::new(&hpcc::Config {
        host_bw_bps: B100G,
        base_rtt_ns: 20_000,
        ..hpcc::Config::DEFAULT
    })
    .map_err(|_| "the example's parameters validate")?;
    let mut s = hpcc::State::default();
    Hpcc::init(&p, &mut s, 0, 1000);
    Hpcc::on_ack(&p, &mut s, &ack(0, 1_000, 0), &one_hop(50_000, 0, 0)?);
    s.wc_q16 = 100_000 << 16;
    let d = Hpcc::on_ack(
        &p,
        &mut s,
        &ack(2_000, 3_000, 1_000),
        &one_hop(60_000, 12_800, 1_000)?,
    );
    window_in(&d, 94_063, 94_082)
}
