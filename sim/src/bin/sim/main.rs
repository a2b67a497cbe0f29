//! `sim SCENARIO.toml [--out DIR] [--algos "a b"] [--set key.path=value]... [--no-plots]
//! [--quiet] [--force] [--allow-big]`: run a scenario (with `--set` overrides, e.g. `--set fabric.pfc=true`),
//! write CSV and PNG files and the run record `run.toml` under DIR (default
//! `results/sim/<scenario name>`), print the summary table. A run record is a scenario too:
//! `sim DIR/run.toml --out OTHER` replays the run. Any invalid input, or a non-empty DIR
//! without `--force`, or a scenario estimated too big for this machine without `--allow-big`,
//! exits 2 before anything runs (`sim --help`).
//!
//! `sim sweep`, `sim sweep-point`, `sim sweep-collect` and `sim sweep-merge` run a grid of seeds × scenario keys ×
//! algorithms, locally in parallel or as a Slurm job array (`sweep.rs`). They are told apart
//! by the first argument, so a scenario's command line stays as it was.
//!
//! `sim compare RUN_DIR... --out DIR` overlays saved runs (`sim compare --help`).

mod sweep;

use clap::{Parser, Subcommand};
use rdcc_sim::preflight::{self, Verdict};
use rdcc_sim::scenario::summary_header;
use rdcc_sim::{record, Scenario};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "sim",
    version,
    about = "Run a simulator scenario: CSV and PNG files, and the summary table",
    long_about = "Run a simulator scenario (sim/scenarios/*.toml): every algorithm it lists over \
        its topology and workload, CSV and PNG files under DIR, the summary table on stdout.\n\n\
        The scenario, with its --set overrides and --algos, is parsed and validated before \
        anything runs: invalid input exits 2 and writes nothing. A run never mixes with an \
        older one: a non-empty DIR is refused unless --force, which empties it first. The \
        topology's memory and set-up time are estimated before anything is built: printed \
        when large, refused beyond this machine unless --allow-big. A run no flow of which \
        crosses the monitored bottleneck is warned about (stderr, summary, run record).\n\n\
        DIR/run.toml records the run (command line, the final scenario in full, seed, git \
        commit and dirty state, compiler, host, start and wall time); it is a scenario \
        itself: `sim DIR/run.toml --out OTHER` reproduces the run's outputs.",
    after_help = "Example: sim sim/scenarios/incast_64to1.toml --set fabric.pfc=true --algos \"swift dctcp\"\n\n\
        Sweeps (sim sweep --help): sim sweep SCENARIO.toml [--seeds 1-3] [--algos A,B] [--grid KEY=V1,V2]... \
        [--jobs N] [--slurm]; sim sweep-point DIR INDEX; sim sweep-collect DIR [--seeds S --out OUT]; sim sweep-merge OUT DIR..."
)]
struct Cli {
    #[command(flatten)]
    run: RunFlags,
}

/// The options of a run that `sim` and `sim sweep` share.
#[derive(clap::Args, Debug)]
pub(crate) struct RunFlags {
    /// The scenario file (TOML), or a run record (DIR/run.toml) to replay.
    #[arg(value_name = "SCENARIO.toml", value_parser = existing_file)]
    pub scenario: PathBuf,
    /// Output directory (default results/sim/SCENARIO, the scenario's name; a sweep's:
    /// results/sim/SCENARIO-sweep).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Algorithms instead of the scenario's, separated by spaces or commas: laws or the
    /// scenario's [cc.*] profiles.
    #[arg(long, value_name = "\"A B\"")]
    pub algos: Option<String>,
    /// Override one scenario value before validation (repeatable; the value in TOML syntax, a
    /// bare word is a string; a key with a unit takes the file's forms; a sweep applies it to
    /// every point), e.g. --set fabric.pfc=true, --set cc.swift.base_target_ns=25us.
    #[arg(long = "set", value_name = "KEY.PATH=VALUE", value_parser = key_value)]
    pub sets: Vec<String>,
    /// Write CSV only, no PNG plots (in every point of a sweep).
    #[arg(long)]
    pub no_plots: bool,
    /// No progress display.
    #[arg(long)]
    pub quiet: bool,
    /// Empty a non-empty output directory first (never one holding .git or the current
    /// directory).
    #[arg(long)]
    pub force: bool,
    /// Run a scenario (a sweep's points) estimated to need more memory or set-up time than
    /// this machine has.
    #[arg(long)]
    pub allow_big: bool,
}

fn existing_file(s: &str) -> anyhow::Result<PathBuf> {
    let p = PathBuf::from(s);
    anyhow::ensure!(p.is_file(), "no such file: {s}");
    Ok(p)
}

fn key_value(s: &str) -> anyhow::Result<String> {
    match s.split_once('=') {
        Some((k, _)) if !k.trim().is_empty() && !k.split('.').any(str::is_empty) => {
            Ok(s.to_string())
        }
        _ => anyhow::bail!("{s:?} is not KEY.PATH=VALUE"),
    }
}

/// Invalid input found after the command line was parsed (a bad value in the scenario, an
/// override, --algos, the output directory, the size estimate): printed as `sim: error: ...`
/// without clap's usage text (the command line was fine), exit 2. Any other error is a
/// failure while running: `sim: ...`, exit 1.
#[derive(Debug, thiserror::Error)]
#[error("{0:#}")]
pub(crate) struct Invalid(anyhow::Error);

/// `e` as invalid input ([`Invalid`]).
pub(crate) fn invalid(e: impl Into<anyhow::Error>) -> anyhow::Error {
    Invalid(e.into()).into()
}

/// A command's end: its exit code, with the error printed.
pub(crate) fn exit(r: anyhow::Result<()>) -> ExitCode {
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.is::<Invalid>() => {
            eprintln!("sim: error: {e:#}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("sim: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// The sweep commands, told apart from a scenario run by the first argument.
#[derive(Parser, Debug)]
#[command(name = "sim", version)]
struct SweepCli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    Sweep(sweep::SweepArgs),
    SweepPoint(sweep::PointArgs),
    SweepCollect(sweep::CollectArgs),
    SweepMerge(sweep::MergeArgs),
}

/// The first arguments that name a sweep command.
const SWEEP_COMMANDS: [&str; 4] = ["sweep", "sweep-point", "sweep-collect", "sweep-merge"];

fn main() -> ExitCode {
    let command: Vec<String> = std::env::args().collect();
    // `sim compare RUN_DIR... --out DIR`: saved runs overlaid (rdcc_sim::compare).
    if command.get(1).is_some_and(|a| a == "compare") {
        return rdcc_sim::compare::main(command.into_iter().skip(1));
    }
    if command
        .get(1)
        .is_some_and(|a| SWEEP_COMMANDS.contains(&a.as_str()))
    {
        return match SweepCli::parse().cmd {
            Cmd::Sweep(a) => exit(sweep::sweep(&a, command)),
            Cmd::SweepPoint(a) => exit(sweep::point(&a, command)),
            Cmd::SweepCollect(a) => exit(sweep::collect(&a)),
            Cmd::SweepMerge(a) => exit(sweep::merge(&a, command)),
        };
    }
    exit(run(&Cli::parse().run, command))
}

/// `sim SCENARIO.toml ...`.
fn run(cli: &RunFlags, command: Vec<String>) -> anyhow::Result<()> {
    // Fields and names first: nothing is built until the size estimate has passed.
    let mut sc = Scenario::load_fields(&cli.scenario, &cli.sets).map_err(invalid)?;
    if let Some(a) = &cli.algos {
        sc.algorithms =
            rdcc_sim::names::split_list(a).map_err(|e| invalid(e.context("--algos")))?;
        sc.validate_fields()
            .map_err(|e| invalid(e.context("--algos")))?;
    }
    sc.report.plots &= !cli.no_plots;
    let out = cli
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results/sim").join(&sc.name));
    let must_empty = record::check_out(&out, cli.force).map_err(invalid)?;
    let est = preflight::estimate(&sc);
    match preflight::Limits::machine().judge(&est) {
        Verdict::Fine => {}
        Verdict::Note(n) => eprintln!("sim: {n}"),
        Verdict::Refuse(r) if !cli.allow_big => return Err(invalid(anyhow::anyhow!(r))),
        Verdict::Refuse(r) => eprintln!("sim: {r} (--allow-big: running)"),
    }
    sc.validate()
        .and_then(|()| sc.check_builds())
        .map_err(|e| invalid(Scenario::locate_error(&cli.scenario, &cli.sets, e)))?;
    let warnings = sc.warnings().map_err(invalid)?;
    for w in &warnings {
        eprintln!("sim: warning: {w}");
    }
    if must_empty {
        record::empty_out(&out)?;
    }
    let started = record::Started::now();
    let (results, table) = sc.run_all(&out, !cli.quiet)?;
    let run = started.finish(command, &sc, warnings.clone());
    record::write_record(&out, &run, &sc)?;
    print!("{}", summary_header(&sc, &warnings));
    println!();
    print!("{table}");
    let ev: u64 = results.iter().map(|r| r.out.counters.events).sum();
    println!(
        "\n{} run(s), {} events in {:.1} s wall; output and run record in {}",
        results.len(),
        ev,
        run.wall_s,
        out.display()
    );
    Ok(())
}
