// SPDX-License-Identifier: GPL-2.0-only
//! TIMELY test vectors: plain const data, run by host tests and by KUnit inside the kernel.
//!
//! Every expectation was computed by hand from the paper's equations (Mittal et al.,
//! SIGCOMM 2015, Alg. 1 and §4.3, §5); the comment beside it shows the real-valued paper
//! arithmetic and then the integer rounding the law applies. Conventions used throughout:
//!
//! - Rates are bytes/s: 1 Mbit/s = 125,000 B/s, so delta = 10 Mbit/s = 1,250,000 B/s.
//! - Q16 factors: beta = 0.8 -> 52429; 1 - beta = 0.2 -> 65536 - 52429 = 13107.
//! - `x * f_q16 / 65536` and every `mul_div` round down ("floor").
//! - The gradient is `g_q16 = rtt_diff_ns * 65536 / min_rtt_ns`, truncated toward zero; the
//!   gradient decrease factor is `65536 - floor(52429 * g_q16 / 65536)`, at least 0.
//! - The T_high factor is `65536 - floor(52429 * (rtt - T_high) / rtt)`.
//! - The EWMA step `ceil(|new_diff - rtt_diff| * 0.875)` rounds toward the new difference.
//! - cwnd = floor(2 * R * max(prev_rtt, T_high) / 10^9) bytes, at least 2 segments in whole
//!   packets (2 * ceil(16,384 / 1448) * 1448 = 2 * 12 * 1448 = 34,752 B for 16 KB segments at
//!   MSS 1448); expectations give bytes and shift by 16 (`w()`).
//!
//! Uses `super::vectors`, `super::event`, `super::timely` and `super::fixed` only.

use super::event::{
    AckEvent, LossEvent, LossKind, Reason, ACK_APP_LIMITED, ACK_DELAYED, ACK_HAS_RTT,
    ACK_IN_RECOVERY,
};
use super::fixed::BYTES_Q16_SHIFT;
use super::timely::{Config, Params, UPDATE_PER_COMPLETION, UPDATE_PER_MIN_RTT, UPDATE_PER_ROUND};
use super::vectors::{ack, exact, Case, Expect, Input, Mismatch, Step};

const MSS: u32 = 1448;
const SEG: u32 = 16_384;
const US: u64 = 1_000;

/// The vector configuration: the paper's parameters (T_low 50 µs, T_high 500 µs, minRTT 20 µs,
/// alpha 0.875, beta 0.8, delta 10 Mbit/s, HAI after 5 with N = 5, 16 KB segments, line rate
/// 10 Gbit/s, floor 10 Mbit/s), but starting at 1 Gbit/s (room to move both ways), updating on
/// every completion (Alg. 1 literally) and without the §5 sending-rate rule, so each step
/// exercises exactly one Alg. 1 branch. Cases that test those options turn them back on.
const VCFG: Config = Config {
    init_rate_mbps: 1_000, // R0 = 125,000,000 B/s
    app_limit_q16: 0,
    update_mode: UPDATE_PER_COMPLETION,
    ..Config::DEFAULT
};

/// Window of `bytes` in the decision's Q16 unit.
const fn w(bytes: u64) -> u64 {
    bytes << BYTES_Q16_SHIFT
}

/// Exact expectation: window in bytes, rate in B/s, reason.
const fn e(cwnd_bytes: u64, rate_bps: u64, reason: Reason) -> Option<Expect> {
    Some(exact(w(cwnd_bytes), rate_bps, reason))
}

/// A step.
const fn st(input: Input, expect: Option<Expect>) -> Step {
    Step { input, expect }
}

const fn init(now_ns: u64) -> Input {
    Input::Init {
        now_ns,
        mss_bytes: MSS,
    }
}

/// A one-segment ACK at `now_ns` with an RTT sample (µs).
const fn seg(now_ns: u64, rtt_us: u64) -> Input {
    Input::Ack(ack(now_ns, rtt_us.saturating_mul(US), SEG, MSS))
}

/// A fully specified ACK: sequence numbers (the law ignores them since the round gate counts
/// delivered bytes; they keep each trace consistent) and the bytes in flight after it.
const fn ackx(
    now_ns: u64,
    rtt_ns: u64,
    acked: u32,
    una: u32,
    nxt: u32,
    inflight: u32,
    flags: u32,
) -> Input {
    let mut a: AckEvent = ack(now_ns, rtt_ns, acked, MSS);
    a.snd_una = una;
    a.snd_nxt = nxt;
    a.inflight_bytes = inflight;
    a.flags = flags;
    Input::Ack(a)
}

const fn loss(now_ns: u64, kind: LossKind) -> Input {
    Input::Loss(LossEvent {
        now_ns,
        mss_bytes: MSS,
        kind,
    })
}

const UNDO: Input = Input::Undo { mss_bytes: MSS };

/// All TIMELY cases.
pub const CASES: &[Case<Config>] = &[
    // 0. The paper's defaults: start at line rate, below-segment ACKs do nothing, a T_high
    // decrease on the first round.
    Case {
        name: "paper_defaults",
        config: Config::DEFAULT,
        steps: &[
            // R0 = line rate = 10,000 Mbit/s = 1,250,000,000 B/s.
            // cwnd = 2 * 1.25e9 B/s * 500 µs = 1,250,000 B.
            st(init(0), e(1_250_000, 1_250_000_000, Reason::Init)),
            // 1448 B < one 16 KB segment: no completion, no change.
            st(
                ackx(10 * US, 60 * US, 1448, 1448, 100_000, 0, ACK_HAS_RTT),
                e(1_250_000, 1_250_000_000, Reason::Hold),
            ),
            // No RTT sample (flag clear): nothing to learn.
            st(
                ackx(20 * US, 60 * US, 1448, 2896, 100_000, 0, 0),
                e(1_250_000, 1_250_000_000, Reason::NoSample),
            ),
            // 2896 + 14,000 = 16,896 B >= 16,384: completion; first update (gate open).
            // RTT 600 µs > T_high: R = 1.25e9 * (1 - 0.8 * (1 - 500/600)) = 1.25e9 * 0.866667
            // = 1,083,333,333. Integer: floor(52429 * 100,000 / 600,000) = floor(8738.17) =
            // 8738; factor 65536 - 8738 = 56798; floor(1.25e9 * 56798 / 65536) = 1,083,335,876.
            // cwnd = 2 * 1,083,335,876 * 600 µs = 1,300,003.05 -> 1,300,003 B.
            st(
                ackx(
                    30 * US,
                    600 * US,
                    14_000,
                    16_896,
                    200_000,
                    183_104,
                    ACK_HAS_RTT,
                ),
                e(1_300_003, 1_083_335_876, Reason::HighGuard),
            ),
            // Round gate (default mode): 183,104 B were in flight at the update (200,000 -
            // 16,896); 16,384 B delivered since is not more: same round, held.
            st(
                ackx(
                    40 * US,
                    900 * US,
                    16_384,
                    33_280,
                    220_000,
                    186_720,
                    ACK_HAS_RTT,
                ),
                e(1_300_003, 1_083_335_876, Reason::Hold),
            ),
        ],
    },
    // 1. Hooks before init: undo, fast recovery, idle and RTO initialise lazily.
    Case {
        name: "before_init_hooks",
        config: VCFG,
        steps: &[
            // Undo from the all-zero state: init at R0 = 125,000,000 B/s, nothing saved.
            // cwnd = 2 * 1.25e8 * 500 µs = 125,000 B.
            st(UNDO, e(125_000, 125_000_000, Reason::Hold)),
            // Fast recovery: TIMELY ignores it (§3), no change.
            st(
                loss(1_000, LossKind::FastRecovery),
                e(125_000, 125_000_000, Reason::FastRecovery),
            ),
            st(
                Input::IdleRestart {
                    now_ns: 2_000,
                    mss_bytes: MSS,
                },
                e(125_000, 125_000_000, Reason::IdleRestart),
            ),
            // RTO: R = 1.25e8 * (1 - 0.8) = 2.5e7; integer floor(1.25e8 * 13107 / 65536) =
            // floor(24,999,618.5) = 24,999,618. cwnd = 2 * 24,999,618 * 500 µs = 24,999 B
            // < 34,752 -> 34,752 B (two segments in whole packets, 2 * 12 * 1448).
            st(
                loss(3_000, LossKind::RetransmitTimeout),
                e(34_752, 24_999_618, Reason::RetransmitTimeout),
            ),
        ],
    },
    // 2. The first ACK arrives before init: lazy init, then Alg. 1 with a zero difference.
    Case {
        name: "before_init_first_ack",
        config: VCFG,
        steps: &[
            // new_rtt_diff = 0 (prev_rtt seeded), g = 0 <= 0, 50 <= 100 <= 500 µs:
            // R = 1.25e8 + 1.25e6 = 126,250,000. cwnd = 2 * 126.25e6 * 500 µs = 126,250 B.
            st(
                seg(1_000, 100),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
        ],
    },
    // 3. T_low: increase by delta whatever the gradient (Alg. 1 lines 5-7).
    Case {
        name: "low_guard_additive",
        config: VCFG,
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            // 30 µs < 50 µs: R = 1.25e8 + 1.25e6 = 126,250,000; cwnd 2 * R * 500 µs.
            st(seg(10 * US, 30), e(126_250, 126_250_000, Reason::LowGuard)),
            // diff = +10 µs, rtt_diff = 8750 ns, g = 0.4375 > 0, but 40 µs < T_low still
            // increases: R = 127,500,000; HAI is neither used nor counted (Alg. 1 as written).
            st(seg(20 * US, 40), e(127_500, 127_500_000, Reason::LowGuard)),
        ],
    },
    // 4. Negative gradient: additive increase (Alg. 1 lines 11-12, N = 1).
    Case {
        name: "gradient_negative_additive",
        config: VCFG,
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            // First sample: g = 0 -> R = 126,250,000.
            st(
                seg(10 * US, 100),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            // diff = 90 - 100 = -10 µs; rtt_diff = 0.875 * -10,000 = -8750 ns;
            // g = -8750 / 20,000 = -0.4375 (Q16 -28672) <= 0, hai_count 1 < 5:
            // R = 126.25e6 + 1.25e6 = 127,500,000.
            st(
                seg(20 * US, 90),
                e(127_500, 127_500_000, Reason::AdditiveIncrease),
            ),
        ],
    },
    // 5. HAI after five negative gradients, and its end on a decrease.
    Case {
        name: "hai_after_five_negative",
        config: VCFG,
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            // 200 µs, first sample: g = 0 (not negative, no HAI count): R = 126,250,000.
            st(
                seg(10 * US, 200),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            // Each step diff = -10 µs. rtt_diff: 0 -> -8750 -> -8750 - ceil(1250 * 0.875 =
            // 1093.75) = -9844 -> -9844 - ceil(136.5) = -9981 -> -9981 - ceil(16.625) = -9998
            // -> -9998 - ceil(1.75) = -10000 -> -10000. All negative: hai_count 1, 2, 3, ...
            // Counts 1-4: R += 1.25e6 each.
            st(
                seg(20 * US, 190),
                e(127_500, 127_500_000, Reason::AdditiveIncrease),
            ),
            st(
                seg(30 * US, 180),
                e(128_750, 128_750_000, Reason::AdditiveIncrease),
            ),
            st(
                seg(40 * US, 170),
                e(130_000, 130_000_000, Reason::AdditiveIncrease),
            ),
            st(
                seg(50 * US, 160),
                e(131_250, 131_250_000, Reason::AdditiveIncrease),
            ),
            // Fifth negative gradient: N = 5, R = 131.25e6 + 5 * 1.25e6 = 137,500,000.
            st(
                seg(60 * US, 150),
                e(137_500, 137_500_000, Reason::HyperactiveIncrease),
            ),
            // Sixth: still HAI, R = 143,750,000.
            st(
                seg(70 * US, 140),
                e(143_750, 143_750_000, Reason::HyperactiveIncrease),
            ),
            // diff = +10 µs: rtt_diff = -10,000 + 0.875 * 20,000 = 7500 ns; g = 7500 / 20,000
            // = 0.375 (Q16 24576). R = 143.75e6 * (1 - 0.8 * 0.375) = 143.75e6 * 0.7 =
            // 100,625,000. Integer: floor(52429 * 24576 / 65536) = floor(19660.9) = 19660;
            // factor 45876; floor(143.75e6 * 45876 / 65536) = 100,626,754. HAI count reset.
            // cwnd = 2 * 100,626,754 * 500 µs = 100,626.75 -> 100,626 B.
            st(
                seg(80 * US, 150),
                e(100_626, 100_626_754, Reason::GradientUpdate),
            ),
            // diff = -10 µs: rtt_diff = 7500 - ceil(17,500 * 0.875 = 15,312.5) = -7813;
            // g < 0 but hai_count restarts at 1: plain delta, R = 101,876,754.
            st(
                seg(90 * US, 140),
                e(101_876, 101_876_754, Reason::AdditiveIncrease),
            ),
        ],
    },
    // 6. Positive gradient: multiplicative decrease scaled by g (Alg. 1 lines 13-14).
    Case {
        name: "gradient_positive_decrease",
        config: VCFG,
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            st(
                seg(10 * US, 100),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            // diff = +10 µs: rtt_diff = 8750 ns, g = 0.4375 (Q16 28672).
            // R = 126.25e6 * (1 - 0.8 * 0.4375) = 126.25e6 * 0.65 = 82,062,500.
            // Integer: floor(52429 * 28672 / 65536) = floor(22937.6) = 22937; factor 42599;
            // floor(126.25e6 * 42599 / 65536) = 82,063,655. cwnd = 82,063.655 -> 82,063 B.
            st(
                seg(20 * US, 110),
                e(82_063, 82_063_655, Reason::GradientUpdate),
            ),
        ],
    },
    // 7. A steep gradient: 1 - beta * g < 0 is clamped to 0, the rate to min_rate.
    Case {
        name: "gradient_factor_clamped_to_min_rate",
        config: VCFG,
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            st(
                seg(10 * US, 100),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            // diff = +300 µs (400 <= T_high): rtt_diff = 262,500 ns, g = 13.125;
            // 1 - 0.8 * 13.125 = -9.5 -> 0 (spec §3.4). R = 0 -> min_rate 1,250,000 B/s.
            // Integer: g_q16 = 860,160; floor(52429 * 860,160 / 65536) = 688,130 > 65536.
            // cwnd = 2 * 1.25e6 * 500 µs = 1250 B -> floor 34,752 B.
            st(
                seg(20 * US, 400),
                e(34_752, 1_250_000, Reason::GradientUpdate),
            ),
        ],
    },
    // 8. T_high: decrease by the excess over T_high, ignoring the gradient (lines 8-10).
    Case {
        name: "high_guard_decrease",
        config: VCFG,
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            // 1000 µs: R = 1.25e8 * (1 - 0.8 * (1 - 500/1000)) = 1.25e8 * 0.6 = 75,000,000.
            // Integer: floor(52429 * 500,000 / 1,000,000) = floor(26214.5) = 26214; factor
            // 39322; floor(1.25e8 * 39322 / 65536) = floor(75,000,762.9) = 75,000,762.
            // cwnd = 2 * 75,000,762 * 1000 µs = 150,001.5 -> 150,001 B.
            st(
                seg(10 * US, 1000),
                e(150_001, 75_000_762, Reason::HighGuard),
            ),
            // 750 µs: the gradient is negative (-250 µs) but T_high wins:
            // R = 75,000,762 * (1 - 0.8 * (1 - 500/750)) = 75,000,762 * 0.733333 = 55,000,559.
            // Integer: floor(52429 * 250,000 / 750,000) = floor(17476.3) = 17476; factor
            // 48060; floor(75,000,762 * 48060 / 65536) = 55,000,863.
            // cwnd = 2 * 55,000,863 * 750 µs = 82,501.3 -> 82,501 B.
            st(seg(20 * US, 750), e(82_501, 55_000_863, Reason::HighGuard)),
        ],
    },
    // 9. The rate is capped at line rate (§5).
    Case {
        name: "rate_capped_at_line_rate",
        config: Config {
            init_rate_mbps: 10_000,
            ..VCFG
        },
        steps: &[
            // R0 = 1.25e9; cwnd = 2 * 1.25e9 * 500 µs = 1,250,000 B.
            st(init(0), e(1_250_000, 1_250_000_000, Reason::Init)),
            // Gradient zone, first sample g = 0: 1.25e9 + 1.25e6 > 1.25e9 -> 1,250,000,000.
            st(
                seg(10 * US, 100),
                e(1_250_000, 1_250_000_000, Reason::AdditiveIncrease),
            ),
            // T_low branch: the same cap.
            st(
                seg(20 * US, 30),
                e(1_250_000, 1_250_000_000, Reason::LowGuard),
            ),
        ],
    },
    // 10. RTO reaction (extension) and undo.
    Case {
        name: "rto_then_undo",
        config: VCFG,
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            // R = 1.25e8 * 0.2 = 2.5e7; integer floor(1.25e8 * 13107 / 65536) = 24,999,618.
            // cwnd 24,999 B -> 34,752 B.
            st(
                loss(1_000_000, LossKind::RetransmitTimeout),
                e(34_752, 24_999_618, Reason::RetransmitTimeout),
            ),
            // Spurious: back to the saved 125,000,000.
            st(UNDO, e(125_000, 125_000_000, Reason::Undo)),
            // Undo happens once.
            st(UNDO, e(125_000, 125_000_000, Reason::Hold)),
        ],
    },
    // 11. Three RTOs in a row drop to min_rate; an ACK in between restarts the count.
    Case {
        name: "rto_reset_after_three",
        config: VCFG,
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            st(
                loss(1_000_000, LossKind::RetransmitTimeout),
                e(34_752, 24_999_618, Reason::RetransmitTimeout),
            ),
            // floor(24,999,618 * 13107 / 65536) = floor(4,999,847.3) = 4,999,847 (paper 0.2 R).
            st(
                loss(3_000_000, LossKind::RetransmitTimeout),
                e(34_752, 4_999_847, Reason::RetransmitTimeout),
            ),
            // Third RTO: R = min_rate = 1,250,000.
            st(
                loss(7_000_000, LossKind::RetransmitTimeout),
                e(34_752, 1_250_000, Reason::RetransmitReset),
            ),
            // Undo restores the rate saved at the episode's first RTO.
            st(UNDO, e(125_000, 125_000_000, Reason::Undo)),
            st(
                loss(8_000_000, LossKind::RetransmitTimeout),
                e(34_752, 24_999_618, Reason::RetransmitTimeout),
            ),
            // An ACK with data (below a segment: no rate update) ends the RTO episode.
            st(
                ackx(8_100_000, 100 * US, 1448, 0, 0, 0, ACK_HAS_RTT),
                e(34_752, 24_999_618, Reason::Hold),
            ),
            // So this RTO is the first of a new one: floor(24,999,618 * 13107 / 65536) =
            // 4,999,847, no reset.
            st(
                loss(9_000_000, LossKind::RetransmitTimeout),
                e(34_752, 4_999_847, Reason::RetransmitTimeout),
            ),
        ],
    },
    // 12. Fast recovery changes nothing and leaves nothing to undo.
    Case {
        name: "fast_recovery_no_change",
        config: VCFG,
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            st(
                seg(10 * US, 100),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            st(
                loss(20 * US, LossKind::FastRecovery),
                e(126_250, 126_250_000, Reason::FastRecovery),
            ),
            st(UNDO, e(126_250, 126_250_000, Reason::Hold)),
        ],
    },
    // 13. A long idle keeps R and forgets the (stale) RTT history.
    Case {
        name: "idle_restart_forgets_gradient",
        config: VCFG,
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            st(
                seg(10 * US, 100),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            // As case 6: 82,063,655 B/s, cwnd 82,063 B.
            st(
                seg(20 * US, 110),
                e(82_063, 82_063_655, Reason::GradientUpdate),
            ),
            // 5 ms - 20 µs = 4980 µs >= 4 * max(110, 500) µs = 2 ms: the history is stale.
            // R kept; prev_rtt forgotten, so cwnd uses T_high: 2 * 82,063,655 * 500 µs.
            st(
                Input::IdleRestart {
                    now_ns: 5_000_000,
                    mss_bytes: MSS,
                },
                e(82_063, 82_063_655, Reason::IdleRestart),
            ),
            // 120 µs would be a +10 µs difference (a decrease); after idle it is a first
            // sample: g = 0 -> R = 82,063,655 + 1,250,000 = 83,313,655.
            st(
                seg(5_010 * US, 120),
                e(83_313, 83_313_655, Reason::AdditiveIncrease),
            ),
        ],
    },
    // 14. A short idle (an RPC gap) keeps the RTT history: the gradient spans the gap.
    Case {
        name: "idle_restart_short_gap_keeps_gradient",
        config: VCFG,
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            st(
                seg(10 * US, 100),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            // 1000 - 10 = 990 µs < 4 * max(100, 500) µs = 2 ms: nothing forgotten; cwnd still
            // 2 * 126.25e6 * max(100, 500) µs = 126,250 B.
            st(
                Input::IdleRestart {
                    now_ns: 1_000 * US,
                    mss_bytes: MSS,
                },
                e(126_250, 126_250_000, Reason::IdleRestart),
            ),
            // diff = 110 - 100 = +10 µs across the gap: as case 6, R = 82,063,655.
            st(
                seg(1_100 * US, 110),
                e(82_063, 82_063_655, Reason::GradientUpdate),
            ),
        ],
    },
    // 15. Hostile inputs are clamped.
    Case {
        name: "hostile_inputs",
        config: VCFG,
        steps: &[
            // MSS 0 -> 88: bounds [2 * ceil(16,384 / 88) * 88 = 32,912 B, 2^20 * 88]; the
            // window is unchanged.
            st(
                Input::Init {
                    now_ns: 1_000,
                    mss_bytes: 0,
                },
                e(125_000, 125_000_000, Reason::Init),
            ),
            // RTT 0 -> 1 ns (< T_low), 4 GiB acked, MSS 0: R = 126,250,000.
            st(
                Input::Ack(ack(2_000, 0, u32::MAX, 0)),
                e(126_250, 126_250_000, Reason::LowGuard),
            ),
            // RTT u64::MAX -> 10 s, MSS u32::MAX -> 65,536, clock backwards (500 < 2000):
            // R = 126.25e6 * (1 - 0.8 * (1 - 500 µs / 10 s)) = 126.25e6 * 0.20004 =
            // 25,255,050. Integer: floor(52429 * 9,999,500,000 / 10^10) = floor(52426.4) =
            // 52426; factor 13110; floor(126.25e6 * 13110 / 65536) = 25,255,393.
            // cwnd = 2 * 25,255,393 * 10 s = 505,107,860 B (below 2^20 * 65,536).
            st(
                Input::Ack(ack(500, u64::MAX, SEG, u32::MAX)),
                e(505_107_860, 25_255_393, Reason::HighGuard),
            ),
            // An RTT value without ACK_HAS_RTT is ignored.
            st(
                ackx(600, 30 * US, SEG, 0, 0, 0, 0),
                e(505_107_860, 25_255_393, Reason::NoSample),
            ),
        ],
    },
    // 16. A completion needs a whole segment of acknowledged bytes, and an RTT sample.
    Case {
        name: "completion_needs_a_segment",
        config: VCFG,
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            st(
                ackx(10 * US, 100 * US, 8192, 0, 0, 0, ACK_HAS_RTT),
                e(125_000, 125_000_000, Reason::Hold),
            ),
            // 8192 + 8191 = 16,383 < 16,384.
            st(
                ackx(20 * US, 100 * US, 8191, 0, 0, 0, ACK_HAS_RTT),
                e(125_000, 125_000_000, Reason::Hold),
            ),
            // 16,384: a completion, but without an RTT sample it stays pending.
            st(
                ackx(30 * US, 100 * US, 1, 0, 0, 0, 0),
                e(125_000, 125_000_000, Reason::NoSample),
            ),
            // The next ACK with a sample (even with 0 new bytes) completes it: g = 0,
            // R = 126,250,000.
            st(
                ackx(40 * US, 100 * US, 0, 0, 0, 0, ACK_HAS_RTT),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            // The counter restarted: 0 bytes is no completion.
            st(
                ackx(50 * US, 900 * US, 0, 0, 0, 0, ACK_HAS_RTT),
                e(126_250, 126_250_000, Reason::Hold),
            ),
        ],
    },
    // 17. Default update gate: once per round (spec §3.4 option B), counted in delivered bytes:
    // the round ends when more bytes have been delivered since the update than were in flight
    // right after it (then the ACK covers data sent after the update).
    Case {
        name: "per_round_gate",
        config: Config {
            update_mode: UPDATE_PER_ROUND,
            ..VCFG
        },
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            // First update (gate open): diff 0, g = 0: R = 125,000,000 + 1,250,000 =
            // 126,250,000; 32,768 B in flight after it (snd_nxt 49,152 - snd_una 16,384).
            st(
                ackx(10 * US, 100 * US, SEG, 16_384, 49_152, 32_768, ACK_HAS_RTT),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            // 16,384 B delivered since <= 32,768: same round, ignored.
            st(
                ackx(20 * US, 110 * US, SEG, 32_768, 65_536, 32_768, ACK_HAS_RTT),
                e(126_250, 126_250_000, Reason::Hold),
            ),
            // 32,768 B delivered == the 32,768 in flight at the update: all of it was sent
            // before the update, still ignored.
            st(
                ackx(30 * US, 110 * US, SEG, 49_152, 81_920, 32_768, ACK_HAS_RTT),
                e(126_250, 126_250_000, Reason::Hold),
            ),
            // 49,152 > 32,768: new round. diff = 110 - 100 = +10 µs: as case 6,
            // R = 82,063,655.
            st(
                ackx(40 * US, 110 * US, SEG, 65_536, 98_304, 32_768, ACK_HAS_RTT),
                e(82_063, 82_063_655, Reason::GradientUpdate),
            ),
        ],
    },
    // 18. The round gate's time fallback, a guard against a host whose in-flight count is
    // bogus (1,000,000 B reported, far more than is ever delivered here): after
    // 4 * max(prev_rtt, T_high) without a completed round the gate opens anyway. (This case
    // used to hold a hole in snd_una, i.e. ordinary loss recovery, behind the 2 ms fallback as
    // expected behaviour; that was the bug of issue #12, see `per_round_gate_in_recovery`.)
    Case {
        name: "round_gate_time_fallback",
        config: Config {
            update_mode: UPDATE_PER_ROUND,
            ..VCFG
        },
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            // Update at t = 1 µs; 1,000,000 B claimed in flight.
            st(
                ackx(US, 100 * US, SEG, 0, 1_000_000, 1_000_000, ACK_HAS_RTT),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            // 16,384 B delivered <= 1,000,000 and elapsed 1,999,999 ns < 4 * max(100, 500) µs
            // = 2,000,000 ns: held.
            st(
                ackx(
                    US + 1_999_999,
                    100 * US,
                    SEG,
                    16_384,
                    1_000_000,
                    1_000_000,
                    ACK_HAS_RTT,
                ),
                e(126_250, 126_250_000, Reason::Hold),
            ),
            // elapsed 2,000,000 ns: update. diff 0, g = 0: R = 127,500,000.
            st(
                ackx(
                    US + 2_000_000,
                    100 * US,
                    SEG,
                    32_768,
                    1_000_000,
                    1_000_000,
                    ACK_HAS_RTT,
                ),
                e(127_500, 127_500_000, Reason::AdditiveIncrease),
            ),
        ],
    },
    // 18b. Loss recovery does not stop the updates (issue #12): a hole holds snd_una at 16,384
    // while SACKs deliver the data behind it. TIMELY's completions are per segment whatever
    // the transport's reliability does (§3 "independent of the transport protocol used for
    // reliability"), so the round, counted in delivered bytes, ends as usual.
    Case {
        name: "per_round_gate_in_recovery",
        config: Config {
            update_mode: UPDATE_PER_ROUND,
            ..VCFG
        },
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            // First update: g = 0, R = 126,250,000; 32,768 B in flight (49,152 - 16,384).
            st(
                ackx(10 * US, 100 * US, SEG, 16_384, 49_152, 32_768, ACK_HAS_RTT),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            // The segment at 16,384 is lost: fast recovery, no rate change (D11).
            st(
                loss(15 * US, LossKind::FastRecovery),
                e(126_250, 126_250_000, Reason::FastRecovery),
            ),
            // SACKs: snd_una stays at 16,384. 16,384 then 32,768 B delivered since the update,
            // not more than 32,768: same round.
            st(
                ackx(
                    20 * US,
                    110 * US,
                    SEG,
                    16_384,
                    65_536,
                    32_768,
                    ACK_HAS_RTT | ACK_IN_RECOVERY,
                ),
                e(126_250, 126_250_000, Reason::Hold),
            ),
            st(
                ackx(
                    30 * US,
                    110 * US,
                    SEG,
                    16_384,
                    81_920,
                    32_768,
                    ACK_HAS_RTT | ACK_IN_RECOVERY,
                ),
                e(126_250, 126_250_000, Reason::Hold),
            ),
            // 49,152 B delivered > 32,768: the round ends with snd_una still at the hole.
            // diff = 110 - 100 = +10 µs: rtt_diff = ceil(10,000 * 0.875) = 8,750 ns,
            // g = 8,750 / 20,000 = 0.4375 (Q16 28,672); R = 126,250,000 * (1 - 0.8 * 0.4375)
            // = 82,062,500; integer: factor 65,536 - floor(52,429 * 28,672 / 65,536) = 65,536
            // - 22,937 = 42,599, floor(126,250,000 * 42,599 / 65,536) = 82,063,655 (case 6).
            // (Before the fix the gate waited for snd_una to pass 49,152: Hold until 2 ms.)
            st(
                ackx(
                    40 * US,
                    110 * US,
                    SEG,
                    16_384,
                    98_304,
                    32_768,
                    ACK_HAS_RTT | ACK_IN_RECOVERY,
                ),
                e(82_063, 82_063_655, Reason::GradientUpdate),
            ),
        ],
    },
    // 19. Update gate once per minRTT (20 µs).
    Case {
        name: "per_min_rtt_gate",
        config: Config {
            update_mode: UPDATE_PER_MIN_RTT,
            ..VCFG
        },
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            st(
                seg(5 * US, 100),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            // 19,999 ns after the update < 20 µs: held.
            st(
                seg(5 * US + 19_999, 110),
                e(126_250, 126_250_000, Reason::Hold),
            ),
            // 20 µs: update; diff +10 µs as case 6: R = 82,063,655.
            st(
                seg(25 * US, 110),
                e(82_063, 82_063_655, Reason::GradientUpdate),
            ),
        ],
    },
    // 20. §5: increase only while sending at more than 80 % of R; decreases always apply.
    Case {
        name: "app_limited_blocks_increase",
        config: Config {
            app_limit_q16: 52_429,
            ..VCFG
        },
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            // Sent 16,384 B in 100 µs = 163,840,000 B/s > 0.8 * 1.25e8 = 1e8 (integer
            // floor(1.25e8 * 52429 / 65536) = 100,000,381): R = 126,250,000.
            st(
                seg(100 * US, 100),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
            // 16,384 B in 200 µs = 81,920,000 B/s < 0.8 * 125e6 = 100,000,000 (integer
            // 100,000,381; the bytes were paced at the rate before the last increase, D10):
            // application-limited, no increase.
            st(seg(300 * US, 100), e(126_250, 126_250_000, Reason::Hold)),
            // Host says application-limited: no increase although 163.84e6 > 101e6.
            st(
                ackx(
                    400 * US,
                    100 * US,
                    SEG,
                    0,
                    0,
                    0,
                    ACK_HAS_RTT | ACK_APP_LIMITED,
                ),
                e(126_250, 126_250_000, Reason::Hold),
            ),
            // The last update held: against R, 163,840,000 > 101,000,385: R = 127,500,000.
            st(
                seg(500 * US, 100),
                e(127_500, 127_500_000, Reason::AdditiveIncrease),
            ),
            // Decrease while application-limited: diff +10 µs, g = 0.4375:
            // R = 127.5e6 * 0.65 = 82,875,000; integer floor(127.5e6 * 42599 / 65536) =
            // 82,876,167. cwnd = 82,876.2 -> 82,876 B.
            st(
                ackx(
                    600 * US,
                    110 * US,
                    SEG,
                    0,
                    0,
                    0,
                    ACK_HAS_RTT | ACK_APP_LIMITED,
                ),
                e(82_876, 82_876_167, Reason::GradientUpdate),
            ),
        ],
    },
    // 21. Option: the T_low branch counts toward and uses HAI (threshold 2 here).
    Case {
        name: "hai_in_low_guard_option",
        config: Config {
            hai_in_low_guard: 1,
            hai_threshold: 2,
            ..VCFG
        },
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            // Count 1 < 2: R = 126,250,000.
            st(seg(10 * US, 30), e(126_250, 126_250_000, Reason::LowGuard)),
            // Count 2: R = 126.25e6 + 5 * 1.25e6 = 132,500,000.
            st(seg(20 * US, 30), e(132_500, 132_500_000, Reason::LowGuard)),
        ],
    },
    // 22. Option: ACKs flagged as delayed carry no usable RTT.
    Case {
        name: "skip_delayed_acks_option",
        config: Config {
            skip_delayed_acks: 1,
            ..VCFG
        },
        steps: &[
            st(init(0), e(125_000, 125_000_000, Reason::Init)),
            st(
                ackx(10 * US, 900 * US, SEG, 0, 0, 0, ACK_HAS_RTT | ACK_DELAYED),
                e(125_000, 125_000_000, Reason::NoSample),
            ),
            // The pending completion updates on the next prompt ACK: R = 126,250,000.
            st(
                ackx(20 * US, 100 * US, 0, 0, 0, 0, ACK_HAS_RTT),
                e(126_250, 126_250_000, Reason::AdditiveIncrease),
            ),
        ],
    },
    // 23. T_low = T_high = 50 µs: §4.4's queue-size mode.
    Case {
        name: "queue_target_mode",
        config: Config {
            t_low_ns: 50 * US,
            t_high_ns: 50 * US,
            ..VCFG
        },
        steps: &[
            // cwnd = 2 * 1.25e8 * 50 µs = 12,500 B -> 34,752 B.
            st(init(0), e(34_752, 125_000_000, Reason::Init)),
            // 40 µs < 50: R = 126,250,000.
            st(seg(10 * US, 40), e(34_752, 126_250_000, Reason::LowGuard)),
            // 50 µs is neither < T_low nor > T_high: gradient, diff +10 µs -> as case 6,
            // R = 82,063,655.
            st(
                seg(20 * US, 50),
                e(34_752, 82_063_655, Reason::GradientUpdate),
            ),
            // 100 µs > 50: R = 82,063,655 * (1 - 0.8 * 0.5) = 49,238,193. Integer:
            // floor(52429 * 50,000 / 100,000) = 26214; factor 39322;
            // floor(82,063,655 * 39322 / 65536) = 49,238,693. cwnd 2 * R * 100 µs = 9847 B
            // -> 34,752 B.
            st(seg(30 * US, 100), e(34_752, 49_238_693, Reason::HighGuard)),
        ],
    },
];

/// Run every case: the number passed, or the first failing case's index and mismatch. An
/// invalid configuration is reported as a mismatch at step `usize::MAX`. Never panics.
pub fn run_all() -> Result<usize, (usize, Mismatch)> {
    super::vectors::run_cases::<super::timely::Timely, Config>(CASES, |c| Params::new(c).ok())
}
