// What only this package's conversions have: verify's inputDoubts, and, where the Node package is built
// (node/*.node, by scripts/test-node.sh), the very same results and errors as it for a table of calls (class,
// code, errno, argument and the whole message). The conversions both packages share, each checked against
// its expected value, are the shared suite's (tests/js-conformance, run by conformance.test.js).
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import * as fm from 'fairmines-wasm';
import { C, LONE, RECORD_JSON, S, repoRoot } from '../../tests/js-conformance/check.mjs';

test('verify: inputDoubts names a seed that looks mistyped when a check fails, in the core\'s words', () => {
  const round = { serverSeed: S, clientSeed: C, nonce: 1, mines: 3, commitment: 'f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42' };
  assert.deepEqual(fm.verify(round).inputDoubts, []);
  const padded = fm.verify({ ...round, serverSeed: `${S} ` });
  assert.equal(padded.verdict, 'mismatch');
  assert.deepEqual(padded.inputDoubts, [{ argument: 'serverSeed', detail: 'has white space at its start or end (copied with it?): a seed is hashed exactly as written' }]);
  assert.deepEqual(fm.verify({ ...round, clientSeed: '', positions: [1, 2, 3] }).inputDoubts.map((d) => d.argument), ['clientSeed']);
  assert.equal(fm.verify({ serverSeed: '', clientSeed: C, nonce: 1, mines: 3 }).inputDoubts[0].detail, 'is empty: paste the whole seed');
  // A round whose checks hold raises no doubt, whatever its seeds look like.
  const odd = { serverSeed: 'not hex', clientSeed: C, nonce: 1, mines: 3, commitment: fm.commitment('not hex') };
  assert.equal(fm.verify(odd).ok, true);
  assert.deepEqual(fm.verify(odd).inputDoubts, []);
});

// The same calls through the Node package (when scripts/test-node.sh has built it): every error alike.
const addon = fs.readdirSync(path.join(repoRoot, 'node')).some((f) => f.endsWith('.node'));
test('the very same errors as the Node package, call by call', { skip: !addon && 'the Node package is not built here' }, () => {
  const nodeFm = createRequire(import.meta.url)(path.join(repoRoot, 'node', 'index.js'));
  assert.deepEqual(fm.errorKinds(), nodeFm.errorKinds(), 'the same kinds, codes, numbers and summaries');
  const good = JSON.parse(RECORD_JSON);
  const rec = { ...good, clientSeed: good.client_seed };
  delete rec.client_seed;
  const calls = [];
  for (const v of [-1, 1.5, 2 ** 53, NaN, '1', null, undefined, {}, 2n ** 64n, -1n, Symbol('x')]) {
    calls.push((m) => m.roundSignature(S, C, v), (m) => m.minePositions(S, C, 1, v), (m) => m.drawOrder(S, C, v, 3));
    calls.push((m) => m.commitment(v), (m) => m.multiplier(3, v, '0.99'), (m) => m.maxSafePicks(v), (m) => m.payoutTable(v));
    calls.push((m) => m.verify({ serverSeed: S, clientSeed: C, nonce: v, mines: 3 }), (m) => m.verify({ serverSeed: S, clientSeed: C, nonce: 1, mines: 3, positions: [v] }));
    for (const field of Object.keys(rec)) calls.push((m) => m.recordToJson({ ...rec, [field]: v }), (m) => m.verifyRound({ ...rec, [field]: v }, S));
    calls.push((m) => m.Ratio.parse(v), (m) => new m.Ratio(v, 1), (m) => m.recordFromJson(v));
  }
  for (const s of [LONE, '\ud83d', '', 'x'.repeat(65), 'f5ec', '0.99', '99/100', '2', 'won']) {
    calls.push((m) => m.commitment(s), (m) => m.verify({ serverSeed: S, clientSeed: s, nonce: 1, mines: 3, commitment: s }));
    calls.push((m) => m.payoutTable(s), (m) => m.recordFromJson(s), (m) => m.verifyRound(rec, s));
    for (const field of ['commitment', 'clientSeed', 'rtp', 'outcome', 'multiplier']) calls.push((m) => m.recordToJson({ ...rec, [field]: s }));
  }
  calls.push((m) => m.verify({ serverSeed: S, clientSeed: C, nonce: 1, mines: 3, commitmnet: 'x' }), (m) => m.recordToJson({ ...rec, extra: 1 }));
  const outcome = (m, call) => {
    try {
      return { value: JSON.stringify(call(m), (_, x) => (typeof x === 'bigint' ? `${x}n` : x)) };
    } catch (e) {
      return { class: e.constructor.name, code: e.code, errno: e.errno, argument: e.argument, message: e.message };
    }
  };
  let errors = 0;
  for (const call of calls) {
    const expected = outcome(nodeFm, call);
    if (expected.class) errors++;
    assert.deepEqual(outcome(fm, call), expected, call.toString());
  }
  assert.ok(errors > 300, `${errors} of ${calls.length} calls threw`);
});
