// SPDX-License-Identifier: GPL-2.0-only
//! θ-PowerTCP: the RTT-only ("standalone") variant of PowerTCP, in integer arithmetic.
//!
//! Source: V. Addanki, O. Michel, S. Schmid, "PowerTCP: Pushing the Performance Limits of
//! Datacenter Networks", USENIX NSDI 2022 (author version), §3.3 (control law and parameters),
//! §3.5 (Eq. 8, the RTT form of power) and Appendix B, Algorithm 2 ("θ-PowerTCP (w/o switch
//! support)"). Ambiguities are resolved as recommended by the project specification
//! `shared/specs/powertcp-vaisf.md` §2 and §8; every choice is listed in
//! `Documentation/algorithms/theta_powertcp.md`, "Deviations from the paper".
//!
//! The model, in six lines (τ = base RTT, θ = RTT sample, t_c = ACK time):
//!
//! ```text
//! θ̇        = (θ − θ_prev) / (t_c − t_c_prev)                 Alg. 2 line 19
//! Γ_norm   = (θ̇ + 1) · θ / τ                                Alg. 2 line 20, Eq. 8
//! Γ_smooth = (Γ_smooth · (τ − Δt) + Γ_norm · Δt) / τ         Alg. 2 line 21, Δt = min(dt, τ)
//! cwnd_old = getCwnd(ack.seq)                                Alg. 2 line 8, Eq. 7 w(t − θ)
//! cwnd     = γ · (cwnd_old / Γ_smooth + β) + (1 − γ) · cwnd  Alg. 2 line 31, once per RTT
//! rate     = cwnd / τ                                        Alg. 2 line 11
//! ```
//!
//! Once per RTT means: the window is updated on the first ACK whose `snd_una` reaches the
//! `snd_nxt` recorded at the previous update (Alg. 2 lines 27 and 34), or whose RTT sample is
//! of data sent after the previous update (a hole in loss recovery holds `snd_una` back, while
//! SACKed data keeps bringing samples). `cwnd_old` is the window in force when the sampled data
//! was sent: the current window for data sent after the last update, otherwise the one before
//! it (a two-entry history, `State::prev_cwnd_q16`).
//!
//! With the default per-RTT cadence the gradient is a secant over the RTT (spec §2.4 (DESIGN),
//! A9) and line 21's time-weighted average runs on every ACK over the RTT samples, so Γ_smooth
//! = (θ̇ + 1) · θ_smooth / τ averages the last τ of samples; [`GRADIENT_PER_ACK`] selects the
//! literal per-ACK gradient and smoothing of Alg. 2. τ is configured, or with
//! [`BASE_RTT_MIN_RTT`] the flow's smallest RTT sample (PowerTCP §3.3) capped by the
//! configured value; [`BASE_RTT_ARTIFACT`] adds the authors' ns-3 θ-mode's 1.05·τ in Eq. 8 and
//! its window rate·τ (an option, Documentation/algorithms/theta_powertcp.md D10a).
//!
//! Units: windows are bytes in Q16 (`_q16`, the unit of `Decision::cwnd_bytes_q16`), times are
//! ns, rates bytes/s, normalised power and γ are Q16 fractions. No floats, no 128-bit integers,
//! no panics: every product is bounded in a comment or goes through `fixed::mul_div`.
//!
//! `Decision::signal` is the smoothed normalised power Γ_smooth in Q16 (65536 = 1.0, the
//! equilibrium with an empty queue); 0 until the first power sample.

use super::event::{AckEvent, Controller, Decision, LossEvent, LossKind, ParamError, Reason};
use super::fixed::{
    clamp, mul_div, mul_div_fits, mul_q16, seq_after, MAX_RATE_BPS, NS_PER_S, Q16_ONE, Q16_SHIFT,
};

/// Largest window this law outputs, bytes (2^31 B = 2 GiB; above `fixed::MAX_CWND_PKTS` full
/// 1500-byte packets, 1.57 GB). Bounds the window in Q16 bytes to 2^47, so
/// `cwnd_q16 * gamma_q16` (γ ≤ 2^16) stays below 2^63 and `cwnd_bytes * NS_PER_S` below 2^61.
pub const MAX_CWND_BYTES: u64 = 1 << 31;

/// Smallest accepted base RTT τ, ns (1 µs: Linux RTT samples have 1 µs resolution).
pub const BASE_RTT_MIN_NS: u64 = 1_000;
/// Largest accepted base RTT τ, ns (1 s < 2^30 ns). Keeps `Γ_smooth (≤ 2^32) * τ` below 2^62
/// in the smoothing step.
pub const BASE_RTT_MAX_NS: u64 = 1_000_000_000;

/// Smallest accepted host (NIC) bandwidth, bytes/s (1 Mbit/s).
pub const HOST_BW_MIN_BPS: u64 = 125_000;

/// Largest accepted expected number of flows sharing the host NIC (N in β = HostBw·τ/N).
pub const EXPECTED_FLOWS_MAX: u64 = 1 << 16;

/// Normalised power Γ, Q16: 65536 = 1.0 (Alg. 2 line 20: `(θ̇ + 1) · RTT / τ`).
/// Range: clamped to [`POWER_MIN_Q16`, `POWER_MAX_Q16`] = [0.01, 65536.0], i.e. at most 2^32,
/// so `Γ * τ_ns` (τ ≤ 2^30) is below 2^62 and `Γ` is never zero as a divisor.
pub const POWER_ONE_Q16: u64 = Q16_ONE;
/// Lower floor of Γ_norm and Γ_smooth: 0.01 in Q16 (655/65536 = 0.009995), from the authors'
/// Linux module (spec §1.3, A5). Bounds the per-update growth `cwnd / Γ` to 100x (then capped
/// by the maximum window).
pub const POWER_MIN_Q16: u64 = 655;
/// Upper cap of Γ_norm and Γ_smooth: 65536.0 in Q16 (2^32). A larger power shrinks the window
/// by no more than it would anyway: at Γ ≥ 65536 the term `cwnd / Γ` is already below
/// 2^-16 · cwnd, and the update is dominated by `γβ + (1 − γ)·cwnd`.
pub const POWER_MAX_Q16: u64 = 1 << 32;

/// Largest RTT sample the law uses, ns (2^32 − 1 ns = 4.29 s): samples are clamped to it, so
/// an RTT fits the `u32` fields of [`State`]. A datacenter RTT is µs to ms; a larger sample is
/// hostile or broken, and still reads as a power of at least 4.29 (τ ≤ 1 s): a decrease.
pub const RTT_MAX_NS: u64 = 4_294_967_295;

/// Upper cap of the RTT-gradient factor `(θ̇ + 1)`, Q16 (65536.0, 2^32): an RTT cannot grow by
/// more than 65535 ns per ns of wall time; larger values are hostile samples. With `RTT` at
/// most `MAX_DELAY_NS` (< 2^34) the product `(θ̇ + 1) * RTT` may exceed 2^64 only for such
/// hostile samples, and `fixed::mul_div` handles that without overflow.
pub const GRAD_FACTOR_MAX_Q16: u64 = 1 << 32;

/// [`Config::gradient_mode`]: gradient and smoothing once per RTT, on the ACK that triggers the
/// window update (spec §2.4 (DESIGN) and A9, following the authors' Linux module). Default.
pub const GRADIENT_PER_RTT: u32 = 0;
/// [`Config::gradient_mode`]: gradient and time-weighted smoothing on every ACK, window once per
/// RTT: Alg. 2 exactly as printed. Meant for simulators with ns-accurate timestamps.
pub const GRADIENT_PER_ACK: u32 = 1;

/// [`Config::base_rtt_mode`]: τ is `base_rtt_ns` (PowerTCP §3.3 "must be configured"). Default.
pub const BASE_RTT_CONFIGURED: u32 = 0;
/// [`Config::base_rtt_mode`]: τ is the flow's smallest RTT sample, at most `base_rtt_ns` and at
/// least [`BASE_RTT_MIN_NS`] (PowerTCP §3.3: "an alternative is to keep track of minimum
/// observed RTT"; spec §2.2: the authors' ns-3 θ-mode takes min(observed RTT, τ)). It sets τ in
/// Eq. 8, in the smoothing weights and in the pacing rate; β, the initial and the largest
/// window stay HostBw·τ from the configured τ (the paper's evaluation configures τ as the
/// largest RTT, §4.1).
pub const BASE_RTT_MIN_RTT: u32 = 1;
/// [`Config::base_rtt_mode`]: the authors' ns-3 θ-mode (inet-tub/ns3-datacenter,
/// `simulator/ns-3.39/src/point-to-point/model/`, read at 6ddb4a4). τ_f is the flow's smallest
/// RTT sample within [`BASE_RTT_MIN_NS`, configured τ], as with [`BASE_RTT_MIN_RTT`]
/// (`rdma-hw.cc` line 992: `m_baseRtt = min(RTT, m_baseRtt)`), and in addition:
/// - Eq. 8 normalises by 1.05·τ_f (`rdma-hw.cc` line 1035: `power / (1.05 * m_baseRtt)`),
///   computed as ⌊21·τ_f/20⌋ ns (`norm_tau_ns`);
/// - the law runs on a rate (`rdma-hw.cc` lines 1069–1075: the rate law, capped at the line
///   rate `m_max_rate`, line 260), kept in the state as the window at the configured τ_c,
///   rate·τ_c, so β, the bounds, the initial window (line rate) and line 31 are those of the
///   other modes in that unit; the flow's window is rate·τ_f (`rdma-queue-pair.cc` lines
///   129–130: `m_rate · m_baseRtt`), its largest HostBw·τ_f, and it paces at rate = W/τ_c
///   (`rdma-hw.cc` lines 629–630). See `decision_tau`.
pub const BASE_RTT_ARTIFACT: u32 = 2;

/// `State::flags`: the window has been initialised (by `init`, idle restart or lazily by the
/// first ACK).
pub const FLAG_INIT: u32 = 1 << 0;
/// `State::flags`: `prev_rtt_ns`, `rtt_smooth_ns`, `update_ns`, `last_ack_ns` and `marker_seq`
/// hold a sample.
pub const FLAG_HAVE_PREV: u32 = 1 << 1;
/// `State::flags`: `power_smooth_q16` holds a measured value.
pub const FLAG_SMOOTH: u32 = 1 << 2;
/// `State::flags`: `undo_cwnd_q16` holds the window before the last loss reaction.
pub const FLAG_UNDO: u32 = 1 << 3;

/// Raw configuration, as a module parameter set or a simulator scenario gives it.
/// Validate with [`Params::new`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Config {
    /// γ, the EWMA weight of the new window (Alg. 2 line 31), Q16, in (0, 1]: [1, 65536].
    pub gamma_q16: u64,
    /// τ, the base RTT, ns: [`BASE_RTT_MIN_NS`, `BASE_RTT_MAX_NS`].
    pub base_rtt_ns: u64,
    /// HostBw, the host NIC line rate, bytes/s: [`HOST_BW_MIN_BPS`, `fixed::MAX_RATE_BPS`],
    /// with `HostBw·τ` at most [`MAX_CWND_BYTES`].
    pub host_bw_bps: u64,
    /// N, the expected number of flows sharing the host NIC, for β = HostBw·τ/N:
    /// [1, `EXPECTED_FLOWS_MAX`]. Unused when `beta_bytes` is set.
    pub expected_flows: u64,
    /// β, the additive increase, bytes: 0 derives β = HostBw·τ/N (PowerTCP §3.3, kept with a
    /// 16-bit fraction), otherwise [1, `MAX_CWND_BYTES`].
    pub beta_bytes: u64,
    /// Smallest window, bytes: [1, `MAX_CWND_BYTES`], at most the maximum window.
    pub min_cwnd_bytes: u64,
    /// Largest window, bytes: 0 = the host BDP HostBw·τ (spec A6), otherwise
    /// [`min_cwnd_bytes`, `MAX_CWND_BYTES`].
    ///
    /// [`min_cwnd_bytes`]: Config::min_cwnd_bytes
    pub max_cwnd_bytes: u64,
    /// Floor of the gradient factor `(θ̇ + 1)`, Q16: [0, 65536] (spec §2.4 guard and A5).
    pub grad_floor_q16: u64,
    /// Initial Γ_smooth, Q16: 0 = take the first Γ_norm unsmoothed (spec A3), otherwise
    /// [`POWER_MIN_Q16`, `POWER_MAX_Q16`] (e.g. 65536 = 1.0) into which the first sample is
    /// smoothed.
    pub smooth_init_q16: u64,
    /// [`GRADIENT_PER_RTT`] (0) or [`GRADIENT_PER_ACK`] (1) (spec A9).
    pub gradient_mode: u32,
    /// Multiplicative decrease on a loss event (fast recovery or RTO), Q16 fraction of the
    /// window removed: [0, 65536]; 0 = no cut (spec A11). A cut can be undone by `on_undo`.
    pub loss_md_q16: u64,
    /// [`BASE_RTT_CONFIGURED`] (0), [`BASE_RTT_MIN_RTT`] (1) or [`BASE_RTT_ARTIFACT`] (2):
    /// where τ comes from, and with 2 the authors' ns-3 normalisation and window.
    pub base_rtt_mode: u32,
}

impl Config {
    /// The paper's defaults, and the specification's recommendation where the paper is silent.
    pub const DEFAULT: Config = Config {
        // γ = 0.9: PowerTCP §3.3 "We recommend γ=0.9"; §4.1 "We set γ=0.9 for PowerTCP and
        // θ-PowerTCP". 0.9 * 65536 = 58982.4, floored.
        gamma_q16: 58_982,
        // τ = 20 µs: the base RTT of PowerTCP Fig. 3's example (100 Gbps, 20 µs) and of the
        // spec's worked example §2.6. The paper's evaluation (§4.1) sets τ to the largest RTT
        // of its topology; deployments must configure their own.
        base_rtt_ns: 20_000,
        // HostBw = 25 Gbit/s = 3.125e9 B/s: PowerTCP §4.1 "HostBw is set to the server NIC
        // bandwidth" (25 Gbps server links).
        host_bw_bps: 3_125_000_000,
        // N = 10: the paper gives no number (§3.3); 10 is the authors' Linux module default
        // (spec §1.3 [ART-LNX], A7).
        expected_flows: 10,
        // β = HostBw·τ/N: PowerTCP §3.3 (= 3.125e9 * 20e-6 / 10 = 6250 B here).
        beta_bytes: 0,
        // One MSS (spec A6) of a 1500-byte-MTU path with TCP timestamps. Windows below one
        // packet are realised by the pacing rate cwnd/τ.
        min_cwnd_bytes: 1_448,
        // HostBw·τ, the host BDP (spec A6; the authors' Linux module caps there too).
        max_cwnd_bytes: 0,
        // (θ̇ + 1) ≥ 0.5: spec §2.4 guard and A5 (the authors' ns-3 code).
        grad_floor_q16: 32_768,
        // First Γ_norm taken unsmoothed: spec A3 (the authors' Linux module).
        smooth_init_q16: 0,
        // Per-RTT gradient: spec §2.4 (DESIGN) and A9 for µs-resolution kernel RTTs.
        gradient_mode: GRADIENT_PER_RTT,
        // No window cut on loss: the paper is silent (lossless RDMA fabric); spec A11.
        loss_md_q16: 0,
        // τ configured: PowerTCP §3.3 "The base round trip time τ must be configured".
        base_rtt_mode: BASE_RTT_CONFIGURED,
    };
}

impl Default for Config {
    fn default() -> Self {
        Config::DEFAULT
    }
}

/// Validated parameters with derived constants. Build with [`Params::new`].
///
/// `#[repr(C)]` because the hold lease's due path in C (issue #13; `rdcc_theta_update`,
/// modules/glue/rdcc_lease_theta.h) reads the nine fields it needs for Alg. 2 lines 19-20, 31
/// and 11: the seven `u64`s first (one cache line with the flags), then `per_ack`,
/// `min_rtt_tau` and `artifact_tau` (Rust `bool` and C `_Bool` are both one byte holding 0 or
/// 1; only [`Params::new`] writes them). C never reads `artifact_tau`: it implies
/// `min_rtt_tau`, on which the lease and the due path in C refuse. The layout is
/// `struct rdcc_theta_params` in modules/glue/rdcc_abi.h (core/tests/abi_offsets.rs checks it,
/// through [`PARAMS_ABI`]). C never writes a parameter block.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    gamma_q16: u64,
    one_minus_gamma_q16: u64,
    base_rtt_ns: u64,
    gamma_beta_q16: u64,
    min_cwnd_q16: u64,
    max_cwnd_q16: u64,
    grad_floor_q16: u64,
    per_ack: bool,
    min_rtt_tau: bool,
    artifact_tau: bool,
    beta_q16: u64,
    init_cwnd_q16: u64,
    smooth_init_q16: u64,
    loss_keep_q16: u64,
}

impl Params {
    /// Range-check every field of `c` and precompute the derived constants.
    pub fn new(c: &Config) -> Result<Params, ParamError> {
        ParamError::check("gamma_q16", c.gamma_q16, 1, Q16_ONE)?;
        ParamError::check(
            "base_rtt_ns",
            c.base_rtt_ns,
            BASE_RTT_MIN_NS,
            BASE_RTT_MAX_NS,
        )?;
        // HostBw·τ ≤ MAX_CWND_BYTES: the largest HostBw for this τ.
        let bw_max = mul_div(MAX_CWND_BYTES, NS_PER_S, c.base_rtt_ns).min(MAX_RATE_BPS);
        ParamError::check("host_bw_bps", c.host_bw_bps, HOST_BW_MIN_BPS, bw_max)?;
        ParamError::check("expected_flows", c.expected_flows, 1, EXPECTED_FLOWS_MAX)?;
        ParamError::check("beta_bytes", c.beta_bytes, 0, MAX_CWND_BYTES)?;
        ParamError::check("min_cwnd_bytes", c.min_cwnd_bytes, 1, MAX_CWND_BYTES)?;
        ParamError::check("max_cwnd_bytes", c.max_cwnd_bytes, 0, MAX_CWND_BYTES)?;
        ParamError::check("grad_floor_q16", c.grad_floor_q16, 0, Q16_ONE)?;
        if c.smooth_init_q16 != 0 {
            ParamError::check(
                "smooth_init_q16",
                c.smooth_init_q16,
                POWER_MIN_Q16,
                POWER_MAX_Q16,
            )?;
        }
        ParamError::check(
            "gradient_mode",
            u64::from(c.gradient_mode),
            u64::from(GRADIENT_PER_RTT),
            u64::from(GRADIENT_PER_ACK),
        )?;
        ParamError::check("loss_md_q16", c.loss_md_q16, 0, Q16_ONE)?;
        ParamError::check(
            "base_rtt_mode",
            u64::from(c.base_rtt_mode),
            u64::from(BASE_RTT_CONFIGURED),
            u64::from(BASE_RTT_ARTIFACT),
        )?;

        // Host BDP in Q16 bytes: HostBw·τ (PowerTCP §3.3 cwnd_init). HostBw·τ ≤ 2^31 bytes was
        // checked above, so the result is at most 2^47.
        let bdp_q16 = mul_div(c.host_bw_bps, c.base_rtt_ns << Q16_SHIFT, NS_PER_S);
        // β = HostBw·τ/N (PowerTCP §3.3), or configured; Q16 bytes, at most 2^47.
        let beta_q16 = if c.beta_bytes == 0 {
            bdp_q16.checked_div(c.expected_flows).unwrap_or(0) // N ≥ 1 checked above
        } else {
            c.beta_bytes << Q16_SHIFT // ≤ 2^31 checked above
        };
        if beta_q16 == 0 {
            // A law without additive increase can never grow at Γ = 1.
            return Err(ParamError {
                field: "expected_flows",
                value: c.expected_flows,
                min: 1,
                max: bdp_q16,
            });
        }
        let min_cwnd_q16 = c.min_cwnd_bytes << Q16_SHIFT; // ≤ 2^47
        let max_cwnd_q16 = if c.max_cwnd_bytes == 0 {
            bdp_q16
        } else {
            c.max_cwnd_bytes << Q16_SHIFT
        };
        if min_cwnd_q16 > max_cwnd_q16 {
            return Err(ParamError {
                field: "min_cwnd_bytes",
                value: c.min_cwnd_bytes,
                min: 1,
                max: max_cwnd_q16 >> Q16_SHIFT,
            });
        }
        Ok(Params {
            gamma_q16: c.gamma_q16,
            one_minus_gamma_q16: Q16_ONE.saturating_sub(c.gamma_q16),
            base_rtt_ns: c.base_rtt_ns,
            beta_q16,
            // γ·β, the constant part of Alg. 2 line 31; β ≤ 2^47, γ ≤ 2^16: < 2^63.
            gamma_beta_q16: mul_q16(beta_q16, c.gamma_q16),
            min_cwnd_q16,
            max_cwnd_q16,
            // cwnd_init = HostBw·τ (PowerTCP §3.3), within the window bounds.
            init_cwnd_q16: clamp(bdp_q16, min_cwnd_q16, max_cwnd_q16),
            grad_floor_q16: c.grad_floor_q16,
            smooth_init_q16: c.smooth_init_q16,
            per_ack: c.gradient_mode == GRADIENT_PER_ACK,
            loss_keep_q16: Q16_ONE.saturating_sub(c.loss_md_q16),
            // BASE_RTT_ARTIFACT tracks the minimum RTT too (rdma-hw.cc line 992); it must
            // set min_rtt_tau, which keeps it off the hold lease and the due path in C.
            min_rtt_tau: c.base_rtt_mode != BASE_RTT_CONFIGURED,
            artifact_tau: c.base_rtt_mode == BASE_RTT_ARTIFACT,
        })
    }

    /// β, the additive increase, bytes Q16.
    pub fn beta_q16(&self) -> u64 {
        self.beta_q16
    }
    /// The initial window (HostBw·τ within the bounds), bytes Q16.
    pub fn init_cwnd_q16(&self) -> u64 {
        self.init_cwnd_q16
    }
    /// The smallest window, bytes Q16.
    pub fn min_cwnd_q16(&self) -> u64 {
        self.min_cwnd_q16
    }
    /// The largest window, bytes Q16.
    pub fn max_cwnd_q16(&self) -> u64 {
        self.max_cwnd_q16
    }
    /// τ, the configured base RTT, ns (with [`BASE_RTT_MIN_RTT`] an upper bound of a flow's τ).
    pub fn base_rtt_ns(&self) -> u64 {
        self.base_rtt_ns
    }
    /// γ, Q16.
    pub fn gamma_q16(&self) -> u64 {
        self.gamma_q16
    }
    /// Whether τ follows the flow's minimum RTT ([`BASE_RTT_MIN_RTT`] or
    /// [`BASE_RTT_ARTIFACT`]).
    pub fn min_rtt_tau(&self) -> bool {
        self.min_rtt_tau
    }
    /// Whether the authors' ns-3 θ-mode is selected ([`BASE_RTT_ARTIFACT`]).
    pub fn artifact_tau(&self) -> bool {
        self.artifact_tau
    }
    /// Whether the gradient and smoothing run on every ACK ([`GRADIENT_PER_ACK`]).
    pub fn per_ack(&self) -> bool {
        self.per_ack
    }
    /// τ of a flow in state `s`, ns: the configured base RTT, or with [`BASE_RTT_MIN_RTT`]
    /// its smallest RTT sample within [`BASE_RTT_MIN_NS`, configured τ].
    pub fn tau_ns(&self, s: &State) -> u64 {
        tau_ns(self, s)
    }
}

/// Per-flow state. All-zero (`Default`) is valid and means "not initialised": the first ACK
/// or idle restart initialises it. 68 bytes of fields, 72 with alignment.
///
/// `#[repr(C)]` because the hold lease's C fast path (issue #13; `powertcp_lease.rs`,
/// modules/glue/rdcc_lease_theta.h) steps it in place on a hold: it reads `update_ns`,
/// `last_ack_ns`, `marker_seq` and `rtt_smooth_ns` and writes `rtt_smooth_ns` and `last_ack_ns`
/// (Alg. 2 lines 21 and 13). The layout is `struct rdcc_theta_state` in modules/glue/rdcc_abi.h
/// (core/tests/abi_offsets.rs checks it); to every other C line the state is opaque.
#[repr(C)]
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct State {
    /// The congestion window, bytes Q16, in [min, max] once initialised: the window in force
    /// for data sent since the last update (`update_ns`, `marker_seq`).
    pub cwnd_q16: u64,
    /// The window in force before the last update, bytes Q16: `getCwnd` (Alg. 2 line 8) for
    /// data sent before it. Together with `cwnd_q16` the history of `updateOld` (line 13).
    pub prev_cwnd_q16: u64,
    /// Γ_smooth (Alg. 2 line 21), Q16, valid with [`FLAG_SMOOTH`].
    pub power_smooth_q16: u64,
    /// The window before the last loss reaction, bytes Q16, valid with [`FLAG_UNDO`].
    pub undo_cwnd_q16: u64,
    /// Host time of the last window update (or of the first sample), ns: the start of the
    /// per-RTT gradient's secant and the boundary between `prev_cwnd_q16` and `cwnd_q16`.
    pub update_ns: u64,
    /// t_c^prev (Alg. 2 line 13): host time of the previous RTT sample, ns.
    pub last_ack_ns: u64,
    /// lastUpdated (Alg. 2 line 34): `snd_nxt` at the last window update.
    pub marker_seq: u32,
    /// prevRTT (Alg. 2 line 12), ns: the previous sample (per ACK) or the sample of the last
    /// update (per RTT).
    pub prev_rtt_ns: u32,
    /// Per-RTT cadence: the RTT samples averaged with Alg. 2 line 21's weights, ns.
    pub rtt_smooth_ns: u32,
    /// The smallest RTT sample seen, ns (0 = none); kept only with [`BASE_RTT_MIN_RTT`] and
    /// [`BASE_RTT_ARTIFACT`]. With the latter `cwnd_q16` and `prev_cwnd_q16` are the rate
    /// times the configured τ (see `decision_tau`).
    pub min_rtt_ns: u32,
    /// `FLAG_*` bits.
    pub flags: u32,
}

// The kernel's get_info reads this state without the socket lock: its copy may mix versions or
// hold another algorithm's bytes, so every field is an integer (event::AnyBitPattern, which the
// glue requires of every module's law).
super::event::any_bit_pattern!(State {
    cwnd_q16,
    prev_cwnd_q16,
    power_smooth_q16,
    undo_cwnd_q16,
    update_ns,
    last_ack_ns,
    marker_seq,
    prev_rtt_ns,
    rtt_smooth_ns,
    min_rtt_ns,
    flags,
});

const _: () = assert!(core::mem::size_of::<State>() <= super::event::CORE_STATE_BUDGET);

/// θ-PowerTCP as a [`Controller`].
pub struct ThetaPowerTcp;

impl State {
    fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }

    /// A freshly initialised state: window HostBw·τ, no samples (PowerTCP §3.3: "all flows
    /// transmit at line rate in the first RTT and use cwnd_init = HostBw×τ"). The minimum RTT
    /// is a property of the path, not of the connection's history, and is kept.
    fn fresh(p: &Params, min_rtt_ns: u32) -> State {
        State {
            cwnd_q16: p.init_cwnd_q16,
            prev_cwnd_q16: p.init_cwnd_q16,
            min_rtt_ns,
            flags: FLAG_INIT,
            ..State::default()
        }
    }

    /// Set the window outside the law (loss cut, undo): data in flight and data sent next
    /// are both paired with it.
    fn set_window(&mut self, cwnd_q16: u64) {
        self.cwnd_q16 = cwnd_q16;
        self.prev_cwnd_q16 = cwnd_q16;
    }

    /// Forget the gradient history and the smoothed power (RTO, spec A11).
    fn reset_history(&mut self) {
        self.flags &= !(FLAG_HAVE_PREV | FLAG_SMOOTH);
        self.power_smooth_q16 = 0;
        self.prev_rtt_ns = 0;
        self.rtt_smooth_ns = 0;
        self.update_ns = 0;
        self.last_ack_ns = 0;
    }

    /// Restart the measurement at this sample (first sample, clock went backwards). The
    /// window history collapses to the current window: `update_ns` is now the boundary, and
    /// data sent before it is paired with the window in force now.
    fn restart_at(&mut self, now_ns: u64, rtt_ns: u32) {
        self.prev_cwnd_q16 = self.cwnd_q16;
        self.prev_rtt_ns = rtt_ns;
        self.rtt_smooth_ns = rtt_ns;
        self.update_ns = now_ns;
        self.last_ack_ns = now_ns;
    }
}

/// τ for this flow, ns: the configured base RTT, or with [`BASE_RTT_MIN_RTT`] the smallest RTT
/// sample within [`BASE_RTT_MIN_NS`, configured τ]. Always in [1 µs, 1 s].
fn tau_ns(p: &Params, s: &State) -> u64 {
    if p.min_rtt_tau && s.min_rtt_ns != 0 {
        clamp(u64::from(s.min_rtt_ns), BASE_RTT_MIN_NS, p.base_rtt_ns)
    } else {
        p.base_rtt_ns
    }
}

/// τ of Eq. 8's normalisation, ns: τ, or with [`BASE_RTT_ARTIFACT`] ⌊21·τ/20⌋ = ⌊1.05·τ⌋
/// (the authors' ns-3 θ-mode, `rdma-hw.cc` line 1035: `power / (1.05 * m_baseRtt)`). τ ≤ 2^30,
/// so 21·τ < 2^35 and the result is below 2^31.
fn norm_tau_ns(p: &Params, tau_ns: u64) -> u64 {
    if p.artifact_tau {
        tau_ns.wrapping_mul(21) / 20 // ≤ 21 · 2^30 < 2^35: no wrap
    } else {
        tau_ns
    }
}

/// Pacing rate for a window: `rate = cwnd / τ` (Alg. 2 line 11), bytes/s, capped at
/// `MAX_RATE_BPS`. The window's fraction of a byte is dropped first: `cwnd_bytes < 2^31` and
/// `NS_PER_S < 2^30` keep the product below 2^61. The error is below 10^9/τ_ns bytes/s.
///
/// Every window the law outputs is clamped to `max_cwnd_q16 ≤ MAX_CWND_BYTES << 16`, so the
/// product fits and the quotient is computed inline, without `mul_div`'s call and its checks
/// (issue #13); the same value as `mul_div` (which is used for any larger input).
fn pacing_bps(tau_ns: u64, cwnd_q16: u64) -> u64 {
    let cwnd_bytes = cwnd_q16 >> Q16_SHIFT;
    if cwnd_bytes <= MAX_CWND_BYTES && tau_ns != 0 {
        // ≤ 2^31 · 10^9 < 2^61: no overflow; τ ≠ 0 checked.
        let product = cwnd_bytes.wrapping_mul(NS_PER_S);
        return product.checked_div(tau_ns).unwrap_or(0).min(MAX_RATE_BPS);
    }
    mul_div(cwnd_bytes, NS_PER_S, tau_ns).min(MAX_RATE_BPS)
}

/// The decision for the current state. Before initialisation: all zero (not paced).
fn decision(p: &Params, s: &State, reason: Reason) -> Decision {
    if !s.has(FLAG_INIT) {
        return Decision {
            reason,
            ..Decision::default()
        };
    }
    decision_tau(p, s, tau_ns(p, s), reason)
}

/// [`decision`] for an initialised state whose τ (`tau_ns(p, s)`) the caller has at hand: a
/// hold in `on_ack` (issue #13: τ is not looked up twice).
///
/// With [`BASE_RTT_ARTIFACT`] the stored window W is rate·τ_c (τ_c the configured τ): the flow
/// paces at W/τ_c and its window is ⌊W·τ_f/τ_c⌋ within [min, max] (the authors' ns-3 code:
/// window = `m_rate · m_baseRtt`, `rdma-queue-pair.cc` lines 129–130, with `m_baseRtt` the
/// minimum RTT, `rdma-hw.cc` line 992; the rate at most the line rate, lines 260 and
/// 1074–1075, so the window at most HostBw·τ_f). τ_f ≤ τ_c, so it never exceeds W; the floor
/// `min` keeps one packet in flight where the artifact's `m_minRate` (line 1072) has none.
fn decision_tau(p: &Params, s: &State, tau_ns: u64, reason: Reason) -> Decision {
    // The stored window is always within the bounds; clamping again keeps the output within
    // them even if the parameters changed since (a module parameter write).
    let law_cwnd = clamp(s.cwnd_q16, p.min_cwnd_q16, p.max_cwnd_q16);
    let (cwnd, rate_bps) = if p.artifact_tau {
        // W·τ_f/τ_c: W < 2^48, τ_f ≤ 2^30; mul_div never overflows and τ_c ≥ 1 µs.
        let flow_q16 = mul_div(law_cwnd, tau_ns, p.base_rtt_ns);
        let flow_q16 = clamp(flow_q16, p.min_cwnd_q16, p.max_cwnd_q16);
        (flow_q16, pacing_bps(p.base_rtt_ns, law_cwnd))
    } else {
        (law_cwnd, pacing_bps(tau_ns, law_cwnd))
    };
    let signal = if s.has(FLAG_SMOOTH) {
        i64::try_from(s.power_smooth_q16).unwrap_or(i64::MAX)
    } else {
        0
    };
    Decision {
        cwnd_bytes_q16: cwnd,
        pacing_rate_bps: rate_bps,
        signal,
        reason,
        flags: 0,
    }
}

/// `(θ̇ + 1)` in Q16 from an RTT change over `dt_ns` (PowerTCP Alg. 2 line 19):
/// `1 ± |ΔRTT| · 2^16 / dt` (truncated toward zero, which is monotone in RTT), clamped to
/// [`grad_floor`, `GRAD_FACTOR_MAX_Q16`] (spec §2.4 guard). Requires `dt > 0`; `mul_div` never
/// overflows. Callers pass RTTs below 2^32: `|ΔRTT| · 2^16 < 2^48`, `mul_div_fits` divides
/// inline.
fn grad_factor_q16(p: &Params, rtt_ns: u64, prev_rtt_ns: u64, dt_ns: u64) -> u64 {
    let one_plus_grad_q16 = if rtt_ns >= prev_rtt_ns {
        // rtt ≥ prev
        let up_q16 = mul_div_fits(rtt_ns.wrapping_sub(prev_rtt_ns), Q16_ONE, dt_ns);
        Q16_ONE.saturating_add(up_q16)
    } else {
        // prev > rtt
        let down_q16 = mul_div_fits(prev_rtt_ns.wrapping_sub(rtt_ns), Q16_ONE, dt_ns);
        Q16_ONE.saturating_sub(down_q16)
    };
    clamp(one_plus_grad_q16, p.grad_floor_q16, GRAD_FACTOR_MAX_Q16)
}

/// Normalised power, Q16 (PowerTCP Alg. 2 line 20, Eq. 8): `Γ_norm = (θ̇ + 1) · θ / τ`, clamped
/// to [`POWER_MIN_Q16`, `POWER_MAX_Q16`]. τ ≥ 1 µs.
fn norm_power_q16(one_plus_grad_q16: u64, rtt_ns: u64, tau_ns: u64) -> u64 {
    let power_q16 = mul_div_fits(one_plus_grad_q16, rtt_ns, tau_ns);
    clamp(power_q16, POWER_MIN_Q16, POWER_MAX_Q16)
}

/// Time-weighted average (PowerTCP Alg. 2 line 21): `(old · (τ − Δt) + new · Δt) / τ`, with
/// `Δt = min(dt, τ)` (spec A2: Alg. 2 never defines Δt; dt clamped to τ keeps the weights in
/// [0, 1]). Used for Γ (per-ACK cadence) and for θ (per-RTT cadence).
///
/// Overflow: callers pass values of at most 2^32 (powers are clamped to `POWER_MAX_Q16`, RTTs
/// to `RTT_MAX_NS`) and `τ ≤ 2^30`, so each product is at most 2^62 and the sum at most 2^63.
/// Rounded down; a constant input is an exact fixed point.
fn smooth(old: u64, new: u64, dt_ns: u64, tau_ns: u64) -> u64 {
    if dt_ns >= tau_ns {
        return new; // weight 1: (old·0 + new·τ)/τ, without the division
    }
    let delta = dt_ns;
    let kept = old.saturating_mul(tau_ns.saturating_sub(delta));
    let added = new.saturating_mul(delta);
    kept.saturating_add(added)
        .checked_div(tau_ns)
        .unwrap_or(new) // τ ≥ 1 µs
}

/// The window law (PowerTCP Alg. 2 line 31, Eq. 7 with Eq. 8):
/// `cwnd = γ · (cwnd_old / Γ_smooth + β) + (1 − γ) · cwnd`, clamped to [min, max].
///
/// `cwnd_old = getCwnd(ack.seq)` (Alg. 2 line 8; Eq. 7's w(t − θ), "window size at the time of
/// transmission of the acknowledged segment") and `cwnd` is the current window: they differ
/// whenever the window changed within the last RTT, which after any update it did. The three
/// terms are computed separately, each rounded down: `cwnd_old · γ / Γ` (cwnd ≤ 2^47,
/// γ ≤ 2^16: product < 2^63, Γ ≥ 655 never zero), `γ·β` (precomputed) and `(1 − γ) · cwnd`.
fn window_update(p: &Params, cwnd_old_q16: u64, cwnd_q16: u64, power_q16: u64) -> u64 {
    let cwnd_old_q16 = clamp(cwnd_old_q16, p.min_cwnd_q16, p.max_cwnd_q16);
    let cwnd_q16 = clamp(cwnd_q16, p.min_cwnd_q16, p.max_cwnd_q16);
    let power_q16 = clamp(power_q16, POWER_MIN_Q16, POWER_MAX_Q16);
    // γ · cwnd_old / Γ_smooth (Alg. 2 line 31, first term).
    let scaled_q16 = mul_div_fits(cwnd_old_q16, p.gamma_q16, power_q16);
    // (1 − γ) · cwnd (Alg. 2 line 31, EWMA term).
    let kept_q16 = mul_q16(cwnd_q16, p.one_minus_gamma_q16);
    let new_q16 = scaled_q16
        .saturating_add(p.gamma_beta_q16)
        .saturating_add(kept_q16);
    clamp(new_q16, p.min_cwnd_q16, p.max_cwnd_q16)
}

/// A due ACK as [`update_per_rtt`] needs it: what `on_ack` has at hand after Alg. 2 line 13,
/// or what the hold lease's due path hands over (`powertcp_lease::on_due`).
struct DueAck {
    /// t_c, ns.
    now_ns: u64,
    /// The RTT sample, clamped to [1, `RTT_MAX_NS`], ns.
    rtt_ns: u64,
    /// The same sample as a `u32` (exact: `RTT_MAX_NS` = `u32::MAX`).
    rtt_u32: u32,
    /// The ACK's `snd_una`.
    snd_una: u32,
    /// The ACK's `snd_nxt`.
    snd_nxt: u32,
    /// τ of this ACK (`tau_ns(p, s)`), ns; the update does not change it.
    tau_ns: u64,
    /// `now − RTT > update_ns`: the sampled data left after the last update.
    sent_after_update: bool,
}

/// The once-per-RTT window update of a due ACK (Alg. 2 lines 19-20 per RTT, 8, 31, 13 and 34),
/// after `on_ack` (or the lease's due path) has averaged the sample and set `last_ack_ns`.
/// `per_ack_power_q16`: Γ_smooth when the per-ACK cadence computed it on this ACK; `None`
/// computes the per-RTT power here. The decision is `decision_tau` with the ACK's τ: the
/// update changes neither `min_rtt_ns` nor the flag `FLAG_INIT`, so it is `decision`'s.
#[inline(always)]
fn update_per_rtt(
    p: &Params,
    s: &mut State,
    ack: &DueAck,
    per_ack_power_q16: Option<u64>,
) -> Decision {
    let tau = ack.tau_ns;
    let power_q16 = match per_ack_power_q16 {
        Some(power_q16) => power_q16,
        None => {
            // Lines 19-20 with the gradient over the RTT since the last update (the secant,
            // spec §2.4 (DESIGN)) and the averaged RTT: Γ_smooth = (θ̇ + 1) · θ_smooth / τ, line
            // 21 applied to the samples' Γ_norm with this RTT's gradient.
            let span_ns = ack.now_ns.saturating_sub(s.update_ns).max(1);
            let g = grad_factor_q16(p, ack.rtt_ns, u64::from(s.prev_rtt_ns), span_ns);
            let norm_tau = norm_tau_ns(p, tau);
            s.power_smooth_q16 = norm_power_q16(g, u64::from(s.rtt_smooth_ns), norm_tau);
            s.flags |= FLAG_SMOOTH;
            s.prev_rtt_ns = ack.rtt_u32;
            s.power_smooth_q16
        }
    };
    // Alg. 2 line 8: cwnd_old = getCwnd(ack.seq), the window the sampled data was sent
    // under: the current one if it left after the last update (or snd_una passed the
    // marker), otherwise the one before. Data older than that (a flow that sent nothing
    // for a whole RTT) gets the one before as well.
    let cwnd_old_q16 = if ack.sent_after_update || seq_after(ack.snd_una, s.marker_seq) {
        s.cwnd_q16
    } else {
        s.prev_cwnd_q16
    };
    // Alg. 2 line 31; line 13 updateOld(cwnd, ack.seq); line 34 lastUpdated = snd_nxt.
    let new_q16 = window_update(p, cwnd_old_q16, s.cwnd_q16, power_q16);
    s.prev_cwnd_q16 = s.cwnd_q16;
    s.cwnd_q16 = new_q16;
    s.marker_seq = ack.snd_nxt;
    s.update_ns = ack.now_ns;
    decision_tau(p, s, tau, Reason::GradientUpdate)
}

impl Controller for ThetaPowerTcp {
    type Params = Params;
    type State = State;

    fn init(p: &Params, s: &mut State, _now_ns: u64, _mss_bytes: u32) -> Decision {
        *s = State::fresh(p, 0);
        decision(p, s, Reason::Init)
    }

    fn on_ack(p: &Params, s: &mut State, ev: &AckEvent) -> Decision {
        // The hold lease (issue #13) transcribes what this function does on a hold of the
        // per-RTT cadence with a configured τ (down to `if !due`): `ThetaLease::take` in
        // powertcp_lease.rs and `rdcc_theta_take` in modules/glue/rdcc_lease_theta.h. Change
        // them together: theta_lease_equivalence, take_matches_on_ack and the KUnit case
        // rdcc_glue_theta_lease fail otherwise. The due path in C (`rdcc_theta_update`, same
        // header) transcribes update_per_rtt, grad_factor_q16, norm_power_q16, window_update,
        // decision_tau, pacing_bps, Decision::enforce, ThetaLease::grant and on_due for the
        // common case: change it with any of them (KUnit rdcc_glue_theta_update fails otherwise).
        //
        // Lazy initialisation: the kernel may deliver an ACK before `init`.
        let first = !s.has(FLAG_INIT);
        if first {
            *s = State::fresh(p, 0);
        }
        let hold_reason = if first { Reason::Init } else { Reason::Hold };
        let rtt_ns = match ev.rtt() {
            // A zero RTT (sub-µs in Linux) counts as 1 ns; a bogus one as RTT_MAX_NS.
            Some(r) => clamp(r, 1, RTT_MAX_NS),
            None => {
                let reason = if first {
                    Reason::Init
                } else {
                    Reason::NoSample
                };
                return decision(p, s, reason);
            }
        };
        let rtt_u32 = u32::try_from(rtt_ns).unwrap_or(u32::MAX); // ≤ RTT_MAX_NS = u32::MAX
        if p.min_rtt_tau && (s.min_rtt_ns == 0 || rtt_u32 < s.min_rtt_ns) {
            // PowerTCP §3.3: "keep track of minimum observed RTT".
            s.min_rtt_ns = rtt_u32;
        }

        // First sample (Alg. 2 leaves prevRTT, t_c^prev and lastUpdated uninitialised): record
        // it, and the first update happens one RTT later (line-rate first RTT, PowerTCP §3.3).
        if !s.has(FLAG_HAVE_PREV) {
            s.restart_at(ev.now_ns, rtt_u32);
            s.marker_seq = ev.snd_nxt;
            s.flags |= FLAG_HAVE_PREV;
            return decision(p, s, hold_reason);
        }
        if ev.now_ns < s.last_ack_ns {
            // The clock went backwards: restart the gradient measurement from here.
            s.restart_at(ev.now_ns, rtt_u32);
            return decision(p, s, Reason::Hold);
        }
        // Alg. 2 line 18: dt = t_c − t_c^prev.
        let dt_ns = ev.now_ns.wrapping_sub(s.last_ack_ns); // now ≥ last checked above
        if dt_ns == 0 {
            // No time passed (ACKs of one GRO batch): no gradient and no weight. Keep prevRTT
            // and t_c^prev so the RTT change is measured over the next non-zero interval; a due
            // update waits.
            return decision(p, s, Reason::Hold);
        }
        let tau = tau_ns(p, s);
        // Alg. 2 line 27, `if ack.seq < lastUpdated then return` (once per RTT), read as "this
        // ACK's sample is of data sent before the last update": snd_una has not reached the
        // marker, and the sampled data left before `update_ns` (its send time is now − RTT).
        // The time test lets SACKed data sent after the update trigger it while a hole holds
        // snd_una back (loss recovery); without holes both tests agree.
        let sent_after_update = ev
            .now_ns
            .checked_sub(rtt_ns)
            .is_some_and(|sent| sent > s.update_ns);
        let due = sent_after_update || !seq_after(s.marker_seq, ev.snd_una);

        let per_ack_power_q16 = if p.per_ack {
            // Alg. 2 lines 19-21 on every ACK.
            let g = grad_factor_q16(p, rtt_ns, u64::from(s.prev_rtt_ns), dt_ns);
            let norm_q16 = norm_power_q16(g, rtt_ns, norm_tau_ns(p, tau));
            let old_q16 = if s.has(FLAG_SMOOTH) {
                clamp(s.power_smooth_q16, POWER_MIN_Q16, POWER_MAX_Q16)
            } else {
                p.smooth_init_q16 // 0: spec A3, the first sample counts in full
            };
            let smoothed = if old_q16 == 0 {
                norm_q16
            } else {
                smooth(old_q16, norm_q16, dt_ns, tau)
            };
            s.power_smooth_q16 = clamp(smoothed, POWER_MIN_Q16, POWER_MAX_Q16);
            s.flags |= FLAG_SMOOTH;
            // Alg. 2 line 12: prevRTT = RTT.
            s.prev_rtt_ns = rtt_u32;
            Some(s.power_smooth_q16)
        } else {
            // Alg. 2 line 21's average over the RTT samples of the last τ, on every ACK.
            let old = u64::from(s.rtt_smooth_ns);
            let avg = smooth(old, rtt_ns, dt_ns, tau).min(RTT_MAX_NS);
            s.rtt_smooth_ns = u32::try_from(avg).unwrap_or(u32::MAX);
            None // computed by update_per_rtt, only when due
        };
        // Alg. 2 line 13: t_c^prev = t_c.
        s.last_ack_ns = ev.now_ns;
        if !due {
            // Nothing the decision depends on changed since `tau` (initialised state).
            return decision_tau(p, s, tau, Reason::Hold);
        }
        let ack = DueAck {
            now_ns: ev.now_ns,
            rtt_ns,
            rtt_u32,
            snd_una: ev.snd_una,
            snd_nxt: ev.snd_nxt,
            tau_ns: tau,
            sent_after_update,
        };
        update_per_rtt(p, s, &ack, per_ack_power_q16)
    }

    fn on_loss(p: &Params, s: &mut State, ev: &LossEvent) -> Decision {
        if !s.has(FLAG_INIT) {
            return decision(p, s, Reason::Hold); // nothing to react on before the first ACK
        }
        // The paper is silent on loss (lossless fabrics); spec A11 (DESIGN): no cut by
        // default, an optional multiplicative cut that `on_undo` can revert.
        if p.loss_keep_q16 < Q16_ONE {
            s.undo_cwnd_q16 = s.cwnd_q16;
            s.flags |= FLAG_UNDO;
            let cut = mul_q16(s.cwnd_q16, p.loss_keep_q16);
            s.set_window(clamp(cut, p.min_cwnd_q16, p.max_cwnd_q16));
        }
        match ev.kind {
            LossKind::FastRecovery => decision(p, s, Reason::FastRecovery),
            LossKind::RetransmitTimeout => {
                // Spec §5.4 set_state(TCP_CA_Loss) and A11: reset the gradient history and the
                // smoothed power; the next ACK starts a fresh measurement.
                s.reset_history();
                decision(p, s, Reason::RetransmitTimeout)
            }
        }
    }

    fn on_idle_restart(p: &Params, s: &mut State, _now_ns: u64, _mss_bytes: u32) -> Decision {
        // Paper silent; the authors' Linux module restarts at line rate on
        // CA_EVENT_CWND_RESTART (spec §1.6): window HostBw·τ, all history cleared (the
        // minimum RTT, a property of the path, is kept).
        *s = State::fresh(p, s.min_rtt_ns);
        decision(p, s, Reason::IdleRestart)
    }

    fn on_undo(p: &Params, s: &mut State, _mss_bytes: u32) -> Decision {
        if !s.has(FLAG_INIT) || !s.has(FLAG_UNDO) {
            return decision(p, s, Reason::Hold); // no loss reaction to undo
        }
        // Restore what the loss cut removed, as Reno's undo does: max(cwnd, prior window).
        let restored = s.cwnd_q16.max(s.undo_cwnd_q16);
        s.set_window(clamp(restored, p.min_cwnd_q16, p.max_cwnd_q16));
        s.undo_cwnd_q16 = 0;
        s.flags &= !FLAG_UNDO;
        decision(p, s, Reason::Undo)
    }

    fn current(p: &Params, s: &State, _mss_bytes: u32) -> Decision {
        decision(p, s, Reason::Hold)
    }
}

/// The hold lease (issue #13, `ThetaLease`): a child module in its own file, so it reaches the
/// law's private parameters and helpers (`smooth`, `tau_ns`, `update_per_rtt`) without widening
/// their visibility; a kernel module that includes this file gets it too.
#[path = "powertcp_lease.rs"]
mod powertcp_lease;
pub use powertcp_lease::{
    on_ack_leased, on_due, DueIn, Take, ThetaLease, PARAMS_ABI, THETA_LIFE_NS, THETA_PKTS_LIMIT,
    THETA_RTT_US_MAX, THETA_UPDATE_MAX_NS,
};
