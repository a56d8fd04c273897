// The state keys and the API keys: key ids, the sealed layouts (the one without a key id still opens and is
// re-sealed on the next write), the start refused with keys that do not open the database (which it leaves
// as it was), several API keys at once and a metrics token that cannot play.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { StateKeys, keyId, sealedBy } from '../src/keys.js';
import { STATE_KEY, call, startApp, startDatabase } from './helpers.js';
import { sealV1 } from './game-helpers.js';
import { killChildren, request, runCommand, serve } from './service-helpers.js';

const K1 = Buffer.alloc(32, 0x11);
const K2 = Buffer.alloc(32, 0x22);
const hex = (k) => k.toString('hex');

let db;
before(async () => { db = await startDatabase(); });
after(async () => {
  killChildren();
  await db.close();
});

test('a key id is a fingerprint: 16 hex digits, one per key, not the key', () => {
  assert.match(keyId(K1), /^[0-9a-f]{16}$/);
  assert.notEqual(keyId(K1), keyId(K2));
  assert.equal(keyId(K1), keyId(Buffer.from(K1)));
  assert.ok(!hex(K1).includes(keyId(K1)));
});

test('the first key seals and names itself; every key opens; another key or another pair does not', () => {
  const old = new StateKeys([K1]);
  const both = new StateKeys([K2, K1]);
  const byOld = old.seal('{"a":1}', 'c1');
  assert.equal(sealedBy(byOld), keyId(K1));
  assert.equal(both.open(byOld, 'c1'), '{"a":1}');
  const byNew = both.seal('{"b":2}', 'c1');
  assert.equal(sealedBy(byNew), keyId(K2));
  assert.ok(both.isCurrent(byNew) && !both.isCurrent(byOld));
  assert.throws(() => old.open(byNew, 'c1'), new RegExp(`sealed under state key ${keyId(K2)}`));
  assert.throws(() => both.open(byNew, 'c2'));
  // The key id is authenticated: a state relabelled with another id of these keys does not open.
  const relabelled = Buffer.from(byOld);
  Buffer.from(keyId(K2), 'hex').copy(relabelled, 1);
  assert.throws(() => both.open(relabelled, 'c1'));
});

test('every seal has an IV of its own, across refills of the IV pool', () => {
  const keys = new StateKeys([K1]);
  const ivs = new Set();
  for (let i = 0; i < 1000; i += 1) {
    const sealed = keys.seal(`{"n":${i}}`, 'c1');
    ivs.add(sealed.subarray(9, 21).toString('hex'));
    assert.equal(keys.open(sealed, 'c1'), `{"n":${i}}`);
  }
  assert.equal(ivs.size, 1000);
});

test('a state of the first layout opens under any listed key that made it, and none other', () => {
  const v1 = sealV1(K1, '{"x":3}', 'c1');
  assert.equal(sealedBy(v1), null);
  assert.equal(new StateKeys([K2, K1]).open(v1, 'c1'), '{"x":3}');
  assert.equal(new StateKeys([K2, K1]).opener(v1, 'c1').id, keyId(K1));
  assert.throws(() => new StateKeys([K2]).open(v1, 'c1'), /none of the keys/);
});

test('a pair sealed in the first layout plays on and is re-sealed under the current key on its next write', async () => {
  const svc = await startApp(db);
  try {
    const { json: r } = await call(svc.app, 'POST', '/v1/players/legacy/rounds', { mines: 1 });
    const keys = new StateKeys([STATE_KEY]);
    const { rows: [p] } = await svc.pool.query('SELECT id, state, commitment FROM seed_pairs WHERE player_id = $1', ['legacy']);
    const v1 = sealV1(STATE_KEY, keys.open(p.state, p.commitment), p.commitment);
    await svc.pool.query('UPDATE seed_pairs SET state = $1 WHERE id = $2', [v1, p.id]);
    const moved = await call(svc.app, 'POST', `/v1/players/legacy/rounds/${r.round}/reveal`, { tile: 1, move: 1 });
    assert.equal(moved.status, 200, moved.body);
    const { rows: [q] } = await svc.pool.query('SELECT state FROM seed_pairs WHERE id = $1', [p.id]);
    assert.equal(sealedBy(q.state), keyId(STATE_KEY));
  } finally {
    await svc.close();
  }
});

test('a pair sealed under a key this process lacks is 503 FAIRMINES_STATE_KEY_UNKNOWN naming its id, logged; with the key it plays on', async () => {
  const lines = [];
  const stream = { write: (line) => { lines.push(line); } };
  const svc = await startApp(db, 10, { logger: { level: 'error', stream } });
  const plays = await startApp(db, 10, { stateKeys: [STATE_KEY, K2] });
  try {
    const keys = new StateKeys([STATE_KEY]);
    const stray = { v2: (text, aad) => new StateKeys([K2]).seal(text, aad), v1: (text, aad) => sealV1(K2, text, aad) };
    for (const [layout, seal] of Object.entries(stray)) {
      const player = `stray-${layout}`;
      const { json: r } = await call(svc.app, 'POST', `/v1/players/${player}/rounds`, { mines: 1 });
      const { rows: [p] } = await svc.pool.query('SELECT id, state, commitment FROM seed_pairs WHERE player_id = $1', [player]);
      await svc.pool.query('UPDATE seed_pairs SET state = $1 WHERE id = $2', [seal(keys.open(p.state, p.commitment), p.commitment), p.id]);
      for (const [method, url, body] of [['POST', `/v1/players/${player}/rounds/${r.round}/reveal`, { tile: 1, move: 1 }],
        ['POST', `/v1/players/${player}/rounds`, { mines: 1 }], ['POST', `/v1/players/${player}/rotate`, { void: true }]]) {
        const res = await call(svc.app, method, url, body);
        assert.equal(res.status, 503, `${layout} ${url}: ${res.body}`);
        assert.equal(res.headers['retry-after'], '1');
        assert.deepEqual(Object.keys(res.json.error), ['code', 'message', 'argument']);
        assert.equal(res.json.error.code, 'FAIRMINES_STATE_KEY_UNKNOWN');
        if (layout === 'v2') assert.ok(res.json.error.message.includes(keyId(K2)), res.json.error.message);
        assert.ok(!res.body.includes(hex(K2)) && !res.body.includes(hex(STATE_KEY)), 'a key in the answer');
      }
      // A process that holds the key opens it, and its write seals the pair under its first key again.
      const moved = await call(plays.app, 'POST', `/v1/players/${player}/rounds/${r.round}/reveal`, { tile: 1, move: 1 });
      assert.equal(moved.status, 200, moved.body);
      const { rows: [q] } = await svc.pool.query('SELECT state FROM seed_pairs WHERE id = $1', [p.id]);
      assert.equal(sealedBy(q.state), keyId(STATE_KEY));
    }
    const log = lines.join('');
    assert.match(log, /FAIRMINES_STATE_KEY_UNKNOWN/);
    assert.ok(log.includes(keyId(K2)) && !log.includes(hex(K2)) && !log.includes(hex(STATE_KEY)), log);
    const metrics = await call(svc.app, 'GET', '/metrics');
    assert.match(metrics.body, /^fairmines_errors_total\{code="FAIRMINES_STATE_KEY_UNKNOWN"\} 6$/m);
  } finally {
    await svc.close();
    await plays.close();
  }
});

/** Every row of every table of the game, in order: what "the database is unchanged" compares. */
async function snapshot(pool) {
  const out = {};
  for (const t of ['players', 'seed_pairs', 'rounds', 'moves', 'state_keys', 'idempotency_keys', 'schema_migrations']) {
    out[t] = (await pool.query(`SELECT * FROM ${t} ORDER BY 1, 2`)).rows.map((r) => JSON.stringify(r));
  }
  return out;
}

// The database's pairs so far are sealed under STATE_KEY (by the tests above): it is the right key below.
test('a process whose keys the database does not know refuses to start, names the key ids, and writes nothing', async () => {
  const env = { DATABASE_URL: db.url, FAIRMINES_STATE_KEY: hex(STATE_KEY), FAIRMINES_API_KEY: 'api-one' };
  const svc = await serve(env);
  assert.match(svc.log, new RegExp(`state keys: ${keyId(STATE_KEY)} \\(the first seals\\)`));
  const made = await request(svc.url, 'POST', '/v1/players/kept/rounds', 'api-one', { mines: 2 });
  assert.equal(made.status, 201);
  const pool = db.pool(1);
  const before = await snapshot(pool);
  assert.ok(before.state_keys.some((r) => r.includes(keyId(STATE_KEY))));

  // A mistyped key, then the new key alone: refused, and they name both sides' fingerprints.
  const typo = Buffer.from(STATE_KEY);
  typo[31] ^= 1;
  for (const wrong of [typo, K2]) {
    await assert.rejects(serve({ ...env, FAIRMINES_STATE_KEY: hex(wrong) }), (err) => {
      assert.match(err.message, /does not open this database's seed pairs: none of its keys is known/);
      assert.ok(err.message.includes(keyId(wrong)) && err.message.includes(keyId(STATE_KEY)), err.message);
      assert.ok(!err.message.includes(hex(wrong)) && !err.message.includes(hex(STATE_KEY)), 'a key in the message');
      return true;
    });
  }
  assert.deepEqual(await snapshot(pool), before);

  // The right key after all: the player plays on.
  const again = await request(svc.url, 'POST', `/v1/players/kept/rounds/${made.json.round}/reveal`, 'api-one', { tile: 1, move: 1 });
  assert.equal(again.status, 200);
  assert.equal(await svc.stop(), 0);
});

test('several API keys are accepted at once; a metrics token reads /metrics and cannot play', async () => {
  const svc = await serve({ DATABASE_URL: db.url, FAIRMINES_STATE_KEY: hex(STATE_KEY), FAIRMINES_API_KEY: 'api-new, api-old',
    FAIRMINES_METRICS_TOKEN: 'scrape-only' });
  try {
    for (const key of ['api-new', 'api-old']) {
      assert.equal((await request(svc.url, 'POST', '/v1/players/multi/rounds', key, { mines: 2 })).status, 201, key);
      assert.equal((await request(svc.url, 'GET', '/metrics', key)).status, 200, key);
    }
    const metrics = await request(svc.url, 'GET', '/metrics', 'scrape-only');
    assert.equal(metrics.status, 200);
    assert.match(metrics.text, /fairmines_moves_total\{kind="start"\} 2/);
    for (const [method, route, body] of [['POST', '/v1/players/multi/rounds', { mines: 2 }], ['GET', '/v1/players/multi/seeds'],
      ['GET', '/v1/history'], ['POST', '/v1/players/multi/rotate', {}]]) {
      const res = await request(svc.url, method, route, 'scrape-only', body);
      assert.equal(res.status, 401, route);
      assert.equal(res.json.error.code, 'FAIRMINES_UNAUTHORIZED');
    }
    for (const wrong of ['api-ne', 'api-new,api-old', '']) {
      assert.equal((await request(svc.url, 'GET', '/v1/players/multi/seeds', wrong)).status, 401, wrong);
    }
  } finally {
    await svc.stop();
  }
});

test('with DATABASE_URL a missing API key is refused with why; a metrics token equal to an API key too', async () => {
  const base = { DATABASE_URL: db.url, FAIRMINES_STATE_KEY: hex(STATE_KEY) };
  await assert.rejects(serve(base), /set FAIRMINES_API_KEY: every process behind a load balancer must accept the same/);
  await assert.rejects(serve({ ...base, FAIRMINES_API_KEY: 'a,,b' }), /FAIRMINES_API_KEY: an empty key/);
  await assert.rejects(serve({ ...base, FAIRMINES_API_KEY: 'a,b', FAIRMINES_METRICS_TOKEN: 'b' }),
    /FAIRMINES_METRICS_TOKEN must differ from every FAIRMINES_API_KEY/);
  await assert.rejects(serve({ ...base, FAIRMINES_STATE_KEY: `${hex(STATE_KEY)},abcd`, FAIRMINES_API_KEY: 'a' }), /must be 32 bytes/);
  const r = await runCommand(['rekay'], base);
  assert.equal(r.code, 1);
  assert.match(r.log, /unknown command "rekay"/);
});
