// SPDX-License-Identifier: GPL-2.0-only
//! Helpers shared by θ-PowerTCP's host tests (`powertcp.rs`, `powertcp_theory.rs`).

use rdcc_core::event::{AckEvent, ACK_HAS_RTT};
use rdcc_core::powertcp::ThetaPowerTcp;

/// The law under test.
pub type T = ThetaPowerTcp;

/// An ACK of one 1448-byte segment with an RTT sample.
pub fn ack(now_ns: u64, rtt_ns: u64, snd_una: u32, snd_nxt: u32) -> AckEvent {
    AckEvent {
        now_ns,
        rtt_ns,
        acked_bytes: 1448,
        mss_bytes: 1448,
        snd_una,
        snd_nxt,
        flags: ACK_HAS_RTT,
        ..AckEvent::default()
    }
}
