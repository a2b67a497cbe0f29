//! One vocabulary with the kernel modules: scenario values in human units, parsed by
//! [`rdcc_core::units`] (the parser of the modules' parameter text).
//!
//! A key's name states its unit. A law parameter (`[cc.NAME]` keys other than `law`) takes
//! what its module parameter takes: `base_target_ns = "25us"`, `beta_q16 = 0.8`,
//! `init_cwnd_pkts_q20 = "52pkt"` (a bare integer keeps its meaning in the name's unit:
//! `init_cwnd_pkts_q20 = 54525952`). Every other key ending in a unit takes a string in that
//! unit's family too: `_ns`, `_bytes`, `_bps`, `_mbps`, `_q16`, `_pkts_q20` as the modules do,
//! and the simulator's own `_us` (time, e.g. `link_delay_us = "500ns"`), `_kb` (size, KB =
//! 1000 B, e.g. `buffer_kb = "64KiB"`) and `_gbps` (rate, e.g. `host_rate_gbps = "400Mbit"`);
//! a number or a bare number in a string keeps its meaning in the name's unit.
//!
//! [`normalize`] rewrites such values in a scenario's text to plain numbers in the key's unit
//! before the scenario is deserialized (only the values change: every line keeps its number,
//! so later errors still point at the right line); [`convert`] does the same for one
//! `--set` value. What is written back (the run record) is those numbers, which parse back to
//! the same values.

use crate::cc::{build_params, Law};
use crate::error::{invalid, Error, Result};
use crate::xpass;
use rdcc_core::units::Unit;

/// A TOML value as the conversion sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Raw<'a> {
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A string.
    Str(&'a str),
    /// Anything else (boolean, date, table, array).
    Other,
}

/// A converted value: an integer (integer units) or a float (`_us`, `_kb`, `_gbps`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// In the key's integer unit.
    Int(i64),
    /// In the key's unit (µs, KB, Gbit/s).
    Float(f64),
}

impl Num {
    /// TOML text of the number that parses back to the same value.
    pub fn toml_text(self) -> String {
        match self {
            Num::Int(n) => n.to_string(),
            // Debug prints the shortest text that parses back to the same f64, with a point or
            // an exponent (both valid TOML floats).
            Num::Float(f) => format!("{f:?}"),
        }
    }

    /// As a `toml::Value`.
    pub fn value(self) -> toml::Value {
        match self {
            Num::Int(n) => toml::Value::Integer(n),
            Num::Float(f) => toml::Value::Float(f),
        }
    }
}

/// The simulator's float units: the units.rs family a string is parsed in, and the target
/// unit's size in that family's integer unit.
fn float_unit(key: &str) -> Option<(Unit, f64, &'static str)> {
    if key.ends_with("_us") {
        Some((Unit::Ns, 1e3, "time: 25us, 1.5ms, 500ns, or a number of µs"))
    } else if key.ends_with("_kb") {
        Some((
            Unit::Bytes,
            1e3,
            "size: 64KiB, 1.5MB, 9000B, or a number of KB (1000 B)",
        ))
    } else if key.ends_with("_gbps") {
        // Bytes per second; one Gbit/s is 1.25e8 bytes/s.
        Some((
            Unit::Bps,
            1.25e8,
            "rate: 10Gbit, 400Mbit, or a number of Gbit/s",
        ))
    } else {
        None
    }
}

/// Whether `key` of section `path` (dotted, without array indices) is a law parameter.
fn is_law_key(path: &[&str], key: &str) -> bool {
    path.len() == 2 && path[0] == "cc" && key != "law" && key != crate::params::PARAMS_KEY
}

/// A bare decimal number (digits and at most one point).
fn bare_number(s: &str) -> Option<f64> {
    let t = s.trim();
    let ok = !t.is_empty()
        && t.bytes().all(|c| c.is_ascii_digit() || c == b'.')
        && t.bytes().filter(|&c| c == b'.').count() <= 1
        && t.bytes().any(|c| c.is_ascii_digit());
    ok.then(|| t.parse().ok()).flatten()
}

/// Text of a float for units.rs: always with a point, so `52.0` packets is not the bare
/// integer 52 (raw Q20).
fn float_text(f: f64) -> String {
    let t = f.to_string();
    if t.contains('.') || !f.is_finite() {
        t
    } else {
        t + ".0"
    }
}

fn parse_unit(u: Unit, text: &str) -> Result<u64> {
    u.parse(text.as_bytes())
        .map_err(|e| invalid!("{}; expected {}", e.text(), u.describe()))
}

fn to_i64(n: u64) -> Result<i64> {
    i64::try_from(n).map_err(|_| invalid!("{n} is too large"))
}

/// Convert the value `v` of `key` in section `path`: `Ok(None)` when it stays as it is (a
/// number already in the key's unit, or a key without a unit), `Ok(Some(n))` to replace it,
/// or an error (without the key: the caller names it).
pub fn convert(path: &[&str], key: &str, v: Raw) -> Result<Option<Num>> {
    if is_law_key(path, key) {
        let u = Unit::of(key);
        return match v {
            Raw::Int(n) if n >= 0 => Ok(None),
            Raw::Str(s) => Ok(Some(Num::Int(to_i64(parse_unit(u, s)?)?))),
            Raw::Float(f) if f >= 0.0 => {
                Ok(Some(Num::Int(to_i64(parse_unit(u, &float_text(f))?)?)))
            }
            _ => Err(invalid!(
                "expected a non-negative integer or a {}",
                u.describe()
            )),
        };
    }
    let Raw::Str(s) = v else {
        return Ok(None);
    };
    if let Some((family, per, what)) = float_unit(key) {
        if let Some(x) = bare_number(s) {
            return Ok(Some(Num::Float(x)));
        }
        let n = family
            .parse(s.as_bytes())
            .map_err(|e| invalid!("{}; expected {what}", e.text()))?;
        return Ok(Some(Num::Float(n as f64 / per)));
    }
    match Unit::of(key) {
        Unit::Plain => Ok(None),
        u => Ok(Some(Num::Int(to_i64(parse_unit(u, s)?)?))),
    }
}

/// Refuse a `[cc.NAME]` key its law does not have (checked here, where its line is known; the
/// ranges are checked with the whole profile later).
fn check_law_key(law: &str, key: &str, n: u64) -> Result<()> {
    let one = [(key.to_string(), n)];
    let err = if law == xpass::config::LAW_NAME {
        xpass::config::apply(&xpass::XpassConfig::default(), &one).err()
    } else {
        match Law::parse(law) {
            Some(l) => build_params(l, &one).err(),
            None => None,
        }
    };
    match err {
        Some(e) if e.to_string().contains("unknown") => Err(e),
        _ => Ok(()),
    }
}

/// One rewrite: a byte range of the text and its new text.
type Edit = (std::ops::Range<usize>, String);

struct Walk<'t> {
    text: &'t str,
    edits: Vec<Edit>,
}

impl Walk<'_> {
    fn line(&self, at: usize) -> usize {
        self.text[..at.min(self.text.len())].matches('\n').count() + 1
    }

    fn fail(
        &self,
        span: Option<std::ops::Range<usize>>,
        shown: &[String],
        key: &str,
        raw: &str,
        e: &Error,
    ) -> Error {
        let line = span
            .map(|s| format!("line {}: ", self.line(s.start)))
            .unwrap_or_default();
        let section = if shown.is_empty() {
            "top level".to_string()
        } else {
            format!("[{}]", shown.join("."))
        };
        invalid!("{line}{section} {key} = {}: {e}", raw.trim())
    }

    fn table<'a>(
        &mut self,
        path: &mut Vec<&'a str>,
        shown: &mut Vec<String>,
        t: &'a toml_edit::Table,
    ) -> Result<()> {
        for (k, item) in t.iter() {
            self.item(path, shown, k, item, t.get("law").and_then(|l| l.as_str()))?;
        }
        Ok(())
    }

    fn item<'a>(
        &mut self,
        path: &mut Vec<&'a str>,
        shown: &mut Vec<String>,
        key: &'a str,
        item: &'a toml_edit::Item,
        law: Option<&str>,
    ) -> Result<()> {
        match item {
            toml_edit::Item::Value(v) => self.value(path, shown, key, v, law),
            toml_edit::Item::Table(t) => {
                path.push(key);
                shown.push(key.to_string());
                self.table(path, shown, t)?;
                path.pop();
                shown.pop();
                Ok(())
            }
            toml_edit::Item::ArrayOfTables(a) => {
                path.push(key);
                for (i, t) in a.iter().enumerate() {
                    shown.push(format!("{key}[{i}]"));
                    self.table(path, shown, t)?;
                    shown.pop();
                }
                path.pop();
                Ok(())
            }
            toml_edit::Item::None => Ok(()),
        }
    }

    fn value<'a>(
        &mut self,
        path: &mut Vec<&'a str>,
        shown: &mut Vec<String>,
        key: &'a str,
        v: &'a toml_edit::Value,
        law: Option<&str>,
    ) -> Result<()> {
        use toml_edit::Value as V;
        let raw = match v {
            V::Integer(n) => Raw::Int(*n.value()),
            V::Float(f) => Raw::Float(*f.value()),
            V::String(s) => Raw::Str(s.value()),
            V::InlineTable(t) => {
                path.push(key);
                shown.push(key.to_string());
                let law = t.get("law").and_then(|l| l.as_str());
                for (k, x) in t.iter() {
                    self.value(path, shown, k, x, law)?;
                }
                path.pop();
                shown.pop();
                return Ok(());
            }
            V::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    if let V::InlineTable(t) = x {
                        path.push(key);
                        shown.push(format!("{key}[{i}]"));
                        let law = t.get("law").and_then(|l| l.as_str());
                        for (k, y) in t.iter() {
                            self.value(path, shown, k, y, law)?;
                        }
                        path.pop();
                        shown.pop();
                    } else {
                        self.value(path, shown, key, x, law)?;
                    }
                }
                return Ok(());
            }
            _ => Raw::Other,
        };
        let span = v.span();
        let text_of = |s: &Option<std::ops::Range<usize>>| {
            s.clone()
                .and_then(|r| self.text.get(r))
                .map(str::to_string)
                .unwrap_or_else(|| v.to_string())
        };
        let new = match convert(path, key, raw) {
            Ok(n) => n,
            Err(e) => return Err(self.fail(span.clone(), shown, key, &text_of(&span), &e)),
        };
        if is_law_key(path, key) {
            let n = match (new, raw) {
                (Some(Num::Int(n)), _) | (None, Raw::Int(n)) => n as u64,
                _ => 0,
            };
            if let Some(law) = law {
                if let Err(e) = check_law_key(law, key, n) {
                    return Err(self.fail(span.clone(), shown, key, &text_of(&span), &e));
                }
            }
        }
        if let (Some(n), Some(s)) = (new, span) {
            self.edits.push((s, n.toml_text()));
        }
        Ok(())
    }
}

/// Rewrite the values in human units of a scenario's (or a run record's `[scenario]`) text to
/// numbers in their keys' units. Errors name the line, the section and the key. Text that is
/// not valid TOML is returned as it is (deserializing it reports the syntax error).
pub fn normalize(text: &str) -> Result<String> {
    let Ok(doc) = toml_edit::ImDocument::parse(text) else {
        return Ok(text.to_string());
    };
    let mut w = Walk {
        text,
        edits: Vec::new(),
    };
    let root = doc.as_table();
    let is_record = root.contains_key("run") && root.contains_key("scenario");
    match root.get("scenario") {
        Some(toml_edit::Item::Table(sc)) if is_record => {
            w.table(&mut Vec::new(), &mut vec!["scenario".to_string()], sc)?
        }
        _ => w.table(&mut Vec::new(), &mut Vec::new(), root)?,
    }
    let mut out = text.to_string();
    w.edits.sort_by_key(|e| std::cmp::Reverse(e.0.start));
    for (r, s) in w.edits {
        out.replace_range(r, &s);
    }
    Ok(out)
}

/// Convert a `--set` value of the dotted key `key` (arrays element by element).
pub fn convert_set(key: &str, v: toml::Value) -> Result<toml::Value> {
    let parts: Vec<&str> = key.split('.').collect();
    let (last, path) = parts.split_last().expect("split yields one part");
    let one = |x: &toml::Value| -> Result<Option<toml::Value>> {
        let raw = match x {
            toml::Value::Integer(n) => Raw::Int(*n),
            toml::Value::Float(f) => Raw::Float(*f),
            toml::Value::String(s) => Raw::Str(s),
            _ => Raw::Other,
        };
        Ok(convert(path, last, raw)?.map(Num::value))
    };
    match v {
        toml::Value::Array(a) => a
            .into_iter()
            .map(|x| Ok(one(&x)?.unwrap_or(x)))
            .collect::<Result<Vec<_>>>()
            .map(toml::Value::Array),
        x => Ok(one(&x)?.unwrap_or(x)),
    }
}

/// A place in a parsed scenario, for [`line_of`].
#[derive(Clone, Copy)]
enum Node<'a> {
    Table(&'a toml_edit::Table),
    Inline(&'a toml_edit::InlineTable),
    Tables(&'a toml_edit::ArrayOfTables),
    Value(&'a toml_edit::Value),
}

type Span = Option<std::ops::Range<usize>>;

impl<'a> Node<'a> {
    fn of_item(item: &'a toml_edit::Item) -> Option<Node<'a>> {
        match item {
            toml_edit::Item::Table(t) => Some(Node::Table(t)),
            toml_edit::Item::ArrayOfTables(a) => Some(Node::Tables(a)),
            toml_edit::Item::Value(v) => Some(Node::of_value(v)),
            toml_edit::Item::None => None,
        }
    }

    fn of_value(v: &'a toml_edit::Value) -> Node<'a> {
        match v {
            toml_edit::Value::InlineTable(t) => Node::Inline(t),
            v => Node::Value(v),
        }
    }

    /// The child `name` and the span of its key (or its value).
    fn child(self, name: &str) -> Option<(Node<'a>, Span)> {
        match self {
            Node::Table(t) => {
                let item = t.get(name)?;
                let span = t.key(name).and_then(|k| k.span()).or_else(|| item.span());
                Some((Node::of_item(item)?, span))
            }
            Node::Inline(t) => {
                let v = t.get(name)?;
                let span = t.key(name).and_then(|k| k.span()).or_else(|| v.span());
                Some((Node::of_value(v), span))
            }
            _ => None,
        }
    }

    /// Element `i` of an array (of tables) and its span.
    fn index(self, i: usize) -> Option<(Node<'a>, Span)> {
        match self {
            Node::Tables(a) => a.get(i).map(|t| (Node::Table(t), t.span())),
            Node::Value(toml_edit::Value::Array(a)) => {
                a.get(i).map(|v| (Node::of_value(v), v.span()))
            }
            _ => None,
        }
    }
}

/// The line of the key at dotted `path` (`topology.left`, `flows[1].count`, `cc.swift`) in a
/// scenario's (or a run record's `[scenario]`) text, if it is there.
pub fn line_of(text: &str, path: &str) -> Option<usize> {
    let doc = toml_edit::ImDocument::parse(text).ok()?;
    let root = doc.as_table();
    let root = match root.get("scenario") {
        Some(toml_edit::Item::Table(sc)) if root.contains_key("run") => sc,
        _ => root,
    };
    let mut node = Node::Table(root);
    let mut span: Span = None;
    for seg in path.split('.') {
        let (name, index) = match seg.strip_suffix(']').and_then(|s| s.split_once('[')) {
            Some((n, i)) => (n, Some(i.parse::<usize>().ok()?)),
            None => (seg, None),
        };
        let (n, s) = node.child(name)?;
        (node, span) = (n, s.or(span));
        if let Some(i) = index {
            let (n, s) = node.index(i)?;
            (node, span) = (n, s.or(span));
        }
    }
    span.map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1)
}

/// The line of the deepest key an error message names (`topology.left = 0: ...`,
/// `flows[1].count = 0: ...`, `algorithms: cc.s: Swift: beta_q16=0 out of range ...`): the
/// message's field names are the words before a `:` or an `=`, each looked up from the root
/// and under the previous one found.
pub fn line_in_message(text: &str, msg: &str) -> Option<(String, usize)> {
    let words: Vec<&str> = msg.split_whitespace().collect();
    let mut found: Option<(String, usize)> = None;
    for (i, w) in words.iter().enumerate() {
        let named = w.ends_with(':') || w.contains('=') || words.get(i + 1) == Some(&"=");
        let key = w
            .trim_end_matches([':', ','])
            .split('=')
            .next()
            .unwrap_or("");
        if !named || key.is_empty() {
            continue;
        }
        let under = found.as_ref().map(|(p, _)| format!("{p}.{key}"));
        for p in under.into_iter().chain([key.to_string()]) {
            if let Some(l) = line_of(text, &p) {
                found = Some((p, l));
                break;
            }
        }
    }
    found
}

/// `msg` with `line N: ` before it when the key it names is in `text` (see
/// [`line_in_message`]), unless `--set` gave that key (or a table above it) its value:
/// `sets` are the overrides' `key.path=value`.
pub fn at_line(text: &str, sets: &[String], err: Error) -> Error {
    let msg = err.to_string();
    match line_in_message(text, &msg) {
        Some((path, _))
            if sets.iter().any(|o| {
                let k = o.split_once('=').map_or(o.as_str(), |(k, _)| k);
                path == k
                    || path.starts_with(&format!("{k}."))
                    || k.starts_with(&format!("{path}."))
            }) =>
        {
            err
        }
        Some((_, l)) => invalid!("line {l}: {msg}"),
        None => err,
    }
}
