//! The system calls std does not offer: CLOCK_MONOTONIC (the trace's "mono" clock) and an
//! absolute sleep on it, a TCP socket whose congestion control is set before it connects, and
//! the socket's TCP_INFO and TCP_CONGESTION.

use std::ffi::c_void;
use std::io;
use std::mem::{size_of, MaybeUninit};
use std::net::{SocketAddr, TcpStream};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// CLOCK_MONOTONIC in ns: the clock of the kernel trace's `mono` trace_clock
/// (`ktime_get_mono_fast_ns`), so the flows' start markers and the trace agree.
pub fn mono_ns() -> u64 {
    let mut ts = MaybeUninit::<libc::timespec>::uninit();
    // SAFETY: ts is a valid, writable timespec; CLOCK_MONOTONIC always exists on Linux, so the
    // call fills it (it can fail only with EFAULT or EINVAL, neither possible here).
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, ts.as_mut_ptr()) };
    assert_eq!(rc, 0, "clock_gettime(CLOCK_MONOTONIC)");
    // SAFETY: the call succeeded, so ts is initialised.
    let ts = unsafe { ts.assume_init() };
    // tv_sec and tv_nsec of CLOCK_MONOTONIC are non-negative; 2^64 ns is 584 years of uptime.
    (ts.tv_sec as u64)
        .saturating_mul(1_000_000_000)
        .saturating_add(ts.tv_nsec as u64)
}

/// Sleep until CLOCK_MONOTONIC reads `t_ns` (at once if it has passed): an absolute sleep, so
/// the flows' starts do not drift by the time the program spends between them.
pub fn sleep_until_ns(t_ns: u64) {
    let ts = libc::timespec {
        tv_sec: (t_ns / 1_000_000_000) as libc::time_t,
        tv_nsec: (t_ns % 1_000_000_000) as libc::c_long,
    };
    loop {
        // SAFETY: ts is a valid timespec; with TIMER_ABSTIME the remainder pointer is unused
        // and may be null.
        let rc = unsafe {
            libc::clock_nanosleep(
                libc::CLOCK_MONOTONIC,
                libc::TIMER_ABSTIME,
                &ts,
                std::ptr::null_mut(),
            )
        };
        // clock_nanosleep returns the error number; EINTR (a signal) sleeps again.
        if rc != libc::EINTR {
            return;
        }
    }
}

/// setsockopt(fd, IPPROTO_TCP, opt, bytes).
fn set_tcp_opt(fd: &impl AsRawFd, opt: libc::c_int, val: &[u8]) -> io::Result<()> {
    // SAFETY: val points to val.len() readable bytes for the duration of the call; fd is an
    // open socket owned by the caller.
    let rc = unsafe {
        libc::setsockopt(
            fd.as_raw_fd(),
            libc::IPPROTO_TCP,
            opt,
            val.as_ptr() as *const c_void,
            val.len() as libc::socklen_t,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// A TCP connection to `addr` whose congestion control is `algo` from its first segment
/// (TCP_CONGESTION set before connect, as `iperf3 -C` does). Blocking connect: a lost SYN is
/// retried by the kernel.
pub fn connect_with_cc(addr: SocketAddr, algo: &str) -> io::Result<TcpStream> {
    let family = match addr {
        SocketAddr::V4(_) => libc::AF_INET,
        SocketAddr::V6(_) => libc::AF_INET6,
    };
    // SAFETY: socket() takes no pointers; a negative result is handled below.
    let fd = unsafe { libc::socket(family, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: fd is a new, valid descriptor that nothing else owns; OwnedFd closes it on every
    // path from here (including the errors below).
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    set_congestion(&fd, algo)?;
    let (sa, len) = sockaddr(addr);
    // SAFETY: sa is a sockaddr_storage holding a sockaddr_in or sockaddr_in6 of `len` bytes
    // (fn sockaddr), readable for the call.
    let rc = unsafe {
        libc::connect(
            fd.as_raw_fd(),
            &sa as *const libc::sockaddr_storage as *const libc::sockaddr,
            len,
        )
    };
    if rc != 0 {
        // No signal handlers are installed, so EINTR (which would leave the connect in
        // progress) does not happen; every error fails the flow.
        let e = io::Error::last_os_error();
        return Err(io::Error::new(e.kind(), format!("connect {addr}: {e}")));
    }
    Ok(TcpStream::from(fd))
}

/// `addr` as a sockaddr_storage and its length.
fn sockaddr(addr: SocketAddr) -> (libc::sockaddr_storage, libc::socklen_t) {
    // SAFETY: sockaddr_storage is plain data for which all-zero bytes are a valid value.
    let mut ss: libc::sockaddr_storage = unsafe { std::mem::zeroed() };
    match addr {
        SocketAddr::V4(a) => {
            let sin = libc::sockaddr_in {
                sin_family: libc::AF_INET as libc::sa_family_t,
                sin_port: a.port().to_be(),
                sin_addr: libc::in_addr {
                    s_addr: u32::from_ne_bytes(a.ip().octets()),
                },
                sin_zero: [0; 8],
            };
            // SAFETY: sockaddr_storage is larger than and aligned for sockaddr_in.
            unsafe { std::ptr::write(&mut ss as *mut _ as *mut libc::sockaddr_in, sin) };
            (ss, size_of::<libc::sockaddr_in>() as libc::socklen_t)
        }
        SocketAddr::V6(a) => {
            let sin6 = libc::sockaddr_in6 {
                sin6_family: libc::AF_INET6 as libc::sa_family_t,
                sin6_port: a.port().to_be(),
                sin6_flowinfo: a.flowinfo(),
                sin6_addr: libc::in6_addr {
                    s6_addr: a.ip().octets(),
                },
                sin6_scope_id: a.scope_id(),
            };
            // SAFETY: sockaddr_storage is larger than and aligned for sockaddr_in6.
            unsafe { std::ptr::write(&mut ss as *mut _ as *mut libc::sockaddr_in6, sin6) };
            (ss, size_of::<libc::sockaddr_in6>() as libc::socklen_t)
        }
    }
}

/// getsockopt(fd, IPPROTO_TCP, opt) into `buf`; the bytes the kernel wrote.
fn get_tcp_opt(fd: &impl AsRawFd, opt: libc::c_int, buf: &mut [u8]) -> io::Result<usize> {
    let mut len = buf.len() as libc::socklen_t;
    // SAFETY: buf is writable for len bytes, len is a valid socklen_t; the kernel writes at
    // most len bytes and stores the count in len.
    let rc = unsafe {
        libc::getsockopt(
            fd.as_raw_fd(),
            libc::IPPROTO_TCP,
            opt,
            buf.as_mut_ptr() as *mut c_void,
            &mut len,
        )
    };
    if rc == 0 {
        Ok((len as usize).min(buf.len()))
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Set the congestion control of `s` (a listener: the connections it accepts inherit it).
pub fn set_congestion(s: &impl AsRawFd, algo: &str) -> io::Result<()> {
    set_tcp_opt(s, libc::TCP_CONGESTION, algo.as_bytes()).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!("TCP_CONGESTION {algo}: {e} (module not loaded, or not allowed?)"),
        )
    })
}

/// The socket's congestion control (TCP_CONGESTION).
pub fn congestion(s: &TcpStream) -> io::Result<String> {
    let mut buf = [0u8; 16];
    let n = get_tcp_opt(s, libc::TCP_CONGESTION, &mut buf)?;
    let name = &buf[..n];
    let end = name.iter().position(|&b| b == 0).unwrap_or(n);
    Ok(String::from_utf8_lossy(&name[..end]).into_owned())
}

/// The socket's retransmitted segments over its life (TCP_INFO `tcpi_total_retrans`).
pub fn total_retrans(s: &TcpStream) -> io::Result<u32> {
    let mut buf = [0u8; size_of::<libc::tcp_info>()];
    let n = get_tcp_opt(s, libc::TCP_INFO, &mut buf)?;
    let off = std::mem::offset_of!(libc::tcp_info, tcpi_total_retrans);
    if n < off + 4 {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("TCP_INFO: {n} bytes, no tcpi_total_retrans"),
        ));
    }
    Ok(u32::from_ne_bytes([
        buf[off],
        buf[off + 1],
        buf[off + 2],
        buf[off + 3],
    ]))
}

/// Descriptors beside the flows' sockets: stdio, the marker, the runtime's own.
pub const FD_SPARE: u64 = 32;

/// Make room for `need` open descriptors: raise the soft RLIMIT_NOFILE to at least `need`
/// (up to the hard limit). The default soft limit is 1024, and 600 flows' listeners and
/// accepted sockets in one sink passed it: accept() failed with EMFILE for the last flows
/// mid-trial (the web-search run of Documentation/results/int_testbed.md). An error names the
/// need and the hard limit, before anything is bound or connected.
pub fn reserve_fds(need: u64) -> io::Result<()> {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: lim is a valid rlimit, written by the call.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return Err(io::Error::last_os_error());
    }
    if lim.rlim_cur >= need {
        return Ok(());
    }
    if lim.rlim_max < need {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{need} file descriptors needed, RLIMIT_NOFILE allows {} (hard limit): fewer \
                 flows, or raise it (ulimit -Hn)",
                lim.rlim_max
            ),
        ));
    }
    lim.rlim_cur = need;
    // SAFETY: lim is a valid rlimit, read by the call.
    if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &lim) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;

    #[test]
    fn clock_and_sleep() {
        let t = mono_ns();
        sleep_until_ns(t + 20_000_000);
        let d = mono_ns() - t;
        assert!(d >= 20_000_000, "slept {d} ns");
        // A time that has passed returns at once.
        let t = mono_ns();
        sleep_until_ns(t - 1);
        assert!(mono_ns() - t < 1_000_000_000);
    }

    #[test]
    fn connect_sets_the_algorithm() {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let s = connect_with_cc(l.local_addr().unwrap(), "reno").unwrap();
        assert_eq!(congestion(&s).unwrap(), "reno");
        assert_eq!(total_retrans(&s).unwrap(), 0);
        let e = connect_with_cc(l.local_addr().unwrap(), "no_such_cc").unwrap_err();
        assert!(e.to_string().contains("TCP_CONGESTION no_such_cc"), "{e}");
        let l6 = TcpListener::bind("[::1]:0");
        if let Ok(l6) = l6 {
            let s = connect_with_cc(l6.local_addr().unwrap(), "reno").unwrap();
            assert_eq!(s.peer_addr().unwrap(), l6.local_addr().unwrap());
        }
    }
}
