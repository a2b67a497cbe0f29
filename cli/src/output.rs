//! Human units and the two output formats: an aligned table and JSON (one socket object per
//! line inside an array, so line tools can read it too).

use crate::view::{mbit_s, Row, SignalKind};
use std::net::IpAddr;

/// `addr:port`, IPv6 in brackets.
pub fn endpoint(a: &IpAddr, port: u16) -> String {
    match a {
        IpAddr::V4(v4) => format!("{v4}:{port}"),
        IpAddr::V6(v6) => format!("[{v6}]:{port}"),
    }
}

/// A delay in ns as `850ns`, `523us`, `5.23ms` or `1.20s`.
pub fn delay_ns(ns: u64) -> String {
    if ns < 1_000 {
        format!("{ns}ns")
    } else if ns < 1_000_000 {
        format!("{}us", ns / 1_000)
    } else if ns < 1_000_000_000 {
        format!("{:.2}ms", ns as f64 / 1e6)
    } else {
        format!("{:.2}s", ns as f64 / 1e9)
    }
}

/// A rate in bytes/s as Mbit/s with two decimals.
pub fn rate(bytes_per_s: u64) -> String {
    format!("{:.2}", mbit_s(bytes_per_s))
}

/// The law's signal with its unit.
pub fn signal(algo: &str, raw: u32) -> String {
    match SignalKind::of(algo) {
        Some(SignalKind::TargetDelayUs) => format!("tgt {}", delay_ns(u64::from(raw) * 1_000)),
        Some(SignalKind::RttGradientX1000) => format!("grad {:.3}", f64::from(raw) / 1000.0),
        Some(SignalKind::NormalizedPowerX1000) => format!("pow {:.3}", f64::from(raw) / 1000.0),
        None => raw.to_string(),
    }
}

const HEADER: [&str; 15] = [
    "LOCAL",
    "PEER",
    "ALGO",
    "STATE",
    "TARGET/SIGNAL",
    "FABRIC",
    "ENDPOINT",
    "HOPS",
    "WINDOW",
    "CWND",
    "LAW-Mbit/s",
    "PACING-Mbit/s",
    "SRTT",
    "REASON",
    "BINDS",
];

const DASH: &str = "-";

/// The table's cells for one row (absent values as `-`).
pub fn cells(r: &Row) -> [String; 15] {
    let law = r.law.as_ref();
    let split = r.split.as_ref();
    let tcp = r.tcp.as_ref();
    let or_dash = |o: Option<String>| o.unwrap_or_else(|| DASH.to_string());
    [
        endpoint(&r.local_addr, r.local_port),
        endpoint(&r.peer_addr, r.peer_port),
        r.algo.clone(),
        r.state.to_string(),
        or_dash(law.map(|l| signal(&r.algo, l.signal))),
        or_dash(split.map(|s| delay_ns(u64::from(s.fabric_delay_ns)))),
        or_dash(
            split
                .and_then(|s| s.endpoint_delay_ns)
                .map(|d| delay_ns(u64::from(d))),
        ),
        or_dash(split.map(|s| s.hops.to_string())),
        or_dash(law.map(|l| format!("{:.2} pkt", l.window_pkts))),
        or_dash(tcp.and_then(|t| t.snd_cwnd_pkts).map(|c| c.to_string())),
        or_dash(law.map(|l| {
            if l.rate_bytes_per_s == 0 {
                "unpaced".to_string()
            } else {
                rate(l.rate_bytes_per_s)
            }
        })),
        or_dash(tcp.and_then(|t| {
            if t.pacing_unlimited {
                Some("unlimited".to_string())
            } else {
                t.pacing_rate_bytes_per_s.map(rate)
            }
        })),
        or_dash(
            tcp.and_then(|t| t.srtt_us)
                .map(|us| delay_ns(u64::from(us) * 1_000)),
        ),
        or_dash(law.map(|l| l.reason.clone())),
        or_dash(split.map(|s| s.binds.to_string())),
    ]
}

/// The aligned table, header first; empty when there are no rows.
pub fn table(rows: &[Row]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let body: Vec<[String; 15]> = rows.iter().map(cells).collect();
    let mut width = HEADER.map(str::len);
    for c in &body {
        for (w, cell) in width.iter_mut().zip(c.iter()) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let mut line = |cols: &mut dyn Iterator<Item = &str>| {
        let mut l = String::new();
        for (i, c) in cols.enumerate() {
            if i > 0 {
                l.push_str("  ");
            }
            l.push_str(c);
            if i + 1 < width.len() {
                l.extend(std::iter::repeat(' ').take(width[i].saturating_sub(c.chars().count())));
            }
        }
        out.push_str(l.trim_end());
        out.push('\n');
    };
    line(&mut HEADER.iter().copied());
    for c in &body {
        line(&mut c.iter().map(String::as_str));
    }
    out
}

/// A JSON array, one socket object per line.
pub fn json(rows: &[Row]) -> Result<String, serde_json::Error> {
    if rows.is_empty() {
        return Ok("[]\n".to_string());
    }
    let mut out = String::from("[\n");
    for (i, r) in rows.iter().enumerate() {
        out.push_str(&serde_json::to_string(r)?);
        out.push_str(if i + 1 < rows.len() { ",\n" } else { "\n" });
    }
    out.push_str("]\n");
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::{LawRow, SplitRow, TcpRow};

    #[test]
    fn units() {
        let cases: &[(u64, &str)] = &[
            (0, "0ns"),
            (999, "999ns"),
            (1_000, "1us"),
            (523_400, "523us"),
            (5_230_000, "5.23ms"),
            (1_200_000_000, "1.20s"),
        ];
        for &(ns, want) in cases {
            assert_eq!(delay_ns(ns), want, "{ns} ns");
        }
        // 6_250_000 B/s = 50 Mbit/s
        assert_eq!(rate(6_250_000), "50.00");
        assert_eq!(signal("swift", 6000), "tgt 6.00ms");
        assert_eq!(signal("swift_vaisf", 25), "tgt 25us");
        assert_eq!(signal("timely", 125), "grad 0.125");
        assert_eq!(signal("theta_powertcp", 1234), "pow 1.234");
        assert_eq!(endpoint(&"fd00::1".parse().unwrap(), 80), "[fd00::1]:80");
    }

    fn row() -> Row {
        Row {
            family: "ipv4",
            state: "ESTAB",
            local_addr: "10.0.0.1".parse().unwrap(),
            local_port: 40000,
            peer_addr: "10.0.1.2".parse().unwrap(),
            peer_port: 5201,
            cookie: 9,
            algo: "swift".into(),
            law: Some(LawRow {
                signal_kind: "target_delay_us",
                signal: 6000,
                reason_code: 2,
                reason: "additive_increase".into(),
                window_pkts_q8: 3200,
                window_pkts: 12.5,
                rate_bytes_per_s: 0,
                rate_mbit_s: 0.0,
            }),
            split: Some(SplitRow {
                fabric_delay_ns: 5_100_000,
                endpoint_delay_ns: None,
                hops: 1,
                binds: "fabric",
                remote_used: false,
                remote_clamped: false,
                endpoint_expired: false,
                flags: 0,
            }),
            tcp: Some(TcpRow {
                srtt_us: Some(5574),
                rttvar_us: None,
                min_rtt_us: None,
                snd_cwnd_pkts: Some(12),
                snd_mss_bytes: Some(1448),
                pacing_rate_bytes_per_s: Some(5_793_000),
                pacing_unlimited: false,
                delivery_rate_bytes_per_s: None,
            }),
        }
    }

    #[test]
    fn table_cells() {
        let c = cells(&row());
        let want = [
            "10.0.0.1:40000",
            "10.0.1.2:5201",
            "swift",
            "ESTAB",
            "tgt 6.00ms",
            "5.10ms",
            "-",
            "1",
            "12.50 pkt",
            "12",
            "unpaced",
            "46.34",
            "5.57ms",
            "additive_increase",
            "fabric",
        ];
        assert_eq!(c.map(|s| s), want.map(String::from));
        let t = table(&[row()]);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines.len(), 2);
        assert!(lines[0].starts_with("LOCAL           PEER"), "{}", lines[0]);
        assert!(
            lines[1].ends_with("additive_increase  fabric"),
            "{}",
            lines[1]
        );
        assert_eq!(table(&[]), "");
    }

    #[test]
    fn absent_parts_are_dashes_and_null() {
        let mut r = row();
        r.law = None;
        r.split = None;
        r.tcp = None;
        let c = cells(&r);
        assert!(c[4..].iter().all(|s| s == "-"));
        let j = json(&[r]).unwrap();
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert!(v[0]["law"].is_null() && v[0]["split"].is_null() && v[0]["tcp"].is_null());
    }

    #[test]
    fn json_shape() {
        assert_eq!(json(&[]).unwrap(), "[]\n");
        let j = json(&[row(), row()]).unwrap();
        assert_eq!(j.lines().count(), 4, "one object per line: {j}");
        let v: serde_json::Value = serde_json::from_str(&j).unwrap();
        assert_eq!(v[0]["algo"], "swift");
        assert_eq!(v[0]["local_addr"], "10.0.0.1");
        assert_eq!(v[0]["law"]["reason"], "additive_increase");
        assert_eq!(v[0]["law"]["window_pkts_q8"], 3200);
        assert_eq!(v[0]["split"]["endpoint_delay_ns"], serde_json::Value::Null);
        assert_eq!(v[0]["tcp"]["snd_cwnd_pkts"], 12);
    }
}
