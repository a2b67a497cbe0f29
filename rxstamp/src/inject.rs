// SPDX-License-Identifier: GPL-2.0-only
//! `rxstamp inject`: a test helper that attacks the remote-delay channel of a live flow with
//! forged ACKs (Documentation/remote-delay.md, "Threat model"). Test code only: it runs in the
//! VM's router namespace, never in a product path.
//!
//! ```text
//! rxstamp inject --iface IF --port P --mode MODE [--every N] [--secs S]
//! ```
//!
//! It watches IF (the router's interface towards the sender) with an AF_PACKET socket: data
//! segments to port P (sender -> receiver) give the ack_seq the receiver will send next
//! (seq + payload length) and the sender's TSval; the receiver's real ACKs (P -> sender) give
//! its sequence number, TSval and window. For every N-th data segment of a flow it sends one
//! forged ACK "from the receiver" to the sender through a raw IP socket, shaped by MODE:
//!
//! | mode       | ack_seq                  | seq              | option / header                  |
//! |------------|--------------------------|------------------|----------------------------------|
//! | control    | next (in window)         | out of window    | a foreign ExID (ignored by all)  |
//! | delay-max  | next (in window)         | out of window    | delay 0xffffffff                 |
//! | ttl1/129/255 | next                   | out of window    | delay 10 us, TTL 1 / 129 / 255   |
//! | badsum     | next                     | the real one, TS copied | delay 0xffffffff, bad checksum |
//! | future     | next + 2^30 (unsent)     | the real one     | delay 0xffffffff                 |
//! | old        | next - 2^20 (acked)      | the real one     | delay 0xffffffff                 |
//! | baddoff    | next                     | out of window    | doff 15 past the packet, or 3    |
//! | truncated  | next                     | out of window    | our ExID with length 8, or a length running past the header |
//! | v6ext      | next                     | out of window    | IPv6 hop-by-hop + destination options + routing headers before TCP, delay 0xffffffff |
//! | supersede  | next                     | out of window    | delay 0xffffffff, then (at the next data segment seen, or `--gap-us` later) a second segment of that ack_seq without the option (timestamps only) |
//!
//! | int-control | next (in window)        | out of window    | an INT echo with a foreign ExID (the reference of the INT modes) |
//! | int-echo   | next (in window)         | out of window    | an INT echo (int_wire.rs): two records at 10 Gbit/s, the first with the largest queue a record holds |
//! | int-badsum | next                     | the real one, TS copied | the same INT echo, bad checksum |
//!
//! The `int-*` modes aim at the INT modules (tcp_powertcp, tcp_hpcc; Documentation/int-channel.md):
//! an echo whose stack, were it used, would read as a full queue at the first hop.
//!
//! `supersede` stores an entry and then removes it again with an option-less segment of its
//! `ack_seq`: while the sender's socket is owned by its process (the first went to the slot
//! before), the hook cannot clear the slot and leaves a tombstone in the side table instead
//! (`store_tombstone`, issue #32 item 3). By default the second segment goes out at the next
//! data segment seen; `--gap-us US` sends it US microseconds after the first on a timer
//! instead. A sender sends data only while its socket is not owned (ACKs are processed then),
//! so "at the next data segment" ties the second segment to the free windows; a timer does not,
//! and the pair then straddles a change of the lock's owner whenever one falls in the gap.
//!
//! `control` sends exactly as many packets of the same size as the attacks, so a run with it is
//! the reference for throughput and RTT under the same packet load (TCG emulation makes the
//! injector's own CPU use visible). TCP drops every forged segment (sequence, checksum, ack or
//! header checks) - except in `future`/`old`, where it ignores the ACK - so only the channel
//! can be affected. At the end it prints `inject mode=... data=... acks=... sent=... errors=...`.

use anyhow::{anyhow, bail, Result};
use std::collections::VecDeque;
use std::net::IpAddr;
use std::os::fd::{FromRawFd, OwnedFd, RawFd};
use std::time::{Duration, Instant};

/// The attack modes, by name (`--mode`).
const MODES: &[&str] = &[
    "control",
    "delay-max",
    "ttl1",
    "ttl129",
    "ttl255",
    "badsum",
    "future",
    "old",
    "baddoff",
    "truncated",
    "v6ext",
    "supersede",
    "int-control",
    "int-echo",
    "int-badsum",
];

/// `rxstamp inject`'s options.
#[derive(clap::Args, Debug, Clone)]
pub struct InjectArgs {
    /// Interface to watch and inject on (the router's side towards the sender).
    #[arg(long, value_name = "IF")]
    pub iface: String,
    /// The flow's receiver port.
    #[arg(long, value_name = "P", value_parser = clap::value_parser!(u16).range(1..))]
    pub port: u16,
    /// What the forged ACKs carry (see src/inject.rs).
    #[arg(long, value_name = "MODE",
          value_parser = clap::builder::PossibleValuesParser::new(MODES))]
    pub mode: String,
    /// One forged ACK per N data segments of a flow.
    #[arg(long, value_name = "N", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..))]
    pub every: u64,
    /// Run this many seconds.
    #[arg(long, value_name = "S", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    pub secs: u64,
    /// `supersede` only: send the option-less segment this many microseconds after the first,
    /// on a timer, whatever the flow does meanwhile [1..=1000000]; without it, at the next data
    /// segment seen.
    #[arg(long, value_name = "US", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub gap_us: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    Control,
    DelayMax,
    Ttl(u8),
    BadSum,
    Future,
    Old,
    BadDoff,
    Truncated,
    V6Ext,
    Supersede,
    /// The second segment of `supersede`: timestamps only, no remote-delay option.
    NoOption,
    /// An INT echo with a foreign ExID.
    IntControl,
    /// An INT echo, out-of-window sequence number.
    IntEcho,
    /// An INT echo with the real sequence number and TSval and a bad checksum.
    IntBadSum,
}

fn mode(s: &str) -> Option<Mode> {
    Some(match s {
        "control" => Mode::Control,
        "delay-max" => Mode::DelayMax,
        "ttl1" => Mode::Ttl(1),
        "ttl129" => Mode::Ttl(129),
        "ttl255" => Mode::Ttl(255),
        "badsum" => Mode::BadSum,
        "future" => Mode::Future,
        "old" => Mode::Old,
        "baddoff" => Mode::BadDoff,
        "truncated" => Mode::Truncated,
        "v6ext" => Mode::V6Ext,
        "supersede" => Mode::Supersede,
        "int-control" => Mode::IntControl,
        "int-echo" => Mode::IntEcho,
        "int-badsum" => Mode::IntBadSum,
        _ => return None,
    })
}

/// What the injector knows of one flow (keyed by the sender's address and port).
#[derive(Clone, Debug, Default)]
struct Flow {
    snd: Option<(IpAddr, u16)>,
    rcv_seq: u32,
    rcv_tsval: Option<u32>,
    rcv_win: u16,
    have_ack: bool,
    data: u64,
}

/// A parsed TCP/IP packet (only what the injector needs).
#[derive(Debug, PartialEq, Eq)]
struct Seg {
    src: IpAddr,
    dst: IpAddr,
    sport: u16,
    dport: u16,
    seq: u32,
    ack: u32,
    win: u16,
    payload: u32,
    tsval: Option<u32>,
}

fn tsval_of(opts: &[u8]) -> Option<u32> {
    let mut i = 0;
    let mut ts = None;
    while i < opts.len() {
        match opts[i] {
            0 => break,
            1 => i += 1,
            k => {
                let l = *opts.get(i + 1)? as usize;
                if l < 2 || i + l > opts.len() {
                    break;
                }
                if k == 8 && l == 10 {
                    ts = Some(u32::from_be_bytes(opts[i + 2..i + 6].try_into().ok()?));
                }
                i += l;
            }
        }
    }
    ts
}

/// Parse an Ethernet frame carrying TCP over IPv4 or IPv6 (no extension headers).
fn parse(frame: &[u8]) -> Option<Seg> {
    let et = u16::from_be_bytes([*frame.get(12)?, *frame.get(13)?]);
    let ip = frame.get(14..)?;
    let (src, dst, l3_len, thoff) = match et {
        0x0800 => {
            if *ip.get(9)? != 6 {
                return None;
            }
            let ihl = (ip.first()? & 0xf) as usize * 4;
            let a: [u8; 4] = ip.get(12..16)?.try_into().ok()?;
            let b: [u8; 4] = ip.get(16..20)?.try_into().ok()?;
            let tot = u16::from_be_bytes([*ip.get(2)?, *ip.get(3)?]) as usize;
            (
                IpAddr::from(a),
                IpAddr::from(b),
                if tot == 0 { ip.len() } else { tot },
                ihl,
            )
        }
        0x86dd => {
            if *ip.get(6)? != 6 {
                return None;
            }
            let a: [u8; 16] = ip.get(8..24)?.try_into().ok()?;
            let b: [u8; 16] = ip.get(24..40)?.try_into().ok()?;
            let pl = u16::from_be_bytes([*ip.get(4)?, *ip.get(5)?]) as usize;
            (
                IpAddr::from(a),
                IpAddr::from(b),
                if pl == 0 { ip.len() } else { pl + 40 },
                40,
            )
        }
        _ => return None,
    };
    let th = ip.get(thoff..)?;
    let doff = ((th.get(12)? >> 4) as usize) * 4;
    if doff < 20 {
        return None;
    }
    let be32 =
        |o: usize| -> Option<u32> { Some(u32::from_be_bytes(th.get(o..o + 4)?.try_into().ok()?)) };
    Some(Seg {
        src,
        dst,
        sport: u16::from_be_bytes([th[0], th[1]]),
        dport: u16::from_be_bytes([th[2], th[3]]),
        seq: be32(4)?,
        ack: be32(8)?,
        win: u16::from_be_bytes([*th.get(14)?, *th.get(15)?]),
        payload: l3_len.saturating_sub(thoff + doff) as u32,
        tsval: tsval_of(th.get(20..doff)?),
    })
}

/// Ones'-complement sum of `b` (16-bit big-endian words) added to `acc`.
pub(crate) fn csum_add(mut acc: u32, b: &[u8]) -> u32 {
    let mut it = b.chunks_exact(2);
    for w in &mut it {
        acc += u16::from_be_bytes([w[0], w[1]]) as u32;
    }
    if let [last] = it.remainder() {
        acc += (*last as u32) << 8;
    }
    acc
}

pub(crate) fn csum_fold(mut acc: u32) -> u16 {
    while acc >> 16 != 0 {
        acc = (acc & 0xffff) + (acc >> 16);
    }
    !(acc as u16)
}

/// TCP checksum over the pseudo header and `tcp` (header and payload).
pub(crate) fn tcp_csum(src: IpAddr, dst: IpAddr, tcp: &[u8]) -> u16 {
    let mut acc = 0;
    match (src, dst) {
        (IpAddr::V4(s), IpAddr::V4(d)) => {
            acc = csum_add(acc, &s.octets());
            acc = csum_add(acc, &d.octets());
            acc += 6 + tcp.len() as u32;
        }
        (s, d) => {
            let v6 = |a: IpAddr| match a {
                IpAddr::V6(x) => x,
                IpAddr::V4(x) => x.to_ipv6_mapped(),
            };
            acc = csum_add(acc, &v6(s).octets());
            acc = csum_add(acc, &v6(d).octets());
            acc += tcp.len() as u32 + 6;
        }
    }
    csum_fold(csum_add(acc, tcp))
}

/// The RQD option (core/src/rqd.rs wire format) with `exid`.
fn rqd_opt(exid: u16, delay: u32, ttl: u8) -> [u8; 10] {
    let e = exid.to_be_bytes();
    let d = delay.to_be_bytes();
    [253, 10, e[0], e[1], d[0], d[1], d[2], d[3], ttl, 1 << 4]
}

const EXID: u16 = 0x5357;
const FOREIGN_EXID: u16 = 0x1234;

/// The forged INT echo of the `int-*` modes: two records at 10 Gbit/s, the first with the largest
/// queue a record can carry (a stack that, used, would cut any INT law's window), the clock `k`
/// µs; with `foreign`, the ExID is not ours (`int-control`).
fn int_echo(k: u64, foreign: bool) -> Vec<u8> {
    let rate = rdcc_core::int::RATE_TABLE_BPS[0];
    let mut st = rdcc_core::int::IntStack::EMPTY;
    let ts = k.wrapping_mul(1000);
    for q in [rdcc_core::int::QLEN_MAX_BYTES, 0] {
        if let Some(h) = rdcc_core::int::IntHop::encode(q, k << 10, ts, rate) {
            st.push(h);
        }
    }
    let mut b = [0u8; rdcc_core::int_wire::MAX_OPTIONS_LEN];
    let n = rdcc_core::int_wire::write(&mut b, 2, true, false, &st);
    if foreign {
        b[2..4].copy_from_slice(&FOREIGN_EXID.to_be_bytes());
    }
    b[..n].to_vec()
}
/// 2^30: far outside any receive window (the sequence offset of "out of window" forgeries).
const FAR: u32 = 1 << 30;

/// Build the forged segment (TCP header and options; the IP header is added by `ip_packet`)
/// for data segment `d` of flow `f`; `k` counts forgeries (alternates sub-variants).
fn forge_tcp(m: Mode, f: &Flow, d: &Seg, k: u64) -> Vec<u8> {
    let next = d.seq.wrapping_add(d.payload);
    let (ack, seq) = match m {
        Mode::BadSum | Mode::IntBadSum => (next, f.rcv_seq),
        Mode::Future => (next.wrapping_add(FAR), f.rcv_seq),
        Mode::Old => (next.wrapping_sub(1 << 20), f.rcv_seq),
        _ => (next, f.rcv_seq.wrapping_add(FAR)),
    };
    let mut opts: Vec<u8> = Vec::new();
    if let Some(ts) = f.rcv_tsval {
        opts.extend_from_slice(&[1, 1, 8, 10]);
        opts.extend_from_slice(&ts.to_be_bytes());
        opts.extend_from_slice(&d.tsval.unwrap_or(0).to_be_bytes());
    }
    match m {
        Mode::Control => opts.extend_from_slice(&rqd_opt(FOREIGN_EXID, u32::MAX, 63)),
        Mode::NoOption => {}
        Mode::IntControl => opts.extend_from_slice(&int_echo(k, true)),
        Mode::IntEcho | Mode::IntBadSum => opts.extend_from_slice(&int_echo(k, false)),
        Mode::Ttl(t) => opts.extend_from_slice(&rqd_opt(EXID, 10_000, t)),
        Mode::Truncated if k % 2 == 0 => {
            // Our ExID with length 8: a truncated option (the list itself is well formed).
            let o = rqd_opt(EXID, u32::MAX, 63);
            opts.extend_from_slice(&[253, 8]);
            opts.extend_from_slice(&o[2..8]);
        }
        Mode::Truncated => {
            // The option's length runs past the end of the header.
            opts.extend_from_slice(&rqd_opt(EXID, u32::MAX, 63)[..8]);
        }
        _ => opts.extend_from_slice(&rqd_opt(EXID, u32::MAX, 63)),
    }
    while opts.len() % 4 != 0 {
        opts.push(1);
    }
    let mut doff = (20 + opts.len()) / 4;
    if m == Mode::BadDoff {
        doff = if k % 2 == 0 { 15 } else { 3 };
        // doff 15 claims 60 bytes of header; the packet ends after the real ones.
    }
    let mut t = Vec::with_capacity(20 + opts.len());
    t.extend_from_slice(&d.dport.to_be_bytes()); // from the receiver's port
    t.extend_from_slice(&d.sport.to_be_bytes());
    t.extend_from_slice(&seq.to_be_bytes());
    t.extend_from_slice(&ack.to_be_bytes());
    t.push((doff as u8) << 4);
    t.push(0x10); // ACK
    t.extend_from_slice(&f.rcv_win.to_be_bytes());
    t.extend_from_slice(&[0, 0, 0, 0]); // checksum, urgent pointer
    t.extend_from_slice(&opts);
    t
}

/// IPv6 extension headers for `v6ext`: hop-by-hop (PadN), destination options (PadN) and a
/// routing header (type 253, experimental, segments left 0), then TCP.
fn v6_ext_chain() -> Vec<u8> {
    let mut h = Vec::new();
    h.extend_from_slice(&[60, 0, 1, 4, 0, 0, 0, 0]); // HBH -> DST, PadN(4)
    h.extend_from_slice(&[43, 0, 1, 4, 0, 0, 0, 0]); // DST -> Routing, PadN(4)
    h.extend_from_slice(&[6, 0, 253, 0, 0, 0, 0, 0]); // Routing type 253, segleft 0 -> TCP
    h
}

/// The whole IP packet: header, (IPv6 extension headers), TCP with its checksum.
pub(crate) fn ip_packet(m: Mode, src: IpAddr, dst: IpAddr, mut tcp: Vec<u8>) -> Vec<u8> {
    let mut sum = tcp_csum(src, dst, &tcp);
    if m == Mode::BadSum || m == Mode::IntBadSum {
        sum ^= 0x5a5a;
    }
    tcp[16..18].copy_from_slice(&sum.to_be_bytes());
    match (src, dst) {
        (IpAddr::V4(s), IpAddr::V4(d)) => {
            let tot = (20 + tcp.len()) as u16;
            let mut h = vec![0x45, 0];
            h.extend_from_slice(&tot.to_be_bytes());
            h.extend_from_slice(&[0, 0, 0x40, 0, 64, 6, 0, 0]);
            h.extend_from_slice(&s.octets());
            h.extend_from_slice(&d.octets());
            let c = csum_fold(csum_add(0, &h));
            h[10..12].copy_from_slice(&c.to_be_bytes());
            h.extend_from_slice(&tcp);
            h
        }
        (s, d) => {
            let ext = if m == Mode::V6Ext {
                v6_ext_chain()
            } else {
                Vec::new()
            };
            let v6 = |a: IpAddr| match a {
                IpAddr::V6(x) => x,
                IpAddr::V4(x) => x.to_ipv6_mapped(),
            };
            let pl = (ext.len() + tcp.len()) as u16;
            let mut h = vec![0x60, 0, 0, 0];
            h.extend_from_slice(&pl.to_be_bytes());
            h.push(if ext.is_empty() { 6 } else { 0 });
            h.push(64);
            h.extend_from_slice(&v6(s).octets());
            h.extend_from_slice(&v6(d).octets());
            h.extend_from_slice(&ext);
            h.extend_from_slice(&tcp);
            h
        }
    }
}

/// Bind an AF_PACKET socket to an interface.
pub fn bind_packet(fd: RawFd, iface: &str) -> Result<()> {
    let c = std::ffi::CString::new(iface)?;
    // SAFETY: valid NUL-terminated name.
    let idx = unsafe { libc::if_nametoindex(c.as_ptr()) };
    if idx == 0 {
        bail!("{iface}: no such interface");
    }
    // SAFETY: zeroed sockaddr_ll is valid; fields set below.
    let mut sll: libc::sockaddr_ll = unsafe { std::mem::zeroed() };
    sll.sll_family = libc::AF_PACKET as u16;
    sll.sll_protocol = (libc::ETH_P_ALL as u16).to_be();
    sll.sll_ifindex = idx as i32;
    // SAFETY: sll is a valid sockaddr_ll of the given size.
    let r = unsafe {
        libc::bind(
            fd,
            &sll as *const _ as *const libc::sockaddr,
            std::mem::size_of::<libc::sockaddr_ll>() as libc::socklen_t,
        )
    };
    if r != 0 {
        bail!("bind {iface}: {}", std::io::Error::last_os_error());
    }
    Ok(())
}

pub fn set_rcv_timeout(fd: RawFd, d: Duration) -> Result<()> {
    let tv = libc::timeval {
        tv_sec: d.as_secs() as libc::time_t,
        tv_usec: d.subsec_micros() as libc::suseconds_t,
    };
    // SAFETY: valid socket and option buffer.
    let r = unsafe {
        libc::setsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_RCVTIMEO,
            &tv as *const _ as *const libc::c_void,
            std::mem::size_of::<libc::timeval>() as libc::socklen_t,
        )
    };
    if r != 0 {
        bail!("SO_RCVTIMEO: {}", std::io::Error::last_os_error());
    }
    Ok(())
}

pub(crate) fn sock(domain: libc::c_int, ty: libc::c_int, proto: libc::c_int) -> Result<OwnedFd> {
    // SAFETY: plain socket(2).
    let fd = unsafe { libc::socket(domain, ty, proto) };
    if fd < 0 {
        bail!("socket: {}", std::io::Error::last_os_error());
    }
    // SAFETY: a new descriptor nobody else owns.
    Ok(unsafe { OwnedFd::from_raw_fd(fd) })
}

/// Send a raw IP packet (IP_HDRINCL: IPPROTO_RAW) to `dst`.
pub(crate) fn send_raw(fd4: RawFd, fd6: RawFd, dst: IpAddr, pkt: &[u8]) -> bool {
    let r = match dst {
        IpAddr::V4(a) => {
            // SAFETY: zeroed sockaddr_in is valid; fields set below.
            let mut sa: libc::sockaddr_in = unsafe { std::mem::zeroed() };
            sa.sin_family = libc::AF_INET as u16;
            sa.sin_addr.s_addr = u32::from_ne_bytes(a.octets());
            // SAFETY: pkt and sa are valid for their lengths.
            unsafe {
                libc::sendto(
                    fd4,
                    pkt.as_ptr() as *const libc::c_void,
                    pkt.len(),
                    0,
                    &sa as *const _ as *const libc::sockaddr,
                    std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
                )
            }
        }
        IpAddr::V6(a) => {
            // SAFETY: zeroed sockaddr_in6 is valid; fields set below.
            let mut sa: libc::sockaddr_in6 = unsafe { std::mem::zeroed() };
            sa.sin6_family = libc::AF_INET6 as u16;
            sa.sin6_addr.s6_addr = a.octets();
            // SAFETY: pkt and sa are valid for their lengths.
            unsafe {
                libc::sendto(
                    fd6,
                    pkt.as_ptr() as *const libc::c_void,
                    pkt.len(),
                    0,
                    &sa as *const _ as *const libc::sockaddr,
                    std::mem::size_of::<libc::sockaddr_in6>() as libc::socklen_t,
                )
            }
        }
    };
    r == pkt.len() as isize
}

/// One packet from `fd` into `buf` without blocking: its length (truncated to `buf`), or `None`.
pub(crate) fn recv_now(fd: RawFd, buf: &mut [u8]) -> Option<usize> {
    // SAFETY: buf is writable for its length.
    let r = unsafe {
        libc::recv(
            fd,
            buf.as_mut_ptr() as *mut libc::c_void,
            buf.len(),
            libc::MSG_DONTWAIT,
        )
    };
    usize::try_from(r)
        .ok()
        .filter(|&n| n > 0)
        .map(|n| n.min(buf.len()))
}

/// The longest wait for a packet: the loop checks its deadline at least this often.
const POLL_MAX: Duration = Duration::from_millis(200);

/// Waits up to `d` for `fd` to become readable (`ppoll`, nanosecond timeout): true if it is;
/// false on timeout or a signal.
pub(crate) fn readable(fd: RawFd, d: Duration) -> Result<bool> {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let ts = libc::timespec {
        tv_sec: d.as_secs() as libc::time_t,
        tv_nsec: d.subsec_nanos() as libc::c_long,
    };
    // SAFETY: p is one valid pollfd for the call, ts a valid timespec, no signal mask.
    let r = unsafe { libc::ppoll(&mut p, 1, &ts, std::ptr::null()) };
    if r < 0 {
        let e = std::io::Error::last_os_error();
        if e.kind() == std::io::ErrorKind::Interrupted {
            return Ok(false);
        }
        bail!("ppoll: {e}");
    }
    Ok(r > 0 && p.revents & libc::POLLIN != 0)
}

pub fn main(a: &InjectArgs) -> Result<()> {
    let m = mode(&a.mode).ok_or_else(|| anyhow!("unknown mode {}", a.mode))?;
    let (iface, port, every, secs) = (a.iface.as_str(), a.port, a.every, a.secs);
    let eth_p_all = (libc::ETH_P_ALL as u16).to_be() as libc::c_int;
    let sniff = sock(libc::AF_PACKET, libc::SOCK_RAW, eth_p_all)?;
    use std::os::fd::AsRawFd;
    bind_packet(sniff.as_raw_fd(), iface)?;
    let raw4 = sock(libc::AF_INET, libc::SOCK_RAW, libc::IPPROTO_RAW)?;
    let raw6 = sock(libc::AF_INET6, libc::SOCK_RAW, libc::IPPROTO_RAW)?;

    let mut flows: Vec<Flow> = Vec::new();
    // supersede: the option-less segment, sent at the next data segment seen (no --gap-us) ...
    let mut second: Option<(IpAddr, Vec<u8>)> = None;
    // ... or when due (--gap-us), in the order queued (one gap for all: due times ascend).
    let gap = a.gap_us.map(Duration::from_micros);
    let mut timed: VecDeque<(Instant, IpAddr, Vec<u8>)> = VecDeque::new();
    let (mut data, mut acks, mut sent, mut errors) = (0u64, 0u64, 0u64, 0u64);
    // Headers are enough (lengths come from the IP header): copy 256 bytes per packet, not the
    // whole segment, to keep the injector's own CPU use low under emulation.
    let mut buf = vec![0u8; 256];
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(secs) {
        let now = Instant::now();
        while timed.front().is_some_and(|t| t.0 <= now) {
            let (_, dst, pkt) = timed.pop_front().expect("front checked");
            if send_raw(raw4.as_raw_fd(), raw6.as_raw_fd(), dst, &pkt) {
                sent += 1;
            } else {
                errors += 1;
            }
        }
        let wait = timed.front().map_or(POLL_MAX, |t| {
            t.0.saturating_duration_since(now).min(POLL_MAX)
        });
        if !readable(sniff.as_raw_fd(), wait)? {
            continue;
        }
        let Some(r) = recv_now(sniff.as_raw_fd(), &mut buf) else {
            continue;
        };
        let Some(s) = parse(&buf[..r]) else {
            continue;
        };
        if s.sport == port {
            // The receiver's real ACK: its sequence number, TSval and window.
            acks += 1;
            let key = (s.dst, s.dport);
            if let Some(f) = flows.iter_mut().find(|f| f.snd == Some(key)) {
                f.rcv_seq = s.seq.wrapping_add(s.payload);
                f.rcv_tsval = s.tsval;
                f.rcv_win = s.win;
                f.have_ack = true;
            }
            continue;
        }
        if s.dport != port || s.payload == 0 {
            continue;
        }
        data += 1;
        // supersede's second segment without --gap-us goes out one data segment later, still
        // well before the real ACK of that ack_seq (the attack trials judge that it is
        // superseded; the owned-socket check uses --gap-us: see the top of this file).
        if let Some((dst, pkt)) = second.take() {
            if send_raw(raw4.as_raw_fd(), raw6.as_raw_fd(), dst, &pkt) {
                sent += 1;
            } else {
                errors += 1;
            }
        }
        let key = (s.src, s.sport);
        let idx = match flows.iter().position(|f| f.snd == Some(key)) {
            Some(i) => i,
            None => {
                flows.push(Flow {
                    snd: Some(key),
                    ..Flow::default()
                });
                flows.len() - 1
            }
        };
        let f = &mut flows[idx];
        f.data += 1;
        if !f.have_ack || f.data % every != 0 {
            continue;
        }
        if m == Mode::V6Ext && s.src.is_ipv4() {
            continue;
        }
        let tcp = forge_tcp(m, f, &s, f.data / every);
        let pkt = ip_packet(m, s.dst, s.src, tcp);
        if send_raw(raw4.as_raw_fd(), raw6.as_raw_fd(), s.src, &pkt) {
            sent += 1;
        } else {
            errors += 1;
        }
        if m == Mode::Supersede {
            let tcp = forge_tcp(Mode::NoOption, f, &s, f.data / every);
            let pkt = ip_packet(m, s.dst, s.src, tcp);
            match gap {
                Some(g) => timed.push_back((Instant::now() + g, s.src, pkt)),
                None => second = Some((s.src, pkt)),
            }
        }
    }
    println!(
        "inject mode={m:?} data={data} acks={acks} sent={sent} errors={errors} flows={}",
        flows.len()
    );
    if sent == 0 {
        bail!("no forged ACK sent (no flow seen?)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data_seg() -> Seg {
        Seg {
            src: "10.0.0.1".parse().unwrap(),
            dst: "10.0.1.2".parse().unwrap(),
            sport: 40000,
            dport: 5201,
            seq: 1000,
            ack: 1,
            win: 500,
            payload: 1448,
            tsval: Some(77),
        }
    }

    fn flow() -> Flow {
        Flow {
            rcv_seq: 5000,
            rcv_tsval: Some(99),
            rcv_win: 1234,
            have_ack: true,
            ..Flow::default()
        }
    }

    /// Round trip: the forged packet parses back with the fields the mode promises, and its
    /// checksums verify (a correct packet sums to 0xffff -> folds to 0).
    #[test]
    fn every_mode_name_has_a_mode() {
        for m in MODES {
            assert!(mode(m).is_some(), "{m}");
        }
        assert_eq!(mode("nosuch"), None);
    }

    /// The INT modes: the echo parses as ours (two records, the first a full queue) unless the
    /// ExID is foreign; only `int-badsum` has a bad checksum and the real sequence number.
    #[test]
    fn int_modes() {
        let d = data_seg();
        let f = flow();
        let next = 1000 + 1448;
        for (m, seq, ours) in [
            (Mode::IntControl, 5000 + FAR, false),
            (Mode::IntEcho, 5000 + FAR, true),
            (Mode::IntBadSum, 5000, true),
        ] {
            let tcp = forge_tcp(m, &f, &d, 3);
            assert!(tcp.len() <= 60, "{m:?}: header {} bytes", tcp.len());
            let ip = ip_packet(m, d.dst, d.src, tcp.clone());
            let mut frame = vec![0u8; 12];
            frame.extend_from_slice(&[0x08, 0x00]);
            frame.extend_from_slice(&ip);
            let s = parse(&frame).expect("parses");
            assert_eq!((s.ack, s.seq), (next, seq), "{m:?}");
            assert_eq!(s.tsval, Some(99), "{m:?}");
            let ok = tcp_csum(d.dst, d.src, &ip[20..]) == 0;
            assert_eq!(ok, m != Mode::IntBadSum, "{m:?} TCP checksum");
            let got = rdcc_core::int_wire::parse(&tcp[20..]).expect("well formed");
            match got {
                Some(o) => {
                    assert!(ours, "{m:?}");
                    assert!(o.echo);
                    assert_eq!(o.stack.hops().len(), 2);
                    assert_eq!(
                        o.stack.hops()[0].qlen_bytes(),
                        rdcc_core::int::QLEN_MAX_BYTES
                    );
                }
                None => assert!(!ours, "{m:?}"),
            }
        }
    }

    #[test]
    fn forged_fields() {
        let d = data_seg();
        let f = flow();
        let next = 1000 + 1448;
        let cases: &[(Mode, u32, u32)] = &[
            (Mode::DelayMax, next, 5000 + FAR),
            (Mode::Control, next, 5000 + FAR),
            (Mode::Ttl(129), next, 5000 + FAR),
            (Mode::BadSum, next, 5000),
            (Mode::Future, next + FAR, 5000),
            (Mode::Old, next.wrapping_sub(1 << 20), 5000),
        ];
        for &(m, ack, seq) in cases {
            let tcp = forge_tcp(m, &f, &d, 0);
            let ip = ip_packet(m, d.dst, d.src, tcp.clone());
            let mut frame = vec![0u8; 12];
            frame.extend_from_slice(&[0x08, 0x00]);
            frame.extend_from_slice(&ip);
            let s = parse(&frame).expect("parses");
            assert_eq!(
                (s.ack, s.seq, s.sport, s.dport),
                (ack, seq, 5201, 40000),
                "{m:?}"
            );
            assert_eq!(s.tsval, Some(99), "{m:?}");
            assert_eq!(s.payload, 0, "{m:?}");
            assert_eq!(csum_fold(csum_add(0, &ip[..20])), 0, "{m:?} IP checksum");
            let ok = tcp_csum(d.dst, d.src, &ip[20..]) == 0;
            assert_eq!(ok, m != Mode::BadSum, "{m:?} TCP checksum");
            // The RQD option follows the timestamps.
            let opt = &ip[20 + 32..20 + 42];
            let exid = if m == Mode::Control {
                FOREIGN_EXID
            } else {
                EXID
            };
            assert_eq!(
                &opt[..4],
                &[253, 10, (exid >> 8) as u8, exid as u8],
                "{m:?}"
            );
            let ttl = if let Mode::Ttl(t) = m { t } else { 63 };
            assert_eq!(opt[8], ttl, "{m:?}");
        }
    }

    #[test]
    fn broken_shapes() {
        let d = data_seg();
        let f = flow();
        let t0 = forge_tcp(Mode::BadDoff, &f, &d, 0);
        assert_eq!(t0[12] >> 4, 15);
        assert!(t0.len() < 60, "doff 15 claims more than the packet has");
        assert_eq!(forge_tcp(Mode::BadDoff, &f, &d, 1)[12] >> 4, 3);
        let tr = forge_tcp(Mode::Truncated, &f, &d, 0);
        assert_eq!(&tr[32..36], &[253, 8, 0x53, 0x57]);
        let tr = forge_tcp(Mode::Truncated, &f, &d, 1);
        // 8 bytes of a 10-byte option at the end of the header.
        assert_eq!(&tr[32..34], &[253, 10]);
        assert_eq!(tr.len(), 40);
        // IPv6 with the extension-header chain: next header 0, then 60, 43, 6.
        let src: IpAddr = "fd00:1::2".parse().unwrap();
        let dst: IpAddr = "fd00::1".parse().unwrap();
        let tcp = forge_tcp(Mode::V6Ext, &f, &d, 0);
        let p = ip_packet(Mode::V6Ext, src, dst, tcp.clone());
        assert_eq!(p[6], 0);
        assert_eq!((p[40], p[48], p[56]), (60, 43, 6));
        assert_eq!(tcp_csum(src, dst, &p[64..]), 0);
        // supersede's second segment: the same ack_seq and seq, timestamps, no RQD option.
        let a = forge_tcp(Mode::Supersede, &f, &d, 0);
        let b = forge_tcp(Mode::NoOption, &f, &d, 0);
        assert_eq!(&a[..12], &b[..12], "ports, seq and ack_seq");
        assert_eq!(b.len(), 32, "header and timestamps only");
        assert_eq!(&b[20..24], &[1, 1, 8, 10]);
        assert_eq!(&a[32..36], &[253, 10, 0x53, 0x57]);
    }
}
