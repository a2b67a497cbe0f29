//! The glue's enforcement of a `Decision`: the window in whole packets and the pacing rate
//! (the rule `modules/glue/rdcc_glue.c` `rdcc_apply` implements; ARCHITECTURE.md,
//! "Enforcement").
//!
//! A window is enforced in whole packets. Below two packets flooring loses up to half of the
//! law's rate: 1.84 packets floored to 1 sent at 54 % of the law's rate while 0.99 (paced by
//! the law, Swift §3.4) sent at 99 %, and a Linux receiver that ACKs every second segment holds
//! the ACK of a lone segment for its delayed-ACK timer. So a window strictly between 1 and 2
//! packets is realised the way Swift realises a window below one packet (§3.4, Alg. 1 lines
//! 29-30: one packet every `rtt / cwnd`), generalised: the window is rounded **up** to 2 and
//! the flow is paced at `cwnd_bytes / srtt`, so the rate is the law's and at most one packet
//! more than the law's window is in flight. From 2 packets on the window is ACK-clocked as
//! Swift prescribes ("pacing packets for moderate or higher flow rates did not provide better
//! performance than an ACK-clocked window", §3.4): flooring loses less than 1/floor of the
//! window, which a delay-based law absorbs by holding a slightly larger window. Pacing up to 8
//! packets was measured and rejected: it made 256- and 1024-flow incasts oscillate
//! (Documentation/results/swift_vm_path.md).

use rdcc_core::event::Decision;

/// Largest window the hosts enforce, packets (Linux `snd_cwnd_clamp`'s order).
pub(crate) const MAX_WINDOW_PKTS: u64 = 1 << 20;

/// What the host enforces for one decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Enforced {
    /// Packets allowed in flight.
    pub window_pkts: u64,
    /// Pacing rate of the payload, bytes/s (0 = unpaced).
    pub pacing_bps: u64,
}

/// The enforcement rule: the core's [`Decision::enforce`], the function the kernel glue calls
/// on every ACK, so that the simulator's hosts enforce exactly what the kernel does. `d` is the
/// law's decision (`cwnd_bytes_q16 > 0`), `mss_bytes > 0`, `srtt_ns` the transport's smoothed
/// RTT (0 before the first sample), handed over in the kernel glue's unit: whole µs rounded up
/// (`rdcc_srtt_us()` in `rdcc_glue.c`: rounding down paced up to 1 % fast at 100 µs RTTs, and
/// Swift's 256:1 incast in `sim/tests/swift_outcomes.rs` overshot its target by 51 % instead of
/// 36 %). In short (the core's doc has the whole rule):
///
/// 1. A window below 2 packets that is not whole: `ceil(cwnd)` packets (1 or 2) paced at the
///    law's rate when it has one (Swift below one packet), else at `cwnd_bytes / srtt`, or
///    unpaced with no sample yet.
/// 2. Otherwise: `max(1, floor(cwnd))` packets, the law's rate, or for a law that does not pace
///    `2 * window * mss / srtt` (the kernel's default; it does not bind), unpaced without a
///    sample.
pub(crate) fn enforce(d: &Decision, mss_bytes: u32, srtt_ns: u64) -> Enforced {
    let srtt_us = if srtt_ns == 0 {
        0
    } else {
        u32::try_from(srtt_ns.div_ceil(1000))
            .unwrap_or(u32::MAX)
            .max(1)
    };
    let e = d.enforce(mss_bytes, srtt_us, MAX_WINDOW_PKTS as u32);
    Enforced {
        window_pkts: u64::from(e.cwnd_pkts).max(1),
        // u64::MAX is the core's "unlimited": this host's "unpaced".
        pacing_bps: if e.pacing_rate_bps == u64::MAX {
            0
        } else {
            e.pacing_rate_bps
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(cwnd_milli_pkts: u64, mss: u32, rate: u64) -> Decision {
        Decision {
            cwnd_bytes_q16: ((cwnd_milli_pkts * u64::from(mss)) << 16) / 1000,
            pacing_rate_bps: rate,
            ..Decision::default()
        }
    }

    /// (window in 1/1000 packet, law's rate, srtt ns, expected window, expected rate B/s),
    /// computed by hand with MSS 1000 B and srtt 100 µs: `cwnd * 1000 B / 100 µs`.
    #[test]
    fn table_of_windows() {
        let cases: &[(u64, u64, u64, u64, u64)] = &[
            // Law paces (Swift below one packet): its rate, one packet.
            (500, 5_000_000, 100_000, 1, 5_000_000),
            (990, 9_900_000, 100_000, 1, 9_900_000),
            // Whole windows: floor, 2 * cwnd / srtt.
            (1000, 0, 100_000, 1, 20_000_000),
            (2000, 0, 100_000, 2, 40_000_000),
            // Fractional between 1 and 2: ceil, cwnd / srtt.
            (1001, 0, 100_000, 2, 10_010_000),
            (1500, 0, 100_000, 2, 15_000_000),
            (1840, 0, 100_000, 2, 18_400_000),
            (1999, 0, 100_000, 2, 19_990_000),
            // From 2 on: floor, 2 * floor / srtt.
            (2500, 0, 100_000, 2, 40_000_000),
            (3300, 0, 100_000, 3, 60_000_000),
            // Below one packet from a law that sets no rate: one packet at cwnd / srtt.
            (400, 0, 100_000, 1, 4_000_000),
            // No RTT sample yet: ceil below 2 packets, floor above, unpaced.
            (1840, 0, 0, 2, 0),
            (2500, 0, 0, 2, 0),
            // Fractional below 2 with a law rate: ceil, the law's rate.
            (1500, 90_000_000, 100_000, 2, 90_000_000),
            (300, 0, 0, 1, 0),
        ];
        for &(w, law, srtt, want_w, want_r) in cases {
            let e = enforce(&dec(w, 1000, law), 1000, srtt);
            assert_eq!(
                e,
                Enforced {
                    window_pkts: want_w,
                    pacing_bps: want_r
                },
                "cwnd {w}/1000 packets, law rate {law}, srtt {srtt}"
            );
        }
    }
}
