// SPDX-License-Identifier: GPL-2.0-only
//! The two glues of θ-PowerTCP's hold-lease tests (issue #13), shared by
//! `theta_lease_equivalence.rs` (random sequences) and `theta_lease_directed.rs` (the bench's
//! streams and each boundary): tcp_theta_powertcp's rdcc_glue.c without the lease (reference)
//! and with `RDCC_LEASE_THETA` (leased), on the socket model of `lease_model` (TIMELY's tests:
//! `Tcp`, `Rs`, `Op`, `fill`, `set` and the socket side of every event are reused as they are),
//! and the checks after every event.
//!
//! The leased glue, as rdcc_glue.c runs it:
//! - `cong_control`: while the tracepoint is off, `ThetaLease::take` (the C fast path
//!   transcribed; KUnit `rdcc_glue_theta_lease` holds the C to it). Hold: the take stepped the
//!   state, the window and rate are set. Due: `on_due` with the take's time, sample and average,
//!   `rdcc_set`, no Loss-state rule (`rdcc_theta_due_slow`; its second take with the acquired
//!   generation is this one: the model writes parameters only between events). Full, or
//!   tracing: `on_ack_leased`, `rdcc_set`, the Loss-state rule and the trace (`rdcc_ack_full`);
//! - `set_state` into Recovery or Loss ends the lease first (`gen = 0`), whether or not the law
//!   is called (a PMTU Loss is not a loss event for it);
//! - loss, undo and idle restart end the lease before the law runs (`rdcc_lease_retire`: one
//!   store, nothing to fold), init clears it, a parameter write bumps the generation.
#![allow(dead_code)] // each test file uses the part it needs

use super::lease_model::{fill, set, Ca, Line, Op, Pair as SocketOps, Rs, Tcp};
use proptest::prelude::*;
use rdcc_core::event::Enforced;
use rdcc_core::powertcp::{self, on_ack_leased, on_due, DueIn, Take, ThetaLease, ThetaPowerTcp};
use rdcc_core::{Controller, Decision, LossEvent, LossKind, Reason};

/// The way an ACK went through the leased glue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Path {
    /// The fast path took it as a hold.
    Hold,
    /// The fast path found it due; the due path ran the update.
    Due,
    /// The full path (no lease, a key changed, a restart, tracing, ...).
    Full,
}

/// One socket under one of the two glues.
pub struct Glue {
    pub s: powertcp::State,
    pub lease: ThetaLease,
    pub tcp: Tcp,
    pub trace: Vec<Line>,
    /// ACKs of the leased glue by path.
    pub hold: u32,
    pub due: u32,
    pub full: u32,
}

impl Glue {
    pub fn new(tcp: Tcp) -> Glue {
        Glue {
            s: powertcp::State::default(),
            lease: ThetaLease::default(),
            tcp,
            trace: Vec::new(),
            hold: 0,
            due: 0,
            full: 0,
        }
    }

    /// The end of the full per-ACK path after rdcc_set: the Loss-state window rule, the trace.
    fn ack_tail(&mut self, prior: u32, pkts: u32, d: &Decision, rtt_ns: u64, tracing: bool) {
        if self.tcp.ca == Ca::Loss {
            // min(cwnd, max_t(u32, prior_cwnd + rs->acked_sacked, 1)): a u32 sum, wrapping as in C.
            self.tcp.snd_cwnd = self.tcp.snd_cwnd.min(prior.wrapping_add(pkts).max(1));
        }
        if tracing {
            self.trace
                .push((self.tcp.now_ns, rtt_ns, *d, self.tcp.pacing));
        }
    }

    /// rdcc_cong_control without the lease.
    pub fn ack_reference(&mut self, p: &powertcp::Params, rs: &Rs, tracing: bool) -> Decision {
        self.full += 1;
        let prior = self.tcp.snd_cwnd;
        let ev = fill(&self.tcp, rs);
        let d = ThetaPowerTcp::on_ack(p, &mut self.s, &ev);
        let e = d.enforce(ev.mss_bytes, self.tcp.srtt_us, self.tcp.clamp);
        set(&mut self.tcp, &e);
        self.ack_tail(prior, rs.pkts, &d, ev.rtt_ns, tracing);
        d
    }

    /// rdcc_cong_control with RDCC_LEASE_THETA.
    pub fn ack_leased(&mut self, p: &powertcp::Params, gen: u32, rs: &Rs, tracing: bool) -> Path {
        let t = self.tcp;
        if !tracing {
            match self
                .lease
                .take(&mut self.s, gen, t.mss, t.clamp, t.now_ns, rs.rtt_us, t.una)
            {
                Take::Hold(e) => {
                    // rdcc_theta_take's stores (e.cwnd_pkts >= 1 always).
                    self.tcp.snd_cwnd = e.cwnd_pkts;
                    self.tcp.pacing = e.pacing_rate_bps.min(t.max_pacing);
                    self.hold += 1;
                    return Path::Hold;
                }
                Take::Due {
                    now_ns,
                    rtt_ns,
                    rtt_smooth_ns,
                } => {
                    // rdcc_theta_due_slow.
                    let inp = DueIn {
                        now_ns,
                        rtt_ns,
                        rtt_smooth_ns,
                        snd_una: t.una,
                        snd_nxt: fill(&t, rs).snd_nxt,
                        mss: t.mss,
                        srtt_us: t.srtt_us,
                        clamp_pkts: t.clamp,
                    };
                    let (mut d, mut e) = (Decision::default(), Enforced::default());
                    on_due(p, &mut self.s, &inp, &mut self.lease, gen, &mut d, &mut e);
                    set(&mut self.tcp, &e);
                    // rdcc_trace: the tracepoint is off (tested just above).
                    self.due += 1;
                    return Path::Due;
                }
                Take::Full => {}
            }
        }
        self.full += 1;
        let prior = self.tcp.snd_cwnd;
        let ev = fill(&self.tcp, rs);
        let (mut d, mut e) = (Decision::default(), Enforced::default());
        on_ack_leased(
            p,
            &mut self.s,
            &ev,
            self.tcp.srtt_us,
            self.tcp.clamp,
            &mut self.lease,
            gen,
            &mut d,
            &mut e,
        );
        set(&mut self.tcp, &e);
        self.ack_tail(prior, rs.pkts, &d, ev.rtt_ns, tracing);
        Path::Full
    }

    /// rdcc_loss / rdcc_cwnd_event / rdcc_undo_cwnd / rdcc_init around the law's call:
    /// `leased` ends the lease first (rdcc_lease_retire); `rto` keeps the kernel's window if it
    /// is smaller.
    pub fn hook(
        &mut self,
        leased: bool,
        tracing: bool,
        rto: bool,
        law: impl FnOnce(&mut powertcp::State, &Tcp) -> Decision,
    ) {
        if leased {
            self.lease.gen = 0;
        }
        let kernel_cwnd = self.tcp.snd_cwnd;
        let d = law(&mut self.s, &self.tcp);
        // rdcc_apply
        let e = d.enforce(self.tcp.mss, self.tcp.srtt_us, self.tcp.clamp);
        set(&mut self.tcp, &e);
        if rto && self.tcp.snd_cwnd > kernel_cwnd {
            self.tcp.snd_cwnd = kernel_cwnd;
        }
        if tracing {
            self.trace.push((self.tcp.now_ns, 0, d, self.tcp.pacing));
        }
    }
}

/// What one event did, for the directed tests.
#[derive(Clone, Copy, Debug, Default)]
pub struct Step {
    /// The leased glue's path, for an ACK.
    pub path: Option<Path>,
    /// An ACK on which the reference updated the window (Alg. 2 line 31).
    pub update: bool,
}

/// The two glues on one event sequence, with the parameter sets, the generation and the
/// tracepoint they share.
pub struct ThetaPair<'a> {
    pub params: [&'a powertcp::Params; 2],
    pub which: usize,
    pub gen: u32,
    pub tracing: bool,
    pub r: Glue,
    pub l: Glue,
}

impl<'a> ThetaPair<'a> {
    /// `lease_model::Pair::new`'s socket: 1448-byte MSS, clamp 64, window 10, snd_una 1.
    pub fn new(params: [&'a powertcp::Params; 2], start_ns: u64, gen: u32) -> ThetaPair<'a> {
        let tcp = Tcp {
            now_ns: start_ns,
            mss: 1448,
            srtt_us: 25,
            clamp: 64,
            ca: Ca::Open,
            packets_out: 0,
            una: 1,
            snd_cwnd: 10,
            pacing: u64::MAX,
            max_pacing: u64::MAX,
        };
        ThetaPair {
            params,
            which: 0,
            gen,
            tracing: false,
            r: Glue::new(tcp),
            l: Glue::new(tcp),
        }
    }

    /// Set a socket field on both glues before the first event.
    pub fn with_tcp(mut self, f: impl Fn(&mut Tcp)) -> Self {
        f(&mut self.r.tcp);
        f(&mut self.l.tcp);
        self
    }

    /// Init on both (the glue's memset clears the lease; the law replaces the state).
    pub fn init(&mut self) {
        let p = self.params[self.which];
        let tracing = self.tracing;
        for g in [&mut self.r, &mut self.l] {
            g.lease = ThetaLease::default();
            g.hook(false, tracing, false, |s, t| {
                ThetaPowerTcp::init(p, s, t.now_ns, t.mss)
            });
        }
    }

    /// Event `i`, then every check.
    pub fn step(&mut self, i: usize, op: &Op) -> Result<Step, TestCaseError> {
        SocketOps::socket(&mut self.r.tcp, op);
        SocketOps::socket(&mut self.l.tcp, op);
        let p = self.params[self.which];
        let (gen, tracing) = (self.gen, self.tracing);
        let mut out = Step::default();
        match *op {
            Op::Ack { rs, .. } => {
                let d = self.r.ack_reference(p, &rs, tracing);
                out.update = d.reason == Reason::GradientUpdate;
                out.path = Some(self.l.ack_leased(p, gen, &rs, tracing));
            }
            Op::FastRecovery { .. } | Op::Rto { .. } => {
                let kind = if matches!(op, Op::Rto { .. }) {
                    LossKind::RetransmitTimeout
                } else {
                    LossKind::FastRecovery
                };
                let rto = kind == LossKind::RetransmitTimeout;
                let law = |s: &mut powertcp::State, t: &Tcp| {
                    let ev = LossEvent {
                        now_ns: t.now_ns,
                        mss_bytes: t.mss,
                        kind,
                    };
                    ThetaPowerTcp::on_loss(p, s, &ev)
                };
                // set_state(Recovery | Loss): the lease ends first, then rdcc_loss.
                self.r.hook(false, tracing, rto, law);
                self.l.hook(true, tracing, rto, law);
            }
            Op::Undo => {
                let law = |s: &mut powertcp::State, t: &Tcp| ThetaPowerTcp::on_undo(p, s, t.mss);
                self.r.hook(false, tracing, false, law);
                self.l.hook(true, tracing, false, law);
            }
            Op::Idle { .. } => {
                // rdcc_cwnd_event returns before the law (and the retire) outside Open.
                if self.r.tcp.ca == Ca::Open {
                    let law = |s: &mut powertcp::State, t: &Tcp| {
                        ThetaPowerTcp::on_idle_restart(p, s, t.now_ns, t.mss)
                    };
                    self.r.hook(false, tracing, false, law);
                    self.l.hook(true, tracing, false, law);
                }
            }
            Op::Init { .. } => self.init(),
            Op::Switch | Op::Touch => {
                if matches!(op, Op::Switch) {
                    self.which ^= 1;
                }
                // rdcc_params_gen_bump: never 0.
                self.gen = self.gen.wrapping_add(1).max(1);
            }
            Op::Trace(on) => self.tracing = on,
            Op::SetState(ca) => {
                // rdcc_set_state under RDCC_LEASE_THETA, before any law call.
                if ca >= Ca::Recovery {
                    self.l.lease.gen = 0;
                }
            }
            Op::Clamp(_) | Op::MaxPacing(_) => {}
        }
        self.check(i, op)?;
        Ok(out)
    }

    pub fn check(&self, i: usize, op: &Op) -> Result<(), TestCaseError> {
        let (r, l) = (&self.r, &self.l);
        prop_assert_eq!(r.tcp, l.tcp, "socket after event {} {:?}", i, op);
        prop_assert_eq!(&r.trace, &l.trace, "trace after event {} {:?}", i, op);
        // No fold: the leased glue's live state is the law's state, every field.
        prop_assert_eq!(l.s, r.s, "state after event {} {:?}", i, op);
        let p = self.params[self.which];
        for m in [l.tcp.mss, 9000] {
            prop_assert_eq!(
                ThetaPowerTcp::current(p, &l.s, m),
                ThetaPowerTcp::current(p, &r.s, m),
                "current({}) after event {} {:?}",
                m,
                i,
                op
            );
        }
        prop_assert_eq!(
            ThetaPowerTcp::report(p, &l.s),
            ThetaPowerTcp::report(p, &r.s),
            "report after event {} {:?}",
            i,
            op
        );
        // O1: no lease lives in Recovery or Loss.
        prop_assert!(
            l.tcp.ca < Ca::Recovery || l.lease.gen == 0,
            "a lease in {:?} after event {} {:?}",
            l.tcp.ca,
            i,
            op
        );
        // A lease of the current generation was granted under the current parameters, and
        // only the per-RTT cadence with a configured τ is leased.
        prop_assert!(
            l.lease.gen != self.gen || (!p.per_ack() && !p.min_rtt_tau()),
            "a lease in an unleased mode after event {} {:?}",
            i,
            op
        );
        Ok(())
    }
}

/// Run `ops` on both glues (after an init on both when `with_init`); returns the leased glue's
/// (hold, due, full) ACK counts.
pub fn run(
    params: [&powertcp::Params; 2],
    start_ns: u64,
    gen: u32,
    with_init: bool,
    ops: &[Op],
) -> Result<(u32, u32, u32), TestCaseError> {
    let mut pair = ThetaPair::new(params, start_ns, gen);
    if with_init {
        pair.init();
        pair.check(0, &Op::Init { dt: 0 })?;
    }
    for (i, op) in ops.iter().enumerate() {
        pair.step(i, op)?;
    }
    Ok((pair.l.hold, pair.l.due, pair.l.full))
}
