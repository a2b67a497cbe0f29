#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# oneflow_trace.sh OUTDIR ALGO QUICKACK RATE_MBIT DELAY_US DURATION_S [PARAM=VALUE...] : a
# measurement, not a test. One iperf3 flow of ALGO through the lib.sh bottleneck (HTB RATE_MBIT,
# netem DELAY_US on the data direction), the receiver's routes with `quickack 1` if QUICKACK is 1
# (lib.sh RDCC_QUICKACK), the module's parameters written through sysfs (loaded first if
# needed; ss_info=2). Writes to OUTDIR: iperf.json, ss.txt (`ss -tin` every 100 ms: the law's
# view as bbr:(bw:law rate, mrtt:target, cwnd_gain:window in packets)), trace.txt (the
# tcp_<ALGO>:decision events), params.txt, qdisc.txt; prints iperf3's sum_sent.
# Issue #36 item 5 (Documentation/results/uml_vaisf_10g.md), in the UML guest:
#   cargo xtask vm --kernel uml -- sh -c \
#     "$PWD/selftests/tools/oneflow_trace.sh $PWD/target/i36/vaisf_qa0 swift_vaisf 0 10000 10 3"
OUT=$1
ALGO=$2
export RDCC_QUICKACK="$3" RDCC_RATE_MBIT="$4" RDCC_DELAY_US="$5"
DUR=$6
shift 6
mkdir -p "$OUT" || exit 1
RDCC_SELFTEST_DIR=$(dirname "$0")/..
# shellcheck source-path=SCRIPTDIR/..
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"
require_root
rdcc_check_env >/dev/null 2>&1 || { echo "environment not usable"; exit 1; }
P=/sys/module/tcp_$ALGO/parameters
if [ "$ALGO" != cubic ] && [ "$ALGO" != reno ]; then
	[ -d "$P" ] || load_cc "$ALGO" || exit 1
	for kv in "$@"; do echo "${kv#*=}" >"$P/${kv%%=*}" || exit 1; done
	grep . "$P"/* >"$OUT/params.txt"
	echo 2 >"$P/ss_info"
fi
rdcc_cc_allow "$ALGO" >/dev/null 2>&1
rdcc_topo_setup >"$OUT/setup.txt" 2>&1 || { echo "topology failed"; cat "$OUT/setup.txt"; exit 1; }
"$IP" netns exec "$RDCC_NS_RCV" "$IPERF3" -s -D -1 -p "$RDCC_PORT" >/dev/null 2>&1
sleep 0.2
TR=/sys/kernel/tracing
EV=$TR/events/tcp_$ALGO/decision
if [ -d "$EV" ]; then
	echo 0 >$TR/tracing_on
	echo >$TR/trace
	echo 20000 >$TR/buffer_size_kb
	echo 1 >"$EV/enable"
	echo 1 >$TR/tracing_on
fi
: >"$OUT/ss.txt"
(
	i=0
	while [ $i -lt $((DUR * 10)) ]; do
		"$IP" netns exec "$RDCC_NS_SND" "$SS" -tinH dst "$RDCC_RCV_IP4" >>"$OUT/ss.txt"
		echo --- >>"$OUT/ss.txt"
		sleep 0.1
		i=$((i + 1))
	done
) &
SSP=$!
"$IP" netns exec "$RDCC_NS_SND" "$IPERF3" -c "$RDCC_RCV_IP4" -p "$RDCC_PORT" -t "$DUR" -C "$ALGO" -J \
	>"$OUT/iperf.json" 2>"$OUT/iperf.err"
wait $SSP
if [ -d "$EV" ]; then
	echo 0 >$TR/tracing_on
	echo 0 >"$EV/enable"
	cp $TR/trace "$OUT/trace.txt"
fi
"$TC" -n "$RDCC_BN_NS" -s qdisc show dev "$RDCC_BN_IF" >"$OUT/qdisc.txt"
echo "$OUT: $(tr -d ' \t\n' <"$OUT/iperf.json" | grep -o '"sum_sent":{[^}]*}')"
rdcc_cleanup
