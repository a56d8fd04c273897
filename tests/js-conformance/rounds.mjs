// Conversion of the round functions' arguments (commitment, roundSignature, minePositions, drawOrder, verify):
// every wrong type is a TypeError naming the argument, every out-of-range value the core's error under the
// argument's JavaScript name; what each accepts; the fields of a verification.
import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { C, R, S, T, TYPE, errorModel } from './check.mjs';

/** The fields every verification has, in order. */
const VERIFICATION = ['commitment', 'signature', 'positions', 'drawOrder', 'wordsUsed', 'commitmentOk', 'positionsOk', 'verdict', 'ok'];

/** `profile.verifyFields`: what the package's verify adds to a verification that raises no doubt. */
export function roundTests(fm, profile) {
  const { expectError } = errorModel(fm);
  const round = (nonce, mines) => [() => fm.minePositions(S, C, nonce, mines), () => fm.drawOrder(S, C, nonce, mines)];

  test('nonce: out of range or not an integer is a RangeError', () => {
    const bad = [-1, -0.5, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 1e300, NaN, Infinity, -Infinity, -1n, 2n ** 64n, -(2n ** 64n), 2n ** 128n];
    for (const nonce of bad) {
      expectError(() => fm.roundSignature(S, C, nonce), R, 'FAIRMINES_INVALID_NONCE', 'nonce');
      for (const fn of round(nonce, 3)) expectError(fn, R, 'FAIRMINES_INVALID_NONCE', 'nonce');
      expectError(() => fm.verify({ serverSeed: S, clientSeed: C, nonce, mines: 3 }), R, 'FAIRMINES_INVALID_NONCE', 'nonce');
    }
  });

  test('nonce: the edges that are accepted, as a number or a bigint', () => {
    assert.equal(fm.roundSignature(S, C, Number.MAX_SAFE_INTEGER), fm.roundSignature(S, C, BigInt(Number.MAX_SAFE_INTEGER)));
    assert.equal(fm.roundSignature(S, C, 0), fm.roundSignature(S, C, 0n));
    assert.equal(fm.roundSignature(S, C, -0), fm.roundSignature(S, C, 0n));
    assert.equal(fm.roundSignature(S, C, 7.0), fm.roundSignature(S, C, 7n));
    assert.match(fm.roundSignature(S, C, 2n ** 64n - 1n), /^[0-9a-f]{64}$/);
  });

  test('nonce: a wrong type is a TypeError', () => {
    for (const nonce of ['1', null, undefined, {}, [1], true, Symbol('n'), new Number(1)]) {
      expectError(() => fm.roundSignature(S, C, nonce), T, TYPE, 'nonce');
      expectError(() => fm.minePositions(S, C, nonce, 3), T, TYPE, 'nonce');
    }
  });

  test('mines: outside 1..=24 or not an integer is a RangeError (3.9 is not truncated); a bigint is a number too', () => {
    for (const mines of [0, 25, -1, 3.9, 1.0000001, 24.5, NaN, Infinity, 2 ** 70, 0n, 25n, -(2n ** 200n)]) {
      for (const fn of round(1, mines)) expectError(fn, R, 'FAIRMINES_INVALID_MINES', 'mines');
      expectError(() => fm.verify({ serverSeed: S, clientSeed: C, nonce: 1, mines }), R, 'FAIRMINES_INVALID_MINES', 'mines');
    }
    assert.deepEqual(fm.minePositions(S, C, 1n, 3n), [7, 10, 19]);
    assert.deepEqual(fm.drawOrder(S, C, 1, 3.0), [9, 6, 18]);
    assert.equal(fm.verify({ serverSeed: S, clientSeed: C, nonce: 1n, mines: 3n, positions: [7n, 10, 19n] }).ok, true);
  });

  test('mines: a wrong type is a TypeError', () => {
    for (const mines of ['3', null, undefined, {}, [3], true]) {
      for (const fn of round(1, mines)) expectError(fn, T, TYPE, 'mines');
    }
  });

  test('seeds: a non-string is a TypeError', () => {
    for (const seed of [1, null, undefined, {}, ['a'], Buffer.from('ab'), new Uint8Array(2), new String('ab')]) {
      expectError(() => fm.commitment(seed), T, TYPE, 'serverSeed');
      expectError(() => fm.roundSignature(seed, C, 1), T, TYPE, 'serverSeed');
      expectError(() => fm.roundSignature(S, seed, 1), T, TYPE, 'clientSeed');
      expectError(() => fm.minePositions(S, seed, 1, 3), T, TYPE, 'clientSeed');
    }
  });

  test('seeds: a lone surrogate (no UTF-8 form) is a RangeError; a real U+FFFD is fine', () => {
    for (const seed of ['\ud800', 'a\udfffb', '\ud83d', 'x\ud83d:']) {
      expectError(() => fm.commitment(seed), R, 'FAIRMINES_INVALID_UTF8', 'serverSeed');
      expectError(() => fm.minePositions(S, seed, 1, 3), R, 'FAIRMINES_INVALID_UTF8', 'clientSeed');
    }
    const sha3 = (s) => crypto.createHash('sha3-256').update(Buffer.from(s, 'utf8')).digest('hex');
    for (const seed of ['\ufffd', 'a\ufffdb', '\ud83d\ude00', '']) assert.equal(fm.commitment(seed), sha3(seed));
  });

  test('verify: bad rounds, commitments and positions', () => {
    const ok = { serverSeed: S, clientSeed: C, nonce: 1, mines: 3 };
    for (const r of [null, undefined, 'round', 1]) expectError(() => fm.verify(r), T, TYPE, 'round');
    for (const key of ['serverSeed', 'clientSeed', 'nonce', 'mines']) {
      const { [key]: _, ...missing } = ok;
      expectError(() => fm.verify(missing), T, TYPE, key);
    }
    for (const commitment of ['', 'f5ec', 'z'.repeat(64), `${'0'.repeat(63)}g`, `${'0'.repeat(64)}0`]) {
      expectError(() => fm.verify({ ...ok, commitment }), R, 'FAIRMINES_INVALID_HEX', 'commitment');
    }
    expectError(() => fm.verify({ ...ok, commitment: 5 }), T, TYPE, 'commitment');
    for (const positions of [[0], [26], [7, 10, -1], [7, 10.5, 19], [7, 2n ** 70n], Array(26).fill(1)]) {
      expectError(() => fm.verify({ ...ok, positions }), R, 'FAIRMINES_INVALID_TILE', 'positions');
    }
    expectError(() => fm.verify({ ...ok, positions: [7, '10', 19] }), T, TYPE, 'positions', 'positions[1]');
    for (const positions of ['7,10,19', 7, {}, new Uint16Array([7, 10, 19])]) expectError(() => fm.verify({ ...ok, positions }), T, TYPE, 'positions');
    // A Uint8Array is a list of tiles too, read where it starts in its buffer (a row of a batch is one).
    const rows = Uint8Array.from([1, 2, 3, 7, 10, 19, 4, 5, 6]);
    assert.equal(fm.verify({ ...ok, positions: rows.subarray(3, 6) }).positionsOk, true);
    assert.equal(fm.verify({ ...ok, positions: rows.subarray(0, 3) }).positionsOk, false);
    assert.equal(fm.verify({ ...ok, positions: Uint8Array.from([19, 7, 10]) }).positionsOk, true);
    expectError(() => fm.verify({ ...ok, positions: Uint8Array.from([7, 10, 26]) }), R, 'FAIRMINES_INVALID_TILE', 'positions');
    expectError(() => fm.verify({ ...ok, positions: new Uint8Array(26).fill(1) }), R, 'FAIRMINES_INVALID_TILE', 'positions');
    // null and undefined mean "not given": nothing is checked then, which is not ok.
    const none = fm.verify({ ...ok, positions: null, commitment: undefined });
    assert.deepEqual([none.ok, none.verdict, none.commitmentOk, none.positionsOk], [false, 'unchecked', null, null]);
    assert.equal(fm.verify({ ...ok, commitment: null }).verdict, 'unchecked');
    // Duplicates and wrong counts are accepted as declarations, and fail the check.
    assert.equal(fm.verify({ ...ok, positions: [7, 7, 19] }).positionsOk, false);
    assert.equal(fm.verify({ ...ok, positions: [7, 10] }).positionsOk, false);
    assert.equal(fm.verify({ ...ok, positions: [] }).positionsOk, false);
  });

  test('verify: a key that is not a field is a TypeError naming it (a typo must not skip a check)', () => {
    const ok = { serverSeed: S, clientSeed: C, nonce: 1, mines: 3 };
    const commitment = fm.commitment(S);
    const typo = expectError(() => fm.verify({ ...ok, commitmnet: 'f5ec' }), T, TYPE, 'round', 'round.commitmnet');
    assert.equal(typo.message, 'round.commitmnet: unknown field: a published round has only serverSeed, clientSeed, nonce, mines, commitment, positions');
    for (const [key, value] of [['commitmnet', commitment], ['position', [7, 10, 19]], ['server_seed', S], ['Commitment', commitment],
      ['extra', undefined], ['', 1], ['0', 1]]) {
      const e = expectError(() => fm.verify({ ...ok, [key]: value }), T, TYPE, 'round', `round.${key}`);
      assert.match(e.message, /unknown field/);
      assert.match(e.message, /serverSeed, clientSeed, nonce, mines, commitment, positions/, 'the message lists the fields');
      // With the right fields given as well, still refused: an extra key is never ignored.
      expectError(() => fm.verify({ ...ok, commitment, [key]: value }), T, TYPE, 'round', `round.${key}`);
    }
    // Checked before the fields, so the typo is named even when it replaces a required field.
    const { serverSeed: _, ...rest } = ok;
    expectError(() => fm.verify({ ...rest, serverseed: S }), T, TYPE, 'round', 'round.serverseed');
    // Only own enumerable string keys are fields: symbols, inherited and non-enumerable keys are not read.
    assert.equal(fm.verify({ ...ok, commitment, [Symbol('note')]: 1 }).ok, true);
    assert.equal(fm.verify(Object.assign(Object.create({ note: 1 }), ok, { commitment })).ok, true);
    assert.equal(fm.verify(Object.defineProperty({ ...ok, commitment }, 'note', { value: 1, enumerable: false })).ok, true);
    expectError(() => fm.verify([S, C, 1, 3]), T, TYPE, 'round', 'round.0');
  });

  test('verify: the verdict says whether a check was asked for; the result has every field', () => {
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
      assert.deepEqual(Object.keys(result), [...VERIFICATION, ...Object.keys(profile.verifyFields)]);
      assert.deepEqual([result.verdict, result.ok, result.commitmentOk, result.positionsOk], [verdict, isOk, commitmentOk, positionsOk], JSON.stringify(given));
      assert.deepEqual([result.positions, result.wordsUsed], [positions, 3], 'the round is recomputed whatever the verdict');
    }
  });
}
