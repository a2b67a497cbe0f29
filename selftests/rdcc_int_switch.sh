#!/bin/sh
# shellcheck shell=sh
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# rdcc_int_switch.sh - the software INT switch sch_rdcc_int (issue #35 item 1; TAP 13).
#
# A chain of two routers (lib.sh RDCC_HOPS=2), each shaping its egress with HTB at 10 Gbit/s
# and the qdisc rdcc_int as the class's leaf. `rxstamp int-probe send` writes TCP segments with
# an INT request from the sender's namespace, back to back; `rxstamp int-probe watch` captures
# them at the receiver and judges the records (rxstamp/src/intprobe.rs). Checks:
#   1. environment: root, iproute2, rxstamp;
#   2. topology with rdcc_int as the leaf at both hops (module parameters: rate 10000 Mbit/s);
#   3. a rate an INT record cannot name is refused with a message, and changes nothing;
#   4. two slots (beside timestamps), two hops: every segment arrives with two records and a
#      valid TCP checksum (the switch updates it), no overflow, hop 1's transmitted bytes step
#      by exactly each segment's frame (to the 128 B unit), its clock never goes back (under
#      TCG: in at least 90 % of the pairs, RDCC_INT_TS_FWD_PCT; the 24-bit clock wraps every
#      16.8 ms, so a step over 8.4 ms reads as a step back, and on a loaded host two segments
#      of one burst can leave 10 ms apart: 2 of 199 pairs in one CI run; a clock that is not
#      the dequeue's reads back in half of them), it names 10 Gbit/s, and no segment reports
#      more queue behind it than the segments still to come;
#      in virtual time (RDCC_UNSERVED_FAILS=1: the burst reaches the switch at one instant) the
#      queue is exactly the frames still to come, and the queued segments leave one frame time
#      apart on average (RDCC_INT_GAP_TOL_NS: the shaper's rate as the records show it);
#   5. one slot, two hops: one record each, and the second switch sets the overflow bit;
#   6. the module's counters: 3 x N stamps and N overflows, nothing malformed.
# One line per probe:  # RESULT rdcc_int phase=.. (the watcher's summary)
#
# Environment: RDCC_INT_COUNT [200] segments per probe, RDCC_INT_SIZE [1000] payload bytes,
# RDCC_INT_GAP_TOL_NS [20] ns, RDCC_INT_TS_FWD_PCT [90] (TCG only; virtual time requires 100).

case $0 in */*) RDCC_SELFTEST_DIR=${0%/*} ;; *) RDCC_SELFTEST_DIR=. ;; esac
# The records name only the rates of core/src/int.rs's table: 10 Gbit/s here whatever the job
# sets; no netem (the qdisc replaces the first hop's leaf).
RDCC_RATE_MBIT=10000
RDCC_DELAY_US=0
RDCC_HOPS=2
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"
: "${RDCC_INT_COUNT:=200}"
: "${RDCC_INT_SIZE:=1000}"
: "${RDCC_INT_GAP_TOL_NS:=20}"
: "${RDCC_INT_TS_FWD_PCT:=90}"
MOD=sch_rdcc_int
PARAMS=/sys/module/$MOD/parameters
RXSTAMP=$(command -v rxstamp)
PORT=5999

# counter NAME : the module's counter NAME.
counter() {
	awk -v k="$1" '{ for (i = 1; i < NF; i += 2) if ($i == k) print $(i + 1) }' "$PARAMS/counters"
}

# field NAME FILE : a value of the watcher's summary line.
field() {
	awk -v k="$1" '/^summary / { for (i = 2; i < NF; i += 2) if ($i == k) print $(i + 1) }' "$2"
}

# probe LABEL SLOTS : one burst through the chain; the watcher's output in $RDCC_TMP/LABEL.out.
probe() {
	local out="$RDCC_TMP/$1.out" i=0
	"$IP" netns exec "$RDCC_NS_RCV" "$RXSTAMP" int-probe watch "$RDCC_RCV_IF" --port "$PORT" \
		--count "$RDCC_INT_COUNT" --secs 20 >"$out" 2>&1 &
	rdcc_track $!
	while ! grep -q ready "$out" 2>/dev/null && [ "$i" -lt 100 ]; do
		sleep "$RDCC_TICK"
		i=$((i + 1))
	done
	"$IP" netns exec "$RDCC_NS_SND" "$RXSTAMP" int-probe send "$RDCC_RCV_IP4" --port "$PORT" \
		--count "$RDCC_INT_COUNT" --size "$RDCC_INT_SIZE" --slots "$2" >"$RDCC_TMP/$1.send" 2>&1
	wait
	tap_diag "RESULT rdcc_int phase=$1 $(grep '^summary' "$out" | cut -d' ' -f2-)"
}

tap_header
tap_plan 6
require_root
if rdcc_check_env && [ -n "$RXSTAMP" ]; then
	tap_ok "environment: root, iproute2, rxstamp"
else
	tap_not_ok "environment: root, iproute2, rxstamp (${RXSTAMP:-missing})"
	tap_bail "environment"
fi

# 2. topology, module, leaves.
ok=0
if ko=$(rdcc_int_switch_load "$RDCC_RATE_MBIT" "$RDCC_QLIMIT_PKTS") && rdcc_topo_setup &&
	rdcc_int_leaves; then
	ok=1
fi
# The namespaces (and with them the qdiscs holding the module) go first, then the module.
trap 'rc=$?; rdcc_cleanup; rmmod $MOD 2>/dev/null; (exit $rc); rdcc_on_exit' EXIT
if [ "$ok" = 1 ]; then
	tap_ok "topology: $RDCC_HOPS hops, htb ${RDCC_RATE_MBIT}mbit, leaf rdcc_int ($ko)"
else
	tap_not_ok "topology with rdcc_int leaves (${ko:-$(cat "$RDCC_TMP/insmod.err")})"
	tap_diag_file "$RDCC_TMP/insmod.err"
	tap_diag_file "$RDCC_TMP/tc.log"
	tap_bail "setup"
fi

# 3. a rate the record cannot name.
dmesg -c >/dev/null 2>&1
if ! echo 12345 >"$PARAMS/rate_mbit" 2>/dev/null && [ "$(cat "$PARAMS/rate_mbit")" = "$RDCC_RATE_MBIT" ] &&
	dmesg | grep -q 'rate_mbit 12345: an INT record names only'; then
	tap_ok "rate_mbit 12345 refused with a message, $RDCC_RATE_MBIT kept"
else
	tap_not_ok "rate_mbit 12345 refused with a message (now $(cat "$PARAMS/rate_mbit"))"
	tap_diag "$(dmesg | tail -n 3)"
fi

# 4. two slots, two hops.
s0=$(counter stamped)
probe two 2
f="$RDCC_TMP/two.out"
n=$RDCC_INT_COUNT
pairs=$((n - 1))
bad=""
[ "$(field segs "$f")" = "$n" ] || bad="$bad segs"
[ "$(field csum_bad "$f")" = 0 ] || bad="$bad csum"
[ "$(field hops_min "$f")" = 2 ] && [ "$(field hops_max "$f")" = 2 ] || bad="$bad hops"
[ "$(field overflow "$f")" = 0 ] || bad="$bad overflow"
[ "$(field tx_exact "$f")" = "$pairs" ] && [ "$(field pairs "$f")" = "$pairs" ] || bad="$bad tx"
ts_back=$(field ts_back "$f")
if [ "${RDCC_UNSERVED_FAILS:-0}" = 1 ]; then
	[ "$ts_back" = 0 ] || bad="$bad ts"
else
	# Pairs read as a step back at most (100 - RDCC_INT_TS_FWD_PCT) % of them.
	[ "${ts_back:-$pairs}" -le $((pairs * (100 - RDCC_INT_TS_FWD_PCT) / 100)) ] || bad="$bad ts"
	[ "${ts_back:-0}" = 0 ] || tap_diag "hop 1's clock read back in $ts_back of $pairs pairs (TCG: steps over 8.4 ms wrap)"
fi
[ "$(field rate_mbit "$f")" = "$RDCC_RATE_MBIT" ] || bad="$bad rate"
[ "$(field q_over "$f")" = 0 ] || bad="$bad queue-over"
what="no queue above the segments still to come"
if [ "${RDCC_UNSERVED_FAILS:-0}" = 1 ]; then
	what="queues exact, mean gap one frame"
	queued=$(field queued "$f")
	# One frame at 10 Gbit/s: (IP length + 14) x 8 / 10 ns.
	frame_ns=$((($(field ip_len "$f") + 14) * 8 / 10))
	[ "${queued:-0}" -gt $((n / 2)) ] && [ "$(field q_exact "$f")" = "$queued" ] || bad="$bad queue-exact"
	gap=$(field gap_mean_ns "$f")
	[ $((gap + RDCC_INT_GAP_TOL_NS)) -ge "$frame_ns" ] &&
		[ "$gap" -le $((frame_ns + RDCC_INT_GAP_TOL_NS)) ] || bad="$bad gap($gap vs $frame_ns ns)"
fi
if [ -z "$bad" ]; then
	tap_ok "two slots, two hops: $n segments stamped twice, checksums valid, byte steps exact, $what"
else
	tap_not_ok "two slots, two hops: wrong:$bad"
	tap_diag_file "$RDCC_TMP/two.send"
	tap_diag "$(head -n 5 "$f")"
fi

# 5. one slot, two hops.
probe one 1
f="$RDCC_TMP/one.out"
if [ "$(field segs "$f")" = "$n" ] && [ "$(field hops_max "$f")" = 1 ] &&
	[ "$(field hops_min "$f")" = 1 ] && [ "$(field overflow "$f")" = "$n" ] &&
	[ "$(field csum_bad "$f")" = 0 ]; then
	tap_ok "one slot, two hops: the first hop's record, the overflow bit from the second"
else
	tap_not_ok "one slot, two hops: $(grep '^summary' "$f")"
fi

# 6. counters.
st=$(($(counter stamped) - s0))
if [ "$st" -eq $((3 * n)) ] && [ "$(counter full)" -eq "$n" ] && [ "$(counter malformed)" = 0 ] &&
	[ "$(counter no_write)" = 0 ]; then
	tap_ok "counters: $st stamps, $n overflows, nothing malformed or unwritable"
else
	tap_not_ok "counters: stamped +$st (want $((3 * n))): $(cat "$PARAMS/counters")"
fi
tap_finish
