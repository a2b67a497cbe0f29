// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdcc_glue.c - the C half of every rdcc congestion-control module.
 *
 * Not compiled on its own: each module's <name>_glue.c defines
 *   RDCC_NAME         the CA name as a string ("swift"), at most 15 characters
 *   RDCC_TRACE_SYSTEM the trace system identifier (tcp_swift)
 *   RDCC_PARAMS(P)    an X-macro list P(name, "description", unit, "range") of the law's
 *                     parameters (unit: an RDCC_U_* macro below; sim/tests/param_desc.rs
 *                     checks both unit and range against the core)
 *   RDCC_REMOTE_DELAY (optional) the law consumes Swift's remote-delay channel: the netfilter
 *                     hook of rdcc_rqd.c is built in and fills the event's remote delay
 *   RDCC_LEASE        (optional) the law grants hold leases (core/src/lease.rs HoldLease; the
 *                     crate root invokes rdcc_glue_lease!): the ACKs a lease covers are applied
 *                     from the glue bytes (rdcc_lease.h) without calling Rust. Exclusive with
 *                     RDCC_REMOTE_DELAY, which keeps its slot in the same bytes.
 *   RDCC_LEASE_THETA  (optional; tcp_theta_powertcp) θ-PowerTCP's hold lease
 *                     (core/src/powertcp_lease.rs; the crate root invokes
 *                     rdcc_glue_theta_lease!): the fast path (rdcc_lease_theta.h) steps the
 *                     law's own state on a hold and applies the lease from the glue bytes; a
 *                     due ACK runs the once-per-RTT update in C (rdcc_theta_update) or, when
 *                     its premises fail, a narrow Rust entry (the two places where C looks
 *                     inside a law's state). Exclusive with RDCC_LEASE and RDCC_REMOTE_DELAY.
 *   RDCC_LEASE_VAISF  (optional; tcp_swift_vaisf) Swift VAI SF's steady-decrease lease
 *                     (core/src/vaisf_lease.rs; the crate root invokes rdcc_glue_vaisf_lease!):
 *                     an ACK in the regime the lease describes has its bookkeeping done in C
 *                     in the law's own state (rdcc_lease_vaisf.h) and gets one packet at the
 *                     law's rate; any other the full path. Exclusive with the others.
 *   RDCC_LEASE_SWIFT  (optional; tcp_swift, with RDCC_REMOTE_DELAY) Swift's increase lease
 *                     (core/src/swift_lease.rs; the crate root invokes rdcc_glue_swift_lease!):
 *                     an ACK without a remote delay that the lease shows to be an additive
 *                     increase or a guarded hold is done in C in the law's own state
 *                     (rdcc_lease_swift.h); any other the full path. The terms live in the
 *                     law's state and the generation in the last 4 glue bytes, which the
 *                     remote-delay slot leaves alone.
 * and then includes this file, so one source serves every module.
 *
 * This part does only what Rust cannot do on Linux 6.12: the tcp_congestion_ops table and its
 * hooks (static inlines and struct fields of tcp_sock/rate_sample), pacing through
 * sk_pacing_rate, module parameters and their RCU publication, and the trace event. Every
 * decision comes from the Rust core through the ABI in rdcc_abi.h: one call per ACK, or none for
 * an ACK a hold lease covers (RDCC_LEASE: the output of the law's last call, which the law proved
 * this ACK would not change; RDCC_LEASE_THETA: the same output, and the two state fields a hold
 * changes stepped in C exactly as the law steps them, rdcc_lease_theta.h; RDCC_LEASE_VAISF: the
 * window the law provably keeps, its bookkeeping done in C as the law does it), with one
 * exception:
 * θ-PowerTCP's once-per-RTT update on a due ACK, which rdcc_theta_update computes in C for the
 * common case, bit for bit as the law's on_due (KUnit rdcc_glue_theta_update).
 *
 * No test code lives here: the KUnit suites are the separate test module rdcc_kunit.ko
 * (modules/kunit/), built only for kernels with CONFIG_KUNIT.
 */
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/inet_diag.h>
#include <linux/math64.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <net/tcp.h>

#include "rdcc_abi.h"
#include "rdcc_event.h" /* struct rdcc_ack_in, rdcc_srtt_us, rdcc_fill_ack_in */
#ifndef CONFIG_64BIT
/* The top-level Kbuild refuses such a kernel first; this covers a build that bypasses it. */
#error "rdcc needs a 64-bit kernel: rdcc_snapshot's READ_ONCE of a u64 must be one load"
#endif
#ifdef RDCC_LEASE
#ifdef RDCC_REMOTE_DELAY
#error "RDCC_LEASE and RDCC_REMOTE_DELAY share the glue bytes of icsk_ca_priv"
#endif
#include "rdcc_lease.h" /* rdcc_lease_take */
#endif
#ifdef RDCC_LEASE_THETA
#if defined(RDCC_LEASE) || defined(RDCC_REMOTE_DELAY)
#error "RDCC_LEASE_THETA shares the glue bytes with RDCC_LEASE and RDCC_REMOTE_DELAY"
#endif
#include "rdcc_lease_theta.h" /* rdcc_theta_take */
#endif
#ifdef RDCC_LEASE_VAISF
#if defined(RDCC_LEASE) || defined(RDCC_LEASE_THETA) || defined(RDCC_REMOTE_DELAY)
#error "RDCC_LEASE_VAISF shares the glue bytes with the other leases and RDCC_REMOTE_DELAY"
#endif
#include "rdcc_lease_vaisf.h" /* rdcc_vaisf_take */
#endif
#ifdef RDCC_LEASE_SWIFT
#if defined(RDCC_LEASE) || defined(RDCC_LEASE_THETA) || defined(RDCC_LEASE_VAISF) || \
	!defined(RDCC_REMOTE_DELAY)
#error "RDCC_LEASE_SWIFT is tcp_swift's: with RDCC_REMOTE_DELAY, without the other leases"
#endif
#include "rdcc_lease_swift.h" /* rdcc_swift_take */
#endif
/* Any kind of lease: the parameter generation and the out-of-line full path. */
#if defined(RDCC_LEASE) || defined(RDCC_LEASE_THETA) || defined(RDCC_LEASE_VAISF) || \
	defined(RDCC_LEASE_SWIFT)
#define RDCC_HAS_LEASE
#endif

struct rdcc_rqd_entry;	/* rdcc_rqd_entry.h, with RDCC_REMOTE_DELAY */

/* ---- per-socket state in icsk_ca_priv ------------------------------------------------------ */

struct rdcc_priv {
	/* The core's State (Rust), valid when all-zero; the kernel zeroes icsk_ca_priv on assign. */
	u64 core[RDCC_CORE_STATE_BYTES / sizeof(u64)];
	/* Reserved for the glue: the remote-delay slot of Swift's option channel
	 * (RDCC_REMOTE_DELAY) or a hold lease (RDCC_LEASE, RDCC_LEASE_THETA); all-zero = empty /
	 * no lease. */
	u64 glue[(ICSK_CA_PRIV_SIZE - RDCC_CORE_STATE_BYTES) / sizeof(u64)];
};
static_assert(sizeof(struct rdcc_priv) <= ICSK_CA_PRIV_SIZE);
static_assert(RDCC_CORE_STATE_BYTES % sizeof(u64) == 0);
#ifdef RDCC_LEASE
/* The lease fills the glue bytes (Rust asserts the same: core/src/lease.rs, glue.rs). */
static_assert(sizeof(struct rdcc_lease) <= sizeof(((struct rdcc_priv *)0)->glue));
static_assert(__alignof__(struct rdcc_lease) <= __alignof__(u64));
#endif
#ifdef RDCC_LEASE_THETA
/* The lease fills the glue bytes, the law's state the core bytes (Rust asserts the same:
 * core/src/powertcp_lease.rs, glue.rs rdcc_glue_theta_lease!). */
static_assert(sizeof(struct rdcc_theta_lease) <= sizeof(((struct rdcc_priv *)0)->glue));
static_assert(__alignof__(struct rdcc_theta_lease) <= __alignof__(u64));
static_assert(sizeof(struct rdcc_theta_state) <= RDCC_CORE_STATE_BYTES);
static_assert(__alignof__(struct rdcc_theta_state) <= __alignof__(u64));
#endif
#ifdef RDCC_LEASE_VAISF
/* Likewise (core/src/vaisf_lease.rs, glue.rs rdcc_glue_vaisf_lease!). */
static_assert(sizeof(struct rdcc_vaisf_lease) <= sizeof(((struct rdcc_priv *)0)->glue));
static_assert(__alignof__(struct rdcc_vaisf_lease) <= __alignof__(u64));
static_assert(sizeof(struct rdcc_vaisf_state) <= RDCC_CORE_STATE_BYTES);
static_assert(__alignof__(struct rdcc_vaisf_state) <= __alignof__(u64));
#endif
#ifdef RDCC_LEASE_SWIFT
/* The law's state fills the core bytes (core/src/swift_lease.rs, glue.rs
 * rdcc_glue_swift_lease!); the lease's generation is the last u32 of the glue bytes, past the
 * remote-delay slot (rdcc_rqd.c asserts that the slot ends before it). */
static_assert(sizeof(struct rdcc_swift_state) <= RDCC_CORE_STATE_BYTES);
static_assert(__alignof__(struct rdcc_swift_state) <= __alignof__(u64));
#define RDCC_SWIFT_GEN_OFF (sizeof(((struct rdcc_priv *)0)->glue) - sizeof(u32))
#endif
#ifdef RDCC_REMOTE_DELAY
#include "rdcc_rqd_entry.h" /* struct rdcc_rqd_entry */

/* The remote-delay slot: one entry in the glue bytes (rdcc_rqd.c). */
static_assert(sizeof(struct rdcc_rqd_entry) <= sizeof(((struct rdcc_priv *)0)->glue));
#ifdef RDCC_LEASE_SWIFT
/* The increase lease's generation is the glue bytes' last u32: the slot must end before it. */
static_assert(sizeof(struct rdcc_rqd_entry) <= RDCC_SWIFT_GEN_OFF);
#endif

static inline struct rdcc_rqd_entry *rdcc_rqd_slot_of(struct sock *sk)
{
	return (struct rdcc_rqd_entry *)((struct rdcc_priv *)inet_csk_ca(sk))->glue;
}
#endif

/* ---- the Rust side (modules/glue/glue.rs) -------------------------------------------------- */

#include "rdcc_rs_common.h" /* struct rdcc_param, struct rdcc_ack_out, parameters, enforce */

struct rdcc_info {
	u64 rate_bps;		/* pacing rate the law set, or 0 */
	u32 signal_us;		/* the law's signal in a µs-like unit (see the law's docs) */
	u32 reason;
	u64 cwnd_pkts_q8;	/* window in packets, 8 fractional bits */
};

/* `p`: the published parameter block (rdcc_rs_common.h). */
void rdcc_rs_init(const void *p, void *st, u64 now_ns, u32 mss, struct rdcc_decision *d);

void rdcc_rs_on_ack(const void *p, void *st, const struct rdcc_ack_in *in,
		    struct rdcc_ack_out *out);
void rdcc_rs_on_loss(const void *p, void *st, const struct rdcc_loss_event *ev,
		     struct rdcc_decision *d);
void rdcc_rs_on_idle(const void *p, void *st, u64 now_ns, u32 mss, struct rdcc_decision *d);
void rdcc_rs_on_undo(const void *p, void *st, u32 mss, struct rdcc_decision *d);
void rdcc_rs_info(const void *p, const void *st, u32 mss, struct rdcc_info *info);
void rdcc_rs_report(const void *p, const void *st, struct rdcc_report *rep);
u32 rdcc_rs_state_size(void);
#ifdef RDCC_LEASE
/* rdcc_glue_lease! (glue.rs): the full per-ACK call of a leased module (folds what the fast
 * path absorbed, decides, enforces, grants the next lease), and the fold-and-clear before the
 * other hooks run the law. */
void rdcc_rs_on_ack_lease(const void *p, void *st, const struct rdcc_ack_in *in,
			  struct rdcc_ack_out *out, struct rdcc_lease *lease, u32 gen);
void rdcc_rs_lease_retire(void *st, struct rdcc_lease *lease);
#endif
#ifdef RDCC_LEASE_THETA
/* rdcc_glue_theta_lease! (glue.rs): the full per-ACK call of tcp_theta_powertcp (decides,
 * enforces, grants the next lease), and the due path's update (powertcp::on_due). */
void rdcc_rs_on_ack_theta(const void *p, void *st, const struct rdcc_ack_in *in,
			  struct rdcc_ack_out *out, struct rdcc_theta_lease *lease, u32 gen);
void rdcc_rs_theta_due(const void *p, void *st, const struct rdcc_theta_due_in *in,
		       struct rdcc_ack_out *out, struct rdcc_theta_lease *lease, u32 gen);
#endif
#ifdef RDCC_LEASE_VAISF
/* rdcc_glue_vaisf_lease! (glue.rs): the full per-ACK call of tcp_swift_vaisf (decides,
 * enforces, grants the next lease). */
void rdcc_rs_on_ack_vaisf(const void *p, void *st, const struct rdcc_ack_in *in,
			  struct rdcc_ack_out *out, struct rdcc_vaisf_lease *lease, u32 gen);
#endif
#ifdef RDCC_LEASE_SWIFT
/* rdcc_glue_swift_lease! (glue.rs): the full per-ACK call of tcp_swift (ends the lease,
 * decides, enforces, grants the next lease in the state). */
void rdcc_rs_on_ack_swift(const void *p, void *st, const struct rdcc_ack_in *in,
			  struct rdcc_ack_out *out);
#endif

/* ---- trace event --------------------------------------------------------------------------- */

#define CREATE_TRACE_POINTS
#include "rdcc_trace.h"

/* ---- module parameters --------------------------------------------------------------------- */

#include "rdcc_params.h"

/* ---- helpers ------------------------------------------------------------------------------- */

static inline void *rdcc_state(struct sock *sk)
{
	return ((struct rdcc_priv *)inet_csk_ca(sk))->core;
}

#ifdef RDCC_LEASE
static inline struct rdcc_lease *rdcc_lease(struct sock *sk)
{
	return (struct rdcc_lease *)((struct rdcc_priv *)inet_csk_ca(sk))->glue;
}
#endif

#ifdef RDCC_LEASE_THETA
static inline struct rdcc_theta_lease *rdcc_theta_lease(struct sock *sk)
{
	return (struct rdcc_theta_lease *)((struct rdcc_priv *)inet_csk_ca(sk))->glue;
}

/* The law's state as the fast path sees it (rdcc_abi.h; the same bytes as rdcc_state()). */
static inline struct rdcc_theta_state *rdcc_theta_state(struct sock *sk)
{
	return (struct rdcc_theta_state *)((struct rdcc_priv *)inet_csk_ca(sk))->core;
}
#endif

#ifdef RDCC_LEASE_VAISF
static inline struct rdcc_vaisf_lease *rdcc_vaisf_lease(struct sock *sk)
{
	return (struct rdcc_vaisf_lease *)((struct rdcc_priv *)inet_csk_ca(sk))->glue;
}

static inline struct rdcc_vaisf_state *rdcc_vaisf_state(struct sock *sk)
{
	return (struct rdcc_vaisf_state *)((struct rdcc_priv *)inet_csk_ca(sk))->core;
}
#endif

#ifdef RDCC_LEASE_SWIFT
/* The law's state as the fast path sees it (rdcc_abi.h; the same bytes as rdcc_state()). */
static inline struct rdcc_swift_state *rdcc_swift_state(struct sock *sk)
{
	return (struct rdcc_swift_state *)((struct rdcc_priv *)inet_csk_ca(sk))->core;
}

/* The generation of the lease in the state: the last 4 glue bytes (0 = none after init). */
static inline u32 *rdcc_swift_gen(struct sock *sk)
{
	return (u32 *)((u8 *)((struct rdcc_priv *)inet_csk_ca(sk))->glue + RDCC_SWIFT_GEN_OFF);
}
#endif

/*
 * Before a hook other than cong_control runs the law (loss, idle restart, undo): fold the bytes
 * the fast path absorbed into the state and clear the lease (the law's state changes, and with
 * it what the next ACKs get). A lease with gen 0 is none and has absorbed nothing. init needs no
 * fold: it clears the glue bytes and replaces the state. θ-PowerTCP's and VAI/SF's leases have
 * nothing to fold (their fast paths step the state itself): the retire is one store.
 */
static __always_inline void rdcc_lease_retire(struct sock *sk)
{
#if defined(RDCC_LEASE)
	if (rdcc_lease(sk)->gen)
		rdcc_rs_lease_retire(rdcc_state(sk), rdcc_lease(sk));
#elif defined(RDCC_LEASE_THETA)
	rdcc_theta_lease(sk)->gen = 0;
#elif defined(RDCC_LEASE_VAISF)
	rdcc_vaisf_lease(sk)->gen = 0;
#elif defined(RDCC_LEASE_SWIFT)
	rdcc_swift_end(rdcc_swift_state(sk));
#endif
}

#ifdef RDCC_REMOTE_DELAY
/* rdcc_rqd.c, included after the ops table */
static void rdcc_rqd_take(struct sock *sk, u32 ack, int flag, struct rdcc_ack_event *ev);
#ifdef RDCC_LEASE_SWIFT
static __always_inline bool rdcc_rqd_slot_quiet(struct sock *sk);
static __always_inline bool rdcc_rqd_side_quiet(struct sock *sk);
#endif
static __always_inline void rdcc_rqd_count_ack(u32 acked);
static void rdcc_rqd_account(const struct rdcc_decision *d);
static int rdcc_rqd_register(void);
static void rdcc_rqd_unregister(void);
#endif

/*
 * What get_info answers (ARCHITECTURE.md, "Live sockets"). inet_diag passes the request's
 * idiag_ext byte; getsockopt(TCP_CC_INFO) passes ~0U.
 * - `ss -ti` always asks INET_DIAG_INFO with VEGASINFO: answered per ss_info, by default not at
 *   all, so ss shows the CA name and tcp_info but no borrowed record that reads as another
 *   algorithm. ss_info=1: the fabric/endpoint split in DCTCP's layout, printed by ss as
 *     dctcp:(ce_state:<flags>,alpha:<fabric ns>,ab_ecn:<endpoint ns>,ab_tot:<hops>);
 *   ss_info=2: the law's view in BBR's layout (bw = law's rate, mrtt = signal, pacing_gain =
 *   reason << 8, cwnd_gain = window in packets Q8).
 * - The `rdcc` tool asks without INET_DIAG_INFO: VEGASINFO|CONG = the law's view (BBR layout),
 *   VEGASINFO|CONG|SHUTDOWN = the split view (DCTCP layout); ss never sends these.
 * - TCP_CC_INFO (ext = ~0U): the law's view.
 */
#define RDCC_SS_NONE	0
#define RDCC_SS_SPLIT	1
#define RDCC_SS_LAW	2
static unsigned int ss_info;

static int rdcc_ss_info_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int err = kstrtouint(val, 0, &v);

	if (err || v > RDCC_SS_LAW) {
		pr_err("%s: ss_info=%s refused: 0 (none), 1 (split) or 2 (law); keeping %u\n",
		       RDCC_NAME, val, READ_ONCE(ss_info));
		return -EINVAL;
	}
	WRITE_ONCE(ss_info, v);
	return 0;
}

static const struct kernel_param_ops rdcc_ss_info_ops = {
	.set = rdcc_ss_info_set,
	.get = param_get_uint,
};
module_param_cb(ss_info, &rdcc_ss_info_ops, &ss_info, 0644);
MODULE_PARM_DESC(ss_info, "what ss -ti shows: 0 = nothing (default), 1 = fabric/endpoint split "
		 "(dctcp:...), 2 = the law's view (bbr:...); range 0-2");

/*
 * Enforce a decision (ARCHITECTURE.md "Enforcement"; the arithmetic is core's
 * Decision::enforce, host-tested, shared with the simulator): the window in whole packets (at
 * least 1, at most snd_cwnd_clamp) and the pacing rate. A window below 2 packets that is not a
 * whole number of packets gets ceil(W / mss) packets paced at W / srtt (never above the law's
 * own rate): 1.84 packets must not send one packet per RTT while 0.99 sends 0.99. A law that
 * does not pace (rate 0) is ACK-clocked, and gets the kernel's own default of 2 * cwnd / srtt
 * (tcp_update_pacing_rate in slow start), which does not bind but keeps TSO autosizing (bursts
 * of ~1 ms of that rate) in place. Leaving the rate unlimited instead makes 64 KB TSO bursts,
 * 5 ms of serialization at 100 Mbit/s, and small flows' packets queue behind them: in the VM
 * four Swift flows then fell to Jain 0.38 (0.99 with this pacing).
 * The per-ACK path gets its enforcement from the same Rust call as the decision
 * (rdcc_rs_on_ack); the other hooks ask rdcc_rs_enforce.
 */
static __always_inline void rdcc_set(struct sock *sk, const struct rdcc_enforced *e)
{
	if (!e->cwnd_pkts)
		return; /* the law has no state yet: leave the kernel's window */
	tcp_snd_cwnd_set(tcp_sk(sk), e->cwnd_pkts);
	WRITE_ONCE(sk->sk_pacing_rate,
		   min_t(u64, e->pacing_rate_bps, READ_ONCE(sk->sk_max_pacing_rate)));
}

static void rdcc_apply(struct sock *sk, const struct rdcc_decision *d)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	struct rdcc_enforced e;		/* written by rdcc_rs_enforce through its pointer */

	rdcc_rs_enforce(d, tp->mss_cache, rdcc_srtt_us(tp), tp->snd_cwnd_clamp, &e);
	rdcc_set(sk, &e);
}

static __always_inline void rdcc_trace(const void *p, struct sock *sk, const struct rdcc_decision *d,
				       u64 rtt_ns)
{
	if (trace_decision_enabled()) {
		struct rdcc_report rep = {};

		/* Called from the hooks, under the socket lock: no writer of the state runs. */
		rdcc_rs_report(p, rdcc_state(sk), &rep);
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
	const void *p;

	/* A child inherits the listener's whole icsk_ca_priv (sk_clone): start the glue area empty
	 * (no remote-delay entry, no lease). */
	memset(((struct rdcc_priv *)inet_csk_ca(sk))->glue, 0,
	       sizeof(((struct rdcc_priv *)inet_csk_ca(sk))->glue));
	rcu_read_lock();
	p = rcu_dereference(rdcc_params_cur);
	if (p)
		rdcc_rs_init(p, rdcc_state(sk), tcp_clock_ns(), tp->mss_cache, &d);
	tp->snd_ssthresh = TCP_INFINITE_SSTHRESH; /* no slow start: the law owns the window */
	/* Internal pacing unless fq paces for us (as BBR does). */
	cmpxchg(&sk->sk_pacing_status, SK_PACING_NONE, SK_PACING_NEEDED);
	rdcc_apply(sk, &d);
	if (p)
		rdcc_trace(p, sk, &d, 0);
	rcu_read_unlock();
}

/*
 * The per-ACK path that calls the law: every ACK, or with a lease every ACK no lease covers.
 * With the remote delay, `found` says whether the caller already looked for the ACK's entry
 * (then `e` is the entry it found, or NULL); else the entry is taken here.
 */
static __always_inline void rdcc_ack_full_with(struct sock *sk, u32 ack, int flag,
					       const struct rate_sample *rs, bool found,
					       const struct rdcc_rqd_entry *e)
{
	struct tcp_sock *tp = tcp_sk(sk);
	/* Written whole by rdcc_rs_on_ack before any read: not zeroed first (the kernel's
	 * INIT_STACK_ALL_ZERO would store 48 bytes per ACK for nothing). Rust sees it as an
	 * AckOut of two MaybeUninit fields (glue.rs), so no Rust reference to it claims values. */
	struct rdcc_ack_out out __uninitialized;
	u32 prior_cwnd = tcp_snd_cwnd(tp);
	const void *p;
	struct rdcc_ack_in in;
	struct rdcc_ack_event *ev = &in.ev;
#if defined(RDCC_HAS_LEASE) && !defined(RDCC_LEASE_SWIFT)
	/* Before the parameter pointer: see rdcc_params_gen. (Swift's lease takes the
	 * generation of the block itself.) */
	u32 gen = smp_load_acquire(&rdcc_params_gen);
#endif

	rdcc_fill_ack_in(sk, rs, &in);
#ifdef RDCC_REMOTE_DELAY
	/* The receiver's remote delay, hop count and this ACK's local Rx delay, for this ACK only */
	if (!found)
		rdcc_rqd_take(sk, ack, flag, ev);
	else if (e)
		rdcc_rqd_fill(e, ev);
#endif

	rcu_read_lock();
	p = rcu_dereference(rdcc_params_cur);
	if (p) {
#if defined(RDCC_LEASE)
		/* Folds what the fast path absorbed, runs the law, grants the next lease. */
		rdcc_rs_on_ack_lease(p, rdcc_state(sk), &in, &out, rdcc_lease(sk), gen);
#elif defined(RDCC_LEASE_THETA)
		/* Runs the law, grants the next lease (none in Recovery or Loss). */
		rdcc_rs_on_ack_theta(p, rdcc_state(sk), &in, &out, rdcc_theta_lease(sk), gen);
#elif defined(RDCC_LEASE_VAISF)
		/* Runs the law, grants the next lease (none in Recovery or Loss). */
		rdcc_rs_on_ack_vaisf(p, rdcc_state(sk), &in, &out, rdcc_vaisf_lease(sk), gen);
#elif defined(RDCC_LEASE_SWIFT)
		/* Ends the lease, runs the law, grants the next one in the state (none in Recovery
		 * or Loss); the generation of this block goes beside the slot. */
		rdcc_rs_on_ack_swift(p, rdcc_state(sk), &in, &out);
		*rdcc_swift_gen(sk) = rdcc_params_block_gen(p);
#else
		rdcc_rs_on_ack(p, rdcc_state(sk), &in, &out);
#endif
#ifdef RDCC_REMOTE_DELAY
		rdcc_rqd_account(&out.d);
#endif
		rdcc_set(sk, &out.e);
		/* After an RTO (TCP_CA_Loss) the window grows as the kernel's loss recovery would
		 * (slow start from the one segment tcp_enter_loss left: each ACK releases what it
		 * acknowledged plus as much again), never above the law's: no burst of a window. */
		if (inet_csk(sk)->icsk_ca_state == TCP_CA_Loss)
			tcp_snd_cwnd_set(tp, min_t(u32, tcp_snd_cwnd(tp),
						   max_t(u32, prior_cwnd + rs->acked_sacked, 1)));
		rdcc_trace(p, sk, &out.d, ev->rtt_ns);
	}
	rcu_read_unlock();
}

static __always_inline void rdcc_ack_full(struct sock *sk, u32 ack, int flag,
					  const struct rate_sample *rs)
{
	rdcc_ack_full_with(sk, ack, flag, rs, false, NULL);
}

/* cong_control, with or without a lease */
#include "rdcc_cong.h"

static void rdcc_loss(struct sock *sk, u32 kind)
{
	struct rdcc_loss_event ev = {
		.now_ns = tcp_clock_ns(),
		.mss_bytes = tcp_sk(sk)->mss_cache,
		.kind = kind,
	};
	struct rdcc_decision d = {};
	u32 kernel_cwnd = tcp_snd_cwnd(tcp_sk(sk));
	const void *p;

	rdcc_lease_retire(sk);
	rcu_read_lock();
	p = rcu_dereference(rdcc_params_cur);
	if (p) {
		rdcc_rs_on_loss(p, rdcc_state(sk), &ev, &d);
		rdcc_apply(sk, &d);
		/* RTO: tcp_enter_loss set the window to packets in flight + 1 just before; keep it
		 * (the law's state and pacing rate take the loss, the window does not jump to the
		 * law's). */
		if (kind == RDCC_LOSS_RTO && tcp_snd_cwnd(tcp_sk(sk)) > kernel_cwnd)
			tcp_snd_cwnd_set(tcp_sk(sk), kernel_cwnd);
		rdcc_trace(p, sk, &d, 0);
	}
	rcu_read_unlock();
}

#include "rdcc_rto.h" /* rdcc_is_rto */

static void rdcc_set_state(struct sock *sk, u8 new_state)
{
#ifdef RDCC_LEASE_THETA
	/*
	 * No θ lease lives in Recovery or Loss, so its fast path needs no CA-state test and its due
	 * path no Loss-state window rule. tcp_set_ca_state (net/ipv4/tcp_cong.c, 6.12) is the one
	 * writer of icsk_ca_state and calls set_state first; a new socket or clone starts in Open
	 * and rdcc_init clears the glue bytes. The full path grants no lease while in Recovery or
	 * Loss (RDCC_ACK_IN_RECOVERY). This also ends it on the Loss of a PMTU drop, which calls
	 * no law.
	 */
	if (new_state >= TCP_CA_Recovery)
		rdcc_theta_lease(sk)->gen = 0;
#elif defined(RDCC_LEASE_VAISF)
	/* The same for VAI/SF's lease (rdcc_vaisf_take has no CA-state test either). */
	if (new_state >= TCP_CA_Recovery)
		rdcc_vaisf_lease(sk)->gen = 0;
#elif defined(RDCC_LEASE_SWIFT)
	/* The same for Swift's (rdcc_swift_take has no CA-state test either). */
	if (new_state >= TCP_CA_Recovery)
		rdcc_lease_retire(sk);
#endif
	if (new_state == TCP_CA_Recovery)
		rdcc_loss(sk, RDCC_LOSS_FAST_RECOVERY);
	else if (new_state == TCP_CA_Loss && rdcc_is_rto(sk))
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
	const void *p;

	if (ev != CA_EVENT_TX_START && ev != CA_EVENT_CWND_RESTART)
		return;
	/*
	 * Only an idle sender restarts. TX_START also fires for the retransmission an RTO sends
	 * (tcp_timeout_mark_lost leaves nothing in flight), after a silence as long as the RTO:
	 * read as an idle restart, it installed the law's window over the kernel's loss window,
	 * the burst rdcc_rto.sh caught (window 5 at the first ACK after an outage, not 1-2).
	 */
	if (inet_csk(sk)->icsk_ca_state != TCP_CA_Open)
		return;
	if (ev == CA_EVENT_TX_START &&
	    (s32)(tcp_jiffies32 - tp->lsndtime) <= (s32)inet_csk(sk)->icsk_rto)
		return;
	rdcc_lease_retire(sk);	/* after the returns above: no law call, the lease stays */
	rcu_read_lock();
	p = rcu_dereference(rdcc_params_cur);
	if (p) {
		rdcc_rs_on_idle(p, rdcc_state(sk), tcp_clock_ns(), tp->mss_cache, &d);
		rdcc_apply(sk, &d);
		rdcc_trace(p, sk, &d, 0);
	}
	rcu_read_unlock();
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
	const void *p;

	rdcc_lease_retire(sk);
	rcu_read_lock();
	p = rcu_dereference(rdcc_params_cur);
	if (p) {
		rdcc_rs_on_undo(p, rdcc_state(sk), tp->mss_cache, &d);
		rdcc_apply(sk, &d);
		rdcc_trace(p, sk, &d, 0);
	}
	rcu_read_unlock();
	return tcp_snd_cwnd(tp);
}

/*
 * A private copy of the law's state for the lockless readers. get_info runs from inet_diag and
 * TCP_CC_INFO without the socket lock, while cong_control may be writing the state on another
 * CPU (Rust's plain stores, or the lease fast paths' WRITE_ONCEs). Each u64 is read with
 * READ_ONCE (one load: the modules build only for 64-bit kernels, see the top-level Kbuild), so
 * the copy may mix two versions word by word, or hold values a writer stored only for a moment.
 * Worse, inet_diag reads icsk_ca_ops without the socket lock too: a concurrent
 * tcp_reinit_congestion_control can hand this function an area the next algorithm already
 * initialised, so the copy may be another algorithm's bytes altogether. It is safe because every
 * module's State is integers only, so any 72 bytes are a valid State: the core's
 * any_bit_pattern! checks each law's fields at compile time and glue.rs requires the result
 * (event::AnyBitPattern) of every law it is built for. The values may then be meaningless; the
 * Rust side computes a view from them without panicking and never forms a reference to the live
 * area.
 */
struct rdcc_snapshot {
	u64 core[RDCC_CORE_STATE_BYTES / sizeof(u64)];
};

static void rdcc_snapshot(const struct sock *sk, struct rdcc_snapshot *s)
{
	const struct rdcc_priv *priv = inet_csk_ca(sk);
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(s->core); i++)
		s->core[i] = READ_ONCE(priv->core[i]);
}

static size_t rdcc_info_law(const void *p, const struct rdcc_snapshot *s, u32 mss,
			    int *attr, union tcp_cc_info *info)
{
	struct rdcc_info ri = {};

	rdcc_rs_info(p, s->core, mss, &ri);
	memset(&info->bbr, 0, sizeof(info->bbr));
	info->bbr.bbr_bw_lo = (u32)ri.rate_bps;
	info->bbr.bbr_bw_hi = (u32)(ri.rate_bps >> 32);
	info->bbr.bbr_min_rtt = ri.signal_us;
	info->bbr.bbr_pacing_gain = ri.reason << 8;
	info->bbr.bbr_cwnd_gain = (u32)min_t(u64, ri.cwnd_pkts_q8, U32_MAX);
	*attr = INET_DIAG_BBRINFO;
	return sizeof(info->bbr);
}

static size_t rdcc_info_split(const void *p, const struct rdcc_snapshot *s, int *attr,
			      union tcp_cc_info *info)
{
	struct rdcc_report rep = {};

	rdcc_rs_report(p, s->core, &rep);
	memset(&info->dctcp, 0, sizeof(info->dctcp));
	info->dctcp.dctcp_enabled = 1;
	info->dctcp.dctcp_ce_state = (u16)rep.flags;
	info->dctcp.dctcp_alpha = (u32)min_t(u64, rep.fabric_delay_ns, U32_MAX);
	info->dctcp.dctcp_ab_ecn = (u32)min_t(u64, rep.endpoint_delay_ns, U32_MAX);
	info->dctcp.dctcp_ab_tot = rep.hops;
	*attr = INET_DIAG_DCTCPINFO;
	return sizeof(info->dctcp);
}

#define RDCC_EXT(a) (1U << ((a) - 1))

static size_t rdcc_get_info(struct sock *sk, u32 ext, int *attr, union tcp_cc_info *info)
{
	struct rdcc_snapshot s;
	unsigned int view;
	const void *p;
	size_t sz = 0;

	if (!(ext & RDCC_EXT(INET_DIAG_VEGASINFO)))
		return 0;
	if (ext == ~0U)
		view = RDCC_SS_LAW;			/* getsockopt(TCP_CC_INFO) */
	else if (ext & RDCC_EXT(INET_DIAG_INFO))
		view = READ_ONCE(ss_info);		/* ss -ti */
	else if (ext & RDCC_EXT(INET_DIAG_SHUTDOWN))
		view = RDCC_SS_SPLIT;			/* rdcc tool, split view */
	else
		view = RDCC_SS_LAW;			/* rdcc tool, law view */
	if (view == RDCC_SS_NONE)
		return 0;
	rdcc_snapshot(sk, &s);
	/* inet_diag and TCP_CC_INFO (do_tcp_getsockopt, 6.12 tcp.c) both call us under
	 * rcu_read_lock; the nested one keeps the params' dereference self-evidently covered. */
	rcu_read_lock();
	p = rcu_dereference(rdcc_params_cur);
	if (p)
		sz = view == RDCC_SS_SPLIT ? rdcc_info_split(p, &s, attr, info)
					   : rdcc_info_law(p, &s, READ_ONCE(tcp_sk(sk)->mss_cache),
							   attr, info);
	rcu_read_unlock();
	return sz;
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

/* Called from the Rust side (modules/glue/glue.rs). */
int rdcc_c_register(void);
void rdcc_c_unregister(void);

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
	err = rdcc_configure();
	if (err)
		return err;
#ifdef RDCC_REMOTE_DELAY
	err = rdcc_rqd_register();
	if (err) {
		pr_err("%s: remote-delay hook: %d\n", RDCC_NAME, err);
		rdcc_params_free();
		return err;
	}
#endif
	err = tcp_register_congestion_control(&rdcc_ops);
	if (err) {
		pr_err("%s: tcp_register_congestion_control: %d\n", RDCC_NAME, err);
#ifdef RDCC_REMOTE_DELAY
		rdcc_rqd_unregister();
#endif
		rdcc_params_free();
	}
	return err;
}

void rdcc_c_unregister(void)
{
	/* After this no new socket can select the CA; sockets still using it hold a module
	 * reference, so unload cannot get here while one exists. */
	tcp_unregister_congestion_control(&rdcc_ops);
#ifdef RDCC_REMOTE_DELAY
	rdcc_rqd_unregister();
#endif
	rdcc_params_free();
}
