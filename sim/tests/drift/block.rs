//! The machine-checkable form of a results page's numbers: fenced blocks with the info string
//! `drift` (format: Documentation/results/README.md, "Drift"). A block names the commit its
//! numbers were produced at, then runs (`run SCENARIO [--set K=V]...`, the page's command
//! `cargo xtask sim SCENARIO ...`) and under each run the figures it produced:
//! `FILE KEY COLUMN [STAT[@FROM..TO]] = VALUE`, and the figures it drew:
//! `png FIGURE.png = img/PAGE_COPY.png`.

/// A page's blocks, flattened: the commit and every run with its figures.
#[derive(Debug, Default, PartialEq)]
pub struct Page {
    /// The commit every block of the page names (one per page).
    pub commit: String,
    /// The runs, in page order.
    pub runs: Vec<Run>,
    /// The page's text outside its drift blocks (where each value must be stated too).
    pub prose: String,
}

/// One `run` line and the figures under it.
#[derive(Debug, PartialEq)]
pub struct Run {
    /// Scenario file name without `.toml` (sim/scenarios/).
    pub scenario: String,
    /// `--set` overrides, in order.
    pub sets: Vec<String>,
    /// The figures this run must reproduce.
    pub figures: Vec<Figure>,
    /// Images: (figure file the run writes, the page's copy relative to the page), which must
    /// be byte for byte what the run draws (`png jain.png = img/sl_jain.png`).
    pub images: Vec<(String, String)>,
}

/// One number of the page: where it is in the run's output and what the page says it is.
#[derive(Debug, PartialEq)]
pub struct Figure {
    /// The line as written (for messages).
    pub text: String,
    /// Output file relative to the run directory: `summary.csv`, `fct_bins.csv`, `ports.csv`,
    /// or `ALG/FILE.csv`.
    pub file: String,
    /// Row key: the values of the file's key columns joined by `:` (`swift`, `hpcc:<10KB`,
    /// `sw->h11`), or `*` for every row.
    pub key: String,
    /// Column name.
    pub column: String,
    /// How the selected rows become one number; `None`: exactly one row, its value.
    pub stat: Option<Stat>,
    /// Rows with `t_us` in (FROM, TO] only (series files: a sample at t covers the interval
    /// ending at t).
    pub window: Option<(f64, f64)>,
    /// The stated value.
    pub value: Value,
}

/// A statistic over the selected rows' column.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stat {
    Min,
    Max,
    Mean,
    Sum,
    /// max − min.
    Spread,
    /// The first row's `t_us` with the value ≥ X, minus the window's start.
    FirstAtLeast(f64),
    /// The earliest row's `t_us` from which the value stays ≤ X to the window's end, minus the
    /// window's start.
    SettledAtMost(f64),
}

/// A stated value: a number printed with `decimals` decimals, with an optional unit that scales
/// the fresh value first (`KB` of a column in bytes, `ms` of one in µs: both divide by 1000), or
/// `-` (undefined: an empty field, or no row meets the statistic).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Number {
        text: String,
        value: f64,
        decimals: u32,
        unit: &'static str,
    },
    Undefined,
}

impl Value {
    /// Parse `12.5`, `73KB`, `-`.
    pub fn parse(s: &str) -> Result<Value, String> {
        if s == "-" {
            return Ok(Value::Undefined);
        }
        let (num, unit) = ["KB", "ms"]
            .iter()
            .find_map(|u| s.strip_suffix(u).map(|n| (n, *u)))
            .unwrap_or((s, ""));
        let value: f64 = num.parse().map_err(|_| format!("not a number: {s}"))?;
        if !value.is_finite() || num.contains(['e', 'E']) {
            return Err(format!("not a plain decimal: {s}"));
        }
        let decimals = num.split_once('.').map_or(0, |(_, f)| f.len() as u32);
        Ok(Value::Number {
            text: num.to_string(),
            value,
            decimals,
            unit,
        })
    }

    /// Does a fresh value (`None`: undefined) print as this one? A number matches within half
    /// a unit of its last printed decimal.
    pub fn matches(&self, fresh: Option<f64>) -> bool {
        match (self, fresh) {
            (Value::Undefined, None) => true,
            (
                Value::Number {
                    value,
                    decimals,
                    unit,
                    ..
                },
                Some(f),
            ) => {
                let scale = if unit.is_empty() { 1.0 } else { 1000.0 };
                let half = 0.5 * 10f64.powi(-(*decimals as i32));
                ((f / scale) - value).abs() <= half * (1.0 + 1e-9) + 1e-12
            }
            _ => false,
        }
    }

    /// The value as the block states it.
    pub fn show_stated(&self) -> String {
        match self {
            Value::Undefined => "-".to_string(),
            Value::Number { text, unit, .. } => format!("{text}{unit}"),
        }
    }

    /// A fresh value printed as this one is (same decimals and unit).
    pub fn show(&self, fresh: Option<f64>) -> String {
        match (self, fresh) {
            (_, None) => "-".to_string(),
            (Value::Number { decimals, unit, .. }, Some(f)) => {
                let scale = if unit.is_empty() { 1.0 } else { 1000.0 };
                format!("{:.*}{unit}", *decimals as usize, f / scale)
            }
            (Value::Undefined, Some(f)) => format!("{f}"),
        }
    }
}

fn parse_stat(s: &str) -> Result<(Stat, Option<(f64, f64)>), String> {
    let (name, window) = match s.split_once('@') {
        Some((n, w)) => {
            let (a, b) = w
                .split_once("..")
                .ok_or_else(|| format!("window is FROM..TO: {s}"))?;
            let a: f64 = a.parse().map_err(|_| format!("bad window start: {s}"))?;
            let b: f64 = b.parse().map_err(|_| format!("bad window end: {s}"))?;
            if a > b {
                return Err(format!("empty window: {s}"));
            }
            (n, Some((a, b)))
        }
        None => (s, None),
    };
    let arg = |p: &str| -> Result<f64, String> {
        name[p.len()..]
            .parse()
            .map_err(|_| format!("bad threshold: {s}"))
    };
    let stat = match name {
        "min" => Stat::Min,
        "max" => Stat::Max,
        "mean" => Stat::Mean,
        "sum" => Stat::Sum,
        "spread" => Stat::Spread,
        n if n.starts_with("first>=") => Stat::FirstAtLeast(arg("first>=")?),
        n if n.starts_with("settled<=") => Stat::SettledAtMost(arg("settled<=")?),
        _ => return Err(format!("unknown statistic: {s}")),
    };
    if matches!(stat, Stat::FirstAtLeast(_) | Stat::SettledAtMost(_)) && window.is_none() {
        return Err(format!("{s}: a time statistic needs @FROM..TO"));
    }
    Ok((stat, window))
}

/// One figure line.
pub fn parse_figure(line: &str) -> Result<Figure, String> {
    let (lhs, rhs) = line
        .split_once(" = ")
        .ok_or_else(|| format!("figure without ' = VALUE': {line}"))?;
    let t: Vec<&str> = lhs.split_whitespace().collect();
    let (stat, window) = match t.len() {
        3 => (None, None),
        4 => {
            let (s, w) = parse_stat(t[3])?;
            (Some(s), w)
        }
        _ => return Err(format!("figure is FILE KEY COLUMN [STAT] = VALUE: {line}")),
    };
    if !t[0].ends_with(".csv") {
        return Err(format!("not a CSV file of the run: {}", t[0]));
    }
    if t[1] == "*" && stat.is_none() {
        return Err(format!("every row (*) needs a statistic: {line}"));
    }
    Ok(Figure {
        text: line.to_string(),
        file: t[0].to_string(),
        key: t[1].to_string(),
        column: t[2].to_string(),
        stat,
        window,
        value: Value::parse(rhs.trim())?,
    })
}

/// Every drift block of a page's markdown.
pub fn parse_page(md: &str) -> Result<Page, String> {
    let mut page = Page::default();
    let mut in_block = false;
    for (i, line) in md.lines().enumerate() {
        let n = i + 1;
        let l = line.trim();
        if !in_block {
            if l == "```drift" {
                in_block = true;
            } else {
                page.prose.push_str(line);
                page.prose.push('\n');
            }
            continue;
        }
        if l == "```" {
            in_block = false;
            continue;
        }
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let at = |e: String| format!("line {n}: {e}");
        if let Some(c) = l.strip_prefix("commit ") {
            let c = c.trim();
            if c.len() < 7 || !c.chars().all(|ch| ch.is_ascii_hexdigit()) {
                return Err(at(format!("not a commit: {c}")));
            }
            if !page.commit.is_empty() && page.commit != c {
                return Err(at(format!(
                    "a second commit {c} (the page has {})",
                    page.commit
                )));
            }
            page.commit = c.to_string();
        } else if let Some(r) = l.strip_prefix("run ") {
            let mut w = r.split_whitespace();
            let scenario = w
                .next()
                .ok_or_else(|| at("run without a scenario".into()))?;
            let mut sets = Vec::new();
            while let Some(flag) = w.next() {
                match (flag, w.next()) {
                    ("--set", Some(kv)) if kv.contains('=') => sets.push(kv.to_string()),
                    _ => return Err(at(format!("run takes --set KEY=VALUE only: {l}"))),
                }
            }
            page.runs.push(Run {
                scenario: scenario.to_string(),
                sets,
                figures: Vec::new(),
                images: Vec::new(),
            });
        } else if let Some(img) = l.strip_prefix("png ") {
            let (out, page_img) = img
                .split_once(" = ")
                .filter(|(o, p)| o.ends_with(".png") && p.ends_with(".png"))
                .ok_or_else(|| at(format!("png FIGURE.png = PATH.png: {l}")))?;
            page.runs
                .last_mut()
                .ok_or_else(|| at("an image before any run".into()))?
                .images
                .push((out.trim().to_string(), page_img.trim().to_string()));
        } else {
            let f = parse_figure(l).map_err(at)?;
            page.runs
                .last_mut()
                .ok_or_else(|| at("a figure before any run".into()))?
                .figures
                .push(f);
        }
    }
    if in_block {
        return Err("unterminated drift block".into());
    }
    if !page.runs.is_empty() && page.commit.is_empty() {
        return Err("drift block without a commit".into());
    }
    Ok(page)
}

/// Is `text` stated in `prose` as a number of its own (not part of a longer number)?
pub fn stated(prose: &str, text: &str) -> bool {
    let b = prose.as_bytes();
    let num = |c: u8| c.is_ascii_digit();
    prose.match_indices(text).any(|(i, _)| {
        let before = i.checked_sub(1).map(|j| b[j]);
        let after = b.get(i + text.len()).copied();
        let after2 = b.get(i + text.len() + 1).copied();
        let glued_before = before.is_some_and(|c| num(c) || c == b'.');
        let glued_after =
            after.is_some_and(num) || (after == Some(b'.') && after2.is_some_and(num));
        !(glued_before || glued_after)
    })
}
