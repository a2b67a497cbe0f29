//! Host tests of the sock_diag codec on hand-built buffers. Every expected value is written from
//! the uapi layouts in the module comment of `netlink.rs`, not from the decoder's output.

use super::*;
use proptest::prelude::*;

const SEQ: u32 = 7;

/// One rtattr: length = 4 + payload (unpadded, as the kernel writes `rta_len`), then padding to 4.
fn rta(ty: u16, payload: &[u8]) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&((4 + payload.len()) as u16).to_ne_bytes());
    b.extend_from_slice(&ty.to_ne_bytes());
    b.extend_from_slice(payload);
    while b.len() % 4 != 0 {
        b.push(0);
    }
    b
}

/// One netlink message: `nlmsg_len` = 16 + payload (unpadded), then padding to 4.
fn nlmsg(ty: u16, flags: u16, seq: u32, payload: &[u8]) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(&((16 + payload.len()) as u32).to_ne_bytes());
    b.extend_from_slice(&ty.to_ne_bytes());
    b.extend_from_slice(&flags.to_ne_bytes());
    b.extend_from_slice(&seq.to_ne_bytes());
    b.extend_from_slice(&4242u32.to_ne_bytes());
    b.extend_from_slice(payload);
    while b.len() % 4 != 0 {
        b.push(0);
    }
    b
}

/// `inet_diag_msg` for TCP_ESTABLISHED (1) with the given addresses (4 or 16 bytes each),
/// ports, cookie, uid 1000, inode 99, followed by `attrs`.
fn diag(
    family: u8,
    src: &[u8],
    sport: u16,
    dst: &[u8],
    dport: u16,
    cookie: u64,
    attrs: &[u8],
) -> Vec<u8> {
    let mut b = vec![family, 1, 0, 0];
    b.extend_from_slice(&sport.to_be_bytes());
    b.extend_from_slice(&dport.to_be_bytes());
    let mut a = [0u8; 16];
    a[..src.len()].copy_from_slice(src);
    b.extend_from_slice(&a);
    let mut a = [0u8; 16];
    a[..dst.len()].copy_from_slice(dst);
    b.extend_from_slice(&a);
    b.extend_from_slice(&3u32.to_ne_bytes()); // idiag_if
    b.extend_from_slice(&(cookie as u32).to_ne_bytes());
    b.extend_from_slice(&((cookie >> 32) as u32).to_ne_bytes());
    b.extend_from_slice(&0u32.to_ne_bytes()); // expires
    b.extend_from_slice(&0u32.to_ne_bytes()); // rqueue
    b.extend_from_slice(&0u32.to_ne_bytes()); // wqueue
    b.extend_from_slice(&1000u32.to_ne_bytes()); // uid
    b.extend_from_slice(&99u32.to_ne_bytes()); // inode
    assert_eq!(b.len(), 72);
    b.extend_from_slice(attrs);
    b
}

fn bbr(rate: u64, signal: u32, reason: u32, window_q8: u32) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&(rate as u32).to_ne_bytes());
    v.extend_from_slice(&((rate >> 32) as u32).to_ne_bytes());
    v.extend_from_slice(&signal.to_ne_bytes());
    v.extend_from_slice(&(reason << 8).to_ne_bytes());
    v.extend_from_slice(&window_q8.to_ne_bytes());
    v
}

fn dctcp(flags: u16, fabric: u32, endpoint: u32, hops: u32) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&0u16.to_ne_bytes());
    v.extend_from_slice(&flags.to_ne_bytes());
    v.extend_from_slice(&fabric.to_ne_bytes());
    v.extend_from_slice(&endpoint.to_ne_bytes());
    v.extend_from_slice(&hops.to_ne_bytes());
    v
}

fn done(seq: u32) -> Vec<u8> {
    nlmsg(NLMSG_DONE, 2, seq, &0i32.to_ne_bytes())
}

fn swift_sock(cookie: u64, sport: u16) -> Vec<u8> {
    let attrs = [
        rta(INET_DIAG_CONG, b"swift\0"),
        rta(INET_DIAG_BBRINFO, &bbr(5_000_000, 6000, 2, 3200)),
    ]
    .concat();
    diag(
        AF_INET,
        &[10, 0, 0, 1],
        sport,
        &[10, 0, 1, 2],
        5201,
        cookie,
        &attrs,
    )
}

#[test]
fn request_bytes() {
    let b = encode_request(
        &Request {
            family: AF_INET6,
            ext: EXT_SPLIT,
            states: STATES_CONNECTED,
        },
        0x01020304,
    );
    assert_eq!(b.len(), 72);
    assert_eq!(&b[0..4], &72u32.to_ne_bytes());
    assert_eq!(&b[4..6], &20u16.to_ne_bytes()); // SOCK_DIAG_BY_FAMILY
    assert_eq!(&b[6..8], &0x0301u16.to_ne_bytes()); // REQUEST | ROOT | MATCH
    assert_eq!(&b[8..12], &0x01020304u32.to_ne_bytes());
    assert_eq!(&b[12..16], &[0, 0, 0, 0]);
    assert_eq!(&b[16..20], &[10, 6, 0x8c, 0]); // AF_INET6, IPPROTO_TCP, ext, pad
    assert_eq!(&b[20..24], &0x0b3eu32.to_ne_bytes());
    assert!(b[24..].iter().all(|&x| x == 0), "wildcard sockid");
}

#[test]
fn ext_bits() {
    // bit k-1 per attribute k: VEGASINFO 3 -> 0x04, CONG 4 -> 0x08, SHUTDOWN 8 -> 0x80, INFO 2 -> 0x02
    let cases: &[(u8, u8)] = &[(EXT_LAW, 0x0c), (EXT_SPLIT, 0x8c), (EXT_TCP_INFO, 0x0a)];
    for &(got, want) in cases {
        assert_eq!(got, want);
    }
    // ESTABLISHED 1, SYN_SENT 2, SYN_RECV 3, FIN_WAIT1 4, FIN_WAIT2 5, CLOSE_WAIT 8, LAST_ACK 9,
    // CLOSING 11 (include/net/tcp_states.h).
    assert_eq!(
        STATES_CONNECTED,
        (1 << 1) | (1 << 2) | (1 << 3) | (1 << 4) | (1 << 5) | (1 << 8) | (1 << 9) | (1 << 11)
    );
    assert_eq!(STATES_CONNECTED, 0b1011_0011_1110);
}

#[test]
fn one_socket_law_view() {
    let buf = [
        nlmsg(
            SOCK_DIAG_BY_FAMILY,
            2,
            SEQ,
            &swift_sock(0x1_0000_0002, 40000),
        ),
        done(SEQ),
    ]
    .concat();
    let b = decode_datagram(&buf, SEQ).unwrap();
    assert!(b.done && !b.interrupted);
    assert_eq!(b.sockets.len(), 1);
    let s = &b.sockets[0];
    assert_eq!(s.family, AF_INET);
    assert_eq!(s.state, 1);
    assert_eq!(s.src, "10.0.0.1".parse::<IpAddr>().unwrap());
    assert_eq!(s.sport, 40000);
    assert_eq!(s.dst, "10.0.1.2".parse::<IpAddr>().unwrap());
    assert_eq!(s.dport, 5201);
    assert_eq!(s.cookie, 0x1_0000_0002);
    assert_eq!((s.ifindex, s.uid, s.inode), (3, 1000, 99));
    assert_eq!(s.cong.as_deref(), Some("swift"));
    let law = s.law.unwrap();
    assert_eq!(law.rate_bytes_per_s, 5_000_000);
    assert_eq!(law.signal, 6000);
    assert_eq!(law.reason_code(), 2);
    assert_eq!(law.window_pkts_q8, 3200); // 12.5 packets
    assert_eq!(s.split, None);
    assert_eq!(s.tcp, None);
}

#[test]
fn rate_above_32_bits() {
    let attrs = rta(INET_DIAG_BBRINFO, &bbr((3u64 << 32) | 5, 0, 9, 256));
    let p = diag(AF_INET, &[1, 2, 3, 4], 1, &[5, 6, 7, 8], 2, 1, &attrs);
    let s = decode_socket(&p).unwrap();
    assert_eq!(s.law.unwrap().rate_bytes_per_s, 12_884_901_893);
    assert_eq!(s.law.unwrap().reason_code(), 9);
}

#[test]
fn split_view_and_ipv6() {
    let src: Ipv6Addr = "fd00::1".parse().unwrap();
    let dst: Ipv6Addr = "fd00:1::2".parse().unwrap();
    let attrs = [
        rta(INET_DIAG_CONG, b"swift\0"),
        rta(INET_DIAG_SHUTDOWN, &[0]),
        rta(INET_DIAG_DCTCPINFO, &dctcp(0x13, 4_100_000, 250_000, 1)),
    ]
    .concat();
    let p = diag(
        AF_INET6,
        &src.octets(),
        33000,
        &dst.octets(),
        5201,
        77,
        &attrs,
    );
    let s = decode_socket(&p).unwrap();
    assert_eq!(s.src, IpAddr::V6(src));
    assert_eq!(s.dst, IpAddr::V6(dst));
    assert_eq!(
        s.split,
        Some(SplitInfo {
            flags: 0x13,
            fabric_delay_ns: 4_100_000,
            endpoint_delay_ns: 250_000,
            hops: 1
        })
    );
    let f = s.split.unwrap().flags;
    assert!(
        f & SPLIT_ENDPOINT_BINDS != 0 && f & SPLIT_REMOTE_USED != 0 && f & SPLIT_HAS_ENDPOINT != 0
    );
    assert!(f & SPLIT_REMOTE_CLAMPED == 0 && f & SPLIT_ENDPOINT_EXPIRED == 0);
}

#[test]
fn many_messages_per_datagram_then_done_in_the_next() {
    let first = [
        nlmsg(SOCK_DIAG_BY_FAMILY, 2, SEQ, &swift_sock(1, 40001)),
        nlmsg(SOCK_DIAG_BY_FAMILY, 2, SEQ, &swift_sock(2, 40002)),
        nlmsg(SOCK_DIAG_BY_FAMILY, 2, SEQ, &swift_sock(3, 40003)),
    ]
    .concat();
    let b = decode_datagram(&first, SEQ).unwrap();
    assert!(!b.done, "no DONE yet: keep reading");
    assert_eq!(
        b.sockets.iter().map(|s| s.cookie).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let b = decode_datagram(&done(SEQ), SEQ).unwrap();
    assert!(b.done && b.sockets.is_empty());
}

#[test]
fn empty_dump_is_just_done() {
    let b = decode_datagram(&done(SEQ), SEQ).unwrap();
    assert!(b.done && b.sockets.is_empty());
    // An old kernel's DONE with no payload.
    let b = decode_datagram(&nlmsg(NLMSG_DONE, 2, SEQ, &[]), SEQ).unwrap();
    assert!(b.done);
}

#[test]
fn kernel_errors() {
    // NLMSG_ERROR: i32 -errno then the offending request's header.
    let mut p = (-1i32).to_ne_bytes().to_vec(); // -EPERM
    p.extend_from_slice(
        &encode_request(
            &Request {
                family: AF_INET,
                ext: 0,
                states: 0,
            },
            SEQ,
        )[..16],
    );
    assert_eq!(
        decode_datagram(&nlmsg(NLMSG_ERROR, 0, SEQ, &p), SEQ),
        Err(DecodeError::Kernel { errno: 1 })
    );
    // The error message after sockets in the same datagram still fails the dump.
    let buf = [
        nlmsg(SOCK_DIAG_BY_FAMILY, 2, SEQ, &swift_sock(1, 1)),
        nlmsg(NLMSG_ERROR, 0, SEQ, &(-2i32).to_ne_bytes()),
    ]
    .concat();
    assert_eq!(
        decode_datagram(&buf, SEQ),
        Err(DecodeError::Kernel { errno: 2 })
    );
    // error 0 = ACK: not an error.
    let b = decode_datagram(
        &[nlmsg(NLMSG_ERROR, 0, SEQ, &0i32.to_ne_bytes()), done(SEQ)].concat(),
        SEQ,
    )
    .unwrap();
    assert!(b.done);
    // A dump that failed half way: DONE carries -EMSGSIZE (90).
    assert_eq!(
        decode_datagram(&nlmsg(NLMSG_DONE, 2, SEQ, &(-90i32).to_ne_bytes()), SEQ),
        Err(DecodeError::Kernel { errno: 90 })
    );
    // A too short nlmsgerr.
    assert!(matches!(
        decode_datagram(&nlmsg(NLMSG_ERROR, 0, SEQ, &[1, 2]), SEQ),
        Err(DecodeError::ShortPayload {
            what: "nlmsgerr",
            got: 2,
            need: 4
        })
    ));
    assert_eq!(
        decode_datagram(&nlmsg(NLMSG_OVERRUN, 0, SEQ, &[]), SEQ),
        Err(DecodeError::Overrun)
    );
    assert_eq!(
        decode_datagram(&nlmsg(99, 0, SEQ, &[]), SEQ),
        Err(DecodeError::UnexpectedType(99))
    );
}

#[test]
fn unaligned_attribute_lengths() {
    // "timely\0" is 7 bytes: rta_len 11, padded to 12; the next attribute starts at the aligned
    // offset. The message ends with "dctcp\0" (rta_len 10) and the nlmsg_len excludes the padding.
    let mut attrs = [
        rta(INET_DIAG_CONG, b"timely\0"),
        rta(INET_DIAG_BBRINFO, &bbr(0, 125, 9, 2560)),
    ]
    .concat();
    let mut last = rta(INET_DIAG_TOS, b"xxxxx\0");
    last.truncate(10); // no trailing padding at all
    attrs.extend_from_slice(&last);
    let p = diag(AF_INET, &[127, 0, 0, 1], 1, &[127, 0, 0, 1], 2, 5, &attrs);
    let mut msg = nlmsg(SOCK_DIAG_BY_FAMILY, 2, SEQ, &p);
    let unpadded = 16 + p.len();
    assert_eq!(unpadded % 4, 2);
    msg.truncate(unpadded); // the datagram ends inside the message's padding
    let b = decode_datagram(&msg, SEQ).unwrap();
    let s = &b.sockets[0];
    assert_eq!(s.cong.as_deref(), Some("timely"));
    assert_eq!(s.law.unwrap().window_pkts_q8, 2560);
    assert_eq!(s.law.unwrap().signal, 125);
}

#[test]
fn truncated_attribute_is_rejected() {
    // BBRINFO's rta_len says 24, but the message ends 4 bytes earlier.
    let mut a = rta(INET_DIAG_BBRINFO, &bbr(1, 2, 3, 4));
    a.truncate(20);
    let p = diag(AF_INET, &[1, 1, 1, 1], 1, &[2, 2, 2, 2], 2, 1, &a);
    assert_eq!(
        decode_socket(&p),
        Err(DecodeError::BadAttributeLength {
            attr: INET_DIAG_BBRINFO,
            len: 24,
            left: 20
        })
    );
    // The same through a datagram.
    let e = decode_datagram(&nlmsg(SOCK_DIAG_BY_FAMILY, 2, SEQ, &p), SEQ).unwrap_err();
    assert!(e.to_string().contains("truncated"), "{e}");
    // rta_len below the header.
    let mut bad = rta(INET_DIAG_CONG, b"abc\0");
    bad[0..2].copy_from_slice(&2u16.to_ne_bytes());
    let p = diag(AF_INET, &[1, 1, 1, 1], 1, &[2, 2, 2, 2], 2, 1, &bad);
    assert!(matches!(
        decode_socket(&p),
        Err(DecodeError::BadAttributeLength { len: 2, .. })
    ));
    // Two stray bytes where an attribute header should be.
    let p = diag(AF_INET, &[1, 1, 1, 1], 1, &[2, 2, 2, 2], 2, 1, &[8, 0]);
    assert!(matches!(
        decode_socket(&p),
        Err(DecodeError::ShortPayload {
            what: "rtattr header",
            got: 2,
            ..
        })
    ));
}

#[test]
fn known_attribute_shorter_than_its_struct() {
    let p = diag(
        AF_INET,
        &[1, 1, 1, 1],
        1,
        &[2, 2, 2, 2],
        2,
        1,
        &rta(INET_DIAG_BBRINFO, &[0; 12]),
    );
    assert_eq!(
        decode_socket(&p),
        Err(DecodeError::ShortAttribute {
            attr: "INET_DIAG_BBRINFO",
            got: 12,
            need: 20
        })
    );
    let p = diag(
        AF_INET,
        &[1, 1, 1, 1],
        1,
        &[2, 2, 2, 2],
        2,
        1,
        &rta(INET_DIAG_DCTCPINFO, &[0; 15]),
    );
    assert_eq!(
        decode_socket(&p),
        Err(DecodeError::ShortAttribute {
            attr: "INET_DIAG_DCTCPINFO",
            got: 15,
            need: 16
        })
    );
    let p = diag(
        AF_INET,
        &[1, 1, 1, 1],
        1,
        &[2, 2, 2, 2],
        2,
        1,
        &rta(INET_DIAG_INFO, &[0; 64]),
    );
    assert!(matches!(
        decode_socket(&p),
        Err(DecodeError::ShortAttribute {
            attr: "INET_DIAG_INFO",
            ..
        })
    ));
}

#[test]
fn bad_message_lengths() {
    let m = nlmsg(SOCK_DIAG_BY_FAMILY, 2, SEQ, &swift_sock(1, 1));
    // Cut the datagram inside the message.
    let cut = &m[..m.len() - 8];
    assert!(matches!(
        decode_datagram(cut, SEQ),
        Err(DecodeError::BadMessageLength { offset: 0, .. })
    ));
    // nlmsg_len below the header size (would loop forever if accepted).
    let mut z = m.clone();
    z[0..4].copy_from_slice(&8u32.to_ne_bytes());
    assert!(matches!(
        decode_datagram(&z, SEQ),
        Err(DecodeError::BadMessageLength { len: 8, .. })
    ));
    // Bytes after the last message that cannot hold a header.
    let t = [m.clone(), vec![0; 6]].concat();
    assert_eq!(
        decode_datagram(&t, SEQ),
        Err(DecodeError::TrailingBytes { left: 6 })
    );
    // inet_diag_msg shorter than 72 bytes.
    let s = nlmsg(SOCK_DIAG_BY_FAMILY, 2, SEQ, &[2; 40]);
    assert!(matches!(
        decode_datagram(&s, SEQ),
        Err(DecodeError::ShortPayload {
            what: "inet_diag_msg",
            got: 40,
            need: 72
        })
    ));
    // Unknown family.
    let mut f = swift_sock(1, 1);
    f[0] = 1;
    assert_eq!(decode_socket(&f), Err(DecodeError::BadFamily(1)));
}

#[test]
fn foreign_sequence_and_dump_intr() {
    let buf = [
        nlmsg(SOCK_DIAG_BY_FAMILY, 2, SEQ - 1, &swift_sock(1, 1)), // stale: earlier request
        nlmsg(
            SOCK_DIAG_BY_FAMILY,
            2 | NLM_F_DUMP_INTR,
            SEQ,
            &swift_sock(2, 2),
        ),
        nlmsg(NLMSG_NOOP, 0, SEQ, &[]),
        done(SEQ),
    ]
    .concat();
    let b = decode_datagram(&buf, SEQ).unwrap();
    assert_eq!(b.foreign, 1);
    assert!(b.interrupted && b.done);
    assert_eq!(b.sockets.len(), 1);
    assert_eq!(b.sockets[0].cookie, 2);
}

#[test]
fn nested_flag_masked_and_unknown_attributes_skipped() {
    let attrs = [
        rta(0x8000 | INET_DIAG_CONG, b"swift\0"),
        rta(1, &[0; 20]),
        rta(INET_DIAG_SHUTDOWN, &[3]),
    ]
    .concat();
    let p = diag(AF_INET, &[1, 1, 1, 1], 1, &[2, 2, 2, 2], 2, 1, &attrs);
    let s = decode_socket(&p).unwrap();
    assert_eq!(s.cong.as_deref(), Some("swift"));
}

fn tcp_info_bytes(len: usize) -> Vec<u8> {
    use tcp_info_off as o;
    let mut v = vec![0u8; len];
    let mut put = |off: usize, b: &[u8]| {
        if off + b.len() <= v.len() {
            v[off..off + b.len()].copy_from_slice(b)
        }
    };
    put(o::SND_MSS, &1448u32.to_ne_bytes());
    put(o::RTT, &5574u32.to_ne_bytes());
    put(o::RTTVAR, &300u32.to_ne_bytes());
    put(o::SND_CWND, &21u32.to_ne_bytes());
    put(o::PACING_RATE, &6_250_000u64.to_ne_bytes());
    put(o::MIN_RTT, &3000u32.to_ne_bytes());
    put(o::DELIVERY_RATE, &5_800_000u64.to_ne_bytes());
    v
}

#[test]
fn tcp_info_fields() {
    // Offsets from `offsetof(struct tcp_info, ...)` on linux-libc-dev 6.1 (unchanged through
    // 6.12: fields are only ever appended): snd_mss 16, rtt 68, rttvar 72, snd_cwnd 80,
    // pacing_rate 104, min_rtt 148, delivery_rate 160.
    assert_eq!(
        (
            tcp_info_off::SND_MSS,
            tcp_info_off::RTT,
            tcp_info_off::SND_CWND,
            tcp_info_off::PACING_RATE,
            tcp_info_off::DELIVERY_RATE
        ),
        (16, 68, 80, 104, 160)
    );
    let p = diag(
        AF_INET,
        &[1, 1, 1, 1],
        1,
        &[2, 2, 2, 2],
        2,
        1,
        &rta(INET_DIAG_INFO, &tcp_info_bytes(248)),
    );
    let t = decode_socket(&p).unwrap().tcp.unwrap();
    assert_eq!(
        t,
        TcpInfo {
            snd_mss: Some(1448),
            srtt_us: Some(5574),
            rttvar_us: Some(300),
            snd_cwnd: Some(21),
            pacing_rate: Some(6_250_000),
            min_rtt_us: Some(3000),
            delivery_rate: Some(5_800_000),
        }
    );
    // An old kernel's 104-byte tcp_info: the later fields are absent, not garbage.
    let p = diag(
        AF_INET,
        &[1, 1, 1, 1],
        1,
        &[2, 2, 2, 2],
        2,
        1,
        &rta(INET_DIAG_INFO, &tcp_info_bytes(104)),
    );
    let t = decode_socket(&p).unwrap().tcp.unwrap();
    assert_eq!(
        (t.snd_cwnd, t.pacing_rate, t.delivery_rate),
        (Some(21), None, None)
    );
}

fn valid_reply() -> Vec<u8> {
    let attrs = [
        rta(INET_DIAG_CONG, b"theta_powertcp\0"),
        rta(INET_DIAG_BBRINFO, &bbr(7, 1234, 9, 999)),
        rta(INET_DIAG_DCTCPINFO, &dctcp(1, 2, 3, 4)),
        rta(INET_DIAG_INFO, &tcp_info_bytes(232)),
    ]
    .concat();
    [
        nlmsg(
            SOCK_DIAG_BY_FAMILY,
            2,
            SEQ,
            &diag(AF_INET6, &[0xfd; 16], 1, &[0xfe; 16], 2, 3, &attrs),
        ),
        nlmsg(SOCK_DIAG_BY_FAMILY, 2, SEQ, &swift_sock(4, 5)),
        done(SEQ),
    ]
    .concat()
}

#[test]
fn valid_reply_decodes() {
    let b = decode_datagram(&valid_reply(), SEQ).unwrap();
    assert_eq!(b.sockets.len(), 2);
    assert_eq!(b.sockets[0].cong.as_deref(), Some("theta_powertcp"));
    assert!(
        b.sockets[0].law.is_some() && b.sockets[0].split.is_some() && b.sockets[0].tcp.is_some()
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4096, ..ProptestConfig::default() })]

    /// Arbitrary bytes: an error or a batch, never a panic.
    #[test]
    fn arbitrary_bytes_never_panic(buf in proptest::collection::vec(any::<u8>(), 0..600), seq in any::<u32>()) {
        let _ = decode_datagram(&buf, seq);
        let _ = decode_socket(&buf);
    }

    /// A valid reply with bytes overwritten and the end cut: random bytes rarely get past the
    /// first header, these reach every attribute decoder.
    #[test]
    fn mutated_reply_never_panics(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 0..8),
        cut in any::<usize>(),
    ) {
        let mut b = valid_reply();
        for (at, v) in edits {
            let i = at % b.len();
            b[i] = v;
        }
        b.truncate(cut % (b.len() + 1));
        match decode_datagram(&b, SEQ) {
            Ok(batch) => prop_assert!(batch.sockets.len() <= 2),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
