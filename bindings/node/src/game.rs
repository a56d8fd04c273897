//! The game: `SeedPair` and `Round` over the core's types of those names, and the payouts; exact numbers are
//! `Ratio`s (ratio.rs); nonces come back as `bigint` (`u64` in the core).

use fairmines::ServerSeed;
use napi::bindgen_prelude::{BigInt, Either, Env, Null, Result, ToNapiValue, Unknown};
use napi_derive::napi;

use crate::ratio::{Ratio, RatioArg, rtp};
use crate::{Failure, NumberArg, StringArg, guard, number, text, with_json};

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
    fn from(
        fairmines::RevealedSeedPair { server_seed, commitment, client_seed, rounds }: fairmines::RevealedSeedPair,
    ) -> Self {
        RevealedSeedPair { server_seed, commitment: commitment.to_string(), client_seed, rounds: rounds.into() }
    }
}

/// The operator's state of one player's seed pair: a secret server seed with its public commitment, the
/// client seed, the nonce of the next round and the rounds still in play.
///
/// **The server seed is revealed only when no round can move**: `rotate()` and `setClientSeed()` throw
/// (`'FAIRMINES_ROUNDS_IN_PLAY'`) while a round of the pair is in play; finish it or `voidOpenRounds()`.
/// The seed never shows in `util.inspect`, `String(pair)` or `JSON.stringify(pair)`; it leaves only
/// through `rotate()` (once it may be published) and `toStateJson()` (the operator's own storage).
///
/// **The state is the whole truth**: `toStateJson()` holds every round in play with its mines, RTP and
/// picks, and each move changes it at once. Store it after every move; after a restart,
/// `SeedPair.fromStateJson(stored).round(nonce)` goes on with each round exactly where it was.
#[napi]
pub struct SeedPair {
    inner: fairmines::SeedPair,
}

#[napi]
impl SeedPair {
    /// A new pair: a fresh server seed from the operating system's CSPRNG, `clientSeed`, nonce 0.
    /// @throws {TypeError} `clientSeed` is not a string
    /// @throws {RangeError} `clientSeed` holds a lone surrogate (`code: 'FAIRMINES_INVALID_UTF8'`)
    /// @throws {Error} the OS random generator failed (`code: 'FAIRMINES_RNG_FAILED'`)
    #[napi(constructor, catch_unwind, ts_args_type = "clientSeed: string")]
    pub fn new(env: Env, client_seed: StringArg) -> Result<Self> {
        guard(&env, || {
            let client = text(client_seed, "clientSeed")?;
            Ok(SeedPair { inner: fairmines::SeedPair::new(&client).map_err(Failure::core)? })
        })
    }

    /// A pair from parts the operator already has (a stored seed of 64 lowercase hex characters; replays).
    /// @throws {TypeError} an argument has the wrong type
    /// @throws {RangeError} `serverSeed` is not 64 lowercase hex characters (`'FAIRMINES_INVALID_HEX'`),
    /// `nonce` is out of range or 2^64 − 1, which starts no round, as in {@link SeedPair.startRound}
    /// (`'FAIRMINES_INVALID_NONCE'`)
    #[napi(factory, catch_unwind, ts_args_type = "serverSeed: string, clientSeed: string, nonce: number | bigint")]
    pub fn from_parts(env: Env, server_seed: StringArg, client_seed: StringArg, nonce: NumberArg) -> Result<Self> {
        guard(&env, || {
            let server = text(server_seed, "serverSeed")?;
            let client = text(client_seed, "clientSeed")?;
            let nonce = crate::nonce(nonce)?;
            let server = ServerSeed::from_hex(&server).map_err(Failure::core)?;
            Ok(SeedPair { inner: fairmines::SeedPair::from_parts(server, &client, nonce).map_err(Failure::core)? })
        })
    }

    /// Restores a pair from {@link SeedPair.toStateJson}, with every round in play: {@link SeedPair.round}
    /// gives each back by its nonce, to go on exactly where it was (the pair refuses to rotate until they
    /// finish or {@link SeedPair.voidOpenRounds}). A state written before rounds were saved whole
    /// (`"open_rounds": [nonces]`) restores too, but its rounds hold no picks: they can only be voided.
    /// The restored pair does not reach the `Round` objects of the pair it was saved from: keep one live
    /// copy of a pair, and restore it after a restart.
    /// @throws {TypeError} `json` is not a string
    /// @throws {RangeError} `json` is not a saved state (an unknown field included), or its parts do not
    /// hold together, the message naming the field (`code: 'FAIRMINES_INVALID_STATE'`); nothing is restored
    #[napi(factory, catch_unwind, ts_args_type = "json: string")]
    pub fn from_state_json(env: Env, json: StringArg) -> Result<Self> {
        guard(&env, || {
            let json = text(json, "json")?;
            let inner = fairmines::SeedPair::from_state_json(&json).map_err(|e| Failure::at(e, "json", "json"))?;
            Ok(SeedPair { inner })
        })
    }

    /// What the player may see now: the commitment, the client seed and the nonce of the next round.
    #[napi(getter, js_name = "publicPart", ts_return_type = "PublicSeedPair")]
    pub fn public_part<'env>(&self, env: &'env Env) -> Result<Unknown<'env>> {
        let fairmines::PublicSeedPair { commitment, client_seed, nonce } = self.inner.public_part();
        with_json(env, PublicSeedPair { commitment: commitment.to_string(), client_seed, nonce: nonce.into() })
    }

    /// Starts a round with the current nonce, then increments the nonce; the grid is fixed now. On an
    /// error nothing changes.
    /// @param mines - an integer in 1..=24
    /// @param rtp - the return-to-player factor in (0, 1], exactly: `'0.99'`, `'99/100'` or a `Ratio`
    /// @throws {TypeError} an argument has the wrong type
    /// @throws {RangeError} `mines` outside 1..=24 (`'FAIRMINES_INVALID_MINES'`), `rtp` outside (0, 1] or
    /// not a fraction (`'FAIRMINES_INVALID_RTP'`), the pair at nonce 2^64 − 1, after the last round a pair plays
    /// (`'FAIRMINES_INVALID_NONCE'`)
    #[napi(catch_unwind, ts_args_type = "mines: number | bigint, rtp: string | Ratio")]
    pub fn start_round(&mut self, env: Env, mines: NumberArg, rtp: RatioArg) -> Result<Round> {
        guard(&env, || {
            let (mines, rtp) = (crate::mines(mines)?, self::rtp(rtp)?);
            Ok(Round { inner: self.inner.start_round(mines, rtp).map_err(Failure::core)? })
        })
    }

    /// The round in play at `nonce`, to go on with: after a restart, `SeedPair.fromStateJson(stored)`
    /// gives back each round of the state, and every later reveal, cash-out, record and payout is the same
    /// as if the process had never stopped. The pair hands a round out once: go on with that `Round`
    /// (its rounds from {@link SeedPair.startRound} are handed out already).
    /// @param nonce - the round's nonce, as {@link SeedPair.openRounds} lists it: a `bigint`, or a `number`
    /// up to 2^53 − 1
    /// @throws {TypeError} `nonce` is neither a number nor a bigint
    /// @throws {RangeError} `nonce` is out of range or not an integer (`'FAIRMINES_INVALID_NONCE'`); no
    /// round is in play at `nonce` (never started, finished or voided), it was restored from a state that
    /// kept only its nonce (it can only be voided), or a `Round` of it from this pair is still alive
    /// (`code: 'FAIRMINES_ROUND_NOT_IN_PLAY'`)
    #[napi(catch_unwind, ts_args_type = "nonce: number | bigint")]
    pub fn round(&self, env: Env, nonce: NumberArg) -> Result<Round> {
        guard(&env, || Ok(Round { inner: self.inner.round(crate::nonce(nonce)?).map_err(Failure::core)? }))
    }

    /// The nonces of the rounds in play (neither finished nor voided, restored ones included), ascending.
    #[napi(ts_return_type = "bigint[]")]
    pub fn open_rounds<'env>(&self, env: &'env Env) -> Result<Unknown<'env>> {
        with_json(env, self.inner.open_rounds().into_iter().map(BigInt::from).collect::<Vec<_>>())
    }

    /// Voids every round in play and returns their nonces, ascending: each refuses every later move
    /// (`'FAIRMINES_ROUND_VOIDED'`), its record's outcome is `'voided'` (the stake is returned).
    #[napi(ts_return_type = "bigint[]")]
    pub fn void_open_rounds<'env>(&mut self, env: &'env Env) -> Result<Unknown<'env>> {
        with_json(env, self.inner.void_open_rounds().into_iter().map(BigInt::from).collect::<Vec<_>>())
    }

    /// Ends this pair and starts a new one (fresh server seed, nonce 0; the new client seed if given), and
    /// returns the old one with its server seed, which may now be published.
    /// @throws {TypeError} `clientSeed` is given and is not a string
    /// @throws {Error} a round of the pair is in play (`code: 'FAIRMINES_ROUNDS_IN_PLAY'`, naming the
    /// nonces), or the OS random generator failed (`'FAIRMINES_RNG_FAILED'`); nothing changes then
    #[napi(catch_unwind, ts_args_type = "clientSeed?: string | null", ts_return_type = "RevealedSeedPair")]
    pub fn rotate<'env>(&mut self, env: &'env Env, client_seed: Option<StringArg>) -> Result<Unknown<'env>> {
        let revealed = guard(env, || {
            let client = client_seed.map(|c| text(c, "clientSeed")).transpose()?;
            self.inner.rotate(client.as_deref()).map_err(Failure::core)
        })?;
        with_json(env, RevealedSeedPair::from(revealed))
    }

    /// `rotate(clientSeed)`: a new client seed always starts a new pair, revealing the old server seed.
    /// @throws {TypeError} `clientSeed` is not a string
    /// @throws {Error} as {@link SeedPair.rotate}
    #[napi(catch_unwind, ts_args_type = "clientSeed: string", ts_return_type = "RevealedSeedPair")]
    pub fn set_client_seed<'env>(&mut self, env: &'env Env, client_seed: StringArg) -> Result<Unknown<'env>> {
        let revealed = guard(env, || {
            let client = text(client_seed, "clientSeed")?;
            self.inner.set_client_seed(&client).map_err(Failure::core)
        })?;
        with_json(env, RevealedSeedPair::from(revealed))
    }

    /// The full state as the core's JSON, for the operator's own storage: `{"version": 2, "server_seed",
    /// "commitment", "client_seed", "nonce", "rounds": [{"nonce", "mines", "rtp", "picks"}]}`, every round
    /// in play with its picks so far. Each move (start, reveal, cash-out, void, rotation) changes it: store
    /// it after every move, and {@link SeedPair.fromStateJson} with {@link SeedPair.round} goes on from
    /// there after a restart. **It contains the secret server seed**: store it encrypted, or where only the
    /// service can read it.
    #[napi]
    pub fn to_state_json(&self) -> String {
        self.inner.to_state_json()
    }
}

/// What a reveal found, with everything a player is shown after it (the core's `Reveal`).
// Declared here for index.d.ts; the object is made by helpers.js in one call (`crate::reveal_object`), not
// property by property through Node-API: a service makes one with every reveal.
#[napi(object, object_from_js = false)]
pub struct Reveal {
    /// The tile revealed, 1-based.
    pub tile: u32,
    /// `false` when the tile was a mine: the round is lost.
    pub safe: bool,
    /// Safe tiles revealed so far in the round.
    pub safe_picks: u32,
    /// What a cash-out pays now (paid, when the last safe tile finished the round); `null` after a mine.
    pub multiplier: Either<Ratio, Null>,
    /// Whether the round has now ended: a mine, or the last safe tile (which pays out).
    pub finished: bool,
}

/// One round, made by {@link SeedPair.startRound}, or given back by {@link SeedPair.round} after a restart
/// (no constructor). Its grid is fixed at the start and shown only at the end. Each move is written into
/// its seed pair's state at once.
#[napi]
pub struct Round {
    inner: fairmines::Round,
}

#[napi]
impl Round {
    /// Reveals `tile` (1-based: 1 = top-left, 25 = bottom-right). A mine ends the round lost; the last safe
    /// tile ends it paid out.
    /// @throws {TypeError} `tile` is neither a number nor a bigint
    /// @throws {RangeError} `tile` is not an integer in 1..=25 (`'FAIRMINES_INVALID_TILE'`) or was
    /// revealed before (`'FAIRMINES_TILE_ALREADY_REVEALED'`)
    /// @throws {Error} the round has finished (`code: 'FAIRMINES_ROUND_FINISHED'`) or was voided by its
    /// seed pair (`code: 'FAIRMINES_ROUND_VOIDED'`)
    #[napi(catch_unwind, ts_args_type = "tile: number | bigint", ts_return_type = "SafeReveal | MineReveal")]
    pub fn reveal<'env>(&mut self, env: &'env Env, tile: NumberArg) -> Result<Unknown<'env>> {
        let reveal = guard(env, || self.inner.reveal(number(tile, "tile", "tile")?).map_err(Failure::core))?;
        crate::reveal_object(env, reveal)
    }

    /// Ends the round and returns the multiplier to pay.
    /// @throws {Error} no safe pick yet (`code: 'FAIRMINES_NOTHING_TO_CASH_OUT'`), the round has
    /// finished (`'FAIRMINES_ROUND_FINISHED'`) or was voided (`'FAIRMINES_ROUND_VOIDED'`)
    #[napi(catch_unwind)]
    pub fn cash_out(&mut self, env: Env) -> Result<Ratio> {
        guard(&env, || Ok(self.inner.cash_out().map_err(Failure::core)?.into()))
    }

    /// The public record, once the round has finished (or was voided); `null` while it is in play.
    #[napi(ts_return_type = "RoundRecord | null")]
    pub fn record<'env>(&self, env: &'env Env) -> Result<Unknown<'env>> {
        match self.inner.record() {
            Some(record) => crate::record_with_json(env, crate::record::RoundRecord::from(record)),
            None => Null.into_unknown(env),
        }
    }

    /// The public record as the core's JSON, what `recordToJson(round.record())` writes, without making the
    /// record object in between (for a service that stores every finished round); `null` while in play.
    #[napi]
    pub fn to_record_json(&self) -> Option<String> {
        self.inner.record().map(|record| record.to_json())
    }

    /// What the finished round pays back for `stake`, what `payout(round.record(), stake)` gives, without
    /// making the record object in between; `null` while in play.
    /// @param stake - an integer in 0..=2^53 − 1 (`Number.MAX_SAFE_INTEGER`), in minor units
    /// @throws {TypeError} `stake` is neither a number nor a bigint
    /// @throws {RangeError} `stake` is not an integer in 0..=2^53 − 1 (`'FAIRMINES_INVALID_NUMBER'`, argument
    /// `'stake'`)
    #[napi(catch_unwind, ts_args_type = "stake: number | bigint")]
    pub fn payout(&self, env: Env, stake: NumberArg) -> Result<Option<BigInt>> {
        guard(&env, || {
            // Judged whether or not the round has finished, so that a bad stake is never silently null.
            let stake = fairmines::amount(number(stake, "stake", "stake")?, "stake").map_err(Failure::core)?;
            let Some(record) = self.inner.record() else { return Ok(None) };
            Ok(Some(BigInt::from(record.payout(stake).map_err(Failure::core)?)))
        })
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
        self.inner.outcome().map(|o| o.as_str().to_owned())
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
}

/// The multiplier after `safePicks` safe picks with `mines` mines: C(25, k) / C(25 − m, k) × RTP, exactly.
/// @param safePicks - an integer in 1..=25 − mines
/// @param rtp - the return-to-player factor in (0, 1]: `'0.99'`, `'99/100'` or a `Ratio` (not a `number`)
/// @throws {TypeError} an argument has the wrong type
/// @throws {RangeError} `mines` outside 1..=24 (`'FAIRMINES_INVALID_MINES'`), `rtp` outside (0, 1]
/// (`'FAIRMINES_INVALID_RTP'`), `safePicks` outside 1..=25 − mines (`'FAIRMINES_INVALID_PICKS'`)
#[napi(
    catch_unwind,
    ts_args_type = "mines: number | bigint, safePicks: number | bigint, rtp: string | Ratio",
    ts_return_type = "Ratio"
)]
pub fn multiplier(env: Env, mines: NumberArg, safe_picks: NumberArg, rtp: RatioArg) -> Result<Ratio> {
    guard(&env, || {
        let mines = crate::mines(mines)?;
        let safe_picks = number(safe_picks, "safePicks", "safePicks")?;
        let rtp = self::rtp(rtp)?;
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

/// The whole payout table: every mine count 1..=24 and number of safe picks 1..=25 − mines (300
/// entries), ordered by mines, then safe picks.
/// @throws {TypeError} `rtp` is not a string or a `Ratio`
/// @throws {RangeError} `rtp` outside (0, 1] or not a fraction (`'FAIRMINES_INVALID_RTP'`)
#[napi(catch_unwind, ts_args_type = "rtp: string | Ratio", ts_return_type = "TableEntry[]")]
pub fn payout_table(env: Env, rtp: RatioArg) -> Result<Vec<TableEntry>> {
    guard(&env, || {
        Ok(fairmines::payout_table(self::rtp(rtp)?)
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
/// @throws {TypeError} `mines` is neither a number nor a bigint
/// @throws {RangeError} `mines` outside 1..=24 (`'FAIRMINES_INVALID_MINES'`)
#[napi(catch_unwind, ts_args_type = "mines: number | bigint", ts_return_type = "number")]
pub fn max_safe_picks(env: Env, mines: NumberArg) -> Result<u32> {
    guard(&env, || Ok(u32::from(fairmines::max_safe_picks(crate::mines(mines)?))))
}

/// A stake a round of `mines` mines at `rtp` can pay in full: an integer in 0..=2^53 − 1 whose largest payout
/// (every safe tile picked) is at most 2^53 − 1 too. Returns the stake as a `number`.
/// @throws {TypeError} an argument has the wrong type
/// @throws {RangeError} `stake` is not such an amount (`'FAIRMINES_INVALID_NUMBER'`, argument `'stake'`),
/// `mines` outside 1..=24 (`'FAIRMINES_INVALID_MINES'`), `rtp` outside (0, 1] (`'FAIRMINES_INVALID_RTP'`)
#[napi(
    catch_unwind,
    ts_args_type = "stake: number | bigint, mines: number | bigint, rtp: string | Ratio",
    ts_return_type = "number"
)]
pub fn check_stake(env: Env, stake: NumberArg, mines: NumberArg, rtp: RatioArg) -> Result<f64> {
    guard(&env, || {
        let stake = number(stake, "stake", "stake")?;
        let mines = crate::mines(mines)?;
        let rtp = self::rtp(rtp)?;
        // At most 2^53 − 1: exact as a number.
        Ok(fairmines::check_stake(stake, mines, rtp).map_err(Failure::core)? as f64)
    })
}
