// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdcc_rqd.c - the sender side of Swift's remote-queuing-delay (RQD) channel.
 *
 * Included by rdcc_glue.c when the module defines RDCC_REMOTE_DELAY (tcp_swift). The receiver
 * (rxstamp/bpf/rqd.bpf.c) writes the option of rdcc_rqd_wire.h on ACKs; here:
 *
 *   NF_INET_LOCAL_IN hook (IPv4 and IPv6, registered per network namespace)
 *     -> the socket: skb->sk from early demux, else an established-table lookup
 *     -> only full sockets in a synchronized state (ESTABLISHED .. LAST_ACK, never LISTEN or
 *        SYN_SENT) whose CA is this module and that have no TCP-MD5/AO key; only ACKs; the TCP
 *        header is copied with skb_header_pointer, at most doff * 4 <= 60 bytes
 *     -> the option bytes go to the Rust parser (core/src/rqd.rs via rdcc_rs_rqd_scan), one
 *        walk that returns the RQD option and the segment's TSval
 *     -> a valid option becomes an entry {ack_seq, seq, TSval, delay, hops, local Rx}: the
 *        segment's identity and what it reported. Refused at once: ack_seq outside
 *        (snd_una, snd_nxt]; hops above rqd_max_hops are clamped. Stored in the socket's slot
 *        (struct rdcc_priv.glue) or, when the socket is owned by user space or the slot holds
 *        another pending ACK's entry, in this namespace's side table (random seed). A later
 *        segment with the same ack_seq replaces the entry (latest wins); one without a valid
 *        option removes it.
 *   cong_control(sk, ack, flag, ...) -> rdcc_rqd_take(): only for an ACK that advanced snd_una
 *     (TCP validated it: ack in (prior snd_una, snd_nxt]), only the entry whose ack_seq == ack
 *     AND whose seq and TSval are those of the segment TCP just accepted (tp->snd_wl1 and
 *     tp->rx_opt.rcv_tsval, set from that segment by tcp_ack) - i.e. the option came from the
 *     very segment that passed TCP's checksum, sequence, PAWS and MD5/AO checks, or from one
 *     identical to it in all header fields an off-path attacker cannot see. Consumed once.
 *     Documentation/remote-delay.md has the argument and the threat model.
 *
 * Why the slot write is safe against a concurrent congestion-control switch (the caveat of
 * shared/notes/remote-delay-channel.md): icsk_ca_ops and icsk_ca_priv change only in
 * tcp_set_congestion_control()/tcp_reinit_congestion_control() and tcp_init_congestion_control(),
 * which run with the socket lock held: either owned by a process (lock_sock) or under the
 * socket spinlock in softirq. The hook writes the slot only after spin_trylock() of
 * sk->sk_lock.slock succeeded AND !sock_owned_by_user() AND icsk_ca_ops == &rdcc_ops, all
 * checked under that spinlock. While it is held, no process can take ownership (lock_sock
 * needs the spinlock) and no softirq can process the socket, so the CA cannot change and the
 * area is ours until the unlock. In every other case (owned, lock busy) nothing is written to
 * icsk_ca_priv: the sample goes to the side table (namespace memory, keyed by socket pointer and
 * ack_seq, expiring after one second), or is dropped and counted if the CA is not ours. The
 * same argument serialises the slot against cong_control: cong_control runs either in softirq
 * under the spinlock with the socket not owned, or from __release_sock with the socket owned,
 * where the hook never touches the slot.
 *
 * Lifetime: the side table of a namespace is freed in the pernet .exit, the hooks are
 * unregistered in .pre_exit. nf_unregister_net_hooks() does not wait for running hooks in 6.12
 * (it frees the old hook array with call_rcu); the netns core calls synchronize_rcu() between
 * every .pre_exit and .exit (ops_undo_list, both for a dying namespace and for
 * unregister_pernet_subsys at module unload), and every hook runs under rcu_read_lock (nf_hook),
 * so no hook can still use a table when it is freed. cong_control can run on a dying
 * namespace: user sockets hold a namespace reference, but kernel sockets (sk_net_refcnt 0:
 * sunrpc, cifs, nvme-tcp) do not, and their owner, if its pernet ops were registered before
 * this module's, processes their backlog after this .exit (exits run in reverse registration
 * order). rdcc_rqd_find therefore reads check_net() inside an RCU read-side section before it
 * looks at the table (rdcc_rqd_take.h; selftests/rdcc_netns.sh). At module unload no socket
 * uses this CA: each holds a module reference.
 */
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/percpu.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/unaligned.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/sched/clock.h>
#include <net/ipv6.h>
#include <net/inet_hashtables.h>
#include <net/inet6_hashtables.h>
#include <net/net_namespace.h>
#include <net/netns/generic.h>

#include "rdcc_rqd_wire.h"
#include "rdcc_nf_sock.h" /* rdcc_nf_tcp_off, rdcc_nf_lookup, RDCC_NF_STATES, rdcc_nf_signed */

void rdcc_rs_rqd_scan(const u8 *opts, u32 len, struct rdcc_rqd_scan *out);

#include "rdcc_tcp_flags.h" /* RDCC_FLAG_SND_UNA_ADVANCED */

#include "rdcc_rqd_stats.h" /* counters (RQD_INC) and their debugfs file */

/* 1: hook active (0 makes it return at once: the sender then behaves as without receiver) */
static bool rqd_enable = true;
module_param(rqd_enable, bool, 0644);
MODULE_PARM_DESC(rqd_enable, "parse the remote-delay option of incoming ACKs (Swift receiver channel)");
/* 1: when skb->sk is NULL (tcp_early_demux=0), look the socket up in the established table */
static bool rqd_lookup = true;
module_param(rqd_lookup, bool, 0644);
MODULE_PARM_DESC(rqd_lookup, "look the socket up when early demux did not set skb->sk");
/* 1: time the hook with local_clock() (counters hook_ns / hook_timed) */
static bool rqd_time;
module_param(rqd_time, bool, 0644);
MODULE_PARM_DESC(rqd_time, "measure the hook's cost per packet (debugfs hook_ns/hook_timed)");

/*
 * Largest forward hop count taken from an option (Swift §3.5 scales the fabric target by
 * hops * per_hop_ns). A three-tier Clos path has at most 5 switch hops; 16 leaves room for
 * larger fabrics and bounds what a forged TTL can add to the target: 16 * per_hop_ns (16 us at
 * the paper's 1 us) instead of 126 * per_hop_ns for a TTL of 129. Values above are clamped and
 * counted (hops_clamped). Range 0..255, checked when written.
 */
#define RQD_MAX_HOPS_DEFAULT 16
static unsigned int rqd_max_hops = RQD_MAX_HOPS_DEFAULT;

static int rqd_max_hops_set(const char *val, const struct kernel_param *kp)
{
	return param_set_uint_minmax(val, kp, 0, 255);
}

static const struct kernel_param_ops rqd_max_hops_ops = {
	.set = rqd_max_hops_set,
	.get = param_get_uint,
};
module_param_cb(rqd_max_hops, &rqd_max_hops_ops, &rqd_max_hops, 0644);
MODULE_PARM_DESC(rqd_max_hops, "largest hop count taken from a remote-delay option (0-255, default 16); larger ones are clamped");

/* ---- storage: the per-socket slot and the per-namespace side table ------------------------- */

/* The slot's entry (struct rdcc_rqd_entry, RQD_E_*): rdcc_rqd_entry.h; the slot
 * (rdcc_rqd_slot_of): rdcc_glue.c, beside struct rdcc_priv; both before cong_control. */

#define RQD_SIDE_SLOTS 512	/* power of two */

struct rdcc_rqd_side {
	spinlock_t lock;
	const struct sock *sk;	/* NULL = empty */
	unsigned long stamp;	/* jiffies at store; entries older than HZ are ignored */
	struct rdcc_rqd_entry e;
};

/* Per network namespace (net_generic): the side table and its hash seed. */
struct rdcc_rqd_net {
	u32 seed;		/* get_random_u32() at namespace creation */
	struct rdcc_rqd_side *side;	/* RQD_SIDE_SLOTS entries, kvcalloc */
	/*
	 * The latest stamp any side-table entry carries (jiffies, only ever raised; "HZ ago" at
	 * creation). A take while jiffies >= side_last + HZ cannot find a live entry, since every
	 * entry's stamp is at most side_last: it returns at once, without the hash and the lock
	 * (issue #13: Swift's every ACK probed the table). Raised before the entry is written, by
	 * the hook of the segment whose cong_control takes it: that cong_control runs after the
	 * hook on the same CPU (softirq, program order) or from the backlog, handed over under
	 * the socket spinlock (release/acquire), so it sees the raised value. A store from another
	 * CPU for the same (socket, ack_seq), a retransmitted duplicate, is a race with or
	 * without this check (the probe reads s->sk without the lock first).
	 */
	unsigned long side_last;
};

static unsigned int rdcc_rqd_net_id __read_mostly;

/*
 * side_last + HZ over every namespace (jiffies, only ever raised; "now" at load): raised with
 * each namespace's side_last, both before the entry is written, so the same argument (at struct
 * rdcc_rqd_net) makes "no store within HZ anywhere" (jiffies at or past it) imply "no live
 * side-table entry in this socket's namespace". rdcc_rqd_take and the increase lease's fast
 * path test it with one load and one compare instead of the namespace's lookup (issue #13: the
 * HZ is added by the rare store, not by every ACK); a store in another namespace only costs this
 * one's ACKs the lookup (and the lease's fast path) for a second.
 */
static unsigned long rdcc_rqd_side_until;

static __always_inline bool rdcc_rqd_side_quiet(struct sock *sk)
{
	return !time_before(jiffies, READ_ONCE(rdcc_rqd_side_until));
}

static inline struct rdcc_rqd_side *rdcc_rqd_side_slot(const struct rdcc_rqd_net *rn,
						       const struct sock *sk, u32 ack_seq)
{
	u64 p = (u64)(unsigned long)sk;

	return &rn->side[jhash_3words((u32)p, (u32)(p >> 32), ack_seq, rn->seed) &
			 (RQD_SIDE_SLOTS - 1)];
}

static inline bool rdcc_rqd_later(const struct rdcc_rqd_entry *a, const struct rdcc_rqd_entry *b)
{
	return (s32)(a->t_store - b->t_store) > 0;
}

static void rdcc_rqd_side_store(struct rdcc_rqd_net *rn, const struct sock *sk,
				const struct rdcc_rqd_entry *e)
{
	struct rdcc_rqd_side *s = rdcc_rqd_side_slot(rn, sk, e->ack_seq);
	unsigned long now = jiffies, last = READ_ONCE(rn->side_last);

	/* Raise side_last to now (a maximum: concurrent stores never lower it). */
	while (time_after(now, last) && !try_cmpxchg(&rn->side_last, &last, now))
		;
	/* ... and the global deadline to now + HZ. One more than 16 s ahead is no deadline (each
	 * is a store's jiffies + HZ): it is one so old that it reads as the future after jiffies
	 * wrapped (32-bit: about 2^31 jiffies later), which would otherwise not be raised again
	 * while the readers, past it, took it for quiet. */
	last = READ_ONCE(rdcc_rqd_side_until);
	while ((time_after(now + HZ, last) || time_after(last, now + 16 * HZ)) &&
	       !try_cmpxchg(&rdcc_rqd_side_until, &last, now + HZ))
		;
	spin_lock_bh(&s->lock);
	if (s->sk && time_before(jiffies, s->stamp + HZ)) {
		if (s->sk == sk && s->e.ack_seq == e->ack_seq)
			RQD_INC(RQD_C_REPLACED);
		else
			RQD_INC(RQD_C_SIDE_EVICT);
	}
	s->sk = sk;
	s->stamp = now;		/* <= side_last */
	s->e = *e;
	spin_unlock_bh(&s->lock);
	RQD_INC(RQD_C_SIDE);
}

/* Some entry was stored within HZ, so one may be live (see side_last). Tested by the caller
 * before the call, so that the common case (no side-table traffic) costs no call: issue #13. */
static __always_inline bool rdcc_rqd_side_live(const struct rdcc_rqd_net *rn)
{
	return time_before(jiffies, READ_ONCE(rn->side_last) + HZ);
}

/* Remove the side-table entry of (sk, ack) if there is one; with out, return it. */
static bool rdcc_rqd_side_take(const struct rdcc_rqd_net *rn, const struct sock *sk, u32 ack,
			       struct rdcc_rqd_entry *out)
{
	struct rdcc_rqd_side *s;
	bool found = false;

	if (!rdcc_rqd_side_live(rn))
		return false;
	s = rdcc_rqd_side_slot(rn, sk, ack);
	if (READ_ONCE(s->sk) != sk)
		return false;
	spin_lock_bh(&s->lock);
	if (s->sk == sk && s->e.ack_seq == ack) {
		found = time_before(jiffies, s->stamp + HZ);
		if (out)
			*out = s->e;
		s->sk = NULL;
	}
	spin_unlock_bh(&s->lock);
	return found;
}

/* ---- the hook ------------------------------------------------------------------------------ */

/* Local receive delay of this ACK (Swift t6 - t5): the kernel's software RX stamp (realtime,
 * taken at netif_rx/netif_receive_skb when some socket asked for timestamps) up to now. A
 * hardware stamp (skb_hwtstamps) is in the NIC's clock and is not used (see
 * Documentation/remote-delay.md). Inline: without a stamp it is one test (issue #13). */
static __always_inline bool rdcc_rqd_local_rx(const struct sk_buff *skb, u32 *out)
{
	s64 d;

	if (!skb->tstamp || skb->tstamp_type != SKB_CLOCK_REALTIME)
		return false;
	d = ktime_get_real_ns() - ktime_to_ns(skb->tstamp);
	if (d < 0 || d > NSEC_PER_SEC)
		return false;	/* clock step or a stale stamp: not a measurement */
	*out = (u32)d;
	return true;
}

/* Under the socket spinlock, socket not owned, CA ours: remove the slot's entry of `ack`. */
static void rdcc_rqd_supersede_locked(struct sock *sk, u32 ack)
{
	struct rdcc_rqd_entry *slot = rdcc_rqd_slot_of(sk);

	if ((slot->flags & RQD_E_VALID) && slot->ack_seq == ack) {
		slot->flags = 0;
		RQD_INC(RQD_C_SUPERSEDED);
	}
}

/*
 * A segment of `ack` without a valid option: an entry stored for that ack_seq (by a segment TCP
 * may have dropped) must not be used for it. Cheap unless such an entry exists. The slot is
 * cleared only under the socket spinlock with the socket not owned (the race guard at the top);
 * when that cannot be had, a tombstone (an entry without RQD_E_VALID) goes to the side table,
 * where, as the later store, it wins over the slot's entry at take time (rdcc_rqd_find), so
 * the invariant holds whoever owns the socket (issue #32 item 3).
 */
static void rdcc_rqd_supersede(struct rdcc_rqd_net *rn, struct sock *sk, u32 ack)
{
	struct rdcc_rqd_entry *slot = rdcc_rqd_slot_of(sk);

	/* Racy hints first (the slot may belong to another CA by now; it is only compared). */
	if ((READ_ONCE(slot->flags) & RQD_E_VALID) && READ_ONCE(slot->ack_seq) == ack) {
		if (spin_trylock(&sk->sk_lock.slock)) {
			if (!sock_owned_by_user_nocheck(sk)) {
				if (READ_ONCE(inet_csk(sk)->icsk_ca_ops) == &rdcc_ops)
					rdcc_rqd_supersede_locked(sk, ack);
				spin_unlock(&sk->sk_lock.slock);
				goto side;
			}
			spin_unlock(&sk->sk_lock.slock);
		}
		{
			struct rdcc_rqd_entry t = { .ack_seq = ack, .t_store = (u32)jiffies };

			/* Replaces a side-table entry of this ACK, if any: it is older. */
			rdcc_rqd_side_store(rn, sk, &t);
			RQD_INC(RQD_C_TOMBSTONE);
		}
		return;
	}
side:
	if (rdcc_rqd_side_take(rn, sk, ack, NULL))
		RQD_INC(RQD_C_SUPERSEDED);
}

static void rdcc_rqd_parse(struct sk_buff *skb, unsigned int thoff, struct sock *sk,
			   struct rdcc_rqd_net *rn)
{
	/* Only read where skb_header_pointer copied into it: not zeroed first (issue #13; the
	 * kernel's INIT_STACK_ALL_ZERO would store 60 bytes per ACK for nothing). */
	u8 buf[60] __uninitialized;
	const struct tcphdr *th;
	const struct tcp_sock *tp = tcp_sk(sk);
	struct rdcc_rqd_scan sc = {};
	struct rdcc_rqd_entry e = {};
	unsigned int thlen, max_hops;
	u32 ack;

	if (!sk_fullsock(sk) || sk->sk_protocol != IPPROTO_TCP ||
	    READ_ONCE(inet_csk(sk)->icsk_ca_ops) != &rdcc_ops)
		return;
	RQD_INC(RQD_C_PKTS);
	if (!((1 << READ_ONCE(sk->sk_state)) & RDCC_NF_STATES)) {
		RQD_INC(RQD_C_SKIP_STATE);
		return;
	}
	if (rdcc_nf_signed(sk)) {
		RQD_INC(RQD_C_SKIP_AUTH);
		return;
	}
	th = skb_header_pointer(skb, thoff, sizeof(struct tcphdr), buf);
	if (!th) {
		RQD_INC(RQD_C_BAD_HDR);
		return;
	}
	if (!th->ack)
		return;
	thlen = th->doff * 4;	/* at most 60 = sizeof(buf) */
	if (thlen < sizeof(struct tcphdr)) {
		RQD_INC(RQD_C_BAD_HDR);
		return;
	}
	if (thlen > sizeof(struct tcphdr)) {
		/* The header whole in the linear data (the usual ACK): the pointer in hand
		 * already covers it (skb_header_pointer's own test; it returns that pointer). */
		if ((const u8 *)th == buf || (int)(skb_headlen(skb) - thoff) < (int)thlen)
			th = skb_header_pointer(skb, thoff, thlen, buf);
		if (!th) {
			RQD_INC(RQD_C_BAD_HDR);
			return;
		}
		rdcc_rs_rqd_scan((const u8 *)th + sizeof(struct tcphdr),
				 thlen - sizeof(struct tcphdr), &sc);
	}
	ack = ntohl(th->ack_seq);
	if (sc.outcome >= RDCC_RQD_OUTCOMES)
		return;
	RQD_INC(RQD_C_OUTCOME + sc.outcome);
	if (sc.outcome != RDCC_RQD_VALID) {
		rdcc_rqd_supersede(rn, sk, ack);
		return;
	}
	/* (snd_una, snd_nxt]: racy reads here (exact under the lock below, and at take time). */
	if (!after(ack, READ_ONCE(tp->snd_una))) {
		RQD_INC(RQD_C_ACK_OLD);
		return;
	}
	if (after(ack, READ_ONCE(tp->snd_nxt))) {
		RQD_INC(RQD_C_ACK_FUTURE);
		return;
	}
	e.ack_seq = ack;
	e.seq = ntohl(th->seq);
	/*
	 * The segment's TSval, from the same walk of the options as the RQD option (issue #13):
	 * the last timestamp option of length 10 of the list, which is well formed when the
	 * outcome is VALID, as tcp_parse_options() takes it. Used only as the segment's identity:
	 * a list the kernel reads differently at worst makes the entry mismatch at take time, and
	 * it is not used.
	 */
	if (sc.has_ts) {
		e.tsval = sc.tsval;
		e.flags |= RQD_E_TS;
	}
	e.delay_ns = sc.delay_ns;
	e.flags |= RQD_E_VALID;
	if (sc.flags & RDCC_RQD_SCAN_HAS_HOPS) {
		max_hops = READ_ONCE(rqd_max_hops);
		e.hops = sc.hops;
		if (e.hops > max_hops) {
			e.hops = (u8)max_hops;
			RQD_INC(RQD_C_HOPS_CLAMPED);
		}
		e.flags |= RQD_E_HOPS;
	} else if (sc.flags & RDCC_RQD_SCAN_BAD_TTL) {
		RQD_INC(RQD_C_BAD_TTL);
	}
	if (rdcc_rqd_local_rx(skb, &e.local_rx_ns)) {
		e.flags |= RQD_E_LOCAL_RX;
		RQD_INC(RQD_C_LOCAL_RX);
	}
	/* jiffies, not a clock read (issue #13: ktime_get_mono_fast_ns() was about 40 of the
	 * hook's instructions): only ever compared with another entry's, of the same ACK, at take
	 * time, where a tie uses neither. */
	e.t_store = (u32)jiffies;

	/* The race guard: see the comment at the top of this file. */
	if (spin_trylock(&sk->sk_lock.slock)) {
		if (!sock_owned_by_user_nocheck(sk)) {
			if (READ_ONCE(inet_csk(sk)->icsk_ca_ops) == &rdcc_ops) {
				struct rdcc_rqd_entry *slot = rdcc_rqd_slot_of(sk);
				bool stored = true;

				if (!after(ack, tp->snd_una)) {
					RQD_INC(RQD_C_ACK_OLD);
				} else if (after(ack, tp->snd_nxt)) {
					RQD_INC(RQD_C_ACK_FUTURE);
				} else if (!(slot->flags & RQD_E_VALID) ||
					   !after(slot->ack_seq, tp->snd_una)) {
					*slot = e;	/* empty, or an older ACK's */
					RQD_INC(RQD_C_RING);
				} else if (slot->ack_seq == ack) {
					*slot = e;	/* latest wins */
					RQD_INC(RQD_C_REPLACED);
					RQD_INC(RQD_C_RING);
				} else {
					stored = false;	/* another pending ACK's: keep it */
				}
				spin_unlock(&sk->sk_lock.slock);
				if (!stored)
					rdcc_rqd_side_store(rn, sk, &e);
				return;
			}
			RQD_INC(RQD_C_CA_CHANGED);
			spin_unlock(&sk->sk_lock.slock);
			return;
		}
		spin_unlock(&sk->sk_lock.slock);
	}
	/* Owned by user space (the ACK waits in the backlog) or the lock is busy: keep the sample
	 * in namespace memory; cong_control of that ACK will find it. */
	rdcc_rqd_side_store(rn, sk, &e);
}

static unsigned int rdcc_rqd_hook(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state)
{
	struct rdcc_rqd_net *rn;
	struct sock *sk;
	unsigned int thoff;
	int off;
	bool ref = false;
	u64 t0 = 0;

	if (!READ_ONCE(rqd_enable))
		return NF_ACCEPT;
	if (READ_ONCE(rqd_time))
		t0 = local_clock();

	off = rdcc_nf_tcp_off(skb, state->pf);
	if (off < 0)
		goto out;
	thoff = off;
	sk = skb->sk;	/* set by early demux for established sockets */
	if (!sk) {
		RQD_INC(RQD_C_NOSK);
		if (!READ_ONCE(rqd_lookup))
			goto out;
		sk = rdcc_nf_lookup(skb, thoff, state);	/* referenced */
		if (!sk)
			goto out;
		RQD_INC(RQD_C_LOOKUP);
		ref = true;
	}
	/* The namespace's table: allocated before the hooks are registered, freed only after
	 * they are gone. */
	rn = net_generic(state->net, rdcc_rqd_net_id);
	rdcc_rqd_parse(skb, thoff, sk, rn);
	if (ref)
		sock_gen_put(sk);
out:
	if (t0) {
		RQD_ADD(RQD_C_HOOK_NS, local_clock() - t0);
		RQD_INC(RQD_C_HOOK_TIMED);
	}
	return NF_ACCEPT;
}

static const struct nf_hook_ops rdcc_rqd_nf_ops[] = {
	{ .hook = rdcc_rqd_hook, .pf = NFPROTO_IPV4, .hooknum = NF_INET_LOCAL_IN,
	  .priority = NF_IP_PRI_FIRST },
#if IS_ENABLED(CONFIG_IPV6)
	/* IPv6 built in or a module: the hook uses only its built-in parts (exthdrs_core,
	 * inet6_hashtables), so tcp_swift does not depend on ipv6.ko. */
	{ .hook = rdcc_rqd_hook, .pf = NFPROTO_IPV6, .hooknum = NF_INET_LOCAL_IN,
	  .priority = NF_IP6_PRI_FIRST },
#endif
};

static int __net_init rdcc_rqd_net_init(struct net *net)
{
	struct rdcc_rqd_net *rn = net_generic(net, rdcc_rqd_net_id);
	unsigned int i;
	int err;

	rn->seed = get_random_u32();
	rn->side_last = jiffies - HZ;	/* no entry yet */
	rn->side = kvcalloc(RQD_SIDE_SLOTS, sizeof(*rn->side), GFP_KERNEL);
	if (!rn->side)
		return -ENOMEM;
	for (i = 0; i < RQD_SIDE_SLOTS; i++)
		spin_lock_init(&rn->side[i].lock);
	err = nf_register_net_hooks(net, rdcc_rqd_nf_ops, ARRAY_SIZE(rdcc_rqd_nf_ops));
	if (err)
		kvfree(rn->side);	/* the namespace is not created: nothing reads it */
	return err;
}

/* First half of teardown: no new hook calls. The netns core then waits for an RCU grace period
 * (every running hook finished) before .exit frees the table. */
static void __net_exit rdcc_rqd_net_pre_exit(struct net *net)
{
	nf_unregister_net_hooks(net, rdcc_rqd_nf_ops, ARRAY_SIZE(rdcc_rqd_nf_ops));
}

static void __net_exit rdcc_rqd_net_exit(struct net *net)
{
	struct rdcc_rqd_net *rn = net_generic(net, rdcc_rqd_net_id);

	/* Not set to NULL after the free: no reader can see this table any more (the hooks are
	 * gone, rdcc_rqd_find tests check_net first), and a reader that did would be a
	 * use-after-free KASAN reports (selftests/rdcc_netns.sh) rather than a NULL test that
	 * hides the race of issue #32 item 1. */
	kvfree(rn->side);
}

static struct pernet_operations rdcc_rqd_net_ops = {
	.init = rdcc_rqd_net_init,
	.pre_exit = rdcc_rqd_net_pre_exit,
	.exit = rdcc_rqd_net_exit,
	.id = &rdcc_rqd_net_id,
	.size = sizeof(struct rdcc_rqd_net),
};

/* ---- the consumer, called from cong_control: rdcc_rqd_take.h ------------------------------ */

#include "rdcc_rqd_take.h"

static int rdcc_rqd_register(void)
{
	int err;

	WRITE_ONCE(rdcc_rqd_side_until, jiffies);
	err = register_pernet_subsys(&rdcc_rqd_net_ops);
	if (err)
		return err;
	rdcc_rqd_dir = debugfs_create_dir("tcp_" RDCC_NAME, NULL);
	debugfs_create_file("remote_delay", 0600, rdcc_rqd_dir, NULL, &rdcc_rqd_fops);
	return 0;
}

static void rdcc_rqd_unregister(void)
{
	/*
	 * For every namespace: .pre_exit unregisters the hooks (which in 6.12 does NOT wait for
	 * running ones: the old hook array is freed with call_rcu), then unregister_pernet_subsys
	 * waits for an RCU grace period (ops_undo_list: synchronize_rcu) - every hook runs under
	 * rcu_read_lock, so none is still running - and only then .exit frees the side table.
	 * cong_control/take cannot run any more: tcp_unregister_congestion_control (called first)
	 * waited for RCU readers, and a socket using this CA holds a module reference.
	 */
	unregister_pernet_subsys(&rdcc_rqd_net_ops);
	debugfs_remove_recursive(rdcc_rqd_dir);
}
