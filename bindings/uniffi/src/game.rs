//! The game: seed pairs, rounds, reveals, cash-outs, round records and their replay, exact payouts.
//!
//! Objects (`SeedPair`, `Round`) are shared by `Arc` with the foreign side, which may call them from any
//! thread: each holds its core value in a [`Mutex`], so a second move on one round (or pair) waits for the
//! first, as in every binding that can share a round across threads.
//!
//! Exact ratios ([`Ratio`]) cross the boundary as decimal strings of the numerator and denominator, so
//! every value of the core's `u128` fractions is exact in every language, with no overflow case.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use fairmines::input::ratio_part_text;
use fairmines::{Digest, Exact, MineCount, Number, Places, RecordInput, Rtp, ServerSeed};

use crate::{FairminesError, Result, U64, tiles};

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
            decimal: ratio.to_decimal(Places::TWO),
        }
    }
}

impl Ratio {
    /// The core's ratio in lowest terms, each part judged by the core's rules; an error names the part as
    /// `field.numerator` or `field.denominator`.
    fn to_core(&self, field: &str) -> Result<fairmines::Ratio> {
        let part = |digits: &str, part| ratio_part_text(digits, part).map_err(|e| FairminesError::in_field(field, e));
        let (num, den) = (part(&self.numerator, "numerator")?, part(&self.denominator, "denominator")?);
        fairmines::Ratio::try_new(num, den).map_err(|e| FairminesError::in_field(field, e))
    }
}

/// `ratio`'s value rounded **down** to `places` decimal places, e.g. `"1.125"` for 9/8 with 3; more than 18
/// places is refused with `InvalidNumber` (argument `places`), not clamped.
///
/// Fails with `InvalidNumber` (argument `ratio.numerator` or `ratio.denominator`) for a hand-made ratio whose
/// parts are not a fraction. (A free function rather than a method of `Ratio`: UniFFI 0.32.2 writes Ruby
/// record methods that take arguments without their parameter list.)
#[uniffi::export]
pub fn ratio_to_decimal(ratio: Ratio, places: i32) -> Result<String> {
    Ok(ratio.to_core("ratio")?.to_decimal(Places::new(places)?))
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.to_core("ratio") {
            Ok(ratio) => fmt::Display::fmt(&ratio, f),
            Err(_) => write!(f, "{}/{}", self.numerator, self.denominator),
        }
    }
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
    pub nonce: U64,
}

impl From<fairmines::PublicSeedPair> for PublicSeedPair {
    fn from(public: fairmines::PublicSeedPair) -> Self {
        PublicSeedPair {
            commitment: public.commitment.to_string(),
            client_seed: public.client_seed,
            nonce: U64(public.nonce),
        }
    }
}

#[uniffi::export]
impl PublicSeedPair {
    /// As JSON: `{"commitment":hex,"client_seed":…,"nonce":n}`. Fails with `InvalidHex` (argument
    /// `commitment`) for a hand-made record whose commitment is not 64 hex characters.
    pub fn to_json(&self) -> Result<String> {
        let commitment = Digest::parse_hex(&self.commitment, "commitment")?;
        let core = fairmines::PublicSeedPair { commitment, client_seed: self.client_seed.clone(), nonce: self.nonce.0 };
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
    pub rounds: U64,
}

impl From<fairmines::RevealedSeedPair> for RevealedSeedPair {
    fn from(revealed: fairmines::RevealedSeedPair) -> Self {
        RevealedSeedPair {
            server_seed: revealed.server_seed,
            commitment: revealed.commitment.to_string(),
            client_seed: revealed.client_seed,
            rounds: U64(revealed.rounds),
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
            rounds: self.rounds.0,
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

/// The value behind `mutex`, once no other call holds it. Poisoning is ignored, as in the core and the Python
/// binding: the core does not panic, and every core method leaves its value consistent.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The operator's state of one player's seed pair: a secret server seed with its public commitment, the
/// player's client seed, the nonce of the next round and the rounds still in play.
///
/// `toStateJson()` holds every round in play with its mines, RTP and picks, and a move on a round changes it
/// at once: store it after every move (it holds the secret server seed: encrypted, or where only the service
/// reads it). After a restart, `fromStateJson(stored)` and then `round(nonce)` go on with each round in play
/// exactly where it was.
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
    fn wrap(pair: fairmines::SeedPair) -> Arc<Self> {
        Arc::new(SeedPair(Mutex::new(pair)))
    }
}

#[uniffi::export]
impl SeedPair {
    /// A new pair: a fresh server seed from the OS CSPRNG, the player's client seed, nonce 0.
    /// Fails with `RngFailed` only if the OS generator fails.
    #[uniffi::constructor]
    pub fn new(client_seed: &str) -> Result<Arc<Self>> {
        Ok(Self::wrap(fairmines::SeedPair::new(client_seed)?))
    }

    /// A pair from parts the operator already has: the server seed as 64 lowercase hex characters (as
    /// generated; `InvalidHex`, argument `server_seed`, otherwise), the client seed and the next nonce
    /// (`InvalidNonce` for 2^64 - 1, which starts no round, as in `start_round`).
    #[uniffi::constructor]
    pub fn from_parts(server_seed: &str, client_seed: &str, nonce: U64) -> Result<Arc<Self>> {
        let server_seed = ServerSeed::from_hex(server_seed)?;
        Ok(Self::wrap(fairmines::SeedPair::from_parts(server_seed, client_seed, nonce.0)?))
    }

    /// Restores a pair from `toStateJson()`; each round in play comes back with `round(nonce)`.
    /// `InvalidState` (argument `state`, the message naming the field) when the text does not parse, has an
    /// unknown field, or does not hold together (a commitment that is not the seed's, a round's picks
    /// repeated or on one of its mines, …); nothing is restored then. The restored pair keeps its rounds in
    /// play: it refuses to rotate until they finish or `voidOpenRounds()`. Only a state written before rounds
    /// were saved whole (`"open_rounds": [nonces]`) gives rounds that can only be voided.
    ///
    /// The restored pair is a new value that does not reach the rounds of the pair the state was saved
    /// from: keep one live copy of a seed pair (restore after a restart, not beside the original).
    #[uniffi::constructor]
    pub fn from_state_json(json: &str) -> Result<Arc<Self>> {
        Ok(Self::wrap(fairmines::SeedPair::from_state_json(json)?))
    }

    /// What the player may see now: the commitment, the client seed and the next nonce.
    pub fn public_part(&self) -> PublicSeedPair {
        lock(&self.0).public_part().into()
    }

    /// Starts a round with the current nonce, then increments the nonce; the grid is fixed now.
    ///
    /// `mines` in 1..=24 (`InvalidMines`), `rtp` the return-to-player factor as `"0.99"` or `"99/100"`, in
    /// (0, 1] (`InvalidRtp`). `InvalidNonce` at nonce 2^64 - 1, after the last round a pair plays (rotate it).
    pub fn start_round(&self, mines: i32, rtp: &str) -> Result<Arc<Round>> {
        let mines = MineCount::try_from(mines)?;
        let rtp = Rtp::parse(rtp)?;
        let round = lock(&self.0).start_round(mines, rtp)?;
        Ok(Round::wrap(round))
    }

    /// The round in play at `nonce`, to go on with: after a restart, the pair restored with
    /// `fromStateJson` gives back each of its rounds, and every later reveal, cash-out, record and payout is
    /// the same as if the process had never stopped.
    ///
    /// `RoundNotInPlay` (argument `nonce`) when no round at `nonce` is in play (never started, finished or
    /// voided), when the state was written before rounds were saved whole (such a round can only be voided),
    /// or when this pair value has handed the round out already (by `startRound` or `round`) and that
    /// `Round` object is still alive: go on with it (Kotlin: until `close()`; Swift: until its last
    /// reference goes; Ruby: until it is garbage-collected).
    pub fn round(&self, nonce: U64) -> Result<Arc<Round>> {
        let round = lock(&self.0).round(nonce.0)?;
        Ok(Round::wrap(round))
    }

    /// The nonces of the rounds in play, ascending: started and neither finished nor voided (including
    /// those held by the state the pair was restored from).
    pub fn open_rounds(&self) -> Vec<U64> {
        lock(&self.0).open_rounds().into_iter().map(U64).collect()
    }

    /// Voids every round in play and returns their nonces, ascending. A voided round refuses every later
    /// move with `RoundVoided`, and its record's outcome is `Voided` (no multiplier: the stake is
    /// returned). Afterwards the pair can rotate.
    pub fn void_open_rounds(&self) -> Vec<U64> {
        lock(&self.0).void_open_rounds().into_iter().map(U64).collect()
    }

    /// Ends this pair and starts a new one (fresh server seed, new commitment, nonce 0), with a new client
    /// seed if one is given (without an argument, `rotate()`, the client seed is kept). Returns the old pair
    /// with its server seed, which may now be published.
    ///
    /// `RoundsInPlay` while a round of the pair is in play (finish it or `voidOpenRounds()` first); a
    /// refused rotation changes nothing.
    #[uniffi::method(default(client_seed = None))]
    pub fn rotate(&self, client_seed: Option<String>) -> Result<RevealedSeedPair> {
        Ok(lock(&self.0).rotate(client_seed.as_deref())?.into())
    }

    /// A new client seed always starts a new pair, revealing the old server seed: the same as
    /// `rotate(clientSeed)`, and refused with `RoundsInPlay` in the same way.
    pub fn set_client_seed(&self, client_seed: &str) -> Result<RevealedSeedPair> {
        Ok(lock(&self.0).set_client_seed(client_seed)?.into())
    }

    /// The full state as JSON, for the operator's own storage: the server seed (secret), its commitment, the
    /// client seed, the next nonce and every round in play with its mines, RTP and picks so far, e.g.
    /// `{"version":2,"server_seed":"…","commitment":"…","client_seed":"…","nonce":3,
    /// "rounds":[{"nonce":2,"mines":3,"rtp":"99/100","picks":[7,2]}]}`.
    ///
    /// A move changes it at once: store it after every start, reveal, cash-out, void and rotation (it holds
    /// the secret server seed: store it encrypted, or where only the service reads it), and `fromStateJson`
    /// with `round(nonce)` goes on from there after a restart.
    pub fn to_state_json(&self) -> String {
        lock(&self.0).to_state_json()
    }
}

impl fmt::Debug for SeedPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*lock(&self.0), f)
    }
}

impl fmt::Display for SeedPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let public = lock(&self.0).public_part();
        let (commitment, client_seed, nonce) = (public.commitment, public.client_seed, public.nonce);
        write!(f, "SeedPair(commitment={commitment}, client_seed={client_seed:?}, nonce={nonce}, server_seed=<hidden>)")
    }
}

/// What a reveal found, with everything a player is shown after it: the core's `Reveal`, field for field.
#[derive(Debug, Clone, PartialEq, Eq, uniffi::Record)]
pub struct Reveal {
    /// The tile revealed, 1-based.
    pub tile: i32,
    /// True for a safe tile, false for a mine (the round is then lost).
    pub safe: bool,
    /// Safe tiles revealed so far in the round (after a mine: the safe picks before it).
    pub safe_picks: i32,
    /// What a cash-out pays now (paid, when the last safe tile finished the round); null/nil after a mine.
    pub multiplier: Option<Ratio>,
    /// Whether the round has now ended: a mine, or the last safe tile (which pays out).
    pub finished: bool,
}

impl From<fairmines::Reveal> for Reveal {
    fn from(reveal: fairmines::Reveal) -> Self {
        Reveal {
            tile: i32::from(reveal.tile),
            safe: reveal.safe,
            safe_picks: i32::from(reveal.safe_picks),
            multiplier: reveal.multiplier.map(Ratio::from),
            finished: reveal.finished,
        }
    }
}

/// One round in play. The grid is fixed when the round starts; each pick is checked against it. The mine
/// positions stay hidden (`minePositions()` is null/nil, the string forms do not show them) until it ends.
/// Calls from several threads are applied one at a time: a second move waits for the first. Each move is
/// in its seed pair's `toStateJson()` at once; a round in play whose object is freed can be had again with
/// `pair.round(nonce)`.
#[derive(uniffi::Object)]
#[uniffi::export(Debug)]
pub struct Round(Mutex<fairmines::Round>);

impl Round {
    fn wrap(round: fairmines::Round) -> Arc<Self> {
        Arc::new(Round(Mutex::new(round)))
    }
}

#[uniffi::export]
impl Round {
    /// Reveals 1-based `tile`: safe (with the multiplier now reached) or a mine (the round is lost), as a
    /// `Reveal` (tile, safe, safe picks, multiplier, finished).
    ///
    /// Errors: `InvalidTile` (argument `tile`) outside 1..=25, `TileAlreadyRevealed` (argument `tile`),
    /// `RoundFinished` once the round has ended, `RoundVoided` once its seed pair voided it. Revealing the
    /// last safe tile ends the round, cashed out.
    pub fn reveal(&self, tile: i32) -> Result<Reveal> {
        Ok(lock(&self.0).reveal(tile)?.into())
    }

    /// Ends the round and returns the multiplier to pay. `NothingToCashOut` before any safe pick,
    /// `RoundFinished` once the round has ended, `RoundVoided` once its seed pair voided it.
    pub fn cash_out(&self) -> Result<Ratio> {
        Ok(lock(&self.0).cash_out()?.into())
    }

    /// The public record, once the round has finished (or was voided); null/nil while it is in play.
    pub fn record(&self) -> Option<RoundRecord> {
        lock(&self.0).record().map(RoundRecord::from)
    }

    /// The mine positions (sorted, 1-based) once the round has finished; null/nil while it is in play.
    pub fn mine_positions(&self) -> Option<Vec<i32>> {
        lock(&self.0).mine_positions().map(|positions| tiles(&positions))
    }

    /// The tiles picked so far, in order (1-based).
    pub fn picks(&self) -> Vec<i32> {
        tiles(lock(&self.0).picks())
    }

    /// Whether the round has ended (a mine, a cash-out, or voided).
    pub fn is_finished(&self) -> bool {
        lock(&self.0).is_finished()
    }

    /// How the round ended; null/nil while it is in play.
    pub fn outcome(&self) -> Option<Outcome> {
        lock(&self.0).outcome().map(Outcome::from)
    }

    /// Safe tiles revealed so far.
    pub fn safe_picks(&self) -> i32 {
        i32::from(lock(&self.0).safe_picks())
    }

    /// What a cash-out pays now (or paid): null/nil before the first safe pick, after a mine, and once voided.
    pub fn multiplier(&self) -> Option<Ratio> {
        lock(&self.0).multiplier().map(Ratio::from)
    }

    /// The nonce this round used.
    pub fn nonce(&self) -> U64 {
        U64(lock(&self.0).nonce())
    }

    /// The mine count.
    pub fn mines(&self) -> i32 {
        i32::from(lock(&self.0).mines().get())
    }

    /// The commitment of the seed pair the round was played with (lowercase hex).
    pub fn commitment(&self) -> String {
        lock(&self.0).commitment().to_string()
    }

    /// The client seed.
    pub fn client_seed(&self) -> String {
        lock(&self.0).client_seed().to_owned()
    }

    /// The return-to-player factor of the multipliers.
    pub fn rtp(&self) -> Ratio {
        lock(&self.0).rtp().factor().into()
    }
}

impl fmt::Debug for Round {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*lock(&self.0), f) // the core's Debug, which hides the grid
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
    pub nonce: U64,
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
            nonce: U64(record.nonce),
            mines: i32::from(record.mines),
            rtp: record.rtp.factor().into(),
            picks: tiles(&record.picks),
            outcome: record.outcome.into(),
            multiplier: record.multiplier.map(Ratio::from),
        }
    }
}

impl RoundRecord {
    /// The core's record, by the core's one record parser (`RoundRecord::from_input`): errors name the field
    /// (`commitment`, `mines`, `picks`, `rtp`, `multiplier`; `rtp.denominator` for a part of a ratio).
    fn to_core(&self) -> Result<fairmines::RoundRecord> {
        let rtp = self.rtp.to_core("rtp")?;
        let multiplier = self.multiplier.as_ref().map(|m| m.to_core("multiplier")).transpose()?;
        let picks: Vec<Number> = self.picks.iter().map(|&tile| Number::from(tile)).collect();
        Ok(fairmines::RoundRecord::from_input(RecordInput {
            commitment: &self.commitment,
            client_seed: &self.client_seed,
            nonce: self.nonce.0.into(),
            mines: self.mines.into(),
            rtp: Exact::Ratio(rtp),
            picks: &picks,
            outcome: fairmines::Outcome::from(self.outcome).as_str(),
            multiplier: multiplier.map(Exact::Ratio),
        })?)
    }
}

#[uniffi::export]
impl RoundRecord {
    /// As JSON, the form operators publish: the worked example's round at nonce 1 (mines at 7, 10 and 19),
    /// cashed out after two safe picks (25/22 x 24/21 x 99/100 = 9/7), gives
    /// `{"commitment":"f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42","client_seed":"d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817","nonce":1,"mines":3,"rtp":"99/100","picks":[1,2],"outcome":"cashed_out","multiplier":"9/7"}`.
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
        expected_multiplier: verdict.expected_multiplier.map(Ratio::from),
        differences: verdict.differences,
    })
}

/// The multiplier after `safePicks` safe picks with `mines` mines: C(25, k) / C(25 − m, k) × RTP, exactly.
///
/// Errors: `InvalidMines`, `InvalidPicks` (argument `safe_picks`, outside 1..=25 − mines), `InvalidRtp`.
#[uniffi::export]
pub fn multiplier(mines: i32, safe_picks: i32, rtp: &str) -> Result<Ratio> {
    let mines = MineCount::try_from(mines)?;
    Ok(fairmines::multiplier(mines, safe_picks, Rtp::parse(rtp)?)?.into())
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
    let table = fairmines::payout_table(Rtp::parse(rtp)?);
    Ok(table
        .into_iter()
        .map(|entry| TableEntry {
            mines: i32::from(entry.mines),
            safe_picks: i32::from(entry.safe_picks),
            multiplier: entry.multiplier.into(),
        })
        .collect())
}

/// The most safe picks a round with `mines` mines allows (25 − mines). `InvalidMines` outside 1..=24.
#[uniffi::export]
pub fn max_safe_picks(mines: i32) -> Result<i32> {
    Ok(i32::from(fairmines::max_safe_picks(MineCount::try_from(mines)?)))
}
