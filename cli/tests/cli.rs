//! The binary: help for every subcommand, argument errors, and an empty listing exits 0.

use std::net::{TcpListener, TcpStream};
use std::process::{Command, Output};

fn rdcc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rdcc"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn help_for_every_subcommand() {
    let cases: &[(&[&str], &str)] = &[
        (&["--help"], "Usage: rdcc"),
        (&["ss", "--help"], "--watch <SECS>"),
        (&["ss", "--help"], "TARGET/SIGNAL"),
        (&["reasons", "--help"], "pacing_gain"),
        (&["help", "ss"], "--dport <PORT>"),
    ];
    for (args, want) in cases {
        let o = rdcc(args);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        assert!(
            text(&o.stdout).contains(want),
            "{args:?} lacks {want:?}: {}",
            text(&o.stdout)
        );
    }
}

#[test]
fn bad_arguments_fail_with_a_message() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["ss", "--algo", "cubic"],
            "possible values: swift, swift_vaisf, timely, theta_powertcp",
        ),
        (&["ss", "--watch", "0"], "outside [0.1, 3600]"),
        (&["ss", "--watch", "soon"], "not a number of seconds"),
        (&["ss", "--sport", "70000"], "70000"),
        (&["frobnicate"], "unrecognized subcommand"),
    ];
    for (args, want) in cases {
        let o = rdcc(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            text(&o.stderr).contains(want),
            "{args:?}: {}",
            text(&o.stderr)
        );
    }
}

#[test]
fn a_socket_of_another_algorithm_is_not_listed() {
    // A loopback connection on a port only this test uses: whatever else runs on the host,
    // `--sport` restricts the listing to it, and it is not an rdcc socket.
    let l = TcpListener::bind("127.0.0.1:0").unwrap();
    let c = TcpStream::connect(l.local_addr().unwrap()).unwrap();
    let port = c.local_addr().unwrap().port().to_string();
    let o = rdcc(&["ss", "--sport", &port, "--json"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "[]\n");
    let o = rdcc(&["ss", "--sport", &port]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), "", "no table, not even a header");
    assert!(
        text(&o.stderr).contains("no socket uses swift"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn reasons_table() {
    let o = rdcc(&["reasons", "--json"]);
    assert!(o.status.success());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v[3]["code"], 3);
    assert_eq!(v[3]["name"], "multiplicative_decrease");
}

#[test]
fn watch_repeats_until_killed() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rdcc"))
        .args(["ss", "--sport", "1", "--json", "--watch", "0.1"])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(650));
    assert!(child.try_wait().unwrap().is_none(), "--watch keeps running");
    child.kill().unwrap();
    let o = child.wait_with_output().unwrap();
    let arrays = text(&o.stdout).lines().filter(|l| *l == "[]").count();
    assert!(
        arrays >= 3,
        "one array per interval, got {arrays}: {}",
        text(&o.stdout)
    );
}
