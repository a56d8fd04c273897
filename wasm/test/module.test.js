// How the package loads: `fairmines-wasm` ready on import (top-level await), in the main thread and in a
// worker; `fairmines-wasm/init` loaded from bytes the caller holds (as an inlined page does), or from a URL.
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import fs from 'node:fs';
import * as fm from 'fairmines-wasm';

const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';

/** Runs `code` as an ES module in a fresh Node process from the package's folder. */
function module(code) {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: new URL('..', import.meta.url), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim();
}

test('import gives ready functions: no init call', () => {
  assert.equal(fm.isInitialized(), true);
  assert.deepEqual(fm.minePositions(S, C, 1, 3), [7, 10, 19]);
});

test('fairmines-wasm/init: initSync from the bytes, or init from a URL; the same results', () => {
  const fromBytes = module(`
    import { readFileSync } from 'node:fs';
    import { initSync, isInitialized, minePositions } from 'fairmines-wasm/init';
    const before = isInitialized();
    initSync(readFileSync(new URL(import.meta.resolve('fairmines-wasm/fairmines_wasm_bg.wasm'))));
    console.log(before, isInitialized(), minePositions('${S}', '${C}', 1, 3).join(','));`);
  assert.equal(fromBytes, 'false true 7,10,19');
  const fromModule = module(`
    import { readFileSync } from 'node:fs';
    import { init, verify } from 'fairmines-wasm/init';
    await init(await WebAssembly.compile(readFileSync(new URL(import.meta.resolve('fairmines-wasm/fairmines_wasm_bg.wasm')))));
    console.log(verify({ serverSeed: '${S}', clientSeed: '${C}', nonce: 1, mines: 3, positions: [19, 7, 10] }).verdict);`);
  assert.equal(fromModule, 'ok');
});

test('a worker imports the package and verifies a history posted to it', async () => {
  const code = `
    import { parentPort } from 'node:worker_threads';
    const { verifyHistory } = await import(${JSON.stringify(import.meta.resolve('fairmines-wasm'))});
    parentPort.on('message', async (bytes) => parentPort.postMessage(await verifyHistory(bytes)));`;
  const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`));
  const line = `{"server_seed":"${S}","commitment":"${fm.commitment(S)}","client_seed":"${C}","nonce":1,"mines":3,"positions":[7,10,19]}\n`;
  const report = await new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.postMessage(new TextEncoder().encode(line));
  });
  await worker.terminate();
  assert.deepEqual([report.summary.rows_read, report.summary.ok, report.summary.all_ok], [1, 1, true]);
});

test('index.d.ts declares every export of the package, and nothing else', () => {
  const dts = fs.readFileSync(new URL('../index.d.ts', import.meta.url), 'utf8');
  const declared = [...dts.matchAll(/^export (?:declare )?(?:function|class|const) (\w+)/gm)].map((m) => m[1]);
  assert.deepEqual([...new Set(declared)].sort(), Object.keys(fm).sort());
});
