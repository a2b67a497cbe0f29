//! Sampling the time series ([`Series`]) of a run: one row every `sample_ns`, shared by both
//! event loops ([`crate::engine`] and [`crate::xpass`]), which differ only in where a flow's
//! window and rate and a port's queue come from.

use crate::engine::Series;
use crate::stats::Jain;

/// What a sample needs of a flow.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FlowAt {
    /// Bytes received so far.
    pub rx_bytes: u64,
    /// The flow has started.
    pub started: bool,
    /// Start time, ns.
    pub start_ns: u64,
    /// The flow has finished.
    pub done: bool,
    /// Finish time, ns (valid when `done`).
    pub finish_ns: u64,
}

impl Series {
    /// Append the flows' row at `now_ns` for the interval of `dt_ns` before it: each flow's
    /// goodput since its `last_rx` (updated), the total, and Jain's index over the flows active
    /// for the whole interval (started by its start, not finished before its end; NaN when
    /// none). Traced flows (the first `flow_bps.len()`) also get `traced(i)` = (window bytes,
    /// rate bits/s).
    pub(crate) fn sample_flows(
        &mut self,
        now_ns: u64,
        dt_ns: u64,
        last_rx: &mut [u64],
        flows: impl Iterator<Item = FlowAt>,
        mut traced: impl FnMut(usize) -> (f64, f64),
    ) {
        let t0 = now_ns.saturating_sub(dt_ns);
        self.t_ns.push(now_ns);
        let (mut fair, mut total) = (Jain::default(), 0.0);
        for ((i, f), last) in flows.enumerate().zip(last_rx.iter_mut()) {
            let bytes = f.rx_bytes - *last;
            *last = f.rx_bytes;
            let bps = bytes as f64 * 8e9 / dt_ns as f64;
            total += bps;
            if i < self.flow_bps.len() {
                let (cwnd_bytes, rate_bps) = traced(i);
                self.flow_bps[i].push(bps);
                self.flow_rx_bytes[i].push(bytes);
                self.flow_cwnd_bytes[i].push(cwnd_bytes);
                self.flow_rate_bps[i].push(rate_bps);
            }
            let active = f.started && f.start_ns <= t0 && (!f.done || f.finish_ns >= now_ns);
            if active {
                fair.push(bps);
            }
        }
        self.jain.push(fair.value().unwrap_or(f64::NAN));
        self.active.push(fair.count() as u32);
        self.total_bps.push(total);
    }

    /// Append monitored port `k`'s row: its queue now, the largest since the previous sample,
    /// and its bytes transmitted so far.
    pub(crate) fn sample_port(
        &mut self,
        k: usize,
        queue_bytes: u64,
        max_bytes: u64,
        tx_bytes: u64,
    ) {
        self.queue_bytes[k].push(queue_bytes);
        self.queue_max_bytes[k].push(max_bytes);
        self.port_tx_bytes[k].push(tx_bytes);
    }
}
