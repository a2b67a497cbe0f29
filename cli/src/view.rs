//! The three dumps joined per socket and turned into named, unit-carrying values.
//!
//! Dump A (law view, `INET_DIAG_BBRINFO`), dump B (fabric/endpoint split, `INET_DIAG_DCTCPINFO`)
//! and dump C (the kernel's `tcp_info`) are separate requests, so a socket may be in one and not
//! another (it opened or closed in between): rows are joined by the inet_diag cookie, and what a
//! dump did not return is shown as absent (`-`, `null`), never as zero.

use crate::netlink::{self, DiagSocket, LawInfo, SplitInfo, TcpInfo};
use crate::reason;
use serde::Serialize;
use std::collections::HashMap;
use std::net::IpAddr;

/// The congestion-control names of the rdcc modules.
pub const ALGOS: [&str; 4] = ["swift", "swift_vaisf", "timely", "theta_powertcp"];

/// What the law's signal (`bbr_min_rtt`) means for an algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SignalKind {
    /// Swift, Swift VAI/SF: the target delay, µs.
    TargetDelayUs,
    /// TIMELY: the normalized RTT gradient x 1000 (dimensionless; the modules report
    /// max(gradient, 0), so a falling RTT shows as 0).
    RttGradientX1000,
    /// θ-PowerTCP: the smoothed normalized power x 1000.
    NormalizedPowerX1000,
}

impl SignalKind {
    /// For one of `ALGOS`.
    pub fn of(algo: &str) -> Option<SignalKind> {
        match algo {
            "swift" | "swift_vaisf" => Some(SignalKind::TargetDelayUs),
            "timely" => Some(SignalKind::RttGradientX1000),
            "theta_powertcp" => Some(SignalKind::NormalizedPowerX1000),
            _ => None,
        }
    }

    /// The JSON name (the unit is in the name).
    pub fn key(self) -> &'static str {
        match self {
            SignalKind::TargetDelayUs => "target_delay_us",
            SignalKind::RttGradientX1000 => "rtt_gradient_x1000",
            SignalKind::NormalizedPowerX1000 => "normalized_power_x1000",
        }
    }
}

/// One socket as shown.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// `ipv4` or `ipv6`.
    pub family: &'static str,
    /// TCP state, as `ss` names it (`ESTAB`, `LISTEN`, ...).
    pub state: &'static str,
    /// Local address.
    pub local_addr: IpAddr,
    /// Local port.
    pub local_port: u16,
    /// Peer address.
    pub peer_addr: IpAddr,
    /// Peer port.
    pub peer_port: u16,
    /// The inet_diag socket cookie (the join key).
    pub cookie: u64,
    /// Congestion control.
    pub algo: String,
    /// The law's state (dump A), if the socket was in it.
    pub law: Option<LawRow>,
    /// Swift's fabric/endpoint split (dump B); `None` for laws without one (all zeros) or when
    /// the socket was not in the dump.
    pub split: Option<SplitRow>,
    /// The kernel's view (dump C).
    pub tcp: Option<TcpRow>,
}

/// The law's view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LawRow {
    /// What `signal` is (`target_delay_us`, `rtt_gradient_x1000`, `normalized_power_x1000`).
    pub signal_kind: &'static str,
    /// The signal in that unit.
    pub signal: u32,
    /// The decision's reason code.
    pub reason_code: u8,
    /// Its name (core `Reason`), or `unknown(<code>)`.
    pub reason: String,
    /// The law's window, packets Q8 (256 = one packet).
    pub window_pkts_q8: u32,
    /// The same in packets.
    pub window_pkts: f64,
    /// The law's pacing rate, bytes/s; 0 = the law does not pace (ACK-clocked).
    pub rate_bytes_per_s: u64,
    /// The same in Mbit/s (10^6 bit/s).
    pub rate_mbit_s: f64,
}

/// The fabric/endpoint split (Swift §3.3).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SplitRow {
    /// Fabric delay of the latest ACK with an RTT sample, ns (the whole RTT without a remote
    /// delay; saturated at 2^32-1 ns).
    pub fabric_delay_ns: u32,
    /// Endpoint-delay estimate, ns; `None` until one exists.
    pub endpoint_delay_ns: Option<u32>,
    /// Hop count in use.
    pub hops: u32,
    /// Which window binds: `fabric` or `endpoint`.
    pub binds: &'static str,
    /// The latest ACK carried a remote delay.
    pub remote_used: bool,
    /// The latest remote delay was clamped to the RTT.
    pub remote_clamped: bool,
    /// The endpoint estimate expired.
    pub endpoint_expired: bool,
    /// The raw flags (`dctcp_ce_state`).
    pub flags: u16,
}

/// What the kernel applies.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TcpRow {
    /// Smoothed RTT, µs.
    pub srtt_us: Option<u32>,
    /// RTT variation, µs.
    pub rttvar_us: Option<u32>,
    /// Minimum RTT, µs.
    pub min_rtt_us: Option<u32>,
    /// `snd_cwnd`, packets.
    pub snd_cwnd_pkts: Option<u32>,
    /// MSS, bytes.
    pub snd_mss_bytes: Option<u32>,
    /// `sk_pacing_rate`, bytes/s; `None` when unlimited or not reported.
    pub pacing_rate_bytes_per_s: Option<u64>,
    /// The kernel does not pace this socket (`sk_pacing_rate` = ~0).
    pub pacing_unlimited: bool,
    /// Delivery rate, bytes/s.
    pub delivery_rate_bytes_per_s: Option<u64>,
}

/// TCP state names as `ss` prints them (include/net/tcp_states.h order).
pub fn state_name(s: u8) -> &'static str {
    match s {
        1 => "ESTAB",
        2 => "SYN-SENT",
        3 => "SYN-RECV",
        4 => "FIN-WAIT-1",
        5 => "FIN-WAIT-2",
        6 => "TIME-WAIT",
        7 => "UNCONN",
        8 => "CLOSE-WAIT",
        9 => "LAST-ACK",
        10 => "LISTEN",
        11 => "CLOSING",
        12 => "NEW-SYN-RECV",
        _ => "UNKNOWN",
    }
}

/// Bytes/s to Mbit/s (10^6 bit/s).
pub fn mbit_s(bytes_per_s: u64) -> f64 {
    bytes_per_s as f64 * 8.0 / 1e6
}

fn law_row(algo: &str, l: &LawInfo) -> LawRow {
    LawRow {
        signal_kind: SignalKind::of(algo)
            .map(SignalKind::key)
            .unwrap_or("unknown"),
        signal: l.signal,
        reason_code: l.reason_code(),
        reason: reason::describe(l.reason_code()),
        window_pkts_q8: l.window_pkts_q8,
        window_pkts: f64::from(l.window_pkts_q8) / 256.0,
        rate_bytes_per_s: l.rate_bytes_per_s,
        rate_mbit_s: mbit_s(l.rate_bytes_per_s),
    }
}

fn split_row(s: &SplitInfo) -> Option<SplitRow> {
    if *s == SplitInfo::default() {
        return None; // a law without a split reports zeros
    }
    Some(SplitRow {
        fabric_delay_ns: s.fabric_delay_ns,
        endpoint_delay_ns: (s.flags & netlink::SPLIT_HAS_ENDPOINT != 0)
            .then_some(s.endpoint_delay_ns),
        hops: s.hops,
        binds: if s.flags & netlink::SPLIT_ENDPOINT_BINDS != 0 {
            "endpoint"
        } else {
            "fabric"
        },
        remote_used: s.flags & netlink::SPLIT_REMOTE_USED != 0,
        remote_clamped: s.flags & netlink::SPLIT_REMOTE_CLAMPED != 0,
        endpoint_expired: s.flags & netlink::SPLIT_ENDPOINT_EXPIRED != 0,
        flags: s.flags,
    })
}

fn tcp_row(t: &TcpInfo) -> TcpRow {
    let unlimited = t.pacing_rate == Some(u64::MAX);
    TcpRow {
        srtt_us: t.srtt_us,
        rttvar_us: t.rttvar_us,
        min_rtt_us: t.min_rtt_us,
        snd_cwnd_pkts: t.snd_cwnd,
        snd_mss_bytes: t.snd_mss,
        pacing_rate_bytes_per_s: if unlimited { None } else { t.pacing_rate },
        pacing_unlimited: unlimited,
        delivery_rate_bytes_per_s: t.delivery_rate,
    }
}

fn is_rdcc(s: &DiagSocket) -> bool {
    s.cong.as_deref().is_some_and(|c| ALGOS.contains(&c))
}

/// Join the three dumps (each may hold IPv4 and IPv6 sockets) into rows of rdcc sockets,
/// sorted by family, local and peer endpoint. A socket counts as rdcc by the `INET_DIAG_CONG`
/// of the first dump it appears in; views from dumps where it reported another algorithm
/// (changed with setsockopt in between) are not used.
pub fn join(law: &[DiagSocket], split: &[DiagSocket], tcp: &[DiagSocket]) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    let mut by_cookie: HashMap<u64, usize> = HashMap::new();
    for (dump, part) in [law, split, tcp].into_iter().enumerate() {
        for s in part.iter().filter(|s| is_rdcc(s)) {
            let algo = s.cong.clone().unwrap_or_default();
            let i = *by_cookie.entry(s.cookie).or_insert_with(|| {
                rows.push(Row {
                    family: if s.family == netlink::AF_INET6 {
                        "ipv6"
                    } else {
                        "ipv4"
                    },
                    state: state_name(s.state),
                    local_addr: s.src,
                    local_port: s.sport,
                    peer_addr: s.dst,
                    peer_port: s.dport,
                    cookie: s.cookie,
                    algo,
                    law: None,
                    split: None,
                    tcp: None,
                });
                rows.len() - 1
            });
            let r = &mut rows[i];
            if s.cong.as_deref() != Some(r.algo.as_str()) {
                continue;
            }
            match dump {
                0 => r.law = s.law.as_ref().map(|l| law_row(&r.algo, l)),
                1 => r.split = s.split.as_ref().and_then(split_row),
                _ => r.tcp = s.tcp.as_ref().map(tcp_row),
            }
        }
    }
    rows.sort_by(|a, b| {
        (
            a.family,
            a.local_addr,
            a.local_port,
            a.peer_addr,
            a.peer_port,
            a.cookie,
        )
            .cmp(&(
                b.family,
                b.local_addr,
                b.local_port,
                b.peer_addr,
                b.peer_port,
                b.cookie,
            ))
    });
    rows
}

/// Row filters (`--sport`, `--dport`, `--algo`).
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// Local port.
    pub sport: Option<u16>,
    /// Peer port.
    pub dport: Option<u16>,
    /// Algorithm.
    pub algo: Option<String>,
}

impl Filter {
    /// Whether `r` passes.
    pub fn keep(&self, r: &Row) -> bool {
        self.sport.map_or(true, |p| p == r.local_port)
            && self.dport.map_or(true, |p| p == r.peer_port)
            && self.algo.as_deref().map_or(true, |a| a == r.algo)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::netlink::DiagSocket;

    fn sock(cookie: u64, cong: &str, sport: u16) -> DiagSocket {
        DiagSocket {
            family: netlink::AF_INET,
            state: 1,
            src: "10.0.0.1".parse().unwrap(),
            sport,
            dst: "10.0.1.2".parse().unwrap(),
            dport: 5201,
            ifindex: 0,
            cookie,
            uid: 0,
            inode: 1,
            cong: Some(cong.into()),
            law: None,
            split: None,
            tcp: None,
        }
    }

    fn with_law(mut s: DiagSocket, signal: u32, reason: u32, q8: u32, rate: u64) -> DiagSocket {
        s.law = Some(LawInfo {
            rate_bytes_per_s: rate,
            signal,
            pacing_gain: reason << 8,
            window_pkts_q8: q8,
        });
        s
    }

    #[test]
    fn join_by_cookie_with_missing_parts() {
        // Cookie 1 in all three dumps; 2 only in A (closed before B); 3 only in C (opened
        // after A and B); 4 is cubic and never shown.
        let a = vec![
            with_law(sock(1, "swift", 40001), 6000, 2, 3200, 0),
            with_law(sock(2, "swift", 40002), 6000, 3, 256, 1_250_000),
            sock(4, "cubic", 40004),
        ];
        let mut b1 = sock(1, "swift", 40001);
        b1.split = Some(SplitInfo {
            flags: 0x13,
            fabric_delay_ns: 5_000_000,
            endpoint_delay_ns: 400_000,
            hops: 1,
        });
        let b = vec![b1, sock(4, "cubic", 40004)];
        let mut c1 = sock(1, "swift", 40001);
        c1.tcp = Some(TcpInfo {
            srtt_us: Some(5500),
            snd_cwnd: Some(12),
            pacing_rate: Some(u64::MAX),
            ..TcpInfo::default()
        });
        let mut c3 = sock(3, "timely", 40003);
        c3.tcp = Some(TcpInfo {
            srtt_us: Some(7000),
            pacing_rate: Some(6_250_000),
            ..TcpInfo::default()
        });
        let rows = join(&a, &b, &[c1, c3]);
        assert_eq!(
            rows.iter().map(|r| r.cookie).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );

        let r = &rows[0];
        let law = r.law.as_ref().unwrap();
        assert_eq!(
            (law.signal_kind, law.signal, law.reason.as_str()),
            ("target_delay_us", 6000, "additive_increase")
        );
        assert_eq!(law.window_pkts, 12.5); // 3200 / 256
        let sp = r.split.as_ref().unwrap();
        assert_eq!(
            (sp.binds, sp.endpoint_delay_ns, sp.hops, sp.remote_used),
            ("endpoint", Some(400_000), 1, true)
        );
        let t = r.tcp.as_ref().unwrap();
        assert!(t.pacing_unlimited && t.pacing_rate_bytes_per_s.is_none());

        let r = &rows[1];
        assert_eq!(r.law.as_ref().unwrap().reason, "multiplicative_decrease");
        assert_eq!(r.law.as_ref().unwrap().rate_mbit_s, 10.0); // 1.25 MB/s * 8
        assert!(r.split.is_none() && r.tcp.is_none());

        let r = &rows[2];
        assert_eq!(r.algo, "timely");
        assert!(r.law.is_none() && r.split.is_none());
        assert_eq!(
            r.tcp.as_ref().unwrap().pacing_rate_bytes_per_s,
            Some(6_250_000)
        );
    }

    #[test]
    fn zero_split_is_no_split_and_no_estimate_is_none() {
        let mut b = sock(1, "timely", 1);
        b.split = Some(SplitInfo::default());
        let rows = join(&[], &[b], &[]);
        assert!(rows[0].split.is_none());
        // Swift without a receiver: fabric = the RTT, no endpoint estimate, fabric binds.
        let mut b = sock(1, "swift", 1);
        b.split = Some(SplitInfo {
            flags: 0,
            fabric_delay_ns: 4_000_000,
            endpoint_delay_ns: 0,
            hops: 0,
        });
        let rows = join(&[], &[b], &[]);
        let sp = rows[0].split.as_ref().unwrap();
        assert_eq!(
            (sp.binds, sp.endpoint_delay_ns, sp.fabric_delay_ns),
            ("fabric", None, 4_000_000)
        );
    }

    #[test]
    fn algo_changed_between_dumps() {
        // Switched from swift to cubic after dump A: B's view of cubic is not Swift's split.
        let a = vec![with_law(sock(1, "swift", 1), 6000, 2, 512, 0)];
        let mut b = sock(1, "cubic", 1);
        b.split = Some(SplitInfo {
            flags: 1,
            fabric_delay_ns: 9,
            endpoint_delay_ns: 9,
            hops: 9,
        });
        let rows = join(&a, &[b], &[]);
        assert_eq!(rows.len(), 1);
        assert!(rows[0].law.is_some() && rows[0].split.is_none());
    }

    #[test]
    fn signal_kinds_and_filters() {
        let cases = [
            ("swift", "target_delay_us"),
            ("swift_vaisf", "target_delay_us"),
            ("timely", "rtt_gradient_x1000"),
            ("theta_powertcp", "normalized_power_x1000"),
        ];
        for (algo, key) in cases {
            assert_eq!(SignalKind::of(algo).unwrap().key(), key);
        }
        assert_eq!(SignalKind::of("cubic"), None);
        let rows = join(&[sock(1, "swift", 10), sock(2, "timely", 11)], &[], &[]);
        let f = Filter {
            sport: Some(11),
            ..Filter::default()
        };
        assert_eq!(rows.iter().filter(|r| f.keep(r)).count(), 1);
        let f = Filter {
            algo: Some("swift".into()),
            dport: Some(5201),
            ..Filter::default()
        };
        assert_eq!(
            rows.iter()
                .filter(|r| f.keep(r))
                .map(|r| r.cookie)
                .collect::<Vec<_>>(),
            vec![1]
        );
        let f = Filter {
            dport: Some(1),
            ..Filter::default()
        };
        assert_eq!(rows.iter().filter(|r| f.keep(r)).count(), 0);
    }
}
