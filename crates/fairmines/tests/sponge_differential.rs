//! The core's own SHA3-256 / SHAKE256 sponge (src/hashing.rs, over `keccak::f1600`) against the `sha3`
//! crate: every input length around the 136-byte block boundaries, inputs fed in arbitrary pieces
//! (the sponge has a fast path for 8-byte-aligned data and one for the rest), and the SHAKE256 stream
//! read across several blocks.

use fairmines::{Digest, RoundHasher, WordStream, commitment, round_signature};
use proptest::prelude::*;
use sha3::digest::{ExtendableOutput, Update, XofReader};
use sha3::{Digest as _, Sha3_256, Shake256};

fn sha3_256(data: &[u8]) -> [u8; 32] {
    Sha3_256::digest(data).into()
}

/// A string of `len` bytes: ASCII when `ascii`, otherwise with 2-, 3- and 4-byte characters mixed in
/// (the length is then exact too: ASCII fills up whatever a multi-byte character would overrun).
fn text(len: usize, seed: u64, ascii: bool) -> String {
    let pieces = ["a", "Z", ":", "0", "é", "€", "😀", "ü"];
    let mut out = String::new();
    let mut state = seed;
    while out.len() < len {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let piece = pieces[(state >> 59) as usize % if ascii { 4 } else { pieces.len() }];
        if out.len() + piece.len() <= len {
            out.push_str(piece);
        } else {
            out.push('x');
        }
    }
    out
}

/// Lengths 0..=300 and the multiples of the block size and their neighbours up to four blocks.
fn lengths() -> impl Iterator<Item = usize> {
    (0..=300).chain((2..=4).flat_map(|k| [136 * k - 1, 136 * k, 136 * k + 1]))
}

#[test]
fn commitment_is_sha3_256_for_every_length_around_the_block_boundaries() {
    for len in lengths() {
        for (seed, ascii) in [(1, true), (2, false)] {
            let input = text(len, seed ^ len as u64, ascii);
            assert_eq!(input.len(), len);
            assert_eq!(commitment(&input).as_bytes(), &sha3_256(input.as_bytes()), "length {len}");
        }
    }
}

#[test]
fn signatures_are_sha3_256_of_server_client_nonce_for_every_split_of_the_lengths() {
    // Every server length with a few client lengths puts every piece boundary at every offset
    // within a lane and within a block.
    for server_len in 0..=300 {
        for client_len in [0, 1, 7, 8, 9, 63, 64, 65, 135, 136, 137] {
            let server = text(server_len, server_len as u64, server_len % 2 == 0);
            let client = text(client_len, client_len as u64 + 7, true);
            for nonce in [0u64, 7, 12345678, u64::MAX] {
                let message = format!("{server}:{client}:{nonce}");
                let expected = sha3_256(message.as_bytes());
                assert_eq!(round_signature(&server, &client, nonce).as_bytes(), &expected, "{message:?}");
                assert_eq!(RoundHasher::new(&server, &client).signature(nonce).as_bytes(), &expected, "{message:?}");
            }
        }
    }
}

/// The first `words` words of SHAKE256 over the signature's hex text, from the `sha3` crate.
fn shake_words(signature: &Digest, words: usize) -> Vec<u32> {
    let mut shake = Shake256::default();
    shake.update(signature.to_hex().as_bytes());
    let mut reader = shake.finalize_xof();
    let mut bytes = vec![0u8; 4 * words];
    reader.read(&mut bytes);
    bytes.chunks_exact(4).map(|w| u32::from_be_bytes([w[0], w[1], w[2], w[3]])).collect()
}

#[test]
fn the_word_stream_is_shake256_across_several_blocks() {
    // 34 words per block: 200 words cross five block boundaries.
    for seed in 0..64u64 {
        let signature = round_signature("server", "client", seed);
        let streamed: Vec<u32> = WordStream::new(&signature).take(200).collect();
        assert_eq!(streamed, shake_words(&signature, 200), "nonce {seed}");
    }
}

#[test]
fn hex_text_matches_std_formatting() {
    for seed in 0..256u64 {
        let digest = round_signature("hex", "", seed);
        let expected: String = digest.as_bytes().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(digest.to_hex().as_str(), expected);
        assert_eq!(digest.to_string(), expected);
    }
    let all_nibbles = Digest::from_bytes(core::array::from_fn(|i| (i as u8).wrapping_mul(0x11) ^ 0x0f));
    let expected: String = all_nibbles.as_bytes().iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(all_nibbles.to_hex().as_str(), expected);
    // Every byte value at every one of the 32 positions.
    for first in 0..=255u8 {
        let digest = Digest::from_bytes(core::array::from_fn(|i| first.wrapping_add(i as u8)));
        let expected: String = digest.as_bytes().iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(digest.to_hex().as_str(), expected);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn commitment_of_arbitrary_bytes_is_sha3_256(input in proptest::collection::vec(any::<u8>(), 0..700)) {
        // The core hashes `&str`; arbitrary bytes go through the lossless UTF-8 subset by mapping
        // each byte to a one- or two-byte character, which exercises odd piece lengths as well.
        let input: String = input.iter().map(|&b| char::from(b)).collect();
        prop_assert_eq!(*commitment(&input).as_bytes(), sha3_256(input.as_bytes()));
    }

    #[test]
    fn signature_of_arbitrary_text_is_sha3_256(
        server in ".{0,300}", client in ".{0,300}", nonce in any::<u64>(),
    ) {
        let expected = sha3_256(format!("{server}:{client}:{nonce}").as_bytes());
        prop_assert_eq!(*round_signature(&server, &client, nonce).as_bytes(), expected);
        prop_assert_eq!(*RoundHasher::new(&server, &client).signature(nonce).as_bytes(), expected);
    }

    #[test]
    fn the_word_stream_of_any_signature_is_shake256(signature in any::<[u8; 32]>(), words in 0usize..150) {
        let signature = Digest::from_bytes(signature);
        let streamed: Vec<u32> = WordStream::new(&signature).take(words).collect();
        prop_assert_eq!(streamed, shake_words(&signature, words));
    }
}
