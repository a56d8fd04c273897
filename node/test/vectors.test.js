'use strict';
// Every case of vectors/vectors.json through the batches, which only this package has (the single-round
// functions and verify run them in the shared suite, tests/js-conformance/vectors.mjs).
const test = require('node:test');
const assert = require('node:assert/strict');
const fm = require('fairmines');
const { loadVectors } = require('./helpers');

const { cases } = loadVectors();

/** The vectors grouped by seed pair and mine count: the batches they make. */
function batches() {
  const groups = new Map();
  for (const v of cases) {
    const key = JSON.stringify([v.server_seed, v.client_seed, v.mines]);
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(v);
  }
  return [...groups.values()];
}

/** The three accepted forms of a nonce list. */
function nonceForms(rows) {
  const forms = [
    ['numbers', rows.map((v) => v.nonce)],
    ['bigints', rows.map((v) => BigInt(v.nonce))],
    ['numbers and bigints', rows.map((v, i) => (i % 2 ? BigInt(v.nonce) : v.nonce))],
    ['BigUint64Array', BigUint64Array.from(rows.map((v) => BigInt(v.nonce)))],
  ];
  if (rows.every((v) => v.nonce <= 0xffffffff)) forms.push(['Uint32Array', Uint32Array.from(rows.map((v) => v.nonce))]);
  const first = BigInt(rows[0].nonce);
  if (rows.every((v, i) => BigInt(v.nonce) === first + BigInt(i))) forms.push(['range', { start: first, count: rows.length }]);
  return forms;
}

function expectedRows(rows) {
  return Uint8Array.from(rows.flatMap((v) => v.positions));
}

test('minePositionsBatch: every vector, every form of the nonces that holds them', () => {
  const groups = batches();
  assert.ok(groups.some((g) => g.length > 1), 'no seed pair with several vectors');
  for (const rows of groups) {
    const { server_seed: s, client_seed: c, mines } = rows[0];
    for (const [form, nonces] of nonceForms(rows)) {
      const out = fm.minePositionsBatch(s, c, nonces, mines);
      assert.ok(out instanceof Uint8Array);
      assert.deepEqual(out, expectedRows(rows), `vectors ${rows.map((v) => v.id)} as ${form}`);
    }
  }
});

test('minePositionsBatchAsync: every vector, every form of the nonces that holds them', async () => {
  const jobs = [];
  for (const rows of batches()) {
    const { server_seed: s, client_seed: c, mines } = rows[0];
    for (const [form, nonces] of nonceForms(rows)) {
      jobs.push(fm.minePositionsBatchAsync(s, c, nonces, mines).then((out) => {
        assert.ok(out instanceof Uint8Array);
        assert.deepEqual(out, expectedRows(rows), `vectors ${rows.map((v) => v.id)} as ${form}`);
      }));
    }
  }
  await Promise.all(jobs);
});

test('one large batch agrees with single calls (the multi-threaded path)', async () => {
  const v = cases.find((c) => c.id === 'worked-example');
  const count = 20000;
  const nonces = BigUint64Array.from({ length: count }, (_, i) => BigInt(i) * 7919n);
  const sync = fm.minePositionsBatch(v.server_seed, v.client_seed, nonces, 5);
  const async_ = await fm.minePositionsBatchAsync(v.server_seed, v.client_seed, nonces, 5);
  assert.deepEqual(async_, sync);
  for (let i = 0; i < count; i += 997) {
    assert.deepEqual([...sync.subarray(5 * i, 5 * i + 5)], fm.minePositions(v.server_seed, v.client_seed, nonces[i], 5));
  }
});
