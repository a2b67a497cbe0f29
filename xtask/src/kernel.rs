//! `cargo xtask kernel [--kernel PROFILE]`: unpack Debian's linux-source-6.12, configure it for
//! a profile (tinyconfig + the profile's fragments + olddefconfig), build the kernel image
//! (bzImage, or the `linux` executable of User-Mode Linux) and modules with the profile's
//! compiler, and cache the result outside the work tree, keyed by source version, toolchain and
//! fragments. A second run with the same key is a no-op.
//!
//! Profiles ([`PROFILES`]): `qemu` (clang, KUnit, the harness's test kernel), `distro` (GCC,
//! no KUnit, IPv6 and netfilter pieces as modules, HZ=250, voluntary preemption: as close to a
//! distribution kernel as a 2-core build allows) and `debug` (the qemu kernel with KASAN, UBSAN,
//! lockdep, PROVE_RCU, DEBUG_NET and slab debugging) on x86; `uml` (User-Mode Linux, `ARCH=um`,
//! clang, KUnit: a Linux executable booted with the host's / over hostfs, see vm.rs) and
//! `uml-debug` (uml with debug's checkers). Each profile has its own cache
//! directory, so building one never prunes another.

use crate::deps;
use crate::progress::{self, Estimate, Follower};
use crate::say;
use crate::util::{
    cache_dir, fmt_dur, fnv1a, kernel_cmd, repo_root, run_capture, tail_lines, Error, Result,
};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TARBALL: &str = "/usr/src/linux-source-6.12.tar.xz";
const FRAGMENT: &str = "qemu/kernel.config";

/// The architecture a profile's kernel is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arch {
    /// x86-64, booted in QEMU (`ARCH` left to the kernel's default, the host's).
    X86,
    /// User-Mode Linux (`ARCH=um`): the kernel is a host executable. `SUBARCH` stays unset: the
    /// kernel derives `x86` from the host itself, and `SUBARCH=x86_64` with `LLVM=1` stops in
    /// scripts/Makefile.clang ("add '--target=' option").
    Um,
}

impl Arch {
    /// The `ARCH=` argument of every make (and merge_config.sh's `ARCH`), if any.
    pub fn make_arch(self) -> Option<&'static str> {
        match self {
            Arch::X86 => None,
            Arch::Um => Some("um"),
        }
    }

    /// The make target that builds the bootable image.
    pub fn image_target(self) -> &'static str {
        match self {
            Arch::X86 => "bzImage",
            Arch::Um => "linux",
        }
    }

    /// Where that target leaves the image, relative to the source tree.
    pub fn image_path(self) -> &'static str {
        match self {
            Arch::X86 => "arch/x86/boot/bzImage",
            Arch::Um => "linux",
        }
    }

    /// `RUSTFLAGS_MODULE` for out-of-tree modules, if the architecture needs one. UML's
    /// arch/um/Makefile compiles Rust with `-Crelocation-model=pie` (C is `-fno-PIE
    /// -mcmodel=large`), so a Rust object carries `R_X86_64_GOTPCREL` relocations that the x86
    /// module loader UML uses rejects ("Unknown rela relocation: 9"); `static` alone then
    /// overflows 32-bit relocations at UML's module addresses (~0xec0xxxxx, above 2 GiB), hence
    /// `static` with the large code model, as the C objects are built.
    pub fn rustflags_module(self) -> Option<&'static str> {
        match self {
            Arch::X86 => None,
            Arch::Um => Some("-Crelocation-model=static -Ccode-model=large"),
        }
    }
}

/// A kernel configuration the harness can build, boot and test.
#[derive(Debug)]
pub struct Profile {
    /// `--kernel` name.
    pub name: &'static str,
    /// Config fragments merged onto tinyconfig in order (a later one overrides an earlier one).
    pub fragments: &'static [&'static str],
    /// Build with clang/LLVM (`LLVM=1`) rather than GCC.
    pub llvm: bool,
    /// The architecture (`ARCH=`).
    pub arch: Arch,
    /// Options the fragments request that this architecture cannot have: olddefconfig drops
    /// them, and the lost-option check accepts exactly these (by name, whatever the value) and
    /// still fails on any other loss. Each must be requested by a fragment (a test checks).
    pub cannot_have: &'static [&'static str],
    /// Cache directory under the cache root.
    pub cache: &'static str,
    /// The kernel has KUnit (the test module `rdcc_kunit.ko` is built and loaded).
    pub kunit: bool,
    /// Patches (repository paths) applied to the unpacked source with `git apply` before it is
    /// configured, in order; their text is part of the cache key. Each says at its top what it
    /// fixes and why the profile needs it.
    pub patches: &'static [&'static str],
    /// One line for `--help`.
    pub about: &'static str,
}

/// The options of qemu/kernel.config UML 6.12 cannot have: it is uniprocessor (no SMP, NR_CPUS
/// is 1), fixes HZ at 100 without a prompt, has no PCI and no eBPF JIT (BPF runs interpreted).
const UML_LACKS: &[&str] = &[
    "CONFIG_SMP",
    "CONFIG_NR_CPUS",
    "CONFIG_HZ_1000",
    "CONFIG_PCI",
    "CONFIG_BPF_JIT",
];

/// Every profile; the first is the default.
pub const PROFILES: &[Profile] = &[
    Profile {
        name: "qemu",
        fragments: &[FRAGMENT],
        llvm: true,
        arch: Arch::X86,
        cannot_have: &[],
        cache: "kernel",
        kunit: true,
        patches: &[],
        about: "clang, KUnit, tracing: the harness's test kernel (default)",
    },
    Profile {
        name: "distro",
        fragments: &[FRAGMENT, "qemu/distro.config"],
        llvm: false,
        arch: Arch::X86,
        cannot_have: &[],
        cache: "kernel-distro",
        kunit: false,
        patches: &[],
        about: "GCC, no KUnit, IPv6 and netfilter as modules, HZ=250, voluntary preemption",
    },
    Profile {
        name: "debug",
        fragments: &[FRAGMENT, "qemu/debug.config"],
        llvm: true,
        arch: Arch::X86,
        cannot_have: &[],
        cache: "kernel-debug",
        kunit: true,
        patches: &[],
        about: "clang, KUnit, KASAN, UBSAN, lockdep (PROVE_LOCKING/PROVE_RCU), DEBUG_NET, slab debugging",
    },
    Profile {
        name: "uml",
        // qemu/kernel.config first, so the UML kernel has what the test kernel has (modules,
        // networking, qdiscs, BPF, Rust, KUnit, tracing) and qemu/uml.config only what differs.
        fragments: &[FRAGMENT, "qemu/uml.config"],
        // clang like the qemu profile: the modules' Rust and C then share one toolchain.
        llvm: true,
        arch: Arch::Um,
        cannot_have: UML_LACKS,
        cache: "kernel-uml",
        kunit: true,
        patches: &[],
        about: "User-Mode Linux (ARCH=um), clang, KUnit, tracing, hostfs root, time travel",
    },
    Profile {
        name: "uml-debug",
        // The uml kernel with the debug profile's checkers (qemu/debug.config, unchanged) and
        // what UML needs beyond them (qemu/uml-debug.config).
        fragments: &[
            FRAGMENT,
            "qemu/uml.config",
            "qemu/debug.config",
            "qemu/uml-debug.config",
        ],
        // clang: Rust in 6.12 allows KASAN only with clang (as for debug).
        llvm: true,
        arch: Arch::Um,
        // As uml: the debug fragments ask for nothing else UML lacks.
        cannot_have: UML_LACKS,
        cache: "kernel-uml-debug",
        kunit: true,
        patches: &[
            "qemu/patches/uml-kasan-vfree-shadow.patch",
            "qemu/patches/uml-stacktrace-no-fp.patch",
        ],
        about: "uml with KASAN, UBSAN, lockdep (PROVE_LOCKING/PROVE_RCU), DEBUG_NET, slab debugging",
    },
];

/// The profile named `name`, or an error listing the valid names.
pub fn profile(name: &str) -> Result<&'static Profile> {
    PROFILES
        .iter()
        .find(|p| p.name == name)
        .ok_or_else(|| Error {
            msg: format!(
                "unknown kernel profile {name:?}; valid: {}",
                PROFILES
                    .iter()
                    .map(|p| p.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            detail: vec![],
        })
}

/// A built kernel in the cache.
#[derive(Debug, Clone)]
pub struct Kernel {
    /// The configured, built source tree (`make -C` target for out-of-tree modules).
    pub src: PathBuf,
    /// The bootable image: `arch/x86/boot/bzImage`, or UML's `linux` executable.
    pub image: PathBuf,
    /// `lib/modules/<release>` staged by `modules_install`.
    pub modroot: PathBuf,
    /// `uname -r` of the built kernel.
    pub release: String,
    /// The profile it was built for.
    pub profile: &'static Profile,
}

impl Kernel {
    /// The architecture's arguments for a make in this tree (`ARCH=um`, and for UML the
    /// `RUSTFLAGS_MODULE` out-of-tree Rust modules need; see [`Arch::rustflags_module`]).
    pub fn make_args(&self) -> Vec<String> {
        let a = self.profile.arch;
        let mut v = Vec::new();
        if let Some(arch) = a.make_arch() {
            v.push(format!("ARCH={arch}"));
        }
        if let Some(f) = a.rustflags_module() {
            v.push(format!("RUSTFLAGS_MODULE={f}"));
        }
        v
    }

    /// The tree was built with clang (`CONFIG_CC_IS_CLANG=y`): modules need `LLVM=1`.
    pub fn is_clang(&self) -> bool {
        fs::read_to_string(self.src.join(".config"))
            .map(|c| c.lines().any(|l| l == "CONFIG_CC_IS_CLANG=y"))
            .unwrap_or(false)
    }
}

/// Requested options of the fragment as (name, value) where value is `y`, `m`, `n` or a string.
pub fn parse_fragment(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix("# ") {
            if let Some(name) = rest.strip_suffix(" is not set") {
                if name.starts_with("CONFIG_") {
                    out.push((name.to_string(), "n".to_string()));
                }
            }
            continue;
        }
        if l.starts_with('#') || l.is_empty() {
            continue;
        }
        if let Some((k, v)) = l.split_once('=') {
            out.push((k.trim().to_string(), v.trim().to_string()));
        }
    }
    out
}

/// The options of `wanted` whose value in the final `.config` differs, except those named in
/// `cannot_have` (options the architecture lacks; see [`Profile::cannot_have`]).
pub fn lost_options(
    wanted: &[(String, String)],
    final_config: &str,
    cannot_have: &[&str],
) -> Vec<String> {
    let mut have = std::collections::HashMap::new();
    for line in final_config.lines() {
        if let Some((k, v)) = line.split_once('=') {
            have.insert(k.to_string(), v.to_string());
        }
    }
    wanted
        .iter()
        .filter(|(k, _)| !cannot_have.contains(&k.as_str()))
        .filter(|(k, v)| {
            let got = have.get(k).map(String::as_str).unwrap_or("n");
            got != v.as_str()
        })
        .map(|(k, v)| {
            let got = have.get(k).map(String::as_str).unwrap_or("not set");
            format!("{k}={v} (got {got})")
        })
        .collect()
}

fn key(p: &Profile) -> Result<(String, String)> {
    let tool = deps::toolchain_fingerprint();
    let mut parts: Vec<Vec<u8>> = Vec::new();
    for f in p.fragments.iter().chain(p.patches) {
        parts.push(fs::read(repo_root().join(f))?);
    }
    if p.name != PROFILES[0].name {
        // The default profile's key stays what it was before profiles existed.
        parts.push(format!("profile={}", p.name).into_bytes());
    }
    parts.push(tool.clone().into_bytes());
    let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    let h = fnv1a(&refs);
    let ver = deps::kernel_source_version();
    Ok((format!("linux-{ver}-{h:016x}"), tool))
}

/// The requested options of all of a profile's fragments, a later fragment overriding.
pub fn wanted_options(p: &Profile) -> Result<Vec<(String, String)>> {
    let mut out: Vec<(String, String)> = Vec::new();
    for f in p.fragments {
        for (k, v) in parse_fragment(&fs::read_to_string(repo_root().join(f))?) {
            out.retain(|(k2, _)| *k2 != k);
            out.push((k, v));
        }
    }
    Ok(out)
}

fn describe_kernel(dir: &Path, profile: &'static Profile) -> Result<Kernel> {
    let src = dir.join("src");
    let release = fs::read_to_string(src.join("include/config/kernel.release"))?
        .trim()
        .to_string();
    Ok(Kernel {
        image: src.join(profile.arch.image_path()),
        modroot: dir.join("modroot").join("lib/modules").join(&release),
        src,
        release,
        profile,
    })
}

/// Build (or reuse) the kernel of profile `p`. Builds of the same profile are serialized with
/// a lock file in its cache directory (a second harness waits rather than deleting the first
/// one's partial tree).
pub fn ensure_profile(p: &'static Profile) -> Result<Kernel> {
    deps::ensure()?;
    let (k, tool) = key(p)?;
    let root = cache_dir()?.join(p.cache);
    fs::create_dir_all(&root)?;
    let lock = fs::File::create(root.join(".lock"))?;
    let mut waited = false;
    while lock.try_lock().is_err() {
        if !waited {
            say!(
                "kernel: the {} kernel is being built by another harness or this run's other \
                 lane; waiting",
                p.name
            );
            waited = true;
        }
        std::thread::sleep(Duration::from_secs(2));
    }
    let res = build_locked(p, &root, &k, &tool);
    let _ = lock.unlock();
    res
}

fn build_locked(p: &'static Profile, root: &Path, k: &str, tool: &str) -> Result<Kernel> {
    let dir = root.join(k);
    if dir.join("complete").exists() {
        let kern = describe_kernel(&dir, p)?;
        say!(
            "kernel: cached {} ({}, profile {})",
            kern.release,
            dir.display(),
            p.name
        );
        return Ok(kern);
    }
    let t0 = Instant::now();
    // Start from scratch: a partial tree from an interrupted run is not trusted.
    if dir.exists() {
        fs::remove_dir_all(&dir)?;
    }
    fs::create_dir_all(&dir)?;
    fs::write(dir.join("key.txt"), format!("{k}\n{tool}\n"))?;
    let log_path = dir.join("build.log");
    say!(
        "kernel: building {k} (profile {}: {}); full log in {}",
        p.name,
        p.about,
        log_path.display()
    );

    say!("kernel: unpacking {TARBALL}");
    let t = Instant::now();
    run_capture(
        Command::new("tar")
            .arg("xf")
            .arg(TARBALL)
            .arg("-C")
            .arg(&dir),
    )?;
    fs::rename(dir.join("linux-source-6.12"), dir.join("src"))?;
    say!("kernel: unpacked in {}", fmt_dur(t.elapsed()));
    let src = dir.join("src");
    for patch in p.patches {
        say!("kernel: applying {patch}");
        run_capture(
            Command::new("git")
                .current_dir(&src)
                // Outside any repository, whatever encloses the cache: paths are src-relative.
                .env("GIT_CEILING_DIRECTORIES", &dir)
                .args(["apply", "--verbose"])
                .arg(repo_root().join(patch)),
        )?;
    }

    let make = |args: &[&str]| -> Command {
        let mut c = kernel_cmd("make");
        c.arg("-C").arg(&src);
        if p.llvm {
            c.arg("LLVM=1");
        }
        if let Some(arch) = p.arch.make_arch() {
            c.arg(format!("ARCH={arch}"));
        }
        c.args(args);
        c
    };
    let rust = run_capture(&mut make(&["rustavailable"])).map_err(|e| Error {
        msg: "kernel: `make rustavailable` says the Rust toolchain does not fit Linux 6.12".into(),
        detail: [vec![e.msg], e.detail].concat(),
    })?;
    let avail = rust
        .lines()
        .find(|l| l.contains("Rust is available"))
        .unwrap_or("Rust is available");
    say!("kernel: {}", avail.trim());
    run_capture(&mut make(&["tinyconfig"]))?;
    let mut merge = kernel_cmd("scripts/kconfig/merge_config.sh");
    merge.current_dir(&src).args(["-m", ".config"]);
    for f in p.fragments {
        merge.arg(repo_root().join(f));
    }
    if p.llvm {
        merge.env("LLVM", "1");
    }
    if let Some(arch) = p.arch.make_arch() {
        merge.env("ARCH", arch);
    }
    run_capture(&mut merge)?;
    run_capture(&mut make(&["olddefconfig"]))?;
    let wanted = wanted_options(p)?;
    let fin = fs::read_to_string(src.join(".config"))?;
    let lost = lost_options(&wanted, &fin, p.cannot_have);
    let lacks = lost_options(&wanted, &fin, &[]).len() - lost.len();
    if lacks > 0 {
        say!(
            "kernel: {} of the requested options are ones {} cannot have (accepted): {}",
            lacks,
            p.name,
            p.cannot_have.join(" ")
        );
    }
    if !lost.is_empty() {
        return Err(Error {
            msg: format!(
                "kernel: {} option(s) of {} did not survive olddefconfig (a missing \
                 dependency or a typo):",
                lost.len(),
                p.fragments.join(" + ")
            ),
            detail: lost,
        });
    }

    let jobs = std::thread::available_parallelism()
        .map(|n| n.get() + 1)
        .unwrap_or(3);
    // The step counts of earlier builds give the fraction and time left (progress.rs).
    let others: Vec<PathBuf> = PROFILES
        .iter()
        .filter(|o| o.cache != p.cache)
        .filter_map(|o| cache_dir().ok().map(|c| c.join(o.cache)))
        .collect();
    // Invocation 0 of an old build.log is this make, 1 is modules_install.
    let est = progress::estimate(root, &others, "build", 0);
    let steps = build_with_progress(
        make(&[&format!("-j{jobs}"), p.arch.image_target(), "modules"]),
        &log_path,
        "build",
        est,
    )?;
    progress::record(root, "build", steps);
    let modroot = dir.join("modroot");
    let mut inst = make(&["modules_install", "INSTALL_MOD_STRIP=1"]);
    inst.arg(format!("INSTALL_MOD_PATH={}", modroot.display()));
    let est = progress::estimate(root, &others, "modules_install", 1);
    let steps = build_with_progress(inst, &log_path, "modules_install", est)?;
    progress::record(root, "modules_install", steps);
    fs::write(
        dir.join("complete"),
        format!("built in {}\n", fmt_dur(t0.elapsed())),
    )?;
    prune_old(root, k);
    let kern = describe_kernel(&dir, p)?;
    say!(
        "kernel: {} built in {}",
        kern.release,
        fmt_dur(t0.elapsed())
    );
    Ok(kern)
}

/// Keep a profile's cache to its current kernel: older keys are removed (each tree is ~2 GB).
fn prune_old(root: &Path, keep: &str) {
    if let Ok(rd) = fs::read_dir(root) {
        for e in rd.flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n != keep && !n.starts_with('.') {
                let _ = fs::remove_dir_all(e.path());
            }
        }
    }
}

/// Run a long make, appending to `log`, printing its progress (steps done, and with an estimate
/// the fraction and time left; see progress.rs) every 30 s, or in place every 2 s on a terminal,
/// and the log's last lines on failure. Returns the number of steps it ran.
pub fn build_with_progress(
    mut cmd: Command,
    log: &Path,
    what: &str,
    est: Option<Estimate>,
) -> Result<u64> {
    use std::io::{IsTerminal, Write};
    let file = fs::OpenOptions::new().create(true).append(true).open(log)?;
    let start_len = file.metadata().map(|m| m.len()).unwrap_or(0);
    let t0 = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(file.try_clone()?)
        .stderr(file)
        .spawn()
        .map_err(|e| Error {
            msg: format!("cannot start make: {e}"),
            detail: vec![],
        })?;
    // In place on a terminal, unless another lane of the run shares it (crate::util::set_lane).
    let tty = std::io::stderr().is_terminal() && crate::util::lane().is_none();
    let every = Duration::from_secs(if tty { 2 } else { 30 });
    if let Some(e) = &est {
        say!(
            "kernel: {what}: expecting about {} steps (from {})",
            e.steps,
            e.from
        );
    }
    let mut follow = Follower::at(start_len);
    let mut last_report = Instant::now();
    let mut drawn = false;
    let status = loop {
        if let Some(st) = child.try_wait()? {
            break st;
        }
        std::thread::sleep(Duration::from_millis(500));
        if last_report.elapsed() >= every {
            last_report = Instant::now();
            follow.poll(log);
            let l = progress::line(what, follow.steps, est.as_ref(), t0.elapsed(), &follow.last);
            if tty {
                // One line, redrawn in place (cut to the terminal's usual width).
                let l: String = l.chars().take(150).collect();
                eprint!("\r\x1b[K[xtask] kernel: {l}");
                let _ = std::io::stderr().flush();
                drawn = true;
            } else {
                say!("kernel: {l}");
            }
        }
    };
    if drawn {
        eprintln!();
    }
    follow.poll(log);
    if !status.success() {
        let text = fs::read_to_string(log).unwrap_or_default();
        return Err(Error {
            msg: format!(
                "kernel: {what} failed ({status}); last lines of {}:",
                log.display()
            ),
            detail: tail_lines(&text, 40),
        });
    }
    say!(
        "kernel: {what} done in {} ({} steps)",
        fmt_dur(t0.elapsed()),
        follow.steps
    );
    Ok(follow.steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fragment_parsing_and_loss() {
        let frag = "# comment\nCONFIG_A=y\nCONFIG_B=m\n# CONFIG_C is not set\nCONFIG_D=17\n\n";
        let want = parse_fragment(frag);
        assert_eq!(want.len(), 4);
        let fin = "CONFIG_A=y\nCONFIG_B=y\nCONFIG_D=17\n# CONFIG_C is not set\n";
        assert_eq!(
            lost_options(&want, fin, &[]),
            vec!["CONFIG_B=m (got y)".to_string()]
        );
        // An option the architecture cannot have is accepted by name, whatever its value; the
        // others are still reported.
        assert_eq!(
            lost_options(&want, fin, &["CONFIG_B"]),
            Vec::<String>::new()
        );
        assert_eq!(
            lost_options(&want, fin, &["CONFIG_A"]),
            vec!["CONFIG_B=m (got y)".to_string()]
        );
        let fin2 = "CONFIG_B=m\nCONFIG_C=y\nCONFIG_D=17\n";
        assert_eq!(
            lost_options(&want, fin2, &[]),
            vec![
                "CONFIG_A=y (got not set)".to_string(),
                "CONFIG_C=n (got y)".to_string()
            ]
        );
    }

    #[test]
    fn checked_in_fragment_parses() {
        let text = fs::read_to_string(repo_root().join(FRAGMENT)).unwrap();
        let opts = parse_fragment(&text);
        assert!(opts.iter().any(|(k, v)| k == "CONFIG_RUST" && v == "y"));
        assert!(opts.iter().all(|(k, _)| k.starts_with("CONFIG_")));
    }

    #[test]
    fn profiles_compose_their_fragments() {
        let get = |p: &Profile, k: &str| {
            wanted_options(p)
                .unwrap()
                .into_iter()
                .find(|(k2, _)| k2 == k)
                .map(|(_, v)| v)
        };
        let qemu = profile("qemu").unwrap();
        let distro = profile("distro").unwrap();
        assert_eq!(get(qemu, "CONFIG_KUNIT").as_deref(), Some("y"));
        assert_eq!(get(distro, "CONFIG_KUNIT").as_deref(), Some("n"));
        assert_eq!(get(distro, "CONFIG_IPV6").as_deref(), Some("m"));
        assert_eq!(get(distro, "CONFIG_HZ_250").as_deref(), Some("y"));
        assert_eq!(get(distro, "CONFIG_RUST").as_deref(), Some("y"));
        assert!(qemu.llvm && !distro.llvm);
        let debug = profile("debug").unwrap();
        for k in [
            "CONFIG_KASAN",
            "CONFIG_UBSAN",
            "CONFIG_PROVE_LOCKING",
            "CONFIG_PROVE_RCU",
            "CONFIG_DEBUG_NET",
            "CONFIG_SLUB_DEBUG",
            "CONFIG_KUNIT",
            "CONFIG_RUST",
        ] {
            assert_eq!(get(debug, k).as_deref(), Some("y"), "{k}");
        }
        assert_eq!(get(debug, "CONFIG_SLUB_TINY").as_deref(), Some("n"));
        assert!(debug.llvm, "Rust allows KASAN only with clang");
        let uml = profile("uml").unwrap();
        assert_eq!(get(uml, "CONFIG_KUNIT").as_deref(), Some("y"));
        assert_eq!(get(uml, "CONFIG_HOSTFS").as_deref(), Some("y"));
        assert_eq!(
            get(uml, "CONFIG_UML_TIME_TRAVEL_SUPPORT").as_deref(),
            Some("y")
        );
        assert_eq!(
            get(uml, "CONFIG_ENABLE_DEFAULT_TRACERS").as_deref(),
            Some("y")
        );
        // uml.config overrides qemu/kernel.config: UML panics at boot with the 8250 built in.
        assert_eq!(get(uml, "CONFIG_SERIAL_8250").as_deref(), Some("n"));
        assert_eq!(get(uml, "CONFIG_SERIAL_8250_CONSOLE").as_deref(), Some("n"));
        assert!(uml.llvm && uml.kunit);
        let uml_debug = profile("uml-debug").unwrap();
        for k in [
            "CONFIG_KASAN",
            "CONFIG_UBSAN",
            "CONFIG_PROVE_LOCKING",
            "CONFIG_PROVE_RCU",
            "CONFIG_DEBUG_NET",
            "CONFIG_HOSTFS",
            "CONFIG_KUNIT",
        ] {
            assert_eq!(get(uml_debug, k).as_deref(), Some("y"), "{k}");
        }
        assert_eq!(get(uml_debug, "CONFIG_SERIAL_8250").as_deref(), Some("n"));
        for k in [
            "CONFIG_STATIC_LINK",
            "CONFIG_UBSAN_ALIGNMENT",
            "CONFIG_SLUB_DEBUG_ON",
        ] {
            assert_eq!(get(uml_debug, k).as_deref(), Some("n"), "{k}");
        }
        assert_eq!(uml_debug.cannot_have, uml.cannot_have);
        assert!(profile("nosuch").is_err());
        let names: std::collections::HashSet<_> = PROFILES.iter().map(|p| p.cache).collect();
        assert_eq!(
            names.len(),
            PROFILES.len(),
            "each profile has its own cache"
        );
    }

    /// (profile, ARCH=, image target, image path, RUSTFLAGS_MODULE).
    #[test]
    fn profile_architectures() {
        let uml_flags = "-Crelocation-model=static -Ccode-model=large";
        type Case = (
            &'static str,
            Option<&'static str>,
            &'static str,
            &'static str,
            Option<&'static str>,
        );
        let cases: &[Case] = &[
            ("qemu", None, "bzImage", "arch/x86/boot/bzImage", None),
            ("distro", None, "bzImage", "arch/x86/boot/bzImage", None),
            ("debug", None, "bzImage", "arch/x86/boot/bzImage", None),
            ("uml", Some("um"), "linux", "linux", Some(uml_flags)),
            ("uml-debug", Some("um"), "linux", "linux", Some(uml_flags)),
        ];
        assert_eq!(cases.len(), PROFILES.len(), "every profile is in the table");
        for &(name, arch, target, path, flags) in cases {
            let a = profile(name).unwrap().arch;
            assert_eq!(a.make_arch(), arch, "{name}");
            assert_eq!(a.image_target(), target, "{name}");
            assert_eq!(a.image_path(), path, "{name}");
            assert_eq!(a.rustflags_module(), flags, "{name}");
        }
    }

    /// Every option a profile accepts losing is one its fragments request (a stale entry would
    /// hide nothing, but says something untrue), and the x86 profiles accept no loss.
    #[test]
    fn patches_exist_and_say_why() {
        for p in PROFILES {
            for f in p.patches {
                let text = fs::read_to_string(repo_root().join(f)).unwrap();
                let (head, body) = text.split_once("\n--- a/").expect(f);
                assert!(head.trim().len() > 80, "{f}: a description first");
                assert!(body.contains("\n+++ b/") && body.contains("\n@@ "), "{f}");
            }
        }
        let ud = profile("uml-debug").unwrap();
        assert_eq!(
            ud.patches,
            [
                "qemu/patches/uml-kasan-vfree-shadow.patch",
                "qemu/patches/uml-stacktrace-no-fp.patch"
            ]
        );
        assert!(profile("uml").unwrap().patches.is_empty());
    }

    #[test]
    fn cannot_have_names_requested_options() {
        for p in PROFILES {
            let wanted = wanted_options(p).unwrap();
            for k in p.cannot_have {
                assert!(
                    wanted.iter().any(|(w, _)| w == k),
                    "{}: {k} is not requested",
                    p.name
                );
            }
            assert_eq!(p.cannot_have.is_empty(), p.arch == Arch::X86, "{}", p.name);
        }
    }

    #[test]
    fn make_steps_are_counted_and_failures_show_the_log() {
        let log = std::env::temp_dir().join(format!("rdcc-bwp-{}.log", std::process::id()));
        let _ = fs::remove_file(&log);
        let sh = |script: &str| {
            let mut c = Command::new("sh");
            c.arg("-c").arg(script);
            c
        };
        let ok =
            sh("echo 'make: Entering directory x'; printf '  CC      a.o\\n  LD      b\\nnote\\n'");
        assert_eq!(build_with_progress(ok, &log, "t", None).unwrap(), 2);
        // A second invocation appends; only its own steps count.
        let ok2 = sh("printf '  INSTALL m.ko\\n'");
        assert_eq!(build_with_progress(ok2, &log, "t", None).unwrap(), 1);
        let bad = sh("echo '  CC      c.o'; echo 'c.c:1: error: boom'; exit 2");
        let e = build_with_progress(bad, &log, "t", None).unwrap_err();
        assert!(e.msg.contains("t failed"), "{}", e.msg);
        assert!(
            e.detail.iter().any(|l| l.contains("error: boom")),
            "{:?}",
            e.detail
        );
        let _ = fs::remove_file(&log);
    }
}
