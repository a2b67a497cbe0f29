//! Ports and switches: output queues with ECN marking, serialization, links, forwarding and
//! ECMP routes, the paths and ideal completion times derived from them, and the switch memory:
//! static per-port drop-tail buffers, or one shared buffer per switch with dynamic thresholds
//! and optional PFC (the ns-3 `SwitchMmu` model of the HPCC and PowerTCP artifacts; see
//! `Documentation/results/README.md`, "Switch buffers and PFC").

use super::*;
use crate::error::{invalid, Result};
use crate::topo::{NodeDef, PortDef, RouteTable};

/// Switch buffer model and PFC settings of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct FabricConfig {
    /// One buffer per switch shared by its ports (dynamic thresholds) instead of a static
    /// drop-tail limit per output port.
    pub shared_buffer: bool,
    /// Shared buffer size per switch, bytes; 0 = the sum of the switch's per-port buffers.
    pub switch_buffer_bytes: u64,
    /// Egress dynamic threshold without PFC (Choudhury-Hahne): an output queue may hold
    /// `alpha x (buffer - used)`. Q16 (65536 = 1).
    pub dt_alpha_q16: u64,
    /// Priority flow control (needs the shared buffer).
    pub pfc: bool,
    /// PFC dynamic threshold: an ingress queue pauses its upstream when its shared bytes reach
    /// `alpha x (buffer - headroom - reserve - shared used)`. Q16; ns-3 default 1/8
    /// (`pfc_a_shift` = 3).
    pub pfc_alpha_q16: u64,
    /// Bytes per ingress queue admitted before the shared pool is used (ns-3: 4 KiB).
    pub pfc_reserve_bytes: u64,
    /// Resume when the ingress queue's shared bytes are this far below the threshold (ns-3:
    /// 3 KiB).
    pub pfc_resume_offset_bytes: u64,
    /// Headroom per ingress queue, bytes; 0 = per link `2 x rate x delay + 2 x max packet`
    /// (what arrives after the pause is sent: the pause's flight, the data on the wire, a
    /// packet being serialized at each end).
    pub pfc_headroom_bytes: u64,
}

impl Default for FabricConfig {
    fn default() -> Self {
        FabricConfig {
            shared_buffer: false,
            switch_buffer_bytes: 0,
            dt_alpha_q16: 65_536,
            pfc: false,
            pfc_alpha_q16: 65_536 / 8,
            pfc_reserve_bytes: 4 * 1024,
            pfc_resume_offset_bytes: 3 * 1024,
            pfc_headroom_bytes: 0,
        }
    }
}

/// Wire size of a PFC pause or resume frame (a minimum Ethernet frame), bytes.
pub const PFC_FRAME_BYTES: u64 = 64;

pub(super) struct Port {
    pub(super) peer: u32,
    /// Port on `peer` that sends to us (where our PFC frames take effect).
    pub(super) rev: u16,
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
    // PFC, egress side: this transmitter is paused by its peer.
    pub(super) paused: bool,
    pub(super) paused_since_ns: u64,
    pub(super) paused_ns: u64,
    // Ingress side: bytes that arrived over this port's link (from `peer`) and still sit in
    // this switch, split as in ns-3 into reserve+shared (`in_bytes`) and headroom.
    pub(super) in_bytes: u64,
    pub(super) in_hdrm_bytes: u64,
    pub(super) headroom_bytes: u64,
    /// We have paused `peer` (XOFF sent, XON not yet).
    pub(super) pausing_peer: bool,
    pub(super) pauses_sent: u64,
}

impl Port {
    fn new(p: &PortDef) -> Port {
        Port {
            peer: p.peer,
            rev: p.rev,
            rate_bits_per_s: p.rate_bits_per_s,
            delay_ns: p.delay_ns,
            buffer_bytes: p.buffer_bytes,
            ecn_k_bytes: p.ecn_k_bytes,
            queue: VecDeque::new(),
            queue_bytes: 0,
            busy: false,
            in_tx: None,
            ser_rem: 0,
            tx_bytes: 0,
            drops: 0,
            marks: 0,
            max_queue_bytes: 0,
            max_since_sample: 0,
            paused: false,
            paused_since_ns: 0,
            paused_ns: 0,
            in_bytes: 0,
            in_hdrm_bytes: 0,
            headroom_bytes: 0,
            pausing_peer: false,
            pauses_sent: 0,
        }
    }
}

/// A switch's shared buffer (ns-3 `SwitchMmu` counters).
pub(super) struct SharedBuf {
    pub(super) total_bytes: u64,
    /// Bytes queued in the switch (all output queues).
    pub(super) used_bytes: u64,
    /// Bytes of ingress queues above their reserve and below their headroom.
    pub(super) shared_used_bytes: u64,
    pub(super) total_hdrm_bytes: u64,
    pub(super) total_rsrv_bytes: u64,
}

pub(super) struct Node {
    pub(super) host: Option<u32>,
    pub(super) port_names: Vec<String>,
    pub(super) ports: Vec<Port>,
    pub(super) routes: RouteTable,
    pub(super) salt: u64,
    pub(super) mmu: Option<SharedBuf>,
}

impl Node {
    pub(super) fn new(n: &NodeDef, salt: u64, fab: &FabricConfig, max_wire: u64) -> Node {
        let mut ports: Vec<Port> = n.ports.iter().map(Port::new).collect();
        let mut mmu = None;
        if n.host.is_none() && fab.shared_buffer {
            let total = if fab.switch_buffer_bytes > 0 {
                fab.switch_buffer_bytes
            } else {
                ports.iter().map(|p| p.buffer_bytes).sum()
            };
            let mut hdrm = 0;
            let mut rsrv = 0;
            if fab.pfc {
                for p in ports.iter_mut() {
                    p.headroom_bytes = headroom_bytes(p.rate_bits_per_s, p.delay_ns, fab, max_wire);
                    hdrm += p.headroom_bytes;
                    rsrv += fab.pfc_reserve_bytes;
                }
            }
            mmu = Some(SharedBuf {
                total_bytes: total,
                used_bytes: 0,
                shared_used_bytes: 0,
                total_hdrm_bytes: hdrm,
                total_rsrv_bytes: rsrv,
            });
        }
        Node {
            host: n.host,
            port_names: n.ports.iter().map(|p| p.name.clone()).collect(),
            ports,
            routes: n.routes.clone(),
            salt,
            mmu,
        }
    }
}

/// PFC headroom of an ingress queue on a link of `rate` and `delay`: the configured value, or
/// what can still arrive after the pause is sent: a round trip of the link at line rate, one
/// packet being serialized at either end, and the pause frame itself.
fn headroom_bytes(rate_bits_per_s: u64, delay_ns: u64, fab: &FabricConfig, max_wire: u64) -> u64 {
    if fab.pfc_headroom_bytes > 0 {
        return fab.pfc_headroom_bytes;
    }
    (2 * delay_ns as u128 * rate_bits_per_s as u128 / 8_000_000_000) as u64
        + 2 * max_wire
        + PFC_FRAME_BYTES
}

/// Refuse a fabric that cannot be lossless: with PFC, every switch's shared buffer must hold
/// the headroom and reserve of all its ingress queues plus one packet of shared space.
pub fn check_fabric(net: &Network, cfg: &SimConfig) -> Result<()> {
    let fab = &cfg.fabric;
    if !(fab.shared_buffer && fab.pfc) {
        return Ok(());
    }
    let max_wire = (cfg.mss_bytes + cfg.header_bytes).max(cfg.ack_bytes) as u64;
    for n in net.nodes.iter().filter(|n| n.host.is_none()) {
        let total = if fab.switch_buffer_bytes > 0 {
            fab.switch_buffer_bytes
        } else {
            n.ports.iter().map(|p| p.buffer_bytes).sum()
        };
        let need: u64 = n
            .ports
            .iter()
            .map(|p| {
                headroom_bytes(p.rate_bits_per_s, p.delay_ns, fab, max_wire) + fab.pfc_reserve_bytes
            })
            .sum::<u64>()
            + max_wire;
        if total < need {
            return Err(invalid!(
                "fabric: switch {}'s buffer ({} B) is below the PFC headroom and reserve of its {} \
                 ingress queues plus one packet ({} B): it could not be lossless; raise \
                 fabric.switch_buffer_kb or lower fabric.pfc_headroom_kb",
                n.name,
                total,
                n.ports.len(),
                need
            ));
        }
    }
    Ok(())
}

/// A run with a law that reads INT needs every switch port at a rate the INT record can name
/// (`rdcc_core::int::RATE_TABLE_BPS`: 10, 25, 40, 50, 100, 200, 400 or 800 Gbit/s).
pub fn check_int(net: &Network) -> Result<()> {
    for n in net.nodes.iter().filter(|n| n.host.is_none()) {
        for p in &n.ports {
            if p.rate_bits_per_s % 8 != 0 || IntHop::rate_index(p.rate_bits_per_s / 8).is_none() {
                return Err(invalid!(
                    "int: port {} runs at {} bit/s, which an INT record cannot name (10, 25, 40, \
                     50, 100, 200, 400 or 800 Gbit/s)",
                    p.name,
                    p.rate_bits_per_s
                ));
            }
        }
    }
    Ok(())
}

/// `x * alpha`, alpha Q16 (x below 2^47 bytes: no overflow).
fn q16(x: u64, alpha_q16: u64) -> u64 {
    ((x as u128 * alpha_q16 as u128) >> 16) as u64
}

impl Sim {
    // ---- paths -------------------------------------------------------------------------

    pub(super) fn route_port(&self, node: u32, pkt: &Packet) -> u16 {
        let n = &self.nodes[node as usize];
        let set = n.routes.lookup(pkt.dst);
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
            blocks: [0; 6],
            flow: flow as u32,
            dst,
            wire: 0,
            hold_ns: 0,
            rx_ns: 0,
            in_port: 0,
            hops: 0,
            int: IntStack::EMPTY,
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

    // ---- switch memory -----------------------------------------------------------------

    /// ns-3 `GetPfcThreshold`: `alpha x (buffer - headroom - reserve - shared used)`.
    fn pfc_threshold(&self, m: &SharedBuf) -> u64 {
        let free = m
            .total_bytes
            .saturating_sub(m.total_hdrm_bytes + m.total_rsrv_bytes + m.shared_used_bytes);
        q16(free, self.cfg.fabric.pfc_alpha_q16)
    }

    /// Admission at a switch: `true` to queue `pkt` (arrived on `in_port`) at output `port`.
    fn admit(&mut self, node: u32, port: u16, in_port: u16, wire: u64) -> bool {
        let n = &self.nodes[node as usize];
        let Some(m) = &n.mmu else {
            let p = &n.ports[port as usize];
            return p.queue_bytes + wire <= p.buffer_bytes || (!p.busy && p.queue.is_empty());
        };
        if m.used_bytes + wire > m.total_bytes {
            return false;
        }
        if self.cfg.fabric.pfc {
            // ns-3 CheckIngressAdmission: drop only when the headroom is exhausted and the
            // shared pool is above the threshold; egress admission always passes.
            let i = &n.ports[in_port as usize];
            let shared = i.in_bytes.saturating_sub(self.cfg.fabric.pfc_reserve_bytes);
            !(i.in_hdrm_bytes + wire > i.headroom_bytes && shared + wire > self.pfc_threshold(m))
        } else {
            // Dynamic threshold (Choudhury-Hahne) on the output queue.
            let free = m.total_bytes - m.used_bytes;
            n.ports[port as usize].queue_bytes + wire <= q16(free, self.cfg.fabric.dt_alpha_q16)
        }
    }

    /// ns-3 UpdateIngressAdmission, then CheckShouldPause.
    fn charge_ingress(&mut self, node: u32, in_port: u16, wire: u64) {
        let fab = &self.cfg.fabric;
        let (reserve, pfc) = (fab.pfc_reserve_bytes, fab.pfc);
        let thresh = match &self.nodes[node as usize].mmu {
            Some(m) if pfc => self.pfc_threshold(m),
            _ => u64::MAX,
        };
        let n = &mut self.nodes[node as usize];
        let Some(m) = n.mmu.as_mut() else { return };
        m.used_bytes += wire;
        let i = &mut n.ports[in_port as usize];
        let new = i.in_bytes + wire;
        if new <= reserve {
            i.in_bytes = new;
        } else if pfc && new - reserve > thresh {
            i.in_hdrm_bytes += wire;
        } else {
            i.in_bytes = new;
            m.shared_used_bytes += wire.min(new - reserve);
        }
        if pfc && !i.pausing_peer {
            let shared = i.in_bytes.saturating_sub(reserve);
            if i.in_hdrm_bytes > 0 || shared >= thresh {
                i.pausing_peer = true;
                i.pauses_sent += 1;
                self.c.pfc_pauses += 1;
                self.send_pfc(node, in_port, true);
            }
        }
    }

    /// ns-3 RemoveFromIngressAdmission, then CheckShouldResume (for the packet's ingress).
    fn release_ingress(&mut self, node: u32, in_port: u16, wire: u64) {
        let fab = &self.cfg.fabric;
        let (reserve, offset, pfc) = (fab.pfc_reserve_bytes, fab.pfc_resume_offset_bytes, fab.pfc);
        let n = &mut self.nodes[node as usize];
        let Some(m) = n.mmu.as_mut() else { return };
        m.used_bytes -= wire;
        let i = &mut n.ports[in_port as usize];
        let from_hdrm = i.in_hdrm_bytes.min(wire);
        i.in_hdrm_bytes -= from_hdrm;
        let rest = wire - from_hdrm;
        let from_shared = rest.min(i.in_bytes.saturating_sub(reserve));
        i.in_bytes -= rest;
        m.shared_used_bytes -= from_shared;
        if pfc && i.pausing_peer && i.in_hdrm_bytes == 0 {
            let shared = i.in_bytes.saturating_sub(reserve);
            let thresh = {
                let m = self.nodes[node as usize]
                    .mmu
                    .as_ref()
                    .expect("shared buffer");
                self.pfc_threshold(m)
            };
            if shared == 0 || shared + offset <= thresh {
                self.nodes[node as usize].ports[in_port as usize].pausing_peer = false;
                self.send_pfc(node, in_port, false);
            }
        }
    }

    /// A pause (XOFF) or resume (XON) frame out of `port` towards its peer: it is sent ahead
    /// of queued data (MAC control) and takes effect on the peer's transmitter after its
    /// serialization and the link delay; the packet being serialized there finishes.
    fn send_pfc(&mut self, node: u32, port: u16, pause: bool) {
        let p = &self.nodes[node as usize].ports[port as usize];
        let t = self.now + p.delay_ns + PFC_FRAME_BYTES * 8 * 1_000_000_000 / p.rate_bits_per_s;
        let (peer, rev) = (p.peer, p.rev);
        self.schedule(
            t,
            Ev::Pfc {
                node: peer,
                port: rev,
                pause,
            },
        );
    }

    pub(super) fn on_pfc(&mut self, node: u32, port: u16, pause: bool) {
        let now = self.now;
        let p = &mut self.nodes[node as usize].ports[port as usize];
        if pause {
            if !p.paused {
                p.paused = true;
                p.paused_since_ns = now;
            }
        } else if p.paused {
            p.paused = false;
            p.paused_ns += now - p.paused_since_ns;
            if !p.busy {
                self.start_tx(node, port);
            }
        }
    }

    // ---- ports -------------------------------------------------------------------------

    pub(super) fn enqueue(&mut self, node: u32, port: u16, mut pkt: Packet) {
        let wire = pkt.wire as u64;
        let injected = !self.inject.is_empty() && {
            let is_ack = pkt.flags & PKT_ACK != 0;
            let hit = self.inject.iter().position(|&(f, seg, ack)| {
                f == pkt.flow
                    && ack == is_ack
                    && if is_ack {
                        pkt.sack == seg || (pkt.sack == NO_SACK && pkt.seg == seg + 1)
                    } else {
                        pkt.seg == seg
                    }
            });
            hit.map(|i| self.inject.swap_remove(i)).is_some()
        };
        if injected || !self.admit(node, port, pkt.in_port, wire) {
            self.nodes[node as usize].ports[port as usize].drops += 1;
            if pkt.flags & PKT_ACK != 0 {
                self.c.acks_dropped += 1;
            } else {
                self.c.data_dropped += 1;
                self.flows[pkt.flow as usize].drops += 1;
            }
            return;
        }
        self.charge_ingress(node, pkt.in_port, wire);
        let p = &mut self.nodes[node as usize].ports[port as usize];
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
        if self.nodes[node as usize].ports[port as usize].paused {
            self.nodes[node as usize].ports[port as usize].busy = false;
            return;
        }
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
            Some(mut k) => {
                self.release_ingress(node, k.in_port, k.wire as u64);
                if k.flags & PKT_INT != 0 {
                    // INT (PowerTCP §3.3 "Feedback", HPCC Fig. 4): the egress appends its state
                    // as of the moment it schedules the packet: the queue behind it, the bytes
                    // dequeued so far including this packet, the clock and the port rate.
                    let p = &self.nodes[node as usize].ports[port as usize];
                    let hop = IntHop::encode(
                        p.queue_bytes,
                        p.tx_bytes + k.wire as u64,
                        self.now,
                        p.rate_bits_per_s / 8,
                    );
                    if let Some(log) = self.int_log.as_mut() {
                        log.dequeues.push(IntDequeue {
                            flow: k.flow,
                            seg: k.seg,
                            node,
                            queue_bytes: p.queue_bytes,
                            tx_bytes: p.tx_bytes + k.wire as u64,
                            now_ns: self.now,
                            rate_bits_per_s: p.rate_bits_per_s,
                        });
                    }
                    match hop {
                        Some(h) if k.int.push(h) => {}
                        _ => self.c.int_dropped_records += 1,
                    }
                }
                Some(k)
            }
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
        let mut pkt = p.in_tx.take().expect("a packet was on the wire");
        p.tx_bytes += pkt.wire as u64;
        pkt.in_port = p.rev;
        let (peer, t) = (p.peer, self.now + p.delay_ns);
        let pkt = self.put_pkt(pkt);
        self.schedule(t, Ev::Arrive { node: peer, pkt });
        self.start_tx(node, port);
    }

    pub(super) fn on_arrive(&mut self, node: u32, mut pkt: Packet) {
        match self.nodes[node as usize].host {
            Some(h) => self.host_rx(h, pkt),
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
