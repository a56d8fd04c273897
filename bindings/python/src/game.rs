//! The game: seed pairs, rounds, records and their replay, exact payouts.
//!
//! Every class is `frozen` (pyo3 never hands out `&mut`), so the classes are `Sync` and safe to share
//! between Python threads, with or without the GIL. The mutable ones hold the core's value in a
//! `std::sync::Mutex`, locked only around a call into the core (arguments are converted before, Python
//! objects built after, so no Python code runs under a lock):
//!
//! - `SeedPair`: every method waits for the lock (`lock_py_attached`, which detaches from the
//!   interpreter while it waits, so it cannot deadlock with the GIL or a stop-the-world pause). Rounds
//!   started from many threads get distinct nonces.
//! - `Round`: a move (`reveal`, `cash_out`) does not wait: if another thread is inside any method of
//!   the same round, it raises `ConcurrentUseError` (two moves at once have no order the binding could
//!   choose for the player). Reading (properties, `record()`, `repr`) waits.
//!
//! The lock is never poisoned in practice (the core does not panic); if it were, the value is used as
//! it is, since every core method leaves it consistent.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};

use fairmines::{Error, MineCount, Outcome, Ratio, Rtp, ServerSeed};
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::{PyList, PyTuple};

use crate::args;
use crate::errors::{concurrent_use, to_py, wrong_type};
use crate::ratio::{fraction, fraction_opt};

fn wait_for<'a, T>(py: Python<'_>, lock: &'a Mutex<T>) -> MutexGuard<'a, T> {
    lock.lock_py_attached(py).unwrap_or_else(PoisonError::into_inner)
}

fn hash_of(value: &impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// Every outcome, for reading one from its name (`Outcome::as_str`, the core's spelling).
const OUTCOMES: [Outcome; 3] = [Outcome::Lost, Outcome::CashedOut, Outcome::Voided];

// A new variant of the core's `Outcome` fails to compile here until `OUTCOMES` lists it.
const _: fn(Outcome) = |outcome| match outcome {
    Outcome::Lost | Outcome::CashedOut | Outcome::Voided => {}
};

fn outcome_of(obj: &Bound<'_, PyAny>) -> PyResult<Outcome> {
    let text = args::text(obj, "outcome")?;
    OUTCOMES.into_iter().find(|outcome| outcome.as_str() == &*text).ok_or_else(|| {
        let names: Vec<String> = OUTCOMES.iter().map(|outcome| format!("{:?}", outcome.as_str())).collect();
        to_py(
            obj.py(),
            &Error::InvalidState {
                argument: "outcome",
                detail: format!("must be one of {}, got {:?}", names.join(", "), &*text),
            },
        )
    })
}

fn mines_of(obj: &Bound<'_, PyAny>) -> PyResult<MineCount> {
    args::mines(obj)
}

/// The server seed of `SeedPair.from_parts`: a `ServerSeed` or its 64 lowercase hex characters.
fn server_seed_of(obj: &Bound<'_, PyAny>) -> PyResult<ServerSeed> {
    let py = obj.py();
    if let Ok(seed) = obj.cast::<crate::_native::ServerSeed>() {
        return ServerSeed::from_hex(seed.get().reveal_text()).map_err(|err| to_py(py, &err));
    }
    let text = args::text(obj, "server_seed").map_err(|err| {
        if err.is_instance_of::<pyo3::exceptions::PyTypeError>(py) {
            wrong_type("server_seed", "str or ServerSeed", obj)
        } else {
            err
        }
    })?;
    ServerSeed::from_hex(&text).map_err(|err| to_py(py, &err))
}

/// The operator's state of one player's seed pair: a secret server seed with its public commitment,
/// the player's client seed, the nonce of the next round and the rounds still in play.
///
/// ``SeedPair(client_seed)`` draws a fresh server seed from the OS CSPRNG; ``SeedPair.from_parts``
/// restores one from its parts. The repr never shows the server seed; ``to_state_json()`` (for the
/// operator's storage) does. Safe to share between threads: methods take turns, and rounds started
/// from several threads at once get distinct nonces.
///
/// The server seed is revealed only when no round can move: ``rotate`` and ``set_client_seed`` raise
/// ``RoundsInPlayError`` while a round started from the pair is in play (``open_rounds()``). Finish
/// those rounds, or end them with ``void_open_rounds()``: a voided round refuses every later move
/// (``RoundVoidedError``) and its record's outcome is ``"voided"``.
#[pyclass(module = "fairmines", frozen)]
pub(crate) struct SeedPair {
    inner: Mutex<fairmines::SeedPair>,
}

impl SeedPair {
    fn wrap(inner: fairmines::SeedPair) -> Self {
        SeedPair { inner: Mutex::new(inner) }
    }
}

#[pymethods]
impl SeedPair {
    #[new]
    fn new(py: Python<'_>, client_seed: &Bound<'_, PyAny>) -> PyResult<Self> {
        let client_seed = args::text(client_seed, "client_seed")?;
        fairmines::SeedPair::new(&client_seed).map(Self::wrap).map_err(|err| to_py(py, &err))
    }

    /// A pair from parts the operator already has: the server seed (a ``ServerSeed`` or its 64
    /// lowercase hex characters), the client seed and the nonce of the next round.
    #[staticmethod]
    #[pyo3(signature = (server_seed, client_seed, nonce=None))]
    fn from_parts(
        server_seed: &Bound<'_, PyAny>,
        client_seed: &Bound<'_, PyAny>,
        nonce: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let server_seed = server_seed_of(server_seed)?;
        let client_seed = args::text(client_seed, "client_seed")?;
        let nonce = nonce.map(|nonce| args::nonce(nonce, "nonce")).transpose()?.unwrap_or(0);
        Ok(Self::wrap(fairmines::SeedPair::from_parts(server_seed, &client_seed, nonce)))
    }

    /// Restores a pair from ``to_state_json()``; ``InvalidStateError`` (argument ``state``) when the
    /// text does not parse or does not hold together (the commitment is not the seed's, an unknown
    /// field, ``open_rounds`` not distinct nonces below ``nonce``).
    ///
    /// The rounds the state lists as open stay open: the restored pair refuses to rotate until
    /// ``void_open_rounds()``. It does not reach the rounds of the pair the state was saved from, so
    /// keep one live copy of a seed pair (restore after a restart, not beside the original).
    #[staticmethod]
    fn from_state_json(state: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = args::text(state, "state")?;
        fairmines::SeedPair::from_state_json(&text).map(Self::wrap).map_err(|err| to_py(state.py(), &err))
    }

    /// What the player may see now: the commitment, the client seed and the nonce of the next round.
    #[getter]
    fn public(&self, py: Python<'_>) -> PublicSeedPair {
        PublicSeedPair(wait_for(py, &self.inner).public())
    }

    /// Starts a round with the current nonce, then increments the nonce. The grid is fixed now.
    ///
    /// ``mines`` is 1..24; ``rtp`` the return-to-player factor in (0, 1] as ``str`` (``"0.99"``,
    /// ``"99/100"``), ``Fraction``, ``Decimal`` or ``int`` — not ``float``.
    fn start_round(&self, py: Python<'_>, mines: &Bound<'_, PyAny>, rtp: &Bound<'_, PyAny>) -> PyResult<Round> {
        let (mines, rtp) = (mines_of(mines)?, crate::ratio::rtp(rtp)?);
        let round = wait_for(py, &self.inner).start_round(mines, rtp);
        round.map(|round| Round { inner: Mutex::new(round) }).map_err(|err| to_py(py, &err))
    }

    /// The nonces of the rounds in play, ascending: started from this pair and neither finished nor
    /// voided (including those listed in the state the pair was restored from).
    fn open_rounds(&self, py: Python<'_>) -> Vec<u64> {
        wait_for(py, &self.inner).open_rounds()
    }

    /// Voids every round in play and returns their nonces, ascending. A voided round refuses every
    /// later move (``RoundVoidedError``) and its record's outcome is ``"voided"``, with no multiplier
    /// (the stake is returned). Afterwards the pair can rotate.
    fn void_open_rounds(&self, py: Python<'_>) -> Vec<u64> {
        wait_for(py, &self.inner).void_open_rounds()
    }

    /// Ends this pair and starts a new one (fresh server seed, new commitment, nonce 0), with a new
    /// client seed if one is given. Returns the old pair, whose server seed may now be published.
    ///
    /// Raises ``RoundsInPlayError`` (and changes nothing) while a round of the pair is in play: finish
    /// the rounds, or ``void_open_rounds()`` first.
    #[pyo3(signature = (client_seed=None))]
    fn rotate(&self, py: Python<'_>, client_seed: Option<&Bound<'_, PyAny>>) -> PyResult<RevealedSeedPair> {
        let client_seed = client_seed.filter(|c| !c.is_none()).map(|c| args::text(c, "client_seed")).transpose()?;
        let revealed = wait_for(py, &self.inner).rotate(client_seed.as_deref());
        revealed.map(RevealedSeedPair).map_err(|err| to_py(py, &err))
    }

    /// A new client seed always starts a new pair, revealing the old server seed: the same as
    /// ``rotate(client_seed)``, and refused the same way (``RoundsInPlayError``) while a round is in play.
    fn set_client_seed(&self, py: Python<'_>, client_seed: &Bound<'_, PyAny>) -> PyResult<RevealedSeedPair> {
        let client_seed = args::text(client_seed, "client_seed")?;
        let revealed = wait_for(py, &self.inner).set_client_seed(&client_seed);
        revealed.map(RevealedSeedPair).map_err(|err| to_py(py, &err))
    }

    /// The full state as JSON, for the operator's own storage. It contains the secret server seed.
    fn to_state_json(&self, py: Python<'_>) -> String {
        wait_for(py, &self.inner).to_state_json()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let public = wait_for(py, &self.inner).public();
        format!(
            "SeedPair(commitment='{}', client_seed={}, nonce={}, server_seed=<hidden>)",
            public.commitment,
            py_repr(py, &public.client_seed),
            public.nonce
        )
    }

    fn __reduce__(&self) -> PyResult<()> {
        Err(pyo3::exceptions::PyTypeError::new_err(
            "SeedPair cannot be pickled or copied: that would write out the secret server seed; \
             use to_state_json() and SeedPair.from_state_json()",
        ))
    }
}

/// The Python repr of a string (quotes and escapes as Python writes them).
fn py_repr(py: Python<'_>, text: &str) -> String {
    pyo3::types::PyString::new(py, text).repr().map_or_else(|_| format!("{text:?}"), |r| r.to_string())
}

fn fraction_repr(ratio: Ratio) -> String {
    format!("Fraction({}, {})", ratio.numer(), ratio.denom())
}

fn fraction_repr_opt(ratio: Option<Ratio>) -> String {
    ratio.map_or_else(|| "None".to_owned(), fraction_repr)
}

fn tuple_repr(tiles: &[u8]) -> String {
    match tiles {
        [one] => format!("({one},)"),
        _ => format!("({})", tiles.iter().map(u8::to_string).collect::<Vec<_>>().join(", ")),
    }
}

/// One round in play. The grid is fixed when the round starts; each pick is checked against it.
///
/// Made by ``SeedPair.start_round``. ``mine_positions`` is None until the round has finished (or was
/// voided by its seed pair, ``SeedPair.void_open_rounds``). A move (``reveal``, ``cash_out``) made
/// while another thread is using the same round raises ``ConcurrentUseError``; reading waits its turn.
#[pyclass(module = "fairmines", frozen)]
pub(crate) struct Round {
    inner: Mutex<fairmines::Round>,
}

impl Round {
    /// The round for a move: now, or `ConcurrentUseError` if another thread holds it.
    fn for_move(&self, py: Python<'_>) -> PyResult<MutexGuard<'_, fairmines::Round>> {
        match self.inner.try_lock() {
            Ok(round) => Ok(round),
            Err(TryLockError::Poisoned(poisoned)) => Ok(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => {
                Err(concurrent_use(py, "round: another thread is using this Round; a round takes one move at a time"))
            }
        }
    }

    fn read<R>(&self, py: Python<'_>, read: impl FnOnce(&fairmines::Round) -> R) -> R {
        read(&wait_for(py, &self.inner))
    }
}

#[pymethods]
impl Round {
    /// Reveals ``tile`` (1..25). Returns a ``Reveal``: safe (with the multiplier now reached) or a
    /// mine (the round is lost). Raises ``InvalidTileError``, ``TileAlreadyRevealedError``,
    /// ``RoundFinishedError`` or ``RoundVoidedError``.
    fn reveal(&self, py: Python<'_>, tile: &Bound<'_, PyAny>) -> PyResult<Reveal> {
        let mut round = self.for_move(py)?;
        let reveal = args::with_int(tile, "tile", (i64::MIN, i64::MAX), |tile| round.reveal(tile))?;
        let tile = round.picks().last().copied().unwrap_or_default();
        Ok(match reveal {
            fairmines::Reveal::Safe { safe_picks, multiplier } => {
                Reveal { tile, safe: true, safe_picks, multiplier: Some(multiplier) }
            }
            fairmines::Reveal::Mine => Reveal { tile, safe: false, safe_picks: round.safe_picks(), multiplier: None },
        })
    }

    /// Ends the round and returns the multiplier to pay (exact). Needs at least one safe pick
    /// (``NothingToCashOutError``); ``RoundFinishedError`` once the round has ended, ``RoundVoidedError``
    /// once its seed pair voided it.
    fn cash_out<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let paid = self.for_move(py)?.cash_out().map_err(|err| to_py(py, &err))?;
        fraction(py, paid)
    }

    /// The public record, once the round has finished (or was voided); None while it is in play.
    fn record(&self, py: Python<'_>) -> Option<RoundRecord> {
        self.read(py, fairmines::Round::record).map(RoundRecord)
    }

    /// The mine positions (sorted, 1-based) once the round has finished; None while it is in play.
    #[getter]
    fn mine_positions<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
        let positions = self.read(py, fairmines::Round::mine_positions);
        positions.map(|positions| PyTuple::new(py, &*positions)).transpose()
    }

    /// The tiles picked so far, in order.
    #[getter]
    fn picks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let picks = self.read(py, |round| round.picks().to_vec());
        PyTuple::new(py, picks)
    }

    /// The nonce this round used.
    #[getter]
    fn nonce(&self, py: Python<'_>) -> u64 {
        self.read(py, fairmines::Round::nonce)
    }

    /// The mine count.
    #[getter]
    fn mines(&self, py: Python<'_>) -> u8 {
        self.read(py, |round| round.mines().get())
    }

    /// Whether the round has ended (a mine, a cash-out, or voided).
    #[getter]
    fn is_finished(&self, py: Python<'_>) -> bool {
        self.read(py, fairmines::Round::is_finished)
    }

    /// ``"lost"``, ``"cashed_out"`` or ``"voided"`` once the round has ended; None while it is in play.
    #[getter]
    fn outcome(&self, py: Python<'_>) -> Option<&'static str> {
        self.read(py, |round| round.outcome().map(Outcome::as_str))
    }

    /// Safe tiles revealed so far.
    #[getter]
    fn safe_picks(&self, py: Python<'_>) -> u8 {
        self.read(py, fairmines::Round::safe_picks)
    }

    /// What a cash-out pays now (or paid), exact; None before the first safe pick, after a mine and once
    /// voided.
    #[getter]
    fn multiplier<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        fraction_opt(py, self.read(py, fairmines::Round::multiplier))
    }

    /// The commitment of the seed pair the round was played with (lowercase hex).
    #[getter]
    fn commitment(&self, py: Python<'_>) -> String {
        self.read(py, |round| round.commitment().to_string())
    }

    /// The client seed.
    #[getter]
    fn client_seed(&self, py: Python<'_>) -> String {
        self.read(py, |round| round.client_seed().to_owned())
    }

    /// The return-to-player factor of the multipliers, exact.
    #[getter]
    fn rtp<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, self.read(py, |round| round.rtp().factor()))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        // The grid stays hidden while the round is in play.
        self.read(py, |round| {
            format!(
                "Round(commitment='{}', nonce={}, mines={}, picks={}, outcome={})",
                round.commitment(),
                round.nonce(),
                round.mines().get(),
                tuple_repr(round.picks()),
                round.outcome().map_or_else(|| "None".to_owned(), |o| format!("'{}'", o.as_str()))
            )
        })
    }

    /// For the tests of ``ConcurrentUseError`` only: holds this round for ``seconds`` (at most 10)
    /// with the interpreter released, calling ``started()`` once it holds it.
    fn _hold_for_testing(&self, py: Python<'_>, seconds: f64, started: &Bound<'_, PyAny>) -> PyResult<()> {
        let _round = wait_for(py, &self.inner);
        started.call0()?;
        let duration = std::time::Duration::from_secs_f64(seconds.clamp(0.0, 10.0));
        py.detach(|| std::thread::sleep(duration));
        Ok(())
    }
}

/// What ``Round.reveal`` found: a safe tile (with the multiplier a cash-out would now pay) or a mine.
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq, Hash)]
pub(crate) struct Reveal {
    tile: u8,
    safe: bool,
    safe_picks: u8,
    multiplier: Option<Ratio>,
}

#[pymethods]
impl Reveal {
    /// The tile revealed (1-based).
    #[getter]
    fn tile(&self) -> u8 {
        self.tile
    }

    /// True for a safe tile, False for a mine (the round is then lost).
    #[getter]
    fn safe(&self) -> bool {
        self.safe
    }

    /// Safe picks in the round so far.
    #[getter]
    fn safe_picks(&self) -> u8 {
        self.safe_picks
    }

    /// The multiplier reached (exact), or None after a mine.
    #[getter]
    fn multiplier<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        fraction_opt(py, self.multiplier)
    }

    fn __hash__(&self) -> u64 {
        hash_of(self)
    }

    fn __repr__(&self) -> String {
        format!(
            "Reveal(tile={}, safe={}, safe_picks={}, multiplier={})",
            self.tile,
            if self.safe { "True" } else { "False" },
            self.safe_picks,
            fraction_repr_opt(self.multiplier)
        )
    }
}

/// The public record of a finished round, as the operator publishes it; ``verify_round`` replays it.
///
/// ``Round.record()`` makes one; so do ``RoundRecord.from_json`` and the constructor, for a player
/// checking what an operator published. ``rtp`` and ``multiplier`` are exact (``Fraction``; given as
/// ``str``, ``Fraction``, ``Decimal`` or ``int``), ``outcome`` is ``"lost"``, ``"cashed_out"`` or
/// ``"voided"``.
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq)]
pub(crate) struct RoundRecord(fairmines::RoundRecord);

#[pymethods]
impl RoundRecord {
    #[new]
    #[pyo3(signature = (commitment, client_seed, nonce, mines, rtp, picks, outcome, multiplier=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        commitment: &Bound<'_, PyAny>,
        client_seed: &Bound<'_, PyAny>,
        nonce: &Bound<'_, PyAny>,
        mines: &Bound<'_, PyAny>,
        rtp: &Bound<'_, PyAny>,
        picks: &Bound<'_, PyAny>,
        outcome: &Bound<'_, PyAny>,
        multiplier: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        Ok(RoundRecord(fairmines::RoundRecord {
            commitment: args::commitment(commitment)?,
            client_seed: args::text(client_seed, "client_seed")?.to_string(),
            nonce: args::nonce(nonce, "nonce")?,
            mines: mines_of(mines)?.get(),
            rtp: crate::ratio::rtp(rtp)?,
            picks: args::tiles(picks, "picks")?,
            outcome: outcome_of(outcome)?,
            multiplier: multiplier
                .filter(|m| !m.is_none())
                .map(|m| crate::ratio::ratio(m, "multiplier"))
                .transpose()?,
        }))
    }

    /// Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``record``) when it does not.
    #[staticmethod]
    fn from_json(json: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = args::text(json, "json")?;
        fairmines::RoundRecord::from_json(&text).map(RoundRecord).map_err(|err| to_py(json.py(), &err))
    }

    /// As JSON, the form operators publish: ratios as ``"num/den"`` strings, outcome
    /// ``"lost"``/``"cashed_out"``/``"voided"``, multiplier null when lost or voided.
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    /// The commitment of the seed pair, shown before play (lowercase hex).
    #[getter]
    fn commitment(&self) -> String {
        self.0.commitment.to_string()
    }

    /// The client seed.
    #[getter]
    fn client_seed(&self) -> &str {
        &self.0.client_seed
    }

    /// The round's nonce.
    #[getter]
    fn nonce(&self) -> u64 {
        self.0.nonce
    }

    /// The mine count.
    #[getter]
    fn mines(&self) -> u8 {
        self.0.mines
    }

    /// The return-to-player factor the multipliers were computed with, exact.
    #[getter]
    fn rtp<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, self.0.rtp.factor())
    }

    /// The tiles picked, in order (1-based).
    #[getter]
    fn picks<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.0.picks)
    }

    /// ``"lost"``, ``"cashed_out"`` or ``"voided"``.
    #[getter]
    fn outcome(&self) -> &'static str {
        self.0.outcome.as_str()
    }

    /// The multiplier paid (exact), None when lost or voided.
    #[getter]
    fn multiplier<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        fraction_opt(py, self.0.multiplier)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.0.to_json())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let r = &self.0;
        format!(
            "RoundRecord(commitment='{}', client_seed={}, nonce={}, mines={}, rtp={}, picks={}, outcome='{}', \
             multiplier={})",
            r.commitment,
            py_repr(py, &r.client_seed),
            r.nonce,
            r.mines,
            fraction_repr(r.rtp.factor()),
            tuple_repr(&r.picks),
            r.outcome.as_str(),
            fraction_repr_opt(r.multiplier)
        )
    }

    /// Pickles (and copies) through the constructor: a record is public.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let this = slf.get();
        let args = (
            this.commitment(),
            this.client_seed(),
            this.nonce(),
            this.mines(),
            this.rtp(py)?,
            this.picks(py)?,
            this.outcome(),
            this.multiplier(py)?,
        );
        Ok((slf.get_type().into_any(), args.into_pyobject(py)?))
    }
}

/// Replays a finished round from its record and the server seed revealed after rotation.
///
/// Returns a ``RoundVerification`` that says what differs, if anything does. A voided record holds
/// when its picks are all safe and leave a safe tile unopened; it pays nothing. Raises only for a
/// record that cannot describe a round (``InvalidMinesError``, ``InvalidTileError`` for its picks).
#[pyfunction]
pub(crate) fn verify_round(record: &Bound<'_, PyAny>, server_seed: &Bound<'_, PyAny>) -> PyResult<RoundVerification> {
    let py = record.py();
    let record = record.cast::<RoundRecord>().map_err(|_| wrong_type("record", "RoundRecord", record))?;
    let server_seed = args::text(server_seed, "server_seed")?;
    fairmines::verify_round(&record.get().0, &server_seed).map(RoundVerification).map_err(|err| to_py(py, &err))
}

/// The result of ``verify_round``: the replay of the record, and each way the record differs from it.
///
/// True (``bool(v)``, ``v.ok``) when the record is exactly what the seeds and picks give.
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq)]
pub(crate) struct RoundVerification(fairmines::RoundVerification);

#[pymethods]
impl RoundVerification {
    /// True when the record is exactly what the seeds and picks give (no differences).
    #[getter]
    fn ok(&self) -> bool {
        self.0.is_ok()
    }

    /// Whether SHA3-256 of the revealed server seed is the record's commitment.
    #[getter]
    fn commitment_ok(&self) -> bool {
        self.0.commitment_ok
    }

    /// Where the mines were (sorted, 1-based).
    #[getter]
    fn mine_positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &*self.0.mine_positions)
    }

    /// The outcome the picks lead to: ``"lost"``, ``"cashed_out"``, or ``"voided"`` for a voided
    /// record whose picks are all safe and leave a safe tile unopened.
    #[getter]
    fn expected_outcome(&self) -> &'static str {
        self.0.expected_outcome.as_str()
    }

    /// The multiplier the picks lead to (exact), None when lost or voided.
    #[getter]
    fn expected_multiplier<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        fraction_opt(py, self.0.expected_multiplier)
    }

    /// Each way the record differs from the replay, in words (each starts with the field); empty when
    /// it holds.
    #[getter]
    fn differences<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.0.differences)
    }

    fn __bool__(&self) -> bool {
        self.0.is_ok()
    }

    fn __repr__(&self) -> String {
        let v = &self.0;
        let verdict = if v.is_ok() { "ok".to_owned() } else { format!("FAILED: {}", v.differences.join("; ")) };
        format!("<RoundVerification {verdict}; mines at {:?}>", &*v.mine_positions)
    }
}

/// What the player sees of an active seed pair: the commitment, the client seed and the nonce of the
/// next round.
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq)]
pub(crate) struct PublicSeedPair(fairmines::PublicSeedPair);

#[pymethods]
impl PublicSeedPair {
    #[new]
    fn new(commitment: &Bound<'_, PyAny>, client_seed: &Bound<'_, PyAny>, nonce: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PublicSeedPair(fairmines::PublicSeedPair {
            commitment: args::commitment(commitment)?,
            client_seed: args::text(client_seed, "client_seed")?.to_string(),
            nonce: args::nonce(nonce, "nonce")?,
        }))
    }

    /// Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``public``) when it does not.
    #[staticmethod]
    fn from_json(json: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = args::text(json, "json")?;
        fairmines::PublicSeedPair::from_json(&text).map(PublicSeedPair).map_err(|err| to_py(json.py(), &err))
    }

    /// As JSON: ``{"commitment": hex, "client_seed": ..., "nonce": n}``.
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    /// SHA3-256 of the secret server seed (lowercase hex).
    #[getter]
    fn commitment(&self) -> String {
        self.0.commitment.to_string()
    }

    /// The player's client seed.
    #[getter]
    fn client_seed(&self) -> &str {
        &self.0.client_seed
    }

    /// The nonce of the next round.
    #[getter]
    fn nonce(&self) -> u64 {
        self.0.nonce
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.0.to_json())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let p = &self.0;
        format!(
            "PublicSeedPair(commitment='{}', client_seed={}, nonce={})",
            p.commitment,
            py_repr(py, &p.client_seed),
            p.nonce
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let (py, this) = (slf.py(), slf.get());
        let args = (this.commitment(), this.client_seed(), this.nonce());
        Ok((slf.get_type().into_any(), args.into_pyobject(py)?))
    }
}

/// A seed pair that has been rotated out: its server seed may now be published, and every round it
/// played (nonces ``0 .. rounds``) can be checked with ``verify_round``.
///
/// The repr does not show the server seed (``.server_seed`` and ``to_json()`` do), so that logs do
/// not carry seeds, revealed or not.
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq)]
pub(crate) struct RevealedSeedPair(fairmines::RevealedSeedPair);

#[pymethods]
impl RevealedSeedPair {
    #[new]
    fn new(
        server_seed: &Bound<'_, PyAny>,
        commitment: &Bound<'_, PyAny>,
        client_seed: &Bound<'_, PyAny>,
        rounds: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        Ok(RevealedSeedPair(fairmines::RevealedSeedPair {
            server_seed: args::text(server_seed, "server_seed")?.to_string(),
            commitment: args::commitment(commitment)?,
            client_seed: args::text(client_seed, "client_seed")?.to_string(),
            rounds: args::nonce(rounds, "rounds")?,
        }))
    }

    /// Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``revealed``) when it does not.
    #[staticmethod]
    fn from_json(json: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = args::text(json, "json")?;
        fairmines::RevealedSeedPair::from_json(&text).map(RevealedSeedPair).map_err(|err| to_py(json.py(), &err))
    }

    /// As JSON: ``{"server_seed": ..., "commitment": hex, "client_seed": ..., "rounds": n}``.
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    /// The server seed, now public.
    #[getter]
    fn server_seed(&self) -> &str {
        &self.0.server_seed
    }

    /// Its commitment, as shown before play (lowercase hex).
    #[getter]
    fn commitment(&self) -> String {
        self.0.commitment.to_string()
    }

    /// The client seed it was used with.
    #[getter]
    fn client_seed(&self) -> &str {
        &self.0.client_seed
    }

    /// How many rounds it played (nonces ``0 .. rounds``).
    #[getter]
    fn rounds(&self) -> u64 {
        self.0.rounds
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.0.to_json())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let r = &self.0;
        format!(
            "RevealedSeedPair(commitment='{}', client_seed={}, rounds={}, server_seed=<see .server_seed>)",
            r.commitment,
            py_repr(py, &r.client_seed),
            r.rounds
        )
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let (py, this) = (slf.py(), slf.get());
        let args = (this.server_seed(), this.commitment(), this.client_seed(), this.rounds());
        Ok((slf.get_type().into_any(), args.into_pyobject(py)?))
    }
}

/// One entry of ``payout_table``: the exact multiplier after ``safe_picks`` safe picks with ``mines``.
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq, Hash)]
pub(crate) struct TableEntry {
    mines: u8,
    safe_picks: u8,
    multiplier: Ratio,
}

#[pymethods]
impl TableEntry {
    /// Mines in the round.
    #[getter]
    fn mines(&self) -> u8 {
        self.mines
    }

    /// Safe picks made.
    #[getter]
    fn safe_picks(&self) -> u8 {
        self.safe_picks
    }

    /// The exact multiplier.
    #[getter]
    fn multiplier<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        fraction(py, self.multiplier)
    }

    fn __hash__(&self) -> u64 {
        hash_of(self)
    }

    fn __repr__(&self) -> String {
        format!(
            "TableEntry(mines={}, safe_picks={}, multiplier={})",
            self.mines,
            self.safe_picks,
            fraction_repr(self.multiplier)
        )
    }
}

/// The multiplier after ``safe_picks`` safe picks with ``mines`` mines: C(25, k) / C(25 - m, k) x rtp,
/// exact (a ``Fraction``). ``safe_picks`` is 1..25 - mines (``InvalidPicksError``).
#[pyfunction]
pub(crate) fn multiplier<'py>(
    mines: &Bound<'py, PyAny>,
    safe_picks: &Bound<'py, PyAny>,
    rtp: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let py = mines.py();
    let (mines, rtp) = (mines_of(mines)?, crate::ratio::rtp(rtp)?);
    let value = args::with_int(safe_picks, "safe_picks", (u8::MIN, u8::MAX), |k| fairmines::multiplier(mines, k, rtp))?;
    fraction(py, value)
}

/// The whole table: every mine count 1..24 and every number of safe picks 1..25 - mines, in that order.
#[pyfunction]
pub(crate) fn payout_table<'py>(rtp: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let py = rtp.py();
    let rtp: Rtp = crate::ratio::rtp(rtp)?;
    let entries = fairmines::payout_table(rtp).into_iter().map(|e| TableEntry {
        mines: e.mines,
        safe_picks: e.safe_picks,
        multiplier: e.multiplier,
    });
    PyList::new(py, entries)
}

/// The most safe picks a round with ``mines`` mines allows: 25 - mines.
#[pyfunction]
pub(crate) fn max_safe_picks(mines: &Bound<'_, PyAny>) -> PyResult<u8> {
    Ok(fairmines::max_safe_picks(mines_of(mines)?))
}
