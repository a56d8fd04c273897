//! The game as an operator runs it: seed pairs, rounds, reveals and cash-outs, and the replay of a
//! finished round by the player once the server seed is revealed.

use core::fmt;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use serde::{Deserialize, Serialize};

use crate::payout::check_exact_multipliers;
use crate::state::Game;
use crate::{
    Digest, Error, MineCount, Number, Placement, Ratio, Rtp, ServerSeed, TILES, Tiles, commitment, multiplier,
    placement,
};

/// The public side of a seed pair: what the player sees while it is active.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PublicSeedPair {
    /// SHA3-256 of the (secret) server seed.
    pub commitment: Digest,
    /// The player's client seed.
    pub client_seed: String,
    /// The nonce of the next round.
    pub nonce: u64,
}

impl PublicSeedPair {
    /// As JSON: `{"commitment": hex, "client_seed": …, "nonce": n}`.
    pub fn to_json(&self) -> String {
        to_json(self)
    }

    /// Parses [`PublicSeedPair::to_json`]'s form.
    pub fn from_json(json: &str) -> Result<Self, Error> {
        from_json(json, "public")
    }
}

/// A seed pair that has been rotated out: its server seed may now be published.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RevealedSeedPair {
    /// The server seed, now public.
    pub server_seed: String,
    /// Its commitment, as shown before play.
    pub commitment: Digest,
    /// The client seed it was used with.
    pub client_seed: String,
    /// How many rounds it played (nonces 0 .. rounds).
    pub rounds: u64,
}

impl RevealedSeedPair {
    /// As JSON: `{"server_seed": …, "commitment": hex, "client_seed": …, "rounds": n}`.
    pub fn to_json(&self) -> String {
        to_json(self)
    }

    /// Parses [`RevealedSeedPair::to_json`]'s form.
    pub fn from_json(json: &str) -> Result<Self, Error> {
        from_json(json, "revealed")
    }
}

fn to_json<T: Serialize>(value: &T) -> String {
    // Room for a record (seeds, digests, picks: about 400 bytes) from the start (a service writes one per
    // finished round).
    json_with_capacity(value, 512)
}

/// `value` as JSON, written into a buffer of `capacity` bytes first, so that the text is not copied as it
/// grows. For the core's own types, which hold only strings, numbers and digests: serializing them cannot
/// fail, and serde_json writes UTF-8.
pub(crate) fn json_with_capacity<T: Serialize>(value: &T, capacity: usize) -> String {
    let mut out = Vec::with_capacity(capacity);
    match serde_json::to_writer(&mut out, value) {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

fn from_json<T: for<'de> Deserialize<'de>>(json: &str, argument: &'static str) -> Result<T, Error> {
    serde_json::from_str(json).map_err(|e| Error::InvalidState { argument, detail: e.to_string() })
}

/// The operator's state of one player's seed pair: a secret server seed with its public commitment, the
/// player's client seed, the nonce of the next round and the rounds still in play.
///
/// **The server seed is revealed only when no round can move.** [`SeedPair::rotate`] and
/// [`SeedPair::set_client_seed`] refuse with [`Error::RoundsInPlay`] while a round started from this pair
/// is in play: a player who saw the seed would know every mine of it. Finish such rounds, or end them
/// with [`SeedPair::void_open_rounds`]: a voided round refuses every later move
/// ([`Error::RoundVoided`]) and its record's outcome is [`Outcome::Voided`].
///
/// **The state is the whole truth.** [`SeedPair::to_state_json`] holds every round in play with its mines,
/// RTP and picks, and a move on a round changes it at once. Store it after every move; after a restart,
/// [`SeedPair::from_state_json`] and [`SeedPair::round`] go on with each round exactly where it was.
///
/// ```
/// use fairmines::{MineCount, Rtp, SeedPair, ServerSeed};
/// // An operator would use SeedPair::new(client_seed); a known seed lets the example find a safe tile.
/// let server_seed = ServerSeed::from_bytes(&[7; 32]);
/// let mines = fairmines::mine_positions(server_seed.reveal(), "player seed", 0, 3)?;
/// let safe = (1..=25).find(|t| !mines.contains(t)).unwrap();
///
/// let mut pair = SeedPair::from_parts(server_seed, "player seed", 0)?;
/// let commitment = pair.public_part().commitment;   // published before play
/// let mut round = pair.start_round(MineCount::new(3)?, Rtp::parse("0.99")?)?;
/// assert_eq!(pair.public_part().nonce, 1);           // each round uses the nonce, then increments it
/// let reveal = round.reveal(safe)?;
/// assert!(reveal.safe && reveal.safe_picks == 1 && !reveal.finished);
/// round.cash_out()?;
/// let record = round.record().unwrap();
/// let revealed = pair.rotate(None)?;                 // the old server seed may now be published
/// assert_eq!(revealed.commitment, commitment);
/// assert!(fairmines::verify_round(&record, &revealed.server_seed)?.is_ok());
/// # Ok::<(), fairmines::Error>(())
/// ```
pub struct SeedPair {
    server_seed: ServerSeed,
    client_seed: String,
    nonce: u64,
    ledger: Ledger,
}

/// The rounds in play of one server seed, shared by the seed pair and each round it started or handed
/// back: a move updates the round's entry at once (so the pair's state always holds every pick), a round
/// leaves the ledger when it finishes, and voiding empties it. A round that is in play by its own state
/// but no longer in the ledger has been voided.
#[derive(Clone, Default)]
struct Ledger(Arc<Mutex<Entries>>);

/// Rounds in play by nonce (one ledger per server seed, so its nonces are distinct).
pub(crate) type Entries = BTreeMap<u64, InPlay>;

/// One round in play as the ledger keeps it.
pub(crate) struct InPlay {
    /// What the round needs to go on; `None` for a round restored from a state written before rounds
    /// were saved whole (its nonce only): it can only be voided.
    pub(crate) game: Option<Game>,
    /// Whether a [`Round`] value of this pair is moving it now (at most one is).
    handed_out: bool,
}

impl InPlay {
    pub(crate) fn restored(game: Option<Game>) -> Self {
        InPlay { game, handed_out: false }
    }
}

impl Ledger {
    fn lock(&self) -> MutexGuard<'_, Entries> {
        // Nothing panics while holding the lock, and the map is valid whatever happened: ignore poisoning.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn nonces(&self) -> Vec<u64> {
        self.lock().keys().copied().collect()
    }
}

impl SeedPair {
    /// A new pair: a fresh server seed from the OS CSPRNG, the player's client seed, nonce 0.
    pub fn new(client_seed: &str) -> Result<Self, Error> {
        SeedPair::from_parts(ServerSeed::generate()?, client_seed, 0)
    }

    /// A pair from parts the operator already has, with no round in play, whose next round is at `nonce`.
    ///
    /// [`Error::InvalidNonce`] for nonce 2^64 − 1, which starts no round: the rule of
    /// [`SeedPair::start_round`], with its message (a pair plays nonces 0 to 2^64 − 2).
    pub fn from_parts(server_seed: ServerSeed, client_seed: &str, nonce: u64) -> Result<Self, Error> {
        after(nonce)?;
        Ok(SeedPair { server_seed, client_seed: client_seed.to_owned(), nonce, ledger: Ledger::default() })
    }

    /// What the player may see now.
    pub fn public_part(&self) -> PublicSeedPair {
        PublicSeedPair {
            commitment: self.server_seed.commitment(),
            client_seed: self.client_seed.clone(),
            nonce: self.nonce,
        }
    }

    /// Starts a round with the current nonce, then increments the nonce. The grid is fixed now, before any pick.
    ///
    /// [`Error::InvalidNonce`] at nonce 2^64 − 1, after the last round a pair plays (nonce 2^64 − 2).
    pub fn start_round(&mut self, mines: MineCount, rtp: Rtp) -> Result<Round, Error> {
        let next = after(self.nonce)?;
        check_exact_multipliers(mines, rtp)?;
        let game = Game { mines, rtp, picks: Vec::new() };
        let round = self.round_value(self.nonce, game.clone());
        self.ledger.lock().insert(self.nonce, InPlay { game: Some(game), handed_out: true });
        self.nonce = next;
        Ok(round)
    }

    /// The round in play at `nonce`, to go on with: after a restart, the pair restored from its state gives
    /// back each of its rounds, and every later move, record and payout is the same as if the process had
    /// never stopped.
    ///
    /// [`Error::RoundNotInPlay`] when no round at `nonce` is in play (never started, finished or voided),
    /// when the state it came from was written before rounds were saved whole (such a round can only be
    /// voided), or when this pair value has handed it out already and that [`Round`] is still alive.
    ///
    /// ```
    /// use fairmines::{MineCount, Rtp, SeedPair, ServerSeed};
    /// let server_seed = ServerSeed::from_bytes(&[7; 32]);
    /// let mines = fairmines::mine_positions(server_seed.reveal(), "player seed", 0, 3)?;
    /// let safe: Vec<u8> = (1..=25).filter(|t| !mines.contains(t)).collect();
    ///
    /// let mut pair = SeedPair::from_parts(server_seed, "player seed", 0)?;
    /// let mut round = pair.start_round(MineCount::new(3)?, Rtp::parse("0.99")?)?;
    /// round.reveal(safe[0])?;
    /// let stored = pair.to_state_json();                 // after every move: it holds the pick
    /// drop((round, pair));                               // the process stops
    ///
    /// let pair = SeedPair::from_state_json(&stored)?;    // a new process
    /// let mut round = pair.round(0)?;
    /// assert_eq!(round.picks(), &safe[..1]);
    /// assert_eq!(round.reveal(safe[1])?.safe_picks, 2);
    /// assert_eq!(pair.round(1).unwrap_err().code(), fairmines::ErrorKind::RoundNotInPlay.code());
    /// # Ok::<(), fairmines::Error>(())
    /// ```
    pub fn round(&self, nonce: u64) -> Result<Round, Error> {
        let mut entries = self.ledger.lock();
        let not_in_play = |detail: String| Error::RoundNotInPlay { detail };
        let Some(entry) = entries.get_mut(&nonce) else {
            return Err(not_in_play(format!(
                "no round of this seed pair is in play at nonce {nonce}: it was never started, has finished or \
                 was voided"
            )));
        };
        let Some(game) = &entry.game else {
            return Err(not_in_play(format!(
                "the round at nonce {nonce} was saved by a version that kept only its nonce, without its picks: \
                 it can only be voided"
            )));
        };
        if entry.handed_out {
            return Err(not_in_play(format!(
                "the round at nonce {nonce} is already handed out by this seed pair: go on with that round"
            )));
        }
        let round = self.round_value(nonce, game.clone());
        entry.handed_out = true;
        Ok(round)
    }

    /// The round value of a round in play of this pair, its grid placed again from the seeds.
    fn round_value(&self, nonce: u64, game: Game) -> Round {
        Round {
            ledger: self.ledger.clone(),
            commitment: self.server_seed.commitment(),
            client_seed: self.client_seed.clone(),
            nonce,
            mines: game.mines,
            rtp: game.rtp,
            placement: placement(self.server_seed.reveal(), &self.client_seed, nonce, game.mines),
            picks: game.picks,
            status: Status::InPlay,
        }
    }

    /// The nonces of the rounds in play, ascending: started and neither finished nor voided (including
    /// those held by the state this pair was restored from).
    pub fn open_rounds(&self) -> Vec<u64> {
        self.ledger.nonces()
    }

    /// Voids every round in play and returns their nonces, ascending. A voided round refuses every later
    /// move with [`Error::RoundVoided`], and its record's outcome is [`Outcome::Voided`] (no multiplier:
    /// the operator returns the stake). Afterwards the pair can rotate.
    pub fn void_open_rounds(&mut self) -> Vec<u64> {
        let mut entries = self.ledger.lock();
        let nonces = entries.keys().copied().collect();
        entries.clear();
        nonces
    }

    /// Ends this pair and starts a new one (fresh server seed, new commitment, nonce 0), with a new client
    /// seed if one is given. Returns the old pair with its server seed, which may now be published.
    ///
    /// Refuses with [`Error::RoundsInPlay`] while a round of the pair is in play: finish the rounds, or
    /// [`SeedPair::void_open_rounds`] first.
    pub fn rotate(&mut self, client_seed: Option<&str>) -> Result<RevealedSeedPair, Error> {
        {
            // Held until the pair has moved to the new ledger: no round of the old seed can finish or
            // start in between, and none is in play.
            let entries = self.ledger.lock();
            if !entries.is_empty() {
                return Err(Error::RoundsInPlay { nonces: entries.keys().copied().collect() });
            }
        }
        let fresh = ServerSeed::generate()?;
        let old = core::mem::replace(&mut self.server_seed, fresh);
        let revealed = RevealedSeedPair {
            server_seed: old.reveal().to_owned(),
            commitment: old.commitment(),
            client_seed: self.client_seed.clone(),
            rounds: self.nonce,
        };
        if let Some(client_seed) = client_seed {
            self.client_seed = client_seed.to_owned();
        }
        self.nonce = 0;
        self.ledger = Ledger::default();
        Ok(revealed)
    }

    /// A new client seed always starts a new pair, revealing the old server seed: the same as
    /// `rotate(Some(client_seed))`, and refused in the same way while a round is in play.
    pub fn set_client_seed(&mut self, client_seed: &str) -> Result<RevealedSeedPair, Error> {
        self.rotate(Some(client_seed))
    }

    /// The full state as JSON, for the operator's own storage: the server seed (secret), its commitment, the
    /// client seed, the next nonce and every round in play with its mines, RTP and picks so far, e.g.
    /// `{"version":2,"server_seed":"…","commitment":"…","client_seed":"…","nonce":3,
    /// "rounds":[{"nonce":2,"mines":3,"rtp":"99/100","picks":[7,2]}]}`.
    ///
    /// A move changes it at once: store it after every start, reveal, cash-out, void and rotation (one
    /// value per player, in the same transaction as the move), and [`SeedPair::from_state_json`] with
    /// [`SeedPair::round`] goes on from there after a restart.
    pub fn to_state_json(&self) -> String {
        let entries = self.ledger.lock();
        let rounds = entries.iter().map(|(&nonce, in_play)| (nonce, in_play.game.as_ref()));
        crate::state::write(&self.server_seed, &self.client_seed, self.nonce, rounds)
    }

    /// Restores a pair from [`SeedPair::to_state_json`]; each round in play comes back with
    /// [`SeedPair::round`]. [`Error::InvalidState`] (argument `state`, the detail naming the field) when
    /// the text does not parse or does not hold together: the commitment is not the seed's, a round at a
    /// nonce not below the pair's or listed twice, mines or RTP invalid, picks repeated, off the board, on
    /// a mine of the round, or as many as its safe tiles (such a round has finished). Nothing is restored
    /// then.
    ///
    /// States written before rounds were saved whole (`"open_rounds": [nonces]`, no version) restore too;
    /// their rounds hold no picks, mines or RTP to go on with, so they can only be voided.
    ///
    /// The restored pair is a new value: it does not reach the rounds of the pair the state was saved
    /// from, so keep one live copy of a seed pair (restore after a restart, not beside the original).
    pub fn from_state_json(json: &str) -> Result<Self, Error> {
        let restored = crate::state::read(json)?;
        let ledger = Ledger::default();
        *ledger.lock() = restored.rounds.into_iter().map(|(nonce, game)| (nonce, InPlay::restored(game))).collect();
        Ok(SeedPair {
            server_seed: restored.server_seed,
            client_seed: restored.client_seed,
            nonce: restored.nonce,
            ledger,
        })
    }
}

/// The last nonce a seed pair plays, 2^64 − 2: a pair counts the rounds it played (its next nonce, and
/// [`RevealedSeedPair::rounds`]) in 64 bits, so nonce 2^64 − 1 starts no round. A pair that reaches it
/// has played every round it can: rotate it.
const LAST_NONCE: u64 = u64::MAX - 1;

/// The nonce after a round at `nonce`, or why a round cannot start at `nonce`: the one rule of
/// [`SeedPair::from_parts`] and [`SeedPair::start_round`].
fn after(nonce: u64) -> Result<u64, Error> {
    nonce.checked_add(1).ok_or_else(|| Error::InvalidNonce {
        detail: format!(
            "{nonce} starts no round: a seed pair plays nonces 0 to {LAST_NONCE} (it counts its rounds in 64 \
             bits); rotate to a new seed pair"
        ),
    })
}

impl fmt::Debug for SeedPair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SeedPair")
            .field("server_seed", &self.server_seed)
            .field("client_seed", &self.client_seed)
            .field("nonce", &self.nonce)
            .field("open_rounds", &self.open_rounds())
            .finish()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    InPlay,
    Finished(Outcome),
}

/// How a round ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A mine was revealed: the stake is lost.
    Lost,
    /// The player cashed out (or revealed every safe tile) and is paid the multiplier.
    CashedOut,
    /// The operator voided the round while it was in play (see [`SeedPair::void_open_rounds`]): no
    /// multiplier is paid, the stake is returned.
    Voided,
}

impl Outcome {
    /// Every outcome.
    pub const ALL: [Outcome; 3] = [Outcome::Lost, Outcome::CashedOut, Outcome::Voided];

    /// `"lost"`, `"cashed_out"` or `"voided"`, as in the JSON record.
    pub const fn as_str(self) -> &'static str {
        match self {
            Outcome::Lost => "lost",
            Outcome::CashedOut => "cashed_out",
            Outcome::Voided => "voided",
        }
    }
}

/// What a reveal found, with everything a player is shown after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reveal {
    /// The tile revealed, 1-based.
    pub tile: u8,
    /// False when the tile was a mine: the round is lost.
    pub safe: bool,
    /// Safe tiles revealed so far in the round.
    pub safe_picks: u8,
    /// What a cash-out pays now (paid, when the last safe tile finished the round); `None` after a mine.
    pub multiplier: Option<Ratio>,
    /// Whether the round has now ended: a mine, or the last safe tile (which pays out).
    pub finished: bool,
}

/// One round in play. The grid is fixed when the round starts; each pick is checked against it.
///
/// The round shares its seed pair's ledger of rounds in play: each move is written there at once (the
/// pair's state holds it), it leaves the ledger when it finishes, and it is voided when the pair voids its
/// open rounds. Dropped while in play, it can be had again with [`SeedPair::round`].
pub struct Round {
    ledger: Ledger,
    commitment: Digest,
    client_seed: String,
    nonce: u64,
    mines: MineCount,
    rtp: Rtp,
    placement: Placement,
    picks: Vec<u8>,
    status: Status,
}

impl Round {
    /// Reveals 1-based `tile` (any number a binding has). Errors: a finished or voided round, a tile outside
    /// 1..=25, a tile revealed before.
    pub fn reveal(&mut self, tile: impl Into<Number>) -> Result<Reveal, Error> {
        let ledger = self.ledger.clone();
        let mut entries = ledger.lock();
        self.check_in_play(&entries)?;
        let reveal = self.reveal_in_play(crate::input::tile(tile.into(), "tile")?)?;
        self.save(&mut entries);
        Ok(reveal)
    }

    fn reveal_in_play(&mut self, tile: u8) -> Result<Reveal, Error> {
        if self.picks.contains(&tile) {
            return Err(Error::TileAlreadyRevealed { tile });
        }
        self.picks.push(tile);
        let safe = !self.placement.is_mine(tile);
        if !safe {
            self.status = Status::Finished(Outcome::Lost);
        } else if self.picks.len() == usize::from(TILES - self.mines.get()) {
            // Every safe tile is open: nothing is left to risk, so the round pays out.
            self.status = Status::Finished(Outcome::CashedOut);
        }
        let safe_picks = self.safe_picks();
        // Not `self.multiplier()`: it takes the ledger's lock, which the caller holds.
        let multiplier = if safe { multiplier(self.mines, safe_picks, self.rtp).ok() } else { None };
        Ok(Reveal { tile, safe, safe_picks, multiplier, finished: self.status != Status::InPlay })
    }

    /// Ends the round and returns the multiplier to pay. Needs at least one safe pick.
    pub fn cash_out(&mut self) -> Result<Ratio, Error> {
        let ledger = self.ledger.clone();
        let mut entries = ledger.lock();
        self.check_in_play(&entries)?;
        let safe_picks = self.picks.len() as u8;
        if safe_picks == 0 {
            return Err(Error::NothingToCashOut);
        }
        let paid = multiplier(self.mines, safe_picks, self.rtp)?;
        self.status = Status::Finished(Outcome::CashedOut);
        self.save(&mut entries);
        Ok(paid)
    }

    /// Writes the move just made into the ledger, so the pair's state holds it: the picks of a round
    /// still in play, or the round gone once it has finished.
    fn save(&self, entries: &mut Entries) {
        if self.status != Status::InPlay {
            entries.remove(&self.nonce);
        } else if let Some(InPlay { game: Some(game), .. }) = entries.get_mut(&self.nonce) {
            game.picks.clone_from(&self.picks);
        }
    }

    /// Ok while the round can move; a voided round learns here that it was voided.
    fn check_in_play(&mut self, entries: &Entries) -> Result<(), Error> {
        if self.status == Status::InPlay && !entries.contains_key(&self.nonce) {
            self.status = Status::Finished(Outcome::Voided);
        }
        match self.status {
            Status::InPlay => Ok(()),
            Status::Finished(Outcome::Voided) => Err(Error::RoundVoided),
            Status::Finished(_) => Err(Error::RoundFinished),
        }
    }

    /// The round's status, with voiding by the seed pair taken into account.
    fn status(&self) -> Status {
        if self.status == Status::InPlay && !self.ledger.lock().contains_key(&self.nonce) {
            return Status::Finished(Outcome::Voided);
        }
        self.status
    }

    /// The public record, once the round has finished (or was voided); `None` while it is in play.
    pub fn record(&self) -> Option<RoundRecord> {
        let Status::Finished(outcome) = self.status() else { return None };
        Some(RoundRecord {
            commitment: self.commitment,
            client_seed: self.client_seed.clone(),
            nonce: self.nonce,
            mines: self.mines.get(),
            rtp: self.rtp,
            picks: self.picks.clone(),
            outcome,
            multiplier: self.multiplier(),
        })
    }

    /// The mine positions, once the round has finished (the player sees the grid at the end).
    pub fn mine_positions(&self) -> Option<Tiles> {
        matches!(self.status(), Status::Finished(_)).then(|| self.placement.positions())
    }

    /// The tiles picked so far, in order.
    pub fn picks(&self) -> &[u8] {
        &self.picks
    }

    /// The nonce this round used.
    pub fn nonce(&self) -> u64 {
        self.nonce
    }

    /// The mine count.
    pub fn mines(&self) -> MineCount {
        self.mines
    }

    /// Whether the round has ended (a mine, a cash-out, or voided).
    pub fn is_finished(&self) -> bool {
        self.status() != Status::InPlay
    }

    /// How the round ended; `None` while it is in play.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.status() {
            Status::InPlay => None,
            Status::Finished(outcome) => Some(outcome),
        }
    }

    /// Safe tiles revealed so far.
    pub fn safe_picks(&self) -> u8 {
        let picks = self.picks.len() as u8;
        if self.status == Status::Finished(Outcome::Lost) { picks - 1 } else { picks }
    }

    /// What a cash-out pays now (or paid): `None` before the first safe pick, after a mine, and once voided.
    pub fn multiplier(&self) -> Option<Ratio> {
        if matches!(self.status(), Status::Finished(Outcome::Lost | Outcome::Voided)) {
            return None;
        }
        multiplier(self.mines, self.safe_picks(), self.rtp).ok()
    }

    /// The commitment of the seed pair the round was played with.
    pub fn commitment(&self) -> Digest {
        self.commitment
    }

    /// The client seed.
    pub fn client_seed(&self) -> &str {
        &self.client_seed
    }

    /// The return-to-player factor of the multipliers.
    pub fn rtp(&self) -> Rtp {
        self.rtp
    }
}

impl Drop for Round {
    /// A round in play that is dropped can be had again from its pair ([`SeedPair::round`]).
    fn drop(&mut self) {
        if self.status == Status::InPlay
            && let Some(entry) = self.ledger.lock().get_mut(&self.nonce)
        {
            entry.handed_out = false;
        }
    }
}

impl fmt::Debug for Round {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The grid stays hidden while the round is in play.
        f.debug_struct("Round")
            .field("commitment", &self.commitment)
            .field("nonce", &self.nonce)
            .field("mines", &self.mines.get())
            .field("picks", &self.picks)
            .field("status", &self.status())
            .finish_non_exhaustive()
    }
}

/// The public record of a finished round, as the operator publishes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundRecord {
    /// The commitment of the seed pair, shown before play.
    pub commitment: Digest,
    /// The client seed.
    pub client_seed: String,
    /// The round's nonce.
    pub nonce: u64,
    /// The mine count.
    pub mines: u8,
    /// The return-to-player factor the multipliers were computed with.
    pub rtp: Rtp,
    /// The tiles picked, in order (1-based).
    pub picks: Vec<u8>,
    /// How the round ended.
    pub outcome: Outcome,
    /// The multiplier paid (`None` when lost), exact.
    pub multiplier: Option<Ratio>,
}

impl RoundRecord {
    /// As JSON, the form operators publish: digests in hex, ratios as `"num/den"` strings. The worked example's
    /// round at nonce 1 (mines at 7, 10 and 19), cashed out after two safe picks:
    ///
    /// ```
    /// use fairmines::{MineCount, Rtp, SeedPair, ServerSeed};
    /// let seed = ServerSeed::from_hex("b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a")?;
    /// let client = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
    /// let mut pair = SeedPair::from_parts(seed, client, 1)?;
    /// let mut round = pair.start_round(MineCount::new(3)?, Rtp::parse("0.99")?)?;
    /// round.reveal(1)?;
    /// round.reveal(2)?;
    /// round.cash_out()?; // 25/22 x 24/21 x 99/100 = 9/7
    /// assert_eq!(
    ///     round.record().unwrap().to_json(),
    ///     r#"{"commitment":"f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42","client_seed":"d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817","nonce":1,"mines":3,"rtp":"99/100","picks":[1,2],"outcome":"cashed_out","multiplier":"9/7"}"#
    /// );
    /// # Ok::<(), fairmines::Error>(())
    /// ```
    pub fn to_json(&self) -> String {
        to_json(self)
    }

    /// Parses [`RoundRecord::to_json`]'s form; [`Error::InvalidState`] (argument `record`) when it does not.
    pub fn from_json(json: &str) -> Result<Self, Error> {
        from_json(json, "record")
    }

    /// A record from its fields as a binding received them, each checked by the library's rules: the
    /// commitment's hex, the nonce, the mine count (1..=24), the RTP, the picks (at most 25 tiles in
    /// 1..=25), the outcome's text and the multiplier. An error names the field (`nonce`, `outcome`, …).
    pub fn from_input(input: RecordInput<'_>) -> Result<Self, Error> {
        Ok(RoundRecord {
            commitment: Digest::parse_hex(input.commitment, "commitment")?,
            client_seed: input.client_seed.to_owned(),
            nonce: crate::input::nonce(input.nonce)?,
            mines: MineCount::try_from(input.mines)?.get(),
            rtp: input.rtp.rtp()?,
            picks: crate::input::tiles(input.picks.iter().copied(), "picks")?.to_vec(),
            outcome: crate::input::outcome(input.outcome, "outcome")?,
            multiplier: input.multiplier.map(|m| m.ratio("multiplier")).transpose()?,
        })
    }
}

/// An exact number as a binding received it: text (`"0.99"`, `"99/100"`) or a ratio already exact.
#[derive(Clone, Copy, Debug)]
pub enum Exact<'a> {
    /// Text, parsed exactly.
    Text(&'a str),
    /// A ratio the binding holds.
    Ratio(Ratio),
}

impl Exact<'_> {
    /// The ratio; an error naming `argument` when the text does not parse.
    pub fn ratio(self, argument: &'static str) -> Result<Ratio, Error> {
        match self {
            Exact::Text(text) => Ratio::parse(text, argument),
            Exact::Ratio(ratio) => Ok(ratio),
        }
    }

    /// As a return-to-player factor: in (0, 1].
    pub fn rtp(self) -> Result<Rtp, Error> {
        match self {
            Exact::Text(text) => Rtp::parse(text),
            Exact::Ratio(ratio) => Rtp::new(ratio),
        }
    }
}

/// The fields of a round record as a binding received them, for [`RoundRecord::from_input`].
#[derive(Clone, Copy, Debug)]
pub struct RecordInput<'a> {
    /// The commitment, 64 hex characters.
    pub commitment: &'a str,
    /// The client seed.
    pub client_seed: &'a str,
    /// The nonce.
    pub nonce: Number,
    /// The mine count.
    pub mines: Number,
    /// The return-to-player factor.
    pub rtp: Exact<'a>,
    /// The tiles picked, in order.
    pub picks: &'a [Number],
    /// `"lost"`, `"cashed_out"` or `"voided"`.
    pub outcome: &'a str,
    /// The multiplier paid, if any.
    pub multiplier: Option<Exact<'a>>,
}

/// The replay of a finished round against its revealed server seed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundVerification {
    /// SHA3-256 of the revealed seed equals the record's commitment.
    pub commitment_ok: bool,
    /// Where the mines were (sorted, 1-based).
    pub mine_positions: Tiles,
    /// The outcome the picks lead to.
    pub expected_outcome: Outcome,
    /// The multiplier the picks lead to (`None` when lost).
    pub expected_multiplier: Option<Ratio>,
    /// Each way the record differs from the replay, in words; empty when it holds.
    pub differences: Vec<String>,
}

impl RoundVerification {
    /// True when the record is exactly what the seeds and picks give.
    pub fn is_ok(&self) -> bool {
        self.differences.is_empty()
    }
}

/// Replays a finished round from its record and the server seed revealed after rotation, and says what
/// differs, if anything does. Errors only for records that cannot describe a round (mine count, tiles).
///
/// A voided record holds when its picks are all safe and leave a safe tile unopened; it pays nothing.
pub fn verify_round(record: &RoundRecord, server_seed: &str) -> Result<RoundVerification, Error> {
    let mines = MineCount::try_from(record.mines)?;
    Tiles::declared(record.picks.iter().copied(), "picks")?;
    let grid = placement(server_seed, &record.client_seed, record.nonce, mines);
    let mut differences = Vec::new();
    let commitment_ok = commitment(server_seed) == record.commitment;
    if !commitment_ok {
        differences.push(format!(
            "commitment: the record says {}, the revealed server seed gives {}",
            record.commitment,
            commitment(server_seed)
        ));
    }
    let play = verify_play(&grid, mines, &record.picks, record.outcome, Some((record.rtp, record.multiplier)));
    differences.extend(play.differences.into_iter().map(|(_, text)| text));
    Ok(RoundVerification {
        commitment_ok,
        mine_positions: grid.positions(),
        expected_outcome: play.expected_outcome,
        expected_multiplier: play.expected_multiplier,
        differences,
    })
}

/// What a round's play (picks, outcome, multiplier) leads to on its placement, and how a record's differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayCheck {
    /// The outcome the picks lead to.
    pub expected_outcome: Outcome,
    /// The multiplier the picks lead to (`None` when lost, or when no RTP was given).
    pub expected_multiplier: Option<Ratio>,
    /// Each difference: the field at fault (`picks`, `outcome` or `multiplier`) and the words
    /// [`verify_round`] reports.
    pub differences: Vec<(&'static str, String)>,
}

/// The play part of [`verify_round`], on a placement already computed (a history checking millions of rows
/// hashes each round once): `picks` in order (1-based, as a record holds them), the declared `outcome`, and
/// `paid`, the RTP with the declared multiplier; without it the multiplier is not checked.
pub fn verify_play(
    grid: &Placement,
    mines: MineCount,
    picks: &[u8],
    outcome: Outcome,
    paid: Option<(Rtp, Option<Ratio>)>,
) -> PlayCheck {
    let mut differences = Vec::new();
    let mut seen = 0u32;
    let mut hit_at = None;
    for (i, &tile) in picks.iter().enumerate() {
        let bit = 1u32.checked_shl(u32::from(tile)).unwrap_or(0);
        if seen & bit != 0 {
            differences.push(("picks", format!("picks: pick {} (tile {tile}) repeats an earlier pick", i + 1)));
        }
        seen |= bit;
        if let Some(mine_pick) = hit_at {
            differences.push((
                "picks",
                format!("picks: pick {} (tile {tile}) comes after the mine of pick {mine_pick}", i + 1),
            ));
        } else if grid.is_mine(tile) {
            hit_at = Some(i + 1);
        }
    }
    let safe_picks = hit_at.map_or(picks.len(), |at| at - 1) as u8;
    // Picks with no mine end in a cash-out, or in a void while safe tiles were left (the last safe tile
    // ends the round paid, so a round with every safe tile open cannot have been voided).
    let voidable = hit_at.is_none() && safe_picks < TILES - mines.get();
    let expected_outcome = match hit_at {
        Some(_) => Outcome::Lost,
        None if outcome == Outcome::Voided && voidable => Outcome::Voided,
        None => Outcome::CashedOut,
    };
    let expected_multiplier = match (expected_outcome, paid) {
        (Outcome::CashedOut, Some((rtp, _))) if safe_picks > 0 => match multiplier(mines, safe_picks, rtp) {
            Ok(paid) => Some(paid),
            Err(e) => {
                // No round can pay this: its RTP makes the multiplier too large to be exact.
                differences.push(("multiplier", format!("multiplier: {e}")));
                None
            }
        },
        _ => None,
    };
    if expected_outcome == Outcome::CashedOut && safe_picks == 0 {
        differences.push(("picks", "picks: a cash-out needs at least one safe pick".to_owned()));
    }
    if outcome != expected_outcome {
        differences.push((
            "outcome",
            format!("outcome: the record says {}, the picks give {}", outcome.as_str(), expected_outcome.as_str()),
        ));
    }
    if let Some((_, declared)) = paid
        && declared != expected_multiplier
    {
        let show = |m: Option<Ratio>| m.map_or("none".to_owned(), |m| m.to_string());
        differences.push((
            "multiplier",
            format!("multiplier: the record says {}, the picks give {}", show(declared), show(expected_multiplier)),
        ));
    }
    PlayCheck { expected_outcome, expected_multiplier, differences }
}
