//! 32-byte SHA3-256 digests (commitments and round signatures) and their hex text.

use core::fmt;
use core::str::FromStr;

use subtle::ConstantTimeEq;

use crate::Error;

/// A SHA3-256 digest: a commitment or a round signature.
///
/// Displays as 64 lowercase hex characters and parses from 64 hex characters of either case.
/// Equality runs in constant time, so comparing a secret-derived digest leaks nothing through timing.
///
/// ```
/// let c: fairmines::Digest = "F5ECA593DA3FD535D80F1DD3CC314370F5CE423DF9BE402AF81DC5F01959CF42".parse()?;
/// assert_eq!(c.to_string(), "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42");
/// # Ok::<(), fairmines::Error>(())
/// ```
#[derive(Clone, Copy, Eq)]
pub struct Digest([u8; 32]);

impl Digest {
    /// Wraps 32 raw digest bytes.
    pub const fn from_bytes(bytes: [u8; 32]) -> Self {
        Digest(bytes)
    }

    /// The 32 raw digest bytes.
    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// The 64 lowercase hex characters, without allocating.
    pub fn to_hex(&self) -> Hex {
        let mut out = [0u8; 64];
        for (chars, lane) in out.chunks_exact_mut(8).zip(self.hex_lanes()) {
            chars.copy_from_slice(&lane.to_le_bytes());
        }
        Hex(out)
    }

    /// The hex text as eight little-endian 64-bit words, the form in which the SHAKE256 stream absorbs it.
    pub(crate) fn hex_lanes(&self) -> [u64; 8] {
        let mut lanes = [0u64; 4];
        for (lane, bytes) in lanes.iter_mut().zip(self.0.chunks_exact(8)) {
            *lane = u64::from_le_bytes(bytes.try_into().unwrap_or_default());
        }
        hex_lanes(lanes)
    }

    /// Parses 64 hex characters (either case); `argument` names the input in the error message.
    pub fn parse_hex(text: &str, argument: &'static str) -> Result<Self, Error> {
        let bytes = text.as_bytes();
        if bytes.len() != 64 {
            return Err(Error::InvalidHex {
                argument,
                detail: format!("must be 64 hexadecimal characters, got {} bytes", bytes.len()),
            });
        }
        let mut out = [0u8; 32];
        for (i, pair) in bytes.chunks_exact(2).enumerate() {
            match (hex_value(pair[0]), hex_value(pair[1])) {
                (Some(hi), Some(lo)) => out[i] = hi << 4 | lo,
                _ => {
                    return Err(Error::InvalidHex {
                        argument,
                        detail: format!(
                            "must be 64 hexadecimal characters, found a non-hex character near position {}",
                            2 * i + 1
                        ),
                    });
                }
            }
        }
        Ok(Digest(out))
    }
}

/// The hex text of a digest given as four little-endian 64-bit words (as a Keccak state holds it), as
/// eight such words, first character in the low byte. Every round hex-encodes its signature, so this
/// is on the hot path.
#[inline(always)]
pub(crate) fn hex_lanes(digest: [u64; 4]) -> [u64; 8] {
    let mut bytes = [0u8; 32];
    for (eight, word) in bytes.chunks_exact_mut(8).zip(digest) {
        eight.copy_from_slice(&word.to_le_bytes());
    }
    // A byte at a time, written so that the compiler does 16 at once in vector registers.
    let mut chars = [0u8; 64];
    for (pair, byte) in chars.chunks_exact_mut(2).zip(bytes) {
        pair[0] = hex_char(byte >> 4);
        pair[1] = hex_char(byte & 0x0f);
    }
    let mut lanes = [0u64; 8];
    for (lane, eight) in lanes.iter_mut().zip(chars.chunks_exact(8)) {
        *lane = u64::from_le_bytes(eight.try_into().unwrap_or_default());
    }
    lanes
}

/// The hex character of a nibble: '0' + n, plus ('a' - '0' - 10) = 39 where n > 9.
#[inline(always)]
fn hex_char(nibble: u8) -> u8 {
    nibble + b'0' + if nibble > 9 { 39 } else { 0 }
}

fn hex_value(c: u8) -> Option<u8> {
    match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    }
}

impl PartialEq for Digest {
    fn eq(&self, other: &Self) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

// Equal digests have equal bytes, so hashing the bytes agrees with the constant-time `eq`.
impl core::hash::Hash for Digest {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        self.0.hash(state);
    }
}

impl serde::Serialize for Digest {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.to_hex().as_str())
    }
}

impl<'de> serde::Deserialize<'de> for Digest {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        Digest::parse_hex(&text, "digest").map_err(serde::de::Error::custom)
    }
}

impl FromStr for Digest {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        Digest::parse_hex(s, "digest")
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.to_hex().as_str())
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({self})")
    }
}

/// The 64 lowercase hex characters of a [`Digest`], held on the stack.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Hex([u8; 64]);

impl Hex {
    /// The hex text.
    pub fn as_str(&self) -> &str {
        // Only ASCII hex digits are ever written, so this never fails.
        core::str::from_utf8(&self.0).unwrap_or_default()
    }

    /// The hex text as ASCII bytes.
    pub const fn as_bytes(&self) -> &[u8; 64] {
        &self.0
    }
}

impl fmt::Display for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Hex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}
