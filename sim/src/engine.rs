//! The discrete-event engine: a binary heap of events keyed by (time ns, sequence number),
//! switches with drop-tail FIFOs and ECN marking, host NICs that serve their flows round-robin
//! (like Linux `fq`), TCP-like senders with SACK/RACK loss detection and RTO, receivers that ACK
//! every packet or every second packet, and the controller calls of the kernel glue.
//!
//! Enforcement mirrors `modules/glue/rdcc_glue.c` (`rdcc_apply`): the window is
//! `Decision::cwnd_pkts` (whole packets, at least 1); a law's pacing rate is used as is; a law
//! that returns pacing 0 is paced at `2 * cwnd * mss / srtt` (the kernel's default), unlimited
//! before the first RTT sample. A window below one packet is therefore one packet in flight at
//! the law's rate (Swift: `cwnd * mss / rtt`).

use crate::cc::{CcParams, CcState, Law};
use crate::rng::{mix, Rng};
use crate::topo::Network;
use rdcc_core::event::{
    AckEvent, Decision, LossEvent, LossKind, ACK_APP_LIMITED, ACK_DELAYED, ACK_ECE, ACK_HAS_HOPS,
    ACK_HAS_REMOTE_DELAY, ACK_HAS_RTT, ACK_IN_RECOVERY,
};
use std::cmp::Ordering;
use std::collections::{BTreeSet, BinaryHeap, VecDeque};

/// Transport and measurement settings of one run.
#[derive(Clone, Debug)]
pub struct SimConfig {
    /// Payload bytes per full segment.
    pub mss_bytes: u32,
    /// Header bytes added to every data packet on the wire (Ethernet + IP + TCP).
    pub header_bytes: u32,
    /// Wire size of an ACK.
    pub ack_bytes: u32,
    /// ACK every n-th in-order segment (1 or 2); out-of-order data is ACKed at once.
    pub ack_every: u32,
    /// Delayed-ACK timeout when fewer than `ack_every` segments wait, ns.
    pub delack_ns: u64,
    /// RTT quantum fed to the law (1000 = Linux's µs `rtt_us`), ns; 0 = exact ns.
    pub rtt_quantum_ns: u64,
    /// Uniform noise added to each RTT sample fed to the law: [0, noise] ns.
    pub rtt_noise_ns: u64,
    /// Smallest retransmission timeout, ns.
    pub min_rto_ns: u64,
    /// Report the receiver's ACK hold time as `ACK_HAS_REMOTE_DELAY` (Swift's endpoint delay).
    pub remote_delay: bool,
    /// Echo the forward switch-hop count (`ACK_HAS_HOPS`).
    pub echo_hops: bool,
    /// Metrics sampling interval, ns.
    pub sample_ns: u64,
    /// Simulated time, ns.
    pub duration_ns: u64,
    /// Start of the measurement window for summary statistics, ns.
    pub measure_from_ns: u64,
    /// Seed (RTT noise; workload generation happens before the run with its own stream).
    pub seed: u64,
    /// Flows with a per-flow time series (the first n flows).
    pub trace_flows: usize,
}

impl Default for SimConfig {
    fn default() -> Self {
        SimConfig {
            mss_bytes: 1448,
            header_bytes: 64,
            ack_bytes: 64,
            ack_every: 1,
            delack_ns: 20_000,
            rtt_quantum_ns: 0,
            rtt_noise_ns: 0,
            min_rto_ns: 1_000_000,
            remote_delay: false,
            echo_hops: false,
            sample_ns: 10_000,
            duration_ns: 10_000_000,
            measure_from_ns: 0,
            seed: 1,
            trace_flows: 64,
        }
    }
}

/// A flow to simulate.
#[derive(Clone, Debug)]
pub struct FlowSpec {
    /// Sender host.
    pub src: u32,
    /// Receiver host.
    pub dst: u32,
    /// Bytes to send; 0 = unlimited (long-lived).
    pub size_bytes: u64,
    /// Start time, ns.
    pub start_ns: u64,
    /// Index into the profile list.
    pub profile: usize,
}

/// A named algorithm configuration.
#[derive(Clone, Debug)]
pub struct Profile {
    /// Name (output sub-directory, table row).
    pub name: String,
    /// The law.
    pub law: Law,
    /// Validated parameters.
    pub params: CcParams,
}

const PKT_ACK: u8 = 1;
const PKT_ECT: u8 = 2;
const PKT_CE: u8 = 4;
const PKT_ECE: u8 = 8;
const PKT_DELAYED: u8 = 16;
const NO_SACK: u64 = u64::MAX;

#[derive(Clone, Copy, Debug)]
struct Packet {
    /// Data: segment index. ACK: cumulative ACK (next expected segment).
    seg: u64,
    /// ACK: the out-of-order segment this ACK reports (SACK), or `NO_SACK`.
    sack: u64,
    flow: u32,
    /// Destination host.
    dst: u32,
    wire: u32,
    /// ACK: receiver hold time of the data it acknowledges, ns.
    hold_ns: u32,
    /// Data: switches traversed; ACK: the echoed forward count.
    hops: u8,
    flags: u8,
}

#[derive(Clone, Copy, Debug)]
enum Ev {
    TxDone { node: u32, port: u16 },
    Arrive { node: u32, pkt: Packet },
    FlowStart(u32),
    Wake(u32),
    Rto(u32),
    DelAck(u32),
    Sample,
}

struct Entry {
    t: u64,
    seq: u64,
    ev: Ev,
}
impl PartialEq for Entry {
    fn eq(&self, o: &Self) -> bool {
        self.t == o.t && self.seq == o.seq
    }
}
impl Eq for Entry {}
impl PartialOrd for Entry {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Entry {
    fn cmp(&self, o: &Self) -> Ordering {
        // Min-heap on (time, sequence): equal times run in scheduling order.
        (o.t, o.seq).cmp(&(self.t, self.seq))
    }
}

struct Port {
    peer: u32,
    rate_bits_per_s: u64,
    delay_ns: u64,
    buffer_bytes: u64,
    ecn_k_bytes: u64,
    queue: VecDeque<Packet>,
    queue_bytes: u64,
    busy: bool,
    in_tx: Option<Packet>,
    /// Sub-ns serialization remainder, in units of 1/rate ns (keeps long-run rates exact).
    ser_rem: u64,
    tx_bytes: u64,
    drops: u64,
    marks: u64,
    max_queue_bytes: u64,
    max_since_sample: u64,
}

struct Node {
    host: Option<u32>,
    port_names: Vec<String>,
    ports: Vec<Port>,
    routes: Vec<Vec<u16>>,
    salt: u64,
}

const SEG_INFLIGHT: u8 = 0;
const SEG_SACKED: u8 = 1;
const SEG_LOST: u8 = 2;
const SEG_RETX: u8 = 3;

#[derive(Clone, Copy)]
struct Seg {
    sent_ns: u64,
    state: u8,
}

/// Per-flow sender and receiver state.
struct Flow {
    spec: FlowSpec,
    cc: CcState,
    total_segs: u64,
    // sender
    started: bool,
    done: bool,
    una: u64,
    nxt: u64,
    segs: VecDeque<Seg>,
    sacked: u64,
    lost_pending: u64,
    retx_hint: u64,
    rack_ns: u64,
    in_recovery: bool,
    recovery_seg: u64,
    cwnd_pkts: u64,
    cwnd_q16: u64,
    law_rate_bps: u64,
    pacing_bps: u64,
    signal: i64,
    next_send_ns: u64,
    in_ready: bool,
    wake_at: u64,
    srtt_ns: u64,
    rttvar_ns: u64,
    min_rtt_ns: u64,
    rto_ns: u64,
    rto_deadline: u64,
    rto_scheduled: bool,
    delivered_bytes: u64,
    finish_ns: u64,
    retransmits: u64,
    timeouts: u64,
    // receiver
    rcv_nxt: u64,
    ooo: BTreeSet<u64>,
    pending_acks: u32,
    pending_since_ns: u64,
    pending_ce: bool,
    last_ce: bool,
    delack_deadline: u64,
    delack_scheduled: bool,
    rx_bytes: u64,
    last_hops: u8,
}

struct Host {
    node: u32,
    ready: VecDeque<u32>,
}

/// Counters of one run.
#[derive(Clone, Debug, Default)]
pub struct Counters {
    /// Events processed.
    pub events: u64,
    /// Data packets put on a host NIC (first transmissions and retransmissions).
    pub data_sent: u64,
    /// Data packets that reached their receiver (duplicates included).
    pub data_delivered: u64,
    /// Data packets dropped at switches.
    pub data_dropped: u64,
    /// ACKs dropped at switches.
    pub acks_dropped: u64,
    /// ECN marks.
    pub ecn_marks: u64,
    /// Retransmitted segments.
    pub retransmits: u64,
    /// Retransmission timeouts.
    pub timeouts: u64,
}

/// One finished (or unfinished) flow's record.
#[derive(Clone, Debug)]
pub struct FlowRecord {
    /// The flow.
    pub spec: FlowSpec,
    /// Completion time (all data acknowledged), ns; `None` if unfinished.
    pub finish_ns: Option<u64>,
    /// Smallest possible FCT on an empty network (propagation both ways, store-and-forward
    /// of the first packet and ACK per hop, the rest at the path's slowest link), ns.
    pub ideal_ns: u64,
    /// Bytes received in order.
    pub rx_bytes: u64,
    /// Retransmitted segments.
    pub retransmits: u64,
    /// The law's last signal (Swift: target delay ns).
    pub last_signal: i64,
}

/// Sampled time series.
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// Sample times (end of interval), ns.
    pub t_ns: Vec<u64>,
    /// Per traced flow: goodput over the interval, bits/s.
    pub flow_bps: Vec<Vec<f64>>,
    /// Per traced flow: window, bytes.
    pub flow_cwnd_bytes: Vec<Vec<f64>>,
    /// Per traced flow: pacing rate in force, bits/s (0 = unpaced).
    pub flow_rate_bps: Vec<Vec<f64>>,
    /// Jain index over flows active for the whole interval (NaN when none).
    pub jain: Vec<f64>,
    /// Number of flows in `jain`.
    pub active: Vec<u32>,
    /// Sum of all flows' goodput, bits/s.
    pub total_bps: Vec<f64>,
    /// Per monitored port: queue bytes at the sample.
    pub queue_bytes: Vec<Vec<u64>>,
    /// Per monitored port: largest queue since the previous sample.
    pub queue_max_bytes: Vec<Vec<u64>>,
}

/// Everything a run produced.
#[derive(Clone, Debug)]
pub struct RunOutput {
    /// Profile names (index = `FlowSpec::profile`).
    pub profiles: Vec<String>,
    /// Per flow.
    pub flows: Vec<FlowRecord>,
    /// Time series.
    pub series: Series,
    /// Names of the monitored ports.
    pub monitor_names: Vec<String>,
    /// Rates of the monitored ports, bits/s.
    pub monitor_rates: Vec<u64>,
    /// RTT samples (exact, before quantization and noise) taken in the measurement window, ns.
    pub rtt_ns: Vec<u32>,
    /// Counters.
    pub counters: Counters,
    /// Data packets in flight at the end (on wires, in queues, in NIC transmission).
    pub data_in_network: u64,
    /// Per switch port: (name, drops, max queue bytes, tx bytes).
    pub port_stats: Vec<(String, u64, u64, u64)>,
    /// Simulated time, ns.
    pub end_ns: u64,
}

/// The simulator.
pub struct Sim {
    now: u64,
    seq: u64,
    heap: BinaryHeap<Entry>,
    nodes: Vec<Node>,
    hosts: Vec<Host>,
    flows: Vec<Flow>,
    profiles: Vec<Profile>,
    cfg: SimConfig,
    rng: Rng,
    c: Counters,
    series: Series,
    monitors: Vec<(u32, u16)>,
    monitor_names: Vec<String>,
    last_rx: Vec<u64>,
    rtt_samples: Vec<u32>,
    ideal: Vec<u64>,
}

impl Sim {
    /// A simulator over `net` with `flows` using `profiles`.
    pub fn new(net: &Network, profiles: Vec<Profile>, flows: Vec<FlowSpec>, cfg: SimConfig) -> Sim {
        let nodes: Vec<Node> = net
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| Node {
                host: n.host,
                port_names: n.ports.iter().map(|p| p.name.clone()).collect(),
                ports: n
                    .ports
                    .iter()
                    .map(|p| Port {
                        peer: p.peer,
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
                    })
                    .collect(),
                routes: n.routes.clone(),
                salt: mix(cfg.seed, i as u64),
            })
            .collect();
        let hosts = net
            .host_nodes
            .iter()
            .map(|&n| Host {
                node: n,
                ready: VecDeque::new(),
            })
            .collect();
        let mss = cfg.mss_bytes as u64;
        let flows: Vec<Flow> = flows
            .into_iter()
            .map(|spec| Flow {
                cc: profiles[spec.profile].params.new_state(),
                total_segs: if spec.size_bytes == 0 {
                    u64::MAX
                } else {
                    spec.size_bytes.div_ceil(mss)
                },
                spec,
                started: false,
                done: false,
                una: 0,
                nxt: 0,
                segs: VecDeque::new(),
                sacked: 0,
                lost_pending: 0,
                retx_hint: 0,
                rack_ns: 0,
                in_recovery: false,
                recovery_seg: 0,
                cwnd_pkts: 1,
                cwnd_q16: 0,
                law_rate_bps: 0,
                pacing_bps: 0,
                signal: 0,
                next_send_ns: 0,
                in_ready: false,
                wake_at: 0,
                srtt_ns: 0,
                rttvar_ns: 0,
                min_rtt_ns: u64::MAX,
                rto_ns: cfg.min_rto_ns,
                rto_deadline: 0,
                rto_scheduled: false,
                delivered_bytes: 0,
                finish_ns: 0,
                retransmits: 0,
                timeouts: 0,
                rcv_nxt: 0,
                ooo: BTreeSet::new(),
                pending_acks: 0,
                pending_since_ns: 0,
                pending_ce: false,
                last_ce: false,
                delack_deadline: 0,
                delack_scheduled: false,
                rx_bytes: 0,
                last_hops: 0,
            })
            .collect();
        let n_traced = flows.len().min(cfg.trace_flows);
        let monitors = net.monitors.clone();
        let monitor_names = monitors
            .iter()
            .map(|&(n, p)| net.nodes[n as usize].ports[p as usize].name.clone())
            .collect();
        let series = Series {
            flow_bps: vec![Vec::new(); n_traced],
            flow_cwnd_bytes: vec![Vec::new(); n_traced],
            flow_rate_bps: vec![Vec::new(); n_traced],
            queue_bytes: vec![Vec::new(); monitors.len()],
            queue_max_bytes: vec![Vec::new(); monitors.len()],
            ..Default::default()
        };
        let nf = flows.len();
        let mut sim = Sim {
            now: 0,
            seq: 0,
            heap: BinaryHeap::new(),
            nodes,
            hosts,
            flows,
            profiles,
            rng: Rng::new(mix(cfg.seed, 0x5eed)),
            cfg,
            c: Counters::default(),
            series,
            monitors,
            monitor_names,
            last_rx: vec![0; nf],
            rtt_samples: Vec::new(),
            ideal: Vec::new(),
        };
        sim.ideal = (0..nf).map(|f| sim.ideal_fct_ns(f)).collect();
        for f in 0..nf {
            let t = sim.flows[f].spec.start_ns;
            sim.schedule(t, Ev::FlowStart(f as u32));
        }
        sim.schedule(sim.cfg.sample_ns, Ev::Sample);
        sim
    }

    fn schedule(&mut self, t: u64, ev: Ev) {
        self.seq += 1;
        self.heap.push(Entry {
            t,
            seq: self.seq,
            ev,
        });
    }

    /// Current simulated time, ns.
    pub fn now_ns(&self) -> u64 {
        self.now
    }

    /// Events processed so far.
    pub fn events(&self) -> u64 {
        self.c.events
    }

    /// Run until `t_end_ns` (events at exactly `t_end_ns` included).
    pub fn run_until(&mut self, t_end_ns: u64) {
        while let Some(top) = self.heap.peek() {
            if top.t > t_end_ns {
                break;
            }
            let e = self.heap.pop().expect("peeked");
            self.now = e.t;
            self.c.events += 1;
            match e.ev {
                Ev::TxDone { node, port } => self.on_tx_done(node, port),
                Ev::Arrive { node, pkt } => self.on_arrive(node, pkt),
                Ev::FlowStart(f) => self.on_flow_start(f),
                Ev::Wake(f) => {
                    let fl = &mut self.flows[f as usize];
                    if fl.wake_at == self.now {
                        fl.wake_at = 0;
                    }
                    self.try_ready(f);
                }
                Ev::Rto(f) => self.on_rto(f),
                Ev::DelAck(f) => self.on_delack(f),
                Ev::Sample => self.on_sample(),
            }
        }
        self.now = self.now.max(t_end_ns);
    }

    /// Run the configured duration and collect the output.
    pub fn run(mut self) -> RunOutput {
        let end = self.cfg.duration_ns;
        self.run_until(end);
        self.finish()
    }

    /// Collect the output at the current time.
    pub fn finish(self) -> RunOutput {
        let mut in_net = 0u64;
        for n in &self.nodes {
            for p in &n.ports {
                in_net += p.queue.iter().filter(|k| k.flags & PKT_ACK == 0).count() as u64;
                if let Some(k) = p.in_tx {
                    in_net += (k.flags & PKT_ACK == 0) as u64;
                }
            }
        }
        for e in self.heap.iter() {
            if let Ev::Arrive { pkt, .. } = e.ev {
                in_net += (pkt.flags & PKT_ACK == 0) as u64;
            }
        }
        let mut port_stats = Vec::new();
        for n in self.nodes.iter().filter(|n| n.host.is_none()) {
            for (p, name) in n.ports.iter().zip(&n.port_names) {
                port_stats.push((name.clone(), p.drops, p.max_queue_bytes, p.tx_bytes));
            }
        }
        let monitor_rates = self
            .monitors
            .iter()
            .map(|&(n, p)| self.nodes[n as usize].ports[p as usize].rate_bits_per_s)
            .collect();
        RunOutput {
            profiles: self.profiles.iter().map(|p| p.name.clone()).collect(),
            flows: self
                .flows
                .iter()
                .enumerate()
                .map(|(i, f)| FlowRecord {
                    spec: f.spec.clone(),
                    finish_ns: f.done.then_some(f.finish_ns),
                    ideal_ns: self.ideal[i],
                    rx_bytes: f.rx_bytes,
                    retransmits: f.retransmits,
                    last_signal: f.signal,
                })
                .collect(),
            series: self.series,
            monitor_names: self.monitor_names,
            monitor_rates,
            rtt_ns: self.rtt_samples,
            counters: self.c,
            data_in_network: in_net,
            port_stats,
            end_ns: self.now,
        }
    }

    // ---- paths -------------------------------------------------------------------------

    fn route_port(&self, node: u32, pkt: &Packet) -> u16 {
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
    fn path(&self, flow: usize, ack: bool) -> Vec<(u32, u16)> {
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

    fn ideal_fct_ns(&self, flow: usize) -> u64 {
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

    fn enqueue(&mut self, node: u32, port: u16, mut pkt: Packet) {
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

    fn start_tx(&mut self, node: u32, port: u16) {
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

    fn on_tx_done(&mut self, node: u32, port: u16) {
        let p = &mut self.nodes[node as usize].ports[port as usize];
        let pkt = p.in_tx.take().expect("a packet was on the wire");
        p.tx_bytes += pkt.wire as u64;
        let (peer, t) = (p.peer, self.now + p.delay_ns);
        self.schedule(t, Ev::Arrive { node: peer, pkt });
        self.start_tx(node, port);
    }

    fn on_arrive(&mut self, node: u32, mut pkt: Packet) {
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

    fn kick_host(&mut self, host: u32) {
        let node = self.hosts[host as usize].node;
        if !self.nodes[node as usize].ports[0].busy {
            self.start_tx(node, 0);
        }
    }

    // ---- sender ------------------------------------------------------------------------

    fn on_flow_start(&mut self, f: u32) {
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

    fn seg_len(&self, f: &Flow, seg: u64) -> u64 {
        let mss = self.cfg.mss_bytes as u64;
        if f.spec.size_bytes > 0 && seg + 1 == f.total_segs {
            f.spec.size_bytes - seg * mss
        } else {
            mss
        }
    }

    fn byte_seq(mss: u32, f: &Flow, seg: u64) -> u32 {
        let b = seg.saturating_mul(mss as u64);
        let b = if f.spec.size_bytes > 0 {
            b.min(f.spec.size_bytes)
        } else {
            b
        };
        b as u32 // wrapping, as TCP sequence numbers do
    }

    fn apply(&mut self, f: usize, d: Decision) {
        let mss = self.cfg.mss_bytes as u64;
        let fl = &mut self.flows[f];
        fl.signal = d.signal;
        if d.cwnd_bytes_q16 == 0 {
            return; // the law has no state yet: leave the window (rdcc_apply)
        }
        fl.cwnd_q16 = d.cwnd_bytes_q16;
        fl.cwnd_pkts = d.cwnd_pkts(self.cfg.mss_bytes).clamp(1, 1 << 20) as u64;
        fl.law_rate_bps = d.pacing_rate_bps;
        fl.pacing_bps = if d.pacing_rate_bps > 0 {
            d.pacing_rate_bps
        } else if fl.srtt_ns > 0 {
            // The kernel's default for a law that does not pace: 2 * cwnd / srtt.
            ((2 * fl.cwnd_pkts * mss) as u128 * 1_000_000_000 / fl.srtt_ns as u128) as u64
        } else {
            0
        };
    }

    fn pipe(f: &Flow) -> u64 {
        (f.nxt - f.una) - f.sacked - f.lost_pending
    }

    /// `Some(t)`: can send at `t` (now or later); `None`: blocked (window, no data).
    fn send_time(f: &Flow) -> Option<u64> {
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

    fn try_ready(&mut self, f: u32) {
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

    fn host_pull(&mut self, h: u32) -> Option<Packet> {
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

    fn emit(&mut self, f: usize) -> Packet {
        let now = self.now;
        let ecn = self.profiles[self.flows[f].spec.profile].law.ecn();
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
        let fl = &mut self.flows[f];
        if fl.pacing_bps > 0 {
            fl.next_send_ns = now + (wire as u128 * 1_000_000_000 / fl.pacing_bps as u128) as u64;
        }
        if fl.rto_deadline == 0 {
            self.arm_rto(f);
        }
        self.c.data_sent += 1;
        let fl = &self.flows[f];
        Packet {
            seg,
            sack: NO_SACK,
            flow: f as u32,
            dst: fl.spec.dst,
            wire: wire as u32,
            hold_ns: 0,
            hops: 0,
            flags: if ecn { PKT_ECT } else { 0 },
        }
    }

    fn arm_rto(&mut self, f: usize) {
        let now = self.now;
        let fl = &mut self.flows[f];
        fl.rto_deadline = now + fl.rto_ns;
        if !fl.rto_scheduled {
            fl.rto_scheduled = true;
            let t = fl.rto_deadline;
            self.schedule(t, Ev::Rto(f as u32));
        }
    }

    fn on_rto(&mut self, f: u32) {
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

    fn on_ack_pkt(&mut self, pkt: Packet) {
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
            if pkt.sack != NO_SACK && pkt.sack >= fl.una && pkt.sack < fl.nxt {
                let i = (pkt.sack - fl.una) as usize;
                let s = fl.segs[i];
                if s.state != SEG_SACKED {
                    if s.state == SEG_LOST {
                        fl.lost_pending -= 1;
                    } else {
                        note(s, &mut newest);
                    }
                    fl.segs[i].state = SEG_SACKED;
                    fl.sacked += 1;
                    acked_bytes += len(pkt.sack);
                }
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
            // The simulated NIC hands the ACK to the sender without a host Rx queue.
            local_rx_delay_ns: 0,
            telemetry: 0,
        };
        let d = self.profiles[fl.spec.profile]
            .params
            .on_ack(&mut fl.cc, &ev);
        self.apply(f, d);
        let fl = &mut self.flows[f];
        if fl.una >= fl.total_segs {
            fl.done = true;
            fl.finish_ns = now;
            fl.rto_deadline = 0;
            return;
        }
        if advanced {
            if fl.nxt > fl.una {
                self.arm_rto(f);
            } else {
                fl.rto_deadline = 0;
            }
        }
        self.try_ready(f as u32);
    }

    // ---- receiver ----------------------------------------------------------------------

    fn on_data(&mut self, pkt: Packet) {
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
            while fl.ooo.remove(&fl.rcv_nxt) {
                fl.rx_bytes += len(fl.rcv_nxt);
                fl.rcv_nxt += 1;
            }
            if had_hole {
                immediate = true;
            }
        } else {
            fl.ooo.insert(pkt.seg);
            sack = pkt.seg;
            immediate = true;
        }
        if fl.pending_acks == 0 {
            fl.pending_since_ns = now;
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

    fn on_delack(&mut self, f: u32) {
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

    fn send_ack(&mut self, f: usize, sack: u64, delayed: bool) {
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
        let pkt = Packet {
            seg: fl.rcv_nxt,
            sack,
            flow: f as u32,
            dst: fl.spec.src,
            wire: self.cfg.ack_bytes,
            hold_ns: hold,
            hops: fl.last_hops,
            flags,
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

    // ---- metrics -----------------------------------------------------------------------

    fn on_sample(&mut self) {
        let now = self.now;
        let dt = self.cfg.sample_ns;
        let t0 = now.saturating_sub(dt);
        let s = &mut self.series;
        s.t_ns.push(now);
        let mut sum = 0.0;
        let mut sq = 0.0;
        let mut n = 0u32;
        let mut total = 0.0;
        for (i, f) in self.flows.iter().enumerate() {
            let bytes = f.rx_bytes - self.last_rx[i];
            self.last_rx[i] = f.rx_bytes;
            let bps = bytes as f64 * 8e9 / dt as f64;
            total += bps;
            if i < s.flow_bps.len() {
                s.flow_bps[i].push(bps);
                s.flow_cwnd_bytes[i].push(f.cwnd_q16 as f64 / 65536.0);
                s.flow_rate_bps[i].push(f.pacing_bps as f64 * 8.0);
            }
            let active = f.started && f.spec.start_ns <= t0 && (!f.done || f.finish_ns >= now);
            if active {
                sum += bps;
                sq += bps * bps;
                n += 1;
            }
        }
        s.jain.push(if n > 0 && sq > 0.0 {
            sum * sum / (n as f64 * sq)
        } else {
            f64::NAN
        });
        s.active.push(n);
        s.total_bps.push(total);
        for (k, &(node, port)) in self.monitors.iter().enumerate() {
            let p = &mut self.nodes[node as usize].ports[port as usize];
            s.queue_bytes[k].push(p.queue_bytes);
            s.queue_max_bytes[k].push(p.max_since_sample);
            p.max_since_sample = p.queue_bytes;
        }
        if now + dt <= self.cfg.duration_ns {
            self.schedule(now + dt, Ev::Sample);
        }
    }
}
