//! `rdcc-flowgen sink`: one listener per flow, on consecutive ports, with the flow's congestion
//! control (as iperf3's server sets the client's on its data listener: a DCTCP sender's SYN is
//! ECT, and Linux negotiates ECN for an ECT SYN only when the listener's congestion control
//! needs ECN, else the sender falls back to `dctcp-reno`); one connection accepted on each;
//! every byte read and counted; the count goes back as 8 bytes little-endian, the receipt whose
//! arrival ends the sender's flow: for a sized flow as soon as its size has been read (the
//! sender's socket stays established until then, so the kernel traces every ACK of it:
//! tcp:tcp_probe fires only in the established state), for a timed flow at its end of data
//! (EOF).

use crate::net::{mono_ns, set_congestion};
use crate::spec::{Amount, Flow};
use anyhow::{Context, Result};
use std::io::{self, Read, Write};
use std::net::{IpAddr, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::time::Duration;

/// What one port's connection delivered.
pub struct Received {
    pub port: u16,
    pub bytes: u64,
    pub err: String,
}

/// Listen for flow i on port `base + i` at `bind` with its congestion control, print
/// `listening N` once all listen, serve one connection per port until EOF or `timeout_s` from
/// now, print `PORT bytes=N err=...` per port, return whether every port delivered without
/// error.
pub fn run(bind: IpAddr, base: u16, flows: &[Flow], timeout_s: u64) -> Result<bool> {
    let deadline_ns = mono_ns().saturating_add(timeout_s.saturating_mul(1_000_000_000));
    let mut listeners = Vec::new();
    for (i, f) in flows.iter().enumerate() {
        let port = u16::try_from(i)
            .ok()
            .and_then(|i| base.checked_add(i))
            .context("ports past 65535")?;
        let l =
            TcpListener::bind((bind, port)).with_context(|| format!("bind {bind} port {port}"))?;
        set_congestion(&l, &f.algo).with_context(|| format!("port {port}"))?;
        let expect = match f.amount {
            Amount::Bytes(b) => Some(b),
            Amount::Secs(_) => None,
        };
        listeners.push((port, l, expect));
    }
    println!("listening {}", flows.len());
    io::stdout().flush()?;
    let threads: Vec<_> = listeners
        .into_iter()
        .map(|(port, l, expect)| {
            std::thread::spawn(move || {
                let mut r = Received {
                    port,
                    bytes: 0,
                    err: String::new(),
                };
                if let Err(e) = serve(l, deadline_ns, expect, &mut r.bytes) {
                    r.err = e.to_string();
                }
                r
            })
        })
        .collect();
    let mut ok = true;
    for t in threads {
        let r = t.join().expect("sink thread panicked");
        ok &= r.err.is_empty();
        println!("{} bytes={} err={}", r.port, r.bytes, r.err);
    }
    Ok(ok)
}

/// The time left until `deadline_ns`, at least 1 ms (a zero timeout means "none" to std).
fn left(deadline_ns: u64) -> Duration {
    Duration::from_nanos(deadline_ns.saturating_sub(mono_ns()).max(1_000_000))
}

/// Reads between two refreshes of the read timeout from the deadline. A refresh is two system
/// calls (the clock and SO_RCVTIMEO), and the reader is woken for about every segment: on the
/// virtual-time bed (UML, `time-travel=inf-cpu`, where a reader costs no virtual time) about
/// 200,000 times per virtual second of a 10 Gbit/s flow, each system call a round of ptrace
/// calls between the UML kernel and the process. Refreshing on every read, as before 2026-11-30,
/// made a 10 Gbit/s flow's guest take 24 % more wall time (Documentation/testbed.md, "Where
/// a guest's time goes"). A read may so wait past the deadline by at most the time the reads
/// since the last refresh took; one that times out before the deadline waits again with a
/// fresh timeout.
const TIMEOUT_REFRESH_READS: u32 = 64;

/// Accept one connection on `l` (by `deadline_ns`) and close `l`, count what it sends until
/// EOF into `bytes`; send the receipt once `expect` bytes are in (a sized flow) or at EOF. A
/// sized flow that sends more than its size fails.
fn serve(l: TcpListener, deadline_ns: u64, expect: Option<u64>, bytes: &mut u64) -> io::Result<()> {
    let mut s = accept_by(&l, deadline_ns)?;
    drop(l);
    let mut buf = vec![0u8; 1 << 17];
    let mut receipted = None;
    let receipt = |s: &mut TcpStream, n: u64| {
        s.write_all(&n.to_le_bytes())
            .map_err(|e| io::Error::new(e.kind(), format!("receipt: {e}")))
    };
    let mut reads = TIMEOUT_REFRESH_READS;
    loop {
        if reads >= TIMEOUT_REFRESH_READS {
            s.set_read_timeout(Some(left(deadline_ns)))?;
            reads = 0;
        }
        reads += 1;
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => *bytes = bytes.saturating_add(n as u64),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // A stale timeout ran out before the deadline: wait again with a fresh one.
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) && mono_ns() < deadline_ns =>
            {
                reads = TIMEOUT_REFRESH_READS
            }
            Err(e) => return Err(io::Error::new(e.kind(), format!("read: {e}"))),
        }
        if let (Some(want), None) = (expect, receipted) {
            if *bytes >= want {
                receipt(&mut s, *bytes)?;
                receipted = Some(*bytes);
            }
        }
    }
    match (expect, receipted) {
        (Some(want), _) if *bytes > want => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{} bytes beyond the flow's {want}", *bytes - want),
        )),
        (_, Some(_)) => Ok(()),
        (_, None) => receipt(&mut s, *bytes),
    }
}

/// accept() on `l`, waiting at most until `deadline_ns`.
fn accept_by(l: &TcpListener, deadline_ns: u64) -> io::Result<TcpStream> {
    loop {
        let ms = left(deadline_ns).as_millis().min(i32::MAX as u128) as i32;
        let mut p = libc::pollfd {
            fd: l.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        // SAFETY: p is one valid pollfd, readable and writable for the call.
        let rc = unsafe { libc::poll(&mut p, 1, ms) };
        if rc < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if rc == 0 && mono_ns() >= deadline_ns {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "no connection"));
        }
        if rc > 0 {
            return l.accept().map(|(s, _)| s);
        }
    }
}
