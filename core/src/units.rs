// SPDX-License-Identifier: GPL-2.0-only
//! Human-readable parameter values: the text a person writes to a module parameter (or a
//! scenario key) turned into the integer unit the parameter's name states.
//!
//! A parameter's name ends in its unit (`_ns`, `_bps`, `_mbps`, `_q16`, `_pkts_q20`, `_bytes`);
//! [`Unit::of`] reads it. A bare integer is always taken in that unit, so existing values keep
//! their meaning (`beta_q16=52429`). A decimal point or a unit suffix makes the value human:
//!
//! | unit of the name | human forms | example |
//! |---|---|---|
//! | `_q16` (65536 = 1.0) | decimal fraction | `0.8` = 52429 |
//! | `_pkts_q20` (packets << 20) | decimal packets, optional `pkt` | `0.001` = 1049 |
//! | `_ns` | `ns`, `us`, `ms`, `s`, decimals allowed | `25us`, `1.5ms` |
//! | `_bps` (bytes/s) | `bit/s`, `kbit`, `Mbit`, `Gbit` (÷ 8), `B/s`, `KB/s`, `MB/s`, `GB/s` | `50Mbit` = 6250000 |
//! | `_mbps` (Mbit/s) | `Mbit`, `Gbit` | `100Gbit` = 100000 |
//! | `_bytes` | `B`, `KB`, `MB` (powers of 1000), `KiB`, `MiB` | `64KiB` |
//! | anything else | integer only | |
//!
//! Rounding is to nearest (half up) at the target unit. Parsing is integer-only and never
//! panics: at most [`MAX_FRAC_DIGITS`] fractional digits are kept (the rest must be zeros or is
//! refused as too precise), and every product is checked, so a value that does not fit a `u64`
//! is refused ([`UnitError::TooLarge`]) instead of wrapping.

/// The unit a parameter's name states.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Q16 fraction (65536 = 1.0).
    Q16,
    /// Packets with 20 fractional bits.
    PktsQ20,
    /// Nanoseconds.
    Ns,
    /// Bytes per second.
    Bps,
    /// Megabits per second.
    Mbps,
    /// Bytes.
    Bytes,
    /// A plain count or mode: integers only.
    Plain,
}

/// Why a value was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnitError {
    /// Empty, a sign, two points, a stray character, or a suffix this unit does not take.
    Syntax,
    /// More fractional digits than [`MAX_FRAC_DIGITS`] that are not zeros.
    TooPrecise,
    /// The value does not fit a `u64` in the target unit.
    TooLarge,
}

impl UnitError {
    /// A short description for log lines.
    pub const fn text(self) -> &'static str {
        match self {
            UnitError::Syntax => "not a number in this parameter's unit",
            UnitError::TooPrecise => "too many decimal places",
            UnitError::TooLarge => "too large",
        }
    }
}

/// Fractional digits kept: 9 (one nanosecond of a second, 1/10^9 of a Q16 one).
pub const MAX_FRAC_DIGITS: u32 = 9;
/// 10^MAX_FRAC_DIGITS: the scale of the parsed decimal's fraction.
const FRAC_SCALE: u64 = 1_000_000_000;

impl Unit {
    /// The unit of a parameter named `name` (by its suffix).
    pub fn of(name: &str) -> Unit {
        Unit::of_bytes(name.as_bytes())
    }

    /// [`Unit::of`] for a name given as bytes (a C string from the kernel).
    pub fn of_bytes(n: &[u8]) -> Unit {
        if n.ends_with(b"_pkts_q20") {
            Unit::PktsQ20
        } else if n.ends_with(b"_q16") {
            Unit::Q16
        } else if n.ends_with(b"_ns") {
            Unit::Ns
        } else if n.ends_with(b"_mbps") {
            Unit::Mbps
        } else if n.ends_with(b"_bps") {
            Unit::Bps
        } else if n.ends_with(b"_bytes") {
            Unit::Bytes
        } else {
            Unit::Plain
        }
    }

    /// The unit as a person reads it, for parameter descriptions and error messages.
    pub const fn describe(self) -> &'static str {
        match self {
            Unit::Q16 => "fraction: 0.8, or Q16 integer (65536 = 1.0)",
            Unit::PktsQ20 => "packets: 0.001, or integer packets << 20",
            Unit::Ns => "time: 25us, 1.5ms, or integer ns",
            Unit::Bps => "rate: 50Mbit, 10Gbit, or integer bytes/s",
            Unit::Mbps => "rate: 100Gbit, 50Mbit, or integer Mbit/s",
            Unit::Bytes => "size: 64KiB, 1.5KB, or integer bytes",
            Unit::Plain => "integer",
        }
    }

    /// Multiplier of one "human" unit (a suffix) as `(numerator, denominator)` in the target
    /// unit, or `None` when this unit does not take that suffix.
    fn suffix(self, s: &[u8]) -> Option<(u64, u64)> {
        match self {
            Unit::Q16 => match s {
                b"" => Some((65_536, 1)),
                _ => None,
            },
            Unit::PktsQ20 => match s {
                b"" | b"pkt" | b"pkts" => Some((1 << 20, 1)),
                _ => None,
            },
            Unit::Ns => match s {
                b"ns" => Some((1, 1)),
                b"us" => Some((1_000, 1)),
                b"ms" => Some((1_000_000, 1)),
                b"s" => Some((1_000_000_000, 1)),
                _ => None,
            },
            Unit::Bps => match s {
                b"bit" | b"bit/s" | b"bps" => Some((1, 8)),
                b"kbit" | b"kbit/s" => Some((1_000, 8)),
                b"Mbit" | b"Mbit/s" => Some((1_000_000, 8)),
                b"Gbit" | b"Gbit/s" => Some((1_000_000_000, 8)),
                b"B/s" => Some((1, 1)),
                b"KB/s" => Some((1_000, 1)),
                b"MB/s" => Some((1_000_000, 1)),
                b"GB/s" => Some((1_000_000_000, 1)),
                _ => None,
            },
            Unit::Mbps => match s {
                b"Mbit" | b"Mbit/s" => Some((1, 1)),
                b"Gbit" | b"Gbit/s" => Some((1_000, 1)),
                _ => None,
            },
            Unit::Bytes => match s {
                b"B" => Some((1, 1)),
                b"KB" => Some((1_000, 1)),
                b"MB" => Some((1_000_000, 1)),
                b"KiB" => Some((1 << 10, 1)),
                b"MiB" => Some((1 << 20, 1)),
                _ => None,
            },
            Unit::Plain => None,
        }
    }

    /// Parse `text` (surrounding ASCII white space, e.g. sysfs's trailing newline, ignored).
    pub fn parse(self, text: &[u8]) -> Result<u64, UnitError> {
        let t = trim(text);
        // Split into digits, an optional fraction and a suffix.
        let mut int: u64 = 0;
        let mut frac: u64 = 0; // scaled by FRAC_SCALE
        let mut frac_digits: u32 = 0;
        let mut seen_digit = false;
        let mut seen_point = false;
        let mut rest = t;
        while let Some((&c, tail)) = rest.split_first() {
            match c {
                b'0'..=b'9' => {
                    let d = u64::from(c.wrapping_sub(b'0'));
                    seen_digit = true;
                    if seen_point {
                        if frac_digits < MAX_FRAC_DIGITS {
                            frac_digits = frac_digits.wrapping_add(1);
                            let place = pow10(MAX_FRAC_DIGITS.wrapping_sub(frac_digits));
                            frac = frac.wrapping_add(d.wrapping_mul(place)); // < FRAC_SCALE
                        } else if d != 0 {
                            return Err(UnitError::TooPrecise);
                        }
                    } else {
                        int = int
                            .checked_mul(10)
                            .and_then(|v| v.checked_add(d))
                            .ok_or(UnitError::TooLarge)?;
                    }
                }
                b'.' if !seen_point => seen_point = true,
                _ => break,
            }
            rest = tail;
        }
        if !seen_digit {
            return Err(UnitError::Syntax);
        }
        let suffix = trim(rest);
        if suffix.is_empty() && !seen_point {
            return Ok(int); // a bare integer is in the name's unit
        }
        let (num, den) = self.suffix(suffix).ok_or(UnitError::Syntax)?;
        scale(int, frac, num, den)
    }
}

/// `round((int + frac / FRAC_SCALE) * num / den)` without overflow, or `TooLarge`.
fn scale(int: u64, frac: u64, num: u64, den: u64) -> Result<u64, UnitError> {
    // Integer part: int * num / den, with the remainder carried into the fraction.
    let whole = int.checked_mul(num).ok_or(UnitError::TooLarge)?;
    let q = whole.checked_div(den).ok_or(UnitError::Syntax)?;
    let r = whole.checked_rem(den).ok_or(UnitError::Syntax)?; // < den <= 8
    // Fraction part: frac * num / (FRAC_SCALE * den). frac < 1e9 and num <= 1e9 (or 2^20), so
    // frac * num < 1e18 < 2^63; r * FRAC_SCALE < 8e9.
    let f_num = frac
        .checked_mul(num)
        .and_then(|v| v.checked_add(r.checked_mul(FRAC_SCALE)?))
        .ok_or(UnitError::TooLarge)?;
    let f_den = FRAC_SCALE.checked_mul(den).ok_or(UnitError::TooLarge)?;
    let f = f_num
        .checked_add(f_den.wrapping_shr(1))
        .and_then(|v| v.checked_div(f_den))
        .ok_or(UnitError::TooLarge)?;
    q.checked_add(f).ok_or(UnitError::TooLarge)
}

const fn pow10(n: u32) -> u64 {
    let mut v: u64 = 1;
    let mut i = 0;
    while i < n && i < 19 {
        v = v.wrapping_mul(10);
        i = i.wrapping_add(1);
    }
    v
}

fn trim(s: &[u8]) -> &[u8] {
    let mut s = s;
    while let Some((c, t)) = s.split_first() {
        if c.is_ascii_whitespace() {
            s = t;
        } else {
            break;
        }
    }
    while let Some((c, t)) = s.split_last() {
        if c.is_ascii_whitespace() {
            s = t;
        } else {
            break;
        }
    }
    s
}
