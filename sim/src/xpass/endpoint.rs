//! ExpressPass end hosts: the sender (credit request and RTO, one data packet per credit,
//! CREDIT_STOP, go-back-N on a NACK) and the receiver (credit timer with the core's law, data
//! accounting, NACK on a hole). The law itself is `rdcc_core::expresspass`.

use super::port::{XPkt, KIND_CREDIT, KIND_DATA, KIND_NACK, KIND_REQUEST, KIND_STOP};
use super::{Ev, XpassSim};

impl XpassSim {
    // ---- sender ----------------------------------------------------------------------------

    pub(super) fn on_flow_start(&mut self, f: usize) {
        self.flows[f].started = true;
        self.request(f);
    }

    pub(super) fn request(&mut self, f: usize) {
        let now = self.now;
        if self.flows[f].tx.on_backlog(now) {
            self.flows[f].session += 1;
            self.send_request(f);
            self.arm_rto(f);
        }
    }

    /// CREDIT_REQUEST of the current session, through the host's in-order processing (so it
    /// never overtakes an earlier CREDIT_STOP of the same flow).
    fn send_request(&mut self, f: usize) {
        let pkt = self.ctrl(f, KIND_REQUEST, true, self.flows[f].session as u64);
        let src = self.flows[f].spec.src;
        let t = self.host_release(src);
        self.schedule(t, Ev::HostTx { host: src, pkt });
    }

    pub(super) fn arm_rto(&mut self, f: usize) {
        let fl = &mut self.flows[f];
        if !fl.rto_on {
            fl.rto_on = true;
            let t = fl.tx.request_ns + fl.params.rto_ns();
            self.schedule(t, Ev::Rto(f as u32));
        }
    }

    pub(super) fn on_rto(&mut self, f: usize) {
        let now = self.now;
        let fl = &mut self.flows[f];
        fl.rto_on = false;
        if !fl.tx.requesting {
            return;
        }
        let p = fl.params;
        if fl.tx.on_rto(&p, now) {
            self.x.request_timeouts += 1;
            self.c.timeouts += 1;
            self.send_request(f);
        }
        self.arm_rto(f);
    }

    /// When a packet the sender host handles now reaches its NIC: `now + host_delay +
    /// U[0, spread]`, but never before the host's previous packet (the host processes credits
    /// in order, so its data never overtakes itself).
    pub(super) fn host_release(&mut self, host: u32) -> u64 {
        let spread = self.cfg.host_delay_spread_ns;
        let j = if spread > 0 {
            self.rng.below(spread + 1)
        } else {
            0
        };
        let t = (self.now + self.cfg.host_delay_ns + j).max(self.host_free_ns[host as usize]);
        self.host_free_ns[host as usize] = t;
        t
    }

    pub(super) fn on_credit(&mut self, pkt: XPkt) {
        let f = pkt.flow as usize;
        let mss = self.cfg.mss_bytes;
        let fl = &mut self.flows[f];
        let backlog = fl.total.saturating_sub(fl.snd_nxt);
        let was_receiving = fl.tx.receiving || fl.tx.requesting;
        let u = fl.tx.on_credit(backlog, mss);
        let src = fl.spec.src;
        let dst = fl.spec.dst;
        if u.data_bytes == 0 {
            self.x.credits_wasted += 1;
            // A lost CREDIT_STOP keeps credits coming: repeat it at most once per RTO.
            let fl = &mut self.flows[f];
            if !was_receiving && backlog == 0 && self.now >= fl.last_stop_ns + fl.params.rto_ns() {
                fl.last_stop_ns = self.now;
                let stop = self.ctrl(f, KIND_STOP, true, self.flows[f].session as u64);
                let t = self.host_release(src);
                self.schedule(
                    t,
                    Ev::HostTx {
                        host: src,
                        pkt: stop,
                    },
                );
            }
            return;
        }
        let data = XPkt {
            kind: KIND_DATA,
            flow: f as u32,
            dst,
            wire: u.data_bytes + self.cfg.header_bytes,
            payload: u.data_bytes,
            seq: fl.snd_nxt,
            credit_seq: pkt.credit_seq,
            credit_sent_ns: pkt.credit_sent_ns,
        };
        fl.snd_nxt += u.data_bytes as u64;
        let t = self.host_release(src);
        self.schedule(
            t,
            Ev::HostTx {
                host: src,
                pkt: data,
            },
        );
        if u.stop {
            self.flows[f].last_stop_ns = self.now;
            let stop = self.ctrl(f, KIND_STOP, true, self.flows[f].session as u64);
            // Same time, scheduled after the data: leaves the NIC behind it.
            self.schedule(
                t,
                Ev::HostTx {
                    host: src,
                    pkt: stop,
                },
            );
        }
    }

    pub(super) fn on_nack(&mut self, pkt: XPkt) {
        let f = pkt.flow as usize;
        let fl = &mut self.flows[f];
        if pkt.seq < fl.snd_nxt {
            let mss = self.cfg.mss_bytes as u64;
            fl.retransmits += (fl.snd_nxt - pkt.seq).div_ceil(mss);
            self.c.retransmits += (fl.snd_nxt - pkt.seq).div_ceil(mss);
            fl.snd_nxt = pkt.seq;
        }
        // Go-back-N: with the session closed, ask for credits again.
        self.request(f);
    }

    // ---- receiver --------------------------------------------------------------------------

    pub(super) fn deliver(&mut self, pkt: XPkt) {
        match pkt.kind {
            KIND_CREDIT => self.on_credit(pkt),
            KIND_NACK => self.on_nack(pkt),
            KIND_REQUEST => {
                let f = pkt.flow as usize;
                let now = self.now;
                let fl = &mut self.flows[f];
                let p = fl.params;
                // A request of a newer session while the old one is still open continues it
                // (its CREDIT_STOP was lost or is yet to come): only the session number moves.
                fl.rx_session = fl.rx_session.max(pkt.seq as u32);
                if fl.rx.on_request(&p, now) && !fl.timer_on {
                    fl.timer_on = true;
                    self.schedule(now, Ev::CreditTimer(f as u32));
                }
            }
            KIND_STOP => {
                let f = pkt.flow as usize;
                let fl = &mut self.flows[f];
                if pkt.seq as u32 != fl.rx_session {
                    return; // a stale stop of an earlier session (e.g. a repeated one)
                }
                fl.rx.on_stop();
                if fl.rcv_nxt < fl.total {
                    // Data behind the stop was lost: ask for it.
                    self.nack(f, true);
                }
            }
            _ => self.on_data(pkt),
        }
    }

    pub(super) fn on_credit_timer(&mut self, f: usize) {
        let now = self.now;
        let r = self.rng.next_u64() as u32;
        let spread = self.cfg.credit_size_spread;
        let wire = self.cfg.credit_bytes - spread + self.rng.below(2 * spread as u64 + 1) as u32;
        let naive = self.cfg.naive;
        let fl = &mut self.flows[f];
        let p = fl.params;
        if naive {
            fl.rx.rate_bps = p.max_rate_bps();
        }
        let Some(c) = fl.rx.on_credit_timer(&p, now, r) else {
            fl.timer_on = false;
            return;
        };
        let pkt = XPkt {
            kind: KIND_CREDIT,
            flow: f as u32,
            dst: fl.spec.src,
            wire,
            payload: 0,
            seq: 0,
            credit_seq: c.seq,
            credit_sent_ns: now,
        };
        let dst_host = fl.spec.dst;
        self.x.credits_sent += 1;
        self.flows[f].credits_sent += 1;
        self.schedule(now + c.gap_ns, Ev::CreditTimer(f as u32));
        let node = self.host_nodes[dst_host as usize];
        self.enqueue(node, 0, pkt);
    }

    pub(super) fn on_data(&mut self, pkt: XPkt) {
        let f = pkt.flow as usize;
        let now = self.now;
        self.c.data_delivered += 1;
        let naive = self.cfg.naive;
        let fl = &mut self.flows[f];
        let p = fl.params;
        if !naive {
            fl.rx.on_data(&p, now, pkt.credit_seq, pkt.credit_sent_ns);
        }
        let rtt = now.saturating_sub(pkt.credit_sent_ns);
        fl.min_rtt_ns = Some(fl.min_rtt_ns.map_or(rtt, |m| m.min(rtt)));
        if now >= self.measure_from_ns {
            self.rtt_samples.push(rtt.min(u32::MAX as u64) as u32);
            self.rtt_flows.push(f as u32);
        }
        if pkt.seq == fl.rcv_nxt {
            fl.rcv_nxt += pkt.payload as u64;
            fl.rx_bytes += pkt.payload as u64;
            if fl.rcv_nxt >= fl.total && !fl.done {
                fl.done = true;
                fl.finish_ns = now;
            }
        } else if pkt.seq > fl.rcv_nxt {
            self.nack(f, false);
        }
    }

    pub(super) fn nack(&mut self, f: usize, force: bool) {
        let now = self.now;
        let fl = &mut self.flows[f];
        let wait = fl.rx.rtt_ns.max(fl.params.rto_ns() / 4);
        if !force && fl.last_nack_ns != 0 && now < fl.last_nack_ns + wait {
            return;
        }
        fl.last_nack_ns = now;
        self.x.nacks += 1;
        let seq = fl.rcv_nxt;
        let pkt = self.ctrl(f, KIND_NACK, false, seq);
        let dst = self.flows[f].spec.dst;
        self.host_send(dst, pkt);
    }
}
