// The error mapping: the list of the core's error kinds, every kind a call of the package can cause thrown with
// its code and errno, core messages composed under the argument's name and never rewritten.
import test from 'node:test';
import assert from 'node:assert/strict';
import { C, R, S, errorModel } from './check.mjs';

/** No JavaScript call reaches these: an OS generator failure, a finite word source, an output buffer. */
const NEVER = ['FAIRMINES_RNG_FAILED', 'FAIRMINES_STREAM_EXHAUSTED', 'FAIRMINES_BUFFER_TOO_SMALL'];

/**
 * `profile.raise`: a call for each kind only the package's own API causes (the game's state errors);
 * `profile.unreachable`: the kinds no call of the package causes, beyond the three no JavaScript call reaches.
 */
export function errorTests(fm, profile) {
  const { expectError } = errorModel(fm);

  test('errorKinds(): the core\'s kinds in order, as codes FAIRMINES_<NAME> with errno 1, 2, …', () => {
    const kinds = fm.errorKinds();
    assert.ok(kinds.length >= 17);
    kinds.forEach((kind, i) => {
      assert.deepEqual(Object.keys(kind), ['code', 'errno', 'summary']);
      assert.equal(kind.errno, i + 1);
      assert.match(kind.code, /^FAIRMINES_[A-Z0-9]+(_[A-Z0-9]+)*$/);
      assert.match(kind.summary, /^[A-Z].*\.$/);
    });
    assert.equal(new Set(kinds.map((k) => k.code)).size, kinds.length, 'codes are unique');
    assert.deepEqual([kinds[6].code, kinds[7].code], ['FAIRMINES_RNG_FAILED', 'FAIRMINES_BUFFER_TOO_SMALL']);
    // The state errors of the game are listed by a package that does not play it all the same.
    assert.deepEqual(kinds.slice(15, 18).map((k) => [k.errno, k.code]),
      [[16, 'FAIRMINES_ROUNDS_IN_PLAY'], [17, 'FAIRMINES_ROUND_VOIDED'], [18, 'FAIRMINES_ROUND_NOT_IN_PLAY']]);
    assert.match(kinds[17].summary, /^No round of the seed pair to go on with at that nonce/);
  });

  test('every error kind a call can cause is thrown with the code and errno of errorKinds()', () => {
    const raise = {
      FAIRMINES_INVALID_MINES: () => fm.minePositions(S, C, 1, 25),
      FAIRMINES_INVALID_NONCE: () => fm.roundSignature(S, C, -1),
      FAIRMINES_INVALID_TILE: () => fm.verify({ serverSeed: S, clientSeed: C, nonce: 1, mines: 3, positions: [26] }),
      FAIRMINES_INVALID_HEX: () => fm.verify({ serverSeed: S, clientSeed: C, nonce: 1, mines: 3, commitment: 'f5ec' }),
      FAIRMINES_INVALID_UTF8: () => fm.commitment('\ud800'),
      FAIRMINES_INVALID_RTP: () => fm.payoutTable('1.5'),
      FAIRMINES_INVALID_PICKS: () => fm.multiplier(3, 23, '1'),
      FAIRMINES_INVALID_NUMBER: () => fm.Ratio.parse('x'),
      FAIRMINES_INVALID_STATE: () => fm.recordFromJson('{}'),
      ...profile.raise,
    };
    const unreachable = new Set([...NEVER, ...profile.unreachable]);
    for (const kind of fm.errorKinds()) {
      if (unreachable.has(kind.code)) continue;
      assert.ok(raise[kind.code], `${kind.code} (a new kind?): add a call that raises it, or list it as unreachable`);
      let caught;
      try {
        raise[kind.code]();
      } catch (error) {
        caught = error;
      }
      assert.ok(caught, `${kind.code}: nothing thrown`);
      assert.deepEqual([caught.code, caught.errno], [kind.code, kind.errno], caught.message);
      assert.equal(caught.constructor, caught.argument === undefined ? Error : RangeError, caught.message);
    }
    assert.deepEqual(Object.keys(raise).sort(), fm.errorKinds().map((k) => k.code).filter((c) => !unreachable.has(c)).sort());
  });

  test('a core error is composed, never rewritten: the label, then the core\'s text', () => {
    const cases = [
      [() => fm.minePositions(S, C, 1, 3.9), 'mines: must be a whole number from 1 to 24, got 3.9'],
      [() => fm.minePositions(S, C, 1, 25n), 'mines: must be a whole number from 1 to 24, got 25'],
      [() => fm.roundSignature(S, C, -1), 'nonce: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got -1'],
      [() => fm.roundSignature(S, C, 2n ** 64n), 'nonce: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got 18446744073709551616'],
      [() => fm.roundSignature(S, C, 2n ** 127n), 'nonce: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got 170141183460469231731687303715884105728'],
      [() => fm.roundSignature(S, C, -(2n ** 127n)), 'nonce: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got -170141183460469231731687303715884105728'],
      [() => fm.roundSignature(S, C, -(2n ** 127n) - 1n), 'nonce: must be a whole number from 0 to 18446744073709551615 (2^64 - 1), got an integer below -2^127'],
      [() => fm.verify({ serverSeed: S, clientSeed: C, nonce: 1, mines: 3, positions: [7, 10.5] }), 'positions: tile 10.5 at index 1 is not between 1 and 25'],
      [() => fm.commitment('a\udfffb'), 'serverSeed: is not valid UTF-8'],
    ];
    for (const [fn, message] of cases) assert.throws(fn, (e) => e.message === message, message);
    assert.throws(() => fm.roundSignature(S, C, 2 ** 53), /got 9007199254740992 \(a float is exact only up to 9007199254740991\)/);
  });

  test('errors are ordinary Error instances with a stack', () => {
    const e = expectError(() => fm.minePositions(S, C, 1, 0), R, 'FAIRMINES_INVALID_MINES', 'mines');
    assert.ok(e instanceof Error);
    assert.equal(e.name, 'RangeError');
    assert.equal(typeof e.stack, 'string');
  });
}
