'use strict';
// A randomized state-machine test of the game API against a model: thousands of random sequences of
// operations on seed pairs and rounds, valid and invalid arguments mixed. For every call the model
// predicts the result or the exact documented error; the grid every reveal meets is the one
// minePositions (vector-tested) gives for the round's seeds, before and after the server seed is
// revealed; every finished record verifies; a record with a field changed is judged as the model's
// own replay judges it, and fails whenever the change must show. The issue-21 rule: a rotation (or a
// new client seed) succeeds exactly when no round of the pair is in play, a voided round refuses every
// move, a restored pair keeps the rounds that were in play open, and no move is ever accepted on a
// round whose server seed was revealed.
// FAIRMINES_GAME_SEED replays a run; FAIRMINES_GAME_SEQUENCES changes its size.
const test = require('node:test');
const assert = require('node:assert/strict');
const util = require('node:util');
const fm = require('fairmines');
const { checkError, prng, testSeed } = require('./helpers');
const model = require('./model');

const { SeedPair, Ratio } = fm;
const SEED = testSeed('GAME');
const SEQUENCES = Number(process.env.FAIRMINES_GAME_SEQUENCES || 2000);
const MAX_NONCE = 2n ** 64n - 1n;
const T = TypeError;
const R = RangeError;
const TYPE = 'ERR_INVALID_ARG_TYPE';

/** Runs `fn` and checks it against `expected`: `{ error: [Class, code, argument, label] }` or a check. */
function expect(fn, expected, at) {
  let result;
  let caught;
  try {
    result = fn();
  } catch (error) {
    caught = error;
  }
  if (expected.error) {
    assert.ok(caught, `${at}: expected ${expected.error[1]}, got ${util.inspect(result)}`);
    try {
      checkError(caught, ...expected.error);
    } catch (failure) {
      failure.message = `${at}: ${failure.message}`;
      throw failure;
    }
    return undefined;
  }
  if (caught) throw new assert.AssertionError({ message: `${at}: unexpected ${caught.constructor.name} ${caught.code}: ${caught.message}` });
  return result;
}

/** RTP arguments with what the model knows of them: exact value, or the error they must raise. */
const RTPS = [
  { arg: () => '0.99', exact: '99/100' }, { arg: () => '99/100', exact: '99/100' }, { arg: () => '1', exact: '1' },
  { arg: () => '0.5', exact: '1/2' }, { arg: () => '987/1000', exact: '987/1000' }, { arg: () => new Ratio(97, 100), exact: '97/100' },
  { arg: () => 0.99, error: [T, TYPE, 'rtp'] }, { arg: () => 1, error: [T, TYPE, 'rtp'] }, { arg: () => null, error: [T, TYPE, 'rtp'] },
  { arg: () => '0', error: [R, 'FAIRMINES_INVALID_RTP', 'rtp'] }, { arg: () => '1.5', error: [R, 'FAIRMINES_INVALID_RTP', 'rtp'] },
  { arg: () => 'abc', error: [R, 'FAIRMINES_INVALID_RTP', 'rtp'] }, { arg: () => new Ratio(3, 2), error: [R, 'FAIRMINES_INVALID_RTP', 'rtp'] },
];
const BAD_MINES = [[0, R, 'FAIRMINES_INVALID_MINES'], [25, R, 'FAIRMINES_INVALID_MINES'], [3.5, R, 'FAIRMINES_INVALID_MINES'],
  [-2, R, 'FAIRMINES_INVALID_MINES'], ['3', T, TYPE], [null, T, TYPE], [3n, T, TYPE]];
const BAD_TILES = [[0, R, 'FAIRMINES_INVALID_TILE'], [26, R, 'FAIRMINES_INVALID_TILE'], [-5, R, 'FAIRMINES_INVALID_TILE'],
  [2.5, R, 'FAIRMINES_INVALID_TILE'], [NaN, R, 'FAIRMINES_INVALID_TILE'], ['5', T, TYPE], [null, T, TYPE], [5n, T, TYPE]];

const byValue = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const IN_PLAY = [Error, 'FAIRMINES_ROUNDS_IN_PLAY', undefined, undefined];
const FINISHED = [Error, 'FAIRMINES_ROUND_FINISHED', undefined, undefined];
const VOIDED = [Error, 'FAIRMINES_ROUND_VOIDED', undefined, undefined];

function runSequence(rng, stats) {
  // A pair with a known server seed (checked as it plays) or a fresh one (checked once it is revealed).
  const known = rng.next() < 0.6;
  let server = known ? rng.hex(64) : null;
  let client = rng.pick(['', 'player', 'ü:😀', rng.hex(rng.int(1, 80))]);
  let nonce = !known ? 0n : rng.next() < 0.1 ? MAX_NONCE - BigInt(rng.int(0, 3)) : BigInt(rng.int(0, 1000));
  let pair = known ? SeedPair.fromParts(server, client, nonce) : new SeedPair(client);
  let commitment = pair.public.commitment;
  if (known) assert.equal(commitment, fm.commitment(server));
  // The rounds of the current server seed: { round, mines, rtp, nonce, client, picks, reveals, finished,
  // lost, voided }. `rounds` are those this pair started; `detached` those of the pair it was restored
  // from (a restore stands for a restart: their Round objects are not used again), whose nonces the
  // restored pair keeps open in `restoredOpen` until it voids them.
  let rounds = [];
  let detached = [];
  let restoredOpen = [];
  const retired = []; // rounds whose server seed was revealed: no move may ever be accepted on them
  const finished = [];

  /** The nonces the pair must report as in play, ascending. */
  const openNonces = () => [...restoredOpen, ...rounds.filter((r) => !r.finished).map((r) => r.nonce)].sort(byValue);
  const outcomeOf = (r) => (!r.finished ? null : r.voided ? 'voided' : r.lost ? 'lost' : 'cashed_out');
  const moveError = (r) => (r.voided ? VOIDED : FINISHED);

  /** Every round of a seed, checked against the grid of its (now known) server seed. */
  const checkRounds = (seed, list) => {
    for (const r of list) {
      const grid = fm.minePositions(seed, r.client, r.nonce, r.mines);
      r.reveals.forEach(([tile, safe]) => assert.equal(safe, !grid.includes(tile), `tile ${tile} of nonce ${r.nonce}`));
      assert.deepEqual(r.round.minePositions, r.finished ? grid : null, 'the grid shows at the end and only then');
      if (r.finished) finished.push({ record: r.round.record(), seed, r });
    }
  };

  /** Rotation or a new client seed, with the model's expectation (`setting`: setClientSeed). */
  const rotate = (at, setting, arg, expected) => {
    const open = openNonces();
    if (!expected.error && open.length > 0) expected = { error: IN_PLAY };
    const revealed = expect(() => (setting ? pair.setClientSeed(arg) : pair.rotate(arg)), expected, `${at} rotate`);
    if (expected.error) {
      stats.errors += 1;
      if (expected.error === IN_PLAY) stats.refused += 1;
      assert.equal(pair.public.commitment, commitment, 'a failed rotation changes nothing');
      assert.equal(pair.public.nonce, nonce, 'a failed rotation changes nothing');
      assert.deepEqual(pair.openRounds(), open, 'a failed rotation voids nothing');
      return null;
    }
    assert.equal(revealed.commitment, commitment);
    assert.equal(fm.commitment(revealed.serverSeed), commitment, 'the revealed seed is the committed one');
    if (server) assert.equal(revealed.serverSeed, server);
    assert.deepEqual([revealed.clientSeed, revealed.rounds], [client, nonce]);
    for (const r of rounds) assert.ok(r.round.isFinished, 'every round of a revealed seed has ended');
    checkRounds(revealed.serverSeed, [...detached, ...rounds]);
    retired.push(...rounds);
    stats.rotations += 1;
    rounds = [];
    detached = [];
    if (typeof arg === 'string') client = arg;
    nonce = 0n;
    commitment = pair.public.commitment;
    assert.notEqual(commitment, revealed.commitment);
    assert.deepEqual([pair.public.clientSeed, pair.public.nonce, pair.openRounds()], [client, 0n, []]);
    return revealed;
  };

  /** voidOpenRounds: every round in play (this pair's and those it was restored with) ends, voided. */
  const voidAll = () => {
    const open = openNonces();
    assert.deepEqual(pair.voidOpenRounds(), open);
    restoredOpen = [];
    for (const r of rounds.filter((x) => !x.finished)) {
      r.finished = true;
      r.voided = true;
      stats.voided += 1;
      assert.deepEqual([r.round.isFinished, r.round.outcome, r.round.multiplier], [true, 'voided', null]);
      if (r.grid) assert.deepEqual(r.round.minePositions, r.grid, 'a voided round shows its grid');
    }
    assert.deepEqual(pair.openRounds(), []);
    assert.deepEqual(pair.voidOpenRounds(), [], 'nothing is left to void');
  };

  const steps = rng.int(1, 30);
  for (let step = 0; step < steps; step++) {
    const at = `step ${step}`;
    const op = rng.next();
    let kind = op < 0.18 ? 'start' : op < 0.52 ? 'reveal' : op < 0.62 ? 'cashOut' : op < 0.69 ? 'record'
      : op < 0.81 ? 'rotate' : op < 0.88 ? 'void' : op < 0.95 ? 'state' : 'late';
    if (rounds.length === 0 && ['reveal', 'cashOut', 'record'].includes(kind)) kind = 'start';
    if (retired.length === 0 && kind === 'late') kind = 'rotate';
    stats.ops += 1;
    if (kind === 'start') {
      // startRound
      const validMines = rng.next() < 0.85;
      const [mines, MClass, mcode] = validMines ? [rng.int(1, 24)] : rng.pick(BAD_MINES);
      const rtp = rng.next() < 0.85 ? RTPS[rng.int(0, 5)] : rng.pick(RTPS);
      let expected;
      if (!validMines) expected = { error: [MClass, mcode, 'mines'] };
      else if (rtp.error) expected = { error: rtp.error };
      else if (nonce === MAX_NONCE) expected = { error: [R, 'FAIRMINES_INVALID_NONCE', 'nonce'] };
      else expected = {};
      const round = expect(() => pair.startRound(mines, rtp.arg()), expected, `${at} startRound(${String(mines)})`);
      if (expected.error) {
        stats.errors += 1;
        assert.equal(pair.public.nonce, nonce, 'a failed start uses no nonce');
        continue;
      }
      assert.equal(round.nonce, nonce);
      assert.equal(round.rtp.text, rtp.exact);
      assert.equal(round.commitment, commitment);
      const grid = server ? fm.minePositions(server, client, nonce, mines) : null;
      rounds.push({ round, mines, rtp: model.parseRatio(rtp.exact), nonce, client, grid, picks: [], reveals: [], finished: false, lost: false, voided: false });
      nonce += 1n;
      assert.equal(pair.public.nonce, nonce);
      assert.deepEqual(pair.openRounds(), openNonces());
    } else if (kind === 'reveal') {
      // reveal
      const r = rng.pick(rounds);
      let tile;
      let expected;
      const roll = rng.next();
      if (roll < 0.12) {
        const [bad, Class, code] = rng.pick(BAD_TILES);
        tile = bad;
        const integer = typeof bad === 'number' && Number.isInteger(bad);
        if (Class === T) expected = { error: [T, code, 'tile'] };
        else if (integer && r.finished) expected = { error: moveError(r) };
        else expected = { error: [R, code, 'tile'] };
      } else {
        tile = roll < 0.2 && r.picks.length > 0 ? rng.pick(r.picks) : rng.int(1, 25);
        if (r.finished) expected = { error: moveError(r) };
        else if (r.picks.includes(tile)) expected = { error: [R, 'FAIRMINES_TILE_ALREADY_REVEALED', 'tile'] };
        else expected = {};
      }
      const result = expect(() => r.round.reveal(tile), expected, `${at} reveal(${String(tile)})`);
      if (expected.error) {
        stats.errors += 1;
        continue;
      }
      r.picks.push(tile);
      r.reveals.push([tile, result.safe]);
      if (r.grid) assert.equal(result.safe, !r.grid.includes(tile), `${at}: tile ${tile} against the grid fixed at the start`);
      const safePicks = r.picks.length - (result.safe ? 0 : 1);
      assert.equal(result.safePicks, safePicks);
      if (result.safe) {
        model.sameRatio(assert, result.multiplier, model.multiplier(r.mines, safePicks, r.rtp), at);
        if (safePicks === 25 - r.mines) r.finished = true; // every safe tile open: paid out
      } else {
        assert.equal(result.multiplier, null);
        r.finished = true;
        r.lost = true;
      }
      assert.deepEqual(r.round.picks, r.picks);
      assert.equal(r.round.isFinished, r.finished);
      assert.equal(r.round.outcome, outcomeOf(r));
      if (!r.finished) assert.equal(r.round.minePositions, null, 'the grid is hidden while in play');
      assert.deepEqual(pair.openRounds(), openNonces(), 'a finished round is no longer in play');
    } else if (kind === 'cashOut') {
      // cashOut
      const r = rng.pick(rounds);
      let expected;
      if (r.finished) expected = { error: moveError(r) };
      else if (r.picks.length === 0) expected = { error: [Error, 'FAIRMINES_NOTHING_TO_CASH_OUT', undefined, undefined] };
      else expected = {};
      const paid = expect(() => r.round.cashOut(), expected, `${at} cashOut`);
      if (expected.error) {
        stats.errors += 1;
        continue;
      }
      model.sameRatio(assert, paid, model.multiplier(r.mines, r.picks.length, r.rtp), at);
      r.finished = true;
      assert.equal(r.round.outcome, 'cashed_out');
    } else if (kind === 'record') {
      // record and the other getters
      const r = rng.pick(rounds);
      const record = r.round.record();
      if (!r.finished) assert.equal(record, null);
      else {
        assert.deepEqual([record.nonce, record.mines, record.picks, record.outcome], [r.nonce, r.mines, r.picks, outcomeOf(r)]);
        if (r.voided) assert.equal(record.multiplier, null, 'a voided round pays nothing');
      }
      const safePicks = r.picks.length - (r.lost ? 1 : 0);
      assert.equal(r.round.safePicks, safePicks);
      assert.deepEqual([r.round.isFinished, r.round.outcome], [r.finished, outcomeOf(r)]);
      const m = r.round.multiplier;
      if (r.lost || r.voided || safePicks === 0) assert.equal(m, null);
      else model.sameRatio(assert, m, model.multiplier(r.mines, safePicks, r.rtp), at);
    } else if (kind === 'rotate') {
      // rotate / setClientSeed, sometimes with a bad client seed (the argument is checked first)
      const setting = rng.next() < 0.3;
      const roll = rng.next();
      let arg;
      let expected = {};
      if (roll < 0.15) {
        arg = rng.pick([5, {}, 5n, true]);
        expected = { error: [T, TYPE, 'clientSeed'] };
      } else if (roll < 0.5 || setting) {
        arg = `client ${rng.int(0, 1e6)}`;
      } else {
        arg = rng.pick([undefined, null]);
      }
      if (setting && arg === undefined) expected = { error: [T, TYPE, 'clientSeed'] };
      // Often the operator voids the rounds in play first; otherwise a round in play refuses it.
      if (rng.next() < 0.4) voidAll();
      const revealed = rotate(at, setting, arg, expected);
      // The operator's own state tells the new seed, so the next rounds are checked as they play.
      if (revealed) server = JSON.parse(pair.toStateJson()).server_seed;
    } else if (kind === 'void') {
      voidAll();
    } else if (kind === 'state') {
      // state round trip (the operator's storage after a restart) and what inspection shows
      const state = pair.toStateJson();
      const restored = SeedPair.fromStateJson(state);
      assert.deepEqual(restored.public, pair.public);
      assert.deepEqual(restored.openRounds(), openNonces(), 'the rounds in play survive the restart');
      assert.equal(restored.toStateJson(), state);
      restoredOpen = openNonces();
      detached.push(...rounds);
      rounds = [];
      pair = restored;
      const secret = JSON.parse(state).server_seed;
      for (const shown of [util.inspect(pair), String(pair), JSON.stringify(pair)]) assert.ok(!shown.includes(secret), shown);
      if (server) assert.equal(secret, server);
    } else if (kind === 'late') {
      // A move on a round whose server seed is public: always refused.
      const r = rng.pick(retired);
      const tile = rng.int(1, 25);
      const move = rng.next() < 0.7 ? () => r.round.reveal(tile) : () => r.round.cashOut();
      expect(move, { error: moveError(r) }, `${at} a move after the seed was revealed`);
      stats.late += 1;
      assert.deepEqual([r.round.picks, r.round.outcome], [r.picks, outcomeOf(r)]);
    }
  }
  // The end of the sequence: rounds in play refuse the rotation until voided; then the seed is revealed
  // and everything played with it is checked.
  if (openNonces().length > 0) {
    assert.equal(rotate('end', false, undefined, {}), null);
    voidAll();
  }
  assert.ok(rotate('end', false, undefined, {}));
  return finished;
}

/** Changes one field of a finished record; `mustFail` when no replay can give the changed record. */
function mutate(rng, record) {
  const cashed = record.outcome === 'cashed_out';
  // A voided record holds with fewer picks, or one more safe one, as long as a safe tile stays closed.
  const voided = record.outcome === 'voided';
  const field = rng.pick(['commitment', 'clientSeed', 'nonce', 'mines', 'rtp', 'picks', 'outcome', 'multiplier']);
  const changed = { ...record, picks: [...record.picks] };
  let mustFail = true;
  switch (field) {
    case 'commitment': changed.commitment = fm.commitment(`not the seed ${rng.int(0, 1e9)}`); break;
    case 'clientSeed': changed.clientSeed = `${record.clientSeed}x`; mustFail = false; break;
    case 'nonce': changed.nonce = record.nonce === MAX_NONCE ? 0n : record.nonce + 1n; mustFail = false; break;
    case 'mines': changed.mines = record.mines === 24 ? 23 : record.mines + 1; mustFail = cashed; break;
    case 'rtp': changed.rtp = record.rtp.text === '1/3' ? '1/4' : '1/3'; mustFail = cashed; break;
    case 'outcome': changed.outcome = rng.pick(['lost', 'cashed_out', 'voided'].filter((o) => o !== record.outcome)); break;
    case 'multiplier':
      changed.multiplier = cashed && rng.next() < 0.5 ? null
        : new Ratio((record.multiplier?.numerator ?? 1n) + 1n, record.multiplier?.denominator ?? 1n);
      break;
    case 'picks': {
      const roll = rng.next();
      if (roll < 0.4 && changed.picks.length > 0) {
        changed.picks.pop();
        mustFail = !voided;
      } else if (roll < 0.7 && record.picks.length > 0) {
        changed.picks.push(rng.pick(record.picks)); // a repeat
      } else {
        const unused = [...Array(25).keys()].map((t) => t + 1).filter((t) => !record.picks.includes(t));
        if (unused.length === 0) changed.picks.pop();
        else changed.picks.push(rng.pick(unused));
        mustFail = !voided;
      }
      break;
    }
    default: throw new Error(field);
  }
  return { changed, field, mustFail };
}

test(`random operation sequences against the model (FAIRMINES_GAME_SEED=${SEED})`, (t) => {
  const rng = prng(SEED);
  const stats = { ops: 0, errors: 0, rotations: 0, refused: 0, voided: 0, late: 0, records: 0, voidedRecords: 0, mutations: 0, mustFail: 0, survived: 0 };
  for (let s = 0; s < SEQUENCES; s++) {
    let finished;
    try {
      finished = runSequence(rng, stats);
    } catch (failure) {
      failure.message = `sequence ${s} (FAIRMINES_GAME_SEED=${SEED}): ${failure.message}`;
      throw failure;
    }
    for (const { record, seed } of finished) {
      stats.records += 1;
      if (record.outcome === 'voided') stats.voidedRecords += 1;
      const verdict = fm.verifyRound(record, seed);
      assert.ok(verdict.ok, `seed ${SEED}: a finished record does not verify: ${verdict.differences}`);
      assert.equal(fm.recordToJson(fm.recordFromJson(fm.recordToJson(record))), fm.recordToJson(record));
      const { changed, field, mustFail } = mutate(rng, record);
      stats.mutations += 1;
      const after = fm.verifyRound(changed, seed);
      const expected = model.replay(fm, changed, seed);
      const at = `seed ${SEED}, sequence ${s}, ${field} changed`;
      assert.equal(after.ok, expected.ok, `${at}: ${after.differences}`);
      assert.equal(after.ok, after.differences.length === 0, at);
      assert.equal(after.expectedOutcome, expected.outcome, at);
      assert.equal(after.expectedMultiplier?.text ?? null, expected.multiplier, at);
      if (mustFail) {
        stats.mustFail += 1;
        assert.equal(after.ok, false, `${at}: the change was not noticed`);
      } else if (after.ok) {
        stats.survived += 1;
      }
    }
  }
  assert.ok(stats.records > SEQUENCES / 2, `only ${stats.records} finished rounds`);
  assert.ok(stats.errors > SEQUENCES, `only ${stats.errors} invalid calls`);
  // The rule was exercised: rotations refused while a round was in play, rounds voided (and their
  // records verified), moves tried on rounds whose seed was public.
  for (const key of ['refused', 'voided', 'voidedRecords', 'late']) assert.ok(stats[key] > SEQUENCES / 10, `only ${stats[key]} ${key}`);
  t.diagnostic(`seed ${SEED}, ${SEQUENCES} sequences: ${JSON.stringify(stats)}`);
});
