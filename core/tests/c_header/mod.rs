// SPDX-License-Identifier: GPL-2.0-only
//! The value of a `#define` in one of the C wire headers that mirror the core's constants
//! (`modules/glue/rdcc_rqd_wire.h`, `rdcc_int_wire.h`): decimal, `0x` hex, `(1U << n)`; a
//! trailing comment is ignored. Panics (failing the test) when the name is missing.

pub fn c_define(header: &str, name: &str) -> u64 {
    let l = header
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(name))
        .unwrap_or_else(|| panic!("{name} missing"));
    let v = l.split_once(name).unwrap().1;
    let v = v.split("/*").next().unwrap().trim();
    let v = v.trim_start_matches('(').trim_end_matches(')');
    if let Some(x) = v.strip_prefix("0x") {
        u64::from_str_radix(x, 16).unwrap()
    } else if let Some((a, b)) = v.split_once("U << ") {
        a.parse::<u64>().unwrap() << b.parse::<u64>().unwrap()
    } else {
        v.parse().unwrap()
    }
}
