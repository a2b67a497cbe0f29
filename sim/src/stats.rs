//! The statistics both the simulator's summaries (`metrics.rs`, the sampled series) and the
//! harness's VM tables (`xtask/src/series.rs`, `outputs.rs`) report, defined once:
//!
//! - **Jain's fairness index** of n ≥ 1 values: (Σx)² / (n Σx²), 1 for equal shares, 1/n when
//!   one value takes everything; `None` for no values or all zero ([`jain`], [`Jain`]).
//!   [`fairness`] is what a table reports: the index over at least [`MIN_FAIRNESS_FLOWS`]
//!   flows (one flow is trivially fair to itself).
//! - **Percentiles: nearest rank.** The p-th percentile (p in [0, 100]) of n values is the
//!   value of rank ⌈p/100 · n⌉ in ascending order, the rank clamped to [1, n]: always a value
//!   that was observed, never an interpolation. The median is the 50th percentile, so of an
//!   even count it is the lower of the two middle values. [`percentile`] ignores NaN and
//!   infinite values; [`percentile_sorted`] takes an ascending slice as it is.

/// Fewest values whose fairness a table reports ([`fairness`]).
pub const MIN_FAIRNESS_FLOWS: usize = 2;

/// Jain's index accumulated one value at a time (no allocation: the series sample every flow
/// at every interval).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Jain {
    sum: f64,
    sq: f64,
    n: u64,
}

impl Jain {
    /// Add one value.
    pub fn push(&mut self, x: f64) {
        self.sum += x;
        self.sq += x * x;
        self.n += 1;
    }

    /// Values added so far.
    pub fn count(&self) -> u64 {
        self.n
    }

    /// The index of the values added; `None` for none or all zero.
    pub fn value(&self) -> Option<f64> {
        (self.n > 0 && self.sq > 0.0).then(|| self.sum * self.sum / (self.n as f64 * self.sq))
    }
}

/// Jain's fairness index of `xs` (see the module); `None` for an empty or all-zero input.
pub fn jain(xs: &[f64]) -> Option<f64> {
    let mut j = Jain::default();
    xs.iter().for_each(|&x| j.push(x));
    j.value()
}

/// The fairness a table reports: [`jain`] over at least [`MIN_FAIRNESS_FLOWS`] values.
pub fn fairness(xs: &[f64]) -> Option<f64> {
    if xs.len() < MIN_FAIRNESS_FLOWS {
        None
    } else {
        jain(xs)
    }
}

/// Nearest-rank percentile (`p` in [0, 100]) of an ascending slice; `None` when empty.
pub fn percentile_sorted(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// Nearest-rank percentile (`p` in [0, 100]) of unsorted values, NaN and infinities ignored;
/// `None` when no finite value is left.
pub fn percentile(vals: &[f64], p: f64) -> Option<f64> {
    let mut v: Vec<f64> = vals.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(|a, b| a.total_cmp(b));
    percentile_sorted(&v, p)
}

/// The median: the nearest-rank 50th percentile ([`percentile`]).
pub fn median(vals: &[f64]) -> Option<f64> {
    percentile(vals, 50.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn jain_cases() {
        let cases: &[(&[f64], Option<f64>)] = &[
            (&[1.0, 1.0, 1.0, 1.0], Some(1.0)),
            (&[1.0, 0.0, 0.0, 0.0], Some(0.25)),
            (&[1.0, 0.0], Some(0.5)),
            (&[2.0, 1.0], Some(0.9)),
            (&[5.0], Some(1.0)),
            (&[], None),
            (&[0.0, 0.0], None),
        ];
        for &(xs, want) in cases {
            match (jain(xs), want) {
                (Some(g), Some(w)) => assert!((g - w).abs() < 1e-12, "{xs:?}: {g} != {w}"),
                (g, w) => assert_eq!(g, w, "{xs:?}"),
            }
        }
        assert_eq!(fairness(&[5.0]), None);
        assert_eq!(fairness(&[1.0, 1.0]), Some(1.0));
    }

    #[test]
    fn percentile_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        // (values, p, expected)
        let cases: &[(&[f64], f64, Option<f64>)] = &[
            (&v, 50.0, Some(50.0)),
            (&v, 99.0, Some(99.0)),
            (&v, 99.9, Some(100.0)),
            (&v, 0.0, Some(1.0)),
            (&v, 100.0, Some(100.0)),
            (&[3.0, 1.0, 2.0], 50.0, Some(2.0)),
            // Even count: the lower middle value.
            (&[4.0, 1.0, 3.0, 2.0], 50.0, Some(2.0)),
            (&[f64::NAN, 7.0, f64::INFINITY], 50.0, Some(7.0)),
            (&[], 50.0, None),
            (&[f64::NAN], 50.0, None),
        ];
        for &(xs, p, want) in cases {
            assert_eq!(percentile(xs, p), want, "{xs:?} p{p}");
        }
        assert_eq!(median(&[10.0, 30.0, 20.0, 40.0]), Some(20.0));
    }

    proptest! {
        /// Jain's index lies in [1/n, 1]; the accumulator equals the slice form.
        #[test]
        fn jain_is_between_one_over_n_and_one(xs in proptest::collection::vec(0.0f64..1e11, 1..64)) {
            if let Some(j) = jain(&xs) {
                let n = xs.len() as f64;
                prop_assert!(j >= 1.0 / n - 1e-12 && j <= 1.0 + 1e-12, "{j} for n={n}");
            }
        }

        /// A percentile is an observed value with at least p % of the values at or below it
        /// and fewer than p % strictly below it; it never decreases with p.
        #[test]
        fn percentile_is_the_nearest_rank(
            xs in proptest::collection::vec(-1e6f64..1e6, 1..50),
            p in 0.0f64..=100.0,
            q in 0.0f64..=100.0,
        ) {
            let v = percentile(&xs, p).unwrap();
            prop_assert!(xs.contains(&v));
            let n = xs.len() as f64;
            let at_or_below = xs.iter().filter(|&&x| x <= v).count() as f64;
            let below = xs.iter().filter(|&&x| x < v).count() as f64;
            prop_assert!(at_or_below >= p / 100.0 * n - 1e-9, "{v}: {at_or_below} of {n}");
            prop_assert!(below < (p / 100.0 * n).max(1.0), "{v}: {below} below of {n}");
            let (lo, hi) = if p <= q { (p, q) } else { (q, p) };
            prop_assert!(percentile(&xs, lo).unwrap() <= percentile(&xs, hi).unwrap());
        }
    }
}
