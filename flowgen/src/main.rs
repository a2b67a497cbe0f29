// SPDX-License-Identifier: GPL-2.0-only
//! `rdcc-flowgen`: the traffic of the test bed's scenarios (`selftests/_scenario.sh`).
//!
//! ```text
//! rdcc-flowgen sink [--bind ADDR] --port BASE [--timeout-s S] FLOW...
//!     listen for flow i on port BASE+i with its ALGO, print "listening N", take one
//!     connection per port, read it to EOF, answer with the byte count (8 bytes,
//!     little-endian), print "PORT bytes=N err=..." per port
//! rdcc-flowgen send --to ADDR --port BASE [--marker FILE] [--timeout-s S] FLOW...
//!     FLOW = ALGO:START_MS:t:SECS | ALGO:START_MS:b:BYTES; flow i goes to port BASE+i
//! ```
//!
//! Why not one iperf3 per flow: starting a process costs a guest with one CPU its scheduler
//! ticks. On the UML test bed (one virtual CPU, HZ=100, virtual time) sixteen iperf3 clients
//! starting at an incast's start stalled every running flow's sender for tens of ms
//! (Documentation/results/uml_vs_sim.md, difference 2), and iperf3 ended sized flows before
//! their last bytes were delivered. Here every connection is made before the trial's clock
//! starts, each flow waits on an absolute CLOCK_MONOTONIC sleep in its own thread, and a
//! flow ends only when the receiver has confirmed every byte.
//!
//! Exit status: 0 when every flow (port) succeeded, 1 when one failed (its line says why),
//! 2 for a command line that was refused before anything was connected.

mod net;
mod send;
mod sink;
mod spec;

use clap::{Parser, Subcommand};
use std::net::IpAddr;
use std::process::ExitCode;

/// The longest a flow or a sink may run, s (a day; the default is an hour).
const TIMEOUT_MAX_S: u64 = 86_400;

#[derive(Parser, Debug)]
#[command(
    name = "rdcc-flowgen",
    about = "The test bed's flows: connected before the trial, released on schedule"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand, Debug)]
enum Cmd {
    /// Receive: one connection per flow (port), read to EOF, answer with the byte count.
    Sink {
        /// Address to listen on.
        #[arg(long, default_value = "0.0.0.0")]
        bind: IpAddr,
        /// First port (flow i listens on port + i).
        #[arg(long)]
        port: u16,
        /// Give up on a port this long after starting, s.
        #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..=TIMEOUT_MAX_S))]
        timeout_s: u64,
        /// The flows, as the sender gets them (the listener takes each one's ALGO).
        #[arg(required = true, num_args = 1..=1024)]
        flows: Vec<spec::Flow>,
    },
    /// Send: connect every flow, then start the trial's clock and release each at its start.
    Send {
        /// The sink's address.
        #[arg(long)]
        to: IpAddr,
        /// The sink's first port (flow i connects to port + i).
        #[arg(long)]
        port: u16,
        /// The kernel's trace_marker: "rdcctrial start" when the clock starts, "rdccflow I
        /// start" at each release.
        #[arg(long)]
        marker: Option<std::path::PathBuf>,
        /// A flow fails if the sink's receipt has not come this long after its release, s.
        #[arg(long, default_value_t = 3600, value_parser = clap::value_parser!(u64).range(1..=TIMEOUT_MAX_S))]
        timeout_s: u64,
        /// ALGO:START_MS:t:SECS or ALGO:START_MS:b:BYTES.
        #[arg(required = true, num_args = 1..=1024)]
        flows: Vec<spec::Flow>,
    },
}

/// Flow i uses port `base + i`: all of them must be ports.
fn ports_fit(base: u16, n: usize) -> Result<(), String> {
    if usize::from(base) + n > 65536 {
        Err(format!("{n} flows from port {base} pass 65535"))
    } else {
        Ok(())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Cmd::Sink { port, flows, .. } = &cli.cmd {
        if let Err(e) = ports_fit(*port, flows.len()) {
            eprintln!("rdcc-flowgen: sink: {e}");
            return ExitCode::from(2);
        }
        // A listener and its connection per flow, at worst all open at once (each listener is
        // closed once its connection is accepted: sink.rs `serve`).
        if let Err(e) = net::reserve_fds(2 * flows.len() as u64 + net::FD_SPARE) {
            eprintln!("rdcc-flowgen: sink: {e}");
            return ExitCode::from(2);
        }
    }
    let ok = match cli.cmd {
        Cmd::Sink {
            bind,
            port,
            timeout_s,
            flows,
        } => match sink::run(bind, port, &flows, timeout_s) {
            Ok(ok) => ok,
            Err(e) => {
                eprintln!("rdcc-flowgen: sink: {e:#}");
                false
            }
        },
        Cmd::Send {
            to,
            port,
            marker,
            timeout_s,
            flows,
        } => {
            if let Err(e) = ports_fit(port, flows.len()) {
                eprintln!("rdcc-flowgen: send: {e}");
                return ExitCode::from(2);
            }
            // One socket per flow.
            if let Err(e) = net::reserve_fds(flows.len() as u64 + net::FD_SPARE) {
                eprintln!("rdcc-flowgen: send: {e}");
                return ExitCode::from(2);
            }
            let marker = match marker.as_deref().map(|p| {
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(p)
                    .map_err(|e| format!("marker {}: {e}", p.display()))
            }) {
                None => None,
                Some(Ok(f)) => Some(f),
                Some(Err(e)) => {
                    eprintln!("rdcc-flowgen: send: {e}");
                    return ExitCode::from(2);
                }
            };
            send::run(to, port, &flows, marker, timeout_s)
        }
    };
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
