// SPDX-License-Identifier: GPL-2.0-only
//! θ-PowerTCP test vectors: plain const data, run by host tests and by KUnit.
//!
//! Every expectation is computed by hand from PowerTCP Alg. 2 / Eq. 7 and Eq. 8 (NSDI 2022).
//! The comment beside it gives the real-valued paper arithmetic (γ = 0.9), then the integer
//! arithmetic of `powertcp.rs`, rounded down at each step:
//!
//! - `(θ̇+1)_q16 = 65536 ± ⌊|ΔRTT|·65536/dt⌋`, clamped to [grad_floor, 2^32];
//! - `Γ_norm_q16 = ⌊(θ̇+1)_q16 · RTT / τ⌋`, clamped to [655, 2^32];
//! - `Γ_smooth_q16 = ⌊(Γ_smooth·(τ−Δt) + Γ_norm·Δt) / τ⌋`, `Δt = min(dt, τ)`;
//! - `cwnd_q16' = ⌊cwnd·γ/Γ⌋ + γβ + ⌊cwnd·(65536−γ)/65536⌋` (γ = 58982 = 0.8999939),
//!   clamped to [min, max];
//! - pacing `= ⌊⌊cwnd_q16/65536⌋ · 10^9 / τ⌋` bytes/s.
//!
//! Most cases use [`VEC`]: τ = 20 µs, HostBw = 100 Gbit/s = 12.5e9 B/s (BDP = 250,000 B =
//! 16,384,000,000 in Q16), N = 10 so β = 25,000 B (1,638,400,000 Q16) and
//! γβ = ⌊1,638,400,000·58982/65536⌋ = 1,474,550,000 (22,499.85 B), maximum window 1,000,000 B.
//! Pacing at τ = 20 µs is `cwnd_bytes · 50,000` B/s.

use super::event::{AckEvent, LossEvent, LossKind, Reason, ACK_HAS_RTT};
use super::powertcp::{Config, Params, GRADIENT_PER_ACK, GRADIENT_PER_RTT};
use super::vectors::{exact, Case, Expect, Input, Mismatch, Step};

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
    // 3. Spec §2.6 worked example: τ = 20 µs, prevRTT = 22 µs, RTT = 24 µs, dt = 2 µs.
    // Paper: θ̇ = 2/2 = 1, Γ_norm = (1+1)·24/20 = 2.4 (first sample, Γ_smooth = Γ_norm).
    // cwnd = 0.9·(250,000/2.4 + 25,000) + 0.1·250,000 = 0.9·129,166.67 + 25,000 = 141,250 B.
    // Q16: (θ̇+1) = 65536 + ⌊2000·65536/2000⌋ = 131072; Γ = ⌊131072·24000/20000⌋ = 157286
    // (2.39999); ⌊16,384,000,000·58982/157286⌋ = 6,143,973,958; + 1,474,550,000 (γβ)
    // + ⌊16,384,000,000·6554/65536⌋ = 1,638,500,000 → 9,257,023,958 (141,250.98 B);
    // pacing 141,250 · 50,000 = 7,062,500,000 B/s. Maximum window = host BDP here.
    Case {
        name: "worked_example_spec_2_6",
        config: Config {
            max_cwnd_bytes: 0,
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
    // 4. Steady state at power 1: RTT = τ, θ̇ = 0 → Γ = 1, and the law is pure additive
    // increase (spec §2.6): cwnd' = 0.9·(cwnd + 25,000) + 0.1·cwnd = cwnd + 22,500 per RTT.
    // Q16: Γ = ⌊65536·20000/20000⌋ = 65536; ⌊c·58982/65536⌋ + ⌊c·6554/65536⌋ = c for
    // c = 250,000·65536 (exact), then loses at most 1 per step; + 1,474,550,000:
    // 16,384,000,000 → 17,858,550,000 (272,499.85 B) → 19,333,099,999 → 20,807,649,998
    // (317,499.54 B). Pacing 272,499·50,000 = 13,624,950,000; 294,999 → 14,749,950,000;
    // 317,499 → 15,874,950,000.
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
                upd(19_333_099_999, 14_749_950_000),
            ),
            ack(
                1_060_000,
                20_000,
                30_000,
                40_000,
                upd(20_807_649_998, 15_874_950_000),
            ),
        ],
    },
    // 5. Power > 1, multiplicative decrease: RTT = 2τ constant, θ̇ = 0, Γ = 2 (standing queue).
    // Paper: 0.9·(250,000/2 + 25,000) + 25,000 = 160,000; 0.9·(80,000+25,000) + 16,000 =
    // 110,500; 0.9·(55,250 + 25,000) + 11,050 = 83,275 (→ fixed point βΓ/(Γ−1) = 50,000).
    // Q16: Γ = 131072. 7,372,750,000 + 1,474,550,000 + 1,638,500,000 = 10,485,800,000
    // (160,000.61 B); 4,718,577,999 + 1,474,550,000 + 1,048,644,000 = 7,241,771,999
    // (110,500.67 B); 3,258,775,299 + 1,474,550,000 + 724,221,400 = 5,457,546,699
    // (83,275.55 B). Pacing 160,000·50,000 = 8e9; 110,500 → 5.525e9; 83,275 → 4,163,750,000.
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
                upd(7_241_771_999, 5_525_000_000),
            ),
            ack(
                1_120_000,
                40_000,
                30_000,
                40_000,
                upd(5_457_546_699, 4_163_750_000),
            ),
        ],
    },
    // 6. Equilibrium (Thm 1): with queue q_e = β, RTT = τ + β/b = 20 + 2 = 22 µs, Γ = 1.1 and
    // the fixed point is w = βΓ/(Γ−1) = 275,000 = BDP + β. From 250,000 the error shrinks by
    // 0.1 + 0.9/1.1 = 0.918 per RTT. Paper: 0.9·(250,000/1.1 + 25,000) + 25,000 = 252,045.45;
    // 0.9·(252,045.45/1.1 + 25,000) + 25,204.55 = 253,923.55; next 255,649.
    // Q16: Γ = ⌊65536·22000/20000⌋ = 72089 (1.09999). 13,405,111,570 + 1,474,550,000 +
    // 1,638,500,000 = 16,518,161,570 (252,047.14 B); 13,514,880,296 + 1,474,550,000 +
    // 1,651,916,975 = 16,641,347,271 (253,926.81 B); 13,615,668,753 + 1,474,550,000 +
    // 1,664,236,297 = 16,754,455,050 (255,652.70 B). Pacing 252,047·50,000 = 12,602,350,000;
    // 253,926 → 12,696,300,000; 255,652 → 12,782,600,000.
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
                upd(16_641_347_271, 12_696_300_000),
            ),
            ack(
                1_066_000,
                22_000,
                30_000,
                40_000,
                upd(16_754_455_050, 12_782_600_000),
            ),
        ],
    },
    // 7. Once-per-RTT gating (Alg. 2 line 27) across the 32-bit sequence wrap, then power < 1.
    // Marker = 4,294,960,000; an ACK at 4,294,930,000 holds although RTT doubled (per-RTT
    // cadence: no gradient either). At snd_una = marker: dt = 20 µs from the first sample,
    // θ̇ = (40−20)/20 = 1, Γ = 2·40/20 = 4: 0.9·(62,500 + 25,000) + 25,000 = 103,750.
    // Q16: Γ = 262144; 3,686,375,000 + 1,474,550,000 + 1,638,500,000 = 6,799,425,000
    // (103,750.99 B), pacing 103,750·50,000 = 5,187,500,000. New marker 40,000 (wrapped).
    // snd_una = 10,000 is after the old marker but before the new one: hold. At 40,000:
    // θ̇ = (20−40)/20 = −1, (θ̇+1) = 0 → floor 0.5 (spec §2.4), Γ = 0.5·20/20 = 0.5 (< 1):
    // 0.9·(103,750·2 + 25,000) + 10,375 = 219,625 (multiplicative increase).
    // Q16: (θ̇+1) = 65536 − 65536 = 0 → 32768; Γ = 32768; ⌊6,799,425,000·58982/32768⌋ =
    // 12,238,881,999; + 1,474,550,000 + ⌊6,799,425,000·6554/65536⌋ = 679,984,000 →
    // 14,393,415,999 (219,626.10 B); pacing 219,626·50,000 = 10,981,300,000.
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
                upd(6_799_425_000, 5_187_500_000),
            ),
            ack(
                1_030_000,
                20_000,
                10_000,
                60_000,
                hold(6_799_425_000, 5_187_500_000),
            ),
            ack(
                1_040_000,
                20_000,
                40_000,
                80_000,
                upd(14_393_415_999, 10_981_300_000),
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
    // ACK after 38 µs > τ: Δt clamped to τ (spec A2), weight 1: Γ_s = Γ_norm =
    // (1 + 9/38)·30/20 = 1.85526. Q16: (θ̇+1) = 65536 + ⌊9000·65536/38000⌋ = 81057;
    // Γ = ⌊81057·30000/20000⌋ = 121585. Held.
    // ACK at +1 µs reaching the marker: Γ_norm = 1.5, Γ_s = (1.85526·19 + 1.5)/20 = 1.83750;
    // cwnd = 0.9·(260,824/1.8375 + 25,000) + 26,082.4 = 176,332. Q16: Γ_norm = 98304;
    // Γ_s = ⌊(121585·19000 + 98304·1000)/20000⌋ = 120420; ⌊17,093,361,734·58982/120420⌋ =
    // 8,372,368,890; + 1,474,550,000 + ⌊17,093,361,734·6554/65536⌋ = 1,709,440,503 →
    // 11,556,359,393 (176,336.05 B); pacing 176,336·50,000 = 8,816,800,000.
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
                30_000,
                150_000,
                200_000,
                hold(17_093_361_734, 13_041_200_000),
            ),
            ack(
                1_041_000,
                30_000,
                200_000,
                300_000,
                upd(11_556_359_393, 8_816_800_000),
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
    // 0.9·(10,000 + 25,000) + 10,000 = 41,500 → 100,000. Pacing 100,000·50,000 = 5e9.
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
    // 10. Loss with the default (spec A11): no cut on fast recovery or RTO, nothing to undo;
    // the RTO resets the gradient history, so the next ACK is a first sample (without the
    // reset it would have updated with dt = 80 µs). First update as in case 7: 6,799,425,000.
    // After the reset: θ̇ = 0, Γ = 40/20 = 2: 0.9·(103,750.99/2 + 25,000) + 10,375.1 =
    // 79,562.9. Q16: ⌊6,799,425,000·58982/131072⌋ = 3,059,720,499; + 1,474,550,000 +
    // 679,984,000 = 5,214,254,499 (79,563.21 B); pacing 79,563·50,000 = 3,978,150,000.
    Case {
        name: "loss_no_cut_rto_resets_history",
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
            st(
                Input::Undo { mss_bytes: MSS },
                exact(6_799_425_000, 5_187_500_000, Reason::Hold),
            ),
            st(
                loss(LossKind::RetransmitTimeout),
                exact(6_799_425_000, 5_187_500_000, Reason::RetransmitTimeout),
            ),
            ack(
                1_100_000,
                40_000,
                20_000,
                30_000,
                hold(6_799_425_000, 5_187_500_000),
            ),
            ack(
                1_120_000,
                40_000,
                30_000,
                40_000,
                upd(5_214_254_499, 3_978_150_000),
            ),
        ],
    },
    // 11. Optional loss cut (loss_md = 0.5) and undo: 250,000 → 125,000 (fast recovery) →
    // 62,500 (RTO); undo restores the window before the last reaction, max(62,500, 125,000)
    // = 125,000; a second undo has nothing left. Q16: ⌊16,384,000,000·32768/65536⌋ =
    // 8,192,000,000; → 4,096,000,000. Pacing 125,000·50,000 = 6.25e9; 62,500 → 3.125e9.
    Case {
        name: "loss_cut_then_undo",
        config: Config {
            loss_md_q16: 32_768,
            ..VEC
        },
        steps: &[
            st(init(), exact(BDP_Q16, BDP_BPS, Reason::Init)),
            st(
                loss(LossKind::FastRecovery),
                exact(8_192_000_000, 6_250_000_000, Reason::FastRecovery),
            ),
            st(
                loss(LossKind::RetransmitTimeout),
                exact(4_096_000_000, 3_125_000_000, Reason::RetransmitTimeout),
            ),
            st(
                Input::Undo { mss_bytes: MSS },
                exact(8_192_000_000, 6_250_000_000, Reason::Undo),
            ),
            st(
                Input::Undo { mss_bytes: MSS },
                exact(8_192_000_000, 6_250_000_000, Reason::Hold),
            ),
        ],
    },
    // 12. Idle restart: back to the line-rate start (cwnd_init = 250,000 B, 12.5e9 B/s) with
    // all history cleared; the next ACK is a first sample, the one after updates from 250,000
    // with Γ = 2 (case 5: 10,485,800,000, 8e9 B/s).
    Case {
        name: "idle_restart_line_rate",
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
                Input::IdleRestart {
                    now_ns: 5_000_000,
                    mss_bytes: MSS,
                },
                exact(BDP_Q16, BDP_BPS, Reason::IdleRestart),
            ),
            ack(5_000_000, 40_000, 20_000, 30_000, hold(BDP_Q16, BDP_BPS)),
            ack(
                5_040_000,
                40_000,
                30_000,
                40_000,
                upd(10_485_800_000, 8_000_000_000),
            ),
        ],
    },
    // 13. Hostile inputs. MSS 0 at init (unused by the law). Clock backwards (900 µs < 1 ms):
    // the gradient restarts from (900 µs, 20 µs), hold. Same instant again: dt = 0, hold.
    // RTT = u64::MAX → clamped to 10 s: (θ̇+1) = 65536 + ⌊9,999,980,000·65536/20000⌋ ≈ 3.3e10
    // → capped 2^32; Γ = 2^32·1e10/20000 → capped 2^32 (65536.0): paper
    // 0.9·(250,000/65536 + 25,000) + 25,000 = 47,503.4. Q16: ⌊16,384,000,000·58982/2^32⌋ =
    // 224,998; + 1,474,550,000 + 1,638,500,000 = 3,113,274,998 (47,504.81 B); pacing
    // 47,504·50,000 = 2,375,200,000. RTT = 0 → 1 ns: (θ̇+1) < 0 → floor 0.5; Γ =
    // ⌊32768·1/20000⌋ = 1 → floor 655 (0.01): 0.9·100·47,504.8 + ... ≈ 4.3e6 → max 1e6 B
    // (65,536,000,000), 5e10 B/s. No RTT flag: NoSample. now = u64::MAX: dt ≈ 1.8e19 ns,
    // θ̇ ≈ 0, Γ = 1: 1e6 + 22,500 → max again.
    Case {
        name: "hostile_inputs_clamped",
        config: VEC,
        steps: &[
            st(
                Input::Init {
                    now_ns: 0,
                    mss_bytes: 0,
                },
                exact(BDP_Q16, BDP_BPS, Reason::Init),
            ),
            ack(1_000_000, 20_000, 0, 10_000, hold(BDP_Q16, BDP_BPS)),
            ack(900_000, 20_000, 10_000, 20_000, hold(BDP_Q16, BDP_BPS)),
            ack(900_000, 40_000, 10_000, 20_000, hold(BDP_Q16, BDP_BPS)),
            Step {
                input: Input::Ack(AckEvent {
                    mss_bytes: u32::MAX,
                    ..ack_ev(920_000, u64::MAX, 10_000, 20_000, ACK_HAS_RTT)
                }),
                expect: upd(3_113_274_998, 2_375_200_000),
            },
            Step {
                input: Input::Ack(AckEvent {
                    mss_bytes: 0,
                    ..ack_ev(940_000, 0, 20_000, 30_000, ACK_HAS_RTT)
                }),
                expect: upd(65_536_000_000, 50_000_000_000),
            },
            Step {
                input: Input::Ack(ack_ev(950_000, 20_000, 30_000, 40_000, 0)),
                expect: Some(exact(65_536_000_000, 50_000_000_000, Reason::NoSample)),
            },
            ack(
                u64::MAX,
                20_000,
                30_000,
                40_000,
                upd(65_536_000_000, 50_000_000_000),
            ),
        ],
    },
    // 14. γ = 1 (no EWMA memory): cwnd = cwnd_old/Γ + β exactly. RTT 25 µs, Γ = 1.25:
    // 250,000/1.25 + 25,000 = 225,000; 225,000/1.25 + 25,000 = 205,000 (→ βΓ/(Γ−1) =
    // 125,000). Q16: Γ = 81920; γβ = β = 1,638,400,000; ⌊16,384,000,000·65536/81920⌋ =
    // 13,107,200,000 → 14,745,600,000; ⌊14,745,600,000·65536/81920⌋ = 11,796,480,000 →
    // 13,434,880,000. Pacing 225,000·50,000 = 11.25e9; 205,000 → 10.25e9.
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
                upd(13_434_880_000, 10_250_000_000),
            ),
        ],
    },
    // 15. Configured β = 1000 B with γ = 0.5 at Γ = 1: cwnd' = 0.5·(cwnd + 1000) + 0.5·cwnd
    // = cwnd + 500. Q16: γβ = ⌊65,536,000·32768/65536⌋ = 32,768,000; 16,384,000,000 →
    // 16,416,768,000 (250,500 B) → 16,449,536,000 (251,000 B). Pacing 12,525,000,000 and
    // 12,550,000,000.
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
                upd(16_449_536_000, 12_550_000_000),
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
