//! `cargo xtask bench`: the per-ACK cost of every congestion control, counted in instructions
//! inside the guest kernel (issue #13, Documentation/results/cost.md).
//!
//! Builds the modules with the benchmark module `rdcc_bench.ko` (modules/bench/), boots the qemu
//! kernel under TCG with `-icount shift=0` (1 ns of guest time per instruction), loads the in-tree
//! algorithms (modprobe) and ours (insmod), then `rdcc_bench.ko`, whose init drives every
//! algorithm through the same synthetic ACK streams and logs `RDCC-BENCH` lines. This file
//! parses them into the table: instructions per ACK (the stream's own bookkeeping subtracted)
//! and the ratio to dctcp, per stream.

use crate::util::{err, fmt_dur, out_dir, repo_root, run_capture, Result};
use crate::{kernel, modules, say, vm};
use rdcc_sim::text_table::{render, Cell, Col};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::time::Duration;

/// Default algorithms, in table order: the kernel's, then ours.
pub const ALGOS: &[&str] = &[
    "reno",
    "cubic",
    "dctcp",
    "bbr",
    "vegas",
    "swift",
    "swift_vaisf",
    "timely",
    "theta_powertcp",
    // The INT laws: these rows are their CA calls with an intake that holds no echo, so the
    // law holds; with them come the rows `int_hook`, `powertcp+int` and `hpcc+int` on `dc`
    // (the echo hook, and the hook with the CA calls on an echo per ACK: rows_per_set).
    "powertcp",
    "hpcc",
];

/// Timed ACKs per algorithm and stream (the same number of warm-up ACKs precede them).
pub const ACKS: u32 = 20_000;

/// One measured (stream, algorithm).
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The measurement set (`before`/`after` with `--before`, else `now`).
    pub set: String,
    pub stream: String,
    pub algo: String,
    pub acks: u64,
    /// Instructions of the timed ACKs, stream bookkeeping included.
    pub insns: u64,
    /// Instructions of the same ACKs without any CA call.
    pub base: u64,
    pub cwnd_end: u64,
}

impl Row {
    /// Instructions per ACK of the algorithm alone.
    pub fn per_ack(&self) -> f64 {
        self.insns.saturating_sub(self.base) as f64 / self.acks.max(1) as f64
    }
}

/// What the guest reported.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Report {
    /// The method check: measured instructions per iteration of a 2-instruction loop, x1000.
    pub check_milli: Option<u64>,
    /// The clock the guest measured with: `ktime`, or `tsc` when ktime's scale was not exact.
    pub clock: String,
    /// The check of `int_hook`'s per-call count: a 2000-instruction loop between a clock pair,
    /// less a third read's pair, x1000 (2,000,000 to 2,001,000: a register move or none).
    pub split_milli: Option<u64>,
    pub rows: Vec<Row>,
    pub errors: Vec<String>,
    /// Sets whose run completed.
    pub done: Vec<String>,
    /// The INT modules' counters after each set: (set, algorithm, name → value).
    pub counters: Vec<(String, String, BTreeMap<String, u64>)>,
}

fn kv(line: &str) -> BTreeMap<&str, &str> {
    line.split_whitespace()
        .filter_map(|w| w.split_once('='))
        .collect()
}

/// Parse the `RDCC-BENCH*` lines of the console (dmesg copies, with or without timestamps).
pub fn parse(console: &str) -> Report {
    let mut r = Report::default();
    for line in console.lines() {
        let Some(pos) = line.find("RDCC-BENCH") else {
            continue;
        };
        let l = &line[pos..];
        let f = kv(l);
        let num = |k: &str| f.get(k).and_then(|v| v.parse::<u64>().ok());
        if l.starts_with("RDCC-BENCH-CHECK") {
            r.check_milli = num("measured_milli");
            r.clock = f.get("clock").unwrap_or(&"ktime").to_string();
        } else if l.starts_with("RDCC-BENCH-SPLIT") {
            r.split_milli = num("per_call_milli");
        } else if l.starts_with("RDCC-BENCH-ERROR") {
            r.errors.push(l.to_string());
        } else if l.starts_with("RDCC-BENCH-COUNTERS") {
            let (Some(set), Some(algo)) = (f.get("set"), f.get("algo")) else {
                r.errors.push(format!("unparsed: {l}"));
                continue;
            };
            let c = f
                .iter()
                .filter_map(|(k, v)| Some((k.to_string(), v.parse::<u64>().ok()?)))
                .collect();
            r.counters.push((set.to_string(), algo.to_string(), c));
        } else if l.starts_with("RDCC-BENCH-DONE") {
            r.done.push(f.get("set").unwrap_or(&"now").to_string());
        } else if l.starts_with("RDCC-BENCH ") {
            let (Some(set), Some(stream), Some(algo)) =
                (f.get("set"), f.get("stream"), f.get("algo"))
            else {
                r.errors.push(format!("unparsed: {l}"));
                continue;
            };
            match (num("acks"), num("insns"), num("base"), num("cwnd_end")) {
                (Some(acks), Some(insns), Some(base), Some(cwnd_end)) => r.rows.push(Row {
                    set: set.to_string(),
                    stream: stream.to_string(),
                    algo: algo.to_string(),
                    acks,
                    insns,
                    base,
                    cwnd_end,
                }),
                _ => r.errors.push(format!("unparsed: {l}")),
            }
        }
    }
    r
}

fn first_seen<'a>(it: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut v: Vec<&str> = Vec::new();
    for x in it {
        if !v.contains(&x) {
            v.push(x);
        }
    }
    v
}

/// The table: one block per stream, one row per algorithm, and per measurement set the
/// instructions per ACK and the ratio to dctcp (of the same set).
pub fn table(r: &Report) -> String {
    let mut s = String::new();
    let sets = first_seen(r.rows.iter().map(|x| x.set.as_str()));
    for st in first_seen(r.rows.iter().map(|x| x.stream.as_str())) {
        let rows: Vec<&Row> = r.rows.iter().filter(|x| x.stream == st).collect();
        let _ = writeln!(s, "stream {st} ({} ACKs each)", rows[0].acks);
        let mut cols = vec![Col::text("algorithm")];
        for set in &sets {
            cols.push(Col::num(&format!("{set} insn/ACK"), 1));
            cols.push(Col::num("÷ dctcp", 2));
        }
        let body: Vec<Vec<Cell>> = first_seen(rows.iter().map(|x| x.algo.as_str()))
            .into_iter()
            .map(|algo| {
                let mut row = vec![Cell::from(algo)];
                for set in &sets {
                    let get = |a: &str| {
                        rows.iter()
                            .find(|x| x.set == *set && x.algo == a)
                            .map(|x| x.per_ack())
                    };
                    let v = get(algo);
                    row.push(v.into());
                    row.push(match (v, get("dctcp")) {
                        (Some(v), Some(d)) if d > 0.0 => Cell::Num(v / d),
                        _ => Cell::None,
                    });
                }
                row
            })
            .collect();
        for l in render(&cols, &body, true).lines() {
            let _ = writeln!(s, "  {l}");
        }
    }
    s
}

/// The INT algorithms, whose echo rows the bench adds on `dc`.
pub const INT_ALGOS: &[&str] = &["powertcp", "hpcc"];

/// Rows one set prints: every algorithm on both streams, plus with Swift the two remote-delay
/// rows of the `dc` stream (`rqd_hook`: the netfilter hook alone; `swift+rqd`: the hook and
/// Swift's CA calls using the remote delay), and with an INT algorithm `<name>+int` (its echo
/// hook and CA calls on an echo per ACK) and, with powertcp, `int_hook` (the hook's own share
/// of `powertcp+int`).
pub fn rows_per_set(algos: &[String]) -> usize {
    let has = |n: &str| algos.iter().any(|a| a == n);
    let rqd = if has("swift") { 2 } else { 0 };
    let int = usize::from(has("powertcp")) * 2 + usize::from(has("hpcc"));
    2 * algos.len() + rqd + int
}

/// The echo rows' check: every ACK of each `<name>+int` row (warm-up and timed; with powertcp
/// also those of `int_hook`, the same run with the hook's calls counted apart) took its own
/// segment's stack (the module's `ack_used` counter after the set; the no-echo rows only miss).
/// Returns one line per row and whether all held.
pub fn int_check(r: &Report) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let mut ok = true;
    for row in r.rows.iter().filter(|x| x.algo.ends_with("+int")) {
        let algo = row.algo.trim_end_matches("+int");
        // Warm-up and timed ACKs of this row, and of `int_hook`, which runs powertcp+int again.
        let runs = 1 + u64::from(
            algo == "powertcp"
                && r.rows
                    .iter()
                    .any(|x| x.set == row.set && x.algo == "int_hook"),
        );
        let want = row.acks.saturating_mul(2 * runs);
        let c = r
            .counters
            .iter()
            .find(|(set, a, _)| *set == row.set && a == algo)
            .map(|x| &x.2);
        let get = |k: &str| c.and_then(|c| c.get(k)).copied().unwrap_or(0);
        let used = get("ack_used");
        let bad = get("ack_mismatch") + get("ack_reordered") + get("ack_not_advanced");
        let held = c.is_some() && used == want && bad == 0;
        ok &= held;
        lines.push(format!(
            "{} {}: ack_used {used} of {want} echo ACKs (mismatch+reordered+not_advanced {bad}){}",
            row.set,
            row.algo,
            if held { "" } else { "  FAILED" }
        ));
    }
    (lines, ok)
}

/// The guest job: load the kernel's algorithms, then ours, then the benchmark, and copy its
/// lines to the console. With `before` (our algorithms built from another commit, installed as
/// `before-tcp_<name>.ko`) that set runs first and is unloaded before the work tree's.
fn job(algos: &[String], acks: u32, before: bool) -> String {
    let ours = |a: &str| !matches!(a, "reno" | "cubic" | "dctcp" | "bbr" | "vegas");
    let mut j = String::from("modprobe ipv6 2>/dev/null\nrc=0\n");
    for a in algos
        .iter()
        .filter(|a| !ours(a) && !matches!(a.as_str(), "reno" | "cubic"))
    {
        let _ = writeln!(j, "modprobe tcp_{a} || echo \"RDCC-BENCH-ERROR load {a}\"");
    }
    let run = |j: &mut String, set: &str, prefix: &str| {
        for a in algos.iter().filter(|a| ours(a)) {
            let _ = writeln!(
                j,
                "insmod /lib/modules/rdcc/{prefix}tcp_{a}.ko || echo \"RDCC-BENCH-ERROR load {set} {a}\""
            );
        }
        let _ = writeln!(
            j,
            "insmod /lib/modules/rdcc/{} algos={} acks={acks} tag={set} || rc=1\nrmmod rdcc_bench",
            modules::BENCH_KO,
            algos.join(",")
        );
        for a in algos.iter().filter(|a| INT_ALGOS.contains(&a.as_str())) {
            let _ = writeln!(
                j,
                "echo \"RDCC-BENCH-COUNTERS set={set} algo={a} $(tr ' \\n' '= ' < /sys/module/tcp_{a}/parameters/counters)\""
            );
        }
        for a in algos.iter().filter(|a| ours(a)) {
            let _ = writeln!(j, "rmmod tcp_{a}");
        }
    };
    if before {
        run(&mut j, "before", "before-");
        run(&mut j, "after", "");
    } else {
        run(&mut j, "now", "");
    }
    j.push_str("dmesg | grep RDCC-BENCH\nexit $rc\n");
    j
}

/// Our modules built from commit `rev` (`git archive` of Kbuild, modules/ and core/src), as
/// copies named `before-tcp_<name>.ko` for the initramfs.
fn build_before(k: &kernel::Kernel, rev: &str) -> Result<Vec<std::path::PathBuf>> {
    let root = repo_root();
    let src = out_dir()?.join("bench-before-src");
    let _ = std::fs::remove_dir_all(&src);
    std::fs::create_dir_all(&src)?;
    let script = format!(
        "git -C '{}' archive '{}' Kbuild modules core/src | tar -x -C '{}'",
        root.display(),
        rev.replace('\'', ""),
        src.display()
    );
    run_capture(std::process::Command::new("sh").arg("-c").arg(script))?;
    let kos = modules::build_tree(
        k,
        &src,
        &format!("kbuild-bench-before-{}", k.profile.name),
        false,
    )?;
    let dst = out_dir()?.join("bench-before-ko");
    let _ = std::fs::remove_dir_all(&dst);
    std::fs::create_dir_all(&dst)?;
    let mut out = Vec::new();
    for ko in kos.iter().filter(|p| modules::is_product(p)) {
        let name = ko
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let to = dst.join(format!("before-{name}"));
        std::fs::copy(ko, &to)?;
        out.push(to);
    }
    Ok(out)
}

/// `cargo xtask bench [--algos "A B"] [--before REV] [--timeout SECS] [--quiet]`; `algos` is
/// the list `BenchArgs::check` accepted (names the qemu kernel or modules/Kbuild offer).
pub fn run(algos: &[String], before: Option<&str>, timeout_s: u64, quiet: bool) -> Result<u8> {
    if algos.is_empty() {
        return err("bench: no algorithm to measure");
    }
    let k = kernel::ensure_profile(&kernel::PROFILES[0])?;
    // The qemu profile's module staging copy and the initramfs are the QEMU bed's shared paths.
    let _boot = crate::boot_lock(crate::scenario::Bed::Qemu)?;
    let mut mods = modules::build_with(&k, true)?;
    if !mods.iter().any(|m| m.ends_with(modules::BENCH_KO)) {
        return err("bench: rdcc_bench.ko was not built");
    }
    if let Some(rev) = before {
        say!("bench: building the product modules of {rev} for the `before` set");
        mods.extend(build_before(&k, rev)?);
    }
    let img = vm::build_initramfs(
        &k,
        &vm::Contents {
            our_modules: mods,
            our_bins: vec![],
            job: job(algos, ACKS, before.is_some()),
        },
    )?;
    let b = vm::Boot {
        icount: true,
        stream: !quiet,
        timeout: Duration::from_secs(timeout_s),
        ..vm::Boot::default()
    };
    let log = out_dir()?.join("bench-console.log");
    say!(
        "bench: booting the {} kernel under TCG -icount shift=0, console log {}",
        k.profile.name,
        log.display()
    );
    let r = vm::boot(&k, &img, &b, &log)?;
    let rep = parse(&r.console);
    say!("bench: VM done in {}", fmt_dur(r.elapsed));
    for e in &rep.errors {
        println!("bench: {e}");
    }
    let Some(check) = rep.check_milli else {
        return err(format!(
            "bench: no result from the guest (exit {:?}, timed out: {}); see {}",
            r.status,
            r.timed_out,
            log.display()
        ));
    };
    println!(
        "method check: a 2-instruction loop counts {}.{:03} instructions per iteration ({} clock)",
        check / 1000,
        check % 1000,
        rep.clock
    );
    let mut t = table(&rep);
    let (int_lines, mut int_ok) = int_check(&rep);
    if rep.rows.iter().any(|x| x.algo == "int_hook") {
        let s = rep.split_milli.unwrap_or(0);
        let held = (2_000_000..=2_001_000).contains(&s);
        int_ok &= held;
        let _ = writeln!(
            t,
            "int_hook method check: a 2000-instruction call counts {}.{:03}{}",
            s / 1000,
            s % 1000,
            if held { "" } else { "  FAILED" }
        );
    }
    for l in &int_lines {
        let _ = writeln!(t, "INT echo check: {l}");
    }
    print!("{t}");
    std::fs::write(out_dir()?.join("bench.txt"), &t)?;
    let nsets = if before.is_some() { 2 } else { 1 };
    let complete = rep.done.len() == nsets
        && rep.errors.is_empty()
        && int_ok
        && rep.rows.len() == nsets * rows_per_set(algos);
    if !complete {
        println!("bench: incomplete (see above and {})", log.display());
    }
    // The loop check must be exact to a part in a thousand, or the counts mean nothing.
    if !(1995..=2005).contains(&check) {
        println!("bench: the method check failed: is the guest clock instruction-driven?");
        return Ok(1);
    }
    Ok(if complete && r.status == Some(0) {
        0
    } else {
        1
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_tabulates() {
        let c = "[ 1.0] RDCC-BENCH-CHECK loop=2 measured_milli=2000 ktime_overhead=40\n\
                 [ 1.1] RDCC-BENCH-BASE stream=dc acks=100 insns=5000\n\
                 [ 1.2] RDCC-BENCH set=now stream=dc algo=dctcp acks=100 insns=20000 base=5000 cwnd_end=40\n\
                 [ 1.3] RDCC-BENCH set=now stream=dc algo=swift acks=100 insns=35000 base=5000 cwnd_end=30\n\
                 [ 1.4] RDCC-BENCH-ERROR stream=dc algo=nope err=-2\n\
                 RDCC-BENCH-DONE set=now\n";
        let r = parse(c);
        assert_eq!(r.check_milli, Some(2000));
        let s = parse("RDCC-BENCH-CHECK loop=2 measured_milli=2000\nRDCC-BENCH-SPLIT calls=500 loop_insns=2000 per_call_milli=2001000\n");
        assert_eq!(
            (s.check_milli, s.split_milli),
            (Some(2000), Some(2_001_000))
        );
        assert_eq!(r.done, vec!["now".to_string()]);
        assert_eq!(r.errors.len(), 1);
        assert_eq!(r.rows.len(), 2);
        assert_eq!(r.rows[0].per_ack(), 150.0);
        assert_eq!(r.rows[1].per_ack(), 300.0);
        let t = table(&r);
        assert!(t.contains("dctcp"), "{t}");
        let swift = t.lines().find(|l| l.contains("swift")).unwrap_or_default();
        assert!(swift.contains("300.0") && swift.contains("2.00"), "{swift}");
    }

    #[test]
    fn swift_adds_the_two_remote_delay_rows() {
        let a = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(rows_per_set(&a(&["dctcp", "swift"])), 6);
        assert_eq!(rows_per_set(&a(&["dctcp", "timely"])), 4);
        assert_eq!(rows_per_set(&a(&["dctcp", "powertcp", "hpcc"])), 9);
        assert_eq!(rows_per_set(&a(&["dctcp", "hpcc"])), 5);
    }

    #[test]
    fn int_rows_need_every_ack_used() {
        let c = |used: u64| {
            format!(
                "RDCC-BENCH set=now stream=dc algo=hpcc+int acks=100 insns=9 base=1 cwnd_end=1\n\
                 RDCC-BENCH-COUNTERS set=now algo=hpcc rx_new=200 ack_used={used} ack_missed=400 ack_mismatch=0\n"
            )
        };
        let (l, ok) = int_check(&parse(&c(200)));
        assert!(
            ok && l.len() == 1 && l[0].contains("ack_used 200 of 200"),
            "{l:?}"
        );
        assert!(!int_check(&parse(&c(199))).1);
        let with_hook =
            "RDCC-BENCH set=now stream=dc algo=int_hook acks=100 insns=9 base=0 cwnd_end=1\n\
             RDCC-BENCH set=now stream=dc algo=powertcp+int acks=100 insns=9 base=1 cwnd_end=1\n\
             RDCC-BENCH-COUNTERS set=now algo=powertcp ack_used=400\n";
        let (l, ok) = int_check(&parse(with_hook));
        assert!(ok && l[0].contains("ack_used 400 of 400"), "{l:?}");
        let no_counters =
            "RDCC-BENCH set=now stream=dc algo=hpcc+int acks=100 insns=9 base=1 cwnd_end=1\n";
        assert!(!int_check(&parse(no_counters)).1);
    }

    #[test]
    fn malformed_lines_are_errors() {
        let r = parse("RDCC-BENCH set=now stream=dc algo=x acks=zz insns=1 base=1 cwnd_end=1\n");
        assert!(r.rows.is_empty());
        assert_eq!(r.errors.len(), 1);
    }

    #[test]
    fn job_loads_ours_by_file_and_the_kernels_by_modprobe() {
        let j = job(&["cubic".into(), "dctcp".into(), "swift".into()], 10, false);
        assert!(j.contains("modprobe tcp_dctcp"));
        assert!(j.contains("insmod /lib/modules/rdcc/tcp_swift.ko"));
        assert!(!j.contains("tcp_cubic"));
        assert!(j.contains("algos=cubic,dctcp,swift acks=10 tag=now"));
        let j = job(&["dctcp".into(), "swift".into()], 10, true);
        let b = j.find("before-tcp_swift.ko").unwrap_or(usize::MAX);
        let a = j.find("rdcc/tcp_swift.ko").unwrap_or(0);
        assert!(b < a, "the before set runs first:\n{j}");
        assert!(j.contains("tag=before") && j.contains("tag=after"));
    }

    #[test]
    fn table_has_a_column_pair_per_set() {
        let mut c = String::new();
        for (set, sw) in [("before", 40000), ("after", 15000)] {
            c.push_str(&format!(
                "RDCC-BENCH set={set} stream=dc algo=dctcp acks=100 insns=15000 base=5000 cwnd_end=1\n\
                 RDCC-BENCH set={set} stream=dc algo=swift acks=100 insns={sw} base=5000 cwnd_end=1\n"
            ));
        }
        let t = table(&parse(&c));
        let swift = t.lines().find(|l| l.contains("swift")).unwrap_or_default();
        assert!(swift.contains("350.0") && swift.contains("3.50"), "{t}");
        assert!(swift.contains("100.0") && swift.contains("1.00"), "{t}");
    }
}
