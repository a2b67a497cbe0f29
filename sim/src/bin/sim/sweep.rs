//! `sim sweep`, `sim sweep-point`, `sim sweep-collect`, `sim sweep-merge`: the command lines of
//! [`rdcc_sim::sweep`]. Invalid input (an option, a grid key or value, any point's scenario, a
//! non-empty output directory without `--force`) exits 2 before anything is written; a point
//! that fails exits 1.

use crate::{invalid, RunFlags};
use anyhow::{anyhow, Context};
use rdcc_sim::record;
use rdcc_sim::sweep::{aggregate, merge, run, slurm, Request, SweepFile};
use std::path::{Path, PathBuf};
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
    /// The scenario, output directory, algorithms, overrides and flags, as for a single run.
    #[command(flatten)]
    run: RunFlags,
    /// Seeds: numbers and inclusive ranges separated by commas (1,2,5 or 1-3 or 1..=3);
    /// default: the scenario's seed.
    #[arg(long, value_name = "SEEDS")]
    seeds: Option<String>,
    /// Sweep one scenario key over values (repeatable; values in --set syntax, separated by
    /// commas), e.g. --grid topology.bottleneck_rate_gbps=10,25.
    #[arg(long, value_name = "KEY.PATH=V1,V2")]
    grid: Vec<String>,
    /// Points run at once (default: the cores available).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4096))]
    jobs: Option<u32>,
    /// Write DIR/sweep.sbatch (a Slurm job array, one task per point) instead of running.
    #[arg(long)]
    slurm: bool,
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
/// table (after a Slurm array); with --seeds, only those seeds' points, into --out.
#[derive(clap::Args, Debug)]
pub struct CollectArgs {
    /// The sweep's directory (holding sweep.toml).
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// Also write the pooled buffer CDF plots (cdf_*.png, .svg) when the sweep ran with
    /// --no-plots (they need the points' port_series.csv, which --no-plots keeps).
    #[arg(long)]
    plots: bool,
    /// Aggregate only these seeds' points (as sweep's --seeds): the table a sweep of those
    /// seeds alone would give. Needs --out.
    #[arg(long, value_name = "SEEDS", requires = "out")]
    seeds: Option<String>,
    /// Where --seeds writes its aggregate (DIR's own stays the whole sweep's).
    #[arg(long, value_name = "OUT", requires = "seeds")]
    out: Option<PathBuf>,
}

/// Merge sweeps of one scenario, keys and algorithms over disjoint seeds into one directory
/// (its points link to theirs) and aggregate it: the table of all their seeds together.
#[derive(clap::Args, Debug)]
pub struct MergeArgs {
    /// The merged sweep's directory (absent or empty).
    #[arg(value_name = "OUT")]
    out: PathBuf,
    /// The sweeps' directories (each holding sweep.toml and its points, all run).
    #[arg(value_name = "DIR", required = true)]
    dirs: Vec<PathBuf>,
    /// The algorithms merged, separated by commas (default: the first sweep's); every sweep
    /// must have run them.
    #[arg(long, value_name = "A,B")]
    algos: Option<String>,
}

fn jobs_default() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `sim sweep`.
pub fn sweep(a: &SweepArgs, command: Vec<String>) -> anyhow::Result<()> {
    let r = &a.run;
    let req = Request {
        command: command.clone(),
        scenario: r.scenario.clone(),
        sets: r.sets.clone(),
        seeds: a.seeds.clone(),
        algos: r.algos.clone(),
        grid: a.grid.clone(),
        no_plots: r.no_plots,
        allow_big: r.allow_big,
    };
    let (file, warnings) = SweepFile::define(&req).map_err(invalid)?;
    let name = file
        .base
        .get("name")
        .and_then(|v| v.as_str())
        .unwrap_or("sweep")
        .to_string();
    let out = r
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results/sim").join(format!("{name}-sweep")));
    let must_empty = record::check_out(&out, r.force).map_err(invalid)?;
    for w in &warnings {
        eprintln!("sim: warning: {w}");
    }
    if must_empty {
        record::empty_out(&out)?;
    }
    file.write(&out)?;
    let n = file.points.len();
    if a.slurm {
        let dir = std::fs::canonicalize(&out).with_context(|| out.display().to_string())?;
        let exe = std::env::current_exe().context("this program's path")?;
        slurm::write(&file, &dir, &exe)?;
        println!(
            "{n} point(s) in {}; submit: sbatch {}; when the array is done: sim sweep-collect {}",
            dir.join(rdcc_sim::sweep::POINTS_CSV).display(),
            dir.join(slurm::SBATCH_FILE).display(),
            dir.display()
        );
        return Ok(());
    }
    let jobs = a.jobs.map_or_else(jobs_default, |j| j as usize);
    let how = if r.quiet {
        run::Progress::Off
    } else {
        run::Progress::Auto
    };
    let t0 = Instant::now();
    run::run_all(&out, &file, jobs, &command, how)
        .map_err(|e| anyhow!("failed points (outputs in {}):\n{e}", out.display()))?;
    let wall = t0.elapsed().as_secs_f64();
    collect_into(&out, &file, &out, file.sweep.plots)?;
    println!(
        "\n{n} point(s) on {} job(s) in {wall:.1} s wall; points, run records and aggregate in {}",
        jobs.min(n),
        out.display()
    );
    Ok(())
}

/// `sim sweep-point DIR INDEX`.
pub fn point(a: &PointArgs, command: Vec<String>) -> anyhow::Result<()> {
    let file = SweepFile::read(&a.dir).map_err(invalid)?;
    let p = file.point(a.index).map_err(invalid)?;
    let t0 = Instant::now();
    run::run_point(&a.dir, &file, p, &command)
        .with_context(|| format!("point {} ({})", p.id, file.describe(p)))?;
    println!(
        "point {} ({}) done in {:.1} s: {}",
        p.id,
        file.describe(p),
        t0.elapsed().as_secs_f64(),
        SweepFile::point_dir(&a.dir, p).display()
    );
    Ok(())
}

/// `sim sweep-collect DIR`.
pub fn collect(a: &CollectArgs) -> anyhow::Result<()> {
    let file = SweepFile::read(&a.dir).map_err(invalid)?;
    match (&a.seeds, &a.out) {
        (Some(s), Some(out)) => {
            let seeds = rdcc_sim::sweep::parse_seeds(s).map_err(invalid)?;
            let sub = file.only_seeds(&seeds).map_err(invalid)?;
            std::fs::create_dir_all(out).with_context(|| out.display().to_string())?;
            collect_into(&a.dir, &sub, out, sub.sweep.plots || a.plots)
        }
        _ => collect_into(&a.dir, &file, &a.dir, file.sweep.plots || a.plots),
    }
}

/// `sim sweep-merge OUT DIR...`.
pub fn merge(a: &MergeArgs, command: Vec<String>) -> anyhow::Result<()> {
    let sweeps = a
        .dirs
        .iter()
        .map(|d| Ok((d.clone(), SweepFile::read(d)?)))
        .collect::<rdcc_sim::error::Result<Vec<_>>>()
        .map_err(invalid)?;
    let algos = a
        .algos
        .as_deref()
        .map(rdcc_sim::names::split_list)
        .transpose()
        .map_err(invalid)?;
    let (file, sources) = merge::merge(&sweeps, algos, command).map_err(invalid)?;
    if record::check_out(&a.out, false).map_err(invalid)? {
        record::empty_out(&a.out)?;
    }
    merge::write(&a.out, &file, &sources)?;
    collect_into(&a.out, &file, &a.out, file.sweep.plots)
}

/// Aggregate the points of `file` in `dir`, write the tables into `out` and print; with
/// `plots`, also the pooled CDF plots into `out`.
fn collect_into(dir: &Path, file: &SweepFile, out: &Path, plots: bool) -> anyhow::Result<()> {
    let agg = aggregate::aggregate(dir, file)?;
    agg.write(out)?;
    print!("{}", agg.text());
    if plots {
        for f in agg.write_plots(out)? {
            println!("plot: {}", f.display());
        }
    }
    Ok(())
}
