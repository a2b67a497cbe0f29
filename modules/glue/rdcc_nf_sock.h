/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rdcc_nf_sock.h - the part of a sender-side netfilter hook at NF_INET_LOCAL_IN that every rdcc
 * option channel shares: find the TCP header of an IPv4 or IPv6 packet and the socket it is
 * for. Used by Swift's remote-delay hook (rdcc_rqd.c) and the INT modules' echo hook
 * (rdcc_int_glue.c). Include after <linux/netfilter.h>, <net/inet_hashtables.h>,
 * <net/inet6_hashtables.h> and <net/ipv6.h>.
 */
#ifndef RDCC_NF_SOCK_H
#define RDCC_NF_SOCK_H

/*
 * The TCP header's offset in a packet at LOCAL_IN, or -1 when it is not a TCP segment we look at:
 * another protocol, an IPv4 fragment, or an IPv6 packet whose extension headers end in a
 * fragment or another protocol (ACKs are never fragmented).
 */
static __always_inline int rdcc_nf_tcp_off(const struct sk_buff *skb, u8 pf)
{
	if (pf == NFPROTO_IPV4) {
		const struct iphdr *iph = ip_hdr(skb);

		if (iph->protocol != IPPROTO_TCP || ip_is_fragment(iph))
			return -1;
		return skb_network_offset(skb) + ip_hdrlen(skb);
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);
		u8 nexthdr = ip6h->nexthdr;
		__be16 frag_off = 0;
		int off;

		/* Extension headers (hop-by-hop, routing, destination options) are skipped. */
		off = ipv6_skip_exthdr(skb, skb_network_offset(skb) + sizeof(*ip6h), &nexthdr,
				       &frag_off);
		if (off < 0 || nexthdr != IPPROTO_TCP || frag_off)
			return -1;
		return off;
	}
#else
	return -1;	/* no IPv6 in this kernel: the hook is not registered for it */
#endif
}

/*
 * The established socket of a TCP segment whose skb->sk early demux left NULL, looked up in the
 * established table under the hook's rcu_read_lock. A found socket is referenced: the caller
 * releases it with sock_gen_put(). NULL when there is none.
 */
static struct sock *rdcc_nf_lookup(struct sk_buff *skb, unsigned int thoff,
				   const struct nf_hook_state *state)
{
	struct tcphdr _th __uninitialized;
	const struct tcphdr *th = skb_header_pointer(skb, thoff, sizeof(_th), &_th);

	if (!th)
		return NULL;
	if (state->pf == NFPROTO_IPV4) {
		const struct iphdr *iph = ip_hdr(skb);

		return __inet_lookup_established(state->net,
						 state->net->ipv4.tcp_death_row.hashinfo,
						 iph->saddr, th->source, iph->daddr,
						 ntohs(th->dest), state->in->ifindex,
						 inet_sdif(skb));
	}
#if IS_ENABLED(CONFIG_IPV6)
	{
		const struct ipv6hdr *ip6h = ipv6_hdr(skb);

		return __inet6_lookup_established(state->net,
						  state->net->ipv4.tcp_death_row.hashinfo,
						  &ip6h->saddr, th->source, &ip6h->daddr,
						  ntohs(th->dest), state->in->ifindex,
						  inet6_sdif(skb));
	}
#else
	return NULL;
#endif
}

/* States in which TCP processes ACKs with cong_control: synchronized, not LISTEN/SYN_SENT. */
#define RDCC_NF_STATES (TCPF_ESTABLISHED | TCPF_FIN_WAIT1 | TCPF_FIN_WAIT2 | TCPF_CLOSE_WAIT | \
			TCPF_CLOSING | TCPF_LAST_ACK)

/* The socket signs its segments (TCP-MD5, RFC 2385, or TCP-AO, RFC 5925): a hook runs before
 * the signature is checked, so it takes nothing from such a socket's segments. */
static inline bool rdcc_nf_signed(const struct sock *sk)
{
#ifdef CONFIG_TCP_MD5SIG
	if (rcu_access_pointer(tcp_sk(sk)->md5sig_info))
		return true;
#endif
#ifdef CONFIG_TCP_AO
	if (rcu_access_pointer(tcp_sk(sk)->ao_info))
		return true;
#endif
	return false;
}

#endif /* RDCC_NF_SOCK_H */
