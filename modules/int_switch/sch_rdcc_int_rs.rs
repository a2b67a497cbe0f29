// SPDX-License-Identifier: GPL-2.0-only
//! sch_rdcc_int: the software INT switch (issue #35 item 1), a FIFO qdisc that writes this
//! port's in-band telemetry record into every INT request it dequeues.
//!
//! The record and the option are the core's (`core/src/int.rs` `IntHop`, `core/src/int_wire.rs`
//! `stamp`), included unchanged: the simulator's switch (`sim/src/engine/fabric.rs`) encodes the
//! same record. The qdisc itself (queue, finding the TCP options, the checksum)
//! is the C half, `sch_rdcc_int_glue.c`; this file registers it and stamps.

// The core's helpers serve every host and their items are `pub` for the host crate; this module
// uses a subset of them privately.
#![allow(dead_code, unreachable_pub)]

use core::ffi::c_int;
use kernel::prelude::*;

#[path = "../../core/src/event.rs"]
mod event;
#[path = "../../core/src/fixed.rs"]
mod fixed;
#[path = "../../core/src/powertcp.rs"]
mod powertcp;
#[path = "../../core/src/int.rs"]
mod int;
#[path = "../../core/src/int_wire.rs"]
mod int_wire;

module! {
    type: RdccIntModule,
    name: "sch_rdcc_int",
    author: "rdcc",
    description: "Software INT switch: FIFO qdisc stamping HPCC/PowerTCP telemetry at dequeue",
    license: "GPL",
}

extern "C" {
    fn rdcc_int_register() -> c_int;
    fn rdcc_int_unregister();
}

/// The module: registers the qdisc on load, unregisters it on unload.
struct RdccIntModule;

impl kernel::Module for RdccIntModule {
    fn init(_module: &'static ThisModule) -> Result<Self> {
        // SAFETY: called once from module init, before any qdisc of this kind can exist; the C
        // function only calls register_qdisc().
        let err = unsafe { rdcc_int_register() };
        if err != 0 {
            return Err(kernel::error::Error::from_errno(err));
        }
        Ok(RdccIntModule)
    }
}

impl Drop for RdccIntModule {
    fn drop(&mut self) {
        // SAFETY: registered in init (else init failed and drop is not called); every qdisc of
        // this kind holds a reference on the module, so none exists when the module unloads.
        unsafe { rdcc_int_unregister() };
    }
}

/// Is `rate_bps` (bytes/s) a rate an INT record can name (`int::RATE_TABLE_BPS`)? The C half
/// checks its `rate_mbit` parameter with it.
#[no_mangle]
pub extern "C" fn rdcc_rs_int_rate_ok(rate_bps: u64) -> bool {
    int::IntHop::rate_index(rate_bps).is_some()
}

/// Stamp one segment: `opts` is its TCP option list (`len` ≤ 40 bytes, a private copy the C half
/// writes back only on `RDCC_INT_STAMPED`/`RDCC_INT_FULL`); the record is this port's queue
/// behind the segment, its cumulative transmitted bytes including it, the clock and the rate
/// (`core/src/int.rs` units). Returns the `int_wire::Stamp` outcome (`RDCC_INT_*`).
///
/// # Safety
/// `opts` points to `len` bytes that are readable and writable and not accessed by anything else
/// during the call (a local buffer of the caller).
#[no_mangle]
pub unsafe extern "C" fn rdcc_rs_int_stamp(
    opts: *mut u8,
    len: u32,
    qlen_bytes: u64,
    tx_bytes: u64,
    ts_ns: u64,
    rate_bps: u64,
) -> u32 {
    if opts.is_null() {
        return int_wire::Stamp::Absent as u32;
    }
    let len = (len as usize).min(int_wire::MAX_OPTIONS_LEN);
    // A rate the table cannot name never reaches here (checked when the parameter is set).
    let Some(rec) = int::IntHop::encode(qlen_bytes, tx_bytes, ts_ns, rate_bps) else {
        return int_wire::Stamp::Absent as u32;
    };
    // SAFETY: caller contract: `len` (only reduced) bytes at `opts`, exclusively ours.
    let bytes = unsafe { core::slice::from_raw_parts_mut(opts, len) };
    int_wire::stamp(bytes, rec) as u32
}
