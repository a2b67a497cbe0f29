// SPDX-License-Identifier: GPL-2.0-only
//! rdcc-sim: a deterministic packet-level datacenter network simulator that drives the
//! control laws of `rdcc-core` (the same code the kernel modules run) event for event as the
//! kernel glue does.
//!
//! Layout: [`rng`] (the only randomness, seeded), [`topo`] (topologies and ECMP routes),
//! [`cc`] (the core's laws and the DCTCP/Reno baselines behind one dispatch), [`engine`] (the
//! event loop, switches, NICs, senders and receivers), [`workload`] (flow-size CDFs, Poisson
//! arrivals), [`xpass`] (ExpressPass: credit-class ports, symmetric routing, its own event
//! loop), [`metrics`] (summaries and CSV), [`stats`] (Jain's index and nearest-rank percentiles, shared with xtask), [`plot`] (figures, PNG and SVG, shared with xtask), [`compare`] (`sim compare`: saved runs overlaid), [`error`] (the library's error type), [`scenario`] (TOML scenarios), [`record`] (the run record `run.toml`, the output directory rule), `series` (sampling the time series, for both event loops),
//! [`validate`] (range checks of every scenario field), [`names`] (the `--algos` list parser `sim` and
//! xtask share), [`params`] (named parameter sets: `paper`, the authors' `authors`), [`sweep`] (grids of seeds × scenario keys × algorithms, in parallel or as a
//! Slurm job array, aggregated with confidence intervals), [`preflight`] (the size estimate and the warnings before a run).
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod cc;
pub mod compare;
pub mod engine;
pub mod error;
mod event_queue;
pub mod metrics;
pub mod names;
pub mod params;
pub mod plot;
pub mod preflight;
pub mod record;
pub mod rng;
pub mod scenario;
mod series;
pub mod stats;
pub mod sweep;
pub mod tables;
pub mod text_table;
pub mod topo;
pub mod validate;
pub mod workload;
pub mod xpass;

pub use engine::{FlowSpec, Profile, RunOutput, Sim, SimConfig};
pub use error::{Error, Result};
pub use scenario::Scenario;
