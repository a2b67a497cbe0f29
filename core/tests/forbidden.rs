//! The core's rules, checked on its source text: no floats, no 128-bit integers, no unwrap/expect,
//! no unsafe, no std, no `crate::` paths (kernel modules include the files with #[path]), and no
//! panicking macros. Test modules (`#[cfg(test)]` to the end of a file) are exempt.

use std::fs;
use std::path::Path;

/// (pattern, why). Patterns are matched on code with comments and string literals removed.
const FORBIDDEN: &[(&str, &str)] = &[
    ("f32", "no floating point in kernel code"),
    ("f64", "no floating point in kernel code"),
    ("u128", "kernel Rust cannot divide 128-bit integers"),
    ("i128", "kernel Rust cannot divide 128-bit integers"),
    (".unwrap(", "no panics"),
    (".expect(", "no panics"),
    ("unsafe", "the core is safe code"),
    ("panic!", "no panics"),
    ("unreachable!", "no panics"),
    ("todo!", "no panics"),
    ("unimplemented!", "no panics"),
    (
        "assert!(",
        "no runtime panics (use const _: () = assert!(...) for compile-time checks)",
    ),
    ("std::", "no_std"),
    (
        "crate::",
        "files are included side by side by kernel modules: use super::",
    ),
    ("extern crate", "no dependencies"),
];

/// Strip `//` comments and string/char literals (rough, but the core is simple code).
fn code_only(line: &str) -> String {
    let mut out = String::new();
    let mut in_str = false;
    let mut prev = '\0';
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if !in_str && c == '/' && chars.get(i + 1) == Some(&'/') {
            break;
        }
        if c == '"' && prev != '\\' {
            in_str = !in_str;
            i += 1;
            prev = c;
            continue;
        }
        if !in_str {
            out.push(c);
        }
        prev = c;
        i += 1;
    }
    out
}

fn is_word_match(code: &str, pat: &str) -> bool {
    let bytes = code.as_bytes();
    let mut start = 0;
    while let Some(pos) = code[start..].find(pat) {
        let at = start + pos;
        let before = at.checked_sub(1).map(|i| bytes[i] as char);
        let after = bytes.get(at + pat.len()).map(|&b| b as char);
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
        let starts_word = pat.starts_with(|c: char| c.is_ascii_alphanumeric());
        let ends_word = pat.ends_with(|c: char| c.is_ascii_alphanumeric());
        let const_assert = pat == "assert!(" && code.contains("const _");
        // A match inside a longer identifier (e.g. `self_f64x`) does not count.
        let inside_word = (starts_word && word(before)) || (ends_word && word(after));
        if !inside_word && !const_assert {
            return true;
        }
        start = at + pat.len();
    }
    false
}

#[test]
fn core_sources_follow_the_kernel_rules() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut violations = Vec::new();
    let mut files = 0;
    for e in fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        files += 1;
        let text = fs::read_to_string(&p).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[cfg(test)]") {
                break; // test module: exempt to the end of the file
            }
            let code = code_only(line);
            for (pat, why) in FORBIDDEN {
                if pat.starts_with("std::") && code.contains("core::") {
                    continue;
                }
                if is_word_match(&code, pat) {
                    violations.push(format!(
                        "{}:{}: `{pat}` ({why}): {}",
                        p.display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        files >= 5,
        "expected the core's sources in {}",
        dir.display()
    );
    assert!(
        violations.is_empty(),
        "core rule violations:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_checker_catches_what_it_should() {
    // (line, should be flagged)
    let cases: &[(&str, bool)] = &[
        ("let x: f64 = 1.0;", true),
        ("let y = a.unwrap();", true),
        ("let z: u128 = 0;", true),
        ("unsafe { x }", true),
        ("use crate::fixed;", true),
        ("let v = buf[0]; // f64 in a comment", false),
        ("let s = \"u128 in a string\";", false),
        ("let self_f64x = 1;", false),
        ("const _: () = assert!(N <= 72);", false),
        ("use super::fixed;", false),
    ];
    for &(line, want) in cases {
        let code = code_only(line);
        let got = FORBIDDEN.iter().any(|(p, _)| is_word_match(&code, p));
        assert_eq!(got, want, "{line}");
    }
}

/// `AnyBitPattern` (core/src/event.rs) is a safe trait the kernel glue's unsafe code relies on
/// (get_info's lockless copies of a law's state), so its impls are held to what makes it true:
/// the fixed-width integers and arrays of them in event.rs, and structs only through the
/// `any_bit_pattern!` macro's compile-time check (whose impl line is the `$name` one). Any other
/// impl, or a renamed import that could hide one, is a violation.
#[test]
fn any_bit_pattern_impls_are_integers_or_checked() {
    const ALLOWED: &[&str] = &[
        "impl AnyBitPattern for u8 {}",
        "impl AnyBitPattern for u16 {}",
        "impl AnyBitPattern for u32 {}",
        "impl AnyBitPattern for u64 {}",
        "impl AnyBitPattern for i8 {}",
        "impl AnyBitPattern for i16 {}",
        "impl AnyBitPattern for i32 {}",
        "impl AnyBitPattern for i64 {}",
        "impl<T: AnyBitPattern, const N: usize> AnyBitPattern for [T; N] {}",
        "impl super::event::AnyBitPattern for $name {}",
    ];
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut violations = Vec::new();
    for e in fs::read_dir(&dir).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = fs::read_to_string(&p).unwrap();
        let code: Vec<String> = text.lines().map(code_only).collect();
        // Whitespace collapsed over the whole file: an impl split over lines is still seen.
        let flat = code
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if flat.contains("AnyBitPattern as") {
            violations.push(format!("{name}: AnyBitPattern imported under another name"));
        }
        let mut at = 0;
        while let Some(i) = flat[at..].find("AnyBitPattern for") {
            let hit = at + i;
            let start = flat[..hit].rfind("impl").unwrap_or(0);
            let end = hit + flat[hit..].find('}').map_or(flat.len() - hit, |j| j + 1);
            let item = &flat[start..end];
            if name == "event.rs" && ALLOWED.contains(&item) {
                found.push(item.to_owned());
            } else {
                violations.push(format!("{name}: {item}"));
            }
            at = hit + "AnyBitPattern for".len();
        }
    }
    assert!(
        violations.is_empty(),
        "AnyBitPattern impls outside the integers and any_bit_pattern!:\n{}",
        violations.join("\n")
    );
    found.sort();
    found.dedup();
    assert_eq!(
        found.len(),
        ALLOWED.len(),
        "expected every allowed impl: {found:?}"
    );
}
