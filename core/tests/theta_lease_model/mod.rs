// SPDX-License-Identifier: GPL-2.0-only
//! The two glues of θ-PowerTCP's hold-lease tests (issue #13), shared by
//! `theta_lease_equivalence.rs` (random sequences) and `theta_lease_directed.rs` (the bench's
//! streams and each boundary): tcp_theta_powertcp's rdcc_glue.c without the lease (reference)
//! and with `RDCC_LEASE_THETA` (leased), on the socket model of `lease_model` (TIMELY's tests:
//! `Tcp`, `Rs`, `Op`, `fill`, `set`, the socket side of every event, the full per-ACK path, the
//! hooks around the law's call (`Hook`), the parameter write and get_info's checks are reused
//! as they are), and the checks after every event.
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

use super::lease_model::{
    ack_full, ack_reference, check_views, fill, set, write_params, Ca, Hook, Line, Op,
    Pair as SocketOps, Rs, Tcp,
};
use core::mem::MaybeUninit;
use proptest::prelude::*;
use rdcc_core::powertcp::{self, on_ack_leased, on_due, DueIn, Take, ThetaLease, ThetaPowerTcp};
use rdcc_core::{Decision, Reason};

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

    /// rdcc_cong_control without the lease.
    pub fn ack_reference(&mut self, p: &powertcp::Params, rs: &Rs, tracing: bool) -> Decision {
        self.full += 1;
        ack_reference::<ThetaPowerTcp>(p, &mut self.s, &mut self.tcp, &mut self.trace, rs, tracing)
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
                    let (mut d, mut e) = (MaybeUninit::uninit(), MaybeUninit::uninit());
                    let (_, e) = on_due(p, &mut self.s, &inp, &mut self.lease, gen, &mut d, &mut e);
                    set(&mut self.tcp, e);
                    // rdcc_trace: the tracepoint is off (tested just above).
                    self.due += 1;
                    return Path::Due;
                }
                Take::Full => {}
            }
        }
        self.full += 1;
        let (s, lease) = (&mut self.s, &mut self.lease);
        ack_full(
            &mut self.tcp,
            &mut self.trace,
            rs,
            tracing,
            |ev, srtt_us, clamp| {
                let (mut d, mut e) = (MaybeUninit::uninit(), MaybeUninit::uninit());
                let (d, e) = on_ack_leased(p, s, ev, srtt_us, clamp, lease, gen, &mut d, &mut e);
                (*d, *e)
            },
        );
        Path::Full
    }

    /// rdcc_loss / rdcc_cwnd_event / rdcc_undo_cwnd / rdcc_init around the law's call:
    /// `leased` ends the lease first (rdcc_lease_retire: one store, nothing to fold).
    pub fn hook(&mut self, leased: bool, tracing: bool, h: Hook, p: &powertcp::Params) {
        if leased {
            self.lease.gen = 0;
        }
        h.run::<ThetaPowerTcp>(p, &mut self.s, &mut self.tcp, &mut self.trace, tracing);
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
    /// `lease_model::Pair::new`'s socket (`Tcp::start`): 1448-byte MSS, clamp 64, window 10,
    /// snd_una 1.
    pub fn new(params: [&'a powertcp::Params; 2], start_ns: u64, gen: u32) -> ThetaPair<'a> {
        let tcp = Tcp::start(start_ns);
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
            g.hook(false, tracing, Hook::Init, p);
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
            Op::FastRecovery { .. } | Op::Rto { .. } | Op::Undo | Op::Idle { .. } => {
                // A loss: set_state(Recovery | Loss), the lease ends first, then rdcc_loss. No
                // law call (and no retire) for an idle restart outside Open.
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
        check_views::<ThetaPowerTcp>(p, &l.s, &r.s, l.tcp.mss, i, op)?;
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
