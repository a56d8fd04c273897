//! Kotlin, Swift and Ruby bindings of [`fairmines`] through UniFFI proc-macros (no UDL).
//!
//! This crate converts types and errors and nothing else: every result comes from the core crate.
//! The generated foreign code lives in `generated/` (see `scripts/test-uniffi.sh`, which builds this
//! library, runs the pinned `uniffi-bindgen` on it and fails if the checked-in sources drifted).
//!
//! Conventions of the foreign API:
//! - mine counts and tiles are `i32` (Kotlin `Int`, Swift `Int32`, Ruby `Integer`), so that 0, 25 and
//!   negative numbers reach the core's range check and come back as `InvalidMines`/`InvalidTile`;
//! - nonces are `u64` (Kotlin `ULong`, Swift `UInt64`);
//! - digests (commitments, signatures) are 64 lowercase hex characters;
//! - every error is a [`FairminesError`] (Kotlin `FairminesException`) with the core's stable `code`,
//!   `name`, `argument` and message (which starts with the name of the argument at fault; the field is
//!   `reason` in Kotlin, see `uniffi.toml`). UniFFI catches Rust panics at the boundary (the core has none),
//!   and the workspace never sets `panic = "abort"`, which would turn that into a crash;
//! - the game (`SeedPair`, `Round`, records, payouts) is in [`game`]: objects hold their core value behind a
//!   mutex, exact ratios are records of decimal strings.

use std::fmt;
use std::sync::Arc;

use fairmines::{Error, MineCount, Published};

uniffi::setup_scaffolding!("fairmines");

pub mod game;
pub use game::{
    Outcome, PublicSeedPair, Ratio, Reveal, RevealedSeedPair, Round, RoundRecord, RoundVerification, SeedPair,
    TableEntry, max_safe_picks, multiplier, payout_table, public_seed_pair_from_json, ratio_to_decimal,
    revealed_seed_pair_from_json, round_record_from_json, verify_round,
};

/// Defines [`FairminesError`]: one variant per error of the core, and `Other`, each with the same four fields.
macro_rules! fairmines_error {
    ($($(#[doc = $doc:literal])* $variant:ident,)*) => {
        /// Everything that can go wrong: one variant per error of the core (same names, in the order of its
        /// stable codes 1..=17), plus `Other` for a variant a newer core may add. Every variant carries the
        /// core's `code`, `name` and `argument` and its message, which starts with the argument at fault.
        #[derive(Debug, Clone, PartialEq, Eq, uniffi::Error)]
        pub enum FairminesError {
            $(
                $(#[doc = $doc])*
                $variant {
                    /// The core's stable numeric code (1..=17), the same in every binding.
                    code: u32,
                    /// The core's stable name in SCREAMING_SNAKE_CASE, e.g. `INVALID_MINES`.
                    name: String,
                    /// The argument at fault (`mines`, `tile`, `rtp`, …); null/nil when there is none.
                    argument: Option<String>,
                    /// The core's message, which starts with the argument at fault when there is one.
                    message: String,
                },
            )*
            /// An error of a newer core that this binding does not know by name yet (code and name are the core's).
            Other {
                /// The core's stable numeric code.
                code: u32,
                /// The core's stable name in SCREAMING_SNAKE_CASE.
                name: String,
                /// The argument at fault; null/nil when there is none.
                argument: Option<String>,
                /// The core's message.
                message: String,
            },
        }

        impl FairminesError {
            /// The core's stable code, name, argument and message, whatever the variant.
            pub fn parts(&self) -> (u32, &str, Option<&str>, &str) {
                match self {
                    $(FairminesError::$variant { code, name, argument, message })|*
                    | FairminesError::Other { code, name, argument, message } => {
                        (*code, name, argument.as_deref(), message)
                    }
                }
            }
        }

        impl From<Error> for FairminesError {
            fn from(error: Error) -> Self {
                let code = error.code();
                let name = error.name().to_owned();
                let argument = error.argument().map(str::to_owned);
                let message = error.to_string();
                match error {
                    $(Error::$variant { .. } => FairminesError::$variant { code, name, argument, message },)*
                    _ => FairminesError::Other { code, name, argument, message },
                }
            }
        }
    };
}

fairmines_error! {
    /// The mine count is outside 1..=24 (code 1, argument `mines`).
    InvalidMines,
    /// A nonce that is not an integer in 0..2^64 (code 2, argument `nonce`).
    InvalidNonce,
    /// A tile number outside 1..=25, or a list of tiles that cannot be a board (code 3, e.g. `tile`, `positions`).
    InvalidTile,
    /// A digest or server seed that is not 64 hexadecimal characters (code 4, e.g. `commitment`, `server_seed`).
    InvalidHex,
    /// A string that is not valid UTF-8 (code 5).
    InvalidUtf8,
    /// A finite word source ran out before every mine was placed (code 6).
    StreamExhausted,
    /// The operating system's random number generator failed (code 7).
    Rng,
    /// An output buffer of the wrong size (code 8).
    BufferSize,
    /// A tile of the round was revealed before (code 9, argument `tile`).
    TileAlreadyRevealed,
    /// A reveal or cash-out on a round that has ended (code 10).
    RoundFinished,
    /// A cash-out before any safe pick (code 11).
    NothingToCashOut,
    /// A return-to-player factor that is not a fraction in (0, 1] (code 12, argument `rtp`).
    InvalidRtp,
    /// A number of safe picks the round cannot have (code 13, argument `safe_picks`).
    InvalidPicks,
    /// A number that does not parse (code 14, e.g. `numerator`).
    InvalidNumber,
    /// Saved state or a record that does not parse or does not hold together, or has a field it should not
    /// (code 15, e.g. `state`, `record`).
    InvalidState,
    /// `rotate`/`setClientSeed` while a round of the seed pair is in play: finish the rounds or
    /// `voidOpenRounds()` first (code 16; the message lists their nonces, `openRounds()` returns them).
    RoundsInPlay,
    /// A reveal or cash-out on a round its seed pair voided (code 17).
    RoundVoided,
}

impl fmt::Display for FairminesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.parts().3)
    }
}

impl std::error::Error for FairminesError {}

type Result<T, E = FairminesError> = std::result::Result<T, E>;

fn tiles(tiles: &[u8]) -> Vec<i32> {
    tiles.iter().map(|&t| i32::from(t)).collect()
}

/// The mine positions of a round: sorted, 1-based (1 = top-left, 5 = top-right, 25 = bottom-right).
///
/// Fails with `InvalidMines` when `mines` is outside 1..=24.
#[uniffi::export]
pub fn mine_positions(server_seed: &str, client_seed: &str, nonce: u64, mines: i32) -> Result<Vec<i32>> {
    let mines = MineCount::try_from(mines)?;
    Ok(tiles(&fairmines::placement(server_seed, client_seed, nonce, mines).positions()))
}

/// The tile indices of a round in the order they were drawn: 0-based, unsorted.
///
/// Fails with `InvalidMines` when `mines` is outside 1..=24.
#[uniffi::export]
pub fn draw_order(server_seed: &str, client_seed: &str, nonce: u64, mines: i32) -> Result<Vec<i32>> {
    let mines = MineCount::try_from(mines)?;
    Ok(tiles(&fairmines::placement(server_seed, client_seed, nonce, mines).draw_order()))
}

/// The round signature: lowercase hex of SHA3-256(`serverSeed:clientSeed:nonce`).
#[uniffi::export]
pub fn round_signature(server_seed: &str, client_seed: &str, nonce: u64) -> String {
    fairmines::round_signature(server_seed, client_seed, nonce).to_string()
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
    pub words_used: u32,
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
/// `commitment` (64 hex characters, either case) and `positions` (1-based, any order) are optional:
/// a check is made only for what is given, and with neither the verdict is `Unchecked` (not ok). Fails
/// with `InvalidMines`, `InvalidHex` (argument `commitment`) or `InvalidTile` (argument `positions`) on
/// malformed input; a mismatch is not an error but a `false` check.
#[uniffi::export(default(commitment = None, positions = None))]
pub fn verify(
    server_seed: &str,
    client_seed: &str,
    nonce: u64,
    mines: i32,
    commitment: Option<String>,
    positions: Option<Vec<i32>>,
) -> Result<Verification> {
    let positions: Option<Vec<i128>> = positions.map(|p| p.into_iter().map(i128::from).collect());
    let published = Published::parse(
        server_seed,
        client_seed,
        nonce,
        i128::from(mines),
        commitment.as_deref(),
        positions.as_deref(),
    )?;
    let verdict = fairmines::verify(&published);
    Ok(Verification {
        commitment: verdict.commitment.to_string(),
        signature: verdict.signature.to_string(),
        positions: tiles(&verdict.placement.positions()),
        draw_order: tiles(&verdict.placement.draw_order()),
        words_used: verdict.placement.words_used(),
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
/// Fails with `Rng` only if the OS generator fails.
#[uniffi::export]
pub fn generate_server_seed() -> Result<Arc<ServerSeed>> {
    Ok(Arc::new(ServerSeed(fairmines::ServerSeed::generate()?)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use fairmines::Digest;

    const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
    const CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";

    #[test]
    fn worked_example() {
        assert_eq!(mine_positions(SERVER, CLIENT, 1, 3).unwrap(), [7, 10, 19]);
        assert_eq!(draw_order(SERVER, CLIENT, 1, 3).unwrap(), [9, 6, 18]);
        assert_eq!(commitment(SERVER), "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42");
        assert_eq!(
            round_signature(SERVER, CLIENT, 1),
            "90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac"
        );
        let hex: Digest = commitment(SERVER).parse().unwrap();
        assert_eq!(hex.to_string(), commitment(SERVER));
    }

    #[test]
    fn errors_mirror_the_core() {
        for mines in [0, 25, -1, i32::MAX, i32::MIN] {
            let err = mine_positions(SERVER, CLIENT, 1, mines).unwrap_err();
            assert!(matches!(err, FairminesError::InvalidMines { code: 1, .. }), "{err:?}");
            assert_eq!(err.parts().1, "INVALID_MINES");
            assert_eq!(err.parts().2, Some("mines"));
            assert!(err.to_string().starts_with("mines: "), "{err}");
        }
        let err = verify(SERVER, CLIENT, 1, 3, Some("xyz".into()), None).unwrap_err();
        assert!(
            matches!(err, FairminesError::InvalidHex { code: 4, ref message, .. } if message.starts_with("commitment: "))
        );
        assert_eq!(err.parts().2, Some("commitment"));
        let err = verify(SERVER, CLIENT, 1, 3, None, Some(vec![7, 26])).unwrap_err();
        assert!(
            matches!(err, FairminesError::InvalidTile { code: 3, ref message, .. } if message.starts_with("positions: "))
        );
    }

    #[test]
    fn every_core_error_keeps_its_code_name_and_argument() {
        let errors = [
            Error::InvalidMines { got: 0 },
            Error::InvalidNonce { detail: "x".into() },
            Error::InvalidTile { argument: "tile", detail: "x".into() },
            Error::InvalidHex { argument: "commitment", detail: "x".into() },
            Error::InvalidUtf8 { argument: "client_seed" },
            Error::StreamExhausted { words_read: 2 },
            Error::Rng { detail: "x".into() },
            Error::BufferSize { needed: 3, got: 2 },
            Error::TileAlreadyRevealed { tile: 7 },
            Error::RoundFinished,
            Error::NothingToCashOut,
            Error::InvalidRtp { detail: "x".into() },
            Error::InvalidPicks { detail: "x".into() },
            Error::InvalidNumber { argument: "ratio", detail: "x".into() },
            Error::InvalidState { argument: "state", detail: "x".into() },
            Error::RoundsInPlay { nonces: vec![1, 4] },
            Error::RoundVoided,
        ];
        for (i, core) in errors.into_iter().enumerate() {
            let ours = FairminesError::from(core.clone());
            assert_eq!(ours.parts(), (core.code(), core.name(), core.argument(), core.to_string().as_str()));
            assert_eq!(core.code() as usize, i + 1);
            // The variant is the core's namesake (`Debug` starts with the variant name in both), never `Other`.
            let (theirs, mine) = (format!("{core:?}"), format!("{ours:?}"));
            let variant = mine.split(' ').next().unwrap();
            assert!(theirs.starts_with(variant) && variant != "Other", "{theirs} vs {mine}");
        }
    }

    #[test]
    fn verify_reports_each_check() {
        let good =
            verify(SERVER, CLIENT, 1, 3, Some(commitment(SERVER).to_uppercase()), Some(vec![19, 7, 10])).unwrap();
        assert_eq!((good.commitment_ok, good.positions_ok, good.ok), (Some(true), Some(true), true));
        assert_eq!(good.words_used, 3);
        let bad = verify(SERVER, CLIENT, 1, 3, None, Some(vec![7, 10, 20])).unwrap();
        assert_eq!((bad.commitment_ok, bad.positions_ok, bad.ok), (None, Some(false), false));
        assert_eq!(bad.positions, [7, 10, 19]);
        assert_eq!((good.verdict, bad.verdict), (Verdict::Ok, Verdict::Mismatch));
        let nothing = verify(SERVER, CLIENT, 1, 3, None, None).unwrap();
        assert_eq!((nothing.verdict, nothing.ok), (Verdict::Unchecked, false));
        assert_eq!(nothing.positions, [7, 10, 19]);
    }

    #[test]
    fn server_seed_text_stays_hidden() {
        let seed = generate_server_seed().unwrap();
        assert_eq!(seed.reveal().len(), 64);
        assert_eq!(seed.commitment(), commitment(&seed.reveal()));
        let shown = format!("{seed} {seed:?}");
        assert!(!shown.contains(&seed.reveal()), "{shown}");
        assert!(shown.contains(&seed.commitment()), "{shown}");
    }
}
