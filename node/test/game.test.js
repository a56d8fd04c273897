'use strict';
// A short smoke of the game through the package, and the conversion of its results: seed pairs, rounds
// (every Reveal field), records and their JSON, verifyRound, the no-rotation-in-play sequence, the state JSON and a
// round resumed from it (in this process and in a second one), and what inspection shows. The rules
// themselves are tested once, in the core (crates/fairmines/tests/game.rs, game_machine.rs, resume.rs);
// payouts, ratios and records as such, which the WebAssembly package has too, in tests/js-conformance.
const test = require('node:test');
const assert = require('node:assert/strict');
const util = require('node:util');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const fm = require('fairmines');
const { loadVectors, expectError } = require('./helpers');

const { SeedPair, Round, Ratio } = fm;
const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
const COMMITMENT = 'f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42';
const HEX64 = /^[0-9a-f]{64}$/;
const IN_PLAY = [Error, 'FAIRMINES_ROUNDS_IN_PLAY', undefined, undefined];
const VOIDED = [Error, 'FAIRMINES_ROUND_VOIDED', undefined, undefined];
const tilesBut = (grid) => [...Array(25).keys()].map((t) => t + 1).filter((t) => !grid.includes(t));

/** Every way a seed pair could leak its server seed to a log. */
function shown(value) {
  return [util.inspect(value), util.inspect(value, { showHidden: true, depth: 5 }), util.format('%o', value),
    util.format('%O', value), String(value), `${value}`, JSON.stringify(value), JSON.stringify({ value })];
}

test('the worked example as a game: every field of Reveal, the exact multipliers, a record that verifies', () => {
  const pair = SeedPair.fromParts(S, C, 1);
  assert.deepEqual(pair.publicPart, { commitment: COMMITMENT, clientSeed: C, nonce: 1n });
  const round = pair.startRound(3, '0.99');
  assert.equal(pair.publicPart.nonce, 2n, 'the nonce increments when a round starts');
  assert.ok(round instanceof Round);
  assert.deepEqual([round.nonce, round.mines, round.commitment, round.clientSeed, round.rtp.text], [1n, 3, COMMITMENT, C, '99/100']);
  assert.deepEqual([round.isFinished, round.outcome, round.safePicks, round.multiplier, round.picks, round.minePositions, round.record()],
    [false, null, 0, null, [], null, null]);
  assert.deepEqual([round.toRecordJson(), round.payout(100)], [null, null]);

  const first = round.reveal(1);
  assert.deepEqual(Object.keys(first), ['tile', 'safe', 'safePicks', 'multiplier', 'finished']);
  assert.deepEqual({ ...first, multiplier: first.multiplier.text }, { tile: 1, safe: true, safePicks: 1, multiplier: '9/8', finished: false });
  assert.ok(first.multiplier instanceof Ratio);
  assert.equal(first.multiplier.toDecimal(2), '1.12');
  assert.equal(round.reveal(2n).multiplier.text, '9/7');
  const paid = round.cashOut();
  assert.ok(paid instanceof Ratio);
  assert.equal(paid.text, '9/7');
  assert.deepEqual([round.isFinished, round.outcome, round.safePicks, round.multiplier.text, round.minePositions], [true, 'cashed_out', 2, '9/7', [7, 10, 19]]);

  const record = round.record();
  assert.deepEqual(Object.keys(record), ['commitment', 'clientSeed', 'nonce', 'mines', 'rtp', 'picks', 'outcome', 'multiplier']);
  assert.deepEqual({ ...record, rtp: record.rtp.text, multiplier: record.multiplier.text }, {
    commitment: COMMITMENT, clientSeed: C, nonce: 1n, mines: 3, rtp: '99/100', picks: [1, 2], outcome: 'cashed_out', multiplier: '9/7',
  });
  assert.equal(fm.recordToJson(record),
    `{"commitment":"${COMMITMENT}","client_seed":"${C}","nonce":1,"mines":3,"rtp":"99/100","picks":[1,2],"outcome":"cashed_out","multiplier":"9/7"}`);
  assert.equal(round.toRecordJson(), fm.recordToJson(record));
  assert.equal(round.payout(700), 900n);
  const verdict = fm.verifyRound(record, S);
  assert.deepEqual(Object.keys(verdict), ['commitmentOk', 'minePositions', 'expectedOutcome', 'expectedMultiplier', 'differences', 'ok']);
  assert.deepEqual({ ...verdict, expectedMultiplier: verdict.expectedMultiplier.text }, {
    ok: true, commitmentOk: true, minePositions: [7, 10, 19], expectedOutcome: 'cashed_out', expectedMultiplier: '9/7', differences: [],
  });
  const tampered = fm.verifyRound({ ...record, multiplier: '2' }, S);
  assert.deepEqual([tampered.ok, tampered.differences], [false, ['multiplier: the record says 2, the picks give 9/7']]);

  const lost = SeedPair.fromParts(S, C, 1).startRound(3, '99/100');
  assert.deepEqual(lost.reveal(7), { tile: 7, safe: false, safePicks: 0, multiplier: null, finished: true });
  assert.deepEqual([lost.outcome, lost.multiplier, lost.minePositions, lost.record().multiplier], ['lost', null, [7, 10, 19], null]);
  assert.ok(fm.verifyRound(lost.record(), S).ok);

  // The last safe tile finishes the round, paid: the Reveal says so and carries what was paid.
  const all = SeedPair.fromParts(S, C, 1).startRound(24, '1');
  const grid = fm.minePositions(S, C, 1, 24);
  const last = all.reveal(tilesBut(grid)[0]);
  assert.deepEqual({ ...last, multiplier: last.multiplier.text }, { tile: tilesBut(grid)[0], safe: true, safePicks: 1, multiplier: '25', finished: true });
  assert.equal(all.outcome, 'cashed_out');
});

test('a round of every hex-seeded vector, to its last safe tile and to a mine, meets the vector\'s grid', () => {
  const cases = loadVectors().cases.filter((v) => HEX64.test(v.server_seed));
  assert.ok(cases.length > 1000, `${cases.length} vectors with hex server seeds`);
  const rtps = ['0.99', '97/100', '1', '0.5', new Ratio(987, 1000)];
  cases.forEach((v, i) => {
    const at = `vector ${v.id}`;
    const rtp = rtps[i % rtps.length];
    const safe = tilesBut(v.positions).reverse(); // a pick order other than 1, 2, 3…
    const pair = SeedPair.fromParts(v.server_seed, v.client_seed, BigInt(v.nonce));
    assert.equal(pair.publicPart.commitment, v.commitment, at);
    const round = pair.startRound(v.mines, rtp);
    safe.forEach((tile, k) => {
      const reveal = round.reveal(tile);
      assert.deepEqual([reveal.tile, reveal.safe, reveal.safePicks, reveal.finished], [tile, true, k + 1, k + 1 === safe.length], at);
      assert.equal(reveal.multiplier.text, fm.multiplier(v.mines, k + 1, rtp).text, at);
    });
    assert.deepEqual([round.outcome, round.minePositions], ['cashed_out', v.positions], at);
    assert.ok(fm.verifyRound(round.record(), v.server_seed).ok, at);
    assert.equal(round.toRecordJson(), fm.recordToJson(round.record()), at);
    assert.equal(round.payout(1000 + i), fm.payout(round.record(), 1000 + i), at);

    const before = i % Math.min(safe.length, 4);
    const again = SeedPair.fromParts(v.server_seed, v.client_seed, v.nonce).startRound(v.mines, rtp);
    for (const tile of safe.slice(0, before)) assert.equal(again.reveal(tile).safe, true, at);
    const mine = v.positions[i % v.positions.length];
    assert.deepEqual(again.reveal(mine), { tile: mine, safe: false, safePicks: before, multiplier: null, finished: true }, at);
    const verdict = fm.verifyRound(again.record(), v.server_seed);
    assert.deepEqual([verdict.ok, verdict.expectedOutcome, verdict.minePositions], [true, 'lost', v.positions], at);
    assert.equal(again.toRecordJson(), fm.recordToJson(again.record()), at);
    assert.equal(again.payout(1000n), 0n, at);
  });
});

test('SeedPair: a fresh pair from the CSPRNG; rotation reveals the seed the commitment promised', () => {
  const pair = new SeedPair('player');
  const { commitment, clientSeed, nonce } = pair.publicPart;
  assert.match(commitment, HEX64);
  assert.deepEqual([clientSeed, nonce], ['player', 0n]);
  assert.notEqual(new SeedPair('player').publicPart.commitment, commitment, 'two pairs, two server seeds');
  const round = pair.startRound(2, '0.99');
  if (round.reveal(13).safe) round.cashOut();
  const revealed = pair.rotate();
  assert.deepEqual(Object.keys(revealed), ['serverSeed', 'commitment', 'clientSeed', 'rounds']);
  assert.equal(fm.commitment(revealed.serverSeed), commitment, 'the revealed seed is the committed one');
  assert.deepEqual([revealed.commitment, revealed.clientSeed, revealed.rounds], [commitment, 'player', 1n]);
  assert.deepEqual(round.minePositions, fm.minePositions(revealed.serverSeed, 'player', 0, 2));
  assert.ok(fm.verifyRound(round.record(), revealed.serverSeed).ok);
  assert.notEqual(pair.publicPart.commitment, commitment, 'a new server seed');
  assert.equal(pair.rotate('new client').clientSeed, 'player');
  assert.equal(pair.rotate(null).clientSeed, 'new client', 'null keeps the client seed');
  assert.equal(pair.setClientSeed('third').clientSeed, 'new client');
  assert.deepEqual([pair.publicPart.clientSeed, pair.publicPart.nonce], ['third', 0n]);
  const generated = fm.generateServerSeed();
  assert.equal(SeedPair.fromParts(generated.serverSeed, 'client', 0).publicPart.commitment, generated.commitment, 'a generated seed makes a pair');
});

test('startRound(5, \'99/100\'), then rotate() or setClientSeed() is refused while the round is in play, and changes nothing', () => {
  const pair = new SeedPair('player');
  const round = pair.startRound(5, '99/100');
  const publicBefore = pair.publicPart;
  const stateBefore = pair.toStateJson();
  for (const attempt of [() => pair.rotate(), () => pair.rotate('another'), () => pair.rotate(null), () => pair.setClientSeed('another')]) {
    const e = expectError(attempt, ...IN_PLAY);
    assert.match(e.message, /\(nonce 0\)/, 'the message names the round in play');
  }
  assert.deepEqual(pair.publicPart, publicBefore, 'the commitment, client seed and nonce are unchanged');
  assert.equal(pair.toStateJson(), stateBefore, 'the server seed is unchanged (and was not revealed)');
  assert.deepEqual(pair.openRounds(), [0n]);
  // The refusal did not end the round: it plays on against the grid of the still-secret seed.
  const grid = fm.minePositions(JSON.parse(stateBefore).server_seed, 'player', 0, 5);
  assert.equal(round.reveal(tilesBut(grid)[0]).safe, true);
  assert.equal(round.cashOut().text, fm.multiplier(5, 1, '99/100').text);
  assert.deepEqual(pair.openRounds(), []);
  assert.equal(fm.commitment(pair.rotate().serverSeed), publicBefore.commitment, 'a finished round lets the pair rotate');
});

test('voidOpenRounds: the rounds in play end voided, then rotate succeeds; a voided record in both JSON directions', () => {
  const pair = SeedPair.fromParts(S, C, 1);
  const safe = tilesBut(fm.minePositions(S, C, 1, 5));
  const round = pair.startRound(5, '99/100');
  round.reveal(safe[0]);
  const idle = pair.startRound(24, '1');
  assert.deepEqual(pair.voidOpenRounds(), [1n, 2n]);
  assert.deepEqual([pair.openRounds(), pair.voidOpenRounds()], [[], []]);
  expectError(() => round.reveal(safe[1]), ...VOIDED);
  expectError(() => idle.cashOut(), ...VOIDED);
  assert.deepEqual([round.isFinished, round.outcome, round.multiplier, round.safePicks], [true, 'voided', null, 1]);
  assert.deepEqual([pair.rotate().serverSeed, JSON.parse(JSON.stringify(round)).outcome], [S, 'voided']);
  assert.match(String(round), /outcome: "voided", multiplier: null, minePositions: \[/);
  const record = round.record();
  const json = `{"commitment":"${COMMITMENT}","client_seed":"${C}","nonce":1,"mines":5,"rtp":"99/100","picks":[${safe[0]}],"outcome":"voided","multiplier":null}`;
  assert.equal(fm.recordToJson(record), json);
  assert.equal(fm.recordToJson(fm.recordFromJson(json)), json);
  for (const [voided, nonce, mines] of [[record, 1, 5], [fm.recordFromJson(json), 1, 5], [idle.record(), 2, 24]]) {
    assert.deepEqual(fm.verifyRound(voided, S), {
      ok: true, commitmentOk: true, minePositions: fm.minePositions(S, C, nonce, mines), expectedOutcome: 'voided', expectedMultiplier: null, differences: [],
    });
  }
});

test('the state JSON is the core\'s (version 2): every round in play whole, each move in it at once, u64 nonces', () => {
  const pair = SeedPair.fromParts(S, C, 10);
  const round = pair.startRound(3, '0.99'); // nonce 10
  const safe = tilesBut(fm.minePositions(S, C, 10, 3));
  const state = (nonce, rounds) => ({ version: 2, server_seed: S, commitment: COMMITMENT, client_seed: C, nonce, rounds });
  assert.deepEqual(JSON.parse(pair.toStateJson()), state(11, [{ nonce: 10, mines: 3, rtp: '99/100', picks: [] }]));
  round.reveal(safe[4]);
  assert.deepEqual(JSON.parse(pair.toStateJson()), state(11, [{ nonce: 10, mines: 3, rtp: '99/100', picks: [safe[4]] }]), 'the reveal is in the state');
  const idle = pair.startRound(24, new Ratio(97, 100)); // nonce 11, in play beside it
  const text = pair.toStateJson();
  assert.deepEqual(JSON.parse(text), state(12, [{ nonce: 10, mines: 3, rtp: '99/100', picks: [safe[4]] }, { nonce: 11, mines: 24, rtp: '97/100', picks: [] }]));
  const restored = SeedPair.fromStateJson(text);
  assert.deepEqual([restored.publicPart, restored.openRounds(), restored.toStateJson()], [pair.publicPart, [10n, 11n], text]);
  // Each round comes back by its nonce, whole.
  const [ten, eleven] = [restored.round(10), restored.round(11n)];
  assert.deepEqual([ten.nonce, ten.mines, ten.rtp.text, ten.picks, ten.safePicks, ten.multiplier.text, ten.isFinished, ten.minePositions],
    [10n, 3, '99/100', [safe[4]], 1, fm.multiplier(3, 1, '0.99').text, false, null]);
  assert.deepEqual([eleven.nonce, eleven.mines, eleven.rtp.text, eleven.picks, eleven.multiplier], [11n, 24, '97/100', [], null]);
  expectError(() => restored.rotate(), ...IN_PLAY);
  assert.deepEqual(restored.voidOpenRounds(), [10n, 11n]);
  expectError(() => ten.reveal(safe[0]), ...VOIDED);
  assert.equal(restored.rotate().rounds, 12n);
  assert.deepEqual([round.isFinished, idle.isFinished], [false, false], 'a restored copy does not reach the original\'s rounds');
  round.cashOut();
  idle.reveal(tilesBut(fm.minePositions(S, C, 11, 24))[0]); // the one safe tile: paid, finished
  assert.deepEqual(JSON.parse(pair.toStateJson()), state(12, []), 'a finished round leaves the state');
  const big = SeedPair.fromParts(S, C, 2n ** 64n - 2n);
  big.startRound(1, '1');
  const back = SeedPair.fromStateJson(big.toStateJson());
  assert.match(big.toStateJson(), /"nonce":18446744073709551615,"rounds":\[\{"nonce":18446744073709551614,/);
  assert.deepEqual([back.publicPart.nonce, back.openRounds(), back.round(2n ** 64n - 2n).nonce], [2n ** 64n - 1n, [2n ** 64n - 2n], 2n ** 64n - 2n]);
});


test('a nonce above 2^53 in the core JSON: fromStateJson and recordFromJson keep it, plain JSON.parse rounds it', () => {
  const nonce = 2n ** 64n - 2n;
  const pair = SeedPair.fromParts(S, C, nonce);
  const round = pair.startRound(3, '0.99');
  const state = pair.toStateJson();
  assert.match(state, /"nonce":18446744073709551615,"rounds":\[\{"nonce":18446744073709551614,/);
  assert.equal(JSON.parse(state).rounds[0].nonce, 2 ** 64, 'JSON.parse gives the nearest double, not the nonce');
  assert.notEqual(BigInt(JSON.parse(state).rounds[0].nonce), nonce);
  const back = SeedPair.fromStateJson(state);
  assert.deepEqual([back.publicPart.nonce, back.openRounds(), back.round(nonce).nonce], [nonce + 1n, [nonce], nonce]);
  pair.voidOpenRounds();
  const text = fm.recordToJson(round.record());
  assert.match(text, /"nonce":18446744073709551614,/);
  assert.equal(JSON.parse(text).nonce, 2 ** 64);
  assert.equal(fm.recordFromJson(text).nonce, nonce);
  // The reviver of docs/node.md, where JSON.parse hands it the source text (Node >= 21).
  const exact = (key, value, context) =>
    (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source !== undefined ? BigInt(context.source) : value);
  let probe;
  JSON.parse('1', (key, value, context) => { probe = context; return value; });
  if (probe?.source !== undefined) {
    assert.equal(JSON.parse(text, exact).nonce, nonce);
    assert.equal(JSON.parse(state, exact).rounds[0].nonce, nonce);
  }
});

/**
 * Plays one round at nonce 5 of the pair (S, C): `moves` are tiles, `'cash'` or `'void'`. With `restart`,
 * each move is made by a new process in effect: the pair restored from the state stored after the last
 * move, the round taken back by its nonce, nothing else kept. Returns everything a move and the ending gave.
 */
function session(mines, moves, restart) {
  let pair = SeedPair.fromParts(S, C, 5);
  let round = pair.startRound(mines, '0.97');
  let stored = pair.toStateJson();
  const seen = [];
  for (const move of moves) {
    if (restart) {
      pair = SeedPair.fromStateJson(stored);
      round = pair.round(5);
    }
    if (move === 'void') seen.push(pair.voidOpenRounds());
    else if (move === 'cash') seen.push(round.cashOut().text);
    else seen.push(JSON.stringify(round.reveal(move)));
    stored = pair.toStateJson();
    seen.push(stored);
  }
  const record = round.record();
  assert.ok(record, `${mines} mines, ${moves}: the round has ended`);
  return {
    seen, record: fm.recordToJson(record), outcome: round.outcome, multiplier: round.multiplier?.text ?? null,
    picks: round.picks, minePositions: round.minePositions, open: pair.openRounds(), revealed: pair.rotate(),
  };
}

test('a round resumed after every move (restored state, round(nonce)) ends as an uninterrupted one: a loss, a cash-out, a full clear, a void', () => {
  let played = 0;
  for (const mines of [1, 3, 12, 24]) {
    const grid = fm.minePositions(S, C, 5, mines);
    const safe = tilesBut(grid).reverse(); // not 1, 2, 3…
    const some = safe.slice(0, Math.min(3, safe.length - 1)); // safe picks that leave a safe tile closed
    const endings = [
      [[...some, grid[0]], 'lost'],
      [safe, 'cashed_out'], // every safe tile: the round pays out by itself
      [[...some, 'void'], 'voided'],
    ];
    if (some.length > 0) endings.push([[...some, 'cash'], 'cashed_out']); // 24 mines: one safe pick clears the board
    for (const [moves, outcome] of endings) {
      const at = `${mines} mines: ${moves}`;
      const resumed = session(mines, moves, true);
      const straight = session(mines, moves, false);
      assert.deepEqual(resumed, straight, at);
      assert.deepEqual([resumed.outcome, resumed.open, resumed.minePositions, resumed.revealed.serverSeed], [outcome, [], grid, S], at);
      assert.deepEqual(resumed.picks, moves.filter((m) => typeof m === 'number'), at);
      const verdict = fm.verifyRound(fm.recordFromJson(resumed.record), resumed.revealed.serverSeed);
      assert.deepEqual([verdict.ok, verdict.expectedOutcome], [true, outcome], `${at}: ${verdict.differences}`);
      if (outcome === 'cashed_out') assert.equal(resumed.multiplier, fm.multiplier(mines, resumed.picks.length, '0.97').text, at);
      played++;
    }
  }
  assert.equal(played, 15);
});

test('two processes: one starts a round and reveals a safe tile, the next restores its stored state, resumes by nonce and cashes out', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fairmines-resume-'));
  /** Runs `script` in a child Node process (`fm` is this package), the state file its argument; its stdout. */
  const run = (name, script, stateFile) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, `'use strict';\nconst fm = require(${JSON.stringify(path.join(__dirname, '..', 'index.js'))});\n${script}`);
    return execFileSync(process.execPath, [file, stateFile], { encoding: 'utf8', timeout: 60_000 });
  };
  try {
    const stateFile = path.join(dir, 'state.json');
    // The first process: a live pair (a fresh secret seed), the round's first move, the state stored.
    run('first.js', `
      const pair = new fm.SeedPair('player');
      const round = pair.startRound(3, '0.99');
      const { server_seed: seed } = JSON.parse(pair.toStateJson());
      const mines = fm.minePositions(seed, 'player', round.nonce, 3);
      const tile = [...Array(25).keys()].map((t) => t + 1).filter((t) => !mines.includes(t)).at(-1);
      if (!round.reveal(tile).safe) throw new Error('not a safe tile');
      require('node:fs').writeFileSync(process.argv[2], pair.toStateJson());
    `, stateFile);
    const stored = JSON.parse(fs.readFileSync(stateFile, 'utf8'));
    const seed = stored.server_seed;
    const safe = tilesBut(fm.minePositions(seed, 'player', 0, 3));
    assert.deepEqual(stored, { version: 2, server_seed: seed, commitment: fm.commitment(seed), client_seed: 'player', nonce: 1,
      rounds: [{ nonce: 0, mines: 3, rtp: '99/100', picks: [safe.at(-1)] }] });
    // The second process: only the stored text; the round by its nonce, a second safe tile, the cash-out.
    const printed = run('second.js', `
      const stored = require('node:fs').readFileSync(process.argv[2], 'utf8');
      const pair = fm.SeedPair.fromStateJson(stored);
      const [nonce] = pair.openRounds();
      const round = pair.round(nonce);
      const mines = fm.minePositions(JSON.parse(stored).server_seed, 'player', nonce, 3);
      const tile = [...Array(25).keys()].map((t) => t + 1).find((t) => !mines.includes(t) && !round.picks.includes(t));
      round.reveal(tile);
      round.cashOut();
      process.stdout.write(fm.recordToJson(round.record()));
    `, stateFile);
    // The same moves in this process, uninterrupted.
    const pair = SeedPair.fromParts(seed, 'player', 0);
    const round = pair.startRound(3, '0.99');
    assert.equal(round.reveal(safe.at(-1)).safe, true);
    assert.equal(round.reveal(safe[0]).safe, true);
    assert.equal(round.cashOut().text, fm.multiplier(3, 2, '0.99').text);
    assert.equal(printed, fm.recordToJson(round.record()));
    const revealed = pair.rotate();
    assert.equal(revealed.commitment, stored.commitment);
    const verdict = fm.verifyRound(fm.recordFromJson(printed), revealed.serverSeed);
    assert.deepEqual([verdict.ok, verdict.expectedOutcome, verdict.expectedMultiplier.text], [true, 'cashed_out', fm.multiplier(3, 2, '0.99').text]);
    assert.deepEqual(fm.recordFromJson(printed).picks, [safe.at(-1), safe[0]]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the server seed never shows: inspect, toString, JSON.stringify, own keys', () => {
  const pair = SeedPair.fromParts(S, C, 7);
  for (const text of shown(pair)) assert.ok(!text.includes(S), `the seed shows in ${text}`);
  assert.ok(util.inspect(pair).includes(COMMITMENT));
  assert.equal(util.inspect(pair), `SeedPair { commitment: "${COMMITMENT}", clientSeed: "${C}", nonce: 7n, serverSeed: <hidden> }`);
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
  round.reveal(grid[0]);
  assert.deepEqual(JSON.parse(JSON.stringify(round)).minePositions, grid);
  assert.match(util.inspect(round), /minePositions: \[/);
});

test('Round getters and JSON follow the play; a Round cannot be constructed directly', () => {
  expectError(() => new Round(), TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', undefined);
  const grid = fm.minePositions(S, C, 3, 5);
  const safe = tilesBut(grid);
  const round = SeedPair.fromParts(S, C, 3).startRound(5, new Ratio(97, 100));
  round.reveal(safe[3]);
  round.reveal(safe[0]);
  assert.deepEqual(JSON.parse(JSON.stringify(round)), {
    commitment: COMMITMENT, clientSeed: C, nonce: '3', mines: 5, rtp: '97/100', picks: [safe[3], safe[0]], safePicks: 2,
    outcome: null, multiplier: fm.multiplier(5, 2, '0.97').text, minePositions: null,
  });
  assert.equal(String(round), `Round { commitment: "${COMMITMENT}", clientSeed: "${C}", nonce: 3n, mines: 5, rtp: "97/100", picks: [${safe[3]}, ${safe[0]}], safePicks: 2, outcome: null, multiplier: "${fm.multiplier(5, 2, '0.97').text}", minePositions: null }`);
  round.reveal(grid[2]);
  assert.deepEqual([round.picks, round.safePicks, round.multiplier, round.outcome], [[safe[3], safe[0], grid[2]], 2, null, 'lost']);
});

test('records of played rounds: the core\'s JSON text round-trips both ways; number nonces and ratio strings are accepted', () => {
  for (const [nonce, mines, rtp] of [[0, 1, '0.99'], [2n ** 64n - 2n, 24, '1'], [12345, 12, '1/3']]) {
    const grid = fm.minePositions(S, 'ü:😀', nonce, mines);
    const round = SeedPair.fromParts(S, 'ü:😀', nonce).startRound(mines, rtp);
    round.reveal(tilesBut(grid)[0]);
    if (!round.isFinished) round.cashOut();
    const record = round.record();
    const json = fm.recordToJson(record);
    const back = fm.recordFromJson(json);
    assert.deepEqual({ ...back, rtp: back.rtp.text, multiplier: back.multiplier.text },
      { ...record, rtp: record.rtp.text, multiplier: record.multiplier.text });
    assert.equal(fm.recordToJson(back), json);
    assert.equal(JSON.parse(json).client_seed, 'ü:😀');
    // The same record with a number nonce (when exact) and ratio strings gives the same text.
    const loose = { ...record, rtp: record.rtp.text, multiplier: record.multiplier.text };
    if (typeof nonce === 'number') loose.nonce = nonce;
    assert.equal(fm.recordToJson(loose), json);
  }
});

test('JSON.stringify(record) is the core\'s record JSON: recordFromJson and verifyRound read what a log holds', () => {
  const grid = fm.minePositions(S, C, 1, 3);
  const safe = tilesBut(grid);
  const pair = SeedPair.fromParts(S, C, 1);
  const lost = pair.startRound(3, '0.99');
  lost.reveal(safe[0]);
  lost.reveal(grid[0]);
  const cashed = pair.startRound(5, '97/100');
  cashed.reveal(tilesBut(fm.minePositions(S, C, 2, 5))[0]);
  cashed.cashOut();
  const voided = pair.startRound(24, '1');
  pair.voidOpenRounds();
  const records = [lost.record(), cashed.record(), voided.record(), fm.recordFromJson(fm.recordToJson(cashed.record()))];
  assert.deepEqual(records.map((r) => r.outcome), ['lost', 'cashed_out', 'voided', 'cashed_out']);
  for (const record of records) {
    const logged = JSON.stringify(record);
    assert.equal(logged, fm.recordToJson(record), 'byte for byte what recordToJson writes');
    assert.deepEqual(record.toJSON(), JSON.parse(fm.recordToJson(record)));
    assert.deepEqual(Object.keys(JSON.parse(logged)), ['commitment', 'client_seed', 'nonce', 'mines', 'rtp', 'picks', 'outcome', 'multiplier']);
    const back = fm.recordFromJson(logged);
    assert.deepEqual(back, record);
    assert.ok(fm.verifyRound(back, S).ok, logged);
    // Inside a larger log line too.
    assert.equal(JSON.stringify({ event: 'round', record }), `{"event":"round","record":${fm.recordToJson(record)}}`);
  }
});

test('JSON.stringify(record) of a nonce above 2^53 - 1: exact where JSON.rawJSON exists, never a rounded number', () => {
  // Node.js 20 has JSON.rawJSON behind a flag (21 and later by default): the same script with and without it.
  const script = `
    const fm = require(${JSON.stringify(path.join(__dirname, '..', 'index.js'))});
    const pair = fm.SeedPair.fromParts('${S}', 'c', 2n ** 64n - 2n);
    const round = pair.startRound(3, '0.99');
    pair.voidOpenRounds();
    const logged = JSON.stringify(round.record());
    let back = null;
    try { back = fm.recordFromJson(logged).nonce; } catch (e) { back = e.code; }
    process.stdout.write(JSON.stringify({ raw: typeof JSON.rawJSON === 'function', same: logged === fm.recordToJson(round.record()), logged, back: String(back) }));`;
  const run = (flags) => JSON.parse(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8', timeout: 60_000 }));
  const runs = [run([]), run(['--harmony-json-parse-with-source'])];
  assert.ok(runs.some((r) => r.raw), 'one run has JSON.rawJSON');
  for (const { raw, same, logged, back } of runs) {
    assert.ok(!logged.includes('18446744073709552000'), logged);
    if (raw) {
      assert.deepEqual([same, back], [true, '18446744073709551614'], logged);
    } else {
      assert.match(logged, /"nonce":"18446744073709551614"/);
      assert.equal(back, 'FAIRMINES_INVALID_STATE');
    }
  }
});

test('JSON.stringify writes every result holding a bigint: decimal strings, through a toJSON no one else sees', () => {
  const pair = SeedPair.fromParts(S, C, 2n ** 64n - 3n);
  const pub = pair.publicPart;
  assert.equal(JSON.stringify(pub), `{"commitment":"${COMMITMENT}","clientSeed":"${C}","nonce":"18446744073709551613"}`);
  assert.deepEqual(pub.toJSON(), JSON.parse(JSON.stringify(pair)), 'the same as the pair\'s own');
  const round = pair.startRound(3, '0.99');
  round.reveal(1);
  round.cashOut();
  const record = round.record();
  // A record writes the core's record JSON; its nonce, above 2^53 - 1, as Node.js can write it exactly.
  const exact = typeof JSON.rawJSON === 'function';
  const json = { commitment: COMMITMENT, client_seed: C, nonce: exact ? JSON.rawJSON('18446744073709551613') : '18446744073709551613', mines: 3, rtp: '99/100', picks: [1], outcome: 'cashed_out', multiplier: '9/8' };
  assert.deepEqual(record.toJSON(), json, 'toJSON gives the core\'s keys and plain JSON values (ratios as text)');
  assert.equal(JSON.stringify(record), JSON.stringify(json));
  assert.equal(JSON.stringify(fm.recordFromJson(fm.recordToJson(record))), JSON.stringify(json));
  const open = pair.startRound(24, '1');
  assert.equal(JSON.stringify(pair.openRounds()), '["18446744073709551614"]');
  assert.equal(JSON.stringify(pair.voidOpenRounds()), '["18446744073709551614"]');
  assert.equal(JSON.stringify(open.record()), JSON.stringify({ ...json, nonce: exact ? JSON.rawJSON('18446744073709551614') : '18446744073709551614', mines: 24, rtp: '1', picks: [], outcome: 'voided', multiplier: null }));
  const revealed = pair.rotate();
  assert.equal(JSON.stringify(revealed), `{"serverSeed":"${S}","commitment":"${COMMITMENT}","clientSeed":"${C}","rounds":"18446744073709551615"}`);
  const next = pair.setClientSeed('next'); // the pair rotate() started: client seed C, no round played
  assert.deepEqual(JSON.parse(JSON.stringify(next)), { serverSeed: next.serverSeed, commitment: next.commitment, clientSeed: C, rounds: '0' });
  // Not enumerable: keys, deepEqual, util.inspect and a spread do not see it; a record goes back in as it is.
  for (const value of [pub, record, revealed]) {
    assert.ok(!Object.keys(value).includes('toJSON'));
    assert.ok(!util.inspect(value).includes('toJSON'));
  }
  assert.deepEqual(pair.openRounds(), []);
  assert.deepEqual(Object.keys(record), ['commitment', 'clientSeed', 'nonce', 'mines', 'rtp', 'picks', 'outcome', 'multiplier']);
  assert.equal(typeof { ...record }.toJSON, 'undefined');
  assert.ok(fm.verifyRound(record, S).ok);
  assert.equal(fm.recordToJson({ ...record }), fm.recordToJson(record));
});
