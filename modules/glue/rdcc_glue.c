// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdcc_glue.c - the C half of every rdcc congestion-control module.
 *
 * Not compiled on its own: each module's <name>_glue.c defines
 *   RDCC_NAME         the CA name as a string ("swift"), at most 15 characters
 *   RDCC_TRACE_SYSTEM the trace system identifier (tcp_swift)
 *   RDCC_PARAMS(P)    an X-macro list P(name, "description") of the law's parameters
 *   RDCC_REMOTE_DELAY (optional) the law consumes Swift's remote-delay channel: the netfilter
 *                     hook of rdcc_rqd.c is built in and fills the event's remote delay
 * and then includes this file, so one source serves every module.
 *
 * This part does only what Rust cannot do on Linux 6.12: the tcp_congestion_ops table and its
 * hooks (static inlines and struct fields of tcp_sock/rate_sample), pacing through
 * sk_pacing_rate, module parameters, the trace event and KUnit suite registration. Every
 * decision comes from the Rust core through the ABI in rdcc_abi.h: one call per ACK.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/inet_diag.h>
#include <linux/math64.h>
#include <net/tcp.h>
#include <kunit/test.h>

#include "rdcc_abi.h"

/* ---- per-socket state in icsk_ca_priv ------------------------------------------------------ */

struct rdcc_priv {
	/* The core's State (Rust), valid when all-zero; the kernel zeroes icsk_ca_priv on assign. */
	u64 core[RDCC_CORE_STATE_BYTES / sizeof(u64)];
	/* Reserved for the glue: the remote-delay ring of Swift's option channel. */
	u64 glue[(ICSK_CA_PRIV_SIZE - RDCC_CORE_STATE_BYTES) / sizeof(u64)];
};
static_assert(sizeof(struct rdcc_priv) <= ICSK_CA_PRIV_SIZE);
static_assert(RDCC_CORE_STATE_BYTES % sizeof(u64) == 0);

/* ---- the Rust side (modules/glue/glue.rs) -------------------------------------------------- */

struct rdcc_param {
	const char *name;
	unsigned long *value;	/* ULONG_MAX = not given: the law's default */
};

struct rdcc_info {
	u64 rate_bps;		/* pacing rate the law set, or 0 */
	u32 signal_us;		/* the law's signal in a µs-like unit (see the law's docs) */
	u32 reason;
	u64 cwnd_pkts_q8;	/* window in packets, 8 fractional bits */
};

struct rdcc_kunit_report {
	u32 cases;		/* cases passed */
	u32 failed_case;	/* index of the first failing case, or U32_MAX */
	u32 failed_step;
	u64 got_cwnd_q16, want_cwnd_q16, got_rate, want_rate;
	u32 got_reason, want_reason;
	char name[48];
};

int rdcc_rs_configure(const struct rdcc_param *params, u32 n);
void rdcc_rs_init(void *st, u64 now_ns, u32 mss, struct rdcc_decision *d);
void rdcc_rs_on_ack(void *st, const struct rdcc_ack_event *ev, struct rdcc_decision *d);
void rdcc_rs_on_loss(void *st, const struct rdcc_loss_event *ev, struct rdcc_decision *d);
void rdcc_rs_on_idle(void *st, u64 now_ns, u32 mss, struct rdcc_decision *d);
void rdcc_rs_on_undo(void *st, u32 mss, struct rdcc_decision *d);
void rdcc_rs_info(const void *st, u32 mss, struct rdcc_info *info);
void rdcc_rs_report(const void *st, struct rdcc_report *rep);
int rdcc_rs_kunit_vectors(struct rdcc_kunit_report *r);
int rdcc_rs_kunit_bounds(u64 seed, u32 steps, char *msg, u32 msg_len);
u32 rdcc_rs_state_size(void);

/* ---- trace event --------------------------------------------------------------------------- */

#define CREATE_TRACE_POINTS
#include "rdcc_trace.h"

/* ---- module parameters --------------------------------------------------------------------- */

#define RDCC_PARAM_VAR(name, desc) static unsigned long rdcc_p_##name = ULONG_MAX;
RDCC_PARAMS(RDCC_PARAM_VAR)

#define RDCC_PARAM_DECL(name, desc)                                                      \
	module_param_named(name, rdcc_p_##name, ulong, 0444);                            \
	MODULE_PARM_DESC(name, desc " (default: the paper's value, shown here after load)");
RDCC_PARAMS(RDCC_PARAM_DECL)

#define RDCC_PARAM_ENTRY(name, desc) { #name, &rdcc_p_##name },
static const struct rdcc_param rdcc_params[] = { RDCC_PARAMS(RDCC_PARAM_ENTRY) };

/* ---- helpers ------------------------------------------------------------------------------- */

static inline void *rdcc_state(struct sock *sk)
{
	return ((struct rdcc_priv *)inet_csk_ca(sk))->core;
}

#ifdef RDCC_REMOTE_DELAY
/* rdcc_rqd.c, included after the ops table */
static void rdcc_rqd_take(struct sock *sk, u32 ack, int flag, struct rdcc_ack_event *ev);
static void rdcc_rqd_account(const struct rdcc_decision *d);
static int rdcc_rqd_register(void);
static void rdcc_rqd_unregister(void);
#endif

/*
 * ss -ti layout: 0 = the law's view in BBR's layout (see rdcc_get_info), 1 = the fabric/endpoint
 * split in DCTCP's layout, which ss prints as plain integers:
 *   dctcp:(ce_state:<flags>,alpha:<fabric delay ns>,ab_ecn:<endpoint delay ns>,ab_tot:<hops>)
 * with flags bit 0 = the endpoint window binds, bit 1 = the latest ACK carried a remote delay,
 * bit 4 = an endpoint-delay estimate exists.
 */
static unsigned int ss_info;
module_param(ss_info, uint, 0644);
MODULE_PARM_DESC(ss_info, "ss -ti layout: 0 = law (bbr:...), 1 = fabric/endpoint split (dctcp:...)");

/*
 * Enforce a decision: the window in whole packets (at least 1, at most snd_cwnd_clamp; a
 * fraction below one packet is carried by the pacing rate) and the pacing rate. A law that does
 * not pace (rate 0) is ACK-clocked, and gets the kernel's own default of 2 * cwnd / srtt
 * (tcp_update_pacing_rate in slow start), which does not bind but keeps TSO autosizing (bursts
 * of ~1 ms of that rate) in place. Leaving the rate unlimited instead makes 64 KB TSO bursts,
 * 5 ms of serialization at 100 Mbit/s, and small flows' packets queue behind them: in the VM
 * four Swift flows then fell to Jain 0.38 (0.99 with this pacing).
 */
static void rdcc_apply(struct sock *sk, const struct rdcc_decision *d)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u32 mss = max_t(u32, tp->mss_cache, 1);
	u64 pkts, rate;

	if (!d->cwnd_bytes_q16)
		return; /* the law has no state yet: leave the kernel's window */
	pkts = div_u64(d->cwnd_bytes_q16 >> 16, mss);
	pkts = clamp_t(u64, pkts, 1, max_t(u32, tp->snd_cwnd_clamp, 1));
	tcp_snd_cwnd_set(tp, (u32)pkts);

	rate = d->pacing_rate_bps;
	if (!rate) {
		u32 srtt_us = tp->srtt_us >> 3;

		/* 2 * pkts * mss < 2^49; the 128-bit intermediate of mul_u64_u32_div holds the rest. */
		rate = srtt_us ? mul_u64_u32_div(2ULL * pkts * mss, USEC_PER_SEC, srtt_us) : ~0ULL;
	}
	WRITE_ONCE(sk->sk_pacing_rate, min_t(u64, rate, READ_ONCE(sk->sk_max_pacing_rate)));
}

static void rdcc_trace(struct sock *sk, const struct rdcc_decision *d, u64 rtt_ns)
{
	if (trace_decision_enabled()) {
		struct rdcc_report rep = {};

		rdcc_rs_report(rdcc_state(sk), &rep);
		trace_decision(sk, tcp_sk(sk)->tcp_clock_cache, rtt_ns, d->signal, d->cwnd_bytes_q16,
			       d->pacing_rate_bps, READ_ONCE(sk->sk_pacing_rate), d->reason,
			       d->flags, &rep);
	}
}

/* ---- tcp_congestion_ops hooks -------------------------------------------------------------- */

static void rdcc_init(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct rdcc_decision d = {};

	/* A child inherits the listener's whole icsk_ca_priv (sk_clone): start the glue area empty. */
	memset(((struct rdcc_priv *)inet_csk_ca(sk))->glue, 0,
	       sizeof(((struct rdcc_priv *)inet_csk_ca(sk))->glue));
	rdcc_rs_init(rdcc_state(sk), tcp_clock_ns(), tp->mss_cache, &d);
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH; /* no slow start: the law owns the window */
	/* Internal pacing unless fq paces for us (as BBR does). */
	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
	rdcc_apply(sk, &d);
	rdcc_trace(sk, &d, 0);
}

static void rdcc_cong_control(struct sock *sk, u32 ack, int flag, const struct rate_sample *rs)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct rdcc_decision d = {};
	u32 mss = tp->mss_cache;
	u32 prior_cwnd = tcp_snd_cwnd(tp);
	struct rdcc_ack_event ev = {
		.now_ns = tp->tcp_clock_cache,
		.delivered_bytes = (u64)tp->delivered * mss,
		.acked_bytes = (u32)min_t(u64, (u64)rs->acked_sacked * mss, U32_MAX),
		.inflight_bytes = (u32)min_t(u64, (u64)tcp_packets_in_flight(tp) * mss, U32_MAX),
		.mss_bytes = mss,
		.snd_una = tp->snd_una,
		.snd_nxt = tp->snd_nxt,
	};

	/* rs->rtt_us: µs RTT of the most recently sent newly (s)acked skb, -1 when none (Karn). */
	if (rs->rtt_us > 0) {
		ev.rtt_ns = (u64)rs->rtt_us * NSEC_PER_USEC;
		ev.flags |= RDCC_ACK_HAS_RTT;
	}
	if (rs->is_app_limited)
		ev.flags |= RDCC_ACK_APP_LIMITED;
	if (rs->is_ack_delayed)
		ev.flags |= RDCC_ACK_DELAYED;
	if (rs->delivered_ce > 0)
		ev.flags |= RDCC_ACK_ECE;
	if (inet_csk(sk)->icsk_ca_state >= TCP_CA_Recovery)
		ev.flags |= RDCC_ACK_IN_RECOVERY;
#ifdef RDCC_REMOTE_DELAY
	/* The receiver's remote delay, hop count and this ACK's local Rx delay, for this ACK only */
	rdcc_rqd_take(sk, ack, flag, &ev);
#endif

	rdcc_rs_on_ack(rdcc_state(sk), &ev, &d);
#ifdef RDCC_REMOTE_DELAY
	rdcc_rqd_account(&d);
#endif
	rdcc_apply(sk, &d);
	/* After an RTO (TCP_CA_Loss) the window grows as the kernel's loss recovery would (slow
	 * start from the one segment tcp_enter_loss left: each ACK releases what it acknowledged
	 * plus as much again), never above the law's window: no burst of a full window. */
	if (inet_csk(sk)->icsk_ca_state == TCP_CA_Loss)
		tcp_snd_cwnd_set(tp, min_t(u32, tcp_snd_cwnd(tp),
					   max_t(u32, prior_cwnd + rs->acked_sacked, 1)));
	rdcc_trace(sk, &d, ev.rtt_ns);
}

static void rdcc_loss(struct sock *sk, u32 kind)
{
	struct rdcc_loss_event ev = {
		.now_ns = tcp_clock_ns(),
		.mss_bytes = tcp_sk(sk)->mss_cache,
		.kind = kind,
	};
	struct rdcc_decision d = {};
	u32 kernel_cwnd = tcp_snd_cwnd(tcp_sk(sk));

	rdcc_rs_on_loss(rdcc_state(sk), &ev, &d);
	rdcc_apply(sk, &d);
	/* RTO: tcp_enter_loss set the window to packets in flight + 1 just before; keep it (the
	 * law's state and pacing rate take the loss, the window does not jump to the law's). */
	if (kind == RDCC_LOSS_RTO && tcp_snd_cwnd(tcp_sk(sk)) > kernel_cwnd)
		tcp_snd_cwnd_set(tcp_sk(sk), kernel_cwnd);
	rdcc_trace(sk, &d, 0);
}

/*
 * set_state runs on every CA state change. TCP_CA_Loss comes from an RTO (tcp_enter_loss) or
 * from a loss that is not congestion: a PMTU drop (tcp_simple_retransmit) or a Fast Open
 * SYN-ACK, both via tcp_non_congestion_loss_retransmit, which sets high_seq = snd_nxt,
 * prior_ssthresh = 0 and undo_marker = 0 just before and leaves the window alone ("units
 * changed"). tcp_enter_loss instead sets the window to packets in flight + 1 before, and
 * high_seq only after, the state change. Only an RTO is a loss event for the law.
 */
static void rdcc_set_state(struct sock *sk, u8 new_state)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	if (new_state == TCP_CA_Recovery)
		rdcc_loss(sk, RDCC_LOSS_FAST_RECOVERY);
	else if (new_state == TCP_CA_Loss &&
		 !(tp->high_seq == tp->snd_nxt && !tp->prior_ssthresh && !tp->undo_marker &&
		   tcp_snd_cwnd(tp) != tcp_packets_in_flight(tp) + 1))
		rdcc_loss(sk, RDCC_LOSS_RTO);
}

/*
 * With cong_control set, the kernel never sends CA_EVENT_CWND_RESTART
 * (tcp_slow_start_after_idle_check returns early), so idle is detected here: TX_START fires when
 * data is sent with nothing in flight, before lsndtime is updated; an idle period longer than the
 * RTO is an idle restart.
 */
static void rdcc_cwnd_event(struct sock *sk, enum tcp_ca_event ev)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct rdcc_decision d = {};

	if (ev != CA_EVENT_TX_START && ev != CA_EVENT_CWND_RESTART)
		return;
	if (ev == CA_EVENT_TX_START &&
	    (s32)(tcp_jiffies32 - tp->lsndtime) <= (s32)inet_csk(sk)->icsk_rto)
		return;
	rdcc_rs_on_idle(rdcc_state(sk), tcp_clock_ns(), tp->mss_cache, &d);
	rdcc_apply(sk, &d);
	rdcc_trace(sk, &d, 0);
}

/* The law owns the window; keep the kernel's ssthresh out of the way (as BBR does). */
static u32 rdcc_ssthresh(struct sock *sk)
{
	return tcp_sk(sk)->snd_ssthresh;
}

static u32 rdcc_undo_cwnd(struct sock *sk)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct rdcc_decision d = {};

	rdcc_rs_on_undo(rdcc_state(sk), tp->mss_cache, &d);
	rdcc_apply(sk, &d);
	rdcc_trace(sk, &d, 0);
	return tcp_snd_cwnd(tp);
}

/*
 * ss -ti: reuse the BBR info layout (INET_DIAG_BBRINFO), which ss prints as
 * "bbr:(bw:…,mrtt:…,pacing_gain:…,cwnd_gain:…)". Mapping (ARCHITECTURE.md):
 * bw = the law's pacing rate, mrtt = the law's signal in µs units, pacing_gain = reason,
 * cwnd_gain = the exact window in packets (ss divides by 256, so fractions below one show).
 */
static size_t rdcc_get_info(struct sock *sk, u32 ext, int *attr, union tcp_cc_info *info)
{
	struct rdcc_info ri = {};

	if (!(ext & (1 << (INET_DIAG_BBRINFO - 1))) && !(ext & (1 << (INET_DIAG_VEGASINFO - 1))))
		return 0;
	if (READ_ONCE(ss_info) == 1) {
		struct rdcc_report rep = {};

		rdcc_rs_report(rdcc_state(sk), &rep);
		memset(&info->dctcp, 0, sizeof(info->dctcp));
		info->dctcp.dctcp_enabled = 1;
		info->dctcp.dctcp_ce_state = (u16)rep.flags;
		info->dctcp.dctcp_alpha = (u32)min_t(u64, rep.fabric_delay_ns, U32_MAX);
		info->dctcp.dctcp_ab_ecn = (u32)min_t(u64, rep.endpoint_delay_ns, U32_MAX);
		info->dctcp.dctcp_ab_tot = rep.hops;
		*attr = INET_DIAG_DCTCPINFO;
		return sizeof(info->dctcp);
	}
	rdcc_rs_info(rdcc_state(sk), tcp_sk(sk)->mss_cache, &ri);
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)ri.rate_bps;
	info->bbr.bbr_bw_hi = (u32)(ri.rate_bps >> 32);
	info->bbr.bbr_min_rtt = ri.signal_us;
	info->bbr.bbr_pacing_gain = ri.reason << 8;
	info->bbr.bbr_cwnd_gain = (u32)min_t(u64, ri.cwnd_pkts_q8, U32_MAX);
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

static struct tcp_congestion_ops rdcc_ops __read_mostly = {
	.init = rdcc_init,
	.cong_control = rdcc_cong_control,
	.set_state = rdcc_set_state,
	.cwnd_event = rdcc_cwnd_event,
	.ssthresh = rdcc_ssthresh,
	.undo_cwnd = rdcc_undo_cwnd,
	.get_info = rdcc_get_info,
	.owner = THIS_MODULE,
	.name = RDCC_NAME,
};

#ifdef RDCC_REMOTE_DELAY
#include "rdcc_rqd.c"
#endif

/* ---- registration, called from the Rust module's init/exit --------------------------------- */

int rdcc_c_register(void)
{
	int err;

	BUILD_BUG_ON(sizeof(struct rdcc_priv) > ICSK_CA_PRIV_SIZE);
	BUILD_BUG_ON(sizeof(RDCC_NAME) > TCP_CA_NAME_MAX);
	if (rdcc_rs_state_size() > RDCC_CORE_STATE_BYTES) {
		pr_err("%s: core state of %u bytes exceeds its %u-byte budget\n", RDCC_NAME,
		       rdcc_rs_state_size(), RDCC_CORE_STATE_BYTES);
		return -EINVAL;
	}
	err = rdcc_rs_configure(rdcc_params, ARRAY_SIZE(rdcc_params));
	if (err)
		return err;
#ifdef RDCC_REMOTE_DELAY
	err = rdcc_rqd_register();
	if (err) {
		pr_err("%s: remote-delay hook: %d\n", RDCC_NAME, err);
		return err;
	}
#endif
	err = tcp_register_congestion_control(&rdcc_ops);
	if (err) {
		pr_err("%s: tcp_register_congestion_control: %d\n", RDCC_NAME, err);
#ifdef RDCC_REMOTE_DELAY
		rdcc_rqd_unregister();
#endif
	}
	return err;
}

void rdcc_c_unregister(void)
{
	tcp_unregister_congestion_control(&rdcc_ops);
#ifdef RDCC_REMOTE_DELAY
	rdcc_rqd_unregister();
#endif
}

/* ---- KUnit: the core's shared test tables and a bounds check, inside the kernel ------------ */

static void rdcc_kunit_vectors(struct kunit *test)
{
	struct rdcc_kunit_report r = { .failed_case = U32_MAX };
	int err = rdcc_rs_kunit_vectors(&r);

	KUNIT_EXPECT_EQ_MSG(test, err, 0,
			    "case %u '%s' step %u: cwnd_q16 %llu (want %llu), rate %llu (want %llu), reason %u (want %u)",
			    r.failed_case, r.name, r.failed_step, r.got_cwnd_q16, r.want_cwnd_q16,
			    r.got_rate, r.want_rate, r.got_reason, r.want_reason);
	KUNIT_EXPECT_GT_MSG(test, r.cases, 0U, "no vector cases ran");
	kunit_info(test, "%u vector cases passed\n", r.cases);
}

static void rdcc_kunit_bounds(struct kunit *test)
{
	char msg[128] = "";
	u64 seed;

	for (seed = 1; seed <= 16; seed++) {
		int err = rdcc_rs_kunit_bounds(seed, 2000, msg, sizeof(msg));

		KUNIT_ASSERT_EQ_MSG(test, err, 0, "seed %llu: %s", seed, msg);
	}
}

static struct kunit_case rdcc_kunit_cases[] = {
	KUNIT_CASE(rdcc_kunit_vectors),
	KUNIT_CASE(rdcc_kunit_bounds),
	{}
};

static struct kunit_suite rdcc_kunit_suite = {
	.name = "rdcc_" RDCC_NAME,
	.test_cases = rdcc_kunit_cases,
};
kunit_test_suite(rdcc_kunit_suite);
