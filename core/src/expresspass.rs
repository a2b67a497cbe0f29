// SPDX-License-Identifier: GPL-2.0-only
//! ExpressPass: receiver-driven, credit-scheduled congestion control.
//!
//! I. Cho, K. Jang, D. Han, "Credit-Scheduled Delay-Bounded Congestion Control for
//! Datacenters", ACM SIGCOMM 2017, <https://doi.org/10.1145/3098822.3098840>. Paper text (a
//! fragment): `shared/papers/expresspass-sigcomm2017.fragment.txt`; implementation spec with
//! the reconstructed §3.2 and the authors' ns-2 artifact's parameters:
//! `shared/specs/swift-timely-expresspass.md` §4.
//!
//! The receiver sends credits; every switch port and NIC rate-limits them to
//! `C * credit / (credit + max data frame)` and drops the excess (§3.1, done by the host, not
//! here); the sender answers each credit with at most one data packet that echoes the credit's
//! sequence number and send time. This file holds the per-flow logic of both ends:
//!
//! - [`Receiver`]: the credit rate. Credit loss is measured from gaps in the echoed credit
//!   sequence numbers (spec §4.6 "Data arrives"); once per update period (one EWMA RTT) the
//!   credit feedback control of §3.2 Algorithm 1 updates the rate and the aggressiveness `w`
//!   (spec §4.4):
//!
//! ```text
//! credit_loss = dropped / total                                  (Alg. 1 line 3)
//! credit_loss <= target_loss:                                    (increase, Alg. 1 lines 4-7)
//!     w = (w + w_max) / 2          if the previous phase increased   [paper, spec §4.4 M]
//!     w = min(w + w_step, w_max)   if the previous phase increased   [artifact]
//!     rate = (1 - w) * rate + w * max_rate * (1 + target_loss)       [paper]
//!     rate = (1 - w) * rate + w * max_rate     (only if rate < max)  [artifact]
//! otherwise:                                                     (decrease, Alg. 1 lines 8-10)
//!     rate = rate * (1 - credit_loss) * (1 + target_loss)            [paper]
//!     rate = min(rate, credit * (total - dropped) / elapsed * (1 + target_loss)),
//!            credit / rtt if credit_loss = 1                         [artifact]
//!     w = max(w / 2, w_min)
//! rate = clamp(rate, credit / rtt, max_rate)                     [artifact floor; cap: §3.1]
//! target_loss = fixed parameter                                   [paper]
//! target_loss = (1 - rate / max_rate) * target_loss_scaling       [artifact]
//! ```
//!
//!   Algorithm 1 is not in the paper fragment; its line numbers here are those of the spec's
//!   reconstruction (§4.4, tagged M: line 1 initialisation, 3 loss, 4-7 increase, 8-10 decrease).
//!
//!   The gap to the next credit is `credit / rate * (1 + j)`, `j` uniform in
//!   `[-jitter, +jitter]` (§3.1 "fair credit drop"; ±10 % in the artifact), drawn from a random
//!   word the host supplies (the core has no randomness of its own).
//! - [`Sender`]: credit consumption. One credit releases at most one data packet of
//!   `min(mss, backlog)` bytes (§3 "each credit packet triggers a sender to transmit up to a
//!   maximum size Ethernet frame"); a credit that finds no data is wasted and counted; when the
//!   backlog empties the sender stops the credits (CREDIT_STOP, spec §4.4 "Data path"); a
//!   credit request that brings no credit within the RTO is sent again (artifact RTO, 100 µs).
//!
//! It is not a [`super::event::Controller`]: nothing here is driven by ACKs. Hosts call the
//! methods below on credit timers, credit arrivals and data arrivals. Every choice where the
//! artifact and the paper differ is selectable (`Config::mode`) and listed in
//! `Documentation/algorithms/expresspass.md`.
//!
//! Uses `super::fixed` and `super::event` only.

use super::event::ParamError;
use super::fixed::{clamp, ewma, mul_div, mul_q16, MAX_DELAY_NS, NS_PER_S, Q16_ONE};

/// `Config::mode`: the authors' ns-2 artifact (`XPassAgent::credit_feedback_control`, spec
/// §4.4 "Authors' artifact version"): adaptive target loss, additive `w` step, decrease to the
/// measured rate of credits that got through.
pub const MODE_ARTIFACT: u64 = 0;
/// `Config::mode`: §3.2 Algorithm 1 as the spec reconstructs it (fixed target loss,
/// `w = (w + w_max) / 2`, multiplicative decrease by `(1 - loss) * (1 + target_loss)`).
pub const MODE_PAPER: u64 = 1;

/// Largest link rate a configuration may name, Mbit/s (1.6 Tbit/s): keeps the byte rate below
/// 2^38 and every `rate * Q16` product below 2^54.
pub const MAX_LINK_RATE_MBPS: u64 = 1_600_000;

/// Largest credit or data frame on the wire, bytes (a 9000 B jumbo frame plus Ethernet
/// overhead fits).
pub const MAX_FRAME_BYTES: u64 = 10_000;

/// Smallest credit frame on the wire, bytes: a 64 B minimum Ethernet frame without preamble and
/// inter-frame gap. Keeps `credit / rtt` at least 6 B/s for any RTT up to `MAX_DELAY_NS`, so the
/// rate is never zero and the credit gap is always finite.
pub const MIN_CREDIT_BYTES: u64 = 64;

/// Raw ExpressPass parameters as a host (simulator scenario) supplies them; validate with
/// [`Params::new`]. Fractions are Q16 (65536 = 1.0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// Link rate of the receiver's NIC, Mbit/s: sets `max_rate`. Range [1,
    /// `MAX_LINK_RATE_MBPS`].
    pub link_rate_mbps: u64,
    /// Credit size on the wire (frame + preamble + IFG), bytes (§3.1: 84). Range
    /// [`MIN_CREDIT_BYTES`, `MAX_FRAME_BYTES`].
    pub credit_bytes: u64,
    /// Largest data frame on the wire, bytes (§3.1: 1538). Range [credit_bytes,
    /// `MAX_FRAME_BYTES`].
    pub max_data_frame_bytes: u64,
    /// Initial credit rate as a fraction of `max_rate`, Q16 (artifact `alpha_` 0.5). Range
    /// (0, 1.0].
    pub alpha_q16: u64,
    /// Initial aggressiveness `w`, Q16 (artifact large-scale runs: 1/16). Range [w_min, w_max].
    pub w_init_q16: u64,
    /// Smallest `w`, Q16 (artifact `min_w_` 0.01). Range (0, w_max].
    pub w_min_q16: u64,
    /// Largest `w`, Q16 (artifact: 0.5, hard-coded). Range (0, 1.0].
    pub w_max_q16: u64,
    /// Additive `w` step after two increasing phases in a row, Q16 (artifact: 0.05; unused in
    /// `MODE_PAPER`). Range [0, 1.0].
    pub w_step_q16: u64,
    /// Target loss of `MODE_PAPER`, Q16 (value not in the fragment; spec §4.4: about 10 %).
    /// Range [0, 0.5].
    pub target_loss_q16: u64,
    /// Scaling of the artifact's adaptive target loss, Q16 (artifact: 0.125). Range [0, 0.5].
    pub target_loss_scaling_q16: u64,
    /// Credit jitter: the gap is stretched by a uniform factor in `[1 - j, 1 + j]`, Q16
    /// (artifact: 0.1; §3.1 "fair credit drop"). Range [0, 0.5].
    pub jitter_q16: u64,
    /// Weight of a new RTT sample in the RTT EWMA, Q16 (artifact: 0.2). Range (0, 1.0].
    pub rtt_ewma_q16: u64,
    /// [`MODE_ARTIFACT`] or [`MODE_PAPER`]. Range [0, 1].
    pub mode: u64,
    /// Credit-request retransmission timeout, ns (artifact large-scale runs: 100 µs). Range
    /// [1 µs, `MAX_DELAY_NS`].
    pub rto_ns: u64,
    /// Fewest credits accounted (echoed or found missing) before an update: the update period
    /// is one EWMA RTT *and* at least this many credits (but at most `MAX_UPDATE_RTTS` RTTs),
    /// so the loss estimate has a resolution of at least `1 / min_credits_per_update`. 1 is the artifact's `credit_total > 0` guard.
    /// Not from the paper (§3.2 is not in the fragment): an option for flows with few credits
    /// per RTT, where one drop reads as 25 % loss at 4 credits per RTT. Range [1,
    /// `MAX_CREDITS_PER_UPDATE`].
    pub min_credits_per_update: u64,
}

/// Largest `Config::min_credits_per_update`.
pub const MAX_CREDITS_PER_UPDATE: u64 = 4_096;

/// Longest update period, in EWMA RTTs, when `min_credits_per_update` holds an update back.
pub const MAX_UPDATE_RTTS: u64 = 4;

impl Config {
    /// The artifact's large-scale settings (spec §4.5) on a 10 Gbit/s link.
    pub const DEFAULT: Config = Config {
        link_rate_mbps: 10_000,         // 10 Gbit/s [spec §4.8 artifact topology]
        credit_bytes: 84,               // [P §3.1]
        max_data_frame_bytes: 1538,     // [P §3.1]
        alpha_q16: 32_768,              // 0.5 [X-ns2]
        w_init_q16: 4_096,              // 1/16 [X-ns2 large-scale]
        w_min_q16: 655,                 // 0.01 = 655.36 -> 655 [X-ns2]
        w_max_q16: 32_768,              // 0.5 [X-ns2, M]
        w_step_q16: 3_277,              // 0.05 = 3276.8 -> 3277 [X-ns2]
        target_loss_q16: 6_554,         // 0.1 = 6553.6 -> 6554 [M, spec §4.4]
        target_loss_scaling_q16: 8_192, // 0.125 [X-ns2]
        jitter_q16: 6_554,              // 0.1 [X-ns2]
        rtt_ewma_q16: 13_107,           // 0.2 = 13107.2 -> 13107 [X-ns2]
        mode: MODE_ARTIFACT,            // [spec §4.4 recommendation]
        rto_ns: 100_000,                // 100 µs [X-ns2 large-scale]
        min_credits_per_update: 1,      // `credit_total > 0` [X-ns2]
    };
}

impl Default for Config {
    fn default() -> Self {
        Config::DEFAULT
    }
}

/// Validated parameters with the derived maximum credit rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// `max_rate`: the credit limiter's rate, bytes of credit per second.
    max_rate_bps: u64,
    credit_bytes: u64,
    init_rate_bps: u64,
    w_init_q16: u64,
    w_min_q16: u64,
    w_max_q16: u64,
    w_step_q16: u64,
    target_loss_q16: u64,
    target_loss_scaling_q16: u64,
    jitter_q16: u64,
    rtt_ewma_q16: u64,
    paper: bool,
    rto_ns: u64,
    min_credits_per_update: u32,
}

/// The credit limiter's rate for a link, bytes of credit per second (§3.1:
/// `C * credit / (credit + max data frame)`), rounded down. 10 Gbit/s with 84 B and 1538 B:
/// 1.25e9 * 84 / 1622 = 64,734,895.2 -> 64,734,895 (the artifact's `max_credit_rate_`).
pub fn max_credit_rate_bps(link_rate_mbps: u64, credit_bytes: u64, max_data_bytes: u64) -> u64 {
    // link_rate_mbps * 125,000 <= 2e11; * credit (<= 1e4) <= 2e15: no overflow.
    mul_div(
        link_rate_mbps.saturating_mul(125_000),
        credit_bytes,
        credit_bytes.saturating_add(max_data_bytes),
    )
}

impl Params {
    /// Validate `c`; the first bad field is reported with its accepted range.
    pub fn new(c: &Config) -> Result<Params, ParamError> {
        ParamError::check("link_rate_mbps", c.link_rate_mbps, 1, MAX_LINK_RATE_MBPS)?;
        ParamError::check(
            "credit_bytes",
            c.credit_bytes,
            MIN_CREDIT_BYTES,
            MAX_FRAME_BYTES,
        )?;
        ParamError::check(
            "max_data_frame_bytes",
            c.max_data_frame_bytes,
            c.credit_bytes,
            MAX_FRAME_BYTES,
        )?;
        ParamError::check("alpha_q16", c.alpha_q16, 1, Q16_ONE)?;
        ParamError::check("w_max_q16", c.w_max_q16, 1, Q16_ONE)?;
        ParamError::check("w_min_q16", c.w_min_q16, 1, c.w_max_q16)?;
        ParamError::check("w_init_q16", c.w_init_q16, c.w_min_q16, c.w_max_q16)?;
        ParamError::check("w_step_q16", c.w_step_q16, 0, Q16_ONE)?;
        ParamError::check("target_loss_q16", c.target_loss_q16, 0, Q16_ONE / 2)?;
        ParamError::check(
            "target_loss_scaling_q16",
            c.target_loss_scaling_q16,
            0,
            Q16_ONE / 2,
        )?;
        ParamError::check("jitter_q16", c.jitter_q16, 0, Q16_ONE / 2)?;
        ParamError::check("rtt_ewma_q16", c.rtt_ewma_q16, 1, Q16_ONE)?;
        ParamError::check("mode", c.mode, MODE_ARTIFACT, MODE_PAPER)?;
        ParamError::check("rto_ns", c.rto_ns, 1_000, MAX_DELAY_NS)?;
        ParamError::check(
            "min_credits_per_update",
            c.min_credits_per_update,
            1,
            MAX_CREDITS_PER_UPDATE,
        )?;
        let max_rate_bps =
            max_credit_rate_bps(c.link_rate_mbps, c.credit_bytes, c.max_data_frame_bytes);
        // 1 Mbit/s * 64 / 10064 = 794 B/s > 0: the smallest configuration still has a rate.
        Ok(Params {
            max_rate_bps,
            credit_bytes: c.credit_bytes,
            init_rate_bps: mul_q16(max_rate_bps, c.alpha_q16).max(1),
            w_init_q16: c.w_init_q16,
            w_min_q16: c.w_min_q16,
            w_max_q16: c.w_max_q16,
            w_step_q16: c.w_step_q16,
            target_loss_q16: c.target_loss_q16,
            target_loss_scaling_q16: c.target_loss_scaling_q16,
            jitter_q16: c.jitter_q16,
            rtt_ewma_q16: c.rtt_ewma_q16,
            paper: c.mode == MODE_PAPER,
            rto_ns: c.rto_ns,
            // <= MAX_CREDITS_PER_UPDATE, checked above.
            min_credits_per_update: c.min_credits_per_update as u32,
        })
    }

    /// The credit limiter's rate, bytes of credit per second.
    pub fn max_rate_bps(&self) -> u64 {
        self.max_rate_bps
    }

    /// Credit size on the wire, bytes.
    pub fn credit_bytes(&self) -> u64 {
        self.credit_bytes
    }

    /// Credit-request retransmission timeout, ns.
    pub fn rto_ns(&self) -> u64 {
        self.rto_ns
    }
}

/// Receiver (credit sender) per-flow state. All-zero is "closed, no credit session".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Receiver {
    /// A credit session is open (CREDIT_SENDING).
    pub active: bool,
    /// The previous update was an increase (artifact `can_increase_w_`).
    pub prev_increase: bool,
    /// Current credit rate, bytes of credit per second, in `[1, max_rate]` once active.
    pub rate_bps: u64,
    /// Aggressiveness `w`, Q16.
    pub w_q16: u64,
    /// Sequence number the next credit carries.
    pub next_seq: u32,
    /// Next echoed credit sequence number expected in data.
    pub expect_seq: u32,
    /// Credits accounted this update period (received or found missing).
    pub total: u32,
    /// Credits found missing this update period.
    pub dropped: u32,
    /// Start of the update period, ns.
    pub last_update_ns: u64,
    /// EWMA RTT (credit sent to its data received), ns; 0 = no sample yet.
    pub rtt_ns: u64,
    /// Echoes ignored as hostile (behind `expect_seq`, beyond the last credit sent, or a send
    /// time in the future).
    pub ignored: u32,
}

/// What a credit timer produced: the credit to send and when the next one is due.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Credit {
    /// Sequence number to stamp on the credit.
    pub seq: u32,
    /// Delay until the next credit, ns (at least 1).
    pub gap_ns: u64,
    /// The feedback control ran before this credit.
    pub updated: bool,
    /// Credit rate after the update, bytes of credit per second.
    pub rate_bps: u64,
}

/// `u32` sequence distance `a - b` as a signed value (serial-number arithmetic).
fn seq_diff(a: u32, b: u32) -> i32 {
    a.wrapping_sub(b) as i32
}

impl Receiver {
    /// CREDIT_REQUEST received: open a session at `alpha * max_rate` with `w = w_init` (spec
    /// §4.6; the artifact's `init()`). A request while a session is open is ignored (it is a
    /// retransmission); returns whether a new session started, so the host starts its credit
    /// timer only then.
    pub fn on_request(&mut self, p: &Params, now_ns: u64) -> bool {
        if self.active {
            return false;
        }
        let next_seq = self.next_seq;
        *self = Receiver {
            active: true,
            rate_bps: p.init_rate_bps,
            w_q16: p.w_init_q16,
            next_seq,
            expect_seq: next_seq,
            last_update_ns: now_ns,
            ..Receiver::default()
        };
        true
    }

    /// CREDIT_STOP received: close the session (the host cancels its credit timer).
    pub fn on_stop(&mut self) {
        self.active = false;
    }

    /// Data arrived echoing credit `seq` sent at `sent_ns` (receiver clock). Credits skipped
    /// since the last echo were dropped (spec §4.6; artifact `recv_data`): `total += gap + 1`,
    /// `dropped += gap`. The RTT EWMA takes `now - sent_ns` (artifact `update_rtt`).
    pub fn on_data(&mut self, p: &Params, now_ns: u64, seq: u32, sent_ns: u64) {
        let gap = seq_diff(seq, self.expect_seq);
        let outstanding = seq_diff(self.next_seq, self.expect_seq);
        // A credit behind the expected one (reordered, duplicated) or one never sent carries
        // no loss information; a send time in the future is no RTT.
        if gap < 0 || gap >= outstanding || sent_ns > now_ns {
            self.ignored = self.ignored.saturating_add(1);
            return;
        }
        let gap = gap as u32; // 0 <= gap < 2^31
        self.total = self.total.saturating_add(gap).saturating_add(1);
        self.dropped = self.dropped.saturating_add(gap);
        self.expect_seq = seq.wrapping_add(1);
        let sample = now_ns.wrapping_sub(sent_ns).min(MAX_DELAY_NS); // sent_ns <= now_ns
        self.rtt_ns = if self.rtt_ns == 0 {
            sample.max(1)
        } else {
            ewma(self.rtt_ns, sample, p.rtt_ewma_q16).max(1)
        };
    }

    /// The credit timer fired: run the feedback control if an update period has passed, then
    /// issue one credit. `rand` is a uniform random word from the host (jitter). A closed
    /// session returns `None` (the host stops its timer).
    pub fn on_credit_timer(&mut self, p: &Params, now_ns: u64, rand: u32) -> Option<Credit> {
        if !self.active {
            return None;
        }
        let updated = self.feedback(p, now_ns);
        let seq = self.next_seq;
        self.next_seq = seq.wrapping_add(1);
        Some(Credit {
            seq,
            gap_ns: self.gap_ns(p, rand),
            updated,
            rate_bps: self.rate_bps,
        })
    }

    /// Time to the next credit at the current rate with jitter: `credit / rate * (1 + j)`,
    /// `j = (rand mod (2 * jitter + 1)) - jitter` in Q16 (§3.1; artifact `send_credit`).
    pub fn gap_ns(&self, p: &Params, rand: u32) -> u64 {
        let rate = self.rate_bps.max(1);
        // credit <= 1e4 and NS_PER_S = 1e9: the product is below 2^44.
        let base = mul_div(p.credit_bytes, NS_PER_S, rate);
        let span = p.jitter_q16.saturating_mul(2).saturating_add(1); // <= 65537
        let r = (rand as u64).checked_rem(span).unwrap_or(0); // span >= 1
                                                              // factor = 1 + (r - jitter) in [1 - jitter, 1 + jitter], at least 0.5.
        let factor = Q16_ONE.saturating_add(r).saturating_sub(p.jitter_q16);
        mul_q16(base, factor).max(1)
    }

    /// The adaptive target loss of the artifact, `(1 - rate / max_rate) * scaling`, or the
    /// paper's fixed target, Q16.
    pub fn target_loss_q16(&self, p: &Params) -> u64 {
        if p.paper {
            return p.target_loss_q16;
        }
        let share = mul_div(self.rate_bps.min(p.max_rate_bps), Q16_ONE, p.max_rate_bps);
        mul_q16(Q16_ONE.saturating_sub(share), p.target_loss_scaling_q16)
    }

    /// §3.2 Algorithm 1 (spec §4.4), gated as in the artifact: only with an RTT sample, at
    /// least one RTT after the last update and with at least one credit accounted (at least
    /// `min_credits_per_update`, 1 in the artifact).
    fn feedback(&mut self, p: &Params, now_ns: u64) -> bool {
        let elapsed = now_ns.saturating_sub(self.last_update_ns);
        // With fewer than `min_credits_per_update` credits the period stretches, to at most
        // `MAX_UPDATE_RTTS` RTTs (a flow at the one-credit-per-RTT floor must not wait for
        // many RTTs to recover).
        let few = self.total < p.min_credits_per_update
            && elapsed < self.rtt_ns.saturating_mul(MAX_UPDATE_RTTS);
        if self.rtt_ns == 0 || elapsed < self.rtt_ns || self.total == 0 || few {
            return false;
        }
        let old = self.rate_bps;
        let tl = self.target_loss_q16(p);
        // Alg. 1 line 3: dropped <= total, so loss is in [0, 1.0].
        let loss = mul_div(self.dropped as u64, Q16_ONE, self.total as u64);
        // Artifact floor: one credit per RTT (rtt >= 1 ns, credit >= 64 B).
        let min_rate = mul_div(p.credit_bytes, NS_PER_S, self.rtt_ns).max(1);
        let rate;
        if loss > tl {
            // Decrease (Alg. 1 lines 8-10).
            if loss >= Q16_ONE {
                rate = min_rate;
            } else if p.paper {
                // rate * (1 - loss) * (1 + target_loss)   (Alg. 1 line 9)
                rate = mul_q16(
                    mul_q16(old, Q16_ONE.saturating_sub(loss)),
                    Q16_ONE.saturating_add(tl),
                );
            } else {
                // Artifact: credits that got through over the period, * (1 + target_loss),
                // never above the old rate. (total - dropped) * credit <= 2^32 * 1e4.
                let passed =
                    (self.total.saturating_sub(self.dropped) as u64).saturating_mul(p.credit_bytes);
                let measured = mul_div(passed, NS_PER_S, elapsed);
                rate = mul_q16(measured, Q16_ONE.saturating_add(tl)).min(old);
            }
            self.w_q16 = (self.w_q16 / 2).max(p.w_min_q16);
            self.prev_increase = false;
        } else {
            // Increase (Alg. 1 lines 4-7).
            if self.prev_increase {
                self.w_q16 = if p.paper {
                    // (w + w_max) / 2, both <= 1.0.
                    self.w_q16.saturating_add(p.w_max_q16) / 2
                } else {
                    self.w_q16.saturating_add(p.w_step_q16).min(p.w_max_q16)
                };
            }
            self.prev_increase = true;
            let w = self.w_q16.min(Q16_ONE);
            if p.paper {
                // (1 - w) * rate + w * max_rate * (1 + target_loss)   (Alg. 1 line 7)
                let top = mul_q16(p.max_rate_bps, Q16_ONE.saturating_add(tl));
                rate = mul_q16(old, Q16_ONE.saturating_sub(w)).saturating_add(mul_q16(top, w));
            } else if old < p.max_rate_bps {
                rate = mul_q16(p.max_rate_bps, w)
                    .saturating_add(mul_q16(old, Q16_ONE.saturating_sub(w)));
            } else {
                rate = old;
            }
        }
        // The host NIC's limiter caps credits at max_rate in any case (§3.1).
        self.rate_bps = clamp(rate, min_rate.min(p.max_rate_bps), p.max_rate_bps);
        self.total = 0;
        self.dropped = 0;
        self.last_update_ns = now_ns;
        true
    }
}

/// Sender (data sender) per-flow state. All-zero is "closed".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sender {
    /// A credit request is outstanding and no credit has arrived since (CREDIT_REQUEST_SENT).
    pub requesting: bool,
    /// Credits are arriving (CREDIT_RECEIVING).
    pub receiving: bool,
    /// When the request was (re)sent, ns: the RTO runs from here.
    pub request_ns: u64,
    /// Credits that found no data (artifact `credit_wasted_`).
    pub wasted: u64,
    /// Credits used for data.
    pub used: u64,
    /// Credit requests sent, retransmissions included.
    pub requests: u32,
}

/// What the sender does with one credit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CreditUse {
    /// Payload bytes of the one data packet to send now, 0 = the credit is wasted.
    pub data_bytes: u32,
    /// Send CREDIT_STOP now (the backlog is empty after this packet).
    pub stop: bool,
}

impl Sender {
    /// The application has data and no session is open: send a CREDIT_REQUEST (the host sends
    /// it and arms the RTO). Returns whether a request must be sent.
    pub fn on_backlog(&mut self, now_ns: u64) -> bool {
        if self.requesting || self.receiving {
            return false;
        }
        self.requesting = true;
        self.request_ns = now_ns;
        self.requests = self.requests.saturating_add(1);
        true
    }

    /// The RTO check: a request still without a credit `rto_ns` after it was sent is sent
    /// again (artifact `handle_retransmit`). Returns whether to resend; the host re-arms its
    /// timer for `request_ns + rto_ns`.
    pub fn on_rto(&mut self, p: &Params, now_ns: u64) -> bool {
        if !self.requesting || now_ns.saturating_sub(self.request_ns) < p.rto_ns {
            return false;
        }
        self.request_ns = now_ns;
        self.requests = self.requests.saturating_add(1);
        true
    }

    /// A credit arrived; `backlog_bytes` is what the sender could send now (new data plus
    /// data to retransmit), `mss_bytes` the largest payload. One credit releases one packet of
    /// `min(mss, backlog)` (§3); without data the credit is wasted; the packet that empties
    /// the backlog also stops the credits (spec §4.4 "Data path"). A credit outside a session
    /// (after CREDIT_STOP) is wasted.
    pub fn on_credit(&mut self, backlog_bytes: u64, mss_bytes: u32) -> CreditUse {
        if self.requesting {
            self.requesting = false;
            self.receiving = true;
        }
        if !self.receiving || backlog_bytes == 0 || mss_bytes == 0 {
            self.wasted = self.wasted.saturating_add(1);
            return CreditUse::default();
        }
        let bytes = backlog_bytes.min(mss_bytes as u64) as u32; // <= mss_bytes
        self.used = self.used.saturating_add(1);
        let stop = backlog_bytes <= mss_bytes as u64;
        if stop {
            self.receiving = false;
        }
        CreditUse {
            data_bytes: bytes,
            stop,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_config_validates() {
        let p = Params::new(&Config::DEFAULT).unwrap();
        assert_eq!(p.max_rate_bps(), 64_734_895);
    }
}
