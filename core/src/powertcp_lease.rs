// SPDX-License-Identifier: GPL-2.0-only
//! θ-PowerTCP's hold lease (issue #13): on most ACKs of a datacenter stream the kernel neither
//! builds an event nor calls the law.
//!
//! A child module of `powertcp` (declared there with `#[path]`, so a kernel module that includes
//! `powertcp.rs` gets this file too) because it reads the law's private parameters and helpers;
//! in its own file to keep `powertcp.rs` within the project's file size.
//!
//! **What a hold changes.** In the per-RTT cadence with a configured τ (the defaults), an ACK
//! that is not due changes exactly two fields of the state: `rtt_smooth_ns`, Alg. 2 line 21's
//! average of the RTT samples, and `last_ack_ns`, line 13's t_c^prev. The average rounds down
//! at every ACK and depends on each (RTT, dt), so nothing smaller than the field itself sums up
//! the ACKs a lease covered, and the 32 glue bytes cannot hold a copy of the state (68 of the
//! 72 core bytes are the law's). So the C fast path (`rdcc_theta_take`,
//! modules/glue/rdcc_lease_theta.h, transcribed here as [`ThetaLease::take`]) steps the law's
//! own [`State`] in place (it is `#[repr(C)]`), and the lease ([`ThetaLease`], in the glue
//! bytes) holds only the enforced output of the last decision and the keys under which it
//! holds. There is nothing to fold: the state is always the law's.
//!
//! **Derivation**, on `ThetaPowerTcp::on_ack` for a state that passed [`ThetaLease::grant`]
//! (`FLAG_INIT` and `FLAG_HAVE_PREV` set, per-RTT cadence, configured τ, no parameter write
//! since, since every parameter write bumps the generation) and an ACK with the lease's MSS and
//! clamp:
//! - the lazy initialisation and the first-sample branch do not run (the flags; only `fresh`,
//!   from init and idle restart, and `reset_history`, from an RTO, change them, and those
//!   hooks end the lease);
//! - no sample (`rs->rtt_us <= 0`): `decision(.., NoSample)`, no state change;
//! - a sample in `[1, THETA_RTT_US_MAX]` µs: the law's clamp is the identity, the minimum-RTT
//!   branch does not run (configured τ);
//! - `now < last_ack_ns`: `restart_at`, a state change: the full path;
//! - `dt == 0`: a hold before the due test, no state change;
//! - otherwise τ is the lease's (`p.base_rtt_ns`), and due is `now − update_ns > RTT` (the
//!   law's `now − RTT > update_ns`: `now > last_ack_ns ≥ update_ns` here) or
//!   `!seq_after(marker_seq, snd_una)`. Not due: the average (line 21) and line 13 are the
//!   only changes, and the decision is `decision_tau` of a state whose window, flags and
//!   minimum RTT did not change. Due: the update, which [`on_due`] runs with the C's average.
//!
//! **Why a hold's output is the lease's.** Every return of `on_ack` builds its decision from
//! the state it leaves, so a covered ACK's window and pacing rate are those of the decision
//! the lease was granted from, whichever return that was. With `floor(W / mss) >= 2` and a
//! rate `!= 0`, `Decision::enforce` returns `min(floor, clamp ?: 1)` packets at the law's rate
//! for every `srtt` (event.rs `enforce`; the same lemma as `lease::Lease::grant`'s), so the
//! lease keys that window by `snd_cwnd_clamp`. The decision's reason (Hold or NoSample) and
//! signal reach only the tracepoint, which the fast path leaves to the full path.
//!
//! Not leased, on purpose (those flows keep the full path on every ACK): the per-ACK cadence
//! (two `mul_div`s and a division per ACK, in the state) and the minimum-RTT τ mode (τ moves
//! with the samples). The claim, tested on random event sequences against the glue without a
//! lease (core/tests/theta_lease_equivalence.rs): the kernel's window and pacing rate, the
//! trace and the state are exactly those of a host that calls the law on every ACK.

use core::mem::{align_of, offset_of, size_of, MaybeUninit};

use super::super::event::{
    AckEvent, Controller, Decision, Enforced, ACK_HAS_RTT, ACK_IN_RECOVERY, CORE_STATE_BUDGET,
    ICSK_CA_PRIV_SIZE,
};
use super::super::fixed::{seq_after, MAX_RATE_BPS, NS_PER_US, Q16_SHIFT};
use super::{
    smooth, tau_ns, update_per_rtt, DueAck, Params, State, ThetaPowerTcp, BASE_RTT_MAX_NS,
    BASE_RTT_MIN_NS, FLAG_HAVE_PREV, FLAG_INIT, RTT_MAX_NS,
};

/// Largest `rs->rtt_us` the fast path takes, µs. `4_294_967 · 1000 = 4_294_967_000 ≤
/// RTT_MAX_NS = 2^32 − 1`, so on every sample in `[1, THETA_RTT_US_MAX]` the law's clamp
/// `clamp(r, 1, RTT_MAX_NS)` is the identity and the sample is an exact `u32`; one more µs is
/// above `RTT_MAX_NS`. A larger sample (above 4.29 s) takes the full path.
pub const THETA_RTT_US_MAX: u64 = 4_294_967;
const _: () = assert!(THETA_RTT_US_MAX * NS_PER_US <= RTT_MAX_NS);
const _: () = assert!((THETA_RTT_US_MAX + 1) * NS_PER_US > RTT_MAX_NS);

/// How long after the state's `update_ns` a lease is used at most, ns (2^32 ns = 4.3 s). A
/// covered ACK with a sample is not due, so `now − update_ns <= RTT < 2^32`; one without a
/// sample is covered only while `now − update_ns <= THETA_LIFE_NS`. So `last_ack_ns` stays
/// within `update_ns + THETA_LIFE_NS` (a grant fact every covered ACK keeps), and 2^32 parameter
/// writes, each a syscall and a `synchronize_rcu()`, cannot happen while a lease lives: the u32
/// generation (rdcc_glue.c `rdcc_params_gen`) does not come back to a live lease's value.
pub const THETA_LIFE_NS: u64 = 1 << 32;

/// Latest `update_ns` a lease is granted at, ns: `u64::MAX − 2^33`. With `last_ack_ns <=
/// update_ns + THETA_LIFE_NS`, `last_ack_ns` stays below `u64::MAX − 2^32`, so the fast path's
/// one wrapping test `dt − 1 < τ − 1` (τ <= 2^30) never takes a clock before `last_ack_ns` for a
/// time `dt` after it: that would need `last_ack_ns − now > 2^64 − τ`.
pub const THETA_UPDATE_MAX_NS: u64 = u64::MAX - (1 << 33);

/// The lease's window is below this many packets (2^24, far below the 2^31 at which
/// `tcp_snd_cwnd_set` warns). `floor(W / mss) < 2^24` for every window θ-PowerTCP outputs (at
/// most 2^31 bytes) with an MSS above 128 bytes. `mss · THETA_PKTS_LIMIT < 2^16 · 2^24 = 2^40`.
/// The C due path tests the same range (`RDCC_THETA_PKTS_LIMIT`, rdcc_abi.h).
pub const THETA_PKTS_LIMIT: u64 = 1 << 24;

/// `Params`' layout as C reads it (`struct rdcc_theta_params`, rdcc_abi.h): its size, then each
/// field's name and offset, for core/tests/abi_offsets.rs (the fields are private, so the test
/// cannot take their offsets itself).
pub const PARAMS_ABI: (usize, [(&str, usize); 14]) = (
    size_of::<Params>(),
    [
        ("gamma_q16", offset_of!(Params, gamma_q16)),
        (
            "one_minus_gamma_q16",
            offset_of!(Params, one_minus_gamma_q16),
        ),
        ("base_rtt_ns", offset_of!(Params, base_rtt_ns)),
        ("gamma_beta_q16", offset_of!(Params, gamma_beta_q16)),
        ("min_cwnd_q16", offset_of!(Params, min_cwnd_q16)),
        ("max_cwnd_q16", offset_of!(Params, max_cwnd_q16)),
        ("grad_floor_q16", offset_of!(Params, grad_floor_q16)),
        ("per_ack", offset_of!(Params, per_ack)),
        ("min_rtt_tau", offset_of!(Params, min_rtt_tau)),
        ("artifact_tau", offset_of!(Params, artifact_tau)),
        ("beta_q16", offset_of!(Params, beta_q16)),
        ("init_cwnd_q16", offset_of!(Params, init_cwnd_q16)),
        ("smooth_init_q16", offset_of!(Params, smooth_init_q16)),
        ("loss_keep_q16", offset_of!(Params, loss_keep_q16)),
    ],
);

/// The lease (`struct rdcc_theta_lease` in modules/glue/rdcc_abi.h, same layout; checked by
/// core/tests/abi_offsets.rs): the enforced output of the law's last decision and the keys under
/// which it holds, in the 32 glue bytes of `icsk_ca_priv` of tcp_theta_powertcp. All-zero is no
/// lease (`gen == 0`): the kernel zeroes `icsk_ca_priv` when it assigns the CA, and `rdcc_init`
/// clears the glue bytes again.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThetaLease {
    /// The law's pacing rate, bytes/s, in `(0, MAX_RATE_BPS)`.
    pub rate_bps: u64,
    /// The window, packets: `Decision::enforce`'s `min(floor(W / mss), clamp ?: 1)`, in
    /// `[1, 2^24)`.
    pub cwnd_pkts: u32,
    /// Parameter generation of the grant; 0 = no lease (a generation is never 0).
    pub gen: u32,
    /// `snd_cwnd_clamp` at the grant (the key of `cwnd_pkts`).
    pub clamp: u32,
    /// τ at the grant, ns, in `[BASE_RTT_MIN_NS, BASE_RTT_MAX_NS]`: the fast path divides by it.
    pub tau_ns: u32,
    /// `mss_cache` at the grant, bytes.
    pub mss: u16,
    /// Explicit padding, 0.
    pub _pad: u16,
    /// Reserved, 0 (the minimum-RTT τ mode's floor, should that mode ever be leased).
    pub _spare: u32,
}

// The lease fills the glue bytes of icsk_ca_priv beside the law's state (rdcc_glue.c asserts
// the same under RDCC_LEASE_THETA; modules/glue/glue.rs in rdcc_glue_theta_lease!).
const _: () = assert!(size_of::<ThetaLease>() == 32);
const _: () = assert!(align_of::<ThetaLease>() <= 8);
const _: () = assert!(size_of::<ThetaLease>() <= ICSK_CA_PRIV_SIZE - CORE_STATE_BUDGET);
const _: () = assert!(size_of::<State>() <= CORE_STATE_BUDGET);

/// What the glue's due path hands to [`on_due`] (`struct rdcc_theta_due_in`, rdcc_abi.h):
/// `now_ns`, `rtt_ns` and `rtt_smooth_ns` from the fast path's take, the rest from the socket.
/// Every field `on_ack` reads from an ACK event is here (test `on_ack_reads_only`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DueIn {
    /// `tp->tcp_clock_cache`, ns.
    pub now_ns: u64,
    /// `rs->rtt_us · 1000`, ns, in `[1000, 4_294_967_000]`.
    pub rtt_ns: u64,
    /// Alg. 2 line 21's average with this sample and the lease's τ, ns (the C computed it).
    pub rtt_smooth_ns: u32,
    /// `tp->snd_una`.
    pub snd_una: u32,
    /// `tp->snd_nxt`.
    pub snd_nxt: u32,
    /// `tp->mss_cache`, bytes.
    pub mss: u32,
    /// `rdcc_srtt_us(tp)`, µs.
    pub srtt_us: u32,
    /// `tp->snd_cwnd_clamp`, packets.
    pub clamp_pkts: u32,
}

const _: () = assert!(size_of::<DueIn>() == 40);

/// The outcome of [`ThetaLease::take`] (`RDCC_THETA_*` in rdcc_lease_theta.h).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Take {
    /// Not covered: nothing stored; the full path runs (`RDCC_THETA_FULL`, 0).
    Full,
    /// A hold: the state was stepped as `on_ack` steps it; set this window and rate
    /// (`RDCC_THETA_HOLD`, 1).
    Hold(Enforced),
    /// Covered up to the due test and due: nothing stored; [`on_due`] runs the update
    /// (`RDCC_THETA_DUE`, 2).
    Due {
        /// The ACK's time, ns.
        now_ns: u64,
        /// The ACK's RTT sample, ns.
        rtt_ns: u64,
        /// The average Alg. 2 line 21 gives with this sample, ns.
        rtt_smooth_ns: u32,
    },
}

impl ThetaLease {
    /// The lease for decision `d`, enforced as `e` for MSS `mss_bytes` and clamp `clamp_pkts`,
    /// that `on_ack` (or [`on_due`]) just returned and that left the state `s`, under parameters
    /// `p` of generation `gen`. No lease (all-zero) unless every premise of the module docs'
    /// derivation holds:
    /// - `gen != 0`, and the ACK was not in Recovery or Loss (`in_recovery`: the glue's
    ///   Loss-state window rule must run; `set_state` ends the lease on the way in);
    /// - per-RTT cadence, configured τ, and τ in `[BASE_RTT_MIN_NS, BASE_RTT_MAX_NS]`;
    /// - `FLAG_INIT` and `FLAG_HAVE_PREV`;
    /// - `update_ns <= last_ack_ns <= update_ns + THETA_LIFE_NS` and
    ///   `update_ns <= THETA_UPDATE_MAX_NS`;
    /// - an MSS of at most `u16::MAX`, `floor(W / mss)` in `[2, 2^24)` (tested with two
    ///   multiplications: `W >= 2 mss` and `W < mss · 2^24`, whole bytes), and a rate in
    ///   `(0, MAX_RATE_BPS)`, so that `e` is `min(floor, clamp ?: 1)` at the law's rate for
    ///   every `srtt` (the lemma in the module docs).
    #[allow(clippy::too_many_arguments)]
    pub fn grant(
        p: &Params,
        s: &State,
        d: &Decision,
        e: &Enforced,
        mss_bytes: u32,
        clamp_pkts: u32,
        gen: u32,
        in_recovery: bool,
    ) -> ThetaLease {
        let Ok(mss16) = u16::try_from(mss_bytes) else {
            return ThetaLease::default();
        };
        let tau = tau_ns(p, s);
        let Ok(tau32) = u32::try_from(tau) else {
            return ThetaLease::default();
        };
        // Decision::enforce's MSS: 0 counts as 1. At most 2^16 − 1, so both products below
        // are under 2^41.
        let mss = u64::from(mss16.max(1));
        let w_bytes = d.cwnd_bytes_q16 >> Q16_SHIFT;
        let both = FLAG_INIT | FLAG_HAVE_PREV;
        let last_minus_update = s.last_ack_ns.checked_sub(s.update_ns);
        if gen == 0
            || in_recovery
            || p.per_ack
            || p.min_rtt_tau
            || !(BASE_RTT_MIN_NS..=BASE_RTT_MAX_NS).contains(&tau)
            || s.flags & both != both
            || s.update_ns > THETA_UPDATE_MAX_NS
            || !last_minus_update.is_some_and(|x| x <= THETA_LIFE_NS)
            || w_bytes < mss.wrapping_mul(2)
            || w_bytes >= mss.wrapping_mul(THETA_PKTS_LIMIT)
            || d.pacing_rate_bps == 0
            || d.pacing_rate_bps >= MAX_RATE_BPS
        {
            return ThetaLease::default();
        }
        ThetaLease {
            rate_bps: d.pacing_rate_bps,
            cwnd_pkts: e.cwnd_pkts,
            gen,
            clamp: clamp_pkts,
            tau_ns: tau32,
            mss: mss16,
            _pad: 0,
            _spare: 0,
        }
    }

    /// What the fast path sets on a hold.
    fn enforced(&self) -> Enforced {
        Enforced {
            pacing_rate_bps: self.rate_bps,
            cwnd_pkts: self.cwnd_pkts,
            _pad: 0,
        }
    }

    /// `rdcc_theta_take` (modules/glue/rdcc_lease_theta.h) transcribed, test for test, for the
    /// host tests and the KUnit case `rdcc_glue_theta_lease`, which holds the C to it: an ACK at
    /// `now_ns` with the rate sample's `rtt_us` (`long`, <= 0 = none) and `snd_una`, on a socket
    /// with `mss_cache == mss`, `snd_cwnd_clamp == clamp_pkts` and parameter generation `gen`.
    /// On [`Take::Hold`] `s` has been stepped exactly as the C steps it; otherwise `s` is
    /// unchanged. Requires what [`ThetaLease::grant`] guarantees of a lease with `gen != 0`:
    /// `tau_ns` in `[1 µs, 1 s]` (the C divides by it; below 2^30 keeps its products below
    /// 2^62).
    #[allow(clippy::too_many_arguments)]
    pub fn take(
        &self,
        s: &mut State,
        gen: u32,
        mss: u32,
        clamp_pkts: u32,
        now_ns: u64,
        rtt_us: i64,
        snd_una: u32,
    ) -> Take {
        if self.gen != gen || u32::from(self.mss) != mss || self.clamp != clamp_pkts {
            return Take::Full;
        }
        // `(u64)rs->rtt_us - 1 >= RDCC_THETA_RTT_US_MAX`: two's complement, so -1 and 0 land
        // at the top with the samples above THETA_RTT_US_MAX.
        let rtt_us_bits = rtt_us as u64;
        if rtt_us_bits.wrapping_sub(1) >= THETA_RTT_US_MAX {
            // No sample: on_ack returns decision(.., NoSample) and changes nothing; covered
            // within the lease's lifetime. A sample above 4.29 s: the full path.
            if rtt_us <= 0 && now_ns.wrapping_sub(s.update_ns) <= THETA_LIFE_NS {
                return Take::Hold(self.enforced());
            }
            return Take::Full;
        }
        // rdcc_fill_ack_in's rtt_us · 1000, in [1000, 4_294_967_000]: the law's clamp is the
        // identity.
        let rtt_ns = rtt_us_bits.wrapping_mul(NS_PER_US);
        let tau = u64::from(self.tau_ns);
        // Alg. 2 line 18: dt = t_c − t_c^prev, wrapping; the test below catches dt == 0,
        // dt >= τ and a clock before last_ack_ns at once.
        let dt_ns = now_ns.wrapping_sub(s.last_ack_ns);
        if dt_ns.wrapping_sub(1) >= tau.wrapping_sub(1) {
            if now_ns < s.last_ack_ns {
                return Take::Full; // on_ack's restart_at
            }
            if dt_ns == 0 {
                return Take::Hold(self.enforced()); // on_ack's dt == 0 hold, no change
            }
            // dt >= τ: smooth() below returns the sample itself.
        }
        // Alg. 2 line 21 (smooth: (old·(τ − dt) + rtt·dt) / τ, or rtt for dt >= τ), exactly as
        // on_ack stores it.
        let avg = smooth(u64::from(s.rtt_smooth_ns), rtt_ns, dt_ns, tau).min(RTT_MAX_NS);
        let avg_u32 = u32::try_from(avg).unwrap_or(u32::MAX);
        // Alg. 2 lines 27/34 (on_ack's `due`): now > last_ack_ns >= update_ns here, so
        // `now − update_ns > rtt` is on_ack's `now − rtt > update_ns`.
        if now_ns.wrapping_sub(s.update_ns) > rtt_ns || !seq_after(s.marker_seq, snd_una) {
            return Take::Due {
                now_ns,
                rtt_ns,
                rtt_smooth_ns: avg_u32,
            };
        }
        s.rtt_smooth_ns = avg_u32; // Alg. 2 line 21
        s.last_ack_ns = now_ns; // Alg. 2 line 13
        Take::Hold(self.enforced())
    }
}

/// One ACK on the full path of tcp_theta_powertcp (the glue's `rdcc_rs_on_ack_theta`): the
/// law, its enforcement as `rdcc_rs_on_ack` does, then the next lease for generation `gen`
/// (the caller read `gen` before the parameters `p`: rdcc_glue.c `rdcc_params_gen`). Host
/// tests call this very function.
///
/// `d` and `e` may be uninitialized (the glue's `struct rdcc_ack_out` on the C stack): each is
/// written whole once, in place, before anything reads it; the written values are returned.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub fn on_ack_leased<'o>(
    p: &Params,
    s: &mut State,
    ev: &AckEvent,
    srtt_us: u32,
    clamp_pkts: u32,
    lease: &mut ThetaLease,
    gen: u32,
    d: &'o mut MaybeUninit<Decision>,
    e: &'o mut MaybeUninit<Enforced>,
) -> (&'o Decision, &'o Enforced) {
    let d = d.write(ThetaPowerTcp::on_ack(p, s, ev));
    let e = e.write(d.enforce(ev.mss_bytes, srtt_us, clamp_pkts));
    let in_recovery = ev.flags & ACK_IN_RECOVERY != 0;
    *lease = ThetaLease::grant(p, s, d, e, ev.mss_bytes, clamp_pkts, gen, in_recovery);
    (d, e)
}

/// A due ACK (the glue's `rdcc_rs_theta_due`): the fast path found the ACK covered up to the
/// due test and due, under `lease`, and stored nothing; `inp` carries its time, sample and
/// average. Then the update, its enforcement and the next lease, under `p`, which may be newer
/// than the lease's parameters (a write between the generation's and the pointer's reads):
/// - when the lease is this generation's and `p` has the lease's τ and modes, `on_ack`'s prefix
///   for this ACK is what the C did (the average, line 13), and the update runs on it;
/// - otherwise `on_ack` runs under `p` on the event rebuilt from `inp` (it reads nothing else
///   of an event: test `on_ack_reads_only`), and nothing of the C's is used.
///
/// The next lease is granted as not in Recovery: a live lease means no `set_state` into
/// Recovery or Loss since its grant (rdcc_glue.c ends the lease there), and every CA state
/// change goes through `set_state`.
///
/// `d` and `e` may be uninitialized, as for [`on_ack_leased`].
#[inline(always)]
pub fn on_due<'o>(
    p: &Params,
    s: &mut State,
    inp: &DueIn,
    lease: &mut ThetaLease,
    gen: u32,
    d: &'o mut MaybeUninit<Decision>,
    e: &'o mut MaybeUninit<Enforced>,
) -> (&'o Decision, &'o Enforced) {
    let tau = u64::from(lease.tau_ns);
    let dec = if lease.gen == gen && !p.per_ack && !p.min_rtt_tau && tau_ns(p, s) == tau {
        s.rtt_smooth_ns = inp.rtt_smooth_ns; // Alg. 2 line 21, computed by the C
        s.last_ack_ns = inp.now_ns; // Alg. 2 line 13
        let ack = DueAck {
            now_ns: inp.now_ns,
            rtt_ns: inp.rtt_ns,
            rtt_u32: u32::try_from(inp.rtt_ns).unwrap_or(u32::MAX), // exact: < 2^32
            snd_una: inp.snd_una,
            snd_nxt: inp.snd_nxt,
            tau_ns: tau,
            // now > last_ack_ns >= update_ns (the C's take): no wrap.
            sent_after_update: inp.now_ns.wrapping_sub(s.update_ns) > inp.rtt_ns,
        };
        update_per_rtt(p, s, &ack, None)
    } else {
        let ev = AckEvent {
            now_ns: inp.now_ns,
            rtt_ns: inp.rtt_ns,
            mss_bytes: inp.mss,
            snd_una: inp.snd_una,
            snd_nxt: inp.snd_nxt,
            flags: ACK_HAS_RTT,
            ..AckEvent::default()
        };
        ThetaPowerTcp::on_ack(p, s, &ev)
    };
    let d = d.write(dec);
    let e = e.write(d.enforce(inp.mss, inp.srtt_us, inp.clamp_pkts));
    *lease = ThetaLease::grant(p, s, d, e, inp.mss, inp.clamp_pkts, gen, false);
    (d, e)
}

#[cfg(test)]
#[path = "powertcp_lease_tests.rs"]
mod tests;
