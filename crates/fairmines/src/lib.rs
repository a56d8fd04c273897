//! # fairmines
//!
//! The provably fair *Mines* algorithm of the Cloudbet casino, reproduced exactly from the operator's
//! published verifier, for players, operators and auditors who need to know that a round was not
//! tampered with.
//!
//! A round is fixed by a server seed (secret until the seed pair rotates; its SHA3-256 *commitment* is
//! shown before play), the player's client seed and a nonce:
//!
//! 1. [`commitment`] = SHA3-256(server seed text);
//! 2. [`round_signature`] = SHA3-256(`server:client:nonce`);
//! 3. [`WordStream`]: SHAKE256 over the signature's 64 hex characters, read as big-endian `u32`s;
//! 4. [`place_mines`]: partial Fisher–Yates with rejection sampling over the 25 tiles;
//! 5. [`verify`]: all of the above against what the operator published.
//!
//! On top of it, the game as an operator runs it ([`SeedPair`], [`Round`], [`verify_round`]) and exact
//! payouts ([`multiplier`], [`payout_table`]) with the return-to-player factor as a parameter.
//!
//! ```
//! let positions = fairmines::mine_positions(
//!     "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a",
//!     "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817",
//!     1,
//!     3,
//! )?;
//! assert_eq!(&*positions, &[7, 10, 19]);
//! # Ok::<(), fairmines::Error>(())
//! ```
//!
//! The crate does no I/O, allocates nothing on the placement path and panics on no input.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod batch;
mod digest;
mod error;
mod game;
mod hashing;
pub mod input;
mod payout;
mod placement;
mod seed;
mod state;
mod verify;
mod wager;

pub use batch::{BatchEnd, BatchOptions, Nonces, RoundHasher, mine_positions_batch, mine_positions_batch_with};
pub use digest::{Digest, Hex};
pub use error::{Error, ErrorKind};
pub use game::{
    Exact, Outcome, PlayCheck, PublicSeedPair, RecordInput, Reveal, RevealedSeedPair, Round, RoundRecord,
    RoundVerification, SeedPair, verify_play, verify_round,
};
pub use hashing::{WordStream, commitment, round_signature};
pub use input::Number;
pub use payout::{Places, Ratio, Rtp, TableEntry, max_safe_picks, multiplier, payout_table};
pub use placement::{MineCount, Placement, Rejection, TILES, Tiles, place_mines, place_mines_observed};
pub use seed::ServerSeed;
pub use verify::{Check, Doubt, Published, Verdict, Verification, verify};
pub use wager::{MAX_AMOUNT, amount, check_stake, payout};

/// The Rust example of the repository's README.md, run as a doctest (every other block of that README is run
/// by scripts/readme_examples.py).
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExamples;

/// The examples of this crate's own README.md (its page on crates.io), run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadmeExamples;

/// The Keccak-f[1600] implementation that runs four rounds in step in batches on this machine:
/// `"avx2"` or `"scalar"` (chosen at run time, see the `fairmines-keccak` crate).
pub fn keccak_backend() -> &'static str {
    fairmines_keccak::backend()
}

/// The placement of the round with this signature.
pub fn placement_for_signature(signature: &Digest, mines: MineCount) -> Placement {
    placement::place_from_stream(&mut WordStream::new(signature), mines)
}

/// The placement of a round: signature, word stream and sampling in one call.
pub fn placement(server_seed: &str, client_seed: &str, nonce: u64, mines: MineCount) -> Placement {
    WordStream::of_round(server_seed, client_seed, nonce, |words| placement::place_from_stream(words, mines))
}

/// The mine positions of a round: sorted, 1-based (1 = top-left, 25 = bottom-right).
///
/// Fails only when `mines` is outside 1..=24.
pub fn mine_positions(server_seed: &str, client_seed: &str, nonce: u64, mines: u32) -> Result<Tiles, Error> {
    Ok(placement(server_seed, client_seed, nonce, MineCount::new(mines)?).positions())
}

/// The tile indices of a round in the order they were drawn: 0-based, unsorted.
///
/// ```
/// let order = fairmines::draw_order(
///     "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a",
///     "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817",
///     1,
///     3,
/// )?;
/// assert_eq!(&*order, &[9, 6, 18]);
/// # Ok::<(), fairmines::Error>(())
/// ```
pub fn draw_order(server_seed: &str, client_seed: &str, nonce: u64, mines: u32) -> Result<Tiles, Error> {
    Ok(placement(server_seed, client_seed, nonce, MineCount::new(mines)?).draw_order())
}
