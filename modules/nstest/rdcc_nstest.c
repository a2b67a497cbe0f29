// SPDX-License-Identifier: GPL-2.0-only
/*
 * rdcc_nstest.c - test module rdcc_nstest.ko (issue #32 item 1): a kernel-owned TCP socket that
 * processes ACKs in a network namespace after tcp_swift's pernet .exit freed that namespace's
 * remote-delay side table. Built only for kernels with CONFIG_KUNIT (test kernels), never part
 * of a product module; driven by selftests/rdcc_netns.sh.
 *
 * Kernel sockets (sock_create_kern: sk_net_refcnt == 0, as sunrpc, cifs or nvme-tcp use) hold
 * no reference on their namespace, so the namespace dies while they live, and their owner
 * closes them in its own pernet .exit. The netns core runs the .exit methods in reverse
 * registration order: a subsystem registered before tcp_swift closes its sockets after
 * tcp_swift's .exit, and an ACK backlogged on such a socket meanwhile reaches tcp_swift's
 * cong_control when the owner releases the socket. This module is that owner:
 *
 *   insmod rdcc_nstest.ko                    (its pernet ops registered before tcp_swift's)
 *   insmod tcp_swift.ko
 *   echo "PID ADDR PORT BYTES" > /sys/kernel/debug/rdcc_nstest/ctl
 *       a kernel socket in PID's network namespace connects to ADDR:PORT (IPv4) with the
 *       namespace's default CA; a kthread takes the socket lock, sends BYTES (at most 16 MB)
 *       under it and holds it: the ACKs that come back wait in the backlog, and tcp_swift's
 *       hook, seeing the socket owned, stores their remote delays in the namespace's side
 *       table;
 *   ip netns del ...                         (the last reference goes: cleanup_net)
 *       tcp_swift's .exit frees the side table; then this module's .exit has the kthread
 *       release the socket (the backlog is processed: tcp_ack -> cong_control -> the
 *       remote-delay take), and closes it with an abort.
 *   echo "PID ADDR PORT BYTES PULSE_US" > .../ctl; ...; echo stop > .../ctl
 *       pulse mode (selftests/rdcc_rqd_attack.sh, issue #32 item 3): the kthread alternates
 *       PULSE_US with the socket lock taken (sending up to BYTES under it) and PULSE_US
 *       without, until "stop" closes the socket: segments that reach tcp_swift's hook find the
 *       socket owned about half of the time.
 *   cat /sys/kernel/debug/rdcc_nstest/status
 *       "state=done held_ms=H backlog_bytes=L released_acked=B": L bytes of segments waited in
 *       the backlog, and B bytes were acknowledged when it was processed after tcp_swift's
 *       .exit (0 would mean the check exercised nothing).
 */
#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/inet.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/net.h>
#include <linux/uaccess.h>
#include <net/net_namespace.h>
#include <net/sock.h>
#include <net/tcp.h>

/* The longest the kthread holds the socket without its namespace dying (then it lets go). */
#define NSTEST_HOLD_MAX (60 * HZ)

static DEFINE_MUTEX(nstest_lock);	/* ctl writes and the pernet .exit */
static struct socket *nstest_sock;	/* the held socket, NULL when none */
static struct net *nstest_net;		/* its namespace (compared only: no reference held) */
static struct task_struct *nstest_task;
static DECLARE_COMPLETION(nstest_held);
static DECLARE_COMPLETION(nstest_let_go);
static DECLARE_COMPLETION(nstest_released);
static unsigned long nstest_hold_start;
static unsigned int nstest_held_ms;
static u32 nstest_una_before, nstest_una_after, nstest_backlog_bytes;
static void *nstest_buf;		/* nstest_bytes of zeros, sent by the holder */
static u32 nstest_bytes, nstest_sent;
static u32 nstest_pulse_us, nstest_pulses;	/* pulse mode (see the top) */
static bool nstest_done;
static struct dentry *nstest_dir;

/* The kthread: takes the socket lock, queues nstest_bytes under it (sent at once: the owner may
 * transmit), and holds the lock until told, so the ACKs of that data wait in the backlog. */
static int nstest_holder(void *arg)
{
	struct sock *sk = arg;
	struct msghdr msg = { .msg_flags = MSG_DONTWAIT };
	struct kvec kv = { .iov_base = nstest_buf, .iov_len = nstest_bytes };
	int n;

	if (nstest_pulse_us) {
		u32 us = nstest_pulse_us;

		complete(&nstest_held);
		while (!completion_done(&nstest_let_go)) {
			lock_sock(sk);
			iov_iter_kvec(&msg.msg_iter, ITER_SOURCE, &kv, 1, kv.iov_len);
			n = tcp_sendmsg_locked(sk, &msg, kv.iov_len);
			if (n > 0)
				nstest_sent += n;
			usleep_range(us, us + us / 4);
			release_sock(sk);
			usleep_range(us, us + us / 4);
			nstest_pulses++;
		}
		complete(&nstest_released);
		return 0;
	}
	lock_sock(sk);
	iov_iter_kvec(&msg.msg_iter, ITER_SOURCE, &kv, 1, kv.iov_len);
	n = tcp_sendmsg_locked(sk, &msg, kv.iov_len);
	nstest_sent = n > 0 ? n : 0;
	nstest_hold_start = jiffies;
	complete(&nstest_held);
	wait_for_completion_timeout(&nstest_let_go, NSTEST_HOLD_MAX);
	nstest_held_ms = jiffies_to_msecs(jiffies - nstest_hold_start);
	nstest_una_before = tcp_sk(sk)->snd_una;
	nstest_backlog_bytes = READ_ONCE(sk->sk_backlog.len);
	release_sock(sk);	/* processes the backlog: tcp_ack -> cong_control */
	lock_sock(sk);
	nstest_una_after = tcp_sk(sk)->snd_una;
	release_sock(sk);
	complete(&nstest_released);
	return 0;
}

/* Let the holder go, wait for it, close the socket with an abort (no FIN_WAIT/TIME_WAIT left
 * behind in a namespace that is going away). Under nstest_lock. */
static void nstest_finish(void)
{
	if (!nstest_sock)
		return;
	complete(&nstest_let_go);
	wait_for_completion(&nstest_released);
	sock_no_linger(nstest_sock->sk);
	sock_release(nstest_sock);
	nstest_sock = NULL;
	nstest_net = NULL;
	nstest_task = NULL;
	nstest_done = true;
}

static int nstest_start(pid_t pid, __be32 addr, u16 port, u32 bytes, u32 pulse_us)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_addr.s_addr = addr,
				   .sin_port = htons(port) };
	struct socket *sock;
	struct net *net;
	int err;

	if (nstest_sock)
		return -EBUSY;
	net = get_net_ns_by_pid(pid);
	if (IS_ERR(net))
		return PTR_ERR(net);
	/* A kernel socket: no reference on net (the point of the test). */
	err = sock_create_kern(net, AF_INET, SOCK_STREAM, IPPROTO_TCP, &sock);
	if (err) {
		put_net(net);
		return err;
	}
	err = kernel_connect(sock, (struct sockaddr *)&sin, sizeof(sin), 0);
	if (err)
		goto fail;
	kvfree(nstest_buf);
	nstest_buf = kvzalloc(bytes, GFP_KERNEL);
	if (!nstest_buf) {
		err = -ENOMEM;
		goto fail;
	}
	nstest_bytes = bytes;
	nstest_pulse_us = pulse_us;
	nstest_sent = 0;
	nstest_pulses = 0;
	reinit_completion(&nstest_held);
	reinit_completion(&nstest_let_go);
	reinit_completion(&nstest_released);
	nstest_task = kthread_run(nstest_holder, sock->sk, "rdcc_nstest");
	if (IS_ERR(nstest_task)) {
		err = PTR_ERR(nstest_task);
		nstest_task = NULL;
		goto fail;
	}
	wait_for_completion(&nstest_held);
	if (!nstest_sent && !pulse_us) {
		/* nothing queued: let the holder go at once, report the socket as not held */
		nstest_sock = sock;
		nstest_finish();
		nstest_done = false;
		put_net(net);
		return -EIO;
	}
	nstest_sock = sock;
	nstest_net = net;
	nstest_done = false;
	put_net(net);	/* only the namespace's own references keep it alive now */
	pr_info("rdcc_nstest: holding a kernel socket, %u bytes sent under the lock\n", nstest_sent);
	return 0;
fail:
	sock_release(sock);
	put_net(net);
	return err;
}

static ssize_t nstest_ctl_write(struct file *f, const char __user *ubuf, size_t len,
				loff_t *ppos)
{
	char buf[80], ip[24];
	unsigned int port, bytes, pulse_us = 0;
	__be32 addr;
	int pid, err, n;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = 0;
	if (sysfs_streq(buf, "stop")) {
		mutex_lock(&nstest_lock);
		nstest_finish();
		mutex_unlock(&nstest_lock);
		return len;
	}
	n = sscanf(buf, "%d %23s %u %u %u", &pid, ip, &port, &bytes, &pulse_us);
	if (n < 4 || port > 65535 || !bytes || bytes > (16U << 20) || pulse_us > 100000 ||
	    !in4_pton(ip, -1, (u8 *)&addr, -1, NULL))
		return -EINVAL;
	mutex_lock(&nstest_lock);
	err = nstest_start(pid, addr, port, bytes, pulse_us);
	mutex_unlock(&nstest_lock);
	return err ? err : len;
}

static int nstest_status_show(struct seq_file *m, void *v)
{
	mutex_lock(&nstest_lock);
	seq_printf(m, "state=%s held_ms=%u backlog_bytes=%u released_acked=%u pulses=%u sent=%u\n",
		   nstest_sock ? "held" : nstest_done ? "done" : "idle", nstest_held_ms,
		   nstest_backlog_bytes, nstest_una_after - nstest_una_before, nstest_pulses,
		   nstest_sent);
	mutex_unlock(&nstest_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(nstest_status);

static const struct file_operations nstest_ctl_fops = {
	.owner = THIS_MODULE,
	.write = nstest_ctl_write,
};

/* After the .exit of every subsystem registered later (tcp_swift's among them). */
static void __net_exit nstest_net_exit(struct net *net)
{
	mutex_lock(&nstest_lock);
	if (net == nstest_net)
		nstest_finish();
	mutex_unlock(&nstest_lock);
}

static struct pernet_operations nstest_net_ops = {
	.exit = nstest_net_exit,
};

static int __init nstest_init(void)
{
	int err = register_pernet_subsys(&nstest_net_ops);

	if (err)
		return err;
	nstest_dir = debugfs_create_dir("rdcc_nstest", NULL);
	debugfs_create_file("ctl", 0200, nstest_dir, NULL, &nstest_ctl_fops);
	debugfs_create_file("status", 0400, nstest_dir, NULL, &nstest_status_fops);
	return 0;
}

static void __exit nstest_exit(void)
{
	debugfs_remove_recursive(nstest_dir);
	/* Runs nstest_net_exit for every live namespace: a socket still held is finished there. */
	unregister_pernet_subsys(&nstest_net_ops);
	mutex_lock(&nstest_lock);
	nstest_finish();
	mutex_unlock(&nstest_lock);
	kvfree(nstest_buf);
}

module_init(nstest_init);
module_exit(nstest_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("rdcc test: a kernel socket processing ACKs in a dying network namespace");
