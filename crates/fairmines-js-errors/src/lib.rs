//! The core's errors as the two JavaScript packages throw them, written once for both bindings
//! (bindings/node over Node-API, bindings/wasm over wasm-bindgen), which only turn a [`Failure`] into their
//! engine's error object. A wrong JavaScript type, or an object key that is no field, is a `TypeError` with
//! `code: 'ERR_INVALID_ARG_TYPE'`. A core error is a `RangeError` when an argument is at fault, else an
//! `Error`, with `code` `FAIRMINES_<ErrorKind::name>`, `errno` the kind's number, `argument` as JavaScript
//! spells it, and the message `label: ` + [`fairmines::Error::detail`] (`label`: the argument or its part,
//! `nonces[3]`, `record.nonce`). Which argument is at fault is the core's to say ([`fairmines::Error::argument`]):
//! a value the state refuses is one too (a tile revealed before, a nonce with no round in play to hand
//! back), while a move the state refuses whatever its argument (a finished or voided round, a rotation with
//! rounds in play) is a plain `Error`. Pure: no engine, no I/O.
#![forbid(unsafe_code)]

/// The JavaScript class of a failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// `TypeError`: an argument of the wrong type.
    Type,
    /// `RangeError`: a core error an argument is at fault for.
    Range,
    /// `Error`: a core error with no argument at fault, a caught panic.
    Plain,
}

/// A failure on its way to JavaScript, built off the JavaScript heap (maybe on another thread).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The error class to throw.
    pub class: Class,
    /// The error's `code`.
    pub code: String,
    /// The error's `errno`: the core's number of the kind (core errors only).
    pub errno: Option<u32>,
    /// The error's `argument`: the parameter at fault, as the TypeScript declarations name it.
    pub argument: Option<String>,
    /// The error's message.
    pub message: String,
}

/// A value converted from JavaScript, or why it could not be.
pub type Converted<T> = Result<T, Failure>;

/// The `code` of a wrong type, as Node's own APIs name it.
pub const INVALID_ARG_TYPE: &str = "ERR_INVALID_ARG_TYPE";
/// What a number argument must be, in messages.
pub const NUMBER: &str = "a number or a bigint";
/// What a list of tiles must be, in messages.
pub const TILES: &str = "an array of numbers or a Uint8Array";

/// The `code` of a core error kind: `FAIRMINES_INVALID_MINES`.
pub fn code(kind: fairmines::ErrorKind) -> String {
    format!("FAIRMINES_{}", kind.name())
}

/// A core argument name as JavaScript spells it: `server_seed` → `serverSeed`.
pub fn camel(name: &str) -> String {
    let mut parts = name.split('_');
    let first = parts.next().unwrap_or_default().to_owned();
    parts.fold(first, |mut out, part| {
        let mut chars = part.chars();
        out.extend(chars.next().map(|c| c.to_ascii_uppercase()));
        out + chars.as_str()
    })
}

impl Failure {
    /// A failure of any class.
    pub fn new(class: Class, code: String, errno: Option<u32>, argument: Option<&str>, message: String) -> Self {
        Failure { class, code, errno, argument: argument.map(str::to_owned), message }
    }

    /// A core error: a `RangeError` naming its argument as JavaScript spells it, or a plain `Error` when
    /// no argument is at fault (a move on a finished round, the OS random generator).
    pub fn core(error: fairmines::Error) -> Self {
        match error.argument().map(camel) {
            Some(js) => Failure::at(error, &js, &js),
            None => Failure::new(Class::Plain, code(error.kind()), Some(error.code()), None, error.to_string()),
        }
    }

    /// A core error about `label`, the argument `argument` or a part of it (`nonces[3]`): `label: detail`.
    pub fn at(error: fairmines::Error, argument: &str, label: &str) -> Self {
        let message = format!("{label}: {}", error.detail());
        Failure::new(Class::Range, code(error.kind()), Some(error.code()), Some(argument), message)
    }

    /// A core error about a field of the object argument `argument`, labelled `argument.field`.
    pub fn field(error: fairmines::Error, argument: &str) -> Self {
        match error.argument() {
            Some(field) => Failure::at(error, argument, &format!("{argument}.{}", camel(field))),
            None => Failure::core(error),
        }
    }

    /// `label` (the argument `argument` or a part of it) is not `expected`: `label: must be …, got …`.
    pub fn wrong_type(argument: &str, label: &str, expected: &str, got: &str) -> Self {
        let message = format!("{label}: must be {expected}, got {got}");
        Failure::new(Class::Type, INVALID_ARG_TYPE.to_owned(), None, Some(argument), message)
    }

    /// A key of an object argument that is none of its fields (the object is not of the declared type).
    pub fn unknown_field(argument: &str, key: &str, what: &str, known: &[&str]) -> Self {
        let message = format!("{argument}.{key}: unknown field: {what} has only {}", known.join(", "));
        Failure::new(Class::Type, INVALID_ARG_TYPE.to_owned(), None, Some(argument), message)
    }

    /// A plain `Error` with a code of the package's own (no core kind).
    pub fn plain(code: &str, message: String) -> Self {
        Failure::new(Class::Plain, code.to_owned(), None, None, message)
    }

    /// A caught Rust panic (a bug): an `Error` with `code: 'FAIRMINES_PANIC'`.
    pub fn from_panic(payload: &(dyn std::any::Any + Send)) -> Self {
        let what = payload.downcast_ref::<&str>().copied().or(payload.downcast_ref::<String>().map(String::as_str));
        let what = what.unwrap_or("unknown panic payload");
        Failure::plain("FAIRMINES_PANIC", format!("internal error in fairmines (a Rust panic was caught): {what}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn argument_names_are_spelt_as_javascript_spells_them() {
        assert_eq!(camel("server_seed"), "serverSeed");
        assert_eq!(camel("safe_picks"), "safePicks");
        assert_eq!(camel("nonce"), "nonce");
    }

    #[test]
    fn core_errors_are_composed_never_rewritten() {
        let error = fairmines::ServerSeed::from_hex("xyz").unwrap_err();
        let failure = Failure::core(error.clone());
        assert_eq!((failure.class, failure.argument.as_deref()), (Class::Range, Some("serverSeed")));
        assert_eq!(failure.message, format!("serverSeed: {}", error.detail()));
        assert_eq!((failure.code.as_str(), failure.errno), ("FAIRMINES_INVALID_HEX", Some(error.code())));
        let error = fairmines::Error::RoundsInPlay { nonces: vec![5, 7] };
        let failure = Failure::core(error.clone());
        assert_eq!((failure.class, failure.errno, failure.message), (Class::Plain, Some(16), error.to_string()));
        let field =
            Failure::field(fairmines::MineCount::try_from(fairmines::input::Number::Int(25)).unwrap_err(), "record");
        assert_eq!((field.argument.as_deref(), field.message.starts_with("record.mines: ")), (Some("record"), true));
    }

    #[test]
    fn a_state_error_is_a_range_error_exactly_when_the_core_names_an_argument() {
        // No round in play at a nonce: the nonce is at fault, as a tile revealed before is.
        let pair = fairmines::SeedPair::from_parts(fairmines::ServerSeed::from_bytes(&[7; 32]), "c", 4).unwrap();
        let error = pair.round(1).unwrap_err();
        let failure = Failure::core(error.clone());
        assert_eq!((failure.class, failure.argument.as_deref()), (Class::Range, Some("nonce")));
        assert_eq!((failure.code.as_str(), failure.errno), ("FAIRMINES_ROUND_NOT_IN_PLAY", Some(18)));
        assert_eq!(failure.message, error.to_string());
        assert!(
            failure.message.starts_with("nonce: no round of this seed pair is in play at nonce 1"),
            "{}",
            failure.message
        );
        let failure = Failure::core(fairmines::Error::TileAlreadyRevealed { tile: 3 });
        assert_eq!((failure.class, failure.argument.as_deref()), (Class::Range, Some("tile")));
        // A move the state refuses whatever its argument: no argument, a plain Error.
        for error in [fairmines::Error::RoundVoided, fairmines::Error::RoundFinished] {
            let failure = Failure::core(error.clone());
            assert_eq!((failure.class, failure.argument, failure.message), (Class::Plain, None, error.to_string()));
        }
    }

    #[test]
    fn wrong_types_and_unknown_keys_are_type_errors_naming_the_argument() {
        let failure = Failure::wrong_type("nonces", "nonces[3]", NUMBER, "string");
        assert_eq!(failure.message, "nonces[3]: must be a number or a bigint, got string");
        assert_eq!(
            (failure.class, failure.code.as_str(), failure.argument.as_deref()),
            (Class::Type, INVALID_ARG_TYPE, Some("nonces"))
        );
        let failure = Failure::unknown_field("round", "commitmnet", "a published round", &["serverSeed", "commitment"]);
        assert_eq!(
            failure.message,
            "round.commitmnet: unknown field: a published round has only serverSeed, commitment"
        );
    }

    #[test]
    fn a_panic_payload_is_named() {
        let failure = Failure::from_panic(&"boom");
        assert_eq!((failure.code.as_str(), failure.class), ("FAIRMINES_PANIC", Class::Plain));
        assert!(failure.message.ends_with("boom"));
        assert!(Failure::from_panic(&42_u8).message.ends_with("unknown panic payload"));
    }
}
