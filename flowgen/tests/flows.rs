//! `rdcc-flowgen` end to end on loopback: a sink and a sender, exact byte counts, the
//! schedule, the marker, and the failures each side must report.

use std::net::TcpListener;
use std::process::{Child, Command, Output, Stdio};
use std::time::Instant;

const BIN: &str = env!("CARGO_BIN_EXE_rdcc-flowgen");

/// A base port with `n` free ports after it (checked by binding them; the test's listeners
/// are dropped before the sink binds). Each call starts from its own stretch of ports, so tests
/// running in parallel do not pick the same ones.
fn free_ports(n: u16) -> u16 {
    use std::sync::atomic::{AtomicU16, Ordering};
    static NEXT: AtomicU16 = AtomicU16::new(0);
    let seed = (std::process::id() % 1000) as u16 * 32;
    loop {
        let k = NEXT.fetch_add(16, Ordering::Relaxed);
        assert!(k < 16 * 500, "no {n} free ports");
        let base = 20000 + (seed.wrapping_add(k) % 40000);
        if (0..n).all(|i| TcpListener::bind(("127.0.0.1", base + i)).is_ok()) {
            return base;
        }
    }
}

fn sink(base: u16, flows: &[&str], timeout_s: u64) -> Child {
    let n = flows.len();
    let mut c = Command::new(BIN)
        .args(["sink", "--bind", "127.0.0.1", "--port", &base.to_string()])
        .args(["--timeout-s", &timeout_s.to_string()])
        .args(flows)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for "listening N".
    use std::io::BufRead;
    let mut line = String::new();
    let out = c.stdout.take().unwrap();
    let mut r = std::io::BufReader::new(out);
    r.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), format!("listening {n}"));
    // Keep the rest of its output for the caller.
    c.stdout = Some(r.into_inner());
    c
}

fn send(base: u16, marker: Option<&std::path::Path>, flows: &[&str]) -> Output {
    let mut c = Command::new(BIN);
    c.args([
        "send",
        "--to",
        "127.0.0.1",
        "--port",
        &base.to_string(),
        "--timeout-s",
        "20",
    ]);
    if let Some(m) = marker {
        c.arg("--marker").arg(m);
    }
    c.args(flows).output().unwrap()
}

/// `key=value` of the line of flow `i`.
fn field(out: &str, i: usize, key: &str) -> Option<String> {
    let line = out
        .lines()
        .find(|l| l.split_whitespace().next() == Some(&i.to_string()))?;
    line.split_whitespace()
        .find_map(|w| w.strip_prefix(&format!("{key}=")).map(str::to_string))
}

#[test]
fn sized_and_timed_flows_on_schedule() {
    let base = free_ports(3);
    let flows = ["reno:0:b:1000000", "cubic:300:t:0.3", "reno:50:b:1"];
    let s = sink(base, &flows, 30);
    let marker = std::env::temp_dir().join(format!("rdcc-flowgen-marker-{}", std::process::id()));
    std::fs::write(&marker, "").unwrap();
    let t = Instant::now();
    let o = send(base, Some(&marker), &flows);
    let wall = t.elapsed().as_secs_f64();
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        o.status.success(),
        "{out}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // Exact counts, a completion time for the sized flows only, the algorithm asked for.
    assert_eq!(field(&out, 0, "bytes").as_deref(), Some("1000000"), "{out}");
    assert_eq!(field(&out, 2, "bytes").as_deref(), Some("1"), "{out}");
    assert!(
        field(&out, 0, "fct_us").is_some() && field(&out, 2, "fct_us").is_some(),
        "{out}"
    );
    assert!(field(&out, 1, "fct_us").is_none(), "{out}");
    assert_eq!(field(&out, 1, "cc").as_deref(), Some("cubic"), "{out}");
    assert_eq!(field(&out, 0, "cc").as_deref(), Some("reno"), "{out}");
    let timed: u64 = field(&out, 1, "bytes").unwrap().parse().unwrap();
    assert!(timed > 0, "{out}");
    // Flow 1 starts at 300 ms and sends for 300 ms.
    assert!(wall >= 0.6, "the schedule was not kept: {wall} s");
    for i in 0..3 {
        assert_eq!(field(&out, i, "rc").as_deref(), Some("0"), "{out}");
    }
    // The sink counted the same bytes per port.
    let so = s.wait_with_output().unwrap();
    let sout = String::from_utf8_lossy(&so.stdout).to_string();
    assert!(so.status.success(), "{sout}");
    assert!(
        sout.contains(&format!("{base} bytes=1000000 err=\n")),
        "{sout}"
    );
    assert!(
        sout.contains(&format!("{} bytes={timed} err=\n", base + 1)),
        "{sout}"
    );
    // The trial's start, then each release, one line each.
    let m = std::fs::read_to_string(&marker).unwrap();
    let _ = std::fs::remove_file(&marker);
    let lines: Vec<&str> = m.lines().collect();
    assert_eq!(lines[0], "rdcctrial start", "{m}");
    let mut rel = lines[1..].to_vec();
    rel.sort();
    assert_eq!(
        rel,
        ["rdccflow 0 start", "rdccflow 1 start", "rdccflow 2 start"],
        "{m}"
    );
    // In schedule order: 0 ms, 50 ms, 300 ms.
    assert_eq!(
        lines[1..],
        ["rdccflow 0 start", "rdccflow 2 start", "rdccflow 1 start"],
        "{m}"
    );
}

#[test]
fn a_flow_that_cannot_connect_fails_alone() {
    let base = free_ports(2);
    let s = sink(base, &["reno:0:b:5000", "reno:0:b:10"], 3);
    let o = send(base, None, &["reno:0:b:5000", "no_such_cc:0:b:10"]);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert_eq!(field(&out, 0, "rc").as_deref(), Some("0"), "{out}");
    assert_eq!(field(&out, 0, "bytes").as_deref(), Some("5000"), "{out}");
    assert_eq!(field(&out, 1, "rc").as_deref(), Some("1"), "{out}");
    assert!(out.contains("TCP_CONGESTION no_such_cc"), "{out}");
    // The sink gives up on the port nobody connected to, and says so.
    let so = s.wait_with_output().unwrap();
    let sout = String::from_utf8_lossy(&so.stdout).to_string();
    assert_eq!(so.status.code(), Some(1), "{sout}");
    assert!(
        sout.contains(&format!("{} bytes=0 err=no connection", base + 1)),
        "{sout}"
    );
}

#[test]
fn a_sink_without_the_algorithm_refuses_to_start() {
    let base = free_ports(1);
    let o = Command::new(BIN)
        .args([
            "sink",
            "--bind",
            "127.0.0.1",
            "--port",
            &base.to_string(),
            "no_such_cc:0:t:1",
        ])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty(), "it must not say it listens");
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("TCP_CONGESTION no_such_cc"), "{e}");
}

#[test]
fn no_sink_fails_every_flow() {
    let base = free_ports(1);
    let o = send(base, None, &["reno:0:t:1"]);
    let out = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        field(&out, 0, "err").is_some() && out.contains("connect"),
        "{out}"
    );
}

#[test]
fn refused_command_lines() {
    let table: &[&[&str]] = &[
        &["send", "--to", "127.0.0.1", "--port", "5201"],
        &["send", "--to", "127.0.0.1", "--port", "5201", "swift:0:t:0"],
        &[
            "send",
            "--to",
            "127.0.0.1",
            "--port",
            "5201",
            "swift:0:b:2x",
        ],
        &["send", "--to", "nowhere", "--port", "5201", "swift:0:t:1"],
        &[
            "send",
            "--to",
            "127.0.0.1",
            "--port",
            "65535",
            "swift:0:t:1",
            "swift:0:t:1",
        ],
        &[
            "send",
            "--to",
            "127.0.0.1",
            "--port",
            "5201",
            "--marker",
            "/nonexistent/m",
            "reno:0:t:1",
        ],
        &["sink", "--port", "5201"],
        &["sink", "--port", "5201", "--timeout-s", "0", "reno:0:t:1"],
        &["sink", "--port", "65535", "reno:0:t:1", "reno:0:t:1"],
        &["sink", "--port", "5201", "reno:0:q:1"],
    ];
    for args in table {
        let o = Command::new(BIN).args(*args).output().unwrap();
        assert_eq!(
            o.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!o.stderr.is_empty(), "{args:?}: no message");
    }
}

/// A sized flow that sends more than the sink was told is a harness error the sink reports.
#[test]
fn the_sink_refuses_bytes_beyond_a_flows_size() {
    let base = free_ports(1);
    let s = sink(base, &["reno:0:b:1000"], 10);
    // The sender's verdict depends on how the sink's reads split the bytes (a receipt of
    // fewer than it sent fails it too); the sink's does not.
    let _ = send(base, None, &["reno:0:b:5000"]);
    let so = s.wait_with_output().unwrap();
    let sout = String::from_utf8_lossy(&so.stdout).to_string();
    assert_eq!(so.status.code(), Some(1), "{sout}");
    assert!(sout.contains("bytes beyond the flow's 1000"), "{sout}");
}

/// A sender that connects and then falls silent: the sink gives up at its deadline (the read
/// timeout is refreshed every 64 reads, not every read: sink.rs `TIMEOUT_REFRESH_READS`), with
/// a read error for the flow, neither hanging nor failing early.
#[test]
fn a_silent_connection_fails_the_sink_at_its_deadline() {
    let base = free_ports(1);
    let t = Instant::now();
    let s = sink(base, &["reno:0:t:1"], 2);
    let c = std::net::TcpStream::connect(("127.0.0.1", base)).unwrap();
    let so = s.wait_with_output().unwrap();
    let took = t.elapsed().as_secs_f64();
    drop(c);
    let sout = String::from_utf8_lossy(&so.stdout).to_string();
    assert_eq!(so.status.code(), Some(1), "{sout}");
    assert!(sout.contains("err=read:"), "{sout}");
    assert!((1.9..10.0).contains(&took), "gave up after {took:.2} s");
}

/// `cmd` with RLIMIT_NOFILE set to (soft, hard) in the child.
fn with_nofile(mut cmd: Command, soft: u64, hard: u64) -> Command {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit is async-signal-safe and touches only the child's limits; `lim` lives
    // on the child's stack for the call.
    unsafe {
        cmd.pre_exec(move || {
            let lim = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &lim) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd
}

/// More flows than the default soft descriptor limit (1024) allows a sink (a listener and a
/// connection each): both sides raise their soft limit, every flow is delivered; a hard limit
/// too small is refused before anything is bound, with the need in the message.
#[test]
fn flows_beyond_the_soft_descriptor_limit() {
    let n = 300u16;
    let flows: Vec<String> = (0..n).map(|_| "reno:0:b:2000".to_string()).collect();
    let base = free_ports(n);
    let mut cmd = Command::new(BIN);
    cmd.args(["sink", "--bind", "127.0.0.1", "--port", &base.to_string()])
        .args(["--timeout-s", "60"])
        .args(&flows)
        .stdout(Stdio::piped());
    // 300 flows need 632 descriptors in the sink, 332 in the sender: a soft limit of 200 fails
    // both without the raise.
    let mut sink = with_nofile(cmd, 200, 4096).spawn().unwrap();
    use std::io::BufRead;
    let mut r = std::io::BufReader::new(sink.stdout.take().unwrap());
    let mut line = String::new();
    r.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), format!("listening {n}"));
    let mut cmd = Command::new(BIN);
    cmd.args(["send", "--to", "127.0.0.1", "--port", &base.to_string()])
        .args(&flows);
    let out = with_nofile(cmd, 200, 4096).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    for i in 0..usize::from(n) {
        assert_eq!(
            field(&text, i, "bytes").as_deref(),
            Some("2000"),
            "flow {i}: {text}"
        );
    }
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut r, &mut rest).unwrap();
    assert!(sink.wait().unwrap().success(), "{rest}");
    // A hard limit below the need: refused (exit 2), nothing bound.
    for side in ["sink", "send"] {
        let mut cmd = Command::new(BIN);
        cmd.arg(side);
        if side == "send" {
            cmd.args(["--to", "127.0.0.1"]);
        }
        cmd.args(["--port", &base.to_string()]).args(&flows);
        let o = with_nofile(cmd, 64, 64).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{side}: {err}");
        assert!(err.contains("file descriptors needed"), "{side}: {err}");
    }
}
