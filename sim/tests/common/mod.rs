//! Helpers shared by the simulator's integration tests (`mod common;` in each test file).
#![allow(dead_code)] // each test file uses the part it needs

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
