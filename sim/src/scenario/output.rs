//! A scenario's output directory: per-run tables ([`crate::tables`]), the summary files and
//! plots, and ExpressPass's own summary line.

use super::{RunResult, Scenario};
use crate::error::{Error, Result};
use crate::metrics::Summary;
use crate::tables;
use crate::xpass::{self, XpassStats};
use std::io::Write;
use std::path::Path;

/// One summary line of ExpressPass's own counters.
pub fn xpass_line(name: &str, x: &XpassStats) -> String {
    let pct = |a: u64, b: u64| 100.0 * a as f64 / b.max(1) as f64;
    let mut line = format!(
        "{name}: credits sent {}, dropped {} ({:.1} %), wasted {} ({:.1} %); data-class drops {}; \
         max switch data queue {:.1} KB; request RTOs {}; NACKs {}\n",
        x.credits_sent,
        x.credits_dropped,
        pct(x.credits_dropped, x.credits_sent),
        x.credits_wasted,
        pct(x.credits_wasted, x.credits_sent),
        x.data_class_dropped,
        x.max_switch_queue_bytes as f64 / 1e3,
        x.request_timeouts,
        x.nacks
    );
    let worst = x.eq1.iter().max_by_key(|e| e.bound_bytes);
    let tightest = x.eq1.iter().max_by(|a, b| {
        let r = |e: &xpass::Eq1Port| e.max_queue_bytes as f64 / e.bound_bytes.max(1) as f64;
        r(a).total_cmp(&r(b))
    });
    if let (Some(w), Some(t)) = (worst, tightest) {
        line.push_str(&format!(
            "{name}: Eq. 1 bound largest at {} ({:.1} KB, spread {:.1} us); closest queue {} \
             ({:.1} of {:.1} KB){}\n",
            w.name,
            w.bound_bytes as f64 / 1e3,
            w.spread_ns as f64 / 1e3,
            t.name,
            t.max_queue_bytes as f64 / 1e3,
            t.bound_bytes as f64 / 1e3,
            if x.eq1.iter().any(|e| e.max_queue_bytes > e.bound_bytes) {
                " EXCEEDED"
            } else {
                ""
            }
        ));
    }
    line
}

/// The head of `summary.txt` and of the printed summary: the name and description, then the
/// scenario that actually ran (seed, times, algorithms, every topology field after overrides),
/// then the run's warnings ([`Scenario::warnings`]).
pub fn summary_header(sc: &Scenario, warnings: &[String]) -> String {
    let topo = match toml::Value::try_from(&sc.topology) {
        Ok(toml::Value::Table(t)) => {
            let kind = t.get("kind").and_then(|v| v.as_str()).unwrap_or("?");
            let fields: Vec<String> = t
                .iter()
                .filter(|(k, _)| k.as_str() != "kind")
                .map(|(k, v)| format!("{k} = {v}"))
                .collect();
            format!("{kind} ({})", fields.join(", "))
        }
        _ => "?".into(),
    };
    let warned: String = warnings.iter().map(|w| format!("warning: {w}\n")).collect();
    format!(
        "{}: {}\nran: seed {}, {} us measured from {} us, algorithms {}; topology {topo}{}\n",
        sc.name,
        sc.description.trim(),
        sc.seed,
        sc.duration_us,
        sc.measure_from_us,
        sc.algorithms.join(" "),
        if sc.links.is_empty() {
            String::new()
        } else {
            format!("; {} link override(s)", sc.links.len())
        }
    ) + &warned
}

pub(super) fn write_outputs(
    sc: &Scenario,
    dir: &Path,
    results: &[RunResult],
    rows: &[Summary],
    table: &str,
    warnings: &[String],
) -> Result<()> {
    let w = |p: &Path, s: &str| std::fs::write(p, s).map_err(Error::at(p));
    std::fs::create_dir_all(dir).map_err(Error::at(dir))?;
    for r in results {
        let d = dir.join(&r.name);
        std::fs::create_dir_all(&d).map_err(Error::at(&d))?;
        for (name, text) in tables::run_files(&r.out)? {
            w(&d.join(name), &text)?;
        }
        if let Some(x) = &r.xpass {
            for (name, text) in tables::xpass_files(x)? {
                w(&d.join(name), &text)?;
            }
        }
    }
    for (name, text) in tables::summary_files(rows)? {
        w(&dir.join(name), &text)?;
    }
    let mut txt = summary_header(sc, warnings);
    txt.push('\n');
    txt.push_str(table);
    w(&dir.join("summary.txt"), &txt)?;
    if sc.report.plots {
        crate::plot::write_plots(sc, dir, results)?;
    }
    let _ = std::io::stdout().flush();
    Ok(())
}
