// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcp_swift: the C half of the module. Everything but the name and the parameter list is the
 * shared glue in modules/glue/rdcc_glue.c. Each parameter is a field of the law's Config
 * (core/src/swift.rs) with the same name; unset parameters take the paper's default and
 * /sys/module/tcp_swift/parameters/ shows the effective values after load.
 */
#define RDCC_NAME "swift"
/* Swift consumes the receiver's remote-delay option (Documentation/remote-delay.md). */
#define RDCC_REMOTE_DELAY 1
#define RDCC_LEASE_SWIFT 1
#define RDCC_TRACE_SYSTEM tcp_swift
#define RDCC_PARAMS(P) \
	P(ai_pkts_q20, "additive increase per RTT, packets << 20 (Swift Alg. 1)", RDCC_U_PKTS_Q20, "range 1 (0.000000953 pkt) to 1073741824 (1024 pkt)") \
	P(beta_q16, "multiplicative-decrease constant beta, 65536 = 1.0 (Alg. 1)", RDCC_U_Q16, "range 1 (0.000015258) to 65536 (1)") \
	P(max_mdf_q16, "largest decrease per event, 65536 = 1.0 (Alg. 1)", RDCC_U_Q16, "range 1 (0.000015258) to 65535 (0.999984741)") \
	P(min_cwnd_pkts_q20, "window floor, packets << 20 (Alg. 1, 0.001 packet = 1049)", RDCC_U_PKTS_Q20, "range 1 (0.000000953 pkt) to 268435456 (256 pkt)") \
	P(max_cwnd_pkts_q20, "window ceiling, packets << 20", RDCC_U_PKTS_Q20, "range 1048576 (1 pkt) to 1099511627776 (1048576 pkt)") \
	P(init_cwnd_pkts_q20, "initial window, packets << 20", RDCC_U_PKTS_Q20, "range 1049 (0.001000404 pkt) to 268435456 (256 pkt)") \
	P(retx_reset_threshold, "consecutive RTOs that reset the window to its floor (Alg. 1)", RDCC_U_PLAIN, "range 1 to 255") \
	P(base_target_ns, "base fabric target delay, ns (§3.5)", RDCC_U_NS, "range 1us to 10ms") \
	P(per_hop_ns, "target added per hop, ns (§3.5)", RDCC_U_NS, "range 0ns to 1ms") \
	P(default_hops, "hop count used until the receiver echoes one", RDCC_U_PLAIN, "range 0 to 255") \
	P(fs_range_ns, "largest flow-scaling target addition, ns (§3.5); 0 disables", RDCC_U_NS, "range 0ns to 10ms") \
	P(fs_min_cwnd_pkts_q20, "window at which flow scaling adds all of fs_range, packets << 20", RDCC_U_PKTS_Q20, "range 1 (0.000000953 pkt) to 104857599 (99.999999046 pkt)") \
	P(fs_max_cwnd_pkts_q20, "window at which flow scaling adds nothing, packets << 20", RDCC_U_PKTS_Q20, "range 2 (0.000001907 pkt) to 1099511627776 (1048576 pkt)") \
	P(endpoint_target_ns, "endpoint-delay target, ns (§3.3)", RDCC_U_NS, "range 1us to 10ms") \
	P(endpoint_ewma_q16, "weight of a new endpoint-delay sample, 65536 = 1.0", RDCC_U_Q16, "range 1 (0.000015258) to 65536 (1)") \
	P(literal_decrease_guard, "1 = Alg. 1 line 27 read literally (see Documentation)", RDCC_U_PLAIN, "range 0 to 1")

#include "../glue/rdcc_glue.c"
