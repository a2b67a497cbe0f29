//! `sim SCENARIO.toml [--out DIR] [--algos "a b"] [--set key.path=value]... [--quiet]`: run a
//! scenario (with `--set` overrides, e.g. `--set fabric.pfc=true`), write CSV and PNG files
//! under DIR (default `results/sim/<scenario name>`), print the summary table. Any invalid
//! input exits non-zero before anything runs.

use rdcc_sim::Scenario;
use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: sim SCENARIO.toml [--out DIR] [--algos \"A B\"] [--set key.path=value]... [--no-plots] [--quiet]";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut path = None;
    let mut out = None;
    let mut algos = None;
    let mut quiet = false;
    let mut plots = true;
    let mut sets = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--out" => {
                i += 1;
                out = args.get(i).map(PathBuf::from);
            }
            "--algos" => {
                i += 1;
                algos = args.get(i).cloned();
            }
            "--set" => {
                i += 1;
                match args.get(i) {
                    Some(v) => sets.push(v.clone()),
                    None => {
                        eprintln!("sim: --set needs key.path=value\n{USAGE}");
                        return ExitCode::from(2);
                    }
                }
            }
            "--quiet" => quiet = true,
            "--no-plots" => plots = false,
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            a if path.is_none() && !a.starts_with('-') => path = Some(PathBuf::from(a)),
            a => {
                eprintln!("sim: unexpected argument {a:?}\n{USAGE}");
                return ExitCode::from(2);
            }
        }
        i += 1;
    }
    let Some(path) = path else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let mut sc = match Scenario::load_with(&path, &sets) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("sim: {e}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(a) = algos {
        sc.algorithms = a.split_whitespace().map(String::from).collect();
        if let Err(e) = sc.validate() {
            eprintln!("sim: --algos: {e}");
            return ExitCode::FAILURE;
        }
    }
    sc.report.plots &= plots;
    let out = out.unwrap_or_else(|| PathBuf::from("results/sim").join(&sc.name));
    match sc.run_all(&out, !quiet) {
        Ok((results, table)) => {
            println!("{}: {}", sc.name, sc.description.trim());
            println!();
            print!("{table}");
            let wall: f64 = results.iter().map(|r| r.wall_s).sum();
            let ev: u64 = results.iter().map(|r| r.out.counters.events).sum();
            println!(
                "\n{} run(s), {} events in {:.1} s wall; output in {}",
                results.len(),
                ev,
                wall,
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
