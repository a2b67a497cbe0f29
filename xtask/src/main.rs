//! `cargo xtask`: the rdcc harness. Builds the kernel and modules, boots QEMU, runs tests and
//! experiments, and reports. Every command installs what it needs (`deps`) first.

mod algos;
mod args;
mod bench;
mod bins;
mod bounds;
mod deps;
mod dkms;
mod experiment;
mod frames;
mod kernel;
mod ktap;
mod modules;
mod outputs;
mod path;
mod progress;
mod report;
mod scenario;
mod series;
mod sim;
mod test_plan;
mod uml;
mod util;
mod vm;
mod vm_sim;
mod workload;

use args::{Cli, Cmd, DkmsArgs, RunArgs, VmArgs};
use std::process::ExitCode;
use std::time::Duration;
use util::{err, fmt_dur, out_dir, Result};

fn main() -> ExitCode {
    // `cargo xtask sim compare ...` goes to the simulator's own `sim compare` as it is.
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.len() >= 2 && argv[0] == "sim" && argv[1] == "compare" {
        return match sim::compare(&argv[1..]) {
            Ok(code) => ExitCode::from(code),
            Err(e) => {
                eprint!("xtask: error: {e}");
                ExitCode::from(1)
            }
        };
    }
    // Misuse exits 2 here, before anything is installed, built or booted.
    let (cli, checked) = Cli::parse_checked();
    let res = match cli.cmd {
        Cmd::Deps => deps::ensure().map(|_| 0),
        Cmd::Kernel(a) => kernel::ensure_profile(a.kernel).map(|k| {
            println!("{}", k.image.display());
            0
        }),
        Cmd::Modules(a) => kernel::ensure_profile(a.kernel)
            .and_then(|k| modules::build(&k))
            .map(|m| {
                for p in m {
                    println!("{}", p.display());
                }
                0
            }),
        Cmd::Dkms(a) => cmd_dkms(&a),
        Cmd::Vm(a) => cmd_vm(&a),
        Cmd::Test(a) => test_plan::cmd_test(&a),
        Cmd::Run(a) if a.scenario.is_some() => {
            experiment::run(a.kernel, &checked.scenarios, a.timeout.max(3600), a.quiet)
        }
        Cmd::Run(a) => cmd_run(&a, &checked.algos),
        Cmd::Bench(a) => bench::run(&checked.algos, a.before.as_deref(), a.timeout, a.quiet),
        Cmd::Sim(a) => sim::run(&a, checked.vm_sim.as_ref()),
        Cmd::Sweep(a) => sim::sweep(&a),
    };
    match res {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprint!("xtask: error: {e}");
            ExitCode::from(1)
        }
    }
}

/// Shell-quote one word for the guest's sh.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `cargo xtask dkms`: the install checks of `test` on their own.
fn cmd_dkms(o: &DkmsArgs) -> Result<u8> {
    let k = kernel::ensure_profile(o.kernel)?;
    modules::build(&k)?;
    let mut s = ktap::Summary::default();
    s.extend("install/", modules::install_check(&k)?);
    s.extend("dkms/", dkms::check(&k)?);
    for r in &s.results {
        let mark = if r.outcome == ktap::Outcome::Fail {
            "FAIL"
        } else {
            "ok  "
        };
        println!("{mark} {}", r.name);
    }
    println!("{} passed, {} failed", s.passed, s.failed);
    Ok(if s.failed == 0 { 0 } else { 1 })
}

/// Kernel, modules, and the KVM decision: what every VM command needs.
type Prepared = (
    kernel::Kernel,
    Vec<std::path::PathBuf>,
    bool,
    Vec<std::path::PathBuf>,
);

/// Kernel, modules, the KVM decision and our userspace binaries (bins.rs): what every VM
/// command needs.
fn prepare(p: &'static kernel::Profile) -> Result<Prepared> {
    let k = kernel::ensure_profile(p)?;
    let mods = modules::build(&k)?;
    let bins = bins::ours()?;
    let probe = vm::build_initramfs(
        &k,
        &vm::Contents {
            our_modules: vec![],
            our_bins: vec![],
            job: "exit 0\n".into(),
        },
    )?;
    let kvm = vm::use_kvm(&k, &probe)?;
    Ok((k, mods, kvm, bins))
}

/// The guest job of `cargo xtask vm`: CMD with its arguments quoted, or without CMD `shell`.
fn vm_job(cmd: &[String], shell: &str) -> String {
    if cmd.is_empty() {
        shell.to_string()
    } else {
        format!(
            "{}\n",
            cmd.iter()
                .map(|a| sh_quote(a))
                .collect::<Vec<_>>()
                .join(" ")
        )
    }
}

/// Boot kernel profile `p` with `job` as the guest's job and return the run and our modules.
/// The guest is what `p`'s architecture boots: a QEMU guest from an initramfs (our modules in
/// /lib/modules/rdcc, the selftests in /selftests; KVM when it works), or a UML kernel run as a
/// host process with the host's / as its root (uml::stage_uml: our modules in $RDCC_MODULES,
/// the selftests in $RDCC_SELFTESTS; 2 GiB, room for qdisc backlogs at 10 Gbit/s, mapped from
/// a sparse file so the host pays only for what the guest touches). Of `b`, the caller sets
/// what is its own (timeout, streaming, interactive, data channel); the rest is set here.
/// Returns the run, our modules and what ran the guest ("UML", "KVM" or "TCG").
fn boot_job(
    p: &'static kernel::Profile,
    job: String,
    b: vm::Boot,
    log: &std::path::Path,
) -> Result<(vm::RunResult, Vec<std::path::PathBuf>, &'static str)> {
    // One boot at a time per work tree and test bed: the UML stage (whose modules the guest
    // loads from the host's file system for the whole boot) and the initramfs are shared paths
    // under target/rdcc, one per bed. A second harness on the same bed waits (seen: a `run
    // --kernel uml` started beside `test --kernel uml-debug` replaced the debug boot's modules
    // mid-boot, and every later insmod there failed). A UML and a QEMU boot share nothing
    // (module staging copies are per profile) and may run together, as `test`'s lanes do; so
    // may two UML guests with stages of their own (`Boot::uml_stage`: `test`'s selftests and
    // its datacenter scenarios), each locking its stage. What they do share, the module build
    // in target/rdcc/kbuild-<profile>, is built under that tree's lock and copied into each
    // stage before the boot.
    let uml = p.arch == kernel::Arch::Um;
    let _boot = if uml && b.uml_stage != "uml" {
        lock_file(&format!(".boot-{}.lock", b.uml_stage), b.uml_stage)?
    } else {
        boot_lock(scenario::Bed::of(p))?
    };
    let b = vm::Boot {
        stream: b.stream && util::lane_streams(),
        ..b
    };
    if uml {
        let k = kernel::ensure_profile(p)?;
        let (mods, stage) = {
            let _tree = kbuild_lock(p)?;
            let mods = modules::build(&k)?;
            let bins = bins::ours()?;
            let stage = uml::stage_uml(
                &k,
                &vm::Contents {
                    our_modules: mods.clone(),
                    our_bins: bins,
                    job,
                },
                b.uml_stage,
            )?;
            (mods, stage)
        };
        let b = vm::Boot { mem_mib: 2048, ..b };
        return Ok((uml::boot_uml(&k, &stage, &b, log)?, mods, "UML"));
    }
    let (k, mods, kvm, bins) = prepare(p)?;
    let img = vm::build_initramfs(
        &k,
        &vm::Contents {
            our_modules: mods.clone(),
            our_bins: bins,
            job,
        },
    )?;
    let engine = if kvm { "KVM" } else { "TCG" };
    Ok((
        vm::boot(&k, &img, &vm::Boot { kvm, ..b }, log)?,
        mods,
        engine,
    ))
}

/// The work tree's boot lock of test bed `bed` (`target/rdcc/.boot-uml.lock` or
/// `.boot-qemu.lock`), held until the returned file drops.
pub(crate) fn boot_lock(bed: scenario::Bed) -> Result<std::fs::File> {
    let name = match bed {
        scenario::Bed::Uml => ".boot-uml.lock",
        scenario::Bed::Qemu => ".boot-qemu.lock",
    };
    lock_file(name, bed.name())
}

/// The lock of profile `p`'s module build tree (`target/rdcc/.kbuild-<profile>.lock`): one
/// `make M=target/rdcc/kbuild-<profile>` at a time (two UML guests of one `cargo xtask test`
/// build and stage their modules before their boots; `modules::install_check` installs from
/// the same tree). Held until the returned file drops.
pub(crate) fn kbuild_lock(p: &kernel::Profile) -> Result<std::fs::File> {
    lock_file(&format!(".kbuild-{}.lock", p.name), p.name)
}

/// An exclusive lock on `target/rdcc/<name>` (flock: it excludes another harness, and another
/// thread of this one, which opens the file anew); `what` names it while waiting.
fn lock_file(name: &str, what: &str) -> Result<std::fs::File> {
    let f = std::fs::File::create(out_dir()?.join(name))?;
    let mut waited = false;
    while f.try_lock().is_err() {
        if !waited {
            say!("vm: another harness is using {what} from this work tree ({name}); waiting for it to finish");
            waited = true;
        }
        std::thread::sleep(Duration::from_secs(2));
    }
    Ok(f)
}

fn cmd_vm(o: &VmArgs) -> Result<u8> {
    let interactive = o.cmd.is_empty();
    let shell = if o.kernel.arch == kernel::Arch::Um {
        "echo \"rdcc UML: our modules in $RDCC_MODULES, the kernel's in $RDCC_KMODULES, \
         selftests in $RDCC_SELFTESTS; \
         the root is the host's / (read-write); exit to power off\"\n\
         /bin/busybox setsid /bin/busybox cttyhack sh -l\n"
    } else {
        "echo 'rdcc VM: modules in /lib/modules/rdcc, selftests in /selftests; exit to power off'\n\
         setsid cttyhack sh -l\n"
    };
    let b = vm::Boot {
        interactive,
        stream: !o.quiet,
        timeout: Duration::from_secs(o.timeout),
        data_out: Some(out_dir()?.join("vm-data.bin")),
        ..vm::Boot::default()
    };
    let log = out_dir()?.join("vm-console.log");
    let (r, _, _) = boot_job(o.kernel, vm_job(&o.cmd, shell), b, &log)?;
    if interactive {
        return Ok(0);
    }
    vm_status(&r, &log)
}

/// Report a `vm` run and turn it into the command's exit status: the job's, or 1 when the guest
/// timed out or reported none.
fn vm_status(r: &vm::RunResult, log: &std::path::Path) -> Result<u8> {
    say!(
        "vm: {} in {} (boot {}), console log {}",
        match (r.status, r.timed_out) {
            (_, true) => "timed out".to_string(),
            (Some(s), _) => format!("exit status {s}"),
            (None, _) => "no exit status (guest crashed?)".to_string(),
        },
        fmt_dur(r.elapsed),
        r.boot_time.map(fmt_dur).unwrap_or_else(|| "-".into()),
        log.display()
    );
    match r.status {
        Some(s) if !r.timed_out => Ok(s.clamp(0, 255) as u8),
        _ => Ok(1),
    }
}

/// `cargo xtask run`; `algos` is the list [`RunArgs::check`] accepted.
fn cmd_run(o: &RunArgs, algos: &[String]) -> Result<u8> {
    let (k, mods, kvm, bins) = prepare(o.kernel)?;
    let ours: Vec<String> = mods
        .iter()
        .filter(|m| modules::is_product(m))
        .filter_map(|m| {
            m.file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.strip_prefix("tcp_"))
        })
        .map(String::from)
        .collect();
    let (mine, theirs): (Vec<String>, Vec<String>) =
        algos.iter().cloned().partition(|a| ours.contains(a));
    let (rate, delay, dur) = (o.rate, o.delay_us, o.duration);
    let env = format!("RDCC_RATE_MBIT={rate} RDCC_DELAY_US={delay} RDCC_DURATION={dur}");
    let mut job = String::from("rc=0\n");
    if !theirs.is_empty() {
        job.push_str(&format!(
            "RDCC_ALGOS={} {env} sh $RDCC_SELFTESTS/cc_basic.sh || rc=1\n",
            sh_quote(&theirs.join(" "))
        ));
    }
    if !mine.is_empty() {
        job.push_str(&format!(
            "RDCC_RDCC_ALGOS={} RDCC_PERF=1 {env} sh $RDCC_SELFTESTS/rdcc_cc.sh || rc=1\n",
            sh_quote(&mine.join(" "))
        ));
    }
    job.push_str("exit $rc\n");
    let img = vm::build_initramfs(
        &k,
        &vm::Contents {
            our_modules: mods,
            our_bins: bins,
            job,
        },
    )?;
    let b = vm::Boot {
        kvm,
        stream: !o.quiet,
        timeout: Duration::from_secs(o.timeout),
        ..vm::Boot::default()
    };
    let log = out_dir()?.join("run-console.log");
    let r = vm::boot(&k, &img, &b, &log)?;
    let rows = report::parse_results(&r.console);
    if rows.is_empty() {
        return err(format!(
            "run: the VM printed no results (status {:?}, timed out: {}); see {}",
            r.status,
            r.timed_out,
            log.display()
        ));
    }
    let failed: Vec<&str> = r
        .console
        .lines()
        .filter(|l| l.starts_with("not ok "))
        .collect();
    println!();
    println!(
        "Bottleneck: {rate} Mbit/s HTB, {delay} us netem delay (data direction), {dur} s per \
         single-flow run; guest under {} in {}",
        if kvm { "KVM" } else { "TCG" },
        fmt_dur(r.elapsed)
    );
    print!("{}", report::table(&rows));
    if failed.is_empty() {
        println!("all in-VM checks passed");
    } else {
        println!(
            "{} in-VM check(s) failed (console log {}):",
            failed.len(),
            log.display()
        );
        for f in failed {
            println!("  {f}");
        }
    }
    // The experiment's product is the table; a finished run with results exits 0.
    Ok(if r.status.is_some() && !r.timed_out {
        0
    } else {
        1
    })
}
