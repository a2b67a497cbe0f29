//! Hosts and NICs: each host NIC serves its ready flows round-robin (like Linux `fq`), within
//! each flow's window and pacing rate.

use super::transport::Flow;
use super::*;

/// A host's receive path: packets from the NIC are processed one at a time at
/// `rate_bits_per_s` (0 = instantly), then wait `delay_ns` more before TCP sees them (a slow
/// or busy receiver: the delay Swift's endpoint window reacts to, §3.3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HostRx {
    /// Host index.
    pub host: u32,
    /// Processing rate, bits per second of wire bytes; 0 = unlimited.
    pub rate_bits_per_s: u64,
    /// Fixed delay after processing, ns.
    pub delay_ns: u64,
}

pub(super) struct Host {
    pub(super) node: u32,
    pub(super) ready: VecDeque<u32>,
    pub(super) rx: Option<HostRx>,
    /// The receive path is busy until then, ns.
    pub(super) rx_busy_until: u64,
    /// Sub-ns processing remainder (exact long-run rate, as for links).
    pub(super) rx_rem: u64,
}

impl Host {
    pub(super) fn new(node: u32) -> Host {
        Host {
            node,
            ready: VecDeque::new(),
            rx: None,
            rx_busy_until: 0,
            rx_rem: 0,
        }
    }
}

impl Sim {
    /// A packet reaches host `h`'s NIC: through the receive path, if the host has one.
    pub(super) fn host_rx(&mut self, h: u32, mut pkt: Packet) {
        let now = self.now;
        let host = &mut self.hosts[h as usize];
        let Some(rx) = host.rx else {
            return self.deliver(pkt);
        };
        let start = now.max(host.rx_busy_until);
        let service = if rx.rate_bits_per_s > 0 {
            let num = pkt.wire as u64 * 8 * 1_000_000_000 + host.rx_rem;
            host.rx_rem = num % rx.rate_bits_per_s;
            num / rx.rate_bits_per_s
        } else {
            0
        };
        host.rx_busy_until = start + service;
        let t = host.rx_busy_until + rx.delay_ns;
        pkt.rx_ns = (t - now).min(u32::MAX as u64) as u32;
        let pkt = self.put_pkt(pkt);
        self.schedule(t, Ev::RxDone { pkt });
    }

    /// TCP receives a packet.
    pub(super) fn deliver(&mut self, pkt: Packet) {
        if pkt.flags & PKT_ACK != 0 {
            self.on_ack_pkt(pkt);
        } else {
            self.on_data(pkt);
        }
    }

    pub(super) fn kick_host(&mut self, host: u32) {
        let node = self.hosts[host as usize].node;
        if !self.nodes[node as usize].ports[0].busy {
            self.start_tx(node, 0);
        }
    }

    pub(super) fn pipe(f: &Flow) -> u64 {
        (f.nxt - f.una) - f.sacked - f.lost_pending
    }

    /// `Some(t)`: can send at `t` (now or later); `None`: blocked (window, no data).
    pub(super) fn send_time(f: &Flow) -> Option<u64> {
        if !f.started || f.done {
            return None;
        }
        if f.lost_pending == 0 && f.nxt >= f.total_segs {
            return None;
        }
        // A tail-loss probe may exceed the window by one packet (Linux `tcp_send_loss_probe`);
        // it keeps the pacing rate.
        if Self::pipe(f) >= f.cwnd_pkts && !f.probe {
            return None;
        }
        Some(if f.pacing_bps > 0 { f.next_send_ns } else { 0 })
    }

    pub(super) fn try_ready(&mut self, f: u32) {
        let now = self.now;
        let fl = &mut self.flows[f as usize];
        if fl.in_ready {
            return;
        }
        match Self::send_time(fl) {
            None => {}
            Some(t) if t <= now => {
                fl.in_ready = true;
                let h = fl.spec.src;
                self.hosts[h as usize].ready.push_back(f);
                self.kick_host(h);
            }
            Some(t) if fl.wake_at == 0 || fl.wake_at > t => {
                fl.wake_at = t;
                self.schedule(t, Ev::Wake(f));
            }
            Some(_) => {}
        }
    }

    pub(super) fn host_pull(&mut self, h: u32) -> Option<Packet> {
        let now = self.now;
        while let Some(f) = self.hosts[h as usize].ready.pop_front() {
            self.flows[f as usize].in_ready = false;
            match Self::send_time(&self.flows[f as usize]) {
                Some(t) if t <= now => {
                    let pkt = self.emit(f as usize);
                    // Round robin: back of the line if it can send again right away.
                    let fl = &mut self.flows[f as usize];
                    if let Some(t2) = Self::send_time(fl) {
                        if t2 <= now {
                            fl.in_ready = true;
                            self.hosts[h as usize].ready.push_back(f);
                        } else if fl.wake_at == 0 || fl.wake_at > t2 {
                            fl.wake_at = t2;
                            self.schedule(t2, Ev::Wake(f));
                        }
                    }
                    return Some(pkt);
                }
                _ => self.try_ready(f),
            }
        }
        None
    }
}
