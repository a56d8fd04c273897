//! [`FairminesError`]: every error of the core, as the variant of its [`ErrorKind`].
//!
//! UniFFI needs the enum written out, so the variants are listed once below by the names of the core's kinds;
//! their code, name and meaning ([`ErrorKind::summary`]) are the core's, and a test walks [`ErrorKind::ALL`]
//! to check that each kind is the variant of the same name and code, and each variant a kind.

use fairmines::{Error, ErrorKind};

use crate::U32;

/// Defines [`FairminesError`]: one variant per kind given, then `Other`, each with the same four fields.
macro_rules! fairmines_error {
    (@enum $($variant:ident)*) => {
        /// Everything that can go wrong: the variant of each of the core's error kinds (`fairmines::ErrorKind`:
        /// same names, in the order of their stable codes 1, 2, …), plus `Other` for a kind a newer core may
        /// add. Every variant carries the core's `code`, `name` and `argument` and its message, which starts
        /// with the argument at fault when there is one.
        #[derive(Debug, Clone, PartialEq, Eq, uniffi::Error)]
        pub enum FairminesError {
            $(
                $variant {
                    /// The core's stable numeric code, the same in every binding.
                    code: U32,
                    /// The core's stable name in SCREAMING_SNAKE_CASE, e.g. `INVALID_MINES`.
                    name: String,
                    /// The argument at fault (`mines`, `tile`, `rtp.denominator`, …); null/nil when there is none.
                    argument: Option<String>,
                    /// The core's message, which starts with the argument at fault when there is one.
                    message: String,
                },
            )*
        }
    };
    ($($kind:ident)* ; $other:ident) => {
        fairmines_error!(@enum $($kind)* $other);

        impl FairminesError {
            /// The variant names, in order (`Other` aside): the names of the kinds they stand for.
            pub const VARIANTS: &[&str] = &[$(stringify!($kind)),*];

            /// The variant of `kind`, with the core's code and name.
            pub fn new(kind: ErrorKind, argument: Option<String>, message: String) -> Self {
                let (code, name) = (U32(kind.code()), kind.name().to_owned());
                match kind {
                    $(ErrorKind::$kind => FairminesError::$kind { code, name, argument, message },)*
                    _ => FairminesError::$other { code, name, argument, message },
                }
            }

            /// The code, name, argument and message, whatever the variant.
            pub fn parts(&self) -> (u32, &str, Option<&str>, &str) {
                match self {
                    $(FairminesError::$kind { code, name, argument, message })|*
                    | FairminesError::$other { code, name, argument, message } => {
                        (code.0, name, argument.as_deref(), message)
                    }
                }
            }
        }
    };
}

fairmines_error! {
    InvalidMines InvalidNonce InvalidTile InvalidHex InvalidUtf8 StreamExhausted RngFailed BufferTooSmall
    TileAlreadyRevealed RoundFinished NothingToCashOut InvalidRtp InvalidPicks InvalidNumber InvalidState
    RoundsInPlay RoundVoided RoundNotInPlay; Other
}

impl FairminesError {
    /// The core's error about a part of a value the binding names `label.part`, e.g. `rtp.denominator`:
    /// the core's detail under that name.
    pub fn in_field(label: &str, error: Error) -> Self {
        let argument = match error.argument() {
            Some(part) => format!("{label}.{part}"),
            None => label.to_owned(),
        };
        let message = format!("{argument}: {}", error.detail());
        FairminesError::new(error.kind(), Some(argument), message)
    }
}

impl From<Error> for FairminesError {
    fn from(error: Error) -> Self {
        let argument = error.argument().map(str::to_owned);
        FairminesError::new(error.kind(), argument, error.to_string())
    }
}

impl std::fmt::Display for FairminesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.parts().3)
    }
}

impl std::error::Error for FairminesError {}
