// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdcc_kunit_swift.c - the rdcc_glue case of Swift's increase lease (test module rdcc_kunit.ko):
 * its fast path (rdcc_swift_take) closed loop against the law on every ACK. Listed in
 * rdcc_kunit_glue.c's suite table.
 */
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/net.h>
#include <kunit/test.h>
#include <net/tcp.h>

#include "rdcc_abi.h"
#include "rdcc_event.h"
#include "rdcc_lease_swift.h"
#include "rdcc_rqd_entry.h"
#include "rdcc_kunit.h"

/*
 * rdcc_glue_swift_lease: Swift's increase lease, closed loop, on a real socket, in both regimes.
 * Each of RDCC_SWIFT_SEQS sequences draws a parameter block near the paper's
 * (rdcc_rs_kunit_swift_setup: ai, the window bounds, the target, flow scaling, the endpoint
 * target and gain, now and then the paper-literal guard) and a start state (the law's initial
 * state, or a window of 2 to 100 packets, or below one packet at or above the default min_cwnd,
 * with an RTT stored), and runs RDCC_SWIFT_ACKS ACKs two ways from it: as tcp_swift's
 * cong_control does (rdcc_swift_take for an ACK without a remote delay, rdcc_swift_take_remote
 * for one with, under the parameter block of the lease's generation; else the full path:
 * rdcc_rs_kunit_swift_ack with the lease), and as the law called on every ACK. A remote delay
 * is one slot entry (struct rdcc_rqd_entry) that reaches the lease through the functions
 * rdcc_swift_remote uses (rdcc_rqd_entry_endpoint_ns, rdcc_rqd_entry_hops) and the law through
 * the full path's (rdcc_rqd_fill). Half the
 * sequences are in the remote-delay regime (7 ACKs in 8 carry a remote delay), the others see
 * one now and then. The ACKs: RTTs at the lease's targets (the whole us below and at or above
 * t_lo and t_hi, one more and one less; with a remote delay, the targets of the fabric delay
 * plus the endpoint delay), anywhere from 1 us to 300 us, the fast path's largest sample
 * (RDCC_SWIFT_RTT_US_MAX, 4.29 s) and one us more, and without a sample; now and then
 * application-limited, possibly delayed, a remote delay of 0.5 to 45 us (1 in 8 up to 120 us,
 * beyond the endpoint target and the RTT), a local Rx delay, a hop count (the state's, or any),
 * an MSS change, a parameter write (a new block, the generation bumped), a Recovery episode
 * (set_state's end of the lease, in_recovery ACKs, then Open again), a clock step back or a
 * jump past the RTT (the decrease guard opens); ACKs of nothing and of 1-3 MSS or many; any
 * clamp, srtt and sk_max_pacing_rate. After every ACK the two states must be equal as the law
 * defines them (the root hint, a guess, the two words that are dead without an EWMA or an
 * armed undo, and the bits above the EWMA left out) and the socket's window and pacing rate
 * those of the reference; a remote-delay take must keep the lease's window bound (above the
 * EWMA's bits, which the comparison leaves out).
 */
int rdcc_rs_kunit_swift_setup(u64 seed, u32 mss, void *p, struct rdcc_swift_state *s);
void rdcc_rs_kunit_swift_ack(const void *p, struct rdcc_swift_state *s,
			     const struct rdcc_ack_event *ev, u32 srtt_us, u32 clamp_pkts,
			     u32 leased, struct rdcc_enforced *e);

#define RDCC_SWIFT_SEQS 2000U
#define RDCC_SWIFT_ACKS 50U

/* The state as the law defines it (swift_lease_tests.rs `live`). */
static struct rdcc_swift_state rdcc_swift_live(const struct rdcc_swift_state *s)
{
	struct rdcc_swift_state n = *s;

	n.rtt_root &= RDCC_SWIFT_RTT_MASK;
	n.flags &= ~(RDCC_SWIFT_F_LEASE | RDCC_SWIFT_F_LEASE_SUB | RDCC_SWIFT_F_LEASE_MIN |
		     RDCC_SWIFT_F_LEASE_REMOTE);
	if (!(n.flags & RDCC_SWIFT_F_HAS_EWMA))
		n.lease_t = 0;
	else
		n.lease_t &= RDCC_SWIFT_EWMA_MASK;
	if (!(n.flags & RDCC_SWIFT_F_UNDO_ARMED))
		n.lease_w = 0;
	return n;
}

/* x mod d (64-bit, as do_div computes it). */
static u32 do_div_rem(u64 x, u32 d)
{
	return do_div(x, d);
}

/* An RTT in µs near a lease target t_ns: the whole µs below it, at or above it, or one off. */
static long rdcc_swift_near(u64 q, u64 t_ns)
{
	long lo = div_u64(t_ns, 1000), hi = div_u64(t_ns + 999, 1000);

	switch (q % 4) {
	case 0:
		return lo;
	case 1:
		return hi;
	case 2:
		return lo - 1;
	default:
		return hi + 1;
	}
}

void rdcc_glue_swift_lease(struct kunit *test)
{
	static const u32 clamps[] = { 64, 64, 0, 1, 10, U32_MAX };
	static const u32 msses[] = { 1448, 1448, 536, 9000, 65536 };
	u64 x = 0xbb67ae8584caa73bULL, pbuf[32];
	u32 seq, i, taken = 0, full = 0, taken_inc = 0, taken_remote = 0;
	struct socket *sock;
	struct tcp_sock *tp;
	struct sock *sk;
	int err;

	sk = rdcc_kunit_socket(test, &sock, true);
	tp = tcp_sk(sk);
	for (seq = 0; seq < RDCC_SWIFT_SEQS; seq++) {
		struct rdcc_swift_state sa, sb, na, nb;
		u32 mss = rdcc_kunit_pick(&x, msses, ARRAY_SIZE(msses)) % 65537 ?: 1448;
		u32 gen = 1 + rdcc_kunit_xs(&x) % 3, lg = 0, cwnd_a = 7777, cwnd_b = 7777;
		u32 recovery = 0;
		u64 now = 1ULL << 40, rate_a = 12345, rate_b = 12345, r = rdcc_kunit_xs(&x);
		/* half the sequences in the remote-delay regime: most ACKs carry a remote delay */
		u32 remote_in_32 = (r >> 8) % 2 ? 28 : 1;
		bool ok = true;

		err = rdcc_rs_kunit_swift_setup(rdcc_kunit_xs(&x), mss, pbuf, &sa);
		KUNIT_ASSERT_EQ_MSG(test, err, 0, "no parameter block");
		tp->mss_cache = mss;
		if (r % 4) {
			/* A window the law can hold (it clamps only at its bounds, which the setup
			 * keeps below 2 packets and above 4), an RTT stored. */
			switch ((r >> 4) % 4) {
			case 0:
				sa.fcwnd_q20 = (2ULL << 20) + rdcc_kunit_xs(&x) % (98ULL << 20);
				break;
			case 1:
				sa.fcwnd_q20 = (2 + rdcc_kunit_xs(&x) % 60) << 20; /* whole packets */
				break;
			case 2:
				/* below one packet: at the default min_cwnd (1049), or above it */
				sa.fcwnd_q20 = 1049 + (r & 256 ? 0 : rdcc_kunit_xs(&x) % (1 << 19));
				break;
			default:
				break;	/* the initial window */
			}
			sa.rtt_root = 1000 * (10 + rdcc_kunit_xs(&x) % 50);
		}
		sb = sa;
		inet_csk(sk)->icsk_ca_state = TCP_CA_Open;
		for (i = 0; i < RDCC_SWIFT_ACKS && ok; i++) {
			struct rdcc_ack_in in;
			struct rdcc_enforced ea = {}, eb = {};
			struct rate_sample rs = {};
			struct rdcc_rqd_entry e = {};
			u64 q = rdcc_kunit_xs(&x), q2 = rdcc_kunit_xs(&x), max_rate, w_hi_bits;
			/* The targets' edges in ns as the lease's us terms state them: rtt_us *
			 * 1000 < t_lo for an increase, >= t_hi for a hold (rdcc_swift_near draws
			 * around them). */
			u32 inc_max_us = (u32)sa.lease_t, hold_min_us = sa.lease_t >> 32;
			u64 t_lo = inc_max_us ? inc_max_us * 1000ULL + 1 : 0;
			u64 t_hi = hold_min_us * 1000ULL;
			bool fast, remote, has_lease = sa.flags & RDCC_SWIFT_F_LEASE;
			/* A remote delay: the entry's delay, local Rx delay and hop count, the
			 * endpoint delay (their sum) shifting the RTTs drawn */
			u64 q3 = rdcc_kunit_xs(&x), endpoint = 0;
			u32 rd = (q3 >> 8) % 8 ? 500 + (q3 >> 11) % 45000 : (q3 >> 11) % 120000;
			u32 lrx = (q3 >> 28) % 4 ? 0 : (q3 >> 30) % 3000;
			int hops = (q3 >> 42) % 4 ? -1 : (q3 >> 44) % 2 ? sa.hops : (q3 >> 45) % 8;

			remote = (q >> 20) % 32 < remote_in_32;
			if (remote && (sa.flags & RDCC_SWIFT_F_HAS_EWMA) && (q3 >> 48) % 8 == 0) {
				/* the sample that steps the EWMA to the endpoint target exactly:
				 * old + ceil((T - old) * 2^16 / g) (one less stays below it) */
				const struct rdcc_swift_params *bp = (const void *)pbuf;
				u64 old = sa.lease_t & RDCC_SWIFT_EWMA_MASK;
				u64 t = bp->endpoint_target_ns, g = bp->endpoint_ewma_q16;

				if (old <= t) {
					u64 want = old + div64_u64(((t - old) << 16) + g - 1, g);

					want -= (q3 >> 51) % 2;	/* or one below it */
					lrx = min_t(u64, lrx, want);
					rd = want - lrx;
				}
			}
			if (remote) {
				endpoint = (u64)rd + lrx;
				if (sa.flags & RDCC_SWIFT_F_LEASE_REMOTE) {
					/* the remote lease's targets, in ns of the fabric delay */
					has_lease = true;
					t_lo = (u32)sa.lease_w;
					t_hi = sa.lease_w >> 32;
					if ((q3 >> 52) % 4 == 0) {
						/* the fabric delay at a target exactly: the endpoint
						 * delay that makes target + endpoint whole us */
						u64 t = (q3 >> 54) % 2 ? t_lo : t_hi;

						rd += 1000 - do_div_rem(t + endpoint, 1000);
						endpoint = (u64)rd + lrx;
					}
				} else {
					has_lease = false;
				}
			}

			now += 240 + q % 1000;
			if (q2 % 64 == 0)
				now -= 1 + (q2 >> 8) % 100000;		/* the clock steps back */
			else if (q2 % 16 == 1)
				now += 50000 + (q2 >> 8) % 400000;	/* the guard opens */
			tp->tcp_clock_cache = now;
			switch (q % 16) {
			case 0: case 1: case 2: case 3:
				rs.rtt_us = has_lease && t_lo ? rdcc_swift_near(q >> 4, t_lo + endpoint)
							      : 20 + div_u64(endpoint, 1000);
				break;
			case 4: case 5: case 6: case 7:
				rs.rtt_us = has_lease ? rdcc_swift_near(q >> 4, t_hi + endpoint)
						      : 40 + div_u64(endpoint, 1000);
				break;
			case 8:
				rs.rtt_us = RDCC_SWIFT_RTT_US_MAX + (q >> 4) % 2;
				break;
			case 9:
				rs.rtt_us = (q >> 4) % 4 ? -1 : 0;	/* no sample */
				break;
			case 10:
				/* the endpoint delay just below, at or above the RTT (D8's clamp) */
				if (remote) {
					rs.rtt_us = div_u64(endpoint, 1000) + (q >> 4) % 3 - 1;
					break;
				}
				fallthrough;
			default:
				rs.rtt_us = 1 + (long)((q >> 4) % 300) + div_u64(endpoint, 1000);
				break;
			}
			rs.is_app_limited = (q >> 12) % 16 == 0;
			rs.is_ack_delayed = (q >> 17) % 8 == 0;
			rs.acked_sacked = (q2 >> 12) % 16 ? 1 + (q2 >> 16) % 3 :
				(q2 >> 20) % 2 ? 0 : (u32)((q2 >> 21) % 5000);
			if ((q2 >> 28) % 32 == 0)	/* huge: num_acked's saturation and cap */
				rs.acked_sacked = (u32)(div_u64(U32_MAX, tp->mss_cache) +
							(q2 >> 32) % 64 - 32);
			if ((q >> 24) % 64 == 0)
				tp->mss_cache = tp->mss_cache == mss ? mss + 8 : mss;
			if ((q >> 30) % 64 == 0) {
				/* A parameter write: a new block (for both), the generation bumped. */
				struct rdcc_swift_state scratch;

				err = rdcc_rs_kunit_swift_setup(rdcc_kunit_xs(&x), mss, pbuf, &scratch);
				KUNIT_ASSERT_EQ_MSG(test, err, 0, "no parameter block");
				gen = gen % 3 + 1;
			}
			if (!recovery && (q >> 36) % 64 == 0) {
				recovery = 1 + (q >> 42) % 4;	/* set_state(Recovery) */
				inet_csk(sk)->icsk_ca_state = TCP_CA_Recovery;
				rdcc_swift_end(&sa);
			} else if (recovery && !--recovery) {
				inet_csk(sk)->icsk_ca_state = TCP_CA_Open;
			}
			tp->snd_una += rs.acked_sacked * tp->mss_cache;
			tp->snd_nxt = tp->snd_una + 10 * tp->mss_cache;
			tp->snd_cwnd_clamp = rdcc_kunit_pick(&x, clamps, ARRAY_SIZE(clamps));
			tp->srtt_us = (q2 >> 40) % 8 ? (u32)(rdcc_kunit_xs(&x) % (1U << 20)) : 0;
			max_rate = q & 1 ? ~0ULL : rdcc_kunit_xs(&x) >> ((q >> 56) % 64);
			WRITE_ONCE(sk->sk_max_pacing_rate, max_rate);
			rdcc_fill_ack_in(sk, &rs, &in);
			if (remote) {
				/* the slot's entry, as the hook stores it (the identity fields are
				 * rdcc_swift_remote's checks, not the law's) */
				e.delay_ns = rd;
				e.flags = RQD_E_VALID;
				if (lrx) {
					e.local_rx_ns = lrx;
					e.flags |= RQD_E_LOCAL_RX;
				} else {
					e.local_rx_ns = (u32)q3;	/* not read without the flag */
				}
				if (hops >= 0) {
					e.hops = hops;
					e.flags |= RQD_E_HOPS;
				} else {
					e.hops = (u8)(q3 >> 8);		/* likewise */
				}
				rdcc_rqd_fill(&e, &in.ev);
			}

			/* The glue as built: the fast path of the ACK's regime (the remote one
			 * under the lease's parameter block: the generations equal), else the full
			 * path (the lease ended, the law, the next grant). */
			tcp_snd_cwnd_set(tp, cwnd_a);
			WRITE_ONCE(sk->sk_pacing_rate, rate_a);
			w_hi_bits = sa.lease_t >> RDCC_SWIFT_EWMA_BITS;
			if (remote)
				fast = lg == gen &&
				       rdcc_swift_take_remote(sk, &rs, &sa,
							      (const struct rdcc_swift_params *)pbuf,
							      rdcc_rqd_entry_endpoint_ns(&e),
							      rdcc_rqd_entry_hops(&e));
			else
				fast = rdcc_swift_take(sk, &rs, &sa, lg, gen);
			if (fast) {
				if (remote && sa.lease_t >> RDCC_SWIFT_EWMA_BITS != w_hi_bits) {
					KUNIT_FAIL(test, "sequence %u ACK %u: the remote lease's bound %llu became %llu",
						   seq, i, w_hi_bits, sa.lease_t >> RDCC_SWIFT_EWMA_BITS);
					ok = false;
					break;
				}
				taken++;
				taken_remote += remote;
				taken_inc += remote ? rs.rtt_us * 1000 - endpoint < t_lo
						    : rs.rtt_us * 1000 < t_lo;
			} else {
				full++;
				rdcc_rs_kunit_swift_ack(pbuf, &sa, &in.ev, in.srtt_us, in.clamp_pkts,
							1, &ea);
				lg = gen;
				if (ea.cwnd_pkts) {
					tcp_snd_cwnd_set(tp, ea.cwnd_pkts);
					WRITE_ONCE(sk->sk_pacing_rate,
						   min_t(u64, ea.pacing_rate_bps, max_rate));
				}
			}
			cwnd_a = tcp_snd_cwnd(tp);
			rate_a = READ_ONCE(sk->sk_pacing_rate);
			/* The reference: the law on every ACK. */
			rdcc_rs_kunit_swift_ack(pbuf, &sb, &in.ev, in.srtt_us, in.clamp_pkts, 0, &eb);
			if (eb.cwnd_pkts) {
				cwnd_b = eb.cwnd_pkts;
				rate_b = min_t(u64, eb.pacing_rate_bps, max_rate);
			}
			na = rdcc_swift_live(&sa);
			nb = rdcc_swift_live(&sb);
			ok = !memcmp(&na, &nb, sizeof(na)) && cwnd_a == cwnd_b && rate_a == rate_b;
			if (!ok)
				KUNIT_FAIL(test,
					   "sequence %u ACK %u (%s, rtt %ld us, acked %u, delayed %d, app %d, t_lo %llu t_hi %llu): window C %u law %u, rate C %llu law %llu; fcwnd %llu/%llu rtt %llu/%llu t_f %llu/%llu t_e %llu/%llu pending %u/%u fabric %u/%u misses %u/%u flags %u/%u",
					   seq, i, fast ? "fast" : "full", rs.rtt_us, rs.acked_sacked,
					   rs.is_ack_delayed, rs.is_app_limited, t_lo, t_hi, cwnd_a, cwnd_b,
					   rate_a, rate_b, na.fcwnd_q20, nb.fcwnd_q20, na.rtt_root,
					   nb.rtt_root, na.t_last_decrease_f_ns, nb.t_last_decrease_f_ns,
					   na.t_last_decrease_e_ns, nb.t_last_decrease_e_ns,
					   na.pending_acked_bytes, nb.pending_acked_bytes, na.fabric_delay_ns,
					   nb.fabric_delay_ns, na.endpoint_misses, nb.endpoint_misses,
					   sa.flags, sb.flags);
		}
		if (!ok)
			break;
	}
	inet_csk(sk)->icsk_ca_state = TCP_CA_Open;
	release_sock(sk);
	sock_release(sock);
	kunit_info(test,
		   "%u ACKs on the fast path (%u increases, %u with a remote delay), %u on the full path\n",
		   taken, taken_inc, taken_remote, full);
	/* Non-vacuity: both paths, and increases among the fast ACKs. */
	KUNIT_EXPECT_GT_MSG(test, taken, RDCC_SWIFT_SEQS * RDCC_SWIFT_ACKS / 10, "fast path rare");
	KUNIT_EXPECT_GT_MSG(test, taken_inc, RDCC_SWIFT_SEQS * RDCC_SWIFT_ACKS / 50,
			    "fast increases rare");
	KUNIT_EXPECT_GT_MSG(test, full, RDCC_SWIFT_SEQS * RDCC_SWIFT_ACKS / 20, "full path rare");
	KUNIT_EXPECT_GT_MSG(test, taken_remote, RDCC_SWIFT_SEQS * RDCC_SWIFT_ACKS / 20,
			    "fast remote-delay ACKs rare");
}
