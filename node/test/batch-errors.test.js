'use strict';
// Conversion and error mapping of hashing, placement, verify and the batches: every argument's wrong type
// (a TypeError naming it) and out-of-range value (the core's error, its code and errno, the argument named
// as JavaScript spells it, the message `label: ` + the core's own text), and the list of error kinds,
// walked kind by kind against what the package throws.
const test = require('node:test');
const assert = require('node:assert/strict');
const fm = require('fairmines');
const { expectError } = require('./helpers');

const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
const T = TypeError;
const R = RangeError;
const TYPE = 'ERR_INVALID_ARG_TYPE';

const round = (nonce, mines) => [
  ['minePositions', () => fm.minePositions(S, C, nonce, mines)],
  ['drawOrder', () => fm.drawOrder(S, C, nonce, mines)],
  ['minePositionsBatch', () => fm.minePositionsBatch(S, C, [nonce], mines)],
];

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
});

test('every error kind a call can cause is thrown with the code and errno of errorKinds()', () => {
  const pair = () => fm.SeedPair.fromParts(S, C, 1);
  const finished = () => {
    const r = pair().startRound(3, '0.99');
    r.reveal(7); // a mine
    return r;
  };
  const raise = {
    FAIRMINES_INVALID_MINES: () => fm.minePositions(S, C, 1, 25),
    FAIRMINES_INVALID_NONCE: () => fm.roundSignature(S, C, -1),
    FAIRMINES_INVALID_TILE: () => pair().startRound(3, '0.99').reveal(26),
    FAIRMINES_INVALID_HEX: () => fm.verify({ serverSeed: S, clientSeed: C, nonce: 1, mines: 3, commitment: 'f5ec' }),
    FAIRMINES_INVALID_UTF8: () => fm.commitment('\ud800'),
    FAIRMINES_TILE_ALREADY_REVEALED: () => {
      const r = pair().startRound(3, '0.99');
      r.reveal(1);
      r.reveal(1);
    },
    FAIRMINES_ROUND_FINISHED: () => finished().cashOut(),
    FAIRMINES_NOTHING_TO_CASH_OUT: () => pair().startRound(3, '0.99').cashOut(),
    FAIRMINES_INVALID_RTP: () => fm.payoutTable('1.5'),
    FAIRMINES_INVALID_PICKS: () => fm.multiplier(3, 23, '1'),
    FAIRMINES_INVALID_NUMBER: () => fm.Ratio.parse('x'),
    FAIRMINES_INVALID_STATE: () => fm.recordFromJson('{}'),
    FAIRMINES_ROUNDS_IN_PLAY: () => {
      const p = pair();
      p.startRound(3, '0.99');
      p.rotate();
    },
    FAIRMINES_ROUND_VOIDED: () => {
      const p = pair();
      const r = p.startRound(3, '0.99');
      p.voidOpenRounds();
      r.cashOut();
    },
    FAIRMINES_ROUND_NOT_IN_PLAY: () => pair().round(0), // never started: the pair's first nonce is 1
  };
  // No JavaScript call reaches these: an OS generator failure, a finite word source, an output buffer.
  const unreachable = new Set(['FAIRMINES_RNG_FAILED', 'FAIRMINES_STREAM_EXHAUSTED', 'FAIRMINES_BUFFER_TOO_SMALL']);
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
    [() => fm.minePositions(S, C, 1, 3.9), 'mines: must be an integer in 1..=24, got 3.9'],
    [() => fm.minePositions(S, C, 1, 25n), 'mines: must be an integer in 1..=24, got 25'],
    [() => fm.roundSignature(S, C, -1), 'nonce: must be an integer in 0..=18446744073709551615 (2^64 - 1), got -1'],
    [() => fm.roundSignature(S, C, 2n ** 64n), 'nonce: must be an integer in 0..=18446744073709551615 (2^64 - 1), got 18446744073709551616'],
    [() => fm.roundSignature(S, C, 2n ** 127n), 'nonce: must be an integer in 0..=18446744073709551615 (2^64 - 1), got 170141183460469231731687303715884105728'],
    [() => fm.roundSignature(S, C, -(2n ** 127n)), 'nonce: must be an integer in 0..=18446744073709551615 (2^64 - 1), got -170141183460469231731687303715884105728'],
    [() => fm.roundSignature(S, C, -(2n ** 127n) - 1n), 'nonce: must be an integer in 0..=18446744073709551615 (2^64 - 1), got an integer below -2^127'],
    [() => fm.minePositionsBatch(S, C, [1, 2, NaN], 3), 'nonces[2]: must be an integer in 0..=18446744073709551615 (2^64 - 1), got NaN'],
    [() => fm.verify({ serverSeed: S, clientSeed: C, nonce: 1, mines: 3, positions: [7, 10.5] }), 'positions: tile 10.5 at index 1 is outside 1..=25'],
    [() => fm.commitment('a\udfffb'), 'serverSeed: is not valid UTF-8'],
  ];
  for (const [fn, message] of cases) assert.throws(fn, (e) => e.message === message, message);
  assert.throws(() => fm.roundSignature(S, C, 2 ** 53), /got 9007199254740992 \(a float is exact only up to 9007199254740991\)/);
});

test('nonce: out of range or not an integer is a RangeError', () => {
  const bad = [-1, -0.5, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, 1e300, NaN, Infinity, -Infinity, -1n, 2n ** 64n, -(2n ** 64n), 2n ** 128n];
  for (const nonce of bad) {
    expectError(() => fm.roundSignature(S, C, nonce), R, 'FAIRMINES_INVALID_NONCE', 'nonce');
    for (const [name, fn] of round(nonce, 3)) {
      const batch = name === 'minePositionsBatch';
      expectError(fn, R, 'FAIRMINES_INVALID_NONCE', batch ? 'nonces' : 'nonce', batch ? 'nonces[0]' : 'nonce');
    }
    expectError(() => fm.verify({ serverSeed: S, clientSeed: C, nonce, mines: 3 }), R, 'FAIRMINES_INVALID_NONCE', 'nonce');
  }
});

test('nonce: the edges that are accepted, as a number or a bigint', () => {
  assert.equal(fm.roundSignature(S, C, Number.MAX_SAFE_INTEGER), fm.roundSignature(S, C, BigInt(Number.MAX_SAFE_INTEGER)));
  assert.equal(fm.roundSignature(S, C, 0), fm.roundSignature(S, C, 0n));
  assert.equal(fm.roundSignature(S, C, -0), fm.roundSignature(S, C, 0n));
  assert.equal(fm.roundSignature(S, C, 7.0), fm.roundSignature(S, C, 7n));
  assert.match(fm.roundSignature(S, C, 2n ** 64n - 1n), /^[0-9a-f]{64}$/);
  assert.deepEqual(fm.minePositionsBatch(S, C, [2n ** 64n - 1n], 2), Uint8Array.from(fm.minePositions(S, C, 2n ** 64n - 1n, 2)));
});

test('nonce: a wrong type is a TypeError', () => {
  for (const nonce of ['1', null, undefined, {}, [1], true, Symbol('n'), new Number(1)]) {
    expectError(() => fm.roundSignature(S, C, nonce), T, TYPE, 'nonce');
    expectError(() => fm.minePositions(S, C, nonce, 3), T, TYPE, 'nonce');
    expectError(() => fm.minePositionsBatch(S, C, [0, nonce], 3), T, TYPE, 'nonces', 'nonces[1]');
  }
});

test('mines: outside 1..=24 or not an integer is a RangeError (3.9 is not truncated); a bigint is a number too', () => {
  for (const mines of [0, 25, -1, 3.9, 1.0000001, 24.5, NaN, Infinity, 2 ** 70, 0n, 25n, -(2n ** 200n)]) {
    for (const [, fn] of round(1, mines)) expectError(fn, R, 'FAIRMINES_INVALID_MINES', 'mines');
    expectError(() => fm.verify({ serverSeed: S, clientSeed: C, nonce: 1, mines }), R, 'FAIRMINES_INVALID_MINES', 'mines');
  }
  assert.deepEqual(fm.minePositions(S, C, 1n, 3n), [7, 10, 19]);
  assert.deepEqual(fm.drawOrder(S, C, 1, 3.0), [9, 6, 18]);
  assert.equal(fm.verify({ serverSeed: S, clientSeed: C, nonce: 1n, mines: 3n, positions: [7n, 10, 19n] }).ok, true);
});

test('mines: a wrong type is a TypeError', () => {
  for (const mines of ['3', null, undefined, {}, [3], true]) {
    for (const [, fn] of round(1, mines)) expectError(fn, T, TYPE, 'mines');
  }
});

test('seeds: a non-string is a TypeError', () => {
  for (const seed of [1, null, undefined, {}, ['a'], Buffer.from('ab'), new String('ab')]) {
    expectError(() => fm.commitment(seed), T, TYPE, 'serverSeed');
    expectError(() => fm.roundSignature(seed, C, 1), T, TYPE, 'serverSeed');
    expectError(() => fm.roundSignature(S, seed, 1), T, TYPE, 'clientSeed');
    expectError(() => fm.minePositions(S, seed, 1, 3), T, TYPE, 'clientSeed');
    expectError(() => fm.minePositionsBatch(seed, C, [1], 3), T, TYPE, 'serverSeed');
  }
});

test('seeds: a lone surrogate (no UTF-8 form) is a RangeError; a real U+FFFD is fine', () => {
  for (const seed of ['\ud800', 'a\udfffb', '\ud83d', 'x\ud83d:']) {
    expectError(() => fm.commitment(seed), R, 'FAIRMINES_INVALID_UTF8', 'serverSeed');
    expectError(() => fm.minePositions(S, seed, 1, 3), R, 'FAIRMINES_INVALID_UTF8', 'clientSeed');
  }
  const crypto = require('node:crypto');
  const sha3 = (s) => crypto.createHash('sha3-256').update(Buffer.from(s, 'utf8')).digest('hex');
  for (const seed of ['\ufffd', 'a\ufffdb', '\ud83d\ude00', '']) assert.equal(fm.commitment(seed), sha3(seed));
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

test('verify: bad rounds', () => {
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
  expectError(() => fm.verify({ ...ok, positions: '7,10,19' }), T, TYPE, 'positions');
  expectError(() => fm.verify({ ...ok, positions: new Uint16Array([7, 10, 19]) }), T, TYPE, 'positions');
  // A Uint8Array is a list of tiles too: a row of a batch is checked as it comes.
  const rows = fm.minePositionsBatch(S, C, { start: 0, count: 2 }, 3);
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
    assert.deepEqual(Object.keys(result), ['commitment', 'signature', 'positions', 'drawOrder', 'wordsUsed', 'commitmentOk', 'positionsOk', 'verdict', 'ok']);
    assert.deepEqual([result.verdict, result.ok, result.commitmentOk, result.positionsOk], [verdict, isOk, commitmentOk, positionsOk], JSON.stringify(given));
    assert.deepEqual([result.positions, result.wordsUsed], [positions, 3], 'the round is recomputed whatever the verdict');
  }
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

test('errors are ordinary Error instances with a stack', () => {
  const e = expectError(() => fm.minePositions(S, C, 1, 0), R, 'FAIRMINES_INVALID_MINES', 'mines');
  assert.ok(e instanceof Error);
  assert.equal(e.name, 'RangeError');
  assert.equal(typeof e.stack, 'string');
});
