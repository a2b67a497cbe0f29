//! Transport: TCP-like senders (SACK scoreboard, RACK, RTO, the law's decisions enforced as the
//! kernel glue does) and receivers (cumulative ACK, SACK, delayed ACK, ECN echo).

use super::*;

pub(super) const SEG_INFLIGHT: u8 = 0;
pub(super) const SEG_SACKED: u8 = 1;
pub(super) const SEG_LOST: u8 = 2;
pub(super) const SEG_RETX: u8 = 3;

#[derive(Clone, Copy)]
pub(super) struct Seg {
    pub(super) sent_ns: u64,
    pub(super) state: u8,
}

/// Per-flow sender and receiver state.
pub(super) struct Flow {
    pub(super) spec: FlowSpec,
    pub(super) cc: CcState,
    pub(super) total_segs: u64,
    // sender
    pub(super) started: bool,
    pub(super) done: bool,
    pub(super) una: u64,
    pub(super) nxt: u64,
    pub(super) segs: VecDeque<Seg>,
    pub(super) sacked: u64,
    pub(super) lost_pending: u64,
    pub(super) retx_hint: u64,
    pub(super) rack_ns: u64,
    pub(super) in_recovery: bool,
    pub(super) recovery_seg: u64,
    pub(super) cwnd_pkts: u64,
    pub(super) cwnd_q16: u64,
    pub(super) law_rate_bps: u64,
    pub(super) pacing_bps: u64,
    pub(super) signal: i64,
    pub(super) next_send_ns: u64,
    /// Wire bytes sent in the current pacing burst (`SimConfig::pace_burst_bytes`).
    pub(super) burst_bytes: u64,
    /// When the current pacing burst started, ns.
    pub(super) burst_start_ns: u64,
    pub(super) in_ready: bool,
    pub(super) wake_at: u64,
    pub(super) srtt_ns: u64,
    pub(super) rttvar_ns: u64,
    pub(super) min_rtt_ns: u64,
    pub(super) rto_ns: u64,
    pub(super) rto_deadline: u64,
    pub(super) rto_scheduled: bool,
    pub(super) tlp_deadline: u64,
    pub(super) tlp_scheduled: bool,
    /// A probe was sent and no ACK has advanced `una` since.
    pub(super) tlp_out: bool,
    /// The next transmission is a probe: it may exceed the window by one packet.
    pub(super) probe: bool,
    pub(super) delivered_bytes: u64,
    pub(super) finish_ns: u64,
    pub(super) retransmits: u64,
    /// Data packets of this flow dropped at switches.
    pub(super) drops: u64,
    pub(super) timeouts: u64,
    // receiver
    pub(super) rcv_nxt: u64,
    /// Out-of-order ranges `[start, end)` received above `rcv_nxt`.
    pub(super) ooo: BTreeMap<u64, u64>,
    pub(super) pending_acks: u32,
    pub(super) pending_since_ns: u64,
    pub(super) pending_ce: bool,
    pub(super) last_ce: bool,
    pub(super) delack_deadline: u64,
    pub(super) delack_scheduled: bool,
    pub(super) rx_bytes: u64,
    pub(super) last_hops: u8,
    /// Receiver: the INT stack of the latest data packet, echoed in the next ACK.
    pub(super) last_int: IntStack,
}

impl Sim {
    // ---- sender ------------------------------------------------------------------------

    pub(super) fn on_flow_start(&mut self, f: u32) {
        let now = self.now;
        let mss = self.cfg.mss_bytes;
        let fl = &mut self.flows[f as usize];
        fl.started = true;
        let d = self.profiles[fl.spec.profile]
            .params
            .init(&mut fl.cc, now, mss);
        self.apply(f as usize, d);
        self.try_ready(f);
    }

    pub(super) fn seg_len(&self, f: &Flow, seg: u64) -> u64 {
        let mss = self.cfg.mss_bytes as u64;
        if f.spec.size_bytes > 0 && seg + 1 == f.total_segs {
            f.spec.size_bytes - seg * mss
        } else {
            mss
        }
    }

    pub(super) fn byte_seq(mss: u32, f: &Flow, seg: u64) -> u32 {
        let b = seg.saturating_mul(mss as u64);
        let b = if f.spec.size_bytes > 0 {
            b.min(f.spec.size_bytes)
        } else {
            b
        };
        b as u32 // wrapping, as TCP sequence numbers do
    }

    pub(super) fn apply(&mut self, f: usize, d: Decision) {
        let (mss, header) = (self.cfg.mss_bytes, self.cfg.header_bytes);
        let fl = &mut self.flows[f];
        fl.signal = d.signal;
        if d.cwnd_bytes_q16 == 0 {
            return; // the law has no state yet: leave the window (rdcc_apply)
        }
        fl.cwnd_q16 = d.cwnd_bytes_q16;
        let e = enforce::enforce(&d, mss, fl.srtt_ns);
        fl.cwnd_pkts = e.window_pkts;
        fl.law_rate_bps = d.pacing_rate_bps;
        fl.pacing_bps = if d.pacing_rate_bps > 0 && e.pacing_bps == d.pacing_rate_bps {
            d.pacing_rate_bps // the law's rate, applied to wire bytes as before
        } else {
            // A host-derived rate is of payload (Linux paces skb->len); this NIC paces wire
            // bytes, so scale by wire / payload.
            let wire = u128::from(mss.max(1)) + u128::from(header);
            (u128::from(e.pacing_bps) * wire / u128::from(mss.max(1))).min(u128::from(u64::MAX))
                as u64
        };
    }

    pub(super) fn emit(&mut self, f: usize) -> Packet {
        let now = self.now;
        let ecn = self.profiles[self.flows[f].spec.profile].law.ecn();
        let int = self.profiles[self.flows[f].spec.profile].law.int();
        let header = self.cfg.header_bytes as u64;
        let seg;
        {
            let fl = &mut self.flows[f];
            if fl.lost_pending > 0 {
                let mut i = fl.retx_hint.max(fl.una) - fl.una;
                while fl.segs[i as usize].state != SEG_LOST {
                    i += 1;
                }
                fl.segs[i as usize] = Seg {
                    sent_ns: now,
                    state: SEG_RETX,
                };
                fl.lost_pending -= 1;
                fl.retransmits += 1;
                seg = fl.una + i;
                fl.retx_hint = seg + 1;
                self.c.retransmits += 1;
            } else {
                seg = fl.nxt;
                fl.segs.push_back(Seg {
                    sent_ns: now,
                    state: SEG_INFLIGHT,
                });
                fl.nxt += 1;
            }
        }
        let len = self.seg_len(&self.flows[f], seg);
        let wire = len + header;
        let burst = self.cfg.pace_burst_bytes;
        let fl = &mut self.flows[f];
        if fl.pacing_bps > 0 && (burst == 0 || fl.law_rate_bps == 0) {
            fl.next_send_ns = now + (wire as u128 * 1_000_000_000 / fl.pacing_bps as u128) as u64;
        } else if fl.pacing_bps > 0 {
            // TIMELY §3.3: a segment leaves as a burst; the next one is due burst / R after
            // this one started (send time = last send time + segment size / rate).
            if fl.burst_bytes == 0 {
                fl.burst_start_ns = now;
            }
            fl.burst_bytes += wire;
            if fl.burst_bytes >= burst {
                fl.next_send_ns = fl.burst_start_ns
                    + (fl.burst_bytes as u128 * 1_000_000_000 / fl.pacing_bps as u128) as u64;
                fl.burst_bytes = 0;
            } else {
                fl.next_send_ns = now;
            }
        }
        fl.probe = false;
        if fl.rto_deadline == 0 {
            self.arm_rto(f);
        }
        self.arm_tlp(f);
        self.c.data_sent += 1;
        let fl = &self.flows[f];
        Packet {
            seg,
            sack: NO_SACK,
            blocks: [0; 6],
            flow: f as u32,
            dst: fl.spec.dst,
            wire: wire as u32,
            hold_ns: 0,
            rx_ns: 0,
            in_port: 0,
            hops: 0,
            flags: if ecn { PKT_ECT } else { 0 } | if int { PKT_INT } else { 0 },
            int: IntStack::EMPTY,
        }
    }

    pub(super) fn arm_rto(&mut self, f: usize) {
        let now = self.now;
        let fl = &mut self.flows[f];
        fl.rto_deadline = now + fl.rto_ns;
        if !fl.rto_scheduled {
            fl.rto_scheduled = true;
            let t = fl.rto_deadline;
            self.schedule(t, Ev::Rto(f as u32));
        }
    }

    /// Arm the tail-loss probe (RFC 8985 §7.2): PTO = 2 x srtt, plus the delayed-ACK timeout
    /// when one segment is in flight and the receiver delays ACKs; not beyond the RTO, not in
    /// recovery, not before the first RTT sample, one probe per ACK that advances `una`.
    pub(super) fn arm_tlp(&mut self, f: usize) {
        let now = self.now;
        let (tlp, ack_every, delack) = (self.cfg.tlp, self.cfg.ack_every, self.cfg.delack_ns);
        let fl = &mut self.flows[f];
        if !tlp || fl.in_recovery || fl.tlp_out || fl.srtt_ns == 0 || fl.nxt == fl.una {
            return;
        }
        let mut pto = 2 * fl.srtt_ns;
        if ack_every > 1 && Self::pipe(fl) == 1 {
            pto += delack;
        }
        let t = now + pto;
        if fl.rto_deadline != 0 && t >= fl.rto_deadline {
            fl.tlp_deadline = 0;
            return;
        }
        fl.tlp_deadline = t;
        if !fl.tlp_scheduled {
            fl.tlp_scheduled = true;
            self.schedule(t, Ev::Tlp(f as u32));
        }
    }

    /// The probe timer: send new data if there is some, else the highest sent segment again.
    pub(super) fn on_tlp(&mut self, f: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        fl.tlp_scheduled = false;
        if fl.done || fl.tlp_deadline == 0 || fl.in_recovery || fl.tlp_out || fl.nxt == fl.una {
            return;
        }
        if now < fl.tlp_deadline {
            fl.tlp_scheduled = true;
            let t = fl.tlp_deadline;
            self.schedule(t, Ev::Tlp(f));
            return;
        }
        fl.tlp_deadline = 0;
        fl.tlp_out = true;
        fl.probe = true;
        if fl.nxt >= fl.total_segs && fl.lost_pending == 0 {
            // No new data: retransmit the last segment (its SACK lets RACK find the rest).
            let i = (fl.nxt - 1 - fl.una) as usize;
            if fl.segs[i].state == SEG_INFLIGHT || fl.segs[i].state == SEG_RETX {
                fl.segs[i].state = SEG_LOST;
                fl.lost_pending += 1;
                fl.retx_hint = fl.nxt - 1;
            } else {
                fl.probe = false;
                return;
            }
        }
        self.c.tlp_probes += 1;
        self.arm_rto(f as usize);
        self.try_ready(f);
    }

    pub(super) fn on_rto(&mut self, f: u32) {
        let now = self.now;
        let fu = f as usize;
        let fl = &mut self.flows[fu];
        fl.rto_scheduled = false;
        if fl.done || fl.rto_deadline == 0 {
            return;
        }
        if now < fl.rto_deadline {
            fl.rto_scheduled = true;
            let t = fl.rto_deadline;
            self.schedule(t, Ev::Rto(f));
            return;
        }
        if fl.nxt == fl.una {
            fl.rto_deadline = 0;
            return;
        }
        // Timeout: everything not SACKed is lost (go-back with SACK), back off.
        for s in fl.segs.iter_mut() {
            if s.state == SEG_INFLIGHT || s.state == SEG_RETX {
                s.state = SEG_LOST;
                fl.lost_pending += 1;
            }
        }
        fl.retx_hint = fl.una;
        fl.in_recovery = true;
        fl.recovery_seg = fl.nxt;
        fl.rto_ns = (fl.rto_ns * 2).min(1_000_000_000);
        fl.timeouts += 1;
        fl.next_send_ns = now;
        self.c.timeouts += 1;
        let ev = LossEvent {
            now_ns: now,
            mss_bytes: self.cfg.mss_bytes,
            kind: LossKind::RetransmitTimeout,
        };
        let d = self.profiles[fl.spec.profile]
            .params
            .on_loss(&mut fl.cc, &ev);
        self.apply(fu, d);
        self.flows[fu].rto_deadline = 0;
        self.arm_rto(fu);
        self.try_ready(f);
    }

    pub(super) fn on_ack_pkt(&mut self, pkt: Packet) {
        let now = self.now;
        let f = pkt.flow as usize;
        if self.flows[f].done {
            return;
        }
        let mss = self.cfg.mss_bytes;
        let mut acked_bytes = 0u64;
        // (sent time, retransmitted) of the most recently sent newly delivered segment.
        let mut newest: Option<(u64, bool)> = None;
        let cum = pkt.seg;
        let advanced;
        {
            let size = self.flows[f].spec.size_bytes;
            let total = self.flows[f].total_segs;
            let mss64 = mss as u64;
            let len = |seg: u64| {
                if size > 0 && seg + 1 == total {
                    size - seg * mss64
                } else {
                    mss64
                }
            };
            let fl = &mut self.flows[f];
            advanced = cum > fl.una;
            let note = |s: Seg, newest: &mut Option<(u64, bool)>| {
                let later = match *newest {
                    None => true,
                    Some((t, _)) => s.sent_ns > t,
                };
                if later {
                    *newest = Some((s.sent_ns, s.state == SEG_RETX));
                }
            };
            while fl.una < cum && fl.una < fl.nxt {
                let s = fl.segs.pop_front().expect("segment in flight");
                match s.state {
                    SEG_SACKED => fl.sacked -= 1,
                    SEG_LOST => {
                        fl.lost_pending -= 1;
                        acked_bytes += len(fl.una);
                    }
                    _ => {
                        acked_bytes += len(fl.una);
                        note(s, &mut newest);
                    }
                }
                fl.una += 1;
            }
            // Mark `seg` SACKed; false if it already was (or is outside the window).
            let mut mark = |fl: &mut Flow, seg: u64, newest: &mut Option<(u64, bool)>| {
                if seg < fl.una || seg >= fl.nxt {
                    return false;
                }
                let i = (seg - fl.una) as usize;
                let s = fl.segs[i];
                if s.state == SEG_SACKED {
                    return false;
                }
                if s.state == SEG_LOST {
                    fl.lost_pending -= 1;
                } else {
                    note(s, newest);
                }
                fl.segs[i].state = SEG_SACKED;
                fl.sacked += 1;
                acked_bytes += len(seg);
                true
            };
            // Blocks first, then the ACK's own segment: walk in from both ends of each block
            // until a segment already SACKed. Between two ACKs a block only grows at its ends
            // (by the segments whose ACKs were lost, too), except where a retransmission fills
            // a gap between two blocks, and that segment is the ACK's `sack`, marked after.
            // So this is exact unless a block drops out of the three reported (then RACK may
            // retransmit a segment that had arrived), and costs only the newly SACKed segments.
            for b in pkt.blocks.chunks_exact(2) {
                if b[1] <= b[0] {
                    continue;
                }
                let (lo, hi) = (cum + b[0] as u64, cum + b[1] as u64);
                let mut x = hi;
                while x > lo && mark(fl, x - 1, &mut newest) {
                    x -= 1;
                }
                let mut y = lo;
                while y < x && mark(fl, y, &mut newest) {
                    y += 1;
                }
            }
            if pkt.sack != NO_SACK {
                mark(fl, pkt.sack, &mut newest);
            }
            // RACK: a delivered segment sent at T proves every segment sent before T and
            // still outstanding lost (paths are FIFO; a retransmission's delivery counts only
            // if it came at least min_rtt after the retransmission, i.e. is not ambiguous).
            if let Some((t, retx)) = newest {
                if (!retx || now.saturating_sub(t) >= fl.min_rtt_ns) && t > fl.rack_ns {
                    fl.rack_ns = t;
                }
            }
        }
        let mut newly_lost = false;
        {
            let fl = &mut self.flows[f];
            if fl.sacked > 0 {
                for s in fl.segs.iter_mut() {
                    if (s.state == SEG_INFLIGHT || s.state == SEG_RETX) && s.sent_ns < fl.rack_ns {
                        s.state = SEG_LOST;
                        fl.lost_pending += 1;
                        newly_lost = true;
                    }
                }
                if newly_lost {
                    fl.retx_hint = fl.una;
                }
            }
            if fl.in_recovery && fl.una >= fl.recovery_seg {
                fl.in_recovery = false;
            }
        }
        if newly_lost && !self.flows[f].in_recovery {
            let fl = &mut self.flows[f];
            fl.in_recovery = true;
            fl.recovery_seg = fl.nxt;
            let ev = LossEvent {
                now_ns: now,
                mss_bytes: mss,
                kind: LossKind::FastRecovery,
            };
            let d = self.profiles[fl.spec.profile]
                .params
                .on_loss(&mut fl.cc, &ev);
            self.apply(f, d);
        }
        // RTT sample: the most recently sent newly delivered segment; none if retransmitted
        // (Karn).
        let mut flags = 0u32;
        let mut rtt_fed = 0u64;
        if let Some((t, false)) = newest {
            let rtt = now - t;
            {
                let fl = &mut self.flows[f];
                fl.min_rtt_ns = fl.min_rtt_ns.min(rtt);
                if fl.srtt_ns == 0 {
                    fl.srtt_ns = rtt;
                    fl.rttvar_ns = rtt / 2;
                } else {
                    let err = fl.srtt_ns.abs_diff(rtt);
                    fl.rttvar_ns = (3 * fl.rttvar_ns + err) / 4;
                    fl.srtt_ns = (7 * fl.srtt_ns + rtt) / 8;
                }
                fl.rto_ns = (fl.srtt_ns + 4 * fl.rttvar_ns).max(self.cfg.min_rto_ns);
            }
            if now >= self.cfg.measure_from_ns {
                self.rtt_samples.push(rtt.min(u32::MAX as u64) as u32);
                self.rtt_flows.push(f as u32);
            }
            let mut r = rtt;
            if self.cfg.rtt_noise_ns > 0 {
                r += self.rng.below(self.cfg.rtt_noise_ns + 1);
            }
            if self.cfg.rtt_quantum_ns > 1 {
                // Linux: difference of µs-truncated timestamps.
                let q = self.cfg.rtt_quantum_ns;
                r = ((t + r) / q).saturating_sub(t / q) * q;
            }
            if r > 0 {
                rtt_fed = r;
                flags |= ACK_HAS_RTT;
            }
        }
        let fl = &mut self.flows[f];
        fl.delivered_bytes += acked_bytes;
        if pkt.flags & PKT_ECE != 0 {
            flags |= ACK_ECE;
        }
        if pkt.flags & PKT_DELAYED != 0 {
            flags |= ACK_DELAYED;
        }
        if fl.in_recovery {
            flags |= ACK_IN_RECOVERY;
        }
        if fl.nxt >= fl.total_segs && fl.lost_pending == 0 && Self::pipe(fl) < fl.cwnd_pkts {
            flags |= ACK_APP_LIMITED;
        }
        if self.cfg.remote_delay {
            flags |= ACK_HAS_REMOTE_DELAY;
            if self.hosts[fl.spec.src as usize].rx.is_some() {
                flags |= ACK_HAS_LOCAL_RX;
            }
        }
        if self.cfg.echo_hops {
            flags |= ACK_HAS_HOPS;
        }
        let una_b = Self::byte_seq(mss, fl, fl.una);
        let nxt_b = Self::byte_seq(mss, fl, fl.nxt);
        let ev = AckEvent {
            now_ns: now,
            rtt_ns: rtt_fed,
            remote_delay_ns: pkt.hold_ns as u64,
            delivered_bytes: fl.delivered_bytes,
            acked_bytes: acked_bytes.min(u32::MAX as u64) as u32,
            inflight_bytes: (Self::pipe(fl) * mss as u64).min(u32::MAX as u64) as u32,
            mss_bytes: mss,
            snd_una: una_b,
            snd_nxt: nxt_b,
            flags,
            hops: pkt.hops,
            _pad: [0; 3],
            // The ACK's time in the sender's receive path (0 without one).
            local_rx_delay_ns: pkt.rx_ns,
            telemetry: 0,
        };
        if let Some(log) = self.int_log.as_mut() {
            log.acks.push((pkt.flow, pkt.seg, pkt.int));
        }
        let d = self.profiles[fl.spec.profile]
            .params
            .on_ack(&mut fl.cc, &ev, &pkt.int);
        if now >= self.cfg.measure_from_ns {
            if d.flags & DEC_ENDPOINT_BINDS != 0 {
                self.c.endpoint_binds += 1;
            }
            self.c.acks_processed += 1;
        }
        self.apply(f, d);
        let fl = &mut self.flows[f];
        if fl.una >= fl.total_segs {
            fl.done = true;
            fl.finish_ns = now;
            fl.rto_deadline = 0;
            return;
        }
        if advanced {
            fl.tlp_out = false;
            if fl.nxt > fl.una {
                self.arm_rto(f);
                self.arm_tlp(f);
            } else {
                fl.rto_deadline = 0;
                fl.tlp_deadline = 0;
            }
        }
        self.try_ready(f as u32);
    }

    // ---- receiver ----------------------------------------------------------------------

    pub(super) fn on_data(&mut self, pkt: Packet) {
        let now = self.now;
        let f = pkt.flow as usize;
        self.c.data_delivered += 1;
        let mss = self.cfg.mss_bytes as u64;
        let ack_every = self.cfg.ack_every.max(1);
        let (size, total) = (self.flows[f].spec.size_bytes, self.flows[f].total_segs);
        let len = |seg: u64| {
            if size > 0 && seg + 1 == total {
                size - seg * mss
            } else {
                mss
            }
        };
        let fl = &mut self.flows[f];
        fl.last_hops = pkt.hops;
        fl.last_int = pkt.int;
        let ce = pkt.flags & PKT_CE != 0;
        let mut immediate = false;
        let mut sack = NO_SACK;
        if ce != fl.last_ce {
            // DCTCP receiver: a change of CE state flushes pending ACKs with the old state.
            if fl.pending_acks > 0 {
                self.send_ack(f, NO_SACK, false);
            }
            let fl = &mut self.flows[f];
            fl.last_ce = ce;
        }
        let fl = &mut self.flows[f];
        fl.pending_ce |= ce;
        if pkt.seg < fl.rcv_nxt {
            immediate = true; // duplicate
        } else if pkt.seg == fl.rcv_nxt {
            fl.rx_bytes += len(fl.rcv_nxt);
            fl.rcv_nxt += 1;
            let had_hole = !fl.ooo.is_empty();
            if let Some(e) = fl.ooo.remove(&fl.rcv_nxt) {
                // Every segment of [rcv_nxt, e) is full-sized except possibly the last.
                fl.rx_bytes += (e - 1 - fl.rcv_nxt) * mss + len(e - 1);
                fl.rcv_nxt = e;
            }
            if had_hole {
                immediate = true;
            }
        } else {
            ooo_insert(&mut fl.ooo, pkt.seg);
            sack = pkt.seg;
            immediate = true;
        }
        if fl.pending_acks == 0 {
            // The hold runs from the NIC arrival (receive path included), as Swift's
            // NIC-timestamped remote delay does (§3.3).
            fl.pending_since_ns = now - pkt.rx_ns as u64;
        }
        fl.pending_acks += 1;
        if immediate || fl.pending_acks >= ack_every {
            self.send_ack(f, sack, false);
        } else {
            fl.delack_deadline = now + self.cfg.delack_ns;
            if !fl.delack_scheduled {
                fl.delack_scheduled = true;
                let t = fl.delack_deadline;
                self.schedule(t, Ev::DelAck(f as u32));
            }
        }
    }

    pub(super) fn on_delack(&mut self, f: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        fl.delack_scheduled = false;
        if fl.pending_acks == 0 {
            return;
        }
        if now < fl.delack_deadline {
            fl.delack_scheduled = true;
            let t = fl.delack_deadline;
            self.schedule(t, Ev::DelAck(f));
            return;
        }
        self.send_ack(f as usize, NO_SACK, true);
    }

    pub(super) fn send_ack(&mut self, f: usize, sack: u64, delayed: bool) {
        let now = self.now;
        let fl = &mut self.flows[f];
        let mut flags = PKT_ACK;
        if fl.pending_ce {
            flags |= PKT_ECE;
        }
        if delayed {
            flags |= PKT_DELAYED;
        }
        let hold = now.saturating_sub(fl.pending_since_ns).min(u32::MAX as u64) as u32;
        fl.pending_acks = 0;
        fl.pending_ce = false;
        let blocks = sack_blocks(&fl.ooo, fl.rcv_nxt, sack);
        let pkt = Packet {
            seg: fl.rcv_nxt,
            sack,
            blocks,
            flow: f as u32,
            dst: fl.spec.src,
            wire: self.cfg.ack_bytes,
            hold_ns: hold,
            rx_ns: 0,
            in_port: 0,
            hops: fl.last_hops,
            flags,
            int: fl.last_int,
        };
        let h = fl.spec.dst;
        let node = self.hosts[h as usize].node;
        let p = &mut self.nodes[node as usize].ports[0];
        p.queue.push_back(pkt);
        p.queue_bytes += pkt.wire as u64;
        if !p.busy {
            self.start_tx(node, 0);
        }
    }
}

/// Insert segment `s` into the out-of-order ranges, merging with its neighbours.
fn ooo_insert(ooo: &mut BTreeMap<u64, u64>, s: u64) {
    let mut start = s;
    let mut end = s + 1;
    if let Some((&a, &b)) = ooo.range(..=s).next_back() {
        if b > s {
            return; // already held
        }
        if b == s {
            start = a;
        }
    }
    if let Some(e) = ooo.remove(&end) {
        end = e;
    }
    ooo.insert(start, end);
}

/// Up to 3 SACK blocks as offsets from `cum`: the range holding `sack` first, then the lowest
/// other ranges (RFC 2018 §4 asks for the most recently reported ones; the lowest are the
/// ones the sender's recovery needs first).
fn sack_blocks(ooo: &BTreeMap<u64, u64>, cum: u64, sack: u64) -> [u32; 6] {
    let mut b = [0u32; 6];
    let mut n = 0;
    let first = if sack != NO_SACK {
        ooo.range(..=sack)
            .next_back()
            .filter(|(_, &e)| e > sack)
            .map(|(&a, &e)| (a, e))
    } else {
        None
    };
    let rest = ooo
        .iter()
        .map(|(&a, &e)| (a, e))
        .filter(|r| Some(*r) != first && r.0 >= cum);
    for (a, e) in first.into_iter().chain(rest) {
        if n >= 3 {
            break;
        }
        if let (Ok(x), Ok(y)) = (u32::try_from(a - cum), u32::try_from(e - cum)) {
            b[2 * n] = x;
            b[2 * n + 1] = y;
            n += 1;
        }
    }
    b
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ranges(segs: &[u64]) -> BTreeMap<u64, u64> {
        let mut m = BTreeMap::new();
        for &s in segs {
            ooo_insert(&mut m, s);
        }
        m
    }

    /// Segments inserted in this order, expected `[start, end)` ranges.
    type Case<'a> = (&'a [u64], &'a [(u64, u64)]);

    #[test]
    fn out_of_order_segments_merge_into_ranges() {
        let cases: &[Case] = &[
            (&[5], &[(5, 6)]),
            (&[5, 6, 7], &[(5, 8)]),
            (&[7, 6, 5], &[(5, 8)]),
            (&[5, 7], &[(5, 6), (7, 8)]),
            (&[5, 7, 6], &[(5, 8)]),
            (&[5, 5, 6, 5], &[(5, 7)]),
            (&[10, 3, 4, 12, 11], &[(3, 5), (10, 13)]),
        ];
        for (segs, want) in cases {
            let got: Vec<(u64, u64)> = ranges(segs).into_iter().collect();
            assert_eq!(got, *want, "{segs:?}");
        }
    }

    #[test]
    fn sack_blocks_put_the_new_segment_first_then_the_lowest() {
        // Received above cum = 2: [4,6) [8,9) [11,14) [20,21); the ACK for segment 12.
        let m = ranges(&[4, 5, 8, 11, 12, 13, 20]);
        assert_eq!(sack_blocks(&m, 2, 12), [9, 12, 2, 4, 6, 7]);
        // For segment 20: its block, then the two lowest.
        assert_eq!(sack_blocks(&m, 2, 20), [18, 19, 2, 4, 6, 7]);
        // No new segment (a delayed or in-order ACK): the three lowest.
        assert_eq!(sack_blocks(&m, 2, NO_SACK), [2, 4, 6, 7, 9, 12]);
        // Nothing out of order: no blocks.
        assert_eq!(sack_blocks(&BTreeMap::new(), 2, NO_SACK), [0; 6]);
    }
}
