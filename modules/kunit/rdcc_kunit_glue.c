// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdcc_kunit_glue.c - the KUnit suites of the rdcc laws (test module rdcc_kunit.ko).
 *
 * One suite per law, rdcc_<ca name>, each with two cases: the law's shared vector table (the same
 * tables the host tests run, core/src/<law>_vectors.rs) and a randomized bounds check (16 seeds x
 * 2000 events, hostile values included). The Rust entry points are in modules/glue/kunit.rs.
 * Built only for kernels with CONFIG_KUNIT (modules/Kbuild); no product module contains this.
 */
#include <linux/module.h>
#include <kunit/test.h>

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

kunit_test_suites(&rdcc_kunit_swift_suite, &rdcc_kunit_swift_vaisf_suite, &rdcc_kunit_timely_suite,
		  &rdcc_kunit_theta_powertcp_suite);
