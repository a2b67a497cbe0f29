//! Human-readable parameter values (core/src/units.rs): table of hand-computed conversions and
//! property tests (no panic on any bytes; bare integers are identity; monotone in the number).

use proptest::prelude::*;
use rdcc_core::units::{Unit, UnitError};

#[test]
fn unit_from_name() {
    let table = [
        ("beta_q16", Unit::Q16),
        ("min_cwnd_pkts_q20", Unit::PktsQ20),
        ("base_target_ns", Unit::Ns),
        ("host_bw_bps", Unit::Bps),
        ("line_rate_mbps", Unit::Mbps),
        ("beta_bytes", Unit::Bytes),
        ("default_hops", Unit::Plain),
        ("gradient_mode", Unit::Plain),
    ];
    for (name, want) in table {
        assert_eq!(Unit::of(name), want, "{name}");
    }
}

#[test]
fn conversions() {
    // (unit, text, expected) — each expected value computed by hand from the unit's definition.
    let ok: &[(Unit, &str, u64)] = &[
        (Unit::Q16, "52429", 52_429),          // bare integer: Q16 as before
        (Unit::Q16, "0.8", 52_429),            // 0.8 * 65536 = 52428.8 -> 52429
        (Unit::Q16, "1.0", 65_536),
        (Unit::Q16, "0.5\n", 32_768),          // sysfs writes end in a newline
        (Unit::Q16, " 0.25 ", 16_384),
        (Unit::PktsQ20, "0.001", 1_049),       // 1048.576 -> 1049 (Swift's floor)
        (Unit::PktsQ20, "1pkt", 1_048_576),
        (Unit::PktsQ20, "2.5 pkts", 2_621_440),
        (Unit::Ns, "25us", 25_000),
        (Unit::Ns, "1.5ms", 1_500_000),
        (Unit::Ns, "6000000", 6_000_000),
        (Unit::Ns, "10s", 10_000_000_000),
        (Unit::Ns, "0.000000002s", 2),
        (Unit::Ns, "1.5ns", 2),                // rounds half up
        (Unit::Bps, "50Mbit", 6_250_000),      // 50e6 / 8
        (Unit::Bps, "100Gbit/s", 12_500_000_000),
        (Unit::Bps, "1bit", 0),                // 0.125 B/s -> 0
        (Unit::Bps, "4bit", 1),                // 0.5 -> 1 (half up)
        (Unit::Bps, "12500MB/s", 12_500_000_000),
        (Unit::Mbps, "100Gbit", 100_000),
        (Unit::Mbps, "40", 40),
        (Unit::Mbps, "0.5Gbit", 500),
        (Unit::Bytes, "64KiB", 65_536),
        (Unit::Bytes, "1.5KB", 1_500),
        (Unit::Plain, "7", 7),
    ];
    for &(u, text, want) in ok {
        assert_eq!(u.parse(text.as_bytes()), Ok(want), "{u:?} {text:?}");
    }
    let bad: &[(Unit, &str, UnitError)] = &[
        (Unit::Q16, "", UnitError::Syntax),
        (Unit::Q16, "-0.5", UnitError::Syntax),
        (Unit::Q16, "0.8ms", UnitError::Syntax),
        (Unit::Q16, "1..0", UnitError::Syntax),
        (Unit::Ns, "25 parsecs", UnitError::Syntax),
        (Unit::Plain, "1.5", UnitError::Syntax),
        (Unit::Plain, "3x", UnitError::Syntax),
        (Unit::Ns, "0.0000000001s", UnitError::TooPrecise),
        (Unit::Ns, "18446744073709551616", UnitError::TooLarge),
        (Unit::Ns, "18446744074s", UnitError::TooLarge),
        (Unit::Bps, "18446744073709551615Gbit", UnitError::TooLarge),
    ];
    for &(u, text, want) in bad {
        assert_eq!(u.parse(text.as_bytes()), Err(want), "{u:?} {text:?}");
    }
}

fn any_unit() -> impl Strategy<Value = Unit> {
    prop_oneof![
        Just(Unit::Q16),
        Just(Unit::PktsQ20),
        Just(Unit::Ns),
        Just(Unit::Bps),
        Just(Unit::Mbps),
        Just(Unit::Bytes),
        Just(Unit::Plain),
    ]
}

proptest! {
    #[test]
    fn never_panics(u in any_unit(), bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
        let _ = u.parse(&bytes);
    }

    #[test]
    fn bare_integer_is_identity(u in any_unit(), v in any::<u64>()) {
        prop_assert_eq!(u.parse(v.to_string().as_bytes()), Ok(v));
    }

    #[test]
    fn decimal_us_matches_integer_ns(whole in 0u64..1_000_000, milli in 0u64..1000) {
        let text = format!("{whole}.{milli:03}us");
        prop_assert_eq!(Unit::Ns.parse(text.as_bytes()), Ok(whole * 1000 + milli));
    }

    #[test]
    fn q16_fraction_rounds_to_nearest(num in 0u64..1_000_000) {
        // num / 1e6 as a decimal; expected round(num * 65536 / 1e6) computed in u128 here.
        let text = format!("{}.{:06}", num / 1_000_000, num % 1_000_000);
        let want = ((num as u128 * 65_536 + 500_000) / 1_000_000) as u64;
        prop_assert_eq!(Unit::Q16.parse(text.as_bytes()), Ok(want));
    }
}
