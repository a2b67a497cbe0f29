/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_rqd_wire.h - the remote-queuing-delay (RQD) TCP option of Swift's receiver channel.
 *
 * Included by the receiver's BPF program (rxstamp/bpf/rqd.bpf.c) and by the sender's kernel glue
 * (modules/glue/rdcc_rqd.c); core/src/rqd.rs is the Rust definition and parser, and
 * core/tests/rqd.rs checks that the numbers below equal the Rust constants. See
 * Documentation/remote-delay.md.
 *
 *  byte  0      1      2..3          4..7                 8            9
 *       kind   len    ExID          delay_ns             ttl          ver_src
 *       253    10     0x5357 (be)   be32, saturating     u8           version << 4 | source
 *
 * delay_ns: ACK departure (the option is written in __tcp_transmit_skb) minus the arrival stamp
 *           of the newest data segment the ACK acknowledges, at the receiver; 0xffffffff = 4.29 s
 *           or more.
 * ttl:      IPv4 TTL / IPv6 hop limit of that segment as received (forward hops = initial - ttl).
 * ver_src:  RDCC_RQD_VERSION in bits 7..4; the arrival-stamp source in bits 1..0; 3..2 reserved.
 */
#ifndef _RDCC_RQD_WIRE_H
#define _RDCC_RQD_WIRE_H

#define RDCC_RQD_KIND		253	/* RFC 6994 shared experimental option */
#define RDCC_RQD_LEN		10
#define RDCC_RQD_EXID		0x5357	/* "SW" */
#define RDCC_RQD_VERSION	1

#define RDCC_RQD_SRC_TCP	0	/* stamped at the TCP layer (cgroup_skb ingress, ktime) */
#define RDCC_RQD_SRC_SW_RX	1	/* kernel software RX timestamp (skb->tstamp) */
#define RDCC_RQD_SRC_HW_RX	2	/* device hardware RX timestamp, related to the host clock */

/* Outcomes of the sender-side parser (core/src/rqd.rs Outcome); also counter indices. */
#define RDCC_RQD_ABSENT		0
#define RDCC_RQD_VALID		1
#define RDCC_RQD_MALFORMED	2
#define RDCC_RQD_BAD_LENGTH	3
#define RDCC_RQD_DUPLICATE	4
#define RDCC_RQD_BAD_VERSION	5
#define RDCC_RQD_FOREIGN	6
#define RDCC_RQD_OUTCOMES	7

/* struct rdcc_rqd_scan.flags (core/src/rqd.rs SCAN_*) */
#define RDCC_RQD_SCAN_HAS_HOPS	(1U << 0)
#define RDCC_RQD_SCAN_BAD_TTL	(1U << 1)
#define RDCC_RQD_SCAN_FOREIGN	(1U << 2)

#endif /* _RDCC_RQD_WIRE_H */
