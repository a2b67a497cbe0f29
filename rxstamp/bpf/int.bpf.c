// SPDX-License-Identifier: GPL-2.0-only
/*
 * int.bpf.c - the INT request at the sender and the receiver's echo (issue #35 item 2).
 *
 * One sock_ops program, attached to a cgroup v2 by `rxstamp int attach` (rxstamp/src/intecho.rs),
 * plays both roles on every connection the peer allowlist admits (a host sends and receives):
 *
 *  sender   every segment with payload carries an INT request: the option of
 *           modules/glue/rdcc_int_wire.h (core/src/int_wire.rs) with echo = 0, cnt = 0 and N
 *           empty slots, which the software INT switches (sch_rdcc_int) fill at dequeue. N is
 *           int_cfg.slots, or (0, the default) the most that fit beside the connection's own
 *           options, chosen at ESTABLISHED: 2 with timestamps, 4 without.
 *  receiver PARSE_HDR_OPT_CB (BPF_SOCK_OPS_PARSE_UNKNOWN_HDR_OPT_CB_FLAG: kind 253 is unknown
 *           to the kernel) reads the INT option of each arriving segment with bpf_load_hdr_opt
 *           (kind 253, magic 0x494e); a valid request in a segment with new data (its sequence
 *           number not before rcv_nxt) is kept in sk_storage, replacing any older one. The next
 *           segment without payload whose ACK number covers that segment's end carries it back
 *           as an echo: echo = 1, the switches' records, cnt and ovf as received, 5 + 8 *
 *           max(cnt, 1) bytes. The stack is then cleared: each stack is echoed at most once.
 *
 * Why PARSE_HDR_OPT_CB and not rqd's cgroup_skb ingress: the kernel calls it from
 * tcp_validate_incoming() after PAWS, the sequence-number check and the RST/SYN checks, so a
 * forged segment outside the receive window never reaches it; it runs under the socket lock,
 * like HDR_OPT_LEN_CB and WRITE_HDR_OPT_CB, so the three see one consistent sk_storage (no
 * bpf_spin_lock); and the INT stack needs no arrival time. The ACK-number check at echo time
 * (the stack's segment must be acknowledged by the ACK that echoes it) keeps a stack from a
 * segment that TCP later dropped (bad ACK field) from being echoed: a newer segment replaces
 * it, or it waits (Documentation/int-channel.md, "Request and echo").
 *
 * Room: HDR_OPT_LEN_CB reserves the request on every segment with payload and on
 * tcp_current_mss()'s query (skb NULL, args[0] = BPF_WRITE_HDR_TCP_CURRENT_MSS), so the MSS
 * the kernel sizes data with leaves room for it and no segment exceeds the MTU; on a segment
 * without payload it reserves the echo only when one will be written. Where the room is not
 * there (SACK blocks, TCP-MD5), the option is left out and counted; a pending echo then waits
 * for the next ACK. A segment that is both data and ACK carries the request, never the echo.
 *
 * Needs the program's BTF (clang -g: sk_storage maps require key/value BTF).
 */
#include <linux/types.h>
#include <linux/bpf.h>
#include <linux/tcp.h>
#include <linux/errno.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_endian.h>

#include "../../modules/glue/rdcc_int_wire.h"

#define TCPHDR_SYN	0x02
#define INT_MAX_LEN	(RDCC_INT_HEADER_LEN + RDCC_INT_MAX_SLOTS * RDCC_INT_RECORD_LEN) /* 37 */
#define INT_HOPS	(RDCC_INT_MAX_SLOTS + 1)	/* histogram of cnt: 0..4 */

/* Per connection, created at ESTABLISHED for admitted connections only. */
struct int_sk {
	__u8 allowed;	/* 1: the allowlist admitted this connection */
	__u8 slots;	/* slots of this host's requests (1..4), chosen at ESTABLISHED */
	__u8 fresh;	/* a received stack not yet echoed */
	__u8 hdr;	/* its header byte as received (version, ovf, cnt; echo 0) */
	__u32 end_seq;	/* sequence number after the payload of the segment that carried it */
	__u8 rec[RDCC_INT_MAX_SLOTS * RDCC_INT_RECORD_LEN];	/* its slots, wire order */
};

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct int_sk);
} int_sk_map SEC(".maps");

/* Allowlist: the layout of rqd.bpf.c's (rxstamp/src/allow.rs fills both). */
#define INT_ALLOW_PORTS 8
struct int_allow_key {
	__u32 prefixlen;
	__u8 addr[16];
};

struct int_allow_val {
	__u32 nports;
	__u16 ports[INT_ALLOW_PORTS];
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 64);
	__type(key, struct int_allow_key);
	__type(value, struct int_allow_val);
} int_allow SEC(".maps");

/* Written by the loader (rxstamp int attach --slots). */
struct int_cfg {
	__u32 slots;	/* 1..4; 0: the most that fit beside the connection's options */
	__u32 _pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct int_cfg);
} int_cfg SEC(".maps");

/* Counters; rxstamp/src/intecho.rs mirrors this layout (struct IntStats). */
struct int_stats {
	__u64 est_allowed;	/* established connections admitted by the allowlist */
	__u64 est_skipped;	/* ... not admitted: left untouched */
	__u64 mss_reserved;	/* tcp_current_mss() queries that reserved the request's room */
	__u64 mss_no_room;	/* ... where it did not fit */
	__u64 req_reserved;	/* data segments with the request's room reserved */
	__u64 req_no_room;	/* data segments where it did not fit (SACK blocks, MD5) */
	__u64 req_written;	/* requests written */
	__u64 req_write_err;
	__u64 rx_req;		/* valid requests in new data, kept for the echo */
	__u64 rx_replaced;	/* ... that replaced a stack not yet echoed */
	__u64 rx_old;		/* valid requests in a segment not beyond rcv_nxt: not kept */
	__u64 rx_nodata;	/* valid requests in a segment without payload: not kept */
	__u64 rx_echo;		/* valid echoes (ACKs arriving at this host as a sender) */
	__u64 rx_bad_len;	/* INT options of a length other than 5 + 8n, 1 <= n <= 4 */
	__u64 rx_bad_ver;	/* ... of another version */
	__u64 rx_bad_cnt;	/* ... with more records than slots */
	__u64 rx_bad_list;	/* option lists bpf_load_hdr_opt could not walk */
	__u64 rx_ovf;		/* kept requests with the overflow bit */
	__u64 rx_hops[INT_HOPS];	/* kept requests by records: 0..4 */
	__u64 echo_reserved;	/* segments without payload with the echo's room reserved */
	__u64 echo_no_room;	/* ... where it did not fit: the stack waits */
	__u64 echo_written;	/* echoes written (each stack once) */
	__u64 echo_write_err;
	__u64 echo_wait;	/* ACKs that did not cover the pending stack's segment */
	__u64 echo_hops[INT_HOPS];	/* echoes written by records: 0..4 */
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct int_stats);
} int_stats SEC(".maps");

static __always_inline struct int_stats *stats(void)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&int_stats, &k);
}

#define INC(s, f) do { if (s) __sync_fetch_and_add(&(s)->f, 1); } while (0)

/* h[k] += 1 for k < INT_HOPS. The compiler may know k <= 4 from an earlier test that the
 * verifier does not connect to this one and drop the bound, or test a copy of k and index
 * with another: k is 64 bits wide before the barrier, so the test and the index are one
 * register. */
static __always_inline void hist_add(__u64 *h, __u64 k)
{
	barrier_var(k);
	if (h && k < INT_HOPS)
		__sync_fetch_and_add(&h[k], 1);
}

/* Sequence-space comparison (RFC 9293 §3.4): a before b. */
static __always_inline int before(__u32 a, __u32 b)
{
	return (__s32)(a - b) < 0;
}

/* The option length of `slots` slots (1..4): 13, 21, 29, 37. */
static __always_inline __u32 opt_len(__u32 slots)
{
	if (slots < 1)
		slots = 1;
	if (slots > RDCC_INT_MAX_SLOTS)
		slots = RDCC_INT_MAX_SLOTS;
	return RDCC_INT_HEADER_LEN + slots * RDCC_INT_RECORD_LEN;
}

/* Big-endian u32 at byte offset `off` of the TCP header in [data, end), byte by byte (the
 * header need not be 4-byte aligned: see rqd.bpf.c); 0 with *ok = 0 out of reach. */
static __always_inline __u32 hdr_be32(const struct bpf_sock_ops *skops, __u32 off, int *ok)
{
	const __u8 *d = (const __u8 *)(long)skops->skb_data;
	const __u8 *e = (const __u8 *)(long)skops->skb_data_end;

	*ok = 0;
	if (off > 16 || d + off + 4 > e)
		return 0;
	*ok = 1;
	return (__u32)d[off] << 24 | (__u32)d[off + 1] << 16 | (__u32)d[off + 2] << 8 | d[off + 3];
}

/* Payload bytes of the segment in skb_data (whose skb->len includes the TCP header); -1 when
 * the header is out of reach. */
static __always_inline long payload_len(const struct bpf_sock_ops *skops)
{
	const __u8 *d = (const __u8 *)(long)skops->skb_data;
	const __u8 *e = (const __u8 *)(long)skops->skb_data_end;

	if (d + 13 > e)
		return -1;
	return (long)skops->skb_len - (long)((d[12] >> 4) * 4);
}

/* Is the connection's peer in the allowlist (and, if the rule names ports, is the local or the
 * peer port one of them)? The same test as rqd.bpf.c's peer_allowed. */
static __always_inline int peer_allowed(const struct bpf_sock_ops *skops)
{
	struct int_allow_key k = { .prefixlen = 128 };
	struct int_allow_val *v;
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
	v = bpf_map_lookup_elem(&int_allow, &k);
	if (!v)
		return 0;
	if (!v->nports)
		return 1;
	rport = bpf_ntohl(skops->remote_port);
	if (rport > 0xffff)
		rport = bpf_ntohs((__u16)skops->remote_port);
#pragma unroll
	for (i = 0; i < INT_ALLOW_PORTS; i++) {
		if (i >= v->nports)
			break;
		if (v->ports[i] == lport || v->ports[i] == rport)
			return 1;
	}
	return 0;
}

static __always_inline int on_established(struct bpf_sock_ops *skops)
{
	struct int_stats *s = stats();
	struct bpf_sock *sk = skops->sk;
	__u8 ts[12] = { 8 /* TCPOPT_TIMESTAMP */ };
	struct int_cfg *cfg;
	struct int_sk *st;
	__u32 k = 0;

	if (!sk || !peer_allowed(skops)) {
		INC(s, est_skipped);
		return 1;
	}
	st = bpf_sk_storage_get(&int_sk_map, sk, 0, BPF_SK_STORAGE_GET_F_CREATE);
	if (!st) {
		INC(s, est_skipped);
		return 1;
	}
	st->allowed = 1;
	/* Slots of this host's requests: --slots, or the most that fit beside the connection's
	 * options: 2 with timestamps (12 bytes aligned), 4 without. The handshake segment in hand
	 * (the SYN-ACK on the active side, the handshake's last ACK on the passive side) carries
	 * timestamps exactly when they were negotiated; without it (TCP_REPAIR) assume them. */
	cfg = bpf_map_lookup_elem(&int_cfg, &k);
	if (cfg && cfg->slots >= 1 && cfg->slots <= RDCC_INT_MAX_SLOTS)
		st->slots = cfg->slots;
	else if (bpf_load_hdr_opt(skops, ts, sizeof(ts), 0) == -ENOMSG)
		st->slots = RDCC_INT_MAX_SLOTS;
	else
		st->slots = 2;
	INC(s, est_allowed);
	bpf_sock_ops_cb_flags_set(skops, skops->bpf_sock_ops_cb_flags |
				  BPF_SOCK_OPS_WRITE_HDR_OPT_CB_FLAG |
				  BPF_SOCK_OPS_PARSE_UNKNOWN_HDR_OPT_CB_FLAG);
	return 1;
}

static __always_inline int on_len(struct bpf_sock_ops *skops)
{
	struct int_stats *s;
	struct bpf_sock *sk;
	struct int_sk *st;
	__u32 len;
	int query, data;

	if (skops->skb_tcp_flags & TCPHDR_SYN)
		return 1;
	sk = skops->sk;
	if (!sk)
		return 1;
	st = bpf_sk_storage_get(&int_sk_map, sk, 0, 0);
	if (!st || !st->allowed)
		return 1;
	s = stats();
	query = skops->args[0] == BPF_WRITE_HDR_TCP_CURRENT_MSS;
	data = !query && skops->skb_len > 0;	/* before the header is pushed: payload only */
	if (query || data) {
		if (bpf_reserve_hdr_opt(skops, opt_len(st->slots), 0)) {
			if (query)
				INC(s, mss_no_room);
			else
				INC(s, req_no_room);
		} else {
			if (query)
				INC(s, mss_reserved);
			else
				INC(s, req_reserved);
		}
		return 1;
	}
	/* No payload: room for the echo only if this ACK will carry it (the header's ACK number
	 * will be rcv_nxt; the write callback checks the header itself). */
	if (!st->fresh || before(skops->rcv_nxt, st->end_seq))
		return 1;
	len = opt_len(st->hdr & RDCC_INT_HDR_COUNT_MASK);
	if (bpf_reserve_hdr_opt(skops, len, 0))
		INC(s, echo_no_room);
	else
		INC(s, echo_reserved);
	return 1;
}

static __always_inline int on_write(struct bpf_sock_ops *skops)
{
	__u8 opt[40] = {};
	struct int_stats *s;
	struct bpf_sock *sk;
	struct int_sk *st;
	__u32 len, ack, cnt;
	long plen;
	int ok;

	if (skops->skb_tcp_flags & TCPHDR_SYN)
		return 1;
	sk = skops->sk;
	if (!sk)
		return 1;
	st = bpf_sk_storage_get(&int_sk_map, sk, 0, 0);
	if (!st || !st->allowed)
		return 1;
	s = stats();
	plen = payload_len(skops);
	if (plen < 0)
		return 1;
	opt[0] = RDCC_INT_KIND;
	opt[2] = RDCC_INT_EXID >> 8;
	opt[3] = RDCC_INT_EXID & 0xff;
	if (plen > 0) {
		/* A request: version, no records, every slot empty. */
		len = opt_len(st->slots);
		opt[1] = len;
		opt[4] = RDCC_INT_VERSION << 6;
		if (len < 13 || len > INT_MAX_LEN)
			return 1;
		if (bpf_store_hdr_opt(skops, opt, len, 0))
			INC(s, req_write_err);
		else
			INC(s, req_written);
		return 1;
	}
	if (!st->fresh)
		return 1;
	ack = hdr_be32(skops, 8, &ok);
	if (!ok)
		ack = skops->rcv_nxt;
	if (before(ack, st->end_seq)) {
		INC(s, echo_wait);
		return 1;
	}
	cnt = st->hdr & RDCC_INT_HDR_COUNT_MASK;
	len = opt_len(cnt);
	opt[1] = len;
	opt[4] = (st->hdr & ~RDCC_INT_HDR_ECHO) | RDCC_INT_HDR_ECHO;
	__builtin_memcpy(&opt[RDCC_INT_HEADER_LEN], st->rec, sizeof(st->rec));
	if (len < 13 || len > INT_MAX_LEN)
		return 1;
	if (bpf_store_hdr_opt(skops, opt, len, 0)) {
		INC(s, echo_write_err);	/* the stack stays for the next ACK */
		return 1;
	}
	st->fresh = 0;
	INC(s, echo_written);
	hist_add(s ? s->echo_hops : 0, cnt);
	return 1;
}

static __always_inline int on_parse(struct bpf_sock_ops *skops)
{
	__u8 opt[40] = { RDCC_INT_KIND, 4, RDCC_INT_EXID >> 8, RDCC_INT_EXID & 0xff };
	struct int_stats *s;
	struct bpf_sock *sk;
	struct int_sk *st;
	__u32 len, body, slots, cnt, seq;
	__u8 hdr;
	long ret, plen;
	int ok;

	sk = skops->sk;
	if (!sk)
		return 1;
	st = bpf_sk_storage_get(&int_sk_map, sk, 0, 0);
	if (!st || !st->allowed)
		return 1;
	ret = bpf_load_hdr_opt(skops, opt, sizeof(opt), 0);
	if (ret == -ENOMSG)
		return 1;	/* another unknown option, not ours */
	s = stats();
	if (ret < 0) {
		INC(s, rx_bad_list);
		return 1;
	}
	/* Validation, as core/src/int_wire.rs check(): length 5 + 8n (1 <= n <= 4), version,
	 * count <= slots. */
	len = opt[1];
	body = len >= RDCC_INT_HEADER_LEN ? len - RDCC_INT_HEADER_LEN : 0;
	if (len != ret || body < RDCC_INT_RECORD_LEN || body > INT_MAX_LEN - RDCC_INT_HEADER_LEN ||
	    body % RDCC_INT_RECORD_LEN) {
		INC(s, rx_bad_len);
		return 1;
	}
	slots = body / RDCC_INT_RECORD_LEN;
	hdr = opt[4];
	if ((hdr >> 6) != RDCC_INT_VERSION) {
		INC(s, rx_bad_ver);
		return 1;
	}
	cnt = hdr & RDCC_INT_HDR_COUNT_MASK;
	if (cnt > slots) {
		INC(s, rx_bad_cnt);
		return 1;
	}
	if (hdr & RDCC_INT_HDR_ECHO) {
		INC(s, rx_echo);	/* the sender's kernel module takes it (not this program) */
		return 1;
	}
	plen = payload_len(skops);
	seq = hdr_be32(skops, 4, &ok);
	if (plen <= 0 || !ok) {
		INC(s, rx_nodata);
		return 1;
	}
	if (before(seq, skops->rcv_nxt)) {
		INC(s, rx_old);		/* a retransmission of data already received */
		return 1;
	}
	if (st->fresh)
		INC(s, rx_replaced);
	st->hdr = hdr & (0xc0 | RDCC_INT_HDR_OVERFLOW | RDCC_INT_HDR_COUNT_MASK);
	st->end_seq = seq + (__u32)plen;
	__builtin_memcpy(st->rec, &opt[RDCC_INT_HEADER_LEN], sizeof(st->rec));
	st->fresh = 1;
	INC(s, rx_req);
	if (hdr & RDCC_INT_HDR_OVERFLOW)
		INC(s, rx_ovf);
	hist_add(s ? s->rx_hops : 0, cnt);
	return 1;
}

SEC("sockops")
int int_sockops(struct bpf_sock_ops *skops)
{
	switch (skops->op) {
	case BPF_SOCK_OPS_ACTIVE_ESTABLISHED_CB:
	case BPF_SOCK_OPS_PASSIVE_ESTABLISHED_CB:
		return on_established(skops);
	case BPF_SOCK_OPS_HDR_OPT_LEN_CB:
		return on_len(skops);
	case BPF_SOCK_OPS_WRITE_HDR_OPT_CB:
		return on_write(skops);
	case BPF_SOCK_OPS_PARSE_HDR_OPT_CB:
		return on_parse(skops);
	}
	return 1;
}

char _license[] SEC("license") = "GPL";
