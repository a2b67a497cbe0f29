//! `cargo xtask deps`: install what the harness needs, idempotently and quietly when all is there.
//!
//! Debian packages come from the archive; the kernel's Rust toolchain is Debian's `rustc-web`
//! (the rustup toolchain has no rust-src). The verified version is pinned; when the archive no
//! longer serves it, the served version is installed and `make rustavailable` decides.

use crate::say;
use crate::util::{err, is_root, kernel_cmd, run, run_capture, Error, Result};
use std::process::Command;
use std::sync::OnceLock;

/// rustc-web version verified with Linux 6.12 on this machine kind (see README, toolchain notes).
pub const RUSTC_WEB_PIN: &str = "1.85.0+dfsg3-1~deb12u3";
/// bindgen version verified with Linux 6.12 and libclang 14.
pub const BINDGEN_VERSION: &str = "0.69.5";

/// Packages without version pins.
const PACKAGES: &[&str] = &[
    "linux-source-6.12",
    "libclang-dev",
    "clang",
    "llvm",
    "lld",
    "bc",
    "bison",
    "flex",
    "libelf-dev",
    "libssl-dev",
    "cpio",
    "kmod",
    "qemu-system-x86",
    "iperf3",
    "iproute2",
    "busybox-static",
    "gzip",
    "xz-utils",
    "make",
    "fonts-dejavu-core",
    // The receiver program of Swift's remote-delay channel: <bpf/bpf_helpers.h> for
    // rxstamp/bpf/rqd.bpf.c, and bpftool for inspecting it (copied into the VM when present).
    "libbpf-dev",
    "bpftool",
    // `sim sweep --slurm`'s job array on a real single-node Slurm (sim/tests/sweep.rs,
    // real_slurm_array; sim/tests/slurm/cluster.sh starts the daemons with its own config):
    // Debian's slurm-wlm daemons and client, and munge for their authentication.
    "slurmctld",
    "slurmd",
    "slurm-client",
    "munge",
];

/// Packages of the Rust toolchain the kernel builds with, installed together at one version.
const RUST_PACKAGES: &[&str] = &[
    "rustc-web",
    "libstd-rust-web-dev",
    "rust-web-src",
    "cargo-web",
];

fn installed_version(pkg: &str) -> Option<String> {
    let out = Command::new("dpkg-query")
        .args(["-W", "-f=${Status}\t${Version}", pkg])
        .output()
        .ok()?;
    let s = String::from_utf8_lossy(&out.stdout);
    let (status, version) = s.split_once('\t')?;
    if status == "install ok installed" {
        Some(version.to_string())
    } else {
        None
    }
}

fn apt_available(pkg: &str, version: &str) -> bool {
    Command::new("apt-cache")
        .args(["show", &format!("{pkg}={version}")])
        .output()
        .map(|o| o.status.success() && !o.stdout.is_empty())
        .unwrap_or(false)
}

fn apt_get(args: &[String]) -> Result<()> {
    let mut c = Command::new("apt-get");
    c.env("DEBIAN_FRONTEND", "noninteractive")
        .args(["-y", "-qq", "-o", "Dpkg::Use-Pty=0"]);
    c.args(args);
    run_capture(&mut c).map(|_| ())
}

static UPDATED: OnceLock<()> = OnceLock::new();

fn apt_update() -> Result<()> {
    if UPDATED.get().is_some() {
        return Ok(());
    }
    say!("deps: apt-get update");
    apt_get(&["update".into()])?;
    let _ = UPDATED.set(());
    Ok(())
}

fn need_root(what: &[String]) -> Result<()> {
    if is_root() {
        return Ok(());
    }
    Err(Error {
        msg: "deps: missing packages and not running as root".into(),
        detail: vec![format!("run: sudo apt-get install -y {}", what.join(" "))],
    })
}

/// Install everything missing. Quiet when all is present.
pub fn ensure() -> Result<()> {
    static DONE: OnceLock<()> = OnceLock::new();
    if DONE.get().is_some() {
        return Ok(());
    }
    if Command::new("dpkg-query")
        .arg("--version")
        .output()
        .is_err()
        || Command::new("apt-get").arg("--version").output().is_err()
    {
        return Err(Error {
            msg: "deps: this host has no dpkg/apt-get: the harness installs its tools from \
                  Debian 12 packages"
                .into(),
            detail: vec![
                "run it on Debian 12 (bookworm), or install by hand: Linux 6.12 sources, \
                 rustc 1.85 with rust-src, bindgen-cli 0.69.5, clang/LLVM/lld, QEMU, iperf3, \
                 iproute2, busybox (static), libbpf headers; then see README.md"
                    .into(),
            ],
        });
    }
    let missing: Vec<String> = PACKAGES
        .iter()
        .filter(|p| installed_version(p).is_none())
        .map(|p| p.to_string())
        .collect();
    if !missing.is_empty() {
        need_root(&missing)?;
        apt_update()?;
        say!("deps: installing {}", missing.join(" "));
        apt_get(&[vec!["install".to_string()], missing.clone()].concat()).map_err(|e| Error {
            msg: format!("deps: cannot install {}", missing.join(" ")),
            detail: [vec![e.msg], e.detail].concat(),
        })?;
    }
    ensure_rust()?;
    ensure_bindgen()?;
    let _ = DONE.set(());
    Ok(())
}

fn ensure_rust() -> Result<()> {
    let have: Vec<Option<String>> = RUST_PACKAGES.iter().map(|p| installed_version(p)).collect();
    let pinned = have.iter().all(|v| v.as_deref() == Some(RUSTC_WEB_PIN));
    if pinned {
        return Ok(());
    }
    let all_present = have.iter().all(|v| v.is_some());
    let wanted: Vec<String> = RUST_PACKAGES.iter().map(|s| s.to_string()).collect();
    need_root(&wanted)?;
    apt_update()?;
    if RUST_PACKAGES
        .iter()
        .all(|p| apt_available(p, RUSTC_WEB_PIN))
    {
        let newer: Vec<String> = RUST_PACKAGES
            .iter()
            .zip(&have)
            .filter_map(|(p, v)| v.as_ref().map(|v| format!("{p} {v}")))
            .collect();
        say!("deps: installing Debian rustc-web {RUSTC_WEB_PIN} (verified with Linux 6.12)");
        if !newer.is_empty() {
            say!(
                "deps: this replaces {} with the pinned {RUSTC_WEB_PIN} (a downgrade if newer): \
                 Linux 6.12's Rust support was verified with that version only; \
                 `apt-get install rustc-web` restores the archive's version",
                newer.join(", ")
            );
        }
        let mut args = vec!["install".to_string(), "--allow-downgrades".to_string()];
        args.extend(RUST_PACKAGES.iter().map(|p| format!("{p}={RUSTC_WEB_PIN}")));
        return apt_get(&args);
    }
    if all_present {
        // The pin is gone from the archive but some version is installed: keep it.
        return Ok(());
    }
    say!(
        "deps: rustc-web {RUSTC_WEB_PIN} is no longer in the archive; installing the served \
         version (`make rustavailable` will say whether Linux 6.12 accepts it)"
    );
    apt_get(&[vec!["install".to_string()], wanted].concat())
}

/// Where the harness keeps bindgen-cli: its own cache, never the user's `~/.cargo/bin`.
pub fn tools_dir() -> std::path::PathBuf {
    crate::util::cache_dir()
        .unwrap_or_else(|_| std::path::PathBuf::from("/tmp/rdcc-cache"))
        .join("tools")
}

fn bindgen_path() -> String {
    tools_dir()
        .join("bin/bindgen")
        .to_string_lossy()
        .into_owned()
}

fn ensure_bindgen() -> Result<()> {
    let path = bindgen_path();
    let ok = Command::new(&path)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).contains(BINDGEN_VERSION))
        .unwrap_or(false);
    if ok {
        return Ok(());
    }
    say!(
        "deps: cargo install bindgen-cli {BINDGEN_VERSION} into {} (about 1.5 minutes)",
        tools_dir().display()
    );
    // Build with the rustup toolchain (the default cargo), not Debian's; install into the
    // harness's cache (--root), not ~/.cargo/bin.
    let mut c = Command::new("cargo");
    c.args([
        "install",
        "--quiet",
        "--locked",
        "bindgen-cli",
        "--version",
        BINDGEN_VERSION,
        "--root",
    ])
    .arg(tools_dir());
    run(&mut c).or_else(|e| err(format!("deps: cannot install bindgen-cli: {}", e.msg)))
}

/// Version strings that key the kernel cache.
pub fn toolchain_fingerprint() -> String {
    let rustc = run_capture(kernel_cmd("rustc").arg("--version")).unwrap_or_default();
    let clang = run_capture(kernel_cmd("clang").arg("--version")).unwrap_or_default();
    let bindgen = run_capture(Command::new(bindgen_path()).arg("--version")).unwrap_or_default();
    let src = installed_version("linux-source-6.12").unwrap_or_default();
    format!(
        "src={src}\nrustc={}\nclang={}\nbindgen={}",
        rustc.trim(),
        first(&clang),
        bindgen.trim()
    )
}

/// The Debian version of linux-source-6.12 (e.g. `6.12.57-1`).
pub fn kernel_source_version() -> String {
    installed_version("linux-source-6.12").unwrap_or_else(|| "unknown".into())
}

fn first(s: &str) -> String {
    s.lines().next().unwrap_or("").to_string()
}
