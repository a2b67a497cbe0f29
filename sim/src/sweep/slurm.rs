//! A sweep on Slurm: `sweep.sbatch`, a job array of one task per point. Task i runs `sim
//! sweep-point DIR i` (point i into `DIR/points/<id>/`, [`super::run::run_point`]); when the
//! array is done, `sim sweep-collect DIR` writes the aggregated table ([`super::aggregate`]).
//! The script names the `sim` binary and the directory by absolute paths: both must be visible
//! at those paths on the nodes (a shared file system).

use super::SweepFile;
use crate::error::{Error, Result};
use std::path::Path;

/// The job array script in a sweep directory.
pub const SBATCH_FILE: &str = "sweep.sbatch";
/// Where the tasks' stdout and stderr go, under the sweep directory.
pub const LOG_DIR: &str = "slurm";

/// Quote one word for sh.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The text of `sweep.sbatch` for the sweep in `dir` (absolute), run by the binary `sim`
/// (absolute).
pub fn script(file: &SweepFile, dir: &Path, sim: &Path) -> String {
    let name: String = file
        .base
        .get("name")
        .and_then(|v| v.as_str())
        .unwrap_or("sweep")
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let d = dir.display().to_string();
    format!(
        "#!/bin/sh\n\
         # rdcc-sim sweep {name}: {n} points, one Slurm array task each; task i runs point i\n\
         # (sweep.toml, points.csv) into points/<id>/. Submit: sbatch {sbatch}\n\
         # When every task is done: sim sweep-collect {dq}\n\
         #SBATCH --job-name=rdcc-sweep-{name}\n\
         #SBATCH --array=0-{last}\n\
         #SBATCH --ntasks=1\n\
         #SBATCH --cpus-per-task=1\n\
         #SBATCH --output={d}/{LOG_DIR}/%a.out\n\
         #SBATCH --error={d}/{LOG_DIR}/%a.err\n\
         set -eu\n\
         exec {sim} sweep-point {dq} \"$SLURM_ARRAY_TASK_ID\"\n",
        n = file.points.len(),
        sbatch = sh_quote(&dir.join(SBATCH_FILE).display().to_string()),
        dq = sh_quote(&d),
        last = file.points.len().saturating_sub(1),
        sim = sh_quote(&sim.display().to_string()),
    )
}

/// Write `sweep.sbatch` (executable) and the log directory into `dir` (absolute).
pub fn write(file: &SweepFile, dir: &Path, sim: &Path) -> Result<()> {
    let logs = dir.join(LOG_DIR);
    std::fs::create_dir_all(&logs).map_err(Error::at(&logs))?;
    let p = dir.join(SBATCH_FILE);
    std::fs::write(&p, script(file, dir, sim)).map_err(Error::at(&p))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755))
            .map_err(Error::at(&p))?;
    }
    Ok(())
}
