//! The INT record and the INT laws: hand-computed vectors from the papers' formulas (the
//! expected values are written as the real-number results of the formulas, computed by hand /
//! calculator from the inputs, and compared with a stated tolerance for the fixed-point
//! rounding), and property tests for the invariants.

use proptest::prelude::*;
use rdcc_core::event::{LossEvent, LossKind};
use rdcc_core::hpcc::{self, Hpcc};
use rdcc_core::int::{IntController, IntHop, IntStack, INT_MAX_HOPS, QLEN_MAX_BYTES};
use rdcc_core::powertcp_int::{self, PowerTcpInt};

use rdcc_core::int_vectors::{ack, B100G};

fn stack(hops: &[(u64, u64, u64, u64)]) -> IntStack {
    let mut s = IntStack::EMPTY;
    for &(q, tx, ts, b) in hops {
        assert!(s.push(IntHop::encode(q, tx, ts, b).unwrap()));
    }
    s
}

/// A one-hop stack at 100 Gbit/s: queue `q` B, `tx` B transmitted, timestamp `ts` ns.
fn one_hop(q: u64, tx: u64, ts: u64) -> IntStack {
    stack(&[(q, tx, ts, B100G)])
}

/// A flow of law `C` after `init` and a first ACK (time 0, `snd_una` 0, `snd_nxt` `nxt`): its
/// stack `first` is stored as the previous one, nothing measured yet.
fn primed<C: IntController>(p: &C::Params, nxt: u32, first: &IntStack) -> C::State {
    let mut s = C::State::default();
    C::init(p, &mut s, 0, 1000);
    C::on_ack(p, &mut s, &ack(0, nxt, 0), first);
    s
}

fn close(got: f64, want: f64, rel: f64) -> bool {
    (got - want).abs() <= rel * want.abs().max(1.0)
}

#[test]
fn int_record_fields() {
    // (qlen B, tx B, ts ns, rate B/s) -> decoded (qlen, tx units, ts, rate)
    let cases: &[(u64, u64, u64, u64, u64, u64, u64)] = &[
        (0, 0, 0, 1_250_000_000, 0, 0, 0),
        (79, 127, 5, B100G, 0, 0, 5),          // below one unit
        (160, 256, 1 << 24, B100G, 160, 2, 0), // ts wraps at 2^24
        (10_000_040, 128 << 20, 7, B100G, 10_000_000, 0, 7), // tx wraps at 2^20 units
        (u64::MAX, 0, 0, 100_000_000_000, QLEN_MAX_BYTES, 0, 0), // qlen saturates
    ];
    for &(q, tx, ts, b, wq, wtx, wts) in cases {
        let h = IntHop::encode(q, tx, ts, b).unwrap();
        assert_eq!(
            (h.qlen_bytes(), h.tx_units(), h.ts_ns(), h.rate_bps()),
            (wq, wtx, wts, b)
        );
    }
    assert_eq!(
        IntHop::encode(0, 0, 0, 1_000),
        None,
        "rate not in the table"
    );
    // Deltas across a wrap: 2^24 - 100 ns to 100 ns is 200 ns; tx 2^20 - 1 units to 1 unit
    // is 2 units = 256 B.
    let a = IntHop::encode(0, ((1 << 20) - 1) * 128, (1 << 24) - 100, B100G).unwrap();
    let b = IntHop::encode(0, (1 << 20) * 128 + 128, (1 << 24) + 100, B100G).unwrap();
    assert_eq!(b.ts_delta_ns(&a), 200);
    assert_eq!(b.tx_delta_bytes(&a), 256);
    // A full stack refuses a sixth record and says so.
    let mut s = IntStack::EMPTY;
    for _ in 0..INT_MAX_HOPS {
        assert!(s.push(IntHop::default()));
    }
    assert!(!s.push(IntHop::default()));
    assert_eq!(s.overflow, 1);
    assert_eq!(s.hops().len(), INT_MAX_HOPS);
}

/// Spec §1.9's worked example with txBytes 12,800 B (a multiple of the 128-byte field unit):
/// b = 100 Gbit/s, τ = 20 µs (bτ = 250,000 B); prev (ts 0, q 50,000, tx 0), now (ts 1,000 ns,
/// q 60,000, tx 12,800). λ/b = 22,800 / 12,500 = 1.824; ν/(bτ) = 1.24; Γ = 2.26176.
/// Γ_smooth from 1.0 with Δt = 1 µs: (19 + 2.26176)/20 = 1.063088. With cwnd = cwnd_old =
/// 100,000 B and β = 25,000 B (N = 10): 0.9·(100,000/1.063088 + 25,000) + 10,000 = 117,159.03.
fn ptcp_params() -> powertcp_int::Params {
    powertcp_int::Params::new(&powertcp_int::Config {
        host_bw_bps: B100G,
        base_rtt_ns: 20_000,
        smooth_init_q16: 65_536,
        ..powertcp_int::Config::DEFAULT
    })
    .unwrap()
}

#[test]
fn powertcp_worked_example() {
    let p = ptcp_params();
    assert_eq!(p.beta_q16() >> 16, 25_000);
    let prev = one_hop(50_000, 0, 0);
    let now = one_hop(60_000, 12_800, 1_000);
    let mut s = primed::<PowerTcpInt>(&p, 100_000, &prev);
    s.cwnd_q16 = 100_000 << 16;
    s.wref_q16 = 100_000 << 16;
    // Direct: normalised power of the hop.
    let (g, dt) = powertcp_int::norm_power_q16(&p, &now, &prev).unwrap();
    assert_eq!(dt, 1_000);
    assert!(close(g as f64 / 65536.0, 2.26176, 1e-4), "Γ {g}");
    let d = PowerTcpInt::on_ack(&p, &mut s, &ack(1000, 101_000, 1_000), &now);
    assert!(
        close(d.signal as f64 / 65536.0, 1.063088, 1e-4),
        "{}",
        d.signal
    );
    let cwnd = d.cwnd_bytes_q16 as f64 / 65536.0;
    assert!(close(cwnd, 117_159.03, 1e-4), "cwnd {cwnd}");
    // rate = cwnd / τ.
    assert!(close(d.pacing_rate_bps as f64, 117_159.03 / 20e-6, 1e-4));
}

/// The per-hop maximum (Alg. 1 lines 23-25) picks the hop with the largest normalised power and
/// smooths with that hop's interval: hop 1 at λ/b = 0.8 with an empty queue (Γ = 0.8, dt 2 µs),
/// hop 2 as in the worked example (Γ = 2.26176, dt 1 µs). The result is the worked example's
/// 1.063088; with hop 1's interval it would be (18 + 2·2.26176)/20 = 1.126176.
#[test]
fn powertcp_takes_the_most_congested_hop() {
    let p = ptcp_params();
    // hop 1: 0.8 · 12.5 B/ns · 2,000 ns = 20,000 B = 156.25 units; use 20,096 B (157 units):
    // λ/b = 20,096 / 25,000 = 0.80384.
    let prev = stack(&[(0, 0, 0, B100G), (50_000, 0, 0, B100G)]);
    let now = stack(&[(0, 20_096, 2_000, B100G), (60_000, 12_800, 1_000, B100G)]);
    let mut s = primed::<PowerTcpInt>(&p, 100_000, &prev);
    let (g, dt) = powertcp_int::norm_power_q16(&p, &now, &prev).unwrap();
    assert_eq!(dt, 1_000);
    assert!(close(g as f64 / 65536.0, 2.26176, 1e-4));
    let d = PowerTcpInt::on_ack(&p, &mut s, &ack(1000, 101_000, 1_000), &now);
    assert!(close(d.signal as f64 / 65536.0, 1.063088, 1e-4));
    // Swap the hops: the same maximum.
    let prev2 = stack(&[(50_000, 0, 0, B100G), (0, 0, 0, B100G)]);
    let now2 = stack(&[(60_000, 12_800, 1_000, B100G), (0, 20_096, 2_000, B100G)]);
    assert_eq!(
        powertcp_int::norm_power_q16(&p, &now2, &prev2),
        powertcp_int::norm_power_q16(&p, &now, &prev)
    );
}

/// getCwnd/updateOld: cwnd_old stays the reference window until an ACK passes the marker
/// (snd_nxt when it was set). At a constant Γ = 1 (full rate, empty queue) the per-ACK law
/// converges inside an RTT to W_ref + β, not W_ref + k·β: with γ = 0.9 each ACK moves 90% of
/// the way. After k ACKs: W_ref + β·(1 − 0.1^k).
#[test]
fn powertcp_old_window_is_held_for_an_rtt() {
    let p = powertcp_int::Params::new(&powertcp_int::Config {
        host_bw_bps: B100G,
        base_rtt_ns: 20_000,
        lambda_floor_q16: 0,
        ..powertcp_int::Config::DEFAULT
    })
    .unwrap();
    let hop = |i: u64| one_hop(0, i * 12_800, i * 1_024); // 12,800 B per 1,024 ns = b
    let mut s = primed::<PowerTcpInt>(&p, 500_000, &hop(0)); // marker = 500,000
    s.cwnd_q16 = 100_000 << 16;
    s.wref_q16 = 100_000 << 16;
    for k in 1..=3u64 {
        let d = PowerTcpInt::on_ack(
            &p,
            &mut s,
            &ack(k as u32 * 1000, 500_000, k * 1024),
            &hop(k),
        );
        // Γ = 12,800/(1,024·12.5) = 1.0 exactly.
        let want = 100_000.0 + 25_000.0 * (1.0 - 0.1f64.powi(k as i32));
        let got = d.cwnd_bytes_q16 as f64 / 65536.0;
        assert!(close(got, want, 1e-3), "ACK {k}: {got} vs {want}");
        assert_eq!(s.wref_q16, 100_000 << 16, "W_ref held inside the RTT");
    }
    // The ACK that reaches the marker commits W_ref = cwnd.
    PowerTcpInt::on_ack(&p, &mut s, &ack(500_000, 900_000, 4 * 1024), &hop(4));
    assert_eq!(s.wref_q16, s.cwnd_q16);
}

/// The (1 − γ) term (Alg. 1 line 31 against the authors' ns-3 code), by hand: W_ref =
/// 100,000 B, cwnd = 120,000 B, Γ = 1.25, β = 25,000 B, γ = 0.9. Alg. 1: 0.9·(80,000 + 25,000)
/// + 0.1·120,000 = 106,500 B. `kept_from_ref = 1`: 0.9·105,000 + 0.1·100,000 = 104,500 B.
#[test]
fn powertcp_kept_term_current_or_reference() {
    let cases: &[(u64, f64)] = &[(0, 106_500.0), (1, 104_500.0)];
    for &(kept_from_ref, want) in cases {
        let p = powertcp_int::Params::new(&powertcp_int::Config {
            host_bw_bps: B100G,
            base_rtt_ns: 20_000,
            kept_from_ref,
            ..powertcp_int::Config::DEFAULT
        })
        .unwrap();
        let w = powertcp_int::window_update(&p, 100_000 << 16, 120_000 << 16, 81_920);
        let got = w as f64 / 65536.0;
        assert!(
            close(got, want, 1e-6),
            "kept_from_ref {kept_from_ref}: {got}"
        );
    }
    let bad = powertcp_int::Params::new(&powertcp_int::Config {
        kept_from_ref: 2,
        ..powertcp_int::Config::DEFAULT
    });
    assert_eq!(bad.unwrap_err().field, "kept_from_ref");
}

fn hpcc_params(c: hpcc::Config) -> hpcc::Params {
    hpcc::Params::new(&hpcc::Config {
        host_bw_bps: B100G,
        base_rtt_ns: 20_000,
        ..c
    })
    .unwrap()
}

/// HPCC Alg. 1 by hand: T = 20 µs, B = 100 Gbit/s (B·T = 250,000 B), η = 0.95, W_AI = 50 Mbit/s
/// · 20 µs = 125 B. prev (ts 0, q 50,000, tx 0), now (ts 1,000, q 60,000, tx 12,800):
/// u' = min(60,000, 50,000)/250,000 + 12,800/12,500 = 0.2 + 1.024 = 1.224; τ = 1 µs;
/// U = (19/20)·1.0 + (1/20)·1.224 = 1.0112 ≥ η: W = 100,000/(1.0112/0.95) + 125 = 94,072.78.
#[test]
fn hpcc_decrease_vector() {
    let p = hpcc_params(hpcc::Config::DEFAULT);
    assert_eq!(p.w_ai_q16() >> 16, 125);
    let mut s = primed::<Hpcc>(&p, 1_000, &one_hop(50_000, 0, 0));
    s.wc_q16 = 100_000 << 16;
    let d = Hpcc::on_ack(
        &p,
        &mut s,
        &ack(2_000, 3_000, 1_000),
        &one_hop(60_000, 12_800, 1_000),
    );
    assert!(
        close(d.signal as f64 / 65536.0, 1.0112, 1e-4),
        "U {}",
        d.signal
    );
    let w = d.cwnd_bytes_q16 as f64 / 65536.0;
    assert!(close(w, 94_072.78, 1e-4), "W {w}");
    assert_eq!(
        s.wc_q16, d.cwnd_bytes_q16,
        "committed: the ACK passed lastUpdateSeq"
    );
    assert_eq!(s.inc_stage, 0);
}

/// Additive increase: an interval of T gives U = u; u = 0.5 (half the rate, no queue) < η:
/// W = W_c + W_AI = 100,125 B and incStage 1 once committed; before lastUpdateSeq the same W is
/// used but not committed.
#[test]
fn hpcc_increase_vector() {
    let p = hpcc_params(hpcc::Config::DEFAULT);
    let mut s = primed::<Hpcc>(&p, 5_000, &one_hop(0, 0, 0));
    s.wc_q16 = 100_000 << 16;
    // 0.5 · 12.5 B/ns · 20,000 ns = 125,000 B (976.5625 units): use 124,928 B (976 units),
    // u = 124,928/250,000 = 0.499712.
    let d = Hpcc::on_ack(
        &p,
        &mut s,
        &ack(1_000, 6_000, 20_000),
        &one_hop(0, 124_928, 20_000),
    );
    assert!(close(d.signal as f64 / 65536.0, 0.499712, 1e-4));
    assert_eq!(d.cwnd_bytes_q16 >> 16, 100_125);
    assert_eq!(
        s.wc_q16,
        100_000 << 16,
        "not committed before lastUpdateSeq"
    );
    let d = Hpcc::on_ack(
        &p,
        &mut s,
        &ack(5_001, 9_000, 40_000),
        &one_hop(0, 249_856, 40_000),
    );
    assert_eq!(d.cwnd_bytes_q16 >> 16, 100_125);
    assert_eq!(s.wc_q16, 100_125 << 16);
    assert_eq!(s.inc_stage, 1);
}

/// SL §4.2.6 (spec): an RTT whose largest queue is 150 KB mints 150 tokens (1 per KB) and
/// raises the dampener by 150/50 = 3. The next update uses min(100, 150) = 100 tokens divided
/// by 3/8 + 1 = 1.375: 72.727 tokens, AI = 72.727 · W_AI.
#[test]
fn vai_tokens_vector() {
    let p = hpcc_params(hpcc::Config::VAISF);
    let mut s = primed::<Hpcc>(&p, 1_000, &one_hop(150_000, 0, 0));
    Hpcc::on_ack(
        &p,
        &mut s,
        &ack(2_000, 3_000, 1_000),
        &one_hop(150_000, 12_800, 1_000),
    );
    assert_eq!(s.ai_bank, 150);
    assert_eq!(s.dampener_q16, 3 << 16);
    let (t, spent) = hpcc::vai_tokens_q16(&p, s.ai_bank, s.dampener_q16);
    assert!(close(t as f64 / 65536.0, 72.727_27, 1e-4), "{t}");
    assert_eq!(spent, 100);
    // Empty bank: one token (Alg. 2 line 7).
    assert_eq!(hpcc::vai_tokens_q16(&p, 0, 5 << 16).0, 65_536);
}

/// SF: with s = 3, a congested flow commits its decrease on every third ACK, not once per RTT;
/// plain HPCC commits none inside the RTT.
#[test]
fn sf_commits_decreases_every_s_acks() {
    for (sf, want_commits) in [(3u64, 2usize), (0, 0)] {
        let p = hpcc_params(hpcc::Config {
            sf_acks: sf,
            ..hpcc::Config::DEFAULT
        });
        let q = 100_000;
        let mut s = primed::<Hpcc>(&p, 1_000_000, &one_hop(q, 0, 0));
        let mut commits = 0;
        let mut wc = s.wc_q16;
        for k in 1..=6u64 {
            // Full rate with a 100 KB queue: u = 0.4 + 1.0 > η.
            let h = one_hop(q, k * 12_800, k * 1_024);
            Hpcc::on_ack(&p, &mut s, &ack(k as u32 * 1000, 1_000_000, k * 1024), &h);
            if s.wc_q16 != wc {
                commits += 1;
                wc = s.wc_q16;
            }
        }
        assert_eq!(commits, want_commits, "sf_acks = {sf}");
    }
}

#[test]
fn params_are_validated() {
    let bad = [
        powertcp_int::Config {
            gamma_q16: 0,
            ..powertcp_int::Config::DEFAULT
        },
        powertcp_int::Config {
            target_q16: 1000,
            ..powertcp_int::Config::DEFAULT
        },
        powertcp_int::Config {
            lambda_floor_q16: 70_000,
            ..powertcp_int::Config::DEFAULT
        },
    ];
    for c in bad {
        assert!(powertcp_int::Params::new(&c).is_err(), "{c:?}");
    }
    let e = hpcc::Params::new(&hpcc::Config {
        eta_q16: 70_000,
        ..hpcc::Config::DEFAULT
    })
    .unwrap_err();
    assert_eq!(e.field, "eta_q16");
    let e = hpcc::Params::new(&hpcc::Config {
        vai: 2,
        ..hpcc::Config::DEFAULT
    })
    .unwrap_err();
    assert_eq!(e.field, "vai");
}

fn any_stack() -> impl Strategy<Value = IntStack> {
    (
        prop::array::uniform5(any::<u64>()),
        0u8..8,
        any::<u8>(),
        0u8..3,
    )
        .prop_map(|(h, n, o, path_id)| IntStack {
            hops: h.map(IntHop),
            n,
            overflow: o,
            path_id,
            _pad: [0; 5],
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Hostile stacks and events: no panic, the window within its bounds, the rate = cwnd/τ.
    #[test]
    fn int_laws_stay_in_bounds(
        evs in prop::collection::vec((any_stack(), any::<u32>(), any::<u32>(), any::<u64>(), any::<bool>()), 1..40)
    ) {
        let pp = powertcp_int::Params::new(&powertcp_int::Config::DEFAULT).unwrap();
        let hp = hpcc::Params::new(&hpcc::Config::VAISF).unwrap();
        let mut ps = powertcp_int::State::default();
        let mut hs = hpcc::State::default();
        for (st, una, nxt, now, loss) in evs {
            let ev = ack(una, nxt, now);
            let d = PowerTcpInt::on_ack(&pp, &mut ps, &ev, &st);
            prop_assert!(d.cwnd_bytes_q16 >= 1_000 << 16 && d.cwnd_bytes_q16 <= pp.init_cwnd_q16());
            let d = Hpcc::on_ack(&hp, &mut hs, &ev, &st);
            prop_assert!(d.cwnd_bytes_q16 >= 1_000 << 16 && d.cwnd_bytes_q16 <= hp.init_cwnd_q16());
            prop_assert!(hs.ai_bank <= 1000);
            if loss {
                let l = LossEvent { now_ns: now, mss_bytes: 1000, kind: LossKind::RetransmitTimeout };
                PowerTcpInt::on_loss(&pp, &mut ps, &l);
                Hpcc::on_loss(&hp, &mut hs, &l);
            }
        }
    }

    /// Record round trip: the queue decodes to itself rounded down to 80 B (up to the field's
    /// maximum), and transmitted-byte differences survive the 2^20-unit wrap.
    #[test]
    fn int_record_round_trip(q in 0u64..20_000_000, base in any::<u64>(), d in 0u64..(1 << 27)) {
        let h = IntHop::encode(q, base, 0, B100G).unwrap();
        prop_assert_eq!(h.qlen_bytes(), (q / 80).min(QLEN_MAX_BYTES / 80) * 80);
        let a = IntHop::encode(0, base / 128 * 128, 0, B100G).unwrap();
        let b = IntHop::encode(0, (base / 128 * 128).wrapping_add(d / 128 * 128), 0, B100G).unwrap();
        prop_assert_eq!(b.tx_delta_bytes(&a), d / 128 * 128);
    }

    /// Power grows with the queue the packet saw (voltage) at a fixed current.
    #[test]
    fn powertcp_power_is_monotone_in_the_queue(q1 in 0u64..5_000_000, q2 in 0u64..5_000_000, dt in 1u64..20_000) {
        let p = ptcp_params();
        let prev = stack(&[(0, 0, 0, B100G)]);
        let tx = dt * 12; // just below line rate
        let g = |q: u64| powertcp_int::norm_power_q16(&p, &stack(&[(q, tx, dt, B100G)]), &prev).unwrap().0;
        let (lo, hi) = if q1 <= q2 { (q1, q2) } else { (q2, q1) };
        prop_assert!(g(lo) <= g(hi));
    }
}

/// The worked examples KUnit runs in the kernel (`core/src/int_vectors.rs`), on the host. They
/// can fail: with the lower bounds raised past the windows (117,160 B, 94,073 B) both are
/// refused.
#[test]
fn shared_worked_examples() {
    assert_eq!(rdcc_core::int_vectors::powertcp_worked_example(), Ok(()));
    assert_eq!(rdcc_core::int_vectors::hpcc_worked_example(), Ok(()));
}
