# shellcheck shell=sh
#
# selftests/lib_profile.sh - module parameters of the rdcc laws for the VM path (sourced by
# rdcc_cc.sh and _scenario.sh). The derivation of every value is in rdcc_cc.sh (PROFILE);
# rate-dependent values use RDCC_RATE_MBIT.

# profile_params NAME : the insmod parameters of tcp_NAME for this path (empty for others).
profile_params() {
	case $1 in
	swift) echo "base_target_ns=6000000 fs_range_ns=3000000 fs_max_cwnd_pkts_q20=104857600" ;;
	swift_vaisf) echo "base_target_ns=6000000 base_ai_bps=62500 ai_cap=5 token_thresh_extra_ns=4000000 ai_div_ns=30000 init_cwnd_pkts_q20=52428800" ;;
	timely) echo "t_low_ns=4000000 t_high_ns=12000000 min_rtt_ns=10000000 line_rate_mbps=$RDCC_RATE_MBIT init_rate_mbps=$RDCC_RATE_MBIT delta_mbps=$(((RDCC_RATE_MBIT + 49) / 50)) min_rate_mbps=1" ;;
	theta_powertcp) echo "base_rtt_ns=6000000 host_bw_bps=$((RDCC_RATE_MBIT * 125000)) expected_flows=4 max_cwnd_bytes=$((RDCC_RATE_MBIT * 2000)) gradient_mode=1" ;;
	esac
}

# profile_min_util_pct NAME : the % of a reference flow that one flow of tcp_NAME must reach on
# this path (rdcc_cc.sh check 3): RDCC_MIN_UTIL_PCT, or RDCC_TIMELY_UTIL_PCT for the one law
# paced at exactly its capped rate with no window above it (rdcc_cc.sh says why).
profile_min_util_pct() {
	case $1 in
	timely) echo "$RDCC_TIMELY_UTIL_PCT" ;;
	*) echo "$RDCC_MIN_UTIL_PCT" ;;
	esac
}
