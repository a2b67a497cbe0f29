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
