#!/bin/sh
# shellcheck shell=sh
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# rdcc_rqd.sh - Swift's remote-delay channel end to end (TAP version 13 on stdout).
#
# Receiver: rxstamp attaches rqd.bpf.o to a cgroup v2 that holds the receiving processes (in
# netns rdcc_rcv). Sender: tcp_swift (netns rdcc_snd's default CA) with its netfilter hook.
# Counters come from /sys/kernel/debug/tcp_swift/remote_delay (deltas per phase) and from
# `rxstamp stats`. Checks:
#   1. environment and topology (lib.sh);
#   2. tcp_swift reloaded with the VM profile (as rdcc_cc.sh, plus endpoint_target_ns and the
#      split ss view), rxstamp attached;
#   3. IPv4 bulk flow: the remote delay of the very ACK reached cong_control for >= 95 % of the
#      ACKs that acknowledge new data; no option rejected as malformed, and no endpoint delay
#      clamped (above the ACK's RTT sample) in virtual time, at most RDCC_RQD_CLAMP_PER_MILLE of
#      the data ACKs under TCG;
#   4. the same over IPv6;
#   5. observability: ss -ti shows the split (dctcp:(ce_state:flags,alpha:fabric ns,
#      ab_ecn:endpoint ns,ab_tot:hops)) and the tracepoint prints fabric_ns/endpoint_ns/hops/binds;
#   6. early demux off (tcp_early_demux=0 in the sender netns): the hook's socket lookup keeps the
#      hit rate >= 95 % (IPv4 and IPv6);
#   7. slow receiver (RDCC_RQD_SLOW=1): a reader limited to RDCC_SLOW_KBPS KB/s (rxstamp sink);
#      the endpoint window binds on >= 25 % of the ACKs (with a fast reader it binds on none),
#      the endpoint delay estimate is at least half its target, and the bottleneck queue stays
#      short (the fabric is not what limits the flow);
#   8. receiver detached: no option, every ACK fabric-only (no endpoint estimate, no binding);
#   9. kernel RX timestamps (rxstamp run --rx-stamps): software RX stamps as arrival times at the
#      receiver (the sender's local Rx delay of each ACK is reported; veth gives none, see 9.);
#  10. rmmod tcp_swift while its hook sees traffic (a cubic flow) is clean, and it reloads.
# One diagnostic line per measurement for the notes:
#   # RESULT rqd <key>=<value> ...
#
# Environment: RDCC_RATE_MBIT [100], RDCC_DELAY_US [2000], RDCC_DURATION [5], RDCC_HOPS [1]
# (lib.sh: routers in a chain; check 5 wants that hop count in ss and in the tracepoint),
# RDCC_MIN_HIT_PCT [95], RDCC_RQD_CLAMP_PER_MILLE [10] (TCG only; virtual time allows none),
# RDCC_SLOW_KBPS [1024] (reader rate of the slow receiver, KB/s),
# RDCC_RQD_SLOW [1] (0 leaves check 7 out of the plan: the distro profile, whose HZ=250 makes
# every delayed-ACK hold at least one 4 ms jiffy, four times the 1 ms endpoint target, so the
# endpoint window sits at its floor there; see Documentation/remote-delay.md).

case $0 in */*) RDCC_SELFTEST_DIR=${0%/*} ;; *) RDCC_SELFTEST_DIR=. ;; esac
: "${RDCC_DELAY_US:=2000}"
: "${RDCC_DURATION:=5}"
# The receiver keeps Linux's delayed ACKs here (lib.sh's default is per-segment ACKs): what the
# receiver holds is exactly what the option reports, and rxstamp caps the delayed-ACK timer.
: "${RDCC_QUICKACK:=0}"
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"
# shellcheck source=lib_rqd.sh
. "$RDCC_SELFTEST_DIR/lib_rqd.sh"

: "${RDCC_MIN_HIT_PCT:=95}"
: "${RDCC_SLOW_KBPS:=1024}"
: "${RDCC_RQD_SLOW:=1}"
# An endpoint delay above the ACK's own RTT sample is clamped to it and counted (`clamped`;
# Documentation/remote-delay.md, "Sender", its table of bounds). In virtual time none is (the
# receiver's hold is what the delayed-ACK timer gives, exactly); under TCG a timer that fires
# late on a loaded host can make one: 1 of 2,635 data ACKs in a cold-cache `make test` at
# cc4947c, three kernel builds beside the guest. Malformed options (rej_*) fail on every bed.
: "${RDCC_RQD_CLAMP_PER_MILLE:=10}"
# The fewest data ACKs a hit rate is judged over (checks 3 and 4). A working channel reports on
# ~100 % of them and a broken one on none, so 20 already tell them apart; more would make the
# check depend on how many ACKs a guest gets through: under TCG at load 6 a 5 s IPv6 flow gave
# 84 (2026-11-28), which the earlier floor of 100 failed.
RQD_MIN_DATA_ACKS=20

MOD=tcp_swift
# The VM profile of rdcc_cc.sh, plus an endpoint target of 1 ms, above the TCG receiver's usual
# delay (a few hundred us on average; 50 us is for hardware timestamps), and the split view in
# ss.
PARAMS="base_target_ns=6000000 fs_range_ns=3000000 fs_max_cwnd_pkts_q20=104857600 endpoint_target_ns=1000000 ss_info=1"
ENDPOINT_TARGET_US=1000
TRACEFS=/sys/kernel/tracing
[ -d "$TRACEFS/events" ] || TRACEFS=/sys/kernel/debug/tracing
SLOW_PORT=5302

# One bulk flow to $2 (label $1) with counters around it; sets HIT (used_data/acks_data %),
# ACKS, ACKS_DATA, USED, REJ (options rejected as malformed), CLAMP (endpoint delays clamped),
# LOOKUP, and writes $RDCC_TMP/$1.{a,b}.
flow_with_counters() {
	local label="$1" dst="$2"
	snap "$RDCC_TMP/$label.a"
	rdcc_iperf_run "$label" "$dst" "" "${3:-0}" -t "$RDCC_DURATION"
	FLOW_OK=$?
	snap "$RDCC_TMP/$label.b"
	ACKS=$(delta "$RDCC_TMP/$label.a" "$RDCC_TMP/$label.b" acks)
	ACKS_DATA=$(delta "$RDCC_TMP/$label.a" "$RDCC_TMP/$label.b" acks_data)
	USED=$(delta "$RDCC_TMP/$label.a" "$RDCC_TMP/$label.b" used)
	USED_DATA=$(delta "$RDCC_TMP/$label.a" "$RDCC_TMP/$label.b" used_data)
	SEEN=$(delta "$RDCC_TMP/$label.a" "$RDCC_TMP/$label.b" opt_seen)
	LOOKUP=$(delta "$RDCC_TMP/$label.a" "$RDCC_TMP/$label.b" hook_lookup)
	BINDS=$(delta "$RDCC_TMP/$label.a" "$RDCC_TMP/$label.b" endpoint_binds)
	REJ=0
	for k in rej_malformed rej_bad_length rej_duplicate rej_bad_version rej_bad_ttl rej_bad_header; do
		REJ=$((REJ + $(delta "$RDCC_TMP/$label.a" "$RDCC_TMP/$label.b" "$k")))
	done
	CLAMP=$(delta "$RDCC_TMP/$label.a" "$RDCC_TMP/$label.b" clamped)
	HIT=$(pct "$USED_DATA" "$ACKS_DATA")
	HIT_ALL=$(pct "$USED" "$ACKS")
	tap_diag "$label: tput ${RDCC_R_TPUT} Mbit/s; acks $ACKS (new data $ACKS_DATA); remote delay used on $USED_DATA of those ($HIT %), on $USED of all ACKs ($HIT_ALL %); options seen $SEEN, rejected $REJ, clamped $CLAMP, lookups $LOOKUP, endpoint binds $BINDS"
}

# clamp_ok: CLAMP within what the bed allows (none in virtual time; TCG: per mille of ACKS_DATA).
clamp_ok() {
	if [ "${RDCC_UNSERVED_FAILS:-0}" = 1 ]; then
		[ "$CLAMP" -eq 0 ]
	else
		[ $((CLAMP * 1000)) -le $((ACKS_DATA * RDCC_RQD_CLAMP_PER_MILLE)) ]
	fi
}

rxstamp_stats() {
	"$RXSTAMP" stats --pin "$PIN" --reset >"$RDCC_TMP/rx.$1" 2>&1
	tap_diag "RESULT rqd phase=$1 $(awk '{ printf "%s=%s ", $1, $2 }' "$RDCC_TMP/rx.$1")"
}

tap_header
if [ "$RDCC_RQD_SLOW" = 1 ]; then tap_plan 11; else tap_plan 10; fi
tap_diag "clocksource: $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
require_root
rdcc_find_tools
# 1 + 2. environment, topology; module with the profile, receiver program attached.
rqd_setup 1 "sender netns default swift, rxstamp attached to $CG"

# 3. IPv4 hit rate, with the hook timed.
echo 1 >/sys/module/$MOD/parameters/rqd_time
flow_with_counters v4 "$RDCC_RCV_IP4" 1
echo 0 >/sys/module/$MOD/parameters/rqd_time
hook_ns=$(delta "$RDCC_TMP/v4.a" "$RDCC_TMP/v4.b" hook_ns)
hook_n=$(delta "$RDCC_TMP/v4.a" "$RDCC_TMP/v4.b" hook_timed)
hook_pkts=$(delta "$RDCC_TMP/v4.a" "$RDCC_TMP/v4.b" hook_pkts)
tap_diag "RESULT rqd phase=v4 hit_pct=$HIT hit_all_pct=$HIT_ALL acks_data=$ACKS_DATA hook_ns_per_pkt=$((hook_n > 0 ? hook_ns / hook_n : 0)) hook_calls=$hook_n hook_swift_pkts=$hook_pkts tput_mbit=$RDCC_R_TPUT"
rxstamp_stats v4
if [ "$FLOW_OK" -eq 0 ] && [ "$ACKS_DATA" -ge "$RQD_MIN_DATA_ACKS" ] && rdcc_fcmp "$HIT" ">=" "$RDCC_MIN_HIT_PCT" &&
	[ "$REJ" -eq 0 ] && clamp_ok; then
	tap_ok "IPv4: remote delay of the same ACK on $HIT % of $ACKS_DATA data ACKs (>= $RDCC_MIN_HIT_PCT, of >= $RQD_MIN_DATA_ACKS), none rejected, $CLAMP clamped"
else
	tap_not_ok "IPv4: remote delay of the same ACK on $HIT % of $ACKS_DATA data ACKs (>= $RDCC_MIN_HIT_PCT, of >= $RQD_MIN_DATA_ACKS), rejected $REJ, clamped $CLAMP"
	rdcc_iperf_diag
fi
cp "$RDCC_TMP/v4.ss" "$RDCC_TMP/v4.ss.keep" 2>/dev/null

# 4. IPv6.
flow_with_counters v6 "$RDCC_RCV_IP6"
tap_diag "RESULT rqd phase=v6 hit_pct=$HIT hit_all_pct=$HIT_ALL acks_data=$ACKS_DATA tput_mbit=$RDCC_R_TPUT"
rxstamp_stats v6
if [ "$FLOW_OK" -eq 0 ] && [ "$ACKS_DATA" -ge "$RQD_MIN_DATA_ACKS" ] && rdcc_fcmp "$HIT" ">=" "$RDCC_MIN_HIT_PCT" &&
	[ "$REJ" -eq 0 ] && clamp_ok; then
	tap_ok "IPv6: remote delay of the same ACK on $HIT % of $ACKS_DATA data ACKs (>= $RDCC_MIN_HIT_PCT, of >= $RQD_MIN_DATA_ACKS), none rejected, $CLAMP clamped"
else
	tap_not_ok "IPv6: remote delay of the same ACK on $HIT % of $ACKS_DATA data ACKs (>= $RDCC_MIN_HIT_PCT, of >= $RQD_MIN_DATA_ACKS), rejected $REJ, clamped $CLAMP"
	rdcc_iperf_diag
fi

# 5. ss split view (sampled during the IPv4 flow) and the tracepoint.
ssline=$(grep -o 'dctcp:([^)]*)' "$RDCC_TMP/v4.ss.keep" 2>/dev/null | tail -n 1)
ev="$TRACEFS/events/$MOD/decision"
trline=""
if [ -d "$ev" ]; then
	echo 1 >"$ev/enable"
	: >"$TRACEFS/trace"
	"$IP" netns exec "$RDCC_NS_SND" "$IPERF3" -c "$RDCC_RCV_IP4" -p "$RDCC_PORT" -t 1 >/dev/null 2>&1
	echo 0 >"$ev/enable"
	trline=$(grep -m 1 'remote=1' "$TRACEFS/trace")
fi
tap_diag "ss: $ssline"
tap_diag "trace: $trline"
# The hops: the routers the data crossed (lib.sh RDCC_HOPS, 1 by default), from the TTL.
case "$ssline" in
*"ab_tot:$RDCC_HOPS)"*) ss_ok=1 ;;
*) ss_ok=0 ;;
esac
case "$trline" in
*fabric_ns=*endpoint_ns=*"hops=$RDCC_HOPS "*binds=*remote=1*) tr_ok=1 ;;
*) tr_ok=0 ;;
esac
if [ "$ss_ok" = 1 ] && [ "$tr_ok" = 1 ]; then
	tap_ok "ss -ti shows fabric/endpoint delay, hops ($RDCC_HOPS: the routers) and flags; the tracepoint too"
else
	tap_not_ok "ss -ti / tracepoint show fabric/endpoint delay, hops, binding window"
fi

# 6. no early demux: the hook looks the socket up.
"$IP" netns exec "$RDCC_NS_SND" sh -c 'echo 0 > /proc/sys/net/ipv4/tcp_early_demux; echo 0 > /proc/sys/net/ipv4/ip_early_demux' 2>/dev/null
flow_with_counters nodemux4 "$RDCC_RCV_IP4"
hit4=$HIT lk4=$LOOKUP ok4=$FLOW_OK
flow_with_counters nodemux6 "$RDCC_RCV_IP6"
"$IP" netns exec "$RDCC_NS_SND" sh -c 'echo 1 > /proc/sys/net/ipv4/tcp_early_demux; echo 1 > /proc/sys/net/ipv4/ip_early_demux' 2>/dev/null
tap_diag "RESULT rqd phase=nodemux hit4_pct=$hit4 lookups4=$lk4 hit6_pct=$HIT lookups6=$LOOKUP"
rxstamp_stats nodemux
if [ "$ok4" -eq 0 ] && [ "$FLOW_OK" -eq 0 ] && [ "$lk4" -gt 0 ] && [ "$LOOKUP" -gt 0 ] &&
	rdcc_fcmp "$hit4" ">=" "$RDCC_MIN_HIT_PCT" && rdcc_fcmp "$HIT" ">=" "$RDCC_MIN_HIT_PCT"; then
	tap_ok "early demux off: socket lookup in the hook, hit rate $hit4 % (v4), $HIT % (v6)"
else
	tap_not_ok "early demux off: hit rate $hit4 % (v4, $lk4 lookups), $HIT % (v6, $LOOKUP lookups)"
fi

# 7. slow receiver: a reader of RDCC_SLOW_KBPS KB/s (rxstamp sink), in the cgroup. Which window
# binds depends on how the receiver's delayed-ACK holds (capped at 2 ms by rxstamp) fall around
# the 1 ms endpoint target, and that varies under TCG (binding on 0-100 % of ACKs over runs of
# one build), so the median of up to RDCC_SLOW_TRIALS (5) trials decides, like rdcc_cc.sh's
# performance checks. A lower endpoint target is not the answer: at 0.5 ms the holds alone kept the endpoint
# delay above target, each cut left more lone (held) segments, and the window fell to its floor
# (3-4 ACKs in 6 s) - see Documentation/remote-delay.md.
slow_trial() {
	local port="$1"
	# shellcheck disable=SC2016 # expanded by the inner sh
	sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" netns exec "$3" "$4" sink "$5" --rate "$6" --secs "$7"' \
		rdcc_slow "$CG" "$IP" "$RDCC_NS_RCV" "$RXSTAMP" "$port" "$RDCC_SLOW_KBPS" $((RDCC_DURATION + 6)) \
		>"$RDCC_TMP/sink.log" 2>&1 &
	slow_pid=$!
	rdcc_track "$slow_pid"
	sleep 1
	[ -n "${RDCC_RQD_TRACE:-}" ] && [ -d "$ev" ] && echo 1 >"$ev/enable" && : >"$TRACEFS/trace"
	"$IP" netns exec "$RDCC_NS_SND" "$RXSTAMP" source "$RDCC_RCV_IP4" "$port" --secs $((RDCC_DURATION + 3)) \
		>"$RDCC_TMP/source.log" 2>&1 &
	snd_pid=$!
	rdcc_track "$snd_pid"
	: >"$RDCC_TMP/slow.ss"
	: >"$RDCC_TMP/slow.q"
	i=0
	while [ "$i" -lt $((RDCC_DURATION + 2)) ]; do
		sleep 1
		i=$((i + 1))
		[ "$i" -lt 2 ] && continue	# start-up: counters and samples from the 2nd second on
		[ "$i" -eq 2 ] && snap "$RDCC_TMP/slow.a"
		"$SS" -N "$RDCC_NS_SND" -tinH state established "( dport = :$port )" >>"$RDCC_TMP/slow.ss" 2>/dev/null
		"$TC" -n "$RDCC_BN_NS" -s qdisc show dev "$RDCC_BN_IF" 2>/dev/null |
			awk '/^qdisc netem|^qdisc pfifo/ { q = 1 } q && /backlog/ { print $3; q = 0 }' >>"$RDCC_TMP/slow.q"
	done
	snap "$RDCC_TMP/slow.b"
	if [ -n "${RDCC_RQD_TRACE:-}" ] && [ -d "$ev" ]; then
		echo 0 >"$ev/enable"
		grep -o 'rtt_ns.*' "$TRACEFS/trace" | head -n "$RDCC_RQD_TRACE" >"$RDCC_TMP/slow.trace"
		tap_diag_file "$RDCC_TMP/slow.trace" "$RDCC_RQD_TRACE"
	fi
	wait "$snd_pid" 2>/dev/null
	rdcc_untrack "$snd_pid"
	rdcc_kill "$slow_pid"
	s_acks=$(delta "$RDCC_TMP/slow.a" "$RDCC_TMP/slow.b" acks_data)
	s_used=$(delta "$RDCC_TMP/slow.a" "$RDCC_TMP/slow.b" used_data)
	s_binds=$(delta "$RDCC_TMP/slow.a" "$RDCC_TMP/slow.b" endpoint_binds)
	s_all=$(delta "$RDCC_TMP/slow.a" "$RDCC_TMP/slow.b" acks)
	bind_pct=$(pct "$s_binds" "$s_all")
	# fabric (alpha) and endpoint (ab_ecn) delay in us, cwnd, from the ss samples; queue in packets.
	eval "$(grep -o 'dctcp:([^)]*)' "$RDCC_TMP/slow.ss" | tr '(),:' '    ' |
		awk '{ for (i = 1; i < NF; i++) { if ($i == "alpha") f += $(i + 1); if ($i == "ab_ecn") e += $(i + 1) } n++ }
		END { if (n == 0) n = 1; printf "fab_us=%d end_us=%d nss=%d\n", f / n / 1000, e / n / 1000, n }')"
	eval "$(awk '{ v = $1 + 0; s += v; if (v > m) m = v; n++ } END { if (n == 0) n = 1; printf "q_mean=%d q_max=%d\n", s / n, m }' "$RDCC_TMP/slow.q")"
	cwnd_mean=$(grep -o ' cwnd:[0-9]*' "$RDCC_TMP/slow.ss" | awk -F: '{ s += $2; n++ } END { if (n) printf "%.1f", s / n; else print 0 }')
	# shellcheck disable=SC2154 # fab_us, end_us, nss, q_mean, q_max are set by the evals above
	tap_diag "RESULT rqd phase=slow acks=$s_all acks_data=$s_acks used_data=$s_used endpoint_binds_pct=$bind_pct fabric_us_mean=$fab_us endpoint_us_mean=$end_us cwnd_mean=$cwnd_mean queue_pkts_mean=$q_mean queue_pkts_max=$q_max ss_samples=$nss"
	rxstamp_stats slow
	tap_diag "$(cat "$RDCC_TMP/sink.log" "$RDCC_TMP/source.log" 2>/dev/null | tr '\n' ' ')"
	# The more the endpoint window binds, the fewer ACKs the flow gets (a window of a few
	# packets at a 1 MB/s reader): 10 ACKs are enough to count. The fabric delay is reported,
	# not judged: under a loaded host it includes the emulated host's own delay (3-9 ms seen),
	# while the short queue shows the fabric is not what limits the flow.
	if [ "$s_all" -ge 10 ] && rdcc_fcmp "$bind_pct" ">=" 25 &&
		[ "$end_us" -ge $((ENDPOINT_TARGET_US / 2)) ] && [ "$q_mean" -le 10 ]; then
		SLOW_MSG="endpoint window binds on $bind_pct % of $s_all ACKs; endpoint delay $end_us us (target $ENDPOINT_TARGET_US us), fabric $fab_us us; queue mean $q_mean pkts"
		return 0
	fi
	SLOW_MSG="endpoint window binds on $bind_pct % (>= 25) of $s_all ACKs (>= 10), endpoint $end_us us (>= $((ENDPOINT_TARGET_US / 2))), fabric $fab_us us, queue mean $q_mean pkts (<= 10)"
	return 1
}
# 5 trials (RDCC_SLOW_TRIALS): one trial failed in 7 over this build's runs; 3 would leave ~5 %.
if [ "$RDCC_RQD_SLOW" = 1 ]; then
trials_saved=$RDCC_TRIALS
RDCC_TRIALS=${RDCC_SLOW_TRIALS:-5}
s_ok=0 s_bad=0 t=1 slow_msgs=""
while [ "$t" -le "$RDCC_TRIALS" ]; do
	if slow_trial $((SLOW_PORT + t - 1)); then s_ok=$((s_ok + 1)); else s_bad=$((s_bad + 1)); fi
	tap_diag "slow receiver trial $t: $SLOW_MSG"
	slow_msgs="$slow_msgs; trial $t: $SLOW_MSG"
	rdcc_decided "$s_ok" "$s_bad" && break
	t=$((t + 1))
done
if rdcc_majority "$s_ok" "$s_bad"; then
	tap_ok "slow receiver (median of trials)$slow_msgs"
else
	tap_not_ok "slow receiver (median of trials)$slow_msgs"
fi
RDCC_TRIALS=$trials_saved
fi

# 8. receiver detached: fabric-only.
"$RXSTAMP" detach "$CG" --pin "$PIN" >"$RDCC_TMP/detach.log" 2>&1
det_rc=$?
sleep 1
flow_with_counters detached "$RDCC_RCV_IP4" 1
ssline=$(grep -o 'dctcp:([^)]*)' "$RDCC_TMP/detached.ss" 2>/dev/null | tail -n 1)
tap_diag "ss: $ssline"
if [ "$det_rc" -eq 0 ] && [ "$FLOW_OK" -eq 0 ] && [ "$ACKS" -gt 100 ] && [ "$SEEN" -eq 0 ] &&
	[ "$USED" -eq 0 ] && [ "$BINDS" -eq 0 ]; then
	case "$ssline" in
	*ce_state:0,*) tap_ok "receiver detached: no option, $ACKS ACKs fabric-only, no endpoint window" ;;
	*) tap_not_ok "receiver detached: ss still shows an endpoint estimate ($ssline)" ;;
	esac
else
	tap_not_ok "receiver detached: rc $det_rc, options seen $SEEN, used $USED, endpoint binds $BINDS"
	tap_diag_file "$RDCC_TMP/detach.log"
fi

# 9. kernel RX timestamps: `rxstamp run --rx-stamps` (foreground, holds a SO_TIMESTAMPNS socket
# so the kernel stamps every received packet): the receiver uses the software RX stamp as the
# arrival time. The sender's local Rx delay (t6 - t5) is reported, not checked: over veth an ACK
# reaches LOCAL_IN still carrying the peer's monotonic delivery time (EDT), which the kernel
# replaces by a receive stamp only in ip_local_deliver_finish, after the hook; the hook uses
# only realtime receive stamps, so it measures none here (Documentation/remote-delay.md).
# shellcheck disable=SC2086 # RQD_ALLOW is a word list
# It runs until SIGTERM (then prints its counters): from attach to after the flow, however long
# the flow takes to start and run on a slow guest.
"$RXSTAMP" run "$CG" --pin "$PIN" $RQD_ALLOW --rx-stamps >"$RDCC_TMP/rxrun.log" 2>&1 &
rx_pid=$!
rdcc_track "$rx_pid"
i=0
while ! grep -q '^rxstamp: attached' "$RDCC_TMP/rxrun.log" && rdcc_alive "$rx_pid" &&
	[ "$i" -lt $((60 * RDCC_TICKS_PER_S)) ]; do
	sleep "$RDCC_TICK"
	i=$((i + 1))
done
flow_with_counters rxstamps "$RDCC_RCV_IP4"
local_rx=$(delta "$RDCC_TMP/rxstamps.a" "$RDCC_TMP/rxstamps.b" local_rx)
kill -TERM "$rx_pid" 2>/dev/null
wait "$rx_pid" 2>/dev/null
rdcc_untrack "$rx_pid"
sw=$(cnt "$RDCC_TMP/rxrun.log" ing_src_sw_rx)
ing=$(cnt "$RDCC_TMP/rxrun.log" ing_data)
tap_diag "RESULT rqd phase=rxstamps hit_pct=$HIT local_rx_acks=$local_rx acks=$ACKS $(awk '{ printf "%s=%s ", $1, $2 }' "$RDCC_TMP/rxrun.log")"
if [ "$FLOW_OK" -eq 0 ] && [ "$ing" -gt 100 ] && [ $((sw * 100)) -ge $((ing * 90)) ] &&
	rdcc_fcmp "$HIT" ">=" "$RDCC_MIN_HIT_PCT"; then
	tap_ok "RX timestamps: $sw of $ing arrivals stamped by the kernel, hit rate $HIT % ($local_rx ACKs with a local Rx delay)"
else
	tap_not_ok "RX timestamps: $sw of $ing arrivals stamped by the kernel (>= 90 %), hit rate $HIT %"
	tap_diag_file "$RDCC_TMP/rxrun.log" 5
fi

# 10. unload with the hook active: a cubic flow keeps every hook busy while tcp_swift goes away.
rdcc_ns_cc_set cubic
"$IP" netns exec "$RDCC_NS_SND" "$IPERF3" -c "$RDCC_RCV_IP4" -p "$RDCC_PORT" -t 4 >/dev/null 2>&1 &
bg=$!
rdcc_track "$bg"
sleep 2
# The earlier steps' Swift sockets may still be closing (FIN_WAIT, LAST_ACK) and hold a module
# reference, which makes rmmod fail with EAGAIN for a reason this step does not test: wait until
# none is left (the cubic flow holds none), up to 20 s, and say so if some stay.
refs=1
for _ in $(seq 40); do
	refs=$(cat "/sys/module/$MOD/refcnt" 2>/dev/null || echo 0)
	[ "$refs" = 0 ] && break
	sleep 0.5
done
rm_ok=0
if [ "$refs" != 0 ]; then
	echo "tcp_swift still referenced $refs times after 20 s" >"$RDCC_TMP/rmmod.err"
else
	rmmod "$MOD" 2>"$RDCC_TMP/rmmod.err" && ! rdcc_cc_available swift && rm_ok=1
fi
wait "$bg" 2>/dev/null
rdcc_untrack "$bg"
if [ "$rm_ok" = 1 ] && insmod "$ko" 2>>"$RDCC_TMP/rmmod.err" && rdcc_cc_available swift; then
	tap_ok "rmmod tcp_swift with its hook on live traffic is clean; reloaded with defaults"
else
	tap_not_ok "rmmod tcp_swift with its hook on live traffic: $(tr '\n' ' ' <"$RDCC_TMP/rmmod.err")"
	rdcc_cc_available swift || insmod "$ko" 2>/dev/null
fi

tap_finish
