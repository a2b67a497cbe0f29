//! Ports and switches: drop-tail/ECN output queues, serialization, links, forwarding and ECMP
//! routes, the paths and ideal completion times derived from them.

use super::*;

pub(super) struct Port {
    pub(super) peer: u32,
    pub(super) rate_bits_per_s: u64,
    pub(super) delay_ns: u64,
    pub(super) buffer_bytes: u64,
    pub(super) ecn_k_bytes: u64,
    pub(super) queue: VecDeque<Packet>,
    pub(super) queue_bytes: u64,
    pub(super) busy: bool,
    pub(super) in_tx: Option<Packet>,
    /// Sub-ns serialization remainder, in units of 1/rate ns (keeps long-run rates exact).
    pub(super) ser_rem: u64,
    pub(super) tx_bytes: u64,
    pub(super) drops: u64,
    pub(super) marks: u64,
    pub(super) max_queue_bytes: u64,
    pub(super) max_since_sample: u64,
}

pub(super) struct Node {
    pub(super) host: Option<u32>,
    pub(super) port_names: Vec<String>,
    pub(super) ports: Vec<Port>,
    pub(super) routes: Vec<Vec<u16>>,
    pub(super) salt: u64,
}

impl Sim {
    // ---- paths -------------------------------------------------------------------------

    pub(super) fn route_port(&self, node: u32, pkt: &Packet) -> u16 {
        let n = &self.nodes[node as usize];
        let set = &n.routes[pkt.dst as usize];
        if set.len() == 1 {
            set[0]
        } else {
            let key = (pkt.flow as u64) << 1 | (pkt.flags & PKT_ACK) as u64;
            set[(mix(key, n.salt) % set.len() as u64) as usize]
        }
    }

    /// The (node, port) hops of a flow's data (or ACK) path.
    pub(super) fn path(&self, flow: usize, ack: bool) -> Vec<(u32, u16)> {
        let s = &self.flows[flow].spec;
        let (src, dst) = if ack { (s.dst, s.src) } else { (s.src, s.dst) };
        let probe = Packet {
            seg: 0,
            sack: NO_SACK,
            flow: flow as u32,
            dst,
            wire: 0,
            hold_ns: 0,
            hops: 0,
            flags: if ack { PKT_ACK } else { 0 },
        };
        let mut node = self.hosts[src as usize].node;
        let mut hops = vec![(node, 0u16)];
        let target = self.hosts[dst as usize].node;
        let mut guard = 0;
        loop {
            let p = hops.last().expect("non-empty").1;
            node = self.nodes[node as usize].ports[p as usize].peer;
            if node == target || guard > 64 {
                break;
            }
            guard += 1;
            let port = self.route_port(node, &probe);
            hops.push((node, port));
        }
        hops
    }

    pub(super) fn ideal_fct_ns(&self, flow: usize) -> u64 {
        let f = &self.flows[flow];
        if f.spec.size_bytes == 0 {
            return 0;
        }
        // A lower bound that is exact when all packets have one size: every hop forwards the
        // last packet, the slowest hop carries everything before it; the ACK comes straight
        // back. Serialization rounds down.
        let mss = self.cfg.mss_bytes as u64;
        let hdr = self.cfg.header_bytes as u64;
        let last = f.spec.size_bytes - (f.total_segs - 1) * mss + hdr;
        let wire_total = f.spec.size_bytes + f.total_segs * hdr;
        let ser = |b: u64, r: u64| b * 8 * 1_000_000_000 / r;
        let mut t = 0;
        let mut min_rate = u64::MAX;
        for (n, p) in self.path(flow, false) {
            let port = &self.nodes[n as usize].ports[p as usize];
            t += port.delay_ns + ser(last, port.rate_bits_per_s);
            min_rate = min_rate.min(port.rate_bits_per_s);
        }
        t += ser(wire_total - last, min_rate);
        for (n, p) in self.path(flow, true) {
            let port = &self.nodes[n as usize].ports[p as usize];
            t += port.delay_ns + ser(self.cfg.ack_bytes as u64, port.rate_bits_per_s);
        }
        t
    }

    // ---- ports -------------------------------------------------------------------------

    pub(super) fn enqueue(&mut self, node: u32, port: u16, mut pkt: Packet) {
        let p = &mut self.nodes[node as usize].ports[port as usize];
        let wire = pkt.wire as u64;
        if p.queue_bytes + wire > p.buffer_bytes && (p.busy || !p.queue.is_empty()) {
            p.drops += 1;
            if pkt.flags & PKT_ACK != 0 {
                self.c.acks_dropped += 1;
            } else {
                self.c.data_dropped += 1;
            }
            return;
        }
        if p.ecn_k_bytes > 0 && pkt.flags & PKT_ECT != 0 && p.queue_bytes > p.ecn_k_bytes {
            pkt.flags |= PKT_CE;
            p.marks += 1;
            self.c.ecn_marks += 1;
        }
        p.queue.push_back(pkt);
        p.queue_bytes += wire;
        p.max_queue_bytes = p.max_queue_bytes.max(p.queue_bytes);
        p.max_since_sample = p.max_since_sample.max(p.queue_bytes);
        if !p.busy {
            self.start_tx(node, port);
        }
    }

    pub(super) fn start_tx(&mut self, node: u32, port: u16) {
        let pkt = {
            let p = &mut self.nodes[node as usize].ports[port as usize];
            match p.queue.pop_front() {
                Some(k) => {
                    p.queue_bytes -= k.wire as u64;
                    Some(k)
                }
                None => None,
            }
        };
        let pkt = match pkt {
            Some(k) => Some(k),
            None => match self.nodes[node as usize].host {
                Some(h) => self.host_pull(h),
                None => None,
            },
        };
        let p = &mut self.nodes[node as usize].ports[port as usize];
        match pkt {
            None => p.busy = false,
            Some(k) => {
                // Exact long-run rate: carry the sub-ns remainder of each serialization.
                let num = k.wire as u64 * 8 * 1_000_000_000 + p.ser_rem;
                let d = num / p.rate_bits_per_s;
                p.ser_rem = num % p.rate_bits_per_s;
                p.busy = true;
                p.in_tx = Some(k);
                let t = self.now + d;
                self.schedule(t, Ev::TxDone { node, port });
            }
        }
    }

    pub(super) fn on_tx_done(&mut self, node: u32, port: u16) {
        let p = &mut self.nodes[node as usize].ports[port as usize];
        let pkt = p.in_tx.take().expect("a packet was on the wire");
        p.tx_bytes += pkt.wire as u64;
        let (peer, t) = (p.peer, self.now + p.delay_ns);
        self.schedule(t, Ev::Arrive { node: peer, pkt });
        self.start_tx(node, port);
    }

    pub(super) fn on_arrive(&mut self, node: u32, mut pkt: Packet) {
        match self.nodes[node as usize].host {
            Some(_) => {
                if pkt.flags & PKT_ACK != 0 {
                    self.on_ack_pkt(pkt);
                } else {
                    self.on_data(pkt);
                }
            }
            None => {
                if pkt.flags & PKT_ACK == 0 {
                    pkt.hops = pkt.hops.saturating_add(1);
                }
                let port = self.route_port(node, &pkt);
                self.enqueue(node, port, pkt);
            }
        }
    }
}
