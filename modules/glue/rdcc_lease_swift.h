/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_lease_swift.h - the C fast path of Swift's increase lease (issue #13;
 * core/src/swift_lease.rs). After a full call that left the fabric window at w_lo, the grant
 * stored a window bound w_hi >= w_lo and the fabric targets at the two ends, t_lo = target(w_hi)
 * and t_hi = target(w_lo) (the target is non-increasing in the window, §3.5), as whole us of the
 * kernel's RTT sample (inc_max_us, hold_min_us: see rdcc_swift_inc_max_us). While the window
 * stays in [w_lo, w_hi], an ACK without a remote delay whose RTT is below t_lo is an additive
 * increase (Swift Alg. 1 lines 6-8), and one at or above t_hi with the decrease guard closed
 * (line 3) a hold; this takes those ACKs in the law's own state (struct rdcc_swift_state,
 * #[repr(C)] on the Rust side), exactly as Swift::on_ack does them, and sets what
 * Decision::enforce gives, without building an event or calling Rust. Shared by rdcc_glue.c
 * (tcp_swift, RDCC_LEASE_SWIFT) and the KUnit case rdcc_glue_swift_lease, which runs it
 * closed-loop against the law called on every ACK. Include after rdcc_abi.h and <net/tcp.h>.
 *
 * A change to Swift::on_ack, window_step, refresh_guard, can_decrease, decide_with or
 * Decision::enforce must change this and swift_lease::grant together (swift_lease_tests.rs
 * transcribes this function; it and rdcc_glue_swift_lease fail otherwise).
 */
#ifndef RDCC_LEASE_SWIFT_H
#define RDCC_LEASE_SWIFT_H

#include <linux/math64.h>

/* num_acked's cap, packets Q20: swift::MAX_CWND_Q20 (tied in rdcc_abi.h) */
#define RDCC_SWIFT_ACKED_Q20_MAX	RDCC_SWIFT_MAX_CWND_Q20
/* The increase: ai < RDCC_SWIFT_LEASE_AI_MAX_Q20 (a grant premise) and acked_q20 <=
 * RDCC_SWIFT_ACKED_Q20_MAX, so ai * acked_q20 fits 64 bits and one 64-bit division by
 * w >= 2^21 is the exact floor (fixed::mul_div). */
static_assert(RDCC_SWIFT_LEASE_AI_MAX_Q20 - 1 <= U64_MAX / RDCC_SWIFT_ACKED_Q20_MAX);
/*
 * The increase without carried bytes: for acked <= RDCC_SWIFT_ACKED_EXACT_MAX and mss <= 2^16
 * (a grant premise), acked·mss < 2^32 (the law's U32_MAX saturation does nothing) and
 * floor(acked·mss·2^20 / mss) = acked << 20 < 2^36 <= the cap: the law's num_acked, exactly.
 */
#define RDCC_SWIFT_ACKED_EXACT_MAX	(U16_MAX)
static_assert((u64)RDCC_SWIFT_ACKED_EXACT_MAX * RDCC_SWIFT_MSS_MAX <= U32_MAX);
static_assert((u64)RDCC_SWIFT_ACKED_EXACT_MAX << 20 <= RDCC_SWIFT_ACKED_Q20_MAX);
/* The fabric delay d = rtt_us * 1000 is stored as a u32 without the law's saturation. */
static_assert(RDCC_SWIFT_RTT_US_MAX * NSEC_PER_USEC <= U32_MAX);
static_assert(RDCC_SWIFT_RTT_US_MAX * NSEC_PER_USEC <= RDCC_SWIFT_RTT_MASK);
/*
 * The rate below one packet, w·mss·10^9 / (rtt << 20), with 10^9 = 2^9 · 1953125 and the 2^9
 * cancelled: w·mss·1953125 / (rtt << 11), the same floor. w < 2^20 (below one packet) and
 * mss <= 2^16 (grant premises), so the numerator is below 2^36 · 2^21 = 2^57; rtt < 2^34, so
 * rtt << 11 < 2^45.
 */
#define RDCC_SWIFT_NS_CANCEL_SHIFT	9	/* 2^9 divides 10^9 */
/* 10^9 / 2^9 = 1953125, and rtt << 20 over 2^9 */
#define RDCC_SWIFT_NS_ODD		(NSEC_PER_SEC >> RDCC_SWIFT_NS_CANCEL_SHIFT)
#define RDCC_SWIFT_SUB_RTT_SHIFT	(20 - RDCC_SWIFT_NS_CANCEL_SHIFT)
static_assert(RDCC_SWIFT_NS_ODD << RDCC_SWIFT_NS_CANCEL_SHIFT == NSEC_PER_SEC);
static_assert((1ULL << 36) <= U64_MAX / RDCC_SWIFT_NS_ODD);

/*
 * The stored RTT, bits 0..33 of rtt_root, is below 2^32 under a lease (a grant premise, kept by
 * every store here: d < 2^32), so it is the word's low 32 bits, and a new one is stored there
 * alone (the root hint in bits 34..63 and the clear bits 32-33 untouched: one 32-bit store
 * instead of a read, a mask and a merge). A lockless reader of the 64-bit word sees the old or
 * the new low half beside the same high half: one version's value either way.
 */
#define RDCC_SWIFT_LO	IS_ENABLED(CONFIG_CPU_BIG_ENDIAN)	/* a u64's low half, as u32[2] */
#define RDCC_SWIFT_HI	(1 - RDCC_SWIFT_LO)			/* and its high half */

/* Half i of a 64-bit state word, read alone (one 32-bit load, no shift or mask). */
static __always_inline u32 rdcc_swift_half(const u64 *word, int i)
{
	return READ_ONCE(((const u32 *)word)[i]);
}

static __always_inline u32 rdcc_swift_rtt(const struct rdcc_swift_state *s)
{
	return rdcc_swift_half(&s->rtt_root, RDCC_SWIFT_LO);
}

static __always_inline void rdcc_swift_set_rtt(struct rdcc_swift_state *s, u64 d)
{
	WRITE_ONCE(((u32 *)&s->rtt_root)[RDCC_SWIFT_LO], (u32)d);
}

/*
 * The lease's terms (swift_lease::grant, Terms): lease_t = inc_max_us | hold_min_us << 32, the
 * targets in whole us of rs->rtt_us (an RTT of 1 to inc_max_us us is below t_lo, one of
 * hold_min_us us or more at or above t_hi), lease_w = w_hi in whole packets | ai (packets Q20)
 * << 32; each half read alone.
 */
static __always_inline u32 rdcc_swift_inc_max_us(const struct rdcc_swift_state *s)
{
	return rdcc_swift_half(&s->lease_t, RDCC_SWIFT_LO);
}

static __always_inline u32 rdcc_swift_hold_min_us(const struct rdcc_swift_state *s)
{
	return rdcc_swift_half(&s->lease_t, RDCC_SWIFT_HI);
}

/* inc_max_us = (t_lo - 1) / 1000 with t_lo < 2^32: an increase's sample is in range */
static_assert((U32_MAX - 1ULL) / NSEC_PER_USEC <= RDCC_SWIFT_RTT_US_MAX);

static __always_inline u32 rdcc_swift_w_hi_pkts(const struct rdcc_swift_state *s)
{
	return rdcc_swift_half(&s->lease_w, RDCC_SWIFT_LO);
}

static __always_inline u32 rdcc_swift_ai_q20(const struct rdcc_swift_state *s)
{
	return rdcc_swift_half(&s->lease_w, RDCC_SWIFT_HI);
}

/*
 * Decision::enforce at two packets or more: w >> 20 packets (the floor of W / mss, W = w * mss /
 * 16 bytes Q16) clamped, paced at the kernel's 2 * pkts * mss / srtt (the law does not pace
 * there): below 2^37 * 10^6 < 2^57.
 */
static __always_inline u32 rdcc_swift_pkts(const struct tcp_sock *tp, u64 f)
{
	u32 clamp = tp->snd_cwnd_clamp ?: 1;

	return min_t(u64, f >> 20, clamp);
}

static __always_inline u64 rdcc_swift_pkts_rate(const struct tcp_sock *tp, u32 pkts, u32 mss)
{
	return tp->srtt_us ? div_u64((u64)pkts * mss * 2 * USEC_PER_SEC, rdcc_srtt_us(tp)) : U64_MAX;
}

/*
 * Take the ACK if the lease covers it: true when it did (the state stepped, window and rate
 * set), false when nothing was stored and the full path must run. A leaf once inlined (the
 * caller tests the remote-delay slot first: an ACK with a remote delay is never taken).
 *
 * Premises, from swift_lease::grant for a state with RDCC_SWIFT_F_LEASE and the law's own
 * invariants: initialised, no endpoint EWMA (so ecwnd does not bind, the endpoint window
 * neither moves nor expires, and the law does not count endpoint_misses), no undo armed, no RTO
 * pending, F_REMOTE_USED clear (and no ACK taken here sets it), an RTT stored and below 2^32 ns
 * (rdcc_swift_set_rtt); the module's decrease guard is the D11 reading; no lease lives in
 * Recovery or Loss (rdcc_set_state ends it on the way in, the full path grants none there). So
 * on_ack's first lines (ensure_init, the MSS once it equals the state's, F_UNDO_ARMED,
 * retransmit_cnt, the hops: no remote delay) change nothing. The tests, before any store:
 * - the keys: the lease's generation and the MSS;
 * - the sample: rs->rtt_us in [1, RDCC_SWIFT_RTT_US_MAX] (unsigned compares of rtt_us - 1: -1
 *   and 0 wrap to the top), so d = rtt_us * 1000 is rdcc_fill_ack_in's value and clamp_rtt_ns
 *   is the identity; d is the fabric delay (no remote delay);
 * - d < t_lo, tested as rtt_us - 1 < inc_max_us (the range and the target in one compare, see
 *   the terms above): the increase ai * acked / w (Alg. 1 line 8, num_acked with the carried
 *   bytes, D12b) must leave the window at most w_hi; application-limited: no growth (the law's
 *   Hold);
 * - d >= t_hi, tested as rtt_us >= hold_min_us: possibly delayed, a hold that carries the ACK's
 *   bytes (D12b: no RTT stored, no guard refresh); else the guard (Alg. 1 line 3, now -
 *   t_last_decrease >= the RTT before this ACK) must be closed, or the ACK is a decrease and
 *   takes the full path.
 * Then on_ack's stores (the window first on an increase, right after its last test; the order
 * does not matter to a reader, which copies field by field): can_decrease's clock-went-back rule
 * for both guards, the RTT (not possibly delayed), the fabric delay, the carried bytes (reset, or
 * + this ACK's on a delayed hold), the window, and Alg. 1 line 27's guard refresh at min_cwnd (a
 * hold of a lease granted there); F_REMOTE_USED and endpoint_misses need none (premises
 * above). The window after an increase is above min_cwnd and at most w_hi <= min(max_cwnd,
 * ecwnd): no clamp.
 * Then what rdcc_set sets for Decision::enforce of decide_with's decision: at two packets or
 * more w >> 20 packets (the floor of W / mss, W = w * mss / 16 bytes Q16) clamped, paced at
 * 2 * pkts * mss / srtt (the law does not pace there); below one packet (F_LEASE_SUB) one
 * packet at the law's rate clamp(w * mss * 10^9 / (rtt << 20), 1, 2^40) (Alg. 1 line 30).
 *
 * Lockless readers: get_info copies the state word by word with READ_ONCE (rdcc_snapshot); each
 * store here is a WRITE_ONCE of one aligned field, so each field it copies is one version's
 * whole value. No Rust reference to the state is live here: Rust holds &mut State only during
 * an rdcc_rs_* call, and this runs between calls, under the same socket lock.
 */
static __always_inline bool rdcc_swift_take(struct sock *sk, const struct rate_sample *rs,
					    struct rdcc_swift_state *s, u32 lease_gen, u32 gen)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u64 d, now, f, rate;
	u32 mss, pkts;

	/*
	 * Few values live across the branches below (each does its own stores, the same ones:
	 * the window, the guards' clock rule, the RTT, the fabric delay, the carried bytes), and
	 * what is needed again after a division or a branch is read again from where it came (the
	 * same value: the state and the socket change only here, under the socket lock), so that
	 * this and its caller save no register: the ACKs that go to the full path pay nothing for
	 * the fast path's frame. F_REMOTE_USED is clear and the misses counter does not count
	 * without an EWMA (grant premises), so nothing is stored for them.
	 */
	if (!(s->flags & RDCC_SWIFT_F_LEASE) || lease_gen != gen || s->mss_bytes != tp->mss_cache)
		return false;
	if ((u64)rs->rtt_us - 1 < rdcc_swift_inc_max_us(s)) {
		/*
		 * Alg. 1 line 6: below the target of every window up to w_hi (1 <= rtt_us <=
		 * inc_max_us: d = rtt_us * 1000 < t_lo, and the sample is within
		 * RDCC_SWIFT_RTT_US_MAX); d is the fabric delay (no remote delay), < 2^32
		 */
		if (!rs->is_app_limited) {
			u64 w = s->fcwnd_q20;
			u32 acked = rs->acked_sacked;
			u64 acked_q20;

			if (likely(!s->pending_acked_bytes && acked <= RDCC_SWIFT_ACKED_EXACT_MAX)) {
				/* nothing carried: num_acked = acked·mss / mss = acked packets
				 * exactly (acked·mss < 2^32 needs no saturation, acked << 20 <
				 * 2^36 no cap), so no division */
				acked_q20 = (u64)acked << 20;
			} else {
				/* num_acked with the carried bytes, saturated at U32_MAX (D12b):
				 * the product is below 2^48 and the sum cannot wrap */
				mss = tp->mss_cache;
				acked_q20 = min_t(u64, (u64)acked * mss + s->pending_acked_bytes,
						  U32_MAX);
				acked_q20 = min_t(u64, div_u64(acked_q20 << 20, mss),
						  RDCC_SWIFT_ACKED_Q20_MAX);
			}

			/* Alg. 1 line 8: ai / cwnd per acked packet (w >= 2 packets) */
			f = w + div64_u64((u64)rdcc_swift_ai_q20(s) * acked_q20, w);
			if (f > (u64)rdcc_swift_w_hi_pkts(s) << 20)
				return false;			/* past w_hi: the full path */
			WRITE_ONCE(s->fcwnd_q20, f);
		}
		d = (u64)READ_ONCE(rs->rtt_us) * NSEC_PER_USEC;	/* read again: see the top */
		now = READ_ONCE(tp->tcp_clock_cache);
		if (now < s->t_last_decrease_f_ns)	/* can_decrease: the clock went back */
			WRITE_ONCE(s->t_last_decrease_f_ns, now);
		if (now < s->t_last_decrease_e_ns)
			WRITE_ONCE(s->t_last_decrease_e_ns, now);
		if (!rs->is_ack_delayed)
			rdcc_swift_set_rtt(s, d);
		WRITE_ONCE(s->fabric_delay_ns, (u32)d);
		WRITE_ONCE(s->pending_acked_bytes, 0);
	} else if ((u64)rs->rtt_us - 1 < RDCC_SWIFT_RTT_US_MAX &&
		   rs->rtt_us >= rdcc_swift_hold_min_us(s)) {
		/* at or above the target of every window from w_lo (d >= t_hi, a sample in
		 * [1, RDCC_SWIFT_RTT_US_MAX]: d < 2^32) */
		d = (u64)rs->rtt_us * NSEC_PER_USEC;
		now = READ_ONCE(tp->tcp_clock_cache);
		if (rs->is_ack_delayed) {
			/* D12b: a possibly delayed ACK above the target carries its bytes */
			u64 pending = (u64)rs->acked_sacked * tp->mss_cache + s->pending_acked_bytes;

			if (now < s->t_last_decrease_f_ns)
				WRITE_ONCE(s->t_last_decrease_f_ns, now);
			if (now < s->t_last_decrease_e_ns)
				WRITE_ONCE(s->t_last_decrease_e_ns, now);
			WRITE_ONCE(s->fabric_delay_ns, (u32)d);
			WRITE_ONCE(s->pending_acked_bytes, (u32)min_t(u64, pending, U32_MAX));
		} else {
			u64 t_f = s->t_last_decrease_f_ns;

			if (now >= t_f && now - t_f >= rdcc_swift_rtt(s))
				return false;	/* Alg. 1 line 3: the guard is open, a decrease */
			/* line 27 at min_cwnd refreshes the guard; else only the clock rule */
			if ((READ_ONCE(s->flags) & RDCC_SWIFT_F_LEASE_MIN) || now < t_f)
				WRITE_ONCE(s->t_last_decrease_f_ns, now);
			if (now < s->t_last_decrease_e_ns)
				WRITE_ONCE(s->t_last_decrease_e_ns, now);
			rdcc_swift_set_rtt(s, d);
			WRITE_ONCE(s->fabric_delay_ns, (u32)d);
			WRITE_ONCE(s->pending_acked_bytes, 0);
		}
	} else {
		return false;
	}

	/* the window and the MSS read again (see the top): the window is this ACK's */
	f = READ_ONCE(s->fcwnd_q20);
	mss = READ_ONCE(tp->mss_cache);
	if (READ_ONCE(s->flags) & RDCC_SWIFT_F_LEASE_SUB) {
		/* Alg. 1 lines 29-30: one packet every rtt / cwnd, i.e. w * mss / rtt bytes/s */
		u64 rtt = rdcc_swift_rtt(s);

		/* w·mss·10^9 / (rtt << 20), the 2^9 of 10^9 cancelled (see the top) */
		rate = div64_u64(f * mss * RDCC_SWIFT_NS_ODD, rtt << RDCC_SWIFT_SUB_RTT_SHIFT);
		rate = clamp_t(u64, rate, 1, RDCC_MAX_RATE_BPS);
		pkts = 1;
	} else {
		pkts = rdcc_swift_pkts(tp, f);
		rate = rdcc_swift_pkts_rate(tp, pkts, mss);
	}
	/* pkts is 1, or min(f >> 20, clamp) with f >= 2 packets (a grant premise; an increase only
	 * grows it) and clamp >= 1: tcp_snd_cwnd_set's WARN_ON_ONCE((int)val <= 0) cannot fire. */
	tcp_snd_cwnd_set(tp, pkts);
	WRITE_ONCE(sk->sk_pacing_rate, min_t(u64, rate, READ_ONCE(sk->sk_max_pacing_rate)));
	return true;
}

/*
 * fixed::ewma, for the endpoint delay: old + (new - old) * g or old - (old - new) * g, each
 * product rounded down (mul_q16), g = gain_q16 <= 2^16 (a parameter's range). Both delays are
 * below 2^34 (RDCC_SWIFT_EWMA_MASK), so a product is below 2^50: no saturation, no wrap, and
 * the result lies between them.
 */
static __always_inline u64 rdcc_swift_ewma(u64 old, u64 sample, u64 gain_q16)
{
	if (sample >= old)
		return old + ((sample - old) * gain_q16 >> RDCC_Q16_SHIFT);
	return old - ((old - sample) * gain_q16 >> RDCC_Q16_SHIFT);
}
static_assert(RDCC_SWIFT_EWMA_BITS + RDCC_Q16_SHIFT + 1 < 64);

/*
 * The remote-delay regime's lease (RDCC_SWIFT_F_LEASE_REMOTE, swift_lease.rs): an ACK whose
 * remote delay the channel found (rdcc_rqd_find) is taken here if the lease covers it: true when
 * it did (the state stepped, window and rate set), false when nothing was stored and the full
 * path must run (with the same entry). `endpoint_ns` is the entry's remote delay plus its local
 * Rx delay (two u32: no wrap), `hops` its hop count or -1 without one; `p` is the parameter block
 * whose generation is the lease's (the caller checks: rdcc_params_block_gen), so its ai,
 * endpoint target and gain are those the grant saw.
 *
 * Premises, from swift_lease::grant for a state with RDCC_SWIFT_F_LEASE_REMOTE: those of
 * rdcc_swift_take but the EWMA (here: an endpoint EWMA, F_REMOTE_USED set, no miss counted),
 * and the endpoint window at max_cwnd > min_cwnd, two packets or more. So on_ack's first lines
 * change nothing (the hops: the entry's must be the state's, else the targets moved), and
 * F_REMOTE_USED and endpoint_misses keep their values. The tests, before any store:
 * - the sample: rs->rtt_us in [1, RDCC_SWIFT_RTT_US_MAX], d = rtt_us * 1000 < 2^32;
 * - §3.3: the endpoint delay at most d (above, the law clamps it, D8: the full path's), the
 *   fabric delay d - endpoint_ns;
 * - the fabric delay below t_lo: an increase (Alg. 1 line 8 with the carried bytes, D12b) that
 *   must leave the window at most w_hi; application-limited: no growth; at or above t_hi: a
 *   hold, whose guard (line 3) must be closed unless the ACK is possibly delayed (then no
 *   decrease: the law's can_decrease is false); else the full path;
 * - §3.3 for the endpoint window: unless possibly delayed (D12c: its endpoint delay includes
 *   the receiver's ACK timer), the EWMA stepped by this sample must stay below the endpoint
 *   target, so the endpoint window at max_cwnd takes an increase clamped back (line 26), or a
 *   hold, and its guard no refresh (above min_cwnd, line 27).
 * Then on_ack's stores: both guards' clock rule, the RTT (not possibly delayed), the fabric
 * delay, the carried bytes reset (a remote delay consumes them, held or not), the window, line
 * 27's refresh on a hold at min_cwnd (possibly delayed or not: the law refreshes after every
 * step with a remote delay), the EWMA (its 34 bits, the bound above kept). The decision's window
 * is the fabric one (the endpoint one is max_cwnd >= w_hi) and is enforced as at two packets or
 * more in rdcc_swift_take. The decision's flags count nothing (rdcc_rqd_account): no clamp, the
 * endpoint window does not bind, nothing expires.
 *
 * Lockless readers and Rust references: as for rdcc_swift_take.
 */
static __always_inline bool rdcc_swift_take_remote(struct sock *sk, const struct rate_sample *rs,
						   struct rdcc_swift_state *s,
						   const struct rdcc_swift_params *p,
						   u64 endpoint_ns, int hops)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u64 fabric, now, f, avg = 0;
	u32 pkts;

	/*
	 * As in rdcc_swift_take, few values live across the branches and the division: what is
	 * needed again is read again from where it came (the sample, the clock, the flags: the
	 * same values under the socket lock), so that the frame stays small.
	 */
	if (!(s->flags & RDCC_SWIFT_F_LEASE_REMOTE) || s->mss_bytes != tp->mss_cache ||
	    (hops >= 0 && hops != s->hops) || (u64)rs->rtt_us - 1 >= RDCC_SWIFT_RTT_US_MAX ||
	    endpoint_ns > (u64)rs->rtt_us * NSEC_PER_USEC)
		return false;
	/* §3.3: the fabric delay (the endpoint delay at most the RTT, else the law clamps it) */
	fabric = (u64)rs->rtt_us * NSEC_PER_USEC - endpoint_ns;
	if (!rs->is_ack_delayed) {
		/* §3.3: the endpoint EWMA against its target */
		avg = rdcc_swift_ewma(s->lease_t & RDCC_SWIFT_EWMA_MASK, endpoint_ns,
				      p->endpoint_ewma_q16);
		if (avg >= p->endpoint_target_ns)
			return false;
	}
	f = s->fcwnd_q20;
	if (fabric < (u32)s->lease_w) {
		/* Alg. 1 line 6: below the target of every window up to w_hi */
		if (!rs->is_app_limited) {
			u32 acked = rs->acked_sacked, mss = tp->mss_cache;
			u64 acked_q20;

			if (!s->pending_acked_bytes && acked <= RDCC_SWIFT_ACKED_EXACT_MAX) {
				acked_q20 = (u64)acked << 20;	/* as in rdcc_swift_take */
			} else {
				acked_q20 = min_t(u64, (u64)acked * mss + s->pending_acked_bytes,
						  U32_MAX);
				acked_q20 = min_t(u64, div_u64(acked_q20 << 20, mss),
						  RDCC_SWIFT_ACKED_Q20_MAX);
			}
			/* Alg. 1 line 8; ai < RDCC_SWIFT_LEASE_AI_MAX_Q20 (t_lo > 0: a grant premise,
			 * under this block) */
			f += div64_u64(p->ai_pkts_q20 * acked_q20, f);
			if (f > (s->lease_t >> RDCC_SWIFT_EWMA_BITS) << 20)
				return false;		/* past w_hi */
		}
	} else if (fabric >= s->lease_w >> 32) {
		/* at or above the target of every window from w_lo; Alg. 1 line 3: unless possibly
		 * delayed (then no decrease), an open guard is a decrease */
		if (!rs->is_ack_delayed) {
			u64 t_f = s->t_last_decrease_f_ns;

			now = READ_ONCE(tp->tcp_clock_cache);
			if (now >= t_f && now - t_f >= rdcc_swift_rtt(s))
				return false;
		}
	} else {
		return false;
	}
	now = READ_ONCE(tp->tcp_clock_cache);
	if (now < s->t_last_decrease_f_ns)	/* can_decrease: the clock went back */
		WRITE_ONCE(s->t_last_decrease_f_ns, now);
	if (now < s->t_last_decrease_e_ns)
		WRITE_ONCE(s->t_last_decrease_e_ns, now);
	if (!rs->is_ack_delayed) {
		rdcc_swift_set_rtt(s, (u64)rs->rtt_us * NSEC_PER_USEC);
		WRITE_ONCE(s->lease_t, (s->lease_t & ~RDCC_SWIFT_EWMA_MASK) | avg);
	}
	WRITE_ONCE(s->fabric_delay_ns, (u32)fabric);
	WRITE_ONCE(s->pending_acked_bytes, 0);
	WRITE_ONCE(s->fcwnd_q20, f);
	/* line 27 at min_cwnd: no increase is leased there (t_lo = 0), so this ACK is a hold */
	if (s->flags & RDCC_SWIFT_F_LEASE_MIN)
		WRITE_ONCE(s->t_last_decrease_f_ns, now);
	pkts = rdcc_swift_pkts(tp, f);
	tcp_snd_cwnd_set(tp, pkts);	/* >= 1: f >= 2 packets, as in rdcc_swift_take */
	WRITE_ONCE(sk->sk_pacing_rate, min_t(u64, rdcc_swift_pkts_rate(tp, pkts, tp->mss_cache),
					     READ_ONCE(sk->sk_max_pacing_rate)));
	return true;
}

/*
 * swift_lease::end: the lease words back to 0, the bits cleared, before a hook other than
 * cong_control runs the law (rdcc_lease_retire) and on set_state into Recovery or Loss.
 * WRITE_ONCE: get_info reads the state locklessly.
 */
static __always_inline void rdcc_swift_end(struct rdcc_swift_state *s)
{
	if (s->flags & (RDCC_SWIFT_F_LEASE | RDCC_SWIFT_F_LEASE_REMOTE)) {
		/* a remote-delay lease: the EWMA stays, the bound above it goes */
		WRITE_ONCE(s->lease_t, s->flags & RDCC_SWIFT_F_LEASE_REMOTE ?
				       s->lease_t & RDCC_SWIFT_EWMA_MASK : 0);
		WRITE_ONCE(s->lease_w, 0);
		WRITE_ONCE(s->flags, s->flags & ~(RDCC_SWIFT_F_LEASE | RDCC_SWIFT_F_LEASE_SUB |
						  RDCC_SWIFT_F_LEASE_MIN |
						  RDCC_SWIFT_F_LEASE_REMOTE));
	}
}

#endif /* RDCC_LEASE_SWIFT_H */
