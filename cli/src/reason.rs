//! Reason codes by name. The names come from the core's `Reason` enum (core/src/event.rs), the
//! value the kernel reports in `bbr_pacing_gain` bits 8..15. `name` matches exhaustively, so a
//! reason added to the core does not compile here until it has a name; `ALL` lists every
//! variant, and a test parses core/src/event.rs to check that it is complete and that each
//! name is the variant's name in snake_case.

use rdcc_core::Reason;

/// Every reason, in discriminant order.
pub const ALL: [Reason; 15] = [
    Reason::Hold,
    Reason::Init,
    Reason::AdditiveIncrease,
    Reason::MultiplicativeDecrease,
    Reason::DecreaseGuarded,
    Reason::FastRecovery,
    Reason::RetransmitTimeout,
    Reason::RetransmitReset,
    Reason::HyperactiveIncrease,
    Reason::GradientUpdate,
    Reason::LowGuard,
    Reason::HighGuard,
    Reason::Undo,
    Reason::IdleRestart,
    Reason::NoSample,
];

/// The reason's name (the variant in snake_case).
pub fn name(r: Reason) -> &'static str {
    match r {
        Reason::Hold => "hold",
        Reason::Init => "init",
        Reason::AdditiveIncrease => "additive_increase",
        Reason::MultiplicativeDecrease => "multiplicative_decrease",
        Reason::DecreaseGuarded => "decrease_guarded",
        Reason::FastRecovery => "fast_recovery",
        Reason::RetransmitTimeout => "retransmit_timeout",
        Reason::RetransmitReset => "retransmit_reset",
        Reason::HyperactiveIncrease => "hyperactive_increase",
        Reason::GradientUpdate => "gradient_update",
        Reason::LowGuard => "low_guard",
        Reason::HighGuard => "high_guard",
        Reason::Undo => "undo",
        Reason::IdleRestart => "idle_restart",
        Reason::NoSample => "no_sample",
    }
}

/// The reason with wire code `code`, if the core defines one.
pub fn from_code(code: u8) -> Option<Reason> {
    ALL.iter().copied().find(|&r| r as u8 == code)
}

/// The name for `code`, or `unknown(<code>)` (a module newer than this tool).
pub fn describe(code: u8) -> String {
    match from_code(code) {
        Some(r) => name(r).to_string(),
        None => format!("unknown({code})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(VariantName, value)` of every variant of `pub enum Reason` in core/src/event.rs.
    fn variants_in_source() -> Vec<(String, u8)> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../core/src/event.rs");
        let src = std::fs::read_to_string(path).unwrap();
        let start = src
            .find("pub enum Reason {")
            .expect("pub enum Reason in event.rs");
        let body = &src[start..];
        let body = &body[..body.find("\n}").unwrap()];
        body.lines()
            .map(str::trim)
            .filter(|l| !l.starts_with("//") && !l.starts_with('#') && l.contains('='))
            .map(|l| {
                let (n, v) = l.trim_end_matches(',').split_once('=').unwrap();
                (n.trim().to_string(), v.trim().parse::<u8>().unwrap())
            })
            .collect()
    }

    fn snake(camel: &str) -> String {
        let mut s = String::new();
        for (i, c) in camel.chars().enumerate() {
            if c.is_ascii_uppercase() {
                if i > 0 {
                    s.push('_');
                }
                s.push(c.to_ascii_lowercase());
            } else {
                s.push(c);
            }
        }
        s
    }

    #[test]
    fn table_matches_core_source() {
        let src = variants_in_source();
        assert_eq!(src.len(), ALL.len(), "variants in event.rs: {src:?}");
        for (variant, value) in &src {
            let r =
                from_code(*value).unwrap_or_else(|| panic!("{variant} = {value} missing from ALL"));
            assert_eq!(name(r), snake(variant), "name of {variant}");
        }
    }

    #[test]
    fn codes_round_trip_and_unknown() {
        for (i, r) in ALL.iter().enumerate() {
            assert_eq!(*r as usize, i, "ALL is in discriminant order");
            assert_eq!(from_code(i as u8), Some(*r));
        }
        assert_eq!(describe(2), "additive_increase");
        assert_eq!(describe(14), "no_sample");
        assert_eq!(describe(200), "unknown(200)");
    }
}
