#!/bin/sh
# shellcheck shell=sh
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# rdcc_cli.sh - the `rdcc` command (cli/) against live sockets (TAP version 13).
#
#   1. environment: root, iproute2, iperf3, and the rdcc binary answers --help;
#   2. topology (lib.sh: sender -> router with the bottleneck -> receiver);
#   3. with only a cubic flow running (ss shows it), `rdcc ss` prints nothing and exits 0, and
#      `rdcc ss --json` prints [] and exits 0;
#   4. tcp_swift is available, with the VM profile's targets (selftests/rdcc_cc.sh: at the
#      papers' 25 us target, the guest's ms RTTs would hold Swift at its 0.001-packet floor,
#      which is 0 in the Q8 window field);
#   5. during a Swift flow, `rdcc ss --json` (in the sender namespace) lists the data socket
#      (algo swift, peer port RDCC_PORT) with the law's view (dump A);
#   6. its window (window_pkts_q8, packets Q8) is non-zero;
#   7. its reason is a name from `rdcc reasons` (the core's Reason enum), not unknown(N);
#   8. the split view (dump B: fabric delay > 0, as Swift without a receiver program uses the
#      whole RTT) and the kernel's tcp_info (dump C: srtt > 0, cwnd > 0) are joined to it;
#   9. an independent decoder agrees: with ss_info=2 the module also answers `ss -ti` with the
#      law's view, and iproute2's bbr:(mrtt:<ms>,pacing_gain:<reason>) matches rdcc's signal
#      (within 20 %: the two reads are a moment apart and Swift's target moves with its window)
#      and reason code (equal);
#  10. the table lists it, and the filters work: --dport RDCC_PORT --algo swift lists it,
#      --algo timely lists nothing;
#  11. a Swift flow over IPv6 (to a second iperf3 server on RDCC_PORT + 1) is listed with family
#      ipv6, its addresses and the law's view (the AF_INET6 dumps).
#
# Environment: RDCC_CLI (path of the rdcc binary; default: `command -v rdcc`), the lib.sh
# variables; RDCC_RATE_MBIT [50], RDCC_DELAY_US [2000] as in rdcc_cc.sh.

case $0 in */*) RDCC_SELFTEST_DIR=${0%/*} ;; *) RDCC_SELFTEST_DIR=. ;; esac
: "${RDCC_RATE_MBIT:=50}"
: "${RDCC_DELAY_US:=2000}"
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"

: "${RDCC_CLI:=$(command -v rdcc 2>/dev/null)}"
# The Swift parameters of the VM profile (selftests/rdcc_cc.sh, PROFILE).
SWIFT_PARAMS="base_target_ns=6000000 fs_range_ns=3000000 fs_max_cwnd_pkts_q20=104857600"
SWIFT_SYS=/sys/module/tcp_swift/parameters
SWIFT_SAVED=""

# rdcc_cli ARGS... : run rdcc in the sender namespace; stdout to $RDCC_TMP/cli.out, stderr to
# $RDCC_TMP/cli.err; returns its status.
rdcc_cli() {
	"$IP" netns exec "$RDCC_NS_SND" "$RDCC_CLI" "$@" >"$RDCC_TMP/cli.out" 2>"$RDCC_TMP/cli.err"
}

# cli_diag : show what the last rdcc_cli printed.
cli_diag() {
	tap_diag "rdcc stdout:"
	tap_diag_file "$RDCC_TMP/cli.out" 12
	tap_diag "rdcc stderr:"
	tap_diag_file "$RDCC_TMP/cli.err" 6
}

# json_field NAME : the value of "NAME": on each line of stdin (numbers, null, or a string
# without its quotes); the JSON has one socket object per line.
json_field() {
	sed -n "s/.*\"$1\":\"\\{0,1\\}\\([^,\"}]*\\).*/\\1/p"
}

# swift_profile : load tcp_swift if needed and set the VM profile's parameters (0644; the old
# values are kept in SWIFT_SAVED and put back by swift_restore).
swift_profile() {
	local kv k v
	load_cc swift || return 1
	for kv in $SWIFT_PARAMS; do
		k=${kv%%=*} v=${kv#*=}
		SWIFT_SAVED="$SWIFT_SAVED $k=$(cat "$SWIFT_SYS/$k" 2>/dev/null)"
		if ! printf '%s\n' "$v" >"$SWIFT_SYS/$k" 2>"$RDCC_TMP/param.err"; then
			tap_diag "cannot write $v to $SWIFT_SYS/$k: $(cat "$RDCC_TMP/param.err")"
			return 1
		fi
	done
	return 0
}

swift_restore() {
	local kv
	for kv in $SWIFT_SAVED; do
		[ -n "${kv#*=}" ] && printf '%s\n' "${kv#*=}" >"$SWIFT_SYS/${kv%%=*}" 2>/dev/null
	done
	SWIFT_SAVED=""
}

tap_header
tap_plan 11
require_root
rdcc_find_tools
if rdcc_check_env && [ -n "$RDCC_CLI" ] && [ -x "$RDCC_CLI" ] &&
	"$RDCC_CLI" ss --help >"$RDCC_TMP/help.out" 2>&1 && grep -q -- '--json' "$RDCC_TMP/help.out"; then
	tap_ok "environment: root, iproute2, iperf3, rdcc ($RDCC_CLI) answers --help"
else
	tap_not_ok "environment: root, iproute2, iperf3, rdcc (${RDCC_CLI:-not found}) answers --help"
	tap_diag_file "$RDCC_TMP/help.out" 5
	tap_bail "environment"
fi
if rdcc_topo_setup; then
	tap_ok "topology: htb ${RDCC_RATE_MBIT}mbit + netem ${RDCC_DELAY_US}us"
else
	tap_not_ok "topology: htb ${RDCC_RATE_MBIT}mbit + netem ${RDCC_DELAY_US}us"
	tap_bail "topology"
fi
rdcc_server_start || tap_diag "iperf3 server not running"

# 3. cubic only.
if rdcc_flow_start cubic; then
	rc_t=0 rc_j=0
	rdcc_cli ss || rc_t=$?
	cp "$RDCC_TMP/cli.out" "$RDCC_TMP/cubic-table.out"
	table_lines=$(wc -l <"$RDCC_TMP/cli.out")
	rdcc_cli ss --json || rc_j=$?
	json=$(cat "$RDCC_TMP/cli.out")
	rdcc_flow_stop
	if [ "$rc_t" -eq 0 ] && [ "$table_lines" -eq 0 ] && [ "$rc_j" -eq 0 ] && [ "$json" = "[]" ]; then
		tap_ok "cubic flow only: rdcc ss lists nothing and exits 0 (table and --json)"
	else
		tap_not_ok "cubic flow only: rdcc ss lists nothing and exits 0 (table and --json)"
		tap_diag "table: rc=$rc_t, $table_lines line(s); json: rc=$rc_j, '$json'"
		tap_diag_file "$RDCC_TMP/cubic-table.out" 5
		cli_diag
	fi
else
	rdcc_flow_stop
	tap_not_ok "cubic flow only: rdcc ss lists nothing and exits 0 (no cubic flow to test with)"
fi

# 4. swift with the VM profile.
if swift_profile; then
	tap_ok "tcp_swift available, VM profile set ($SWIFT_PARAMS)"
else
	tap_not_ok "tcp_swift available, VM profile set ($SWIFT_PARAMS)"
	for k in 5 6 7 8 9 10 11; do tap_skip "swift check $k" "tcp_swift not available"; done
	swift_restore
	tap_finish
fi

# 5-9. a swift flow.
if ! rdcc_flow_start swift; then
	rdcc_flow_stop
	for k in 5 6 7 8 9 10 11; do tap_not_ok "swift check $k (no swift flow)"; done
	swift_restore
	tap_finish
fi
rc=0
rdcc_cli ss --json || rc=$?
cp "$RDCC_TMP/cli.out" "$RDCC_TMP/swift.json"
"$SS" -N "$RDCC_NS_SND" -tinH state established "( dport = :$RDCC_PORT )" >"$RDCC_TMP/ss.out" 2>&1
# The data socket: the swift row to RDCC_PORT with the largest window (iperf3's control
# connection to the same port carries a few hundred bytes).
grep "\"algo\":\"swift\"" "$RDCC_TMP/swift.json" | grep "\"peer_port\":${RDCC_PORT}[,}]" |
	grep -v '"law":null' >"$RDCC_TMP/swift.rows"
best=""
bestw=-1
while IFS= read -r line; do
	w=$(printf '%s\n' "$line" | json_field window_pkts_q8)
	rdcc_is_uint "$w" || continue
	if [ "$w" -gt "$bestw" ]; then bestw=$w best=$line; fi
done <"$RDCC_TMP/swift.rows"
printf '%s\n' "$best" >"$RDCC_TMP/best.row"
if [ "$rc" -eq 0 ] && [ -n "$best" ]; then
	tap_ok "rdcc ss --json lists the swift data socket with the law's view ($(wc -l <"$RDCC_TMP/swift.rows") swift row(s) to port $RDCC_PORT)"
	tap_diag "$best"
else
	tap_not_ok "rdcc ss --json lists the swift data socket with the law's view (rc=$rc)"
	cli_diag
	tap_diag "ss -tin:"
	tap_diag_file "$RDCC_TMP/ss.out" 8
fi

if [ "$bestw" -gt 0 ]; then
	tap_ok "window is non-zero: window_pkts_q8=$bestw ($(rdcc_calc "$bestw / 256") packets)"
else
	tap_not_ok "window is non-zero: window_pkts_q8=$bestw"
fi

reason=$(json_field reason <"$RDCC_TMP/best.row")
"$RDCC_CLI" reasons >"$RDCC_TMP/reasons.out" 2>&1
if [ -n "$reason" ] && awk -v r="$reason" 'NR > 1 && $2 == r { f = 1 } END { exit !f }' "$RDCC_TMP/reasons.out"; then
	tap_ok "reason '$reason' is a known reason name"
else
	tap_not_ok "reason '${reason:-none}' is a known reason name"
	tap_diag_file "$RDCC_TMP/reasons.out" 20
fi

fabric=$(json_field fabric_delay_ns <"$RDCC_TMP/best.row")
srtt=$(json_field srtt_us <"$RDCC_TMP/best.row")
cwnd=$(json_field snd_cwnd_pkts <"$RDCC_TMP/best.row")
if rdcc_is_uint "$fabric" && [ "$fabric" -gt 0 ] && rdcc_is_uint "$srtt" && [ "$srtt" -gt 0 ] &&
	rdcc_is_uint "$cwnd" && [ "$cwnd" -gt 0 ]; then
	tap_ok "split view and tcp_info joined: fabric ${fabric} ns, srtt ${srtt} us, cwnd ${cwnd} pkt"
else
	tap_not_ok "split view and tcp_info joined: fabric '${fabric}' ns, srtt '${srtt}' us, cwnd '${cwnd}' pkt"
fi

# 9. iproute2 decodes the same struct: ss_info=2 makes `ss -ti` show the law view too.
old_ss_info=$(cat "$SWIFT_SYS/ss_info" 2>/dev/null)
ss_mrtt="" ss_gain=""
if printf '2\n' >"$SWIFT_SYS/ss_info" 2>/dev/null; then
	"$SS" -N "$RDCC_NS_SND" -tinH state established "( dport = :$RDCC_PORT )" >"$RDCC_TMP/ss2.out" 2>&1
	rdcc_cli ss --dport "$RDCC_PORT" --algo swift --json
	printf '%s\n' "$old_ss_info" >"$SWIFT_SYS/ss_info" 2>/dev/null
	ss_mrtt=$(grep -o 'bbr:([^)]*)' "$RDCC_TMP/ss2.out" | head -n 1 | sed -n 's/.*mrtt:\([0-9.]*\).*/\1/p')
	ss_gain=$(grep -o 'bbr:([^)]*)' "$RDCC_TMP/ss2.out" | head -n 1 | sed -n 's/.*pacing_gain:\([0-9.]*\).*/\1/p')
	# ss omits pacing_gain when it is 0 (bbr_pacing_gain = reason << 8, printed / 256).
	[ -n "$ss_mrtt" ] && [ -z "$ss_gain" ] && ss_gain=0
fi
my_signal=$(json_field signal <"$RDCC_TMP/cli.out" | head -n 1)
my_code=$(json_field reason_code <"$RDCC_TMP/cli.out" | head -n 1)
if [ -n "$ss_mrtt" ] && rdcc_is_uint "$my_signal" && [ "$my_signal" -gt 0 ] &&
	awk -v a="$ss_mrtt" -v b="$my_signal" 'BEGIN { d = a * 1000 - b; if (d < 0) d = -d; exit !(d <= 0.2 * b) }' &&
	rdcc_is_uint "$my_code" && rdcc_fcmp "$ss_gain" "==" "$my_code"; then
	tap_ok "ss -ti (ss_info=2) agrees: mrtt ${ss_mrtt} ms vs signal ${my_signal} us, pacing_gain ${ss_gain} vs reason code ${my_code}"
else
	tap_not_ok "ss -ti (ss_info=2) agrees: mrtt '${ss_mrtt}' ms vs signal '${my_signal}' us, pacing_gain '${ss_gain}' vs reason code '${my_code}'"
	tap_diag_file "$RDCC_TMP/ss2.out" 6
	cli_diag
fi

rc_t=0 rc_f=0 rc_n=0
rdcc_cli ss || rc_t=$?
cp "$RDCC_TMP/cli.out" "$RDCC_TMP/swift-table.out"
rows_t=$(grep -c " swift " "$RDCC_TMP/swift-table.out")
head_ok=0
head -n 1 "$RDCC_TMP/swift-table.out" | grep -q '^LOCAL .*TARGET/SIGNAL.*REASON.*BINDS$' && head_ok=1
rdcc_cli ss --dport "$RDCC_PORT" --algo swift --json || rc_f=$?
rows_f=$(grep -c '"algo":"swift"' "$RDCC_TMP/cli.out")
rdcc_cli ss --algo timely --json || rc_n=$?
none=$(cat "$RDCC_TMP/cli.out")
rdcc_flow_stop
tap_diag "rdcc ss:"
tap_diag_file "$RDCC_TMP/swift-table.out" 6
if [ "$rc_t" -eq 0 ] && [ "$head_ok" = 1 ] && [ "$rows_t" -ge 1 ] && [ "$rc_f" -eq 0 ] &&
	[ "$rows_f" -ge 1 ] && [ "$rc_n" -eq 0 ] && [ "$none" = "[]" ]; then
	tap_ok "table lists the swift socket; --dport/--algo filters select it, --algo timely lists nothing"
else
	tap_not_ok "table lists the swift socket; --dport/--algo filters select it, --algo timely lists nothing"
	tap_diag "table rc=$rc_t header=$head_ok rows=$rows_t; filtered rc=$rc_f rows=$rows_f; timely rc=$rc_n '$none'"
fi

# 11. IPv6: a second server, so the IPv4 server's state does not matter.
port6=$((RDCC_PORT + 1))
"$IP" netns exec "$RDCC_NS_RCV" "$IPERF3" -s -p "$port6" >"$RDCC_TMP/server6.log" 2>&1 &
srv6=$!
rdcc_track "$srv6"
i=0
while ! "$SS" -N "$RDCC_NS_RCV" -ltnH "( sport = :$port6 )" 2>/dev/null | grep -q . &&
	[ "$i" -lt $((5 * RDCC_TICKS_PER_S)) ]; do
	sleep "$RDCC_TICK"
	i=$((i + 1))
done
rc=1
if rdcc_flow_start swift "$RDCC_RCV_IP6" "$port6"; then
	rc=0
	rdcc_cli ss --dport "$port6" --json || rc=$?
fi
rdcc_flow_stop
rdcc_kill "$srv6"
row6=$(grep '"family":"ipv6"' "$RDCC_TMP/cli.out" | grep "\"local_addr\":\"$RDCC_SND_IP6\"" |
	grep "\"peer_addr\":\"$RDCC_RCV_IP6\"" | grep '"algo":"swift"' | grep -v '"law":null' | head -n 1)
if [ "$rc" -eq 0 ] && [ -n "$row6" ]; then
	tap_ok "IPv6 swift socket listed ($RDCC_SND_IP6 -> [$RDCC_RCV_IP6]:$port6) with the law's view"
	tap_diag "$row6"
else
	tap_not_ok "IPv6 swift socket listed ($RDCC_SND_IP6 -> [$RDCC_RCV_IP6]:$port6) with the law's view (rc=$rc)"
	cli_diag
	tap_diag_file "$RDCC_TMP/server6.log" 5
fi

swift_restore
tap_finish
