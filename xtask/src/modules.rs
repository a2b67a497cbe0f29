//! `cargo xtask modules`: build the out-of-tree kernel modules under `modules/` with the
//! top-level Kbuild (`make -C $KDIR M=$PWD LLVM=1 modules`), exactly as a user would against their
//! own kernel.

use crate::kernel::{build_with_progress, Kernel};
use crate::say;
use crate::util::{kernel_cmd, out_dir, repo_root, Result};
use std::path::{Path, PathBuf};

fn find_ko(dir: &Path, out: &mut Vec<PathBuf>) {
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                find_ko(&p, out);
            } else if p.extension().is_some_and(|x| x == "ko") {
                out.push(p);
            }
        }
    }
}

/// Does modules/ declare any module (an `obj-m` line in a Kbuild file)?
fn declares_modules(dir: &Path) -> bool {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return false;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            if declares_modules(&p) {
                return true;
            }
        } else if p.file_name().is_some_and(|n| n == "Kbuild") {
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            if text.lines().any(|l| l.trim_start().starts_with("obj-m")) {
                return true;
            }
        }
    }
    false
}

/// Build every module; return the `.ko` files.
pub fn build(k: &Kernel) -> Result<Vec<PathBuf>> {
    let root = repo_root();
    let mdir = root.join("modules");
    if !declares_modules(&mdir) {
        say!("modules: modules/ declares no module yet; nothing to build");
        return Ok(vec![]);
    }
    let mut c = kernel_cmd("make");
    c.arg("-C")
        .arg(&k.src)
        .arg(format!("M={}", root.display()))
        .args(["LLVM=1", "modules"]);
    let log = out_dir()?.join("modules-build.log");
    let _ = std::fs::remove_file(&log);
    build_with_progress(c, &log, "modules")?;
    let mut kos = Vec::new();
    find_ko(&mdir, &mut kos);
    kos.sort();
    check_no_panics(&kos)?;
    say!(
        "modules: built {}",
        kos.iter()
            .filter_map(|p| p.file_name())
            .map(|n| n.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    );
    Ok(kos)
}

/// Undefined symbols of a module that name a Rust panic entry point (`core::panicking::*`,
/// `panic_const_*` overflow checks, bounds-check failures). The modules must have none: every
/// arithmetic operation in the core and the glue is explicit, so no event can panic the kernel.
pub fn panic_symbols(ko: &Path) -> Result<Vec<String>> {
    let out = crate::util::run_capture(kernel_cmd("llvm-nm").arg("-u").arg(ko))?;
    Ok(out
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .filter(|s| s.contains("panic") || s.contains("_fail") && s.starts_with("_R"))
        .map(String::from)
        .collect())
}

fn check_no_panics(kos: &[PathBuf]) -> Result<()> {
    let mut bad = Vec::new();
    for k in kos {
        for s in panic_symbols(k)? {
            bad.push(format!("{}: {s}", k.display()));
        }
    }
    if bad.is_empty() {
        say!("modules: no module references a panic symbol");
        Ok(())
    } else {
        Err(crate::util::Error {
            msg: "modules: panic paths found (an overflow, bounds or unwrap check in Rust code):"
                .into(),
            detail: bad,
        })
    }
}
