// SPDX-License-Identifier: GPL-2.0-only
//! tcp_powertcp: PowerTCP power-based control over in-band telemetry (Addanki et al., NSDI 2022) as a Linux TCP congestion control.
//!
//! The law is `core/src/powertcp_int.rs` behind `int::IntController`, included unchanged, fed the
//! INT stack the receiver echoes (`core/src/int_wire.rs`) through the intake of
//! `core/src/int_intake.rs`; the kernel glue is `modules/glue` (`int_glue.rs`,
//! `rdcc_int_glue.c`). `get_info` signal: smoothed normalised power x 1000.

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
// θ-PowerTCP's file, for the link ranges both INT laws accept; its lease's re-exports go unused.
#[allow(unused_imports)]
#[path = "../../core/src/powertcp.rs"]
mod powertcp;
#[path = "../../core/src/int.rs"]
mod int;
#[path = "../../core/src/int_wire.rs"]
mod int_wire;
#[path = "../../core/src/int_intake.rs"]
mod int_intake;
#[path = "../../core/src/powertcp_int.rs"]
mod powertcp_int;
// For rdcc_glue_common!; the Controller laws' macros go unused.
#[allow(unused_macros)]
#[macro_use]
#[path = "../glue/glue.rs"]
mod glue;
#[macro_use]
#[path = "../glue/int_glue.rs"]
mod int_glue;

module! {
    type: RdccModule,
    name: "tcp_powertcp",
    author: "rdcc",
    description: "PowerTCP power-based control over in-band telemetry (Addanki et al., NSDI 2022)",
    license: "GPL",
}

rdcc_int_glue! {
    law: powertcp_int::PowerTcpInt,
    config: powertcp_int::Config,
    params: powertcp_int::Params,
    info_signal: |s: i64| (s.max(0) as u64).saturating_mul(1000).checked_div(65536).unwrap_or(0).min(u32::MAX as u64) as u32,
    fields: [
        gamma_q16,
        base_rtt_ns,
        host_bw_bps,
        expected_flows,
        beta_bytes,
        min_cwnd_bytes,
        max_cwnd_bytes,
        smooth_init_q16,
        target_q16,
        lambda_floor_q16,
        kept_from_ref,
    ],
}
