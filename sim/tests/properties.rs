//! Property tests (the Jain index's bounds are `rdcc_sim::stats`'s): conservation plus completion over random small
//! scenarios (random topology sizes, algorithms, buffers, ACK policies, switch buffer models,
//! tail-loss probes, slow receivers and seeds); with PFC, no packet is ever dropped.

use proptest::prelude::*;
use rdcc_sim::Scenario;

const ALGS: &[&str] = &[
    "swift",
    "swift_vaisf",
    "timely",
    "theta_powertcp",
    "dctcp",
    "reno",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn random_scenarios_conserve_packets(
        seed in 0u64..1000,
        senders in 1u32..6,
        alg in 0usize..6,
        buffer_kb in 8.0f64..200.0,
        ack_every in 1u32..3,
        size_kb in 1u64..300,
        leaf_spine in any::<bool>(),
        fabric in 0usize..3,
        tlp in any::<bool>(),
        slow_rx_gbps in 0u32..12,
    ) {
        let topo = if leaf_spine {
            "kind = \"leaf_spine\"\nleaves = 2\nspines = 2\nhosts_per_leaf = 3\nhost_rate_gbps = 10\nfabric_rate_gbps = 10\nlink_delay_us = 1".to_string()
        } else {
            format!("kind = \"incast\"\nsenders = {senders}\nhost_rate_gbps = 10\nlink_delay_us = 1")
        };
        let dst = if leaf_spine { 5 } else { senders };
        // Static per-port buffers, a shared buffer, or a shared buffer with PFC (large enough
        // for the headroom of every port: the simulator refuses a smaller one).
        let fab = match fabric {
            0 => String::new(),
            1 => format!("[fabric]\nbuffer = \"shared\"\nswitch_buffer_kb = {}", buffer_kb * 2.0),
            _ => format!("[fabric]\nbuffer = \"shared\"\npfc = true\nswitch_buffer_kb = {}", buffer_kb * 2.0 + 100.0),
        };
        // Sometimes a receiver slower than its link (0 = no receive path).
        let rx = if slow_rx_gbps > 0 {
            format!("[[hosts]]\nids = [{dst}]\nrx_rate_gbps = {slow_rx_gbps}\nrx_delay_us = 1")
        } else {
            String::new()
        };
        let count = if leaf_spine { 5 } else { senders };
        let text = format!(r#"
name = "prop"
seed = {seed}
duration_us = 3000
algorithms = ["{alg}"]
[topology]
{topo}
buffer_kb = {buffer_kb}
ecn_k_kb = 5
[transport]
ack_every = {ack_every}
min_rto_us = 100
rtt_noise_ns = 500
tlp = {tlp}
{fab}
{rx}
[[flows]]
src = 0
dst = {dst}
count = {count}
size_bytes = {size}
stagger_us = 3
"#, alg = ALGS[alg], size = size_kb * 1000);
        let sc = Scenario::parse(&text).unwrap();
        let r = sc.run_one(ALGS[alg], false).unwrap();
        let c = &r.out.counters;
        prop_assert_eq!(c.data_sent, c.data_delivered + c.data_dropped + r.out.data_in_network);
        if fabric == 2 {
            prop_assert_eq!(c.data_dropped + c.acks_dropped, 0, "PFC is lossless");
        }
        for f in &r.out.flows {
            prop_assert!(f.rx_bytes <= f.spec.size_bytes);
            if let Some(t) = f.finish_ns {
                prop_assert_eq!(f.rx_bytes, f.spec.size_bytes);
                prop_assert!(t - f.spec.start_ns >= f.ideal_ns, "FCT below the ideal");
            }
        }
    }
}
