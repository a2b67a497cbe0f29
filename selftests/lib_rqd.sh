# shellcheck shell=sh
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# selftests/lib_rqd.sh - helpers of the remote-delay selftests (rdcc_rqd.sh, rdcc_rqd_attack.sh),
# sourced after lib.sh. Not a test itself (the harness skips lib*).
#
#   cnt FILE NAME, delta A B NAME, snap FILE: counters of /sys/kernel/debug/tcp_swift/remote_delay
#   pct A B: a/b in percent; rqd_cleanup: detach rxstamp, remove the cgroup (exit trap);
#   server_in_cgroup: iperf3 -s in the receiver namespace, inside the cgroup rxstamp watches.
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

