//! The socket side: one `NETLINK_SOCK_DIAG` socket, one dump per request. Every `unsafe` block
//! of the tool is here.

use crate::netlink::{self, DecodeError, DiagSocket, Request};
use std::fmt;
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::time::Duration;

/// Receive buffer. The kernel sizes a dump's datagrams by the reader's largest earlier receive
/// buffer, capped at 32 KiB (`netlink_dump`); 64 KiB always holds one. A datagram that did not
/// fit is detected (`MSG_TRUNC`) and reported, never decoded half.
const RECV_BUF: usize = 64 * 1024;
/// A dump that stalls this long is an error, not a hang.
const RECV_TIMEOUT: Duration = Duration::from_secs(5);

/// What went wrong while dumping.
#[derive(Debug)]
pub enum DiagError {
    /// A system call failed; `what` says which.
    Io {
        /// The call and its purpose.
        what: &'static str,
        /// The error.
        err: io::Error,
    },
    /// The reply could not be decoded, or the kernel answered with an error.
    Decode {
        /// Which dump (family and request).
        what: String,
        /// The error.
        err: DecodeError,
    },
    /// A datagram was larger than the receive buffer.
    Truncated {
        /// Its real size.
        len: usize,
    },
}

impl fmt::Display for DiagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagError::Io { what, err } => write!(f, "{what}: {err}"),
            DiagError::Decode { what, err } => write!(f, "{what}: {err}"),
            DiagError::Truncated { len } => write!(
                f,
                "a netlink datagram of {len} bytes did not fit the {RECV_BUF}-byte buffer"
            ),
        }
    }
}

impl std::error::Error for DiagError {}

/// The result of one dump.
#[derive(Debug, Default)]
pub struct Dump {
    /// The sockets, in kernel order.
    pub sockets: Vec<DiagSocket>,
    /// The kernel flagged the dump as interrupted (`NLM_F_DUMP_INTR`): sockets came or went
    /// while it ran, so one may be missing or listed twice.
    pub interrupted: bool,
}

/// A `NETLINK_SOCK_DIAG` socket.
pub struct DiagSocketFd {
    fd: OwnedFd,
    seq: u32,
    buf: Vec<u8>,
}

impl DiagSocketFd {
    /// Open the socket (any user may; only the kernel's own checks apply).
    pub fn open() -> Result<Self, DiagError> {
        // SAFETY: socket(2) takes no pointers; the result is checked before use.
        let fd = unsafe {
            libc::socket(
                libc::AF_NETLINK,
                libc::SOCK_RAW | libc::SOCK_CLOEXEC,
                netlink::NETLINK_SOCK_DIAG,
            )
        };
        if fd < 0 {
            return Err(DiagError::Io {
                what: "cannot open a NETLINK_SOCK_DIAG socket (kernel without CONFIG_INET_DIAG?)",
                err: io::Error::last_os_error(),
            });
        }
        // SAFETY: `fd` is a fresh descriptor that nothing else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(fd) };
        let tv = libc::timeval {
            tv_sec: RECV_TIMEOUT.as_secs() as libc::time_t,
            tv_usec: 0,
        };
        // SAFETY: `tv` is a valid timeval that outlives the call; the length is its size.
        let r = unsafe {
            libc::setsockopt(
                fd.as_raw_fd(),
                libc::SOL_SOCKET,
                libc::SO_RCVTIMEO,
                (&tv as *const libc::timeval).cast(),
                std::mem::size_of::<libc::timeval>() as libc::socklen_t,
            )
        };
        if r < 0 {
            return Err(DiagError::Io {
                what: "setsockopt(SO_RCVTIMEO) on the netlink socket",
                err: io::Error::last_os_error(),
            });
        }
        Ok(DiagSocketFd {
            fd,
            seq: 0,
            buf: vec![0u8; RECV_BUF],
        })
    }

    /// Send `req` as a dump request and read the reply up to `NLMSG_DONE`.
    pub fn dump(&mut self, req: &Request) -> Result<Dump, DiagError> {
        self.seq = self.seq.wrapping_add(1);
        let seq = self.seq;
        let msg = netlink::encode_request(req, seq);
        // SAFETY: an all-zero sockaddr_nl is valid (nl_pid 0 = the kernel).
        let mut sa: libc::sockaddr_nl = unsafe { std::mem::zeroed() };
        sa.nl_family = libc::AF_NETLINK as libc::sa_family_t;
        // SAFETY: `msg` and `sa` are valid for the lengths passed and outlive the call.
        let n = unsafe {
            libc::sendto(
                self.fd.as_raw_fd(),
                msg.as_ptr().cast(),
                msg.len(),
                0,
                (&sa as *const libc::sockaddr_nl).cast(),
                std::mem::size_of::<libc::sockaddr_nl>() as libc::socklen_t,
            )
        };
        if n < 0 {
            return Err(DiagError::Io {
                what: "sending the sock_diag request",
                err: io::Error::last_os_error(),
            });
        }
        let what = format!(
            "{} dump (idiag_ext 0x{:02x})",
            if req.family == netlink::AF_INET6 {
                "IPv6"
            } else {
                "IPv4"
            },
            req.ext
        );
        let mut out = Dump::default();
        loop {
            // MSG_TRUNC: the return value is the datagram's real length even when it did not fit.
            // SAFETY: `buf` is valid for writes of its length and outlives the call.
            let n = unsafe {
                libc::recv(
                    self.fd.as_raw_fd(),
                    self.buf.as_mut_ptr().cast(),
                    self.buf.len(),
                    libc::MSG_TRUNC,
                )
            };
            if n < 0 {
                let err = io::Error::last_os_error();
                if err.kind() == io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(DiagError::Io {
                    what: if matches!(
                        err.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) {
                        "the kernel's sock_diag reply stalled (no data for 5 s)"
                    } else {
                        "receiving the sock_diag reply"
                    },
                    err,
                });
            }
            let n = n as usize;
            if n > self.buf.len() {
                return Err(DiagError::Truncated { len: n });
            }
            if n == 0 {
                return Err(DiagError::Decode {
                    what,
                    err: DecodeError::ShortPayload {
                        what: "netlink datagram",
                        got: 0,
                        need: netlink::NLMSG_HDR_LEN,
                    },
                });
            }
            let batch =
                netlink::decode_datagram(&self.buf[..n], seq).map_err(|err| DiagError::Decode {
                    what: what.clone(),
                    err,
                })?;
            out.sockets.extend(batch.sockets);
            out.interrupted |= batch.interrupted;
            if batch.done {
                return Ok(out);
            }
        }
    }
}
