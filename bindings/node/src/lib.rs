//! Node.js bindings of the `fairmines` core (napi-rs): conversion of values and errors only; every rule,
//! message and error kind is the core's. Strings are hashed as UTF-8 (a lone surrogate is the core's
//! `InvalidUtf8`); a `number` goes to the core as [`Number::Float`], a `bigint` as [`Number::Int`] (or
//! `Huge`), and the core's rules judge them. Errors are `fairmines_js_errors::Failure`s (the model this package
//! shares with the WebAssembly one: `TypeError`, `RangeError` or `Error`, `code`, `errno`, `argument`,
//! `label: ` + the core's detail), made JavaScript errors here. The game is in [`game`], records in [`record`].
#![deny(unsafe_code)]

use std::panic::{AssertUnwindSafe, catch_unwind};

use fairmines::{MineCount, Number, Published};
use fairmines_js_errors::{Class, Converted, Failure, NUMBER, TILES, code};
use napi::bindgen_prelude::{
    Array, BigInt, BigUint64Array, Either, Either3, Env, Float64Array, FnArgs, FromNapiValue, Function, FunctionRef,
    JsObjectValue, JsValue, JsValuesTupleIntoVec, KeyCollectionMode, KeyConversion, KeyFilter, Null, Object, Result,
    Status, ToNapiValue, TypeName, Uint8Array, Unknown, ValidateNapiValue,
};
use napi::{JsRangeError, JsString, JsTypeError, sys::napi_value};
use napi_derive::napi;

pub mod batch;
pub mod game;
pub mod ratio;
pub mod record;

/// The JavaScript error object of a [`Failure`] (the model shared with the WebAssembly binding).
trait Throw {
    /// The JavaScript error object, in a `napi::Error` that napi-rs throws (or rejects with) verbatim; if it
    /// cannot be built (the environment is shutting down), napi-rs's own error with the message.
    fn into_napi(self, env: &Env) -> napi::Error;
}

impl Throw for Failure {
    fn into_napi(self, env: &Env) -> napi::Error {
        build(&self, env).unwrap_or_else(|_| napi::Error::new(Status::GenericFailure, self.message))
    }
}

fn build(failure: &Failure, env: &Env) -> Result<napi::Error> {
    let base = napi::Error::new(failure.code.clone(), failure.message.clone());
    let value = match failure.class {
        Class::Type => JsTypeError::from(base).into_unknown(*env),
        Class::Range => JsRangeError::from(base).into_unknown(*env),
        Class::Plain => napi::JsError::from(base).into_unknown(*env),
    };
    let mut object = value.coerce_to_object()?;
    if let Some(errno) = failure.errno {
        object.set_named_property("errno", errno)?;
    }
    if let Some(argument) = &failure.argument {
        object.set_named_property("argument", argument.as_str())?;
    }
    Ok(napi::Error::from_unknown_without_coercion(value))
}

fn internal(label: &str) -> impl Fn(napi::Error) -> Failure + '_ {
    move |e| Failure::plain("FAIRMINES_INTERNAL", format!("{label}: {e}"))
}

/// The `typeof` of a value, for messages (`undefined`, `bigint`, …).
fn type_name(value: &Unknown<'_>) -> String {
    value.get_type().map_or("a value of unknown type".to_owned(), |t| format!("{t:?}").to_lowercase())
}

/// Runs `body` inside a panic boundary.
fn contain<T>(body: impl FnOnce() -> Converted<T>) -> Converted<T> {
    catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|payload| Err(Failure::from_panic(payload.as_ref())))
}

fn guard<T>(env: &Env, body: impl FnOnce() -> Converted<T>) -> Result<T> {
    contain(body).map_err(|failure| failure.into_napi(env))
}

/// One kind of error the core reports, as this package throws it.
#[napi(object, object_from_js = false)]
pub struct ErrorKind {
    /// The error's `code`: `'FAIRMINES_'` and the core's name of the kind (`'FAIRMINES_INVALID_MINES'`).
    pub code: String,
    /// The error's `errno`: the core's stable number of the kind (1, 2, …).
    pub errno: u32,
    /// What the kind means, in one sentence.
    pub summary: String,
}

/// Every kind of error the core reports, in `errno` order (the core's `ErrorKind::ALL`).
#[napi(ts_return_type = "ErrorKind[]")]
pub fn error_kinds() -> Vec<ErrorKind> {
    fairmines::ErrorKind::ALL
        .into_iter()
        .map(|kind| ErrorKind { code: code(kind), errno: kind.code(), summary: kind.summary().to_owned() })
        .collect()
}

/// A `string` argument, or anything else (a `TypeError`).
type StringArg<'env> = Either<JsString<'env>, Unknown<'env>>;
/// A `number` or `bigint` argument, or anything else (a `TypeError`).
type NumberArg<'env> = Either3<f64, BigInt, Unknown<'env>>;
/// An object argument, or anything else (a `TypeError`).
type ObjectArg<'env> = Either<Object<'env>, Unknown<'env>>;

/// The string's UTF-8 text; a lone surrogate (no UTF-8 form, V8 would put U+FFFD) is the core's `InvalidUtf8`.
fn text(value: StringArg, argument: &'static str) -> Converted<String> {
    text_in(value, argument, argument)
}

/// [`text`] of a part of an argument (`record.clientSeed`).
fn text_in(value: StringArg, argument: &str, label: &'static str) -> Converted<String> {
    let string = match value {
        Either::A(string) => string,
        Either::B(other) => return Err(Failure::wrong_type(argument, label, "a string", &type_name(&other))),
    };
    let utf8 = string.into_utf8().map_err(internal(label))?.into_owned().map_err(internal(label))?;
    if !utf8.contains('\u{FFFD}') {
        return Ok(utf8);
    }
    // A U+FFFD may be real or a replaced lone surrogate: the UTF-16 form tells (`as_str` drops napi's NUL).
    let units = string.into_utf16().map_err(internal(label))?;
    units.as_str().map_err(|_| Failure::at(fairmines::Error::InvalidUtf8 { argument: label }, argument, label))
}

/// A `number` or `bigint` as the core's [`Number`]; else a `TypeError` about `label` (made only then).
fn number_in(value: Option<NumberArg>, argument: &str, label: impl Fn() -> String) -> Converted<Number> {
    match value {
        Some(Either3::A(x)) => Ok(Number::Float(x)),
        Some(Either3::B(big)) => Ok(bigint(&big)),
        Some(Either3::C(other)) => Err(Failure::wrong_type(argument, &label(), NUMBER, &type_name(&other))),
        None => Err(Failure::wrong_type(argument, &label(), NUMBER, "undefined")),
    }
}

fn number(value: NumberArg, argument: &str, label: &str) -> Converted<Number> {
    number_in(Some(value), argument, || label.to_owned())
}

/// A `bigint` as a [`Number`], from its sign and its 64-bit words.
fn bigint(big: &BigInt) -> Number {
    let low = |i: usize| u128::from(big.words.get(i).copied().unwrap_or(0));
    let fits = big.words.iter().skip(2).all(|&w| w == 0);
    Number::from_sign_magnitude(big.sign_bit, fits.then(|| low(0) | low(1) << 64))
}

/// Tiles: an array of numbers or a `Uint8Array` (a batch's row), or anything else (a `TypeError`).
type TilesArg<'env> = Either3<Array<'env>, Uint8Array, Unknown<'env>>;

/// The numbers of a list of tiles; at most 26, one more than a board has, are read for the core to judge.
fn tiles(value: TilesArg, argument: &str, label: &str) -> Converted<Vec<Number>> {
    let array = match value {
        Either3::A(array) => array,
        Either3::B(bytes) => return Ok(bytes.iter().take(26).map(|&tile| Number::from(tile)).collect()),
        Either3::C(other) => return Err(Failure::wrong_type(argument, label, TILES, &type_name(&other))),
    };
    (0..array.len().min(26))
        .map(|i| {
            let element = || format!("{label}[{i}]");
            number_in(array.get::<NumberArg>(i).map_err(|e| internal(&element())(e))?, argument, element)
        })
        .collect()
}

fn object<'env>(value: ObjectArg<'env>, argument: &str) -> Converted<Object<'env>> {
    match value {
        Either::A(object) => Ok(object),
        Either::B(other) => Err(Failure::wrong_type(argument, argument, "an object", &type_name(&other))),
    }
}

/// A required field `name` of the object `argument` (or of `verify`'s round: then `name` is the argument).
fn member<T: FromNapiValue>(object: &Object<'_>, argument: &str, name: &str, expected: &str) -> Converted<T> {
    let label = || if argument == name { name.to_owned() } else { format!("{argument}.{name}") };
    let value = object.get::<T>(name).map_err(|e| internal(&label())(e))?;
    value.ok_or_else(|| Failure::wrong_type(argument, &label(), expected, "undefined"))
}

/// An optional field `name` of `object`: `null` and `undefined` both mean "not given".
fn optional<T: FromNapiValue + ValidateNapiValue + TypeName>(object: &Object<'_>, name: &str) -> Converted<Option<T>> {
    Ok(match object.get::<Either<Null, T>>(name).map_err(internal(name))? {
        None | Some(Either::A(Null)) => None,
        Some(Either::B(value)) => Some(value),
    })
}

/// Refuses an own enumerable key not in `known`: a misspelt optional field would skip its check silently.
fn known_keys(object: &Object<'_>, argument: &str, what: &str, known: &[&str]) -> Converted<()> {
    let fail = internal(argument);
    let keys = object
        .get_all_property_names(KeyCollectionMode::OwnOnly, KeyFilter::Enumerable, KeyConversion::NumbersToStrings)
        .map_err(&fail)?;
    for i in 0..keys.get_array_length().map_err(&fail)? {
        // Symbol keys are not fields (`Object.keys` skips them too).
        let Either::A(key) = keys.get_element::<Either<JsString<'_>, Unknown<'_>>>(i).map_err(&fail)? else { continue };
        let key = key.into_utf8().and_then(|k| k.into_owned()).map_err(&fail)?;
        if !known.contains(&key.as_str()) {
            return Err(Failure::unknown_field(argument, &key, what, known));
        }
    }
    Ok(())
}

fn nonce(value: NumberArg) -> Converted<u64> {
    fairmines::input::nonce(number(value, "nonce", "nonce")?).map_err(Failure::core)
}

fn mines(value: NumberArg) -> Converted<MineCount> {
    MineCount::try_from(number(value, "mines", "mines")?).map_err(Failure::core)
}

fn out_of_memory() -> Failure {
    Failure::plain("ERR_MEMORY_ALLOCATION_FAILED", "out: not enough memory for the result".to_owned())
}

/// Runs when the module is loaded, once per environment (main thread, each worker); napi-rs keeps one
/// `module_exports` hook per addon, so every setup step is called from here.
#[napi(module_exports)]
pub fn init(exports: Object<'_>, env: Env) -> Result<()> {
    install_helpers(&exports, &env)
}

/// The commitment to a server seed (any string): SHA3-256 of its UTF-8 text, as 64 lowercase hex
/// characters. The operator shows it before play; once the seed is revealed, anyone can recompute it.
/// @throws {TypeError} `serverSeed` is not a string
/// @throws {RangeError} `serverSeed` holds a lone surrogate (`code: 'FAIRMINES_INVALID_UTF8'`)
#[napi(catch_unwind, ts_args_type = "serverSeed: string", ts_return_type = "string")]
pub fn commitment(env: Env, server_seed: StringArg) -> Result<String> {
    guard(&env, || Ok(fairmines::commitment(&text(server_seed, "serverSeed")?).to_string()))
}

/// The round signature: SHA3-256 of `serverSeed + ":" + clientSeed + ":" + nonce`, as 64 lowercase
/// hex characters.
/// @param nonce - an integer in 0..=2^64 − 1: a `number` (exact up to 2^53 − 1) or a `bigint`
/// @throws {TypeError} a seed is not a string, or `nonce` is neither a number nor a bigint
/// @throws {RangeError} `nonce` is out of range or not an integer (`code: 'FAIRMINES_INVALID_NONCE'`)
#[napi(
    catch_unwind,
    ts_args_type = "serverSeed: string, clientSeed: string, nonce: number | bigint",
    ts_return_type = "string"
)]
pub fn round_signature(env: Env, server_seed: StringArg, client_seed: StringArg, nonce: NumberArg) -> Result<String> {
    guard(&env, || {
        let server = text(server_seed, "serverSeed")?;
        let client = text(client_seed, "clientSeed")?;
        Ok(fairmines::round_signature(&server, &client, self::nonce(nonce)?).to_string())
    })
}

/// The mine positions of a round: sorted, 1-based (1 = top-left, 5 = top-right, 25 = bottom-right).
/// @param mines - an integer in 1..=24
/// @throws {TypeError} an argument has the wrong type
/// @throws {RangeError} `nonce` or `mines` is out of range or not an integer
/// (`code: 'FAIRMINES_INVALID_NONCE'` / `'FAIRMINES_INVALID_MINES'`)
#[napi(
    catch_unwind,
    ts_args_type = "serverSeed: string, clientSeed: string, nonce: number | bigint, mines: number | bigint",
    ts_return_type = "number[]"
)]
pub fn mine_positions<'env>(
    env: &'env Env,
    server_seed: StringArg,
    client_seed: StringArg,
    nonce: NumberArg,
    mines: NumberArg,
) -> Result<Unknown<'env>> {
    let tiles = guard(env, || {
        let (server, client, nonce, mines) = round_args(server_seed, client_seed, nonce, mines)?;
        Ok(fairmines::placement(&server, &client, nonce, mines).positions())
    })?;
    tile_list_array(env, &tiles)
}

/// The tile indices of a round in the order they were drawn: 0-based, unsorted.
/// @throws {TypeError} an argument has the wrong type
/// @throws {RangeError} `nonce` or `mines` is out of range or not an integer
#[napi(
    catch_unwind,
    ts_args_type = "serverSeed: string, clientSeed: string, nonce: number | bigint, mines: number | bigint",
    ts_return_type = "number[]"
)]
pub fn draw_order(
    env: Env,
    server_seed: StringArg,
    client_seed: StringArg,
    nonce: NumberArg,
    mines: NumberArg,
) -> Result<Vec<u8>> {
    guard(&env, || {
        let (server, client, nonce, mines) = round_args(server_seed, client_seed, nonce, mines)?;
        Ok(fairmines::placement(&server, &client, nonce, mines).draw_order().to_vec())
    })
}

fn round_args(
    server_seed: StringArg,
    client_seed: StringArg,
    nonce: NumberArg,
    mines: NumberArg,
) -> Converted<(String, String, u64, MineCount)> {
    Ok((text(server_seed, "serverSeed")?, text(client_seed, "clientSeed")?, self::nonce(nonce)?, self::mines(mines)?))
}

/// The addon's JavaScript (the class Ratio, classes' inspection and JSON forms, and the helpers below), run by
/// [`init`].
const HELPERS_JS: &str = include_str!("helpers.js");

/// A reveal for helpers.js: `tile`, `safe`, `safePicks`, the multiplier's text, `finished`.
type RevealArgs = (u32, bool, u32, Option<String>, bool);

/// The compiled [`HELPERS_JS`] of one environment, in its instance data (`'static` only because a
/// `FunctionRef` cannot name a later call's scope; a value goes straight back to JavaScript).
struct Helpers {
    tile_list: FunctionRef<u32, Unknown<'static>>,
    numbers: FunctionRef<napi_value, Either3<Float64Array, BigUint64Array, Null>>,
    with_json: FunctionRef<napi_value, Unknown<'static>>,
    record_with_json: FunctionRef<napi_value, Unknown<'static>>,
    hide_seed: FunctionRef<napi_value, Unknown<'static>>,
    ratio: FunctionRef<String, Unknown<'static>>,
    ratio_text: FunctionRef<napi_value, Option<String>>,
    reveal: FunctionRef<FnArgs<RevealArgs>, Unknown<'static>>,
    abortable: FunctionRef<FnArgs<(napi_value, napi_value, napi_value)>, Unknown<'static>>,
}

fn install_helpers(exports: &Object<'_>, env: &Env) -> Result<()> {
    let setup = env.run_script::<_, Function<'_, FnArgs<(napi_value, napi_value)>, Object<'_>>>(HELPERS_JS)?;
    let js = setup.call((exports.raw(), ratio::natives(env)?.raw()).into())?;
    fn get<A: JsValuesTupleIntoVec, R: FromNapiValue>(js: &Object, name: &str) -> Result<FunctionRef<A, R>> {
        js.get_named_property::<Function<'_, A, R>>(name)?.create_ref()
    }
    let (tile_list, numbers, with_json) = (get(&js, "tileList")?, get(&js, "numbers")?, get(&js, "withJson")?);
    let (record_with_json, hide_seed, abortable) =
        (get(&js, "recordWithJson")?, get(&js, "hideSeed")?, get(&js, "abortable")?);
    let (ratio, ratio_text, reveal) = (get(&js, "ratio")?, get(&js, "ratioText")?, get(&js, "reveal")?);
    let helpers =
        Helpers { tile_list, numbers, with_json, record_with_json, hide_seed, ratio, ratio_text, reveal, abortable };
    env.set_instance_data(helpers, (), |_| {})
}

fn helpers(env: &Env) -> Result<&'static Helpers> {
    let helpers = env.get_instance_data::<Helpers>()?;
    helpers.map(|h| &*h).ok_or_else(|| napi::Error::new(Status::GenericFailure, "fairmines: not initialised"))
}

/// Sorted 1-based `tiles` as a JavaScript `number[]` (see [`HELPERS_JS`]).
fn tile_list_array<'env>(env: &'env Env, tiles: &[u8]) -> Result<Unknown<'env>> {
    let mask = tiles.iter().fold(0u32, |mask, &tile| mask | 1 << (tile - 1));
    helpers(env)?.tile_list.borrow_back(env)?.call(mask)
}

/// A `Ratio` (helpers.js's class) of the core's `text` of a fraction.
fn ratio_object(env: &Env, text: String) -> Result<Unknown<'_>> {
    helpers(env)?.ratio.borrow_back(env)?.call(text)
}

/// A reveal as the object of [`game::Reveal`], its multiplier a `Ratio`.
fn reveal_object(env: &Env, reveal: fairmines::Reveal) -> Result<Unknown<'_>> {
    let fairmines::Reveal { tile, safe, safe_picks, multiplier, finished } = reveal;
    let args = (u32::from(tile), safe, u32::from(safe_picks), multiplier.map(|m| m.to_string()), finished);
    helpers(env)?.reveal.borrow_back(env)?.call(args.into())
}

/// The text of `value` when it is a `Ratio`, else `None`.
fn ratio_text(env: &Env, value: &Unknown<'_>) -> Result<Option<String>> {
    helpers(env)?.ratio_text.borrow_back(env)?.call(value.raw())
}

/// `value` (an object or array holding bigints) with a `toJSON` that writes them in decimal.
fn with_json<T: ToNapiValue>(env: &Env, value: T) -> Result<Unknown<'_>> {
    helpers(env)?.with_json.borrow_back(env)?.call(value.into_unknown(env)?.raw())
}

/// A round record with a `toJSON` that writes the core's record JSON (see [`HELPERS_JS`]).
fn record_with_json<'env>(env: &'env Env, record: record::RoundRecord) -> Result<Unknown<'env>> {
    helpers(env)?.record_with_json.borrow_back(env)?.call(record.into_unknown(env)?.raw())
}

/// What the operator published about a finished round: the input of {@link verify} (no other key).
#[napi(object, object_from_js = false)]
pub struct PublishedRound {
    pub server_seed: String,
    pub client_seed: String,
    /// The round's nonce, 0..=2^64 − 1.
    #[napi(ts_type = "number | bigint")]
    pub nonce: f64,
    /// The round's mine count, 1..=24.
    #[napi(ts_type = "number | bigint")]
    pub mines: f64,
    /// The commitment shown before play (64 hex characters, either case); checked when given.
    #[napi(ts_type = "string | null")]
    pub commitment: Option<String>,
    /// The declared mine positions (1-based, in any order; a row of a batch too); checked when given.
    #[napi(ts_type = "ReadonlyArray<number | bigint> | Uint8Array | null")]
    pub positions: Option<Vec<u32>>,
}

/// The verdict on a round: everything recomputed from the seeds, and each check that was asked for.
#[napi(object, object_to_js = true)]
pub struct Verification {
    /// SHA3-256 of the revealed server seed (lowercase hex).
    pub commitment: String,
    /// The recomputed round signature (lowercase hex).
    pub signature: String,
    /// The recomputed mine positions: sorted, 1-based.
    pub positions: Vec<u8>,
    /// The recomputed draw order: 0-based, unsorted.
    pub draw_order: Vec<u8>,
    /// The 32-bit words of the SHAKE256 stream the placement read (more than `mines` after a rejection).
    pub words_used: u32,
    /// Whether the given commitment matches; `null` when no commitment was given.
    pub commitment_ok: Either<bool, Null>,
    /// Whether the declared positions match (in any order); `null` when no positions were given.
    pub positions_ok: Either<bool, Null>,
    /// `'ok'` (every check asked for holds), `'mismatch'` (one fails) or `'unchecked'` (none was asked for).
    #[napi(ts_type = "'ok' | 'mismatch' | 'unchecked'")]
    pub verdict: String,
    /// `true` when at least one check was asked for and every one holds (`verdict` is `'ok'`).
    pub ok: bool,
}

/// The fields of a [`PublishedRound`], in the order of every binding's `verify`.
const PUBLISHED_FIELDS: [&str; 6] = ["serverSeed", "clientSeed", "nonce", "mines", "commitment", "positions"];

/// Recomputes a finished round from its seeds and checks it against what was published. `commitment`
/// and `positions` are optional (`null` or absent: not checked; with neither, `verdict` is `'unchecked'`
/// and `ok` is `false`); positions may be in any order, a duplicate fails the check.
/// @throws {TypeError} `round` is not an object, a field has the wrong type, or `round` has a key that
/// is not a field (`argument: 'round'`, the message names the key: `round.commitmnet: unknown field: …`)
/// @throws {RangeError} `nonce`/`mines` out of range, `commitment` not 64 hex characters
/// (`'FAIRMINES_INVALID_HEX'`), a position outside 1..=25 or more than 25 (`'FAIRMINES_INVALID_TILE'`)
#[napi(catch_unwind, ts_args_type = "round: PublishedRound", ts_return_type = "Verification")]
pub fn verify(env: Env, round: ObjectArg) -> Result<Verification> {
    guard(&env, || {
        let round = object(round, "round")?;
        known_keys(&round, "round", "a published round", &PUBLISHED_FIELDS)?;
        let server = text(member(&round, "serverSeed", "serverSeed", "a string")?, "serverSeed")?;
        let client = text(member(&round, "clientSeed", "clientSeed", "a string")?, "clientSeed")?;
        let nonce = number(member(&round, "nonce", "nonce", NUMBER)?, "nonce", "nonce")?;
        let mines = number(member(&round, "mines", "mines", NUMBER)?, "mines", "mines")?;
        let commitment = optional::<StringArg>(&round, "commitment")?.map(|c| text(c, "commitment")).transpose()?;
        let positions = optional::<TilesArg>(&round, "positions")?.map(|p| tiles(p, "positions", "positions"));
        let positions = positions.transpose()?;
        let published = Published::parse(&server, &client, nonce, mines, commitment.as_deref(), positions.as_deref())
            .map_err(Failure::core)?;
        let checked = fairmines::verify(&published);
        let flag = |check: Option<bool>| check.map_or(Either::B(Null), Either::A);
        Ok(Verification {
            commitment: checked.commitment.to_string(),
            signature: checked.signature.to_string(),
            positions: checked.placement.positions().to_vec(),
            draw_order: checked.placement.draw_order().to_vec(),
            words_used: checked.placement.words_used(),
            commitment_ok: flag(checked.commitment_ok()),
            positions_ok: flag(checked.positions_ok()),
            verdict: checked.verdict().as_str().to_owned(),
            ok: checked.is_ok(),
        })
    })
}

/// A fresh server seed from the operating system's CSPRNG (64 lowercase hex characters) with its
/// commitment: publish `commitment` before play, `serverSeed` once the pair is rotated out.
/// `console.log`/`util.inspect`, `JSON.stringify` and a spread show the commitment only (`serverSeed` is
/// not enumerable; read it as `seed.serverSeed` or by destructuring).
/// @throws {Error} the OS random number generator failed (`code: 'FAIRMINES_RNG_FAILED'`)
#[napi(catch_unwind, ts_return_type = "GeneratedServerSeed")]
pub fn generate_server_seed(env: &Env) -> Result<Unknown<'_>> {
    let seed = guard(env, || fairmines::ServerSeed::generate().map_err(Failure::core))?;
    let mut object = Object::new(env)?;
    object.set_named_property("serverSeed", seed.reveal())?;
    object.set_named_property("commitment", seed.commitment().to_string())?;
    helpers(env)?.hide_seed.borrow_back(env)?.call(object.raw())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_a_failure_not_an_abort() {
        let failure = contain::<()>(|| panic!("boom {}", 7)).unwrap_err();
        assert_eq!((failure.code.as_str(), failure.class), ("FAIRMINES_PANIC", Class::Plain));
        assert!(failure.message.contains("boom 7"), "{}", failure.message);
        assert_eq!(contain::<()>(|| std::panic::panic_any(42_u8)).unwrap_err().code, "FAIRMINES_PANIC");
    }
}
