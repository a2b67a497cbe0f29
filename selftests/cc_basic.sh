#!/bin/sh
# shellcheck shell=sh
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# cc_basic.sh - basic congestion-control selftest for rdcc (TAP version 13 on stdout).
#
# For every algorithm in RDCC_ALGOS:
#   1. load it (load_cc: already built in, modprobe tcp_<name>, or insmod tcp_<name>.ko) and check
#      it is listed in /proc/sys/net/ipv4/tcp_available_congestion_control;
#   2. per-socket selection: iperf3 -C <name> through the bottleneck (see lib.sh for the
#      topology); check the receiver-side throughput is within [RDCC_MIN_PCT %, RDCC_MAX_PCT %
#      + RDCC_SLACK_MBIT] of RDCC_RATE_MBIT and that `ss -tin` shows <name> on the data socket;
#   3. system-wide selection: write <name> to net.ipv4.tcp_congestion_control in the sender
#      namespace (the sysctl is per network namespace; a non-initial namespace may only pick an
#      algorithm listed in the global tcp_allowed_congestion_control, so <name> is added there
#      first and the list is restored afterwards), run iperf3 WITHOUT -C, check the rate
#      window and that ss shows <name> on the data socket, then restore the previous default.
# Plus, once: environment, topology, IPv4/IPv6 connectivity, and that a bogus algorithm name is
# refused both by the sysctl and by iperf3 -C.
#
# One machine-readable diagnostic per measured run (parsed by the harness):
#   # RESULT algo=<name> mode=<per-socket|sysctl> rate_mbit=<R> delay_us=<D> tput_mbit=<x.y>
#            retrans=<n> rtt_mean_us=<x> rtt_p99_us=<x> samples=<n>          (one line)
#
# Environment (defaults in brackets; see lib.sh for the topology knobs RDCC_RATE_MBIT [100],
# RDCC_DELAY_US [100], RDCC_QLIMIT_PKTS [1000], RDCC_DURATION [5], RDCC_PORT [5201],
# RDCC_SAMPLE_MS [100], RDCC_IPERF_SLACK [30], RDCC_ARTIFACT_DIR, RDCC_KEEP_TMP, ...):
#   RDCC_ALGOS         ["cubic dctcp"]  algorithms to test, space separated
#   RDCC_MIN_PCT       [50]   lower throughput bound, % of RDCC_RATE_MBIT. Under QEMU TCG every
#                             packet costs emulated CPU time, so a healthy flow may fall short of
#                             line rate, but cubic and reno were measured at ~99 Mbit/s at 100
#                             Mbit with netem 100 us on the target VM: half the rate leaves a 2x
#                             margin for a slower host while still catching a CC that stalls
#                             (RTOs, a collapsed window, a pacing rate stuck far too low). The
#                             BDP here is only a few packets, so the floor checks "keeps the
#                             link busy", not "fills a large pipe".
#   RDCC_MAX_PCT       [105]  upper bound, % of rate, plus RDCC_SLACK_MBIT [0.5] Mbit/s. HTB
#                             shapes link-layer bytes (headers included), so steady-state TCP
#                             goodput can only be ~95.6 % of the rate (1448 of 1514 bytes).
#                             What can push the receiver-side figure higher is measurement,
#                             not traffic: the HTB bucket (~1600 B), and iperf3's receiver
#                             interval being shorter than the sending interval by timer skew
#                             (5 % of 5 s = 250 ms covers TCG clock jitter). The absolute
#                             0.5 Mbit/s covers rounding at very low rates. Anything above means
#                             the shaper is not in the path or the accounting is wrong.
#   RDCC_ALLOW_MISSING [0]    1 = an algorithm that cannot be loaded is a SKIP instead of a
#                             failure (for runs where a module is known not to be built).

case $0 in */*) RDCC_SELFTEST_DIR=${0%/*} ;; *) RDCC_SELFTEST_DIR=. ;; esac
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"

: "${RDCC_ALGOS:=cubic dctcp}"
: "${RDCC_MIN_PCT:=50}"
: "${RDCC_MAX_PCT:=105}"
: "${RDCC_SLACK_MBIT:=0.5}"
: "${RDCC_ALLOW_MISSING:=0}"

BOGUS_CC=rdcc_no_such_cc
CHECKS_GLOBAL=5
CHECKS_PER_ALGO=9
START_S=$(date +%s)

set -f # RDCC_ALGOS is split on spaces, never globbed
# shellcheck disable=SC2086 # word splitting wanted
set -- $RDCC_ALGOS
nalgos=$#

tap_header
tap_plan $((CHECKS_GLOBAL + CHECKS_PER_ALGO * nalgos))
require_root

# --- 1: environment ------------------------------------------------------------------------------
if rdcc_check_env && rdcc_is_uint "$RDCC_MIN_PCT" && rdcc_is_uint "$RDCC_MAX_PCT" &&
	rdcc_fcmp "$RDCC_SLACK_MBIT" '>=' 0; then
	tap_diag "ip=$IP tc=$TC ss=$SS iperf3=$IPERF3 kernel=$(uname -r)"
	tap_diag "algos='$RDCC_ALGOS' rate=${RDCC_RATE_MBIT}mbit delay=${RDCC_DELAY_US}us qlimit=$RDCC_QLIMIT_PKTS duration=${RDCC_DURATION}s"
	tap_diag "available: $(cat "$RDCC_CC_AVAIL")"
	tap_ok "environment: root, iproute2 ip/tc/ss, iperf3, valid RDCC_* values"
else
	tap_not_ok "environment: root, iproute2 ip/tc/ss, iperf3, valid RDCC_* values"
	tap_bail "environment incomplete"
fi

TPUT_MAX=$(awk -v r="$RDCC_RATE_MBIT" -v p="$RDCC_MAX_PCT" -v s="$RDCC_SLACK_MBIT" \
	'BEGIN { printf "%.1f", r * p / 100 + s }')
TPUT_MIN=$(awk -v r="$RDCC_RATE_MBIT" -v p="$RDCC_MIN_PCT" 'BEGIN { printf "%.1f", r * p / 100 }')

# --- 2: topology -----------------------------------------------------------------------------------
if rdcc_topo_setup; then
	tap_ok "topology: netns $RDCC_NS_SND/$RDCC_NS_RCV, veth, htb ${RDCC_RATE_MBIT}mbit + $RDCC_LEAF_QDISC ${RDCC_DELAY_US}us"
else
	tap_not_ok "topology: netns $RDCC_NS_SND/$RDCC_NS_RCV, veth, htb ${RDCC_RATE_MBIT}mbit + leaf ${RDCC_DELAY_US}us"
	tap_bail "cannot build the test topology"
fi

# --- 3: iperf3 server and IPv4 + IPv6 connectivity --------------------------------------------------
conn_ok=1
if ! rdcc_server_start; then
	conn_ok=0
else
	for dst in "$RDCC_RCV_IP4" "$RDCC_RCV_IP6"; do
		case $dst in *:*) fam=v6 ;; *) fam=v4 ;; esac
		if ! rdcc_iperf_run "conn-$fam" "$dst" "" 0 -n 256K; then
			tap_diag "no TCP transfer to $dst:"
			rdcc_iperf_diag
			conn_ok=0
		fi
	done
fi
if [ "$conn_ok" = 1 ]; then
	tap_ok "connectivity: iperf3 -s in $RDCC_NS_RCV reachable over IPv4 and IPv6"
else
	tap_not_ok "connectivity: iperf3 -s in $RDCC_NS_RCV reachable over IPv4 and IPv6"
	tap_bail "no TCP connectivity through the bottleneck"
fi

# --- 4: bogus name refused by the sysctl --------------------------------------------------------------
DEFAULT_CC=$(rdcc_ns_cc_get)
tap_diag "default tcp_congestion_control in $RDCC_NS_SND: ${DEFAULT_CC:-?}"
if rdcc_cc_available "$BOGUS_CC"; then
	tap_not_ok "sysctl refuses unknown algorithm $BOGUS_CC"
	tap_diag "$BOGUS_CC is unexpectedly available"
else
	rdcc_ns_cc_set "$BOGUS_CC"
	rc=$?
	after=$(rdcc_ns_cc_get)
	tap_diag "write $BOGUS_CC: rc=$rc ($(tr '\n' ' ' <"$RDCC_TMP/sysctl.err")) value before=$DEFAULT_CC after=$after"
	if [ "$rc" -ne 0 ] && [ -n "$after" ] && [ "$after" = "$DEFAULT_CC" ]; then
		tap_ok "sysctl refuses unknown algorithm $BOGUS_CC (write fails, value unchanged)"
	else
		tap_not_ok "sysctl refuses unknown algorithm $BOGUS_CC (write fails, value unchanged)"
		[ "$after" = "$DEFAULT_CC" ] || rdcc_ns_cc_set "$DEFAULT_CC"
	fi
fi

# --- 5: bogus name refused by iperf3 -C -----------------------------------------------------------------
# What really happens (iperf3 3.12): setsockopt(TCP_CONGESTION) fails with ENOENT, iperf3 prints
# "unable to set TCP_CONGESTION: Supplied congestion control algorithm not supported on this
# host" and transfers nothing. NB: with -J it still exits 0 (the error is only in the JSON), so
# the check reads the JSON "error" and the received byte count, not only the exit status.
rdcc_iperf_run bogus-C "$RDCC_RCV_IP4" "$BOGUS_CC" 0 -t 1
rc=$?
tap_diag "iperf3 -C $BOGUS_CC: exit=$RDCC_R_RC bytes=$RDCC_R_BYTES error='$RDCC_R_ERR'"
case $RDCC_R_ERR in
*TCP_CONGESTION*) err_ok=1 ;;
*) err_ok=0 ;;
esac
if [ "$rc" -ne 0 ] && [ "$err_ok" = 1 ] && [ "$RDCC_R_BYTES" -eq 0 ]; then
	tap_ok "iperf3 -C $BOGUS_CC refused (TCP_CONGESTION error, no data sent)"
else
	tap_not_ok "iperf3 -C $BOGUS_CC refused (TCP_CONGESTION error, no data sent)"
fi

# --- per algorithm ------------------------------------------------------------------------------------

# result_line ALGO MODE : the machine-readable RESULT diagnostic for the last iperf3 run.
result_line() {
	printf '# RESULT algo=%s mode=%s rate_mbit=%s delay_us=%s tput_mbit=%s retrans=%s rtt_mean_us=%s rtt_p99_us=%s samples=%s\n' \
		"$1" "$2" "$RDCC_RATE_MBIT" "$RDCC_DELAY_US" "$RDCC_R_TPUT" "$RDCC_R_RETRANS" \
		"$RDCC_R_RTT_MEAN" "$RDCC_R_RTT_P99" "$RDCC_R_SAMPLES"
}

# ss_shows ALGO [PRE] : the ss samples of the data socket show ALGO, and iperf3 agrees. Without
# PRE every sample must show ALGO. With PRE (per-socket mode: the namespace default), samples at
# the very start may show PRE instead: iperf3 3.12 calls setsockopt(TCP_CONGESTION) on the data
# socket only AFTER connect() (seen with strace), so for a moment the established socket runs
# the default algorithm, and a sample can catch it. Allowed: PRE first, one switch to ALGO, ALGO
# until the end; never a switch back.
ss_shows() {
	[ "$RDCC_R_SAMPLES" -gt 0 ] || return 1
	[ -z "$RDCC_R_CC" ] || [ "$RDCC_R_CC" = "$1" ] || return 1
	[ "$RDCC_R_ALGS" = "$1=$RDCC_R_SAMPLES" ] && return 0
	[ -n "${2:-}" ] && [ "$RDCC_R_ALG_CHANGES" -eq 1 ] && [ "$RDCC_R_ALG_FIRST" = "$2" ] &&
		[ "$RDCC_R_ALG_LAST" = "$1" ] && {
		tap_diag "the first sample(s) showed $2: iperf3 sets TCP_CONGESTION after connect()"
		return 0
	}
	return 1
}

# in_window : the last run moved data at a throughput within [TPUT_MIN, TPUT_MAX].
in_window() {
	rdcc_fcmp "$RDCC_R_TPUT" '>=' "$TPUT_MIN" && rdcc_fcmp "$RDCC_R_TPUT" '<=' "$TPUT_MAX"
}

for algo in $RDCC_ALGOS; do
	t0=$(date +%s)
	tap_diag "---- $algo ----"

	# load
	if load_cc "$algo" && rdcc_cc_available "$algo"; then
		tap_ok "$algo: load_cc, listed in tcp_available_congestion_control"
	else
		why="tcp_$algo cannot be loaded (not built?)"
		if [ "$RDCC_ALLOW_MISSING" = 1 ]; then
			tap_skip "$algo: load_cc, listed in tcp_available_congestion_control" "$why"
		else
			tap_not_ok "$algo: load_cc, listed in tcp_available_congestion_control"
		fi
		for d in "per-socket: iperf3 -C $algo moved data" \
			"per-socket: throughput <= ${RDCC_MAX_PCT}% of rate + ${RDCC_SLACK_MBIT} Mbit/s" \
			"per-socket: throughput >= ${RDCC_MIN_PCT}% of rate" \
			"per-socket: ss shows $algo on the data socket" \
			"sysctl: tcp_congestion_control=$algo in $RDCC_NS_SND" \
			"sysctl: iperf3 without -C at ${RDCC_MIN_PCT}%..${RDCC_MAX_PCT}% of rate" \
			"sysctl: ss shows $algo on the data socket" \
			"sysctl: netns default and tcp_allowed_congestion_control restored"; do
			tap_skip "$algo $d" "$why"
		done
		continue
	fi

	# per-socket selection: iperf3 -C
	run_ok=0
	rdcc_iperf_run "$algo-per-socket" "$RDCC_RCV_IP4" "$algo" 1 -t "$RDCC_DURATION" && run_ok=1
	rdcc_iperf_diag
	result_line "$algo" per-socket
	tap_result $((1 - run_ok)) "$algo per-socket: iperf3 -C $algo moved data"
	tap_diag "throughput ${RDCC_R_TPUT} Mbit/s, window [$TPUT_MIN, $TPUT_MAX]"
	if [ "$run_ok" = 1 ] && rdcc_fcmp "$RDCC_R_TPUT" '<=' "$TPUT_MAX"; then
		tap_ok "$algo per-socket: throughput <= ${RDCC_MAX_PCT}% of rate + ${RDCC_SLACK_MBIT} Mbit/s"
	else
		tap_not_ok "$algo per-socket: throughput <= ${RDCC_MAX_PCT}% of rate + ${RDCC_SLACK_MBIT} Mbit/s"
	fi
	if [ "$run_ok" = 1 ] && rdcc_fcmp "$RDCC_R_TPUT" '>=' "$TPUT_MIN"; then
		tap_ok "$algo per-socket: throughput >= ${RDCC_MIN_PCT}% of rate"
	else
		tap_not_ok "$algo per-socket: throughput >= ${RDCC_MIN_PCT}% of rate"
	fi
	if ss_shows "$algo" "$(rdcc_ns_cc_get)"; then
		tap_ok "$algo per-socket: ss shows $algo on the data socket"
	else
		tap_not_ok "$algo per-socket: ss shows $algo on the data socket"
		tap_diag "ss on the data socket: '${RDCC_R_ALGS}' over $RDCC_R_SAMPLES samples (first=$RDCC_R_ALG_FIRST last=$RDCC_R_ALG_LAST changes=$RDCC_R_ALG_CHANGES); iperf3 sender_tcp_congestion='$RDCC_R_CC'"
	fi

	# system-wide selection: net.ipv4.tcp_congestion_control of both namespaces (both "hosts"),
	# as a data center would deploy it. Both ends matter for ECN algorithms: a dctcp sender marks
	# its SYN ECT, and a listener whose own algorithm does not need ECN refuses ECN for such a
	# SYN (RFC 3168 §6.1.1 guard in tcp_ecn_create_request), so dctcp would fall back to
	# dctcp-reno. The receiver's setting is best effort and restored like the sender's.
	prev=$(rdcc_ns_cc_get)
	prev_rcv=$(rdcc_ns_cc_get "$RDCC_NS_RCV")
	allowed_prev=$(cat "$RDCC_CC_ALLOWED" 2>/dev/null)
	set_ok=0
	# A non-initial netns may only default to an "allowed" algorithm (EPERM otherwise).
	rdcc_cc_allow "$algo"
	if rdcc_ns_cc_set "$algo" && [ "$(rdcc_ns_cc_get)" = "$algo" ]; then
		set_ok=1
		rdcc_ns_cc_set "$algo" "$RDCC_NS_RCV" ||
			tap_diag "receiver namespace default not set: $(tr '\n' ' ' <"$RDCC_TMP/sysctl.err")"
		# A listener's own algorithm decides whether it accepts ECN: restart the server.
		rdcc_server_restart || tap_diag "iperf3 server restart failed"
		tap_ok "$algo sysctl: tcp_congestion_control=$algo in $RDCC_NS_SND"
	else
		tap_not_ok "$algo sysctl: tcp_congestion_control=$algo in $RDCC_NS_SND"
		tap_diag "write failed or did not stick: now '$(rdcc_ns_cc_get)': $(tr '\n' ' ' <"$RDCC_TMP/sysctl.err")"
	fi
	if [ "$set_ok" = 1 ]; then
		run_ok=0
		rdcc_iperf_run "$algo-sysctl" "$RDCC_RCV_IP4" "" 1 -t "$RDCC_DURATION" && run_ok=1
		rdcc_iperf_diag
		result_line "$algo" sysctl
		if [ "$run_ok" = 1 ] && in_window; then
			tap_ok "$algo sysctl: iperf3 without -C at ${RDCC_MIN_PCT}%..${RDCC_MAX_PCT}% of rate"
		else
			tap_not_ok "$algo sysctl: iperf3 without -C at ${RDCC_MIN_PCT}%..${RDCC_MAX_PCT}% of rate"
			tap_diag "throughput ${RDCC_R_TPUT} Mbit/s, window [$TPUT_MIN, $TPUT_MAX]"
		fi
		if ss_shows "$algo"; then
			tap_ok "$algo sysctl: ss shows $algo on the data socket"
		else
			tap_not_ok "$algo sysctl: ss shows $algo on the data socket"
			tap_diag "ss on the data socket: '${RDCC_R_ALGS}' over $RDCC_R_SAMPLES samples (first=$RDCC_R_ALG_FIRST last=$RDCC_R_ALG_LAST changes=$RDCC_R_ALG_CHANGES); iperf3 sender_tcp_congestion='$RDCC_R_CC'"
		fi
	else
		tap_not_ok "$algo sysctl: iperf3 without -C at ${RDCC_MIN_PCT}%..${RDCC_MAX_PCT}% of rate"
		tap_diag "not run: the sysctl could not be set"
		tap_not_ok "$algo sysctl: ss shows $algo on the data socket"
		tap_diag "not run: the sysctl could not be set"
	fi
	rdcc_ns_cc_set "$prev"
	if [ -n "$prev_rcv" ] && [ "$prev_rcv" != "$(rdcc_ns_cc_get "$RDCC_NS_RCV")" ]; then
		rdcc_ns_cc_set "$prev_rcv" "$RDCC_NS_RCV"
		rdcc_server_restart || tap_diag "iperf3 server restart failed"
	fi
	now=$(rdcc_ns_cc_get)
	rdcc_cc_allow_restore
	allowed_now=$(cat "$RDCC_CC_ALLOWED" 2>/dev/null)
	if [ -n "$prev" ] && [ "$now" = "$prev" ] && [ "$allowed_now" = "$allowed_prev" ]; then
		tap_ok "$algo sysctl: netns default and tcp_allowed_congestion_control restored"
	else
		tap_not_ok "$algo sysctl: netns default and tcp_allowed_congestion_control restored"
		tap_diag "default: wanted '$prev', have '$now'; allowed: wanted '$allowed_prev', have '$allowed_now'"
	fi
	tap_diag "$algo took $(($(date +%s) - t0)) s"
done

tap_diag "cc_basic took $(($(date +%s) - START_S)) s"
tap_finish
