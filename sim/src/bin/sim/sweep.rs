//! `sim sweep`, `sim sweep-point`, `sim sweep-collect`: the command lines of
//! [`rdcc_sim::sweep`]. Invalid input (an option, a grid key or value, any point's scenario, a
//! non-empty output directory without `--force`) exits 2 before anything is written; a point
//! that fails exits 1.

use crate::{existing_file, key_value, refuse};
use rdcc_sim::record;
use rdcc_sim::sweep::{aggregate, run, slurm, Request, SweepFile};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Run a scenario over a grid of seeds × scenario keys × algorithms, on all cores or as a
/// Slurm job array, and aggregate the points into one table.
#[derive(clap::Args, Debug)]
#[command(
    long_about = "Run a scenario over a grid: every seed of --seeds × every value combination of \
        the --grid keys × every algorithm of --algos is one point, an ordinary run into \
        DIR/points/<id>/ with its own run record (run.toml replays it). Every point's scenario \
        is validated before anything runs or is written: invalid input exits 2 naming the \
        option or key.\n\n\
        Locally the points run on --jobs threads (default: all cores) with a progress bar \
        (points done, time left; on a non-terminal a line every 10 s). Then the points' \
        summaries are aggregated per algorithm and grid values over the seeds: every figure's \
        mean, standard deviation and 95 % confidence interval (Student's t), written to \
        DIR/aggregate.csv, aggregate.json and aggregate.txt and printed.\n\n\
        With --slurm nothing runs: DIR/sweep.sbatch is written, a job array whose task i runs \
        `sim sweep-point DIR i`; submit it with sbatch, then `sim sweep-collect DIR` writes \
        and prints the same table.",
    after_help = "Example: sim sweep sim/scenarios/websearch_leafspine_60.toml --seeds 1-3 \
        --algos swift,dctcp --set duration_us=20000 --set workload.stop_us=10000 --no-plots"
)]
pub struct SweepArgs {
    /// The scenario file (TOML), or a run record.
    #[arg(value_name = "SCENARIO.toml", value_parser = existing_file)]
    scenario: PathBuf,
    /// Seeds: numbers and inclusive ranges separated by commas (1,2,5 or 1-3 or 1..=3);
    /// default: the scenario's seed.
    #[arg(long, value_name = "SEEDS")]
    seeds: Option<String>,
    /// Algorithms, separated by spaces or commas (default: the scenario's).
    #[arg(long, value_name = "\"A B\"")]
    algos: Option<String>,
    /// Sweep one scenario key over values (repeatable; values in --set syntax, separated by
    /// commas), e.g. --grid topology.bottleneck_rate_gbps=10,25.
    #[arg(long, value_name = "KEY.PATH=V1,V2")]
    grid: Vec<String>,
    /// Override one scenario value of every point (repeatable), as for a single run.
    #[arg(long = "set", value_name = "KEY.PATH=VALUE", value_parser = key_value)]
    sets: Vec<String>,
    /// The sweep's directory (default results/sim/SCENARIO-sweep).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Points run at once (default: the cores available).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    jobs: Option<u32>,
    /// Write DIR/sweep.sbatch (a Slurm job array, one task per point) instead of running.
    #[arg(long)]
    slurm: bool,
    /// Write CSV only, no PNG plots, in every point.
    #[arg(long)]
    no_plots: bool,
    /// No progress display.
    #[arg(long)]
    quiet: bool,
    /// Empty a non-empty output directory first (never one holding .git or the current
    /// directory).
    #[arg(long)]
    force: bool,
    /// Run points estimated to need more memory or set-up time than this machine has.
    #[arg(long)]
    allow_big: bool,
}

/// Run one point of a sweep directory (a Slurm array task: `sim sweep-point DIR
/// $SLURM_ARRAY_TASK_ID`).
#[derive(clap::Args, Debug)]
pub struct PointArgs {
    /// The sweep's directory (holding sweep.toml).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// The point's index (0 to points - 1; points.csv lists them).
    #[arg(value_name = "INDEX")]
    index: usize,
}

/// Aggregate the points of a sweep directory into aggregate.csv, .json and .txt, and print the
/// table (after a Slurm array).
#[derive(clap::Args, Debug)]
pub struct CollectArgs {
    /// The sweep's directory (holding sweep.toml).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
}

fn jobs_default() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `sim sweep`.
pub fn sweep(a: &SweepArgs, command: Vec<String>) -> ExitCode {
    let req = Request {
        command: command.clone(),
        scenario: a.scenario.clone(),
        sets: a.sets.clone(),
        seeds: a.seeds.clone(),
        algos: a.algos.clone(),
        grid: a.grid.clone(),
        no_plots: a.no_plots,
        allow_big: a.allow_big,
    };
    let (file, warnings) = match SweepFile::define(&req) {
        Ok(f) => f,
        Err(e) => return refuse(e),
    };
    let name = file
        .base
        .get("name")
        .and_then(|v| v.as_str())
        .unwrap_or("sweep")
        .to_string();
    let out = a
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results/sim").join(format!("{name}-sweep")));
    let must_empty = match record::check_out(&out, a.force) {
        Ok(m) => m,
        Err(e) => return refuse(e),
    };
    for w in &warnings {
        eprintln!("sim: warning: {w}");
    }
    if must_empty {
        if let Err(e) = record::empty_out(&out) {
            return fail(e);
        }
    }
    if let Err(e) = file.write(&out) {
        return fail(e);
    }
    let n = file.points.len();
    if a.slurm {
        let abs = |p: &Path| std::fs::canonicalize(p).map_err(|e| format!("{}: {e}", p.display()));
        let written = abs(&out).and_then(|dir| {
            let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
            slurm::write(&file, &dir, &exe)?;
            Ok(dir)
        });
        return match written {
            Ok(dir) => {
                println!(
                    "{n} point(s) in {}; submit: sbatch {}; when the array is done: sim \
                     sweep-collect {}",
                    dir.join(rdcc_sim::sweep::POINTS_CSV).display(),
                    dir.join(slurm::SBATCH_FILE).display(),
                    dir.display()
                );
                ExitCode::SUCCESS
            }
            Err(e) => fail(e),
        };
    }
    let jobs = a.jobs.map_or_else(jobs_default, |j| j as usize);
    let how = if a.quiet {
        run::Progress::Off
    } else {
        run::Progress::Auto
    };
    let t0 = Instant::now();
    if let Err(e) = run::run_all(&out, &file, jobs, &command, how) {
        return fail(format!(
            "failed points (outputs in {}):\n{e}",
            out.display()
        ));
    }
    let wall = t0.elapsed().as_secs_f64();
    let code = collect_into(&out, &file);
    println!(
        "\n{n} point(s) on {} job(s) in {wall:.1} s wall; points, run records and aggregate in {}",
        jobs.min(n),
        out.display()
    );
    code
}

/// `sim sweep-point DIR INDEX`.
pub fn point(a: &PointArgs, command: Vec<String>) -> ExitCode {
    let file = match SweepFile::read(&a.dir) {
        Ok(f) => f,
        Err(e) => return refuse(e),
    };
    let p = match file.point(a.index) {
        Ok(p) => p,
        Err(e) => return refuse(e),
    };
    let t0 = Instant::now();
    match run::run_point(&a.dir, &file, p, &command) {
        Ok(()) => {
            println!(
                "point {} ({}) done in {:.1} s: {}",
                p.id,
                file.describe(p),
                t0.elapsed().as_secs_f64(),
                SweepFile::point_dir(&a.dir, p).display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => fail(format!("point {} ({}): {e}", p.id, file.describe(p))),
    }
}

/// `sim sweep-collect DIR`.
pub fn collect(a: &CollectArgs) -> ExitCode {
    match SweepFile::read(&a.dir) {
        Ok(file) => collect_into(&a.dir, &file),
        Err(e) => refuse(e),
    }
}

/// Aggregate, write and print.
fn collect_into(dir: &Path, file: &SweepFile) -> ExitCode {
    let agg = match aggregate::aggregate(dir, file) {
        Ok(a) => a,
        Err(e) => return fail(e),
    };
    if let Err(e) = agg.write(dir) {
        return fail(e);
    }
    print!("{}", agg.text());
    ExitCode::SUCCESS
}

fn fail(e: String) -> ExitCode {
    eprintln!("sim: {e}");
    ExitCode::FAILURE
}
