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
	P(base_ai_bps, "base additive increase as a rate, bytes/s (SL §III-D)", RDCC_U_BPS, "range 1B/s to 1099511627776B/s") \
	P(beta_q16, "Swift multiplicative-decrease constant, 65536 = 1.0 (SL Eq. 1)", RDCC_U_Q16, "range 1 (0.000015258) to 65536 (1)") \
	P(max_mdf_q16, "largest decrease per event, 65536 = 1.0", RDCC_U_Q16, "range 1 (0.000015258) to 65535 (0.999984741)") \
	P(min_cwnd_pkts_q20, "window floor, packets << 20", RDCC_U_PKTS_Q20, "range 1 (0.000000953 pkt) to 268435456 (256 pkt)") \
	P(max_cwnd_pkts_q20, "window ceiling, packets << 20", RDCC_U_PKTS_Q20, "range 1048576 (1 pkt) to 1099511627776 (1048576 pkt)") \
	P(init_cwnd_pkts_q20, "initial (and reference) window, packets << 20", RDCC_U_PKTS_Q20, "range 1049 (0.001000404 pkt) to 268435456 (256 pkt)") \
	P(retx_reset_threshold, "consecutive RTOs that reset the window to its floor", RDCC_U_PLAIN, "range 1 to 255") \
	P(base_target_ns, "base target delay, ns (SL §III-D)", RDCC_U_NS, "range 1us to 10ms") \
	P(per_hop_ns, "target added per hop, ns", RDCC_U_NS, "range 0ns to 1ms") \
	P(default_hops, "hop count used until the receiver echoes one", RDCC_U_PLAIN, "range 0 to 255") \
	P(sf_acks, "sampling frequency s: decreases committed every s ACKs (SL §IV)", RDCC_U_PLAIN, "range 0 to 65535") \
	P(sf_count_segments, "1 = s counts acknowledged segments instead of ACKs", RDCC_U_PLAIN, "range 0 to 1") \
	P(token_thresh_extra_ns, "token threshold above the target, ns (SL §VI-A)", RDCC_U_NS, "range 0ns to 10ms") \
	P(ai_div_ns, "queueing delay per minted token, ns (SL §VI-A)", RDCC_U_NS, "range 1ns to 1ms") \
	P(bank_cap, "most tokens the bank holds (SL §VI-A); 0 disables VAI", RDCC_U_PLAIN, "range 0 to 65535") \
	P(ai_cap, "most tokens spent per update (SL §VI-A)", RDCC_U_PLAIN, "range 0 to 65535") \
	P(dampener_constant, "dampener constant (SL §VI-A)", RDCC_U_PLAIN, "range 1 to 65535") \
	P(token_numerator, "token formula variant 0..2 (see Documentation)", RDCC_U_PLAIN, "range 0 to 2")

/* Swift VAI SF's steady-decrease lease (issue #13; core/src/vaisf_lease.rs): the ACKs of a
 * congested path's steady state have their bookkeeping done in C without calling the law.
 * tcp_swift_vaisf_rs.rs invokes rdcc_glue_vaisf_lease!. */
#define RDCC_LEASE_VAISF

#include "../glue/rdcc_glue.c"
