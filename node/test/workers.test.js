'use strict';
// Concurrency: the addon loaded in several worker_threads at once (one instance per thread), each
// computing mine positions, batches (sync and async) and playing rounds at the same time as the
// others and as the main thread, all with the same results, which are the shared vectors' results.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { Worker } = require('node:worker_threads');
const fm = require('fairmines');
const { loadVectors } = require('./helpers');

const PACKAGE = path.join(__dirname, '..');
const WORKERS = 4;

/**
 * The work, as a function the main thread runs and each worker runs (from its source text).
 * `fm` is the package; `input` is plain data; the result is structured-clonable.
 */
async function work(fm, input) {
  const { cases, batch } = input;
  const out = { positions: [], orders: [], batch: null, batchAsync: null, rounds: [], classesInspect: '' };
  for (let pass = 0; pass < input.passes; pass++) {
    out.positions = cases.map((v) => fm.minePositions(v.server_seed, v.client_seed, BigInt(v.nonce), v.mines));
    out.orders = cases.map((v) => fm.drawOrder(v.server_seed, v.client_seed, v.nonce, v.mines));
  }
  const nonces = BigUint64Array.from({ length: batch.count }, (_, i) => BigInt(batch.first) + BigInt(i));
  out.batch = Buffer.from(fm.minePositionsBatch(batch.server, batch.client, nonces, batch.mines)).toString('base64');
  const rows = await fm.minePositionsBatchAsync(batch.server, batch.client, nonces, batch.mines);
  out.batchAsync = Buffer.from(rows).toString('base64');
  // Rounds through the classes: reveal every tile in order until the round ends, then verify it.
  for (const v of cases.filter((c) => /^[0-9a-f]{64}$/.test(c.server_seed))) {
    const round = fm.SeedPair.fromParts(v.server_seed, v.client_seed, v.nonce).startRound(v.mines, '0.99');
    for (let tile = 1; !round.isFinished; tile++) round.reveal(tile);
    const record = round.record();
    const verdict = fm.verifyRound(record, v.server_seed);
    out.rounds.push({ json: fm.recordToJson(record), ok: verdict.ok, mines: round.minePositions });
  }
  const util = require('node:util');
  out.classesInspect = util.inspect(fm.SeedPair.fromParts(cases.find((c) => /^[0-9a-f]{64}$/.test(c.server_seed)).server_seed, 'c', 0));
  return out;
}

function runWorker(input) {
  const source = `
    const { parentPort, workerData } = require('node:worker_threads');
    const fm = require(workerData.pkg);
    const work = ${work.toString()};
    work(fm, workerData.input).then((out) => parentPort.postMessage(out), (e) => { throw e; });
  `;
  return new Promise((resolve, reject) => {
    const worker = new Worker(source, { eval: true, workerData: { pkg: PACKAGE, input } });
    let result;
    worker.once('message', (out) => { result = out; });
    worker.once('error', reject);
    worker.once('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`worker exited with ${code}`))));
  });
}

test(`${WORKERS} worker threads and the main thread at once: the same positions, batches and rounds`, async () => {
  const cases = loadVectors().cases;
  const input = {
    cases,
    passes: 3,
    batch: { server: cases[0].server_seed, client: cases[0].client_seed, first: 2 ** 40, count: 20000, mines: 5 },
  };
  // Start the workers first, then do the same work here while they run.
  const pending = Array.from({ length: WORKERS }, () => runWorker(input));
  const mine = await work(fm, input);
  const results = await Promise.all(pending);

  // The main thread's results are the vectors'.
  cases.forEach((v, i) => {
    assert.deepEqual(mine.positions[i], v.positions, v.id);
    assert.deepEqual(mine.orders[i], v.draw_order, v.id);
  });
  assert.equal(mine.batch, mine.batchAsync);
  const rows = Buffer.from(mine.batch, 'base64');
  for (const i of [0, 1, 9999, 19999]) {
    assert.deepEqual([...rows.subarray(i * 5, i * 5 + 5)], fm.minePositions(input.batch.server, input.batch.client, 2 ** 40 + i, 5));
  }
  assert.ok(mine.rounds.length > 1000 && mine.rounds.every((r) => r.ok));
  assert.doesNotMatch(mine.classesInspect, /serverSeed: '[0-9a-f]/);
  // Every worker's results are the main thread's.
  for (const [w, out] of results.entries()) {
    assert.deepEqual(out.positions, mine.positions, `worker ${w}: positions`);
    assert.deepEqual(out.orders, mine.orders, `worker ${w}: draw orders`);
    assert.equal(out.batch, mine.batch, `worker ${w}: batch`);
    assert.equal(out.batchAsync, mine.batch, `worker ${w}: async batch`);
    assert.deepEqual(out.rounds, mine.rounds, `worker ${w}: rounds`);
    assert.equal(out.classesInspect, mine.classesInspect, `worker ${w}: inspect`);
  }
});

test('a worker can load the addon again after another worker has exited', async () => {
  const small = { cases: loadVectors().cases.slice(0, 20), passes: 1, batch: { server: 's', client: 'c', first: 0, count: 10, mines: 3 } };
  const first = await runWorker(small);
  const second = await runWorker(small);
  assert.deepEqual(second, first);
  assert.deepEqual(first.positions, small.cases.map((v) => v.positions));
});
