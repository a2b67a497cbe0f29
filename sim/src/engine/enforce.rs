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

/// Fractional windows below this many packets are paced at
/// `cwnd / srtt` with the window rounded up; from it on a window is floored and gets the
/// kernel's non-binding `2 * cwnd / srtt`.
pub(crate) const FRACTIONAL_PACING_MAX_PKTS: u64 = 2;

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

/// The enforcement rule. `d` is the law's decision (`cwnd_bytes_q16 > 0`), `mss_bytes > 0`,
/// `srtt_ns` the transport's smoothed RTT (0 before the first sample). In order:
///
/// 1. The law sets a rate (`pacing_rate_bps > 0`): window `max(1, floor(cwnd))`, the law's
///    rate (Swift below one packet: the window is 1 and the rate `cwnd * mss / rtt`).
/// 2. No sample yet (`srtt_ns == 0`): window `max(1, floor(cwnd))`, unpaced.
/// 3. `cwnd < FRACTIONAL_PACING_MAX_PKTS` packets and not whole (in practice between 1 and 2:
///    below 1 Swift sets its own rate): window `floor(cwnd) + 1`, rate
///    `cwnd_bytes * 10^9 / srtt_ns`.
/// 4. Otherwise: window `max(1, floor(cwnd))`, rate `2 * window * mss * 10^9 / srtt_ns` (the
///    kernel's default for a law that does not pace; it does not bind).
pub(crate) fn enforce(d: &Decision, mss_bytes: u32, srtt_ns: u64) -> Enforced {
    let mss = u64::from(mss_bytes.max(1));
    let floor = u64::from(d.cwnd_pkts(mss_bytes)).clamp(1, MAX_WINDOW_PKTS);
    if d.pacing_rate_bps > 0 {
        return Enforced {
            window_pkts: floor,
            pacing_bps: d.pacing_rate_bps,
        };
    }
    if srtt_ns == 0 {
        return Enforced {
            window_pkts: floor,
            pacing_bps: 0,
        };
    }
    let unit_q16 = mss << 16;
    let whole = d.cwnd_bytes_q16 / unit_q16;
    let fractional = d.cwnd_bytes_q16 % unit_q16 != 0;
    if fractional && whole < FRACTIONAL_PACING_MAX_PKTS {
        // cwnd_bytes_q16 < 2 * 2^32 * 2^16 here: the product with 10^9 fits u128 with room.
        let rate = (u128::from(d.cwnd_bytes_q16) * 1_000_000_000 / u128::from(srtt_ns)) >> 16;
        return Enforced {
            window_pkts: whole + 1,
            pacing_bps: (rate as u64).max(1),
        };
    }
    let rate = u128::from(2 * floor * mss) * 1_000_000_000 / u128::from(srtt_ns);
    Enforced {
        window_pkts: floor,
        pacing_bps: rate.min(u128::from(u64::MAX)) as u64,
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
            // No RTT sample yet: floor, unpaced.
            (1840, 0, 0, 1, 0),
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
