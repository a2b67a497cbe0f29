// SPDX-License-Identifier: GPL-2.0-only
//! `rxstamp`'s command line (clap derive, the same style as the `rdcc` command and `cargo
//! xtask`): one subcommand per action, each with its own options and `--help`; misuse (an
//! unknown option, a value out of range, a malformed `--allow`) exits 2 before anything is
//! loaded or attached.

use crate::allow;
use crate::inject::InjectArgs;
use anyhow::{bail, Result};
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

/// Where the programs and maps are pinned unless `--pin` says otherwise.
pub const DEFAULT_PIN: &str = "/sys/fs/bpf/rdcc_rqd";

const AFTER_HELP: &str = "\
CGROUP is a cgroup v2 directory (e.g. /sys/fs/cgroup/rcv). PEER is PREFIX[@PORT[,PORT...]]
(10.0.0.0/24@5201, fd00::/64) or `any`; without --allow no connection is touched.
See Documentation/remote-delay.md.";

#[derive(Parser, Debug)]
#[command(
    name = "rxstamp",
    version,
    about = "Receiver side of Swift's remote-queuing-delay channel: loads rqd.bpf.o, attaches it \
        to a cgroup v2, detaches, reports counters",
    long_about = "Receiver side of Swift's remote-queuing-delay channel \
        (Documentation/remote-delay.md).\n\n\
        Loads the embedded BPF object, attaches its two programs to a cgroup v2 (every TCP \
        socket of the processes in it then reports, on every ACK, how long the acknowledged \
        data waited at this host, and the TTL it arrived with), detaches them, and reports the \
        counters. The programs and maps are pinned under DIR (default /sys/fs/bpf/rdcc_rqd) so \
        `detach` and `stats` find them.",
    after_help = AFTER_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Load, attach to CGROUP, pin, exit (the programs stay attached).
    Attach(AttachArgs),
    /// Detach from CGROUP and unpin.
    Detach {
        #[arg(value_name = "CGROUP")]
        cgroup: PathBuf,
        #[command(flatten)]
        pin: Pin,
    },
    /// Print the counters: options written, delay min/p50/p99, skips and errors.
    Stats {
        #[command(flatten)]
        pin: Pin,
        /// Reset the counters after printing them.
        #[arg(long)]
        reset: bool,
    },
    /// Refresh the realtime-monotonic clock offset the programs use.
    Sync {
        #[command(flatten)]
        pin: Pin,
    },
    /// Attach, keep the clock offset fresh, and on SIGINT/SIGTERM (or after --secs) print the
    /// counters and detach.
    Run {
        #[command(flatten)]
        attach: AttachArgs,
        /// Stop after this many seconds (default: at SIGINT/SIGTERM).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        secs: Option<u64>,
    },
    /// Test helper: a TCP receiver that reads at most KBPS KB/s (a slow receiver).
    Sink {
        /// Port to listen on.
        #[arg(value_name = "PORT", value_parser = clap::value_parser!(u16).range(1..))]
        port: u16,
        /// Read rate, KB/s (1 KB = 1024 bytes) [1..=100000000].
        #[arg(long, value_name = "KBPS", value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        rate: u64,
        /// Stop after this many seconds (default: when the sender closes).
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
        secs: Option<u64>,
    },
    /// Test helper: send zeros as fast as possible; optionally switch the socket's congestion
    /// control and/or read TCP_CC_INFO in a tight loop meanwhile.
    Source(SourceArgs),
    /// Test helper: forge ACKs with the option at a live flow (src/inject.rs).
    Inject(InjectArgs),
    /// Test helper: the largest segment on IFACE, and data segments from PORT whose TCP header
    /// has no room for the option (below MIN_TCP_HDR bytes).
    MtuWatch {
        /// Interface to watch (both directions).
        #[arg(value_name = "IFACE")]
        iface: String,
        /// Source port of the data segments to check.
        #[arg(value_name = "PORT", requires = "min_tcp_hdr", value_parser = clap::value_parser!(u16).range(1..))]
        port: Option<u16>,
        /// Smallest TCP header, bytes, that leaves room for the option [20..=60].
        #[arg(value_name = "MIN_TCP_HDR", value_parser = clap::value_parser!(u64).range(20..=60))]
        min_tcp_hdr: Option<u64>,
        /// The path MTU, bytes: segments larger than this on the wire are counted [68..=65535].
        #[arg(long, value_name = "BYTES", value_parser = clap::value_parser!(u64).range(68..=65_535))]
        mtu: u64,
        /// Watch this many seconds.
        #[arg(long, value_name = "N", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
        secs: u64,
    },
    /// The INT request at the sender and the receiver's echo (bpf/int.bpf.c, src/intecho.rs).
    #[command(subcommand)]
    Int(IntCmd),
    /// Test helpers for the software INT switch sch_rdcc_int and the echo (src/intprobe.rs,
    /// src/intflow.rs).
    #[command(subcommand)]
    IntProbe(IntProbe),
    /// For the build harness: exits 0 when the BPF object is embedded.
    #[command(hide = true)]
    Selfcheck,
}

/// `rxstamp int`.
#[derive(Subcommand, Debug, Clone)]
pub enum IntCmd {
    /// Load int.bpf.o, attach it to CGROUP, pin, exit (it stays attached): admitted connections
    /// carry a request in every data segment and echo the latest stack received on the next ACK.
    Attach {
        /// The cgroup v2 directory whose connections take part.
        #[arg(value_name = "CGROUP")]
        cgroup: PathBuf,
        /// Admit connections to PEER (repeatable): PREFIX[@PORT[,PORT...]] or `any`.
        #[arg(long, value_name = "PEER", value_parser = allow_value)]
        allow: Vec<String>,
        /// Slots of this host's requests [1..=4] (more than 2 need a connection without
        /// timestamps); default: the most that fit, 2 with timestamps, 4 without.
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=4))]
        slots: Option<u32>,
        #[command(flatten)]
        pin: IntPin,
    },
    /// Detach from CGROUP and unpin.
    Detach {
        #[arg(value_name = "CGROUP")]
        cgroup: PathBuf,
        #[command(flatten)]
        pin: IntPin,
    },
    /// Print the counters (requests written, stacks parsed, malformed, echoed, skips).
    Stats {
        #[command(flatten)]
        pin: IntPin,
        /// Reset the counters after printing them.
        #[arg(long)]
        reset: bool,
    },
}

/// The pin directory of `rxstamp int`.
#[derive(Args, Debug, Clone)]
pub struct IntPin {
    /// Directory the program and maps are pinned under (bpffs is mounted there if needed).
    #[arg(long = "pin", value_name = "DIR", default_value = crate::intecho::DEFAULT_PIN)]
    pub dir: PathBuf,
}

/// `rxstamp int-probe`.
#[derive(Subcommand, Debug, Clone)]
pub enum IntProbe {
    /// Send N TCP segments with an INT request of K empty slots to DST:PORT, back to back.
    Send {
        /// Receiver address (IPv4 or IPv6).
        #[arg(value_name = "DST")]
        dst: std::net::IpAddr,
        /// Destination port.
        #[arg(long, value_name = "P", value_parser = clap::value_parser!(u16).range(1..))]
        port: u16,
        /// Segments to send [1..=100000].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
        count: u64,
        /// Payload bytes per segment [0..=1400].
        #[arg(long, value_name = "B", value_parser = clap::value_parser!(u64).range(0..=1400))]
        size: u64,
        /// Slots of the INT request [1..=4]; more than 2 need --no-ts.
        #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=4))]
        slots: u64,
        /// Leave out the timestamp option (room for 4 slots).
        #[arg(long)]
        no_ts: bool,
    },
    /// Capture segments to PORT with an INT option on IFACE; print each and a summary.
    Watch {
        /// Interface to capture on.
        #[arg(value_name = "IFACE")]
        iface: String,
        /// Destination port of the segments.
        #[arg(long, value_name = "P", value_parser = clap::value_parser!(u16).range(1..))]
        port: u16,
        /// Stop after this many segments [1..=100000].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
        count: u64,
        /// Stop after this many seconds at most.
        #[arg(long, value_name = "S", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
        secs: u64,
    },
    /// Send N data segments with malformed INT requests into the connection whose ACKs come
    /// from PORT on IFACE (the sender's; IPv4 with timestamps).
    Forge {
        /// Interface to watch for the receiver's ACKs.
        #[arg(value_name = "IFACE")]
        iface: String,
        /// The receiver's port.
        #[arg(long, value_name = "P", value_parser = clap::value_parser!(u16).range(1..))]
        port: u16,
        /// Segments to send [1..=100000].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100_000))]
        count: u64,
        /// Stop after this many seconds at most.
        #[arg(long, value_name = "S", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
        secs: u64,
    },
    /// Capture live connections on IFACE (the sender's): data segments to PORT with their
    /// requests, ACKs from PORT with their echoes; judge the echoes; print a summary.
    Flow {
        /// Interface to capture on.
        #[arg(value_name = "IFACE")]
        iface: String,
        /// The receiver's port.
        #[arg(long, value_name = "P", value_parser = clap::value_parser!(u16).range(1..))]
        port: u16,
        /// Stop after this many echoes [1..=10000000].
        #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
        count: u64,
        /// Stop after this many seconds at most.
        #[arg(long, value_name = "S", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
        secs: u64,
    },
}

/// The pin directory option.
#[derive(Args, Debug, Clone)]
pub struct Pin {
    /// Directory the programs and maps are pinned under (bpffs is mounted there if needed).
    #[arg(long = "pin", value_name = "DIR", default_value = DEFAULT_PIN)]
    pub dir: PathBuf,
}

#[derive(Args, Debug, Clone)]
pub struct AttachArgs {
    /// The cgroup v2 directory whose sockets are stamped.
    #[arg(value_name = "CGROUP")]
    pub cgroup: PathBuf,
    /// Admit connections to PEER (repeatable): PREFIX[@PORT[,PORT...]] or `any`.
    #[arg(long, value_name = "PEER", value_parser = allow_value)]
    pub allow: Vec<String>,
    #[command(flatten)]
    pub pin: Pin,
    /// Use kernel RX timestamps (SO_TIMESTAMPNS held open) as arrival times.
    #[arg(long)]
    pub rx_stamps: bool,
}

#[derive(Args, Debug, Clone)]
pub struct SourceArgs {
    /// Receiver address.
    #[arg(value_name = "ADDR")]
    pub addr: String,
    /// Receiver port.
    #[arg(value_name = "PORT", value_parser = clap::value_parser!(u16).range(1..))]
    pub port: u16,
    /// Stop after this many seconds (default: when the receiver closes).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub secs: Option<u64>,
    /// Switch the socket's congestion control between these (two or more, comma-separated)
    /// every --switch-ms.
    #[arg(long, value_name = "A,B", value_parser = cc_list)]
    pub switch_cc: Option<CcList>,
    /// Interval of --switch-cc, ms [1..=60000].
    #[arg(long, value_name = "MS", default_value_t = 10, requires = "switch_cc",
          value_parser = clap::value_parser!(u64).range(1..=60_000))]
    pub switch_ms: u64,
    /// Read TCP_CC_INFO in a tight loop while sending.
    #[arg(long)]
    pub poll_info: bool,
}

/// One `--allow` value, checked with the allowlist's own parser (merging happens later).
fn allow_value(s: &str) -> Result<String> {
    allow::parse_rule(s).map(|_| s.to_string())
}

impl Cli {
    /// What clap's attributes cannot say: `inject --gap-us` only with `--mode supersede`. An
    /// error here is a usage error (exit 2), like clap's own.
    pub fn validate(&self) -> Result<(), clap::Error> {
        use clap::CommandFactory;
        if let Cmd::Inject(a) = &self.cmd {
            if a.gap_us.is_some() && a.mode != "supersede" {
                return Err(Cli::command().error(
                    clap::error::ErrorKind::ArgumentConflict,
                    format!("--gap-us applies to --mode supersede only, not {}", a.mode),
                ));
            }
        }
        Ok(())
    }
}

/// Two or more congestion-control names (`--switch-cc A,B[,C...]`).
#[derive(Debug, Clone, PartialEq)]
pub struct CcList(pub Vec<String>);

fn cc_list(s: &str) -> Result<CcList> {
    let v: Vec<String> = s.split(',').map(|n| n.trim().to_string()).collect();
    if v.len() < 2 || v.iter().any(|n| n.is_empty()) {
        bail!("{s:?}: two or more names, A,B");
    }
    Ok(CcList(v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::error::ErrorKind::{self, *};
    use clap::CommandFactory;

    fn parse(line: &str) -> Result<Cli, clap::Error> {
        let c = Cli::try_parse_from(std::iter::once("rxstamp").chain(line.split_whitespace()))?;
        c.validate()?;
        Ok(c)
    }

    #[test]
    fn command_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// The command lines the selftests use (selftests/rdcc_rqd*.sh, lib_rqd.sh) keep parsing.
    #[test]
    fn selftest_command_lines_parse() {
        let lines = [
            "attach /sys/fs/cgroup/rcv --pin /sys/fs/bpf/x --allow 10.0.0.0/24 --allow fd00::/64",
            "attach /sys/fs/cgroup/rcv --pin /sys/fs/bpf/x --allow 10.0.0.0/24@5201 --allow fd00::/64@5201",
            "attach /sys/fs/cgroup/rcv --pin /sys/fs/bpf/x",
            "detach /sys/fs/cgroup/rcv --pin /sys/fs/bpf/x",
            "run /sys/fs/cgroup/rcv --pin /sys/fs/bpf/x --allow any --rx-stamps --secs 13",
            "stats --pin /sys/fs/bpf/x --reset",
            "stats",
            "sync --pin /sys/fs/bpf/x",
            "sink 5202 --rate 100000 --secs 9",
            "source 10.0.0.2 5202 --secs 3",
            "source 10.0.0.2 5201 --secs 8 --switch-cc swift,cubic --switch-ms 5 --poll-info",
            "inject --iface veth1 --port 5201 --mode delay-max --every 4 --secs 10",
            "inject --iface veth1 --port 5201 --mode ttl129",
            "inject --iface veth1 --port 5201 --mode supersede --every 1 --gap-us 3000",
            "mtu-watch veth0 5201 42 --mtu 1500 --secs 10",
            "mtu-watch veth0 --mtu 1500",
            "int attach /sys/fs/cgroup/snd --allow 10.0.1.2/32@5201 --pin /sys/fs/bpf/i",
            "int attach /sys/fs/cgroup/snd --allow any --slots 4",
            "int detach /sys/fs/cgroup/snd --pin /sys/fs/bpf/i",
            "int stats --pin /sys/fs/bpf/i --reset",
            "int-probe flow veth0 --port 5201 --count 2000 --secs 20",
            "int-probe forge veth0 --port 5201 --count 30 --secs 5",
            "selfcheck",
        ];
        for l in lines {
            if let Err(e) = parse(l) {
                panic!("{l}: {e}");
            }
        }
        let Ok(Cli {
            cmd: Cmd::Source(s),
        }) = parse("source 10.0.0.2 5201 --switch-cc swift,cubic --switch-ms 5")
        else {
            panic!("source parses");
        };
        assert_eq!(
            s.switch_cc,
            Some(CcList(vec!["swift".into(), "cubic".into()]))
        );
        assert_eq!((s.switch_ms, s.secs), (5, None));
        let Ok(Cli {
            cmd: Cmd::Stats { pin, reset },
        }) = parse("stats")
        else {
            panic!("stats parses");
        };
        assert_eq!((pin.dir, reset), (PathBuf::from(DEFAULT_PIN), false));
        // `int` has its own pin directory and slot default (0: the most that fit).
        let Ok(Cli {
            cmd: Cmd::Int(IntCmd::Attach {
                slots, pin, allow, ..
            }),
        }) = parse("int attach /cg --allow 10.0.0.0/24@5201")
        else {
            panic!("int attach parses");
        };
        assert_eq!(slots, None);
        assert_eq!(pin.dir, PathBuf::from(crate::intecho::DEFAULT_PIN));
        assert_ne!(
            pin.dir,
            PathBuf::from(DEFAULT_PIN),
            "rqd's and int's pins differ"
        );
        assert_eq!(allow, vec!["10.0.0.0/24@5201".to_string()]);
    }

    #[test]
    fn misuse_is_refused() {
        let cases: &[(&str, ErrorKind)] = &[
            ("", DisplayHelpOnMissingArgumentOrSubcommand),
            ("nosuch", InvalidSubcommand),
            ("attach", MissingRequiredArgument),
            ("attach /cg --allow 10.0.0.0/33", ValueValidation),
            ("attach /cg --allow 10.0.0.0/24@0", ValueValidation),
            ("attach /cg --allow host", ValueValidation),
            ("attach /cg --secs 5", UnknownArgument),
            ("detach /cg --allow any", UnknownArgument),
            ("stats --rx-stamps", UnknownArgument),
            ("stats /cg", UnknownArgument),
            ("run /cg --secs 0", ValueValidation),
            ("sink 5201", MissingRequiredArgument),
            ("sink 5201 --rate 0", ValueValidation),
            ("sink 5201 --rate 100000001", ValueValidation),
            ("sink 0 --rate 10", ValueValidation),
            ("sink 70000 --rate 10", ValueValidation),
            ("sink 5201 --rate 10 --reset", UnknownArgument),
            ("source 10.0.0.2", MissingRequiredArgument),
            ("source 10.0.0.2 5201 --switch-cc swift", ValueValidation),
            ("source 10.0.0.2 5201 --switch-cc swift,", ValueValidation),
            (
                "source 10.0.0.2 5201 --switch-ms 5",
                MissingRequiredArgument,
            ),
            (
                "source 10.0.0.2 5201 --switch-cc a,b --switch-ms 0",
                ValueValidation,
            ),
            ("inject --iface veth1 --port 5201", MissingRequiredArgument),
            (
                "inject --iface veth1 --port 5201 --mode nosuch",
                InvalidValue,
            ),
            (
                "inject --iface veth1 --port 5201 --mode control --every 0",
                ValueValidation,
            ),
            (
                "inject --iface veth1 --port 5201 --mode control --secs 0",
                ValueValidation,
            ),
            (
                "inject --iface veth1 --port 5201 --mode delay-max --gap-us 3000",
                ArgumentConflict,
            ),
            (
                "inject --iface veth1 --port 5201 --mode supersede --gap-us 0",
                ValueValidation,
            ),
            (
                "inject --iface veth1 --port 5201 --mode supersede --gap-us 1000001",
                ValueValidation,
            ),
            ("mtu-watch veth0", MissingRequiredArgument),
            ("mtu-watch veth0 5201 --mtu 1500", MissingRequiredArgument),
            ("mtu-watch veth0 5201 10 --mtu 1500", ValueValidation),
            ("mtu-watch veth0 --mtu 20", ValueValidation),
            ("int", DisplayHelpOnMissingArgumentOrSubcommand),
            ("int attach", MissingRequiredArgument),
            ("int attach /cg --slots 0", ValueValidation),
            ("int attach /cg --slots 5", ValueValidation),
            ("int attach /cg --allow 10.0.0.0/33", ValueValidation),
            ("int attach /cg --rx-stamps", UnknownArgument),
            ("int detach", MissingRequiredArgument),
            ("int detach /cg --slots 2", UnknownArgument),
            ("int stats /cg", UnknownArgument),
            ("int-probe flow veth0 --port 5201", MissingRequiredArgument),
            ("int-probe forge veth0 --port 5201", MissingRequiredArgument),
            (
                "int-probe forge veth0 --port 5201 --count 0",
                ValueValidation,
            ),
            ("int-probe flow veth0 --port 0 --count 1", ValueValidation),
            (
                "int-probe flow veth0 --port 5201 --count 0",
                ValueValidation,
            ),
            ("--help", DisplayHelp),
            ("attach --help", DisplayHelp),
            ("inject --help", DisplayHelp),
        ];
        for (line, want) in cases {
            match parse(line) {
                Ok(c) => panic!("{line:?} parsed: {c:?}"),
                Err(e) => assert_eq!(e.kind(), *want, "{line:?}: {e}"),
            }
        }
    }
}
