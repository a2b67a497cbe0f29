/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_kunit.h - what the C files of the test module rdcc_kunit.ko share: the random helpers of
 * the rdcc_glue cases and the cases that live outside rdcc_kunit_glue.c (rdcc_kunit_theta.c,
 * rdcc_kunit_vaisf.c, rdcc_kunit_swift.c, rdcc_kunit_tcp.c), which its suite table lists. Test code only.
 */
#ifndef RDCC_KUNIT_H
#define RDCC_KUNIT_H

#include <kunit/test.h>
#include <linux/net.h>
#include <net/tcp.h>

/* A kernel TCP socket for one case (in *sock), locked when @lock; the case releases it. */
static inline struct sock *rdcc_kunit_socket(struct kunit *test, struct socket **sock, bool lock)
{
	int err = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP, sock);

	KUNIT_ASSERT_EQ_MSG(test, err, 0, "sock_create_kern");
	if (lock)
		lock_sock((*sock)->sk);
	return (*sock)->sk;
}

static inline u64 rdcc_kunit_xs(u64 *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* An edge value most of the time, anything otherwise. */
static inline u32 rdcc_kunit_pick(u64 *x, const u32 *edges, unsigned int n)
{
	u64 r = rdcc_kunit_xs(x);

	return r % 8 ? edges[(r >> 8) % n] : (u32)(r >> 32);
}

/* An edge of u64 values most of the time (7 in 8), anything otherwise. */
static inline u64 rdcc_kunit_pick64(u64 *x, const u64 *edges, unsigned int n)
{
	u64 r = rdcc_kunit_xs(x);

	return r % 8 ? edges[(r >> 8) % n] : rdcc_kunit_xs(x);
}

/* A window in [lo, hi] (lo <= hi), at an end one time in four, outside one time in eight. */
static inline u64 rdcc_kunit_window(u64 *x, u64 lo, u64 hi)
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

void rdcc_glue_theta_lease(struct kunit *test);
void rdcc_glue_theta_update(struct kunit *test);
void rdcc_glue_vaisf_lease(struct kunit *test);
void rdcc_glue_swift_lease(struct kunit *test);
void rdcc_glue_flag_una(struct kunit *test);

#endif /* RDCC_KUNIT_H */
