// SPDX-License-Identifier: GPL-2.0-only
//! `rxstamp` as a user meets it: help exits 0, misuse exits 2 with the reason, before anything
//! is loaded (none of these cases needs root or a BPF-capable kernel).

use std::process::{Command, Output};

fn rxstamp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rxstamp"))
        .args(args)
        .output()
        .expect("rxstamp runs")
}

#[test]
fn help_exits_zero_per_command() {
    // (command, text its help names)
    let cases: &[(&[&str], &str)] = &[
        (&["--help"], "Usage: rxstamp <COMMAND>"),
        (&["-h"], "Usage: rxstamp <COMMAND>"),
        (&["help"], "Usage: rxstamp <COMMAND>"),
        (&["attach", "--help"], "--allow <PEER>"),
        (&["detach", "--help"], "--pin <DIR>"),
        (&["stats", "--help"], "--reset"),
        (&["sync", "--help"], "--pin <DIR>"),
        (&["run", "--help"], "--secs <N>"),
        (&["sink", "--help"], "--rate <KBPS>"),
        (&["source", "--help"], "--switch-cc <A,B>"),
        (&["inject", "--help"], "possible values: control"),
        (&["mtu-watch", "--help"], "--mtu <BYTES>"),
        (&["help", "inject"], "--mode <MODE>"),
    ];
    for (args, want) in cases {
        let o = rxstamp(args);
        let out = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{args:?}");
        assert!(out.contains(want), "{args:?} lacks {want:?}:\n{out}");
    }
    let o = rxstamp(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
}

#[test]
fn misuse_exits_two() {
    let cases: &[(&[&str], &str)] = &[
        (&[], "Usage: rxstamp <COMMAND>"),
        (&["nosuch"], "unrecognized subcommand 'nosuch'"),
        (&["attach"], "<CGROUP>"),
        (
            &["attach", "/cg", "--allow", "10.0.0.0/40"],
            "prefix length too large",
        ),
        (
            &["attach", "/cg", "--secs", "3"],
            "unexpected argument '--secs'",
        ),
        (
            &["stats", "--reset", "--rx-stamps"],
            "unexpected argument '--rx-stamps'",
        ),
        (&["sink", "5201"], "--rate <KBPS>"),
        (
            &["sink", "5201", "--rate", "0"],
            "0 is not in 1..=100000000",
        ),
        (
            &["sink", "99999", "--rate", "5"],
            "99999 is not in 1..=65535",
        ),
        (
            &["source", "10.0.0.2", "5201", "--switch-cc", "swift"],
            "two or more names",
        ),
        (
            &["source", "10.0.0.2", "5201", "--switch-ms", "5"],
            "--switch-cc <A,B>",
        ),
        (
            &["inject", "--iface", "x", "--port", "1", "--mode", "nosuch"],
            "possible values",
        ),
        (
            &[
                "inject", "--iface", "x", "--port", "1", "--mode", "old", "--gap-us", "5",
            ],
            "--gap-us applies to --mode supersede only",
        ),
        (
            &["mtu-watch", "eth0", "5201", "--mtu", "1500"],
            "<MIN_TCP_HDR>",
        ),
        (
            &["mtu-watch", "eth0", "--mtu", "10"],
            "10 is not in 68..=65535",
        ),
    ];
    for (args, want) in cases {
        let o = rxstamp(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(want),
            "{args:?}: stderr lacks {want:?}:\n{err}"
        );
    }
}
