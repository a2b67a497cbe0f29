// SPDX-License-Identifier: GPL-2.0-only
//! θ-PowerTCP vectors of `base_rtt_mode` = [`BASE_RTT_ARTIFACT`], the authors' ns-3 θ-mode
//! (inet-tub/ns3-datacenter at 6ddb4a4, `simulator/ns-3.39/src/point-to-point/model/`): a child
//! of `powertcp_vectors.rs`, whose `CASES` table lists them (so KUnit runs them too).
//!
//! Each expectation is computed by hand from the artifact's formulas, then in the integer
//! arithmetic of `powertcp_vectors.rs`'s header (rounded down at each step), with these three
//! changes:
//!
//! - τ_f = min(RTT samples, τ_c) (`rdma-hw.cc` line 992), τ_c the configured τ;
//! - `Γ_norm = (θ̇+1)·θ / (1.05·τ_f)` (`rdma-hw.cc` line 1035), in Q16
//!   `⌊(θ̇+1)_q16 · θ / ⌊21·τ_f/20⌋⌋`;
//! - the law runs on the rate R (`rdma-hw.cc` lines 1069–1075, at most the line rate) kept as
//!   W = R·τ_c: line 31 on W with β and the bounds as configured; the flow's window is
//!   `R·τ_f = ⌊W·τ_f/τ_c⌋` (`rdma-queue-pair.cc` lines 129–130), within [min, max], so at most
//!   HostBw·τ_f; pacing `R = ⌊⌊W⌋_bytes · 10^9 / τ_c⌋` (`rdma-hw.cc` lines 629–630).

use super::super::event::{Reason, ACK_HAS_RTT};
use super::super::powertcp::{Config, BASE_RTT_ARTIFACT, GRADIENT_PER_ACK};
use super::super::vectors::{exact, Case, Expect, Input, Step};
use super::{ack_ev, init, VEC};

const MSS: u32 = 1_448;

const fn ack(now_ns: u64, rtt_ns: u64, snd_una: u32, snd_nxt: u32, e: Expect) -> Step {
    Step {
        input: Input::Ack(ack_ev(now_ns, rtt_ns, snd_una, snd_nxt, ACK_HAS_RTT)),
        expect: Some(e),
    }
}

/// Per-RTT cadence, τ_c = 40 µs, HostBw = 12.5e9 B/s, the largest window 0 = HostBw·τ_c =
/// 500,000 B (32,768,000,000 Q16), β = 50,000 B (γβ = ⌊3,276,800,000·58982/65536⌋ =
/// 2,949,100,000), so the rate increase β/τ_c = 1.25e9 B/s.
///
/// - init: W = 500,000 B at line rate; window 500,000 (τ_f = τ_c), pacing 12.5e9.
/// - sample 30 µs (first): τ_f = 30 µs, window 500,000·30/40 = 375,000 B (24,576,000,000 Q16),
///   rate unchanged 12.5e9 (with `base_rtt_mode` = 1: window 500,000, 16.7e9).
/// - sample 20 µs, not due: τ_f = 20 µs, window 250,000 B (16,384,000,000), rate 12.5e9.
/// - sample 40 µs at the marker: θ_s = 40 µs (Δt = τ_f), θ̇ = (40−30)/40 = 0.25 over the
///   secant, Γ = 1.25·40/(1.05·20) = 2.380952; on the rate, 0.9·(12.5e9/2.380952 + 1.25e9) +
///   0.1·12.5e9 = 7.1e9 B/s, window 7.1e9·20e-6 = 142,000 B (W = 284,000 B). Q16: (θ̇+1) =
///   81920, ⌊21·20000/20⌋ = 21000, Γ = ⌊81920·40000/21000⌋ = 156038;
///   ⌊32,768,000,000·58982/156038⌋ = 12,386,227,559 + 2,949,100,000 + 3,277,000,000 = W =
///   18,612,327,559 (284,001.58 B); window ⌊W·20000/40000⌋ = 9,306,163,779; pacing
///   ⌊284,001·10^9/40,000⌋ = 7,100,025,000.
/// - sample 20 µs, due (its data left after the update): θ_s = 20 µs, (θ̇+1) = 1 − 20/40 = 0.5
///   (the floor), Γ = 0.5·20/21 = 0.476, rate 0.9·(7.1e9/0.476 + 1.25e9) + 0.1·7.1e9 = 15.25e9,
///   capped at the line rate 12.5e9 (`rdma-hw.cc` lines 1074–1075): W = 500,000 B, window
///   HostBw·τ_f = 250,000 B (16,384,000,000), pacing 12.5e9.
/// - idle restart: line rate again, τ_f = 20 µs kept: window 250,000 B, pacing 12.5e9.
pub const ARTIFACT_PER_RTT: Case<Config> = Case {
    name: "artifact_tau_per_rtt",
    config: Config {
        base_rtt_ns: 40_000,
        max_cwnd_bytes: 0,
        base_rtt_mode: BASE_RTT_ARTIFACT,
        ..VEC
    },
    steps: &[
        Step {
            input: init(),
            expect: Some(exact(32_768_000_000, 12_500_000_000, Reason::Init)),
        },
        ack(
            1_000_000,
            30_000,
            0,
            10_000,
            exact(24_576_000_000, 12_500_000_000, Reason::Hold),
        ),
        ack(
            1_020_000,
            20_000,
            5_000,
            10_000,
            exact(16_384_000_000, 12_500_000_000, Reason::Hold),
        ),
        ack(
            1_040_000,
            40_000,
            10_000,
            20_000,
            exact(9_306_163_779, 7_100_025_000, Reason::GradientUpdate),
        ),
        ack(
            1_080_000,
            20_000,
            20_000,
            30_000,
            exact(16_384_000_000, 12_500_000_000, Reason::GradientUpdate),
        ),
        Step {
            input: Input::IdleRestart {
                now_ns: 2_000_000,
                mss_bytes: MSS,
            },
            expect: Some(exact(16_384_000_000, 12_500_000_000, Reason::IdleRestart)),
        },
    ],
};

/// Per-ACK cadence (the simulator's fabric scenario's), τ_c = 20 µs, HostBw = 12.5e9 B/s,
/// largest window HostBw·τ_c = 250,000 B, β = 25,000 B (γβ = 1,474,550,000).
///
/// - init: 250,000 B (16,384,000,000 Q16), 12.5e9 B/s; first sample 20 µs: τ_f = τ_c, the same.
/// - sample 22 µs 10 µs later at the marker: θ̇ = 2/10 = 0.2, Γ = 1.2·22/(1.05·20) = 1.257143
///   (1.32 with τ = 20 µs); 0.9·(250,000/1.257143 + 25,000) + 25,000 = 226,477.3 B, window
///   W·20/20 = W. Q16: (θ̇+1) = 65536 + ⌊2000·65536/10000⌋ = 78643; Γ = ⌊78643·22000/21000⌋ =
///   82387 (the first sample, unsmoothed, spec A3); ⌊16,384,000,000·58982/82387⌋ =
///   11,729,533,640 + 1,474,550,000 + 1,638,500,000 = 14,842,583,640 (226,479.85 B); pacing
///   226,479·50,000 = 11,323,950,000.
pub const ARTIFACT_PER_ACK: Case<Config> = Case {
    name: "artifact_tau_per_ack",
    config: Config {
        max_cwnd_bytes: 0,
        gradient_mode: GRADIENT_PER_ACK,
        base_rtt_mode: BASE_RTT_ARTIFACT,
        ..VEC
    },
    steps: &[
        Step {
            input: init(),
            expect: Some(exact(16_384_000_000, 12_500_000_000, Reason::Init)),
        },
        ack(
            1_000_000,
            20_000,
            0,
            10_000,
            exact(16_384_000_000, 12_500_000_000, Reason::Hold),
        ),
        ack(
            1_010_000,
            22_000,
            10_000,
            20_000,
            exact(14_842_583_640, 11_323_950_000, Reason::GradientUpdate),
        ),
    ],
};
