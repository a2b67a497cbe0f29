// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdcc_kunit_glue.c - the KUnit suites of the rdcc laws (test module rdcc_kunit.ko).
 *
 * One suite per law, rdcc_<ca name>, each with two cases: the law's shared vector table (the same
 * tables the host tests run, core/src/<law>_vectors.rs) and a randomized bounds check (16 seeds x
 * 2000 events, hostile values included). The Rust entry points are in modules/glue/kunit.rs.
 * And the suite rdcc_glue: the per-ACK event the C glue builds (rdcc_event.h), field by field,
 * on a real socket, and the hold leases' C fast paths (rdcc_lease.h, rdcc_lease_theta.h) against
 * their Rust transcriptions. Built only for kernels with CONFIG_KUNIT (modules/Kbuild); no
 * product module contains this.
 */
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/net.h>
#include <kunit/test.h>
#include <net/tcp.h>

#include "rdcc_abi.h"
#include "rdcc_event.h"
#include "rdcc_lease.h"
#include "rdcc_lease_theta.h"

struct rdcc_kunit_report {
	u32 cases;		/* cases passed */
	u32 failed_case;	/* index of the first failing case, or U32_MAX */
	u32 failed_step;
	u64 got_cwnd_q16, want_cwnd_q16, got_rate, want_rate;
	u32 got_reason, want_reason;
	char name[48];
};

#define RDCC_KUNIT_SEEDS 16
#define RDCC_KUNIT_STEPS 2000

static void rdcc_kunit_check_vectors(struct kunit *test, int err, const struct rdcc_kunit_report *r)
{
	KUNIT_EXPECT_EQ_MSG(test, err, 0,
			    "case %u '%s' step %u: cwnd_q16 %llu (want %llu), rate %llu (want %llu), reason %u (want %u)",
			    r->failed_case, r->name, r->failed_step, r->got_cwnd_q16, r->want_cwnd_q16,
			    r->got_rate, r->want_rate, r->got_reason, r->want_reason);
	KUNIT_EXPECT_GT_MSG(test, r->cases, 0U, "no vector cases ran");
	kunit_info(test, "%u vector cases passed\n", r->cases);
}

/* One suite per law: its two Rust entry points, two cases, the suite named rdcc_<ca name>. */
#define RDCC_KUNIT_SUITE(law)                                                                  \
	int rdcc_rs_kunit_##law##_vectors(struct rdcc_kunit_report *r);                       \
	int rdcc_rs_kunit_##law##_bounds(u64 seed, u32 steps, char *msg, u32 msg_len);        \
	static void rdcc_kunit_##law##_vectors(struct kunit *test)                            \
	{                                                                                      \
		struct rdcc_kunit_report r = { .failed_case = U32_MAX };                       \
		int err = rdcc_rs_kunit_##law##_vectors(&r);                                   \
		rdcc_kunit_check_vectors(test, err, &r);                                       \
	}                                                                                      \
	static void rdcc_kunit_##law##_bounds(struct kunit *test)                             \
	{                                                                                      \
		char msg[128] = "";                                                            \
		u64 seed;                                                                      \
		for (seed = 1; seed <= RDCC_KUNIT_SEEDS; seed++) {                             \
			int err = rdcc_rs_kunit_##law##_bounds(seed, RDCC_KUNIT_STEPS, msg,    \
							       sizeof(msg));                   \
			KUNIT_ASSERT_EQ_MSG(test, err, 0, "seed %llu: %s", seed, msg);         \
		}                                                                              \
	}                                                                                      \
	static struct kunit_case rdcc_kunit_##law##_cases[] = {                               \
		KUNIT_CASE_SLOW(rdcc_kunit_##law##_vectors),                                   \
		KUNIT_CASE_SLOW(rdcc_kunit_##law##_bounds),                                    \
		{}                                                                             \
	};                                                                                     \
	static struct kunit_suite rdcc_kunit_##law##_suite = {                                \
		.name = "rdcc_" #law,                                                          \
		.test_cases = rdcc_kunit_##law##_cases,                                        \
	}

RDCC_KUNIT_SUITE(swift);
RDCC_KUNIT_SUITE(swift_vaisf);
RDCC_KUNIT_SUITE(timely);
RDCC_KUNIT_SUITE(theta_powertcp);

/*
 * rdcc_glue_event: rdcc_fill_ack_in (what every product module's cong_control hands the law) on
 * a real TCP socket, each field against its definition: in flight = packets_out - (sacked_out +
 * lost_out) + retrans_out packets (tcp_packets_in_flight) times the MSS, saturating at U32_MAX
 * like acked_sacked x MSS; the RTT flag only for a positive rs->rtt_us (Karn: -1 is none);
 * srtt rounded up to whole us; Recovery and Loss set IN_RECOVERY, Disorder does not. The fields
 * no glue code fills (delivered_bytes, remote delay, hops, telemetry) must be 0 whatever the
 * memory held before. TIMELY's round gate read inflight_bytes while the glue left it 0 (the gate
 * then never closed in the kernel): this case is the check that was missing.
 */
struct rdcc_event_case {
	const char *name;
	u32 mss, packets_out, sacked_out, lost_out, retrans_out, acked_sacked, srtt_x8, clamp;
	long rtt_us;
	bool app_limited, ack_delayed;
	s32 delivered_ce;
	u8 ca_state;
	/* expected, derived by hand from the definitions above */
	u32 want_inflight, want_acked, want_flags, want_srtt_us;
	u64 want_rtt_ns;
};

static const struct rdcc_event_case rdcc_event_cases[] = {
	{ "dc stream: 40 in flight, 2 acked, 25 us", 1448, 40, 0, 0, 0, 2, 8 * 25 + 3, 64, 25,
	  false, false, 0, TCP_CA_Open,
	  40 * 1448, 2 * 1448, RDCC_ACK_HAS_RTT, 26, 25000 },
	{ "recovery: 3 sacked, 2 lost, 1 retransmitted; no RTT sample", 1448, 40, 3, 2, 1, 1,
	  8 * 100, 64, -1, true, true, 1, TCP_CA_Recovery,
	  (40 - (3 + 2) + 1) * 1448, 1448,
	  RDCC_ACK_APP_LIMITED | RDCC_ACK_DELAYED | RDCC_ACK_ECE | RDCC_ACK_IN_RECOVERY, 100, 0 },
	{ "saturation: 10^6 packets of 9000 B in flight and acked", 9000, 1000000, 0, 0, 0,
	  1000000, 8 * 7 + 1, 100000, 7, false, false, 0, TCP_CA_Loss,
	  U32_MAX, U32_MAX, RDCC_ACK_HAS_RTT | RDCC_ACK_IN_RECOVERY, 8, 7000 },
	{ "empty pipe, no srtt yet, Disorder", 1448, 0, 0, 0, 0, 0, 0, 10, 0, false, false, 0,
	  TCP_CA_Disorder, 0, 0, 0, 0, 0 },
	/* Each rate-sample flag alone, and CWR (just below Recovery): a builder that swapped two
	 * flags, or compared the state with the wrong bound, fails one of these. */
	{ "app-limited only, 12 us", 1448, 10, 0, 0, 0, 1, 8 * 12, 64, 12, true, false, 0,
	  TCP_CA_Open, 10 * 1448, 1448, RDCC_ACK_HAS_RTT | RDCC_ACK_APP_LIMITED, 12, 12000 },
	{ "delayed ACK only, 4 of 20 lost", 1000, 20, 0, 4, 0, 2, 8 * 50 + 7, 32, 50, false, true,
	  0, TCP_CA_Open, (20 - 4) * 1000, 2000, RDCC_ACK_HAS_RTT | RDCC_ACK_DELAYED, 51, 50000 },
	{ "CE in CWR, rtt_us 0 (no sample)", 1448, 5, 1, 0, 2, 3, 8 * 200, 64, 0, false, false, 2,
	  TCP_CA_CWR, (5 - 1 + 2) * 1448, 3 * 1448, RDCC_ACK_ECE, 200, 0 },
};

static void rdcc_glue_event(struct kunit *test)
{
	const struct rdcc_event_case *c;
	struct socket *sock;
	struct tcp_sock *tp;
	struct sock *sk;
	int err;

	err = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP, &sock);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "sock_create_kern");
	sk = sock->sk;
	tp = tcp_sk(sk);
	for (c = rdcc_event_cases; c < rdcc_event_cases + ARRAY_SIZE(rdcc_event_cases); c++) {
		struct rate_sample rs = {
			.rtt_us = c->rtt_us,
			.acked_sacked = c->acked_sacked,
			.is_app_limited = c->app_limited,
			.is_ack_delayed = c->ack_delayed,
			.delivered_ce = c->delivered_ce,
		};
		struct rdcc_ack_in in;
		const struct rdcc_ack_event *ev = &in.ev;
		u64 now = 1000000007ULL * (c - rdcc_event_cases + 1);

		lock_sock(sk);
		tp->mss_cache = c->mss;
		tp->packets_out = c->packets_out;
		tp->sacked_out = c->sacked_out;
		tp->lost_out = c->lost_out;
		tp->retrans_out = c->retrans_out;
		tp->srtt_us = c->srtt_x8;
		tp->snd_cwnd_clamp = c->clamp;
		tp->snd_una = 0xfffff000U + (u32)(c - rdcc_event_cases);
		tp->snd_nxt = tp->snd_una + c->packets_out * c->mss;
		tp->tcp_clock_cache = now;
		inet_csk(sk)->icsk_ca_state = c->ca_state;
		memset(&in, 0xa5, sizeof(in));	/* every field must be written */
		rdcc_fill_ack_in(sk, &rs, &in);
		KUNIT_EXPECT_EQ_MSG(test, ev->now_ns, now, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ev->rtt_ns, c->want_rtt_ns, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ev->acked_bytes, c->want_acked, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ev->inflight_bytes, c->want_inflight, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ev->mss_bytes, c->mss, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ev->snd_una, tp->snd_una, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ev->snd_nxt, tp->snd_nxt, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ev->flags, c->want_flags, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, in.srtt_us, c->want_srtt_us, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, in.clamp_pkts, c->clamp, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ev->delivered_bytes, 0ULL, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ev->remote_delay_ns, 0ULL, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ev->hops, 0, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ev->local_rx_delay_ns, 0U, "%s", c->name);
		KUNIT_EXPECT_EQ_MSG(test, ev->telemetry, 0ULL, "%s", c->name);
		/* Packet counters and CA state back to their initial values for the release below
		 * (on a TCP_CLOSE socket nothing there reads the other fields set above). */
		tp->packets_out = 0;
		tp->sacked_out = 0;
		tp->lost_out = 0;
		tp->retrans_out = 0;
		inet_csk(sk)->icsk_ca_state = TCP_CA_Open;
		release_sock(sk);
	}
	sock_release(sock);
}

/*
 * rdcc_glue_lease: the hold lease's fast path in C (rdcc_lease_take, rdcc_lease.h: what
 * tcp_timely's cong_control runs on most ACKs) against its Rust transcription Lease::try_take
 * (rdcc_rs_kunit_lease_take), which the host tests tie to the law
 * (core/tests/lease_equivalence.rs), on a real socket. Random leases and socket fields, mostly
 * at a boundary: the generation (same, next, 0), the MSS (same or not; 0, 1, 88, 65535), each
 * CA state, the clock at the last covered ns, the first ns after the span, inside it or before
 * since_ns, a room at, one above or one below what the ACK needs, clamps 0, 1 and U32_MAX,
 * acked_sacked 0 and U32_MAX, any sk_max_pacing_rate. Both must agree on whether the lease
 * covers the ACK and on the lease afterwards; when it does, the C must have set exactly the
 * Rust's window and rate (capped by sk_max_pacing_rate, as rdcc_set does), else nothing.
 */
bool rdcc_rs_kunit_lease_take(struct rdcc_lease *l, u32 gen, u32 mss, u64 now_ns, u32 acked_pkts,
			      bool in_recovery, u32 clamp_pkts, struct rdcc_enforced *e);

static u64 rdcc_kunit_xs(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* An edge value most of the time, anything otherwise. */
static u32 rdcc_kunit_pick(u64 *x, const u32 *edges, unsigned int n)
{
	u64 r = rdcc_kunit_xs(x);

	return r % 8 ? edges[(r >> 8) % n] : (u32)(r >> 32);
}

#define RDCC_LEASE_STEPS 100000U

static void rdcc_glue_lease(struct kunit *test)
{
	static const u32 msses[] = { 1448, 1448, 9000, 0, 1, 88, 65535 };
	static const u32 clamps[] = { 64, 64, 0, 1, 2, 10, U32_MAX };
	static const u32 pkts[] = { 2, 2, 1, 0, 3, 64, U32_MAX };
	static const u8 states[] = { TCP_CA_Open, TCP_CA_Open, TCP_CA_Open, TCP_CA_Disorder,
				     TCP_CA_CWR, TCP_CA_Recovery, TCP_CA_Loss };
	u64 x = 0x2545f4914f6cdd1dULL;
	struct socket *sock;
	struct tcp_sock *tp;
	struct sock *sk;
	u32 i, taken = 0;
	int err;

	err = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP, &sock);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "sock_create_kern");
	sk = sock->sk;
	tp = tcp_sk(sk);
	lock_sock(sk);
	for (i = 0; i < RDCC_LEASE_STEPS; i++) {
		struct rate_sample rs = {};
		struct rdcc_enforced e = {};
		struct rdcc_lease a, b;
		u64 now = rdcc_kunit_xs(&x), r = rdcc_kunit_xs(&x);
		u64 span_ns, age, max_rate, rate;
		u32 gen = 1 + rdcc_kunit_xs(&x) % 3, bytes, cwnd;
		bool got, want, ok;

		tp->mss_cache = rdcc_kunit_pick(&x, msses, ARRAY_SIZE(msses));
		tp->snd_cwnd_clamp = rdcc_kunit_pick(&x, clamps, ARRAY_SIZE(clamps));
		inet_csk(sk)->icsk_ca_state = states[rdcc_kunit_xs(&x) % ARRAY_SIZE(states)];
		max_rate = r & 1 ? ~0ULL : rdcc_kunit_xs(&x) >> (r % 64);
		WRITE_ONCE(sk->sk_max_pacing_rate, max_rate);
		tp->tcp_clock_cache = now;
		rs.acked_sacked = rdcc_kunit_pick(&x, pkts, ARRAY_SIZE(pkts));
		bytes = (u32)min_t(u64, (u64)rs.acked_sacked * tp->mss_cache, U32_MAX);

		/* A lease near this socket's values. */
		a.gen = r % 8 ? gen : (r % 16 ? gen + 1 : 0);
		a.mss = r % 7 ? (u16)tp->mss_cache : (u16)(r >> 16);
		a.span = (r >> 8) % 4 ? (u16)(rdcc_kunit_xs(&x) % 600) : (u16)(r >> 40);
		span_ns = (u64)a.span << RDCC_LEASE_SPAN_SHIFT;
		switch ((r >> 12) % 4) {
		case 0:
			age = span_ns - 1;	/* the last covered ns (span 0: wraps, none) */
			break;
		case 1:
			age = span_ns;		/* the first ns after the span */
			break;
		case 2:
			age = span_ns ? rdcc_kunit_xs(&x) % span_ns : 0;	/* inside */
			break;
		default:
			age = 0 - (1 + (r >> 44));	/* the clock before since_ns */
			break;
		}
		a.since_ns = now - age;
		a.absorbed_bytes = (u32)(rdcc_kunit_xs(&x) % 200000);
		/* One below, at or one above what this ACK needs (in u64: 0 - 1 wraps to the top and
		 * the min makes it U32_MAX); sometimes anything. */
		a.room_bytes = (u32)min_t(u64, (u64)a.absorbed_bytes + bytes + (r >> 24) % 3 - 1,
					  U32_MAX);
		if ((r >> 28) % 8 == 0)
			a.room_bytes = (u32)rdcc_kunit_xs(&x);
		/* What Lease::grant produces: a rate below 2^40, packets in [2, 2^24). */
		a.rate_pkts = (rdcc_kunit_xs(&x) & ((1ULL << RDCC_LEASE_RATE_BITS) - 1)) |
			      ((2 + rdcc_kunit_xs(&x) % ((1ULL << 24) - 2)) << RDCC_LEASE_RATE_BITS);
		b = a;

		tcp_snd_cwnd_set(tp, 7777);	/* sentinels: what a refused lease leaves */
		WRITE_ONCE(sk->sk_pacing_rate, 12345);
		got = rdcc_lease_take(sk, &rs, &a, gen);
		want = rdcc_rs_kunit_lease_take(&b, gen, tp->mss_cache, now, rs.acked_sacked,
						inet_csk(sk)->icsk_ca_state >= TCP_CA_Recovery,
						tp->snd_cwnd_clamp, &e);
		cwnd = tcp_snd_cwnd(tp);
		rate = READ_ONCE(sk->sk_pacing_rate);
		ok = got == want && !memcmp(&a, &b, sizeof(a)) &&
		     (got ? cwnd == e.cwnd_pkts && rate == min_t(u64, e.pacing_rate_bps, max_rate) :
			    cwnd == 7777 && rate == 12345);
		if (!ok) {
			KUNIT_FAIL(test,
				   "step %u: C took %d, Rust %d; C set cwnd %u rate %llu, Rust cwnd %u rate %llu; absorbed C %u Rust %u",
				   i, got, want, cwnd, rate, e.cwnd_pkts, e.pacing_rate_bps,
				   a.absorbed_bytes, b.absorbed_bytes);
			break;
		}
		taken += got;
	}
	inet_csk(sk)->icsk_ca_state = TCP_CA_Open;
	release_sock(sk);
	sock_release(sock);
	/* Non-vacuity: about 12 % of the steps should be covered (an estimate, not measured). */
	KUNIT_EXPECT_GT_MSG(test, taken, RDCC_LEASE_STEPS / 20, "the lease was rarely taken");
}

/*
 * rdcc_glue_theta_lease: θ-PowerTCP's hold-lease fast path in C (rdcc_theta_take,
 * rdcc_lease_theta.h: what tcp_theta_powertcp's cong_control runs on most ACKs, including the
 * Alg. 2 line 21 division) against its Rust transcription ThetaLease::take, whose average is
 * the law's own smooth() (rdcc_rs_kunit_theta_take), on a real socket. Random states, leases and
 * socket fields, mostly at a boundary: the keys (generation, MSS, clamp: the same or not), the
 * sample (-1, 0, 1, 18-29 us, the largest taken, one above, LONG_MAX), the clock (dt 0, 1, 239,
 * tau - 1, tau, tau + 1, a step back), update_ns (at last_ack_ns, before it, now - rtt and one
 * either side, 2^32 back), marker_seq (snd_una - 1, + 0, + 1, + 2^31), the average (0, 1,
 * 24000, U32_MAX), tau (1 us, 20 us, 1 s, any between), the window and rate as the grant makes
 * them, any sk_max_pacing_rate. Both run on copies of the same state and lease, with the due
 * record filled with the same pattern. They must agree on the outcome, the state afterwards
 * (memcmp, padding included) and the due record; on HOLD the C must have set exactly the Rust's
 * window and rate (capped by sk_max_pacing_rate), else nothing.
 */
int rdcc_rs_kunit_theta_take(const struct rdcc_theta_lease *l, struct rdcc_theta_state *s,
			     u32 gen, u32 mss, u32 clamp_pkts, u64 now_ns, long rtt_us, u32 snd_una,
			     struct rdcc_enforced *e, struct rdcc_theta_due_in *due);

#define RDCC_THETA_STEPS 100000U

/* An edge of u64 values most of the time (7 in 8), anything otherwise. */
static u64 rdcc_kunit_pick64(u64 *x, const u64 *edges, unsigned int n)
{
	u64 r = rdcc_kunit_xs(x);

	return r % 8 ? edges[(r >> 8) % n] : rdcc_kunit_xs(x);
}

static void rdcc_glue_theta_lease(struct kunit *test)
{
	static const u32 msses[] = { 1448, 1448, 9000, 0, 1, 88, 65535 };
	static const u32 clamps[] = { 64, 64, 0, 1, 10, U32_MAX, U32_MAX };
	static const u64 taus[] = { 20000, 20000, 1000, 1000000000 };
	static const u64 avgs[] = { 0, 1, 24000, U32_MAX };
	u64 x = 0x9e3779b97f4a7c15ULL;
	u32 i, outcomes[3] = {};
	struct socket *sock;
	struct tcp_sock *tp;
	struct sock *sk;
	int err;

	err = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP, &sock);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "sock_create_kern");
	sk = sock->sk;
	tp = tcp_sk(sk);
	lock_sock(sk);
	for (i = 0; i < RDCC_THETA_STEPS; i++) {
		struct rdcc_theta_state sa, sb;
		struct rdcc_theta_due_in da, db;
		struct rdcc_theta_lease l;
		struct rdcc_enforced e = {};
		struct rate_sample rs = {};
		u64 now = rdcc_kunit_xs(&x), r = rdcc_kunit_xs(&x), r2 = rdcc_kunit_xs(&x);
		u64 max_rate, rate, tau, edge_rtt, dts[8];
		u32 gen = 1 + rdcc_kunit_xs(&x) % 3, cwnd;
		int got, want;
		bool ok;

		tp->mss_cache = rdcc_kunit_pick(&x, msses, ARRAY_SIZE(msses));
		tp->snd_cwnd_clamp = rdcc_kunit_pick(&x, clamps, ARRAY_SIZE(clamps));
		tp->snd_una = (u32)rdcc_kunit_xs(&x);
		tp->tcp_clock_cache = now;
		max_rate = r & 1 ? ~0ULL : rdcc_kunit_xs(&x) >> (r % 64);
		WRITE_ONCE(sk->sk_max_pacing_rate, max_rate);
		switch ((r >> 1) % 10) {
		case 0:
			rs.rtt_us = -1;		/* no sample (Karn) */
			break;
		case 1:
			rs.rtt_us = 0;
			break;
		case 2:
			rs.rtt_us = 1;
			break;
		case 3:
			rs.rtt_us = RDCC_THETA_RTT_US_MAX;	/* the largest taken */
			break;
		case 4:
			rs.rtt_us = RDCC_THETA_RTT_US_MAX + 1;
			break;
		case 5:
			rs.rtt_us = LONG_MAX;
			break;
		case 6:
			rs.rtt_us = (long)rdcc_kunit_xs(&x);
			break;
		default:
			rs.rtt_us = 18 + (long)(rdcc_kunit_xs(&x) % 12);
			break;
		}
		/* The sample in ns where it is one the fast path takes, for the update_ns edges. */
		edge_rtt = rs.rtt_us > 0 && rs.rtt_us <= (long)RDCC_THETA_RTT_US_MAX ?
			   (u64)rs.rtt_us * NSEC_PER_USEC : 25000;

		/* A lease as ThetaLease::grant makes one, near this socket's keys. */
		memset(&l, 0, sizeof(l));
		l.gen = r % 8 ? gen : (r % 16 ? gen + 1 : 0);
		l.mss = (r >> 8) % 7 ? (u16)tp->mss_cache : (u16)(r >> 16);
		l.clamp = (r >> 12) % 7 ? tp->snd_cwnd_clamp : tp->snd_cwnd_clamp + 1;
		tau = rdcc_kunit_pick64(&x, taus, ARRAY_SIZE(taus));
		if (tau < 1000 || tau > 1000000000)
			tau = 1000 + tau % (1000000000 - 999);	/* in [1 us, 1 s], as granted */
		l.tau_ns = (u32)tau;
		l.cwnd_pkts = 1 + (u32)(rdcc_kunit_xs(&x) % ((1U << 24) - 1));
		l.rate_bps = 1 + rdcc_kunit_xs(&x) % ((1ULL << 40) - 1);

		/* A state around this ACK: every field random, the four the take reads at edges. */
		memset(&sa, 0, sizeof(sa));
		sa.cwnd_q16 = rdcc_kunit_xs(&x);
		sa.prev_cwnd_q16 = rdcc_kunit_xs(&x);
		sa.power_smooth_q16 = rdcc_kunit_xs(&x);
		sa.undo_cwnd_q16 = rdcc_kunit_xs(&x);
		sa.prev_rtt_ns = (u32)rdcc_kunit_xs(&x);
		sa.min_rtt_ns = (u32)rdcc_kunit_xs(&x);
		sa.flags = (u32)rdcc_kunit_xs(&x);
		dts[0] = 0;
		dts[1] = 1;
		dts[2] = 239;
		dts[3] = tau - 1;
		dts[4] = tau;
		dts[5] = tau + 1;
		dts[6] = (u64)-1;	/* last_ack_ns one after now: the clock stepped back */
		dts[7] = rdcc_kunit_xs(&x) % (4 * tau);
		sa.last_ack_ns = now - (r2 % 8 ? dts[(r2 >> 8) % 8] : rdcc_kunit_xs(&x));
		switch ((r2 >> 16) % 7) {
		case 0:
			sa.update_ns = sa.last_ack_ns;
			break;
		case 1:
			sa.update_ns = sa.last_ack_ns - rdcc_kunit_xs(&x) % 1000;
			break;
		case 2:
			sa.update_ns = now - edge_rtt;		/* now - update_ns = rtt: not due */
			break;
		case 3:
			sa.update_ns = now - edge_rtt - 1;	/* one over: due */
			break;
		case 4:
			sa.update_ns = now - edge_rtt + 1;
			break;
		case 5:
			sa.update_ns = now - RDCC_THETA_LIFE_NS - (r2 >> 40) % 2; /* no-sample life */
			break;
		default:
			sa.update_ns = rdcc_kunit_xs(&x);
			break;
		}
		switch ((r2 >> 20) % 6) {
		case 0:
			sa.marker_seq = tp->snd_una - 1;	/* snd_una past it: due */
			break;
		case 1:
			sa.marker_seq = tp->snd_una;		/* at it: due */
			break;
		case 2:
			sa.marker_seq = tp->snd_una + 1;	/* before it: not due */
			break;
		case 3:
			sa.marker_seq = tp->snd_una + (1U << 31);
			break;
		default:
			sa.marker_seq = (u32)rdcc_kunit_xs(&x);
			break;
		}
		sa.rtt_smooth_ns = (u32)rdcc_kunit_pick64(&x, avgs, ARRAY_SIZE(avgs));
		memcpy(&sb, &sa, sizeof(sa));
		memset(&da, 0xa5, sizeof(da));
		memset(&db, 0xa5, sizeof(db));

		tcp_snd_cwnd_set(tp, 7777);	/* sentinels: what a FULL or DUE leaves */
		WRITE_ONCE(sk->sk_pacing_rate, 12345);
		got = rdcc_theta_take(sk, &rs, &l, &sa, gen, &da);
		cwnd = tcp_snd_cwnd(tp);
		rate = READ_ONCE(sk->sk_pacing_rate);
		want = rdcc_rs_kunit_theta_take(&l, &sb, gen, tp->mss_cache, tp->snd_cwnd_clamp, now,
						rs.rtt_us, tp->snd_una, &e, &db);
		ok = got == want && got >= RDCC_THETA_FULL && got <= RDCC_THETA_DUE &&
		     !memcmp(&sa, &sb, sizeof(sa)) && !memcmp(&da, &db, sizeof(da)) &&
		     (got == RDCC_THETA_HOLD ?
			      cwnd == e.cwnd_pkts && rate == min_t(u64, e.pacing_rate_bps, max_rate) :
			      cwnd == 7777 && rate == 12345);
		if (!ok) {
			KUNIT_FAIL(test,
				   "step %u: C %d, Rust %d; avg C %u Rust %u; last_ack C %llu Rust %llu; due avg C %u Rust %u; C set cwnd %u rate %llu, Rust cwnd %u rate %llu",
				   i, got, want, sa.rtt_smooth_ns, sb.rtt_smooth_ns, sa.last_ack_ns,
				   sb.last_ack_ns, da.rtt_smooth_ns, db.rtt_smooth_ns, cwnd, rate,
				   e.cwnd_pkts, e.pacing_rate_bps);
			break;
		}
		outcomes[got]++;
	}
	release_sock(sk);
	sock_release(sock);
	/* Non-vacuity: each outcome in at least 1 step in 20 (estimated: HOLD and DUE ~15 %). */
	KUNIT_EXPECT_GT_MSG(test, outcomes[RDCC_THETA_FULL], RDCC_THETA_STEPS / 20, "FULL rare");
	KUNIT_EXPECT_GT_MSG(test, outcomes[RDCC_THETA_HOLD], RDCC_THETA_STEPS / 20, "HOLD rare");
	KUNIT_EXPECT_GT_MSG(test, outcomes[RDCC_THETA_DUE], RDCC_THETA_STEPS / 20, "DUE rare");
}

/*
 * rdcc_glue_theta_update: θ-PowerTCP's due path in C (rdcc_theta_update, rdcc_lease_theta.h: the
 * once-per-RTT update, its enforcement and the next lease, which tcp_theta_powertcp runs on a due
 * ACK) against the Rust due path itself, powertcp::on_due and Decision::enforce as this kernel's
 * Rust build compiles them (rdcc_rs_kunit_theta_due), on a real socket. Each step draws a
 * parameter block (rdcc_rs_kunit_theta_params: Params::new on an edge Config, read here as
 * struct rdcc_theta_params), a lease, a state and socket fields at the update's edges: the
 * previous RTT at the sample, one either side, 0 and U32_MAX (the gradient's cap and floor); the
 * span since the last update at the sample (with snd_una at the marker), one over, below 2^16 ns
 * (the cap) and 2^32 + 2^30; the average 0 and U32_MAX (the power's floor); windows outside the bounds; the marker
 * either side of snd_una and 2^31 away; now at RDCC_THETA_UPDATE_MAX_NS and one over; an update
 * time after now; a lease of another τ; a generation bumped since the take. It keeps the steps
 * whose take (rdcc_theta_take, which runs first in cong_control) says DUE, and runs both on
 * copies. The C must be DONE exactly when the Rust ran the update on the lease's premises and
 * granted a lease (and now > update_ns, which a live lease guarantees); then the state and the
 * lease must equal the Rust's (memcmp, padding included) and snd_cwnd and sk_pacing_rate what
 * rdcc_set sets for its enforcement; otherwise nothing may change.
 */
u64 rdcc_rs_kunit_theta_params(u64 seed, struct rdcc_theta_params *out);
void rdcc_rs_kunit_theta_due(const struct rdcc_theta_params *p, struct rdcc_theta_state *s,
			     const struct rdcc_theta_due_in *in, struct rdcc_theta_lease *l, u32 gen,
			     struct rdcc_enforced *e);

#define RDCC_THETA_UPD_STEPS 100000U

/* A window in [lo, hi] (lo <= hi), at an end one time in four, outside one time in eight. */
static u64 rdcc_kunit_window(u64 *x, u64 lo, u64 hi)
{
	u64 r = rdcc_kunit_xs(x);

	switch (r % 8) {
	case 0:
		return lo;
	case 1:
		return hi;
	case 2:
		return r & 256 ? lo - 1 - (r >> 20) % lo : hi + 1 + (r >> 20) % 4096; /* outside */
	default:
		return lo + rdcc_kunit_xs(x) % (hi - lo + 1);
	}
}

static void rdcc_glue_theta_update(struct kunit *test)
{
	static const u32 msses[] = { 1448, 1448, 9000, 0, 1, 88, 65535 };
	static const u32 clamps[] = { 64, 64, 0, 1, 10, U32_MAX };
	u64 x = 0x2545f4914f6cdd1dULL;
	u32 i, due = 0, done = 0;
	struct socket *sock;
	struct tcp_sock *tp;
	struct sock *sk;
	int err;

	err = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP, &sock);
	KUNIT_ASSERT_EQ_MSG(test, err, 0, "sock_create_kern");
	sk = sock->sk;
	tp = tcp_sk(sk);
	lock_sock(sk);
	for (i = 0; i < RDCC_THETA_UPD_STEPS; i++) {
		struct rdcc_theta_params p;
		struct rdcc_theta_state s0, sa, sb;
		struct rdcc_theta_lease l0, la, lb;
		struct rdcc_theta_due_in din;
		struct rdcc_enforced e = {};
		struct rate_sample rs = {};
		u64 r = rdcc_kunit_xs(&x), r2 = rdcc_kunit_xs(&x), now, tau, rtt, dt, span;
		u64 max_rate, rate;
		u32 gen = 1 + rdcc_kunit_xs(&x) % 3, gen_upd, cwnd;
		bool want_done, ok;
		int got;

		tau = rdcc_rs_kunit_theta_params(rdcc_kunit_xs(&x), &p);
		KUNIT_ASSERT_NE_MSG(test, tau, 0ULL, "no parameter block");
		switch (r % 16) {
		case 0:
			now = RDCC_THETA_UPDATE_MAX_NS;
			break;
		case 1:
			now = RDCC_THETA_UPDATE_MAX_NS + 1;	/* grant refuses this update time */
			break;
		default:
			now = (1ULL << 40) + (rdcc_kunit_xs(&x) >> 2);
			break;
		}
		tp->tcp_clock_cache = now;
		tp->mss_cache = rdcc_kunit_pick(&x, msses, ARRAY_SIZE(msses));
		tp->snd_cwnd_clamp = rdcc_kunit_pick(&x, clamps, ARRAY_SIZE(clamps));
		tp->snd_una = (u32)rdcc_kunit_xs(&x);
		tp->snd_nxt = tp->snd_una + (u32)(rdcc_kunit_xs(&x) % (1U << 20));
		tp->srtt_us = (u32)rdcc_kunit_xs(&x) % (1U << 24);
		max_rate = r & 16 ? ~0ULL : rdcc_kunit_xs(&x) >> ((r >> 8) % 64);
		WRITE_ONCE(sk->sk_max_pacing_rate, max_rate);
		switch ((r >> 16) % 8) {
		case 0:
			rs.rtt_us = 1;
			break;
		case 1:
			rs.rtt_us = RDCC_THETA_RTT_US_MAX;
			break;
		case 2:
			rs.rtt_us = 1 + (long)(rdcc_kunit_xs(&x) % RDCC_THETA_RTT_US_MAX);
			break;
		default:
			rs.rtt_us = 18 + (long)(rdcc_kunit_xs(&x) % 12);
			break;
		}
		rtt = (u64)rs.rtt_us * NSEC_PER_USEC;

		/* A lease as ThetaLease::grant makes one for this socket, mostly under p's τ. */
		memset(&l0, 0, sizeof(l0));
		l0.gen = gen;
		l0.mss = (u16)tp->mss_cache;
		l0.clamp = tp->snd_cwnd_clamp;
		l0.tau_ns = (r >> 20) % 8 ? (u32)tau : (u32)(1000 + rdcc_kunit_xs(&x) % 999999001);
		l0.cwnd_pkts = 1 + (u32)(rdcc_kunit_xs(&x) % ((1U << 24) - 1));
		l0.rate_bps = 1 + rdcc_kunit_xs(&x) % ((1ULL << 40) - 1);
		/* The generation the due path reads: bumped since the take one time in sixteen. */
		gen_upd = (r >> 24) % 16 ? gen : gen + 1;

		/* A state the lease could live on, at the update's edges. */
		memset(&s0, 0, sizeof(s0));
		s0.flags = RDCC_THETA_FLAG_INIT | RDCC_THETA_FLAG_HAVE_PREV |
			   ((r >> 28) & 1 ? RDCC_THETA_FLAG_SMOOTH : 0);
		if ((r >> 29) % 16 == 0)
			s0.flags = (u32)rdcc_kunit_xs(&x);
		s0.cwnd_q16 = rdcc_kunit_window(&x, p.min_cwnd_q16, p.max_cwnd_q16);
		s0.prev_cwnd_q16 = rdcc_kunit_window(&x, p.min_cwnd_q16, p.max_cwnd_q16);
		s0.power_smooth_q16 = rdcc_kunit_xs(&x);
		s0.undo_cwnd_q16 = rdcc_kunit_xs(&x);
		s0.min_rtt_ns = (u32)rdcc_kunit_xs(&x);
		switch ((r2 >> 0) % 8) {
		case 0:
			s0.prev_rtt_ns = (u32)rtt;
			break;
		case 1:
			s0.prev_rtt_ns = (u32)rtt - 1;
			break;
		case 2:
			s0.prev_rtt_ns = (u32)rtt + 1;
			break;
		case 3:
			s0.prev_rtt_ns = 0;			/* the gradient's cap */
			break;
		case 4:
			s0.prev_rtt_ns = U32_MAX;		/* the floor */
			break;
		default:
			s0.prev_rtt_ns = (u32)(rtt - rtt / 5 + rdcc_kunit_xs(&x) % (rtt / 5 * 2 + 1));
			break;
		}
		switch ((r2 >> 8) % 6) {
		case 0:
			s0.rtt_smooth_ns = 0;			/* the power's floor */
			break;
		case 1:
			s0.rtt_smooth_ns = U32_MAX;
			break;
		case 2:
			s0.rtt_smooth_ns = (u32)rtt;
			break;
		default:
			s0.rtt_smooth_ns = 18000 + (u32)(rdcc_kunit_xs(&x) % 12000);
			break;
		}
		switch ((r2 >> 16) % 6) {
		case 0:
			dt = 1;
			break;
		case 1:
			dt = l0.tau_ns - 1 ?: 1;
			break;
		case 2:
			dt = l0.tau_ns;
			break;
		case 3:
			dt = l0.tau_ns + 1ULL;
			break;
		default:
			dt = 1 + rdcc_kunit_xs(&x) % (2ULL * l0.tau_ns);
			break;
		}
		s0.last_ack_ns = now - dt;
		switch ((r2 >> 24) % 8) {
		case 0:
			span = rtt;			/* not sent after the update: getCwnd's edge */
			break;
		case 1:
			span = rtt + 1;
			break;
		case 2:
			span = (1ULL << 32) + (1ULL << 30);
			break;
		case 3:
			span = 0;			/* update_ns = now: grant's premise broken */
			break;
		case 4:
			/* short (due by sequence): |Δ| / span >= 2^16 reaches the gradient's cap */
			span = 1 + rdcc_kunit_xs(&x) % 65536;
			break;
		default:
			span = rtt + rdcc_kunit_xs(&x) % (4 * rtt);
			break;
		}
		if (span && span < dt)
			span = dt;			/* update_ns <= last_ack_ns, as granted */
		s0.update_ns = (r2 >> 32) % 32 ? now - span : now + 1 + (r2 >> 40) % 1000;
		switch ((r2 >> 48) % 6) {
		case 0:
			s0.marker_seq = tp->snd_una - 1;
			break;
		case 1:
		case 2:
			s0.marker_seq = tp->snd_una;	/* due by sequence at span == rtt */
			break;
		case 3:
			s0.marker_seq = tp->snd_una + 1;
			break;
		case 4:
			s0.marker_seq = tp->snd_una + (1U << 31);
			break;
		default:
			s0.marker_seq = (u32)rdcc_kunit_xs(&x);
			break;
		}

		/* Only what cong_control hands to the due path: a DUE take. */
		sa = s0;
		memset(&din, 0xa5, sizeof(din));
		if (rdcc_theta_take(sk, &rs, &l0, &sa, gen, &din) != RDCC_THETA_DUE)
			continue;
		due++;
		din.snd_una = tp->snd_una;
		din.snd_nxt = tp->snd_nxt;
		din.mss = tp->mss_cache;
		din.srtt_us = rdcc_srtt_us(tp);
		din.clamp_pkts = tp->snd_cwnd_clamp;

		sa = s0;
		sb = s0;
		la = l0;
		lb = l0;
		tcp_snd_cwnd_set(tp, 7777);	/* sentinels: what a fallback leaves */
		WRITE_ONCE(sk->sk_pacing_rate, 12345);
		got = rdcc_theta_update(sk, &rs, &la, &sa, &p, gen_upd);
		cwnd = tcp_snd_cwnd(tp);
		rate = READ_ONCE(sk->sk_pacing_rate);
		rdcc_rs_kunit_theta_due(&p, &sb, &din, &lb, gen_upd, &e);
		want_done = l0.gen == gen_upd && !p.per_ack && !p.min_rtt_tau &&
			    p.base_rtt_ns == l0.tau_ns && lb.gen != 0 && now > s0.update_ns;
		if (got == RDCC_THETA_UPD_DONE)
			ok = want_done && !memcmp(&sa, &sb, sizeof(sa)) &&
			     !memcmp(&la, &lb, sizeof(la)) && cwnd == e.cwnd_pkts &&
			     rate == min_t(u64, e.pacing_rate_bps, max_rate);
		else
			ok = got == RDCC_THETA_UPD_FALLBACK && !want_done &&
			     !memcmp(&sa, &s0, sizeof(sa)) && !memcmp(&la, &l0, sizeof(la)) &&
			     cwnd == 7777 && rate == 12345;
		if (!ok) {
			KUNIT_FAIL(test,
				   "step %u: C %d (Rust says %s); cwnd_q16 C %llu Rust %llu; power C %llu Rust %llu; lease C %u pkts %llu B/s, Rust gen %u %u pkts %llu B/s; set cwnd %u rate %llu, Rust %u %llu",
				   i, got, want_done ? "DONE" : "FALLBACK", sa.cwnd_q16, sb.cwnd_q16,
				   sa.power_smooth_q16, sb.power_smooth_q16, la.cwnd_pkts, la.rate_bps,
				   lb.gen, lb.cwnd_pkts, lb.rate_bps, cwnd, rate, e.cwnd_pkts,
				   e.pacing_rate_bps);
			break;
		}
		done += got == RDCC_THETA_UPD_DONE;
	}
	release_sock(sk);
	sock_release(sock);
	kunit_info(test, "%u due steps, %u done in C\n", due, done);
	/* Non-vacuity. Measured with this seed: 78446 steps due, 16964 of them done in C (the
	 * edges make most refusals: an MSS of 0, 1 or 88 against large windows, a window bound of
	 * one byte, another τ, a bumped generation). */
	KUNIT_EXPECT_GT_MSG(test, due, RDCC_THETA_UPD_STEPS / 2, "DUE rare");
	KUNIT_EXPECT_GT_MSG(test, done, due / 8, "DONE rare");
	KUNIT_EXPECT_GT_MSG(test, due - done, due / 50, "FALLBACK rare");
}

static struct kunit_case rdcc_glue_cases[] = {
	KUNIT_CASE(rdcc_glue_event),
	KUNIT_CASE(rdcc_glue_lease),
	KUNIT_CASE(rdcc_glue_theta_lease),
	KUNIT_CASE(rdcc_glue_theta_update),
	{}
};

static struct kunit_suite rdcc_glue_suite = {
	.name = "rdcc_glue",
	.test_cases = rdcc_glue_cases,
};

kunit_test_suites(&rdcc_kunit_swift_suite, &rdcc_kunit_swift_vaisf_suite, &rdcc_kunit_timely_suite,
		  &rdcc_kunit_theta_powertcp_suite, &rdcc_glue_suite);
