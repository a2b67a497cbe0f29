// SPDX-License-Identifier: GPL-2.0-only
//! Test helpers of the selftests (selftests/rdcc_rqd*.sh): a slow TCP receiver (`rxstamp sink`)
//! and a bulk sender that can switch its congestion control and poll TCP_CC_INFO meanwhile
//! (`rxstamp source`). Test code only, never in a product path.

use crate::cli::SourceArgs;
use crate::probe;
use anyhow::{anyhow, Context};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

type Res<T> = anyhow::Result<T>;

/// A receiver that reads at most `--rate` KB/s in 16 KB reads: the data waits in the socket
/// (the receive window closes, ACKs wait for the window to reopen), i.e. a slow endpoint.
pub fn sink(port: u16, rate_kbps: u64, secs: Option<u64>) -> Res<()> {
    use std::io::Read;
    // The parser bounds KBPS to 1..=10^8, so bytes per second stay below 2^37.
    let rate = rate_kbps.max(1) * 1024;
    let l = std::net::TcpListener::bind(("::", port))
        .or_else(|_| std::net::TcpListener::bind(("0.0.0.0", port)))
        .with_context(|| format!("bind {port}"))?;
    let (mut c, peer) = l.accept().context("accept")?;
    let t0 = Instant::now();
    let mut buf = vec![0u8; 16 * 1024];
    let mut total: u64 = 0;
    while secs.map_or(true, |s| t0.elapsed().as_secs() < s) {
        let n = match c.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => n as u64,
        };
        total += n;
        // Sleep until the budget allows the bytes read so far.
        let due = Duration::from_micros(total * 1_000_000 / rate);
        if let Some(wait) = due.checked_sub(t0.elapsed()) {
            std::thread::sleep(wait);
        }
    }
    println!(
        "sink: {total} bytes from {peer} in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A bulk sender of zeros (the sender's congestion control is its network namespace's default).
pub fn source(o: &SourceArgs) -> Res<()> {
    use std::io::Write;
    let (addr, port) = (o.addr.as_str(), o.port);
    let mut c = std::net::TcpStream::connect((addr, port))
        .with_context(|| format!("connect {addr} {port}"))?;
    // Two or more names (the parser checks it).
    let algs: Vec<String> = o.switch_cc.clone().map(|l| l.0).unwrap_or_default();
    let done = std::sync::Arc::new(AtomicBool::new(false));
    // Background threads on the same socket: CA switches and TCP_CC_INFO reads.
    let fd = c.as_raw_fd();
    let switcher = (!algs.is_empty()).then(|| {
        let done = done.clone();
        let every = Duration::from_millis(o.switch_ms);
        std::thread::spawn(move || probe::switch_cc(fd, &algs, every, &done))
    });
    let poller = o.poll_info.then(|| {
        let done = done.clone();
        std::thread::spawn(move || probe::poll_cc_info(fd, &done))
    });
    let buf = vec![0u8; 64 * 1024];
    let t0 = Instant::now();
    let mut total: u64 = 0;
    let mut res = Ok(());
    while o.secs.map_or(true, |s| t0.elapsed().as_secs() < s) {
        match c.write(&buf) {
            Ok(n) => total += n as u64,
            Err(e) => {
                res = Err(anyhow!("write: {e}"));
                break;
            }
        }
    }
    done.store(true, Ordering::SeqCst);
    let switched = switcher.map(|t| t.join().unwrap_or(Err(anyhow!("switcher panicked"))));
    let polled = poller.map(|t| t.join().unwrap_or(Err(anyhow!("poller panicked"))));
    println!(
        "source: {total} bytes in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    if let Some(r) = switched {
        println!("source: cc_switches {}", r?);
    }
    if let Some(r) = polled {
        let (n, nonzero) = r?;
        println!("source: cc_info_reads {n} cc_info_nonempty {nonzero}");
    }
    res
}
