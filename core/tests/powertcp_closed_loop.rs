// SPDX-License-Identifier: GPL-2.0-only
//! θ-PowerTCP in closed loop with *delayed* feedback: a single-bottleneck fluid model in which
//! data reaches the queue t_f after it is sent, and an ACK returns with the RTT its data saw
//! (PowerTCP App. A: q̇ = w(t − t_f)/θ − b, Eq. 9; θ = q/b + τ, Eq. 10; f(t) = Γ(t − θ + t_f)).
//!
//! The laws of motion, per step of `H_NS`:
//! - each flow sends min(cwnd/τ · h, cwnd − inflight) bytes (Alg. 2 line 11: paced at cwnd/τ,
//!   never more than the window in flight), at most HostBw · h;
//! - those bytes join the FIFO queue `TF_NS` later; the queue drains at b;
//! - data that arrived at the queue at time a is acknowledged at a + q(a)/b + `TB_NS`, so an ACK
//!   at time t acknowledges everything sent up to the latest s with s + τ + q(s + t_f)/b ≤ t
//!   (FIFO: that departure time is nondecreasing in s), and its RTT sample is t − s;
//! - every flow receives an ACK every `ACK_GAP_NS` while its snd_una advances, carrying that
//!   RTT, snd_una = bytes sent by s, snd_nxt = bytes sent by now (32-bit wrapping sequence).
//!
//! The incast of PowerTCP Fig. 4 at the paper's 25 Gbit/s (§4.1): one long flow, then ten more
//! starting at once at line rate (cwnd_init = HostBw·τ). The paper's outcome: the queue drains
//! and there is no throughput loss.

use rdcc_core::event::{AckEvent, Controller, ACK_HAS_RTT};
use rdcc_core::powertcp::{
    Config, Params, State, ThetaPowerTcp, GRADIENT_PER_ACK, GRADIENT_PER_RTT,
};

type T = ThetaPowerTcp;

/// Integration step, ns.
const H_NS: u64 = 50;
/// Base RTT τ, ns, split into sender → bottleneck (t_f) and bottleneck → sender (t_b).
const TAU_NS: u64 = 20_000;
const TF_NS: u64 = 10_000;
const TB_NS: u64 = TAU_NS - TF_NS;
/// Bottleneck and host rate: 25 Gbit/s = 3.125 bytes/ns.
const B_BYTES_PER_NS: f64 = 3.125;
/// One ACK per flow per µs while data is being acknowledged.
const ACK_GAP_NS: u64 = 1_000;

/// What one run measured after the incast.
#[derive(Debug)]
struct Outcome {
    /// Smallest aggregate window after the incast, in BDPs (b·τ = 62,500 B).
    min_window_bdp: f64,
    /// Bytes the bottleneck could have sent but did not (empty queue, arrivals below b), from
    /// the incast to the end, as a fraction of b × that time.
    lost_fraction: f64,
    /// Largest queue, bytes.
    max_queue: f64,
    /// Mean queue over the last 500 µs, bytes.
    end_queue: f64,
    /// Aggregate window at the end, bytes.
    end_window: f64,
}

/// Run `flows` flows with configuration `c`: flow 0 starts at 0, the others at `incast_ns`;
/// simulate to `end_ns`.
fn incast(c: &Config, flows: usize, incast_ns: u64, end_ns: u64) -> Outcome {
    let p = Params::new(c).expect("valid config");
    let steps = (end_ns / H_NS) as usize + 1;
    let tf = (TF_NS / H_NS) as usize;
    let start: Vec<u64> = (0..flows)
        .map(|i| if i == 0 { 0 } else { incast_ns })
        .collect();
    let mut st = vec![State::default(); flows];
    let mut cwnd = vec![0f64; flows];
    let mut live = vec![false; flows];
    // sent[i][k]: bytes flow i had sent by the end of step k.
    let mut sent = vec![vec![0f64; steps]; flows];
    let mut una = vec![0f64; flows];
    let mut next_ack = vec![0u64; flows];
    // q[k]: queue at the start of step k; rate[k]: bytes sent in step k by all flows.
    let mut q = vec![0f64; steps];
    let mut out_rate = vec![0f64; steps];
    // The latest step whose data has been acknowledged by now (global: one FIFO).
    let mut acked_step = 0usize;
    let (mut min_w, mut lost, mut max_q) = (f64::INFINITY, 0f64, 0f64);
    let (mut end_q, mut end_n) = (0f64, 0u32);
    for k in 0..steps - 1 {
        let now = k as u64 * H_NS;
        // Departure time of data sent in step j: j·h + τ + q(j + t_f)/b.
        let dep = |j: usize, q: &[f64]| -> f64 {
            (j as u64 * H_NS + TF_NS + TB_NS) as f64 + q[j + tf] / B_BYTES_PER_NS
        };
        while acked_step + tf < k && dep(acked_step + 1, &q) <= now as f64 {
            acked_step += 1;
        }
        for i in 0..flows {
            if !live[i] && now >= start[i] {
                live[i] = true;
                cwnd[i] = T::init(&p, &mut st[i], now, 1_000).cwnd_bytes_q16 as f64 / 65536.0;
                next_ack[i] = now + ACK_GAP_NS + (i as u64 * 97) % ACK_GAP_NS;
                // Nothing sent before the start.
                for s in sent[i].iter_mut().take(k) {
                    *s = 0.0;
                }
            }
            let prev = if k == 0 { 0.0 } else { sent[i][k - 1] };
            if !live[i] {
                sent[i][k] = prev;
                continue;
            }
            // ACK: everything sent by step acked_step (if that was after this flow started).
            if now >= next_ack[i] {
                next_ack[i] = now + ACK_GAP_NS;
                let a = sent[i][acked_step];
                if a > una[i] {
                    una[i] = a;
                    let rtt = now - acked_step as u64 * H_NS;
                    let ev = AckEvent {
                        now_ns: now,
                        rtt_ns: rtt,
                        acked_bytes: 1_000,
                        mss_bytes: 1_000,
                        snd_una: a as u64 as u32,
                        snd_nxt: prev as u64 as u32,
                        flags: ACK_HAS_RTT,
                        ..AckEvent::default()
                    };
                    cwnd[i] = T::on_ack(&p, &mut st[i], &ev).cwnd_bytes_q16 as f64 / 65536.0;
                }
            }
            let inflight = prev - una[i];
            let pace = (cwnd[i] / TAU_NS as f64).min(B_BYTES_PER_NS) * H_NS as f64;
            let send = pace.min((cwnd[i] - inflight).max(0.0));
            sent[i][k] = prev + send;
            out_rate[k] += send;
        }
        // The queue: arrivals sent t_f ago, drained at b.
        let arrive = if k >= tf { out_rate[k - tf] } else { 0.0 };
        let cap = B_BYTES_PER_NS * H_NS as f64;
        let next = q[k] + arrive - cap;
        if now >= incast_ns + TAU_NS {
            if next < 0.0 {
                lost += -next;
            }
            let w: f64 = cwnd.iter().sum();
            min_w = min_w.min(w);
        }
        q[k + 1] = next.max(0.0);
        max_q = max_q.max(q[k + 1]);
        if now + 500_000 >= end_ns {
            end_q += q[k + 1];
            end_n += 1;
        }
    }
    let bdp = B_BYTES_PER_NS * TAU_NS as f64;
    Outcome {
        min_window_bdp: min_w / bdp,
        lost_fraction: lost / (B_BYTES_PER_NS * (end_ns - incast_ns - TAU_NS) as f64),
        max_queue: max_q,
        end_queue: end_q / f64::from(end_n.max(1)),
        end_window: cwnd.iter().sum(),
    }
}

/// PowerTCP §4.1 parameters at 25 Gbit/s: γ = 0.9, τ = 20 µs, HostBw = 25 Gbit/s, window cap
/// HostBw·τ, N expected flows (β = HostBw·τ/N).
fn config(n: u64, mode: u32) -> Config {
    Config {
        base_rtt_ns: TAU_NS,
        host_bw_bps: 3_125_000_000,
        expected_flows: n,
        max_cwnd_bytes: 0,
        gradient_mode: mode,
        ..Config::DEFAULT
    }
}

/// The 10:1 incast (11 flows, 10 starting at once) for N = 10 and N = 50, with both gradient
/// cadences. Paper (PowerTCP §4.2, Fig. 4): the queue drains and there is no throughput loss.
/// Here: the bottleneck leaves less than 1 % of its capacity unused from one τ after the
/// incast to the end (2.48 ms), and the queue of the last 0.5 ms is Thm. 1's Σβ within 25 %
/// (plus 2 KB).
///
/// Why 1 % and not 0: θ-PowerTCP reads the arrival rate λ/b as 1 + θ̇ with θ̇ the RTT's change
/// per unit of *ACK* time (Alg. 2 line 18). For a FIFO queue that is (λ − b)/λ, so 1 + θ̇ =
/// 2 − b/λ: exact at λ = b, too small below it. While the incast's queue drains (λ → 0) it is
/// negative and the floor 0.5 (spec §2.4) holds Γ at 0.5·θ/τ where the true power is near 0,
/// and the windows undershoot once: at N = 50 (β = 1.25 KB) the bottleneck idles for 8-20 µs.
/// Pairing every update with the current window instead (the law before issue #12) lost
/// 2.1-2.2 % at N = 50, its aggregate window fell to 0.41-0.75 BDP, and with the per-RTT
/// gradient its queue did not settle (25.9 KB against Σβ = 13.75 KB).
#[test]
fn incast_10_to_1_no_throughput_loss_with_delayed_feedback() {
    let mut bad = Vec::new();
    for mode in [GRADIENT_PER_RTT, GRADIENT_PER_ACK] {
        for n in [10u64, 50] {
            let o = incast(&config(n, mode), 11, 500_000, 3_000_000);
            println!("mode {mode} N {n}: {o:?}");
            let beta = 62_500.0 / n as f64;
            if o.lost_fraction >= 0.01 {
                bad.push(format!(
                    "mode {mode} N {n}: {:.2} % of the bottleneck's capacity unused \
                     (aggregate window down to {:.2} BDP)",
                    o.lost_fraction * 100.0,
                    o.min_window_bdp
                ));
            }
            // Thm. 1: q_e = Σβ = 11 β.
            let qe = 11.0 * beta;
            if (o.end_queue - qe).abs() > 0.25 * qe + 2_000.0 {
                bad.push(format!(
                    "mode {mode} N {n}: queue {:.0} B vs Σβ {qe:.0} B (max {:.0}, window {:.0})",
                    o.end_queue, o.max_queue, o.end_window
                ));
            }
        }
    }
    assert!(bad.is_empty(), "{bad:#?}");
}
