#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# nflows.sh ALGO [MODULE-PARAMS...] : a measurement, not a test. N = RDCC_FLOWS (8) flows of ALGO
# through the lib.sh bottleneck (RDCC_RATE_MBIT [40] Mbit/s, RDCC_DELAY_US [1000] us netem) for
# RDCC_WARMUP [5] + RDCC_MULTI_DURATION [15] s; prints one line
#   NFLOWS algo=.. flows=N tput_mbit=.. retrans=.. rtt_mean_us=.. rtt_p99_us=.. samples=.. jain=.. rates=..
# rtt over every ss sample of every data socket after the warm-up (ss srtt), throughput and
# retransmissions from iperf3 (-O warm-up omitted), Jain of the per-flow receiver rates.
# Usage in the VM: cargo xtask vm -- sh /rdcc/selftests/tools/nflows.sh timely t_low_ns=...
: "${RDCC_RATE_MBIT:=40}"
: "${RDCC_DELAY_US:=1000}"
: "${RDCC_FLOWS:=8}"
: "${RDCC_WARMUP:=5}"
: "${RDCC_MULTI_DURATION:=15}"
: "${RDCC_SAMPLE_MS:=100}"
export RDCC_RATE_MBIT RDCC_DELAY_US RDCC_SAMPLE_MS
RDCC_SELFTEST_DIR=$(dirname "$0")/..
# shellcheck source-path=SCRIPTDIR/..
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"
algo="$1"
shift
require_root
rdcc_find_tools
rdcc_check_env || { echo "environment not usable"; exit 1; }
rdcc_topo_setup || { echo "topology failed"; exit 1; }
mod="tcp_$algo"
if [ "$algo" != cubic ] && [ "$algo" != reno ]; then
	rmmod "$mod" 2>/dev/null
	ko=""
	for d in $RDCC_MODULE_DIRS; do [ -f "$d/$mod.ko" ] && ko="$d/$mod.ko" && break; done
	# shellcheck disable=SC2068 # module parameters as given
	insmod "$ko" $@ || { echo "insmod $ko $* failed"; exit 1; }
fi
rdcc_cc_allow "$algo" >/dev/null 2>&1
t=$((RDCC_WARMUP + RDCC_MULTI_DURATION))
rdcc_iperf_run "$algo-n" "$RDCC_RCV_IP4" "$algo" 1 -C "$algo" -P "$RDCC_FLOWS" -t "$t" -O "$RDCC_WARMUP"
skip=$((RDCC_WARMUP * 1000 / RDCC_SAMPLE_MS))
rdcc_ss_records "$RDCC_TMP/$algo-n.ss" | awk -v skip="$skip" '
	$1 > skip && $6 > 100000 { n++; s += $4; v[n] = $4 }
	END {
		if (n == 0) { printf "0 0.0 0.0\n"; exit }
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (v[j] < v[i]) { x = v[i]; v[i] = v[j]; v[j] = x }
		k = int(0.99 * n); if (k < 0.99 * n) k++; if (k < 1) k = 1
		printf "%d %.1f %.1f\n", n, s / n, v[k]
	}' >"$RDCC_TMP/rtt"
read -r n mean p99 <"$RDCC_TMP/rtt"
jain=$(awk '
	/"[A-Za-z_]+":[ \t]*\{/ { key = $0; sub(/^[ \t]*"/, "", key); sub(/".*/, "", key); next }
	/"bits_per_second":/ && key == "receiver" {
		v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/[ \t,]*$/, "", v)
		m++; s += v; q += v * v; r = r sprintf(",%.1f", v / 1e6)
	}
	END { if (m == 0 || q == 0) print "0 -"; else printf "%.4f %s\n", s * s / (m * q), substr(r, 2) }' "$RDCC_TMP/$algo-n.json")
echo "NFLOWS algo=$algo flows=$RDCC_FLOWS rate_mbit=$RDCC_RATE_MBIT delay_us=$RDCC_DELAY_US tput_mbit=$RDCC_R_TPUT retrans=$RDCC_R_RETRANS rtt_mean_us=$mean rtt_p99_us=$p99 samples=$n jain=${jain% *} rates=${jain#* } params=$*"
rdcc_cleanup >/dev/null 2>&1
exit 0
