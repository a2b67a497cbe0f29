//! What the fuzz targets share: [`Bytes`], the reader that turns the fuzzer's input into
//! event fields.

/// Reads fields from the front of the fuzzer's input; bytes past the end read as zero, so every
/// input is a complete event stream.
pub struct Bytes<'a>(pub &'a [u8]);

impl Bytes<'_> {
    /// The next byte (0 past the end).
    pub fn u8(&mut self) -> u8 {
        match self.0.split_first() {
            Some((b, rest)) => {
                self.0 = rest;
                *b
            }
            None => 0,
        }
    }
    /// The next 4 bytes, little-endian.
    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.u8(), self.u8(), self.u8(), self.u8()])
    }
    /// The next 8 bytes, little-endian.
    pub fn u64(&mut self) -> u64 {
        (self.u32() as u64) | ((self.u32() as u64) << 32)
    }
    /// A time or delay, ns, after a selector byte: below `small_ns`, below `large_ns`, any
    /// `u64`, or 0 — mostly realistic, sometimes extreme.
    pub fn time(&mut self, small_ns: u64, large_ns: u64) -> u64 {
        match self.u8() % 4 {
            0 => self.u32() as u64 % small_ns,
            1 => self.u32() as u64 % large_ns,
            2 => self.u64(),
            _ => 0,
        }
    }
    /// Is the input used up?
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}
