// SPDX-License-Identifier: GPL-2.0-only
//! θ-PowerTCP's part of the KUnit test module's Rust half (`kunit.rs`, whose child this is):
//! the hold lease's fast path as core/src/powertcp_lease.rs transcribes it, the random
//! parameter blocks and the Rust due path, for the C cases `rdcc_glue_theta_lease` and
//! `rdcc_glue_theta_update`. Test code: it never links into a product module.

use super::*;

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
    s: *mut super::super::powertcp::State,
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

/// A random valid θ-PowerTCP parameter block for the KUnit case `rdcc_glue_theta_update`,
/// mostly at its edges (γ 1, 0.9 or 1.0; gradient floor 0, 0.5 or 1.0; τ 1 µs, 20 µs or 1 s;
/// β at the cap; the window bounds equal, at 1 byte, at 2^31, or the host BDP; the per-ACK
/// cadence and the minimum-RTT τ about one time in nine each; with `pin_bytes` != 0 both window
/// bounds at that many bytes, so every window the law outputs is exactly that), built by
/// `Params::new` and written to
/// `out`, which the C reads as `struct rdcc_theta_params` (so the case also checks that
/// rdcc_abi.h's layout is the kernel build's). A random draw that `Params::new` refuses is
/// replaced by a valid block with the drawn τ. Returns τ, ns (0: no block, not reached).
///
/// # Safety
/// `out` is valid for writes of a `powertcp::Params` (96 bytes, 8-byte aligned).
#[no_mangle]
pub unsafe extern "C" fn rdcc_rs_kunit_theta_params(
    seed: u64,
    pin_bytes: u64,
    out: *mut super::super::powertcp::Params,
) -> u64 {
    use super::super::powertcp::{
        Config, Params, BASE_RTT_ARTIFACT, BASE_RTT_CONFIGURED, BASE_RTT_MIN_RTT, GRADIENT_PER_ACK,
        GRADIENT_PER_RTT, MAX_CWND_BYTES,
    };
    let mut x = seed | 1;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    // An edge 7 times in 8, otherwise anything in [lo, hi] (no panicking arithmetic: the test
    // module is checked for panic symbols like the product modules).
    let mut pick = |edges: &[u64], lo: u64, hi: u64| {
        let r = next();
        if r % 8 != 0 {
            let n = edges.len() as u64;
            let i = (r >> 8).checked_rem(n).unwrap_or(0) as usize;
            edges.get(i).copied().unwrap_or(lo)
        } else {
            let span = hi.wrapping_sub(lo).wrapping_add(1);
            lo.wrapping_add(next().checked_rem(span).unwrap_or(0))
        }
    };
    let tau = pick(&[20_000, 20_000, 1_000, 1_000_000_000], 1_000, 1_000_000_000);
    let c = Config {
        gamma_q16: pick(&[58_982, 58_982, 1, 65_536], 1, 65_536),
        base_rtt_ns: tau,
        host_bw_bps: pick(&[12_500_000_000, 125_000_000, 125_000], 125_000, 1 << 40),
        expected_flows: pick(&[10, 1, 65_536], 1, 65_536),
        beta_bytes: pick(&[0, 0, 1, MAX_CWND_BYTES], 0, MAX_CWND_BYTES),
        min_cwnd_bytes: if pin_bytes != 0 {
            pin_bytes
        } else {
            pick(&[1, 1448, 3000, MAX_CWND_BYTES], 1, MAX_CWND_BYTES)
        },
        max_cwnd_bytes: if pin_bytes != 0 {
            pin_bytes
        } else {
            pick(&[0, 0, 3000, MAX_CWND_BYTES], 0, MAX_CWND_BYTES)
        },
        grad_floor_q16: pick(&[0, 32_768, 65_536], 0, 65_536),
        smooth_init_q16: 0,
        gradient_mode: if pick(&[0, 0, 0, 0, 0, 0, 0, 1], 0, 0) == 1 {
            GRADIENT_PER_ACK
        } else {
            GRADIENT_PER_RTT
        },
        loss_md_q16: 0,
        // Every mode, so the C's refusal of the minimum-RTT modes is checked against the Rust
        // (BASE_RTT_ARTIFACT sets min_rtt_tau; the C never reads artifact_tau).
        base_rtt_mode: match pick(&[0, 0, 0, 0, 0, 0, 1, 2], 0, 2) {
            1 => BASE_RTT_MIN_RTT,
            2 => BASE_RTT_ARTIFACT,
            _ => BASE_RTT_CONFIGURED,
        },
    };
    // Valid for every τ in range: HostBw·τ <= 2^31 bytes, β != 0, min <= max.
    let fallback = Config {
        base_rtt_ns: tau,
        host_bw_bps: 125_000,
        beta_bytes: 1448,
        min_cwnd_bytes: 1,
        max_cwnd_bytes: MAX_CWND_BYTES,
        ..Config::DEFAULT
    };
    let Ok(p) = Params::new(&c).or_else(|_| Params::new(&fallback)) else {
        return 0; // not reached (the defaults with any τ in range are valid): the case fails
    };
    // SAFETY: the function's contract: `out` is valid and aligned for a Params.
    unsafe { out.write(p) };
    p.tau_ns(&super::super::powertcp::State::default())
}

/// `powertcp::on_due` and its enforcement (the Rust due path, `rdcc_rs_theta_due` without the
/// trace), for the KUnit case `rdcc_glue_theta_update`, which runs the C due path
/// (`rdcc_theta_update`, rdcc_lease_theta.h) and this on copies of the same state, lease and
/// socket values and compares the state, the lease and what each sets.
///
/// # Safety
/// `p` points to a block `rdcc_rs_kunit_theta_params` wrote; `s`, `l` and `e` are valid,
/// writable, distinct records of their types and `inp` a valid `DueIn`, all owned by the caller
/// (the C case's stack).
#[no_mangle]
pub unsafe extern "C" fn rdcc_rs_kunit_theta_due(
    p: *const super::super::powertcp::Params,
    s: *mut super::super::powertcp::State,
    inp: *const DueIn,
    l: *mut ThetaLease,
    gen: u32,
    e: *mut Enforced,
) {
    // SAFETY: the function's contract: valid, distinct records, so the mutable references are
    // unique and alias neither `p` nor `inp`.
    let (p, s, inp, l, e) = unsafe { (&*p, &mut *s, &*inp, &mut *l, &mut *e) };
    let (mut d, mut x) = (MaybeUninit::uninit(), MaybeUninit::uninit());
    let (_, x) = super::super::powertcp::on_due(p, s, inp, l, gen, &mut d, &mut x);
    *e = *x;
}
