//! Clipping lines to a plot area, in data coordinates (plotters draws what it is given,
//! wherever it falls).

/// The part of segment a-b inside the box, if any (Liang-Barsky).
fn clip_segment(
    a: (f64, f64),
    b: (f64, f64),
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
) -> Option<((f64, f64), (f64, f64))> {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - x0),
        (dx, x1 - a.0),
        (-dy, a.1 - y0),
        (dy, y1 - a.1),
    ] {
        if p == 0.0 {
            if q < 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 <= t1).then_some((
        (a.0 + t0 * dx, a.1 + t0 * dy),
        (a.0 + t1 * dx, a.1 + t1 * dy),
    ))
}

/// The polyline through `pts` clipped to the box: the pieces inside it. Non-finite points
/// break the line.
pub(crate) fn clip_polyline(
    pts: &[(f64, f64)],
    xr: (f64, f64),
    yr: (f64, f64),
) -> Vec<Vec<(f64, f64)>> {
    let mut pieces: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut cur: Vec<(f64, f64)> = Vec::new();
    let finite = |p: &(f64, f64)| p.0.is_finite() && p.1.is_finite();
    let inside = |p: (f64, f64)| p.0 >= xr.0 && p.0 <= xr.1 && p.1 >= yr.0 && p.1 <= yr.1;
    if pts.len() == 1 && finite(&pts[0]) && inside(pts[0]) {
        return vec![pts.to_vec()];
    }
    for w in pts.windows(2) {
        let (a, b) = (w[0], w[1]);
        if !finite(&a) || !finite(&b) {
            if cur.len() > 1 {
                pieces.push(std::mem::take(&mut cur));
            }
            cur.clear();
            continue;
        }
        match clip_segment(a, b, xr, yr) {
            Some((p, q)) => {
                if cur.last() != Some(&p) {
                    if cur.len() > 1 {
                        pieces.push(std::mem::take(&mut cur));
                    }
                    cur = vec![p];
                }
                cur.push(q);
                if q != b {
                    pieces.push(std::mem::take(&mut cur));
                }
            }
            None => {
                if cur.len() > 1 {
                    pieces.push(std::mem::take(&mut cur));
                }
                cur.clear();
            }
        }
    }
    if cur.len() > 1 {
        pieces.push(cur);
    }
    pieces
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn polylines_are_clipped_to_the_box() {
        let b = ((0.0, 10.0), (0.0, 1.0));
        // (points, expected pieces)
        type Pts = &'static [(f64, f64)];
        let cases: &[(Pts, &[Pts])] = &[
            (&[(1.0, 0.5), (2.0, 0.5)], &[&[(1.0, 0.5), (2.0, 0.5)]]),
            (&[(1.0, 0.5), (1.0, 2.0)], &[&[(1.0, 0.5), (1.0, 1.0)]]),
            (
                &[(1.0, 0.5), (2.0, 3.0), (3.0, 0.5)],
                &[&[(1.0, 0.5), (1.2, 1.0)], &[(2.8, 1.0), (3.0, 0.5)]],
            ),
            (&[(-5.0, 0.5), (5.0, 0.5)], &[&[(0.0, 0.5), (5.0, 0.5)]]),
            (&[(1.0, 2.0), (2.0, 3.0)], &[]),
            (
                &[(1.0, 0.5), (f64::NAN, 0.5), (2.0, 0.5), (3.0, 0.5)],
                &[&[(2.0, 0.5), (3.0, 0.5)]],
            ),
        ];
        for (pts, want) in cases {
            let got = clip_polyline(pts, b.0, b.1);
            let want: Vec<Vec<(f64, f64)>> = want.iter().map(|p| p.to_vec()).collect();
            assert_eq!(got.len(), want.len(), "{pts:?}: {got:?}");
            for (g, w) in got.iter().zip(&want) {
                for (a, b) in g.iter().zip(w) {
                    assert!(
                        (a.0 - b.0).abs() < 1e-9 && (a.1 - b.1).abs() < 1e-9,
                        "{got:?}"
                    );
                }
            }
        }
    }
}
