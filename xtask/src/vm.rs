//! The test VM: a hand-made initramfs (busybox + iproute2 + iperf3 + kernel modules + our
//! modules and selftests) booted headless in QEMU, with a job script, a timeout, the serial
//! console streamed and logged, and the guest's exit status returned.
//!
//! Why not virtme-ng: it shares the host's root file system over 9p/virtiofs, which needs
//! CONFIG_9P_FS/VIRTIO_FS/FUSE and virtio-pci in the guest (a longer build), drags the host's
//! systemd-less userspace into every test, and adds a Python dependency. A 25 MB initramfs of
//! exactly the tools the tests use boots in seconds under TCG and is fully reproducible.

use crate::kernel::{Arch, Kernel};
use crate::say;
use crate::util::{cache_dir, err, fmt_dur, out_dir, repo_root, run_capture, Error, Result};
use std::collections::BTreeSet;
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Marker printed by /init once user space runs.
pub const BOOTED: &str = "RDCC-BOOTED";
/// Marker printed by /init with the job's exit status.
pub const EXIT: &str = "RDCC-EXIT-STATUS=";

/// Userspace binaries copied with their shared libraries.
const BINARIES: &[&str] = &["ip", "tc", "ss", "iperf3"];
/// Copied when present (diagnostics; the tests do not depend on them).
const OPTIONAL_BINARIES: &[&str] = &["bpftool"];

/// The guest's /init. The job is /rdcc/job.sh; its exit status is printed as a marker and the
/// guest powers off with `reboot -f` (QEMU runs with -no-reboot, so it exits).
const INIT: &str = r#"#!/bin/sh
export PATH=/usr/bin:/usr/sbin:/bin:/sbin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /sys/kernel/debug /sys/fs/cgroup /run /var/run /tmp
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
hostname rdcc-vm
/usr/bin/ip link set lo up
# A 1 ms clocksource (jiffies: under TCG the TSC calibration against the PIT sometimes fails and
# this minimal kernel has no HPET/ACPI PM timer to fall back to) quantises every RTT and delay
# the tests measure. Ask the harness for another boot unless this is its last try.
cs=$(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)
echo "RDCC-CLOCKSOURCE=$cs"
case "$cs" in
*jiffies*)
  if ! grep -q rdcc_clock_last /proc/cmdline; then
    echo "RDCC-CLOCK-RETRY $cs"
    reboot -f
  fi ;;
esac
echo RDCC-BOOTED
cd /
sh /rdcc/job.sh
rc=$?
sync
echo "RDCC-EXIT-STATUS=$rc"
reboot -f
"#;

/// What to put in the initramfs besides the base system.
#[derive(Debug, Default, Clone)]
pub struct Contents {
    /// Out-of-tree modules to place in /lib/modules/rdcc.
    pub our_modules: Vec<PathBuf>,
    /// Our userspace binaries (rxstamp), placed in /usr/bin with their shared libraries.
    pub our_bins: Vec<PathBuf>,
    /// The job script (sh).
    pub job: String,
}

pub(crate) fn copy_file(src: &Path, dst: &Path) -> Result<()> {
    if let Some(p) = dst.parent() {
        fs::create_dir_all(p)?;
    }
    let _ = fs::remove_file(dst);
    fs::copy(src, dst).map_err(|e| Error {
        msg: format!("initramfs: cannot copy {}: {e}", src.display()),
        detail: vec![],
    })?;
    Ok(())
}

fn which(bin: &str) -> Result<PathBuf> {
    for dir in ["/usr/bin", "/usr/sbin", "/bin", "/sbin"] {
        let p = Path::new(dir).join(bin);
        if p.exists() {
            return Ok(fs::canonicalize(&p)?);
        }
    }
    err(format!(
        "initramfs: {bin} not found (run `cargo xtask deps`)"
    ))
}

/// Shared libraries of an ELF binary (and the dynamic loader), as absolute paths.
fn shared_libs(bin: &Path) -> Result<BTreeSet<PathBuf>> {
    let out = run_capture(Command::new("ldd").arg(bin))?;
    let mut libs = BTreeSet::new();
    for line in out.lines() {
        let l = line.trim();
        let path = if let Some((_, rhs)) = l.split_once("=>") {
            rhs.split_whitespace().next().unwrap_or("")
        } else {
            l.split_whitespace().next().unwrap_or("")
        };
        if path.starts_with('/') {
            libs.insert(PathBuf::from(path));
        }
    }
    Ok(libs)
}

/// Build the initramfs; returns its path.
pub fn build_initramfs(k: &Kernel, c: &Contents) -> Result<PathBuf> {
    let t0 = Instant::now();
    let out = out_dir()?;
    let root = out.join("initramfs");
    if root.exists() {
        fs::remove_dir_all(&root)?;
    }
    for d in [
        "bin",
        "sbin",
        "usr/bin",
        "usr/sbin",
        "lib",
        "lib64",
        "proc",
        "sys",
        "dev",
        "tmp",
        "etc",
        "root",
        "run",
        "rdcc",
        "selftests",
        "lib/modules/rdcc",
    ] {
        fs::create_dir_all(root.join(d))?;
    }
    // busybox and its applets (real binaries copied below win on PATH and by overwrite).
    let bb = Path::new("/bin/busybox");
    if !bb.exists() {
        return err(
            "initramfs: /bin/busybox missing (Debian busybox-static; run `cargo xtask deps`)",
        );
    }
    copy_file(bb, &root.join("bin/busybox"))?;
    let list = run_capture(Command::new(bb).arg("--list-full"))?;
    for applet in list.lines().map(str::trim).filter(|a| !a.is_empty()) {
        let dst = root.join(applet);
        if dst.exists() || applet == "bin/busybox" {
            continue;
        }
        if let Some(p) = dst.parent() {
            fs::create_dir_all(p)?;
        }
        symlink("/bin/busybox", &dst)?;
    }
    // Real userspace with shared libraries.
    let mut libs = BTreeSet::new();
    for b in BINARIES {
        let src = which(b)?;
        copy_file(&src, &root.join("usr/bin").join(b))?;
        libs.extend(shared_libs(&src)?);
    }
    for b in OPTIONAL_BINARIES {
        if let Ok(src) = which(b) {
            copy_file(&src, &root.join("usr/bin").join(b))?;
            libs.extend(shared_libs(&src)?);
        }
    }
    for src in &c.our_bins {
        let name = src.file_name().map(|n| n.to_owned()).unwrap_or_default();
        copy_file(src, &root.join("usr/bin").join(name))?;
        libs.extend(shared_libs(src)?);
    }
    for lib in &libs {
        let rel = lib.strip_prefix("/").unwrap_or(lib);
        let real = fs::canonicalize(lib)?;
        copy_file(&real, &root.join(rel))?;
    }
    // Kernel modules (dctcp, bbr, vegas) with modules.dep so busybox modprobe works.
    let modsrc = &k.modroot;
    if modsrc.exists() {
        copy_tree(modsrc, &root.join("lib/modules").join(&k.release))?;
    }
    for m in &c.our_modules {
        let name = m.file_name().map(|n| n.to_owned()).unwrap_or_default();
        copy_file(m, &root.join("lib/modules/rdcc").join(name))?;
    }
    // Selftests.
    let st = repo_root().join("selftests");
    if st.exists() {
        copy_tree(&st, &root.join("selftests"))?;
    }
    fs::write(root.join("etc/passwd"), "root:x:0:0:root:/root:/bin/sh\n")?;
    fs::write(root.join("etc/group"), "root:x:0:\n")?;
    fs::write(
        root.join("etc/hosts"),
        "127.0.0.1 localhost\n::1 localhost\n",
    )?;
    write_exec(&root.join("init"), INIT)?;
    write_exec(&root.join("rdcc/job.sh"), &c.job)?;

    let img = out.join("initramfs.cpio.gz");
    let script = format!(
        "cd '{}' && find . -print0 | LC_ALL=C sort -z | cpio --null -o -H newc --quiet | gzip -1 > '{}'",
        root.display(),
        img.display()
    );
    run_capture(Command::new("sh").arg("-c").arg(script))?;
    let size = fs::metadata(&img).map(|m| m.len()).unwrap_or(0);
    say!(
        "vm: initramfs {} MB in {}",
        size / 1_000_000,
        fmt_dur(t0.elapsed())
    );
    Ok(img)
}

pub(crate) fn write_exec(p: &Path, text: &str) -> Result<()> {
    fs::write(p, text)?;
    fs::set_permissions(p, fs::Permissions::from_mode(0o755))?;
    Ok(())
}

fn copy_tree(src: &Path, dst: &Path) -> Result<()> {
    fs::create_dir_all(dst)?;
    for e in fs::read_dir(src)? {
        let e = e?;
        let ty = e.file_type()?;
        let to = dst.join(e.file_name());
        if ty.is_dir() {
            copy_tree(&e.path(), &to)?;
        } else if ty.is_symlink() {
            let target = fs::read_link(e.path())?;
            let _ = fs::remove_file(&to);
            symlink(target, &to)?;
        } else {
            fs::copy(e.path(), &to)?;
        }
    }
    Ok(())
}

/// How a run ended.
#[derive(Debug)]
pub struct RunResult {
    /// The job's exit status, if the guest reported one.
    pub status: Option<i32>,
    /// Everything the serial console printed.
    pub console: String,
    /// Wall time from QEMU start to exit.
    pub elapsed: Duration,
    /// Time until /init printed its marker.
    pub boot_time: Option<Duration>,
    /// The run hit its timeout and QEMU was killed.
    pub timed_out: bool,
}

/// Options of one boot.
#[derive(Debug, Clone)]
pub struct Boot {
    pub kvm: bool,
    pub timeout: Duration,
    /// Stream the console to stderr as it arrives.
    pub stream: bool,
    /// Interactive: the console is the terminal (no capture, no timeout).
    pub interactive: bool,
    /// Extra kernel command line.
    pub append: String,
    /// Memory, MiB.
    pub mem_mib: u32,
    /// Instruction counting (`cargo xtask bench`): TCG with `-icount shift=0`, so the guest's
    /// virtual clock advances exactly 1 ns per executed instruction. Ignores `kvm`.
    pub icount: bool,
    /// The data channel: a second serial port (the guest's /dev/ttyS1) written to this host
    /// file. The guest frames and checksums what it sends (`frames::read_frames`); the console
    /// stays free of bulk data. A UML guest writes the file itself, through hostfs (its / is
    /// the host's): its path is in the guest's $RDCC_DATA_OUT (`uml_cmd`).
    pub data_out: Option<PathBuf>,
    /// The guest is a tree of host processes (UML: the kernel runs each guest process as a host
    /// process of its own). It is started in a process group of its own (unless interactive:
    /// a background group could not read the terminal) and the whole group is killed when the
    /// run ends; its stdin is a pipe held open until then (its main console reads fd 0; a
    /// pipe that never delivers EOF behaves as an idle terminal would).
    pub host_process: bool,
    /// A UML guest's instance directory (`uml_dir`, holding the mconsole socket): a boot that
    /// times out is inspected through it before it is killed (`uml::inspect`).
    pub mconsole_dir: Option<PathBuf>,
    /// A UML guest's stage under `target/rdcc/` (init, job, module and tool copies, instance
    /// directory) and the name of its boot lock: `uml` (`.boot-uml.lock`), or another name for a
    /// guest that runs beside it from the same work tree (`cargo xtask test`'s datacenter
    /// scenarios beside its selftests: main.rs `boot_job`). Ignored by QEMU, whose initramfs
    /// is one path per work tree.
    pub uml_stage: &'static str,
}

impl Default for Boot {
    fn default() -> Self {
        Boot {
            kvm: false,
            timeout: Duration::from_secs(600),
            stream: true,
            interactive: false,
            append: String::new(),
            mem_mib: 1024,
            icount: false,
            data_out: None,
            host_process: false,
            mconsole_dir: None,
            uml_stage: "uml",
        }
    }
}

fn qemu_cmd(k: &Kernel, initrd: &Path, b: &Boot) -> Command {
    let mut c = Command::new("qemu-system-x86_64");
    c.args([
        "-nographic",
        "-no-reboot",
        "-smp",
        "2",
        "-m",
        &b.mem_mib.to_string(),
    ]);
    if b.icount {
        c.args(["-accel", "tcg", "-cpu", "max", "-icount", "shift=0"]);
    } else if b.kvm {
        c.args(["-enable-kvm", "-cpu", "host"]);
    } else {
        c.args(["-accel", "tcg", "-cpu", "max"]);
    }
    if let Some(p) = &b.data_out {
        // serial0 stays the console (what -nographic makes it by default, given explicitly
        // because a second -serial turns the default off); serial1 is the guest's ttyS1.
        c.args(["-serial", "mon:stdio", "-serial"])
            .arg(format!("file:{}", p.display()));
    }
    c.args(["-nic", "none", "-kernel"])
        .arg(&k.image)
        .arg("-initrd")
        .arg(initrd);
    // loglevel=4: errors and worse reach the console live; everything is in dmesg, which the
    // jobs dump at the end. panic=-1 reboots (= exits QEMU) at once on a panic.
    // tsc=reliable: under TCG the clocksource watchdog sometimes declares the TSC unstable and
    // the guest falls back to a 1 ms-resolution clocksource (jiffies), which quantises every ns
    // delay measurement (seen in the remote-delay tests: all delays 0 or multiples of 1 ms).
    // The other way to end up on jiffies, a failed TSC calibration at boot (the guest times the
    // TSC against the emulated PIT, and a busy host stretches the PIT's interval), is avoided
    // by telling the guest the TSC's rate (tsc_early_khz): under TCG without -icount the guest's
    // TSC is the host's (QEMU's cpu_get_ticks() reads the host TSC), so its rate is measured
    // here. Should that not be possible, `boot` retries a guest that found no usable TSC (its
    // /init reports it). Under -icount the TSC counts virtual ns: 1 GHz.
    // no_timer_check: at boot the kernel checks that the IO-APIC delivers the PIT's timer
    // interrupt within a few jiffies, and panics if not ("IO-APIC + timer doesn't work!"); a
    // TCG guest on a busy host missed that window (2026-11-29, a scenario boot beside a kernel
    // build: panic 1.1 s into the boot). The emulated timer works, only late; virtual machine
    // images boot with this flag for that reason.
    let tsc = if b.icount {
        Some(1_000_000)
    } else if b.kvm {
        None
    } else {
        host_tsc_khz()
    };
    let tsc = tsc
        .map(|k| format!("tsc_early_khz={k} "))
        .unwrap_or_default();
    let append = format!(
        "console=ttyS0 panic=-1 oops=panic loglevel=4 tsc=reliable no_timer_check {tsc}{}",
        b.append
    );
    c.arg("-append").arg(append.trim());
    c
}

/// The host's TSC rate in kHz, when the host has an invariant TSC (`constant_tsc` and
/// `nonstop_tsc`): the median of five 20 ms measurements of TSC ticks against the monotonic
/// clock. Each interval is timed by the clock itself, so a descheduled thread only lengthens it;
/// the error is the gap between one clock read and one TSC read (microseconds at most, against
/// 20 ms), and the median drops an interval where that gap was large. Measured once per process.
fn host_tsc_khz() -> Option<u64> {
    static KHZ: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    *KHZ.get_or_init(|| {
        let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
        let flags = info.lines().find(|l| l.starts_with("flags"))?;
        let has = |f: &str| flags.split_whitespace().any(|w| w == f);
        if !has("constant_tsc") || !has("nonstop_tsc") {
            return None;
        }
        let mut v: Vec<u64> = (0..5)
            .filter_map(|_| {
                let (t0, c0) = (Instant::now(), rdtsc()?);
                std::thread::sleep(Duration::from_millis(20));
                let (c1, t1) = (rdtsc()?, Instant::now());
                let ns = u64::try_from(t1.duration_since(t0).as_nanos()).ok()?;
                c1.checked_sub(c0)?.checked_mul(1_000_000)?.checked_div(ns)
            })
            .collect();
        v.sort_unstable();
        v.get(v.len() / 2).copied().filter(|&k| k > 0)
    })
}

#[cfg(target_arch = "x86_64")]
fn rdtsc() -> Option<u64> {
    // SAFETY: RDTSC exists on every x86-64 CPU, reads a counter and touches no memory; the
    // only effect is the returned value.
    #[allow(unused_unsafe)]
    Some(unsafe { std::arch::x86_64::_rdtsc() })
}

#[cfg(not(target_arch = "x86_64"))]
fn rdtsc() -> Option<u64> {
    None
}

/// Marker of a guest that found only a 1 ms clocksource and asks to be booted again.
pub const CLOCK_RETRY: &str = "RDCC-CLOCK-RETRY";
/// Boots tried before a guest with a 1 ms clocksource is accepted.
const CLOCK_TRIES: u32 = 4;

/// Boot the VM and run its job. A guest whose only clocksource is jiffies (TSC calibration
/// failed under emulation) powers off before the job and is booted again, up to `CLOCK_TRIES`
/// times; the last try runs the job whatever the clock.
pub fn boot(k: &Kernel, initrd: &Path, b: &Boot, log: &Path) -> Result<RunResult> {
    let mut tries = 0u32;
    loop {
        tries += 1;
        let mut bt = b.clone();
        if tries == CLOCK_TRIES || b.interactive {
            bt.append = format!("{} rdcc_clock_last", b.append);
        }
        let r = boot_once(k, initrd, &bt, log)?;
        if tries < CLOCK_TRIES && !r.timed_out && r.console.contains(CLOCK_RETRY) {
            say!(
                "vm: the guest fell back to a 1 ms clocksource (TSC calibration failed); booting again ({}/{})",
                tries + 1,
                CLOCK_TRIES
            );
            continue;
        }
        return Ok(r);
    }
}

fn boot_once(k: &Kernel, initrd: &Path, b: &Boot, log: &Path) -> Result<RunResult> {
    if k.profile.arch != Arch::X86 {
        return err(format!(
            "vm: the {} kernel is not a QEMU image (boot it with `boot_uml`)",
            k.profile.name
        ));
    }
    run_guest(qemu_cmd(k, initrd, b), "qemu-system-x86_64", "qemu", b, log)
}

/// Console silence after which a UML guest's clock is read (and between readings): longer
/// than anything our jobs compute without printing (a pass's trace compaction under KASAN takes
/// well under a minute), so two equal readings are a guest that will not go on.
const STALL_PROBE: Duration = Duration::from_secs(300);

/// `uml::inspect` into the log and the console text, then what the guest printed in reply.
fn inspect_uml(
    dir: &Path,
    rx: &mpsc::Receiver<String>,
    logf: &mut fs::File,
    console: &mut String,
    t0: Instant,
) {
    let lines = crate::uml::inspect(dir);
    let mut add = |l: &str| {
        let _ = writeln!(logf, "[{:7.1}s] {l}", t0.elapsed().as_secs_f64());
        console.push_str(l);
        console.push('\n');
    };
    for l in &lines {
        add(l);
    }
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(3)) {
        add(&line);
    }
}

/// Run a guest (QEMU, or UML's `linux`): stream and log its console, note the boot and
/// exit-status markers, and kill it at the timeout. `what` names the program in errors, `tag`
/// prefixes the lines of its stderr.
pub(crate) fn run_guest(
    mut cmd: Command,
    what: &str,
    tag: &str,
    b: &Boot,
    log: &Path,
) -> Result<RunResult> {
    let t0 = Instant::now();
    if b.interactive {
        let st = cmd.status()?;
        return Ok(RunResult {
            status: st.code(),
            console: String::new(),
            elapsed: t0.elapsed(),
            boot_time: None,
            timed_out: false,
        });
    }
    let mut child = cmd
        .stdin(if b.host_process {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| Error {
            msg: format!("vm: cannot start {what}: {e}"),
            detail: vec![],
        })?;
    let (tx, rx) = mpsc::channel::<String>();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let tx2 = tx.clone();
    let h1 = std::thread::spawn(move || {
        if let Some(out) = stdout {
            for line in BufReader::new(out).split(b'\n').map_while(|l| l.ok()) {
                let s = String::from_utf8_lossy(&line).replace('\r', "");
                if tx.send(s).is_err() {
                    break;
                }
            }
        }
    });
    let tag = tag.to_string();
    let h2 = std::thread::spawn(move || {
        if let Some(err) = stderr {
            for line in BufReader::new(err).lines().map_while(|l| l.ok()) {
                if tx2.send(format!("{tag}: {line}")).is_err() {
                    break;
                }
            }
        }
    });
    let mut logf = fs::File::create(log)?;
    let mut console = String::new();
    let mut status = None;
    let mut boot_time = None;
    let mut timed_out = false;
    // The stall watchdog of a UML guest (`mconsole_dir`): after STALL_PROBE of console silence
    // its virtual clock is read, and again each STALL_PROBE after; the same reading twice is a
    // hung guest (uml::clock_s), inspected and killed then, not at the timeout.
    let mut last_line = Instant::now();
    let mut probe: Option<(Instant, Option<f64>)> = None;
    loop {
        if let Some(dir) = &b.mconsole_dir {
            let due = probe.is_none_or(|(t, _)| t.elapsed() >= STALL_PROBE);
            if last_line.elapsed() >= STALL_PROBE && due {
                let now = crate::uml::clock_s(dir);
                if now.is_some() && probe.is_some_and(|(_, before)| before == now) {
                    let _ = writeln!(
                        logf,
                        "[{:7.1}s] RDCC-HUNG: no console line for {} and the guest's clock stood at {:.6} s since {} ago",
                        t0.elapsed().as_secs_f64(),
                        fmt_dur(last_line.elapsed()),
                        now.unwrap_or_default(),
                        fmt_dur(STALL_PROBE)
                    );
                    timed_out = true;
                    inspect_uml(dir, &rx, &mut logf, &mut console, t0);
                    break;
                }
                probe = Some((Instant::now(), now));
            }
        }
        let left = b.timeout.saturating_sub(t0.elapsed());
        if left.is_zero() {
            timed_out = true;
            // A hung UML guest says what it was doing (its clock, its tasks) before it dies:
            // the timeout's record in the log, not just its time.
            if let Some(dir) = &b.mconsole_dir {
                inspect_uml(dir, &rx, &mut logf, &mut console, t0);
            }
            break;
        }
        match rx.recv_timeout(left.min(Duration::from_millis(500))) {
            Ok(line) => {
                // (the watchdog's own reading echoes "sysrq: ..." lines: not the guest's)
                if !line.contains("] sysrq: ") {
                    last_line = Instant::now();
                    probe = None;
                }
                // The log file carries the host's wall time since the start (the console text
                // itself, which the harness parses, does not): where a slow boot spent it.
                let _ = writeln!(logf, "[{:7.1}s] {line}", t0.elapsed().as_secs_f64());
                if b.stream {
                    eprintln!("  | {line}");
                }
                if boot_time.is_none() && line.contains(BOOTED) {
                    boot_time = Some(t0.elapsed());
                }
                if let Some(pos) = line.find(EXIT) {
                    status = line[pos + EXIT.len()..].trim().parse().ok();
                }
                console.push_str(&line);
                console.push('\n');
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                if let Ok(Some(_)) = child.try_wait() {
                    // Drain what is left.
                    while let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) {
                        let _ = writeln!(logf, "[{:7.1}s] {line}", t0.elapsed().as_secs_f64());
                        if let Some(pos) = line.find(EXIT) {
                            status = line[pos + EXIT.len()..].trim().parse().ok();
                        }
                        console.push_str(&line);
                        console.push('\n');
                    }
                    break;
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    // Always tear the VM down (a UML guest with its helper processes: its process group).
    if b.host_process {
        kill_group(child.id());
    }
    let _ = child.kill();
    let _ = child.wait();
    let _ = h1.join();
    let _ = h2.join();
    Ok(RunResult {
        status,
        console,
        elapsed: t0.elapsed(),
        boot_time,
        timed_out,
    })
}

/// Kill the process group `pgid` (a guest started with `host_process`, in a group of its own).
fn kill_group(pgid: u32) {
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{pgid}")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Should this machine use KVM? `RDCC_KVM=0|1` decides; otherwise a quick probe boot with KVM
/// (20 s) whose result is cached per host boot. On this machine kind KVM guests hang, so TCG.
pub fn use_kvm(k: &Kernel, initrd_probe: &Path) -> Result<bool> {
    match std::env::var("RDCC_KVM").as_deref() {
        Ok("0") => return Ok(false),
        Ok("1") => return Ok(true),
        _ => {}
    }
    if fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/kvm")
        .is_err()
    {
        return Ok(false);
    }
    let boot_id = fs::read_to_string("/proc/sys/kernel/random/boot_id").unwrap_or_default();
    let cache = cache_dir()?.join("kvm-probe");
    if let Ok(s) = fs::read_to_string(&cache) {
        if let Some((id, ans)) = s.split_once(' ') {
            if id == boot_id.trim() {
                return Ok(ans.trim() == "yes");
            }
        }
    }
    say!("vm: probing KVM with a 20 s test boot");
    let b = Boot {
        kvm: true,
        timeout: Duration::from_secs(20),
        stream: false,
        ..Boot::default()
    };
    let log = out_dir()?.join("kvm-probe.log");
    let ok = boot(k, initrd_probe, &b, &log)
        .map(|r| r.status == Some(0))
        .unwrap_or(false);
    say!(
        "vm: KVM {}",
        if ok {
            "works"
        } else {
            "does not work here; using TCG"
        }
    );
    fs::write(
        &cache,
        format!("{} {}\n", boot_id.trim(), if ok { "yes" } else { "no" }),
    )?;
    Ok(ok)
}

/// Sections of the console between `begin` and `end` marker lines: (name after `begin`, body,
/// the rest of the `end` line). A section cut off by a crash has `end` = None.
pub fn sections(console: &str, begin: &str, end: &str) -> Vec<(String, String, Option<String>)> {
    let mut out = Vec::new();
    let mut cur: Option<(String, String)> = None;
    for line in console.lines() {
        if let Some(pos) = line.find(begin) {
            if let Some((n, b)) = cur.take() {
                out.push((n, b, None));
            }
            cur = Some((line[pos + begin.len()..].trim().to_string(), String::new()));
            continue;
        }
        if let Some(pos) = line.find(end) {
            if let Some((n, b)) = cur.take() {
                out.push((n, b, Some(line[pos + end.len()..].trim().to_string())));
            }
            continue;
        }
        if let Some((_, ref mut body)) = cur {
            body.push_str(line);
            body.push('\n');
        }
    }
    if let Some((n, b)) = cur.take() {
        out.push((n, b, None));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_split() {
        let c = "x\n=B= one\na\nb\n=E= rc=0\ny\n=B= two\nc\n=E=\n=B= open\nd\n";
        let s = sections(c, "=B=", "=E=");
        assert_eq!(
            s,
            vec![
                ("one".into(), "a\nb\n".into(), Some("rc=0".into())),
                ("two".into(), "c\n".into(), Some("".into())),
                ("open".into(), "d\n".into(), None),
            ]
        );
    }
}
