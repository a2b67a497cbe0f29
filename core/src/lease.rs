// SPDX-License-Identifier: GPL-2.0-only
//! The hold lease (issue #13): a law that can prove its next ACKs are holds with the window and
//! pacing rate of its last decision says so ([`HoldLease::hold_terms`]), and the host applies
//! that output to those ACKs without building an event or calling the law.
//!
//! In the kernel the lease is `struct rdcc_lease` (modules/glue/rdcc_abi.h) in the 32 glue
//! bytes of `icsk_ca_priv` of a module whose C half defines `RDCC_LEASE` (tcp_timely). Its
//! `rdcc_cong_control` tries `rdcc_lease_take` (modules/glue/rdcc_lease.h, transcribed here as
//! [`Lease::try_take`]) first; any ACK the lease does not cover takes the full path
//! ([`on_ack_leased`]: fold the bytes the fast path absorbed into the state, run the law and its
//! enforcement, grant the next lease). Hooks other than the per-ACK one fold and clear the lease
//! before they run the law ([`lease_retire`]).
//!
//! The claim, tested against the law without a lease on random event sequences
//! (core/tests/lease_equivalence.rs): the kernel's window and pacing rate, the trace, and the
//! state once the absorbed bytes are folded in are exactly those of a host that calls the law on
//! every ACK.
//!
//! Uses `super::event` only, so a kernel module can include it with `#[path]` next to it.

use core::mem::MaybeUninit;

use super::event::{
    AckEvent, Controller, Decision, Enforced, CORE_STATE_BUDGET, ICSK_CA_PRIV_SIZE,
};

/// [`Lease::span`] is in units of `1 << LEASE_SPAN_SHIFT` ns (4096 ns). A u16 of them covers at
/// most [`LEASE_MAX_SPAN_NS`] (268 ms), which also bounds how long after its `since_ns` a lease
/// can be used: the kernel's u32 parameter generation cannot wrap around within that time
/// (rdcc_glue.c `rdcc_params_gen`).
pub const LEASE_SPAN_SHIFT: u32 = 12;
/// One span unit, ns.
pub const LEASE_SPAN_UNIT_NS: u64 = 1 << LEASE_SPAN_SHIFT;
/// Longest validity a lease can state, ns: `u16::MAX` units = 268,431,360 ns.
pub const LEASE_MAX_SPAN_NS: u64 = (u16::MAX as u64) << LEASE_SPAN_SHIFT;
/// [`Lease::rate_pkts`]: the pacing rate, bytes/s, in the low `LEASE_RATE_BITS` bits. Every
/// rate below `fixed::MAX_RATE_BPS` (2^40) fits; TIMELY's is at most its line rate, below that.
pub const LEASE_RATE_BITS: u32 = 40;
/// [`Lease::rate_pkts`]: `floor(W / mss)` packets in the high `LEASE_PKTS_BITS` bits. TIMELY's
/// window is at most `MAX_CWND_PKTS` (2^20) clamped MSS, so below 2^24 packets whenever the MSS
/// is at least its 88-byte clamp; [`Lease::grant`] refuses anything wider.
pub const LEASE_PKTS_BITS: u32 = 24;
const _: () = assert!(LEASE_RATE_BITS + LEASE_PKTS_BITS == 64);
/// The rate bits of [`Lease::rate_pkts`].
const LEASE_RATE_MASK: u64 = (1 << LEASE_RATE_BITS) - 1;

/// What a law promises about the ACKs after its last decision ([`HoldLease::hold_terms`]): every
/// ACK event `ev` with `since_ns <= ev.now_ns < since_ns + span_ns` that brings the sum of the
/// `acked_bytes` of the ACKs since the promise to at most `room_bytes`, under the same parameters
/// and with `ev.mss_bytes` equal to the last decision's, gets a decision with the same window and
/// pacing rate, whatever else it carries, and changes the state exactly as
/// [`HoldLease::absorb`] of its `acked_bytes` does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HoldTerms {
    /// Earliest host time the promise covers, ns.
    pub since_ns: u64,
    /// Length of the covered interval, ns (`u64::MAX`: unbounded).
    pub span_ns: u64,
    /// Bytes the covered ACKs may acknowledge in all.
    pub room_bytes: u64,
}

/// A law that grants hold leases. The defaults of [`Controller`] are untouched: laws without
/// this trait never get a lease, and a module that does not define `RDCC_LEASE` never asks.
pub trait HoldLease: Controller {
    /// The terms ([`HoldTerms`]) that hold for the state right after the law's last decision
    /// (the end of an `on_ack`), or None. A law that returns Some must make [`Self::absorb`]
    /// reproduce exactly what `on_ack` does to the state on every ACK the terms cover.
    fn hold_terms(p: &Self::Params, s: &Self::State) -> Option<HoldTerms>;
    /// Fold `bytes`, the sum of the `acked_bytes` of ACKs a lease covered, into the state.
    fn absorb(s: &mut Self::State, bytes: u32);
}

/// The hold lease: a law's [`HoldTerms`] with the enforced output of its last decision, as the
/// kernel keeps it (`struct rdcc_lease` in modules/glue/rdcc_abi.h, same layout; checked by
/// core/tests/abi_offsets.rs). All-zero is no lease (`gen == 0`): the kernel zeroes
/// `icsk_ca_priv` when it assigns the CA, and `rdcc_init` clears the glue bytes again.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lease {
    /// `HoldTerms::since_ns`: valid while `now - since_ns` (wrapping) `< span << LEASE_SPAN_SHIFT`.
    pub since_ns: u64,
    /// Pacing rate, bytes/s (low `LEASE_RATE_BITS` bits) | `floor(W / mss)` packets (high
    /// `LEASE_PKTS_BITS` bits).
    pub rate_pkts: u64,
    /// `HoldTerms::room_bytes`, saturated to `u32::MAX` (a smaller room is still within the
    /// terms).
    pub room_bytes: u32,
    /// Bytes the fast path applied the lease to since the grant (at most `room_bytes`), folded
    /// into the state by the next full call.
    pub absorbed_bytes: u32,
    /// Parameter generation of the grant; 0 = no lease (a generation is never 0).
    pub gen: u32,
    /// MSS of the grant, bytes.
    pub mss: u16,
    /// `HoldTerms::span_ns` in units of `LEASE_SPAN_UNIT_NS`, rounded down (a shorter validity
    /// is still within the terms), at most `u16::MAX`.
    pub span: u16,
}

// The lease fills the glue bytes of icsk_ca_priv, beside the law's state (rdcc_glue.c struct
// rdcc_priv asserts the same on the C side; modules/glue/glue.rs in each leased module).
const _: () = assert!(core::mem::size_of::<Lease>() == 32);
const _: () = assert!(core::mem::align_of::<Lease>() <= 8);
const _: () = assert!(core::mem::size_of::<Lease>() <= ICSK_CA_PRIV_SIZE - CORE_STATE_BUDGET);

impl Lease {
    /// The lease for decision `d`, just returned for MSS `mss_bytes`, under the law's terms `t`,
    /// labelled with the parameter generation `gen`. No lease (all-zero) when the kernel's fast
    /// path could not reproduce `d.enforce(mss_bytes, srtt, clamp)` for every `srtt` and `clamp`
    /// (lemma below), or could not state the terms exactly:
    /// - `floor(W / mss) < 2` (enforce's sub-2-packet branch reads `srtt`, event.rs:311-344) or
    ///   at least 2^`LEASE_PKTS_BITS`;
    /// - a law that does not pace (rate 0: enforce's rate then reads `srtt`, event.rs:353-360)
    ///   or a rate of 2^`LEASE_RATE_BITS` or more;
    /// - an MSS above `u16::MAX`;
    /// - a span below one unit, or `since_ns + span` past `u64::MAX` (then the fast path's one
    ///   wrapping compare would also accept a clock before `since_ns`);
    /// - `gen == 0`.
    ///
    /// Lemma: with `floor >= 2` and a rate `law != 0`, `Decision::enforce` skips its
    /// `floor < 2` block (event.rs:311) and returns `{ law, min(floor, clamp ?: 1) }`
    /// (event.rs:345-365) for every `srtt` and `clamp`; [`Lease::try_take`] returns exactly that
    /// (property test `lease_enforces_like_enforce`).
    pub fn grant(t: &HoldTerms, d: &Decision, mss_bytes: u32, gen: u32) -> Lease {
        let Ok(mss16) = u16::try_from(mss_bytes) else {
            return Lease::default();
        };
        let mss = if mss_bytes == 0 {
            1
        } else {
            u64::from(mss_bytes)
        };
        // floor(W / mss) exactly as Decision::enforce computes it (event.rs:307-309).
        let floor = (d.cwnd_bytes_q16 >> 16).checked_div(mss).unwrap_or(0);
        let rate = d.pacing_rate_bps;
        // Whole units, rounded down, at most u16::MAX: never longer than the terms.
        let span = u16::try_from(t.span_ns >> LEASE_SPAN_SHIFT).unwrap_or(u16::MAX);
        let span_ns = u64::from(span) << LEASE_SPAN_SHIFT; // < 2^28
        if gen == 0
            || floor < 2
            || floor >> LEASE_PKTS_BITS != 0
            || rate == 0
            || rate > LEASE_RATE_MASK
            || span == 0
            || t.since_ns.checked_add(span_ns).is_none()
        {
            return Lease::default();
        }
        Lease {
            since_ns: t.since_ns,
            // floor < 2^24 and rate < 2^40: the two fields do not overlap.
            rate_pkts: rate | (floor << LEASE_RATE_BITS),
            room_bytes: u32::try_from(t.room_bytes).unwrap_or(u32::MAX),
            absorbed_bytes: 0,
            gen,
            mss: mss16,
            span,
        }
    }

    /// `rdcc_lease_take` (modules/glue/rdcc_lease.h) transcribed, for the host tests and the
    /// KUnit case `rdcc_glue_lease`, which holds the C to it. `Some(what the fast path sets)`
    /// when the lease covers an ACK of `acked_pkts` packets (`rs->acked_sacked`) at `now_ns`
    /// with `tp->mss_cache == mss`, parameter generation `gen`, CA state Recovery or Loss
    /// (`in_recovery`) or not, and `snd_cwnd_clamp == clamp_pkts`; `absorbed_bytes` then has
    /// grown by the ACK's bytes. `None`: the full path runs, nothing changed.
    ///
    /// The conditions, in the fast path's order: the same generation and MSS as the grant, not
    /// in Recovery or Loss (the glue's Loss-state window rule, rdcc_glue.c `rdcc_ack_full`,
    /// must run), `0 <= now - since_ns < span` as one wrapping compare (exact because
    /// [`Lease::grant`] refused a span past `u64::MAX`), and the bytes absorbed since the grant
    /// plus this ACK's at most `room_bytes`. The ACK's bytes are `acked_pkts * mss`, as
    /// `rdcc_fill_ack_in` computes them (modules/glue/rdcc_event.h) except that it saturates at
    /// `u32::MAX`; the product here is below 2^48 (`mss` is 16 bits) and exceeds `room_bytes`
    /// whenever the saturated one would.
    pub fn try_take(
        &mut self,
        gen: u32,
        mss: u32,
        now_ns: u64,
        acked_pkts: u32,
        in_recovery: bool,
        clamp_pkts: u32,
    ) -> Option<Enforced> {
        if self.gen != gen || u32::from(self.mss) != mss || in_recovery {
            return None;
        }
        if now_ns.wrapping_sub(self.since_ns) >= u64::from(self.span) << LEASE_SPAN_SHIFT {
            return None;
        }
        // < 2^32 + 2^48: no overflow.
        let total = u64::from(self.absorbed_bytes)
            .wrapping_add(u64::from(acked_pkts).wrapping_mul(u64::from(self.mss)));
        if total > u64::from(self.room_bytes) {
            return None;
        }
        self.absorbed_bytes = total as u32; // <= room_bytes <= u32::MAX
        let pkts = (self.rate_pkts >> LEASE_RATE_BITS) as u32; // < 2^24
        let clamp = if clamp_pkts == 0 { 1 } else { clamp_pkts };
        Some(Enforced {
            pacing_rate_bps: self.rate_pkts & LEASE_RATE_MASK,
            cwnd_pkts: if pkts > clamp { clamp } else { pkts },
            _pad: 0,
        })
    }
}

/// One ACK on the full path of a module with a hold lease (the glue's `rdcc_rs_on_ack_lease`):
/// fold what the fast path absorbed, run the law and its enforcement as `rdcc_rs_on_ack` does,
/// then grant the next lease for generation `gen` (the caller read `gen` before it read the
/// parameters `p`: rdcc_glue.c `rdcc_params_gen`). Host tests call this very function
/// (core/tests/lease_equivalence.rs).
///
/// `d` and `e` may be uninitialized (the glue's `struct rdcc_ack_out` on the C stack): each is
/// written whole once, in place, before anything reads it; the written values are returned.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn on_ack_leased<'o, L: HoldLease>(
    p: &L::Params,
    s: &mut L::State,
    ev: &AckEvent,
    srtt_us: u32,
    clamp_pkts: u32,
    lease: &mut Lease,
    gen: u32,
    d: &'o mut MaybeUninit<Decision>,
    e: &'o mut MaybeUninit<Enforced>,
) -> (&'o Decision, &'o Enforced) {
    if lease.absorbed_bytes != 0 {
        L::absorb(s, lease.absorbed_bytes);
    }
    let d = d.write(L::on_ack(p, s, ev));
    let e = e.write(d.enforce(ev.mss_bytes, srtt_us, clamp_pkts));
    *lease = match L::hold_terms(p, s) {
        Some(t) => Lease::grant(&t, d, ev.mss_bytes, gen),
        None => Lease::default(),
    };
    (d, e)
}

/// End a lease before a hook other than the per-ACK one runs the law (loss, idle restart,
/// undo): fold what the fast path absorbed into the state, then clear the lease.
pub fn lease_retire<L: HoldLease>(s: &mut L::State, lease: &mut Lease) {
    if lease.absorbed_bytes != 0 {
        L::absorb(s, lease.absorbed_bytes);
    }
    *lease = Lease::default();
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;

    /// Granted for a window of `w_bytes`, law rate `rate`, MSS `mss`, the terms `since`/`span`?
    fn granted(w_bytes: u64, rate: u64, mss: u32, since: u64, span_ns: u64, gen: u32) -> bool {
        let d = Decision {
            cwnd_bytes_q16: w_bytes << 16,
            pacing_rate_bps: rate,
            ..Decision::default()
        };
        let t = HoldTerms {
            since_ns: since,
            span_ns,
            room_bytes: 1 << 30,
        };
        Lease::grant(&t, &d, mss, gen) != Lease::default()
    }

    /// Every refusal of `grant`, each with the accepted case on the other side of its boundary.
    #[test]
    fn lease_grant_refuses() {
        let w = 10 * u64::from(MSS);
        let (r, s, span) = (1_000_000u64, 1u64 << 40, 1u64 << 21);
        let cases: &[(&str, bool, bool)] = &[
            ("base", granted(w, r, MSS, s, span, 7), true),
            ("rate 0", granted(w, 0, MSS, s, span, 7), false),
            ("rate 2^40", granted(w, 1 << 40, MSS, s, span, 7), false),
            (
                "rate 2^40 - 1",
                granted(w, (1 << 40) - 1, MSS, s, span, 7),
                true,
            ),
            ("floor 1", granted(1999, r, MSS, s, span, 7), false),
            ("floor 2", granted(2000, r, MSS, s, span, 7), true),
            (
                "floor 2^24",
                granted((1 << 24) * 1000, r, MSS, s, span, 7),
                false,
            ),
            (
                "floor 2^24 - 1",
                granted(((1 << 24) - 1) * 1000, r, MSS, s, span, 7),
                true,
            ),
            (
                "mss 65536",
                granted(10 * 65_536, r, 65_536, s, span, 7),
                false,
            ),
            (
                "mss 65535",
                granted(10 * 65_535, r, 65_535, s, span, 7),
                true,
            ),
            ("mss 0 (as 1)", granted(10, r, 0, s, span, 7), true),
            ("gen 0", granted(w, r, MSS, s, span, 0), false),
            ("span 4095 ns", granted(w, r, MSS, s, 4095, 7), false),
            ("span 4096 ns", granted(w, r, MSS, s, 4096, 7), true),
            ("span unbounded", granted(w, r, MSS, s, u64::MAX, 7), true),
            (
                "since + span past u64::MAX",
                granted(w, r, MSS, u64::MAX - 4095, 4096, 7),
                false,
            ),
            (
                "since + span = u64::MAX",
                granted(w, r, MSS, u64::MAX - 4096, 4096, 7),
                true,
            ),
        ];
        for &(name, got, want) in cases {
            assert_eq!(got, want, "{name}");
        }
    }

    /// The packing of an accepted lease: rate and packets in their bits, the span rounded
    /// down, the room saturated, nothing absorbed yet.
    #[test]
    fn lease_grant_packs() {
        let d = Decision {
            cwnd_bytes_q16: (12_345 * u64::from(MSS) + 999) << 16,
            pacing_rate_bps: 1_250_000_000,
            ..Decision::default()
        };
        let t = HoldTerms {
            since_ns: 77,
            span_ns: 2_000_000,
            room_bytes: 1 << 33,
        };
        let l = Lease::grant(&t, &d, MSS, 3);
        assert_eq!(
            l,
            Lease {
                since_ns: 77,
                rate_pkts: 1_250_000_000 | (12_345 << 40),
                room_bytes: u32::MAX,
                absorbed_bytes: 0,
                gen: 3,
                mss: 1000,
                span: 488, // 2,000,000 / 4096 = 488.28
            }
        );
        let t = HoldTerms {
            span_ns: u64::MAX,
            ..t
        };
        assert_eq!(Lease::grant(&t, &d, MSS, 3).span, u16::MAX);
    }

    /// try_take's conditions at their boundaries, on one lease.
    #[test]
    fn lease_take_boundaries() {
        let base = Lease {
            since_ns: 1_000_000,
            rate_pkts: 5_000 | (10 << 40),
            room_bytes: 4 * 1448,
            absorbed_bytes: 1448,
            gen: 2,
            mss: 1448,
            span: 10, // 40,960 ns
        };
        let take = |now: u64, pkts: u32, gen: u32, mss: u32, rec: bool, clamp: u32| {
            let mut l = base;
            let e = l.try_take(gen, mss, now, pkts, rec, clamp);
            (
                e.map(|e| (e.cwnd_pkts, e.pacing_rate_bps)),
                l.absorbed_bytes,
            )
        };
        let t = 1_000_000;
        assert_eq!(
            take(t, 3, 2, 1448, false, 64),
            (Some((10, 5_000)), 4 * 1448)
        );
        assert_eq!(take(t, 4, 2, 1448, false, 64), (None, 1448)); // room exceeded by one packet
        assert_eq!(
            take(t + 40_959, 0, 2, 1448, false, 64),
            (Some((10, 5_000)), 1448)
        );
        assert_eq!(take(t + 40_960, 0, 2, 1448, false, 64), (None, 1448)); // span ended
        assert_eq!(take(t - 1, 0, 2, 1448, false, 64), (None, 1448)); // clock before since
        assert_eq!(take(t, 1, 3, 1448, false, 64), (None, 1448)); // another generation
        assert_eq!(take(t, 1, 2, 1449, false, 64), (None, 1448)); // another MSS
        assert_eq!(take(t, 1, 2, 1448, true, 64), (None, 1448)); // Recovery or Loss
        assert_eq!(take(t, 1, 2, 1448, false, 4), (Some((4, 5_000)), 2 * 1448)); // clamp
        assert_eq!(take(t, 1, 2, 1448, false, 0), (Some((1, 5_000)), 2 * 1448)); // clamp 0
        assert_eq!(take(t, u32::MAX, 2, 1448, false, 64), (None, 1448)); // no overflow
    }

    /// The all-zero lease (no lease) is never applied and never changes.
    #[test]
    fn zero_lease_is_none() {
        // gen 0 never equals a generation: the all-zero lease is never applied.
        for gen in [1u32, 2, u32::MAX] {
            let mut l = Lease::default();
            assert_eq!(l.try_take(gen, 0, 0, 0, false, 1), None);
            assert_eq!(l, Lease::default());
        }
    }

    proptest::proptest! {
        /// For any decision, MSS and terms the grant accepts, the fast path's output equals
        /// Decision::enforce for every srtt and clamp (the lemma in Lease::grant's docs).
        #[test]
        fn lease_enforces_like_enforce(w: u64, law in 0u64..(1 << 41), mss in 0u32..70_000,
                                       srtt: u32, clamp: u32, now_off in 0u64..(1 << 20)) {
            lease_enforce_check(w, law, mss, srtt, clamp, now_off)?;
        }

        /// The same with windows of a few packets, so that floors 0, 1, 2 and 3 are hit.
        #[test]
        fn lease_enforces_like_enforce_small_windows(
            w in 0u64..((4 * 65_536) << 16), law in 0u64..(1 << 41), mss in 1u32..4096,
            srtt: u32, clamp in 0u32..8, now_off in 0u64..(1 << 20),
        ) {
            lease_enforce_check(w, law, mss, srtt, clamp, now_off)?;
        }

        /// The all-zero lease covers nothing, whatever the socket says (generations start at 1).
        #[test]
        fn zero_lease_never_applies(
            gen in 1u32..=u32::MAX, mss: u32, now: u64, pkts: u32, rec: bool, clamp: u32,
        ) {
            let mut l = Lease::default();
            proptest::prop_assert_eq!(l.try_take(gen, mss, now, pkts, rec, clamp), None);
        }
    }

    fn lease_enforce_check(
        w: u64,
        law: u64,
        mss: u32,
        srtt: u32,
        clamp: u32,
        now_off: u64,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let d = Decision {
            cwnd_bytes_q16: w,
            pacing_rate_bps: law,
            ..Decision::default()
        };
        let t = HoldTerms {
            since_ns: 1 << 40,
            span_ns: 1 << 21,
            room_bytes: 1 << 30,
        };
        let mut l = Lease::grant(&t, &d, mss, 7);
        if l != Lease::default() {
            let e = l.try_take(7, mss, (1 << 40) + now_off, 0, false, clamp);
            proptest::prop_assert_eq!(e, Some(d.enforce(mss, srtt, clamp)));
        }
        Ok(())
    }
}
