// SPDX-License-Identifier: GPL-2.0-only
//! The two glues of the hold-lease tests (issue #13), shared by `lease_equivalence.rs` (random
//! sequences) and `lease_directed.rs` (the lease is taken where it should be and ends exactly at
//! its boundaries): a model of the kernel socket as rdcc_glue.c reads and writes it, the glue
//! without the lease (reference) and with it (leased), and the checks after every event. See
//! `lease_equivalence.rs` for the claim.
//!
//! θ-PowerTCP's glues (`theta_lease_model/mod.rs`) reuse the socket side (`Tcp`, `Rs`, `Op`,
//! `fill`, `set`), the full per-ACK path (`ack_full`, `ack_reference`), the hooks around the
//! law's call (`Hook`, generic over `Controller`), the parameter write (`write_params`) and
//! get_info's checks (`check_views`); both directed tests use `ack` and `xorshift`.
#![allow(dead_code)] // each test file uses the part it needs

use core::mem::MaybeUninit;
use proptest::prelude::*;
use rdcc_core::event::{
    Enforced, ACK_APP_LIMITED, ACK_DELAYED, ACK_ECE, ACK_HAS_RTT, ACK_IN_RECOVERY,
};
use rdcc_core::lease::{lease_retire, on_ack_leased, HoldLease, Lease};
use rdcc_core::timely::{self, Timely};
use rdcc_core::{AckEvent, Controller, Decision, LossEvent, LossKind};

/// `icsk_ca_state`, in the kernel's order (TCP_CA_Open = 0 ... TCP_CA_Loss = 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ca {
    Open,
    Disorder,
    Cwr,
    Recovery,
    Loss,
}

/// What the glue reads from and writes to the kernel socket.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tcp {
    pub now_ns: u64,
    pub mss: u32,
    /// rdcc_srtt_us(tp): whole µs, rounded up already.
    pub srtt_us: u32,
    /// snd_cwnd_clamp.
    pub clamp: u32,
    pub ca: Ca,
    /// tcp_packets_in_flight.
    pub packets_out: u32,
    pub una: u32,
    pub snd_cwnd: u32,
    /// sk_pacing_rate.
    pub pacing: u64,
    /// sk_max_pacing_rate.
    pub max_pacing: u64,
}

impl Tcp {
    /// The pairs' socket before the first event: 1448-byte MSS, srtt 25 µs, clamp 64, window
    /// 10, snd_una 1, no pacing cap.
    pub fn start(now_ns: u64) -> Tcp {
        Tcp {
            now_ns,
            mss: 1448,
            srtt_us: 25,
            clamp: 64,
            ca: Ca::Open,
            packets_out: 0,
            una: 1,
            snd_cwnd: 10,
            pacing: u64::MAX,
            max_pacing: u64::MAX,
        }
    }
}

/// The rate sample of one ACK.
#[derive(Clone, Copy, Debug)]
pub struct Rs {
    /// rs->rtt_us: > 0 a sample, else none (-1 after Karn).
    pub rtt_us: i64,
    /// rs->acked_sacked.
    pub pkts: u32,
    pub app_limited: bool,
    pub delayed: bool,
    pub ce: bool,
}

/// Packets in flight after an ACK.
#[derive(Clone, Copy, Debug)]
pub enum InFlight {
    /// The socket's window (a sender that keeps its window full).
    Window,
    Fixed(u32),
}

#[derive(Clone, Debug)]
pub enum Op {
    /// `dt` after the previous event (`back`: that far before it), the rate sample, a new MSS
    /// (None: unchanged), srtt (µs), packets in flight after the ACK.
    Ack {
        dt: u64,
        back: bool,
        rs: Rs,
        mss: Option<u32>,
        srtt_us: u32,
        in_flight: InFlight,
    },
    /// set_state(Recovery): a loss event for the law.
    FastRecovery {
        dt: u64,
    },
    /// tcp_enter_loss: window = in flight + 1, then set_state(Loss), a loss event for the law.
    Rto {
        dt: u64,
    },
    /// A state change without a law call: Open, Disorder, CWR, or Loss from a PMTU drop.
    SetState(Ca),
    Undo,
    /// TX_START after an RTO-long idle: the law only in Open.
    Idle {
        dt: u64,
    },
    /// A parameter write: the other set, generation + 1.
    Switch,
    /// A parameter write of the same values: generation + 1.
    Touch,
    Init {
        dt: u64,
    },
    /// snd_cwnd_clamp changes (setsockopt TCP_WINDOW_CLAMP, a route metric).
    Clamp(u32),
    /// setsockopt SO_MAX_PACING_RATE.
    MaxPacing(u64),
    /// The tracepoint is switched on or off.
    Trace(bool),
}

/// For the directed tests: an ACK of `pkts` packets `dt` ns after the previous event, RTT
/// `rtt_us` (<= 0: none), `in_flight` after it, nothing else set (srtt 25 µs, MSS unchanged).
pub fn ack(dt: u64, pkts: u32, rtt_us: i64, in_flight: InFlight) -> Op {
    Op::Ack {
        dt,
        back: false,
        rs: Rs {
            rtt_us,
            pkts,
            app_limited: false,
            delayed: false,
            ce: false,
        },
        mss: None,
        srtt_us: 25,
        in_flight,
    }
}

/// xorshift32, as the benchmark's (modules/bench/rdcc_bench_main.c), for the directed tests'
/// RTTs.
pub fn xorshift(x: &mut u32) -> u32 {
    *x ^= *x << 13;
    *x ^= *x >> 17;
    *x ^= *x << 5;
    *x
}

/// rdcc_fill_ack_in (modules/glue/rdcc_event.h), transcribed.
pub fn fill(t: &Tcp, rs: &Rs) -> AckEvent {
    let mut flags = 0;
    if rs.rtt_us > 0 {
        flags |= ACK_HAS_RTT;
    }
    if rs.app_limited {
        flags |= ACK_APP_LIMITED;
    }
    if rs.delayed {
        flags |= ACK_DELAYED;
    }
    if rs.ce {
        flags |= ACK_ECE;
    }
    if t.ca >= Ca::Recovery {
        flags |= ACK_IN_RECOVERY;
    }
    let sat = |x: u64| x.min(u64::from(u32::MAX)) as u32;
    AckEvent {
        now_ns: t.now_ns,
        // (u64)rs->rtt_us * NSEC_PER_USEC: wraps in C for absurd samples, as here.
        rtt_ns: if rs.rtt_us > 0 {
            (rs.rtt_us as u64).wrapping_mul(1000)
        } else {
            0
        },
        acked_bytes: sat(u64::from(rs.pkts) * u64::from(t.mss)),
        inflight_bytes: sat(u64::from(t.packets_out) * u64::from(t.mss)),
        mss_bytes: t.mss,
        snd_una: t.una,
        snd_nxt: t.una.wrapping_add(t.packets_out.wrapping_mul(t.mss)),
        flags,
        ..AckEvent::default()
    }
}

/// rdcc_set.
pub fn set(t: &mut Tcp, e: &Enforced) {
    if e.cwnd_pkts != 0 {
        t.snd_cwnd = e.cwnd_pkts;
        t.pacing = e.pacing_rate_bps.min(t.max_pacing);
    }
}

/// What rdcc_trace records: time, RTT, the decision, sk_pacing_rate after it.
pub type Line = (u64, u64, Decision, u64);

/// The full per-ACK path on a socket and its trace: the event as rdcc_fill_ack_in, `law` (with
/// the event, srtt in µs and the clamp: the law's call and enforce, leased or not, returning the
/// decision and its enforcement), rdcc_set, then the Loss-state window rule and the trace.
pub fn ack_full(
    tcp: &mut Tcp,
    trace: &mut Vec<Line>,
    rs: &Rs,
    tracing: bool,
    law: impl FnOnce(&AckEvent, u32, u32) -> (Decision, Enforced),
) -> Decision {
    let prior = tcp.snd_cwnd;
    let ev = fill(tcp, rs);
    let (d, e) = law(&ev, tcp.srtt_us, tcp.clamp);
    set(tcp, &e);
    if tcp.ca == Ca::Loss {
        // min(cwnd, max_t(u32, prior_cwnd + rs->acked_sacked, 1)): a u32 sum, wrapping as in C.
        tcp.snd_cwnd = tcp.snd_cwnd.min(prior.wrapping_add(rs.pkts).max(1));
    }
    if tracing {
        trace.push((tcp.now_ns, ev.rtt_ns, d, tcp.pacing));
    }
    d
}

/// rdcc_cong_control without the lease, for law `C`: `on_ack` and enforce on the full path.
pub fn ack_reference<C: Controller>(
    p: &C::Params,
    s: &mut C::State,
    tcp: &mut Tcp,
    trace: &mut Vec<Line>,
    rs: &Rs,
    tracing: bool,
) -> Decision {
    ack_full(tcp, trace, rs, tracing, |ev, srtt_us, clamp| {
        let d = C::on_ack(p, s, ev);
        (d, d.enforce(ev.mss_bytes, srtt_us, clamp))
    })
}

/// A law call outside the per-ACK path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hook {
    /// rdcc_loss: a loss event of this kind (a timeout also keeps the kernel's window if it is
    /// smaller).
    Loss(LossKind),
    /// rdcc_undo_cwnd.
    Undo,
    /// rdcc_cwnd_event(TX_START) after an idle period.
    Idle,
    /// rdcc_init.
    Init,
}

impl Hook {
    /// The law call of `op` on a socket in `ca` (after the event's socket side), if it makes
    /// one: fast recovery and RTO a loss event, undo, and idle restart only in Open
    /// (rdcc_cwnd_event returns before the law, and the retire, outside Open). Init is the
    /// pair's own (it clears the lease too).
    pub fn of(op: &Op, ca: Ca) -> Option<Hook> {
        match *op {
            Op::FastRecovery { .. } => Some(Hook::Loss(LossKind::FastRecovery)),
            Op::Rto { .. } => Some(Hook::Loss(LossKind::RetransmitTimeout)),
            Op::Undo => Some(Hook::Undo),
            Op::Idle { .. } if ca == Ca::Open => Some(Hook::Idle),
            _ => None,
        }
    }

    /// The RTO's window rule applies.
    pub fn rto(self) -> bool {
        self == Hook::Loss(LossKind::RetransmitTimeout)
    }

    /// The law's call, with the socket's clock and MSS.
    pub fn call<C: Controller>(self, p: &C::Params, s: &mut C::State, t: &Tcp) -> Decision {
        match self {
            Hook::Loss(kind) => {
                let ev = LossEvent {
                    now_ns: t.now_ns,
                    mss_bytes: t.mss,
                    kind,
                };
                C::on_loss(p, s, &ev)
            }
            Hook::Undo => C::on_undo(p, s, t.mss),
            Hook::Idle => C::on_idle_restart(p, s, t.now_ns, t.mss),
            Hook::Init => C::init(p, s, t.now_ns, t.mss),
        }
    }

    /// rdcc_loss / rdcc_cwnd_event / rdcc_undo_cwnd / rdcc_init after the lease's end: the
    /// law's call, rdcc_apply, the RTO's window rule, the trace.
    pub fn run<C: Controller>(
        self,
        p: &C::Params,
        s: &mut C::State,
        tcp: &mut Tcp,
        trace: &mut Vec<Line>,
        tracing: bool,
    ) {
        let kernel_cwnd = tcp.snd_cwnd;
        let d = self.call::<C>(p, s, tcp);
        // rdcc_apply
        let e = d.enforce(tcp.mss, tcp.srtt_us, tcp.clamp);
        set(tcp, &e);
        if self.rto() && tcp.snd_cwnd > kernel_cwnd {
            tcp.snd_cwnd = kernel_cwnd;
        }
        if tracing {
            trace.push((tcp.now_ns, 0, d, tcp.pacing));
        }
    }
}

/// A parameter write (Switch: the other set; Touch: the same values): generation + 1.
pub fn write_params(switch: bool, which: &mut usize, gen: &mut u32) {
    if switch {
        *which ^= 1;
    }
    // rdcc_params_gen_bump: never 0.
    *gen = gen.wrapping_add(1).max(1);
}

/// get_info's views of the leased glue's live state `l` and the reference's `r` under the
/// parameters in force: `current()` at the socket's MSS and at 9000, `report()`.
pub fn check_views<C: Controller>(
    p: &C::Params,
    l: &C::State,
    r: &C::State,
    mss: u32,
    i: usize,
    op: &Op,
) -> Result<(), TestCaseError> {
    for m in [mss, 9000] {
        prop_assert_eq!(
            C::current(p, l, m),
            C::current(p, r, m),
            "current({}) after event {} {:?}",
            m,
            i,
            op
        );
    }
    prop_assert_eq!(
        C::report(p, l),
        C::report(p, r),
        "report after event {} {:?}",
        i,
        op
    );
    Ok(())
}

/// One socket under one of the two glues.
pub struct Glue {
    pub s: timely::State,
    pub lease: Lease,
    pub tcp: Tcp,
    pub trace: Vec<Line>,
    /// ACKs the lease covered (leased glue only).
    pub fast: u32,
    /// ACKs that called the law.
    pub slow: u32,
}

impl Glue {
    pub fn new(tcp: Tcp) -> Glue {
        Glue {
            s: timely::State::default(),
            lease: Lease::default(),
            tcp,
            trace: Vec::new(),
            fast: 0,
            slow: 0,
        }
    }

    /// rdcc_cong_control without the lease.
    pub fn ack_reference(&mut self, p: &timely::Params, rs: &Rs, tracing: bool) -> Decision {
        self.slow += 1;
        ack_reference::<Timely>(p, &mut self.s, &mut self.tcp, &mut self.trace, rs, tracing)
    }

    /// rdcc_cong_control with RDCC_LEASE. Returns whether the lease covered the ACK.
    pub fn ack_leased(&mut self, p: &timely::Params, gen: u32, rs: &Rs, tracing: bool) -> bool {
        if !tracing {
            let t = self.tcp;
            let in_recovery = t.ca >= Ca::Recovery;
            if let Some(e) =
                self.lease
                    .try_take(gen, t.mss, t.now_ns, rs.pkts, in_recovery, t.clamp)
            {
                // rdcc_lease_take's stores (e.cwnd_pkts >= 1 always).
                self.tcp.snd_cwnd = e.cwnd_pkts;
                self.tcp.pacing = e.pacing_rate_bps.min(t.max_pacing);
                self.fast += 1;
                return true;
            }
        }
        self.slow += 1;
        let (s, lease) = (&mut self.s, &mut self.lease);
        ack_full(
            &mut self.tcp,
            &mut self.trace,
            rs,
            tracing,
            |ev, srtt_us, clamp| {
                let (mut d, mut e) = (MaybeUninit::uninit(), MaybeUninit::uninit());
                let (d, e) =
                    on_ack_leased::<Timely>(p, s, ev, srtt_us, clamp, lease, gen, &mut d, &mut e);
                (*d, *e)
            },
        );
        false
    }

    /// rdcc_loss / rdcc_cwnd_event / rdcc_undo_cwnd / rdcc_init around the law's call:
    /// `leased` retires the lease first (`lease_retire`, which folds the absorbed bytes).
    pub fn hook(&mut self, leased: bool, tracing: bool, h: Hook, p: &timely::Params) {
        if leased {
            lease_retire::<Timely>(&mut self.s, &mut self.lease);
        }
        h.run::<Timely>(p, &mut self.s, &mut self.tcp, &mut self.trace, tracing);
    }
}

/// What one event did, for the directed tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct Step {
    /// An ACK the leased glue took from the lease.
    pub fast: bool,
    /// An ACK on which the reference updated the rate (the bytes since the update were reset).
    pub update: bool,
}

/// The two glues on one event sequence, with the parameter sets, the generation and the
/// tracepoint they share.
pub struct Pair<'a> {
    pub params: [&'a timely::Params; 2],
    pub which: usize,
    pub gen: u32,
    pub tracing: bool,
    pub r: Glue,
    pub l: Glue,
}

impl<'a> Pair<'a> {
    pub fn new(params: [&'a timely::Params; 2], start_ns: u64, gen: u32) -> Pair<'a> {
        let tcp = Tcp::start(start_ns);
        Pair {
            params,
            which: 0,
            gen,
            tracing: false,
            r: Glue::new(tcp),
            l: Glue::new(tcp),
        }
    }

    /// The socket-side part of `op`, the same on both sockets.
    pub fn socket(t: &mut Tcp, op: &Op) {
        match *op {
            Op::Ack {
                dt,
                back,
                rs,
                mss,
                srtt_us,
                in_flight,
            } => {
                t.now_ns = if back {
                    t.now_ns.wrapping_sub(dt)
                } else {
                    t.now_ns.wrapping_add(dt)
                };
                if let Some(m) = mss {
                    t.mss = m;
                }
                t.srtt_us = srtt_us;
                t.packets_out = match in_flight {
                    InFlight::Window => t.snd_cwnd,
                    InFlight::Fixed(n) => n,
                };
                t.una = t.una.wrapping_add(rs.pkts.wrapping_mul(t.mss));
            }
            Op::FastRecovery { dt } => {
                t.now_ns = t.now_ns.wrapping_add(dt);
                t.ca = Ca::Recovery;
            }
            Op::Rto { dt } => {
                t.now_ns = t.now_ns.wrapping_add(dt);
                t.snd_cwnd = t.packets_out.saturating_add(1);
                t.ca = Ca::Loss;
            }
            Op::SetState(ca) => t.ca = ca,
            Op::Idle { dt } | Op::Init { dt } => t.now_ns = t.now_ns.wrapping_add(dt),
            Op::Clamp(c) => t.clamp = c,
            Op::MaxPacing(m) => {
                // sk_setsockopt(SO_MAX_PACING_RATE) also caps the current rate.
                t.max_pacing = m;
                t.pacing = t.pacing.min(m);
            }
            Op::Undo | Op::Switch | Op::Touch | Op::Trace(_) => {}
        }
    }

    /// Init on both (the glue's memset clears the lease; the law replaces the state).
    pub fn init(&mut self) {
        let p = self.params[self.which];
        let tracing = self.tracing;
        for g in [&mut self.r, &mut self.l] {
            g.lease = Lease::default();
            g.hook(false, tracing, Hook::Init, p);
        }
    }

    /// Event `i`, then every check.
    pub fn step(&mut self, i: usize, op: &Op) -> Result<Step, TestCaseError> {
        Pair::socket(&mut self.r.tcp, op);
        Pair::socket(&mut self.l.tcp, op);
        let p = self.params[self.which];
        let (gen, tracing) = (self.gen, self.tracing);
        let mut out = Step::default();
        match *op {
            Op::Ack { rs, .. } => {
                self.r.ack_reference(p, &rs, tracing);
                out.update =
                    rs.pkts != 0 && self.r.tcp.mss != 0 && self.r.s.acked_since_update_bytes == 0;
                out.fast = self.l.ack_leased(p, gen, &rs, tracing);
            }
            Op::FastRecovery { .. } | Op::Rto { .. } | Op::Undo | Op::Idle { .. } => {
                // No law call (and no retire) for an idle restart outside Open.
                if let Some(h) = Hook::of(op, self.r.tcp.ca) {
                    self.r.hook(false, tracing, h, p);
                    self.l.hook(true, tracing, h, p);
                }
            }
            Op::Init { .. } => self.init(),
            Op::Switch | Op::Touch => {
                write_params(matches!(op, Op::Switch), &mut self.which, &mut self.gen);
            }
            Op::Trace(on) => self.tracing = on,
            Op::SetState(_) | Op::Clamp(_) | Op::MaxPacing(_) => {}
        }
        self.check(i, op)?;
        Ok(out)
    }

    pub fn check(&self, i: usize, op: &Op) -> Result<(), TestCaseError> {
        let (r, l) = (&self.r, &self.l);
        prop_assert_eq!(r.tcp, l.tcp, "socket after event {} {:?}", i, op);
        prop_assert_eq!(&r.trace, &l.trace, "trace after event {} {:?}", i, op);
        let mut folded = l.s;
        <Timely as HoldLease>::absorb(&mut folded, l.lease.absorbed_bytes);
        prop_assert_eq!(folded, r.s, "state (folded) after event {} {:?}", i, op);
        // get_info snapshots the live, unfolded state, with the parameters in force now.
        check_views::<Timely>(self.params[self.which], &l.s, &r.s, l.tcp.mss, i, op)
    }
}

/// Run `ops` on both glues (after an init on both when `with_init`); returns the leased glue's
/// (fast, slow) ACK counts.
pub fn run(
    params: [&timely::Params; 2],
    start_ns: u64,
    gen: u32,
    with_init: bool,
    ops: &[Op],
) -> Result<(u32, u32), TestCaseError> {
    let mut pair = Pair::new(params, start_ns, gen);
    if with_init {
        pair.init();
        pair.check(0, &Op::Init { dt: 0 })?;
    }
    for (i, op) in ops.iter().enumerate() {
        pair.step(i, op)?;
    }
    Ok((pair.l.fast, pair.l.slow))
}
