//! The game: seed pairs, rounds, reveals, cash-outs, round records and their replay, exact payouts.
//!
//! Objects (`SeedPair`, `Round`) are shared by `Arc` with the foreign side, which may call them from any
//! thread: each holds its core value in a [`Mutex`]. A poisoned lock (only possible if a call panicked
//! while holding it; the core has no panics) is reported as `InvalidState` naming the object, never a panic.
//!
//! Exact ratios ([`Ratio`]) cross the boundary as decimal strings of the numerator and denominator, so
//! every value of the core's `u128` fractions is exact in every language, with no overflow case.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard};

use fairmines::{Digest, Error, MineCount, Rtp, ServerSeed, Tiles};

use crate::{Result, tiles};

/// An exact, non-negative fraction in lowest terms (a multiplier or an RTP factor).
///
/// `numerator` and `denominator` are decimal digits of unsigned integers below 2^128 (the core's range;
/// strings because no Kotlin, Swift or Ruby integer type holds all of them). `decimal` is the value
/// rounded **down** to 2 decimal places, the text to show users (a displayed multiplier never promises
/// more than the exact one); `ratioToDecimal(ratio, places)` gives other precisions. Its string form is the core's
/// `num/den` (just `num` for a whole number), as in the JSON of a round record.
#[derive(Debug, Clone, PartialEq, Eq, Hash, uniffi::Record)]
#[uniffi::export(Display)]
pub struct Ratio {
    /// The numerator in lowest terms, as decimal digits.
    pub numerator: String,
    /// The denominator in lowest terms (never 0), as decimal digits.
    pub denominator: String,
    /// The value rounded down to 2 decimal places, e.g. `1.12` for 9/8. Ignored when a ratio is passed in.
    pub decimal: String,
}

impl From<fairmines::Ratio> for Ratio {
    fn from(ratio: fairmines::Ratio) -> Self {
        Ratio {
            numerator: ratio.numer().to_string(),
            denominator: ratio.denom().to_string(),
            decimal: ratio.to_decimal(fairmines::Places::TWO),
        }
    }
}

impl Ratio {
    /// The core's ratio, reduced to lowest terms; `InvalidNumber` naming `argument` when it is not a fraction.
    fn to_core(&self, argument: &'static str) -> Result<fairmines::Ratio, Error> {
        let bad = |detail: String| Error::InvalidNumber { argument, detail };
        let part = |digits: &str, which: &str| {
            digits.parse::<u128>().map_err(|_| bad(format!("the {which} {digits:?} is not an integer in 0..2^128")))
        };
        let (num, den) = (part(&self.numerator, "numerator")?, part(&self.denominator, "denominator")?);
        fairmines::Ratio::new(num, den).ok_or_else(|| bad("the denominator is 0".to_owned()))
    }
}

/// `ratio`'s value rounded **down** to `places` decimal places, e.g. `"1.125"` for 9/8 with 3; more than 18
/// places is refused with `InvalidNumber` (argument `places`), not clamped.
///
/// Fails with `InvalidNumber` (argument `ratio`) for a hand-made ratio whose parts are not a fraction.
/// (A free function rather than a method of `Ratio`: UniFFI 0.32.2 writes Ruby record methods that take
/// arguments without their parameter list.)
#[uniffi::export]
pub fn ratio_to_decimal(ratio: Ratio, places: u32) -> Result<String> {
    Ok(ratio.to_core("ratio")?.to_decimal(fairmines::Places::new(places)?))
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_core("ratio") {
            Ok(ratio) => fmt::Display::fmt(&ratio, f),
            Err(_) => write!(f, "{}/{}", self.numerator, self.denominator),
        }
    }
}

fn ratio(ratio: fairmines::Ratio) -> Ratio {
    ratio.into()
}

fn rtp(text: &str) -> Result<Rtp, Error> {
    Rtp::parse(text)
}

/// How a round ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, uniffi::Enum)]
pub enum Outcome {
    /// A mine was revealed: the stake is lost.
    Lost,
    /// The player cashed out (or revealed every safe tile) and is paid the multiplier.
    CashedOut,
    /// The seed pair voided the round while it was in play (`voidOpenRounds`): no multiplier, the stake
    /// is returned.
    Voided,
}

impl From<fairmines::Outcome> for Outcome {
    fn from(outcome: fairmines::Outcome) -> Self {
        match outcome {
            fairmines::Outcome::Lost => Outcome::Lost,
            fairmines::Outcome::CashedOut => Outcome::CashedOut,
            fairmines::Outcome::Voided => Outcome::Voided,
        }
    }
}

impl From<Outcome> for fairmines::Outcome {
    fn from(outcome: Outcome) -> Self {
        match outcome {
            Outcome::Lost => fairmines::Outcome::Lost,
            Outcome::CashedOut => fairmines::Outcome::CashedOut,
            Outcome::Voided => fairmines::Outcome::Voided,
        }
    }
}

/// The public side of a seed pair: what the player sees while it is active.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct PublicSeedPair {
    /// SHA3-256 of the (secret) server seed, lowercase hex.
    pub commitment: String,
    /// The player's client seed.
    pub client_seed: String,
    /// The nonce of the next round.
    pub nonce: u64,
}

impl From<fairmines::PublicSeedPair> for PublicSeedPair {
    fn from(public: fairmines::PublicSeedPair) -> Self {
        PublicSeedPair {
            commitment: public.commitment.to_string(),
            client_seed: public.client_seed,
            nonce: public.nonce,
        }
    }
}

#[uniffi::export]
impl PublicSeedPair {
    /// As JSON: `{"commitment":hex,"client_seed":…,"nonce":n}`. Fails with `InvalidHex` (argument
    /// `commitment`) for a hand-made record whose commitment is not 64 hex characters.
    pub fn to_json(&self) -> Result<String> {
        let commitment = Digest::parse_hex(&self.commitment, "commitment")?;
        let core = fairmines::PublicSeedPair { commitment, client_seed: self.client_seed.clone(), nonce: self.nonce };
        Ok(core.to_json())
    }
}

/// Parses `PublicSeedPair.toJson()`'s form; `InvalidState` (argument `public`) when it does not, or has a
/// field the form does not.
#[uniffi::export]
pub fn public_seed_pair_from_json(json: &str) -> Result<PublicSeedPair> {
    Ok(fairmines::PublicSeedPair::from_json(json)?.into())
}

/// A seed pair that has been rotated out: its server seed may now be published.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct RevealedSeedPair {
    /// The server seed, now public.
    pub server_seed: String,
    /// Its commitment, as shown before play (lowercase hex).
    pub commitment: String,
    /// The client seed it was used with.
    pub client_seed: String,
    /// How many rounds it played (nonces 0 until `rounds`).
    pub rounds: u64,
}

impl From<fairmines::RevealedSeedPair> for RevealedSeedPair {
    fn from(revealed: fairmines::RevealedSeedPair) -> Self {
        RevealedSeedPair {
            server_seed: revealed.server_seed,
            commitment: revealed.commitment.to_string(),
            client_seed: revealed.client_seed,
            rounds: revealed.rounds,
        }
    }
}

#[uniffi::export]
impl RevealedSeedPair {
    /// As JSON: `{"server_seed":…,"commitment":hex,"client_seed":…,"rounds":n}`. Fails with `InvalidHex`
    /// (argument `commitment`) for a hand-made record whose commitment is not 64 hex characters.
    pub fn to_json(&self) -> Result<String> {
        let core = fairmines::RevealedSeedPair {
            server_seed: self.server_seed.clone(),
            commitment: Digest::parse_hex(&self.commitment, "commitment")?,
            client_seed: self.client_seed.clone(),
            rounds: self.rounds,
        };
        Ok(core.to_json())
    }
}

/// Parses `RevealedSeedPair.toJson()`'s form; `InvalidState` (argument `revealed`) when it does not, or has
/// a field the form does not.
#[uniffi::export]
pub fn revealed_seed_pair_from_json(json: &str) -> Result<RevealedSeedPair> {
    Ok(fairmines::RevealedSeedPair::from_json(json)?.into())
}

fn lock<'a, T>(mutex: &'a Mutex<T>, object: &'static str) -> Result<MutexGuard<'a, T>> {
    mutex.lock().map_err(|_| {
        Error::InvalidState {
            argument: object,
            detail: "a call panicked while holding this object's lock; it can no longer be used".to_owned(),
        }
        .into()
    })
}

/// The operator's state of one player's seed pair: a secret server seed with its public commitment, the
/// player's client seed, the nonce of the next round and the rounds still in play.
///
/// The server seed is revealed only when no round can move: `rotate`/`setClientSeed` fail with
/// `RoundsInPlay` while a round started from the pair is in play (neither finished nor voided). Finish
/// such rounds, or end them with `voidOpenRounds()`: a voided round refuses every later move
/// (`RoundVoided`) and its record's outcome is `Voided`.
///
/// Its string forms (`toString`, `description`, `to_s`, `inspect`) never show the server seed; it leaves
/// only through `rotate`/`setClientSeed` (the seed being retired) and `toStateJson` (the operator's storage).
#[derive(uniffi::Object)]
#[uniffi::export(Debug, Display)]
pub struct SeedPair(Mutex<fairmines::SeedPair>);

impl SeedPair {
    fn lock(&self) -> Result<MutexGuard<'_, fairmines::SeedPair>> {
        lock(&self.0, "seed_pair")
    }

    fn wrap(pair: fairmines::SeedPair) -> Arc<Self> {
        Arc::new(SeedPair(Mutex::new(pair)))
    }
}

#[uniffi::export]
impl SeedPair {
    /// A new pair: a fresh server seed from the OS CSPRNG, the player's client seed, nonce 0.
    /// Fails with `Rng` only if the OS generator fails.
    #[uniffi::constructor]
    pub fn new(client_seed: &str) -> Result<Arc<Self>> {
        Ok(Self::wrap(fairmines::SeedPair::new(client_seed)?))
    }

    /// A pair from parts the operator already has: the server seed as 64 lowercase hex characters (as
    /// generated; `InvalidHex`, argument `server_seed`, otherwise), the client seed and the next nonce.
    #[uniffi::constructor]
    pub fn from_parts(server_seed: &str, client_seed: &str, nonce: u64) -> Result<Arc<Self>> {
        let server_seed = ServerSeed::from_hex(server_seed)?;
        Ok(Self::wrap(fairmines::SeedPair::from_parts(server_seed, client_seed, nonce)))
    }

    /// Restores a pair from `toStateJson()`, checking that the commitment belongs to the server seed;
    /// `InvalidState` (argument `state`) when it does not parse, has an unknown field, or does not hold
    /// together. The rounds the state lists as open stay open: the restored pair refuses to rotate until
    /// `voidOpenRounds()` (the rounds themselves are not in the state, so they can only be voided).
    #[uniffi::constructor]
    pub fn from_state_json(json: &str) -> Result<Arc<Self>> {
        Ok(Self::wrap(fairmines::SeedPair::from_state_json(json)?))
    }

    /// What the player may see now: the commitment, the client seed and the next nonce.
    pub fn public(&self) -> Result<PublicSeedPair> {
        Ok(self.lock()?.public().into())
    }

    /// Starts a round with the current nonce, then increments the nonce; the grid is fixed now.
    ///
    /// `mines` in 1..=24 (`InvalidMines`), `rtp` the return-to-player factor as `"0.99"` or `"99/100"`, in
    /// (0, 1] (`InvalidRtp`). `InvalidNonce` when the pair has used every nonce (rotate it).
    pub fn start_round(&self, mines: i32, rtp: &str) -> Result<Arc<Round>> {
        let mines = MineCount::try_from(mines)?;
        let rtp = self::rtp(rtp)?;
        let round = self.lock()?.start_round(mines, rtp)?;
        Ok(Arc::new(Round::new(round)))
    }

    /// The nonces of the rounds in play, ascending: started and neither finished nor voided (including
    /// those listed in the state the pair was restored from).
    pub fn open_rounds(&self) -> Result<Vec<u64>> {
        Ok(self.lock()?.open_rounds())
    }

    /// Voids every round in play and returns their nonces, ascending. A voided round refuses every later
    /// move with `RoundVoided`, and its record's outcome is `Voided` (no multiplier: the stake is
    /// returned). Afterwards the pair can rotate.
    pub fn void_open_rounds(&self) -> Result<Vec<u64>> {
        Ok(self.lock()?.void_open_rounds())
    }

    /// Ends this pair and starts a new one (fresh server seed, new commitment, nonce 0), with a new client
    /// seed if one is given. Returns the old pair with its server seed, which may now be published.
    ///
    /// `RoundsInPlay` while a round of the pair is in play (finish it or `voidOpenRounds()` first); a
    /// refused rotation changes nothing.
    pub fn rotate(&self, client_seed: Option<String>) -> Result<RevealedSeedPair> {
        Ok(self.lock()?.rotate(client_seed.as_deref())?.into())
    }

    /// A new client seed always starts a new pair, revealing the old server seed: the same as
    /// `rotate(clientSeed)`, and refused with `RoundsInPlay` in the same way.
    pub fn set_client_seed(&self, client_seed: &str) -> Result<RevealedSeedPair> {
        Ok(self.lock()?.set_client_seed(client_seed)?.into())
    }

    /// The full state as JSON, for the operator's own storage: `{"server_seed", "commitment", "client_seed",
    /// "nonce", "open_rounds": [nonces in play]}`. It contains the secret server seed.
    pub fn to_state_json(&self) -> Result<String> {
        Ok(self.lock()?.to_state_json())
    }
}

impl fmt::Debug for SeedPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.lock() {
            Ok(pair) => fmt::Debug::fmt(&*pair, f),
            Err(_) => f.write_str("SeedPair(<lock poisoned>)"),
        }
    }
}

impl fmt::Display for SeedPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.lock() {
            Ok(pair) => {
                let public = pair.public();
                write!(
                    f,
                    "SeedPair(commitment={}, client_seed={:?}, nonce={}, server_seed=<hidden>)",
                    public.commitment, public.client_seed, public.nonce
                )
            }
            Err(_) => f.write_str("SeedPair(<lock poisoned>)"),
        }
    }
}

/// What a reveal found.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Reveal {
    /// True for a safe tile, false for a mine (the round is then lost).
    pub safe: bool,
    /// Safe picks so far (after a mine: the safe picks before it).
    pub safe_picks: i32,
    /// The multiplier a cash-out would now pay; null/nil after a mine.
    pub multiplier: Option<Ratio>,
}

/// One round in play. The grid is fixed when the round starts; each pick is checked against it. The mine
/// positions stay hidden (`minePositions()` is null/nil, the string forms do not show them) until it ends.
#[derive(uniffi::Object)]
#[uniffi::export(Debug)]
pub struct Round {
    round: Mutex<fairmines::Round>,
    // What never changes after the start, read once from the core so that these need no lock.
    commitment: String,
    client_seed: String,
    nonce: u64,
    mines: i32,
    rtp: Ratio,
}

impl Round {
    fn new(round: fairmines::Round) -> Self {
        Round {
            commitment: round.commitment().to_string(),
            client_seed: round.client_seed().to_owned(),
            nonce: round.nonce(),
            mines: i32::from(round.mines().get()),
            rtp: ratio(round.rtp().factor()),
            round: Mutex::new(round),
        }
    }

    fn lock(&self) -> Result<MutexGuard<'_, fairmines::Round>> {
        lock(&self.round, "round")
    }
}

#[uniffi::export]
impl Round {
    /// Reveals 1-based `tile`: safe (with the multiplier now reached) or a mine (the round is lost).
    ///
    /// Errors: `InvalidTile` (argument `tile`) outside 1..=25, `TileAlreadyRevealed` (argument `tile`),
    /// `RoundFinished` once the round has ended, `RoundVoided` once its seed pair voided it. Revealing the
    /// last safe tile ends the round, cashed out.
    pub fn reveal(&self, tile: i32) -> Result<Reveal> {
        let mut round = self.lock()?;
        Ok(match round.reveal(i64::from(tile))? {
            fairmines::Reveal::Safe { safe_picks, multiplier } => {
                Reveal { safe: true, safe_picks: i32::from(safe_picks), multiplier: Some(ratio(multiplier)) }
            }
            fairmines::Reveal::Mine => {
                Reveal { safe: false, safe_picks: i32::from(round.safe_picks()), multiplier: None }
            }
        })
    }

    /// Ends the round and returns the multiplier to pay. `NothingToCashOut` before any safe pick,
    /// `RoundFinished` once the round has ended, `RoundVoided` once its seed pair voided it.
    pub fn cash_out(&self) -> Result<Ratio> {
        Ok(ratio(self.lock()?.cash_out()?))
    }

    /// The public record, once the round has finished (or was voided); null/nil while it is in play.
    pub fn record(&self) -> Result<Option<RoundRecord>> {
        Ok(self.lock()?.record().map(RoundRecord::from))
    }

    /// The mine positions (sorted, 1-based) once the round has finished; null/nil while it is in play.
    pub fn mine_positions(&self) -> Result<Option<Vec<i32>>> {
        Ok(self.lock()?.mine_positions().map(|positions| tiles(&positions)))
    }

    /// The tiles picked so far, in order (1-based).
    pub fn picks(&self) -> Result<Vec<i32>> {
        Ok(tiles(self.lock()?.picks()))
    }

    /// Whether the round has ended (a mine, a cash-out, or voided).
    pub fn is_finished(&self) -> Result<bool> {
        Ok(self.lock()?.is_finished())
    }

    /// How the round ended; null/nil while it is in play.
    pub fn outcome(&self) -> Result<Option<Outcome>> {
        Ok(self.lock()?.outcome().map(Outcome::from))
    }

    /// Safe tiles revealed so far.
    pub fn safe_picks(&self) -> Result<i32> {
        Ok(i32::from(self.lock()?.safe_picks()))
    }

    /// What a cash-out pays now (or paid): null/nil before the first safe pick, after a mine, and once voided.
    pub fn multiplier(&self) -> Result<Option<Ratio>> {
        Ok(self.lock()?.multiplier().map(ratio))
    }

    /// The nonce this round used.
    pub fn nonce(&self) -> u64 {
        self.nonce
    }

    /// The mine count.
    pub fn mines(&self) -> i32 {
        self.mines
    }

    /// The commitment of the seed pair the round was played with (lowercase hex).
    pub fn commitment(&self) -> String {
        self.commitment.clone()
    }

    /// The client seed.
    pub fn client_seed(&self) -> String {
        self.client_seed.clone()
    }

    /// The return-to-player factor of the multipliers.
    pub fn rtp(&self) -> Ratio {
        self.rtp.clone()
    }
}

impl fmt::Debug for Round {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The core's Debug, which hides the grid.
        match self.round.lock() {
            Ok(round) => fmt::Debug::fmt(&*round, f),
            Err(_) => f.write_str("Round(<lock poisoned>)"),
        }
    }
}

/// The public record of a finished round, as the operator publishes it; `toJson()` gives its JSON form
/// (ratios as `"num/den"` strings, outcome `"lost"`, `"cashed_out"` or `"voided"`), `roundRecordFromJson` reads it.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct RoundRecord {
    /// The commitment of the seed pair, shown before play (lowercase hex).
    pub commitment: String,
    /// The client seed.
    pub client_seed: String,
    /// The round's nonce.
    pub nonce: u64,
    /// The mine count.
    pub mines: i32,
    /// The return-to-player factor the multipliers were computed with.
    pub rtp: Ratio,
    /// The tiles picked, in order (1-based).
    pub picks: Vec<i32>,
    /// How the round ended.
    pub outcome: Outcome,
    /// The multiplier paid (null/nil when lost or voided), exact.
    pub multiplier: Option<Ratio>,
}

impl From<fairmines::RoundRecord> for RoundRecord {
    fn from(record: fairmines::RoundRecord) -> Self {
        RoundRecord {
            commitment: record.commitment.to_string(),
            client_seed: record.client_seed,
            nonce: record.nonce,
            mines: i32::from(record.mines),
            rtp: ratio(record.rtp.factor()),
            picks: tiles(&record.picks),
            outcome: record.outcome.into(),
            multiplier: record.multiplier.map(ratio),
        }
    }
}

impl RoundRecord {
    /// The core's record. Fields that do not fit its types are errors naming the field: `InvalidHex`
    /// (`commitment`), `InvalidMines`, `InvalidTile` (`picks`), `InvalidNumber` (`rtp`, `multiplier`),
    /// `InvalidRtp`.
    fn to_core(&self) -> Result<fairmines::RoundRecord, Error> {
        let mines = MineCount::try_from(self.mines)?.get();
        Tiles::declared(self.picks.iter().copied(), "picks")?;
        // Every pick is now in 1..=25.
        let picks = self.picks.iter().filter_map(|&tile| u8::try_from(tile).ok()).collect();
        Ok(fairmines::RoundRecord {
            commitment: Digest::parse_hex(&self.commitment, "commitment")?,
            client_seed: self.client_seed.clone(),
            nonce: self.nonce,
            mines,
            rtp: Rtp::new(self.rtp.to_core("rtp")?)?,
            picks,
            outcome: self.outcome.into(),
            multiplier: self.multiplier.as_ref().map(|m| m.to_core("multiplier")).transpose()?,
        })
    }
}

#[uniffi::export]
impl RoundRecord {
    /// As JSON, the form operators publish, e.g. `{"commitment":"…","client_seed":"…","nonce":0,"mines":3,
    /// "rtp":"99/100","picks":[7,2],"outcome":"cashed_out","multiplier":"1287/1000"}`.
    pub fn to_json(&self) -> Result<String> {
        Ok(self.to_core()?.to_json())
    }
}

/// Parses `RoundRecord.toJson()`'s form; `InvalidState` (argument `record`) when it does not, or has a
/// field the form does not (the message names it).
#[uniffi::export]
pub fn round_record_from_json(json: &str) -> Result<RoundRecord> {
    Ok(fairmines::RoundRecord::from_json(json)?.into())
}

/// The replay of a finished round against its revealed server seed.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct RoundVerification {
    /// True when the record is exactly what the seeds and picks give (`differences` is empty).
    pub ok: bool,
    /// SHA3-256 of the revealed seed equals the record's commitment.
    pub commitment_ok: bool,
    /// Where the mines were (sorted, 1-based).
    pub mine_positions: Vec<i32>,
    /// The outcome the picks lead to.
    pub expected_outcome: Outcome,
    /// The multiplier the picks lead to (null/nil when lost or voided).
    pub expected_multiplier: Option<Ratio>,
    /// Each way the record differs from the replay, in words (each starts with the field); empty when it holds.
    pub differences: Vec<String>,
}

/// Replays a finished round from its record and the server seed revealed after rotation, and says what
/// differs, if anything does. A mismatch is not an error; errors are only for records that cannot
/// describe a round (see `RoundRecord`'s fields). A voided record holds when its picks are all safe and
/// leave a safe tile unopened, with no multiplier.
#[uniffi::export]
pub fn verify_round(record: RoundRecord, server_seed: &str) -> Result<RoundVerification> {
    let verdict = fairmines::verify_round(&record.to_core()?, server_seed)?;
    Ok(RoundVerification {
        ok: verdict.is_ok(),
        commitment_ok: verdict.commitment_ok,
        mine_positions: tiles(&verdict.mine_positions),
        expected_outcome: verdict.expected_outcome.into(),
        expected_multiplier: verdict.expected_multiplier.map(ratio),
        differences: verdict.differences,
    })
}

/// The core's number of safe picks, or `InvalidPicks` worded as the core words it.
fn safe_picks(safe_picks: i32, mines: MineCount) -> Result<u8, Error> {
    u8::try_from(safe_picks).map_err(|_| Error::InvalidPicks {
        detail: format!(
            "must be in 1..={} with {} mines, got {safe_picks}",
            fairmines::max_safe_picks(mines),
            mines.get()
        ),
    })
}

/// The multiplier after `safePicks` safe picks with `mines` mines: C(25, k) / C(25 − m, k) × RTP, exactly.
///
/// Errors: `InvalidMines`, `InvalidPicks` (argument `safe_picks`, outside 1..=25 − mines), `InvalidRtp`.
#[uniffi::export]
pub fn multiplier(mines: i32, safe_picks: i32, rtp: &str) -> Result<Ratio> {
    let mines = MineCount::try_from(mines)?;
    let rtp = self::rtp(rtp)?;
    Ok(ratio(fairmines::multiplier(mines, self::safe_picks(safe_picks, mines)?, rtp)?))
}

/// One entry of the payout table.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct TableEntry {
    /// Mines in the round.
    pub mines: i32,
    /// Safe picks made.
    pub safe_picks: i32,
    /// The exact multiplier.
    pub multiplier: Ratio,
}

/// The whole payout table for an RTP factor: every mine count 1..=24 and every number of safe picks
/// 1..=25 − mines (300 entries), by mines then safe picks. `InvalidRtp` for a factor outside (0, 1].
#[uniffi::export]
pub fn payout_table(rtp: &str) -> Result<Vec<TableEntry>> {
    let table = fairmines::payout_table(self::rtp(rtp)?);
    Ok(table
        .into_iter()
        .map(|entry| TableEntry {
            mines: i32::from(entry.mines),
            safe_picks: i32::from(entry.safe_picks),
            multiplier: ratio(entry.multiplier),
        })
        .collect())
}

/// The most safe picks a round with `mines` mines allows (25 − mines). `InvalidMines` outside 1..=24.
#[uniffi::export]
pub fn max_safe_picks(mines: i32) -> Result<i32> {
    Ok(i32::from(fairmines::max_safe_picks(MineCount::try_from(mines)?)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FairminesError;

    const SERVER: &str = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
    const CLIENT: &str = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";

    fn worked_example_round() -> (Arc<SeedPair>, Arc<Round>) {
        let pair = SeedPair::from_parts(SERVER, CLIENT, 1).unwrap();
        let round = pair.start_round(3, "0.99").unwrap();
        (pair, round)
    }

    #[test]
    fn a_round_of_the_worked_example() {
        // Mines at 7, 10 and 19 (SPEC.md's worked example, nonce 1).
        let (pair, round) = worked_example_round();
        assert_eq!(pair.public().unwrap().nonce, 2);
        assert_eq!((round.nonce(), round.mines(), round.commitment()), (1, 3, crate::commitment(SERVER)));
        assert_eq!(round.mine_positions().unwrap(), None);
        let first = round.reveal(1).unwrap();
        assert_eq!(
            first,
            Reveal { safe: true, safe_picks: 1, multiplier: Some(ratio(fairmines::Ratio::new(9, 8).unwrap())) }
        );
        assert_eq!(first.multiplier.as_ref().unwrap().decimal, "1.12");
        assert_eq!(first.multiplier.as_ref().unwrap().to_string(), "9/8");
        let mine = round.reveal(10).unwrap();
        assert_eq!(mine, Reveal { safe: false, safe_picks: 1, multiplier: None });
        assert_eq!(round.mine_positions().unwrap(), Some(vec![7, 10, 19]));
        assert_eq!(round.outcome().unwrap(), Some(Outcome::Lost));
        let record = round.record().unwrap().unwrap();
        assert_eq!(record.picks, [1, 10]);
        let verdict = verify_round(record.clone(), SERVER).unwrap();
        assert!(verdict.ok && verdict.commitment_ok, "{verdict:?}");
        assert_eq!(round_record_from_json(&record.to_json().unwrap()).unwrap(), record);
        let err = round.reveal(2).unwrap_err();
        assert!(matches!(err, FairminesError::RoundFinished { code: 10, argument: None, .. }), "{err:?}");
    }

    #[test]
    fn no_rotation_while_a_round_is_in_play() {
        let pair = SeedPair::from_parts(SERVER, CLIENT, 1).unwrap();
        let round = pair.start_round(5, "99/100").unwrap();
        let before = pair.public().unwrap();
        for err in [pair.rotate(None).unwrap_err(), pair.set_client_seed("other").unwrap_err()] {
            assert!(matches!(err, FairminesError::RoundsInPlay { code: 16, argument: None, .. }), "{err:?}");
            assert_eq!(err.parts().1, "ROUNDS_IN_PLAY");
            assert!(err.to_string().contains("(nonce 1)"), "{err}");
        }
        assert_eq!(pair.public().unwrap(), before);
        assert_eq!(pair.open_rounds().unwrap(), [1]);

        // The state keeps the round open: the restored pair refuses too, until it voids it.
        let restored = SeedPair::from_state_json(&pair.to_state_json().unwrap()).unwrap();
        assert_eq!(restored.open_rounds().unwrap(), [1]);
        assert!(matches!(restored.rotate(None), Err(FairminesError::RoundsInPlay { .. })));
        assert_eq!(restored.void_open_rounds().unwrap(), [1]);
        assert_eq!(restored.rotate(None).unwrap().server_seed, SERVER);

        assert_eq!(pair.void_open_rounds().unwrap(), [1]);
        assert_eq!(pair.open_rounds().unwrap(), Vec::<u64>::new());
        let revealed = pair.rotate(None).unwrap();
        for err in [round.reveal(1).unwrap_err(), round.cash_out().unwrap_err()] {
            assert!(matches!(err, FairminesError::RoundVoided { code: 17, argument: None, .. }), "{err:?}");
        }
        assert!(round.is_finished().unwrap());
        assert_eq!(round.outcome().unwrap(), Some(Outcome::Voided));
        let record = round.record().unwrap().unwrap();
        assert_eq!((record.outcome, record.multiplier.as_ref()), (Outcome::Voided, None));
        assert!(record.to_json().unwrap().contains(r#""outcome":"voided""#));
        assert_eq!(round_record_from_json(&record.to_json().unwrap()).unwrap(), record);
        let verdict = verify_round(record, &revealed.server_seed).unwrap();
        assert!(verdict.ok, "{verdict:?}");
        assert_eq!(verdict.expected_outcome, Outcome::Voided);
    }

    #[test]
    fn a_poisoned_lock_is_an_error_not_a_panic() {
        let (pair, round) = worked_example_round();
        let (p, r) = (Arc::clone(&pair), Arc::clone(&round));
        let poison = std::thread::spawn(move || {
            let _pair = p.0.lock().unwrap();
            let _round = r.round.lock().unwrap();
            panic!("poisoning both locks on purpose");
        });
        assert!(poison.join().is_err());
        let err = pair.public().unwrap_err();
        assert!(matches!(err, FairminesError::InvalidState { code: 15, .. }), "{err:?}");
        assert_eq!(err.parts().2, Some("seed_pair"));
        let err = round.reveal(1).unwrap_err();
        assert_eq!(err.parts().2, Some("round"));
        assert!(format!("{pair} {pair:?} {round:?}").contains("poisoned"));
        // What needs no lock still works.
        assert_eq!(round.nonce(), 1);
    }

    #[test]
    fn hand_made_records_are_checked_field_by_field() {
        let (_, round) = worked_example_round();
        round.reveal(1).unwrap();
        round.cash_out().unwrap();
        let record = round.record().unwrap().unwrap();
        let argument = |record: RoundRecord| verify_round(record, SERVER).unwrap_err().parts().2.map(str::to_owned);
        let zero = Ratio { denominator: "0".into(), ..record.rtp.clone() };
        assert_eq!(argument(RoundRecord { rtp: zero.clone(), ..record.clone() }).as_deref(), Some("rtp"));
        assert_eq!(argument(RoundRecord { multiplier: Some(zero), ..record.clone() }).as_deref(), Some("multiplier"));
        assert_eq!(argument(RoundRecord { picks: vec![1, 300], ..record.clone() }).as_deref(), Some("picks"));
        assert_eq!(argument(RoundRecord { mines: 25, ..record.clone() }).as_deref(), Some("mines"));
        assert_eq!(argument(RoundRecord { commitment: "ab".into(), ..record.clone() }).as_deref(), Some("commitment"));
        let two = Ratio { numerator: "2".into(), denominator: "1".into(), decimal: String::new() };
        assert_eq!(argument(RoundRecord { rtp: two, ..record.clone() }).as_deref(), Some("rtp"));
    }

    #[test]
    fn seed_pairs_never_show_the_server_seed() {
        let pair = SeedPair::from_parts(SERVER, CLIENT, 0).unwrap();
        let shown = format!("{pair} {pair:?}");
        assert!(!shown.contains(SERVER), "{shown}");
        assert!(shown.contains(&crate::commitment(SERVER)), "{shown}");
        assert!(pair.to_state_json().unwrap().contains(SERVER));
    }

    #[test]
    fn payouts() {
        assert_eq!(payout_table("0.99").unwrap().len(), 300);
        assert_eq!(max_safe_picks(3).unwrap(), 22);
        let m = multiplier(3, 22, "1").unwrap();
        assert_eq!((m.numerator.as_str(), m.denominator.as_str(), m.decimal.as_str()), ("2300", "1", "2300.00"));
        for picks in [0, 23, -1, 256, i32::MAX] {
            let err = multiplier(3, picks, "1").unwrap_err();
            assert!(matches!(err, FairminesError::InvalidPicks { code: 13, .. }), "{err:?}");
            assert_eq!(err.to_string(), format!("safe_picks: must be in 1..=22 with 3 mines, got {picks}"));
        }
    }
}
