// SPDX-License-Identifier: GPL-2.0-only
//! θ-PowerTCP vectors 10-13 (loss, undo, idle restart, hostile inputs): a child of
//! `powertcp_vectors.rs`, whose `CASES` table lists them (so KUnit runs them too) and whose
//! header states the arithmetic every expectation below is computed in, by hand.

use super::super::event::{AckEvent, LossKind, Reason, ACK_HAS_RTT};
use super::super::vectors::{exact, Case, Input, Step};
use super::{ack, ack_ev, hold, init, loss, st, upd, Config, BDP_BPS, BDP_Q16, MSS, VEC};

// 10. Loss with the default (spec A11): no cut on fast recovery or RTO, nothing to undo;
// the RTO resets the gradient history, so the next ACK is a first sample (without the
// reset it would have updated with dt = 80 µs) and the window history collapses to the
// current window. First update: θ_s = 40 µs (Δt = τ), θ̇ = 1, Γ = 2·40/20 = 4:
// 0.9·(62,500 + 25,000) + 25,000 = 103,750; Q16 3,686,375,000 + 1,474,550,000 +
// 1,638,500,000 = 6,799,425,000, pacing 103,750·50,000 = 5,187,500,000.
// After the reset: θ̇ = 0, Γ = 40/20 = 2, cwnd_old = cwnd: 0.9·(103,750.99/2 + 25,000) +
// 10,375.1 =
// 79,562.9. Q16: ⌊6,799,425,000·58982/131072⌋ = 3,059,720,499; + 1,474,550,000 +
// 679,984,000 = 5,214,254,499 (79,563.21 B); pacing 79,563·50,000 = 3,978,150,000.
pub(super) const LOSS_NO_CUT_RTO_RESETS_HISTORY: Case<Config> = Case {
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
};

// 11. Optional loss cut (loss_md = 0.5) and undo: 250,000 → 125,000 (fast recovery) →
// 62,500 (RTO); undo restores the window before the last reaction, max(62,500, 125,000)
// = 125,000; a second undo has nothing left. Q16: ⌊16,384,000,000·32768/65536⌋ =
// 8,192,000,000; → 4,096,000,000. Pacing 125,000·50,000 = 6.25e9; 62,500 → 3.125e9.
pub(super) const LOSS_CUT_THEN_UNDO: Case<Config> = Case {
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
};

// 12. Idle restart: back to the line-rate start (cwnd_init = 250,000 B, 12.5e9 B/s) with
// all history cleared; the next ACK is a first sample, the one after updates from 250,000
// with Γ = 2 (case 5: 10,485,800,000, 8e9 B/s).
pub(super) const IDLE_RESTART_LINE_RATE: Case<Config> = Case {
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
};

// 13. Hostile inputs. MSS 0 at init (unused by the law). Clock backwards (900 µs < 1 ms):
// the gradient restarts from (900 µs, 20 µs), hold. Same instant again: dt = 0, hold.
// RTT = u64::MAX → clamped to 2^32 − 1 ns (RTT_MAX_NS): (θ̇+1) = 65536 +
// ⌊4,294,947,295·65536/20000⌋ ≈ 1.4e10 → capped 2^32; θ_s = the sample (Δt = τ);
// Γ = 2^32·4.29e9/20000 → capped 2^32 (65536.0): paper
// 0.9·(250,000/65536 + 25,000) + 25,000 = 47,503.4. Q16: ⌊16,384,000,000·58982/2^32⌋ =
// 224,998; + 1,474,550,000 + 1,638,500,000 = 3,113,274,998 (47,504.81 B); pacing
// 47,504·50,000 = 2,375,200,000. RTT = 0 → 1 ns: (θ̇+1) < 0 → floor 0.5; Γ =
// ⌊32768·1/20000⌋ = 1 → floor 655 (0.01): 0.9·100·47,504.8 + ... ≈ 4.3e6 → max 1e6 B
// (65,536,000,000), 5e10 B/s. No RTT flag: NoSample. now = u64::MAX: dt ≈ 1.8e19 ns,
// θ̇ ≈ 0, Γ = 1: 1e6 + 22,500 → max again.
pub(super) const HOSTILE_INPUTS_CLAMPED: Case<Config> = Case {
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
};
