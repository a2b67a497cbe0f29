/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_cong.h - tcp_congestion_ops.cong_control of rdcc_glue.c, in its five forms: every ACK
 * through the law (no lease), RDCC_LEASE's hold lease (rdcc_lease.h), RDCC_LEASE_THETA's step
 * lease with its due path (rdcc_lease_theta.h), RDCC_LEASE_VAISF's steady-decrease lease
 * (rdcc_lease_vaisf.h) and RDCC_LEASE_SWIFT's increase lease (rdcc_lease_swift.h). Part of
 * rdcc_glue.c, in its own file to keep that file readable: included once, by rdcc_glue.c,
 * after rdcc_ack_full, whose statics it uses.
 */
#ifndef RDCC_CONG_H
#define RDCC_CONG_H
#ifdef RDCC_HAS_LEASE
/* Out of line, so that the lease's fast path below saves no register and has no canary. */
static noinline void rdcc_ack_slow(struct sock *sk, u32 ack, int flag,
				   const struct rate_sample *rs)
{
	rdcc_ack_full(sk, ack, flag, rs);
}
#endif

#ifdef RDCC_LEASE
/*
 * An ACK the socket's lease covers (rdcc_lease_take) gets the law's last output without a call
 * into Rust (issue #13); any other ACK takes the full path, which folds and renews the lease.
 * Not while the tracepoint is on: every decision must reach it, so a traced socket takes the
 * full path on every ACK (a covered ACK's decision differs from the lease's output only in its
 * reason, Hold or NoSample, which only the trace shows).
 */
static void rdcc_cong_control(struct sock *sk, u32 ack, int flag, const struct rate_sample *rs)
{
	if (!trace_decision_enabled() &&
	    rdcc_lease_take(sk, rs, rdcc_lease(sk), READ_ONCE(rdcc_params_gen)))
		return;
	rdcc_ack_slow(sk, ack, flag, rs);	/* a tail call */
}
#elif defined(RDCC_LEASE_THETA)
/*
 * A due ACK in Rust: the fast path found it covered up to the due test and due, and stored
 * nothing, and the due path in C (rdcc_theta_due_fast, below) did not take it. The take runs again here with the generation read with acquire (before the parameter pointer, as
 * on the full path), now with a record for its time, sample and average (so the hot caller has
 * no address-taken local). On the same generation it is the same take on the same socket,
 * lease and state, so DUE again; after a parameter write it is FULL (the lease's generation no
 * longer matches), and the full path runs, on a state nothing was stored to. Rust then runs the
 * update with the take's average (powertcp::on_due, which checks that the parameters it reads
 * still have the lease's τ and modes), enforces it and grants the next lease. No Loss-state
 * window rule: no lease lives in Loss (rdcc_set_state ends it on the way into Recovery or Loss,
 * and every CA state change goes through set_state).
 */
static noinline void rdcc_theta_due_slow(struct sock *sk, u32 ack, int flag,
					 const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	/* Written whole by rdcc_rs_theta_due before any read; MaybeUninit on the Rust side (as in
	 * rdcc_ack_full). */
	struct rdcc_ack_out out __uninitialized;
	struct rdcc_theta_due_in in;
	u32 gen = smp_load_acquire(&rdcc_params_gen);
	const void *p;
	int took;

	took = rdcc_theta_take(sk, rs, rdcc_theta_lease(sk), rdcc_theta_state(sk), gen, &in);
	if (took != RDCC_THETA_DUE) {
		/* FULL after a parameter write. HOLD cannot follow the caller's DUE (same inputs);
		 * were it to, the take has handled the ACK as a hold, completely. */
		if (took == RDCC_THETA_FULL)
			rdcc_ack_slow(sk, ack, flag, rs);
		return;
	}
	in.snd_una = tp->snd_una;
	in.snd_nxt = tp->snd_nxt;
	in.mss = tp->mss_cache;
	in.srtt_us = rdcc_srtt_us(tp);
	in.clamp_pkts = tp->snd_cwnd_clamp;
	rcu_read_lock();
	p = rcu_dereference(rdcc_params_cur);
	if (p) {
		rdcc_rs_theta_due(p, rdcc_state(sk), &in, &out, rdcc_theta_lease(sk), gen);
		rdcc_set(sk, &out.e);
		rdcc_trace(p, sk, &out.d, in.rtt_ns);
	}
	rcu_read_unlock();
}

/*
 * A due ACK, first in C: rdcc_theta_update (rdcc_lease_theta.h) runs the once-per-RTT update,
 * its enforcement and the next lease for the common case, exactly as on_due would, and stores
 * nothing otherwise; then the Rust due path above runs, on a state nothing was stored to. The
 * generation is read with acquire before the parameter pointer, as on the full path: if it is
 * the lease's (the update tests it first), the take that said DUE in the caller holds for it,
 * since nothing was stored since and the socket lock is held; a pointer newer than the
 * generation gets on_due's treatment (the update tests τ and the modes, and the lease keeps
 * the older generation). Not while the tracepoint is on (switched on since the caller's test):
 * the Rust path traces the decision. Out of line, so that its registers are not saved on the
 * hold path.
 */
static noinline void rdcc_theta_due_fast(struct sock *sk, u32 ack, int flag,
					 const struct rate_sample *rs)
{
	u32 gen = smp_load_acquire(&rdcc_params_gen);
	const struct rdcc_theta_params *p;
	int done = RDCC_THETA_UPD_FALLBACK;

	if (!trace_decision_enabled()) {
		rcu_read_lock();
		p = rcu_dereference(rdcc_params_cur);
		if (p)
			done = rdcc_theta_update(sk, rs, rdcc_theta_lease(sk), rdcc_theta_state(sk),
						 p, gen);
		rcu_read_unlock();
	}
	if (done != RDCC_THETA_UPD_DONE)
		rdcc_theta_due_slow(sk, ack, flag, rs);	/* a tail call */
}

/*
 * θ-PowerTCP (RDCC_LEASE_THETA): an ACK the lease covers as a hold is taken in C
 * (rdcc_theta_take: the law's average and t_c^prev stepped in place, the lease's window and rate
 * set), a due one goes to the due path (in C, else Rust), any other to the full path, which
 * grants the next lease. Not while the tracepoint is on, as for RDCC_LEASE: every decision must
 * reach it.
 */
static void rdcc_cong_control(struct sock *sk, u32 ack, int flag, const struct rate_sample *rs)
{
	if (!trace_decision_enabled()) {
		int took = rdcc_theta_take(sk, rs, rdcc_theta_lease(sk), rdcc_theta_state(sk),
					   READ_ONCE(rdcc_params_gen), NULL);

		if (took == RDCC_THETA_HOLD)
			return;
		if (took == RDCC_THETA_DUE) {
			rdcc_theta_due_fast(sk, ack, flag, rs);	/* a tail call */
			return;
		}
	}
	rdcc_ack_slow(sk, ack, flag, rs);	/* a tail call */
}
#elif defined(RDCC_LEASE_VAISF)
/*
 * Swift VAI SF (RDCC_LEASE_VAISF): an ACK in the lease's regime is taken in C (rdcc_vaisf_take:
 * the law's bookkeeping stepped in place, one packet at the law's rate), any other goes to the
 * full path, which grants the next lease. Not while the tracepoint is on, as for RDCC_LEASE:
 * every decision must reach it.
 */
static void rdcc_cong_control(struct sock *sk, u32 ack, int flag, const struct rate_sample *rs)
{
	if (!trace_decision_enabled() &&
	    rdcc_vaisf_take(sk, rs, rdcc_vaisf_lease(sk), rdcc_vaisf_state(sk),
			    READ_ONCE(rdcc_params_gen)))
		return;
	rdcc_ack_slow(sk, ack, flag, rs);	/* a tail call */
}
#elif defined(RDCC_LEASE_SWIFT)
/* The full path with the entry the caller found (or NULL): out of line, as rdcc_ack_slow. */
static noinline void rdcc_ack_slow_found(struct sock *sk, u32 ack, int flag,
					 const struct rate_sample *rs,
					 const struct rdcc_rqd_entry *e)
{
	rdcc_ack_full_with(sk, ack, flag, rs, true, e);
}

/* rdcc_rqd_take.h: the remote-delay regime's path */
static noinline void rdcc_swift_remote(struct sock *sk, u32 ack, int flag,
				       const struct rate_sample *rs);

/*
 * Swift (RDCC_LEASE_SWIFT): an ACK with no remote delay in sight (rdcc_rqd_slot_quiet: the
 * slot empty; rdcc_rqd_side_quiet: no side-table entry stored in any namespace within HZ)
 * that the lease covers is taken in C (rdcc_swift_take: an additive increase or a guarded hold
 * stepped in the law's state) and counted as rdcc_rqd_take would count it (an ACK without a
 * remote delay); one with an entry in the slot and no side-table store live, under a
 * remote-delay lease, goes to rdcc_swift_remote (rdcc_rqd_take.h); any other to the full path,
 * which takes the remote delay, runs the law and grants the next lease. Not while the
 * tracepoint is on, as for RDCC_LEASE: every decision must reach it.
 */
static void rdcc_cong_control(struct sock *sk, u32 ack, int flag, const struct rate_sample *rs)
{
	if (!trace_decision_enabled()) {
		if (rdcc_rqd_slot_quiet(sk)) {
			if (rdcc_rqd_side_quiet(sk) &&
			    rdcc_swift_take(sk, rs, rdcc_swift_state(sk), *rdcc_swift_gen(sk),
					    READ_ONCE(rdcc_params_gen))) {
				rdcc_rqd_count_ack(rs->acked_sacked);
				return;
			}
		} else if ((rdcc_swift_state(sk)->flags & RDCC_SWIFT_F_LEASE_REMOTE) &&
			   rdcc_rqd_side_quiet(sk)) {
			rdcc_swift_remote(sk, ack, flag, rs);	/* a tail call */
			return;
		}
	}
	rdcc_ack_slow(sk, ack, flag, rs);	/* a tail call */
}
#else
static void rdcc_cong_control(struct sock *sk, u32 ack, int flag, const struct rate_sample *rs)
{
	rdcc_ack_full(sk, ack, flag, rs);
}
#endif

#endif /* RDCC_CONG_H */
