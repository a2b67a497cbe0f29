//! An ExpressPass output port (switch port or host NIC): a credit class rate-limited by a token
//! bucket to `C * credit / (credit + max data frame)` with a small drop-tail credit queue, and a
//! drop-tail data queue (paper §3.1; the artifact's `XPassDropTail`). Credits go first whenever
//! the bucket holds enough tokens for the head credit; otherwise data is sent; with neither,
//! the port waits for the tokens of the head credit.
//!
//! With a credit queue of 0 the credit class is a policer instead (a switch meter without
//! buffer carving, the spec's §4.7 "simpler alternative"): a credit that finds the tokens it
//! needs on arrival is paid for then and goes out with priority as soon as the wire is free;
//! any other credit is dropped.
//!
//! With `random_credit_drop` a full credit queue drops a credit chosen uniformly at random
//! among the queued ones and the arrival, instead of the arrival: §3.1 "Ensuring fair credit
//! drop": "ExpressPass relies on the uniform random dropping of credit packets at the switch
//! to achieve fairness", which drop-tail only approximates (the paper's remedy is end-host
//! jitter, Fig. 6a; this option is the property itself, for isolating runs).

use crate::rng::splitmix64;
use std::collections::VecDeque;

/// Token unit: one byte of credit is `TOKEN_PER_BYTE` tokens, and the bucket gains
/// `credit_rate_bits_per_s` tokens per ns (1 byte = 8 bits = 8e9 bit-ns). Integer and exact.
pub const TOKEN_PER_BYTE: u64 = 8_000_000_000;

/// A packet of the ExpressPass transport.
#[derive(Clone, Copy, Debug)]
pub struct XPkt {
    /// `KIND_*`.
    pub kind: u8,
    /// Flow index.
    pub flow: u32,
    /// Destination host.
    pub dst: u32,
    /// Bytes on the wire (preamble and inter-frame gap included).
    pub wire: u32,
    /// Data payload bytes (0 for control packets).
    pub payload: u32,
    /// Data: byte offset; NACK: the offset to resend from.
    pub seq: u64,
    /// Credit: its sequence number; data: the echoed one.
    pub credit_seq: u32,
    /// Credit: its send time at the receiver; data: the echoed one, ns.
    pub credit_sent_ns: u64,
}

/// Credit (receiver to sender; the only packet of the credit class).
pub const KIND_CREDIT: u8 = 0;
/// Data (sender to receiver).
pub const KIND_DATA: u8 = 1;
/// CREDIT_REQUEST (sender to receiver, data class).
pub const KIND_REQUEST: u8 = 2;
/// CREDIT_STOP (sender to receiver, data class).
pub const KIND_STOP: u8 = 3;
/// NACK: a hole in the data (receiver to sender, data class).
pub const KIND_NACK: u8 = 4;

/// What the port does next.
pub enum Next {
    /// Transmit this packet now.
    Send(XPkt),
    /// Nothing sendable until the given time (the head credit's tokens).
    WaitUntil(u64),
    /// Both queues empty.
    Idle,
}

/// One output port.
pub struct XPort {
    /// Node at the far end.
    pub peer: u32,
    /// Link rate, bits/s.
    pub rate_bits_per_s: u64,
    /// Propagation delay, ns.
    pub delay_ns: u64,
    /// Data queue limit, bytes (`u64::MAX` for host NICs).
    pub data_limit_bytes: u64,
    /// Credit queue limit, credits.
    pub credit_limit: usize,
    /// Credit class rate, bits/s.
    pub credit_rate_bits_per_s: u64,
    /// Bucket size, tokens.
    pub token_max: u64,
    /// Tokens now (as of `token_clock_ns`).
    pub tokens: u64,
    /// Time of the last token update, ns.
    pub token_clock_ns: u64,
    /// Data-class FIFO.
    pub data_q: VecDeque<XPkt>,
    /// Bytes in the data FIFO.
    pub data_bytes: u64,
    /// Credit FIFO.
    pub credit_q: VecDeque<XPkt>,
    /// Policer mode: credits already paid for, waiting for the wire.
    pub paid_q: VecDeque<XPkt>,
    /// A packet is on the wire.
    pub busy: bool,
    /// A token wake-up is scheduled for this time (0 = none).
    pub wake_at: u64,
    /// Serialization remainder, units of 1/rate ns.
    pub ser_rem: u64,
    /// Data-class packets dropped.
    pub data_drops: u64,
    /// Credits dropped.
    pub credit_drops: u64,
    /// Largest data queue, bytes.
    pub max_data_bytes: u64,
    /// Largest data queue since the last sample, bytes.
    pub max_since_sample: u64,
    /// Bytes transmitted.
    pub tx_bytes: u64,
    /// A full credit queue drops a uniformly random one of its credits and the arrival
    /// (module doc) instead of the arrival (drop-tail).
    pub random_credit_drop: bool,
    /// SplitMix64 state of the random drop (per port, so drop-tail runs draw nothing).
    pub drop_rng_state: u64,
}

impl XPort {
    /// A port; the bucket starts full.
    pub fn new(
        peer: u32,
        rate_bits_per_s: u64,
        delay_ns: u64,
        data_limit_bytes: u64,
        credit_limit: usize,
        credit_frac: (u64, u64),
        bucket_bytes: u64,
    ) -> XPort {
        // §3.1: C * 84 / (84 + 1538); 100 Gbit/s * 84 < 2^64.
        let credit_rate = rate_bits_per_s * credit_frac.0 / credit_frac.1;
        let token_max = bucket_bytes * TOKEN_PER_BYTE;
        XPort {
            peer,
            rate_bits_per_s,
            delay_ns,
            data_limit_bytes,
            credit_limit,
            credit_rate_bits_per_s: credit_rate,
            token_max,
            tokens: token_max,
            token_clock_ns: 0,
            data_q: VecDeque::new(),
            data_bytes: 0,
            credit_q: VecDeque::new(),
            paid_q: VecDeque::new(),
            busy: false,
            wake_at: 0,
            ser_rem: 0,
            data_drops: 0,
            credit_drops: 0,
            max_data_bytes: 0,
            max_since_sample: 0,
            tx_bytes: 0,
            random_credit_drop: false,
            drop_rng_state: 0,
        }
    }

    /// Drop a uniformly random credit among the queued ones and the arrival when the credit
    /// queue is full (§3.1 "uniform random dropping"), seeded with `seed`.
    pub fn with_random_credit_drop(mut self, seed: u64) -> XPort {
        self.random_credit_drop = true;
        self.drop_rng_state = seed;
        self
    }

    /// Enqueue at `now`; returns false when the packet was dropped (drop-tail in its class,
    /// or a credit without tokens in policer mode). With `random_credit_drop` a queued credit
    /// may be dropped in its place (true is returned and `credit_drops` rises).
    pub fn enqueue(&mut self, pkt: XPkt, now: u64) -> bool {
        if pkt.kind == KIND_CREDIT && self.credit_limit == 0 {
            self.refill(now);
            let cost = pkt.wire as u64 * TOKEN_PER_BYTE;
            if self.tokens < cost {
                self.credit_drops += 1;
                return false;
            }
            self.tokens -= cost;
            self.paid_q.push_back(pkt);
            return true;
        }
        if pkt.kind == KIND_CREDIT {
            if self.credit_q.len() >= self.credit_limit {
                self.credit_drops += 1;
                if !self.random_credit_drop {
                    return false;
                }
                // Victim uniform over the `limit` queued credits and the arrival (index
                // `limit`); the modulo bias is below 2^-50 for queues of at most 64.
                let n = self.credit_q.len() as u64 + 1;
                let victim = (splitmix64(&mut self.drop_rng_state) % n) as usize;
                if victim == self.credit_q.len() {
                    return false;
                }
                self.credit_q.remove(victim);
                self.credit_q.push_back(pkt);
                // The arrival is queued and another credit dropped: `credit_drops` rose
                // although this returns true.
                return true;
            }
            self.credit_q.push_back(pkt);
            return true;
        }
        let wire = pkt.wire as u64;
        if self.data_bytes + wire > self.data_limit_bytes {
            self.data_drops += 1;
            return false;
        }
        self.data_q.push_back(pkt);
        self.data_bytes += wire;
        self.max_data_bytes = self.max_data_bytes.max(self.data_bytes);
        self.max_since_sample = self.max_since_sample.max(self.data_bytes);
        true
    }

    fn refill(&mut self, now: u64) {
        let dt = now.saturating_sub(self.token_clock_ns);
        self.token_clock_ns = self.token_clock_ns.max(now);
        if self.credit_rate_bits_per_s == 0 {
            return;
        }
        // Cap the interval at the time to fill the bucket: no overflow, same result.
        let fill_ns = self.token_max / self.credit_rate_bits_per_s + 1;
        let add = dt.min(fill_ns) * self.credit_rate_bits_per_s;
        self.tokens = (self.tokens + add).min(self.token_max);
    }

    /// Pick the next packet (the artifact's `XPassDropTail::deque`).
    pub fn next(&mut self, now: u64) -> Next {
        if let Some(c) = self.paid_q.pop_front() {
            return Next::Send(c);
        }
        self.refill(now);
        if let Some(c) = self.credit_q.front() {
            let cost = c.wire as u64 * TOKEN_PER_BYTE;
            if self.tokens >= cost {
                self.tokens -= cost;
                return Next::Send(self.credit_q.pop_front().expect("front"));
            }
        }
        if let Some(d) = self.data_q.pop_front() {
            self.data_bytes -= d.wire as u64;
            return Next::Send(d);
        }
        match self.credit_q.front() {
            Some(c) if self.credit_rate_bits_per_s > 0 => {
                let need = c.wire as u64 * TOKEN_PER_BYTE - self.tokens;
                Next::WaitUntil(now + need.div_ceil(self.credit_rate_bits_per_s))
            }
            _ => Next::Idle,
        }
    }

    /// Serialization time of `wire` bytes, ns, carrying the remainder so long-run rates are
    /// exact.
    pub fn ser_ns(&mut self, wire: u32) -> u64 {
        let num = wire as u64 * 8_000_000_000 + self.ser_rem;
        self.ser_rem = num % self.rate_bits_per_s;
        num / self.rate_bits_per_s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn credit(wire: u32) -> XPkt {
        XPkt {
            kind: KIND_CREDIT,
            flow: 0,
            dst: 0,
            wire,
            payload: 0,
            seq: 0,
            credit_seq: 0,
            credit_sent_ns: 0,
        }
    }

    #[test]
    fn credit_class_is_paced_at_the_papers_rate_with_a_two_credit_burst() {
        // 10 Gbit/s, 84/1622: 517,879,161 bit/s of credits -> one 84 B credit per 1297.6 ns.
        let mut p = XPort::new(1, 10_000_000_000, 0, u64::MAX, 8, (84, 1622), 168);
        assert_eq!(p.credit_rate_bits_per_s, 517_879_161);
        for _ in 0..8 {
            assert!(p.enqueue(credit(84), 0));
        }
        assert!(!p.enqueue(credit(84), 0), "the 9th credit is dropped");
        assert_eq!(p.credit_drops, 1);
        // A full bucket lets two go at once, then one per 84 * 8e9 / 517,879,161 = 1297.6 ns.
        assert!(matches!(p.next(0), Next::Send(_)));
        assert!(matches!(p.next(0), Next::Send(_)));
        match p.next(0) {
            Next::WaitUntil(t) => assert_eq!(t, 1298),
            _ => panic!("expected a wait"),
        }
        assert!(matches!(p.next(1298), Next::Send(_)));
        // 5 more credits over the next 5 gaps: 100 credits' worth of time sends them all.
        let mut sent = 3;
        let mut t = 1298;
        while sent < 8 {
            match p.next(t) {
                Next::Send(_) => sent += 1,
                Next::WaitUntil(w) => t = w,
                Next::Idle => break,
            }
        }
        assert_eq!(sent, 8);
        // 8 credits: 2 in the burst, 6 paced: the last leaves at ceil(6 * 1297.6) = 7786 ns.
        assert!((7785..=7787).contains(&t), "{t}");
    }

    #[test]
    fn random_credit_drop_picks_its_victim_uniformly_among_queue_and_arrival() {
        // 8 queued credits tagged 0..8, then 9000 arrivals tagged 8.. into the full queue:
        // each arrival drops one of the 9 (queue + itself) with probability 1/9; drop-tail
        // always drops the arrival. Measured: the arrival is dropped in 1/9 of the cases
        // (within ±15 %), and the queue stays full.
        for random in [false, true] {
            let mut p = XPort::new(1, 10_000_000_000, 0, u64::MAX, 8, (84, 1622), 168);
            if random {
                p = p.with_random_credit_drop(7);
            }
            let tagged = |i: u32| XPkt {
                credit_seq: i,
                ..credit(84)
            };
            for i in 0..8 {
                assert!(p.enqueue(tagged(i), 0));
            }
            let mut arrival_dropped = 0;
            for i in 8..9008 {
                if !p.enqueue(tagged(i), 0) {
                    arrival_dropped += 1;
                }
                assert_eq!(p.credit_q.len(), 8);
            }
            assert_eq!(p.credit_drops, 9000);
            if random {
                assert!((850..1150).contains(&arrival_dropped), "{arrival_dropped}");
            } else {
                assert_eq!(arrival_dropped, 9000);
            }
        }
    }

    #[test]
    fn policer_mode_passes_what_the_bucket_holds_and_drops_the_rest() {
        let mut p = XPort::new(1, 10_000_000_000, 0, u64::MAX, 0, (84, 1622), 168);
        // Full bucket: two credits pass at t = 0, the third is dropped at once.
        assert!(p.enqueue(credit(84), 0));
        assert!(p.enqueue(credit(84), 0));
        assert!(!p.enqueue(credit(84), 0));
        assert_eq!(p.credit_drops, 1);
        assert!(matches!(p.next(0), Next::Send(_)));
        assert!(matches!(p.next(0), Next::Send(_)));
        assert!(matches!(p.next(0), Next::Idle));
        // One credit's tokens take 84 * 8e9 / 517,879,161 = 1297.6 ns.
        assert!(!p.enqueue(credit(84), 1297));
        assert!(p.enqueue(credit(84), 1298 + 1297));
    }
}
