//! Flow-size distributions, Poisson flow arrivals, and the "distributed file system" file
//! requests (PowerTCP §4.1's synthetic incast).

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

/// The "distributed file system" requests of PowerTCP §4.1 ("each server requests a file from
/// a set of servers chosen uniformly at random from a different rack. All the servers which
/// receive the request respond at the same time by transmitting the requested part of the
/// file"; the artifact: Poisson requests per server, fan-in 10, each responder sending
/// size/10; spec §6.1).
#[derive(Clone, Copy, Debug)]
pub struct FileRequests {
    /// Poisson request rate per requesting host, per second.
    pub rate_per_s: f64,
    /// File size S, bytes: the responders' parts sum to it.
    pub size_bytes: u64,
    /// Responders per request.
    pub fan_in: u32,
    /// Requests from, ns.
    pub start_ns: u64,
    /// Requests until (exclusive), ns.
    pub stop_ns: u64,
}

/// The flows of `req`'s requests: each host of `requesters` draws Poisson request times at
/// `rate_per_s` in [start_ns, stop_ns); each request picks `fan_in` distinct responders
/// uniformly among the hosts whose rack (`rack_of[host]`, any id per access switch) differs
/// from the requester's, and each responder sends its part to the requester at the request
/// time: `size_bytes / fan_in` bytes, the first `size_bytes % fan_in` responders one byte more,
/// so a request's flows carry exactly S. `None` if some requester has fewer than `fan_in`
/// hosts outside its rack. Sorted by start time, then source (deterministic).
pub fn file_requests(
    rng: &mut Rng,
    requesters: &[u32],
    rack_of: &[u32],
    req: &FileRequests,
) -> Option<Vec<GenFlow>> {
    let mean_gap_ns = 1e9 / req.rate_per_s;
    let fan_in = req.fan_in as usize;
    let part = req.size_bytes / u64::from(req.fan_in.max(1));
    let extra = (req.size_bytes % u64::from(req.fan_in.max(1))) as usize;
    let mut out = Vec::new();
    let mut others: Vec<u32> = Vec::new();
    for &dst in requesters {
        let rack = rack_of[dst as usize];
        others.clear();
        others.extend((0..rack_of.len() as u32).filter(|&h| rack_of[h as usize] != rack));
        if others.len() < fan_in {
            return None;
        }
        let mut t = req.start_ns as f64;
        loop {
            t += rng.exp(mean_gap_ns);
            if t >= req.stop_ns as f64 {
                break;
            }
            // A partial Fisher-Yates shuffle: the first `fan_in` of `others` become a uniform
            // sample without replacement.
            for i in 0..fan_in {
                let j = i + rng.below((others.len() - i) as u64) as usize;
                others.swap(i, j);
                let bytes = part + u64::from(i < extra);
                out.push((others[i], dst, bytes, t as u64));
            }
        }
    }
    out.sort_by_key(|&(s, _, _, t)| (t, s));
    Some(out)
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

    /// Four racks of eight hosts (hosts numbered rack by rack, as the fat tree numbers them).
    fn racks() -> Vec<u32> {
        (0..32).map(|h| h / 8).collect()
    }

    fn requests(rate_per_s: f64, size_bytes: u64, fan_in: u32, stop_ns: u64) -> FileRequests {
        FileRequests {
            rate_per_s,
            size_bytes,
            fan_in,
            start_ns: 0,
            stop_ns,
        }
    }

    #[test]
    fn file_requests_fan_in_from_other_racks_with_the_file_size() {
        let rack_of = racks();
        let hosts: Vec<u32> = (0..32).collect();
        // (rate /s, size, fan-in): an even split, a remainder, fan-in 1, the largest fan-in
        // (every host of the three other racks).
        let cases = [
            (1000.0, 2_000_000, 10),
            (1000.0, 1_000_003, 10),
            (500.0, 4_000, 1),
            (200.0, 48_000, 24),
        ];
        for (rate, size, fan_in) in cases {
            let mut r = Rng::new(7);
            let req = requests(rate, size, fan_in, 100_000_000);
            let flows = file_requests(&mut r, &hosts, &rack_of, &req).unwrap();
            // Group by (requester, start): one request each (a requester's Poisson times are
            // distinct almost surely at ns resolution).
            let mut by_req: std::collections::BTreeMap<(u32, u64), Vec<_>> = Default::default();
            for f in &flows {
                by_req.entry((f.1, f.3)).or_default().push(*f);
            }
            for ((dst, _), fs) in &by_req {
                assert_eq!(fs.len(), fan_in as usize, "{rate} {size} {fan_in}");
                let mut srcs: Vec<u32> = fs.iter().map(|f| f.0).collect();
                srcs.sort_unstable();
                srcs.dedup();
                assert_eq!(srcs.len(), fan_in as usize, "distinct responders");
                assert!(srcs
                    .iter()
                    .all(|&s| rack_of[s as usize] != rack_of[*dst as usize]));
                assert_eq!(fs.iter().map(|f| f.2).sum::<u64>(), size);
                let (lo, hi) = (size / u64::from(fan_in), size.div_ceil(u64::from(fan_in)));
                assert!(fs.iter().all(|f| f.2 == lo || f.2 == hi));
            }
            // Request count: Poisson with mean rate × 0.1 s × 32 hosts; within 4 sigma.
            let mean = rate * 0.1 * 32.0;
            let n = by_req.len() as f64;
            assert!((n - mean).abs() < 4.0 * mean.sqrt(), "{n} vs {mean}");
            assert!(flows
                .windows(2)
                .all(|w| (w[0].3, w[0].0) <= (w[1].3, w[1].0)));
        }
    }

    #[test]
    fn file_requests_pick_responders_uniformly() {
        // Host 0 requests 20,000 times with fan-in 4 from the 24 hosts of racks 1-3: each is
        // picked with probability 4/24, so 80,000 picks give 3,333 each (sd about 53).
        let rack_of = racks();
        let mut r = Rng::new(3);
        let req = requests(20_000.0, 4_000, 4, 1_000_000_000);
        let flows = file_requests(&mut r, &[0], &rack_of, &req).unwrap();
        let mut count = [0u32; 32];
        for f in &flows {
            count[f.0 as usize] += 1;
        }
        let n_req = flows.len() as f64 / 4.0;
        for (h, &c) in count.iter().enumerate() {
            if h < 8 {
                assert_eq!(c, 0, "host {h} shares the requester's rack");
            } else {
                let want = n_req * 4.0 / 24.0;
                assert!(
                    (c as f64 - want).abs() < 5.0 * want.sqrt(),
                    "host {h}: {c} vs {want}"
                );
            }
        }
    }

    #[test]
    fn file_requests_refuse_a_fan_in_larger_than_the_other_racks() {
        let rack_of = racks();
        let mut r = Rng::new(1);
        // 24 hosts outside each rack: fan-in 25 cannot be served; one rack only: nothing can.
        assert!(
            file_requests(&mut r, &[0], &rack_of, &requests(10.0, 1000, 25, 1_000_000)).is_none()
        );
        assert!(
            file_requests(&mut r, &[0], &[0; 8], &requests(10.0, 1000, 1, 1_000_000)).is_none()
        );
    }
}
