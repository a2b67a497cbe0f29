// SPDX-License-Identifier: GPL-2.0-only
//! The Rust half of the KUnit test module `rdcc_kunit.ko` (test code: it never links into a
//! product module). For each law it runs the core's shared vector table (the same `CASES` the
//! host tests run) and a randomized bounds check, and reports to the C suites in
//! `modules/kunit/rdcc_kunit_glue.c`; for the suite `rdcc_glue` it answers the hold leases' fast
//! paths as `core/src/lease.rs` (`rdcc_rs_kunit_lease_take`) and `core/src/powertcp_lease.rs`
//! (`rdcc_rs_kunit_theta_take`, in the child `kunit_theta.rs`) transcribe them. Every `unsafe`
//! block of the test module is here or in that child.

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

/// Generate the two KUnit entry points of one INT law (the suites `rdcc_powertcp`,
/// `rdcc_hpcc`), with the signatures of [`rdcc_kunit_law!`]'s so the C suite macro serves them:
/// `_vectors` runs the law's worked example (`core/src/int_vectors.rs`, the one the host tests
/// run), `_bounds` drives pseudo-random ACKs, hostile echoes and losses through the module's own
/// path (`int_intake::on_rx` / `on_ack`) and checks the kernel's bounds after each.
///
/// - `law`: the `IntController` type; `config`/`params`: its parameter types; `example`: its
///   worked example.
macro_rules! rdcc_kunit_int_law {
    (
        vectors: $vectors_fn:ident,
        bounds: $bounds_fn:ident,
        law: $law:ty,
        config: $cfg:ty,
        params: $params:ty,
        example: $example:path $(,)?
    ) => {
        /// Run the law's worked example.
        ///
        /// # Safety
        /// `r` is a valid, writable `struct rdcc_kunit_report`.
        #[no_mangle]
        pub unsafe extern "C" fn $vectors_fn(r: *mut kunit::KunitReport) -> core::ffi::c_int {
            // SAFETY: caller contract (the C suite passes a stack report it owns).
            let r = unsafe { &mut *r };
            match $example() {
                Ok(()) => {
                    r.cases = 1;
                    0
                }
                Err(text) => {
                    r.failed_case = 0;
                    kunit::write_msg(&mut r.name, text);
                    -(kernel::bindings::EINVAL as core::ffi::c_int)
                }
            }
        }

        /// `steps` pseudo-random events (xorshift from `seed`) through the INT flow, with the
        /// law's default parameters, from all-zero state; the kernel's bounds after each.
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
                Ok(p) => kunit::int_bounds_run::<$law>(&p, seed, steps),
                Err(_) => Err("the default parameters do not validate"),
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

use core::mem::MaybeUninit;

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

/// The in-kernel property check behind the INT laws' `_bounds` entries: random ACKs whose option
/// lists carry a random (often hostile) echo, stored at the "hook" and taken at the "ACK" as
/// the INT modules do, with random identities (forged or the segment's own), and losses.
pub(crate) fn int_bounds_run<C: super::int::IntController>(
    p: &C::Params,
    seed: u64,
    steps: u32,
) -> Result<(), &'static str> {
    use super::int::{IntHop, IntStack};
    use super::int_intake::{self, IntFlow, SegmentId};
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut f: IntFlow<C::State> = IntFlow::default();
    let mut now: u64 = 1_000_000;
    let mut una = 0u32;
    if seed % 2 == 0 {
        check(&C::init(p, &mut f.law, now, 1448))?;
    }
    for _ in 0..steps {
        let r = xorshift(&mut x);
        now = match r % 16 {
            0 => now.wrapping_sub(r % 10_000),
            1 => r,
            _ => now.wrapping_add(r % 100_000),
        };
        if (r >> 8) % 10 == 7 {
            let kind = if r & 1 == 0 {
                LossKind::FastRecovery
            } else {
                LossKind::RetransmitTimeout
            };
            check(&C::on_loss(p, &mut f.law, &LossEvent { now_ns: now, mss_bytes: 1448, kind }))?;
            continue;
        }
        let acked = (xorshift(&mut x) % 65_536) as u32;
        let ack = una.wrapping_add(acked);
        let nxt = ack.wrapping_add((xorshift(&mut x) % 1_000_000) as u32);
        // An echo of 0..=5 random records (any field, any rate index), as the wire can carry.
        let mut st = IntStack::EMPTY;
        for _ in 0..(xorshift(&mut x) % 6) {
            st.push(IntHop(xorshift(&mut x)));
        }
        let mut opt = [0u8; 40];
        let n = super::int_wire::write(&mut opt, 4, true, r & 2 != 0, &st);
        let seq = (xorshift(&mut x) % 4) as u32;
        int_intake::on_rx(&mut f.intake, opt.get(..n).unwrap_or(&[]), ack, seq, una, nxt);
        let id = SegmentId { ack_seq: ack, seq: (xorshift(&mut x) % 4) as u32, tsval: 0, has_ts: 0 };
        let ev = AckEvent {
            now_ns: now,
            rtt_ns: 10_000 + xorshift(&mut x) % 1_000_000,
            remote_delay_ns: 0,
            delivered_bytes: 0,
            acked_bytes: acked,
            inflight_bytes: xorshift(&mut x) as u32,
            mss_bytes: match xorshift(&mut x) % 4 {
                0 => 0,
                1 => 9000,
                2 => xorshift(&mut x) as u32,
                _ => 1448,
            },
            snd_una: ack,
            snd_nxt: nxt,
            flags: (xorshift(&mut x) & 0xff) as u32,
            hops: 0,
            _pad: [0; 3],
            local_rx_delay_ns: 0,
            telemetry: 0,
        };
        una = ack;
        let (_, d) = int_intake::on_ack::<C>(p, &mut f, &ev, &id, acked != 0);
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

/// θ-PowerTCP's entry points (the hold lease's fast path, the parameter draws, the due path):
/// a child module in its own file (this file's size); their `unsafe` blocks are there.
#[path = "kunit_theta.rs"]
mod theta;

/// The KUnit cases' parameter draws: a xorshift stream from a seed (no panicking arithmetic:
/// the test module is checked for panic symbols like the product modules).
struct Draw(u64);

impl Draw {
    fn new(seed: u64) -> Self {
        Draw(seed | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// The default 7 times in 8, otherwise anything in [lo, hi].
    fn pick(&mut self, default: u64, lo: u64, hi: u64) -> u64 {
        let r = self.next();
        if r % 8 != 0 {
            default
        } else {
            let span = hi.wrapping_sub(lo).wrapping_add(1);
            // r % 8 == 0 here: its low bits are not random.
            lo.wrapping_add((r >> 3).checked_rem(span).unwrap_or(0))
        }
    }
}

/// Bytes the KUnit case `rdcc_glue_vaisf_lease` reserves for a `vaisf::Params` it never looks
/// into.
const VAISF_PARAMS_BUF: usize = 256;
const _: () = assert!(core::mem::size_of::<super::vaisf::Params>() <= VAISF_PARAMS_BUF);
const _: () = assert!(core::mem::align_of::<super::vaisf::Params>() <= 8);

/// What `rdcc_rs_kunit_vaisf_setup` tells the KUnit case `rdcc_glue_vaisf_lease` about the
/// parameter block it drew (`struct rdcc_kunit_vaisf_setup` in rdcc_kunit_glue.c; 16 bytes).
#[repr(C)]
pub struct KunitVaisfSetup {
    /// The fixed point of the capped decrease, packets Q20: `W_ref = clamp(⌊W_ref·(1 −
    /// max_mdf)⌋ + base_AI)`, iterated from the initial window (SL Eq. 1 at the cap, Alg. 2 at
    /// a multiplier of 1.0).
    pub w_q20: u64,
    /// The MSS the socket should have, bytes.
    pub mss: u32,
    /// Bank_Cap.
    pub bank_cap: u16,
    /// `s` (0: SF off).
    pub sf_acks: u16,
    /// The least dampener at which SL Alg. 2's multiplier is 1.0 with AI_Cap tokens (by
    /// search on `vai_tokens_q16`), `u32::MAX` when none is.
    pub damp_min_q16: u32,
    /// Padding, 0.
    pub _pad: u32,
}
const _: () = assert!(core::mem::size_of::<KunitVaisfSetup>() == 24);

/// The start of one sequence of the KUnit case `rdcc_glue_vaisf_lease`: a random valid Swift
/// VAI SF parameter block near the paper's (β, max_mdf, the target, Token_Thresh, AI_DIV, the
/// caps, the dampener constant, `s`, the token formula and base_AI each at the paper's value 7
/// times in 8, otherwise anywhere in a range where the regime exists; the SF counting segments
/// or off now and then), written to `p`; the law's initial state, written to `s`; and in
/// `out` the fixed point, the MSS and the two limits the C needs to build a steady state.
/// Returns 0, or -1 when no valid block came out (not reached: the defaults are valid).
///
/// # Safety
/// `p` is valid for writes of `VAISF_PARAMS_BUF` bytes, 8-byte aligned; `s` is a valid,
/// writable `struct rdcc_vaisf_state` (the layout of `vaisf::State`); `out` a valid, writable
/// `struct rdcc_kunit_vaisf_setup`.
#[no_mangle]
pub unsafe extern "C" fn rdcc_rs_kunit_vaisf_setup(
    seed: u64,
    p: *mut super::vaisf::Params,
    s: *mut super::vaisf::State,
    out: *mut KunitVaisfSetup,
) -> core::ffi::c_int {
    use super::fixed::{clamp, mul_q16, Q16_ONE};
    use super::vaisf::{
        base_ai_pkts_q20, target_delay_ns, vai_tokens_q16, Config, Params, State, SwiftVaiSf,
    };
    let mut draw = Draw::new(seed);
    let mut pick = |default: u64, lo: u64, hi: u64| draw.pick(default, lo, hi);
    let mss = pick(1448, 512, 9000) as u32;
    let c = Config {
        beta_q16: pick(52_429, 32_769, 65_536),
        max_mdf_q16: pick(32_768, 16_384, 32_767),
        base_target_ns: pick(5_000, 1_000, 20_000),
        token_thresh_extra_ns: pick(4_000, 0, 20_000),
        ai_div_ns: pick(30, 1, 1_000),
        bank_cap: pick(1_000, 0, 65_535),
        ai_cap: pick(100, 0, 1_000),
        dampener_constant: pick(8, 1, 64),
        sf_acks: pick(30, 0, 200),
        sf_count_segments: pick(0, 0, 1),
        token_numerator: pick(0, 0, 2),
        // Up to 10 Gbit/s: fixed points of a packet or more too (not leased).
        base_ai_bps: pick(6_250_000, 1, 1_250_000_000),
        ..Config::DEFAULT
    };
    let Ok(params) = Params::new(&c).or_else(|_| Params::new(&Config::DEFAULT)) else {
        return -1;
    };
    let mut st = State::default();
    SwiftVaiSf::init(&params, &mut st, 1_000_000, mss);
    let cfg = params.config();
    let ai = base_ai_pkts_q20(&params, target_delay_ns(&params, cfg.default_hops as u8), mss);
    let factor = Q16_ONE.saturating_sub(cfg.max_mdf_q16);
    let mut w = st.cwnd_pkts_q20();
    for _ in 0..200 {
        w = clamp(
            mul_q16(w, factor).saturating_add(ai),
            cfg.min_cwnd_pkts_q20,
            cfg.max_cwnd_pkts_q20,
        );
    }
    // The multiplier is non-increasing in the dampener: bisect for its least 1.0.
    let ai_cap = cfg.ai_cap as u16; // validated <= u16::MAX
    let (mut lo, mut hi) = (0u32, u32::MAX);
    if vai_tokens_q16(&params, ai_cap, hi).0 == Q16_ONE {
        while lo < hi {
            let mid = lo.wrapping_add(hi.wrapping_sub(lo) / 2); // lo < hi: no wrap
            if vai_tokens_q16(&params, ai_cap, mid).0 == Q16_ONE {
                hi = mid;
            } else {
                lo = mid.wrapping_add(1);
            }
        }
    }
    // SAFETY: the function's contract: the pointers are valid and aligned for their types.
    unsafe {
        p.write(params);
        s.write(st);
        out.write(KunitVaisfSetup {
            w_q20: w,
            mss,
            bank_cap: cfg.bank_cap as u16, // validated <= u16::MAX
            sf_acks: cfg.sf_acks as u16,   // validated <= u16::MAX
            damp_min_q16: hi,
            _pad: 0,
        });
    }
    0
}

/// One ACK of Swift VAI SF for the KUnit case `rdcc_glue_vaisf_lease`: with a lease `l`, what
/// the glue's full path runs (`vaisf::on_ack_leased`: the law, its enforcement, the next
/// lease); with `l` NULL, the law alone and its enforcement (the reference: the law on every
/// ACK). `*e` is the enforcement.
///
/// # Safety
/// `p` is a block `rdcc_rs_kunit_vaisf_setup` wrote; `s` and `e` are valid, writable, distinct
/// records; `ev` a valid event; `l` NULL or a valid, writable lease distinct from the others.
#[no_mangle]
pub unsafe extern "C" fn rdcc_rs_kunit_vaisf_ack(
    p: *const super::vaisf::Params,
    s: *mut super::vaisf::State,
    ev: *const AckEvent,
    srtt_us: u32,
    clamp_pkts: u32,
    l: *mut super::vaisf::VaisfLease,
    gen: u32,
    e: *mut Enforced,
) {
    // SAFETY: the function's contract: valid, distinct records; `l` is checked for NULL.
    let (p, s, ev, e, l) = unsafe { (&*p, &mut *s, &*ev, &mut *e, l.as_mut()) };
    match l {
        Some(l) => {
            let (mut d, mut x) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (_, x) =
                super::vaisf::on_ack_leased(p, s, ev, srtt_us, clamp_pkts, l, gen, &mut d, &mut x);
            *e = *x;
        }
        None => {
            let d = <super::vaisf::SwiftVaiSf as Controller>::on_ack(p, s, ev);
            *e = d.enforce(ev.mss_bytes, srtt_us, clamp_pkts);
        }
    }
}

/// The KUnit case `rdcc_glue_enforce`: `Decision::enforce` on the table of
/// `core/src/event_vectors.rs`. Returns the number of cases, or -1 with `*failed` the index of
/// the first case that differs.
///
/// # Safety
/// `failed` is a valid, writable `u32`.
#[no_mangle]
pub unsafe extern "C" fn rdcc_rs_kunit_enforce(failed: *mut u32) -> core::ffi::c_int {
    match super::event_vectors::run_enforce() {
        Ok(n) => core::ffi::c_int::try_from(n).unwrap_or(core::ffi::c_int::MAX),
        Err(i) => {
            // SAFETY: the function's contract: `failed` is valid and writable.
            unsafe { failed.write(u32::try_from(i).unwrap_or(u32::MAX)) };
            -1
        }
    }
}

/// Bytes the KUnit case `rdcc_glue_swift_lease` reserves for a `swift::Params` it never looks
/// into.
const SWIFT_PARAMS_BUF: usize = 256;
const _: () = assert!(core::mem::size_of::<super::swift::Params>() <= SWIFT_PARAMS_BUF);
const _: () = assert!(core::mem::align_of::<super::swift::Params>() <= 8);

/// The start of one sequence of the KUnit case `rdcc_glue_swift_lease`: a random valid Swift
/// parameter block near the paper's (ai, min_cwnd, max_cwnd, the base target, the flow-scaling
/// range and window bounds, the endpoint target and the endpoint EWMA's gain each at the
/// default 7 times in 8, otherwise anywhere in a range the law accepts; ai also shifted right
/// by 12 to 26 bits one time in 8; the paper-literal guard now and then), written to `p`, and
/// the law's initial
/// state for `mss`, written to `s`. Returns 0, or -1 when no valid block came out (not
/// reached: the defaults are valid).
///
/// # Safety
/// `p` is valid for writes of `SWIFT_PARAMS_BUF` bytes, 8-byte aligned; `s` is a valid,
/// writable `struct rdcc_swift_state` (the layout of `swift::State`).
#[no_mangle]
pub unsafe extern "C" fn rdcc_rs_kunit_swift_setup(
    seed: u64,
    mss: u32,
    p: *mut super::swift::Params,
    s: *mut super::swift::State,
) -> core::ffi::c_int {
    use super::swift::{Config, Params, State, Swift};
    let mut draw = Draw::new(seed);
    let mut pick = |default: u64, lo: u64, hi: u64| draw.pick(default, lo, hi);
    let d = Config::DEFAULT;
    let c = Config {
        // Shifted now and then, so that increases of a few Q20 units (with huge ACKs: num_acked
        // at its saturation and its cap) stay under the lease's w_hi too.
        ai_pkts_q20: (pick(d.ai_pkts_q20, 1, 64 << 20) >> pick(0, 12, 26)).max(1),
        min_cwnd_pkts_q20: pick(d.min_cwnd_pkts_q20, 1, 4 << 20),
        max_cwnd_pkts_q20: pick(d.max_cwnd_pkts_q20, 4 << 20, 1024 << 20),
        init_cwnd_pkts_q20: pick(d.init_cwnd_pkts_q20, 1 << 10, 64 << 20),
        base_target_ns: pick(d.base_target_ns, 5_000, 60_000),
        default_hops: pick(d.default_hops, 0, 8),
        fs_range_ns: pick(d.fs_range_ns, 0, 200_000),
        fs_max_cwnd_pkts_q20: pick(d.fs_max_cwnd_pkts_q20, 2 << 20, 400 << 20),
        literal_decrease_guard: pick(0, 0, 1),
        endpoint_target_ns: pick(d.endpoint_target_ns, 1_000, 60_000),
        endpoint_ewma_q16: pick(d.endpoint_ewma_q16, 1, 65_536),
        ..d
    };
    let Ok(params) = Params::new(&c).or_else(|_| Params::new(&d)) else {
        return -1;
    };
    let mut st = State::default();
    Swift::init(&params, &mut st, 1_000_000, mss);
    // SAFETY: the function's contract: the pointers are valid and aligned for their types.
    unsafe {
        p.write(params);
        s.write(st);
    }
    0
}

/// One ACK of Swift for the KUnit case `rdcc_glue_swift_lease`: `leased` != 0, what tcp_swift's
/// leased full path runs (`swift::on_ack_leased`: the lease ended, the law, its enforcement,
/// the next grant); 0, the law alone and its enforcement (the glue's plain entry, and the
/// reference: the law on every ACK). `*e` is the enforcement.
///
/// # Safety
/// `p` is a block `rdcc_rs_kunit_swift_setup` wrote; `s` and `e` are valid, writable, distinct
/// records; `ev` a valid event.
#[no_mangle]
pub unsafe extern "C" fn rdcc_rs_kunit_swift_ack(
    p: *const super::swift::Params,
    s: *mut super::swift::State,
    ev: *const AckEvent,
    srtt_us: u32,
    clamp_pkts: u32,
    leased: u32,
    e: *mut Enforced,
) {
    // SAFETY: the function's contract: valid, distinct records.
    let (p, s, ev, e) = unsafe { (&*p, &mut *s, &*ev, &mut *e) };
    if leased != 0 {
        let (mut d, mut x) = (MaybeUninit::uninit(), MaybeUninit::uninit());
        let (_, x) = super::swift::on_ack_leased(p, s, ev, srtt_us, clamp_pkts, &mut d, &mut x);
        *e = *x;
    } else {
        let d = <super::swift::Swift as Controller>::on_ack(p, s, ev);
        *e = d.enforce(ev.mss_bytes, srtt_us, clamp_pkts);
    }
}
