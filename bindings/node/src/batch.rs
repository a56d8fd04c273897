//! Batches: the nonces as a range or a typed array read in place where the work runs (an array is first
//! made a typed array by a JavaScript helper), an optional thread cap, and an `AbortSignal` for the async
//! form. The core's batch does the work, with the cap and a stop flag the signal sets.

use std::cell::Cell;
use std::num::NonZeroUsize;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use fairmines::{BatchOptions, MineCount, Nonces, Number};
use napi::bindgen_prelude::{
    Array, AsyncTask, BigUint64Array, Either, Either3, Either5, Env, Float64Array, FnArgs, JsObjectValue, JsValue,
    Null, Object, Result, Task, ToNapiValue, Uint8Array, Uint32Array, Unknown,
};
use napi_derive::napi;

use crate::{
    Converted, Failure, NUMBER, NumberArg, ObjectArg, StringArg, Throw, contain, guard, helpers, internal, known_keys,
    member, number, number_in, object, optional, out_of_memory, text, type_name,
};

/// The nonces of a batch: a range, a typed array, an array, or anything else (a `TypeError`).
type NoncesArg<'env> = Either5<BigUint64Array, Uint32Array, Array<'env>, Object<'env>, Unknown<'env>>;

const EXPECTED: &str = "a { start, count } range, a BigUint64Array, a Uint32Array or an array of numbers and bigints";

/// The nonces as the work reads them: typed arrays in place, `number`s judged by the core where it runs.
enum Source {
    Range(u64, usize),
    Big(BigUint64Array),
    Small(Uint32Array),
    Floats(Float64Array),
    Judged(Vec<u64>),
}

/// The input of a batch, converted (the numbers of `Source::Floats` are judged when it runs).
pub struct Batch {
    server: String,
    client: String,
    nonces: Source,
    mines: MineCount,
    threads: Option<NonZeroUsize>,
}

/// The core's rule for a nonce, on a part of the `nonces` argument (`nonces.start`, `nonces[3]`).
fn nonce_at(value: Option<NumberArg>, label: impl Fn() -> String) -> Converted<u64> {
    let judged = fairmines::input::nonce(number_in(value, "nonces", &label)?);
    judged.map_err(|e| Failure::at(e, "nonces", &label()))
}

fn source(env: &Env, value: NoncesArg) -> Converted<Source> {
    match value {
        Either5::A(big) => Ok(Source::Big(big)),
        Either5::B(small) => Ok(Source::Small(small)),
        Either5::C(array) => {
            let made = helpers(env).and_then(|h| h.numbers.borrow_back(env)?.call(array.raw()));
            match made.map_err(internal("nonces"))? {
                Either3::A(floats) => Ok(Source::Floats(floats)),
                Either3::B(big) => Ok(Source::Big(big)),
                // Not all numbers or all bigints in 0..2^64: read element by element (`nonces[i]` names a bad one).
                Either3::C(Null) => (0..array.len())
                    .map(|i| nonce_at(array.get(i).map_err(internal("nonces"))?, || format!("nonces[{i}]")))
                    .collect::<Converted<_>>()
                    .map(Source::Judged),
            }
        }
        Either5::D(range) if !range.is_typedarray().unwrap_or(true) => {
            known_keys(&range, "nonces", "a nonce range", &["start", "count"])?;
            let start = nonce_at(Some(member(&range, "nonces", "start", NUMBER)?), || "nonces.start".into())?;
            let count = nonce_at(Some(member(&range, "nonces", "count", NUMBER)?), || "nonces.count".into())?;
            fairmines::input::nonce_range(start, count).map_err(|e| Failure::at(e, "nonces", "nonces"))?;
            Ok(Source::Range(start, usize::try_from(count).map_err(|_| out_of_memory())?))
        }
        Either5::D(_) => Err(Failure::wrong_type("nonces", "nonces", EXPECTED, "a typed array of another type")),
        Either5::E(other) => Err(Failure::wrong_type("nonces", "nonces", EXPECTED, &type_name(&other))),
    }
}

/// The arguments of a batch, and the `signal` of the async form's options.
fn batch<'env>(
    env: &Env,
    (server, client, nonces, mines): (StringArg, StringArg, NoncesArg, NumberArg),
    options: Option<ObjectArg<'env>>,
    abortable: bool,
) -> Converted<(Batch, Option<Object<'env>>)> {
    let (server, client, nonces, mines) =
        (text(server, "serverSeed")?, text(client, "clientSeed")?, source(env, nonces)?, crate::mines(mines)?);
    let Some(options) = options.map(|o| object(o, "options")).transpose()? else {
        return Ok((Batch { server, client, nonces, mines, threads: None }, None));
    };
    let keys: &[&str] = if abortable { &["threads", "signal"] } else { &["threads"] };
    known_keys(&options, "options", "an options object", keys)?;
    let threads = optional::<NumberArg>(&options, "threads")?.map(|n| number(n, "options", "options.threads"));
    let judge = |n| fairmines::input::threads(n, "threads").map_err(|e| Failure::at(e, "options", "options.threads"));
    let threads = threads.transpose()?.map(judge).transpose()?;
    let signal = match abortable.then(|| optional::<ObjectArg>(&options, "signal")).transpose()?.flatten() {
        None => None,
        Some(Either::A(signal)) if signal.has_named_property("aborted").unwrap_or(false) => Some(signal),
        Some(other) => {
            let got = type_name(&other.as_unknown());
            return Err(Failure::wrong_type("options", "options.signal", "an AbortSignal", &got));
        }
    };
    Ok((Batch { server, client, nonces, mines, threads }, signal))
}

impl Batch {
    /// Runs the batch on this thread (from it on at most `threads`, else every core). Once `stop` is set,
    /// the rows are left unfinished: the Promise of the batch has rejected already.
    fn run(&self, stop: &AtomicBool) -> Converted<Vec<u8>> {
        let judge = |(i, n)| fairmines::input::nonce(n).map_err(|e| Failure::at(e, "nonces", &format!("nonces[{i}]")));
        let owned: Vec<u64> = match &self.nonces {
            Source::Small(list) => {
                list.iter().map(|&n| Number::from(n)).enumerate().map(judge).collect::<Converted<_>>()?
            }
            Source::Floats(list) => {
                list.iter().map(|&x| Number::Float(x)).enumerate().map(judge).collect::<Converted<_>>()?
            }
            _ => Vec::new(),
        };
        let nonces = match &self.nonces {
            Source::Range(start, count) => Nonces::Range { start: *start, count: *count },
            Source::Big(list) => Nonces::List(list),
            Source::Judged(list) => Nonces::List(list),
            Source::Small(_) | Source::Floats(_) => Nonces::List(&owned),
        };
        let mut out = Vec::new();
        let size = fairmines::input::batch_bytes(nonces.len() as u128, self.mines).map_err(Failure::core)?;
        out.try_reserve_exact(size).map_err(|_| out_of_memory())?;
        out.resize(size, 0);
        let options = BatchOptions { threads: self.threads, stop: Some(stop) };
        fairmines::mine_positions_batch_with(&self.server, &self.client, nonces, self.mines, &mut out, options)
            .map_err(Failure::core)?;
        Ok(out)
    }
}

/// The mine positions of many rounds of one seed pair, on every core (blocking the event loop; see
/// {@link minePositionsBatchAsync}): `count × mines` bytes, row `i` the sorted 1-based positions of the
/// round with the `i`-th nonce.
/// @param nonces - `{ start, count }`, a `BigUint64Array` or `Uint32Array`, or an array of numbers or bigints
/// @param options - `threads`: the most threads to run on (`1`: this one only); default every core
/// @throws {TypeError} an argument has the wrong type
/// @throws {RangeError} a nonce or `mines` is out of range (`argument: 'nonces'` names the array,
/// the message names the element or field: `nonces[3]: …`, `nonces.count: …`), or the batch would write
/// more than 4 GiB (`count × mines > 2^32`, `FAIRMINES_INVALID_NUMBER`: split it)
#[napi(
    catch_unwind,
    ts_args_type = "serverSeed: string, clientSeed: string, nonces: Nonces, mines: number | bigint, options?: BatchOptions | null",
    ts_return_type = "Uint8Array"
)]
pub fn mine_positions_batch(
    env: Env,
    server_seed: StringArg,
    client_seed: StringArg,
    nonces: NoncesArg,
    mines: NumberArg,
    options: Option<ObjectArg>,
) -> Result<Uint8Array> {
    let args = (server_seed, client_seed, nonces, mines);
    let rows = guard(&env, || batch(&env, args, options, false)?.0.run(&AtomicBool::new(false)))?;
    Ok(Uint8Array::new(rows))
}

/// The work of {@link minePositionsBatchAsync}: its input (or why it was refused), then (if it fails) the
/// failure to reject with; `stop` is set when its signal aborts.
pub struct BatchTask {
    input: Option<Converted<Batch>>,
    stop: Arc<AtomicBool>,
}

impl Task for BatchTask {
    type Output = Vec<u8>;
    type JsValue = Uint8Array;

    fn compute(&mut self) -> Result<Vec<u8>> {
        let Some(Ok(batch)) = &self.input else {
            return Err(napi::Error::from_reason("refused"));
        };
        contain(|| batch.run(&self.stop)).map_err(|failure| {
            self.input = Some(Err(failure));
            napi::Error::from_reason("failed")
        })
    }

    fn resolve(&mut self, _env: Env, rows: Vec<u8>) -> Result<Uint8Array> {
        Ok(Uint8Array::new(rows))
    }

    fn reject(&mut self, env: Env, error: napi::Error) -> Result<Uint8Array> {
        match self.input.take() {
            Some(Err(failure)) => Err(failure.into_napi(&env)),
            _ => Err(error),
        }
    }
}

/// {@link minePositionsBatch} as a Promise, computed from a libuv pool thread (which it holds until it
/// settles) while the event loop runs on. A typed array is read in place: do not write to it until the
/// Promise settles. Bad arguments reject the Promise with the errors of the sync form (never a throw).
/// @param options - `threads` as for {@link minePositionsBatch}; `signal`: aborting it rejects the Promise
/// at once with an `AbortError` (`code: 'ABORT_ERR'`, `cause: signal.reason`) and stops the work
#[napi(
    catch_unwind,
    ts_args_type = "serverSeed: string, clientSeed: string, nonces: Nonces, mines: number | bigint, options?: BatchAsyncOptions | null",
    ts_return_type = "Promise<Uint8Array>"
)]
pub fn mine_positions_batch_async<'env>(
    env: &'env Env,
    server_seed: StringArg,
    client_seed: StringArg,
    nonces: NoncesArg,
    mines: NumberArg,
    options: Option<ObjectArg<'env>>,
) -> Result<Unknown<'env>> {
    let args = (server_seed, client_seed, nonces, mines);
    let (input, signal) =
        contain(|| batch(env, args, options, true)).map_or_else(|f| (Err(f), None), |(b, s)| (Ok(b), s));
    let stop = Arc::new(AtomicBool::new(false));
    let task = BatchTask { input: Some(input), stop: Arc::clone(&stop) };
    let Some(signal) = signal else { return AsyncTask::new(task).into_unknown(env) };
    let abort = env.create_function_from_closure::<(), (), _>("abort", move |_| {
        stop.store(true, Relaxed);
        Ok(())
    })?;
    let task = Cell::new(Some(task));
    let start = env.create_function_from_closure::<(), _, _>("start", move |_| {
        task.take().map(AsyncTask::new).ok_or_else(|| napi::Error::from_reason("fairmines: the batch started twice"))
    })?;
    helpers(env)?.abortable.borrow_back(env)?.call(FnArgs::from((signal.raw(), abort.raw(), start.raw())))
}
