# shellcheck shell=sh
# shellcheck disable=SC3043 # 'local' is an ash/dash extension; the guest shell is busybox ash.
#
# selftests/lib_iperf.sh - lib.sh's traffic helpers: the iperf3 server in the receiver namespace, a
# flow that lasts until stopped, the `ss` sampler and its RTT statistics, the iperf3 client runs.
# Sourced by lib.sh, not on its own (it uses lib.sh's variables and helpers).

# ----------------------------------------------------------------------------------------------
# iperf3 server (receiver namespace)

rdcc_server_listening() {
	"$SS" -N "$RDCC_NS_RCV" -ltnH "( sport = :$RDCC_PORT )" 2>/dev/null | grep -q .
}

# rdcc_server_start : start `iperf3 -s` in the receiver namespace in the background, write its pid
# to $RDCC_TMP/iperf3-server.pid and wait (at most 5 s) until the port is listening.
rdcc_server_start() {
	local i=0
	if [ -n "$RDCC_SERVER_PID" ] && rdcc_alive "$RDCC_SERVER_PID" && rdcc_server_listening; then
		return 0
	fi
	[ -n "$RDCC_SERVER_PID" ] && rdcc_kill "$RDCC_SERVER_PID"
	"$IP" netns exec "$RDCC_NS_RCV" "$IPERF3" -s -p "$RDCC_PORT" \
		>>"$RDCC_TMP/iperf3-server.log" 2>&1 &
	RDCC_SERVER_PID=$!
	rdcc_track "$RDCC_SERVER_PID"
	echo "$RDCC_SERVER_PID" >"$RDCC_TMP/iperf3-server.pid"
	while [ "$i" -lt $((5 * RDCC_TICKS_PER_S)) ]; do
		if ! rdcc_alive "$RDCC_SERVER_PID"; then
			tap_diag "iperf3 server exited at start:"
			tap_diag_file "$RDCC_TMP/iperf3-server.log" 10
			return 1
		fi
		rdcc_server_listening && return 0
		sleep "$RDCC_TICK"
		i=$((i + 1))
	done
	tap_diag "iperf3 server not listening on port $RDCC_PORT after 5 s"
	return 1
}

rdcc_server_restart() {
	[ -n "$RDCC_SERVER_PID" ] && rdcc_kill "$RDCC_SERVER_PID"
	RDCC_SERVER_PID=""
	rdcc_server_start
}

# ----------------------------------------------------------------------------------------------
# a flow that lasts until it is stopped

# rdcc_flow_start ALGO [DST PORT] : an iperf3 client with -C ALGO to DST:PORT (default
# RDCC_RCV_IP4:RDCC_PORT) in the background (RDCC_FLOW_PID). It has no end of its own (-t of an
# hour): rdcc_flow_stop ends it, so a check made during the flow cannot find it over on a slow
# guest (a debug kernel moves a few Mbit/s under TCG). Returns 0 once the sender has an
# established connection to PORT carrying ALGO that has had RDCC_FLOW_ACKED bytes [1000000]
# acknowledged: the law has then taken decisions on hundreds of ACKs, however fast the guest.
# The wait is bounded by RDCC_FLOW_WAIT_S [120] only so that a broken path fails; nothing is
# decided by how long it took. Returns 1 (with diagnostics) otherwise.
: "${RDCC_FLOW_ACKED:=1000000}"
: "${RDCC_FLOW_WAIT_S:=120}"
RDCC_FLOW_PID=""
rdcc_flow_start() {
	local algo="$1" dst="${2:-$RDCC_RCV_IP4}" port="${3:-$RDCC_PORT}" i=0 acked
	"$IP" netns exec "$RDCC_NS_SND" "$IPERF3" -c "$dst" -p "$port" -C "$algo" -t 3600 \
		>"$RDCC_TMP/flow-$algo-$port.out" 2>&1 &
	RDCC_FLOW_PID=$!
	rdcc_track "$RDCC_FLOW_PID"
	while [ "$i" -lt $((RDCC_FLOW_WAIT_S * RDCC_TICKS_PER_S)) ]; do
		acked=$("$SS" -N "$RDCC_NS_SND" -tinH state established "( dport = :$port )" 2>/dev/null |
			awk -v a="$algo" '
				/^[^ \t]/ { next }
				{ mine = 0; b = 0
				  for (k = 1; k <= NF; k++) {
					if ($k == a) mine = 1
					if ($k ~ /^bytes_acked:/) { split($k, v, ":"); b = v[2] + 0 }
				  }
				  if (mine && b > m) m = b }
				END { printf "%d", m }')
		[ "${acked:-0}" -ge "$RDCC_FLOW_ACKED" ] && return 0
		rdcc_alive "$RDCC_FLOW_PID" || break
		sleep "$RDCC_TICK"
		i=$((i + 1))
	done
	tap_diag "no $algo connection to $dst port $port with $RDCC_FLOW_ACKED bytes acknowledged (${acked:-0} after $((i / RDCC_TICKS_PER_S)) s; client alive: $(rdcc_alive "$RDCC_FLOW_PID" && echo yes || echo no))"
	tap_diag_file "$RDCC_TMP/flow-$algo-$port.out" 5
	return 1
}

# rdcc_flow_stop : end the flow of rdcc_flow_start (if any).
rdcc_flow_stop() {
	rdcc_kill "$RDCC_FLOW_PID"
	RDCC_FLOW_PID=""
}

# ----------------------------------------------------------------------------------------------
# ss sampler

# rdcc_sampler OUT STOPFILE MAXITER : every RDCC_SAMPLE_MS ms append `ss -tin` of the sender's
# established connections to port RDCC_PORT to OUT, each sample headed by "@@ <n>". Stops when
# STOPFILE exists or after MAXITER samples. Run it in the background.
rdcc_sampler() {
	local out="$1" stop="$2" max="$3" i=0 period up _rest
	if [ "$RDCC_TICK" = 1 ]; then
		period=1
	else
		period=$(awk -v ms="$RDCC_SAMPLE_MS" 'BEGIN { printf "%.3f", ms / 1000 }')
	fi
	: >"$out"
	while [ "$i" -lt "$max" ] && [ ! -e "$stop" ]; do
		i=$((i + 1))
		# The sample's time (s since boot): ss itself takes long on a busy emulated guest, so
		# sample i is not at i * period.
		read -r up _rest </proc/uptime
		{
			printf '@@ %d %s\n' "$i" "$up"
			"$SS" -N "$RDCC_NS_SND" -tinH state established "( dport = :$RDCC_PORT )" 2>/dev/null
		} >>"$out"
		sleep "$period"
	done
}

# rdcc_ss_records SAMPLES : one line per (sample, socket): "sample lport alg rtt_us cwnd acked
# uptime_s" (the time the sample was taken; 0 when the sampler did not record it).
# ss prints per socket a header line (Recv-Q Send-Q Local Peer) and an indented info line:
# "[ts] [sack] [ecn] [ecnseen] [fastopen] <ca-name> wscale:.. rto:.. rtt:<srtt_ms>/<var> ..".
rdcc_ss_records() {
	awk '
	/^@@/ { smp = $2; up = ($3 == "") ? 0 : $3; have = 0; next }
	/^[^ \t]/ {
		loc = ($1 ~ /^[0-9]+$/) ? $3 : $4
		n = split(loc, a, ":"); lport = a[n]; have = 1; next
	}
	/^[ \t]/ {
		if (!have) next
		alg = ""; rtt = ""; cwnd = 0; acked = 0; colon = 0
		for (i = 1; i <= NF; i++) {
			t = $i
			if (t ~ /:/) colon = 1
			if (!colon && alg == "" && t ~ /^[A-Za-z_][A-Za-z0-9_]*$/ && t != "ts" &&
			    t != "sack" && t != "ecn" && t != "ecnseen" && t != "fastopen")
				alg = t
			if (t ~ /^rtt:/) { split(substr(t, 5), r, "/"); rtt = sprintf("%.1f", r[1] * 1000) }
			else if (t ~ /^cwnd:/) cwnd = substr(t, 6) + 0
			else if (t ~ /^bytes_acked:/) acked = substr(t, 13) + 0
		}
		if (alg == "") alg = "-"
		if (rtt != "") print smp, lport, alg, rtt, cwnd, acked, up
		have = 0
	}' "$1"
}

# rdcc_ss_stats RECORDS : pick the data socket (the local port with the most bytes acked; the
# iperf3 control connection carries a few hundred bytes) and print key=value statistics of its
# samples: dport, samples, rtt_mean, rtt_p99 (nearest rank: sorted[ceil(0.99 n)]), rtt_min,
# rtt_max, cwnd_mean, cwnd_max, algs (alg=count,... in order of first appearance), alg_first,
# alg_last and alg_changes (how often the algorithm differs from the previous sample's), acked
# (the most bytes acked the chosen socket showed: a few hundred when the sampler never caught the
# data socket and picked the iperf3 control connection).
# RDCC_SS_SKIP_S (0): samples taken less than this many seconds after the first sample are left
# out (a warm-up).
# RDCC_SS_ALL (0): 1 pools the samples of every data socket of a parallel run (each port that
# acked at least 1 % of the busiest one's bytes) instead of the busiest socket's alone.
rdcc_ss_stats() {
	awk -v skip="${RDCC_SS_SKIP_S:-0}" -v all="${RDCC_SS_ALL:-0}" '
	NR == 1 { t0 = $7 + 0 }
	$7 + 0 < t0 + skip { next }
	{ rec[++nr] = $0; if (!($2 in best) || $6 + 0 > best[$2]) best[$2] = $6 + 0 }
	END {
		dp = ""; bm = -1
		for (p in best) if (best[p] > bm) { bm = best[p]; dp = p }
		n = 0; s = 0; cs = 0; cm = 0; algs = ""; first = ""; last = ""; chg = 0
		for (j = 1; j <= nr; j++) {
			split(rec[j], f, " ")
			if (all == 1) { if (best[f[2]] * 100 < bm) continue }
			else if (f[2] != dp) continue
			n++; v = f[4] + 0; s += v; cs += f[5]; if (f[5] + 0 > cm) cm = f[5] + 0
			if (!(f[3] in ac)) order[++na] = f[3]
			ac[f[3]]++
			if (n == 1) first = f[3]; else if (f[3] != last) chg++
			last = f[3]
			# insertion sort (n is at most a few hundred)
			k = n - 1
			while (k >= 1 && r[k] > v) { r[k + 1] = r[k]; k-- }
			r[k + 1] = v
		}
		for (j = 1; j <= na; j++) algs = algs (j > 1 ? "," : "") order[j] "=" ac[order[j]]
		if (n == 0) {
			printf "dport=\nsamples=0\nrtt_mean=0.0\nrtt_p99=0.0\nrtt_min=0.0\nrtt_max=0.0\n"
			printf "cwnd_mean=0.0\ncwnd_max=0\nalgs=\nalg_first=\nalg_last=\nalg_changes=0\nacked=0\n"
			exit
		}
		k = int(0.99 * n); if (k < 0.99 * n) k++; if (k < 1) k = 1
		printf "dport=%s\nsamples=%d\nrtt_mean=%.1f\nrtt_p99=%.1f\n", dp, n, s / n, r[k]
		printf "rtt_min=%.1f\nrtt_max=%.1f\ncwnd_mean=%.1f\ncwnd_max=%d\nalgs=%s\n", \
			r[1], r[n], cs / n, cm, algs
		printf "alg_first=%s\nalg_last=%s\nalg_changes=%d\nacked=%d\n", first, last, chg, bm
	}' "$1"
}

# ----------------------------------------------------------------------------------------------
# iperf3 client

# rdcc_iperf_json FILE : key=value lines from iperf3 -J output: tput (sum_received Mbit/s),
# sent (sum_sent Mbit/s), retrans (sum_sent retransmits), bytes (sum_received bytes),
# cc (sender_tcp_congestion), err (the "error" string, if any).
rdcc_iperf_json() {
	awk '
	function val(s) { sub(/^[^:]*:[ \t]*/, "", s); sub(/[ \t]*,?[ \t]*$/, "", s); gsub(/"/, "", s); return s }
	/"[A-Za-z_]+":[ \t]*\{/ { key = $0; sub(/^[ \t]*"/, "", key); sub(/".*/, "", key); next }
	/"bits_per_second":/ {
		if (key == "sum_received" && rbps == "") rbps = val($0)
		if (key == "sum_sent" && sbps == "") sbps = val($0)
	}
	/"bytes":/ { if (key == "sum_received" && rbytes == "") rbytes = val($0) }
	/"retransmits":/ { if (key == "sum_sent" && retr == "") retr = val($0) }
	/"sender_tcp_congestion":/ { cc = val($0) }
	/^[ \t]*"error":/ { err = val($0) }
	END {
		printf "tput=%.1f\nsent=%.1f\nretrans=%d\nbytes=%.0f\n", rbps / 1e6, sbps / 1e6, retr, rbytes
		gsub(/[^A-Za-z0-9_]/, "", cc)
		printf "cc=%s\nerr=%s\n", cc, err
	}' "$1"
}

# rdcc_iperf_run LABEL DST ALGO SAMPLE IPERF3-ARGS... : run one iperf3 client in the sender
# namespace towards DST (port RDCC_PORT), with `-C ALGO` unless ALGO is empty (then the netns
# default applies), and the extra IPERF3-ARGS (e.g. -t 5 or -n 256K). With SAMPLE=1, ss is
# sampled in the background during the run. The client is killed after its -t plus
# RDCC_IPERF_SLACK seconds. Returns 0 if iperf3 exited 0, reported no error and moved data.
# Results (always set):
#   RDCC_R_RC (exit status; 124 = killed on timeout), RDCC_R_ERR (iperf3 error text),
#   RDCC_R_TPUT (receiver Mbit/s, %.1f), RDCC_R_SENT (sender Mbit/s), RDCC_R_RETRANS,
#   RDCC_R_BYTES (bytes received), RDCC_R_CC (iperf3's sender_tcp_congestion),
#   RDCC_R_SAMPLES, RDCC_R_RTT_MEAN, RDCC_R_RTT_P99, RDCC_R_RTT_MIN, RDCC_R_RTT_MAX (us),
#   RDCC_R_CWND_MEAN, RDCC_R_CWND_MAX (packets), RDCC_R_ALGS (ss algorithm counts on the data
#   socket, "name=count,..."), RDCC_R_ALG_FIRST / RDCC_R_ALG_LAST (algorithm of the first /
#   last sample), RDCC_R_ALG_CHANGES (algorithm changes between consecutive samples),
#   RDCC_R_DPORT (the data socket's local port), RDCC_R_SS_ACKED (bytes acked on that socket at
#   its last sample: a few hundred when the sampler only caught the control connection).
rdcc_iperf_run() {
	local label="$1" dst="$2" algo="$3" sample="$4" base pid spid i limit t=0 k v prev=""
	shift 4
	base="$RDCC_TMP/$label"
	RDCC_R_RC=1 RDCC_R_ERR="" RDCC_R_TPUT=0.0 RDCC_R_SENT=0.0 RDCC_R_RETRANS=0 RDCC_R_BYTES=0
	RDCC_R_CC="" RDCC_R_SAMPLES=0 RDCC_R_RTT_MEAN=0.0 RDCC_R_RTT_P99=0.0 RDCC_R_RTT_MIN=0.0
	RDCC_R_RTT_MAX=0.0 RDCC_R_CWND_MEAN=0.0 RDCC_R_CWND_MAX=0 RDCC_R_ALGS="" RDCC_R_DPORT=""
	RDCC_R_SS_ACKED=0 RDCC_R_ALG_FIRST="" RDCC_R_ALG_LAST="" RDCC_R_ALG_CHANGES=0

	if ! rdcc_server_start; then
		RDCC_R_ERR="iperf3 server not running"
		return 1
	fi
	# Deadline: the -t of the args (if any) plus the slack.
	for k in "$@"; do
		[ "$prev" = "-t" ] && rdcc_is_uint "$k" && t=$k
		prev=$k
	done
	limit=$(((t + RDCC_IPERF_SLACK) * RDCC_TICKS_PER_S))

	rm -f "$base.stop"
	if [ "$sample" = 1 ]; then
		rdcc_sampler "$base.ss" "$base.stop" $(((t + RDCC_IPERF_SLACK) * 1000 / RDCC_SAMPLE_MS + 1)) &
		spid=$!
		rdcc_track "$spid"
	fi
	if [ -n "$algo" ]; then
		"$IP" netns exec "$RDCC_NS_SND" "$IPERF3" -c "$dst" -p "$RDCC_PORT" -J -C "$algo" "$@" \
			>"$base.json" 2>"$base.err" &
	else
		"$IP" netns exec "$RDCC_NS_SND" "$IPERF3" -c "$dst" -p "$RDCC_PORT" -J "$@" \
			>"$base.json" 2>"$base.err" &
	fi
	pid=$!
	rdcc_track "$pid"
	i=0
	while rdcc_alive "$pid" && [ "$i" -lt "$limit" ]; do
		sleep "$RDCC_TICK"
		i=$((i + 1))
	done
	if rdcc_alive "$pid"; then
		tap_diag "iperf3 client still running after $((limit / RDCC_TICKS_PER_S)) s: killed"
		rdcc_kill "$pid"
		RDCC_R_RC=124
	else
		wait "$pid"
		RDCC_R_RC=$?
		rdcc_untrack "$pid"
	fi
	if [ "$sample" = 1 ]; then
		: >"$base.stop"
		i=0
		while rdcc_alive "$spid" && [ "$i" -lt $((3 * RDCC_TICKS_PER_S)) ]; do
			sleep "$RDCC_TICK"
			i=$((i + 1))
		done
		rdcc_kill "$spid"
		rdcc_ss_records "$base.ss" >"$base.rec"
		rdcc_ss_stats "$base.rec" >"$base.stats"
		while IFS='=' read -r k v; do
			case $k in
			dport) RDCC_R_DPORT=$v ;;
			samples) RDCC_R_SAMPLES=$v ;;
			rtt_mean) RDCC_R_RTT_MEAN=$v ;;
			rtt_p99) RDCC_R_RTT_P99=$v ;;
			rtt_min) RDCC_R_RTT_MIN=$v ;;
			rtt_max) RDCC_R_RTT_MAX=$v ;;
			cwnd_mean) RDCC_R_CWND_MEAN=$v ;;
			cwnd_max) RDCC_R_CWND_MAX=$v ;;
			algs) RDCC_R_ALGS=$v ;;
			alg_first) RDCC_R_ALG_FIRST=$v ;;
			alg_last) RDCC_R_ALG_LAST=$v ;;
			alg_changes) RDCC_R_ALG_CHANGES=$v ;;
			acked) RDCC_R_SS_ACKED=$v ;;
			esac
		done <"$base.stats"
	fi
	rdcc_iperf_json "$base.json" >"$base.kv"
	while IFS='=' read -r k v; do
		case $k in
		tput) RDCC_R_TPUT=$v ;;
		sent) RDCC_R_SENT=$v ;;
		retrans) RDCC_R_RETRANS=$v ;;
		bytes) RDCC_R_BYTES=$v ;;
		cc) RDCC_R_CC=$v ;;
		err) RDCC_R_ERR=$v ;;
		esac
	done <"$base.kv"
	if [ -z "$RDCC_R_ERR" ] && [ ! -s "$base.json" ]; then
		RDCC_R_ERR=$(head -n 1 "$base.err" 2>/dev/null)
		[ -n "$RDCC_R_ERR" ] || RDCC_R_ERR="no output from iperf3"
	fi
	if [ -n "$RDCC_ARTIFACT_DIR" ]; then
		mkdir -p "$RDCC_ARTIFACT_DIR" 2>/dev/null &&
			for k in json ss; do
				[ -f "$base.$k" ] && cp "$base.$k" "$RDCC_ARTIFACT_DIR/$label.$k" 2>/dev/null
			done
	fi
	if [ "$RDCC_R_RC" -ne 0 ] || [ -n "$RDCC_R_ERR" ] || [ "$RDCC_R_BYTES" -le 0 ]; then
		# The server may be stuck in the aborted test: start a fresh one for the next run.
		rdcc_server_restart >/dev/null 2>&1
		return 1
	fi
	return 0
}

# rdcc_iperf_diag : one diagnostic line describing the last rdcc_iperf_run.
rdcc_iperf_diag() {
	tap_diag "iperf3 rc=$RDCC_R_RC tput=${RDCC_R_TPUT}Mbit/s (sender ${RDCC_R_SENT}) retrans=$RDCC_R_RETRANS cc=${RDCC_R_CC:-?} ss[port ${RDCC_R_DPORT:-?}, $RDCC_R_SS_ACKED B acked]: algs=${RDCC_R_ALGS:-none} samples=$RDCC_R_SAMPLES rtt_us mean=$RDCC_R_RTT_MEAN p99=$RDCC_R_RTT_P99 min=$RDCC_R_RTT_MIN max=$RDCC_R_RTT_MAX cwnd mean=$RDCC_R_CWND_MEAN max=$RDCC_R_CWND_MAX"
	[ "$RDCC_R_ALG_CHANGES" -eq 0 ] ||
		tap_diag "ss: algorithm changed $RDCC_R_ALG_CHANGES time(s) on the data socket: first $RDCC_R_ALG_FIRST, last $RDCC_R_ALG_LAST"
	[ -z "$RDCC_R_ERR" ] || tap_diag "iperf3 error: $RDCC_R_ERR"
}
