// SPDX-License-Identifier: GPL-2.0-only
//! Swift VAI SF test vectors: plain const data run by host tests (`core/tests/vaisf.rs`) and by
//! KUnit.
//!
//! Every expectation was computed by hand from Snyder & Lebeck (SL Eq. 1, Alg. 1, Alg. 2, §IV-B,
//! §V-B) and Swift Alg. 1 (loss): the comment gives the real-valued arithmetic, then the integer
//! path of the documented scales (windows packets Q20, factors Q16, dampener Q16, bank in whole
//! tokens, bytes Q16 = `w_q20 * mss / 16`, rounding down). MSS is 1024 bytes, so
//! `bytes_q16 = w_q20 * 64`.
//!
//! Recurring numbers with the defaults (base target 5 µs, 0 hops, so t = 5 µs and Token_Thresh
//! = 9 µs): base_AI = 50 Mb/s * 5 µs = 31.25 bytes = 0.0305176 packet = 32000 in Q20, exactly.
//! Most cases use s = 3 ACKs instead of SL's 30 to keep the tables short.
//!
//! Uses `super::vaisf`, `super::vectors`, `super::event` and `super::fixed` only.

use super::event::{
    AckEvent, LossEvent, LossKind, Reason, ACK_APP_LIMITED, ACK_DELAYED, ACK_HAS_HOPS,
    ACK_HAS_REMOTE_DELAY, ACK_HAS_RTT, ACK_IN_RECOVERY,
};
use super::fixed::PKT_Q20_ONE;
use super::vaisf::{token_numerator, Config, Params};
use super::vectors::{exact, Case, Expect, Input, Mismatch, Step};

/// MSS of every case, bytes.
const M: u32 = 1024;

/// The defaults with a sampling frequency of 3 ACKs.
pub const SF3: Config = Config {
    sf_acks: 3,
    ..Config::DEFAULT
};

const fn us(v: u64) -> u64 {
    v.saturating_mul(1000)
}

/// ACK at `now_us`, RTT `rtt_us`, `acked` bytes, cumulative ACK `una`, `snd_nxt` `nxt`.
const fn v(now_us: u64, rtt_us: u64, acked: u32, una: u32, nxt: u32) -> AckEvent {
    AckEvent {
        now_ns: us(now_us),
        rtt_ns: us(rtt_us),
        remote_delay_ns: 0,
        delivered_bytes: 0,
        acked_bytes: acked,
        inflight_bytes: 0,
        mss_bytes: M,
        snd_una: una,
        snd_nxt: nxt,
        flags: ACK_HAS_RTT,
        hops: 0,
        _pad: [0; 3],
        local_rx_delay_ns: 0,
        telemetry: 0,
    }
}

const fn with_flags(ev: AckEvent, flags: u32) -> AckEvent {
    let mut e = ev;
    e.flags |= flags;
    e
}

const fn with_rtt_ns(ev: AckEvent, rtt_ns: u64) -> AckEvent {
    let mut e = ev;
    e.rtt_ns = rtt_ns;
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

const fn init(want: Expect) -> Step {
    Step {
        input: Input::Init {
            now_ns: 0,
            mss_bytes: M,
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

/// Exact window, unpaced.
const fn w(bytes_q16: u64, reason: Reason) -> Expect {
    exact(bytes_q16, 0, reason)
}

const AI: Reason = Reason::AdditiveIncrease;
const MD: Reason = Reason::MultiplicativeDecrease;
/// A decrease applied from the reference window but not committed (SF period not reached).
const PENDING: Reason = Reason::DecreaseGuarded;

// W = 10 packets: 10 * 1024 * 65536 = 671088640.
const W10: u64 = 671_088_640;
// W_ref 10 + base_AI: 10.0305176 packets = 10485760 + 32000 = 10517760 -> 673136640 (exact).
const W10_AI: u64 = 673_136_640;
// From W_ref = 10 at d = 10 µs: SL Eq. 1 factor max(1 - 0.8 * 5/10, 0.5) = 0.6, plus AI:
// 6.0305176 packets (real bytes 404701184). Q16: cut = 52429 * 5000 / 10000 = 26214.5 -> 26214,
// factor 39322; 10485760 * 39322 / 65536 = 6291520; + 32000 = 6323520 -> bytes 404705280.
const W6_AI: u64 = 404_705_280;
// From W_ref = 10 at d = 20 µs: 1 - 0.8 * 15/20 = 0.4 < 0.5, capped: 5 + AI = 5.0305176
// (exact: 5242880 + 32000 = 5274880 -> 337592320).
const W5_AI: u64 = 337_592_320;

/// The Swift VAI SF vector table.
pub const CASES: &[Case<Config>] = &[
    Case {
        name: "init_and_increase_once_per_rtt",
        config: SF3,
        steps: &[
            init(w(W10, Reason::Init)),
            // d = 4 < t = 5: W = W_ref + AI = 10.0305 (see W10_AI). The first ACK sets the RTT
            // marker to snd_nxt = 10240.
            on(v(100, 4, 1024, 0, 10240), w(W10_AI, AI)),
            // Same RTT: W is computed from W_ref again, not compounded: still 10.0305.
            on(v(110, 4, 1024, 1024, 11264), w(W10_AI, AI)),
            // snd_una reaches the marker: the increase is committed, W_ref = 10.0305 (SL §V-B:
            // increases once per RTT). The output is still W = 10.0305.
            on(v(120, 4, 1024, 10240, 20480), w(W10_AI, AI)),
            // Next RTT: W = 10.0305 + 0.0305 = 10.0610 (real bytes 675184640; Q20 10517760 +
            // 32000 = 10549760 -> 675184640, exact).
            on(v(130, 4, 1024, 11264, 21504), w(675_184_640, AI)),
        ],
    },
    Case {
        name: "decrease_from_reference_committed_every_s_acks",
        config: SF3,
        steps: &[
            // d = 10 >= 5: W = W_ref * 0.6 + AI = 6.0305 (see W6_AI), 1 ACK of s = 3: the
            // reference stays 10.
            on(v(100, 10, 1024, 0, 10240), w(W6_AI, PENDING)),
            // Again from W_ref = 10, not from 6.03: 6.0305 (SL §V-B: R/2 twice is still R/2).
            on(v(110, 10, 1024, 1024, 10240), w(W6_AI, PENDING)),
            // Third ACK: SF commits W_ref = 6.0305 (SL §IV-B).
            on(v(120, 10, 1024, 2048, 10240), w(W6_AI, MD)),
            // Now from W_ref = 6.0305: 6.0305 * 0.6 + 0.0305 = 3.64883 (real bytes 244868710.4).
            // Q16: 6323520 * 39322 / 65536 = 3794150.4 -> 3794150; + 32000 = 3826150 ->
            // bytes 244873600.
            on(v(130, 10, 1024, 3072, 10240), w(244_873_600, PENDING)),
            // d = 4 < 5: W = W_ref + AI = 6.0305 + 0.0305 = 6.06104 (real bytes 406749184);
            // 6323520 + 32000 = 6355520 -> 406753280.
            on(v(140, 4, 1024, 4096, 10240), w(406_753_280, AI)),
        ],
    },
    Case {
        name: "vai_tokens_raise_additive_increase",
        config: SF3,
        steps: &[
            // d = 20: W = 5.0305 (see W5_AI), pending. The RTT's largest delay is 20 µs.
            on(v(100, 20, 0, 0, 10240), w(W5_AI, PENDING)),
            // d = 4 at the RTT end: the increase W = 10.0305 is committed; then SL Alg. 1:
            // 20 > Token_Thresh = 5 + 4 = 9 µs: bank = (20 - 5) µs / 30 ns = 500 tokens;
            // dampener = 20/9 = 2.2222 (Q16 20000 * 65536 / 9000 = 145635.6 -> 145635).
            // This ACK's AI was computed before the mint: W = 10.0305.
            on(v(110, 4, 1024, 10240, 20480), w(W10_AI, AI)),
            // SL Alg. 2: tokens = min(100, 500) = 100; divisor = 2.2222/8 + 1 = 1.27778;
            // tokens = 78.2609; AI = 78.2609 * 0.0305176 = 2.38833 packets; W = 10.0305 +
            // 2.38833 = 12.41885 (real bytes 833414900.9). Integer: divisor 145635/8 = 18204.4
            // -> 18204 + 65536 = 83740; tokens_q16 = (100 << 16) * 65536 / 83740 = 5128931.6 ->
            // 5128931; AI = 32000 * 5128931 / 65536 = 2504360.8 -> 2504360;
            // W = 10517760 + 2504360 = 13022120 -> bytes 833415680.
            on(v(120, 4, 1024, 11264, 21504), w(833_415_680, AI)),
            // RTT end: the increase W = 12.4189 is committed and 100 tokens debited (bank 400);
            // congestion 4 µs <= 9 and the bank is not empty: dampener unchanged.
            on(v(130, 4, 1024, 20480, 30720), w(833_415_680, AI)),
            // Same AI again on the new reference: 12.41885 + 2.38833 = 14.80718 (real bytes
            // 993693161.7); 13022120 + 2504360 = 15526480 -> bytes 993694720.
            on(v(140, 4, 1024, 21504, 30720), w(993_694_720, AI)),
        ],
    },
    Case {
        name: "dampener_decays_then_resets",
        config: Config {
            ai_cap: 1000, // one commit can spend the whole bank
            ..SF3
        },
        steps: &[
            on(v(100, 20, 0, 0, 10240), w(W5_AI, PENDING)),
            // RTT end: bank 500, dampener 2.2222 (as in vai_tokens_raise_additive_increase).
            on(v(110, 4, 1024, 10240, 20480), w(W10_AI, AI)),
            // d = 6 >= 5 (congested, but below Token_Thresh 9). Third ACK since the start: SF
            // commits. AI = min(1000, 500)/1.27778 = 391.304 tokens * 0.0305176 = 11.94166;
            // W = 10.0305 * (1 - 0.8/6) + 11.94166 = 20.63478 (real bytes 1384776392.3): with
            // always-AI (SL §V-B) a large VAI outweighs the decrease. 500 tokens are debited;
            // then Alg. 1 at the RTT end: bank 0, congested, 6 < 9: dampener 2.2222 - 1 =
            // 1.2222. Integer: cut = 52429 * 1000 / 6000 = 8738.2 -> 8738, factor 56798;
            // 10517760 * 56798 / 65536 = 9115413.4 -> 9115413; tokens_q16 = (500 << 16) *
            // 65536 / 83740 = 25644657.8 -> 25644657; AI = 32000 * 25644657 / 65536 =
            // 12521805.2 -> 12521805; W = 21637218 -> bytes 1384781952.
            on(v(120, 6, 1024, 20480, 30720), w(1_384_781_952, MD)),
            // d = 4: W = 20.6348 + 0.0305 (bank empty: base AI); RTT end with no delay above
            // target and an empty bank: dampener reset to 0 (SL Alg. 1 lines 8-9).
            // 21637218 + 32000 = 21669218 -> bytes 1386829952 (real 1386824392.3).
            on(v(130, 4, 1024, 30720, 40960), w(1_386_829_952, AI)),
        ],
    },
    Case {
        name: "sf_off_commits_decrease_at_rtt_end",
        config: Config {
            sf_acks: 0,
            ..Config::DEFAULT
        },
        steps: &[
            // d = 10: W = 6.0305 pending (no SF: wait for the RTT end).
            on(v(100, 10, 1024, 0, 10240), w(W6_AI, PENDING)),
            on(v(110, 10, 1024, 5120, 10240), w(W6_AI, PENDING)),
            // RTT end: the decrease is committed (W_ref = 6.0305). Alg. 1: 10 > 9: bank =
            // (10 - 5) µs / 30 ns = 166.7 -> 166, dampener = 10/9 = 1.1111 (Q16 72817).
            on(v(120, 10, 1024, 10240, 20480), w(W6_AI, MD)),
            // AI = min(100, 166)/(1.1111/8 + 1) = 87.805 tokens * 0.0305176 = 2.67960;
            // W = 6.0305 * 0.6 + 2.6796 = 6.29790 (real bytes 422645100.6).
            // Integer: 6323520 * 39322 / 65536 = 3794150.6 -> 3794150; divisor 72817/8 =
            // 9102.1 -> 9102 + 65536 = 74638; tokens_q16 = (100 << 16) * 65536 / 74638 =
            // 5754397.6 -> 5754397; AI = 32000 * 5754397 / 65536 = 2809764.2 -> 2809764;
            // W = 6603914 -> bytes 422650496.
            on(v(130, 10, 1024, 11264, 20480), w(422_650_496, PENDING)),
        ],
    },
    Case {
        name: "loss_rto_fast_recovery_undo",
        config: Config::DEFAULT,
        steps: &[
            init(w(W10, Reason::Init)),
            on(v(100, 4, 1024, 0, 10240), w(W10_AI, AI)),
            // Fast recovery: W = W_ref = 10.0305 * 0.5 = 5.01526 (Swift Alg. 1 line 25; real
            // bytes 336568320); 10517760 / 2 = 5258880 -> 336568320, exact.
            loss(
                200,
                LossKind::FastRecovery,
                w(336_568_320, Reason::FastRecovery),
            ),
            // In recovery: W = 5.01526 + 0.0305 = 5.04578: 5258880 + 32000 = 5290880 ->
            // 338616320.
            on(
                with_flags(v(210, 4, 1024, 1024, 10240), ACK_IN_RECOVERY),
                w(338_616_320, AI),
            ),
            // Spurious: undo restores 10.0305.
            undo(w(W10_AI, Reason::Undo)),
            // RTO 1: 300 - 200 >= rtt 4 µs: halve to 5.01526.
            loss(
                300,
                LossKind::RetransmitTimeout,
                w(336_568_320, Reason::RetransmitTimeout),
            ),
            // RTO 2 after 2 µs < 4: guarded.
            loss(
                302,
                LossKind::RetransmitTimeout,
                w(336_568_320, Reason::DecreaseGuarded),
            ),
            // RTO 3: RETX_RESET_THRESHOLD: min_cwnd 0.001 (Q20 1049 -> bytes 67136), paced at
            // 0.001 * 1024 B / 4 µs = 256000 B/s; integer 1049 * 1024 * 1e9 / (4000 << 20) =
            // 256103.5 -> 256103.
            loss(
                400,
                LossKind::RetransmitTimeout,
                exact(67_136, 256_103, Reason::RetransmitReset),
            ),
            // W = W_ref + AI = 0.001 + 0.0305 = 0.0315176 (real bytes 2115108.9, pace 0.0315176
            // * 1024 / 4 µs = 8068500 B/s). Q20 1049 + 32000 = 33049 -> bytes 2115136; pace
            // 33049 * 1024 * 1e9 / (4000 << 20) = 8068603.5 -> 8068603.
            on(
                v(500, 4, 1024, 2048, 10240),
                exact(2_115_136, 8_068_603, AI),
            ),
        ],
    },
    Case {
        name: "before_init_ack",
        config: Config::DEFAULT,
        steps: &[
            // Lazy init to W = W_ref = 10, then the ACK: 10.0305.
            on(v(1000, 4, 1024, 0, 10240), w(W10_AI, AI)),
        ],
    },
    Case {
        name: "before_init_rto",
        config: Config::DEFAULT,
        steps: &[
            // Lazy init to 10; no RTT yet, so the first decrease is allowed: 5 (exact).
            loss(
                1000,
                LossKind::RetransmitTimeout,
                w(335_544_320, Reason::RetransmitTimeout),
            ),
        ],
    },
    Case {
        name: "before_init_undo_and_idle",
        config: Config::DEFAULT,
        steps: &[
            undo(w(W10, Reason::Hold)),
            idle(1000, w(W10, Reason::IdleRestart)),
        ],
    },
    Case {
        name: "hops_raise_target_and_ai",
        config: SF3,
        steps: &[
            // 3 hops: t = 5 + 3 * 2 = 11 µs; d = 10 < 11: increase. base_AI at 11 µs =
            // 6.25e6 * 11e-6 = 68.75 bytes = 0.0671387 packet = 70400 in Q20 (exact):
            // W = 10485760 + 70400 = 10556160 -> bytes 675594240.
            on(with_hops(v(100, 10, 1024, 0, 10240), 3), w(675_594_240, AI)),
            // d = 12 >= 11: factor 1 - 0.8 * 1/12 = 0.933333; W = 10 * 0.93333 + 0.06714 =
            // 9.40047 (real bytes 630854997.3). Q16: cut = 52429 * 1000 / 12000 = 4369.1 ->
            // 4369, factor 61167; 10485760 * 61167 / 65536 = 9786720; + 70400 = 9857120 ->
            // bytes 630855680.
            on(v(110, 12, 1024, 1024, 10240), w(630_855_680, PENDING)),
        ],
    },
    Case {
        name: "bank_cap_ai_cap_and_dampener",
        config: SF3,
        steps: &[
            // d = 1 ms: W = 5.0305 pending.
            on(v(100, 1000, 0, 0, 10240), w(W5_AI, PENDING)),
            // RTT end: (1000 - 5) µs / 30 ns = 33166 tokens, capped at Bank_Cap = 1000;
            // dampener = 1000/9 = 111.111 (Q16 1000000 * 65536 / 9000 = 7281777.8 -> 7281777).
            on(v(110, 4, 1024, 10240, 20480), w(W10_AI, AI)),
            // AI_Cap: 100 tokens, divided by 111.111/8 + 1 = 14.8889: 6.71642 tokens; AI =
            // 0.204969 packets; W = 10.23549 (real bytes 686891863.9). Integer: divisor
            // 7281777/8 = 910222 -> 975758; tokens_q16 = 6553600 * 65536 / 975758 =
            // 440167.3 -> 440167; AI = 32000 * 440167 / 65536 = 214925.3 -> 214925;
            // W = 10517760 + 214925 = 10732685 -> bytes 686891840.
            on(v(120, 4, 1024, 11264, 20480), w(686_891_840, AI)),
        ],
    },
    Case {
        name: "sf_counts_segments",
        config: Config {
            sf_count_segments: 1,
            ..SF3
        },
        steps: &[
            // One ACK for 3 segments counts 3 toward s = 3: the decrease to 6.0305 commits at once.
            on(v(100, 10, 3072, 0, 10240), w(W6_AI, MD)),
            // Next: from W_ref = 6.0305: 3.64883 (see decrease_from_reference...), pending.
            on(v(110, 10, 1024, 3072, 10240), w(244_873_600, PENDING)),
        ],
    },
    Case {
        name: "sf_counts_ack_events",
        config: SF3,
        steps: &[
            // Counting ACK events (SL), the same 3-segment ACK is one of three: pending.
            on(v(100, 10, 3072, 0, 10240), w(W6_AI, PENDING)),
        ],
    },
    Case {
        name: "token_numerator_literal",
        config: Config {
            ai_cap: 1000,
            token_numerator: token_numerator::LITERAL,
            ..SF3
        },
        steps: &[
            on(v(100, 20, 0, 0, 10240), w(W5_AI, PENDING)),
            // Alg. 1 line 2 as printed: 20 µs / 30 ns = 666.7 -> 666 tokens.
            on(v(110, 4, 1024, 10240, 20480), w(W10_AI, AI)),
            // AI = 666/1.27778 = 521.217 tokens * 0.0305176 = 15.90629 packets; W = 25.93681
            // (real bytes 1740589857.4). Integer: tokens_q16 = (666 << 16) * 65536 / 83740 =
            // 34158684.3 -> 34158684; AI = 32000 * 34158684 / 65536 = 16679044.9 -> 16679044;
            // W = 10517760 + 16679044 = 27196804 -> bytes 1740595456.
            on(v(120, 4, 1024, 11264, 20480), w(1_740_595_456, AI)),
        ],
    },
    Case {
        name: "token_numerator_above_threshold",
        config: Config {
            ai_cap: 1000,
            token_numerator: token_numerator::ABOVE_THRESHOLD,
            ..SF3
        },
        steps: &[
            on(v(100, 20, 0, 0, 10240), w(W5_AI, PENDING)),
            // (20 - 9) µs / 30 ns = 366.7 -> 366 tokens.
            on(v(110, 4, 1024, 10240, 20480), w(W10_AI, AI)),
            // AI = 366/1.27778 = 286.435 tokens * 0.0305176 = 8.74130; W = 18.77181 (real
            // bytes 1259755074.8). Integer: tokens_q16 = (366 << 16) * 65536 / 83740 =
            // 18771889.5 -> 18771889; AI = 32000 * 18771889 / 65536 = 9165961.4 -> 9165961;
            // W = 10517760 + 9165961 = 19683721 -> bytes 1259758144.
            on(v(120, 4, 1024, 11264, 20480), w(1_259_758_144, AI)),
        ],
    },
    Case {
        name: "hostile_inputs",
        config: SF3,
        steps: &[
            init(w(W10, Reason::Init)),
            // RTT flagged but 0: clamped to 1 ns < t: increase, 10.0305.
            on(with_rtt_ns(v(100, 0, 1024, 0, 10240), 0), w(W10_AI, AI)),
            // RTT u64::MAX: clamped to 10 s, factor capped at 0.5: 5.0305, pending.
            on(
                with_rtt_ns(v(110, 0, 0, 1024, 10240), u64::MAX),
                w(W5_AI, PENDING),
            ),
            // Remote delay u64::MAX > RTT: clamped to the RTT, fabric delay 0: increase.
            on(
                with_remote(v(120, 50, 1024, 2048, 10240), u64::MAX),
                w(W10_AI, AI),
            ),
            // MSS 0: the stored 1024 is used.
            on(with_mss(v(130, 4, 1024, 3072, 10240), 0), w(W10_AI, AI)),
            // snd_nxt behind the marker (10240): the sequence space moved; the round is
            // closed: increase committed (W_ref 10.0305); the round's largest delay was the
            // clamped 10 s: the bank fills to 1000 and the dampener saturates at 65535.99.
            on(v(140, 4, 1024, 3072, 5000), w(W10_AI, AI)),
            // No RTT sample: held.
            on(
                no_rtt(v(150, 0, 1024, 4096, 10240)),
                w(W10_AI, Reason::NoSample),
            ),
            // Possibly-delayed ACK far above target (500 µs > 5 µs): its delay may include the
            // receiver's ACK timer, so it proves nothing: no decrease, no tracker update, held.
            on(
                with_flags(v(160, 500, 1024, 4096, 10240), ACK_DELAYED),
                w(W10_AI, Reason::DecreaseGuarded),
            ),
            // Application-limited below target: no AI, W = W_ref = 10.0305, Hold.
            on(
                with_flags(v(170, 4, 1024, 5120, 10240), ACK_APP_LIMITED),
                w(W10_AI, Reason::Hold),
            ),
            // Application-limited above target (7th sampled ACK since the start: steps 2-6 and
            // 9 count, the no-sample and delayed ACKs do not; >= s): the
            // decrease commits without AI: 10.0305 * 0.6 = 6.01831 (real bytes 403881984);
            // Q16 10517760 * 39322 / 65536 = 6310720 -> bytes 403886080.
            on(
                with_flags(v(180, 10, 0, 5120, 10240), ACK_APP_LIMITED),
                w(403_886_080, MD),
            ),
        ],
    },
    Case {
        name: "max_cwnd_clamp",
        config: Config {
            max_cwnd_pkts_q20: 10 * PKT_Q20_ONE,
            ..Config::DEFAULT
        },
        steps: &[
            // W = 10 + 0.0305 is clamped to max_cwnd = 10.
            on(v(100, 4, 1024, 0, 10240), w(W10, AI)),
        ],
    },
];

/// Run every case: validate its configuration, then [`run_steps`](crate::vectors::run_steps). Returns the number of cases
/// passed, or the index of the first failing case and its mismatch. A configuration that fails
/// validation is reported as a mismatch with `step == usize::MAX`.
pub fn run_all() -> Result<usize, (usize, Mismatch)> {
    super::vectors::run_cases::<super::vaisf::SwiftVaiSf, Config>(CASES, |c| Params::new(c).ok())
}
