//! The algorithm written the obvious way, as the operator's verifier does it, for differential fuzzing.
//!
//! - commitment = hex(SHA3-256(server seed));
//! - signature = hex(SHA3-256(server + ":" + client + ":" + decimal(nonce)));
//! - words: SHAKE256(signature hex text), 48 big-endian u32 words pre-drawn like the reference
//!   verifier; where a placement needs more (never seen in practice), the XOF is squeezed further;
//! - placement: `available = [0..25)`, for each mine reject words >= floor(2^32 / P) * P, take
//!   `available.remove(w % P)`; positions = sorted draw order + 1.

use sha3::digest::{ExtendableOutput, Update, XofReader};
use sha3::{Digest as _, Sha3_256, Shake256};

/// Words the reference verifier pre-draws.
pub const PRE_DRAWN: usize = 48;

/// Lowercase hex of bytes.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA3-256 of `data`.
pub fn sha3_256(data: &[u8]) -> [u8; 32] {
    let mut h = Sha3_256::new();
    sha3::Digest::update(&mut h, data);
    h.finalize().into()
}

/// The commitment of a server seed, as lowercase hex.
pub fn commitment(server_seed: &str) -> String {
    hex(&sha3_256(server_seed.as_bytes()))
}

/// The round signature, as lowercase hex.
pub fn signature(server_seed: &str, client_seed: &str, nonce: u64) -> String {
    let message = format!("{server_seed}:{client_seed}:{nonce}");
    hex(&sha3_256(message.as_bytes()))
}

/// The word stream of a signature: the 48 pre-drawn words, then as many more as are asked for.
pub struct Words {
    pre_drawn: Vec<u32>,
    more: sha3::Shake256Reader,
    next: usize,
}

impl Words {
    /// The stream of the round whose signature hex text is `signature_hex`.
    pub fn new(signature_hex: &str) -> Self {
        let mut shake = Shake256::default();
        shake.update(signature_hex.as_bytes());
        let mut reader = shake.finalize_xof();
        let mut bytes = [0u8; PRE_DRAWN * 4];
        reader.read(&mut bytes);
        let pre_drawn = bytes.chunks_exact(4).map(|w| u32::from_be_bytes([w[0], w[1], w[2], w[3]])).collect();
        Words { pre_drawn, more: reader, next: 0 }
    }
}

impl Iterator for Words {
    type Item = u32;
    fn next(&mut self) -> Option<u32> {
        let word = if self.next < PRE_DRAWN {
            self.pre_drawn[self.next]
        } else {
            // The reference throws here; an XOF goes on with the same bytes it would have given.
            let mut w = [0u8; 4];
            self.more.read(&mut w);
            u32::from_be_bytes(w)
        };
        self.next += 1;
        Some(word)
    }
}

/// The first `n` words of a signature's stream from one squeeze of `4 n` bytes.
pub fn words_one_shot(signature_hex: &str, n: usize) -> Vec<u32> {
    let mut shake = Shake256::default();
    shake.update(signature_hex.as_bytes());
    let bytes = shake.finalize_boxed(4 * n);
    bytes.chunks_exact(4).map(|w| u32::from_be_bytes([w[0], w[1], w[2], w[3]])).collect()
}

/// A rejected draw: (mine index, tiles available, word index, word).
pub type Rejected = (u8, u8, u32, u32);

/// Where the mines of a round lie.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// 0-based tile indices in the order drawn.
    pub draw_order: Vec<u8>,
    /// Sorted, 1-based.
    pub positions: Vec<u8>,
    /// Words read (accepted and rejected).
    pub words_used: u32,
    /// Every rejected draw.
    pub rejected: Vec<Rejected>,
}

/// Places `mines` mines (1..=24) with `words`; `None` if `words` runs out first.
pub fn place(words: impl IntoIterator<Item = u32>, mines: usize) -> Option<Placement> {
    assert!((1..=24).contains(&mines));
    let mut words = words.into_iter();
    let mut available: Vec<u8> = (0..25).collect();
    let mut draw_order = Vec::new();
    let mut rejected = Vec::new();
    let mut used: u32 = 0;
    for draw in 0..mines {
        let p = available.len() as u64;
        let limit = (1u64 << 32) / p * p;
        loop {
            let w = words.next()?;
            used += 1;
            if u64::from(w) < limit {
                let tile = available.remove((u64::from(w) % p) as usize);
                draw_order.push(tile);
                break;
            }
            rejected.push((draw as u8, p as u8, used - 1, w));
        }
    }
    let mut positions: Vec<u8> = draw_order.iter().map(|t| t + 1).collect();
    positions.sort();
    Some(Placement { draw_order, positions, words_used: used, rejected })
}

/// The placement of a round.
pub fn placement(server_seed: &str, client_seed: &str, nonce: u64, mines: usize) -> Placement {
    let sig = signature(server_seed, client_seed, nonce);
    place(Words::new(&sig), mines).expect("an unbounded stream never runs out")
}

/// gcd for the exact multiplier.
fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The exact multiplier after `k` safe picks with `m` mines and RTP `rtp_num / rtp_den`, in lowest
/// terms: the product of (25 - i) / (25 - m - i) for i < k, times the RTP. `None` when `k` is not in
/// 1..=25 - m or the numbers do not fit in u128.
pub fn multiplier(m: u8, k: u8, rtp_num: u128, rtp_den: u128) -> Option<(u128, u128)> {
    if !(1..=24).contains(&m) || k == 0 || k > 25 - m {
        return None;
    }
    let (mut num, mut den) = (1u128, 1u128);
    for i in 0..u128::from(k) {
        num *= 25 - i;
        den *= 25 - u128::from(m) - i;
        let g = gcd(num, den);
        num /= g;
        den /= g;
    }
    let g1 = gcd(num, rtp_den).max(1);
    let g2 = gcd(rtp_num, den).max(1);
    let num = (num / g1).checked_mul(rtp_num / g2)?;
    let den = (den / g2).checked_mul(rtp_den / g1)?;
    let g = gcd(num, den).max(1);
    Some((num / g, den / g))
}
