// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdcc_rqd.c - the sender side of Swift's remote-queuing-delay (RQD) channel.
 *
 * Included by rdcc_glue.c when the module defines RDCC_REMOTE_DELAY (tcp_swift). The receiver
 * (rxstamp/bpf/rqd.bpf.c) writes the option of rdcc_rqd_wire.h on every ACK; here:
 *
 *   NF_INET_LOCAL_IN hook (IPv4 and IPv6, registered per network namespace)
 *     -> the socket: skb->sk from early demux, else an established-table lookup
 *     -> only sockets whose CA is this module; only ACKs; the TCP header is copied with
 *        skb_header_pointer, at most doff * 4 <= 60 bytes, so nothing past it is read
 *     -> the option bytes go to the Rust parser (core/src/rqd.rs via rdcc_rs_rqd_scan)
 *     -> a valid option is stored, keyed by the ACK's ack_seq, either in the socket's ring
 *        (struct rdcc_priv.glue) or, when the socket is owned by user space, in a module-owned
 *        side table
 *   cong_control(sk, ack, ...) -> rdcc_rqd_take(): the entry whose ack_seq == ack, consumed
 *     once; older entries are dropped; nothing is carried to another ACK.
 *
 * Why the ring write is safe against a concurrent congestion-control switch (the caveat of
 * shared/notes/remote-delay-channel.md): icsk_ca_ops and icsk_ca_priv change only in
 * tcp_set_congestion_control()/tcp_reinit_congestion_control() and tcp_init_congestion_control(),
 * which run with the socket lock held: either owned by a process (lock_sock) or under the
 * socket spinlock in softirq. The hook writes the ring only after spin_trylock() of
 * sk->sk_lock.slock succeeded AND !sock_owned_by_user() AND icsk_ca_ops == &rdcc_ops, all
 * checked under that spinlock. While it is held, no process can take ownership (lock_sock
 * needs the spinlock) and no softirq can process the socket, so the CA cannot change and the
 * area is ours until the unlock. In every other case (owned, lock busy) nothing is written to
 * icsk_ca_priv: the sample goes to the side table (module memory, keyed by socket pointer and
 * ack_seq, expiring after one second), or is dropped and counted if the CA is not ours. The
 * same argument serialises the ring against cong_control: cong_control runs either in softirq
 * under the spinlock with the socket not owned, or from __release_sock with the socket owned,
 * where the hook never touches the ring.
 */
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/jhash.h>
#include <linux/percpu.h>
#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/sched/clock.h>
#include <net/ipv6.h>
#include <net/inet_hashtables.h>
#include <net/inet6_hashtables.h>
#include <net/net_namespace.h>

#include "rdcc_rqd_wire.h"

void rdcc_rs_rqd_scan(const u8 *opts, u32 len, struct rdcc_rqd_scan *out);

/* ---- counters ------------------------------------------------------------------------------ */

enum rdcc_rqd_counter {
	/* hook */
	RQD_C_PKTS,		/* TCP packets of sockets using this CA seen by the hook */
	RQD_C_NOSK,		/* TCP packets without skb->sk (no early demux) */
	RQD_C_LOOKUP,		/* ... of which the established-table lookup found the socket */
	RQD_C_OUTCOME,		/* RDCC_RQD_OUTCOMES counters follow: absent, valid (= options seen), malformed,
				 * bad_length, duplicate, bad_version, foreign */
	RQD_C_BAD_TTL = RQD_C_OUTCOME + RDCC_RQD_OUTCOMES, /* valid option, nonsensical TTL: no hops */
	RQD_C_BAD_HDR,		/* TCP header shorter than 20 bytes or not readable */
	RQD_C_RING,		/* stored in the socket's ring */
	RQD_C_SIDE,		/* stored in the side table (socket owned by user, or lock busy) */
	RQD_C_SIDE_EVICT,	/* a side-table store replaced an entry not yet consumed */
	RQD_C_CA_CHANGED,	/* under the lock the socket's CA was no longer this module: dropped */
	RQD_C_LOCAL_RX,		/* ACKs with a kernel receive timestamp (local Rx delay measured) */
	RQD_C_HOOK_NS,		/* sum of hook time, ns, while rqd_time=1 */
	RQD_C_HOOK_TIMED,	/* packets timed */
	/* cong_control */
	RQD_C_ACKS,		/* cong_control calls */
	RQD_C_USED,		/* ... that found the remote delay of this very ACK and passed it on */
	RQD_C_MISSED,		/* ... that found none */
	RQD_C_ACKS_DATA,	/* cong_control calls for ACKs that acknowledge new data */
	RQD_C_USED_DATA,	/* ... that found their remote delay (the hit rate's numerator) */
	RQD_C_FROM_SIDE,	/* used entries that came from the side table */
	RQD_C_STALE,		/* ring entries of older ACKs dropped unused */
	RQD_C_CLAMPED,		/* the law clamped a nonsensical delay (larger than the RTT) */
	RQD_C_ENDPOINT_BINDS,	/* ACKs after which the endpoint window binds */
	RQD_C_EXPIRED,		/* endpoint window expiries (no option for too long) */
	RQD_C_N
};

static const char *const rdcc_rqd_names[RQD_C_N] = {
	[RQD_C_PKTS] = "hook_pkts",
	[RQD_C_NOSK] = "hook_no_sk",
	[RQD_C_LOOKUP] = "hook_lookup",
	[RQD_C_OUTCOME + RDCC_RQD_ABSENT] = "opt_absent",
	[RQD_C_OUTCOME + RDCC_RQD_VALID] = "opt_seen",
	[RQD_C_OUTCOME + RDCC_RQD_MALFORMED] = "rej_malformed",
	[RQD_C_OUTCOME + RDCC_RQD_BAD_LENGTH] = "rej_bad_length",
	[RQD_C_OUTCOME + RDCC_RQD_DUPLICATE] = "rej_duplicate",
	[RQD_C_OUTCOME + RDCC_RQD_BAD_VERSION] = "rej_bad_version",
	[RQD_C_OUTCOME + RDCC_RQD_FOREIGN] = "opt_foreign",
	[RQD_C_BAD_TTL] = "rej_bad_ttl",
	[RQD_C_BAD_HDR] = "rej_bad_header",
	[RQD_C_RING] = "store_ring",
	[RQD_C_SIDE] = "store_side",
	[RQD_C_SIDE_EVICT] = "side_evict",
	[RQD_C_CA_CHANGED] = "drop_ca_changed",
	[RQD_C_LOCAL_RX] = "local_rx",
	[RQD_C_HOOK_NS] = "hook_ns",
	[RQD_C_HOOK_TIMED] = "hook_timed",
	[RQD_C_ACKS] = "acks",
	[RQD_C_USED] = "used",
	[RQD_C_MISSED] = "missed",
	[RQD_C_ACKS_DATA] = "acks_data",
	[RQD_C_USED_DATA] = "used_data",
	[RQD_C_FROM_SIDE] = "used_from_side",
	[RQD_C_STALE] = "stale_dropped",
	[RQD_C_CLAMPED] = "clamped",
	[RQD_C_ENDPOINT_BINDS] = "endpoint_binds",
	[RQD_C_EXPIRED] = "endpoint_expired",
};

struct rdcc_rqd_stats {
	u64 c[RQD_C_N];
};
static DEFINE_PER_CPU(struct rdcc_rqd_stats, rdcc_rqd_stats);

#define RQD_INC(i) this_cpu_inc(rdcc_rqd_stats.c[(i)])
#define RQD_ADD(i, v) this_cpu_add(rdcc_rqd_stats.c[(i)], (v))

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

/* ---- storage: the per-socket ring and the side table --------------------------------------- */

#define RQD_E_VALID	(1U << 0)
#define RQD_E_HOPS	(1U << 1)
#define RQD_E_LOCAL_RX	(1U << 2)

struct rdcc_rqd_entry {
	u32 ack_seq;
	u32 delay_ns;
	u32 local_rx_ns;
	u8 hops;
	u8 flags;		/* RQD_E_*; 0 = empty */
	u16 _pad;
};

#define RQD_RING 2
static_assert(sizeof(struct rdcc_rqd_entry) * RQD_RING <= sizeof(((struct rdcc_priv *)0)->glue));

static inline struct rdcc_rqd_entry *rdcc_rqd_ring(struct sock *sk)
{
	return (struct rdcc_rqd_entry *)((struct rdcc_priv *)inet_csk_ca(sk))->glue;
}

#define RQD_SIDE_SLOTS 512	/* power of two */

struct rdcc_rqd_side {
	spinlock_t lock;
	const struct sock *sk;	/* NULL = empty */
	unsigned long stamp;	/* jiffies at store; entries older than HZ are ignored */
	struct rdcc_rqd_entry e;
};
static struct rdcc_rqd_side rdcc_rqd_side[RQD_SIDE_SLOTS];

static inline struct rdcc_rqd_side *rdcc_rqd_slot(const struct sock *sk, u32 ack_seq)
{
	unsigned long p = (unsigned long)sk;

	return &rdcc_rqd_side[jhash_2words((u32)p, ack_seq, (u32)(p >> 16) ^ (u32)(p >> 32)) &
			      (RQD_SIDE_SLOTS - 1)];
}

static void rdcc_rqd_side_store(const struct sock *sk, const struct rdcc_rqd_entry *e)
{
	struct rdcc_rqd_side *s = rdcc_rqd_slot(sk, e->ack_seq);

	spin_lock_bh(&s->lock);
	if (s->sk && time_before(jiffies, s->stamp + HZ))
		RQD_INC(RQD_C_SIDE_EVICT);
	s->sk = sk;
	s->stamp = jiffies;
	s->e = *e;
	spin_unlock_bh(&s->lock);
	RQD_INC(RQD_C_SIDE);
}

static bool rdcc_rqd_side_take(const struct sock *sk, u32 ack, struct rdcc_rqd_entry *out)
{
	struct rdcc_rqd_side *s = rdcc_rqd_slot(sk, ack);
	bool found = false;

	if (READ_ONCE(s->sk) != sk)
		return false;
	spin_lock_bh(&s->lock);
	if (s->sk == sk && s->e.ack_seq == ack) {
		found = time_before(jiffies, s->stamp + HZ);
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
 * Documentation/remote-delay.md). */
static bool rdcc_rqd_local_rx(const struct sk_buff *skb, u32 *out)
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

static void rdcc_rqd_parse(struct sk_buff *skb, unsigned int thoff, struct sock *sk)
{
	u8 buf[60];
	const struct tcphdr *th;
	struct rdcc_rqd_scan sc = {};
	struct rdcc_rqd_entry e = {};
	unsigned int thlen;

	if (!sk_fullsock(sk) || sk->sk_protocol != IPPROTO_TCP ||
	    READ_ONCE(inet_csk(sk)->icsk_ca_ops) != &rdcc_ops)
		return;
	RQD_INC(RQD_C_PKTS);
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
		th = skb_header_pointer(skb, thoff, thlen, buf);
		if (!th) {
			RQD_INC(RQD_C_BAD_HDR);
			return;
		}
		rdcc_rs_rqd_scan((const u8 *)th + sizeof(struct tcphdr),
				 thlen - sizeof(struct tcphdr), &sc);
	}
	if (sc.outcome >= RDCC_RQD_OUTCOMES)
		return;
	RQD_INC(RQD_C_OUTCOME + sc.outcome);
	if (sc.outcome != RDCC_RQD_VALID)
		return;
	e.ack_seq = ntohl(th->ack_seq);
	e.delay_ns = sc.delay_ns;
	e.flags = RQD_E_VALID;
	if (sc.flags & RDCC_RQD_SCAN_HAS_HOPS) {
		e.hops = sc.hops;
		e.flags |= RQD_E_HOPS;
	} else if (sc.flags & RDCC_RQD_SCAN_BAD_TTL) {
		RQD_INC(RQD_C_BAD_TTL);
	}
	if (rdcc_rqd_local_rx(skb, &e.local_rx_ns)) {
		e.flags |= RQD_E_LOCAL_RX;
		RQD_INC(RQD_C_LOCAL_RX);
	}

	/* The race guard: see the comment at the top of this file. */
	if (spin_trylock(&sk->sk_lock.slock)) {
		if (!sock_owned_by_user_nocheck(sk)) {
			if (READ_ONCE(inet_csk(sk)->icsk_ca_ops) == &rdcc_ops) {
				struct rdcc_rqd_entry *ring = rdcc_rqd_ring(sk);
				unsigned int i = 0;

				/* an empty slot, else the older entry */
				if ((ring[0].flags & RQD_E_VALID) &&
				    (!(ring[1].flags & RQD_E_VALID) ||
				     after(ring[0].ack_seq, ring[1].ack_seq)))
					i = 1;
				ring[i] = e;
				RQD_INC(RQD_C_RING);
			} else {
				RQD_INC(RQD_C_CA_CHANGED);
			}
			spin_unlock(&sk->sk_lock.slock);
			return;
		}
		spin_unlock(&sk->sk_lock.slock);
	}
	/* Owned by user space (the ACK waits in the backlog) or the lock is busy: keep the sample
	 * in module memory; cong_control of that ACK will find it. */
	rdcc_rqd_side_store(sk, &e);
}

static unsigned int rdcc_rqd_hook(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state)
{
	const struct tcphdr *th;
	struct tcphdr _th;
	struct sock *sk;
	unsigned int thoff;
	bool ref = false;
	u64 t0 = 0;

	if (!READ_ONCE(rqd_enable))
		return NF_ACCEPT;
	if (READ_ONCE(rqd_time))
		t0 = local_clock();

	if (state->pf == NFPROTO_IPV4) {
		const struct iphdr *iph = ip_hdr(skb);

		if (iph->protocol != IPPROTO_TCP || ip_is_fragment(iph))
			goto out;
		thoff = skb_network_offset(skb) + ip_hdrlen(skb);
	} else {
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);
		u8 nexthdr = ip6h->nexthdr;
		__be16 frag_off = 0;
		int off;

		/* Extension headers (hop-by-hop, routing, destination options) are skipped; a
		 * fragment is not looked at (ACKs are never fragmented). */
		off = ipv6_skip_exthdr(skb, skb_network_offset(skb) + sizeof(*ip6h), &nexthdr,
				       &frag_off);
		if (off < 0 || nexthdr != IPPROTO_TCP || frag_off)
			goto out;
		thoff = off;
	}

	sk = skb->sk;	/* set by early demux for established sockets */
	if (!sk) {
		RQD_INC(RQD_C_NOSK);
		if (!READ_ONCE(rqd_lookup))
			goto out;
		th = skb_header_pointer(skb, thoff, sizeof(_th), &_th);
		if (!th)
			goto out;
		/* Under rcu_read_lock (nf_hook); a found socket is referenced. */
		if (state->pf == NFPROTO_IPV4) {
			const struct iphdr *iph = ip_hdr(skb);

			sk = __inet_lookup_established(state->net,
						       state->net->ipv4.tcp_death_row.hashinfo,
						       iph->saddr, th->source, iph->daddr,
						       ntohs(th->dest), state->in->ifindex,
						       inet_sdif(skb));
		} else {
			const struct ipv6hdr *ip6h = ipv6_hdr(skb);

			sk = __inet6_lookup_established(state->net,
							state->net->ipv4.tcp_death_row.hashinfo,
							&ip6h->saddr, th->source, &ip6h->daddr,
							ntohs(th->dest), state->in->ifindex,
							inet6_sdif(skb));
		}
		if (!sk)
			goto out;
		RQD_INC(RQD_C_LOOKUP);
		ref = true;
	}
	rdcc_rqd_parse(skb, thoff, sk);
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
	{ .hook = rdcc_rqd_hook, .pf = NFPROTO_IPV6, .hooknum = NF_INET_LOCAL_IN,
	  .priority = NF_IP6_PRI_FIRST },
};

static int __net_init rdcc_rqd_net_init(struct net *net)
{
	return nf_register_net_hooks(net, rdcc_rqd_nf_ops, ARRAY_SIZE(rdcc_rqd_nf_ops));
}

static void __net_exit rdcc_rqd_net_exit(struct net *net)
{
	nf_unregister_net_hooks(net, rdcc_rqd_nf_ops, ARRAY_SIZE(rdcc_rqd_nf_ops));
}

static struct pernet_operations rdcc_rqd_net_ops = {
	.init = rdcc_rqd_net_init,
	.exit = rdcc_rqd_net_exit,
};

/* ---- the consumer, called from cong_control ------------------------------------------------ */

/* Fill ev with the remote delay, hops and local Rx delay of the ACK `ack`, if the hook stored
 * them; consume the entry; drop ring entries of older ACKs. Nothing else is ever reused. */
static void rdcc_rqd_take(struct sock *sk, u32 ack, struct rdcc_ack_event *ev)
{
	struct rdcc_rqd_entry *ring = rdcc_rqd_ring(sk);
	struct rdcc_rqd_entry e = {};
	bool found = false;
	unsigned int i;

	RQD_INC(RQD_C_ACKS);
	if (ev->acked_bytes)
		RQD_INC(RQD_C_ACKS_DATA);
	for (i = 0; i < RQD_RING; i++) {
		if (!(ring[i].flags & RQD_E_VALID))
			continue;
		if (ring[i].ack_seq == ack && !found) {
			e = ring[i];
			found = true;
		} else if (!after(ring[i].ack_seq, ack)) {
			RQD_INC(RQD_C_STALE);
		} else {
			continue;	/* a later ACK's (it raced ahead of this one): keep */
		}
		ring[i].flags = 0;
	}
	if (!found && rdcc_rqd_side_take(sk, ack, &e)) {
		found = true;
		RQD_INC(RQD_C_FROM_SIDE);
	}
	if (!found) {
		RQD_INC(RQD_C_MISSED);
		return;
	}
	RQD_INC(RQD_C_USED);
	if (ev->acked_bytes)
		RQD_INC(RQD_C_USED_DATA);
	ev->remote_delay_ns = e.delay_ns;
	ev->flags |= RDCC_ACK_HAS_REMOTE_DELAY;
	if (e.flags & RQD_E_HOPS) {
		ev->hops = e.hops;
		ev->flags |= RDCC_ACK_HAS_HOPS;
	}
	if (e.flags & RQD_E_LOCAL_RX) {
		ev->local_rx_delay_ns = e.local_rx_ns;
		ev->flags |= RDCC_ACK_HAS_LOCAL_RX;
	}
}

static void rdcc_rqd_account(const struct rdcc_decision *d)
{
	if (d->flags & RDCC_DEC_REMOTE_CLAMPED)
		RQD_INC(RQD_C_CLAMPED);
	if (d->flags & RDCC_DEC_ENDPOINT_BINDS)
		RQD_INC(RQD_C_ENDPOINT_BINDS);
	if (d->flags & RDCC_DEC_ENDPOINT_EXPIRED)
		RQD_INC(RQD_C_EXPIRED);
}

/* ---- debugfs: /sys/kernel/debug/tcp_<name>/remote_delay ------------------------------------ */

static struct dentry *rdcc_rqd_dir;

static int rdcc_rqd_show(struct seq_file *m, void *v)
{
	unsigned int i;
	int cpu;

	for (i = 0; i < RQD_C_N; i++) {
		u64 sum = 0;

		for_each_possible_cpu(cpu)
			sum += per_cpu(rdcc_rqd_stats, cpu).c[i];
		seq_printf(m, "%s %llu\n", rdcc_rqd_names[i] ? rdcc_rqd_names[i] : "?", sum);
	}
	return 0;
}

static int rdcc_rqd_open(struct inode *inode, struct file *file)
{
	return single_open(file, rdcc_rqd_show, NULL);
}

/* Any write resets the counters. */
static ssize_t rdcc_rqd_write(struct file *file, const char __user *buf, size_t len,
			      loff_t *ppos)
{
	int cpu;

	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&rdcc_rqd_stats, cpu), 0, sizeof(struct rdcc_rqd_stats));
	return len;
}

static const struct file_operations rdcc_rqd_fops = {
	.owner = THIS_MODULE,
	.open = rdcc_rqd_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = rdcc_rqd_write,
};

static int rdcc_rqd_register(void)
{
	unsigned int i;
	int err;

	for (i = 0; i < RQD_SIDE_SLOTS; i++)
		spin_lock_init(&rdcc_rqd_side[i].lock);
	err = register_pernet_subsys(&rdcc_rqd_net_ops);
	if (err)
		return err;
	rdcc_rqd_dir = debugfs_create_dir("tcp_" RDCC_NAME, NULL);
	debugfs_create_file("remote_delay", 0600, rdcc_rqd_dir, NULL, &rdcc_rqd_fops);
	return 0;
}

static void rdcc_rqd_unregister(void)
{
	/* Unregistering the hooks waits for running ones (synchronize_net in nf_unregister). */
	unregister_pernet_subsys(&rdcc_rqd_net_ops);
	debugfs_remove_recursive(rdcc_rqd_dir);
}
