// SPDX-License-Identifier: GPL-2.0-only
//! tcp_theta_powertcp: theta-PowerTCP RTT-based power control (Addanki et al., NSDI 2022) as a Linux TCP congestion control.
//!
//! The law is `core/src/powertcp.rs` (with its hold lease, `core/src/powertcp_lease.rs`, a
//! child module it declares), included unchanged; the kernel glue is `modules/glue`.
//! `get_info` signal: smoothed normalized power x 1000 (ss mrtt shows the power).

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
#[path = "../../core/src/powertcp.rs"]
mod powertcp;
#[macro_use]
#[path = "../glue/glue.rs"]
mod glue;

module! {
    type: RdccModule,
    name: "tcp_theta_powertcp",
    author: "rdcc",
    description: "theta-PowerTCP RTT-based power control (Addanki et al., NSDI 2022)",
    license: "GPL",
}

rdcc_glue! {
    name: "theta_powertcp",
    law: powertcp::ThetaPowerTcp,
    config: powertcp::Config,
    params: powertcp::Params,
    info_signal: |s: i64| (s.max(0) as u64).saturating_mul(1000).checked_div(65536).unwrap_or(0).min(u32::MAX as u64) as u32,
    fields: [
        gamma_q16,
        base_rtt_ns,
        host_bw_bps,
        expected_flows,
        beta_bytes,
        min_cwnd_bytes,
        max_cwnd_bytes,
        grad_floor_q16,
        smooth_init_q16,
        gradient_mode,
        loss_md_q16,
        base_rtt_mode,
    ],
}

// The hold lease (issue #13): theta_powertcp_glue.c defines RDCC_LEASE_THETA, so rdcc_glue.c
// takes most ACKs in C and calls these entries for the others.
rdcc_glue_theta_lease! {}
