'use strict';
// Conversion of the batches' arguments, which only this package has: every wrong type (a TypeError naming
// it, nonces by index) and out-of-range value (the core's error under the argument's name), sync and async.
// The same arguments of the single-round functions are the shared suite's (tests/js-conformance/rounds.mjs);
// the batches' options and ranges are in batch.test.js.
const test = require('node:test');
const assert = require('node:assert/strict');
const fm = require('fairmines');
const { expectError } = require('./helpers');

const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
const T = TypeError;
const R = RangeError;
const TYPE = 'ERR_INVALID_ARG_TYPE';

test('nonces: an element out of range or not an integer is a RangeError naming it; the last nonce is accepted', () => {
  const bad = [-1, -0.5, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 1e300, NaN, Infinity, -Infinity, -1n, 2n ** 64n, -(2n ** 64n), 2n ** 128n];
  for (const nonce of bad) expectError(() => fm.minePositionsBatch(S, C, [nonce], 3), R, 'FAIRMINES_INVALID_NONCE', 'nonces', 'nonces[0]');
  assert.throws(() => fm.minePositionsBatch(S, C, [1, 2, NaN], 3),
    (e) => e.message === 'nonces[2]: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got NaN', 'the core\'s text under the element\'s name');
  assert.deepEqual(fm.minePositionsBatch(S, C, [2n ** 64n - 1n], 2), Uint8Array.from(fm.minePositions(S, C, 2n ** 64n - 1n, 2)));
});

test('nonces: an element of a wrong type is a TypeError naming it', () => {
  for (const nonce of ['1', null, undefined, {}, [1], true, Symbol('n'), new Number(1)]) {
    expectError(() => fm.minePositionsBatch(S, C, [0, nonce], 3), T, TYPE, 'nonces', 'nonces[1]');
  }
});

test('mines and seeds of a batch: the single-round rules, named alike', () => {
  for (const mines of [0, 25, -1, 3.9, 1.0000001, 24.5, NaN, Infinity, 2 ** 70, 0n, 25n, -(2n ** 200n)]) {
    expectError(() => fm.minePositionsBatch(S, C, [1], mines), R, 'FAIRMINES_INVALID_MINES', 'mines');
  }
  for (const mines of ['3', null, undefined, {}, [3], true]) expectError(() => fm.minePositionsBatch(S, C, [1], mines), T, TYPE, 'mines');
  for (const seed of [1, null, undefined, {}, ['a'], Buffer.from('ab'), new String('ab')]) {
    expectError(() => fm.minePositionsBatch(seed, C, [1], 3), T, TYPE, 'serverSeed');
  }
});

test('nonces: not a range, a BigUint64Array, a Uint32Array or an array is a TypeError; a bad element is named', () => {
  for (const nonces of [1, 1n, 'abc', null, undefined, new Int32Array(2), new BigInt64Array(2), new Float64Array(1), new Uint8Array(1)]) {
    expectError(() => fm.minePositionsBatch(S, C, nonces, 3), T, TYPE, 'nonces');
  }
  // Any other object is read as a { start, count } range: its missing or unknown fields are named.
  for (const [nonces, label] of [[{}, 'nonces.start'], [new Set([1]), 'nonces.start'], [{ start: 1 }, 'nonces.count'], [{ start: 1, count: 2, end: 3 }, 'nonces.end']]) {
    expectError(() => fm.minePositionsBatch(S, C, nonces, 3), T, TYPE, 'nonces', label);
  }
  expectError(() => fm.minePositionsBatch(S, C, [1, , 3], 3), T, TYPE, 'nonces', 'nonces[1]');
  expectError(() => fm.minePositionsBatch(S, C, [1, 2, -3], 3), R, 'FAIRMINES_INVALID_NONCE', 'nonces', 'nonces[2]');
  assert.deepEqual(fm.minePositionsBatch(S, C, [], 3), new Uint8Array(0));
  assert.deepEqual(fm.minePositionsBatch(S, C, new BigUint64Array(0), 24), new Uint8Array(0));
  assert.deepEqual(fm.minePositionsBatch(S, C, [1, 1n], 3n), Uint8Array.from([7, 10, 19, 7, 10, 19]));
});

test('minePositionsBatchAsync: bad arguments reject the Promise (never throw)', async () => {
  const cases = [
    [[1, C, [1], 3], T, TYPE, 'serverSeed'],
    [[S, C, 'nonces', 3], T, TYPE, 'nonces'],
    [[S, C, [1, -1], 3], R, 'FAIRMINES_INVALID_NONCE', 'nonces'],
    [[S, C, [1, 1n, -1], 3], R, 'FAIRMINES_INVALID_NONCE', 'nonces'],
    [[S, C, { start: 2n ** 64n - 1n, count: 2 }, 3], R, 'FAIRMINES_INVALID_NONCE', 'nonces'],
    [[S, C, { start: 0, count: 1 }, 3, { threads: 0 }], R, 'FAIRMINES_INVALID_NUMBER', 'options'],
    [[S, C, { start: 0, count: 1 }, 3, { signal: {} }], T, TYPE, 'options'],
    [[S, C, [1], 25], R, 'FAIRMINES_INVALID_MINES', 'mines'],
    [[S, C, [1], 3.9], R, 'FAIRMINES_INVALID_MINES', 'mines'],
    [[S, C, [1], '3'], T, TYPE, 'mines'],
    [[S, '\udc00', [1], 3], R, 'FAIRMINES_INVALID_UTF8', 'clientSeed'],
  ];
  for (const [args, Class, code, argument] of cases) {
    let promise;
    assert.doesNotThrow(() => { promise = fm.minePositionsBatchAsync(...args); });
    await assert.rejects(promise, (error) => {
      assert.deepEqual([error.constructor, error.code, error.argument], [Class, code, argument]);
      return true;
    });
  }
});
