// SPDX-License-Identifier: GPL-2.0-only
//! `fixed::isqrt` (Newton from a table seed, issue #13) and `fixed::isqrt_near` (from a
//! caller's guess) against the bitwise method it
//! replaced, which is kept here as the reference: exhaustive for small values, at every perfect
//! square and its neighbours, at the extremes, and for random values of every magnitude.

use proptest::prelude::*;
use rdcc_core::fixed::{isqrt, isqrt_near};

/// The previous implementation (bit-by-bit, from 2^62): floor(sqrt(v)) for every u64.
fn isqrt_bitwise(v: u64) -> u64 {
    let mut rem = v;
    let mut root: u64 = 0;
    let mut bit: u64 = 1 << 62;
    while bit > rem {
        bit >>= 2;
    }
    while bit != 0 {
        let trial = root + bit;
        if rem >= trial {
            rem -= trial;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    root
}

#[test]
fn small_values_exhaustive() {
    for v in 0..200_000u64 {
        assert_eq!(isqrt(v), isqrt_bitwise(v), "v = {v}");
    }
}

#[test]
fn squares_and_neighbours() {
    for r in (0..=u32::MAX as u64)
        .step_by(65_537)
        .chain([u32::MAX as u64])
    {
        let sq = r * r;
        assert_eq!(isqrt(sq), r, "r = {r}");
        if sq > 0 {
            assert_eq!(isqrt(sq - 1), r - 1, "r = {r}");
        }
        assert_eq!(isqrt(sq + 1), if r == 0 { 1 } else { r }, "r = {r}");
    }
}

#[test]
fn extremes() {
    assert_eq!(isqrt(u64::MAX), (1 << 32) - 1);
    assert_eq!(isqrt(u64::MAX - 1), (1 << 32) - 1);
    assert_eq!(isqrt(1 << 62), 1 << 31);
    assert_eq!(isqrt(1 << 63), isqrt_bitwise(1 << 63));
    for b in 0..64 {
        let v = 1u64 << b;
        assert_eq!(isqrt(v), isqrt_bitwise(v), "2^{b}");
        assert_eq!(isqrt(v - 1), isqrt_bitwise(v - 1), "2^{b} - 1");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]
    #[test]
    fn equals_bitwise(v in any::<u64>(), shift in 0u32..64) {
        let v = v >> shift; // every magnitude, not just ~64-bit values
        prop_assert_eq!(isqrt(v), isqrt_bitwise(v));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]
    /// Any guess (none, the root, near it, far off, above any root) gives the same root.
    #[test]
    fn near_equals_bitwise(v in any::<u64>(), shift in 0u32..64, g in any::<u64>(), d in -3i64..=3) {
        let v = v >> shift;
        let r = isqrt_bitwise(v);
        prop_assert_eq!(isqrt_near(v, 0), r);
        prop_assert_eq!(isqrt_near(v, r), r);
        prop_assert_eq!(isqrt_near(v, r.saturating_add_signed(d)), r);
        prop_assert_eq!(isqrt_near(v, g >> shift), r);
        prop_assert_eq!(isqrt_near(v, g), r);
    }
}

#[test]
fn near_small_values_exhaustive() {
    for v in 0..20_000u64 {
        let r = isqrt_bitwise(v);
        for g in [
            0,
            1,
            2,
            r.saturating_sub(1),
            r,
            r + 1,
            r * 2 + 5,
            1 << 31,
            u64::MAX,
        ] {
            assert_eq!(isqrt_near(v, g), r, "v = {v}, guess {g}");
        }
    }
}
