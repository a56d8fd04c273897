//! Records and their replay, the public sides of a seed pair, and exact payouts.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use fairmines::{Ratio, RecordInput, Rtp};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::Obj;
use crate::args;
use crate::errors::{OrRaise, wrong_type};
use crate::ratio::{exact, fraction, fraction_opt};

/// The `__hash__` of a value object: the hash of its fields.
pub(crate) fn hash_of(value: &impl Hash) -> u64 {
    let mut hasher = DefaultHasher::new();
    value.hash(&mut hasher);
    hasher.finish()
}

/// The repr of a value: `Name(field=repr(field), …, extra)`, from the object's own getters.
pub(crate) fn repr_of(name: &str, obj: &Obj<'_>, fields: &[&str], extra: Option<&str>) -> PyResult<String> {
    let mut parts = Vec::with_capacity(fields.len() + 1);
    for field in fields {
        parts.push(format!("{field}={}", obj.getattr(*field)?.repr()?));
    }
    parts.extend(extra.map(str::to_owned));
    Ok(format!("{name}({})", parts.join(", ")))
}

/// The public record of a finished round, as the operator publishes it; ``verify_round`` replays it.
///
/// ``Round.record()`` makes one; so do ``RoundRecord.from_json`` and the constructor, for a player
/// checking what an operator published. ``rtp`` and ``multiplier`` are exact (``Fraction``; given as
/// ``str``, ``Fraction``, ``Decimal`` or ``int``), ``outcome`` is ``"lost"``, ``"cashed_out"`` or
/// ``"voided"``.
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq)]
pub(crate) struct RoundRecord(pub(crate) fairmines::RoundRecord);

#[pymethods]
impl RoundRecord {
    #[new]
    #[pyo3(signature = (commitment, client_seed, nonce, mines, rtp, picks, outcome, multiplier=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        commitment: &Obj<'_>,
        client_seed: &Obj<'_>,
        nonce: &Obj<'_>,
        mines: &Obj<'_>,
        rtp: &Obj<'_>,
        picks: &Obj<'_>,
        outcome: &Obj<'_>,
        multiplier: Option<&Obj<'_>>,
    ) -> PyResult<Self> {
        let (commitment, client_seed) =
            (args::text(commitment, "commitment")?, args::text(client_seed, "client_seed")?);
        let (rtp, outcome) = (exact(rtp, "rtp")?, args::text(outcome, "outcome")?);
        let multiplier = multiplier.filter(|m| !m.is_none()).map(|m| exact(m, "multiplier")).transpose()?;
        let input = RecordInput {
            commitment: &commitment,
            client_seed: &client_seed,
            nonce: args::number(nonce, "nonce")?,
            mines: args::number(mines, "mines")?,
            rtp: rtp.get(),
            picks: &args::tiles(picks, "picks")?,
            outcome: &outcome,
            multiplier: multiplier.as_ref().map(|m| m.get()),
        };
        fairmines::RoundRecord::from_input(input).map(RoundRecord).or_raise(nonce.py())
    }

    /// Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``record``) when it does not.
    #[staticmethod]
    fn from_json(json: &Obj<'_>) -> PyResult<Self> {
        let text = args::text(json, "json")?;
        fairmines::RoundRecord::from_json(&text).map(RoundRecord).or_raise(json.py())
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
    fn rtp<'py>(&self, py: Python<'py>) -> PyResult<Obj<'py>> {
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
    fn multiplier<'py>(&self, py: Python<'py>) -> PyResult<Option<Obj<'py>>> {
        fraction_opt(py, self.0.multiplier)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.0.to_json())
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let fields = ["commitment", "client_seed", "nonce", "mines", "rtp", "picks", "outcome", "multiplier"];
        repr_of("RoundRecord", slf, &fields, None)
    }

    /// Pickles (and copies) through ``from_json``: a record is public.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Obj<'py>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.get().0.to_json(),)))
    }
}

/// Replays a finished round from its record and the server seed revealed after rotation.
///
/// Returns a ``RoundVerification`` that says what differs, if anything does. A voided record holds
/// when its picks are all safe and leave a safe tile unopened; it pays nothing. Raises only for a
/// record that cannot describe a round (``InvalidMinesError``, ``InvalidTileError`` for its picks).
#[pyfunction]
pub(crate) fn verify_round(record: &Obj<'_>, server_seed: &Obj<'_>) -> PyResult<RoundVerification> {
    let py = record.py();
    let record = record.cast::<RoundRecord>().map_err(|_| wrong_type("record", "RoundRecord", record))?;
    let server_seed = args::text(server_seed, "server_seed")?;
    fairmines::verify_round(&record.get().0, &server_seed).map(RoundVerification).or_raise(py)
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
    fn expected_multiplier<'py>(&self, py: Python<'py>) -> PyResult<Option<Obj<'py>>> {
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
pub(crate) struct PublicSeedPair(pub(crate) fairmines::PublicSeedPair);

#[pymethods]
impl PublicSeedPair {
    #[new]
    fn new(commitment: &Obj<'_>, client_seed: &Obj<'_>, nonce: &Obj<'_>) -> PyResult<Self> {
        Ok(PublicSeedPair(fairmines::PublicSeedPair {
            commitment: args::commitment(commitment)?,
            client_seed: args::text(client_seed, "client_seed")?.to_string(),
            nonce: args::nonce(nonce)?,
        }))
    }

    /// Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``public``) when it does not.
    #[staticmethod]
    fn from_json(json: &Obj<'_>) -> PyResult<Self> {
        let text = args::text(json, "json")?;
        fairmines::PublicSeedPair::from_json(&text).map(PublicSeedPair).or_raise(json.py())
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

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        repr_of("PublicSeedPair", slf, &["commitment", "client_seed", "nonce"], None)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Obj<'py>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.get().0.to_json(),)))
    }
}

/// A seed pair that has been rotated out: its server seed may now be published, and every round it
/// played (nonces ``0 .. rounds``) can be checked with ``verify_round``.
///
/// The repr does not show the server seed (``.server_seed`` and ``to_json()`` do), so that logs do
/// not carry seeds, revealed or not.
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq)]
pub(crate) struct RevealedSeedPair(pub(crate) fairmines::RevealedSeedPair);

#[pymethods]
impl RevealedSeedPair {
    #[new]
    fn new(server_seed: &Obj<'_>, commitment: &Obj<'_>, client_seed: &Obj<'_>, rounds: &Obj<'_>) -> PyResult<Self> {
        Ok(RevealedSeedPair(fairmines::RevealedSeedPair {
            server_seed: args::text(server_seed, "server_seed")?.to_string(),
            commitment: args::commitment(commitment)?,
            client_seed: args::text(client_seed, "client_seed")?.to_string(),
            rounds: args::nonce_as(rounds, "rounds")?,
        }))
    }

    /// Parses ``to_json()``'s form; ``InvalidStateError`` (argument ``revealed``) when it does not.
    #[staticmethod]
    fn from_json(json: &Obj<'_>) -> PyResult<Self> {
        let text = args::text(json, "json")?;
        fairmines::RevealedSeedPair::from_json(&text).map(RevealedSeedPair).or_raise(json.py())
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

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let fields = ["commitment", "client_seed", "rounds"];
        repr_of("RevealedSeedPair", slf, &fields, Some("server_seed=<see .server_seed>"))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Obj<'py>, (String,))> {
        Ok((slf.get_type().getattr("from_json")?, (slf.get().0.to_json(),)))
    }
}

/// One entry of ``payout_table``: the exact multiplier after ``safe_picks`` safe picks with ``mines``.
#[pyclass(module = "fairmines", frozen, eq)]
#[derive(PartialEq, Hash)]
pub(crate) struct TableEntry {
    /// Mines in the round.
    #[pyo3(get)]
    mines: u8,
    /// Safe picks made.
    #[pyo3(get)]
    safe_picks: u8,
    multiplier: Ratio,
}

#[pymethods]
impl TableEntry {
    /// The exact multiplier.
    #[getter]
    fn multiplier<'py>(&self, py: Python<'py>) -> PyResult<Obj<'py>> {
        fraction(py, self.multiplier)
    }

    fn __hash__(&self) -> u64 {
        hash_of(self)
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        repr_of("TableEntry", slf, &["mines", "safe_picks", "multiplier"], None)
    }
}

/// The multiplier after ``safe_picks`` safe picks with ``mines`` mines: C(25, k) / C(25 - m, k) x rtp,
/// exact (a ``Fraction``). ``safe_picks`` is 1..25 - mines (``InvalidPicksError``).
#[pyfunction]
pub(crate) fn multiplier<'py>(mines: &Obj<'py>, safe_picks: &Obj<'py>, rtp: &Obj<'py>) -> PyResult<Obj<'py>> {
    let py = mines.py();
    let (mines, rtp) = (args::mines(mines)?, crate::ratio::rtp(rtp)?);
    let safe_picks = args::number(safe_picks, "safe_picks")?;
    fraction(py, fairmines::multiplier(mines, safe_picks, rtp).or_raise(py)?)
}

/// The whole table: every mine count 1..24 and every number of safe picks 1..25 - mines, in that order.
#[pyfunction]
pub(crate) fn payout_table<'py>(rtp: &Obj<'py>) -> PyResult<Bound<'py, PyList>> {
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
pub(crate) fn max_safe_picks(mines: &Obj<'_>) -> PyResult<u8> {
    Ok(fairmines::max_safe_picks(args::mines(mines)?))
}
