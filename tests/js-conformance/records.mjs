// Round records: recordFromJson, recordToJson and verifyRound, their results, the core's JSON text both ways,
// and the conversion of every field (named as record.<field>) and of the JSON text.
import test from 'node:test';
import assert from 'node:assert/strict';
import { C, COMMITMENT, LONE, R, RECORD_JSON, S, T, TYPE, WRONG_TYPES, errorModel } from './check.mjs';

export function recordTests(fm) {
  const { expectError } = errorModel(fm);
  const { Ratio } = fm;
  const record = () => fm.recordFromJson(RECORD_JSON);

  test('records (recordToJson, verifyRound): every field, named as record.<field>; unknown keys refused', () => {
    const good = record();
    assert.equal(fm.recordToJson(good), RECORD_JSON, 'a record read back writes the same text');
    // JSON.stringify (what a backend's log holds) writes the core's record JSON: every package reads it back.
    assert.equal(JSON.stringify(good), RECORD_JSON);
    assert.equal(fm.recordToJson(fm.recordFromJson(JSON.stringify(good))), RECORD_JSON);
    assert.ok(fm.verifyRound(fm.recordFromJson(JSON.stringify({ good }).slice('{"good":'.length, -1)), S).ok);
    assert.equal(JSON.stringify(fm.recordFromJson(RECORD_JSON.replace('"nonce":1', '"nonce":9007199254740991'))),
      RECORD_JSON.replace('"nonce":1', '"nonce":9007199254740991'));
    const both = (rec, server = S) => [() => fm.recordToJson(rec), () => fm.verifyRound(rec, server)];
    for (const bad of [undefined, null, 3, 'x', 3n, true]) {
      for (const fn of both(bad)) expectError(fn, T, TYPE, 'record');
    }
    const typeErrors = {
      commitment: [undefined, null, 1, {}],
      clientSeed: [undefined, null, 1, {}],
      nonce: [undefined, null, '1', {}],
      mines: [undefined, null, '3', {}],
      rtp: [undefined, null, 0.99, 1, 99n],
      picks: [undefined, null, '1,2', 1, new Uint16Array([1, 2])],
      outcome: [undefined, null, 1, {}],
      multiplier: [undefined, 1.2857, 9n, {}],
    };
    for (const [field, values] of Object.entries(typeErrors)) {
      for (const value of values) {
        for (const fn of both({ ...good, [field]: value })) expectError(fn, T, TYPE, 'record', `record.${field}`);
      }
    }
    const missing = { ...good };
    delete missing.outcome;
    for (const fn of both(missing)) expectError(fn, T, TYPE, 'record', 'record.outcome');
    // A key that is not a field is named, before any field is read (so a misspelt one is what is reported).
    for (const key of ['extra', 'client_seed', 'multipler', 'Outcome', '0']) {
      for (const fn of both({ ...good, [key]: good.multiplier })) {
        const e = expectError(fn, T, TYPE, 'record', `record.${key}`);
        assert.match(e.message, /unknown field: a round record has only commitment, clientSeed, nonce, mines, rtp, picks, outcome, multiplier/);
      }
    }
    const { multiplier, ...misspelt } = good;
    for (const fn of both({ ...misspelt, multipler: multiplier })) expectError(fn, T, TYPE, 'record', 'record.multipler');
    for (const fn of both({ ...good, [Symbol('note')]: 1 })) assert.doesNotThrow(fn, 'a symbol key is not a field');
    for (const fn of both({ ...good, picks: [1, '2'] })) expectError(fn, T, TYPE, 'record', 'record.picks[1]');
    const e = expectError(() => fm.recordToJson({ ...good, rtp: 0.99 }), T, TYPE, 'record', 'record.rtp');
    assert.match(e.message, /binary floating point/);

    const rangeErrors = [
      ['commitment', 'xyz', 'FAIRMINES_INVALID_HEX'],
      ['commitment', `${good.commitment}0`, 'FAIRMINES_INVALID_HEX'],
      ['clientSeed', LONE, 'FAIRMINES_INVALID_UTF8'],
      ['nonce', -1, 'FAIRMINES_INVALID_NONCE'],
      ['nonce', 2n ** 64n, 'FAIRMINES_INVALID_NONCE'],
      ['mines', 256, 'FAIRMINES_INVALID_MINES'],
      ['mines', 2.5, 'FAIRMINES_INVALID_MINES'],
      ['rtp', '2', 'FAIRMINES_INVALID_RTP'],
      ['rtp', 'x', 'FAIRMINES_INVALID_RTP'],
      ['rtp', new Ratio(0, 1), 'FAIRMINES_INVALID_RTP'],
      ['outcome', 'won', 'FAIRMINES_INVALID_STATE'],
      ['outcome', 'Lost', 'FAIRMINES_INVALID_STATE'],
      ['outcome', 'void', 'FAIRMINES_INVALID_STATE'],
      ['multiplier', 'x', 'FAIRMINES_INVALID_NUMBER'],
      ['multiplier', '1/0', 'FAIRMINES_INVALID_NUMBER'],
      // The core's one record parser judges every field, for both functions: what no round can be is refused.
      ['mines', 0, 'FAIRMINES_INVALID_MINES'],
      ['mines', 25n, 'FAIRMINES_INVALID_MINES'],
      ['picks', [1, 256], 'FAIRMINES_INVALID_TILE'],
      ['picks', [1, -1], 'FAIRMINES_INVALID_TILE'],
      ['picks', [1, 2.5], 'FAIRMINES_INVALID_TILE'],
      ['picks', [0], 'FAIRMINES_INVALID_TILE'],
      ['picks', [1, 26n], 'FAIRMINES_INVALID_TILE'],
      ['picks', Array.from({ length: 26 }, (_, i) => (i % 25) + 1), 'FAIRMINES_INVALID_TILE'],
    ];
    for (const [field, value, code] of rangeErrors) {
      for (const fn of both({ ...good, [field]: value })) expectError(fn, R, code, 'record', `record.${field}`);
    }
    const named = expectError(() => fm.recordToJson({ ...good, picks: [1, 256] }), R, 'FAIRMINES_INVALID_TILE', 'record', 'record.picks');
    assert.equal(named.message, 'record.picks: tile 256 at index 1 is not between 1 and 25', 'the core\'s message, under the field\'s name');
    // Numbers in either form: a bigint mine count and picks, a number nonce, picks as a Uint8Array.
    assert.equal(fm.recordToJson({ ...good, nonce: 1, mines: 3n, picks: [1n, 2] }), RECORD_JSON);
    assert.equal(fm.recordToJson({ ...good, picks: Uint8Array.from(good.picks) }), RECORD_JSON, 'picks as a Uint8Array');
    for (const bad of WRONG_TYPES) expectError(() => fm.verifyRound(good, bad), T, TYPE, 'serverSeed');
    expectError(() => fm.verifyRound(good, LONE), R, 'FAIRMINES_INVALID_UTF8', 'serverSeed');
    const replay = fm.verifyRound(good, S);
    assert.deepEqual([replay.ok, replay.commitmentOk, replay.minePositions, replay.expectedOutcome, `${replay.expectedMultiplier}`, replay.differences],
      [true, true, [7, 10, 19], 'cashed_out', '9/7', []]);
    assert.equal(fm.verifyRound(good, 'any string at all').commitmentOk, false, 'a wrong seed is a difference, not an error');
  });

  test('recordFromJson: json; u64 nonces read and written exactly', () => {
    for (const bad of WRONG_TYPES) expectError(() => fm.recordFromJson(bad), T, TYPE, 'json');
    const text = RECORD_JSON;
    const bads = ['', '{', '{}', '[]', 'null', text.replace('"99/100"', '"2"'), text.replace('"99/100"', '0.99'),
      text.replace('"cashed_out"', '"won"'), text.replace('"nonce":1', '"nonce":-1'), text.replace('"mines":3', '"mines":300'),
      text.replace(/"commitment":"[0-9a-f]+"/, '"commitment":"xyz"'), text.replace('"9/7"', '"x"')];
    for (const bad of bads) expectError(() => fm.recordFromJson(bad), R, 'FAIRMINES_INVALID_STATE', 'json');
    // A field a record does not have is refused and named (the core's message), never ignored.
    for (const extra of ['clientSeed', 'verified', 'multipler']) {
      const e = expectError(() => fm.recordFromJson(text.replace('}', `,"${extra}":1}`)), R, 'FAIRMINES_INVALID_STATE', 'json');
      assert.ok(e.message.includes(extra), e.message);
    }
    assert.equal(fm.recordFromJson(text.replace('"cashed_out"', '"voided"')).outcome, 'voided');
    // u64 nonces are written exactly as JSON numbers (the core's form), and read back exactly.
    const handWritten = `{"commitment":"${COMMITMENT}","client_seed":"${C}","nonce":18446744073709551615,"mines":3,"rtp":"99/100","picks":[25,7],"outcome":"lost","multiplier":null}`;
    const lost = fm.recordFromJson(handWritten);
    assert.deepEqual([lost.nonce, lost.picks, lost.outcome, lost.multiplier], [2n ** 64n - 1n, [25, 7], 'lost', null]);
    assert.equal(fm.recordToJson(lost), handWritten);
  });
}
