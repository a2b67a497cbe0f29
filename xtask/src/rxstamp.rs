//! Build the receiver command of the remote-delay channel (`rxstamp/`, with its BPF object
//! compiled by its build script) for the VM's initramfs.

use crate::say;
use crate::util::{repo_root, run_capture, Error, Result};
use std::path::PathBuf;
use std::process::Command;

/// `cargo build --release -p rxstamp`; returns the binary. Fails if the BPF object could not be
/// compiled (the build script then embeds an empty object and warns).
pub fn build() -> Result<PathBuf> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut c = Command::new(cargo);
    c.args(["build", "--release", "--quiet", "-p", "rxstamp"])
        .current_dir(repo_root());
    run_capture(&mut c)?;
    let bin = repo_root().join("target/release/rxstamp");
    // `selfcheck` fails when the build script could not compile the BPF object.
    run_capture(Command::new(&bin).arg("selfcheck")).map_err(|e| Error {
        msg: "rxstamp: built without its BPF object (clang or libbpf-dev missing?)".into(),
        detail: [vec![e.msg], e.detail].concat(),
    })?;
    say!("rxstamp: built {}", bin.display());
    Ok(bin)
}
