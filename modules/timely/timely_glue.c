// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcp_timely: the C half of the module. Everything but the name and the parameter list is the
 * shared glue in modules/glue/rdcc_glue.c. Each parameter is a field of the law's Config
 * (core/src/timely.rs) with the same name; unset parameters take the paper's default and
 * /sys/module/tcp_timely/parameters/ shows the effective values after load.
 */
#define RDCC_NAME "timely"
#define RDCC_TRACE_SYSTEM tcp_timely
#define RDCC_PARAMS(P) \
	P(segment_bytes, "bytes acknowledged per completion event (§3.1: 16 KB)", RDCC_U_BYTES, "range 1 to 1048576") \
	P(t_low_ns, "T_low, ns (Alg. 1)", RDCC_U_NS, "range 0ns to 10s") \
	P(t_high_ns, "T_high, ns (Alg. 1)", RDCC_U_NS, "range 50us to 10s") \
	P(min_rtt_ns, "minRTT gradient normaliser, ns (§4.3)", RDCC_U_NS, "range 1us to 10s") \
	P(alpha_q16, "EWMA weight of a new RTT difference, 65536 = 1.0", RDCC_U_Q16, "range 1 (0.000015258) to 65536 (1)") \
	P(beta_q16, "multiplicative decrement factor, 65536 = 1.0 (Alg. 1)", RDCC_U_Q16, "range 1 (0.000015258) to 65536 (1)") \
	P(delta_mbps, "additive increment, Mbit/s (Alg. 1)", RDCC_U_MBPS, "range 1Mbit to 10Gbit") \
	P(hai_threshold, "negative-gradient completions before hyperactive increase", RDCC_U_PLAIN, "range 1 to 1000") \
	P(hai_factor, "hyperactive increase multiplier N (1 disables)", RDCC_U_PLAIN, "range 1 to 1000") \
	P(hai_in_low_guard, "1 = the T_low branch also uses hyperactive increase", RDCC_U_PLAIN, "range 0 to 1") \
	P(line_rate_mbps, "rate ceiling, Mbit/s", RDCC_U_MBPS, "range 1Mbit to 8796093Mbit") \
	P(min_rate_mbps, "rate floor, Mbit/s", RDCC_U_MBPS, "range 1Mbit to 10Gbit") \
	P(init_rate_mbps, "rate at connection start, Mbit/s", RDCC_U_MBPS, "range 10Mbit to 10Gbit") \
	P(app_limit_q16, "increase only above this fraction of the rate, 65536 = 1.0 (§5)", RDCC_U_Q16, "range 0 (0) to 65536 (1)") \
	P(update_mode, "0 per round, 1 per minRTT, 2 per completion (see Documentation)", RDCC_U_PLAIN, "range 0 to 2") \
	P(rto_beta_q16, "rate decrease on an RTO, 65536 = 1.0", RDCC_U_Q16, "range 0 (0) to 65536 (1)") \
	P(rto_reset_count, "consecutive RTOs that drop the rate to the floor", RDCC_U_PLAIN, "range 0 to 255") \
	P(skip_delayed_acks, "1 = ignore RTT samples of possibly delayed ACKs", RDCC_U_PLAIN, "range 0 to 1")

/* Hold leases (issue #13; core/src/timely_lease.rs): most ACKs of a datacenter stream are
 * applied from the lease without calling the law. tcp_timely_rs.rs invokes rdcc_glue_lease!. */
#define RDCC_LEASE

#include "../glue/rdcc_glue.c"
