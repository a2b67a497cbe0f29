// SPDX-License-Identifier: GPL-2.0-only
//! tcp_swift_vaisf: Swift with Variable Additive Increase and Sampling Frequency (Snyder & Lebeck) as a Linux TCP congestion control.
//!
//! The law is `core/src/vaisf.rs`, included unchanged; the kernel glue is `modules/glue`.
//! `get_info` signal: target delay, µs.

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
#[path = "../../core/src/vaisf.rs"]
mod vaisf;
#[macro_use]
#[path = "../glue/glue.rs"]
mod glue;

module! {
    type: RdccModule,
    name: "tcp_swift_vaisf",
    author: "rdcc",
    description: "Swift with Variable Additive Increase and Sampling Frequency (Snyder & Lebeck)",
    license: "GPL",
}

rdcc_glue! {
    name: "swift_vaisf",
    law: vaisf::SwiftVaiSf,
    config: vaisf::Config,
    params: vaisf::Params,
    info_signal: |s: i64| (s.max(0) as u64 / 1000).min(u32::MAX as u64) as u32,
    fields: [
        base_ai_bps,
        beta_q16,
        max_mdf_q16,
        min_cwnd_pkts_q20,
        max_cwnd_pkts_q20,
        init_cwnd_pkts_q20,
        retx_reset_threshold,
        base_target_ns,
        per_hop_ns,
        default_hops,
        sf_acks,
        sf_count_segments,
        token_thresh_extra_ns,
        ai_div_ns,
        bank_cap,
        ai_cap,
        dampener_constant,
        token_numerator,
    ],
}

// The steady-decrease lease (issue #13): swift_vaisf_glue.c defines RDCC_LEASE_VAISF, so
// rdcc_glue.c takes the ACKs of the lease's regime in C and calls this entry for the others.
rdcc_glue_vaisf_lease! {}
