//! Helpers shared by the simulator's integration tests (`mod common;` in each test file).
#![allow(dead_code)] // each test file uses the part it needs
pub mod tolerance;

use rdcc_sim::scenario::RunResult;
use rdcc_sim::Scenario;
use std::path::Path;

/// A built-in scenario of `sim/scenarios/` by file name.
pub fn scenario_file(name: &str) -> Scenario {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(name);
    Scenario::load(&p).unwrap()
}

/// One run of algorithm `alg` of the scenario, in memory (no files written).
pub fn run(sc: &Scenario, alg: &str) -> RunResult {
    sc.run_one(alg, false).unwrap()
}

/// Every file under `dir` but the run record, relative path -> bytes, sorted: what a replay
/// must reproduce byte for byte (`record.rs`, `human_units.rs`).
pub fn outputs(dir: &Path) -> Vec<(std::path::PathBuf, Vec<u8>)> {
    let mut v = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().unwrap() != rdcc_sim::record::RECORD_FILE {
                v.push((
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                ));
            }
        }
    }
    v.sort();
    v
}
