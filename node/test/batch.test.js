'use strict';
// Batches: every form of the nonces (a range, typed arrays read in place, arrays made typed arrays when the
// call is made) gives the same rows, sync and async, under any thread cap; the async form runs off the
// event loop, copies nothing large on it, holds to its thread cap, and stops when its AbortSignal aborts.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const { getEventListeners } = require('node:events');
const fm = require('fairmines');
const { checkError, expectError } = require('./helpers');

const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
const T = TypeError;
const TYPE = 'ERR_INVALID_ARG_TYPE';

/** Resolves after the event loop has gone round once (timers, I/O, then this): every microtask queued
 *  before has run. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** 'pending', 'resolved' or 'rejected': what `promise` has done by now (its handlers run in a microtask). */
function stateOf(promise) {
  const state = { now: 'pending' };
  promise.then(() => { state.now = 'resolved'; }, () => { state.now = 'rejected'; });
  return state;
}

/** The threads of this process (Linux). */
const threadCount = () => Number(/^Threads:\s+(\d+)$/m.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]);

/** The thread count once it has held still for 10 polls in a row: a batch's helper threads are done when
 *  it settles, but the kernel may list one for a moment after that. */
async function settledThreadCount() {
  let count = threadCount();
  for (let still = 0; still < 10;) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    const now = threadCount();
    still = now === count ? still + 1 : 0;
    count = now;
  }
  return count;
}

/** The rows single calls give for `nonces`. */
const expected = (nonces, mines) => Uint8Array.from([...nonces].flatMap((n) => fm.minePositions(S, C, n, mines)));

test('the event loop runs on while an async batch is in flight', async () => {
  // One thread, 50 million rounds: seconds of work on any machine. While it is pending, 20 timers
  // fire one after another (a batch run on the loop's thread would hold them all until it ended).
  const controller = new AbortController();
  const job = fm.minePositionsBatchAsync(S, C, { start: 0, count: 50_000_000 }, 1, { threads: 1, signal: controller.signal });
  const state = stateOf(job);
  for (let fired = 0; fired < 20; fired++) await new Promise((resolve) => setTimeout(resolve, 1));
  assert.equal(state.now, 'pending');
  controller.abort();
  await assert.rejects(job, { name: 'AbortError' });
  // The same rows as the sync form, which runs on the calling thread.
  const nonces = { start: 0, count: 200_000 };
  assert.deepEqual(await fm.minePositionsBatchAsync(S, C, nonces, 24), fm.minePositionsBatch(S, C, nonces, 24));
});

test('every form of the nonces gives the rows of single calls, sync and async, under every thread cap', async () => {
  // Many chunks (of 1,024 rounds), the last one short.
  const count = 70_001;
  const numbers = Array.from({ length: count }, (_, i) => i);
  const forms = {
    range: { start: 0, count },
    'bigint range': { start: 0n, count: BigInt(count) },
    BigUint64Array: BigUint64Array.from(numbers, BigInt),
    Uint32Array: Uint32Array.from(numbers),
    'number[]': numbers,
    'bigint[]': numbers.map(BigInt),
    'mixed array': numbers.map((n) => (n % 2 ? BigInt(n) : n)),
  };
  const want = fm.minePositionsBatch(S, C, { start: 0, count }, 3);
  for (let i = 0; i < count; i += 4999) assert.deepEqual([...want.subarray(3 * i, 3 * i + 3)], fm.minePositions(S, C, i, 3));
  for (const [form, nonces] of Object.entries(forms)) {
    for (const options of [undefined, null, {}, { threads: 1 }, { threads: 2 }, { threads: 3n }, { threads: 1000 }]) {
      const at = `${form} with ${JSON.stringify(options, (_, v) => (typeof v === 'bigint' ? `${v}n` : v))}`;
      assert.deepEqual(fm.minePositionsBatch(S, C, nonces, 3, options), want, `sync: ${at}`);
      assert.deepEqual(await fm.minePositionsBatchAsync(S, C, nonces, 3, options), want, `async: ${at}`);
    }
  }
  // The edges of a range: empty, and ending at the last nonce.
  assert.deepEqual(fm.minePositionsBatch(S, C, { start: 5, count: 0 }, 3), new Uint8Array(0));
  const last = [2n ** 64n - 3n, 2n ** 64n - 2n, 2n ** 64n - 1n];
  assert.deepEqual(fm.minePositionsBatch(S, C, { start: last[0], count: 3 }, 24), expected(last, 24));
  assert.deepEqual(await fm.minePositionsBatchAsync(S, C, { start: last[0], count: 3n }, 24, { threads: 1 }), expected(last, 24));
});

test('a range is judged by the core\'s nonce rule: start, count, and its last nonce', () => {
  const R = RangeError;
  const NONCE = 'FAIRMINES_INVALID_NONCE';
  expectError(() => fm.minePositionsBatch(S, C, { start: -1, count: 1 }, 3), R, NONCE, 'nonces', 'nonces.start');
  expectError(() => fm.minePositionsBatch(S, C, { start: 0.5, count: 1 }, 3), R, NONCE, 'nonces', 'nonces.start');
  expectError(() => fm.minePositionsBatch(S, C, { start: 0, count: -1 }, 3), R, NONCE, 'nonces', 'nonces.count');
  expectError(() => fm.minePositionsBatch(S, C, { start: 0, count: 2 ** 53 }, 3), R, NONCE, 'nonces', 'nonces.count');
  const e = expectError(() => fm.minePositionsBatch(S, C, { start: 2n ** 64n - 2n, count: 3 }, 3), R, NONCE, 'nonces');
  assert.equal(e.message, 'nonces: the range from 18446744073709551614 with 3 nonces passes 2^64 - 1');
  expectError(() => fm.minePositionsBatch(S, C, { start: '0', count: 1 }, 3), T, TYPE, 'nonces', 'nonces.start');
  expectError(() => fm.minePositionsBatch(S, C, { begin: 0, count: 1 }, 3), T, TYPE, 'nonces', 'nonces.begin');
});

test('a batch over 4 GiB is refused with the core\'s range error before any memory is taken', async () => {
  const NUMBER = 'FAIRMINES_INVALID_NUMBER';
  const e = expectError(() => fm.minePositionsBatch(S, C, { start: 0, count: 2 ** 40 }, 24), RangeError, NUMBER, 'nonces');
  assert.equal(
    e.message,
    'nonces: 1099511627776 rounds at mines = 24 need 26388279066624 bytes, and one batch writes at most ' +
      '4294967296 (4 GiB): split it into batches of at most 178956970 rounds',
  );
  expectError(() => fm.minePositionsBatch(S, C, { start: 0, count: 2 ** 32 + 1 }, 1), RangeError, NUMBER, 'nonces');
  await assert.rejects(fm.minePositionsBatchAsync(S, C, { start: 0n, count: 2n ** 63n }, 3), (error) =>
    checkError(error, RangeError, NUMBER, 'nonces') === error);
});

test('an array is read when the call is made: changing it later changes nothing', async () => {
  for (const nonces of [[1, 2, 3], [1n, 2n, 3n], [1, 2n, 3]]) {
    const promise = fm.minePositionsBatchAsync(S, C, nonces, 3);
    nonces.fill(99);
    assert.deepEqual(await promise, expected([1, 2, 3], 3));
  }
});

test('options.threads caps the threads a batch starts: 1 is the pool thread alone', { skip: process.platform !== 'linux' }, async () => {
  await fm.minePositionsBatchAsync(S, C, { start: 0, count: 1 }, 3); // the pool's threads exist from here on
  /** The most threads that `options` let a batch start beside the pool's, sampled while it runs. */
  const most = async (options) => {
    const before = await settledThreadCount();
    let seen = before;
    let samples = 0;
    const timer = setInterval(() => { seen = Math.max(seen, threadCount()); samples++; }, 2);
    try {
      // Long enough (about half a second on 2 cores) that a loaded machine still samples it many times.
      await fm.minePositionsBatchAsync(S, C, { start: 0, count: 4_000_000 }, 1, options);
    } finally {
      clearInterval(timer);
    }
    assert.ok(samples >= 5, `only ${samples} samples of the thread count during the batch`);
    return seen - before;
  };
  assert.equal(await most({ threads: 1 }), 0, 'threads: 1 starts no thread');
  const cores = os.availableParallelism();
  if (cores >= 2) {
    const started = await most(undefined);
    assert.ok(started >= 1 && started <= cores - 1, `without a cap, one thread per other core: ${started}`);
    assert.equal(await most({ threads: 2 }), 1, 'threads: 2 starts one');
  }
});

test('options: threads must be an integer of at least 1; the sync form takes no signal', async () => {
  for (const threads of [0, -1, 1.5, NaN, Infinity, 0n, -3n]) {
    const e = expectError(() => fm.minePositionsBatch(S, C, [1], 3, { threads }), RangeError, 'FAIRMINES_INVALID_NUMBER', 'options', 'options.threads');
    assert.match(e.message, /^options\.threads: must be an integer of at least 1, got /);
    await assert.rejects(fm.minePositionsBatchAsync(S, C, [1], 3, { threads }), { code: 'FAIRMINES_INVALID_NUMBER', argument: 'options' });
  }
  for (const threads of ['2', {}, true]) {
    expectError(() => fm.minePositionsBatch(S, C, [1], 3, { threads }), T, TYPE, 'options', 'options.threads');
  }
  for (const options of [1, 'fast', true]) expectError(() => fm.minePositionsBatch(S, C, [1], 3, options), T, TYPE, 'options');
  const e = expectError(() => fm.minePositionsBatch(S, C, [1], 3, { signal: new AbortController().signal }), T, TYPE, 'options', 'options.signal');
  assert.match(e.message, /unknown field: an options object has only threads$/);
  for (const signal of [1, 'abort', {}, new EventTarget()]) {
    await assert.rejects(fm.minePositionsBatchAsync(S, C, [1], 3, { signal }), (error) => {
      assert.deepEqual([error.constructor, error.code, error.argument], [T, TYPE, 'options']);
      return error.message.startsWith('options.signal: must be an AbortSignal, got ');
    });
  }
  await assert.rejects(fm.minePositionsBatchAsync(S, C, [1], 3, { threads: 1, sginal: null }), { code: TYPE, message: /^options\.sginal: unknown field/ });
  assert.deepEqual(await fm.minePositionsBatchAsync(S, C, [1], 3, { signal: null, threads: undefined }), expected([1], 3));
});

test('aborting rejects at once with an AbortError, stops the work and frees its pool thread', async () => {
  // Four batches that hold the whole pool (4 threads), each 50 million rounds on one thread: if they ran
  // to the end, anything else queued on the pool would wait for as long as a batch takes.
  const rounds = 50_000_000;
  const controller = new AbortController();
  const options = { threads: 1, signal: controller.signal };
  const jobs = [0, 1, 2, 3].map((k) => fm.minePositionsBatchAsync(S, C, { start: k * 1e9, count: rounds }, 1, options));
  const states = jobs.map(stateOf);
  await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(states.map((state) => state.now), ['pending', 'pending', 'pending', 'pending']);
  const reason = new Error('the client went away');
  controller.abort(reason);
  // They reject in the abort itself, not once their work has stopped: by the loop's next turn.
  await nextTurn();
  assert.deepEqual(states.map((state) => state.now), ['rejected', 'rejected', 'rejected', 'rejected']);
  for (const job of jobs) {
    await assert.rejects(job, (error) => {
      assert.ok(error instanceof Error);
      assert.deepEqual([error.name, error.code, error.message, error.cause], ['AbortError', 'ABORT_ERR', 'The operation was aborted', reason]);
      return true;
    });
  }
  // The work stops and the pool threads are free: a file read (on the same pool) is done long before a
  // batch could have ended. The measure is this machine's own: a 200th of a batch, on this thread.
  const started = process.hrtime.bigint();
  const read = await fs.promises.readFile(__filename, 'utf8');
  const readMs = Number(process.hrtime.bigint() - started) / 1e6;
  const sliceStarted = process.hrtime.bigint();
  fm.minePositionsBatch(S, C, { start: 0, count: rounds / 200 }, 1, { threads: 1 });
  const batchMs = (Number(process.hrtime.bigint() - sliceStarted) / 1e6) * 200;
  assert.ok(read.includes('frees its pool thread'));
  assert.ok(readMs < batchMs / 10, `a file read waited ${readMs} ms after the abort; a batch takes about ${batchMs} ms`);
  assert.equal(getEventListeners(controller.signal, 'abort').length, 0, 'no listener is left on the signal');
});

test('an aborted signal rejects at once and starts nothing; a settled batch leaves no listener', async () => {
  const signal = AbortSignal.abort();
  // A billion rounds of 24 mines (24 GB of rows) would fail to allocate, or run for minutes, if started.
  const job = fm.minePositionsBatchAsync(S, C, { start: 0, count: 1e9 }, 24, { signal });
  const state = stateOf(job);
  await nextTurn();
  assert.equal(state.now, 'rejected');
  await assert.rejects(job, (error) => error.name === 'AbortError' && error.code === 'ABORT_ERR' && error.cause === signal.reason);
  // One signal for many batches (a request's): each removes its listener when it settles.
  const controller = new AbortController();
  for (let i = 0; i < 20; i++) {
    assert.deepEqual(await fm.minePositionsBatchAsync(S, C, [i], 3, { signal: controller.signal }), expected([i], 3));
  }
  await assert.rejects(fm.minePositionsBatchAsync(S, C, [1], 25, { signal: controller.signal }), { code: 'FAIRMINES_INVALID_MINES' });
  assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  // A signal aborted after its batch settled changes nothing.
  const done = await fm.minePositionsBatchAsync(S, C, [7], 3, { signal: controller.signal });
  controller.abort();
  assert.deepEqual(done, expected([7], 3));
});

test('many concurrent async batches all settle with the right rows', async () => {
  const jobs = Array.from({ length: 32 }, (_, k) => {
    const nonces = Array.from({ length: 100 }, (_, i) => k * 1000 + i);
    const options = k % 2 ? { threads: 1 } : undefined;
    return fm.minePositionsBatchAsync(S, C, nonces, (k % 24) + 1, options).then((rows) => [k, nonces, rows]);
  });
  for (const [k, nonces, rows] of await Promise.all(jobs)) {
    assert.deepEqual(rows, fm.minePositionsBatch(S, C, nonces, (k % 24) + 1));
  }
});
