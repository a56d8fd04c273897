// History verification and audit: the reports of `fairmines verify-history --json` and `fairmines audit
// --json` (the CLI built from the same tree) over the example histories, from every kind of source, in
// pieces of any size; progress, abort and the errors of a run.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { HistoryVerifier, audit, commitment, heatmapSvg, minePositions, tileRatios, verifyHistory } from 'fairmines-wasm';
import { CLI, expectError, repoRoot } from './helpers.js';

const EXAMPLES = path.join(repoRoot, 'examples', 'history');
const FILES = ['history.jsonl', 'history.csv', 'tampered.jsonl', 'payout.jsonl'];

/** The JSON lines the CLI prints for `args` (its exit status 0 or 1: a mismatch is not a failure here). */
function cli(...args) {
  const run = spawnSync(CLI, args, { encoding: 'utf8' });
  assert.ok(run.status === 0 || run.status === 1, `${CLI} ${args.join(' ')}: ${run.status} ${run.stderr}`);
  return run.stdout.trim().split('\n').map((line) => JSON.parse(line));
}

/** The CLI's verify-history --json as the package reports it: `{ summary, failures }`. */
function cliReport(file) {
  const lines = cli('verify-history', '--json', file);
  return { summary: lines.at(-1), failures: lines.slice(0, -1) };
}

/** A ReadableStream of `bytes` in pieces of `size` bytes (each a fresh Uint8Array). */
function stream(bytes, size) {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

test('verifyHistory gives exactly what the CLI reports, for every example history', async () => {
  for (const name of FILES) {
    const file = path.join(EXAMPLES, name);
    const expected = cliReport(file);
    assert.deepEqual(await verifyHistory(fs.readFileSync(file)), expected, name);
  }
});

test('the tampered history: exactly its bad lines, as the CLI names them', async () => {
  const report = await verifyHistory(fs.readFileSync(path.join(EXAMPLES, 'tampered.jsonl')));
  assert.equal(report.summary.all_ok, false);
  assert.ok(report.failures.length >= 3);
  assert.deepEqual(report.failures.slice(0, 2).map((f) => [f.kind, f.line, f.round_id]), [['positions', 4, 'r4'], ['commitment', 6, 'r6']]);
  assert.equal(report.summary.rows_read, report.summary.ok + report.summary.mismatched + report.summary.malformed);
});

test('every source gives the same report: Uint8Array, ArrayBuffer, DataView, Blob, ReadableStream in small pieces', async () => {
  for (const name of FILES) {
    const bytes = fs.readFileSync(path.join(EXAMPLES, name));
    const expected = await verifyHistory(bytes);
    const copy = new Uint8Array(bytes);
    const sources = [copy.buffer, new DataView(copy.buffer), new Blob([copy.subarray(0, 100), copy.subarray(100)]), stream(copy, 1), stream(copy, 7), stream(copy, 4096),
      fs.createReadStream(path.join(EXAMPLES, name), { highWaterMark: 64 })];
    for (const source of sources) assert.deepEqual(await verifyHistory(source), expected, `${name} from ${source.constructor.name}`);
    const fed = new HistoryVerifier(null);
    for (let i = 0; i < copy.length; i += 13) fed.feed(copy.subarray(i, i + 13));
    assert.deepEqual(fed.finish(), expected, `${name} fed 13 bytes at a time`);
  }
});

test('gzip is read through, and CSV options apply as in the CLI', async () => {
  const csv = fs.readFileSync(path.join(EXAMPLES, 'history.csv'));
  const expected = await verifyHistory(csv);
  assert.deepEqual(await verifyHistory(stream(zlib.gzipSync(csv), 5)), expected);
  const semicolons = Buffer.from(csv.toString().replace(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/gm, ';'));
  assert.deepEqual(await verifyHistory(semicolons, { delimiter: ';', format: 'csv' }), expected);
  const renamed = Buffer.from(csv.toString().replace('server_seed', 'serverSeed'));
  assert.deepEqual(await verifyHistory(renamed, { columns: { serverSeed: 'server_seed' } }), expected);
});

/**
 * An audit with its p-values to 12 significant digits: they come from statrs' gamma functions over the
 * platform's `exp`/`ln` (glibc natively, Rust's libm in WebAssembly), which differ in the last bits; the
 * counts and statistics are exact.
 */
const rounded = (report) => JSON.parse(JSON.stringify(report, (key, x) => (key === 'p_value' ? Number(x.toPrecision(12)) : x)));

test('audit gives what the CLI reports (p-values to 12 digits), from a stream in small pieces too', async () => {
  for (const name of FILES) {
    const file = path.join(EXAMPLES, name);
    const [expected] = cli('audit', '--json', file);
    const bytes = fs.readFileSync(file);
    const source = `the history ${file}`;
    const direct = await audit(bytes, { source });
    assert.deepEqual(rounded(direct), rounded(expected), name);
    assert.deepEqual(await audit(stream(new Uint8Array(bytes), 3), { source }), direct, `${name} streamed`);
  }
  assert.equal((await audit(new Uint8Array(0))).source, 'input');
});

test('audit gives the core\'s verdict: too few rounds, strong evidence for a tile never a mine', async () => {
  const few = await audit(fs.readFileSync(path.join(EXAMPLES, 'history.jsonl')));
  assert.equal(few.verdict.level, 'too_few_rounds');
  assert.equal(few.verdict.words, 'too few rounds to say anything');
  assert.deepEqual(few.verdict.thresholds, { unusual: 0.01, strong_evidence: 1e-6, min_rounds: 125 });
  // 3,000 one-mine rounds whose mine is never on tile 13 (the audit counts declared positions).
  const row = JSON.parse(fs.readFileSync(path.join(EXAMPLES, 'history.jsonl'), 'utf8').split('\n')[0]);
  const lines = Array.from({ length: 3000 }, (_, n) => JSON.stringify({ ...row, nonce: n, mines: 1, positions: [n % 24 + 1 + (n % 24 >= 12 ? 1 : 0)] }));
  const biased = await audit(new TextEncoder().encode(lines.join('\n')));
  assert.equal(biased.verdict.level, 'strong_evidence');
  assert.equal(biased.verdict.words, 'strong evidence of bias');
  assert.equal(biased.verdict.rounds, 3000);
  assert.deepEqual([biased.verdict.largest_deviation.tile, biased.verdict.largest_deviation.percent], [13, -100]);
  assert.ok(biased.verdict.explanation.includes('tile 13 has 100.0% fewer mines than expected'), biased.verdict.explanation);
});

test('audit gives the payout audit of a history with stakes and payouts, null without a play', async () => {
  const text = fs.readFileSync(path.join(EXAMPLES, 'payout.jsonl'), 'utf8');
  const rows = text.trim().split('\n').map((l) => JSON.parse(l));
  const { payout } = await audit(new TextEncoder().encode(text));
  assert.equal(payout.overall.rounds, 12);
  assert.equal(payout.overall.stake_total, rows.reduce((sum, r) => sum + r.stake, 0));
  assert.equal(payout.overall.payout_total, rows.reduce((sum, r) => sum + r.payout, 0));
  assert.equal(payout.overall.declared_rtp, 0.99);
  assert.equal(payout.overall.declared_inside, true);
  assert.deepEqual(payout.by_player.map((g) => g.key), ['ann', 'bob']);
  assert.deepEqual([payout.hit_rates[0].pick, payout.hit_rates[0].expected_exact], [1, '22/25']);
  assert.equal((await audit(fs.readFileSync(path.join(EXAMPLES, 'history.jsonl')))).payout, null);
});

test('tileRatios and heatmapSvg of an audit: the core\'s, the heatmap `fairmines audit --plot` writes', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fairmines-wasm-plot-'));
  try {
    for (const name of FILES) {
      const file = path.join(EXAMPLES, name);
      const plot = path.join(dir, `${name}.svg`);
      const [cliAudit] = cli('audit', '--json', '--plot', plot, file);
      const report = await audit(fs.readFileSync(file), { source: cliAudit.source });
      assert.equal(heatmapSvg(report, `fairmines audit: ${report.source}`), fs.readFileSync(plot, 'utf8'), name);
      const ratios = tileRatios(JSON.parse(JSON.stringify(report)));
      assert.equal(ratios.length, 25);
      assert.ok(ratios.every(([ratio, z]) => Number.isFinite(ratio) && Number.isFinite(z)));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const empty = await audit(new Uint8Array(0));
  assert.equal(tileRatios(empty), null);
  for (const bad of [null, undefined, 3, 'audit']) expectError(() => tileRatios(bad), TypeError, 'ERR_INVALID_ARG_TYPE', 'audit');
  for (const bad of [{}, { rows_read: 1 }, []]) expectError(() => heatmapSvg(bad, 't'), RangeError, 'FAIRMINES_INVALID_STATE', 'audit');
  expectError(() => heatmapSvg(empty, 3), TypeError, 'ERR_INVALID_ARG_TYPE', 'title');
});

test('onProgress reports rows and bytes as the input is read; an aborted signal stops the run', async () => {
  const bytes = new Uint8Array(fs.readFileSync(path.join(EXAMPLES, 'history.jsonl')));
  const seen = [];
  const report = await verifyHistory(stream(bytes, 1000), { onProgress: (p) => seen.push(p) });
  assert.equal(seen.length, Math.ceil(bytes.length / 1000));
  assert.deepEqual(seen.at(-1).bytes, bytes.length);
  assert.ok(seen.every((p, i) => i === 0 || (p.rows >= seen[i - 1].rows && p.bytes > seen[i - 1].bytes)));
  assert.ok(seen.at(-1).rows <= report.summary.rows_read);
  // A buffer is fed in slices of 1 MiB, with a progress call after each.
  const big = new Uint8Array(2.5 * 2 ** 20).fill(0x0a);
  big.set(bytes);
  const slices = [];
  const blank = await verifyHistory(big, { onProgress: (p) => slices.push(p.bytes) });
  assert.deepEqual(slices, [2 ** 20, 2 ** 21, big.length]);
  assert.equal(blank.summary.rows_read, report.summary.rows_read);
  const controller = new AbortController();
  const run = verifyHistory(stream(bytes, 100), { signal: controller.signal, onProgress: () => controller.abort(new Error('enough')) });
  await assert.rejects(run, (e) => e.name === 'AbortError' && e.code === 'ABORT_ERR' && e.cause.message === 'enough');
  await assert.rejects(audit(bytes, { signal: AbortSignal.abort() }), { name: 'AbortError' });
});

test('a run\'s errors: wrong sources and options, unusable options, an input that is not a history', async () => {
  for (const source of [null, undefined, 'history.jsonl', 3, {}, [1, 2]]) {
    await assert.rejects(verifyHistory(source), (e) => e instanceof TypeError && e.code === 'ERR_INVALID_ARG_TYPE' && e.argument === 'source');
  }
  await assert.rejects(verifyHistory(stream([1, 2], 1)), (e) => e instanceof TypeError && e.argument === 'source');
  const text = fs.createReadStream(path.join(EXAMPLES, 'history.csv'), { encoding: 'utf8' });
  await assert.rejects(verifyHistory(text), (e) => e instanceof TypeError && e.argument === 'source');
  await assert.rejects(verifyHistory(new Uint8Array(0), 'csv'), (e) => e instanceof TypeError && e.argument === 'options');
  await assert.rejects(verifyHistory(new Uint8Array(0), { onProgress: 1 }), (e) => e instanceof TypeError && e.argument === 'options.onProgress');
  expectError(() => new HistoryVerifier({ fromat: 'csv' }), TypeError, 'ERR_INVALID_ARG_TYPE', 'options', 'options.fromat');
  expectError(() => new HistoryVerifier({ format: 3 }), TypeError, 'ERR_INVALID_ARG_TYPE', 'options', 'options.format');
  expectError(() => new HistoryVerifier({ format: 'xml' }), RangeError, 'ERR_INVALID_ARG_VALUE', 'options', 'format');
  expectError(() => new HistoryVerifier({ delimiter: '"' }), RangeError, 'ERR_INVALID_ARG_VALUE', 'options', 'delimiter');
  expectError(() => new HistoryVerifier({ columns: { a: 'nonsense' } }), RangeError, 'ERR_INVALID_ARG_VALUE', 'options', 'columns');
  expectError(() => new HistoryVerifier({ maxOpenPairs: 0 }), RangeError, 'FAIRMINES_INVALID_NUMBER', 'options', 'options.maxOpenPairs');
  expectError(() => new HistoryVerifier({ maxFailures: -1 }), RangeError, 'FAIRMINES_INVALID_NUMBER', 'options', 'options.maxFailures');
  const array = new TextEncoder().encode('[{"round_id": 1}]\n');
  const e = await verifyHistory(array).then(() => null, (error) => error);
  assert.equal(e.code, 'FAIRMINES_HISTORY_UNREADABLE');
  assert.match(e.message, /^input: the history is one JSON array/);
  const header = await verifyHistory(new TextEncoder().encode('round_id,nonce\n1,2\n')).then(() => null, (error) => error);
  assert.equal(header.code, 'FAIRMINES_HISTORY_UNREADABLE');
  assert.match(header.message, /^header: /);
  const done = new HistoryVerifier();
  done.finish();
  assert.throws(() => done.feed(new Uint8Array(1)), (err) => err.code === 'ERR_INVALID_STATE');
});

/** The example history (`csv` or `jsonl`) with round r2 tampered (other positions) and r4 malformed (a
 * commitment that is not hex), its lines ended by `ending`. */
function tamperedSample(format, ending) {
  const text = fs.readFileSync(path.join(EXAMPLES, `history.${format}`), 'utf8');
  const lines = text.trimEnd().split('\n').map((line) => {
    if (line.startsWith('r2,') || line.includes('"r2"')) return line.replace('[7,11]', '[7,12]').replace('"7,11"', '"7,12"');
    if (line.startsWith('r4,') || line.includes('"r4"')) return line.replace('2753c2f0', 'zz2753c2f0');
    return line;
  });
  return new TextEncoder().encode(lines.join(ending) + ending);
}

test('failures name the physical line, with LF and CRLF line ends, as the CLI does', async () => {
  // The CSV header is line 1: r2 is on line 3 and r4 on line 5; in JSON Lines on lines 2 and 4.
  for (const [format, tampered, malformed] of [['csv', 3, 5], ['jsonl', 2, 4]]) {
    for (const ending of ['\n', '\r\n']) {
      const bytes = tamperedSample(format, ending);
      const report = await verifyHistory(bytes);
      assert.deepEqual(report.failures.map((f) => [f.kind, f.line, f.round_id]), [['positions', tampered, 'r2'], ['malformed', malformed, 'r4']], `${format} ${JSON.stringify(ending)}`);
      const file = path.join(os.tmpdir(), `fairmines-wasm-lines-${process.pid}.${format}`);
      fs.writeFileSync(file, bytes);
      try {
        assert.deepEqual(report, cliReport(file));
      } finally {
        fs.rmSync(file);
      }
    }
  }
});

test('an all-failing history: rows, failures listed (maxFailures) and not listed agree, in numbers and words', async () => {
  // 20,000 rows whose commitment is wrong, most of them with wrong positions too (a row that fails two checks
  // counts once among the rows, twice among the failures): the example's first row, its nonce counted up.
  const [header, first] = fs.readFileSync(path.join(EXAMPLES, 'history.csv'), 'utf8').split('\n');
  const cells = first.split(',');
  const lines = [header];
  for (let nonce = 0; nonce < 20_000; nonce++) lines.push([`r${nonce}`, cells[1], '00'.repeat(32), cells[3], nonce, 1, 1].join(','));
  const report = await verifyHistory(new TextEncoder().encode(lines.join('\n') + '\n'), { maxFailures: 10 });
  const s = report.summary;
  assert.deepEqual([s.rows_read, s.ok, s.mismatched, s.commitment_mismatches, s.malformed], [20_000, 0, 20_000, 20_000, 0]);
  assert.deepEqual([report.failures.length, s.failures_listed], [10, 10]);
  assert.equal(s.failures_listed + s.failures_omitted, s.commitment_mismatches + s.position_mismatches);
  assert.match(s.text, /^20,000 rows read: 0 ok, 20,000 failed \(commitment 20,000(, positions [\d,]+)?\), 0 malformed; 0 nonce gaps; ([\d,]+) failures found: the first 10 listed, ([\d,]+) more counted but not listed$/);
  const [, , found, omitted] = s.text.match(/; (0 nonce gaps); ([\d,]+) failures found: the first 10 listed, ([\d,]+) more counted/);
  const number = (text) => Number(text.replaceAll(',', ''));
  assert.equal(number(found), s.failures_listed + s.failures_omitted);
  assert.equal(number(omitted), s.failures_omitted);
});

/** One round with 5 mines cashed out after one safe pick at RTP 0.99 (exactly 99/80, displayed as 1.23) as a
 * JSON line, its multiplier written `multiplier`, with `multiplier_form` when `form` is given. */
function cashedOut(multiplier, form) {
  const positions = minePositions('server-seed', 'client', 7, 5);
  const pick = [...Array(25).keys()].map((i) => i + 1).find((t) => !positions.includes(t));
  const row = { server_seed: 'server-seed', commitment: commitment('server-seed'), client_seed: 'client', nonce: 7, mines: 5, positions, rtp: '0.99', picks: [pick], outcome: 'cashed_out', multiplier };
  if (form !== undefined) row.multiplier_form = form;
  return new TextEncoder().encode(JSON.stringify(row) + '\n');
}

test('displayed multipliers: the floor passes by column or multiplierForm; 0.01 off, or a rounded exact one, fails as play', async () => {
  assert.equal((await verifyHistory(cashedOut('1.23', 'displayed'))).summary.all_ok, true);
  assert.equal((await verifyHistory(cashedOut('1.23'), { multiplierForm: 'displayed' })).summary.all_ok, true);
  for (const [bytes, options] of [
    [cashedOut('1.24', 'displayed'), {}],
    [cashedOut('1.22'), { multiplierForm: 'displayed' }],
    [cashedOut('1.23'), {}],
    [cashedOut('1.23', 'exact'), { multiplierForm: 'displayed' }],
  ]) {
    const report = await verifyHistory(bytes, options);
    assert.deepEqual(report.failures.map((f) => [f.kind, f.field, f.line]), [['play', 'multiplier', 1]]);
  }
  const [failure] = (await verifyHistory(cashedOut('1.24', 'displayed'))).failures;
  assert.deepEqual([failure.expected, failure.declared], ['1.23', '1.24']);
  expectError(() => new HistoryVerifier({ multiplierForm: 'rounded' }), RangeError, 'ERR_INVALID_ARG_VALUE', 'options', 'multiplier_form');
});
