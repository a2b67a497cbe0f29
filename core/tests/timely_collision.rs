// SPDX-License-Identifier: GPL-2.0-only
//! TIMELY on a burst collision (issue #36 item 5, Documentation/results/uml_testbed.md): the
//! step the UML test bed's `dc_eight_flows` trace shows for a starved flow, run through the law
//! and checked against TIMELY Alg. 1 lines 1-4 and 13-14 evaluated by hand.
//!
//! Trace (flow 0 at b131228): an update at 70 Mbit/s with a 20 µs sample (T_low branch), then
//! the next update's sample 69 µs, taken behind another flow's 64 KB GSO skb (52 µs of a
//! 10 Gbit/s link): the rate went to the 10 Mbit/s floor.

use rdcc_core::event::{AckEvent, Controller, Reason, ACK_HAS_RTT};
use rdcc_core::timely::{Config, Params, State, Timely, UPDATE_PER_COMPLETION};

const US: u64 = 1_000;
/// 70 Mbit/s in bytes/s.
const RATE_70_MBPS_BPS: u64 = 8_750_000;
/// The default floor, 10 Mbit/s, in bytes/s.
const FLOOR_BPS: u64 = 1_250_000;

/// One completion (16 KB acknowledged) with an RTT sample, at `now_ns`.
fn completion(now_ns: u64, rtt_ns: u64) -> AckEvent {
    AckEvent {
        now_ns,
        rtt_ns,
        acked_bytes: 16_384,
        mss_bytes: 1_448,
        flags: ACK_HAS_RTT,
        ..AckEvent::default()
    }
}

/// The law at `alpha_q16` (every completion updates, so each event is one Alg. 1 run; the §5
/// rule off, since this test does not model a sending rate), after a 20 µs sample at 70 Mbit/s
/// and then a `sample_us` one; returns the second decision's rate and reason.
fn collision(alpha_q16: u64, sample_us: u64) -> (u64, Reason) {
    let c = Config {
        alpha_q16,
        init_rate_mbps: 60,
        update_mode: UPDATE_PER_COMPLETION,
        app_limit_q16: 0,
        ..Config::DEFAULT
    };
    let p = Params::new(&c).unwrap();
    let mut s = State::default();
    Timely::init(&p, &mut s, 0, 1_448);
    // Alg. 1 lines 5-7: 20 µs < T_low: R = 60 + 10 Mbit/s; prev_rtt = 20 µs, rtt_diff = 0.
    let d = Timely::on_ack(&p, &mut s, &completion(100 * US, 20 * US));
    assert_eq!(
        (d.pacing_rate_bps, d.reason),
        (RATE_70_MBPS_BPS, Reason::LowGuard)
    );
    let d = Timely::on_ack(&p, &mut s, &completion(200 * US, sample_us * US));
    (d.pacing_rate_bps, d.reason)
}

/// α = 0.875 (the core's default, a third-party ns-3 value; the paper gives none, Alg. 1
/// line 3): new_rtt_diff = 69 − 20 = 49 µs (line 1); rtt_diff = 0.875 · 49 = 42.875 µs
/// (line 3); g = 42.875 / 20 = 2.14 (line 4); 50 ≤ 69 ≤ 500 µs and g > 0: R · (1 − 0.8 · 2.14)
/// (line 14) is negative, the factor clamps at 0 (D7) and R goes to the floor.
/// Any step above 1.25 · 20 / 0.875 = 28.6 µs does that, from any rate; so after a sample at
/// minRTT, every sample in the gradient zone (T_low = 50 µs and above) does.
#[test]
fn one_collision_sends_a_flow_to_the_floor_at_the_default_alpha() {
    assert_eq!(
        collision(Config::DEFAULT.alpha_q16, 69),
        (FLOOR_BPS, Reason::GradientUpdate)
    );
    // 50 µs, the gradient zone's lowest sample: rtt_diff 26.25 µs, g 1.31 > 1.25: factor 0.
    assert_eq!(
        collision(Config::DEFAULT.alpha_q16, 50),
        (FLOOR_BPS, Reason::GradientUpdate)
    );
}

/// α = 0.02 (1311 / 65536 = 0.020004; the weight with which the simulator reproduces the
/// paper's Table 1, Documentation/results/timely_table1.md): rtt_diff = ⌈49,000 · 1311 / 2^16⌉
/// = 981 ns (the law rounds the EWMA step up, D4); g = ⌊981 · 2^16 / 20,000⌋ = 3214 (Q16,
/// 0.049); β·g = ⌊52,429 · 3214 / 2^16⌋ = 2571; R = ⌊8,750,000 · (65,536 − 2571) / 2^16⌋ =
/// 8,406,734 B/s (real arithmetic: 70 · (1 − 0.8 · 0.02 · 49 / 20) = 67.256 Mbit/s =
/// 8,406,999 B/s).
#[test]
fn the_same_collision_costs_four_percent_at_alpha_0_02() {
    assert_eq!(collision(1_311, 69), (8_406_734, Reason::GradientUpdate));
}

/// The window floor's purpose (`timely::CWND_MIN_SEGMENTS`, TIMELY §3.3: a segment is sent as
/// one burst) on Linux, which sends `snd_cwnd = ⌊W / mss⌋` packets (`Decision::enforce`) in
/// skbs of at most half of them (`tcp_cwnd_test`: `max(cwnd >> 1, 1)`): at the floor, half the
/// window in whole packets must hold one whole segment. With a floor of 2 × 16,384 B and an MSS
/// of 1448 it held 11 packets = 15,928 B (the UML bed's starved TIMELY flows: two skbs per
/// completion, Documentation/results/uml_testbed.md).
#[test]
fn half_the_floor_window_holds_a_segment_on_linux() {
    for segment_bytes in [1_u64, 1_000, 4_096, 16_384, 65_536, 100_000] {
        let c = Config {
            segment_bytes,
            ..Config::DEFAULT
        };
        let p = Params::new(&c).unwrap();
        for mss in [
            88_u32, 536, 1_000, 1_448, 1_460, 4_096, 8_948, 9_000, 65_536,
        ] {
            let (lo_bytes, _) = p.cwnd_bounds_bytes(mss);
            let cwnd_pkts = lo_bytes / u64::from(mss);
            let skb_pkts = (cwnd_pkts >> 1).max(1);
            let unit_bytes = segment_bytes.max(u64::from(mss));
            assert!(
                skb_pkts * u64::from(mss) >= unit_bytes,
                "segment {segment_bytes} B, mss {mss} B: floor {lo_bytes} B = {cwnd_pkts} \
                 packets, skbs of {skb_pkts} packets < one segment"
            );
        }
    }
}

/// TIMELY §5 ("increase only if sending at more than 80 % of the target rate") for a flow that
/// is not application-limited: skbs of 17,376 B (the floor window's half, 12 packets) paced at
/// the decided rate and acknowledged 20 µs after they leave, from 10 Mbit/s, one completion per
/// skb. The bytes an update measures were paced at the rate before the previous update, so
/// against the raised `R` the rule held every second update until 5 delta = 50 Mbit/s (the UML
/// bed's starved flows, Documentation/results/uml_testbed.md); every update must increase.
#[test]
fn a_paced_flow_is_not_application_limited_after_an_increase() {
    let c = Config {
        init_rate_mbps: 10,
        ..Config::DEFAULT
    };
    let p = Params::new(&c).unwrap();
    let mut s = State::default();
    let mut d = Timely::init(&p, &mut s, 0, 1_448);
    let mut sent_ns: u64 = 1_000_000;
    for k in 0..12_u64 {
        let ev = AckEvent {
            now_ns: sent_ns + 20 * US,
            rtt_ns: 20 * US,
            acked_bytes: 17_376,
            mss_bytes: 1_448,
            flags: ACK_HAS_RTT,
            ..AckEvent::default()
        };
        let paced_bps = d.pacing_rate_bps;
        d = Timely::on_ack(&p, &mut s, &ev);
        // Alg. 1 lines 5-7 every time: R = 10 + 10 (k + 1) Mbit/s.
        assert_eq!(
            (d.pacing_rate_bps, d.reason),
            (FLOOR_BPS * (k + 2), Reason::LowGuard),
            "update {k}"
        );
        sent_ns += 17_376 * 1_000_000_000 / paced_bps;
    }
}
