//! PNG plots (plotters, bitmap backend, 800x500). Text needs a TrueType font: DejaVu Sans from
//! the Debian package `fonts-dejavu-core` is loaded at run time; without it the plots are drawn
//! without any text (axes, lines and markers only).

use crate::scenario::{RunResult, Scenario};
use plotters::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
];

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

fn color(i: usize) -> RGBColor {
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

/// One named line.
pub struct Line {
    /// Legend text.
    pub name: String,
    /// Points.
    pub pts: Vec<(f64, f64)>,
}

fn bounds(lines: &[Line], y0: Option<f64>) -> (f64, f64, f64, f64) {
    let mut b = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for l in lines {
        for &(x, y) in &l.pts {
            if x.is_finite() && y.is_finite() {
                b = (b.0.min(x), b.1.max(x), b.2.min(y), b.3.max(y));
            }
        }
    }
    if b.0 > b.1 {
        return (0.0, 1.0, 0.0, 1.0);
    }
    if let Some(y) = y0 {
        b.2 = b.2.min(y);
    }
    if b.1 <= b.0 {
        b.1 = b.0 + 1.0;
    }
    if b.3 <= b.2 {
        b.3 = b.2 + 1.0;
    }
    let pad = (b.3 - b.2) * 0.05;
    (b.0, b.1, b.2, b.3 + pad)
}

fn e<E: std::fmt::Debug>(err: E) -> String {
    format!("plot: {err:?}")
}

/// A line chart (`points` = markers only, for scatter plots).
pub fn chart(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    lines: &[Line],
    y0: Option<f64>,
    points: bool,
) -> Result<(), String> {
    let text = fonts_available();
    let root = BitMapBackend::new(path, (800, 500)).into_drawing_area();
    root.fill(&WHITE).map_err(e)?;
    let (x0, x1, ya, yb) = bounds(lines, y0);
    let mut b = ChartBuilder::on(&root);
    b.margin(12);
    if text {
        b.caption(title, ("sans-serif", 20))
            .x_label_area_size(40)
            .y_label_area_size(64);
    }
    let mut c = b.build_cartesian_2d(x0..x1, ya..yb).map_err(e)?;
    {
        let mut m = c.configure_mesh();
        m.light_line_style(RGBColor(235, 235, 235));
        if text {
            m.x_desc(x_desc).y_desc(y_desc);
        } else {
            m.x_labels(0).y_labels(0);
        }
        m.draw().map_err(e)?;
    }
    let legend = text && lines.len() <= 12;
    for (i, l) in lines.iter().enumerate() {
        let col = color(i);
        let pts: Vec<(f64, f64)> = l
            .pts
            .iter()
            .copied()
            .filter(|(x, y)| x.is_finite() && y.is_finite())
            .collect();
        let anno = if points {
            c.draw_series(pts.iter().map(|&p| Circle::new(p, 4, col.filled())))
                .map_err(e)?
        } else {
            c.draw_series(LineSeries::new(pts, col.stroke_width(2)))
                .map_err(e)?
        };
        if legend {
            anno.label(l.name.clone()).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], col.stroke_width(3))
            });
        }
    }
    if legend {
        c.configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()
            .map_err(e)?;
    }
    root.present().map_err(e)?;
    Ok(())
}

/// The scenario's standard plots.
pub fn write_plots(sc: &Scenario, dir: &Path, results: &[RunResult]) -> Result<(), String> {
    let ms = |t: u64| t as f64 / 1e6;
    let time_unit = if sc.duration_us <= 5_000.0 {
        "us"
    } else {
        "ms"
    };
    let tx = |t: u64| {
        if time_unit == "us" {
            t as f64 / 1e3
        } else {
            ms(t)
        }
    };
    let xlab = format!("time ({time_unit})");
    // Per-algorithm throughput of traced flows.
    for r in results {
        let s = &r.out.series;
        let mut lines: Vec<Line> = s
            .flow_bps
            .iter()
            .enumerate()
            .map(|(i, v)| Line {
                name: format!("flow {i}"),
                pts: s
                    .t_ns
                    .iter()
                    .zip(v)
                    .map(|(&t, &b)| (tx(t), b / 1e9))
                    .collect(),
            })
            .collect();
        if lines.len() > 1 {
            lines.push(Line {
                name: "total".into(),
                pts: s
                    .t_ns
                    .iter()
                    .zip(&s.total_bps)
                    .map(|(&t, &b)| (tx(t), b / 1e9))
                    .collect(),
            });
        }
        chart(
            &dir.join(format!("throughput_{}.png", r.name)),
            &format!("{}: per-flow goodput ({})", sc.name, r.name),
            &xlab,
            "Gbit/s",
            &lines,
            Some(0.0),
            false,
        )?;
    }
    let per_alg = |f: &dyn Fn(&RunResult) -> Vec<(f64, f64)>| -> Vec<Line> {
        results
            .iter()
            .map(|r| Line {
                name: r.name.clone(),
                pts: f(r),
            })
            .collect()
    };
    let jl = per_alg(&|r| {
        let s = &r.out.series;
        s.t_ns
            .iter()
            .zip(&s.jain)
            .zip(&s.active)
            .filter(|(_, &n)| n >= 2)
            .map(|((&t, &j), _)| (tx(t), j))
            .collect()
    });
    chart(
        &dir.join("jain.png"),
        &format!("{}: Jain index of active flows", sc.name),
        &xlab,
        "Jain index",
        &jl,
        Some(0.0),
        false,
    )?;
    if results.iter().any(|r| !r.out.series.queue_bytes.is_empty()) {
        let ql = per_alg(&|r| {
            let s = &r.out.series;
            s.t_ns
                .iter()
                .zip(&s.queue_max_bytes[0])
                .map(|(&t, &q)| (tx(t), q as f64 / 1e3))
                .collect()
        });
        let port = results[0]
            .out
            .monitor_names
            .first()
            .cloned()
            .unwrap_or_default();
        chart(
            &dir.join("queue.png"),
            &format!("{}: queue at {port} (max per sample)", sc.name),
            &xlab,
            "KB",
            &ql,
            Some(0.0),
            false,
        )?;
        let tl = per_alg(&|r| {
            let s = &r.out.series;
            s.t_ns
                .iter()
                .zip(&s.total_bps)
                .map(|(&t, &b)| (tx(t), b / 1e9))
                .collect()
        });
        chart(
            &dir.join("total_throughput.png"),
            &format!("{}: total goodput", sc.name),
            &xlab,
            "Gbit/s",
            &tl,
            Some(0.0),
            false,
        )?;
    }
    let finite = results[0]
        .out
        .flows
        .iter()
        .filter(|f| f.spec.size_bytes > 0)
        .count();
    if finite > 0 && finite <= 256 {
        let sl = per_alg(&|r| {
            r.out
                .flows
                .iter()
                .filter_map(|f| f.finish_ns.map(|t| (tx(f.spec.start_ns), tx(t))))
                .collect()
        });
        chart(
            &dir.join("start_finish.png"),
            &format!("{}: finish time vs start time", sc.name),
            &format!("start ({time_unit})"),
            &format!("finish ({time_unit})"),
            &sl,
            None,
            true,
        )?;
    }
    if results
        .iter()
        .any(|r| r.summary.bins.iter().filter(|b| b.n > 0).count() > 1)
    {
        let fl = per_alg(&|r| {
            r.summary
                .bins
                .iter()
                .enumerate()
                .filter(|(_, b)| b.n > 0)
                .map(|(i, b)| (i as f64, b.p99))
                .collect()
        });
        chart(
            &dir.join("fct_p99_slowdown.png"),
            &format!(
                "{}: p99 FCT slowdown per size bin ({})",
                sc.name,
                results[0]
                    .summary
                    .bins
                    .iter()
                    .map(|b| b.label.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            "size bin (index)",
            "p99 slowdown",
            &fl,
            Some(1.0),
            false,
        )?;
    }
    Ok(())
}
