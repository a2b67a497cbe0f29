/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_rqd_stats.h - the counters of Swift's remote-delay channel (per CPU, summed on read) and
 * their debugfs view /sys/kernel/debug/tcp_<name>/remote_delay (a write resets them). Part of
 * rdcc_rqd.c, in its own file to keep that file readable: included once, by rdcc_rqd.c, after
 * rdcc_rqd_wire.h (RDCC_RQD_OUTCOMES).
 */
#ifndef RDCC_RQD_STATS_H
#define RDCC_RQD_STATS_H

/* ---- counters ------------------------------------------------------------------------------ */

enum rdcc_rqd_counter {
	/* hook */
	RQD_C_PKTS,		/* TCP packets of sockets using this CA seen by the hook */
	RQD_C_NOSK,		/* TCP packets without skb->sk (no early demux) */
	RQD_C_LOOKUP,		/* ... of which the established-table lookup found the socket */
	RQD_C_SKIP_STATE,	/* socket not in ESTABLISHED..LAST_ACK (LISTEN, SYN_SENT, ...): skipped */
	RQD_C_SKIP_AUTH,	/* socket has a TCP-MD5 or TCP-AO key: the channel is off */
	RQD_C_OUTCOME,		/* RDCC_RQD_OUTCOMES counters follow: absent, valid (= options seen), malformed,
				 * bad_length, duplicate, bad_version, foreign */
	RQD_C_BAD_TTL = RQD_C_OUTCOME + RDCC_RQD_OUTCOMES, /* valid option, nonsensical TTL: no hops */
	RQD_C_BAD_HDR,		/* TCP header shorter than 20 bytes or not readable */
	RQD_C_ACK_OLD,		/* ack_seq not after snd_una (old or duplicate ACK): refused */
	RQD_C_ACK_FUTURE,	/* ack_seq after snd_nxt (acknowledges unsent data): refused */
	RQD_C_HOPS_CLAMPED,	/* hop count above rqd_max_hops: clamped to it */
	RQD_C_RING,		/* stored in the socket's slot */
	RQD_C_SIDE,		/* stored in the side table (socket owned by user, or lock busy) */
	RQD_C_REPLACED,		/* a later segment with the same ack_seq replaced an entry */
	RQD_C_SUPERSEDED,	/* a segment without a valid option removed an entry of its ack_seq */
	RQD_C_SIDE_EVICT,	/* a side-table store replaced an entry not yet consumed */
	RQD_C_CA_CHANGED,	/* under the lock the socket's CA was no longer this module: dropped */
	RQD_C_LOCAL_RX,		/* ACKs with a kernel receive timestamp (local Rx delay measured) */
	RQD_C_HOOK_NS,		/* sum of hook time, ns, while rqd_time=1 */
	RQD_C_HOOK_TIMED,	/* packets timed */
	/* cong_control */
	RQD_C_ACKS,		/* cong_control calls: acks_data + acks_nodata when read */
	RQD_C_USED,		/* ... that found the remote delay of this very ACK and passed it on */
	RQD_C_MISSED,		/* ... that found none: never counted, acks - used when read */
	RQD_C_ACKS_DATA,	/* cong_control calls for ACKs that acknowledge new data */
	RQD_C_ACKS_NODATA,	/* ... for ACKs that acknowledge no new data */
	RQD_C_USED_DATA,	/* ... that found their remote delay (the hit rate's numerator) */
	RQD_C_FROM_SIDE,	/* used entries that came from the side table */
	RQD_C_STALE,		/* entries of older ACKs dropped unused */
	RQD_C_MISMATCH,		/* an entry for this ack_seq from another segment (seq or TSval differ) */
	RQD_C_SAME_TICK,	/* slot and side entries of this ACK stored in one jiffy: unused */
	RQD_C_NOT_ADVANCED,	/* an entry for an ACK that did not advance snd_una: not used */
	RQD_C_CLAMPED,		/* the law clamped a nonsensical delay (larger than the RTT) */
	RQD_C_ENDPOINT_BINDS,	/* ACKs after which the endpoint window binds */
	RQD_C_EXPIRED,		/* endpoint window expiries (no option for too long) */
	RQD_C_DYING_NS,		/* takes on a dying namespace: its side table not looked at */
	RQD_C_TOMBSTONE,	/* supersedes that could not clear the slot: a side-table tombstone */
	RQD_C_N
};

static const char *const rdcc_rqd_names[RQD_C_N] = {
	[RQD_C_PKTS] = "hook_pkts",
	[RQD_C_NOSK] = "hook_no_sk",
	[RQD_C_LOOKUP] = "hook_lookup",
	[RQD_C_SKIP_STATE] = "skip_state",
	[RQD_C_SKIP_AUTH] = "skip_md5_ao",
	[RQD_C_OUTCOME + RDCC_RQD_ABSENT] = "opt_absent",
	[RQD_C_OUTCOME + RDCC_RQD_VALID] = "opt_seen",
	[RQD_C_OUTCOME + RDCC_RQD_MALFORMED] = "rej_malformed",
	[RQD_C_OUTCOME + RDCC_RQD_BAD_LENGTH] = "rej_bad_length",
	[RQD_C_OUTCOME + RDCC_RQD_DUPLICATE] = "rej_duplicate",
	[RQD_C_OUTCOME + RDCC_RQD_BAD_VERSION] = "rej_bad_version",
	[RQD_C_OUTCOME + RDCC_RQD_FOREIGN] = "opt_foreign",
	[RQD_C_BAD_TTL] = "rej_bad_ttl",
	[RQD_C_BAD_HDR] = "rej_bad_header",
	[RQD_C_ACK_OLD] = "rej_ack_old",
	[RQD_C_ACK_FUTURE] = "rej_ack_future",
	[RQD_C_HOPS_CLAMPED] = "hops_clamped",
	[RQD_C_RING] = "store_ring",
	[RQD_C_SIDE] = "store_side",
	[RQD_C_REPLACED] = "store_replaced",
	[RQD_C_SUPERSEDED] = "superseded",
	[RQD_C_SIDE_EVICT] = "side_evict",
	[RQD_C_CA_CHANGED] = "drop_ca_changed",
	[RQD_C_LOCAL_RX] = "local_rx",
	[RQD_C_HOOK_NS] = "hook_ns",
	[RQD_C_HOOK_TIMED] = "hook_timed",
	[RQD_C_ACKS] = "acks",
	[RQD_C_USED] = "used",
	[RQD_C_MISSED] = "missed",
	[RQD_C_ACKS_DATA] = "acks_data",
	[RQD_C_ACKS_NODATA] = "acks_nodata",
	[RQD_C_USED_DATA] = "used_data",
	[RQD_C_FROM_SIDE] = "used_from_side",
	[RQD_C_STALE] = "stale_dropped",
	[RQD_C_MISMATCH] = "rej_mismatch",
	[RQD_C_SAME_TICK] = "rej_same_tick",
	[RQD_C_NOT_ADVANCED] = "rej_not_advanced",
	[RQD_C_CLAMPED] = "clamped",
	[RQD_C_ENDPOINT_BINDS] = "endpoint_binds",
	[RQD_C_EXPIRED] = "endpoint_expired",
	[RQD_C_DYING_NS] = "side_dying_ns",
	[RQD_C_TOMBSTONE] = "store_tombstone",
};

struct rdcc_rqd_stats {
	u64 c[RQD_C_N];
};
static DEFINE_PER_CPU(struct rdcc_rqd_stats, rdcc_rqd_stats);

#define RQD_INC(i) this_cpu_inc(rdcc_rqd_stats.c[(i)])
#define RQD_ADD(i, v) this_cpu_add(rdcc_rqd_stats.c[(i)], (v))

/* ---- debugfs: /sys/kernel/debug/tcp_<name>/remote_delay ------------------------------------ */

static struct dentry *rdcc_rqd_dir;

static int rdcc_rqd_show(struct seq_file *m, void *v)
{
	unsigned int i;
	int cpu;

	u64 sum[RQD_C_N] = {};

	for (i = 0; i < RQD_C_N; i++)
		for_each_possible_cpu(cpu)
			sum[i] += per_cpu(rdcc_rqd_stats, cpu).c[i];
	/* Every cong_control call acknowledges data or none, and ends used or missed: the hot
	 * paths count one of each pair, and only the first of the second (the sums are read
	 * racily, so a used counted after its ack could exceed it: saturate). */
	sum[RQD_C_ACKS] = sum[RQD_C_ACKS_DATA] + sum[RQD_C_ACKS_NODATA];
	sum[RQD_C_MISSED] = sum[RQD_C_ACKS] - min(sum[RQD_C_USED], sum[RQD_C_ACKS]);
	for (i = 0; i < RQD_C_N; i++)
		seq_printf(m, "%s %llu\n", rdcc_rqd_names[i] ? rdcc_rqd_names[i] : "?", sum[i]);
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

#endif /* RDCC_RQD_STATS_H */
