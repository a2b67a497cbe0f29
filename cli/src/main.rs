// SPDX-License-Identifier: GPL-2.0-only
//! The `rdcc` command. See `rdcc --help` and README.md ("Live sockets: rdcc ss").

use anyhow::{bail, Context};
use clap::{Parser, Subcommand};
use rdcc_cli::diag::DiagSocketFd;
use rdcc_cli::view::{Filter, ALGOS};
use rdcc_cli::{output, reason, snapshot};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "rdcc",
    version,
    about = "Show the control-law state of live rdcc TCP sockets (swift, swift_vaisf, timely, theta_powertcp)",
    long_about = "Show the control-law state of live rdcc TCP sockets.\n\n\
        Asks the kernel (inet_diag, as `ss` does) for every TCP socket of this network namespace \
        whose congestion control is one of swift, swift_vaisf, timely or theta_powertcp, and \
        prints the law's state by name: target delay or signal, fabric and endpoint delay, hops, \
        window with its fraction, the law's pacing rate, the decision's reason, which window binds; \
        next to the kernel's applied cwnd, pacing rate and smoothed RTT.\n\n\
        Without a subcommand, runs `rdcc ss`. Run inside a namespace with `ip netns exec NS rdcc`."
)]
struct Cli {
    #[command(subcommand)]
    cmd: Option<Cmd>,
}

#[derive(Subcommand)]
enum Cmd {
    /// List rdcc sockets (the default).
    #[command(
        long_about = "List rdcc sockets: one row per socket, or JSON with --json.\n\n\
        Columns: LOCAL, PEER, ALGO, STATE; TARGET/SIGNAL (swift, swift_vaisf: `tgt` = target \
        delay; timely: `grad` = normalized RTT gradient, negative gradients show as 0; \
        theta_powertcp: `pow` = normalized power); FABRIC and ENDPOINT delay and HOPS (Swift's \
        remote-delay split; `-` for laws without one and before an endpoint estimate exists); \
        WINDOW = the law's window in packets with its fraction; CWND = the kernel's snd_cwnd; \
        LAW-Mbit/s = the law's pacing rate (`unpaced` = ACK-clocked); PACING-Mbit/s = the rate \
        the kernel applies; SRTT; REASON = the reason code the module reports with the law's view, by name (`rdcc reasons`); BINDS = which window binds.\n\n\
        A socket that opened or closed between the three kernel dumps shows `-` for the parts \
        it was missing from. Exits 0 when the dumps succeed, also when no socket matches."
    )]
    Ss(SsArgs),
    /// Print the reason codes and their names (decodes `ss -ti`'s pacing_gain >> 8).
    Reasons {
        /// JSON instead of a table.
        #[arg(long)]
        json: bool,
    },
}

#[derive(clap::Args, Default)]
struct SsArgs {
    /// Only sockets with this local port.
    #[arg(long, value_name = "PORT")]
    sport: Option<u16>,
    /// Only sockets with this peer port.
    #[arg(long, value_name = "PORT")]
    dport: Option<u16>,
    /// Only sockets of this algorithm.
    #[arg(long, value_name = "NAME", value_parser = clap::builder::PossibleValuesParser::new(ALGOS))]
    algo: Option<String>,
    /// JSON: an array with one socket object per line (units in the field names).
    #[arg(long)]
    json: bool,
    /// Repeat every SECS seconds (0.1 to 3600) until interrupted.
    #[arg(long, value_name = "SECS", value_parser = parse_watch)]
    watch: Option<f64>,
}

fn parse_watch(s: &str) -> anyhow::Result<f64> {
    let Ok(v) = s.parse::<f64>() else {
        bail!("'{s}' is not a number of seconds");
    };
    if !(0.1..=3600.0).contains(&v) {
        bail!("{v} s is outside [0.1, 3600]");
    }
    Ok(v)
}

fn ss(a: &SsArgs) -> anyhow::Result<()> {
    let mut sock = DiagSocketFd::open()?;
    let filter = Filter {
        sport: a.sport,
        dport: a.dport,
        algo: a.algo.clone(),
    };
    let tty = std::io::stdout().is_terminal();
    loop {
        let snap = snapshot(&mut sock)?;
        let rows: Vec<_> = snap.rows.into_iter().filter(|r| filter.keep(r)).collect();
        let text = if a.json {
            output::json(&rows).context("JSON output")?
        } else {
            output::table(&rows)
        };
        let mut out = std::io::stdout().lock();
        let w = (|| -> std::io::Result<()> {
            if a.watch.is_some() {
                if tty && !a.json {
                    write!(out, "\x1b[H\x1b[2J")?;
                }
                if !a.json {
                    let now = std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .unwrap_or_default();
                    writeln!(
                        out,
                        "# rdcc ss at {}.{:03} s (unix), {} socket(s)",
                        now.as_secs(),
                        now.subsec_millis(),
                        rows.len()
                    )?;
                }
            }
            out.write_all(text.as_bytes())?;
            out.flush()
        })();
        match w {
            Ok(()) => {}
            // A closed pipe (`rdcc ss | head`) ends the command quietly.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
            Err(e) => return Err(e).context("writing the output"),
        }
        drop(out);
        if snap.interrupted {
            eprintln!("rdcc: note: the socket table changed during a dump; a socket may be missing or listed twice");
        }
        if rows.is_empty() && !a.json && a.watch.is_none() {
            eprintln!(
                "rdcc: no socket uses {}{}",
                ALGOS.join(", "),
                if filter_set(a) {
                    " (with these filters)"
                } else {
                    ""
                }
            );
        }
        match a.watch {
            Some(secs) => std::thread::sleep(Duration::from_secs_f64(secs)),
            None => return Ok(()),
        }
    }
}

fn filter_set(a: &SsArgs) -> bool {
    a.sport.is_some() || a.dport.is_some() || a.algo.is_some()
}

fn reasons(json: bool) {
    if json {
        let v: Vec<_> = reason::ALL
            .iter()
            .map(|&r| serde_json::json!({ "code": r as u8, "name": reason::name(r) }))
            .collect();
        println!("{}", serde_json::Value::Array(v));
    } else {
        println!("CODE  NAME");
        for &r in &reason::ALL {
            println!("{:<4}  {}", r as u8, reason::name(r));
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let r = match cli.cmd {
        None => ss(&SsArgs::default()),
        Some(Cmd::Ss(a)) => ss(&a),
        Some(Cmd::Reasons { json }) => {
            reasons(json);
            Ok(())
        }
    };
    match r {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("rdcc: {e:#}");
            ExitCode::FAILURE
        }
    }
}
