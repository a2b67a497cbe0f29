// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdcc_kunit_tcp.c - KUnit case rdcc_glue_flag_una of the test module rdcc_kunit.ko: the private
 * tcp_ack() flag the glue reads (RDCC_FLAG_SND_UNA_ADVANCED, rdcc_tcp_flags.h) against real
 * ACKs. A loopback connection in init_net whose sender runs a probe CA; on every cong_control
 * call (after the CA's init) the probe compares the flag bit with whether snd_una advanced
 * since the previous call. Test code only.
 */
#include <linux/in.h>
#include <linux/net.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <kunit/test.h>
#include <net/tcp.h>

#include "rdcc_kunit.h"
#include "rdcc_tcp_flags.h"

#define PROBE_BYTES (2 * 1024 * 1024)
#define PROBE_CHUNK (16 * 1024)

struct rdcc_flag_probe {
	u32 una;		/* snd_una at the previous call (or at init) */
	u32 inited;		/* init ran: calls before it (the SYN-ACK's) are not judged */
	u32 calls, advanced, flagged, mismatched;
};
static_assert(sizeof(struct rdcc_flag_probe) <= ICSK_CA_PRIV_SIZE);

static void probe_init(struct sock *sk)
{
	struct rdcc_flag_probe *p = inet_csk_ca(sk);

	memset(p, 0, sizeof(*p));
	p->una = tcp_sk(sk)->snd_una;
	p->inited = 1;
}

static void probe_cong_control(struct sock *sk, u32 ack, int flag, const struct rate_sample *rs)
{
	struct rdcc_flag_probe *p = inet_csk_ca(sk);
	u32 una = tcp_sk(sk)->snd_una;
	bool adv, flagged;

	if (!p->inited)
		return;
	adv = after(una, p->una);
	flagged = flag & RDCC_FLAG_SND_UNA_ADVANCED;
	p->calls++;
	p->advanced += adv;
	p->flagged += flagged;
	p->mismatched += adv != flagged;
	p->una = una;
}

static u32 probe_ssthresh(struct sock *sk)
{
	return tcp_sk(sk)->snd_ssthresh;
}

static u32 probe_undo(struct sock *sk)
{
	return tcp_snd_cwnd(tcp_sk(sk));
}

static struct tcp_congestion_ops rdcc_flag_probe_ops = {
	.init = probe_init,
	.cong_control = probe_cong_control,
	.ssthresh = probe_ssthresh,
	.undo_cwnd = probe_undo,
	.name = "rdcc_flagprobe",
	.owner = THIS_MODULE,
};

/* Move PROBE_BYTES from cli to srv, both non-blocking, until done or no progress for 2 s. */
static int probe_transfer(struct socket *cli, struct socket *srv, void *buf)
{
	u32 sent = 0, got = 0, idle = 0;

	while (got < PROBE_BYTES && idle < 2000) {
		struct msghdr m = { .msg_flags = MSG_DONTWAIT };
		struct kvec v = { .iov_base = buf, .iov_len = PROBE_CHUNK };
		int n, progress = 0;

		if (sent < PROBE_BYTES) {
			v.iov_len = min_t(u32, PROBE_CHUNK, PROBE_BYTES - sent);
			n = kernel_sendmsg(cli, &m, &v, 1, v.iov_len);
			if (n > 0) {
				sent += n;
				progress = 1;
			} else if (n != -EAGAIN) {
				return n;
			}
		}
		m = (struct msghdr){ .msg_flags = MSG_DONTWAIT };
		v = (struct kvec){ .iov_base = buf, .iov_len = PROBE_CHUNK };
		n = kernel_recvmsg(srv, &m, &v, 1, v.iov_len, MSG_DONTWAIT);
		if (n > 0) {
			got += n;
			progress = 1;
		} else if (n != -EAGAIN) {
			return n ? n : -ECONNRESET;
		}
		if (progress) {
			idle = 0;
		} else {
			idle++;
			usleep_range(1000, 2000);
		}
	}
	return got == PROBE_BYTES ? 0 : -ETIMEDOUT;
}

void rdcc_glue_flag_una(struct kunit *test)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct socket *lsn = NULL, *cli = NULL, *srv = NULL;
	struct rdcc_flag_probe r = {};
	char ca[] = "rdcc_flagprobe";
	void *buf;
	int err, alen = sizeof(a);

	KUNIT_ASSERT_EQ(test, tcp_register_congestion_control(&rdcc_flag_probe_ops), 0);
	buf = kunit_kzalloc(test, PROBE_CHUNK, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	err = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP, &lsn);
	if (!err)
		err = kernel_bind(lsn, (struct sockaddr *)&a, sizeof(a));
	if (!err)
		err = kernel_listen(lsn, 1);
	if (!err)
		err = kernel_getsockname(lsn, (struct sockaddr *)&a) < 0 ? -EINVAL : 0;
	if (!err)
		err = sock_create_kern(&init_net, AF_INET, SOCK_STREAM, IPPROTO_TCP, &cli);
	if (!err)
		err = cli->sk->sk_prot->setsockopt(cli->sk, SOL_TCP, TCP_CONGESTION,
						    KERNEL_SOCKPTR(ca), strlen(ca));
	if (!err)
		err = kernel_connect(cli, (struct sockaddr *)&a, alen, 0);
	if (!err)
		err = kernel_accept(lsn, &srv, 0);
	if (!err)
		err = probe_transfer(cli, srv, buf);
	if (cli) {
		lock_sock(cli->sk);
		if (inet_csk(cli->sk)->icsk_ca_ops == &rdcc_flag_probe_ops)
			r = *(struct rdcc_flag_probe *)inet_csk_ca(cli->sk);
		release_sock(cli->sk);
	}
	/* Closed with an abort: nothing lingers in FIN_WAIT on the probe CA. */
	if (srv) {
		sock_no_linger(srv->sk);
		sock_release(srv);
	}
	if (cli) {
		sock_no_linger(cli->sk);
		sock_release(cli);
	}
	if (lsn)
		sock_release(lsn);
	/* The sockets closed above may still run the ops until freed: they are static, and each
	 * socket holds a reference on this module. */
	tcp_unregister_congestion_control(&rdcc_flag_probe_ops);

	KUNIT_ASSERT_EQ_MSG(test, err, 0, "loopback transfer of %u bytes", PROBE_BYTES);
	KUNIT_EXPECT_EQ_MSG(test, r.inited, 1U, "the probe CA ran on the sender");
	/* 2 MB in at most 64 KB segments: dozens of ACKs advance snd_una */
	KUNIT_EXPECT_GE(test, r.advanced, 8U);
	KUNIT_EXPECT_EQ_MSG(test, r.mismatched, 0U,
			    "%u of %u ACKs: flag bit 0x%x disagrees with snd_una's advance (%u advanced, %u flagged)",
			    r.mismatched, r.calls, RDCC_FLAG_SND_UNA_ADVANCED, r.advanced, r.flagged);
	kunit_info(test, "%u ACKs: %u advanced snd_una, %u flagged, %u mismatches\n", r.calls,
		   r.advanced, r.flagged, r.mismatched);
}
