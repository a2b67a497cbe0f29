//! A flow of a trial as the scenario runner names it (`selftests/_scenario.sh`'s SCN_FLOWS
//! after its substitutions): `ALGO:START_MS:t:SECS` (send for SECS seconds) or
//! `ALGO:START_MS:b:BYTES` (send exactly BYTES bytes).

use std::fmt;
use std::str::FromStr;

/// The longest congestion-control name the kernel takes (`TCP_CA_NAME_MAX` = 16, with its NUL).
pub const ALGO_NAME_MAX: usize = 15;
/// The latest start: an hour after the trial's clock starts.
pub const START_MS_MAX: u64 = 3_600_000;
/// The longest timed flow: a day.
pub const SECS_MAX: f64 = 86_400.0;
/// The largest sized flow: 1 TiB.
pub const BYTES_MAX: u64 = 1 << 40;

/// How much a flow sends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Amount {
    /// For this many seconds from its start.
    Secs(f64),
    /// Exactly this many bytes.
    Bytes(u64),
}

/// One flow: its congestion control, its start after the trial's clock starts, its amount.
#[derive(Debug, Clone, PartialEq)]
pub struct Flow {
    pub algo: String,
    pub start_ms: u64,
    pub amount: Amount,
}

/// Why a flow spec was refused.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecError(String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SpecError {}

impl FromStr for Flow {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<Self, SpecError> {
        let e = |why: String| SpecError(format!("flow {s:?}: {why}"));
        let w: Vec<&str> = s.split(':').collect();
        let [algo, start, kind, amount] = w[..] else {
            return Err(e(
                "want ALGO:START_MS:t:SECS or ALGO:START_MS:b:BYTES".into()
            ));
        };
        if algo.is_empty()
            || algo.len() > ALGO_NAME_MAX
            || !algo
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
        {
            return Err(e(format!(
                "algorithm {algo:?}: 1 to {ALGO_NAME_MAX} of a-z, 0-9, _"
            )));
        }
        let start_ms: u64 = start
            .parse()
            .ok()
            .filter(|&v| v <= START_MS_MAX)
            .ok_or_else(|| e(format!("start {start:?}: 0 to {START_MS_MAX} ms")))?;
        let amount = match kind {
            "t" => Amount::Secs(
                amount
                    .parse::<f64>()
                    .ok()
                    .filter(|v| *v > 0.0 && *v <= SECS_MAX)
                    .ok_or_else(|| {
                        e(format!(
                            "seconds {amount:?}: more than 0, at most {SECS_MAX}"
                        ))
                    })?,
            ),
            "b" => Amount::Bytes(
                amount
                    .parse::<u64>()
                    .ok()
                    .filter(|v| (1..=BYTES_MAX).contains(v))
                    .ok_or_else(|| e(format!("bytes {amount:?}: 1 to {BYTES_MAX}")))?,
            ),
            _ => return Err(e(format!("kind {kind:?}: t (seconds) or b (bytes)"))),
        };
        Ok(Flow {
            algo: algo.to_string(),
            start_ms,
            amount,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs() {
        let ok = |algo: &str, start_ms, amount| {
            Ok(Flow {
                algo: algo.into(),
                start_ms,
                amount,
            })
        };
        let table: &[(&str, Result<Flow, &str>)] = &[
            ("swift:0:t:3", ok("swift", 0, Amount::Secs(3.0))),
            (
                "swift_vaisf:1000:b:262144",
                ok("swift_vaisf", 1000, Amount::Bytes(262144)),
            ),
            (
                "dctcp:3600000:t:0.5",
                ok("dctcp", 3_600_000, Amount::Secs(0.5)),
            ),
            (
                "cubic:0:b:1099511627776",
                ok("cubic", 0, Amount::Bytes(1 << 40)),
            ),
            ("swift:0:t", Err("want ALGO")),
            ("swift:0:t:3:4", Err("want ALGO")),
            (":0:t:3", Err("algorithm \"\"")),
            ("Swift:0:t:3", Err("algorithm \"Swift\"")),
            ("a_very_long_name_x:0:t:3", Err("1 to 15")),
            ("swift:-1:t:3", Err("start \"-1\"")),
            ("swift:3600001:t:3", Err("start \"3600001\"")),
            ("swift:0:t:0", Err("seconds \"0\"")),
            ("swift:0:t:86401", Err("seconds \"86401\"")),
            ("swift:0:t:nan", Err("seconds \"nan\"")),
            ("swift:0:b:0", Err("bytes \"0\"")),
            ("swift:0:b:1.5", Err("bytes \"1.5\"")),
            ("swift:0:b:1099511627777", Err("bytes \"1099511627777\"")),
            ("swift:0:x:3", Err("kind \"x\"")),
        ];
        for (s, want) in table {
            match (s.parse::<Flow>(), want) {
                (Ok(f), Ok(w)) => assert_eq!(&f, w, "{s}"),
                (Err(e), Err(w)) => assert!(e.to_string().contains(w), "{s}: {e}"),
                (got, _) => panic!("{s}: got {got:?}, want {want:?}"),
            }
        }
    }
}
