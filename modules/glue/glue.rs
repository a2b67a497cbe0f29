// SPDX-License-Identifier: GPL-2.0-only
//! The Rust half of every rdcc product module: parameter parsing and validation, the per-event
//! trampolines the C glue calls (at most one call per ACK: none for an ACK a hold lease covers,
//! [`rdcc_glue_lease!`]), and `get_info` data. No test code: the KUnit
//! suites are the separate test module `rdcc_kunit.ko` (modules/kunit/, modules/glue/kunit.rs).
//!
//! A module's crate root includes the core files it needs side by side (`mod event; mod fixed;
//! mod units; mod <law>;`), then this file with `#[macro_use]`, invokes `module!` for
//! `RdccModule`, and invokes [`rdcc_glue!`] once (and [`rdcc_glue_lease!`] for a law with a hold
//! lease, [`rdcc_glue_theta_lease!`] for θ-PowerTCP's). Every `unsafe` block is here.

/// The part of every rdcc module's Rust half that does not depend on the law's interface:
/// the module type, the parameters (parsing, validation, the `extern "C"` entries of
/// rdcc_params.h), `params`, the per-ACK input and output records and `rdcc_rs_enforce`.
/// Invoked by [`rdcc_glue!`] (the `Controller` laws) and by `rdcc_int_glue!` (int_glue.rs, the
/// INT laws); the arguments are theirs.
macro_rules! rdcc_glue_common {
    (
        config: $cfg:ty,
        params: $params:ty,
        fields: [ $($field:ident),* $(,)? ] $(,)?
    ) => {
        #[allow(unused_imports)]
        use core::ffi::{c_char, c_int, c_void};
        #[allow(unused_imports)]
        use core::mem::{align_of, size_of, MaybeUninit};
        #[allow(unused_imports)]
        use event::{AckEvent, Controller, Decision, Enforced, LossEvent, Report};
        // The parameter block comes from kzalloc, which aligns to at least 8 bytes.
        const _: () = assert!(align_of::<$params>() <= 8);
        // The C side checks these sizes against the same numbers (rdcc_abi.h).
        const _: () = assert!(size_of::<AckEvent>() == 72);
        const _: () = assert!(size_of::<LossEvent>() == 16);
        const _: () = assert!(size_of::<Decision>() == 32);
        const _: () = assert!(size_of::<Enforced>() == 16);
        const _: () = assert!(size_of::<AckOut>() == 48);
        const _: () = assert!(size_of::<AckIn>() == 80);


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

        /// The raw values behind the current parameter block (see the macro's docs: accessed
        /// only under the module's kernel_param_lock).
        static mut CONFIG: $cfg = <$cfg>::DEFAULT;

        /// `struct rdcc_param` in rdcc_glue.c.
        #[repr(C)]
        pub struct RdccParam {
            name: *const c_char,
            text: *const c_char,
        }

        const EINVAL: c_int = -(kernel::bindings::EINVAL as c_int);

        /// Set the field `name` of `cfg` from `text` in the field's unit (core/src/units.rs).
        /// `Err(None)`: no such field; `Err(Some(e))`: the text does not parse or fit.
        fn set_field(cfg: &mut $cfg, name: &[u8], text: &[u8]) -> core::result::Result<(), Option<&'static str>> {
            $(
                if name == stringify!($field).as_bytes() {
                    let v = units::Unit::of(stringify!($field)).parse(text).map_err(|e| Some(e.text()))?;
                    cfg.$field = v.try_into().map_err(|_| Some("too large for this parameter"))?;
                    return Ok(());
                }
            )*
            Err(None)
        }

        fn get_field(cfg: &$cfg, name: &[u8]) -> Option<u64> {
            $(
                if name == stringify!($field).as_bytes() {
                    return Some(u64::from(cfg.$field));
                }
            )*
            None
        }

        /// Validate `cfg` and write its `Params` into the C-allocated block `out`.
        ///
        /// # Safety
        /// `out` points to `size_of::<$params>()` writable bytes, 8-byte aligned.
        unsafe fn build(cfg: &$cfg, out: *mut c_void) -> core::result::Result<(), event::ParamError> {
            let p = <$params>::new(cfg)?;
            // SAFETY: caller contract.
            unsafe { (out as *mut $params).write(p) };
            Ok(())
        }

        /// Size of the parameter block the C side allocates.
        #[no_mangle]
        pub extern "C" fn rdcc_rs_params_size() -> u32 {
            size_of::<$params>() as u32
        }

        /// Parse the texts given at load (empty = the law's default), validate them together
        /// and write the `Params` into `out`.
        ///
        /// # Safety
        /// `list` points to `n` entries whose `name` and `text` are NUL-terminated strings;
        /// `out` as for `build`; the caller holds the module's kernel_param_lock.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_configure(list: *const RdccParam, n: u32, out: *mut c_void) -> c_int {
            let mut cfg: $cfg = <$cfg>::DEFAULT;
            let fields: &[&str] = &[$(stringify!($field)),*];
            if list.is_null() || n as usize != fields.len() {
                pr_err!("parameter table has {} entries, the law has {}\n", n, fields.len());
                return EINVAL;
            }
            // SAFETY: the caller guarantees `n` valid entries at `list`.
            let entries = unsafe { core::slice::from_raw_parts(list, n as usize) };
            for e in entries {
                // SAFETY: NUL-terminated strings (caller contract).
                let (name, text) = unsafe { (glue::c_bytes(e.name), glue::c_bytes(e.text)) };
                if text.is_empty() {
                    if get_field(&cfg, name).is_none() {
                        pr_err!("unknown parameter in the C table\n");
                        return EINVAL;
                    }
                    continue;
                }
                match set_field(&mut cfg, name, text) {
                    Ok(()) => {}
                    Err(None) => {
                        pr_err!("unknown parameter in the C table\n");
                        return EINVAL;
                    }
                    Err(Some(why)) => {
                        pr_err!("{}={} refused: {}\n", glue::Text(name), glue::Text(text), why);
                        return EINVAL;
                    }
                }
            }
            // SAFETY: caller contract.
            if let Err(e) = unsafe { build(&cfg, out) } {
                pr_err!("{}={} out of range [{}, {}]\n", e.field, e.value, e.min, e.max);
                return EINVAL;
            }
            // SAFETY: the caller holds kernel_param_lock, which serializes every CONFIG access.
            unsafe { *core::ptr::addr_of_mut!(CONFIG) = cfg };
            0
        }

        /// A write to one parameter after load: parse `text` (`len` bytes) into a copy of the
        /// current values, validate the whole set and, when it holds, write the new `Params`
        /// into `out` and keep the new values. On any error nothing changes.
        ///
        /// # Safety
        /// `name` NUL-terminated; `text` points to `len` readable bytes; `out` as for `build`;
        /// the caller holds the module's kernel_param_lock.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_param_set(name: *const c_char, text: *const u8, len: u32, out: *mut c_void) -> c_int {
            // SAFETY: caller contract.
            let name = unsafe { glue::c_bytes(name) };
            // SAFETY: caller contract.
            let text = unsafe { core::slice::from_raw_parts(text, len as usize) }.trim_ascii();
            // SAFETY: kernel_param_lock held (caller contract): no other CONFIG access.
            let cur: $cfg = unsafe { *core::ptr::addr_of!(CONFIG) };
            let old = get_field(&cur, name).unwrap_or(0);
            let mut cfg = cur;
            match set_field(&mut cfg, name, text) {
                Ok(()) => {}
                Err(None) => return EINVAL,
                Err(Some(why)) => {
                    pr_err!("{}={} refused: {} ({}); keeping {}\n", glue::Text(name),
                        glue::Text(text), why, units::Unit::of_bytes(name).describe(), old);
                    return EINVAL;
                }
            }
            // SAFETY: caller contract.
            if let Err(e) = unsafe { build(&cfg, out) } {
                pr_err!("{}={} refused: {}={} out of range [{}, {}]; keeping {}\n", glue::Text(name),
                    glue::Text(text), e.field, e.value, e.min, e.max, old);
                return EINVAL;
            }
            // SAFETY: kernel_param_lock held (caller contract).
            unsafe { *core::ptr::addr_of_mut!(CONFIG) = cfg };
            0
        }

        /// The effective value of one parameter, in the unit its name states.
        ///
        /// # Safety
        /// `name` NUL-terminated; `value` writable; the caller holds kernel_param_lock.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_param_get(name: *const c_char, value: *mut u64) -> c_int {
            // SAFETY: caller contract.
            let name = unsafe { glue::c_bytes(name) };
            // SAFETY: kernel_param_lock held (caller contract).
            let cfg: $cfg = unsafe { *core::ptr::addr_of!(CONFIG) };
            match get_field(&cfg, name) {
                Some(v) => {
                    // SAFETY: caller contract.
                    unsafe { *value = v };
                    0
                }
                None => EINVAL,
            }
        }

        /// The published parameter block.
        ///
        /// # Safety
        /// `p` is the block behind rdcc_params_cur, dereferenced under rcu_read_lock by the
        /// caller and not freed before that read side ends (the writer frees an old block only
        /// after synchronize_rcu); it was fully written by `build` before being published.
        unsafe fn params<'a>(p: *const c_void) -> &'a $params {
            // SAFETY: see the function's contract.
            unsafe { &*(p as *const $params) }
        }


        /// `struct rdcc_ack_out` in rdcc_glue.c: the decision (for the tracepoint and the
        /// remote-delay counters) and what the glue sets for it.
        ///
        /// The C passes it uninitialized (`__uninitialized` on its stack: zeroing 48 bytes per
        /// ACK would be for nothing), so both fields are `MaybeUninit`: an `AckOut` is a valid
        /// value whatever its bytes, and a `&mut AckOut` to the C's record is one to a valid
        /// value. A `&mut Decision` to it would not be: `Decision::reason` is an enum, and no
        /// field of a Rust value may be uninitialized, integers included. Each entry writes
        /// `d` and `e` whole, in place (`MaybeUninit::write`), before anything reads them.
        #[repr(C)]
        pub struct AckOut {
            d: MaybeUninit<Decision>,
            e: MaybeUninit<Enforced>,
        }

        /// `struct rdcc_ack_in` in rdcc_event.h: the event and what the enforcement needs from
        /// the socket, in memory, so nothing but the two pointers lives across the law's call.
        #[repr(C)]
        pub struct AckIn {
            ev: AckEvent,
            /// The smoothed RTT in whole µs, rounded up (`rdcc_srtt_us`: `tp->srtt_us` / 8).
            srtt_us: u32,
            /// `tp->snd_cwnd_clamp`, packets.
            clamp_pkts: u32,
        }


        /// The enforcement of a decision of the other hooks (init, loss, idle, undo): see
        /// `Decision::enforce`.
        ///
        /// # Safety
        /// `d` a valid decision (written whole by one of the entries above); `out` valid for
        /// writes of an `Enforced` (its contents may be uninitialized: rdcc_apply's is).
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_enforce(d: *const Decision, mss: u32, srtt_us: u32, clamp: u32, out: *mut Enforced) {
            // SAFETY: caller contract; `out` is written through the raw pointer, never read.
            unsafe { out.write((*d).enforce(mss, srtt_us, clamp)) };
        }
    };
}

/// Generate the module type, its parameter handling and the `extern "C"` entry points for one
/// law.
///
/// - `name`: the CA name, for log lines.
/// - `law`: the `Controller` type; `config`/`params`: its raw and validated parameter types.
/// - `fields`: every `Config` field, each exposed as a module parameter of the same name (the C
///   side lists the same names; a mismatch refuses the load).
/// - `info_signal`: maps the decision's `signal` to the µs-unit `get_info` field.
///
/// Parameters: the validated `Params` live in a block the C glue allocates and publishes with
/// RCU (rdcc_glue.c, "module parameters"); the hooks pass it in as `p`. The raw `Config` behind
/// it is kept here for the next write and for reads of the parameter files; it is touched only
/// under the module's `kernel_param_lock`, which the C side holds around every call of
/// `rdcc_rs_configure`, `rdcc_rs_param_set` and `rdcc_rs_param_get`.
macro_rules! rdcc_glue {
    (
        name: $name:literal,
        law: $law:ty,
        config: $cfg:ty,
        params: $params:ty,
        info_signal: $info_signal:expr,
        fields: [ $($field:ident),* $(,)? ] $(,)?
    ) => {
        rdcc_glue_common! {
            config: $cfg,
            params: $params,
            fields: [ $($field),* ],
        }

        type LawState = <$law as Controller>::State;

        // The C glue reserves event::CORE_STATE_BUDGET bytes, 8-byte aligned, for the state.
        const _: () = assert!(size_of::<LawState>() <= event::CORE_STATE_BUDGET);
        const _: () = assert!(align_of::<LawState>() <= 8);
        // get_info's copy of the state (rdcc_snapshot in rdcc_glue.c) may mix versions, hold a
        // writer's intermediate values or another algorithm's bytes: rdcc_rs_info and
        // rdcc_rs_report read it as a LawState, which is sound only if every bit pattern is a
        // valid LawState (the law's `any_bit_pattern!`: every field an integer).
        const _: fn() = || {
            fn any_bit_pattern<T: event::AnyBitPattern>() {}
            any_bit_pattern::<LawState>();
        };
        const _: () = assert!(size_of::<rqd::Scan>() == 16);


        /// Reinterpret the C glue's per-socket area as the law's state.
        ///
        /// # Safety
        /// `st` points to the `core` array of `struct rdcc_priv` in `icsk_ca_priv`: at least
        /// `CORE_STATE_BUDGET` bytes, 8-byte aligned (asserted above), which the kernel zeroes
        /// when the CA is assigned and which is written only by these hooks (and the C lease
        /// fast paths between them) under the socket lock, so no other write or reference
        /// overlaps this one for the call. The lockless readers (get_info) never form a
        /// reference here: `rdcc_snapshot` reads the area in C, concurrently, and passes its
        /// private copy to `rdcc_rs_info`/`rdcc_rs_report`; it writes nothing, and whatever
        /// bytes it sees are a valid state (`LawState: AnyBitPattern`, asserted above). All-zero
        /// is a valid state (core invariant, tested in core/tests/zeroed_state.rs).
        unsafe fn state<'a>(st: *mut c_void) -> &'a mut LawState {
            // SAFETY: see the function's contract.
            unsafe { &mut *(st as *mut LawState) }
        }

        /// # Safety
        /// `p` as for [`params`]; `st` as for [`state`]; `out` valid for writes of a
        /// `Decision` (its contents may be uninitialized) and distinct from `st`.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_init(p: *const c_void, st: *mut c_void, now_ns: u64, mss: u32, out: *mut Decision) {
            // SAFETY: caller contract; `out` is written through the raw pointer
            // (`ptr::write`: no reference to its old contents is formed, none is read).
            unsafe { out.write(<$law as Controller>::init(params(p), state(st), now_ns, mss)) };
        }
        /// One ACK: the law's decision and, in the same call, its enforcement
        /// (`Decision::enforce` with the socket's smoothed RTT and `snd_cwnd_clamp`), so the C
        /// side only stores the result (issue #13).
        ///
        /// # Safety
        /// `p` as for [`params`]; `st` as for [`state`]; `inp` a valid, fully written input;
        /// `out` valid for writes of an `AckOut` (48 bytes, 8-byte aligned; its contents may
        /// be uninitialized); `st`, `inp` and `out` are distinct areas.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_on_ack(p: *const c_void, st: *mut c_void, inp: *const AckIn, out: *mut AckOut) {
            // SAFETY: the function's contract: `p` and `st` as their helpers require; `inp`
            // points to an initialized AckIn (all-integer fields); `out` is valid for writes,
            // aligned and aliases neither `st` nor `inp`, so the `&mut` is unique, and an
            // AckOut is valid whatever its bytes (two `MaybeUninit` fields), so the reference
            // is to a valid value although the C left it uninitialized.
            let (p, s, inp, out) = unsafe { (params(p), state(st), &*inp, &mut *out) };
            // Written in place, field by field: no copy of a whole AckOut through the stack.
            let d = out.d.write(<$law as Controller>::on_ack(p, s, &inp.ev));
            out.e.write(d.enforce(inp.ev.mss_bytes, inp.srtt_us, inp.clamp_pkts));
        }


        /// # Safety
        /// `p` as for [`params`]; `st` as for [`state`]; `ev` a valid event with a `kind` of 1
        /// or 2; `out` as for [`rdcc_rs_init`].
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_on_loss(p: *const c_void, st: *mut c_void, ev: *const LossEvent, out: *mut Decision) {
            // SAFETY: caller contract (the C glue only passes RDCC_LOSS_FAST_RECOVERY/RTO, the
            // two values of LossKind, so the enum field is valid); `out` written, not read.
            unsafe { out.write(<$law as Controller>::on_loss(params(p), state(st), &*ev)) };
        }

        /// # Safety
        /// `p` as for [`params`]; `st` as for [`state`]; `out` as for [`rdcc_rs_init`].
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_on_idle(p: *const c_void, st: *mut c_void, now_ns: u64, mss: u32, out: *mut Decision) {
            // SAFETY: caller contract; `out` written, not read.
            unsafe { out.write(<$law as Controller>::on_idle_restart(params(p), state(st), now_ns, mss)) };
        }

        /// # Safety
        /// `p` as for [`params`]; `st` as for [`state`]; `out` as for [`rdcc_rs_init`].
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_on_undo(p: *const c_void, st: *mut c_void, mss: u32, out: *mut Decision) {
            // SAFETY: caller contract; `out` written, not read.
            unsafe { out.write(<$law as Controller>::on_undo(params(p), state(st), mss)) };
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
        /// `p` as for [`params`]; `st` points to `CORE_STATE_BUDGET` bytes, 8-byte aligned,
        /// initialized (padding aside) and not written during the call: get_info's private
        /// snapshot (a u64 array the C filled), or the live area under the socket lock (the
        /// tracepoint; zeroed at assignment, then written by the hooks). Their values need not be
        /// any state the law wrote (see `rdcc_snapshot` in rdcc_glue.c: they may mix versions or
        /// be another algorithm's); `out` valid for writes.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_info(p: *const c_void, st: *const c_void, mss: u32, out: *mut RdccInfo) {
            // SAFETY: caller contract: aligned, initialized bytes, not written while `s` lives,
            // so a shared reference is sound once they are a valid LawState, which any bytes
            // are (`LawState: AnyBitPattern`, asserted at the top of this macro). The law's
            // `current` is total on any state (the core has no panicking operation, and
            // `cargo xtask modules` refuses a module that links a panic entry point), so a
            // meaningless state gives a meaningless answer, never undefined behaviour.
            let s = unsafe { &*(st as *const LawState) };
            // SAFETY: caller contract.
            let d = <$law as Controller>::current(unsafe { params(p) }, s, mss);
            let mss = u64::from(mss.max(1));
            let f: fn(i64) -> u32 = $info_signal;
            // SAFETY: caller contract; written through the raw pointer, never read.
            unsafe {
                out.write(RdccInfo {
                    rate_bps: d.pacing_rate_bps,
                    signal_us: f(d.signal),
                    reason: d.reason as u32,
                    cwnd_pkts_q8: d.cwnd_bytes_q16.checked_div(mss).unwrap_or(0) >> 8,
                })
            };
        }

        /// Fabric and endpoint delay, hops and binding window for the tracepoint and `ss`.
        ///
        /// # Safety
        /// As for [`rdcc_rs_info`]; `out` valid for writes of a `struct rdcc_report`.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_report(p: *const c_void, st: *const c_void, out: *mut Report) {
            // SAFETY: as in rdcc_rs_info: aligned, initialized bytes nobody writes during the
            // call, and any bytes are a valid LawState (`LawState: AnyBitPattern`); `report` is
            // total on any state, as `current` is.
            let s = unsafe { &*(st as *const LawState) };
            // SAFETY: caller contract; written through the raw pointer, never read.
            unsafe { out.write(<$law as Controller>::report(params(p), s)) };
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

    };
}

/// Generate the hold lease's entry points (issue #13; `core/src/lease.rs`) for a law that
/// implements `lease::HoldLease`. Invoked once, after [`rdcc_glue!`] (whose `params`, `state`,
/// `AckIn` and `AckOut` it uses), by a module whose C half defines `RDCC_LEASE` (tcp_timely);
/// the crate root includes `core/src/lease.rs` as `mod lease`. Without `RDCC_LEASE` the C glue
/// never calls these, and a module that does not invoke this macro does not have them (a C half
/// with `RDCC_LEASE` then fails to link).
///
/// - `law`: the `Controller` + `HoldLease` type, the same as `rdcc_glue!`'s.
macro_rules! rdcc_glue_lease {
    (law: $law:ty $(,)?) => {
        // The lease fills the glue bytes of icsk_ca_priv beside the law's state (rdcc_abi.h
        // struct rdcc_lease; rdcc_glue.c asserts the same under RDCC_LEASE).
        const _: () = assert!(core::mem::size_of::<lease::Lease>() == 32);
        const _: () = assert!(core::mem::align_of::<lease::Lease>() <= 8);
        const _: () = assert!(
            core::mem::size_of::<lease::Lease>() <= event::ICSK_CA_PRIV_SIZE - event::CORE_STATE_BUDGET
        );

        /// One ACK of a module with a hold lease when the C fast path (`rdcc_lease_take`,
        /// rdcc_lease.h) did not apply the lease: fold what it absorbed, decide and enforce as
        /// `rdcc_rs_on_ack` does, and grant the next lease (`lease::on_ack_leased`).
        ///
        /// # Safety
        /// As for `rdcc_rs_on_ack`: `p` as for [`params`], `st` as for [`state`], `inp` a valid
        /// input, `out` as there (valid for writes, contents may be uninitialized). `l` points to
        /// the `struct rdcc_lease` in the glue bytes of the same socket's `icsk_ca_priv`: 32 bytes,
        /// 8-byte aligned, disjoint from `st` (the `core` array) and from `inp` and `out` (the
        /// caller's stack), written only by the hooks under the socket lock and read by no lockless
        /// reader (get_info snapshots `core` only). `gen` was read before `p` (rdcc_glue.c
        /// `rdcc_params_gen`).
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_on_ack_lease(
            p: *const core::ffi::c_void,
            st: *mut core::ffi::c_void,
            inp: *const AckIn,
            out: *mut AckOut,
            l: *mut lease::Lease,
            gen: u32,
        ) {
            // SAFETY: the function's contract: every pointer is valid, and the three written
            // through (`st`, `out`, `l`) are distinct areas, so the mutable references do not
            // alias each other or `inp`. `out` may be uninitialized: an AckOut is valid whatever
            // its bytes (`MaybeUninit` fields), and the core writes `out.d` and `out.e` whole
            // before it reads them.
            let (p, s, inp, out, l) = unsafe { (params(p), state(st), &*inp, &mut *out, &mut *l) };
            // Written in place, field by field, as in rdcc_rs_on_ack.
            lease::on_ack_leased::<$law>(
                p, s, &inp.ev, inp.srtt_us, inp.clamp_pkts, l, gen, &mut out.d, &mut out.e,
            );
        }

        /// End the socket's lease before a hook other than cong_control runs the law (loss,
        /// idle restart, undo): fold the absorbed bytes into the state and clear the lease
        /// (`lease::lease_retire`).
        ///
        /// # Safety
        /// `st` as for [`state`]; `l` as for `rdcc_rs_on_ack_lease` (the same socket).
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_lease_retire(st: *mut core::ffi::c_void, l: *mut lease::Lease) {
            // SAFETY: the function's contract: `st` and `l` are distinct, valid areas of the
            // same icsk_ca_priv, written only under the socket lock the caller holds.
            let (s, l) = unsafe { (state(st), &mut *l) };
            lease::lease_retire::<$law>(s, l);
        }
    };
}

/// Generate θ-PowerTCP's hold-lease entry points (issue #13; `core/src/powertcp_lease.rs`).
/// Invoked once, after [`rdcc_glue!`] (whose `params`, `state`, `AckIn` and `AckOut` it uses), by
/// tcp_theta_powertcp, whose C half defines `RDCC_LEASE_THETA`; the crate root includes
/// `core/src/powertcp.rs` as `mod powertcp` (which brings `powertcp_lease.rs`). A C half with
/// `RDCC_LEASE_THETA` whose crate does not invoke this fails to link. There is no retire entry:
/// the lease has nothing to fold, and the C ends it with one store.
macro_rules! rdcc_glue_theta_lease {
    () => {
        // The lease fills the glue bytes of icsk_ca_priv, the law's state the core bytes
        // (rdcc_abi.h structs rdcc_theta_lease and rdcc_theta_state; rdcc_glue.c asserts the
        // same under RDCC_LEASE_THETA); the due path's input is rdcc_theta_due_in.
        const _: () = assert!(core::mem::size_of::<powertcp::ThetaLease>() == 32);
        const _: () = assert!(core::mem::align_of::<powertcp::ThetaLease>() <= 8);
        const _: () = assert!(
            core::mem::size_of::<powertcp::ThetaLease>()
                <= event::ICSK_CA_PRIV_SIZE - event::CORE_STATE_BUDGET
        );
        const _: () = assert!(core::mem::size_of::<powertcp::State>() <= event::CORE_STATE_BUDGET);
        const _: () = assert!(core::mem::align_of::<powertcp::State>() <= 8);
        const _: () = assert!(core::mem::size_of::<powertcp::DueIn>() == 40);

        /// One ACK of tcp_theta_powertcp that its fast path (`rdcc_theta_take`,
        /// rdcc_lease_theta.h) did not take: decide and enforce as `rdcc_rs_on_ack` does, and
        /// grant the next lease (`powertcp::on_ack_leased`).
        ///
        /// # Safety
        /// As for `rdcc_rs_on_ack`: `p` as for [`params`], `st` as for [`state`], `inp` a valid
        /// input, `out` as there (valid for writes, contents may be uninitialized). `l` points to
        /// the `struct rdcc_theta_lease` in the glue bytes of the same socket's `icsk_ca_priv`: 32
        /// bytes, 8-byte aligned, disjoint from `st` (the `core` array) and from `inp` and `out`
        /// (the caller's stack), written only by the hooks under the socket lock and read by no
        /// lockless reader (get_info snapshots `core` only). The C fast path writes `st` only
        /// between these calls, under the same lock, so no C store overlaps the `&mut` made here.
        /// `gen` was read before `p` (rdcc_glue.c `rdcc_params_gen`).
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_on_ack_theta(
            p: *const core::ffi::c_void,
            st: *mut core::ffi::c_void,
            inp: *const AckIn,
            out: *mut AckOut,
            l: *mut powertcp::ThetaLease,
            gen: u32,
        ) {
            // SAFETY: the function's contract: every pointer is valid, and the three written
            // through (`st`, `out`, `l`) are distinct areas, so the mutable references do not
            // alias each other or `inp`. `out` may be uninitialized: an AckOut is valid whatever
            // its bytes (`MaybeUninit` fields), and the core writes `out.d` and `out.e` whole
            // before it reads them.
            let (p, s, inp, out, l) = unsafe { (params(p), state(st), &*inp, &mut *out, &mut *l) };
            // Written in place, field by field, as in rdcc_rs_on_ack.
            powertcp::on_ack_leased(
                p, s, &inp.ev, inp.srtt_us, inp.clamp_pkts, l, gen, &mut out.d, &mut out.e,
            );
        }

        /// A due ACK of tcp_theta_powertcp (`rdcc_theta_due_slow`): the fast path's take found
        /// it covered up to the due test and due, stored nothing, and filled `inp`'s time,
        /// sample and average; run the update, enforce it and grant the next lease
        /// (`powertcp::on_due`).
        ///
        /// # Safety
        /// As for [`rdcc_rs_on_ack_theta`], with `inp` a valid `struct rdcc_theta_due_in` on
        /// the caller's stack (every field written) instead of an `AckIn`.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_theta_due(
            p: *const core::ffi::c_void,
            st: *mut core::ffi::c_void,
            inp: *const powertcp::DueIn,
            out: *mut AckOut,
            l: *mut powertcp::ThetaLease,
            gen: u32,
        ) {
            // SAFETY: as in rdcc_rs_on_ack_theta: valid pointers, the written areas (`st`,
            // `out`, `l`) distinct from each other and from `inp`; `out` may be uninitialized
            // (rdcc_theta_due_slow's), which an AckOut allows, and on_due writes it whole.
            let (p, s, inp, out, l) = unsafe { (params(p), state(st), &*inp, &mut *out, &mut *l) };
            powertcp::on_due(p, s, inp, l, gen, &mut out.d, &mut out.e);
        }
    };
}

/// Generate Swift VAI SF's steady-decrease lease entry point (issue #13;
/// `core/src/vaisf_lease.rs`). Invoked once, after [`rdcc_glue!`] (whose `params`, `state`,
/// `AckIn` and `AckOut` it uses), by tcp_swift_vaisf, whose C half defines `RDCC_LEASE_VAISF`;
/// the crate root includes `core/src/vaisf.rs` as `mod vaisf` (which brings `vaisf_lease.rs`).
/// A C half with `RDCC_LEASE_VAISF` whose crate does not invoke this fails to link. There is no
/// retire entry: the lease has nothing to fold, and the C ends it with one store.
macro_rules! rdcc_glue_vaisf_lease {
    () => {
        // The lease fills the glue bytes of icsk_ca_priv, the law's state the core bytes
        // (rdcc_abi.h structs rdcc_vaisf_lease and rdcc_vaisf_state; rdcc_glue.c asserts the
        // same under RDCC_LEASE_VAISF).
        const _: () = assert!(core::mem::size_of::<vaisf::VaisfLease>() == 32);
        const _: () = assert!(core::mem::align_of::<vaisf::VaisfLease>() <= 8);
        const _: () = assert!(
            core::mem::size_of::<vaisf::VaisfLease>()
                <= event::ICSK_CA_PRIV_SIZE - event::CORE_STATE_BUDGET
        );
        const _: () = assert!(core::mem::size_of::<vaisf::State>() <= event::CORE_STATE_BUDGET);
        const _: () = assert!(core::mem::align_of::<vaisf::State>() <= 8);

        /// One ACK of tcp_swift_vaisf that its fast path (`rdcc_vaisf_take`,
        /// rdcc_lease_vaisf.h) did not take: decide and enforce as `rdcc_rs_on_ack` does, and
        /// grant the next lease (`vaisf::on_ack_leased`).
        ///
        /// # Safety
        /// As for `rdcc_rs_on_ack`: `p` as for [`params`], `st` as for [`state`], `inp` a valid
        /// input, `out` as there (valid for writes, contents may be uninitialized). `l` points to
        /// the `struct rdcc_vaisf_lease` in the glue bytes of the same socket's `icsk_ca_priv`: 32
        /// bytes, 8-byte aligned, disjoint from `st` (the `core` array) and from `inp` and `out`
        /// (the caller's stack), written only by the hooks under the socket lock and read by no
        /// lockless reader (get_info snapshots `core` only). The C fast path writes `st` only
        /// between these calls, under the same lock, so no C store overlaps the `&mut` made here.
        /// `gen` was read before `p` (rdcc_glue.c `rdcc_params_gen`).
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_on_ack_vaisf(
            p: *const core::ffi::c_void,
            st: *mut core::ffi::c_void,
            inp: *const AckIn,
            out: *mut AckOut,
            l: *mut vaisf::VaisfLease,
            gen: u32,
        ) {
            // SAFETY: the function's contract: every pointer is valid, and the three written
            // through (`st`, `out`, `l`) are distinct areas, so the mutable references do not
            // alias each other or `inp`. `out` may be uninitialized: an AckOut is valid whatever
            // its bytes (`MaybeUninit` fields), and the core writes `out.d` and `out.e` whole
            // before it reads them.
            let (p, s, inp, out, l) = unsafe { (params(p), state(st), &*inp, &mut *out, &mut *l) };
            vaisf::on_ack_leased(
                p, s, &inp.ev, inp.srtt_us, inp.clamp_pkts, l, gen, &mut out.d, &mut out.e,
            );
        }
    };
}

/// Swift's increase lease (issue #13; `core/src/swift_lease.rs`). Invoked once, after
/// [`rdcc_glue!`] (whose `params`, `state`, `AckIn` and `AckOut` it uses), by tcp_swift, whose C
/// half defines `RDCC_LEASE_SWIFT`; the crate root includes `core/src/swift.rs` as `mod swift`
/// (which brings `swift_lease.rs`). A C half with `RDCC_LEASE_SWIFT` whose crate does not invoke
/// this fails to link. The lease lives in the law's state (two words dead under its premises,
/// and flag bits); the C ends it (`rdcc_lease_retire`) before every other hook's law call, and
/// this entry before the law's `on_ack`.
macro_rules! rdcc_glue_swift_lease {
    () => {
        // The law's state fills the core bytes (rdcc_abi.h struct rdcc_swift_state; rdcc_glue.c
        // asserts the same under RDCC_LEASE_SWIFT).
        const _: () = assert!(core::mem::size_of::<swift::State>() <= event::CORE_STATE_BUDGET);
        const _: () = assert!(core::mem::align_of::<swift::State>() <= 8);

        /// One ACK of tcp_swift that its fast path (`rdcc_swift_take`, rdcc_lease_swift.h) did
        /// not take: end the lease, decide and enforce as `rdcc_rs_on_ack` does, and grant the
        /// next lease (`swift::on_ack_leased`). The C stores the generation of the block `p`
        /// (its header's) beside the remote-delay slot after this returns.
        ///
        /// # Safety
        /// As for `rdcc_rs_on_ack`: `p` as for [`params`], `st` as for [`state`], `inp` a valid
        /// input, `out` as there (valid for writes, contents may be uninitialized) and distinct
        /// from `st` and `inp`. The C fast path writes `st` only between these calls, under the
        /// same socket lock, so no C store overlaps the `&mut` made here.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_on_ack_swift(
            p: *const core::ffi::c_void,
            st: *mut core::ffi::c_void,
            inp: *const AckIn,
            out: *mut AckOut,
        ) {
            // SAFETY: the function's contract: every pointer is valid, and the two written
            // through (`st`, `out`) are distinct areas, so the mutable references do not alias
            // each other or `inp`. `out` may be uninitialized: an AckOut is valid whatever its
            // bytes (`MaybeUninit` fields), and the core writes `out.d` and `out.e` whole
            // before it reads them.
            let (p, s, inp, out) = unsafe { (params(p), state(st), &*inp, &mut *out) };
            swift::on_ack_leased(p, s, &inp.ev, inp.srtt_us, inp.clamp_pkts, &mut out.d, &mut out.e);
        }
    };
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


/// The bytes of the NUL-terminated C string at `p` (without the terminator), at most 64.
/// Hand-rolled for the same reason as [`c_name_eq`].
///
/// # Safety
/// `p` points to a NUL-terminated string that outlives the returned slice.
pub(crate) unsafe fn c_bytes<'a>(p: *const core::ffi::c_char) -> &'a [u8] {
    const MAX: usize = 64;
    let mut n = 0usize;
    while n < MAX {
        // SAFETY: every byte up to and including the terminator is readable (caller contract),
        // and the loop stops at the first NUL.
        if unsafe { *p.add(n) } == 0 {
            break;
        }
        n = n.wrapping_add(1);
    }
    // SAFETY: the first `n` bytes were just read.
    unsafe { core::slice::from_raw_parts(p as *const u8, n) }
}

/// Display of raw bytes from the user (a parameter name or value) in a log line: printable
/// ASCII as is, anything else as `?`.
pub(crate) struct Text<'a>(pub(crate) &'a [u8]);

impl core::fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        use core::fmt::Write;
        for &b in self.0 {
            let c = if b.is_ascii_graphic() || b == b' ' { b as char } else { '?' };
            f.write_char(c)?;
        }
        Ok(())
    }
}
