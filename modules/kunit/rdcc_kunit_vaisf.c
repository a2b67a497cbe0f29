// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdcc_kunit_vaisf.c - the rdcc_glue case of Swift VAI SF's steady-decrease lease (test module
 * rdcc_kunit.ko): its fast path (rdcc_vaisf_take) closed loop against the law on every ACK.
 * Listed in rdcc_kunit_glue.c's suite table.
 */
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/net.h>
#include <kunit/test.h>
#include <net/tcp.h>

#include "rdcc_abi.h"
#include "rdcc_event.h"
#include "rdcc_lease_vaisf.h"
#include "rdcc_kunit.h"

/*
 * rdcc_glue_vaisf_lease: Swift VAI SF's steady-decrease lease, closed loop, on a real socket. Each
 * of RDCC_VAISF_SEQS sequences draws a parameter block near the paper's
 * (rdcc_rs_kunit_vaisf_setup) and a start state, three times in four the regime's steady state
 * (the fixed point of the capped decrease, a saturated or large dampener or one at the edge where
 * the VAI multiplier becomes 1.0, any bank, SF counter and round position) and otherwise the law's initial state, and runs RDCC_VAISF_ACKS ACKs two
 * ways from it: as tcp_swift_vaisf's cong_control does (rdcc_vaisf_take, else the full path
 * with the lease, rdcc_rs_kunit_vaisf_ack with the lease: the law, its enforcement, the next
 * grant), and as the law called on every ACK (the same entry without a lease). The ACKs: RTTs
 * at D_fast's edges (the whole µs at or above it, the one below, the target), far above (10 s
 * and one µs more) and without a sample; now and then application-limited, possibly delayed, an
 * MSS change, a parameter write (a new block, the generation bumped), a Recovery episode
 * (set_state's end of the lease, in_recovery ACKs, then Open again); snd_una and snd_nxt moving
 * so that rounds end on some ACKs and not others, including the marker ahead of snd_nxt; ACKs of
 * nothing (an RTO's count, retransmit_cnt, is reset only by an ACK of data) and of 1-3 MSS; any
 * clamp, srtt and sk_max_pacing_rate. After every ACK the two states must be identical
 * (memcmp, padding included) and the socket's window and pacing rate those of the reference.
 */
struct rdcc_kunit_vaisf_setup {
	u64 w_q20;
	u32 mss;
	u16 bank_cap;
	u16 sf_acks;
	u32 damp_min_q16;	/* the least dampener with the VAI multiplier at 1.0 */
	u32 _pad;
};
static_assert(sizeof(struct rdcc_kunit_vaisf_setup) == 24);

int rdcc_rs_kunit_vaisf_setup(u64 seed, void *p, struct rdcc_vaisf_state *s,
			      struct rdcc_kunit_vaisf_setup *out);
void rdcc_rs_kunit_vaisf_ack(const void *p, struct rdcc_vaisf_state *s,
			     const struct rdcc_ack_event *ev, u32 srtt_us, u32 clamp_pkts,
			     struct rdcc_vaisf_lease *l, u32 gen, struct rdcc_enforced *e);

#define RDCC_VAISF_SEQS 2000U
#define RDCC_VAISF_ACKS 50U

void rdcc_glue_vaisf_lease(struct kunit *test)
{
	static const u32 clamps[] = { 64, 64, 0, 1, 10, U32_MAX };
	u64 x = 0x6a09e667f3bcc909ULL, pbuf[32];
	u32 seq, i, taken = 0, full = 0;
	struct socket *sock;
	struct tcp_sock *tp;
	struct sock *sk;
	int err;

	sk = rdcc_kunit_socket(test, &sock, true);
	tp = tcp_sk(sk);
	for (seq = 0; seq < RDCC_VAISF_SEQS; seq++) {
		struct rdcc_kunit_vaisf_setup su;
		struct rdcc_vaisf_state sa, sb;
		struct rdcc_vaisf_lease la = {};
		u32 gen = 1 + rdcc_kunit_xs(&x) % 3, cwnd_a = 7777, cwnd_b = 7777, recovery = 0;
		u64 now = 1ULL << 40, rate_a = 12345, rate_b = 12345, r = rdcc_kunit_xs(&x);
		bool ok = true;

		err = rdcc_rs_kunit_vaisf_setup(rdcc_kunit_xs(&x), pbuf, &sa, &su);
		KUNIT_ASSERT_EQ_MSG(test, err, 0, "no parameter block");
		tp->mss_cache = su.mss;
		tp->snd_una = (u32)rdcc_kunit_xs(&x);
		tp->snd_nxt = tp->snd_una + su.mss;
		if (r % 4) {
			/* The regime's steady state (see the comment above). */
			sa.cwnd_q20 = su.w_q20;
			sa.wref_q20 = su.w_q20;
			/* saturated, large, or at the multiplier's edge (1.0 from damp_min on) */
			switch ((r >> 4) % 4) {
			case 0:
				sa.dampener_q16 = U32_MAX;
				break;
			case 1:
				sa.dampener_q16 = su.damp_min_q16;
				break;
			case 2:
				sa.dampener_q16 = su.damp_min_q16 - !!su.damp_min_q16;
				break;
			default:
				sa.dampener_q16 = U32_MAX - (u32)(rdcc_kunit_xs(&x) % (1U << 24));
				break;
			}
			sa.ai_bank = (u16)(rdcc_kunit_xs(&x) % ((u64)su.bank_cap + 1));
			sa.acks_since_dec = su.sf_acks ? (u16)(rdcc_kunit_xs(&x) % su.sf_acks) : 0;
			sa.rtt_marker = tp->snd_una + (u32)(rdcc_kunit_xs(&x) % 4) * su.mss;
			sa.flags = 1 | 2 | (r & 32 ? RDCC_VAISF_F_CONGESTED : 0); /* INIT, MARKER */
			sa.retransmit_cnt = (r >> 8) % 8 == 0;	/* an RTO not yet ACKed */
			sa.max_delay_ns = rdcc_kunit_xs(&x) % 100000;
			sa.rtt_ns = 20000;
		}
		sb = sa;
		inet_csk(sk)->icsk_ca_state = TCP_CA_Open;
		for (i = 0; i < RDCC_VAISF_ACKS && ok; i++) {
			struct rdcc_ack_in in;
			struct rdcc_enforced ea = {}, eb = {};
			struct rate_sample rs = {};
			u64 q = rdcc_kunit_xs(&x), q2, max_rate;
			long us = la.gen ? DIV_ROUND_UP(la.d_fast_ns, 1000) : 14;
			bool fast;

			now += 240 + q % 1000;
			tp->tcp_clock_cache = now;
			switch (q % 16) {
			case 0:
				rs.rtt_us = us - 1;		/* below D_fast (or at it, exactly) */
				break;
			case 1:
				rs.rtt_us = 5;			/* at the default target */
				break;
			case 2:
				rs.rtt_us = RDCC_VAISF_RTT_US_MAX;
				break;
			case 3:
				rs.rtt_us = RDCC_VAISF_RTT_US_MAX + 1;
				break;
			case 4:
				rs.rtt_us = -1;			/* no sample */
				break;
			default:
				rs.rtt_us = us + (long)((q >> 8) % 4);
				break;
			}
			rs.is_app_limited = (q >> 12) % 32 == 0;
			rs.is_ack_delayed = (q >> 17) % 32 == 0;
			q2 = rdcc_kunit_xs(&x);
			rs.acked_sacked = q2 % 16 ? 1 + (q2 >> 4) % 3 : 0;
			if ((q >> 24) % 64 == 0)
				tp->mss_cache = tp->mss_cache == su.mss ? su.mss + 8 : su.mss;
			if ((q >> 30) % 64 == 0) {
				/* A parameter write: a new block (for both), the generation bumped. */
				struct rdcc_kunit_vaisf_setup su2;
				struct rdcc_vaisf_state scratch;

				err = rdcc_rs_kunit_vaisf_setup(rdcc_kunit_xs(&x), pbuf, &scratch, &su2);
				KUNIT_ASSERT_EQ_MSG(test, err, 0, "no parameter block");
				gen = gen % 3 + 1;
			}
			if (!recovery && (q >> 36) % 64 == 0) {
				recovery = 1 + (q >> 42) % 4;	/* set_state(Recovery) */
				inet_csk(sk)->icsk_ca_state = TCP_CA_Recovery;
				la.gen = 0;
			} else if (recovery && !--recovery) {
				inet_csk(sk)->icsk_ca_state = TCP_CA_Open;
			}
			tp->snd_una += rs.acked_sacked * tp->mss_cache;
			if ((q >> 44) % 16 == 0)
				tp->snd_nxt = tp->snd_una - 1;	/* marker ahead of snd_nxt, possibly */
			else if ((s32)(tp->snd_nxt - tp->snd_una) < 0 || (q >> 48) % 2)
				tp->snd_nxt = tp->snd_una + (u32)((q >> 50) % 4) * tp->mss_cache;
			tp->snd_cwnd_clamp = rdcc_kunit_pick(&x, clamps, ARRAY_SIZE(clamps));
			tp->srtt_us = (u32)(rdcc_kunit_xs(&x) % (1U << 20));
			max_rate = q & 1 ? ~0ULL : rdcc_kunit_xs(&x) >> ((q >> 56) % 64);
			WRITE_ONCE(sk->sk_max_pacing_rate, max_rate);
			rdcc_fill_ack_in(sk, &rs, &in);

			/* The glue as built: the fast path, else the full path with the lease. */
			tcp_snd_cwnd_set(tp, cwnd_a);
			WRITE_ONCE(sk->sk_pacing_rate, rate_a);
			fast = rdcc_vaisf_take(sk, &rs, &la, &sa, gen);
			if (fast) {
				taken++;
			} else {
				full++;
				rdcc_rs_kunit_vaisf_ack(pbuf, &sa, &in.ev, in.srtt_us, in.clamp_pkts, &la,
							gen, &ea);
				if (ea.cwnd_pkts) {
					tcp_snd_cwnd_set(tp, ea.cwnd_pkts);
					WRITE_ONCE(sk->sk_pacing_rate,
						   min_t(u64, ea.pacing_rate_bps, max_rate));
				}
			}
			cwnd_a = tcp_snd_cwnd(tp);
			rate_a = READ_ONCE(sk->sk_pacing_rate);
			/* The reference: the law on every ACK. */
			rdcc_rs_kunit_vaisf_ack(pbuf, &sb, &in.ev, in.srtt_us, in.clamp_pkts, NULL, 0,
						&eb);
			if (eb.cwnd_pkts) {
				cwnd_b = eb.cwnd_pkts;
				rate_b = min_t(u64, eb.pacing_rate_bps, max_rate);
			}
			ok = !memcmp(&sa, &sb, sizeof(sa)) && cwnd_a == cwnd_b && rate_a == rate_b;
			if (!ok)
				KUNIT_FAIL(test,
					   "sequence %u ACK %u (%s, rtt %ld us, lease gen %u d_fast %u): window C %u law %u, rate C %llu law %llu; cwnd_q20 %llu/%llu rtt %llu/%llu max %llu/%llu damp %u/%u marker %u/%u bank %u/%u sf %u/%u flags %u/%u",
					   seq, i, fast ? "fast" : "full", rs.rtt_us, la.gen, la.d_fast_ns,
					   cwnd_a, cwnd_b, rate_a, rate_b, sa.cwnd_q20, sb.cwnd_q20,
					   sa.rtt_ns, sb.rtt_ns, sa.max_delay_ns, sb.max_delay_ns,
					   sa.dampener_q16, sb.dampener_q16, sa.rtt_marker, sb.rtt_marker,
					   sa.ai_bank, sb.ai_bank, sa.acks_since_dec, sb.acks_since_dec,
					   sa.flags, sb.flags);
		}
		if (!ok)
			break;
	}
	inet_csk(sk)->icsk_ca_state = TCP_CA_Open;
	release_sock(sk);
	sock_release(sock);
	kunit_info(test, "%u ACKs on the fast path, %u on the full path\n", taken, full);
	/* Non-vacuity: both paths. Measured with this seed: 18073 fast, 81927 full (the edges
	 * above, the initial-state sequences and the MSS changes keep most ACKs off the regime). */
	KUNIT_EXPECT_GT_MSG(test, taken, RDCC_VAISF_SEQS * RDCC_VAISF_ACKS / 8, "fast path rare");
	KUNIT_EXPECT_GT_MSG(test, full, RDCC_VAISF_SEQS * RDCC_VAISF_ACKS / 20, "full path rare");
}
