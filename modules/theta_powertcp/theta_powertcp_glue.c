// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcp_theta_powertcp: the C half of the module. Everything but the name and the parameter list is the
 * shared glue in modules/glue/rdcc_glue.c. Each parameter is a field of the law's Config
 * (core/src/powertcp.rs) with the same name; unset parameters take the paper's default and
 * /sys/module/tcp_theta_powertcp/parameters/ shows the effective values after load.
 */
#define RDCC_NAME "theta_powertcp"
#define RDCC_TRACE_SYSTEM tcp_theta_powertcp
#define RDCC_PARAMS(P) \
	P(gamma_q16, "EWMA weight gamma of the new window, 65536 = 1.0 (Alg. 2)", RDCC_U_Q16, "range 1 (0.000015258) to 65536 (1)") \
	P(base_rtt_ns, "base RTT tau, ns", RDCC_U_NS, "range 1us to 1s") \
	P(host_bw_bps, "host NIC rate, bytes/s", RDCC_U_BPS, "range 1Mbit to 1099511627776B/s") \
	P(expected_flows, "expected flows N for beta = HostBw*tau/N", RDCC_U_PLAIN, "range 1 to 65536") \
	P(beta_bytes, "additive increase beta, bytes (0 = HostBw*tau/N)", RDCC_U_BYTES, "range 0 to 2147483648") \
	P(min_cwnd_bytes, "window floor, bytes", RDCC_U_BYTES, "range 1 to 2147483648") \
	P(max_cwnd_bytes, "window ceiling, bytes (0 = HostBw*tau)", RDCC_U_BYTES, "range 0 to 2147483648") \
	P(grad_floor_q16, "floor of the gradient factor, 65536 = 1.0", RDCC_U_Q16, "range 0 (0) to 65536 (1)") \
	P(smooth_init_q16, "initial smoothed power, 65536 = 1.0 (0 = first sample)", RDCC_U_Q16, "range 0 (0) to 4294967296 (65536)") \
	P(gradient_mode, "0 = gradient once per RTT, 1 = per ACK (Alg. 2 literally)", RDCC_U_PLAIN, "range 0 to 1") \
	P(loss_md_q16, "multiplicative decrease on loss, 65536 = 1.0 (0 = none)", RDCC_U_Q16, "range 0 (0) to 65536 (1)") \
	P(base_rtt_mode, "0 = tau is base_rtt_ns, 1 = tau is the smallest RTT sample, at most base_rtt_ns, 2 = as 1 with the authors' ns-3 normalisation 1.05*tau and window rate*tau", RDCC_U_PLAIN, "range 0 to 2")

/* θ-PowerTCP's hold lease (issue #13; core/src/powertcp_lease.rs): most ACKs of a datacenter
 * stream step the law's average in C and keep the last decision's window and rate, without
 * calling the law. tcp_theta_powertcp_rs.rs invokes rdcc_glue_theta_lease!. */
#define RDCC_LEASE_THETA

#include "../glue/rdcc_glue.c"
