#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# shaper_probe.sh OUTDIR RATE_MBIT DELAY_US : a measurement, not a test. Does the bottleneck of
# lib.sh (HTB at RATE_MBIT into pfifo limit 1000, netem DELAY_US on the ACK direction, as the
# scenario runner places it) hold its rate, and what does a packet crossing it see? Prints the
# HTB class, the idle path's ping, then for one 1 s iperf3 flow of cubic and of swift (tcp_swift
# with its own defaults) the receiver's goodput, the RTTs of a ping every 2 ms beside the flow
# (n, min, p50, p90, p99, max, ms) and the class's counters. Issue #36 item 3
# (Documentation/results/uml_testbed.md, "25 and 100 Gbit/s"), in the UML guest:
#   cargo xtask vm --kernel uml -- sh -c \
#     "$PWD/selftests/tools/shaper_probe.sh $PWD/target/i36/p25 25000 10"
OUT=$1
export RDCC_RATE_MBIT="$2" RDCC_DELAY_US="$3" RDCC_QLIMIT_PKTS=1000
mkdir -p "$OUT" || exit 1
RDCC_SELFTEST_DIR=$(dirname "$0")/..
# shellcheck source-path=SCRIPTDIR/..
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"
require_root
rdcc_check_env >/dev/null 2>&1 || { echo "environment not usable"; exit 1; }
rdcc_topo_setup >"$OUT/setup.txt" 2>&1 || { echo "topology failed"; cat "$OUT/setup.txt"; exit 1; }
"$TC" -n "$RDCC_BN_NS" qdisc del dev "$RDCC_BN_IF" parent 1:10 handle 10:
"$TC" -n "$RDCC_BN_NS" qdisc add dev "$RDCC_BN_IF" parent 1:10 handle 10: pfifo limit 1000
"$TC" -n "$RDCC_BN_NS" qdisc add dev "$RDCC_SW_SND_IF" root netem delay "${RDCC_DELAY_US}us" \
	limit 100000
load_cc swift >/dev/null 2>&1
rdcc_cc_allow swift >/dev/null 2>&1
"$TC" -n "$RDCC_BN_NS" class show dev "$RDCC_BN_IF" >"$OUT/class.txt"
echo "== $RDCC_RATE_MBIT class: $(cat "$OUT/class.txt")"
"$IP" netns exec "$RDCC_NS_SND" ping -c 20 -i 0.01 "$RDCC_RCV_IP4" >"$OUT/ping_idle.txt" 2>&1
echo "== $RDCC_RATE_MBIT idle ping: $(tail -n 1 "$OUT/ping_idle.txt")"
"$IP" netns exec "$RDCC_NS_RCV" "$IPERF3" -s -D -p "$RDCC_PORT" >/dev/null 2>&1
sleep 0.2
for a in cubic swift; do
	"$IP" netns exec "$RDCC_NS_SND" ping -c 400 -i 0.002 "$RDCC_RCV_IP4" >"$OUT/ping_$a.txt" 2>&1 &
	pp=$!
	"$IP" netns exec "$RDCC_NS_SND" "$IPERF3" -c "$RDCC_RCV_IP4" -p "$RDCC_PORT" -t 1 -C "$a" -J \
		>"$OUT/iperf_$a.json" 2>&1
	wait "$pp"
	echo "== $RDCC_RATE_MBIT $a: $(tr -d ' \t\n' <"$OUT/iperf_$a.json" |
		grep -o '"sum_received":{[^}]*}' | grep -o '"bits_per_second":[0-9.e+]*')"
	awk '/time=/ { sub(/.*time=/, ""); print $1 }' "$OUT/ping_$a.txt" | sort -g | awk -v a="$a" '
		{ v[NR] = $1 }
		END { print "== " a " ping beside the flow: n=" NR " min=" v[1] " p50=" v[int(NR / 2) + 1] \
			" p90=" v[int(NR * 0.9)] " p99=" v[int(NR * 0.99)] " max=" v[NR] }'
	"$TC" -n "$RDCC_BN_NS" -s class show dev "$RDCC_BN_IF" | tr '\n' ' '
	echo
done
rdcc_cleanup
