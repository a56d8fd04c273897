//! The one error type of the crate.

use core::fmt;

/// Everything that can go wrong. Each variant has a stable numeric [`Error::code`] that every binding
/// exposes unchanged, and its message starts with the name of the argument at fault.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// The mine count is outside 1..=24. Code 1.
    InvalidMines {
        /// The value that was given.
        got: i128,
    },
    /// A nonce that is not an integer in 0..2^64 (raised by bindings whose numbers are wider). Code 2.
    InvalidNonce {
        /// What was wrong, in words.
        detail: String,
    },
    /// A tile number outside 1..=25, or a list of tiles that cannot be a board. Code 3.
    InvalidTile {
        /// The argument at fault, e.g. `positions`.
        argument: &'static str,
        /// What was wrong, in words.
        detail: String,
    },
    /// A digest (commitment or signature) that is not 64 hexadecimal characters. Code 4.
    InvalidHex {
        /// The argument at fault, e.g. `commitment`.
        argument: &'static str,
        /// What was wrong, in words.
        detail: String,
    },
    /// A string argument that is not valid UTF-8 (raised by bindings that take bytes). Code 5.
    InvalidUtf8 {
        /// The argument at fault.
        argument: &'static str,
    },
    /// A finite word source ran out before every mine was placed. [`WordStream`](crate::WordStream)
    /// never runs out; this only happens with a caller-supplied, truncated source. Code 6.
    StreamExhausted {
        /// How many words were read before the source ended.
        words_read: u32,
    },
    /// The operating system's random number generator failed. Code 7.
    Rng {
        /// The error the OS reported.
        detail: String,
    },
    /// An output buffer of the wrong size. Code 8.
    BufferSize {
        /// The bytes the output needs.
        needed: usize,
        /// The bytes given.
        got: usize,
    },
    /// A tile of the round was revealed before. Code 9.
    TileAlreadyRevealed {
        /// The tile, 1-based.
        tile: u8,
    },
    /// The round has ended (a mine was hit, or it was cashed out): no more moves. Code 10.
    RoundFinished,
    /// Cash-out before any safe pick. Code 11.
    NothingToCashOut,
    /// A return-to-player factor that is not a fraction in (0, 1]. Code 12.
    InvalidRtp {
        /// What was wrong, in words.
        detail: String,
    },
    /// A number of safe picks the round cannot have. Code 13.
    InvalidPicks {
        /// What was wrong, in words.
        detail: String,
    },
    /// A number that does not parse. Code 14.
    InvalidNumber {
        /// The argument at fault.
        argument: &'static str,
        /// What was wrong, in words.
        detail: String,
    },
    /// Saved state (a seed pair or a round record) that does not parse or does not hold together. Code 15.
    InvalidState {
        /// The argument at fault, e.g. `state` or `record`.
        argument: &'static str,
        /// What was wrong, in words.
        detail: String,
    },
    /// The seed pair still has rounds in play, so its server seed cannot be revealed (rotation or a new
    /// client seed): they must finish or be voided first. Code 16.
    RoundsInPlay {
        /// The nonces of the rounds in play, ascending.
        nonces: Vec<u64>,
    },
    /// The round was voided (its seed pair ended it so the server seed could be revealed): no more moves.
    /// Code 17.
    RoundVoided,
}

impl Error {
    /// A stable number for this kind of error; bindings expose it (`code` in Node, `FAIRMINES_*` in C).
    pub const fn code(&self) -> u32 {
        match self {
            Error::InvalidMines { .. } => 1,
            Error::InvalidNonce { .. } => 2,
            Error::InvalidTile { .. } => 3,
            Error::InvalidHex { .. } => 4,
            Error::InvalidUtf8 { .. } => 5,
            Error::StreamExhausted { .. } => 6,
            Error::Rng { .. } => 7,
            Error::BufferSize { .. } => 8,
            Error::TileAlreadyRevealed { .. } => 9,
            Error::RoundFinished => 10,
            Error::NothingToCashOut => 11,
            Error::InvalidRtp { .. } => 12,
            Error::InvalidPicks { .. } => 13,
            Error::InvalidNumber { .. } => 14,
            Error::InvalidState { .. } => 15,
            Error::RoundsInPlay { .. } => 16,
            Error::RoundVoided => 17,
        }
    }

    /// A stable name for this kind of error, in SCREAMING_SNAKE_CASE (`INVALID_MINES`, …): what bindings
    /// use for error codes (`FAIRMINES_INVALID_MINES` in Node and C), one-to-one with [`Error::code`].
    pub const fn name(&self) -> &'static str {
        match self {
            Error::InvalidMines { .. } => "INVALID_MINES",
            Error::InvalidNonce { .. } => "INVALID_NONCE",
            Error::InvalidTile { .. } => "INVALID_TILE",
            Error::InvalidHex { .. } => "INVALID_HEX",
            Error::InvalidUtf8 { .. } => "INVALID_UTF8",
            Error::StreamExhausted { .. } => "STREAM_EXHAUSTED",
            Error::Rng { .. } => "RNG",
            Error::BufferSize { .. } => "BUFFER_SIZE",
            Error::TileAlreadyRevealed { .. } => "TILE_ALREADY_REVEALED",
            Error::RoundFinished => "ROUND_FINISHED",
            Error::NothingToCashOut => "NOTHING_TO_CASH_OUT",
            Error::InvalidRtp { .. } => "INVALID_RTP",
            Error::InvalidPicks { .. } => "INVALID_PICKS",
            Error::InvalidNumber { .. } => "INVALID_NUMBER",
            Error::InvalidState { .. } => "INVALID_STATE",
            Error::RoundsInPlay { .. } => "ROUNDS_IN_PLAY",
            Error::RoundVoided => "ROUND_VOIDED",
        }
    }

    /// The name of the argument at fault, where there is one.
    pub const fn argument(&self) -> Option<&'static str> {
        match self {
            Error::InvalidMines { .. } => Some("mines"),
            Error::InvalidNonce { .. } => Some("nonce"),
            Error::InvalidTile { argument, .. }
            | Error::InvalidHex { argument, .. }
            | Error::InvalidUtf8 { argument } => Some(argument),
            Error::BufferSize { .. } => Some("out"),
            Error::TileAlreadyRevealed { .. } => Some("tile"),
            Error::InvalidRtp { .. } => Some("rtp"),
            Error::InvalidPicks { .. } => Some("safe_picks"),
            Error::InvalidNumber { argument, .. } | Error::InvalidState { argument, .. } => Some(argument),
            Error::StreamExhausted { .. }
            | Error::Rng { .. }
            | Error::RoundFinished
            | Error::NothingToCashOut
            | Error::RoundsInPlay { .. }
            | Error::RoundVoided => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidMines { got } => {
                write!(f, "mines: must be an integer in 1..=24, got {got}")
            }
            Error::InvalidNonce { detail } => write!(f, "nonce: {detail}"),
            Error::InvalidTile { argument, detail } | Error::InvalidHex { argument, detail } => {
                write!(f, "{argument}: {detail}")
            }
            Error::InvalidUtf8 { argument } => write!(f, "{argument}: is not valid UTF-8"),
            Error::StreamExhausted { words_read } => {
                write!(f, "words: the word source ended after {words_read} words, before every mine was placed")
            }
            Error::Rng { detail } => write!(f, "the OS random number generator failed: {detail}"),
            Error::BufferSize { needed, got } => {
                write!(f, "out: the output needs {needed} bytes, the buffer has {got}")
            }
            Error::TileAlreadyRevealed { tile } => write!(f, "tile: tile {tile} was already revealed in this round"),
            Error::RoundFinished => f.write_str("the round has finished: no more reveals or cash-outs"),
            Error::NothingToCashOut => f.write_str("cash-out needs at least one safe pick first"),
            Error::InvalidRtp { detail } => write!(f, "rtp: {detail}"),
            Error::InvalidPicks { detail } => write!(f, "safe_picks: {detail}"),
            Error::InvalidNumber { argument, detail } | Error::InvalidState { argument, detail } => {
                write!(f, "{argument}: {detail}")
            }
            Error::RoundsInPlay { nonces } => {
                let list: Vec<String> = nonces.iter().map(u64::to_string).collect();
                write!(
                    f,
                    "the seed pair has {} round(s) in play (nonce {}): finish or void them before its server seed is revealed",
                    nonces.len(),
                    list.join(", ")
                )
            }
            Error::RoundVoided => {
                f.write_str("the round was voided so its server seed could be revealed: no more reveals or cash-outs")
            }
        }
    }
}

impl std::error::Error for Error {}
