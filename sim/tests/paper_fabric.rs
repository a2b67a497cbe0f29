//! `sim/scenarios/powertcp_fabric_websearch.toml` is PowerTCP §4.1's fabric as the spec
//! (powertcp-vaisf.md §6.1) and the artifact's `topology-256.txt` give it: 256 servers in 4 pods
//! of 2 ToRs, 25 Gbit/s servers, 100 Gbit/s switch links, 4:1 at the ToR, 1 µs per link but
//! 5 µs between aggregation and core, 4 MiB shared per switch with PFC, τ = the largest base
//! RTT, and the artifact's load: `load` of the ToR uplink per server.

mod common;
use common::scenario_file;

/// The built network, switch by switch tier: what each kind of switch has, checked against the
/// paper's numbers.
#[test]
fn the_fabric_is_the_papers() {
    let sc = scenario_file("powertcp_fabric_websearch.toml");
    let net = sc.network().unwrap();
    assert_eq!(net.host_nodes.len(), 256);
    let node = |i: u32| &net.nodes[i as usize];
    // (name prefix, switches, ports down (rate Gbit/s, delay µs), ports up (rate, delay)).
    type Tier = (&'static str, usize, (usize, u64, u64), (usize, u64, u64));
    let tiers: &[Tier] = &[
        ("edge", 8, (32, 25, 1), (2, 100, 1)),
        ("agg", 8, (2, 100, 1), (2, 100, 5)),
        // The paper's 2 cores have 8 ports each; a k = 4 fat-tree has 4 of 4: the same 16
        // aggregation-core links and capacity, twice the core switches (and buffers).
        ("core", 4, (4, 100, 5), (0, 0, 0)),
    ];
    for &(prefix, count, down, up) in tiers {
        let sws: Vec<_> = net
            .nodes
            .iter()
            .filter(|n| n.host.is_none() && n.name.starts_with(prefix))
            .collect();
        assert_eq!(sws.len(), count, "{prefix} switches");
        for sw in sws {
            // Down: towards hosts or a lower tier; up: towards the next tier.
            let is_up = |peer: u32| {
                let p = &node(peer).name;
                match prefix {
                    "edge" => p.starts_with("agg"),
                    "agg" => p.starts_with("core"),
                    _ => false,
                }
            };
            for (want, upward) in [(down, false), (up, true)] {
                let ports: Vec<_> = sw
                    .ports
                    .iter()
                    .filter(|p| is_up(p.peer) == upward)
                    .collect();
                assert_eq!(ports.len(), want.0, "{}: ports up={upward}", sw.name);
                for p in ports {
                    assert_eq!(
                        (p.rate_bits_per_s, p.delay_ns),
                        (want.1 * 1_000_000_000, want.2 * 1000),
                        "{}: port {}",
                        sw.name,
                        p.name
                    );
                }
            }
        }
    }
    // 4:1 at the ToR: 32 x 25 Gbit/s down against 2 x 100 up.
    assert_eq!(32 * 25 / (2 * 100), 4);
    // τ covers the largest base RTT: 2 x (1 + 1 + 5 + 5 + 1 + 1) µs of propagation plus the
    // serialization of a 1048 B packet (two 25 Gbit/s and four 100 Gbit/s hops) and of its
    // 64 B ACK.
    let ser_ns = |bytes: f64, gbps: f64| bytes * 8.0 / gbps;
    let max_rtt_ns = 28_000.0
        + 2.0 * ser_ns(1048.0, 25.0)
        + 4.0 * ser_ns(1048.0, 100.0)
        + 2.0 * ser_ns(64.0, 25.0)
        + 4.0 * ser_ns(64.0, 100.0);
    for alg in ["powertcp_int", "theta_powertcp", "hpcc"] {
        let tau = sc.cc[alg]["base_rtt_ns"].as_integer().unwrap() as f64;
        assert!(
            (tau - max_rtt_ns).abs() < 100.0,
            "{alg}: tau {tau} ns, max base RTT {max_rtt_ns} ns"
        );
    }
    // The artifact's load: each server offers load x (32 x 25 / 4) / 32 Gbit/s = 60 % of its
    // share of the ToR uplink.
    let w = sc.workload.as_ref().unwrap();
    assert_eq!((w.cdf.as_str(), w.load), ("websearch", 0.6 * 200.0 / 800.0));
    assert!(sc.fabric.pfc);
    assert_eq!(sc.fabric.switch_buffer_kb, 4.0 * 1048.576);
}

/// `powertcp_fabric_websearch_incast.toml`'s file requests on the built fabric (PowerTCP
/// §4.1: responders "chosen uniformly at random from a different rack", all answering at
/// once), made cheap: no web search, 1 ms of requests at 200/s per server, 10 KB files. Every
/// request has 10 distinct responders, none under the requester's ToR (hosts are numbered
/// 32 per ToR), starting together, and its parts sum to the file.
#[test]
fn file_requests_come_from_other_racks_of_the_fabric() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/powertcp_fabric_websearch_incast.toml"
    ))
    .unwrap();
    let (head, requests) = text.split_once("[workload]").unwrap();
    let requests = &requests[requests.find("[requests]").unwrap()..];
    let text = format!("{head}{requests}")
        .replace("duration_us = 30000", "duration_us = 3000")
        .replace("rate_per_s = 16 ", "rate_per_s = 200 ")
        .replace("size_bytes = 2000000", "size_bytes = 10000")
        .replace("stop_us = 10000", "stop_us = 1000");
    let sc = rdcc_sim::Scenario::parse(&text).unwrap();
    let r = sc.run_one("hpcc", false).unwrap();
    let mut by_req: std::collections::BTreeMap<(u32, u64), Vec<(u32, u64)>> = Default::default();
    for f in &r.out.flows {
        by_req
            .entry((f.spec.dst, f.spec.start_ns))
            .or_default()
            .push((f.spec.src, f.spec.size_bytes));
        assert!(f.finish_ns.is_some(), "{:?} unfinished", f.spec);
    }
    // 256 servers x 200/s x 1 ms = 51.2 requests expected (Poisson; sd 7.2).
    assert!((25..=80).contains(&by_req.len()), "{}", by_req.len());
    for ((dst, t), parts) in &by_req {
        let mut srcs: Vec<u32> = parts.iter().map(|p| p.0).collect();
        srcs.sort_unstable();
        srcs.dedup();
        assert_eq!(srcs.len(), 10, "request of {dst} at {t} ns");
        assert!(srcs.iter().all(|s| s / 32 != dst / 32), "{dst}: {srcs:?}");
        assert_eq!(parts.iter().map(|p| p.1).sum::<u64>(), 10_000);
    }
}
