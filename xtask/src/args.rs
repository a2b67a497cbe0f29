//! The harness's command line (clap derive, the same style as the `rdcc` command in cli/).
//!
//! Every command has its own options and help (`cargo xtask run --help`); an option given to a
//! command it does not apply to, a value out of range or an unknown algorithm is refused with
//! exit status 2 before anything is installed, built or booted. Values whose check needs the
//! chosen kernel profile (the `--algos` of `run` and `bench`) are checked by [`Cli::check`]
//! right after parsing, still before any work.

use crate::algos;
use crate::kernel::{self, Profile};
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Args, CommandFactory, Parser, Subcommand};
use std::path::PathBuf;

/// Bottleneck rate range, Mbit/s: HTB takes any positive integer rate, but above 10 Gbit/s the
/// emulated guest (TCG, ~1 Gbit/s at best) cannot get near it and the number would be fiction.
pub const RATE_MBIT: std::ops::RangeInclusive<i64> = 1..=10_000;
/// netem delay range, µs: 0 (no delay) to 1 s, far beyond any datacenter path.
pub const DELAY_US: std::ops::RangeInclusive<i64> = 0..=1_000_000;
/// iperf3 duration range, s.
pub const DURATION_S: std::ops::RangeInclusive<i64> = 1..=3600;
/// VM timeout range, s: up to one day.
pub const TIMEOUT_S: std::ops::RangeInclusive<u64> = 1..=86_400;

const AFTER_HELP: &str = "\
Environment:
  RDCC_CACHE_DIR   kernel build cache (default ~/.cache/rdcc)
  RDCC_KVM=0|1     force TCG or KVM (default: a probe boot decides once per host boot)

`cargo xtask <command> --help` describes one command and its options.";

#[derive(Parser, Debug)]
#[command(
    name = "cargo xtask",
    bin_name = "cargo xtask",
    about = "The rdcc harness: builds the kernel and modules, boots QEMU, runs tests and experiments",
    long_about = "The rdcc harness: builds the Rust-enabled Linux 6.12 kernel and the modules, boots \
        QEMU, runs the tests and the experiments, and reports. Every command installs what it \
        needs (`deps`) first.",
    after_help = AFTER_HELP,
    arg_required_else_help = true
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Install missing Debian packages and bindgen-cli (idempotent).
    Deps,
    /// Build (or reuse) the cached Rust-enabled Linux 6.12 kernel; prints the bzImage path.
    Kernel(ProfileArgs),
    /// Build the out-of-tree modules under modules/ against that kernel; prints their paths.
    Modules(ProfileArgs),
    /// modules_install into a private tree and Debian's dkms add/build/install, against a kernel
    /// profile's tree; prints each result.
    Dkms(DkmsArgs),
    /// Boot the VM and run CMD in it (an interactive shell when no CMD is given).
    #[command(after_help = "Example: cargo xtask vm -- sh /selftests/rdcc_select.sh")]
    Vm(VmArgs),
    /// Host tests, then the VM boots running KUnit and the selftests; ends with `N passed, N
    /// failed`.
    #[command(
        long_about = "Host tests (cargo test --workspace) and a rustdoc check (cargo doc, warnings as \
        errors), then one VM boot of the qemu kernel running \
        KUnit and every selftest, one of the distro kernel running the functional selftests, the \
        install and DKMS checks and a `bench` smoke run; ends with `N passed, N failed`. With \
        --kernel, one boot of that profile running everything (no bench)."
    )]
    Test(TestArgs),
    /// The main experiment: iperf3 through the netns bottleneck for each algorithm, as a table.
    Run(RunArgs),
    /// Per-ACK cost of every congestion control in instructions, counted in the guest kernel
    /// under QEMU -icount (Documentation/results/cost.md).
    Bench(BenchArgs),
    /// Run a simulator scenario (sim/scenarios/*.toml) in release: CSV, figures (PNG, SVG) and the summary
    /// table. `cargo xtask sim compare RUN_DIR... --out DIR` overlays saved runs (`sim compare`).
    Sim(SimArgs),
    /// A simulator sweep: seeds × scenario keys × algorithms on all cores (or a Slurm job
    /// array with --slurm), aggregated into one table of means with 95 % confidence intervals.
    #[command(
        after_help = "Example: cargo xtask sweep websearch_leafspine_60 --seeds 1-3 --algos swift,dctcp \
        --set duration_us=20000 --set workload.stop_us=10000 --no-plots\n\
        The sim binary's own help: target/release/sim sweep --help"
    )]
    Sweep(SweepArgs),
}

/// The kernel profiles as clap values, with their one-line descriptions for `--help`.
fn profile_parser() -> impl TypedValueParser<Value = &'static Profile> {
    PossibleValuesParser::new(
        kernel::PROFILES
            .iter()
            .map(|p| PossibleValue::new(p.name).help(p.about)),
    )
    .try_map(|name| kernel::profile(&name).map_err(|e| e.msg))
}

fn timeout_parser() -> impl TypedValueParser<Value = u64> {
    clap::value_parser!(u64).range(TIMEOUT_S)
}

#[derive(Args, Debug, Clone)]
pub struct ProfileArgs {
    /// Kernel profile.
    #[arg(long, value_name = "PROFILE", value_parser = profile_parser(), default_value = "qemu")]
    pub kernel: &'static Profile,
}

#[derive(Args, Debug, Clone)]
pub struct DkmsArgs {
    /// Kernel profile whose tree the modules are installed against.
    #[arg(long, value_name = "PROFILE", value_parser = profile_parser(), default_value = "distro")]
    pub kernel: &'static Profile,
}

#[derive(Args, Debug, Clone)]
pub struct VmArgs {
    /// Kernel profile to boot.
    #[arg(long, value_name = "PROFILE", value_parser = profile_parser(), default_value = "qemu")]
    pub kernel: &'static Profile,
    /// Power the VM off after this many seconds.
    #[arg(long, value_name = "SECS", value_parser = timeout_parser(), default_value_t = 600)]
    pub timeout: u64,
    /// Do not stream the VM console (it is still logged to target/rdcc/vm-console.log).
    #[arg(long)]
    pub quiet: bool,
    /// Command (and its arguments) to run in the guest, after `--`.
    #[arg(last = true, value_name = "CMD")]
    pub cmd: Vec<String>,
}

#[derive(Args, Debug, Clone)]
pub struct TestArgs {
    /// Run everything on this one kernel profile (default: the full suite on qemu, the
    /// functional selftests and DKMS on distro, and the bench smoke run).
    #[arg(long, value_name = "PROFILE", value_parser = profile_parser())]
    pub kernel: Option<&'static Profile>,
    /// Timeout of each VM boot.
    #[arg(long, value_name = "SECS", value_parser = timeout_parser(), default_value_t = 2700)]
    pub timeout: u64,
    /// Do not stream the VM console (it is still logged under target/rdcc).
    #[arg(long)]
    pub quiet: bool,
    /// Only the scenario checks: the datacenter scenarios judged by their bounds on a UML
    /// profile (the default plan's uml-debug), the built-in ones against a reference pass on
    /// QEMU; no host tests, selftests, install checks or bench.
    #[arg(long)]
    pub scenarios: bool,
}

/// `cargo xtask run`: everything that describes one experiment run. New run options go here
/// (and into [`RunArgs::check`] when their check needs another option's value).
#[derive(Args, Debug, Clone)]
pub struct RunArgs {
    /// Kernel profile to boot.
    #[arg(long, value_name = "PROFILE", value_parser = profile_parser(), default_value = "qemu")]
    pub kernel: &'static Profile,
    /// Power the VM off after this many seconds.
    #[arg(long, value_name = "SECS", value_parser = timeout_parser(), default_value_t = 1200)]
    pub timeout: u64,
    /// Do not stream the VM console (it is still logged to target/rdcc/run-console.log).
    #[arg(long)]
    pub quiet: bool,
    /// Algorithms, separated by spaces or commas (default: cubic, dctcp and our four modules);
    /// checked against the profile's kernel config and modules/Kbuild.
    #[arg(long, value_name = "\"A B\"")]
    pub algos: Option<String>,
    /// Bottleneck rate (HTB), Mbit/s [1..=10000].
    #[arg(long, value_name = "MBIT", value_parser = clap::value_parser!(u32).range(RATE_MBIT), default_value_t = 50)]
    pub rate: u32,
    /// Bottleneck netem delay in the data direction, µs [0..=1000000]; the rdcc profile in
    /// selftests/rdcc_cc.sh is derived for 2000.
    #[arg(long, value_name = "US", value_parser = clap::value_parser!(u32).range(DELAY_US), default_value_t = 2000)]
    pub delay_us: u32,
    /// iperf3 duration of each single-flow run, s [1..=3600].
    #[arg(long, value_name = "SECS", value_parser = clap::value_parser!(u32).range(DURATION_S), default_value_t = 8)]
    pub duration: u32,
    /// Run scenario files instead of the classic table: a built-in name (scenarios/vm/NAME.toml:
    /// baseline, eight_flows, late_joiner, incast, lossy; dc_one_flow, dc_eight_flows,
    /// dc_incast_16to1, dc_one_flow_25g, dc_multihop, dc_int_incast_10to1, dc_int_fairness,
    /// dc_int_fairness_gso1, dc_int_websearch on --kernel uml), a path to a TOML file, `default` (baseline and eight_flows, what `make`
    /// runs), `datacenter` (the three dc_ ones) or `int` (the two through the software INT
    /// switch). Per-flow CSV, JSON
    /// and figures (PNG, SVG) land in
    /// results/vm/SCENARIO/; --algos replaces the scenario's algorithms. The file is checked
    /// before anything is built.
    #[arg(long, value_name = "NAME|PATH")]
    pub scenario: Option<String>,
}

impl RunArgs {
    /// The algorithms to run, checked against what the chosen kernel profile and our modules
    /// offer. Runs before any build.
    pub fn check(&self) -> Result<Vec<String>, String> {
        let avail = algos::available(self.kernel).map_err(|e| e.msg)?;
        match &self.algos {
            Some(a) => algos::parse_list(a, &avail).map_err(|e| format!("--algos: {e}")),
            None => {
                let mut d = vec!["cubic".to_string(), "dctcp".to_string()];
                d.extend(algos::ours_default().map_err(|e| e.msg)?);
                Ok(d)
            }
        }
    }
}

#[derive(Args, Debug, Clone)]
pub struct BenchArgs {
    /// Algorithms, separated by spaces or commas (default: reno cubic dctcp bbr vegas and our
    /// four); checked against the qemu profile's config and modules/Kbuild.
    #[arg(long, value_name = "\"A B\"")]
    pub algos: Option<String>,
    /// Also measure our modules as built from commit REV, in the same boot (a before/after
    /// table).
    #[arg(long, value_name = "REV")]
    pub before: Option<String>,
    /// Power the VM off after this many seconds.
    #[arg(long, value_name = "SECS", value_parser = timeout_parser(), default_value_t = 1800)]
    pub timeout: u64,
    /// Do not stream the VM console (it is still logged to target/rdcc/bench-console.log).
    #[arg(long)]
    pub quiet: bool,
}

impl BenchArgs {
    /// The algorithms to measure (the benchmark always boots the default, qemu, profile).
    pub fn check(&self) -> Result<Vec<String>, String> {
        if let Some(rev) = &self.before {
            let spec = format!("{rev}^{{commit}}");
            let ok = std::process::Command::new("git")
                .arg("-C")
                .arg(crate::util::repo_root())
                .args(["rev-parse", "--verify", "--quiet", &spec])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if !ok {
                return Err(format!(
                    "--before: {rev:?} is not a commit of this repository"
                ));
            }
        }
        let avail = algos::available(&kernel::PROFILES[0]).map_err(|e| e.msg)?;
        match &self.algos {
            Some(a) => algos::parse_list(a, &avail).map_err(|e| format!("--algos: {e}")),
            None => Ok(crate::bench::ALGOS.iter().map(|s| s.to_string()).collect()),
        }
    }
}

#[derive(Args, Debug, Clone)]
pub struct SimArgs {
    /// A scenario name in sim/scenarios (`sl_incast_16to1`) or a path to a TOML file; it must
    /// exist (the simulator parses and validates it before running anything).
    #[arg(value_name = "SCENARIO", value_parser = parse_scenario, required_unless_present = "vm_scenario", conflicts_with = "vm_scenario")]
    pub scenario: Option<PathBuf>,
    /// Instead of SCENARIO: a VM scenario (scenarios/vm/NAME.toml or a path, e.g.
    /// dc_one_flow), translated into the simulator's (xtask/src/vm_sim.rs;
    /// Documentation/results/uml_vs_sim.md); what the simulator cannot model is refused.
    #[arg(long, value_name = "NAME|PATH")]
    pub vm_scenario: Option<String>,
    /// Output directory (default results/sim/SCENARIO, the scenario's name, in the repository).
    #[arg(long, value_name = "DIR", value_parser = absolute)]
    pub out: Option<PathBuf>,
    /// Algorithms instead of the scenario's, separated by spaces or commas.
    #[arg(long, value_name = "\"A B\"")]
    pub algos: Option<String>,
    /// Override one scenario value (repeatable), e.g. --set fabric.pfc=true, or in the
    /// key's unit: --set cc.swift.base_target_ns=25us.
    #[arg(long, value_name = "KEY.PATH=VALUE", value_parser = parse_set)]
    pub set: Vec<String>,
    /// Write CSV only, no figures (PNG, SVG).
    #[arg(long)]
    pub no_plots: bool,
    /// No per-run progress lines (and a quiet cargo build).
    #[arg(long)]
    pub quiet: bool,
    /// Empty a non-empty output directory first (without it, one is refused: a run never
    /// mixes with an older one).
    #[arg(long)]
    pub force: bool,
    /// Run a scenario estimated to need more memory or set-up time than this machine has.
    #[arg(long)]
    pub allow_big: bool,
}

#[derive(Args, Debug, Clone)]
pub struct SweepArgs {
    /// A scenario name in sim/scenarios or a path to a TOML file.
    #[arg(value_name = "SCENARIO", value_parser = parse_scenario)]
    pub scenario: PathBuf,
    /// Seeds: numbers and inclusive ranges separated by commas (1,2,5 or 1-3); default: the
    /// scenario's seed.
    #[arg(long, value_name = "SEEDS")]
    pub seeds: Option<String>,
    /// Algorithms, separated by spaces or commas (default: the scenario's).
    #[arg(long, value_name = "\"A B\"")]
    pub algos: Option<String>,
    /// Sweep one scenario key over values (repeatable), e.g. --grid
    /// topology.bottleneck_rate_gbps=10,25.
    #[arg(long, value_name = "KEY.PATH=V1,V2")]
    pub grid: Vec<String>,
    /// Override one scenario value of every point (repeatable).
    #[arg(long, value_name = "KEY.PATH=VALUE", value_parser = parse_set)]
    pub set: Vec<String>,
    /// The sweep's directory (default results/sim/SCENARIO-sweep, in the repository).
    #[arg(long, value_name = "DIR", value_parser = absolute)]
    pub out: Option<PathBuf>,
    /// Points run at once (default: the cores available).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub jobs: Option<u32>,
    /// Write DIR/sweep.sbatch (a Slurm job array) instead of running; then `sbatch
    /// DIR/sweep.sbatch` and `target/release/sim sweep-collect DIR`.
    #[arg(long)]
    pub slurm: bool,
    /// Write CSV only, no PNG plots.
    #[arg(long)]
    pub no_plots: bool,
    /// No progress display (and a quiet cargo build).
    #[arg(long)]
    pub quiet: bool,
    /// Empty a non-empty output directory first.
    #[arg(long)]
    pub force: bool,
    /// Run points estimated to need more memory or set-up time than this machine has.
    #[arg(long)]
    pub allow_big: bool,
}

/// The scenario files under sim/scenarios, by name.
pub fn scenario_names() -> Vec<String> {
    let dir = crate::util::repo_root().join("sim/scenarios");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| {
                    let n = e.file_name().to_string_lossy().into_owned();
                    n.strip_suffix(".toml").map(String::from)
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// A path that exists, or the name of a file in sim/scenarios (with or without `.toml`).
fn parse_scenario(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    if p.is_file() {
        // Absolute: the simulator runs from the repository root.
        return std::fs::canonicalize(&p).map_err(|e| format!("{s}: {e}"));
    }
    let name = s.trim_end_matches(".toml");
    let in_dir = crate::util::repo_root()
        .join("sim/scenarios")
        .join(format!("{name}.toml"));
    if !name.contains('/') && in_dir.is_file() {
        return Ok(in_dir);
    }
    Err(format!(
        "no scenario file {s:?} and no scenario of that name; built in: {}",
        scenario_names().join(" ")
    ))
}

/// A path relative to the caller's directory, made absolute (the simulator runs from the
/// repository root).
fn absolute(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    if p.is_absolute() {
        return Ok(p);
    }
    std::env::current_dir()
        .map(|d| d.join(p))
        .map_err(|e| format!("{s}: {e}"))
}

fn parse_set(s: &str) -> Result<String, String> {
    match s.split_once('=') {
        Some((k, _)) if !k.trim().is_empty() && !k.split('.').any(str::is_empty) => {
            Ok(s.to_string())
        }
        _ => Err(format!("{s:?} is not KEY.PATH=VALUE")),
    }
}

impl Cli {
    /// Parse the process's arguments; on misuse print the error with the usage and exit 2
    /// (exit 0 for `--help`), before anything runs. Checks that need several options (the
    /// algorithm lists) run here too.
    pub fn parse_checked() -> (Cli, Checked) {
        let cli = Cli::parse();
        match cli.check() {
            Ok(c) => (cli, c),
            Err(msg) => {
                let sub = cli.subcommand_name();
                let mut cmd = Cli::command();
                let cmd = match cmd.find_subcommand_mut(sub) {
                    Some(s) => s.clone().bin_name(format!("cargo xtask {sub}")),
                    None => cmd,
                };
                let mut cmd = cmd;
                cmd.error(clap::error::ErrorKind::ValueValidation, msg)
                    .exit()
            }
        }
    }

    /// The name of the chosen subcommand.
    pub fn subcommand_name(&self) -> &'static str {
        match self.cmd {
            Cmd::Deps => "deps",
            Cmd::Kernel(_) => "kernel",
            Cmd::Modules(_) => "modules",
            Cmd::Dkms(_) => "dkms",
            Cmd::Vm(_) => "vm",
            Cmd::Test(_) => "test",
            Cmd::Run(_) => "run",
            Cmd::Bench(_) => "bench",
            Cmd::Sim(_) => "sim",
            Cmd::Sweep(_) => "sweep",
        }
    }

    /// The checks that need more than one value (or the files of the work tree).
    pub fn check(&self) -> Result<Checked, String> {
        // The uml profiles build, boot and test (`kernel`, `modules`, `vm`, `test`) and run
        // scenarios (`run --scenario`); the classic `run` table and DKMS assume the QEMU guest
        // (issue #36).
        let profile = match &self.cmd {
            Cmd::Run(r) if r.scenario.is_none() => Some(r.kernel),
            Cmd::Dkms(d) => Some(d.kernel),
            _ => None,
        };
        if let Some(p) = profile.filter(|p| p.arch != kernel::Arch::X86) {
            return Err(format!(
                "--kernel {}: only `cargo xtask kernel`, `modules`, `vm`, `test` and \
                 `run --scenario` support this profile so far",
                p.name
            ));
        }
        Ok(match &self.cmd {
            Cmd::Run(r) => {
                let algos = r.check()?;
                let scenarios = match &r.scenario {
                    None => vec![],
                    Some(s) => {
                        let avail = crate::algos::available(r.kernel).map_err(|e| e.msg)?;
                        let names: Vec<&str> = match s.as_str() {
                            "default" => crate::scenario::DEFAULT_SET.to_vec(),
                            "datacenter" => crate::scenario::DC_SET.to_vec(),
                            "int" => crate::scenario::DC_INT_SET.to_vec(),
                            _ => vec![s.as_str()],
                        };
                        let mut v = Vec::new();
                        for n in names {
                            let bed = crate::scenario::Bed::of(r.kernel);
                            let mut sc = crate::scenario::load(n, &avail, bed)
                                .map_err(|e| format!("--scenario: {e}"))?;
                            if r.algos.is_some() {
                                sc.algos = algos.clone();
                            }
                            v.push(sc);
                        }
                        v
                    }
                };
                Checked {
                    algos,
                    scenarios,
                    vm_sim: None,
                }
            }
            Cmd::Bench(b) => Checked {
                algos: b.check()?,
                ..Checked::default()
            },
            Cmd::Sim(a) => Checked {
                vm_sim: match &a.vm_scenario {
                    Some(v) => Some(
                        crate::vm_sim::check(v, a.algos.as_deref(), &a.set)
                            .map_err(|e| format!("--vm-scenario: {e}"))?,
                    ),
                    None => None,
                },
                ..Checked::default()
            },
            _ => Checked::default(),
        })
    }
}

/// Values [`Cli::check`] derived: the checked algorithm list of `run` and `bench`.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Checked {
    pub algos: Vec<String>,
    /// `run --scenario`: the parsed, validated scenarios.
    pub scenarios: Vec<crate::scenario::Scenario>,
    /// `sim --vm-scenario`: the translated scenario, checked by the simulator.
    pub vm_sim: Option<crate::vm_sim::Translated>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::error::ErrorKind;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("cargo-xtask").chain(args.iter().copied()))
    }

    #[test]
    fn command_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// (arguments, expected clap error kind or None for success).
    #[test]
    fn parse_table() {
        use ErrorKind::*;
        let cases: &[(&[&str], Option<ErrorKind>)] = &[
            (&["deps"], None),
            (&["deps", "--rate", "5"], Some(UnknownArgument)),
            (&["kernel", "--algos", "cubic"], Some(UnknownArgument)),
            (&["kernel", "--kernel", "distro"], None),
            (&["kernel", "--kernel", "nosuch"], Some(InvalidValue)),
            (&["modules", "--timeout", "5"], Some(UnknownArgument)),
            (&["dkms"], None),
            (&["vm", "--", "sh", "-c", "echo hi"], None),
            (&["vm", "sh"], Some(UnknownArgument)),
            (&["vm", "--timeout", "0"], Some(ValueValidation)),
            (&["vm", "--rate", "5"], Some(UnknownArgument)),
            (&["test", "--quiet"], None),
            (&["test", "--quiet", "--kernel", "debug"], None),
            (&["test", "--rate", "5"], Some(UnknownArgument)),
            (&["test", "--timeout", "-1"], Some(UnknownArgument)),
            (&["run"], None),
            (&["run", "--rate", "0"], Some(ValueValidation)),
            (&["run", "--rate", "1"], None),
            (&["run", "--rate", "10000"], None),
            (&["run", "--rate", "10001"], Some(ValueValidation)),
            (&["run", "--rate", "4294967346"], Some(ValueValidation)),
            (&["run", "--rate", "fast"], Some(ValueValidation)),
            (&["run", "--delay-us", "0"], None),
            (&["run", "--delay-us", "1000001"], Some(ValueValidation)),
            (&["run", "--duration", "0"], Some(ValueValidation)),
            (&["run", "--duration", "3601"], Some(ValueValidation)),
            (&["run", "--timeout", "0"], Some(ValueValidation)),
            (&["run", "--before", "HEAD"], Some(UnknownArgument)),
            (&["run", "--", "x"], Some(UnknownArgument)),
            (
                &["bench", "--before", "HEAD~1", "--algos", "dctcp swift"],
                None,
            ),
            (&["bench", "--rate", "5"], Some(UnknownArgument)),
            (&["sim"], Some(MissingRequiredArgument)),
            (&["sim", "sl_incast_16to1"], None),
            (&["sim", "sl_incast_16to1.toml", "--no-plots"], None),
            (&["sim", "nosuch_scenario"], Some(ValueValidation)),
            (
                &["sim", "sl_incast_16to1", "--set", "nokey"],
                Some(ValueValidation),
            ),
            (
                &["sim", "sl_incast_16to1", "--set", "a.b=1", "--set", "c=2"],
                None,
            ),
            (
                &["sim", "sl_incast_16to1", "--rate", "5"],
                Some(UnknownArgument),
            ),
            (&["sweep"], Some(MissingRequiredArgument)),
            (
                &[
                    "sweep",
                    "sl_incast_16to1",
                    "--seeds",
                    "1-3",
                    "--algos",
                    "swift,dctcp",
                ],
                None,
            ),
            (
                &["sweep", "sl_incast_16to1", "--grid", "a.b=1,2", "--slurm"],
                None,
            ),
            (&["sweep", "nosuch_scenario"], Some(ValueValidation)),
            (
                &["sweep", "sl_incast_16to1", "--jobs", "0"],
                Some(ValueValidation),
            ),
            (
                &["sweep", "sl_incast_16to1", "--set", "x"],
                Some(ValueValidation),
            ),
            (&["nosuch"], Some(InvalidSubcommand)),
            (&[], Some(DisplayHelpOnMissingArgumentOrSubcommand)),
            (&["run", "--help"], Some(DisplayHelp)),
            (&["help", "run"], Some(DisplayHelp)),
        ];
        for (args, want) in cases {
            let got = parse(args).err().map(|e| e.kind());
            assert_eq!(got, *want, "{args:?}");
        }
    }

    #[test]
    fn defaults_match_the_help() {
        let Ok(Cli { cmd: Cmd::Run(r) }) = parse(&["run"]) else {
            panic!("run parses");
        };
        assert_eq!(
            (r.rate, r.delay_us, r.duration, r.timeout),
            (50, 2000, 8, 1200)
        );
        assert_eq!(r.kernel.name, "qemu");
        let Ok(Cli { cmd: Cmd::Test(t) }) = parse(&["test"]) else {
            panic!("test parses");
        };
        assert_eq!((t.timeout, t.kernel.map(|k| k.name)), (2700, None));
        let Ok(Cli { cmd: Cmd::Dkms(d) }) = parse(&["dkms"]) else {
            panic!("dkms parses");
        };
        assert_eq!(d.kernel.name, "distro");
        let help = Cli::command()
            .find_subcommand_mut("run")
            .map(|c| c.render_long_help().to_string())
            .unwrap_or_default();
        for default in [
            "[default: 50]",
            "[default: 2000]",
            "[default: 8]",
            "[default: 1200]",
        ] {
            assert!(
                help.contains(default),
                "{default} missing from run --help:\n{help}"
            );
        }
    }

    const ALL_BENCH: &[&str] = crate::bench::ALGOS;

    #[test]
    fn algorithms_are_checked_after_parsing() {
        // cubic and dctcp, then our four modules: what `run` and `--scenario datacenter` take.
        const DEFAULT_RUN: &[&str] = &[
            "cubic",
            "dctcp",
            "swift",
            "swift_vaisf",
            "timely",
            "theta_powertcp",
        ];
        type Case<'a> = (&'a [&'a str], Result<&'a [&'a str], &'a str>);
        let cases: &[Case] = &[
            (
                &["run"],
                Ok(DEFAULT_RUN),
            ),
            (
                &["run", "--algos", "bbr,vegas swift"],
                Ok(&["bbr", "vegas", "swift"]),
            ),
            (
                &["run", "--algos", "nosuch"],
                Err("available: reno cubic dctcp vegas bbr swift"),
            ),
            (&["run", "--algos", ""], Err("no algorithm given")),
            (&["bench", "--algos", "reno"], Ok(&["reno"])),
            (
                &["bench", "--algos", "cubci"],
                Err("unknown algorithm \"cubci\""),
            ),
            (&["bench", "--before", "HEAD"], Ok(ALL_BENCH)),
            (
                &["bench", "--before", "no-such-rev-x"],
                Err("is not a commit"),
            ),
            (&["deps"], Ok(&[])),
            // The uml profiles: kernel, modules, vm and test (issue #36).
            (&["vm", "--kernel", "uml", "--", "true"], Ok(&[])),
            (&["kernel", "--kernel", "uml"], Ok(&[])),
            (&["modules", "--kernel", "uml"], Ok(&[])),
            (&["test", "--kernel", "uml-debug"], Ok(&[])),
            (
                &["run", "--kernel", "uml"],
                Err("--kernel uml: only `cargo xtask kernel`, `modules`, `vm`, `test` and `run --scenario`"),
            ),
            (&["dkms", "--kernel", "uml"], Err("--kernel uml: only")),
            // Scenarios on the UML test bed; the datacenter ones only there.
            (
                &["run", "--kernel", "uml", "--scenario", "datacenter"],
                Ok(DEFAULT_RUN),
            ),
            (
                &["run", "--scenario", "dc_one_flow"],
                Err("rate_mbit = 10000: 1..=1000 on the QEMU test bed"),
            ),
            (&["run", "--kernel", "uml", "--scenario", "int"], Ok(DEFAULT_RUN)),
        ];
        for (args, want) in cases {
            let got = parse(args).expect("parses").check();
            match (want, &got) {
                (Ok(w), Ok(g)) => assert_eq!(&g.algos, w, "{args:?}"),
                (Err(w), Err(g)) => assert!(g.contains(w), "{args:?}: {g}"),
                _ => panic!("{args:?}: got {got:?}, want {want:?}"),
            }
        }
    }
}
