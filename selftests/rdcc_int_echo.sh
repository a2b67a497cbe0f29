#!/bin/sh
# shellcheck shell=sh
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# rdcc_int_echo.sh - the INT request at the sender and the receiver's echo (issue #35 item 2;
# rxstamp/bpf/int.bpf.c; TAP 13).
#
# The topology of rdcc_int_switch.sh: a chain of two routers (RDCC_HOPS=2), each shaping its
# egress towards the receiver with HTB at 10 Gbit/s and the qdisc rdcc_int as the class's leaf.
# `rxstamp int attach` puts the program on the sender's and the receiver's cgroups, each
# admitting the other end on port 5201 only. A bulk TCP flow (`rxstamp source` -> `rxstamp
# sink`, the namespaces' default congestion control) runs to port 5201; `rxstamp int-probe
# flow` captures at the sender's interface (its data segments leaving, the ACKs arriving) and
# `rxstamp mtu-watch` watches the same interface. Checks:
#   1. environment: root, iproute2, rxstamp;
#   2. topology with rdcc_int leaves at both hops, two cgroups;
#   3. the program attached to both cgroups;
#   4. requests: every data segment of the flow carries a request of 2 empty slots (beside
#      timestamps: the default, the most that fit);
#   5. echoes: ACKs arriving at the sender carry echoes of exactly 2 records (one per router),
#      no overflow, nothing malformed, no request in an ACK; at least half of the pure ACKs
#      carry one (the rest: ACKs with nothing new, e.g. window updates);
#   6. from echo to echo of the connection, in the receiver's order (ACK numbers), every
#      router's transmitted bytes advance, and its clock advances between echoes captured less
#      than 8.4 ms apart; no stack comes twice, no two echoes share an ACK number. In virtual
#      time (RDCC_UNSERVED_FAILS=1, one CPU) in every pair; with several CPUs (QEMU) veth hands
#      packets to per-CPU backlogs and can reorder them between namespaces, also between the
#      two switches, so that a later echo shows an earlier first-hop record: there at least
#      RDCC_INT_ECHO_ADV_PCT % of the pairs; there the capture gap is also not the stamp gap
#      (an ACK held up on a loaded host), so the clock test can judge a pair it cannot. How many
#      pairs the scheduler reorders follows the host's load (0.1 to 0.5 % in idle and loaded QEMU
#      runs), so the TCG bound is 90 %, twenty times the worst seen: what it must catch, a
#      record that does not follow the link (constant, reset, per-packet instead of
#      cumulative, random), reads 50 % or less;
#   7. no segment on the sender's interface above the MTU (1500), GSO packets by their segments;
#   8. counters consistent: sender and receiver admitted the connection; the sender wrote at
#      least as many requests as were captured, never lacked room; the receiver kept only
#      2-record stacks, echoed each at most once (echoes <= stacks kept), and the sender parsed
#      exactly the echoes the receiver wrote; nothing malformed on either side;
#   9. IPv6 (the allowlists name both ends' IPv6 addresses too): requests in every data segment,
#      echoes of 2 records, the echoes written all parsed at the sender;
#  10. malformed requests: `rxstamp int-probe forge` sends data segments of the live connection
#      (in its window, PAWS passed) whose INT option has a bad length, version or count; the
#      receiver counts each form (at most as many as sent; in virtual time at least one of each,
#      on a loaded TCG guest, where most forgeries arrive too late to pass TCP, at least one in
#      all), the sender parses no malformed echo, the echoes keep their 2 records;
#  11. a connection the allowlists do not name (port 5202): no INT option in either direction,
#      counted as skipped on both hosts;
#  12. detach: both programs detached and unpinned; a new flow to port 5201 carries nothing.
# One line per flow:  # RESULT rdcc_int_echo phase=.. (the watcher's summary)
#
# Environment: RDCC_INT_ECHO_SECS [2] seconds of the bulk flow; RDCC_INT_ECHO_ADV_PCT [90];
# RDCC_INT_ECHO_SLOTS [empty: as
# many as fit] the sender's --slots (the checks expect 2: with 1, checks 4, 5 and 8 must fail,
# which shows that they can).

case $0 in */*) RDCC_SELFTEST_DIR=${0%/*} ;; *) RDCC_SELFTEST_DIR=. ;; esac
RDCC_RATE_MBIT=10000
RDCC_DELAY_US=0
RDCC_HOPS=2
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"
: "${RDCC_INT_ECHO_SECS:=2}"
: "${RDCC_INT_ECHO_ADV_PCT:=90}"
MOD=sch_rdcc_int
RXSTAMP=$(command -v rxstamp)
PORT=5201
PORT_OTHER=5202
CG_SND=/sys/fs/cgroup/rdcc_int_snd
CG_RCV=/sys/fs/cgroup/rdcc_int_rcv
PIN_SND=/sys/fs/bpf/rdcc_int_snd
PIN_RCV=/sys/fs/bpf/rdcc_int_rcv
FLOW_FORGE=""

# field NAME FILE : a value of a `summary` or `mtu_watch` line.
field() {
	awk -v k="$1" '/^(summary|mtu_watch) / { for (i = 2; i < NF; i += 2) if ($i == k) print $(i + 1) }' "$2"
}

# cnt NAME FILE : a counter of `rxstamp int stats` output.
cnt() { awk -v k="$1" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' "$2"; }

# in_cg CGROUP NS CMD... : run CMD in namespace NS from a process in CGROUP (the program applies
# to sockets created there).
in_cg() {
	local cg="$1" ns="$2"
	shift 2
	# shellcheck disable=SC2016 # expanded by the inner sh
	sh -c 'echo $$ > "$1/cgroup.procs" && ip=$2 && ns=$3 && shift 3 && exec "$ip" netns exec "$ns" "$@"' \
		rdcc_cg "$cg" "$IP" "$ns" "$@"
}

# flow LABEL PORT SECS [DST] : a bulk flow to DST (default the receiver's IPv4 address) PORT
# for SECS s with the watchers on the sender's interface; their output in
# $RDCC_TMP/LABEL.{flow,mtu,sink,source}.
flow() {
	local d="$RDCC_TMP/$1" i=0
	in_cg "$CG_RCV" "$RDCC_NS_RCV" "$RXSTAMP" sink "$2" --rate 100000000 --secs $(($3 + 20)) \
		>"$d.sink" 2>&1 &
	rdcc_track $!
	"$IP" netns exec "$RDCC_NS_SND" "$RXSTAMP" int-probe flow "$RDCC_SND_IF" --port "$2" \
		--count 10000000 --secs $(($3 + 4)) >"$d.flow" 2>&1 &
	rdcc_track $!
	"$IP" netns exec "$RDCC_NS_SND" "$RXSTAMP" mtu-watch "$RDCC_SND_IF" --mtu 1500 \
		--secs $(($3 + 4)) >"$d.mtu" 2>&1 &
	rdcc_track $!
	while ! grep -q ready "$d.flow" 2>/dev/null && [ "$i" -lt 100 ]; do
		sleep "$RDCC_TICK"
		i=$((i + 1))
	done
	if [ -n "$FLOW_FORGE" ]; then
		"$IP" netns exec "$RDCC_NS_SND" "$RXSTAMP" int-probe forge "$RDCC_SND_IF" --port "$2" \
			--count "$FLOW_FORGE" --secs $(($3 + 2)) >"$d.forge" 2>&1 &
		rdcc_track $!
	fi
	sleep 1
	in_cg "$CG_SND" "$RDCC_NS_SND" "$RXSTAMP" source "${4:-$RDCC_RCV_IP4}" "$2" --secs "$3" \
		>"$d.source" 2>&1
	wait
	tap_diag "RESULT rdcc_int_echo phase=$1 $(grep '^summary' "$d.flow" | cut -d' ' -f2-) $(grep '^mtu_watch' "$d.mtu" | cut -d' ' -f2-)"
	tap_diag "$(cat "$d.source" "$d.sink" "$d.forge" 2>/dev/null | tr '\n' ' ')"
}

tap_header
tap_plan 12
require_root
if rdcc_check_env && [ -n "$RXSTAMP" ]; then
	tap_ok "environment: root, iproute2, rxstamp"
else
	tap_not_ok "environment: root, iproute2, rxstamp (${RXSTAMP:-missing})"
	tap_bail "environment"
fi

# 2. topology, module, leaves, cgroups.
ok=0
if ko=$(rdcc_int_switch_load "$RDCC_RATE_MBIT" "$RDCC_QLIMIT_PKTS") && rdcc_topo_setup &&
	rdcc_int_leaves; then
	ok=1
	mkdir -p "$CG_SND" "$CG_RCV" 2>>"$RDCC_TMP/tc.log" || ok=0
fi
# The programs and cgroups, the namespaces (and with them the qdiscs holding the module), then
# the module.
trap 'rc=$?; rdcc_int_ends_detach "$CG_SND" "$PIN_SND" "$CG_RCV" "$PIN_RCV"; rdcc_cleanup; rmmod $MOD 2>/dev/null; (exit $rc); rdcc_on_exit' EXIT
if [ "$ok" = 1 ]; then
	tap_ok "topology: $RDCC_HOPS hops, htb ${RDCC_RATE_MBIT}mbit, leaf rdcc_int ($ko), two cgroups"
else
	tap_not_ok "topology with rdcc_int leaves and cgroups (${ko:-$(cat "$RDCC_TMP/insmod.err")})"
	tap_diag_file "$RDCC_TMP/insmod.err"
	tap_diag_file "$RDCC_TMP/tc.log"
	tap_bail "setup"
fi

# 3. attach: each end admits the other on port 5201 only.
# shellcheck disable=SC2086 # an empty RDCC_INT_ECHO_SLOTS adds no word
if "$RXSTAMP" int attach "$CG_SND" --pin "$PIN_SND" --allow "$RDCC_RCV_IP4/32@$PORT" \
	--allow "$RDCC_RCV_IP6/128@$PORT" ${RDCC_INT_ECHO_SLOTS:+--slots $RDCC_INT_ECHO_SLOTS} \
	>"$RDCC_TMP/attach.log" 2>&1 &&
	"$RXSTAMP" int attach "$CG_RCV" --pin "$PIN_RCV" --allow "$RDCC_SND_IP4/32@$PORT" \
		--allow "$RDCC_SND_IP6/128@$PORT" >>"$RDCC_TMP/attach.log" 2>&1; then
	tap_ok "int attached to the sender's and the receiver's cgroups"
else
	tap_not_ok "int attach"
	tap_diag_file "$RDCC_TMP/attach.log"
	tap_bail "attach"
fi

# 4-8. the bulk flow.
flow bulk "$PORT" "$RDCC_INT_ECHO_SECS"
f="$RDCC_TMP/bulk.flow"
sleep 1
"$RXSTAMP" int stats --pin "$PIN_SND" >"$RDCC_TMP/snd.stats" 2>&1
"$RXSTAMP" int stats --pin "$PIN_RCV" >"$RDCC_TMP/rcv.stats" 2>&1
tap_diag "RESULT rdcc_int_echo counters sender: $(grep -v ' 0$' "$RDCC_TMP/snd.stats" | tr '\n' ' ')"
tap_diag "RESULT rdcc_int_echo counters receiver: $(grep -v ' 0$' "$RDCC_TMP/rcv.stats" | tr '\n' ' ')"

data=$(field data "$f")
if [ "${data:-0}" -gt 0 ] && [ "$(field req "$f")" = "$data" ] && [ "$(field req_filled "$f")" = 0 ] &&
	[ "$(field req_slots_min "$f")" = 2 ] && [ "$(field req_slots_max "$f")" = 2 ]; then
	tap_ok "requests: $data of $data data segments carry a request of 2 empty slots"
else
	tap_not_ok "requests: $(grep '^summary' "$f")"
fi

acks=$(field acks "$f")
echo=$(field echo "$f")
if [ "${echo:-0}" -gt 0 ] && [ $((2 * echo)) -ge "${acks:-0}" ] && [ "$(field hops_min "$f")" = 2 ] &&
	[ "$(field hops_max "$f")" = 2 ] && [ "$(field ovf "$f")" = 0 ] && [ "$(field bad "$f")" = 0 ] &&
	[ "$(field ack_req "$f")" = 0 ] && [ "$(field echo_in_data "$f")" = 0 ]; then
	tap_ok "echoes: $echo of $acks ACKs carry an echo of 2 records (one per router)"
else
	tap_not_ok "echoes: $(grep '^summary' "$f")"
fi

pairs=$(field pairs "$f")
ts_pairs=$(field ts_pairs "$f")
tx_adv=$(field tx_adv "$f")
ts_adv=$(field ts_adv "$f")
# In virtual time (one CPU) every pair; with several CPUs (QEMU) packets can change order
# between namespaces, also between the two switches: RDCC_INT_ECHO_ADV_PCT of the pairs.
want_pct=100
[ "${RDCC_UNSERVED_FAILS:-0}" = 1 ] || want_pct=$RDCC_INT_ECHO_ADV_PCT
if [ "${pairs:-0}" -gt 0 ] && [ $((100 * tx_adv)) -ge $((want_pct * pairs)) ] && [ "${ts_pairs:-0}" -gt 0 ] &&
	[ $((100 * ts_adv)) -ge $((want_pct * ts_pairs)) ] && [ "$(field same "$f")" = 0 ] &&
	[ "$(field ack_same "$f")" = 0 ]; then
	tap_ok "echo to echo (ACK order): bytes advance in $tx_adv of $pairs pairs, clocks in $ts_adv of $ts_pairs (>= $want_pct %), no stack twice"
else
	tap_not_ok "echo to echo: $(grep '^summary' "$f")"
fi

m="$RDCC_TMP/bulk.mtu"
if [ "$(field over_mtu "$m")" = 0 ] && [ "$(field tcp_packets "$m")" -gt 0 ] &&
	[ "$(field max_segment_bytes "$m")" -le 1500 ]; then
	tap_ok "no segment above the MTU (largest $(field max_segment_bytes "$m") bytes)"
else
	tap_not_ok "MTU: $(cat "$m")"
fi

s="$RDCC_TMP/snd.stats"
r="$RDCC_TMP/rcv.stats"
bad=""
[ "$(cnt est_allowed "$s")" -ge 1 ] && [ "$(cnt est_allowed "$r")" -ge 1 ] || bad="$bad est_allowed"
[ "$(cnt req_written "$s")" -ge "$(field req "$f")" ] || bad="$bad req_written<captured"
[ "$(cnt req_no_room "$s")" = 0 ] && [ "$(cnt mss_no_room "$s")" = 0 ] || bad="$bad no_room"
[ "$(cnt mss_reserved "$s")" -gt 0 ] || bad="$bad mss_reserved"
kept=$(cnt rx_req "$r")
wr=$(cnt echo_written "$r")
[ "$wr" -gt 0 ] && [ "$wr" -le "$kept" ] || bad="$bad echoes>stacks"
[ "$(cnt rx_hops_2 "$r")" = "$kept" ] && [ "$(cnt echo_hops_2 "$r")" = "$wr" ] || bad="$bad hops"
[ "$(cnt rx_echo "$s")" = "$wr" ] || bad="$bad sender_parsed($(cnt rx_echo "$s"))!=written($wr)"
[ "$(cnt rx_echo "$s")" -ge "$echo" ] || bad="$bad parsed<captured"
for c in rx_bad_len rx_bad_ver rx_bad_cnt rx_bad_list; do
	[ "$(cnt "$c" "$s")" = 0 ] && [ "$(cnt "$c" "$r")" = 0 ] || bad="$bad $c"
done
[ "$(cnt rx_req "$s")" = 0 ] && [ "$(cnt req_written "$r")" = 0 ] || bad="$bad reverse-data"
if [ -z "$bad" ]; then
	tap_ok "counters: $(cnt req_written "$s") requests written, $kept stacks kept, $wr echoed and parsed at the sender"
else
	tap_not_ok "counters: wrong:$bad"
fi

# 9. IPv6: the allowlist's IPv6 rules, the same requests and echoes.
"$RXSTAMP" int stats --pin "$PIN_SND" --reset >/dev/null 2>&1
"$RXSTAMP" int stats --pin "$PIN_RCV" --reset >/dev/null 2>&1
flow v6 "$PORT" 1 "$RDCC_RCV_IP6"
f="$RDCC_TMP/v6.flow"
"$RXSTAMP" int stats --pin "$PIN_SND" >"$s" 2>&1
"$RXSTAMP" int stats --pin "$PIN_RCV" >"$r" 2>&1
data=$(field data "$f")
echo=$(field echo "$f")
if [ "${data:-0}" -gt 0 ] && [ "$(field req "$f")" = "$data" ] && [ "${echo:-0}" -gt 0 ] &&
	[ "$(field hops_min "$f")" = 2 ] && [ "$(field hops_max "$f")" = 2 ] && [ "$(field bad "$f")" = 0 ] &&
	[ "$(cnt est_allowed "$s")" -ge 1 ] && [ "$(cnt est_allowed "$r")" -ge 1 ] &&
	[ "$(cnt rx_echo "$s")" = "$(cnt echo_written "$r")" ]; then
	tap_ok "IPv6: $data of $data data segments with a request, $echo echoes of 2 records"
else
	tap_not_ok "IPv6: $(grep '^summary' "$f"); sender: $(grep -v ' 0$' "$s" | tr '\n' ' ')"
fi

# 10. malformed requests: forged data segments of the live connection (in its window, PAWS
# passed) whose INT option has a bad length, version or count.
"$RXSTAMP" int stats --pin "$PIN_SND" --reset >/dev/null 2>&1
"$RXSTAMP" int stats --pin "$PIN_RCV" --reset >/dev/null 2>&1
FLOW_FORGE=60
flow forged "$PORT" 3
FLOW_FORGE=""
f="$RDCC_TMP/forged.flow"
"$RXSTAMP" int stats --pin "$PIN_SND" >"$s" 2>&1
"$RXSTAMP" int stats --pin "$PIN_RCV" >"$r" 2>&1
tap_diag "RESULT rdcc_int_echo counters forged receiver: $(grep -v ' 0$' "$r" | tr '\n' ' ')"
fg="$RDCC_TMP/forged.forge"
bad=""
sent=0
counted=0
for k in len ver cnt; do
	n=$(awk -v k="$k" '/^summary / { for (i = 2; i < NF; i += 2) if ($i == k) print $(i + 1) }' "$fg")
	c=$(cnt "rx_bad_$k" "$r")
	sent=$((sent + ${n:-0}))
	counted=$((counted + c))
	[ "$c" -le "${n:-0}" ] || bad="$bad $k($c of ${n:-0})"
	# In virtual time every form is sent and reaches the parse. On a loaded TCG guest the
	# forger is often late (its segments fall behind rcv_nxt or fail PAWS, and TCP drops them
	# before the parse): there only what was counted is judged.
	if [ "${RDCC_UNSERVED_FAILS:-0}" = 1 ]; then
		[ "${n:-0}" -ge 1 ] && [ "$c" -ge 1 ] || bad="$bad $k($c of ${n:-0})"
	fi
	[ "$(cnt "rx_bad_$k" "$s")" = 0 ] || bad="$bad echoed-$k"
done
[ "$sent" = 0 ] || [ "$counted" -ge 1 ] || bad="$bad none-counted($counted of $sent)"
[ "$(field hops_min "$f")" = 2 ] && [ "$(field hops_max "$f")" = 2 ] && [ "$(field echo "$f")" -gt 0 ] ||
	bad="$bad echoes"
[ "$(cnt rx_echo "$s")" = "$(cnt echo_written "$r")" ] || bad="$bad parsed!=written"
if [ -z "$bad" ] && [ "$sent" = 0 ]; then
	tap_unserved "malformed requests" "the forger sent nothing (the guest too slow to follow the flow)"
elif [ -z "$bad" ]; then
	tap_ok "malformed requests (length, version, count) counted by the receiver, none echoed: $(grep '^summary' "$fg" | cut -d' ' -f2-)"
else
	tap_not_ok "malformed requests: wrong:$bad"
	tap_diag_file "$fg"
	# The receiver's TCP counters that drop a segment before the parse.
	# shellcheck disable=SC2016 # awk's own fields
	tap_diag "receiver TcpExt: $("$IP" netns exec "$RDCC_NS_RCV" awk '/^TcpExt:/ { if (!h) { split($0, k); h = 1 } else { for (i = 2; i <= NF; i++) if ($i != 0 && k[i] ~ /PAWS|Skipped|OFO|Drop|Seq|Old|Challenge/) printf "%s %s ", k[i], $i } }' /proc/net/netstat)"
fi

# 11. a connection the allowlists do not name.
"$RXSTAMP" int stats --pin "$PIN_SND" --reset >/dev/null 2>&1
"$RXSTAMP" int stats --pin "$PIN_RCV" --reset >/dev/null 2>&1
flow other "$PORT_OTHER" 1
f="$RDCC_TMP/other.flow"
"$RXSTAMP" int stats --pin "$PIN_SND" >"$s" 2>&1
"$RXSTAMP" int stats --pin "$PIN_RCV" >"$r" 2>&1
data=$(field data "$f")
if [ "${data:-0}" -gt 0 ] && [ "$(field data_noopt "$f")" = "$data" ] && [ "$(field echo "$f")" = 0 ] &&
	[ "$(field bad "$f")" = 0 ] && [ "$(cnt est_skipped "$s")" -ge 1 ] && [ "$(cnt est_skipped "$r")" -ge 1 ] &&
	[ "$(cnt est_allowed "$s")" = 0 ] && [ "$(cnt req_written "$s")" = 0 ] && [ "$(cnt echo_written "$r")" = 0 ]; then
	tap_ok "port $PORT_OTHER (not admitted): $data data segments, no INT option, skipped on both hosts"
else
	tap_not_ok "port $PORT_OTHER: $(grep '^summary' "$f"); sender: $(tr '\n' ' ' <"$s")"
fi

# 12. detach, then a flow that carries nothing.
if "$RXSTAMP" int detach "$CG_SND" --pin "$PIN_SND" >"$RDCC_TMP/detach.log" 2>&1 &&
	"$RXSTAMP" int detach "$CG_RCV" --pin "$PIN_RCV" >>"$RDCC_TMP/detach.log" 2>&1 &&
	[ ! -e "$PIN_SND" ] && [ ! -e "$PIN_RCV" ]; then
	flow detached "$PORT" 1
	f="$RDCC_TMP/detached.flow"
	data=$(field data "$f")
	if [ "${data:-0}" -gt 0 ] && [ "$(field data_noopt "$f")" = "$data" ] && [ "$(field echo "$f")" = 0 ]; then
		tap_ok "detached from both cgroups and unpinned; a new flow carries no INT option ($data data segments)"
	else
		tap_not_ok "after detach: $(grep '^summary' "$f")"
	fi
else
	tap_not_ok "detach"
	tap_diag_file "$RDCC_TMP/detach.log"
fi
tap_finish
