// SPDX-License-Identifier: GPL-2.0-only
//! rdcc-core: the control laws of delay-based datacenter congestion control, in integer and
//! fixed-point arithmetic, shared unchanged by the Linux kernel modules, KUnit, host tests and
//! the network simulator.
//!
//! Rules every file here follows (checked by `core/tests/forbidden.rs`, the clippy lints denied
//! below, and review):
//! - `no_std`, no dependencies, no `unsafe`, no floats, no 128-bit integers, no allocation, no
//!   clock reads: time arrives in events.
//! - No panics: no `unwrap`/`expect`, no indexing that can go out of bounds, no division by a
//!   value that can be zero, no arithmetic that can overflow (kernel Rust has overflow checks).
//! - Files refer to each other only through `super::<sibling>` so a kernel module can include
//!   them with `#[path = ...] mod <sibling>;` side by side at one level.
//!
//! Layout: [`fixed`] (scales and helpers), [`event`] (the host boundary and the [`Controller`]
//! trait), [`lease`] (the hold lease of issue #13: a law's proof that its next ACKs are holds,
//! which the kernel glue applies without calling it; TIMELY's terms in `timely_lease.rs`, a
//! child of [`timely`]; θ-PowerTCP's own lease, whose C fast path steps the law's state, in
//! `powertcp_lease.rs`, a child of [`powertcp`]), one file per law ([`swift`], [`vaisf`], [`timely`], [`powertcp`], and the receiver-driven
//! [`expresspass`], which is not a [`Controller`]), the INT laws [`powertcp_int`] and [`hpcc`]
//! (HPCC, and HPCC with VAI/SF) behind [`int::IntController`], which take the telemetry stack
//! of [`int`] beside the ACK, [`int_wire`] (the TCP option that carries that stack on Linux:
//! the software INT switch's stamp, the request and the echo), [`rqd`] (the
//! remote-queuing-delay TCP option of Swift's receiver channel: wire format and parser),
//! [`tcp_int`] (the TCP-INT option of P4 TCP-INT switches: parser, writer, and its conversion
//! into the INT laws' one-hop stack), and
//! [`vectors`] (the table format that host tests and KUnit share), with each law's tables in
//! `<law>_vectors.rs`.
#![no_std]
#![forbid(unsafe_code)]
#![deny(missing_docs)]
#![deny(
    clippy::float_arithmetic,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic
)]
#![deny(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
#![cfg_attr(
    test,
    allow(
        clippy::arithmetic_side_effects,
        clippy::indexing_slicing,
        clippy::unwrap_used
    )
)]

pub mod event;
pub mod event_vectors;
pub mod expresspass;
pub mod expresspass_vectors;
pub mod fixed;
pub mod hpcc;
pub mod int;
pub mod int_intake;
pub mod int_vectors;
pub mod int_wire;
pub mod lease;
pub mod powertcp;
pub mod powertcp_int;
pub mod powertcp_vectors;
pub mod rqd;
pub mod swift;
pub mod swift_vectors;
pub mod tcp_int;
pub mod timely;
pub mod timely_vectors;
pub mod units;
pub mod vaisf;
pub mod vaisf_vectors;
pub mod vectors;

pub use event::{AckEvent, Controller, Decision, LossEvent, LossKind, ParamError, Reason, Report};
