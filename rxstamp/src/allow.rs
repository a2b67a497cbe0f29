// SPDX-License-Identifier: GPL-2.0-only
//! The receiver's allowlist: `--allow PREFIX[@PORT[,PORT...]]` rules, written into the BPF
//! program's `rqd_allow` LPM trie before the programs are attached. Only connections whose peer
//! matches a rule (and, if the rule lists ports, whose local or peer port is one of them) get the
//! arrival stamp, the option and the delayed-ACK cap; with no rule no connection is touched.
//! IPv4 peers are keyed as IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`, prefix 96 + n), as the
//! BPF program looks them up.

use anyhow::{anyhow, Context, Result};
use aya::maps::lpm_trie::{Key, LpmTrie};
use aya::{Ebpf, Pod};
use std::net::IpAddr;

/// `RQD_ALLOW_PORTS` in bpf/rqd.bpf.c.
pub const MAX_PORTS: usize = 8;
const MAP_ALLOW: &str = "rqd_allow";

/// One admitted peer prefix, with the ports it is limited to (empty: any port).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowRule {
    pub addr: [u8; 16],
    pub prefix_len: u32,
    pub ports: Vec<u16>,
}

/// `struct rqd_allow_val` in bpf/rqd.bpf.c.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct AllowVal {
    nports: u32,
    ports: [u16; MAX_PORTS],
}
// SAFETY: plain integers; 4 + 16 bytes, no padding.
unsafe impl Pod for AllowVal {}

fn mask(addr: &mut [u8; 16], prefix_len: u32) {
    for (i, b) in addr.iter_mut().enumerate() {
        let bits = (prefix_len as i64 - 8 * i as i64).clamp(0, 8) as u32;
        *b &= if bits == 0 { 0 } else { 0xffu8 << (8 - bits) };
    }
}

/// Parse one `--allow` value.
pub fn parse_rule(s: &str) -> Result<AllowRule> {
    let bad = |why: &str| anyhow!("--allow {s}: {why} (PREFIX[@PORT[,PORT...]] or any)");
    if s == "any" {
        return Ok(AllowRule {
            addr: [0; 16],
            prefix_len: 0,
            ports: Vec::new(),
        });
    }
    let (net, ports) = match s.split_once('@') {
        Some((n, p)) => (n, Some(p)),
        None => (s, None),
    };
    let (ip, len) = match net.split_once('/') {
        Some((a, l)) => (a, Some(l)),
        None => (net, None),
    };
    let ip: IpAddr = ip.parse().map_err(|_| bad("not an address"))?;
    let (mut addr, max, base) = match ip {
        IpAddr::V4(a) => (a.to_ipv6_mapped().octets(), 32, 96),
        IpAddr::V6(a) => (a.octets(), 128, 0),
    };
    let len: u32 = match len {
        Some(l) => l
            .parse()
            .map_err(|_| bad("prefix length is not a number"))?,
        None => max,
    };
    if len > max {
        return Err(bad("prefix length too large"));
    }
    let prefix_len = base + len;
    mask(&mut addr, prefix_len);
    let mut ps = Vec::new();
    if let Some(p) = ports {
        for t in p.split(',') {
            let v: u16 = t.parse().map_err(|_| bad("port is not a number"))?;
            if v == 0 {
                return Err(bad("port 0"));
            }
            ps.push(v);
        }
        if ps.len() > MAX_PORTS {
            return Err(bad("more than 8 ports"));
        }
    }
    Ok(AllowRule {
        addr,
        prefix_len,
        ports: ps,
    })
}

/// Parse every `--allow` value and merge rules of the same prefix (ports are joined; a rule
/// without ports admits any port).
pub fn allow_rules(v: &[String]) -> Result<Vec<AllowRule>> {
    let mut out: Vec<AllowRule> = Vec::new();
    for s in v {
        let r = parse_rule(s)?;
        match out
            .iter_mut()
            .find(|o| o.addr == r.addr && o.prefix_len == r.prefix_len)
        {
            Some(o) if o.ports.is_empty() || r.ports.is_empty() => o.ports.clear(),
            Some(o) => {
                for p in r.ports {
                    if !o.ports.contains(&p) {
                        o.ports.push(p);
                    }
                }
                if o.ports.len() > MAX_PORTS {
                    return Err(anyhow!(
                        "--allow: more than {MAX_PORTS} ports for one prefix"
                    ));
                }
            }
            None => out.push(r),
        }
    }
    Ok(out)
}

/// The map value of a rule.
pub fn value(r: &AllowRule) -> AllowVal {
    let mut v = AllowVal {
        nports: r.ports.len() as u32,
        ..AllowVal::default()
    };
    for (d, s) in v.ports.iter_mut().zip(&r.ports) {
        *d = *s;
    }
    v
}

/// Write the rules into the loaded object's `rqd_allow` map.
pub fn fill_allow(ebpf: &mut Ebpf, rules: &[AllowRule]) -> Result<()> {
    fill_allow_map(ebpf, MAP_ALLOW, rules)
}

/// Write the rules into the LPM trie `name` of a loaded object (`rqd_allow`, or `int_allow` of
/// bpf/int.bpf.c, which has the same key and value layout).
pub fn fill_allow_map(ebpf: &mut Ebpf, name: &str, rules: &[AllowRule]) -> Result<()> {
    let map = ebpf
        .map_mut(name)
        .with_context(|| format!("map {name} missing"))?;
    let mut trie: LpmTrie<_, [u8; 16], AllowVal> =
        LpmTrie::try_from(map).context(name.to_string())?;
    for r in rules {
        trie.insert(&Key::new(r.prefix_len, r.addr), value(r), 0)
            .with_context(|| format!("{name}: insert"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    type Want = Result<(&'static str, u32, &'static [u16]), ()>;

    #[test]
    fn rules() {
        let cases: &[(&str, Want)] = &[
            ("10.0.0.0/24@5201", Ok(("::ffff:10.0.0.0", 120, &[5201]))),
            ("10.0.0.7/24", Ok(("::ffff:10.0.0.0", 120, &[]))),
            ("10.0.0.1", Ok(("::ffff:10.0.0.1", 128, &[]))),
            ("fd00::1/64@80,443", Ok(("fd00::", 64, &[80, 443]))),
            ("any", Ok(("::", 0, &[]))),
            ("10.0.0.0/33", Err(())),
            ("fd00::/129", Err(())),
            ("10.0.0.0/24@0", Err(())),
            ("10.0.0.0/24@x", Err(())),
            ("host.example", Err(())),
            ("10.0.0.0/24@1,2,3,4,5,6,7,8,9", Err(())),
        ];
        for (s, want) in cases {
            let got = parse_rule(s);
            match want {
                Ok((a, l, p)) => {
                    let r = got.unwrap_or_else(|e| panic!("{s}: {e}"));
                    let want_addr: std::net::Ipv6Addr = a.parse().unwrap();
                    assert_eq!(r.addr, want_addr.octets(), "{s}");
                    assert_eq!(r.prefix_len, *l, "{s}");
                    assert_eq!(r.ports, p.to_vec(), "{s}");
                }
                Err(()) => assert!(got.is_err(), "{s} accepted"),
            }
        }
    }

    #[test]
    fn merge() {
        let v = |a: &[&str]| allow_rules(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        let r = v(&["10.0.0.0/24@1", "10.0.0.9/24@2", "fd00::/64"]).unwrap();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].ports, vec![1, 2]);
        // A rule without ports admits any port for that prefix.
        let r = v(&["10.0.0.0/24@1", "10.0.0.0/24"]).unwrap();
        assert_eq!(r.len(), 1);
        assert!(r[0].ports.is_empty());
        assert_eq!(value(&r[0]).nports, 0);
        assert!(v(&[]).unwrap().is_empty());
    }
}
