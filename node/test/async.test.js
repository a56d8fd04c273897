'use strict';
// minePositionsBatchAsync runs off the event loop: timers keep firing while it works.
const test = require('node:test');
const assert = require('node:assert/strict');
const fm = require('fairmines');

const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';

/** Event-loop ticks of a 5 ms interval timer while `work()` runs, and how long it took. */
async function ticksDuring(work) {
  let ticks = 0;
  const timer = setInterval(() => { ticks += 1; }, 5);
  const started = process.hrtime.bigint();
  try {
    const result = await work();
    return { result, ticks, ms: Number(process.hrtime.bigint() - started) / 1e6 };
  } finally {
    clearInterval(timer);
  }
}

test('a timer keeps firing while a large async batch runs (and not while the sync one does)', async () => {
  // Size the batch so that it takes a measurable time on this machine.
  let count = 50000;
  let syncRun;
  for (;;) {
    const nonces = BigUint64Array.from({ length: count }, (_, i) => BigInt(i));
    syncRun = await ticksDuring(() => fm.minePositionsBatch(S, C, nonces, 24));
    if (syncRun.ms >= 300 || count >= 50_000_000) break;
    count *= 4;
  }
  const nonces = BigUint64Array.from({ length: count }, (_, i) => BigInt(i));
  const asyncRun = await ticksDuring(() => fm.minePositionsBatchAsync(S, C, nonces, 24));
  // The sync call holds the loop: its timer cannot fire during it (at most once, after it).
  assert.ok(syncRun.ticks <= 1, `sync: ${syncRun.ticks} ticks in ${syncRun.ms} ms`);
  // The async call leaves it free: a 5 ms timer fires many times over >= ~300 ms.
  assert.ok(asyncRun.ticks >= 10, `async: only ${asyncRun.ticks} ticks in ${asyncRun.ms} ms for ${count} rounds`);
  assert.deepEqual(asyncRun.result, syncRun.result);
  assert.equal(asyncRun.result.length, count * 24);
});

test('many concurrent async batches all settle with the right rows', async () => {
  const jobs = Array.from({ length: 32 }, (_, k) => {
    const nonces = Array.from({ length: 100 }, (_, i) => k * 1000 + i);
    return fm.minePositionsBatchAsync(S, C, nonces, (k % 24) + 1).then((rows) => [k, nonces, rows]);
  });
  for (const [k, nonces, rows] of await Promise.all(jobs)) {
    assert.deepEqual(rows, fm.minePositionsBatch(S, C, nonces, (k % 24) + 1));
  }
});

test('the async batch copies its nonces when called', async () => {
  const nonces = BigUint64Array.from([1n, 2n, 3n]);
  const expected = fm.minePositionsBatch(S, C, nonces, 3);
  const promise = fm.minePositionsBatchAsync(S, C, nonces, 3);
  nonces.fill(99n);
  assert.deepEqual(await promise, expected);
});
