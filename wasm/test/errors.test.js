// Conversion and error mapping: every argument's wrong type (a TypeError naming it) and out-of-range value
// (the core's error: its class, code FAIRMINES_<core name>, errno, the argument named as JavaScript spells
// it, the message `label: ` + the core's own text), as the Node package throws them; and, where the Node
// package is built (node/*.node, by scripts/test-node.sh), the very same errors as it for a table of calls.
import test from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import util from 'node:util';
import { createRequire } from 'node:module';
import * as fm from 'fairmines-wasm';
import { expectError, repoRoot } from './helpers.js';

const { Ratio } = fm;
const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
const LONE = 'a\uD800b'; // a lone surrogate: no UTF-8 form
const WRONG_TYPES = [undefined, null, 3, 3n, true, {}, [], Symbol('x')];
const T = TypeError;
const R = RangeError;
const TYPE = 'ERR_INVALID_ARG_TYPE';
/** The worked example played: tiles 1 and 2 safe, then cashed out (as the Node package writes it). */
const RECORD_JSON = `{"commitment":"f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42","client_seed":"${C}","nonce":1,"mines":3,"rtp":"99/100","picks":[1,2],"outcome":"cashed_out","multiplier":"9/7"}`;
const record = () => fm.recordFromJson(RECORD_JSON);
const round = (nonce, mines) => [() => fm.minePositions(S, C, nonce, mines), () => fm.drawOrder(S, C, nonce, mines)];

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
  // The state errors of the game, which this package does not play, are listed all the same.
  assert.deepEqual(kinds.slice(15, 18).map((k) => [k.errno, k.code]),
    [[16, 'FAIRMINES_ROUNDS_IN_PLAY'], [17, 'FAIRMINES_ROUND_VOIDED'], [18, 'FAIRMINES_ROUND_NOT_IN_PLAY']]);
  assert.match(kinds[17].summary, /^No round of the seed pair to go on with at that nonce/);
});

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

test('a core error is composed, never rewritten: the label, then the core\'s text', () => {
  const cases = [
    [() => fm.minePositions(S, C, 1, 3.9), 'mines: must be an integer in 1..=24, got 3.9'],
    [() => fm.minePositions(S, C, 1, 25n), 'mines: must be an integer in 1..=24, got 25'],
    [() => fm.roundSignature(S, C, -1), 'nonce: must be an integer in 0..=18446744073709551615 (2^64 - 1), got -1'],
    [() => fm.roundSignature(S, C, 2n ** 64n), 'nonce: must be an integer in 0..=18446744073709551615 (2^64 - 1), got 18446744073709551616'],
    [() => fm.roundSignature(S, C, -(2n ** 127n)), 'nonce: must be an integer in 0..=18446744073709551615 (2^64 - 1), got -170141183460469231731687303715884105728'],
    [() => fm.roundSignature(S, C, -(2n ** 127n) - 1n), 'nonce: must be an integer in 0..=18446744073709551615 (2^64 - 1), got an integer below -2^127'],
    [() => fm.verify({ serverSeed: S, clientSeed: C, nonce: 1, mines: 3, positions: [7, 10.5] }), 'positions: tile 10.5 at index 1 is outside 1..=25'],
    [() => fm.commitment('a\udfffb'), 'serverSeed: is not valid UTF-8'],
  ];
  for (const [fn, message] of cases) assert.throws(fn, (e) => e.message === message, message);
  assert.throws(() => fm.roundSignature(S, C, 2 ** 53), /got 9007199254740992 \(a float is exact only up to 9007199254740991\)/);
});

test('nonce: negative, not an integer or out of range is a RangeError; the edges are accepted', () => {
  const bad = [-1, -0.5, 1.5, 2 ** 53, 1e300, NaN, Infinity, -Infinity, -1n, 2n ** 64n, -(2n ** 64n), 2n ** 128n];
  for (const nonce of bad) {
    expectError(() => fm.roundSignature(S, C, nonce), R, 'FAIRMINES_INVALID_NONCE', 'nonce');
    for (const fn of round(nonce, 3)) expectError(fn, R, 'FAIRMINES_INVALID_NONCE', 'nonce');
    expectError(() => fm.verify({ serverSeed: S, clientSeed: C, nonce, mines: 3 }), R, 'FAIRMINES_INVALID_NONCE', 'nonce');
  }
  assert.equal(fm.roundSignature(S, C, Number.MAX_SAFE_INTEGER), fm.roundSignature(S, C, BigInt(Number.MAX_SAFE_INTEGER)));
  assert.equal(fm.roundSignature(S, C, -0), fm.roundSignature(S, C, 0n));
  assert.match(fm.roundSignature(S, C, 2n ** 64n - 1n), /^[0-9a-f]{64}$/);
  for (const nonce of ['1', null, undefined, {}, [1], true, Symbol('n'), new Number(1)]) {
    expectError(() => fm.roundSignature(S, C, nonce), T, TYPE, 'nonce');
    expectError(() => fm.minePositions(S, C, nonce, 3), T, TYPE, 'nonce');
  }
});

test('mines: outside 1..=24 or not an integer is a RangeError (3.9 is not truncated); a wrong type a TypeError', () => {
  for (const mines of [0, 25, -1, 3.9, 24.5, NaN, Infinity, 2 ** 70, 0n, 25n, -(2n ** 200n)]) {
    for (const fn of round(1, mines)) expectError(fn, R, 'FAIRMINES_INVALID_MINES', 'mines');
    expectError(() => fm.verify({ serverSeed: S, clientSeed: C, nonce: 1, mines }), R, 'FAIRMINES_INVALID_MINES', 'mines');
  }
  for (const mines of ['3', null, undefined, {}, [3], true]) {
    for (const fn of round(1, mines)) expectError(fn, T, TYPE, 'mines');
  }
  assert.equal(fm.verify({ serverSeed: S, clientSeed: C, nonce: 1n, mines: 3n, positions: [7n, 10, 19n] }).ok, true);
});

test('seeds: a non-string is a TypeError; a lone surrogate a RangeError; a real U+FFFD is fine', () => {
  for (const seed of [1, null, undefined, {}, ['a'], new Uint8Array(2), new String('ab')]) {
    expectError(() => fm.commitment(seed), T, TYPE, 'serverSeed');
    expectError(() => fm.roundSignature(seed, C, 1), T, TYPE, 'serverSeed');
    expectError(() => fm.minePositions(S, seed, 1, 3), T, TYPE, 'clientSeed');
  }
  for (const seed of ['\ud800', 'a\udfffb', '\ud83d', 'x\ud83d:']) {
    expectError(() => fm.commitment(seed), R, 'FAIRMINES_INVALID_UTF8', 'serverSeed');
    expectError(() => fm.minePositions(S, seed, 1, 3), R, 'FAIRMINES_INVALID_UTF8', 'clientSeed');
  }
  const sha3 = (s) => crypto.createHash('sha3-256').update(Buffer.from(s, 'utf8')).digest('hex');
  for (const seed of ['\ufffd', 'a\ufffdb', '\ud83d\ude00', '']) assert.equal(fm.commitment(seed), sha3(seed));
});

test('verify: bad rounds, unknown keys, bad commitments and positions', () => {
  const ok = { serverSeed: S, clientSeed: C, nonce: 1, mines: 3 };
  for (const r of [null, undefined, 'round', 1]) expectError(() => fm.verify(r), T, TYPE, 'round');
  for (const key of ['serverSeed', 'clientSeed', 'nonce', 'mines']) {
    const { [key]: _, ...missing } = ok;
    expectError(() => fm.verify(missing), T, TYPE, key);
  }
  const e = expectError(() => fm.verify({ ...ok, commitmnet: 'f5ec' }), T, TYPE, 'round', 'round.commitmnet');
  assert.equal(e.message, 'round.commitmnet: unknown field: a published round has only serverSeed, clientSeed, nonce, mines, commitment, positions');
  for (const commitment of ['', 'f5ec', 'z'.repeat(64), `${'0'.repeat(64)}0`]) {
    expectError(() => fm.verify({ ...ok, commitment }), R, 'FAIRMINES_INVALID_HEX', 'commitment');
  }
  expectError(() => fm.verify({ ...ok, commitment: 5 }), T, TYPE, 'commitment');
  for (const positions of [[0], [26], [7, 10, -1], [7, 10.5, 19], [7, 2n ** 70n], Array(26).fill(1)]) {
    expectError(() => fm.verify({ ...ok, positions }), R, 'FAIRMINES_INVALID_TILE', 'positions');
  }
  for (const positions of ['7,10,19', 7, {}, new Uint16Array(3)]) expectError(() => fm.verify({ ...ok, positions }), T, TYPE, 'positions');
  expectError(() => fm.verify({ ...ok, positions: [7, '10'] }), T, TYPE, 'positions', 'positions[1]');
});

test('multiplier, payoutTable, maxSafePicks: mines, safePicks, rtp', () => {
  for (const mines of [0, 25, 3.5, NaN]) {
    expectError(() => fm.multiplier(mines, 1, '1'), R, 'FAIRMINES_INVALID_MINES', 'mines');
    expectError(() => fm.maxSafePicks(mines), R, 'FAIRMINES_INVALID_MINES', 'mines');
  }
  for (const [mines, picks] of [[3, 0], [3, 23], [24, 2], [3, 1.5], [3, -1], [3, 23n], [3, 2n ** 130n]]) {
    const e = expectError(() => fm.multiplier(mines, picks, '1'), R, 'FAIRMINES_INVALID_PICKS', 'safePicks');
    assert.match(e.message, new RegExp(`^safePicks: must be in 1\\.\\.=${25 - mines} with ${mines} mines, got `));
  }
  for (const picks of ['1', null, undefined, {}]) expectError(() => fm.multiplier(3, picks, '1'), T, TYPE, 'safePicks');
  for (const rtp of [0.99, null, undefined, 1n]) {
    expectError(() => fm.multiplier(3, 1, rtp), T, TYPE, 'rtp');
    expectError(() => fm.payoutTable(rtp), T, TYPE, 'rtp');
  }
  assert.match(expectError(() => fm.payoutTable(0.99), T, TYPE, 'rtp').message, /binary floating point/);
  for (const rtp of ['0', '1.5', 'x', new Ratio(3, 2)]) {
    expectError(() => fm.multiplier(3, 1, rtp), R, 'FAIRMINES_INVALID_RTP', 'rtp');
    expectError(() => fm.payoutTable(rtp), R, 'FAIRMINES_INVALID_RTP', 'rtp');
  }
  assert.equal(fm.maxSafePicks(3n), 22);
  assert.equal(fm.multiplier(3n, 1n, '0.99').text, fm.multiplier(3, 1, Ratio.parse('99/100')).text);
});

test('Ratio: numerator, denominator, text, places, other', () => {
  for (const bad of [-1, 1.5, 2 ** 53, NaN, -1n, 2n ** 128n]) {
    expectError(() => new Ratio(bad, 1), R, 'FAIRMINES_INVALID_NUMBER', 'numerator');
    expectError(() => new Ratio(1, bad), R, 'FAIRMINES_INVALID_NUMBER', 'denominator');
  }
  assert.equal(new Ratio(2n ** 127n - 1n, 2 ** 53 - 1).numerator, 2n ** 127n - 1n);
  assert.equal(new Ratio(2n ** 128n - 1n, 2n ** 127n).text, `${2n ** 128n - 1n}/${2n ** 127n}`);
  expectError(() => new Ratio(1, 0), R, 'FAIRMINES_INVALID_NUMBER', 'denominator');
  for (const bad of ['', 'x', '1/0', '0.', '-1', '1e3', `${2n ** 128n}`]) {
    expectError(() => Ratio.parse(bad), R, 'FAIRMINES_INVALID_NUMBER', 'text');
    expectError(() => new Ratio(1, 2).equals(bad), R, 'FAIRMINES_INVALID_NUMBER', 'other');
  }
  for (const bad of WRONG_TYPES) expectError(() => Ratio.parse(bad), T, TYPE, 'text');
  for (const bad of [0.5, null, undefined, 1n, {}]) expectError(() => new Ratio(1, 2).equals(bad), T, TYPE, 'other');
  for (const bad of [-1, 19, 1.5, NaN, 19n]) expectError(() => new Ratio(1, 3).toDecimal(bad), R, 'FAIRMINES_INVALID_NUMBER', 'places');
  assert.equal(new Ratio(9, 8).toDecimal(2), '1.12');
  assert.equal(new Ratio(2, 4).equals(new Ratio(1, 2)), true);
  assert.equal(`${new Ratio(2, 4)}`, '1/2');
  assert.equal(JSON.stringify({ r: new Ratio(99, 100) }), '{"r":"99/100"}');
});

test('records (recordToJson, verifyRound): every field, named as record.<field>; unknown keys refused', () => {
  const good = record();
  assert.equal(fm.recordToJson(good), RECORD_JSON, 'a record read back writes the same text');
  assert.equal(JSON.stringify(good), '{"commitment":"f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42","clientSeed":"'
    + `${C}","nonce":"1","mines":3,"rtp":"99/100","picks":[1,2],"outcome":"cashed_out","multiplier":"9/7"}`);
  const both = (rec, server = S) => [() => fm.recordToJson(rec), () => fm.verifyRound(rec, server)];
  for (const bad of [undefined, null, 3, 'x', 3n, true]) for (const fn of both(bad)) expectError(fn, T, TYPE, 'record');
  const typeErrors = {
    commitment: [undefined, null, 1, {}],
    nonce: [undefined, null, '1', {}],
    mines: [undefined, null, '3', {}],
    rtp: [undefined, null, 0.99, 1, 99n],
    picks: [undefined, null, '1,2', 1, new Uint16Array([1, 2])],
    outcome: [undefined, null, 1, {}],
    multiplier: [undefined, 1.2857, 9n, {}],
  };
  for (const [field, values] of Object.entries(typeErrors)) {
    for (const value of values) for (const fn of both({ ...good, [field]: value })) expectError(fn, T, TYPE, 'record', `record.${field}`);
  }
  for (const key of ['extra', 'client_seed', 'multipler', '0']) {
    for (const fn of both({ ...good, [key]: 1 })) {
      const e = expectError(fn, T, TYPE, 'record', `record.${key}`);
      assert.match(e.message, /unknown field: a round record has only commitment, clientSeed, nonce, mines, rtp, picks, outcome, multiplier/);
    }
  }
  for (const [field, value, code] of [
    ['commitment', 'xyz', 'FAIRMINES_INVALID_HEX'], ['clientSeed', LONE, 'FAIRMINES_INVALID_UTF8'],
    ['nonce', -1, 'FAIRMINES_INVALID_NONCE'], ['nonce', 2n ** 64n, 'FAIRMINES_INVALID_NONCE'],
    ['mines', 0, 'FAIRMINES_INVALID_MINES'], ['mines', 2.5, 'FAIRMINES_INVALID_MINES'],
    ['rtp', '2', 'FAIRMINES_INVALID_RTP'], ['rtp', new Ratio(0, 1), 'FAIRMINES_INVALID_RTP'],
    ['outcome', 'won', 'FAIRMINES_INVALID_STATE'], ['multiplier', '1/0', 'FAIRMINES_INVALID_NUMBER'],
    ['picks', [1, 256], 'FAIRMINES_INVALID_TILE'], ['picks', [0], 'FAIRMINES_INVALID_TILE'],
  ]) {
    for (const fn of both({ ...good, [field]: value })) expectError(fn, R, code, 'record', `record.${field}`);
  }
  assert.equal(fm.recordToJson({ ...good, nonce: 1, mines: 3n, picks: Uint8Array.from([1, 2]) }), RECORD_JSON);
  for (const bad of WRONG_TYPES) expectError(() => fm.verifyRound(good, bad), T, TYPE, 'serverSeed');
  const replay = fm.verifyRound(good, S);
  assert.deepEqual([replay.ok, replay.commitmentOk, replay.minePositions, replay.expectedOutcome, `${replay.expectedMultiplier}`, replay.differences],
    [true, true, [7, 10, 19], 'cashed_out', '9/7', []]);
  assert.equal(fm.verifyRound(good, 'any string').commitmentOk, false, 'a wrong seed is a difference, not an error');
  for (const bad of WRONG_TYPES) expectError(() => fm.recordFromJson(bad), T, TYPE, 'json');
  for (const bad of ['', '{}', RECORD_JSON.replace('"won"', '"x"').replace('"cashed_out"', '"won"'), RECORD_JSON.replace('}', ',"verified":1}')]) {
    expectError(() => fm.recordFromJson(bad), R, 'FAIRMINES_INVALID_STATE', 'json');
  }
});

test('generateServerSeed: a fresh seed from crypto.getRandomValues with its commitment', () => {
  const a = fm.generateServerSeed();
  const b = fm.generateServerSeed();
  assert.match(a.serverSeed, /^[0-9a-f]{64}$/);
  assert.notEqual(a.serverSeed, b.serverSeed);
  assert.equal(a.commitment, fm.commitment(a.serverSeed));
  assert.deepEqual(Object.keys(a), ['commitment']);
  const { serverSeed, commitment } = a;
  assert.equal(serverSeed, a.serverSeed);
  assert.equal(commitment, a.commitment);
});

test('generateServerSeed: JSON.stringify and a spread write the commitment only, serverSeed still reads', () => {
  const a = fm.generateServerSeed();
  const seed = a.serverSeed;
  assert.match(seed, /^[0-9a-f]{64}$/);
  assert.equal(JSON.stringify(a), `{"commitment":"${a.commitment}"}`);
  assert.equal(JSON.stringify({ a }), `{"a":{"commitment":"${a.commitment}"}}`);
  for (const text of [JSON.stringify({ ...a }), util.inspect(a, { showHidden: true }), util.inspect({ a }, { depth: 5 })]) {
    assert.ok(!text.includes(seed), `the seed shows in ${text}`);
  }
  assert.equal(fm.commitment(seed), a.commitment);
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
