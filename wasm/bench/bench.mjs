// Rounds per second of fairmines-wasm `minePositions` against the js-sha3 reference of vectors/ (the
// operator's seed-004 verifier reproduced), in the same Node (V8) process, on the same inputs. Not part of
// the tests: run it with scripts/bench-wasm.sh. Each ratio is the median over BENCH_SAMPLES samples
// (default 21) in which both sides run for about BENCH_SAMPLE_MS (default 40) back to back, in an order
// that alternates, so that the machine's drift cancels in each sample's ratio. BENCH_MINES sets the mine
// counts (default "3 24"). Target: >= 3x. Also reports the .wasm's size, raw and gzipped.
// Prints a table and one `BENCH {json}` line per measure (collected by scripts/bench.sh).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import zlib from 'node:zlib';
import { minePositions } from 'fairmines-wasm';

const reference = createRequire(import.meta.url)('../../vectors/reference.js');
const SAMPLES = Number(process.env.BENCH_SAMPLES || 21);
const SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS || 40);
const SERVER = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const CLIENT = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
const TARGET = 3;

const now = () => Number(process.hrtime.bigint()) / 1e9;
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** Rounds per second of `round` over `count` consecutive nonces. */
function rate(round, count) {
  const started = now();
  for (let n = 0; n < count; n++) round(n);
  return count / (now() - started);
}
/** How many calls of `round` take about SAMPLE_MS (the doubling also warms up the JIT). */
function callsPerSample(round) {
  for (let count = 64; ; count *= 2) {
    const started = now();
    for (let n = 0; n < count; n++) round(n);
    const ms = (now() - started) * 1000;
    if (ms >= SAMPLE_MS / 4) return Math.max(1, Math.round((count * SAMPLE_MS) / ms));
  }
}

const results = [];
console.log(`fairmines-wasm benchmark: Node ${process.version} (V8 ${process.versions.v8})`);
for (const mines of (process.env.BENCH_MINES || '3 24').split(/\s+/).filter(Boolean).map(Number)) {
  const sides = [(n) => reference.minePositions(SERVER, CLIENT, n, mines), (n) => minePositions(SERVER, CLIENT, n, mines)];
  for (let n = 0; n < 2000; n++) {
    if (JSON.stringify(sides[0](n)) !== JSON.stringify(sides[1](n))) throw new Error(`the sides disagree at nonce ${n}`);
  }
  const counts = sides.map(callsPerSample);
  const rates = [[], []];
  for (let sample = 0; sample < SAMPLES; sample++) {
    for (const i of sample % 2 ? [1, 0] : [0, 1]) rates[i].push(rate(sides[i], counts[i]));
  }
  const ratio = median(rates[1].map((r, sample) => r / rates[0][sample]));
  const [ref, wasm] = rates.map(median);
  console.log(`\n${mines} mines, medians over ${SAMPLES} samples of about ${SAMPLE_MS} ms per side`);
  console.log(`${'per call: vectors/reference.js (js-sha3)'.padEnd(46)} ${Math.round(ref).toLocaleString('en-US').padStart(10)} rounds/s`);
  console.log(`${'per call: fairmines-wasm minePositions'.padEnd(46)} ${Math.round(wasm).toLocaleString('en-US').padStart(10)} rounds/s  ${ratio.toFixed(2)}x js-sha3  target ${TARGET}x: ${ratio >= TARGET ? 'met' : 'NOT MET'}`);
  results.push({
    suite: 'wasm',
    name: `WASM (Node) minePositions per call, ${mines} mines, vs js-sha3 reference`,
    value: Number(ratio.toFixed(2)),
    target: TARGET,
    cmp: '>=',
    met: ratio >= TARGET,
    rounds_per_s: Math.round(wasm),
    reference_rounds_per_s: Math.round(ref),
  });
}
const bytes = fs.readFileSync(new URL(import.meta.resolve('fairmines-wasm/fairmines_wasm_bg.wasm')));
const gzipped = zlib.gzipSync(bytes, { level: 9 }).length;
console.log(`\nfairmines_wasm_bg.wasm: ${bytes.length.toLocaleString('en-US')} bytes, ${gzipped.toLocaleString('en-US')} gzipped (level 9)`);
results.push({ suite: 'wasm', name: 'WASM module size, KiB raw', value: Number((bytes.length / 1024).toFixed(1)), cmp: 'size' });
results.push({ suite: 'wasm', name: 'WASM module size, KiB gzipped', value: Number((gzipped / 1024).toFixed(1)), cmp: 'size' });
console.log();
for (const r of results) console.log(`BENCH ${JSON.stringify(r)}`);
