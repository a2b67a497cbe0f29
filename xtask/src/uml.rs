//! The User-Mode Linux guest: its stage (init, job, modules, tools under `target/rdcc/uml/`),
//! its command line, its boot (the console handled by `vm::run_guest`, as a QEMU guest's), and
//! its management console (mconsole), through which a hung guest is inspected before it is
//! killed.

use crate::kernel::{Arch, Kernel};
use crate::util::{err, out_dir, repo_root, run_capture, Result};
use crate::vm::{copy_file, run_guest, write_exec, Boot, Contents, RunResult};
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The UML guest's /init (see [`uml_init`] for the placeholders). PID 1 of a kernel whose root
/// is the host's / over hostfs, read-write: what the job writes outside the tmpfs mounts below
/// lands in the host's file system (as the user running the harness). /tmp, /run, /var/tmp and
/// /dev/shm are private tmpfs mounts. Everything else stays at its host path, named in the
/// environment: our modules in $RDCC_MODULES, the UML kernel's own (dctcp, bbr, …) under
/// $RDCC_KMODULES, both in $RDCC_MODULE_DIRS where selftests/lib.sh's `load_cc` looks, the
/// selftests in $RDCC_SELFTESTS. (/lib/modules/rdcc and /selftests as in the QEMU guest would
/// need mount points in the host's / — a host without kernel packages has no /lib/modules — and
/// creating them would write to the host.) The guest powers off with busybox's `poweroff -f`
/// (the host's poweroff is systemctl's; a reboot would restart UML).
const UML_INIT: &str = r#"#!/bin/sh
export PATH=@STAGE@/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:@STAGE@/busybox
export HOME=/tmp TMPDIR=/tmp RDCC_SELFTESTS=@SELFTESTS@
export RDCC_MODULES=@MODULES@ RDCC_KMODULES=@MODROOT@
export RDCC_MODULE_DIRS="$RDCC_MODULES $RDCC_KMODULES"
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts 2>/dev/null
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t tmpfs tmpfs /var/tmp
mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mount -t cgroup2 cgroup2 /sys/fs/cgroup 2>/dev/null
hostname rdcc-uml
ip link set lo up
echo RDCC-BOOTED
cd /
sh @STAGE@/job.sh
rc=$?
sync
echo "RDCC-EXIT-STATUS=$rc"
exec /bin/busybox poweroff -f
"#;

/// Quote a path for sh.
fn sh_path(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// [`UML_INIT`] for the stage directory `stage` and kernel `k`.
fn uml_init(stage: &Path, k: &Kernel) -> String {
    UML_INIT
        .replace("@STAGE@", &sh_path(stage))
        .replace("@SELFTESTS@", &sh_path(&repo_root().join("selftests")))
        .replace("@MODULES@", &sh_path(&stage.join("modules")))
        .replace("@MODROOT@", &sh_path(&k.modroot))
}

/// The UML counterpart of [`crate::vm::build_initramfs`]: no image, since the guest's root is the host's /.
/// `target/rdcc/<name>/` (`uml`, or another stage of a guest booted beside it: `vm::Boot`'s
/// `uml_stage`) gets the init, the job, our modules (`modules/`), our binaries (`bin/`, first
/// on the guest's PATH) and links to busybox's applets (`busybox/`, last on it); returns that
/// directory.
pub fn stage_uml(k: &Kernel, c: &Contents, name: &str) -> Result<PathBuf> {
    let dir = out_dir()?.join(name);
    if let Some(m) = hidden_in_uml(&dir) {
        return err(format!(
            "vm: the UML stage {} is under {m}, which the guest mounts a tmpfs on (UML_INIT): \
             use a work tree outside {m}",
            dir.display()
        ));
    }
    if dir.exists() {
        fs::remove_dir_all(&dir)?;
    }
    fs::create_dir_all(dir.join("modules"))?;
    fs::create_dir_all(dir.join("bin"))?;
    for m in &c.our_modules {
        let name = m.file_name().map(|n| n.to_owned()).unwrap_or_default();
        copy_file(m, &dir.join("modules").join(name))?;
    }
    for b in &c.our_bins {
        let name = b.file_name().map(|n| n.to_owned()).unwrap_or_default();
        // fs::copy keeps the mode: the binaries stay executable.
        copy_file(b, &dir.join("bin").join(name))?;
    }
    // busybox's applets, last on the guest's PATH: the host's own tools win, busybox fills what
    // the host lacks (a container without ping, say), as the QEMU guest's userspace is busybox
    // plus iproute2 and iperf3.
    let bb = Path::new("/bin/busybox");
    if !bb.exists() {
        return err("vm: /bin/busybox missing (Debian busybox-static; run `cargo xtask deps`)");
    }
    fs::create_dir_all(dir.join("busybox"))?;
    let list = run_capture(Command::new(bb).arg("--list"))?;
    for applet in list.lines().map(str::trim).filter(|a| !a.is_empty()) {
        symlink(bb, dir.join("busybox").join(applet))?;
    }
    write_exec(&dir.join("init"), &uml_init(&dir, k))?;
    write_exec(&dir.join("job.sh"), &c.job)?;
    Ok(dir)
}

/// The tmpfs mount of [`UML_INIT`] that hides host path `p` from the guest, if any (a work
/// tree under /tmp: the guest found no job.sh).
fn hidden_in_uml(p: &Path) -> Option<&'static str> {
    ["/tmp", "/run", "/var/tmp", "/dev/shm"]
        .into_iter()
        .find(|m| p.starts_with(m))
}

/// UML's command line for a guest staged in `stage`.
fn uml_cmd(k: &Kernel, stage: &Path, b: &Boot) -> Command {
    let mut c = Command::new(&k.image);
    c.arg(format!("mem={}M", b.mem_mib))
        // The host's / as root, read-write (hostfs; `root=/dev/root` names no device).
        .args(["root=/dev/root", "rootfstype=hostfs", "rootflags=/", "rw"])
        .arg(format!("init={}", stage.join("init").display()))
        // The main console on UML's stdin/stdout; the other consoles and serial lines nowhere
        // (their defaults open xterms and ptys).
        .args(["con0=fd:0,fd:1", "con=null", "ssl=null"])
        // Virtual time that advances only while the guest is idle: timings do not depend on
        // the host's load (the harness shares 2 cores with other work).
        .arg("time-travel=inf-cpu")
        // UML's per-instance directory (mconsole socket, pid file) under the stage, not ~/.uml.
        .arg(format!("uml_dir={}", stage.display()))
        // As the QEMU guest: errors and worse reach the console live, the rest is in dmesg.
        .arg("loglevel=4");
    if let Some(p) = &b.data_out {
        // The data channel: a file the guest appends its frames to over hostfs (init's
        // environment gets the kernel command line's unknown KEY=VALUE words). Not a serial
        // line: UML's have no `file:` channel (fd, pty, port, xterm, null), and a file needs no
        // line discipline (stty raw) and no descriptor handed across the host's exec.
        c.arg(format!("RDCC_DATA_OUT={}", p.display()));
    }
    c.args(b.append.split_whitespace());
    if !b.interactive {
        use std::os::unix::process::CommandExt;
        c.process_group(0);
    }
    c
}

/// Boot the UML kernel `k` with the guest staged by [`stage_uml`] and run its job; the console
/// is streamed, logged and parsed as a QEMU guest's is.
pub fn boot_uml(k: &Kernel, stage: &Path, b: &Boot, log: &Path) -> Result<RunResult> {
    if k.profile.arch != Arch::Um {
        return err(format!(
            "vm: the {} kernel is not a User-Mode Linux kernel",
            k.profile.name
        ));
    }
    let b = Boot {
        host_process: true,
        mconsole_dir: Some(stage.to_path_buf()),
        ..b.clone()
    };
    if let Some(p) = &b.data_out {
        // One word on the kernel's command line; the guest appends (several scenarios, each
        // opening it), so it starts empty as QEMU's `file:` serial port does.
        if p.to_str().is_none_or(|s| s.contains(char::is_whitespace)) {
            return err(format!(
                "vm: the data channel's path {} must be UTF-8 without whitespace (UML's command line)",
                p.display()
            ));
        }
        fs::write(p, b"")?;
    }
    let what = k.image.display().to_string();
    run_guest(uml_cmd(k, stage, &b), &what, "uml", &b, log)
}

/// UML's management console protocol (arch/um/include/shared/mconsole.h): a request is the
/// magic, the protocol version, the command's length and 512 bytes of command; a reply is an
/// error flag, a "more follows" flag, a length and 512 bytes of text.
const MCONSOLE_MAGIC: u32 = 0xcafe_babe;
const MCONSOLE_VERSION: u32 = 2;
const MCONSOLE_MAX_DATA: usize = 512;

/// The mconsole request datagram for `cmd` (truncated to the protocol's 512 bytes).
fn mconsole_request(cmd: &str) -> Vec<u8> {
    let data = &cmd.as_bytes()[..cmd.len().min(MCONSOLE_MAX_DATA)];
    let mut req = Vec::with_capacity(12 + MCONSOLE_MAX_DATA);
    req.extend_from_slice(&MCONSOLE_MAGIC.to_le_bytes());
    req.extend_from_slice(&MCONSOLE_VERSION.to_le_bytes());
    req.extend_from_slice(&(data.len() as u32).to_le_bytes());
    req.extend_from_slice(data);
    req.resize(12 + MCONSOLE_MAX_DATA, 0);
    req
}

/// One reply datagram: (error, more, text).
fn mconsole_reply(d: &[u8]) -> Option<(bool, bool, String)> {
    let word =
        |i: usize| -> Option<u32> { Some(u32::from_le_bytes(d.get(i..i + 4)?.try_into().ok()?)) };
    let (error, more, len) = (word(0)?, word(4)?, word(8)? as usize);
    let text = d.get(12..12 + len.min(MCONSOLE_MAX_DATA))?;
    let text = String::from_utf8_lossy(text)
        .trim_end_matches('\0')
        .to_string();
    Some((error != 0, more != 0, text))
}

/// Send `cmd` to the mconsole of the UML instance under `uml_dir` (UML makes
/// `uml_dir/<umid>/mconsole`); its reply, or why there is none.
fn mconsole(uml_dir: &Path, cmd: &str) -> std::result::Result<String, String> {
    use std::os::unix::net::UnixDatagram;
    let sock = fs::read_dir(uml_dir)
        .map_err(|e| format!("{}: {e}", uml_dir.display()))?
        .filter_map(|e| e.ok())
        .map(|e| e.path().join("mconsole"))
        .find(|p| p.exists())
        .ok_or_else(|| format!("no mconsole socket under {}", uml_dir.display()))?;
    // The reply comes back to the sender's address: a bound socket of ours, beside it.
    let me = uml_dir.join(format!("mconsole-client-{}", std::process::id()));
    let _ = fs::remove_file(&me);
    let s = UnixDatagram::bind(&me).map_err(|e| format!("bind {}: {e}", me.display()))?;
    let res = (|| {
        s.set_read_timeout(Some(std::time::Duration::from_secs(3)))
            .map_err(|e| e.to_string())?;
        s.send_to(&mconsole_request(cmd), &sock)
            .map_err(|e| format!("send to {}: {e}", sock.display()))?;
        let mut out = String::new();
        let mut buf = [0u8; 12 + MCONSOLE_MAX_DATA];
        loop {
            let n = s.recv(&mut buf).map_err(|e| format!("no reply: {e}"))?;
            let (error, more, text) =
                mconsole_reply(&buf[..n]).ok_or_else(|| "a short reply".to_string())?;
            out.push_str(&text);
            if error {
                return Err(out);
            }
            if !more {
                return Ok(out);
            }
        }
    })();
    let _ = fs::remove_file(&me);
    res
}

/// The kernel's timestamp of a reply's first log line (`[    5.000000] sysrq: ...`), s.
fn log_stamp_s(reply: &str) -> Option<f64> {
    let r = reply.trim_start().strip_prefix('[')?;
    r[..r.find(']')?].trim().parse().ok()
}

/// The guest's virtual clock, s: the stamp of mconsole's `sysrq 4` (answered in its interrupt
/// handler, so a guest whose tasks do not run answers too; log level 4 is the one `uml_cmd`
/// boots with, so nothing changes but two lines in the kernel log).
pub fn clock_s(uml_dir: &Path) -> Option<f64> {
    mconsole(uml_dir, "sysrq 4")
        .ok()
        .as_deref()
        .and_then(log_stamp_s)
}

/// What a hung guest can still say, as lines for the log. mconsole's sysrq commands run in its
/// interrupt handler, so they answer even when no task gets the CPU, and their replies carry the
/// kernel's clock: asked twice, 2 s of wall time apart, the same stamp means virtual time stood
/// still, which in inf-cpu mode is a task that computes without ever sleeping (time advances
/// only when the guest is idle; no tick comes to preempt it). Then the blocked tasks (sysrq w,
/// on the console, log level raised first) and, if process context still runs, the uptime and
/// load. Not sysrq t: every task's stack printed from the interrupt handler killed a KASAN guest
/// mid-dump.
pub fn inspect(uml_dir: &Path) -> Vec<String> {
    let mut out = vec![
        "RDCC-HUNG: the boot is stopped (timeout or stall); asking the guest (mconsole)"
            .to_string(),
    ];
    let mut ask = |cmd: &str| -> Option<String> {
        let r = mconsole(uml_dir, cmd);
        out.push(format!(
            "RDCC-HUNG: {cmd}: {}",
            match &r {
                Ok(t) => t.trim().replace('\n', " | "),
                Err(e) => format!("(failed: {e})"),
            }
        ));
        r.ok()
    };
    let t1 = ask("sysrq 8").as_deref().and_then(log_stamp_s);
    std::thread::sleep(std::time::Duration::from_secs(2));
    let t2 = ask("sysrq w").as_deref().and_then(log_stamp_s);
    ask("proc uptime");
    ask("proc loadavg");
    match (t1, t2) {
        (Some(a), Some(b)) if a == b => out.push(format!(
            "RDCC-HUNG: virtual time stood still at {a:.6} s over 2 s of wall time: a guest task \
             computes without sleeping (inf-cpu time advances only while the guest is idle)"
        )),
        (Some(a), Some(b)) => out.push(format!(
            "RDCC-HUNG: virtual time moved from {a:.6} to {b:.6} s in 2 s of wall time: the guest \
             runs, slowly"
        )),
        _ => out.push("RDCC-HUNG: the guest's clock could not be read".into()),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn uml_kernel() -> Kernel {
        Kernel {
            src: PathBuf::from("/k/src"),
            image: PathBuf::from("/k/src/linux"),
            modroot: PathBuf::from("/k/modroot/lib/modules/6.12.117"),
            release: "6.12.117".into(),
            profile: crate::kernel::profile("uml").unwrap(),
        }
    }

    /// The UML init: every placeholder filled, paths quoted, the exit marker before power-off.
    #[test]
    fn uml_init_is_filled() {
        let init = uml_init(Path::new("/w/target/rdcc/uml"), &uml_kernel());
        assert!(!init.contains('@'), "{init}");
        for want in [
            "export PATH='/w/target/rdcc/uml'/bin:",
            ":/bin:'/w/target/rdcc/uml'/busybox\n",
            "RDCC_MODULES='/w/target/rdcc/uml/modules' ",
            "RDCC_KMODULES='/k/modroot/lib/modules/6.12.117'",
            "RDCC_MODULE_DIRS=\"$RDCC_MODULES $RDCC_KMODULES\"",
            "sh '/w/target/rdcc/uml'/job.sh",
            "mount -t tmpfs tmpfs /tmp",
            "mount -t tmpfs tmpfs /run",
        ] {
            assert!(init.contains(want), "missing {want:?} in\n{init}");
        }
        let exit = init.find("RDCC-EXIT-STATUS=$rc").unwrap();
        assert!(exit < init.find("poweroff -f").unwrap());
        assert_eq!(sh_path(Path::new("/a'b")), "'/a'\\''b'");
    }

    /// (interactive, extra append) -> UML's arguments.
    #[test]
    fn uml_command_line() {
        let k = uml_kernel();
        let cases: &[(bool, &str, &[&str])] = &[
            (
                false,
                "",
                &[
                    "mem=2048M",
                    "root=/dev/root",
                    "rootfstype=hostfs",
                    "rootflags=/",
                    "rw",
                    "init=/s/init",
                    "con0=fd:0,fd:1",
                    "con=null",
                    "ssl=null",
                    "time-travel=inf-cpu",
                    "uml_dir=/s",
                    "loglevel=4",
                ],
            ),
            (true, "A=1 b", &["mem=2048M", "A=1", "b"]),
        ];
        for &(interactive, append, want) in cases {
            let b = Boot {
                interactive,
                append: append.into(),
                mem_mib: 2048,
                ..Boot::default()
            };
            let c = uml_cmd(&k, Path::new("/s"), &b);
            assert_eq!(c.get_program(), "/k/src/linux");
            let args: Vec<String> = c
                .get_args()
                .map(|a| a.to_string_lossy().into_owned())
                .collect();
            for w in want {
                assert!(args.iter().any(|a| a == w), "{w} not in {args:?}");
            }
            if !append.is_empty() {
                assert_eq!(&args[args.len() - 2..], ["A=1", "b"]);
            }
            assert!(!args.iter().any(|a| a.starts_with("RDCC_DATA_OUT=")));
        }
        assert_eq!(
            hidden_in_uml(Path::new("/tmp/x/target/rdcc/uml")),
            Some("/tmp")
        );
        assert_eq!(hidden_in_uml(Path::new("/tmpx/target/rdcc/uml")), None);
        assert_eq!(hidden_in_uml(Path::new("/work/target/rdcc/uml")), None);
        // The data channel: a host file named in init's environment.
        let b = Boot {
            data_out: Some("/t/run-data.bin".into()),
            ..Boot::default()
        };
        let c = uml_cmd(&k, Path::new("/s"), &b);
        assert!(c.get_args().any(|a| a == "RDCC_DATA_OUT=/t/run-data.bin"));
    }

    /// The mconsole datagrams as arch/um/include/shared/mconsole.h lays them out.
    #[test]
    fn mconsole_datagrams() {
        let r = mconsole_request("proc uptime");
        assert_eq!(r.len(), 12 + 512);
        assert_eq!(&r[..4], &0xcafe_babeu32.to_le_bytes());
        assert_eq!(&r[4..8], &2u32.to_le_bytes());
        assert_eq!(&r[8..12], &11u32.to_le_bytes());
        assert_eq!(&r[12..23], b"proc uptime");
        assert!(r[23..].iter().all(|&b| b == 0));
        assert_eq!(
            mconsole_request(&"x".repeat(600))[8..12],
            512u32.to_le_bytes()
        );
        let mut d = Vec::new();
        for w in [0u32, 1, 5] {
            d.extend_from_slice(&w.to_le_bytes());
        }
        d.extend_from_slice(b"12.5\0\0\0");
        assert_eq!(mconsole_reply(&d), Some((false, true, "12.5".to_string())));
        assert_eq!(mconsole_reply(&d[..10]), None);
        d[..4].copy_from_slice(&1u32.to_le_bytes());
        assert_eq!(mconsole_reply(&d).map(|r| r.0), Some(true));
    }

    #[test]
    fn log_stamps() {
        for (reply, want) in [
            ("[    5.000000] sysrq: Changing Loglevel | x", Some(5.0)),
            (" [  25.420000] sysrq: Show Blocked State", Some(25.42)),
            ("sysrq: no stamp", None),
            ("[ x ] y", None),
        ] {
            assert_eq!(log_stamp_s(reply), want, "{reply}");
        }
    }
}
