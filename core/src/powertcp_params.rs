//! θ-PowerTCP's parameters: the bounds, the raw [`Config`] a module parameter set or a
//! simulator scenario gives, and the validated [`Params`] with their derived constants. A
//! child module of `powertcp.rs` in its own file (the law reads `Params`' fields directly, the
//! C hold lease through `PARAMS_ABI`); a kernel module that includes `powertcp.rs` gets it too.

use super::{
    clamp, mul_div, mul_q16, tau_ns, ParamError, State, MAX_RATE_BPS, NS_PER_S, Q16_ONE, Q16_SHIFT,
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
/// through [`PARAMS_ABI`](super::PARAMS_ABI)). C never writes a parameter block.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    pub(super) gamma_q16: u64,
    pub(super) one_minus_gamma_q16: u64,
    pub(super) base_rtt_ns: u64,
    pub(super) gamma_beta_q16: u64,
    pub(super) min_cwnd_q16: u64,
    pub(super) max_cwnd_q16: u64,
    pub(super) grad_floor_q16: u64,
    pub(super) per_ack: bool,
    pub(super) min_rtt_tau: bool,
    pub(super) artifact_tau: bool,
    pub(super) beta_q16: u64,
    pub(super) init_cwnd_q16: u64,
    pub(super) smooth_init_q16: u64,
    pub(super) loss_keep_q16: u64,
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
