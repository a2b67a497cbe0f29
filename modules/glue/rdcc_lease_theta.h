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

#endif /* RDCC_LEASE_THETA_H */
