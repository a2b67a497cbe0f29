//! Every figure kind, rendered to SVG and checked on the SVG itself: every data element lies
//! inside a plot area (lines clipped), the legend band overlaps no plot area (so it hides no
//! data), the title is above the plot areas, a time axis spans the run (a 150 ms run gets a
//! 0-150 ms axis however little data it holds) and is labelled "µs", never "us".

use rdcc_sim::plot::data::{Bin, FlowTimes, RunData};
use rdcc_sim::plot::figures::{standard, Which};
use rdcc_sim::plot::{
    fonts_available, render_rgb, render_svg, Figure, Layout, Mark, Panel, Rect, Series, XAxis, SIZE,
};

/// A run of `span_us` sampled every `dt_us`, with `flows` traced flows (sending in bursts, so
/// that thick lines have sharp spikes) and `bins` FCT bins.
fn run(label: &str, span_us: f64, dt_us: f64, flows: usize, bins: bool) -> RunData {
    let n = (span_us / dt_us) as usize;
    let t_us: Vec<f64> = (1..=n).map(|i| i as f64 * dt_us).collect();
    let spike = |i: usize, k: usize| if (i + k) % 7 == 0 { 9.0 } else { 0.4 };
    let flow_gbps: Vec<Vec<f64>> = (0..flows)
        .map(|k| (0..n).map(|i| spike(i, k)).collect())
        .collect();
    RunData {
        label: label.into(),
        span_us,
        total_gbps: (0..n)
            .map(|i| if i % 13 == 0 { 40.0 } else { 19.0 })
            .collect(),
        jain: (0..n).map(|i| 0.5 + 0.5 * (i % 5) as f64 / 4.0).collect(),
        active: (0..n).map(|i| (i % 3) as u32 + 1).collect(),
        port: Some("sw->h0".into()),
        queue_max_kb: (0..n).map(|i| ((i * 37) % 200) as f64).collect(),
        flow_gbps,
        flows: (0..16)
            .map(|i| FlowTimes {
                size_bytes: 1_000_000,
                start_us: i as f64 * 20.0,
                finish_us: Some(900.0 + (i * 31 % 400) as f64),
            })
            .collect(),
        bins: if bins {
            ["<10KB", "10KB-100KB", "100KB-1MB", ">=1MB"]
                .iter()
                .enumerate()
                .map(|(i, l)| Bin {
                    label: l.to_string(),
                    flows: 10,
                    p99: Some(2.0 + 60.0 * i as f64),
                })
                .collect()
        } else {
            vec![]
        },
        dashed: label.starts_with("b/"),
        t_us,
    }
}

/// The attribute `name` of an SVG element's text.
fn attr<'a>(el: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=\"");
    let i = el.find(&key)? + key.len();
    el[i..].split('"').next()
}

fn num(el: &str, name: &str) -> f64 {
    attr(el, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or(f64::NAN)
}

fn points(el: &str) -> Vec<(f64, f64)> {
    attr(el, "points")
        .unwrap_or("")
        .split_whitespace()
        .filter_map(|p| {
            let (x, y) = p.split_once(',')?;
            Some((x.parse().ok()?, y.parse().ok()?))
        })
        .collect()
}

/// The data elements of an SVG (what series and legend glyphs are drawn with): polylines in a
/// palette colour or thick black ones, polygons (bands, paper markers), circles, and filled
/// rectangles other than the background. Mesh lines, axes and ticks are thin black or grey.
/// Each as its points (a marker: its centre).
fn data_elements(svg: &str) -> Vec<(String, Vec<(f64, f64)>)> {
    let mut out = Vec::new();
    for el in svg.split('<').skip(1) {
        let tag = el.split_whitespace().next().unwrap_or("");
        let stroke = attr(el, "stroke").unwrap_or("none");
        let pts = match tag {
            "polyline" => {
                let thin_black = stroke == "#000000" && num(el, "stroke-width") < 2.0;
                if thin_black || stroke == "none" {
                    continue;
                }
                points(el)
            }
            "polygon" => {
                let p = points(el);
                if p.len() == 3 {
                    let c = p
                        .iter()
                        .fold((0.0, 0.0), |a, q| (a.0 + q.0 / 3.0, a.1 + q.1 / 3.0));
                    vec![c]
                } else {
                    p
                }
            }
            "circle" => vec![(num(el, "cx"), num(el, "cy"))],
            "rect" => {
                if attr(el, "fill") == Some("#FFFFFF") {
                    continue;
                }
                let (x, y) = (num(el, "x"), num(el, "y"));
                let (w, h) = (num(el, "width"), num(el, "height"));
                vec![(x, y), (x + w, y + h)]
            }
            _ => continue,
        };
        out.push((el.chars().take(90).collect(), pts));
    }
    out
}

/// The text of every `<text>` element.
fn texts(svg: &str) -> Vec<(f64, String)> {
    svg.split("<text")
        .skip(1)
        .map(|t| {
            let y = num(t, "y");
            let body = t.split_once('>').map_or("", |x| x.1);
            (
                y,
                body.split("</text>")
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string(),
            )
        })
        .collect()
}

/// The PNG's coloured pixels (series colours: neither grey, black nor white) lie in a plot
/// area or the legend: thick lines' joins stay inside too.
fn check_bitmap(fig: &Figure) {
    let (px, l) = render_rgb(fig).unwrap();
    let mut areas = l.panels.clone();
    areas.extend(l.legend);
    for (i, c) in px.chunks(3).enumerate() {
        let (lo, hi) = (c.iter().min().unwrap(), c.iter().max().unwrap());
        if hi - lo < 60 {
            continue;
        }
        let (x, y) = ((i as u32 % SIZE.0) as f64, (i as u32 / SIZE.0) as f64);
        assert!(
            areas.iter().any(|r| r.contains(x, y, 2.0)),
            "{}: coloured pixel {c:?} at ({x}, {y}) outside the plot areas {areas:?}",
            fig.file
        );
    }
}

fn check(fig: &Figure) -> (String, Layout) {
    check_bitmap(fig);
    let (svg, l) = render_svg(fig).unwrap();
    let name = &fig.file;
    assert_eq!(l.panels.len(), fig.panels.len(), "{name}");
    let inside_any = |rects: &[Rect], pts: &[(f64, f64)]| {
        rects
            .iter()
            .any(|r| pts.iter().all(|&(x, y)| r.contains(x, y, 1.0)))
    };
    let mut areas = l.panels.clone();
    areas.extend(l.legend);
    let els = data_elements(&svg);
    assert!(!els.is_empty(), "{name}: no data drawn");
    for (el, pts) in &els {
        assert!(
            inside_any(&areas, pts),
            "{name}: a data element outside the plot areas and the legend: {el} {pts:?} (areas {areas:?})"
        );
    }
    if let Some(lg) = l.legend {
        for p in &l.panels {
            assert!(
                !lg.overlaps(p),
                "{name}: legend {lg:?} over plot area {p:?}"
            );
        }
    }
    for w in l.panels.windows(2) {
        assert!(!w[0].overlaps(&w[1]), "{name}: panels overlap");
    }
    if fonts_available() {
        let tx = texts(&svg);
        // The title (the first text) is above every plot area.
        let top = l.panels.iter().map(|r| r.y0).min().unwrap() as f64;
        assert!(tx[0].0 < top, "{name}: title at {} under {top}", tx[0].0);
        for (_, t) in &tx {
            let words: Vec<&str> = t
                .split(|c: char| !c.is_alphanumeric() && c != 'µ')
                .collect();
            assert!(!words.contains(&"us"), "{name}: {t:?} says us, not µs");
        }
    }
    (svg, l)
}

#[test]
fn every_figure_kind_keeps_data_in_the_plot_area_and_the_legend_off_it() {
    // (scenario, runs, which, figures expected)
    let cases: Vec<(&str, Vec<RunData>, Which, &[&str])> = vec![
        (
            "two flows, 2 ms (µs axis)",
            vec![run("swift", 2_000.0, 10.0, 2, false)],
            Which::Run,
            &[
                "throughput_swift",
                "jain",
                "total_throughput",
                "queue",
                "start_finish",
            ],
        ),
        (
            "40 flows and bins, 100 ms",
            vec![
                run("timely", 100_000.0, 100.0, 40, true),
                run("dctcp", 100_000.0, 100.0, 40, true),
            ],
            Which::Run,
            &[
                "throughput_timely",
                "throughput_dctcp",
                "jain",
                "total_throughput",
                "queue",
                "start_finish",
                "fct_p99_slowdown",
            ],
        ),
        (
            "a comparison of saved runs",
            vec![
                run("a/swift", 1_500.0, 10.0, 16, true),
                run("b/swift", 1_500.0, 10.0, 16, true),
                run(
                    "b/a_rather_long_profile_name_that_must_be_cut_in_the_legend",
                    1_500.0,
                    10.0,
                    1,
                    true,
                ),
            ],
            Which::Compare,
            &[
                "jain",
                "total_throughput",
                "queue",
                "start_finish",
                "fct_p99_slowdown",
            ],
        ),
    ];
    for (what, runs, which, want) in cases {
        let figs = standard("timely_table1_incast", &runs, which);
        let files: Vec<&str> = figs.iter().map(|f| f.file.as_str()).collect();
        assert_eq!(files, want, "{what}");
        for f in &figs {
            let (svg, l) = check(f);
            if f.file.starts_with("throughput_") {
                assert_eq!(l.panels.len(), 2, "{what}: total and flows, {}", f.file);
                // The total is black and thick.
                assert!(
                    svg.contains("stroke=\"#000000\" stroke-width=\"3\""),
                    "{}",
                    f.file
                );
            }
            if f.file == "fct_p99_slowdown" {
                // Size bins are categories: their names under the axis, no numeric x ticks.
                for b in ["&lt;10KB", "10KB-100KB", "100KB-1MB", "&gt;=1MB"] {
                    if fonts_available() {
                        assert!(svg.contains(b), "{what}: no category {b}");
                    }
                }
                assert!(matches!(f.x, XAxis::Categories { .. }));
            }
        }
    }
}

#[test]
fn lines_are_clipped_to_an_explicit_range() {
    // Data beyond the axis' range on both sides, thick spikes: nothing outside the plot area.
    let spiky: Vec<(f64, f64)> = (-50..150)
        .map(|i| (i as f64 / 10.0, if i % 3 == 0 { 100.0 } else { 1.0 }))
        .collect();
    let fig = Figure {
        file: "clipped".into(),
        title: "clipped: a line beyond the time span".into(),
        x: XAxis::Value {
            desc: "time (µs)".into(),
            range: Some((0.0, 10.0)),
        },
        panels: vec![Panel {
            y_desc: "Gbit/s".into(),
            y_floor: Some(0.0),
            series: vec![
                Series::new("spiky", Mark::Line { color: 3 }, spiky.clone()),
                Series::new("points", Mark::Points { color: 1 }, spiky),
            ],
        }],
    };
    let (svg, l) = check(&fig);
    assert_eq!(l.x_range, (0.0, 10.0));
    assert!(svg.contains("polyline"));
}

#[test]
fn many_flows_are_drawn_as_a_distribution_and_few_as_lines() {
    for (flows, want) in [
        (2usize, vec!["total (all flows)", "flow 0", "flow 1"]),
        (
            40,
            vec![
                "total (all flows)",
                "paper: TIMELY total 19.4 Gbit/s",
                "p10-p90 of 40 flows",
                "min, max",
                "median",
                "paper: fair share 500 Mbit/s per connection",
            ],
        ),
    ] {
        let r = run("timely", 100_000.0, 100.0, flows, false);
        let figs = standard(
            if flows == 2 {
                "other"
            } else {
                "timely_table1_incast"
            },
            &[r],
            Which::Run,
        );
        let names: Vec<&str> = figs[0]
            .panels
            .iter()
            .flat_map(|p| &p.series)
            .filter_map(|s| s.name.as_deref())
            .collect();
        assert_eq!(names, want, "{flows} flows");
        // 1000 samples of 100 µs in groups of 10: each flow's mean over 1 ms.
        let y = &figs[0].panels[1].y_desc;
        assert_eq!(
            y,
            if flows == 2 {
                "per flow Gbit/s"
            } else {
                "per flow Gbit/s (means over 1 ms)"
            }
        );
    }
}

#[test]
fn the_time_axis_spans_the_run_not_the_data() {
    // A 150 ms run without traced flows (web search: flows arrive later), and one whose data
    // stop early: both get a 0-150 ms axis. A 2 ms run is in µs.
    let mut quiet = run("swift", 150_000.0, 100.0, 0, false);
    quiet
        .total_gbps
        .iter_mut()
        .skip(10)
        .for_each(|g| *g = f64::NAN);
    for (r, unit, span) in [
        (run("swift", 150_000.0, 100.0, 0, false), "time (ms)", 150.0),
        (quiet, "time (ms)", 150.0),
        (run("swift", 2_000.0, 10.0, 3, false), "time (µs)", 2000.0),
    ] {
        let figs = standard("websearch_leafspine_60", &[r], Which::Run);
        for f in figs.iter().filter(|f| f.file != "start_finish") {
            let (svg, l) = check(f);
            assert_eq!(l.x_range, (0.0, span), "{}", f.file);
            if fonts_available() {
                assert!(svg.contains(unit), "{}: no {unit}", f.file);
                // The x ticks (the last numbers drawn) reach the end of the run.
                let last = texts(&svg)
                    .iter()
                    .rev()
                    .find_map(|(_, t)| t.parse::<f64>().ok())
                    .unwrap();
                assert!(last >= 0.9 * span, "{}: last tick {last}", f.file);
            }
        }
    }
}

#[test]
fn the_harness_chart_writes_png_and_svg() {
    let dir = std::env::temp_dir().join(format!("rdcc-plots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lines = [rdcc_sim::plot::Line {
        name: "flow 0 (swift)".into(),
        pts: vec![(0.0, 1.0), (1.0, 50.0), (2.0, 1.0)],
    }];
    let files = rdcc_sim::plot::chart(
        &dir.join("swift-tput.png"),
        "eight_flows: swift goodput /100 ms, trial 1/3 (TCG, 50 Mbit/s, 2 ms, drop-tail 1000 pkts)",
        "time (s)",
        "Mbit/s",
        &lines,
        Some(0.0),
        false,
    )
    .unwrap();
    assert_eq!(
        files,
        [dir.join("swift-tput.png"), dir.join("swift-tput.svg")]
    );
    for f in &files {
        assert!(
            std::fs::metadata(f).unwrap().len() > 1000,
            "{}",
            f.display()
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_harness_goodput_figure_totals_the_flows_and_shows_many_as_a_distribution() {
    use rdcc_sim::plot::figures::goodput_figure;
    // (flows, expected legend of the flows' panel); flow k sends from 0.1 k s for 2 s.
    let cases: &[(usize, &[&str])] = &[
        (3, &["flow 0", "flow 1", "flow 2"]),
        (17, &["p10-p90 of 17 flows", "min, max", "median"]),
    ];
    for &(n, want) in cases {
        let flows: Vec<(String, Vec<(f64, f64)>)> = (0..n)
            .map(|k| {
                let pts = (k..k + 20)
                    .map(|i| (i as f64 * 0.1, 5.0 + (i % 4) as f64))
                    .collect();
                (format!("flow {k}"), pts)
            })
            .collect();
        let span = (n + 20) as f64 * 0.1;
        let fig = goodput_figure(
            "x-tput",
            "x: goodput",
            ("time (s)", span),
            "Mbit/s",
            &flows,
            0.1,
        );
        let names: Vec<&str> = fig.panels[1]
            .series
            .iter()
            .filter_map(|s| s.name.as_deref())
            .collect();
        assert_eq!(names, want, "{n} flows");
        // The total per 0.1 s bin is the flows' sum: at 0.1 s flows 0 and 1, 6 Mbit/s each.
        let total = &fig.panels[0].series[0];
        assert_eq!(total.mark, Mark::Total);
        let at = |t: f64| total.pts.iter().find(|p| (p.0 - t).abs() < 1e-9).unwrap().1;
        assert_eq!(at(0.1), 12.0);
        let (_, l) = check(&fig);
        assert_eq!(l.x_range, (0.0, span));
    }
}
