// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdcc_int_glue.c - the C half of the INT congestion-control modules (tcp_powertcp, tcp_hpcc;
 * issue #35 item 3): laws that read in-band telemetry echoed by the receiver.
 *
 * Not compiled on its own: each module's <name>_glue.c defines RDCC_NAME, RDCC_TRACE_SYSTEM and
 * RDCC_PARAMS(P) as for rdcc_glue.c, and includes this file. The Rust half is int_glue.rs
 * (rdcc_int_glue!), over the core's IntController laws and core/src/int_intake.rs.
 *
 * Per-socket state. The law's state keeps the previous INT stack (48 bytes), and the intake
 * keeps up to four echoes waiting for their ACK's cong_control: about 440 bytes, more than
 * icsk_ca_priv's 104. So each socket gets a block from kzalloc in init (GFP_ATOMIC: a passive
 * open initialises in softirq), as tcp_cdg does, freed in release, which the kernel calls on
 * close, on tcp_disconnect and on every CA switch (tcp_cleanup_congestion_control), so a switch
 * never leaks one. icsk_ca_priv holds the block's pointer and a mirror of the last decision for
 * get_info (below). When the allocation fails the socket runs Reno (counted: alloc_fail): a
 * socket must work without its law's memory.
 *
 * The echo. The receiver (rxstamp's INT program) writes the latest stack it received into its
 * ACKs (core/src/int_wire.rs, Documentation/int-channel.md). A netfilter hook at LOCAL_IN (IPv4,
 * IPv6, registered per network namespace) finds the socket (rdcc_nf_sock.h), and, for one of
 * this CA, looks its block up by socket pointer in a hash table (rhashtable, under the hook's
 * RCU read lock) and hands the option bytes to the intake under the block's spinlock
 * (int_intake::on_rx). cong_control takes, under the same lock, the stack of the very segment
 * TCP accepted (ACK number, snd_wl1, TSval: int_intake::take) and runs the law on it. This is
 * the remote-delay channel's rule and threat model (Documentation/remote-delay.md): a forged
 * segment's echo is never used.
 *
 * Why a hash table and not the pointer in icsk_ca_priv: the hook runs without the socket lock,
 * while a process that owns the socket may be switching its CA (tcp_set_congestion_control:
 * release, then the next CA's init writes the area). Read there, the pointer could already be
 * another algorithm's bytes. The table holds only live blocks: init inserts before the block is
 * used, release removes it before kfree_rcu, and the hook's lookup and use run inside one RCU
 * read-side section (nf_hook), so a block the hook found is not freed under it. A block found
 * for a socket that has just switched away is written for nothing and freed after the grace
 * period. cong_control, set_state and undo run under the socket lock, as init and release do,
 * so their pointer from icsk_ca_priv is the socket's own block.
 *
 * get_info runs without the socket lock too (inet_diag, TCP_CC_INFO), and may even be handed an
 * area the next algorithm already initialised (rdcc_glue.c, rdcc_snapshot). It therefore never
 * dereferences the block: it reads the mirror in icsk_ca_priv (integers only, each a READ_ONCE;
 * any bytes are a valid answer, perhaps a meaningless one), which the hooks write with
 * WRITE_ONCE under the socket lock.
 *
 * No idle restart: the INT laws have none (int::IntController). After an idle period the first
 * echoed stack is more than int_intake::STALE_NS after the last one and starts a new history
 * epoch, which the laws take as a path change (they keep it as the new reference).
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/inet_diag.h>
#include <linux/netfilter.h>
#include <linux/netfilter_ipv4.h>
#include <linux/netfilter_ipv6.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/ipv6.h>
#include <net/inet_hashtables.h>
#include <net/inet6_hashtables.h>
#include <net/net_namespace.h>
#include <net/tcp.h>

#include "rdcc_abi.h"
#include "rdcc_event.h"		/* struct rdcc_ack_in, rdcc_fill_ack_in */
#include "rdcc_tcp_flags.h"	/* RDCC_FLAG_SND_UNA_ADVANCED */
#include "rdcc_nf_sock.h"	/* rdcc_nf_tcp_off, rdcc_nf_lookup, RDCC_NF_STATES, rdcc_nf_signed */
#include "rdcc_rto.h"		/* rdcc_is_rto */
#ifndef CONFIG_64BIT
#error "rdcc needs a 64-bit kernel: the info mirror's READ_ONCE of a u64 must be one load"
#endif

/* ---- the Rust side (modules/glue/glue.rs rdcc_glue_common!, int_glue.rs) ------------------ */

#include "rdcc_rs_common.h" /* struct rdcc_param, struct rdcc_ack_out, parameters, enforce */

/* core/src/int_intake.rs SegmentId: the identity of the segment TCP accepted. */
struct rdcc_int_seg {
	u32 ack_seq;
	u32 seq;		/* tp->snd_wl1 */
	u32 tsval;		/* tp->rx_opt.rcv_tsval, with has_ts */
	u32 has_ts;		/* tp->rx_opt.saw_tstamp */
};
static_assert(sizeof(struct rdcc_int_seg) == 16);

u32 rdcc_rs_flow_size(void);
void rdcc_rs_int_init(const void *p, void *flow, u64 now_ns, u32 mss, struct rdcc_decision *d);
u32 rdcc_rs_int_on_ack(const void *p, void *flow, const struct rdcc_ack_in *in,
		       const struct rdcc_int_seg *id, u32 advanced, struct rdcc_ack_out *out);
void rdcc_rs_int_on_loss(const void *p, void *flow, const struct rdcc_loss_event *ev,
			 struct rdcc_decision *d);
void rdcc_rs_int_current(const void *p, void *flow, u32 mss, struct rdcc_decision *d);
u32 rdcc_rs_int_signal(s64 signal);
u32 rdcc_rs_int_rx(void *flow, const u8 *opts, u32 len, u32 ack_seq, u32 seq, u32 snd_una,
		   u32 snd_nxt);

/* ---- trace event and module parameters ------------------------------------------------------ */

#define CREATE_TRACE_POINTS
#include "rdcc_trace.h"

#include "rdcc_params.h"

/* ---- counters -------------------------------------------------------------------------------- */

/*
 * Per CPU, summed when read: /sys/module/tcp_<name>/parameters/counters (read only). The first
 * RDCC_INT_RX_OUTCOMES are the hook's outcomes (core/src/int_intake.rs Stored, then Rx), then
 * cong_control's (Taken), then the glue's own.
 */
#define RDCC_INT_RX_OUTCOMES	9
#define RDCC_INT_TAKEN_OUTCOMES	5
enum {
	RDCC_INT_C_RX = 0,
	RDCC_INT_C_TAKEN = RDCC_INT_C_RX + RDCC_INT_RX_OUTCOMES,
	RDCC_INT_C_ALLOC_FAIL = RDCC_INT_C_TAKEN + RDCC_INT_TAKEN_OUTCOMES,
	RDCC_INT_C_HASH_FAIL,
	RDCC_INT_C_FALLBACK_ACKS,	/* ACKs of a socket whose allocation failed (Reno) */
	RDCC_INT_C_EARLY_ACKS,		/* ACKs before init (the SYN-ACK's, before tcp_finish_connect) */
	RDCC_INT_C_NO_BLOCK,	/* the hook found a socket of this CA without a block */
	RDCC_INT_C_SKIP_STATE,
	RDCC_INT_C_SKIP_AUTH,
	RDCC_INT_C_BAD_HDR,
	RDCC_INT_C_BLOCKS,	/* allocated */
	RDCC_INT_C_FREED,
	RDCC_INT_C_N
};

static const char *const rdcc_int_counter_names[RDCC_INT_C_N] = {
	"rx_new", "rx_replaced", "rx_evicted", "rx_ack_old", "rx_ack_future", "rx_empty",
	"rx_absent", "rx_request", "rx_malformed",
	"ack_used", "ack_missed", "ack_not_advanced", "ack_mismatch", "ack_reordered",
	"alloc_fail", "hash_fail", "fallback_acks", "early_acks", "hook_no_block", "hook_skip_state",
	"hook_skip_auth", "hook_bad_hdr", "blocks", "freed",
};

static DEFINE_PER_CPU(u64 [RDCC_INT_C_N], rdcc_int_counters);

static __always_inline void rdcc_int_inc(unsigned int i)
{
	if (likely(i < RDCC_INT_C_N))
		this_cpu_inc(rdcc_int_counters[i]);
}

static int rdcc_int_counters_get(char *buf, const struct kernel_param *kp)
{
	int len = 0, cpu;
	unsigned int i;

	for (i = 0; i < RDCC_INT_C_N; i++) {
		u64 sum = 0;

		for_each_possible_cpu(cpu)
			sum += per_cpu(rdcc_int_counters, cpu)[i];
		len += sysfs_emit_at(buf, len, "%s %llu\n", rdcc_int_counter_names[i], sum);
	}
	return len;
}

static const struct kernel_param_ops rdcc_int_counters_ops = {
	.get = rdcc_int_counters_get,
};
module_param_cb(counters, &rdcc_int_counters_ops, NULL, 0444);
MODULE_PARM_DESC(counters, "echoes the hook stored or refused, ACKs that used one, allocations (read only)");

/* ---- per-socket state ---------------------------------------------------------------------- */

/* The socket's block: found by socket pointer in rdcc_int_blocks, freed with kfree_rcu. */
struct rdcc_int_blk {
	struct rhash_head node;
	const struct sock *sk;	/* the key */
	spinlock_t lock;	/* the flow: cong_control and the other hooks vs the echo hook */
	struct rcu_head rcu;
	u64 flow[];		/* Rust IntFlow, rdcc_rs_flow_size() bytes, zeroed */
};

/*
 * The key is the socket's address, so a block is the key's when its sk is that pointer: the
 * comparison rhashtable's default makes with memcmp of the key's bytes (out of line, a byte loop
 * in this kernel), made as one compare. 0: a match.
 */
static int rdcc_int_blk_cmp(struct rhashtable_compare_arg *arg, const void *obj)
{
	const struct rdcc_int_blk *b = obj;

	return b->sk != *(const struct sock *const *)arg->key;
}

static const struct rhashtable_params rdcc_int_ht_params = {
	.key_len = sizeof(const struct sock *),
	.key_offset = offsetof(struct rdcc_int_blk, sk),
	.head_offset = offsetof(struct rdcc_int_blk, node),
	.obj_cmpfn = rdcc_int_blk_cmp,
	.automatic_shrinking = true,
};

static struct rhashtable rdcc_int_blocks;

/* icsk_ca_priv: the block and the mirror of the last decision for get_info. */
struct rdcc_int_priv {
	struct rdcc_int_blk *blk;	/* NULL: no block (not initialised, or alloc failed) */
	u64 cwnd_bytes_q16;		/* mirror, WRITE_ONCE under the socket lock */
	u64 rate_bps;
	s64 signal;
	u32 reason;
	u32 nomem;			/* 1: init found no memory: the socket runs Reno */
};
static_assert(sizeof(struct rdcc_int_priv) <= ICSK_CA_PRIV_SIZE);

static inline struct rdcc_int_priv *rdcc_int_priv(struct sock *sk)
{
	return inet_csk_ca(sk);
}

/* ---- applying a decision ------------------------------------------------------------------ */

/* As rdcc_glue.c's rdcc_set (ARCHITECTURE.md "Enforcement"): whole packets and the pacing rate. */
static void rdcc_int_set(struct sock *sk, const struct rdcc_enforced *e)
{
	if (!e->cwnd_pkts)
		return;
	tcp_snd_cwnd_set(tcp_sk(sk), e->cwnd_pkts);
	WRITE_ONCE(sk->sk_pacing_rate,
		   min_t(u64, e->pacing_rate_bps, READ_ONCE(sk->sk_max_pacing_rate)));
}

static void rdcc_int_mirror(struct sock *sk, const struct rdcc_decision *d)
{
	struct rdcc_int_priv *pv = rdcc_int_priv(sk);

	WRITE_ONCE(pv->cwnd_bytes_q16, d->cwnd_bytes_q16);
	WRITE_ONCE(pv->rate_bps, d->pacing_rate_bps);
	WRITE_ONCE(pv->signal, d->signal);
	WRITE_ONCE(pv->reason, d->reason);
}

static void rdcc_int_trace(struct sock *sk, const struct rdcc_decision *d, u64 rtt_ns)
{
	if (trace_decision_enabled()) {
		/* The INT laws report no fabric/endpoint split: an empty report. */
		struct rdcc_report rep = {};

		trace_decision(sk, tcp_sk(sk)->tcp_clock_cache, rtt_ns, d->signal, d->cwnd_bytes_q16,
			       d->pacing_rate_bps, READ_ONCE(sk->sk_pacing_rate), d->reason,
			       d->flags, &rep);
	}
}

/* A decision of a hook other than cong_control: enforce, mirror, trace. */
static void rdcc_int_apply(struct sock *sk, const struct rdcc_decision *d)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct rdcc_enforced e;

	rdcc_rs_enforce(d, tp->mss_cache, rdcc_srtt_us(tp), tp->snd_cwnd_clamp, &e);
	rdcc_int_set(sk, &e);
	rdcc_int_mirror(sk, d);
	rdcc_int_trace(sk, d, 0);
}

/* ---- tcp_congestion_ops hooks ------------------------------------------------------------- */

static void rdcc_int_init(struct sock *sk)
{
	struct rdcc_int_priv *pv = rdcc_int_priv(sk);
	struct tcp_sock *tp = tcp_sk(sk);
	struct rdcc_decision d = {};
	struct rdcc_int_blk *b;
	const void *p;

	/*
	 * The area is zero here (tcp_assign_congestion_control and tcp_reinit_congestion_control
	 * clear it, tcp_disconnect releases and clears it), except in a child that kept its
	 * listener's copy (a CA set with setsockopt): a listener's area holds no block, since init
	 * runs only in synchronized states. Overwritten, never freed here.
	 */
	memset(pv, 0, sizeof(*pv));
	b = kzalloc(sizeof(*b) + rdcc_rs_flow_size(), GFP_ATOMIC | __GFP_NOWARN);
	if (!b) {
		rdcc_int_inc(RDCC_INT_C_ALLOC_FAIL);
		pv->nomem = 1;
		return;		/* Reno (rdcc_int_cong_control) */
	}
	b->sk = sk;
	spin_lock_init(&b->lock);
	if (rhashtable_lookup_insert_fast(&rdcc_int_blocks, &b->node, rdcc_int_ht_params)) {
		kfree(b);
		rdcc_int_inc(RDCC_INT_C_HASH_FAIL);
		pv->nomem = 1;
		return;
	}
	rdcc_int_inc(RDCC_INT_C_BLOCKS);
	pv->blk = b;
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH; /* no slow start: the law owns the window */
	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
	rcu_read_lock();
	p = rcu_dereference(rdcc_params_cur);
	if (p) {
		spin_lock_bh(&b->lock);
		rdcc_rs_int_init(p, b->flow, tcp_clock_ns(), tp->mss_cache, &d);
		spin_unlock_bh(&b->lock);
		rdcc_int_apply(sk, &d);
	}
	rcu_read_unlock();
}

static void rdcc_int_release(struct sock *sk)
{
	struct rdcc_int_priv *pv = rdcc_int_priv(sk);
	struct rdcc_int_blk *b = pv->blk;

	/* Only this socket's own block (a clone's copied pointer would name another's). */
	if (!b || b->sk != sk)
		return;
	pv->blk = NULL;
	rhashtable_remove_fast(&rdcc_int_blocks, &b->node, rdcc_int_ht_params);
	kfree_rcu(b, rcu);	/* after every hook that may have found it */
	rdcc_int_inc(RDCC_INT_C_FREED);
}

static void rdcc_int_cong_control(struct sock *sk, u32 ack, int flag,
				  const struct rate_sample *rs)
{
	struct rdcc_int_blk *b = rdcc_int_priv(sk)->blk;
	struct tcp_sock *tp = tcp_sk(sk);
	/* Written whole by rdcc_rs_int_on_ack before any read (as in rdcc_glue.c). */
	struct rdcc_ack_out out __uninitialized;
	u32 prior_cwnd = tcp_snd_cwnd(tp), taken;
	struct rdcc_int_seg id;
	struct rdcc_ack_in in;
	const void *p;

	if (unlikely(!b)) {
		/*
		 * No block: before init (an active open's SYN-ACK is acknowledged in
		 * tcp_rcv_synsent_state_process before tcp_finish_connect runs init), or init found
		 * no memory. Reno (the kernel does not call cong_avoid when cong_control is set).
		 */
		rdcc_int_inc(rdcc_int_priv(sk)->nomem ? RDCC_INT_C_FALLBACK_ACKS : RDCC_INT_C_EARLY_ACKS);
		tcp_reno_cong_avoid(sk, ack, rs->acked_sacked);
		return;
	}
	rdcc_fill_ack_in(sk, rs, &in);
	/* The segment TCP just accepted: tcp_ack set snd_wl1 to its sequence number when it
	 * advanced snd_una, and rx_opt holds its timestamp. */
	id.ack_seq = ack;
	id.seq = tp->snd_wl1;
	id.has_ts = tp->rx_opt.saw_tstamp;
	id.tsval = tp->rx_opt.saw_tstamp ? tp->rx_opt.rcv_tsval : 0;
	rcu_read_lock();
	p = rcu_dereference(rdcc_params_cur);
	if (p) {
		spin_lock_bh(&b->lock);
		taken = rdcc_rs_int_on_ack(p, b->flow, &in, &id,
					   !!(flag & RDCC_FLAG_SND_UNA_ADVANCED), &out);
		spin_unlock_bh(&b->lock);
		rdcc_int_inc(RDCC_INT_C_TAKEN + taken);
		rdcc_int_set(sk, &out.e);
		/* After an RTO, grow as the kernel's loss recovery would, never above the law's
		 * window (rdcc_glue.c rdcc_ack_full_with). */
		if (inet_csk(sk)->icsk_ca_state == TCP_CA_Loss)
			tcp_snd_cwnd_set(tp, min_t(u32, tcp_snd_cwnd(tp),
						   max_t(u32, prior_cwnd + rs->acked_sacked, 1)));
		rdcc_int_mirror(sk, &out.d);
		rdcc_int_trace(sk, &out.d, in.ev.rtt_ns);
	}
	rcu_read_unlock();
}

static void rdcc_int_loss(struct sock *sk, u32 kind)
{
	struct rdcc_int_blk *b = rdcc_int_priv(sk)->blk;
	struct rdcc_loss_event ev = {
		.now_ns = tcp_clock_ns(),
		.mss_bytes = tcp_sk(sk)->mss_cache,
		.kind = kind,
	};
	struct rdcc_decision d = {};
	u32 kernel_cwnd = tcp_snd_cwnd(tcp_sk(sk));
	const void *p;

	if (!b)
		return;
	rcu_read_lock();
	p = rcu_dereference(rdcc_params_cur);
	if (p) {
		spin_lock_bh(&b->lock);
		rdcc_rs_int_on_loss(p, b->flow, &ev, &d);
		spin_unlock_bh(&b->lock);
		rdcc_int_apply(sk, &d);
		/* RTO: keep the window tcp_enter_loss set (as rdcc_glue.c rdcc_loss). */
		if (kind == RDCC_LOSS_RTO && tcp_snd_cwnd(tcp_sk(sk)) > kernel_cwnd)
			tcp_snd_cwnd_set(tcp_sk(sk), kernel_cwnd);
	}
	rcu_read_unlock();
}

static void rdcc_int_set_state(struct sock *sk, u8 new_state)
{
	if (new_state == TCP_CA_Recovery)
		rdcc_int_loss(sk, RDCC_LOSS_FAST_RECOVERY);
	else if (new_state == TCP_CA_Loss && rdcc_is_rto(sk))
		rdcc_int_loss(sk, RDCC_LOSS_RTO);
}

/* The law owns the window (as BBR); without a block, Reno's. */
static u32 rdcc_int_ssthresh(struct sock *sk)
{
	if (!rdcc_int_priv(sk)->blk)
		return tcp_reno_ssthresh(sk);
	return tcp_sk(sk)->snd_ssthresh;
}

static u32 rdcc_int_undo_cwnd(struct sock *sk)
{
	struct rdcc_int_blk *b = rdcc_int_priv(sk)->blk;
	struct tcp_sock *tp = tcp_sk(sk);
	struct rdcc_decision d = {};
	const void *p;

	if (!b)
		return tcp_reno_undo_cwnd(sk);
	rcu_read_lock();
	p = rcu_dereference(rdcc_params_cur);
	if (p) {
		spin_lock_bh(&b->lock);
		rdcc_rs_int_current(p, b->flow, tp->mss_cache, &d);
		spin_unlock_bh(&b->lock);
		rdcc_int_apply(sk, &d);
	}
	rcu_read_unlock();
	return tcp_snd_cwnd(tp);
}

#define RDCC_EXT(a) (1U << ((a) - 1))

/*
 * The law's view in BBR's layout (as rdcc_glue.c's, ARCHITECTURE.md "Live sockets"): bw = the
 * law's rate, min_rtt = its signal, pacing_gain = reason << 8, cwnd_gain = window in packets Q8.
 * Answered to TCP_CC_INFO and to the rdcc tool (VEGASINFO without INET_DIAG_INFO); not to
 * `ss -ti`. From the mirror only (see the top of this file).
 */
static size_t rdcc_int_get_info(struct sock *sk, u32 ext, int *attr, union tcp_cc_info *info)
{
	const struct rdcc_int_priv *pv = rdcc_int_priv(sk);
	u64 mss = max_t(u32, READ_ONCE(tcp_sk(sk)->mss_cache), 1);
	u64 rate = READ_ONCE(pv->rate_bps);

	if (!(ext & RDCC_EXT(INET_DIAG_VEGASINFO)))
		return 0;
	if (ext != ~0U && (ext & RDCC_EXT(INET_DIAG_INFO)))
		return 0;	/* ss -ti */
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)rate;
	info->bbr.bbr_bw_hi = (u32)(rate >> 32);
	info->bbr.bbr_min_rtt = rdcc_rs_int_signal(READ_ONCE(pv->signal));
	info->bbr.bbr_pacing_gain = READ_ONCE(pv->reason) << 8;
	info->bbr.bbr_cwnd_gain = (u32)min_t(u64, div64_u64(READ_ONCE(pv->cwnd_bytes_q16), mss) >> 8,
					     U32_MAX);
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

static struct tcp_congestion_ops rdcc_int_ops __read_mostly = {
	.init = rdcc_int_init,
	.release = rdcc_int_release,
	.cong_control = rdcc_int_cong_control,
	.set_state = rdcc_int_set_state,
	.ssthresh = rdcc_int_ssthresh,
	.undo_cwnd = rdcc_int_undo_cwnd,
	.get_info = rdcc_int_get_info,
	.owner = THIS_MODULE,
	.name = RDCC_NAME,
};

/* ---- the echo hook ------------------------------------------------------------------------ */

/*
 * One ACK for a socket of this CA: its options to the socket's intake.
 *
 * __flatten: the header reads and the table lookup are inlined here with the table's parameters
 * as constants. Left to itself, a kernel built for size (the qemu profile) calls
 * skb_header_pointer and rhashtable_lookup out of line, with the parameters copied to the stack
 * and no longer constant, so that the lookup hashes through ht->p.hashfn (an indirect call to
 * jhash2) and compares through the function pointer. The same code, without the calls.
 */
static __flatten void rdcc_int_rx(struct sk_buff *skb, unsigned int thoff, struct sock *sk)
{
	u8 buf[60] __uninitialized;	/* only read where skb_header_pointer copied */
	const struct tcp_sock *tp = tcp_sk(sk);
	const struct tcphdr *th;
	struct rdcc_int_blk *b;
	unsigned int thlen;
	u32 outcome;

	if (!sk_fullsock(sk) || sk->sk_protocol != IPPROTO_TCP ||
	    READ_ONCE(inet_csk(sk)->icsk_ca_ops) != &rdcc_int_ops)
		return;
	if (!((1 << READ_ONCE(sk->sk_state)) & RDCC_NF_STATES)) {
		rdcc_int_inc(RDCC_INT_C_SKIP_STATE);
		return;
	}
	if (rdcc_nf_signed(sk)) {
		rdcc_int_inc(RDCC_INT_C_SKIP_AUTH);
		return;
	}
	th = skb_header_pointer(skb, thoff, sizeof(struct tcphdr), buf);
	if (!th || th->doff < 5) {
		rdcc_int_inc(RDCC_INT_C_BAD_HDR);
		return;
	}
	if (!th->ack)
		return;
	thlen = th->doff * 4;	/* at most 60 = sizeof(buf) */
	th = skb_header_pointer(skb, thoff, thlen, buf);
	if (!th) {
		rdcc_int_inc(RDCC_INT_C_BAD_HDR);
		return;
	}
	/* Under the hook's rcu_read_lock (nf_hook): a block found is freed only after it. */
	b = rhashtable_lookup(&rdcc_int_blocks, &sk, rdcc_int_ht_params);
	if (!b) {
		rdcc_int_inc(RDCC_INT_C_NO_BLOCK);
		return;
	}
	spin_lock(&b->lock);	/* softirq; the hooks take it with _bh */
	/* snd_una, snd_nxt: racy reads (exact at take time, where the identity is checked). */
	outcome = rdcc_rs_int_rx(b->flow, (const u8 *)th + sizeof(struct tcphdr),
				 thlen - sizeof(struct tcphdr), ntohl(th->ack_seq), ntohl(th->seq),
				 READ_ONCE(tp->snd_una), READ_ONCE(tp->snd_nxt));
	spin_unlock(&b->lock);
	rdcc_int_inc(RDCC_INT_C_RX + outcome);
}

static unsigned int rdcc_int_hook(void *priv, struct sk_buff *skb,
				  const struct nf_hook_state *state)
{
	struct sock *sk;
	bool ref = false;
	int off;

	off = rdcc_nf_tcp_off(skb, state->pf);
	if (off < 0)
		return NF_ACCEPT;
	sk = skb->sk;	/* set by early demux for established sockets */
	if (!sk) {
		sk = rdcc_nf_lookup(skb, off, state);	/* referenced */
		if (!sk)
			return NF_ACCEPT;
		ref = true;
	}
	rdcc_int_rx(skb, off, sk);
	if (ref)
		sock_gen_put(sk);
	return NF_ACCEPT;
}

static const struct nf_hook_ops rdcc_int_nf_ops[] = {
	{ .hook = rdcc_int_hook, .pf = NFPROTO_IPV4, .hooknum = NF_INET_LOCAL_IN,
	  .priority = NF_IP_PRI_FIRST },
#if IS_ENABLED(CONFIG_IPV6)
	{ .hook = rdcc_int_hook, .pf = NFPROTO_IPV6, .hooknum = NF_INET_LOCAL_IN,
	  .priority = NF_IP6_PRI_FIRST },
#endif
};

static int __net_init rdcc_int_net_init(struct net *net)
{
	return nf_register_net_hooks(net, rdcc_int_nf_ops, ARRAY_SIZE(rdcc_int_nf_ops));
}

/* No new hook calls after this; the netns core then waits for an RCU grace period before .exit
 * (and module unload returns), so no hook still runs this module's code (rdcc_rqd.c). */
static void __net_exit rdcc_int_net_pre_exit(struct net *net)
{
	nf_unregister_net_hooks(net, rdcc_int_nf_ops, ARRAY_SIZE(rdcc_int_nf_ops));
}

static void __net_exit rdcc_int_net_exit(struct net *net)
{
}

static struct pernet_operations rdcc_int_net_ops = {
	.init = rdcc_int_net_init,
	.pre_exit = rdcc_int_net_pre_exit,
	.exit = rdcc_int_net_exit,
};

/* ---- registration, called from the Rust module's init/exit -------------------------------- */

int rdcc_c_register(void);
void rdcc_c_unregister(void);

int rdcc_c_register(void)
{
	int err;

	BUILD_BUG_ON(sizeof(RDCC_NAME) > TCP_CA_NAME_MAX);
	err = rdcc_configure();
	if (err)
		return err;
	err = rhashtable_init(&rdcc_int_blocks, &rdcc_int_ht_params);
	if (err)
		goto out_params;
	err = register_pernet_subsys(&rdcc_int_net_ops);
	if (err) {
		pr_err("%s: echo hook: %d\n", RDCC_NAME, err);
		goto out_ht;
	}
	err = tcp_register_congestion_control(&rdcc_int_ops);
	if (err) {
		pr_err("%s: tcp_register_congestion_control: %d\n", RDCC_NAME, err);
		goto out_net;
	}
	return 0;
out_net:
	unregister_pernet_subsys(&rdcc_int_net_ops);
out_ht:
	rhashtable_destroy(&rdcc_int_blocks);
out_params:
	rdcc_params_free();
	return err;
}

void rdcc_c_unregister(void)
{
	/* No socket uses the CA (each holds a module reference), so no block is left. */
	tcp_unregister_congestion_control(&rdcc_int_ops);
	unregister_pernet_subsys(&rdcc_int_net_ops);
	rhashtable_destroy(&rdcc_int_blocks);
	rdcc_params_free();
}
