'use strict';
// Rounds per second of `fairmines` (native) against the js-sha3 reference of vectors/ and a
// node:crypto (OpenSSL) implementation, on the same inputs in the same run. Not part of the tests:
// run it with scripts/bench-node.sh. Each ratio is the median over BENCH_SAMPLES samples (default 21)
// in which every implementation runs for about BENCH_SAMPLE_MS (default 40) back to back, in an
// order that rotates: the machine's drift over seconds (20-30% on a shared one) cancels in each
// sample's ratios. BENCH_MINES sets the mine counts (default "3 24").
// Targets: minePositions >= 5x js-sha3 and >= 2.5x node:crypto; the batch >= 15x and >= 8x.
// Prints a table and one `BENCH {json}` line per ratio (collected by scripts/bench.sh).
const path = require('node:path');
const crypto = require('node:crypto');
const fm = require('fairmines');

const reference = require(path.resolve(__dirname, '..', '..', 'vectors', 'reference.js'));
const SAMPLES = Number(process.env.BENCH_SAMPLES || 21);
const SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS || 40);
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

/** Seconds that `run()` takes (it may return a promise). */
async function seconds(run) {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/** Calls `round(nonce)` for nonces 0, 1, …, count − 1. */
function calls(round, count) {
  for (let n = 0; n < count; n++) round(n);
}

/** How many calls of `round` take about SAMPLE_MS (the doubling also warms up the JIT). */
async function callsPerSample(round) {
  for (let count = 64; ; count *= 2) {
    const s = await seconds(() => calls(round, count));
    if (s * 1000 >= SAMPLE_MS / 4) return Math.max(1, Math.round((count * SAMPLE_MS) / (s * 1000)));
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Times every side ({ rounds, run }) once per sample, back to back in a rotating order; returns
 * each side's rates (rounds per second), one per sample.
 */
async function pairedRates(sides) {
  const rates = sides.map(() => []);
  for (let sample = 0; sample < SAMPLES; sample++) {
    for (let k = 0; k < sides.length; k++) {
      const i = (k + sample) % sides.length;
      rates[i].push(sides[i].rounds / (await seconds(sides[i].run)));
    }
  }
  return rates;
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

  const perCall = async (name, round, kind) => {
    const count = await callsPerSample(round);
    return { name, kind, rounds: count, run: () => calls(round, count) };
  };
  const perBatch = async (name, batch) => {
    await batch(); // warm-up
    return { name, kind: 'batch', rounds: batchSize, run: batch };
  };
  const sides = [
    await perCall('per call: vectors/reference.js (js-sha3)', (n) => reference.minePositions(SERVER, CLIENT, n, mines)),
    await perCall('per call: node:crypto (OpenSSL) + JS sampling', (n) => opensslPositions(SERVER, CLIENT, n, mines)),
    await perCall('per call: fairmines.minePositions (native)', (n) => fm.minePositions(SERVER, CLIENT, n, mines), 'perCall'),
    await perBatch(`batch of ${batchSize}: minePositionsBatch (BigUint64Array)`, () => fm.minePositionsBatch(SERVER, CLIENT, nonces, mines)),
    await perBatch(`batch of ${batchSize}: minePositionsBatch (number[])`, () => fm.minePositionsBatch(SERVER, CLIENT, numbers, mines)),
    await perBatch(`batch of ${batchSize}: minePositionsBatchAsync`, () => fm.minePositionsBatchAsync(SERVER, CLIENT, nonces, mines)),
  ];
  const rates = await pairedRates(sides);
  // Each ratio is the median of the per-sample ratios; the rates shown are the medians of the rates.
  const ratio = (i, base) => median(rates[i].map((rate, sample) => rate / rates[base][sample]));
  const rows = sides.map(({ name, kind }, i) => ({ name, kind, rate: median(rates[i]), vsRef: ratio(i, 0), vsOssl: ratio(i, 1) }));

  console.log(`\n${mines} mines, medians over ${SAMPLES} samples of about ${SAMPLE_MS} ms per line, timed back to back`);
  for (const { name, rate, kind, vsRef, vsOssl } of rows) {
    let verdict = '';
    if (kind) {
      const t = TARGETS[kind];
      const met = vsRef >= t.ref && vsOssl >= t.ossl;
      verdict = `  targets ${t.ref}x / ${t.ossl}x: ${met ? 'met' : 'NOT MET'}`;
      for (const [against, value, target, base] of [
        ['js-sha3 reference', vsRef, t.ref, rows[0].rate],
        ['node:crypto', vsOssl, t.ossl, rows[1].rate],
      ]) {
        results.push({
          suite: 'node',
          name: `Node ${name.replace(/^[^:]*: /, '')}, ${mines} mines, vs ${against}`,
          value: Number(value.toFixed(2)),
          target,
          cmp: '>=',
          met: value >= target,
          rounds_per_s: Math.round(rate),
          reference_rounds_per_s: Math.round(base),
        });
      }
    }
    console.log(`${name.padEnd(58)} ${Math.round(rate).toLocaleString('en-US').padStart(12)} rounds/s  ` +
      `${vsRef.toFixed(1).padStart(6)}x js-sha3  ${vsOssl.toFixed(1).padStart(6)}x node:crypto${verdict}`);
  }
}

/**
 * What the call of an async batch costs the event loop (not the work it starts, aborted then), for a
 * million nonces in each form: a range or a typed array is read where it is, an array of numbers is made
 * a typed array by a loop in JavaScript, a mixed array is read element by element. The least of 5 calls.
 */
async function callCost() {
  const million = 1_000_000;
  const numbers = Array.from({ length: million }, (_, i) => i);
  const forms = [
    ['{ start, count }', { start: 0, count: million }],
    ['BigUint64Array', BigUint64Array.from(numbers, BigInt)],
    ['Uint32Array', Uint32Array.from(numbers)],
    ['number[]', numbers],
    ['number[] and bigint[] mixed', numbers.map((n) => (n % 2 ? BigInt(n) : n))],
  ];
  console.log(`\nminePositionsBatchAsync: the call itself, for ${million.toLocaleString('en-US')} nonces (least of 5)`);
  for (const [form, nonces] of forms) {
    let least = Infinity;
    for (let run = 0; run < 5; run++) {
      const controller = new AbortController();
      const call = await seconds(() => {
        const promise = fm.minePositionsBatchAsync(SERVER, CLIENT, nonces, 1, { signal: controller.signal });
        promise.catch(() => {}); // aborted below
      });
      controller.abort();
      least = Math.min(least, call);
    }
    console.log(`${form.padEnd(58)} ${(least * 1000).toFixed(3).padStart(12)} ms`);
  }
}

async function main() {
  const mines = (process.env.BENCH_MINES || '3 24').split(/\s+/).filter(Boolean).map(Number);
  console.log(`fairmines Node benchmark: Node ${process.version}, ${require('node:os').availableParallelism()} cores`);
  const results = [];
  for (const m of mines) await benchMines(m, results);
  await callCost();
  console.log();
  for (const r of results) console.log(`BENCH ${JSON.stringify(r)}`);
}

main().catch((error) => { console.error(error); process.exit(1); });
