/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_event.h - the per-ACK event the C glue hands to the Rust core, built from the socket and
 * the kernel's rate sample. Shared by rdcc_glue.c (every product module) and the KUnit case
 * rdcc_glue_event (modules/kunit/rdcc_kunit_glue.c), which checks every field against its
 * definition on a real socket: the seam where a field a law reads can silently stay 0.
 * Include after rdcc_abi.h and <net/tcp.h>.
 */
#ifndef RDCC_EVENT_H
#define RDCC_EVENT_H

/* The event and what the enforcement needs from the socket (in memory, not in registers that
 * would have to survive the law's call). */
struct rdcc_ack_in {
	struct rdcc_ack_event ev;
	u32 srtt_us;		/* rdcc_srtt_us(tp): whole us, rounded up */
	u32 clamp_pkts;		/* tp->snd_cwnd_clamp */
};
static_assert(sizeof(struct rdcc_ack_in) == 80);

/*
 * The smoothed RTT the enforcement divides by, in whole us rounded up (tp->srtt_us holds 8x the
 * RTT in us). Rounding up keeps a rate derived from it (W / srtt, below 2 packets) at or below
 * the exact one: at 100 us RTTs truncation paced up to 1 % fast, and a 256:1 Swift incast in the
 * simulator (which calls the same Decision::enforce with the same rounding) overshot its target
 * by 51 % instead of 36 % (sim/tests/swift_outcomes.rs). 0 stays 0: no estimate yet.
 */
static __always_inline u32 rdcc_srtt_us(const struct tcp_sock *tp)
{
	return ((u64)tp->srtt_us + 7) >> 3;	/* in 64 bits: the sum cannot wrap */
}

/*
 * The event of one ACK, as cong_control sees the socket (after tcp_clean_rtx_queue and the rate
 * sample). Every field a law reads is filled here; the remote-delay fields are added by
 * rdcc_rqd_take (Swift). delivered_bytes stays 0: no law reads it (event.rs), and a law that
 * starts to must fill it here and in the KUnit case.
 */
static __always_inline void rdcc_fill_ack_in(const struct sock *sk, const struct rate_sample *rs,
					     struct rdcc_ack_in *in)
{
	const struct tcp_sock *tp = tcp_sk(sk);
	u32 mss = tp->mss_cache;
	u32 flags = 0;

	/* rs->rtt_us: µs RTT of the most recently sent newly (s)acked skb, -1 when none (Karn). */
	if (rs->rtt_us > 0)
		flags |= RDCC_ACK_HAS_RTT;
	if (rs->is_app_limited)
		flags |= RDCC_ACK_APP_LIMITED;
	if (rs->is_ack_delayed)
		flags |= RDCC_ACK_DELAYED;
	if (rs->delivered_ce > 0)
		flags |= RDCC_ACK_ECE;
	if (inet_csk(sk)->icsk_ca_state >= TCP_CA_Recovery)
		flags |= RDCC_ACK_IN_RECOVERY;
	*in = (struct rdcc_ack_in){
		.ev = {
			.now_ns = tp->tcp_clock_cache,
			.rtt_ns = rs->rtt_us > 0 ? (u64)rs->rtt_us * NSEC_PER_USEC : 0,
			.acked_bytes = (u32)min_t(u64, (u64)rs->acked_sacked * mss, U32_MAX),
			/* TIMELY's round gate (timely.rs gate_open): in flight after this ACK. */
			.inflight_bytes = (u32)min_t(u64, (u64)tcp_packets_in_flight(tp) * mss,
						     U32_MAX),
			.mss_bytes = mss,
			.snd_una = tp->snd_una,
			.snd_nxt = tp->snd_nxt,
			.flags = flags,
		},
		.srtt_us = rdcc_srtt_us(tp),
		.clamp_pkts = tp->snd_cwnd_clamp,
	};
}

#endif /* RDCC_EVENT_H */
