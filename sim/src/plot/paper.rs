//! The papers' numbers, drawn on our figures as the paper's (a dashed black reference line
//! with triangles, its legend entry saying "paper: …"). The numbers live in one data file,
//! `paper_points.csv` beside this module, each with its source (the spec's section and the
//! paper's table or figure); only numbers the specs quote are there.

use super::{Mark, Series};
use crate::error::{Error, Result};
use serde::Deserialize;

const POINTS: &str = include_str!("paper_points.csv");

/// One number of a paper.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct PaperPoint {
    /// The scenario reproducing the paper's set-up.
    pub scenario: String,
    /// The figure it belongs on (`throughput` = `throughput_<algorithm>`, `total_throughput`).
    pub figure: String,
    /// The algorithm it is a number of.
    pub algorithm: String,
    /// The figure's panel (0 = first).
    pub panel: usize,
    /// The value, in the panel's unit.
    pub value: f64,
    /// Legend text.
    pub label: String,
    /// Where the number is from.
    pub source: String,
}

/// Every paper number of the data file.
pub fn all() -> Result<Vec<PaperPoint>> {
    let mut rd = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(POINTS.as_bytes());
    rd.deserialize()
        .map(|r| r.map_err(|e| Error::encode("paper_points.csv", e)))
        .collect()
}

/// The reference series of `figure`'s `panel` in `scenario`, for the algorithms `algos`.
pub fn series(scenario: &str, figure: &str, panel: usize, algos: &[&str]) -> Vec<Series> {
    all()
        .unwrap_or_default()
        .into_iter()
        .filter(|p| {
            p.scenario == scenario
                && p.figure == figure
                && p.panel == panel
                && algos.contains(&p.algorithm.as_str())
        })
        .map(|p| Series::new(p.label, Mark::Paper, vec![(0.0, p.value)]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_paper_point_names_its_source_and_is_labelled_as_the_papers() {
        let pts = all().unwrap();
        assert!(!pts.is_empty());
        for p in &pts {
            assert!(p.label.starts_with("paper: "), "{p:?}");
            assert!(
                p.source.contains("spec ") && p.source.contains('§'),
                "{p:?}"
            );
            assert!(p.value.is_finite(), "{p:?}");
        }
        // The TIMELY Table 1 totals, as the spec quotes them.
        let s = series(
            "timely_table1_incast",
            "total_throughput",
            0,
            &["timely", "dctcp"],
        );
        let v: Vec<f64> = s.iter().map(|s| s.pts[0].1).collect();
        assert_eq!(v, [19.4, 19.5]);
    }
}
