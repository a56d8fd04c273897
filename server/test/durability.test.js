// What the database guarantees: a restart resumes rounds in play, parallel requests of one player get
// distinct nonces, parallel retries apply a move once, migrations run once from many processes, and the
// stored data shows no unrevealed server seed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import pg from 'pg';
import { SeedPair } from 'fairmines';
import { migrate, migrationFiles } from '../src/migrate.js';
import { StateKeys } from '../src/keys.js';
import { STATE_KEY, call, startApp, startDatabase } from './helpers.js';
import { minesOf, tiles } from './game-helpers.js';

let db;
before(async () => { db = await startDatabase(); });
after(async () => { await db.close(); });

test('a restart of the service resumes a round in play where it was', async () => {
  let svc = await startApp(db);
  const { json: r } = await call(svc.app, 'POST', '/v1/players/resume/rounds', { mines: 4, rtp: '0.97' });
  const mines = await minesOf(svc.pool, r.round);
  const { safe } = tiles(mines);
  const first = await call(svc.app, 'POST', `/v1/players/resume/rounds/${r.round}/reveal`, { tile: safe[0], move: 1 });
  await svc.close();

  // A new process: nothing in memory, only the database.
  svc = await startApp(db);
  const seen = await call(svc.app, 'GET', `/v1/players/resume/rounds/${r.round}`);
  assert.deepEqual(seen.json.picks, [safe[0]]);
  assert.equal(seen.json.status, 'in_play');
  // The retry of the move made before the restart still gets its answer.
  assert.deepEqual((await call(svc.app, 'POST', `/v1/players/resume/rounds/${r.round}/reveal`, { tile: safe[0], move: 1 })).json, first.json);
  const second = await call(svc.app, 'POST', `/v1/players/resume/rounds/${r.round}/reveal`, { tile: safe[1], move: 2 });
  const paid = await call(svc.app, 'POST', `/v1/players/resume/rounds/${r.round}/cash-out`, { move: 3 });
  const { json: rot } = await call(svc.app, 'POST', '/v1/players/resume/rotate', {});
  await svc.close();

  // The same round played without a stop, from the revealed seed, gives the same answers and record.
  const pair = SeedPair.fromParts(rot.revealed.serverSeed, r.clientSeed, 0);
  const round = pair.startRound(4, '0.97');
  assert.equal(round.reveal(safe[0]).multiplier.text, first.json.multiplier);
  assert.equal(round.reveal(safe[1]).multiplier.text, second.json.multiplier);
  assert.equal(round.cashOut().text, paid.json.multiplier);
  assert.deepEqual(paid.json.minePositions, mines);
  assert.equal(JSON.stringify(paid.json.record), (await import('fairmines')).recordToJson(round.record()));
});

test('N parallel new rounds for one player get N distinct nonces, 0..N-1', async () => {
  const svc = await startApp(db, 8);
  const n = 40;
  const answers = await Promise.all(Array.from({ length: n }, () =>
    call(svc.app, 'POST', '/v1/players/racer/rounds', { mines: 3 })));
  assert.deepEqual(answers.map((a) => a.status), Array(n).fill(201));
  assert.deepEqual(answers.map((a) => a.json.nonce).sort((a, b) => a - b), Array.from({ length: n }, (_, i) => i));
  assert.equal(new Set(answers.map((a) => a.json.commitment)).size, 1, 'one seed pair, made once');
  const seeds = await call(svc.app, 'GET', '/v1/players/racer/seeds');
  assert.equal(seeds.json.nonce, n);
  assert.equal(seeds.json.roundsInPlay.length, n);
  await svc.close();
});

test('parallel first requests of new players each make one seed pair', async () => {
  const svc = await startApp(db, 8);
  const players = Array.from({ length: 10 }, (_, i) => `newcomer-${i}`);
  await Promise.all(players.flatMap((p) => [1, 2, 3].map(() =>
    call(svc.app, 'POST', `/v1/players/${p}/rounds`, { mines: 1 }))));
  const { rows } = await svc.pool.query(
    `SELECT player_id, count(*)::int AS n FROM seed_pairs WHERE player_id LIKE 'newcomer-%' GROUP BY player_id`);
  assert.equal(rows.length, 10);
  assert.ok(rows.every((r) => r.n === 1));
  await svc.close();
});

test('the same move sent in parallel is made once and every copy gets the same answer', async () => {
  const svc = await startApp(db, 8);
  const { json: r } = await call(svc.app, 'POST', '/v1/players/twin/rounds', { mines: 3 });
  const { safe } = tiles(await minesOf(svc.pool, r.round));
  const copies = await Promise.all(Array.from({ length: 12 }, () =>
    call(svc.app, 'POST', `/v1/players/twin/rounds/${r.round}/reveal`, { tile: safe[0], move: 1 })));
  assert.deepEqual(copies.map((c) => c.status), Array(12).fill(200));
  assert.equal(new Set(copies.map((c) => c.body)).size, 1);
  const { rows } = await svc.pool.query('SELECT count(*)::int AS n FROM moves WHERE round_id = $1', [r.round]);
  assert.equal(rows[0].n, 1);
  // Parallel different moves under one number: one wins, the others are conflicts.
  const racing = await Promise.all(safe.slice(1, 6).map((tile) =>
    call(svc.app, 'POST', `/v1/players/twin/rounds/${r.round}/reveal`, { tile, move: 2 })));
  assert.deepEqual(racing.map((c) => c.status).sort(), [200, 409, 409, 409, 409]);
  assert.ok(racing.filter((c) => c.status === 409).every((c) => c.json.error.code === 'FAIRMINES_MOVE_CONFLICT'));
  await svc.close();
});

test("parallel moves in several rounds of one pair all land in the pair's state", async () => {
  const svc = await startApp(db, 8);
  const rounds = [];
  for (let i = 0; i < 6; i += 1) rounds.push((await call(svc.app, 'POST', '/v1/players/juggler/rounds', { mines: 1 })).json);
  const safe = await Promise.all(rounds.map(async (r) => tiles(await minesOf(svc.pool, r.round)).safe));
  for (let move = 1; move <= 3; move += 1) {
    const answers = await Promise.all(rounds.map((r, i) =>
      call(svc.app, 'POST', `/v1/players/juggler/rounds/${r.round}/reveal`, { tile: safe[i][move - 1], move })));
    assert.deepEqual(answers.map((a) => [a.status, a.json.safePicks]), Array(6).fill([200, move]));
  }
  // Each round, read back from the stored state, holds its own three picks.
  for (const [i, r] of rounds.entries()) {
    const { json } = await call(svc.app, 'GET', `/v1/players/juggler/rounds/${r.round}`);
    assert.deepEqual(json.picks, safe[i].slice(0, 3));
  }
  // A rotation racing new rounds: every round started lands on one pair or the next, with distinct nonces,
  // and the pair that was revealed had no round in play.
  const started = call(svc.app, 'POST', '/v1/players/juggler/rotate', { void: true });
  const more = await Promise.all(Array.from({ length: 8 }, () =>
    call(svc.app, 'POST', '/v1/players/juggler/rounds', { mines: 2 })));
  const rotated = await started;
  assert.equal(rotated.status, 200, rotated.body);
  assert.deepEqual(more.map((m) => m.status), Array(8).fill(201), more.map((m) => m.body).join());
  const keys = more.map((m) => `${m.json.commitment}:${m.json.nonce}`);
  assert.equal(new Set(keys).size, 8);
  const { rows } = await svc.pool.query(
    `SELECT count(*)::int AS n FROM rounds r JOIN seed_pairs p ON p.id = r.pair_id
      WHERE p.player_id = 'juggler' AND p.revealed_at IS NOT NULL AND r.status = 'in_play'`);
  assert.equal(rows[0].n, 0);
  await svc.close();
});

test('two processes taking turns on one round: each goes on from what the other wrote', async () => {
  // Each process keeps the pairs it wrote last live; the other's writes must be seen, never a stale copy.
  const [a, b] = [await startApp(db, 4), await startApp(db, 4)];
  const { json: r } = await call(a.app, 'POST', '/v1/players/ping-pong/rounds', { mines: 1 });
  const { safe } = tiles(await minesOf(a.pool, r.round));
  for (let move = 1; move <= 6; move += 1) {
    const svc = move % 2 ? b : a;
    const res = await call(svc.app, 'POST', `/v1/players/ping-pong/rounds/${r.round}/reveal`, { tile: safe[move - 1], move });
    assert.deepEqual([res.status, res.json.safePicks], [200, move]);
    // The same process again on the same round right away (its live copy is the latest): the next number.
    if (move === 6) {
      const again = await call(svc.app, 'POST', `/v1/players/ping-pong/rounds/${r.round}/cash-out`, { move: 7 });
      assert.deepEqual([again.status, again.json.safePicks], [200, 6]);
    }
  }
  const { json: stored } = await call(a.app, 'GET', `/v1/players/ping-pong/rounds/${r.round}`);
  assert.deepEqual(stored.picks, safe.slice(0, 6));
  assert.equal(stored.status, 'cashed_out');
  // A new round from each process in turn: nonces 1, 2, 3, 4 of the same pair, none twice.
  const nonces = [];
  for (const svc of [a, b, a, b]) nonces.push((await call(svc.app, 'POST', '/v1/players/ping-pong/rounds', { mines: 2 })).json.nonce);
  assert.deepEqual(nonces, [1, 2, 3, 4]);
  await Promise.all([a.close(), b.close()]);
});

test('two processes racing on one pair: a write from a stale live pair is superseded, then made on the locked path', async () => {
  // Each process keeps the pair live after its own writes and writes its next move in one statement that
  // holds only while the pair's version is the one it wrote; the other process's writes move the version.
  const [a, b] = [await startApp(db, 4), await startApp(db, 4)];
  const player = 'racers';
  const superseded = () => a.app.metrics.liveWrites.get('superseded') + b.app.metrics.liveWrites.get('superseded');
  const rounds = [];
  for (const svc of [a, b, a, b]) {
    const { json } = await call(svc.app, 'POST', `/v1/players/${player}/rounds`, { mines: 1 });
    rounds.push({ svc, round: json.round, safe: tiles(await minesOf(svc.pool, json.round)).safe });
  }
  const play = async ({ svc, round, safe }, move) => call(svc.app, 'POST', `/v1/players/${player}/rounds/${round}/`
    + (move <= 4 ? 'reveal' : 'cash-out'), move <= 4 ? { tile: safe[move - 1], move } : { move });
  // In turn, a round of each process: from the second move on, each process holds its round live and finds
  // the version moved by the other process.
  const [ra, rb] = rounds.slice(2);
  const before = superseded();
  for (let move = 1; move <= 3; move += 1) {
    for (const r of [ra, rb]) assert.deepEqual((await play(r, move)).json.safePicks, move);
  }
  assert.ok(superseded() - before >= 4, `superseded ${superseded() - before} of 6 moves`);
  // Then every round to its end at once, the two processes racing on the pair's row.
  const answers = await Promise.all(rounds.map(async (r) => {
    const out = [];
    for (let move = r === ra || r === rb ? 4 : 1; move <= 5; move += 1) out.push(await play(r, move));
    return out.slice(-2);
  }));
  for (const out of answers) {
    assert.deepEqual(out.map((x) => [x.status, x.json.safePicks]), [[200, 4], [200, 4]]);
    assert.equal(out[1].json.outcome, 'cashed_out');
  }
  // What each process answered is what is stored, and the pair's state holds no round in play: a new
  // round from either process gets the next nonce.
  for (const { round, safe } of rounds) {
    const { json } = await call(a.app, 'GET', `/v1/players/${player}/rounds/${round}`);
    assert.deepEqual([json.status, json.picks, json.moves], ['cashed_out', safe.slice(0, 4), 5]);
  }
  assert.deepEqual((await call(b.app, 'GET', `/v1/players/${player}/seeds`)).json.roundsInPlay, []);
  assert.equal((await call(a.app, 'POST', `/v1/players/${player}/rounds`, { mines: 2 })).json.nonce, rounds.length);
  await Promise.all([a.close(), b.close()]);
});

test('the database enforces one round per (commitment, nonce) whatever the code does', async () => {
  const pool = db.pool();
  const { rows: [r] } = await pool.query('SELECT * FROM rounds LIMIT 1');
  await assert.rejects(pool.query(
    'INSERT INTO rounds (id, pair_id, player_id, commitment, nonce, mines, rtp) VALUES (gen_random_uuid(), $1, $2, $3, $4, 3, $5)',
    [r.pair_id, r.player_id, r.commitment, r.nonce, r.rtp]), { code: '23505' });
  await assert.rejects(pool.query(
    `INSERT INTO moves (round_id, move, kind, body_hash, answer) SELECT round_id, move, kind, body_hash, answer FROM moves LIMIT 1`),
  { code: '23505' });
});

test('migrations started by several processes at once are applied once', async () => {
  // A database of its own, empty, and five pools (five "processes") migrating it together.
  const admin = db.pool(1);
  await admin.query('CREATE DATABASE migrate_race');
  const url = db.url.replace(/\/[^/]+$/, '/migrate_race');
  const pools = Array.from({ length: 5 }, () => new pg.Pool({ connectionString: url, max: 2 }));
  for (const p of pools) p.on('error', () => {});
  try {
    await Promise.all(pools.map((p) => migrate(p)));
    const { rows } = await pools[0].query('SELECT version, name FROM schema_migrations ORDER BY version');
    assert.deepEqual(rows, migrationFiles().map((m) => ({ version: m.version, name: m.name })));
    assert.deepEqual(rows.slice(0, 2), [{ version: 1, name: '001_initial.sql' }, { version: 2, name: '002_move_functions.sql' }]);
    await migrate(pools[0]);
  } finally {
    await Promise.all(pools.map((p) => p.end()));
    await admin.query('DROP DATABASE migrate_race WITH (FORCE)');
  }
});

test('no column of any table holds an unrevealed server seed (a dump of every row)', async () => {
  const svc = await startApp(db);
  // Rounds in play and finished, and a rotated pair whose seed may show (it is revealed).
  const { json: r } = await call(svc.app, 'POST', '/v1/players/secret/rounds', { mines: 3 });
  const { safe } = tiles(await minesOf(svc.pool, r.round));
  await call(svc.app, 'POST', `/v1/players/secret/rounds/${r.round}/reveal`, { tile: safe[0], move: 1 });
  await call(svc.app, 'POST', `/v1/players/secret/rounds/${r.round}/cash-out`, { move: 2 });
  await call(svc.app, 'POST', '/v1/players/secret/rotate', {});
  await call(svc.app, 'POST', '/v1/players/secret/rounds', { mines: 3 });

  const { rows: active } = await svc.pool.query('SELECT state, commitment FROM seed_pairs WHERE revealed_at IS NULL');
  const secrets = active.map((p) => JSON.parse(new StateKeys([STATE_KEY]).open(p.state, p.commitment)).server_seed);
  assert.ok(secrets.length >= 5);
  const { rows: tables } = await svc.pool.query(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`);
  let dump = '';
  for (const { table_name: t } of tables) {
    // Every column as text: bytea as hex, so a seed stored in the clear in any form would show.
    const { rows } = await svc.pool.query(`SELECT row_to_json(x)::text AS j FROM ${pg.escapeIdentifier(t)} x`);
    dump += rows.map((x) => x.j).join('\n');
  }
  assert.ok(dump.length > 1000);
  for (const seed of secrets) {
    assert.ok(!dump.includes(seed), 'an unrevealed seed is in the dump');
    assert.ok(!dump.includes(Buffer.from(seed).toString('hex')), 'an unrevealed seed is in the dump as bytes');
  }
  // A revealed one is there, in clear (it is public now).
  const { rows: [revealed] } = await svc.pool.query('SELECT server_seed FROM seed_pairs WHERE revealed_at IS NOT NULL LIMIT 1');
  assert.ok(dump.includes(revealed.server_seed));
  // And a state moved onto another pair's row does not open (the commitment is bound in).
  assert.throws(() => new StateKeys([STATE_KEY]).open(active[0].state, active[1].commitment));
  await svc.close();
});
