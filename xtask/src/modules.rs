//! `cargo xtask modules`: build the out-of-tree kernel modules under `modules/` with the
//! top-level Kbuild (`make -C $KDIR M=<dir> [LLVM=1] modules`), exactly as a user would against
//! their own kernel: `LLVM=1` only when the tree's config says `CONFIG_CC_IS_CLANG`; for a UML
//! tree also `ARCH=um` and the `RUSTFLAGS_MODULE` its module loader needs
//! ([`crate::kernel::Kernel::make_args`]).
//!
//! The sources (`Kbuild`, `modules/`, `core/src/`) are mirrored into
//! `target/rdcc/kbuild-<profile>/` and built there, so kernels of different profiles (clang and
//! GCC) never share object files and the work tree stays clean. Files are copied only when
//! their content changed, so make's incremental build still works.

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

/// Copy `src` to `dst` recursively, writing only files whose content differs; build products
/// (`*.o`, `*.ko`, dot files, …) are skipped. Returns the number of files written.
fn mirror(src: &Path, dst: &Path) -> Result<usize> {
    std::fs::create_dir_all(dst)?;
    let mut n = 0;
    for e in std::fs::read_dir(src)?.flatten() {
        let name = e.file_name();
        let name_s = name.to_string_lossy();
        if name_s.starts_with('.') {
            continue;
        }
        let (from, to) = (e.path(), dst.join(&name));
        if from.is_dir() {
            n += mirror(&from, &to)?;
            continue;
        }
        let keep = [".rs", ".c", ".h"].iter().any(|x| name_s.ends_with(x))
            || name_s == "Kbuild"
            || name_s == "Makefile";
        if !keep {
            continue;
        }
        let new = std::fs::read(&from)?;
        if std::fs::read(&to).ok().as_deref() != Some(new.as_slice()) {
            std::fs::write(&to, new)?;
            n += 1;
        }
    }
    Ok(n)
}

/// The staging copy of the module sources for kernel `k`.
pub fn stage(k: &Kernel) -> Result<PathBuf> {
    stage_from(&repo_root(), &format!("kbuild-{}", k.profile.name))
}

/// Mirror the module sources of the tree at `root` into `target/rdcc/<name>`.
fn stage_from(root: &Path, name: &str) -> Result<PathBuf> {
    let dir = out_dir()?.join(name);
    let mut n = mirror(&root.join("modules"), &dir.join("modules"))?;
    n += mirror(&root.join("core/src"), &dir.join("core/src"))?;
    let kb = std::fs::read(root.join("Kbuild"))?;
    if std::fs::read(dir.join("Kbuild")).ok().as_deref() != Some(kb.as_slice()) {
        std::fs::write(dir.join("Kbuild"), kb)?;
        n += 1;
    }
    if n > 0 {
        say!(
            "modules: {n} changed source file(s) staged in {}",
            dir.display()
        );
    }
    Ok(dir)
}

/// Build every module; return the `.ko` files (product modules and, on a kernel with KUnit,
/// the test module `rdcc_kunit.ko`).
pub fn build(k: &Kernel) -> Result<Vec<PathBuf>> {
    build_with(k, false)
}

/// The benchmark module of `cargo xtask bench` (modules/bench/), built only on request.
pub const BENCH_KO: &str = "rdcc_bench.ko";

/// Build every module, and with `bench` also the benchmark module `rdcc_bench.ko`
/// (`RDCC_BENCH=1`); without it a `rdcc_bench.ko` left by an earlier bench build is not returned.
pub fn build_with(k: &Kernel, bench: bool) -> Result<Vec<PathBuf>> {
    build_tree(
        k,
        &repo_root(),
        &format!("kbuild-{}", k.profile.name),
        bench,
    )
}

/// Build the modules of the source tree at `root` (the work tree, or an export of another
/// commit for `cargo xtask bench --before`) in `target/rdcc/<stage_name>`.
pub fn build_tree(k: &Kernel, root: &Path, stage_name: &str, bench: bool) -> Result<Vec<PathBuf>> {
    if !declares_modules(&root.join("modules")) {
        say!("modules: modules/ declares no module yet; nothing to build");
        return Ok(vec![]);
    }
    let dir = stage_from(root, stage_name)?;
    let mdir = dir.join("modules");
    let mut c = kernel_cmd("make");
    c.arg("-C").arg(&k.src).arg(format!("M={}", dir.display()));
    if k.is_clang() {
        c.arg("LLVM=1");
    }
    c.args(k.make_args());
    if bench {
        c.arg("RDCC_BENCH=1");
    }
    c.arg("modules");
    let log = out_dir()?.join(format!(
        "modules-build-{}.log",
        stage_name.trim_start_matches("kbuild-")
    ));
    let _ = std::fs::remove_file(&log);
    build_with_progress(c, &log, "modules", None)?;
    let mut kos = Vec::new();
    find_ko(&mdir, &mut kos);
    kos.retain(|p| bench || p.file_name().is_none_or(|n| n != BENCH_KO));
    kos.sort();
    check_no_panics(k, &kos)?;
    check_no_test_code(k, &kos)?;
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
/// The C function `panic` itself is not one: on UML the generic `BUG()` of a C inline the glue
/// uses (rhashtable's, in the INT modules) calls it, as `BUG_ON` traps on x86.
pub fn panic_symbols(k: &Kernel, ko: &Path) -> Result<Vec<String>> {
    let nm = if k.is_clang() { "llvm-nm" } else { "nm" };
    let out = crate::util::run_capture(kernel_cmd(nm).arg("-u").arg(ko))?;
    Ok(out
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .filter(|s| *s != "panic")
        .filter(|s| s.contains("panic") || s.contains("_fail") && s.starts_with("_R"))
        .map(String::from)
        .collect())
}

/// The product modules, as DKMS and `modules_install` must install them (checked against
/// modules/Kbuild and dkms.conf by `dkms::tests`).
pub const PRODUCT_MODULES: [&str; 7] = [
    "tcp_swift",
    "tcp_swift_vaisf",
    "tcp_timely",
    "tcp_theta_powertcp",
    "tcp_powertcp",
    "tcp_hpcc",
    "sch_rdcc_int",
];

/// Is `ko` a product module (a congestion control `tcp_<name>.ko`, or the software INT switch
/// `sch_rdcc_int.ko`) rather than a test module?
pub fn is_product(ko: &Path) -> bool {
    ko.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with("tcp_") || n.starts_with("sch_rdcc_"))
}

/// Product modules carry no test code: no `.kunit_test_suites` section and no reference to a
/// KUnit symbol, so they load where `CONFIG_KUNIT=n` and add no TAINT_TEST.
fn check_no_test_code(k: &Kernel, kos: &[PathBuf]) -> Result<()> {
    let nm = if k.is_clang() { "llvm-nm" } else { "nm" };
    let mut bad = Vec::new();
    for ko in kos.iter().filter(|p| is_product(p)) {
        let sections = crate::util::run_capture(kernel_cmd("readelf").arg("-SW").arg(ko))?;
        if sections.contains("kunit") {
            bad.push(format!("{}: has a KUnit section", ko.display()));
        }
        let undef = crate::util::run_capture(kernel_cmd(nm).arg("-u").arg(ko))?;
        for s in undef.lines().filter(|l| l.contains("kunit")) {
            bad.push(format!("{}: references {}", ko.display(), s.trim()));
        }
    }
    if bad.is_empty() {
        say!("modules: no product module carries KUnit code");
        Ok(())
    } else {
        Err(crate::util::Error {
            msg: "modules: test code in a product module:".into(),
            detail: bad,
        })
    }
}

fn check_no_panics(k: &Kernel, kos: &[PathBuf]) -> Result<()> {
    let mut bad = Vec::new();
    for ko in kos {
        for s in panic_symbols(k, ko)? {
            bad.push(format!("{}: {s}", ko.display()));
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

/// `make -C $KDIR M=... modules_install` as a user runs it, into a private
/// `INSTALL_MOD_PATH`: one result per product module found under
/// `lib/modules/<release>/updates/` (kbuild's default for external modules).
pub fn install_check(k: &Kernel) -> Result<crate::ktap::Summary> {
    let dir = stage(k)?;
    let dest = out_dir()?.join(format!("modules-install-{}", k.profile.name));
    let _ = std::fs::remove_dir_all(&dest);
    let mut c = kernel_cmd("make");
    c.arg("-C").arg(&k.src).arg(format!("M={}", dir.display()));
    if k.is_clang() {
        c.arg("LLVM=1");
    }
    c.args(k.make_args());
    c.arg(format!("INSTALL_MOD_PATH={}", dest.display()))
        .arg("modules_install");
    let mut s = crate::ktap::Summary::default();
    let ok = crate::util::run_capture(&mut c).is_ok();
    s.record(
        &format!("modules_install ({} kernel {})", k.profile.name, k.release),
        ok,
    );
    // The wrong compiler for this tree (LLVM=1 on a GCC-built kernel, none on a clang-built
    // one) is refused by the top-level Kbuild with a message, before anything is compiled.
    let mut wrong = kernel_cmd("make");
    wrong
        .arg("-C")
        .arg(&k.src)
        .arg(format!("M={}", dir.display()));
    if !k.is_clang() {
        wrong.arg("LLVM=1");
    }
    wrong.args(k.make_args());
    wrong.arg("modules");
    let refused = match crate::util::run_capture(&mut wrong) {
        Ok(_) => false,
        Err(e) => [vec![e.msg], e.detail]
            .concat()
            .iter()
            .any(|l| l.contains("rdcc: the kernel in") && l.contains("was built with")),
    };
    s.record(
        &format!(
            "the wrong compiler for the {} tree is refused with a message",
            k.profile.name
        ),
        refused,
    );
    let upd = dest.join("lib/modules").join(&k.release).join("updates");
    let mut found = Vec::new();
    find_ko(&upd, &mut found);
    for m in PRODUCT_MODULES {
        let there = found.iter().any(|p| p.file_stem().is_some_and(|n| n == m));
        s.record(&format!("modules_install put {m}.ko under updates/"), there);
    }
    Ok(s)
}
