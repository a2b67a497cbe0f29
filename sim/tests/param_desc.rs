//! Every kernel module parameter states its unit and its accepted range in its description
//! (`MODULE_PARM_DESC`, shown by `modinfo`), and both are true: the unit macro of each
//! `P(name, desc, unit, range)` line in `modules/<law>/<law>_glue.c` is the one the core's
//! parser applies to that name (`rdcc_core::units::Unit::of`), and the range is the one the
//! core's `Params::new` enforces, found here by asking it (an out-of-range value's error names
//! the accepted `[min, max]`). Ranges are taken with every other parameter at its default.

use rdcc_core::units::Unit;
use rdcc_sim::cc::{build_params, Law};
use std::path::Path;

fn read(rel: &str) -> String {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// `(name, unit macro, range text)` of every `P(...)` line of a module's C list.
fn c_params(src: &str) -> Vec<(String, String, String)> {
    src.lines()
        .filter_map(|l| {
            let l = l.trim();
            let inner = l.strip_prefix("P(")?;
            let inner = inner.trim_end_matches('\\').trim().strip_suffix(')')?;
            let name = inner.split(',').next()?.trim().to_string();
            let rest = inner.rsplitn(3, ',').collect::<Vec<_>>();
            // rsplitn: [range, unit, "name, desc..."]
            let range = rest.first()?.trim().trim_matches('"').to_string();
            let unit = rest.get(1)?.trim().to_string();
            Some((name, unit, range))
        })
        .collect()
}

fn unit_macro(u: Unit) -> &'static str {
    match u {
        Unit::Q16 => "RDCC_U_Q16",
        Unit::PktsQ20 => "RDCC_U_PKTS_Q20",
        Unit::Ns => "RDCC_U_NS",
        Unit::Bps => "RDCC_U_BPS",
        Unit::Mbps => "RDCC_U_MBPS",
        Unit::Bytes => "RDCC_U_BYTES",
        Unit::Plain => "RDCC_U_PLAIN",
    }
}

/// A value in the name's unit as a person writes it (what the parser accepts back).
fn human(u: Unit, v: u64) -> String {
    fn dec(v: u64, one: u64) -> String {
        let whole = v / one;
        let frac = v % one;
        if frac == 0 {
            return format!("{whole}");
        }
        // Up to 9 decimals (truncated), trailing zeros trimmed; the integer before it is exact.
        let f = format!("{:09}", (frac as u128 * 1_000_000_000 / one as u128) as u64);
        format!("{whole}.{}", f.trim_end_matches('0'))
    }
    match u {
        Unit::Q16 => format!("{v} ({})", dec(v, 65_536)),
        Unit::PktsQ20 => format!("{v} ({} pkt)", dec(v, 1 << 20)),
        Unit::Ns => {
            for (scale, suffix) in [(1_000_000_000, "s"), (1_000_000, "ms"), (1_000, "us")] {
                if v >= scale && v % scale == 0 {
                    return format!("{}{suffix}", v / scale);
                }
            }
            format!("{v}ns")
        }
        Unit::Bps => {
            let bits = v as u128 * 8;
            for (scale, suffix) in [
                (1_000_000_000, "Gbit"),
                (1_000_000, "Mbit"),
                (1_000, "kbit"),
            ] {
                if bits >= scale && bits % scale == 0 {
                    return format!("{}{suffix}", bits / scale);
                }
            }
            format!("{v}B/s")
        }
        Unit::Mbps => {
            if v >= 1000 && v % 1000 == 0 {
                format!("{}Gbit", v / 1000)
            } else {
                format!("{v}Mbit")
            }
        }
        Unit::Bytes => format!("{v}"),
        Unit::Plain => format!("{v}"),
    }
}

/// The accepted `[min, max]` of `name`, from `Params::new`'s error for extreme values.
fn range(law: Law, name: &str) -> (u64, u64) {
    let parse = |e: &str| -> Option<(u64, u64)> {
        let field = e.split(": ").nth(1)?.split('=').next()?;
        if field != name {
            return None;
        }
        let r = e.rsplit_once('[')?.1.trim_end_matches(']');
        let (a, b) = r.split_once(", ")?;
        Some((a.parse().ok()?, b.parse().ok()?))
    };
    let mut lo = None;
    let mut hi = None;
    for big in [u64::MAX, u32::MAX as u64, u16::MAX as u64, u8::MAX as u64] {
        match build_params(law, &[(name.to_string(), big)]).map_err(|e| e.to_string()) {
            Err(e) if e.contains("does not fit") => continue,
            Err(e) => {
                hi = parse(&e);
                if hi.is_none() {
                    panic!("{law:?} {name}={big}: error names another field: {e}");
                }
                break;
            }
            Ok(_) => {
                hi = Some((0, big));
                break;
            }
        }
    }
    if let Err(e) = build_params(law, &[(name.to_string(), 0)]).map_err(|e| e.to_string()) {
        lo = parse(&e);
        assert!(
            lo.is_some(),
            "{law:?} {name}=0: error names another field: {e}"
        );
    }
    let (_, max) = hi.expect("an upper bound");
    let min = lo.map(|(m, _)| m).unwrap_or(0);
    (min, max)
}

#[test]
fn module_parameter_descriptions_state_unit_and_range() {
    let laws = [
        (Law::Swift, "modules/swift/swift_glue.c"),
        (Law::SwiftVaiSf, "modules/swift_vaisf/swift_vaisf_glue.c"),
        (Law::Timely, "modules/timely/timely_glue.c"),
        (
            Law::ThetaPowerTcp,
            "modules/theta_powertcp/theta_powertcp_glue.c",
        ),
        (Law::PowerTcpInt, "modules/powertcp/powertcp_glue.c"),
        (Law::Hpcc, "modules/hpcc/hpcc_glue.c"),
    ];
    let mut wrong = Vec::new();
    for (law, file) in laws {
        let params = c_params(&read(file));
        assert!(params.len() >= 5, "{file}: parsed only {params:?}");
        for (name, unit, range_text) in params {
            let u = Unit::of(&name);
            if unit != unit_macro(u) {
                wrong.push(format!(
                    "{file}: {name}: unit {unit}, want {}",
                    unit_macro(u)
                ));
            }
            let (min, max) = range(law, &name);
            let want = format!("range {} to {}", human(u, min), human(u, max));
            if range_text != want {
                wrong.push(format!("{file}: {name}: \"{range_text}\", want \"{want}\""));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn unit_macros_say_what_the_parser_accepts() {
    // The unit macros live with the module parameters, in rdcc_glue.c's part rdcc_params.h.
    let glue = read("modules/glue/rdcc_params.h");
    for u in [
        Unit::Q16,
        Unit::PktsQ20,
        Unit::Ns,
        Unit::Bps,
        Unit::Mbps,
        Unit::Bytes,
        Unit::Plain,
    ] {
        let line = format!("#define {} \"{}\"", unit_macro(u), u.describe());
        assert!(glue.contains(&line), "rdcc_params.h lacks: {line}");
    }
}
