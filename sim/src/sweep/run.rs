//! Running a sweep's points: one point ([`run_point`], what a Slurm task does), or all of them
//! on `jobs` threads ([`run_all`]) with a progress display: an `indicatif` bar (points done,
//! elapsed, time left) on a terminal, a plain line at most every [`PLAIN_EVERY`] otherwise.

use super::{Point, SweepFile};
use crate::error::{Error, Result};
use crate::record;
use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Interval of the plain progress lines off a terminal.
pub const PLAIN_EVERY: Duration = Duration::from_secs(10);

/// Run point `p` of the sweep in `dir` into `dir/points/<id>/`, exactly as `sim SCENARIO --out
/// DIR` runs a scenario: its outputs and its run record (with `command`). The point's directory
/// belongs to the sweep: whatever an earlier try left there is removed first.
pub fn run_point(dir: &Path, file: &SweepFile, p: &Point, command: &[String]) -> Result<()> {
    let sc = file.scenario(p)?;
    sc.validate()?;
    let warnings = sc.warnings()?;
    let out = SweepFile::point_dir(dir, p);
    if out.exists() {
        record::empty_out(&out)?;
    }
    std::fs::create_dir_all(&out).map_err(Error::at(&out))?;
    let started = record::Started::now();
    sc.run_all(&out, false)?;
    let run = started.finish(command.to_vec(), &sc, warnings);
    record::write_record(&out, &run, &sc)
}

/// How the progress of [`run_all`] is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// Nothing.
    Off,
    /// A bar on a terminal (stderr), plain lines otherwise.
    Auto,
}

/// Progress display over `n` points.
struct Shown {
    bar: Option<ProgressBar>,
    plain: bool,
    n: usize,
    t0: Instant,
    last: Instant,
}

impl Shown {
    fn new(n: usize, jobs: usize, how: Progress) -> Shown {
        let t0 = Instant::now();
        let term = how == Progress::Auto && std::io::stderr().is_terminal();
        let bar = term.then(|| {
            let b = ProgressBar::with_draw_target(Some(n as u64), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template(
                    "sweep [{bar:20}] {pos}/{len} points, {elapsed} elapsed, ~{eta} left {msg}",
                )
                .expect("a valid template")
                .progress_chars("#>-"),
            );
            b.set_message(format!("({jobs} jobs)"));
            b
        });
        Shown {
            bar,
            plain: how == Progress::Auto && !term,
            n,
            t0,
            last: t0,
        }
    }

    fn done(&mut self, done: usize) {
        if let Some(b) = &self.bar {
            b.set_position(done as u64);
        } else if self.plain && (self.last.elapsed() >= PLAIN_EVERY || done == self.n) {
            self.last = Instant::now();
            let el = self.t0.elapsed();
            let left = el.mul_f64((self.n - done) as f64 / done.max(1) as f64);
            eprintln!(
                "sweep: {done}/{} points, {} elapsed, ~{} left",
                self.n,
                HumanDuration(el),
                HumanDuration(left)
            );
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish();
        }
    }
}

/// Run every point of the sweep in `dir` on `jobs` threads (each point on one). After a point
/// fails no new point starts; the error names every failed point.
pub fn run_all(
    dir: &Path,
    file: &SweepFile,
    jobs: usize,
    command: &[String],
    how: Progress,
) -> Result<()> {
    let n = file.points.len();
    let jobs = jobs.clamp(1, n.max(1));
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, Result<()>)>();
    let mut shown = Shown::new(n, jobs, how);
    let mut failed: Vec<Error> = Vec::new();
    std::thread::scope(|s| {
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            s.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(p) = file.points.get(i) else { break };
                let r = run_point(dir, file, p, command);
                if r.is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
                if tx.send((i, r)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut done = 0;
        for (i, r) in rx {
            done += 1;
            if let Err(e) = r {
                let p = &file.points[i];
                failed.push(e.context(format!("point {} ({})", p.id, file.describe(p))));
            }
            shown.done(done);
        }
    });
    shown.finish();
    if failed.is_empty() {
        Ok(())
    } else {
        failed.sort_by_cached_key(ToString::to_string);
        Err(Error::Many(failed))
    }
}
