/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_rto.h - which TCP_CA_Loss is a retransmission timeout: shared by the glue of the
 * Controller laws (rdcc_glue.c) and of the INT laws (rdcc_int_glue.c). Include after <net/tcp.h>.
 */
#ifndef RDCC_RTO_H
#define RDCC_RTO_H

/*
 * set_state runs on every CA state change. TCP_CA_Loss comes from an RTO (tcp_enter_loss) or
 * from a loss that is not congestion: a PMTU drop (tcp_simple_retransmit) or a Fast Open
 * SYN-ACK, both via tcp_non_congestion_loss_retransmit, which leaves the window alone ("units
 * changed"). Only an RTO is a loss event for the law, and it is identified positively
 * (rdcc_is_rto): in 6.12 every caller of tcp_enter_loss is inside tcp_retransmit_timer (its
 * RTO, zero-window-probe and Fast Open SYN-ACK branches, net/ipv4/tcp_timer.c), which
 * tcp_write_timer_handler calls only after clearing icsk_pending (ICSK_TIME_RETRANS), and
 * tcp_enter_loss sets the window to packets in flight + 1 just before the state change. The
 * non-congestion path runs with data outstanding, so with a timer armed (RTO, loss probe or
 * RACK reordering: icsk_pending != 0). The signature it leaves (high_seq = snd_nxt,
 * prior_ssthresh = 0, undo_marker = 0) is no use: an RTO in CWR leaves the same, and a PMTU
 * drop at a one-packet window with that packet out also meets "window = in flight + 1" (issue
 * #32 item 2: read as an RTO, it cut the law's window and counted a retransmission;
 * selftests/rdcc_rto.sh's pinned-window PMTU check).
 */
static inline bool rdcc_is_rto(const struct sock *sk)
{
	const struct tcp_sock *tp = tcp_sk(sk);

	return !inet_csk(sk)->icsk_pending && tcp_snd_cwnd(tp) == tcp_packets_in_flight(tp) + 1;
}

#endif /* RDCC_RTO_H */
