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
# API for tests (see cc_basic.sh for a complete example):
#   TAP:       tap_header, tap_plan N, tap_ok/tap_not_ok/tap_skip/tap_result, tap_diag,
#              tap_diag_file, tap_bail, tap_finish (cleanup + totals + exit status)
#   checks:    require_root, rdcc_check_env (resolves $IP $TC $SS $IPERF3: real iproute2 and
#              iperf3, never busybox applets), rdcc_fcmp A OP B, rdcc_is_uint
#   topology:  rdcc_topo_setup, rdcc_topo_teardown, rdcc_server_start
#   traffic:   rdcc_iperf_run LABEL DST ALGO SAMPLE ARGS... (sets RDCC_R_*), rdcc_iperf_diag,
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
# TAP output (TAP version 13; KTAP-compatible subset)

RDCC_TAP_NUM=0
RDCC_TAP_PASS=0
RDCC_TAP_FAIL=0
RDCC_TAP_SKIP=0
RDCC_TAP_PLANNED=0

# tap_diag MSG... : print MSG as diagnostic line(s), each prefixed with "# ".
tap_diag() {
	printf '%s\n' "$*" | while IFS= read -r _l; do printf '# %s\n' "$_l"; done
}

# tap_diag_file FILE [MAXLINES] : print (the first MAXLINES, default 20, lines of) FILE as diags.
tap_diag_file() {
	[ -s "$1" ] || return 0
	head -n "${2:-20}" "$1" | while IFS= read -r _l; do printf '#   %s\n' "$_l"; done
}

# A '#' in a description would start a TAP directive: replace it.
rdcc_tap_desc() {
	printf '%s' "$*" | tr '#\n' '_ '
}

tap_header() { printf 'TAP version 13\n'; }

# tap_plan N : print the plan. Call once, before the first result.
tap_plan() {
	RDCC_TAP_PLANNED=$1
	printf '1..%s\n' "$1"
}

tap_ok() {
	RDCC_TAP_NUM=$((RDCC_TAP_NUM + 1))
	RDCC_TAP_PASS=$((RDCC_TAP_PASS + 1))
	printf 'ok %d - %s\n' "$RDCC_TAP_NUM" "$(rdcc_tap_desc "$*")"
}

tap_not_ok() {
	RDCC_TAP_NUM=$((RDCC_TAP_NUM + 1))
	RDCC_TAP_FAIL=$((RDCC_TAP_FAIL + 1))
	printf 'not ok %d - %s\n' "$RDCC_TAP_NUM" "$(rdcc_tap_desc "$*")"
}

# tap_skip DESC REASON : a check whose prerequisite is absent.
tap_skip() {
	RDCC_TAP_NUM=$((RDCC_TAP_NUM + 1))
	RDCC_TAP_SKIP=$((RDCC_TAP_SKIP + 1))
	printf 'ok %d - %s # SKIP %s\n' "$RDCC_TAP_NUM" "$(rdcc_tap_desc "$1")" "$(rdcc_tap_desc "$2")"
}

# tap_result STATUS DESC : ok if STATUS is 0, else not ok.
tap_result() {
	local st="$1"
	shift
	if [ "$st" -eq 0 ]; then tap_ok "$@"; else tap_not_ok "$@"; fi
}

# tap_bail REASON : abort the whole test (TAP "Bail out!"); the EXIT trap cleans up.
tap_bail() {
	printf 'Bail out! %s\n' "$(rdcc_tap_desc "$*")"
	exit 1
}

# tap_finish : clean up, report results that were planned but never emitted as failures,
# print the totals line and exit 0 only if nothing failed.
tap_finish() {
	rdcc_cleanup
	if [ "$RDCC_TAP_NUM" -lt "$RDCC_TAP_PLANNED" ]; then
		tap_diag "planned $RDCC_TAP_PLANNED results but produced $RDCC_TAP_NUM"
		while [ "$RDCC_TAP_NUM" -lt "$RDCC_TAP_PLANNED" ]; do
			tap_not_ok "result never produced (test ended early)"
		done
	elif [ "$RDCC_TAP_NUM" -gt "$RDCC_TAP_PLANNED" ]; then
		tap_diag "BUG: planned $RDCC_TAP_PLANNED results but produced $RDCC_TAP_NUM"
		RDCC_TAP_FAIL=$((RDCC_TAP_FAIL + 1))
	fi
	printf '# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n' \
		"$RDCC_TAP_PASS" "$RDCC_TAP_FAIL" "$RDCC_TAP_SKIP"
	if [ "$RDCC_TAP_FAIL" -eq 0 ]; then exit 0; fi
	exit 1
}

# ----------------------------------------------------------------------------------------------
# small utilities

# rdcc_is_uint VALUE : VALUE is a non-empty decimal integer.
rdcc_is_uint() {
	case $1 in '' | *[!0-9]*) return 1 ;; esac
	return 0
}

# rdcc_fcmp A OP B : floating-point comparison via awk; OP is one of < <= > >= == !=.
rdcc_fcmp() {
	awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN {
		a += 0; b += 0
		if (op == "<") r = a < b; else if (op == "<=") r = a <= b
		else if (op == ">") r = a > b; else if (op == ">=") r = a >= b
		else if (op == "==") r = a == b; else r = a != b
		exit !r }'
}

# rdcc_calc EXPR : evaluate an awk arithmetic expression, print with %.1f.
rdcc_calc() {
	awk "BEGIN { printf \"%.1f\", ($1) }"
}

# rdcc_median X... : the median of the numbers given (mean of the middle two for an even count).
rdcc_median() {
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) { print "-"; exit }
		if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# Repeated trials of a noisy check (RDCC_TRIALS, odd): the check passes when the median trial
# passes, i.e. when a majority of RDCC_TRIALS passes. rdcc_decided OK BAD is true once OK or BAD
# reached that majority, so further trials cannot change the verdict; rdcc_majority OK BAD is
# true when OK did.
rdcc_decided() {
	[ "$1" -ge $((RDCC_TRIALS / 2 + 1)) ] || [ "$2" -ge $((RDCC_TRIALS / 2 + 1)) ]
}
rdcc_majority() {
	[ "$1" -ge $((RDCC_TRIALS / 2 + 1)) ]
}

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
	# shellcheck disable=SC2046 # the chain's namespace names are words
	for ns in "$RDCC_NS_SND" "$RDCC_NS_RCV" "$RDCC_NS_SW" $(rdcc_chain_ns); do
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
# topology

# rdcc_addr_up LOG NS DEV IP4 IP6 : give DEV in NS its /24 and /64 addresses and bring it up.
rdcc_addr_up() {
	rdcc_run "$1" "$IP" -n "$2" addr add "$4/24" dev "$3" || return 1
	rdcc_run "$1" "$IP" -n "$2" -6 addr add "$5/64" dev "$3" nodad || return 1
	rdcc_run "$1" "$IP" -n "$2" link set "$3" up
}

# rdcc_chain_ns : the chain's routers after the first (RDCC_HOPS > 1), one per line.
rdcc_chain_ns() {
	local i=2
	while [ "$i" -le "$RDCC_HOPS" ]; do
		echo "$RDCC_NS_SW$i"
		i=$((i + 1))
	done
}

# rdcc_topo_chain LOG : routers 2..RDCC_HOPS after rdcc_sw, linked in a chain (see the topology
# above), the last one holding the receiver's link and gateway addresses; static routes in every
# router; RDCC_CHAIN_EGRESS lists the egresses towards the receiver.
rdcc_topo_chain() {
	local log="$1" i=2 prev="$RDCC_NS_SW" prev_if="$RDCC_SW_RCV_IF" ns n="$RDCC_HOPS"
	if ! rdcc_is_uint "$n" || [ "$n" -gt 8 ]; then
		tap_diag "RDCC_HOPS=$n: 1..8"
		return 1
	fi
	while [ "$i" -le "$n" ]; do
		ns=$RDCC_NS_SW$i
		rdcc_run "$log" "$IP" netns add "$ns" || return 1
		rdcc_run "$log" "$IP" -n "$ns" link set lo up || return 1
		# link i-1 -> i: 10.0.(100+i).0/24, fd00:(100+i)::/64; .1 towards the sender
		rdcc_run "$log" "$IP" -n "$prev" link add "$prev_if" type veth \
			peer name "veth_c${i}_l" netns "$ns" || return 1
		rdcc_addr_up "$log" "$prev" "$prev_if" "10.0.$((100 + i)).1" "fd00:$((100 + i))::1" ||
			return 1
		rdcc_addr_up "$log" "$ns" "veth_c${i}_l" "10.0.$((100 + i)).2" "fd00:$((100 + i))::2" ||
			return 1
		# prev reaches the receiver's subnet through ns, ns the sender's through prev
		rdcc_run "$log" "$IP" -n "$prev" route add 10.0.1.0/24 via "10.0.$((100 + i)).2" || return 1
		rdcc_run "$log" "$IP" -n "$prev" -6 route add fd00:1::/64 via "fd00:$((100 + i))::2" ||
			return 1
		rdcc_run "$log" "$IP" -n "$ns" route add 10.0.0.0/24 via "10.0.$((100 + i)).1" || return 1
		rdcc_run "$log" "$IP" -n "$ns" -6 route add fd00::/64 via "fd00:$((100 + i))::1" || return 1
		RDCC_CHAIN_EGRESS="$RDCC_CHAIN_EGRESS $ns:veth_c${i}_r"
		prev=$ns prev_if=veth_c${i}_r
		i=$((i + 1))
	done
	# the last router holds the receiver's link, with the gateway addresses the receiver routes to
	rdcc_run "$log" "$IP" -n "$RDCC_NS_RCV" link add "$RDCC_RCV_IF" type veth \
		peer name "$prev_if" netns "$prev" || return 1
	rdcc_addr_up "$log" "$prev" "$prev_if" "$RDCC_SW_RCV_IP4" "$RDCC_SW_RCV_IP6"
}

# rdcc_topo_setup : build the three namespaces, two veth pairs, addresses, routes and the
# bottleneck qdisc tree on the router.
rdcc_topo_setup() {
	local log="$RDCC_TMP/setup.log" ns leaf eg
	: >"$log"
	mkdir -p /run/netns 2>/dev/null
	rdcc_recover_stale
	for ns in "$RDCC_NS_SND" "$RDCC_NS_SW" "$RDCC_NS_RCV"; do
		rdcc_run "$log" "$IP" netns add "$ns" || return 1
		rdcc_run "$log" "$IP" -n "$ns" link set lo up || return 1
	done
	rdcc_run "$log" "$IP" -n "$RDCC_NS_SND" link add "$RDCC_SND_IF" type veth \
		peer name "$RDCC_SW_SND_IF" netns "$RDCC_NS_SW" || return 1
	if [ "$RDCC_HOPS" -gt 1 ]; then
		rdcc_topo_chain "$log" || return 1
	else
		rdcc_run "$log" "$IP" -n "$RDCC_NS_RCV" link add "$RDCC_RCV_IF" type veth \
			peer name "$RDCC_SW_RCV_IF" netns "$RDCC_NS_SW" || return 1
	fi
	if [ -n "$RDCC_GSO_MAX_SEGS" ]; then
		rdcc_run "$log" "$IP" -n "$RDCC_NS_SND" link set dev "$RDCC_SND_IF" \
			gso_max_segs "$RDCC_GSO_MAX_SEGS" || return 1
	fi
	rdcc_addr_up "$log" "$RDCC_NS_SND" "$RDCC_SND_IF" "$RDCC_SND_IP4" "$RDCC_SND_IP6" || return 1
	rdcc_addr_up "$log" "$RDCC_NS_RCV" "$RDCC_RCV_IF" "$RDCC_RCV_IP4" "$RDCC_RCV_IP6" || return 1
	rdcc_addr_up "$log" "$RDCC_NS_SW" "$RDCC_SW_SND_IF" "$RDCC_SW_SND_IP4" "$RDCC_SW_SND_IP6" ||
		return 1
	if [ "$RDCC_HOPS" -eq 1 ]; then
		rdcc_addr_up "$log" "$RDCC_NS_SW" "$RDCC_SW_RCV_IF" "$RDCC_SW_RCV_IP4" \
			"$RDCC_SW_RCV_IP6" || return 1
	fi
	rdcc_run "$log" "$IP" -n "$RDCC_NS_SND" route add default via "$RDCC_SW_SND_IP4" || return 1
	# shellcheck disable=SC2086 # RDCC_RCV_ROUTE_OPTS is a word list (or empty)
	rdcc_run "$log" "$IP" -n "$RDCC_NS_RCV" route add default via "$RDCC_SW_RCV_IP4" $RDCC_RCV_ROUTE_OPTS ||
		return 1
	rdcc_run "$log" "$IP" -n "$RDCC_NS_SND" -6 route add default via "$RDCC_SW_SND_IP6" || return 1
	# shellcheck disable=SC2086
	rdcc_run "$log" "$IP" -n "$RDCC_NS_RCV" -6 route add default via "$RDCC_SW_RCV_IP6" \
		$RDCC_RCV_ROUTE_OPTS || return 1
	# shellcheck disable=SC2046 # the chain's namespace names are words
	for ns in "$RDCC_NS_SW" $(rdcc_chain_ns); do
		rdcc_run "$log" "$IP" netns exec "$ns" sh -c \
			'echo 1 > /proc/sys/net/ipv4/ip_forward && echo 1 > /proc/sys/net/ipv6/conf/all/forwarding' ||
			return 1
	done
	# Negotiate ECN in both namespaces (net.ipv4.tcp_ecn is per netns): dctcp without ECN falls
	# back to its "dctcp-reno" ops, so it would not be dctcp that is measured. Nothing in this
	# topology marks CE (the HTB leaf is netem/pfifo, drop-tail), so ECN changes no other
	# algorithm's behaviour; dctcp then reacts to loss like Reno.
	for ns in "$RDCC_NS_SND" "$RDCC_NS_RCV"; do
		rdcc_run "$log" "$IP" netns exec "$ns" sh -c 'echo 1 > /proc/sys/net/ipv4/tcp_ecn' ||
			return 1
	done

	# Bottleneck on the router's egress towards the receiver. quantum is explicit only to silence
	# HTB's "quantum is big" warning (a single class never round-robins, so its value does not
	# matter).
	for eg in $RDCC_CHAIN_EGRESS; do
		rdcc_run "$log" "$TC" -n "${eg%%:*}" qdisc add dev "${eg#*:}" root handle 1: \
			htb default 10 || return 1
		rdcc_run "$log" "$TC" -n "${eg%%:*}" class add dev "${eg#*:}" parent 1: \
			classid 1:10 htb rate "${RDCC_RATE_MBIT}mbit" ceil "${RDCC_RATE_MBIT}mbit" \
			quantum 60000 || return 1
		# The chain's later hops: a FIFO of the same limit (the delay is the first hop's).
		[ "$eg" = "$RDCC_BN_NS:$RDCC_BN_IF" ] ||
			rdcc_run "$log" "$TC" -n "${eg%%:*}" qdisc add dev "${eg#*:}" parent 1:10 \
				handle 10: pfifo limit "$RDCC_QLIMIT_PKTS" || return 1
	done
	if "$TC" -n "$RDCC_BN_NS" qdisc add dev "$RDCC_BN_IF" parent 1:10 handle 10: \
		netem delay "${RDCC_DELAY_US}us" limit "$RDCC_QLIMIT_PKTS" >>"$log" 2>&1; then
		leaf=netem
	elif [ "$RDCC_DELAY_US" -eq 0 ]; then
		tap_diag "netem unavailable; RDCC_DELAY_US=0, so the HTB leaf is pfifo limit $RDCC_QLIMIT_PKTS"
		rdcc_run "$log" "$TC" -n "$RDCC_BN_NS" qdisc add dev "$RDCC_BN_IF" parent 1:10 \
			handle 10: pfifo limit "$RDCC_QLIMIT_PKTS" || return 1
		leaf=pfifo
	else
		tap_diag "cannot add netem delay ${RDCC_DELAY_US}us (CONFIG_NET_SCH_NETEM missing?)"
		tap_diag_file "$log" 5
		tap_diag "hint: RDCC_DELAY_US=0 runs without netem"
		return 1
	fi
	# Verify the tree really is what we asked for.
	"$TC" -n "$RDCC_BN_NS" qdisc show dev "$RDCC_BN_IF" >"$RDCC_TMP/qdisc.txt" 2>&1
	"$TC" -n "$RDCC_BN_NS" class show dev "$RDCC_BN_IF" >>"$RDCC_TMP/qdisc.txt" 2>&1
	if ! grep -q '^qdisc htb 1: root' "$RDCC_TMP/qdisc.txt" ||
		! grep -q "^qdisc $leaf 10: parent 1:10" "$RDCC_TMP/qdisc.txt" ||
		! grep -q '^class htb 1:10 ' "$RDCC_TMP/qdisc.txt"; then
		tap_diag "qdisc tree on $RDCC_BN_IF is not htb 1: / class 1:10 / $leaf 10:"
		tap_diag_file "$RDCC_TMP/qdisc.txt"
		return 1
	fi
	if ! "$IP" -n "$RDCC_NS_RCV" addr show dev "$RDCC_RCV_IF" 2>/dev/null | grep -q "$RDCC_RCV_IP6/64"; then
		tap_diag "IPv6 address $RDCC_RCV_IP6 missing on $RDCC_RCV_IF (CONFIG_IPV6?)"
		return 1
	fi
	if ! "$IP" netns exec "$RDCC_NS_SND" ping -c 1 -W 2 "$RDCC_RCV_IP4" >>"$log" 2>&1; then
		tap_diag "no route $RDCC_SND_IP4 -> $RDCC_RCV_IP4 through $RDCC_NS_SW"
		tap_diag_file "$log" 5
		return 1
	fi
	tap_diag "topology: $RDCC_NS_SND($RDCC_SND_IP4,$RDCC_SND_IP6) -> $RDCC_NS_SW $(rdcc_chain_ns) -> $RDCC_NS_RCV($RDCC_RCV_IP4,$RDCC_RCV_IP6)"
	tap_diag_file "$RDCC_TMP/qdisc.txt"
	# shellcheck disable=SC2034 # read by the tests (the leaf qdisc actually installed)
	RDCC_LEAF_QDISC=$leaf
	return 0
}

# ----------------------------------------------------------------------------------------------
# iperf3 server (receiver namespace)

rdcc_server_listening() {
	"$SS" -N "$RDCC_NS_RCV" -ltnH "( sport = :$RDCC_PORT )" 2>/dev/null | grep -q .
}

# rdcc_server_start : start `iperf3 -s` in the receiver namespace in the background, write its pid
# to $RDCC_TMP/iperf3-server.pid and wait (at most 5 s) until the port is listening.
rdcc_server_start() {
	local i=0
	if [ -n "$RDCC_SERVER_PID" ] && rdcc_alive "$RDCC_SERVER_PID" && rdcc_server_listening; then
		return 0
	fi
	[ -n "$RDCC_SERVER_PID" ] && rdcc_kill "$RDCC_SERVER_PID"
	"$IP" netns exec "$RDCC_NS_RCV" "$IPERF3" -s -p "$RDCC_PORT" \
		>>"$RDCC_TMP/iperf3-server.log" 2>&1 &
	RDCC_SERVER_PID=$!
	rdcc_track "$RDCC_SERVER_PID"
	echo "$RDCC_SERVER_PID" >"$RDCC_TMP/iperf3-server.pid"
	while [ "$i" -lt $((5 * RDCC_TICKS_PER_S)) ]; do
		if ! rdcc_alive "$RDCC_SERVER_PID"; then
			tap_diag "iperf3 server exited at start:"
			tap_diag_file "$RDCC_TMP/iperf3-server.log" 10
			return 1
		fi
		rdcc_server_listening && return 0
		sleep "$RDCC_TICK"
		i=$((i + 1))
	done
	tap_diag "iperf3 server not listening on port $RDCC_PORT after 5 s"
	return 1
}

rdcc_server_restart() {
	[ -n "$RDCC_SERVER_PID" ] && rdcc_kill "$RDCC_SERVER_PID"
	RDCC_SERVER_PID=""
	rdcc_server_start
}

# ----------------------------------------------------------------------------------------------
# a flow that lasts until it is stopped

# rdcc_flow_start ALGO [DST PORT] : an iperf3 client with -C ALGO to DST:PORT (default
# RDCC_RCV_IP4:RDCC_PORT) in the background (RDCC_FLOW_PID). It has no end of its own (-t of an
# hour): rdcc_flow_stop ends it, so a check made during the flow cannot find it over on a slow
# guest (a debug kernel moves a few Mbit/s under TCG). Returns 0 once the sender has an
# established connection to PORT carrying ALGO that has had RDCC_FLOW_ACKED bytes [1000000]
# acknowledged: the law has then taken decisions on hundreds of ACKs, however fast the guest.
# The wait is bounded by RDCC_FLOW_WAIT_S [120] only so that a broken path fails; nothing is
# decided by how long it took. Returns 1 (with diagnostics) otherwise.
: "${RDCC_FLOW_ACKED:=1000000}"
: "${RDCC_FLOW_WAIT_S:=120}"
RDCC_FLOW_PID=""
rdcc_flow_start() {
	local algo="$1" dst="${2:-$RDCC_RCV_IP4}" port="${3:-$RDCC_PORT}" i=0 acked
	"$IP" netns exec "$RDCC_NS_SND" "$IPERF3" -c "$dst" -p "$port" -C "$algo" -t 3600 \
		>"$RDCC_TMP/flow-$algo-$port.out" 2>&1 &
	RDCC_FLOW_PID=$!
	rdcc_track "$RDCC_FLOW_PID"
	while [ "$i" -lt $((RDCC_FLOW_WAIT_S * RDCC_TICKS_PER_S)) ]; do
		acked=$("$SS" -N "$RDCC_NS_SND" -tinH state established "( dport = :$port )" 2>/dev/null |
			awk -v a="$algo" '
				/^[^ \t]/ { next }
				{ mine = 0; b = 0
				  for (k = 1; k <= NF; k++) {
					if ($k == a) mine = 1
					if ($k ~ /^bytes_acked:/) { split($k, v, ":"); b = v[2] + 0 }
				  }
				  if (mine && b > m) m = b }
				END { printf "%d", m }')
		[ "${acked:-0}" -ge "$RDCC_FLOW_ACKED" ] && return 0
		rdcc_alive "$RDCC_FLOW_PID" || break
		sleep "$RDCC_TICK"
		i=$((i + 1))
	done
	tap_diag "no $algo connection to $dst port $port with $RDCC_FLOW_ACKED bytes acknowledged (${acked:-0} after $((i / RDCC_TICKS_PER_S)) s; client alive: $(rdcc_alive "$RDCC_FLOW_PID" && echo yes || echo no))"
	tap_diag_file "$RDCC_TMP/flow-$algo-$port.out" 5
	return 1
}

# rdcc_flow_stop : end the flow of rdcc_flow_start (if any).
rdcc_flow_stop() {
	rdcc_kill "$RDCC_FLOW_PID"
	RDCC_FLOW_PID=""
}

# ----------------------------------------------------------------------------------------------
# ss sampler

# rdcc_sampler OUT STOPFILE MAXITER : every RDCC_SAMPLE_MS ms append `ss -tin` of the sender's
# established connections to port RDCC_PORT to OUT, each sample headed by "@@ <n>". Stops when
# STOPFILE exists or after MAXITER samples. Run it in the background.
rdcc_sampler() {
	local out="$1" stop="$2" max="$3" i=0 period up _rest
	if [ "$RDCC_TICK" = 1 ]; then
		period=1
	else
		period=$(awk -v ms="$RDCC_SAMPLE_MS" 'BEGIN { printf "%.3f", ms / 1000 }')
	fi
	: >"$out"
	while [ "$i" -lt "$max" ] && [ ! -e "$stop" ]; do
		i=$((i + 1))
		# The sample's time (s since boot): ss itself takes long on a busy emulated guest, so
		# sample i is not at i * period.
		read -r up _rest </proc/uptime
		{
			printf '@@ %d %s\n' "$i" "$up"
			"$SS" -N "$RDCC_NS_SND" -tinH state established "( dport = :$RDCC_PORT )" 2>/dev/null
		} >>"$out"
		sleep "$period"
	done
}

# rdcc_ss_records SAMPLES : one line per (sample, socket): "sample lport alg rtt_us cwnd acked
# uptime_s" (the time the sample was taken; 0 when the sampler did not record it).
# ss prints per socket a header line (Recv-Q Send-Q Local Peer) and an indented info line:
# "[ts] [sack] [ecn] [ecnseen] [fastopen] <ca-name> wscale:.. rto:.. rtt:<srtt_ms>/<var> ..".
rdcc_ss_records() {
	awk '
	/^@@/ { smp = $2; up = ($3 == "") ? 0 : $3; have = 0; next }
	/^[^ \t]/ {
		loc = ($1 ~ /^[0-9]+$/) ? $3 : $4
		n = split(loc, a, ":"); lport = a[n]; have = 1; next
	}
	/^[ \t]/ {
		if (!have) next
		alg = ""; rtt = ""; cwnd = 0; acked = 0; colon = 0
		for (i = 1; i <= NF; i++) {
			t = $i
			if (t ~ /:/) colon = 1
			if (!colon && alg == "" && t ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && t != "ts" &&
			    t != "sack" && t != "ecn" && t != "ecnseen" && t != "fastopen")
				alg = t
			if (t ~ /^rtt:/) { split(substr(t, 5), r, "/"); rtt = sprintf("%.1f", r[1] * 1000) }
			else if (t ~ /^cwnd:/) cwnd = substr(t, 6) + 0
			else if (t ~ /^bytes_acked:/) acked = substr(t, 13) + 0
		}
		if (alg == "") alg = "-"
		if (rtt != "") print smp, lport, alg, rtt, cwnd, acked, up
		have = 0
	}' "$1"
}

# rdcc_ss_stats RECORDS : pick the data socket (the local port with the most bytes acked; the
# iperf3 control connection carries a few hundred bytes) and print key=value statistics of its
# samples: dport, samples, rtt_mean, rtt_p99 (nearest rank: sorted[ceil(0.99 n)]), rtt_min,
# rtt_max, cwnd_mean, cwnd_max, algs (alg=count,... in order of first appearance), alg_first,
# alg_last and alg_changes (how often the algorithm differs from the previous sample's).
# RDCC_SS_SKIP_S (0): samples taken less than this many seconds after the first sample are left
# out (a warm-up).
# RDCC_SS_ALL (0): 1 pools the samples of every data socket of a parallel run (each port that
# acked at least 1 % of the busiest one's bytes) instead of the busiest socket's alone.
rdcc_ss_stats() {
	awk -v skip="${RDCC_SS_SKIP_S:-0}" -v all="${RDCC_SS_ALL:-0}" '
	NR == 1 { t0 = $7 + 0 }
	$7 + 0 < t0 + skip { next }
	{ rec[++nr] = $0; if (!($2 in best) || $6 + 0 > best[$2]) best[$2] = $6 + 0 }
	END {
		dp = ""; bm = -1
		for (p in best) if (best[p] > bm) { bm = best[p]; dp = p }
		n = 0; s = 0; cs = 0; cm = 0; algs = ""; first = ""; last = ""; chg = 0
		for (j = 1; j <= nr; j++) {
			split(rec[j], f, " ")
			if (all == 1) { if (best[f[2]] * 100 < bm) continue }
			else if (f[2] != dp) continue
			n++; v = f[4] + 0; s += v; cs += f[5]; if (f[5] + 0 > cm) cm = f[5] + 0
			if (!(f[3] in ac)) order[++na] = f[3]
			ac[f[3]]++
			if (n == 1) first = f[3]; else if (f[3] != last) chg++
			last = f[3]
			# insertion sort (n is at most a few hundred)
			k = n - 1
			while (k >= 1 && r[k] > v) { r[k + 1] = r[k]; k-- }
			r[k + 1] = v
		}
		for (j = 1; j <= na; j++) algs = algs (j > 1 ? "," : "") order[j] "=" ac[order[j]]
		if (n == 0) {
			printf "dport=\nsamples=0\nrtt_mean=0.0\nrtt_p99=0.0\nrtt_min=0.0\nrtt_max=0.0\n"
			printf "cwnd_mean=0.0\ncwnd_max=0\nalgs=\nalg_first=\nalg_last=\nalg_changes=0\n"
			exit
		}
		k = int(0.99 * n); if (k < 0.99 * n) k++; if (k < 1) k = 1
		printf "dport=%s\nsamples=%d\nrtt_mean=%.1f\nrtt_p99=%.1f\n", dp, n, s / n, r[k]
		printf "rtt_min=%.1f\nrtt_max=%.1f\ncwnd_mean=%.1f\ncwnd_max=%d\nalgs=%s\n", \
			r[1], r[n], cs / n, cm, algs
		printf "alg_first=%s\nalg_last=%s\nalg_changes=%d\n", first, last, chg
	}' "$1"
}

# ----------------------------------------------------------------------------------------------
# iperf3 client

# rdcc_iperf_json FILE : key=value lines from iperf3 -J output: tput (sum_received Mbit/s),
# sent (sum_sent Mbit/s), retrans (sum_sent retransmits), bytes (sum_received bytes),
# cc (sender_tcp_congestion), err (the "error" string, if any).
rdcc_iperf_json() {
	awk '
	function val(s) { sub(/^[^:]*:[ \t]*/, "", s); sub(/[ \t]*,?[ \t]*$/, "", s); gsub(/"/, "", s); return s }
	/"[A-Za-z_]+":[ \t]*\{/ { key = $0; sub(/^[ \t]*"/, "", key); sub(/".*/, "", key); next }
	/"bits_per_second":/ {
		if (key == "sum_received" && rbps == "") rbps = val($0)
		if (key == "sum_sent" && sbps == "") sbps = val($0)
	}
	/"bytes":/ { if (key == "sum_received" && rbytes == "") rbytes = val($0) }
	/"retransmits":/ { if (key == "sum_sent" && retr == "") retr = val($0) }
	/"sender_tcp_congestion":/ { cc = val($0) }
	/^[ \t]*"error":/ { err = val($0) }
	END {
		printf "tput=%.1f\nsent=%.1f\nretrans=%d\nbytes=%.0f\n", rbps / 1e6, sbps / 1e6, retr, rbytes
		gsub(/[^A-Za-z0-9_]/, "", cc)
		printf "cc=%s\nerr=%s\n", cc, err
	}' "$1"
}

# rdcc_iperf_run LABEL DST ALGO SAMPLE IPERF3-ARGS... : run one iperf3 client in the sender
# namespace towards DST (port RDCC_PORT), with `-C ALGO` unless ALGO is empty (then the netns
# default applies), and the extra IPERF3-ARGS (e.g. -t 5 or -n 256K). With SAMPLE=1, ss is
# sampled in the background during the run. The client is killed after its -t plus
# RDCC_IPERF_SLACK seconds. Returns 0 if iperf3 exited 0, reported no error and moved data.
# Results (always set):
#   RDCC_R_RC (exit status; 124 = killed on timeout), RDCC_R_ERR (iperf3 error text),
#   RDCC_R_TPUT (receiver Mbit/s, %.1f), RDCC_R_SENT (sender Mbit/s), RDCC_R_RETRANS,
#   RDCC_R_BYTES (bytes received), RDCC_R_CC (iperf3's sender_tcp_congestion),
#   RDCC_R_SAMPLES, RDCC_R_RTT_MEAN, RDCC_R_RTT_P99, RDCC_R_RTT_MIN, RDCC_R_RTT_MAX (us),
#   RDCC_R_CWND_MEAN, RDCC_R_CWND_MAX (packets), RDCC_R_ALGS (ss algorithm counts on the data
#   socket, "name=count,..."), RDCC_R_ALG_FIRST / RDCC_R_ALG_LAST (algorithm of the first /
#   last sample), RDCC_R_ALG_CHANGES (algorithm changes between consecutive samples),
#   RDCC_R_DPORT (the data socket's local port).
rdcc_iperf_run() {
	local label="$1" dst="$2" algo="$3" sample="$4" base pid spid i limit t=0 k v prev=""
	shift 4
	base="$RDCC_TMP/$label"
	RDCC_R_RC=1 RDCC_R_ERR="" RDCC_R_TPUT=0.0 RDCC_R_SENT=0.0 RDCC_R_RETRANS=0 RDCC_R_BYTES=0
	RDCC_R_CC="" RDCC_R_SAMPLES=0 RDCC_R_RTT_MEAN=0.0 RDCC_R_RTT_P99=0.0 RDCC_R_RTT_MIN=0.0
	RDCC_R_RTT_MAX=0.0 RDCC_R_CWND_MEAN=0.0 RDCC_R_CWND_MAX=0 RDCC_R_ALGS="" RDCC_R_DPORT=""
	RDCC_R_ALG_FIRST="" RDCC_R_ALG_LAST="" RDCC_R_ALG_CHANGES=0

	if ! rdcc_server_start; then
		RDCC_R_ERR="iperf3 server not running"
		return 1
	fi
	# Deadline: the -t of the args (if any) plus the slack.
	for k in "$@"; do
		[ "$prev" = "-t" ] && rdcc_is_uint "$k" && t=$k
		prev=$k
	done
	limit=$(((t + RDCC_IPERF_SLACK) * RDCC_TICKS_PER_S))

	rm -f "$base.stop"
	if [ "$sample" = 1 ]; then
		rdcc_sampler "$base.ss" "$base.stop" $(((t + RDCC_IPERF_SLACK) * 1000 / RDCC_SAMPLE_MS + 1)) &
		spid=$!
		rdcc_track "$spid"
	fi
	if [ -n "$algo" ]; then
		"$IP" netns exec "$RDCC_NS_SND" "$IPERF3" -c "$dst" -p "$RDCC_PORT" -J -C "$algo" "$@" \
			>"$base.json" 2>"$base.err" &
	else
		"$IP" netns exec "$RDCC_NS_SND" "$IPERF3" -c "$dst" -p "$RDCC_PORT" -J "$@" \
			>"$base.json" 2>"$base.err" &
	fi
	pid=$!
	rdcc_track "$pid"
	i=0
	while rdcc_alive "$pid" && [ "$i" -lt "$limit" ]; do
		sleep "$RDCC_TICK"
		i=$((i + 1))
	done
	if rdcc_alive "$pid"; then
		tap_diag "iperf3 client still running after $((limit / RDCC_TICKS_PER_S)) s: killed"
		rdcc_kill "$pid"
		RDCC_R_RC=124
	else
		wait "$pid"
		RDCC_R_RC=$?
		rdcc_untrack "$pid"
	fi
	if [ "$sample" = 1 ]; then
		: >"$base.stop"
		i=0
		while rdcc_alive "$spid" && [ "$i" -lt $((3 * RDCC_TICKS_PER_S)) ]; do
			sleep "$RDCC_TICK"
			i=$((i + 1))
		done
		rdcc_kill "$spid"
		rdcc_ss_records "$base.ss" >"$base.rec"
		rdcc_ss_stats "$base.rec" >"$base.stats"
		while IFS='=' read -r k v; do
			case $k in
			dport) RDCC_R_DPORT=$v ;;
			samples) RDCC_R_SAMPLES=$v ;;
			rtt_mean) RDCC_R_RTT_MEAN=$v ;;
			rtt_p99) RDCC_R_RTT_P99=$v ;;
			rtt_min) RDCC_R_RTT_MIN=$v ;;
			rtt_max) RDCC_R_RTT_MAX=$v ;;
			cwnd_mean) RDCC_R_CWND_MEAN=$v ;;
			cwnd_max) RDCC_R_CWND_MAX=$v ;;
			algs) RDCC_R_ALGS=$v ;;
			alg_first) RDCC_R_ALG_FIRST=$v ;;
			alg_last) RDCC_R_ALG_LAST=$v ;;
			alg_changes) RDCC_R_ALG_CHANGES=$v ;;
			esac
		done <"$base.stats"
	fi
	rdcc_iperf_json "$base.json" >"$base.kv"
	while IFS='=' read -r k v; do
		case $k in
		tput) RDCC_R_TPUT=$v ;;
		sent) RDCC_R_SENT=$v ;;
		retrans) RDCC_R_RETRANS=$v ;;
		bytes) RDCC_R_BYTES=$v ;;
		cc) RDCC_R_CC=$v ;;
		err) RDCC_R_ERR=$v ;;
		esac
	done <"$base.kv"
	if [ -z "$RDCC_R_ERR" ] && [ ! -s "$base.json" ]; then
		RDCC_R_ERR=$(head -n 1 "$base.err" 2>/dev/null)
		[ -n "$RDCC_R_ERR" ] || RDCC_R_ERR="no output from iperf3"
	fi
	if [ -n "$RDCC_ARTIFACT_DIR" ]; then
		mkdir -p "$RDCC_ARTIFACT_DIR" 2>/dev/null &&
			for k in json ss; do
				[ -f "$base.$k" ] && cp "$base.$k" "$RDCC_ARTIFACT_DIR/$label.$k" 2>/dev/null
			done
	fi
	if [ "$RDCC_R_RC" -ne 0 ] || [ -n "$RDCC_R_ERR" ] || [ "$RDCC_R_BYTES" -le 0 ]; then
		# The server may be stuck in the aborted test: start a fresh one for the next run.
		rdcc_server_restart >/dev/null 2>&1
		return 1
	fi
	return 0
}

# rdcc_iperf_diag : one diagnostic line describing the last rdcc_iperf_run.
rdcc_iperf_diag() {
	tap_diag "iperf3 rc=$RDCC_R_RC tput=${RDCC_R_TPUT}Mbit/s (sender ${RDCC_R_SENT}) retrans=$RDCC_R_RETRANS cc=${RDCC_R_CC:-?} ss[port ${RDCC_R_DPORT:-?}]: algs=${RDCC_R_ALGS:-none} samples=$RDCC_R_SAMPLES rtt_us mean=$RDCC_R_RTT_MEAN p99=$RDCC_R_RTT_P99 min=$RDCC_R_RTT_MIN max=$RDCC_R_RTT_MAX cwnd mean=$RDCC_R_CWND_MEAN max=$RDCC_R_CWND_MAX"
	[ "$RDCC_R_ALG_CHANGES" -eq 0 ] ||
		tap_diag "ss: algorithm changed $RDCC_R_ALG_CHANGES time(s) on the data socket: first $RDCC_R_ALG_FIRST, last $RDCC_R_ALG_LAST"
	[ -z "$RDCC_R_ERR" ] || tap_diag "iperf3 error: $RDCC_R_ERR"
}

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
		rdcc_ns_exists "$RDCC_NS_SW"; then
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
