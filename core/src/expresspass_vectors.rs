// SPDX-License-Identifier: GPL-2.0-only
//! ExpressPass receiver test vectors: plain const data and a `no_std`, non-panicking runner,
//! like the other laws' tables (`vectors.rs`), but with the receiver's own events because
//! ExpressPass is not ACK-driven.
//!
//! Every expectation was computed by hand from the formulas in `expresspass.rs` (spec §4.4,
//! the artifact's `credit_feedback_control` and §3.2 Algorithm 1); the comment beside each
//! shows the real-valued arithmetic, then the integer rounding. Conventions:
//!
//! - 10 Gbit/s, 84 B credits, 1538 B frames: `max = floor(1.25e9 * 84 / 1622)` = 64,734,895 B/s.
//! - Q16: alpha 0.5 = 32768, w_init 1/16 = 4096, w_step 0.05 -> 3277, scaling 0.125 = 8192,
//!   paper target loss 0.1 -> 6554, jitter 0.1 -> 6554; `x * f / 65536` rounds down.
//! - gap = `floor(84e9 / rate)` stretched by `(65536 + r - 6554) / 65536`, r = rand mod 13109;
//!   `rand = 6554` gives the factor 1 exactly.
//! - The increase is `floor(max * w / 65536) + floor(rate * (65536 - w) / 65536)`.
//!
//! Uses `super::expresspass` only.

use super::expresspass::{Config, Params, Receiver, MODE_PAPER};

/// One receiver event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RxInput {
    /// CREDIT_REQUEST at `now_ns`.
    Request(u64),
    /// Credit timer at `now_ns` with random word `rand`.
    Timer(u64, u32),
    /// Data at `now_ns` echoing credit `seq` sent at `sent_ns`.
    Data(u64, u32, u64),
    /// CREDIT_STOP.
    Stop,
}

/// The state expected after a step. `rate_tol` is absolute, B/s, zero unless explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RxExpect {
    /// Credit issued by a timer: (seq, gap_ns, updated); `None` = no credit (closed session)
    /// or not a timer step.
    pub credit: Option<(u32, u64, bool)>,
    /// `Receiver::rate_bps`.
    pub rate_bps: u64,
    /// Allowed difference on the rate.
    pub rate_tol: u64,
    /// `Receiver::w_q16`.
    pub w_q16: u64,
    /// `(total, dropped)` accounted in the current update period.
    pub counts: (u32, u32),
}

/// One step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RxStep {
    /// Event.
    pub input: RxInput,
    /// Expectation, or `None` to only drive state.
    pub expect: Option<RxExpect>,
}

/// A named case.
#[derive(Clone, Copy, Debug)]
pub struct RxCase {
    /// Name printed on failure.
    pub name: &'static str,
    /// Configuration.
    pub config: Config,
    /// Steps from all-zero state.
    pub steps: &'static [RxStep],
}

/// The first mismatch of a case: step index (`usize::MAX` = invalid configuration), what the
/// state was, and the credit the step produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RxMismatch {
    /// Step index.
    pub step: usize,
    /// State after the step.
    pub got: Receiver,
    /// Credit the step produced (timer steps).
    pub credit: Option<(u32, u64, bool)>,
}

const MAX: u64 = 64_734_895;

const fn ex(
    credit: Option<(u32, u64, bool)>,
    rate: u64,
    w: u64,
    counts: (u32, u32),
) -> Option<RxExpect> {
    Some(RxExpect {
        credit,
        rate_bps: rate,
        rate_tol: 0,
        w_q16: w,
        counts,
    })
}

const fn st(input: RxInput, expect: Option<RxExpect>) -> RxStep {
    RxStep { input, expect }
}

/// Jitter-neutral random word: r = 6554 mod 13109 = 6554, factor exactly 1.
const J0: u32 = 6554;

const PAPER: Config = Config {
    mode: MODE_PAPER,
    ..Config::DEFAULT
};

/// The table.
pub const CASES: &[RxCase] = &[
    RxCase {
        name: "artifact: alpha start, then two increasing phases",
        config: Config::DEFAULT,
        steps: &[
            // init: rate = alpha * max = 0.5 * 64,734,895 = 32,367,447.5 -> 32,367,447; w = 1/16.
            st(RxInput::Request(0), ex(None, 32_367_447, 4096, (0, 0))),
            // No RTT yet: no update. gap = 84e9 / 32,367,447 = 2595.2 -> 2595.
            st(
                RxInput::Timer(0, J0),
                ex(Some((0, 2595, false)), 32_367_447, 4096, (0, 0)),
            ),
            // Credit 0 comes back as data at 10 µs: rtt = 10 µs, total 1, dropped 0.
            st(
                RxInput::Data(10_000, 0, 0),
                ex(None, 32_367_447, 4096, (1, 0)),
            ),
            // One RTT passed, loss 0 <= target: first increase keeps w = 1/16:
            // rate = max/16 + rate * 15/16 = 4,045,930.9 + 30,344,482.0 = 34,390,413.0;
            // integer: 4,045,930 + floor(32,367,447 * 61440 / 65536 = 30,344,481.6) = 34,390,411.
            // gap = 84e9 / 34,390,411 = 2442.5 -> 2442.
            st(
                RxInput::Timer(10_000, J0),
                ex(Some((1, 2442, true)), 34_390_411, 4096, (0, 0)),
            ),
            st(
                RxInput::Data(20_000, 1, 10_000),
                ex(None, 34_390_411, 4096, (1, 0)),
            ),
            // Second increase in a row: w = 4096 + 3277 = 7373 (0.1125);
            // rate = max * 7373/65536 + 34,390,411 * 58163/65536 = 37,804,258.05;
            // integer 7,282,829 + 30,521,428 = 37,804,257. gap = 84e9 / 37,804,257 = 2221.9 -> 2221.
            st(
                RxInput::Timer(20_000, J0),
                ex(Some((2, 2221, true)), 37_804_257, 7373, (0, 0)),
            ),
            st(RxInput::Data(30_000, 2, 20_000), None),
            // Third: w = 10650; rate = max * 10650/65536 + 37,804,257 * 54886/65536
            // = 42,180,650.0 -> 42,180,649 (two floors). gap = 84e9 / 42,180,649 = 1991.4 -> 1991.
            st(
                RxInput::Timer(30_000, J0),
                ex(Some((3, 1991, true)), 42_180_649, 10650, (0, 0)),
            ),
        ],
    },
    RxCase {
        name: "artifact: two of four credits lost -> rate of credits that got through",
        config: Config::DEFAULT,
        steps: &[
            st(RxInput::Request(0), None),
            st(RxInput::Timer(0, J0), None),
            st(RxInput::Timer(1_000, J0), None),
            st(RxInput::Timer(2_000, J0), None),
            st(
                RxInput::Timer(3_000, J0),
                ex(Some((3, 2595, false)), 32_367_447, 4096, (0, 0)),
            ),
            st(
                RxInput::Data(10_000, 0, 0),
                ex(None, 32_367_447, 4096, (1, 0)),
            ),
            // Credit 3 arrives next: credits 1 and 2 were dropped: total 1 + 3, dropped 2.
            st(
                RxInput::Data(13_000, 3, 3_000),
                ex(None, 32_367_447, 4096, (4, 2)),
            ),
            // loss = 2/4 = 0.5. target = (1 - 32,367,447/64,734,895) * 0.125: share floor
            // 32767 -> (65536 - 32767) * 8192 / 65536 = 4096.1 -> 4096 (0.0625). 0.5 > 0.0625:
            // decrease to 2 credits * 84 B / 13 µs = 12,923,076.9 B/s -> 12,923,076, times
            // 1.0625 = 13,730,768.25 -> 13,730,768 (below the old rate); w = max(1/32, 0.01)
            // = 2048. gap = 84e9 / 13,730,768 = 6117.7 -> 6117.
            st(
                RxInput::Timer(13_000, J0),
                ex(Some((4, 6117, true)), 13_730_768, 2048, (0, 0)),
            ),
        ],
    },
    RxCase {
        name: "paper: multiplicative decrease, then increase towards max * (1 + target)",
        config: PAPER,
        steps: &[
            st(RxInput::Request(0), None),
            st(RxInput::Timer(0, J0), None),
            st(RxInput::Timer(1_000, J0), None),
            st(RxInput::Timer(2_000, J0), None),
            st(RxInput::Timer(3_000, J0), None),
            st(RxInput::Data(10_000, 0, 0), None),
            st(
                RxInput::Data(13_000, 3, 3_000),
                ex(None, 32_367_447, 4096, (4, 2)),
            ),
            // Alg. 1 line 9: rate * (1 - 0.5) * (1 + 6554/65536) = 32,367,447 * 0.5 * 1.100006
            // = 17,802,195.9; integer floor(32,367,447 / 2) = 16,183,723, * 72090 / 65536
            // = 17,802,194.4 -> 17,802,194. w = 2048. gap = 84e9 / 17,802,194 = 4718.5 -> 4718.
            st(
                RxInput::Timer(13_000, J0),
                ex(Some((4, 4718, true)), 17_802_194, 2048, (0, 0)),
            ),
            st(
                RxInput::Data(23_000, 4, 13_000),
                ex(None, 17_802_194, 2048, (1, 0)),
            ),
            // Alg. 1 line 7, previous phase decreased so w stays 1/32:
            // rate = 17,802,194 * 31/32 + max * 1.100006 * 1/32 = 17,245,875.4 + 2,225,274.3
            // = 19,471,149.7; integer 17,245,875 + floor(71,208,779 / 32 = 2,225,274.3) = 19,471,149.
            // gap = 84e9 / 19,471,149 = 4314.1 -> 4314.
            st(
                RxInput::Timer(23_000, J0),
                ex(Some((5, 4314, true)), 19_471_149, 2048, (0, 0)),
            ),
            st(RxInput::Data(33_000, 5, 23_000), None),
            // Alg. 1 line 6: w = (2048 + 32768) / 2 = 17408 (0.2656);
            // rate = 19,471,149 * 48128/65536 + 71,208,779 * 17408/65536
            // = 14,299,125.6 + 18,914,831.7 = 33,213,957.3 -> 33,213,956 (two floors).
            // gap = 84e9 / 33,213,956 = 2529.1 -> 2529.
            st(
                RxInput::Timer(33_000, J0),
                ex(Some((6, 2529, true)), 33_213_956, 17408, (0, 0)),
            ),
        ],
    },
    RxCase {
        name: "jitter: extremes of +-10 % around the base gap",
        config: Config::DEFAULT,
        steps: &[
            st(RxInput::Request(0), None),
            // r = 0: factor 1 - 0.1 = 58982/65536; 2595 * 0.9 = 2335.5 -> 2335.
            st(
                RxInput::Timer(0, 0),
                ex(Some((0, 2335, false)), 32_367_447, 4096, (0, 0)),
            ),
            // r = 13108 (the top of 0..=13108): factor 1.1 = 72090/65536; 2595 * 1.1 = 2854.5 -> 2854.
            st(
                RxInput::Timer(1_000, 13_108),
                ex(Some((1, 2854, false)), 32_367_447, 4096, (0, 0)),
            ),
            // r = 13109 mod 13109 = 0 again.
            st(
                RxInput::Timer(2_000, 13_109),
                ex(Some((2, 2335, false)), 32_367_447, 4096, (0, 0)),
            ),
        ],
    },
    RxCase {
        name: "hostile echoes are ignored; stop closes the session",
        config: Config::DEFAULT,
        steps: &[
            st(RxInput::Request(0), None),
            st(RxInput::Timer(0, J0), None),
            // seq 7 was never sent (only 0): no accounting.
            st(
                RxInput::Data(5_000, 7, 0),
                ex(None, 32_367_447, 4096, (0, 0)),
            ),
            // Sent in the future: no accounting.
            st(
                RxInput::Data(5_000, 0, 9_000),
                ex(None, 32_367_447, 4096, (0, 0)),
            ),
            st(
                RxInput::Data(5_000, 0, 0),
                ex(None, 32_367_447, 4096, (1, 0)),
            ),
            // Duplicate of 0: behind the expected sequence number.
            st(
                RxInput::Data(6_000, 0, 0),
                ex(None, 32_367_447, 4096, (1, 0)),
            ),
            // A repeated request while open changes nothing.
            st(RxInput::Request(6_000), ex(None, 32_367_447, 4096, (1, 0))),
            st(RxInput::Stop, None),
            st(
                RxInput::Timer(7_000, J0),
                ex(None, 32_367_447, 4096, (1, 0)),
            ),
        ],
    },
];

/// Apply one input; returns the credit a timer issued.
pub fn apply(p: &Params, s: &mut Receiver, input: &RxInput) -> Option<(u32, u64, bool)> {
    match *input {
        RxInput::Request(now) => {
            s.on_request(p, now);
            None
        }
        RxInput::Timer(now, rand) => s
            .on_credit_timer(p, now, rand)
            .map(|c| (c.seq, c.gap_ns, c.updated)),
        RxInput::Data(now, seq, sent) => {
            s.on_data(p, now, seq, sent);
            None
        }
        RxInput::Stop => {
            s.on_stop();
            None
        }
    }
}

/// Run one case from all-zero state.
pub fn run_case(case: &RxCase) -> Result<(), RxMismatch> {
    let p = Params::new(&case.config).map_err(|_| RxMismatch {
        step: usize::MAX,
        got: Receiver::default(),
        credit: None,
    })?;
    let mut s = Receiver::default();
    for (i, step) in case.steps.iter().enumerate() {
        let credit = apply(&p, &mut s, &step.input);
        if let Some(want) = step.expect {
            let ok = credit == want.credit
                && s.rate_bps.abs_diff(want.rate_bps) <= want.rate_tol
                && s.w_q16 == want.w_q16
                && (s.total, s.dropped) == want.counts;
            if !ok {
                return Err(RxMismatch {
                    step: i,
                    got: s,
                    credit,
                });
            }
        }
    }
    Ok(())
}

/// Run the whole table: cases passed, or the failing case's index and its mismatch.
pub fn run_all() -> Result<usize, (usize, RxMismatch)> {
    for (i, case) in CASES.iter().enumerate() {
        run_case(case).map_err(|m| (i, m))?;
    }
    Ok(CASES.len())
}

/// The maximum credit rate the vectors assume (10 Gbit/s, 84 B, 1538 B).
pub const VECTOR_MAX_RATE_BPS: u64 = MAX;
