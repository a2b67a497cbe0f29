//! `rdcc-flowgen send`: every flow connected first, then the trial's clock started (marked in
//! the trace), then each flow released at its start on an absolute CLOCK_MONOTONIC sleep, in
//! its own thread: no process starts during the trial. A flow ends when the sink's receipt of
//! everything it sent arrives, so a sized flow's completion time is from its release to the
//! moment the sender knows all its bytes were delivered: the simulator's "start to all data
//! acknowledged" (the receipt rides with or right behind the last data's ACK on the same
//! path). A sized flow closes only after the receipt (its ACKs are all traced, see sink.rs);
//! a timed flow ends its data with a FIN, whose EOF tells the sink to answer.

use crate::net::{congestion, connect_with_cc, mono_ns, sleep_until_ns, total_retrans};
use crate::spec::{Amount, Flow};
use std::fs::File;
use std::io::{self, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

/// Bytes per write: iperf3's default block.
const BLOCK: usize = 128 * 1024;
/// A timed flow's write waits at most this long, so it notices its end.
const WRITE_SLICE: Duration = Duration::from_millis(50);

/// What a flow did, as one summary line.
#[derive(Debug, Default)]
pub struct Outcome {
    pub sent: u64,
    pub received: u64,
    /// From the flow's release to its last write.
    pub send_ns: u64,
    /// From the flow's release to the sink's receipt.
    pub done_ns: u64,
    pub retrans: u32,
    pub cc: String,
    pub err: String,
}

impl Outcome {
    /// `rc=N tput=MBIT sent=MBIT retrans=N bytes=N cc=ALGO fct_us=US err=TEXT`: the keys of
    /// `selftests/lib.sh` rdcc_iperf_json's summary (tput: received over release to receipt;
    /// sent: written over release to last write), plus a sized flow's completion time.
    pub fn line(&self, sized: bool) -> String {
        let mbit = |b: u64, ns: u64| {
            if ns == 0 {
                0.0
            } else {
                b as f64 * 8e3 / ns as f64
            }
        };
        let fct = if sized && self.err.is_empty() {
            format!(" fct_us={:.1}", self.done_ns as f64 / 1e3)
        } else {
            String::new()
        };
        format!(
            "rc={} tput={:.1} sent={:.1} retrans={} bytes={} cc={}{fct} err={}",
            i32::from(!self.err.is_empty()),
            mbit(self.received, self.done_ns),
            mbit(self.sent, self.send_ns),
            self.retrans,
            self.received,
            if self.cc.is_empty() { "-" } else { &self.cc },
            self.err
        )
    }
}

/// Connect every flow (flow i to port `base + i` of `to`), start the clock, run them all,
/// print one `I rc=...` line per flow in order; whether every flow succeeded. `marker`: the
/// trace_marker to write `rdcctrial start` and `rdccflow I start` to. `timeout_s`: how long a
/// flow may take from its release to the receipt.
pub fn run(
    to: std::net::IpAddr,
    base: u16,
    flows: &[Flow],
    marker: Option<File>,
    timeout_s: u64,
) -> bool {
    let marker = marker.map(Arc::new);
    let mark = |m: &Option<Arc<File>>, text: String| {
        if let Some(f) = m {
            // One write per line: trace_marker takes each write as one event.
            if let Err(e) = (&**f).write_all(text.as_bytes()) {
                eprintln!("rdcc-flowgen: trace marker: {e}");
            }
        }
    };
    let conns: Vec<Result<TcpStream, String>> = flows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let port = u16::try_from(i)
                .ok()
                .and_then(|i| base.checked_add(i))
                .ok_or_else(|| "port past 65535".to_string())?;
            let s =
                connect_with_cc(SocketAddr::new(to, port), &f.algo).map_err(|e| e.to_string())?;
            Ok(s)
        })
        .collect();
    mark(&marker, "rdcctrial start\n".into());
    let t0 = mono_ns();
    let threads: Vec<_> = flows
        .iter()
        .cloned()
        .zip(conns)
        .enumerate()
        .map(|(i, (f, c))| {
            let marker = marker.clone();
            std::thread::spawn(move || {
                let mut o = Outcome::default();
                match c {
                    Err(e) => o.err = e,
                    Ok(s) => {
                        sleep_until_ns(t0.saturating_add(f.start_ms.saturating_mul(1_000_000)));
                        mark(&marker, format!("rdccflow {i} start\n"));
                        if let Err(e) = one(&s, &f, timeout_s, &mut o) {
                            o.err = e.to_string();
                        }
                        o.cc = congestion(&s).unwrap_or_default();
                        o.retrans = total_retrans(&s).unwrap_or(0);
                    }
                }
                (matches!(f.amount, Amount::Bytes(_)), o)
            })
        })
        .collect();
    let mut ok = true;
    for (i, t) in threads.into_iter().enumerate() {
        let (sized, o) = t.join().expect("flow thread panicked");
        ok &= o.err.is_empty();
        println!("{i} {}", o.line(sized));
    }
    ok
}

/// Run flow `f` on `s` from now: send; a timed flow then ends its data (FIN); wait for the
/// sink's receipt (a sized flow's comes once its size is read, its socket still established).
fn one(mut s: &TcpStream, f: &Flow, timeout_s: u64, o: &mut Outcome) -> io::Result<()> {
    let t = mono_ns();
    let deadline = t.saturating_add(timeout_s.saturating_mul(1_000_000_000));
    let buf = vec![0u8; BLOCK];
    match f.amount {
        Amount::Secs(secs) => {
            let end = t.saturating_add((secs * 1e9) as u64);
            s.set_write_timeout(Some(WRITE_SLICE))?;
            while mono_ns() < end {
                match s.write(&buf) {
                    Ok(n) => o.sent = o.sent.saturating_add(n as u64),
                    Err(e)
                        if matches!(
                            e.kind(),
                            io::ErrorKind::WouldBlock
                                | io::ErrorKind::TimedOut
                                | io::ErrorKind::Interrupted
                        ) => {}
                    Err(e) => return Err(io::Error::new(e.kind(), format!("write: {e}"))),
                }
            }
        }
        Amount::Bytes(total) => {
            s.set_write_timeout(Some(Duration::from_secs(timeout_s.max(1))))?;
            while o.sent < total {
                let n = (total - o.sent).min(BLOCK as u64) as usize;
                s.write_all(&buf[..n])
                    .map_err(|e| io::Error::new(e.kind(), format!("write: {e}")))?;
                o.sent += n as u64;
            }
        }
    }
    o.send_ns = mono_ns().saturating_sub(t);
    if matches!(f.amount, Amount::Secs(_)) {
        s.shutdown(Shutdown::Write)?;
    }
    let mut receipt = [0u8; 8];
    s.set_read_timeout(Some(Duration::from_nanos(
        deadline.saturating_sub(mono_ns()).max(1_000_000),
    )))?;
    s.read_exact(&mut receipt)
        .map_err(|e| io::Error::new(e.kind(), format!("no receipt from the sink: {e}")))?;
    o.done_ns = mono_ns().saturating_sub(t);
    o.received = u64::from_le_bytes(receipt);
    if o.received != o.sent {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("the sink received {} of {} bytes", o.received, o.sent),
        ));
    }
    Ok(())
}
