// `rekey` beside a process that keeps playing: a move written between its read and its write wins (the
// move is kept, and the pair re-sealed on the next pass), states of the first layout are re-sealed, a pair
// no key opens is reported; the command itself; and two processes with different keys starting at once on
// an empty database: one starts, the other refuses.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { StateKeys, keyId, sealedBy } from '../src/keys.js';
import { migrate } from '../src/migrate.js';
import { pairsByKey, rekey } from '../src/rekey.js';
import { API_KEY, STATE_KEY, call, serviceForFile } from './helpers.js';
import { sealV1 } from './game-helpers.js';
import { killChildren, runCommand, serve } from './service-helpers.js';

const NEW = Buffer.alloc(32, 0x4e);
const STRAY = Buffer.alloc(32, 0x53);
// Registered first, so it starts first: the children go before their database does.
after(() => killChildren());
const svc = serviceForFile();

const pairs = async () => (await svc.pool.query(
  'SELECT p.id, p.player_id, p.state, p.commitment FROM seed_pairs p WHERE revealed_at IS NULL ORDER BY id')).rows;

test('rekey re-seals every pair it can open under the new key, and never overwrites a move written meanwhile', async () => {
  const rounds = [];
  for (let i = 0; i < 7; i += 1) rounds.push((await call(svc.app, 'POST', `/v1/players/rk${i}/rounds`, { mines: 1 })).json.round);
  const old = new StateKeys([STATE_KEY]);
  const [, legacy, stray] = await pairs();
  // One pair as the first layout sealed it (no key id), one sealed under a key no process here has.
  await svc.pool.query('UPDATE seed_pairs SET state = $1 WHERE id = $2',
    [sealV1(STATE_KEY, old.open(legacy.state, legacy.commitment), legacy.commitment), legacy.id]);
  await svc.pool.query('UPDATE seed_pairs SET state = $1 WHERE id = $2',
    [new StateKeys([STRAY]).seal(old.open(stray.state, stray.commitment), stray.commitment), stray.id]);
  const before = await pairs();

  // Between rekey's first read and its write, the process (old key) plays a move on the first pair.
  let moved = null;
  const proxy = {
    async query(text, params) {
      const res = await svc.pool.query(text, params);
      if (moved === null && /^SELECT id, commitment, state/.test(text.trim()) && res.rows.length > 0) {
        moved = await call(svc.app, 'POST', `/v1/players/rk0/rounds/${rounds[0]}/reveal`, { tile: 25, move: 1 });
      }
      return res;
    },
  };
  const keys = new StateKeys([NEW, STATE_KEY]);
  const result = await rekey(proxy, keys, () => {}, 2);
  assert.equal(moved.status, 200, moved.body);
  assert.equal(result.unopened, 1);
  assert.deepEqual(result.left, { [keyId(STRAY)]: 1 });
  assert.equal(result.resealed, 6);
  const after = await pairs();
  for (const [i, p] of after.entries()) {
    if (p.id === stray.id) {
      assert.ok(p.state.equals(before[i].state), 'a pair no key opens is left as it was');
      continue;
    }
    assert.equal(sealedBy(p.state), keyId(NEW), `pair ${p.id}`);
    if (i > 0) assert.equal(keys.open(p.state, p.commitment), keys.open(before[i].state, before[i].commitment));
  }
  // The move made during the rekey is in the re-sealed state: a process with the new key sees its pick.
  const next = buildApp({ pool: svc.pool, stateKeys: [NEW, STATE_KEY], apiKeys: [API_KEY] });
  const round = await call(next, 'GET', `/v1/players/rk0/rounds/${rounds[0]}`);
  assert.deepEqual(round.json.picks, [25]);
  // The process with the old key alone kept the pair it wrote last live, but the stored bytes changed: it
  // restores the pair, and refuses (503, the key it lacks named) rather than play from a copy.
  const stale = await call(svc.app, 'POST', `/v1/players/rk1/rounds/${rounds[1]}/reveal`, { tile: 25, move: 1 });
  assert.equal(stale.status, 503);
  assert.equal(stale.json.error.code, 'FAIRMINES_STATE_KEY_UNKNOWN');
  assert.ok(stale.json.error.message.includes(keyId(NEW)), stale.body);
  await next.close();
  // The stray pair back as it was made, for the tests below.
  await svc.pool.query('UPDATE seed_pairs SET state = $1 WHERE id = $2', [stray.state, stray.id]);
});

test('the command re-seals online, says how many are left under other keys, and runs again harmlessly', async () => {
  const env = { DATABASE_URL: svc.db.url, FAIRMINES_STATE_KEY: `${NEW.toString('hex')},${STATE_KEY.toString('hex')}`,
    FAIRMINES_API_KEY: API_KEY };
  const svc2 = await serve({ ...env, FAIRMINES_STATE_KEY: `${STATE_KEY.toString('hex')},${NEW.toString('hex')}` });
  for (let i = 0; i < 3; i += 1) {
    const res = await fetch(`${svc2.url}/v1/players/cmd${i}/rounds`, { method: 'POST', body: '{"mines":2}',
      headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' } });
    assert.equal(res.status, 201);
  }
  assert.ok(Object.keys(await pairsByKey(svc.pool)).includes(keyId(STATE_KEY)));
  const first = await runCommand(['rekey'], env);
  assert.equal(first.code, 0, first.log);
  assert.match(first.log, new RegExp(`re-sealing every active seed pair under ${keyId(NEW)}`));
  assert.match(first.log, /re-sealed [1-9]\d* pairs; left under other keys: none/);
  const again = await runCommand(['rekey'], env);
  assert.match(again.log, /re-sealed 0 pairs; left under other keys: none/);
  assert.deepEqual(Object.keys(await pairsByKey(svc.pool)), [keyId(NEW)]);
  // The running process (old key first, new key listed) plays on with the re-sealed pairs.
  const seeds = await fetch(`${svc2.url}/v1/players/cmd0/seeds`, { headers: { authorization: `Bearer ${API_KEY}` } });
  assert.equal(seeds.status, 200);
  assert.equal(await svc2.stop(), 0);
  // A rekey with keys the database does not know refuses, like the service.
  const wrong = await runCommand(['rekey'], { ...env, FAIRMINES_STATE_KEY: STRAY.toString('hex') });
  assert.equal(wrong.code, 1);
  assert.match(wrong.log, /does not open this database's seed pairs/);
});

test('two processes with different keys starting at once on an empty database: one starts, the other refuses', async () => {
  const admin = svc.db.pool(1);
  await admin.query('CREATE DATABASE rekey_race');
  const url = svc.db.url.replace(/\/[^/]+$/, '/rekey_race');
  try {
    const started = await Promise.allSettled([STATE_KEY, NEW].map((k) => serve({ DATABASE_URL: url,
      FAIRMINES_STATE_KEY: k.toString('hex'), FAIRMINES_API_KEY: API_KEY })));
    const ok = started.filter((s) => s.status === 'fulfilled');
    assert.equal(ok.length, 1, started.map((s) => s.reason?.message).join('\n'));
    assert.match(started.find((s) => s.status === 'rejected').reason.message, /none of its keys is known to the database/);
    await ok[0].value.stop();
    const c = new pg.Client(url);
    await c.connect();
    const { rows } = await c.query('SELECT id FROM state_keys');
    await c.end();
    assert.equal(rows.length, 1);
  } finally {
    await admin.query('DROP DATABASE rekey_race WITH (FORCE)');
  }
});
