#!/bin/sh
# shellcheck shell=sh
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# rdcc_netns.sh - a kernel socket's ACKs after tcp_swift's pernet .exit (TAP version 13; issue
# #32 item 1).
#
# Kernel sockets (sk_net_refcnt 0: sunrpc, cifs, nvme-tcp) hold no reference on their network
# namespace, and the netns core runs pernet .exit methods in reverse registration order, so the
# owner of such a socket, registered before tcp_swift, processes its backlog after tcp_swift's
# .exit freed the namespace's remote-delay side table. The test module rdcc_nstest.ko
# (modules/nstest/) is that owner. The topology of lib.sh, rxstamp's receiver attached (lib_rqd.sh).
# Checks:
#   1. environment, 2. topology, 3. tcp_swift loaded after rdcc_nstest.ko, rxstamp attached;
#   4. a kernel socket in the sender namespace (swift, the namespace's default) connects to a
#      receiver in rxstamp's cgroup, queues data, and is held (socket lock taken by a kthread):
#      the ACKs that come back wait in its backlog and their remote delays go to the side table
#      (store_side moves);
#   5. the sender namespace is deleted: tcp_swift's .exit frees the table, then rdcc_nstest's
#      .exit releases the socket (its backlog is processed: snd_una advances) and closes it. The
#      take found the namespace dying and did not look at the freed table (side_dying_ns moves).
#      Without that test side_dying_ns stays 0, and a take within HZ of a store in the table
#      reads it after the free: KASAN reports a use-after-free on the debug kernel (the harness
#      fails the run on any KASAN/WARNING/BUG line).
# The tracepoint tcp_swift:decision is on throughout, so every ACK takes the full path, whose
# take tests the namespace first (the fast paths look at no table): the dying-namespace count is
# deterministic, whatever the guest's speed. Whether the dying namespace's own table was still
# live at the take (a store in it within HZ: without the test, the freed table itself would be
# read, which KASAN reports) depends on how long the teardown took: held_ms < 1000 says so.
# One line:  # RESULT rdcc_netns held_ms=.. backlog_bytes=.. released_acked=.. store_side=.. dying=..
#
# Environment: RDCC_DELAY_US [2000], RDCC_RATE_MBIT [50].

case $0 in */*) RDCC_SELFTEST_DIR=${0%/*} ;; *) RDCC_SELFTEST_DIR=. ;; esac
: "${RDCC_DELAY_US:=2000}"
: "${RDCC_RATE_MBIT:=50}"
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"
# shellcheck source=lib_rqd.sh
. "$RDCC_SELFTEST_DIR/lib_rqd.sh"

MOD=tcp_swift
PARAMS="base_target_ns=6000000 fs_range_ns=3000000 fs_max_cwnd_pkts_q20=104857600"
SINK_PORT=5301
HOLD_BYTES=262144

# nstest_state FIELD : a field of rdcc_nstest's status line.
nstest_state() { tr ' ' '\n' <"$NST/status" | awk -F= -v k="$1" '$1 == k { print $2 }'; }

# sink_start : rxstamp's slow receiver in the receiver namespace, inside the cgroup (options on).
sink_start() {
	# shellcheck disable=SC2016 # expanded by the inner sh
	sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" netns exec "$3" "$4" sink "$5" --rate 20000 --secs 60' \
		rdcc_sink "$CG" "$IP" "$RDCC_NS_RCV" "$RXSTAMP" "$SINK_PORT" >>"$RDCC_TMP/sink.log" 2>&1 &
	SINK_PID=$!
	rdcc_track "$SINK_PID"
	sleep 1
}

# Hold a kernel socket in the sender namespace, delete the namespace; sets HELD_OK, DONE,
# HELD_MS, BACKLOG, ACKED, STORES, DYING.
attempt() {
	local hpid i
	HELD_OK=0 DONE=0 HELD_MS=0 BACKLOG=0 ACKED=0 STORES=0 DYING=0
	ns_holder "$RDCC_NS_SND" 600
	hpid=$NS_HOLDER_PID
	snap "$RDCC_TMP/ns.a"
	if echo "$hpid $RDCC_RCV_IP4 $SINK_PORT $HOLD_BYTES" >"$NST/ctl" 2>"$RDCC_TMP/ctl.err" &&
		[ "$(nstest_state state)" = held ]; then
		HELD_OK=1
		# The ACKs of the data sent under the lock come back within a few RTTs: wait for the
		# hook's first side-table store (the socket is owned) before the teardown.
		i=0
		while [ "$i" -lt $((5 * RDCC_TICKS_PER_S)) ]; do
			snap "$RDCC_TMP/ns.b"
			[ "$(delta "$RDCC_TMP/ns.a" "$RDCC_TMP/ns.b" store_side)" -gt 0 ] && break
			sleep "$RDCC_TICK"
			i=$((i + 1))
		done
	fi
	rdcc_kill "$hpid"
	rdcc_untrack "$hpid"
	"$IP" netns del "$RDCC_NS_SND" 2>>"$RDCC_TMP/ctl.err"
	i=0
	while [ "$i" -lt $((60 * RDCC_TICKS_PER_S)) ]; do
		[ "$(nstest_state state)" = "done" ] && DONE=1 && break
		sleep "$RDCC_TICK"
		i=$((i + 1))
	done
	snap "$RDCC_TMP/ns.c"
	HELD_MS=$(nstest_state held_ms)
	BACKLOG=$(nstest_state backlog_bytes)
	ACKED=$(nstest_state released_acked)
	STORES=$(delta "$RDCC_TMP/ns.a" "$RDCC_TMP/ns.c" store_side)
	DYING=$(delta "$RDCC_TMP/ns.a" "$RDCC_TMP/ns.c" side_dying_ns)
	tap_diag "RESULT rdcc_netns held=$HELD_OK done=$DONE held_ms=$HELD_MS backlog_bytes=$BACKLOG released_acked=$ACKED store_side=$STORES dying=$DYING"
	[ -s "$RDCC_TMP/ctl.err" ] && tap_diag_file "$RDCC_TMP/ctl.err"
}

tap_header
tap_plan 5
require_root
rdcc_find_tools
# Loaded before tcp_swift (rqd_setup loads it again): its pernet .exit runs after tcp_swift's.
rmmod "$MOD" 2>/dev/null
env_ok=0
if nstest_load; then
	env_ok=1
else
	tap_diag "rdcc_nstest.ko: $(cat "$RDCC_TMP/nstest.err" 2>/dev/null)"
fi
rqd_setup "$env_ok" "after rdcc_nstest.ko, rxstamp attached"
# shellcheck disable=SC2154 # rc is assigned inside the trap
trap 'rc=$?; rqd_cleanup; rmmod rdcc_nstest 2>/dev/null; (exit $rc); rdcc_on_exit' EXIT
sink_start
TRACEFS=/sys/kernel/tracing
[ -d "$TRACEFS/events" ] || TRACEFS=/sys/kernel/debug/tracing
DEC="$TRACEFS/events/$MOD/decision"
echo 1 >"$DEC/enable"
attempt
echo 0 >"$DEC/enable"
if [ "$HELD_OK" -eq 1 ] && [ "${BACKLOG:-0}" -gt 0 ] && [ "$STORES" -gt 0 ]; then
	tap_ok "a kernel socket held: $BACKLOG bytes of segments in its backlog, $STORES side-table stores meanwhile"
else
	tap_not_ok "a kernel socket held with segments in its backlog: held $HELD_OK, backlog $BACKLOG bytes, $STORES side-table stores"
fi
if [ "$DONE" -eq 1 ] && [ "${ACKED:-0}" -gt 0 ] && [ "$DYING" -gt 0 ]; then
	tap_ok "namespace deleted: its backlog processed after tcp_swift's .exit ($ACKED bytes acknowledged, hold $HELD_MS ms), $DYING takes refused the dying namespace's table"
else
	tap_not_ok "namespace deleted: teardown done $DONE, $ACKED bytes acknowledged after tcp_swift's .exit, $DYING takes refused the dying namespace's table (want > 0 each)"
fi
tap_finish
