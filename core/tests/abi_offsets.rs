//! Prints the byte layout of the boundary records in the form the C glue's header asserts, and
//! checks that the checked-in header `modules/glue/rdcc_abi.h` states exactly these numbers.
//! Regenerate the assertion block with `cargo test -p rdcc-core --test abi_offsets -- --nocapture`.

use core::mem::{offset_of, size_of};
use rdcc_core::event::{AckEvent, Decision, Enforced, LossEvent, Report};
use rdcc_core::fixed::{MAX_RATE_BPS, NS_PER_S, Q16_SHIFT};
use rdcc_core::lease::{Lease, LEASE_RATE_BITS, LEASE_SPAN_SHIFT};
use rdcc_core::powertcp::{
    self, DueIn, ThetaLease, FLAG_HAVE_PREV, FLAG_INIT, FLAG_SMOOTH, GRAD_FACTOR_MAX_Q16,
    MAX_CWND_BYTES, PARAMS_ABI, POWER_MAX_Q16, POWER_MIN_Q16, THETA_LIFE_NS, THETA_PKTS_LIMIT,
    THETA_RTT_US_MAX, THETA_UPDATE_MAX_NS,
};
use rdcc_core::rqd::Scan;
use rdcc_core::swift;
use rdcc_core::vaisf::{self, VaisfLease, VAISF_RTT_US_MAX};

fn layout() -> Vec<String> {
    let mut v = Vec::new();
    macro_rules! off {
        ($t:ty, $c:literal, $($f:ident),*) => {
            v.push(format!("RDCC_ABI_SIZE(struct {}, {});", $c, size_of::<$t>()));
            $( v.push(format!("RDCC_ABI_OFF(struct {}, {}, {});", $c, stringify!($f), offset_of!($t, $f))); )*
        };
    }
    off!(
        AckEvent,
        "rdcc_ack_event",
        now_ns,
        rtt_ns,
        remote_delay_ns,
        delivered_bytes,
        acked_bytes,
        inflight_bytes,
        mss_bytes,
        snd_una,
        snd_nxt,
        flags,
        hops,
        local_rx_delay_ns,
        telemetry
    );
    off!(LossEvent, "rdcc_loss_event", now_ns, mss_bytes, kind);
    off!(
        Decision,
        "rdcc_decision",
        cwnd_bytes_q16,
        pacing_rate_bps,
        signal,
        reason,
        flags
    );
    off!(Enforced, "rdcc_enforced", pacing_rate_bps, cwnd_pkts);
    off!(
        Report,
        "rdcc_report",
        fabric_delay_ns,
        endpoint_delay_ns,
        hops,
        flags
    );
    off!(
        Scan,
        "rdcc_rqd_scan",
        delay_ns,
        outcome,
        hops,
        flags,
        source,
        tsval,
        has_ts
    );
    off!(
        Lease,
        "rdcc_lease",
        since_ns,
        rate_pkts,
        room_bytes,
        absorbed_bytes,
        gen,
        mss,
        span
    );
    // The lease's packing constants, which rdcc_lease.h uses on its own (RDCC_LEASE_*).
    v.push(format!(
        "RDCC_ABI_EQ(RDCC_LEASE_SPAN_SHIFT, {LEASE_SPAN_SHIFT});"
    ));
    v.push(format!(
        "RDCC_ABI_EQ(RDCC_LEASE_RATE_BITS, {LEASE_RATE_BITS});"
    ));
    // θ-PowerTCP's state, which the θ lease's fast path steps in place (rdcc_lease_theta.h),
    // the lease and the due path's input.
    off!(
        powertcp::State,
        "rdcc_theta_state",
        cwnd_q16,
        prev_cwnd_q16,
        power_smooth_q16,
        undo_cwnd_q16,
        update_ns,
        last_ack_ns,
        marker_seq,
        prev_rtt_ns,
        rtt_smooth_ns,
        min_rtt_ns,
        flags
    );
    off!(
        ThetaLease,
        "rdcc_theta_lease",
        rate_bps,
        cwnd_pkts,
        gen,
        clamp,
        tau_ns,
        mss
    );
    off!(
        DueIn,
        "rdcc_theta_due_in",
        now_ns,
        rtt_ns,
        rtt_smooth_ns,
        snd_una,
        snd_nxt,
        mss,
        srtt_us,
        clamp_pkts
    );
    v.push(format!(
        "RDCC_ABI_EQ(RDCC_THETA_RTT_US_MAX, {THETA_RTT_US_MAX});"
    ));
    v.push(format!("RDCC_ABI_EQ(RDCC_THETA_LIFE_NS, {THETA_LIFE_NS});"));
    // θ-PowerTCP's parameters and the constants of its update, which the due path in C reads
    // (rdcc_theta_update, rdcc_lease_theta.h): every bound its overflow argument rests on.
    let (size, fields) = PARAMS_ABI;
    v.push(format!("RDCC_ABI_SIZE(struct rdcc_theta_params, {size});"));
    for (name, off) in fields {
        v.push(format!(
            "RDCC_ABI_OFF(struct rdcc_theta_params, {name}, {off});"
        ));
    }
    for (name, value) in [
        ("RDCC_Q16_SHIFT", u64::from(Q16_SHIFT)),
        ("RDCC_MAX_RATE_BPS", MAX_RATE_BPS),
        ("NSEC_PER_SEC", NS_PER_S),
        ("RDCC_THETA_POWER_MIN_Q16", POWER_MIN_Q16),
        ("RDCC_THETA_POWER_MAX_Q16", POWER_MAX_Q16),
        ("RDCC_THETA_GRAD_MAX_Q16", GRAD_FACTOR_MAX_Q16),
        ("RDCC_THETA_MAX_CWND_BYTES", MAX_CWND_BYTES),
        ("RDCC_THETA_PKTS_LIMIT", THETA_PKTS_LIMIT),
        ("RDCC_THETA_UPDATE_MAX_NS", THETA_UPDATE_MAX_NS),
        ("RDCC_THETA_FLAG_INIT", u64::from(FLAG_INIT)),
        ("RDCC_THETA_FLAG_HAVE_PREV", u64::from(FLAG_HAVE_PREV)),
        ("RDCC_THETA_FLAG_SMOOTH", u64::from(FLAG_SMOOTH)),
    ] {
        v.push(format!("RDCC_ABI_EQ({name}, {value}ULL);"));
    }
    // Swift VAI SF's state, which its lease's fast path steps in place (rdcc_lease_vaisf.h),
    // the lease and the constants the fast path uses.
    let (size, fields) = vaisf::STATE_ABI;
    v.push(format!("RDCC_ABI_SIZE(struct rdcc_vaisf_state, {size});"));
    for (name, off) in fields {
        v.push(format!(
            "RDCC_ABI_OFF(struct rdcc_vaisf_state, {name}, {off});"
        ));
    }
    off!(
        VaisfLease,
        "rdcc_vaisf_lease",
        gen,
        d_fast_ns,
        thresh_ns,
        num_sub_ns,
        ai_div_ns,
        sf_acks,
        ai_cap,
        bank_cap,
        mss
    );
    for (name, value) in [
        ("RDCC_VAISF_RTT_US_MAX", VAISF_RTT_US_MAX),
        ("RDCC_VAISF_F_CONGESTED", u64::from(vaisf::F_CONGESTED)),
    ] {
        v.push(format!("RDCC_ABI_EQ({name}, {value}ULL);"));
    }
    // Swift's state, which its increase lease's fast path steps in place (rdcc_lease_swift.h),
    // and the constants and flags that path uses.
    let (size, fields) = swift::STATE_ABI;
    v.push(format!("RDCC_ABI_SIZE(struct rdcc_swift_state, {size});"));
    for (name, off) in fields {
        v.push(format!(
            "RDCC_ABI_OFF(struct rdcc_swift_state, {name}, {off});"
        ));
    }
    v.push(format!(
        "RDCC_ABI_EQ(RDCC_SWIFT_RTT_US_MAX, {}ULL);",
        swift::SWIFT_RTT_US_MAX
    ));
    v.push(format!(
        "RDCC_ABI_EQ(RDCC_SWIFT_LEASE_AI_MAX_Q20, {}ULL);",
        swift::swift_lease::LEASE_AI_MAX_Q20
    ));
    v.push(format!(
        "RDCC_ABI_EQ(RDCC_SWIFT_MAX_CWND_Q20, {}ULL);",
        swift::MAX_CWND_Q20
    ));
    v.push(format!(
        "RDCC_ABI_EQ(RDCC_SWIFT_RTT_MASK, {}ULL);",
        swift::RTT_MASK
    ));
    v.push(format!(
        "RDCC_ABI_EQ(RDCC_SWIFT_MSS_MAX, {}ULL);",
        rdcc_core::fixed::MAX_MSS_BYTES
    ));
    v.push(format!(
        "RDCC_ABI_EQ(RDCC_SWIFT_EWMA_MASK, {}ULL);",
        swift::EWMA_MASK
    ));
    v.push(format!(
        "RDCC_ABI_EQ(RDCC_SWIFT_EWMA_BITS, {}ULL);",
        swift::EWMA_BITS
    ));
    for (name, value) in swift::swift_lease::FLAG_ABI {
        v.push(format!("RDCC_ABI_EQ({name}, {value}ULL);"));
    }
    // The three parameters the remote-delay lease's fast path reads from Swift's block.
    let (size, fields) = swift::PARAMS_ABI;
    v.push(format!("RDCC_ABI_SIZE(struct rdcc_swift_params, {size});"));
    for (name, off) in fields {
        v.push(format!(
            "RDCC_ABI_OFF(struct rdcc_swift_params, {name}, {off});"
        ));
    }
    v
}

#[test]
fn c_header_matches_rust_layout() {
    let want = layout();
    for l in &want {
        println!("{l}");
    }
    let hdr = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../modules/glue/rdcc_abi.h"
    ))
    .expect("modules/glue/rdcc_abi.h");
    let have: Vec<String> = hdr
        .lines()
        .map(str::trim)
        .filter(|l| {
            l.starts_with("RDCC_ABI_SIZE(")
                || l.starts_with("RDCC_ABI_OFF(")
                || l.starts_with("RDCC_ABI_EQ(")
        })
        .map(String::from)
        .collect();
    assert_eq!(
        have, want,
        "the C header's layout assertions differ from the Rust layout"
    );
}
