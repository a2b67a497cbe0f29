// SPDX-License-Identifier: GPL-2.0-only
//! `rxstamp int-probe forge`: data segments with malformed INT requests, aimed at a live
//! connection's receiver (issue #35 item 2: the receiver must count them and echo none). Test
//! code only: it runs in the sender's namespace of the test bed.
//!
//! ```text
//! rxstamp int-probe forge IFACE --port P --count N
//! ```
//!
//! Watches IFACE for the receiver's ACKs from port P (IPv4, with timestamps) and, after each
//! of N of them, sends the receiver a data segment of the same connection: sequence number
//! [`AHEAD`] bytes beyond the ACK number, in turn (the ACK the forger read is older than the
//! receiver's `rcv_nxt` by the time the segment arrives, by an amount it cannot know; a segment
//! behind `rcv_nxt` or beyond the window is dropped before the parse), the ACK's sequence
//! number as its ACK number, the ACK's TSecr plus [`TS_AHEAD`] as its TSval (PAWS rejects
//! only TSvals behind the receiver's `ts_recent`, which the flow moves on between the ACK and
//! the forged segment's arrival; an out-of-order segment never updates it), 100 zero bytes
//! (what `rxstamp source` sends anyway), and an INT request with, in turn, a bad length, a bad
//! version or more records than slots ([`Form`]).

use anyhow::{bail, Result};
use rdcc_core::int_wire;
use std::net::{IpAddr, Ipv4Addr};
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use crate::inject::{bind_packet, ip_packet, readable, recv_now, send_raw, sock, Mode};

/// The malformed forms, in the order they are sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// Length 14: not 5 + 8n.
    Len,
    /// Version 2.
    Ver,
    /// Three records in one slot.
    Cnt,
}

pub const FORMS: [Form; 3] = [Form::Len, Form::Ver, Form::Cnt];

/// How far ahead of the ACK's TSecr the forged TSval is, in the peer's timestamp ticks (ms on
/// Linux; 100 s).
pub const TS_AHEAD: u32 = 100_000;

/// The sequence offsets beyond the ACK number, taken in turn.
pub const AHEAD: [u32; 4] = [1 << 16, 1 << 18, 1 << 20, 1 << 22];

/// Packets read at most before one forged segment.
const DRAIN_MAX: usize = 256;

/// The malformed INT option of `form`.
pub fn bad_option(form: Form) -> Vec<u8> {
    let exid = int_wire::EXID.to_be_bytes();
    let v1 = int_wire::VERSION << 6;
    match form {
        Form::Len => {
            let mut o = vec![int_wire::KIND, 14, exid[0], exid[1], v1];
            o.resize(14, 0);
            o
        }
        Form::Ver => {
            let mut o = vec![int_wire::KIND, 13, exid[0], exid[1], 2 << 6];
            o.resize(13, 0);
            o
        }
        Form::Cnt => {
            let mut o = vec![int_wire::KIND, 13, exid[0], exid[1], v1 | 3];
            o.resize(13, 0);
            o
        }
    }
}

/// What the forger needs of one of the receiver's ACKs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckSeen {
    pub rcv: Ipv4Addr,
    pub snd: Ipv4Addr,
    pub snd_port: u16,
    pub seq: u32,
    pub ack: u32,
    pub tsval: u32,
    pub tsecr: u32,
}

/// An IPv4 TCP segment from `port` with the timestamp option.
pub fn ack_seen(frame: &[u8], port: u16) -> Option<AckSeen> {
    if frame.get(12..14)? != [0x08, 0x00] {
        return None;
    }
    let ip = frame.get(14..)?;
    if *ip.get(9)? != 6 {
        return None;
    }
    let ihl = usize::from(ip.first()? & 0xf) * 4;
    let rcv = Ipv4Addr::from(<[u8; 4]>::try_from(ip.get(12..16)?).ok()?);
    let snd = Ipv4Addr::from(<[u8; 4]>::try_from(ip.get(16..20)?).ok()?);
    let tcp = ip.get(ihl..)?;
    let be16 = |i: usize| Some(u16::from_be_bytes([*tcp.get(i)?, *tcp.get(i + 1)?]));
    let be32 = |b: &[u8], i: usize| Some(u32::from_be_bytes(b.get(i..i + 4)?.try_into().ok()?));
    if be16(0)? != port {
        return None;
    }
    let doff = usize::from(tcp.get(12)? >> 4) * 4;
    let opts = tcp.get(20..doff)?;
    let mut i = 0;
    while let Some(&kind) = opts.get(i) {
        match kind {
            0 => break,
            1 => i += 1,
            _ => {
                let len = usize::from(*opts.get(i + 1)?);
                if len < 2 {
                    return None;
                }
                if kind == 8 && len == 10 {
                    return Some(AckSeen {
                        rcv,
                        snd,
                        snd_port: be16(2)?,
                        seq: be32(tcp, 4)?,
                        ack: be32(tcp, 8)?,
                        tsval: be32(opts, i + 2)?,
                        tsecr: be32(opts, i + 6)?,
                    });
                }
                i += len;
            }
        }
    }
    None
}

/// The forged data segment (TCP header, options, payload; checksum left to `ip_packet`).
pub fn forged_segment(a: &AckSeen, port: u16, form: Form, ahead: u32) -> Vec<u8> {
    let mut opts = vec![1, 1, 8, 10];
    opts.extend_from_slice(&a.tsecr.wrapping_add(TS_AHEAD).to_be_bytes());
    opts.extend_from_slice(&a.tsval.to_be_bytes());
    opts.extend_from_slice(&bad_option(form));
    while opts.len() % 4 != 0 {
        opts.push(1);
    }
    let mut t = Vec::new();
    t.extend_from_slice(&a.snd_port.to_be_bytes());
    t.extend_from_slice(&port.to_be_bytes());
    t.extend_from_slice(&a.ack.wrapping_add(ahead).to_be_bytes());
    t.extend_from_slice(&a.seq.to_be_bytes());
    t.push((((20 + opts.len()) / 4) as u8) << 4);
    t.push(0x18); // PSH, ACK
    t.extend_from_slice(&65535u16.to_be_bytes());
    t.extend_from_slice(&[0, 0, 0, 0]);
    t.extend_from_slice(&opts);
    t.resize(t.len() + 100, 0);
    t
}

pub fn forge(iface: &str, port: u16, count: u64, secs: u64) -> Result<()> {
    let eth_p_all = (libc::ETH_P_ALL as u16).to_be() as libc::c_int;
    let sniff = sock(libc::AF_PACKET, libc::SOCK_RAW, eth_p_all)?;
    // The smallest receive queue: the flow's packets overflow it, so what it holds is recent
    // (a deep queue held ACKs so old that the forged sequence numbers fell behind rcv_nxt, and
    // TCP dropped them before the parse).
    let small: libc::c_int = 1;
    // SAFETY: valid socket and option buffer of the given size.
    let r = unsafe {
        libc::setsockopt(
            sniff.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_RCVBUF,
            &small as *const _ as *const libc::c_void,
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if r != 0 {
        bail!("SO_RCVBUF: {}", std::io::Error::last_os_error());
    }
    bind_packet(sniff.as_raw_fd(), iface)?;
    let raw4 = sock(libc::AF_INET, libc::SOCK_RAW, libc::IPPROTO_RAW)?;
    let raw6 = sock(libc::AF_INET6, libc::SOCK_RAW, libc::IPPROTO_RAW)?;
    println!("int-probe forge: {iface} port {port}, ready");
    let mut buf = vec![0u8; 65536];
    let (mut sent, mut errors) = (0u64, 0u64);
    let mut per_form = [0u64; 3];
    let t0 = Instant::now();
    while sent < count && t0.elapsed() < Duration::from_secs(secs) {
        if !readable(sniff.as_raw_fd(), Duration::from_millis(200))? {
            continue;
        }
        // The first ACK of what is queued: draining the socket of a 10 Gbit/s flow could take
        // until the flow ends (it did in virtual time), and any ACK of the live connection
        // will do.
        let mut latest = None;
        for _ in 0..DRAIN_MAX {
            let Some(n) = recv_now(sniff.as_raw_fd(), &mut buf) else {
                break;
            };
            latest = ack_seen(&buf[..n], port);
            if latest.is_some() {
                break;
            }
        }
        let Some(a) = latest else { continue };
        let k = (sent % 3) as usize;
        let ahead = AHEAD[(sent / 3 % AHEAD.len() as u64) as usize];
        let tcp = forged_segment(&a, port, FORMS[k], ahead);
        let pkt = ip_packet(Mode::Control, IpAddr::V4(a.snd), IpAddr::V4(a.rcv), tcp);
        if send_raw(raw4.as_raw_fd(), raw6.as_raw_fd(), IpAddr::V4(a.rcv), &pkt) {
            sent += 1;
            per_form[k] += 1;
        } else {
            errors += 1;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    println!(
        "summary sent {sent} len {} ver {} cnt {} errors {errors}",
        per_form[0], per_form[1], per_form[2]
    );
    if errors > 0 {
        bail!("{errors} sends failed");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdcc_core::int_wire::ParseError;

    /// Each form is refused by the core's parser for the reason it is named after.
    #[test]
    fn forms_are_malformed_as_named() {
        let want = [
            ParseError::BadLength,
            ParseError::BadVersion,
            ParseError::BadCount,
        ];
        for (f, w) in FORMS.iter().zip(want) {
            let mut o = bad_option(*f);
            while o.len() % 4 != 0 {
                o.push(1);
            }
            assert_eq!(int_wire::parse(&o), Err(w), "{f:?}");
        }
    }

    #[test]
    fn forged_segment_follows_the_ack() {
        // An ACK frame from port 5201 with timestamps.
        let mut f = vec![0u8; 12];
        f.extend_from_slice(&[0x08, 0x00, 0x45, 0, 0, 52, 0, 0, 0, 0, 64, 6, 0, 0]);
        f.extend_from_slice(&[10, 0, 1, 2, 10, 0, 0, 1]);
        f.extend_from_slice(&5201u16.to_be_bytes());
        f.extend_from_slice(&40000u16.to_be_bytes());
        f.extend_from_slice(&7u32.to_be_bytes()); // seq
        f.extend_from_slice(&1000u32.to_be_bytes()); // ack
        f.extend_from_slice(&[0x80, 0x10, 0xff, 0xff, 0, 0, 0, 0]);
        f.extend_from_slice(&[1, 1, 8, 10, 0, 0, 0, 5, 0, 0, 0, 9]);
        let a = ack_seen(&f, 5201).expect("an ACK with timestamps");
        assert_eq!(
            (a.seq, a.ack, a.tsval, a.tsecr, a.snd_port),
            (7, 1000, 5, 9, 40000)
        );
        assert!(ack_seen(&f, 5202).is_none());
        let t = forged_segment(&a, 5201, Form::Cnt, 65536);
        assert_eq!(
            u32::from_be_bytes(t[4..8].try_into().unwrap()),
            1000 + 65536
        );
        assert_eq!(u32::from_be_bytes(t[8..12].try_into().unwrap()), 7);
        let doff = usize::from(t[12] >> 4) * 4;
        assert_eq!(t.len(), doff + 100);
        // TSval = the ACK's TSecr + TS_AHEAD; the INT option refused as BadCount.
        assert_eq!(&t[24..28], &(9 + TS_AHEAD).to_be_bytes());
        assert_eq!(int_wire::parse(&t[20..doff]), Err(ParseError::BadCount));
    }
}
