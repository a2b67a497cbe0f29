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
mod uml;
mod util;
mod vm;
mod vm_sim;

use args::{Cli, Cmd, DkmsArgs, RunArgs, TestArgs, VmArgs};
use std::process::ExitCode;
use std::time::{Duration, Instant};
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
        Cmd::Test(a) => cmd_test(&a),
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
    // One boot at a time per work tree: the module staging copy, the UML stage (whose modules
    // the guest loads from the host's file system for the whole boot) and the initramfs are
    // shared paths under target/rdcc. A second harness waits (seen: a `run --kernel uml`
    // started beside `test --kernel uml-debug` replaced the debug boot's modules mid-boot, and
    // every later insmod there failed).
    let _boot = boot_lock()?;
    if p.arch == kernel::Arch::Um {
        let k = kernel::ensure_profile(p)?;
        let mods = modules::build(&k)?;
        let bins = bins::ours()?;
        let stage = uml::stage_uml(
            &k,
            &vm::Contents {
                our_modules: mods.clone(),
                our_bins: bins,
                job,
            },
        )?;
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

/// The work tree's boot lock (`target/rdcc/.boot.lock`), held until the returned file drops.
fn boot_lock() -> Result<std::fs::File> {
    let f = std::fs::File::create(out_dir()?.join(".boot.lock"))?;
    let mut waited = false;
    while f.try_lock().is_err() {
        if !waited {
            say!("vm: another harness is booting from this work tree; waiting for it to finish");
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

/// One selftest between the markers the harness parses.
fn selftest_block(name: &str, cmd: &str, per_test_timeout: u64) -> String {
    format!(
        r#"echo "RDCC-SELFTEST-BEGIN {name}"
timeout {per_test_timeout} {cmd} > "/tmp/{name}.out" 2>&1
r=$?
cat "/tmp/{name}.out"
echo "RDCC-SELFTEST-END {name} rc=$r"
[ "$r" -eq 0 ] || rc=1
"#
    )
}

/// The path itself (`cc_basic` with cubic: selection and a throughput window), on the distro
/// profile.
const PATH_SELFTESTS: &[(&str, &str)] = &[(
    "cc_basic",
    "env RDCC_ALGOS=cubic sh $RDCC_SELFTESTS/cc_basic.sh",
)];

/// The functional selftests of the distro profile: selection by sysctl and setsockopt
/// and runtime parameters (`rdcc_select`), load/unload, ss, tracepoint and loss recovery
/// (`rdcc_cc` without the performance trials), the remote-delay channel (`rdcc_rqd`; its
/// slow-receiver check assumes sub-ms delayed-ACK holds, which HZ=250 cannot give), and the
/// `rdcc` command (`rdcc_cli`).
const FUNCTIONAL_SELFTESTS: &[(&str, &str)] = &[
    ("rdcc_select", "sh $RDCC_SELFTESTS/rdcc_select.sh"),
    ("rdcc_cc", "env RDCC_PERF=0 sh $RDCC_SELFTESTS/rdcc_cc.sh"),
    (
        "rdcc_rqd",
        "env RDCC_RQD_SLOW=0 sh $RDCC_SELFTESTS/rdcc_rqd.sh",
    ),
    ("rdcc_cli", "sh $RDCC_SELFTESTS/rdcc_cli.sh"),
];

/// The distro profile's boot: the path, then the functional selftests.
const DISTRO_SELFTESTS: &[&[(&str, &str)]] = &[PATH_SELFTESTS, FUNCTIONAL_SELFTESTS];

/// The qemu boot of the default plan: what needs a real x86 kernel (issue #36 item 6): loading
/// and unloading the modules, x86 KUnit, and a functional pass of every selftest
/// (`RDCC_PERF=0`: `rdcc_cc` without its performance trials, `rdcc_rqd_attack` with one flow
/// per attack judged by its counters). The performance trials, judged against a reference flow
/// of the same boot, run in the debug boot below, in virtual time; under TCG they were most of a
/// 21-minute boot, repeated because the guest's timing follows the host's load.
/// `cargo xtask test --kernel qemu` still runs them here.
const QEMU_ENV: &str = "RDCC_PERF=0";

/// The debug boot of the default plan (issue #32 item 8): every selftest, on the `uml-debug`
/// kernel (KASAN, UBSAN, lockdep, PROVE_RCU, DEBUG_NET) in virtual time, where the checkers cost
/// the tests no time (issue #36): what a flow moves does not depend on how slow KASAN makes the
/// kernel, so the checks written for a guest moving tens of Mbit/s hold there as on `qemu`.
/// With the performance trials (`rdcc_cc`'s one, four and eight flows against a reference
/// flow, `rdcc_rqd_attack`'s attack/reference pairs): issue #36 item 6 moves them
/// here from the qemu boot. Without `rdcc_rqd`'s slow-receiver check (HZ is 100 on UML: a
/// delayed ACK is held at least 40 ms, forty times the 1 ms endpoint target; see the distro
/// profile's HZ=250). `rdcc_netns` is here what it is for: a kernel socket's ACKs after the
/// pernet .exit, a use-after-free only KASAN sees. Any KASAN/UBSAN/lockdep/WARNING line in the
/// kernel log fails the run (`ktap::kernel_problems`); the KUnit suites run too. The x86 `debug`
/// profile stays available (`cargo xtask test --kernel debug`). One trial of each repeated
/// check (`RDCC_TRIALS=1`): the repeats and their median serve the TCG guest, whose timing
/// follows the host's load; in virtual time a check comes out the same on every trial
/// (rdcc_rqd_attack's six attack pairs took most of a 27-minute debug boot with three). Shorter
/// flows (`RDCC_DURATION=3`; `rdcc_cc`'s multi-flow runs 2 s of warm-up and 3 s measured, not 5
/// and 12): the TCG lengths average over a noisy guest, and at 50 Mbit/s and 4-7 ms a second is
/// 150-250 round trips. `rdcc_cc` with its trials took 6m37s so on a host at load 3 (all 47
/// results passed; swift's 8-flow Jain 0.9994, TIMELY's 0.9854).
const DEBUG_ENV: &str =
    "RDCC_RQD_SLOW=0 RDCC_TRIALS=1 RDCC_DURATION=3 RDCC_WARMUP=2 RDCC_MULTI_DURATION=3";

/// What one VM boot of `cargo xtask test` runs.
#[derive(Clone, Copy, Debug)]
enum Job {
    /// Every executable selftest, with these variables in its environment (`K=V …`, or ""):
    /// the qemu boot ([`QEMU_ENV`]), the debug boot ([`DEBUG_ENV`]), or any profile picked with
    /// `--kernel`.
    Full(&'static str),
    /// The listed selftests only (name, guest command), table after table.
    Listed(&'static [&'static [(&'static str, &'static str)]]),
}

/// The guest job of `cargo xtask test`.
///
/// - [`Job::Full`] (qemu and uml-debug profiles): every selftest; [`Job::Listed`] (distro
///   profile): the functional ones (selection by sysctl and setsockopt, load/unload, one flow,
///   the remote-delay hit rate, the `rdcc` command).
/// - The kernel's taint flags are recorded before any module loads; the product modules are
///   loaded, traffic runs, and `_taint.sh` then checks that nothing but the out-of-tree flag was
///   added. Only after that is the KUnit test module loaded (its suites run at load and add
///   TAINT_TEST, as every KUnit module does).
fn test_job(per_test_timeout: u64, job: Job) -> String {
    let mut j = String::from(
        r#"rc=0
# Where the guest has our modules and the selftests: the QEMU guest's initramfs paths, or what
# the UML guest's init exported (uml::stage_uml).
: "${RDCC_MODULES:=/lib/modules/rdcc}" "${RDCC_SELFTESTS:=/selftests}"
cat /proc/sys/kernel/tainted > /tmp/rdcc-taint-boot
# IPv6 may be a module (distro profile): load it before modules that use its symbols.
modprobe ipv6 2>/dev/null
for m in "$RDCC_MODULES"/tcp_*.ko; do
  [ -e "$m" ] || continue
  echo "RDCC-INSMOD $m"
  insmod "$m" || { echo "RDCC-INSMOD-FAILED $m"; rc=1; }
done
"#,
    );
    if let Job::Full(env) = job {
        if !env.is_empty() {
            j.push_str(&format!("export {env}\n"));
        }
        j.push_str(
            r#"for t in "$RDCC_SELFTESTS"/*.sh; do
  [ -e "$t" ] || continue
  name=$(basename "$t" .sh)
  case "$name" in lib*|_*) continue;; esac
  [ -x "$t" ] || continue
"#,
        );
        j.push_str(&selftest_block("$name", "sh \"$t\"", per_test_timeout));
        j.push_str(
            "done
",
        );
    } else if let Job::Listed(tables) = job {
        for (name, cmd) in tables.iter().copied().flatten() {
            j.push_str(&selftest_block(name, cmd, per_test_timeout));
        }
    }
    j.push_str(&selftest_block(
        "taint",
        "sh $RDCC_SELFTESTS/_taint.sh",
        per_test_timeout,
    ));
    j.push_str(
        r#"for m in "$RDCC_MODULES"/rdcc_kunit.ko; do
  [ -e "$m" ] || continue
  echo "RDCC-INSMOD $m"
  insmod "$m" || { echo "RDCC-INSMOD-FAILED $m"; rc=1; }
done
echo RDCC-DMESG-BEGIN
# util-linux's dmesg (the UML guest runs the host's) colours its output on a terminal, and the
# UML console is one: no colours, or the KTAP lines do not parse. busybox's has no --color.
dmesg --color=never 2>/dev/null || dmesg
echo RDCC-DMESG-END
exit $rc
"#,
    );
    j
}

/// Boot kernel profile `p` with the test job; return its results.
fn vm_test(p: &'static kernel::Profile, o: &TestArgs, job: Job) -> Result<ktap::Summary> {
    let b = vm::Boot {
        stream: !o.quiet,
        timeout: Duration::from_secs(o.timeout),
        ..vm::Boot::default()
    };
    let log = out_dir()?.join(format!("test-{}-console.log", p.name));
    say!(
        "test: booting the {} kernel ({}), console log {}",
        p.name,
        p.about,
        log.display()
    );
    let (r, mods, _) = boot_job(p, test_job(1500, job), b, &log)?;
    // The selftests this job runs: every one on a full run, the listed ones otherwise; the
    // taint check on both.
    let mut expected: Vec<String> = match job {
        Job::Full(_) => report::expected_selftests(),
        Job::Listed(tables) => tables
            .iter()
            .copied()
            .flatten()
            .map(|(n, _)| n.to_string())
            .collect(),
    };
    expected.push("taint".into());
    let vmsum = report::vm_results(&r, &mods, p.kunit, &expected);
    say!(
        "test: VM ({}): {} passed, {} failed, {} skipped in {} (boot {})",
        p.name,
        vmsum.passed,
        vmsum.failed,
        vmsum.skipped,
        fmt_dur(r.elapsed),
        r.boot_time.map(fmt_dur).unwrap_or_else(|| "-".into())
    );
    Ok(vmsum)
}

fn cmd_test(o: &TestArgs) -> Result<u8> {
    let t0 = Instant::now();
    let mut total = ktap::Summary::default();

    // 0. Packages (the host tests build the receiver's BPF object with clang and libbpf-dev).
    deps::ensure()?;
    if o.scenarios {
        return test_scenarios(o, t0);
    }

    // 1. Host tests.
    say!("test: host tests (cargo test --workspace)");
    let th = Instant::now();
    let mut host = report::cargo_test(&["--workspace", "--no-fail-fast"])?;
    say!(
        "test: host: {} passed, {} failed, {} ignored in {}",
        host.passed,
        host.failed,
        host.skipped,
        fmt_dur(th.elapsed())
    );
    // The simulator's sweep on a real single-node Slurm (Debian's slurm-wlm daemons, started
    // by the test with its own configuration; deps installs them): the job array, its outputs
    // and the collect step, against the same sweep run locally.
    say!("test: sweep on Slurm (cargo test -p rdcc-sim --test sweep -- --ignored)");
    let ts = Instant::now();
    let slurm = report::cargo_test(&["-p", "rdcc-sim", "--test", "sweep", "--", "--ignored"])?;
    say!(
        "test: Slurm: {} passed, {} failed in {}",
        slurm.passed,
        slurm.failed,
        fmt_dur(ts.elapsed())
    );
    // The host run's ignored tests are this one (`#[ignore]`: it needs the daemons), run here:
    // they are not skipped, so they are not counted as such.
    let mut ran = slurm.passed + slurm.failed;
    host.results.retain(|r| {
        let drop = ran > 0 && r.outcome == ktap::Outcome::Skip;
        ran -= usize::from(drop);
        !drop
    });
    host.skipped = host
        .results
        .iter()
        .filter(|r| r.outcome == ktap::Outcome::Skip)
        .count();
    total.extend("host/", host);
    total.extend("slurm/", slurm);
    let td = Instant::now();
    let doc = report::cargo_doc()?;
    say!(
        "test: docs: {} in {}",
        if doc.failed == 0 {
            "no rustdoc warnings"
        } else {
            "rustdoc warnings (above)"
        },
        fmt_dur(td.elapsed())
    );
    total.extend("host/", doc);

    // 2. The VMs: the default (qemu) profile runs a functional pass of every selftest, the debug
    //    boot (uml-debug, virtual time) every selftest with the performance trials, the distro
    //    profile the functional ones; --kernel picks one profile, with everything.
    let plan: Vec<(&'static kernel::Profile, Job)> = match o.kernel {
        // uml-debug is the default plan's debug boot: the same job as there.
        Some(p) if p.name == "uml-debug" => vec![(p, Job::Full(DEBUG_ENV))],
        Some(p) => vec![(p, Job::Full(""))],
        None => vec![
            (&kernel::PROFILES[0], Job::Full(QEMU_ENV)),
            (kernel::profile("distro")?, Job::Listed(DISTRO_SELFTESTS)),
            (kernel::profile("uml-debug")?, Job::Full(DEBUG_ENV)),
        ],
    };
    for (p, job) in plan {
        let tp = Instant::now();
        let vmsum = vm_test(p, o, job)?;
        total.extend(&format!("vm-{}/", p.name), vmsum);
        say!("test: {} profile done in {}", p.name, fmt_dur(tp.elapsed()));
        let k = kernel::ensure_profile(p)?;
        total.extend(&format!("install-{}/", p.name), modules::install_check(&k)?);
        if p.name == "distro" {
            total.extend("dkms/", dkms::check(&k)?);
        }
        // The behaviour checks at datacenter rates (issue #36 item 6): on a virtual-time
        // profile, the datacenter scenarios judged by their absolute bounds (bounds.rs), in a
        // boot of their own; on the debug boot they run under KASAN/UBSAN/lockdep at no
        // virtual-time cost.
        if scenario::Bed::of(p) == scenario::Bed::Uml {
            let ts = Instant::now();
            total.extend(
                &format!("scenario-{}/", p.name),
                experiment::test(p, o.quiet)?,
            );
            say!(
                "test: {} datacenter scenarios done in {}",
                p.name,
                fmt_dur(ts.elapsed())
            );
        }
    }
    // 3. The per-ACK cost benchmark once, as a smoke test: it must complete (its method check
    //    included) and print the table; its numbers are for Documentation/results/cost.md, not
    //    thresholds. Default plan only (it boots the qemu profile).
    if o.kernel.is_none() {
        let all: Vec<String> = bench::ALGOS.iter().map(|s| s.to_string()).collect();
        let code = bench::run(&all, None, 900, true)?;
        let mut b = ktap::Summary::default();
        b.record(
            "cargo xtask bench completed (method check, every algorithm's line)",
            code == 0,
        );
        total.extend("bench/", b);
        // 4. Every built-in scenario, shortened, in one boot: the data channel, the series and
        //    each scenario's functional checks against a reference pass of that boot.
        total.extend(
            "scenario/",
            experiment::test(&kernel::PROFILES[0], o.quiet)?,
        );
    }

    finish(&total, t0)
}

/// `cargo xtask test --scenarios`: the scenario checks alone, of `--kernel`'s bed or of the
/// default plan's two (uml-debug's datacenter set, then qemu's built-in set).
fn test_scenarios(o: &TestArgs, t0: Instant) -> Result<u8> {
    let mut total = ktap::Summary::default();
    let profiles: Vec<&'static kernel::Profile> = match o.kernel {
        Some(p) => vec![p],
        None => vec![kernel::profile("uml-debug")?, &kernel::PROFILES[0]],
    };
    for p in profiles {
        let ts = Instant::now();
        let prefix = match scenario::Bed::of(p) {
            scenario::Bed::Uml => format!("scenario-{}/", p.name),
            scenario::Bed::Qemu => "scenario/".to_string(),
        };
        total.extend(&prefix, experiment::test(p, o.quiet)?);
        say!(
            "test: {} scenarios done in {}",
            p.name,
            fmt_dur(ts.elapsed())
        );
    }
    finish(&total, t0)
}

/// The end of a test run: every failure by name, the time, `N passed, N failed`; exit code 0
/// only if something passed and nothing failed.
fn finish(total: &ktap::Summary, t0: Instant) -> Result<u8> {
    for res in total
        .results
        .iter()
        .filter(|r| r.outcome == ktap::Outcome::Fail)
    {
        println!("FAILED: {}", res.name);
    }
    println!("test: whole run {}", fmt_dur(t0.elapsed()));
    if total.skipped > 0 {
        println!(
            "{} passed, {} failed, {} skipped",
            total.passed, total.failed, total.skipped
        );
    } else {
        println!("{} passed, {} failed", total.passed, total.failed);
    }
    Ok(if total.failed == 0 && total.passed > 0 {
        0
    } else {
        1
    })
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
