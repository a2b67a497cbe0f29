// SPDX-License-Identifier: GPL-2.0-only
//! `rxstamp int-probe`: test helpers for the software INT switch (`sch_rdcc_int`, issue #35).
//! Test code only: they run in the test bed's namespaces, never in a product path.
//!
//! ```text
//! rxstamp int-probe send DST --port P --count N --size BYTES --slots K [--no-ts]
//! rxstamp int-probe watch IFACE --port P --count N [--secs S]
//! ```
//!
//! `send` writes N TCP segments of BYTES payload to DST:P through a raw socket, back to back,
//! each carrying an INT request of K empty slots (after Linux's timestamp option unless
//! `--no-ts`): the switches on the path stamp them. They belong to no connection (the receiver's
//! TCP answers each with a reset); the checksum is computed here, so the switch's checksum
//! update is what keeps them valid.
//!
//! `watch` captures, on IFACE (the receiver's interface), the segments to port P with an INT
//! option, checks each one's TCP checksum, and prints one line per segment and a summary (the
//! format is in [`Summary`]): what the selftest `rdcc_int_switch.sh` judges.

use anyhow::{bail, Result};
use rdcc_core::int::IntHop;
use rdcc_core::int_wire;
use std::net::IpAddr;
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use crate::inject::{bind_packet, ip_packet, readable, recv_now, send_raw, sock, tcp_csum, Mode};

/// The source address the kernel would use towards `dst` (a connected UDP socket's name).
fn source_for(dst: IpAddr) -> Result<IpAddr> {
    let any: IpAddr = match dst {
        IpAddr::V4(_) => "0.0.0.0".parse()?,
        IpAddr::V6(_) => "::".parse()?,
    };
    let s = std::net::UdpSocket::bind((any, 0))?;
    s.connect((dst, 9))?;
    Ok(s.local_addr()?.ip())
}

/// One probe segment: the TCP header (ACK flag), options (timestamps unless `no_ts`, then the
/// INT request, padded with NOPs to a multiple of 4) and `size` zero bytes.
pub fn probe_segment(
    sport: u16,
    dport: u16,
    seq: u32,
    size: usize,
    slots: usize,
    no_ts: bool,
) -> Vec<u8> {
    let mut opts = Vec::new();
    if !no_ts {
        opts.extend_from_slice(&[1, 1, 8, 10]);
        opts.extend_from_slice(&seq.to_be_bytes()); // TSval: any value
        opts.extend_from_slice(&[0, 0, 0, 0]);
    }
    let mut req = [0u8; int_wire::MAX_OPTIONS_LEN];
    let n = int_wire::write(
        &mut req,
        slots,
        false,
        false,
        &rdcc_core::int::IntStack::EMPTY,
    );
    opts.extend_from_slice(&req[..n]);
    while opts.len() % 4 != 0 {
        opts.push(1);
    }
    let doff = (20 + opts.len()) / 4;
    let mut t = Vec::with_capacity(20 + opts.len() + size);
    t.extend_from_slice(&sport.to_be_bytes());
    t.extend_from_slice(&dport.to_be_bytes());
    t.extend_from_slice(&seq.to_be_bytes());
    t.extend_from_slice(&1u32.to_be_bytes()); // ack
    t.push((doff as u8) << 4);
    t.push(0x10); // ACK
    t.extend_from_slice(&65535u16.to_be_bytes());
    t.extend_from_slice(&[0, 0, 0, 0]); // checksum (ip_packet), urgent
    t.extend_from_slice(&opts);
    t.resize(t.len() + size, 0);
    t
}

pub fn send(
    dst: IpAddr,
    port: u16,
    count: u64,
    size: usize,
    slots: usize,
    no_ts: bool,
) -> Result<()> {
    if opt_room(slots, no_ts) > 40 {
        bail!(
            "{slots} slots do not fit beside {}",
            if no_ts { "nothing" } else { "timestamps" }
        );
    }
    let src = source_for(dst)?;
    let raw4 = sock(libc::AF_INET, libc::SOCK_RAW, libc::IPPROTO_RAW)?;
    let raw6 = sock(libc::AF_INET6, libc::SOCK_RAW, libc::IPPROTO_RAW)?;
    let mut errors = 0u64;
    for i in 0..count {
        let seq = (i as u32).wrapping_mul(size as u32).wrapping_add(1);
        let tcp = probe_segment(40000, port, seq, size, slots, no_ts);
        let pkt = ip_packet(Mode::Control, src, dst, tcp);
        if !send_raw(raw4.as_raw_fd(), raw6.as_raw_fd(), dst, &pkt) {
            errors += 1;
        }
    }
    println!("int-probe send: {count} segments, {size} B payload, {slots} slots, errors {errors}");
    if errors > 0 {
        bail!("{errors} sends failed");
    }
    Ok(())
}

/// Option bytes a probe segment needs.
fn opt_room(slots: usize, no_ts: bool) -> usize {
    (int_wire::option_len(slots) + if no_ts { 0 } else { 12 }).div_ceil(4) * 4
}

/// What `watch` saw of one segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    /// The frame's length on the wire less the Ethernet header: the IP packet's length.
    pub ip_len: u64,
    pub csum_ok: bool,
    pub overflow: bool,
    pub hops: Vec<IntHop>,
}

/// Parse one Ethernet frame: a TCP segment to `port` with an INT option.
pub fn seen(frame: &[u8], port: u16) -> Option<Seen> {
    let et = u16::from_be_bytes([*frame.get(12)?, *frame.get(13)?]);
    let ip = frame.get(14..)?;
    let (src, dst, l3_len, thoff) = match et {
        0x0800 if *ip.get(9)? == 6 => {
            let ihl = usize::from(ip.first()? & 0xf) * 4;
            let a: [u8; 4] = ip.get(12..16)?.try_into().ok()?;
            let b: [u8; 4] = ip.get(16..20)?.try_into().ok()?;
            let tot = usize::from(u16::from_be_bytes([*ip.get(2)?, *ip.get(3)?]));
            (IpAddr::from(a), IpAddr::from(b), tot, ihl)
        }
        0x86dd if *ip.get(6)? == 6 => {
            let a: [u8; 16] = ip.get(8..24)?.try_into().ok()?;
            let b: [u8; 16] = ip.get(24..40)?.try_into().ok()?;
            let pl = usize::from(u16::from_be_bytes([*ip.get(4)?, *ip.get(5)?]));
            (IpAddr::from(a), IpAddr::from(b), pl + 40, 40)
        }
        _ => return None,
    };
    let tcp = ip.get(thoff..l3_len)?;
    if u16::from_be_bytes([*tcp.get(2)?, *tcp.get(3)?]) != port {
        return None;
    }
    let doff = usize::from(tcp.get(12)? >> 4) * 4;
    let opt = int_wire::parse(tcp.get(20..doff)?).ok()??;
    Some(Seen {
        ip_len: l3_len as u64,
        // Over a segment with a valid checksum the ones'-complement sum is 0xffff: folded, 0.
        csum_ok: tcp_csum(src, dst, tcp) == 0,
        overflow: opt.overflow,
        hops: opt.stack.hops().to_vec(),
    })
}

/// The verdicts over a capture, printed as one `summary` line of `key value` pairs.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Segments with an INT option.
    pub segs: u64,
    /// Of them, with a wrong TCP checksum.
    pub csum_bad: u64,
    /// Fewest and most records in a segment.
    pub hops_min: u64,
    pub hops_max: u64,
    /// Segments with the overflow bit.
    pub overflow: u64,
    /// Consecutive pairs at hop 1 whose transmitted-bytes step is this segment's frame (IP
    /// length + 14), to the 128-byte unit; and pairs checked.
    pub tx_exact: u64,
    pub pairs: u64,
    /// Pairs at hop 1 whose timestamps go backwards.
    pub ts_back: u64,
    /// Segments at hop 1 with a queue behind them whose queue is exactly the frames of the
    /// segments still to come, to the 80-byte unit; and segments with a queue.
    pub q_exact: u64,
    pub queued: u64,
    /// Segments at hop 1 reporting more queue behind them than the frames still to come (80 B
    /// rounding allowed): impossible for a burst of these segments alone.
    pub q_over: u64,
    /// The first segment's IP length, bytes.
    pub ip_len: u64,
    /// The largest and smallest hop-1 timestamp step between two queued segments, ns, and the
    /// mean step over them (their sum over their count): the rate at which the shaper served
    /// the queue.
    pub gap_min_ns: u64,
    pub gap_max_ns: u64,
    pub gap_mean_ns: u64,
    /// Hop 1's rate, Mbit/s.
    pub rate_mbit: u64,
}

/// Judge a capture (segments in arrival order, all sent back to back, all of one size).
pub fn summarize(s: &[Seen]) -> Summary {
    let mut m = Summary {
        segs: s.len() as u64,
        gap_min_ns: u64::MAX,
        ..Summary::default()
    };
    m.hops_min = s.iter().map(|x| x.hops.len() as u64).min().unwrap_or(0);
    m.hops_max = s.iter().map(|x| x.hops.len() as u64).max().unwrap_or(0);
    m.csum_bad = s.iter().filter(|x| !x.csum_ok).count() as u64;
    m.overflow = s.iter().filter(|x| x.overflow).count() as u64;
    m.rate_mbit = s
        .first()
        .and_then(|x| x.hops.first())
        .map_or(0, |h| h.rate_bps() / 125_000);
    let n = s.len();
    m.ip_len = s.first().map_or(0, |x| x.ip_len);
    let (mut gap_sum, mut gaps) = (0u64, 0u64);
    for w in s.windows(2) {
        let (Some(a), Some(b)) = (w[0].hops.first(), w[1].hops.first()) else {
            continue;
        };
        m.pairs += 1;
        let frame = w[1].ip_len + 14;
        let step = b.tx_delta_bytes(a);
        if step + 128 > frame && step <= frame + 127 {
            m.tx_exact += 1;
        }
        // The 24-bit clock wraps every 16.8 ms: a step over half of it is a step backwards.
        let dt = b.ts_delta_ns(a);
        if dt >= 1 << 23 {
            m.ts_back += 1;
        }
        if a.qlen_bytes() > 0 && b.qlen_bytes() > 0 {
            m.gap_min_ns = m.gap_min_ns.min(dt);
            m.gap_max_ns = m.gap_max_ns.max(dt);
            gap_sum = gap_sum.saturating_add(dt);
            gaps += 1;
        }
    }
    for (i, x) in s.iter().enumerate() {
        let Some(h) = x.hops.first() else { continue };
        let behind: u64 = s[i + 1..n].iter().map(|y| y.ip_len + 14).sum();
        if h.qlen_bytes() > behind / 80 * 80 {
            m.q_over += 1;
        }
        if h.qlen_bytes() == 0 {
            continue;
        }
        m.queued += 1;
        if h.qlen_bytes() == behind / 80 * 80 {
            m.q_exact += 1;
        }
    }
    if m.gap_min_ns == u64::MAX {
        m.gap_min_ns = 0;
    }
    m.gap_mean_ns = gap_sum.checked_div(gaps).unwrap_or(0);
    m
}

pub fn watch(iface: &str, port: u16, count: u64, secs: u64) -> Result<()> {
    let eth_p_all = (libc::ETH_P_ALL as u16).to_be() as libc::c_int;
    let sniff = sock(libc::AF_PACKET, libc::SOCK_RAW, eth_p_all)?;
    // A burst must not overflow the socket's queue (each frame costs its skb's truesize, ~2 KB):
    // room for 100,000 (root may exceed rmem_max with SO_RCVBUFFORCE).
    let rcvbuf: libc::c_int = 256 << 20;
    // SAFETY: valid socket and option buffer of the given size.
    let r = unsafe {
        libc::setsockopt(
            sniff.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_RCVBUFFORCE,
            &rcvbuf as *const _ as *const libc::c_void,
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if r != 0 {
        bail!("SO_RCVBUFFORCE: {}", std::io::Error::last_os_error());
    }
    bind_packet(sniff.as_raw_fd(), iface)?;
    println!("int-probe watch: {iface} port {port}, ready");
    let mut got = Vec::new();
    let mut buf = vec![0u8; 65536];
    let t0 = Instant::now();
    while (got.len() as u64) < count && t0.elapsed() < Duration::from_secs(secs) {
        if !readable(sniff.as_raw_fd(), Duration::from_millis(200))? {
            continue;
        }
        let Some(r) = recv_now(sniff.as_raw_fd(), &mut buf) else {
            continue;
        };
        if let Some(x) = seen(&buf[..r], port) {
            let hops: Vec<String> = x
                .hops
                .iter()
                .map(|h| {
                    format!(
                        "q {} tx {} ts {} rate {}",
                        h.qlen_bytes(),
                        h.tx_units(),
                        h.ts_ns(),
                        h.rate_bps() / 125_000
                    )
                })
                .collect();
            println!(
                "seg {} len {} csum {} ovf {} hops {} | {}",
                got.len(),
                x.ip_len,
                if x.csum_ok { "ok" } else { "bad" },
                u8::from(x.overflow),
                x.hops.len(),
                hops.join(" | ")
            );
            got.push(x);
        }
    }
    let m = summarize(&got);
    println!(
        "summary segs {} csum_bad {} hops_min {} hops_max {} overflow {} tx_exact {} pairs {} ts_back {} q_exact {} queued {} q_over {} gap_min_ns {} gap_max_ns {} gap_mean_ns {} rate_mbit {} ip_len {}",
        m.segs, m.csum_bad, m.hops_min, m.hops_max, m.overflow, m.tx_exact, m.pairs, m.ts_back,
        m.q_exact, m.queued, m.q_over, m.gap_min_ns, m.gap_max_ns, m.gap_mean_ns, m.rate_mbit, m.ip_len
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A frame of the probe's form, with records filled in by the core's stamp.
    fn frame(size: usize, recs: &[IntHop]) -> Vec<u8> {
        let src: IpAddr = "10.0.0.1".parse().unwrap();
        let dst: IpAddr = "10.0.1.2".parse().unwrap();
        let tcp = probe_segment(40000, 5001, 1, size, 2, false);
        let doff = usize::from(tcp[12] >> 4) * 4;
        let mut f = vec![0u8; 12];
        f.extend_from_slice(&[0x08, 0x00]);
        f.extend_from_slice(&ip_packet(Mode::Control, src, dst, tcp));
        // Stamped after the checksum was computed, as a switch without the update would.
        for r in recs {
            int_wire::stamp(&mut f[14 + 20 + 20..14 + 20 + doff], *r);
        }
        f
    }

    #[test]
    fn a_stamped_probe_parses_with_its_checksum() {
        let r = IntHop::encode(1600, 3000, 5, 1_250_000_000).unwrap();
        let f = frame(100, &[r]);
        let s = seen(&f, 5001).unwrap();
        // The checksum was computed before the stamp: the switch's update is what makes it ok.
        assert!(!s.csum_ok);
        assert_eq!(s.hops, vec![r]);
        assert_eq!(s.ip_len, 20 + 20 + 36 + 100);
        assert!(seen(&f, 5002).is_none(), "another port");
        let clean = frame(100, &[]);
        assert!(seen(&clean, 5001).unwrap().csum_ok);
    }

    #[test]
    fn summary_of_a_perfect_queue() {
        // Three segments of 1000 B IP length queued back to back at 10 Gbit/s: 814 ns apart.
        let f = 1014u64;
        let mk = |q: u64, tx: u64, ts: u64| Seen {
            ip_len: 1000,
            csum_ok: true,
            overflow: false,
            hops: vec![IntHop::encode(q, tx, ts, 1_250_000_000).unwrap()],
        };
        let s = [mk(2 * f, f, 0), mk(f, 2 * f, 811), mk(0, 3 * f, 1622)];
        let m = summarize(&s);
        assert_eq!((m.segs, m.pairs, m.tx_exact, m.ts_back), (3, 2, 2, 0));
        assert_eq!((m.queued, m.q_exact, m.q_over, m.ip_len), (2, 2, 0, 1000));
        assert_eq!(
            (m.gap_min_ns, m.gap_max_ns, m.rate_mbit),
            (811, 811, 10_000)
        );
        // A wrong queue or a step of two frames is not counted.
        let bad = [mk(3 * f, f, 0), mk(f, 3 * f, 811), mk(0, 4 * f, 700)];
        let m = summarize(&bad);
        assert_eq!((m.tx_exact, m.q_exact, m.queued, m.q_over), (1, 1, 2, 1));
    }
}
