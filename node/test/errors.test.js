'use strict';
// Every bad input: the right JavaScript error class, a `code`, the argument at fault.
const test = require('node:test');
const assert = require('node:assert/strict');
const fm = require('fairmines');

const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';

/** The error `fn` throws, checked against its class, code, core number and argument. */
function expectError(fn, Class, code, argument, messageStart = argument) {
  let caught;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught, `expected ${Class.name} ${code}, nothing thrown: ${fn}`);
  assert.equal(caught.constructor, Class, `${fn}: ${caught.stack}`);
  assert.equal(caught.code, code, `${fn}: ${caught.message}`);
  assert.equal(caught.argument, argument, `${fn}: ${caught.message}`);
  assert.ok(caught.message.startsWith(`${messageStart}:`), `${fn}: message does not name ${messageStart}: ${caught.message}`);
  const errno = { FAIRMINES_INVALID_MINES: 1, FAIRMINES_INVALID_NONCE: 2, FAIRMINES_INVALID_TILE: 3, FAIRMINES_INVALID_HEX: 4, FAIRMINES_INVALID_UTF8: 5 }[code];
  assert.equal(caught.errno, errno, `${fn}: errno`);
  return caught;
}

const round = (nonce, mines) => [
  ['minePositions', () => fm.minePositions(S, C, nonce, mines)],
  ['drawOrder', () => fm.drawOrder(S, C, nonce, mines)],
  ['minePositionsBatch', () => fm.minePositionsBatch(S, C, [nonce], mines)],
];

test('nonce: out of range or not an integer is a RangeError', () => {
  const bad = [-1, -0.5, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 1e300, NaN, Infinity, -Infinity, -1n, 2n ** 64n, -(2n ** 64n), 2n ** 128n];
  for (const nonce of bad) {
    expectError(() => fm.roundSignature(S, C, nonce), RangeError, 'FAIRMINES_INVALID_NONCE', 'nonce');
    for (const [name, fn] of round(nonce, 3)) {
      const label = name === 'minePositionsBatch' ? 'nonces[0]' : 'nonce';
      expectError(fn, RangeError, 'FAIRMINES_INVALID_NONCE', name === 'minePositionsBatch' ? 'nonces' : 'nonce', label);
    }
    expectError(() => fm.verify({ serverSeed: S, clientSeed: C, nonce, mines: 3 }), RangeError, 'FAIRMINES_INVALID_NONCE', 'nonce');
  }
});

test('nonce: the edges that are accepted', () => {
  assert.equal(fm.roundSignature(S, C, Number.MAX_SAFE_INTEGER), fm.roundSignature(S, C, BigInt(Number.MAX_SAFE_INTEGER)));
  assert.equal(fm.roundSignature(S, C, 0), fm.roundSignature(S, C, 0n));
  assert.equal(fm.roundSignature(S, C, -0), fm.roundSignature(S, C, 0n));
  assert.match(fm.roundSignature(S, C, 2n ** 64n - 1n), /^[0-9a-f]{64}$/);
  assert.deepEqual(fm.minePositionsBatch(S, C, [2n ** 64n - 1n], 2), Uint8Array.from(fm.minePositions(S, C, 2n ** 64n - 1n, 2)));
});

test('nonce: a wrong type is a TypeError', () => {
  for (const nonce of ['1', null, undefined, {}, [1], true, Symbol('n'), new Number(1)]) {
    expectError(() => fm.roundSignature(S, C, nonce), TypeError, 'ERR_INVALID_ARG_TYPE', 'nonce');
    expectError(() => fm.minePositions(S, C, nonce, 3), TypeError, 'ERR_INVALID_ARG_TYPE', 'nonce');
    expectError(() => fm.minePositionsBatch(S, C, [0, nonce], 3), TypeError, 'ERR_INVALID_ARG_TYPE', 'nonces', 'nonces[1]');
  }
});

test('mines: outside 1..=24 or not an integer is a RangeError (3.9 is not truncated)', () => {
  for (const mines of [0, 25, -1, 3.9, 1.0000001, 24.5, NaN, Infinity, 2 ** 70]) {
    for (const [, fn] of round(1, mines)) {
      expectError(fn, RangeError, 'FAIRMINES_INVALID_MINES', 'mines');
    }
    expectError(() => fm.verify({ serverSeed: S, clientSeed: C, nonce: 1, mines }), RangeError, 'FAIRMINES_INVALID_MINES', 'mines');
  }
  const e = expectError(() => fm.minePositions(S, C, 1, 3.9), RangeError, 'FAIRMINES_INVALID_MINES', 'mines');
  assert.match(e.message, /3\.9/);
});

test('mines: a wrong type is a TypeError', () => {
  for (const mines of ['3', 3n, null, undefined, {}, [3]]) {
    for (const [, fn] of round(1, mines)) {
      expectError(fn, TypeError, 'ERR_INVALID_ARG_TYPE', 'mines');
    }
  }
});

test('seeds: a non-string is a TypeError', () => {
  for (const seed of [1, null, undefined, {}, ['a'], Buffer.from('ab'), new String('ab')]) {
    expectError(() => fm.commitment(seed), TypeError, 'ERR_INVALID_ARG_TYPE', 'serverSeed');
    expectError(() => fm.roundSignature(seed, C, 1), TypeError, 'ERR_INVALID_ARG_TYPE', 'serverSeed');
    expectError(() => fm.roundSignature(S, seed, 1), TypeError, 'ERR_INVALID_ARG_TYPE', 'clientSeed');
    expectError(() => fm.minePositions(S, seed, 1, 3), TypeError, 'ERR_INVALID_ARG_TYPE', 'clientSeed');
    expectError(() => fm.minePositionsBatch(seed, C, [1], 3), TypeError, 'ERR_INVALID_ARG_TYPE', 'serverSeed');
  }
});

test('seeds: a lone surrogate (no UTF-8 form) is a RangeError; a real U+FFFD is fine', () => {
  for (const seed of ['\ud800', 'a\udfffb', '\ud83d', 'x\ud83d:']) {
    expectError(() => fm.commitment(seed), RangeError, 'FAIRMINES_INVALID_UTF8', 'serverSeed');
    expectError(() => fm.minePositions(S, seed, 1, 3), RangeError, 'FAIRMINES_INVALID_UTF8', 'clientSeed');
  }
  const crypto = require('node:crypto');
  const sha3 = (s) => crypto.createHash('sha3-256').update(Buffer.from(s, 'utf8')).digest('hex');
  for (const seed of ['\ufffd', 'a\ufffdb', '\ud83d\ude00', '']) {
    assert.equal(fm.commitment(seed), sha3(seed));
  }
});

test('nonces: neither a BigUint64Array nor an array is a TypeError', () => {
  for (const nonces of [1, 1n, 'abc', null, undefined, {}, new Uint32Array(2), new BigInt64Array(2), new Float64Array(1), new Set([1])]) {
    expectError(() => fm.minePositionsBatch(S, C, nonces, 3), TypeError, 'ERR_INVALID_ARG_TYPE', 'nonces');
  }
  expectError(() => fm.minePositionsBatch(S, C, [1, , 3], 3), TypeError, 'ERR_INVALID_ARG_TYPE', 'nonces', 'nonces[1]');
  expectError(() => fm.minePositionsBatch(S, C, [1, 2, -3], 3), RangeError, 'FAIRMINES_INVALID_NONCE', 'nonces', 'nonces[2]');
  assert.deepEqual(fm.minePositionsBatch(S, C, [], 3), new Uint8Array(0));
  assert.deepEqual(fm.minePositionsBatch(S, C, new BigUint64Array(0), 24), new Uint8Array(0));
});

test('verify: bad rounds', () => {
  const ok = { serverSeed: S, clientSeed: C, nonce: 1, mines: 3 };
  for (const r of [null, undefined, 'round', 1]) {
    expectError(() => fm.verify(r), TypeError, 'ERR_INVALID_ARG_TYPE', 'round');
  }
  for (const key of ['serverSeed', 'clientSeed', 'nonce', 'mines']) {
    const { [key]: _, ...missing } = ok;
    expectError(() => fm.verify(missing), TypeError, 'ERR_INVALID_ARG_TYPE', key);
  }
  for (const commitment of ['', 'f5ec', 'z'.repeat(64), `${'0'.repeat(63)}g`, `${'0'.repeat(64)}0`]) {
    expectError(() => fm.verify({ ...ok, commitment }), RangeError, 'FAIRMINES_INVALID_HEX', 'commitment');
  }
  expectError(() => fm.verify({ ...ok, commitment: 5 }), TypeError, 'ERR_INVALID_ARG_TYPE', 'commitment');
  for (const positions of [[0], [26], [7, 10, -1], Array(26).fill(1)]) {
    expectError(() => fm.verify({ ...ok, positions }), RangeError, 'FAIRMINES_INVALID_TILE', 'positions');
  }
  expectError(() => fm.verify({ ...ok, positions: [7, 10.5, 19] }), RangeError, 'FAIRMINES_INVALID_TILE', 'positions', 'positions[1]');
  expectError(() => fm.verify({ ...ok, positions: [7, '10', 19] }), TypeError, 'ERR_INVALID_ARG_TYPE', 'positions', 'positions[1]');
  expectError(() => fm.verify({ ...ok, positions: '7,10,19' }), TypeError, 'ERR_INVALID_ARG_TYPE', 'positions');
  // null and undefined mean "not given": nothing is checked then, which is not ok.
  const none = fm.verify({ ...ok, positions: null, commitment: undefined });
  assert.deepEqual([none.ok, none.verdict, none.commitmentOk, none.positionsOk], [false, 'unchecked', null, null]);
  // Duplicates and wrong counts are accepted as declarations, and fail the check.
  assert.equal(fm.verify({ ...ok, positions: [7, 7, 19] }).positionsOk, false);
  assert.equal(fm.verify({ ...ok, positions: [7, 10] }).positionsOk, false);
  assert.equal(fm.verify({ ...ok, positions: [] }).positionsOk, false);
});

test('verify: a key that is not a field is a TypeError naming it (issue 21: a typo must not skip a check)', () => {
  const ok = { serverSeed: S, clientSeed: C, nonce: 1, mines: 3 };
  const commitment = fm.commitment(S);
  for (const [key, value] of [['commitmnet', commitment], ['position', [7, 10, 19]], ['server_seed', S], ['Commitment', commitment],
    ['extra', undefined], ['', 1], ['0', 1]]) {
    const e = expectError(() => fm.verify({ ...ok, [key]: value }), TypeError, 'ERR_INVALID_ARG_TYPE', 'round', `round.${key}`);
    assert.match(e.message, /unknown field/);
    assert.match(e.message, /serverSeed, clientSeed, nonce, mines, commitment, positions/, 'the message lists the fields');
    // With the right fields given as well, still refused: an extra key is never ignored.
    expectError(() => fm.verify({ ...ok, commitment, [key]: value }), TypeError, 'ERR_INVALID_ARG_TYPE', 'round', `round.${key}`);
  }
  // Checked before the fields, so the typo is named even when it replaces a required field.
  const { serverSeed: _, ...rest } = ok;
  expectError(() => fm.verify({ ...rest, serverseed: S }), TypeError, 'ERR_INVALID_ARG_TYPE', 'round', 'round.serverseed');
  // Only own enumerable string keys are fields: symbols, inherited and non-enumerable keys are not read.
  assert.equal(fm.verify({ ...ok, commitment, [Symbol('note')]: 1 }).ok, true);
  assert.equal(fm.verify(Object.assign(Object.create({ note: 1 }), ok, { commitment })).ok, true);
  assert.equal(fm.verify(Object.defineProperty({ ...ok, commitment }, 'note', { value: 1, enumerable: false })).ok, true);
  expectError(() => fm.verify([S, C, 1, 3]), TypeError, 'ERR_INVALID_ARG_TYPE', 'round', 'round.0');
});

test('verify: the verdict says whether a check was asked for', () => {
  const ok = { serverSeed: S, clientSeed: C, nonce: 1, mines: 3 };
  const commitment = fm.commitment(S);
  const positions = fm.minePositions(S, C, 1, 3);
  const cases = [
    [{}, 'unchecked', false, null, null],
    [{ commitment }, 'ok', true, true, null],
    [{ positions }, 'ok', true, null, true],
    [{ commitment, positions }, 'ok', true, true, true],
    [{ commitment: fm.commitment('other') }, 'mismatch', false, false, null],
    [{ positions: [1, 2, 3] }, 'mismatch', false, null, false],
    [{ commitment, positions: [1, 2, 3] }, 'mismatch', false, true, false],
  ];
  for (const [given, verdict, isOk, commitmentOk, positionsOk] of cases) {
    const result = fm.verify({ ...ok, ...given });
    assert.deepEqual([result.verdict, result.ok, result.commitmentOk, result.positionsOk], [verdict, isOk, commitmentOk, positionsOk], JSON.stringify(given));
    assert.deepEqual(result.positions, positions, 'the round is recomputed whatever the verdict');
  }
});

test('minePositionsBatchAsync: bad arguments reject the Promise (never throw)', async () => {
  const cases = [
    [[1, C, [1], 3], TypeError, 'ERR_INVALID_ARG_TYPE', 'serverSeed'],
    [[S, C, 'nonces', 3], TypeError, 'ERR_INVALID_ARG_TYPE', 'nonces'],
    [[S, C, [1, -1], 3], RangeError, 'FAIRMINES_INVALID_NONCE', 'nonces'],
    [[S, C, [1], 25], RangeError, 'FAIRMINES_INVALID_MINES', 'mines'],
    [[S, C, [1], 3.9], RangeError, 'FAIRMINES_INVALID_MINES', 'mines'],
    [[S, '\udc00', [1], 3], RangeError, 'FAIRMINES_INVALID_UTF8', 'clientSeed'],
  ];
  for (const [args, Class, code, argument] of cases) {
    let promise;
    assert.doesNotThrow(() => { promise = fm.minePositionsBatchAsync(...args); });
    await assert.rejects(promise, (error) => {
      assert.equal(error.constructor, Class);
      assert.equal(error.code, code);
      assert.equal(error.argument, argument);
      return true;
    });
  }
});

test('errors are ordinary Error instances with a stack', () => {
  const e = expectError(() => fm.minePositions(S, C, 1, 0), RangeError, 'FAIRMINES_INVALID_MINES', 'mines');
  assert.ok(e instanceof Error);
  assert.equal(e.name, 'RangeError');
  assert.equal(typeof e.stack, 'string');
});
