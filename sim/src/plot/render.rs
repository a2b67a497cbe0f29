//! Drawing a [`Figure`] on any plotters backend: the title band (wrapped), the legend band on
//! the right, the panels stacked over one x axis, and the series clipped to their panel.

use super::clip::clip_polyline;
use super::{color, fonts_available, Figure, Mark, Panel, Series, XAxis, SIZE};
use crate::error::{Error, Result};
use plotters::coord::Shift;
use plotters::element::DashedPathElement;
use plotters::prelude::*;

/// A rectangle in pixels, `x0 <= x < x1`, `y0 <= y < y1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Left.
    pub x0: i32,
    /// Top.
    pub y0: i32,
    /// Right (exclusive).
    pub x1: i32,
    /// Bottom (exclusive).
    pub y1: i32,
}

impl Rect {
    /// Whether the point lies inside, with `tol` pixels of tolerance.
    pub fn contains(&self, x: f64, y: f64, tol: f64) -> bool {
        x >= self.x0 as f64 - tol
            && x <= self.x1 as f64 + tol
            && y >= self.y0 as f64 - tol
            && y <= self.y1 as f64 + tol
    }

    /// Whether the two rectangles share any pixel.
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x0 < o.x1 && o.x0 < self.x1 && self.y0 < o.y1 && o.y0 < self.y1
    }
}

/// Where a figure's parts went.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The title band.
    pub title: Rect,
    /// Each panel's plot area (data are drawn only inside).
    pub panels: Vec<Rect>,
    /// The legend band (`None`: no legend).
    pub legend: Option<Rect>,
    /// The x range drawn.
    pub x_range: (f64, f64),
    /// Each panel's y range drawn.
    pub y_ranges: Vec<(f64, f64)>,
}

/// The figure as SVG text, and its layout.
pub fn render_svg(fig: &Figure) -> Result<(String, Layout)> {
    let mut text = String::new();
    let layout = {
        let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        let l = draw(&root, fig, false)?;
        root.present()
            .map_err(|e| Error::encode("svg", format!("{e:?}")))?;
        l
    };
    Ok((text, layout))
}

/// The figure as the PNG's pixels (RGB, row by row, [`SIZE`]), and its layout.
pub fn render_rgb(fig: &Figure) -> Result<(Vec<u8>, Layout)> {
    let mut buf = vec![0u8; (SIZE.0 * SIZE.1 * 3) as usize];
    let layout = {
        let root = BitMapBackend::with_buffer(&mut buf, SIZE).into_drawing_area();
        let l = draw(&root, fig, true)?;
        root.present()
            .map_err(|e| Error::encode("bitmap", format!("{e:?}")))?;
        l
    };
    Ok((buf, layout))
}

fn e<E: std::fmt::Debug>(err: E) -> Error {
    Error::encode("plot", format!("{err:?}"))
}

const TITLE_PT: u32 = 18;
const LEGEND_PT: u32 = 13;
const LEGEND_ROW: i32 = 20;
const LEGEND_MAX_W: i32 = 250;

/// Short tick labels: at most 3 decimals, no trailing zeros.
pub(crate) fn tick(v: f64) -> String {
    let a = v.abs();
    let s = if a != 0.0 && !(1e-3..1e6).contains(&a) {
        format!("{v:.1e}")
    } else {
        let s = format!("{v:.3}");
        let s = s.trim_end_matches('0').trim_end_matches('.').to_string();
        if s == "-0" {
            "0".into()
        } else {
            s
        }
    };
    s
}

/// Words of `text` in lines no wider than `width` pixels (at most `max` lines, the last one
/// cut with an ellipsis).
fn wrap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    text: &str,
    style: &TextStyle,
    width: u32,
    max: usize,
) -> Vec<String> {
    let w = |s: &str| area.estimate_text_size(s, style).map(|d| d.0).unwrap_or(0);
    let mut lines: Vec<String> = Vec::new();
    let mut cur = String::new();
    for word in text.split_whitespace() {
        let cand = if cur.is_empty() {
            word.to_string()
        } else {
            format!("{cur} {word}")
        };
        if w(&cand) <= width || cur.is_empty() {
            cur = cand;
        } else {
            lines.push(std::mem::replace(&mut cur, word.to_string()));
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    if lines.len() > max {
        lines.truncate(max);
        let last = lines.last_mut().expect("max >= 1");
        last.push('…');
    }
    lines
        .into_iter()
        .map(|l| fit(area, &l, style, width))
        .collect()
}

/// `s` cut with an ellipsis to fit `width` pixels.
fn fit<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    s: &str,
    style: &TextStyle,
    width: u32,
) -> String {
    let w = |s: &str| area.estimate_text_size(s, style).map(|d| d.0).unwrap_or(0);
    if w(s) <= width {
        return s.to_string();
    }
    let mut chars: Vec<char> = s.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let cand: String = chars.iter().collect::<String>() + "…";
        if w(&cand) <= width {
            return cand;
        }
    }
    String::new()
}

/// The panel's y range over the figure's x range: from its data (and paper values), from
/// `y_floor` at most, with 6 % headroom.
fn y_range(p: &Panel, xr: (f64, f64), categorical: bool) -> (f64, f64) {
    let (mut a, mut b) = (f64::MAX, f64::MIN);
    for s in &p.series {
        let band = match &s.mark {
            Mark::Band { hi, .. } => Some(hi),
            _ => None,
        };
        for &(x, y) in s.pts.iter().chain(band.into_iter().flatten()) {
            let in_x = categorical || s.mark == Mark::Paper || (x >= xr.0 && x <= xr.1);
            if x.is_finite() && y.is_finite() && in_x {
                a = a.min(y);
                b = b.max(y);
            }
        }
    }
    if a > b {
        return (p.y_floor.unwrap_or(0.0), p.y_floor.unwrap_or(0.0) + 1.0);
    }
    if p.series
        .iter()
        .any(|s| matches!(s.mark, Mark::Points { .. }))
    {
        // Room for the markers at the bottom.
        a -= (b - a).max(1e-9) * 0.03;
    }
    if let Some(f) = p.y_floor {
        a = a.min(f);
    }
    if b <= a {
        b = a + 1.0;
    }
    (a, b + (b - a) * if categorical { 0.1 } else { 0.06 })
}

struct Entry {
    name: String,
    mark: Mark,
}

/// Draw `fig` on `root`; `bitmap`: draw lines segment by segment ([`draw_pieces`]).
pub(crate) fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    fig: &Figure,
    bitmap: bool,
) -> Result<Layout> {
    let text = fonts_available();
    let (w, h) = root.dim_in_pixel();
    root.fill(&WHITE).map_err(e)?;
    // Title band.
    let title_style: TextStyle = ("sans-serif", TITLE_PT).into();
    let title_lines = if text {
        wrap(root, &fig.title, &title_style, w - 24, 3)
    } else {
        vec![]
    };
    let title_h = 10 + 22 * title_lines.len().max(1) as i32;
    for (i, l) in title_lines.iter().enumerate() {
        let tw = root
            .estimate_text_size(l, &title_style)
            .map(|d| d.0)
            .unwrap_or(0) as i32;
        root.draw(&Text::new(
            l.clone(),
            ((w as i32 - tw) / 2, 6 + 22 * i as i32),
            title_style.clone(),
        ))
        .map_err(e)?;
    }
    // Legend band.
    let entries: Vec<Entry> = fig
        .panels
        .iter()
        .flat_map(|p| &p.series)
        .filter_map(|s| {
            s.name.as_ref().map(|n| Entry {
                name: n.clone(),
                mark: s.mark.clone(),
            })
        })
        .collect();
    let legend_style: TextStyle = ("sans-serif", LEGEND_PT).into();
    let legend_w = if text && !entries.is_empty() {
        let widest = entries
            .iter()
            .map(|en| {
                root.estimate_text_size(&en.name, &legend_style)
                    .map(|d| d.0)
                    .unwrap_or(0) as i32
            })
            .max()
            .unwrap_or(0);
        (widest + 48).clamp(110, LEGEND_MAX_W)
    } else {
        0
    };
    let body = root.clone().shrink((0, title_h), (w, h as i32 - title_h));
    let (main, legend_area) = body.split_horizontally(w as i32 - legend_w);
    let categorical = matches!(fig.x, XAxis::Categories { .. });
    let xr = fig.x_range();
    let x_desc = match &fig.x {
        XAxis::Value { desc, .. } | XAxis::Categories { desc, .. } => desc.clone(),
    };
    // Panels: equal heights, the last one taller by the x axis' labels.
    let n = fig.panels.len().max(1) as i32;
    let main_h = main.dim_in_pixel().1 as i32;
    let x_area = if text { 48 } else { 8 };
    let inner = (main_h - x_area - 8 * n) / n;
    let mut breaks = Vec::new();
    for i in 1..n {
        breaks.push(i * (inner + 8));
    }
    let areas = main.split_by_breakpoints::<i32, i32, _, _>(Vec::<i32>::new(), breaks);
    let mut layout = Layout {
        title: Rect {
            x0: 0,
            y0: 0,
            x1: w as i32,
            y1: title_h,
        },
        panels: vec![],
        legend: None,
        x_range: xr,
        y_ranges: vec![],
    };
    for (k, (p, area)) in fig.panels.iter().zip(&areas).enumerate() {
        let last = k + 1 == fig.panels.len();
        let yr = y_range(p, xr, categorical);
        let mut cb = ChartBuilder::on(area);
        cb.margin_top(8).margin_right(16);
        if text {
            cb.x_label_area_size(if last { x_area } else { 0 })
                .y_label_area_size(78);
        } else {
            cb.margin_left(8).margin_bottom(if last { 8 } else { 0 });
        }
        let mut c = cb.build_cartesian_2d(xr.0..xr.1, yr.0..yr.1).map_err(e)?;
        {
            let fmt = |v: &f64| tick(*v);
            let mut m = c.configure_mesh();
            m.light_line_style(RGBColor(235, 235, 235))
                .y_label_formatter(&fmt)
                .x_label_formatter(&fmt);
            if text {
                m.y_desc(p.y_desc.as_str()).label_style(("sans-serif", 13));
                if last {
                    m.x_desc(x_desc.as_str());
                } else {
                    m.x_labels(0);
                }
                if categorical {
                    m.x_labels(0).disable_x_mesh();
                }
            } else {
                m.x_labels(0).y_labels(0);
            }
            m.draw().map_err(e)?;
        }
        let (px, py) = c.plotting_area().get_pixel_range();
        let rect = Rect {
            x0: px.start,
            y0: py.start,
            x1: px.end,
            y1: py.end,
        };
        draw_series(&mut c, p, xr, yr, bitmap)?;
        if categorical && last && text {
            if let XAxis::Categories { names, .. } = &fig.x {
                let style: TextStyle = ("sans-serif", 13).into();
                for (i, name) in names.iter().enumerate() {
                    let (cx, _) = c.backend_coord(&(i as f64, yr.0));
                    let tw = root
                        .estimate_text_size(name, &style)
                        .map(|d| d.0)
                        .unwrap_or(0) as i32;
                    root.draw(&Text::new(
                        name.clone(),
                        (cx - tw / 2, rect.y1 + 8),
                        style.clone(),
                    ))
                    .map_err(e)?;
                }
            }
        }
        layout.panels.push(rect);
        layout.y_ranges.push(yr);
    }
    if legend_w > 0 {
        layout.legend = Some(draw_legend(&legend_area, &entries, &legend_style)?);
    }
    Ok(layout)
}

type Chart<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Draw the pieces of a clipped line; on a bitmap as separate segments: plotters' bitmap
/// backend joins the segments of a wide polyline with unlimited miters, so a sharp spike in
/// a thick line shot out of the plot area (over the title and the tick labels); segments
/// have no joins. SVG viewers limit miters themselves, so SVG keeps whole polylines.
fn draw_pieces<DB: DrawingBackend>(
    c: &mut Chart<'_, DB>,
    pieces: Vec<Vec<(f64, f64)>>,
    style: ShapeStyle,
    bitmap: bool,
) -> Result<()> {
    for piece in pieces {
        if !bitmap {
            c.draw_series(LineSeries::new(piece, style)).map_err(e)?;
            continue;
        }
        if piece.len() == 1 {
            c.draw_series(std::iter::once(Circle::new(piece[0], 1, style.filled())))
                .map_err(e)?;
            continue;
        }
        c.draw_series(
            piece
                .windows(2)
                .map(|w| PathElement::new(vec![w[0], w[1]], style)),
        )
        .map_err(e)?;
    }
    Ok(())
}

fn draw_series<DB: DrawingBackend>(
    c: &mut Chart<'_, DB>,
    p: &Panel,
    xr: (f64, f64),
    yr: (f64, f64),
    bitmap: bool,
) -> Result<()> {
    let inside = |&(x, y): &(f64, f64)| {
        x.is_finite() && y.is_finite() && x >= xr.0 && x <= xr.1 && y >= yr.0 && y <= yr.1
    };
    let bars: Vec<&Series> = p
        .series
        .iter()
        .filter(|s| matches!(s.mark, Mark::Bars { .. }))
        .collect();
    let mut bar_k = 0usize;
    for s in &p.series {
        match &s.mark {
            Mark::Line { color: i } => {
                draw_pieces(
                    c,
                    clip_polyline(&s.pts, xr, yr),
                    color(*i).stroke_width(2),
                    bitmap,
                )?;
            }
            Mark::Total => {
                draw_pieces(
                    c,
                    clip_polyline(&s.pts, xr, yr),
                    BLACK.stroke_width(3),
                    bitmap,
                )?;
            }
            Mark::Dashed { color: i, width } => {
                for piece in clip_polyline(&s.pts, xr, yr) {
                    c.draw_series(DashedLineSeries::new(
                        piece,
                        6,
                        4,
                        color(*i).stroke_width(*width),
                    ))
                    .map_err(e)?;
                }
            }
            Mark::Points { color: i } => {
                // A marker on the plot area's edge shrinks to stay inside it.
                let col = color(*i);
                let (px, py) = c.plotting_area().get_pixel_range();
                // Odd series get rings, so that coinciding points of two series both show.
                let ring = i % 2 == 1;
                let size = if ring { 6 } else { 4 };
                let radius = |p: &(f64, f64)| {
                    let (x, y) = c.backend_coord(p);
                    size.min(x - px.start)
                        .min(px.end - 1 - x)
                        .min(y - py.start)
                        .min(py.end - 1 - y)
                        .max(1)
                };
                let marks: Vec<_> = s
                    .pts
                    .iter()
                    .filter(|p| inside(p))
                    .map(|&p| {
                        let style = if ring {
                            col.stroke_width(2)
                        } else {
                            col.filled()
                        };
                        Circle::new(p, radius(&p), style)
                    })
                    .collect();
                c.draw_series(marks).map_err(e)?;
            }
            Mark::Band { color: i, hi } => {
                let cl = |&(x, y): &(f64, f64)| (x, y.clamp(yr.0, yr.1));
                let lo: Vec<(f64, f64)> = s
                    .pts
                    .iter()
                    .filter(|(x, y)| x.is_finite() && y.is_finite() && *x >= xr.0 && *x <= xr.1)
                    .map(cl)
                    .collect();
                let up: Vec<(f64, f64)> = hi
                    .iter()
                    .filter(|(x, y)| x.is_finite() && y.is_finite() && *x >= xr.0 && *x <= xr.1)
                    .map(cl)
                    .collect();
                if lo.len() > 1 && up.len() > 1 {
                    let poly: Vec<(f64, f64)> =
                        lo.into_iter().chain(up.into_iter().rev()).collect();
                    c.draw_series(std::iter::once(Polygon::new(
                        poly,
                        color(*i).mix(0.25).filled(),
                    )))
                    .map_err(e)?;
                }
            }
            Mark::Bars { color: i } => {
                let width = 0.8 / bars.len().max(1) as f64;
                let off = -0.4 + width * bar_k as f64;
                bar_k += 1;
                let base = 0f64.clamp(yr.0, yr.1);
                // The value above each bar (inside the headroom `y_range` leaves).
                let label: TextStyle = ("sans-serif", 11).into();
                for &(x, y) in s.pts.iter().filter(|(x, y)| x.is_finite() && y.is_finite()) {
                    let (cx, cy) = c.backend_coord(&(x + off + width * 0.5, y.clamp(yr.0, yr.1)));
                    let txt = tick(if y >= 100.0 {
                        y.round()
                    } else {
                        (y * 10.0).round() / 10.0
                    });
                    let tw = c
                        .plotting_area()
                        .estimate_text_size(&txt, &label)
                        .map(|d| d.0)
                        .unwrap_or(0) as i32;
                    let area = c.plotting_area().strip_coord_spec();
                    let (ax, ay) = area.get_base_pixel();
                    area.draw(&Text::new(
                        txt,
                        (cx - ax - tw / 2, cy - ay - 14),
                        label.clone(),
                    ))
                    .map_err(e)?;
                }
                c.draw_series(
                    s.pts
                        .iter()
                        .filter(|(x, y)| x.is_finite() && y.is_finite())
                        .map(|&(x, y)| {
                            let x0 = x + off + width * 0.1;
                            let x1 = x + off + width * 0.9;
                            Rectangle::new(
                                [
                                    (x0.clamp(xr.0, xr.1), base),
                                    (x1.clamp(xr.0, xr.1), y.clamp(yr.0, yr.1)),
                                ],
                                color(*i).filled(),
                            )
                        }),
                )
                .map_err(e)?;
            }
            Mark::Paper => {
                let pts: Vec<(f64, f64)> = if s.pts.len() == 1 {
                    // One number: a reference line across the figure, its markers inset.
                    let d = (xr.1 - xr.0) * 0.02;
                    vec![(xr.0 + d, s.pts[0].1), (xr.1 - d, s.pts[0].1)]
                } else {
                    s.pts.clone()
                };
                for piece in clip_polyline(&pts, xr, yr) {
                    c.draw_series(DashedLineSeries::new(piece, 8, 5, BLACK.stroke_width(2)))
                        .map_err(e)?;
                }
                c.draw_series(
                    pts.iter()
                        .filter(|p| inside(p))
                        .map(|&p| TriangleMarker::new(p, 6, BLACK.filled())),
                )
                .map_err(e)?;
            }
        }
    }
    Ok(())
}

fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[Entry],
    style: &TextStyle,
) -> Result<Rect> {
    let (xs, ys) = area.get_pixel_range();
    let (aw, ah) = area.dim_in_pixel();
    let fits = ((ah as i32 - 16) / LEGEND_ROW).max(1) as usize;
    let shown = if entries.len() > fits {
        fits - 1
    } else {
        entries.len()
    };
    for (i, en) in entries.iter().take(shown).enumerate() {
        let y = 12 + LEGEND_ROW * i as i32;
        let (gx0, gx1, gy) = (6, 30, y + 8);
        match &en.mark {
            Mark::Line { color: c } => area
                .draw(&PathElement::new(
                    vec![(gx0, gy), (gx1, gy)],
                    color(*c).stroke_width(2),
                ))
                .map_err(e)?,
            Mark::Total => area
                .draw(&PathElement::new(
                    vec![(gx0, gy), (gx1, gy)],
                    BLACK.stroke_width(3),
                ))
                .map_err(e)?,
            Mark::Dashed { color: c, width } => area
                .draw(&DashedPathElement::new(
                    vec![(gx0, gy), (gx1, gy)],
                    6,
                    4,
                    color(*c).stroke_width(*width),
                ))
                .map_err(e)?,
            Mark::Points { color: c } => {
                let style = if c % 2 == 1 {
                    color(*c).stroke_width(2)
                } else {
                    color(*c).filled()
                };
                let r = if c % 2 == 1 { 6 } else { 4 };
                area.draw(&Circle::new(((gx0 + gx1) / 2, gy), r, style))
                    .map_err(e)?
            }
            Mark::Band { color: c, .. } => area
                .draw(&Rectangle::new(
                    [(gx0, gy - 6), (gx1, gy + 6)],
                    color(*c).mix(0.25).filled(),
                ))
                .map_err(e)?,
            Mark::Bars { color: c } => area
                .draw(&Rectangle::new(
                    [(gx0 + 4, gy - 6), (gx1 - 4, gy + 6)],
                    color(*c).filled(),
                ))
                .map_err(e)?,
            Mark::Paper => {
                area.draw(&DashedPathElement::new(
                    vec![(gx0, gy), (gx1, gy)],
                    8,
                    5,
                    BLACK.stroke_width(2),
                ))
                .map_err(e)?;
                area.draw(&TriangleMarker::new(
                    ((gx0 + gx1) / 2, gy),
                    6,
                    BLACK.filled(),
                ))
                .map_err(e)?;
            }
        }
        let name = fit(area, &en.name, style, aw.saturating_sub(44));
        area.draw(&Text::new(name, (38, y), style.clone()))
            .map_err(e)?;
    }
    if shown < entries.len() {
        let y = 12 + LEGEND_ROW * shown as i32;
        area.draw(&Text::new(
            format!("… {} more", entries.len() - shown),
            (38, y),
            style.clone(),
        ))
        .map_err(e)?;
    }
    Ok(Rect {
        x0: xs.start,
        y0: ys.start,
        x1: xs.end,
        y1: ys.end,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tick_labels_are_short() {
        for (v, want) in [
            (20.0, "20"),
            (2.5, "2.5"),
            (0.125, "0.125"),
            (-0.0, "0"),
            (1e7, "1.0e7"),
        ] {
            assert_eq!(tick(v), want);
        }
    }
}
