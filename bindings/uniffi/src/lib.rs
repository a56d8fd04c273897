//! Kotlin, Swift and Ruby bindings of [`fairmines`] through UniFFI proc-macros (no UDL).
//!
//! This crate converts types and errors and nothing else: every rule, result and message comes from the core
//! crate. The foreign code is generated from the built library by `bindings/uniffi/generate.sh` (the pinned
//! `uniffi-bindgen`) into the build folder, never committed; `scripts/test-uniffi.sh` tests it.
//!
//! Conventions of the foreign API:
//! - mine counts, tiles and safe picks are `i32` (Kotlin `Int`, Swift `Int32`, Ruby `Integer`), so that 0, 25
//!   and negative numbers reach the core's rules and come back as `InvalidMines`/`InvalidTile`/`InvalidPicks`;
//! - nonces (and other unsigned numbers) are [`U64`] and [`U32`]: Swift `UInt64`/`UInt32`, Ruby `Integer`, and in
//!   Kotlin `Long`/`Int` (set in `uniffi.toml`), so that Java calls every function by its own name (Kotlin
//!   gives functions that take `ULong`/`UInt` mangled JVM names such as `round-VKZWuLQ`); a nonce above
//!   2^63 - 1 is a negative `Long`, Java's convention for unsigned 64-bit values (`java.lang.Long.toUnsignedString`,
//!   `parseUnsignedLong`);
//! - digests (commitments, signatures) are 64 lowercase hex characters;
//! - every error is a [`FairminesError`] (Kotlin `FairminesException`), see [`error`];
//! - the game (`SeedPair`, `Round`, records, payouts) is in [`game`]: objects hold their core value behind a
//!   mutex, exact ratios are records of decimal strings.

use std::fmt;
use std::sync::Arc;

use fairmines::{MineCount, Number, Published};

uniffi::setup_scaffolding!("fairmines");

pub mod error;
pub mod game;
pub use error::FairminesError;
pub use game::{
    Outcome, PublicSeedPair, Ratio, Reveal, RevealedSeedPair, Round, RoundRecord, RoundVerification, SeedPair,
    TableEntry, max_safe_picks, multiplier, payout_table, public_seed_pair_from_json, ratio_to_decimal,
    revealed_seed_pair_from_json, round_record_from_json, verify_round,
};

type Result<T, E = FairminesError> = std::result::Result<T, E>;

/// An unsigned 64-bit number (a nonce, a count of rounds): Swift `UInt64`, Ruby `Integer`, Kotlin and Java `Long`
/// (bit for bit: above 2^63 - 1 the `Long` is negative, as Java's `Long.toUnsignedString` reads it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct U64(pub u64);
uniffi::custom_newtype!(U64, u64);

/// An unsigned 32-bit number (an error code, a count of words): Swift `UInt32`, Ruby `Integer`, Kotlin and Java
/// `Int` (every value this crate gives is below 2^31).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct U32(pub u32);
uniffi::custom_newtype!(U32, u32);

fn tiles(tiles: &[u8]) -> Vec<i32> {
    tiles.iter().map(|&t| i32::from(t)).collect()
}

/// The mine positions of a round: sorted, 1-based (1 = top-left, 5 = top-right, 25 = bottom-right).
///
/// Fails with `InvalidMines` when `mines` is outside 1..=24.
#[uniffi::export]
pub fn mine_positions(server_seed: &str, client_seed: &str, nonce: U64, mines: i32) -> Result<Vec<i32>> {
    let mines = MineCount::try_from(mines)?;
    Ok(tiles(&fairmines::placement(server_seed, client_seed, nonce.0, mines).positions()))
}

/// The tile indices of a round in the order they were drawn: 0-based, unsorted.
///
/// Fails with `InvalidMines` when `mines` is outside 1..=24.
#[uniffi::export]
pub fn draw_order(server_seed: &str, client_seed: &str, nonce: U64, mines: i32) -> Result<Vec<i32>> {
    let mines = MineCount::try_from(mines)?;
    Ok(tiles(&fairmines::placement(server_seed, client_seed, nonce.0, mines).draw_order()))
}

/// The round signature: lowercase hex of SHA3-256(`serverSeed:clientSeed:nonce`).
#[uniffi::export]
pub fn round_signature(server_seed: &str, client_seed: &str, nonce: U64) -> String {
    fairmines::round_signature(server_seed, client_seed, nonce.0).to_string()
}

/// The commitment to a server seed, shown before play: lowercase hex of SHA3-256(seed text).
#[uniffi::export]
pub fn commitment(server_seed: &str) -> String {
    fairmines::commitment(server_seed).to_string()
}

/// What a verification concluded (the core's `Verdict`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Verdict {
    /// At least one check was asked for, and every one holds.
    Ok,
    /// A check that was asked for fails.
    Mismatch,
    /// No check was asked for (neither a commitment nor positions): the round was only recomputed.
    Unchecked,
}

impl From<fairmines::Verdict> for Verdict {
    fn from(verdict: fairmines::Verdict) -> Self {
        match verdict {
            fairmines::Verdict::Ok => Verdict::Ok,
            fairmines::Verdict::Mismatch => Verdict::Mismatch,
            fairmines::Verdict::Unchecked => Verdict::Unchecked,
        }
    }
}

/// The verdict on a finished round: everything recomputed from the seeds, and each requested check.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Verification {
    /// SHA3-256 of the revealed server seed (lowercase hex).
    pub commitment: String,
    /// The recomputed round signature (lowercase hex).
    pub signature: String,
    /// The recomputed mine positions: sorted, 1-based.
    pub positions: Vec<i32>,
    /// The recomputed draw order: 0-based, unsorted.
    pub draw_order: Vec<i32>,
    /// Words of the SHAKE256 stream read: the mine count plus the rejected draws.
    pub words_used: U32,
    /// Whether the declared commitment matches; `null`/`nil` when none was given.
    pub commitment_ok: Option<bool>,
    /// Whether the declared positions match; `null`/`nil` when none were given.
    pub positions_ok: Option<bool>,
    /// `Ok` when at least one check was asked for and every one holds, `Mismatch` when one fails,
    /// `Unchecked` when none was asked for.
    pub verdict: Verdict,
    /// True only when `verdict` is `Ok`: a verification with nothing to check is not ok.
    pub ok: bool,
}

/// Recomputes a finished round from its seeds and checks it against what the operator published.
///
/// The arguments are in the order of every binding's `verify`: server seed, client seed, nonce, mines,
/// commitment, positions. `commitment` (64 hex characters, either case) and `positions` (1-based, any order)
/// are optional: a check is made only for what is given, and with neither the verdict is `Unchecked` (not
/// ok). Fails with `InvalidMines`, `InvalidHex` (argument `commitment`) or `InvalidTile` (argument
/// `positions`) on malformed input; a mismatch is not an error but a `false` check.
#[uniffi::export(default(commitment = None, positions = None))]
pub fn verify(
    server_seed: &str,
    client_seed: &str,
    nonce: U64,
    mines: i32,
    commitment: Option<String>,
    positions: Option<Vec<i32>>,
) -> Result<Verification> {
    let positions: Option<Vec<Number>> = positions.map(|p| p.into_iter().map(Number::from).collect());
    let published =
        Published::parse(server_seed, client_seed, nonce.0, mines, commitment.as_deref(), positions.as_deref())?;
    let verdict = fairmines::verify(&published);
    Ok(Verification {
        commitment: verdict.commitment.to_string(),
        signature: verdict.signature.to_string(),
        positions: tiles(&verdict.placement.positions()),
        draw_order: tiles(&verdict.placement.draw_order()),
        words_used: U32(verdict.placement.words_used()),
        commitment_ok: verdict.commitment_ok(),
        positions_ok: verdict.positions_ok(),
        verdict: verdict.verdict().into(),
        ok: verdict.is_ok(),
    })
}

/// A fresh server seed: 32 bytes from the OS CSPRNG written as 64 lowercase hex characters.
///
/// Its string forms (`toString`, `description`, `to_s`, `inspect`) show the commitment only;
/// the seed itself is reached only through `reveal()`. The Rust side wipes it when the object is freed.
#[derive(uniffi::Object)]
#[uniffi::export(Debug, Display)]
pub struct ServerSeed(fairmines::ServerSeed);

#[uniffi::export]
impl ServerSeed {
    /// The seed's text. Publish it only once its seed pair has been rotated out.
    pub fn reveal(&self) -> String {
        self.0.reveal().to_owned()
    }

    /// The commitment to publish before play: SHA3-256 of the seed's text (lowercase hex).
    pub fn commitment(&self) -> String {
        self.0.commitment().to_string()
    }
}

impl fmt::Debug for ServerSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl fmt::Display for ServerSeed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ServerSeed(commitment={}, seed=<hidden>)", self.0.commitment())
    }
}

/// A new server seed from the operating system's cryptographically secure generator.
///
/// Fails with `RngFailed` only if the OS generator fails.
#[uniffi::export]
pub fn generate_server_seed() -> Result<Arc<ServerSeed>> {
    Ok(Arc::new(ServerSeed(fairmines::ServerSeed::generate()?)))
}
