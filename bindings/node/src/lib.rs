//! Node.js bindings of the `fairmines` core, built with napi-rs.
//!
//! This crate converts JavaScript values into the core's types and the core's errors into JavaScript
//! errors; every computation is the core's. Conventions (see `node/README.md`):
//!
//! - strings are hashed as UTF-8; a string with a lone surrogate has no UTF-8 form and is rejected;
//! - a nonce is a `number` that is a safe non-negative integer, or a `bigint` in 0..2^64;
//! - `mines` is a `number` that is an integer in 1..=24 (3.9 is rejected, not truncated);
//! - a value of the wrong JavaScript type throws a `TypeError` (`code: 'ERR_INVALID_ARG_TYPE'`), and so
//!   does an object argument with a key the function does not read (a misspelt optional field would
//!   otherwise be ignored without a word);
//!   a value of the right type the core rejects throws a `RangeError` whose `code` is `FAIRMINES_` and
//!   the core's [`fairmines::Error::name`] (`FAIRMINES_INVALID_MINES`, …), whose `errno` is the core's
//!   stable numeric code and whose `argument` is the parameter at fault, spelled as in JavaScript
//!   (`serverSeed`); a core error no argument is at fault for (`FAIRMINES_ROUND_FINISHED`,
//!   `FAIRMINES_ROUNDS_IN_PLAY`, `FAIRMINES_RNG`, …) is a plain `Error` with the same `code` and `errno`;
//! - every export runs inside a panic boundary: a Rust panic becomes an `Error` with
//!   `code: 'FAIRMINES_PANIC'`, never an abort.
//!
//! The game (`SeedPair`, `Round`, `Ratio`, records, payouts) is in [`game`].
#![deny(unsafe_code)]

use std::panic::{AssertUnwindSafe, catch_unwind};

use fairmines::{MineCount, Nonces, Published};
use napi::bindgen_prelude::{
    Array, AsyncTask, BigInt, BigUint64Array, Either, Either3, Env, Function, FunctionRef, JsObjectValue, JsValue,
    KeyCollectionMode, KeyConversion, KeyFilter, Null, Object, PropertyAttributes, Result, Status, Task, Uint8Array,
    Unknown, ValueType,
};
use napi::{JsRangeError, JsString, JsTypeError, Property};
use napi_derive::napi;

pub mod game;

// ---------------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------------

/// Which JavaScript error class a failure becomes.
#[derive(Clone, Copy, Debug)]
enum Class {
    /// A value of the wrong JavaScript type.
    Type,
    /// A value of the right type outside what the core accepts.
    Range,
    /// Anything else (OS random generator failure, allocation failure, caught panic).
    Plain,
}

/// A failure on its way to JavaScript. Built without touching the JS heap (it may be made on a
/// libuv worker thread) and turned into an error object on the JS thread by [`Failure::into_napi`].
#[derive(Debug)]
struct Failure {
    class: Class,
    code: String,
    errno: Option<u32>,
    argument: Option<String>,
    message: String,
}

/// The `code` string of a core error: `FAIRMINES_` and the core's own stable name
/// ([`fairmines::Error::name`]), in the style of Node's error codes.
fn core_code(error: &fairmines::Error) -> String {
    format!("FAIRMINES_{}", error.name())
}

/// A core argument name as JavaScript spells it: `server_seed` → `serverSeed`.
fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for (i, part) in name.split('_').enumerate() {
        let mut chars = part.chars();
        match chars.next() {
            Some(first) if i > 0 => {
                out.extend(first.to_uppercase());
                out.push_str(chars.as_str());
            }
            _ => out.push_str(part),
        }
    }
    out
}

impl Failure {
    /// A core error, unchanged but for spelling: its message, its argument (in camelCase, as the
    /// JavaScript parameter is named), its numeric code. An error no argument is at fault for (a move
    /// on a finished round, the OS random generator) is a plain `Error`; the others are `RangeError`s.
    fn core(error: fairmines::Error) -> Self {
        match error.argument() {
            Some(argument) => {
                let js = camel(argument);
                Failure::core_in(error, js.clone(), &js)
            }
            None => Failure {
                class: Class::Plain,
                code: core_code(&error),
                errno: Some(error.code()),
                argument: None,
                message: error.to_string(),
            },
        }
    }

    /// A core error about a part of a JavaScript argument: `argument` is the parameter, `label` the part
    /// (`record.rtp`), which replaces the core's argument name at the start of the message.
    fn core_in(error: fairmines::Error, argument: impl Into<String>, label: &str) -> Self {
        let message = error.to_string();
        let detail = error
            .argument()
            .and_then(|core| message.strip_prefix(core))
            .and_then(|rest| rest.strip_prefix(": "))
            .unwrap_or(&message);
        Failure {
            class: Class::Range,
            code: core_code(&error),
            errno: Some(error.code()),
            argument: Some(argument.into()),
            message: format!("{label}: {detail}"),
        }
    }

    /// A value the core would reject with an error of the kind of `kind`, detected while converting it
    /// (e.g. `mines: 3.9`, which the core's integer types cannot even hold). `label` leads the message;
    /// it is the argument or a part of it (`nonces[3]`, `record.nonce`).
    fn range(kind: &fairmines::Error, argument: &str, label: &str, detail: &str) -> Self {
        Failure {
            class: Class::Range,
            code: core_code(kind),
            errno: Some(kind.code()),
            argument: Some(argument.to_owned()),
            message: format!("{label}: {detail}"),
        }
    }

    /// A value of the wrong JavaScript type.
    fn wrong_type(argument: &str, label: &str, expected: &str, got: &str) -> Self {
        Failure {
            class: Class::Type,
            code: "ERR_INVALID_ARG_TYPE".to_owned(),
            errno: None,
            argument: Some(argument.to_owned()),
            message: format!("{label}: must be {expected}, got {got}"),
        }
    }

    /// A key of an object argument that is none of its fields: a `TypeError` (the object is not of the
    /// declared type), under the code of one, with the key in the message.
    fn unknown_field(argument: &str, key: &str, what: &str, known: &[&str]) -> Self {
        Failure {
            class: Class::Type,
            code: "ERR_INVALID_ARG_TYPE".to_owned(),
            errno: None,
            argument: Some(argument.to_owned()),
            message: format!("{argument}.{key}: unknown field: {what} has only {}", known.join(", ")),
        }
    }

    fn plain(code: &str, message: String) -> Self {
        Failure { class: Class::Plain, code: code.to_owned(), errno: None, argument: None, message }
    }

    fn from_panic(payload: &(dyn std::any::Any + Send)) -> Self {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic payload".to_owned());
        Failure::plain("FAIRMINES_PANIC", format!("internal error in fairmines (a Rust panic was caught): {what}"))
    }

    /// The JavaScript error object, carried in a `napi::Error` that napi-rs throws (or rejects
    /// with) verbatim.
    fn into_napi(self, env: &Env) -> napi::Error {
        match self.build(env) {
            Ok(error) => error,
            // Building the error object failed (e.g. the environment is shutting down): fall back to
            // napi-rs's own plain error, which still carries the code and the message.
            Err(_) => napi::Error::new(Status::GenericFailure, self.message),
        }
    }

    fn build(&self, env: &Env) -> Result<napi::Error> {
        let base = napi::Error::new(self.code.clone(), self.message.clone());
        let value = match self.class {
            Class::Type => JsTypeError::from(base).into_unknown(*env),
            Class::Range => JsRangeError::from(base).into_unknown(*env),
            Class::Plain => napi::JsError::from(base).into_unknown(*env),
        };
        let mut object = value.coerce_to_object()?;
        if let Some(errno) = self.errno {
            object.set_named_property("errno", errno)?;
        }
        if let Some(argument) = &self.argument {
            object.set_named_property("argument", argument.as_str())?;
        }
        Ok(napi::Error::from_unknown_without_coercion(value))
    }
}

// Kinds of core errors, as templates for [`Failure::range`]: only their code and name are used.
const INVALID_MINES: fairmines::Error = fairmines::Error::InvalidMines { got: 0 };
const INVALID_NONCE: fairmines::Error = fairmines::Error::InvalidNonce { detail: String::new() };
const INVALID_TILE: fairmines::Error = fairmines::Error::InvalidTile { argument: "", detail: String::new() };
const INVALID_PICKS: fairmines::Error = fairmines::Error::InvalidPicks { detail: String::new() };
const INVALID_NUMBER: fairmines::Error = fairmines::Error::InvalidNumber { argument: "", detail: String::new() };
const INVALID_STATE: fairmines::Error = fairmines::Error::InvalidState { argument: "", detail: String::new() };

fn type_name(value: &Unknown<'_>) -> &'static str {
    match value.get_type() {
        Ok(ValueType::Undefined) => "undefined",
        Ok(ValueType::Null) => "null",
        Ok(ValueType::Boolean) => "boolean",
        Ok(ValueType::Number) => "number",
        Ok(ValueType::String) => "string",
        Ok(ValueType::Symbol) => "symbol",
        Ok(ValueType::Object) => "object",
        Ok(ValueType::Function) => "function",
        Ok(ValueType::BigInt) => "bigint",
        _ => "a value of unknown type",
    }
}

/// Runs `body` inside a panic boundary: a panic becomes a `FAIRMINES_PANIC` failure.
fn contain<T>(body: impl FnOnce() -> Converted<T>) -> Converted<T> {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| Err(Failure::from_panic(payload.as_ref())))
}

/// Runs `body` inside a panic boundary and turns its failure into a JavaScript error.
fn guard<T>(env: &Env, body: impl FnOnce() -> Converted<T>) -> Result<T> {
    contain(body).map_err(|failure| failure.into_napi(env))
}

type Converted<T> = std::result::Result<T, Failure>;

// ---------------------------------------------------------------------------------------------------
// Argument conversion
// ---------------------------------------------------------------------------------------------------

/// A JavaScript value typed as `string`, or anything else (reported as a `TypeError`).
type StringArg<'env> = Either<JsString<'env>, Unknown<'env>>;
/// A JavaScript value typed as `number` or `bigint`, or anything else.
type NonceArg<'env> = Either3<f64, BigInt, Unknown<'env>>;
/// A JavaScript value typed as `number`, or anything else.
type NumberArg<'env> = Either<f64, Unknown<'env>>;

/// JavaScript's spelling of a number in messages.
fn js_number(x: f64) -> String {
    if x.is_nan() {
        "NaN".to_owned()
    } else if x.is_infinite() {
        if x > 0.0 { "Infinity".to_owned() } else { "-Infinity".to_owned() }
    } else {
        format!("{x}")
    }
}

/// The string's UTF-8 text, as js-sha3 (and every other binding) hashes it.
///
/// A JavaScript string is UTF-16 and may hold a lone surrogate, which has no UTF-8 form: V8 would
/// silently replace it with U+FFFD (and js-sha3 hashes something else again), so the round could not
/// be reproduced anywhere. Such strings are rejected with the core's `InvalidUtf8` error.
fn text(value: StringArg<'_>, argument: &str) -> Converted<String> {
    text_in(value, argument, argument)
}

/// [`text`] of a part of an argument (`record.clientSeed`): `label` leads the messages.
fn text_in(value: StringArg<'_>, argument: &str, label: &str) -> Converted<String> {
    let string = match value {
        Either::A(string) => string,
        Either::B(other) => return Err(Failure::wrong_type(argument, label, "a string", type_name(&other))),
    };
    let internal = |e: napi::Error| Failure::plain("FAIRMINES_INTERNAL", format!("{label}: {e}"));
    let utf8 = string.into_utf8().map_err(internal)?.into_owned().map_err(internal)?;
    if !utf8.contains('\u{FFFD}') {
        return Ok(utf8);
    }
    // A U+FFFD may be real or a replaced lone surrogate: only the UTF-16 form tells.
    let units = string.into_utf16().map_err(internal)?;
    // `as_str` drops the terminating NUL napi writes and fails only on unpaired surrogates.
    units.as_str().map_err(|_| Failure::core_in(fairmines::Error::InvalidUtf8 { argument: "text" }, argument, label))
}

const NONCE_RULE: &str =
    "must be a safe integer in 0..=9007199254740991 (2^53 - 1) or a bigint in 0..=18446744073709551615 (2^64 - 1)";

/// A nonce: a safe non-negative integer `number`, or a `bigint` in 0..2^64. `label` names it in
/// messages (`nonce`, `nonces[7]`).
fn nonce(value: NonceArg<'_>, argument: &str, label: &str) -> Converted<u64> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    match value {
        Either3::A(x) => {
            if x.is_finite() && x.fract() == 0.0 && (0.0..=MAX_SAFE).contains(&x) {
                Ok(x as u64)
            } else {
                Err(Failure::range(&INVALID_NONCE, argument, label, &format!("{NONCE_RULE}, got {}", js_number(x))))
            }
        }
        Either3::B(big) => {
            let magnitude_fits = big.words.iter().skip(1).all(|&w| w == 0);
            let low = big.words.first().copied().unwrap_or(0);
            let negative = big.sign_bit && big.words.iter().any(|&w| w != 0);
            if magnitude_fits && !negative {
                Ok(low)
            } else {
                let shown = if negative { "a negative bigint" } else { "a bigint of 2^64 or more" };
                Err(Failure::range(&INVALID_NONCE, argument, label, &format!("{NONCE_RULE}, got {shown}")))
            }
        }
        Either3::C(other) => Err(Failure::wrong_type(argument, label, "a number or a bigint", type_name(&other))),
    }
}

/// A mine count: a `number` that is an integer in 1..=24.
fn mines(value: NumberArg<'_>) -> Converted<MineCount> {
    match value {
        Either::A(x) if x.is_finite() && x.fract() == 0.0 => {
            // Saturating: anything this large is out of range anyway, and the message shows it.
            MineCount::try_from(x as i128).map_err(Failure::core)
        }
        Either::A(x) => Err(Failure::range(
            &INVALID_MINES,
            "mines",
            "mines",
            &format!("must be an integer in 1..=24, got {}", js_number(x)),
        )),
        Either::B(other) => Err(Failure::wrong_type("mines", "mines", "a number", type_name(&other))),
    }
}

/// Owned nonces of a batch.
fn nonce_list(value: Either3<BigUint64Array, Array<'_>, Unknown<'_>>) -> Converted<Vec<u64>> {
    match value {
        Either3::A(typed) => Ok(typed.to_vec()),
        Either3::B(array) => {
            let len = array.len();
            let mut out = Vec::new();
            out.try_reserve_exact(len as usize).map_err(|_| out_of_memory())?;
            for i in 0..len {
                let label = || format!("nonces[{i}]");
                let element = array
                    .get::<NonceArg<'_>>(i)
                    .map_err(|e| Failure::plain("FAIRMINES_INTERNAL", format!("{}: {e}", label())))?;
                let element = match element {
                    Some(element) => element,
                    None => return Err(Failure::range(&INVALID_NONCE, "nonces", &label(), "is missing")),
                };
                out.push(nonce(element, "nonces", &label())?);
            }
            Ok(out)
        }
        Either3::C(other) => Err(Failure::wrong_type(
            "nonces",
            "nonces",
            "a BigUint64Array or an array of numbers and bigints",
            type_name(&other),
        )),
    }
}

/// Refuses an own enumerable string key of `object` that is not in `known`: a misspelt optional field
/// (`commitmnet`) would otherwise be ignored, and the check it meant to ask for silently not made.
/// `argument` is the parameter; the message names the key (`round.commitmnet: …`).
fn known_keys(object: &Object<'_>, argument: &str, what: &str, known: &[&str]) -> Converted<()> {
    let fail = |e: napi::Error| Failure::plain("FAIRMINES_INTERNAL", format!("{argument}: {e}"));
    let keys = object
        .get_all_property_names(KeyCollectionMode::OwnOnly, KeyFilter::Enumerable, KeyConversion::NumbersToStrings)
        .map_err(fail)?;
    for i in 0..keys.get_array_length().map_err(fail)? {
        // Symbol keys come back as symbols: not fields, skipped (as `Object.keys` skips them).
        let Either::A(key) = keys.get_element::<Either<JsString<'_>, Unknown<'_>>>(i).map_err(fail)? else { continue };
        let key = key.into_utf8().and_then(|k| k.into_owned()).map_err(fail)?;
        if !known.contains(&key.as_str()) {
            return Err(Failure::unknown_field(argument, &key, what, known));
        }
    }
    Ok(())
}

fn out_of_memory() -> Failure {
    Failure::plain("ERR_MEMORY_ALLOCATION_FAILED", "out: not enough memory for the result".to_owned())
}

/// The rows of a batch: `nonces.len() × mines` bytes of sorted 1-based positions.
fn run_batch(server_seed: &str, client_seed: &str, nonces: &[u64], mines: MineCount) -> Converted<Vec<u8>> {
    let size = nonces.len().checked_mul(usize::from(mines.get())).ok_or_else(out_of_memory)?;
    let mut out = Vec::new();
    out.try_reserve_exact(size).map_err(|_| out_of_memory())?;
    out.resize(size, 0);
    fairmines::mine_positions_batch(server_seed, client_seed, Nonces::List(nonces), mines, &mut out)
        .map_err(Failure::core)?;
    Ok(out)
}

// ---------------------------------------------------------------------------------------------------
// Exports
// ---------------------------------------------------------------------------------------------------

/// Runs when the module is loaded, once per environment (the main thread, each worker). napi-rs keeps
/// a single `module_exports` hook per addon (a second one silently replaces the first), so every
/// setup step is called from here.
#[napi(module_exports)]
pub fn init(exports: Object<'_>, env: Env) -> Result<()> {
    game::install_inspect(&exports, &env)?;
    install_tile_list(&env)
}

/// The commitment to a server seed: SHA3-256 of its UTF-8 text, as 64 lowercase hex characters.
///
/// This is what the operator shows before play; once the seed is revealed, anyone can recompute it.
///
/// @param serverSeed - the server seed (any string; generated seeds are 64 hex characters)
/// @throws {TypeError} `serverSeed` is not a string
/// @throws {RangeError} `serverSeed` holds a lone surrogate (`code: 'FAIRMINES_INVALID_UTF8'`)
#[napi(catch_unwind, ts_args_type = "serverSeed: string", ts_return_type = "string")]
pub fn commitment(env: Env, server_seed: StringArg<'_>) -> Result<String> {
    guard(&env, || Ok(fairmines::commitment(&text(server_seed, "serverSeed")?).to_string()))
}

/// The round signature: SHA3-256 of `serverSeed + ":" + clientSeed + ":" + nonce`, as 64 lowercase
/// hex characters.
///
/// @param nonce - a safe non-negative integer `number` (≤ 2^53 − 1), or a `bigint` in 0..2^64 − 1
/// @throws {TypeError} a seed is not a string, or `nonce` is neither a number nor a bigint
/// @throws {RangeError} `nonce` is out of range or not an integer (`code: 'FAIRMINES_INVALID_NONCE'`)
#[napi(
    catch_unwind,
    ts_args_type = "serverSeed: string, clientSeed: string, nonce: number | bigint",
    ts_return_type = "string"
)]
pub fn round_signature(
    env: Env,
    server_seed: StringArg<'_>,
    client_seed: StringArg<'_>,
    nonce: NonceArg<'_>,
) -> Result<String> {
    guard(&env, || {
        let server = text(server_seed, "serverSeed")?;
        let client = text(client_seed, "clientSeed")?;
        let nonce = self::nonce(nonce, "nonce", "nonce")?;
        Ok(fairmines::round_signature(&server, &client, nonce).to_string())
    })
}

/// The mine positions of a round: sorted, 1-based (1 = top-left, 5 = top-right, 25 = bottom-right).
///
/// @param mines - an integer in 1..=24
/// @throws {TypeError} an argument has the wrong type
/// @throws {RangeError} `nonce` or `mines` is out of range (`code: 'FAIRMINES_INVALID_NONCE'` /
/// `'FAIRMINES_INVALID_MINES'`)
#[napi(
    catch_unwind,
    ts_args_type = "serverSeed: string, clientSeed: string, nonce: number | bigint, mines: number",
    ts_return_type = "number[]"
)]
pub fn mine_positions<'env>(
    env: &'env Env,
    server_seed: StringArg<'_>,
    client_seed: StringArg<'_>,
    nonce: NonceArg<'_>,
    mines: NumberArg<'_>,
) -> Result<Unknown<'env>> {
    let tiles = guard(env, || {
        let (server, client, nonce, mines) = round_args(server_seed, client_seed, nonce, mines)?;
        Ok(fairmines::placement(&server, &client, nonce, mines).positions())
    })?;
    tile_list_array(env, &tiles)
}

/// The tile indices of a round in the order they were drawn: 0-based, unsorted.
///
/// @throws {TypeError} an argument has the wrong type
/// @throws {RangeError} `nonce` or `mines` is out of range
#[napi(
    catch_unwind,
    ts_args_type = "serverSeed: string, clientSeed: string, nonce: number | bigint, mines: number",
    ts_return_type = "number[]"
)]
pub fn draw_order(
    env: Env,
    server_seed: StringArg<'_>,
    client_seed: StringArg<'_>,
    nonce: NonceArg<'_>,
    mines: NumberArg<'_>,
) -> Result<Vec<u8>> {
    guard(&env, || {
        let (server, client, nonce, mines) = round_args(server_seed, client_seed, nonce, mines)?;
        Ok(fairmines::placement(&server, &client, nonce, mines).draw_order().to_vec())
    })
}

// ---------------------------------------------------------------------------------------------------
// Tile lists
// ---------------------------------------------------------------------------------------------------

/// Builds a `number[]` of sorted 1-based tiles from a 25-bit mask (bit `t - 1` set: tile `t`).
///
/// Returning a `Vec` makes napi-rs fill the array with two Node-API calls per element (about 100 ns
/// an element, 2.4 µs of a 24-mine call); one call into this function costs about what three
/// elements did. Plain indexed stores, as `napi_set_element` did: no dependence on
/// `Array.prototype.push`, which user code may replace.
const TILE_LIST_JS: &str = "(function tileList(mask) {
  'use strict';
  const tiles = [];
  let n = 0;
  for (let tile = 1; mask !== 0; tile++, mask >>>= 1) if ((mask & 1) !== 0) tiles[n++] = tile;
  return tiles;
})";

/// The compiled [`TILE_LIST_JS`] of one environment (main thread or worker), kept in its instance
/// data. The return type says `'static` only because a `FunctionRef`'s type cannot name the scope of
/// a later call; [`tile_list_array`] hands the value straight back to JavaScript.
struct TileList(FunctionRef<u32, Unknown<'static>>);

/// Compiles [`TILE_LIST_JS`] for this environment (called by [`init`]).
fn install_tile_list(env: &Env) -> Result<()> {
    let function: Function<'_, u32, Unknown<'static>> = env.run_script(TILE_LIST_JS)?;
    env.set_instance_data(TileList(function.create_ref()?), (), |_| {})
}

/// Sorted 1-based `tiles` as a JavaScript `number[]`, built in one call (see [`TILE_LIST_JS`]).
fn tile_list_array<'env>(env: &'env Env, tiles: &[u8]) -> Result<Unknown<'env>> {
    // Type conversion only: the tiles (1..=25) as the bits of a mask.
    let mask = tiles.iter().fold(0u32, |mask, &tile| mask | 1 << (tile - 1));
    let builder = env
        .get_instance_data::<TileList>()?
        .ok_or_else(|| napi::Error::new(Status::GenericFailure, "fairmines: the module was not initialised"))?;
    builder.0.borrow_back(env)?.call(mask)
}

fn round_args(
    server_seed: StringArg<'_>,
    client_seed: StringArg<'_>,
    nonce: NonceArg<'_>,
    mines: NumberArg<'_>,
) -> Converted<(String, String, u64, MineCount)> {
    Ok((
        text(server_seed, "serverSeed")?,
        text(client_seed, "clientSeed")?,
        self::nonce(nonce, "nonce", "nonce")?,
        self::mines(mines)?,
    ))
}

/// What the operator published about a finished round: the input of {@link verify}. Any other key is
/// refused (a `TypeError` naming it), so a misspelt `commitment` cannot silently skip its check.
#[napi(object, object_from_js = false)]
pub struct PublishedRound {
    /// The revealed server seed.
    pub server_seed: String,
    /// The player's client seed.
    pub client_seed: String,
    /// The round's nonce: a safe non-negative integer or a bigint.
    #[napi(ts_type = "number | bigint")]
    pub nonce: f64,
    /// The round's mine count, 1..=24.
    pub mines: u32,
    /// The declared mine positions (1-based); checked when given.
    pub positions: Option<Vec<u32>>,
    /// The commitment shown before play (64 hex characters, either case); checked when given.
    pub commitment: Option<String>,
}

/// The verdict on a round: everything recomputed from the seeds, and each check that was asked for.
#[napi(object, object_to_js = true)]
pub struct Verification {
    /// `true` when at least one check was asked for and every one holds (`verdict` is `'ok'`). With
    /// neither `commitment` nor `positions` given nothing was checked, and `ok` is `false`.
    pub ok: bool,
    /// `'ok'` (every check asked for holds), `'mismatch'` (one fails) or `'unchecked'` (no check was
    /// asked for: the round was only recomputed, nothing published was compared with it).
    #[napi(ts_type = "'ok' | 'mismatch' | 'unchecked'")]
    pub verdict: String,
    /// SHA3-256 of the revealed server seed (lowercase hex).
    pub commitment: String,
    /// The recomputed round signature (lowercase hex).
    pub signature: String,
    /// The recomputed mine positions: sorted, 1-based.
    pub positions: Vec<u8>,
    /// The recomputed draw order: 0-based, unsorted.
    pub draw_order: Vec<u8>,
    /// Whether the given commitment matches; `null` when no commitment was given.
    pub commitment_ok: Either<bool, Null>,
    /// Whether the declared positions match (in any order); `null` when no positions were given.
    pub positions_ok: Either<bool, Null>,
}

/// The fields of a [`PublishedRound`]: `verify` refuses any other key.
const PUBLISHED_FIELDS: [&str; 6] = ["serverSeed", "clientSeed", "nonce", "mines", "commitment", "positions"];

/// Recomputes a finished round from its seeds and checks it against what was published.
///
/// `commitment` and `positions` are optional: only what is given is checked, and with neither the
/// verdict is `'unchecked'` and `ok` is `false`. Declared positions may be in any order; duplicates
/// make the check fail.
///
/// @throws {TypeError} `round` is not an object, a field has the wrong type, or `round` has a key
/// that is not a field (`code: 'ERR_INVALID_ARG_TYPE'`, `argument: 'round'`, the message names the key:
/// `round.commitmnet: unknown field: …`)
/// @throws {RangeError} `nonce`/`mines` out of range, `commitment` not 64 hex characters
/// (`'FAIRMINES_INVALID_HEX'`), a position outside 1..=25 or more than 25 of them
/// (`'FAIRMINES_INVALID_TILE'`)
#[napi(catch_unwind, ts_args_type = "round: PublishedRound", ts_return_type = "Verification")]
pub fn verify(env: Env, round: Either<Object<'_>, Unknown<'_>>) -> Result<Verification> {
    guard(&env, || {
        let round = match round {
            Either::A(object) => object,
            Either::B(other) => return Err(Failure::wrong_type("round", "round", "an object", type_name(&other))),
        };
        known_keys(&round, "round", "a published round", &PUBLISHED_FIELDS)?;
        let server = text(required(&round, "serverSeed", "a string")?, "serverSeed")?;
        let client = text(required(&round, "clientSeed", "a string")?, "clientSeed")?;
        let nonce = nonce(required(&round, "nonce", "a number or a bigint")?, "nonce", "nonce")?;
        let mines = mines(required(&round, "mines", "a number")?)?.get();
        let commitment = match round.get::<StringArg<'_>>("commitment").map_err(internal("commitment"))? {
            None => None,
            Some(Either::B(other)) if other.get_type().ok() == Some(ValueType::Null) => None,
            Some(value) => Some(text(value, "commitment")?),
        };
        let positions = match round
            .get::<Either3<Array<'_>, Null, Unknown<'_>>>("positions")
            .map_err(internal("positions"))?
        {
            None | Some(Either3::B(_)) => None,
            Some(Either3::A(array)) => Some(tile_list(&array)?),
            Some(Either3::C(other)) => {
                return Err(Failure::wrong_type("positions", "positions", "an array of numbers", type_name(&other)));
            }
        };
        let published =
            Published::parse(&server, &client, nonce, i128::from(mines), commitment.as_deref(), positions.as_deref())
                .map_err(Failure::core)?;
        let checked = fairmines::verify(&published);
        let flag = |check: Option<bool>| match check {
            Some(ok) => Either::A(ok),
            None => Either::B(Null),
        };
        Ok(Verification {
            ok: checked.is_ok(),
            verdict: checked.verdict().as_str().to_owned(),
            commitment: checked.commitment.to_string(),
            signature: checked.signature.to_string(),
            positions: checked.placement.positions().to_vec(),
            draw_order: checked.placement.draw_order().to_vec(),
            commitment_ok: flag(checked.commitment_ok()),
            positions_ok: flag(checked.positions_ok()),
        })
    })
}

fn internal(argument: &'static str) -> impl Fn(napi::Error) -> Failure {
    move |e| Failure::plain("FAIRMINES_INTERNAL", format!("{argument}: {e}"))
}

/// A required field of `round`; a missing (`undefined`) one is a `TypeError`.
fn required<T>(round: &Object<'_>, name: &'static str, expected: &str) -> Converted<T>
where
    T: napi::bindgen_prelude::FromNapiValue,
{
    round.get::<T>(name).map_err(internal(name))?.ok_or_else(|| Failure::wrong_type(name, name, expected, "undefined"))
}

/// Declared positions: an array whose elements are integer numbers (range is the core's check).
fn tile_list(array: &Array<'_>) -> Converted<Vec<i128>> {
    let len = array.len();
    let mut out = Vec::with_capacity(len.min(26) as usize);
    for i in 0..len {
        let label = format!("positions[{i}]");
        match array.get::<NumberArg<'_>>(i).map_err(internal("positions"))? {
            Some(Either::A(x)) if x.is_finite() && x.fract() == 0.0 => out.push(x as i128),
            Some(Either::A(x)) => {
                return Err(Failure::range(
                    &INVALID_TILE,
                    "positions",
                    &label,
                    &format!("must be an integer in 1..=25, got {}", js_number(x)),
                ));
            }
            Some(Either::B(other)) => {
                return Err(Failure::wrong_type("positions", &label, "a number", type_name(&other)));
            }
            None => return Err(Failure::range(&INVALID_TILE, "positions", &label, "is missing")),
        }
        if out.len() > 25 {
            // The core rejects more than 25 tiles; stop reading a huge array early.
            break;
        }
    }
    Ok(out)
}

/// A fresh server seed from the operating system's CSPRNG (32 bytes as 64 lowercase hex
/// characters), with its commitment.
///
/// Publish `commitment` before play and `serverSeed` only once the seed pair is rotated out.
/// `console.log`/`util.inspect` of the result show the commitment only.
///
/// @throws {Error} the OS random number generator failed (`code: 'FAIRMINES_RNG'`)
#[napi(catch_unwind, ts_return_type = "{ serverSeed: string, commitment: string }")]
pub fn generate_server_seed(env: &Env) -> Result<Object<'_>> {
    let seed = guard(env, || fairmines::ServerSeed::generate().map_err(Failure::core))?;
    let commitment = seed.commitment().to_string();
    let mut object = Object::new(env)?;
    object.set_named_property("serverSeed", seed.reveal())?;
    object.set_named_property("commitment", commitment.as_str())?;
    // util.inspect (console.log) honours this symbol: show the commitment, hide the seed.
    let shown = format!("{{ serverSeed: '<hidden>', commitment: '{commitment}' }}");
    let inspect = env.create_function_from_closure::<(), _, _>("inspect", move |_| Ok(shown.clone()))?;
    let key = env.symbol_for("nodejs.util.inspect.custom")?;
    object.define_properties(&[Property::new()
        .with_name(env, key)?
        .with_value(&inspect)
        .with_property_attributes(PropertyAttributes::Configurable)])?;
    Ok(object)
}

/// The mine positions of many rounds of one seed pair, computed on every core (this call blocks the
/// event loop until they are done; see {@link minePositionsBatchAsync}).
///
/// Returns `nonces.length × mines` bytes, row-major: row `i` holds the sorted 1-based positions of
/// the round with `nonces[i]`.
///
/// @param nonces - a `BigUint64Array`, or an array of nonces (safe integers or bigints)
/// @throws {TypeError} an argument has the wrong type
/// @throws {RangeError} a nonce or `mines` is out of range (`argument: 'nonces'` names the array,
/// the message names the element)
#[napi(
    catch_unwind,
    ts_args_type = "serverSeed: string, clientSeed: string, nonces: BigUint64Array | Array<number | bigint>, mines: number",
    ts_return_type = "Uint8Array"
)]
pub fn mine_positions_batch(
    env: Env,
    server_seed: StringArg<'_>,
    client_seed: StringArg<'_>,
    nonces: Either3<BigUint64Array, Array<'_>, Unknown<'_>>,
    mines: NumberArg<'_>,
) -> Result<Uint8Array> {
    let rows = guard(&env, || {
        let server = text(server_seed, "serverSeed")?;
        let client = text(client_seed, "clientSeed")?;
        let nonces = nonce_list(nonces)?;
        let mines = self::mines(mines)?;
        run_batch(&server, &client, &nonces, mines)
    })?;
    Ok(Uint8Array::new(rows))
}

/// The work of {@link minePositionsBatchAsync}: runs on the libuv thread pool.
pub struct BatchTask {
    input: Option<(String, String, Vec<u64>, MineCount)>,
    failure: Option<Failure>,
}

impl Task for BatchTask {
    type Output = Vec<u8>;
    type JsValue = Uint8Array;

    fn compute(&mut self) -> Result<Vec<u8>> {
        let outcome = match &self.input {
            Some((server, client, nonces, mines)) => contain(|| run_batch(server, client, nonces, *mines)),
            None => return Err(napi::Error::from_reason("rejected before it started")),
        };
        outcome.map_err(|failure| {
            self.failure = Some(failure);
            napi::Error::from_reason("failed")
        })
    }

    fn resolve(&mut self, _env: Env, rows: Vec<u8>) -> Result<Uint8Array> {
        Ok(Uint8Array::new(rows))
    }

    fn reject(&mut self, env: Env, error: napi::Error) -> Result<Uint8Array> {
        match self.failure.take() {
            Some(failure) => Err(failure.into_napi(&env)),
            None => Err(error),
        }
    }
}

/// {@link minePositionsBatch} as a Promise: the rounds are computed on the libuv thread pool (and
/// from there on every core), so the event loop keeps running meanwhile. The nonces are copied when
/// the call is made.
///
/// Bad arguments reject the Promise (with the same `TypeError`/`RangeError` as the sync form); the
/// call itself never throws.
#[napi(
    catch_unwind,
    ts_args_type = "serverSeed: string, clientSeed: string, nonces: BigUint64Array | Array<number | bigint>, mines: number",
    ts_return_type = "Promise<Uint8Array>"
)]
pub fn mine_positions_batch_async(
    server_seed: StringArg<'_>,
    client_seed: StringArg<'_>,
    nonces: Either3<BigUint64Array, Array<'_>, Unknown<'_>>,
    mines: NumberArg<'_>,
) -> AsyncTask<BatchTask> {
    let input = contain(|| {
        Ok((
            text(server_seed, "serverSeed")?,
            text(client_seed, "clientSeed")?,
            nonce_list(nonces)?,
            self::mines(mines)?,
        ))
    });
    AsyncTask::new(match input {
        Ok(input) => BatchTask { input: Some(input), failure: None },
        Err(failure) => BatchTask { input: None, failure: Some(failure) },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_failure_not_an_abort() {
        let failure = contain::<()>(|| panic!("boom {}", 7)).unwrap_err();
        assert_eq!(failure.code, "FAIRMINES_PANIC");
        assert!(failure.message.contains("boom 7"), "{}", failure.message);
        let failure = contain::<()>(|| std::panic::panic_any(42_u8)).unwrap_err();
        assert_eq!(failure.code, "FAIRMINES_PANIC");
    }

    #[test]
    fn core_errors_keep_their_code_argument_and_message() {
        let error = fairmines::MineCount::new(25).unwrap_err();
        let failure = Failure::core(error.clone());
        assert!(matches!(failure.class, Class::Range));
        assert_eq!(failure.errno, Some(error.code()));
        assert_eq!(failure.code, "FAIRMINES_INVALID_MINES");
        assert_eq!(failure.argument.as_deref(), Some("mines"));
        assert_eq!(failure.message, error.to_string());
    }

    #[test]
    fn core_argument_names_are_spelled_as_in_javascript() {
        assert_eq!(camel("server_seed"), "serverSeed");
        assert_eq!(camel("safe_picks"), "safePicks");
        assert_eq!(camel("mines"), "mines");
        let error = fairmines::ServerSeed::from_hex("xyz").unwrap_err();
        let failure = Failure::core(error);
        assert_eq!(failure.argument.as_deref(), Some("serverSeed"));
        assert!(failure.message.starts_with("serverSeed: must be 64"), "{}", failure.message);
        let failure = Failure::core_in(
            fairmines::Error::InvalidTile { argument: "picks", detail: "x".into() },
            "record",
            "record.picks",
        );
        assert_eq!((failure.argument.as_deref(), failure.message.as_str()), (Some("record"), "record.picks: x"));
    }

    #[test]
    fn codes_come_from_the_core_names_and_errors_without_an_argument_are_plain() {
        let plain = [
            fairmines::Error::RoundFinished,
            fairmines::Error::NothingToCashOut,
            fairmines::Error::Rng { detail: "x".into() },
            fairmines::Error::RoundsInPlay { nonces: vec![5, 7] },
            fairmines::Error::RoundVoided,
        ];
        for error in plain {
            let failure = Failure::core(error.clone());
            assert!(matches!(failure.class, Class::Plain), "{error:?}");
            assert_eq!(failure.code, format!("FAIRMINES_{}", error.name()));
            assert_eq!(failure.errno, Some(error.code()));
            assert_eq!(failure.message, error.to_string(), "the core's message, unchanged");
        }
        assert_eq!(Failure::core(fairmines::Error::RoundFinished).code, "FAIRMINES_ROUND_FINISHED");
        let in_play = Failure::core(fairmines::Error::RoundsInPlay { nonces: vec![5] });
        assert_eq!((in_play.code.as_str(), in_play.errno), ("FAIRMINES_ROUNDS_IN_PLAY", Some(16)));
        let voided = Failure::core(fairmines::Error::RoundVoided);
        assert_eq!((voided.code.as_str(), voided.errno), ("FAIRMINES_ROUND_VOIDED", Some(17)));
        for (kind, code) in [
            (INVALID_MINES, 1),
            (INVALID_NONCE, 2),
            (INVALID_TILE, 3),
            (INVALID_PICKS, 13),
            (INVALID_NUMBER, 14),
            (INVALID_STATE, 15),
        ] {
            let failure = Failure::range(&kind, "a", "a", "b");
            assert_eq!((failure.errno, failure.code), (Some(code), format!("FAIRMINES_{}", kind.name())));
        }
    }

    #[test]
    fn batches_match_single_rounds() {
        let mines = MineCount::new(4).unwrap();
        let rows = run_batch("s", "c", &[0, 5, u64::MAX], mines).unwrap();
        for (row, nonce) in rows.chunks(4).zip([0, 5, u64::MAX]) {
            assert_eq!(row, &*fairmines::mine_positions("s", "c", nonce, 4).unwrap());
        }
    }
}
