'use strict';
// Rounds per second of `fairmines` (native) against the js-sha3 reference of vectors/ and a
// node:crypto (OpenSSL) implementation, on the same inputs in the same run. Not part of the tests:
// run it with scripts/bench-node.sh. BENCH_SECONDS sets the time per measurement (default 1),
// BENCH_MINES the mine counts (default "3 24").
// Targets (issue 9): minePositions >= 5x js-sha3 and >= 2.5x node:crypto; the batch >= 15x and >= 8x.
// Prints a table and one `BENCH {json}` line per ratio (collected by scripts/bench.sh).
const path = require('node:path');
const crypto = require('node:crypto');
const fm = require('fairmines');

const reference = require(path.resolve(__dirname, '..', '..', 'vectors', 'reference.js'));
const SECONDS = Number(process.env.BENCH_SECONDS || 1);
const SERVER = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const CLIENT = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';

/** The algorithm on node:crypto: SHA3-256 and SHAKE256 from OpenSSL, sampling in JavaScript. */
function opensslPositions(serverSeed, clientSeed, nonce, mines) {
  const signature = crypto.createHash('sha3-256').update(`${serverSeed}:${clientSeed}:${nonce}`).digest('hex');
  const stream = crypto.createHash('shake256', { outputLength: 192 }).update(signature).digest();
  const available = Array.from({ length: 25 }, (_, i) => i);
  const drawn = [];
  let word = 0;
  for (let draw = 0; draw < mines; draw++) {
    const P = available.length;
    const limit = Math.floor(0x100000000 / P) * P;
    let w;
    do {
      w = stream.readUInt32BE(4 * word++);
    } while (w >= limit);
    drawn.push(available.splice(w % P, 1)[0]);
  }
  return drawn.sort((a, b) => a - b).map((t) => t + 1);
}

/** Calls `round(nonce)` for consecutive nonces for about SECONDS; rounds per second. */
function perCall(round) {
  let nonce = 0;
  const deadline = process.hrtime.bigint() + BigInt(Math.round(SECONDS * 1e9));
  const started = process.hrtime.bigint();
  while (process.hrtime.bigint() < deadline) {
    for (let i = 0; i < 200; i++) round(nonce++);
  }
  return nonce / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** Runs `batch()` (which computes `rounds` rounds) repeatedly for about SECONDS; rounds per second. */
async function perBatch(rounds, batch) {
  let done = 0;
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(SECONDS * 1e9));
  do {
    await batch();
    done += rounds;
  } while (process.hrtime.bigint() < deadline);
  return done / (Number(process.hrtime.bigint() - started) / 1e9);
}

const TARGETS = { perCall: { ref: 5, ossl: 2.5 }, batch: { ref: 15, ossl: 8 } };

async function benchMines(mines, results) {
  const batchSize = 100000;
  const nonces = BigUint64Array.from({ length: batchSize }, (_, i) => BigInt(i));
  const numbers = Array.from({ length: batchSize }, (_, i) => i);

  // Same answers first, or the timings mean nothing.
  for (let n = 0; n < 2000; n++) {
    const want = JSON.stringify(reference.minePositions(SERVER, CLIENT, n, mines));
    const got = [fm.minePositions(SERVER, CLIENT, n, mines), opensslPositions(SERVER, CLIENT, n, mines)];
    if (got.some((g) => JSON.stringify(g) !== want)) throw new Error(`implementations disagree at nonce ${n}`);
  }
  const batch = Array.from(fm.minePositionsBatch(SERVER, CLIENT, nonces.subarray(0, 2000), mines));
  for (let n = 0; n < 2000; n++) {
    const want = JSON.stringify(reference.minePositions(SERVER, CLIENT, n, mines));
    if (JSON.stringify(batch.slice(n * mines, (n + 1) * mines)) !== want) throw new Error(`batch disagrees at nonce ${n}`);
  }

  const rows = [];
  const add = (name, rate, kind) => rows.push({ name, rate, kind });
  add('per call: vectors/reference.js (js-sha3)', perCall((n) => reference.minePositions(SERVER, CLIENT, n, mines)));
  add('per call: node:crypto (OpenSSL) + JS sampling', perCall((n) => opensslPositions(SERVER, CLIENT, n, mines)));
  add('per call: fairmines.minePositions (native)', perCall((n) => fm.minePositions(SERVER, CLIENT, n, mines)), 'perCall');
  add(`batch of ${batchSize}: minePositionsBatch (BigUint64Array)`, await perBatch(batchSize, () => fm.minePositionsBatch(SERVER, CLIENT, nonces, mines)), 'batch');
  add(`batch of ${batchSize}: minePositionsBatch (number[])`, await perBatch(batchSize, () => fm.minePositionsBatch(SERVER, CLIENT, numbers, mines)), 'batch');
  add(`batch of ${batchSize}: minePositionsBatchAsync`, await perBatch(batchSize, () => fm.minePositionsBatchAsync(SERVER, CLIENT, nonces, mines)), 'batch');

  const ref = rows[0].rate;
  const ossl = rows[1].rate;
  console.log(`\n${mines} mines, ${SECONDS} s per line`);
  for (const { name, rate, kind } of rows) {
    let verdict = '';
    if (kind) {
      const t = TARGETS[kind];
      const met = rate / ref >= t.ref && rate / ossl >= t.ossl;
      verdict = `  targets ${t.ref}x / ${t.ossl}x: ${met ? 'met' : 'NOT MET'}`;
      for (const [against, base, target] of [['js-sha3 reference', ref, t.ref], ['node:crypto', ossl, t.ossl]]) {
        const ratio = rate / base;
        results.push({
          suite: 'node',
          name: `Node ${name.replace(/^[^:]*: /, '')}, ${mines} mines, vs ${against}`,
          value: Number(ratio.toFixed(2)),
          target,
          cmp: '>=',
          met: ratio >= target,
          rounds_per_s: Math.round(rate),
          reference_rounds_per_s: Math.round(base),
        });
      }
    }
    console.log(`${name.padEnd(58)} ${Math.round(rate).toLocaleString('en-US').padStart(12)} rounds/s  ` +
      `${(rate / ref).toFixed(1).padStart(6)}x js-sha3  ${(rate / ossl).toFixed(1).padStart(6)}x node:crypto${verdict}`);
  }
}

async function main() {
  const mines = (process.env.BENCH_MINES || '3 24').split(/\s+/).filter(Boolean).map(Number);
  console.log(`fairmines Node benchmark: Node ${process.version}, ${require('node:os').availableParallelism()} cores`);
  const results = [];
  for (const m of mines) await benchMines(m, results);
  console.log();
  for (const r of results) console.log(`BENCH ${JSON.stringify(r)}`);
}

main().catch((error) => { console.error(error); process.exit(1); });
