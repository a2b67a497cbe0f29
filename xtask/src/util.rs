//! Small helpers: paths, the build cache, running commands, hashing, durations.

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::Duration;

/// An error for the user: one clear sentence, plus optional detail lines (e.g. a log tail).
#[derive(Debug)]
pub struct Error {
    pub msg: String,
    pub detail: Vec<String>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.msg)?;
        for d in &self.detail {
            writeln!(f, "  {d}")?;
        }
        Ok(())
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error {
            msg: format!("I/O error: {e}"),
            detail: vec![],
        }
    }
}

pub type Result<T> = std::result::Result<T, Error>;

/// Build an error from a message.
pub fn err<T>(msg: impl Into<String>) -> Result<T> {
    Err(Error {
        msg: msg.into(),
        detail: vec![],
    })
}

/// The repository root (the workspace containing xtask/).
pub fn repo_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.parent().map(Path::to_path_buf).unwrap_or(here)
}

/// The build cache, outside the work tree: `$RDCC_CACHE_DIR`, else `$XDG_CACHE_HOME/rdcc`, else
/// `~/.cache/rdcc`. Created on demand; the project never depends on it existing.
pub fn cache_dir() -> Result<PathBuf> {
    let dir = if let Some(d) = std::env::var_os("RDCC_CACHE_DIR") {
        PathBuf::from(d)
    } else if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
        PathBuf::from(d).join("rdcc")
    } else {
        let home = std::env::var_os("HOME").unwrap_or_else(|| "/root".into());
        PathBuf::from(home).join(".cache").join("rdcc")
    };
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Scratch output inside the work tree (ignored by git): `target/rdcc`.
pub fn out_dir() -> Result<PathBuf> {
    let d = repo_root().join("target").join("rdcc");
    std::fs::create_dir_all(&d)?;
    Ok(d)
}

/// A command with a clean environment for kernel builds: Debian's `/usr/bin/rustc` must win over
/// rustup's (which has no rust-src), bindgen comes from `~/.cargo/bin`, and nothing cargo set for
/// this xtask process (RUSTFLAGS, CARGO_*, RUSTUP_TOOLCHAIN) may leak into Kbuild.
pub fn kernel_cmd(prog: &str) -> Command {
    // A background thread's builds (`set_background`) yield the CPU to the others: `nice`.
    let mut c = if BACKGROUND.with(|b| b.get()) {
        let mut n = Command::new("nice");
        n.args(["-n", "10", prog]);
        n
    } else {
        Command::new(prog)
    };
    // The harness's own bindgen (deps::tools_dir) comes after the system's directories.
    let tools_bin = crate::deps::tools_dir().join("bin");
    c.env(
        "PATH",
        format!(
            "/usr/sbin:/usr/bin:/sbin:/bin:/usr/local/sbin:/usr/local/bin:{}",
            tools_bin.display()
        ),
    );
    for (k, _) in std::env::vars_os() {
        let k = k.to_string_lossy().into_owned();
        if k.starts_with("CARGO")
            || k.starts_with("RUSTUP")
            || k.starts_with("RUST")
            || k == "RUSTC"
            || k == "RUSTFLAGS"
            || k == "MAKEFLAGS"
            || k == "MFLAGS"
        {
            c.env_remove(&k);
        }
    }
    c
}

/// Run a command, inheriting output; error naming the command on failure.
pub fn run(cmd: &mut Command) -> Result<()> {
    let st = cmd.status().map_err(|e| Error {
        msg: format!("cannot start {:?}: {e}", cmd.get_program()),
        detail: vec![],
    })?;
    check_status(cmd, st)
}

/// Run a command quietly, returning stdout; on failure include its stderr.
pub fn run_capture(cmd: &mut Command) -> Result<String> {
    let out = cmd.stdin(Stdio::null()).output().map_err(|e| Error {
        msg: format!("cannot start {:?}: {e}", cmd.get_program()),
        detail: vec![],
    })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr);
        return Err(Error {
            msg: format!("{} failed ({})", describe(cmd), out.status),
            detail: tail_lines(&stderr, 20),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

fn check_status(cmd: &Command, st: ExitStatus) -> Result<()> {
    if st.success() {
        Ok(())
    } else {
        err(format!("{} failed ({st})", describe(cmd)))
    }
}

/// `prog arg1 arg2 ...` for messages.
pub fn describe(cmd: &Command) -> String {
    let mut s = cmd.get_program().to_string_lossy().into_owned();
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// The last `n` lines of `text`.
pub fn tail_lines(text: &str, n: usize) -> Vec<String> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.len().saturating_sub(n);
    lines[start..].iter().map(|s| s.to_string()).collect()
}

/// FNV-1a 64-bit: a stable, dependency-free content hash for cache keys (not for security).
pub fn fnv1a(parts: &[&[u8]]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for &b in p.iter() {
            h ^= b as u64;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
        // Separator so ("ab","c") and ("a","bc") differ.
        h ^= 0xff;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// `1m23s` style.
pub fn fmt_dur(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

/// Is this process root?
pub fn is_root() -> bool {
    // The real uid from /proc/self/status ("Uid:\t0\t0\t0\t0").
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(1).map(|u| u == "0"))
        })
        .unwrap_or(false)
}

/// Print a progress line for the harness (stderr, so stdout stays the result).
#[macro_export]
macro_rules! say {
    ($($arg:tt)*) => {{
        eprintln!("[xtask]{} {}", $crate::util::lane_tag(), format!($($arg)*));
    }};
}

std::thread_local! {
    /// The lane this thread runs in `cargo xtask test`'s concurrent plan (test_plan.rs `cmd_test`:
    /// the UML lane beside the QEMU lane) and whether it streams guest consoles, or none.
    static LANE: std::cell::Cell<Option<(&'static str, bool)>> = const { std::cell::Cell::new(None) };
}

/// Name this thread's lane: its `say!` lines are tagged with it, and what would draw on the
/// terminal in place (a kernel build's progress) prints lines instead, as lanes share it. Of
/// lanes that run together, one at most `streams` its guests' consoles (they would interleave);
/// the others' are in their console logs.
pub fn set_lane(name: &'static str, streams: bool) {
    LANE.with(|l| l.set(Some((name, streams))));
}

std::thread_local! {
    /// Does this thread build in the background (`kernel_cmd` runs its programs at nice 10)?
    static BACKGROUND: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Run this thread's kernel builds at nice 10: work done ahead (test_plan.rs: the distro
/// kernel while both lanes run) takes the CPU the lanes leave idle instead of slowing the
/// builds they wait for.
pub fn set_background() {
    BACKGROUND.with(|b| b.set(true));
}

/// This thread's lane, if it runs in one.
pub fn lane() -> Option<&'static str> {
    LANE.with(|l| l.get()).map(|(n, _)| n)
}

/// May this thread stream a guest's console (no lane, or the lane that streams)?
pub fn lane_streams() -> bool {
    LANE.with(|l| l.get()).is_none_or(|(_, s)| s)
}

/// `say!`'s tag for this thread's lane: ` [name]`, or nothing.
pub fn lane_tag() -> String {
    lane().map(|n| format!(" [{n}]")).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_separates_parts() {
        assert_ne!(fnv1a(&[b"ab", b"c"]), fnv1a(&[b"a", b"bc"]));
        assert_eq!(fnv1a(&[b"x"]), fnv1a(&[b"x"]));
    }

    #[test]
    fn tail_takes_last() {
        assert_eq!(tail_lines("a\nb\nc", 2), vec!["b", "c"]);
        assert_eq!(tail_lines("a", 5), vec!["a"]);
    }
}
