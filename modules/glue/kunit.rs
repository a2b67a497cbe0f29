// SPDX-License-Identifier: GPL-2.0-only
//! The Rust half of the KUnit test module `rdcc_kunit.ko` (test code: it never links into a
//! product module). For each law it runs the core's shared vector table (the same `CASES` the
//! host tests run) and a randomized bounds check, and reports to the C suites in
//! `modules/kunit/rdcc_kunit_glue.c`; for the suite `rdcc_glue` it answers the hold leases' fast
//! paths as `core/src/lease.rs` (`rdcc_rs_kunit_lease_take`) and `core/src/powertcp_lease.rs`
//! (`rdcc_rs_kunit_theta_take`) transcribe them. Every `unsafe` block of the test module is here.

/// Generate the two KUnit entry points of one law:
/// `rdcc_rs_kunit_<law>_vectors(report)` and `rdcc_rs_kunit_<law>_bounds(seed, steps, msg, len)`.
///
/// - `law`: the `Controller` type; `config`/`params`: its raw and validated parameter types.
/// - `cases`: the law's `CASES` table; `run_all`: its table runner.
macro_rules! rdcc_kunit_law {
    (
        vectors: $vectors_fn:ident,
        bounds: $bounds_fn:ident,
        law: $law:ty,
        config: $cfg:ty,
        params: $params:ty,
        cases: $cases:path,
        run_all: $run_all:path $(,)?
    ) => {
        /// Run the law's shared vector table.
        ///
        /// # Safety
        /// `r` is a valid, writable `struct rdcc_kunit_report`.
        #[no_mangle]
        pub unsafe extern "C" fn $vectors_fn(r: *mut kunit::KunitReport) -> core::ffi::c_int {
            // SAFETY: caller contract (the C suite passes a stack report it owns).
            let r = unsafe { &mut *r };
            match $run_all() {
                Ok(n) => {
                    r.cases = n as u32;
                    0
                }
                Err((idx, m)) => {
                    r.failed_case = idx as u32;
                    r.failed_step = m.step as u32;
                    r.got_cwnd_q16 = m.got.cwnd_bytes_q16;
                    r.want_cwnd_q16 = m.want.cwnd_bytes_q16;
                    r.got_rate = m.got.pacing_rate_bps;
                    r.want_rate = m.want.pacing_rate_bps;
                    r.got_reason = m.got.reason as u32;
                    r.want_reason = m.want.reason.map(|x| x as u32).unwrap_or(u32::MAX);
                    if let Some(c) = $cases.get(idx) {
                        kunit::write_msg(&mut r.name, c.name);
                    }
                    -(kernel::bindings::EINVAL as core::ffi::c_int)
                }
            }
        }

        /// Drive `steps` pseudo-random events (xorshift from `seed`, hostile values included)
        /// through the law, with the paper's default parameters, from all-zero state and check
        /// the kernel's bounds after each.
        ///
        /// # Safety
        /// `msg` points to `len` writable bytes.
        #[no_mangle]
        pub unsafe extern "C" fn $bounds_fn(
            seed: u64,
            steps: u32,
            msg: *mut u8,
            len: u32,
        ) -> core::ffi::c_int {
            let res = match <$params>::new(&<$cfg>::DEFAULT) {
                Ok(p) => kunit::bounds_run::<$law>(&p, seed, steps),
                Err(_) => Err("the paper's default parameters do not validate"),
            };
            match res {
                Ok(()) => 0,
                Err(text) => {
                    // SAFETY: caller contract.
                    let buf = unsafe { core::slice::from_raw_parts_mut(msg, len as usize) };
                    kunit::write_msg(buf, text);
                    -(kernel::bindings::EINVAL as core::ffi::c_int)
                }
            }
        }
    };
}

use super::event::{AckEvent, Controller, Decision, Enforced, LossEvent, LossKind};
use super::fixed::{MAX_CWND_PKTS, MAX_MSS_BYTES, MAX_RATE_BPS};
use super::lease::Lease;
use super::powertcp::{DueIn, Take, ThetaLease};

/// `struct rdcc_kunit_report` in modules/kunit/rdcc_kunit_glue.c.
#[repr(C)]
pub struct KunitReport {
    pub(crate) cases: u32,
    pub(crate) failed_case: u32,
    pub(crate) failed_step: u32,
    pub(crate) got_cwnd_q16: u64,
    pub(crate) want_cwnd_q16: u64,
    pub(crate) got_rate: u64,
    pub(crate) want_rate: u64,
    pub(crate) got_reason: u32,
    pub(crate) want_reason: u32,
    pub(crate) name: [u8; 48],
}

/// Largest window any law may output, bytes Q16 (the fuzz target checks the same bound).
const CWND_CEILING_Q16: u64 = (MAX_CWND_PKTS * MAX_MSS_BYTES as u64) << 16;

fn xorshift(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

fn check(d: &Decision) -> Result<(), &'static str> {
    if d.pacing_rate_bps > MAX_RATE_BPS {
        return Err("pacing rate above MAX_RATE_BPS");
    }
    if d.cwnd_bytes_q16 > CWND_CEILING_Q16 {
        return Err("window above the ceiling");
    }
    Ok(())
}

/// The in-kernel property check behind `rdcc_rs_kunit_<law>_bounds`.
pub(crate) fn bounds_run<C: Controller>(
    p: &C::Params,
    seed: u64,
    steps: u32,
) -> Result<(), &'static str> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut s = C::State::default();
    let mut now: u64 = 1_000_000;
    let mut una = 0u32;
    if seed % 2 == 0 {
        check(&C::init(p, &mut s, now, 1448))?;
    }
    for _ in 0..steps {
        let r = xorshift(&mut x);
        now = match r % 16 {
            0 => now.wrapping_sub(r % 10_000),
            1 => r,
            _ => now.wrapping_add(r % 100_000),
        };
        let d = match (r >> 8) % 10 {
            0..=6 => {
                let acked = (xorshift(&mut x) % 65_536) as u32;
                una = una.wrapping_add(acked);
                let nxt = una.wrapping_add((xorshift(&mut x) % 1_000_000) as u32);
                let rtt = match xorshift(&mut x) % 8 {
                    0 => 0,
                    1 => u64::MAX,
                    2 => xorshift(&mut x),
                    _ => 10_000 + xorshift(&mut x) % 1_000_000,
                };
                let ev = AckEvent {
                    now_ns: now,
                    rtt_ns: rtt,
                    remote_delay_ns: xorshift(&mut x) % rtt.saturating_mul(2).max(1),
                    delivered_bytes: xorshift(&mut x),
                    acked_bytes: acked,
                    inflight_bytes: xorshift(&mut x) as u32,
                    mss_bytes: match xorshift(&mut x) % 4 {
                        0 => 0,
                        1 => 9000,
                        2 => xorshift(&mut x) as u32,
                        _ => 1448,
                    },
                    snd_una: una,
                    snd_nxt: nxt,
                    flags: (xorshift(&mut x) & 0xff) as u32,
                    hops: xorshift(&mut x) as u8,
                    _pad: [0; 3],
                    local_rx_delay_ns: 0,
                    telemetry: 0,
                };
                C::on_ack(p, &mut s, &ev)
            }
            7 => {
                let kind = if r & 1 == 0 {
                    LossKind::FastRecovery
                } else {
                    LossKind::RetransmitTimeout
                };
                C::on_loss(p, &mut s, &LossEvent { now_ns: now, mss_bytes: 1448, kind })
            }
            8 => C::on_idle_restart(p, &mut s, now, 1448),
            _ => C::on_undo(p, &mut s, 1448),
        };
        check(&d)?;
    }
    Ok(())
}

/// Copy `text` into `buf` as a NUL-terminated string, truncating (no panicking slice ops: the
/// module must reference no panic symbol).
pub(crate) fn write_msg(buf: &mut [u8], text: &str) {
    let room = buf.len().saturating_sub(1);
    let mut end = 0usize;
    for (dst, src) in buf.iter_mut().zip(text.bytes().take(room)) {
        *dst = src;
        end = end.wrapping_add(1); // at most buf.len()
    }
    if let Some(nul) = buf.get_mut(end) {
        *nul = 0;
    }
}

/// The hold lease's fast path as core/src/lease.rs transcribes it (`Lease::try_take`, which the
/// host tests tie to the law), for the KUnit case `rdcc_glue_lease`: it runs the C
/// (`rdcc_lease_take`, modules/glue/rdcc_lease.h) and this on the same lease and socket values
/// and compares the outcome, the lease afterwards and what the C set. Returns whether the lease
/// covered the ACK; then `*e` is what the fast path sets and `*l` has absorbed the ACK's bytes.
///
/// # Safety
/// `l` and `e` are valid, writable, distinct records the caller owns (the C case's stack).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn rdcc_rs_kunit_lease_take(
    l: *mut Lease,
    gen: u32,
    mss: u32,
    now_ns: u64,
    acked_pkts: u32,
    in_recovery: bool,
    clamp_pkts: u32,
    e: *mut Enforced,
) -> bool {
    // SAFETY: the function's contract: both pointers are valid for reads and writes and do not
    // alias, so the two mutable references are unique.
    let (l, e) = unsafe { (&mut *l, &mut *e) };
    match l.try_take(gen, mss, now_ns, acked_pkts, in_recovery, clamp_pkts) {
        Some(x) => {
            *e = x;
            true
        }
        None => false,
    }
}

/// θ-PowerTCP's hold-lease fast path as core/src/powertcp_lease.rs transcribes it
/// (`ThetaLease::take`, whose average is the law's own `smooth()`, and which the host tests tie
/// to the law), for the KUnit case `rdcc_glue_theta_lease`: it runs the C (`rdcc_theta_take`,
/// modules/glue/rdcc_lease_theta.h) and this on copies of the same lease, state and socket
/// values and compares the outcome, the state afterwards, what the C set and the due record.
/// Returns the outcome as `RDCC_THETA_FULL` (0), `RDCC_THETA_HOLD` (1) or `RDCC_THETA_DUE` (2);
/// on HOLD `*e` is what the fast path sets and `*s` has been stepped; on DUE `due`'s `now_ns`,
/// `rtt_ns` and `rtt_smooth_ns` are written; nothing else is written.
///
/// # Safety
/// `l` is a valid lease, `s` a valid, writable `struct rdcc_theta_state` (the layout of
/// `powertcp::State`, checked by rdcc_abi.h), `e` and `due` valid, writable records; the four are
/// distinct records the caller owns (the C case's stack).
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn rdcc_rs_kunit_theta_take(
    l: *const ThetaLease,
    s: *mut super::powertcp::State,
    gen: u32,
    mss: u32,
    clamp_pkts: u32,
    now_ns: u64,
    rtt_us: core::ffi::c_long,
    snd_una: u32,
    e: *mut Enforced,
    due: *mut DueIn,
) -> core::ffi::c_int {
    // SAFETY: the function's contract: every pointer is valid and the records are distinct, so
    // the references are unique (the mutable ones) and alias nothing written.
    let (l, s, e, due) = unsafe { (&*l, &mut *s, &mut *e, &mut *due) };
    match l.take(s, gen, mss, clamp_pkts, now_ns, i64::from(rtt_us), snd_una) {
        Take::Full => 0,
        Take::Hold(x) => {
            *e = x;
            1
        }
        Take::Due {
            now_ns,
            rtt_ns,
            rtt_smooth_ns,
        } => {
            due.now_ns = now_ns;
            due.rtt_ns = rtt_ns;
            due.rtt_smooth_ns = rtt_smooth_ns;
            2
        }
    }
}
