// SPDX-License-Identifier: GPL-2.0-only
//! `rdcc`: the control-law state of live rdcc TCP sockets, read with inet_diag.
//!
//! Three sock_diag dumps per address family (`netlink`: the wire format; `diag`: the socket),
//! joined per socket cookie (`view`) and printed with names and units (`output`). The kernel
//! side is `rdcc_get_info` in modules/glue/rdcc_glue.c; the request bits it answers are in
//! `netlink::EXT_*` and ARCHITECTURE.md.

pub mod diag;
pub mod netlink;
pub mod output;
pub mod reason;
pub mod view;

use diag::{DiagError, DiagSocketFd};
use netlink::{Request, AF_INET, AF_INET6, EXT_LAW, EXT_SPLIT, EXT_TCP_INFO, STATES_CONNECTED};

/// The joined rows of one snapshot.
#[derive(Debug, Default)]
pub struct Snapshot {
    /// Every rdcc socket, filtered by nothing.
    pub rows: Vec<view::Row>,
    /// A dump was flagged `NLM_F_DUMP_INTR` (the table changed while it ran).
    pub interrupted: bool,
}

/// Run dumps A, B and C for IPv4 and IPv6 and join them.
pub fn snapshot(sock: &mut DiagSocketFd) -> Result<Snapshot, DiagError> {
    let mut parts: [Vec<netlink::DiagSocket>; 3] = Default::default();
    let mut interrupted = false;
    for (part, ext) in parts.iter_mut().zip([EXT_LAW, EXT_SPLIT, EXT_TCP_INFO]) {
        for family in [AF_INET, AF_INET6] {
            let d = sock.dump(&Request {
                family,
                ext,
                states: STATES_CONNECTED,
            })?;
            interrupted |= d.interrupted;
            part.extend(d.sockets);
        }
    }
    Ok(Snapshot {
        rows: view::join(&parts[0], &parts[1], &parts[2]),
        interrupted,
    })
}
