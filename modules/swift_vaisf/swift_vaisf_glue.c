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
	P(base_ai_bps, "base additive increase as a rate, bytes/s (SL §III-D)", RDCC_U_BPS) \
	P(beta_q16, "Swift multiplicative-decrease constant, 65536 = 1.0 (SL Eq. 1)", RDCC_U_Q16) \
	P(max_mdf_q16, "largest decrease per event, 65536 = 1.0", RDCC_U_Q16) \
	P(min_cwnd_pkts_q20, "window floor, packets << 20", RDCC_U_PKTS_Q20) \
	P(max_cwnd_pkts_q20, "window ceiling, packets << 20", RDCC_U_PKTS_Q20) \
	P(init_cwnd_pkts_q20, "initial (and reference) window, packets << 20", RDCC_U_PKTS_Q20) \
	P(retx_reset_threshold, "consecutive RTOs that reset the window to its floor", RDCC_U_PLAIN) \
	P(base_target_ns, "base target delay, ns (SL §III-D)", RDCC_U_NS) \
	P(per_hop_ns, "target added per hop, ns", RDCC_U_NS) \
	P(default_hops, "hop count used until the receiver echoes one", RDCC_U_PLAIN) \
	P(sf_acks, "sampling frequency s: decreases committed every s ACKs (SL §IV)", RDCC_U_PLAIN) \
	P(sf_count_segments, "1 = s counts acknowledged segments instead of ACKs", RDCC_U_PLAIN) \
	P(token_thresh_extra_ns, "token threshold above the target, ns (SL §VI-A)", RDCC_U_NS) \
	P(ai_div_ns, "queueing delay per minted token, ns (SL §VI-A)", RDCC_U_NS) \
	P(bank_cap, "most tokens the bank holds (SL §VI-A); 0 disables VAI", RDCC_U_PLAIN) \
	P(ai_cap, "most tokens spent per update (SL §VI-A)", RDCC_U_PLAIN) \
	P(dampener_constant, "dampener constant (SL §VI-A)", RDCC_U_PLAIN) \
	P(token_numerator, "token formula variant 0..2 (see Documentation)", RDCC_U_PLAIN)

#include "../glue/rdcc_glue.c"
