// SPDX-License-Identifier: GPL-2.0-only
//! Unit and property tests of Swift VAI SF's steady-decrease lease (`vaisf_lease.rs`). The whole
//! file is test code: core/tests/forbidden.rs skips a file from its first `#[cfg(test)]` line on,
//! the next line.
#[cfg(test)]
use super::super::super::event::{AckEvent, Controller, ACK_HAS_RTT};
use super::super::super::fixed::{PKT_Q20_ONE, Q16_ONE};
use super::super::super::swift::md_factor_q16;
use super::super::{
    token_numerator, Config, Params, State, SwiftVaiSf, DAMPENER_MAX_Q16, F_CONGESTED, F_INIT,
    F_MARKER,
};
use super::{capped_delay_ns, on_ack_leased, VaisfLease, VAISF_RTT_US_MAX};
use core::mem::MaybeUninit;
use proptest::prelude::*;

/// SL Eq. 1's factor at delay `d`, from the paper's formula in u128, independent of the code:
/// `1 − min(⌊β(d − t)/d⌋, max_mdf)` in Q16 (Swift Alg. 1 line 11, SL Eq. 1).
fn eq1_factor_q16(d: u64, t: u64, beta: u64, mdf: u64) -> u64 {
    let cut = if d <= t {
        0
    } else {
        (u128::from(beta) * u128::from(d - t) / u128::from(d)) as u64
    };
    Q16_ONE - cut.min(mdf)
}

/// `D*` at its definition: the least `d >= t` whose Eq. 1 factor is capped, by search.
fn least_capped_by_search(t: u64, beta: u64, mdf: u64) -> u64 {
    let (mut lo, mut hi) = (t, t.saturating_mul(1 << 17).max(t + 1));
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if eq1_factor_q16(mid, t, beta, mdf) == Q16_ONE - mdf {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    lo
}

fn params(beta: u64, mdf: u64, target: u64) -> Params {
    Params::new(&Config {
        beta_q16: beta,
        max_mdf_q16: mdf,
        base_target_ns: target,
        ..Config::DEFAULT
    })
    .unwrap()
}

#[test]
fn capped_delay_table() {
    // (β, max_mdf, t, D*): D* = ⌈β·t/(β − max_mdf)⌉ by hand.
    let table: &[(u64, u64, u64, Option<u64>)] = &[
        // Defaults: β 0.8, max_mdf 0.5, t 5 µs: 52429·5000/19661 = 13333.33.. -> 13334.
        (52_429, 32_768, 5_000, Some(13_334)),
        // β 1.0, max_mdf 0.5: 2t exactly.
        (65_536, 32_768, 5_000, Some(10_000)),
        // β = max_mdf: never capped.
        (32_768, 32_768, 5_000, None),
        // β below max_mdf: never capped.
        (16_384, 32_768, 5_000, None),
        // max_mdf tiny: just above t.
        (65_536, 1, 1_000, Some(1_001)),
    ];
    for &(beta, mdf, t, want) in table {
        let p = params(beta, mdf, 5_000);
        assert_eq!(capped_delay_ns(&p, t), want, "β {beta} mdf {mdf} t {t}");
        if let Some(d) = want {
            assert_eq!(eq1_factor_q16(d, t, beta, mdf), Q16_ONE - mdf);
            assert_ne!(eq1_factor_q16(d - 1, t, beta, mdf), Q16_ONE - mdf);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2048, ..ProptestConfig::default() })]

    /// `capped_delay_ns` is the least capped delay, and every delay above it is capped, both by
    /// the paper's formula and by the law's `md_factor_q16`.
    #[test]
    fn capped_delay_is_least(
        mdf in 1u64..65_536,
        beta_extra in 1u64..65_536,
        t in 1_000u64..(1 << 28),
        above in 0u64..(1 << 33),
    ) {
        let beta = (mdf + beta_extra).min(65_536);
        prop_assume!(beta > mdf);
        let p = params(beta, mdf, 5_000);
        let d_star = capped_delay_ns(&p, t).unwrap();
        prop_assert_eq!(d_star, least_capped_by_search(t, beta, mdf));
        let d = d_star.saturating_add(above);
        prop_assert_eq!(md_factor_q16(d, t, beta, mdf), Q16_ONE - mdf);
        prop_assert_eq!(eq1_factor_q16(d, t, beta, mdf), Q16_ONE - mdf);
    }
}

/// A configuration near the paper's, varied in everything the lease depends on.
fn arb_config() -> impl Strategy<Value = Config> {
    (
        (
            prop_oneof![Just(52_429u64), 32_769u64..=65_536],
            prop_oneof![Just(32_768u64), 16_384u64..32_768],
            prop_oneof![Just(5_000u64), 1_000u64..=20_000],
            prop_oneof![Just(4_000u64), 0u64..=20_000],
            prop_oneof![Just(30u64), 1u64..=1_000],
        ),
        (
            prop_oneof![Just(1_000u64), 0u64..=65_535],
            // The regime needs the dampener at D · (AI_Cap − 1) or more (the multiplier at
            // 1.0), which a u32 holds only for D · AI_Cap below about 65,536.
            prop_oneof![Just(100u64), 0u64..=1_000],
            prop_oneof![Just(8u64), 1u64..=64],
            prop_oneof![Just(30u64), 1u64..=200],
            0u64..=2,
            prop_oneof![Just(6_250_000u64), 1u64..=12_500_000],
        ),
    )
        .prop_map(
            |((beta, mdf, target, extra, ai_div), (bank, ai_cap, damp, sf, num, ai_bps))| Config {
                beta_q16: beta,
                max_mdf_q16: mdf,
                base_target_ns: target,
                token_thresh_extra_ns: extra,
                ai_div_ns: ai_div,
                bank_cap: bank,
                ai_cap,
                dampener_constant: damp,
                sf_acks: sf,
                token_numerator: num,
                base_ai_bps: ai_bps,
                ..Config::DEFAULT
            },
        )
}

/// A state in the regime, as the law reaches it on a congested path: the fixed point of the
/// capped decrease (iterated from the initial window), a saturated or large dampener, any bank,
/// counter and round position.
fn steady_state(p: &Params, mss: u32, x: &[u64; 6]) -> State {
    let c = p.config();
    let t = c.base_target_ns;
    let mut s = State::default();
    SwiftVaiSf::init(p, &mut s, 1_000_000, mss);
    let ai = super::super::base_ai_pkts_q20(p, t, mss);
    let mut w = s.wref_q20;
    for _ in 0..200 {
        w = super::super::clamp_window(
            p,
            super::super::super::fixed::mul_q16(w, p.loss_factor_q16).saturating_add(ai),
        );
    }
    s.cwnd_q20 = w;
    s.wref_q20 = w;
    s.dampener_q16 = if x[0] % 4 == 0 {
        u32::MAX
    } else {
        (DAMPENER_MAX_Q16 - x[0] % (1 << 24)) as u32
    };
    s.ai_bank = (x[1] % (c.bank_cap + 1)) as u16;
    s.acks_since_dec = (x[2] % c.sf_acks) as u16;
    s.rtt_marker = x[3] as u32;
    s.flags = F_INIT | F_MARKER | if x[4] % 2 == 0 { F_CONGESTED } else { 0 };
    s.max_delay_ns = x[5] % 100_000;
    s.rtt_ns = 20_000;
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// What the C fast path relies on, ACK by ACK, on the law itself: from a granted state, an
    /// ACK with a delay of at least `D_fast` (not delayed, not application-limited, same MSS)
    /// leaves the window and the reference, enforces to one packet at `w·mss/RTT` (Swift Alg. 1
    /// line 30, computed here in u128), keeps the lease's terms, and changes the bookkeeping as
    /// SL Alg. 1 and 2 say (the RTT, the RTT's largest delay and flag, the SF counter and its
    /// debit, the mint and the dampener at the RTT's end), computed here from the paper's
    /// formulas.
    #[test]
    fn regime_keeps_the_decision(
        c in arb_config(),
        mss in prop_oneof![Just(1448u32), 512u32..=9000],
        x in proptest::array::uniform6(any::<u64>()),
        acks in proptest::collection::vec((0u64..100_000, 0u32..4, 0u32..4, any::<bool>()), 1..60),
    ) {
        let Ok(p) = Params::new(&c) else { return Ok(()); };
        let mut s = steady_state(&p, mss, &x);
        let gen = 7;
        let lease = VaisfLease::grant(&p, &s, mss, gen, false);
        prop_assume!(lease.gen == gen);
        let mut una = x[3] as u32; // the marker: the first ACK may end the round
        let mut nxt = una.wrapping_add(mss);
        for (i, &(extra, adv, ahead, clamp_zero)) in acks.iter().enumerate() {
            let d = (u64::from(lease.d_fast_ns)).div_ceil(1000).saturating_add(extra) * 1000;
            prop_assume!(d / 1000 <= VAISF_RTT_US_MAX);
            una = una.wrapping_add(adv * mss);
            nxt = nxt.max(una).wrapping_add(ahead * mss);
            let before = s;
            let ev = AckEvent {
                now_ns: 1_000_000 + i as u64,
                rtt_ns: d,
                mss_bytes: mss,
                acked_bytes: adv * mss,
                snd_una: una,
                snd_nxt: nxt,
                flags: ACK_HAS_RTT,
                ..AckEvent::default()
            };
            let (mut dec, mut e, mut l2) = (MaybeUninit::uninit(), MaybeUninit::uninit(), VaisfLease::default());
            let clamp = if clamp_zero { 0 } else { 64 };
            let (_, e) = on_ack_leased(&p, &mut s, &ev, 30, clamp, &mut l2, gen, &mut dec, &mut e);
            // The decision: window kept, one packet at the law's rate.
            let w = before.cwnd_q20;
            prop_assert_eq!(s.cwnd_q20, w);
            prop_assert_eq!(s.wref_q20, w);
            prop_assert_eq!(s.t_last_decrease_ns, before.t_last_decrease_ns);
            let rate = (u128::from(w) * u128::from(mss) * 1_000_000_000
                / (u128::from(d) << 20)) as u64;
            prop_assert_eq!(e.cwnd_pkts, 1);
            prop_assert_eq!(e.pacing_rate_bps, rate.clamp(1, 1 << 40));
            prop_assert_eq!(l2, lease, "the terms are kept");
            // The bookkeeping, from SL Alg. 1 and 2.
            let cfg = p.config();
            prop_assert_eq!(s.rtt_ns, d);
            let meas = before.max_delay_ns.max(d);
            let mut n = before.acks_since_dec.saturating_add(1);
            let mut bank = u64::from(before.ai_bank);
            if u64::from(n) >= cfg.sf_acks {
                bank -= bank.min(cfg.ai_cap); // Alg. 2 lines 3-4 at the SF commit
                n = 0;
            }
            prop_assert_eq!(s.acks_since_dec, n);
            let end = (una.wrapping_sub(before.rtt_marker) as i32) >= 0
                || (nxt.wrapping_sub(before.rtt_marker) as i32) < 0;
            if end {
                let t = cfg.base_target_ns;
                let thresh = t + cfg.token_thresh_extra_ns;
                let num = match cfg.token_numerator {
                    token_numerator::LITERAL => meas,
                    token_numerator::ABOVE_THRESHOLD => meas - thresh,
                    _ => meas - t,
                };
                bank = (bank + num / cfg.ai_div_ns).min(cfg.bank_cap); // Alg. 1 lines 2-3
                let damp = (u64::from(before.dampener_q16) + (meas << 16) / thresh)
                    .min(u64::from(u32::MAX)); // Alg. 1 lines 5-6
                prop_assert_eq!(u64::from(s.dampener_q16), damp);
                prop_assert_eq!(s.max_delay_ns, 0);
                prop_assert_eq!(s.flags & F_CONGESTED, 0);
                prop_assert_eq!(s.rtt_marker, nxt);
            } else {
                prop_assert_eq!(s.dampener_q16, before.dampener_q16);
                prop_assert_eq!(s.max_delay_ns, meas);
                prop_assert_eq!(s.flags & F_CONGESTED, F_CONGESTED);
                prop_assert_eq!(s.rtt_marker, before.rtt_marker);
            }
            prop_assert_eq!(u64::from(s.ai_bank), bank);
            prop_assert!(w < PKT_Q20_ONE);
        }
    }
}

/// Non-vacuity of the property above and the grant's refusals, on the paper's configuration:
/// the steady state is granted, and each premise broken alone refuses.
#[test]
fn grant_table() {
    let p = Params::new(&Config::DEFAULT).unwrap();
    let s = steady_state(&p, 1448, &[0, 5, 3, 77, 1, 9_000]);
    let l = VaisfLease::grant(&p, &s, 1448, 3, false);
    assert_eq!(l.gen, 3);
    assert_eq!(l.d_fast_ns, 13_334); // D* above Token_Thresh + 1 = 9001
    assert_eq!(l.thresh_ns, 9_000);
    assert_eq!(l.num_sub_ns, 5_000);
    assert_eq!(
        (l.ai_div_ns, l.sf_acks, l.ai_cap, l.bank_cap),
        (30, 30, 100, 1_000)
    );
    assert_eq!(l.mss, 1448);
    let no = VaisfLease::default();
    let mut t = s;
    t.flags &= !F_MARKER;
    assert_eq!(VaisfLease::grant(&p, &t, 1448, 3, false), no, "no marker");
    assert_eq!(
        VaisfLease::grant(&p, &s, 1448, 0, false),
        no,
        "generation 0"
    );
    assert_eq!(VaisfLease::grant(&p, &s, 1448, 3, true), no, "in recovery");
    assert_eq!(VaisfLease::grant(&p, &s, 1460, 3, false), no, "another MSS");
    let mut t = s;
    t.retransmit_cnt = 1;
    assert_eq!(VaisfLease::grant(&p, &t, 1448, 3, false), no, "RTO pending");
    let mut t = s;
    t.cwnd_q20 += 1;
    assert_eq!(
        VaisfLease::grant(&p, &t, 1448, 3, false),
        no,
        "cwnd off the reference"
    );
    let mut t = s;
    t.wref_q20 += 1;
    t.cwnd_q20 += 1;
    assert_eq!(
        VaisfLease::grant(&p, &t, 1448, 3, false),
        no,
        "not the fixed point"
    );
    let mut t = s;
    t.acks_since_dec = 30;
    assert_eq!(
        VaisfLease::grant(&p, &t, 1448, 3, false),
        no,
        "SF counter at its commit"
    );
    let mut t = s;
    t.dampener_q16 = 0;
    assert_eq!(
        VaisfLease::grant(&p, &t, 1448, 3, false),
        no,
        "tokens multiply AI"
    );
    let sf_off = Params::new(&Config {
        sf_acks: 0,
        ..Config::DEFAULT
    })
    .unwrap();
    assert_eq!(VaisfLease::grant(&sf_off, &s, 1448, 3, false), no, "SF off");
    let segs = Params::new(&Config {
        sf_count_segments: 1,
        ..Config::DEFAULT
    })
    .unwrap();
    assert_eq!(
        VaisfLease::grant(&segs, &s, 1448, 3, false),
        no,
        "SF counts segments"
    );
    // One packet or more: the rate is the kernel's, not the law's.
    let big = Params::new(&Config {
        base_ai_bps: 250_000_000,
        ..Config::DEFAULT
    })
    .unwrap();
    let sb = steady_state(&big, 1448, &[0, 5, 3, 77, 1, 9_000]);
    assert!(sb.cwnd_q20 >= PKT_Q20_ONE);
    assert_eq!(
        VaisfLease::grant(&big, &sb, 1448, 3, false),
        no,
        "a packet or more"
    );
}
