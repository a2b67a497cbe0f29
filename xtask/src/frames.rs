//! The guest's data channel (/dev/ttyS1, `selftests/_scenario.sh`'s `send`): framed files, each
//! checked against its length and SHA-256 before anything is parsed.

/// One file sent by the guest.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub name: String,
    pub data: Vec<u8>,
}

/// A damaged data channel: every message names the frame (or line) and what did not match.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum FrameError {
    /// The stream ends inside a header line.
    #[error("data channel: a header line without its end (guest cut off?)")]
    CutHeader,
    /// A header's size is not a number.
    #[error("data channel: bad size in {header:?}")]
    BadSize { header: String },
    /// Fewer bytes than the header announced.
    #[error("data channel: {name}: {got} of {size} bytes arrived")]
    Short {
        name: String,
        got: usize,
        size: usize,
    },
    /// No end marker right after the announced bytes.
    #[error("data channel: {name}: no end marker after {size} bytes")]
    NoEnd { name: String, size: usize },
    /// The payload's SHA-256 is not the guest's.
    #[error("data channel: {name}: checksum {got} differs from the guest's {sum}")]
    Checksum {
        name: String,
        got: String,
        sum: String,
    },
    /// A line that is neither a frame header nor a scenario's end.
    #[error("data channel: unexpected line {header:?}")]
    Unexpected { header: String },
}

/// SHA-256 of `data`, lowercase hex (as `sha256sum` prints it).
fn sha256_hex(data: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(data)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Split the data channel into frames (`RDCC-FILE name size sha256\n` + bytes +
/// `\nRDCC-FILE-END name\n`). A frame whose length, end marker or checksum does not match is
/// an error naming it: nothing is silently dropped.
pub fn read_frames(mut buf: &[u8]) -> Result<(Vec<Frame>, Vec<String>), FrameError> {
    let mut frames = Vec::new();
    let mut done = Vec::new();
    loop {
        // Skip blank bytes between frames.
        while let Some((&b, rest)) = buf.split_first() {
            if b == b'\n' || b == b'\r' {
                buf = rest;
            } else {
                break;
            }
        }
        if buf.is_empty() {
            break;
        }
        let nl = buf
            .iter()
            .position(|&b| b == b'\n')
            .ok_or(FrameError::CutHeader)?;
        let header = String::from_utf8_lossy(&buf[..nl]).to_string();
        buf = &buf[nl + 1..];
        let w: Vec<&str> = header.split_whitespace().collect();
        match w.as_slice() {
            ["RDCC-DATA-DONE", name] => {
                done.push(name.to_string());
                continue;
            }
            ["RDCC-FILE", name, size, sum] => {
                let size: usize = size.parse().map_err(|_| FrameError::BadSize {
                    header: header.clone(),
                })?;
                if buf.len() < size {
                    return Err(FrameError::Short {
                        name: name.to_string(),
                        got: buf.len(),
                        size,
                    });
                }
                let data = buf[..size].to_vec();
                buf = &buf[size..];
                let end = format!("\nRDCC-FILE-END {name}\n");
                if !buf.starts_with(end.as_bytes()) {
                    return Err(FrameError::NoEnd {
                        name: name.to_string(),
                        size,
                    });
                }
                buf = &buf[end.len()..];
                let got = sha256_hex(&data);
                if got != *sum {
                    return Err(FrameError::Checksum {
                        name: name.to_string(),
                        got,
                        sum: sum.to_string(),
                    });
                }
                frames.push(Frame {
                    name: name.to_string(),
                    data,
                });
            }
            _ => return Err(FrameError::Unexpected { header }),
        }
    }
    Ok((frames, done))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(name: &str, data: &[u8]) -> Vec<u8> {
        let sum = sha256_hex(data);
        let mut v = format!("RDCC-FILE {name} {} {sum}\n", data.len()).into_bytes();
        v.extend_from_slice(data);
        v.extend_from_slice(format!("\nRDCC-FILE-END {name}\n").as_bytes());
        v
    }

    #[test]
    fn sha256_known_vectors() {
        // FIPS 180-2 appendix B.1 ("abc") and the empty input: what the guest's sha256sum
        // writes in the frame header.
        let cases: &[(&[u8], &str)] = &[
            (
                b"abc",
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            ),
            (
                b"",
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
            ),
        ];
        for (data, want) in cases {
            assert_eq!(sha256_hex(data), *want);
        }
    }

    #[test]
    fn frames_round_trip_and_damage_is_refused() {
        let mut buf = frame("a/b/t1/x.txt", b"hello\nworld");
        buf.extend(frame("a/b/t1/bin", &[0, 10, 255, 13]));
        buf.extend_from_slice(b"RDCC-DATA-DONE a\n");
        let (f, done) = read_frames(&buf).unwrap();
        assert_eq!(f.len(), 2);
        assert_eq!(f[1].data, vec![0, 10, 255, 13]);
        assert_eq!(done, vec!["a".to_string()]);
        // One flipped payload byte, a truncated stream, a missing end marker.
        let mut bad = frame("x", b"abcdef");
        let at = bad.len() - 20;
        bad[at] ^= 1;
        let e = read_frames(&bad).unwrap_err();
        assert!(matches!(e, FrameError::Checksum { .. }), "{e}");
        assert!(e.to_string().contains("checksum"));
        let good = frame("x", b"abcdef");
        let e = read_frames(&good[..good.len() - 20]).unwrap_err();
        assert_eq!(e.to_string(), "data channel: x: 3 of 6 bytes arrived");
        let mut noend = frame("x", b"abcdef");
        noend.truncate(noend.len() - 5);
        noend.extend_from_slice(b"zzzz\n");
        let e = read_frames(&noend).unwrap_err();
        assert_eq!(
            e.to_string(),
            "data channel: x: no end marker after 6 bytes"
        );
        let e = read_frames(b"garbage\n").unwrap_err();
        assert_eq!(
            e,
            FrameError::Unexpected {
                header: "garbage".into()
            }
        );
        assert!(e.to_string().contains("unexpected line"));
        let e = read_frames(b"RDCC-FILE x").unwrap_err();
        assert_eq!(e, FrameError::CutHeader);
    }
}
