# shellcheck shell=sh
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# selftests/lib_rqd.sh - helpers of the remote-delay selftests (rdcc_rqd.sh, rdcc_rqd_attack.sh),
# sourced after lib.sh. Not a test itself (the harness skips lib*).
#
#   cnt FILE NAME, delta A B NAME, snap FILE: counters of /sys/kernel/debug/tcp_swift/remote_delay
#   pct A B: a/b in percent; rqd_cleanup: detach rxstamp, remove the cgroup (exit trap);
#   server_in_cgroup: iperf3 -s in the receiver namespace, inside the cgroup rxstamp watches;
#   rqd_setup EXTRA LOADED: checks 1 and 2 of both tests (environment, topology, tcp_swift with
#   $PARAMS and rxstamp attached), bailing out when one fails;
#   nstest_load: (re)load the test module rdcc_nstest.ko (rdcc_netns.sh, rdcc_rqd_attack.sh);
#   ns_holder NS SECS: a process inside namespace NS for the module's `ctl` (NS_HOLDER_PID).
# RQD_ALLOW: the receiver's allowlist (rxstamp --allow ...); RDCC_RQD_ALLOW overrides it (an
# empty value runs an rxstamp without allowlist, e.g. the one before the allowlist existed).

DBG=/sys/kernel/debug/tcp_swift/remote_delay
CG=/sys/fs/cgroup/rdcc_rqd_rcv
PIN=/sys/fs/bpf/rdcc_rqd_test
RXSTAMP=$(command -v rxstamp)
# shellcheck disable=SC2034 # used by the tests that source this file
RQD_ALLOW=${RDCC_RQD_ALLOW-"--allow 10.0.0.0/24 --allow fd00::/64"}

# Counter NAME from snapshot FILE.
cnt() { awk -v k="$2" '$1 == k { print $2; f = 1 } END { if (!f) print 0 }' "$1"; }
# Difference of counter NAME between snapshots A and B.
delta() { echo $(($(cnt "$2" "$3") - $(cnt "$1" "$3"))); }
snap() { cat "$DBG" >"$1" 2>/dev/null; }
# Percentage a/b with one decimal (0 when b is 0).
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", 100 * a / b; else print "0.0" }'; }

# shellcheck disable=SC2317 # called from the exit trap
rqd_cleanup() {
	[ -n "$RXSTAMP" ] && [ -d "$PIN" ] && "$RXSTAMP" detach "$CG" --pin "$PIN" >/dev/null 2>&1
	[ -d "$CG" ] && {
		# Move anything left back to the root, then remove the cgroup.
		while read -r p; do echo "$p" >/sys/fs/cgroup/cgroup.procs 2>/dev/null; done <"$CG/cgroup.procs"
		rmdir "$CG" 2>/dev/null
	}
}

# Start the receiver-side iperf3 server inside the cgroup (the BPF programs apply to sockets
# created by processes in it).
server_in_cgroup() {
	[ -n "$RDCC_SERVER_PID" ] && rdcc_kill "$RDCC_SERVER_PID"
	RDCC_SERVER_PID=""
	# shellcheck disable=SC2016 # expanded by the inner sh
	sh -c 'echo $$ > "$1/cgroup.procs" && exec "$2" netns exec "$3" "$4" -s -p "$5"' rdcc_srv \
		"$CG" "$IP" "$RDCC_NS_RCV" "$IPERF3" "$RDCC_PORT" >>"$RDCC_TMP/iperf3-server.log" 2>&1 &
	RDCC_SERVER_PID=$!
	rdcc_track "$RDCC_SERVER_PID"
	i=0
	while [ "$i" -lt 50 ]; do
		rdcc_server_listening && return 0
		sleep "$RDCC_TICK"
		i=$((i + 1))
	done
	return 1
}


# rqd_setup EXTRA LOADED : environment (EXTRA = 1 when the caller's own tools were found),
# topology, exit trap, then tcp_swift loaded with $PARAMS as the sender namespace's default and
# rxstamp attached to the receiver's cgroup; LOADED describes that step in its TAP line. Emits
# three TAP lines and bails out on the first failure (nothing after it could run).
rqd_setup() {
	local d
	ko="" # global: the tests reload the module from it
	if rdcc_check_env && [ -n "$RXSTAMP" ] && [ "$1" = 1 ]; then
		tap_ok "environment: root, iproute2, iperf3, rxstamp"
	else
		tap_not_ok "environment: root, iproute2, iperf3, rxstamp (${RXSTAMP:-missing})"
		tap_bail "environment"
	fi
	if rdcc_topo_setup; then
		tap_ok "topology: htb ${RDCC_RATE_MBIT}mbit + netem ${RDCC_DELAY_US}us"
	else
		tap_not_ok "topology"
		tap_bail "topology"
	fi
	# shellcheck disable=SC2154 # rc is assigned inside the trap
	trap 'rc=$?; rqd_cleanup; (exit $rc); rdcc_on_exit' EXIT
	for d in $RDCC_MODULE_DIRS; do [ -f "$d/$MOD.ko" ] && ko="$d/$MOD.ko" && break; done
	rmmod "$MOD" 2>/dev/null
	mkdir -p "$CG" 2>/dev/null
	# shellcheck disable=SC2086 # PARAMS and RQD_ALLOW are word lists
	if [ -n "$ko" ] && insmod "$ko" $PARAMS 2>"$RDCC_TMP/insmod.err" && rdcc_cc_available swift &&
		[ -r "$DBG" ] && rdcc_cc_allow swift && rdcc_ns_cc_set swift &&
		"$RXSTAMP" attach "$CG" --pin "$PIN" $RQD_ALLOW >"$RDCC_TMP/attach.log" 2>&1 && server_in_cgroup; then
		tap_ok "tcp_swift loaded ($PARAMS), $2"
	else
		tap_not_ok "tcp_swift loaded, rxstamp attached"
		tap_diag "$(cat "$RDCC_TMP/insmod.err" "$RDCC_TMP/attach.log" 2>/dev/null)"
		tap_bail "setup"
	fi
}

# nstest_load : (re)load the test module rdcc_nstest.ko from $RDCC_MODULE_DIRS (KUnit kernels
# only); its errors go to $RDCC_TMP/nstest.err. Returns the status of the load.
NST=/sys/kernel/debug/rdcc_nstest
nstest_load() {
	local d ko=""
	for d in $RDCC_MODULE_DIRS; do [ -f "$d/rdcc_nstest.ko" ] && ko="$d/rdcc_nstest.ko" && break; done
	rmmod rdcc_nstest 2>/dev/null
	if [ -z "$ko" ]; then
		echo "rdcc_nstest.ko not found in $RDCC_MODULE_DIRS" >"$RDCC_TMP/nstest.err"
		return 1
	fi
	insmod "$ko" 2>"$RDCC_TMP/nstest.err" && [ -w "$NST/ctl" ]
}

# ns_holder NS SECS : `sleep SECS` inside namespace NS, tracked; its pid in NS_HOLDER_PID once
# `ip netns exec` has entered NS (rdcc_nstest's ctl takes the namespace from a pid).
ns_holder() {
	local want i=0
	"$IP" netns exec "$1" sleep "$2" &
	NS_HOLDER_PID=$!
	rdcc_track "$NS_HOLDER_PID"
	want=$("$IP" netns exec "$1" readlink /proc/self/ns/net)
	while [ "$(readlink "/proc/$NS_HOLDER_PID/ns/net" 2>/dev/null)" != "$want" ] && [ "$i" -lt 100 ]; do
		sleep "$RDCC_TICK"
		i=$((i + 1))
	done
}
