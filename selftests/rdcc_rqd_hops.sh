#!/bin/sh
# shellcheck shell=sh
#
# rdcc_rqd_hops.sh - Swift's remote-delay channel across a chain of three routers (TAP version 13
# on stdout): rdcc_rqd.sh with lib.sh's RDCC_HOPS=3, so its checks run over IPv4 and IPv6 through
# routes only the routers know, and check 5 wants the hop count the receiver's echoed TTL gives
# (61: 3 hops) in ss and in the tracepoint. Without the slow-receiver check (RDCC_RQD_SLOW=0: it
# is about the receiver, not the path, and rdcc_rqd.sh runs it where it runs at all).

case $0 in */*) RDCC_SELFTEST_DIR=${0%/*} ;; *) RDCC_SELFTEST_DIR=. ;; esac
RDCC_HOPS=3 RDCC_RQD_SLOW=0 exec sh "$RDCC_SELFTEST_DIR/rdcc_rqd.sh"
