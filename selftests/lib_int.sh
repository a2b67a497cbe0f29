# shellcheck shell=sh
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# lib_int.sh - the software INT switch on lib.sh's path (issue #35; Documentation/int-channel.md):
# loading sch_rdcc_int and making it every router's egress queue. Sourced after lib.sh by the
# selftests of the INT channel and by _scenario.sh (a scenario's path.int).

RDCC_INT_SWITCH=sch_rdcc_int

# rdcc_int_switch_load RATE_MBIT LIMIT_PKTS : (re)load sch_rdcc_int with the rate its records
# name and its queue limit (the qdisc takes no netlink options: it reads these when created).
# Prints the module's path; insmod's complaint goes to $RDCC_TMP/insmod.err.
rdcc_int_switch_load() {
	local ko="" d
	for d in $RDCC_MODULE_DIRS; do
		[ -f "$d/$RDCC_INT_SWITCH.ko" ] && ko="$d/$RDCC_INT_SWITCH.ko" && break
	done
	if [ -z "$ko" ]; then
		echo "no $RDCC_INT_SWITCH.ko under $RDCC_MODULE_DIRS" >"$RDCC_TMP/insmod.err"
		return 1
	fi
	rmmod "$RDCC_INT_SWITCH" 2>/dev/null
	insmod "$ko" rate_mbit="$1" limit_pkts="$2" 2>"$RDCC_TMP/insmod.err" || return 1
	echo "$ko"
}

# rdcc_int_leaves : make rdcc_int the leaf under every router's HTB class towards the receiver
# (lib_topo.sh's RDCC_CHAIN_EGRESS), checked by `tc qdisc show`. A leaf of another kind cannot
# be replaced in place ("Invalid qdisc name"): it is deleted first. tc's output goes to
# $RDCC_TMP/tc.log.
rdcc_int_leaves() {
	local eg ns dev
	for eg in $RDCC_CHAIN_EGRESS; do
		ns=${eg%%:*} dev=${eg#*:}
		"$TC" -n "$ns" qdisc del dev "$dev" parent 1:10 handle 10: >>"$RDCC_TMP/tc.log" 2>&1
		"$TC" -n "$ns" qdisc add dev "$dev" parent 1:10 handle 10: rdcc_int >>"$RDCC_TMP/tc.log" 2>&1 ||
			return 1
		"$TC" -n "$ns" qdisc show dev "$dev" | grep -q '^qdisc rdcc_int 10: parent 1:10' || return 1
	done
}

# rdcc_int_ends_detach CG_SND PIN_SND CG_RCV PIN_RCV : detach `rxstamp int` from both cgroups,
# move what is left in them to the root and remove them (for exit traps: never fails).
rdcc_int_ends_detach() {
	local cg p
	echo $$ >/sys/fs/cgroup/cgroup.procs 2>/dev/null
	[ -d "$2" ] && "$RXSTAMP" int detach "$1" --pin "$2" >/dev/null 2>&1
	[ -d "$4" ] && "$RXSTAMP" int detach "$3" --pin "$4" >/dev/null 2>&1
	for cg in "$1" "$3"; do
		[ -d "$cg" ] || continue
		while read -r p; do echo "$p" >/sys/fs/cgroup/cgroup.procs 2>/dev/null; done <"$cg/cgroup.procs"
		rmdir "$cg" 2>/dev/null
	done
	return 0
}
