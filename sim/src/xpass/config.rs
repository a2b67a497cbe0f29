//! ExpressPass scenario keys: `[cc.NAME] law = "expresspass"` plus integer overrides of the
//! law's `Config` fields (core) and of the fabric/host settings below. Unknown keys and bad
//! values are refused before anything runs.

use super::XpassConfig;
use crate::error::{invalid, Result};
use rdcc_core::expresspass::Params;

/// The law name in scenarios.
pub const LAW_NAME: &str = "expresspass";

/// Keys of the law (`rdcc_core::expresspass::Config` fields; `link_rate_mbps`,
/// `credit_bytes` and `max_data_frame_bytes` come from the topology and transport).
pub const LAW_KEYS: &[&str] = &[
    "alpha_q16",
    "w_init_q16",
    "w_min_q16",
    "w_max_q16",
    "w_step_q16",
    "target_loss_q16",
    "target_loss_scaling_q16",
    "jitter_q16",
    "rtt_ewma_q16",
    "mode",
    "rto_ns",
    "min_credits_per_update",
];

/// Keys of the fabric and hosts: (name, min, max).
pub const SIM_KEYS: &[(&str, u64, u64)] = &[
    ("credit_queue", 0, 64),         // credits per port (§3.1: 4-8); 0 = policer
    ("bucket_credits", 1, 64),       // token bucket, credits (§3.1: 2)
    ("host_delay_ns", 0, 1_000_000), // fixed credit-to-data host delay
    ("host_delay_spread_ns", 0, 100_000), // Δd_host
    ("credit_bytes", 64, 1_000),     // credit size on the wire (84)
    ("naive", 0, 1),                 // §2's naive max-rate credits
    ("credit_size_spread", 0, 32),   // credit size credit_bytes +- this (artifact: 8)
    ("random_credit_drop", 0, 1),    // 1: uniform random credit drop (§3.1); 0: drop-tail
];

/// Apply `overrides` to `base`; the error names the key and the accepted range.
pub fn apply(base: &XpassConfig, overrides: &[(String, u64)]) -> Result<XpassConfig> {
    let mut c = base.clone();
    for (k, v) in overrides {
        let v = *v;
        let l = &mut c.law;
        match k.as_str() {
            "alpha_q16" => l.alpha_q16 = v,
            "w_init_q16" => l.w_init_q16 = v,
            "w_min_q16" => l.w_min_q16 = v,
            "w_max_q16" => l.w_max_q16 = v,
            "w_step_q16" => l.w_step_q16 = v,
            "target_loss_q16" => l.target_loss_q16 = v,
            "target_loss_scaling_q16" => l.target_loss_scaling_q16 = v,
            "jitter_q16" => l.jitter_q16 = v,
            "rtt_ewma_q16" => l.rtt_ewma_q16 = v,
            "mode" => l.mode = v,
            "rto_ns" => l.rto_ns = v,
            "min_credits_per_update" => l.min_credits_per_update = v,
            _ => {
                let Some(&(_, lo, hi)) = SIM_KEYS.iter().find(|(n, _, _)| n == k) else {
                    let mut all: Vec<&str> = LAW_KEYS.to_vec();
                    all.extend(SIM_KEYS.iter().map(|k| k.0));
                    return Err(invalid!(
                        "{LAW_NAME}: unknown key {k:?}; known: {}",
                        all.join(", ")
                    ));
                };
                if v < lo || v > hi {
                    return Err(invalid!("{LAW_NAME}: {k}={v} out of range [{lo}, {hi}]"));
                }
                match k.as_str() {
                    "credit_queue" => c.credit_queue = v as usize,
                    "bucket_credits" => c.bucket_credits = v,
                    "host_delay_ns" => c.host_delay_ns = v,
                    "host_delay_spread_ns" => c.host_delay_spread_ns = v,
                    "credit_bytes" => c.credit_bytes = v as u32,
                    "credit_size_spread" => c.credit_size_spread = v as u32,
                    "random_credit_drop" => c.random_credit_drop = v == 1,
                    _ => c.naive = v == 1,
                }
            }
        }
    }
    if c.credit_size_spread * 2 > c.credit_bytes {
        return Err(invalid!(
            "{LAW_NAME}: credit_size_spread={} must be at most half of credit_bytes={}",
            c.credit_size_spread,
            c.credit_bytes
        ));
    }
    // Validate the law once here (the per-flow link rate is checked when the run is built).
    let frame = (c.mss_bytes + c.header_bytes) as u64;
    let law = rdcc_core::expresspass::Config {
        credit_bytes: c.credit_bytes as u64,
        max_data_frame_bytes: frame,
        ..c.law
    };
    Params::new(&law).map_err(|e| {
        invalid!(
            "{LAW_NAME}: {}={} out of range [{}, {}]",
            e.field,
            e.value,
            e.min,
            e.max
        )
    })?;
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_checked() {
        let b = XpassConfig::default();
        let ok = apply(&b, &[("mode".into(), 1), ("credit_queue".into(), 4)]).unwrap();
        assert_eq!((ok.law.mode, ok.credit_queue), (1, 4));
        let bad: &[(&str, u64, &str)] = &[
            ("nope", 1, "unknown key"),
            ("credit_queue", 65, "credit_queue=65 out of range"),
            ("naive", 2, "naive=2"),
            ("mode", 7, "mode=7"),
            ("alpha_q16", 0, "alpha_q16=0"),
        ];
        for &(k, v, want) in bad {
            let e = apply(&b, &[(k.into(), v)]).unwrap_err().to_string();
            assert!(e.contains(want), "{k}: {e}");
        }
    }
}
