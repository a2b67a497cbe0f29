//! The discrete-event engine: a binary heap of events keyed by (time ns, sequence number),
//! switches with drop-tail FIFOs and ECN marking, host NICs that serve their flows round-robin
//! (like Linux `fq`), TCP-like senders with SACK/RACK loss detection and RTO, receivers that ACK
//! every packet or every second packet, and the controller calls of the kernel glue.
//!
//! Enforcement mirrors `modules/glue/rdcc_glue.c` (`rdcc_apply`), rule in `enforce.rs`: the
//! window is `Decision::cwnd_pkts` (whole packets, at least 1) and a law's pacing rate is used
//! as is; a law that returns pacing 0 is paced at `2 * cwnd * mss / srtt` (the kernel's
//! default), unlimited before the first RTT sample, except that a fractional window below 8
//! packets is rounded up and paced at `cwnd_bytes / srtt`. A window below one packet is one
//! packet in flight at the law's rate (Swift: `cwnd * mss / rtt`); 1.84 packets are 2 in
//! flight at 1.84 packets per srtt.

mod enforce;
mod fabric;
mod host;
mod output;
mod transport;

use fabric::Node;
pub use fabric::{check_fabric, check_int, FabricConfig};
use host::Host;
pub use host::HostRx;
pub use output::{Counters, FlowRecord, PortStat, RunOutput, Series};
use transport::Flow;

use crate::cc::{CcParams, CcState, Law};
use crate::event_queue::{Entry, EventQueue};
use crate::rng::{mix, Rng};
use crate::topo::Network;
use rdcc_core::event::{
    AckEvent, Decision, LossEvent, LossKind, ACK_APP_LIMITED, ACK_DELAYED, ACK_ECE, ACK_HAS_HOPS,
    ACK_HAS_LOCAL_RX, ACK_HAS_REMOTE_DELAY, ACK_HAS_RTT, ACK_IN_RECOVERY, DEC_ENDPOINT_BINDS,
};
use rdcc_core::int::{IntHop, IntStack};
use std::collections::{BTreeMap, VecDeque};

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
    /// Tail-loss probe (RFC 8985 §7): after 2 x srtt without an ACK, send one probe (new data,
    /// or the last segment again) so a tail loss is repaired by SACK instead of the RTO. Off
    /// by default: the papers' RDMA NICs have none (the reproductions stay as documented).
    pub tlp: bool,
    /// Pacing granularity, wire bytes. 0: every packet waits size / rate after the previous
    /// one. Otherwise a paced flow sends up to this many bytes back to back (at the NIC's
    /// rate) and the next burst starts `burst / rate` after the previous one started: TIMELY's
    /// scheduler, which paces segments of up to 64 KB that leave "as a burst of packets"
    /// (TIMELY §3.3). Laws that do not pace are unaffected.
    pub pace_burst_bytes: u64,
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
    /// Switch buffers and PFC.
    pub fabric: FabricConfig,
    /// Loss injection (tests of loss recovery): `(flow, segment, ack)`: the first
    /// transmission of the data segment, or (`ack`) the first ACK sent for that segment (its
    /// SACK reports it, or in order its cumulative ACK is `segment + 1`), is dropped at the
    /// first switch it reaches.
    pub inject_drops: Vec<(u32, u64, bool)>,
    /// Hosts with a receive path (processing rate, fixed delay); the others hand packets to
    /// TCP on arrival.
    pub host_rx: Vec<HostRx>,
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
            tlp: false,
            pace_burst_bytes: 0,
            sample_ns: 10_000,
            duration_ns: 10_000_000,
            measure_from_ns: 0,
            seed: 1,
            trace_flows: 64,
            fabric: FabricConfig::default(),
            host_rx: Vec::new(),
            inject_drops: Vec::new(),
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
/// Data of a law that reads INT: every switch egress appends a record to `Packet::int`.
const PKT_INT: u8 = 32;
const NO_SACK: u64 = u64::MAX;

#[derive(Clone, Copy, Debug)]
struct Packet {
    /// Data: segment index. ACK: cumulative ACK (next expected segment).
    seg: u64,
    /// ACK: the out-of-order segment this ACK reports (SACK), or `NO_SACK`.
    sack: u64,
    /// ACK: up to 3 SACK blocks `[start, end)` as offsets from `seg` (the cumulative ACK),
    /// 0/0 = none. The first contains `sack` (RFC 2018 §4); the others are the lowest other
    /// out-of-order ranges.
    blocks: [u32; 6],
    flow: u32,
    /// Destination host.
    dst: u32,
    wire: u32,
    /// ACK: receiver hold time of the data it acknowledges (from its NIC arrival), ns.
    hold_ns: u32,
    /// Time spent in the receiving host's receive path, ns.
    rx_ns: u32,
    /// At a switch: the port whose link it arrived on (its ingress queue for PFC).
    in_port: u16,
    /// Data: switches traversed; ACK: the echoed forward count.
    hops: u8,
    flags: u8,
    /// Data with `PKT_INT`: the records of the switches passed so far (egress order). ACK:
    /// the stack of the data packet it acknowledges, echoed by the receiver.
    int: IntStack,
}

#[derive(Clone, Copy, Debug)]
enum Ev {
    TxDone {
        node: u32,
        port: u16,
    },
    /// Packet `pkt` (a slot of `Sim::pkts`) reaches `node`.
    Arrive {
        node: u32,
        pkt: u32,
    },
    /// A host's receive path hands packet `pkt` (a slot) to TCP.
    RxDone {
        pkt: u32,
    },
    /// A PFC frame reaches the transmitter `port` of `node`: pause (XOFF) or resume (XON).
    Pfc {
        node: u32,
        port: u16,
        pause: bool,
    },
    FlowStart(u32),
    Wake(u32),
    Rto(u32),
    Tlp(u32),
    DelAck(u32),
    Sample,
}

// Heap entries stay at half a cache line (packets live in `Sim::pkts`).
const _: () = assert!(std::mem::size_of::<Entry<Ev>>() == 32);

/// Ground truth for tests of the INT channel ([`Sim::log_int`]).
#[derive(Clone, Debug, Default)]
pub struct IntLog {
    /// Every switch dequeue of an INT data packet, in time order.
    pub dequeues: Vec<IntDequeue>,
    /// Every ACK handed to a law, with the stack it echoed: (flow, cumulative ACK segment,
    /// stack).
    pub acks: Vec<(u32, u64, IntStack)>,
}

/// The port state when a switch scheduled an INT data packet.
#[derive(Clone, Copy, Debug)]
pub struct IntDequeue {
    /// Flow.
    pub flow: u32,
    /// Data segment.
    pub seg: u64,
    /// Switch node.
    pub node: u32,
    /// Bytes queued behind the packet at the port.
    pub queue_bytes: u64,
    /// The port's transmitted bytes including this packet.
    pub tx_bytes: u64,
    /// Time, ns.
    pub now_ns: u64,
    /// Port rate, bit/s.
    pub rate_bits_per_s: u64,
}

/// The simulator.
pub struct Sim {
    /// Test ground truth of the INT channel, when enabled.
    int_log: Option<Box<IntLog>>,
    now: u64,
    events: EventQueue<Ev>,
    /// Packets referred to by pending events (slots; freed when the event runs). Keeps heap
    /// entries at 32 bytes instead of 64: the heap is the hot spot at scale.
    pkts: Vec<Packet>,
    free_pkts: Vec<u32>,
    /// `SimConfig::inject_drops` not yet applied.
    inject: Vec<(u32, u64, bool)>,
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
    /// The flow of each of `rtt_samples`.
    rtt_flows: Vec<u32>,
    ideal: Vec<u64>,
}

impl Sim {
    /// A simulator over `net` with `flows` using `profiles`.
    pub fn new(net: &Network, profiles: Vec<Profile>, flows: Vec<FlowSpec>, cfg: SimConfig) -> Sim {
        let max_wire = (cfg.mss_bytes + cfg.header_bytes).max(cfg.ack_bytes) as u64;
        let nodes: Vec<Node> = net
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| Node::new(n, mix(cfg.seed, i as u64), &cfg.fabric, max_wire))
            .collect();
        let hosts = net
            .host_nodes
            .iter()
            .map(|&n| Host::new(n))
            .collect::<Vec<_>>();
        let mut hosts = hosts;
        for r in &cfg.host_rx {
            hosts[r.host as usize].rx = Some(*r);
        }
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
                burst_bytes: 0,
                burst_start_ns: 0,
                in_ready: false,
                wake_at: 0,
                srtt_ns: 0,
                rttvar_ns: 0,
                min_rtt_ns: u64::MAX,
                rto_ns: cfg.min_rto_ns,
                rto_deadline: 0,
                rto_scheduled: false,
                tlp_deadline: 0,
                tlp_scheduled: false,
                tlp_out: false,
                probe: false,
                delivered_bytes: 0,
                finish_ns: 0,
                retransmits: 0,
                drops: 0,
                timeouts: 0,
                rcv_nxt: 0,
                ooo: BTreeMap::new(),
                pending_acks: 0,
                pending_since_ns: 0,
                pending_ce: false,
                last_ce: false,
                delack_deadline: 0,
                delack_scheduled: false,
                rx_bytes: 0,
                last_hops: 0,
                last_int: IntStack::EMPTY,
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
            flow_rx_bytes: vec![Vec::new(); n_traced],
            flow_cwnd_bytes: vec![Vec::new(); n_traced],
            flow_rate_bps: vec![Vec::new(); n_traced],
            queue_bytes: vec![Vec::new(); monitors.len()],
            queue_max_bytes: vec![Vec::new(); monitors.len()],
            port_tx_bytes: vec![Vec::new(); monitors.len()],
            ..Default::default()
        };
        let nf = flows.len();
        let mut sim = Sim {
            now: 0,
            events: EventQueue::new(),
            pkts: Vec::new(),
            free_pkts: Vec::new(),
            inject: cfg.inject_drops.clone(),
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
            rtt_flows: Vec::new(),
            ideal: Vec::new(),
            int_log: None,
        };
        sim.ideal = (0..nf).map(|f| sim.ideal_fct_ns(f)).collect();
        for f in 0..nf {
            let t = sim.flows[f].spec.start_ns;
            sim.schedule(t, Ev::FlowStart(f as u32));
        }
        sim.schedule(sim.cfg.sample_ns, Ev::Sample);
        sim
    }

    /// Park a packet for an event; returns its slot.
    fn put_pkt(&mut self, pkt: Packet) -> u32 {
        match self.free_pkts.pop() {
            Some(i) => {
                self.pkts[i as usize] = pkt;
                i
            }
            None => {
                self.pkts.push(pkt);
                (self.pkts.len() - 1) as u32
            }
        }
    }

    /// Take a parked packet back (the slot is free again).
    fn take_pkt(&mut self, slot: u32) -> Packet {
        self.free_pkts.push(slot);
        self.pkts[slot as usize]
    }

    fn schedule(&mut self, t: u64, ev: Ev) {
        self.events.schedule(t, ev);
    }

    /// Record the ground truth of the INT channel (switch dequeues, echoed stacks); see
    /// [`Sim::int_log`].
    pub fn log_int(&mut self) {
        self.int_log = Some(Box::default());
    }

    /// The INT ground truth recorded since [`Sim::log_int`].
    pub fn int_log(&self) -> Option<&IntLog> {
        self.int_log.as_deref()
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
        while let Some(e) = self.events.pop_until(t_end_ns) {
            self.now = e.t;
            self.c.events += 1;
            match e.ev {
                Ev::TxDone { node, port } => self.on_tx_done(node, port),
                Ev::Arrive { node, pkt } => {
                    let pkt = self.take_pkt(pkt);
                    self.on_arrive(node, pkt)
                }
                Ev::RxDone { pkt } => {
                    let pkt = self.take_pkt(pkt);
                    self.deliver(pkt)
                }
                Ev::Pfc { node, port, pause } => self.on_pfc(node, port, pause),
                Ev::FlowStart(f) => self.on_flow_start(f),
                Ev::Wake(f) => {
                    let fl = &mut self.flows[f as usize];
                    if fl.wake_at == self.now {
                        fl.wake_at = 0;
                    }
                    self.try_ready(f);
                }
                Ev::Rto(f) => self.on_rto(f),
                Ev::Tlp(f) => self.on_tlp(f),
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
}
