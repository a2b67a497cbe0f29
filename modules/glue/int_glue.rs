// SPDX-License-Identifier: GPL-2.0-only
//! The Rust half of the INT modules (`tcp_powertcp`, `tcp_hpcc`; issue #35 item 3): the laws
//! behind `int::IntController`, whose per-connection state (the law's, with the previous INT
//! stack, and the intake of echoed stacks, `core/src/int_intake.rs`) exceeds `icsk_ca_priv`.
//! The C half (`rdcc_int_glue.c`) allocates that state per socket, the "flow", and passes it in.
//!
//! A module's crate root includes the core files (`event`, `fixed`, `units`, `powertcp`, `int`,
//! `int_wire`, `int_intake` and its law) side by side, then `glue.rs` and this file with
//! `#[macro_use]`, invokes `module!` for `RdccModule`, and invokes [`rdcc_int_glue!`] once.

/// Generate the module type, its parameters and the `extern "C"` entries of one INT law.
///
/// - `law`: the `int::IntController` type; `config`/`params`: its raw and validated parameter
///   types; `fields`: every `Config` field, each a module parameter of the same name (as
///   [`rdcc_glue!`]).
/// - `info_signal`: maps the decision's `signal` to the µs-unit `get_info` field.
macro_rules! rdcc_int_glue {
    (
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

        use int::IntController;
        use int_intake::{IntFlow, SegmentId};

        type Flow = IntFlow<<$law as IntController>::State>;

        // The C glue allocates rdcc_rs_flow_size() bytes with kzalloc (8-byte aligned, zeroed:
        // an all-zero Flow is a valid, uninitialised one, core/tests/zeroed_state.rs).
        const _: () = assert!(align_of::<Flow>() <= 8);
        const _: () = assert!(size_of::<SegmentId>() == 16);

        /// Size of the per-socket flow the C glue allocates.
        #[no_mangle]
        pub extern "C" fn rdcc_rs_flow_size() -> u32 {
            size_of::<Flow>() as u32
        }

        /// The socket's flow.
        ///
        /// # Safety
        /// `f` is the flow of `struct rdcc_int_blk` (rdcc_int_glue.c): `rdcc_rs_flow_size()`
        /// bytes from kzalloc, 8-byte aligned, initialised (zeroed, then written only by these
        /// entries), and the caller holds the block's lock, which every entry that touches it is
        /// called under, so no other reference to it exists for the call. The block is freed
        /// only after an RCU grace period that follows its removal from the lookup table, and
        /// no caller holds a pointer to it across that.
        unsafe fn flow<'a>(f: *mut c_void) -> &'a mut Flow {
            // SAFETY: see the function's contract.
            unsafe { &mut *(f as *mut Flow) }
        }

        /// # Safety
        /// `p` as for [`params`]; `f` as for [`flow`]; `out` valid for writes of a `Decision`
        /// (its contents may be uninitialized), distinct from `f`.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_int_init(p: *const c_void, f: *mut c_void, now_ns: u64, mss: u32, out: *mut Decision) {
            // SAFETY: caller contract; `out` written through the raw pointer, never read.
            unsafe {
                let fl = flow(f);
                *fl = Flow::default();
                out.write(<$law as IntController>::init(params(p), &mut fl.law, now_ns, mss))
            };
        }

        /// One ACK TCP accepted: take its echoed stack from the intake (`id`: the segment as TCP
        /// recorded it; `advanced`: it moved `snd_una`), run the law, enforce. Returns the
        /// intake's outcome (`int_intake::Taken` as u32) for the counters.
        ///
        /// # Safety
        /// `p` as for [`params`]; `f` as for [`flow`]; `inp` and `id` valid, fully written
        /// inputs; `out` valid for writes of an `AckOut` (contents may be uninitialized); all
        /// distinct areas.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_int_on_ack(
            p: *const c_void,
            f: *mut c_void,
            inp: *const AckIn,
            id: *const SegmentId,
            advanced: u32,
            out: *mut AckOut,
        ) -> u32 {
            // SAFETY: the function's contract: distinct, valid areas; an AckOut is valid
            // whatever its bytes (two `MaybeUninit` fields), so the `&mut` to the C's
            // uninitialized record is to a valid value.
            let (p, fl, inp, id, out) = unsafe { (params(p), flow(f), &*inp, &*id, &mut *out) };
            let (taken, d) = int_intake::on_ack::<$law>(p, fl, &inp.ev, id, advanced != 0);
            let d = out.d.write(d);
            out.e.write(d.enforce(inp.ev.mss_bytes, inp.srtt_us, inp.clamp_pkts));
            taken as u32
        }

        /// # Safety
        /// `p` as for [`params`]; `f` as for [`flow`]; `ev` a valid event with a `kind` of 1 or
        /// 2; `out` as for [`rdcc_rs_int_init`].
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_int_on_loss(p: *const c_void, f: *mut c_void, ev: *const LossEvent, out: *mut Decision) {
            // SAFETY: caller contract (the C glue passes only RDCC_LOSS_FAST_RECOVERY/RTO, the
            // two values of LossKind); `out` written, not read.
            unsafe { out.write(<$law as IntController>::on_loss(params(p), &mut flow(f).law, &*ev)) };
        }

        /// The law's current decision (undo, and the info mirror).
        ///
        /// # Safety
        /// `p` as for [`params`]; `f` as for [`flow`]; `out` as for [`rdcc_rs_int_init`].
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_int_current(p: *const c_void, f: *mut c_void, mss: u32, out: *mut Decision) {
            // SAFETY: caller contract; `out` written, not read.
            unsafe { out.write(<$law as IntController>::current(params(p), &flow(f).law, mss)) };
        }

        /// The `get_info` signal of a decision (the law's unit mapped to µs-like).
        #[no_mangle]
        pub extern "C" fn rdcc_rs_int_signal(signal: i64) -> u32 {
            let f: fn(i64) -> u32 = $info_signal;
            f(signal)
        }

        /// The netfilter hook's step for one ACK (`int_intake::on_rx`): `opts`/`len` its TCP
        /// option bytes (at most 40 are read), `ack_seq`/`seq` its header, `snd_una`/`snd_nxt`
        /// the socket's as read without its lock. Returns the outcome's counter index.
        ///
        /// # Safety
        /// `f` as for [`flow`]; `opts` points to `len` readable bytes (or is null with `len`
        /// 0), not part of the flow.
        #[no_mangle]
        pub unsafe extern "C" fn rdcc_rs_int_rx(
            f: *mut c_void,
            opts: *const u8,
            len: u32,
            ack_seq: u32,
            seq: u32,
            snd_una: u32,
            snd_nxt: u32,
        ) -> u32 {
            let len = (len as usize).min(int_wire::MAX_OPTIONS_LEN);
            let bytes: &[u8] = if opts.is_null() {
                &[]
            } else {
                // SAFETY: caller contract; len was only reduced.
                unsafe { core::slice::from_raw_parts(opts, len) }
            };
            // SAFETY: caller contract.
            let fl = unsafe { flow(f) };
            int_intake::on_rx(&mut fl.intake, bytes, ack_seq, seq, snd_una, snd_nxt)
        }
    };
}
