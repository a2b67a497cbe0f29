/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_rqd_take.h - the consumer side of Swift's remote-delay channel (rdcc_rqd.c): what
 * cong_control takes from the slot and the side table for one ACK, its counters, and the path of
 * Swift's remote-delay lease. Part of rdcc_rqd.c, in its own file to keep that file readable:
 * included once, by rdcc_rqd.c, after the storage and the hook.
 */
#ifndef RDCC_RQD_TAKE_H
#define RDCC_RQD_TAKE_H

/* The entry describes the segment TCP just accepted for this ACK: same seq (tcp_ack set
 * snd_wl1 to it, since the ACK advanced snd_una) and same TSval (rx_opt holds the segment's). */
static bool rdcc_rqd_same_segment(const struct tcp_sock *tp, const struct rdcc_rqd_entry *e)
{
	if (e->seq != tp->snd_wl1)
		return false;
	if (e->flags & RQD_E_TS)
		return tp->rx_opt.saw_tstamp && e->tsval == tp->rx_opt.rcv_tsval;
	return !tp->rx_opt.saw_tstamp;
}

/* Every ACK cong_control sees, with or without new data: one increment ("acks" is derived). */
static __always_inline void rdcc_rqd_count_ack(u32 acked)
{
	if (likely(acked))
		RQD_INC(RQD_C_ACKS_DATA);
	else
		RQD_INC(RQD_C_ACKS_NODATA);
}

/*
 * Find the entry the hook stored for the ACK `ack`, if it describes the very segment TCP
 * accepted: true with *e that entry (counted as used), false without one (counted as missed,
 * "acks - used", or under the reason). The entry is consumed; entries of older ACKs are
 * dropped. Nothing else is ever reused. `acked` is this ACK's acknowledged amount (packets or
 * bytes: only whether it is 0 is read).
 */
static __always_inline bool rdcc_rqd_find(struct sock *sk, u32 ack, int flag, u32 acked,
					  struct rdcc_rqd_entry *e)
{
	struct rdcc_rqd_entry *slot = rdcc_rqd_slot_of(sk);
	const struct tcp_sock *tp = tcp_sk(sk);
	/* Read only once assigned (found): not zeroed first (issue #13; INIT_STACK_ALL_ZERO would
	 * store the entry's 28 bytes on every full-path ACK). */
	struct rdcc_rqd_entry side __uninitialized;
	const struct net *net = sock_net(sk);
	const struct rdcc_rqd_net *rn;
	bool found = false, from_side = false;

	rdcc_rqd_count_ack(acked);
	if (slot->flags & RQD_E_VALID) {
		if (slot->ack_seq == ack) {
			*e = *slot;
			found = true;
			slot->flags &= ~RQD_E_VALID;	/* consumed */
		} else if (!after(slot->ack_seq, ack)) {
			RQD_INC(RQD_C_STALE);
			slot->flags = 0;
		} else if (after(slot->ack_seq, tp->snd_nxt)) {
			RQD_INC(RQD_C_ACK_FUTURE);	/* cannot be stored; never kept */
			slot->flags = 0;
		}
		/* else: a later ACK's (it raced ahead of this one): keep */
	}
	/*
	 * A dying namespace's side table is not looked at (issue #32 item 1): a kernel socket
	 * (sk_net_refcnt 0)
	 * holds no reference on its namespace, and its owner may process its backlog after this
	 * module's pernet .exit freed the side table (exits run in reverse registration order).
	 * Two loads and a compare, on the full path only. Else: no side-table store anywhere
	 * within HZ, none in this namespace (one load and one compare instead of the lookup).
	 */
	if (unlikely(!check_net(net))) {
		RQD_INC(RQD_C_DYING_NS);
	} else if (!rdcc_rqd_side_quiet(sk)) {
		rcu_read_lock();
		/*
		 * Again inside the read-side section, which is what makes the table safe to use:
		 * the count reaches 0 before cleanup_net starts, and cleanup_net waits for an RCU
		 * grace period between the .pre_exit and the .exit methods, so a count read as
		 * nonzero here means the table is freed, if at all, only after this section.
		 */
		if (unlikely(!check_net(net))) {
			RQD_INC(RQD_C_DYING_NS);
			rn = NULL;
		} else {
			rn = net_generic(net, rdcc_rqd_net_id);
		}
		if (rn && rdcc_rqd_side_live(rn) && rdcc_rqd_side_take(rn, sk, ack, &side)) {
			if (!(side.flags & RQD_E_VALID)) {
				/* A tombstone (rdcc_rqd_supersede): a segment of this ACK without
				 * a valid option came after the slot's entry, unless the entry
				 * is the later store (a later segment's, stored in the slot). */
				if (found && !rdcc_rqd_later(e, &side)) {
					RQD_INC(RQD_C_SUPERSEDED);
					found = false;
				}
			} else if (!found || rdcc_rqd_later(&side, e)) {
				*e = side;	/* the later of the two stores wins */
				found = true;
				from_side = true;
			} else if (!rdcc_rqd_later(e, &side)) {
				/* stored in the same jiffy: neither is known to be the later */
				RQD_INC(RQD_C_SAME_TICK);
				found = false;
			}
		}
		rcu_read_unlock();
	}
	if (found && !(flag & RDCC_FLAG_SND_UNA_ADVANCED)) {
		RQD_INC(RQD_C_NOT_ADVANCED);
		found = false;
	}
	if (found && (!rdcc_rqd_same_segment(tp, e) || rdcc_nf_signed(sk))) {
		RQD_INC(RQD_C_MISMATCH);
		found = false;
	}
	if (!found)
		return false;	/* "missed": acks - used, computed when read */
	if (from_side)
		RQD_INC(RQD_C_FROM_SIDE);
	RQD_INC(RQD_C_USED);
	if (acked)
		RQD_INC(RQD_C_USED_DATA);
	return true;
}

/* Fill ev with the remote delay of the ACK `ack`, if the hook stored one for it (rdcc_rqd_find). */
static void rdcc_rqd_take(struct sock *sk, u32 ack, int flag, struct rdcc_ack_event *ev)
{
	struct rdcc_rqd_entry e __uninitialized;

	if (rdcc_rqd_find(sk, ack, flag, ev->acked_bytes, &e))
		rdcc_rqd_fill(&e, ev);
}

#ifdef RDCC_LEASE_SWIFT
/*
 * No remote delay can reach this ACK: the slot holds no entry (rdcc_rqd_slot_quiet) and no
 * side-table entry was stored in any namespace within HZ (rdcc_rqd_side_quiet, see
 * rdcc_rqd_side_until). rdcc_rqd_take would then find nothing, store nothing and count the ACK
 * as missed; the fast path (rdcc_cong.h) counts it as the take does (rdcc_rqd_count_ack) when
 * it takes the ACK.
 */
static __always_inline bool rdcc_rqd_slot_quiet(struct sock *sk)
{
	return !(rdcc_rqd_slot_of(sk)->flags & RQD_E_VALID);
}
#endif

static void rdcc_rqd_account(const struct rdcc_decision *d)
{
	if (d->flags & RDCC_DEC_REMOTE_CLAMPED)
		RQD_INC(RQD_C_CLAMPED);
	if (d->flags & RDCC_DEC_ENDPOINT_BINDS)
		RQD_INC(RQD_C_ENDPOINT_BINDS);
	if (d->flags & RDCC_DEC_ENDPOINT_EXPIRED)
		RQD_INC(RQD_C_EXPIRED);
}

#ifdef RDCC_LEASE_SWIFT
/*
 * Swift's remote-delay lease (RDCC_SWIFT_F_LEASE_REMOTE), from cong_control when the slot holds
 * an entry and no side-table store is live (rdcc_rqd_side_quiet: the side table has none for this
 * ACK): rdcc_rqd_find's common case without a copy. The slot's entry for this very ACK (its
 * ack_seq, snd_una advanced) is consumed (RQD_E_VALID cleared: the fields stay, for this ACK's
 * use below, until the hook's next store, which cannot run while cong_control does) and checked
 * and counted as rdcc_rqd_find does; an entry that passes is the lease's
 * (rdcc_swift_take_remote, under the parameter block of the lease's generation), or the full
 * path's with the same entry. Any other case (another ACK's entry, snd_una not advanced) is the
 * full path's, whose take finds, drops or keeps the entry and counts as always.
 */
static noinline void rdcc_swift_remote(struct sock *sk, u32 ack, int flag,
				       const struct rate_sample *rs)
{
	struct rdcc_rqd_entry *slot = rdcc_rqd_slot_of(sk);
	const struct rdcc_swift_params *p;
	bool took;

	if (slot->ack_seq != ack || !(flag & RDCC_FLAG_SND_UNA_ADVANCED)) {
		rdcc_ack_slow(sk, ack, flag, rs);	/* a tail call */
		return;
	}
	rdcc_rqd_count_ack(rs->acked_sacked);
	slot->flags &= ~RQD_E_VALID;
	if (!rdcc_rqd_same_segment(tcp_sk(sk), slot) || rdcc_nf_signed(sk)) {
		RQD_INC(RQD_C_MISMATCH);
		rdcc_ack_slow_found(sk, ack, flag, rs, NULL);	/* a tail call */
		return;
	}
	RQD_INC(RQD_C_USED);
	if (rs->acked_sacked)
		RQD_INC(RQD_C_USED_DATA);
	rcu_read_lock();
	p = rcu_dereference(rdcc_params_cur);
	took = p && rdcc_params_block_gen(p) == *rdcc_swift_gen(sk) &&
	       rdcc_swift_take_remote(sk, rs, rdcc_swift_state(sk), p,
				      rdcc_rqd_entry_endpoint_ns(slot), rdcc_rqd_entry_hops(slot));
	rcu_read_unlock();
	if (!took)
		rdcc_ack_slow_found(sk, ack, flag, rs, slot);	/* a tail call */
}
#endif

#endif /* RDCC_RQD_TAKE_H */
