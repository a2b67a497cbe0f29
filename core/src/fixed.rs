// SPDX-License-Identifier: GPL-2.0-only
//! Fixed-point scales and overflow-free integer helpers shared by every control law.
//!
//! This file uses only `core` and refers to no sibling module, so a kernel module can include it
//! with `#[path = "../../core/src/fixed.rs"] mod fixed;`.
//!
//! Every helper is total: it never panics, never divides by zero and never overflows (it
//! saturates instead, and says so). No floats, no 128-bit integers: where a 64x64-bit product can
//! exceed 64 bits, [`mul_div`] widens by hand into two `u64` halves.

/// Q16 fraction: 65536 = 1.0. Used for multiplicative factors, EWMA weights and ratios.
/// Range: `u32` holds [0, 65535.99]; factors in [0, 1] use at most 17 bits, so a product with any
/// value below 2^47 fits in `u64`.
pub const Q16_SHIFT: u32 = 16;
/// 1.0 in Q16.
pub const Q16_ONE: u64 = 1 << Q16_SHIFT;

/// Q20 packets: 2^20 = one packet. Used for Swift's fractional windows (0.001 packet = 1049).
/// Range: windows are clamped to at most `MAX_CWND_PKTS` (2^20 packets), so a window uses at
/// most 40 bits and a product with a Q16 factor at most 57 bits.
pub const PKT_Q20_SHIFT: u32 = 20;
/// One packet in Q20.
pub const PKT_Q20_ONE: u64 = 1 << PKT_Q20_SHIFT;

/// Q16 bytes: the unit of [`crate`]-level decisions (`Decision::cwnd_bytes_q16`).
/// Range: 2^48 bytes (256 TiB) fit in `u64`; windows are clamped far below that.
pub const BYTES_Q16_SHIFT: u32 = 16;

/// Largest window any law may output, in packets (2^20 = 1,048,576 packets; 1.5 GB at 1500 B).
pub const MAX_CWND_PKTS: u64 = 1 << 20;

/// Nanoseconds per second.
pub const NS_PER_S: u64 = 1_000_000_000;
/// Nanoseconds per microsecond.
pub const NS_PER_US: u64 = 1_000;

/// Largest RTT or delay sample the laws accept, in ns (10 s). Larger samples (a bogus value, a
/// clock jump, an "RTT of hours" from the network) are clamped to this, which keeps every
/// `delay << 16` product below 2^50.
pub const MAX_DELAY_NS: u64 = 10 * NS_PER_S;

/// Largest pacing rate any law outputs, bytes per second (2^40 B/s = 8.8 Tbit/s). Keeps
/// `rate * Q16 factor` below 2^57.
pub const MAX_RATE_BPS: u64 = 1 << 40;

/// Largest MSS the laws accept, bytes (64 KiB, an IPv6 jumbogram bound for TSO-free paths).
pub const MAX_MSS_BYTES: u32 = 1 << 16;

/// `a * b / d`, rounded down, saturating at `u64::MAX`; `d == 0` gives `u64::MAX` for `a*b > 0`
/// and 0 otherwise ("infinitely large", never a trap).
///
/// The product is formed in two 64-bit halves (no `u128`, which kernel Rust cannot divide), so
/// any inputs are safe. The fast path is one `checked_mul` and one division, inlined at every
/// call (issue #13: out of line, the kernel's build paid a call and register saves for each of
/// a Swift ACK's half-dozen); the 128-bit path stays out of line.
#[inline(always)]
pub fn mul_div(a: u64, b: u64, d: u64) -> u64 {
    if d == 0 {
        return if a == 0 || b == 0 { 0 } else { u64::MAX };
    }
    if let Some(p) = a.checked_mul(b) {
        return p.checked_div(d).unwrap_or(u64::MAX); // d != 0 checked above
    }
    mul_div_wide(a, b, d)
}

/// [`mul_div`] when `a * b` overflows 64 bits (`d != 0`).
#[inline(never)]
fn mul_div_wide(a: u64, b: u64, d: u64) -> u64 {
    let (hi, lo) = mul_wide(a, b);
    if hi >= d {
        return u64::MAX; // the quotient does not fit in 64 bits
    }
    div_wide(hi, lo, d)
}

/// Full 64x64 -> 128-bit product as `(high, low)` halves, from four 32x32 products.
fn mul_wide(a: u64, b: u64) -> (u64, u64) {
    const M32: u64 = 0xffff_ffff;
    let (a_lo, a_hi) = (a & M32, a >> 32);
    let (b_lo, b_hi) = (b & M32, b >> 32);
    // Each partial product is < 2^64.
    let ll = a_lo.wrapping_mul(b_lo);
    let lh = a_lo.wrapping_mul(b_hi);
    let hl = a_hi.wrapping_mul(b_lo);
    let hh = a_hi.wrapping_mul(b_hi);
    // Middle column: < 3 * 2^32, no overflow.
    let mid = (ll >> 32).wrapping_add(lh & M32).wrapping_add(hl & M32);
    let lo = (ll & M32) | (mid << 32);
    let hi = hh
        .wrapping_add(lh >> 32)
        .wrapping_add(hl >> 32)
        .wrapping_add(mid >> 32);
    (hi, lo)
}

/// `(hi:lo) / d` for `hi < d` (so the quotient fits in 64 bits): restoring binary division,
/// 64 steps. Only reached when `a * b` overflows 64 bits, which the laws avoid on the hot path.
fn div_wide(mut hi: u64, lo: u64, d: u64) -> u64 {
    let mut q: u64 = 0;
    let mut i = 64u32;
    while i > 0 {
        i = i.wrapping_sub(1); // i > 0 in the loop
        let carry = hi >> 63;
        hi = (hi << 1) | ((lo >> i) & 1);
        q <<= 1;
        // With `carry` set the shifted remainder is >= 2^64 > d.
        if carry == 1 || hi >= d {
            hi = hi.wrapping_sub(d);
            q |= 1;
        }
    }
    q
}

/// [`mul_div`] with its fast path inlined, for a hot caller whose product fits in 64 bits
/// (issue #13: θ-PowerTCP's window update calls it three times). One multiplication and one
/// division when `a * b` fits and `d != 0`, which is exactly where `mul_div` returns `a * b / d`;
/// otherwise the call. So the value is `mul_div`'s for every input (test
/// `mul_div_fits_equals_mul_div`); only the cost differs.
#[inline(always)]
pub fn mul_div_fits(a: u64, b: u64, d: u64) -> u64 {
    match a.checked_mul(b) {
        Some(product) => match product.checked_div(d) {
            Some(quotient) => quotient,
            None => mul_div(a, b, d), // d == 0
        },
        None => mul_div(a, b, d),
    }
}

/// Multiply by a Q16 factor, rounding down: `v * f_q16 >> 16`, saturating.
pub fn mul_q16(v: u64, f_q16: u64) -> u64 {
    match v.checked_mul(f_q16) {
        Some(p) => p >> Q16_SHIFT,
        None => mul_div(v, f_q16, Q16_ONE),
    }
}

/// `a / b`, or `u64::MAX` when `b == 0` (a ratio with a zero denominator is "infinite").
pub fn div_or_max(a: u64, b: u64) -> u64 {
    a.checked_div(b)
        .unwrap_or(if a == 0 { 0 } else { u64::MAX })
}

/// `ISQRT_SEED[t] = floor(sqrt(t) * 16) = floor(sqrt(256 t))` for `t < 256`: the seed of
/// [`isqrt`]. At most `floor(16 sqrt(255)) = 255`, so `u8` would do; `u16` keeps the shift
/// below simple. The test `isqrt_seed_table` recomputes every entry bit by bit.
#[rustfmt::skip]
const ISQRT_SEED: [u16; 256] = [
    0, 16, 22, 27, 32, 35, 39, 42, 45, 48, 50, 53, 55, 57, 59, 61,
    64, 65, 67, 69, 71, 73, 75, 76, 78, 80, 81, 83, 84, 86, 87, 89,
    90, 91, 93, 94, 96, 97, 98, 99, 101, 102, 103, 104, 106, 107, 108, 109,
    110, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 122, 123, 124, 125, 126,
    128, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 142,
    143, 144, 144, 145, 146, 147, 148, 149, 150, 150, 151, 152, 153, 154, 155, 155,
    156, 157, 158, 159, 160, 160, 161, 162, 163, 163, 164, 165, 166, 167, 167, 168,
    169, 170, 170, 171, 172, 173, 173, 174, 175, 176, 176, 177, 178, 178, 179, 180,
    181, 181, 182, 183, 183, 184, 185, 185, 186, 187, 187, 188, 189, 189, 190, 191,
    192, 192, 193, 193, 194, 195, 195, 196, 197, 197, 198, 199, 199, 200, 201, 201,
    202, 203, 203, 204, 204, 205, 206, 206, 207, 208, 208, 209, 209, 210, 211, 211,
    212, 212, 213, 214, 214, 215, 215, 216, 217, 217, 218, 218, 219, 219, 220, 221,
    221, 222, 222, 223, 224, 224, 225, 225, 226, 226, 227, 227, 228, 229, 229, 230,
    230, 231, 231, 232, 232, 233, 234, 234, 235, 235, 236, 236, 237, 237, 238, 238,
    239, 240, 240, 241, 241, 242, 242, 243, 243, 244, 244, 245, 245, 246, 246, 247,
    247, 248, 248, 249, 249, 250, 250, 251, 251, 252, 252, 253, 253, 254, 254, 255,
];

/// Integer square root, rounded down (`isqrt(u64::MAX) = 2^32 - 1`): Newton's iteration
/// `x' = (x + v/x) / 2` from a seed read off a 256-entry table by the leading 7-8 bits of `v`.
///
/// Seed: `v = t * 4^k + rest` with `t = v >> 2k` in `[64, 256)` (or `k = 0`, `t = v` for
/// `v < 256`), and `a = floor(floor(16 sqrt(t)) * 2^k / 16)`: at least 1, and for `k >= 4`
/// (`v >= 2^14`) below `sqrt(v)` by less than `1/128` (the table's floor) plus `sqrt(1 + 1/64)
/// - 1 < 0.8 %` (the bits dropped from `v`). The first step from any `a >= 1` gives
/// `x1 = floor((a + floor(v/a)) / 2) >= floor(sqrt(v))` (the integer arithmetic-geometric mean
/// bound), with a relative error of about `e^2 / 2` for a seed error `e`: below 1e-4 here.
/// From any start at or above `floor(sqrt(v))` the iterates fall strictly until they reach
/// `floor(sqrt(v))`, where the next one is not smaller: that is the stop. So 3 or 4 divisions
/// (the first step, one or two more, the stop check) instead of up to 6 from a power-of-two
/// seed (issue #13; core/tests/isqrt.rs checks it against the bitwise method).
/// `u64::isqrt` is only stable from Rust 1.84, newer than the kernel's minimum.
///
/// Overflow: `a <= 255 * 2^28 / 16 < 2^32` and `a >= sqrt(v) / 2` (`a >= 1` for `v < 2^14`),
/// so `a + v / a <= 2^32 + 2 * 2^32`; once `x >= floor(sqrt(v))` the iterates stay at most
/// `x1 < 2^34` and `v / x <= 2^32`: every sum is far below 2^64. The divisor is never 0 (`a >=
/// 1`, and `x >= floor(sqrt(v)) >= 1` for `v >= 2`).
pub fn isqrt(v: u64) -> u64 {
    if v < 2 {
        return v;
    }
    let bits = 64u32.wrapping_sub(v.leading_zeros()); // 2..=64 since v >= 2
                                                      // k = half the even shift that leaves 7 or 8 leading bits (0 for v < 256).
    let k = if bits > 8 {
        bits.wrapping_sub(7) >> 1
    } else {
        0
    }; // <= 28
    let t = (v >> k.wrapping_mul(2)) as usize; // < 256
    let seed = *ISQRT_SEED.get(t).unwrap_or(&255) as u64; // 16 sqrt(t) >= 16 sqrt(2) > 22
    newton_sqrt(v, (seed << k) >> 4) // seed << k >> 4 >= 1
}

/// `floor(sqrt(v))` by Newton's iteration from a seed `a` in `[1, 2^32]` (see [`isqrt`]: the
/// first step lands at or above the root, the rest fall to it). `v >= 2`.
fn newton_sqrt(v: u64, a: u64) -> u64 {
    let a = if a == 0 { 1 } else { a };
    let mut x = a.wrapping_add(v.checked_div(a).unwrap_or(0)) >> 1; // >= floor(sqrt(v))
    loop {
        let y = x.wrapping_add(v.checked_div(x).unwrap_or(0)) >> 1; // x >= 1
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// `isqrt(v)` when a nearby root is known: `guess` is returned as is when it is
/// `floor(sqrt(v))` (`guess^2 <= v < (guess + 1)^2`, two multiplications, no division), else
/// it seeds Newton's iteration (close seeds need one or two divisions fewer than [`isqrt`]'s
/// table). `guess = 0` means none. Same result as `isqrt(v)` for every input.
///
/// Range: the check is made only for `guess < 2^31`, so `(guess + 1)^2 <= 2^62`; larger
/// guesses (no root of a `u64` exceeds `2^32 - 1`) go to [`isqrt`].
#[inline(always)]
pub fn isqrt_near(v: u64, guess: u64) -> u64 {
    if v < 2 || guess == 0 || guess >= 1 << 31 {
        return isqrt(v);
    }
    let next = guess.wrapping_add(1);
    if guess.wrapping_mul(guess) <= v && next.wrapping_mul(next) > v {
        return guess;
    }
    newton_sqrt(v, guess)
}

/// Exponentially weighted moving average with the weight of the *new* sample in Q16:
/// `old + (new - old) * w`, computed without signed overflow for any `u64` inputs and rounded
/// toward the old value (so a constant input is a fixed point). `w_q16` is clamped to 1.0.
pub fn ewma(old: u64, new: u64, w_new_q16: u64) -> u64 {
    let w = if w_new_q16 > Q16_ONE {
        Q16_ONE
    } else {
        w_new_q16
    };
    if new >= old {
        old.saturating_add(mul_q16(new.wrapping_sub(old), w)) // new >= old
    } else {
        // old > new and the step is at most old - new.
        old.wrapping_sub(mul_q16(old.wrapping_sub(new), w))
    }
}

/// Signed EWMA, new-sample weight in Q16: `old + (new - old) * w`, saturating, rounding toward
/// zero symmetrically so negative and positive inputs carry no bias.
pub fn ewma_signed(old: i64, new: i64, w_new_q16: u64) -> i64 {
    let w = if w_new_q16 > Q16_ONE {
        Q16_ONE
    } else {
        w_new_q16
    };
    // |new - old| < 2^64 always fits in u64 when formed in two's complement.
    let up = new >= old;
    let dist = if up {
        (new as u64).wrapping_sub(old as u64)
    } else {
        (old as u64).wrapping_sub(new as u64)
    };
    let step = mul_q16(dist, w);
    if up {
        old.saturating_add_unsigned(step)
    } else {
        old.saturating_sub_unsigned(step)
    }
}

/// Clamp `v` into `[lo, hi]`; if `lo > hi` the result is `hi` (an upper bound always holds).
pub fn clamp(v: u64, lo: u64, hi: u64) -> u64 {
    if v > hi {
        hi
    } else if v < lo {
        if lo > hi {
            hi
        } else {
            lo
        }
    } else {
        v
    }
}

/// Convert a rate in megabits per second to bytes per second (exact: 1 Mbit/s = 125,000 B/s).
pub const fn mbps_to_bytes_per_s(mbps: u64) -> u64 {
    mbps.saturating_mul(125_000)
}

/// Is TCP sequence number `a` after `b` in modular 32-bit arithmetic (`after()` in tcp.h)?
pub fn seq_after(a: u32, b: u32) -> bool {
    (b.wrapping_sub(a) as i32) < 0
}

/// Is `a` at or after `b` in modular 32-bit arithmetic?
pub fn seq_after_eq(a: u32, b: u32) -> bool {
    (a.wrapping_sub(b) as i32) >= 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mul_div_table() {
        // (a, b, d, expected)
        let cases: &[(u64, u64, u64, u64)] = &[
            (0, 0, 0, 0),
            (5, 0, 0, 0),
            (5, 1, 0, u64::MAX),
            (10, 10, 3, 33),
            (u64::MAX, 2, 4, u64::MAX / 2),
            (u64::MAX, u64::MAX, u64::MAX, u64::MAX),
            (1 << 40, 1 << 40, 1 << 30, 1 << 50),
            (u64::MAX, 3, 2, u64::MAX), // quotient overflows: saturate
            (
                0xdead_beef_cafe,
                0x1234_5678_9abc,
                0x1_0000_0000,
                0x0fd5_bdee_eb29_32a4,
            ), // python
        ];
        for &(a, b, d, want) in cases {
            assert_eq!(mul_div(a, b, d), want, "mul_div({a}, {b}, {d})");
        }
    }

    /// The inlined fast path is `mul_div` for every input: at the 64-bit product boundary,
    /// with `d` 0 and 1, and on a deterministic sweep of every magnitude.
    #[test]
    fn mul_div_fits_equals_mul_div() {
        let edges: &[(u64, u64, u64)] = &[
            (0, 0, 0),
            (5, 1, 0),
            (1 << 32, 1 << 32, 1),       // 2^64: overflows by one
            ((1 << 32) - 1, 1 << 32, 1), // 2^64 - 2^32: fits
            (u64::MAX, 1, 1),
            (u64::MAX, 2, 3),
            (1 << 47, 1 << 16, 655),        // window_update's bound
            (1 << 32, (1 << 32) - 1, 1000), // norm_power_q16's bound
            ((1 << 32) - 1, 1 << 16, 1),    // grad_factor_q16's bound
        ];
        for &(a, b, d) in edges {
            assert_eq!(mul_div_fits(a, b, d), mul_div(a, b, d), "({a}, {b}, {d})");
        }
        let mut x: u64 = 0x2545_f491_4f6c_dd1d;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let a = x >> (x % 64);
            let b = x.rotate_left(23) >> (x % 61);
            let d = x.rotate_left(7) >> ((x >> 8) % 64);
            assert_eq!(mul_div_fits(a, b, d), mul_div(a, b, d), "({a}, {b}, {d})");
        }
    }

    #[test]
    fn isqrt_seed_table() {
        for (t, &seed) in ISQRT_SEED.iter().enumerate() {
            // floor(sqrt(256 t)) by the bitwise method, independent of isqrt
            let v = 256 * t as u64;
            let mut root = 0u64;
            for b in (0..9).rev() {
                let trial = root | (1 << b);
                if trial * trial <= v {
                    root = trial;
                }
            }
            assert_eq!(seed as u64, root, "t = {t}");
        }
    }

    #[test]
    fn isqrt_table() {
        let cases: &[(u64, u64)] = &[
            (0, 0),
            (1, 1),
            (3, 1),
            (4, 2),
            (1 << 20, 1 << 10),
            ((1 << 20) - 1, 1023),
            (u64::MAX, (1 << 32) - 1),
            (1_000_000_000_000, 1_000_000),
        ];
        for &(v, want) in cases {
            assert_eq!(isqrt(v), want, "isqrt({v})");
        }
    }

    #[test]
    fn ewma_table() {
        // (old, new, w_q16, expected)
        let cases: &[(u64, u64, u64, u64)] = &[
            (100, 100, 1 << 15, 100),
            (100, 200, 1 << 15, 150),
            (200, 100, 1 << 15, 150),
            (0, u64::MAX, Q16_ONE, u64::MAX),
            (7, 9, 0, 7),
            (7, 9, 10 * Q16_ONE, 9), // weight clamped to 1.0
        ];
        for &(o, n, w, want) in cases {
            assert_eq!(ewma(o, n, w), want, "ewma({o},{n},{w})");
        }
        assert_eq!(ewma_signed(-100, 100, 1 << 15), 0);
        assert_eq!(ewma_signed(100, -100, 1 << 15), 0);
        assert_eq!(ewma_signed(i64::MIN, i64::MAX, Q16_ONE), i64::MAX);
    }

    #[test]
    fn seq_compare() {
        assert!(seq_after(1, 0));
        assert!(seq_after(0, u32::MAX));
        assert!(!seq_after(5, 5));
        assert!(seq_after_eq(5, 5));
        assert!(!seq_after_eq(u32::MAX, 0));
    }

    proptest::proptest! {
        #[test]
        fn mul_div_matches_wide_reference(a: u64, b: u64, d in 1u64..) {
            // Reference in u128 is fine in host tests; the core itself never uses it.
            let want = (a as u128 * b as u128) / d as u128;
            let want = if want > u64::MAX as u128 { u64::MAX } else { want as u64 };
            proptest::prop_assert_eq!(mul_div(a, b, d), want);
        }

        #[test]
        fn isqrt_is_floor_sqrt(v: u64) {
            let r = isqrt(v) as u128;
            proptest::prop_assert!(r * r <= v as u128);
            proptest::prop_assert!((r + 1) * (r + 1) > v as u128);
        }

        #[test]
        fn ewma_stays_between(old: u64, new: u64, w in 0u64..=Q16_ONE) {
            let e = ewma(old, new, w);
            proptest::prop_assert!(e >= old.min(new) && e <= old.max(new));
        }
    }
}
