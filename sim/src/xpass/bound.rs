//! Eq. 1 (§3.1): the zero-loss data buffer of every port, from the delay spread of the
//! credit-to-data loop, computed over the run's actual flows and (symmetric) paths.
//!
//! The data that reaches an output port `E` on link `a -> b` is authorised by credits that
//! left the credit limiter of the reverse link `b -> a`, which passes at most the link's worth.
//! If the delay from a credit entering that limiter's queue to its data entering `E` ranges
//! over `[d_min, d_max]`, data authorised over `Δd = d_max - d_min` can arrive at once, so `E`
//! needs `C * Δd` bytes (Eq. 1), plus the `bucket_credits` frames the token bucket lets through
//! back to back (a burst the delay spread does not count). Per flow through `E` at data hop `i`
//! of its path (hop 0 is the sender's NIC):
//!
//! ```text
//! d = Σ over the credit hops from link(E) back to the sender:  d_credit ∈ [0, Q·c_max/r_c + F/C]
//!                                                         + credit serialization + propagation
//!   + host delay ∈ [h, h + Δd_host]
//!   + Σ over the data hops before E: data serialization + propagation + d_data ∈ [0, Δd_q + burst_q/C_q]
//! Δd_E = max over flows of d_max - min over flows of d_min        (Eq. 1, reconstructed in the spec)
//! ```
//!
//! At a host NIC the paper sets `Δd = Δd_host` (§3.1 "At NIC, ∆dp is the same as the delay
//! spread of host processing delay"); the same is used here for the data queueing at the
//! sender's NIC. `F/C` is one data frame already on the wire when the credit could leave. In
//! policer mode (`credit_queue = 0`) a credit waits at most for the bucket's other paid credits
//! and that frame. Everything is integer ns and bytes, rounded up.

use super::XpassSim;
use std::collections::BTreeMap;

/// A path as (node, output port) hops.
type Path = Vec<(u32, u16)>;
/// Per flow: (data path from the sender, credit path from the receiver).
type FlowPaths = (Path, Path);

/// One data port's bound.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortBound {
    /// Port name (`from->to`).
    pub name: String,
    /// Delay spread, ns.
    pub spread_ns: u64,
    /// Buffer for zero loss, bytes: `C * spread + bucket frames`.
    pub bytes: u64,
}

impl XpassSim {
    /// Eq. 1's bound for every switch port that carries data of the run's flows.
    pub fn eq1_bounds(&self) -> BTreeMap<(u32, u16), PortBound> {
        let mut memo: BTreeMap<(u32, u16), (u64, u64)> = BTreeMap::new();
        let paths: Vec<FlowPaths> = (0..self.flows.len())
            .map(|f| (self.path(f, true), self.path(f, false)))
            .collect();
        let mut keys: Vec<(u32, u16)> = paths
            .iter()
            .flat_map(|(d, _)| d.iter().copied())
            .filter(|&(n, _)| self.nodes[n as usize].host.is_none())
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys.into_iter()
            .map(|k| {
                let (spread, bytes) = self.port_bound(k, &paths, &mut memo, 0);
                let name = self.nodes[k.0 as usize].names[k.1 as usize].clone();
                (
                    k,
                    PortBound {
                        name,
                        spread_ns: spread,
                        bytes,
                    },
                )
            })
            .collect()
    }

    /// Longest wait of a credit at a port: the queue ahead of it drained at the credit rate
    /// (drop-tail mode; in policer mode the other paid credits of the bucket at line rate),
    /// plus one data frame already on the wire.
    fn credit_queue_ns(&self, node: u32, port: u16, max_credit: u64) -> u64 {
        let p = &self.nodes[node as usize].ports[port as usize];
        let frame = (self.cfg.mss_bytes + self.cfg.header_bytes) as u64;
        let on_wire = (frame * 8_000_000_000).div_ceil(p.rate_bits_per_s);
        if self.cfg.credit_queue == 0 {
            let paid = self.cfg.bucket_credits * max_credit;
            return on_wire + (paid * 8_000_000_000).div_ceil(p.rate_bits_per_s);
        }
        on_wire
            + (self.cfg.credit_queue as u64 * max_credit * 8_000_000_000)
                .div_ceil(p.credit_rate_bits_per_s.max(1))
    }

    fn ser(&self, node: u32, port: u16, bytes: u64) -> u64 {
        let p = &self.nodes[node as usize].ports[port as usize];
        (bytes * 8_000_000_000).div_ceil(p.rate_bits_per_s)
    }

    /// (spread ns, bytes) of data port `e`; `depth` guards against cycles.
    fn port_bound(
        &self,
        e: (u32, u16),
        paths: &[FlowPaths],
        memo: &mut BTreeMap<(u32, u16), (u64, u64)>,
        depth: u32,
    ) -> (u64, u64) {
        if let Some(&v) = memo.get(&e) {
            return v;
        }
        let frame = (self.cfg.mss_bytes + self.cfg.header_bytes) as u64;
        let burst = self.cfg.bucket_credits * frame;
        let rate = self.nodes[e.0 as usize].ports[e.1 as usize].rate_bits_per_s;
        if self.nodes[e.0 as usize].host.is_some() || depth > 64 {
            // §3.1: at a NIC the spread is the host's.
            let s = self.cfg.host_delay_spread_ns;
            let v = (s, (s * rate).div_ceil(8_000_000_000) + burst);
            memo.insert(e, v);
            return v;
        }
        let c_min = (self.cfg.credit_bytes - self.cfg.credit_size_spread) as u64;
        let c_max = (self.cfg.credit_bytes + self.cfg.credit_size_spread) as u64;
        let (mut lo, mut hi) = (u64::MAX, 0u64);
        for (data, credit) in paths {
            let Some(i) = data.iter().position(|&h| h == e) else {
                continue;
            };
            let l = data.len();
            if credit.len() != l {
                continue; // asymmetric: cannot happen with symmetric ECMP (tested)
            }
            // Credit hops from the reverse of data hop i back to the sender.
            let (mut dmin, mut dmax) = (0u64, 0u64);
            for &(n, p) in &credit[l - 1 - i..] {
                let prop = self.nodes[n as usize].ports[p as usize].delay_ns;
                dmin += self.ser(n, p, c_min) + prop;
                dmax += self.ser(n, p, c_max) + prop + self.credit_queue_ns(n, p, c_max);
            }
            dmin += self.cfg.host_delay_ns;
            dmax += self.cfg.host_delay_ns + self.cfg.host_delay_spread_ns;
            for &(n, p) in &data[..i] {
                let prop = self.nodes[n as usize].ports[p as usize].delay_ns;
                let base = self.ser(n, p, frame) + prop;
                let (_, q_bytes) = self.port_bound((n, p), paths, memo, depth + 1);
                dmin += base;
                dmax += base + self.ser(n, p, q_bytes);
            }
            lo = lo.min(dmin);
            hi = hi.max(dmax);
        }
        let spread = hi.saturating_sub(lo);
        let v = (spread, (spread * rate).div_ceil(8_000_000_000) + burst);
        memo.insert(e, v);
        v
    }
}
