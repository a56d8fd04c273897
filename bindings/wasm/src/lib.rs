//! WebAssembly bindings of the `fairmines` core and history crate (wasm-bindgen): conversion of values and
//! errors only, as the Node package converts them (bindings/node): every rule, message and error kind is the
//! core's. A `number` goes to the core as [`Number::Float`], a `bigint` as an integer, and the core judges
//! them; a string with a lone surrogate is the core's `InvalidUtf8`. Errors are `fairmines_js_errors::Failure`s,
//! the model the Node package throws too, made JavaScript errors here ([`Thrown`]). Rounds are here, records in [`record`], histories in [`history`]; wasm/api.js adds what is JavaScript.
#![forbid(unsafe_code)]

use fairmines::{MineCount, Number, Published};
use fairmines_js_errors::{Class, Converted, Failure, NUMBER, TILES, code};
use js_sys::{Array, JsString, Object, Reflect};
use wasm_bindgen::prelude::*;

pub mod history;
pub mod record;

/// A [`Failure`] (the model shared with the Node binding) thrown to JavaScript: what every export that can
/// fail returns.
pub struct Thrown(Failure);

impl From<Failure> for Thrown {
    fn from(failure: Failure) -> Self {
        Thrown(failure)
    }
}

impl From<Thrown> for JsValue {
    fn from(Thrown(f): Thrown) -> JsValue {
        let error: JsValue = match f.class {
            Class::Type => js_sys::TypeError::new(&f.message).into(),
            Class::Range => js_sys::RangeError::new(&f.message).into(),
            Class::Plain => js_sys::Error::new(&f.message).into(),
        };
        set(&error, "code", f.code.into());
        if let Some(errno) = f.errno {
            set(&error, "errno", errno.into());
        }
        if let Some(argument) = f.argument {
            set(&error, "argument", argument.into());
        }
        error
    }
}

fn set(target: &JsValue, key: &str, value: JsValue) {
    // Setting a data property on a fresh plain object or error cannot fail.
    let _ = Reflect::set(target, &key.into(), &value);
}

/// A plain object with `entries` in order.
fn object(entries: Vec<(&str, JsValue)>) -> JsValue {
    let out: JsValue = Object::new().into();
    for (key, value) in entries {
        set(&out, key, value);
    }
    out
}

fn or_null<T: Into<JsValue>>(value: Option<T>) -> JsValue {
    value.map_or(JsValue::NULL, Into::into)
}

pub(crate) fn tile_list(tiles: &[u8]) -> JsValue {
    tiles.iter().map(|&t| JsValue::from(t)).collect::<Array>().into()
}

/// The `typeof` of a value, for messages (`null` for null, as Node-API names it).
fn type_name(value: &JsValue) -> String {
    if value.is_null() { "null".into() } else { value.js_typeof().as_string().unwrap_or_default() }
}

/// The string's UTF-8 text; a lone surrogate (no UTF-8 form) is the core's `InvalidUtf8`.
fn text(value: &JsValue, argument: &'static str) -> Converted<String> {
    text_in(value, argument, argument)
}

/// [`text`] of a part of an argument (`record.clientSeed`).
fn text_in(value: &JsValue, argument: &str, label: &'static str) -> Converted<String> {
    let Some(text) = value.as_string() else {
        return Err(Failure::wrong_type(argument, label, "a string", &type_name(value)));
    };
    if text.contains('\u{FFFD}') && !value.unchecked_ref::<JsString>().is_valid_utf16() {
        return Err(Failure::at(fairmines::Error::InvalidUtf8 { argument: label }, argument, label));
    }
    Ok(text)
}

/// A `number` or `bigint` as the core's [`Number`]; else a `TypeError` about `label`.
fn number(value: &JsValue, argument: &str, label: &str) -> Converted<Number> {
    if let Some(x) = value.as_f64() {
        return Ok(Number::Float(x));
    }
    if !value.is_bigint() {
        return Err(Failure::wrong_type(argument, label, NUMBER, &type_name(value)));
    }
    let decimal = String::from(value.unchecked_ref::<js_sys::BigInt>().to_string(10).unwrap_or_else(|_| "0".into()));
    let magnitude = decimal.trim_start_matches('-');
    Ok(Number::from_sign_magnitude(decimal.starts_with('-'), magnitude.parse().ok()))
}

/// Tiles: an array of numbers or a `Uint8Array`; at most 26, one more than a board has, are read.
fn tiles(value: &JsValue, argument: &str, label: &str) -> Converted<Vec<Number>> {
    if let Some(bytes) = value.dyn_ref::<js_sys::Uint8Array>() {
        return Ok(bytes.to_vec().into_iter().take(26).map(Number::from).collect());
    }
    let Some(array) = value.dyn_ref::<Array>() else {
        return Err(Failure::wrong_type(argument, label, TILES, &type_name(value)));
    };
    (0..array.length().min(26)).map(|i| number(&array.get(i), argument, &format!("{label}[{i}]"))).collect()
}

/// An object argument (not `null`, not a function).
fn as_object(value: &JsValue, argument: &str) -> Converted<()> {
    if value.is_object() {
        Ok(())
    } else {
        Err(Failure::wrong_type(argument, argument, "an object", &type_name(value)))
    }
}

/// A field `name` of `object` (`undefined` when absent).
fn get(object: &JsValue, name: &str) -> JsValue {
    Reflect::get(object, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

/// A required field `name` of the object `argument` (of `verify`'s round, `name` is the argument).
fn member(object: &JsValue, argument: &str, name: &str, expected: &str) -> Converted<JsValue> {
    let value = get(object, name);
    if value.is_undefined() {
        let label = if argument == name { name.to_owned() } else { format!("{argument}.{name}") };
        return Err(Failure::wrong_type(argument, &label, expected, "undefined"));
    }
    Ok(value)
}

/// Refuses an own enumerable key not in `known`: a misspelt optional field would skip its check silently.
fn known_keys(object: &JsValue, argument: &str, what: &str, known: &[&str]) -> Converted<()> {
    for key in Object::keys(object.unchecked_ref::<Object>()).iter() {
        let key = key.as_string().unwrap_or_default();
        if !known.contains(&key.as_str()) {
            return Err(Failure::unknown_field(argument, &key, what, known));
        }
    }
    Ok(())
}

fn nonce(value: &JsValue) -> Converted<u64> {
    fairmines::input::nonce(number(value, "nonce", "nonce")?).map_err(Failure::core)
}

fn mines(value: &JsValue) -> Converted<MineCount> {
    MineCount::try_from(number(value, "mines", "mines")?).map_err(Failure::core)
}

fn round_args(
    server: &JsValue,
    client: &JsValue,
    nonce: &JsValue,
    mines: &JsValue,
) -> Converted<(String, String, u64, MineCount)> {
    Ok((text(server, "serverSeed")?, text(client, "clientSeed")?, self::nonce(nonce)?, self::mines(mines)?))
}

/// Every kind of error the core reports, in `errno` order: `{ code, errno, summary }`.
#[wasm_bindgen(js_name = errorKinds, unchecked_return_type = "ErrorKind[]")]
pub fn error_kinds() -> Array {
    let kinds = fairmines::ErrorKind::ALL.into_iter();
    kinds
        .map(|k| object(vec![("code", code(k).into()), ("errno", k.code().into()), ("summary", k.summary().into())]))
        .collect()
}

/// The commitment to a server seed (any string): SHA3-256 of its UTF-8 text, as 64 lowercase hex characters.
#[wasm_bindgen(unchecked_return_type = "string")]
pub fn commitment(
    #[wasm_bindgen(js_name = serverSeed, unchecked_param_type = "string")] server_seed: JsValue,
) -> Result<String, Thrown> {
    Ok(fairmines::commitment(&text(&server_seed, "serverSeed")?).to_string())
}

/// The round signature: SHA3-256 of `serverSeed + ":" + clientSeed + ":" + nonce`, as 64 lowercase hex.
#[wasm_bindgen(js_name = roundSignature)]
pub fn round_signature(
    #[wasm_bindgen(js_name = serverSeed, unchecked_param_type = "string")] server_seed: JsValue,
    #[wasm_bindgen(js_name = clientSeed, unchecked_param_type = "string")] client_seed: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | bigint")] nonce: JsValue,
) -> Result<String, Thrown> {
    let (server, client) = (text(&server_seed, "serverSeed")?, text(&client_seed, "clientSeed")?);
    Ok(fairmines::round_signature(&server, &client, self::nonce(&nonce)?).to_string())
}

/// The mine positions of a round: sorted, 1-based (1 = top-left, 5 = top-right, 25 = bottom-right).
#[wasm_bindgen(js_name = minePositions, unchecked_return_type = "number[]")]
pub fn mine_positions(
    #[wasm_bindgen(js_name = serverSeed, unchecked_param_type = "string")] server_seed: JsValue,
    #[wasm_bindgen(js_name = clientSeed, unchecked_param_type = "string")] client_seed: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | bigint")] nonce: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | bigint")] mines: JsValue,
) -> Result<JsValue, Thrown> {
    let (server, client, nonce, mines) = round_args(&server_seed, &client_seed, &nonce, &mines)?;
    Ok(tile_list(&fairmines::placement(&server, &client, nonce, mines).positions()))
}

/// The tile indices of a round in the order they were drawn: 0-based, unsorted.
#[wasm_bindgen(js_name = drawOrder, unchecked_return_type = "number[]")]
pub fn draw_order(
    #[wasm_bindgen(js_name = serverSeed, unchecked_param_type = "string")] server_seed: JsValue,
    #[wasm_bindgen(js_name = clientSeed, unchecked_param_type = "string")] client_seed: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | bigint")] nonce: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | bigint")] mines: JsValue,
) -> Result<JsValue, Thrown> {
    let (server, client, nonce, mines) = round_args(&server_seed, &client_seed, &nonce, &mines)?;
    Ok(tile_list(&fairmines::placement(&server, &client, nonce, mines).draw_order()))
}

/// The fields of a published round, in the order of every binding's `verify`.
const PUBLISHED_FIELDS: [&str; 6] = ["serverSeed", "clientSeed", "nonce", "mines", "commitment", "positions"];

/// Recomputes a finished round from its seeds and checks it against what was published (`commitment` and
/// `positions` optional): `{ commitment, signature, positions, drawOrder, wordsUsed, commitmentOk,
/// positionsOk, verdict, ok }`.
#[wasm_bindgen(unchecked_return_type = "Verification")]
pub fn verify(#[wasm_bindgen(unchecked_param_type = "PublishedRound")] round: JsValue) -> Result<JsValue, Thrown> {
    as_object(&round, "round")?;
    known_keys(&round, "round", "a published round", &PUBLISHED_FIELDS)?;
    let server = text(&member(&round, "serverSeed", "serverSeed", "a string")?, "serverSeed")?;
    let client = text(&member(&round, "clientSeed", "clientSeed", "a string")?, "clientSeed")?;
    let nonce = number(&member(&round, "nonce", "nonce", NUMBER)?, "nonce", "nonce")?;
    let mines = number(&member(&round, "mines", "mines", NUMBER)?, "mines", "mines")?;
    let given = |name| Some(get(&round, name)).filter(|v| !v.is_null() && !v.is_undefined());
    let commitment = given("commitment").map(|c| text(&c, "commitment")).transpose()?;
    let positions = given("positions").map(|p| tiles(&p, "positions", "positions")).transpose()?;
    let published = Published::parse(&server, &client, nonce, mines, commitment.as_deref(), positions.as_deref())
        .map_err(Failure::core)?;
    let checked = fairmines::verify(&published);
    let doubts: Array = published
        .doubts_for(&checked)
        .into_iter()
        .map(|d| object(vec![("argument", fairmines_js_errors::camel(d.argument).into()), ("detail", d.detail.into())]))
        .collect();
    Ok(object(vec![
        ("commitment", checked.commitment.to_string().into()),
        ("signature", checked.signature.to_string().into()),
        ("positions", tile_list(&checked.placement.positions())),
        ("drawOrder", tile_list(&checked.placement.draw_order())),
        ("wordsUsed", checked.placement.words_used().into()),
        ("commitmentOk", or_null(checked.commitment_ok())),
        ("positionsOk", or_null(checked.positions_ok())),
        ("verdict", checked.verdict().as_str().into()),
        ("ok", checked.is_ok().into()),
        ("inputDoubts", doubts.into()),
    ]))
}

/// A fresh server seed from `crypto.getRandomValues` (64 lowercase hex characters) with its commitment.
/// `JSON.stringify`, a spread and `util.inspect` show the commitment only (`serverSeed` is not enumerable;
/// read it as `seed.serverSeed` or by destructuring).
#[wasm_bindgen(js_name = generateServerSeed, unchecked_return_type = "GeneratedServerSeed")]
pub fn generate_server_seed() -> Result<JsValue, Thrown> {
    let seed = fairmines::ServerSeed::generate().map_err(Failure::core)?;
    Ok(object(vec![("serverSeed", seed.reveal().into()), ("commitment", seed.commitment().to_string().into())]))
}

/// The most safe picks a round with `mines` mines allows: 25 − mines.
#[wasm_bindgen(js_name = maxSafePicks)]
pub fn max_safe_picks(#[wasm_bindgen(unchecked_param_type = "number | bigint")] mines: JsValue) -> Result<u8, Thrown> {
    Ok(fairmines::max_safe_picks(self::mines(&mines)?))
}

/// An exact, non-negative fraction in lowest terms (a multiplier, an RTP factor). `String(r)` and
/// `JSON.stringify` give `text`; there is no `valueOf`, so a ratio never becomes a float by accident.
#[wasm_bindgen]
pub struct Ratio {
    inner: fairmines::Ratio,
}

impl From<fairmines::Ratio> for Ratio {
    fn from(inner: fairmines::Ratio) -> Self {
        Ratio { inner }
    }
}

const RATIO_EXPECTED: &str = "a string such as '0.99' or '99/100', or a Ratio";

/// An exact argument as text (wasm/api.js passes a `Ratio` as its `text`): `label` names it in messages.
fn exact(value: &JsValue, argument: &str, label: &'static str) -> Converted<String> {
    if let Some(x) = value.as_f64() {
        let got = format!(
            "the number {} (binary floating point cannot hold most decimal fractions: 0.99 is stored as \
             0.98999999999999999112, so pass the exact value as a string, e.g. '0.99' or '99/100')",
            Number::Float(x)
        );
        return Err(Failure::wrong_type(argument, label, RATIO_EXPECTED, &got));
    }
    if value.as_string().is_none() {
        return Err(Failure::wrong_type(argument, label, RATIO_EXPECTED, &type_name(value)));
    }
    text_in(value, argument, label)
}

fn rtp(value: &JsValue) -> Converted<fairmines::Rtp> {
    fairmines::Exact::Text(&exact(value, "rtp", "rtp")?).rtp().map_err(Failure::core)
}

#[wasm_bindgen]
impl Ratio {
    /// `numerator / denominator`, reduced to lowest terms.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "number | bigint")] numerator: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number | bigint")] denominator: JsValue,
    ) -> Result<Ratio, Thrown> {
        let (num, den) =
            (number(&numerator, "numerator", "numerator")?, number(&denominator, "denominator", "denominator")?);
        Ok(fairmines::Ratio::from_parts(num, den).map_err(Failure::core)?.into())
    }

    /// Parses `"99/100"`, a decimal such as `"0.99"` (exactly 99/100) or a whole number, as the core does.
    pub fn parse(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Result<Ratio, Thrown> {
        Ok(fairmines::Ratio::parse(&self::text(&text, "text")?, "text").map_err(Failure::core)?.into())
    }

    /// The numerator, in lowest terms.
    #[wasm_bindgen(getter, unchecked_return_type = "bigint")]
    pub fn numerator(&self) -> JsValue {
        self.inner.numer().into()
    }

    /// The denominator, in lowest terms (never 0).
    #[wasm_bindgen(getter, unchecked_return_type = "bigint")]
    pub fn denominator(&self) -> JsValue {
        self.inner.denom().into()
    }

    /// `"num/den"`, or just `"num"` for a whole number: the form of the core's JSON.
    #[wasm_bindgen(getter)]
    pub fn text(&self) -> String {
        self.inner.to_string()
    }

    /// The value rounded **down** to `places` (0..=18) decimal places (`'1.12'` for 9/8 at 2).
    #[wasm_bindgen(js_name = toDecimal)]
    pub fn to_decimal(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number | bigint")] places: JsValue,
    ) -> Result<String, Thrown> {
        let places = fairmines::Places::new(number(&places, "places", "places")?).map_err(Failure::core)?;
        Ok(self.inner.to_decimal(places))
    }

    /// The nearest `number`: for display and statistics only, never for paying out.
    #[wasm_bindgen(js_name = toNumber)]
    pub fn to_number(&self) -> f64 {
        self.inner.to_f64()
    }

    /// Whether `other` (a `Ratio` or a string such as `'99/100'` or `'0.99'`) is the same number.
    pub fn equals(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Ratio | string")] other: JsValue,
    ) -> Result<bool, Thrown> {
        let other = fairmines::Exact::Text(&exact(&other, "other", "other")?).ratio("other").map_err(Failure::core)?;
        Ok(other == self.inner)
    }

    /// `text`.
    #[wasm_bindgen(js_name = toString)]
    pub fn to_js_string(&self) -> String {
        self.inner.to_string()
    }

    /// `text`, so `JSON.stringify` writes a ratio as the core's JSON does.
    #[wasm_bindgen(js_name = toJSON)]
    pub fn to_json(&self) -> String {
        self.inner.to_string()
    }
}

/// The multiplier after `safePicks` safe picks with `mines` mines: C(25, k) / C(25 − m, k) × RTP, exactly.
#[wasm_bindgen]
pub fn multiplier(
    #[wasm_bindgen(unchecked_param_type = "number | bigint")] mines: JsValue,
    #[wasm_bindgen(js_name = safePicks, unchecked_param_type = "number | bigint")] safe_picks: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | Ratio")] rtp: JsValue,
) -> Result<Ratio, Thrown> {
    let (mines, safe_picks) = (self::mines(&mines)?, number(&safe_picks, "safePicks", "safePicks")?);
    Ok(fairmines::multiplier(mines, safe_picks, self::rtp(&rtp)?).map_err(Failure::core)?.into())
}

/// The whole payout table: every mine count 1..=24 and number of safe picks 1..=25 − mines (300 entries),
/// ordered by mines, then safe picks: `{ mines, safePicks, multiplier }`.
#[wasm_bindgen(js_name = payoutTable, unchecked_return_type = "TableEntry[]")]
pub fn payout_table(#[wasm_bindgen(unchecked_param_type = "string | Ratio")] rtp: JsValue) -> Result<Array, Thrown> {
    let table = fairmines::payout_table(self::rtp(&rtp)?).into_iter().map(|entry| {
        let multiplier = JsValue::from(Ratio::from(entry.multiplier));
        object(vec![("mines", entry.mines.into()), ("safePicks", entry.safe_picks.into()), ("multiplier", multiplier)])
    });
    Ok(table.collect())
}
