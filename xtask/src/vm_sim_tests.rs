//! The translation of VM scenarios into the simulator's, and the simulator's side of
//! Documentation/results/uml_vs_sim.md held to that page.

use super::*;
use crate::scenario::DC_SET;

/// The figures of Documentation/results/uml_vs_sim.md from one simulator run.
#[derive(Clone, Debug, Default, PartialEq)]
struct Figures {
    /// All flows' payload acknowledged in the window, Mbit/s.
    pub goodput_mbit: f64,
    /// Jain's index of the long flows' goodput in the window (`None` below two flows).
    pub jain: Option<f64>,
    /// Per-ACK RTT samples in the window: mean and p99, µs.
    pub rtt_mean_us: f64,
    /// See `rtt_mean_us`.
    pub rtt_p99_us: f64,
    /// Completion times of the sized flows that finished, ms: p50 and p99 (`None` without).
    pub fct_p50_ms: Option<f64>,
    /// See `fct_p50_ms`.
    pub fct_p99_ms: Option<f64>,
    /// Sized flows that finished, of all sized flows.
    pub fct_done: (usize, usize),
}

/// The figures of run `r`.
fn figures(r: &rdcc_sim::scenario::RunResult) -> Figures {
    let s = &r.summary;
    let sized: Vec<_> = r
        .out
        .flows
        .iter()
        .filter(|f| f.spec.size_bytes > 0)
        .collect();
    let fcts: Vec<f64> = sized
        .iter()
        .filter_map(|f| f.finish_ns.map(|t| (t - f.spec.start_ns) as f64 / 1e6))
        .collect();
    let long = r
        .out
        .flows
        .iter()
        .filter(|f| f.spec.size_bytes == 0)
        .count();
    Figures {
        goodput_mbit: s.goodput_gbps * 1000.0,
        jain: (long >= 2).then_some(s.jain_window),
        rtt_mean_us: s.rtt_mean_us,
        rtt_p99_us: s.rtt_p99_us,
        fct_p50_ms: rdcc_sim::stats::percentile(&fcts, 50.0),
        fct_p99_ms: rdcc_sim::stats::percentile(&fcts, 99.0),
        fct_done: (fcts.len(), sized.len()),
    }
}

/// The laws of the comparison (the simulator has no cubic).
const LAWS: &[&str] = &["dctcp", "swift", "swift_vaisf", "timely", "theta_powertcp"];

fn laws() -> Vec<String> {
    LAWS.iter().map(|s| s.to_string()).collect()
}

fn dc(name: &str) -> SimScenario {
    translate(&load(name).expect("loads"), Some(&laws())).expect("translates")
}

#[test]
fn every_dc_file_translates_to_the_test_beds_path() {
    // (scenario, duration µs, warm-up µs, flow groups as (count, start µs, size bytes))
    type Row = (&'static str, f64, f64, &'static [(u32, f64, u64)]);
    let rows: &[Row] = &[
        ("dc_one_flow", 3e6, 1e6, &[(1, 0.0, 0)]),
        ("dc_eight_flows", 2e6, 1e6, &[(8, 0.0, 0)]),
        (
            "dc_incast_16to1",
            2e6,
            0.0,
            &[(1, 0.0, 0), (16, 1e6, 256 * 1024)],
        ),
    ];
    assert_eq!(rows.len(), DC_SET.len());
    for &(name, dur, warm, groups) in rows {
        let s = dc(name);
        assert_eq!(s.name, name);
        assert_eq!((s.duration_us, s.measure_from_us), (dur, warm), "{name}");
        let TopologySpec::Dumbbell {
            left,
            right,
            host_rate_gbps,
            bottleneck_rate_gbps,
            link_delay_us,
            bottleneck_delay_us,
            buffer_kb,
            ecn_k_kb,
        } = s.topology
        else {
            panic!("{name}: not a dumbbell");
        };
        assert_eq!((left, right, host_rate_gbps), (1, 1, HOST_RATE_GBPS));
        assert_eq!(bottleneck_rate_gbps, 10.0, "{name}");
        // 20 µs of netem on the ACK direction: 10 µs each way.
        assert_eq!((link_delay_us, bottleneck_delay_us), (0.0, Some(10.0)));
        assert_eq!((buffer_kb, ecn_k_kb), (1514.0, 98.41), "{name}");
        let t = &s.transport;
        assert_eq!((t.mss_bytes, t.header_bytes, t.ack_every), (1448, 66, 1));
        assert_eq!((t.rtt_quantum_ns, t.min_rto_us, t.tlp), (1000, 2e5, true));
        let got: Vec<(u32, f64, u64)> = s
            .flows
            .iter()
            .map(|f| (f.count, f.start_us, f.size_bytes))
            .collect();
        assert_eq!(got, groups, "{name}");
        assert!(s
            .flows
            .iter()
            .all(|f| (f.src, f.dst, f.cc.clone()) == (0, 1, None)));
        assert_eq!(s.algorithms, laws());
        // params = "defaults": no overrides but the file's params_set.
        for a in LAWS {
            let t = &s.cc[*a];
            assert_eq!(t["law"].as_str(), Some(*a));
            let extra: Vec<&String> = t.keys().filter(|k| *k != "law").collect();
            match *a {
                "swift_vaisf" => assert_eq!(t["base_target_ns"].as_integer(), Some(25_000)),
                "timely" if name == "dc_eight_flows" => {
                    assert_eq!(t["alpha_q16"].as_integer(), Some(1311));
                    assert_eq!(t["t_low_ns"].as_integer(), Some(250_000));
                }
                _ => assert!(extra.is_empty(), "{name} {a}: {extra:?}"),
            }
        }
        // The simulator takes it as it is.
        let text = s.to_toml().expect("serializes");
        SimScenario::parse(&text)
            .and_then(|p| p.check_builds())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// `dc_multihop` (`path.hops = 3`): a chain of three switches, every egress towards the
/// receiver at the bottleneck's rate but the sender's own link, the base RTT spread over the four
/// links of the way, the hop count and the receiver's hold echoed as the bed's receiver channel
/// does; the simulator's Swift then scales its target by 3 hops (with flow scaling off the
/// target is exactly 25 µs + 3 × 1 µs). VAI/SF, which the bed runs without the channel, is
/// refused on such a path.
#[test]
fn a_multi_hop_file_translates_to_a_chain_whose_hops_reach_swift() {
    let vm = load("dc_multihop").expect("loads");
    assert_eq!(vm.path.hops, 3);
    let s = translate(&vm, Some(&["dctcp".into(), "swift".into()])).expect("translates");
    let TopologySpec::ParkingLot {
        switches,
        hosts_per_switch,
        host_rate_gbps,
        chain_rate_gbps,
        link_delay_us,
        buffer_kb,
        ecn_k_kb,
    } = s.topology
    else {
        panic!("not a chain: {:?}", s.topology);
    };
    assert_eq!((switches, hosts_per_switch), (3, 1));
    assert_eq!((host_rate_gbps, chain_rate_gbps), (HOST_RATE_GBPS, 10.0));
    assert_eq!(link_delay_us, 2.5, "20 us over 2 x 4 links");
    assert_eq!((buffer_kb, ecn_k_kb), (1514.0, 98.41));
    assert_eq!(s.links.len(), 1);
    let l = &s.links[0];
    assert_eq!(
        (l.host, l.rate_gbps, l.delay_us),
        (Some(2), Some(10.0), None)
    );
    assert!(s.transport.echo_hops && s.transport.remote_delay);
    assert!(s.flows.iter().all(|f| (f.src, f.dst, f.count) == (0, 2, 4)));
    // One hop: the dumbbell, nothing echoed (the bed's receiver has no channel there).
    let one = dc("dc_eight_flows");
    assert!(matches!(one.topology, TopologySpec::Dumbbell { .. }));
    assert!(!one.transport.echo_hops && !one.transport.remote_delay && one.links.is_empty());
    // Swift sees the hops: flow scaling off, every flow's target is base + 3 x per hop.
    let mut short = s.clone();
    short.duration_us = 20_000.0;
    short.measure_from_us = 0.0;
    short
        .cc
        .get_mut("swift")
        .expect("swift")
        .insert("fs_range_ns".into(), toml::Value::Integer(0));
    let r = short.run_one("swift", false).expect("runs");
    let targets: Vec<i64> = r.out.flows.iter().map(|f| f.last_signal).collect();
    assert_eq!(targets, [28_000; 4], "25 us + 3 hops x 1 us");
    // The same file without the echo: default_hops = 0, the base target alone.
    short.transport.echo_hops = false;
    let r = short.run_one("swift", false).expect("runs");
    assert!(r.out.flows.iter().all(|f| f.last_signal == 25_000));
    // VAI/SF: refused on a multi-hop path, with the reason.
    let e = translate(&vm, Some(&["swift_vaisf".into()])).expect_err("vaisf");
    assert!(e.contains("has no receiver channel"), "{e}");
    // The simulator takes the translation as it is.
    SimScenario::parse(&s.to_toml().expect("serializes"))
        .and_then(|p| p.check_builds())
        .unwrap_or_else(|e| panic!("{e}"));
}

/// `path.int`: the kernel's tcp_powertcp is the simulator's PowerTCP over INT (its `powertcp`
/// is θ-PowerTCP); the request option comes out of the MSS, the echo rides on every ACK; the
/// laws' parameters are the file's.
#[test]
fn an_int_file_translates_to_the_int_laws_with_the_options_bytes() {
    for name in crate::scenario::DC_INT_SET {
        let vm = load(name).expect("loads");
        assert!(vm.path.int && vm.path.hops == 1, "{name}");
        let s = translate(&vm, None).expect("translates");
        assert_eq!(
            s.algorithms,
            ["powertcp", "hpcc", "theta_powertcp"],
            "{name}"
        );
        let law = |a: &str| s.cc[a]["law"].as_str().map(str::to_string);
        assert_eq!(law("powertcp").as_deref(), Some("powertcp_int"));
        assert_eq!(law("hpcc").as_deref(), Some("hpcc"));
        assert_eq!(law("theta_powertcp").as_deref(), Some("theta_powertcp"));
        for a in ["powertcp", "hpcc", "theta_powertcp"] {
            assert_eq!(
                s.cc[a]["base_rtt_ns"].as_integer(),
                Some(21_000),
                "{name} {a}"
            );
            assert_eq!(s.cc[a]["host_bw_bps"].as_integer(), Some(1_250_000_000));
        }
        let t = &s.transport;
        assert_eq!(
            (t.mss_bytes, t.header_bytes),
            (1424, 90),
            "{name}: 1514-byte frames"
        );
        assert_eq!(
            t.ack_bytes,
            66 + 16,
            "{name}: one record, 13 bytes padded to 16"
        );
        assert!(
            !t.echo_hops && !t.remote_delay,
            "{name}: no Swift channel with INT"
        );
        SimScenario::parse(&s.to_toml().expect("serializes"))
            .and_then(|p| p.check_builds())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    // Without INT nothing changes: the frame's payload is the plain MSS.
    let plain = dc("dc_eight_flows");
    assert_eq!(
        (plain.transport.mss_bytes, plain.transport.ack_bytes),
        (1448, 66)
    );
}

/// Above 10 Gbit/s the hosts' links stay ten times the bottleneck.
#[test]
fn host_links_outrun_the_bottleneck() {
    for (mbit, gbps) in [
        (1000, 100.0),
        (10_000, 100.0),
        (25_000, 250.0),
        (100_000, 1000.0),
    ] {
        assert_eq!(host_rate_gbps(mbit), gbps, "{mbit}");
    }
    let s = dc("dc_one_flow_25g");
    let TopologySpec::Dumbbell {
        host_rate_gbps,
        bottleneck_rate_gbps,
        ..
    } = s.topology
    else {
        panic!("not a dumbbell");
    };
    assert_eq!((host_rate_gbps, bottleneck_rate_gbps), (250.0, 25.0));
}

#[test]
fn what_the_simulator_cannot_model_is_refused_with_the_reason() {
    let one = std::fs::read_to_string(scenario::builtin_path("dc_one_flow")).expect("reads");
    // (change to dc_one_flow.toml, --algos, the error's words)
    let rows: &[(&str, &str, Option<&str>, &str)] = &[
        ("", "", None, "cubic: the simulator has no such law"),
        (
            "algos = [\"cubic\"",
            "algos = [\"bbr\"",
            None,
            "bbr: the simulator has no such law",
        ),
        (
            "ecn_k_pkts = 65",
            "ecn_k_pkts = 65\nloss_pct = 1",
            Some("swift"),
            "no random loss",
        ),
        (
            "params = \"defaults\"",
            "params = \"profile\"",
            Some("swift"),
            "params = \"profile\"",
        ),
        (
            "[[flows]]\nalgo = \"under_test\"",
            "[[flows]]\nalgo = \"under_test\"\nduration_s = 1",
            Some("dctcp"),
            "do not stop before the end",
        ),
    ];
    let dir = crate::util::repo_root().join("target/rdcc/vm-sim-tests");
    std::fs::create_dir_all(&dir).expect("mkdir");
    for (i, &(from, to, algos, want)) in rows.iter().enumerate() {
        let text = if from.is_empty() {
            one.clone()
        } else {
            assert!(one.contains(from), "row {i}: {from:?} not in the file");
            one.replacen(from, to, 1)
        };
        let path = dir.join(format!("refusal{i}.toml"));
        std::fs::write(&path, text).expect("writes");
        let e = check(path.to_str().expect("utf-8"), algos, &[]).expect_err(want);
        assert!(e.contains(want), "row {i}: {e}");
    }
    // params = "profile" with only Linux's algorithms: nothing to translate, accepted.
    let p = dir.join("profile_dctcp.toml");
    std::fs::write(
        &p,
        one.replace("params = \"defaults\"", "params = \"profile\""),
    )
    .unwrap();
    check(p.to_str().unwrap(), Some("dctcp reno"), &[]).expect("dctcp and reno take no profile");
}

/// A figure of the comparison (Documentation/results/uml_vs_sim.md "Tolerances").
#[derive(Clone, Copy, Debug)]
enum Fig {
    GoodputMbit,
    Jain,
    RttMeanUs,
    RttP99Us,
    FctP50Ms,
    FctP99Ms,
}

impl Fig {
    /// The page's tolerance around `reference`.
    fn tolerance(self, reference: f64) -> f64 {
        match self {
            Fig::GoodputMbit => 0.03 * reference,
            Fig::Jain => 0.05,
            Fig::RttMeanUs | Fig::RttP99Us => (0.2 * reference).max(5.0),
            Fig::FctP50Ms | Fig::FctP99Ms => (0.25 * reference).max(1.0),
        }
    }

    fn of(self, f: &Figures) -> Option<f64> {
        match self {
            Fig::GoodputMbit => Some(f.goodput_mbit),
            Fig::Jain => f.jain,
            Fig::RttMeanUs => Some(f.rtt_mean_us),
            Fig::RttP99Us => Some(f.rtt_p99_us),
            Fig::FctP50Ms => f.fct_p50_ms,
            Fig::FctP99Ms => f.fct_p99_ms,
        }
    }
}

/// The run of each file in the test: (scenario, duration µs, warm-up µs, start of the later
/// flows µs). One flow settles within milliseconds at 10 Gbit/s and 20 µs, so 0.3 s stands for
/// the file's 3 s; the other two run at their full length (2 s each, about 10 s of wall time
/// for the five laws): which of eight TIMELY flows takes how much does not settle (no unique
/// fixed point), and TIMELY's recovery from the incast's drops spans the rest of the run.
const SHORT: &[(&str, f64, f64, f64)] = &[
    ("dc_one_flow", 300_000.0, 100_000.0, 0.0),
    ("dc_eight_flows", 2_000_000.0, 1_000_000.0, 0.0),
    ("dc_incast_16to1", 2_000_000.0, 0.0, 1_000_000.0),
];

/// The page's table: (scenario, law, figure, simulator at full length, kernel, within the
/// tolerance on the page). The short run must stay within the tolerance of the simulator's
/// figure, and of the kernel's where the page says the figure passes.
type PageRow = (&'static str, &'static str, Fig, f64, f64, bool);
#[rustfmt::skip]
const PAGE: &[PageRow] = &[
    ("dc_one_flow", "dctcp", Fig::GoodputMbit, 9564.1, 9563.8, true),
    ("dc_one_flow", "dctcp", Fig::RttMeanUs, 97.5, 76.8, false),
    ("dc_one_flow", "dctcp", Fig::RttP99Us, 101.7, 79.0, false),
    ("dc_one_flow", "swift", Fig::GoodputMbit, 9564.1, 9563.3, true),
    ("dc_one_flow", "swift", Fig::RttMeanUs, 28.6, 28.5, true),
    ("dc_one_flow", "swift", Fig::RttP99Us, 29.1, 33.0, true),
    ("dc_one_flow", "swift_vaisf", Fig::GoodputMbit, 9564.1, 9563.7, true),
    ("dc_one_flow", "swift_vaisf", Fig::RttMeanUs, 24.7, 27.2, true),
    ("dc_one_flow", "swift_vaisf", Fig::RttP99Us, 25.4, 36.0, false),
    ("dc_one_flow", "timely", Fig::GoodputMbit, 9564.1, 9159.2, false),
    ("dc_one_flow", "timely", Fig::RttMeanUs, 37.5, 23.2, false),
    ("dc_one_flow", "timely", Fig::RttP99Us, 48.9, 51.0, true),
    ("dc_one_flow", "theta_powertcp", Fig::GoodputMbit, 9564.1, 9444.9, true),
    ("dc_one_flow", "theta_powertcp", Fig::RttMeanUs, 25.2, 31.1, true),
    ("dc_one_flow", "theta_powertcp", Fig::RttP99Us, 27.9, 58.0, false),
    ("dc_eight_flows", "dctcp", Fig::GoodputMbit, 9564.1, 9561.6, true),
    ("dc_eight_flows", "dctcp", Fig::Jain, 1.0, 1.0, true),
    ("dc_eight_flows", "dctcp", Fig::RttMeanUs, 96.8, 96.7, true),
    ("dc_eight_flows", "dctcp", Fig::RttP99Us, 110.2, 101.0, true),
    ("dc_eight_flows", "swift", Fig::GoodputMbit, 9564.1, 9549.4, true),
    ("dc_eight_flows", "swift", Fig::Jain, 1.0, 1.0, true),
    ("dc_eight_flows", "swift", Fig::RttMeanUs, 38.6, 38.4, true),
    ("dc_eight_flows", "swift", Fig::RttP99Us, 43.6, 45.0, true),
    ("dc_eight_flows", "swift_vaisf", Fig::GoodputMbit, 9564.1, f64::NAN, false),
    ("dc_eight_flows", "swift_vaisf", Fig::Jain, 0.996, f64::NAN, false),
    ("dc_eight_flows", "swift_vaisf", Fig::RttMeanUs, 29.7, f64::NAN, false),
    ("dc_eight_flows", "swift_vaisf", Fig::RttP99Us, 61.7, f64::NAN, false),
    // TIMELY with the file's alpha = 0.02 and T_low = 250 us (the kernel's figures from
    // uml_testbed.md's run at afeed37; its law-RTT percentiles were not recorded there).
    ("dc_eight_flows", "timely", Fig::GoodputMbit, 8425.3, 9256.1, false),
    ("dc_eight_flows", "timely", Fig::Jain, 0.992, 0.989, true),
    ("dc_eight_flows", "timely", Fig::RttMeanUs, 79.2, f64::NAN, false),
    ("dc_eight_flows", "timely", Fig::RttP99Us, 312.0, f64::NAN, false),
    ("dc_eight_flows", "theta_powertcp", Fig::GoodputMbit, 9564.1, 9550.0, true),
    ("dc_eight_flows", "theta_powertcp", Fig::Jain, 1.0, 1.0, true),
    ("dc_eight_flows", "theta_powertcp", Fig::RttMeanUs, 58.0, 58.2, true),
    ("dc_eight_flows", "theta_powertcp", Fig::RttP99Us, 58.1, 60.0, true),
    ("dc_incast_16to1", "dctcp", Fig::GoodputMbit, 9563.9, 9539.4, true),
    ("dc_incast_16to1", "dctcp", Fig::RttMeanUs, 97.5, 83.3, true),
    ("dc_incast_16to1", "dctcp", Fig::RttP99Us, 101.7, 98.0, true),
    ("dc_incast_16to1", "dctcp", Fig::FctP50Ms, 4.632, f64::NAN, false),
    ("dc_incast_16to1", "dctcp", Fig::FctP99Ms, 4.862, f64::NAN, false),
    ("dc_incast_16to1", "swift", Fig::GoodputMbit, 9563.2, 8648.5, false),
    ("dc_incast_16to1", "swift", Fig::RttMeanUs, 28.7, 28.6, true),
    ("dc_incast_16to1", "swift", Fig::RttP99Us, 29.1, 39.0, false),
    ("dc_incast_16to1", "swift", Fig::FctP50Ms, 3.783, 170.4, false),
    ("dc_incast_16to1", "swift", Fig::FctP99Ms, 3.857, 190.0, false),
    ("dc_incast_16to1", "swift_vaisf", Fig::GoodputMbit, 9560.1, 8603.0, false),
    ("dc_incast_16to1", "swift_vaisf", Fig::RttMeanUs, 24.7, 27.5, true),
    ("dc_incast_16to1", "swift_vaisf", Fig::RttP99Us, 25.4, 37.0, false),
    ("dc_incast_16to1", "swift_vaisf", Fig::FctP50Ms, 3.793, 150.0, false),
    ("dc_incast_16to1", "swift_vaisf", Fig::FctP99Ms, 3.804, 200.1, false),
    ("dc_incast_16to1", "timely", Fig::GoodputMbit, 8578.0, 7203.7, false),
    ("dc_incast_16to1", "timely", Fig::RttMeanUs, 37.4, 23.2, false),
    ("dc_incast_16to1", "timely", Fig::RttP99Us, 48.9, 51.0, true),
    ("dc_incast_16to1", "timely", Fig::FctP50Ms, 3.683, 140.1, false),
    ("dc_incast_16to1", "timely", Fig::FctP99Ms, 3.755, 140.1, false),
    ("dc_incast_16to1", "theta_powertcp", Fig::GoodputMbit, 9563.8, 8625.7, false),
    ("dc_incast_16to1", "theta_powertcp", Fig::RttMeanUs, 25.6, 31.3, true),
    ("dc_incast_16to1", "theta_powertcp", Fig::RttP99Us, 27.9, 59.0, false),
    ("dc_incast_16to1", "theta_powertcp", Fig::FctP50Ms, 3.706, f64::NAN, false),
    ("dc_incast_16to1", "theta_powertcp", Fig::FctP99Ms, 3.713, f64::NAN, false),
];

/// The simulator's side of the page cannot drift: each file's short run, every law, every
/// figure of the page within its tolerance of the page's simulator figure (and of the
/// kernel's where the page says it passes).
#[test]
fn the_simulator_keeps_the_pages_figures() {
    for &(name, dur_us, warm_us, later_us) in SHORT {
        let mut s = dc(name);
        s.duration_us = dur_us;
        s.measure_from_us = warm_us;
        for g in s.flows.iter_mut().filter(|g| g.start_us > 0.0) {
            g.start_us = later_us;
        }
        for law in LAWS {
            let got = figures(&s.run_one(law, false).expect("runs"));
            let rows = PAGE.iter().filter(|r| r.0 == name && r.1 == *law);
            let mut n = 0;
            for &(_, _, fig, sim, kernel, pass) in rows {
                n += 1;
                let v = fig.of(&got).unwrap_or(f64::NAN);
                let tol = fig.tolerance(sim);
                assert!(
                    (v - sim).abs() <= tol,
                    "{name} {law} {fig:?}: {v:.3} in the short run, the page's simulator \
                     figure is {sim} ± {tol:.3}"
                );
                if pass {
                    let tol = fig.tolerance(kernel);
                    assert!(
                        (v - kernel).abs() <= tol,
                        "{name} {law} {fig:?}: {v:.3}, the kernel's {kernel} ± {tol:.3} (the \
                         page says it passes)"
                    );
                }
            }
            assert!(n > 0, "{name} {law}: no row on the page");
        }
    }
}

/// `dc_multihop`'s rows of the page (uml_vs_sim.md "dc_multihop"): (law, figure, simulator,
/// kernel, within the tolerance on the page). VAI/SF is not translated on a multi-hop path.
#[rustfmt::skip]
const MULTIHOP_PAGE: &[(&str, Fig, f64, f64, bool)] = &[
    ("dctcp", Fig::GoodputMbit, 9564.1, 9563.3, true),
    ("dctcp", Fig::Jain, 1.0, 1.0, true),
    ("dctcp", Fig::RttMeanUs, 98.4, 103.8, true),
    ("dctcp", Fig::RttP99Us, 107.8, 108.0, true),
    ("swift", Fig::GoodputMbit, 9564.1, 9562.7, true),
    ("swift", Fig::Jain, 1.0, 1.0, true),
    ("swift", Fig::RttMeanUs, 37.4, 37.2, true),
    ("swift", Fig::RttP99Us, 41.2, 41.0, true),
    ("timely", Fig::GoodputMbit, 8525.8, 8929.6, false),
    ("timely", Fig::Jain, 1.0, 0.987, true),
    ("timely", Fig::RttMeanUs, 81.2, 89.6, true),
    ("timely", Fig::RttP99Us, 296.3, 284.0, true),
    ("theta_powertcp", Fig::GoodputMbit, 9564.1, 9559.1, true),
    ("theta_powertcp", Fig::Jain, 1.0, 1.0, true),
    ("theta_powertcp", Fig::RttMeanUs, 39.5, 40.4, true),
    ("theta_powertcp", Fig::RttP99Us, 43.6, 51.0, true),
];

/// The simulator's side of the page's `dc_multihop` table cannot drift: the file's full run
/// (2 s: the simulator is deterministic, so it is the page's), every law and figure within its
/// tolerance of the page's simulator figure and of the kernel's where the page says it passes.
#[test]
fn the_simulator_keeps_the_pages_multihop_figures() {
    let laws: Vec<String> = ["dctcp", "swift", "timely", "theta_powertcp"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let s = translate(&load("dc_multihop").expect("loads"), Some(&laws)).expect("translates");
    hold_to_page(&s, &laws, MULTIHOP_PAGE);
}

/// Run every law of `s` at the file's full length and hold each to `page`'s rows: within the
/// tolerance of the page's simulator figure, and within (or beyond, as the page says) the
/// tolerance of the kernel's.
fn hold_to_page(s: &SimScenario, laws: &[String], page: &[(&str, Fig, f64, f64, bool)]) {
    let name = &s.name;
    for law in laws {
        let got = figures(&s.run_one(law, false).expect("runs"));
        let rows: Vec<_> = page.iter().filter(|r| r.0 == law).collect();
        assert_eq!(rows.len(), 4, "{name} {law}: four figures on the page");
        for &&(_, fig, sim, kernel, pass) in &rows {
            let v = fig.of(&got).unwrap_or(f64::NAN);
            let tol = fig.tolerance(sim);
            assert!(
                (v - sim).abs() <= tol,
                "{name} {law} {fig:?}: {v:.3}, the page's simulator figure is {sim} ± {tol:.3}"
            );
            let tol = fig.tolerance(kernel);
            assert_eq!(
                (v - kernel).abs() <= tol,
                pass,
                "{name} {law} {fig:?}: {v:.3} against the kernel's {kernel} ± {tol:.3}: the \
                 page says {}",
                if pass { "within" } else { "beyond" }
            );
        }
    }
}

/// Documentation/results/int_testbed.md's tables: (law, figure, simulator, kernel, within the
/// tolerance on the page), per file.
#[rustfmt::skip]
const INT_INCAST_PAGE: &[(&str, Fig, f64, f64, bool)] = &[
    ("powertcp", Fig::GoodputMbit, 9405.5, 9374.8, true),
    ("powertcp", Fig::Jain, 1.0, 1.0, true),
    ("powertcp", Fig::RttMeanUs, 42.7, 40.0, true),
    ("powertcp", Fig::RttP99Us, 49.0, 43.0, true),
    ("hpcc", Fig::GoodputMbit, 9095.5, 9042.9, true),
    ("hpcc", Fig::Jain, 1.0, 1.0, true),
    ("hpcc", Fig::RttMeanUs, 23.4, 21.9, true),
    ("hpcc", Fig::RttP99Us, 26.6, 26.0, true),
    ("theta_powertcp", Fig::GoodputMbit, 9405.5, 9377.9, true),
    ("theta_powertcp", Fig::Jain, 1.0, 1.0, true),
    ("theta_powertcp", Fig::RttMeanUs, 41.5, 41.6, true),
    ("theta_powertcp", Fig::RttP99Us, 50.9, 46.0, true),
];
/// See [`INT_INCAST_PAGE`].
#[rustfmt::skip]
const INT_FAIRNESS_PAGE: &[(&str, Fig, f64, f64, bool)] = &[
    ("powertcp", Fig::GoodputMbit, 9400.1, 9403.6, true),
    ("powertcp", Fig::Jain, 1.0, 1.0, true),
    ("powertcp", Fig::RttMeanUs, 29.5, 37.8, false),
    ("powertcp", Fig::RttP99Us, 38.8, 68.0, false),
    ("hpcc", Fig::GoodputMbit, 9131.1, 9017.7, true),
    ("hpcc", Fig::Jain, 0.988, 1.0, true),
    ("hpcc", Fig::RttMeanUs, 22.1, 20.3, true),
    ("hpcc", Fig::RttP99Us, 22.5, 22.0, true),
    ("theta_powertcp", Fig::GoodputMbit, 9405.6, 9407.3, true),
    ("theta_powertcp", Fig::Jain, 1.0, 1.0, true),
    ("theta_powertcp", Fig::RttMeanUs, 29.1, 32.3, true),
    ("theta_powertcp", Fig::RttP99Us, 29.1, 49.0, false),
];

/// The simulator's side of int_testbed.md cannot drift: both INT files at full length (2 s),
/// every law and figure held to the page.
#[test]
fn the_simulator_keeps_the_int_pages_figures() {
    let laws: Vec<String> = ["powertcp", "hpcc", "theta_powertcp"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for (name, page) in [
        ("dc_int_incast_10to1", INT_INCAST_PAGE),
        ("dc_int_fairness", INT_FAIRNESS_PAGE),
    ] {
        let s = translate(&load(name).expect("loads"), Some(&laws)).expect("translates");
        hold_to_page(&s, &laws, page);
    }
}

/// The web-search file's flows reach the simulator one by one as the bed runs them
/// (`scenario::expand`): same sizes, same start times, same receiver; the chain's two switches
/// both fit in the echo (ACKs of 66 + 24 bytes: 5 + 2 × 8, padded).
#[test]
fn a_workload_translates_flow_by_flow() {
    let vm = load("dc_int_websearch").expect("loads");
    assert!(vm.path.int && vm.path.hops == 2);
    let s = translate(&vm, None).expect("translates");
    let bed = vm.expand(vm.duration_s);
    assert_eq!(bed.len(), 600);
    assert_eq!(s.flows.len(), bed.len());
    for (f, b) in s.flows.iter().zip(&bed) {
        assert_eq!(f.count, 1);
        assert_eq!(Some(f.size_bytes), b.bytes);
        assert_eq!(f.start_us, f64::from(b.start_ms) * 1000.0);
        assert_eq!((f.src, f.dst), (0, 1), "the chain's first host to its last");
        assert_eq!(f.cc, None, "under_test");
    }
    assert_eq!(s.transport.ack_bytes, 66 + 24);
    SimScenario::parse(&s.to_toml().expect("serializes"))
        .and_then(|p| p.check_builds())
        .unwrap_or_else(|e| panic!("{e}"));
}

/// int_testbed.md's web-search table: (law, size bin, FCT p50 µs simulator, kernel, FCT p99 µs
/// simulator, kernel); every kernel figure within the page's tolerance.
#[rustfmt::skip]
const INT_WEBSEARCH_PAGE: &[(&str, &str, f64, f64, f64, f64)] = &[
    ("powertcp", "<10KB", 31.6, 31.0, 58.3, 73.2),
    ("powertcp", "10KB-100KB", 87.0, 76.8, 406.8, 278.0),
    ("powertcp", "100KB-1MB", 990.3, 960.8, 7537.8, 7520.3),
    ("powertcp", ">=1MB", 8170.1, 8021.8, 84810.5, 84953.6),
    ("hpcc", "<10KB", 29.2, 23.8, 53.9, 69.9),
    ("hpcc", "10KB-100KB", 84.4, 73.0, 248.7, 220.4),
    ("hpcc", "100KB-1MB", 888.1, 814.6, 6955.1, 7016.7),
    ("hpcc", ">=1MB", 9384.6, 9454.6, 94763.3, 92933.4),
    ("theta_powertcp", "<10KB", 32.2, 33.5, 64.0, 78.1),
    ("theta_powertcp", "10KB-100KB", 86.9, 87.0, 271.2, 340.5),
    ("theta_powertcp", "100KB-1MB", 960.7, 994.3, 7395.4, 7599.4),
    ("theta_powertcp", ">=1MB", 8126.9, 8049.2, 84892.8, 84822.5),
];

/// The simulator's side of int_testbed.md's web-search table cannot drift: the file's full run
/// (600 flows, 2 s), every law's completion times by flow size within 0.1 µs of the page's
/// simulator figures (the page rounds), every flow done, and the page's kernel figures within
/// the page's tolerances of them (p50 ± max(10 µs, 25 %), p99 ± max(20 µs, 50 %) of the
/// kernel's).
#[test]
fn the_simulator_keeps_the_websearch_pages_figures() {
    let laws: Vec<String> = ["powertcp", "hpcc", "theta_powertcp"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let s = translate(&load("dc_int_websearch").expect("loads"), Some(&laws)).expect("translates");
    for law in &laws {
        let r = s.run_one(law, false).expect("runs");
        assert_eq!(
            (r.summary.flows_done, r.summary.flows_finite),
            (600, 600),
            "{law}: every flow done"
        );
        let rows: Vec<_> = INT_WEBSEARCH_PAGE.iter().filter(|r| r.0 == law).collect();
        assert_eq!(rows.len(), r.summary.bins.len(), "{law}: a row per bin");
        for (&&(_, bin, p50, k50, p99, k99), b) in rows.iter().zip(&r.summary.bins) {
            assert_eq!(b.label, bin, "{law}: bins in order");
            for (what, got, page, kernel, tol) in [
                ("p50", b.fct_p50_us, p50, k50, (10.0f64).max(0.25 * k50)),
                ("p99", b.fct_p99_us, p99, k99, (20.0f64).max(0.5 * k99)),
            ] {
                assert!(
                    (got - page).abs() <= 0.1,
                    "{law} {bin} FCT {what}: {got:.3} us, the page's simulator figure is {page}"
                );
                assert!(
                    (got - kernel).abs() <= tol,
                    "{law} {bin} FCT {what}: {got:.1} us against the kernel's {kernel} ± {tol:.1}"
                );
            }
        }
    }
}
