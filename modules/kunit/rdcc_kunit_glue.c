// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdcc_kunit_glue.c - the KUnit suites of the rdcc laws (test module rdcc_kunit.ko).
 *
 * One suite per law, rdcc_<ca name>, each with two cases: the law's shared vector table (the same
 * tables the host tests run, core/src/<law>_vectors.rs) and a randomized bounds check (16 seeds x
 * 2000 events, hostile values included). The Rust entry points are in modules/glue/kunit.rs.
 * And the suite rdcc_glue: the per-ACK event the C glue builds (rdcc_event.h), field by field,
 * on a real socket, Decision::enforce on its table (core/src/event_vectors.rs), and the leases'
 * C paths: TIMELY's here (rdcc_lease.h), θ-PowerTCP's in
 * rdcc_kunit_theta.c (rdcc_lease_theta.h) and Swift VAI SF's in rdcc_kunit_vaisf.c
 * (rdcc_lease_vaisf.h) and Swift's in rdcc_kunit_swift.c (rdcc_lease_swift.h), each against
 * the Rust it transcribes. Built only for kernels with CONFIG_KUNIT (modules/Kbuild); no
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
#include "rdcc_kunit.h"

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
/* The INT laws (tcp_powertcp, tcp_hpcc): the worked example of core/src/int_vectors.rs and the
 * bounds through the modules' intake (modules/glue/kunit.rs rdcc_kunit_int_law!). */
RDCC_KUNIT_SUITE(powertcp);
RDCC_KUNIT_SUITE(hpcc);

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

	sk = rdcc_kunit_socket(test, &sock, false);
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

	sk = rdcc_kunit_socket(test, &sock, true);
	tp = tcp_sk(sk);
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
 * rdcc_glue_enforce: Decision::enforce (what every product module's full path sets: the window
 * in packets and the pacing rate) on the table of core/src/event_vectors.rs, derived from the
 * rule's text, as the kernel's rustc builds it; the host test enforce_table runs the same table.
 */
int rdcc_rs_kunit_enforce(u32 *failed_case);

static void rdcc_glue_enforce(struct kunit *test)
{
	u32 failed = U32_MAX;
	int n = rdcc_rs_kunit_enforce(&failed);

	KUNIT_EXPECT_GT_MSG(test, n, 0, "Decision::enforce case %u differs from the table",
			    failed);
	if (n > 0)
		kunit_info(test, "%d enforce cases passed\n", n);
}

static struct kunit_case rdcc_glue_cases[] = {
	KUNIT_CASE(rdcc_glue_event),
	KUNIT_CASE(rdcc_glue_enforce),
	KUNIT_CASE(rdcc_glue_lease),
	KUNIT_CASE(rdcc_glue_theta_lease),
	KUNIT_CASE(rdcc_glue_theta_update),
	KUNIT_CASE(rdcc_glue_vaisf_lease),
	KUNIT_CASE(rdcc_glue_swift_lease),
	KUNIT_CASE(rdcc_glue_flag_una),
	{}
};

static struct kunit_suite rdcc_glue_suite = {
	.name = "rdcc_glue",
	.test_cases = rdcc_glue_cases,
};

kunit_test_suites(&rdcc_kunit_swift_suite, &rdcc_kunit_swift_vaisf_suite, &rdcc_kunit_timely_suite,
		  &rdcc_kunit_theta_powertcp_suite, &rdcc_kunit_powertcp_suite, &rdcc_kunit_hpcc_suite,
		  &rdcc_glue_suite);
