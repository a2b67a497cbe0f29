// SPDX-License-Identifier: GPL-2.0-only
/*
 * tcp_hpcc: the C half of the module. Everything but the name and the parameter list is the INT
 * modules' shared glue in modules/glue/rdcc_int_glue.c. Each parameter is a field of the law's
 * Config (core/src/hpcc.rs) with the same name; unset parameters take plain HPCC's defaults
 * (vai=1 sf_acks=30 select HPCC with VAI and SF as SL §VI-A sets them).
 */
#define RDCC_NAME "hpcc"
#define RDCC_TRACE_SYSTEM tcp_hpcc
#define RDCC_PARAMS(P) \
	P(base_rtt_ns, "base RTT T, ns", RDCC_U_NS, "range 1us to 1s") \
	P(host_bw_bps, "host NIC rate, bytes/s", RDCC_U_BPS, "range 1Mbit to 1099511627776B/s") \
	P(eta_q16, "target utilisation eta, 65536 = 1.0", RDCC_U_Q16, "range 32768 (0.5) to 65536 (1)") \
	P(max_stage, "additive-increase stages before a multiplicative step (maxStage)", RDCC_U_PLAIN, "range 0 to 255") \
	P(ai_bps, "additive increase as a rate, bytes/s (W_AI = R_AI*T)", RDCC_U_BPS, "range 1B/s to 100Gbit") \
	P(min_cwnd_bytes, "window floor, bytes", RDCC_U_BYTES, "range 1 to 2147483648") \
	P(max_cwnd_bytes, "window ceiling, bytes (0 = HostBw*T)", RDCC_U_BYTES, "range 0 to 2147483648") \
	P(vai, "VAI on (1) or off (0)", RDCC_U_PLAIN, "range 0 to 1") \
	P(sf_acks, "SF: commit decreases every this many ACKs (0 = off)", RDCC_U_PLAIN, "range 0 to 65535") \
	P(token_thresh_bytes, "VAI Token_Thresh, bytes of queue", RDCC_U_BYTES, "range 1 to 4294967296") \
	P(ai_div_bytes, "VAI AI_DIV, bytes of queue per token", RDCC_U_BYTES, "range 1 to 4294967296") \
	P(bank_cap, "VAI Bank_Cap, tokens", RDCC_U_PLAIN, "range 1 to 65535") \
	P(ai_cap, "VAI AI_Cap, tokens per update", RDCC_U_PLAIN, "range 1 to 65535") \
	P(dampener_constant, "VAI Dampener_Constant", RDCC_U_PLAIN, "range 1 to 65535")

#include "../glue/rdcc_int_glue.c"
