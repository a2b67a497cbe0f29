// SPDX-License-Identifier: GPL-2.0-only
//! `rxstamp int attach|detach|stats`: the INT request at the sender and the receiver's echo
//! (issue #35 item 2; `bpf/int.bpf.c`, Documentation/int-channel.md "Request and echo").
//!
//! ```text
//! rxstamp int attach CGROUP --allow PEER... [--slots N] [--pin DIR]
//! rxstamp int detach CGROUP [--pin DIR]
//! rxstamp int stats [--pin DIR] [--reset]
//! ```
//!
//! One sock_ops program, attached like rqd's (`BPF_PROG_ATTACH` with `BPF_F_ALLOW_MULTI`, pinned
//! under DIR, default `/sys/fs/bpf/rdcc_int`), plays both roles on every connection of the
//! cgroup whose peer the allowlist admits: it writes a request (empty slots) into every data
//! segment and echoes the latest stack it received, once, on the next ACK.

use crate::allow::{fill_allow_map, AllowRule};
use anyhow::{anyhow, bail, Context, Result};
use aya::maps::{Array, Map, MapData};
use aya::programs::SockOps;
use aya::{EbpfLoader, Pod};
use std::os::fd::AsFd;
use std::path::Path;

// The ELF parser needs the object 8-byte aligned, which include_bytes! does not promise.
static OBJECT: &[u8] = aya::include_bytes_aligned!(concat!(env!("OUT_DIR"), "/int.bpf.o"));

/// Where the program and maps are pinned unless `--pin` says otherwise.
pub const DEFAULT_PIN: &str = "/sys/fs/bpf/rdcc_int";
const PROG: &str = "int_sockops";
const MAP_STATS: &str = "int_stats";
const MAP_CFG: &str = "int_cfg";
const MAP_ALLOW: &str = "int_allow";

/// `struct int_cfg` in bpf/int.bpf.c.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
struct Cfg {
    slots: u32,
    _pad: u32,
}
// SAFETY: plain integers, no padding beyond the explicit field.
unsafe impl Pod for Cfg {}

/// `struct int_stats` in bpf/int.bpf.c, field by field: name and number of u64s. The struct
/// is read as one array of u64; `stats_layout_matches_the_bpf_source` holds this table to the
/// C declaration.
pub const FIELDS: &[(&str, usize)] = &[
    ("est_allowed", 1),
    ("est_skipped", 1),
    ("mss_reserved", 1),
    ("mss_no_room", 1),
    ("req_reserved", 1),
    ("req_no_room", 1),
    ("req_written", 1),
    ("req_write_err", 1),
    ("rx_req", 1),
    ("rx_replaced", 1),
    ("rx_old", 1),
    ("rx_nodata", 1),
    ("rx_echo", 1),
    ("rx_bad_len", 1),
    ("rx_bad_ver", 1),
    ("rx_bad_cnt", 1),
    ("rx_bad_list", 1),
    ("rx_ovf", 1),
    ("rx_hops", HOPS),
    ("echo_reserved", 1),
    ("echo_no_room", 1),
    ("echo_written", 1),
    ("echo_write_err", 1),
    ("echo_wait", 1),
    ("echo_hops", HOPS),
];
/// `INT_HOPS`: records 0..=4.
const HOPS: usize = rdcc_core::int_wire::MAX_SLOTS + 1;
/// u64s in `struct int_stats`.
const WORDS: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < FIELDS.len() {
        n += FIELDS[i].1;
        i += 1;
    }
    n
};
type Stats = [u64; WORDS];

/// The counters as `name value` lines; an array field as `name_K value` for each index K.
pub fn format_stats(s: &Stats) -> String {
    let mut out = String::new();
    let mut at = 0;
    for (name, n) in FIELDS {
        for k in 0..*n {
            let v = s.get(at + k).copied().unwrap_or(0);
            if *n == 1 {
                out.push_str(&format!("{name} {v}\n"));
            } else {
                out.push_str(&format!("{name}_{k} {v}\n"));
            }
        }
        at += n;
    }
    out
}

fn stats_map(pin: &Path) -> Result<Array<MapData, Stats>> {
    let md = MapData::from_pin(pin.join(MAP_STATS))
        .map_err(|e| anyhow!("{}: {e} (not attached?)", pin.join(MAP_STATS).display()))?;
    Array::try_from(Map::Array(md)).map_err(anyhow::Error::from)
}

/// `rxstamp int stats`.
pub fn stats(pin: &Path, reset: bool) -> Result<()> {
    let mut a = stats_map(pin)?;
    let s = a.get(&0, 0).context("read stats")?;
    print!("{}", format_stats(&s));
    if reset {
        a.set(0, [0u64; WORDS], 0).context("reset")?;
    }
    Ok(())
}

/// `rxstamp int attach`: load, fill the allowlist and the slot count, pin, attach.
pub fn attach(cgroup: &Path, pin: &Path, slots: u32, allow: &[AllowRule]) -> Result<()> {
    if OBJECT.is_empty() {
        bail!(
            "built without the BPF object (clang or libbpf-dev missing at build time; \
             run `cargo xtask deps` and rebuild)"
        );
    }
    let cg = std::fs::File::open(cgroup).with_context(|| cgroup.display().to_string())?;
    crate::ensure_bpffs(pin)?;
    if pin.exists() {
        bail!(
            "{} exists: already attached? (rxstamp int detach CGROUP --pin {})",
            pin.display(),
            pin.display()
        );
    }
    let mut ebpf = EbpfLoader::new()
        .allow_unsupported_maps()
        .load(OBJECT)
        .context("load")?;
    std::fs::create_dir_all(pin).with_context(|| pin.display().to_string())?;
    if allow.is_empty() {
        eprintln!(
            "rxstamp: no --allow: no connection of {} will carry a request or an echo",
            cgroup.display()
        );
    }
    let res = (|| -> Result<()> {
        fill_allow_map(&mut ebpf, MAP_ALLOW, allow)?;
        {
            let map = ebpf.map_mut(MAP_CFG).context("map int_cfg missing")?;
            let mut cfg: Array<_, Cfg> = Array::try_from(map)?;
            cfg.set(0, Cfg { slots, _pad: 0 }, 0)?;
        }
        for name in [MAP_STATS, MAP_CFG] {
            ebpf.map(name)
                .with_context(|| format!("map {name} missing"))?
                .pin(pin.join(name))
                .with_context(|| format!("pin {name}"))?;
        }
        let p: &mut SockOps = ebpf
            .program_mut(PROG)
            .context("program int_sockops missing")?
            .try_into()?;
        p.load().context("load int_sockops")?;
        p.pin(pin.join(PROG)).context("pin")?;
        let fd = p.fd()?;
        crate::prog_attach(cg.as_fd(), fd.as_fd(), crate::BPF_CGROUP_SOCK_OPS)
            .with_context(|| format!("attach sock_ops to {}", cgroup.display()))?;
        Ok(())
    })();
    if let Err(e) = res {
        let _ = detach(cgroup, pin);
        return Err(e);
    }
    println!(
        "rxstamp: int attached to {} (slots {}, pinned under {})",
        cgroup.display(),
        if slots == 0 {
            "as fit".to_string()
        } else {
            slots.to_string()
        },
        pin.display()
    );
    Ok(())
}

/// `rxstamp int detach`: detach the program from the cgroup and unpin everything.
pub fn detach(cgroup: &Path, pin: &Path) -> Result<()> {
    let cg = std::fs::File::open(cgroup).with_context(|| cgroup.display().to_string())?;
    let mut errs = Vec::new();
    let path = pin.join(PROG);
    match crate::obj_get(&path) {
        Ok(fd) => {
            if let Err(e) = crate::prog_detach(cg.as_fd(), fd.as_fd(), crate::BPF_CGROUP_SOCK_OPS) {
                errs.push(format!("detach {PROG}: {e}"));
            }
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => errs.push(format!("{}: {e}", path.display())),
    }
    let _ = std::fs::remove_file(&path);
    for name in [MAP_STATS, MAP_CFG] {
        let _ = std::fs::remove_file(pin.join(name));
    }
    let _ = std::fs::remove_dir(pin);
    if errs.is_empty() {
        println!("rxstamp: int detached from {}", cgroup.display());
        Ok(())
    } else {
        Err(anyhow!(errs.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counters' table against `struct int_stats` in the BPF source: same names, same
    /// order, same array sizes (a field added on one side only fails here).
    #[test]
    fn stats_layout_matches_the_bpf_source() {
        let src = include_str!("../bpf/int.bpf.c");
        let body = src
            .split("struct int_stats {")
            .nth(1)
            .and_then(|b| b.split("};").next())
            .expect("struct int_stats in int.bpf.c");
        let mut got: Vec<(String, usize)> = Vec::new();
        for line in body.lines() {
            let l = line.trim();
            let Some(rest) = l.strip_prefix("__u64 ") else {
                continue;
            };
            let decl = rest.split(';').next().unwrap_or("");
            let (name, n) = match decl.split_once('[') {
                Some((n, len)) => {
                    assert_eq!(len, "INT_HOPS]", "{l}");
                    (n.to_string(), HOPS)
                }
                None => (decl.to_string(), 1),
            };
            got.push((name, n));
        }
        let want: Vec<(String, usize)> = FIELDS.iter().map(|(n, k)| (n.to_string(), *k)).collect();
        assert_eq!(got, want);
        assert!(src.contains("#define INT_HOPS\t(RDCC_INT_MAX_SLOTS + 1)"));
    }

    #[test]
    fn stats_print_every_word_once() {
        let mut s = [0u64; WORDS];
        for (i, w) in s.iter_mut().enumerate() {
            *w = i as u64;
        }
        let text = format_stats(&s);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), WORDS);
        assert_eq!(lines[0], "est_allowed 0");
        assert!(lines.contains(&"rx_hops_0 18"));
        assert!(lines.contains(&"rx_hops_4 22"));
        assert!(lines.contains(&"echo_reserved 23"));
        assert_eq!(lines[WORDS - 1], format!("echo_hops_4 {}", WORDS - 1));
    }

    #[test]
    fn object_is_embedded() {
        if std::process::Command::new("clang")
            .arg("--version")
            .output()
            .is_ok()
            && Path::new("/usr/include/bpf/bpf_helpers.h").exists()
        {
            assert!(OBJECT.len() > 1000, "int.bpf.o is empty");
            assert_eq!(&OBJECT[..4], b"\x7fELF");
        }
    }
}
