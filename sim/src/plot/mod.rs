//! Figures, for the simulator and the VM harness alike (xtask draws its plots with this module
//! too): one renderer (`render.rs`, lines clipped in `clip.rs`) that writes every figure as PNG and SVG side by side
//! (plotters' bitmap and SVG backends, 960x560), the simulator's standard figures built from a
//! run's series ([`figures`], [`data`]; the same code draws a run in memory and the saved runs
//! `sim compare` overlays), and the papers' numbers drawn on our figures ([`paper`]).
//!
//! What every figure guarantees (tested on the SVG output, `sim/tests/plots.rs`): data are
//! clipped to the plot area; the legend sits in its own band right of the plot areas, so it
//! never hides data; the title is wrapped to the figure's width; a total is black and thick;
//! many flows are drawn as a distribution (median, p10-p90 band, min-max envelope); size bins
//! are categories; the time axis spans the run, in µs or ms.
//!
//! Text needs a TrueType font: DejaVu Sans from the Debian package `fonts-dejavu-core` is
//! loaded at run time; without it the figures carry no text (axes, lines and markers only).

mod clip;
pub mod data;
pub mod figures;
pub mod paper;
mod render;

pub use render::{render_rgb, render_svg, Layout, Rect};

use crate::error::{Error, Result};
use plotters::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
];

/// Figure size in pixels (both backends).
pub const SIZE: (u32, u32) = (960, 560);

const COLORS: &[RGBColor] = &[
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

/// The `i`-th series colour (a 10-colour palette, repeating).
pub fn color(i: usize) -> RGBColor {
    COLORS[i % COLORS.len()]
}

/// Register DejaVu Sans once; `true` if text can be drawn.
pub fn fonts_available() -> bool {
    static OK: OnceLock<bool> = OnceLock::new();
    *OK.get_or_init(|| {
        for p in FONT_PATHS {
            if let Ok(bytes) = std::fs::read(p) {
                let leaked: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, leaked).is_ok() {
                    return true;
                }
            }
        }
        false
    })
}

/// How a series is drawn. `color` indexes the palette ([`color`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A line.
    Line {
        /// Palette index.
        color: usize,
    },
    /// A total: black, thicker than a line.
    Total,
    /// Markers only (a scatter plot).
    Points {
        /// Palette index.
        color: usize,
    },
    /// A filled band between the series' points (lower edge) and `hi` (upper edge).
    Band {
        /// Palette index.
        color: usize,
        /// The upper edge, at the same x values.
        hi: Vec<(f64, f64)>,
    },
    /// A dashed line: `width` 1 for an envelope, 2 for a second run in a comparison.
    Dashed {
        /// Palette index.
        color: usize,
        /// Stroke width, pixels.
        width: u32,
    },
    /// One bar per category (x = the category's index), grouped with the panel's other bars.
    Bars {
        /// Palette index.
        color: usize,
    },
    /// A paper's number: a dashed black reference line through black triangles (one point:
    /// a horizontal line across the figure at its y).
    Paper,
}

/// One series of a panel.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text (`None`: not in the legend).
    pub name: Option<String>,
    /// Points, in the panel's units.
    pub pts: Vec<(f64, f64)>,
    /// How it is drawn.
    pub mark: Mark,
}

impl Series {
    /// A named series.
    pub fn new(name: impl Into<String>, mark: Mark, pts: Vec<(f64, f64)>) -> Series {
        Series {
            name: Some(name.into()),
            pts,
            mark,
        }
    }
}

/// One plot area; a figure stacks its panels vertically over one x axis.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Panel {
    /// The y axis' label (with its unit).
    pub y_desc: String,
    /// Start the y axis at this value at most (e.g. 0 for rates).
    pub y_floor: Option<f64>,
    /// The series, drawn in order.
    pub series: Vec<Series>,
}

/// What the x axis holds.
#[derive(Clone, Debug, PartialEq)]
pub enum XAxis {
    /// Numbers from `range.0` to `range.1` (`None`: the data's span).
    Value {
        /// The axis' label (with its unit).
        desc: String,
        /// The range; for time series the run's time span, never the data's.
        range: Option<(f64, f64)>,
    },
    /// Named categories at x = 0, 1, …
    Categories {
        /// The axis' label.
        desc: String,
        /// The category names, in order.
        names: Vec<String>,
    },
}

/// A figure: a title, an x axis and one or more panels.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// File name without extension (`jain`, `throughput_swift`).
    pub file: String,
    /// Title (wrapped to the figure's width).
    pub title: String,
    /// The x axis, shared by the panels.
    pub x: XAxis,
    /// Panels, top to bottom.
    pub panels: Vec<Panel>,
}

impl Figure {
    /// The x range the figure is drawn over: the given one, or the data's span (0..1 without
    /// data; with 3 % room on both sides for markers), or -0.5..n-0.5 for n categories.
    pub fn x_range(&self) -> (f64, f64) {
        match &self.x {
            XAxis::Categories { names, .. } => (-0.5, names.len().max(1) as f64 - 0.5),
            XAxis::Value { range: Some(r), .. } => *r,
            XAxis::Value { range: None, .. } => {
                let (mut a, mut b) = (f64::MAX, f64::MIN);
                for s in self.panels.iter().flat_map(|p| &p.series) {
                    if s.mark == Mark::Paper {
                        continue;
                    }
                    for &(x, _) in &s.pts {
                        if x.is_finite() {
                            a = a.min(x);
                            b = b.max(x);
                        }
                    }
                }
                let markers = self
                    .panels
                    .iter()
                    .flat_map(|p| &p.series)
                    .any(|s| matches!(s.mark, Mark::Points { .. }));
                if a > b {
                    (0.0, 1.0)
                } else if b <= a {
                    (a - 0.5, a + 0.5)
                } else if markers {
                    // Room for the markers at either end.
                    let pad = (b - a) * 0.03;
                    (a - pad, b + pad)
                } else {
                    (a, b)
                }
            }
        }
    }

    /// Write `DIR/<file>.png` and `DIR/<file>.svg`; returns both paths.
    pub fn write(&self, dir: &Path) -> Result<Vec<PathBuf>> {
        let png = dir.join(format!("{}.png", self.file));
        let svg = dir.join(format!("{}.svg", self.file));
        {
            let root = BitMapBackend::new(&png, SIZE).into_drawing_area();
            render::draw(&root, self, true)?;
            root.present()
                .map_err(|e| Error::file(&png, format!("{e:?}")))?;
        }
        let (text, _) = render_svg(self)?;
        std::fs::write(&svg, text).map_err(Error::at(&svg))?;
        Ok(vec![png, svg])
    }
}

/// The scenario's standard figures ([`figures::standard`]) of the runs in memory, written into
/// `dir` as PNG and SVG; returns the files written.
pub fn write_plots(
    sc: &crate::scenario::Scenario,
    dir: &Path,
    results: &[crate::scenario::RunResult],
) -> Result<Vec<PathBuf>> {
    let runs: Vec<data::RunData> = results.iter().map(data::RunData::from_result).collect();
    let mut files = Vec::new();
    for f in figures::standard(&sc.name, &runs, figures::Which::Run) {
        files.extend(f.write(dir)?);
    }
    Ok(files)
}

/// One named line (the harness' plots).
pub struct Line {
    /// Legend text.
    pub name: String,
    /// Points.
    pub pts: Vec<(f64, f64)>,
}

/// A one-panel figure of lines (`points` = markers only), written as `path` (a `.png` path;
/// the `.svg` beside it). Returns the files written.
pub fn chart(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    lines: &[Line],
    y_floor: Option<f64>,
    points: bool,
) -> Result<Vec<PathBuf>> {
    let series = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let mark = if points {
                Mark::Points { color: i }
            } else {
                Mark::Line { color: i }
            };
            Series::new(l.name.clone(), mark, l.pts.clone())
        })
        .collect();
    let fig = Figure {
        file: path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "figure".into()),
        title: title.into(),
        x: XAxis::Value {
            desc: x_desc.into(),
            range: None,
        },
        panels: vec![Panel {
            y_desc: y_desc.into(),
            y_floor,
            series,
        }],
    };
    fig.write(path.parent().unwrap_or(Path::new(".")))
}
