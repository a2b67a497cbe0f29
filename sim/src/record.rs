//! The run record (`run.toml`), written into every output directory of the `sim` binary: what
//! ran (the final scenario, after every `--set` and `--algos`, in full with its defaults), how
//! it was invoked, and on what (simulator version, git commit and whether the tree was dirty,
//! compiler, host), when it started and how long it took.
//!
//! The record is a scenario too: `sim DIR/run.toml --out OTHER` runs the `[scenario]` table it
//! holds, which reproduces the run's outputs byte for byte (the simulator is deterministic);
//! only the record's own timing and provenance fields differ.
//!
//! Also here: the output directory rule (a run never mixes with an older one: a non-empty
//! `--out` is refused unless `--force`, which empties it first).

use crate::error::{invalid, Error, Result};
use crate::Scenario;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::process::Command;
use std::time::{Instant, SystemTime};

/// File name of the run record in an output directory.
pub const RECORD_FILE: &str = "run.toml";

/// The compiler that built the simulator (`rustc --version`, captured by `build.rs`).
pub const RUSTC_VERSION: &str = env!("RDCC_RUSTC_VERSION");

/// The `[run]` table of a run record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunInfo {
    /// The command line, program name first.
    pub command: Vec<String>,
    /// The scenario's seed (every random choice derives from it).
    pub seed: u64,
    /// Version of rdcc-sim.
    pub sim_version: String,
    /// Commit of the checkout the simulator was built from, or "unknown" (not a git
    /// checkout, or no git).
    pub git_commit: String,
    /// Whether that checkout had uncommitted changes (absent when unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub git_dirty: Option<bool>,
    /// `rustc --version` of the build.
    pub rustc: String,
    /// Host name of the machine that ran it.
    pub host: String,
    /// Start, RFC 3339 UTC.
    pub started: String,
    /// Wall time of the whole run, seconds.
    pub wall_s: f64,
    /// Warnings about what the run can mean (also on stderr and in summary.txt).
    #[serde(default)]
    pub warnings: Vec<String>,
}

/// A started run: the clock and the provenance, taken before the run.
pub struct Started {
    wall: Instant,
    started: String,
    git: (String, Option<bool>),
    host: String,
}

impl Started {
    /// Take the start time and the provenance now.
    pub fn now() -> Started {
        Started {
            wall: Instant::now(),
            started: humantime::format_rfc3339_seconds(SystemTime::now()).to_string(),
            git: git_state(Path::new(env!("CARGO_MANIFEST_DIR"))),
            host: host_name(),
        }
    }

    /// The `[run]` table of scenario `sc`, run by `command`, finished now.
    pub fn finish(self, command: Vec<String>, sc: &Scenario, warnings: Vec<String>) -> RunInfo {
        RunInfo {
            command,
            seed: sc.seed,
            sim_version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: self.git.0,
            git_dirty: self.git.1,
            rustc: RUSTC_VERSION.to_string(),
            host: self.host,
            started: self.started,
            wall_s: (self.wall.elapsed().as_secs_f64() * 1000.0).round() / 1000.0,
            warnings,
        }
    }
}

#[derive(Serialize)]
struct RecordRef<'a> {
    run: &'a RunInfo,
    scenario: &'a Scenario,
}

/// The text of a run record: `[run]`, then the full final `[scenario]`.
pub fn record_text(run: &RunInfo, sc: &Scenario) -> Result<String> {
    let body = toml::to_string(&RecordRef { run, scenario: sc })
        .map_err(|e| Error::encode("run record", e))?;
    Ok(format!(
        "# rdcc-sim run record. Replay: sim {RECORD_FILE} --out DIR (runs [scenario] below).\n{body}"
    ))
}

/// Write the run record into `dir`.
pub fn write_record(dir: &Path, run: &RunInfo, sc: &Scenario) -> Result<()> {
    let p = dir.join(RECORD_FILE);
    std::fs::write(&p, record_text(run, sc)?).map_err(Error::at(&p))
}

/// The `[run]` table of a run record's text, if it is one.
pub fn parse_run_info(text: &str) -> Result<RunInfo> {
    let mut doc: toml::Table = toml::from_str(text).map_err(|e| Error::Invalid(e.to_string()))?;
    let run = doc
        .remove("run")
        .ok_or_else(|| Error::Invalid("not a run record: no [run] table".into()))?;
    run.try_into()
        .map_err(|e: toml::de::Error| Error::Invalid(e.to_string()))
}

/// If `doc` is a run record (top-level `[run]` and `[scenario]` tables and nothing else), its
/// scenario table; else `doc` itself.
pub fn scenario_table(mut doc: toml::Table) -> toml::Table {
    let is_record = doc.len() == 2
        && doc.get("run").is_some_and(toml::Value::is_table)
        && doc.get("scenario").is_some_and(toml::Value::is_table);
    match doc.remove("scenario") {
        Some(toml::Value::Table(t)) if is_record => t,
        Some(v) => {
            doc.insert("scenario".into(), v);
            doc
        }
        None => doc,
    }
}

/// Commit and dirtiness of the git checkout holding `dir`: ("unknown", None) when it is not
/// one or git cannot run.
pub fn git_state(dir: &Path) -> (String, Option<bool>) {
    let git = |args: &[&str]| {
        Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "HEAD"]) {
        Some(commit) if !commit.is_empty() => {
            let dirty = git(&["status", "--porcelain"]).map(|s| !s.is_empty());
            (commit, dirty)
        }
        _ => ("unknown".into(), None),
    }
}

/// This machine's host name ("unknown" if the kernel does not say).
pub fn host_name() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "unknown".into())
}

/// Check the output directory before anything runs: absent or empty is fine; a non-empty one
/// is refused unless `force`, and even then a directory that holds `.git` or the current
/// directory is refused. Returns whether the directory must be emptied ([`empty_out`]).
pub fn check_out(dir: &Path, force: bool) -> Result<bool> {
    let shown = dir.display();
    let meta = match std::fs::metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(invalid!("--out {shown}: {e}")),
    };
    if !meta.is_dir() {
        return Err(invalid!("--out {shown}: not a directory"));
    }
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map_err(|e| invalid!("--out {shown}: {e}"))?
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    if names.is_empty() {
        return Ok(false);
    }
    names.sort();
    if !force {
        let more = if names.len() > 3 { ", ..." } else { "" };
        return Err(invalid!(
            "--out {shown} is not empty ({} entries: {}{more}); a run never mixes with an older \
             one: pass --force to empty it first, or choose another directory",
            names.len(),
            names[..names.len().min(3)].join(", ")
        ));
    }
    if names.iter().any(|n| n == ".git") {
        return Err(invalid!(
            "--out {shown} holds .git: --force will not empty it"
        ));
    }
    let canon = std::fs::canonicalize(dir).map_err(|e| invalid!("--out {shown}: {e}"))?;
    if let Ok(cwd) = std::env::current_dir().and_then(std::fs::canonicalize) {
        if cwd.starts_with(&canon) {
            return Err(invalid!(
                "--out {shown} is the current directory or above it: --force will not empty it"
            ));
        }
    }
    Ok(true)
}

/// Remove everything inside `dir` (not `dir` itself); symbolic links are removed, never
/// followed.
pub fn empty_out(dir: &Path) -> Result<()> {
    let rd = std::fs::read_dir(dir).map_err(Error::at(dir))?;
    for e in rd {
        let e = e.map_err(Error::at(dir))?;
        let p = e.path();
        let is_dir = e.file_type().map(|t| t.is_dir()).unwrap_or(false);
        let r = if is_dir {
            std::fs::remove_dir_all(&p)
        } else {
            std::fs::remove_file(&p)
        };
        r.map_err(Error::at(&p))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("rdcc-record-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn out_directory_rule() {
        let d = tmp("out");
        // (setup, force, expected: Ok(needs emptying) or an error fragment)
        type Setup = fn(&Path);
        let cases: &[(&str, Setup, bool, Result<bool, &str>)] = &[
            ("absent", |_| {}, false, Ok(false)),
            (
                "empty",
                |d| std::fs::create_dir_all(d).unwrap(),
                false,
                Ok(false),
            ),
            (
                "old run",
                |d| {
                    std::fs::create_dir_all(d.join("swift")).unwrap();
                    std::fs::write(d.join("summary.txt"), "x").unwrap();
                },
                false,
                Err("is not empty (2 entries: summary.txt, swift); a run never mixes"),
            ),
            (
                "old run, --force",
                |d| {
                    std::fs::create_dir_all(d.join("swift")).unwrap();
                    std::fs::write(d.join("summary.txt"), "x").unwrap();
                },
                true,
                Ok(true),
            ),
            (
                "a checkout, --force",
                |d| std::fs::create_dir_all(d.join(".git")).unwrap(),
                true,
                Err("holds .git"),
            ),
            (
                "a file",
                |d| std::fs::write(d, "x").unwrap(),
                true,
                Err("not a directory"),
            ),
        ];
        for (what, setup, force, want) in cases {
            let _ = std::fs::remove_dir_all(&d);
            let _ = std::fs::remove_file(&d);
            setup(&d);
            let got = check_out(&d, *force).map_err(|e| e.to_string());
            match (want, &got) {
                (Ok(w), Ok(g)) => assert_eq!(g, w, "{what}"),
                (Err(w), Err(g)) => assert!(g.contains(w), "{what}: {g}"),
                _ => panic!("{what}: got {got:?}, want {want:?}"),
            }
            if got == Ok(true) {
                empty_out(&d).unwrap();
                assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "{what}");
            }
        }
        let _ = std::fs::remove_file(&d);
        let _ = std::fs::remove_dir_all(&d);
        // The current directory (or one above it) is never emptied.
        let cwd = std::env::current_dir().unwrap();
        assert!(check_out(&cwd, true)
            .unwrap_err()
            .to_string()
            .contains("current directory"));
    }

    #[test]
    fn record_round_trips() {
        let sc = Scenario::load(
            &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/dumbbell_swift_2flow.toml"),
        )
        .unwrap();
        let run = Started::now().finish(vec!["sim".into(), "x.toml".into()], &sc, vec!["w".into()]);
        let text = record_text(&run, &sc).unwrap();
        assert_eq!(parse_run_info(&text).unwrap(), run);
        let back = Scenario::parse(&text).unwrap();
        assert_eq!(
            toml::to_string(&back).unwrap(),
            toml::to_string(&sc).unwrap()
        );
        assert_eq!(run.rustc, RUSTC_VERSION);
        assert!(run.rustc.starts_with("rustc "), "{}", run.rustc);
        // In this checkout the commit is known.
        assert_eq!(run.git_commit.len(), 40, "{}", run.git_commit);
        assert!(run.git_dirty.is_some());
    }

    #[test]
    fn git_outside_a_checkout_is_unknown() {
        assert_eq!(git_state(Path::new("/")), ("unknown".to_string(), None));
    }

    #[test]
    fn only_a_record_yields_its_scenario() {
        let t = |s: &str| -> toml::Table { toml::from_str(s).unwrap() };
        let cases = [
            ("[run]\na = 1\n[scenario]\nname = \"x\"\n", "name = \"x\"\n"),
            ("name = \"y\"\n", "name = \"y\"\n"),
            // A scenario with an unknown `scenario` key stays itself (and fails validation).
            (
                "name = \"z\"\n[scenario]\nb = 1\n",
                "name = \"z\"\n\n[scenario]\nb = 1\n",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(
                toml::to_string(&scenario_table(t(input))).unwrap(),
                want,
                "{input}"
            );
        }
    }
}
