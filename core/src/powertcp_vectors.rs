// SPDX-License-Identifier: GPL-2.0-only
//! θ-PowerTCP test vectors: plain const data, run by host tests and by KUnit.
//!
//! Every expectation is computed by hand from PowerTCP Alg. 2 / Eq. 7 and Eq. 8 (NSDI 2022).
//! The comment beside it gives the real-valued paper arithmetic (γ = 0.9), then the integer
//! arithmetic of `powertcp.rs`, rounded down at each step:
//!
//! - `(θ̇+1)_q16 = 65536 ± ⌊|ΔRTT|·65536/dt⌋`, clamped to [grad_floor, 2^32];
//! - `Γ_norm_q16 = ⌊(θ̇+1)_q16 · RTT / τ⌋`, clamped to [655, 2^32];
//! - per ACK (`GRADIENT_PER_ACK`): `Γ_smooth_q16 = ⌊(Γ_smooth·(τ−Δt) + Γ_norm·Δt) / τ⌋`,
//!   `Δt = min(dt, τ)`, dt the time since the previous ACK;
//! - per RTT (default): on every ACK `θ_s = ⌊(θ_s·(τ−Δt) + RTT·Δt) / τ⌋` (the same average of
//!   the RTT samples, θ_s = the first sample), and at the update `(θ̇+1)` over the time since
//!   the last update and `Γ_smooth = ⌊(θ̇+1)·θ_s/τ⌋`;
//! - `cwnd_q16' = ⌊cwnd_old·γ/Γ⌋ + γβ + ⌊cwnd·(65536−γ)/65536⌋` (γ = 58982 = 0.8999939),
//!   clamped to [min, max], with cwnd_old = getCwnd(ack.seq) (Alg. 2 line 8, Eq. 7's
//!   w(t − θ)): the window in force when the sampled data was sent. An update at the ACK of
//!   the previous update's `snd_nxt` acknowledges data sent *before* that update, so cwnd_old
//!   is the window before the previous update: w_k = γ(w_{k−2}/Γ + β) + (1−γ)w_{k−1};
//! - an update is due when snd_una reaches the marker (Alg. 2 line 27) or the sample's data
//!   left after the last update (now − RTT > time of the last update);
//! - pacing `= ⌊⌊cwnd_q16/65536⌋ · 10^9 / τ⌋` bytes/s.
//!
//! Most cases use [`VEC`]: τ = 20 µs, HostBw = 100 Gbit/s = 12.5e9 B/s (BDP = 250,000 B =
//! 16,384,000,000 in Q16), N = 10 so β = 25,000 B (1,638,400,000 Q16) and
//! γβ = ⌊1,638,400,000·58982/65536⌋ = 1,474,550,000 (22,499.85 B), maximum window 1,000,000 B.
//! Pacing at τ = 20 µs is `cwnd_bytes · 50,000` B/s.

use super::event::{AckEvent, LossEvent, LossKind, Reason, ACK_HAS_RTT};
use super::powertcp::{
    Config, Params, BASE_RTT_CONFIGURED, BASE_RTT_MIN_RTT, GRADIENT_PER_ACK, GRADIENT_PER_RTT,
};
use super::vectors::{exact, Case, Expect, Input, Mismatch, Step};

/// Cases 10-13 of [`CASES`]: loss, undo, idle restart and hostile inputs (this file's size).
#[path = "powertcp_vectors_loss.rs"]
mod loss;

/// The cases of `base_rtt_mode` = 2, the authors' ns-3 θ-mode (the last two of [`CASES`]).
#[path = "powertcp_vectors_artifact.rs"]
mod artifact;

/// The vector configuration: 100 Gbit/s host, τ = 20 µs, β = 25,000 B, window [1448 B, 1 MB].
pub const VEC: Config = Config {
    gamma_q16: 58_982,
    base_rtt_ns: 20_000,
    host_bw_bps: 12_500_000_000,
    expected_flows: 10,
    beta_bytes: 0,
    min_cwnd_bytes: 1_448,
    max_cwnd_bytes: 1_000_000,
    grad_floor_q16: 32_768,
    smooth_init_q16: 0,
    gradient_mode: GRADIENT_PER_RTT,
    loss_md_q16: 0,
    base_rtt_mode: BASE_RTT_CONFIGURED,
};

const MSS: u32 = 1_448;

/// An ACK with an RTT sample and explicit sequence numbers.
const fn ack_ev(now_ns: u64, rtt_ns: u64, snd_una: u32, snd_nxt: u32, flags: u32) -> AckEvent {
    AckEvent {
        now_ns,
        rtt_ns,
        remote_delay_ns: 0,
        delivered_bytes: 0,
        acked_bytes: MSS,
        inflight_bytes: 0,
        mss_bytes: MSS,
        snd_una,
        snd_nxt,
        flags,
        hops: 0,
        _pad: [0; 3],
        local_rx_delay_ns: 0,
        telemetry: 0,
    }
}

/// Step: an ACK with an RTT sample.
const fn ack(now_ns: u64, rtt_ns: u64, snd_una: u32, snd_nxt: u32, e: Option<Expect>) -> Step {
    Step {
        input: Input::Ack(ack_ev(now_ns, rtt_ns, snd_una, snd_nxt, ACK_HAS_RTT)),
        expect: e,
    }
}

/// Step: any input.
const fn st(input: Input, e: Expect) -> Step {
    Step {
        input,
        expect: Some(e),
    }
}

const fn init() -> Input {
    Input::Init {
        now_ns: 0,
        mss_bytes: MSS,
    }
}

const fn loss(kind: LossKind) -> Input {
    Input::Loss(LossEvent {
        now_ns: 0,
        mss_bytes: MSS,
        kind,
    })
}

const fn hold(cwnd_q16: u64, pacing: u64) -> Option<Expect> {
    Some(exact(cwnd_q16, pacing, Reason::Hold))
}

const fn upd(cwnd_q16: u64, pacing: u64) -> Option<Expect> {
    Some(exact(cwnd_q16, pacing, Reason::GradientUpdate))
}

/// 250,000 B (the VEC host BDP and initial window) in Q16, and its pacing rate 12.5e9 B/s.
const BDP_Q16: u64 = 16_384_000_000;
const BDP_BPS: u64 = 12_500_000_000;

/// All cases.
pub const CASES: &[Case<Config>] = &[
    // 0. Defaults (PowerTCP §3.3, §4.1): HostBw 25 Gbit/s = 3.125e9 B/s, τ = 20 µs.
    // cwnd_init = HostBw·τ = 3.125e9 · 20e-6 = 62,500 B = 4,096,000,000 Q16, paced at line
    // rate 62,500 B / 20 µs = 3.125e9 B/s. No cut on loss (spec A11), nothing to undo.
    Case {
        name: "default_init_line_rate",
        config: Config::DEFAULT,
        steps: &[
            st(init(), exact(4_096_000_000, 3_125_000_000, Reason::Init)),
            st(
                loss(LossKind::FastRecovery),
                exact(4_096_000_000, 3_125_000_000, Reason::FastRecovery),
            ),
            st(
                Input::Undo { mss_bytes: MSS },
                exact(4_096_000_000, 3_125_000_000, Reason::Hold),
            ),
        ],
    },
    // 1. Before init: the first ACK initialises lazily (cwnd_init = 250,000 B) and records the
    // first sample (marker = snd_nxt = 100,000); an ACK below the marker holds.
    Case {
        name: "lazy_init_on_first_ack",
        config: VEC,
        steps: &[
            ack(
                1_000_000,
                20_000,
                0,
                100_000,
                Some(exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ),
            ack(1_010_000, 40_000, 50_000, 100_000, hold(BDP_Q16, BDP_BPS)),
        ],
    },
    // 2. Before init, loss and undo have nothing to act on: zero decision (not paced), Hold,
    // state untouched. An ACK without RTT then initialises; the next one is NoSample.
    Case {
        name: "before_init_loss_undo_noop",
        config: VEC,
        steps: &[
            st(loss(LossKind::RetransmitTimeout), exact(0, 0, Reason::Hold)),
            st(Input::Undo { mss_bytes: MSS }, exact(0, 0, Reason::Hold)),
            Step {
                input: Input::Ack(ack_ev(1_000_000, 0, 0, 0, 0)),
                expect: Some(exact(BDP_Q16, BDP_BPS, Reason::Init)),
            },
            Step {
                input: Input::Ack(ack_ev(1_020_000, 0, 0, 0, 0)),
                expect: Some(exact(BDP_Q16, BDP_BPS, Reason::NoSample)),
            },
        ],
    },
    // 3. Spec §2.6 worked example: τ = 20 µs, prevRTT = 22 µs, RTT = 24 µs, dt = 2 µs, with the
    // per-ACK gradient (the per-RTT average would weigh the 24 µs sample by Δt/τ = 0.1: case 19).
    // Paper: θ̇ = 2/2 = 1, Γ_norm = (1+1)·24/20 = 2.4 (first power sample, Γ_smooth = Γ_norm).
    // cwnd = 0.9·(250,000/2.4 + 25,000) + 0.1·250,000 = 0.9·129,166.67 + 25,000 = 141,250 B.
    // Q16: (θ̇+1) = 65536 + ⌊2000·65536/2000⌋ = 131072; Γ = ⌊131072·24000/20000⌋ = 157286
    // (2.39999); ⌊16,384,000,000·58982/157286⌋ = 6,143,973,958; + 1,474,550,000 (γβ)
    // + ⌊16,384,000,000·6554/65536⌋ = 1,638,500,000 → 9,257,023,958 (141,250.98 B);
    // pacing 141,250 · 50,000 = 7,062,500,000 B/s. Maximum window = host BDP here.
    Case {
        name: "worked_example_spec_2_6",
        config: Config {
            max_cwnd_bytes: 0,
            gradient_mode: GRADIENT_PER_ACK,
            ..VEC
        },
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ack(1_000_000, 22_000, 0, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(
                1_002_000,
                24_000,
                10_000,
                20_000,
                upd(9_257_023_958, 7_062_500_000),
            ),
        ],
    },
    // 4. RTT = τ, θ̇ = 0 → Γ = 1 (spec §2.6): w_k = 0.9·(w_{k−2} + 25,000) + 0.1·w_{k−1}.
    // Paper: w1 = 0.9·275,000 + 25,000 = 272,500 (w_{−1} = w_0 = 250,000: the first update
    // acknowledges data of the first RTT); w2 = 0.9·(250,000 + 25,000) + 27,250 = 274,750;
    // w3 = 0.9·(272,500 + 25,000) + 27,475 = 295,225. About γβ per two updates plus a decaying
    // alternation (roots 1 and −γ of x² = (1−γ)x + γ): an open loop; in closed loop Γ follows
    // w(t − θ) and the pairing cancels (PowerTCP App. A, Eq. 13-15).
    // Q16: Γ = 65536; ⌊c·58982/65536⌋ for the paired window, ⌊c·6554/65536⌋ for the current:
    // 14,745,500,000 + 1,474,550,000 + 1,638,500,000 = 17,858,550,000 (272,499.85 B);
    // 14,745,500,000 + 1,474,550,000 + ⌊17,858,550,000·6554/65536⌋ = 1,785,963,999 →
    // 18,006,013,999 (274,749.97 B); ⌊17,858,550,000·58982/65536⌋ = 16,072,586,000 +
    // 1,474,550,000 + ⌊18,006,013,999·6554/65536⌋ = 1,800,711,299 → 19,347,847,299
    // (295,224.72 B). Pacing 272,499·50,000 = 13,624,950,000; 274,749 → 13,737,450,000;
    // 295,224 → 14,761,200,000.
    Case {
        name: "power_one_additive_increase",
        config: VEC,
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ack(1_000_000, 20_000, 0, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(
                1_020_000,
                20_000,
                10_000,
                20_000,
                upd(17_858_550_000, 13_624_950_000),
            ),
            ack(
                1_040_000,
                20_000,
                20_000,
                30_000,
                upd(18_006_013_999, 13_737_450_000),
            ),
            ack(
                1_060_000,
                20_000,
                30_000,
                40_000,
                upd(19_347_847_299, 14_761_200_000),
            ),
        ],
    },
    // 5. Power > 1, multiplicative decrease: RTT = 2τ constant, θ̇ = 0, Γ = 2 (standing queue).
    // Paper (Eq. 7, cwnd_old = the window before the previous update): w1 = 0.9·(250,000/2 +
    // 25,000) + 25,000 = 160,000; w2 = 0.9·(250,000/2 + 25,000) + 0.1·160,000 = 151,000;
    // w3 = 0.9·(160,000/2 + 25,000) + 0.1·151,000 = 109,600 (→ fixed point βΓ/(Γ−1) = 50,000).
    // (Pairing every update with the current window instead gives 160,000, 110,500, 83,275.)
    // Q16: Γ = 131072. 7,372,750,000 + 1,474,550,000 + 1,638,500,000 = 10,485,800,000
    // (160,000.61 B); 7,372,750,000 + 1,474,550,000 + ⌊10,485,800,000·6554/65536⌋ =
    // 1,048,644,000 → 9,895,944,000 (151,000.12 B); ⌊10,485,800,000·58982/131072⌋ =
    // 4,718,577,999 + 1,474,550,000 + ⌊9,895,944,000·6554/65536⌋ = 989,654,800 →
    // 7,182,782,799 (109,600.57 B). Pacing 160,000·50,000 = 8e9; 151,000 → 7.55e9; 109,600 →
    // 5.48e9.
    Case {
        name: "power_above_one_decrease",
        config: VEC,
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ack(1_000_000, 40_000, 0, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(
                1_040_000,
                40_000,
                10_000,
                20_000,
                upd(10_485_800_000, 8_000_000_000),
            ),
            ack(
                1_080_000,
                40_000,
                20_000,
                30_000,
                upd(9_895_944_000, 7_550_000_000),
            ),
            ack(
                1_120_000,
                40_000,
                30_000,
                40_000,
                upd(7_182_782_799, 5_480_000_000),
            ),
        ],
    },
    // 6. Equilibrium (Thm 1): with queue q_e = β, RTT = τ + β/b = 20 + 2 = 22 µs, Γ = 1.1 and
    // the fixed point is w = βΓ/(Γ−1) = 275,000 = BDP + β. Paper: w1 = 0.9·(250,000/1.1 +
    // 25,000) + 25,000 = 252,045.45; w2 = 0.9·(250,000/1.1 + 25,000) + 25,204.55 = 252,250.0;
    // w3 = 0.9·(252,045.45/1.1 + 25,000) + 25,225.0 = 253,944.0.
    // Q16: Γ = ⌊65536·22000/20000⌋ = 72089 (1.09999). 13,405,111,570 + 1,474,550,000 +
    // 1,638,500,000 = 16,518,161,570 (252,047.14 B); 13,405,111,570 + 1,474,550,000 +
    // 1,651,916,975 = 16,531,578,545 (252,251.87 B); 13,514,880,296 + 1,474,550,000 +
    // 1,653,258,755 = 16,642,689,051 (253,947.28 B). Pacing 252,047·50,000 = 12,602,350,000;
    // 252,251 → 12,612,550,000; 253,947 → 12,697,350,000.
    Case {
        name: "equilibrium_converges_to_bdp_plus_beta",
        config: VEC,
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ack(1_000_000, 22_000, 0, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(
                1_022_000,
                22_000,
                10_000,
                20_000,
                upd(16_518_161_570, 12_602_350_000),
            ),
            ack(
                1_044_000,
                22_000,
                20_000,
                30_000,
                upd(16_531_578_545, 12_612_550_000),
            ),
            ack(
                1_066_000,
                22_000,
                30_000,
                40_000,
                upd(16_642_689_051, 12_697_350_000),
            ),
        ],
    },
    // 7. Once-per-RTT gating (Alg. 2 line 27) across the 32-bit sequence wrap, then power < 1.
    // Marker = 4,294,960,000; an ACK at 4,294,930,000 holds although RTT doubled (its data left
    // at 970 µs, before the first sample at 1 ms). The RTT average (line 21, Δt = 10 µs):
    // θ_s = (20·10 + 40·10)/20 = 30 µs, then (30·10 + 40·10)/20 = 35 µs. At snd_una = marker:
    // θ̇ = (40−20)/20 = 1, Γ = 2·35/20 = 3.5: 0.9·(250,000/3.5 + 25,000) + 25,000 = 111,785.7.
    // Q16: Γ = ⌊131072·35000/20000⌋ = 229376; ⌊16,384,000,000·58982/229376⌋ = 4,213,000,000
    // + 1,474,550,000 + 1,638,500,000 = 7,326,050,000 (111,786.05 B), pacing 111,786·50,000 =
    // 5,589,300,000. New marker 40,000 (wrapped). snd_una = 10,000 is after the old marker but
    // before the new one, its data left at 1.01 ms < 1.02 ms: hold; θ_s = 27.5 µs. At 40,000:
    // θ_s = 23.75 µs, θ̇ = (20−40)/20 = −1, (θ̇+1) = 0 → floor 0.5 (spec §2.4), Γ = 0.5·23.75/20
    // = 0.59375 (< 1). cwnd_old = 250,000 (that data left before the update at 1.02 ms):
    // 0.9·(250,000/0.59375 + 25,000) + 0.1·111,786 = 412,626 (multiplicative increase).
    // Q16: Γ = ⌊32768·23750/20000⌋ = 38912; ⌊16,384,000,000·58982/38912⌋ = 24,834,526,315;
    // + 1,474,550,000 + ⌊7,326,050,000·6554/65536⌋ = 732,649,714 → 27,041,726,029
    // (412,623.08 B); pacing 412,623·50,000 = 20,631,150,000.
    Case {
        name: "once_per_rtt_gate_seq_wrap",
        config: VEC,
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ack(
                1_000_000,
                20_000,
                4_294_900_000,
                4_294_960_000,
                hold(BDP_Q16, BDP_BPS),
            ),
            ack(
                1_010_000,
                40_000,
                4_294_930_000,
                4_294_960_000,
                hold(BDP_Q16, BDP_BPS),
            ),
            ack(
                1_020_000,
                40_000,
                4_294_960_000,
                40_000,
                upd(7_326_050_000, 5_589_300_000),
            ),
            ack(
                1_030_000,
                20_000,
                10_000,
                60_000,
                hold(7_326_050_000, 5_589_300_000),
            ),
            ack(
                1_040_000,
                20_000,
                40_000,
                80_000,
                upd(27_041_726_029, 20_631_150_000),
            ),
        ],
    },
    // 8. Per-ACK gradient and time-weighted smoothing (Alg. 2 literal, GRADIENT_PER_ACK), with
    // Γ_smooth starting at 1.0 (ART-NS3 option of spec A3).
    // ACK at +1 µs, inside the RTT: θ̇ = 1000/1000 = 1, Γ_norm = 2·21/20 = 2.1,
    // Γ_s = (1.0·19 + 2.1·1)/20 = 1.055. Q16: Γ_norm = ⌊131072·21000/20000⌋ = 137625;
    // Γ_s = ⌊(65536·19000 + 137625·1000)/20000⌋ = 69140. Window held.
    // ACK at +2 µs reaching the marker: θ̇ = 0, Γ_norm = 1.05, Γ_s = (1.055·19 + 1.05)/20 =
    // 1.05475; cwnd = 0.9·(250,000/1.05475 + 25,000) + 25,000 = 260,820.7.
    // Q16: Γ_norm = ⌊65536·21000/20000⌋ = 68812; Γ_s = ⌊(69140·19000 + 68812·1000)/20000⌋ =
    // 69123; ⌊16,384,000,000·58982/69123⌋ = 13,980,311,734; + 1,474,550,000 + 1,638,500,000 =
    // 17,093,361,734 (260,824.00 B); pacing 260,824·50,000 = 13,041,200,000.
    // ACK after 38 µs > τ (its data left at 1.001 ms, before the update: hold): Δt clamped to τ
    // (spec A2), weight 1: Γ_s = Γ_norm = (1 + 18/38)·39/20 = 2.87368. Q16: (θ̇+1) = 65536 +
    // ⌊18000·65536/38000⌋ = 96579; Γ = ⌊96579·39000/20000⌋ = 188329.
    // ACK at +1 µs reaching the marker: θ̇ = 1, Γ_norm = 2·40/20 = 4, Γ_s = (2.87368·19 + 4)/20
    // = 2.92999. Its data left at 1.001 ms, before the update at 1.002 ms: cwnd_old = 250,000
    // (the window before it): 0.9·(250,000/2.92999 + 25,000) + 0.1·260,824 = 125,375.7.
    // Q16: Γ_norm = 262144; Γ_s = ⌊(188329·19000 + 262144·1000)/20000⌋ = 192019;
    // ⌊16,384,000,000·58982/192019⌋ = 5,032,632,645; + 1,474,550,000 +
    // ⌊17,093,361,734·6554/65536⌋ = 1,709,440,503 → 8,216,623,148 (125,375.72 B); pacing
    // 125,375·50,000 = 6,268,750,000.
    Case {
        name: "per_ack_time_weighted_smoothing",
        config: Config {
            gradient_mode: GRADIENT_PER_ACK,
            smooth_init_q16: 65_536,
            ..VEC
        },
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ack(1_000_000, 20_000, 0, 100_000, hold(BDP_Q16, BDP_BPS)),
            ack(1_001_000, 21_000, 50_000, 100_000, hold(BDP_Q16, BDP_BPS)),
            ack(
                1_002_000,
                21_000,
                100_000,
                200_000,
                upd(17_093_361_734, 13_041_200_000),
            ),
            ack(
                1_040_000,
                39_000,
                150_000,
                200_000,
                hold(17_093_361_734, 13_041_200_000),
            ),
            ack(
                1_041_000,
                40_000,
                200_000,
                300_000,
                upd(8_216_623_148, 6_268_750_000),
            ),
        ],
    },
    // 9. Window clamps: maximum = host BDP 250,000 B, minimum 100,000 B.
    // RTT = τ/2: Γ = 0.5: 0.9·(500,000 + 25,000) + 25,000 = 497,500 → clamped to 250,000.
    // (Q16: 29,491,000,000 + 1,474,550,000 + 1,638,500,000 = 32,604,050,000 → 16,384,000,000.)
    // RTT jumps 10 → 200 µs in 20 µs: θ̇ = 9.5, Γ = 10.5·200/20 = 105:
    // 0.9·(250,000/105 + 25,000) + 25,000 = 49,642.9 → clamped to 100,000 (6,553,600,000).
    // (Q16: (θ̇+1) = 65536 + 622592 = 688128; Γ = 6,881,280; 140,433,333 + 1,474,550,000 +
    // 1,638,500,000 = 3,253,483,333.) RTT 200 µs steady: Γ = 10:
    // cwnd_old = 250,000 (the window before the last update): 0.9·(25,000 + 25,000) + 10,000 =
    // 55,000 → 100,000. Pacing 100,000·50,000 = 5e9.
    Case {
        name: "window_clamps_min_max",
        config: Config {
            min_cwnd_bytes: 100_000,
            max_cwnd_bytes: 0,
            ..VEC
        },
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ack(1_000_000, 10_000, 0, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(1_010_000, 10_000, 10_000, 20_000, upd(BDP_Q16, BDP_BPS)),
            ack(
                1_030_000,
                200_000,
                20_000,
                30_000,
                upd(6_553_600_000, 5_000_000_000),
            ),
            ack(
                1_050_000,
                200_000,
                30_000,
                40_000,
                upd(6_553_600_000, 5_000_000_000),
            ),
        ],
    },
    // 10-13. Loss, undo, idle restart and hostile inputs: powertcp_vectors_loss.rs.
    loss::LOSS_NO_CUT_RTO_RESETS_HISTORY,
    loss::LOSS_CUT_THEN_UNDO,
    loss::IDLE_RESTART_LINE_RATE,
    loss::HOSTILE_INPUTS_CLAMPED,
    // 14. γ = 1 (no EWMA memory): cwnd = cwnd_old/Γ + β exactly. RTT 25 µs, Γ = 1.25:
    // 250,000/1.25 + 25,000 = 225,000; the second update is paired with the window before the
    // first (250,000 again): 225,000. Q16: Γ = 81920; γβ = β = 1,638,400,000;
    // ⌊16,384,000,000·65536/81920⌋ = 13,107,200,000 → 14,745,600,000 twice. Pacing
    // 225,000·50,000 = 11.25e9.
    Case {
        name: "gamma_one_exact",
        config: Config {
            gamma_q16: 65_536,
            ..VEC
        },
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ack(1_000_000, 25_000, 0, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(
                1_025_000,
                25_000,
                10_000,
                20_000,
                upd(14_745_600_000, 11_250_000_000),
            ),
            ack(
                1_050_000,
                25_000,
                20_000,
                30_000,
                upd(14_745_600_000, 11_250_000_000),
            ),
        ],
    },
    // 15. Configured β = 1000 B with γ = 0.5 at Γ = 1: w_k = 0.5·(w_{k−2} + 1000) + 0.5·w_{k−1}:
    // 0.5·251,000 + 125,000 = 250,500; 0.5·251,000 + 125,250 = 250,750. Q16: γβ =
    // ⌊65,536,000·32768/65536⌋ = 32,768,000; 8,192,000,000 + 32,768,000 + 8,192,000,000 =
    // 16,416,768,000 (250,500 B); 8,192,000,000 + 32,768,000 + 8,208,384,000 = 16,433,152,000
    // (250,750 B). Pacing 12,525,000,000 and 12,537,500,000.
    Case {
        name: "configured_beta",
        config: Config {
            gamma_q16: 32_768,
            beta_bytes: 1_000,
            ..VEC
        },
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ack(1_000_000, 20_000, 0, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(
                1_020_000,
                20_000,
                10_000,
                20_000,
                upd(16_416_768_000, 12_525_000_000),
            ),
            ack(
                1_040_000,
                20_000,
                20_000,
                30_000,
                upd(16_433_152_000, 12_537_500_000),
            ),
        ],
    },
    // 16. GRO batch: ACKs at the same instant carry no gradient (dt = 0): the due update
    // waits, and prevRTT/t_prev are kept so the RTT change is measured over the next non-zero
    // interval: from (1 ms, 20 µs) to (1.02 ms, 40 µs), θ̇ = 1, Γ = 4 → 6,799,425,000 as in
    // case 7. (Alg. 2 literally would set prevRTT = 40 µs at dt = 0 and see θ̇ = 0, Γ = 2.)
    Case {
        name: "zero_dt_defers_update",
        config: VEC,
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ack(1_000_000, 20_000, 0, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(1_000_000, 40_000, 10_000, 20_000, hold(BDP_Q16, BDP_BPS)),
            ack(
                1_020_000,
                40_000,
                10_000,
                20_000,
                upd(6_799_425_000, 5_187_500_000),
            ),
        ],
    },
    // 17. Loss recovery: a hole holds snd_una at 10,000, behind the marker 20,000, while SACKed
    // data keeps bringing RTT samples. First update as in case 10 (6,799,425,000). The ACK at
    // 1.03 ms samples data sent at 1.00 ms (before the update at 1.02 ms): hold; θ_s = (40·10 +
    // 30·10)/20 = 35 µs. The ACK at 1.055 ms samples data sent at 1.025 ms, after the update:
    // due although snd_una is behind the marker (Alg. 2's "once per RTT" in time; a sequence
    // gate alone would freeze the window for the whole recovery). Δt = 25 µs → τ: θ_s = 30 µs;
    // θ̇ = (30−40)/35 = −0.2857, Γ = 0.7143·30/20 = 1.0714; cwnd_old = cwnd (sent after the
    // update): 0.9·(103,751/1.0714 + 25,000) + 10,375.1 = 120,027. Q16: (θ̇+1) = 65536 −
    // ⌊10000·65536/35000⌋ = 46812; Γ = ⌊46812·30000/20000⌋ = 70218; ⌊6,799,425,000·58982/
    // 70218⌋ = 5,711,408,546 + 1,474,550,000 + 679,984,000 = 7,865,942,546 (120,024.88 B),
    // pacing 120,024·50,000 = 6,001,200,000. Marker 30,000. The hole fills (snd_una 20,000),
    // data sent at 1.035 ms: hold. snd_una 32,000 past the marker, sent at 1.06 ms: θ̇ = 0,
    // Γ = 1.5: 0.9·(120,024.88/1.5 + 25,000) + 12,002.5 = 106,517.4. Q16: ⌊7,865,942,546·58982/
    // 98304⌋ = 4,719,533,520 + 1,474,550,000 + ⌊7,865,942,546·6554/65536⌋ = 786,642,264 →
    // 6,980,725,784 (106,517.42 B), pacing 106,517·50,000 = 5,325,850,000.
    Case {
        name: "loss_recovery_samples_after_update",
        config: VEC,
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ack(1_000_000, 20_000, 0, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(
                1_020_000,
                40_000,
                10_000,
                20_000,
                upd(6_799_425_000, 5_187_500_000),
            ),
            st(
                loss(LossKind::FastRecovery),
                exact(6_799_425_000, 5_187_500_000, Reason::FastRecovery),
            ),
            ack(
                1_030_000,
                30_000,
                10_000,
                25_000,
                hold(6_799_425_000, 5_187_500_000),
            ),
            ack(
                1_055_000,
                30_000,
                10_000,
                30_000,
                upd(7_865_942_546, 6_001_200_000),
            ),
            ack(
                1_065_000,
                30_000,
                20_000,
                35_000,
                hold(7_865_942_546, 6_001_200_000),
            ),
            ack(
                1_090_000,
                30_000,
                32_000,
                40_000,
                upd(6_980_725_784, 5_325_850_000),
            ),
        ],
    },
    // 18. τ from the minimum RTT (BASE_RTT_MIN_RTT, PowerTCP §3.3), configured τ = 40 µs as the
    // upper bound: BDP = 12.5e9·40e-6 = 500,000 B (32,768,000,000 Q16), β = 50,000 B (γβ =
    // ⌊3,276,800,000·58982/65536⌋ = 2,949,100,000), init paced at 500,000/40 µs = 12.5e9 B/s.
    // Sample 30 µs: τ = 30 µs, pacing ⌊500,000·10^9/30,000⌋ = 16,666,666,666. Sample 20 µs:
    // τ = 20 µs, 25e9. At the marker (sample 40 µs, sent at 1.00 ms, the first sample: not
    // after it): θ_s = 40 µs (Δt = τ), θ̇ = (40−30)/40 = 0.25, Γ = 1.25·40/20 = 2.5 (with the
    // configured τ it would be 1.25): 0.9·(500,000/2.5 + 50,000) + 50,000 = 275,000.
    // Q16: (θ̇+1) = 81920, Γ = ⌊81920·40000/20000⌋ = 163840; ⌊32,768,000,000·58982/163840⌋
    // = 11,796,400,000 + 2,949,100,000 + 3,277,000,000 = 18,022,500,000 (275,001.53 B);
    // pacing ⌊275,001·10^9/20,000⌋ = 13,750,050,000. Idle restart: window 500,000 B, the
    // minimum RTT (a property of the path) kept: 25e9; the next ACK is a first sample.
    Case {
        name: "min_rtt_tau",
        config: Config {
            base_rtt_ns: 40_000,
            base_rtt_mode: BASE_RTT_MIN_RTT,
            ..VEC
        },
        steps: &[
            st(init(), exact(32_768_000_000, 12_500_000_000, Reason::Init)),
            ack(
                1_000_000,
                30_000,
                0,
                10_000,
                hold(32_768_000_000, 16_666_666_666),
            ),
            ack(
                1_020_000,
                20_000,
                5_000,
                10_000,
                hold(32_768_000_000, 25_000_000_000),
            ),
            ack(
                1_040_000,
                40_000,
                10_000,
                20_000,
                upd(18_022_500_000, 13_750_050_000),
            ),
            st(
                Input::IdleRestart {
                    now_ns: 2_000_000,
                    mss_bytes: MSS,
                },
                exact(32_768_000_000, 25_000_000_000, Reason::IdleRestart),
            ),
            ack(
                2_000_000,
                30_000,
                20_000,
                30_000,
                hold(32_768_000_000, 25_000_000_000),
            ),
        ],
    },
    // 19. Per-RTT cadence, the RTT average (Alg. 2 line 21) over ACKs 5 µs apart with a rising
    // RTT 20, 24, 28, 32, 36 µs: θ_s = (20·15 + 24·5)/20 = 21; (21·15 + 28·5)/20 = 22.75;
    // (22.75·15 + 32·5)/20 = 25.0625; (25.0625·15 + 36·5)/20 = 27.797. At the marker: θ̇ =
    // (36−20)/20 = 0.8, Γ = 1.8·27.797/20 = 2.5017: 0.9·(250,000/2.5017 + 25,000) + 25,000 =
    // 137,439 (the last sample alone, Γ = 1.8·36/20 = 3.24, would give 117,947).
    // Q16 (floor each step): θ_s = 21,000, 22,750, 25,062, 27,796; (θ̇+1) = 65536 +
    // ⌊16000·65536/20000⌋ = 117964; Γ = ⌊117964·27796/20000⌋ = 163946;
    // ⌊16,384,000,000·58982/163946⌋ = 5,894,386,493 + 1,474,550,000 + 1,638,500,000 =
    // 9,007,436,493 (137,442.57 B); pacing 137,442·50,000 = 6,872,100,000.
    Case {
        name: "per_rtt_rtt_average",
        config: VEC,
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            ack(1_000_000, 20_000, 0, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(1_005_000, 24_000, 2_500, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(1_010_000, 28_000, 5_000, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(1_015_000, 32_000, 7_500, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(
                1_020_000,
                36_000,
                10_000,
                20_000,
                upd(9_007_436_493, 6_872_100_000),
            ),
        ],
    },
    // 20, 21. base_rtt_mode = 2, the authors' ns-3 θ-mode: powertcp_vectors_artifact.rs.
    artifact::ARTIFACT_PER_RTT,
    artifact::ARTIFACT_PER_ACK,
];

/// Run every case: `Ok(cases passed)`, or the index of the first failing case and its
/// mismatch. An invalid configuration is reported as a mismatch at step `usize::MAX`. Never
/// panics (KUnit calls this inside the kernel).
pub fn run_all() -> Result<usize, (usize, Mismatch)> {
    super::vectors::run_cases::<super::powertcp::ThetaPowerTcp, Config>(CASES, |c| {
        Params::new(c).ok()
    })
}

/// Validate one case's configuration and run its steps.
pub fn run_case(case: &Case<Config>) -> Result<(), Mismatch> {
    super::vectors::run_case::<super::powertcp::ThetaPowerTcp, Config>(case, |c| {
        Params::new(c).ok()
    })
}
