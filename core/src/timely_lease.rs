// SPDX-License-Identifier: GPL-2.0-only
//! TIMELY's hold lease (issue #13; `super::super::lease`): when the next ACKs are provably holds
//! that keep the last decision's window and rate, and what they do to the state.
//!
//! A child module of `timely` (declared there with `#[path]`, so a kernel module that includes
//! `timely.rs` gets this file too) because it reads the law's private parameters and helpers;
//! in its own file only to keep `timely.rs` within the project's file size. Line numbers
//! `l.N` below are `timely.rs`'s.
//!
//! Derivation, on `Timely::on_ack` (l.673-703), for an ACK that arrives while the state is the
//! one right after a full call, plus the `acked_bytes` of the covered ACKs before it:
//! - `ensure_init` (l.674) changes nothing: the terms require `rate_bps != 0`, and nothing on a
//!   hold path sets it to 0.
//! - The clock re-anchor (l.676-678) changes nothing while `now >= last_update_ns`: the terms
//!   start at `since_ns = last_update_ns`. Every path that moves `last_update_ns` is an update
//!   (l.698, not a hold), the re-anchor itself, `reset_gradient` (l.540, from
//!   `on_idle_restart`, a hook that retires the lease) or `fresh` (init or a lazy init).
//! - The end of an RTO episode (l.680-682) changes nothing: the terms require `rto_count == 0`.
//! - The sum (l.683-685) is the one change: `acked_since_update_bytes += acked_bytes`, which
//!   [`HoldLease::absorb`] reproduces; it does not saturate, the total stays within `limit`
//!   below 2^32.
//! - With no usable sample (l.687-690) the ACK is a hold. With one, it is a hold while it is
//!   not a completion (`acked_since < segment_bytes`, l.693) or the gate is closed (l.693):
//!   `acked_since <= segment_bytes - 1` suffices in every update mode, for any clock; once the
//!   law has updated (`F_UPDATED`) in [`UPDATE_PER_ROUND`], the gate also stays closed while
//!   `acked_since <= round_bytes` and `elapsed < stale_after_ns` (`gate_open`, l.556-557), so a
//!   round larger than a segment gives the larger room for `stale_after_ns` from the update.
//! - A hold's decision is `hold` (l.497-503): `from_cache` or `decide`, both
//!   `assemble(p, clamp(R), window, signal, mss, reason)` from `R`, `prev_rtt`, `rtt_diff`, the
//!   parameters and the MSS (l.419-447, 465-493), none of which a hold changes; only the reason
//!   (`Hold` or `NoSample`) differs, and only the tracepoint shows it, which the fast path
//!   leaves to the full path. A miss refills the hold cache with what the last decision stored
//!   or emptied it to (`decide` with the same inputs, l.465-478), so the state after folding
//!   equals the state after calling the law, the cache included.
//!
//! Not covered, on purpose (those ACKs take the full path, which is exact): holds beyond the
//! limit without a sample, [`super::UPDATE_PER_MIN_RTT`] holds after a completion, and round
//! holds whose `stale_after_ns` is below one span unit (T_high and the RTT below ~1 µs).

use super::super::lease::{HoldLease, HoldTerms, LEASE_SPAN_UNIT_NS};
use super::{stale_after_ns, Params, State, Timely, F_UPDATED, UPDATE_PER_ROUND};

impl HoldLease for Timely {
    fn hold_terms(p: &Params, s: &State) -> Option<HoldTerms> {
        // l.674 (lazy init) and l.680-682 (end of an RTO episode) must be no-ops.
        if s.rate_bps == 0 || s.rto_count != 0 {
            return None;
        }
        // Not a completion (l.693: acked_since < segment_bytes), whatever the clock and the
        // mode. segment_bytes >= 1 (Params::new), so no wrap; <= 2^20.
        let seg_limit = p.segment_bytes.saturating_sub(1);
        let mut limit = seg_limit;
        let mut span_ns = u64::MAX;
        if s.flags & F_UPDATED != 0 && p.update_mode == UPDATE_PER_ROUND {
            // The round gate stays closed while acked_since <= round_bytes and
            // elapsed < stale_after_ns (gate_open, l.556-557); elapsed is measured from
            // last_update_ns (l.679), the terms' since_ns.
            let round = u64::from(s.round_bytes);
            let stale_ns = stale_after_ns(p, s);
            if round > seg_limit && stale_ns >= LEASE_SPAN_UNIT_NS {
                limit = round;
                span_ns = stale_ns;
            }
        }
        Some(HoldTerms {
            since_ns: s.last_update_ns,
            span_ns,
            // No lease when the bytes since the update already exceed the limit.
            room_bytes: limit.checked_sub(s.acked_since_update_bytes)?,
        })
    }

    /// l.683-685 on each covered ACK, in one sum.
    fn absorb(s: &mut State, bytes: u32) {
        s.acked_since_update_bytes = s.acked_since_update_bytes.saturating_add(u64::from(bytes));
    }
}
