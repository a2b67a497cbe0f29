// SPDX-License-Identifier: GPL-2.0-only
//! θ-PowerTCP's theoretical properties (PowerTCP NSDI 2022, App. A, Thm 1-3) and behaviour
//! checks on one flow and on a fluid model: split from `powertcp.rs` (the vectors and the
//! property tests).

use rdcc_core::event::{Controller, Reason};
use rdcc_core::powertcp::{Config, Params, State, GRADIENT_PER_ACK, GRADIENT_PER_RTT};
use rdcc_core::powertcp_vectors::VEC;

mod powertcp_helpers;
use powertcp_helpers::{ack, T};

/// Validated parameters of a config the test knows to be valid.
pub fn params(c: &Config) -> Params {
    Params::new(c).expect("valid config")
}

// ---------------------------------------------------------------------------------------------
// Theoretical properties (PowerTCP App. A) and behaviour checks
// ---------------------------------------------------------------------------------------------

/// Drive one flow with a constant RTT, one update per RTT; return the window in bytes after
/// each update.
fn constant_rtt(c: &Config, rtt_ns: u64, rounds: usize, start: Option<u64>) -> Vec<f64> {
    let p = params(c);
    let mut s = State::default();
    T::init(&p, &mut s, 0, 1448);
    if let Some(w) = start {
        s.cwnd_q16 = w << 16;
    }
    let mut now = 1_000_000u64;
    let mut seq = 0u32;
    T::on_ack(&p, &mut s, &ack(now, rtt_ns, seq, seq + 10_000));
    let mut out = Vec::new();
    for _ in 0..rounds {
        now += rtt_ns;
        seq += 10_000;
        let d = T::on_ack(&p, &mut s, &ack(now, rtt_ns, seq, seq + 10_000));
        assert_eq!(d.reason, Reason::GradientUpdate);
        out.push(d.cwnd_bytes_q16 as f64 / 65536.0);
    }
    out
}

/// Thm 1 for one flow: with the RTT of the equilibrium queue q_e = β (RTT = τ + β/b), the
/// window converges to w_e = bτ + β from below and from above.
#[test]
fn converges_to_bdp_plus_beta() {
    // VEC: b = 12.5e9 B/s, τ = 20 µs, bτ = 250,000 B, β = 25,000 B: RTT = 22 µs.
    let c = VEC;
    for start in [None, Some(600_000), Some(10_000)] {
        let w = constant_rtt(&c, 22_000, 200, start);
        let last = *w.last().unwrap();
        // Γ = ⌊65536·22/20⌋/65536 = 1.09999 puts the integer fixed point βΓ/(Γ−1) at
        // 275,023 B: within 0.05 % of the paper's 275,000.
        assert!((last - 275_000.0).abs() < 140.0, "start {start:?}: {last}");
    }
}

/// Thm 2 in the open loop of a constant power Γ: the update pairs the power with the window
/// the sampled data was sent under, one update back (Eq. 7's w(t − θ); Alg. 2 line 8), so the
/// error e = w − w_e follows e_k = (1 − γ)·e_{k−1} + (γ/Γ)·e_{k−2}, whose roots
/// ((1−γ) ± √((1−γ)² + 4γ/Γ))/2 are below 1 in magnitude for Γ > 1: it decays. (In closed loop
/// Γ follows w(t − θ) and the delayed term cancels, Eq. 15; `powertcp_closed_loop.rs`.)
#[test]
fn error_decays_geometrically() {
    let w = constant_rtt(&VEC, 22_000, 60, Some(600_000));
    let (gamma, g, we) = (58_982.0 / 65_536.0, 72_089.0 / 65_536.0, 275_023.0);
    let e: Vec<f64> = w.iter().map(|x| x - we).collect();
    for k in 2..e.len() {
        let want = (1.0 - gamma) * e[k - 1] + gamma / g * e[k - 2];
        assert!(
            (e[k] - want).abs() < 3.0,
            "update {k}: error {} vs {want}",
            e[k]
        );
    }
    let root = ((1.0 - gamma) + ((1.0 - gamma) * (1.0 - gamma) + 4.0 * gamma / g).sqrt()) / 2.0;
    assert!(root < 0.96, "{root}");
    assert!(e[59].abs() < 0.1 * e[0].abs(), "{} after 60 updates", e[59]);
}

/// At RTT = τ (Γ = 1) the open-loop law is w_k = γ·(w_{k−2} + β) + (1 − γ)·w_{k−1} (spec §2.6
/// with Eq. 7's pairing): the first update adds γβ = 22,500 B, then the window grows by
/// 2γβ/(1 + γ) = 23,684 B per two updates, the alternation decaying as γ^k.
#[test]
fn base_rtt_is_additive_increase() {
    let w = constant_rtt(&VEC, 20_000, 60, None);
    let mut hist = vec![250_000.0, 250_000.0];
    for x in &w {
        let n = hist.len();
        let want = 0.9 * (hist[n - 2] + 25_000.0) + 0.1 * hist[n - 1];
        assert!((x - want).abs() < 2.0, "{x} vs {want}");
        hist.push(*x);
    }
    assert!((w[0] - 272_500.0).abs() < 1.0, "{}", w[0]);
    let two = w[59] - w[57];
    assert!((two - 23_684.0).abs() < 100.0, "{two} per two updates");
}

/// θ-PowerTCP reacts to the *rate* of RTT growth before the RTT itself is large: the same
/// RTT gives a lower window when it was reached by a steep rise (PowerTCP §3.2).
#[test]
fn gradient_adds_to_the_reaction() {
    let p = params(&VEC);
    let run = |prev_rtt: u64| {
        let mut s = State::default();
        T::init(&p, &mut s, 0, 1448);
        T::on_ack(&p, &mut s, &ack(1_000_000, prev_rtt, 0, 10_000));
        T::on_ack(&p, &mut s, &ack(1_020_000, 24_000, 10_000, 20_000)).cwnd_bytes_q16
    };
    assert!(run(20_000) < run(24_000));
    assert!(run(24_000) < run(28_000));
}

/// Closed loop on the single-bottleneck fluid model of PowerTCP App. A: the queue integrates
/// q̇ = Σw/θ − b (Eq. 9) in 100 ns steps, the RTT is θ = τ + q/b (Eq. 10), and every flow gets
/// one ACK per RTT that passes its marker. b = 12.5e9 B/s, τ = 20 µs, bτ = 250,000 B; each
/// flow starts at line rate (cwnd = HostBw·τ = bτ). `rtt_quantum_ns` rounds the samples down
/// as Linux does (1,000 = whole µs). Returns the windows (bytes) and the queue (bytes).
fn fluid_loop(betas: &[u64], sim_ns: u64, rtt_quantum_ns: u64) -> (Vec<f64>, f64) {
    let b = 12.5; // bytes per ns
    let tau = 20_000u64;
    let h = 100u64; // integration step, ns
    let ps: Vec<Params> = betas
        .iter()
        .map(|&beta| {
            params(&Config {
                beta_bytes: beta,
                max_cwnd_bytes: 0, // host BDP = 250,000 B (HostBw = b)
                ..VEC
            })
        })
        .collect();
    let n = betas.len();
    let mut ss = vec![State::default(); n];
    let mut w = vec![0f64; n];
    for i in 0..n {
        w[i] = T::init(&ps[i], &mut ss[i], 0, 1448).cwnd_bytes_q16 as f64 / 65536.0;
    }
    // Flows start staggered within the first RTT; their sequence spaces are independent.
    let mut next_ack: Vec<u64> = (0..n as u64).map(|i| tau + i * tau / n as u64).collect();
    let mut una = vec![0u32; n];
    let mut q = 0f64;
    let mut t = 0u64;
    while t < sim_ns {
        let theta = tau as f64 + q / b;
        let arrival: f64 = w.iter().sum::<f64>() / theta; // Eq. 9
        q = (q + (arrival - b) * h as f64).max(0.0);
        t += h;
        for i in 0..n {
            if t >= next_ack[i] {
                let exact = tau as f64 + q / b;
                let rtt = (exact as u64) / rtt_quantum_ns * rtt_quantum_ns;
                let d = T::on_ack(&ps[i], &mut ss[i], &ack(t, rtt, una[i], una[i] + 100_000));
                una[i] += 100_000;
                w[i] = d.cwnd_bytes_q16 as f64 / 65536.0;
                next_ack[i] = t + exact as u64;
            }
        }
    }
    (w, q)
}

#[test]
fn fluid_model_equilibrium_equal_beta() {
    // Four flows, β = 25,000 B each (spec §1.9 equilibrium check): Σw = 350,000 B,
    // q_e = 100,000 B (8 µs), each w = 87,500 B.
    let (w, q) = fluid_loop(&[25_000; 4], 5_000_000, 1);
    let agg: f64 = w.iter().sum();
    println!("windows {w:?} aggregate {agg} queue {q}");
    assert!(
        (agg - 350_000.0).abs() / 350_000.0 < 0.01,
        "aggregate {agg}"
    );
    assert!((q - 100_000.0).abs() / 100_000.0 < 0.03, "queue {q}");
    for x in &w {
        assert!((x - 87_500.0).abs() / 87_500.0 < 0.01, "flow {x}");
    }
}

#[test]
fn fluid_model_beta_weighted_fairness() {
    // Thm 3: (w_i)_e = (β̂ + bτ)/β̂ · β_i. β = 10,000 and 20,000: β̂ = 30,000,
    // w = 280,000/30,000 · β = 93,333 and 186,667.
    let (w, _) = fluid_loop(&[10_000, 20_000], 5_000_000, 1);
    println!("windows {w:?}");
    assert!((w[0] - 93_333.3).abs() / 93_333.3 < 0.001, "{w:?}");
    assert!((w[1] - 186_666.7).abs() / 186_666.7 < 0.001, "{w:?}");
}

#[test]
fn fluid_model_with_linux_microsecond_rtt() {
    // The kernel reports RTT in whole µs: the queue estimate is quantised to 1 µs = 12,500 B
    // at 100 Gbit/s. The loop still settles at the equilibrium within one quantum.
    let (w, q) = fluid_loop(&[25_000; 4], 5_000_000, 1_000);
    let agg: f64 = w.iter().sum();
    println!("windows {w:?} aggregate {agg} queue {q}");
    assert!((agg - 350_000.0).abs() < 12_500.0, "aggregate {agg}");
    assert!((q - 100_000.0).abs() < 12_500.0, "queue {q}");
}

/// Lazy initialisation: an ACK before `init` behaves exactly like `init` followed by the ACK.
#[test]
fn ack_before_init_equals_init_then_ack() {
    for c in [VEC, Config::DEFAULT] {
        let p = params(&c);
        let seq = [
            ack(1_000_000, 20_000, 0, 10_000),
            ack(1_020_000, 30_000, 10_000, 20_000),
            ack(1_040_000, 25_000, 20_000, 30_000),
        ];
        let mut a = State::default();
        let mut b = State::default();
        T::init(&p, &mut b, 0, 1448);
        for (i, ev) in seq.iter().enumerate() {
            let da = T::on_ack(&p, &mut a, ev);
            let db = T::on_ack(&p, &mut b, ev);
            assert_eq!(da.cwnd_bytes_q16, db.cwnd_bytes_q16);
            assert_eq!(da.pacing_rate_bps, db.pacing_rate_bps);
            if i == 0 {
                assert_eq!(da.reason, Reason::Init);
                assert_eq!(db.reason, Reason::Hold);
            } else {
                assert_eq!(da.reason, db.reason);
            }
        }
        assert_eq!(a, b);
    }
}

/// Linux RTT samples are whole µs. Feed an RTT of 22 µs with ±1 µs of quantisation noise at
/// one ACK per µs and compare with the noise-free stream. With the per-RTT cadence (default)
/// the gradient is taken over an RTT and the window stays close to the noise-free one. With
/// the literal per-ACK cadence each ±1 µs step is a gradient of ±1; the floor (θ̇+1) ≥ 0.5
/// clips the negative steps, Γ is biased upward and the window settles far lower: the reason
/// per-RTT is the default (spec §2.4 [DESIGN]).
fn noisy_vs_clean(mode: u32) -> (f64, f64) {
    let p = params(&Config {
        gradient_mode: mode,
        ..VEC
    });
    let mut noisy = State::default();
    let mut clean = State::default();
    T::init(&p, &mut noisy, 0, 1448);
    T::init(&p, &mut clean, 0, 1448);
    let mut now = 1_000_000u64;
    let mut una = 0u32;
    let (mut wn, mut wc) = (0.0, 0.0);
    for i in 0..4_000u32 {
        now += 1_000; // one ACK per µs
        una = una.wrapping_add(1_448);
        let noise = [0i64, 1_000, 0, -1_000][(i % 4) as usize];
        let rtt = (22_000 + noise) as u64;
        let nxt = una.wrapping_add(20 * 1_448); // the marker passes every ~21 ACKs
        wn = T::on_ack(&p, &mut noisy, &ack(now, rtt, una, nxt)).cwnd_bytes_q16 as f64 / 65536.0;
        wc = T::on_ack(&p, &mut clean, &ack(now, 22_000, una, nxt)).cwnd_bytes_q16 as f64 / 65536.0;
    }
    (wn, wc)
}

#[test]
fn per_rtt_cadence_tolerates_microsecond_noise() {
    let (wn, wc) = noisy_vs_clean(GRADIENT_PER_RTT);
    assert!((wc - 275_000.0).abs() < 100.0, "clean {wc}");
    assert!((wn - wc).abs() / wc < 0.15, "noisy {wn} vs clean {wc}");
}

#[test]
fn per_ack_cadence_is_biased_by_microsecond_noise() {
    let (wn, wc) = noisy_vs_clean(GRADIENT_PER_ACK);
    assert!((wc - 275_000.0).abs() < 100.0, "clean {wc}");
    assert!(wn < 0.6 * wc, "noisy {wn} vs clean {wc}");
}
