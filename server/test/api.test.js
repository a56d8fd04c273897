// Every route, each status and error code of the API, on a real PostgreSQL.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { commitment, minePositions, recordFromJson, verifyRound } from 'fairmines';
import { AUTH, call, serviceForFile } from './helpers.js';
import { minesOf, tiles } from './game-helpers.js';

let app;
const svc = serviceForFile((s) => { app = s.app; });

// Each round's player, as its start said: the move routes name it.
const owners = new Map();
const newRound = async (player, body = { mines: 3, rtp: '0.99' }) => {
  const res = await call(app, 'POST', `/v1/players/${player}/rounds`, body);
  if (res.status === 201) owners.set(res.json.round, player);
  return res;
};
const roundUrl = (round) => `/v1/players/${owners.get(round) ?? 'nobody'}/rounds/${round}`;
const reveal = (round, tile, move) => call(app, 'POST', `${roundUrl(round)}/reveal`, { tile, move });
const cashOut = (round, move) => call(app, 'POST', `${roundUrl(round)}/cash-out`, { move });
const rotate = (player, body) => call(app, 'POST', `/v1/players/${player}/rotate`, body);
const error = (res, status, code, argument) => {
  assert.equal(res.status, status, res.body);
  assert.equal(res.json.error.code, code, res.body);
  if (argument !== undefined) assert.equal(res.json.error.argument, argument, res.body);
  assert.equal(typeof res.json.error.message, 'string');
};

describe('authentication', () => {
  test('/healthz needs no key', async () => {
    const res = await call(app, 'GET', '/healthz', undefined, {});
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { ok: true });
  });

  test('every other route answers 401 without the key, with a wrong one or another scheme', async () => {
    const routes = [['POST', '/v1/players/p/rounds', { mines: 3 }], ['POST', '/v1/players/p/rounds/x/reveal', { tile: 1, move: 1 }],
      ['POST', '/v1/players/p/rounds/x/cash-out', { move: 1 }], ['GET', '/v1/players/p/rounds/x'], ['GET', '/v1/players/p/rounds'], ['GET', '/v1/players/p/seeds'],
      ['POST', '/v1/players/p/rotate', {}], ['GET', '/v1/history'], ['GET', '/v1/history/revealed'], ['GET', '/metrics'],
      ['GET', '/nowhere']];
    const headers = [{}, { authorization: 'Bearer wrong' }, { authorization: 'Basic dGVzdC1hcGkta2V5' },
      { authorization: 'test-api-key' }];
    for (const [method, url, payload] of routes) {
      for (const h of headers) error(await call(app, method, url, payload, h), 401, 'FAIRMINES_UNAUTHORIZED', 'authorization');
    }
    // Checked before the body is read: a malformed body without the key is still 401.
    const res = await app.inject({ method: 'POST', url: '/v1/players/p/rounds', payload: '{bad',
      headers: { 'content-type': 'application/json' } });
    assert.equal(res.statusCode, 401);
  });
});

describe('POST /v1/players/:player/rounds', () => {
  test('201 with the round, and the pair made on first use; the nonce moves on', async () => {
    const first = await newRound('alice');
    assert.equal(first.status, 201);
    assert.deepEqual(Object.keys(first.json).sort(), ['clientSeed', 'commitment', 'currency', 'mines', 'nonce', 'round', 'rtp', 'stake']);
    assert.deepEqual([first.json.stake, first.json.currency], [null, null], 'no stake: none shown');
    assert.equal(first.json.nonce, 0);
    assert.equal(first.json.mines, 3);
    assert.equal(first.json.rtp, '99/100');
    assert.match(first.json.commitment, /^[0-9a-f]{64}$/);
    const second = await newRound('alice', { mines: 24 });
    assert.equal(second.json.nonce, 1);
    assert.equal(second.json.rtp, '99/100', 'the default RTP');
    assert.equal(second.json.commitment, first.json.commitment);
    assert.notEqual(second.json.round, first.json.round);
  });

  test("the addon judges the values: its code, message and argument come back", async () => {
    const cases = [
      [{ mines: 0 }, 'FAIRMINES_INVALID_MINES', 'mines', 'mines: must be a whole number from 1 to 24, got 0'],
      [{ mines: 25 }, 'FAIRMINES_INVALID_MINES', 'mines'],
      [{ mines: 3.5 }, 'FAIRMINES_INVALID_MINES', 'mines', 'mines: must be a whole number from 1 to 24, got 3.5'],
      [{ mines: 3, rtp: '2' }, 'FAIRMINES_INVALID_RTP', 'rtp', 'rtp: must be above 0 and at most 1, got 2'],
      [{ mines: 3, rtp: 'abc' }, 'FAIRMINES_INVALID_RTP', 'rtp'],
    ];
    for (const [body, code, argument, message] of cases) {
      const res = await newRound('bob', body);
      error(res, 400, code, argument);
      if (message) assert.equal(res.json.error.message, message);
    }
    // None of them made the player.
    error(await call(app, 'GET', '/v1/players/bob/seeds'), 404, 'FAIRMINES_PLAYER_NOT_FOUND', 'player');
  });

  test('the request shape: wrong JSON types, missing and unknown fields, bad player ids', async () => {
    const cases = [[{ mines: '3' }, 'mines'], [{ mines: 3, rtp: 0.99 }, 'rtp'], [{}, 'mines'], [{ mines: 3, x: 1 }, 'x'],
      [[3], 'body'], [{ mines: null }, 'mines'], [{ mines: true }, 'mines']];
    for (const [body, argument] of cases) error(await newRound('bob', body), 400, 'FAIRMINES_INVALID_REQUEST', argument);
    error(await newRound('a%20b'), 400, 'FAIRMINES_INVALID_REQUEST', 'player');
    error(await newRound('x'.repeat(65)), 400, 'FAIRMINES_INVALID_REQUEST', 'player');
  });
});

describe('moves', () => {
  test('a reveal, its retry, a conflicting and a skipping move, then a cash-out with its record', async () => {
    const { json: r } = await newRound('carol', { mines: 3, rtp: '0.99' });
    const { safe } = tiles(await minesOf(svc.pool, r.round));
    const first = await reveal(r.round, safe[0], 1);
    assert.equal(first.status, 200);
    assert.deepEqual(first.json, { tile: safe[0], safe: true, safePicks: 1, multiplier: '9/8', finished: false });
    // A client retrying after a timeout gets the same answer, and nothing moves twice.
    assert.deepEqual((await reveal(r.round, safe[0], 1)).json, first.json);
    error(await reveal(r.round, safe[1], 1), 409, 'FAIRMINES_MOVE_CONFLICT', 'move');
    error(await cashOut(r.round, 1), 409, 'FAIRMINES_MOVE_CONFLICT', 'move');
    error(await reveal(r.round, safe[1], 3), 409, 'FAIRMINES_MOVE_OUT_OF_ORDER', 'move');
    error(await reveal(r.round, safe[0], 2), 409, 'FAIRMINES_TILE_ALREADY_REVEALED', 'tile');
    const second = await reveal(r.round, safe[1], 2);
    assert.equal(second.json.safePicks, 2);
    const paid = await cashOut(r.round, 3);
    assert.equal(paid.status, 200);
    assert.equal(paid.json.finished, true);
    assert.equal(paid.json.outcome, 'cashed_out');
    assert.equal(paid.json.multiplier, second.json.multiplier);
    assert.deepEqual(paid.json.record, { commitment: r.commitment, client_seed: r.clientSeed, nonce: r.nonce, mines: 3,
      rtp: '99/100', picks: [safe[0], safe[1]], outcome: 'cashed_out', multiplier: second.json.multiplier });
    assert.equal((await cashOut(r.round, 3)).body, paid.body, 'a retried cash-out: the same answer, byte for byte');
    // Stored once: the ending move's answer leaves the record to the round's row; a move keeps its request in short.
    const { rows: stored } = await svc.pool.query('SELECT move, body_hash, answer FROM moves WHERE round_id = $1 ORDER BY move', [r.round]);
    assert.deepEqual(stored.map((m) => m.body_hash), [`reveal ${safe[0]}`, `reveal ${safe[1]}`, 'cash_out']);
    const { record, ...withoutRecord } = paid.json;
    assert.ok(record);
    assert.deepEqual(JSON.parse(stored[2].answer), withoutRecord);
    // A move stored before the requests were kept in short holds the SHA-256 of its body: its retry still matches.
    const legacy = createHash('sha256').update(JSON.stringify({ kind: 'reveal', tile: safe[0] })).digest('hex');
    await svc.pool.query('UPDATE moves SET body_hash = $2 WHERE round_id = $1 AND move = 1', [r.round, legacy]);
    assert.deepEqual((await reveal(r.round, safe[0], 1)).json, first.json);
    error(await reveal(r.round, safe[1], 1), 409, 'FAIRMINES_MOVE_CONFLICT', 'move');
    error(await reveal(r.round, safe[2], 4), 409, 'FAIRMINES_ROUND_FINISHED');
    error(await cashOut(r.round, 4), 409, 'FAIRMINES_ROUND_FINISHED');
    // The record verifies once the pair is rotated out.
    const { json: rot } = await rotate('carol', {});
    const verdict = verifyRound(recordFromJson(JSON.stringify(paid.json.record)), rot.revealed.serverSeed);
    assert.equal(verdict.ok, true, verdict.differences.join('; '));
    assert.deepEqual(verdict.minePositions, paid.json.minePositions);
  });

  test('a mine ends the round lost; a cash-out before any safe pick is refused', async () => {
    const { json: r } = await newRound('dave', { mines: 5 });
    error(await cashOut(r.round, 1), 409, 'FAIRMINES_NOTHING_TO_CASH_OUT');
    const { mine } = tiles(await minesOf(svc.pool, r.round));
    const lost = await reveal(r.round, mine, 1);
    assert.equal(lost.status, 200);
    assert.equal(lost.json.safe, false);
    assert.equal(lost.json.multiplier, null);
    assert.equal(lost.json.finished, true);
    assert.equal(lost.json.outcome, 'lost');
    assert.equal(lost.json.record.outcome, 'lost');
    assert.deepEqual(lost.json.record.picks, [mine]);
    assert.equal(lost.json.minePositions.length, 5);
  });

  test('the last safe tile finishes the round paid out', async () => {
    const { json: r } = await newRound('erin', { mines: 24, rtp: '1' });
    const { safe } = tiles(await minesOf(svc.pool, r.round));
    const res = await reveal(r.round, safe[0], 1);
    assert.deepEqual({ ...res.json, record: undefined, minePositions: undefined }, { tile: safe[0], safe: true,
      safePicks: 1, multiplier: '25', finished: true, outcome: 'cashed_out', payout: null, record: undefined,
      minePositions: undefined });
    assert.equal(res.json.record.multiplier, '25');
  });

  test('tiles and move numbers the addon or the schema refuses', async () => {
    const { json: r } = await newRound('frank');
    for (const tile of [0, 26, -1, 3.5]) {
      const res = await reveal(r.round, tile, 1);
      error(res, 400, 'FAIRMINES_INVALID_TILE', 'tile');
      assert.match(res.json.error.message, /^tile: must be from 1 to 25, got /);
    }
    const huge = await app.inject({ method: 'POST', url: `${roundUrl(r.round)}/reveal`,
      headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"tile": 1e309, "move": 1}' });
    assert.equal(huge.statusCode, 400);
    assert.equal(JSON.parse(huge.body).error.code, 'FAIRMINES_INVALID_REQUEST');
    for (const body of [{ tile: '7', move: 1 }, { tile: 7 }, { tile: 7, move: 0 }, { tile: 7, move: 1.5 },
      { tile: 7, move: '1' }, { tile: 7, move: 1, extra: true }]) {
      error(await call(app, 'POST', `${roundUrl(r.round)}/reveal`, body), 400, 'FAIRMINES_INVALID_REQUEST');
    }
    error(await call(app, 'POST', `${roundUrl(r.round)}/cash-out`, {}), 400, 'FAIRMINES_INVALID_REQUEST', 'move');
    // None of these took move 1.
    const { safe } = tiles(await minesOf(svc.pool, r.round));
    assert.equal((await reveal(r.round, safe[0], 1)).status, 200);
  });

  test('unknown and malformed round ids', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    error(await reveal(missing, 1, 1), 404, 'FAIRMINES_ROUND_NOT_FOUND', 'round');
    error(await cashOut(missing, 1), 404, 'FAIRMINES_ROUND_NOT_FOUND', 'round');
    error(await call(app, 'GET', roundUrl(missing)), 404, 'FAIRMINES_ROUND_NOT_FOUND', 'round');
    error(await reveal('12', 1, 1), 400, 'FAIRMINES_INVALID_REQUEST', 'round');
    error(await call(app, 'GET', '/v1/players/p/rounds/%00'), 400, 'FAIRMINES_INVALID_REQUEST', 'round');
    // The old unscoped routes are gone: any key holder could move any round through them.
    error(await call(app, 'GET', `/v1/rounds/${missing}`), 404, 'FAIRMINES_NOT_FOUND');
    error(await call(app, 'GET', '/v1/nowhere'), 404, 'FAIRMINES_NOT_FOUND');
    error(await call(app, 'DELETE', roundUrl(missing)), 404, 'FAIRMINES_NOT_FOUND');
  });
});

describe('GET /v1/players/:player/rounds/:round and /v1/players/:player/seeds', () => {
  test('a round in play shows its picks, not its mines; a finished one shows both', async () => {
    const { json: r } = await newRound('gina', { mines: 2 });
    const { safe, mine } = tiles(await minesOf(svc.pool, r.round));
    await reveal(r.round, safe[0], 1);
    const inPlay = await call(app, 'GET', roundUrl(r.round));
    assert.equal(inPlay.status, 200);
    assert.equal(inPlay.json.status, 'in_play');
    assert.deepEqual(inPlay.json.picks, [safe[0]]);
    assert.equal(inPlay.json.safePicks, 1);
    assert.equal(inPlay.json.moves, 1);
    assert.equal(inPlay.json.minePositions, null);
    assert.equal(inPlay.json.record, null);
    assert.equal(inPlay.json.player, 'gina');
    assert.equal(inPlay.json.serverSeed, null, 'no seed before the rotation');
    assert.equal(inPlay.json.verifier, null);

    const seeds = await call(app, 'GET', '/v1/players/gina/seeds');
    assert.equal(seeds.status, 200);
    assert.deepEqual(seeds.json, { player: 'gina', commitment: r.commitment, clientSeed: r.clientSeed, nonce: 1,
      roundsInPlay: [{ round: r.round, nonce: 0 }] });

    await reveal(r.round, mine, 2);
    const done = await call(app, 'GET', roundUrl(r.round));
    assert.equal(done.json.status, 'lost');
    assert.deepEqual(done.json.minePositions, await minesOf(svc.pool, r.round));
    assert.deepEqual(done.json.picks, [safe[0], mine]);
    assert.equal(done.json.safePicks, 1);
    assert.deepEqual((await call(app, 'GET', '/v1/players/gina/seeds')).json.roundsInPlay, []);
    error(await call(app, 'GET', '/v1/players/nobody-here/seeds'), 404, 'FAIRMINES_PLAYER_NOT_FOUND', 'player');
  });
});

describe('POST /v1/players/:player/rotate', () => {
  test('refused while a round is in play (nothing changes), voids them when asked, reveals the seed', async () => {
    const { json: r } = await newRound('hank');
    const { safe } = tiles(await minesOf(svc.pool, r.round));
    await reveal(r.round, safe[0], 1);
    const refused = await rotate('hank', {});
    error(refused, 409, 'FAIRMINES_ROUNDS_IN_PLAY');
    assert.match(refused.json.error.message, /1 round\(s\) in play \(nonce 0\)/);
    assert.equal((await call(app, 'GET', '/v1/players/hank/seeds')).json.commitment, r.commitment);

    const res = await rotate('hank', { void: true, clientSeed: 'hank-seed' });
    assert.equal(res.status, 200);
    assert.equal(res.json.revealed.commitment, r.commitment);
    assert.equal(commitment(res.json.revealed.serverSeed), r.commitment);
    assert.equal(res.json.revealed.clientSeed, r.clientSeed);
    assert.equal(res.json.revealed.rounds, 1);
    assert.deepEqual(res.json.voided, [r.round]);
    assert.equal(res.json.current.clientSeed, 'hank-seed');
    assert.equal(res.json.current.nonce, 0);
    assert.notEqual(res.json.current.commitment, r.commitment);

    error(await reveal(r.round, safe[1], 2), 409, 'FAIRMINES_ROUND_VOIDED');
    const voided = await call(app, 'GET', roundUrl(r.round));
    assert.equal(voided.json.status, 'voided');
    assert.equal(voided.json.record.outcome, 'voided');
    assert.equal(verifyRound(recordFromJson(JSON.stringify(voided.json.record)), res.json.revealed.serverSeed).ok, true);
    // Once revealed, the round carries its server seed and the verifier page's fragment, whose values are
    // the round's own and give its mines.
    assert.equal(voided.json.serverSeed, res.json.revealed.serverSeed);
    const fragment = new URLSearchParams(voided.json.verifier.replace(/^#/, '').replace(/\+/g, '%2B'));
    assert.deepEqual(Object.fromEntries(fragment), { server_seed: res.json.revealed.serverSeed, client_seed: r.clientSeed,
      nonce: '0', mines: '3', commitment: r.commitment, positions: voided.json.minePositions.join(',') });
    assert.deepEqual(minePositions(fragment.get('server_seed'), fragment.get('client_seed'), 0, 3),
      voided.json.minePositions);

    const next = await newRound('hank');
    assert.equal(next.json.commitment, res.json.current.commitment);
    assert.equal(next.json.clientSeed, 'hank-seed');
    assert.equal(next.json.nonce, 0);
  });

  test('with no body it keeps the client seed; bad bodies and unknown players', async () => {
    await newRound('ivy').then(({ json }) => cashOut(json.round, 1));
    const before = (await call(app, 'GET', '/v1/players/ivy/seeds')).json;
    // A finished-or-not round: ivy's is in play (the cash-out before a pick was refused), so void it.
    const res = await app.inject({ method: 'POST', url: '/v1/players/ivy/rotate?', headers: AUTH });
    assert.equal(res.statusCode, 409);
    const ok = await rotate('ivy', { void: true });
    assert.equal(ok.json.current.clientSeed, before.clientSeed);
    for (const body of [{ clientSeed: '' }, { clientSeed: 'a\u0000b' }, { clientSeed: 7 }, { void: 'yes' }, { clientSeed: 'x'.repeat(257) }, { other: 1 }]) {
      error(await rotate('ivy', body), 400, 'FAIRMINES_INVALID_REQUEST');
    }
    error(await rotate('nobody-here', {}), 404, 'FAIRMINES_PLAYER_NOT_FOUND', 'player');
  });
});

describe('GET /v1/history', () => {
  test('JSON Lines and CSV of the rounds of revealed pairs only; a bad format is 400', async () => {
    const { json: r } = await newRound('jack', { mines: 1 });
    const { mine } = tiles(await minesOf(svc.pool, r.round));
    await reveal(r.round, mine, 1);
    const hidden = await call(app, 'GET', '/v1/history');
    assert.equal(hidden.status, 200);
    assert.ok(!hidden.body.includes(r.round), 'a round of an unrevealed pair is not exported');
    const { json: rot } = await rotate('jack', {});
    const jsonl = await call(app, 'GET', '/v1/history?format=jsonl');
    assert.match(jsonl.headers['content-type'], /^application\/x-ndjson/);
    const row = jsonl.body.trim().split('\n').map((l) => JSON.parse(l)).find((x) => x.round_id === r.round);
    assert.deepEqual(row, { round_id: r.round, server_seed: rot.revealed.serverSeed, commitment: r.commitment,
      client_seed: r.clientSeed, nonce: 0, mines: 1, positions: [mine], rtp: '99/100', picks: [mine], outcome: 'lost',
      multiplier: null, player: 'jack' });
    const csv = await call(app, 'GET', '/v1/history?format=csv');
    assert.match(csv.headers['content-type'], /^text\/csv/);
    const lines = csv.body.trim().split('\n');
    assert.equal(lines[0], 'round_id,server_seed,commitment,client_seed,nonce,mines,positions,rtp,picks,outcome,multiplier,stake,currency,payout,player');
    assert.ok(lines.includes(`${r.round},${rot.revealed.serverSeed},${r.commitment},${r.clientSeed},0,1,${mine},99/100,${mine},lost,,,,,jack`));
    error(await call(app, 'GET', '/v1/history?format=xml'), 400, 'FAIRMINES_INVALID_REQUEST', 'format');
    error(await call(app, 'GET', '/v1/history?other=1'), 400, 'FAIRMINES_INVALID_REQUEST', 'other');
  });
});

describe('malformed bodies', () => {
  test('bad JSON (400), a huge body (413), a content type that is not JSON (415): each with a code', async () => {
    const url = '/v1/players/kim/rounds';
    const send = (payload, type = 'application/json') => app.inject({ method: 'POST', url, payload,
      headers: { ...AUTH, 'content-type': type } });
    const codes = async (res) => [res.statusCode, JSON.parse(res.body).error.code];
    assert.deepEqual(await codes(await send('{"mines": 3')), [400, 'FAIRMINES_INVALID_JSON']);
    assert.deepEqual(await codes(await send('')), [400, 'FAIRMINES_INVALID_JSON']);
    assert.deepEqual(await codes(await send('{"__proto__": {"x": 1}, "mines": 3}')), [400, 'FAIRMINES_INVALID_JSON']);
    assert.deepEqual(await codes(await send(JSON.stringify({ mines: 3, rtp: 'x'.repeat(5000) }))),
      [413, 'FAIRMINES_BODY_TOO_LARGE']);
    assert.deepEqual(await codes(await send('<mines>3</mines>', 'application/xml')), [415, 'FAIRMINES_UNSUPPORTED_MEDIA_TYPE']);
    assert.deepEqual(await codes(await send('{"mines": 3}', 'text/plain')), [415, 'FAIRMINES_UNSUPPORTED_MEDIA_TYPE']);
  });
});

describe('/metrics', () => {
  test('Prometheus text: moves, errors by code, the latency histogram, the core\'s time beside the CPU time', async () => {
    const res = await call(app, 'GET', '/metrics');
    assert.equal(res.status, 200);
    assert.match(res.headers['content-type'], /^text\/plain/);
    assert.match(res.body, /^fairmines_moves_total\{kind="start"\} \d+$/m);
    assert.match(res.body, /^fairmines_moves_total\{kind="reveal"\} \d+$/m);
    assert.match(res.body, /^fairmines_moves_total\{kind="cash_out"\} \d+$/m);
    assert.match(res.body, /^fairmines_live_writes_total\{result="written"\} [1-9]\d*$/m);
    assert.match(res.body, /^fairmines_live_writes_total\{result="superseded"\} \d+$/m);
    assert.match(res.body, /^fairmines_errors_total\{code="FAIRMINES_UNAUTHORIZED"\} \d+$/m);
    assert.match(res.body, /^fairmines_errors_total\{code="FAIRMINES_MOVE_CONFLICT"\} \d+$/m);
    assert.match(res.body, /^# TYPE fairmines_request_duration_seconds histogram$/m);
    assert.match(res.body, /^fairmines_request_duration_seconds_bucket\{route="\/v1\/players\/:player\/rounds\/:round\/reveal",le="\+Inf"\} \d+$/m);
    assert.match(res.body, /^fairmines_responses_total\{code="201"\} [1-9]\d*$/m);
    assert.match(res.body, /^fairmines_db_connections\{state="in_use"\} \d+$/m);
    assert.match(res.body, /^fairmines_db_connections\{state="idle"\} [1-9]\d*$/m);
    assert.match(res.body, /^fairmines_db_waiting 0$/m);
    assert.match(res.body, /^fairmines_ready 1$/m);
    assert.match(res.body, /^fairmines_event_loop_lag_seconds\{quantile="0.99"\} [\d.e-]+$/m);
    assert.match(res.body, /^fairmines_build_info\{version="\d+\.\d+\.\d+",addon="\d+\.\d+\.\d+",node="v\d+[^"]*"\} 1$/m);
    const core = Number(/^fairmines_core_seconds_total (\S+)$/m.exec(res.body)[1]);
    const cpu = Number(/^process_cpu_seconds_total (\S+)$/m.exec(res.body)[1]);
    assert.ok(core > 0 && core < cpu, `core ${core} s, CPU ${cpu} s`);
  });
});
