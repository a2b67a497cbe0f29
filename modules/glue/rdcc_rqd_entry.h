/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_rqd_entry.h - one stored remote-delay option (the receiver channel of Swift, rdcc_rqd.c)
 * and what the law is given of it: the event's fields (rdcc_rqd_fill, the full path) or the
 * endpoint delay and hop count (rdcc_rqd_entry_endpoint_ns, rdcc_rqd_entry_hops, Swift's
 * remote-delay lease). Standalone (include after rdcc_abi.h): rdcc_glue.c includes it for the
 * slot (with RDCC_REMOTE_DELAY), and the KUnit case rdcc_glue_swift_lease feeds both the lease
 * and the law from one entry through these same functions.
 */
#ifndef RDCC_RQD_ENTRY_H
#define RDCC_RQD_ENTRY_H

#define RQD_E_VALID	(1U << 0)
#define RQD_E_HOPS	(1U << 1)
#define RQD_E_LOCAL_RX	(1U << 2)
#define RQD_E_TS	(1U << 3)	/* the segment carried a timestamp option: tsval is valid */

/* One stored option and the identity of the segment that carried it. */
struct rdcc_rqd_entry {
	u32 ack_seq;
	u32 seq;		/* the segment's sequence number */
	u32 tsval;		/* its TSval (with RQD_E_TS) */
	u32 delay_ns;
	u32 local_rx_ns;
	u32 t_store;		/* (u32)jiffies at store: the later entry wins, a tie neither */
	u8 hops;
	u8 flags;		/* RQD_E_*; 0 = empty */
	u16 _pad;
};

/* The remote delay, hops and local Rx delay of a found entry, into the law's event. */
static __always_inline void rdcc_rqd_fill(const struct rdcc_rqd_entry *e,
					  struct rdcc_ack_event *ev)
{
	ev->remote_delay_ns = e->delay_ns;
	ev->flags |= RDCC_ACK_HAS_REMOTE_DELAY;
	if (e->flags & RQD_E_HOPS) {
		ev->hops = e->hops;
		ev->flags |= RDCC_ACK_HAS_HOPS;
	}
	if (e->flags & RQD_E_LOCAL_RX) {
		ev->local_rx_delay_ns = e->local_rx_ns;
		ev->flags |= RDCC_ACK_HAS_LOCAL_RX;
	}
}

/*
 * The endpoint delay the law derives from rdcc_rqd_fill's fields (Swift §3.3: the remote delay
 * plus this host's Rx delay, swift.rs on_ack), ns: two u32, so no wrap in 64 bits.
 */
static __always_inline u64 rdcc_rqd_entry_endpoint_ns(const struct rdcc_rqd_entry *e)
{
	return (u64)e->delay_ns + (e->flags & RQD_E_LOCAL_RX ? e->local_rx_ns : 0);
}

/* The entry's hop count, or -1 without one (the law then keeps the state's). */
static __always_inline int rdcc_rqd_entry_hops(const struct rdcc_rqd_entry *e)
{
	return e->flags & RQD_E_HOPS ? e->hops : -1;
}

#endif /* RDCC_RQD_ENTRY_H */
