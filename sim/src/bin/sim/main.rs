//! `sim SCENARIO.toml [--out DIR] [--algos "a b"] [--set key.path=value]... [--no-plots]
//! [--quiet] [--force] [--allow-big]`: run a scenario (with `--set` overrides, e.g. `--set fabric.pfc=true`),
//! write CSV and PNG files and the run record `run.toml` under DIR (default
//! `results/sim/<scenario name>`), print the summary table. A run record is a scenario too:
//! `sim DIR/run.toml --out OTHER` replays the run. Any invalid input, or a non-empty DIR
//! without `--force`, or a scenario estimated too big for this machine without `--allow-big`,
//! exits 2 before anything runs (`sim --help`).
//!
//! `sim sweep`, `sim sweep-point` and `sim sweep-collect` run a grid of seeds × scenario keys ×
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
        [--jobs N] [--slurm]; sim sweep-point DIR INDEX; sim sweep-collect DIR"
)]
struct Cli {
    /// The scenario file (TOML), or a run record (DIR/run.toml) to replay.
    #[arg(value_name = "SCENARIO.toml", value_parser = existing_file)]
    scenario: PathBuf,
    /// Output directory (default results/sim/SCENARIO, the scenario's name).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Algorithms instead of the scenario's, separated by spaces or commas: laws or the
    /// scenario's [cc.*] profiles.
    #[arg(long, value_name = "\"A B\"")]
    algos: Option<String>,
    /// Override one scenario value before validation (repeatable; the value in TOML syntax, a
    /// bare word is a string; a key with a unit takes the file's forms), e.g. --set
    /// fabric.pfc=true, --set cc.swift.base_target_ns=25us.
    #[arg(long = "set", value_name = "KEY.PATH=VALUE", value_parser = key_value)]
    sets: Vec<String>,
    /// Write CSV only, no PNG plots.
    #[arg(long)]
    no_plots: bool,
    /// No per-run progress lines.
    #[arg(long)]
    quiet: bool,
    /// Empty a non-empty output directory first (never one holding .git or the current
    /// directory).
    #[arg(long)]
    force: bool,
    /// Run a scenario estimated to need more memory or set-up time than this machine has.
    #[arg(long)]
    allow_big: bool,
}

pub(crate) fn existing_file(s: &str) -> Result<PathBuf, String> {
    let p = PathBuf::from(s);
    if p.is_file() {
        Ok(p)
    } else {
        Err(format!("no such file: {s}"))
    }
}

pub(crate) fn key_value(s: &str) -> Result<String, String> {
    match s.split_once('=') {
        Some((k, _)) if !k.trim().is_empty() && !k.split('.').any(str::is_empty) => {
            Ok(s.to_string())
        }
        _ => Err(format!("{s:?} is not KEY.PATH=VALUE")),
    }
}

/// Invalid input found after the command line was parsed (a bad value in the scenario, an
/// override, --algos, the output directory, the size estimate): the message alone, without
/// clap's usage text (the command line was fine), exit 2.
pub(crate) fn refuse(msg: String) -> ExitCode {
    eprintln!("sim: error: {msg}");
    ExitCode::from(2)
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
}

/// The first arguments that name a sweep command.
const SWEEP_COMMANDS: [&str; 3] = ["sweep", "sweep-point", "sweep-collect"];

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
            Cmd::Sweep(a) => sweep::sweep(&a, command),
            Cmd::SweepPoint(a) => sweep::point(&a, command),
            Cmd::SweepCollect(a) => sweep::collect(&a),
        };
    }
    let cli = Cli::parse();
    // Fields and names first: nothing is built until the size estimate has passed.
    let mut sc = match Scenario::load_fields(&cli.scenario, &cli.sets) {
        Ok(s) => s,
        Err(e) => return refuse(e),
    };
    if let Some(a) = &cli.algos {
        sc.algorithms = match rdcc_sim::names::split_list(a) {
            Ok(v) => v,
            Err(e) => return refuse(format!("--algos: {e}")),
        };
        if let Err(e) = sc.validate_fields() {
            return refuse(format!("--algos: {e}"));
        }
    }
    sc.report.plots &= !cli.no_plots;
    let out = cli
        .out
        .unwrap_or_else(|| PathBuf::from("results/sim").join(&sc.name));
    let must_empty = match record::check_out(&out, cli.force) {
        Ok(m) => m,
        Err(e) => return refuse(e),
    };
    let est = preflight::estimate(&sc);
    match preflight::Limits::machine().judge(&est) {
        Verdict::Fine => {}
        Verdict::Note(n) => eprintln!("sim: {n}"),
        Verdict::Refuse(r) if !cli.allow_big => return refuse(r),
        Verdict::Refuse(r) => eprintln!("sim: {r} (--allow-big: running)"),
    }
    if let Err(e) = sc.validate().and_then(|()| sc.check_builds()) {
        return refuse(Scenario::locate_error(&cli.scenario, &cli.sets, e));
    }
    let warnings = match sc.warnings() {
        Ok(w) => w,
        Err(e) => return refuse(e),
    };
    for w in &warnings {
        eprintln!("sim: warning: {w}");
    }
    if must_empty {
        if let Err(e) = record::empty_out(&out) {
            eprintln!("sim: {e}");
            return ExitCode::FAILURE;
        }
    }
    let started = record::Started::now();
    match sc.run_all(&out, !cli.quiet) {
        Ok((results, table)) => {
            let run = started.finish(command, &sc, warnings.clone());
            if let Err(e) = record::write_record(&out, &run, &sc) {
                eprintln!("sim: {e}");
                return ExitCode::FAILURE;
            }
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
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("sim: {e}");
            ExitCode::FAILURE
        }
    }
}
