// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcp_swift_vaisf: the C half of the module. Everything but the name and the parameter list is the
 * shared glue in modules/glue/rdcc_glue.c. Each parameter is a field of the law's Config
 * (core/src/vaisf.rs) with the same name; unset parameters take the paper's default and
 * /sys/module/tcp_swift_vaisf/parameters/ shows the effective values after load.
 */
#define RDCC_NAME "swift_vaisf"
#define RDCC_TRACE_SYSTEM tcp_swift_vaisf
#define RDCC_PARAMS(P) \
	P(base_ai_bps, "base additive increase as a rate, bytes/s (SL §III-D)") \
	P(beta_q16, "Swift multiplicative-decrease constant, 65536 = 1.0 (SL Eq. 1)") \
	P(max_mdf_q16, "largest decrease per event, 65536 = 1.0") \
	P(min_cwnd_pkts_q20, "window floor, packets << 20") \
	P(max_cwnd_pkts_q20, "window ceiling, packets << 20") \
	P(init_cwnd_pkts_q20, "initial (and reference) window, packets << 20") \
	P(retx_reset_threshold, "consecutive RTOs that reset the window to its floor") \
	P(base_target_ns, "base target delay, ns (SL §III-D)") \
	P(per_hop_ns, "target added per hop, ns") \
	P(default_hops, "hop count used until the receiver echoes one") \
	P(sf_acks, "sampling frequency s: decreases committed every s ACKs (SL §IV)") \
	P(sf_count_segments, "1 = s counts acknowledged segments instead of ACKs") \
	P(token_thresh_extra_ns, "token threshold above the target, ns (SL §VI-A)") \
	P(ai_div_ns, "queueing delay per minted token, ns (SL §VI-A)") \
	P(bank_cap, "most tokens the bank holds (SL §VI-A); 0 disables VAI") \
	P(ai_cap, "most tokens spent per update (SL §VI-A)") \
	P(dampener_constant, "dampener constant (SL §VI-A)") \
	P(token_numerator, "token formula variant 0..2 (see Documentation)")

#include "../glue/rdcc_glue.c"
