//! The bounded pipeline that hands chunks to every core and gives the results back in input order.

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, mpsc};
use std::thread;

use crate::chunk::Chunk;
use crate::error::HistoryError;

/// The worker threads to use: `requested`, or every core when it is 0.
pub(crate) fn thread_count(requested: usize) -> usize {
    if requested > 0 { requested } else { thread::available_parallelism().map_or(1, NonZeroUsize::get) }
}

/// The bounded pipeline: `produce` (on its own thread) reads chunks; `threads - 1` workers, and the reader
/// whenever they are all busy, turn each into a `T` with their own state `S`; `collect` (on the calling thread)
/// receives the results in input order. With one thread, all three run one after another on the calling thread
/// (one core's work, no hand-over).
///
/// At most `2 × threads` chunks wait for a worker and at most `2 × threads` results wait for `collect`, so
/// memory is bounded by about `4 × threads + threads` chunks whatever the input's length.
///
/// When `collect` returns `Break`, the run stops: the reader is refused its next chunk, the workers drop the
/// chunks still queued without working on them, and the pipeline ends with [`HistoryError::Stopped`].
pub(crate) fn pipeline<S, T>(
    threads: usize,
    produce: impl FnOnce(&mut dyn FnMut(Chunk) -> bool) -> Result<(), HistoryError> + Send,
    make_state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, Chunk) -> T + Sync,
    mut collect: impl FnMut(T) -> ControlFlow<()>,
) -> Result<(), HistoryError>
where
    T: Send,
{
    if threads <= 1 {
        // One thread does everything, on the calling thread: reading, checking and counting.
        let mut state = make_state();
        let mut stopped = false;
        let read = produce(&mut |chunk| {
            stopped = collect(work(&mut state, chunk)).is_break();
            !stopped
        });
        return if stopped { Err(HistoryError::Stopped) } else { read };
    }
    let (chunk_tx, chunk_rx) = mpsc::sync_channel::<(u64, Chunk)>(2 * threads);
    let chunk_rx = Mutex::new(chunk_rx);
    let (result_tx, result_rx) = mpsc::sync_channel::<(u64, T)>(2 * threads);
    let stopped = AtomicBool::new(false);
    let read = thread::scope(|scope| {
        let stopped = &stopped;
        let (make_state, work) = (&make_state, &work);
        // The reader is one of the `threads`: when every worker is busy and the queue is full, it works on the
        // chunk it has just read instead of waiting, so `threads` threads share all the work.
        let reader_results = result_tx.clone();
        let producer = scope.spawn(move || {
            let mut index = 0u64;
            let mut state = None;
            produce(&mut |chunk| {
                if stopped.load(Ordering::Relaxed) {
                    return false;
                }
                let sent = match chunk_tx.try_send((index, chunk)) {
                    Ok(()) => true,
                    Err(mpsc::TrySendError::Full((index, chunk))) => {
                        let state = state.get_or_insert_with(make_state);
                        reader_results.send((index, work(state, chunk))).is_ok()
                    }
                    Err(mpsc::TrySendError::Disconnected(_)) => false,
                };
                index += 1;
                sent
            })
        });
        for _ in 1..threads {
            let (chunk_rx, result_tx) = (&chunk_rx, result_tx.clone());
            scope.spawn(move || {
                let mut state = make_state();
                loop {
                    // The lock is held only while waiting for the next chunk.
                    let next = chunk_rx.lock().map(|rx| rx.recv());
                    let Ok(Ok((index, chunk))) = next else { break };
                    // Once stopped, queued chunks are dropped (not worked on) until the reader has stopped.
                    if stopped.load(Ordering::Relaxed) {
                        continue;
                    }
                    if result_tx.send((index, work(&mut state, chunk))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(result_tx);
        let mut waiting = BTreeMap::new();
        let mut next = 0u64;
        // Every result is received, even after a stop, so that no worker waits on a full channel.
        for (index, result) in result_rx {
            if stopped.load(Ordering::Relaxed) {
                continue;
            }
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&next) {
                next += 1;
                if collect(result).is_break() {
                    stopped.store(true, Ordering::Relaxed);
                    waiting.clear();
                    break;
                }
            }
        }
        producer.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    if stopped.into_inner() { Err(HistoryError::Stopped) } else { read }
}
