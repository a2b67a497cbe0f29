/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_abi.h - the one C/Rust boundary of the rdcc modules.
 *
 * These records mirror core/src/event.rs, core/src/lease.rs, core/src/powertcp.rs (State and
 * Params), core/src/powertcp_lease.rs, core/src/vaisf.rs (State) and core/src/vaisf_lease.rs
 * (#[repr(C)]), and the RDCC_ABI_EQ lines tie the
 * constants the C computes with to the Rust's. The C compiler
 * checks the layout below against the numbers in the RDCC_ABI_* lines; core/tests/abi_offsets.rs
 * checks that those numbers are the Rust layout (cargo test fails when either side changes
 * alone). The Rust side of each module also asserts the sizes at compile time
 * (modules/glue/glue.rs).
 */
#ifndef _RDCC_ABI_H
#define _RDCC_ABI_H

#include <linux/types.h>
#include <linux/stddef.h>
#include <linux/build_bug.h>

/* struct rdcc_ack_event.flags (event.rs ACK_*) */
#define RDCC_ACK_HAS_RTT		(1U << 0)
#define RDCC_ACK_HAS_REMOTE_DELAY	(1U << 1)
#define RDCC_ACK_HAS_HOPS		(1U << 2)
#define RDCC_ACK_ECE			(1U << 3)
#define RDCC_ACK_APP_LIMITED		(1U << 4)
#define RDCC_ACK_DELAYED		(1U << 5)
#define RDCC_ACK_IN_RECOVERY		(1U << 6)
#define RDCC_ACK_HAS_TELEMETRY		(1U << 7)
#define RDCC_ACK_HAS_LOCAL_RX		(1U << 8)

/* struct rdcc_decision.flags and struct rdcc_report.flags (event.rs DEC_*, REP_*) */
#define RDCC_DEC_ENDPOINT_BINDS		(1U << 0)
#define RDCC_DEC_REMOTE_USED		(1U << 1)
#define RDCC_DEC_REMOTE_CLAMPED		(1U << 2)
#define RDCC_DEC_ENDPOINT_EXPIRED	(1U << 3)
#define RDCC_REP_HAS_ENDPOINT		(1U << 4)

/* struct rdcc_loss_event.kind (event.rs LossKind) */
#define RDCC_LOSS_FAST_RECOVERY		1U
#define RDCC_LOSS_RTO			2U

/* Bytes of icsk_ca_priv the core's per-flow state may use (event.rs CORE_STATE_BUDGET). */
#define RDCC_CORE_STATE_BYTES		72

struct rdcc_ack_event {
	u64 now_ns;
	u64 rtt_ns;
	u64 remote_delay_ns;
	u64 delivered_bytes;
	u32 acked_bytes;
	u32 inflight_bytes;
	u32 mss_bytes;
	u32 snd_una;
	u32 snd_nxt;
	u32 flags;
	u8 hops;
	u8 _pad[3];
	u32 local_rx_delay_ns;
	u64 telemetry;
};

struct rdcc_loss_event {
	u64 now_ns;
	u32 mss_bytes;
	u32 kind;
};

struct rdcc_decision {
	u64 cwnd_bytes_q16;	/* window, bytes << 16 */
	u64 pacing_rate_bps;	/* bytes per second, 0 = not paced by the law */
	s64 signal;		/* the law's main signal (see Documentation/algorithms) */
	u32 reason;		/* event.rs Reason */
	u32 flags;		/* RDCC_DEC_* */
};

/* What the host sets for a decision (event.rs Enforced, Decision::enforce). */
struct rdcc_enforced {
	u64 pacing_rate_bps;	/* bytes per second, capped by sk_max_pacing_rate; ~0 = unlimited */
	u32 cwnd_pkts;		/* window in packets, in [1, snd_cwnd_clamp]; 0 = leave both alone */
	u32 _pad;
};

/* Per-flow details for tracing and ss (event.rs Report); zeros for laws without a split. */
struct rdcc_report {
	u64 fabric_delay_ns;
	u64 endpoint_delay_ns;	/* EWMA, valid with RDCC_REP_HAS_ENDPOINT */
	u32 hops;
	u32 flags;		/* RDCC_DEC_ENDPOINT_BINDS, RDCC_DEC_REMOTE_USED, RDCC_REP_HAS_ENDPOINT */
};

/* Result of the Rust option parser (core/src/rqd.rs Scan). */
struct rdcc_rqd_scan {
	u32 delay_ns;
	u8 outcome;		/* RDCC_RQD_* in rdcc_rqd_wire.h */
	u8 hops;
	u8 flags;		/* RDCC_RQD_SCAN_* */
	u8 source;		/* RDCC_RQD_SRC_* */
	u32 tsval;		/* TSval of the last timestamp option, valid with has_ts */
	u8 has_ts;		/* 1 = tsval valid (only with RDCC_RQD_VALID) */
};

/*
 * The hold lease (issue #13; core/src/lease.rs Lease): in the glue bytes of icsk_ca_priv of a
 * module that defines RDCC_LEASE (rdcc_glue.c), applied by rdcc_lease_take (rdcc_lease.h) to the
 * ACKs it covers. All-zero = no lease (a generation is never 0). No padding.
 */
#define RDCC_LEASE_SPAN_SHIFT		12	/* span unit: 1 << 12 = 4096 ns */
#define RDCC_LEASE_RATE_BITS		40	/* rate_pkts: rate in the low 40 bits, packets above */

struct rdcc_lease {
	u64 since_ns;		/* valid while tcp_clock_cache - since_ns < span << 12 (wrapping) */
	u64 rate_pkts;		/* pacing rate, bytes/s (low 40 bits) | floor(W / mss) packets (high 24) */
	u32 room_bytes;		/* the covered ACKs: absorbed_bytes + this ACK's bytes <= room_bytes */
	u32 absorbed_bytes;	/* bytes the fast path took since the grant; folded by the full path */
	u32 gen;		/* rdcc_params_gen at the grant; 0 = no lease */
	u16 mss;		/* tp->mss_cache at the grant */
	u16 span;		/* validity in units of 1 << RDCC_LEASE_SPAN_SHIFT ns, rounded down */
};

/*
 * θ-PowerTCP's per-flow State (core/src/powertcp.rs, #[repr(C)]), in the core bytes of
 * icsk_ca_priv of tcp_theta_powertcp. Only the hold lease's fast path (rdcc_lease_theta.h) looks
 * inside: it reads update_ns, last_ack_ns, marker_seq and rtt_smooth_ns and writes rtt_smooth_ns
 * and last_ack_ns (Alg. 2 lines 21 and 13). To every other C line the state is opaque. 68 bytes
 * of fields, 72 with the tail padding.
 */
struct rdcc_theta_state {
	u64 cwnd_q16;
	u64 prev_cwnd_q16;
	u64 power_smooth_q16;
	u64 undo_cwnd_q16;
	u64 update_ns;		/* time of the last window update, ns */
	u64 last_ack_ns;	/* t_c^prev: time of the previous RTT sample, ns */
	u32 marker_seq;		/* snd_nxt at the last window update */
	u32 prev_rtt_ns;
	u32 rtt_smooth_ns;	/* Alg. 2 line 21's average of the RTT samples, ns */
	u32 min_rtt_ns;
	u32 flags;
};

/*
 * θ-PowerTCP's hold lease (issue #13; core/src/powertcp_lease.rs ThetaLease): in the glue bytes
 * of icsk_ca_priv of a module that defines RDCC_LEASE_THETA (rdcc_glue.c), applied by
 * rdcc_theta_take (rdcc_lease_theta.h). All-zero = no lease (a generation is never 0).
 */
#define RDCC_THETA_RTT_US_MAX		4294967UL	/* largest rs->rtt_us taken: x 1000 < 2^32 */
#define RDCC_THETA_LIFE_NS		(1ULL << 32)	/* no-sample ACKs: now - update_ns <= this */

struct rdcc_theta_lease {
	u64 rate_bps;		/* the law's pacing rate, bytes/s, in (0, 2^40) */
	u32 cwnd_pkts;		/* min(floor(W / mss), clamp ?: 1), in [1, 2^24) */
	u32 gen;		/* rdcc_params_gen at the grant; 0 = no lease */
	u32 clamp;		/* tp->snd_cwnd_clamp at the grant */
	u32 tau_ns;		/* τ at the grant, in [1000, 10^9] ns */
	u16 mss;		/* tp->mss_cache at the grant */
	u16 _pad;
	u32 _spare;
};

/* What the due path hands to Rust (core/src/powertcp_lease.rs DueIn). */
struct rdcc_theta_due_in {
	u64 now_ns;		/* tp->tcp_clock_cache */
	u64 rtt_ns;		/* rs->rtt_us * 1000 */
	u32 rtt_smooth_ns;	/* Alg. 2 line 21's average with this sample, computed by the take */
	u32 snd_una;
	u32 snd_nxt;
	u32 mss;		/* tp->mss_cache */
	u32 srtt_us;		/* rdcc_srtt_us(tp) */
	u32 clamp_pkts;		/* tp->snd_cwnd_clamp */
};

/*
 * θ-PowerTCP's validated parameters (core/src/powertcp.rs Params, #[repr(C)]): read by the due
 * path in C (rdcc_theta_update, rdcc_lease_theta.h), never written by C. Params::new guarantees
 * gamma_q16 in [1, 2^16], one_minus_gamma_q16 = 2^16 - gamma_q16, base_rtt_ns in [10^3, 10^9],
 * min_cwnd_q16 <= max_cwnd_q16 <= RDCC_THETA_MAX_CWND_BYTES << 16, gamma_beta_q16 <= 2^47,
 * grad_floor_q16 <= 2^16; per_ack, min_rtt_tau and artifact_tau are 0 or 1 (a Rust bool, one
 * byte, as _Bool). artifact_tau (base_rtt_mode = 2, the authors' ns-3 θ-mode) is never read in
 * C: Params::new sets min_rtt_tau with it, and the lease and the due path refuse min_rtt_tau.
 */
struct rdcc_theta_params {
	u64 gamma_q16;		/* γ (Alg. 2 line 31), Q16 */
	u64 one_minus_gamma_q16;	/* 1 - γ, Q16 */
	u64 base_rtt_ns;	/* τ, configured */
	u64 gamma_beta_q16;	/* γ·β, bytes Q16 */
	u64 min_cwnd_q16;	/* window bounds, bytes Q16 */
	u64 max_cwnd_q16;
	u64 grad_floor_q16;	/* floor of (θ̇ + 1), Q16 */
	bool per_ack;		/* gradient_mode = per ACK */
	bool min_rtt_tau;	/* base_rtt_mode = minimum RTT */
	bool artifact_tau;	/* base_rtt_mode = the authors' ns-3 θ-mode (implies min_rtt_tau) */
	u64 beta_q16;
	u64 init_cwnd_q16;
	u64 smooth_init_q16;
	u64 loss_keep_q16;
};

/* The core's constants the due path in C computes with (core/src/fixed.rs, powertcp.rs,
 * powertcp_lease.rs); each is held to the Rust value by an RDCC_ABI_EQ line below. */
#define RDCC_Q16_SHIFT			16
#define RDCC_Q16_ONE			(1ULL << RDCC_Q16_SHIFT)
#define RDCC_MAX_RATE_BPS		(1ULL << 40)	/* fixed::MAX_RATE_BPS */
#define RDCC_THETA_POWER_MIN_Q16	655ULL		/* powertcp::POWER_MIN_Q16 (0.01) */
#define RDCC_THETA_POWER_MAX_Q16	(1ULL << 32)	/* powertcp::POWER_MAX_Q16 */
#define RDCC_THETA_GRAD_MAX_Q16		(1ULL << 32)	/* powertcp::GRAD_FACTOR_MAX_Q16 */
#define RDCC_THETA_MAX_CWND_BYTES	(1ULL << 31)	/* powertcp::MAX_CWND_BYTES */
#define RDCC_THETA_PKTS_LIMIT		(1ULL << 24)	/* a lease's window is below this */
#define RDCC_THETA_UPDATE_MAX_NS	(~0ULL - (1ULL << 33))	/* latest update_ns of a lease */
#define RDCC_THETA_FLAG_INIT		1U
#define RDCC_THETA_FLAG_HAVE_PREV	2U
#define RDCC_THETA_FLAG_SMOOTH		4U

/*
 * Swift VAI SF's per-flow State (core/src/vaisf.rs, #[repr(C)]), in the core bytes of
 * icsk_ca_priv of tcp_swift_vaisf. Only the steady-decrease lease's fast path
 * (rdcc_lease_vaisf.h) looks inside: it reads cwnd_q20 and writes the bookkeeping of a decrease
 * ACK (rtt_ns, max_delay_ns, dampener_q16, rtt_marker, ai_bank, acks_since_dec, flags).
 */
struct rdcc_vaisf_state {
	u64 cwnd_q20;		/* the window, packets Q20 */
	u64 wref_q20;		/* the reference window W_ref */
	u64 rtt_ns;		/* latest RTT sample */
	u64 t_last_decrease_ns;
	u64 max_delay_ns;	/* the RTT's largest fabric delay (SL "Measured Congestion") */
	u64 undo_cwnd_q20;
	u32 dampener_q16;	/* VAI dampener (SL Alg. 1) */
	u32 rtt_marker;		/* snd_nxt at the round's start */
	u32 mss_bytes;
	u16 ai_bank;		/* VAI AI_Bank, tokens */
	u16 acks_since_dec;	/* the SF counter */
	u8 retransmit_cnt;
	u8 hops;
	u8 flags;		/* F_INIT 1, F_MARKER 2, F_CONGESTED 4, F_UNDO_ARMED 8 */
};

/*
 * Swift VAI SF's steady-decrease lease (issue #13; core/src/vaisf_lease.rs VaisfLease): in the
 * glue bytes of a module that defines RDCC_LEASE_VAISF (rdcc_glue.c), applied by
 * rdcc_vaisf_take (rdcc_lease_vaisf.h). All-zero = no lease (a generation is never 0).
 */
#define RDCC_VAISF_RTT_US_MAX		10000000ULL	/* largest rs->rtt_us taken: x 1000 = 10 s */
#define RDCC_VAISF_F_CONGESTED		4U

struct rdcc_vaisf_lease {
	u32 gen;		/* rdcc_params_gen at the grant; 0 = no lease */
	u32 d_fast_ns;		/* a sample at or above it is in the regime */
	u32 thresh_ns;		/* Token_Thresh = t + token_thresh_extra (SL Alg. 1) */
	u32 num_sub_ns;		/* SL Alg. 1 line 2: numerator = max delay - this */
	u32 ai_div_ns;		/* AI_DIV, in [1, 10^6] */
	u16 sf_acks;		/* s, ACKs per SF commit, >= 1 */
	u16 ai_cap;		/* AI_Cap */
	u16 bank_cap;		/* Bank_Cap */
	u16 mss;		/* tp->mss_cache at the grant, >= 1 */
	u32 _spare;
};

/*
 * Swift's per-flow State (core/src/swift.rs, #[repr(C)]), in the core bytes of icsk_ca_priv of
 * tcp_swift. Only the increase lease's fast path (rdcc_lease_swift.h) and its end
 * (rdcc_glue.c rdcc_lease_retire) look inside. While RDCC_SWIFT_F_LEASE is set, two words that
 * are dead then (no endpoint EWMA, no undo armed) hold the lease (core/src/swift_lease.rs):
 * lease_t = inc_max_us | hold_min_us << 32 (the fabric targets at the window bounds, in whole us
 * of the kernel's RTT sample), lease_w = w_hi_pkts | ai_q20 << 32 (the window bound and Alg. 1's
 * ai). While RDCC_SWIFT_F_LEASE_REMOTE is set instead (the remote-delay regime's lease, under
 * an endpoint EWMA), lease_w = t_lo_ns | t_hi_ns << 32 (the fabric targets at the window
 * bounds, in ns) and the bits of lease_t above RDCC_SWIFT_EWMA_MASK hold w_hi_pkts (the EWMA
 * in the bits below). The parameter generation of the grant is in the last 4 glue bytes
 * (rdcc_swift_gen), which the remote-delay slot never writes.
 */
struct rdcc_swift_state {
	u64 fcwnd_q20;		/* fabric window, packets Q20 */
	u64 ecwnd_q20;		/* endpoint window */
	u64 t_last_decrease_f_ns;
	u64 t_last_decrease_e_ns;
	u64 rtt_root;		/* RTT ns in bits 0..34, a root hint above */
	u64 lease_t;		/* the endpoint delay's EWMA; F_LEASE: the targets; F_LEASE_REMOTE:
				 * the EWMA below bit 34, the window bound above */
	u64 lease_w;		/* the undo window; F_LEASE: the window bound and ai;
				 * F_LEASE_REMOTE: the targets in ns */
	u32 mss_bytes;
	u32 pending_acked_bytes;
	u32 fabric_delay_ns;
	u8 retransmit_cnt;
	u8 hops;
	u8 flags;		/* RDCC_SWIFT_F_* */
	u8 endpoint_misses;
};

/* largest rs->rtt_us the fast path takes: x 1000 < 2^32 ns */
#define RDCC_SWIFT_RTT_US_MAX		4294967ULL
#define RDCC_SWIFT_RTT_MASK		((1ULL << 34) - 1)	/* the RTT's bits of rtt_root */
/* increases are leased for ai below this: ai * acked_q20 < 2^64 */
#define RDCC_SWIFT_LEASE_AI_MAX_Q20	(1ULL << 24)
#define RDCC_SWIFT_MAX_CWND_Q20		(1ULL << 40)	/* swift::MAX_CWND_Q20: num_acked's cap */
#define RDCC_SWIFT_MSS_MAX		(1ULL << 16)	/* fixed::MAX_MSS_BYTES, the grant's cap */
#define RDCC_SWIFT_F_INIT		1U
#define RDCC_SWIFT_F_HAS_EWMA		2U
#define RDCC_SWIFT_F_UNDO_ARMED		4U
#define RDCC_SWIFT_F_REMOTE_USED	8U
#define RDCC_SWIFT_F_LEASE		16U	/* the lease words are valid */
#define RDCC_SWIFT_F_LEASE_SUB		32U	/* below one packet: holds only, paced */
#define RDCC_SWIFT_F_LEASE_MIN		64U	/* at min_cwnd: a hold refreshes the guard */
#define RDCC_SWIFT_F_LEASE_REMOTE	128U	/* the remote-delay regime's lease */
/* The EWMA's bits of lease_t (swift::EWMA_MASK; every delay is below 2^34 ns), and above them
 * a remote-delay lease's window bound */
#define RDCC_SWIFT_EWMA_BITS		34
#define RDCC_SWIFT_EWMA_MASK		((1ULL << RDCC_SWIFT_EWMA_BITS) - 1)

/*
 * Swift's parameter block (core/src/swift_params.rs Params, #[repr(C)]: the Config's 16 fields,
 * then three derived constants). The remote-delay lease's fast path reads three fields, of the
 * block whose generation is the lease's (rdcc_params_block_gen); C never writes one. The offsets
 * of those three and the size are asserted below.
 */
struct rdcc_swift_params {
	u64 ai_pkts_q20;	/* Alg. 1's ai, packets Q20 */
	u64 beta_q16;
	u64 max_mdf_q16;
	u64 min_cwnd_pkts_q20;
	u64 max_cwnd_pkts_q20;
	u64 init_cwnd_pkts_q20;
	u64 retx_reset_threshold;
	u64 base_target_ns;
	u64 per_hop_ns;
	u64 default_hops;
	u64 fs_range_ns;
	u64 fs_min_cwnd_pkts_q20;
	u64 fs_max_cwnd_pkts_q20;
	u64 endpoint_target_ns;	/* §3.3's endpoint target, [1 us, 10 ms] */
	u64 endpoint_ewma_q16;	/* the endpoint EWMA's gain, Q16, [1, 2^16] */
	u64 literal_decrease_guard;
	u64 loss_factor_q16;
	u64 inv_sqrt_fs_min_q20;
	u64 inv_sqrt_fs_max_q20;
};

#define RDCC_ABI_SIZE(type, size) static_assert(sizeof(type) == (size))
#define RDCC_ABI_OFF(type, field, off) static_assert(offsetof(type, field) == (off))
#define RDCC_ABI_EQ(a, b) static_assert((a) == (b))

/* Generated from the Rust layout by core/tests/abi_offsets.rs; do not edit by hand. */
RDCC_ABI_SIZE(struct rdcc_ack_event, 72);
RDCC_ABI_OFF(struct rdcc_ack_event, now_ns, 0);
RDCC_ABI_OFF(struct rdcc_ack_event, rtt_ns, 8);
RDCC_ABI_OFF(struct rdcc_ack_event, remote_delay_ns, 16);
RDCC_ABI_OFF(struct rdcc_ack_event, delivered_bytes, 24);
RDCC_ABI_OFF(struct rdcc_ack_event, acked_bytes, 32);
RDCC_ABI_OFF(struct rdcc_ack_event, inflight_bytes, 36);
RDCC_ABI_OFF(struct rdcc_ack_event, mss_bytes, 40);
RDCC_ABI_OFF(struct rdcc_ack_event, snd_una, 44);
RDCC_ABI_OFF(struct rdcc_ack_event, snd_nxt, 48);
RDCC_ABI_OFF(struct rdcc_ack_event, flags, 52);
RDCC_ABI_OFF(struct rdcc_ack_event, hops, 56);
RDCC_ABI_OFF(struct rdcc_ack_event, local_rx_delay_ns, 60);
RDCC_ABI_OFF(struct rdcc_ack_event, telemetry, 64);
RDCC_ABI_SIZE(struct rdcc_loss_event, 16);
RDCC_ABI_OFF(struct rdcc_loss_event, now_ns, 0);
RDCC_ABI_OFF(struct rdcc_loss_event, mss_bytes, 8);
RDCC_ABI_OFF(struct rdcc_loss_event, kind, 12);
RDCC_ABI_SIZE(struct rdcc_decision, 32);
RDCC_ABI_OFF(struct rdcc_decision, cwnd_bytes_q16, 0);
RDCC_ABI_OFF(struct rdcc_decision, pacing_rate_bps, 8);
RDCC_ABI_OFF(struct rdcc_decision, signal, 16);
RDCC_ABI_OFF(struct rdcc_decision, reason, 24);
RDCC_ABI_OFF(struct rdcc_decision, flags, 28);
RDCC_ABI_SIZE(struct rdcc_enforced, 16);
RDCC_ABI_OFF(struct rdcc_enforced, pacing_rate_bps, 0);
RDCC_ABI_OFF(struct rdcc_enforced, cwnd_pkts, 8);
RDCC_ABI_SIZE(struct rdcc_report, 24);
RDCC_ABI_OFF(struct rdcc_report, fabric_delay_ns, 0);
RDCC_ABI_OFF(struct rdcc_report, endpoint_delay_ns, 8);
RDCC_ABI_OFF(struct rdcc_report, hops, 16);
RDCC_ABI_OFF(struct rdcc_report, flags, 20);
RDCC_ABI_SIZE(struct rdcc_rqd_scan, 16);
RDCC_ABI_OFF(struct rdcc_rqd_scan, delay_ns, 0);
RDCC_ABI_OFF(struct rdcc_rqd_scan, outcome, 4);
RDCC_ABI_OFF(struct rdcc_rqd_scan, hops, 5);
RDCC_ABI_OFF(struct rdcc_rqd_scan, flags, 6);
RDCC_ABI_OFF(struct rdcc_rqd_scan, source, 7);
RDCC_ABI_OFF(struct rdcc_rqd_scan, tsval, 8);
RDCC_ABI_OFF(struct rdcc_rqd_scan, has_ts, 12);
RDCC_ABI_SIZE(struct rdcc_lease, 32);
RDCC_ABI_OFF(struct rdcc_lease, since_ns, 0);
RDCC_ABI_OFF(struct rdcc_lease, rate_pkts, 8);
RDCC_ABI_OFF(struct rdcc_lease, room_bytes, 16);
RDCC_ABI_OFF(struct rdcc_lease, absorbed_bytes, 20);
RDCC_ABI_OFF(struct rdcc_lease, gen, 24);
RDCC_ABI_OFF(struct rdcc_lease, mss, 28);
RDCC_ABI_OFF(struct rdcc_lease, span, 30);
RDCC_ABI_EQ(RDCC_LEASE_SPAN_SHIFT, 12);
RDCC_ABI_EQ(RDCC_LEASE_RATE_BITS, 40);
RDCC_ABI_SIZE(struct rdcc_theta_state, 72);
RDCC_ABI_OFF(struct rdcc_theta_state, cwnd_q16, 0);
RDCC_ABI_OFF(struct rdcc_theta_state, prev_cwnd_q16, 8);
RDCC_ABI_OFF(struct rdcc_theta_state, power_smooth_q16, 16);
RDCC_ABI_OFF(struct rdcc_theta_state, undo_cwnd_q16, 24);
RDCC_ABI_OFF(struct rdcc_theta_state, update_ns, 32);
RDCC_ABI_OFF(struct rdcc_theta_state, last_ack_ns, 40);
RDCC_ABI_OFF(struct rdcc_theta_state, marker_seq, 48);
RDCC_ABI_OFF(struct rdcc_theta_state, prev_rtt_ns, 52);
RDCC_ABI_OFF(struct rdcc_theta_state, rtt_smooth_ns, 56);
RDCC_ABI_OFF(struct rdcc_theta_state, min_rtt_ns, 60);
RDCC_ABI_OFF(struct rdcc_theta_state, flags, 64);
RDCC_ABI_SIZE(struct rdcc_theta_lease, 32);
RDCC_ABI_OFF(struct rdcc_theta_lease, rate_bps, 0);
RDCC_ABI_OFF(struct rdcc_theta_lease, cwnd_pkts, 8);
RDCC_ABI_OFF(struct rdcc_theta_lease, gen, 12);
RDCC_ABI_OFF(struct rdcc_theta_lease, clamp, 16);
RDCC_ABI_OFF(struct rdcc_theta_lease, tau_ns, 20);
RDCC_ABI_OFF(struct rdcc_theta_lease, mss, 24);
RDCC_ABI_SIZE(struct rdcc_theta_due_in, 40);
RDCC_ABI_OFF(struct rdcc_theta_due_in, now_ns, 0);
RDCC_ABI_OFF(struct rdcc_theta_due_in, rtt_ns, 8);
RDCC_ABI_OFF(struct rdcc_theta_due_in, rtt_smooth_ns, 16);
RDCC_ABI_OFF(struct rdcc_theta_due_in, snd_una, 20);
RDCC_ABI_OFF(struct rdcc_theta_due_in, snd_nxt, 24);
RDCC_ABI_OFF(struct rdcc_theta_due_in, mss, 28);
RDCC_ABI_OFF(struct rdcc_theta_due_in, srtt_us, 32);
RDCC_ABI_OFF(struct rdcc_theta_due_in, clamp_pkts, 36);
RDCC_ABI_EQ(RDCC_THETA_RTT_US_MAX, 4294967);
RDCC_ABI_EQ(RDCC_THETA_LIFE_NS, 4294967296);
RDCC_ABI_SIZE(struct rdcc_theta_params, 96);
RDCC_ABI_OFF(struct rdcc_theta_params, gamma_q16, 0);
RDCC_ABI_OFF(struct rdcc_theta_params, one_minus_gamma_q16, 8);
RDCC_ABI_OFF(struct rdcc_theta_params, base_rtt_ns, 16);
RDCC_ABI_OFF(struct rdcc_theta_params, gamma_beta_q16, 24);
RDCC_ABI_OFF(struct rdcc_theta_params, min_cwnd_q16, 32);
RDCC_ABI_OFF(struct rdcc_theta_params, max_cwnd_q16, 40);
RDCC_ABI_OFF(struct rdcc_theta_params, grad_floor_q16, 48);
RDCC_ABI_OFF(struct rdcc_theta_params, per_ack, 56);
RDCC_ABI_OFF(struct rdcc_theta_params, min_rtt_tau, 57);
RDCC_ABI_OFF(struct rdcc_theta_params, artifact_tau, 58);
RDCC_ABI_OFF(struct rdcc_theta_params, beta_q16, 64);
RDCC_ABI_OFF(struct rdcc_theta_params, init_cwnd_q16, 72);
RDCC_ABI_OFF(struct rdcc_theta_params, smooth_init_q16, 80);
RDCC_ABI_OFF(struct rdcc_theta_params, loss_keep_q16, 88);
RDCC_ABI_EQ(RDCC_Q16_SHIFT, 16ULL);
RDCC_ABI_EQ(RDCC_MAX_RATE_BPS, 1099511627776ULL);
RDCC_ABI_EQ(NSEC_PER_SEC, 1000000000ULL);
RDCC_ABI_EQ(RDCC_THETA_POWER_MIN_Q16, 655ULL);
RDCC_ABI_EQ(RDCC_THETA_POWER_MAX_Q16, 4294967296ULL);
RDCC_ABI_EQ(RDCC_THETA_GRAD_MAX_Q16, 4294967296ULL);
RDCC_ABI_EQ(RDCC_THETA_MAX_CWND_BYTES, 2147483648ULL);
RDCC_ABI_EQ(RDCC_THETA_PKTS_LIMIT, 16777216ULL);
RDCC_ABI_EQ(RDCC_THETA_UPDATE_MAX_NS, 18446744065119617023ULL);
RDCC_ABI_EQ(RDCC_THETA_FLAG_INIT, 1ULL);
RDCC_ABI_EQ(RDCC_THETA_FLAG_HAVE_PREV, 2ULL);
RDCC_ABI_EQ(RDCC_THETA_FLAG_SMOOTH, 4ULL);
RDCC_ABI_SIZE(struct rdcc_vaisf_state, 72);
RDCC_ABI_OFF(struct rdcc_vaisf_state, cwnd_q20, 0);
RDCC_ABI_OFF(struct rdcc_vaisf_state, wref_q20, 8);
RDCC_ABI_OFF(struct rdcc_vaisf_state, rtt_ns, 16);
RDCC_ABI_OFF(struct rdcc_vaisf_state, t_last_decrease_ns, 24);
RDCC_ABI_OFF(struct rdcc_vaisf_state, max_delay_ns, 32);
RDCC_ABI_OFF(struct rdcc_vaisf_state, undo_cwnd_q20, 40);
RDCC_ABI_OFF(struct rdcc_vaisf_state, dampener_q16, 48);
RDCC_ABI_OFF(struct rdcc_vaisf_state, rtt_marker, 52);
RDCC_ABI_OFF(struct rdcc_vaisf_state, mss_bytes, 56);
RDCC_ABI_OFF(struct rdcc_vaisf_state, ai_bank, 60);
RDCC_ABI_OFF(struct rdcc_vaisf_state, acks_since_dec, 62);
RDCC_ABI_OFF(struct rdcc_vaisf_state, retransmit_cnt, 64);
RDCC_ABI_OFF(struct rdcc_vaisf_state, hops, 65);
RDCC_ABI_OFF(struct rdcc_vaisf_state, flags, 66);
RDCC_ABI_SIZE(struct rdcc_vaisf_lease, 32);
RDCC_ABI_OFF(struct rdcc_vaisf_lease, gen, 0);
RDCC_ABI_OFF(struct rdcc_vaisf_lease, d_fast_ns, 4);
RDCC_ABI_OFF(struct rdcc_vaisf_lease, thresh_ns, 8);
RDCC_ABI_OFF(struct rdcc_vaisf_lease, num_sub_ns, 12);
RDCC_ABI_OFF(struct rdcc_vaisf_lease, ai_div_ns, 16);
RDCC_ABI_OFF(struct rdcc_vaisf_lease, sf_acks, 20);
RDCC_ABI_OFF(struct rdcc_vaisf_lease, ai_cap, 22);
RDCC_ABI_OFF(struct rdcc_vaisf_lease, bank_cap, 24);
RDCC_ABI_OFF(struct rdcc_vaisf_lease, mss, 26);
RDCC_ABI_EQ(RDCC_VAISF_RTT_US_MAX, 10000000ULL);
RDCC_ABI_EQ(RDCC_VAISF_F_CONGESTED, 4ULL);
RDCC_ABI_SIZE(struct rdcc_swift_state, 72);
RDCC_ABI_OFF(struct rdcc_swift_state, fcwnd_q20, 0);
RDCC_ABI_OFF(struct rdcc_swift_state, ecwnd_q20, 8);
RDCC_ABI_OFF(struct rdcc_swift_state, t_last_decrease_f_ns, 16);
RDCC_ABI_OFF(struct rdcc_swift_state, t_last_decrease_e_ns, 24);
RDCC_ABI_OFF(struct rdcc_swift_state, rtt_root, 32);
RDCC_ABI_OFF(struct rdcc_swift_state, lease_t, 40);
RDCC_ABI_OFF(struct rdcc_swift_state, lease_w, 48);
RDCC_ABI_OFF(struct rdcc_swift_state, mss_bytes, 56);
RDCC_ABI_OFF(struct rdcc_swift_state, pending_acked_bytes, 60);
RDCC_ABI_OFF(struct rdcc_swift_state, fabric_delay_ns, 64);
RDCC_ABI_OFF(struct rdcc_swift_state, retransmit_cnt, 68);
RDCC_ABI_OFF(struct rdcc_swift_state, hops, 69);
RDCC_ABI_OFF(struct rdcc_swift_state, flags, 70);
RDCC_ABI_OFF(struct rdcc_swift_state, endpoint_misses, 71);
RDCC_ABI_EQ(RDCC_SWIFT_RTT_US_MAX, 4294967ULL);
RDCC_ABI_EQ(RDCC_SWIFT_LEASE_AI_MAX_Q20, 16777216ULL);
RDCC_ABI_EQ(RDCC_SWIFT_MAX_CWND_Q20, 1099511627776ULL);
RDCC_ABI_EQ(RDCC_SWIFT_RTT_MASK, 17179869183ULL);
RDCC_ABI_EQ(RDCC_SWIFT_MSS_MAX, 65536ULL);
RDCC_ABI_EQ(RDCC_SWIFT_EWMA_MASK, 17179869183ULL);
RDCC_ABI_EQ(RDCC_SWIFT_EWMA_BITS, 34ULL);
RDCC_ABI_EQ(RDCC_SWIFT_F_INIT, 1ULL);
RDCC_ABI_EQ(RDCC_SWIFT_F_HAS_EWMA, 2ULL);
RDCC_ABI_EQ(RDCC_SWIFT_F_UNDO_ARMED, 4ULL);
RDCC_ABI_EQ(RDCC_SWIFT_F_REMOTE_USED, 8ULL);
RDCC_ABI_EQ(RDCC_SWIFT_F_LEASE, 16ULL);
RDCC_ABI_EQ(RDCC_SWIFT_F_LEASE_SUB, 32ULL);
RDCC_ABI_EQ(RDCC_SWIFT_F_LEASE_MIN, 64ULL);
RDCC_ABI_EQ(RDCC_SWIFT_F_LEASE_REMOTE, 128ULL);
RDCC_ABI_SIZE(struct rdcc_swift_params, 152);
RDCC_ABI_OFF(struct rdcc_swift_params, ai_pkts_q20, 0);
RDCC_ABI_OFF(struct rdcc_swift_params, endpoint_target_ns, 104);
RDCC_ABI_OFF(struct rdcc_swift_params, endpoint_ewma_q16, 112);

#endif /* _RDCC_ABI_H */
