#!/bin/sh
# shellcheck shell=sh
# shellcheck source-path=SCRIPTDIR
#
# _taint.sh - the product modules add no taint flag but the out-of-tree one (TAP version 13).
# Run by the harness after every other selftest and before the KUnit test module loads (whose
# suites would add TAINT_TEST); it compares /proc/sys/kernel/tainted with the value the job
# recorded at boot, before any module of ours was loaded (/tmp/rdcc-taint-boot). The leading
# underscore keeps it out of the harness's "every selftest" loop.
#
# Kernel taint bits (Documentation/admin-guide/tainted-kernels.rst): 12 O = out-of-tree module
# (expected), 13 E = unsigned module, 18 N = test module (KUnit), 9 W = a WARN, 7 D = an oops.

case $0 in */*) RDCC_SELFTEST_DIR=${0%/*} ;; *) RDCC_SELFTEST_DIR=. ;; esac
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"

tap_header
tap_plan 2
boot=$(cat /tmp/rdcc-taint-boot 2>/dev/null)
now=$(cat /proc/sys/kernel/tainted)
if rdcc_is_uint "${boot:-x}"; then
	tap_ok "taint recorded at boot: $boot"
else
	tap_not_ok "taint recorded at boot"
	boot=0
fi
added=$((now & ~boot))
other=$((added & ~4096))
tap_diag "tainted at boot $boot, now $now, added $added (bit 12 = O, out-of-tree, expected)"
if [ "$other" -eq 0 ]; then
	tap_ok "loading the product modules and running traffic added no taint but O (added: $added)"
else
	bits=""
	b=0
	while [ "$b" -lt 20 ]; do
		[ $((other >> b & 1)) -eq 1 ] && bits="$bits $b"
		b=$((b + 1))
	done
	tap_not_ok "loading the product modules and running traffic added no taint but O (other bits:$bits)"
fi
tap_finish
