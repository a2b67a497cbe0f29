#!/bin/sh
# shellcheck shell=sh
# shellcheck source-path=SCRIPTDIR
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# _scenario.sh ENVFILE - run one VM experiment scenario (written by `cargo xtask run
# --scenario`, xtask/src/scenario.rs, which validated it) and send its raw data to the host.
# Not a selftest (the leading _ keeps `xtask test` from running it on its own).
#
# ENVFILE sets SCN_NAME, SCN_RATE_MBIT, SCN_DELAY_US, SCN_QLIMIT_PKTS, SCN_ECN_K_PKTS,
# SCN_LOSS_PCT, SCN_HOPS (routers in the chain; above 1 the receiver runs rxstamp), SCN_INT (1: the
# software INT switch and `rxstamp int` at both ends), SCN_DURATION_S, SCN_WARMUP_S, SCN_TRIALS, SCN_PASSES (algorithms),
# SCN_FLOWS ("algo:start_ms:t:secs" or "algo:start_ms:b:bytes", algo "under_test" = the pass's
# algorithm), SCN_REF (test runs: a reference algorithm; a pass "ref" of it runs first) and
# SCN_REF_FLOWS (that pass's flows, as SCN_FLOWS: one flow "REF:0:t:secs", or the scenario's
# own, under_test running the reference algorithm), SCN_PARAMS (profile: our modules take
# lib_profile.sh's parameters; defaults: their own) and SCN_SET_<algo> (more parameters).
#
# Path (lib.sh's three namespaces, or its chain of SCN_HOPS routers, then changed):
#   each router's egress to the receiver (the first one's is the bottleneck: the others
#   receive at most its rate): htb rate R -> pfifo limit L (drop-tail), or, with
#     SCN_ECN_K_PKTS = K > 0, a DCTCP-style step marker: fq_codel with one flow queue (a FIFO),
#     ce_threshold = the time R takes to send K full-size packets, CoDel's own dropping and
#     marking off (target 30 s, longer than any sojourn the queue limit allows), head drop of
#     one packet at the limit. Every ECT packet that waited longer than K packets' worth is
#     marked CE; non-ECT packets (SYNs, retransmissions, pure ACKs) pass unmarked and are
#     dropped only at the limit. RED with ecn, the obvious alternative, drops every non-ECT
#     packet above K: SYNs of flows starting into a busy queue were lost (flows started 1-11 s
#     late) and retransmissions were dropped again (5000 per flow), measured 2026-11-23.
#     The endpoints negotiate ECN (lib.sh sets net.ipv4.tcp_ecn=1 in both namespaces).
#   the first router's egress to the sender (ACKs): netem delay D, the whole base RTT, whatever
#     the hops. The base RTT is on the ACK direction so the bottleneck's backlog (sampled below)
#     is the queue alone, not netem's delay line; and at one place, because netem was measured
#     exact on this bed from 10 us only (a 20 us RTT over 3 hops would be 3.3 us per link).
#   SCN_INT = 1 (path.int): every router's queue is the software INT switch instead
#     (sch_rdcc_int: a drop-tail FIFO of SCN_QLIMIT_PKTS that appends its record at dequeue,
#     naming SCN_RATE_MBIT; lib_int.sh), and `rxstamp int` runs on a cgroup holding the sender
#     (a request in every data segment) and one holding the sink (the echo in its ACKs), so
#     tcp_powertcp and tcp_hpcc read the queues (Documentation/int-channel.md). Each trial's
#     qdisc.txt ends with the switch's and the pass's module's counters.
#   SCN_HOPS > 1 without SCN_INT: the receiver runs Swift's remote-delay channel (rxstamp attached to a cgroup
#     holding the sink; lib_rqd.sh), which echoes the TTL the data arrived with (64 - hops), so
#     tcp_swift's sender takes the hop count (Documentation/remote-delay.md); the decision
#     trace carries it (hops=) with the law's target (signal=).
#   sender egress: netem loss P% when SCN_LOSS_PCT > 0 (no delay: nothing is held, so TCP
#     Small Queues do not throttle the flows).
#
# Per trial, with the flows sent by one rdcc-flowgen sender to one rdcc-flowgen sink (flow i on
# port 5201 + i; flowgen/src/main.rs), the kernel's trace buffer records (clock "mono", one timeline):
#   tcp:tcp_probe   every ACK the senders receive (dport 5201-5299): snd_una, cwnd, srtt;
#   tcp_<ours>:decision  every decision of our laws: per-ACK RTT, window with its fraction,
#                   pacing rate;
#   (sampled when SCN_TRACE_SAMPLE_BITS = b > 0, which xtask sets for fast paths without sized
#   flows, scenario.rs `trace_sample_bits`: tcp_probe keeps the ACKs whose snd_una has bits
#   16..16+b-1 clear, one 64 KiB stretch of acknowledged sequence space in every 2^b; decision
#   keeps the events whose now_ns has bits 14..14+b-1 clear, 16.4 us of every 2^b x 16.4 us);
#   trace_marker    "rdccq <backlog bytes> <backlog pkts> <dropped> <marked>" every 100 ms
#                   from `tc -s qdisc`; from the sender, "rdcctrial start" when the trial's
#                   clock starts (every flow connected) and "rdccflow <i> start" when flow i
#                   is released.
# After the trial the trace is compacted (one short line per event), gzipped and sent with
# each flow's summary (the sender's line) over /dev/ttyS1, the harness's data channel, as frames:
#   RDCC-FILE <name> <bytes> <sha256>\n<bytes raw bytes>\nRDCC-FILE-END <name>\n
# The console gets one progress line per trial.

case $0 in */*) RDCC_SELFTEST_DIR=${0%/*} ;; *) RDCC_SELFTEST_DIR=. ;; esac
ENVFILE=${1:?usage: _scenario.sh ENVFILE}
# shellcheck source=/dev/null
. "$ENVFILE"
RDCC_RATE_MBIT=$SCN_RATE_MBIT
RDCC_DELAY_US=$SCN_DELAY_US
RDCC_QLIMIT_PKTS=$SCN_QLIMIT_PKTS
RDCC_GSO_MAX_SEGS=${SCN_GSO_MAX_SEGS:-}
RDCC_HOPS=${SCN_HOPS:-1}
# shellcheck source=lib.sh
. "$RDCC_SELFTEST_DIR/lib.sh"
# shellcheck source=lib_profile.sh
. "$RDCC_SELFTEST_DIR/lib_profile.sh"
# shellcheck source=lib_rqd.sh
. "$RDCC_SELFTEST_DIR/lib_rqd.sh"

T=/sys/kernel/tracing
[ -d "$T/events" ] || T=/sys/kernel/debug/tracing
# The data channel: the QEMU guest's second serial port, or the host file a UML guest appends
# to over hostfs (xtask/src/uml.rs `uml_cmd` names it in RDCC_DATA_OUT).
DATA=${RDCC_DATA_OUT:-/dev/ttyS1}
OURS=" swift swift_vaisf timely theta_powertcp powertcp hpcc "
: "${SCN_INT:=0}"
# Swift's receiver channel on a multi-hop path without INT (xtask/src/path.rs receiver_channel).
RQD_ON=0
[ "$RDCC_HOPS" -gt 1 ] && [ "$SCN_INT" != 1 ] && RQD_ON=1
# The INT ends' cgroups and pins (SCN_INT = 1).
CG_INT_SND=/sys/fs/cgroup/rdcc_scn_int_snd
CG_INT_RCV=/sys/fs/cgroup/rdcc_scn_int_rcv
PIN_INT_SND=/sys/fs/bpf/rdcc_scn_int_snd
PIN_INT_RCV=/sys/fs/bpf/rdcc_scn_int_rcv

say() { printf 'RDCC-SCN %s: %s\n' "$SCN_NAME" "$*"; }
fail() {
	say "FAILED: $*"
	exit 1
}

# send NAME FILE : one frame on the data channel (fd 3).
send() {
	local sz sum
	sz=$(wc -c <"$2")
	sum=$(sha256sum "$2" | cut -d' ' -f1)
	printf 'RDCC-FILE %s %s %s\n' "$1" "$sz" "$sum" >&3
	cat "$2" >&3
	printf '\nRDCC-FILE-END %s\n' "$1" >&3
}

require_root
rdcc_find_tools
rdcc_check_env >/dev/null || fail "environment (iproute2, iperf3)"
FLOWGEN=$(command -v rdcc-flowgen) || fail "rdcc-flowgen not on PATH (cargo xtask builds it: xtask/src/bins.rs)"
if [ -n "${RDCC_DATA_OUT:-}" ]; then
	[ -f "$DATA" ] || fail "no data channel file $DATA"
	exec 3>>"$DATA"
else
	[ -c "$DATA" ] || fail "no data channel $DATA"
	stty -F "$DATA" raw -echo 2>/dev/null || fail "stty raw $DATA"
	exec 3>"$DATA"
fi

rdcc_topo_setup >"$RDCC_TMP/topo.log" 2>&1 || {
	cat "$RDCC_TMP/topo.log"
	fail "topology"
}
BN="$TC -n $RDCC_BN_NS"
# leaf NS DEV : the queue under a router's HTB class (every hop the same discipline).
leaf() {
	"$TC" -n "$1" qdisc del dev "$2" parent 1:10 handle 10: 2>/dev/null
	if [ "$SCN_ECN_K_PKTS" -gt 0 ]; then
		# K packets of 1514 bytes at R Mbit/s take K * 1514 * 8 / R us (rounded up).
		ce_us=$(((SCN_ECN_K_PKTS * 1514 * 8 + SCN_RATE_MBIT - 1) / SCN_RATE_MBIT))
		"$TC" -n "$1" qdisc add dev "$2" parent 1:10 handle 10: fq_codel \
			limit "$SCN_QLIMIT_PKTS" flows 1 target 30s interval 100s ce_threshold "${ce_us}us" \
			drop_batch 1 ecn 2>"$RDCC_TMP/tc.err" ||
			fail "fq_codel ce_threshold on $1 $2: $(cat "$RDCC_TMP/tc.err")"
	else
		"$TC" -n "$1" qdisc add dev "$2" parent 1:10 handle 10: pfifo limit "$SCN_QLIMIT_PKTS" ||
			fail "pfifo on $1 $2"
	fi
}
if [ "$SCN_INT" = 1 ]; then
	# xtask refused ECN marking with INT (path.rs): the INT switch is a drop-tail FIFO.
	rdcc_int_switch_load "$SCN_RATE_MBIT" "$SCN_QLIMIT_PKTS" >/dev/null ||
		fail "sch_rdcc_int: $(cat "$RDCC_TMP/insmod.err")"
	rdcc_int_leaves || fail "rdcc_int leaves: $(tail -n 3 "$RDCC_TMP/tc.log")"
else
	for eg in $RDCC_CHAIN_EGRESS; do leaf "${eg%%:*}" "${eg#*:}"; done
fi
if [ "$SCN_DELAY_US" -gt 0 ]; then
	$BN qdisc add dev "$RDCC_SW_SND_IF" root netem delay "${SCN_DELAY_US}us" limit 100000 ||
		fail "netem delay on the ACK path"
fi
if [ "$SCN_LOSS_PCT" != 0 ]; then
	"$TC" -n "$RDCC_NS_SND" qdisc add dev "$RDCC_SND_IF" root netem loss "${SCN_LOSS_PCT}%" ||
		fail "netem loss"
fi
if [ "$RQD_ON" = 1 ]; then
	# The receiver channel: rxstamp's programs on a cgroup that will hold the sink (run_trial).
	[ -n "$RXSTAMP" ] || fail "rxstamp not on PATH (cargo xtask builds it: xtask/src/bins.rs)"
	mkdir -p "$CG" || fail "cgroup $CG"
	# shellcheck disable=SC2154 # rc is assigned inside the trap
	trap 'rc=$?; rqd_cleanup; (exit $rc); rdcc_on_exit' EXIT
	# shellcheck disable=SC2086 # RQD_ALLOW is a word list
	"$RXSTAMP" attach "$CG" --pin "$PIN" $RQD_ALLOW >"$RDCC_TMP/attach.log" 2>&1 ||
		fail "rxstamp attach: $(cat "$RDCC_TMP/attach.log")"
fi
if [ "$SCN_INT" = 1 ]; then
	# The INT ends: the sender's cgroup writes requests towards the receiver, the sink's echoes
	# the stacks back to the sender (run_trial moves the two processes in).
	[ -n "$RXSTAMP" ] || fail "rxstamp not on PATH (cargo xtask builds it: xtask/src/bins.rs)"
	mkdir -p "$CG_INT_SND" "$CG_INT_RCV" || fail "cgroups $CG_INT_SND $CG_INT_RCV"
	# shellcheck disable=SC2154 # rc is assigned inside the trap
	trap 'rc=$?; rdcc_int_ends_detach "$CG_INT_SND" "$PIN_INT_SND" "$CG_INT_RCV" "$PIN_INT_RCV"; (exit $rc); rdcc_on_exit' EXIT
	if ! "$RXSTAMP" int attach "$CG_INT_SND" --pin "$PIN_INT_SND" --allow "$RDCC_RCV_IP4/32" \
		>"$RDCC_TMP/attach.log" 2>&1 ||
		! "$RXSTAMP" int attach "$CG_INT_RCV" --pin "$PIN_INT_RCV" --allow "$RDCC_SND_IP4/32" \
			>>"$RDCC_TMP/attach.log" 2>&1; then
		fail "rxstamp int attach: $(cat "$RDCC_TMP/attach.log")"
	fi
fi
# The cgroups the trial's sink and sender run in ("": none).
SINK_CG="" SEND_CG=""
[ "$RQD_ON" = 1 ] && SINK_CG=$CG
[ "$SCN_INT" = 1 ] && SINK_CG=$CG_INT_RCV SEND_CG=$CG_INT_SND
# The idle path's RTT, as a packet sees it (ICMP echo: no queue, no TCP).
ping_rtt=$("$IP" netns exec "$RDCC_NS_SND" ping -c 10 -i 0.01 "$RDCC_RCV_IP4" 2>&1 | tail -n 1)
say "path: $RDCC_HOPS hop(s): $(for eg in $RDCC_CHAIN_EGRESS; do "$TC" -n "${eg%%:*}" qdisc show dev "${eg#*:}" | tr '\n' ';'; done) ack path: $($BN qdisc show dev "$RDCC_SW_SND_IF" | tr '\n' ';') idle ping: $ping_rtt"

# Trace buffer: 16 MiB per CPU holds ~100 k tcp_probe events (a 12 s trial at 50 Mbit/s with an
# ACK per segment is ~52 k). Faster paths get 16 KiB per Mbit/s and trial second: at 10 Gbit/s
# one swift flow's ACKs (GRO'd, ~12 segments each) came at 71 k/s, eight flows' at 250 k/s, a
# tcp_probe and a decision event each; 16 MiB held the first 0.78 s of one flow's 3 s trial,
# 120 MiB (4 KiB per Mbit/s and s) 406 k ACKs of eight, 240 MiB (12 KiB) lost 96 k events of
# eight swift flows' 2 s (UML, 2 GiB of memory). A trial that loses events fails (`lost_events`).
# Sampled (SCN_TRACE_SAMPLE_BITS = b), 2^(b-1) times less: half the sampling's saving, because
# flows that ACK every packet (VAI/SF's eight) send several times more events per Mbit/s than
# GRO'd ones (sampled one in eight, 40 MiB lost 14 k of VAI/SF's eight flows' events in 2 s).
: "${SCN_TRACE_SAMPLE_BITS:=0}"
shrink=$((SCN_TRACE_SAMPLE_BITS > 0 ? SCN_TRACE_SAMPLE_BITS - 1 : 0))
# At most 320 MiB (what 10 Gbit/s took for 2 s; UML's guest has 2 GiB): the events do not grow
# with the rate, the GSO batches do (sampled, one Swift flow left 10 k tcp_probe and 10 k
# decision events per second at 25 Gbit/s, 22 k and 21 k at 100 Gbit/s; 25 Gbit/s for 2 s asks
# 200 MiB, 100 Gbit/s 800 MiB, which this cap keeps from the guest's memory).
buf_kb=$((SCN_RATE_MBIT * SCN_DURATION_S * 16 >> shrink))
[ "$buf_kb" -lt 16384 ] && buf_kb=16384
[ "$buf_kb" -gt 327680 ] && buf_kb=327680
echo 0 >"$T/tracing_on"
echo mono >"$T/trace_clock" || fail "trace clock"
echo "$buf_kb" >"$T/buffer_size_kb" || fail "trace buffer ($buf_kb KiB)"
# The flows' ports: 5201 + i for flow i of a pass (or of its reference pass, whichever has more).
nflows=$(printf '%s\n%s\n' "$SCN_FLOWS" "$SCN_REF_FLOWS" | awk '{ if (NF > n) n = NF } END { print n + 0 }')
probe_filter="dport >= 5201 && dport < $((5201 + nflows))"
dec_filter=0
if [ "$SCN_TRACE_SAMPLE_BITS" -gt 0 ]; then
	probe_filter="$probe_filter && !(snd_una & $((((1 << SCN_TRACE_SAMPLE_BITS) - 1) << 16)))"
	dec_filter="!(now_ns & $((((1 << SCN_TRACE_SAMPLE_BITS) - 1) << 14)))"
fi
echo "$probe_filter" >"$T/events/tcp/tcp_probe/filter" || fail "tcp_probe filter ($probe_filter)"
echo 1 >"$T/events/tcp/tcp_probe/enable" || fail "tcp_probe (CONFIG_TRACEPOINTS)"

# Queue sampler: every 100 ms the bottleneck's backlog, drops and CE marks into the trace. One
# tc in batch mode (iproute2 6.1 runs each "qdisc show" line as it reads it; a tc that reads a
# line ahead would stamp each sample one period late) and one awk for the whole
# trial, at nice -19: a tc and an awk per sample gave 4 samples in 5 s with 16 iperf3 processes
# on a guest of a loaded host (at nice 0 the sampler gets 1/17 of a CPU), and reniced, those
# two execs per sample took 250-400 ms of CPU each time and held 17 flows' start back by 7 s.
qsampler() {
	local me _
	# (read is a builtin: /proc/self is this subshell; the pipeline below inherits its nice)
	read -r me _ </proc/self/stat
	renice -n -19 -p "$me" >/dev/null 2>&1
	while [ ! -e "$RDCC_TMP/qstop" ]; do
		# lo's noqueue line ends each sample (lib.sh brings lo up in every namespace; the
		# kernel does not dump a down device's noop qdisc, and no sample would be written)
		printf 'qdisc show dev %s\nqdisc show dev lo\n' "$RDCC_BN_IF"
		sleep 0.1
	done | $BN -s -b - 2>/dev/null | awk -v out="$T/trace_marker" '
		/^qdisc (noqueue|noop)/ {
			printf "rdccq %s %s %s %s\n", b + 0, p + 0, d + 0, m + 0 > out
			fflush(out)
			b = p = d = m = root = 0
			next
		}
		/^qdisc htb/ { root = 1; next }
		/^qdisc/ { root = 0; next }
		root && /dropped/ { d = $7; sub(/,/, "", d) }
		root && /backlog/ { b = $2; p = $3; sub(/b$/, "", b); sub(/p$/, "", p) }
		/ce_mark/ { for (i = 1; i < NF; i++) if ($i == "ce_mark") m = $(i + 1) }'
}

# lost_events : events the trace buffer lost since it was cleared (overrun or dropped, every CPU).
lost_events() {
	cat "$T"/per_cpu/cpu*/stats 2>/dev/null | awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }'
}

# compact < trace > lines: "P t_ns sport dport una_hex cwnd srtt_us ssthresh",
# "D t_ns sport dport rtt_ns cwnd_bytes pacing_bps signal hops", "Q t_ns bytes pkts drops marks",
# "F t_ns flow start", "T t_ns" (the trial's clock). t_ns from the trace's seconds.microseconds stamp.
compact() {
	awk '
	# (busybox awk reads a leading-zero string as octal: strip the zeros of the microseconds)
	function tns(s,   a, us) {
		sub(/:$/, "", s); split(s, a, "."); us = substr(a[2] "000000", 1, 6); sub(/^0+/, "", us)
		return a[1] * 1000000000 + (us + 0) * 1000
	}
	function port(s,   n, a) { n = split(s, a, ":"); return a[n] }
	function kv(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
	{
		for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) break
		if (i > NF) next
		t = tns($i); ev = $(i + 1)
		if (ev == "tcp_probe:") {
			printf "P %.0f %s %s %s %s %s %s\n", t, port(kv("src")), port(kv("dest")), kv("snd_una"), kv("snd_cwnd"), kv("srtt"), kv("ssthresh")
		} else if (ev == "decision:") {
			split($(i + 3), ad, ">")
			printf "D %.0f %s %s %s %s %s %s %s\n", t, port(ad[1]), port(ad[2]), kv("rtt_ns"), kv("cwnd_bytes"), kv("pacing"), kv("signal"), kv("hops")
		} else if (ev == "tracing_mark_write:") {
			if ($(i + 2) == "rdccq") printf "Q %.0f %s %s %s %s\n", t, $(i + 3), $(i + 4), $(i + 5), $(i + 6)
			else if ($(i + 2) == "rdccflow") printf "F %.0f %s %s\n", t, $(i + 3), $(i + 4)
			else if ($(i + 2) == "rdcctrial") printf "T %.0f\n", t
		}
	}'
}

# params ALGO : insmod parameters of our module tcp_ALGO: the VM profile's (lib_profile.sh) or
# none (SCN_PARAMS=defaults: the modules' own, the papers'), then the scenario's SCN_SET_ALGO.
params() {
	local set
	[ "${SCN_PARAMS:-profile}" = defaults ] || profile_params "$1"
	eval "set=\${SCN_SET_$1:-}"
	echo "$set"
}

# load ALGO : make ALGO available; our modules with the scenario's parameters (params).
load() {
	local ko="" d
	case $OURS in
	*" $1 "*)
		rmmod "tcp_$1" 2>/dev/null
		for d in $RDCC_MODULE_DIRS; do [ -f "$d/tcp_$1.ko" ] && ko="$d/tcp_$1.ko" && break; done
		# shellcheck disable=SC2046 # the parameters are a word list
		[ -n "$ko" ] && insmod "$ko" $(params "$1") ss_info=2 && rdcc_cc_available "$1"
		;;
	*) load_cc "$1" >/dev/null ;;
	esac
}

# How long a starved guest may take to start a trial's sink listening (16 iperf3 servers took up
# to 5 s under TCG), s; also the slack the sender and sink get past the trial.
SERVER_WAIT_S=60

# listening N : how many of ports 5201..5200+N listen in the receiver namespace.
listening() {
	"$SS" -N "$RDCC_NS_RCV" -ltnH 2>/dev/null | awk -v hi=$((5200 + $1)) '
		{ k = split($4, a, ":"); p = a[k] + 0 }
		p >= 5201 && p <= hi && !(p in seen) { seen[p] = 1; c++ }
		END { print c + 0 }'
}

# servers_listening N : wait (at most SERVER_WAIT_S) until ports 5201..5200+N all listen.
servers_listening() {
	local t=0
	while [ "$t" -lt $((SERVER_WAIT_S * 10)) ]; do
		[ "$(listening "$1")" -eq "$1" ] && return 0
		sleep 0.1
		t=$((t + 1))
	done
	return 1
}

# servers_gone : wait (at most 10 s) until no process is left in the receiver namespace.
servers_gone() {
	local t=0
	while [ -n "$("$IP" netns pids "$RDCC_NS_RCV" 2>/dev/null)" ]; do
		[ "$t" -ge 100 ] && return 1
		sleep 0.1
		t=$((t + 1))
	done
	return 0
}

# run_trial PASS ALGO K FLOWS : one trial; sends its files as <scenario>/<pass>/t<K>/...
run_trial() {
	local pass="$1" algo="$2" k="$3" flows="$4" i n f a st kind amt port p specs line dir wait_s seen
	dir="$RDCC_TMP/$pass-t$k"
	mkdir -p "$dir"
	echo 0 >"$T/tracing_on"
	: >"$T/trace"
	for a in $OURS; do
		[ -d "$T/events/tcp_$a/decision" ] || continue
		if [ "$a" = "$algo" ] || case " $flows " in *" $a:"*) true ;; *) false ;; esac; then
			echo "$dec_filter" >"$T/events/tcp_$a/decision/filter" ||
				fail "decision filter ($dec_filter)"
			echo 1 >"$T/events/tcp_$a/decision/enable"
		else
			echo 0 >"$T/events/tcp_$a/decision/enable"
		fi
	done
	# The previous trial's processes are gone: a server still exiting would hold its port and
	# the new one's bind would fail.
	servers_gone || fail "$pass trial $k: processes of the previous trial still in the receiver namespace"
	# The flows, resolved: "ALGO:START_MS:KIND:AMOUNT" each, flow i on port 5201 + i.
	specs=""
	n=0
	: >"$dir/flows.txt"
	for f in $flows; do
		a=${f%%:*} st=${f#*:} st=${st%%:*} kind=${f#*:*:} amt=${kind#*:} kind=${kind%%:*}
		[ "$a" = under_test ] && a=$algo
		[ "$a" = REF ] && a=$SCN_REF
		echo "$n $a $((5201 + n)) $st $kind $amt" >>"$dir/flows.txt"
		specs="$specs $a:$st:$kind:$amt"
		n=$((n + 1))
	done
	wait_s=$((SCN_DURATION_S + 30))
	# One sink for every flow (rdcc-flowgen, flowgen/src/main.rs): a listener per port with the
	# flow's algorithm (as iperf3's server had: a DCTCP sender negotiates ECN only with a
	# listener whose algorithm needs it), every one listening before the sender connects.
	# shellcheck disable=SC2086 # the flow specs are a word list
	# On a multi-hop path the sink runs in the cgroup rxstamp watches (its sockets' ACKs carry
	# the remote delay and the TTL); with INT in the one whose ACKs echo the stacks.
	# shellcheck disable=SC2016 # expanded by the inner sh
	sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs" || exit 1; shift; exec "$@"' rdcc_sink \
		"$SINK_CG" "$IP" netns exec "$RDCC_NS_RCV" "$FLOWGEN" sink \
		--port 5201 --timeout-s $((wait_s + SERVER_WAIT_S)) $specs >"$dir/sink.txt" 2>&1 &
	rdcc_track "$!"
	servers_listening "$n" || fail "$pass trial $k: $(listening "$n") of $n ports listening after ${SERVER_WAIT_S} s: $(head -c 300 "$dir/sink.txt")"
	rm -f "$RDCC_TMP/qstop"
	echo 1 >"$T/tracing_on"
	qsampler &
	rdcc_track "$!"
	# One sender for every flow: it connects them all (each with its algorithm), then marks
	# "rdcctrial start" and releases each flow at its start after that on CLOCK_MONOTONIC
	# (the trace's clock), marking "rdccflow I start". No process starts during the trial:
	# sixteen iperf3 clients starting at an incast's start stalled the other flows' senders on
	# the UML bed's one CPU (Documentation/results/uml_vs_sim.md, difference 2).
	# The trace marker as fd 4: `ip netns exec` mounts the namespace's own /sys, without tracefs;
	# /proc/self/fd/4 reopens the inherited file whatever the mounts.
	# With INT the sender runs in the cgroup whose data segments carry the request.
	# shellcheck disable=SC2086,SC2016 # the flow specs are a word list; expanded by the inner sh
	sh -c '[ -z "$1" ] || echo $$ >"$1/cgroup.procs" || exit 1; shift; exec "$@"' rdcc_send \
		"$SEND_CG" "$IP" netns exec "$RDCC_NS_SND" "$FLOWGEN" send --to "$RDCC_RCV_IP4" \
		--port 5201 --marker /proc/self/fd/4 --timeout-s "$wait_s" $specs \
		>"$dir/send.txt" 2>"$dir/send.err" 4>"$T/trace_marker" &
	p=$!
	rdcc_track "$p"
	# Wait for the sender: the last flow's start, the trial and its slack (then it is killed).
	i=0
	while rdcc_alive "$p" && [ "$i" -lt $(((wait_s + SERVER_WAIT_S) * 10)) ]; do
		sleep 0.1
		i=$((i + 1))
	done
	rdcc_alive "$p" && rdcc_kill "$p"
	: >"$RDCC_TMP/qstop"
	sleep 0.3
	echo 0 >"$T/tracing_on"
	# A full buffer keeps only part of the trial: the figures would be wrong, not just noisy.
	lost=$(lost_events)
	[ "$lost" -eq 0 ] || {
		say "FAILED: $pass trial $k: the trace buffer ($buf_kb KiB) lost $lost events"
		SCN_RC=1
	}
	# Per-flow summary: index algo port start_ms kind amount, then the sender's line for the
	# flow (rc tput sent retrans bytes cc [fct_us] err; flowgen/src/send.rs); a flow the sender
	# did not report (killed) gets rc=124.
	while read -r i a port st kind amt; do
		line=$(awk -v i="$i" '$1 == i { $1 = ""; sub(/^ /, ""); print; exit }' "$dir/send.txt")
		[ -n "$line" ] || line="rc=124 tput=0.0 sent=0.0 retrans=0 bytes=0 cc=- err=no result from rdcc-flowgen: $(head -c 200 "$dir/send.err" | tr '\n' ' ')"
		printf '%s %s %s %s %s %s %s\n' "$i" "$a" "$port" "$st" "$kind" "$amt" "$line"
	done <"$dir/flows.txt" >"$dir/summary.txt"
	compact <"$T/trace" | gzip -c >"$dir/trace.gz"
	{
		for eg in $RDCC_CHAIN_EGRESS; do
			echo "== $eg"
			"$TC" -n "${eg%%:*}" -s qdisc show dev "${eg#*:}"
		done
		if [ "$SCN_INT" = 1 ]; then
			# Cumulative since the module's load: the switch's stamps, the law's intake.
			echo "== $RDCC_INT_SWITCH counters"
			cat "/sys/module/$RDCC_INT_SWITCH/parameters/counters"
			seen=" "
			for a in $algo $flows; do
				a=${a%%:*}
				case $seen in *" $a "*) continue ;; esac
				seen="$seen$a "
				[ -r "/sys/module/tcp_$a/parameters/counters" ] || continue
				echo "== tcp_$a counters"
				cat "/sys/module/tcp_$a/parameters/counters"
			done
		fi
	} >"$dir/qdisc.txt" 2>&1
	send "$SCN_NAME/$pass/t$k/summary.txt" "$dir/summary.txt"
	send "$SCN_NAME/$pass/t$k/qdisc.txt" "$dir/qdisc.txt"
	send "$SCN_NAME/$pass/t$k/trace.gz" "$dir/trace.gz"
	say "$pass trial $k: $(awk '{ printf "%s ", $0 }' "$dir/summary.txt" | cut -c1-300)"
	# Kill leftover servers of this trial (a flow that never connected leaves one).
	"$IP" netns pids "$RDCC_NS_RCV" 2>/dev/null | while read -r p; do kill "$p" 2>/dev/null; done
	rm -rf "$dir"
}

if [ -n "$SCN_REF" ]; then
	load "$SCN_REF" || fail "reference algorithm $SCN_REF not available"
	[ -n "$SCN_REF_FLOWS" ] || fail "SCN_REF_FLOWS empty"
	for f in $SCN_REF_FLOWS; do
		a=${f%%:*}
		case $a in
		under_test | REF) ;;
		*) load "$a" || fail "flow algorithm $a not available" ;;
		esac
	done
	run_trial ref "$SCN_REF" 1 "$SCN_REF_FLOWS"
fi
for algo in $SCN_PASSES; do
	if ! load "$algo"; then
		say "pass $algo: algorithm not available: SKIPPED"
		continue
	fi
	for f in $SCN_FLOWS; do
		a=${f%%:*}
		[ "$a" = under_test ] || load "$a" || fail "flow algorithm $a not available"
	done
	k=1
	while [ "$k" -le "$SCN_TRIALS" ]; do
		run_trial "$algo" "$algo" "$k" "$SCN_FLOWS"
		k=$((k + 1))
	done
done
echo 0 >"$T/events/tcp/tcp_probe/enable"
printf 'RDCC-DATA-DONE %s\n' "$SCN_NAME" >&3
say "done"
exit "${SCN_RC:-0}"
