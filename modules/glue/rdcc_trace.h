/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One trace event per decision: <system>:decision, where the system is the module name
 * (tcp_swift, tcp_timely, ...). Use with trace-cmd or perf, e.g.
 *   trace-cmd record -e tcp_swift:decision      perf record -e tcp_swift:decision
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM RDCC_TRACE_SYSTEM

#if !defined(_RDCC_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _RDCC_TRACE_H

#include <linux/tracepoint.h>
#include <net/sock.h>
#include <net/inet_sock.h>
#include <net/ipv6.h>
#include <trace/events/net_probe_common.h>
#include "rdcc_abi.h"

TRACE_EVENT(decision,
	TP_PROTO(const struct sock *sk, u64 now_ns, u64 rtt_ns, s64 signal, u64 cwnd_bytes_q16,
		 u64 law_rate_bps, u64 pacing_rate_bps, u32 reason, u32 dflags,
		 const struct rdcc_report *rep),
	TP_ARGS(sk, now_ns, rtt_ns, signal, cwnd_bytes_q16, law_rate_bps, pacing_rate_bps, reason,
		dflags, rep),
	TP_STRUCT__entry(
		__field(u64, now_ns)
		/* sockaddr_in or sockaddr_in6 (TP_STORE_ADDR_PORTS), printed with %pISpc */
		__array(__u8, saddr, sizeof(struct sockaddr_in6))
		__array(__u8, daddr, sizeof(struct sockaddr_in6))
		__field(u64, rtt_ns)
		__field(s64, signal)
		__field(u64, cwnd_bytes_q16)
		__field(u64, law_rate_bps)
		__field(u64, pacing_rate_bps)
		__field(u32, reason)
		__field(u32, flags)
		__field(u64, fabric_ns)
		__field(u64, endpoint_ns)
		__field(u32, hops)
	),
	TP_fast_assign(
		const struct inet_sock *inet = inet_sk(sk);

		__entry->now_ns = now_ns;
		memset(__entry->saddr, 0, sizeof(struct sockaddr_in6));
		memset(__entry->daddr, 0, sizeof(struct sockaddr_in6));
		TP_STORE_ADDR_PORTS(__entry, inet, sk);
		__entry->rtt_ns = rtt_ns;
		__entry->signal = signal;
		__entry->cwnd_bytes_q16 = cwnd_bytes_q16;
		__entry->law_rate_bps = law_rate_bps;
		__entry->pacing_rate_bps = pacing_rate_bps;
		__entry->reason = reason;
		__entry->flags = dflags | rep->flags;
		__entry->fabric_ns = rep->fabric_delay_ns;
		__entry->endpoint_ns = rep->endpoint_delay_ns;
		__entry->hops = rep->hops;
	),
	TP_printk("t=%llu %pISpc>%pISpc rtt_ns=%llu signal=%lld cwnd_bytes=%llu.%04llu law_rate=%llu pacing=%llu reason=%u fabric_ns=%llu endpoint_ns=%llu hops=%u binds=%s remote=%u flags=0x%x",
		  __entry->now_ns, __entry->saddr, __entry->daddr,
		  __entry->rtt_ns, __entry->signal, __entry->cwnd_bytes_q16 >> 16,
		  ((__entry->cwnd_bytes_q16 & 0xffff) * 10000) >> 16, __entry->law_rate_bps,
		  __entry->pacing_rate_bps, __entry->reason, __entry->fabric_ns,
		  __entry->endpoint_ns, __entry->hops,
		  (__entry->flags & RDCC_DEC_ENDPOINT_BINDS) ? "endpoint" : "fabric",
		  !!(__entry->flags & RDCC_DEC_REMOTE_USED), __entry->flags)
);

#endif /* _RDCC_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE rdcc_trace
#include <trace/define_trace.h>
