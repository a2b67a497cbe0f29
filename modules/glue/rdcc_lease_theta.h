/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_lease_theta.h - the C fast path of θ-PowerTCP's hold lease (issue #13;
 * core/src/powertcp_lease.rs). A hold ACK of θ-PowerTCP (per-RTT cadence, configured τ) changes
 * two fields of the law's state, the average of the RTT samples (Alg. 2 line 21) and t_c^prev
 * (line 13), and keeps the window and rate of the last decision. This steps those two fields in
 * place in the law's own state (struct rdcc_theta_state, #[repr(C)] on the Rust side) and applies
 * the enforced output that the lease (struct rdcc_theta_lease, the glue bytes) holds, without
 * building an event or calling Rust. Shared by rdcc_glue.c (modules that define
 * RDCC_LEASE_THETA) and the KUnit case rdcc_glue_theta_lease, which runs it against its Rust
 * transcription ThetaLease::take. Include after rdcc_abi.h and <net/tcp.h>.
 *
 * What ThetaPowerTcp::on_ack (core/src/powertcp.rs) does on a hold is transcribed here test for
 * test; a change there must change this, ThetaLease::take and the tests together (the comment at
 * the top of on_ack says so).
 */
#ifndef RDCC_LEASE_THETA_H
#define RDCC_LEASE_THETA_H

/* rdcc_theta_take's outcomes (core/src/powertcp_lease.rs Take). */
#define RDCC_THETA_FULL	0	/* not covered: nothing stored; the full path runs */
#define RDCC_THETA_HOLD	1	/* a hold: the state stepped, window and rate set */
#define RDCC_THETA_DUE	2	/* covered up to the due test, and due: nothing stored */

/*
 * Take the ACK if the lease covers it. A leaf once inlined: no calls (tcp_snd_cwnd_set's
 * WARN_ON_ONCE cannot fire: cwnd_pkts is in [1, 2^24) by ThetaLease::grant), and with due ==
 * NULL (the hot caller) no address-taken local, so no stack protector and no saved register in
 * the caller. With a due record (the due path, KUnit) a DUE outcome also fills due->now_ns,
 * rtt_ns and rtt_smooth_ns; nothing else is written on DUE or FULL.
 *
 * Premises, from ThetaLease::grant for a lease with gen != 0 (gen 0 never matches a generation):
 * tau in [1000, 10^9]; FLAG_INIT and FLAG_HAVE_PREV in the state; update_ns <= last_ack_ns <=
 * update_ns + 2^32 <= U64_MAX - 2^32, which every covered ACK keeps (a covered sample is not due:
 * now - update_ns <= rtt < 2^32). The tests, in on_ack's order:
 * - the keys: the parameter generation, the MSS and the clamp of the grant (the lease's window is
 *   min(floor, clamp ?: 1) for that clamp);
 * - the sample: rs->rtt_us in [1, RDCC_THETA_RTT_US_MAX] as one unsigned compare (-1 and 0 wrap
 *   to the top). Then rtt = rtt_us * 1000 is in [1000, 4294967000]: rdcc_fill_ack_in's value,
 *   on which the law's clamp(r, 1, RTT_MAX_NS) is the identity. No sample: on_ack returns
 *   decision(.., NoSample) and changes nothing, covered while now - update_ns <= 2^32 (the
 *   lease's lifetime, which the u32 generation argument in rdcc_glue.c needs); a sample above
 *   4.29 s: FULL;
 * - the clock: dt = now - last_ack_ns (Alg. 2 line 18). dt - 1 >= tau - 1, one unsigned compare,
 *   catches dt == 0, dt >= tau and a clock before last_ack_ns (as last_ack_ns < U64_MAX - 2^32,
 *   such a clock wraps dt above 2^32 > tau). Its cold branch tells them apart: a clock before
 *   last_ack_ns is on_ack's restart (FULL); dt == 0 is on_ack's hold before the due test, no
 *   change; dt >= tau gives the law's average weight 1, the sample itself (smooth());
 * - due (Alg. 2 lines 27/34, on_ack's `due`): now - update_ns > rtt (on_ack's now - rtt >
 *   update_ns, as now > last_ack_ns >= update_ns), or !before(snd_una, marker_seq) (on_ack's
 *   !seq_after(marker_seq, snd_una));
 * - not due: Alg. 2 line 21 on θ, (avg * (tau - dt) + rtt * dt) / tau, rounded down as
 *   smooth(). avg < 2^32 and tau - dt < tau <= 10^9 < 2^30, so the first product is below 2^62;
 *   rtt < 2^32 and dt < 2^30, so the second is too, and the sum is below 2^63: the u64 is exact
 *   and none of smooth()'s saturating operations saturates. The quotient is at most
 *   max(avg, rtt) < 2^32, so on_ack's .min(RTT_MAX_NS) and u32 conversion are identities.
 *   Then line 13, t_c^prev = now.
 * Then it sets what rdcc_set sets for Decision::enforce's result: the lease's window (in
 * [1, 2^24), see above) and its rate, capped by sk_max_pacing_rate. Both on every ACK: the
 * kernel changes snd_cwnd outside the CA hooks (tcp_cwnd_application_limited, MTU probing), and
 * SO_MAX_PACING_RATE changes the cap.
 *
 * Lockless readers: get_info copies the state word by word with READ_ONCE (rdcc_snapshot); the
 * two stores are WRITE_ONCE of an aligned u32 and an aligned u64, so each field it copies is one
 * version's whole value. No Rust reference to the state is live here: Rust holds &mut State only
 * during an rdcc_rs_* call, and this runs between calls, under the same socket lock.
 */
static __always_inline int rdcc_theta_take(struct sock *sk, const struct rate_sample *rs,
					   const struct rdcc_theta_lease *l,
					   struct rdcc_theta_state *s, u32 gen,
					   struct rdcc_theta_due_in *due)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u64 now = tp->tcp_clock_cache, rtt, dt, tau, avg;

	if (l->gen != gen || (u32)l->mss != tp->mss_cache || l->clamp != tp->snd_cwnd_clamp)
		return RDCC_THETA_FULL;
	if (unlikely((u64)rs->rtt_us - 1 >= RDCC_THETA_RTT_US_MAX))
		goto cold_rtt;
	rtt = (u64)rs->rtt_us * NSEC_PER_USEC;
	tau = l->tau_ns;
	dt = now - s->last_ack_ns;			/* Alg. 2 line 18 */
	if (unlikely(dt - 1 >= tau - 1))
		goto cold_dt;
	if (now - s->update_ns > rtt || !before(tp->snd_una, s->marker_seq))
		goto due_path;				/* Alg. 2 lines 27, 34 */
	/* Alg. 2 line 21: (avg * (tau - dt) + rtt * dt) / tau, dt < tau; < 2^63, see above */
	avg = div_u64((u64)s->rtt_smooth_ns * (tau - dt) + rtt * dt, (u32)tau);
store:
	WRITE_ONCE(s->rtt_smooth_ns, (u32)avg);		/* Alg. 2 line 21, < 2^32 */
	WRITE_ONCE(s->last_ack_ns, now);		/* Alg. 2 line 13: t_c^prev = t_c */
apply:
	tcp_snd_cwnd_set(tp, l->cwnd_pkts);
	WRITE_ONCE(sk->sk_pacing_rate,
		   min_t(u64, l->rate_bps, READ_ONCE(sk->sk_max_pacing_rate)));
	return RDCC_THETA_HOLD;
cold_rtt:
	/* No sample (rs->rtt_us <= 0): no change, within the lease's lifetime. */
	if (rs->rtt_us <= 0 && now - s->update_ns <= RDCC_THETA_LIFE_NS)
		goto apply;
	return RDCC_THETA_FULL;				/* a sample above 4.29 s */
cold_dt:
	if (now < s->last_ack_ns)
		return RDCC_THETA_FULL;			/* on_ack's restart_at */
	if (!dt)
		goto apply;				/* on_ack's dt == 0 hold: no change */
	if (now - s->update_ns > rtt || !before(tp->snd_una, s->marker_seq))
		goto due_path;
	avg = rtt;					/* dt >= tau: weight 1 (smooth()) */
	goto store;
due_path:
	if (due) {
		due->now_ns = now;
		due->rtt_ns = rtt;
		/* The average on_ack stores before the update (the same as above; rtt for
		 * dt >= tau), so that Rust need not divide again. */
		due->rtt_smooth_ns = dt < tau ?
			(u32)div_u64((u64)s->rtt_smooth_ns * (tau - dt) + rtt * dt, (u32)tau) :
			(u32)rtt;
	}
	return RDCC_THETA_DUE;
}

/*
 * The due path in C (issue #13, "X1"): the once-per-RTT update of a due ACK (Alg. 2 lines 18-21,
 * 8, 31, 12-13, 34 and 11), its enforcement and the next lease, without calling Rust, for the
 * common case. powertcp_lease.rs on_due runs, for that case, update_per_rtt (core/src/powertcp.rs)
 * on the take's average, Decision::enforce (event.rs) and ThetaLease::grant; this is those
 * functions transcribed for the case where all of the following hold, tested here before any
 * store, so that otherwise nothing is stored and the caller runs the Rust path
 * (RDCC_THETA_UPD_FALLBACK):
 * - on_due's premise: the lease is of generation gen (read with acquire before p), per-RTT
 *   cadence, configured τ, and p's τ is the lease's;
 * - FLAG_INIT and FLAG_HAVE_PREV (grant's; a live lease has them, kept as a cheap guard);
 * - update_ns < now <= RDCC_THETA_UPDATE_MAX_NS (the span is then now - update_ns >= 1, as
 *   update_per_rtt's saturating_sub().max(1); grant refuses a later update_ns);
 * - the new window's floor(W / mss) in [2, 2^24) and its rate in (0, 2^40): grant's tests, and
 *   Decision::enforce's branch for a window of at least two packets.
 * Premises from the take that said DUE on this ACK, socket, lease and state under the same
 * generation (the socket lock is held; nothing was stored since): rs->rtt_us in [1,
 * RDCC_THETA_RTT_US_MAX], so rtt < 2^32; dt = now - last_ack_ns >= 1; the lease's MSS and clamp
 * are the socket's; tau = l->tau_ns in [10^3, 10^9] (grant). Under them each saturating or
 * checked operation of the Rust never saturates, so the C computes the same values with plain
 * arithmetic; the bound is beside each line, and the static_asserts below hold the constants
 * the bounds use. On RDCC_THETA_UPD_DONE the state, the lease, snd_cwnd and sk_pacing_rate are
 * exactly on_due's and rdcc_set's (KUnit rdcc_glue_theta_update compares them bit for bit with
 * the kernel's own build of on_due). The decision's signal and reason are not computed: only
 * the tracepoint reads them, and the caller falls back while it is on.
 *
 * A change to update_per_rtt, grad_factor_q16, norm_power_q16, window_update, decision_tau,
 * pacing_bps, Decision::enforce, ThetaLease::grant or on_due must change this too (the comment
 * at the top of on_ack says so; rdcc_glue_theta_update fails otherwise).
 */
#define RDCC_THETA_UPD_FALLBACK	0	/* nothing stored: the caller runs the Rust due path */
#define RDCC_THETA_UPD_DONE	1	/* state, lease, window and rate stored */

/* g · avg (Alg. 2 line 20) with g <= GRAD_MAX and avg < 2^32 does not wrap. */
static_assert(RDCC_THETA_GRAD_MAX_Q16 <= ~0ULL / 0xffffffffULL);
/* clamp(old) · γ (line 31) with the window at most MAX_CWND_BYTES << 16 and γ <= 2^16. */
static_assert((RDCC_THETA_MAX_CWND_BYTES << RDCC_Q16_SHIFT) <= ~0ULL / RDCC_Q16_ONE);
/* line 31's sum: the first term divided by at least POWER_MIN, γβ and (1 - γ)·cwnd each at most
 * MAX_CWND_BYTES << 16 (γβ <= β <= 2^47 by Params::new). */
static_assert(((RDCC_THETA_MAX_CWND_BYTES << RDCC_Q16_SHIFT) * RDCC_Q16_ONE) /
	      RDCC_THETA_POWER_MIN_Q16 <= ~0ULL - 2 * (RDCC_THETA_MAX_CWND_BYTES << RDCC_Q16_SHIFT));
/* line 11's bytes · 10^9 with bytes <= MAX_CWND_BYTES. */
static_assert(RDCC_THETA_MAX_CWND_BYTES <= ~0ULL / NSEC_PER_SEC);

/* fixed::clamp for lo <= hi, which every caller has: min_cwnd <= max_cwnd (Params::new),
 * grad_floor <= 2^16 < GRAD_MAX, POWER_MIN < POWER_MAX. */
static __always_inline u64 rdcc_theta_clamp(u64 v, u64 lo, u64 hi)
{
	return v > hi ? hi : v < lo ? lo : v;
}

static __always_inline int rdcc_theta_update(struct sock *sk, const struct rate_sample *rs,
					     struct rdcc_theta_lease *l,
					     struct rdcc_theta_state *s,
					     const struct rdcc_theta_params *p, u32 gen)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u64 now = tp->tcp_clock_cache;				/* t_c */
	u64 rtt = (u64)rs->rtt_us * NSEC_PER_USEC;		/* [1000, 4294967000]: the take */
	u64 tau = l->tau_ns;					/* [10^3, 10^9]: grant */
	u64 dt = now - s->last_ack_ns;				/* Alg. 2 line 18, >= 1: the take */
	u64 avg, span, g, down, power, cur, old, lo, hi, w, bytes, rate, floor, mss;
	u32 pkts, clamp;

	if (l->gen != gen || p->per_ack || p->min_rtt_tau || p->base_rtt_ns != tau)
		return RDCC_THETA_UPD_FALLBACK;			/* on_due's premise */
	if ((s->flags & (RDCC_THETA_FLAG_INIT | RDCC_THETA_FLAG_HAVE_PREV)) !=
	    (RDCC_THETA_FLAG_INIT | RDCC_THETA_FLAG_HAVE_PREV))
		return RDCC_THETA_UPD_FALLBACK;			/* grant */
	if (now <= s->update_ns || now > RDCC_THETA_UPDATE_MAX_NS)
		return RDCC_THETA_UPD_FALLBACK;			/* span >= 1; grant */
	/* Alg. 2 line 21 on θ (smooth(), the take's formula): each product < 2^62; < 2^32 */
	avg = dt < tau ? div_u64((u64)s->rtt_smooth_ns * (tau - dt) + rtt * dt, (u32)tau) : rtt;
	/* Alg. 2 line 19 over the secant since the last update (D1): |Δ| < 2^32, so |Δ| << 16 <
	 * 2^48 and mul_div_fits is the plain division; up < 2^48, so the + does not saturate */
	span = now - s->update_ns;
	if (rtt >= s->prev_rtt_ns) {
		g = RDCC_Q16_ONE + div64_u64((rtt - s->prev_rtt_ns) << RDCC_Q16_SHIFT, span);
	} else {
		down = div64_u64(((u64)s->prev_rtt_ns - rtt) << RDCC_Q16_SHIFT, span);
		g = down >= RDCC_Q16_ONE ? 0 : RDCC_Q16_ONE - down;	/* saturating_sub */
	}
	g = rdcc_theta_clamp(g, p->grad_floor_q16, RDCC_THETA_GRAD_MAX_Q16);	/* D5 */
	/* Alg. 2 line 20, Eq. 8: Γ = (θ̇ + 1) · θ / τ; g · avg < 2^64 (static_assert above) */
	power = rdcc_theta_clamp(div64_u64(g * avg, tau), RDCC_THETA_POWER_MIN_Q16,
				 RDCC_THETA_POWER_MAX_Q16);
	/* Alg. 2 line 8, getCwnd (D4): sent after the last update, or snd_una past the marker
	 * (seq_after(snd_una, marker_seq)) */
	cur = s->cwnd_q16;
	old = span > rtt || (s32)(s->marker_seq - tp->snd_una) < 0 ? cur : s->prev_cwnd_q16;
	/* Alg. 2 line 31 (D6, D22): γ · cwnd_old / Γ + γβ + (1 - γ) · cwnd, clamped; the first
	 * product <= 2^63, the sum < 2^55 (static_asserts above); Γ >= POWER_MIN, never 0 */
	lo = p->min_cwnd_q16;
	hi = p->max_cwnd_q16;
	w = div64_u64(rdcc_theta_clamp(old, lo, hi) * p->gamma_q16, power) + p->gamma_beta_q16 +
	    ((rdcc_theta_clamp(cur, lo, hi) * p->one_minus_gamma_q16) >> RDCC_Q16_SHIFT);
	w = rdcc_theta_clamp(w, lo, hi);
	/* Alg. 2 line 11 (D21): rate = cwnd / τ; bytes <= 2^31, so bytes · 10^9 < 2^61 */
	bytes = w >> RDCC_Q16_SHIFT;
	rate = min_t(u64, div_u64(bytes * NSEC_PER_SEC, (u32)tau), RDCC_MAX_RATE_BPS);
	/* Decision::enforce with grant's tests: floor in [2, 2^24), rate in (0, 2^40) */
	mss = l->mss ?: 1;					/* = mss_cache: the take's key */
	floor = div64_u64(bytes, mss);
	if (floor - 2 >= RDCC_THETA_PKTS_LIMIT - 2 || rate - 1 >= RDCC_MAX_RATE_BPS - 1)
		return RDCC_THETA_UPD_FALLBACK;
	clamp = l->clamp ?: 1;					/* = snd_cwnd_clamp: the key */
	pkts = floor > clamp ? clamp : (u32)floor;		/* [1, 2^24) */

	/* update_per_rtt's stores (WRITE_ONCE: get_info's lockless snapshot, see the take) */
	WRITE_ONCE(s->rtt_smooth_ns, (u32)avg);			/* Alg. 2 line 21 */
	WRITE_ONCE(s->last_ack_ns, now);			/* line 13: t_c^prev = t_c */
	WRITE_ONCE(s->power_smooth_q16, power);			/* line 20 */
	WRITE_ONCE(s->flags, s->flags | RDCC_THETA_FLAG_SMOOTH);
	WRITE_ONCE(s->prev_rtt_ns, (u32)rtt);			/* line 12: prevRTT */
	WRITE_ONCE(s->prev_cwnd_q16, cur);			/* line 13: updateOld */
	WRITE_ONCE(s->cwnd_q16, w);				/* line 31 */
	WRITE_ONCE(s->marker_seq, tp->snd_nxt);			/* line 34: lastUpdated */
	WRITE_ONCE(s->update_ns, now);
	/* grant's lease: the keys (gen, clamp, τ, mss) and the padding are this lease's already */
	l->rate_bps = rate;
	l->cwnd_pkts = pkts;
	/* rdcc_set: pkts in [1, 2^24), so tcp_snd_cwnd_set's WARN_ON_ONCE cannot fire */
	tcp_snd_cwnd_set(tp, pkts);
	WRITE_ONCE(sk->sk_pacing_rate, min_t(u64, rate, READ_ONCE(sk->sk_max_pacing_rate)));
	return RDCC_THETA_UPD_DONE;
}

#endif /* RDCC_LEASE_THETA_H */
