/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_tcp_flags.h - the one private flag of tcp_ack() the glue reads from cong_control's `flag`
 * argument, checked at build time against the kernel version and at run time against a real ACK
 * (KUnit case rdcc_glue_flag_una, modules/kunit/rdcc_kunit_tcp.c: a loopback connection whose
 * CA compares the flag with snd_una's advance on every ACK).
 */
#ifndef RDCC_TCP_FLAGS_H
#define RDCC_TCP_FLAGS_H

#include <linux/version.h>

/* cong_control has received tcp_ack()'s flag since Linux 6.10 (commit "tcp: add a flag
 * argument to cong_control"); before, the remote-delay take could not tell an ACK that
 * advanced snd_una. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 10, 0)
#error "rdcc: cong_control receives tcp_ack()'s flag only since Linux 6.10"
#endif

/*
 * FLAG_SND_UNA_ADVANCED: snd_una advanced, i.e. TCP accepted ack in (prior snd_una, snd_nxt].
 * Private to net/ipv4/tcp_input.c; 0x400 there since Linux 2.6 and in 6.12 (line 97 of
 * Debian's 6.12 source), which CI builds. A later kernel builds with a warning until its
 * value has been checked here; the KUnit case checks it on any kernel with KUnit.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 13, 0)
#warning "rdcc: FLAG_SND_UNA_ADVANCED (0x400) is verified up to Linux 6.12: run the KUnit case rdcc_glue_flag_una on this kernel"
#endif
#define RDCC_FLAG_SND_UNA_ADVANCED 0x400

#endif /* RDCC_TCP_FLAGS_H */
