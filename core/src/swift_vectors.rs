// SPDX-License-Identifier: GPL-2.0-only
//! Swift test vectors: plain const data run by host tests (`core/tests/swift.rs`) and by KUnit.
//!
//! Every expectation was computed by hand from the paper's equations (Swift Alg. 1, §3.3-§3.5):
//! the comment beside it gives the real-valued paper arithmetic first, then the integer path of
//! the documented fixed-point scales (windows in packets Q20, factors in Q16, bytes Q16 =
//! `w_q20 * mss / 16`, all rounding down). Unless stated otherwise the MSS is 1024 bytes, so
//! `bytes_q16 = w_q20 * 64`, and the configuration is [`BASE`] (the defaults without flow
//! scaling, so the fabric target is the fixed 25 µs base target).
//!
//! Notation: `W` = window in packets; `T` = target; `d` = fabric delay; `2^20` = one packet.
//!
//! Uses `super::swift`, `super::vectors`, `super::event` and `super::fixed` only.

use super::event::{
    AckEvent, LossEvent, LossKind, Reason, ACK_APP_LIMITED, ACK_DELAYED, ACK_HAS_HOPS,
    ACK_HAS_REMOTE_DELAY, ACK_HAS_RTT, ACK_IN_RECOVERY,
};
use super::fixed::PKT_Q20_ONE;
use super::swift::{Config, Params};
use super::vectors::{ack, exact, Case, Expect, Input, Mismatch, Step};

/// MSS of most cases, bytes.
const M: u32 = 1024;

/// The defaults with flow-based scaling off (fixed 25 µs fabric target, 0 hops).
pub const BASE: Config = Config {
    fs_range_ns: 0,
    ..Config::DEFAULT
};

const fn us(v: u64) -> u64 {
    v.saturating_mul(1000)
}

/// ACK at `now_us` with an RTT of `rtt_us` acknowledging `acked` bytes, MSS 1024.
const fn a(now_us: u64, rtt_us: u64, acked: u32) -> AckEvent {
    ack(us(now_us), us(rtt_us), acked, M)
}

const fn with_flags(ev: AckEvent, flags: u32) -> AckEvent {
    let mut e = ev;
    e.flags |= flags;
    e
}

const fn with_remote(ev: AckEvent, remote_ns: u64) -> AckEvent {
    let mut e = with_flags(ev, ACK_HAS_REMOTE_DELAY);
    e.remote_delay_ns = remote_ns;
    e
}

const fn with_hops(ev: AckEvent, hops: u8) -> AckEvent {
    let mut e = with_flags(ev, ACK_HAS_HOPS);
    e.hops = hops;
    e
}

const fn with_mss(ev: AckEvent, mss: u32) -> AckEvent {
    let mut e = ev;
    e.mss_bytes = mss;
    e
}

const fn no_rtt(ev: AckEvent) -> AckEvent {
    let mut e = ev;
    e.flags &= !ACK_HAS_RTT;
    e
}

const fn on(ev: AckEvent, want: Expect) -> Step {
    Step {
        input: Input::Ack(ev),
        expect: Some(want),
    }
}

const fn loss(now_us: u64, kind: LossKind, want: Expect) -> Step {
    Step {
        input: Input::Loss(LossEvent {
            now_ns: us(now_us),
            mss_bytes: M,
            kind,
        }),
        expect: Some(want),
    }
}

const fn init(mss_bytes: u32, want: Expect) -> Step {
    Step {
        input: Input::Init {
            now_ns: 0,
            mss_bytes,
        },
        expect: Some(want),
    }
}

const fn undo(want: Expect) -> Step {
    Step {
        input: Input::Undo { mss_bytes: M },
        expect: Some(want),
    }
}

const fn idle(now_us: u64, want: Expect) -> Step {
    Step {
        input: Input::IdleRestart {
            now_ns: us(now_us),
            mss_bytes: M,
        },
        expect: Some(want),
    }
}

const AI: Reason = Reason::AdditiveIncrease;
const MD: Reason = Reason::MultiplicativeDecrease;
const GUARD: Reason = Reason::DecreaseGuarded;

// Values that recur. W = 10 -> AI with one packet acked: 10 + 1/10 = 10.1 packets.
// Q20: 10 * 2^20 = 10485760; inc = 2^20 * 2^20 / 10485760 = 104857.6 -> 104857;
// W = 10590617 -> bytes 10590617 * 64 = 677799488 (real 10.1 * 1024 * 65536 = 677799526.4).
const W10_BYTES: u64 = 671_088_640; // 10 * 1024 * 65536, exact
const W10_1_BYTES: u64 = 677_799_488;
// Second AI: 10.1 + 1/10.1 = 10.19901 packets (real bytes 684443968.4). Q20: inc =
// 2^40 / 10590617 = 103819.6 -> 103819; W = 10694436 -> bytes 684443904.
const W10_2_BYTES: u64 = 684_443_904;
// MD of W = 10 at d = 50 µs, T = 25 µs: factor max(1 - 0.8 * 25/50, 0.5) = 0.6 -> W = 6
// (real bytes 402653184). Q16: cut = 52429 * 25000 / 50000 = 26214.5 -> 26214; factor 39322;
// W = 10485760 * 39322 / 65536 = 6291520 (6.00006 packets) -> bytes 402657280.
const W6_BYTES: u64 = 402_657_280;
// Loss halving of W = 10.1 (Q20 10590617): 5.05 packets (real bytes 338899763.2);
// 10590617 * 32768 / 65536 = 5295308.5 -> 5295308 -> bytes 338899712.
const W5_05_BYTES: u64 = 338_899_712;
// AI from 5.05: 5.05 + 1/5.05 = 5.24802 packets (real bytes 352188647.2);
// inc = 2^40 / 5295308 = 207638.6 -> 207638; W = 5502946 -> bytes 352188544.
const W5_25_BYTES: u64 = 352_188_544;

/// An ACK at 1210 µs with a 20 µs RTT, nothing acked and no option: the binding endpoint
/// window of `missing_option_fabric_only_per_ack_and_endpoint_expiry` (bytes 445948800) holds.
const MISS: Step = on(a(1210, 20, 0), w(445_948_800, AI));

/// Shorthand: exact window, no pacing.
const fn w(bytes_q16: u64, reason: Reason) -> Expect {
    exact(bytes_q16, 0, reason)
}

/// The Swift vector table.
pub const CASES: &[Case<Config>] = &[
    Case {
        name: "init_and_additive_increase",
        config: BASE,
        steps: &[
            // Init: W = 10 packets (init_cwnd) -> 10 * 1024 * 65536 = 671088640; W >= 1: unpaced.
            init(M, w(W10_BYTES, Reason::Init)),
            // d = 20 µs < T = 25 µs: Alg. 1 line 8, W = 10 + 1/10 * 1 = 10.1 (see W10_1_BYTES).
            on(a(100, 20, 1024), w(W10_1_BYTES, AI)),
            // Again: 10.1 + 1/10.1 = 10.199 (see W10_2_BYTES).
            on(a(110, 20, 1024), w(W10_2_BYTES, AI)),
        ],
    },
    Case {
        name: "fractional_window_increase_and_pacing",
        config: Config {
            init_cwnd_pkts_q20: PKT_Q20_ONE / 2,
            ..BASE
        },
        steps: &[
            // W = 0.5: bytes 0.5 * 1024 * 65536 = 33554432. Alg. 1 line 30: one packet every
            // rtt/W; no RTT sample yet, so the 25 µs target stands in: 0.5 * 1024 B / 25 µs =
            // 20480000 B/s. Integer: 524288 * 1024 * 1e9 / (25000 << 20) = 20480000 exactly.
            init(M, exact(33_554_432, 20_480_000, Reason::Init)),
            // d = 40 >= 25, first decrease allowed: factor 1 - 0.8 * 15/40 = 0.7, W = 0.35
            // (real bytes 23488102.4, pace 0.35 * 1024 / 40 µs = 8960000 B/s).
            // Q16: cut = 52429 * 15000 / 40000 = 19660.9 -> 19660, factor 45876;
            // W = 524288 * 45876 / 65536 = 367008 -> bytes 23488512;
            // pace = 367008 * 1024 * 1e9 / (40000 << 20) = 8960156.25 -> 8960156.
            on(a(100, 40, 0), exact(23_488_512, 8_960_156, MD)),
            // d = 20 < 25 with half a packet acked; W < 1: Alg. 1 line 10, W += ai * 0.5 = 0.85
            // (real bytes 57042534.4, pace 0.85 * 1024 / 20 µs = 43520000 B/s).
            // Q20: acked = 512 * 2^20 / 1024 = 524288, inc = 2^20 * 524288 / 2^20 = 524288;
            // W = 891296 -> bytes 57042944; pace = 891296 * 1024 * 1e9 / (20000 << 20)
            // = 43520312.5 -> 43520312.
            on(a(110, 20, 512), exact(57_042_944, 43_520_312, AI)),
            // Still W < 1 before the ACK: line 10 adds a whole packet, W = 1.85 >= 1: unpaced
            // (real bytes 124151398.4). Q20: 891296 + 1048576 = 1939872 -> bytes 124151808.
            on(a(120, 20, 1024), w(124_151_808, AI)),
        ],
    },
    Case {
        name: "decrease_once_per_rtt_strict_guard",
        config: BASE,
        steps: &[
            // d = 50 >= 25: W = 10 * 0.6 = 6 (see W6_BYTES); t_last_decrease = 1000 µs.
            on(a(1000, 50, 0), w(W6_BYTES, MD)),
            // 10 µs later: 10 < rtt 50, the decrease is guarded (Alg. 1 line 3); the strict
            // guard does not refresh t_last_decrease on an unchanged window.
            on(a(1010, 50, 0), w(W6_BYTES, GUARD)),
            // 49 µs after the decrease: still guarded.
            on(a(1049, 50, 0), w(W6_BYTES, GUARD)),
            // 50 µs after: decrease again, 6 * 0.6 = 3.6 (real bytes 241591910.4).
            // Q16: 6291520 * 39322 / 65536 = 3774950.4 -> 3774950 -> bytes 241596800.
            on(a(1050, 50, 0), w(241_596_800, MD)),
        ],
    },
    Case {
        name: "decrease_capped_at_max_mdf",
        config: BASE,
        steps: &[
            // d = 200: 1 - 0.8 * 175/200 = 0.3 < 1 - max_mdf = 0.5, so the factor is 0.5: W = 5
            // (bytes 5 * 1024 * 65536 = 335544320). Q16: cut = 52429 * 175000 / 200000 =
            // 45875.4 -> 45875 > 32768 -> 32768; 10485760 * 32768 / 65536 = 5242880 exactly.
            on(a(1000, 200, 0), w(335_544_320, MD)),
        ],
    },
    Case {
        name: "literal_guard_postpones_decrease",
        config: Config {
            literal_decrease_guard: 1,
            ..BASE
        },
        steps: &[
            // As in decrease_once_per_rtt_strict_guard: W = 6.
            on(a(1000, 50, 0), w(W6_BYTES, MD)),
            // Guarded; W <= W_prev, so the literal line 27 moves t_last_decrease to 1010 µs.
            on(a(1010, 50, 0), w(W6_BYTES, GUARD)),
            // 1050: 40 µs since 1010 < 50: still guarded (the strict guard decreased here).
            on(a(1050, 50, 0), w(W6_BYTES, GUARD)),
            // 1060: only 10 µs since the refresh at 1050: guarded again. Each guarded ACK
            // pushes the next decrease out: the hazard of spec §2.4 interpretation 1.
            on(a(1060, 50, 0), w(W6_BYTES, GUARD)),
            // Only a gap of a whole RTT without ACKs lets the decrease through: 1110 - 1060.
            on(a(1110, 50, 0), w(241_596_800, MD)),
        ],
    },
    Case {
        name: "flow_scaling_raises_target",
        config: Config {
            init_cwnd_pkts_q20: PKT_Q20_ONE,
            ..Config::DEFAULT
        },
        steps: &[
            init(M, w(67_108_864, Reason::Init)),
            // W = 1: T = 25 + 100 * (1/sqrt(1) - 1/sqrt(100)) / (1/sqrt(0.1) - 1/sqrt(100))
            //        = 25 + 100 * 0.9 / 3.0622777 = 54.39 µs (integer path: 54389 ns).
            // d = 50 < 54.39: additive increase, W = 1 + 1/1 = 2 (exact: 2097152 -> 134217728).
            // Without flow scaling (T = 25) this ACK would have decreased the window.
            on(a(1000, 50, 1024), w(134_217_728, AI)),
            // W = 2: T = 25 + 100 * (0.7071068 - 0.1) / 3.0622777 = 44.8253 µs (integer 44825).
            // d = 50 >= T: factor 1 - 0.8 * (50 - 44.8253)/50 = 0.9172053, W = 1.8344107
            // (real bytes 123105217.9). Integer: cut = 52429 * 5175 / 50000 = 5426.4 -> 5426,
            // W = 2097152 * 60110 / 65536 = 1923520 -> bytes 123105280. The tolerance of 1/16
            // byte covers the rounding of the target (<= 1 ns: <= 2.2e3 units here) and of the
            // factor (< 1/65536 of W: < 2.1e3 units).
            on(
                a(1100, 50, 0),
                Expect {
                    cwnd_bytes_q16: 123_105_218,
                    cwnd_tol: 4_096,
                    pacing_rate_bps: 0,
                    pacing_tol: 0,
                    reason: Some(MD),
                },
            ),
        ],
    },
    Case {
        name: "flow_scaling_full_range_below_fs_min",
        config: Config {
            init_cwnd_pkts_q20: 52_429, // 0.05 packet = 52428.8 -> 52429
            ..Config::DEFAULT
        },
        steps: &[
            // W = 0.05 <= fs_min_cwnd = 0.1: T = 25 + fs_range = 125 µs. No RTT yet: pace at
            // 0.05 * 1024 B / 125 µs = 409600 B/s. Integer: bytes 52429 * 64 = 3355456;
            // pace = 52429 * 1024 * 1e9 / (125000 << 20) = 409601.6 -> 409601.
            init(M, exact(3_355_456, 409_601, Reason::Init)),
            // d = 120 < 125: W < 1, W += 1 = 1.05 (real bytes 70464307.2); 52429 + 1048576 =
            // 1101005 -> bytes 70464320; W >= 1: unpaced.
            on(a(1000, 120, 1024), w(70_464_320, AI)),
        ],
    },
    Case {
        name: "topology_scaling_per_hop",
        config: BASE,
        steps: &[
            // Init at 0 (a lazy init on the first ACK would anchor t_last_decrease at 1000 µs
            // and guard the decrease below).
            init(M, w(W10_BYTES, Reason::Init)),
            // The ACK echoes 5 hops: T = 25 + 5 * 1 = 30 µs; d = 28 < 30: AI to 10.1.
            on(with_hops(a(1000, 28, 1024), 5), w(W10_1_BYTES, AI)),
            // No hop echo: the stored 5 hops still apply: AI to 10.199.
            on(a(1010, 28, 1024), w(W10_2_BYTES, AI)),
            // Echo of 0 hops: T = 25 <= d = 28: factor 1 - 0.8 * 3/28 = 0.9142857, W = 10.199 *
            // 0.9142857 = 9.32481 (real bytes 625777342.5). Q16: cut = 52429 * 3000 / 28000 =
            // 5617.4 -> 5617, factor 59919; W = 10694436 * 59919 / 65536 = 9777830.2 ->
            // 9777830 -> bytes 625781120.
            on(with_hops(a(1020, 28, 0), 0), w(625_781_120, MD)),
        ],
    },
    Case {
        name: "rto_backoff_then_reset_to_min",
        config: BASE,
        steps: &[
            on(a(100, 20, 1024), w(W10_1_BYTES, AI)),
            // RTO 1: retransmit_cnt = 1 < 3; 200 - 0 >= rtt 20: W = 10.1 * 0.5 = 5.05
            // (Alg. 1 line 21; see W5_05_BYTES).
            loss(
                200,
                LossKind::RetransmitTimeout,
                w(W5_05_BYTES, Reason::RetransmitTimeout),
            ),
            // RTO 2 after 10 µs < rtt 20: guarded, W unchanged.
            loss(210, LossKind::RetransmitTimeout, w(W5_05_BYTES, GUARD)),
            // RTO 3: retransmit_cnt = 3 >= RETX_RESET_THRESHOLD: W = min_cwnd = 0.001 (line 18).
            // Real: bytes 0.001 * 1024 * 65536 = 67108.9, pace 0.001 * 1024 B / 20 µs = 51200 B/s.
            // Q20 min_cwnd = 1049 (0.0010004 packet): bytes 1049 * 64 = 67136;
            // pace = 1049 * 1024 * 1e9 / (20000 << 20) = 51220.7 -> 51220.
            loss(
                300,
                LossKind::RetransmitTimeout,
                exact(67_136, 51_220, Reason::RetransmitReset),
            ),
            // An ACK of new data resets retransmit_cnt (line 4). W < 1: W += 1 = 1.001
            // (real bytes 67175972.9); 1049 + 1048576 = 1049625 -> bytes 67176000; unpaced.
            on(a(400, 20, 1024), w(67_176_000, AI)),
            // RTO again: count 1, 500 - 300 >= 20: W = 1.001 * 0.5 = 0.5005 (real bytes
            // 33587986.4, pace 0.5005 * 1024 / 20 µs = 25625600 B/s). Q20: 1049625 / 2 =
            // 524812.5 -> 524812 -> bytes 33587968; pace = 524812 * 1024 * 1e9 / (20000 << 20)
            // = 25625585.9 -> 25625585.
            loss(
                500,
                LossKind::RetransmitTimeout,
                exact(33_587_968, 25_625_585, Reason::RetransmitTimeout),
            ),
        ],
    },
    Case {
        name: "fast_recovery_and_undo",
        config: BASE,
        steps: &[
            on(a(100, 20, 1024), w(W10_1_BYTES, AI)),
            // Fast recovery: W = 10.1 * (1 - 0.5) = 5.05 (Alg. 1 line 25); 10.1 is saved for undo.
            loss(
                200,
                LossKind::FastRecovery,
                w(W5_05_BYTES, Reason::FastRecovery),
            ),
            // An ACK inside recovery: AI to 5.248 (see W5_25_BYTES); the undo stays armed.
            on(
                with_flags(a(210, 20, 1024), ACK_IN_RECOVERY),
                w(W5_25_BYTES, AI),
            ),
            // Spurious: undo restores max(5.248, 10.1) = 10.1.
            undo(w(W10_1_BYTES, Reason::Undo)),
            // Nothing left to undo.
            undo(w(W10_1_BYTES, Reason::Hold)),
        ],
    },
    Case {
        name: "undo_after_episode_end_is_ignored",
        config: BASE,
        steps: &[
            on(a(100, 20, 1024), w(W10_1_BYTES, AI)),
            loss(
                200,
                LossKind::FastRecovery,
                w(W5_05_BYTES, Reason::FastRecovery),
            ),
            // An ACK outside recovery ends the episode (AI to 5.248)...
            on(a(210, 20, 1024), w(W5_25_BYTES, AI)),
            // ...so a late undo changes nothing.
            undo(w(W5_25_BYTES, Reason::Hold)),
        ],
    },
    Case {
        name: "before_init_ack",
        config: BASE,
        steps: &[
            // No init: the first ACK initialises W = 10 and is then processed: AI to 10.1.
            on(a(5000, 20, 1024), w(W10_1_BYTES, AI)),
        ],
    },
    Case {
        name: "before_init_rto",
        config: BASE,
        steps: &[
            // No init, no RTT: W = 10 lazily; the first decrease is allowed: 10 * 0.5 = 5
            // (bytes 335544320 exactly).
            loss(
                1000,
                LossKind::RetransmitTimeout,
                w(335_544_320, Reason::RetransmitTimeout),
            ),
        ],
    },
    Case {
        name: "before_init_undo_and_idle",
        config: BASE,
        steps: &[
            // Undo with nothing saved: lazily W = 10, Hold.
            undo(w(W10_BYTES, Reason::Hold)),
            // Idle restart keeps the window (paper silent).
            idle(1000, w(W10_BYTES, Reason::IdleRestart)),
        ],
    },
    Case {
        name: "hostile_rtt_values",
        config: BASE,
        steps: &[
            // RTT flagged but 0: clamped to 1 ns, d = 1 ns < 25 µs: AI to 10.1.
            on(a(1000, 0, 1024), w(W10_1_BYTES, AI)),
            // RTT u64::MAX: clamped to 10 s; 1 - 0.8 * (10 s - 25 µs)/10 s = 0.2 < 0.5, so
            // W = 10.1 * 0.5 = 5.05 (see W5_05_BYTES; Q16 cut 52428 -> capped at 32768).
            on(ack(us(2000), u64::MAX, 0, M), w(W5_05_BYTES, MD)),
            // The stored RTT is now 10 s: a 50 µs sample 1 ms later cannot decrease yet.
            on(a(3000, 50, 0), w(W5_05_BYTES, GUARD)),
            // d = 20: AI to 5.248 (see W5_25_BYTES).
            on(a(4000, 20, 1024), w(W5_25_BYTES, AI)),
            // 4050 - 2000 >= the stored 20 µs: W = 5.248 * 0.6 = 3.14881 (real bytes
            // 211313188.3). Q16: 5502946 * 39322 / 65536 = 3301801.4 -> 3301801 -> 211315264.
            on(a(4050, 50, 0), w(211_315_264, MD)),
        ],
    },
    Case {
        name: "hostile_remote_delay_mss_and_clock",
        config: BASE,
        steps: &[
            init(M, w(W10_BYTES, Reason::Init)),
            // Remote delay u64::MAX > RTT 60 µs: clamped to the RTT, so the fabric delay is 0:
            // fcwnd AI to 10.1. The endpoint delay 60 µs >= 50 µs: ecwnd = 256 * (1 - 0.8 *
            // 10/60) = 221.87, not binding (reason and window from fcwnd).
            on(with_remote(a(1000, 60, 1024), u64::MAX), w(W10_1_BYTES, AI)),
            // MSS 0: the stored 1024 is used: AI to 10.199.
            on(with_mss(a(1010, 20, 1024), 0), w(W10_2_BYTES, AI)),
            // d = 50: W = 10.199 * 0.6 = 6.11941 (real bytes 410666381.0); Q16 10694436 *
            // 39322 / 65536 = 6416726.4 -> 6416726 -> bytes 410670464. t_last_decrease = 2000.
            on(a(2000, 50, 0), w(410_670_464, MD)),
            // The clock goes back to 1500 µs: treated as no time passed; the guard re-anchors at
            // 1500 and holds.
            on(a(1500, 50, 0), w(410_670_464, GUARD)),
            // 1540: 40 µs since the re-anchor < 50: held.
            on(a(1540, 50, 0), w(410_670_464, GUARD)),
            // 1550: a whole RTT after the re-anchor: W = 6.11941 * 0.6 = 3.67164 (real bytes
            // 246399828.6); Q16 6416726 * 39322 / 65536 = 3850074.0 -> bytes 246404736.
            on(a(1550, 50, 0), w(246_404_736, MD)),
        ],
    },
    Case {
        name: "no_sample_delayed_ack_and_app_limited",
        config: BASE,
        steps: &[
            // No RTT sample: nothing to compare with the target, W = 10 held.
            on(no_rtt(a(100, 0, 1024)), w(W10_BYTES, Reason::NoSample)),
            // A possibly-delayed ACK (500 µs RTT): its delay may include the receiver's ACK
            // timer, so it cannot justify a decrease: W = 10 held (guarded).
            on(
                with_flags(a(110, 500, 1024), ACK_DELAYED),
                w(W10_BYTES, GUARD),
            ),
            // Application-limited, below target: no growth.
            on(
                with_flags(a(120, 20, 1024), ACK_APP_LIMITED),
                w(W10_BYTES, Reason::Hold),
            ),
            // Application-limited, above target: decreases still apply: W = 6.
            on(with_flags(a(130, 50, 0), ACK_APP_LIMITED), w(W6_BYTES, MD)),
            // A possibly-delayed ACK below target (20 µs < 25 µs): the true delay is even
            // smaller, so the increase applies: W = 6 + 1/6 = 6.1667 (Alg. 1 line 8). Q20: the
            // MD left 10485760 * 39322 / 65536 = 6291520 (see W6_BYTES); + 2^40 / 6291520 =
            // 174760 (floor of 174760.89) = 6466280; bytes Q16 = 6466280 * 1024 / 16 = 413841920.
            on(
                with_flags(a(140, 20, 1024), ACK_DELAYED),
                w(413_841_920, AI),
            ),
            // A possibly-delayed ACK far above target at 200 µs (a whole RTT after the last
            // decrease at 130): still no decrease from a delayed sample: held.
            on(
                with_flags(a(200, 500, 0), ACK_DELAYED),
                w(413_841_920, GUARD),
            ),
        ],
    },
    Case {
        name: "acked_bytes_without_usable_delay_carry_to_the_next_sample",
        config: BASE,
        steps: &[
            init(M, w(W10_BYTES, Reason::Init)),
            // No RTT sample, 1 packet acked: held; its 1024 bytes wait for the next sample.
            on(no_rtt(a(100, 0, 1024)), w(W10_BYTES, Reason::NoSample)),
            // A usable sample below target (20 µs < 25 µs), 1 more packet: num_acked = 2, so
            // W = 10 + 1/10 * 2 = 10.2 (Alg. 1 line 8). Q20: 2^20 * 2^21 / 10485760 = 209715.2
            // -> 209715; W = 10695475; bytes Q16 = 10695475 * 1024 / 16 = 684510400.
            on(a(110, 20, 1024), w(684_510_400, AI)),
            // The carry is consumed: a further below-target packet adds 1/10.2 only. Q20:
            // 2^40 / 10695475 = 102801.6 -> 102801; W = 10798276; bytes = 691089664.
            on(a(120, 20, 1024), w(691_089_664, AI)),
        ],
    },
    Case {
        name: "max_cwnd_clamp",
        config: Config {
            max_cwnd_pkts_q20: 12 * PKT_Q20_ONE,
            init_cwnd_pkts_q20: 12 * PKT_Q20_ONE,
            ..BASE
        },
        steps: &[
            // u32::MAX bytes acked: 12 + 1/12 * 4194304 packets, clamped to max_cwnd = 12
            // (bytes 12 * 1024 * 65536 = 805306368, Alg. 1 line 26).
            on(a(100, 20, u32::MAX), w(805_306_368, AI)),
        ],
    },
    Case {
        name: "endpoint_window_binding",
        config: Config {
            max_cwnd_pkts_q20: 16 * PKT_Q20_ONE,
            ..BASE
        },
        steps: &[
            // RTT 100, remote 90: fabric 10 < 25: fcwnd AI to 10.1. Endpoint delay 90 >= 50
            // (first sample, EWMA starts at it): ecwnd = 16 * (1 - 0.8 * 40/90) = 10.3111;
            // Q16 cut 52429 * 40000 / 90000 = 23301.8 -> 23301, factor 42235; ecwnd =
            // 16777216 * 42235 / 65536 = 10812160 (10.3113). min(10.1, 10.31) = fcwnd.
            on(with_remote(a(1000, 100, 1024), us(90)), w(W10_1_BYTES, AI)),
            // 200 µs later (>= rtt 100): fcwnd AI to 10.199; EWMA stays 90: ecwnd = 10.3111 *
            // 0.5555... = 6.64494 (real bytes 445934258.8) is now binding. Q16: 10812160 *
            // 42235 / 65536 = 6967950 -> bytes 445948800.
            on(with_remote(a(1200, 100, 1024), us(90)), w(445_948_800, MD)),
            // RTT 20, remote 10 (fabric 10: fcwnd AI). EWMA: 90 + (10 - 90)/8 = 80 µs >= 50,
            // but only 50 µs since the endpoint decrease < rtt 100: guarded, ecwnd binding.
            on(
                with_remote(a(1250, 20, 1024), us(10)),
                w(445_948_800, GUARD),
            ),
            // EWMA: 80 + (10 - 80)/8 = 71.25 µs; 100 µs since the decrease >= rtt 20:
            // factor 1 - 0.8 * 21.25/71.25 = 0.7614035, ecwnd = 5.05953 (real bytes
            // 339535909.3). Q16: cut = 52429 * 21250 / 71250 = 15636.7 -> 15636, factor 49900;
            // ecwnd = 6967950 * 49900 / 65536 = 5305491.6 -> 5305491 -> bytes 339551424.
            on(with_remote(a(1300, 20, 1024), us(10)), w(339_551_424, MD)),
        ],
    },
    Case {
        name: "missing_option_fabric_only_per_ack_and_endpoint_expiry",
        config: Config {
            max_cwnd_pkts_q20: 16 * PKT_Q20_ONE,
            ..BASE
        },
        steps: &[
            // As in endpoint_window_binding: fcwnd 10.1, ecwnd 10.3113 (not binding) ...
            on(with_remote(a(1000, 100, 1024), us(90)), w(W10_1_BYTES, AI)),
            // ... then fcwnd 10.199 and ecwnd 6.64494 (bytes 445948800), which binds.
            on(with_remote(a(1200, 100, 1024), us(90)), w(445_948_800, MD)),
            // 15 ACKs with an RTT of 20 µs and no option (D8b miss 1..15): fabric-only on the
            // whole RTT, 20 < 25: AI by 0 acked bytes (fcwnd unchanged); ecwnd still binds.
            MISS,
            MISS,
            MISS,
            MISS,
            MISS,
            MISS,
            MISS,
            MISS,
            MISS,
            MISS,
            MISS,
            MISS,
            MISS,
            MISS,
            MISS,
            // Miss 16 = ENDPOINT_STALE_ACKS: ecwnd expires to max_cwnd (16); cwnd = fcwnd
            // = 10.199 packets (Q20 10694436, bytes W10_2_BYTES).
            on(a(1220, 20, 0), w(W10_2_BYTES, AI)),
            // RTT 100 µs, no option: the fabric delay is the whole 100 µs (not 100 - the 90 µs
            // of an earlier ACK, which would give 10 < 25 and an AI). 1400 - 0 (no fabric
            // decrease yet) >= rtt 20: factor max(1 - 0.8 * 75/100, 0.5) = 0.5: fcwnd =
            // 10.199 / 2 = 5.09950 (real bytes 342221952.0); Q20 10694436 * 32768 / 65536 =
            // 5347218 -> bytes 342221952.
            on(a(1400, 100, 0), w(342_221_952, MD)),
        ],
    },
    Case {
        name: "mss_1448_conversion",
        config: BASE,
        steps: &[
            // 10 packets of 1448 bytes: 10 * 1448 * 65536 = 948961280 (10485760 * 1448 / 16,
            // exact).
            init(1448, w(948_961_280, Reason::Init)),
            // AI to 10.1: real bytes 10.1 * 1448 * 65536 = 958450892.8;
            // Q20 10590617 * 1448 / 16 = 958450838.5 -> 958450838.
            on(with_mss(a(100, 20, 1448), 1448), w(958_450_838, AI)),
            // Half a packet acked (724 bytes): 10.1 + 0.5/10.1 = 10.14950 (real bytes
            // 963148720.9). Q20: acked 524288; inc = 2^20 * 524288 / 10590617 = 51909.8 ->
            // 51909; W = 10642526 -> 10642526 * 1448 / 16 = 963148603.
            on(with_mss(a(110, 20, 724), 1448), w(963_148_603, AI)),
        ],
    },
    Case {
        name: "idle_restart_keeps_window",
        config: BASE,
        steps: &[
            on(a(100, 20, 1024), w(W10_1_BYTES, AI)),
            idle(10_000, w(W10_1_BYTES, Reason::IdleRestart)),
        ],
    },
];

/// Run every case: validate its configuration, then [`run_steps`](crate::vectors::run_steps). Returns the number of cases
/// passed, or the index of the first failing case and its mismatch. A configuration that fails
/// validation is reported as a mismatch with `step == usize::MAX`.
pub fn run_all() -> Result<usize, (usize, Mismatch)> {
    super::vectors::run_cases::<super::swift::Swift, Config>(CASES, |c| Params::new(c).ok())
}
