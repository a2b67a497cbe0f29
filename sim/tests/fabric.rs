//! The lossless fabric and the host model: PFC (no drop in a pause-respecting incast, pauses
//! propagating hop by hop), shared buffers, per-link delays, slow receivers binding Swift's
//! endpoint window. Each scenario simulates at most a few milliseconds.

use rdcc_sim::scenario::RunResult;
use rdcc_sim::Scenario;

fn run(text: &str, alg: &str) -> RunResult {
    Scenario::parse(text).unwrap().run_one(alg, false).unwrap()
}

fn port<'a>(r: &'a RunResult, name: &str) -> &'a rdcc_sim::engine::PortStat {
    r.out
        .port_stats
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| panic!("no port {name}"))
}

/// A 16:1 incast of 500 KB flows starting together at line rate (Reno with a 64-packet
/// initial window and no pacing) into one switch with a small shared buffer.
fn incast(fabric: &str) -> String {
    format!(
        r#"
name = "pfc_incast"
duration_us = 6000
sample_us = 20
algorithms = ["reno"]
[topology]
kind = "incast"
senders = 16
host_rate_gbps = 25
link_delay_us = 1
buffer_kb = 40
[transport]
mss_bytes = 1000
header_bytes = 48
[[flows]]
src = 0
dst = 16
count = 16
size_bytes = 500000
[cc.reno]
law = "reno"
init_cwnd_pkts = 64
{fabric}
"#
    )
}

#[test]
fn pfc_incast_drops_nothing_and_pauses_the_senders() {
    let lossy = run(
        &incast("[fabric]\nbuffer = \"shared\"\nswitch_buffer_kb = 400"),
        "reno",
    );
    assert!(
        lossy.out.counters.data_dropped > 0,
        "without PFC the burst overflows the shared buffer"
    );
    assert_eq!(lossy.out.counters.pfc_pauses, 0);

    let r = run(
        &incast("[fabric]\nbuffer = \"shared\"\nswitch_buffer_kb = 400\npfc = true"),
        "reno",
    );
    let c = &r.out.counters;
    assert_eq!(c.data_dropped + c.acks_dropped, 0, "PFC: lossless");
    assert_eq!(c.retransmits, 0);
    assert!(c.pfc_pauses > 0 && c.pfc_paused_ns > 0);
    // Every sender's ingress queue paused its NIC at some point.
    for h in 0..16 {
        assert!(port(&r, &format!("sw->h{h}")).pauses_sent > 0, "h{h}");
    }
    assert!(r.out.flows.iter().all(|f| f.finish_ns.is_some()));
    // Still work-conserving: 16 x 500 KB (plus headers) at 25 Gbit/s is 2.68 ms.
    let last = r
        .out
        .flows
        .iter()
        .filter_map(|f| f.finish_ns)
        .max()
        .unwrap();
    assert!(last < 3_100_000, "last completion {last} ns");
}

/// Dumbbell: 8 senders on L, the receiver on R behind a 10 Gbit/s access link; L-R runs at
/// 100 Gbit/s. R's queue to the receiver fills, R pauses L (its ingress from L), L's queue to
/// R fills, L pauses the senders.
const CHAIN: &str = r#"
name = "pfc_chain"
duration_us = 3000
sample_us = 20
algorithms = ["reno"]
[topology]
kind = "dumbbell"
left = 8
right = 1
host_rate_gbps = 25
bottleneck_rate_gbps = 100
link_delay_us = 2
buffer_kb = 100
[[links]]
host = 8
rate_gbps = 10
[transport]
mss_bytes = 1000
header_bytes = 48
[fabric]
buffer = "shared"
pfc = true
[[flows]]
src = 0
dst = 8
count = 8
size_bytes = 200000
[cc.reno]
law = "reno"
init_cwnd_pkts = 64
[report]
bottlenecks = ["R->h8", "L->R"]
"#;

#[test]
fn pfc_pause_propagates_hop_by_hop() {
    let r = run(CHAIN, "reno");
    let c = &r.out.counters;
    assert_eq!(c.data_dropped + c.acks_dropped, 0);
    // Hop 1: R's ingress from L pauses L's transmitter towards R.
    assert!(port(&r, "R->L").pauses_sent > 0);
    assert!(port(&r, "L->R").paused_ns > 0);
    // Hop 2: L's ingress queues from the senders pause the senders' NICs.
    let from_hosts: u64 = (0..8)
        .map(|h| port(&r, &format!("L->h{h}")).pauses_sent)
        .sum();
    assert!(from_hosts > 0);
    // The receiver side is the only place data waits long: L->R never needs to drop, and
    // the summary names both bottlenecks.
    assert_eq!(r.summary.ports.len(), 2);
    assert_eq!(r.summary.ports[0].name, "R->h8");
    assert!(r.summary.ports[1].paused_us > 0.0);
    // Without PFC the same set-up drops at R.
    let lossy = run(&CHAIN.replace("pfc = true", "pfc = false"), "reno");
    assert!(port(&lossy, "R->h8").drops > 0);
}

/// Two senders whose access links give base RTTs of 10 and 40 µs to one receiver.
const HETERO: &str = r#"
name = "rtt_hetero"
duration_us = 2000
sample_us = 20
algorithms = ["swift"]
[topology]
kind = "incast"
senders = 2
host_rate_gbps = 100
link_delay_us = 1
buffer_kb = 1000
[[links]]
host = 0
delay_us = 4
[[links]]
host = 1
delay_us = 19
[transport]
mss_bytes = 1000
header_bytes = 48
[[flows]]
src = 0
dst = 2
size_bytes = 200000
[[flows]]
src = 1
dst = 2
size_bytes = 200000
start_us = 500
"#;

#[test]
fn per_link_delays_give_each_flow_its_own_base_rtt() {
    let r = run(HETERO, "swift");
    // RTT = 2 x (access delay + receiver link delay 1 µs) + serialization (1048 B and 64 B
    // at 100 Gbit/s on two hops each: 0.18 µs).
    for (f, base_us) in [(0, 10.0), (1, 40.0)] {
        let min = r.out.flows[f].min_rtt_ns.unwrap() as f64 / 1000.0;
        assert!(
            min >= base_us && min < base_us + 0.5,
            "flow {f}: min RTT {min} us, base {base_us} us"
        );
    }
}

/// One Swift flow into a receiver whose receive path processes 5 Gbit/s on a 25 Gbit/s link.
fn slow_receiver(rx: &str) -> String {
    format!(
        r#"
name = "slow_receiver"
duration_us = 5000
measure_from_us = 2500
sample_us = 20
algorithms = ["swift"]
[topology]
kind = "incast"
senders = 1
host_rate_gbps = 25
link_delay_us = 2
buffer_kb = 2000
[transport]
mss_bytes = 1000
header_bytes = 48
remote_delay = true
[[flows]]
src = 0
dst = 1
{rx}
"#
    )
}

#[test]
fn slow_receiver_binds_swifts_endpoint_window() {
    let r = run(
        &slow_receiver("[[hosts]]\nids = [1]\nrx_rate_gbps = 5"),
        "swift",
    );
    let c = &r.out.counters;
    let share = c.endpoint_binds as f64 / c.acks_processed as f64;
    // The fabric window grows additively (the fabric delay stays below its target) until it
    // passes the endpoint window, about 2 ms in; from then on the endpoint window binds.
    assert!(share > 0.95, "endpoint window bound on {share:.2} of ACKs");
    // Receiver-limited: goodput near 5 Gbit/s of wire bytes (1000 of 1048 are payload).
    let g = r.summary.goodput_gbps;
    assert!(g > 4.3 && g < 4.8, "goodput {g} Gbit/s");
    // Fast receiver: the fabric window is the one in force.
    let fast = run(&slow_receiver(""), "swift");
    assert_eq!(fast.out.counters.endpoint_binds, 0);
    assert!(fast.summary.goodput_gbps > 20.0);
}

/// One Reno flow of 100 segments whose last segment is lost once.
fn tail_loss(tlp: bool) -> String {
    format!(
        r#"
name = "tail_loss"
duration_us = 3000
sample_us = 20
algorithms = ["reno"]
[topology]
kind = "incast"
senders = 1
host_rate_gbps = 10
link_delay_us = 2
buffer_kb = 1000
[transport]
mss_bytes = 1000
header_bytes = 48
min_rto_us = 1000
tlp = {tlp}
[[flows]]
src = 0
dst = 1
size_bytes = 100000
[cc.reno]
law = "reno"
init_cwnd_pkts = 100
[[inject_drop]]
flow = 0
seg = 99
"#
    )
}

#[test]
fn tail_loss_probe_repairs_a_tail_loss_without_the_rto() {
    let with = run(&tail_loss(true), "reno");
    let c = &with.out.counters;
    assert_eq!(c.data_dropped, 1);
    assert_eq!(c.timeouts, 0);
    assert!(c.tlp_probes >= 1);
    assert_eq!(c.retransmits, 1, "the probe is the retransmission");
    // 100 packets at 10 Gbit/s (84 us) + about 2 srtt + one RTT, far below the 1 ms RTO.
    let fct = with.out.flows[0].finish_ns.unwrap();
    assert!(fct < 300_000, "FCT {fct} ns");
    let without = run(&tail_loss(false), "reno");
    assert_eq!(without.out.counters.timeouts, 1);
    assert_eq!(without.out.counters.tlp_probes, 0);
    assert!(without.out.flows[0].finish_ns.unwrap() > 1_000_000);
}

#[test]
fn sack_recovers_three_holes_with_exactly_three_retransmissions() {
    // Three separate losses in one window: every later ACK carries the SACK blocks, RACK
    // marks exactly the three holes lost, and fast recovery repairs them without a timeout.
    let text = tail_loss(true).replace(
        "[[inject_drop]]\nflow = 0\nseg = 99",
        "[[inject_drop]]\nflow = 0\nseg = 10\n[[inject_drop]]\nflow = 0\nseg = 40\n[[inject_drop]]\nflow = 0\nseg = 70",
    );
    let r = run(&text, "reno");
    let c = &r.out.counters;
    assert_eq!(c.data_dropped, 3);
    assert_eq!(c.retransmits, 3);
    assert_eq!(c.timeouts, 0);
    assert!(r.out.flows[0].finish_ns.is_some());
}

#[test]
fn sack_blocks_survive_lost_acks() {
    // Segment 10 is lost; so are the ACKs that reported segments 15, 16 and 17. Each later
    // ACK's blocks still cover [11, ...), so the sender learns 15-17 arrived and retransmits
    // only segment 10: one retransmission, no duplicate at the receiver.
    let text = tail_loss(false).replace(
        "[[inject_drop]]\nflow = 0\nseg = 99",
        "[[inject_drop]]\nflow = 0\nseg = 10\n\
         [[inject_drop]]\nflow = 0\nseg = 15\nack = true\n\
         [[inject_drop]]\nflow = 0\nseg = 16\nack = true\n\
         [[inject_drop]]\nflow = 0\nseg = 17\nack = true",
    );
    let r = run(&text, "reno");
    let c = &r.out.counters;
    assert_eq!(c.data_dropped, 1);
    assert_eq!(c.acks_dropped, 3);
    assert_eq!(c.retransmits, 1);
    assert_eq!(c.data_delivered, 100, "every segment arrived once");
    assert_eq!(c.timeouts, 0);
}
