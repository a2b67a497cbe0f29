/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_lease.h - the C fast path of the hold lease (issue #13; core/src/lease.rs). A law that
 * ends a full call in a decision its next ACKs provably keep (lease::HoldLease) has the full
 * path store the enforced window and rate with their validity conditions in the glue bytes of
 * icsk_ca_priv (struct rdcc_lease, rdcc_abi.h); cong_control applies them here, without building
 * an event or calling Rust. Shared by rdcc_glue.c (modules that define RDCC_LEASE) and the KUnit
 * case rdcc_glue_lease, which runs it against its Rust transcription Lease::try_take. Include
 * after rdcc_abi.h and <net/tcp.h>.
 *
 * A leaf: no calls (tcp_snd_cwnd_set's WARN_ON_ONCE cannot fire, see below), no address-taken
 * locals, so no stack protector and no saved registers in its caller (rdcc_cong_control).
 */
#ifndef RDCC_LEASE_H
#define RDCC_LEASE_H

/*
 * Apply lease l to this ACK if it covers it, and say so; else change nothing. Covered means
 * (Lease::try_take's docs derive each condition):
 * - the parameter generation and the MSS of the grant (gen 0, no lease, never matches: a
 *   generation is never 0);
 * - CA state below Recovery: in Loss the full path must apply the glue's Loss-state window rule
 *   (rdcc_ack_full), in Recovery it costs one check to leave it to the full path too;
 * - 0 <= now - since_ns < span units, as one wrapping compare: Lease::grant refused a lease
 *   whose since_ns + span passes U64_MAX, so a clock before since_ns wraps to at least the span;
 * - the bytes absorbed since the grant plus this ACK's (rdcc_fill_ack_in's acked_bytes:
 *   acked_sacked * mss_cache, equal to l->mss here) at most room_bytes. The product is below
 *   2^48 (mss is 16 bits); where rdcc_fill_ack_in saturates at U32_MAX, it exceeds room_bytes
 *   anyway.
 * Then it sets what rdcc_set sets for Decision::enforce's result. The lease holds
 * floor(W / mss) in [2, 2^24) and a rate in (0, 2^40) (Lease::grant), for which that result is
 * min(floor, clamp ?: 1) packets at the law's rate whatever srtt is (event.rs:311, 345-365), so
 * the window is in [1, 2^24): tcp_snd_cwnd_set does not warn, and rdcc_set's cwnd_pkts == 0
 * case does not arise.
 */
static __always_inline bool rdcc_lease_take(struct sock *sk, const struct rate_sample *rs,
					    struct rdcc_lease *l, u32 gen)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u64 total, rate;
	u32 pkts, clamp;

	if (l->gen != gen || l->mss != tp->mss_cache ||
	    inet_csk(sk)->icsk_ca_state >= TCP_CA_Recovery)
		return false;
	if (tp->tcp_clock_cache - l->since_ns >= (u64)l->span << RDCC_LEASE_SPAN_SHIFT)
		return false;
	total = (u64)l->absorbed_bytes + (u64)rs->acked_sacked * l->mss;
	if (total > l->room_bytes)
		return false;
	l->absorbed_bytes = (u32)total;
	pkts = (u32)(l->rate_pkts >> RDCC_LEASE_RATE_BITS);	/* in [2, 2^24) */
	clamp = tp->snd_cwnd_clamp ?: 1;
	tcp_snd_cwnd_set(tp, min(pkts, clamp));
	rate = l->rate_pkts & ((1ULL << RDCC_LEASE_RATE_BITS) - 1);
	WRITE_ONCE(sk->sk_pacing_rate, min_t(u64, rate, READ_ONCE(sk->sk_max_pacing_rate)));
	return true;
}

#endif /* RDCC_LEASE_H */
