// SPDX-License-Identifier: GPL-2.0-only
//! `Decision::enforce`'s table: plain const data run by the host test `enforce_table`
//! (core/src/event.rs) and by the KUnit case `rdcc_glue_enforce`, so the rule that turns a
//! law's decision into the kernel's window and pacing rate is checked as the kernel's rustc
//! builds it too.
//!
//! Every expectation is derived from the rule's text (ARCHITECTURE.md "Enforcement"), not from
//! the code: at two packets or more (or on whole packets) `floor(W / mss)` packets, clamped, at
//! the law's rate or else the kernel's `2·cwnd·mss/srtt`; below two fractional packets the
//! ceiling, paced at the law's rate or else `W / srtt`, never 0. The MSS is [`ENFORCE_MSS`] =
//! 1000 B, so that packets read as thousands of bytes.
//!
//! Uses `super::event` only.

use super::event::Decision;

/// The MSS of every case, bytes.
pub const ENFORCE_MSS: u32 = 1000;

/// One case: the decision's window (bytes Q16) and rate, the socket's srtt and clamp, and what
/// the kernel must get.
pub struct EnforceCase {
    /// `Decision::cwnd_bytes_q16`.
    pub cwnd_bytes_q16: u64,
    /// `Decision::pacing_rate_bps` (0: the law does not pace).
    pub law_rate_bps: u64,
    /// The kernel's smoothed RTT, µs (0: none yet).
    pub srtt_us: u32,
    /// `snd_cwnd_clamp`, packets.
    pub clamp_pkts: u32,
    /// The window the kernel gets, packets (0: leave the host's).
    pub pkts: u32,
    /// The pacing rate the kernel gets, bytes/s.
    pub rate_bps: u64,
}

const MAX: u64 = u64::MAX;

/// `bytes` in bytes Q16.
const fn b(bytes: u64) -> u64 {
    bytes << 16
}

const fn case(w: u64, law: u64, srtt: u32, clamp: u32, pkts: u32, rate: u64) -> EnforceCase {
    EnforceCase {
        cwnd_bytes_q16: w,
        law_rate_bps: law,
        srtt_us: srtt,
        clamp_pkts: clamp,
        pkts,
        rate_bps: rate,
    }
}

/// The table. Columns: window bytes Q16, law rate, srtt µs, clamp -> packets, rate.
pub const ENFORCE_CASES: &[EnforceCase] = &[
    case(0, 0, 100, 64, 0, 0), // no state yet: leave the host's
    case(b(10_500), 0, 100, 64, 10, 200_000_000), // floor 10; 2*10*1000 B / 100 µs
    case(b(10_500), 7_000, 100, 64, 10, 7_000), // the law paces: its rate
    case(b(10_500), 0, 0, 64, 10, MAX), // no srtt: unlimited
    case(b(1_840), 0, 100, 64, 2, 18_400_000), // 1.84 pkts: 2, W/srtt
    case(b(990), 0, 100, 64, 1, 9_900_000), // 0.99 pkt: 1, W/srtt
    case(b(1_500), 5_000_000, 100, 64, 2, 5_000_000), // law's rate below W/srtt: law's
    case(b(500), 5_000_000, 100, 64, 1, 5_000_000), // 0.5 pkt, the law paces: its rate
    case(b(1_500), 50_000_000, 100, 64, 2, 50_000_000), // law's above W/srtt: law's
    case(b(1_500), 0, 0, 64, 2, MAX), // no srtt, unpaced: unlimited
    case(b(1_500), 7, 0, 64, 2, 7), // no srtt, paced: the law's
    case(b(1_500), 0, 100, 1, 1, 15_000_000), // the clamp still holds
    case(b(1_000), 0, 100, 64, 1, 20_000_000), // exactly 1 pkt: as before
    case(b(2_000), 0, 100, 64, 2, 40_000_000), // exactly 2 pkts: as before
    case(b(1_999), 0, 100, 64, 2, 19_990_000), // just below 2 pkts
    case(b(1_000) + 1, 0, 100, 64, 2, 10_000_000), // 1/65536 B over 1 pkt
    case(b(1_000_000), 0, 100, 64, 64, 1_280_000_000), // clamp 64: 2*64*1000/100µs
    case(1, 0, 1_000_000, 64, 1, 1), // W/srtt rounds to 0: at least 1
    case(b(10_500), 0, 100, 0, 1, 20_000_000), // clamp 0 reads as 1
    case(b(1_500), 0, 100, 0, 1, 15_000_000), // below 2 pkts, clamp 0: 1
];

/// Run the table: the number of cases, or the index of the first case whose window or rate
/// differs.
pub fn run_enforce() -> Result<usize, usize> {
    for (i, c) in ENFORCE_CASES.iter().enumerate() {
        let d = Decision {
            cwnd_bytes_q16: c.cwnd_bytes_q16,
            pacing_rate_bps: c.law_rate_bps,
            ..Decision::default()
        };
        let e = d.enforce(ENFORCE_MSS, c.srtt_us, c.clamp_pkts);
        if e.cwnd_pkts != c.pkts || e.pacing_rate_bps != c.rate_bps {
            return Err(i);
        }
    }
    Ok(ENFORCE_CASES.len())
}
