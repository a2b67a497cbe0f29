//! ExpressPass in the simulator: receiver-driven credits (Cho, Jang, Han, SIGCOMM 2017).
//!
//! A separate event loop over the same topologies ([`crate::topo`]) and the same output
//! ([`RunOutput`](crate::engine::RunOutput), so metrics, CSV and plots are shared) as the TCP engine: ExpressPass has no
//! ACK clock, no window and no SACK; its switches have a second, rate-limited class. What runs:
//!
//! - every output port (switch ports and host NICs) is an [`port::XPort`]: credit class limited
//!   to `C * credit / (credit + max frame)` with a token bucket of `bucket_credits` credits and
//!   a drop-tail credit queue of `credit_queue` credits; a data FIFO with the port's buffer
//!   (paper §3.1, artifact `XPassDropTail`);
//! - routing is symmetric: at an ECMP choice every switch ranks its candidate next hops by the
//!   peer's node id (deterministic ECMP) and picks the rank `hash(flow) mod n` (symmetric
//!   hashing, no direction in the key), so data retraces its credit's path (§3.1);
//! - the receiver's credit rate and the sender's credit consumption are the core's law
//!   ([`rdcc_core::expresspass`]); the host adds credit timers, a host processing delay
//!   `host_delay + U[0, host_delay_spread]` between a credit's arrival and its data (Δd_host of
//!   Eq. 1), CREDIT_REQUEST with the artifact's RTO, CREDIT_STOP, and go-back-N on a NACK for
//!   the rare data loss;
//! - `naive = true` is §2's naive scheme: credits at the maximum rate, no feedback control.
//!
//! FCT is measured at the receiver (last byte delivered).

pub mod bound;
pub mod config;
mod endpoint;
mod output;
pub mod port;

use crate::engine::{Counters, FlowSpec, Series};
use crate::error::{invalid, Result};
use crate::event_queue::EventQueue;
use crate::rng::{mix, Rng};
use crate::topo::{Network, RouteTable};
use port::{Next, XPkt, XPort, KIND_CREDIT, KIND_DATA};
use rdcc_core::expresspass::{Config as LawConfig, Params, Receiver, Sender};

/// Settings of one ExpressPass run.
#[derive(Clone, Debug)]
pub struct XpassConfig {
    /// The law's parameters; `link_rate_mbps` is replaced per flow by the receiver NIC's rate.
    pub law: LawConfig,
    /// Payload bytes per data packet (artifact: 1538 - 78 = 1460).
    pub mss_bytes: u32,
    /// Header bytes per data packet on the wire (artifact: 78, with preamble and IFG 1538 in
    /// all for a full packet).
    pub header_bytes: u32,
    /// Wire size of credits and control packets (84).
    pub credit_bytes: u32,
    /// Credit sizes are uniform in `credit_bytes ± credit_size_spread` (the artifact's
    /// large-scale runs: 76 to 92 B), which breaks drop-tail phase locking; 0 = fixed size.
    pub credit_size_spread: u32,
    /// Credit queue per port, credits (§3.1: 4 to 8).
    pub credit_queue: usize,
    /// Token bucket per port, credits (§3.1: 2).
    pub bucket_credits: u64,
    /// Fixed host delay from a credit's arrival to its data on the NIC, ns.
    pub host_delay_ns: u64,
    /// Spread of the host delay (Δd_host), ns: uniform in [0, spread].
    pub host_delay_spread_ns: u64,
    /// §2's naive scheme: credits at the maximum rate without feedback control.
    pub naive: bool,
    /// Full credit queues drop a uniformly random credit instead of the arrival (§3.1 "uniform
    /// random dropping"; `port.rs`). Off: drop-tail, as the artifact's `XPassDropTail`.
    pub random_credit_drop: bool,
    /// Metrics sampling interval, ns.
    pub sample_ns: u64,
    /// Simulated time, ns.
    pub duration_ns: u64,
    /// Seed (jitter, host delay, ECMP hash).
    pub seed: u64,
    /// Flows with a per-flow time series.
    pub trace_flows: usize,
}

impl Default for XpassConfig {
    fn default() -> Self {
        XpassConfig {
            law: LawConfig::DEFAULT,
            mss_bytes: 1460,
            header_bytes: 78,
            credit_bytes: 84,
            credit_size_spread: 8,
            credit_queue: 8,
            bucket_credits: 2,
            host_delay_ns: 1_000,
            host_delay_spread_ns: 1_000,
            naive: false,
            random_credit_drop: false,
            sample_ns: 10_000,
            duration_ns: 10_000_000,
            seed: 1,
            trace_flows: 64,
        }
    }
}

/// ExpressPass counters beyond the shared [`Counters`].
#[derive(Clone, Debug, Default)]
pub struct XpassStats {
    /// Credits the receivers sent.
    pub credits_sent: u64,
    /// Credits dropped by rate limiting (all ports).
    pub credits_dropped: u64,
    /// Credits that reached a sender with nothing to send (or after CREDIT_STOP).
    pub credits_wasted: u64,
    /// Data-class packets dropped (data, requests, stops, NACKs).
    pub data_class_dropped: u64,
    /// Largest data queue over all switch ports, bytes.
    pub max_switch_queue_bytes: u64,
    /// Credit requests resent on the RTO.
    pub request_timeouts: u64,
    /// NACKs sent.
    pub nacks: u64,
    /// Per switch port carrying data: Eq. 1's bound beside the largest queue seen (computed
    /// at the end of runs with at most `EQ1_MAX_FLOWS` flows; empty otherwise).
    pub eq1: Vec<Eq1Port>,
    /// Per flow: (credits its receiver sent, credits that reached the sender, of which
    /// wasted). `1 - reached / sent` is the flow's credit loss (§3.1 "fair credit drop").
    pub flow_credits: Vec<(u64, u64, u64)>,
}

/// One port's Eq. 1 bound and what the run saw there.
#[derive(Clone, Debug)]
pub struct Eq1Port {
    /// Port name.
    pub name: String,
    /// Delay spread, ns.
    pub spread_ns: u64,
    /// Bound, bytes.
    pub bound_bytes: u64,
    /// Largest data queue in the run, bytes.
    pub max_queue_bytes: u64,
}

/// Runs with more flows skip the Eq. 1 computation at the end (it visits every flow's path
/// once per port it crosses).
pub const EQ1_MAX_FLOWS: usize = 20_000;

#[derive(Clone, Copy, Debug)]
enum Ev {
    TxDone { node: u32, port: u16 },
    Arrive { node: u32, pkt: XPkt },
    Wake { node: u32, port: u16 },
    FlowStart(u32),
    CreditTimer(u32),
    HostTx { host: u32, pkt: XPkt },
    Rto(u32),
    Sample,
}

struct XNode {
    host: Option<u32>,
    names: Vec<String>,
    ports: Vec<XPort>,
    routes: RouteTable,
}

struct XFlow {
    spec: FlowSpec,
    params: Params,
    rx: Receiver,
    tx: Sender,
    /// Bytes to send (`u64::MAX` = unlimited).
    total: u64,
    snd_nxt: u64,
    rcv_nxt: u64,
    rx_bytes: u64,
    started: bool,
    done: bool,
    finish_ns: u64,
    timer_on: bool,
    rto_on: bool,
    last_nack_ns: u64,
    last_stop_ns: u64,
    retransmits: u64,
    /// Data packets of this flow dropped at switches.
    drops: u64,
    /// Smallest credit-to-data RTT seen, ns.
    min_rtt_ns: Option<u64>,
    /// Sender: credit session number (one per CREDIT_REQUEST that opens a session; carried by
    /// the request and the stop).
    session: u32,
    /// Receiver: the newest session it has seen; a stop of another session is stale.
    rx_session: u32,
    /// Receiver: credits sent.
    credits_sent: u64,
}

/// The ExpressPass simulator.
pub struct XpassSim {
    now: u64,
    events: EventQueue<Ev>,
    nodes: Vec<XNode>,
    host_nodes: Vec<u32>,
    /// Per host: when its processing of the latest credit ends, ns.
    host_free_ns: Vec<u64>,
    flows: Vec<XFlow>,
    profiles: Vec<String>,
    cfg: XpassConfig,
    rng: Rng,
    ecmp_salt: u64,
    c: Counters,
    x: XpassStats,
    series: Series,
    monitors: Vec<(u32, u16)>,
    monitor_names: Vec<String>,
    last_rx: Vec<u64>,
    rtt_samples: Vec<u32>,
    /// The flow of each of `rtt_samples`.
    rtt_flows: Vec<u32>,
    measure_from_ns: u64,
}

impl XpassSim {
    /// A simulator over `net`. `profile` names the run; `measure_from_ns` starts RTT sampling.
    pub fn new(
        net: &Network,
        profile: &str,
        flows: Vec<FlowSpec>,
        cfg: XpassConfig,
        measure_from_ns: u64,
    ) -> Result<XpassSim> {
        let max_frame = (cfg.mss_bytes + cfg.header_bytes) as u64;
        let credit = cfg.credit_bytes as u64;
        let bucket = cfg.bucket_credits * credit;
        let nodes: Vec<XNode> = net
            .nodes
            .iter()
            .enumerate()
            .map(|(node_id, n)| XNode {
                host: n.host,
                names: n.ports.iter().map(|p| p.name.clone()).collect(),
                ports: n
                    .ports
                    .iter()
                    .map(|p| {
                        XPort::new(
                            p.peer,
                            p.rate_bits_per_s,
                            p.delay_ns,
                            p.buffer_bytes,
                            cfg.credit_queue,
                            (credit, credit + max_frame),
                            bucket,
                        )
                    })
                    .enumerate()
                    .map(|(i, p)| {
                        if cfg.random_credit_drop {
                            p.with_random_credit_drop(mix(cfg.seed, mix(node_id as u64, i as u64)))
                        } else {
                            p
                        }
                    })
                    .collect(),
                routes: n.routes.clone(),
            })
            .collect();
        let mut xf = Vec::with_capacity(flows.len());
        for (i, spec) in flows.into_iter().enumerate() {
            let rnode = net.host_nodes[spec.dst as usize] as usize;
            let rate = net.nodes[rnode].ports[0].rate_bits_per_s;
            let law = LawConfig {
                link_rate_mbps: rate / 1_000_000,
                credit_bytes: credit,
                max_data_frame_bytes: max_frame,
                ..cfg.law
            };
            let params = Params::new(&law).map_err(|e| {
                invalid!(
                    "expresspass: flow {i}: {}={} out of range [{}, {}]",
                    e.field,
                    e.value,
                    e.min,
                    e.max
                )
            })?;
            xf.push(XFlow {
                total: if spec.size_bytes == 0 {
                    u64::MAX
                } else {
                    spec.size_bytes
                },
                spec,
                params,
                rx: Receiver::default(),
                tx: Sender::default(),
                snd_nxt: 0,
                rcv_nxt: 0,
                rx_bytes: 0,
                started: false,
                done: false,
                finish_ns: 0,
                timer_on: false,
                rto_on: false,
                last_nack_ns: 0,
                last_stop_ns: 0,
                retransmits: 0,
                drops: 0,
                min_rtt_ns: None,
                session: 0,
                rx_session: 0,
                credits_sent: 0,
            });
        }
        let n_traced = xf.len().min(cfg.trace_flows);
        let monitors = net.monitors.clone();
        let monitor_names = monitors
            .iter()
            .map(|&(n, p)| net.nodes[n as usize].ports[p as usize].name.clone())
            .collect();
        let nf = xf.len();
        let mut sim = XpassSim {
            now: 0,
            events: EventQueue::new(),
            nodes,
            host_nodes: net.host_nodes.clone(),
            host_free_ns: vec![0; net.host_nodes.len()],
            flows: xf,
            profiles: vec![profile.to_string()],
            rng: Rng::new(mix(cfg.seed, 0x0c0d_17ed)),
            ecmp_salt: mix(cfg.seed, 0xec3d),
            cfg,
            c: Counters::default(),
            x: XpassStats::default(),
            series: Series {
                flow_bps: vec![Vec::new(); n_traced],
                flow_rx_bytes: vec![Vec::new(); n_traced],
                flow_cwnd_bytes: vec![Vec::new(); n_traced],
                flow_rate_bps: vec![Vec::new(); n_traced],
                queue_bytes: vec![Vec::new(); monitors.len()],
                queue_max_bytes: vec![Vec::new(); monitors.len()],
                port_tx_bytes: vec![Vec::new(); monitors.len()],
                ..Default::default()
            },
            monitors,
            monitor_names,
            last_rx: vec![0; nf],
            rtt_samples: Vec::new(),
            rtt_flows: Vec::new(),
            measure_from_ns,
        };
        for f in 0..nf {
            let t = sim.flows[f].spec.start_ns;
            sim.schedule(t, Ev::FlowStart(f as u32));
        }
        sim.schedule(sim.cfg.sample_ns, Ev::Sample);
        Ok(sim)
    }

    fn schedule(&mut self, t: u64, ev: Ev) {
        self.events.schedule(t, ev);
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
                Ev::TxDone { node, port } => {
                    self.nodes[node as usize].ports[port as usize].busy = false;
                    self.kick(node, port);
                }
                Ev::Arrive { node, pkt } => self.on_arrive(node, pkt),
                Ev::Wake { node, port } => {
                    let p = &mut self.nodes[node as usize].ports[port as usize];
                    if p.wake_at == self.now {
                        p.wake_at = 0;
                    }
                    self.kick(node, port);
                }
                Ev::FlowStart(f) => self.on_flow_start(f as usize),
                Ev::CreditTimer(f) => self.on_credit_timer(f as usize),
                Ev::HostTx { host, pkt } => self.host_send(host, pkt),
                Ev::Rto(f) => self.on_rto(f as usize),
                Ev::Sample => self.on_sample(),
            }
        }
        self.now = self.now.max(t_end_ns);
    }

    // ---- fabric ----------------------------------------------------------------------------

    /// Symmetric ECMP: rank the candidates by peer node id, pick rank `hash(flow) mod n`.
    fn route_port(&self, node: u32, pkt: &XPkt) -> u16 {
        let n = &self.nodes[node as usize];
        if n.host.is_some() {
            return 0;
        }
        let set = n.routes.lookup(pkt.dst);
        if set.len() == 1 {
            return set[0];
        }
        let rank = (mix(pkt.flow as u64, self.ecmp_salt) % set.len() as u64) as usize;
        let mut by_peer: Vec<(u32, u16)> =
            set.iter().map(|&p| (n.ports[p as usize].peer, p)).collect();
        by_peer.sort_unstable();
        by_peer[rank].1
    }

    fn enqueue(&mut self, node: u32, port: u16, pkt: XPkt) {
        let is_switch = self.nodes[node as usize].host.is_none();
        let p = &mut self.nodes[node as usize].ports[port as usize];
        let credit_drops = p.credit_drops;
        let accepted = p.enqueue(pkt, self.now);
        if accepted && p.credit_drops > credit_drops {
            // Random credit drop: a queued credit made room for this one.
            self.x.credits_dropped += 1;
        }
        if !accepted {
            if pkt.kind == KIND_CREDIT {
                self.x.credits_dropped += 1;
            } else {
                self.x.data_class_dropped += 1;
                if pkt.kind == KIND_DATA {
                    self.c.data_dropped += 1;
                    self.flows[pkt.flow as usize].drops += 1;
                } else {
                    self.c.acks_dropped += 1;
                }
            }
            return;
        }
        if is_switch {
            self.x.max_switch_queue_bytes = self.x.max_switch_queue_bytes.max(p.data_bytes);
        }
        self.kick(node, port);
    }

    fn kick(&mut self, node: u32, port: u16) {
        let now = self.now;
        let p = &mut self.nodes[node as usize].ports[port as usize];
        if p.busy {
            return;
        }
        match p.next(now) {
            Next::Send(pkt) => {
                p.busy = true;
                let ser = p.ser_ns(pkt.wire);
                p.tx_bytes += pkt.wire as u64;
                let (peer, delay) = (p.peer, p.delay_ns);
                self.schedule(now + ser, Ev::TxDone { node, port });
                self.schedule(now + ser + delay, Ev::Arrive { node: peer, pkt });
            }
            Next::WaitUntil(t) => {
                if p.wake_at == 0 || p.wake_at > t {
                    p.wake_at = t;
                    self.schedule(t, Ev::Wake { node, port });
                }
            }
            Next::Idle => {}
        }
    }

    fn on_arrive(&mut self, node: u32, pkt: XPkt) {
        match self.nodes[node as usize].host {
            Some(h) if h == pkt.dst => self.deliver(pkt),
            Some(_) => {} // misrouted: cannot happen with shortest-path routes
            None => {
                let port = self.route_port(node, &pkt);
                self.enqueue(node, port, pkt);
            }
        }
    }

    fn host_send(&mut self, host: u32, pkt: XPkt) {
        let node = self.host_nodes[host as usize];
        if pkt.kind == KIND_DATA {
            self.c.data_sent += 1;
        }
        self.enqueue(node, 0, pkt);
    }

    fn ctrl(&self, f: usize, kind: u8, to_receiver: bool, seq: u64) -> XPkt {
        let s = &self.flows[f].spec;
        XPkt {
            kind,
            flow: f as u32,
            dst: if to_receiver { s.dst } else { s.src },
            wire: self.cfg.credit_bytes,
            payload: 0,
            seq,
            credit_seq: 0,
            credit_sent_ns: 0,
        }
    }
}
