//! The kernel zeroes `icsk_ca_priv` and may call any hook before `init`, so each law's `State`
//! must be valid when all-zero, and `Default` must be exactly that (the glue relies on it; see
//! modules/glue/glue.rs). Checked here for every law.

use rdcc_core::{hpcc, lease, powertcp, powertcp_int, swift, timely, vaisf};

fn zeroed_equals_default<T: Default + PartialEq + core::fmt::Debug>() {
    // SAFETY: every State is a plain struct of integers (no references, enums with a zero
    // variant, or bools with padding invariants), so the all-zero bit pattern is a value; this
    // test asserts it equals Default.
    let z: T = unsafe { core::mem::zeroed() };
    assert_eq!(z, T::default());
}

#[test]
fn all_zero_is_default_for_every_law() {
    zeroed_equals_default::<swift::State>();
    zeroed_equals_default::<vaisf::State>();
    zeroed_equals_default::<timely::State>();
    zeroed_equals_default::<powertcp::State>();
    // The INT laws have no kernel module, but the simulator starts them from Default too.
    zeroed_equals_default::<powertcp_int::State>();
    zeroed_equals_default::<hpcc::State>();
    // TIMELY's hold lease in tcp_timely's glue bytes: the kernel's zeroes are "no lease".
    zeroed_equals_default::<lease::Lease>();
    // θ-PowerTCP's hold lease in tcp_theta_powertcp's glue bytes: the same.
    zeroed_equals_default::<powertcp::ThetaLease>();
}
