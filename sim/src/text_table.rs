//! The one text-table printer of `sim` and `cargo xtask`: a header, a line of dashes, rows.
//! Text columns (header and cells) are left-aligned, number columns right-aligned; every number of a column gets
//! the column's decimals; a column with no value (every cell `-` or empty) is left out and named
//! in a line under the table. Widths count display columns (`µs` is one byte more than it is
//! wide). Layout is `comfy-table`'s (see ARCHITECTURE.md, "Text tables").

use comfy_table::{CellAlignment, ColumnConstraint, Table, TableComponent};

/// One column: its header, alignment and, for numbers, its decimals.
#[derive(Clone, Debug, PartialEq)]
pub struct Col {
    /// The header text.
    pub head: String,
    /// `None`: text, left-aligned. `Some(d)`: numbers with `d` decimals, right-aligned.
    pub decimals: Option<usize>,
}

impl Col {
    /// A left-aligned text column.
    pub fn text(head: &str) -> Self {
        Col {
            head: head.into(),
            decimals: None,
        }
    }

    /// A right-aligned column of numbers with `decimals` decimals.
    pub fn num(head: &str, decimals: usize) -> Self {
        Col {
            head: head.into(),
            decimals: Some(decimals),
        }
    }
}

/// One cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text shown as it is (in a number column, right-aligned).
    Text(String),
    /// A number, shown with its column's decimals; not finite: `-`.
    Num(f64),
    /// No value: `-`.
    None,
}

impl Cell {
    /// A number from text (`Num` when it parses, else the text as it is).
    pub fn parse(s: &str) -> Cell {
        match s.trim().parse::<f64>() {
            Ok(x) if !s.trim().is_empty() => Cell::Num(x),
            _ => Cell::Text(s.to_string()),
        }
    }
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell::Text(s.into())
    }
}

impl From<String> for Cell {
    fn from(s: String) -> Self {
        Cell::Text(s)
    }
}

impl From<f64> for Cell {
    fn from(x: f64) -> Self {
        Cell::Num(x)
    }
}

impl From<Option<f64>> for Cell {
    fn from(x: Option<f64>) -> Self {
        x.map_or(Cell::None, Cell::Num)
    }
}

macro_rules! int_cell {
    ($($t:ty),*) => {$(
        impl From<$t> for Cell {
            fn from(x: $t) -> Self {
                Cell::Num(x as f64)
            }
        }
    )*};
}
int_cell!(u32, u64, usize, i64);

/// The text of `c` in a column with `decimals`.
fn show(c: &Cell, decimals: Option<usize>) -> String {
    match c {
        Cell::Text(s) => s.clone(),
        Cell::None => "-".into(),
        Cell::Num(x) if !x.is_finite() => "-".into(),
        Cell::Num(x) => match decimals {
            Some(d) => format!("{x:.d$}"),
            None => format!("{x}"),
        },
    }
}

/// `rows` under `cols` as aligned text, one line each (no trailing blanks). A row shorter than
/// `cols` is filled with `-`. Columns without a value are left out and named in a last line
/// `(no value: a, b)`; with `note_dropped` false that line is not written.
pub fn render(cols: &[Col], rows: &[Vec<Cell>], note_dropped: bool) -> String {
    let text: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            (0..cols.len())
                .map(|i| show(r.get(i).unwrap_or(&Cell::None), cols[i].decimals))
                .collect()
        })
        .collect();
    let keep: Vec<usize> = (0..cols.len())
        .filter(|&i| {
            text.is_empty()
                || text.iter().any(|r| {
                    let s = r[i].trim();
                    !s.is_empty() && s != "-"
                })
        })
        .collect();
    let mut t = Table::new();
    // No borders: the header, a line of dashes under each header, a blank between columns.
    t.load_preset("                   ")
        .set_style(TableComponent::HeaderLines, '-')
        .set_style(TableComponent::VerticalLines, ' ')
        .set_style(TableComponent::MiddleHeaderIntersections, ' ')
        .set_header(keep.iter().map(|&i| cols[i].head.as_str()));
    for r in &text {
        t.add_row(keep.iter().map(|&i| r[i].as_str()));
    }
    for (k, &i) in keep.iter().enumerate() {
        if let Some(c) = t.column_mut(k) {
            c.set_padding((0, 0));
            c.set_cell_alignment(if cols[i].decimals.is_some() {
                CellAlignment::Right
            } else {
                CellAlignment::Left
            });
            c.set_constraint(ColumnConstraint::ContentWidth);
        }
    }
    let mut out = String::new();
    if !keep.is_empty() {
        for l in t.lines() {
            out.push_str(l.trim_end());
            out.push('\n');
        }
    }
    let dropped: Vec<&str> = (0..cols.len())
        .filter(|i| !keep.contains(i))
        .map(|i| cols[i].head.as_str())
        .collect();
    if note_dropped && !dropped.is_empty() {
        out.push_str(&format!("(no value: {})\n", dropped.join(", ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables() {
        struct Case {
            what: &'static str,
            cols: Vec<Col>,
            rows: Vec<Vec<Cell>>,
            want: &'static str,
        }
        let cases = [
            Case {
                what: "text left, numbers right, one precision per column",
                cols: vec![
                    Col::text("algorithm"),
                    Col::num("Gbit/s", 2),
                    Col::num("n", 0),
                ],
                rows: vec![
                    vec!["dctcp".into(), 9.5.into(), 3u64.into()],
                    vec!["swift".into(), 10.0.into(), 12u64.into()],
                ],
                want: "\
algorithm Gbit/s  n
--------- ------ --
dctcp       9.50  3
swift      10.00 12
",
            },
            Case {
                what: "a column of '-' and empties is dropped and named",
                cols: vec![Col::text("a"), Col::num("gone", 1), Col::num("x", 1)],
                rows: vec![
                    vec!["p".into(), Cell::None, 1.0.into()],
                    vec!["q".into(), "".into(), f64::NAN.into()],
                ],
                want: "\
a   x
- ---
p 1.0
q   -
(no value: gone)
",
            },
            Case {
                what: "µs counts one column wide",
                cols: vec![Col::text("port"), Col::num("RTT µs", 1), Col::num("Q", 0)],
                rows: vec![vec!["µ0".into(), 12.25.into(), 7u32.into()]],
                want: "\
port RTT µs Q
---- ------ -
µ0     12.2 7
",
            },
            Case {
                what: "numbers parsed from text take the column's decimals; text stays",
                cols: vec![Col::text("k"), Col::num("v", 1)],
                rows: vec![
                    vec!["a".into(), Cell::parse("940.123")],
                    vec!["b".into(), Cell::parse("1/2")],
                ],
                want: "\
k     v
- -----
a 940.1
b   1/2
",
            },
        ];
        for c in cases {
            assert_eq!(render(&c.cols, &c.rows, true), c.want, "{}", c.what);
        }
    }

    #[test]
    fn widths_are_display_columns() {
        let t = render(
            &[Col::text("µµµ"), Col::num("b", 0)],
            &[
                vec!["abc".into(), 1u64.into()],
                vec!["µ".into(), 2u64.into()],
            ],
            false,
        );
        let w: Vec<usize> = t.lines().map(|l| l.chars().count()).collect();
        assert_eq!(w, vec![5, 5, 5, 5], "{t}");
    }

    #[test]
    fn no_rows_keeps_the_header() {
        assert_eq!(render(&[Col::text("a")], &[], true), "a\n-\n");
    }
}
