/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_bench_int.h - the INT echo rows of the per-ACK cost benchmark (issue #35 item 5; see the
 * top of rdcc_bench_main.c, "The INT echo"). Not a header of its own: rdcc_bench_main.c includes
 * it once, after bench_ack, so that everything stays one translation unit (the other rows' code
 * is compiled as before).
 */

static int bench_measure(const char *name, const struct bench_stream *st, u32 n,
			 enum bench_mode mode, u64 *insns, u32 *cwnd_end);

/*
 * The INT echo's ACK: NOP NOP TS(10) INT(13: one record) NOP NOP NOP = 28 bytes, doff 12. The
 * record's layout is core/src/int.rs IntHop (not in rdcc_int_wire.h): qlen in 80 B units, bits
 * 0..17; tx_bytes in 128 B units modulo 2^20, bits 17..37; ts in ns modulo 2^24, bits 37..61;
 * the rate's index in RATE_TABLE_BPS, bits 61..64 (0 = 10 Gbit/s).
 */
#define BENCH_INT_OPT		12
#define BENCH_INT_OPT_LEN	28
#define BENCH_INT_LEN		(RDCC_INT_HEADER_LEN + RDCC_INT_RECORD_LEN)
#define BENCH_INT_LINK_BPS	1250000000ULL	/* 10 Gbit/s, bytes/s: RATE_TABLE_BPS[0] */
#define BENCH_INT_RATE_IDX	0ULL
#define BENCH_INT_QMAX		(((1ULL << 17) - 1) * 80)	/* the record's largest queue */

static __always_inline u64 bench_int_record(u64 qlen_bytes, u64 tx_bytes, u64 ts_ns)
{
	return (qlen_bytes / 80) | ((tx_bytes / 128) & ((1ULL << 20) - 1)) << 17 |
	       (ts_ns & ((1ULL << 24) - 1)) << 37 | BENCH_INT_RATE_IDX << 61;
}

/*
 * The hop's state when this ACK's record was stamped: one ACK gap of a 10 Gbit/s port whose
 * only flow sends at its pacing rate (what the law set: W/tau; capped at twice the port's rate,
 * for the baseline pass whose socket has no law running). Arrivals join the queue, the port
 * sends up to its rate's bytes for the gap, the rest stays queued (drop-tail at the record's
 * largest queue). Then the ACK's header fields as bench_rqd_fill writes them, and the record.
 */
static __always_inline void bench_int_fill(struct sock *sk, const struct bench_stream *st,
					   struct bench_flow *f)
{
	struct tcp_sock *tp = tcp_sk(sk);
	struct tcphdr *th = tcp_hdr(f->skb);
	u8 *o = (u8 *)(th + 1);
	u64 in_bps = min_t(u64, READ_ONCE(sk->sk_pacing_rate), 2 * BENCH_INT_LINK_BPS);
	u64 q = f->q_bytes + in_bps * st->ack_gap_ns / NSEC_PER_SEC;
	u64 sent = min_t(u64, q, BENCH_INT_LINK_BPS * st->ack_gap_ns / NSEC_PER_SEC);
	u32 ack = tp->snd_una + st->pkts_per_ack * BENCH_MSS;

	f->q_bytes = min_t(u64, q - sent, BENCH_INT_QMAX);
	f->tx_bytes += sent;
	/* The ACK acknowledges data that was sent: with a window below the stream's segments per
	 * ACK (HPCC at its smallest window), those segments were in flight all the same, and the
	 * hook's range check (ack <= snd_nxt) must see them so. */
	if (after(ack, tp->snd_nxt))
		tp->snd_nxt = ack;
	th->ack_seq = htonl(ack);
	th->seq = htonl(f->peer_seq);
	f->tsval++;
	put_unaligned_be32(f->tsval, o + BENCH_OPT_TS + 2);
	put_unaligned_be64(bench_int_record(f->q_bytes, f->tx_bytes, f->now_ns),
			   o + BENCH_INT_OPT + RDCC_INT_HEADER_LEN);
	tp->snd_wl1 = f->peer_seq;
	tp->rx_opt.saw_tstamp = 1;
	tp->rx_opt.rcv_tsval = f->tsval;
}

/* A pure ACK from the peer: IPv4 + TCP with timestamps and an INT echo of one record. */
static struct sk_buff *bench_int_skb(struct sock *sk)
{
	struct sk_buff *skb = alloc_skb(MAX_HEADER + 128, GFP_KERNEL);
	struct tcphdr *th;
	struct iphdr *iph;
	u8 *o;

	if (!skb)
		return NULL;
	skb_reserve(skb, MAX_HEADER);
	iph = skb_put_zero(skb, sizeof(*iph));
	skb_reset_network_header(skb);
	iph->version = 4;
	iph->ihl = 5;
	iph->ttl = 64;
	iph->protocol = IPPROTO_TCP;
	iph->tot_len = htons(sizeof(*iph) + sizeof(*th) + BENCH_INT_OPT_LEN);
	th = skb_put_zero(skb, sizeof(*th) + BENCH_INT_OPT_LEN);
	skb_set_transport_header(skb, sizeof(*iph));
	th->doff = (sizeof(*th) + BENCH_INT_OPT_LEN) / 4;
	th->ack = 1;
	o = (u8 *)(th + 1);
	o[0] = TCPOPT_NOP;
	o[1] = TCPOPT_NOP;
	o[BENCH_OPT_TS] = TCPOPT_TIMESTAMP;
	o[BENCH_OPT_TS + 1] = TCPOLEN_TIMESTAMP;
	o[BENCH_INT_OPT] = RDCC_INT_KIND;
	o[BENCH_INT_OPT + 1] = BENCH_INT_LEN;
	put_unaligned_be16(RDCC_INT_EXID, o + BENCH_INT_OPT + 2);
	o[BENCH_INT_OPT + 4] = RDCC_INT_VERSION << 6 | RDCC_INT_HDR_ECHO | 1;	/* 1 record */
	o[BENCH_INT_OPT + BENCH_INT_LEN] = TCPOPT_NOP;
	o[BENCH_INT_OPT + BENCH_INT_LEN + 1] = TCPOPT_NOP;
	o[BENCH_INT_OPT + BENCH_INT_LEN + 2] = TCPOPT_NOP;
	BUILD_BUG_ON(BENCH_INT_OPT + BENCH_INT_LEN + 3 != BENCH_INT_OPT_LEN);
	skb->protocol = htons(ETH_P_IP);
	skb->sk = sk;	/* as early demux sets it; cleared before the free (no destructor) */
	return skb;
}

/*
 * The INT modes of bench_run, apart so that bench_run's code (the other rows' loops) stays as it
 * was; in RUN_INT_HOOK, return the instructions of the hook's calls alone.
 */
static noinline u64 bench_run_int(struct sock *sk, const struct tcp_congestion_ops *ca,
				  const struct bench_stream *st, struct bench_flow *f, u32 n,
				  enum bench_mode mode)
{
	struct nf_hook_state hs = { .hook = NF_INET_LOCAL_IN, .pf = NFPROTO_IPV4, .net = &init_net };
	u64 total = 0, hook = 0;
	u32 done = 0;

	while (done < n) {
		u32 k = min_t(u32, BENCH_CHUNK, n - done), i;
		unsigned long flags;
		u64 t0, t1;

		rcu_read_lock();
		local_irq_save(flags);
		t0 = bench_now();
		switch (mode) {
		case RUN_INT_BASE:
			for (i = 0; i < k; i++) {
				bench_int_fill(sk, st, f);
				barrier();
				bench_step(sk, st, f);
				barrier();
			}
			break;
		case RUN_INT_CA:
			for (i = 0; i < k; i++) {
				bench_int_fill(sk, st, f);
				f->hook->hook(f->hook->priv, f->skb, &hs);
				bench_step(sk, st, f);
				bench_ack(sk, ca, st, f);
			}
			break;
		case RUN_INT_HOOK:
			/* As RUN_INT_CA, the hook's call alone counted: c - b is the clock read's
			 * own part in both pairs (its work after sampling, then before). */
			for (i = 0; i < k; i++) {
				u64 a, b, c;

				bench_int_fill(sk, st, f);
				a = bench_now();
				f->hook->hook(f->hook->priv, f->skb, &hs);
				b = bench_now();
				c = bench_now();
				hook += (b - a) - (c - b);
				bench_step(sk, st, f);
				bench_ack(sk, ca, st, f);
			}
			break;
		default:
			break;
		}
		t1 = bench_now();
		local_irq_restore(flags);
		rcu_read_unlock();
		total += t1 - t0;
		done += k;
	}
	return mode == RUN_INT_HOOK ? hook : total;
}

/*
 * The INT rows of a stream (see the top of this file): `int_hook` (tcp_powertcp's hook, its
 * share of `powertcp+int`) and `<name>+int`. The law's state at the end, through get_info as TCP_CC_INFO reads it:
 * reason (event.rs Reason: 9 PowerTCP's power update; 2 or 3 HPCC's increase or decrease) and
 * signal (Gamma_smooth or U, x1000).
 */
static void bench_int_rows(const struct bench_stream *st, const char *name)
{
	struct { const char *row; enum bench_mode mode; } rows[2] = {
		{ "int_hook", RUN_INT_HOOK },
		{ NULL, RUN_INT_CA },
	};
	char row[TCP_CA_NAME_MAX + 8];
	u64 base, t;
	unsigned int i;
	u32 cw;
	int err = bench_measure(name, st, acks, RUN_INT_BASE, &base, &cw);

	snprintf(row, sizeof(row), "%s+int", name);
	rows[1].row = row;
	for (i = strcmp(name, "powertcp") ? 1 : 0; i < ARRAY_SIZE(rows); i++) {
		if (!err)
			err = bench_measure(name, st, acks, rows[i].mode, &t, &cw);
		if (err) {
			pr_info("RDCC-BENCH-ERROR stream=%s algo=%s err=%d\n", st->name, rows[i].row,
				err);
			continue;
		}
		/* int_hook: the hook's own count, nothing to subtract */
		pr_info("RDCC-BENCH set=%s stream=%s algo=%s acks=%u insns=%llu base=%llu cwnd_end=%u\n",
			tag, st->name, rows[i].row, acks, t, rows[i].mode == RUN_INT_HOOK ? 0 : base,
			cw);
	}
}

/*
 * The check of int_hook's per-call count (bench_run, RUN_INT_HOOK) on a piece of known length:
 * 1000 iterations of the 2-instruction loop between a clock pair, less a third read's pair,
 * summed over 500 calls as a chunk does. 2 x 1000 x 500 expected (plus the loop's set-up, a
 * register move or none, per call).
 */
static noinline u64 bench_check_split(void)
{
	unsigned long flags;
	u64 sum = 0;
	u32 i;

	local_irq_save(flags);
	for (i = 0; i < BENCH_CHUNK; i++) {
		unsigned long n = 1000;
		u64 a, b, c;

		a = bench_now();
		asm volatile("1: dec %0\n\tjnz 1b" : "+r"(n) : : "cc");
		b = bench_now();
		c = bench_now();
		sum += (b - a) - (c - b);
	}
	local_irq_restore(flags);
	return sum;
}
