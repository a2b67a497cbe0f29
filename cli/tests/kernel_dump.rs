//! The dump path against the host's own kernel: a loopback connection with a known congestion
//! control must come back with its ports, cookie, `INET_DIAG_CONG` and a `tcp_info` that agrees
//! with getsockopt(TCP_INFO). No rdcc module is needed; `bbr` (answers request A with
//! `INET_DIAG_BBRINFO`, the attribute the rdcc modules use) is used when the host has it,
//! `cubic` otherwise.

use rdcc_cli::diag::DiagSocketFd;
use rdcc_cli::netlink::{Request, AF_INET, EXT_LAW, EXT_TCP_INFO, STATES_CONNECTED};
use std::io::Write;
use std::net::{TcpListener, TcpStream};
use std::os::fd::AsRawFd;

fn set_cc(s: &TcpStream, name: &str) -> std::io::Result<()> {
    // SAFETY: the name buffer is valid for its length during the call; `s` owns the fd.
    let r = unsafe {
        libc::setsockopt(
            s.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_CONGESTION,
            name.as_ptr().cast(),
            name.len() as libc::socklen_t,
        )
    };
    if r == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

fn cookie(s: &TcpStream) -> u64 {
    let mut c: u64 = 0;
    let mut len = std::mem::size_of::<u64>() as libc::socklen_t;
    // SAFETY: `c` and `len` are valid for writes of their sizes during the call.
    let r = unsafe {
        libc::getsockopt(
            s.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_COOKIE,
            (&mut c as *mut u64).cast(),
            &mut len,
        )
    };
    assert_eq!(r, 0, "SO_COOKIE: {}", std::io::Error::last_os_error());
    c
}

fn tcp_info(s: &TcpStream) -> libc::tcp_info {
    // SAFETY: tcp_info is plain integers; all-zero is valid.
    let mut t: libc::tcp_info = unsafe { std::mem::zeroed() };
    let mut len = std::mem::size_of::<libc::tcp_info>() as libc::socklen_t;
    // SAFETY: `t` and `len` are valid for writes of their sizes during the call.
    let r = unsafe {
        libc::getsockopt(
            s.as_raw_fd(),
            libc::IPPROTO_TCP,
            libc::TCP_INFO,
            (&mut t as *mut libc::tcp_info).cast(),
            &mut len,
        )
    };
    assert_eq!(r, 0, "TCP_INFO: {}", std::io::Error::last_os_error());
    t
}

#[test]
fn loopback_socket_round_trip() {
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let mut c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
    let (_srv, _) = l.accept().unwrap();
    let cc = if set_cc(&c, "bbr").is_ok() {
        "bbr"
    } else {
        "cubic"
    };
    set_cc(&c, cc).unwrap();
    c.write_all(&[0u8; 100_000]).unwrap();
    let want_cookie = cookie(&c);
    let local = c.local_addr().unwrap();
    let peer = c.peer_addr().unwrap();

    let mut d = DiagSocketFd::open().unwrap();
    let got = d
        .dump(&Request {
            family: AF_INET,
            ext: EXT_TCP_INFO,
            states: STATES_CONNECTED,
        })
        .unwrap();
    let s = got
        .sockets
        .iter()
        .find(|s| s.cookie == want_cookie)
        .unwrap_or_else(|| {
            panic!(
                "cookie {want_cookie} not among {} sockets",
                got.sockets.len()
            )
        });
    assert_eq!((s.src, s.sport), (local.ip(), local.port()));
    assert_eq!((s.dst, s.dport), (peer.ip(), peer.port()));
    assert_eq!(s.state, 1, "ESTABLISHED");
    assert_eq!(s.cong.as_deref(), Some(cc));
    let t = s.tcp.expect("INET_DIAG_INFO was requested");
    let k = tcp_info(&c);
    assert_eq!(t.snd_mss, Some(k.tcpi_snd_mss));
    assert_eq!(t.snd_cwnd.map(|c| c > 0), Some(true));
    assert!(t.srtt_us.is_some() && t.pacing_rate.is_some() && t.delivery_rate.is_some());
    assert!(
        s.law.is_none() && s.split.is_none(),
        "no VEGASINFO bit in request C"
    );

    // Request A: bbr answers the VEGASINFO bit with INET_DIAG_BBRINFO, as the rdcc modules do.
    let got = d
        .dump(&Request {
            family: AF_INET,
            ext: EXT_LAW,
            states: STATES_CONNECTED,
        })
        .unwrap();
    let s = got
        .sockets
        .iter()
        .find(|s| s.cookie == want_cookie)
        .unwrap();
    assert!(s.tcp.is_none(), "no INFO bit in request A");
    if cc == "bbr" {
        let law = s.law.expect("bbr's INET_DIAG_BBRINFO");
        assert!(
            law.signal > 0,
            "bbr_min_rtt of a loopback flow that moved data"
        );
    } else {
        assert!(s.law.is_none());
    }
    // The full pipeline: no rdcc socket among these, so nothing is shown.
    let snap = rdcc_cli::snapshot(&mut d).unwrap();
    assert!(snap.rows.iter().all(|r| r.cookie != want_cookie));
}
