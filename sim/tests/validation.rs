//! Scenario validation: each bad value is refused before anything runs, with an error naming
//! the field (and, for an unknown algorithm, the valid names); the `sim` command exits non-zero;
//! outputs never contain NaN.

use rdcc_sim::Scenario;
use std::process::Command;

/// A valid base scenario; each case replaces one line (or appends a section).
const BASE: &str = r#"
name = "v"
duration_us = 500
measure_from_us = 100
sample_us = 10
algorithms = ["swift"]
[topology]
kind = "incast"
senders = 2
host_rate_gbps = 10
link_delay_us = 1
buffer_kb = 100
ecn_k_kb = 0
[transport]
mss_bytes = 1000
ack_every = 1
min_rto_us = 1000
[[flows]]
src = 0
dst = 2
count = 2
size_bytes = 10000
"#;

fn edit(from: &str, to: &str) -> String {
    assert!(BASE.contains(from), "{from}");
    BASE.replacen(from, to, 1)
}

#[test]
fn base_scenario_is_valid() {
    Scenario::parse(BASE).unwrap();
}

#[test]
fn each_bad_value_is_refused_naming_its_field() {
    let cases: Vec<(String, &str)> = vec![
        (
            edit("duration_us = 500", "duration_us = 0"),
            "duration_us = 0",
        ),
        (
            edit("duration_us = 500", "duration_us = -5"),
            "duration_us = -5",
        ),
        (
            edit("duration_us = 500", "duration_us = 1e12"),
            "duration_us",
        ),
        (
            edit("measure_from_us = 100", "measure_from_us = 500"),
            "measure_from_us",
        ),
        (
            edit("measure_from_us = 100", "measure_from_us = -1"),
            "measure_from_us",
        ),
        (edit("sample_us = 10", "sample_us = 0"), "sample_us = 0"),
        (edit("sample_us = 10", "sample_us = 0.0000001"), "sample_us"),
        (
            edit(r#"algorithms = ["swift"]"#, "algorithms = []"),
            "algorithms",
        ),
        (
            edit(
                r#"algorithms = ["swift"]"#,
                r#"algorithms = ["swift", "dctcp", "swift"]"#,
            ),
            "algorithms: \"swift\" is listed twice (entry 2)",
        ),
        (edit("senders = 2", "senders = 0"), "topology.senders = 0"),
        // Ports are numbered in u16: one switch takes at most 65535 (senders + the receiver).
        (
            edit("senders = 2", "senders = 65535"),
            "topology.senders = 65535: must be within [1, 65534]",
        ),
        (
            edit("host_rate_gbps = 10", "host_rate_gbps = 0"),
            "topology.host_rate_gbps = 0",
        ),
        (
            edit("host_rate_gbps = 10", "host_rate_gbps = -1"),
            "topology.host_rate_gbps",
        ),
        (
            edit("host_rate_gbps = 10", "host_rate_gbps = nan"),
            "topology.host_rate_gbps = NaN",
        ),
        (
            edit("link_delay_us = 1", "link_delay_us = -1"),
            "topology.link_delay_us",
        ),
        (
            edit("buffer_kb = 100", "buffer_kb = 0"),
            "topology.buffer_kb = 0",
        ),
        (edit("ecn_k_kb = 0", "ecn_k_kb = -3"), "topology.ecn_k_kb"),
        (
            edit("mss_bytes = 1000", "mss_bytes = 0"),
            "transport.mss_bytes = 0",
        ),
        (
            edit("ack_every = 1", "ack_every = 0"),
            "transport.ack_every = 0",
        ),
        (
            edit("ack_every = 1", "ack_every = 3"),
            "transport.ack_every = 3",
        ),
        (
            edit("min_rto_us = 1000", "min_rto_us = 0"),
            "transport.min_rto_us = 0",
        ),
        (
            edit(
                "min_rto_us = 1000",
                "min_rto_us = 1000\npace_burst_bytes = 2000000",
            ),
            "transport.pace_burst_bytes = 2000000",
        ),
        (edit("count = 2", "count = 0"), "flows[0].count = 0"),
        (edit("count = 2", "count = 5"), "flows[0]: senders"),
        (edit("dst = 2", "dst = 7"), "flows[0].dst = 7"),
        (edit("dst = 2", "dst = 1"), "to itself"),
        (
            format!("{BASE}\n[fabric]\npfc = true\n"),
            "needs fabric.buffer",
        ),
        (
            format!("{BASE}\n[fabric]\nbuffer = \"big\"\n"),
            "fabric.buffer",
        ),
        (
            format!("{BASE}\n[fabric]\nbuffer = \"shared\"\ndt_alpha = 0\n"),
            "fabric.dt_alpha",
        ),
        (
            format!("{BASE}\n[fabric]\nbuffer = \"shared\"\npfc_alpha = -1\n"),
            "fabric.pfc_alpha",
        ),
        (
            format!("{BASE}\n[[hosts]]\nids = [9]\n"),
            "hosts[0].ids = 9",
        ),
        (
            format!("{BASE}\n[[hosts]]\nids = [1]\nrx_rate_gbps = -2\n"),
            "hosts[0].rx_rate_gbps",
        ),
        (
            format!("{BASE}\n[[links]]\nhost = 1\ndelay_us = -1\n"),
            "links[0].delay_us",
        ),
        (
            format!("{BASE}\n[[links]]\nhost = 1\nrate_gbps = 0\n"),
            "links[0].rate_gbps",
        ),
        (
            format!("{BASE}\n[[links]]\nhost = 9\nrate_gbps = 1\n"),
            "host 9 does not exist",
        ),
        (
            format!("{BASE}\n[[links]]\nbetween = [\"h0\", \"h1\"]\nrate_gbps = 1\n"),
            "not linked",
        ),
        (
            format!("{BASE}\n[report]\nbottlenecks = [\"sw->h7\"]\n"),
            "report.bottlenecks",
        ),
        (
            format!("{BASE}\n[report]\nfct_bins_bytes = [100, 50]\n"),
            "report.fct_bins_bytes",
        ),
        // A bin narrower than a sample, wider than the run, negative or not a number.
        (
            format!("{BASE}\n[report]\nbuffer_bin_us = 5\n"),
            "report.buffer_bin_us = 5",
        ),
        (
            format!("{BASE}\n[report]\nbuffer_bin_us = 501\n"),
            "report.buffer_bin_us = 501",
        ),
        (
            format!("{BASE}\n[report]\nbuffer_bin_us = -10\n"),
            "report.buffer_bin_us = -10",
        ),
        (
            format!("{BASE}\n[report]\nbuffer_bin_us = nan\n"),
            "report.buffer_bin_us = NaN",
        ),
        (
            format!("{BASE}\n[workload]\ncdf = \"websearch\"\nload = 0\nstop_us = 100\n"),
            "workload.load = 0",
        ),
        (
            format!("{BASE}\n[workload]\ncdf = \"nope\"\nload = 0.5\nstop_us = 100\n"),
            "workload.cdf",
        ),
        (
            format!("{BASE}\n[requests]\nrate_per_s = 0\nsize_bytes = 1000\nstop_us = 100\n"),
            "requests.rate_per_s = 0",
        ),
        (
            format!("{BASE}\n[requests]\nrate_per_s = 4\nsize_bytes = 1\nfan_in = 2\nstop_us = 100\n"),
            "requests.size_bytes = 1",
        ),
        (
            format!("{BASE}\n[requests]\nrate_per_s = 4\nsize_bytes = 1000\nfan_in = 0\nstop_us = 100\n"),
            "requests.fan_in = 0",
        ),
        (
            format!("{BASE}\n[requests]\nrate_per_s = 4\nsize_bytes = 1000\nfan_in = 1\nstart_us = 200\nstop_us = 100\n"),
            "requests.stop_us = 100",
        ),
        (
            format!("{BASE}\n[requests]\nrate_per_s = 4\nsize_bytes = 1000\nfan_in = 1\nstop_us = 100\nhosts = [9]\n"),
            "requests.hosts = 9",
        ),
        (
            // One switch is one rack: no host outside it.
            format!("{BASE}\n[requests]\nrate_per_s = 4\nsize_bytes = 1000\nfan_in = 1\nstop_us = 100\n"),
            "requests.fan_in = 1: requester 0 has 0 hosts outside its rack",
        ),
        (
            format!("{BASE}\n[cc.swift]\nlaw = \"swift\"\nbeta_q16 = 0\n"),
            "cc.swift",
        ),
    ];
    for (text, want) in &cases {
        let err = Scenario::parse(text)
            .err()
            .unwrap_or_else(|| panic!("accepted: {want}"));
        assert!(err.is_invalid(), "{want}: not invalid input: {err:?}");
        let err = err.to_string();
        assert!(err.contains(want), "expected {want:?} in {err:?}");
    }
    // No traffic at all.
    let none = BASE.split("[[flows]]").next().unwrap();
    assert!(Scenario::parse(none)
        .unwrap_err()
        .to_string()
        .contains("no traffic"));
    // A fat-tree needs an even radix.
    let ft = edit(
        "kind = \"incast\"\nsenders = 2\nhost_rate_gbps = 10",
        "kind = \"fat_tree\"\nk = 3\nhost_rate_gbps = 10\nfabric_rate_gbps = 10",
    );
    assert!(Scenario::parse(&ft)
        .unwrap_err()
        .to_string()
        .contains("topology.k = 3"));
    // Table 1's core-link delay (fat_tree only): negative, NaN or on another topology refused.
    let ft4 = |extra: &str| {
        edit(
            "kind = \"incast\"\nsenders = 2\nhost_rate_gbps = 10",
            &format!(
                "kind = \"fat_tree\"\nk = 4\nhost_rate_gbps = 10\nfabric_rate_gbps = 10\n{extra}"
            ),
        )
        .replace("dst = 2", "dst = 15")
    };
    assert!(Scenario::parse(&ft4("core_link_delay_us = 5")).is_ok());
    for (extra, want) in [
        ("core_link_delay_us = -5", "topology.core_link_delay_us"),
        (
            "core_link_delay_us = nan",
            "topology.core_link_delay_us = NaN",
        ),
        ("core_link_delay_us = \"fast\"", "core_link_delay_us"),
    ] {
        let e = Scenario::parse(&ft4(extra)).unwrap_err().to_string();
        assert!(e.contains(want), "{extra}: {e}");
    }
    let e = Scenario::parse(&BASE.replace("senders = 2", "senders = 2\ncore_link_delay_us = 5"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("core_link_delay_us"), "{e}");
}

#[test]
fn unknown_algorithm_lists_the_valid_names_before_anything_runs() {
    let text = edit(
        r#"algorithms = ["swift"]"#,
        r#"algorithms = ["swift", "bbr"]"#,
    );
    let err = Scenario::parse(&text).unwrap_err().to_string();
    assert!(err.contains("\"bbr\""), "{err}");
    for n in ["swift", "timely", "theta_powertcp", "dctcp", "reno"] {
        assert!(err.contains(n), "{n} missing from {err}");
    }
    let text = format!("{BASE}\n[cc.fast]\nlaw = \"quic\"\n");
    let err = Scenario::parse(&text).unwrap_err().to_string();
    assert!(
        err.contains("cc.fast") && err.contains("theta_powertcp"),
        "{err}"
    );
    // "powertcp" names two laws (θ-PowerTCP here once, INT PowerTCP in the kernel): refused
    // with both, as an algorithm and as a profile's law.
    for text in [
        edit(r#"algorithms = ["swift"]"#, r#"algorithms = ["powertcp"]"#),
        format!("{BASE}\n[cc.p]\nlaw = \"powertcp\"\n"),
    ] {
        let err = Scenario::parse(&text).unwrap_err().to_string();
        assert!(
            err.contains("names two laws: theta_powertcp") && err.contains("powertcp_int"),
            "{err}"
        );
    }
}

#[test]
fn sim_exits_non_zero_on_invalid_input_and_writes_nothing() {
    let dir = std::env::temp_dir().join(format!("rdcc-sim-validation-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, edit("host_rate_gbps = 10", "host_rate_gbps = 0")).unwrap();
    let out = dir.join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_sim"))
        .arg(&bad)
        .arg("--out")
        .arg(&out)
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("topology.host_rate_gbps = 0"));
    assert!(!out.exists(), "nothing written");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn outputs_never_contain_nan() {
    // A window with no RTT sample, no Jain pair, no finished flow and no queue: every mean is
    // undefined and must print as "-" (table) or an empty field (CSV).
    let text = edit("size_bytes = 10000", "size_bytes = 10000\nstart_us = 450");
    let sc =
        Scenario::parse(&text.replace("measure_from_us = 100", "measure_from_us = 400")).unwrap();
    let dir = std::env::temp_dir().join(format!("rdcc-sim-nan-{}", std::process::id()));
    let (_, table) = sc.run_all(&dir, false).unwrap();
    assert!(!table.contains("NaN") && !table.contains("nan"), "{table}");
    for e in walk(&dir) {
        if e.extension().is_some_and(|x| x == "csv" || x == "txt") {
            let s = std::fs::read_to_string(&e).unwrap();
            assert!(!s.to_lowercase().contains("nan"), "{}", e.display());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn walk(d: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut v = Vec::new();
    for e in std::fs::read_dir(d).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            v.extend(walk(&p));
        } else {
            v.push(p);
        }
    }
    v
}
