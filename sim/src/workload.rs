//! Flow-size distributions and Poisson flow arrivals.

use crate::rng::Rng;

/// A piecewise-linear CDF: (size bytes, cumulative probability) points, ascending.
#[derive(Clone, Debug)]
pub struct Cdf {
    points: Vec<(f64, f64)>,
}

/// Web search (Alizadeh et al., DCTCP; the PowerTCP artifact's `websearch.txt`).
pub const WEBSEARCH: &[(f64, f64)] = &[
    (2000.0, 0.0),
    (2100.0, 0.02),
    (2500.0, 0.05),
    (6000.0, 0.10),
    (10000.0, 0.15),
    (20000.0, 0.20),
    (30000.0, 0.30),
    (50000.0, 0.40),
    (80000.0, 0.53),
    (200000.0, 0.60),
    (1e6, 0.70),
    (2e6, 0.80),
    (5e6, 0.90),
    (1e7, 0.97),
    (3e7, 1.00),
];

/// Facebook Hadoop (the HPCC artifact's `FbHdp_distribution.txt`).
pub const HADOOP: &[(f64, f64)] = &[
    (0.0, 0.0),
    (100.0, 0.01),
    (200.0, 0.02),
    (300.0, 0.05),
    (350.0, 0.15),
    (400.0, 0.20),
    (500.0, 0.30),
    (600.0, 0.40),
    (700.0, 0.50),
    (1000.0, 0.60),
    (2000.0, 0.67),
    (7000.0, 0.70),
    (30000.0, 0.72),
    (50000.0, 0.82),
    (80000.0, 0.87),
    (120000.0, 0.90),
    (300000.0, 0.95),
    (1e6, 0.975),
    (2e6, 0.99),
    (1e7, 1.00),
];

impl Cdf {
    /// A named built-in CDF ("websearch", "hadoop").
    pub fn named(name: &str) -> Option<Cdf> {
        let pts = match name {
            "websearch" => WEBSEARCH,
            "hadoop" => HADOOP,
            _ => return None,
        };
        Some(Cdf {
            points: pts.to_vec(),
        })
    }

    /// Mean of the distribution (linear interpolation between points).
    pub fn mean(&self) -> f64 {
        self.points
            .windows(2)
            .map(|w| (w[1].1 - w[0].1) * (w[0].0 + w[1].0) / 2.0)
            .sum()
    }

    /// Inverse-CDF sample, at least 1 byte.
    pub fn sample(&self, rng: &mut Rng) -> u64 {
        let u = rng.unit();
        let mut prev = self.points[0];
        for &(x, p) in &self.points[1..] {
            if u <= p {
                let span = p - prev.1;
                let frac = if span > 0.0 { (u - prev.1) / span } else { 1.0 };
                return (prev.0 + frac * (x - prev.0)).round().max(1.0) as u64;
            }
            prev = (x, p);
        }
        prev.0.max(1.0) as u64
    }
}

/// One generated flow: (src, dst, size bytes, start ns).
pub type GenFlow = (u32, u32, u64, u64);

/// Poisson arrivals per source host at `load` of `host_rate_bits_per_s`, destinations uniform
/// over the other hosts, sizes from `cdf`, in [start_ns, stop_ns). Sorted by start time, then
/// source (deterministic).
pub fn poisson(
    rng: &mut Rng,
    hosts: &[u32],
    cdf: &Cdf,
    load: f64,
    host_rate_bits_per_s: f64,
    start_ns: u64,
    stop_ns: u64,
) -> Vec<GenFlow> {
    let mean_gap_ns = cdf.mean() * 8.0 / (load * host_rate_bits_per_s) * 1e9;
    let mut out = Vec::new();
    for &src in hosts {
        let mut t = start_ns as f64;
        loop {
            t += rng.exp(mean_gap_ns);
            if t >= stop_ns as f64 {
                break;
            }
            let mut dst = hosts[rng.below(hosts.len() as u64) as usize];
            while dst == src {
                dst = hosts[rng.below(hosts.len() as u64) as usize];
            }
            out.push((src, dst, cdf.sample(rng), t as u64));
        }
    }
    out.sort_by_key(|&(s, _, _, t)| (t, s));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn websearch_mean_matches_the_spec() {
        // Spec §6.4: mean ≈ 1.71 MB under linear interpolation.
        let m = Cdf::named("websearch").unwrap().mean();
        assert!((m - 1.71e6).abs() < 0.02e6, "{m}");
    }

    #[test]
    fn samples_follow_the_cdf() {
        let c = Cdf::named("websearch").unwrap();
        let mut r = Rng::new(9);
        let n = 100_000;
        let xs: Vec<u64> = (0..n).map(|_| c.sample(&mut r)).collect();
        let below_80k = xs.iter().filter(|&&x| x <= 80_000).count() as f64 / n as f64;
        assert!((below_80k - 0.53).abs() < 0.01, "{below_80k}");
        assert!(xs.iter().all(|&x| (2000..=30_000_000).contains(&x)));
    }

    #[test]
    fn poisson_offers_the_requested_load() {
        let c = Cdf::named("websearch").unwrap();
        let mut r = Rng::new(4);
        let hosts: Vec<u32> = (0..16).collect();
        let stop = 2_000_000_000; // 2 s
        let flows = poisson(&mut r, &hosts, &c, 0.5, 10e9, 0, stop);
        let bytes: u64 = flows.iter().map(|f| f.2).sum();
        let offered = bytes as f64 * 8.0 / 2.0 / (16.0 * 10e9);
        assert!((offered - 0.5).abs() < 0.05, "{offered}");
        assert!(flows.iter().all(|f| f.0 != f.1));
    }
}
