//! Build the `rdcc` command (`cli/`: the inet_diag view of live rdcc sockets) for the VM's
//! initramfs.

use crate::say;
use crate::util::{repo_root, run_capture, Result};
use std::path::PathBuf;
use std::process::Command;

/// `cargo build --release -p rdcc-cli`; returns the `rdcc` binary.
pub fn build() -> Result<PathBuf> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut c = Command::new(cargo);
    c.args(["build", "--release", "--quiet", "-p", "rdcc-cli"])
        .current_dir(repo_root());
    run_capture(&mut c)?;
    let bin = repo_root().join("target/release/rdcc");
    say!("rdcc: built {}", bin.display());
    Ok(bin)
}
