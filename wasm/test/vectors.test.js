// Every case of vectors/vectors.json through every round function of the package.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as fm from 'fairmines-wasm';
import { loadVectors } from './helpers.js';

const vectors = loadVectors();
const cases = vectors.cases;

test('the vector file is complete and covers the hard cases', () => {
  assert.equal(cases.length, vectors.count);
  assert.ok(cases.length > 1000, `only ${cases.length} cases`);
  assert.ok(cases.some((c) => c.id === 'worked-example'));
  assert.ok(cases.some((c) => c.rejected.some((r) => r.draw > 0)), 'no rejection at a later draw');
});

test('worked example of ALGORITHM.md', () => {
  const s = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
  const c = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
  assert.equal(fm.commitment(s), 'f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42');
  assert.equal(fm.roundSignature(s, c, 1), '90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac');
  assert.deepEqual(fm.drawOrder(s, c, 1, 3), [9, 6, 18]);
  assert.deepEqual(fm.minePositions(s, c, 1n, 3n), [7, 10, 19]);
});

test('commitment, roundSignature, minePositions, drawOrder: every vector, number and bigint nonces', () => {
  for (const v of cases) {
    const at = `vector ${v.id}`;
    assert.equal(fm.commitment(v.server_seed), v.commitment, at);
    for (const nonce of [v.nonce, BigInt(v.nonce)]) {
      assert.equal(fm.roundSignature(v.server_seed, v.client_seed, nonce), v.signature, at);
      assert.deepEqual(fm.minePositions(v.server_seed, v.client_seed, nonce, v.mines), v.positions, at);
      assert.deepEqual(fm.drawOrder(v.server_seed, v.client_seed, nonce, v.mines), v.draw_order, at);
    }
  }
});

test('verify: every vector, with and without the published values, and with a tampered board', () => {
  for (const v of cases) {
    const at = `vector ${v.id}`;
    const round = { serverSeed: v.server_seed, clientSeed: v.client_seed, nonce: BigInt(v.nonce), mines: v.mines };
    const full = fm.verify({ ...round, commitment: v.commitment.toUpperCase(), positions: [...v.positions].reverse() });
    assert.deepEqual({ ...full }, {
      commitment: v.commitment,
      signature: v.signature,
      positions: v.positions,
      drawOrder: v.draw_order,
      wordsUsed: v.words_used,
      commitmentOk: true,
      positionsOk: true,
      verdict: 'ok',
      ok: true,
      inputDoubts: [],
    }, at);
    const bare = fm.verify({ ...round, nonce: v.nonce, commitment: null });
    assert.deepEqual([bare.verdict, bare.ok, bare.commitmentOk, bare.positionsOk], ['unchecked', false, null, null], at);
    const free = [...Array(25).keys()].map((i) => i + 1).find((t) => !v.positions.includes(t));
    const bad = fm.verify({ ...round, commitment: v.commitment, positions: Uint8Array.from([free, ...v.positions.slice(1)]) });
    assert.deepEqual([bad.ok, bad.verdict, bad.positionsOk, bad.commitmentOk], [false, 'mismatch', false, true], at);
    const wrongSeed = fm.verify({ ...round, commitment: fm.commitment(`${v.server_seed}x`) });
    assert.deepEqual([wrongSeed.ok, wrongSeed.verdict, wrongSeed.commitmentOk], [false, 'mismatch', false], at);
  }
});

test('a rejected draw: more words read than mines, as the vectors say', () => {
  const v = cases.find((c) => c.rejected.some((r) => r.draw > 0));
  const result = fm.verify({ serverSeed: v.server_seed, clientSeed: v.client_seed, nonce: v.nonce, mines: v.mines });
  assert.ok(result.wordsUsed > v.mines);
  assert.deepEqual([result.positions, result.wordsUsed], [v.positions, v.words_used]);
});
