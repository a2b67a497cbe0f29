// SPDX-License-Identifier: GPL-2.0-only
//! Swift's parameters: the raw [`Config`] a host supplies, its validation, and the validated
//! [`Params`] with the flow-scaling curve's precomputed constants. A child module of `swift`
//! (declared there with `#[path]`, so a kernel module that includes `swift.rs` gets this file
//! too); `swift` re-exports every item, so they are named `swift::Config`, `swift::Params`.

use super::super::event::ParamError;
use super::super::fixed::{mul_div, NS_PER_US, PKT_Q20_ONE, PKT_Q20_SHIFT, Q16_ONE};
use super::{inv_sqrt_q20, MAX_CWND_Q20};

/// The parameters Swift and Swift with VAI/SF (`super::vaisf`) share, by value, so both
/// validate them with the same ranges in one place.
pub struct SharedFields {
    /// `beta`, Q16.
    pub beta_q16: u64,
    /// `max_mdf`, Q16.
    pub max_mdf_q16: u64,
    /// Window floor, packets Q20.
    pub min_cwnd_pkts_q20: u64,
    /// Window ceiling, packets Q20.
    pub max_cwnd_pkts_q20: u64,
    /// Initial window, packets Q20.
    pub init_cwnd_pkts_q20: u64,
    /// `RETX_RESET_THRESHOLD`.
    pub retx_reset_threshold: u64,
    /// Base target delay, ns.
    pub base_target_ns: u64,
    /// Target per hop, ns.
    pub per_hop_ns: u64,
    /// Hop count until one is echoed.
    pub default_hops: u64,
}

/// Range checks of [`SharedFields`] (Swift Alg. 1 line 1 constants, §3.4-§3.5 windows and
/// targets); each error names the module parameter.
pub fn check_shared(c: &SharedFields) -> Result<(), ParamError> {
    ParamError::check("beta_q16", c.beta_q16, 1, Q16_ONE)?;
    ParamError::check("max_mdf_q16", c.max_mdf_q16, 1, Q16_ONE - 1)?;
    ParamError::check(
        "max_cwnd_pkts_q20",
        c.max_cwnd_pkts_q20,
        PKT_Q20_ONE,
        MAX_CWND_Q20,
    )?;
    ParamError::check(
        "min_cwnd_pkts_q20",
        c.min_cwnd_pkts_q20,
        1,
        c.max_cwnd_pkts_q20,
    )?;
    ParamError::check(
        "init_cwnd_pkts_q20",
        c.init_cwnd_pkts_q20,
        c.min_cwnd_pkts_q20,
        c.max_cwnd_pkts_q20,
    )?;
    ParamError::check("retx_reset_threshold", c.retx_reset_threshold, 1, 255)?;
    ParamError::check(
        "base_target_ns",
        c.base_target_ns,
        NS_PER_US,
        10_000 * NS_PER_US,
    )?;
    ParamError::check("per_hop_ns", c.per_hop_ns, 0, 1_000 * NS_PER_US)?;
    ParamError::check("default_hops", c.default_hops, 0, 255)?;
    Ok(())
}

/// Raw Swift parameters, as a host (module parameters, simulator scenario) supplies them.
/// Validate with [`Params::new`].
///
/// The Swift paper publishes no numbers for most parameters ("Swift does not suggest settings
/// for multiple parameters", Snyder & Lebeck §III-D); each default names its source.
///
/// `#[repr(C)]`, as [`Params`] (whose first field it is): the remote-delay lease's C fast path
/// reads three fields of a parameter block (see [`PARAMS_ABI`]).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// `ai`: additive increment per RTT, packets in Q20 (Alg. 1 line 1). Range
    /// [1, 1024 packets].
    pub ai_pkts_q20: u64,
    /// `beta`: multiplicative-decrease constant, Q16 (Alg. 1 line 1). Range (0, 1.0].
    pub beta_q16: u64,
    /// `max_mdf`: largest multiplicative decrease per event, Q16 (Alg. 1 line 1). Range
    /// (0, 1.0).
    pub max_mdf_q16: u64,
    /// `min_cwnd`: window floor, packets in Q20 (Alg. 1 line 26, §3.4). Range [1, max_cwnd].
    pub min_cwnd_pkts_q20: u64,
    /// `max_cwnd`: window ceiling, packets in Q20 (Alg. 1 line 26, §3.3 footnote 3). Range
    /// [1 packet, `MAX_CWND_PKTS`].
    pub max_cwnd_pkts_q20: u64,
    /// Initial window, packets in Q20 (not in the paper, §3.2: "the initial value of cwnd has
    /// little effect"). Range [min_cwnd, max_cwnd].
    pub init_cwnd_pkts_q20: u64,
    /// `RETX_RESET_THRESHOLD`: consecutive RTOs after which the window drops to `min_cwnd`
    /// (Alg. 1 line 17). Range [1, 255].
    pub retx_reset_threshold: u64,
    /// `base_target`: fabric target delay for a one-hop path, ns (§3.5). Range [1 µs, 10 ms].
    pub base_target_ns: u64,
    /// `h`: target added per forward hop, ns (§3.5 topology-based scaling). Range [0, 1 ms].
    pub per_hop_ns: u64,
    /// Hop count used until an ACK echoes one (`ACK_HAS_HOPS`), e.g. from a static table.
    /// Range [0, 255].
    pub default_hops: u64,
    /// `fs_range`: largest target added by flow-based scaling, ns (§3.5); 0 disables flow
    /// scaling. Range [0, 10 ms].
    pub fs_range_ns: u64,
    /// `fs_min_cwnd`: window at or below which flow scaling adds all of `fs_range`, packets
    /// Q20 (§3.5). Range [1, fs_max_cwnd).
    pub fs_min_cwnd_pkts_q20: u64,
    /// `fs_max_cwnd`: window at or above which flow scaling adds nothing, packets Q20 (§3.5).
    /// Range (fs_min_cwnd, `MAX_CWND_PKTS`].
    pub fs_max_cwnd_pkts_q20: u64,
    /// Endpoint-delay target for `ecwnd`, ns (§3.3; no value in the paper). Range
    /// [1 µs, 10 ms].
    pub endpoint_target_ns: u64,
    /// Weight of a new endpoint-delay sample in its EWMA, Q16 (§3.3 names the EWMA, not its
    /// weight). 1.0 = no smoothing. Range (0, 1.0].
    pub endpoint_ewma_q16: u64,
    /// 1 = refresh `t_last_decrease` whenever `cwnd <= cwnd_prev`, exactly as Alg. 1 line 27
    /// reads; 0 (recommended) = only on a strict decrease or at `min_cwnd`. Range [0, 1].
    pub literal_decrease_guard: u64,
}

impl Config {
    /// Defaults. Sources: \[P\] the Swift paper, \[G\] Google's isekai Swift engine (via the spec
    /// §2.3), \[S2\] Snyder & Lebeck §III-D, \[I\] this project's engineering choice.
    pub const DEFAULT: Config = Config {
        ai_pkts_q20: PKT_Q20_ONE,                   // 1 packet per RTT [G]
        beta_q16: 52_429,                           // 0.8 = 52428.8 -> 52429 [G, S2]
        max_mdf_q16: 32_768,                        // 0.5 [G, S2]
        min_cwnd_pkts_q20: 1_049,                   // 0.001 packet = 1048.576 -> 1049 [P §3.4]
        max_cwnd_pkts_q20: 256 << PKT_Q20_SHIFT,    // 256 packets [G]
        init_cwnd_pkts_q20: 10 << PKT_Q20_SHIFT,    // Linux initial window (RFC 6928) [I]
        retx_reset_threshold: 3,                    // [G] retransmit_limit
        base_target_ns: 25 * NS_PER_US, // 25 µs [G] (HW timestamps; re-derive for Linux)
        per_hop_ns: NS_PER_US,          // 1 µs per hop [G]
        default_hops: 0,                // unknown path: no topology scaling [I]
        fs_range_ns: 100 * NS_PER_US,   // 100 µs [G]
        fs_min_cwnd_pkts_q20: 104_858,  // 0.1 packet = 104857.6 -> 104858 [G]
        fs_max_cwnd_pkts_q20: 100 << PKT_Q20_SHIFT, // 100 packets [S2: paper's value]
        endpoint_target_ns: 50 * NS_PER_US, // 50 µs [I]
        endpoint_ewma_q16: 8_192,       // 1/8, TCP's SRTT gain (RFC 6298) [I]
        literal_decrease_guard: 0,      // strict guard, spec §2.4 interpretation 1 [I]
    };
}

impl Default for Config {
    fn default() -> Self {
        Config::DEFAULT
    }
}

/// Validated parameters with derived constants. Build with [`Params::new`].
///
/// `#[repr(C)]`: the remote-delay lease's fast path in C (modules/glue/rdcc_lease_swift.h,
/// issue #13) reads `ai`, the endpoint target and the endpoint EWMA's gain from the parameter
/// block as `struct rdcc_swift_params` (rdcc_abi.h; core/tests/abi_offsets.rs checks the layout
/// through [`PARAMS_ABI`]). C never writes a parameter block.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub(super) cfg: Config,
    /// `1 - max_mdf`, Q16: the factor of a loss reaction (Alg. 1 lines 21, 25).
    pub(super) loss_factor_q16: u64,
    /// `1/sqrt(fs_min_cwnd)` in Q20 (packets^-1/2), see [`inv_sqrt_q20`].
    pub(super) inv_sqrt_fs_min_q20: u64,
    /// `1/sqrt(fs_max_cwnd)` in Q20.
    pub(super) inv_sqrt_fs_max_q20: u64,
}

/// The fields of [`Params`] C reads, with their C names and offsets (the size first), for
/// core/tests/abi_offsets.rs.
pub const PARAMS_ABI: (usize, [(&str, usize); 3]) = (
    core::mem::size_of::<Params>(),
    [
        ("ai_pkts_q20", core::mem::offset_of!(Config, ai_pkts_q20)),
        (
            "endpoint_target_ns",
            core::mem::offset_of!(Config, endpoint_target_ns),
        ),
        (
            "endpoint_ewma_q16",
            core::mem::offset_of!(Config, endpoint_ewma_q16),
        ),
    ],
);
// The Config is the first field of Params (#[repr(C)]): its offsets are the block's.
const _: () = assert!(core::mem::offset_of!(Params, cfg) == 0);

impl Params {
    /// Check every field of `c` and precompute the flow-scaling curve.
    ///
    /// The paper's `fs_alpha = fs_range / (1/sqrt(fs_min) - 1/sqrt(fs_max))` and
    /// `fs_beta = -fs_alpha / sqrt(fs_max)` are kept in the equivalent form
    /// `fs_range * (1/sqrt(cwnd) - 1/sqrt(fs_max)) / (1/sqrt(fs_min) - 1/sqrt(fs_max))`, which
    /// needs no signed arithmetic; the two inverse square roots are precomputed here.
    pub fn new(c: &Config) -> Result<Params, ParamError> {
        ParamError::check("ai_pkts_q20", c.ai_pkts_q20, 1, 1024 << PKT_Q20_SHIFT)?;
        check_shared(&SharedFields {
            beta_q16: c.beta_q16,
            max_mdf_q16: c.max_mdf_q16,
            min_cwnd_pkts_q20: c.min_cwnd_pkts_q20,
            max_cwnd_pkts_q20: c.max_cwnd_pkts_q20,
            init_cwnd_pkts_q20: c.init_cwnd_pkts_q20,
            retx_reset_threshold: c.retx_reset_threshold,
            base_target_ns: c.base_target_ns,
            per_hop_ns: c.per_hop_ns,
            default_hops: c.default_hops,
        })?;
        ParamError::check("fs_range_ns", c.fs_range_ns, 0, 10_000 * NS_PER_US)?;
        ParamError::check(
            "fs_max_cwnd_pkts_q20",
            c.fs_max_cwnd_pkts_q20,
            2,
            MAX_CWND_Q20,
        )?;
        ParamError::check(
            "fs_min_cwnd_pkts_q20",
            c.fs_min_cwnd_pkts_q20,
            1,
            c.fs_max_cwnd_pkts_q20.saturating_sub(1),
        )?;
        ParamError::check(
            "endpoint_target_ns",
            c.endpoint_target_ns,
            NS_PER_US,
            10_000 * NS_PER_US,
        )?;
        ParamError::check("endpoint_ewma_q16", c.endpoint_ewma_q16, 1, Q16_ONE)?;
        ParamError::check("literal_decrease_guard", c.literal_decrease_guard, 0, 1)?;
        let inv_min = inv_sqrt_q20(c.fs_min_cwnd_pkts_q20);
        let inv_max = inv_sqrt_q20(c.fs_max_cwnd_pkts_q20);
        if inv_min <= inv_max {
            // Only reachable when the two windows are so close that the Q20 inverse square
            // roots coincide: the curve would divide by zero.
            return Err(ParamError {
                field: "fs_min_cwnd_pkts_q20",
                value: c.fs_min_cwnd_pkts_q20,
                min: 1,
                max: c.fs_max_cwnd_pkts_q20.saturating_sub(2),
            });
        }
        Ok(Params {
            cfg: *c,
            loss_factor_q16: Q16_ONE.saturating_sub(c.max_mdf_q16),
            inv_sqrt_fs_min_q20: inv_min,
            inv_sqrt_fs_max_q20: inv_max,
        })
    }

    /// The validated configuration.
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// Flow-scaling constant `fs_alpha` of §3.5, ns per packet^-1/2, Q20 (for documentation
    /// and tracing; the law uses the equivalent form of [`Params::new`]).
    pub fn fs_alpha_ns_q20(&self) -> u64 {
        let span = self
            .inv_sqrt_fs_min_q20
            .saturating_sub(self.inv_sqrt_fs_max_q20);
        mul_div(self.cfg.fs_range_ns, PKT_Q20_ONE << PKT_Q20_SHIFT, span)
    }

    /// Magnitude of the (negative) flow-scaling offset `fs_beta` of §3.5, ns, Q20.
    pub fn fs_beta_neg_ns_q20(&self) -> u64 {
        mul_div(
            self.fs_alpha_ns_q20(),
            self.inv_sqrt_fs_max_q20,
            PKT_Q20_ONE,
        )
    }
}
