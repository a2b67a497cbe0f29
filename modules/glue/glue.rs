// SPDX-License-Identifier: GPL-2.0-only
//! The Rust half of every rdcc module: parameter validation, the per-event trampolines the C glue
//! calls (one call per ACK), `get_info` data, and the KUnit entry points that run the core's
//! shared test tables inside the kernel.
//!
//! A module's crate root includes the core files it needs side by side (`mod event; mod fixed;
//! mod vectors; mod <law>; mod <law>_vectors;`), then this file with `#[macro_use]`, invokes
//! `module!` for `RdccModule`, and invokes [`rdcc_glue!`] once. Every `unsafe` block is here.

/// Generate the module type, its parameter table and the `extern "C"` entry points for one law.
///
/// - `name`: the CA name, for log lines.
/// - `law`: the `Controller` type; `config`/`params`: its raw and validated parameter types.
/// - `cases`: the law's `CASES` table; `run_all`: its table runner.
/// - `fields`: every `Config` field, each exposed as a module parameter of the same name (the C
///   side lists the same names; a mismatch refuses the load).
/// - `info_signal`: maps the decision's `signal` to the µs-unit `get_info` field.
macro_rules! rdcc_glue {
    (
        name: $name:literal,
        law: $law:ty,
        config: $cfg:ty,
        params: $params:ty,
        cases: $cases:path,
        run_all: $run_all:path,
        info_signal: $info_signal:expr,
        fields: [ $($field:ident),* $(,)? ] $(,)?
    ) => {
        use core::ffi::{c_char, c_int, c_ulong, c_void};
        use core::mem::{align_of, size_of, MaybeUninit};
        use core::sync::atomic::{AtomicBool, Ordering};
        use event::{AckEvent, Controller, Decision, LossEvent, Report};

        type LawState = <$law as Controller>::State;

        // The C glue reserves event::CORE_STATE_BUDGET bytes, 8-byte aligned, for the state.
        const _: () = assert!(size_of::<LawState>() <= event::CORE_STATE_BUDGET);
        const _: () = assert!(align_of::<LawState>() <= 8);
        // The C side checks these sizes against the same numbers (rdcc_abi.h).
        const _: () = assert!(size_of::<AckEvent>() == 72);
        const _: () = assert!(size_of::<LossEvent>() == 16);
        const _: () = assert!(size_of::<Decision>() == 32);

        extern "C" {
            fn rdcc_c_register() -> c_int;
            fn rdcc_c_unregister();
        }

        /// The module: registers the CA on load, unregisters it on unload.
        struct RdccModule;

        impl kernel::Module for RdccModule {
            fn init(_module: &'static ThisModule) -> Result<Self> {
                // SAFETY: called once from module init, before any hook can run; the C function
                // validates parameters (calling back into rdcc_rs_configure) and registers the ops.
                let err = unsafe { rdcc_c_register() };
                if err != 0 {
                    return Err(kernel::error::Error::from_errno(err));
                }
                Ok(RdccModule)
            }
        }

        impl Drop for RdccModule {
            fn drop(&mut self) {
                // SAFETY: the ops were registered in init (else init failed and drop is not
                // called); after unregistering, the module refcount held by sockets using the CA
                // guarantees no hook of this module is running or will run.
                unsafe { rdcc_c_unregister() };
            }
        }

        /// Validated parameters: written once by `rdcc_rs_configure` before the CA is registered,
        /// then only read.
        static mut PARAMS: MaybeUninit<$params> = MaybeUninit::uninit();
        static PARAMS_READY: AtomicBool = AtomicBool::new(false);

        fn params() -> Option<&'static $params> {
            if !PARAMS_READY.load(Ordering::Acquire) {
                return None;
            }
            // SAFETY: PARAMS was fully written before PARAMS_READY was stored with Release
            // (paired with the Acquire above) and is never written again.
            Some(unsafe { &*(core::ptr::addr_of!(PARAMS) as *const $params) })
        }

        /// `struct rdcc_param` in rdcc_glue.c.
        #[repr(C)]
        pub struct RdccParam {
            name: *const c_char,
            value: *mut c_ulong,
        }

        /// "Not given": the law's default applies.
        const PARAM_UNSET: c_ulong = c_ulong::MAX;

        /// Validate the module parameters into `PARAMS`; write the effective values back so
        /// `/sys/module/<mod>/parameters/*` shows them.
        ///
        /// # Safety
        /// `list` points to `n` valid entries whose `name` is a NUL-terminated string and whose
        /// `value` points to a writable `unsigned long`; called once, before registration.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_configure(list: *const RdccParam, n: u32) -> c_int {
            let mut cfg: $cfg = <$cfg>::DEFAULT;
            let fields: &[&str] = &[$(stringify!($field)),*];
            if list.is_null() || n as usize != fields.len() {
                pr_err!("parameter table has {} entries, the law has {}\n", n, fields.len());
                return -(kernel::bindings::EINVAL as c_int);
            }
            // SAFETY: the caller guarantees `n` valid entries at `list`.
            let entries = unsafe { core::slice::from_raw_parts(list, n as usize) };
            for e in entries {
                // SAFETY: the caller guarantees a NUL-terminated name and a valid value pointer.
                let (name, v) = (e.name, unsafe { *e.value });
                // SAFETY: as above.
                let known = false $(|| unsafe { glue::c_name_eq(name, stringify!($field)) })*;
                if !known {
                    pr_err!("unknown parameter in the C table\n");
                    return -(kernel::bindings::EINVAL as c_int);
                }
                if v == PARAM_UNSET {
                    continue;
                }
                $(
                    // SAFETY: as above.
                    if unsafe { glue::c_name_eq(name, stringify!($field)) } {
                        match v.try_into() {
                            Ok(x) => cfg.$field = x,
                            Err(_) => {
                                pr_err!("{}={} does not fit the parameter's type\n", stringify!($field), v);
                                return -(kernel::bindings::EINVAL as c_int);
                            }
                        }
                    }
                )*
            }
            let p = match <$params>::new(&cfg) {
                Ok(p) => p,
                Err(e) => {
                    pr_err!("{}={} out of range [{}, {}]\n", e.field, e.value, e.min, e.max);
                    return -(kernel::bindings::EINVAL as c_int);
                }
            };
            // SAFETY: single writer at module init; no reader before PARAMS_READY is set below.
            unsafe { core::ptr::addr_of_mut!(PARAMS).write(MaybeUninit::new(p)) };
            PARAMS_READY.store(true, Ordering::Release);
            for e in entries {
                $(
                    // SAFETY: NUL-terminated name (caller contract).
                    if unsafe { glue::c_name_eq(e.name, stringify!($field)) } {
                        // SAFETY: valid, writable pointer (caller contract); the parameters are
                        // read-only (0444), so this write at init races with nothing.
                        unsafe { *e.value = u64::from(cfg.$field) as c_ulong };
                    }
                )*
            }
            0
        }

        /// Reinterpret the C glue's per-socket area as the law's state.
        ///
        /// # Safety
        /// `st` points to the `core` array of `struct rdcc_priv` in `icsk_ca_priv`: at least
        /// `CORE_STATE_BUDGET` bytes, 8-byte aligned (asserted above), which the kernel zeroes
        /// when the CA is assigned and which is only accessed under the socket lock (or by the
        /// single KUnit thread), so the reference is unique for the call. All-zero is a valid
        /// state (core invariant, tested in core/tests/zeroed_state.rs).
        unsafe fn state<'a>(st: *mut c_void) -> &'a mut LawState {
            // SAFETY: see the function's contract.
            unsafe { &mut *(st as *mut LawState) }
        }

        /// # Safety
        /// `st` as for [`state`]; `out` is a valid, writable `struct rdcc_decision`.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_init(st: *mut c_void, now_ns: u64, mss: u32, out: *mut Decision) {
            let Some(p) = params() else { return };
            // SAFETY: caller contract.
            unsafe { *out = <$law as Controller>::init(p, state(st), now_ns, mss) };
        }

        /// # Safety
        /// `st` as for [`state`]; `ev` a valid event; `out` a valid, writable decision.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_on_ack(st: *mut c_void, ev: *const AckEvent, out: *mut Decision) {
            let Some(p) = params() else { return };
            // SAFETY: caller contract.
            unsafe { *out = <$law as Controller>::on_ack(p, state(st), &*ev) };
        }

        /// # Safety
        /// `st` as for [`state`]; `ev` a valid event with a `kind` of 1 or 2; `out` writable.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_on_loss(st: *mut c_void, ev: *const LossEvent, out: *mut Decision) {
            let Some(p) = params() else { return };
            // SAFETY: caller contract (the C glue only passes RDCC_LOSS_FAST_RECOVERY/RTO, the
            // two values of LossKind, so the enum field is valid).
            unsafe { *out = <$law as Controller>::on_loss(p, state(st), &*ev) };
        }

        /// # Safety
        /// `st` as for [`state`]; `out` writable.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_on_idle(st: *mut c_void, now_ns: u64, mss: u32, out: *mut Decision) {
            let Some(p) = params() else { return };
            // SAFETY: caller contract.
            unsafe { *out = <$law as Controller>::on_idle_restart(p, state(st), now_ns, mss) };
        }

        /// # Safety
        /// `st` as for [`state`]; `out` writable.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_on_undo(st: *mut c_void, mss: u32, out: *mut Decision) {
            let Some(p) = params() else { return };
            // SAFETY: caller contract.
            unsafe { *out = <$law as Controller>::on_undo(p, state(st), mss) };
        }

        /// `struct rdcc_info` in rdcc_glue.c.
        #[repr(C)]
        pub struct RdccInfo {
            rate_bps: u64,
            signal_us: u32,
            reason: u32,
            cwnd_pkts_q8: u64,
        }

        /// # Safety
        /// `st` as for [`state`] (read only); `out` a valid, writable `struct rdcc_info`.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_info(st: *const c_void, mss: u32, out: *mut RdccInfo) {
            let Some(p) = params() else { return };
            // SAFETY: caller contract; shared access only.
            let s = unsafe { &*(st as *const LawState) };
            let d = <$law as Controller>::current(p, s, mss);
            let mss = u64::from(mss.max(1));
            let f: fn(i64) -> u32 = $info_signal;
            // SAFETY: caller contract.
            unsafe {
                *out = RdccInfo {
                    rate_bps: d.pacing_rate_bps,
                    signal_us: f(d.signal),
                    reason: d.reason as u32,
                    cwnd_pkts_q8: d.cwnd_bytes_q16.checked_div(mss).unwrap_or(0) >> 8,
                }
            };
        }

        /// Fabric and endpoint delay, hops and binding window for the tracepoint and `ss`.
        ///
        /// # Safety
        /// `st` as for [`state`] (read only); `out` a valid, writable `struct rdcc_report`.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_report(st: *const c_void, out: *mut Report) {
            let Some(p) = params() else { return };
            // SAFETY: caller contract; shared access only.
            let s = unsafe { &*(st as *const LawState) };
            // SAFETY: caller contract.
            unsafe { *out = <$law as Controller>::report(p, s) };
        }

        /// Parse the TCP option bytes of one ACK for the remote-delay option (core/src/rqd.rs);
        /// called by the netfilter hook of rdcc_rqd.c. At most 40 bytes are read.
        ///
        /// # Safety
        /// `opts` points to `len` readable bytes; `out` a valid, writable `struct rdcc_rqd_scan`.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_rqd_scan(opts: *const u8, len: u32, out: *mut rqd::Scan) {
            let len = if len as usize > rqd::MAX_OPTIONS_LEN { rqd::MAX_OPTIONS_LEN } else { len as usize };
            let bytes: &[u8] = if opts.is_null() {
                &[]
            } else {
                // SAFETY: caller contract; len was only reduced.
                unsafe { core::slice::from_raw_parts(opts, len) }
            };
            // SAFETY: caller contract.
            unsafe { *out = rqd::scan(bytes) };
        }

        /// Size of the law's per-socket state, for the C glue's load-time check.
        #[no_mangle]
        pub extern "C" fn rdcc_rs_state_size() -> u32 {
            size_of::<LawState>() as u32
        }

        /// `struct rdcc_kunit_report` in rdcc_glue.c.
        #[repr(C)]
        pub struct RdccKunitReport {
            cases: u32,
            failed_case: u32,
            failed_step: u32,
            got_cwnd_q16: u64,
            want_cwnd_q16: u64,
            got_rate: u64,
            want_rate: u64,
            got_reason: u32,
            want_reason: u32,
            name: [u8; 48],
        }

        /// Run the law's shared vector table (the same `CASES` the host tests run).
        ///
        /// # Safety
        /// `r` is a valid, writable report.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_kunit_vectors(r: *mut RdccKunitReport) -> c_int {
            // SAFETY: caller contract.
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
                        glue::write_msg(&mut r.name, c.name);
                    }
                    -(kernel::bindings::EINVAL as c_int)
                }
            }
        }

        /// Drive `steps` pseudo-random events (xorshift from `seed`, including hostile values)
        /// through the law from all-zero state and check the kernel's bounds after each.
        ///
        /// # Safety
        /// `msg` points to `len` writable bytes.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_kunit_bounds(seed: u64, steps: u32, msg: *mut u8, len: u32) -> c_int {
            let Some(p) = params() else { return -(kernel::bindings::EINVAL as c_int) };
            match glue::bounds_run::<$law>(p, seed, steps) {
                Ok(()) => 0,
                Err(text) => {
                    // SAFETY: caller contract.
                    let buf = unsafe { core::slice::from_raw_parts_mut(msg, len as usize) };
                    glue::write_msg(buf, text);
                    -(kernel::bindings::EINVAL as c_int)
                }
            }
        }
    };
}

use super::event::{AckEvent, Controller, Decision, LossEvent, LossKind};
use super::fixed::{MAX_CWND_PKTS, MAX_MSS_BYTES, MAX_RATE_BPS};

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

/// The in-kernel property check behind `rdcc_rs_kunit_bounds`.
pub(crate) fn bounds_run<C: Controller>(p: &C::Params, seed: u64, steps: u32) -> Result<(), &'static str> {
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
                let kind = if r & 1 == 0 { LossKind::FastRecovery } else { LossKind::RetransmitTimeout };
                C::on_loss(p, &mut s, &LossEvent { now_ns: now, mss_bytes: 1448, kind })
            }
            8 => C::on_idle_restart(p, &mut s, now, 1448),
            _ => C::on_undo(p, &mut s, 1448),
        };
        check(&d)?;
    }
    Ok(())
}

/// Does the NUL-terminated C string at `p` equal `want`? Reads at most `want.len() + 1` bytes
/// and stops at the first difference, so it never reads past the string's terminator. (Not
/// `CStr::from_ptr`: its inlined length arithmetic carries an overflow-panic path.)
///
/// # Safety
/// `p` points to a NUL-terminated string.
pub(crate) unsafe fn c_name_eq(p: *const core::ffi::c_char, want: &str) -> bool {
    let mut i = 0usize;
    loop {
        // SAFETY: every byte up to and including the terminator is readable (caller contract),
        // and the loop stops at the first NUL or mismatch.
        let c = unsafe { *p.add(i) } as u8;
        match want.as_bytes().get(i) {
            Some(&w) if w == c => {}
            Some(_) => return false,
            None => return c == 0,
        }
        if c == 0 {
            return false;
        }
        i = i.wrapping_add(1);
    }
}

/// Copy `text` into `buf` as a NUL-terminated string, truncating (no panicking slice ops: the
/// modules must reference no panic symbol).
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
