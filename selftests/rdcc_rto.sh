#!/bin/sh
# shellcheck shell=sh
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# rdcc_rto.sh - the window after a retransmission timeout and after a PMTU drop (TAP 13).
#
# tcp_swift is the sender's CA (rdcc_glue.c is shared by every module, so one law shows the
# glue's behaviour). The kernel's tcp:tcp_probe tracepoint records snd_cwnd on every segment
# the sender receives, i.e. the window each ACK finds. Checks:
#   1. environment and topology;
#   2. tcp_swift loaded, tcp:tcp_probe available;
#   3. RTO: the bottleneck drops everything (netem loss 100 %) for RDCC_OUTAGE_MS, then heals.
#      The first ACK after the outage must find the window tcp_enter_loss set (packets in
#      flight + 1: at most 2 packets), not the law's window (before: Swift's window times 0.5
#      per RTO, a burst of that many packets), while the window before the outage was larger
#      (>= 4 packets, or the check proves nothing), and the law did see the RTO (a decision with
#      reason 6/7). Median of RDCC_TRIALS trials;
#   4. PMTU: the router's MTU towards the receiver drops to 1400 during the flow (ICMP "fragmentation
#      needed" -> tcp_simple_retransmit -> TCP_CA_Loss without an RTO): the router sent the ICMP
#      and the law made no retransmission-timeout decision (tcp_swift:decision with reason 6/7) (an RTO loss event halves
#      Swift's window at least) - median of trials;
#   5. PMTU at a pinned one-packet window (init_cwnd_pkts_q20 and max_cwnd_pkts_q20 = 1 packet,
#      written at run time):
#      the one segment out is marked lost, so packets in flight + 1 equals the window, the
#      case the glue's old signature test took for an RTO (issue #32 item 2). The window was 1
#      before the drop, the router sent the ICMP, and the law made no RTO decision.
# One line per trial:  # RESULT rdcc_rto phase=rto|pmtu cwnd_before=.. cwnd_after=..
#
# Environment: RDCC_DELAY_US [2000], RDCC_RATE_MBIT [50], RDCC_OUTAGE_MS [500], RDCC_TRIALS [3].

case $0 in */*) RDCC_SELFTEST_DIR=${0%/*} ;; *) RDCC_SELFTEST_DIR=. ;; esac
: "${RDCC_DELAY_US:=2000}"
: "${RDCC_RATE_MBIT:=50}"
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"
: "${RDCC_OUTAGE_MS:=500}"

MOD=tcp_swift
PARAMS="base_target_ns=6000000 fs_range_ns=3000000 fs_max_cwnd_pkts_q20=104857600"
TRACEFS=/sys/kernel/tracing
[ -d "$TRACEFS/events" ] || TRACEFS=/sys/kernel/debug/tracing
EV="$TRACEFS/events/tcp/tcp_probe"
# The law's decisions; reason 6 / 7 = its retransmission-timeout reaction (core/src/event.rs).
DEC="$TRACEFS/events/$MOD/decision"

netem() {
	"$TC" -n "$RDCC_BN_NS" qdisc change dev "$RDCC_BN_IF" parent 1:10 handle 10: \
		netem delay "${RDCC_DELAY_US}us" limit "$RDCC_QLIMIT_PKTS" "$@"
}

# ICMP destination-unreachable messages the router sent (fragmentation needed is one).
icmp_unreach_out() {
	# shellcheck disable=SC2016 # an awk program
	"$IP" netns exec "$RDCC_NS_SW" awk '/^Icmp:/ { n++; if (n == 1) { for (i = 2; i <= NF; i++) h[i] = $i }
		else { for (i = 2; i <= NF; i++) if (h[i] == "OutDestUnreachs") print $i } }' /proc/net/snmp
}

# probe_trial LABEL ACTION : a 5 s flow with tcp_probe on; at 2 s run ACTION (rto or pmtu).
# Writes $RDCC_TMP/LABEL.trace: one "t_us snd_cwnd" line per ACK of the data connection.
probe_trial() {
	local label="$1" action="$2" pid
	echo "dport == $RDCC_PORT" >"$EV/filter"
	echo "reason == 6 || reason == 7" >"$DEC/filter"
	: >"$TRACEFS/trace"
	echo 1 >"$EV/enable"
	echo 1 >"$DEC/enable"
	"$IP" netns exec "$RDCC_NS_SND" "$IPERF3" -c "$RDCC_RCV_IP4" -p "$RDCC_PORT" -t 5 \
		>"$RDCC_TMP/$label.iperf" 2>&1 &
	pid=$!
	rdcc_track "$pid"
	sleep 2
	if [ "$action" = rto ]; then
		echo rdcc_pmtu_mark >"$TRACEFS/trace_marker"
		netem loss 100%
		sleep "$(awk -v ms="$RDCC_OUTAGE_MS" 'BEGIN { printf "%.3f", ms / 1000 }')"
		netem
	else
		echo rdcc_pmtu_mark >"$TRACEFS/trace_marker"
		"$IP" -n "$RDCC_NS_SW" link set dev "$RDCC_SW_RCV_IF" mtu 1400
	fi
	wait "$pid" 2>/dev/null
	rdcc_untrack "$pid"
	echo 0 >"$EV/enable"
	echo 0 >"$DEC/enable"
	RTO_EVENTS=$(grep -c 'decision:' "$TRACEFS/trace")
	if [ "$action" = pmtu ]; then
		"$IP" -n "$RDCC_NS_SW" link set dev "$RDCC_SW_RCV_IF" mtu 1500
		# Forget the learned path MTU, so the next trial sees the drop again.
		"$IP" -n "$RDCC_NS_SND" route flush cache 2>/dev/null
	fi
	# "<task> [cpu] flags 123.456789: tcp_probe: ... snd_cwnd=N ..." -> "123456789 N"; the
	# marker line -> "123456789 M".
	awk '/tcp_probe:|rdcc_pmtu_mark/ { m = 0; for (i = 1; i <= NF; i++) { if ($i ~ /^[0-9]+\.[0-9]+:$/) { t = $i; sub(":", "", t); split(t, a, "."); us = a[1] * 1000000 + a[2] }
		if ($i ~ /^snd_cwnd=/) c = substr($i, 10); if ($i ~ /rdcc_pmtu_mark/) m = 1 } print us, (m ? "M" : c) }' "$TRACEFS/trace" >"$RDCC_TMP/$label.trace"
}

tap_header
tap_plan 6
require_root
rdcc_find_tools
if rdcc_check_env; then tap_ok "environment"; else
	tap_not_ok "environment"
	tap_bail "environment"
fi
if rdcc_topo_setup && rdcc_server_start; then
	tap_ok "topology: htb ${RDCC_RATE_MBIT}mbit + netem ${RDCC_DELAY_US}us"
else
	tap_not_ok "topology"
	tap_bail "topology"
fi

ko=""
for d in $RDCC_MODULE_DIRS; do [ -f "$d/$MOD.ko" ] && ko="$d/$MOD.ko" && break; done
rmmod "$MOD" 2>/dev/null
# shellcheck disable=SC2086 # PARAMS is a word list
if [ -n "$ko" ] && insmod "$ko" $PARAMS 2>"$RDCC_TMP/insmod.err" && rdcc_cc_available swift &&
	rdcc_cc_allow swift && rdcc_ns_cc_set swift && [ -d "$EV" ] && [ -d "$DEC" ]; then
	tap_ok "tcp_swift loaded, sender default swift, tcp:tcp_probe available"
else
	tap_not_ok "tcp_swift loaded, tcp:tcp_probe ($EV)"
	tap_diag_file "$RDCC_TMP/insmod.err"
	tap_bail "setup"
fi

# 3. RTO: the first ACK after a gap of more than 150 ms, and the last one before it.
ok=0 bad=0 t=1 msgs=""
while [ "$t" -le "$RDCC_TRIALS" ]; do
	probe_trial "rto.$t" rto
	# The outage is the first gap of more than 150 ms after the marker (a slow kernel can pause
	# that long on its own before it).
	eval "$(awk '$2 == "M" { mk = 1; next } !mk { pt = $1; pc = $2; n++; next } { if (n && $1 - pt > 150000 && !done) { printf "before=%d after=%d gap_ms=%d next=", pc, $2, ($1 - pt) / 1000; done = 1; k = 0 }
		else if (done && k < 8) { printf "%s,", $2; k++ }
		pt = $1; pc = $2; n++ } END { if (!done) print "before=0 after=0 gap_ms=0 next="; else print "" }' "$RDCC_TMP/rto.$t.trace")"
	# shellcheck disable=SC2154 # before, after, gap_ms, next are set by the eval
	tap_diag "RESULT rdcc_rto phase=rto trial=$t cwnd_before=$before cwnd_after=$after gap_ms=$gap_ms next_cwnds=$next law_rto_events=$RTO_EVENTS acks=$(wc -l <"$RDCC_TMP/rto.$t.trace")"
	msg="trial $t: window $before before the ${gap_ms} ms gap, $after at its first ACK (next: $next)"
	if [ "$gap_ms" -gt 0 ] && [ "$before" -ge 4 ] && [ "$after" -le 2 ] && [ "$RTO_EVENTS" -gt 0 ]; then ok=$((ok + 1)); else
		bad=$((bad + 1))
		msg="$msg (failed)"
	fi
	msgs="$msgs; $msg"
	rdcc_decided "$ok" "$bad" && break
	t=$((t + 1))
done
if rdcc_majority "$ok" "$bad"; then
	tap_ok "after an RTO the window is the kernel's loss window (<= 2 packets), not a burst$msgs"
else
	tap_not_ok "after an RTO the window must be <= 2 packets$msgs"
fi

# 4. PMTU: compare the window just before and after the MTU drop (2 s into the flow).
ok=0 bad=0 t=1 msgs=""
while [ "$t" -le "$RDCC_TRIALS" ]; do
	snmp0=$(icmp_unreach_out)
	probe_trial "pmtu.$t" pmtu
	snmp1=$(icmp_unreach_out)
	# For the notes: the window around the MTU drop (the marker): the mean of the 20 ACKs
	# before it, the minimum and the first 12 of the ACKs in the 500 ms after it. It is not
	# judged: the law also reacts, by its own rules, to the delay and the fast recovery the
	# dropped segments cause.
	eval "$(awk '$2 == "M" { tm = $1; next } $2 !~ /^[0-9]+$/ { next } !tm { b[nb++ % 20] = $2; next } $1 - tm <= 500000 { a[na++] = $2 }
		END { m = 1e9; for (i = 0; i < na; i++) if (a[i] < m) m = a[i]; s = 0; k = (nb < 20) ? nb : 20; for (i = 0; i < k; i++) s += b[i];
		printf "before=%d after=%d seq=", k ? s / k : 0, na ? m : 0; for (i = 0; i < na && i < 12; i++) printf "%s,", a[i]; print "" }' "$RDCC_TMP/pmtu.$t.trace")"
	icmp=$((snmp1 - snmp0))
	# shellcheck disable=SC2154 # seq is set by the eval
	tap_diag "RESULT rdcc_rto phase=pmtu trial=$t cwnd_before=$before cwnd_after_min=$after icmp_out_router=$icmp law_rto_events=$RTO_EVENTS after_marker=$seq"
	msg="trial $t: $RTO_EVENTS RTO reactions of the law, $icmp ICMP sent by the router; window $before before the MTU drop, ACKs after: $seq"
	if [ "$icmp" -gt 0 ] && [ "$RTO_EVENTS" -eq 0 ]; then ok=$((ok + 1)); else
		bad=$((bad + 1))
		msg="$msg (failed)"
	fi
	msgs="$msgs; $msg"
	rdcc_decided "$ok" "$bad" && break
	t=$((t + 1))
done
if rdcc_majority "$ok" "$bad"; then
	tap_ok "a PMTU drop is not an RTO for the law$msgs"
else
	tap_not_ok "a PMTU drop must not be an RTO for the law$msgs"
fi

# 5. PMTU at a one-packet window: the law's window pinned at 1 packet for new sockets.
# init_cwnd must stay within [min_cwnd, max_cwnd]: lowered first, restored last.
PMAX=/sys/module/$MOD/parameters/max_cwnd_pkts_q20
PINIT=/sys/module/$MOD/parameters/init_cwnd_pkts_q20
pmax0=$(cat "$PMAX")
pinit0=$(cat "$PINIT")
ok=0 bad=0 t=1 msgs=""
if echo 1048576 >"$PINIT" && echo 1048576 >"$PMAX"; then
	while [ "$t" -le "$RDCC_TRIALS" ]; do
		snmp0=$(icmp_unreach_out)
		probe_trial "pmtu1.$t" pmtu
		snmp1=$(icmp_unreach_out)
		# The largest window of the 20 ACKs before the MTU drop: 1 when the pin holds.
		before=$(awk '$2 == "M" { exit } $2 ~ /^[0-9]+$/ { b[n++ % 20] = $2 }
			END { m = 0; k = (n < 20) ? n : 20; for (i = 0; i < k; i++) if (b[i] > m) m = b[i]; print m }' \
			"$RDCC_TMP/pmtu1.$t.trace")
		icmp=$((snmp1 - snmp0))
		tap_diag "RESULT rdcc_rto phase=pmtu_one_pkt trial=$t cwnd_before_max=$before icmp_out_router=$icmp law_rto_events=$RTO_EVENTS"
		msg="trial $t: window <= $before before the drop, $icmp ICMP sent by the router, $RTO_EVENTS RTO reactions of the law"
		if [ "$before" -eq 1 ] && [ "$icmp" -gt 0 ] && [ "$RTO_EVENTS" -eq 0 ]; then ok=$((ok + 1)); else
			bad=$((bad + 1))
			msg="$msg (failed)"
		fi
		msgs="$msgs; $msg"
		rdcc_decided "$ok" "$bad" && break
		t=$((t + 1))
	done
	echo "$pmax0" >"$PMAX"
	echo "$pinit0" >"$PINIT"
else
	bad=1 msgs="; init_cwnd_pkts_q20 and max_cwnd_pkts_q20 could not be set to 1 packet"
fi
if rdcc_majority "$ok" "$bad"; then
	tap_ok "a PMTU drop at a one-packet window is not an RTO for the law$msgs"
else
	tap_not_ok "a PMTU drop at a one-packet window must not be an RTO for the law$msgs"
fi

tap_finish
