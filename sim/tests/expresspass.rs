//! ExpressPass in the simulator (issue 17): zero data loss and Eq. 1's queue bound in N:1
//! incast up to N = 256, convergence against DCTCP, symmetric paths, the naive scheme's
//! parking-lot utilisation (§3 Fig. 4b) and what feedback control restores, malformed keys
//! refused. Scaled down from the scenario files (`sim/scenarios/xpass_*.toml`) to keep the
//! suite short in debug builds.

use rdcc_sim::scenario::{RunResult, Scenario};

mod common;
use common::run;

fn scenario(text: &str) -> Scenario {
    Scenario::parse(text).unwrap()
}

fn incast(n: u32, size: u64, dur_us: u32, algos: &str) -> Scenario {
    scenario(&format!(
        r#"
name = "t"
duration_us = {dur_us}
sample_us = 20
algorithms = [{algos}]
[topology]
kind = "incast"
senders = {n}
host_rate_gbps = 10
link_delay_us = 1
buffer_kb = 384.5
ecn_k_kb = 65
[transport]
mss_bytes = 1460
header_bytes = 78
[[flows]]
src = 0
dst = {n}
count = {n}
size_bytes = {size}
"#
    ))
}

/// Every switch port's largest data queue against its Eq. 1 bound (`XpassSim::eq1_bounds`);
/// returns the bound of the port named `name`.
fn check_eq1(sc: &Scenario, r: &RunResult, name: &str) -> u64 {
    let bounds = sc.build_xpass(&r.name).unwrap().unwrap().eq1_bounds();
    assert!(!bounds.is_empty());
    let mut named = None;
    for b in bounds.values() {
        let st = r.out.port_stats.iter().find(|p| p.name == b.name).unwrap();
        assert!(
            st.max_queue_bytes <= b.bytes,
            "{}: queue {} B above the Eq. 1 bound {} B (spread {} ns)",
            b.name,
            st.max_queue_bytes,
            b.bytes,
            b.spread_ns
        );
        if b.name == name {
            named = Some(b.bytes);
        }
    }
    named.unwrap_or_else(|| panic!("no bound for {name}"))
}

#[test]
fn incast_has_no_data_loss_and_stays_below_the_eq1_bound() {
    // The switch port to the receiver, by hand from Eq. 1 (bound.rs): two credit hops
    // (receiver NIC, switch port to the sender), each up to 8 credits of 92 B at
    // 517,879,161 bit/s = ceil(11369.5) = 11370 ns of queue, plus a 1538 B frame on the wire
    // (1230.4 -> 1231 ns), plus 74 - 61 ns of credit-size serialization spread: 2 x 12614 =
    // 25228 ns; host spread 1000 ns; the sender NIC's data queue (1000 ns of 10 Gbit/s =
    // 1250 B + 2 frames = 4326 B) = 3461 ns. Spread 29689 ns = 37111.25 -> 37112 B, + 2 frames
    // (3076 B) = 40188 B.
    for (n, size) in [(16u32, 64_000u64), (64, 16_000), (256, 8_000)] {
        let sc = incast(n, size, 6_000, "\"expresspass\"");
        let r = run(&sc, "expresspass");
        let x = r.xpass.as_ref().unwrap();
        assert_eq!(r.out.counters.data_dropped, 0, "N={n}");
        assert_eq!(x.data_class_dropped, 0, "N={n}");
        assert_eq!(r.summary.flows_done, n as usize, "N={n}");
        let bound = check_eq1(&sc, &r, &format!("sw->h{n}"));
        assert_eq!(bound, 40_188, "N={n}");
        assert!(x.max_switch_queue_bytes <= bound, "N={n}");
        assert!(
            x.credits_dropped > 0,
            "N={n}: the credit limiters must bind"
        );
    }
    // DCTCP on the same 256:1 incast overflows the same buffer.
    let sc = incast(256, 8_000, 6_000, "\"dctcp\"");
    let d = run(&sc, "dctcp");
    assert!(d.out.counters.data_dropped > 0);
}

/// Mean goodput of each flow over samples in (from_ns, to_ns], Gbit/s.
fn means(r: &RunResult, from_ns: u64, to_ns: u64) -> Vec<f64> {
    let s = &r.out.series;
    let idx: Vec<usize> = (0..s.t_ns.len())
        .filter(|&i| s.t_ns[i] > from_ns && s.t_ns[i] <= to_ns)
        .collect();
    s.flow_bps
        .iter()
        .map(|v| idx.iter().map(|&i| v[i]).sum::<f64>() / idx.len() as f64 / 1e9)
        .collect()
}

/// The lines every scenario of the join tests shares, before `[topology]`.
fn scenario_head(seed: u64, end_us: u32) -> String {
    format!(
        "\nname = \"t\"\nseed = {seed}\nduration_us = {end_us}\nsample_us = 10\n\
         algorithms = [\"expresspass\", \"dctcp\"]"
    )
}

/// ... and after the topology's own keys: buffers, transport, the law's table header.
const SCENARIO_TAIL: &str = "buffer_kb = 2000\necn_k_kb = 65\n[transport]\nmss_bytes = 1460\n\
                             header_bytes = 78\n[cc.expresspass]\nlaw = \"expresspass\"";

fn join_scenario(link_delay_us: u32, join_us: u32, end_us: u32, seed: u64) -> Scenario {
    join_scenario_j(link_delay_us, join_us, end_us, seed, 6554, "")
}

fn join_scenario_j(
    link_delay_us: u32,
    join_us: u32,
    end_us: u32,
    seed: u64,
    jitter_q16: u64,
    extra: &str,
) -> Scenario {
    scenario(&format!(
        r#"{head}
[topology]
kind = "incast"
senders = 3
host_rate_gbps = 10
link_delay_us = {link_delay_us}
{tail}
jitter_q16 = {jitter_q16}
{extra}
[[flows]]
src = 0
dst = 3
count = 2
[[flows]]
src = 2
dst = 3
start_us = {join_us}
"#,
        head = scenario_head(seed, end_us),
        tail = SCENARIO_TAIL
    ))
}

/// First window (of `win_ns`, from `join_ns`) in which every flow is within ±`tol` of the
/// fair share, as time after `join_ns`.
fn reached_after(r: &RunResult, join_ns: u64, end_ns: u64, win_ns: u64, tol: f64) -> Option<u64> {
    let mut t = join_ns;
    while t + win_ns <= end_ns {
        let m = means(r, t, t + win_ns);
        let fair = m.iter().sum::<f64>() / m.len() as f64;
        if m.iter().all(|&g| (g - fair).abs() <= tol * fair) {
            return Some(t + win_ns - join_ns);
        }
        t += win_ns;
    }
    None
}

/// Mean Jain index of the flows' goodput over consecutive windows of `win_ns` in
/// (from_ns, to_ns].
fn window_jain(r: &RunResult, from_ns: u64, to_ns: u64, win_ns: u64) -> f64 {
    let mut t = from_ns;
    let mut js = Vec::new();
    while t + win_ns <= to_ns {
        js.push(jain(&means(r, t, t + win_ns)));
        t += win_ns;
    }
    js.iter().sum::<f64>() / js.len() as f64
}

#[test]
fn slow_flows_lose_more_credits_at_drop_tail_credit_queues() {
    // §3.1 "Ensuring fair credit drop" / Fig. 6a: with drop-tail credit queues, arrival order
    // decides which credit is dropped. A flow's own credits are spaced by its gap, so a fast
    // flow never competes with itself for a freed slot while a slow one competes with all the
    // others: the slow flow loses more. Two incumbents and a flow joining at 2 ms (20 µs links,
    // 4 ms in all); the ratio of the joiner's credit loss to the incumbents', mean over seeds
    // 1-5. Measured: no jitter 1.61, the artifact's ±10 % 1.98, ±50 % 1.67: end-host jitter up
    // to ±50 % does not remove the bias here (the paper's Fig. 6a amount is not in the
    // fragment). This is why a joining flow can starve (seed 4 of the convergence test).
    let ratio_x = |jitter_q16: u64, extra: &str| -> f64 {
        let mut sum = 0.0;
        for seed in 1..=5 {
            let sc = join_scenario_j(20, 2_000, 4_000, seed, jitter_q16, extra);
            let x = run(&sc, "expresspass");
            let c = &x.xpass.as_ref().unwrap().flow_credits;
            let l = |i: usize| 1.0 - c[i].1 as f64 / c[i].0 as f64;
            sum += l(2) / ((l(0) + l(1)) / 2.0);
        }
        sum / 5.0
    };
    let ratio = |jitter_q16: u64| ratio_x(jitter_q16, "");
    let (r0, r10, r50) = (ratio(0), ratio(6554), ratio(32768));
    eprintln!("joiner / incumbent credit loss: none {r0:.2}, ±10 % {r10:.2}, ±50 % {r50:.2}");
    assert!(r10 > 1.5, "the bias at the artifact's jitter: {r10:.2}");
    assert!(r0 > 1.3 && r50 > 1.3, "no jitter {r0:.2}, ±50 % {r50:.2}");
    // Uniform random credit drop (§3.1's assumption) at every port: measured 1.60 with the
    // feedback law, 1.16 with naive credits (1.14 drop-tail): what remains is the law's.
    let uniform = ratio_x(6554, "random_credit_drop = 1");
    let naive = ratio_x(6554, "random_credit_drop = 1\nnaive = 1");
    eprintln!("uniform credit drop: feedback {uniform:.2}, naive {naive:.2}");
    assert!(
        uniform > 1.3 && naive < 1.3,
        "feedback {uniform:.2}, naive {naive:.2}"
    );
}

#[test]
fn a_joining_flow_converges_faster_than_dctcp() {
    // Two long flows, a third joins at 2 ms; 2 ms more are simulated.
    let (join, end) = (2_000_000u64, 4_000_000u64);
    // 20 µs links: base RTT ≈ 90 µs, ~20 credits per flow per RTT, five seeds. Measured:
    // ExpressPass within ±30 % over 200 µs windows after 400 µs (4.4 RTTs) in seeds 2, 3, 5,
    // after 2 ms in seed 1, not within 2 ms in seed 4 (the joining flow starves: see
    // `slow_flows_lose_more_credits_at_drop_tail_credit_queues`); DCTCP after 400 µs in every seed. No 80x.
    let mut fast = 0;
    for seed in 1..=5 {
        let sc = join_scenario(20, 2_000, 4_000, seed);
        let (x, d) = (run(&sc, "expresspass"), run(&sc, "dctcp"));
        let rx = reached_after(&x, join, end, 200_000, 0.3);
        let rd = reached_after(&d, join, end, 200_000, 0.3);
        eprintln!("20 us links, seed {seed}: ExpressPass {rx:?} ns, DCTCP {rd:?} ns");
        fast += rx.is_some_and(|t| t <= 450_000) as u32;
        assert!(
            rd.is_some_and(|t| t <= 450_000),
            "seed {seed}: DCTCP {rd:?}"
        );
    }
    assert!(fast >= 3, "ExpressPass within 5 RTTs in {fast} of 5 seeds");
    // 1 µs links: base RTT ≈ 16 µs, ~4 credits per flow per RTT, five seeds. Measured:
    // ExpressPass within ±30 % over 100 µs windows after 0.1, 0.1, 1.2, 1.2, 0.8 ms (6-75
    // RTTs); DCTCP's joining flow stays near 1.4 of 3 Gbit/s for the whole 2 ms. Mean Jain of
    // 100 µs windows from 0.5 ms after the join: 0.85-0.92 against DCTCP's 0.87: ExpressPass's
    // shares keep moving by ±30 % (see Documentation/results/expresspass.md).
    for seed in 1..=5 {
        let sc = join_scenario(1, 2_000, 4_000, seed);
        let (x, d) = (run(&sc, "expresspass"), run(&sc, "dctcp"));
        let rx = reached_after(&x, join, end, 100_000, 0.3);
        let rd = reached_after(&d, join, end, 100_000, 0.3);
        let jx = window_jain(&x, join + 500_000, end, 100_000);
        eprintln!("1 us links, seed {seed}: ExpressPass {rx:?} ns, DCTCP {rd:?} ns, Jain {jx:.3}");
        let rx = rx.expect("ExpressPass reaches fairness");
        assert!(rx <= 1_500_000, "seed {seed}: ExpressPass needed {rx} ns");
        assert!(
            rd.is_none_or(|rd| rd > rx),
            "seed {seed}: DCTCP {rd:?}, ExpressPass {rx}"
        );
        assert!(jx >= 0.84, "seed {seed}: window Jain {jx}");
        // Utilisation: 1460 B of payload per 1622 B of link: 9.0 Gbit/s at most.
        let total: f64 = means(&x, 3_000_000, end).iter().sum();
        assert!(total > 8.5, "seed {seed}: {total}");
    }
}

#[test]
fn uniform_random_credit_drop_speeds_convergence_and_makes_naive_credits_converge_at_once() {
    // §3.1 "Ensuring fair credit drop": "ExpressPass relies on the uniform random dropping of
    // credit packets at the switch to achieve fairness". `random_credit_drop = 1` gives every
    // port exactly that (a full credit queue drops a uniformly random one of its credits and
    // the arrival) and isolates what drop-tail costs. The same join as
    // `a_joining_flow_converges_faster_than_dctcp`, five seeds, ±30 % windows.
    //
    // Tolerance (issue 34), written after exploratory runs and before these pinned ones: the naive scheme (§2 Fig. 2, "converge
    // to fairness in just one round-trip time") within the second window after the join in
    // every seed (the first holds the joiner's request RTT); the feedback law within 2 ms in
    // every seed with 20 µs links (drop-tail: seed 4 never) and 3 of 5 within 450 µs (about
    // 5 RTTs), and within 1 ms in every seed with 1 µs links (drop-tail: 1.2 ms in two).
    // Measured: naive 400 µs (20 µs links; the second 200 µs window) and 100 µs (1 µs links,
    // the first window) in every seed, against 0.4-1.2 ms and 0.1-0.5 ms with drop-tail;
    // feedback 0.4, 0.4, 0.4, 1.6, 1.6 ms (20 µs links) and 0.6, 0.3, 0.5, 0.2, 0.1 ms (1 µs).
    let (join, end) = (2_000_000u64, 4_000_000u64);
    let drop = "random_credit_drop = 1";
    let cases: &[(u32, u64)] = &[(20, 200_000), (1, 100_000)];
    for &(delay_us, win) in cases {
        let mut fast = 0;
        for seed in 1..=5 {
            let naive = join_scenario_j(
                delay_us,
                2_000,
                4_000,
                seed,
                6554,
                &format!("{drop}\nnaive = 1"),
            );
            let n = run(&naive, "expresspass");
            let rn = reached_after(&n, join, end, win, 0.3);
            let sc = join_scenario_j(delay_us, 2_000, 4_000, seed, 6554, drop);
            let x = run(&sc, "expresspass");
            let rx = reached_after(&x, join, end, win, 0.3);
            eprintln!("{delay_us} us links, seed {seed}, uniform credit drop: naive {rn:?} ns, feedback {rx:?} ns");
            assert!(
                rn.is_some_and(|t| t <= 2 * win),
                "seed {seed}: naive {rn:?}"
            );
            let rx =
                rx.unwrap_or_else(|| panic!("{delay_us} us, seed {seed}: feedback never fair"));
            if delay_us == 20 {
                fast += (rx <= 450_000) as u32;
            } else {
                assert!(rx <= 1_000_000, "1 us, seed {seed}: feedback {rx} ns");
            }
            // Utilisation is kept (9.0 Gbit/s of payload at most).
            let total: f64 = means(&x, 3_000_000, end).iter().sum();
            assert!(total > 8.5, "seed {seed}: {total}");
        }
        if delay_us == 20 {
            assert!(fast >= 3, "feedback within 5 RTTs in {fast} of 5 seeds");
        }
    }
}

/// Table 1's topology scaled to k = 4 (§3.1: 10/40 Gbit/s, "propagation delay of 5 µs for
/// core links and 1 µs for others"): two long flows from pods 1 and 3 into host 0, a third
/// from pod 2 joins at 2 ms; every path crosses the core (base RTT about 40 µs).
fn table1_join(seed: u64, end_us: u32, extra: &str) -> Scenario {
    scenario(&format!(
        r#"{head}
[topology]
kind = "fat_tree"
k = 4
host_rate_gbps = 10
fabric_rate_gbps = 40
link_delay_us = 1
core_link_delay_us = 5
{tail}
{extra}
[[flows]]
src = 4
dst = 0
[[flows]]
src = 12
dst = 0
[[flows]]
src = 8
dst = 0
start_us = 2000
"#,
        head = scenario_head(seed, end_us),
        tail = SCENARIO_TAIL
    ))
}

#[test]
fn on_table1s_topology_a_joining_flow_converges_in_a_few_rtts_in_most_seeds() {
    // Tolerance (issue 34), written after exploratory runs and before these pinned ones: ExpressPass (defaults: drop-tail, ±10 %
    // jitter) within ±30 % over 100 µs windows within 10 base RTTs (400 µs) in at least 3 of
    // 5 seeds; DCTCP not within 2 ms in any seed. Measured: ExpressPass 0.2, 0.2, 0.2, 0.4,
    // 1.5 ms after the join (seeds 2-4: the second window, 5 RTTs); DCTCP never within the
    // 2 ms here, and after 3.7, 3.7, 3.8, 4.1, 3.8 ms in a 20 ms run (by hand). The naive
    // scheme with uniform random credit drop: 0.2 ms in every seed.
    let (join, end) = (2_000_000u64, 4_000_000u64);
    let mut fast = 0;
    for seed in 1..=5 {
        let sc = table1_join(seed, 4_000, "");
        let (x, d) = (run(&sc, "expresspass"), run(&sc, "dctcp"));
        let rx = reached_after(&x, join, end, 100_000, 0.3);
        let rd = reached_after(&d, join, end, 100_000, 0.3);
        eprintln!("Table 1 fat tree, seed {seed}: ExpressPass {rx:?} ns, DCTCP {rd:?} ns");
        fast += rx.is_some_and(|t| t <= 400_000) as u32;
        assert!(rd.is_none(), "seed {seed}: DCTCP {rd:?}");
        assert_eq!(x.out.counters.data_dropped, 0, "seed {seed}");
    }
    assert!(fast >= 3, "ExpressPass within 10 RTTs in {fast} of 5 seeds");
}

#[test]
fn data_follows_the_reverse_path_of_its_credits() {
    let sc = scenario(
        r#"
name = "t"
duration_us = 10
algorithms = ["expresspass"]
[topology]
kind = "leaf_spine"
leaves = 4
spines = 4
hosts_per_leaf = 4
host_rate_gbps = 10
fabric_rate_gbps = 40
link_delay_us = 1
buffer_kb = 384.5
[[flows]]
src = 0
dst = 15
count = 12
conns_per_src = 1
"#,
    );
    let sim = sc.build_xpass("expresspass").unwrap().unwrap();
    let mut spines = std::collections::BTreeSet::new();
    for f in 0..12 {
        let data = sim.path(f, true);
        let credit = sim.path(f, false);
        // Every data hop (node a -> b) is a credit hop b -> a.
        let fwd: Vec<(u32, u32)> = data.iter().map(|&(n, p)| (n, sim.peer(n, p))).collect();
        let mut back: Vec<(u32, u32)> = credit.iter().map(|&(n, p)| (sim.peer(n, p), n)).collect();
        back.reverse();
        assert_eq!(fwd, back, "flow {f}");
        if fwd.len() > 2 {
            spines.insert(fwd[1].1);
        }
    }
    assert!(
        spines.len() > 1,
        "ECMP spreads flows over spines: {spines:?}"
    );
}

/// Three switches in a chain of 10 Gbit/s links, `hosts_per_switch` hosts on each, one long
/// flow per `(src, dst)`, 3 ms; the naive scheme (`naive`) against feedback (`expresspass`).
fn naive_parking_lot(hosts_per_switch: u32, flows: &[(u32, u32)]) -> Scenario {
    let mut text = format!(
        r#"
name = "t"
duration_us = 3000
sample_us = 50
algorithms = ["naive", "expresspass"]
[topology]
kind = "parking_lot"
switches = 3
hosts_per_switch = {hosts_per_switch}
host_rate_gbps = 10
chain_rate_gbps = 10
link_delay_us = 1
buffer_kb = 384.5
[transport]
mss_bytes = 1460
header_bytes = 78
[cc.naive]
law = "expresspass"
naive = 1
"#
    );
    for (src, dst) in flows {
        text += &format!("[[flows]]\nsrc = {src}\ndst = {dst}\n");
    }
    scenario(&text)
}

#[test]
fn parking_lot_naive_credits_underuse_a_link_and_feedback_restores_it() {
    let sc = naive_parking_lot(2, &[(0, 4), (1, 2), (3, 5)]);
    // Payload goodput of a full link: 10 Gbit/s * 1460 / 1622 = 9.0 Gbit/s.
    let full = 10.0 * 1460.0 / 1622.0;
    let n = run(&sc, "naive");
    let m = means(&n, 1_000_000, 3_000_000);
    // §3 Fig. 4b: flow 0 keeps 1/2 of its credits at the first limiter and 1/3 at the second,
    // so the second link carries 1/3 + 1/2 = 83.3 %. Drop-tail credit queues land near it.
    let link2 = (m[0] + m[2]) / full;
    assert!(
        (0.70..0.90).contains(&link2),
        "naive link s1-s2 at {link2:.3}: {m:?}"
    );
    assert!((m[0] / full - 1.0 / 3.0).abs() < 0.1, "flow 0 {m:?}");
    let x = run(&sc, "expresspass");
    let m = means(&x, 1_000_000, 3_000_000);
    let link2x = (m[0] + m[2]) / full;
    assert!(
        link2x > link2 + 0.1 && link2x > 0.9,
        "feedback link s1-s2 at {link2x:.3}: {m:?}"
    );
    assert_eq!(x.out.counters.data_dropped + n.out.counters.data_dropped, 0);
}

#[test]
fn malformed_expresspass_keys_are_refused_before_running() {
    let base = r#"
name = "t"
duration_us = 10
algorithms = ["x"]
[topology]
kind = "incast"
senders = 2
host_rate_gbps = 10
link_delay_us = 1
buffer_kb = 100
[[flows]]
src = 0
dst = 2
[cc.x]
law = "expresspass"
"#;
    for (line, want) in [
        ("credit_queue = 65", "credit_queue=65"),
        ("bogus = 1", "unknown key"),
        ("w_init_q16 = 1", "w_init_q16=1"),
        ("credit_size_spread = 50", "credit_size_spread"),
        (
            "random_credit_drop = 2",
            "random_credit_drop=2 out of range",
        ),
        (
            "min_credits_per_update = 0",
            "min_credits_per_update=0 out of range",
        ),
        ("mode = -1", "non-negative integer"),
        (
            "[fabric]\nbuffer = \"shared\"\npfc = true",
            "static per-port buffers only",
        ),
        (
            "[[hosts]]\nids = [2]\nrx_delay_us = 5",
            "host receive paths",
        ),
    ] {
        // Refused when the file is parsed, before any run.
        let e = Scenario::parse(&format!("{base}{line}\n"))
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains(want), "{line}: {e}");
    }
}

/// Jain's index (`rdcc_sim::stats`), NaN for all zero (never passes a threshold).
fn jain(x: &[f64]) -> f64 {
    rdcc_sim::stats::jain(x).unwrap_or(f64::NAN)
}

#[test]
fn multi_bottleneck_naive_credits_give_one_flow_twice_and_feedback_evens_it() {
    let sc = naive_parking_lot(3, &[(8, 3), (6, 0), (7, 1)]);
    let n = run(&sc, "naive");
    let m = means(&n, 1_000_000, 3_000_000);
    // §3 Fig. 4a: flows 1 and 2 keep half their credits at the first limiter, so at the
    // shared link flow 0's credits outnumber each of theirs 2:1 (paper: "twice as much").
    let ratio = m[0] / ((m[1] + m[2]) / 2.0);
    assert!((1.7..2.6).contains(&ratio), "naive ratio {ratio:.2}: {m:?}");
    let x = run(&sc, "expresspass");
    let mx = means(&x, 1_000_000, 3_000_000);
    assert!(
        jain(&mx) > jain(&m) && jain(&mx) >= 0.9,
        "naive {m:?}, feedback {mx:?}"
    );
    let total: f64 = mx.iter().sum();
    assert!(total > 8.5, "feedback keeps the shared link full: {mx:?}");
}

#[test]
fn sub_packet_regime_keeps_the_link_full_and_the_queue_small() {
    // §2: many flows with a small RTT push each below one packet per RTT. 64 long flows on one
    // 10 Gbit/s port, 1 µs links (base RTT ≈ 8 µs, BDP ≈ 6.6 packets: 0.1 packet per flow
    // per RTT).
    let sc = scenario(
        r#"
name = "t"
duration_us = 3000
sample_us = 100
algorithms = ["expresspass", "dctcp"]
[topology]
kind = "incast"
senders = 64
host_rate_gbps = 10
link_delay_us = 1
buffer_kb = 384.5
ecn_k_kb = 65
[transport]
mss_bytes = 1460
header_bytes = 78
[report]
trace_flows = 64
[[flows]]
src = 0
dst = 64
count = 64
"#,
    );
    let x = run(&sc, "expresspass");
    let xs = x.xpass.as_ref().unwrap();
    let m = means(&x, 1_000_000, 3_000_000);
    let total: f64 = m.iter().sum();
    // 9.0 Gbit/s of payload is the credit-limited maximum (1460 of every 1622 B).
    assert!(total > 8.8, "{total}");
    assert_eq!(x.out.counters.data_dropped, 0);
    let bound = check_eq1(&sc, &x, "sw->h64");
    assert!(
        xs.max_switch_queue_bytes <= bound,
        "{}",
        xs.max_switch_queue_bytes
    );
    // Long-run shares over 2 ms are even (measured Jain 0.99).
    assert!(jain(&m) > 0.95, "{m:?}");
    // DCTCP cannot go below one packet per RTT: its queue holds the excess (measured 190 KB
    // mean, drops at the 384.5 KB buffer).
    let d = run(&sc, "dctcp");
    assert!(d.summary.queue_mean_kb > 10.0 * xs.max_switch_queue_bytes as f64 / 1e3);
}

#[test]
fn fat_tree_ports_stay_below_their_eq1_bounds() {
    // A k = 4 fat tree (16 hosts; 10 Gbit/s hosts, 40 Gbit/s fabric, 1 µs links): a 12:1
    // incast of 200 KB into host 0 from pods 1-3, and every host of pods 1-3 also sending one
    // long flow across the core to hosts 1-3, so credits queue at every tier.
    let sc = scenario(
        r#"
name = "t"
duration_us = 3000
sample_us = 50
algorithms = ["expresspass"]
[topology]
kind = "fat_tree"
k = 4
host_rate_gbps = 10
fabric_rate_gbps = 40
link_delay_us = 1
buffer_kb = 384.5
[transport]
mss_bytes = 1460
header_bytes = 78
[[flows]]
src = 4
dst = 0
count = 12
size_bytes = 200000
[[flows]]
src = 4
dst = 1
count = 4
[[flows]]
src = 8
dst = 2
count = 4
[[flows]]
src = 12
dst = 3
count = 4
"#,
    );
    let r = run(&sc, "expresspass");
    assert_eq!(r.out.counters.data_dropped, 0);
    assert_eq!(r.summary.flows_done, 12);
    // check_eq1 asserts every port; the incast port's bound by tier (measured: 490 KB, its
    // spread 390 µs: 4 credit hops with full credit queues at 10 and 40 Gbit/s, the host, and
    // the data queues of the ports before it at their own bounds) is far above what the run
    // used (3.2 KB): Eq. 1 is the worst case (§3.1 "a very conservative bound").
    let bound = check_eq1(&sc, &r, "edge0_0->h0");
    let x = r.xpass.as_ref().unwrap();
    assert!(x.max_switch_queue_bytes * 10 < bound);
    assert_eq!(x.eq1.len(), 26, "ports carrying data");
    assert!(x.eq1.iter().all(|e| e.max_queue_bytes <= e.bound_bytes));
}

#[test]
fn with_a_buffer_below_the_bound_data_is_lost_and_recovered() {
    // §3.1: "ExpressPass's correct operation does not depend on zero loss of data packets (i.e.,
    // it operates even with smaller buffers)". 64:1 incast, hosts with a 20 µs delay spread
    // (the bound grows to 62 KB), 1.6 KB per port (one frame): the receiver NACKs the holes,
    // the sender goes back, every byte arrives exactly once in order.
    let sc = scenario(
        r#"
name = "t"
duration_us = 20000
sample_us = 50
algorithms = ["expresspass"]
[topology]
kind = "incast"
senders = 64
host_rate_gbps = 10
link_delay_us = 1
buffer_kb = 1.6
[transport]
mss_bytes = 1460
header_bytes = 78
[cc.expresspass]
law = "expresspass"
host_delay_spread_ns = 20000
[[flows]]
src = 0
dst = 64
count = 64
size_bytes = 30000
"#,
    );
    let r = run(&sc, "expresspass");
    let x = r.xpass.as_ref().unwrap();
    assert!(
        r.out.counters.data_dropped > 0,
        "the small buffer must overflow"
    );
    assert!(x.nacks > 0 && r.out.counters.retransmits > 0);
    assert_eq!(r.summary.flows_done, 64);
    for f in &r.out.flows {
        assert_eq!(f.rx_bytes, 30_000);
    }
}
