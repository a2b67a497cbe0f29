// SPDX-License-Identifier: GPL-2.0-only
//! Test helpers that poke a live connection or watch an interface (never part of the receiver
//! itself): switching a socket's congestion control while options arrive, reading TCP_CC_INFO
//! in a tight loop, and the largest segment an interface carries.

use anyhow::{anyhow, bail, Result};
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Alternate `TCP_CONGESTION` of `fd` between `algs` every `every` until `done`; the number of
/// successful switches.
pub fn switch_cc(fd: RawFd, algs: &[String], every: Duration, done: &AtomicBool) -> Result<u64> {
    let mut n = 0u64;
    let mut i = 0usize;
    while !done.load(Ordering::SeqCst) {
        std::thread::sleep(every);
        i = (i + 1) % algs.len();
        let name = algs[i].as_bytes();
        // SAFETY: fd is the caller's open TCP socket; name points to name.len() bytes.
        let r = unsafe {
            libc::setsockopt(
                fd,
                libc::IPPROTO_TCP,
                libc::TCP_CONGESTION,
                name.as_ptr() as *const libc::c_void,
                name.len() as libc::socklen_t,
            )
        };
        if r != 0 {
            let e = std::io::Error::last_os_error();
            // The socket went away at the end of the run: not an error of the switch.
            if done.load(Ordering::SeqCst) {
                break;
            }
            bail!("TCP_CONGESTION {}: {e}", algs[i]);
        }
        n += 1;
    }
    Ok(n)
}

/// The pause between two TCP_CC_INFO reads of [`poll_cc_info`].
const POLL_PAUSE: Duration = Duration::from_micros(10);

/// Read `TCP_CC_INFO` of `fd` every [`POLL_PAUSE`] until `done`: (reads, reads with data).
pub fn poll_cc_info(fd: RawFd, done: &AtomicBool) -> Result<(u64, u64)> {
    let mut reads = 0u64;
    let mut nonempty = 0u64;
    let mut buf = [0u8; 64];
    while !done.load(Ordering::SeqCst) {
        let mut len = buf.len() as libc::socklen_t;
        // SAFETY: buf is writable for len bytes; len is updated by the kernel.
        let r = unsafe {
            libc::getsockopt(
                fd,
                libc::IPPROTO_TCP,
                libc::TCP_CC_INFO,
                buf.as_mut_ptr() as *mut libc::c_void,
                &mut len,
            )
        };
        if r != 0 {
            if done.load(Ordering::SeqCst) {
                break;
            }
            bail!("TCP_CC_INFO: {}", std::io::Error::last_os_error());
        }
        reads += 1;
        if len > 0 {
            nonempty += 1;
        }
        // Sleep between reads: a loop that never sleeps stops the clock of a guest in virtual
        // time (UML `time-travel=inf-cpu` advances only while the CPU is idle), and then the
        // switcher and the flow never run. Ten microseconds (plus the timer slack) still gives
        // hundreds of reads per 5 ms switch interval.
        std::thread::sleep(POLL_PAUSE);
    }
    Ok((reads, nonempty))
}

/// `struct virtio_net_hdr` (PACKET_VNET_HDR): GSO packets carry their segment size here.
#[repr(C)]
#[derive(Default, Clone, Copy)]
struct VnetHdr {
    flags: u8,
    gso_type: u8,
    hdr_len: u16,
    gso_size: u16,
    csum_start: u16,
    csum_offset: u16,
}

/// A TCP packet as mtu-watch sees it.
#[derive(Debug, PartialEq, Eq)]
pub struct WireSeg {
    /// IP length of each segment it becomes on the wire.
    pub len: u64,
    /// A GSO packet (several segments).
    pub gso: bool,
    /// Source port, TCP header length and whether it carries payload.
    pub sport: u16,
    pub tcp_hdr: u64,
    pub data: bool,
}

/// A TCP packet's segments on the wire: their IP length is the packet's, or for a GSO packet
/// its IP and TCP headers plus gso_size. `frame` starts at the Ethernet header.
pub fn wire_segment(frame: &[u8], gso_size: u16) -> Option<WireSeg> {
    let et = u16::from_be_bytes([*frame.get(12)?, *frame.get(13)?]);
    let ip = frame.get(14..)?;
    let (l3_len, thoff, proto) = match et {
        0x0800 => {
            let ihl = (ip.first()? & 0xf) as usize * 4;
            let tot = u16::from_be_bytes([*ip.get(2)?, *ip.get(3)?]) as u64;
            (
                if tot == 0 { ip.len() as u64 } else { tot },
                ihl,
                *ip.get(9)?,
            )
        }
        0x86dd => {
            let pl = u16::from_be_bytes([*ip.get(4)?, *ip.get(5)?]) as u64;
            (
                if pl == 0 { ip.len() as u64 } else { pl + 40 },
                40,
                *ip.get(6)?,
            )
        }
        _ => return None,
    };
    if proto != 6 {
        return None;
    }
    let doff = ((ip.get(thoff + 12)? >> 4) as usize) * 4;
    let sport = u16::from_be_bytes([*ip.get(thoff)?, *ip.get(thoff + 1)?]);
    let hdrs = (thoff + doff) as u64;
    Some(WireSeg {
        len: if gso_size == 0 {
            l3_len
        } else {
            hdrs + gso_size as u64
        },
        gso: gso_size != 0,
        sport,
        tcp_hdr: doff as u64,
        data: l3_len > hdrs,
    })
}

/// Watch TCP packets on `iface` (both directions) for `secs` s; print the largest on-wire
/// segment and how many exceed `mtu`. With `room = Some((port, min))`, also count the data
/// segments from source port `port` whose TCP header is shorter than `min` bytes (the option's
/// room was not reserved: such a segment's MSS left no space for it).
pub fn mtu_watch(iface: &str, mtu: u64, secs: u64, room: Option<(u16, u64)>) -> Result<()> {
    let eth_p_all = (libc::ETH_P_ALL as u16).to_be();
    // SAFETY: plain socket(2).
    let fd = unsafe { libc::socket(libc::AF_PACKET, libc::SOCK_RAW, eth_p_all as libc::c_int) };
    if fd < 0 {
        bail!("AF_PACKET: {}", std::io::Error::last_os_error());
    }
    // SAFETY: fd is ours from here on.
    let _own = unsafe { <std::os::fd::OwnedFd as std::os::fd::FromRawFd>::from_raw_fd(fd) };
    let one: libc::c_int = 1;
    // SAFETY: valid socket and option buffer.
    if unsafe {
        libc::setsockopt(
            fd,
            libc::SOL_PACKET,
            libc::PACKET_VNET_HDR,
            &one as *const _ as *const libc::c_void,
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    } != 0
    {
        return Err(anyhow!(
            "PACKET_VNET_HDR: {}",
            std::io::Error::last_os_error()
        ));
    }
    crate::inject::bind_packet(fd, iface)?;
    crate::inject::set_rcv_timeout(fd, Duration::from_millis(200))?;
    let t0 = Instant::now();
    let (mut n, mut gso, mut over, mut max) = (0u64, 0u64, 0u64, 0u64);
    let (mut port_data, mut no_room) = (0u64, 0u64);
    let mut buf = vec![0u8; 70_000];
    let hl = std::mem::size_of::<VnetHdr>();
    while t0.elapsed() < Duration::from_secs(secs) {
        // SAFETY: buf is writable for its length.
        let r = unsafe { libc::recv(fd, buf.as_mut_ptr() as *mut libc::c_void, buf.len(), 0) };
        if r < 0 {
            continue; // timeout
        }
        let r = r as usize;
        if r < hl {
            continue;
        }
        let gso_size = u16::from_ne_bytes([buf[4], buf[5]]);
        if let Some(w) = wire_segment(&buf[hl..r], gso_size) {
            n += 1;
            gso += w.gso as u64;
            max = max.max(w.len);
            over += (w.len > mtu) as u64;
            if let Some((port, min)) = room {
                if w.sport == port && w.data {
                    port_data += 1;
                    no_room += (w.tcp_hdr < min) as u64;
                }
            }
        }
    }
    println!(
        "mtu_watch tcp_packets {n} gso_packets {gso} max_segment_bytes {max} over_mtu {over} mtu {mtu} port_data {port_data} no_room {no_room}"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame_v4(tot: u16, doff: u8) -> Vec<u8> {
        let mut f = vec![0u8; 14 + 20 + 20];
        f[12] = 0x08;
        f[14] = 0x45;
        f[16..18].copy_from_slice(&tot.to_be_bytes());
        f[14 + 9] = 6;
        f[14 + 20 + 12] = doff << 4;
        f
    }

    fn wire_segment_len(frame: &[u8], gso_size: u16) -> Option<(u64, bool)> {
        wire_segment(frame, gso_size).map(|w| (w.len, w.gso))
    }

    #[test]
    fn segment_lengths() {
        // A plain 1500-byte packet; a GSO packet of 1448-byte segments with 32 bytes of TCP
        // header (1500 on the wire) and with 42 (the option added: 1510 > 1500).
        assert_eq!(wire_segment_len(&frame_v4(1500, 8), 0), Some((1500, false)));
        assert_eq!(
            wire_segment_len(&frame_v4(60000, 8), 1448),
            Some((1500, true))
        );
        let mut f = frame_v4(60000, 8);
        f[14 + 20 + 12] = 13 << 4; // 52-byte header: timestamps + the 10-byte option + pad
        assert_eq!(wire_segment_len(&f, 1448), Some((1520, true)));
        // Not TCP / not IP / truncated.
        let mut u = frame_v4(100, 5);
        u[14 + 9] = 17;
        assert_eq!(wire_segment_len(&u, 0), None);
        assert_eq!(wire_segment_len(&[0u8; 10], 0), None);
        // Port, header length and payload.
        let mut d = frame_v4(1500, 11);
        d[14 + 20..14 + 22].copy_from_slice(&5201u16.to_be_bytes());
        let w = wire_segment(&d, 0).unwrap();
        assert_eq!((w.sport, w.tcp_hdr, w.data), (5201, 44, true));
        let ack = frame_v4(20 + 44, 11);
        assert!(!wire_segment(&ack, 0).unwrap().data);
    }
}
