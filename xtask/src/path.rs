//! The path of a VM scenario (`[path]`: the emulated switches between the sender and the
//! receiver) and the test beds' limits on it: what each bed was measured to honour, checked
//! before anything is built or booted. `scenario.rs` holds the rest of the file format.

use serde::Deserialize;

/// Largest accepted values (beyond them the emulated path or the guest's memory fails, not
/// the algorithm): 1 Gbit/s (QEMU; [`Bed::max_rate_mbit`] for UML), 1 s one-way delay, 100 000
/// packets of queue.
pub const MAX_RATE_MBIT: u32 = 1000;
/// The UML test bed's fastest bottleneck, Mbit/s (Documentation/results/uml_testbed.md, "25
/// and 100 Gbit/s"; one flow, 20 us base RTT, the second of a 2 s trial). At 10 Gbit/s HTB
/// gave cubic 9565 Mbit/s of payload, all of the 9564 that 1514-byte frames carry; at 25 Gbit/s
/// θ-PowerTCP 23,736 (99.3 % of 23,910), cubic 23,459 (98.1 %), swift 23,148 (96.8 %). At
/// 100 Gbit/s cubic and swift both got 89.7 Gbit/s (93.8 % of 95,641), the same in every
/// 100 ms bin after the first: the shaper, not the law, stops there, so a 100 Gbit/s port
/// would be a 94 Gbit/s one; rates above 25 Gbit/s are refused (none between was measured).
pub const UML_MAX_RATE_MBIT: u32 = 25_000;
/// The UML test bed's smallest nonzero netem delay, us: 10 us came out exact in time-travel mode
/// (ping 10/10/11 us); below it was not measured (and `tc` already shows 10 us as 9 us).
pub const UML_MIN_DELAY_US: u32 = 10;
/// The ECN marker's threshold is whole microseconds (`ce_threshold ...us`, rounded up; fq_codel
/// keeps it in 1.024 us units): K packets' time at the rate must be long enough that the
/// rounding moves it by at most this many percent.
pub const CE_ROUND_MAX_PCT: u64 = 10;
pub const MAX_DELAY_US: u32 = 1_000_000;
pub const MAX_QUEUE_PKTS: u32 = 100_000;
/// The ECN marker's CoDel target (selftests/_scenario.sh: `target 30s`): a full queue must
/// drain within it, or CoDel's own dropping would start on top of the step marker.
pub const MARKER_MAX_SOJOURN_US: u64 = 30_000_000;
/// Bits of a full-size frame on the bottleneck (1514 bytes), for queue drain times.
pub const FRAME_BITS: u64 = 1514 * 8;
/// Linux's largest `gso_max_segs` (`GSO_MAX_SEGS`).
pub const MAX_GSO_SEGS: u32 = 65535;
/// The most switches a UML scenario's path may cross (`path.hops`). Each is a router namespace
/// that forwards (TTL − 1) and shapes its egress towards the receiver, all on the guest's one
/// virtual CPU. Measured up to 8 (Documentation/results/uml_testbed.md, "A multi-hop path"):
/// four Swift flows at 10 Gbit/s took every decision with 8 hops, its target 25 µs + 8 × 1 µs
/// plus flow scaling to the nanosecond, and 41 s of wall time for 2 s where one hop took 35;
/// longer chains were not run (Swift's sender would take up to `rqd_max_hops` = 16).
pub const UML_MAX_HOPS: u32 = 8;
/// The link rates an INT record can name (`core/src/int.rs`'s rate index; sch_rdcc_int refuses
/// any other `rate_mbit`), Mbit/s.
pub const INT_RATES_MBIT: [u32; 8] = [
    10_000, 25_000, 40_000, 50_000, 100_000, 200_000, 400_000, 800_000,
];

/// The test bed a scenario runs on: what the boot's kernel profile is. Its limits are checked
/// before anything is built or booted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bed {
    /// A QEMU guest (TCG or KVM) at real-time rates.
    Qemu,
    /// User-Mode Linux in virtual time (`time-travel=inf-cpu`).
    Uml,
}

impl Bed {
    /// The bed of kernel profile `p`.
    pub fn of(p: &crate::kernel::Profile) -> Bed {
        match p.arch {
            crate::kernel::Arch::Um => Bed::Uml,
            _ => Bed::Qemu,
        }
    }

    /// The fastest bottleneck it holds, Mbit/s.
    pub fn max_rate_mbit(self) -> u32 {
        match self {
            Bed::Qemu => MAX_RATE_MBIT,
            Bed::Uml => UML_MAX_RATE_MBIT,
        }
    }

    /// The smallest nonzero one-way delay it honours, us.
    pub fn min_delay_us(self) -> u32 {
        match self {
            Bed::Qemu => 1,
            Bed::Uml => UML_MIN_DELAY_US,
        }
    }

    /// The most switches a path may cross there: one on QEMU, where every router's forwarding
    /// takes the guest's real CPU time and a chain's timing would follow the host's load (not
    /// measured there).
    pub fn max_hops(self) -> u32 {
        match self {
            Bed::Qemu => 1,
            Bed::Uml => UML_MAX_HOPS,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Bed::Qemu => "the QEMU test bed",
            Bed::Uml => "the UML test bed",
        }
    }
}

/// The path: `hops` router namespaces in a chain, each one's egress towards the receiver the
/// bottleneck's rate and queue (the first one's is the bottleneck: the others receive at most
/// its rate).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PathSpec {
    /// HTB rate, Mbit/s.
    pub rate_mbit: u32,
    /// Base RTT added by netem (on the ACK direction, so the bottleneck's backlog is the queue
    /// alone), us: the whole path's, whatever `hops`.
    pub delay_us: u32,
    /// Queue limit of the bottleneck, packets.
    #[serde(default = "default_queue")]
    pub queue_pkts: u32,
    /// ECN marking threshold K, packets: a DCTCP-style step (fq_codel as a FIFO with
    /// `ce_threshold` = K packets' transmission time at `rate_mbit`; non-ECT packets are never
    /// dropped below the limit). 0 = drop-tail FIFO.
    #[serde(default)]
    pub ecn_k_pkts: u32,
    /// Random loss on the data direction, percent (netem on the sender's link).
    #[serde(default)]
    pub loss_pct: f64,
    /// The sender's device's `gso_max_segs` (selftests/lib.sh `RDCC_GSO_MAX_SEGS`): 1 makes TCP
    /// send one segment per skb, so the bottleneck serves packets, not GSO batches
    /// (Documentation/results/uml_vs_sim.md). Default: the device's own.
    #[serde(default)]
    pub gso_max_segs: Option<u32>,
    /// Switches (router namespaces) the data crosses, each decrementing the TTL: the receiver
    /// sees TTL 64 − hops. 1 (the default) is selftests/lib.sh's three namespaces. Above 1 the
    /// receiver runs Swift's remote-delay channel (rxstamp), which echoes the TTL, so Swift's
    /// sender scales its target by the hops (Swift §3.5; Documentation/remote-delay.md).
    #[serde(default = "one_hop")]
    pub hops: u32,
    /// In-band telemetry (issue #35; Documentation/int-channel.md): every switch's egress queue
    /// is the software INT switch (`sch_rdcc_int`, a drop-tail FIFO of `queue_pkts` that appends
    /// its record at dequeue, naming `rate_mbit`), and `rxstamp int` runs at both ends (the
    /// sender's request, the receiver's echo), so tcp_powertcp and tcp_hpcc read the path's
    /// queues. The switch does not mark ECN (`ecn_k_pkts` must be 0); on a multi-hop path the
    /// receiver runs the INT echo instead of Swift's remote-delay channel (Swift keeps its
    /// `default_hops`). Our INT laws ([`crate::algos::INT_LAWS`]) need it.
    #[serde(default)]
    pub int: bool,
}

fn default_queue() -> u32 {
    1000
}

fn one_hop() -> u32 {
    1
}

impl PathSpec {
    /// Does the receiver run the remote-delay channel (rxstamp), which brings the hop count to
    /// Swift's sender? On a multi-hop path, where the hops are what is measured, unless the
    /// path carries INT (`int`: the receiver echoes the switches' records instead).
    pub fn receiver_channel(&self) -> bool {
        self.hops > 1 && !self.int
    }
}

/// Every field of `p` in range for test bed `bed`; the first problem found, in words.
pub fn validate(p: &PathSpec, bed: Bed) -> Result<(), String> {
    let max_rate = bed.max_rate_mbit();
    if !(1..=max_rate).contains(&p.rate_mbit) {
        return Err(format!(
            "path.rate_mbit = {}: 1..={max_rate} on {}{}",
            p.rate_mbit,
            bed.name(),
            match bed {
                Bed::Uml =>
                    " (at 100 Gbit/s its HTB shaper passed 93.8 % of the payload rate: \
                             Documentation/results/uml_testbed.md)",
                Bed::Qemu => "",
            }
        ));
    }
    if p.delay_us > MAX_DELAY_US {
        return Err(format!(
            "path.delay_us = {}: 0..={MAX_DELAY_US}",
            p.delay_us
        ));
    }
    if p.delay_us > 0 && p.delay_us < bed.min_delay_us() {
        return Err(format!(
            "path.delay_us = {}: 0 or at least {} on {} (netem's delay there was measured exact \
             from {} us)",
            p.delay_us,
            bed.min_delay_us(),
            bed.name(),
            bed.min_delay_us()
        ));
    }
    let max_hops = bed.max_hops();
    if !(1..=max_hops).contains(&p.hops) {
        return Err(format!(
            "path.hops = {}: 1..={max_hops} on {} ({})",
            p.hops,
            bed.name(),
            match bed {
                Bed::Qemu =>
                    "a chain of routers was not measured under TCG, whose timing follows \
                              the host's load",
                Bed::Uml =>
                    "every switch is a router namespace on the guest's one virtual CPU; \
                             longer chains were not run",
            }
        ));
    }
    if !(2..=MAX_QUEUE_PKTS).contains(&p.queue_pkts) {
        return Err(format!(
            "path.queue_pkts = {}: 2..={MAX_QUEUE_PKTS}",
            p.queue_pkts
        ));
    }
    if p.ecn_k_pkts >= p.queue_pkts {
        return Err(format!(
            "path.ecn_k_pkts = {} must be below path.queue_pkts = {} (0 = no marking)",
            p.ecn_k_pkts, p.queue_pkts
        ));
    }
    // Drain time of a full queue, us: at most 100,000 * 12,112 / 1 = 1.2e9, no overflow in u64.
    let drain_us = u64::from(p.queue_pkts) * FRAME_BITS / u64::from(p.rate_mbit);
    if p.ecn_k_pkts > 0 && drain_us > MARKER_MAX_SOJOURN_US {
        return Err(format!(
            "path.queue_pkts = {} at rate_mbit = {} drains in {:.1} s: with ecn_k_pkts the queue \
             must drain within {} s (the marker's CoDel target)",
            p.queue_pkts,
            p.rate_mbit,
            drain_us as f64 / 1e6,
            MARKER_MAX_SOJOURN_US / 1_000_000
        ));
    }
    if p.ecn_k_pkts > 0 {
        // K packets' time at the rate, in 1/1000 us, and as the guest rounds it up to whole us.
        let exact_nus = u64::from(p.ecn_k_pkts) * FRAME_BITS * 1000 / u64::from(p.rate_mbit);
        let rounded_nus = exact_nus.div_ceil(1000) * 1000;
        if (rounded_nus - exact_nus) * 100 > exact_nus * CE_ROUND_MAX_PCT {
            return Err(format!(
                "path.ecn_k_pkts = {} at rate_mbit = {}: K packets take {:.3} us, which the \
                 marker's whole-microsecond threshold would make {} us (more than {}% off); \
                 raise K",
                p.ecn_k_pkts,
                p.rate_mbit,
                exact_nus as f64 / 1000.0,
                rounded_nus / 1000,
                CE_ROUND_MAX_PCT
            ));
        }
    }
    if p.gso_max_segs
        .is_some_and(|g| !(1..=MAX_GSO_SEGS).contains(&g))
    {
        return Err(format!(
            "path.gso_max_segs = {}: 1..={MAX_GSO_SEGS}",
            p.gso_max_segs.unwrap_or(0)
        ));
    }
    if !p.loss_pct.is_finite() || !(0.0..=50.0).contains(&p.loss_pct) {
        return Err(format!("path.loss_pct = {}: 0..=50", p.loss_pct));
    }
    if p.int {
        if p.ecn_k_pkts > 0 {
            return Err(format!(
                "path.int with ecn_k_pkts = {}: the software INT switch is a drop-tail FIFO that \
                 does not mark ECN (set ecn_k_pkts = 0)",
                p.ecn_k_pkts
            ));
        }
        if !INT_RATES_MBIT.contains(&p.rate_mbit) {
            return Err(format!(
                "path.int with rate_mbit = {}: an INT record names only {} Mbit/s \
                 (sch_rdcc_int's rate_mbit)",
                p.rate_mbit,
                INT_RATES_MBIT.map(|r| r.to_string()).join(", ")
            ));
        }
    }
    Ok(())
}
