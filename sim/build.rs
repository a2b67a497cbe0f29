// SPDX-License-Identifier: GPL-2.0-only
//! Records the compiler that builds the simulator (`rustc --version`, as cargo runs it) for the
//! run record (`src/record.rs`, `RDCC_RUSTC_VERSION`). Cargo reruns this when the compiler
//! changes, since a new compiler invalidates every build script.

use std::process::Command;

fn main() {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let version = Command::new(rustc)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=RDCC_RUSTC_VERSION={version}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RUSTC");
}
