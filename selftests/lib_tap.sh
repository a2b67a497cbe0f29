# shellcheck shell=sh
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# selftests/lib_tap.sh - TAP output and small utilities of the rdcc selftests, sourced by lib.sh
# (see its API list). Not a test itself (the harness skips lib*). tap_finish calls lib.sh's
# rdcc_cleanup.

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

# tap_unserved DESC REASON : a check none of whose trials the path served (its reference flow
# got less than RDCC_SERVED_PCT % of the rate). Under TCG that is the host's load, not the law:
# a skip with the reason. With RDCC_UNSERVED_FAILS=1 (the UML bed in virtual time, where the
# path serves every trial whatever the host's load: xtask/src/test_plan.rs DEBUG_ENV) it fails.
tap_unserved() {
	if [ "${RDCC_UNSERVED_FAILS:-0}" = 1 ]; then
		tap_not_ok "$1 ($2; in virtual time the path serves every trial)"
	else
		tap_skip "$1" "$2"
	fi
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
