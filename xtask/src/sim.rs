//! `cargo xtask sim SCENARIO.toml [--out DIR] [--algos "A B"] [--set key=value]... [--no-plots]`: run a simulator
//! scenario with the `sim` binary of `rdcc-sim`, built in release (the simulator is CPU-bound).
//! Arguments pass through unchanged; a scenario name without a path is looked up in
//! `sim/scenarios/` (`cargo xtask sim sl_incast_16to1`).

use crate::util::{err, repo_root, Result};
use std::process::Command;

pub fn run(args: &[String]) -> Result<u8> {
    let Some(first) = args.first() else {
        return err(
            "usage: cargo xtask sim SCENARIO[.toml] [--out DIR] [--algos \"A B\"] [--set key.path=value]... [--no-plots]\n",
        );
    };
    let root = repo_root();
    let mut rest = args.to_vec();
    if !first.starts_with('-') && !std::path::Path::new(first).exists() {
        let name = first.trim_end_matches(".toml");
        let p = root.join("sim/scenarios").join(format!("{name}.toml"));
        if p.exists() {
            rest[0] = p.display().to_string();
        }
    }
    let status = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(&root)
        .args([
            "run",
            "--quiet",
            "--release",
            "-p",
            "rdcc-sim",
            "--bin",
            "sim",
            "--",
        ])
        .args(&rest)
        .status();
    match status {
        Ok(s) => Ok(s.code().unwrap_or(1).clamp(0, 255) as u8),
        Err(e) => err(format!("sim: cannot run cargo: {e}\n")),
    }
}
