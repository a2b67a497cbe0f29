//! The sock_diag wire format: encoding an `inet_diag_req_v2` dump request and decoding the
//! kernel's multi-part reply. Pure functions on byte slices (no I/O), so every case is tested on
//! hand-built buffers; `diag.rs` does the socket calls.
//!
//! Layouts (include/uapi/linux/netlink.h, inet_diag.h, sock_diag.h, tcp.h of Linux 6.12):
//!
//! ```text
//! nlmsghdr        u32 len | u16 type | u16 flags | u32 seq | u32 pid             16 bytes, host order
//! inet_diag_req_v2 u8 family | u8 protocol | u8 ext | u8 pad | u32 states | sockid  56 bytes
//! inet_diag_sockid be16 sport | be16 dport | be32 src[4] | be32 dst[4] | u32 if | u32 cookie[2]  48
//! inet_diag_msg   u8 family | u8 state | u8 timer | u8 retrans | sockid | u32 expires | u32 rqueue
//!                 | u32 wqueue | u32 uid | u32 inode                               72 bytes, then rtattrs
//! rtattr          u16 len (header included) | u16 type | payload, next at len rounded up to 4
//! ```
//!
//! Every length in a reply is checked before it is used: a message or attribute that claims more
//! bytes than the datagram holds, or a known attribute shorter than its struct, is an error that
//! names what was wrong (a decoder that guessed would print garbage as the law's state).

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// `NETLINK_SOCK_DIAG` (netlink.h).
pub const NETLINK_SOCK_DIAG: i32 = 4;
/// `SOCK_DIAG_BY_FAMILY` (sock_diag.h): the request and reply message type.
pub const SOCK_DIAG_BY_FAMILY: u16 = 20;
/// `NLMSG_NOOP`.
pub const NLMSG_NOOP: u16 = 1;
/// `NLMSG_ERROR`: payload `i32 error` (negative errno, 0 = ACK) and the request's header.
pub const NLMSG_ERROR: u16 = 2;
/// `NLMSG_DONE`: end of a dump; payload `i32` (0, or a negative errno of a failed dump).
pub const NLMSG_DONE: u16 = 3;
/// `NLMSG_OVERRUN`.
pub const NLMSG_OVERRUN: u16 = 4;
/// `NLM_F_REQUEST`.
pub const NLM_F_REQUEST: u16 = 0x1;
/// `NLM_F_DUMP_INTR`: the dump changed while it was running (sockets came and went).
pub const NLM_F_DUMP_INTR: u16 = 0x10;
/// `NLM_F_DUMP` = `NLM_F_ROOT | NLM_F_MATCH`.
pub const NLM_F_DUMP: u16 = 0x300;
/// `NLA_TYPE_MASK`: attribute type without the nested / byte-order flags.
pub const NLA_TYPE_MASK: u16 = 0x3fff;

/// `IPPROTO_TCP`.
pub const IPPROTO_TCP: u8 = 6;
/// `AF_INET`.
pub const AF_INET: u8 = 2;
/// `AF_INET6`.
pub const AF_INET6: u8 = 10;

/// inet_diag attribute types (inet_diag.h `enum { INET_DIAG_NONE, ... }`).
pub const INET_DIAG_INFO: u16 = 2;
/// `INET_DIAG_VEGASINFO`.
pub const INET_DIAG_VEGASINFO: u16 = 3;
/// `INET_DIAG_CONG`: the congestion-control name, NUL-terminated.
pub const INET_DIAG_CONG: u16 = 4;
/// `INET_DIAG_TOS`.
pub const INET_DIAG_TOS: u16 = 5;
/// `INET_DIAG_SHUTDOWN`.
pub const INET_DIAG_SHUTDOWN: u16 = 8;
/// `INET_DIAG_DCTCPINFO`: `struct tcp_dctcp_info`, the rdcc "split view".
pub const INET_DIAG_DCTCPINFO: u16 = 9;
/// `INET_DIAG_BBRINFO`: `struct tcp_bbr_info`, the rdcc "law view".
pub const INET_DIAG_BBRINFO: u16 = 16;

/// `idiag_ext` bit asking for attribute `attr` (bit `attr - 1`; only attributes 1..=8 fit).
pub const fn ext_bit(attr: u16) -> u8 {
    1u8 << (attr - 1)
}

/// Request A (law view): VEGASINFO | CONG, without INFO.
pub const EXT_LAW: u8 = ext_bit(INET_DIAG_VEGASINFO) | ext_bit(INET_DIAG_CONG);
/// Request B (split view): VEGASINFO | CONG | SHUTDOWN.
pub const EXT_SPLIT: u8 = EXT_LAW | ext_bit(INET_DIAG_SHUTDOWN);
/// Request C (the kernel's `struct tcp_info`): INFO | CONG.
pub const EXT_TCP_INFO: u8 = ext_bit(INET_DIAG_INFO) | ext_bit(INET_DIAG_CONG);

/// TCP states of connections, as `ss` lists by default: every state from `TCP_ESTABLISHED` (1)
/// to `TCP_CLOSING` (11) except TIME_WAIT (6: a mini socket without congestion control), CLOSE
/// (7: not connected) and LISTEN (10: no flow, no law state). NEW_SYN_RECV (12) is a mini
/// socket too.
pub const STATES_CONNECTED: u32 = 0x0ffe & !(1 << 6) & !(1 << 7) & !(1 << 10);

/// Bytes of `struct nlmsghdr`.
pub const NLMSG_HDR_LEN: usize = 16;
/// Bytes of `struct inet_diag_req_v2`.
pub const REQ_V2_LEN: usize = 56;
/// Bytes of `struct inet_diag_msg`.
pub const DIAG_MSG_LEN: usize = 72;
/// Bytes of `struct tcp_bbr_info`.
pub const BBR_INFO_LEN: usize = 20;
/// Bytes of `struct tcp_dctcp_info`.
pub const DCTCP_INFO_LEN: usize = 16;

/// Offsets in `struct tcp_info` (checked against /usr/include/linux/tcp.h with `offsetof`, see
/// the tests): fields past the attribute's length (an older kernel) read as absent.
pub mod tcp_info_off {
    /// `__u32 tcpi_snd_mss`.
    pub const SND_MSS: usize = 16;
    /// `__u32 tcpi_rtt`, smoothed RTT in µs.
    pub const RTT: usize = 68;
    /// `__u32 tcpi_rttvar`, µs.
    pub const RTTVAR: usize = 72;
    /// `__u32 tcpi_snd_cwnd`, packets.
    pub const SND_CWND: usize = 80;
    /// `__u64 tcpi_pacing_rate`, bytes/s (`u64::MAX` = unlimited).
    pub const PACING_RATE: usize = 104;
    /// `__u32 tcpi_min_rtt`, µs.
    pub const MIN_RTT: usize = 148;
    /// `__u64 tcpi_delivery_rate`, bytes/s.
    pub const DELIVERY_RATE: usize = 160;
}

/// One dump request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    /// `AF_INET` or `AF_INET6`.
    pub family: u8,
    /// `idiag_ext`: which attributes to send.
    pub ext: u8,
    /// `idiag_states`: bit `1 << state` per TCP state to include.
    pub states: u32,
}

/// The request as sent: `nlmsghdr` + `inet_diag_req_v2` (72 bytes), protocol TCP, a zero
/// (wildcard) socket id, `NLM_F_REQUEST | NLM_F_DUMP`, sequence number `seq`, port id 0 (the
/// kernel assigns ours).
pub fn encode_request(req: &Request, seq: u32) -> Vec<u8> {
    let total = NLMSG_HDR_LEN + REQ_V2_LEN;
    let mut b = Vec::with_capacity(total);
    b.extend_from_slice(&(total as u32).to_ne_bytes());
    b.extend_from_slice(&SOCK_DIAG_BY_FAMILY.to_ne_bytes());
    b.extend_from_slice(&(NLM_F_REQUEST | NLM_F_DUMP).to_ne_bytes());
    b.extend_from_slice(&seq.to_ne_bytes());
    b.extend_from_slice(&0u32.to_ne_bytes());
    b.push(req.family);
    b.push(IPPROTO_TCP);
    b.push(req.ext);
    b.push(0);
    b.extend_from_slice(&req.states.to_ne_bytes());
    b.resize(total, 0); // inet_diag_sockid: all zero = every socket
    b
}

/// `struct tcp_bbr_info` as the rdcc modules fill it (the law's view).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LawInfo {
    /// `bbr_bw_lo | bbr_bw_hi << 32`: the law's pacing rate, bytes/s (0 = the law does not pace).
    pub rate_bytes_per_s: u64,
    /// `bbr_min_rtt`: the law's signal (Swift: target delay µs; TIMELY: RTT gradient x 1000;
    /// θ-PowerTCP: normalized power x 1000).
    pub signal: u32,
    /// `bbr_pacing_gain`: the reason code in bits 8..15.
    pub pacing_gain: u32,
    /// `bbr_cwnd_gain`: the window in packets, Q8.
    pub window_pkts_q8: u32,
}

impl LawInfo {
    /// The decision's reason code.
    pub fn reason_code(&self) -> u8 {
        ((self.pacing_gain >> 8) & 0xff) as u8
    }
}

/// `struct tcp_dctcp_info` as the rdcc modules fill it (the fabric/endpoint split).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitInfo {
    /// `dctcp_ce_state`: `SPLIT_*` flags.
    pub flags: u16,
    /// `dctcp_alpha`: fabric delay, ns (saturated at `u32::MAX`).
    pub fabric_delay_ns: u32,
    /// `dctcp_ab_ecn`: endpoint delay, ns.
    pub endpoint_delay_ns: u32,
    /// `dctcp_ab_tot`: hops.
    pub hops: u32,
}

/// `SplitInfo::flags`: the endpoint window binds (core `DEC_ENDPOINT_BINDS`).
pub const SPLIT_ENDPOINT_BINDS: u16 = 1 << 0;
/// The latest ACK carried a remote delay (`DEC_REMOTE_USED`).
pub const SPLIT_REMOTE_USED: u16 = 1 << 1;
/// The remote delay was clamped (`DEC_REMOTE_CLAMPED`).
pub const SPLIT_REMOTE_CLAMPED: u16 = 1 << 2;
/// The endpoint estimate expired (`DEC_ENDPOINT_EXPIRED`).
pub const SPLIT_ENDPOINT_EXPIRED: u16 = 1 << 3;
/// An endpoint-delay estimate exists (`REP_HAS_ENDPOINT`).
pub const SPLIT_HAS_ENDPOINT: u16 = 1 << 4;

/// The fields of `struct tcp_info` this tool shows; `None` when the kernel's struct is too short.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TcpInfo {
    /// `tcpi_snd_mss`, bytes.
    pub snd_mss: Option<u32>,
    /// `tcpi_rtt`: smoothed RTT, µs.
    pub srtt_us: Option<u32>,
    /// `tcpi_rttvar`, µs.
    pub rttvar_us: Option<u32>,
    /// `tcpi_snd_cwnd`: the window the kernel applies, packets.
    pub snd_cwnd: Option<u32>,
    /// `tcpi_pacing_rate`: the pacing rate the kernel applies, bytes/s (`u64::MAX` = none).
    pub pacing_rate: Option<u64>,
    /// `tcpi_min_rtt`, µs.
    pub min_rtt_us: Option<u32>,
    /// `tcpi_delivery_rate`, bytes/s.
    pub delivery_rate: Option<u64>,
}

/// One socket of a dump reply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagSocket {
    /// `idiag_family`.
    pub family: u8,
    /// `idiag_state` (TCP state).
    pub state: u8,
    /// Local address and port.
    pub src: IpAddr,
    /// Local port.
    pub sport: u16,
    /// Peer address.
    pub dst: IpAddr,
    /// Peer port.
    pub dport: u16,
    /// `idiag_if`.
    pub ifindex: u32,
    /// `idiag_cookie`: `cookie[0] | cookie[1] << 32`, unique per socket for the kernel's uptime.
    pub cookie: u64,
    /// `idiag_uid`.
    pub uid: u32,
    /// `idiag_inode`.
    pub inode: u32,
    /// `INET_DIAG_CONG`.
    pub cong: Option<String>,
    /// `INET_DIAG_BBRINFO`.
    pub law: Option<LawInfo>,
    /// `INET_DIAG_DCTCPINFO`.
    pub split: Option<SplitInfo>,
    /// `INET_DIAG_INFO`.
    pub tcp: Option<TcpInfo>,
}

/// What one received datagram held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    /// Sockets, in order.
    pub sockets: Vec<DiagSocket>,
    /// `NLMSG_DONE` was seen: the dump is complete.
    pub done: bool,
    /// A message carried `NLM_F_DUMP_INTR` (the socket table changed during the dump).
    pub interrupted: bool,
    /// Messages of another sequence number (a stale earlier dump), skipped.
    pub foreign: usize,
}

/// Why a reply could not be decoded, or the error the kernel answered with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// A message header claims a length below 16 or beyond the datagram.
    BadMessageLength {
        /// Byte offset of the message in the datagram.
        offset: usize,
        /// `nlmsg_len`.
        len: u32,
        /// Bytes left in the datagram at `offset`.
        left: usize,
    },
    /// Fewer bytes after the last message than a message header.
    TrailingBytes {
        /// How many.
        left: usize,
    },
    /// A message's payload is shorter than its fixed part.
    ShortPayload {
        /// What was expected (`inet_diag_msg`, `nlmsgerr`).
        what: &'static str,
        /// Bytes present.
        got: usize,
        /// Bytes needed.
        need: usize,
    },
    /// An attribute header claims a length below 4 or beyond its message.
    BadAttributeLength {
        /// Attribute type.
        attr: u16,
        /// `rta_len`.
        len: u16,
        /// Bytes left in the message.
        left: usize,
    },
    /// A known attribute is shorter than its struct.
    ShortAttribute {
        /// Attribute name.
        attr: &'static str,
        /// Payload bytes.
        got: usize,
        /// Bytes of the struct.
        need: usize,
    },
    /// An address family other than AF_INET / AF_INET6 in `inet_diag_msg`.
    BadFamily(u8),
    /// `NLMSG_ERROR` with a negative errno, or `NLMSG_DONE` carrying one.
    Kernel {
        /// The errno (positive).
        errno: i32,
    },
    /// `NLMSG_OVERRUN`: the kernel dropped data.
    Overrun,
    /// A message type sock_diag never sends.
    UnexpectedType(u16),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::BadMessageLength { offset, len, left } => write!(
                f,
                "netlink message at byte {offset} claims {len} bytes, {left} bytes left (truncated reply)"
            ),
            DecodeError::TrailingBytes { left } => {
                write!(f, "{left} trailing bytes after the last netlink message")
            }
            DecodeError::ShortPayload { what, got, need } => {
                write!(f, "{what}: {got} bytes, expected at least {need}")
            }
            DecodeError::BadAttributeLength { attr, len, left } => write!(
                f,
                "attribute type {attr} claims {len} bytes, {left} bytes left in its message (truncated)"
            ),
            DecodeError::ShortAttribute { attr, got, need } => {
                write!(f, "{attr}: {got} bytes, expected at least {need}")
            }
            DecodeError::BadFamily(fam) => write!(f, "unknown address family {fam}"),
            DecodeError::Kernel { errno } => write!(
                f,
                "the kernel answered with error {}",
                std::io::Error::from_raw_os_error(*errno)
            ),
            DecodeError::Overrun => write!(f, "netlink overrun: the kernel dropped reply data"),
            DecodeError::UnexpectedType(t) => write!(f, "unexpected netlink message type {t}"),
        }
    }
}

impl std::error::Error for DecodeError {}

fn u16_at(b: &[u8], off: usize) -> Option<u16> {
    let s = b.get(off..off.checked_add(2)?)?;
    Some(u16::from_ne_bytes([s[0], s[1]]))
}

fn u32_at(b: &[u8], off: usize) -> Option<u32> {
    let s = b.get(off..off.checked_add(4)?)?;
    Some(u32::from_ne_bytes([s[0], s[1], s[2], s[3]]))
}

fn u64_at(b: &[u8], off: usize) -> Option<u64> {
    let s = b.get(off..off.checked_add(8)?)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(s);
    Some(u64::from_ne_bytes(a))
}

fn be16_at(b: &[u8], off: usize) -> Option<u16> {
    let s = b.get(off..off.checked_add(2)?)?;
    Some(u16::from_be_bytes([s[0], s[1]]))
}

/// `NLMSG_ALIGN` / `RTA_ALIGN`: round up to 4 (saturating: a huge value just ends the walk).
fn align4(n: usize) -> usize {
    n.saturating_add(3) & !3
}

/// Decode one datagram of the reply to the request with sequence number `seq`. Messages of other
/// sequence numbers are counted and skipped; `NLMSG_NOOP` is skipped. An `NLMSG_ERROR` with a
/// negative errno, or an `NLMSG_DONE` carrying one, is returned as `DecodeError::Kernel`.
pub fn decode_datagram(buf: &[u8], seq: u32) -> Result<Batch, DecodeError> {
    let mut out = Batch::default();
    let mut off = 0usize;
    while off < buf.len() {
        let left = buf.len() - off;
        if left < NLMSG_HDR_LEN {
            return Err(DecodeError::TrailingBytes { left });
        }
        let (len, ty, flags, mseq) = match (
            u32_at(buf, off),
            u16_at(buf, off + 4),
            u16_at(buf, off + 6),
            u32_at(buf, off + 8),
        ) {
            (Some(l), Some(t), Some(f), Some(s)) => (l, t, f, s),
            _ => return Err(DecodeError::TrailingBytes { left }),
        };
        let ulen = len as usize;
        if ulen < NLMSG_HDR_LEN || ulen > left {
            return Err(DecodeError::BadMessageLength {
                offset: off,
                len,
                left,
            });
        }
        let payload = buf.get(off + NLMSG_HDR_LEN..off + ulen).unwrap_or(&[]);
        off = off.saturating_add(align4(ulen)).min(buf.len());
        if mseq != seq {
            out.foreign += 1;
            continue;
        }
        if flags & NLM_F_DUMP_INTR != 0 {
            out.interrupted = true;
        }
        match ty {
            NLMSG_NOOP => {}
            NLMSG_DONE => {
                // The payload (since Linux 2.6) is an int: a negative errno if the dump failed.
                if let Some(e) = u32_at(payload, 0) {
                    let e = e as i32;
                    if e < 0 {
                        return Err(DecodeError::Kernel {
                            errno: e.saturating_neg(),
                        });
                    }
                }
                out.done = true;
                // Nothing of this dump follows DONE.
                return Ok(out);
            }
            NLMSG_ERROR => {
                let e = u32_at(payload, 0).ok_or(DecodeError::ShortPayload {
                    what: "nlmsgerr",
                    got: payload.len(),
                    need: 4,
                })? as i32;
                if e < 0 {
                    return Err(DecodeError::Kernel {
                        errno: e.saturating_neg(),
                    });
                }
                // error 0 is an ACK: not requested, harmless.
            }
            NLMSG_OVERRUN => return Err(DecodeError::Overrun),
            SOCK_DIAG_BY_FAMILY => out.sockets.push(decode_socket(payload)?),
            other => return Err(DecodeError::UnexpectedType(other)),
        }
    }
    Ok(out)
}

fn addr(family: u8, b: &[u8]) -> Option<IpAddr> {
    match family {
        AF_INET => {
            let s = b.get(0..4)?;
            Some(IpAddr::V4(Ipv4Addr::new(s[0], s[1], s[2], s[3])))
        }
        _ => {
            let s = b.get(0..16)?;
            let mut a = [0u8; 16];
            a.copy_from_slice(s);
            Some(IpAddr::V6(Ipv6Addr::from(a)))
        }
    }
}

/// Decode the payload of one `SOCK_DIAG_BY_FAMILY` message: `inet_diag_msg` and its attributes.
pub fn decode_socket(p: &[u8]) -> Result<DiagSocket, DecodeError> {
    let short = DecodeError::ShortPayload {
        what: "inet_diag_msg",
        got: p.len(),
        need: DIAG_MSG_LEN,
    };
    if p.len() < DIAG_MSG_LEN {
        return Err(short);
    }
    let family = p[0];
    if family != AF_INET && family != AF_INET6 {
        return Err(DecodeError::BadFamily(family));
    }
    // inet_diag_sockid at 4: sport 4, dport 6, src 8..24, dst 24..40, if 40, cookie 44, 48.
    let field = |v: Option<u32>| v.ok_or(short.clone());
    let sport = be16_at(p, 4).ok_or(short.clone())?;
    let dport = be16_at(p, 6).ok_or(short.clone())?;
    let src = p
        .get(8..24)
        .and_then(|s| addr(family, s))
        .ok_or(short.clone())?;
    let dst = p
        .get(24..40)
        .and_then(|s| addr(family, s))
        .ok_or(short.clone())?;
    let ifindex = field(u32_at(p, 40))?;
    let cookie = u64::from(field(u32_at(p, 44))?) | (u64::from(field(u32_at(p, 48))?) << 32);
    let uid = field(u32_at(p, 64))?;
    let inode = field(u32_at(p, 68))?;
    let mut s = DiagSocket {
        family,
        state: p[1],
        src,
        sport,
        dst,
        dport,
        ifindex,
        cookie,
        uid,
        inode,
        cong: None,
        law: None,
        split: None,
        tcp: None,
    };
    let attrs = p.get(DIAG_MSG_LEN..).unwrap_or(&[]);
    let mut off = 0usize;
    while off < attrs.len() {
        let left = attrs.len() - off;
        let (len, ty) = match (u16_at(attrs, off), u16_at(attrs, off + 2)) {
            (Some(l), Some(t)) => (l, t & NLA_TYPE_MASK),
            _ => {
                return Err(DecodeError::ShortPayload {
                    what: "rtattr header",
                    got: left,
                    need: 4,
                })
            }
        };
        let ulen = len as usize;
        if ulen < 4 || ulen > left {
            return Err(DecodeError::BadAttributeLength {
                attr: ty,
                len,
                left,
            });
        }
        let v = attrs.get(off + 4..off + ulen).unwrap_or(&[]);
        off = off.saturating_add(align4(ulen)).min(attrs.len());
        match ty {
            INET_DIAG_CONG => {
                let end = v.iter().position(|&c| c == 0).unwrap_or(v.len());
                s.cong = Some(String::from_utf8_lossy(&v[..end]).into_owned());
            }
            INET_DIAG_BBRINFO => s.law = Some(decode_law(v)?),
            INET_DIAG_DCTCPINFO => s.split = Some(decode_split(v)?),
            INET_DIAG_INFO => s.tcp = Some(decode_tcp_info(v)?),
            _ => {} // SHUTDOWN, TOS, MEMINFO, ... : not shown
        }
    }
    Ok(s)
}

fn decode_law(v: &[u8]) -> Result<LawInfo, DecodeError> {
    let short = DecodeError::ShortAttribute {
        attr: "INET_DIAG_BBRINFO",
        got: v.len(),
        need: BBR_INFO_LEN,
    };
    match (
        u32_at(v, 0),
        u32_at(v, 4),
        u32_at(v, 8),
        u32_at(v, 12),
        u32_at(v, 16),
    ) {
        (Some(lo), Some(hi), Some(sig), Some(pg), Some(cg)) => Ok(LawInfo {
            rate_bytes_per_s: u64::from(lo) | (u64::from(hi) << 32),
            signal: sig,
            pacing_gain: pg,
            window_pkts_q8: cg,
        }),
        _ => Err(short),
    }
}

fn decode_split(v: &[u8]) -> Result<SplitInfo, DecodeError> {
    // u16 enabled 0, u16 ce_state 2, u32 alpha 4, u32 ab_ecn 8, u32 ab_tot 12.
    match (u16_at(v, 2), u32_at(v, 4), u32_at(v, 8), u32_at(v, 12)) {
        (Some(flags), Some(fab), Some(end), Some(hops)) => Ok(SplitInfo {
            flags,
            fabric_delay_ns: fab,
            endpoint_delay_ns: end,
            hops,
        }),
        _ => Err(DecodeError::ShortAttribute {
            attr: "INET_DIAG_DCTCPINFO",
            got: v.len(),
            need: DCTCP_INFO_LEN,
        }),
    }
}

fn decode_tcp_info(v: &[u8]) -> Result<TcpInfo, DecodeError> {
    use tcp_info_off as o;
    // Every kernel since 2.6 sends at least up to tcpi_total_retrans (104 bytes); less is not a
    // tcp_info.
    if v.len() < o::PACING_RATE {
        return Err(DecodeError::ShortAttribute {
            attr: "INET_DIAG_INFO",
            got: v.len(),
            need: o::PACING_RATE,
        });
    }
    Ok(TcpInfo {
        snd_mss: u32_at(v, o::SND_MSS),
        srtt_us: u32_at(v, o::RTT),
        rttvar_us: u32_at(v, o::RTTVAR),
        snd_cwnd: u32_at(v, o::SND_CWND),
        pacing_rate: u64_at(v, o::PACING_RATE),
        min_rtt_us: u32_at(v, o::MIN_RTT),
        delivery_rate: u64_at(v, o::DELIVERY_RATE),
    })
}

#[cfg(test)]
#[path = "netlink_tests.rs"]
mod tests;
