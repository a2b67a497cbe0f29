// SPDX-License-Identifier: GPL-2.0-only
//! rdcc_kunit: the KUnit suites of every rdcc law, as a test module of its own.
//!
//! Test code never ships in a product module: `tcp_<name>.ko` carries no KUnit and does not
//! depend on `kunit.ko`. This module is built only when the target kernel has `CONFIG_KUNIT`
//! (see modules/Kbuild); loading it runs the suites `rdcc_swift`, `rdcc_swift_vaisf`,
//! `rdcc_timely`, `rdcc_theta_powertcp`, `rdcc_powertcp` and `rdcc_hpcc` (and taints the kernel
//! with TAINT_TEST, as every KUnit module does). It registers no congestion control.

// The core's helpers serve every law and its items are `pub` for the host crate; this module
// uses a subset of them privately.
#![allow(dead_code, unreachable_pub)]

use kernel::prelude::*;

#[path = "../../core/src/event.rs"]
mod event;
#[path = "../../core/src/event_vectors.rs"]
mod event_vectors;
#[path = "../../core/src/fixed.rs"]
mod fixed;
#[path = "../../core/src/vectors.rs"]
mod vectors;
#[path = "../../core/src/rqd.rs"]
mod rqd;
#[path = "../../core/src/swift.rs"]
mod swift;
#[path = "../../core/src/swift_vectors.rs"]
mod swift_vectors;
#[path = "../../core/src/vaisf.rs"]
mod vaisf;
#[path = "../../core/src/vaisf_vectors.rs"]
mod vaisf_vectors;
#[path = "../../core/src/lease.rs"]
mod lease;
#[path = "../../core/src/timely.rs"]
mod timely;
#[path = "../../core/src/timely_vectors.rs"]
mod timely_vectors;
#[path = "../../core/src/powertcp.rs"]
mod powertcp;
#[path = "../../core/src/powertcp_vectors.rs"]
mod powertcp_vectors;
#[path = "../../core/src/int.rs"]
mod int;
#[path = "../../core/src/int_wire.rs"]
mod int_wire;
#[path = "../../core/src/int_intake.rs"]
mod int_intake;
#[path = "../../core/src/powertcp_int.rs"]
mod powertcp_int;
#[path = "../../core/src/hpcc.rs"]
mod hpcc;
#[path = "../../core/src/int_vectors.rs"]
mod int_vectors;
#[macro_use]
#[path = "../glue/kunit.rs"]
mod kunit;

module! {
    type: RdccKunit,
    name: "rdcc_kunit",
    author: "rdcc",
    description: "KUnit suites of the rdcc congestion-control laws (test module)",
    license: "GPL",
}

/// Nothing to set up: the C side registers the suites with `kunit_test_suites`, and the KUnit
/// module notifier runs them when this module loads.
struct RdccKunit;

impl kernel::Module for RdccKunit {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        Ok(RdccKunit)
    }
}

rdcc_kunit_law! {
    vectors: rdcc_rs_kunit_swift_vectors,
    bounds: rdcc_rs_kunit_swift_bounds,
    law: swift::Swift,
    config: swift::Config,
    params: swift::Params,
    cases: swift_vectors::CASES,
    run_all: swift_vectors::run_all,
}

rdcc_kunit_law! {
    vectors: rdcc_rs_kunit_swift_vaisf_vectors,
    bounds: rdcc_rs_kunit_swift_vaisf_bounds,
    law: vaisf::SwiftVaiSf,
    config: vaisf::Config,
    params: vaisf::Params,
    cases: vaisf_vectors::CASES,
    run_all: vaisf_vectors::run_all,
}

rdcc_kunit_law! {
    vectors: rdcc_rs_kunit_timely_vectors,
    bounds: rdcc_rs_kunit_timely_bounds,
    law: timely::Timely,
    config: timely::Config,
    params: timely::Params,
    cases: timely_vectors::CASES,
    run_all: timely_vectors::run_all,
}

rdcc_kunit_law! {
    vectors: rdcc_rs_kunit_theta_powertcp_vectors,
    bounds: rdcc_rs_kunit_theta_powertcp_bounds,
    law: powertcp::ThetaPowerTcp,
    config: powertcp::Config,
    params: powertcp::Params,
    cases: powertcp_vectors::CASES,
    run_all: powertcp_vectors::run_all,
}

rdcc_kunit_int_law! {
    vectors: rdcc_rs_kunit_powertcp_vectors,
    bounds: rdcc_rs_kunit_powertcp_bounds,
    law: powertcp_int::PowerTcpInt,
    config: powertcp_int::Config,
    params: powertcp_int::Params,
    example: int_vectors::powertcp_worked_example,
}

rdcc_kunit_int_law! {
    vectors: rdcc_rs_kunit_hpcc_vectors,
    bounds: rdcc_rs_kunit_hpcc_bounds,
    law: hpcc::Hpcc,
    config: hpcc::Config,
    params: hpcc::Params,
    example: int_vectors::hpcc_worked_example,
}
