//! The game as classes: `SeedPair`, `Round` and `Ratio` over the core's `SeedPair`, `Round` and `Ratio`;
//! round records as plain objects; `verifyRound`, `multiplier`, `payoutTable`, `maxSafePicks`.
//!
//! Every rule is the core's: this module converts JavaScript values into the core's types and back.
//! Conventions beyond those of the crate root:
//!
//! - exact ratios are `Ratio` objects (`numerator`/`denominator` as `bigint`, `text` as `"99/100"`);
//! - an RTP factor is a string (`"0.99"`, `"99/100"`) or a `Ratio`; a `number` is a `TypeError`, because
//!   a binary float cannot hold 0.99 exactly;
//! - nonces come back as `bigint` (they are `u64` in the core); they go in as `number` or `bigint`;
//! - a bad part of a record is reported with `argument: 'record'` and a message that starts with the part
//!   (`record.nonce: …`), under the code of the core's error for that kind of value.

use fairmines::{Digest, MineCount, Outcome, Reveal, Rtp, ServerSeed};
use napi::bindgen_prelude::{
    Array, BigInt, ClassInstance, Either, Either3, Env, Function, JsObjectValue, Null, Object, PropertyAttributes,
    Result, Unknown,
};
use napi::{JsString, JsValue, Property};
use napi_derive::napi;

use crate::{
    Converted, Failure, INVALID_MINES, INVALID_NUMBER, INVALID_PICKS, INVALID_STATE, INVALID_TILE, NonceArg, NumberArg,
    StringArg, guard, js_number, known_keys, text, text_in, type_name,
};

// ---------------------------------------------------------------------------------------------------
// Ratio
// ---------------------------------------------------------------------------------------------------

/// An exact, non-negative fraction in lowest terms: a multiplier or an RTP factor.
///
/// `numerator` and `denominator` are `bigint`s, `text` is `"99/100"` (or `"3"` for a whole number).
/// `String(r)`, `` `${r}` `` and `JSON.stringify` give `text`; `toDecimal(places)` gives the decimal shown
/// to users, rounded **down**; there is deliberately no `valueOf`, so a ratio never turns into a float by
/// accident (`toNumber()` does it on purpose, for display and statistics only).
#[napi]
pub struct Ratio {
    inner: fairmines::Ratio,
}

/// A ratio argument: a string (`"99/100"`, `"0.99"`, `"3"`), a `Ratio`, or anything else (an error).
type RatioArg<'env> = Either3<JsString<'env>, ClassInstance<'env, Ratio>, Unknown<'env>>;

const RATIO_EXPECTED: &str = "a string such as '0.99' or '99/100', or a Ratio";

/// The message for a `number` given where an exact ratio is needed.
fn float_given(x: f64) -> String {
    format!(
        "the number {} (binary floating point cannot hold most decimal fractions: 0.99 is stored as \
         0.98999999999999999112, so pass the exact value as a string, e.g. '0.99' or '99/100')",
        js_number(x)
    )
}

/// A ratio: parsed exactly from a string, or taken from a `Ratio`. `label` names it in messages.
fn ratio(value: RatioArg<'_>, argument: &str, label: &str) -> Converted<fairmines::Ratio> {
    match value {
        Either3::A(string) => {
            let text = text_in(Either::A(string), argument, label)?;
            text.parse::<fairmines::Ratio>().map_err(|e| Failure::core_in(e, argument, label))
        }
        Either3::B(instance) => Ok(instance.inner),
        Either3::C(other) => Err(not_a_ratio(argument, label, &other)),
    }
}

fn not_a_ratio(argument: &str, label: &str, other: &Unknown<'_>) -> Failure {
    match other.get_type() {
        Ok(napi::ValueType::Number) => {
            let x = other.coerce_to_number().and_then(|n| n.get_double()).unwrap_or(f64::NAN);
            Failure::wrong_type(argument, label, RATIO_EXPECTED, &float_given(x))
        }
        _ => Failure::wrong_type(argument, label, RATIO_EXPECTED, type_name(other)),
    }
}

/// An RTP factor: a ratio in (0, 1], from a string or a `Ratio` (never a `number`).
fn rtp(value: RatioArg<'_>, argument: &str, label: &str) -> Converted<Rtp> {
    let factor = match value {
        Either3::A(string) => {
            let text = text_in(Either::A(string), argument, label)?;
            return Rtp::parse(&text).map_err(|e| Failure::core_in(e, argument, label));
        }
        other => ratio(other, argument, label)?,
    };
    Rtp::new(factor).map_err(|e| Failure::core_in(e, argument, label))
}

/// A whole number for a ratio's part: a safe non-negative integer `number` or a `bigint` in 0..2^128.
fn whole(value: NonceArg<'_>, argument: &str) -> Converted<u128> {
    const RULE: &str = "must be a safe non-negative integer or a bigint in 0..2^128";
    match value {
        Either3::A(x) => {
            if x.is_finite() && x.fract() == 0.0 && (0.0..=9_007_199_254_740_991.0).contains(&x) {
                Ok(x as u128)
            } else {
                Err(Failure::range(&INVALID_NUMBER, argument, argument, &format!("{RULE}, got {}", js_number(x))))
            }
        }
        Either3::B(big) => {
            let (negative, value, lossless) = big.get_u128();
            if lossless && !(negative && value != 0) {
                Ok(value)
            } else {
                let shown = if negative { "a negative bigint" } else { "a bigint of 2^128 or more" };
                Err(Failure::range(&INVALID_NUMBER, argument, argument, &format!("{RULE}, got {shown}")))
            }
        }
        Either3::C(other) => Err(Failure::wrong_type(argument, argument, "a number or a bigint", type_name(&other))),
    }
}

#[napi]
impl Ratio {
    /// `numerator / denominator`, reduced to lowest terms.
    ///
    /// @throws {TypeError} a part is neither a number nor a bigint
    /// @throws {RangeError} a part is negative, not an integer or too large, or `denominator` is 0
    /// (`code: 'FAIRMINES_INVALID_NUMBER'`)
    #[napi(constructor, catch_unwind, ts_args_type = "numerator: number | bigint, denominator: number | bigint")]
    pub fn new(env: Env, numerator: NonceArg<'_>, denominator: NonceArg<'_>) -> Result<Self> {
        guard(&env, || {
            let num = whole(numerator, "numerator")?;
            let den = whole(denominator, "denominator")?;
            fairmines::Ratio::new(num, den)
                .map(|inner| Ratio { inner })
                .ok_or_else(|| Failure::range(&INVALID_NUMBER, "denominator", "denominator", "must not be 0"))
        })
    }

    /// Parses `"99/100"`, a decimal such as `"0.99"` (exactly 99/100) or a whole number, as the core does.
    ///
    /// @throws {TypeError} `text` is not a string
    /// @throws {RangeError} `text` does not parse (`code: 'FAIRMINES_INVALID_NUMBER'`)
    #[napi(factory, catch_unwind, ts_args_type = "text: string")]
    pub fn parse(env: Env, text: StringArg<'_>) -> Result<Self> {
        guard(&env, || {
            let text = crate::text(text, "text")?;
            let inner = text.parse::<fairmines::Ratio>().map_err(|e| Failure::core_in(e, "text", "text"))?;
            Ok(Ratio { inner })
        })
    }

    /// The numerator, in lowest terms.
    #[napi(getter)]
    pub fn numerator(&self) -> BigInt {
        BigInt::from(self.inner.numer())
    }

    /// The denominator, in lowest terms (never 0).
    #[napi(getter)]
    pub fn denominator(&self) -> BigInt {
        BigInt::from(self.inner.denom())
    }

    /// `"num/den"`, or just `"num"` for a whole number: the form of the core's JSON.
    #[napi(getter)]
    pub fn text(&self) -> String {
        self.inner.to_string()
    }

    /// The decimal shown to users: the value rounded **down** (toward zero) to `places` decimal
    /// places, so a shown multiplier never promises more than the exact one (`'1.12'` for 9/8 at 2).
    ///
    /// @param places - an integer in 0..=18
    /// @throws {TypeError} `places` is not a number
    /// @throws {RangeError} `places` is not an integer in 0..=18 (`code: 'FAIRMINES_INVALID_NUMBER'`)
    #[napi(catch_unwind, ts_args_type = "places: number")]
    pub fn to_decimal(&self, env: Env, places: NumberArg<'_>) -> Result<String> {
        guard(&env, || {
            let places = match places {
                Either::A(x) if x.is_finite() && x.fract() == 0.0 && (0.0..=18.0).contains(&x) => x as u32,
                Either::A(x) => {
                    return Err(Failure::range(
                        &INVALID_NUMBER,
                        "places",
                        "places",
                        &format!("must be an integer in 0..=18, got {}", js_number(x)),
                    ));
                }
                Either::B(other) => return Err(Failure::wrong_type("places", "places", "a number", type_name(&other))),
            };
            Ok(self.inner.to_decimal(fairmines::Places::new(places).map_err(Failure::core)?))
        })
    }

    /// The nearest `number`: for display and statistics only, never for paying out.
    #[napi]
    pub fn to_number(&self) -> f64 {
        self.inner.to_f64()
    }

    /// Whether `other` (a `Ratio` or a string such as `'99/100'` or `'0.99'`) is the same number.
    ///
    /// @throws {TypeError} `other` is neither a string nor a `Ratio`
    /// @throws {RangeError} `other` is a string that does not parse (`code: 'FAIRMINES_INVALID_NUMBER'`)
    #[napi(catch_unwind, ts_args_type = "other: Ratio | string")]
    pub fn equals(&self, env: Env, other: RatioArg<'_>) -> Result<bool> {
        guard(&env, || Ok(ratio(other, "other", "other")? == self.inner))
    }

    /// `text`.
    #[napi(js_name = "toString")]
    pub fn to_js_string(&self) -> String {
        self.inner.to_string()
    }

    /// `text`, so `JSON.stringify` writes a ratio as the core's JSON does.
    #[napi(js_name = "toJSON")]
    pub fn to_json(&self) -> String {
        self.inner.to_string()
    }
}

impl From<fairmines::Ratio> for Ratio {
    fn from(inner: fairmines::Ratio) -> Self {
        Ratio { inner }
    }
}

fn ratio_or_null(value: Option<fairmines::Ratio>) -> Either<Ratio, Null> {
    match value {
        Some(r) => Either::A(r.into()),
        None => Either::B(Null),
    }
}

// ---------------------------------------------------------------------------------------------------
// Seed pairs
// ---------------------------------------------------------------------------------------------------

/// The public side of a seed pair: what the player may see while it is active.
#[napi(object, object_from_js = false)]
pub struct PublicSeedPair {
    /// SHA3-256 of the secret server seed (64 lowercase hex characters), shown before play.
    pub commitment: String,
    /// The player's client seed.
    pub client_seed: String,
    /// The nonce of the next round.
    pub nonce: BigInt,
}

impl From<fairmines::PublicSeedPair> for PublicSeedPair {
    fn from(public: fairmines::PublicSeedPair) -> Self {
        PublicSeedPair {
            commitment: public.commitment.to_string(),
            client_seed: public.client_seed,
            nonce: BigInt::from(public.nonce),
        }
    }
}

/// A seed pair that has been rotated out: its server seed may now be published.
#[napi(object, object_from_js = false)]
pub struct RevealedSeedPair {
    /// The server seed, now public.
    pub server_seed: String,
    /// Its commitment, as shown before play.
    pub commitment: String,
    /// The client seed it was used with.
    pub client_seed: String,
    /// How many rounds it played (nonces `0n` .. `rounds - 1n`).
    pub rounds: BigInt,
}

impl From<fairmines::RevealedSeedPair> for RevealedSeedPair {
    fn from(revealed: fairmines::RevealedSeedPair) -> Self {
        RevealedSeedPair {
            server_seed: revealed.server_seed,
            commitment: revealed.commitment.to_string(),
            client_seed: revealed.client_seed,
            rounds: BigInt::from(revealed.rounds),
        }
    }
}

/// What `JSON.stringify(seedPair)` writes: the public part, with the nonce as a decimal string.
#[napi(object, object_from_js = false)]
pub struct PublicSeedPairJson {
    /// The commitment.
    pub commitment: String,
    /// The client seed.
    pub client_seed: String,
    /// The nonce of the next round, in decimal (a JSON number could not hold every `u64`).
    pub nonce: String,
}

/// The operator's state of one player's seed pair: a secret server seed with its public commitment,
/// the player's client seed, the nonce of the next round and the rounds still in play.
///
/// **The server seed is revealed only when no round can move.** `rotate()` and `setClientSeed()` throw
/// (`code: 'FAIRMINES_ROUNDS_IN_PLAY'`) while a round started from this pair is in play: whoever saw the
/// seed would know every mine of it. Finish such rounds, or end them with `voidOpenRounds()`: a voided
/// round refuses every later move (`'FAIRMINES_ROUND_VOIDED'`) and its record's outcome is `'voided'`.
///
/// The server seed never shows: `util.inspect`/`console.log`, `String(pair)` and `JSON.stringify(pair)`
/// give the public part only. It leaves the object only through `rotate()` (the old seed, once it may
/// be published) and `toStateJson()` (the operator's own storage).
#[napi]
pub struct SeedPair {
    inner: fairmines::SeedPair,
}

#[napi]
impl SeedPair {
    /// A new pair: a fresh server seed from the operating system's CSPRNG, `clientSeed`, nonce 0.
    ///
    /// @throws {TypeError} `clientSeed` is not a string
    /// @throws {RangeError} `clientSeed` holds a lone surrogate (`code: 'FAIRMINES_INVALID_UTF8'`)
    /// @throws {Error} the OS random generator failed (`code: 'FAIRMINES_RNG'`)
    #[napi(constructor, catch_unwind, ts_args_type = "clientSeed: string")]
    pub fn new(env: Env, client_seed: StringArg<'_>) -> Result<Self> {
        guard(&env, || {
            let client = text(client_seed, "clientSeed")?;
            Ok(SeedPair { inner: fairmines::SeedPair::new(&client).map_err(Failure::core)? })
        })
    }

    /// A pair from parts the operator already has (a stored seed; replays and tests).
    ///
    /// @param serverSeed - 64 lowercase hex characters, as generated
    /// @throws {TypeError} an argument has the wrong type
    /// @throws {RangeError} `serverSeed` is not 64 lowercase hex characters (`'FAIRMINES_INVALID_HEX'`),
    /// `nonce` is out of range (`'FAIRMINES_INVALID_NONCE'`)
    #[napi(factory, catch_unwind, ts_args_type = "serverSeed: string, clientSeed: string, nonce: number | bigint")]
    pub fn from_parts(
        env: Env,
        server_seed: StringArg<'_>,
        client_seed: StringArg<'_>,
        nonce: NonceArg<'_>,
    ) -> Result<Self> {
        guard(&env, || {
            let server = text(server_seed, "serverSeed")?;
            let client = text(client_seed, "clientSeed")?;
            let nonce = crate::nonce(nonce, "nonce", "nonce")?;
            let server = ServerSeed::from_hex(&server).map_err(Failure::core)?;
            Ok(SeedPair { inner: fairmines::SeedPair::from_parts(server, &client, nonce) })
        })
    }

    /// Restores a pair from {@link SeedPair.toStateJson}, checking that the commitment belongs to the seed
    /// and that the open rounds are distinct nonces the pair has used.
    ///
    /// Rounds are not part of the state: the rounds it lists as open stay open in the restored pair (see
    /// {@link SeedPair.openRounds}), which therefore refuses to rotate until they are voided with
    /// {@link SeedPair.voidOpenRounds}. The restored pair does not reach the `Round` objects of the pair
    /// the state was saved from: keep one live copy of a seed pair (restore after a restart).
    ///
    /// @throws {TypeError} `json` is not a string
    /// @throws {RangeError} `json` is not a saved state (an unknown field included), or its parts do not
    /// hold together (`code: 'FAIRMINES_INVALID_STATE'`)
    #[napi(factory, catch_unwind, ts_args_type = "json: string")]
    pub fn from_state_json(env: Env, json: StringArg<'_>) -> Result<Self> {
        guard(&env, || {
            let json = text(json, "json")?;
            let inner = fairmines::SeedPair::from_state_json(&json).map_err(|e| Failure::core_in(e, "json", "json"))?;
            Ok(SeedPair { inner })
        })
    }

    /// What the player may see now: the commitment, the client seed and the nonce of the next round.
    #[napi(getter, js_name = "public")]
    pub fn public_part(&self) -> PublicSeedPair {
        self.inner.public().into()
    }

    /// Starts a round with the current nonce, then increments the nonce. The grid is fixed now, before
    /// any pick. On an error nothing changes.
    ///
    /// @param mines - an integer in 1..=24
    /// @param rtp - the return-to-player factor in (0, 1], exactly: `'0.99'`, `'99/100'` or a `Ratio`
    /// (a `number` is a `TypeError`: binary floats are not exact)
    /// @throws {TypeError} an argument has the wrong type
    /// @throws {RangeError} `mines` outside 1..=24 (`'FAIRMINES_INVALID_MINES'`), `rtp` outside (0, 1] or
    /// not a fraction (`'FAIRMINES_INVALID_RTP'`), every nonce of the pair used (`'FAIRMINES_INVALID_NONCE'`)
    #[napi(catch_unwind, ts_args_type = "mines: number, rtp: string | Ratio")]
    pub fn start_round(&mut self, env: Env, mines: NumberArg<'_>, rtp: RatioArg<'_>) -> Result<Round> {
        guard(&env, || {
            let mines = crate::mines(mines)?;
            let rtp = self::rtp(rtp, "rtp", "rtp")?;
            Ok(Round { inner: self.inner.start_round(mines, rtp).map_err(Failure::core)? })
        })
    }

    /// The nonces of the rounds in play, ascending: started from this pair and neither finished nor voided
    /// (including those listed in the state the pair was restored from).
    #[napi(ts_return_type = "bigint[]")]
    pub fn open_rounds(&self) -> Vec<BigInt> {
        self.inner.open_rounds().into_iter().map(BigInt::from).collect()
    }

    /// Voids every round in play and returns their nonces, ascending. A voided round refuses every later
    /// move (`code: 'FAIRMINES_ROUND_VOIDED'`) and its record's outcome is `'voided'`, with no multiplier:
    /// the operator returns the stake. Afterwards the pair can rotate.
    #[napi(ts_return_type = "bigint[]")]
    pub fn void_open_rounds(&mut self) -> Vec<BigInt> {
        self.inner.void_open_rounds().into_iter().map(BigInt::from).collect()
    }

    /// Ends this pair and starts a new one (a fresh server seed, a new commitment, nonce 0), with a new
    /// client seed if one is given. Returns the old pair with its server seed, which may now be published.
    ///
    /// Refused while a round of the pair is in play: finish the rounds, or {@link SeedPair.voidOpenRounds}
    /// first.
    ///
    /// @throws {TypeError} `clientSeed` is given and is not a string
    /// @throws {Error} a round of the pair is in play (`code: 'FAIRMINES_ROUNDS_IN_PLAY'`; the message
    /// names the nonces, {@link SeedPair.openRounds} lists them), or the OS random generator failed
    /// (`code: 'FAIRMINES_RNG'`); nothing changes then
    #[napi(catch_unwind, ts_args_type = "clientSeed?: string | null")]
    pub fn rotate(&mut self, env: Env, client_seed: Option<StringArg<'_>>) -> Result<RevealedSeedPair> {
        guard(&env, || {
            let client = client_seed.map(|c| text(c, "clientSeed")).transpose()?;
            Ok(self.inner.rotate(client.as_deref()).map_err(Failure::core)?.into())
        })
    }

    /// A new client seed always starts a new pair, revealing the old server seed: the same as
    /// `rotate(clientSeed)`, and refused in the same way while a round is in play.
    ///
    /// @throws {TypeError} `clientSeed` is not a string
    /// @throws {Error} a round of the pair is in play (`code: 'FAIRMINES_ROUNDS_IN_PLAY'`), or the OS random
    /// generator failed (`code: 'FAIRMINES_RNG'`); nothing changes then
    #[napi(catch_unwind, ts_args_type = "clientSeed: string")]
    pub fn set_client_seed(&mut self, env: Env, client_seed: StringArg<'_>) -> Result<RevealedSeedPair> {
        guard(&env, || {
            let client = text(client_seed, "clientSeed")?;
            Ok(self.inner.set_client_seed(&client).map_err(Failure::core)?.into())
        })
    }

    /// The full state as the core's JSON, for the operator's own storage: `{"server_seed", "commitment",
    /// "client_seed", "nonce", "open_rounds": [nonces in play]}`. **It contains the secret server seed.**
    #[napi]
    pub fn to_state_json(&self) -> String {
        self.inner.to_state_json()
    }

    /// The public part in one line; the server seed shows as `<hidden>`.
    #[napi(js_name = "toString")]
    pub fn to_js_string(&self) -> String {
        let public = self.inner.public();
        format!(
            "SeedPair {{ commitment: \"{}\", clientSeed: {:?}, nonce: {}n, serverSeed: <hidden> }}",
            public.commitment, public.client_seed, public.nonce
        )
    }

    /// The public part (`JSON.stringify` never writes the server seed); the nonce as a decimal string.
    #[napi(js_name = "toJSON")]
    pub fn to_json(&self) -> PublicSeedPairJson {
        let public = self.inner.public();
        PublicSeedPairJson {
            commitment: public.commitment.to_string(),
            client_seed: public.client_seed,
            nonce: public.nonce.to_string(),
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Rounds
// ---------------------------------------------------------------------------------------------------

/// What a reveal found.
#[napi(object, object_from_js = false)]
pub struct RevealResult {
    /// `false` when the tile was a mine: the round is lost.
    pub safe: bool,
    /// Safe picks so far.
    pub safe_picks: u32,
    /// The multiplier a cash-out would now pay; `null` after a mine.
    pub multiplier: Either<Ratio, Null>,
}

/// What `JSON.stringify(round)` writes: the round's public state (the mines only once it has finished).
#[napi(object, object_from_js = false)]
pub struct RoundJson {
    /// The commitment of the seed pair.
    pub commitment: String,
    /// The client seed.
    pub client_seed: String,
    /// The nonce, in decimal.
    pub nonce: String,
    /// The mine count.
    pub mines: u32,
    /// The RTP factor, `"num/den"`.
    pub rtp: String,
    /// The tiles picked, in order.
    pub picks: Vec<u32>,
    /// Safe tiles revealed so far.
    pub safe_picks: u32,
    /// `"lost"`, `"cashed_out"`, `"voided"`, or `null` while in play.
    #[napi(ts_type = "'lost' | 'cashed_out' | 'voided' | null")]
    pub outcome: Either<String, Null>,
    /// What a cash-out pays now (or paid), `"num/den"`; `null` before the first safe pick, after a mine
    /// and once voided.
    pub multiplier: Either<String, Null>,
    /// The mine positions once the round has finished; `null` while it is in play.
    pub mine_positions: Either<Vec<u32>, Null>,
}

/// One round in play, made by {@link SeedPair.startRound} (there is no constructor). The grid is
/// fixed when the round starts; each pick is checked against it, and it is shown only at the end.
#[napi]
pub struct Round {
    inner: fairmines::Round,
}

/// A tile argument: a `number` that is an integer (range is the core's check).
fn tile(value: NumberArg<'_>) -> Converted<i64> {
    match value {
        // Saturating: anything this large is out of range anyway.
        Either::A(x) if x.is_finite() && x.fract() == 0.0 && x.abs() < 9.2e18 => Ok(x as i64),
        Either::A(x) => {
            Err(Failure::range(&INVALID_TILE, "tile", "tile", &format!("must be in 1..=25, got {}", js_number(x))))
        }
        Either::B(other) => Err(Failure::wrong_type("tile", "tile", "a number", type_name(&other))),
    }
}

fn outcome_text(outcome: Option<Outcome>) -> Option<String> {
    outcome.map(|o| o.as_str().to_owned())
}

#[napi]
impl Round {
    /// Reveals `tile` (1-based: 1 = top-left, 5 = top-right, 25 = bottom-right).
    ///
    /// Returns `{ safe: true, safePicks, multiplier }` for a safe tile (revealing the last safe tile
    /// ends the round, paid out), `{ safe: false, safePicks, multiplier: null }` for a mine (the round
    /// is lost).
    ///
    /// @throws {TypeError} `tile` is not a number
    /// @throws {RangeError} `tile` is not an integer in 1..=25 (`'FAIRMINES_INVALID_TILE'`) or was
    /// revealed before (`'FAIRMINES_TILE_ALREADY_REVEALED'`)
    /// @throws {Error} the round has finished (`code: 'FAIRMINES_ROUND_FINISHED'`) or was voided by its
    /// seed pair (`code: 'FAIRMINES_ROUND_VOIDED'`)
    #[napi(catch_unwind, ts_args_type = "tile: number")]
    pub fn reveal(&mut self, env: Env, tile: NumberArg<'_>) -> Result<RevealResult> {
        guard(&env, || {
            let tile = self::tile(tile)?;
            Ok(match self.inner.reveal(tile).map_err(Failure::core)? {
                Reveal::Safe { safe_picks, multiplier } => RevealResult {
                    safe: true,
                    safe_picks: u32::from(safe_picks),
                    multiplier: Either::A(multiplier.into()),
                },
                Reveal::Mine => RevealResult {
                    safe: false,
                    safe_picks: u32::from(self.inner.safe_picks()),
                    multiplier: Either::B(Null),
                },
            })
        })
    }

    /// Ends the round and returns the multiplier to pay.
    ///
    /// @throws {Error} no safe pick yet (`code: 'FAIRMINES_NOTHING_TO_CASH_OUT'`), the round has
    /// finished (`'FAIRMINES_ROUND_FINISHED'`) or was voided (`'FAIRMINES_ROUND_VOIDED'`)
    #[napi(catch_unwind)]
    pub fn cash_out(&mut self, env: Env) -> Result<Ratio> {
        guard(&env, || Ok(self.inner.cash_out().map_err(Failure::core)?.into()))
    }

    /// The public record, once the round has finished (or was voided); `null` while it is in play.
    #[napi(ts_return_type = "RoundRecord | null")]
    pub fn record(&self) -> Option<RoundRecord> {
        self.inner.record().map(RoundRecord::from)
    }

    /// The mine positions (sorted, 1-based) once the round has finished; `null` while it is in play.
    #[napi(getter, ts_return_type = "number[] | null")]
    pub fn mine_positions(&self) -> Option<Vec<u8>> {
        self.inner.mine_positions().map(|tiles| tiles.to_vec())
    }

    /// The tiles picked so far, in order.
    #[napi(getter, ts_return_type = "number[]")]
    pub fn picks(&self) -> Vec<u8> {
        self.inner.picks().to_vec()
    }

    /// The nonce this round used.
    #[napi(getter)]
    pub fn nonce(&self) -> BigInt {
        BigInt::from(self.inner.nonce())
    }

    /// The mine count.
    #[napi(getter)]
    pub fn mines(&self) -> u32 {
        u32::from(self.inner.mines().get())
    }

    /// Whether the round has ended: a mine, a cash-out, or voided by its seed pair.
    #[napi(getter)]
    pub fn is_finished(&self) -> bool {
        self.inner.is_finished()
    }

    /// How the round ended: `'lost'`, `'cashed_out'` or `'voided'`; `null` while it is in play.
    #[napi(getter, ts_return_type = "'lost' | 'cashed_out' | 'voided' | null")]
    pub fn outcome(&self) -> Option<String> {
        outcome_text(self.inner.outcome())
    }

    /// Safe tiles revealed so far.
    #[napi(getter)]
    pub fn safe_picks(&self) -> u32 {
        u32::from(self.inner.safe_picks())
    }

    /// What a cash-out pays now (or paid): `null` before the first safe pick, after a mine and once voided.
    #[napi(getter, ts_return_type = "Ratio | null")]
    pub fn multiplier(&self) -> Option<Ratio> {
        self.inner.multiplier().map(Ratio::from)
    }

    /// The commitment of the seed pair the round was played with.
    #[napi(getter)]
    pub fn commitment(&self) -> String {
        self.inner.commitment().to_string()
    }

    /// The client seed.
    #[napi(getter)]
    pub fn client_seed(&self) -> String {
        self.inner.client_seed().to_owned()
    }

    /// The return-to-player factor of the multipliers.
    #[napi(getter)]
    pub fn rtp(&self) -> Ratio {
        self.inner.rtp().factor().into()
    }

    /// The round's public state in one line (the mines only once it has finished).
    #[napi(js_name = "toString")]
    pub fn to_js_string(&self) -> String {
        let r = &self.inner;
        let list = |tiles: &[u8]| tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(", ");
        let outcome = r.outcome().map_or("null".to_owned(), |o| format!("{:?}", o.as_str()));
        let multiplier = r.multiplier().map_or("null".to_owned(), |m| format!("\"{m}\""));
        let mines_at = r.mine_positions().map_or("null".to_owned(), |t| format!("[{}]", list(&t)));
        format!(
            "Round {{ commitment: \"{}\", clientSeed: {:?}, nonce: {}n, mines: {}, rtp: \"{}\", picks: [{}], \
             safePicks: {}, outcome: {outcome}, multiplier: {multiplier}, minePositions: {mines_at} }}",
            r.commitment(),
            r.client_seed(),
            r.nonce(),
            r.mines().get(),
            r.rtp(),
            list(r.picks()),
            r.safe_picks(),
        )
    }

    /// The round's public state for `JSON.stringify` (nonce in decimal, ratios as `"num/den"`).
    #[napi(js_name = "toJSON")]
    pub fn to_json(&self) -> RoundJson {
        let r = &self.inner;
        let either = |v: Option<String>| v.map_or(Either::B(Null), Either::A);
        RoundJson {
            commitment: r.commitment().to_string(),
            client_seed: r.client_seed().to_owned(),
            nonce: r.nonce().to_string(),
            mines: u32::from(r.mines().get()),
            rtp: r.rtp().to_string(),
            picks: r.picks().iter().copied().map(u32::from).collect(),
            safe_picks: u32::from(r.safe_picks()),
            outcome: either(outcome_text(r.outcome())),
            multiplier: either(r.multiplier().map(|m| m.to_string())),
            mine_positions: r
                .mine_positions()
                .map_or(Either::B(Null), |t| Either::A(t.iter().copied().map(u32::from).collect())),
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Records and their replay
// ---------------------------------------------------------------------------------------------------

/// The public record of a finished round, as the operator publishes it: a plain object.
///
/// {@link recordToJson} writes it as the core's JSON (the same text every fairmines package writes and
/// reads) and {@link recordFromJson} reads it back. Functions that take a record also accept a `number`
/// nonce and ratio strings (`'99/100'`) in place of `Ratio`s, and refuse any key that is not one of
/// these fields (a `TypeError` naming it: `record.multipler: unknown field: …`).
#[napi(object, object_from_js = false)]
pub struct RoundRecord {
    /// The commitment of the seed pair, shown before play (64 hex characters).
    pub commitment: String,
    /// The client seed.
    pub client_seed: String,
    /// The round's nonce.
    #[napi(ts_type = "bigint")]
    pub nonce: BigInt,
    /// The mine count.
    pub mines: u32,
    /// The return-to-player factor the multipliers were computed with.
    pub rtp: Ratio,
    /// The tiles picked, in order (1-based).
    pub picks: Vec<u32>,
    /// How the round ended (`'voided'`: its seed pair voided it while in play; the stake is returned).
    #[napi(ts_type = "'lost' | 'cashed_out' | 'voided'")]
    pub outcome: String,
    /// The multiplier paid; `null` when the round was lost or voided.
    pub multiplier: Either<Ratio, Null>,
}

impl From<fairmines::RoundRecord> for RoundRecord {
    fn from(record: fairmines::RoundRecord) -> Self {
        RoundRecord {
            commitment: record.commitment.to_string(),
            client_seed: record.client_seed,
            nonce: BigInt::from(record.nonce),
            mines: u32::from(record.mines),
            rtp: record.rtp.factor().into(),
            picks: record.picks.iter().copied().map(u32::from).collect(),
            outcome: record.outcome.as_str().to_owned(),
            multiplier: ratio_or_null(record.multiplier),
        }
    }
}

/// A required field of a record; a missing (`undefined`) one is a `TypeError`.
fn field<T>(record: &Object<'_>, name: &str, expected: &str) -> Converted<T>
where
    T: napi::bindgen_prelude::FromNapiValue,
{
    let label = format!("record.{name}");
    record
        .get::<T>(name)
        .map_err(|e| Failure::plain("FAIRMINES_INTERNAL", format!("{label}: {e}")))?
        .ok_or_else(|| Failure::wrong_type("record", &label, expected, "undefined"))
}

/// An integer that fits the core's `u8` field, or a `RangeError` of the kind of `kind`.
fn small(value: NumberArg<'_>, label: &str, kind: &fairmines::Error, rule: &str) -> Converted<u8> {
    match value {
        Either::A(x) if x.is_finite() && x.fract() == 0.0 && (0.0..=255.0).contains(&x) => Ok(x as u8),
        Either::A(x) => Err(Failure::range(kind, "record", label, &format!("{rule}, got {}", js_number(x)))),
        Either::B(other) => Err(Failure::wrong_type("record", label, "a number", type_name(&other))),
    }
}

/// The fields of a [`RoundRecord`]: functions that take a record refuse any other key.
const RECORD_FIELDS: [&str; 8] =
    ["commitment", "clientSeed", "nonce", "mines", "rtp", "picks", "outcome", "multiplier"];

/// Every outcome a record can hold, in the core's spelling.
const OUTCOMES: [Outcome; 3] = [Outcome::Lost, Outcome::CashedOut, Outcome::Voided];

// A new outcome in the core stops the build here until it is added to `OUTCOMES`.
const _: fn(Outcome) = |outcome| match outcome {
    Outcome::Lost | Outcome::CashedOut | Outcome::Voided => {}
};

/// A JavaScript record as the core's `RoundRecord`. Only what the core's types require is checked
/// here; whether the record describes a real round is `verifyRound`'s question.
fn record(value: Either<Object<'_>, Unknown<'_>>) -> Converted<fairmines::RoundRecord> {
    let object = match value {
        Either::A(object) => object,
        Either::B(other) => return Err(Failure::wrong_type("record", "record", "an object", type_name(&other))),
    };
    known_keys(&object, "record", "a round record", &RECORD_FIELDS)?;
    let commitment = text_in(field(&object, "commitment", "a string")?, "record", "record.commitment")?;
    let commitment =
        Digest::parse_hex(&commitment, "commitment").map_err(|e| Failure::core_in(e, "record", "record.commitment"))?;
    let client_seed = text_in(field(&object, "clientSeed", "a string")?, "record", "record.clientSeed")?;
    let nonce = crate::nonce(field(&object, "nonce", "a number or a bigint")?, "record", "record.nonce")?;
    let mines =
        small(field(&object, "mines", "a number")?, "record.mines", &INVALID_MINES, "must be an integer in 1..=24")?;
    let rtp = self::rtp(field(&object, "rtp", RATIO_EXPECTED)?, "record", "record.rtp")?;
    let picks = match field::<Either<Array<'_>, Unknown<'_>>>(&object, "picks", "an array of numbers")? {
        Either::A(array) => {
            let mut picks = Vec::with_capacity(array.len().min(26) as usize);
            for i in 0..array.len() {
                let label = format!("record.picks[{i}]");
                let element = array
                    .get::<NumberArg<'_>>(i)
                    .map_err(|e| Failure::plain("FAIRMINES_INTERNAL", format!("{label}: {e}")))?
                    .ok_or_else(|| Failure::range(&INVALID_TILE, "record", &label, "is missing"))?;
                picks.push(small(element, &label, &INVALID_TILE, "must be an integer in 1..=25")?);
            }
            picks
        }
        Either::B(other) => {
            return Err(Failure::wrong_type("record", "record.picks", "an array of numbers", type_name(&other)));
        }
    };
    let outcome = text_in(field(&object, "outcome", "a string")?, "record", "record.outcome")?;
    let outcome = OUTCOMES.into_iter().find(|o| o.as_str() == outcome).ok_or_else(|| {
        let known: Vec<String> = OUTCOMES.iter().map(|o| format!("'{}'", o.as_str())).collect();
        Failure::range(
            &INVALID_STATE,
            "record",
            "record.outcome",
            &format!("must be one of {}, got {outcome:?}", known.join(", ")),
        )
    })?;
    let multiplier = match field::<Either<Null, Unknown<'_>>>(&object, "multiplier", "a Ratio, a string or null")? {
        Either::A(Null) => None,
        Either::B(_) => Some(ratio(field(&object, "multiplier", RATIO_EXPECTED)?, "record", "record.multiplier")?),
    };
    Ok(fairmines::RoundRecord { commitment, client_seed, nonce, mines, rtp, picks, outcome, multiplier })
}

/// The core's JSON of a round record: the same text every fairmines package writes, e.g.
/// `{"commitment":"…","client_seed":"…","nonce":0,"mines":3,"rtp":"99/100","picks":[7,2],
/// "outcome":"cashed_out","multiplier":"1287/1000"}`.
///
/// @throws {TypeError} `record` is not an object, a field has the wrong type, or `record` has a key
/// that is not a field (`argument: 'record'`, the message names the field: `record.nonce: …`)
/// @throws {RangeError} a field's value is out of range, e.g. `record.commitment` not 64 hex
/// characters (`'FAIRMINES_INVALID_HEX'`), `record.rtp` outside (0, 1] (`'FAIRMINES_INVALID_RTP'`)
#[napi(catch_unwind, ts_args_type = "record: RoundRecord", ts_return_type = "string")]
pub fn record_to_json(env: Env, record: Either<Object<'_>, Unknown<'_>>) -> Result<String> {
    guard(&env, || Ok(self::record(record)?.to_json()))
}

/// Reads a round record from the core's JSON (written by {@link recordToJson} or any fairmines package).
///
/// @throws {TypeError} `json` is not a string
/// @throws {RangeError} `json` is not a round record, or has a field a record does not have (the
/// message names it; `code: 'FAIRMINES_INVALID_STATE'`)
#[napi(catch_unwind, ts_args_type = "json: string", ts_return_type = "RoundRecord")]
pub fn record_from_json(env: Env, json: StringArg<'_>) -> Result<RoundRecord> {
    guard(&env, || {
        let json = text(json, "json")?;
        Ok(fairmines::RoundRecord::from_json(&json).map_err(|e| Failure::core_in(e, "json", "json"))?.into())
    })
}

/// The replay of a finished round against its revealed server seed.
#[napi(object, object_from_js = false)]
pub struct RoundVerification {
    /// `true` when the record is exactly what the seeds and picks give (`differences` is empty).
    pub ok: bool,
    /// SHA3-256 of the revealed server seed equals the record's commitment.
    pub commitment_ok: bool,
    /// Where the mines were: sorted, 1-based.
    pub mine_positions: Vec<u32>,
    /// The outcome the picks lead to: `'voided'` only for a voided record whose picks are all safe and
    /// leave a safe tile closed.
    #[napi(ts_type = "'lost' | 'cashed_out' | 'voided'")]
    pub expected_outcome: String,
    /// The multiplier the picks lead to; `null` when they hit a mine or the round was voided.
    pub expected_multiplier: Either<Ratio, Null>,
    /// Each way the record differs from the replay, in words (`'multiplier: the record says …'`);
    /// empty when it holds.
    pub differences: Vec<String>,
}

/// Replays a finished round from its record and the server seed revealed after rotation, and says
/// what differs, if anything does. A voided record holds when its picks are all safe and leave a safe
/// tile closed, with no multiplier.
///
/// @param serverSeed - the revealed server seed (any string: a wrong one is a difference, not an error)
/// @throws {TypeError} `record` is not an object, a field has the wrong type, `record` has a key that is
/// not a field, or `serverSeed` is not a string
/// @throws {RangeError} a record that cannot describe a round: `record.mines` outside 1..=24
/// (`'FAIRMINES_INVALID_MINES'`), a pick outside 1..=25 or more than 25 picks (`'FAIRMINES_INVALID_TILE'`),
/// and the range errors of {@link recordToJson}
#[napi(catch_unwind, ts_args_type = "record: RoundRecord, serverSeed: string", ts_return_type = "RoundVerification")]
pub fn verify_round(
    env: Env,
    record: Either<Object<'_>, Unknown<'_>>,
    server_seed: StringArg<'_>,
) -> Result<RoundVerification> {
    guard(&env, || {
        let record = self::record(record)?;
        let server = text(server_seed, "serverSeed")?;
        let replay = fairmines::verify_round(&record, &server).map_err(|e| {
            let label = format!("record.{}", crate::camel(e.argument().unwrap_or("")));
            Failure::core_in(e, "record", &label)
        })?;
        Ok(RoundVerification {
            ok: replay.is_ok(),
            commitment_ok: replay.commitment_ok,
            mine_positions: replay.mine_positions.iter().copied().map(u32::from).collect(),
            expected_outcome: replay.expected_outcome.as_str().to_owned(),
            expected_multiplier: ratio_or_null(replay.expected_multiplier),
            differences: replay.differences,
        })
    })
}

// ---------------------------------------------------------------------------------------------------
// Payouts
// ---------------------------------------------------------------------------------------------------

/// A number of safe picks that fits the core's `u8`; the range check proper is the core's.
fn safe_picks(value: NumberArg<'_>, mines: MineCount) -> Converted<u8> {
    let rule = || format!("must be in 1..={} with {} mines", fairmines::max_safe_picks(mines), mines.get());
    match value {
        Either::A(x) if x.is_finite() && x.fract() == 0.0 && (0.0..=255.0).contains(&x) => Ok(x as u8),
        Either::A(x) => {
            Err(Failure::range(&INVALID_PICKS, "safePicks", "safePicks", &format!("{}, got {}", rule(), js_number(x))))
        }
        Either::B(other) => Err(Failure::wrong_type("safePicks", "safePicks", "a number", type_name(&other))),
    }
}

/// The multiplier after `safePicks` safe picks with `mines` mines: C(25, k) / C(25 − m, k) × RTP, exactly.
///
/// @param safePicks - an integer in 1..=25 − mines
/// @param rtp - the return-to-player factor in (0, 1]: `'0.99'`, `'99/100'` or a `Ratio` (not a `number`)
/// @throws {TypeError} an argument has the wrong type
/// @throws {RangeError} `mines` outside 1..=24 (`'FAIRMINES_INVALID_MINES'`), `safePicks` outside
/// 1..=25 − mines (`'FAIRMINES_INVALID_PICKS'`), `rtp` outside (0, 1] (`'FAIRMINES_INVALID_RTP'`)
#[napi(catch_unwind, ts_args_type = "mines: number, safePicks: number, rtp: string | Ratio", ts_return_type = "Ratio")]
pub fn multiplier(env: Env, mines: NumberArg<'_>, safe_picks: NumberArg<'_>, rtp: RatioArg<'_>) -> Result<Ratio> {
    guard(&env, || {
        let mines = crate::mines(mines)?;
        let safe_picks = self::safe_picks(safe_picks, mines)?;
        let rtp = self::rtp(rtp, "rtp", "rtp")?;
        Ok(fairmines::multiplier(mines, safe_picks, rtp).map_err(Failure::core)?.into())
    })
}

/// One entry of the payout table.
#[napi(object, object_from_js = false)]
pub struct TableEntry {
    /// Mines in the round.
    pub mines: u32,
    /// Safe picks made.
    pub safe_picks: u32,
    /// The exact multiplier.
    pub multiplier: Ratio,
}

/// The whole payout table: every mine count 1..=24 and every number of safe picks 1..=25 − mines
/// (300 entries), ordered by mines, then safe picks.
///
/// @throws {TypeError} `rtp` is not a string or a `Ratio`
/// @throws {RangeError} `rtp` outside (0, 1] or not a fraction (`'FAIRMINES_INVALID_RTP'`)
#[napi(catch_unwind, ts_args_type = "rtp: string | Ratio", ts_return_type = "TableEntry[]")]
pub fn payout_table(env: Env, rtp: RatioArg<'_>) -> Result<Vec<TableEntry>> {
    guard(&env, || {
        let rtp = self::rtp(rtp, "rtp", "rtp")?;
        Ok(fairmines::payout_table(rtp)
            .into_iter()
            .map(|entry| TableEntry {
                mines: u32::from(entry.mines),
                safe_picks: u32::from(entry.safe_picks),
                multiplier: entry.multiplier.into(),
            })
            .collect())
    })
}

/// The most safe picks a round with `mines` mines allows: 25 − mines.
///
/// @throws {TypeError} `mines` is not a number
/// @throws {RangeError} `mines` outside 1..=24 (`'FAIRMINES_INVALID_MINES'`)
#[napi(catch_unwind, ts_args_type = "mines: number", ts_return_type = "number")]
pub fn max_safe_picks(env: Env, mines: NumberArg<'_>) -> Result<u32> {
    guard(&env, || Ok(u32::from(fairmines::max_safe_picks(crate::mines(mines)?))))
}

// ---------------------------------------------------------------------------------------------------
// util.inspect
// ---------------------------------------------------------------------------------------------------

/// Gives the classes a `[util.inspect.custom]` method: `console.log(pair)` shows what `toString()`
/// gives (the public part of a seed pair, never its server seed), a ratio shows as `Ratio(99/100)`.
/// Called by [`crate::init`] when the module is loaded.
pub(crate) fn install_inspect(exports: &Object<'_>, env: &Env) -> Result<()> {
    let key = env.symbol_for("nodejs.util.inspect.custom")?;
    for (class, wrap) in [("Ratio", true), ("SeedPair", false), ("Round", false)] {
        // A class is a function: read it untyped, then as the object it also is.
        let constructor = exports.get_named_property::<Unknown<'_>>(class)?.coerce_to_object()?;
        let mut prototype: Object<'_> = constructor.get_named_property("prototype")?;
        let inspect = env.create_function_from_closure::<(), String, _>("inspect", move |ctx| {
            let this: Object<'_> = ctx.this()?;
            let to_string: Function<'_, (), String> = this.get_named_property("toString")?;
            let shown = to_string.apply(this, ())?;
            Ok(if wrap { format!("{class}({shown})") } else { shown })
        })?;
        prototype.define_properties(&[Property::new()
            .with_name(env, key)?
            .with_value(&inspect)
            .with_property_attributes(PropertyAttributes::Configurable | PropertyAttributes::Writable)])?;
    }
    Ok(())
}
