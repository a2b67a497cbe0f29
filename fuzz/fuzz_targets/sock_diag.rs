//! Drives the `rdcc` command's sock_diag reply decoder (`rdcc_cli::netlink`) with arbitrary
//! datagrams, and the join with whatever it accepted.
//!
//! Checks: no panic (overflow checks on); a decoded batch is consistent (a socket's address
//! family matches its addresses, at most one socket per 88 bytes: header + inet_diag_msg);
//! joining the sockets as all three dumps never panics and yields at most one row per cookie.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rdcc_cli::netlink::{decode_datagram, AF_INET, DIAG_MSG_LEN, NLMSG_HDR_LEN};
use rdcc_cli::view::join;

fuzz_target!(|data: &[u8]| {
    // First 4 bytes: the sequence number expected; the rest: the datagram.
    let (seq, buf) = match data.get(..4) {
        Some(s) => (u32::from_ne_bytes([s[0], s[1], s[2], s[3]]), &data[4..]),
        None => (0, data),
    };
    let Ok(batch) = decode_datagram(buf, seq) else {
        return;
    };
    assert!(batch.sockets.len() * (NLMSG_HDR_LEN + DIAG_MSG_LEN) <= buf.len());
    for s in &batch.sockets {
        assert_eq!(s.family == AF_INET, s.src.is_ipv4());
        assert_eq!(s.family == AF_INET, s.dst.is_ipv4());
    }
    let rows = join(&batch.sockets, &batch.sockets, &batch.sockets);
    let mut cookies: Vec<u64> = rows.iter().map(|r| r.cookie).collect();
    cookies.sort_unstable();
    cookies.dedup();
    assert_eq!(cookies.len(), rows.len());
    for r in &rows {
        let _ = rdcc_cli::output::cells(r);
    }
});
