//! Progress of a long Kbuild run (the kernel build, `modules_install`): steps done out of the
//! steps expected, a percentage and the time left.
//!
//! A *step* is one line of Kbuild's quiet output (`  CC      net/ipv4/tcp.o`, `  RUSTC L
//! rust/core.o`, `  LD      vmlinux.o`, `  INSTALL …`): an indented upper-case tag and its
//! target. Kbuild prints it when it starts the step, so the count of such lines in the build log
//! is the number of steps started.
//!
//! The expected total is the count of the same profile's previous build, which the harness
//! records after every successful build (`<cache>/<profile>/.steps-<phase>`); without one, the
//! count in an older build's log that is still in the cache; without that, another profile's
//! record (the profiles' counts differ by a few percent: 1857 qemu, 1873 debug, 1919 distro
//! steps for bzImage and modules of Linux 6.12 on tinyconfig + our fragments). A build of the
//! same source and fragments runs the same steps, so with a record of the same profile the total
//! is exact unless the fragments changed.
//!
//! Time left is `elapsed × (total − done) / done`: the mean time per step so far, times the
//! steps to go. With `-j` (cores + 1) make keeps every core busy, so steps finish at a roughly
//! steady rate; the exceptions are the Rust crates (`core` and `kernel` take minutes each and
//! come about 5 % in), so the estimate is too high just after them and settles as the C objects
//! (three quarters of all steps) stream through. It is shown only after 5 % of the steps, when
//! the rate is already an average over many steps.

use crate::util::fmt_dur;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The expected number of steps and where that number comes from (for the first line).
#[derive(Debug, Clone, PartialEq)]
pub struct Estimate {
    pub steps: u64,
    pub from: String,
}

/// A line of Kbuild's quiet output: two spaces, a tag of 1 to 9 upper-case letters, digits or
/// underscores, whitespace, then the target.
pub fn is_step(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("  ") else {
        return false;
    };
    let tag_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
        .count();
    (1..=9).contains(&tag_len)
        && rest.as_bytes()[0].is_ascii_uppercase()
        && rest[tag_len..].starts_with(' ')
        && !rest[tag_len..].trim().is_empty()
}

/// The steps of each make invocation in a log that several invocations appended to, in order
/// (each starts with `make: Entering directory`).
pub fn steps_per_invocation(log: &str) -> Vec<u64> {
    let mut out: Vec<u64> = Vec::new();
    for line in log.lines() {
        if line.starts_with("make: Entering directory") {
            out.push(0);
        } else if is_step(line) {
            match out.last_mut() {
                Some(n) => *n += 1,
                None => out.push(1),
            }
        }
    }
    out
}

fn record_path(root: &Path, phase: &str) -> PathBuf {
    root.join(format!(".steps-{phase}"))
}

/// Remember a finished phase's step count for the next build's estimate.
pub fn record(root: &Path, phase: &str, steps: u64) {
    let _ = fs::write(record_path(root, phase), format!("{steps}\n"));
}

/// The estimate of one cache root: its record, else the newest complete build's log
/// (invocation `index`: 0 = bzImage and modules, 1 = modules_install).
fn estimate_in(root: &Path, phase: &str, index: usize) -> Option<Estimate> {
    if let Some(n) = fs::read_to_string(record_path(root, phase))
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .filter(|n: &u64| *n > 0)
    {
        return Some(Estimate {
            steps: n,
            from: format!("the last build in {}", root.display()),
        });
    }
    let mut logs: Vec<(std::time::SystemTime, PathBuf)> = fs::read_dir(root)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|d| d.join("complete").is_file())
        .filter_map(|d| {
            let log = d.join("build.log");
            let t = fs::metadata(&log).and_then(|m| m.modified()).ok()?;
            Some((t, log))
        })
        .collect();
    logs.sort();
    let (_, log) = logs.pop()?;
    let n = *steps_per_invocation(&fs::read_to_string(&log).ok()?).get(index)?;
    (n > 0).then(|| Estimate {
        steps: n,
        from: log.display().to_string(),
    })
}

/// The expected steps of `phase` (make invocation `index` of the build log): from `own` (the
/// profile's cache root) first, then from `others` (other profiles' roots).
pub fn estimate(own: &Path, others: &[PathBuf], phase: &str, index: usize) -> Option<Estimate> {
    estimate_in(own, phase, index).or_else(|| {
        others.iter().find_map(|r| {
            estimate_in(r, phase, index).map(|e| Estimate {
                from: format!("{} (another profile)", e.from),
                ..e
            })
        })
    })
}

/// Time left from the steps done so far, or None before 5 % of the total (too few steps for a
/// rate) or past the total (the estimate was wrong; no number is better than a false one).
pub fn time_left(done: u64, total: u64, elapsed: Duration) -> Option<Duration> {
    if total == 0 || done == 0 || done >= total || done * 20 < total {
        return None;
    }
    let secs = elapsed.as_secs_f64() * (total - done) as f64 / done as f64;
    Some(Duration::from_secs_f64(secs))
}

/// `build: 812/1873 steps (43%), 6m12s elapsed, ~8m10s left; now: CC net/ipv4/tcp.o`.
pub fn line(what: &str, done: u64, est: Option<&Estimate>, elapsed: Duration, now: &str) -> String {
    let now = now.split_whitespace().collect::<Vec<_>>().join(" ");
    let head = match est {
        Some(e) if done <= e.steps => {
            let pct = done * 100 / e.steps.max(1);
            let left = match time_left(done, e.steps, elapsed) {
                Some(t) => format!(", ~{} left", fmt_dur(t)),
                None => String::new(),
            };
            format!(
                "{what}: {done}/{} steps ({pct}%), {} elapsed{left}",
                e.steps,
                fmt_dur(elapsed)
            )
        }
        Some(e) => format!(
            "{what}: {done} steps (past the {} expected), {} elapsed",
            e.steps,
            fmt_dur(elapsed)
        ),
        None => format!("{what}: {done} steps, {} elapsed", fmt_dur(elapsed)),
    };
    if now.is_empty() {
        head
    } else {
        format!("{head}; now: {now}")
    }
}

/// Reads what a running make appended to its log since the last call: the steps and the last
/// non-empty line.
#[derive(Debug, Default)]
pub struct Follower {
    pos: u64,
    partial: String,
    pub steps: u64,
    pub last: String,
}

impl Follower {
    /// Start at byte `pos` of the log (what earlier invocations wrote is not counted).
    pub fn at(pos: u64) -> Self {
        Follower {
            pos,
            ..Follower::default()
        }
    }

    /// Consume the log's new complete lines.
    pub fn poll(&mut self, log: &Path) {
        use std::io::{Read, Seek, SeekFrom};
        let Ok(mut f) = fs::File::open(log) else {
            return;
        };
        if f.seek(SeekFrom::Start(self.pos)).is_err() {
            return;
        }
        let mut buf = Vec::new();
        let Ok(n) = f.read_to_end(&mut buf) else {
            return;
        };
        self.pos += n as u64;
        self.feed(&String::from_utf8_lossy(&buf));
    }

    fn feed(&mut self, text: &str) {
        self.partial.push_str(text);
        let Some(end) = self.partial.rfind('\n') else {
            return;
        };
        let complete: String = self.partial.drain(..=end).collect();
        for l in complete.lines() {
            if is_step(l) {
                self.steps += 1;
            }
            if !l.trim().is_empty() {
                self.last = l.trim().to_string();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_kbuild_quiet_lines() {
        let cases: &[(&str, bool)] = &[
            ("  CC      net/ipv4/tcp.o", true),
            ("  RUSTC L rust/core.o", true),
            ("  HOSTRUSTC scripts/generate_rust_target", true),
            ("  AR      lib/lib.a", true),
            (
                "  INSTALL /x/modroot/lib/modules/6.12/kernel/net/ipv4/tcp_bbr.ko",
                true,
            ),
            ("  LD [M]  net/ipv4/tcp_bbr.ko", true),
            ("make: Entering directory '/x/src'", false),
            ("Kernel: arch/x86/boot/bzImage is ready  (#1)", false),
            ("lib/maple_tree.c:4053:20: warning: stack frame size", false),
            ("  CC", false),
            ("  ^", false),
            ("    CC      indented.o", false),
            ("  cc      lower.o", false),
            ("  static int x;", false),
            ("", false),
        ];
        for (l, want) in cases {
            assert_eq!(is_step(l), *want, "{l:?}");
        }
    }

    #[test]
    fn invocations_are_counted_apart() {
        let log = "make: Entering directory '/s'\n  CC      a.o\n  CC      b.o\n\
                   warning: x\n  LD      vmlinux\nmake: Leaving directory '/s'\n\
                   make: Entering directory '/s'\n  INSTALL /m/a.ko\n  DEPMOD  /m\n";
        assert_eq!(steps_per_invocation(log), vec![3, 2]);
        assert_eq!(steps_per_invocation("  CC      a.o\n"), vec![1]);
        assert!(steps_per_invocation("").is_empty());
    }

    #[test]
    fn time_left_is_the_mean_rate_times_the_steps_to_go() {
        let s = Duration::from_secs;
        // (done, total, elapsed, expected)
        let cases: &[(u64, u64, u64, Option<u64>)] = &[
            (100, 1000, 60, Some(540)), // 0.6 s per step, 900 to go
            (500, 1000, 300, Some(300)),
            (999, 1000, 999, Some(1)),
            (50, 1000, 30, Some(570)), // exactly 5 %: shown
            (49, 1000, 30, None),      // under 5 %: too early
            (0, 1000, 30, None),
            (1000, 1000, 30, None),
            (1200, 1000, 30, None), // past the estimate
            (10, 0, 30, None),
        ];
        for &(done, total, el, want) in cases {
            assert_eq!(
                time_left(done, total, s(el)).map(|d| d.as_secs()),
                want,
                "{done}/{total} after {el}s"
            );
        }
    }

    #[test]
    fn progress_lines() {
        let e = Estimate {
            steps: 1000,
            from: "x".into(),
        };
        let s = Duration::from_secs;
        let cases: &[(u64, Option<&Estimate>, u64, &str, &str)] = &[
            (
                250,
                Some(&e),
                120,
                "  CC      net/ipv4/tcp.o",
                "build: 250/1000 steps (25%), 2m00s elapsed, ~6m00s left; now: CC net/ipv4/tcp.o",
            ),
            (
                10,
                Some(&e),
                30,
                "",
                "build: 10/1000 steps (1%), 30.0s elapsed",
            ),
            (
                1001,
                Some(&e),
                600,
                "LD vmlinux",
                "build: 1001 steps (past the 1000 expected), 10m00s elapsed; now: LD vmlinux",
            ),
            (7, None, 30, "", "build: 7 steps, 30.0s elapsed"),
        ];
        for (done, est, el, now, want) in cases {
            assert_eq!(line("build", *done, *est, s(*el), now), *want);
        }
    }

    #[test]
    fn follower_counts_only_complete_new_lines() {
        let mut f = Follower::at(0);
        f.feed("  CC      a.o\n  CC      b");
        assert_eq!((f.steps, f.last.as_str()), (1, "CC      a.o"));
        f.feed(".o\nwarning: w\n");
        assert_eq!((f.steps, f.last.as_str()), (2, "warning: w"));
    }

    #[test]
    fn estimates_come_from_records_then_old_logs() {
        let tmp = std::env::temp_dir().join(format!("rdcc-progress-{}", std::process::id()));
        let own = tmp.join("kernel");
        let other = tmp.join("kernel-distro");
        let others = vec![other.clone()];
        let _ = fs::remove_dir_all(&tmp);
        fs::create_dir_all(own.join("linux-old")).unwrap();
        fs::create_dir_all(other.join("linux-x")).unwrap();
        assert_eq!(estimate(&own, &others, "build", 0), None);
        // A complete older build of another profile: its log's invocation counts.
        fs::write(other.join("linux-x/complete"), "built\n").unwrap();
        fs::write(
            other.join("linux-x/build.log"),
            "make: Entering directory '/s'\n  CC      a.o\n  CC      b.o\nmake: Entering directory '/s'\n  INSTALL /m/a.ko\n",
        )
        .unwrap();
        let e = estimate(&own, &others, "build", 0).unwrap();
        assert_eq!(e.steps, 2);
        assert!(e.from.contains("another profile"));
        assert_eq!(
            estimate(&own, &others, "modules_install", 1).unwrap().steps,
            1
        );
        // An incomplete build of the own profile is not used; a complete one is.
        fs::write(own.join("linux-old/build.log"), "  CC      a.o\n").unwrap();
        assert_eq!(estimate(&own, &others, "build", 0).unwrap().steps, 2);
        fs::write(own.join("linux-old/complete"), "built\n").unwrap();
        assert_eq!(estimate(&own, &others, "build", 0).unwrap().steps, 1);
        // The record wins.
        record(&own, "build", 1873);
        assert_eq!(estimate(&own, &others, "build", 0).unwrap().steps, 1873);
        let _ = fs::remove_dir_all(&tmp);
    }
}
