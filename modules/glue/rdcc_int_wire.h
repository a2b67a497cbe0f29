/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_int_wire.h - the INT TCP option (issue #35): per-hop telemetry written by the software
 * INT switch (modules/int_switch, sch_rdcc_int) into a sender's data segments and echoed by the
 * receiver in its ACKs. core/src/int_wire.rs is the Rust definition, parser and stamper;
 * core/tests/int_wire.rs checks that the numbers below equal the Rust constants. See
 * Documentation/int-channel.md.
 *
 *  byte  0      1       2..3          4                                    5 ..
 *       kind   len     ExID          hdr                                  slots x 8 B
 *       253    5 + 8n  0x494e (be)   ver 7..6 | echo 5 | ovf 4 | cnt 3..0  records, be64
 *
 * n = slots, 1..4; cnt = filled slots, path order; echo = 0 in data (switches stamp), 1 in ACKs;
 * ovf = a switch found every slot full. A record is core/src/int.rs's IntHop.
 */
#ifndef _RDCC_INT_WIRE_H
#define _RDCC_INT_WIRE_H

#define RDCC_INT_KIND		253	/* RFC 6994 shared experimental option */
#define RDCC_INT_EXID		0x494e	/* "IN" */
#define RDCC_INT_VERSION	1
#define RDCC_INT_HEADER_LEN	5
#define RDCC_INT_RECORD_LEN	8
#define RDCC_INT_MAX_SLOTS	4

#define RDCC_INT_HDR_ECHO	(1U << 5)
#define RDCC_INT_HDR_OVERFLOW	(1U << 4)
#define RDCC_INT_HDR_COUNT_MASK	0x0f

/* What the switch's stamp did (core/src/int_wire.rs Stamp); also counter indices. */
#define RDCC_INT_ABSENT		0
#define RDCC_INT_STAMPED	1
#define RDCC_INT_FULL		2
#define RDCC_INT_ECHO		3
#define RDCC_INT_MALFORMED	4
#define RDCC_INT_DUPLICATE	5
#define RDCC_INT_OUTCOMES	6

#endif /* _RDCC_INT_WIRE_H */
