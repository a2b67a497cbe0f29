//! `cargo xtask sim SCENARIO [--out DIR] [--algos "A B"] [--set key.path=value]... [--no-plots]
//! [--quiet] [--force] [--allow-big]`: run a simulator scenario with the `sim` binary of
//! `rdcc-sim`, built in release (the simulator is CPU-bound). The scenario (a name in `sim/scenarios/` or a path) was
//! resolved by the argument parser; the `sim` binary parses and validates it, with the
//! overrides, before it runs anything. `cargo xtask sim compare RUN_DIR... --out DIR` runs
//! `sim compare` (saved runs overlaid, one table) with the same words.
//!
//! The build is `cargo build --release` with cargo's own progress (its bar on a terminal, its
//! `Compiling` lines otherwise), so the first build (about 1.5 minutes on 2 cores, plotters and
//! its font stack included) is visible; then the binary runs directly.
//!
//! `cargo xtask sweep SCENARIO [--seeds S] [--algos "A B"] [--grid KEY=V1,V2]... [--set ...]...
//! [--out DIR] [--jobs N] [--slurm] [--no-plots] [--quiet] [--force] [--allow-big]`: the same
//! build, then `sim sweep` with the same options.

use crate::args::{SimArgs, SweepArgs};
use crate::say;
use crate::util::{err, repo_root, Result};
use crate::vm_sim::Translated;
use std::path::PathBuf;
use std::process::Command;

/// Build the `sim` binary in release; its path.
fn build(quiet: bool) -> Result<PathBuf> {
    let root = repo_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .current_dir(&root)
        .args(["build", "--release", "-p", "rdcc-sim", "--bin", "sim"]);
    if quiet {
        build.arg("--quiet");
    } else {
        say!("sim: building the simulator (release)");
    }
    match build.status() {
        Ok(s) if s.success() => Ok(root.join("target/release/sim")),
        Ok(s) => err(format!("sim: cargo build failed ({s})\n")),
        Err(e) => err(format!("sim: cannot run cargo: {e}\n")),
    }
}

/// `cargo xtask sim compare RUN_DIR... --out DIR [--force]`: the simulator's `sim compare`
/// with these words (`args` from `compare` on), run in the caller's directory.
pub fn compare(args: &[String]) -> Result<u8> {
    let mut sim = Command::new(build(true)?);
    sim.args(args);
    status(sim)
}

/// Run the built simulator with `cmd`'s arguments; its exit status.
fn status(mut cmd: Command) -> Result<u8> {
    match cmd.status() {
        Ok(s) => Ok(s.code().unwrap_or(1).clamp(0, 255) as u8),
        Err(e) => err(format!("sim: cannot run the simulator: {e}\n")),
    }
}

/// `cargo xtask sim`: SCENARIO, or `vm`, the translation of `--vm-scenario` (checked with
/// the options by `Cli::check`), written to `target/rdcc/vm-sim/NAME.toml` and run like any
/// scenario file (its `--algos` are already in the translation).
pub fn run(a: &SimArgs, vm: Option<&Translated>) -> Result<u8> {
    let scenario = match (vm, &a.scenario) {
        (Some(t), _) => {
            let dir = repo_root().join("target/rdcc/vm-sim");
            let path = dir.join(format!("{}.toml", t.name));
            if let Err(e) =
                std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, &t.toml))
            {
                return err(format!("sim: {}: {e}\n", path.display()));
            }
            if !a.quiet {
                say!("sim: {} translated into {}", t.name, path.display());
            }
            path
        }
        (None, Some(s)) => s.clone(),
        (None, None) => return err("sim: no scenario\n"),
    };
    let mut sim = Command::new(build(a.quiet)?);
    sim.current_dir(repo_root()).arg(&scenario);
    if let Some(out) = &a.out {
        sim.arg("--out").arg(out);
    }
    if let (Some(algos), None) = (&a.algos, vm) {
        sim.args(["--algos", algos]);
    }
    for s in &a.set {
        sim.args(["--set", s]);
    }
    if a.no_plots {
        sim.arg("--no-plots");
    }
    if a.quiet {
        sim.arg("--quiet");
    }
    if a.force {
        sim.arg("--force");
    }
    if a.allow_big {
        sim.arg("--allow-big");
    }
    status(sim)
}

/// `cargo xtask sweep`: `sim sweep` with the same options.
pub fn sweep(a: &SweepArgs) -> Result<u8> {
    let mut sim = Command::new(build(a.quiet)?);
    sim.current_dir(repo_root()).arg("sweep").arg(&a.scenario);
    let opts = [("--seeds", &a.seeds), ("--algos", &a.algos)];
    for (flag, v) in opts {
        if let Some(v) = v {
            sim.args([flag, v]);
        }
    }
    for g in &a.grid {
        sim.args(["--grid", g]);
    }
    for s in &a.set {
        sim.args(["--set", s]);
    }
    if let Some(out) = &a.out {
        sim.arg("--out").arg(out);
    }
    if let Some(j) = a.jobs {
        sim.args(["--jobs", &j.to_string()]);
    }
    let flags = [
        ("--slurm", a.slurm),
        ("--no-plots", a.no_plots),
        ("--quiet", a.quiet),
        ("--force", a.force),
        ("--allow-big", a.allow_big),
    ];
    for (flag, on) in flags {
        if on {
            sim.arg(flag);
        }
    }
    status(sim)
}
