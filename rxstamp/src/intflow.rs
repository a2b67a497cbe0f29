// SPDX-License-Identifier: GPL-2.0-only
//! `rxstamp int-probe flow`: judge the INT requests and echoes of live connections (issue #35
//! item 2; `bpf/int.bpf.c`). Test code only: it runs in the test bed's namespaces.
//!
//! ```text
//! rxstamp int-probe flow IFACE --port P --count N [--secs S]
//! ```
//!
//! Captures on IFACE (the sender's interface: both its data segments and the ACKs arriving at
//! it) the TCP segments to port P (data: each should carry a request, echo = 0, no record yet)
//! and from port P (ACKs: those carrying an echo are judged). Echoes are compared with the
//! previous echo of the same connection in the receiver's order, their ACK numbers' (each echo
//! needs an ACK number beyond the last one's: the stack's segment must be acknowledged, and it
//! was new data): every hop's transmitted bytes and, for pairs captured less than
//! [`TS_PAIR_MAX_NS`] apart, its timestamp must advance, and no stack may come twice. ACKs that
//! arrive out of that order (a bed with several CPUs can reorder packets between namespaces)
//! are counted.
//! Stops after N echoes or S seconds, prints one `summary` line ([`FlowSummary`]).

use anyhow::{bail, Result};
use rdcc_core::int::{IntHop, TS_BITS, TX_BITS, TX_UNIT_BYTES};
use rdcc_core::int_wire::{self, IntOption, ParseError};
use std::collections::HashMap;
use std::os::fd::{AsRawFd, RawFd};
use std::time::{Duration, Instant};

use crate::inject::{bind_packet, readable, sock};

/// Pairs of echoes captured further apart than this are not judged on their timestamps: the
/// switch clock wraps every 2^24 ns, so a step is unambiguous only below half of that.
pub const TS_PAIR_MAX_NS: u64 = 1 << (TS_BITS - 1);
/// A transmitted-bytes step at or above half the field's range reads as a step backwards.
const TX_HALF_BYTES: u64 = (1 << (TX_BITS - 1)) * TX_UNIT_BYTES;

/// One captured TCP segment of the flows under test.
#[derive(Clone, Debug, PartialEq)]
pub struct Obs {
    /// Kernel receive time of the capture, ns (CLOCK_REALTIME).
    pub t_ns: u64,
    /// To port P (true: the sender's data direction) or from it.
    pub to_port: bool,
    /// The other end's port: tells the connections apart.
    pub peer_port: u16,
    /// The segment's ACK number.
    pub ack: u32,
    /// TCP payload bytes.
    pub payload: u64,
    /// The INT option: none, a parse error, or the option.
    pub opt: Option<Result<IntOption, ParseError>>,
}

/// Parse one Ethernet frame: a TCP segment to or from `port`.
pub fn observe(frame: &[u8], port: u16, t_ns: u64) -> Option<Obs> {
    let et = u16::from_be_bytes([*frame.get(12)?, *frame.get(13)?]);
    let ip = frame.get(14..)?;
    let (l3_len, thoff) = match et {
        0x0800 if *ip.get(9)? == 6 => {
            let ihl = usize::from(ip.first()? & 0xf) * 4;
            let tot = usize::from(u16::from_be_bytes([*ip.get(2)?, *ip.get(3)?]));
            (if tot == 0 { ip.len() } else { tot }, ihl)
        }
        0x86dd if *ip.get(6)? == 6 => {
            let pl = usize::from(u16::from_be_bytes([*ip.get(4)?, *ip.get(5)?]));
            (if pl == 0 { ip.len() } else { pl + 40 }, 40)
        }
        _ => return None,
    };
    let tcp = ip.get(thoff..)?;
    let sport = u16::from_be_bytes([*tcp.first()?, *tcp.get(1)?]);
    let dport = u16::from_be_bytes([*tcp.get(2)?, *tcp.get(3)?]);
    let to_port = dport == port;
    if !to_port && sport != port {
        return None;
    }
    let doff = usize::from(tcp.get(12)? >> 4) * 4;
    let opts = tcp.get(20..doff)?;
    Some(Obs {
        t_ns,
        to_port,
        peer_port: if to_port { sport } else { dport },
        ack: u32::from_be_bytes(tcp.get(8..12)?.try_into().ok()?),
        payload: l3_len.saturating_sub(thoff + doff) as u64,
        opt: int_wire::parse(opts).transpose(),
    })
}

/// The verdicts over a capture, printed as one `summary` line of `key value` pairs.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct FlowSummary {
    /// Segments to the port with payload; of them with a request (echo = 0); requests already
    /// holding records (none at the sender); data segments without an INT option.
    pub data: u64,
    pub req: u64,
    pub req_filled: u64,
    pub data_noopt: u64,
    /// Fewest and most slots of a request.
    pub req_slots_min: u64,
    pub req_slots_max: u64,
    /// Segments from the port without payload; of them with an echo; with a request instead.
    pub acks: u64,
    pub echo: u64,
    pub ack_req: u64,
    /// Echoes in segments with payload (the program never writes one there).
    pub echo_in_data: u64,
    /// Fewest and most records of an echo; echoes with the overflow bit.
    pub hops_min: u64,
    pub hops_max: u64,
    pub ovf: u64,
    /// Consecutive echoes of one connection with the same number (≥ 1) of records; of them,
    /// pairs where every hop's transmitted bytes advanced; pairs captured less than
    /// [`TS_PAIR_MAX_NS`] apart, and of those, pairs where every hop's clock advanced.
    pub pairs: u64,
    pub tx_adv: u64,
    pub ts_pairs: u64,
    pub ts_adv: u64,
    /// Pairs whose stacks are identical: one stack echoed twice.
    pub same: u64,
    /// Echoes captured after an echo of the same connection with a higher ACK number (reordered
    /// on the way back; the pairs are judged in ACK-number order).
    pub ack_back: u64,
    /// Pairs with the same ACK number (impossible from the program: each stack's segment is new
    /// data, so the ACK that echoes it acknowledges more than the previous echo's).
    pub ack_same: u64,
    /// INT options (either direction) that failed to parse.
    pub bad: u64,
    /// Connections seen.
    pub conns: u64,
    /// Of the pairs that did not advance, by hop (1..=4): the hop whose bytes (clock) did not.
    pub tx_stall: [u64; int_wire::MAX_SLOTS],
    pub ts_stall: [u64; int_wire::MAX_SLOTS],
}

impl FlowSummary {
    pub fn line(&self) -> String {
        let by_hop = |name: &str, v: &[u64]| -> String {
            v.iter()
                .enumerate()
                .map(|(h, n)| format!(" {name}_{} {n}", h + 1))
                .collect()
        };
        format!(
            "{}{}{}",
            self.head(),
            by_hop("tx_stall", &self.tx_stall),
            by_hop("ts_stall", &self.ts_stall)
        )
    }

    fn head(&self) -> String {
        format!(
            "summary data {} req {} req_filled {} data_noopt {} req_slots_min {} req_slots_max {} acks {} echo {} ack_req {} echo_in_data {} hops_min {} hops_max {} ovf {} pairs {} tx_adv {} ts_pairs {} ts_adv {} same {} ack_back {} ack_same {} bad {} conns {}",
            self.data, self.req, self.req_filled, self.data_noopt, self.req_slots_min,
            self.req_slots_max, self.acks, self.echo, self.ack_req, self.echo_in_data,
            self.hops_min, self.hops_max, self.ovf, self.pairs, self.tx_adv, self.ts_pairs,
            self.ts_adv, self.same, self.ack_back, self.ack_same, self.bad, self.conns
        )
    }
}

fn every(a: &[IntHop], b: &[IntHop], f: impl Fn(&IntHop, &IntHop) -> bool) -> bool {
    a.iter().zip(b).all(|(x, y)| f(x, y))
}

/// Count, per hop, the hops of a pair that did not advance.
fn stalls(
    out: &mut [u64; int_wire::MAX_SLOTS],
    b: &[IntHop],
    a: &[IntHop],
    ok: impl Fn(&IntHop, &IntHop) -> bool,
) {
    for (slot, (x, y)) in out.iter_mut().zip(b.iter().zip(a)) {
        *slot += u64::from(!ok(x, y));
    }
}

/// Judge a capture (segments in capture order).
pub fn summarize(obs: &[Obs]) -> FlowSummary {
    let mut m = FlowSummary {
        hops_min: u64::MAX,
        req_slots_min: u64::MAX,
        ..FlowSummary::default()
    };
    // The echoes per connection: (ACK number unwrapped, capture time, records), and the last
    // raw and unwrapped ACK number seen.
    type Echo = (i64, u64, Vec<IntHop>);
    let mut echoes: HashMap<u16, (Vec<Echo>, u32, i64)> = HashMap::new();
    let mut conns: Vec<u16> = Vec::new();
    for o in obs {
        if !conns.contains(&o.peer_port) {
            conns.push(o.peer_port);
        }
        let opt = match &o.opt {
            Some(Err(_)) => {
                m.bad += 1;
                None
            }
            Some(Ok(x)) => Some(x),
            None => None,
        };
        if o.to_port {
            if o.payload == 0 {
                continue;
            }
            m.data += 1;
            match opt {
                Some(x) if !x.echo => {
                    m.req += 1;
                    m.req_filled += u64::from(!x.stack.hops().is_empty());
                    m.req_slots_min = m.req_slots_min.min(u64::from(x.slots));
                    m.req_slots_max = m.req_slots_max.max(u64::from(x.slots));
                }
                Some(_) => {}
                None => m.data_noopt += 1,
            }
            continue;
        }
        let Some(x) = opt else {
            m.acks += u64::from(o.payload == 0);
            continue;
        };
        if o.payload > 0 {
            m.echo_in_data += u64::from(x.echo);
            continue;
        }
        m.acks += 1;
        if !x.echo {
            m.ack_req += 1;
            continue;
        }
        m.echo += 1;
        let hops = x.stack.hops().to_vec();
        let n = hops.len() as u64;
        m.hops_min = m.hops_min.min(n);
        m.hops_max = m.hops_max.max(n);
        m.ovf += u64::from(x.overflow);
        let e = echoes
            .entry(o.peer_port)
            .or_insert_with(|| (Vec::new(), o.ack, 0));
        // Sequence space is modulo 2^32; steps between two captured ACKs are far below 2^31.
        let u =
            e.2.saturating_add(i64::from(o.ack.wrapping_sub(e.1) as i32));
        if e.0.iter().any(|p| p.0 > u) {
            m.ack_back += 1;
        }
        e.1 = o.ack;
        e.2 = u;
        e.0.push((u, o.t_ns, hops));
    }
    for (mut list, _, _) in echoes.into_values() {
        list.sort_by_key(|e| e.0); // stable: equal ACK numbers keep their capture order
        for w in list.windows(2) {
            let ((a0, t0, p), (a1, t1, hops)) = (&w[0], &w[1]);
            if p.is_empty() || p.len() != hops.len() {
                continue;
            }
            m.pairs += 1;
            m.same += u64::from(p == hops);
            m.ack_same += u64::from(a0 == a1);
            let tx_ok = |b: &IntHop, a: &IntHop| {
                let d = b.tx_delta_bytes(a);
                d > 0 && d < TX_HALF_BYTES
            };
            let ts_ok = |b: &IntHop, a: &IntHop| {
                let d = b.ts_delta_ns(a);
                d > 0 && d < TS_PAIR_MAX_NS
            };
            m.tx_adv += u64::from(every(hops, p, tx_ok));
            stalls(&mut m.tx_stall, hops, p, tx_ok);
            if t1.abs_diff(*t0) < TS_PAIR_MAX_NS {
                m.ts_pairs += 1;
                m.ts_adv += u64::from(every(hops, p, ts_ok));
                stalls(&mut m.ts_stall, hops, p, ts_ok);
            }
        }
    }
    if m.hops_min == u64::MAX {
        m.hops_min = 0;
    }
    if m.req_slots_min == u64::MAX {
        m.req_slots_min = 0;
    }
    m.conns = conns.len() as u64;
    m
}

/// One packet with its kernel receive time (SO_TIMESTAMPNS), ns.
fn recv_stamped(fd: RawFd, buf: &mut [u8]) -> Option<(usize, u64)> {
    let mut iov = libc::iovec {
        iov_base: buf.as_mut_ptr() as *mut libc::c_void,
        iov_len: buf.len(),
    };
    let mut ctl = [0u64; 16];
    // SAFETY: a zeroed msghdr is valid; its pointers are set below to live buffers.
    let mut msg: libc::msghdr = unsafe { std::mem::zeroed() };
    msg.msg_iov = &mut iov;
    msg.msg_iovlen = 1;
    msg.msg_control = ctl.as_mut_ptr() as *mut libc::c_void;
    msg.msg_controllen = std::mem::size_of_val(&ctl);
    // SAFETY: msg points to valid buffers for the call.
    let r = unsafe { libc::recvmsg(fd, &mut msg, libc::MSG_DONTWAIT) };
    let n = usize::try_from(r).ok().filter(|&n| n > 0)?;
    let mut t_ns = 0u64;
    // SAFETY: walking the control buffer the kernel filled, with the libc macros.
    unsafe {
        let mut c = libc::CMSG_FIRSTHDR(&msg);
        while !c.is_null() {
            if (*c).cmsg_level == libc::SOL_SOCKET && (*c).cmsg_type == libc::SCM_TIMESTAMPNS {
                let ts = std::ptr::read_unaligned(libc::CMSG_DATA(c) as *const libc::timespec);
                t_ns = (ts.tv_sec as u64)
                    .saturating_mul(1_000_000_000)
                    .saturating_add(ts.tv_nsec as u64);
            }
            c = libc::CMSG_NXTHDR(&msg, c);
        }
    }
    Some((n.min(buf.len()), t_ns))
}

fn setsockopt_int(fd: RawFd, level: libc::c_int, name: libc::c_int, v: libc::c_int) -> Result<()> {
    // SAFETY: valid socket and option buffer of the given size.
    let r = unsafe {
        libc::setsockopt(
            fd,
            level,
            name,
            &v as *const _ as *const libc::c_void,
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if r != 0 {
        bail!("setsockopt {name}: {}", std::io::Error::last_os_error());
    }
    Ok(())
}

pub fn flow(iface: &str, port: u16, count: u64, secs: u64) -> Result<()> {
    let eth_p_all = (libc::ETH_P_ALL as u16).to_be() as libc::c_int;
    let sniff = sock(libc::AF_PACKET, libc::SOCK_RAW, eth_p_all)?;
    let fd = sniff.as_raw_fd();
    setsockopt_int(fd, libc::SOL_SOCKET, libc::SO_RCVBUFFORCE, 256 << 20)?;
    setsockopt_int(fd, libc::SOL_SOCKET, libc::SO_TIMESTAMPNS, 1)?;
    bind_packet(fd, iface)?;
    println!("int-probe flow: {iface} port {port}, ready");
    let mut got: Vec<Obs> = Vec::new();
    let mut echoes = 0u64;
    let mut buf = vec![0u8; 65536];
    let t0 = Instant::now();
    while echoes < count && t0.elapsed() < Duration::from_secs(secs) {
        if !readable(fd, Duration::from_millis(200))? {
            continue;
        }
        while let Some((n, t_ns)) = recv_stamped(fd, &mut buf) {
            if let Some(o) = observe(&buf[..n], port, t_ns) {
                echoes += u64::from(!o.to_port && matches!(&o.opt, Some(Ok(x)) if x.echo));
                got.push(o);
            }
            if echoes >= count {
                break;
            }
        }
    }
    println!("{}", summarize(&got).line());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdcc_core::int::IntStack;

    const RATE: u64 = 1_250_000_000;

    fn hop(tx: u64, ts: u64) -> IntHop {
        IntHop::encode(0, tx, ts, RATE).unwrap()
    }

    /// A frame: IPv4, TCP from `sport` to `dport` with ACK number 0 and timestamps and `int`
    /// (an option written by the core's writer), `payload` bytes.
    fn frame(
        sport: u16,
        dport: u16,
        payload: usize,
        int: Option<(bool, usize, &[IntHop])>,
    ) -> Vec<u8> {
        frame_ack(sport, dport, 0, payload, int)
    }

    fn frame_ack(
        sport: u16,
        dport: u16,
        ack: u32,
        payload: usize,
        int: Option<(bool, usize, &[IntHop])>,
    ) -> Vec<u8> {
        let mut opts = vec![1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2];
        if let Some((echo, slots, hops)) = int {
            let mut st = IntStack::EMPTY;
            for h in hops {
                st.push(*h);
            }
            let mut b = [0u8; 40];
            let n = int_wire::write(&mut b, slots, echo, false, &st);
            opts.extend_from_slice(&b[..n]);
        }
        while opts.len() % 4 != 0 {
            opts.push(1);
        }
        let doff = 20 + opts.len();
        let tot = 20 + doff + payload;
        let mut f = vec![0u8; 12];
        f.extend_from_slice(&[0x08, 0x00, 0x45, 0, (tot >> 8) as u8, tot as u8]);
        f.extend_from_slice(&[0, 0, 0, 0, 64, 6, 0, 0, 10, 0, 0, 1, 10, 0, 1, 2]);
        f.extend_from_slice(&sport.to_be_bytes());
        f.extend_from_slice(&dport.to_be_bytes());
        f.extend_from_slice(&[0; 4]);
        f.extend_from_slice(&ack.to_be_bytes());
        f.push(((doff / 4) as u8) << 4);
        f.extend_from_slice(&[0x10, 0xff, 0xff, 0, 0, 0, 0]);
        f.extend_from_slice(&opts);
        f.resize(f.len() + payload, 0);
        f
    }

    fn obs(f: &[u8], t: u64) -> Obs {
        observe(f, 5201, t).expect("a segment of the flow")
    }

    #[test]
    fn requests_and_echoes_are_told_apart() {
        let d = obs(&frame(40000, 5201, 1448, Some((false, 2, &[]))), 0);
        assert!(d.to_port && d.payload == 1448 && d.peer_port == 40000);
        assert!(matches!(&d.opt, Some(Ok(x)) if !x.echo && x.slots == 2));
        let a = obs(
            &frame(
                5201,
                40000,
                0,
                Some((true, 2, &[hop(1500, 10), hop(1500, 20)])),
            ),
            5,
        );
        assert!(!a.to_port && a.payload == 0);
        assert!(matches!(&a.opt, Some(Ok(x)) if x.echo && x.stack.hops().len() == 2));
        assert!(
            observe(&frame(40000, 5202, 10, None), 5201, 0).is_none(),
            "another port"
        );
        let mut broken = frame(5201, 40000, 0, Some((true, 1, &[hop(1, 1)])));
        broken[14 + 20 + 20 + 12 + 1] = 14; // the INT option's length: not 5 + 8n
        assert!(matches!(obs(&broken, 0).opt, Some(Err(_))));
    }

    #[test]
    fn echoes_judged_per_connection_in_ack_order() {
        let e = |peer: u16, ack: u32, t: u64, tx: u64, ts: u64| {
            obs(
                &frame_ack(
                    5201,
                    peer,
                    ack,
                    0,
                    Some((true, 2, &[hop(tx, ts), hop(tx, ts + 100)])),
                ),
                t,
            )
        };
        let s = [
            obs(&frame(40000, 5201, 1448, Some((false, 2, &[]))), 0),
            e(40000, 1000, 1_000, 1_500, 1_000),
            // Another connection's echo in between, with older stamps: not a step back.
            e(40001, 7, 2_000, 100, 10),
            e(40000, 2448, 3_000, 3_000, 2_000),
            e(40000, 3896, 4_000, 3_000, 2_000), // the same stack twice
            // Captured before the echo it follows (reordered on the way back): judged after it.
            e(40000, 6792, 5_000, 7_500, 4_000),
            e(40000, 5344, 6_000, 6_000, 3_000),
            e(40000, 8240, 30_000_000, 9_000, 1_000), // 30 ms later: clock not judged
            // The sequence space wraps: 2^32 - 100 then 1000 is a step forward.
            e(40002, u32::MAX - 99, 1_000, 100, 10),
            e(40002, 1000, 2_000, 1_700, 20),
        ];
        let m = summarize(&s);
        assert_eq!((m.data, m.req, m.req_filled, m.data_noopt), (1, 1, 0, 0));
        assert_eq!((m.acks, m.echo, m.hops_min, m.hops_max), (9, 9, 2, 2));
        assert_eq!((m.pairs, m.same, m.tx_adv, m.ack_back), (6, 1, 5, 1));
        assert_eq!((m.tx_stall, m.ts_stall), ([1, 1, 0, 0], [1, 1, 0, 0]));
        assert!(m.line().ends_with(" ts_stall_3 0 ts_stall_4 0"));
        assert_eq!((m.ts_pairs, m.ts_adv, m.ack_same), (5, 4, 0));
        assert_eq!((m.conns, m.bad, m.ack_req, m.echo_in_data), (3, 0, 0, 0));
        // In capture order the reordered pair would read as a step back: judged by ACK number
        // it is not. Swapping the two ACK numbers makes it one.
        let mut r = s.to_vec();
        r[5].ack = 5344;
        r[6].ack = 6792;
        let m = summarize(&r);
        assert_eq!((m.pairs, m.tx_adv, m.ack_back), (6, 4, 0));
    }
}
