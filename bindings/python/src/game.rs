//! The game: seed pairs, rounds, records and their replay, exact payouts.
//!
//! Every class is `frozen` (pyo3 never hands out `&mut`), so the classes are `Sync` and safe to share
//! between Python threads, with or without the GIL. The mutable ones hold the core's value in a
//! `std::sync::Mutex`, locked only around a call into the core (arguments are converted before, Python
//! objects built after, so no Python code runs under a lock):
//!
//! - `SeedPair` and `Round`: every method waits for the lock (`lock_py_attached`, which detaches from
//!   the interpreter while it waits, so it cannot deadlock with the GIL or a stop-the-world pause).
//!   Rounds started from many threads get distinct nonces; a second move on one round waits for the
//!   first, as in every binding that can share a round between threads.
//!
//! The lock is never poisoned in practice (the core does not panic); if it were, the value is used as
//! it is, since every core method leaves it consistent.

use std::sync::{Mutex, MutexGuard, PoisonError};

use fairmines::{Outcome, Ratio, ServerSeed};
use pyo3::prelude::*;
use pyo3::sync::MutexExt;
use pyo3::types::PyTuple;

use crate::Obj;
use crate::args;
use crate::errors::{OrRaise, wrong_type};
use crate::ratio::{fraction, fraction_opt};
use crate::records::{PublicSeedPair, RevealedSeedPair, RoundRecord, hash_of, repr_of};

fn wait_for<'a, T>(py: Python<'_>, lock: &'a Mutex<T>) -> MutexGuard<'a, T> {
    lock.lock_py_attached(py).unwrap_or_else(PoisonError::into_inner)
}

/// The server seed of `SeedPair.from_parts`: a `ServerSeed` or its 64 lowercase hex characters.
fn server_seed_of(obj: &Obj<'_>) -> PyResult<ServerSeed> {
    let py = obj.py();
    if let Ok(seed) = obj.cast::<crate::_native::ServerSeed>() {
        return ServerSeed::from_hex(seed.get().reveal_text()).or_raise(py);
    }
    let text = args::text(obj, "server_seed").map_err(|err| {
        if err.is_instance_of::<pyo3::exceptions::PyTypeError>(py) {
            wrong_type("server_seed", "str or ServerSeed", obj)
        } else {
            err
        }
    })?;
    ServerSeed::from_hex(&text).or_raise(py)
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
///
/// The state (``to_state_json()``) holds every round in play with its picks, and each move changes it:
/// store it after every move. After a restart, ``SeedPair.from_state_json(stored).round(nonce)`` goes
/// on with each round in play exactly where it was.
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
    fn new(py: Python<'_>, client_seed: &Obj<'_>) -> PyResult<Self> {
        let client_seed = args::text(client_seed, "client_seed")?;
        fairmines::SeedPair::new(&client_seed).map(Self::wrap).or_raise(py)
    }

    /// A pair from parts the operator already has: the server seed (a ``ServerSeed`` or its 64
    /// lowercase hex characters), the client seed and the nonce of the next round.
    #[staticmethod]
    #[pyo3(signature = (server_seed, client_seed, nonce=None))]
    fn from_parts(server_seed: &Obj<'_>, client_seed: &Obj<'_>, nonce: Option<&Obj<'_>>) -> PyResult<Self> {
        let py = server_seed.py();
        let server_seed = server_seed_of(server_seed)?;
        let client_seed = args::text(client_seed, "client_seed")?;
        let nonce = nonce.map(args::nonce).transpose()?.unwrap_or(0);
        fairmines::SeedPair::from_parts(server_seed, &client_seed, nonce).map(Self::wrap).or_raise(py)
    }

    /// Restores a pair from ``to_state_json()``; each round in play comes back with ``round(nonce)``.
    /// ``InvalidStateError`` (argument ``state``, the message naming the field) when the text does not
    /// parse or does not hold together (the commitment is not the seed's, an unknown field, a round at a
    /// nonce not below ``nonce`` or listed twice, picks repeated, off the board or on a mine); nothing is
    /// restored then.
    ///
    /// States written before rounds were saved whole (``"open_rounds": [nonces]``) restore too, but
    /// their rounds can only be voided. The restored pair does not reach the rounds of the pair the
    /// state was saved from, so keep one live copy of a seed pair (restore after a restart, not beside
    /// the original).
    #[staticmethod]
    fn from_state_json(state: &Obj<'_>) -> PyResult<Self> {
        let text = args::text(state, "state")?;
        fairmines::SeedPair::from_state_json(&text).map(Self::wrap).or_raise(state.py())
    }

    /// What the player may see now: the commitment, the client seed and the nonce of the next round.
    #[getter]
    fn public_part(&self, py: Python<'_>) -> PublicSeedPair {
        PublicSeedPair(wait_for(py, &self.inner).public_part())
    }

    /// Starts a round with the current nonce, then increments the nonce. The grid is fixed now.
    ///
    /// ``mines`` is 1..24; ``rtp`` the return-to-player factor in (0, 1] as ``str`` (``"0.99"``,
    /// ``"99/100"``), ``Fraction``, ``Decimal`` or ``int`` — not ``float``.
    fn start_round(&self, py: Python<'_>, mines: &Obj<'_>, rtp: &Obj<'_>) -> PyResult<Round> {
        let (mines, rtp) = (args::mines(mines)?, crate::ratio::rtp(rtp)?);
        let round = wait_for(py, &self.inner).start_round(mines, rtp);
        round.map(|round| Round { inner: Mutex::new(round) }).or_raise(py)
    }

    /// The round in play at ``nonce``, to go on with after a restart: a pair restored with
    /// ``from_state_json`` gives back each of its rounds, and every later move, record and payout is the
    /// same as if the process had never stopped.
    ///
    /// ``RoundNotInPlayError`` (argument ``nonce``) when no round at ``nonce`` is in play (never
    /// started, finished or voided), when it was restored from a state that kept only its nonce (it can
    /// only be voided), or when this pair has handed it out already and that ``Round`` is still alive.
    fn round(&self, py: Python<'_>, nonce: &Obj<'_>) -> PyResult<Round> {
        let nonce = args::nonce(nonce)?;
        let round = wait_for(py, &self.inner).round(nonce);
        round.map(|round| Round { inner: Mutex::new(round) }).or_raise(py)
    }

    /// The nonces of the rounds in play, ascending: started from this pair and neither finished nor
    /// voided (including those held by the state the pair was restored from).
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
    fn rotate(&self, py: Python<'_>, client_seed: Option<&Obj<'_>>) -> PyResult<RevealedSeedPair> {
        let client_seed = client_seed.filter(|c| !c.is_none()).map(|c| args::text(c, "client_seed")).transpose()?;
        let revealed = wait_for(py, &self.inner).rotate(client_seed.as_deref());
        revealed.map(RevealedSeedPair).or_raise(py)
    }

    /// A new client seed always starts a new pair, revealing the old server seed: the same as
    /// ``rotate(client_seed)``, and refused the same way (``RoundsInPlayError``) while a round is in play.
    fn set_client_seed(&self, py: Python<'_>, client_seed: &Obj<'_>) -> PyResult<RevealedSeedPair> {
        let client_seed = args::text(client_seed, "client_seed")?;
        let revealed = wait_for(py, &self.inner).set_client_seed(&client_seed);
        revealed.map(RevealedSeedPair).or_raise(py)
    }

    /// The full state as JSON, for the operator's own storage: the secret server seed, its commitment,
    /// the client seed, the next nonce and every round in play with its mines, RTP and picks so far.
    ///
    /// A move changes it at once: store it after every start, reveal, cash-out, void and rotation, where
    /// only the service can read it (it holds the server seed: encrypt it or keep it in a private
    /// store). ``from_state_json`` and ``round(nonce)`` go on from there after a restart.
    fn to_state_json(&self, py: Python<'_>) -> String {
        wait_for(py, &self.inner).to_state_json()
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        let public = Bound::new(py, self.public_part(py))?;
        repr_of("SeedPair", &public, &["commitment", "client_seed", "nonce"], Some("server_seed=<hidden>"))
    }

    fn __reduce__(&self) -> PyResult<()> {
        Err(pyo3::exceptions::PyTypeError::new_err(
            "SeedPair cannot be pickled or copied: that would write out the secret server seed; \
             use to_state_json() and SeedPair.from_state_json()",
        ))
    }
}

/// One round in play. The grid is fixed when the round starts; each pick is checked against it.
///
/// Made by ``SeedPair.start_round``, or by ``SeedPair.round(nonce)`` to go on with one after a restart
/// (each move is written into the pair's state at once). ``mine_positions`` is None until the round
/// has finished (or was voided by its seed pair, ``SeedPair.void_open_rounds``). Safe to share between
/// threads: a move (``reveal``, ``cash_out``) made while another thread is moving waits for it, as
/// reading does.
#[pyclass(module = "fairmines", frozen)]
pub(crate) struct Round {
    inner: Mutex<fairmines::Round>,
}

impl Round {
    fn read<R>(&self, py: Python<'_>, read: impl FnOnce(&fairmines::Round) -> R) -> R {
        read(&wait_for(py, &self.inner))
    }
}

#[pymethods]
impl Round {
    /// Reveals ``tile`` (1..25). Returns a ``Reveal``: safe (with the multiplier now reached) or a
    /// mine (the round is lost). Raises ``InvalidTileError``, ``TileAlreadyRevealedError``,
    /// ``RoundFinishedError`` or ``RoundVoidedError``.
    fn reveal(&self, py: Python<'_>, tile: &Obj<'_>) -> PyResult<Reveal> {
        let tile = args::number(tile, "tile")?;
        let reveal = wait_for(py, &self.inner).reveal(tile).or_raise(py)?;
        let fairmines::Reveal { tile, safe, safe_picks, multiplier, finished } = reveal;
        Ok(Reveal { tile, safe, safe_picks, multiplier, finished })
    }

    /// Ends the round and returns the multiplier to pay (exact). Needs at least one safe pick
    /// (``NothingToCashOutError``); ``RoundFinishedError`` once the round has ended, ``RoundVoidedError``
    /// once its seed pair voided it.
    fn cash_out<'py>(&self, py: Python<'py>) -> PyResult<Obj<'py>> {
        let paid = wait_for(py, &self.inner).cash_out().or_raise(py)?;
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
    fn multiplier<'py>(&self, py: Python<'py>) -> PyResult<Option<Obj<'py>>> {
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
    fn rtp<'py>(&self, py: Python<'py>) -> PyResult<Obj<'py>> {
        fraction(py, self.read(py, |round| round.rtp().factor()))
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        // One look at the round (not one per getter); the grid stays hidden while the round is in play.
        let (commitment, nonce, mines, picks, outcome) = self.read(py, |round| {
            (
                round.commitment().to_string(),
                round.nonce(),
                round.mines().get(),
                round.picks().to_vec(),
                round.outcome(),
            )
        });
        let picks = PyTuple::new(py, picks)?.repr()?;
        let outcome = outcome.map_or_else(|| "None".to_owned(), |o| format!("'{}'", o.as_str()));
        Ok(format!("Round(commitment='{commitment}', nonce={nonce}, mines={mines}, picks={picks}, outcome={outcome})"))
    }

    /// Test builds only (cargo feature ``testing``): holds this round for ``seconds`` (at most 10) with
    /// the interpreter released, calling ``started()`` once it holds it.
    #[cfg(feature = "testing")]
    fn _hold_for_testing(&self, py: Python<'_>, seconds: f64, started: &Obj<'_>) -> PyResult<()> {
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
    /// The tile revealed (1-based).
    #[pyo3(get)]
    tile: u8,
    /// True for a safe tile, False for a mine (the round is then lost).
    #[pyo3(get)]
    safe: bool,
    /// Safe tiles revealed in the round so far.
    #[pyo3(get)]
    safe_picks: u8,
    multiplier: Option<Ratio>,
    /// Whether the round has now ended: a mine, or the last safe tile (which pays out).
    #[pyo3(get)]
    finished: bool,
}

#[pymethods]
impl Reveal {
    /// What a cash-out pays now (exact; paid, when the last safe tile finished the round), or None
    /// after a mine.
    #[getter]
    fn multiplier<'py>(&self, py: Python<'py>) -> PyResult<Option<Obj<'py>>> {
        fraction_opt(py, self.multiplier)
    }

    fn __hash__(&self) -> u64 {
        hash_of(self)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        repr_of("Reveal", slf, &["tile", "safe", "safe_picks", "multiplier", "finished"], None)
    }
}
