//! Hosts and NICs: each host NIC serves its ready flows round-robin (like Linux `fq`), within
//! each flow's window and pacing rate.

use super::transport::Flow;
use super::*;

pub(super) struct Host {
    pub(super) node: u32,
    pub(super) ready: VecDeque<u32>,
}

impl Sim {
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
        if Self::pipe(f) >= f.cwnd_pkts {
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
