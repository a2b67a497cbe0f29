//! Build our userspace commands for the guests (the QEMU initramfs's /usr/bin, the UML stage's
//! bin directory): `rxstamp` (the receiver of the remote-delay channel, with its BPF object
//! compiled by its build script), `rdcc` (the inet_diag view of live rdcc sockets) and
//! `rdcc-flowgen` (the scenarios' traffic, `selftests/_scenario.sh`).

use crate::say;
use crate::util::{repo_root, run_capture, Error, Result};
use std::path::PathBuf;
use std::process::Command;

/// `cargo build --release -p PACKAGE`; returns `target/release/BIN`.
fn build(package: &str, bin: &str) -> Result<PathBuf> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut c = Command::new(cargo);
    c.args(["build", "--release", "--quiet", "-p", package])
        .current_dir(repo_root());
    run_capture(&mut c)?;
    let path = repo_root().join("target/release").join(bin);
    say!("{bin}: built {}", path.display());
    Ok(path)
}

/// Every command the guests run. Fails if rxstamp was built without its BPF object (its build
/// script then embeds an empty object and warns; `rxstamp selfcheck` fails).
pub fn ours() -> Result<Vec<PathBuf>> {
    let rxstamp = build("rxstamp", "rxstamp")?;
    run_capture(Command::new(&rxstamp).arg("selfcheck")).map_err(|e| Error {
        msg: "rxstamp: built without its BPF object (clang or libbpf-dev missing?)".into(),
        detail: [vec![e.msg], e.detail].concat(),
    })?;
    Ok(vec![
        rxstamp,
        build("rdcc-cli", "rdcc")?,
        build("rdcc-flowgen", "rdcc-flowgen")?,
    ])
}
