//! The harness's command line as a user meets it: the built `xtask` binary, run with each
//! argument list of the table. Every case here exits before anything is installed, built or
//! booted (help, or misuse refused by the parser), so the test takes milliseconds.

use std::process::{Command, Output};

fn xtask(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xtask"))
        .args(args)
        .output()
        .expect("the xtask binary runs")
}

/// Every command's `--help` exits 0, on stdout, and describes that command's options only.
#[test]
fn help_per_command() {
    // (command, options its help must name, options it must not name)
    let cases: &[(&str, &[&str], &[&str])] = &[
        ("deps", &[], &["--rate", "--kernel", "--timeout", "--algos"]),
        ("kernel", &["--kernel"], &["--rate", "--timeout", "--quiet"]),
        (
            "modules",
            &["--kernel"],
            &["--rate", "--timeout", "--algos"],
        ),
        (
            "dkms",
            &["--kernel", "[default: distro]"],
            &["--rate", "--timeout"],
        ),
        (
            "vm",
            &[
                "--kernel",
                "--timeout",
                "--quiet",
                "[default: 600]",
                "-- <CMD>",
            ],
            &["--rate", "--algos"],
        ),
        (
            "test",
            &["--kernel", "--timeout", "--quiet", "[default: 2700]"],
            &["--rate", "--algos", "--before"],
        ),
        (
            "run",
            &[
                "--kernel",
                "--timeout",
                "--quiet",
                "--algos",
                "--rate",
                "--delay-us",
                "--duration",
                "[default: 1200]",
                "[default: 50]",
            ],
            &["--before", "--out", "--set"],
        ),
        (
            "bench",
            &[
                "--algos",
                "--before",
                "--timeout",
                "--quiet",
                "[default: 1800]",
            ],
            &["--rate", "--kernel"],
        ),
        (
            "sim",
            &[
                "[SCENARIO]",
                "--vm-scenario",
                "--out",
                "--algos",
                "--set",
                "--no-plots",
                "--quiet",
                "--force",
                "--allow-big",
            ],
            &["--rate", "--kernel", "--timeout"],
        ),
        (
            "sweep",
            &[
                "<SCENARIO>",
                "--seeds",
                "--algos",
                "--grid",
                "--set",
                "--out",
                "--jobs",
                "--slurm",
                "--no-plots",
                "--force",
            ],
            &["--rate", "--kernel", "--timeout"],
        ),
    ];
    for (cmd, has, lacks) in cases {
        let o = xtask(&[cmd, "--help"]);
        let text = String::from_utf8_lossy(&o.stdout);
        assert_eq!(o.status.code(), Some(0), "{cmd} --help: {text}");
        assert!(
            text.contains(&format!("cargo xtask {cmd}")),
            "{cmd}: {text}"
        );
        for h in *has {
            assert!(text.contains(h), "{cmd} --help lacks {h}:\n{text}");
        }
        for l in *lacks {
            assert!(!text.contains(l), "{cmd} --help names {l}:\n{text}");
        }
        // `help CMD` says the same.
        let o2 = xtask(&["help", cmd]);
        assert_eq!(o2.status.code(), Some(0), "help {cmd}");
        assert_eq!(String::from_utf8_lossy(&o2.stdout), text, "help {cmd}");
    }
    let top = xtask(&["--help"]);
    assert_eq!(top.status.code(), Some(0));
    let text = String::from_utf8_lossy(&top.stdout);
    for cmd in [
        "deps", "kernel", "modules", "dkms", "vm", "test", "run", "bench", "sim", "sweep",
    ] {
        assert!(
            text.contains(&format!("  {cmd} ")),
            "--help lacks {cmd}:\n{text}"
        );
    }
}

/// Misuse exits 2 with a message on stderr naming the problem (and nothing starts).
#[test]
fn misuse_is_refused() {
    // (arguments, text stderr must contain)
    let cases: &[(&[&str], &str)] = &[
        // No command: the overview, exit 2.
        (&[], "Usage: cargo xtask <COMMAND>"),
        (&["nosuch"], "unrecognized subcommand 'nosuch'"),
        // Unknown options.
        (&["run", "--nosuch"], "unexpected argument '--nosuch'"),
        (&["test", "--verbose"], "unexpected argument '--verbose'"),
        // Options of another command.
        (&["deps", "--rate", "5"], "unexpected argument '--rate'"),
        (&["kernel", "--algos", "cubic"], "unexpected argument '--algos'"),
        (&["modules", "--timeout", "60"], "unexpected argument '--timeout'"),
        (&["test", "--rate", "5"], "unexpected argument '--rate'"),
        (&["vm", "--duration", "5"], "unexpected argument '--duration'"),
        (&["run", "--before", "HEAD"], "unexpected argument '--before'"),
        (&["bench", "--kernel", "distro"], "unexpected argument '--kernel'"),
        (&["sim", "sl_incast_16to1", "--timeout", "5"], "unexpected argument '--timeout'"),
        (&["vm", "sh"], "unexpected argument 'sh'"),
        // Unknown values, with the valid ones listed.
        (&["kernel", "--kernel", "nosuch"], "[possible values: qemu, distro, debug, uml, uml-debug]"),
        (
            &["run", "--algos", "nosuch"],
            "unknown algorithm \"nosuch\"; available: reno cubic dctcp vegas bbr swift swift_vaisf timely theta_powertcp",
        ),
        (&["run", "--algos", "cubic nosuch"], "available: reno cubic"),
        (&["run", "--algos", "cubic,cubic"], "listed twice"),
        (&["run", "--kernel", "distro", "--algos", "nosuch"], "available: reno cubic"),
        (&["bench", "--algos", "swfit"], "unknown algorithm \"swfit\""),
        (&["bench", "--before", "not-a-rev-anywhere"], "is not a commit"),
        (&["sim", "nosuch_scenario"], "sl_incast_16to1"),
        (&["sim"], "<SCENARIO>"),
        (&["sim", "sl_incast_16to1", "--vm-scenario", "dc_one_flow"], "cannot be used with"),
        (&["sim", "--vm-scenario", "dc_one_flow"], "cubic: the simulator has no such law"),
        (&["sim", "--vm-scenario", "nosuch_vm"], "built-in scenarios: baseline"),
        (&["sim", "--vm-scenario", "dc_one_flow", "--algos", "swift", "--set", "transport.ack_every=0"], "ack_every"),
        (&["sim", "sl_incast_16to1", "--set", "novalue"], "is not KEY.PATH=VALUE"),
        (&["sweep"], "<SCENARIO>"),
        (&["sweep", "sl_incast_16to1", "--jobs", "0"], "0 is not in 1..=4096"),
        (&["sweep", "sl_incast_16to1", "--timeout", "5"], "unexpected argument '--timeout'"),
        // Ranges.
        (&["run", "--rate", "0"], "0 is not in 1..=10000"),
        (&["run", "--rate", "10001"], "10001 is not in 1..=10000"),
        (&["run", "--rate", "4294967297"], "is not in 1..=10000"),
        (&["run", "--rate", "ten"], "invalid digit"),
        (&["run", "--delay-us", "1000001"], "is not in 0..=1000000"),
        (&["run", "--duration", "0"], "0 is not in 1..=3600"),
        (&["run", "--timeout", "0"], "0 is not in 1..=86400"),
        (&["vm", "--timeout", "0"], "0 is not in 1..=86400"),
        (&["test", "--timeout", "0"], "0 is not in 1..=86400"),
        (&["bench", "--timeout", "100000"], "100000 is not in 1..=86400"),
        (&["run", "--rate"], "a value is required for '--rate <MBIT>'"),
    ];
    for (args, want) in cases {
        let o = xtask(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(want),
            "{args:?}: stderr lacks {want:?}:\n{err}"
        );
        assert!(!err.contains("[xtask]"), "{args:?} started work:\n{err}");
    }
}
