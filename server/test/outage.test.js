// The database may come and go: a service process started while PostgreSQL is stopped lives, listens, says
// so in its log, answers /healthz 200 and everything else 503 FAIRMINES_UNAVAILABLE with Retry-After, then
// becomes ready (migrations run) once PostgreSQL is back; a stop of PostgreSQL under it ends nothing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ensurePostgres } from '../src/embedded-pg.js';
import { API_KEY, SERVER_DIR, STATE_KEY, TEST_HOME, startDatabase } from './helpers.js';

let db;
let child;
before(async () => { db = await startDatabase(); });
after(async () => {
  child?.kill('SIGKILL');
  await ensurePostgres(TEST_HOME);
  await db.close();
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('a process started while PostgreSQL is down serves 503, then becomes ready when it comes up', { timeout: 60_000 }, async () => {
  const pg = await ensurePostgres(TEST_HOME);
  await pg.stop({ always: true });
  child = spawn(process.execPath, [path.join(SERVER_DIR, 'bin', 'fairmines-server.js')], {
    env: { ...process.env, DATABASE_URL: db.url, FAIRMINES_STATE_KEY: STATE_KEY.toString('hex'), FAIRMINES_API_KEY: API_KEY,
      PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (d) => { log += d; });
  let exited = null;
  child.on('exit', (code) => { exited = code; });
  for (let i = 0; i < 100 && !/listening on/.test(log); i += 1) await sleep(100);
  const base = /listening on (http:\/\/\S+)/.exec(log)?.[1];
  assert.ok(base, log);
  assert.match(log, /the database is not ready \(.*ECONNREFUSED/);
  assert.equal((await fetch(`${base}/healthz?x=1`)).status, 200);
  for (const [url, headers] of [['/readyz', {}], ['/v1/players/late/seeds', { authorization: `Bearer ${API_KEY}` }]]) {
    const res = await fetch(base + url, { headers });
    assert.equal(res.status, 503, url);
    assert.equal(res.headers.get('retry-after'), '1');
    assert.equal((await res.json()).error.code, 'FAIRMINES_UNAVAILABLE');
  }
  await sleep(2000);
  assert.equal(exited, null, 'the process lives');

  await ensurePostgres(TEST_HOME);
  const up = Date.now();
  let ready = null;
  while (Date.now() - up < 10_000) {
    if ((await fetch(`${base}/readyz`)).status === 200) { ready = Date.now() - up; break; }
    await sleep(50);
  }
  assert.ok(ready !== null && ready < 1500, `ready ${ready} ms after PostgreSQL`);
  const post = (url, body) => fetch(base + url, { method: 'POST', body: JSON.stringify(body),
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' } });
  assert.equal((await post('/v1/players/late/rounds', { mines: 3 })).status, 201);

  // PostgreSQL stopped under it (-m fast): 503 with Retry-After, never 500, the process lives; back within 1 s.
  await pg.stop({ always: true });
  const res = await post('/v1/players/late/rounds', { mines: 3 });
  assert.equal(res.status, 503);
  assert.equal(res.headers.get('retry-after'), '1');
  await sleep(500);
  assert.equal(exited, null, 'the process lives');
  await ensurePostgres(TEST_HOME);
  const back = Date.now();
  let served = null;
  while (Date.now() - back < 5000) {
    const r = await post('/v1/players/late/rounds', { mines: 3 });
    assert.ok(r.status === 201 || r.status === 503, `status ${r.status}`);
    if (r.status === 201) { served = Date.now() - back; break; }
    await sleep(50);
  }
  assert.ok(served !== null && served < 1000, `served ${served} ms after PostgreSQL`);
  assert.equal(exited, null);
  child.kill('SIGTERM');
});
