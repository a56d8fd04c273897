//! Steps 1–3 of the algorithm: commitment, round signature and the SHAKE256 word stream.
//!
//! SHA3-256 and SHAKE256 are the same Keccak sponge with the same 136-byte rate; they differ only in
//! the padding's domain bits and in how much output is read. They are written out here over
//! `keccak::f1600` (the permutation the `sha3` crate itself uses) so that a round costs exactly the
//! permutations it needs: one for the signature (two when `server:client:nonce` is 136 bytes or
//! longer) and one for the first 34 words of the stream. The `sha3` crate's XOF reader permutes again
//! right after every block it hands out, a third permutation per round that is never read. The test
//! `tests/sponge_differential.rs` checks this code against the `sha3` crate for every input length
//! around the block boundaries.

use zeroize::Zeroize;

use crate::Digest;
use crate::digest::hex_lanes;

/// Bytes absorbed or squeezed per Keccak permutation: 200 − 2 × 32 for both SHA3-256 and SHAKE256.
const RATE: usize = 136;
/// Words of the stream per squeezed block (136 is a multiple of 4: no word straddles two blocks).
const WORDS_PER_BLOCK: usize = RATE / 4;
/// FIPS 202 domain bits plus the first padding bit: `01` + `1` for SHA3, `1111` + `1` for SHAKE.
const SHA3_PAD: u64 = 0x06;
const SHAKE_PAD: u64 = 0x1f;
/// The last padding bit, the top bit of the last byte of the block (byte 135 = lane 16, byte 7).
const LAST_PAD: u64 = 0x80 << 56;

/// A SHA3-256 computation in progress: the Keccak state and how far into the current block it is.
///
/// Input goes straight into the state, eight bytes at a time, with no block buffer. Measured, that
/// took about half the time beyond the permutation that copying the bytes into a buffer and reading
/// it back as 64-bit lanes took (which executes fewer instructions: the wide reads of freshly
/// written bytes wait), and a round's budget beyond its permutations is a few percent.
#[derive(Clone)]
pub(crate) struct Sha3 {
    state: [u64; 25],
    /// Bytes of the current block absorbed so far, always < RATE.
    pos: usize,
}

impl Sha3 {
    pub(crate) const fn new() -> Self {
        Sha3 { state: [0; 25], pos: 0 }
    }

    /// Absorbs `server_seed + ":" + client_seed + ":"` (see [`absorb_signature_prefix`]).
    #[inline(always)]
    pub(crate) fn update_signature_prefix(&mut self, server_seed: &str, client_seed: &str) {
        absorb_signature_prefix(&mut self.state, &mut self.pos, server_seed, client_seed);
    }

    #[inline(always)]
    pub(crate) fn update(&mut self, data: &[u8]) {
        absorb(&mut self.state, &mut self.pos, data);
    }

    /// The digest; the hasher is spent (its state is zeroized when it is dropped). By reference, not
    /// by value: a move of a value with `Drop` copies its 208 bytes (memcpy, measured per round).
    #[inline(always)]
    pub(crate) fn finish(&mut self) -> Digest {
        permute_last_block(&mut self.state, self.pos, SHA3_PAD);
        digest_of(&self.state)
    }
}

/// Absorbs `data` into the sponge `state` whose current block has `*pos` bytes (< RATE), permuting
/// each block as it fills.
#[inline(always)]
fn absorb(state: &mut [u64; 25], pos: &mut usize, mut data: &[u8]) {
    // A local position stays in a register; through the reference it would be reloaded after every
    // store to the state.
    let mut at = *pos;
    while !data.is_empty() {
        let (now, later) = data.split_at(data.len().min(RATE - at));
        xor_into_block(state, at, now);
        at += now.len();
        if at == RATE {
            keccak::f1600(state);
            at = 0;
        }
        data = later;
    }
    *pos = at;
}

/// Pads the block after `pos` absorbed bytes (`pos < RATE`, so the first padding byte always fits;
/// it and the last one may be the same byte).
#[inline(always)]
fn pad(state: &mut [u64; 25], pos: usize, domain: u64) {
    state[pos / 8] ^= domain << (8 * (pos % 8));
    state[RATE / 8 - 1] ^= LAST_PAD;
}

/// Pads the last block (`pos` bytes absorbed) for `domain` and permutes it.
#[inline(always)]
fn permute_last_block(state: &mut [u64; 25], pos: usize, domain: u64) {
    pad(state, pos, domain);
    keccak::f1600(state);
}

/// The SHA3-256 digest in a state after its last permutation: the first 32 bytes.
#[inline(always)]
fn digest_of(state: &[u64; 25]) -> Digest {
    let mut out = [0u8; 32];
    for (bytes, lane) in out.chunks_exact_mut(8).zip(state) {
        bytes.copy_from_slice(&lane.to_le_bytes());
    }
    Digest::from_bytes(out)
}

/// Four SHA3-256 computations absorbing inputs of equal lengths in step, so that their permutations
/// run side by side ([`fairmines_keccak::f1600_x4`]: four lanes in AVX2 registers where the machine
/// has them). Many rounds of one seed pair share everything up to the nonce, and four consecutive
/// nonces almost always have the same number of digits.
pub(crate) struct Sha3x4 {
    states: [[u64; 25]; 4],
    /// Bytes of the current block absorbed so far, the same in every lane, always < RATE.
    pos: usize,
}

impl Sha3x4 {
    /// Four copies of one computation in progress.
    pub(crate) fn from_one(one: &Sha3) -> Self {
        Sha3x4 { states: [one.state; 4], pos: one.pos }
    }

    /// Absorbs `data[i]` into lane `i`; the four have the same length.
    pub(crate) fn update(&mut self, mut data: [&[u8]; 4]) {
        debug_assert!(data.iter().all(|d| d.len() == data[0].len()));
        while !data[0].is_empty() {
            let take = data[0].len().min(RATE - self.pos);
            for (state, bytes) in self.states.iter_mut().zip(&mut data) {
                let (now, later) = bytes.split_at(take);
                xor_into_block(state, self.pos, now);
                *bytes = later;
            }
            self.pos += take;
            if self.pos == RATE {
                fairmines_keccak::f1600_x4(&mut self.states);
                self.pos = 0;
            }
        }
    }

    /// The four digests; the hashers are spent (zeroized when dropped).
    pub(crate) fn finish(&mut self) -> [Digest; 4] {
        for state in &mut self.states {
            pad(state, self.pos, SHA3_PAD);
        }
        fairmines_keccak::f1600_x4(&mut self.states);
        self.states.each_ref().map(digest_of)
    }
}

impl Drop for Sha3x4 {
    /// As for [`Sha3`]: the states hold the server seed.
    fn drop(&mut self) {
        self.states.zeroize();
    }
}

impl Drop for Sha3 {
    /// The state holds the server seed: as absorbed bytes before the last permutation, and recoverable
    /// after it (Keccak-f is a permutation, so the whole state can be run backwards).
    fn drop(&mut self) {
        self.state.zeroize();
    }
}

/// XORs `bytes` into the block at byte `pos`; they fit in it (`pos + bytes.len() <= RATE`).
#[inline(always)]
fn xor_into_block(state: &mut [u64; 25], pos: usize, bytes: &[u8]) {
    // Keccak reads a block as little-endian lanes: byte `pos` is byte `pos % 8` of lane `pos / 8`.
    // The bytes up to the next lane boundary first, then whole lanes (one XOR each, no shifts; the
    // input need not be aligned), then the rest.
    let head = ((8 - pos % 8) % 8).min(bytes.len());
    if head > 0 {
        state[pos / 8] ^= first_bytes(bytes, head) << (8 * (pos % 8));
    }
    let mut lane = (pos + head) / 8;
    let mut chunks = bytes[head..].chunks_exact(8);
    for chunk in &mut chunks {
        state[lane] ^= u64::from_le_bytes(chunk.try_into().unwrap_or_default());
        lane += 1;
    }
    let tail = chunks.remainder().len();
    if tail > 0 {
        state[lane] ^= last_bytes(bytes, tail);
    }
}

/// The first `n` (1..8) bytes of `bytes` as the low bytes of a little-endian lane: with eight bytes
/// there, one read and a mask instead of a byte at a time.
#[inline(always)]
fn first_bytes(bytes: &[u8], n: usize) -> u64 {
    match bytes.first_chunk::<8>() {
        Some(eight) => u64::from_le_bytes(*eight) & (u64::MAX >> (8 * (8 - n))),
        None => bytes_lane(&bytes[..n]),
    }
}

/// The last `n` (1..8) bytes of `bytes` as the low bytes of a little-endian lane (as [`first_bytes`]).
#[inline(always)]
fn last_bytes(bytes: &[u8], n: usize) -> u64 {
    match bytes.last_chunk::<8>() {
        Some(eight) => u64::from_le_bytes(*eight) >> (8 * (8 - n)),
        None => bytes_lane(&bytes[bytes.len() - n..]),
    }
}

/// Up to 8 bytes as the low bytes of a little-endian lane, a byte at a time.
#[inline(always)]
fn bytes_lane(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0, |lane, &byte| lane << 8 | u64::from(byte))
}

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
    let mut hasher = Sha3::new();
    hasher.update(server_seed.as_bytes());
    hasher.finish()
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
    let mut hasher = Sha3::new();
    hasher.update_signature_prefix(server_seed, client_seed);
    let mut digits = [0u8; 20];
    hasher.update(decimal(nonce, &mut digits));
    hasher.finish()
}

/// Absorbs `server_seed + ":" + client_seed + ":"`, the part of the signature every nonce shares,
/// into the sponge `state` whose block has `*pos` bytes.
#[inline(always)]
fn absorb_signature_prefix(state: &mut [u64; 25], pos: &mut usize, server_seed: &str, client_seed: &str) {
    absorb(state, pos, server_seed.as_bytes());
    absorb(state, pos, b":");
    absorb(state, pos, client_seed.as_bytes());
    absorb(state, pos, b":");
}

/// Writes `n` in decimal (as JavaScript's `${n}` does for safe integers) into the end of `buf`.
/// Always inlined: with several callers in a binding's library, LLVM kept it out of line.
#[inline(always)]
pub(crate) fn decimal(mut n: u64, buf: &mut [u8; 20]) -> &[u8] {
    // Two digits a step from a table: the nonce is formatted every round.
    let mut start = buf.len();
    while n >= 100 {
        start -= 2;
        buf[start..start + 2].copy_from_slice(&DIGIT_PAIRS[(n % 100) as usize]);
        n /= 100;
    }
    if n >= 10 {
        start -= 2;
        buf[start..start + 2].copy_from_slice(&DIGIT_PAIRS[n as usize]);
    } else {
        start -= 1;
        buf[start] = b'0' + n as u8;
    }
    &buf[start..]
}

/// `DIGIT_PAIRS[n]`: the two decimal digits of `n` < 100.
const DIGIT_PAIRS: [[u8; 2]; 100] = {
    let mut pairs = [[0u8; 2]; 100];
    let mut n = 0;
    while n < 100 {
        pairs[n] = [b'0' + (n / 10) as u8, b'0' + (n % 10) as u8];
        n += 1;
    }
    pairs
};

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
    /// The Keccak state; its first 17 lanes are the block being read.
    state: [u64; 25],
    /// The next word's position in the block, 0..=34 (34: the block is used up).
    next: usize,
}

impl WordStream {
    /// Starts the stream of the round whose signature is `signature`.
    pub fn new(signature: &Digest) -> Self {
        // As if a block were used up: the first read squeezes the first block, in place. (Returned
        // after its permutation, the 208-byte state was copied with `memcpy` on every round.)
        WordStream { state: shake_input(signature), next: WORDS_PER_BLOCK }
    }

    /// The stream of the round `server_seed:client_seed:nonce`, handed to `read`: the same stream as
    /// `WordStream::new(&round_signature(..))`, computed in one state. The signature is hashed in
    /// the stream's own state, which then becomes the stream's input where it lies (see
    /// [`WordStream::start`]): no digest is copied out and back in, and one state is cleared, not two.
    #[inline(always)]
    pub(crate) fn of_round<R>(
        server_seed: &str,
        client_seed: &str,
        nonce: u64,
        read: impl FnOnce(&mut Self) -> R,
    ) -> R {
        let mut stream = WordStream { state: [0; 25], next: WORDS_PER_BLOCK };
        let mut pos = 0;
        absorb_signature_prefix(&mut stream.state, &mut pos, server_seed, client_seed);
        stream.start(pos, nonce);
        read(&mut stream)
    }

    /// As [`WordStream::of_round`], from a hasher that has absorbed `server_seed:client_seed:`.
    #[inline(always)]
    pub(crate) fn after_prefix<R>(prefix: &Sha3, nonce: u64, read: impl FnOnce(&mut Self) -> R) -> R {
        let mut stream = WordStream { state: prefix.state, next: WORDS_PER_BLOCK };
        stream.start(prefix.pos, nonce);
        read(&mut stream)
    }

    /// Absorbs the nonce into the signature's sponge in `self.state` (`pos` bytes into its block) and
    /// finishes the signature, then replaces the state with the stream's input: the signature's hex
    /// and zeros. That overwrite is what clears what the server seed left in the state.
    #[inline(always)]
    fn start(&mut self, mut pos: usize, nonce: u64) {
        let state = &mut self.state;
        let mut digits = [0u8; 20];
        absorb(state, &mut pos, decimal(nonce, &mut digits));
        permute_last_block(state, pos, SHA3_PAD);
        let signature = [state[0], state[1], state[2], state[3]];
        set_shake_input(state, hex_lanes(signature));
    }

    /// The streams of four rounds, their first permutations run side by side.
    pub(crate) fn new_x4(signatures: &[Digest; 4]) -> [Self; 4] {
        let mut states = signatures.each_ref().map(shake_input);
        fairmines_keccak::f1600_x4(&mut states);
        states.map(|state| WordStream { state, next: 0 })
    }

    /// The Keccak state and the read position, for [`read_word`].
    pub(crate) fn parts_mut(&mut self) -> (&mut [u64; 25], &mut usize) {
        (&mut self.state, &mut self.next)
    }

    /// The current block (in the first 17 lanes) if no word of it has been read yet, squeezing the
    /// next block first if this one is used up (as it is in a new stream).
    pub(crate) fn unread_block(&mut self) -> Option<&[u64; 25]> {
        squeeze_if_used_up(&mut self.state, &mut self.next);
        (self.next == 0).then_some(&self.state)
    }
}

/// The SHAKE256 state of a round before its first permutation (see [`set_shake_input`]).
#[inline(always)]
fn shake_input(signature: &Digest) -> [u64; 25] {
    let mut state = [0u64; 25];
    set_shake_input(&mut state, signature.hex_lanes());
    state
}

/// Makes `state` the SHAKE256 input of a round: the signature's 64 hex characters (as [`hex_lanes`]
/// gives them) fill lanes 0..8 of the only block (no byte buffer is needed), then zeros and the padding.
#[inline(always)]
fn set_shake_input(state: &mut [u64; 25], hex: [u64; 8]) {
    state.fill(0);
    state[..8].copy_from_slice(&hex);
    pad(state, 64, SHAKE_PAD);
}

/// Reads word `*next` of the stream whose current block is in `state`, squeezing a new block when
/// this one is used up. A free function over two places rather than a method: when the position is a
/// local of its own, it stays in a register while the state's address goes to the permutation.
#[inline(always)]
pub(crate) fn read_word(state: &mut [u64; 25], next: &mut usize) -> u32 {
    squeeze_if_used_up(state, next);
    let word = block_word(state, *next);
    *next += 1;
    word
}

/// Squeezes the next block into `state` when the current one is used up (`*next` is 34).
#[inline(always)]
fn squeeze_if_used_up(state: &mut [u64; 25], next: &mut usize) {
    if *next == WORDS_PER_BLOCK {
        keccak::f1600(state);
        *next = 0;
    }
}

/// Word `k` (0..34) of the block in the first 17 lanes of `state`.
#[inline(always)]
pub(crate) fn block_word(state: &[u64; 25], k: usize) -> u32 {
    // Word k is bytes 4k..4k+4 of the block: half of lane k / 2 (little-endian), read big-endian.
    let half = (state[k / 2] >> (32 * (k % 2))) as u32;
    half.swap_bytes()
}

impl Iterator for WordStream {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        Some(read_word(&mut self.state, &mut self.next))
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

    /// The stream hashed in place is the stream of the signature, whatever the length of the input
    /// (around the block boundary of `server:client:nonce`) and from a shared prefix too.
    #[test]
    fn round_stream_in_place_matches_stream_of_signature() {
        let server = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
        // Under Miri (slow at Keccak), one seed pair on each side of the block boundary.
        let client_lens: Vec<usize> = if cfg!(miri) { vec![0, 80] } else { (0..=150).chain([200, 300]).collect() };
        let nonces: &[u64] = if cfg!(miri) { &[9007199254740991] } else { &[0, 7, 12345, 9007199254740991] };
        let words = if cfg!(miri) { 40 } else { 80 }; // two blocks, or three
        for client_len in client_lens {
            let client = "c".repeat(client_len);
            let mut prefix = Sha3::new();
            prefix.update_signature_prefix(server, &client);
            for &nonce in nonces {
                let expected: Vec<u32> =
                    WordStream::new(&round_signature(server, &client, nonce)).take(words).collect();
                let in_place: Vec<u32> = WordStream::of_round(server, &client, nonce, |w| w.take(words).collect());
                let after_prefix: Vec<u32> = WordStream::after_prefix(&prefix, nonce, |w| w.take(words).collect());
                assert_eq!(in_place, expected, "client seed of {client_len} bytes, nonce {nonce}");
                assert_eq!(after_prefix, expected, "client seed of {client_len} bytes, nonce {nonce}");
            }
        }
    }

    #[test]
    fn decimal_matches_std_formatting() {
        for n in (0..=if cfg!(miri) { 1_000 } else { 100_000 }).chain([4294967296, 9007199254740991, u64::MAX]) {
            let mut buf = [0u8; 20];
            assert_eq!(decimal(n, &mut buf), n.to_string().as_bytes());
        }
    }
}
