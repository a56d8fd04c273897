'use strict';
// Conversion and error mapping of the game API: every argument's wrong type (a TypeError naming it) and
// out-of-range value (the core's error: its class, code FAIRMINES_<core name>, errno, and the argument at
// fault named at the start of the message). Which moves the game allows is the core's to test
// (crates/fairmines/tests/game.rs, game_machine.rs, resume.rs); here, only that its refusals arrive intact.
// The payouts, ratios and records, which the WebAssembly package has too, are the shared suite's
// (tests/js-conformance/payouts.mjs, records.mjs).
const test = require('node:test');
const assert = require('node:assert/strict');
const fm = require('fairmines');
const { expectError } = require('./helpers');

const { SeedPair, Ratio } = fm;
const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
const LONE = 'a\uD800b'; // a lone surrogate: no UTF-8 form
const WRONG_TYPES = [undefined, null, 3, 3n, true, {}, [], Symbol('x')];
const T = TypeError;
const R = RangeError;
const TYPE = 'ERR_INVALID_ARG_TYPE';

const pair = () => SeedPair.fromParts(S, C, 1);

test('SeedPair constructor and fromParts: clientSeed, serverSeed, nonce', () => {
  for (const bad of WRONG_TYPES) {
    expectError(() => new SeedPair(bad), T, TYPE, 'clientSeed');
    expectError(() => SeedPair.fromParts(bad, C, 0), T, TYPE, 'serverSeed');
    expectError(() => SeedPair.fromParts(S, bad, 0), T, TYPE, 'clientSeed');
  }
  expectError(() => new SeedPair(), T, TYPE, 'clientSeed');
  expectError(() => new SeedPair(LONE), R, 'FAIRMINES_INVALID_UTF8', 'clientSeed');
  expectError(() => SeedPair.fromParts(S, LONE, 0), R, 'FAIRMINES_INVALID_UTF8', 'clientSeed');
  for (const bad of ['', 'xyz', S.slice(1), `${S}0`, S.replace('b', 'g'), S.toUpperCase(), ' '.repeat(64)]) {
    expectError(() => SeedPair.fromParts(bad, C, 0), R, 'FAIRMINES_INVALID_HEX', 'serverSeed');
  }
  for (const bad of [-1, 1.5, 2 ** 53, NaN, -1n, 2n ** 64n, 2n ** 200n]) {
    expectError(() => SeedPair.fromParts(S, C, bad), R, 'FAIRMINES_INVALID_NONCE', 'nonce');
  }
  assert.equal(SeedPair.fromParts(S, C, 5).publicPart.nonce, SeedPair.fromParts(S, C, 5n).publicPart.nonce);
  for (const bad of ['1', null, undefined, {}]) {
    expectError(() => SeedPair.fromParts(S, C, bad), T, TYPE, 'nonce');
  }
});

test('SeedPair.fromStateJson: json', () => {
  for (const bad of WRONG_TYPES) expectError(() => SeedPair.fromStateJson(bad), T, TYPE, 'json');
  const state = JSON.parse(pair().toStateJson());
  const grid = fm.minePositions(S, C, 0, 3); // the round at nonce 0 of the states below
  const safe = [...Array(25).keys()].map((t) => t + 1).filter((t) => !grid.includes(t));
  const round = (fields) => JSON.stringify({ ...state, rounds: [{ nonce: 0, mines: 3, rtp: '99/100', picks: [], ...fields }] });
  const bads = [
    '', '{', '[]', '{}', 'null',
    JSON.stringify({ ...state, commitment: fm.commitment('another') }), // not the seed's commitment
    JSON.stringify({ ...state, server_seed: 'not hex' }),
    JSON.stringify({ ...state, server_seed: S.toUpperCase(), commitment: fm.commitment(S.toUpperCase()) }),
    JSON.stringify({ ...state, nonce: -1 }),
    JSON.stringify({ ...state, nonce: '1' }),
    pair().toStateJson().replace('"nonce":1', '"nonce":18446744073709551616'),
    JSON.stringify({ ...state, version: 3 }),
    // The rounds in play: required, distinct nonces below the next one, each whole and possible.
    JSON.stringify({ ...state, rounds: undefined }),
    JSON.stringify({ ...state, rounds: null }),
    JSON.stringify({ ...state, rounds: '0' }),
    JSON.stringify({ ...state, open_rounds: [0] }), // version 2 lists them as rounds
    round({ nonce: 1 }),
    round({ nonce: -1 }),
    JSON.stringify({ ...state, rounds: [{ nonce: 0, mines: 3, rtp: '1', picks: [] }, { nonce: 0, mines: 3, rtp: '1', picks: [] }] }),
    round({ mines: 25 }),
    round({ rtp: '2' }),
    round({ rtp: 0.99 }),
    round({ picks: undefined }), // mines, rtp and picks come together
    round({ picks: [safe[0], safe[0]] }),
    round({ picks: [0] }),
    round({ picks: [26] }),
    round({ picks: [safe[0], grid[0]] }), // a mine: that round would have finished
    round({ picks: safe }), // every safe tile: so would that one
    round({ extra: 1 }),
  ];
  for (const bad of bads) {
    const e = expectError(() => SeedPair.fromStateJson(bad), R, 'FAIRMINES_INVALID_STATE', 'json');
    assert.ok(!e.message.includes(S), 'the message does not repeat the secret seed');
  }
  // The core's detail names the field, under the argument's name.
  const twice = expectError(() => SeedPair.fromStateJson(round({ picks: [safe[0], safe[0]] })), R, 'FAIRMINES_INVALID_STATE', 'json');
  assert.equal(twice.message, `json: rounds[0].picks[1]: tile ${safe[0]} is picked twice`);
  // A field the state does not have is named (the core's message).
  for (const extra of ['openRounds', 'server_seed2']) {
    const e = expectError(() => SeedPair.fromStateJson(JSON.stringify({ ...state, [extra]: [] })), R, 'FAIRMINES_INVALID_STATE', 'json');
    assert.ok(e.message.includes(extra), e.message);
    assert.ok(!e.message.includes(S), 'the message does not repeat the secret seed');
  }
  const restored = SeedPair.fromStateJson(JSON.stringify({ ...state, nonce: 5, rounds: [{ nonce: 4, mines: 3, rtp: '1', picks: [] }, { nonce: 0, mines: 3, rtp: '1', picks: [safe[1]] }] }));
  assert.deepEqual([restored.openRounds(), restored.round(0).picks], [[0n, 4n], [safe[1]]]);
});

test('SeedPair.fromStateJson: a state written before rounds were saved whole ("open_rounds") restores void-only rounds', () => {
  const { version, rounds, ...old } = JSON.parse(pair().toStateJson());
  assert.deepEqual([version, rounds], [2, []]);
  const restored = SeedPair.fromStateJson(JSON.stringify({ ...old, nonce: 5, open_rounds: [4, 0] }));
  assert.deepEqual(restored.openRounds(), [0n, 4n]);
  for (const nonce of [0, 4n]) {
    const e = expectError(() => restored.round(nonce), R, 'FAIRMINES_ROUND_NOT_IN_PLAY', 'nonce');
    assert.match(e.message, new RegExp(`^nonce: the round at nonce ${nonce} was saved by a version that kept only its nonce.*can only be voided$`));
  }
  expectError(() => restored.rotate(), Error, 'FAIRMINES_ROUNDS_IN_PLAY', undefined, undefined);
  assert.match(restored.toStateJson(), /"version":2,.*"rounds":\[\{"nonce":0\},\{"nonce":4\}\]\}$/, 'written again in version 2, still nonces only');
  assert.deepEqual(restored.voidOpenRounds(), [0n, 4n]);
  expectError(() => restored.round(0), R, 'FAIRMINES_ROUND_NOT_IN_PLAY', 'nonce');
  assert.equal(restored.rotate().rounds, 5n);
  // Version 1 must list its rounds as open_rounds, and only those.
  for (const bad of [{ ...old }, { ...old, rounds: [] }, { ...old, version: 1, rounds: [] }]) {
    expectError(() => SeedPair.fromStateJson(JSON.stringify(bad)), R, 'FAIRMINES_INVALID_STATE', 'json');
  }
});

test('round: nonce of the wrong type or out of range (the binding\'s nonce conversion); nothing changes', () => {
  const p = pair();
  p.startRound(3, '0.99'); // nonce 1, handed out
  const before = p.toStateJson();
  for (const bad of [-1, -0.5, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, NaN, Infinity, -1n, 2n ** 64n, 2n ** 200n]) {
    expectError(() => p.round(bad), R, 'FAIRMINES_INVALID_NONCE', 'nonce');
  }
  for (const bad of ['1', '', null, undefined, {}, [1], true, Symbol('n'), new Number(1)]) {
    expectError(() => p.round(bad), T, TYPE, 'nonce');
  }
  expectError(() => p.round(), T, TYPE, 'nonce');
  assert.equal(p.toStateJson(), before);
  // The largest safe integer and the largest nonce are nonces: no round is in play there.
  expectError(() => p.round(Number.MAX_SAFE_INTEGER), R, 'FAIRMINES_ROUND_NOT_IN_PLAY', 'nonce');
  expectError(() => p.round(2n ** 64n - 1n), R, 'FAIRMINES_ROUND_NOT_IN_PLAY', 'nonce');
});

test('round: no round in play at the nonce (never started, finished, voided) or already handed out: FAIRMINES_ROUND_NOT_IN_PLAY, a RangeError naming nonce', () => {
  const NOT = [R, 'FAIRMINES_ROUND_NOT_IN_PLAY', 'nonce'];
  const notInPlay = (p, nonce) => {
    const e = expectError(() => p.round(nonce), ...NOT);
    assert.equal(e.message, `nonce: no round of this seed pair is in play at nonce ${nonce}: it was never started, has finished or was voided`);
  };
  const p = SeedPair.fromParts(S, C, 3);
  for (const nonce of [0, 2, 3, 4n]) notInPlay(p, nonce); // below the pair's first nonce, the next one, beyond
  const safeTile = (nonce, mines) => [...Array(25).keys()].map((t) => t + 1).find((t) => !fm.minePositions(S, C, nonce, mines).includes(t));
  const lost = p.startRound(3, '0.99'); // nonce 3
  const cashed = p.startRound(3, '0.99'); // nonce 4
  const cleared = p.startRound(24, '1'); // nonce 5
  const voided = p.startRound(3, '0.99'); // nonce 6
  const alive = p.startRound(3, '0.99'); // nonce 7: in play, handed out by startRound
  lost.reveal(fm.minePositions(S, C, 3, 3)[0]);
  cashed.reveal(safeTile(4, 3));
  cashed.cashOut();
  cleared.reveal(safeTile(5, 24)); // the one safe tile
  assert.deepEqual([lost.outcome, cashed.outcome, cleared.outcome], ['lost', 'cashed_out', 'cashed_out']);
  const stored = p.toStateJson();
  assert.deepEqual(p.openRounds(), [6n, 7n]);
  const handedOut = (q, nonce) => {
    const e = expectError(() => q.round(nonce), ...NOT);
    assert.equal(e.message, `nonce: the round at nonce ${nonce} is already handed out by this seed pair: go on with that round`);
  };
  handedOut(p, 6);
  handedOut(p, 7n);
  for (const nonce of [3, 4, 5]) notInPlay(p, nonce);
  // Restored: the rounds in play are handed out once each, while the first Round lives.
  const restored = SeedPair.fromStateJson(stored);
  const resumed = restored.round(7);
  assert.deepEqual([resumed.nonce, resumed.picks], [7n, []]);
  handedOut(restored, 7);
  handedOut(restored, 7n);
  assert.equal(resumed.reveal(safeTile(7, 3)).safe, true);
  handedOut(restored, 7);
  for (const nonce of [3, 4, 5]) notInPlay(restored, nonce);
  assert.deepEqual(restored.voidOpenRounds(), [6n, 7n]);
  for (const nonce of [6, 7]) notInPlay(restored, nonce);
  assert.equal(resumed.outcome, 'voided');
  assert.equal(voided.isFinished, false, 'the original pair\'s rounds are its own');
  assert.equal(alive.isFinished, false);
  p.voidOpenRounds();
  notInPlay(p, 6);
  assert.deepEqual([voided.outcome, alive.outcome], ['voided', 'voided']);
});

test('startRound: mines, rtp (a number is refused with the reason), the last nonce; nothing changes on error', () => {
  const p = pair();
  for (const mines of [0, 25, -1, 3.5, NaN, Infinity, 2 ** 70, 0n, 25n, 2n ** 200n]) {
    expectError(() => p.startRound(mines, '0.99'), R, 'FAIRMINES_INVALID_MINES', 'mines');
  }
  for (const mines of ['3', null, undefined, {}]) expectError(() => p.startRound(mines, '0.99'), T, TYPE, 'mines');
  for (const rtp of [0.99, 1, 0, NaN]) {
    const e = expectError(() => p.startRound(3, rtp), T, TYPE, 'rtp');
    assert.match(e.message, /binary floating point/);
    assert.match(e.message, /'0\.99'/);
  }
  for (const rtp of [null, undefined, 99n, {}, [], true]) expectError(() => p.startRound(3, rtp), T, TYPE, 'rtp');
  for (const rtp of ['0', '0.0', '1.01', '101/100', '2', 'abc', '', '0.99%', '-0.5', '1/0', ' ', '99/100/1', '0.99 ', ' 99/100']) {
    expectError(() => p.startRound(3, rtp), R, 'FAIRMINES_INVALID_RTP', 'rtp');
  }
  for (const rtp of [new Ratio(0, 1), new Ratio(101, 100), new Ratio(2, 1)]) {
    expectError(() => p.startRound(3, rtp), R, 'FAIRMINES_INVALID_RTP', 'rtp');
  }
  expectError(() => p.startRound(3, LONE), R, 'FAIRMINES_INVALID_UTF8', 'rtp');
  assert.equal(p.publicPart.nonce, 1n, 'failed starts use no nonce');
  assert.equal(p.startRound(3, '1').nonce, 1n);
  assert.equal(p.startRound(3n, '1').mines, 3, 'a bigint mine count');
  // Nonce 2^64 - 1 starts no round, by one rule of the core: startRound there and fromParts with it.
  const last = SeedPair.fromParts(S, C, 2n ** 64n - 2n);
  assert.equal(last.startRound(3, '0.99').nonce, 2n ** 64n - 2n);
  const e = expectError(() => last.startRound(3, '0.99'), R, 'FAIRMINES_INVALID_NONCE', 'nonce');
  assert.equal(e.message, 'nonce: 18446744073709551615 starts no round: a seed pair plays nonces 0 to 18446744073709551614 (it counts its rounds in 64 bits); rotate to a new seed pair');
  assert.equal(last.publicPart.nonce, 2n ** 64n - 1n);
  const made = expectError(() => SeedPair.fromParts(S, C, 2n ** 64n - 1n), R, 'FAIRMINES_INVALID_NONCE', 'nonce');
  assert.equal(made.message, e.message);
});

test('rotate and setClientSeed: clientSeed', () => {
  const p = pair();
  const commitment = p.publicPart.commitment;
  for (const bad of [3, 3n, true, {}, [], Symbol('x')]) expectError(() => p.rotate(bad), T, TYPE, 'clientSeed');
  expectError(() => p.rotate(LONE), R, 'FAIRMINES_INVALID_UTF8', 'clientSeed');
  for (const bad of WRONG_TYPES) expectError(() => p.setClientSeed(bad), T, TYPE, 'clientSeed');
  expectError(() => p.setClientSeed(LONE), R, 'FAIRMINES_INVALID_UTF8', 'clientSeed');
  assert.equal(p.publicPart.commitment, commitment, 'failed rotations change nothing');
  assert.equal(p.publicPart.clientSeed, C);
});

test('rotate and setClientSeed with a round in play: FAIRMINES_ROUNDS_IN_PLAY, a plain Error (no argument is at fault)', () => {
  const p = pair();
  const round = p.startRound(3, '0.99');
  const before = p.toStateJson();
  for (const attempt of [() => p.rotate(), () => p.rotate(undefined), () => p.rotate(null), () => p.rotate('x'), () => p.setClientSeed('x')]) {
    const e = expectError(attempt, Error, 'FAIRMINES_ROUNDS_IN_PLAY', undefined, undefined);
    assert.match(e.message, /nonce 1\b/);
  }
  // A bad argument is reported first, as for every other call.
  expectError(() => p.rotate(3), T, TYPE, 'clientSeed');
  expectError(() => p.setClientSeed(LONE), R, 'FAIRMINES_INVALID_UTF8', 'clientSeed');
  assert.equal(p.toStateJson(), before, 'refused rotations change nothing');
  round.reveal(1);
  round.cashOut();
  assert.equal(p.rotate().serverSeed, S);
});

test('reveal and cashOut on a voided round: FAIRMINES_ROUND_VOIDED, a plain Error; wrong types are still named', () => {
  const p = pair();
  const fresh = p.startRound(3, '0.99');
  const picked = p.startRound(3, '0.99');
  picked.reveal(1);
  p.voidOpenRounds();
  for (const round of [fresh, picked]) {
    // The core judges the round before the tile: every number is refused as a move on a voided round.
    for (const tile of [1, 2, 7, 25, 0, 26, -1, 2.5, 3n]) {
      const e = expectError(() => round.reveal(tile), Error, 'FAIRMINES_ROUND_VOIDED', undefined, undefined);
      assert.match(e.message, /voided/);
    }
    expectError(() => round.cashOut(), Error, 'FAIRMINES_ROUND_VOIDED', undefined, undefined);
    // A wrong type is the binding's to refuse, before the core sees the call.
    expectError(() => round.reveal('1'), T, TYPE, 'tile');
  }
  assert.deepEqual([fresh.picks, picked.picks], [[], [1]]);
});

test('reveal: tile; a tile twice; a finished round (a plain Error: no argument is at fault)', () => {
  const round = pair().startRound(3, '0.99');
  for (const tile of [0, 26, -1, 3.5, NaN, Infinity, -Infinity, 1e20, 2 ** 63, -(2 ** 63), 0n, 26n, 2n ** 130n]) {
    const e = expectError(() => round.reveal(tile), R, 'FAIRMINES_INVALID_TILE', 'tile');
    assert.match(e.message, /^tile: must be from 1 to 25, got /);
  }
  for (const tile of ['1', null, undefined, {}, [1]]) expectError(() => round.reveal(tile), T, TYPE, 'tile');
  round.reveal(1n);
  const twice = expectError(() => round.reveal(1), R, 'FAIRMINES_TILE_ALREADY_REVEALED', 'tile');
  assert.match(twice.message, /tile 1 /);
  assert.deepEqual(round.picks, [1], 'failed reveals are not picks');
  round.reveal(7); // a mine
  for (const tile of [2, 7, 1]) {
    const e = expectError(() => round.reveal(tile), Error, 'FAIRMINES_ROUND_FINISHED', undefined, undefined);
    assert.match(e.message, /finished/);
  }
  expectError(() => round.cashOut(), Error, 'FAIRMINES_ROUND_FINISHED', undefined, undefined);
  assert.deepEqual(round.picks, [1, 7]);
});

test('cashOut: before any safe pick; after a cash-out', () => {
  const round = pair().startRound(3, '0.99');
  const e = expectError(() => round.cashOut(), Error, 'FAIRMINES_NOTHING_TO_CASH_OUT', undefined, undefined);
  assert.match(e.message, /safe pick/);
  assert.equal(round.isFinished, false, 'the round goes on');
  round.reveal(1);
  assert.equal(round.cashOut().text, '9/8');
  expectError(() => round.cashOut(), Error, 'FAIRMINES_ROUND_FINISHED', undefined, undefined);
  expectError(() => round.reveal(2), Error, 'FAIRMINES_ROUND_FINISHED', undefined, undefined);
});
