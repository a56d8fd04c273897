//! `mine_positions_batch`: many rounds of one seed pair into a numpy array, without the GIL.

use fairmines::{MineCount, Nonces, Number};
use numpy::{PyArray1, PyArrayDescrMethods, PyArrayMethods, PyReadonlyArray1, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyMemoryError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyRange;

use crate::Obj;
use crate::args;
use crate::errors::{OrRaise, to_py_as, wrong_type};

const EXPECTED: &str = "a range, a sequence of int or a numpy integer array";

/// The nonces of a batch, owned: a range stays a range, everything else is copied into a list.
enum Owned {
    Range { start: u64, count: usize },
    List(Vec<u64>),
}

impl Owned {
    fn len(&self) -> usize {
        match self {
            Owned::Range { count, .. } => *count,
            Owned::List(list) => list.len(),
        }
    }

    /// The `count` nonces from index `from`.
    fn part(&self, from: usize, count: usize) -> Nonces<'_> {
        match self {
            Owned::Range { start, .. } => Nonces::Range { start: start + from as u64, count },
            Owned::List(list) => Nonces::List(&list[from..from + count]),
        }
    }
}

/// Rounds per block: Ctrl-C is looked for between blocks (about 20 ms apart on 2 cores).
const BLOCK: usize = 1 << 16;

/// Test builds only (cargo feature `testing`): the blocks that the batches of this process have finished, so
/// that a test can see a batch's progress from another thread while it runs, and where Ctrl-C stopped it.
#[cfg(feature = "testing")]
static BLOCKS_DONE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Test builds only (cargo feature ``testing``): the blocks of 65,536 rounds that the batches of this process
/// have finished.
#[cfg(feature = "testing")]
#[pyfunction]
pub(crate) fn batch_blocks_for_testing() -> u64 {
    BLOCKS_DONE.load(std::sync::atomic::Ordering::Relaxed)
}

fn too_big(count: impl std::fmt::Display, mines: u8) -> PyErr {
    PyMemoryError::new_err(format!(
        "nonces: {count} rounds of {mines} mines do not fit in memory as one array; split the batch"
    ))
}

/// An empty list with room for `count` nonces; running out of memory is a `MemoryError`, not an abort.
fn room_for(count: usize, mines: u8) -> PyResult<Vec<u64>> {
    let mut list = Vec::new();
    list.try_reserve_exact(count).map_err(|_| too_big(count, mines))?;
    Ok(list)
}

/// numpy is only needed here: import it now, with a clear message when it is missing. Its C API is fetched
/// now too (the first time, that runs Python code): later, a Ctrl-C pending there would be a panic.
pub(crate) fn require_numpy(py: Python<'_>) -> PyResult<()> {
    const MISSING: &str = "fairmines.mine_positions_batch needs numpy, which could not be imported \
                           (pip install numpy); every other function works without it";
    args::import(py, "numpy", MISSING)?;
    py.check_signals()?;
    numpy::dtype::<u8>(py);
    Ok(())
}

fn from_range(range: &Bound<'_, PyRange>, mines: MineCount) -> PyResult<Option<Owned>> {
    let Some((start, count)) = args::unit_range(range, true)? else { return Ok(None) };
    fairmines::input::batch_bytes(count, mines).or_raise(range.py())?;
    let count = usize::try_from(count).map_err(|_| too_big(count, mines.get()))?;
    Ok(Some(Owned::Range { start, count }))
}

fn from_ndarray(array: &Bound<'_, PyUntypedArray>, mines: u8) -> PyResult<Option<Owned>> {
    if array.ndim() != 1 {
        return Err(PyValueError::new_err(format!(
            "nonces: must be a one-dimensional array, got {} dimensions",
            array.ndim()
        )));
    }
    let kind = array.dtype().kind();
    let list = match kind {
        b'u' => {
            let view = native_or_converted::<u64>(array, "uint64")?;
            let view = view.as_array();
            let mut list = room_for(view.len(), mines)?;
            // One copy, made while holding the GIL: the batch then runs on a snapshot that no Python
            // thread can change while the GIL is released.
            match view.as_slice() {
                Some(contiguous) => list.extend_from_slice(contiguous),
                None => list.extend(view.iter().copied()),
            }
            list
        }
        b'i' => {
            let view = native_or_converted::<i64>(array, "int64")?;
            let view = view.as_array();
            let mut list = room_for(view.len(), mines)?;
            for (index, &value) in view.iter().enumerate() {
                // A negative nonce goes to the core, whose error it is.
                let value = u64::try_from(value).or_else(|_| {
                    fairmines::input::nonce(Number::from(value))
                        .map_err(|err| to_py_as(array.py(), &err, format_args!("nonces[{index}]")))
                })?;
                list.push(value);
            }
            list
        }
        // Python ints in an object array: read one by one like any sequence.
        b'O' => return Ok(None),
        _ => {
            let dtype = array.dtype().str().map_or_else(|_| "?".to_owned(), |s| s.to_string());
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "nonces: must be an array of integers, not of dtype {dtype}"
            )));
        }
    };
    Ok(Some(Owned::List(list)))
}

/// The array itself when its dtype is already `T` (no copy), else a converted copy (`astype`).
fn native_or_converted<'py, T: numpy::Element>(
    array: &Bound<'py, PyUntypedArray>,
    dtype: &str,
) -> PyResult<PyReadonlyArray1<'py, T>> {
    match array.extract::<PyReadonlyArray1<'py, T>>() {
        Ok(view) => Ok(view),
        Err(_) => array.call_method1("astype", (dtype,))?.extract(),
    }
}

fn from_iterable(obj: &Obj<'_>, mines: u8) -> PyResult<Owned> {
    args::reject_text(obj, "nonces", EXPECTED)?;
    let items = obj.try_iter().map_err(|_| wrong_type("nonces", EXPECTED, obj))?;
    let mut list = room_for(obj.len().unwrap_or(0), mines)?;
    for (index, item) in items.enumerate() {
        if list.len() == list.capacity() {
            list.try_reserve(list.len().max(64)).map_err(|_| too_big(list.len(), mines))?;
        }
        list.push(args::nonce_as(&item?, format_args!("nonces[{index}]"))?);
    }
    Ok(Owned::List(list))
}

fn owned_nonces(obj: &Obj<'_>, mines: MineCount) -> PyResult<Owned> {
    let fast = if let Ok(range) = obj.cast::<PyRange>() {
        from_range(range, mines)?
    } else if let Ok(array) = obj.cast::<PyUntypedArray>() {
        from_ndarray(array, mines.get())?
    } else {
        None
    };
    // Stepped ranges, object arrays and every other iterable: item by item.
    fast.map_or_else(|| from_iterable(obj, mines.get()), Ok)
}

/// The whole of `mine_positions_batch` after argument parsing.
pub(crate) fn run<'py>(
    py: Python<'py>,
    server_seed: &str,
    client_seed: &str,
    nonces: &Obj<'py>,
    mines: MineCount,
) -> PyResult<Obj<'py>> {
    let row = usize::from(mines.get());
    let owned = owned_nonces(nonces, mines)?;
    let rounds = owned.len();
    let size = fairmines::input::batch_bytes(rounds as u128, mines).or_raise(py)?;
    let mut out: Vec<u8> = Vec::new();
    out.try_reserve_exact(size).map_err(|_| too_big(rounds, mines.get()))?;
    // The hashing runs on every core with the GIL released, block by block (each zeroed just before), with
    // Ctrl-C looked for in between.
    for start in (0..rounds).step_by(BLOCK) {
        let (nonces, count) = (owned.part(start, BLOCK.min(rounds - start)), BLOCK.min(rounds - start));
        out.resize((start + count) * row, 0);
        let block = &mut out[start * row..];
        py.detach(|| fairmines::mine_positions_batch(server_seed, client_seed, nonces, mines, block)).or_raise(py)?;
        #[cfg(feature = "testing")]
        BLOCKS_DONE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        py.check_signals()?;
    }
    let flat = PyArray1::from_vec(py, out);
    Ok(flat.reshape([rounds, row])?.into_any())
}
