/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_rqd_entry.h - one stored remote-delay option and the per-socket slot that holds one
 * (the receiver channel of Swift, rdcc_rqd.c). Part of rdcc_glue.c, in its own file because
 * cong_control (rdcc_cong.h: the remote-delay lease) takes entries before rdcc_rqd.c is
 * included: included once, by rdcc_glue.c, after struct rdcc_priv, with RDCC_REMOTE_DELAY.
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

static_assert(sizeof(struct rdcc_rqd_entry) <= sizeof(((struct rdcc_priv *)0)->glue));
#ifdef RDCC_LEASE_SWIFT
/* The increase lease's generation is the glue bytes' last u32: the slot must end before it. */
static_assert(sizeof(struct rdcc_rqd_entry) <= RDCC_SWIFT_GEN_OFF);
#endif

static inline struct rdcc_rqd_entry *rdcc_rqd_slot_of(struct sock *sk)
{
	return (struct rdcc_rqd_entry *)((struct rdcc_priv *)inet_csk_ca(sk))->glue;
}

#endif /* RDCC_RQD_ENTRY_H */
