// SPDX-License-Identifier: GPL-2.0-only
/*
 * rqd.bpf.c - the receiver side of Swift's remote-queuing-delay (RQD) channel.
 *
 * Two programs, attached to one cgroup v2 by `rxstamp` (rxstamp/src/main.rs):
 *
 *  rqd_sockops (sockops): when a connection is established it looks the peer up in the
 *    allowlist (rqd_allow: peer prefixes, each with optional ports matched against the local or
 *    the peer port; empty = no connection). Only an allowed connection gets sk_storage, the
 *    delayed-ACK cap and the header-option callbacks; every other connection of the cgroup is
 *    left exactly as the kernel runs it. For allowed connections HDR_OPT_LEN_CB reserves the 10
 *    bytes on every non-SYN segment, including the CURRENT_MSS query (skb NULL), so the MSS the
 *    kernel sizes data segments with always has room for the option and no segment can exceed
 *    the MTU; WRITE_HDR_OPT_CB writes the option of modules/glue/rdcc_rqd_wire.h when an arrival
 *    is pending that this segment acknowledges (its ACK number, read from the header the
 *    kernel has just written, covers the stamped segment's end): delay = now - arrival of the
 *    newest data segment this ACK acknowledges (ns, saturating), the TTL, and the stamp source;
 *    the stamps it covers are then cleared, so each option describes data no earlier option
 *    reported (without one the kernel fills the reserved bytes with NOPs).
 *  rqd_ingress (cgroup_skb/ingress): runs for every packet a socket of the cgroup receives, in
 *    tcp_filter() before the socket lock and backlog. For a TCP segment with payload on an
 *    allowed connection it stores the arrival stamp (below), the segment's end sequence and
 *    the IPv4 TTL / IPv6 hop limit, keeping the previous pending stamp too: a segment stamped
 *    here may wait in the socket backlog while the reader sends an ACK of older data (a
 *    window update from tcp_cleanup_rbuf, a delayed ACK), and that ACK must report the older
 *    segment's arrival, not take the newer one's stamp away from the ACK that covers it (a
 *    single stamp did: 92.8 % and 94.8 % of data ACKs found their own delay on a loaded host).
 *    A GRO super-packet above 64 KB (BIG TCP) has tot_len / payload_len 0: its length is the
 *    skb's.
 *
 * Arrival stamp, best first (Documentation/remote-delay.md):
 *  1. the device's RX timestamp (skb_hwtstamps) when the NIC provides one and its clock can be
 *     related to the host clock: the loader stores CLOCK_REALTIME - CLOCK_MONOTONIC in rqd_cfg;
 *     a PHC kept on CLOCK_REALTIME (phc2sys) converts with it, and a stamp is accepted only if
 *     it converts to a time within the last second (a PHC in TAI or free-running fails that);
 *  2. the kernel's software RX stamp (skb->tstamp, CLOCK_REALTIME, taken in netif_rx /
 *     netif_receive_skb when some socket enabled timestamping), converted the same way;
 *  3. bpf_ktime_get_ns() here, in tcp_filter().
 * Stamps 1 and 2 are used only when rqd_cfg.use_rx_stamps is set (rxstamp --rx-stamps).
 *
 * Needs the program's BTF (clang -g: sk_storage maps require key/value BTF), not the kernel's.
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/tcp.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "../../modules/glue/rdcc_rqd_wire.h"

#define ETH_P_IP	0x0800
#define ETH_P_IPV6	0x86DD
#define NSEC_PER_SEC	1000000000ULL
#define RQD_HIST	128
#define SOL_TCP		6	/* 4 buckets per power of two of the delay in ns, up to 2^32 */

struct rqd_opt {
	__u8 kind;
	__u8 len;
	__u16 exid;	/* network order */
	__u32 delay;	/* network order, ns */
	__u8 ttl;
	__u8 ver_src;
} __attribute__((packed));

/* One data segment's arrival. */
struct rqd_stamp {
	__u64 t_arr;	/* CLOCK_MONOTONIC ns; 0 = none */
	__u32 end_seq;	/* sequence number after its payload */
	__u8 ttl;
	__u8 src;
	__u8 _pad[2];
};

/* cur: the newest data segment not yet reported; prev: the one stamped before it, while it
 * too is unreported. In order, an ACK that covers cur covers prev; with reordering prev may be
 * a segment beyond a hole that cur only partly fills: it stays until an ACK covers it (normally
 * with the segment that fills the hole, which is then reported instead) or two newer arrivals
 * push it out.
 * Softirq (ingress) and the socket's owner (the write callback) run concurrently: both slots are
 * written, and read for an option, only under `lock`, so a stamp is never paired with another
 * segment's end; the unlocked reads (len_nostamp, the write callback's early exit) are hints. */
struct rqd_sk {
	struct bpf_spin_lock lock;
	__u8 allowed;	/* 1: the allowlist admitted this connection (set at ESTABLISHED) */
	__u8 _pad[3];
	struct rqd_stamp cur;
	struct rqd_stamp prev;
};

/* Allowlist of peers (written by the loader, rxstamp --allow). IPv4 peers are looked up as
 * IPv4-mapped IPv6 addresses (::ffff:a.b.c.d, prefix length 96 + the IPv4 one). */
#define RQD_ALLOW_PORTS 8
struct rqd_allow_key {
	__u32 prefixlen;
	__u8 addr[16];
};

struct rqd_allow_val {
	__u32 nports;			/* 0: any port */
	__u16 ports[RQD_ALLOW_PORTS];	/* host order; matched against the local or the peer port */
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 64);
	__type(key, struct rqd_allow_key);
	__type(value, struct rqd_allow_val);
} rqd_allow SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct rqd_sk);
} rqd_sk_map SEC(".maps");

/* Written by the loader. */
struct rqd_cfg {
	__s64 real_minus_mono_ns;	/* CLOCK_REALTIME - CLOCK_MONOTONIC at the last sync */
	__u32 use_rx_stamps;		/* 1: prefer device / software RX stamps */
	__u32 _pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rqd_cfg);
} rqd_cfg SEC(".maps");

/* Counters; rxstamp/src/main.rs mirrors this layout (struct Stats). */
struct rqd_stats {
	__u64 ing_data;		/* data segments stamped */
	__u64 ing_src[3];	/* ... by source: RDCC_RQD_SRC_TCP, _SW_RX, _HW_RX */
	__u64 ing_hw_seen;	/* segments carrying a device stamp (used or not) */
	__u64 ing_sw_seen;	/* segments carrying a software RX stamp (used or not) */
	__u64 ing_v6;		/* data segments over IPv6 */
	__u64 ing_skipped;	/* IPv6 fragment or too many extension headers */
	__u64 len_cb;		/* HDR_OPT_LEN_CB runs */
	__u64 len_nostamp;	/* ... with no pending arrival: no option (pure window update etc.) */
	__u64 len_enospc;	/* ... no room left in the header (SACK blocks): option dropped */
	__u64 written;		/* options written */
	__u64 write_err;
	__u64 sum_delay_ns;
	__u64 min_delay_ns;
	__u64 max_delay_ns;
	__u64 delack_capped;	/* connections whose delayed-ACK timeout was capped */
	__u64 delack_err;	/* ... where bpf_setsockopt refused every value */
	__u64 est_allowed;	/* established connections admitted by the allowlist */
	__u64 est_skipped;	/* ... not admitted: left untouched */
	__u64 len_reserved;	/* HDR_OPT_LEN_CB runs that reserved the option's room */
	__u64 ing_gro_len;	/* data segments whose IP length field was 0 (GRO > 64 KB) */
	__u64 wr_prev;		/* options that reported the previous stamp: the newest one's
				 * segment was not yet acknowledged (it waited in the backlog) */
	__u64 wr_ahead;		/* segments written with stamps pending, none acknowledged by
				 * them: no option (the ACK of older data, nothing new to report) */
	__u64 hist[RQD_HIST];	/* written delays: bucket 4 * floor(log2 d) + next two bits */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rqd_stats);
} rqd_stats SEC(".maps");

static __always_inline struct rqd_stats *stats(void)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&rqd_stats, &k);
}

#define INC(s, f) do { if (s) __sync_fetch_and_add(&(s)->f, 1); } while (0)

/* floor(log2(d)) for 0 < d < 2^32 (no loops, no clz in BPF) */
static __always_inline __u32 ilog2_32(__u64 d)
{
	__u32 l = 0;

	if (d >> 16) { l += 16; d >>= 16; }
	if (d >> 8) { l += 8; d >>= 8; }
	if (d >> 4) { l += 4; d >>= 4; }
	if (d >> 2) { l += 2; d >>= 2; }
	if (d >> 1) { l += 1; }
	return l;
}

static __always_inline __u32 rqd_bucket(__u64 d)
{
	__u32 l, sub;

	if (d < 4)
		return (__u32)d;
	if (d >> 32)
		return RQD_HIST - 1;
	l = ilog2_32(d);
	sub = (__u32)(d >> (l - 2)) & 3;
	return (l * 4 + sub) & (RQD_HIST - 1);
}

/* Convert a CLOCK_REALTIME-based stamp to CLOCK_MONOTONIC; 0 if it is not within the last
 * second (wrong clock domain, stale, or in the future). */
static __always_inline __u64 to_mono(__u64 stamp, const struct rqd_cfg *cfg, __u64 now)
{
	__u64 m;

	if (!stamp)
		return 0;
	m = stamp - (__u64)cfg->real_minus_mono_ns;
	if (m > now || now - m > NSEC_PER_SEC)
		return 0;
	return m;
}

SEC("cgroup_skb/ingress")
int rqd_ingress(struct __sk_buff *skb)
{
	struct rqd_stats *s;
	struct rqd_cfg *cfg;
	struct rqd_sk *st;
	struct bpf_sock *sk;
	struct tcphdr th;
	__u32 thoff, plen, dlen, end_seq, k = 0;
	__u64 now, t, m;
	__u8 ttl, src = RDCC_RQD_SRC_TCP;
	int v6 = 0, gro = 0;

	if (skb->protocol == bpf_htons(ETH_P_IP)) {
		struct iphdr iph;

		if (bpf_skb_load_bytes(skb, 0, &iph, sizeof(iph)))
			return 1;
		if (iph.protocol != IPPROTO_TCP)
			return 1;
		thoff = (iph.ihl & 0xf) * 4;
		plen = bpf_ntohs(iph.tot_len);
		if (!plen) {			/* BIG TCP GRO packet: tot_len 0 */
			plen = skb->len;
			gro = 1;
		}
		ttl = iph.ttl;
	} else if (skb->protocol == bpf_htons(ETH_P_IPV6)) {
		struct ipv6hdr ip6h;
		__u8 nh, hdr[2];
		int i;

		if (bpf_skb_load_bytes(skb, 0, &ip6h, sizeof(ip6h)))
			return 1;
		nh = ip6h.nexthdr;
		thoff = sizeof(ip6h);
		/* Up to four extension headers: hop-by-hop, routing, destination options. */
#pragma unroll
		for (i = 0; i < 4; i++) {
			if (nh != 0 && nh != 43 && nh != 60)
				break;
			if (bpf_skb_load_bytes(skb, thoff, hdr, 2))
				return 1;
			nh = hdr[0];
			thoff += ((__u32)hdr[1] + 1) * 8;
		}
		if (nh != IPPROTO_TCP) {
			if (nh == 0 || nh == 43 || nh == 60 || nh == 44) {
				s = stats();
				INC(s, ing_skipped);
			}
			return 1;
		}
		plen = bpf_ntohs(ip6h.payload_len) + sizeof(ip6h);
		if (!ip6h.payload_len) {	/* BIG TCP GRO packet: payload_len 0 */
			plen = skb->len;
			gro = 1;
		}
		ttl = ip6h.hop_limit;
		v6 = 1;
	} else {
		return 1;
	}
	if (thoff > 512 || bpf_skb_load_bytes(skb, thoff, &th, sizeof(th)))
		return 1;
	if (plen <= thoff + th.doff * 4)
		return 1;			/* no payload: a pure ACK, not data to report on */
	dlen = plen - thoff - th.doff * 4;
	sk = skb->sk;
	if (!sk)
		return 1;
	sk = bpf_sk_fullsock(sk);
	if (!sk)
		return 1;
	/* Only connections the allowlist admitted have storage (created at ESTABLISHED). */
	st = bpf_sk_storage_get(&rqd_sk_map, sk, 0, 0);
	if (!st || !st->allowed)
		return 1;
	s = stats();
	if (gro)
		INC(s, ing_gro_len);
	now = bpf_ktime_get_ns();
	t = now;
	if (skb->hwtstamp)
		INC(s, ing_hw_seen);
	if (skb->tstamp)
		INC(s, ing_sw_seen);
	cfg = bpf_map_lookup_elem(&rqd_cfg, &k);
	if (cfg && cfg->use_rx_stamps) {
		m = to_mono(skb->hwtstamp, cfg, now);
		if (m) {
			t = m;
			src = RDCC_RQD_SRC_HW_RX;
		} else {
			m = to_mono(skb->tstamp, cfg, now);
			if (m) {
				t = m;
				src = RDCC_RQD_SRC_SW_RX;
			}
		}
	}
	end_seq = bpf_ntohl(th.seq) + dlen;
	bpf_spin_lock(&st->lock);
	if (st->cur.t_arr)
		st->prev = st->cur;
	st->cur.t_arr = t;
	st->cur.end_seq = end_seq;
	st->cur.ttl = ttl;
	st->cur.src = src;
	bpf_spin_unlock(&st->lock);
	INC(s, ing_data);
	if (v6)
		INC(s, ing_v6);
	if (s && src < 3)
		__sync_fetch_and_add(&s->ing_src[src], 1);
	return 1;
}

/* Is the connection's peer in the allowlist (and, if the rule names ports, is the local or the
 * peer port one of them)? */
static __always_inline int peer_allowed(const struct bpf_sock_ops *skops)
{
	struct rqd_allow_key k = { .prefixlen = 128 };
	struct rqd_allow_val *v;
	__u32 lport = skops->local_port, rport, i;

	if (skops->family == 2 /* AF_INET */) {
		__u32 a = skops->remote_ip4;

		k.addr[10] = 0xff;
		k.addr[11] = 0xff;
		__builtin_memcpy(&k.addr[12], &a, 4);
	} else if (skops->family == 10 /* AF_INET6 */) {
		__u32 a0 = skops->remote_ip6[0], a1 = skops->remote_ip6[1];
		__u32 a2 = skops->remote_ip6[2], a3 = skops->remote_ip6[3];

		__builtin_memcpy(&k.addr[0], &a0, 4);
		__builtin_memcpy(&k.addr[4], &a1, 4);
		__builtin_memcpy(&k.addr[8], &a2, 4);
		__builtin_memcpy(&k.addr[12], &a3, 4);
	} else {
		return 0;
	}
	v = bpf_map_lookup_elem(&rqd_allow, &k);
	if (!v)
		return 0;
	if (!v->nports)
		return 1;
	/* remote_port: network order, in the upper half of the word on sock_ops (the kernel
	 * loads the 16-bit port and shifts it left by 16 on little-endian hosts). */
	rport = bpf_ntohl(skops->remote_port);
	if (rport > 0xffff)
		rport = bpf_ntohs((__u16)skops->remote_port);
#pragma unroll
	for (i = 0; i < RQD_ALLOW_PORTS; i++) {
		if (i >= v->nports)
			break;
		if (v->ports[i] == lport || v->ports[i] == rport)
			return 1;
	}
	return 0;
}

SEC("sockops")
int rqd_sockops(struct bpf_sock_ops *skops)
{
	struct rqd_stats *s;
	struct rqd_stamp use;
	struct rqd_opt opt;
	struct tcphdr *th_out;
	struct rqd_sk *st;
	struct bpf_sock *sk;
	__u64 now, d;
	__u32 b, ack, from_prev;
	long err;

	switch (skops->op) {
	case BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB:
	case BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB: {
		sk = skops->sk;
		s = stats();
		if (!sk || !peer_allowed(skops)) {
			INC(s, est_skipped);
			return 1;
		}
		st = bpf_sk_storage_get(&rqd_sk_map, sk, 0, BPF_SK_STORAGE_GET_F_CREATE);
		if (!st) {
			INC(s, est_skipped);
			return 1;
		}
		st->allowed = 1;
		INC(s, est_allowed);
		/* Swift's receiver ACKs without delay (§3.2). Linux holds the ACK of a lone segment
		 * up to 40-200 ms, and that hold would read as endpoint delay: a sender whose
		 * endpoint window shrank to a few segments would see ever larger "endpoint delays"
		 * and shrink further. Cap the hold at the smallest value the kernel accepts (2
		 * jiffies, TCP_TIMEOUT_MIN: 2 ms at HZ=1000; 10 ms covers HZ=250). */
		int v = 2000;

		if (bpf_setsockopt(skops, SOL_TCP, TCP_BPF_DELACK_MAX, &v, sizeof(v))) {
			v = 10000;
			if (bpf_setsockopt(skops, SOL_TCP, TCP_BPF_DELACK_MAX, &v, sizeof(v)))
				INC(s, delack_err);
			else
				INC(s, delack_capped);
		} else {
			INC(s, delack_capped);
		}
		bpf_sock_ops_cb_flags_set(skops, skops->bpf_sock_ops_cb_flags |
					  BPF_SOCK_OPS_WRITE_HDR_OPT_CB_FLAG);
		return 1;
	}

	case BPF_SOCK_OPS_HDR_OPT_LEN_CB:
		if (skops->skb_tcp_flags & 0x02)	/* SYN: no data acknowledged yet */
			return 1;
		/* One load of skops->sk, kept in a register across the calls below: the verifier
		 * must see the NULL check on the value that is passed. */
		sk = skops->sk;
		if (!sk)
			return 1;
		s = stats();
		INC(s, len_cb);
		st = bpf_sk_storage_get(&rqd_sk_map, sk, 0, 0);
		if (!st || !st->allowed)
			return 1;
		if (!st->cur.t_arr && !st->prev.t_arr)
			INC(s, len_nostamp);
		/* Reserve whenever the option may be written on this connection, not only while an
		 * arrival is pending: tcp_current_mss() asks here too (skb NULL), and a data segment
		 * sized while nothing was pending could otherwise carry the option at transmit time
		 * and exceed the MTU by 10 bytes. Unused room is filled with NOPs by the kernel. */
		if (bpf_reserve_hdr_opt(skops, RDCC_RQD_LEN, 0))
			INC(s, len_enospc);
		else
			INC(s, len_reserved);
		return 1;

	case BPF_SOCK_OPS_WRITE_HDR_OPT_CB:
		if (skops->skb_tcp_flags & 0x02)
			return 1;
		sk = skops->sk;
		if (!sk)
			return 1;
		st = bpf_sk_storage_get(&rqd_sk_map, sk, 0, 0);
		if (!st || !st->allowed || (!st->cur.t_arr && !st->prev.t_arr))
			return 1;
		/* The ACK number this segment carries: the header is written before this callback
		 * (bpf.h, skb_data); tp->rcv_nxt if the header is out of reach. */
		th_out = (struct tcphdr *)(long)skops->skb_data;
		if ((void *)(th_out + 1) <= (void *)(long)skops->skb_data_end) {
			/* Byte by byte: skb_data need not be 4-byte aligned (NET_IP_ALIGN), and
			 * the verifier of a kernel without efficient unaligned access (UML, and
			 * arm or riscv without it) refuses a 4-byte packet load there
			 * ("misaligned packet access off 2+0+0+8 size 4"). Network order. */
			const __u8 *a = (const __u8 *)&th_out->ack_seq;

			ack = (__u32)a[0] << 24 | (__u32)a[1] << 16 | (__u32)a[2] << 8 | a[3];
		} else
			ack = skops->rcv_nxt;
		s = stats();
		/* The newest stamped segment this ACK covers (end_seq <= ack, modulo 2^32), copied
		 * under the lock; the stamps are cleared only once the option is in the header. */
		use.t_arr = 0;
		from_prev = 0;
		bpf_spin_lock(&st->lock);
		if (st->cur.t_arr && (__s32)(ack - st->cur.end_seq) >= 0) {
			use = st->cur;
		} else if (st->prev.t_arr && (__s32)(ack - st->prev.end_seq) >= 0) {
			use = st->prev;
			from_prev = 1;
		}
		bpf_spin_unlock(&st->lock);
		if (!use.t_arr) {
			INC(s, wr_ahead);
			return 1;
		}
		now = bpf_ktime_get_ns();
		d = now > use.t_arr ? now - use.t_arr : 0;
		if (d > 0xffffffffULL)
			d = 0xffffffffULL;
		opt.kind = RDCC_RQD_KIND;
		opt.len = RDCC_RQD_LEN;
		opt.exid = bpf_htons(RDCC_RQD_EXID);
		opt.delay = bpf_htonl((__u32)d);
		opt.ttl = use.ttl;
		opt.ver_src = (RDCC_RQD_VERSION << 4) | (use.src & 3);
		err = bpf_store_hdr_opt(skops, &opt, sizeof(opt), 0);
		/* Every stamp this ACK covers is this ACK's to report (use was the newest of them),
		 * written or not: a later ACK of the same data (a window update) reports nothing. An
		 * arrival since the copy above is of data beyond ack and stays (or is a duplicate of
		 * acknowledged data, and goes). */
		bpf_spin_lock(&st->lock);
		if (st->cur.t_arr && (__s32)(ack - st->cur.end_seq) >= 0)
			st->cur.t_arr = 0;
		if (st->prev.t_arr && (__s32)(ack - st->prev.end_seq) >= 0)
			st->prev.t_arr = 0;
		bpf_spin_unlock(&st->lock);
		if (err) {
			INC(s, write_err);
			return 1;
		}
		if (from_prev)
			INC(s, wr_prev);
		if (s) {
			__sync_fetch_and_add(&s->written, 1);
			__sync_fetch_and_add(&s->sum_delay_ns, d);
			if (d > s->max_delay_ns)
				s->max_delay_ns = d;
			if (!s->min_delay_ns || d < s->min_delay_ns)
				s->min_delay_ns = d;
			b = rqd_bucket(d);
			if (b < RQD_HIST)
				__sync_fetch_and_add(&s->hist[b], 1);
		}
		return 1;
	}
	return 1;
}

char _license[] SEC("license") = "GPL";
