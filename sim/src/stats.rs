//! The statistics both the simulator's summaries (`metrics.rs`, the sampled series) and the
//! harness's VM tables (`xtask/src/series.rs`, `outputs.rs`) report, defined once:
//!
//! - **Jain's fairness index** of n ≥ 1 values: (Σx)² / (n Σx²), 1 for equal shares, 1/n when
//!   one value takes everything; `None` for no values or all zero ([`jain`], [`Jain`]).
//!   [`fairness`] is what a table reports: the index over at least [`MIN_FAIRNESS_FLOWS`]
//!   flows (one flow is trivially fair to itself).
//! - **Percentiles: nearest rank.** The p-th percentile (p in [0, 100]) of n values is the
//!   value of rank ⌈p/100 · n⌉ in ascending order, the rank clamped to [1, n]: always a value
//!   that was observed, never an interpolation (the rank is exact where p/100 · n is an
//!   integer: the p99.9 of 1,000 values is the 999th). The median is the 50th percentile, so of an
//!   even count it is the lower of the two middle values. [`percentile`] ignores NaN and
//!   infinite values; [`percentile_sorted`] takes an ascending slice as it is.
//! - **Mean with a 95 % confidence interval** over repeated runs (a sweep's seeds,
//!   [`mean_ci`]): the sample mean x̄, the sample standard deviation s (divisor n − 1) and
//!   x̄ ± t · s / √n with t the 0.975 quantile of Student's t with n − 1 degrees of freedom
//!   ([`t_975`]: [`T_975`] for 1 to 30, the Cornish-Fisher expansion beyond), which assumes the
//!   runs' values are independent and roughly normal. One value has a mean and no interval.

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
    // p/100 is not exact in binary: (99.9/100) x 1000 = 999.0000000000001, whose ceiling would
    // make the p99.9 of 1,000 values their maximum. A product within a relative 1e-12 of an
    // integer is taken as that integer (the rank of the definition, ⌈p/100 · n⌉).
    let x = (p / 100.0) * sorted.len() as f64;
    let near = x.round();
    let rank = if (x - near).abs() <= 1e-12 * x.max(1.0) {
        near
    } else {
        x.ceil()
    } as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// Nearest-rank percentile (`p` in [0, 100]) of unsorted values, NaN and infinities ignored;
/// `None` when no finite value is left.
pub fn percentile(vals: &[f64], p: f64) -> Option<f64> {
    let mut v: Vec<f64> = vals.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(|a, b| a.total_cmp(b));
    percentile_sorted(&v, p)
}

/// The nearest-rank percentile ([`percentile`], `p` in [0, 100]) of several runs' values
/// pooled into one sample, as if one run had produced them all: a sweep's seeds of one
/// configuration. With n values in all, the p99.9 is the largest value only when
/// ⌈0.999 n⌉ = n, i.e. for n ≤ 1000; pooling ten seeds of a hundred flows each gives the
/// 999th of 1000. `None` when no run has a finite value.
pub fn pooled_percentile(runs: &[&[f64]], p: f64) -> Option<f64> {
    let all: Vec<f64> = runs.iter().flat_map(|r| r.iter().copied()).collect();
    percentile(&all, p)
}

/// The empirical CDF of `vals` (NaN and infinities ignored) as plot points (x, F(x)), F(x) =
/// the fraction of values at most x taken at each sorted value: about `max_points` evenly
/// spaced ranks, every rank of the top 1 % (at most `max_points` more: the tail a CDF plot
/// is read for), and the largest value (F = 1). Empty when no finite value is given.
pub fn cdf_points(vals: &[f64], max_points: usize) -> Vec<(f64, f64)> {
    let mut v: Vec<f64> = vals.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    let step = (n / max_points.max(1)).max(1);
    let tail = (n / 100).min(max_points);
    v.iter()
        .enumerate()
        .filter(|(i, _)| i % step == 0 || *i + tail >= n)
        .map(|(i, x)| (*x, (i + 1) as f64 / n as f64))
        .collect()
}

/// The median: the nearest-rank 50th percentile ([`percentile`]).
pub fn median(vals: &[f64]) -> Option<f64> {
    percentile(vals, 50.0)
}

/// The 0.975 quantile of Student's t distribution with 1 to 30 degrees of freedom (index 0 is
/// 1 degree), to 9 decimals: the two-sided 95 % interval's factor. `tests::t_table_is_the_quantile`
/// checks every entry against the distribution function, integrated numerically.
pub const T_975: [f64; 30] = [
    12.706204736,
    4.302652730,
    3.182446305,
    2.776445105,
    2.570581836,
    2.446911851,
    2.364624252,
    2.306004135,
    2.262157163,
    2.228138852,
    2.200985160,
    2.178812830,
    2.160368656,
    2.144786688,
    2.131449546,
    2.119905299,
    2.109815578,
    2.100922040,
    2.093024054,
    2.085963447,
    2.079613845,
    2.073873068,
    2.068657610,
    2.063898562,
    2.059538553,
    2.055529439,
    2.051830516,
    2.048407142,
    2.045229642,
    2.042272456,
];

/// The 0.975 quantile of the standard normal distribution.
pub const Z_975: f64 = 1.959_963_984_540_054;

/// The 0.975 quantile of Student's t with `df` ≥ 1 degrees of freedom: [`T_975`] up to 30, the
/// Cornish-Fisher expansion in 1/df (Abramowitz & Stegun 26.7.5, four terms) beyond, which is
/// within 1e-6 of the quantile there. `None` for 0 degrees of freedom.
pub fn t_975(df: u64) -> Option<f64> {
    match df {
        0 => None,
        1..=30 => Some(T_975[df as usize - 1]),
        _ => Some(t_975_expansion(df as f64)),
    }
}

/// The Cornish-Fisher expansion of [`t_975`] for `v` degrees of freedom.
fn t_975_expansion(v: f64) -> f64 {
    let z = Z_975;
    let g1 = (z.powi(3) + z) / 4.0;
    let g2 = (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / 96.0;
    let g3 = (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / 384.0;
    let g4 = (79.0 * z.powi(9) + 776.0 * z.powi(7) + 1482.0 * z.powi(5)
        - 1920.0 * z.powi(3)
        - 945.0 * z)
        / 92160.0;
    z + g1 / v + g2 / v.powi(2) + g3 / v.powi(3) + g4 / v.powi(4)
}

/// The mean of repeated runs' values with its 95 % confidence interval ([`mean_ci`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanCi {
    /// Values (finite ones).
    pub n: usize,
    /// Sample mean.
    pub mean: f64,
    /// Sample standard deviation (divisor n − 1); `None` for one value.
    pub stddev: Option<f64>,
    /// Half-width of the 95 % interval, t · s / √n; `None` for one value.
    pub ci95_half: Option<f64>,
}

/// Mean, standard deviation and 95 % confidence interval (Student's t, see the module) of the
/// finite values of `xs`, summed in the order given (equal inputs give equal bits); `None`
/// when no value is finite.
pub fn mean_ci(xs: &[f64]) -> Option<MeanCi> {
    let v: Vec<f64> = xs.iter().copied().filter(|x| x.is_finite()).collect();
    let n = v.len();
    if n == 0 {
        return None;
    }
    let mean = v.iter().sum::<f64>() / n as f64;
    if n == 1 {
        return Some(MeanCi {
            n,
            mean,
            stddev: None,
            ci95_half: None,
        });
    }
    let var = v.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64;
    let s = var.sqrt();
    let t = t_975(n as u64 - 1).expect("n >= 2");
    Some(MeanCi {
        n,
        mean,
        stddev: Some(s),
        ci95_half: Some(t * s / (n as f64).sqrt()),
    })
}

#[cfg(test)]
mod tests {
    /// CDF points by hand: 1..=1000 shuffled (and a NaN) with 10 points: every 100th rank
    /// (1, 101, ..., 901: F = 0.001, 0.101, ...) and the top 1 % (991..=1000); none for no
    /// finite value.
    #[test]
    fn cdf_points_cases() {
        let mut vals: Vec<f64> = (1..=1000).rev().map(f64::from).collect();
        vals.push(f64::NAN);
        let pts = super::cdf_points(&vals, 10);
        let mut want: Vec<(f64, f64)> = (0..10)
            .map(|k| (f64::from(100 * k + 1), f64::from(100 * k + 1) / 1000.0))
            .collect();
        want.extend((991..=1000).map(|x| (f64::from(x), f64::from(x) / 1000.0)));
        assert_eq!(pts, want);
        assert!(super::cdf_points(&[f64::NAN], 10).is_empty());
        assert_eq!(
            super::cdf_points(&[2.0, 1.0], 10),
            vec![(1.0, 0.5), (2.0, 1.0)]
        );
    }

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
        let thousand: Vec<f64> = (1..=1000).map(f64::from).collect();
        // (values, p, expected)
        let cases: &[(&[f64], f64, Option<f64>)] = &[
            (&v, 50.0, Some(50.0)),
            (&v, 99.0, Some(99.0)),
            (&v, 99.9, Some(100.0)),
            // 1,000 values: rank ⌈0.999 x 1000⌉ = 999 exactly (not the float product's 1000).
            (&thousand, 99.9, Some(999.0)),
            (&thousand, 99.0, Some(990.0)),
            (&thousand[..999], 99.9, Some(999.0)),
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

    #[test]
    fn pooled_percentile_cases() {
        // Ten seeds of 100 values each, seed k holding 100k+1 ..= 100k+100: the pool is
        // 1 ..= 1000, whose p99.9 is rank ceil(0.999 x 1000) = 999, the value 999 (not the
        // maximum 1000); each seed's own p99.9 is its maximum, rank ceil(99.9) = 100.
        let seeds: Vec<Vec<f64>> = (0..10)
            .map(|k| (1..=100).map(|i| f64::from(100 * k + i)).collect())
            .collect();
        let runs: Vec<&[f64]> = seeds.iter().map(Vec::as_slice).collect();
        for (k, s) in seeds.iter().enumerate() {
            assert_eq!(percentile(s, 99.9), Some(100.0 * k as f64 + 100.0));
        }
        let few: [&[f64]; 2] = [&[3.0, 1.0], &[2.0, f64::NAN]];
        let one_empty: [&[f64]; 2] = [&[], &[5.0]];
        // (runs, p, expected)
        type Case<'a> = (&'a [&'a [f64]], f64, Option<f64>);
        let cases: &[Case] = &[
            (&runs, 99.9, Some(999.0)),
            (&runs, 99.0, Some(990.0)),
            (&runs, 50.0, Some(500.0)),
            (&runs, 100.0, Some(1000.0)),
            // The pool of 3, 1, 2 (NaN ignored): median rank 2 -> 2, p99.9 rank 3 -> 3.
            (&few, 50.0, Some(2.0)),
            (&few, 99.9, Some(3.0)),
            (&one_empty, 99.9, Some(5.0)),
            (&[], 99.9, None),
        ];
        for &(rs, p, want) in cases {
            assert_eq!(pooled_percentile(rs, p), want, "p{p} of {rs:?}");
        }
        // 1001 values: rank ceil(0.999 x 1001) = 1000, below the maximum.
        let mut more = seeds.clone();
        more.push(vec![0.5]);
        let runs: Vec<&[f64]> = more.iter().map(Vec::as_slice).collect();
        assert_eq!(pooled_percentile(&runs, 99.9), Some(999.0));
    }

    /// P(T <= t) of Student's t with `df` degrees of freedom, by Simpson's rule from 0.
    fn t_cdf(t: f64, df: u64) -> f64 {
        // ln Γ(k/2) for an integer k, by Γ(x+1) = xΓ(x) from Γ(1/2) = √π, Γ(1) = 1.
        let ln_gamma_half = |k: u64| -> f64 {
            let (mut g, mut x) = if k % 2 == 0 {
                (0.0, 1.0)
            } else {
                (std::f64::consts::PI.sqrt().ln(), 0.5)
            };
            while x < k as f64 / 2.0 {
                g += f64::ln(x);
                x += 1.0;
            }
            g
        };
        let v = df as f64;
        let c =
            (ln_gamma_half(df + 1) - ln_gamma_half(df)).exp() / (v * std::f64::consts::PI).sqrt();
        let pdf = |x: f64| c * (1.0 + x * x / v).powf(-(v + 1.0) / 2.0);
        let steps = 20_000;
        let h = t / steps as f64;
        let mut sum = pdf(0.0) + pdf(t);
        for i in 1..steps {
            sum += pdf(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 };
        }
        0.5 + sum * h / 3.0
    }

    #[test]
    fn t_table_is_the_quantile() {
        for df in 1..=30u64 {
            let t = t_975(df).unwrap();
            let p = t_cdf(t, df);
            assert!((p - 0.975).abs() < 1e-8, "df {df}: P(T <= {t}) = {p}");
        }
        // The expansion beyond the table, and where it meets the table.
        assert!((t_975_expansion(30.0) - T_975[29]).abs() < 1e-5);
        for df in [31u64, 40, 60, 120, 1000] {
            let t = t_975(df).unwrap();
            let p = t_cdf(t, df);
            assert!((p - 0.975).abs() < 1e-6, "df {df}: P(T <= {t}) = {p}");
        }
        assert_eq!(t_975(0), None);
        assert!(t_975(1_000_000).unwrap() - Z_975 < 1e-5);
    }

    #[test]
    fn mean_ci_cases() {
        // (values, n, mean, stddev, half-width)
        type Case<'a> = (&'a [f64], usize, f64, Option<f64>, Option<f64>);
        let cases: &[Case] = &[
            (&[5.0], 1, 5.0, None, None),
            (&[1.0, 3.0], 2, 2.0, Some(2f64.sqrt()), Some(12.706204736)),
            (
                &[2.0, 4.0, 6.0],
                3,
                4.0,
                Some(2.0),
                Some(4.302652730 * 2.0 / 3f64.sqrt()),
            ),
            (&[7.0, 7.0, 7.0, 7.0], 4, 7.0, Some(0.0), Some(0.0)),
            (
                &[1.0, f64::NAN, 3.0],
                2,
                2.0,
                Some(2f64.sqrt()),
                Some(12.706204736),
            ),
        ];
        for &(xs, n, mean, sd, half) in cases {
            let m = mean_ci(xs).unwrap();
            assert_eq!(m.n, n, "{xs:?}");
            assert!((m.mean - mean).abs() < 1e-12, "{xs:?}: {}", m.mean);
            let close = |a: Option<f64>, b: Option<f64>| match (a, b) {
                (Some(a), Some(b)) => (a - b).abs() < 1e-9,
                (a, b) => a == b,
            };
            assert!(close(m.stddev, sd), "{xs:?}: {:?}", m.stddev);
            assert!(close(m.ci95_half, half), "{xs:?}: {:?}", m.ci95_half);
        }
        assert_eq!(mean_ci(&[]), None);
        assert_eq!(mean_ci(&[f64::INFINITY]), None);
    }

    proptest! {
        /// The mean lies within the values and inside its interval; the interval narrows as
        /// the degrees of freedom grow (t decreases towards z).
        #[test]
        fn mean_ci_brackets(xs in proptest::collection::vec(-1e6f64..1e6, 1..40), df in 1u64..200) {
            let m = mean_ci(&xs).unwrap();
            let lo = xs.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            prop_assert!(m.mean >= lo - 1e-6 && m.mean <= hi + 1e-6);
            prop_assert!(m.ci95_half.unwrap_or(0.0) >= 0.0);
            prop_assert_eq!(m.stddev.is_some(), xs.len() > 1);
            let (a, b) = (t_975(df).unwrap(), t_975(df + 1).unwrap());
            prop_assert!(a > b && b > Z_975, "t({df}) = {a}, t({}) = {b}", df + 1);
        }

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
