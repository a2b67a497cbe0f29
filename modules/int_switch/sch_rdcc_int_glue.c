// SPDX-License-Identifier: GPL-2.0-only
/*
 * sch_rdcc_int: the C half of the software INT switch (issue #35 item 1; Documentation/int-channel.md).
 *
 * A FIFO leaf qdisc, meant to sit under the link's shaper (the test bed's HTB class): the
 * shaper calls dequeue when the link can send, so dequeue is the moment the packet is scheduled
 * for transmission, the moment HPCC's and PowerTCP's INT records describe (PowerTCP §3.3, HPCC
 * §3.2; the simulator's sim/src/engine/fabric.rs start_tx). At dequeue it writes this port's
 * record into the segment's INT request, when it has one (core/src/int_wire.rs stamp, through
 * the Rust half): the queue behind the segment (backlog in bytes after removing it), the port's
 * cumulative transmitted bytes including it (qdisc_pkt_len: a GSO skb counts all its segments'
 * headers), the clock (ktime_get_ns) and the link rate. A GSO skb is one record, copied into
 * every segment when it is segmented: the queue serves skbs, as the bed's HTB does.
 *
 * Configuration: tc passes no options to a qdisc kind it has no plugin for, so a qdisc takes
 * the module's parameters when it is created (rate_mbit, limit_pkts); a later
 * parameter write changes only qdiscs created after it. Options in a netlink request are refused.
 *
 * Counters of what the stamp found, summed over every qdisc of the module:
 * /sys/module/sch_rdcc_int/parameters/counters (read only).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/skbuff.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <linux/if_vlan.h>
#include <net/pkt_sched.h>
#include <net/sch_generic.h>
#include <net/checksum.h>
#include <net/ip.h>

#include "../glue/rdcc_int_wire.h"

/* The Rust half (sch_rdcc_int_rs.rs). */
bool rdcc_rs_int_rate_ok(u64 rate_bps);
u32 rdcc_rs_int_stamp(u8 *opts, u32 len, u64 qlen_bytes, u64 tx_bytes, u64 ts_ns, u64 rate_bps);
int rdcc_int_register(void);
void rdcc_int_unregister(void);

#define RDCC_INT_OPT_MAX 40	/* TCP option space, bytes */
#define RDCC_INT_LIMIT_MAX 1000000

/* Counter indices past the stamp outcomes (RDCC_INT_ABSENT .. RDCC_INT_DUPLICATE). */
enum {
	RDCC_INT_C_NOT_TCP = RDCC_INT_OUTCOMES,	/* not IPv4/IPv6 TCP, a fragment, or an IPv6
						 * extension header before TCP */
	RDCC_INT_C_NO_WRITE,			/* the header could not be made writable */
	RDCC_INT_C_DROPPED,			/* drops at the limit */
	RDCC_INT_C_N
};
static const char *const rdcc_int_counter_names[RDCC_INT_C_N] = {
	"absent", "stamped", "full", "echo", "malformed", "duplicate",
	"not_tcp", "no_write", "dropped",
};
static atomic64_t rdcc_int_counters[RDCC_INT_C_N];

static u32 rate_mbit = 10000;
static u32 limit_pkts = 1000;

static int rdcc_int_set_rate(const char *val, const struct kernel_param *kp)
{
	u32 v;
	int err = kstrtou32(val, 0, &v);

	if (err) {
		pr_warn("sch_rdcc_int: rate_mbit '%s': not a number\n", val);
		return err;
	}
	if (!rdcc_rs_int_rate_ok((u64)v * 125000)) {
		pr_warn("sch_rdcc_int: rate_mbit %u: an INT record names only 10000, 25000, 40000, 50000, 100000, 200000, 400000 or 800000 Mbit/s\n",
			v);
		return -EINVAL;
	}
	WRITE_ONCE(rate_mbit, v);
	return 0;
}

static int rdcc_int_set_range(const char *val, const struct kernel_param *kp, u32 lo, u32 hi)
{
	u32 v;
	int err = kstrtou32(val, 0, &v);

	if (err || v < lo || v > hi) {
		pr_warn("sch_rdcc_int: %s '%s': expected an integer from %u to %u\n", kp->name, val,
			lo, hi);
		return err ? err : -ERANGE;
	}
	WRITE_ONCE(*(u32 *)kp->arg, v);
	return 0;
}

static int rdcc_int_set_limit(const char *val, const struct kernel_param *kp)
{
	return rdcc_int_set_range(val, kp, 1, RDCC_INT_LIMIT_MAX);
}

static const struct kernel_param_ops rdcc_int_rate_ops = {
	.set = rdcc_int_set_rate, .get = param_get_uint,
};
static const struct kernel_param_ops rdcc_int_limit_ops = {
	.set = rdcc_int_set_limit, .get = param_get_uint,
};
module_param_cb(rate_mbit, &rdcc_int_rate_ops, &rate_mbit, 0644);
MODULE_PARM_DESC(rate_mbit, "link rate the records name, Mbit/s: 10000, 25000, 40000, 50000, 100000, 200000, 400000 or 800000 (default 10000)");
module_param_cb(limit_pkts, &rdcc_int_limit_ops, &limit_pkts, 0644);
MODULE_PARM_DESC(limit_pkts, "queue limit, skbs (a GSO skb is one): arrivals beyond it are dropped, 1 to 1000000 (default 1000)");

static int rdcc_int_get_counters(char *buf, const struct kernel_param *kp)
{
	int i, n = 0;

	for (i = 0; i < RDCC_INT_C_N; i++)
		n += sysfs_emit_at(buf, n, "%s %lld%s", rdcc_int_counter_names[i],
				   (long long)atomic64_read(&rdcc_int_counters[i]),
				   i + 1 < RDCC_INT_C_N ? " " : "\n");
	return n;
}

static const struct kernel_param_ops rdcc_int_counters_ops = {
	.get = rdcc_int_get_counters,
};
module_param_cb(counters, &rdcc_int_counters_ops, NULL, 0444);
MODULE_PARM_DESC(counters, "what the qdiscs found, summed: stamp outcomes, non-TCP packets, write failures, drops");

struct rdcc_int_q {
	u64 rate_bps;		/* bytes/s, a rate the record can name */
	u64 tx_bytes;		/* cumulative bytes dequeued, this qdisc */
};

static void rdcc_int_count(unsigned int i)
{
	if (i < RDCC_INT_C_N)
		atomic64_inc(&rdcc_int_counters[i]);
}

static int rdcc_int_enqueue(struct sk_buff *skb, struct Qdisc *sch, struct sk_buff **to_free)
{
	if (unlikely(sch->q.qlen >= READ_ONCE(sch->limit))) {
		rdcc_int_count(RDCC_INT_C_DROPPED);
		return qdisc_drop(skb, sch, to_free);
	}
	return qdisc_enqueue_tail(skb, sch);
}

/* The TCP header's offset from skb->data, or -1 when the packet is not one we stamp. */
static int rdcc_int_tcp_offset(struct sk_buff *skb)
{
	int nh = skb_network_offset(skb);

	switch (skb_protocol(skb, true)) {
	case htons(ETH_P_IP): {
		struct iphdr _iph;
		const struct iphdr *iph = skb_header_pointer(skb, nh, sizeof(_iph), &_iph);

		if (!iph || iph->ihl < 5 || iph->protocol != IPPROTO_TCP ||
		    ip_is_fragment(iph))
			return -1;
		return nh + iph->ihl * 4;
	}
	case htons(ETH_P_IPV6): {
		struct ipv6hdr _ip6h;
		const struct ipv6hdr *ip6h = skb_header_pointer(skb, nh, sizeof(_ip6h), &_ip6h);

		/* Extension headers before TCP are not walked: such segments are counted, not stamped. */
		if (!ip6h || ip6h->nexthdr != IPPROTO_TCP)
			return -1;
		return nh + (int)sizeof(*ip6h);
	}
	default:
		return -1;
	}
}

static void rdcc_int_stamp(struct rdcc_int_q *q, struct sk_buff *skb, u64 qlen_bytes, u64 ts_ns)
{
	u8 buf[RDCC_INT_OPT_MAX], old[RDCC_INT_OPT_MAX];
	struct tcphdr _th;
	const struct tcphdr *th;
	struct tcphdr *wth;
	const u8 *opts;
	unsigned int optlen;
	int thoff = rdcc_int_tcp_offset(skb);
	u32 out;

	if (thoff < 0) {
		rdcc_int_count(RDCC_INT_C_NOT_TCP);
		return;
	}
	th = skb_header_pointer(skb, thoff, sizeof(_th), &_th);
	if (!th) {
		rdcc_int_count(RDCC_INT_C_NOT_TCP);
		return;
	}
	if (th->doff <= 5) {
		rdcc_int_count(RDCC_INT_ABSENT);
		return;
	}
	optlen = th->doff * 4 - sizeof(struct tcphdr);	/* 4 .. 40, a multiple of 4 */
	opts = skb_header_pointer(skb, thoff + sizeof(struct tcphdr), optlen, buf);
	if (!opts) {
		rdcc_int_count(RDCC_INT_MALFORMED);	/* doff past the packet */
		return;
	}
	if (opts != buf)
		memcpy(buf, opts, optlen);
	memcpy(old, buf, optlen);
	out = rdcc_rs_int_stamp(buf, optlen, qlen_bytes, q->tx_bytes, ts_ns, q->rate_bps);
	if (out != RDCC_INT_STAMPED && out != RDCC_INT_FULL) {
		rdcc_int_count(out);
		return;
	}
	if (skb_ensure_writable(skb, thoff + th->doff * 4)) {
		rdcc_int_count(RDCC_INT_C_NO_WRITE);
		return;
	}
	wth = (struct tcphdr *)(skb->data + thoff);
	memcpy((u8 *)(wth + 1), buf, optlen);
	/*
	 * The options start at an even offset of the segment and are a multiple of 4 bytes long,
	 * so their 16-bit one's-complement words are the segment's: the checksum moves by the
	 * difference of their sums (RFC 1624). A CHECKSUM_PARTIAL skb (ours: a local sender's, or
	 * GSO) has its checksum computed over the final bytes later; skb->csum of a
	 * CHECKSUM_COMPLETE skb stays valid because the check field absorbs the difference.
	 */
	if (skb->ip_summed != CHECKSUM_PARTIAL)
		csum_replace_by_diff(&wth->check, csum_sub(csum_partial(buf, optlen, 0),
							   csum_partial(old, optlen, 0)));
	rdcc_int_count(out);
}

static struct sk_buff *rdcc_int_dequeue(struct Qdisc *sch)
{
	struct rdcc_int_q *q = qdisc_priv(sch);
	struct sk_buff *skb = qdisc_dequeue_head(sch);

	if (!skb)
		return NULL;
	q->tx_bytes += qdisc_pkt_len(skb);
	rdcc_int_stamp(q, skb, sch->qstats.backlog, ktime_get_ns());
	return skb;
}

static int rdcc_int_init(struct Qdisc *sch, struct nlattr *opt, struct netlink_ext_ack *extack)
{
	struct rdcc_int_q *q = qdisc_priv(sch);

	if (opt) {
		NL_SET_ERR_MSG(extack,
			       "rdcc_int takes no options: set /sys/module/sch_rdcc_int/parameters/ before adding it");
		return -EINVAL;
	}
	q->rate_bps = (u64)READ_ONCE(rate_mbit) * 125000;
	q->tx_bytes = 0;
	WRITE_ONCE(sch->limit, READ_ONCE(limit_pkts));
	return 0;
}

struct rdcc_int_xstats {
	__u64 rate_bps;
	__u64 tx_bytes;
	__u32 limit_pkts;
	__u32 pad;
};

static int rdcc_int_dump_stats(struct Qdisc *sch, struct gnet_dump *d)
{
	struct rdcc_int_q *q = qdisc_priv(sch);
	struct rdcc_int_xstats st = {
		.rate_bps = q->rate_bps,
		.tx_bytes = q->tx_bytes,
		.limit_pkts = READ_ONCE(sch->limit),
	};

	return gnet_stats_copy_app(d, &st, sizeof(st));
}

static struct Qdisc_ops rdcc_int_qdisc_ops __read_mostly = {
	.id = "rdcc_int",
	.priv_size = sizeof(struct rdcc_int_q),
	.enqueue = rdcc_int_enqueue,
	.dequeue = rdcc_int_dequeue,
	.peek = qdisc_peek_head,
	.init = rdcc_int_init,
	.reset = qdisc_reset_queue,
	.dump_stats = rdcc_int_dump_stats,
	.owner = THIS_MODULE,
};

int rdcc_int_register(void)
{
	return register_qdisc(&rdcc_int_qdisc_ops);
}

void rdcc_int_unregister(void)
{
	unregister_qdisc(&rdcc_int_qdisc_ops);
}
