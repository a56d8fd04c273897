//! Server seeds: generated from the OS CSPRNG, kept out of logs, wiped on drop.

use core::fmt;

use zeroize::Zeroize;

use crate::{Digest, Error, commitment};

/// A server seed: 32 bytes from the OS CSPRNG written as 64 lowercase hex characters, with its commitment.
///
/// `Debug` shows the commitment only; the seed itself is reached only through [`ServerSeed::reveal`].
/// The seed's text is overwritten with zeros when the value is dropped.
///
/// ```
/// let seed = fairmines::ServerSeed::generate()?;
/// assert_eq!(seed.reveal().len(), 64);
/// assert_eq!(seed.commitment(), fairmines::commitment(seed.reveal()));
/// assert!(!format!("{seed:?}").contains(seed.reveal()));
/// # Ok::<(), fairmines::Error>(())
/// ```
pub struct ServerSeed {
    hex: [u8; 64],
    commitment: Digest,
}

impl ServerSeed {
    /// A fresh seed from the operating system's cryptographically secure generator.
    pub fn generate() -> Result<Self, Error> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).map_err(|e| Error::RngFailed { detail: e.to_string() })?;
        let seed = Self::from_bytes(&bytes);
        bytes.zeroize();
        Ok(seed)
    }

    /// The seed whose 32 random bytes are `bytes` (for operators who draw them elsewhere).
    pub fn from_bytes(bytes: &[u8; 32]) -> Self {
        let hex = Digest::from_bytes(*bytes).to_hex();
        let mut text = *hex.as_bytes();
        let commitment = commitment(core::str::from_utf8(&text).unwrap_or_default());
        let seed = ServerSeed { hex: text, commitment };
        text.zeroize();
        seed
    }

    /// A seed from its text, as stored by the operator: exactly 64 lowercase hex characters.
    pub fn from_hex(text: &str) -> Result<Self, Error> {
        let bytes = Digest::parse_hex(text, "server_seed")?;
        let seed = Self::from_bytes(bytes.as_bytes());
        if seed.reveal() != text {
            return Err(Error::InvalidHex {
                argument: "server_seed",
                detail: "must be lowercase hex, as generated".to_owned(),
            });
        }
        Ok(seed)
    }

    /// The seed's text. Publish it only once its seed pair has been rotated out.
    pub fn reveal(&self) -> &str {
        // Only ASCII hex digits are ever stored, so this never fails.
        core::str::from_utf8(&self.hex).unwrap_or_default()
    }

    /// The commitment to publish before play: SHA3-256 of the seed's text.
    pub fn commitment(&self) -> Digest {
        self.commitment
    }
}

impl Drop for ServerSeed {
    fn drop(&mut self) {
        self.hex.zeroize();
    }
}

impl fmt::Debug for ServerSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServerSeed").field("commitment", &self.commitment).field("seed", &"<hidden>").finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_seeds_are_hex_and_distinct() {
        let a = ServerSeed::generate().unwrap();
        let b = ServerSeed::generate().unwrap();
        assert_ne!(a.reveal(), b.reveal());
        assert!(a.reveal().bytes().all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c)));
        assert_eq!(a.reveal().len(), 64);
    }

    #[test]
    fn from_bytes_is_lowercase_hex_of_the_bytes() {
        let seed = ServerSeed::from_bytes(&[0xab; 32]);
        assert_eq!(seed.reveal(), "ab".repeat(32));
        assert_eq!(seed.commitment(), commitment(&"ab".repeat(32)));
    }

    #[test]
    fn debug_hides_the_seed() {
        let seed = ServerSeed::from_bytes(&[0x5a; 32]);
        let shown = format!("{seed:?} {seed:#?}");
        assert!(!shown.contains("5a5a"), "{shown}");
        assert!(shown.contains(&seed.commitment().to_string()));
    }
}
