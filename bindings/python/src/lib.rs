//! `fairmines._native`: the Python face of the `fairmines` crate.
//!
//! Thin by design: each function converts its arguments (`args`, `ratio`: numbers go to the core as
//! `fairmines::Number`, and the core's rules judge them), calls the core, and converts the result or the
//! core's error (`errors`, the one place where errors are mapped, its classes made from
//! `fairmines::ErrorKind::ALL`). No rule of the algorithm or the game lives here. Hand-written code has no
//! `unsafe`; panics cannot cross into Python (pyo3 turns them into exceptions), and the core promises none.
//! The module declares that it does not need the GIL (pyo3's default): every class is frozen and keeps
//! mutable state behind a lock (`game`).

#![forbid(unsafe_code)]

mod args;
mod batch;
mod errors;
mod game;
mod history;
mod ratio;
mod records;
mod reports;

use pyo3::prelude::*;

/// Any Python object, as the binding's functions take every argument (and convert it in `args`).
pub(crate) type Obj<'py> = Bound<'py, PyAny>;

/// Provably fair Mines (Cloudbet): commitments, round signatures, mine placement and verification.
///
/// Import from `fairmines`, not from this module.
#[pymodule]
pub(crate) mod _native {
    use fairmines::Placement;
    use pyo3::exceptions::PyTypeError;
    use pyo3::prelude::*;
    use pyo3::types::{PyList, PyTuple};

    use crate::Obj;
    use crate::args;
    use crate::batch;
    use crate::errors::OrRaise;

    #[pymodule_export]
    use crate::game::{Reveal, Round, SeedPair};

    #[pymodule_export]
    use crate::records::{
        PublicSeedPair, RevealedSeedPair, RoundRecord, RoundVerification, TableEntry, max_safe_picks, multiplier,
        payout_table, verify_round,
    };

    #[pymodule_init]
    fn init(module: &Bound<'_, PyModule>) -> PyResult<()> {
        module.add("__version__", env!("CARGO_PKG_VERSION"))?;
        // For python/fairmines/_reports.py and _history.py only: not in `__all__`.
        module.setattr("_Report", module.py().get_type::<crate::reports::Report>())?;
        module.setattr("_AuditCounts", module.py().get_type::<crate::reports::Audit>())?;
        module.setattr("_verify_history", wrap_pyfunction!(crate::history::verify_history, module)?)?;
        module.setattr("_audit", wrap_pyfunction!(crate::history::audit, module)?)?;
        #[cfg(feature = "testing")]
        module
            .setattr("_batch_blocks_for_testing", wrap_pyfunction!(crate::batch::batch_blocks_for_testing, module)?)?;
        crate::errors::register(module)
    }

    /// The placement of a round, from the four arguments every round function takes.
    fn placement(
        server_seed: &Obj<'_>,
        client_seed: &Obj<'_>,
        nonce: &Obj<'_>,
        mines: &Obj<'_>,
    ) -> PyResult<Placement> {
        let (server_seed, client_seed) =
            (args::text(server_seed, "server_seed")?, args::text(client_seed, "client_seed")?);
        let (nonce, mines) = (args::nonce(nonce)?, args::mines(mines)?);
        Ok(fairmines::placement(&server_seed, &client_seed, nonce, mines))
    }

    /// The commitment shown before play: lowercase hex of SHA3-256 of the server seed's UTF-8 text.
    ///
    /// The seed's text is hashed (for a generated seed, its 64 hex characters), not the bytes it encodes.
    #[pyfunction]
    fn commitment(server_seed: &Obj<'_>) -> PyResult<String> {
        let server_seed = args::text(server_seed, "server_seed")?;
        Ok(fairmines::commitment(&server_seed).to_string())
    }

    /// The round signature: lowercase hex of SHA3-256(``server_seed:client_seed:nonce``).
    ///
    /// ``nonce`` is an integer in 0..2**64; it is written in decimal.
    #[pyfunction]
    fn round_signature(server_seed: &Obj<'_>, client_seed: &Obj<'_>, nonce: &Obj<'_>) -> PyResult<String> {
        let server_seed = args::text(server_seed, "server_seed")?;
        let client_seed = args::text(client_seed, "client_seed")?;
        let nonce = args::nonce(nonce)?;
        Ok(fairmines::round_signature(&server_seed, &client_seed, nonce).to_string())
    }

    /// The mine positions of a round: sorted, 1-based (1 = top-left, 5 = top-right, 25 = bottom-right).
    ///
    /// ``mines`` is 1..24. Raises ``InvalidMinesError``/``InvalidNonceError`` (both ``ValueError``) for
    /// values out of range (a float counts only when it is an integer) and ``TypeError`` for arguments of
    /// the wrong type.
    #[pyfunction]
    fn mine_positions<'py>(
        server_seed: &Obj<'py>,
        client_seed: &Obj<'py>,
        nonce: &Obj<'py>,
        mines: &Obj<'py>,
    ) -> PyResult<Bound<'py, PyList>> {
        PyList::new(nonce.py(), &*placement(server_seed, client_seed, nonce, mines)?.positions())
    }

    /// The tile indices of a round in the order they were drawn: 0-based, unsorted.
    #[pyfunction]
    fn draw_order<'py>(
        server_seed: &Obj<'py>,
        client_seed: &Obj<'py>,
        nonce: &Obj<'py>,
        mines: &Obj<'py>,
    ) -> PyResult<Bound<'py, PyList>> {
        PyList::new(nonce.py(), &*placement(server_seed, client_seed, nonce, mines)?.draw_order())
    }

    /// Recomputes a finished round from its seeds and checks what the operator published.
    ///
    /// ``commitment`` (64 hex characters, either case) and ``positions`` (the declared mine positions,
    /// 1-based, any order) are optional: only what is given is checked. The result's ``verdict``
    /// is ``"ok"`` when at least one check was asked for and every one holds, ``"mismatch"`` when one
    /// fails, ``"unchecked"`` when nothing was given to check; it is true only when ``"ok"``. Its repr
    /// says what differs. An unknown keyword (a misspelt ``commitment``) is a ``TypeError``.
    #[pyfunction]
    #[pyo3(signature = (server_seed, client_seed, nonce, mines, commitment=None, positions=None))]
    fn verify(
        server_seed: &Obj<'_>,
        client_seed: &Obj<'_>,
        nonce: &Obj<'_>,
        mines: &Obj<'_>,
        commitment: Option<&Obj<'_>>,
        positions: Option<&Obj<'_>>,
    ) -> PyResult<Verification> {
        let py = server_seed.py();
        let server_seed = args::text(server_seed, "server_seed")?;
        let client_seed = args::text(client_seed, "client_seed")?;
        let (nonce, mines) = (args::number(nonce, "nonce")?, args::number(mines, "mines")?);
        let commitment = commitment.filter(|c| !c.is_none()).map(|c| args::text(c, "commitment")).transpose()?;
        let positions = positions.filter(|p| !p.is_none()).map(|p| args::tiles(p, "positions")).transpose()?;
        let published = fairmines::Published::parse(
            &server_seed,
            &client_seed,
            nonce,
            mines,
            commitment.as_deref(),
            positions.as_deref(),
        )
        .or_raise(py)?;
        Ok(Verification { inner: fairmines::verify(&published), nonce: published.nonce, mines: published.mines.get() })
    }

    /// A fresh server seed: 32 bytes from the operating system's CSPRNG as 64 lowercase hex characters.
    ///
    /// Publish ``seed.commitment`` before play; ``seed.reveal()`` only once the seed pair is rotated out.
    #[pyfunction]
    fn generate_server_seed(py: Python<'_>) -> PyResult<ServerSeed> {
        fairmines::ServerSeed::generate().map(ServerSeed).or_raise(py)
    }

    /// The sorted 1-based mine positions of many rounds of one seed pair, as a numpy array.
    ///
    /// ``nonces`` is a ``range``, a sequence of ints or a one-dimensional numpy integer array. Returns a
    /// ``uint8`` array of shape ``(len(nonces), mines)``: row ``i`` is ``mine_positions(..., nonces[i],
    /// mines)``. Runs on every core with the GIL released. Needs numpy (``ImportError`` without it). One batch
    /// writes at most 4 GiB (``len(nonces) * mines <= 2**32``); a larger one raises ``InvalidNumberError``
    /// naming ``nonces``: split it.
    #[pyfunction]
    fn mine_positions_batch<'py>(
        server_seed: &Obj<'py>,
        client_seed: &Obj<'py>,
        nonces: &Obj<'py>,
        mines: &Obj<'py>,
    ) -> PyResult<Obj<'py>> {
        let py = server_seed.py();
        let server_seed = args::text(server_seed, "server_seed")?;
        let client_seed = args::text(client_seed, "client_seed")?;
        let mines = args::mines(mines)?;
        batch::require_numpy(py)?;
        batch::run(py, &server_seed, &client_seed, nonces, mines)
    }

    /// The result of ``verify``: everything recomputed from the seeds, and each requested check.
    ///
    /// ``verdict`` is ``"ok"``, ``"mismatch"`` or ``"unchecked"`` (nothing was given to check: the round
    /// was only recomputed). True (``bool(v)``, ``v.ok``) only when ``"ok"``. A check that was not asked
    /// for (no ``positions`` or no ``commitment`` given) is ``None``.
    #[pyclass(module = "fairmines", frozen, eq)]
    #[derive(PartialEq)]
    struct Verification {
        inner: fairmines::Verification,
        /// The round's nonce.
        #[pyo3(get)]
        nonce: u64,
        /// The round's mine count.
        #[pyo3(get)]
        mines: u8,
    }

    #[pymethods]
    impl Verification {
        /// SHA3-256 of the revealed server seed (lowercase hex).
        #[getter]
        fn commitment(&self) -> String {
            self.inner.commitment.to_string()
        }

        /// The recomputed round signature (lowercase hex).
        #[getter]
        fn signature(&self) -> String {
            self.inner.signature.to_string()
        }

        /// The recomputed mine positions: sorted, 1-based.
        #[getter]
        fn positions<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
            PyTuple::new(py, &*self.inner.placement.positions())
        }

        /// The recomputed draw order: 0-based, unsorted.
        #[getter]
        fn draw_order<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
            PyTuple::new(py, &*self.inner.placement.draw_order())
        }

        /// Words read from the SHAKE256 stream: the mine count plus the rejected draws.
        #[getter]
        fn words_used(&self) -> u32 {
            self.inner.placement.words_used()
        }

        /// The commitment that was checked (lowercase hex), or None.
        #[getter]
        fn declared_commitment(&self) -> Option<String> {
            self.inner.commitment_check.map(|check| check.declared.to_string())
        }

        /// The positions that were checked (sorted), or None.
        #[getter]
        fn declared_positions<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyTuple>>> {
            self.inner.positions_check.map(|check| PyTuple::new(py, &*check.declared)).transpose()
        }

        /// Whether the commitment matches the seed; None if no commitment was given.
        #[getter]
        fn commitment_ok(&self) -> Option<bool> {
            self.inner.commitment_ok()
        }

        /// Whether the declared positions are the recomputed ones; None if none were given.
        #[getter]
        fn positions_ok(&self) -> Option<bool> {
            self.inner.positions_ok()
        }

        /// ``"ok"`` (at least one check was asked for, and every one holds), ``"mismatch"`` (one
        /// fails) or ``"unchecked"`` (nothing was given to check).
        #[getter]
        fn verdict(&self) -> &'static str {
            self.inner.verdict().as_str()
        }

        /// True when at least one check was asked for and every one holds (``verdict == "ok"``);
        /// False when nothing was checked.
        #[getter]
        fn ok(&self) -> bool {
            self.inner.is_ok()
        }

        fn __bool__(&self) -> bool {
            self.inner.is_ok()
        }

        fn __repr__(&self) -> String {
            let v = &self.inner;
            let mut checks = Vec::new();
            if let Some(c) = v.commitment_check {
                checks.push(match c.ok() {
                    true => "commitment matches".to_owned(),
                    false => format!("commitment differs (expected {}, declared {})", c.expected, c.declared),
                });
            }
            if let Some(p) = v.positions_check {
                checks.push(match p.ok() {
                    true => "positions match".to_owned(),
                    false => format!("positions differ (expected {:?}, declared {:?})", &*p.expected, &*p.declared),
                });
            }
            let checks = if checks.is_empty() { "nothing declared to check".to_owned() } else { checks.join("; ") };
            let (verdict, positions) = (v.verdict().as_str(), v.placement.positions());
            format!(
                "<Verification {verdict}: {checks}; nonce {}, {} mines at {:?}>",
                self.nonce, self.mines, &*positions
            )
        }
    }

    /// A server seed from ``generate_server_seed()``. Its repr and str show the commitment only.
    ///
    /// ``reveal()`` (or ``.hex``) gives the 64 hex characters; publish them only once the seed pair
    /// has been rotated out. The seed cannot be pickled or copied (that would write it out).
    #[pyclass(module = "fairmines", frozen)]
    pub(crate) struct ServerSeed(fairmines::ServerSeed);

    impl ServerSeed {
        /// The seed's text, for `SeedPair.from_parts`.
        pub(crate) fn reveal_text(&self) -> &str {
            self.0.reveal()
        }
    }

    #[pymethods]
    impl ServerSeed {
        /// The seed's 64 lowercase hex characters: the text players verify rounds with.
        fn reveal(&self) -> &str {
            self.0.reveal()
        }

        /// The seed's 64 lowercase hex characters (same as ``reveal()``).
        #[getter]
        fn hex(&self) -> &str {
            self.0.reveal()
        }

        /// The commitment to publish before play: SHA3-256 of the seed's text (lowercase hex).
        #[getter]
        fn commitment(&self) -> String {
            self.0.commitment().to_string()
        }

        fn __repr__(&self) -> String {
            format!("ServerSeed(commitment='{}', seed=<hidden>)", self.0.commitment())
        }

        fn __reduce__(&self) -> PyResult<()> {
            Err(PyTypeError::new_err(
                "ServerSeed cannot be pickled or copied: that would write out the secret seed; use reveal()",
            ))
        }
    }
}
