//! The per-trial traces of a scenario run turned into per-flow time series (throughput per
//! 100 ms, per-ACK RTT, window with its fraction, pacing rate) and the queue's, and summarised
//! per trial; `outputs.rs` writes and plots them, `frames.rs` brings them out of the guest.

use crate::frames::Frame;
use crate::scenario::Scenario;
use rdcc_sim::stats;
use std::collections::BTreeMap;
use std::io::Read as _;

/// A flow of a trial, from the guest's summary line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FlowInfo {
    pub idx: usize,
    pub algo: String,
    pub port: u16,
    pub start_ms: u32,
    /// Bytes of a sized flow.
    pub size: Option<u64>,
    pub rc: i32,
    /// The sender's goodput: bytes the receiver confirmed over the flow's release to receipt.
    pub app_mbit: f64,
    pub retrans: u64,
    pub bytes: u64,
    /// A sized flow's completion time from the sender (rdcc-flowgen: release to the receiver's
    /// confirmation of every byte), us.
    pub fct_us: Option<f64>,
    pub err: String,
}

/// A `summary.txt` line the guest's runner did not write.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum SummaryError {
    /// Fewer than the six leading fields.
    #[error("summary: short line {0:?}")]
    Short(String),
    /// A numeric field that is not a number.
    #[error("summary: {word:?} in {line:?}")]
    NotANumber { word: String, line: String },
}

/// Parse `summary.txt`: `idx algo port start_ms t|b amount rc=N tput=X sent=X retrans=N bytes=N cc=X
/// [fct_us=X] err=...` (flowgen/src/send.rs `Outcome::line`).
pub fn parse_summary(text: &str) -> Result<Vec<FlowInfo>, SummaryError> {
    let mut v = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() < 6 {
            return Err(SummaryError::Short(line.to_string()));
        }
        let num = |s: &str| -> Result<u64, SummaryError> {
            s.parse().map_err(|_| SummaryError::NotANumber {
                word: s.to_string(),
                line: line.to_string(),
            })
        };
        let mut f = FlowInfo {
            idx: num(w[0])? as usize,
            algo: w[1].to_string(),
            port: num(w[2])? as u16,
            start_ms: num(w[3])? as u32,
            size: if w[4] == "b" { Some(num(w[5])?) } else { None },
            rc: -1,
            ..FlowInfo::default()
        };
        for kv in &w[6..] {
            let Some((k, val)) = kv.split_once('=') else {
                continue;
            };
            match k {
                "rc" => f.rc = val.parse().unwrap_or(-1),
                "tput" => f.app_mbit = val.parse().unwrap_or(0.0),
                "retrans" => f.retrans = val.parse().unwrap_or(0),
                "bytes" => f.bytes = val.parse().unwrap_or(0),
                "fct_us" => f.fct_us = val.parse().ok().filter(|v: &f64| v.is_finite()),
                "err" => f.err = line[line.find("err=").unwrap_or(0) + 4..].trim().into(),
                _ => {}
            }
        }
        v.push(f);
    }
    Ok(v)
}

/// One ACK of a flow's data socket (tcp:tcp_probe).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ack {
    pub t_s: f64,
    /// Bytes acknowledged since the socket's first event.
    pub acked: u64,
    pub cwnd_pkts: u32,
    pub srtt_us: u32,
}

/// One decision of our laws (`tcp_<name>:decision`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decision {
    pub t_s: f64,
    pub rtt_us: f64,
    /// Window in bytes, with its fraction (the law's Q16 value).
    pub cwnd_bytes: f64,
    pub pacing_mbit: f64,
    /// The law's signal (`signal=`: Swift's fabric target, ns; TIMELY's gradient, ...), when
    /// the trace has it.
    pub signal: Option<i64>,
    /// The hop count the law used (`hops=`), when the trace has it.
    pub hops: Option<u32>,
}

/// One queue sample (`tc -s qdisc` every 100 ms).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct QSample {
    pub t_s: f64,
    pub bytes: u64,
    pub pkts: u64,
    pub drops: u64,
    pub marks: u64,
}

/// A trial's series.
#[derive(Debug, Clone, Default)]
pub struct Trial {
    pub flows: Vec<FlowInfo>,
    /// Per flow index.
    pub acks: BTreeMap<usize, Vec<Ack>>,
    pub decisions: BTreeMap<usize, Vec<Decision>>,
    pub queue: Vec<QSample>,
    /// Per flow index: when the sender released the flow (`rdccflow <i> start`), s.
    pub launch_s: BTreeMap<usize, f64>,
    /// When the guest started the trial's clock, from which it times every flow's start
    /// ("rdcctrial start"), s; None in a trace without the marker.
    pub start_s: Option<f64>,
}

/// (server port, local port) of a socket.
type SocketKey = (u16, u16);
/// (t_ns, snd_una, cwnd packets, srtt us) of a tcp_probe line.
type RawAck = (u64, u32, u32, u32);
/// (t_ns, rtt us, cwnd bytes, pacing Mbit/s, signal, hops) of a decision line (the trace has
/// bytes/s).
type RawDecision = (u64, f64, f64, f64, Option<i64>, Option<u32>);

/// Parse the compacted trace (see `selftests/_scenario.sh`) against its flows. Times become
/// seconds since the trial's clock started (or the first ACK of any flow). Per flow (server
/// port), the data socket is the local port with the most bytes acknowledged (rdcc-flowgen
/// makes one connection per port; a trace of iperf3 flows also holds their control
/// connections, a few hundred bytes each).
pub fn parse_trace(text: &str, flows: Vec<FlowInfo>) -> Trial {
    let mut t0: Option<u64> = None;
    // (dport, sport) -> raw (t, una, cwnd, srtt)
    let mut raw: BTreeMap<SocketKey, Vec<RawAck>> = BTreeMap::new();
    let mut dec: BTreeMap<SocketKey, Vec<RawDecision>> = BTreeMap::new();
    let mut q = Vec::new();
    let mut launch: BTreeMap<usize, u64> = BTreeMap::new();
    let mut trial_start: Option<u64> = None;
    for line in text.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        let t: Option<u64> = w.get(1).and_then(|s| s.parse().ok());
        let Some(t) = t else { continue };
        let port = |i: usize| w.get(i).and_then(|s| s.parse::<u16>().ok());
        match w[0] {
            "F" => {
                t0 = Some(t0.map_or(t, |x| x.min(t)));
                if let Some(i) = w.get(2).and_then(|s| s.parse::<usize>().ok()) {
                    launch.entry(i).or_insert(t);
                }
            }
            "T" => {
                trial_start.get_or_insert(t);
            }
            "P" if w.len() >= 7 => {
                let (Some(sp), Some(dp)) = (port(2), port(3)) else {
                    continue;
                };
                let una = u32::from_str_radix(w[4].trim_start_matches("0x"), 16).unwrap_or(0);
                let cwnd = w[5].parse().unwrap_or(0);
                let srtt = w[6].parse().unwrap_or(0);
                raw.entry((dp, sp)).or_default().push((t, una, cwnd, srtt));
            }
            "D" if w.len() >= 7 => {
                let (Some(sp), Some(dp)) = (port(2), port(3)) else {
                    continue;
                };
                let rtt_ns: f64 = w[4].parse().unwrap_or(f64::NAN);
                let cwnd: f64 = w[5].parse().unwrap_or(f64::NAN);
                // sk_pacing_rate: bytes per second (the project's `_bps`).
                let pacing_bps: f64 = w[6].parse().unwrap_or(f64::NAN);
                dec.entry((dp, sp)).or_default().push((
                    t,
                    rtt_ns / 1e3,
                    cwnd,
                    pacing_bps * 8.0 / 1e6,
                    w.get(7).and_then(|x| x.parse().ok()),
                    w.get(8).and_then(|x| x.parse().ok()),
                ));
            }
            "Q" if w.len() >= 6 => {
                let n = |i: usize| w[i].parse::<u64>().unwrap_or(0);
                q.push((t, n(2), n(3), n(4), n(5)));
            }
            _ => {}
        }
    }
    // Time zero: the trial's clock (the sender's "rdcctrial start", written once every flow is
    // connected, so the flows' starts are offsets from it), else the first ACK of any flow.
    let t0 = trial_start
        .or_else(|| raw.values().filter_map(|v| v.first()).map(|x| x.0).min())
        .or(t0)
        .or_else(|| q.first().map(|x| x.0))
        .unwrap_or(0);
    let secs = |t: u64| (t as f64 - t0 as f64) / 1e9;
    let mut tr = Trial {
        queue: q
            .iter()
            .map(|&(t, b, p, d, m)| QSample {
                t_s: secs(t),
                bytes: b,
                pkts: p,
                drops: d,
                marks: m,
            })
            .collect(),
        launch_s: launch.iter().map(|(&i, &t)| (i, secs(t))).collect(),
        start_s: trial_start.map(secs),
        ..Trial::default()
    };
    for f in &flows {
        // The data socket of this flow's server port.
        let best = raw
            .iter()
            .filter(|((dp, _), _)| *dp == f.port)
            .max_by_key(|(_, v)| {
                let (a, b) = (v.first().map_or(0, |x| x.1), v.last().map_or(0, |x| x.1));
                b.wrapping_sub(a)
            })
            .map(|(k, v)| (*k, v));
        let Some((key, v)) = best else { continue };
        tr.acks.insert(f.idx, unwrap_acked(v, secs));
        if let Some(d) = dec.get(&key) {
            tr.decisions.insert(
                f.idx,
                d.iter()
                    .map(|&(t, rtt, cw, pr, signal, hops)| Decision {
                        t_s: secs(t),
                        rtt_us: rtt,
                        cwnd_bytes: cw,
                        pacing_mbit: pr,
                        signal,
                        hops,
                    })
                    .collect(),
            );
        }
    }
    tr.flows = flows;
    tr
}

/// A socket's ACKs with `snd_una` unwrapped into bytes acknowledged since its first event.
/// The 32-bit sequence space wraps every 4 GiB (1.4 s at 25 Gbit/s), so the count adds each
/// step from the previous event; a step of 2 GiB or more is `snd_una` going back (the trace's
/// events out of order), counted as none.
fn unwrap_acked(v: &[RawAck], secs: impl Fn(u64) -> f64) -> Vec<Ack> {
    let mut prev = v.first().map_or(0, |x| x.1);
    let mut acked = 0u64;
    v.iter()
        .map(|&(t, una, cwnd, srtt)| {
            let step = una.wrapping_sub(prev);
            if step < 1 << 31 {
                acked += u64::from(step);
                prev = una;
            }
            Ack {
                t_s: secs(t),
                acked,
                cwnd_pkts: cwnd,
                srtt_us: srtt,
            }
        })
        .collect()
}

/// Throughput per `bin_s` from cumulative acked bytes: (bin start, Mbit/s).
pub fn throughput_bins(acks: &[Ack], bin_s: f64) -> Vec<(f64, f64)> {
    let Some(last) = acks.last() else {
        return vec![];
    };
    let first_bin = (acks[0].t_s / bin_s).floor() as i64;
    let nbins = ((last.t_s / bin_s).floor() as i64 - first_bin + 1).max(0) as usize;
    let mut acked_at_end = vec![None; nbins];
    for a in acks {
        let i = ((a.t_s / bin_s).floor() as i64 - first_bin) as usize;
        acked_at_end[i] = Some(a.acked);
    }
    let mut prev = acks[0].acked;
    let mut out = Vec::with_capacity(nbins);
    for (i, v) in acked_at_end.iter().enumerate() {
        let cur = v.unwrap_or(prev);
        out.push((
            (first_bin + i as i64) as f64 * bin_s,
            (cur - prev) as f64 * 8.0 / bin_s / 1e6,
        ));
        prev = cur;
    }
    out
}

/// Goodput over [from_s, to_s], Mbit/s: bytes acknowledged in the window over its length.
pub fn goodput(acks: &[Ack], from_s: f64, to_s: f64) -> f64 {
    let at = |t: f64| {
        acks.iter()
            .take_while(|a| a.t_s <= t)
            .last()
            .map_or(0, |a| a.acked)
    };
    if to_s <= from_s {
        return 0.0;
    }
    (at(to_s) - at(from_s)) as f64 * 8.0 / (to_s - from_s) / 1e6
}

/// Completion time of a sized flow, s: from its first ACK back one smoothed RTT (the first
/// segment's send) to the ACK covering `size` bytes. None if that ACK was not traced:
/// tcp:tcp_probe fires only in the established state, so a flow whose application closed
/// before its last ACK arrived has no completion time. The fallback of [`flow_fct`] for a
/// sender that reported none.
pub fn fct(acks: &[Ack], size: u64) -> Option<f64> {
    let first = acks.first()?;
    // The data socket's first tcp_probe event is the first ACK of data.
    let done = acks.iter().find(|a| a.acked + 1 >= size)?;
    Some(done.t_s - first.t_s + first.srtt_us as f64 / 1e6)
}

/// A sized flow's completion time, s: the sender's own (release to the receiver's receipt of
/// every byte) where it reported one, else from the trace ([`fct`]).
pub fn flow_fct(f: &FlowInfo, acks: &[Ack]) -> Option<f64> {
    let size = f.size?;
    f.fct_us.map(|us| us / 1e6).or_else(|| fct(acks, size))
}

/// Per-trial figures of one pass.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TrialStats {
    pub tput_mbit: f64,
    pub per_flow_mbit: Vec<f64>,
    pub jain: Option<f64>,
    pub retrans: u64,
    pub srtt_p50_us: Option<f64>,
    pub srtt_p99_us: Option<f64>,
    pub rtt_p50_us: Option<f64>,
    pub rtt_p99_us: Option<f64>,
    pub queue_mean_pkts: Option<f64>,
    pub marks: u64,
    pub drops: u64,
    /// The sized flows' completion times, ms, and beside each its flow's size, bytes.
    pub fct_ms: Vec<f64>,
    pub fct_bytes: Vec<u64>,
    pub acks: usize,
    pub decisions: usize,
    /// Flows whose data began more than `LATE_START_S` after their launch: (flow, delay s).
    pub late_starts: Vec<(usize, f64)>,
}

/// A flow whose first ACK comes this long after its release started late: its connection was
/// made before the trial, so only a sender starved for this long (or a lost first segment's
/// RTO, 1 s before an RTT sample) explains it.
pub const LATE_START_S: f64 = 1.0;

/// The figures of a trial over [warmup_s, duration_s] (long flows) or whole (sized flows).
pub fn trial_stats(tr: &Trial, warmup_s: f64, duration_s: f64) -> TrialStats {
    let mut st = TrialStats::default();
    let mut srtts = Vec::new();
    let mut rtts = Vec::new();
    for f in &tr.flows {
        st.retrans += f.retrans;
        let acks = tr.acks.get(&f.idx).map(Vec::as_slice).unwrap_or(&[]);
        if let (Some(l), Some(a)) = (tr.launch_s.get(&f.idx), acks.first()) {
            if a.t_s - l > LATE_START_S {
                st.late_starts.push((f.idx, a.t_s - l));
            }
        }
        st.acks += acks.len();
        let in_win = |t: f64| t >= warmup_s && t <= duration_s;
        srtts.extend(
            acks.iter()
                .filter(|a| in_win(a.t_s))
                .map(|a| a.srtt_us as f64),
        );
        if let Some(d) = tr.decisions.get(&f.idx) {
            st.decisions += d.len();
            rtts.extend(d.iter().filter(|x| in_win(x.t_s)).map(|x| x.rtt_us));
        }
        match f.size {
            Some(size) => {
                if let Some(t) = flow_fct(f, acks) {
                    st.fct_ms.push(t * 1e3);
                    st.fct_bytes.push(size);
                }
            }
            None => {
                let from = warmup_s.max(f.start_ms as f64 / 1e3);
                let g = goodput(acks, from, duration_s);
                st.per_flow_mbit.push(g);
            }
        }
    }
    // Total: every byte acknowledged in the window, sized flows included.
    st.tput_mbit = tr
        .flows
        .iter()
        .map(|f| {
            let acks = tr.acks.get(&f.idx).map(Vec::as_slice).unwrap_or(&[]);
            goodput(acks, warmup_s, duration_s)
        })
        .sum();
    st.jain = stats::fairness(&st.per_flow_mbit);
    st.srtt_p50_us = stats::percentile(&srtts, 50.0);
    st.srtt_p99_us = stats::percentile(&srtts, 99.0);
    st.rtt_p50_us = stats::percentile(&rtts, 50.0);
    st.rtt_p99_us = stats::percentile(&rtts, 99.0);
    let qs: Vec<&QSample> = tr
        .queue
        .iter()
        .filter(|q| q.t_s >= warmup_s && q.t_s <= duration_s)
        .collect();
    if !qs.is_empty() {
        st.queue_mean_pkts = Some(qs.iter().map(|q| q.pkts as f64).sum::<f64>() / qs.len() as f64);
    }
    if let (Some(a), Some(b)) = (tr.queue.first(), tr.queue.last()) {
        st.marks = b.marks.saturating_sub(a.marks);
        st.drops = b.drops.saturating_sub(a.drops);
    }
    st
}

/// Median and spread of a figure over trials.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub n: usize,
}

/// Median (`rdcc_sim::stats`'s nearest rank: the lower middle value for even counts, a value
/// that was measured) with min and max; NaN and infinities ignored.
pub fn spread(vals: &[f64]) -> Option<Spread> {
    let mut v: Vec<f64> = vals.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(|a, b| a.total_cmp(b));
    Some(Spread {
        median: stats::percentile_sorted(&v, 50.0)?,
        min: v[0],
        max: v[v.len() - 1],
        n: v.len(),
    })
}

/// A pass: one algorithm's trials.
#[derive(Debug, Clone, Default)]
pub struct Pass {
    pub algo: String,
    pub trials: Vec<Trial>,
    pub stats: Vec<TrialStats>,
}

/// Group a scenario's frames into passes (`<scenario>/<pass>/t<k>/<file>`).
pub fn passes(
    sc: &Scenario,
    frames: &[Frame],
    warmup_s: f64,
    duration_s: f64,
) -> Result<Vec<Pass>, String> {
    let mut by: BTreeMap<(String, u32), BTreeMap<String, &[u8]>> = BTreeMap::new();
    let mut order: Vec<String> = Vec::new();
    for f in frames {
        let parts: Vec<&str> = f.name.split('/').collect();
        let [scn, pass, trial, file] = parts.as_slice() else {
            return Err(format!("data channel: unexpected file name {}", f.name));
        };
        if *scn != sc.name {
            continue;
        }
        let k: u32 = trial
            .strip_prefix('t')
            .and_then(|k| k.parse().ok())
            .ok_or_else(|| format!("data channel: bad trial in {}", f.name))?;
        if !order.iter().any(|p| p == pass) {
            order.push(pass.to_string());
        }
        by.entry((pass.to_string(), k))
            .or_default()
            .insert(file.to_string(), &f.data);
    }
    let mut out: Vec<Pass> = order
        .iter()
        .map(|p| Pass {
            algo: p.clone(),
            ..Pass::default()
        })
        .collect();
    for ((pass, k), files) in by {
        let get = |n: &str| {
            files
                .get(n)
                .copied()
                .ok_or_else(|| format!("{}/{pass}/t{k}: {n} missing", sc.name))
        };
        let flows = parse_summary(&String::from_utf8_lossy(get("summary.txt")?))
            .map_err(|e| e.to_string())?;
        let mut text = String::new();
        flate2::read::GzDecoder::new(get("trace.gz")?)
            .read_to_string(&mut text)
            .map_err(|e| format!("{}/{pass}/t{k}: trace.gz: {e}", sc.name))?;
        let tr = parse_trace(&text, flows);
        let st = trial_stats(&tr, warmup_s, duration_s);
        let p = out
            .iter_mut()
            .find(|p| p.algo == pass)
            .ok_or("pass order")?;
        p.trials.push(tr);
        p.stats.push(st);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_errors_name_the_line() {
        let e = parse_summary("0 swift 5201\n").unwrap_err();
        assert_eq!(e.to_string(), "summary: short line \"0 swift 5201\"");
        let e = parse_summary("0 swift x 0 t 10\n").unwrap_err();
        assert_eq!(e.to_string(), "summary: \"x\" in \"0 swift x 0 t 10\"");
    }

    #[test]
    fn trace_to_series() {
        let summary = "0 cubic 5201 0 t 8 rc=0 tput=40.0 sent=41.0 retrans=2 bytes=40000000 cc=cubic err=\n\
                       1 swift 5202 1000 b 3000 rc=0 tput=1.0 sent=1.0 retrans=0 bytes=3000 cc=swift fct_us=5500.0 err=\n";
        let flows = parse_summary(summary).unwrap();
        assert_eq!(flows[1].size, Some(3000));
        assert_eq!((flows[0].fct_us, flows[1].fct_us), (None, Some(5500.0)));
        assert_eq!(flows[1].err, "");
        assert_eq!(flows[0].retrans, 2);
        // Time zero = the trial marker, at 9.99 s (the first launch at 10 s, the first ACK at
        // 10.1 s); the control socket 40000 carries 100 bytes.
        let trace = "T 9990000000\n\
            F 10000000000 0 start\n\
            P 10100000000 40000 5201 0x10 10 3000 100\n\
            P 10200000000 40000 5201 0x74 10 3000 100\n\
            P 10100000000 40001 5201 0xfffffff0 10 3000 100\n\
            P 10150000000 40001 5201 0x00000010 12 3000 100\n\
            P 10250000000 40001 5201 0x00001010 14 3100 100\n\
            F 11000000000 1 start\n\
            P 11100000000 40002 5202 0x0 10 2000 100\n\
            P 11104000000 40002 5202 0xbb8 10 2000 100\n\
            D 11104000000 40002 5202 2500000 14480.5000 6250000\n\
            D 11105000000 40002 5202 2500000 14480.0000 6250000 28003 3\n\
            Q 10100000000 3000 2 0 1\n\
            Q 10200000000 6000 4 1 5\n";
        let tr = parse_trace(trace, flows);
        let a = &tr.acks[&0];
        assert_eq!(a.len(), 3, "the data socket (port 40001) is chosen");
        // una wrapped from 0xfffffff0 to 0x10: 32 bytes, then 4096 more.
        assert_eq!(a[1].acked, 32);
        assert_eq!(a[2].acked, 4128);
        assert!(
            (a[0].t_s - 0.11).abs() < 1e-9,
            "time zero is the trial's marker"
        );
        assert!(tr.start_s.unwrap().abs() < 1e-9, "{:?}", tr.start_s);
        assert!((tr.launch_s[&1] - 1.01).abs() < 1e-9, "{:?}", tr.launch_s);
        // Without the marker, time zero is the first ACK.
        let untimed = parse_trace(&trace.replace("T 9990000000\n", ""), tr.flows.clone());
        assert!(untimed.acks[&0][0].t_s.abs() < 1e-9);
        let d = &tr.decisions[&1];
        assert_eq!(d[0].rtt_us, 2500.0);
        assert_eq!(d[0].cwnd_bytes, 14480.5);
        assert_eq!(d[0].pacing_mbit, 50.0, "6,250,000 bytes/s is 50 Mbit/s");
        // More than 4 GiB acknowledged: snd_una wraps, the count goes on (steps of 1 GiB).
        let wrap: Vec<RawAck> = (0..9u64)
            .map(|i| (i, (0xf000_0000u64 + (i << 30)) as u32, 10, 20))
            .collect();
        let u = unwrap_acked(&wrap, |t| t as f64);
        assert_eq!(u.last().unwrap().acked, 8 << 30);
        // A step back is no progress, and what follows counts from where the count was.
        let back = [(0, 1000, 1, 1), (1, 900, 1, 1), (2, 2000, 1, 1)];
        let u = unwrap_acked(&back, |t| t as f64);
        assert_eq!(u.iter().map(|a| a.acked).collect::<Vec<_>>(), [0, 0, 1000]);
        // A trace before the signal and hops fields has neither; one with them, both.
        assert_eq!((d[0].signal, d[0].hops), (None, None));
        assert_eq!((d[1].signal, d[1].hops), (Some(28003), Some(3)));
        assert_eq!(tr.queue[1].marks, 5);
        // Flow 1: 3000 bytes acked 4 ms after its first ACK, whose sRTT was 2 ms: FCT 6 ms.
        let f = fct(&tr.acks[&1], 3000).unwrap();
        assert!((f - 0.006).abs() < 1e-9, "{f}");
        // The sender's own completion time wins; without it, the trace's.
        let st = trial_stats(&tr, 0.0, 8.0);
        assert_eq!(st.fct_ms, [5.5]);
        let mut no_app = tr.clone();
        no_app.flows[1].fct_us = None;
        let fb = trial_stats(&no_app, 0.0, 8.0).fct_ms;
        assert!(fb.len() == 1 && (fb[0] - 6.0).abs() < 1e-9, "{fb:?}");
        assert_eq!(st.marks, 4);
        assert_eq!(st.drops, 1);
        assert_eq!(st.retrans, 2);
        assert_eq!(st.rtt_p99_us, Some(2500.0));
        assert!(st.late_starts.is_empty(), "{:?}", st.late_starts);
    }

    /// A flow whose first ACK arrives 1.5 s after its launch (a lost SYN) is reported; one
    /// 0.9 s late and one that never moved data are not (the latter fails elsewhere).
    #[test]
    fn late_starts_are_reported() {
        let summary = "0 cubic 5201 0 t 8 rc=0 tput=1 sent=1 retrans=0 bytes=1 cc=cubic err=\n\
                       1 cubic 5202 0 t 8 rc=0 tput=1 sent=1 retrans=0 bytes=1 cc=cubic err=\n\
                       2 cubic 5203 0 t 8 rc=0 tput=1 sent=1 retrans=0 bytes=1 cc=cubic err=\n\
                       3 cubic 5204 0 t 8 rc=0 tput=1 sent=1 retrans=0 bytes=1 cc=cubic err=\n";
        let trace = "F 1000000000 0 start\n\
            F 1000000000 1 start\n\
            F 1000000000 2 start\n\
            F 1000000000 3 start\n\
            P 1100000000 40000 5201 0x0 10 3000 100\n\
            P 1900000000 40001 5202 0x0 10 3000 100\n\
            P 2500000000 40002 5203 0x0 10 3000 100\n";
        let tr = parse_trace(trace, parse_summary(summary).unwrap());
        let st = trial_stats(&tr, 0.0, 8.0);
        assert_eq!(st.late_starts.len(), 1, "{:?}", st.late_starts);
        assert_eq!(st.late_starts[0].0, 2);
        assert!((st.late_starts[0].1 - 1.5).abs() < 1e-9);
    }

    #[test]
    fn bins_percentiles_spread_jain() {
        let acks: Vec<Ack> = [(0.05, 0), (0.15, 12500), (0.25, 25000), (0.45, 50000)]
            .iter()
            .map(|&(t, b)| Ack {
                t_s: t,
                acked: b,
                cwnd_pkts: 1,
                srtt_us: 1,
            })
            .collect();
        // 12500 B per 100 ms = 1 Mbit/s; the bin at 0.3 s saw nothing, 0.4 s saw 25000 B.
        let b = throughput_bins(&acks, 0.1);
        let mb: Vec<f64> = b.iter().map(|x| (x.1 * 1000.0).round() / 1000.0).collect();
        assert_eq!(mb, vec![0.0, 1.0, 1.0, 0.0, 2.0]);
        assert!((goodput(&acks, 0.15, 0.45) - (37500.0 * 8.0 / 0.3 / 1e6)).abs() < 1e-9);
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(stats::percentile(&v, 99.0), Some(99.0));
        assert_eq!(stats::percentile(&v, 50.0), Some(50.0));
        assert_eq!(stats::percentile(&[], 50.0), None);
        let s = spread(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!((s.median, s.min, s.max, s.n), (2.0, 1.0, 3.0, 3));
        // Even count: the nearest-rank median is the lower middle value (it was the upper).
        let s = spread(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        assert_eq!((s.median, s.min, s.max, s.n), (2.0, 1.0, 4.0, 4));
        assert_eq!(spread(&[f64::NAN]), None);
        assert_eq!(stats::fairness(&[1.0, 1.0]), Some(1.0));
        assert_eq!(stats::fairness(&[1.0, 0.0]), Some(0.5));
        assert_eq!(stats::fairness(&[1.0]), None);
    }
}
