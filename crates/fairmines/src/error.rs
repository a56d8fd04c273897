//! The one error type of the crate, and the table of its kinds that every binding derives its own from.

use core::fmt;

use crate::Number;

/// The kinds of error, without their details: one stable code, name and summary ([`ErrorKind::summary`]) each. Every binding's list of
/// errors (C status codes, Python exception classes, Node codes, the uniffi enum) is made from [`ErrorKind::ALL`]
/// or checked against it, so a new kind is written here and nowhere else.
#[non_exhaustive]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u32)]
pub enum ErrorKind {
    /// The mine count is outside 1..=24.
    InvalidMines = 1,
    /// A nonce outside 0..2^64.
    InvalidNonce = 2,
    /// A tile outside 1..=25.
    InvalidTile = 3,
    /// Not 64 hexadecimal characters.
    InvalidHex = 4,
    /// Not valid UTF-8.
    InvalidUtf8 = 5,
    /// A finite word source ran out.
    StreamExhausted = 6,
    /// The OS random number generator failed.
    RngFailed = 7,
    /// An output buffer too small.
    BufferTooSmall = 8,
    /// A tile revealed twice.
    TileAlreadyRevealed = 9,
    /// A move on a finished round.
    RoundFinished = 10,
    /// A cash-out before any safe pick.
    NothingToCashOut = 11,
    /// An RTP factor outside (0, 1].
    InvalidRtp = 12,
    /// A number of safe picks the round cannot have.
    InvalidPicks = 13,
    /// A number that does not parse or is out of range.
    InvalidNumber = 14,
    /// State or a record that does not hold together.
    InvalidState = 15,
    /// Rounds in play: the server seed cannot be revealed.
    RoundsInPlay = 16,
    /// A move on a voided round.
    RoundVoided = 17,
    /// No round to go on with at that nonce.
    RoundNotInPlay = 18,
}

impl ErrorKind {
    /// Every kind, in code order (codes 1, 2, … with no gap).
    pub const ALL: [ErrorKind; 18] = [
        ErrorKind::InvalidMines,
        ErrorKind::InvalidNonce,
        ErrorKind::InvalidTile,
        ErrorKind::InvalidHex,
        ErrorKind::InvalidUtf8,
        ErrorKind::StreamExhausted,
        ErrorKind::RngFailed,
        ErrorKind::BufferTooSmall,
        ErrorKind::TileAlreadyRevealed,
        ErrorKind::RoundFinished,
        ErrorKind::NothingToCashOut,
        ErrorKind::InvalidRtp,
        ErrorKind::InvalidPicks,
        ErrorKind::InvalidNumber,
        ErrorKind::InvalidState,
        ErrorKind::RoundsInPlay,
        ErrorKind::RoundVoided,
        ErrorKind::RoundNotInPlay,
    ];

    /// The stable number of the kind: `code` in Node, the `fairmines_status` value in C, `code` in Python.
    pub const fn code(self) -> u32 {
        self as u32
    }

    /// The kind with this code.
    pub fn from_code(code: u32) -> Option<ErrorKind> {
        ErrorKind::ALL.into_iter().find(|kind| kind.code() == code)
    }

    /// The stable name, SCREAMING_SNAKE_CASE: `FAIRMINES_` + name in Node and C, the exception class name
    /// in Python (`INVALID_MINES` → `InvalidMinesError`).
    pub const fn name(self) -> &'static str {
        match self {
            ErrorKind::InvalidMines => "INVALID_MINES",
            ErrorKind::InvalidNonce => "INVALID_NONCE",
            ErrorKind::InvalidTile => "INVALID_TILE",
            ErrorKind::InvalidHex => "INVALID_HEX",
            ErrorKind::InvalidUtf8 => "INVALID_UTF8",
            ErrorKind::StreamExhausted => "STREAM_EXHAUSTED",
            ErrorKind::RngFailed => "RNG_FAILED",
            ErrorKind::BufferTooSmall => "BUFFER_TOO_SMALL",
            ErrorKind::TileAlreadyRevealed => "TILE_ALREADY_REVEALED",
            ErrorKind::RoundFinished => "ROUND_FINISHED",
            ErrorKind::NothingToCashOut => "NOTHING_TO_CASH_OUT",
            ErrorKind::InvalidRtp => "INVALID_RTP",
            ErrorKind::InvalidPicks => "INVALID_PICKS",
            ErrorKind::InvalidNumber => "INVALID_NUMBER",
            ErrorKind::InvalidState => "INVALID_STATE",
            ErrorKind::RoundsInPlay => "ROUNDS_IN_PLAY",
            ErrorKind::RoundVoided => "ROUND_VOIDED",
            ErrorKind::RoundNotInPlay => "ROUND_NOT_IN_PLAY",
        }
    }

    /// One sentence that says what the kind means: the docstring of a Python exception class, the text of
    /// `fairmines_status_str` in C, the documentation of the other bindings' error lists.
    pub const fn summary(self) -> &'static str {
        match self {
            ErrorKind::InvalidMines => "The mine count is not a whole number from 1 to 24.",
            ErrorKind::InvalidNonce => "A nonce is not a whole number from 0 to 2^64 - 1.",
            ErrorKind::InvalidTile => "A tile is not between 1 and 25, or a list of tiles cannot be a board.",
            ErrorKind::InvalidHex => "A digest or server seed is not 64 hexadecimal characters.",
            ErrorKind::InvalidUtf8 => "A string is not valid UTF-8 (or, from UTF-16, holds a lone surrogate).",
            ErrorKind::StreamExhausted => "A finite word source ran out before every mine was placed.",
            ErrorKind::RngFailed => "The operating system's random number generator failed.",
            ErrorKind::BufferTooSmall => "An output buffer is too small for the result.",
            ErrorKind::TileAlreadyRevealed => "The tile was already revealed in this round.",
            ErrorKind::RoundFinished => "The round has finished (a mine, or a cash-out): no more moves.",
            ErrorKind::NothingToCashOut => "A cash-out before the first safe pick.",
            ErrorKind::InvalidRtp => "A return-to-player factor that is not a fraction in (0, 1].",
            ErrorKind::InvalidPicks => "A number of safe picks that the round cannot have.",
            ErrorKind::InvalidNumber => "A number that does not parse or is out of range (a ratio, decimal places).",
            ErrorKind::InvalidState => "Saved state or a round record that does not parse or does not hold together.",
            ErrorKind::RoundsInPlay => "The seed pair has rounds in play, so its server seed cannot be revealed.",
            ErrorKind::RoundVoided => "The round was voided so its server seed could be revealed: no more moves.",
            ErrorKind::RoundNotInPlay => {
                "No round of the seed pair to go on with at that nonce: none in play, one saved without its picks, \
                 or one already handed out."
            }
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything that can go wrong, with its details. [`Error::kind`] gives the kind (code, name, summary),
/// [`Error::argument`] the argument at fault, and the message is `argument: detail` ([`Error::detail`] alone
/// is for bindings that name the argument their own way, e.g. `record.clientSeed`).
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The mine count is outside 1..=24.
    InvalidMines {
        /// The value that was given.
        got: Number,
    },
    /// A nonce that is not an integer in 0..2^64.
    InvalidNonce {
        /// What was wrong, in words.
        detail: String,
    },
    /// A tile number outside 1..=25, or a list of tiles that cannot be a board.
    InvalidTile {
        /// The argument at fault, e.g. `positions`.
        argument: &'static str,
        /// What was wrong, in words.
        detail: String,
    },
    /// A digest (commitment or signature) or server seed that is not 64 hexadecimal characters.
    InvalidHex {
        /// The argument at fault, e.g. `commitment`.
        argument: &'static str,
        /// What was wrong, in words.
        detail: String,
    },
    /// A string argument that is not valid UTF-8 (raised by bindings that take bytes or UTF-16).
    InvalidUtf8 {
        /// The argument at fault.
        argument: &'static str,
    },
    /// A finite word source ran out before every mine was placed. [`WordStream`](crate::WordStream)
    /// never runs out; this only happens with a caller-supplied, truncated source.
    StreamExhausted {
        /// How many words were read before the source ended.
        words_read: u32,
    },
    /// The operating system's random number generator failed.
    RngFailed {
        /// The error the OS reported.
        detail: String,
    },
    /// An output buffer too small for the result.
    BufferTooSmall {
        /// The bytes the output needs.
        needed: usize,
        /// The bytes given.
        got: usize,
    },
    /// A tile of the round was revealed before.
    TileAlreadyRevealed {
        /// The tile, 1-based.
        tile: u8,
    },
    /// The round has ended (a mine was hit, or it was cashed out): no more moves.
    RoundFinished,
    /// Cash-out before any safe pick.
    NothingToCashOut,
    /// A return-to-player factor that is not a fraction in (0, 1].
    InvalidRtp {
        /// What was wrong, in words.
        detail: String,
    },
    /// A number of safe picks the round cannot have.
    InvalidPicks {
        /// What was wrong, in words.
        detail: String,
    },
    /// A number that does not parse or is out of range.
    InvalidNumber {
        /// The argument at fault.
        argument: &'static str,
        /// What was wrong, in words.
        detail: String,
    },
    /// Saved state (a seed pair or a round record) that does not parse or does not hold together.
    InvalidState {
        /// The argument at fault, e.g. `state`, `record` or a record's field (`outcome`).
        argument: &'static str,
        /// What was wrong, in words.
        detail: String,
    },
    /// The seed pair still has rounds in play, so its server seed cannot be revealed (rotation or a new
    /// client seed): they must finish or be voided first.
    RoundsInPlay {
        /// The nonces of the rounds in play, ascending.
        nonces: Vec<u64>,
    },
    /// The round was voided (its seed pair ended it so the server seed could be revealed): no more moves.
    RoundVoided,
    /// [`SeedPair::round`](crate::SeedPair::round) has no round to hand back at that nonce: none is in
    /// play, the one in play was saved without its picks (it can only be voided), or it is handed out
    /// already.
    RoundNotInPlay {
        /// Which of these, in words, with the nonce.
        detail: String,
    },
}

impl Error {
    /// The kind of this error.
    pub const fn kind(&self) -> ErrorKind {
        match self {
            Error::InvalidMines { .. } => ErrorKind::InvalidMines,
            Error::InvalidNonce { .. } => ErrorKind::InvalidNonce,
            Error::InvalidTile { .. } => ErrorKind::InvalidTile,
            Error::InvalidHex { .. } => ErrorKind::InvalidHex,
            Error::InvalidUtf8 { .. } => ErrorKind::InvalidUtf8,
            Error::StreamExhausted { .. } => ErrorKind::StreamExhausted,
            Error::RngFailed { .. } => ErrorKind::RngFailed,
            Error::BufferTooSmall { .. } => ErrorKind::BufferTooSmall,
            Error::TileAlreadyRevealed { .. } => ErrorKind::TileAlreadyRevealed,
            Error::RoundFinished => ErrorKind::RoundFinished,
            Error::NothingToCashOut => ErrorKind::NothingToCashOut,
            Error::InvalidRtp { .. } => ErrorKind::InvalidRtp,
            Error::InvalidPicks { .. } => ErrorKind::InvalidPicks,
            Error::InvalidNumber { .. } => ErrorKind::InvalidNumber,
            Error::InvalidState { .. } => ErrorKind::InvalidState,
            Error::RoundsInPlay { .. } => ErrorKind::RoundsInPlay,
            Error::RoundVoided => ErrorKind::RoundVoided,
            Error::RoundNotInPlay { .. } => ErrorKind::RoundNotInPlay,
        }
    }

    /// The stable number of the error's kind ([`ErrorKind::code`]).
    pub const fn code(&self) -> u32 {
        self.kind().code()
    }

    /// The stable name of the error's kind ([`ErrorKind::name`]).
    pub const fn name(&self) -> &'static str {
        self.kind().name()
    }

    /// The name of the argument at fault, where there is one, as the Rust and Python APIs spell it.
    pub const fn argument(&self) -> Option<&'static str> {
        match self {
            Error::InvalidMines { .. } => Some("mines"),
            Error::InvalidNonce { .. } | Error::RoundNotInPlay { .. } => Some("nonce"),
            Error::InvalidTile { argument, .. }
            | Error::InvalidHex { argument, .. }
            | Error::InvalidUtf8 { argument }
            | Error::InvalidNumber { argument, .. }
            | Error::InvalidState { argument, .. } => Some(argument),
            Error::BufferTooSmall { .. } => Some("out"),
            Error::StreamExhausted { .. } => Some("words"),
            Error::TileAlreadyRevealed { .. } => Some("tile"),
            Error::InvalidRtp { .. } => Some("rtp"),
            Error::InvalidPicks { .. } => Some("safe_picks"),
            Error::RngFailed { .. }
            | Error::RoundFinished
            | Error::NothingToCashOut
            | Error::RoundsInPlay { .. }
            | Error::RoundVoided => None,
        }
    }

    /// What is wrong, without the argument's name: the message is `argument: detail` where there is an
    /// argument, else just this.
    pub fn detail(&self) -> String {
        match self {
            Error::InvalidMines { got } => format!("must be a whole number from 1 to 24, got {got}"),
            Error::InvalidNonce { detail }
            | Error::InvalidTile { detail, .. }
            | Error::InvalidHex { detail, .. }
            | Error::InvalidRtp { detail }
            | Error::InvalidPicks { detail }
            | Error::InvalidNumber { detail, .. }
            | Error::InvalidState { detail, .. }
            | Error::RoundNotInPlay { detail } => detail.clone(),
            Error::InvalidUtf8 { .. } => "is not valid UTF-8".to_owned(),
            Error::StreamExhausted { words_read } => {
                format!("the word source ended after {words_read} words, before every mine was placed")
            }
            Error::RngFailed { detail } => format!("the OS random number generator failed: {detail}"),
            Error::BufferTooSmall { needed, got } => format!("the output needs {needed} bytes, the buffer has {got}"),
            Error::TileAlreadyRevealed { tile } => format!("tile {tile} was already revealed in this round"),
            Error::RoundFinished => "the round has finished: no more reveals or cash-outs".to_owned(),
            Error::NothingToCashOut => "cash-out needs at least one safe pick first".to_owned(),
            Error::RoundsInPlay { nonces } => {
                let list: Vec<String> = nonces.iter().map(u64::to_string).collect();
                format!(
                    "the seed pair has {} round(s) in play (nonce {}): finish or void them before its server seed \
                     is revealed",
                    nonces.len(),
                    list.join(", ")
                )
            }
            Error::RoundVoided => {
                "the round was voided so its server seed could be revealed: no more reveals or cash-outs".to_owned()
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.argument() {
            Some(argument) => write!(f, "{argument}: {}", self.detail()),
            None => f.write_str(&self.detail()),
        }
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_numbered_from_one_without_gaps_and_named_uniquely() {
        for (i, kind) in ErrorKind::ALL.into_iter().enumerate() {
            assert_eq!(kind.code() as usize, i + 1);
            assert_eq!(ErrorKind::from_code(kind.code()), Some(kind));
            assert!(kind.summary().ends_with('.'), "{kind}");
            assert!(ErrorKind::ALL[..i].iter().all(|k| k.name() != kind.name() && k.summary() != kind.summary()));
        }
        assert_eq!(ErrorKind::from_code(0), None);
        assert_eq!(ErrorKind::from_code(19), None);
    }
}
