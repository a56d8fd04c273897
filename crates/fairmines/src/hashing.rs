//! Steps 1–3 of the algorithm: commitment, round signature and the SHAKE256 word stream.

use sha3::digest::{ExtendableOutput, Update, XofReader};
use sha3::{Sha3_256, Shake256, Shake256Reader};

use crate::{Digest, RoundHasher};

/// SHA3-256 of the server seed's UTF-8 bytes: the commitment shown to the player before play.
///
/// The seed's *text* is hashed (for a generated seed, its 64 hex characters), not the bytes it encodes.
///
/// ```
/// let seed = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
/// assert_eq!(
///     fairmines::commitment(seed).to_string(),
///     "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42"
/// );
/// ```
pub fn commitment(server_seed: &str) -> Digest {
    let mut hasher = Sha3_256::default();
    Update::update(&mut hasher, server_seed.as_bytes());
    finish(hasher)
}

/// SHA3-256 of `server_seed + ":" + client_seed + ":" + decimal(nonce)`: the round signature.
///
/// ```
/// let signature = fairmines::round_signature(
///     "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a",
///     "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817",
///     1,
/// );
/// assert_eq!(
///     signature.to_string(),
///     "90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac"
/// );
/// ```
pub fn round_signature(server_seed: &str, client_seed: &str, nonce: u64) -> Digest {
    RoundHasher::new(server_seed, client_seed).signature(nonce)
}

pub(crate) fn finish(hasher: Sha3_256) -> Digest {
    let mut out = [0u8; 32];
    out.copy_from_slice(&sha3::Digest::finalize(hasher));
    Digest::from_bytes(out)
}

/// Writes `n` in decimal (as JavaScript's `${n}` does for safe integers) into the end of `buf`.
pub(crate) fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    let mut start = buf.len();
    loop {
        start -= 1;
        buf[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return &buf[start..];
        }
    }
}

/// SHAKE256 output bytes per Keccak permutation (the sponge rate).
const RATE: usize = 136;

/// The unbounded stream of random words of a round: SHAKE256 over the 64 ASCII hex characters of the
/// round signature, read as consecutive big-endian `u32`s.
///
/// The operator's verifier pre-draws 48 words; an XOF's output is prefix-consistent, so this stream
/// yields the same 48 words and then simply goes on.
///
/// ```
/// let signature: fairmines::Digest =
///     "90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac".parse()?;
/// let words: Vec<u32> = fairmines::WordStream::new(&signature).take(3).collect();
/// assert_eq!(words.len(), 3);
/// assert_eq!(words[0] % 25, 9); // the first mine of the worked example lands on tile index 9
/// # Ok::<(), fairmines::Error>(())
/// ```
pub struct WordStream {
    reader: Shake256Reader,
    block: [u8; RATE],
    offset: usize,
}

impl WordStream {
    /// Starts the stream of the round whose signature is `signature`.
    pub fn new(signature: &Digest) -> Self {
        let mut shake = Shake256::default();
        shake.update(signature.to_hex().as_bytes());
        WordStream { reader: shake.finalize_xof(), block: [0; RATE], offset: RATE }
    }
}

impl Iterator for WordStream {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        // 136 is a multiple of 4, so a word never straddles two blocks.
        if self.offset == RATE {
            self.reader.read(&mut self.block);
            self.offset = 0;
        }
        let bytes = [
            self.block[self.offset],
            self.block[self.offset + 1],
            self.block[self.offset + 2],
            self.block[self.offset + 3],
        ];
        self.offset += 4;
        Some(u32::from_be_bytes(bytes))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (usize::MAX, None)
    }
}

impl core::iter::FusedIterator for WordStream {}

impl core::fmt::Debug for WordStream {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // The stream's state is derived from the server seed: show nothing of it.
        f.write_str("WordStream { .. }")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_matches_std_formatting() {
        for n in [0, 1, 9, 10, 99, 100, 4294967296, 9007199254740991, u64::MAX] {
            let mut buf = [0u8; 20];
            assert_eq!(decimal(n, &mut buf), n.to_string().as_bytes());
        }
    }
}
