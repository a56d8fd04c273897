'use strict';
// The game through the package: seed pairs, rounds played against the vector-tested minePositions,
// records and their JSON, verifyRound, and what inspection shows.
const test = require('node:test');
const assert = require('node:assert/strict');
const util = require('node:util');
const fm = require('fairmines');
const { loadVectors, expectError } = require('./helpers');
const model = require('./model');

const { SeedPair, Round, Ratio } = fm;
const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
const COMMITMENT = 'f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42';
const HEX64 = /^[0-9a-f]{64}$/;

/** Every way a seed pair could leak its server seed to a log. */
function shown(value) {
  return [util.inspect(value), util.inspect(value, { showHidden: true, depth: 5 }), util.format('%o', value),
    util.format('%O', value), String(value), `${value}`, JSON.stringify(value), JSON.stringify({ value })];
}

test('the worked example as a game: the grid of SPEC.md, the exact multipliers, a record that verifies', () => {
  const pair = SeedPair.fromParts(S, C, 1);
  assert.deepEqual(pair.public, { commitment: COMMITMENT, clientSeed: C, nonce: 1n });
  const round = pair.startRound(3, '0.99');
  assert.equal(pair.public.nonce, 2n, 'the nonce increments when a round starts');
  assert.ok(round instanceof Round);
  assert.equal(round.minePositions, null, 'the grid is hidden while in play');
  assert.deepEqual([round.nonce, round.mines, round.commitment, round.clientSeed, round.rtp.text], [1n, 3, COMMITMENT, C, '99/100']);
  assert.deepEqual([round.isFinished, round.outcome, round.safePicks, round.multiplier, round.picks], [false, null, 0, null, []]);
  assert.equal(round.record(), null);

  const first = round.reveal(1);
  assert.equal(first.safe, true);
  assert.equal(first.safePicks, 1);
  assert.equal(first.multiplier.text, '9/8'); // 25/22 × 99/100
  assert.equal(first.multiplier.toDecimal(2), '1.12');
  assert.deepEqual(round.reveal(2).multiplier.text, '9/7'); // 25·24/(22·21) × 99/100
  assert.equal(round.multiplier.text, '9/7');
  const paid = round.cashOut();
  assert.ok(paid instanceof Ratio);
  assert.equal(paid.text, '9/7');
  assert.deepEqual([round.isFinished, round.outcome, round.safePicks], [true, 'cashed_out', 2]);
  assert.deepEqual(round.minePositions, [7, 10, 19]);

  const record = round.record();
  assert.deepEqual(Object.keys(record), ['commitment', 'clientSeed', 'nonce', 'mines', 'rtp', 'picks', 'outcome', 'multiplier']);
  assert.deepEqual({ ...record, rtp: record.rtp.text, multiplier: record.multiplier.text }, {
    commitment: COMMITMENT, clientSeed: C, nonce: 1n, mines: 3, rtp: '99/100', picks: [1, 2], outcome: 'cashed_out', multiplier: '9/7',
  });
  assert.equal(fm.recordToJson(record),
    `{"commitment":"${COMMITMENT}","client_seed":"${C}","nonce":1,"mines":3,"rtp":"99/100","picks":[1,2],"outcome":"cashed_out","multiplier":"9/7"}`);
  const verdict = fm.verifyRound(record, S);
  assert.deepEqual({ ...verdict, expectedMultiplier: verdict.expectedMultiplier.text }, {
    ok: true, commitmentOk: true, minePositions: [7, 10, 19], expectedOutcome: 'cashed_out', expectedMultiplier: '9/7', differences: [],
  });

  const lost = SeedPair.fromParts(S, C, 1).startRound(3, '99/100');
  assert.deepEqual(lost.reveal(7), { safe: false, safePicks: 0, multiplier: null });
  assert.deepEqual([lost.outcome, lost.multiplier, lost.minePositions], ['lost', null, [7, 10, 19]]);
  assert.equal(lost.record().multiplier, null);
  assert.ok(fm.verifyRound(lost.record(), S).ok);
});

test('rounds of every hex-seeded vector, played to the end and to a mine, follow minePositions exactly', () => {
  const cases = loadVectors().cases.filter((v) => HEX64.test(v.server_seed));
  assert.ok(cases.length > 1000, `${cases.length} vectors with hex server seeds`);
  const rtps = ['0.99', '97/100', '1', '0.5', '987/1000'];
  cases.forEach((v, i) => {
    const at = `vector ${v.id}`;
    const rtp = rtps[i % rtps.length];
    const exact = model.parseRatio(rtp);
    const grid = fm.minePositions(v.server_seed, v.client_seed, v.nonce, v.mines);
    assert.deepEqual(grid, v.positions, at);
    const safe = [];
    for (let t = 25; t >= 1; t--) if (!grid.includes(t)) safe.push(t); // a pick order other than 1, 2, 3…

    // Every safe tile: the round ends paid out by itself.
    const pair = SeedPair.fromParts(v.server_seed, v.client_seed, BigInt(v.nonce));
    assert.equal(pair.public.commitment, v.commitment, at);
    const round = pair.startRound(v.mines, rtp);
    safe.forEach((tile, k) => {
      assert.equal(round.minePositions, null, at);
      const result = round.reveal(tile);
      assert.equal(result.safe, true, at);
      assert.equal(result.safePicks, k + 1, at);
      model.sameRatio(assert, result.multiplier, model.multiplier(v.mines, k + 1, exact), `${at} pick ${k + 1}`);
    });
    assert.equal(round.outcome, 'cashed_out', `${at}: the last safe tile pays out`);
    assert.equal(fm.maxSafePicks(v.mines), safe.length, at);
    assert.deepEqual(round.minePositions, v.positions, at);
    const won = round.record();
    assert.deepEqual(won.picks, safe, at);
    assert.ok(fm.verifyRound(won, v.server_seed).ok, at);

    // Some safe tiles, then a mine.
    const before = i % Math.min(safe.length, 4);
    const again = SeedPair.fromParts(v.server_seed, v.client_seed, v.nonce).startRound(v.mines, rtp);
    for (const tile of safe.slice(0, before)) assert.equal(again.reveal(tile).safe, true, at);
    const mine = v.positions[i % v.positions.length];
    assert.deepEqual(again.reveal(mine), { safe: false, safePicks: before, multiplier: null }, at);
    assert.deepEqual([again.outcome, again.safePicks, again.minePositions], ['lost', before, v.positions], at);
    const lost = again.record();
    const verdict = fm.verifyRound(lost, v.server_seed);
    assert.deepEqual([verdict.ok, verdict.expectedOutcome, verdict.minePositions], [true, 'lost', v.positions], at);
  });
});

test('SeedPair: a fresh pair from the CSPRNG, rotation reveals the seed the commitment promised', () => {
  const pair = new SeedPair('player');
  const { commitment, clientSeed, nonce } = pair.public;
  assert.match(commitment, HEX64);
  assert.deepEqual([clientSeed, nonce], ['player', 0n]);
  assert.notEqual(new SeedPair('player').public.commitment, commitment, 'two pairs, two server seeds');
  const rounds = [pair.startRound(2, '0.99'), pair.startRound(5, '1')];
  assert.deepEqual(rounds.map((r) => r.nonce), [0n, 1n]);
  // Played to the end before the rotation (a round in play refuses it): tile 13, cashed out if safe.
  const firstReveals = rounds.map((round) => {
    const { safe } = round.reveal(13);
    if (safe) round.cashOut();
    assert.ok(round.isFinished);
    return safe;
  });
  assert.deepEqual(pair.openRounds(), []);

  const revealed = pair.rotate();
  assert.deepEqual(Object.keys(revealed), ['serverSeed', 'commitment', 'clientSeed', 'rounds']);
  assert.match(revealed.serverSeed, HEX64);
  assert.equal(fm.commitment(revealed.serverSeed), commitment, 'the revealed seed is the committed one');
  assert.deepEqual([revealed.commitment, revealed.clientSeed, revealed.rounds], [commitment, 'player', 2n]);
  assert.notEqual(pair.public.commitment, commitment, 'a new server seed');
  assert.deepEqual([pair.public.clientSeed, pair.public.nonce], ['player', 0n]);
  // The rounds played before the rotation had the grids of the revealed seed.
  rounds.forEach((round, i) => {
    assert.equal(round.commitment, commitment);
    const grid = fm.minePositions(revealed.serverSeed, 'player', round.nonce, round.mines);
    assert.equal(firstReveals[i], !grid.includes(13));
    assert.deepEqual(round.minePositions, grid);
    assert.equal(round.outcome, grid.includes(13) ? 'lost' : 'cashed_out');
    assert.ok(fm.verifyRound(round.record(), revealed.serverSeed).ok);
  });

  const second = pair.rotate('new client');
  assert.deepEqual([second.clientSeed, second.rounds], ['player', 0n]);
  assert.equal(pair.public.clientSeed, 'new client');
  assert.equal(pair.rotate(null).clientSeed, 'new client', 'null keeps the client seed');

  const open = pair.startRound(1, '1');
  const before = pair.public.commitment;
  expectError(() => pair.setClientSeed('third'), Error, 'FAIRMINES_ROUNDS_IN_PLAY', undefined, undefined);
  assert.deepEqual(pair.voidOpenRounds(), [0n]);
  assert.equal(open.outcome, 'voided');
  const third = pair.setClientSeed('third');
  assert.deepEqual([third.commitment, third.clientSeed, third.rounds], [before, 'new client', 1n]);
  assert.deepEqual([pair.public.clientSeed, pair.public.nonce], ['third', 0n]);
  assert.notEqual(pair.public.commitment, before, 'a new client seed starts a new pair');
});

const IN_PLAY = [Error, 'FAIRMINES_ROUNDS_IN_PLAY', undefined, undefined];
const VOIDED = [Error, 'FAIRMINES_ROUND_VOIDED', undefined, undefined];
const tilesBut = (grid) => [...Array(25).keys()].map((t) => t + 1).filter((t) => !grid.includes(t));

test('issue 21: startRound(5, \'99/100\'), then rotate() or setClientSeed() is refused while the round is in play, and changes nothing', () => {
  const pair = new SeedPair('player');
  const round = pair.startRound(5, '99/100');
  const publicBefore = pair.public;
  const stateBefore = pair.toStateJson();
  for (const attempt of [() => pair.rotate(), () => pair.rotate('another'), () => pair.rotate(null), () => pair.setClientSeed('another')]) {
    const e = expectError(attempt, ...IN_PLAY);
    assert.match(e.message, /\(nonce 0\)/, 'the message names the round in play');
  }
  assert.deepEqual(pair.public, publicBefore, 'the commitment, client seed and nonce are unchanged');
  assert.equal(pair.toStateJson(), stateBefore, 'the server seed is unchanged (and was not revealed)');
  assert.deepEqual(pair.openRounds(), [0n]);
  // The refusal did not end the round: it plays on against the grid of the still-secret seed.
  const grid = fm.minePositions(JSON.parse(stateBefore).server_seed, 'player', 0, 5);
  assert.equal(round.isFinished, false);
  assert.equal(round.reveal(tilesBut(grid)[0]).safe, true);
  assert.equal(round.cashOut().text, model.text(model.multiplier(5, 1, model.parseRatio('99/100'))));
  assert.deepEqual(pair.openRounds(), []);
  assert.equal(fm.commitment(pair.rotate().serverSeed), publicBefore.commitment, 'a finished round lets the pair rotate');

  // Every round in play is named, ascending; finished ones are not.
  const later = SeedPair.fromParts(S, C, 7);
  const rounds = [later.startRound(5, '99/100'), later.startRound(3, '1'), later.startRound(1, '1')];
  rounds[1].reveal(fm.minePositions(S, C, 8, 3)[0]);
  assert.deepEqual(later.openRounds(), [7n, 9n]);
  assert.match(expectError(() => later.setClientSeed('x'), ...IN_PLAY).message, /\(nonce 7, 9\)/);
  assert.deepEqual([later.public.clientSeed, later.public.nonce, later.public.commitment], [C, 10n, COMMITMENT]);
});

test('voidOpenRounds: the rounds in play end voided, then rotate succeeds; a voided round refuses every move and its record verifies', () => {
  const pair = SeedPair.fromParts(S, C, 1);
  const grid = fm.minePositions(S, C, 1, 5);
  const safe = tilesBut(grid);
  const round = pair.startRound(5, '99/100'); // nonce 1: two safe picks, then voided
  round.reveal(safe[0]);
  round.reveal(safe[1]);
  const lost = pair.startRound(3, '0.99'); // nonce 2: lost before the void, not voided
  lost.reveal(fm.minePositions(S, C, 2, 3)[0]);
  const idle = pair.startRound(24, '1'); // nonce 3: no pick, then voided
  assert.deepEqual(pair.openRounds(), [1n, 3n]);
  assert.deepEqual(pair.voidOpenRounds(), [1n, 3n]);
  assert.deepEqual([pair.openRounds(), pair.voidOpenRounds()], [[], []], 'nothing is left in play');
  assert.deepEqual(pair.public.nonce, 4n, 'voiding uses no nonce');
  const revealed = pair.rotate();
  assert.deepEqual([revealed.serverSeed, revealed.rounds], [S, 4n]);

  for (const voided of [round, idle]) {
    const picks = voided.picks;
    for (const tile of [safe[2], grid[0], safe[0], 0, 25]) expectError(() => voided.reveal(tile), ...VOIDED);
    expectError(() => voided.cashOut(), ...VOIDED);
    assert.deepEqual(voided.picks, picks, 'refused moves are not picks');
    assert.deepEqual([voided.isFinished, voided.outcome, voided.multiplier], [true, 'voided', null]);
  }
  assert.deepEqual([round.safePicks, round.minePositions, idle.safePicks], [2, grid, 0]);
  assert.equal(JSON.parse(JSON.stringify(round)).outcome, 'voided');
  assert.match(String(round), /outcome: "voided", multiplier: null, minePositions: \[/);
  assert.equal(lost.outcome, 'lost', 'a finished round is not voided');
  expectError(() => lost.reveal(safe[0]), Error, 'FAIRMINES_ROUND_FINISHED', undefined, undefined);

  const record = round.record();
  assert.deepEqual({ ...record, rtp: record.rtp.text }, {
    commitment: COMMITMENT, clientSeed: C, nonce: 1n, mines: 5, rtp: '99/100', picks: [safe[0], safe[1]], outcome: 'voided', multiplier: null,
  });
  const json = fm.recordToJson(record);
  assert.equal(json, `{"commitment":"${COMMITMENT}","client_seed":"${C}","nonce":1,"mines":5,"rtp":"99/100","picks":[${safe[0]},${safe[1]}],"outcome":"voided","multiplier":null}`);
  assert.equal(fm.recordToJson(fm.recordFromJson(json)), json);
  for (const [voided, nonce, mines] of [[record, 1, 5], [fm.recordFromJson(json), 1, 5], [idle.record(), 3, 24]]) {
    const verdict = fm.verifyRound(voided, revealed.serverSeed);
    assert.deepEqual(verdict, {
      ok: true, commitmentOk: true, minePositions: fm.minePositions(S, C, nonce, mines), expectedOutcome: 'voided', expectedMultiplier: null, differences: [],
    });
  }
  // What no voided round can be: a multiplier paid, a mine among the picks, every safe tile open.
  const changes = [
    [{ multiplier: '2' }, 'voided', 'multiplier:'],
    [{ picks: [safe[0], grid[0]] }, 'lost', 'outcome:'],
    [{ picks: safe }, 'cashed_out', 'outcome:'],
    [{ outcome: 'cashed_out' }, 'cashed_out', 'multiplier:'],
  ];
  for (const [change, expectedOutcome, difference] of changes) {
    const verdict = fm.verifyRound({ ...record, ...change }, S);
    const at = JSON.stringify(change);
    assert.deepEqual([verdict.ok, verdict.expectedOutcome], [false, expectedOutcome], at);
    assert.ok(verdict.differences.some((d) => d.startsWith(difference)), `${at}: ${verdict.differences}`);
    assert.equal(model.replay(fm, { ...record, ...change }, S).ok, false, at);
  }
});

test('the state JSON keeps the rounds in play: the restored pair refuses to rotate until it voids them', () => {
  const pair = SeedPair.fromParts(S, C, 10);
  pair.startRound(3, '0.99'); // nonce 10, left in play
  pair.startRound(3, '0.99').reveal(fm.minePositions(S, C, 11, 3)[0]); // nonce 11, lost
  pair.startRound(3, '0.99'); // nonce 12, left in play
  const state = pair.toStateJson();
  assert.deepEqual(JSON.parse(state), { server_seed: S, commitment: COMMITMENT, client_seed: C, nonce: 13, open_rounds: [10, 12] });
  const restored = SeedPair.fromStateJson(state);
  assert.deepEqual(restored.openRounds(), [10n, 12n]);
  assert.equal(restored.toStateJson(), state);
  expectError(() => restored.rotate(), ...IN_PLAY);
  expectError(() => restored.setClientSeed('x'), ...IN_PLAY);
  assert.deepEqual(SeedPair.fromStateJson(restored.toStateJson()).openRounds(), [10n, 12n], 'no number of restores reopens them');
  const started = restored.startRound(1, '1'); // nonce 13, started by the restored pair
  assert.deepEqual(restored.openRounds(), [10n, 12n, 13n]);
  assert.deepEqual(restored.voidOpenRounds(), [10n, 12n, 13n]);
  expectError(() => started.reveal(1), ...VOIDED);
  assert.deepEqual(JSON.parse(restored.toStateJson()).open_rounds, []);
  const revealed = restored.rotate();
  assert.deepEqual([revealed.serverSeed, revealed.commitment, revealed.rounds], [S, COMMITMENT, 14n]);
  // A u64 nonce in play survives the JSON exactly.
  const big = SeedPair.fromParts(S, C, 2n ** 64n - 3n);
  big.startRound(1, '1');
  assert.deepEqual(SeedPair.fromStateJson(big.toStateJson()).openRounds(), [2n ** 64n - 3n]);
});

test('SeedPair: the state JSON is the core\'s, restores the same pair, and is checked', () => {
  const pair = SeedPair.fromParts(S, 'c', 41n);
  const state = pair.toStateJson();
  assert.deepEqual(JSON.parse(state), { server_seed: S, commitment: COMMITMENT, client_seed: 'c', nonce: 41, open_rounds: [] });
  const restored = SeedPair.fromStateJson(state);
  assert.deepEqual(restored.public, pair.public);
  assert.equal(restored.toStateJson(), state);
  const a = pair.startRound(4, '0.99');
  const b = restored.startRound(4, '0.99');
  assert.equal(a.nonce, b.nonce);
  const grid = fm.minePositions(S, 'c', 41, 4);
  const safe = [...Array(25).keys()].map((t) => t + 1).find((t) => !grid.includes(t));
  for (const t of [safe, grid[1]]) assert.deepEqual(a.reveal(t), b.reveal(t));
  assert.equal(a.outcome, 'lost');
  assert.deepEqual(a.minePositions, grid);
  assert.deepEqual(b.minePositions, grid);
  // Large nonces survive the JSON (a JSON number, written and read by the core as u64).
  const big = SeedPair.fromParts(S, 'c', 2n ** 64n - 2n);
  assert.equal(SeedPair.fromStateJson(big.toStateJson()).public.nonce, 2n ** 64n - 2n);
  const last = big.startRound(1, '1');
  assert.equal(last.nonce, 2n ** 64n - 2n);
  assert.equal(big.public.nonce, 2n ** 64n - 1n);
});

test('the server seed never shows: inspect, toString, JSON.stringify, own keys', () => {
  const pair = SeedPair.fromParts(S, C, 7);
  for (const text of shown(pair)) {
    assert.ok(!text.includes(S), `the seed shows in ${text}`);
  }
  assert.ok(util.inspect(pair).includes(COMMITMENT));
  assert.ok(util.inspect(pair).includes('<hidden>'));
  assert.deepEqual(Object.keys(pair), []);
  assert.equal(pair.serverSeed, undefined);
  assert.deepEqual(JSON.parse(JSON.stringify(pair)), { commitment: COMMITMENT, clientSeed: C, nonce: '7' });
  const fresh = new SeedPair('x');
  const secret = JSON.parse(fresh.toStateJson()).server_seed;
  for (const text of shown(fresh)) assert.ok(!text.includes(secret), `the seed shows in ${text}`);
  // A round shows neither the seed nor, while in play, the grid.
  const round = pair.startRound(3, '0.99');
  const grid = fm.minePositions(S, C, 7, 3);
  for (const text of shown(round)) {
    assert.ok(!text.includes(S), text);
    assert.ok(!text.includes(`[${grid.join(', ')}]`) && !text.includes(`[${grid.join(',')}]`), `the grid shows in ${text}`);
  }
  assert.equal(JSON.parse(JSON.stringify(round)).minePositions, null);
  round.reveal(grid[0]);
  assert.deepEqual(JSON.parse(JSON.stringify(round)).minePositions, grid);
  assert.match(util.inspect(round), /minePositions: \[/);
});

test('Round getters and JSON follow the play; a Round cannot be constructed directly', () => {
  assert.throws(() => new Round(), Error);
  const grid = fm.minePositions(S, C, 3, 5);
  const safe = [...Array(25).keys()].map((t) => t + 1).filter((t) => !grid.includes(t));
  const round = SeedPair.fromParts(S, C, 3).startRound(5, new Ratio(97, 100));
  assert.equal(round.rtp.text, '97/100');
  round.reveal(safe[3]);
  round.reveal(safe[0]);
  const json = JSON.parse(JSON.stringify(round));
  assert.deepEqual(json, {
    commitment: COMMITMENT, clientSeed: C, nonce: '3', mines: 5, rtp: '97/100', picks: [safe[3], safe[0]], safePicks: 2,
    outcome: null, multiplier: model.text(model.multiplier(5, 2, model.parseRatio('0.97'))), minePositions: null,
  });
  assert.deepEqual(round.picks, [safe[3], safe[0]]);
  round.reveal(grid[2]);
  assert.deepEqual([round.picks, round.safePicks, round.multiplier, round.outcome], [[safe[3], safe[0], grid[2]], 2, null, 'lost']);
  assert.deepEqual(round.record().picks, [safe[3], safe[0], grid[2]]);
});

test('records: the core\'s JSON text round-trips both ways; number nonces and ratio strings are accepted', () => {
  const texts = [];
  for (const [nonce, mines, rtp] of [[0, 1, '0.99'], [2n ** 64n - 2n, 24, '1'], [12345, 12, '1/3']]) {
    const grid = fm.minePositions(S, 'ü:😀', nonce, mines);
    const safe = [...Array(25).keys()].map((t) => t + 1).filter((t) => !grid.includes(t));
    for (const lose of [false, true]) {
      const round = SeedPair.fromParts(S, 'ü:😀', nonce).startRound(mines, rtp);
      if (!lose || mines < 24) round.reveal(safe[0]);
      if (lose) round.reveal(grid[0]);
      else if (!round.isFinished) round.cashOut();
      const record = round.record();
      const json = fm.recordToJson(record);
      texts.push(json);
      const back = fm.recordFromJson(json);
      assert.deepEqual({ ...back, rtp: back.rtp.text, multiplier: back.multiplier?.text ?? null },
        { ...record, rtp: record.rtp.text, multiplier: record.multiplier?.text ?? null });
      assert.equal(fm.recordToJson(back), json);
      assert.ok(fm.verifyRound(back, S).ok);
      const parsed = JSON.parse(json);
      assert.deepEqual(Object.keys(parsed), ['commitment', 'client_seed', 'nonce', 'mines', 'rtp', 'picks', 'outcome', 'multiplier']);
      assert.equal(parsed.client_seed, 'ü:😀');
      assert.equal(parsed.outcome, lose ? 'lost' : 'cashed_out');
      // The same record with a number nonce (when safe) and ratio strings gives the same text.
      const loose = { ...record, rtp: record.rtp.text, multiplier: record.multiplier?.text ?? null };
      if (typeof nonce === 'number') loose.nonce = nonce;
      assert.equal(fm.recordToJson(loose), json);
    }
  }
  // u64 nonces are written exactly as JSON numbers (the core's form), and read back exactly.
  assert.ok(texts.some((t) => t.includes('"nonce":18446744073709551614')));
  const maxNonce = fm.recordFromJson(texts[2].replace('18446744073709551614', '18446744073709551615'));
  assert.equal(maxNonce.nonce, 2n ** 64n - 1n);
  // A hand-written record in the documented form reads, verifies and writes back identically.
  const handWritten = `{"commitment":"${COMMITMENT}","client_seed":"${C}","nonce":1,"mines":3,"rtp":"99/100","picks":[25,7],"outcome":"lost","multiplier":null}`;
  const record = fm.recordFromJson(handWritten);
  assert.deepEqual([record.nonce, record.picks, record.outcome, record.multiplier], [1n, [25, 7], 'lost', null]);
  assert.ok(fm.verifyRound(record, S).ok);
  assert.equal(fm.recordToJson(record), handWritten);
});

test('verifyRound names each field that was changed', () => {
  const grid = fm.minePositions(S, C, 1, 3); // [7, 10, 19]
  const round = SeedPair.fromParts(S, C, 1).startRound(3, '0.99');
  round.reveal(1);
  round.reveal(2);
  round.cashOut();
  const record = round.record();
  assert.ok(fm.verifyRound(record, S).ok);
  const other = (n) => fm.commitment(`other ${n}`);
  const changes = [
    ['commitment', { commitment: other(1) }],
    ['outcome', { outcome: 'lost' }],
    ['multiplier', { multiplier: '2' }],
    ['multiplier', { multiplier: null }],
    ['multiplier', { rtp: '0.98' }], // the picks give another multiplier
    ['multiplier', { mines: 4 }], // same picks safe with 4 mines? if not, the outcome differs
    ['multiplier', { picks: [1] }],
    ['picks', { picks: [1, 1] }],
    ['picks', { picks: [1, 7, 2] }],
    ['outcome', { picks: [1, 2, 7] }],
    ['picks', { picks: [] }],
  ];
  for (const [field, change] of changes) {
    const verdict = fm.verifyRound({ ...record, ...change }, S);
    const at = JSON.stringify(change);
    assert.equal(verdict.ok, false, at);
    assert.ok(verdict.differences.length > 0, at);
    assert.equal(verdict.ok, model.replay(fm, { ...record, ...change }, S).ok, at);
    if (!('mines' in change)) assert.ok(verdict.differences.some((d) => d.startsWith(`${field}:`)), `${at}: ${verdict.differences}`);
  }
  // A changed client seed or nonce gives another grid: a difference as soon as a pick meets a mine.
  for (const key of ['clientSeed', 'nonce']) {
    let changed;
    for (let n = 2; ; n++) {
      const candidate = { ...record, [key]: key === 'nonce' ? BigInt(n) : `${C}${n}` };
      const g = fm.minePositions(S, candidate.clientSeed, candidate.nonce, 3);
      if (candidate.picks.some((t) => g.includes(t))) { changed = candidate; break; }
    }
    const verdict = fm.verifyRound(changed, S);
    assert.equal(verdict.ok, false, key);
    assert.ok(verdict.differences.some((d) => d.startsWith('outcome:')), `${key}: ${verdict.differences}`);
  }
  // The wrong server seed: the commitment check fails (and the grid is another one).
  const wrong = fm.verifyRound(record, S.replace(/^b/, 'c'));
  assert.deepEqual([wrong.ok, wrong.commitmentOk], [false, false]);
  assert.ok(wrong.differences[0].startsWith('commitment:'));
  assert.deepEqual(fm.verifyRound(record, S).minePositions, grid);
});

test('Ratio: exact parts, text, rounding down, equality; no float conversion by accident', () => {
  const r = new Ratio(2475n, 100);
  assert.deepEqual([r.numerator, r.denominator, r.text, String(r), `${r}`, JSON.stringify(r)],
    [99n, 4n, '99/4', '99/4', '99/4', '"99/4"']);
  assert.equal(r.toDecimal(2), '24.75');
  assert.equal(r.toDecimal(0), '24');
  assert.equal(new Ratio(2, 3).toDecimal(2), '0.66');
  assert.equal(new Ratio(5, 1).text, '5');
  assert.equal(new Ratio(5, 1).toDecimal(3), '5.000');
  assert.equal(new Ratio(0, 7).text, '0');
  assert.equal(new Ratio(1, 3).toDecimal(18), '0.333333333333333333');
  const big = new Ratio(2n ** 128n - 1n, 2n ** 127n);
  assert.equal(big.numerator, 2n ** 128n - 1n);
  assert.equal(Ratio.parse('0.99').text, '99/100');
  assert.equal(Ratio.parse('198/200').text, '99/100');
  assert.equal(Ratio.parse('.5').text, '1/2');
  assert.ok(Ratio.parse('0.99').equals('99/100'));
  assert.ok(Ratio.parse('0.99').equals(new Ratio(198, 200)));
  assert.ok(!Ratio.parse('0.99').equals('0.98'));
  assert.equal(new Ratio(9, 8).toNumber(), 1.125);
  assert.equal(util.inspect(new Ratio(9, 8)), 'Ratio(9/8)');
  assert.ok(Number.isNaN(+new Ratio(9, 8)), 'no valueOf: arithmetic on a Ratio is NaN, never a rounded float');
});
