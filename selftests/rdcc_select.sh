#!/bin/sh
# shellcheck shell=sh
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# rdcc_select.sh - runtime parameters and selection of the rdcc modules (TAP version 13).
#
# For each algorithm in RDCC_SELECT_ALGOS (default: the four rdcc modules), with the module
# loaded (by the harness, with the papers' defaults; loaded here from RDCC_MODULE_DIRS if not):
#   1. parameters are writable at runtime in human units: `0.8` to a Q16 fraction reads back as
#      52429, `6ms` to a _ns parameter as 6000000 (the module's VM profile is written this way);
#   2. a bad write is refused and changes nothing: an out-of-range value (a fraction of 5.0, a
#      zero time) and text that is no number fail with EINVAL, the old value stays, and the
#      kernel log names the parameter;
#   3. per-socket selection (iperf3 -C <name>, TCP_CONGESTION): data moves and `ss` shows <name>
#      on the data socket;
#   4. system-wide selection (net.ipv4.tcp_congestion_control in the sender namespace, iperf3
#      without -C): data moves and `ss` shows <name>; the previous default is restored.
# No check here depends on a rate: data moving (more than 0 bytes) is the criterion, so a busy
# host cannot fail it.

case $0 in */*) RDCC_SELFTEST_DIR=${0%/*} ;; *) RDCC_SELFTEST_DIR=. ;; esac
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"

: "${RDCC_SELECT_ALGOS:=swift swift_vaisf timely theta_powertcp}"
: "${RDCC_RATE_MBIT:=50}"
: "${RDCC_DELAY_US:=2000}"

# A parameter of each law to test: name, a human value, what it reads back as, a bad value.
# Reads are in the name's unit (core/src/units.rs): 6ms = 6000000 ns, 0.8 = round(0.8 * 65536).
frac_param() {
	case $1 in
	swift | swift_vaisf) echo beta_q16 ;;
	timely) echo beta_q16 ;;
	theta_powertcp) echo gamma_q16 ;;
	esac
}
time_param() {
	case $1 in
	swift | swift_vaisf) echo base_target_ns ;;
	timely) echo t_high_ns ;;
	theta_powertcp) echo base_rtt_ns ;;
	esac
}

# pread MOD NAME : the parameter's current value.
pread() { cat "/sys/module/$1/parameters/$2" 2>/dev/null; }
# pwrite MOD NAME VALUE : write, status of the write (errors to $RDCC_TMP/param.err).
pwrite() { printf '%s\n' "$3" 2>"$RDCC_TMP/param.err" >"/sys/module/$1/parameters/$2"; }

set -f
# shellcheck disable=SC2086
set -- $RDCC_SELECT_ALGOS
nalgos=$#
set +f

tap_header
tap_plan $((2 + 4 * nalgos))
require_root
rdcc_find_tools
if rdcc_check_env; then
	tap_ok "environment: root, iproute2, iperf3"
else
	tap_not_ok "environment: root, iproute2, iperf3"
	tap_bail "environment"
fi
if rdcc_topo_setup && rdcc_server_start; then
	tap_ok "topology and iperf3 server"
else
	tap_not_ok "topology and iperf3 server"
	tap_bail "topology"
fi
DEFAULT_CC=$(rdcc_ns_cc_get)

for algo in $RDCC_SELECT_ALGOS; do
	mod="tcp_$algo"
	tap_diag "---- $algo ----"
	rdcc_cc_available "$algo" || load_cc "$algo" >/dev/null 2>&1
	fp=$(frac_param "$algo")
	tp=$(time_param "$algo")

	# 1. human-unit writes, read back in the name's unit.
	if pwrite "$mod" "$fp" 0.8 && [ "$(pread "$mod" "$fp")" = 52429 ] &&
		pwrite "$mod" "$tp" 6ms && [ "$(pread "$mod" "$tp")" = 6000000 ]; then
		tap_ok "$algo: $fp=0.8 reads 52429, $tp=6ms reads 6000000"
	else
		tap_not_ok "$algo: $fp=0.8 reads 52429, $tp=6ms reads 6000000"
		tap_diag "$fp=$(pread "$mod" "$fp") $tp=$(pread "$mod" "$tp") $(cat "$RDCC_TMP/param.err")"
	fi
	# The rest of the VM profile (Swift-style targets at ms paths), in human units.
	case $algo in
	swift) pwrite "$mod" fs_range_ns 3ms ;;
	swift_vaisf) pwrite "$mod" token_thresh_extra_ns 4ms && pwrite "$mod" ai_div_ns 30us &&
		pwrite "$mod" base_ai_bps 500kbit ;;
	timely) pwrite "$mod" t_high_ns 12ms && pwrite "$mod" t_low_ns 4ms &&
		pwrite "$mod" min_rtt_ns 10ms && pwrite "$mod" init_rate_mbps "${RDCC_RATE_MBIT}Mbit" &&
		pwrite "$mod" line_rate_mbps "${RDCC_RATE_MBIT}Mbit" ;;
	theta_powertcp) pwrite "$mod" host_bw_bps "${RDCC_RATE_MBIT}Mbit" &&
		pwrite "$mod" expected_flows 4 ;;
	esac || tap_diag "profile write failed: $(dmesg 2>/dev/null | grep "$mod:" | tail -n 1)"

	# 2. refused writes change nothing and are logged.
	before=$(pread "$mod" "$fp")
	tp_now=$(pread "$mod" "$tp")
	dmesg -c >/dev/null 2>&1
	bad=""
	pwrite "$mod" "$fp" 5.0 && bad="$bad $fp=5.0-accepted"
	pwrite "$mod" "$fp" banana && bad="$bad $fp=banana-accepted"
	pwrite "$mod" "$tp" 0 && bad="$bad $tp=0-accepted"
	pwrite "$mod" "$tp" 25parsecs && bad="$bad $tp=25parsecs-accepted"
	after=$(pread "$mod" "$fp")
	logged=$(dmesg 2>/dev/null | grep -c "$mod: $fp=5.0 refused")
	if [ -z "$bad" ] && [ "$before" = "$after" ] && [ "$(pread "$mod" "$tp")" = "$tp_now" ] &&
		[ "${logged:-0}" -ge 1 ]; then
		tap_ok "$algo: out-of-range and non-numeric writes refused, old values kept, logged"
	else
		tap_not_ok "$algo: out-of-range and non-numeric writes refused, old values kept, logged"
		tap_diag "bad:$bad before=$before after=$after logged=$logged"
		dmesg 2>/dev/null | tail -n 5 | while read -r l; do tap_diag "$l"; done
		pwrite "$mod" "$fp" 0.8
	fi
	# Back to the law's own beta/gamma default for the flows below (the fraction test value may
	# differ from it): reload is not needed, a write is enough.
	case $algo in
	swift | swift_vaisf) pwrite "$mod" "$fp" 0.8 ;;
	timely) pwrite "$mod" "$fp" 0.8 ;;
	theta_powertcp) pwrite "$mod" "$fp" 0.9 ;;
	esac

	# 3. per-socket selection.
	if rdcc_iperf_run "$algo-sock" "$RDCC_RCV_IP4" "$algo" 1 -t 3 &&
		[ "${RDCC_R_BYTES:-0}" -gt 0 ] && [ "$RDCC_R_CC" = "$algo" ]; then
		tap_ok "$algo: per-socket selection (iperf3 -C): data moves, ss shows $algo"
	else
		tap_not_ok "$algo: per-socket selection (iperf3 -C): data moves, ss shows $algo"
		rdcc_iperf_diag
	fi

	# 4. system-wide selection in the sender namespace.
	ok=0
	if rdcc_cc_allow "$algo" && rdcc_ns_cc_set "$algo" && [ "$(rdcc_ns_cc_get)" = "$algo" ]; then
		if rdcc_iperf_run "$algo-sysctl" "$RDCC_RCV_IP4" "" 1 -t 3 &&
			[ "${RDCC_R_BYTES:-0}" -gt 0 ] && [ "$RDCC_R_CC" = "$algo" ]; then
			ok=1
		fi
	fi
	rdcc_ns_cc_set "$DEFAULT_CC"
	rdcc_cc_allow_restore
	if [ "$ok" = 1 ]; then
		tap_ok "$algo: system-wide selection (sysctl): data moves, ss shows $algo"
	else
		tap_not_ok "$algo: system-wide selection (sysctl): data moves, ss shows $algo"
		rdcc_iperf_diag
		tap_diag "sysctl: $(cat "$RDCC_TMP/sysctl.err" 2>/dev/null)"
	fi
done

tap_finish
