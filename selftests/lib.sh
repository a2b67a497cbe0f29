# shellcheck shell=sh
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# selftests/lib.sh - helpers sourced by the rdcc in-VM selftests.
#
# Written for busybox ash (the guest's /bin/sh); also runs under dash. No bash, python, perl or
# jq. Sourcing this file sets the defaults of the RDCC_* variables below (a value from the
# environment wins), creates a private temp dir, ignores SIGPIPE and installs traps (EXIT, INT,
# TERM, HUP) that kill every process this library started, delete the two network namespaces,
# restore tcp_allowed_congestion_control and remove the temp dir.
#
# A test sets RDCC_SELFTEST_DIR (this directory) before sourcing it: the topology and the traffic
# helpers are in lib_topo.sh and lib_iperf.sh beside it.
#
# API for tests (see cc_basic.sh for a complete example):
#   TAP:       tap_header, tap_plan N, tap_ok/tap_not_ok/tap_skip/tap_result, tap_diag,
#              tap_diag_file, tap_bail, tap_finish (cleanup + totals + exit status)
#   checks:    require_root, rdcc_check_env (resolves $IP $TC $SS $IPERF3: real iproute2 and
#              iperf3, never busybox applets), rdcc_fcmp A OP B, rdcc_is_uint
#   topology:  rdcc_topo_setup (lib_topo.sh), rdcc_topo_teardown, rdcc_server_start (lib_iperf.sh)
#   INT:       (lib_int.sh) rdcc_int_switch_load, rdcc_int_leaves, rdcc_int_ends_detach
#   traffic:   (lib_iperf.sh) rdcc_iperf_run LABEL DST ALGO SAMPLE ARGS... (sets RDCC_R_*), rdcc_iperf_diag,
#              rdcc_flow_start ALGO [DST PORT] / rdcc_flow_stop (a flow that lasts until stopped)
#   CC:        load_cc NAME, rdcc_cc_available NAME, rdcc_ns_cc_get, rdcc_ns_cc_set NAME,
#              rdcc_cc_allow NAME, rdcc_cc_allow_restore
#
# Tunables (environment variables; defaults in brackets):
#   RDCC_RATE_MBIT     [100]   bottleneck rate (HTB rate and ceil), Mbit/s = 10^6 bit/s, integer
#   RDCC_DELAY_US      [100]   netem one-way delay at the bottleneck (data direction only), us
#   RDCC_QLIMIT_PKTS   [1000]  packet limit of the queue under HTB (netem `limit`, or pfifo)
#   RDCC_DURATION      [5]     iperf3 -t seconds for each measured run
#   RDCC_PORT          [5201]  iperf3 server port (inside the receiver namespace)
#   RDCC_SAMPLE_MS     [100]   period of the `ss -tin` sampler, ms
#   RDCC_TRIALS        [3]     trials of a noisy performance check; the median decides (odd)
#   RDCC_IPERF_SLACK   [30]    seconds an iperf3 client may run beyond its -t before it is killed
#   RDCC_NS_SND        [rdcc_snd]  sender namespace name
#   RDCC_NS_RCV        [rdcc_rcv]  receiver namespace name
#   RDCC_NS_SW         [rdcc_sw]   router (bottleneck) namespace name
#   RDCC_QUICKACK      [1]     1 = the receiver ACKs every segment immediately (route attribute
#                              `quickack 1`), as the papers' NICs and simulators do. Linux's
#                              delayed ACK holds a lone segment until its timer fires; the
#                              sender cannot tell (rate_sample.is_ack_delayed only flags runts),
#                              so the held time inflates RTT samples of flows with few packets
#                              per RTT and delay-based laws cut those flows more. Swift removes
#                              that hold time with the receiver-reported remote delay (the
#                              option channel); without it, 0 shows the effect.
#   RDCC_HOPS          [1]     routers in a chain between sender and receiver (1..8): each
#                              forwards (TTL - 1), and each one's egress towards the receiver
#                              has the bottleneck's HTB class (the first one's is RDCC_BN_IF,
#                              the bottleneck; the others receive at most its rate, leaf pfifo
#                              limit L); the receiver sees TTL 64 - RDCC_HOPS. See the topology.
#   RDCC_GSO_MAX_SEGS  [unset] if set, the sender's device's gso_max_segs: 1 makes TCP send
#                              one segment per skb (no GSO batches, so one ACK per segment);
#                              a measurement knob (Documentation/results/uml_vs_sim.md)
#   RDCC_MODULE_DIRS   ["/lib/modules/rdcc /lib/modules/$(uname -r)"]  where load_cc looks
#                              for tcp_<name>.ko when modprobe fails (also kernel/net/ipv4/,
#                              extra/, updates/; recursively if `find` exists)
#   RDCC_ARTIFACT_DIR  [unset] if set, every iperf3 JSON and ss sample file is copied there
#   RDCC_KEEP_TMP      [0]     1 = keep the temp dir (its path is printed as a diagnostic)
#   RDCC_IP, RDCC_TC, RDCC_SS, RDCC_IPERF3  override the tool paths
#
# Topology built by rdcc_topo_setup (addresses exist only inside these three namespaces). The
# bottleneck is a router namespace, not the sender's own egress: a qdisc on the sender's device
# holds packets that TCP Small Queues still charges to their socket, so each flow's share of that
# queue is capped by its own pacing rate (~1 ms worth, at least 2 packets) and small flows were
# held back (Swift's 4-flow Jain index 0.78-0.80 with the queue on the sender, 0.99 behind a
# router). veth frees the skb when it leaves the sender, as a NIC would on transmit completion.
#
#   netns rdcc_snd              netns rdcc_sw (router, forwarding on)          netns rdcc_rcv
#   +--------------------+      +-----------------------------------+      +------------------+
#   | iperf3 -c, ss      |      | veth_sw_s           veth_sw_r     |      | iperf3 -s        |
#   | veth_snd           |======| 10.0.0.254/24       10.0.1.254/24 |======| veth_rcv         |
#   | 10.0.0.1/24        |      | fd00::fe/64         fd00:1::fe/64 |      | 10.0.1.2/24      |
#   | fd00::1/64         |      |                     egress qdisc: |      | fd00:1::2/64     |
#   | default via .254   |      |  data --->          1: htb        |      | default via .254 |
#   |                    |      |                     1:10 rate R   |      |                  |
#   |                    |      |  <--- ACKs (undelayed)  10: netem |      |                  |
#   +--------------------+      +-----------------------------------+      +------------------+
#   R = RDCC_RATE_MBIT mbit, D = RDCC_DELAY_US us (netem delay D limit L), L = RDCC_QLIMIT_PKTS
#   packets. With RDCC_DELAY_US=0 and no netem in the kernel, the leaf is `pfifo limit L`.
#   The data path crosses one router: the receiver sees TTL 63 / hop limit 63. Tests change the
#   bottleneck through RDCC_BN_NS / RDCC_BN_IF (the router and its receiver-side device).
#
#   With RDCC_HOPS = N > 1 the routers are a chain, rdcc_sw then rdcc_sw2 .. rdcc_swN (netns
#   names RDCC_NS_SW<i>), forwarding on in each:
#     rdcc_snd =veth= rdcc_sw (veth_sw_r: 10.0.102.1) =veth= rdcc_sw2 (veth_c2_l: 10.0.102.2,
#     veth_c2_r: 10.0.103.1) = ... = rdcc_swN (veth_cN_r: 10.0.1.254) =veth= rdcc_rcv
#   (IPv6 alike: fd00:102::1/2 ...); the sender's and the receiver's own links and addresses are
#   those above, so only the routers know the chain (static routes to 10.0.0.0/24 and
#   10.0.1.0/24 and their /64s). Every router's egress towards the receiver carries the same
#   HTB class at R (RDCC_CHAIN_EGRESS lists them as NS:DEV, the bottleneck first); the netem
#   delay stays on the first router's. The receiver sees TTL 64 - N / hop limit 64 - N.

# ----------------------------------------------------------------------------------------------
# configuration

: "${RDCC_RATE_MBIT:=100}"
: "${RDCC_DELAY_US:=100}"
: "${RDCC_QLIMIT_PKTS:=1000}"
: "${RDCC_DURATION:=5}"
: "${RDCC_TRIALS:=3}"
: "${RDCC_PORT:=5201}"
: "${RDCC_SAMPLE_MS:=100}"
: "${RDCC_IPERF_SLACK:=30}"
: "${RDCC_NS_SND:=rdcc_snd}"
: "${RDCC_NS_RCV:=rdcc_rcv}"
: "${RDCC_NS_SW:=rdcc_sw}"
: "${RDCC_QUICKACK:=1}"
: "${RDCC_HOPS:=1}"
: "${RDCC_GSO_MAX_SEGS:=}"
: "${RDCC_KEEP_TMP:=0}"
: "${RDCC_ARTIFACT_DIR:=}"
if [ -z "${RDCC_MODULE_DIRS:-}" ]; then
	RDCC_MODULE_DIRS="/lib/modules/rdcc /lib/modules/$(uname -r 2>/dev/null)"
fi

RDCC_SND_IF=veth_snd
RDCC_RCV_IF=veth_rcv
RDCC_SW_SND_IF=veth_sw_s
RDCC_SW_RCV_IF=veth_sw_r
RDCC_SND_IP4=10.0.0.1
RDCC_RCV_IP4=10.0.1.2
RDCC_SW_SND_IP4=10.0.0.254
RDCC_SW_RCV_IP4=10.0.1.254
RDCC_SND_IP6=fd00::1
RDCC_RCV_IP6=fd00:1::2
RDCC_SW_SND_IP6=fd00::fe
RDCC_SW_RCV_IP6=fd00:1::fe
# Receiver ACK policy: RDCC_QUICKACK=1 sets the route attribute `quickack 1` on the receiver's
# routes, so it ACKs every segment at once instead of delaying ACKs (see the variable's doc).
RDCC_RCV_ROUTE_OPTS=""
[ "$RDCC_QUICKACK" = 1 ] && RDCC_RCV_ROUTE_OPTS="quickack 1"
# Where the bottleneck qdisc tree (1: htb, 1:10 class, 10: netem) lives.
RDCC_BN_NS=$RDCC_NS_SW
RDCC_BN_IF=$RDCC_SW_RCV_IF
# Every router's egress towards the receiver, NS:DEV, the bottleneck first (rdcc_topo_chain).
RDCC_CHAIN_EGRESS="$RDCC_BN_NS:$RDCC_BN_IF"
RDCC_CC_SYSCTL=/proc/sys/net/ipv4/tcp_congestion_control
RDCC_CC_AVAIL=/proc/sys/net/ipv4/tcp_available_congestion_control
RDCC_CC_ALLOWED=/proc/sys/net/ipv4/tcp_allowed_congestion_control

# ----------------------------------------------------------------------------------------------
# TAP output and small utilities (tap_*, rdcc_fcmp, rdcc_calc, rdcc_median, rdcc_decided, …):
# lib_tap.sh. Every script sets RDCC_SELFTEST_DIR to this directory before sourcing lib.sh.

# shellcheck source=lib_tap.sh
. "${RDCC_SELFTEST_DIR:?lib.sh: set RDCC_SELFTEST_DIR to the selftests directory first}/lib_tap.sh"


# Fractional sleep is a busybox build option (FEATURE_FLOAT_SLEEP); fall back to 1 s steps.
if sleep 0.01 2>/dev/null; then
	RDCC_TICK=0.1
	RDCC_TICKS_PER_S=10
else
	RDCC_TICK=1
	RDCC_TICKS_PER_S=1
fi

# rdcc_alive PID : the process exists and is not a zombie.
rdcc_alive() {
	local line st
	[ -n "$1" ] && [ -r "/proc/$1/stat" ] || return 1
	read -r line <"/proc/$1/stat" 2>/dev/null || return 1
	st=${line##*) }
	st=${st%% *}
	[ "$st" != Z ] && [ "$st" != X ]
}

RDCC_PIDS=""

rdcc_track() { RDCC_PIDS="$RDCC_PIDS $1"; }

rdcc_untrack() {
	local p keep=""
	for p in $RDCC_PIDS; do [ "$p" = "$1" ] || keep="$keep $p"; done
	RDCC_PIDS=$keep
}

# rdcc_kill PID : SIGTERM, wait up to 2 s, then SIGKILL; reap it if it is our child.
rdcc_kill() {
	local pid="$1" i=0
	[ -n "$pid" ] || return 0
	if rdcc_alive "$pid"; then
		kill -TERM "$pid" 2>/dev/null
		while rdcc_alive "$pid" && [ "$i" -lt $((2 * RDCC_TICKS_PER_S)) ]; do
			sleep "$RDCC_TICK"
			i=$((i + 1))
		done
		rdcc_alive "$pid" && kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid" 2>/dev/null
	rdcc_untrack "$pid"
	return 0
}

# rdcc_run LOG CMD... : run CMD, append its stderr/stdout to LOG; on failure print it as diag.
rdcc_run() {
	local log="$1" rc
	shift
	"$@" >>"$log" 2>&1
	rc=$?
	if [ "$rc" -ne 0 ]; then
		tap_diag "command failed (rc=$rc): $*"
		tail -n 5 "$log" | while IFS= read -r _l; do printf '#   %s\n' "$_l"; done
	fi
	return "$rc"
}

# ----------------------------------------------------------------------------------------------
# tools

# rdcc_pick_tool VAR OVERRIDE NAME PATTERN CANDIDATES... : set VAR to OVERRIDE if that is set,
# else to the first of CANDIDATES and `command -v NAME`; the chosen program's version output
# (-V, then --version) must match PATTERN (this rejects busybox's ip/tc applets).
rdcc_pick_tool() {
	local var="$1" over="$2" name="$3" pat="$4" c
	shift 4
	[ -z "$over" ] || set -- "$over"
	[ -n "$over" ] || set -- "$@" "$(command -v "$name" 2>/dev/null)"
	for c in "$@"; do
		if [ -z "$c" ] || [ ! -x "$c" ]; then continue; fi
		if { "$c" -V 2>&1; "$c" --version 2>&1; } | grep -q "$pat"; then
			eval "$var=\$c"
			return 0
		fi
	done
	eval "$var="
	return 1
}

# rdcc_find_tools : resolve IP, TC, SS, IPERF3 (real iproute2 and iperf3, not busybox applets).
rdcc_find_tools() {
	local rc=0
	rdcc_pick_tool IP "${RDCC_IP:-}" ip iproute2 /usr/bin/ip /usr/sbin/ip /bin/ip /sbin/ip || rc=1
	rdcc_pick_tool TC "${RDCC_TC:-}" tc iproute2 /usr/bin/tc /usr/sbin/tc /bin/tc /sbin/tc || rc=1
	rdcc_pick_tool SS "${RDCC_SS:-}" ss iproute2 /usr/bin/ss /usr/sbin/ss /bin/ss /sbin/ss || rc=1
	rdcc_pick_tool IPERF3 "${RDCC_IPERF3:-}" iperf3 'iperf 3' /usr/bin/iperf3 /usr/local/bin/iperf3 ||
		rc=1
	return "$rc"
}

# require_root : bail out unless running as uid 0.
require_root() {
	local uid
	uid=""
	command -v id >/dev/null 2>&1 && uid=$(id -u 2>/dev/null)
	if [ -z "$uid" ] && [ -r /proc/self/status ]; then
		uid=$(awk '/^Uid:/ { print $2 }' /proc/self/status)
	fi
	if [ "$uid" != 0 ]; then
		tap_not_ok "running as root (uid=${uid:-unknown})"
		tap_bail "root is required (network namespaces, qdiscs, sysctls, modules)"
	fi
}

# rdcc_check_env : verify tools, /proc and the numeric tunables; diag every problem.
rdcc_check_env() {
	local rc=0 v
	if ! rdcc_find_tools; then
		tap_diag "missing tool(s): ip=${IP:-?} tc=${TC:-?} ss=${SS:-?} iperf3=${IPERF3:-?}" \
			"(need iproute2 ip/tc/ss and iperf3; busybox applets do not support netns/ss)"
		rc=1
	fi
	if [ ! -r "$RDCC_CC_AVAIL" ]; then
		tap_diag "$RDCC_CC_AVAIL not readable (is /proc mounted? CONFIG_INET?)"
		rc=1
	fi
	for v in RDCC_RATE_MBIT RDCC_DELAY_US RDCC_QLIMIT_PKTS RDCC_DURATION RDCC_PORT \
		RDCC_SAMPLE_MS RDCC_IPERF_SLACK RDCC_TRIALS; do
		eval "_val=\${$v}"
		# shellcheck disable=SC2154 # _val is assigned by the eval above
		if ! rdcc_is_uint "$_val"; then
			tap_diag "$v='$_val' is not a non-negative integer"
			rc=1
		fi
	done
	if [ "$rc" -eq 0 ]; then
		if [ "$RDCC_RATE_MBIT" -lt 1 ] || [ "$RDCC_DURATION" -lt 1 ] ||
			[ "$RDCC_QLIMIT_PKTS" -lt 1 ] || [ "$RDCC_SAMPLE_MS" -lt 1 ]; then
			tap_diag "RDCC_RATE_MBIT, RDCC_DURATION, RDCC_QLIMIT_PKTS, RDCC_SAMPLE_MS must be >= 1"
			rc=1
		fi
		if [ $((RDCC_TRIALS % 2)) -ne 1 ]; then
			tap_diag "RDCC_TRIALS=$RDCC_TRIALS must be odd (the median trial decides)"
			rc=1
		fi
	fi
	return "$rc"
}

# ----------------------------------------------------------------------------------------------
# temp dir, cleanup, traps

RDCC_TMP="${TMPDIR:-/tmp}/rdcc-selftest.$$"
rm -rf "$RDCC_TMP" 2>/dev/null
if ! mkdir -p "$RDCC_TMP"; then
	echo "lib.sh: cannot create $RDCC_TMP" >&2
	exit 1
fi
RDCC_CLEANED=0
RDCC_SERVER_PID=""

# rdcc_ns_kill_all NS : kill every process still inside namespace NS (all of them were started
# by this library: nothing else runs in these namespaces).
rdcc_ns_kill_all() {
	local p
	[ -n "${IP:-}" ] || return 0
	for p in $("$IP" netns pids "$1" 2>/dev/null); do
		rdcc_kill "$p"
	done
}

rdcc_ns_exists() {
	[ -n "${IP:-}" ] || return 1
	"$IP" netns list 2>/dev/null | awk -v n="$1" '$1 == n { f = 1 } END { exit !f }'
}

# rdcc_topo_teardown : kill everything in the namespaces and delete them (idempotent).
rdcc_topo_teardown() {
	local ns
	# Every chain router that exists, whatever this run's RDCC_HOPS: a run of a longer chain that
	# was killed leaves its routers, which the next chain's `netns add` would trip on.
	# shellcheck disable=SC2046 # the chain's namespace names are words
	for ns in "$RDCC_NS_SND" "$RDCC_NS_RCV" "$RDCC_NS_SW" $(RDCC_HOPS=8 rdcc_chain_ns); do
		if rdcc_ns_exists "$ns"; then
			rdcc_ns_kill_all "$ns"
			"$IP" netns del "$ns" 2>/dev/null ||
				tap_diag "cleanup: could not delete netns $ns"
		fi
	done
	RDCC_SERVER_PID=""
}

# rdcc_cleanup : kill tracked processes, delete namespaces, remove the temp dir. Runs once.
rdcc_cleanup() {
	local p
	[ "$RDCC_CLEANED" = 1 ] && return 0
	RDCC_CLEANED=1
	if [ -d "$RDCC_TMP" ]; then : >"$RDCC_TMP/stop" 2>/dev/null; fi
	for p in $RDCC_PIDS; do rdcc_kill "$p"; done
	rdcc_topo_teardown
	rdcc_cc_allow_restore
	if [ "$RDCC_KEEP_TMP" = 1 ]; then
		tap_diag "temp dir kept: $RDCC_TMP"
	else
		rm -rf "$RDCC_TMP"
	fi
}

rdcc_on_exit() {
	local rc=$?
	trap '' INT TERM HUP
	rdcc_cleanup
	exit "$rc"
}

rdcc_on_signal() {
	trap '' INT TERM HUP
	printf 'Bail out! interrupted by SIG%s\n' "$1"
	exit "$2" # runs the EXIT trap, which cleans up
}

trap rdcc_on_exit EXIT
trap 'rdcc_on_signal INT 130' INT
trap 'rdcc_on_signal TERM 143' TERM
trap 'rdcc_on_signal HUP 129' HUP
# A closed stdout (the reader died, e.g. Ctrl-C on `cc_basic.sh | tee`) must not kill the
# shell before it has cleaned up: with SIGPIPE ignored, writes just fail with EPIPE.
trap '' PIPE

# ----------------------------------------------------------------------------------------------
# topology (lib_topo.sh) and traffic (lib_iperf.sh), in files of their own

: "${RDCC_SELFTEST_DIR:?set RDCC_SELFTEST_DIR to the selftests directory before sourcing lib.sh}"
# shellcheck source=lib_topo.sh
. "$RDCC_SELFTEST_DIR/lib_topo.sh"
# shellcheck source=lib_iperf.sh
. "$RDCC_SELFTEST_DIR/lib_iperf.sh"
# shellcheck source=lib_int.sh
. "$RDCC_SELFTEST_DIR/lib_int.sh"

# ----------------------------------------------------------------------------------------------
# congestion control selection

# rdcc_cc_available NAME : NAME is listed in tcp_available_congestion_control (global list).
rdcc_cc_available() {
	case " $(cat "$RDCC_CC_AVAIL" 2>/dev/null) " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# load_cc NAME : make congestion control NAME available. Succeeds at once if it is already
# listed; otherwise tries `modprobe tcp_NAME`, then `insmod` of the first tcp_NAME.ko found
# under RDCC_MODULE_DIRS. Every failed attempt is reported as a diagnostic.
load_cc() {
	local name="$1" d f err="$RDCC_TMP/load_cc.err"
	case $name in
	'' | *[!A-Za-z0-9_]*)
		tap_diag "load_cc: invalid algorithm name '$name'"
		return 2
		;;
	esac
	if rdcc_cc_available "$name"; then
		tap_diag "load_cc $name: already available"
		return 0
	fi
	if command -v modprobe >/dev/null 2>&1; then
		if modprobe "tcp_$name" >"$err" 2>&1 && rdcc_cc_available "$name"; then
			tap_diag "load_cc $name: loaded with modprobe tcp_$name"
			return 0
		fi
		tap_diag "load_cc $name: modprobe tcp_$name failed: $(head -n 2 "$err" | tr '\n' ' ')"
	else
		tap_diag "load_cc $name: no modprobe"
	fi
	for d in $RDCC_MODULE_DIRS; do
		[ -d "$d" ] || continue
		f=""
		for f in "$d/tcp_$name.ko" "$d/kernel/net/ipv4/tcp_$name.ko" "$d/extra/tcp_$name.ko" \
			"$d/updates/tcp_$name.ko"; do
			[ -f "$f" ] && break
			f=""
		done
		if [ -z "$f" ] && command -v find >/dev/null 2>&1; then
			f=$(find "$d" -name "tcp_$name.ko" -type f 2>/dev/null | head -n 1)
		fi
		[ -n "$f" ] || continue
		if insmod "$f" >"$err" 2>&1 && rdcc_cc_available "$name"; then
			tap_diag "load_cc $name: loaded with insmod $f"
			return 0
		fi
		tap_diag "load_cc $name: insmod $f failed: $(head -n 2 "$err" | tr '\n' ' ')"
	done
	tap_diag "load_cc $name: NOT available (no module tcp_$name via modprobe, no tcp_$name.ko under: $RDCC_MODULE_DIRS)"
	tap_diag "available: $(cat "$RDCC_CC_AVAIL" 2>/dev/null)"
	return 1
}

# A network namespace other than the initial one may only make an algorithm its default
# (net.ipv4.tcp_congestion_control) if the algorithm is "allowed" (listed in the global
# net.ipv4.tcp_allowed_congestion_control, which initially holds only reno and the boot default);
# otherwise the write fails with EPERM (tcp_set_default_congestion_control). Per-socket
# TCP_CONGESTION is not restricted for root (CAP_NET_ADMIN).
RDCC_ALLOWED_ORIG=""
RDCC_ALLOWED_SAVED=0
# The original list is also kept in this file until it is restored, so that a run killed
# with SIGKILL (no trap runs) is repaired by the next run (rdcc_recover_stale).
RDCC_ALLOWED_STATE="${TMPDIR:-/tmp}/rdcc-selftest.allowed-orig"

# rdcc_cc_allow NAME : add NAME to tcp_allowed_congestion_control (saving the original list
# once; rdcc_cc_allow_restore and the cleanup put it back).
rdcc_cc_allow() {
	local cur
	cur=$(cat "$RDCC_CC_ALLOWED" 2>/dev/null)
	case " $cur " in *" $1 "*) return 0 ;; esac
	if [ "$RDCC_ALLOWED_SAVED" = 0 ]; then
		RDCC_ALLOWED_ORIG=$cur
		RDCC_ALLOWED_SAVED=1
		printf '%s\n' "$cur" >"$RDCC_ALLOWED_STATE" 2>/dev/null
	fi
	if ! printf '%s\n' "$cur $1" >"$RDCC_CC_ALLOWED" 2>/dev/null; then
		tap_diag "cannot add $1 to $RDCC_CC_ALLOWED (now: $cur)"
		return 1
	fi
	tap_diag "added $1 to tcp_allowed_congestion_control (was: $cur)"
	return 0
}

# rdcc_cc_allow_restore : put back the tcp_allowed_congestion_control saved by rdcc_cc_allow.
rdcc_cc_allow_restore() {
	[ "$RDCC_ALLOWED_SAVED" = 1 ] || return 0
	if printf '%s\n' "$RDCC_ALLOWED_ORIG" >"$RDCC_CC_ALLOWED" 2>/dev/null; then
		RDCC_ALLOWED_SAVED=0
		rm -f "$RDCC_ALLOWED_STATE"
		return 0
	fi
	tap_diag "could not restore tcp_allowed_congestion_control to '$RDCC_ALLOWED_ORIG'"
	return 1
}

# rdcc_ns_cc_get : print net.ipv4.tcp_congestion_control of the sender namespace.
rdcc_ns_cc_get() {
	"$IP" netns exec "${1:-$RDCC_NS_SND}" cat "$RDCC_CC_SYSCTL" 2>/dev/null
}

# rdcc_ns_cc_set NAME : write NAME to net.ipv4.tcp_congestion_control in the sender namespace
# (per-netns since Linux 4.15). Returns the status of the write; errors go to $RDCC_TMP/sysctl.err.
rdcc_ns_cc_set() {
	# shellcheck disable=SC2016 # $1 and $2 are expanded by the inner sh
	"$IP" netns exec "${2:-$RDCC_NS_SND}" sh -c 'printf "%s\n" "$1" > "$2"' rdcc_sysctl \
		"$1" "$RDCC_CC_SYSCTL" 2>"$RDCC_TMP/sysctl.err"
}

# rdcc_recover_stale : undo what a run killed with SIGKILL left behind: its namespaces (and the
# processes in them) and a tcp_allowed_congestion_control it had extended.
rdcc_recover_stale() {
	local orig d pid noglob=0
	if rdcc_ns_exists "$RDCC_NS_SND" || rdcc_ns_exists "$RDCC_NS_RCV" ||
		rdcc_ns_exists "$RDCC_NS_SW" || rdcc_ns_exists "${RDCC_NS_SW}2"; then
		tap_diag "removing stale namespaces from an earlier run"
		rdcc_topo_teardown
	fi
	if [ "$RDCC_ALLOWED_SAVED" = 0 ] && [ -s "$RDCC_ALLOWED_STATE" ]; then
		orig=$(cat "$RDCC_ALLOWED_STATE")
		tap_diag "restoring tcp_allowed_congestion_control='$orig' left by an earlier run"
		printf '%s\n' "$orig" >"$RDCC_CC_ALLOWED" 2>/dev/null
		rm -f "$RDCC_ALLOWED_STATE"
	fi
	# temp dirs of runs whose shell no longer exists
	case $- in *f*) noglob=1 ;; esac
	set +f
	for d in "${TMPDIR:-/tmp}"/rdcc-selftest.*; do
		[ -d "$d" ] || continue
		pid=${d##*.}
		rdcc_is_uint "$pid" || continue
		[ "$pid" = "$$" ] || [ -d "/proc/$pid" ] || rm -rf "$d"
	done
	[ "$noglob" = 1 ] && set -f
	return 0
}
