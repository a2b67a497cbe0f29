/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_lease_vaisf.h - the C fast path of Swift VAI SF's steady-decrease lease (issue #13;
 * core/src/vaisf_lease.rs). In the regime the lease describes (every fabric delay at or above
 * D_fast: SL Eq. 1's cut capped at max_mdf, the reference window a fixed point of the capped
 * decrease, the VAI token multiplier at 1.0, the window below one packet), an ACK leaves the
 * window where it is and changes only the law's bookkeeping and the pacing rate. This does that
 * bookkeeping in the law's own state (struct rdcc_vaisf_state, #[repr(C)] on the Rust side)
 * exactly as SwiftVaiSf::on_ack does it, and sets what Decision::enforce gives (one packet,
 * paced at the law's rate w·mss/RTT), without building an event or calling Rust. Shared by
 * rdcc_glue.c (modules that define RDCC_LEASE_VAISF) and the KUnit case rdcc_glue_vaisf_lease,
 * which runs it closed-loop against the law called on every ACK. Include after rdcc_abi.h and
 * <net/tcp.h>.
 *
 * A change to SwiftVaiSf::on_ack, end_of_rtt, commit, vai_tokens_q16, decide or
 * swift::pacing_rate_bps must change this and VaisfLease::grant together (the comment at the top
 * of on_ack says so; regime_keeps_the_decision and rdcc_glue_vaisf_lease fail otherwise).
 */
#ifndef RDCC_LEASE_VAISF_H
#define RDCC_LEASE_VAISF_H

#include <linux/math64.h>

/* The pacing product below: w < 2^20 (one packet), mss < 2^16, so w * mss < 2^36; the RTT is at
 * most 10^10 ns < 2^34, so rtt << 20 < 2^54; the quotient is below 2^36 (no divide error). */
static_assert(RDCC_VAISF_RTT_US_MAX * 1000 < (1ULL << 34));

/*
 * Take the ACK if the lease covers it: true when it did (the state stepped, window and rate
 * set), false when nothing was stored and the full path must run. A leaf once inlined.
 *
 * Premises, from VaisfLease::grant for a lease with gen != 0 and the law's own invariants: the
 * state is initialised with the round marker set, no undo armed and no RTO pending; sf_acks >= 1
 * and the SF counts ACKs; the state's MSS is the lease's; the module has no remote-delay channel
 * (no hop count, no remote delay: the fabric delay is the RTT); no lease lives in Recovery or
 * Loss (rdcc_set_state ends it on the way in, the full path grants none there), so on_ack's
 * first lines (ensure_init, the MSS, F_UNDO_ARMED, retransmit_cnt, the hops) change nothing.
 * The tests, before any store:
 * - the keys: the parameter generation and the MSS;
 * - the sample: rs->rtt_us in [1, RDCC_VAISF_RTT_US_MAX] (one unsigned compare; -1 and 0 wrap
 *   to the top), so d = rtt_us * 1000 is rdcc_fill_ack_in's value and the law's clamp_rtt_ns is
 *   the identity; not application-limited (AI 0) and not possibly delayed (a delayed ACK at or
 *   above the target is skipped without storing its RTT);
 * - d >= D_fast: the decrease branch (d >= t), the capped factor 1 - max_mdf (D*), and d above
 *   Token_Thresh, so this RTT's end takes SL Alg. 1's mint branch and the dampener never falls
 *   (the multiplier stays 1.0, AI stays base_AI, and the window stays the fixed point).
 * Then on_ack's steps, in its order: the RTT (not delayed); the RTT's largest delay and the
 * congested flag (d > t); the SF counter (below sf_acks at the grant and reset when it reaches
 * sf_acks <= 65535, so its saturating_add(1) is a plain + 1); at sf_acks an SF commit, which sets W_ref to the
 * unchanged window (no t_last_decrease: not below W_ref) and debits the tokens the multiplier
 * used, min(bank, AI_Cap) (SL Alg. 2 lines 3-4); at the RTT's end (snd_una at or past the
 * marker, or the marker ahead of snd_nxt) SL Alg. 1: the mint, bank = min(bank + numerator /
 * AI_DIV, Bank_Cap) (skipped at the cap, where it is the identity), the dampener += max delay *
 * 2^16 / Token_Thresh up to U32_MAX, the tracker reset and the marker at snd_nxt. The window
 * and W_ref are not written: their values do not change.
 * Then what rdcc_set sets for Decision::enforce of decide()'s decision: W = w * mss / 16 bytes
 * Q16 is below one packet and not 0 (grant), so one packet (every clamp is at least 1), at the
 * law's rate clamp(w * mss * 10^9 / (d << 20), 1, 2^40) (Swift Alg. 1 line 30; the grant checked
 * that the clamp is the identity for every d the fast path takes), capped by
 * sk_max_pacing_rate. mul_u64_u64_div_u64 is fixed::mul_div's exact floor here: the quotient
 * fits (static_assert above).
 *
 * Lockless readers: get_info copies the state word by word with READ_ONCE (rdcc_snapshot); each
 * store here is a WRITE_ONCE of one aligned field, so each field it copies is one version's whole
 * value (a u16 or u8 field shares its u64 word with others, each of which is whole too). No Rust
 * reference to the state is live here: Rust holds &mut State only during an rdcc_rs_* call, and
 * this runs between calls, under the same socket lock.
 */
static __always_inline bool rdcc_vaisf_take(struct sock *sk, const struct rate_sample *rs,
					    const struct rdcc_vaisf_lease *l,
					    struct rdcc_vaisf_state *s, u32 gen)
{
	struct tcp_sock *tp = tcp_sk(sk);
	u64 d, meas, rate, bank;
	u32 n;

	if (l->gen != gen || (u32)l->mss != tp->mss_cache)
		return false;
	if ((u64)rs->rtt_us - 1 >= RDCC_VAISF_RTT_US_MAX || rs->is_app_limited ||
	    rs->is_ack_delayed)
		return false;
	d = (u64)rs->rtt_us * NSEC_PER_USEC;			/* fabric delay = RTT */
	if (d < l->d_fast_ns)
		return false;

	WRITE_ONCE(s->rtt_ns, d);				/* on_ack: s.rtt_ns = rtt */
	meas = max_t(u64, s->max_delay_ns, d);			/* per-RTT max (SL §V-A) */
	n = s->acks_since_dec + 1;		/* saturating_add(1): < sf_acks + 1 <= 65536 (grant) */
	bank = s->ai_bank;
	if (n >= l->sf_acks) {					/* SF commit (SL §IV-B) */
		bank -= min_t(u64, bank, l->ai_cap);		/* SL Alg. 2 lines 3-4 */
		n = 0;
	}
	WRITE_ONCE(s->acks_since_dec, (u16)n);
	if ((s32)(tp->snd_una - s->rtt_marker) >= 0 || (s32)(tp->snd_nxt - s->rtt_marker) < 0) {
		u32 damp = s->dampener_q16;

		/* SL Alg. 1 lines 2-3: meas > Token_Thresh >= the subtrahend (D_fast) */
		if (bank != l->bank_cap)
			bank = min_t(u64, bank + div_u64(meas - l->num_sub_ns, l->ai_div_ns),
				     l->bank_cap);
		/* SL Alg. 1 lines 5-6: meas < 2^34, so meas << 16 < 2^50 */
		if (damp != U32_MAX)
			damp = min_t(u64, damp + div_u64(meas << 16, l->thresh_ns), U32_MAX);
		WRITE_ONCE(s->dampener_q16, damp);
		WRITE_ONCE(s->max_delay_ns, 0);				/* Alg. 1 line 14 */
		WRITE_ONCE(s->flags, s->flags & ~RDCC_VAISF_F_CONGESTED);
		WRITE_ONCE(s->rtt_marker, tp->snd_nxt);
	} else {
		WRITE_ONCE(s->max_delay_ns, meas);
		WRITE_ONCE(s->flags, s->flags | RDCC_VAISF_F_CONGESTED);	/* d > t */
	}
	WRITE_ONCE(s->ai_bank, (u16)bank);

	/* Swift Alg. 1 lines 29-30: one packet every rtt / cwnd, i.e. w * mss / rtt bytes/s */
	rate = mul_u64_u64_div_u64(s->cwnd_q20 * l->mss, NSEC_PER_SEC, d << 20);
	/* clamp(rate, 1, 2^40) is the identity: in [1, 2^40) for every d in [D_fast, 10 s] (grant) */
	tcp_snd_cwnd_set(tp, 1);
	WRITE_ONCE(sk->sk_pacing_rate, min_t(u64, rate, READ_ONCE(sk->sk_max_pacing_rate)));
	return true;
}

#endif /* RDCC_LEASE_VAISF_H */
