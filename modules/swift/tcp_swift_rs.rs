// SPDX-License-Identifier: GPL-2.0-only
//! tcp_swift: Swift delay-based congestion control (Kumar et al., SIGCOMM 2020) as a Linux TCP congestion control.
//!
//! The law is `core/src/swift.rs`, included unchanged; the kernel glue is `modules/glue`.
//! `get_info` signal: target delay, µs (ss shows it as mrtt in ms).

// The core's helpers serve every law and its items are `pub` for the host crate; this module
// uses a subset of them privately.
#![allow(dead_code, unreachable_pub)]

use kernel::prelude::*;

#[path = "../../core/src/event.rs"]
mod event;
#[path = "../../core/src/fixed.rs"]
mod fixed;
#[path = "../../core/src/units.rs"]
mod units;
#[path = "../../core/src/rqd.rs"]
mod rqd;
#[path = "../../core/src/swift.rs"]
mod swift;
#[macro_use]
#[path = "../glue/glue.rs"]
mod glue;

module! {
    type: RdccModule,
    name: "tcp_swift",
    author: "rdcc",
    description: "Swift delay-based congestion control (Kumar et al., SIGCOMM 2020)",
    license: "GPL",
}

rdcc_glue! {
    name: "swift",
    law: swift::Swift,
    config: swift::Config,
    params: swift::Params,
    info_signal: |s: i64| (s.max(0) as u64 / 1000).min(u32::MAX as u64) as u32,
    fields: [
        ai_pkts_q20,
        beta_q16,
        max_mdf_q16,
        min_cwnd_pkts_q20,
        max_cwnd_pkts_q20,
        init_cwnd_pkts_q20,
        retx_reset_threshold,
        base_target_ns,
        per_hop_ns,
        default_hops,
        fs_range_ns,
        fs_min_cwnd_pkts_q20,
        fs_max_cwnd_pkts_q20,
        endpoint_target_ns,
        endpoint_ewma_q16,
        literal_decrease_guard,
    ],
}

rdcc_glue_swift_lease!();
