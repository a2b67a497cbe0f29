// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcp_powertcp: the C half of the module. Everything but the name and the parameter list is the
 * INT modules' shared glue in modules/glue/rdcc_int_glue.c. Each parameter is a field of the
 * law's Config (core/src/powertcp_int.rs) with the same name; unset parameters take the paper's
 * default and /sys/module/tcp_powertcp/parameters/ shows the effective values after load.
 */
#define RDCC_NAME "powertcp"
#define RDCC_TRACE_SYSTEM tcp_powertcp
#define RDCC_PARAMS(P) \
	P(gamma_q16, "EWMA weight gamma of the new window, 65536 = 1.0 (Alg. 1 line 31)", RDCC_U_Q16, "range 1 (0.000015258) to 65536 (1)") \
	P(base_rtt_ns, "base RTT tau, ns", RDCC_U_NS, "range 1us to 1s") \
	P(host_bw_bps, "host NIC rate, bytes/s", RDCC_U_BPS, "range 1Mbit to 1099511627776B/s") \
	P(expected_flows, "expected flows N for beta = HostBw*tau/N", RDCC_U_PLAIN, "range 1 to 65536") \
	P(beta_bytes, "additive increase beta, bytes (0 = HostBw*tau/N)", RDCC_U_BYTES, "range 0 to 2147483648") \
	P(min_cwnd_bytes, "window floor, bytes", RDCC_U_BYTES, "range 1 to 2147483648") \
	P(max_cwnd_bytes, "window ceiling, bytes (0 = HostBw*tau)", RDCC_U_BYTES, "range 0 to 2147483648") \
	P(smooth_init_q16, "initial smoothed power, 65536 = 1.0 (0 = first sample)", RDCC_U_Q16, "range 0 (0) to 4294967296 (65536)") \
	P(target_q16, "target normalised power eta, 65536 = 1.0 (authors' code: 0.95)", RDCC_U_Q16, "range 32768 (0.5) to 65536 (1)") \
	P(lambda_floor_q16, "floor of the arrival rate lambda/b, 65536 = 1.0 (0 = none)", RDCC_U_Q16, "range 0 (0) to 65536 (1)") \
	P(kept_from_ref, "the (1-gamma) term: 0 = current window (Alg. 1), 1 = W_ref (authors' code)", RDCC_U_PLAIN, "range 0 to 1")

#include "../glue/rdcc_int_glue.c"
