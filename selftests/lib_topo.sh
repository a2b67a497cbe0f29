# shellcheck shell=sh
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# selftests/lib_topo.sh - the network namespaces of lib.sh's topology (drawn in lib.sh's header):
# addresses, the chain of routers (RDCC_HOPS), rdcc_topo_setup with the bottleneck's qdisc tree.
# Sourced by lib.sh, not on its own (it uses lib.sh's variables and helpers).

# ----------------------------------------------------------------------------------------------
# topology

# rdcc_addr_up LOG NS DEV IP4 IP6 : give DEV in NS its /24 and /64 addresses and bring it up.
rdcc_addr_up() {
	rdcc_run "$1" "$IP" -n "$2" addr add "$4/24" dev "$3" || return 1
	rdcc_run "$1" "$IP" -n "$2" -6 addr add "$5/64" dev "$3" nodad || return 1
	rdcc_run "$1" "$IP" -n "$2" link set "$3" up
}

# rdcc_chain_ns : the chain's routers after the first (RDCC_HOPS > 1), one per line.
rdcc_chain_ns() {
	local i=2
	while [ "$i" -le "$RDCC_HOPS" ]; do
		echo "$RDCC_NS_SW$i"
		i=$((i + 1))
	done
}

# rdcc_topo_chain LOG : routers 2..RDCC_HOPS after rdcc_sw, linked in a chain (see the topology
# above), the last one holding the receiver's link and gateway addresses; static routes in every
# router; RDCC_CHAIN_EGRESS lists the egresses towards the receiver.
rdcc_topo_chain() {
	local log="$1" i=2 prev="$RDCC_NS_SW" prev_if="$RDCC_SW_RCV_IF" ns n="$RDCC_HOPS"
	if ! rdcc_is_uint "$n" || [ "$n" -gt 8 ]; then
		tap_diag "RDCC_HOPS=$n: 1..8"
		return 1
	fi
	while [ "$i" -le "$n" ]; do
		ns=$RDCC_NS_SW$i
		rdcc_run "$log" "$IP" netns add "$ns" || return 1
		rdcc_run "$log" "$IP" -n "$ns" link set lo up || return 1
		# link i-1 -> i: 10.0.(100+i).0/24, fd00:(100+i)::/64; .1 towards the sender
		rdcc_run "$log" "$IP" -n "$prev" link add "$prev_if" type veth \
			peer name "veth_c${i}_l" netns "$ns" || return 1
		rdcc_addr_up "$log" "$prev" "$prev_if" "10.0.$((100 + i)).1" "fd00:$((100 + i))::1" ||
			return 1
		rdcc_addr_up "$log" "$ns" "veth_c${i}_l" "10.0.$((100 + i)).2" "fd00:$((100 + i))::2" ||
			return 1
		# prev reaches the receiver's subnet through ns, ns the sender's through prev
		rdcc_run "$log" "$IP" -n "$prev" route add 10.0.1.0/24 via "10.0.$((100 + i)).2" || return 1
		rdcc_run "$log" "$IP" -n "$prev" -6 route add fd00:1::/64 via "fd00:$((100 + i))::2" ||
			return 1
		rdcc_run "$log" "$IP" -n "$ns" route add 10.0.0.0/24 via "10.0.$((100 + i)).1" || return 1
		rdcc_run "$log" "$IP" -n "$ns" -6 route add fd00::/64 via "fd00:$((100 + i))::1" || return 1
		RDCC_CHAIN_EGRESS="$RDCC_CHAIN_EGRESS $ns:veth_c${i}_r"
		prev=$ns prev_if=veth_c${i}_r
		i=$((i + 1))
	done
	# the last router holds the receiver's link, with the gateway addresses the receiver routes to
	rdcc_run "$log" "$IP" -n "$RDCC_NS_RCV" link add "$RDCC_RCV_IF" type veth \
		peer name "$prev_if" netns "$prev" || return 1
	rdcc_addr_up "$log" "$prev" "$prev_if" "$RDCC_SW_RCV_IP4" "$RDCC_SW_RCV_IP6"
}

# rdcc_topo_setup : build the three namespaces, two veth pairs, addresses, routes and the
# bottleneck qdisc tree on the router.
rdcc_topo_setup() {
	local log="$RDCC_TMP/setup.log" ns leaf eg
	: >"$log"
	mkdir -p /run/netns 2>/dev/null
	rdcc_recover_stale
	for ns in "$RDCC_NS_SND" "$RDCC_NS_SW" "$RDCC_NS_RCV"; do
		rdcc_run "$log" "$IP" netns add "$ns" || return 1
		rdcc_run "$log" "$IP" -n "$ns" link set lo up || return 1
	done
	rdcc_run "$log" "$IP" -n "$RDCC_NS_SND" link add "$RDCC_SND_IF" type veth \
		peer name "$RDCC_SW_SND_IF" netns "$RDCC_NS_SW" || return 1
	if [ "$RDCC_HOPS" -gt 1 ]; then
		rdcc_topo_chain "$log" || return 1
	else
		rdcc_run "$log" "$IP" -n "$RDCC_NS_RCV" link add "$RDCC_RCV_IF" type veth \
			peer name "$RDCC_SW_RCV_IF" netns "$RDCC_NS_SW" || return 1
	fi
	if [ -n "$RDCC_GSO_MAX_SEGS" ]; then
		rdcc_run "$log" "$IP" -n "$RDCC_NS_SND" link set dev "$RDCC_SND_IF" \
			gso_max_segs "$RDCC_GSO_MAX_SEGS" || return 1
	fi
	rdcc_addr_up "$log" "$RDCC_NS_SND" "$RDCC_SND_IF" "$RDCC_SND_IP4" "$RDCC_SND_IP6" || return 1
	rdcc_addr_up "$log" "$RDCC_NS_RCV" "$RDCC_RCV_IF" "$RDCC_RCV_IP4" "$RDCC_RCV_IP6" || return 1
	rdcc_addr_up "$log" "$RDCC_NS_SW" "$RDCC_SW_SND_IF" "$RDCC_SW_SND_IP4" "$RDCC_SW_SND_IP6" ||
		return 1
	if [ "$RDCC_HOPS" -eq 1 ]; then
		rdcc_addr_up "$log" "$RDCC_NS_SW" "$RDCC_SW_RCV_IF" "$RDCC_SW_RCV_IP4" \
			"$RDCC_SW_RCV_IP6" || return 1
	fi
	rdcc_run "$log" "$IP" -n "$RDCC_NS_SND" route add default via "$RDCC_SW_SND_IP4" || return 1
	# shellcheck disable=SC2086 # RDCC_RCV_ROUTE_OPTS is a word list (or empty)
	rdcc_run "$log" "$IP" -n "$RDCC_NS_RCV" route add default via "$RDCC_SW_RCV_IP4" $RDCC_RCV_ROUTE_OPTS ||
		return 1
	rdcc_run "$log" "$IP" -n "$RDCC_NS_SND" -6 route add default via "$RDCC_SW_SND_IP6" || return 1
	# shellcheck disable=SC2086
	rdcc_run "$log" "$IP" -n "$RDCC_NS_RCV" -6 route add default via "$RDCC_SW_RCV_IP6" \
		$RDCC_RCV_ROUTE_OPTS || return 1
	# shellcheck disable=SC2046 # the chain's namespace names are words
	for ns in "$RDCC_NS_SW" $(rdcc_chain_ns); do
		rdcc_run "$log" "$IP" netns exec "$ns" sh -c \
			'echo 1 > /proc/sys/net/ipv4/ip_forward && echo 1 > /proc/sys/net/ipv6/conf/all/forwarding' ||
			return 1
	done
	# Negotiate ECN in both namespaces (net.ipv4.tcp_ecn is per netns): dctcp without ECN falls
	# back to its "dctcp-reno" ops, so it would not be dctcp that is measured. Nothing in this
	# topology marks CE (the HTB leaf is netem/pfifo, drop-tail), so ECN changes no other
	# algorithm's behaviour; dctcp then reacts to loss like Reno.
	for ns in "$RDCC_NS_SND" "$RDCC_NS_RCV"; do
		rdcc_run "$log" "$IP" netns exec "$ns" sh -c 'echo 1 > /proc/sys/net/ipv4/tcp_ecn' ||
			return 1
	done

	# Bottleneck on the router's egress towards the receiver. quantum is explicit only to silence
	# HTB's "quantum is big" warning (a single class never round-robins, so its value does not
	# matter).
	for eg in $RDCC_CHAIN_EGRESS; do
		rdcc_run "$log" "$TC" -n "${eg%%:*}" qdisc add dev "${eg#*:}" root handle 1: \
			htb default 10 || return 1
		rdcc_run "$log" "$TC" -n "${eg%%:*}" class add dev "${eg#*:}" parent 1: \
			classid 1:10 htb rate "${RDCC_RATE_MBIT}mbit" ceil "${RDCC_RATE_MBIT}mbit" \
			quantum 60000 || return 1
		# The chain's later hops: a FIFO of the same limit (the delay is the first hop's).
		[ "$eg" = "$RDCC_BN_NS:$RDCC_BN_IF" ] ||
			rdcc_run "$log" "$TC" -n "${eg%%:*}" qdisc add dev "${eg#*:}" parent 1:10 \
				handle 10: pfifo limit "$RDCC_QLIMIT_PKTS" || return 1
	done
	if "$TC" -n "$RDCC_BN_NS" qdisc add dev "$RDCC_BN_IF" parent 1:10 handle 10: \
		netem delay "${RDCC_DELAY_US}us" limit "$RDCC_QLIMIT_PKTS" >>"$log" 2>&1; then
		leaf=netem
	elif [ "$RDCC_DELAY_US" -eq 0 ]; then
		tap_diag "netem unavailable; RDCC_DELAY_US=0, so the HTB leaf is pfifo limit $RDCC_QLIMIT_PKTS"
		rdcc_run "$log" "$TC" -n "$RDCC_BN_NS" qdisc add dev "$RDCC_BN_IF" parent 1:10 \
			handle 10: pfifo limit "$RDCC_QLIMIT_PKTS" || return 1
		leaf=pfifo
	else
		tap_diag "cannot add netem delay ${RDCC_DELAY_US}us (CONFIG_NET_SCH_NETEM missing?)"
		tap_diag_file "$log" 5
		tap_diag "hint: RDCC_DELAY_US=0 runs without netem"
		return 1
	fi
	# Verify the tree really is what we asked for.
	"$TC" -n "$RDCC_BN_NS" qdisc show dev "$RDCC_BN_IF" >"$RDCC_TMP/qdisc.txt" 2>&1
	"$TC" -n "$RDCC_BN_NS" class show dev "$RDCC_BN_IF" >>"$RDCC_TMP/qdisc.txt" 2>&1
	if ! grep -q '^qdisc htb 1: root' "$RDCC_TMP/qdisc.txt" ||
		! grep -q "^qdisc $leaf 10: parent 1:10" "$RDCC_TMP/qdisc.txt" ||
		! grep -q '^class htb 1:10 ' "$RDCC_TMP/qdisc.txt"; then
		tap_diag "qdisc tree on $RDCC_BN_IF is not htb 1: / class 1:10 / $leaf 10:"
		tap_diag_file "$RDCC_TMP/qdisc.txt"
		return 1
	fi
	if ! "$IP" -n "$RDCC_NS_RCV" addr show dev "$RDCC_RCV_IF" 2>/dev/null | grep -q "$RDCC_RCV_IP6/64"; then
		tap_diag "IPv6 address $RDCC_RCV_IP6 missing on $RDCC_RCV_IF (CONFIG_IPV6?)"
		return 1
	fi
	if ! "$IP" netns exec "$RDCC_NS_SND" ping -c 1 -W 2 "$RDCC_RCV_IP4" >>"$log" 2>&1; then
		tap_diag "no route $RDCC_SND_IP4 -> $RDCC_RCV_IP4 through $RDCC_NS_SW"
		tap_diag_file "$log" 5
		return 1
	fi
	tap_diag "topology: $RDCC_NS_SND($RDCC_SND_IP4,$RDCC_SND_IP6) -> $RDCC_NS_SW $(rdcc_chain_ns) -> $RDCC_NS_RCV($RDCC_RCV_IP4,$RDCC_RCV_IP6)"
	tap_diag_file "$RDCC_TMP/qdisc.txt"
	# shellcheck disable=SC2034 # read by the tests (the leaf qdisc actually installed)
	RDCC_LEAF_QDISC=$leaf
	return 0
}
