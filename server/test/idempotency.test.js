// Idempotency-Key on a round start and a rotation: a lost answer replayed gives the same round (exactly one
// in the database), another body under the key is 422, keys are scoped by route and player, concurrent
// retries make one round, and keys older than 24 h are deleted.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KEEP_HOURS, deleteExpired, startCleanup } from '../src/idempotency.js';
import { AUTH, call, serviceForFile, startApp } from './helpers.js';

const svc = serviceForFile();

const withKey = (key) => ({ ...AUTH, 'idempotency-key': key });
const start = (player, body, key) => call(svc.app, 'POST', `/v1/players/${player}/rounds`, body, withKey(key));
const rounds = async (player) => (await svc.pool.query('SELECT id FROM rounds WHERE player_id = $1', [player])).rows.map((r) => r.id);

test('a round start whose 201 was lost, sent again with its key, gets the same round: exactly one round', async () => {
  const first = await start('ida', { mines: 3 }, 'k-1');
  assert.equal(first.status, 201, first.body);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  // The answer is lost; the client sends the same request again, the body's keys in another order.
  const again = await start('ida', { mines: 3 }, 'k-1');
  assert.equal(again.status, 201);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.deepEqual(again.json, first.json);
  const reordered = await call(svc.app, 'POST', '/v1/players/ida/rounds', '{ "rtp": "0.99",  "mines": 3 }',
    { ...withKey('k-2'), 'content-type': 'application/json' });
  const reorderedAgain = await call(svc.app, 'POST', '/v1/players/ida/rounds', '{"mines":3,"rtp":"0.99"}',
    { ...withKey('k-2'), 'content-type': 'application/json' });
  assert.deepEqual(reorderedAgain.json, reordered.json);
  assert.deepEqual((await rounds('ida')).sort(), [first.json.round, reordered.json.round].sort());
  // The round plays on as usual, and a new key is a new round.
  assert.equal((await call(svc.app, 'POST', `/v1/players/ida/rounds/${first.json.round}/reveal`, { tile: 1, move: 1 })).status, 200);
  const other = await start('ida', { mines: 3 }, 'k-3');
  assert.notEqual(other.json.round, first.json.round);
  assert.equal(other.json.nonce, first.json.nonce + 2);
});

test('a replayed start gets its round even when the player is at FAIRMINES_MAX_ROUNDS_IN_PLAY; a new key is 409', async () => {
  const capped = await startApp(svc.db, 2, { maxRoundsInPlay: 1 });
  try {
    const send = (key) => call(capped.app, 'POST', '/v1/players/idcap/rounds', { mines: 2 }, withKey(key));
    const first = await send('cap-1');
    assert.equal(first.status, 201, first.body);
    const again = await send('cap-1');
    assert.equal(again.status, 201, again.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.deepEqual(again.json, first.json);
    const more = await send('cap-2');
    assert.equal(more.status, 409);
    assert.equal(more.json.error.code, 'FAIRMINES_TOO_MANY_ROUNDS_IN_PLAY');
    assert.deepEqual(await rounds('idcap'), [first.json.round]);
  } finally {
    await capped.close();
  }
});

test('the same key with another body is 422 FAIRMINES_IDEMPOTENCY_KEY_REUSED and changes nothing', async () => {
  const first = await start('ivy', { mines: 3 }, 'same');
  for (const body of [{ mines: 4 }, { mines: 3, rtp: '0.99' }]) {
    const res = await start('ivy', body, 'same');
    assert.equal(res.status, 422, res.body);
    assert.deepEqual(res.json.error, { code: 'FAIRMINES_IDEMPOTENCY_KEY_REUSED', argument: 'idempotency-key',
      message: 'idempotency-key: this key was used already with another body (use a new key for a new request)' });
  }
  assert.deepEqual(await rounds('ivy'), [first.json.round]);
  // Scoped by player and by route: the same key elsewhere is a new request.
  const elsewhere = await start('ivo', { mines: 4 }, 'same');
  assert.equal(elsewhere.status, 201);
  assert.notEqual(elsewhere.json.round, first.json.round);
});

test('a refused start stores nothing: its retry is judged afresh', async () => {
  const bad = await start('iris', { mines: 25 }, 'k-bad');
  assert.equal(bad.status, 400);
  assert.equal((await start('iris', { mines: 25 }, 'k-bad')).status, 400);
  const { rows } = await svc.pool.query(`SELECT count(*)::int AS n FROM idempotency_keys WHERE player_id = 'iris'`);
  assert.equal(rows[0].n, 0);
});

test('concurrent requests with one key make one round and all get it', async () => {
  const all = await Promise.all(Array.from({ length: 8 }, () => start('isa', { mines: 5 }, 'burst')));
  for (const r of all) {
    assert.equal(r.status, 201, r.body);
    assert.deepEqual(r.json, all[0].json);
  }
  assert.deepEqual(await rounds('isa'), [all[0].json.round]);
  assert.equal(all.filter((r) => r.headers['idempotent-replayed'] !== 'true').length, 1);
});

test('a rotation replayed with its key gets the same answer and rotates once', async () => {
  const r = await start('ines', { mines: 3 }, 'r1');
  const rotate = (body, key) => call(svc.app, 'POST', '/v1/players/ines/rotate', body, withKey(key));
  const first = await rotate({ void: true }, 'rot-1');
  assert.equal(first.status, 200, first.body);
  assert.deepEqual(first.json.voided, [r.json.round]);
  const again = await rotate({ void: true }, 'rot-1');
  assert.equal(again.status, 200);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.deepEqual(again.json, first.json);
  const { rows } = await svc.pool.query(`SELECT count(*)::int AS n FROM seed_pairs WHERE player_id = 'ines'`);
  assert.equal(rows[0].n, 2, 'one rotation: the revealed pair and the new one');
  assert.equal((await rotate({ void: false }, 'rot-1')).status, 422);
  // The same key on the round start route is another key.
  assert.equal((await start('ines', { mines: 3 }, 'rot-1')).status, 201);
  // Concurrent rotations with one key: one rotation.
  const burst = await Promise.all(Array.from({ length: 4 }, () => rotate({ void: true }, 'rot-2')));
  for (const b of burst) assert.deepEqual(b.json, burst[0].json);
  const { rows: after } = await svc.pool.query(`SELECT count(*)::int AS n FROM seed_pairs WHERE player_id = 'ines'`);
  assert.equal(after[0].n, 3);
});

test('a malformed Idempotency-Key is 400 naming it', async () => {
  for (const key of ['', 'has space', 'x'.repeat(256), 'é']) {
    const res = await start('iggy', { mines: 3 }, key);
    assert.equal(res.status, 400, `${key}: ${res.body}`);
    assert.equal(res.json.error.code, 'FAIRMINES_INVALID_REQUEST');
    assert.equal(res.json.error.argument, 'idempotency-key');
  }
  assert.equal((await start('iggy', { mines: 3 }, 'x'.repeat(255))).status, 201);
});

test(`keys older than ${KEEP_HOURS} h are deleted, newer ones kept, in bounded batches`, async () => {
  await start('old', { mines: 3 }, 'old-1');
  await start('old', { mines: 3 }, 'old-2');
  await start('old', { mines: 3 }, 'new-1');
  await svc.pool.query(`UPDATE idempotency_keys SET created_at = now() - interval '${KEEP_HOURS} hours 1 minute'
    WHERE player_id = 'old' AND key LIKE 'old-%'`);
  await svc.pool.query(`UPDATE idempotency_keys SET created_at = now() - interval '${KEEP_HOURS - 1} hours'
    WHERE player_id = 'old' AND key = 'new-1'`);
  assert.equal(await deleteExpired(svc.pool, { batch: 1, maxBatches: 1 }), 1, 'one batch of one');
  assert.equal(await deleteExpired(svc.pool, { batch: 1 }), 1);
  const { rows } = await svc.pool.query(`SELECT key FROM idempotency_keys WHERE player_id = 'old'`);
  assert.deepEqual(rows.map((r) => r.key), ['new-1']);
});

test('the service\'s cleanup deletes expired keys when it starts, says how many, and stops', async () => {
  await start('older', { mines: 3 }, 'gone');
  await svc.pool.query(`UPDATE idempotency_keys SET created_at = now() - interval '${KEEP_HOURS + 1} hours'
    WHERE player_id = 'older'`);
  const log = [];
  const stop = startCleanup(svc.pool, (m) => log.push(m), 60_000);
  await stop();
  assert.deepEqual(log, [`deleted 1 idempotency keys older than ${KEEP_HOURS} h`]);
  const { rows } = await svc.pool.query(`SELECT count(*)::int AS n FROM idempotency_keys WHERE player_id = 'older'`);
  assert.equal(rows[0].n, 0);
});
