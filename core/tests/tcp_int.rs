//! The TCP-INT option (`core/src/tcp_int.rs`): the specification's own example, hand-built
//! options with every field at its edges, every malformed form, the receiver's echo, the
//! switch update of the README's workflow, and the conversion into the INT laws' one-hop stack
//! against the laws' formulas; property tests (no panic on any bytes, round trips).
//!
//! Specification: `p4lang/p4app-TCP-INT` v0.2.0-alpha to v0.4.0-alpha (README "TCP-INT option
//! format", "Workflow", the `tc pedit` example; `code/include/tcp_int_opt.h`,
//! `tcp_int_common.h`). Every expected value below is worked out from the specification's
//! layout and scales (or the laws' equations), never read back from the code.

use proptest::prelude::*;
use rdcc_core::event::{AckEvent, Reason};
use rdcc_core::hpcc;
use rdcc_core::int::{IntController, IntStack, RATE_TABLE_BPS};
use rdcc_core::powertcp_int::{self, PowerTcpInt};
use rdcc_core::tcp_int::{
    congestion, decode, echo_of, encode, hop_index, hop_lat_ecr_ns, hop_lat_ns, hop_lat_to_ecr,
    intval_of, link_speed_bps, link_speed_code, outgoing, scan, switch_update, to_stack, util_q16,
    Adapter, AdapterParams, Congestion, Outcome, Scan, Skip, TcpIntOpt, Version, ADAPTER_DT_MAX_NS,
    KIND, LEN, OUTCOMES, QDEPTH_MAX_BYTES,
};

use Version::{V0_2, V0_3, V0_4};
const ALL: [Version; 3] = [V0_2, V0_3, V0_4];
const NOP: u8 = 1;
/// Linux's timestamp option as every segment of a connection with timestamps carries it.
const TS: [u8; 12] = [1, 1, 8, 10, 0, 0, 0, 1, 0, 0, 0, 2];
/// The option a TCP-INT host writes before anything was received (all fields 0).
const ZERO_OPT: [u8; 12] = [KIND, LEN, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// 100 Gbit/s, bytes/s.
const G100: u64 = 12_500_000_000;

fn cat(parts: &[&[u8]]) -> Vec<u8> {
    parts.iter().flat_map(|p| p.iter().copied()).collect()
}

/// README "Running applications locally", step 4: with timestamps on, `tc pedit` sets byte 54
/// (from the IP header) to 5 and byte 56 to 6, "set the tcp-int option fields (intval=5,
/// id=6)". IP 20 + TCP 20 + NOP NOP TS 12: the option's kind is at 52, so these are the
/// option's bytes 2 and 4. In v0.2 that is INTval and HopID, as the README says; in the
/// v0.3/v0.4 layout (the same README text) byte 2 is TagFreq/LinkSpd: the example is v0.2's.
#[test]
fn readme_pedit_example() {
    let mut pkt = cat(&[&TS, &ZERO_OPT]);
    pkt[54 - 40] = 5;
    pkt[56 - 40] = 6;
    let s = scan(&pkt, V0_2);
    assert_eq!((s.outcome, s.offset), (Outcome::Valid, 12));
    assert_eq!((s.opt.intval, s.opt.hop_id), (5, 6));
    assert_eq!(congestion(5, V0_2), Congestion::UtilPct(40));
    for v in [V0_3, V0_4] {
        let s = scan(&pkt, v);
        assert_eq!(s.outcome, Outcome::Valid);
        assert_eq!((s.opt.intval, s.opt.link_speed, s.opt.hop_id), (0, 5, 6));
    }
    // The v0.2 receiver echoes the fields as they came (README "Workflow").
    let e = echo_of(&s_of(&pkt, V0_2), V0_2).unwrap();
    assert_eq!((e.intval_ecr, e.hop_id_ecr, e.hop_lat_ecr), (5, 6, 0));
}

fn s_of(pkt: &[u8], v: Version) -> TcpIntOpt {
    scan(pkt, v).opt
}

/// Every field at its edges, in each layout, from hand-written bytes.
#[test]
fn fields_at_their_edges() {
    // v0.2: kind len INTval INTecr HopID HopIDecr SWLat(be24) SWLatEcr(be24).
    let cases: [(Version, [u8; 12], TcpIntOpt); 5] = [
        (V0_2, ZERO_OPT, TcpIntOpt::default()),
        (
            V0_2,
            [
                KIND, LEN, 0xff, 0x80, 0xff, 0x01, 0xff, 0xff, 0xff, 0x12, 0x34, 0x56,
            ],
            TcpIntOpt {
                intval: 0xff,
                intval_ecr: 0x80,
                hop_id: 0xff,
                hop_id_ecr: 1,
                hop_lat: 0xff_ffff,
                hop_lat_ecr: 0x12_3456,
                ..TcpIntOpt::default()
            },
        ),
        // v0.3+: kind len TagFreq|LinkSpd INTval HopID HopLat(be24) INTEcr HIDEcr|LnkSEcr
        // HopLatEcr(le16).
        (
            V0_3,
            [
                KIND, LEN, 0xf5, 0xff, 0x01, 0xff, 0xff, 0xff, 0x80, 0xf3, 0x34, 0x12,
            ],
            TcpIntOpt {
                tag_freq: 15,
                link_speed: 5,
                intval: 0xff,
                hop_id: 1,
                hop_lat: 0xff_ffff,
                intval_ecr: 0x80,
                hop_id_ecr: 15,
                link_speed_ecr: 3,
                hop_lat_ecr: 0x1234,
            },
        ),
        (
            V0_4,
            [
                KIND, LEN, 0x0f, 0x00, 0x40, 0x00, 0x01, 0x00, 0x7f, 0x1f, 0xff, 0xff,
            ],
            TcpIntOpt {
                tag_freq: 0,
                link_speed: 15,
                intval: 0,
                hop_id: 64,
                hop_lat: 0x100,
                intval_ecr: 0x7f,
                hop_id_ecr: 1,
                link_speed_ecr: 15,
                hop_lat_ecr: 0xffff,
            },
        ),
        (V0_4, ZERO_OPT, TcpIntOpt::default()),
    ];
    for (v, bytes, want) in cases {
        let s = scan(&bytes, v);
        assert_eq!(
            s,
            Scan {
                outcome: Outcome::Valid,
                opt: want,
                offset: 0
            },
            "{v:?} {bytes:x?}"
        );
        assert_eq!(encode(&want, v), bytes, "{v:?}");
    }
}

/// INTval (`tcp_int_common.h`): ≥ 0x80 a queue of (INTval & 0x7f) · 2^13 B; below, v0.2/v0.3
/// utilisation INTval << 3 %, v0.4 available bandwidth 0x7f − INTval Gbit/s.
#[test]
fn intval_table() {
    let cases = [
        (0x00, V0_2, Congestion::UtilPct(0)),
        (12, V0_3, Congestion::UtilPct(96)),
        (13, V0_2, Congestion::UtilPct(104)),
        (0x7f, V0_3, Congestion::UtilPct(1016)),
        (0x80, V0_2, Congestion::QueueBytes(0)),
        (0x85, V0_3, Congestion::QueueBytes(5 * 8192)),
        (0xff, V0_4, Congestion::QueueBytes(127 * 8192)),
        (0x00, V0_4, Congestion::AvailGbps(127)),
        (87, V0_4, Congestion::AvailGbps(40)),
        (0x7f, V0_4, Congestion::AvailGbps(0)),
    ];
    for (i, v, want) in cases {
        assert_eq!(congestion(i, v), want, "{i:#x} {v:?}");
    }
    assert_eq!(QDEPTH_MAX_BYTES, 1_040_384);
    // The switch side: the larger value is the more congested port, in every version.
    let cases = [
        (0, 0, 0, V0_2, 0),
        (0, 100, 0, V0_3, 12),
        (0, 99, 0, V0_2, 12),
        (0, 250, 0, V0_2, 12),
        (1, 0, 0, V0_2, 0x80),
        (8192 * 5 + 8191, 0, 0, V0_4, 0x85),
        (u64::MAX, 0, 0, V0_3, 0xff),
        (0, 0, 40 * 125_000_000, V0_4, 87),
        (0, 0, 400 * 125_000_000, V0_4, 0),
        (0, 0, 0, V0_4, 0x7f),
    ];
    for (q, u, a, v, want) in cases {
        assert_eq!(intval_of(q, u, a, v), want, "{q} {u} {a} {v:?}");
    }
}

/// HopLat: 24 bits of 256 ns. HopLatEcr (v0.3+): below 2^15 units exact, else bit 15 and
/// HopLat >> 8 in units of 65,536 ns (`tcp_int_hoplat_to_hoplatecr`); v0.2 echoes HopLat.
#[test]
fn hop_latency_table() {
    let cases: [(u32, Version, u32, u64); 9] = [
        (0, V0_3, 0, 0),
        (1, V0_4, 1, 256),
        (0x7fff, V0_3, 0x7fff, 0x7fff * 256),  // 8,388,352 ns
        (0x8000, V0_3, 0x8080, 0x80 * 65_536), // 8,388,608 ns: exact at the switch-over
        (0x80ff, V0_4, 0x8080, 0x80 * 65_536), // the low 8 bits are lost
        (0x7f_ffff, V0_3, 0xffff, 0x7fff * 65_536), // 2,147,418,112 ns
        (0x80_0000, V0_4, 0xffff, 0x7fff * 65_536), // saturates (the macro would alias)
        (0xff_ffff, V0_3, 0xffff, 0x7fff * 65_536),
        (0xff_ffff, V0_2, 0xff_ffff, 4_294_967_040),
    ];
    for (h, v, ecr, ns) in cases {
        assert_eq!(hop_lat_to_ecr(h, v), ecr, "{h:#x} {v:?}");
        assert_eq!(hop_lat_ecr_ns(ecr, v), ns, "{h:#x} {v:?}");
    }
    assert_eq!(hop_lat_ns(0xff_ffff), 4_294_967_040);
}

/// The echo's hop: v0.2 the TTL; v0.3 65 − TTL; v0.4 64 − TTL; within [1, 15]; 0 stays 0.
#[test]
fn hop_index_table() {
    let cases = [
        (0, V0_2, 0),
        (61, V0_2, 61),
        (0, V0_3, 0),
        (64, V0_3, 1),
        (62, V0_3, 3),
        (50, V0_3, 15),
        (49, V0_3, 15), // hop 16: saturates
        (200, V0_3, 1), // a TTL above 64: not a hop index, held at 1
        (63, V0_4, 1),
        (64, V0_4, 1), // 64 − 64 = 0 would read as "no echo"
        (49, V0_4, 15),
        (6, V0_4, 15), // README's pedit id 6: hop 58
    ];
    for (ttl, v, want) in cases {
        assert_eq!(hop_index(ttl, v), want, "{ttl} {v:?}");
    }
}

/// LinkSpd codes (`tcp_int_unmap_link_speed`) are the record's rates 10 to 400 Gbit/s.
#[test]
fn link_speed_table() {
    let gbps = [0u64, 10, 25, 40, 50, 100, 200, 400];
    for code in 0u8..16 {
        let want = gbps
            .get(usize::from(code))
            .copied()
            .filter(|g| *g > 0)
            .map(|g| g * 125_000_000);
        assert_eq!(link_speed_bps(code), want, "{code}");
        if let Some(r) = want {
            assert_eq!(link_speed_code(r), code);
            assert_eq!(r, RATE_TABLE_BPS[usize::from(code) - 1]);
        }
    }
    assert_eq!(link_speed_code(RATE_TABLE_BPS[7]), 0); // 800 Gbit/s has no code
}

/// README "Workflow" over three switches: the larger INTval wins with its TTL; HopLat adds
/// each latency in ns and keeps the upper 24 of 32 bits, so each hop drops < 256 ns:
/// 1000 → 3 units (768 ns); 768 + 500 = 1268 → 4 (1024); 1024 + 300 = 1324 → 5 (1280).
#[test]
fn switch_workflow() {
    for v in [V0_3, V0_4] {
        let mut o = decode(&ZERO_OPT, v).unwrap();
        switch_update(&mut o, 3, 64, 1000, 5);
        assert_eq!((o.intval, o.hop_id, o.hop_lat, o.link_speed), (3, 64, 3, 5));
        switch_update(&mut o, 0x82, 63, 500, 1);
        assert_eq!(
            (o.intval, o.hop_id, o.hop_lat, o.link_speed),
            (0x82, 63, 4, 1)
        );
        switch_update(&mut o, 0x81, 62, 300, 7);
        assert_eq!(
            (o.intval, o.hop_id, o.hop_lat, o.link_speed),
            (0x82, 63, 5, 1)
        );
        // Equal INTval does not move the hop ("if switch.INTval > pkt.INTval").
        switch_update(&mut o, 0x82, 61, 0, 2);
        assert_eq!(o.hop_id, 63);
        // Saturation at 2^32 − 1 ns.
        switch_update(&mut o, 0, 60, u64::MAX, 0);
        assert_eq!(o.hop_lat, 0xff_ffff);
    }
}

/// Every malformed form is its own outcome; nothing of a failed list is reported.
#[test]
fn malformed_table() {
    let opt = encode(
        &TcpIntOpt {
            intval: 0x81,
            hop_id: 62,
            hop_lat: 7,
            ..TcpIntOpt::default()
        },
        V0_4,
    );
    let mut short = opt[..8].to_vec();
    short[1] = 8;
    let mut long = opt.to_vec();
    long[1] = 14;
    long.extend_from_slice(&[0, 0]);
    let mut other_kind = opt;
    other_kind[0] = KIND + 1;
    let nops = |n: usize| vec![NOP; n];
    let cases: Vec<(&str, Vec<u8>, Outcome)> = vec![
        ("empty", vec![], Outcome::Absent),
        ("timestamps only", TS.to_vec(), Outcome::Absent),
        (
            "another kind of length 12",
            other_kind.to_vec(),
            Outcome::Absent,
        ),
        ("after EOL", cat(&[&[0], &opt]), Outcome::Absent),
        (
            "valid after TS",
            cat(&[&TS, &opt, &[NOP, NOP]]),
            Outcome::Valid,
        ),
        (
            "valid, then EOL and junk",
            cat(&[&opt, &[0, 0x72, 0]]),
            Outcome::Valid,
        ),
        (
            "valid, junk past byte 40",
            cat(&[&TS, &opt, &nops(16), &[0x72, 0]]),
            Outcome::Valid,
        ),
        ("short length", short, Outcome::BadLength),
        ("long length", long, Outcome::BadLength),
        ("truncated option", opt[..9].to_vec(), Outcome::Truncated),
        (
            "truncated after TS",
            cat(&[&TS, &opt[..11]]),
            Outcome::Truncated,
        ),
        ("lone kind byte", cat(&[&TS, &[KIND]]), Outcome::Truncated),
        (
            "valid, then a cut option",
            cat(&[&opt, &[8, 10, 0]]),
            Outcome::Truncated,
        ),
        ("length 0", cat(&[&opt, &[3, 0]]), Outcome::BadOptionLength),
        ("length 1", cat(&[&[3, 1], &opt]), Outcome::BadOptionLength),
        (
            "beyond the option space",
            cat(&[&nops(30), &opt]),
            Outcome::BeyondOptionSpace,
        ),
        (
            "kind byte at byte 39",
            cat(&[&nops(39), &[KIND, LEN]]),
            Outcome::BeyondOptionSpace,
        ),
        ("two options", cat(&[&opt, &opt]), Outcome::Duplicate),
        (
            "valid and a short one",
            cat(&[&opt, &[KIND, 2]]),
            Outcome::Duplicate,
        ),
    ];
    let mut seen = [false; OUTCOMES];
    for (name, bytes, want) in cases {
        for v in ALL {
            let s = scan(&bytes, v);
            assert_eq!(s.outcome, want, "{name} {v:?}");
            if want != Outcome::Valid {
                assert_eq!(
                    s,
                    Scan {
                        outcome: want,
                        ..Scan::default()
                    },
                    "{name}"
                );
            }
        }
        seen[want as usize] = true;
    }
    assert_eq!(seen, [true; OUTCOMES], "a table row for every outcome");
}

/// The receiver's echo (v0.4): data tagged by hop 2 (TTL 62) with a queue, 100 Gbit/s and a
/// HopLat of 0x9000 units → INTEcr 0x85, HIDEcr 64 − 62 = 2, LnkSEcr 5, HopLatEcr 0x8090 (0x9000
/// ≥ 2^15: 0x90 | 0x8000), written after TagFreq 0xf with zero forward fields.
#[test]
fn receiver_echo() {
    let data = TcpIntOpt {
        tag_freq: 0xf,
        link_speed: 5,
        intval: 0x85,
        hop_id: 62,
        hop_lat: 0x9000,
        ..TcpIntOpt::default()
    };
    let e = echo_of(&data, V0_4).unwrap();
    let bytes = outgoing(&e, 0xf, V0_4);
    assert_eq!(
        bytes,
        [KIND, LEN, 0xf0, 0, 0, 0, 0, 0, 0x85, 0x25, 0x90, 0x80]
    );
    let back = scan(&cat(&[&TS, &bytes]), V0_4).opt;
    assert_eq!(
        (back.intval_ecr, back.hop_id_ecr, back.link_speed_ecr),
        (0x85, 2, 5)
    );
    assert_eq!(hop_lat_ecr_ns(back.hop_lat_ecr, V0_4), 0x90 * 65_536);
    // v0.3 echoes no LinkSpd, and its hop index is 65 − 62 = 3.
    let e3 = echo_of(&data, V0_3).unwrap();
    assert_eq!((e3.hop_id_ecr, e3.link_speed_ecr), (3, 0));
    // Untagged data (HopID 0): nothing new to echo.
    assert_eq!(echo_of(&TcpIntOpt::default(), V0_4), None);
    // v0.2 has no TagFreq.
    assert_eq!(outgoing(&TcpIntOpt::default(), 0xf, V0_2), ZERO_OPT);
}

/// Utilisation from INTval: queue → 1; v0.2/v0.3 min(pct, 100)/100; v0.4 (C − min(A, C))/C.
#[test]
fn utilisation_table() {
    let cases = [
        (0x85, G100, V0_2, 65_536),
        (12, G100, V0_3, 62_914), // 0.96 · 65536 = 62914.56
        (13, G100, V0_2, 65_536), // 104 % read as full
        (0, G100, V0_3, 0),
        (87, G100, V0_4, 39_321), // 40 of 100 Gbit/s free: 0.6 · 65536 = 39321.6
        (0, G100, V0_4, 0),       // 127 Gbit/s free of 100
        (0x7f, G100, V0_4, 65_536),
        (107, 1_250_000_000, V0_4, 0),      // 20 of 10 Gbit/s free
        (122, 3_125_000_000, V0_4, 52_428), // 5 of 25 free: 0.8 · 65536 = 52428.8
    ];
    for (i, rate, v, want) in cases {
        assert_eq!(util_q16(i, rate, v), want, "{i} {rate} {v:?}");
    }
}

fn echo(intval: u8, hop: u8, link: u8) -> TcpIntOpt {
    TcpIntOpt {
        intval_ecr: intval,
        hop_id_ecr: hop,
        link_speed_ecr: link,
        ..TcpIntOpt::default()
    }
}

/// HPCC on TCP-INT (HPCC Alg. 1 line 4: u' = min(q, q_prev)/(B·T) + txRate/B). No queue and
/// 40 of 100 Gbit/s free: u' = utilisation = 0.6. The record counts 128 B units, so over
/// dt = 10 µs the adapter's 75,000 B read as 585 units = 74,880 B: tolerance 128 B/(B·dt)
/// = 0.001024 (67 Q16 units), stated before the run; measured: 0.59904.
#[test]
fn hpcc_reads_the_utilisation() {
    let p = AdapterParams::new(4, G100).unwrap();
    let (s1, a1) = to_stack(&p, &Adapter::default(), &echo(87, 2, 5), 1_000_000).unwrap();
    let (s2, _) = to_stack(&p, &a1, &echo(87, 2, 5), 1_010_000).unwrap();
    let hp = hpcc::Params::new(&hpcc::Config {
        base_rtt_ns: 20_000,
        host_bw_bps: G100,
        ..hpcc::Config::DEFAULT
    })
    .unwrap();
    let (u, dt) = hpcc::inflight_sample_q16(&hp, &s2, &s1).unwrap();
    assert_eq!(dt, 10_000);
    let exact = 0.6 * 65_536.0;
    assert!(
        (u as f64 - exact).abs() <= 67.0,
        "u' = {u}, formula {exact}"
    );
    // With a queue of 3 units (24,576 B) in both echoes: + q/(B·T) = 24576/250000 = 0.098304;
    // the record keeps the queue in 80 B units: + 80/(B·T) = 21 Q16 units of tolerance.
    let (s3, a3) = to_stack(&p, &Adapter::default(), &echo(0x83, 2, 5), 0).unwrap();
    let (s4, _) = to_stack(&p, &a3, &echo(0x83, 2, 5), 10_000).unwrap();
    let (u, _) = hpcc::inflight_sample_q16(&hp, &s4, &s3).unwrap();
    let exact = (1.0 + 24_576.0 / 250_000.0) * 65_536.0;
    assert!(
        (u as f64 - exact).abs() <= 67.0 + 21.0 + 1.0,
        "u' = {u}, formula {exact}"
    );
}

/// PowerTCP on TCP-INT (Alg. 1 lines 15-22): the queue grows from 6 to 7 units (49,152 →
/// 57,344 B) over dt = 10 µs at a full 100 Gbit/s hop, τ = 20 µs. λ/b = (Δq + b·dt)/(b·dt) =
/// (8192 + 125,000)/125,000 = 1.065536; ν/(bτ) = 1 + 57,344/250,000 = 1.229376; Γ_norm =
/// 1.30994. Tolerance, stated before the run: the record's units (128 B of tx, 80 B of queue)
/// in λ, (128 + 80)/125,000 · 1.229376 = 0.00205 (134 Q16 units), and in ν, 80/250,000 ·
/// 1.065536 = 0.00034 (23 units), plus 3 units of rounding: 160.
#[test]
fn powertcp_reads_the_queue_gradient() {
    let p = AdapterParams::new(3, G100).unwrap();
    let (s1, a1) = to_stack(&p, &Adapter::default(), &echo(0x86, 3, 0), 5_000).unwrap();
    let (s2, _) = to_stack(&p, &a1, &echo(0x87, 3, 0), 15_000).unwrap();
    let pp = powertcp_int::Params::new(&powertcp_int::Config {
        base_rtt_ns: 20_000,
        host_bw_bps: G100,
        lambda_floor_q16: 0,
        target_q16: 65_536,
        ..powertcp_int::Config::DEFAULT
    })
    .unwrap();
    let (g, dt) = powertcp_int::norm_power_q16(&pp, &s2, &s1).unwrap();
    assert_eq!(dt, 10_000);
    let exact = 1.065536 * 1.229376 * 65_536.0;
    assert!(
        (g as f64 - exact).abs() <= 160.0,
        "Γ = {g}, formula {exact}"
    );
}

/// A new most-congested hop is a path change: the law keeps the stack and holds (spec §1.6).
#[test]
fn new_bottleneck_is_a_path_change() {
    let p = AdapterParams::new(4, G100).unwrap();
    let pp = powertcp_int::Params::new(&powertcp_int::Config {
        base_rtt_ns: 20_000,
        host_bw_bps: G100,
        ..powertcp_int::Config::DEFAULT
    })
    .unwrap();
    let mut st = powertcp_int::State::default();
    PowerTcpInt::init(&pp, &mut st, 0, 1448);
    let mut a = Adapter::default();
    let mut reasons = vec![];
    for (i, hop) in [2u8, 2, 3, 3].into_iter().enumerate() {
        let (s, next) = to_stack(&p, &a, &echo(0x82, hop, 5), 1_000 * (i as u64 + 1)).unwrap();
        a = next;
        let ev = AckEvent {
            snd_una: 1000,
            snd_nxt: 2000,
            ..AckEvent::default()
        };
        reasons.push(PowerTcpInt::on_ack(&pp, &mut st, &ev, &s).reason);
    }
    assert_eq!(
        reasons,
        [
            Reason::Hold,
            Reason::GradientUpdate,
            Reason::Hold,
            Reason::GradientUpdate
        ]
    );
}

#[test]
fn adapter_edges() {
    let p = AdapterParams::new(4, 1_250_000_000).unwrap();
    // No echo yet.
    assert_eq!(
        to_stack(&p, &Adapter::default(), &echo(0x80, 0, 5), 0),
        Err(Skip::NoEcho)
    );
    // The echoed LinkSpd wins over the configured rate; an unknown code falls back to it.
    let (s, _) = to_stack(&p, &Adapter::default(), &echo(0, 1, 5), 0).unwrap();
    assert_eq!(s.hops()[0].rate_bps(), G100);
    let (s, _) = to_stack(&p, &Adapter::default(), &echo(0, 1, 9), 0).unwrap();
    assert_eq!(s.hops()[0].rate_bps(), 1_250_000_000);
    // A 1 s gap advances the clock by 2^23 ns and the counter by util · b · 2^23 ns (full:
    // 10 Gbit/s · 8,388,608 ns = 10,485,760 B).
    let (_, a) = to_stack(&p, &Adapter::default(), &echo(0x80, 1, 1), 7).unwrap();
    let (s, b) = to_stack(&p, &a, &echo(0x80, 1, 1), 1_000_000_007).unwrap();
    assert_eq!(b.clock_ns - a.clock_ns, ADAPTER_DT_MAX_NS);
    assert_eq!(b.tx_bytes - a.tx_bytes, 10_485_760);
    assert_eq!(s.path_id, 1);
    // Settings.
    assert_eq!(
        AdapterParams::new(5, G100).unwrap_err().field,
        "tcp_int_version"
    );
    assert_eq!(
        AdapterParams::new(2, 1_000_000_000).unwrap_err().field,
        "hop_rate_bps"
    );
}

fn any_version() -> impl Strategy<Value = Version> {
    prop_oneof![Just(V0_2), Just(V0_3), Just(V0_4)]
}

fn any_opt(v: Version) -> impl Strategy<Value = TcpIntOpt> {
    (any::<[u8; 8]>(), any::<u32>(), any::<u32>()).prop_map(move |(b, l, e)| {
        let narrow = v != V0_2;
        TcpIntOpt {
            tag_freq: if narrow { b[0] & 0xf } else { 0 },
            link_speed: if narrow { b[1] & 0xf } else { 0 },
            intval: b[2],
            hop_id: b[3],
            hop_lat: l & 0xff_ffff,
            intval_ecr: b[4],
            link_speed_ecr: if narrow { b[5] & 0xf } else { 0 },
            hop_id_ecr: if narrow { b[6] & 0xf } else { b[6] },
            hop_lat_ecr: if narrow { e & 0xffff } else { e & 0xff_ffff },
        }
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    /// Any bytes: no panic; a failed list reports nothing; a valid option is in the list at its
    /// offset and re-encodes to exactly its 12 bytes (every bit of both layouts is a field).
    #[test]
    fn any_bytes(bytes in prop::collection::vec(any::<u8>(), 0..64), v in any_version()) {
        let s = scan(&bytes, v);
        if s.outcome == Outcome::Valid {
            let at = usize::from(s.offset);
            prop_assert!(at + 12 <= 40);
            prop_assert_eq!(&bytes[at..at + 12], &encode(&s.opt, v)[..]);
        } else {
            prop_assert_eq!(s, Scan { outcome: s.outcome, ..Scan::default() });
        }
    }

    /// Options built from fields: found after any NOP padding, fields back unchanged.
    #[test]
    fn fields_round_trip((v, o) in any_version().prop_flat_map(|v| (Just(v), any_opt(v))), pad in 0usize..28) {
        let bytes = cat(&[&vec![NOP; pad], &encode(&o, v)]);
        let s = scan(&bytes, v);
        prop_assert_eq!(s.outcome, Outcome::Valid);
        prop_assert_eq!(usize::from(s.offset), pad);
        prop_assert_eq!(s.opt, o);
    }

    /// The receiver's echo survives its own option: what the sender parses is what was echoed.
    #[test]
    fn echo_round_trip((v, o) in any_version().prop_flat_map(|v| (Just(v), any_opt(v))), tag in any::<u8>()) {
        if let Some(e) = echo_of(&o, v) {
            let back = scan(&outgoing(&e, tag, v), v).opt;
            prop_assert_eq!(
                (back.intval_ecr, back.hop_id_ecr, back.link_speed_ecr, back.hop_lat_ecr),
                (e.intval_ecr, e.hop_id_ecr, e.link_speed_ecr, e.hop_lat_ecr)
            );
            prop_assert!(back.hop_id_ecr != 0);
            prop_assert_eq!((back.intval, back.hop_id, back.hop_lat), (0, 0, 0));
        }
    }

    /// The adapter on any echo stream: no panic; one record of at most the largest queue;
    /// utilisation within [0, 1]; the path is the echoed hop.
    #[test]
    fn adapter_any_stream(
        v in 2u64..5,
        rate in 0usize..8,
        evs in prop::collection::vec((any::<u8>(), any::<u8>(), any::<u8>(), any::<u64>()), 1..30),
    ) {
        let p = AdapterParams::new(v, RATE_TABLE_BPS[rate]).unwrap();
        let mut a = Adapter::default();
        for (i, h, l, t) in evs {
            prop_assert!(util_q16(i, RATE_TABLE_BPS[rate], p.version) <= 65_536);
            match to_stack(&p, &a, &echo(i, h, l), t) {
                Ok((s, next)) => {
                    prop_assert_eq!(s.hops().len(), 1);
                    prop_assert!(s.hops()[0].qlen_bytes() <= QDEPTH_MAX_BYTES);
                    prop_assert_eq!(s.path_id, h);
                    prop_assert!(next.clock_ns - a.clock_ns <= ADAPTER_DT_MAX_NS);
                    a = next;
                }
                Err(e) => prop_assert_eq!((e, h), (Skip::NoEcho, 0)),
            }
        }
    }
}

/// `IntStack::same_path` sees the adapter's path id (and the simulator's stacks keep 0).
#[test]
fn path_id_in_same_path() {
    let mut a = IntStack::EMPTY;
    let mut b = IntStack::EMPTY;
    assert!(a.same_path(&b));
    a.path_id = 1;
    assert!(!a.same_path(&b));
    b.path_id = 1;
    assert!(a.same_path(&b));
}
