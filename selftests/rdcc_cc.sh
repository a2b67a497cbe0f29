#!/bin/sh
# shellcheck shell=sh
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# rdcc_cc.sh - the rdcc modules in the kernel (TAP version 13 on stdout).
#
# For each of swift, swift_vaisf, timely, theta_powertcp:
#   1. load with the VM profile below and check it is listed as available;
#   2. unload is refused (EBUSY) while a socket uses it, and succeeds after;
#   3. one flow through the bottleneck: at least RDCC_MIN_UTIL_PCT (90) % of what a reference
#      flow (RDCC_REF_ALGO, cubic) got through the same path just before, in the same trial
#      (timely: RDCC_TIMELY_UTIL_PCT, 75), and the mean `ss` RTT below the bound derived from the
#      algorithm's own target (see PROFILE). Why TIMELY's is lower: it is the one law paced at
#      exactly its rate, capped at R, with no window above it; on a loaded host the guest's late
#      pacing timers and millisecond RTT noise (each positive gradient cuts by beta * g, each
#      negative one adds only delta) cost it 10-15 %: with `stress --cpu 1` on the host one
#      TIMELY flow got 40.9 and 38.8 Mbit/s against the reference's 45.5 and 45.7 (85-90 %),
#      while swift, swift_vaisf and theta_powertcp got 93-98 % in the same boots. A cap of 1.2 R
#      was tried: the flow then builds a queue, the gradient rule oscillates on it, 36.0 and 35.1
#      against 44.2 and 45.1 (78-81 %). Idle host (`make`): TIMELY 91-92 % of the rate. Those
#      runs had the kernel's round gate open (timely.md section 3); with it fed, CI Q (stress
#      --cpu 1) gave 38.9/46.0 and 37.5/45.7 (82-85 %): one delta per round, slower recovery.
#      Over the nine loaded trials of CI Q, R, S and T the ratio was 79.9-89.3 % (T: 79.9, 84.0,
#      81.0; median 81.0 against the 80 % it then needed), so 80 % was a check a loaded host fails;
#      75 % still fails the collapse it exists for (TIMELY's 8 flows had 65 %);
#   4. get_info: with ss_info=2 `ss -ti` shows the law's view (bbr:(...) layout, see ARCHITECTURE.md);
#   5. the tracepoint <module>:decision fires;
#   6. RDCC_FLOWS (4) competing flows after RDCC_WARMUP seconds: together at least
#      RDCC_MULTI_UTIL_PCT (80) % of what as many reference flows got through the same path in
#      the same trial, Jain's index of their throughputs at least RDCC_MIN_JAIN (0.9). It was
#      85 %: Swift's 4 flows, trial by trial against the same-boot reference, with `stress --cpu 1`
#      on the host, gave 89.3/85.2 % (CI H), 90.5/90.7 (I), 88.9/89.2 (J), 86.8/84.4/84.5 (K:
#      failed), VAI/SF 84.8-93.4 %; the reason is that of checks 8 and 9 below;
#   7. the mean `ss` RTT of those flows (every sample of every data socket after the warm-up)
#      within the law's bound for RDCC_FLOWS flows (rtt_bound_us);
#   8, 9. the same for RDCC_MANY (8) flows, with Jain's index at least RDCC_MANY_JAIN (0.8) and
#      at least RDCC_MANY_UTIL_PCT (75) % of the reference flows. Why 75 and not 85: a delay law's
#      fixed target covers the emulated host delay of an idle host plus ~1.5 ms of queue (PROFILE);
#      on a loaded host the guest's processing delay grows, eight 3-packet windows keep less
#      queue and the link idles between them. Measured (one boot each, 50 Mbit/s, swift, 8 flows):
#      idle host 96-107 % of cubic over 4 trials, with `stress --cpu 1` on the host 83-89 % over 4
#      trials (a larger send buffer, tcp_wmem 256 KiB, changed nothing: 82-94 % over 4); the collapse this
#      check exists for (issue #12, TIMELY) was 65 %;
#  10. with 1% random loss the flow recovers (data moves, retransmissions happen): exercises the
#      fast-recovery, RTO and undo hooks in the kernel.
# The harness fails the run on any WARNING/BUG/Oops in the kernel log.
#
# Checks 3 and 6-9 are performance checks. Under TCG one run of them varies (Swift's 4-flow Jain
# index ranged 0.87-0.999 over single runs of one build), so each is repeated up to RDCC_TRIALS
# (3) times and the median trial decides: trials stop as soon as a majority agrees (two passes or
# two failures), so a healthy build pays for two trials. Every trial is printed as a diagnostic.
# RDCC_PERF=0 skips them (functional checks only, for quick iterations).
#
# Each performance trial is judged against reference flows through the same path just before
# it: under TCG what the path serves follows the host's load, minute by minute. In virtual time
# (the UML bed, RDCC_REF_ONCE=1) it does not: the reference is measured once per flow count in
# the boot, on the first law, and every later law is judged against that figure (one trial per
# check there, RDCC_TRIALS=1). Two clean-clone CI runs (uml-debug at dec1dc9 and 12fcc12, four
# laws x one, four and eight flows, one trial each) measured 47.8 Mbit/s in all 24 reference
# runs, so the check compares with the same number and runs 9 fewer reference runs: on
# uml-debug at i36-budget 2d26ee1 (`cargo xtask vm --kernel uml-debug`, the debug boot's
# environment) 47/47 passed in 115.9 s of virtual time against 146.5 s with a reference per law
# (about 50 s of the guest's CPU less), every reference again 47.8 Mbit/s.
#
# PROFILE. The bottleneck is R = 50 Mbit/s (RDCC_RATE_MBIT) with a 2 ms netem delay on the data
# direction: well below what the emulated guest pushes (cubic: 766 Mbit/s through the router
# with the qdisc removed, idle ping RTT 0.40-0.75 ms), so it is the bottleneck we configured.
# At 100 Mbit/s paced flows plus the router hop left too little emulated CPU on a shared 2-core
# host: single flows of every law fell to 77-84 Mbit/s in some trials while the queue held
# packets, and 4 flows summed to 88 Mbit/s. At 50 Mbit/s the same laws and host gave 46-47 Mbit/s
# (93-94 %) in every trial. Rate-dependent parameters below are derived from R.
# Under QEMU TCG the idle RTT of that path is ~3 ms minimum and ~4.5 ms mean (ping), with
# millisecond scheduling jitter: emulation is the "host delay" a Linux Swift target must cover
# (Documentation/algorithms/swift.md). The papers' defaults (25 us targets) assume hardware
# timestamps and a microsecond fabric, so the test loads each module with parameters derived
# from this path; J below is the idle jitter measured at the start of the run (ping mean - min).
#   swift          base_target 6 ms (idle mean RTT + ~1.5 ms of queue).
#                  fs_range 3 ms (the paper's fs_range is 4x its base target; 0.1 ms would
#                  make flow scaling, Swift's fairness aid, vanish at ms targets).
#                  Bound: mean RTT <= base_target + fs_range + J.
#   swift_vaisf    base_target 6 ms. SL's constants are for 100 Gbit/s; scaled so queue bytes stay
#                  the same: AI_DIV 30 us (SL: 30 ns = 375 B of queue per token), Token_Thresh
#                  4 ms above target (SL: 4 us = 50 KB), and SL's line-rate start (50 packets).
#                  Base AI 500 kbit/s (0.26 packets per 6 ms RTT). Keeping SL's link fraction
#                  (50 Mbit/s = 0.05 %; 50 kbit/s at 100 Mbit/s) gives 0.026 packets per RTT: ~600
#                  RTTs to regrow 15 packets after a decrease, seconds at ms RTTs where SL's 5 us
#                  RTTs take 3 ms. Measured with it at 100 Mbit/s under host load: 44-89 Mbit/s single flow;
#                  with 500 kbit/s: 95.5-95.6 Mbit/s at a 5.8-6.0 ms mean RTT (the target).
#                  AI_Cap 5 (SL: 100): SL's largest VAI step, AI_Cap x base AI, is 5 % of the
#                  link per RTT; with the 20x larger base AI, AI_Cap 100 let each flow add the
#                  whole link per RTT once tokens were minted, and 8 flows fed that back into
#                  queue episodes of 35 ms (Documentation/results/swift_vm_path.md).
#                  Bound: mean RTT <= base_target + Token_Thresh + J: above it VAI mints tokens
#                  (SL's "heavy congestion"), below it the law operates.
#   timely         T_low 4 ms, T_high 12 ms, minRTT normaliser 10 ms, delta R/50 (rounded up;
#                  TIMELY's additive step is per flow, so N flows add N delta per update: with
#                  R/20 eight flows averaged 12.6 ms in the VM, above T_high, and 11.8 ms in the
#                  simulator's model of this path (sim, 8 flows, 50 Mbit/s, 3.5 ms base RTT);
#                  R/50 = 1 Mbit/s gives 9.3 ms there at 99.4 % use; the paper's delta is 0.1 % of
#                  its 10 Gbit/s link),
#                  line rate and initial rate R, rate floor 1 Mbit/s (the smallest the parameter
#                  takes; the core's 10 Mbit/s default is for datacenter links: 8 flows x 10 Mbit/s
#                  exceed a 40 Mbit/s path, no flow can go lower, the queue stays full: 26 of 40
#                  Mbit/s, 2.6 s RTT, issue #12). Bound: mean RTT <= T_high (the guard above which it always cuts).
#   theta_powertcp tau 6 ms (the path RTT under load in TCG; the idle minimum is ~3 ms), HostBw R,
#                  N = 4 expected flows, window cap R * 2000 bytes (2.7 BDPs at tau: 100 KB at
#                  50 Mbit/s; a fixed 200 KB cap let the start overshoot to 138 packets and an
#                  18 ms RTT that dominated an 8 s mean).
#                  Gradient per ACK (Alg. 2 as printed): the default per-RTT gradient avoids
#                  us-quantisation noise at us RTTs; at this ms path, per-RTT gradients over the
#                  emulation's jitter drove a limit cycle (power 0.5 <-> 4.6, window x2 / x4 per
#                  update, mean RTT 8.2-8.7 ms); per ACK the mean RTT is 7.2-7.5 ms.
#                  Equilibrium (PowerTCP Thm. 1): the queue is n * beta bytes for n flows, beta =
#                  HostBw * tau / N = R * 187.5 bytes, drained at the rate the path served, so
#                  RTT = tau + n * beta / tput (7.5 ms for one flow at R; 18 ms for 8 flows at R,
#                  not tau * (1 + 1/n): the queue grows with n). Under TCG the path often serves
#                  less than R (cubic 29.6-39 of 50 Mbit/s) and the same queue then takes longer
#                  (8 flows at 33 Mbit/s: 24 ms, measured 23.3 ms).
#                  Bound: mean RTT <= max(tau, smallest ss RTT of the run) + n * beta * 8 / tput + J.
#
# Environment: RDCC_RATE_MBIT [50], RDCC_DELAY_US [2000], RDCC_DURATION [8] (single flow),
# RDCC_FLOWS [4], RDCC_MANY [8], RDCC_MULTI_UTIL_PCT [80], RDCC_MANY_UTIL_PCT [75],
# RDCC_MANY_JAIN [0.8], RDCC_WARMUP [5] (seconds omitted from the multi-flow statistics),
# RDCC_MULTI_DURATION [12] (seconds the multi-flow statistics cover),
# RDCC_MIN_UTIL_PCT [90] (% of the reference flow), RDCC_TIMELY_UTIL_PCT [75] (the same for timely), RDCC_MIN_JAIN [0.9], RDCC_RDCC_ALGOS [all
# four], RDCC_TRIALS [3], RDCC_PERF [1], RDCC_REF_ALGO [cubic] (the reference flow of each
# trial), RDCC_SERVED_PCT [80] (a trial whose reference got less than this % of the rate was not
# served by the path and is repeated), RDCC_REF_ONCE [0] (1: the reference measured once per
# flow count, for every law; the virtual-time bed), RDCC_MAX_ATTEMPTS [6] (attempts per check, served or not;
# none served = SKIP with the reason, never a pass; with RDCC_UNSERVED_FAILS=1, the virtual-time
# bed's setting, a failure: lib_tap.sh tap_unserved).
# One diagnostic per algorithm, for the harness's table (medians over the trials; retrans and p99
# from the first trial):
#   # RESULT algo=<name> mode=rdcc rate_mbit=<R> delay_us=<D> tput_mbit=<x> retrans=<n>
#            rtt_mean_us=<x> rtt_p99_us=<x> samples=<n> bound_us=<x> jain4=<x>
#            tput4_mbit=<x> rtt4_mean_us=<x> tput8_mbit=<x> rtt8_mean_us=<x> jain8=<x>
#            bound8_us=<x>

case $0 in */*) RDCC_SELFTEST_DIR=${0%/*} ;; *) RDCC_SELFTEST_DIR=. ;; esac
: "${RDCC_RATE_MBIT:=50}"
: "${RDCC_DELAY_US:=2000}"
: "${RDCC_DURATION:=8}"
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"

: "${RDCC_FLOWS:=4}"
: "${RDCC_MANY:=8}"
: "${RDCC_MULTI_UTIL_PCT:=80}"
: "${RDCC_MANY_UTIL_PCT:=75}"
: "${RDCC_MANY_JAIN:=0.8}"
: "${RDCC_WARMUP:=5}"
: "${RDCC_MULTI_DURATION:=12}"
: "${RDCC_MIN_UTIL_PCT:=90}"
: "${RDCC_TIMELY_UTIL_PCT:=75}"
: "${RDCC_REF_ALGO:=cubic}"
: "${RDCC_SERVED_PCT:=80}"
: "${RDCC_MAX_ATTEMPTS:=6}"
: "${RDCC_MIN_JAIN:=0.9}"
: "${RDCC_RDCC_ALGOS:=swift swift_vaisf timely theta_powertcp}"
: "${RDCC_PERF:=1}"
: "${RDCC_REF_ONCE:=0}"

# ref_run LABEL N SERVED : run N reference flows (RDCC_REF_ALGO, RDCC_DURATION s; one flow
# without -P) and set ref to their goodput, Mbit/s. With RDCC_REF_ONCE=1 a served figure (at
# least SERVED Mbit/s) is kept for N flows and returned without a run on every later call.
ref_run() {
	local label="$1" n="$2" served="$3" kept
	if [ "$RDCC_REF_ONCE" = 1 ]; then
		eval "kept=\${ref_kept_$n:-}"
		if [ -n "$kept" ]; then
			ref=$kept
			tap_diag "reference for $n flow(s): $ref Mbit/s, measured once in this boot (RDCC_REF_ONCE=1)"
			return 0
		fi
	fi
	if [ "$n" = 1 ]; then
		rdcc_iperf_run "$label.ref" "$RDCC_RCV_IP4" "$RDCC_REF_ALGO" 0 -C "$RDCC_REF_ALGO" \
			-t "$RDCC_DURATION"
	else
		rdcc_iperf_run "$label.ref" "$RDCC_RCV_IP4" "$RDCC_REF_ALGO" 0 \
			-C "$RDCC_REF_ALGO" -P "$n" -t "$RDCC_DURATION"
	fi
	ref=$RDCC_R_TPUT
	if [ "$RDCC_REF_ONCE" = 1 ] && rdcc_fcmp "$ref" ">=" "$served"; then
		eval "ref_kept_$n=\$ref"
	fi
}

# Module parameters of the VM profile (see PROFILE above): profile_params NAME.
# shellcheck source=lib_profile.sh
. "$RDCC_SELFTEST_DIR/lib_profile.sh"

# RTT bound in us for $1 given the idle jitter J (us) in $2, the smallest smoothed RTT the
# run saw in $3 (us), the number of flows in $4 (default 1) and their total throughput in
# Mbit/s in $5 (default the path's rate).
rtt_bound_us() {
	local j="$2" base="$3" n="${4:-1}" tput="${5:-$RDCC_RATE_MBIT}"
	case $1 in
	# Swift's target grows by flow scaling as windows shrink, up to fs_range above the base.
	swift) rdcc_calc "6000 + 3000 + $j" ;;
	swift_vaisf) rdcc_calc "6000 + 4000 + $j" ;;
	timely) echo 12000 ;;
	# PowerTCP Thm. 1: n flows hold n * beta bytes (beta = R * 187.5 B: HostBw * 6 ms / 4),
	# n * beta * 8 / tput us at the rate the path served, on top of tau (6 ms) or the path's
	# loaded base RTT when TCG makes that larger. (tau * (1 + 1/n) would shrink the queue as
	# flows are added; the law's equilibrium queue grows with them.) The queue term has 25 %
	# headroom: a run's mean includes the start and the swing around the equilibrium (8 flows
	# measured 19.3 ms against an equilibrium of 19.4 ms, 2026-11-23), and a check a correct law
	# can fail by noise is a broken check; a law off its equilibrium misses by far more.
	theta_powertcp) rdcc_calc "($base > 6000 ? $base : 6000) + 1.25 * $n * $RDCC_RATE_MBIT * 1500 / ($tput > 0 ? $tput : $RDCC_RATE_MBIT) + $j" ;;
	esac
}

# Jain's index of the per-stream receiver rates in an iperf3 -J result (end.streams[].receiver).
jain_json() {
	awk '
	/"[A-Za-z_]+":[ \t]*\{/ { key = $0; sub(/^[ \t]*"/, "", key); sub(/".*/, "", key); next }
	/"bits_per_second":/ && key == "receiver" {
		v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/[ \t,]*$/, "", v)
		n++; s += v; q += v * v; rates = rates sprintf(" %.1f", v / 1e6)
	}
	END {
		if (n == 0 || q == 0) { printf "0 0 -\n"; exit }
		printf "%.4f %d%s\n", s * s / (n * q), n, rates
	}' "$1"
}

# rtt_within BOUND : the last run has ss samples and their mean RTT is at most BOUND (us).
rtt_within() {
	[ "$RDCC_R_SAMPLES" -gt 0 ] && rdcc_fcmp "$RDCC_R_RTT_MEAN" "<=" "$1"
}

# flows_check ALGO N JAIN PCT : two checks for N competing flows after RDCC_WARMUP seconds: together
# at least PCT % of what N reference flows got through the same path in the same
# trial and Jain's index at least JAIN; the mean `ss` RTT over every sample of every data socket
# after the warm-up within the law's bound for N flows (rtt_bound_us). Each trial runs the N
# reference flows first; a trial whose reference flows got less than RDCC_SERVED_PCT % of the
# rate together was not served by the path and is repeated (up to RDCC_MAX_ATTEMPTS); the median
# of the served trials decides, as in check 3. Sets fl_tput, fl_rtt, fl_jain and fl_bound
# (medians, or - when no trial was served) for the RESULT line.
flows_check() {
	local algo="$1" n="$2" min_jain="$3" pct="$4" t=1 attempts=0 unserved=0 ref j nf sum need bound
	local ok_t=0 bad_t=0 ok_r=0 bad_r=0 tputs="" rtts="" jains="" bounds="" refs=""
	local label served
	fl_tput=- fl_rtt=- fl_jain=- fl_bound=-
	served=$(rdcc_calc "$RDCC_RATE_MBIT * $RDCC_SERVED_PCT / 100")
	while [ "$t" -le "$RDCC_TRIALS" ] && [ "$attempts" -lt "$RDCC_MAX_ATTEMPTS" ]; do
		attempts=$((attempts + 1))
		label="$algo-$n.a$attempts"
		ref_run "$label" "$n" "$served"
		if ! rdcc_fcmp "$ref" ">=" "$served"; then
			unserved=$((unserved + 1))
			tap_diag "$algo: $n-flow attempt $attempts not served: reference $ref Mbit/s < $served; repeated"
			continue
		fi
		# Statistics over every data socket, after the warm-up (read by rdcc_ss_stats).
		RDCC_SS_SKIP_S=$RDCC_WARMUP RDCC_SS_ALL=1
		rdcc_iperf_run "$label" "$RDCC_RCV_IP4" "$algo" 1 -C "$algo" -P "$n" \
			-t $((RDCC_MULTI_DURATION + RDCC_WARMUP)) -O "$RDCC_WARMUP"
		RDCC_SS_SKIP_S=0 RDCC_SS_ALL=0
		# shellcheck disable=SC2046 # split into index, count and rates on purpose
		set -- $(jain_json "$RDCC_TMP/$label.json")
		j=${1:-0} nf=${2:-0}
		shift 2 2>/dev/null
		sum=$RDCC_R_TPUT
		need=$(rdcc_calc "$ref * $pct / 100")
		bound=$(rtt_bound_us "$algo" "$J" "$RDCC_R_RTT_MIN" "$n" "$sum")
		tputs="$tputs $sum" rtts="$rtts $RDCC_R_RTT_MEAN" jains="$jains $j" bounds="$bounds $bound" refs="$refs $ref"
		if [ "$nf" -eq "$n" ] && rdcc_fcmp "$sum" ">=" "$need" && rdcc_fcmp "$j" ">=" "$min_jain"; then
			ok_t=$((ok_t + 1))
		else
			bad_t=$((bad_t + 1))
		fi
		if rtt_within "$bound"; then ok_r=$((ok_r + 1)); else bad_r=$((bad_r + 1)); fi
		tap_diag "$algo: trial $t: $n flows ($nf parsed): $sum Mbit/s (reference $ref, needs $need), Jain $j, Mbit/s:$*; mean RTT $RDCC_R_RTT_MEAN us over $RDCC_R_SAMPLES samples (bound $bound us), p99 $RDCC_R_RTT_P99 us, $RDCC_R_RETRANS retransmits"
		rdcc_decided "$ok_t" "$bad_t" && rdcc_decided "$ok_r" "$bad_r" && break
		t=$((t + 1))
	done
	if [ -z "$tputs" ]; then
		tap_unserved "$algo: $n flows reach ${pct}% of the reference, Jain >= $min_jain" "the path served none of $attempts attempts"
		tap_unserved "$algo: $n flows, mean ss RTT <= bound" "the path served none of $attempts attempts"
		return 0
	fi
	# shellcheck disable=SC2086 # word lists on purpose
	fl_tput=$(rdcc_median $tputs) fl_rtt=$(rdcc_median $rtts) fl_jain=$(rdcc_median $jains) fl_bound=$(rdcc_median $bounds)
	if rdcc_majority "$ok_t" "$bad_t"; then
		tap_ok "$algo: $n flows reach ${pct}% of the reference, Jain >= $min_jain (median $fl_tput Mbit/s of$tputs, reference$refs; Jain$jains; $unserved unserved)"
	else
		tap_not_ok "$algo: $n flows reach ${pct}% of the reference, Jain >= $min_jain (median $fl_tput Mbit/s of$tputs, reference$refs; Jain$jains; $unserved unserved)"
	fi
	if rdcc_majority "$ok_r" "$bad_r"; then
		tap_ok "$algo: $n flows, mean ss RTT <= bound (median $fl_rtt us of$rtts; bounds$bounds us)"
	else
		tap_not_ok "$algo: $n flows, mean ss RTT <= bound (median $fl_rtt us of$rtts; bounds$bounds us)"
	fi
}

N_ALGOS=$(echo "$RDCC_RDCC_ALGOS" | wc -w)
tap_header
# 5 functional checks per algorithm, 6 more with RDCC_PERF=1 (the default).
if [ "$RDCC_PERF" = 1 ]; then PER_ALGO=11; else PER_ALGO=5; fi
tap_plan $((3 + PER_ALGO * N_ALGOS))
require_root
rdcc_find_tools
# The values this test adds to lib.sh's (rdcc_check_env checks those).
cc_check_env() {
	local v rc=0
	for v in RDCC_FLOWS RDCC_MANY RDCC_WARMUP RDCC_MULTI_DURATION RDCC_MIN_UTIL_PCT RDCC_TIMELY_UTIL_PCT \
		RDCC_MULTI_UTIL_PCT RDCC_MANY_UTIL_PCT RDCC_SERVED_PCT RDCC_MAX_ATTEMPTS; do
		eval "_val=\${$v}"
		# shellcheck disable=SC2154 # _val is assigned by the eval above
		if ! rdcc_is_uint "$_val" || [ "$_val" -lt 1 ]; then
			tap_diag "$v='$_val' is not a positive integer"
			rc=1
		fi
	done
	return "$rc"
}

if rdcc_check_env && cc_check_env; then
	tap_ok "environment: root, iproute2, iperf3, valid RDCC_* values"
else
	tap_not_ok "environment: root, iproute2, iperf3, valid RDCC_* values"
	tap_bail "environment"
fi
if rdcc_topo_setup; then
	tap_ok "topology: htb ${RDCC_RATE_MBIT}mbit + netem ${RDCC_DELAY_US}us"
else
	tap_not_ok "topology: htb ${RDCC_RATE_MBIT}mbit + netem ${RDCC_DELAY_US}us"
	tap_bail "topology"
fi

# Idle jitter of the path under emulation: J = mean - min of 20 pings, in us.
J=$("$IP" netns exec "$RDCC_NS_SND" ping -c 20 -i 0.05 "$RDCC_RCV_IP4" 2>/dev/null |
	awk -F'[/ =]+' '/min\/avg\/max/ { printf "%.0f", ($(NF-2) - $(NF-3)) * 1000 }')
if rdcc_is_uint "${J:-x}"; then
	tap_ok "idle path measured: jitter J = $J us (ping mean - min)"
else
	tap_not_ok "idle path measured (ping)"
	J=0
fi

TRACEFS=/sys/kernel/tracing
[ -d "$TRACEFS/events" ] || TRACEFS=/sys/kernel/debug/tracing

for algo in $RDCC_RDCC_ALGOS; do
	tap_diag "---- $algo ----"
	mod="tcp_$algo"
	# ss_info=2: ss -ti shows the law's view (by default it shows no record; see rdcc_glue.c)
	params="$(profile_params "$algo") ss_info=2"
	rmmod "$mod" 2>/dev/null
	ko=""
	for d in $RDCC_MODULE_DIRS; do [ -f "$d/$mod.ko" ] && ko="$d/$mod.ko" && break; done
	# shellcheck disable=SC2086 # params is a word list
	if [ -n "$ko" ] && insmod "$ko" $params 2>"$RDCC_TMP/insmod.err" && rdcc_cc_available "$algo"; then
		tap_ok "$algo: insmod with the VM profile ($params), listed as available"
	else
		tap_not_ok "$algo: insmod with the VM profile ($params), listed as available"
		tap_diag "module '$ko': $(tr '\n' ' ' <"$RDCC_TMP/insmod.err" 2>/dev/null)"
		k=2
		while [ "$k" -le "$PER_ALGO" ]; do
			tap_skip "$algo: check $k" "module not loaded"
			k=$((k + 1))
		done
		continue
	fi

	# 2. unload refused while in use, allowed after.
	rdcc_server_start || tap_diag "iperf3 server not running"
	"$IP" netns exec "$RDCC_NS_SND" "$IPERF3" -c "$RDCC_RCV_IP4" -p "$RDCC_PORT" -C "$algo" -t 3 \
		>/dev/null 2>&1 &
	busy_pid=$!
	rdcc_track "$busy_pid"
	sleep 1
	if rmmod "$mod" 2>"$RDCC_TMP/rmmod.err"; then
		busy="rmmod succeeded while in use"
	else
		busy=""
	fi
	wait "$busy_pid" 2>/dev/null
	rdcc_untrack "$busy_pid"
	sleep 1
	# shellcheck disable=SC2086
	if [ -z "$busy" ] && rmmod "$mod" 2>>"$RDCC_TMP/rmmod.err" && ! rdcc_cc_available "$algo" &&
		insmod "$ko" $params && rdcc_cc_available "$algo"; then
		tap_ok "$algo: rmmod refused while a socket uses it, succeeds after; reloaded"
	else
		tap_not_ok "$algo: rmmod refused while a socket uses it, succeeds after; reloaded"
		tap_diag "${busy:-}: $(tr '\n' ' ' <"$RDCC_TMP/rmmod.err")"
		# shellcheck disable=SC2086
		rdcc_cc_available "$algo" || insmod "$ko" $params
	fi

	# 3 + 5. one flow, with the tracepoint enabled on the first trial. Each performance trial
	# first runs a reference flow (RDCC_REF_ALGO, cubic) through the same path: the law is judged
	# against what the emulated path delivered just before, not against the configured rate. A
	# trial whose reference got less than RDCC_SERVED_PCT % of the rate is one the path could not
	# serve (a starved emulated CPU): it is repeated, not counted.
	ev="$TRACEFS/events/$mod/decision"
	[ -d "$ev" ] && echo 1 >"$ev/enable" && : >"$TRACEFS/trace"
	served_tput=$(rdcc_calc "$RDCC_RATE_MBIT * $RDCC_SERVED_PCT / 100")
	min_pct=$(profile_min_util_pct "$algo")
	tputs="" refs="" rtts="" bounds="" tp_ok=0 tp_bad=0 rtt_ok=0 rtt_bad=0 t=1 attempts=0 unserved=0
	while [ "$t" -le "$RDCC_TRIALS" ] && [ "$attempts" -lt "$RDCC_MAX_ATTEMPTS" ]; do
		attempts=$((attempts + 1))
		label="$algo-1"
		[ "$attempts" -gt 1 ] && label="$algo-1.a$attempts"
		ref=-
		if [ "$RDCC_PERF" = 1 ]; then
			ref_run "$label" 1 "$served_tput"
		fi
		rdcc_iperf_run "$label" "$RDCC_RCV_IP4" "$algo" 1 -C "$algo" -t "$RDCC_DURATION"
		rdcc_iperf_diag
		if [ "$attempts" = 1 ]; then
			[ -d "$ev" ] && echo 0 >"$ev/enable"
			res_retr=$RDCC_R_RETRANS res_p99=$RDCC_R_RTT_P99 res_n=$RDCC_R_SAMPLES
		fi
		[ "$RDCC_PERF" = 1 ] || break
		if ! rdcc_fcmp "$ref" ">=" "$served_tput"; then
			unserved=$((unserved + 1))
			tap_diag "$algo: attempt $attempts not served: reference $RDCC_REF_ALGO $ref Mbit/s < $served_tput (the path, not the law); repeated"
			continue
		fi
		min_tput=$(rdcc_calc "$ref * $min_pct / 100")
		bound=$(rtt_bound_us "$algo" "$J" "$RDCC_R_RTT_MIN" 1 "$RDCC_R_TPUT")
		tputs="$tputs $RDCC_R_TPUT" refs="$refs $ref" rtts="$rtts $RDCC_R_RTT_MEAN" bounds="$bounds $bound"
		if rdcc_fcmp "$RDCC_R_TPUT" ">=" "$min_tput"; then tp_ok=$((tp_ok + 1)); else tp_bad=$((tp_bad + 1)); fi
		if rtt_within "$bound"; then rtt_ok=$((rtt_ok + 1)); else rtt_bad=$((rtt_bad + 1)); fi
		tap_diag "$algo: trial $t: $RDCC_R_TPUT Mbit/s (reference $RDCC_REF_ALGO $ref, needs $min_tput), mean RTT $RDCC_R_RTT_MEAN us (bound $bound us)"
		rdcc_decided "$tp_ok" "$tp_bad" && rdcc_decided "$rtt_ok" "$rtt_bad" && break
		t=$((t + 1))
	done
	res_tput=$RDCC_R_TPUT res_mean=$RDCC_R_RTT_MEAN
	if [ "$RDCC_PERF" = 1 ] && [ -z "$tputs" ]; then
		# No attempt was served: the path, not the law, failed; say so without a verdict.
		res_tput=- res_mean=-
		bound=$(rtt_bound_us "$algo" "$J" 0)
		tap_unserved "$algo: one flow reaches ${min_pct}% of the reference flow" "the path served none of $attempts attempts (reference < $served_tput Mbit/s)"
		tap_unserved "$algo: mean ss RTT <= bound" "the path served none of $attempts attempts"
	elif [ "$RDCC_PERF" = 1 ]; then
		# shellcheck disable=SC2086 # word lists on purpose
		res_tput=$(rdcc_median $tputs) res_mean=$(rdcc_median $rtts) bound=$(rdcc_median $bounds)
		if rdcc_majority "$tp_ok" "$tp_bad"; then
			tap_ok "$algo: one flow reaches ${min_pct}% of the reference flow (median $res_tput of$tputs; reference$refs; $unserved unserved)"
		else
			tap_not_ok "$algo: one flow reaches ${min_pct}% of the reference flow (median $res_tput of$tputs; reference$refs; $unserved unserved)"
		fi
		if rdcc_majority "$rtt_ok" "$rtt_bad"; then
			tap_ok "$algo: mean ss RTT <= bound (median $res_mean us of$rtts; bounds$bounds us)"
		else
			tap_not_ok "$algo: mean ss RTT <= bound (median $res_mean us of$rtts; bounds$bounds us)"
		fi
	else
		bound=$(rtt_bound_us "$algo" "$J" "$RDCC_R_RTT_MIN")
	fi
	# 4. get_info record on the data socket, asked during a flow of its own that lasts until the
	# answer is in (rdcc_flow_start): the trial's sampler can miss a short flow on a slow guest.
	: >"$RDCC_TMP/$algo-info.ss"
	if rdcc_flow_start "$algo"; then
		"$SS" -N "$RDCC_NS_SND" -tinH state established "( dport = :$RDCC_PORT )" \
			>"$RDCC_TMP/$algo-info.ss" 2>&1
	fi
	rdcc_flow_stop
	if grep -q 'bbr:(bw:' "$RDCC_TMP/$algo-info.ss"; then
		tap_ok "$algo: ss -ti shows the module's info record"
		tap_diag "$(grep -o 'bbr:([^)]*)' "$RDCC_TMP/$algo-info.ss" | tail -n 1)"
	else
		tap_not_ok "$algo: ss -ti shows the module's info record"
		tap_diag_file "$RDCC_TMP/$algo-info.ss" 6
	fi
	ntrace=$(grep -c "decision:" "$TRACEFS/trace" 2>/dev/null)
	if [ "${ntrace:-0}" -gt 0 ]; then
		tap_ok "$algo: tracepoint $mod:decision fired ($ntrace events)"
		tap_diag "$(grep "decision:" "$TRACEFS/trace" | tail -n 1 | sed 's/^ *//')"
	else
		tap_not_ok "$algo: tracepoint $mod:decision fired"
	fi
	: >"$TRACEFS/trace" 2>/dev/null

	# 6 + 8. competing flows, judged against as many reference flows in the same trial.
	jain=- f4_tput=- f4_rtt=- many_tput=- many_rtt=- many_jain=- many_bound=-
	if [ "$RDCC_PERF" = 1 ]; then
		flows_check "$algo" "$RDCC_FLOWS" "$RDCC_MIN_JAIN" "$RDCC_MULTI_UTIL_PCT"
		jain=$fl_jain f4_tput=$fl_tput f4_rtt=$fl_rtt
		flows_check "$algo" "$RDCC_MANY" "$RDCC_MANY_JAIN" "$RDCC_MANY_UTIL_PCT"
		many_tput=$fl_tput many_rtt=$fl_rtt many_jain=$fl_jain many_bound=$fl_bound
	fi

	# 10. random loss: recovery, RTO and undo paths.
	"$TC" -n "$RDCC_BN_NS" qdisc change dev "$RDCC_BN_IF" parent 1:10 handle 10: \
		netem delay "${RDCC_DELAY_US}us" loss 1% limit "$RDCC_QLIMIT_PKTS" 2>/dev/null
	rdcc_iperf_run "$algo-loss" "$RDCC_RCV_IP4" "$algo" 0 -C "$algo" -t 4
	"$TC" -n "$RDCC_BN_NS" qdisc change dev "$RDCC_BN_IF" parent 1:10 handle 10: \
		netem delay "${RDCC_DELAY_US}us" limit "$RDCC_QLIMIT_PKTS" 2>/dev/null
	if [ "$RDCC_R_RC" = 0 ] && rdcc_fcmp "$RDCC_R_TPUT" ">" 0 && [ "$RDCC_R_RETRANS" -gt 0 ]; then
		tap_ok "$algo: with 1% loss the flow recovers ($RDCC_R_TPUT Mbit/s, $RDCC_R_RETRANS retransmits)"
	else
		tap_not_ok "$algo: with 1% loss the flow recovers ($RDCC_R_TPUT Mbit/s, $RDCC_R_RETRANS retransmits)"
	fi
	tap_diag "RESULT algo=$algo mode=rdcc rate_mbit=$RDCC_RATE_MBIT delay_us=$RDCC_DELAY_US tput_mbit=$res_tput retrans=$res_retr rtt_mean_us=$res_mean rtt_p99_us=$res_p99 samples=$res_n bound_us=$bound jain4=$jain tput4_mbit=$f4_tput rtt4_mean_us=$f4_rtt tput8_mbit=$many_tput rtt8_mean_us=$many_rtt jain8=$many_jain bound8_us=$many_bound"
done

tap_finish
