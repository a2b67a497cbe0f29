//! Congestion controllers as the simulator drives them: the core's four laws, unchanged, and
//! two baselines written here (DCTCP and Reno) behind the same `rdcc_core::Controller` trait,
//! so the sender drives every algorithm through one path, event for event as the kernel glue
//! does.

use crate::error::{invalid, Result};
use crate::params::ParamSet;
use rdcc_core::event::{AckEvent, Controller, Decision, LossEvent, LossKind, Reason, ACK_ECE};
use rdcc_core::fixed::seq_after_eq;
use rdcc_core::int::{IntController, IntStack};
use rdcc_core::{hpcc, powertcp, powertcp_int, swift, timely, vaisf};

/// Which control law a profile runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Law {
    /// `rdcc_core::swift`.
    Swift,
    /// `rdcc_core::vaisf`.
    SwiftVaiSf,
    /// `rdcc_core::timely`.
    Timely,
    /// `rdcc_core::powertcp` (θ-PowerTCP).
    ThetaPowerTcp,
    /// `rdcc_core::powertcp_int` (PowerTCP with INT, Alg. 1).
    PowerTcpInt,
    /// `rdcc_core::hpcc` (plain HPCC).
    Hpcc,
    /// `rdcc_core::hpcc` with VAI and SF (defaults `hpcc::Config::VAISF`).
    HpccVaiSf,
    /// DCTCP baseline (this crate).
    Dctcp,
    /// Reno baseline (this crate).
    Reno,
}

impl Law {
    /// The accepted law names (aliases included), for error messages.
    pub const NAMES: &'static [&'static str] = &[
        "swift",
        "swift_vaisf",
        "vaisf",
        "timely",
        "theta_powertcp",
        "powertcp_int",
        "hpcc",
        "hpcc_vaisf",
        "dctcp",
        "reno",
    ];

    /// Why a name that is no law is refused, where a reason beyond "unknown" helps.
    pub fn why_not(s: &str) -> Option<&'static str> {
        (s == "powertcp").then_some(
            "\"powertcp\" names two laws: theta_powertcp (θ-PowerTCP, from RTTs) or \
             powertcp_int (PowerTCP over in-band telemetry; the kernel's tcp_powertcp)",
        )
    }

    /// The law called `s` (see [`Law::NAMES`]).
    pub fn parse(s: &str) -> Option<Law> {
        Some(match s {
            "swift" => Law::Swift,
            "swift_vaisf" | "vaisf" => Law::SwiftVaiSf,
            "timely" => Law::Timely,
            "theta_powertcp" => Law::ThetaPowerTcp,
            "powertcp_int" => Law::PowerTcpInt,
            "hpcc" => Law::Hpcc,
            "hpcc_vaisf" => Law::HpccVaiSf,
            "dctcp" => Law::Dctcp,
            "reno" => Law::Reno,
            _ => return None,
        })
    }

    /// Does this law want ECN-capable packets (switches mark them above K)?
    pub fn ecn(&self) -> bool {
        matches!(self, Law::Dctcp)
    }

    /// Does this law read in-band telemetry (switches append INT records to its data)?
    pub fn int(&self) -> bool {
        matches!(self, Law::PowerTcpInt | Law::Hpcc | Law::HpccVaiSf)
    }
}

/// Validated parameters of one algorithm profile.
#[derive(Clone, Copy, Debug)]
pub enum CcParams {
    /// Swift.
    Swift(swift::Params),
    /// Swift VAI SF.
    SwiftVaiSf(vaisf::Params),
    /// TIMELY.
    Timely(timely::Params),
    /// θ-PowerTCP.
    ThetaPowerTcp(powertcp::Params),
    /// INT PowerTCP.
    PowerTcpInt(powertcp_int::Params),
    /// HPCC, with or without VAI/SF.
    Hpcc(hpcc::Params),
    /// DCTCP.
    Dctcp(DctcpParams),
    /// Reno.
    Reno(DctcpParams),
}

/// Per-flow controller state.
#[derive(Clone, Copy, Debug)]
pub enum CcState {
    /// Swift.
    Swift(swift::State),
    /// Swift VAI SF.
    SwiftVaiSf(vaisf::State),
    /// TIMELY.
    Timely(timely::State),
    /// θ-PowerTCP.
    ThetaPowerTcp(powertcp::State),
    /// INT PowerTCP.
    PowerTcpInt(powertcp_int::State),
    /// HPCC, with or without VAI/SF.
    Hpcc(hpcc::State),
    /// DCTCP.
    Dctcp(DctcpState),
    /// Reno.
    Reno(DctcpState),
}

macro_rules! dispatch {
    ($p:expr, $s:expr, $m:ident ( $($a:expr),* )) => {
        match ($p, $s) {
            (CcParams::Swift(p), CcState::Swift(s)) => <swift::Swift as Controller>::$m(p, s, $($a),*),
            (CcParams::SwiftVaiSf(p), CcState::SwiftVaiSf(s)) => <vaisf::SwiftVaiSf as Controller>::$m(p, s, $($a),*),
            (CcParams::Timely(p), CcState::Timely(s)) => <timely::Timely as Controller>::$m(p, s, $($a),*),
            (CcParams::ThetaPowerTcp(p), CcState::ThetaPowerTcp(s)) => <powertcp::ThetaPowerTcp as Controller>::$m(p, s, $($a),*),
            (CcParams::Dctcp(p), CcState::Dctcp(s)) => <Dctcp as Controller>::$m(p, s, $($a),*),
            (CcParams::Reno(p), CcState::Reno(s)) => <Reno as Controller>::$m(p, s, $($a),*),
            (CcParams::PowerTcpInt(p), CcState::PowerTcpInt(s)) => <powertcp_int::PowerTcpInt as IntController>::$m(p, s, $($a),*),
            (CcParams::Hpcc(p), CcState::Hpcc(s)) => <hpcc::Hpcc as IntController>::$m(p, s, $($a),*),
            _ => unreachable!("controller state does not match its parameters"),
        }
    };
}

/// [`dispatch`] over the laws without INT (their `on_ack` takes no stack).
macro_rules! dispatch_plain {
    ($p:expr, $s:expr, $m:ident ( $($a:expr),* )) => {
        match ($p, $s) {
            (CcParams::Swift(p), CcState::Swift(s)) => <swift::Swift as Controller>::$m(p, s, $($a),*),
            (CcParams::SwiftVaiSf(p), CcState::SwiftVaiSf(s)) => <vaisf::SwiftVaiSf as Controller>::$m(p, s, $($a),*),
            (CcParams::Timely(p), CcState::Timely(s)) => <timely::Timely as Controller>::$m(p, s, $($a),*),
            (CcParams::ThetaPowerTcp(p), CcState::ThetaPowerTcp(s)) => <powertcp::ThetaPowerTcp as Controller>::$m(p, s, $($a),*),
            (CcParams::Dctcp(p), CcState::Dctcp(s)) => <Dctcp as Controller>::$m(p, s, $($a),*),
            (CcParams::Reno(p), CcState::Reno(s)) => <Reno as Controller>::$m(p, s, $($a),*),
            _ => unreachable!("controller state does not match its parameters"),
        }
    };
}

impl CcParams {
    /// A fresh (all-zero) state of the matching law.
    pub fn new_state(&self) -> CcState {
        match self {
            CcParams::Swift(_) => CcState::Swift(Default::default()),
            CcParams::SwiftVaiSf(_) => CcState::SwiftVaiSf(Default::default()),
            CcParams::Timely(_) => CcState::Timely(Default::default()),
            CcParams::ThetaPowerTcp(_) => CcState::ThetaPowerTcp(Default::default()),
            CcParams::PowerTcpInt(_) => CcState::PowerTcpInt(Default::default()),
            CcParams::Hpcc(_) => CcState::Hpcc(Default::default()),
            CcParams::Dctcp(_) => CcState::Dctcp(Default::default()),
            CcParams::Reno(_) => CcState::Reno(Default::default()),
        }
    }

    /// `Controller::init`.
    pub fn init(&self, s: &mut CcState, now_ns: u64, mss: u32) -> Decision {
        dispatch!(self, s, init(now_ns, mss))
    }
    /// `Controller::on_ack`, or `IntController::on_ack` with the echoed INT stack for the laws
    /// that read it (the others ignore `int`).
    pub fn on_ack(&self, s: &mut CcState, ev: &AckEvent, int: &IntStack) -> Decision {
        match (self, s) {
            (CcParams::PowerTcpInt(p), CcState::PowerTcpInt(s)) => {
                <powertcp_int::PowerTcpInt as IntController>::on_ack(p, s, ev, int)
            }
            (CcParams::Hpcc(p), CcState::Hpcc(s)) => {
                <hpcc::Hpcc as IntController>::on_ack(p, s, ev, int)
            }
            (p, s) => dispatch_plain!(p, s, on_ack(ev)),
        }
    }
    /// `Controller::on_loss`.
    pub fn on_loss(&self, s: &mut CcState, ev: &LossEvent) -> Decision {
        dispatch!(self, s, on_loss(ev))
    }
}

/// Build validated parameters for `law` from its core `Config::DEFAULT` with `overrides`
/// (field name = value, the names of the law's `Config` fields and kernel module parameters).
pub fn build_params(law: Law, overrides: &[(String, u64)]) -> Result<CcParams> {
    build_params_with(law, ParamSet::Paper, overrides)
}

/// [`build_params`] from the named parameter set `param_set` ([`crate::params`]): its keys
/// that `overrides` does not name, computed with the profile's base RTT and host rate after
/// `overrides` are applied, then validation.
pub fn build_params_with(
    law: Law,
    param_set: ParamSet,
    overrides: &[(String, u64)],
) -> Result<CcParams> {
    fn set<T: TryFrom<u64>>(dst: &mut T, k: &str, v: u64) -> Result<()> {
        *dst = T::try_from(v).map_err(|_| invalid!("{k}={v}: does not fit the field"))?;
        Ok(())
    }
    macro_rules! apply {
        ($cfg:ident, $k:expr, $v:expr, [$($f:ident),* $(,)?]) => {
            match $k {
                $(stringify!($f) => set(&mut $cfg.$f, $k, $v)?,)*
                other => return Err(invalid!("unknown parameter {other:?} for {:?}", law)),
            }
        };
    }
    let err = |e: rdcc_core::ParamError| {
        invalid!(
            "{:?}: {}={} out of range [{}, {}]",
            law,
            e.field,
            e.value,
            e.min,
            e.max
        )
    };
    Ok(match law {
        Law::Swift => {
            let mut c = swift::Config::DEFAULT;
            for (k, v) in overrides {
                apply!(
                    c,
                    k.as_str(),
                    *v,
                    [
                        ai_pkts_q20,
                        beta_q16,
                        max_mdf_q16,
                        min_cwnd_pkts_q20,
                        max_cwnd_pkts_q20,
                        init_cwnd_pkts_q20,
                        retx_reset_threshold,
                        base_target_ns,
                        per_hop_ns,
                        default_hops,
                        fs_range_ns,
                        fs_min_cwnd_pkts_q20,
                        fs_max_cwnd_pkts_q20,
                        endpoint_target_ns,
                        endpoint_ewma_q16,
                        literal_decrease_guard
                    ]
                );
            }
            CcParams::Swift(swift::Params::new(&c).map_err(err)?)
        }
        Law::SwiftVaiSf => {
            let mut c = vaisf::Config::DEFAULT;
            for (k, v) in overrides {
                apply!(
                    c,
                    k.as_str(),
                    *v,
                    [
                        base_ai_bps,
                        beta_q16,
                        max_mdf_q16,
                        min_cwnd_pkts_q20,
                        max_cwnd_pkts_q20,
                        init_cwnd_pkts_q20,
                        retx_reset_threshold,
                        base_target_ns,
                        per_hop_ns,
                        default_hops,
                        sf_acks,
                        sf_count_segments,
                        token_thresh_extra_ns,
                        ai_div_ns,
                        bank_cap,
                        ai_cap,
                        dampener_constant,
                        token_numerator
                    ]
                );
            }
            CcParams::SwiftVaiSf(vaisf::Params::new(&c).map_err(err)?)
        }
        Law::Timely => {
            let mut c = timely::Config::DEFAULT;
            for (k, v) in overrides {
                apply!(
                    c,
                    k.as_str(),
                    *v,
                    [
                        segment_bytes,
                        t_low_ns,
                        t_high_ns,
                        min_rtt_ns,
                        alpha_q16,
                        beta_q16,
                        delta_mbps,
                        hai_threshold,
                        hai_factor,
                        hai_in_low_guard,
                        line_rate_mbps,
                        min_rate_mbps,
                        init_rate_mbps,
                        app_limit_q16,
                        update_mode,
                        rto_beta_q16,
                        rto_reset_count,
                        skip_delayed_acks
                    ]
                );
            }
            CcParams::Timely(timely::Params::new(&c).map_err(err)?)
        }
        Law::ThetaPowerTcp => {
            let mut c = powertcp::Config::DEFAULT;
            for (k, v) in overrides {
                apply!(
                    c,
                    k.as_str(),
                    *v,
                    [
                        gamma_q16,
                        base_rtt_ns,
                        host_bw_bps,
                        expected_flows,
                        beta_bytes,
                        min_cwnd_bytes,
                        max_cwnd_bytes,
                        grad_floor_q16,
                        smooth_init_q16,
                        gradient_mode,
                        loss_md_q16,
                        base_rtt_mode
                    ]
                );
            }
            CcParams::ThetaPowerTcp(powertcp::Params::new(&c).map_err(err)?)
        }
        Law::PowerTcpInt => {
            let mut c = powertcp_int::Config::DEFAULT;
            for (k, v) in overrides {
                apply!(
                    c,
                    k.as_str(),
                    *v,
                    [
                        gamma_q16,
                        base_rtt_ns,
                        host_bw_bps,
                        expected_flows,
                        beta_bytes,
                        min_cwnd_bytes,
                        max_cwnd_bytes,
                        smooth_init_q16,
                        target_q16,
                        lambda_floor_q16,
                        kept_from_ref
                    ]
                );
            }
            for &(k, rule, _) in param_set.settings(law) {
                if !overrides.iter().any(|(o, _)| o == k) {
                    let v = rule.value(c.base_rtt_ns, c.host_bw_bps);
                    apply!(
                        c,
                        k,
                        v,
                        [
                            beta_bytes,
                            target_q16,
                            smooth_init_q16,
                            kept_from_ref,
                            min_cwnd_bytes
                        ]
                    );
                }
            }
            CcParams::PowerTcpInt(powertcp_int::Params::new(&c).map_err(err)?)
        }
        Law::Hpcc | Law::HpccVaiSf => {
            let mut c = if law == Law::Hpcc {
                hpcc::Config::DEFAULT
            } else {
                hpcc::Config::VAISF
            };
            for (k, v) in overrides {
                apply!(
                    c,
                    k.as_str(),
                    *v,
                    [
                        base_rtt_ns,
                        host_bw_bps,
                        eta_q16,
                        max_stage,
                        ai_bps,
                        min_cwnd_bytes,
                        max_cwnd_bytes,
                        vai,
                        sf_acks,
                        token_thresh_bytes,
                        ai_div_bytes,
                        bank_cap,
                        ai_cap,
                        dampener_constant
                    ]
                );
            }
            for &(k, rule, _) in param_set.settings(law) {
                if !overrides.iter().any(|(o, _)| o == k) {
                    let v = rule.value(c.base_rtt_ns, c.host_bw_bps);
                    apply!(c, k, v, [eta_q16, max_stage, ai_bps, min_cwnd_bytes]);
                }
            }
            CcParams::Hpcc(hpcc::Params::new(&c).map_err(err)?)
        }
        Law::Dctcp | Law::Reno => {
            let mut c = DctcpParams::DEFAULT;
            for (k, v) in overrides {
                apply!(
                    c,
                    k.as_str(),
                    *v,
                    [g_q16, init_cwnd_pkts, min_cwnd_pkts, alpha_init_q16]
                );
            }
            if c.g_q16 == 0 || c.g_q16 > Q16 || c.init_cwnd_pkts == 0 || c.min_cwnd_pkts == 0 {
                return Err(invalid!("{law:?}: g_q16 in [1, 65536], windows >= 1"));
            }
            if law == Law::Dctcp {
                CcParams::Dctcp(c)
            } else {
                CcParams::Reno(c)
            }
        }
    })
}

const Q16: u64 = 1 << 16;

/// DCTCP (Alizadeh et al., SIGCOMM 2010; Linux `tcp_dctcp.c`) and Reno parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DctcpParams {
    /// EWMA gain `g` of the marked fraction, Q16 (Linux: 1/16).
    pub g_q16: u64,
    /// Initial window, packets (Linux: 10).
    pub init_cwnd_pkts: u64,
    /// Smallest window, packets (Linux: 2 after a reduction, 1 after an RTO).
    pub min_cwnd_pkts: u64,
    /// Initial `alpha`, Q16 (Linux `dctcp_alpha_on_init`: 1.0).
    pub alpha_init_q16: u64,
}

impl DctcpParams {
    /// Linux defaults.
    pub const DEFAULT: DctcpParams = DctcpParams {
        g_q16: Q16 / 16,
        init_cwnd_pkts: 10,
        min_cwnd_pkts: 2,
        alpha_init_q16: Q16,
    };
}

/// DCTCP / Reno per-flow state.
#[derive(Clone, Copy, Debug, Default)]
pub struct DctcpState {
    cwnd_bytes: u64,
    ssthresh_bytes: u64,
    alpha_q16: u64,
    mss: u32,
    window_end: u32,
    acked_in_window: u64,
    ce_in_window: u64,
    /// A CE reduction already happened in the current window.
    reduced: bool,
    /// `window_end` holds a sequence number (set by the first ACK).
    window_started: bool,
    init: bool,
    undo_cwnd_bytes: u64,
}

fn dctcp_init(p: &DctcpParams, s: &mut DctcpState, mss: u32) {
    let mss = mss.max(1);
    *s = DctcpState {
        cwnd_bytes: p.init_cwnd_pkts * mss as u64,
        ssthresh_bytes: u64::MAX,
        alpha_q16: p.alpha_init_q16,
        mss,
        init: true,
        ..Default::default()
    };
}

fn dctcp_decision(s: &DctcpState, reason: Reason) -> Decision {
    Decision {
        cwnd_bytes_q16: s.cwnd_bytes << 16,
        pacing_rate_bps: 0,
        signal: s.alpha_q16 as i64,
        reason,
        flags: 0,
    }
}

fn reno_ack(p: &DctcpParams, s: &mut DctcpState, ev: &AckEvent, ecn: bool) -> Decision {
    if !s.init {
        dctcp_init(p, s, ev.mss_bytes);
    }
    let mss = s.mss as u64;
    let acked = ev.acked_bytes as u64;
    let mut reason = Reason::Hold;
    if ecn {
        s.acked_in_window += acked;
        if ev.has(ACK_ECE) {
            s.ce_in_window += acked;
            if !s.reduced {
                // Linux: ECE puts the flow in CWR once per window: cwnd *= 1 - alpha/2.
                let cut = (s.cwnd_bytes as u128 * s.alpha_q16 as u128 / (2 * Q16) as u128) as u64;
                s.cwnd_bytes = s.cwnd_bytes.saturating_sub(cut).max(p.min_cwnd_pkts * mss);
                s.ssthresh_bytes = s.cwnd_bytes;
                s.reduced = true;
                reason = Reason::MultiplicativeDecrease;
            }
        }
        if !s.window_started {
            s.window_end = ev.snd_nxt;
            s.window_started = true;
        } else if seq_after_eq(ev.snd_una, s.window_end) {
            // End of an observation window (dctcp_update_alpha).
            let f_q16 = (s.ce_in_window * Q16)
                .checked_div(s.acked_in_window)
                .unwrap_or(0);
            s.alpha_q16 = (s.alpha_q16 * (Q16 - p.g_q16) + f_q16 * p.g_q16) / Q16;
            s.acked_in_window = 0;
            s.ce_in_window = 0;
            s.window_end = ev.snd_nxt;
            s.reduced = false;
        }
    }
    // Linux grows the window only while it limits the sender (tcp_is_cwnd_limited): in slow
    // start while less than twice the data in flight, afterwards while the flight fills it.
    let flight = ev.inflight_bytes as u64 + acked;
    let slow_start = s.cwnd_bytes < s.ssthresh_bytes;
    let limited = if slow_start {
        s.cwnd_bytes < 2 * flight
    } else {
        flight + mss >= s.cwnd_bytes
    };
    if reason == Reason::Hold && !ev.has(rdcc_core::event::ACK_IN_RECOVERY) && acked > 0 && limited
    {
        if slow_start {
            s.cwnd_bytes += acked;
        } else {
            s.cwnd_bytes += (mss * acked / s.cwnd_bytes.max(1)).max(1); // Reno CA
        }
        reason = Reason::AdditiveIncrease;
    }
    dctcp_decision(s, reason)
}

fn reno_loss(p: &DctcpParams, s: &mut DctcpState, ev: &LossEvent) -> Decision {
    if !s.init {
        dctcp_init(p, s, ev.mss_bytes);
    }
    let mss = s.mss as u64;
    s.undo_cwnd_bytes = s.cwnd_bytes;
    match ev.kind {
        LossKind::FastRecovery => {
            s.ssthresh_bytes = (s.cwnd_bytes / 2).max(p.min_cwnd_pkts * mss);
            s.cwnd_bytes = s.ssthresh_bytes;
            dctcp_decision(s, Reason::FastRecovery)
        }
        LossKind::RetransmitTimeout => {
            s.ssthresh_bytes = (s.cwnd_bytes / 2).max(p.min_cwnd_pkts * mss);
            s.cwnd_bytes = mss;
            dctcp_decision(s, Reason::RetransmitTimeout)
        }
    }
}

/// DCTCP baseline.
pub struct Dctcp;
/// Reno baseline (DCTCP without ECN).
pub struct Reno;

macro_rules! baseline {
    ($t:ty, $ecn:expr) => {
        impl Controller for $t {
            type Params = DctcpParams;
            type State = DctcpState;
            fn init(p: &DctcpParams, s: &mut DctcpState, _now_ns: u64, mss: u32) -> Decision {
                dctcp_init(p, s, mss);
                dctcp_decision(s, Reason::Init)
            }
            fn on_ack(p: &DctcpParams, s: &mut DctcpState, ev: &AckEvent) -> Decision {
                reno_ack(p, s, ev, $ecn)
            }
            fn on_loss(p: &DctcpParams, s: &mut DctcpState, ev: &LossEvent) -> Decision {
                reno_loss(p, s, ev)
            }
            fn on_idle_restart(p: &DctcpParams, s: &mut DctcpState, _n: u64, mss: u32) -> Decision {
                if !s.init {
                    dctcp_init(p, s, mss);
                }
                dctcp_decision(s, Reason::IdleRestart)
            }
            fn on_undo(_p: &DctcpParams, s: &mut DctcpState, _mss: u32) -> Decision {
                s.cwnd_bytes = s.cwnd_bytes.max(s.undo_cwnd_bytes);
                dctcp_decision(s, Reason::Undo)
            }
            fn current(_p: &DctcpParams, s: &DctcpState, _mss: u32) -> Decision {
                dctcp_decision(s, Reason::Hold)
            }
        }
    };
}
baseline!(Dctcp, true);
baseline!(Reno, false);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_reach_the_config_and_are_validated() {
        let ok = build_params(Law::Swift, &[("base_target_ns".into(), 7000)]).unwrap();
        match ok {
            CcParams::Swift(p) => assert_eq!(p.config().base_target_ns, 7000),
            _ => panic!("wrong law"),
        }
        let bad = build_params(Law::Swift, &[("base_target_ns".into(), 0)]);
        assert!(bad.unwrap_err().to_string().contains("base_target_ns"));
        let unknown = build_params(Law::Timely, &[("nope".into(), 1)]);
        assert!(unknown.unwrap_err().to_string().contains("nope"));
    }

    #[test]
    fn dctcp_cuts_by_half_alpha_once_per_window() {
        let p = DctcpParams::DEFAULT;
        let mut s = DctcpState::default();
        <Dctcp as Controller>::init(&p, &mut s, 0, 1000);
        s.ssthresh_bytes = 0; // congestion avoidance
        let ev = AckEvent {
            acked_bytes: 1000,
            mss_bytes: 1000,
            snd_una: 1000,
            snd_nxt: 10_000,
            flags: ACK_ECE,
            ..Default::default()
        };
        let d = <Dctcp as Controller>::on_ack(&p, &mut s, &ev);
        // alpha = 1 initially: the window halves (10 -> 5 packets).
        assert_eq!(d.cwnd_bytes_q16 >> 16, 5000);
        let d2 = <Dctcp as Controller>::on_ack(
            &p,
            &mut s,
            &AckEvent {
                snd_una: 2000,
                ..ev
            },
        );
        assert_eq!(
            d2.cwnd_bytes_q16 >> 16,
            5000,
            "second ECE in the window: no cut"
        );
    }
}
