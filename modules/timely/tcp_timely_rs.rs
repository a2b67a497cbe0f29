// SPDX-License-Identifier: GPL-2.0-only
//! tcp_timely: TIMELY RTT-gradient rate control (Mittal et al., SIGCOMM 2015) as a Linux TCP congestion control.
//!
//! The law is `core/src/timely.rs` (with its hold lease, `core/src/timely_lease.rs` and
//! `core/src/lease.rs`), included unchanged; the kernel glue is `modules/glue`.
//! `get_info` signal: normalized RTT gradient x 1000 (ss mrtt shows the gradient), negative shown as 0.

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
#[path = "../../core/src/lease.rs"]
mod lease;
#[path = "../../core/src/timely.rs"]
mod timely;
#[macro_use]
#[path = "../glue/glue.rs"]
mod glue;

module! {
    type: RdccModule,
    name: "tcp_timely",
    author: "rdcc",
    description: "TIMELY RTT-gradient rate control (Mittal et al., SIGCOMM 2015)",
    license: "GPL",
}

rdcc_glue! {
    name: "timely",
    law: timely::Timely,
    config: timely::Config,
    params: timely::Params,
    info_signal: |s: i64| (s.max(0) as u64).saturating_mul(1000).checked_div(65536).unwrap_or(0).min(u32::MAX as u64) as u32,
    fields: [
        segment_bytes,
        t_low_ns,
        t_high_ns,
        min_rtt_ns,
        alpha_q16,
        beta_q16,
        delta_mbps,
        hai_threshold,
        hai_factor,
        hai_in_low_guard,
        line_rate_mbps,
        min_rate_mbps,
        init_rate_mbps,
        app_limit_q16,
        update_mode,
        rto_beta_q16,
        rto_reset_count,
        skip_delayed_acks,
    ],
}

// The hold lease (issue #13): timely_glue.c defines RDCC_LEASE, so rdcc_glue.c applies most ACKs
// from the lease and calls these entries for the others.
rdcc_glue_lease! {
    law: timely::Timely,
}
