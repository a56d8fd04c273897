// The page's benchmark in Chromium (not part of the tests: scripts/bench-web.sh runs it, `make bench` through
// scripts/bench.sh). Two measures, printed as a table and as `BENCH {json}` lines:
//
// 1. minePositions per call: fairmines-wasm (as the page loads it) against vectors/reference.js, the operator's
//    verifier on js-sha3 (seeds/004), in the same page of the same Chromium. The reference runs as written: its
//    CommonJS is given js-sha3 (src/sha3.js, the file Node's `require` loads) and, for `Buffer.from(bytes)
//    .readUInt32BE`, a Uint8Array with a DataView. Same inputs; the answers are compared first. Each ratio is
//    the median over BENCH_SAMPLES samples (default 21) in which each side runs about BENCH_SAMPLE_MS (default 40)
//    back to back, in rotating order (as node/bench/bench.js). Target: >= 3x.
// 2. History rows/s: the page's worker verifying a history file on the page's own path (File → stream → worker →
//    the core's HistoryVerifier; the audit off), wall time measured in the page, against
//    `fairmines verify-history --threads 1 --json` on the same file (wall time of the process). The median of
//    BENCH_HISTORY_RUNS (default 3) runs of each, interleaved; also shown: the time inside the verifier, and the
//    page's usual run (verification and audit fed the same chunks in one pass).
//
//   node web/bench/bench.mjs HISTORY_FILE      (FAIRMINES_CLI: the CLI; web/dist built)
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { serve } from '../serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '..', '..');
const dist = join(root, 'web', 'dist');
const cli = process.env.FAIRMINES_CLI || join(root, 'target', 'release', 'fairmines');
const historyFile = resolve(process.argv[2] || '');
const SAMPLES = Number(process.env.BENCH_SAMPLES || 21);
const SAMPLE_MS = Number(process.env.BENCH_SAMPLE_MS || 40);
const HISTORY_RUNS = Number(process.env.BENCH_HISTORY_RUNS || 3);
const MINES = (process.env.BENCH_MINES || '3 24').split(/\s+/).filter(Boolean).map(Number);
const TARGET = 3;

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The reference as a browser expression: vectors/reference.js over js-sha3, as CommonJS modules. */
function referenceSource() {
  const sha3 = readFileSync(join(root, 'vectors', 'node_modules', 'js-sha3', 'src', 'sha3.js'), 'utf8');
  const reference = readFileSync(join(root, 'vectors', 'reference.js'), 'utf8');
  return `(() => {
    const Buffer = { from(bytes) {
      const u = Uint8Array.from(bytes);
      const view = new DataView(u.buffer);
      u.readUInt32BE = (offset) => view.getUint32(offset);
      return u;
    } };
    const sha3Module = { exports: {} };
    (function (module, exports) { ${sha3}\n })(sha3Module, sha3Module.exports);
    const referenceModule = { exports: {} };
    (function (module, exports, require) { ${reference}\n })(referenceModule, referenceModule.exports,
      (name) => { if (name === 'js-sha3') return sha3Module.exports; throw new Error('cannot require ' + name); });
    return referenceModule.exports;
  })()`;
}

/** Runs in the page: paired per-call rates of the WASM package and the reference. */
async function perCallInPage(page, mines) {
  return page.evaluate(
    async ({ mines, samples, sampleMs, reference }) => {
      const ref = (0, eval)(reference);
      const fm = globalThis.fairminesPage.fm;
      const SERVER = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
      const CLIENT = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
      for (let n = 0; n < 2000; n++) {
        const want = JSON.stringify(ref.minePositions(SERVER, CLIENT, n, mines));
        const got = JSON.stringify(fm.minePositions(SERVER, CLIENT, n, mines));
        if (got !== want) throw new Error(`fairmines-wasm and the reference disagree at nonce ${n}: ${got} vs ${want}`);
      }
      const sides = [
        { name: 'reference', round: (n) => ref.minePositions(SERVER, CLIENT, n, mines) },
        { name: 'wasm', round: (n) => fm.minePositions(SERVER, CLIENT, n, mines) },
      ];
      const time = (round, count) => {
        const t0 = performance.now();
        for (let n = 0; n < count; n++) round(n);
        return (performance.now() - t0) / 1000;
      };
      for (const side of sides) {
        for (let count = 64; ; count *= 2) {
          const s = time(side.round, count);
          if (s * 1000 >= sampleMs / 4) {
            side.count = Math.max(1, Math.round((count * sampleMs) / (s * 1000)));
            break;
          }
        }
      }
      const rates = sides.map(() => []);
      for (let sample = 0; sample < samples; sample++) {
        for (let k = 0; k < sides.length; k++) {
          const i = (k + sample) % sides.length;
          rates[i].push(sides[i].count / time(sides[i].round, sides[i].count));
        }
      }
      return rates;
    },
    { mines, samples: SAMPLES, sampleMs: SAMPLE_MS, reference: referenceSource() },
  );
}

/** Loads the history into the page's file input (which verifies and audits it once, as a user would). */
async function loadHistory(page) {
  await page.setInputFiles('#history-file', historyFile);
  await page.waitForFunction(() => document.getElementById('history-summary').dataset.summary !== '' || document.getElementById('history-verdict').dataset.verdict === 'error', null, { timeout: 600_000 });
  const last = await page.evaluate(() => globalThis.fairminesPage.lastHistory);
  if (!last || last.type !== 'done') throw new Error(`the page did not verify the history: ${JSON.stringify(last)}`);
  return { rows: last.summary.rows_read, verify: last.seconds.verify, audit: last.seconds.audit, total: last.seconds.total };
}

/** One verification-only run in the page's worker (File → stream → worker → HistoryVerifier), timed from the page. */
async function historyInPage(page) {
  return page.evaluate(async () => {
    const file = document.getElementById('history-file').files[0];
    const t0 = performance.now();
    const done = await globalThis.fairminesPage.checkHistory(file, 'auto', { audit: false });
    const wall = (performance.now() - t0) / 1000;
    if (done.type !== 'done') throw new Error(`the page did not verify the history: ${done.message}`);
    return { rows: done.summary.rows_read, wall, verify: done.seconds.verify };
  });
}

function cliRun() {
  const t0 = process.hrtime.bigint();
  let out;
  try {
    out = execFileSync(cli, ['verify-history', '--threads', '1', '--json', historyFile], { encoding: 'utf8', maxBuffer: 1 << 30 });
  } catch (error) {
    if (error.status !== 1) throw error;
    out = error.stdout;
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const summary = JSON.parse(out.trim().split('\n').at(-1));
  return { rows: summary.rows_read, seconds };
}

async function main() {
  const wasmFile = readFileSync(join(dist, 'fairmines-wasm', findWasm()));
  const results = [];
  const { server, url } = await serve(dist, 0);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
  const version = browser.version();
  try {
    const context = await browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(url);
    await page.waitForSelector('html[data-ready="true"]');
    console.log(`fairmines web benchmark: Chromium ${version}, .wasm ${wasmFile.length.toLocaleString('en')} bytes (${gzipSync(wasmFile, { level: 9 }).length.toLocaleString('en')} gzipped)`);

    for (const mines of MINES) {
      const [ref, wasm] = await perCallInPage(page, mines);
      const ratio = median(wasm.map((r, i) => r / ref[i]));
      const met = ratio >= TARGET;
      console.log(`\n${mines} mines, per call, medians over ${SAMPLES} samples of about ${SAMPLE_MS} ms, same page`);
      console.log(`  vectors/reference.js (js-sha3)   ${Math.round(median(ref)).toLocaleString('en').padStart(12)} rounds/s`);
      console.log(`  fairmines-wasm minePositions     ${Math.round(median(wasm)).toLocaleString('en').padStart(12)} rounds/s  ${ratio.toFixed(2)}x  target ${TARGET}x: ${met ? 'met' : 'NOT MET'}`);
      results.push({
        suite: 'web',
        name: `Chromium minePositions per call (fairmines-wasm), ${mines} mines, vs js-sha3 reference`,
        value: Number(ratio.toFixed(2)),
        target: TARGET,
        cmp: '>=',
        met,
        rounds_per_s: Math.round(median(wasm)),
        reference_rounds_per_s: Math.round(median(ref)),
      });
    }

    if (historyFile && statSync(historyFile, { throwIfNoEntry: false })) {
      const size = statSync(historyFile).size;
      const full = await loadHistory(page);
      const cliRuns = [];
      const pageRuns = [];
      for (let i = 0; i < HISTORY_RUNS; i++) {
        pageRuns.push(await historyInPage(page));
        cliRuns.push(cliRun());
      }
      const rows = cliRuns[0].rows;
      if (pageRuns.some((r) => r.rows !== rows) || full.rows !== rows) throw new Error('the page and the CLI read different row counts');
      const pageRate = rows / median(pageRuns.map((r) => r.wall));
      const feedRate = rows / median(pageRuns.map((r) => r.verify));
      const cliRate = rows / median(cliRuns.map((r) => r.seconds));
      console.log(`\nhistory ${historyFile} (${rows.toLocaleString('en')} rows, ${(size / 1048576).toFixed(1)} MiB), median of ${HISTORY_RUNS} runs`);
      console.log(`  fairmines verify-history --threads 1 --json   ${Math.round(cliRate).toLocaleString('en').padStart(10)} rows/s (wall time of the process)`);
      console.log(`  page worker, verification                     ${Math.round(pageRate).toLocaleString('en').padStart(10)} rows/s (wall time in the page)  ${(pageRate / cliRate).toFixed(2)}x the CLI`);
      console.log(`    of which in the core's HistoryVerifier      ${Math.round(feedRate).toLocaleString('en').padStart(10)} rows/s`);
      console.log(`  page worker, verification + audit (one pass)  ${Math.round(rows / full.total).toLocaleString('en').padStart(10)} rows/s (the page's own run, once)`);
      results.push({
        suite: 'web',
        name: 'Chromium history rows/s: page worker (verification, wall time) vs CLI --threads 1',
        value: Number((pageRate / cliRate).toFixed(2)),
        rounds_per_s: Math.round(pageRate),
        cli_rows_per_s: Math.round(cliRate),
        rows,
      });
    }
  } finally {
    await browser.close();
    server.close();
  }
  console.log();
  for (const r of results) console.log(`BENCH ${JSON.stringify(r)}`);
}

function findWasm() {
  const pkgDir = join(dist, 'fairmines-wasm');
  const found = [];
  const walk = (d, prefix) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), prefix + e.name + '/');
      else if (e.name.endsWith('.wasm')) found.push(prefix + e.name);
    }
  };
  walk(pkgDir, '');
  if (found.length !== 1) throw new Error(`expected one .wasm in ${pkgDir}`);
  return found[0];
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
