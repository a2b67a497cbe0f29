//! Judging a results page's tolerances on the numbers the page states (`powertcp_fct.rs`,
//! `powertcp_fct_incast.rs`): who a ratio compares, the bound it must meet, the verdict over a
//! tolerance's points, and the page's fenced block of numbers.

use std::collections::BTreeMap;
use std::path::Path;

/// An algorithm of a ratio: the PowerTCP profile under judgement, or a named one.
#[derive(Clone, Copy, Debug)]
pub enum Who {
    Power,
    Named(&'static str),
}

impl Who {
    /// The algorithm's name when `power` is the profile under judgement.
    pub fn name(self, power: &str) -> String {
        match self {
            Who::Power => power.to_string(),
            Who::Named(n) => n.to_string(),
        }
    }
}

/// A bound on a ratio.
#[derive(Clone, Copy, Debug)]
pub enum Bound {
    AtMost(f64),
    AtLeast(f64),
    Between(f64, f64),
}

impl Bound {
    pub fn holds(self, x: f64) -> bool {
        match self {
            Bound::AtMost(b) => x <= b,
            Bound::AtLeast(b) => x >= b,
            Bound::Between(lo, hi) => (lo..=hi).contains(&x),
        }
    }
}

/// A tolerance's verdict on its ratios (one per point): `each` met at every point and `mean`
/// by their average.
pub fn verdict<K>(ratios: &[(K, f64)], each: Option<Bound>, mean: Option<Bound>) -> bool {
    let every = each.map_or(true, |b| ratios.iter().all(|&(_, r)| b.holds(r)));
    let avg = ratios.iter().map(|r| r.1).sum::<f64>() / ratios.len() as f64;
    every && mean.map_or(true, |b| b.holds(avg))
}

/// The text of results page `page` (Documentation/results/).
pub fn results_page(page: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../Documentation/results")
        .join(page);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A page's numbers: (the line's leading integer keys, algorithm, figure) -> (value, its
/// printed decimals).
pub type Block = BTreeMap<(Vec<u32>, String, String), (f64, usize)>;

/// The block of `text` (page `page`) fenced as `fence`: `K1 .. Kn ALGORITHM FIGURE = VALUE`
/// lines with `keys` leading integers (a load, a request rate and size), and `commit`/`sweep`
/// lines naming where the numbers came from, skipped.
pub fn block(page: &str, text: &str, fence: &str, keys: usize) -> Block {
    let mut out = Block::new();
    let mut inside = false;
    for line in text.lines() {
        let t = line.trim();
        if t.strip_prefix("```") == Some(fence) {
            inside = true;
            continue;
        }
        if inside && t == "```" {
            inside = false;
        }
        if !inside || t.is_empty() || t.starts_with("commit ") || t.starts_with("sweep ") {
            continue;
        }
        let (lhs, v) = t
            .split_once(" = ")
            .unwrap_or_else(|| panic!("{page}: {t:?}"));
        let f: Vec<&str> = lhs.split_whitespace().collect();
        assert_eq!(
            f.len(),
            keys + 2,
            "{page}: {t:?}: {keys} keys, ALGORITHM FIGURE = VALUE"
        );
        let k: Vec<u32> = f[..keys]
            .iter()
            .map(|s| {
                s.parse()
                    .unwrap_or_else(|_| panic!("{page}: {s:?} in {t:?}"))
            })
            .collect();
        let value: f64 = v
            .parse()
            .unwrap_or_else(|_| panic!("{page}: value in {t:?}"));
        let decimals = v.split_once('.').map_or(0, |(_, d)| d.len());
        let key = (k, f[keys].to_string(), f[keys + 1].to_string());
        assert!(
            out.insert(key, (value, decimals)).is_none(),
            "{page}: {t:?} twice"
        );
    }
    out
}

/// Whether `got` prints as `stated` with `decimals` decimals (within half a unit of the last).
pub fn as_printed(stated: f64, decimals: usize, got: f64) -> bool {
    (got - stated).abs() <= 0.5 * 10f64.powi(-(decimals as i32)) + 1e-9
}

/// Every tolerance of `tols` for every profile of `profiles`, judged by `judge` (its verdict,
/// and the ratios to print), against the verdict `stated` for it as (tolerance id, profile,
/// reproduced): the disagreements, and each pair without a stated verdict.
pub fn mismatches<T>(
    tols: &[T],
    id: impl Fn(&T) -> &str,
    profiles: &[&str],
    stated: &[(&str, &str, bool)],
    judge: impl Fn(&T, &str) -> (bool, String),
) -> Vec<String> {
    let mut bad = Vec::new();
    for t in tols {
        for &power in profiles {
            let (ok, ratios) = judge(t, power);
            let id = id(t);
            eprintln!("{id} {power}: {ok} {ratios}");
            match stated.iter().find(|v| v.0 == id && v.1 == power) {
                Some(v) if v.2 == ok => {}
                Some(v) => bad.push(format!(
                    "{id} {power}: the page says reproduced = {}, its figures give {ok} {ratios}",
                    v.2
                )),
                None => bad.push(format!("{id} {power}: no verdict stated ({ok})")),
            }
        }
    }
    bad
}

/// One defined mean of a sweep's aggregate: (algorithm, the values of the asked grid keys,
/// figure, mean).
pub type Mean = (String, Vec<String>, String, f64);

/// The defined means of the sweep aggregate `f` (`aggregate.csv`; rows with an empty mean are
/// left out), with the values of its grid columns `grid`; `None` when the file is absent.
pub fn aggregate_means(f: &Path, grid: &[&str]) -> Option<Vec<Mean>> {
    let mut r = csv::Reader::from_path(f).ok()?;
    let h = r.headers().unwrap().clone();
    let ix = |n: &str| {
        h.iter()
            .position(|c| c == n)
            .unwrap_or_else(|| panic!("{}: no column {n}", f.display()))
    };
    let (a, fi, me) = (ix("algorithm"), ix("figure"), ix("mean"));
    let g: Vec<usize> = grid.iter().map(|k| ix(k)).collect();
    Some(
        r.records()
            .map(|x| x.unwrap_or_else(|e| panic!("{}: {e}", f.display())))
            .filter(|x| !x[me].is_empty())
            .map(|x| {
                let mean = x[me]
                    .parse()
                    .unwrap_or_else(|_| panic!("{}: mean {:?}", f.display(), &x[me]));
                let vals = g.iter().map(|&i| x[i].to_string()).collect();
                (x[a].to_string(), vals, x[fi].to_string(), mean)
            })
            .collect(),
    )
}
