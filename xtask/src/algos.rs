//! The congestion controls a VM run can use, and `--algos` lists checked against them before
//! anything is built or booted.
//!
//! - In-tree: `reno` (always built into Linux) and every `CONFIG_TCP_CONG_<X>` the kernel
//!   profile's fragments set to `y` or `m` (qemu/kernel.config: cubic built in; dctcp, vegas and
//!   bbr as modules the guest modprobes).
//! - Ours: every `obj-m += tcp_<name>.o` line of `modules/Kbuild` (swift, swift_vaisf, timely,
//!   theta_powertcp).
//!
//! Both lists are read from the files the build uses, so a module or config option added there
//! is accepted here without a second list to keep in step.

use crate::kernel::{wanted_options, Profile};
use crate::util::{repo_root, Result};

/// Kconfig suffixes whose algorithm name differs from the lowercased suffix
/// (net/ipv4/Kconfig: `TCP_CONG_HSTCP` builds `tcp_highspeed`, registered as "highspeed").
const KCONFIG_NAME_EXCEPTIONS: &[(&str, &str)] = &[("HSTCP", "highspeed")];

/// The in-tree congestion controls the kernel of profile `p` has: reno, then the
/// `CONFIG_TCP_CONG_*` options of its fragments that are `y` or `m`, in fragment order.
pub fn in_tree(p: &Profile) -> Result<Vec<String>> {
    let mut out = vec!["reno".to_string()];
    for (k, v) in wanted_options(p)? {
        let Some(suffix) = k.strip_prefix("CONFIG_TCP_CONG_") else {
            continue;
        };
        if suffix == "ADVANCED" || !(v == "y" || v == "m") {
            continue;
        }
        let name = KCONFIG_NAME_EXCEPTIONS
            .iter()
            .find(|(s, _)| *s == suffix)
            .map(|(_, n)| n.to_string())
            .unwrap_or_else(|| suffix.to_ascii_lowercase());
        if !out.contains(&name) {
            out.push(name);
        }
    }
    Ok(out)
}

/// Our algorithms: the `tcp_<name>` modules `modules/Kbuild` declares, in file order.
pub fn ours() -> Result<Vec<String>> {
    let text = std::fs::read_to_string(repo_root().join("modules/Kbuild"))?;
    Ok(ours_from_kbuild(&text))
}

/// Our laws that read in-band telemetry (tcp_powertcp, tcp_hpcc; Documentation/int-channel.md):
/// they need the software INT switch on the path and the receiver's echo (a scenario's
/// `path.int`, which `scenario::validate` requires of any scenario naming one), so they are not
/// in the default passes of scenarios that have neither.
pub const INT_LAWS: &[&str] = &["powertcp", "hpcc"];

/// Our algorithms of the default passes (`run`, `make`): [`ours`] without [`INT_LAWS`].
pub fn ours_default() -> Result<Vec<String>> {
    Ok(ours()?
        .into_iter()
        .filter(|a| !INT_LAWS.contains(&a.as_str()))
        .collect())
}

fn ours_from_kbuild(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("obj-m")?;
            let obj = rest.trim_start().strip_prefix("+=")?.trim();
            let name = obj.strip_prefix("tcp_")?.strip_suffix(".o")?;
            Some(name.to_string())
        })
        .collect()
}

/// Every algorithm available on profile `p`: in-tree first, then ours.
pub fn available(p: &Profile) -> Result<Vec<String>> {
    let mut all = in_tree(p)?;
    all.extend(ours()?);
    Ok(all)
}

/// Split an `--algos` value (names separated by spaces or commas: the parser `sim` uses too,
/// [`rdcc_sim::names::split_list`]) and check every name against `available`. The error names
/// the offending entry and lists the available ones; it is the simulator's kind of error
/// ([`rdcc_sim::Error::Invalid`]), as `sim --algos` gives.
pub fn parse_list(value: &str, available: &[String]) -> rdcc_sim::Result<Vec<String>> {
    let listed = || available.join(" ");
    let names = rdcc_sim::names::split_list(value)
        .map_err(|e| rdcc_sim::Error::Invalid(format!("{e}; available: {}", listed())))?;
    if let Some(name) = names.iter().find(|n| !available.contains(n)) {
        return Err(rdcc_sim::Error::Invalid(format!(
            "unknown algorithm {name:?}; available: {}",
            listed()
        )));
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernel::profile;

    #[test]
    fn qemu_kernel_has_the_baselines() {
        // qemu/kernel.config: CUBIC=y, DCTCP/VEGAS/BBR=m; reno is always there.
        let got = in_tree(profile("qemu").unwrap()).unwrap();
        for a in ["reno", "cubic", "dctcp", "vegas", "bbr"] {
            assert!(got.iter().any(|g| g == a), "{a} missing from {got:?}");
        }
        assert!(!got.iter().any(|g| g == "advanced"));
    }

    #[test]
    fn ours_are_the_six_modules() {
        assert_eq!(
            ours().unwrap(),
            [
                "swift",
                "swift_vaisf",
                "timely",
                "theta_powertcp",
                "powertcp",
                "hpcc"
            ]
        );
        assert_eq!(
            ours_default().unwrap(),
            ["swift", "swift_vaisf", "timely", "theta_powertcp"]
        );
        let kbuild =
            "obj-m += tcp_a.o\n  obj-m+=tcp_b.o\nobj-m += rdcc_kunit.o\n# obj-m += tcp_c.o\n";
        assert_eq!(ours_from_kbuild(kbuild), ["a", "b"]);
    }

    #[test]
    fn lists_are_checked() {
        let avail: Vec<String> = ["cubic", "swift", "timely"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let cases: &[(&str, std::result::Result<&[&str], &str>)] = &[
            ("cubic swift", Ok(&["cubic", "swift"])),
            ("cubic,timely", Ok(&["cubic", "timely"])),
            ("  swift ,  cubic ", Ok(&["swift", "cubic"])),
            (
                "nosuch",
                Err("unknown algorithm \"nosuch\"; available: cubic swift timely"),
            ),
            ("cubic bbr", Err("unknown algorithm \"bbr\"")),
            ("cubic cubic", Err("listed twice")),
            ("", Err("no algorithm given")),
            (" , ", Err("no algorithm given")),
        ];
        for (input, want) in cases {
            let got = parse_list(input, &avail).map_err(|e| e.to_string());
            match (want, &got) {
                (Ok(w), Ok(g)) => assert_eq!(g, w, "{input:?}"),
                (Err(w), Err(g)) => assert!(g.contains(w), "{input:?}: {g}"),
                _ => panic!("{input:?}: got {got:?}, want {want:?}"),
            }
        }
    }
}
