//! Many rounds of one seed pair at once: the shared signature prefix is hashed once, and the work is
//! spread over the machine's cores.

use core::fmt;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};
use std::thread;

use crate::hashing::{Sha3, Sha3x4, decimal};
use crate::placement::place_from_stream;
use crate::{Digest, Error, MineCount, Placement, WordStream};

/// Computes round signatures of one seed pair, hashing `server_seed:client_seed:` only once.
///
/// ```
/// let rounds = fairmines::RoundHasher::new("server", "client");
/// assert_eq!(rounds.signature(7), fairmines::round_signature("server", "client", 7));
/// ```
#[derive(Clone)]
pub struct RoundHasher {
    prefix: Sha3,
}

impl RoundHasher {
    /// Absorbs `server_seed + ":" + client_seed + ":"`.
    pub fn new(server_seed: &str, client_seed: &str) -> Self {
        let mut prefix = Sha3::new();
        prefix.update_signature_prefix(server_seed, client_seed);
        RoundHasher { prefix }
    }

    /// The round signature for `nonce`.
    pub fn signature(&self, nonce: u64) -> Digest {
        let mut digits = [0u8; 20];
        let mut hasher = self.prefix.clone();
        hasher.update(decimal(nonce, &mut digits));
        hasher.finish()
    }

    /// The placement of the round with `nonce`.
    pub fn placement(&self, nonce: u64, mines: MineCount) -> Placement {
        WordStream::after_prefix(&self.prefix, nonce, |words| place_from_stream(words, mines))
    }

    /// The placements of four rounds (nonce and mine count each), their permutations run side by side
    /// (four lanes of AVX2 registers where the machine has them, see `fairmines_keccak`); the same as four
    /// calls of [`RoundHasher::placement`].
    pub fn placements_x4(&self, nonces: [u64; 4], mines: [MineCount; 4]) -> [Placement; 4] {
        let mut buffers = [[0u8; 20]; 4];
        let mut digits = [&[][..]; 4];
        for ((digits, buffer), nonce) in digits.iter_mut().zip(&mut buffers).zip(nonces) {
            *digits = decimal(nonce, buffer);
        }
        // In step only if the four inputs have the same length; otherwise one at a time.
        if digits.iter().any(|d| d.len() != digits[0].len()) {
            return core::array::from_fn(|i| self.placement(nonces[i], mines[i]));
        }
        let mut hashers = Sha3x4::from_one(&self.prefix);
        hashers.update(digits);
        let signatures = hashers.finish();
        let mut streams = WordStream::new_x4(&signatures);
        core::array::from_fn(|i| place_from_stream(&mut streams[i], mines[i]))
    }
}

impl fmt::Debug for RoundHasher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The state holds the server seed: show nothing of it.
        f.write_str("RoundHasher { .. }")
    }
}

/// Fewest rounds worth a thread of their own (a thread costs tens of microseconds to start).
const MIN_ROUNDS_PER_THREAD: usize = 2048;
/// Rounds per chunk of the batch's work queue: about a millisecond of work, so taking a chunk (one
/// uncontended lock) costs nothing in comparison.
const CHUNK_ROUNDS: usize = 1024;

/// The nonces of a batch.
#[derive(Clone, Copy, Debug)]
pub enum Nonces<'a> {
    /// `count` consecutive nonces from `start`.
    Range {
        /// The first nonce.
        start: u64,
        /// How many.
        count: usize,
    },
    /// Any list of nonces.
    List(&'a [u64]),
}

impl Nonces<'_> {
    /// How many rounds the batch has.
    pub fn len(&self) -> usize {
        match self {
            Nonces::Range { count, .. } => *count,
            Nonces::List(list) => list.len(),
        }
    }

    /// Whether the batch is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn get(&self, i: usize) -> u64 {
        match self {
            Nonces::Range { start, .. } => start + i as u64,
            Nonces::List(list) => list[i],
        }
    }
}

/// Writes the sorted 1-based mine positions of every round in `nonces` into `out`, row after row
/// (`nonces.len() × mines` bytes, at most [`crate::input::MAX_BATCH_BYTES`]), using every core. `out` must have
/// at least that length; the bytes after them are left as they are.
///
/// ```
/// use fairmines::{mine_positions_batch, MineCount, Nonces};
/// let mut out = [0u8; 3 * 2];
/// mine_positions_batch("server", "client", Nonces::Range { start: 0, count: 2 }, MineCount::new(3)?, &mut out)?;
/// assert_eq!(&out[3..], &*fairmines::mine_positions("server", "client", 1, 3)?);
/// # Ok::<(), fairmines::Error>(())
/// ```
pub fn mine_positions_batch(
    server_seed: &str,
    client_seed: &str,
    nonces: Nonces<'_>,
    mines: MineCount,
    out: &mut [u8],
) -> Result<(), Error> {
    mine_positions_batch_with(server_seed, client_seed, nonces, mines, out, BatchOptions::default()).map(drop)
}

/// How [`mine_positions_batch_with`] runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct BatchOptions<'a> {
    /// The most threads to run on, the calling one included (judged by [`crate::input::threads`]);
    /// `None`: one per core.
    pub threads: Option<NonZeroUsize>,
    /// Once set (by another thread: a signal, a cancelled request), the batch stops at its next chunk of
    /// about a millisecond of work and returns [`BatchEnd::Stopped`].
    pub stop: Option<&'a AtomicBool>,
}

/// How a batch ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BatchEnd {
    /// Every row is written.
    Complete,
    /// Its `stop` flag was set: some rows are not written.
    Stopped,
}

/// [`mine_positions_batch`] on at most `options.threads` threads, stopping once `options.stop` is set.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use fairmines::{BatchEnd, BatchOptions, MineCount, Nonces, mine_positions_batch_with};
/// let (mut out, stop) = ([0u8; 3 * 5000], AtomicBool::new(true));
/// let nonces = Nonces::Range { start: 0, count: 5000 };
/// let options = BatchOptions { threads: None, stop: Some(&stop) };
/// let end = mine_positions_batch_with("server", "client", nonces, MineCount::new(3)?, &mut out, options)?;
/// assert_eq!(end, BatchEnd::Stopped);
/// # Ok::<(), fairmines::Error>(())
/// ```
pub fn mine_positions_batch_with(
    server_seed: &str,
    client_seed: &str,
    nonces: Nonces<'_>,
    mines: MineCount,
    out: &mut [u8],
    options: BatchOptions<'_>,
) -> Result<BatchEnd, Error> {
    let row = usize::from(mines.get());
    let needed = crate::input::batch_bytes(nonces.len() as u128, mines)?;
    if out.len() < needed {
        return Err(Error::BufferTooSmall { needed, got: out.len() });
    }
    let out = &mut out[..needed];
    if let Nonces::Range { start, count } = nonces {
        crate::input::nonce_range(start, count as u64)?;
    }
    let stopped = || options.stop.is_some_and(|stop| stop.load(Ordering::Relaxed));
    if stopped() {
        return Ok(BatchEnd::Stopped);
    }
    if out.is_empty() {
        return Ok(BatchEnd::Complete);
    }
    let rounds = RoundHasher::new(server_seed, client_seed);
    let fill = |first: usize, chunk: &mut [u8]| {
        let rounds_in_chunk = chunk.len() / row;
        let mut quads = chunk.chunks_exact_mut(4 * row);
        for (q, dest) in (&mut quads).enumerate() {
            let at = first + 4 * q;
            let placements = rounds.placements_x4([0, 1, 2, 3].map(|i| nonces.get(at + i)), [mines; 4]);
            for (dest, placement) in dest.chunks_exact_mut(row).zip(placements) {
                dest.copy_from_slice(&placement.positions());
            }
        }
        let rest = quads.into_remainder();
        let done = first + rounds_in_chunk - rest.len() / row;
        for (i, dest) in rest.chunks_exact_mut(row).enumerate() {
            dest.copy_from_slice(&rounds.placement(nonces.get(done + i), mines).positions());
        }
    };
    // Below a few thousand rounds per thread, starting a thread costs more than it saves.
    let cores = thread::available_parallelism().map_or(1, NonZeroUsize::get);
    let threads = options.threads.map_or(cores, NonZeroUsize::get).min(cores);
    let threads = threads.min(nonces.len() / MIN_ROUNDS_PER_THREAD).max(1);
    if threads == 1 && options.stop.is_none() {
        fill(0, out);
        return Ok(BatchEnd::Complete);
    }
    // The threads take small chunks from one queue instead of one fixed share each: when other
    // processes take CPU time from one core (a shared machine), that thread simply takes fewer chunks,
    // and at the end no core waits for another's share for longer than one chunk (about a millisecond).
    let queue = Mutex::new(out.chunks_mut(CHUNK_ROUNDS * row).enumerate());
    // The lock is held only while taking the next chunk, never while filling it.
    let take = || queue.lock().unwrap_or_else(PoisonError::into_inner).next();
    let work = || {
        while !stopped()
            && let Some((k, chunk)) = take()
        {
            fill(k * CHUNK_ROUNDS, chunk);
        }
    };
    thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(work);
        }
        // The calling thread is one of the workers.
        work();
    });
    // Stopped only if a chunk was left unwritten (a stop after the last chunk changes nothing).
    Ok(if take().is_some() { BatchEnd::Stopped } else { BatchEnd::Complete })
}
