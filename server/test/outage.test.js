// The database may come and go: a service process started while PostgreSQL is stopped lives, listens, says
// so in its log, answers /healthz and /metrics 200 and everything else 503 FAIRMINES_UNAVAILABLE with
// Retry-After, then becomes ready (migrations run, state keys checked) once PostgreSQL is back, or exits
// when its state keys are refused; a stop of PostgreSQL under it ends nothing.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { ensurePostgres } from '../src/embedded-pg.js';
import { keyId } from '../src/keys.js';
import { API_KEY, SERVER_DIR, STATE_KEY, TEST_HOME, startDatabase } from './helpers.js';
import { storedAnswers } from './game-helpers.js';

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
      FAIRMINES_METRICS_TOKEN: 'scrape-only', PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
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
  // Prometheus reads /metrics with its token while the database is away.
  const scrape = async () => fetch(`${base}/metrics`, { headers: { authorization: 'Bearer scrape-only' } });
  const early = await scrape();
  assert.equal(early.status, 200);
  assert.match(await early.text(), /^fairmines_ready 0$/m);
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
  assert.match(await (await scrape()).text(), /^fairmines_ready 1$/m);
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

test('two processes under load through a SIGKILL, a fast and an immediate stop of PostgreSQL (10 s down)', { timeout: 90_000 }, async () => {
  const fs = await import('node:fs');
  const procs = [];
  for (let i = 0; i < 2; i += 1) {
    const c = spawn(process.execPath, [path.join(SERVER_DIR, 'bin', 'fairmines-server.js')], {
      env: { ...process.env, DATABASE_URL: db.url, FAIRMINES_STATE_KEY: STATE_KEY.toString('hex'), FAIRMINES_API_KEY: API_KEY,
        PORT: '0', FAIRMINES_POOL_SIZE: '4' }, stdio: ['ignore', 'ignore', 'pipe'] });
    const p = { c, log: '', exited: null, pid: c.pid };
    c.stderr.on('data', (d) => { p.log += d; });
    c.on('exit', (code) => { p.exited = code; });
    procs.push(p);
  }
  for (let i = 0; i < 100 && !procs.every((p) => /listening on/.test(p.log)); i += 1) await sleep(100);
  const bases = procs.map((p) => /listening on (http:\/\/\S+)/.exec(p.log)[1]);
  const bad = [];
  const acks = [];
  let stop = false;
  let k = 0;
  async function req(method, route, body) {
    for (;;) {
      const base = bases[(k += 1) % 2];
      let res;
      try {
        res = await fetch(base + route, { method, body: body && JSON.stringify(body), signal: AbortSignal.timeout(10_000),
          headers: { authorization: `Bearer ${API_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) } });
      } catch (err) { bad.push(`${route}: ${err.message}`); await sleep(100); continue; }
      const json = await res.json();
      if (res.status === 503 && res.headers.get('retry-after') === '1' && json.error.code === 'FAIRMINES_UNAVAILABLE') {
        if (stop) return null;
        await sleep(50);
        continue;
      }
      if (res.status >= 300) bad.push(`${res.status} ${route}: ${JSON.stringify(json)}`);
      return json;
    }
  }
  const players = Array.from({ length: 8 }, (_, i) => (async () => {
    while (!stop) {
      const r = await req('POST', `/v1/players/load-${i}/rounds`, { mines: 1 });
      if (!r?.round) continue;
      for (let move = 1, tile = 1, finished = false; !finished && !stop; move += 1, tile += 1) {
        const a = await req('POST', `/v1/players/load-${i}/rounds/${r.round}/reveal`, { tile, move });
        if (!a) break;
        acks.push({ round: r.round, move, answer: a });
        finished = a.finished;
      }
    }
  })());
  const pg = await ensurePostgres(TEST_HOME);
  /** Restarts PostgreSQL; how long until both processes serve a read that needs it. */
  async function restartAndMeasure() {
    for (let tries = 0; ; tries += 1) {
      try { await ensurePostgres(TEST_HOME); break; } catch (err) { if (tries > 50) throw err; await sleep(200); }
    }
    const t0 = Date.now();
    for (const base of bases) {
      while ((await fetch(`${base}/v1/players/load-0/seeds`, { headers: { authorization: `Bearer ${API_KEY}` } })).status !== 200) {
        assert.ok(Date.now() - t0 < 5000);
        await sleep(20);
      }
    }
    return Date.now() - t0;
  }
  const resumed = [];
  await sleep(1500);
  process.kill(Number(fs.readFileSync(path.join(db.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]), 'SIGKILL');
  await sleep(1000);
  resumed.push(await restartAndMeasure());
  await sleep(1500);
  await pg.stop({ always: true, mode: 'fast' });
  await sleep(1000);
  resumed.push(await restartAndMeasure());
  await sleep(1500);
  await pg.stop({ always: true, mode: 'immediate' });
  await sleep(10_000);
  resumed.push(await restartAndMeasure());
  await sleep(1500);
  stop = true;
  await Promise.all(players);

  assert.deepEqual(bad, []);
  assert.deepEqual(procs.map((p) => [p.exited, p.c.pid]), procs.map((p) => [null, p.pid]), 'both processes alive, same PIDs');
  for (const ms of resumed) assert.ok(ms < 1000, `served again ${resumed} ms after PostgreSQL`);
  const pool = db.pool(1);
  const stored = await storedAnswers(pool);
  assert.ok(acks.length > 20, `${acks.length} moves`);
  for (const a of acks) assert.deepEqual(stored.get(`${a.round}/${a.move}`), a.answer);
  await pool.end();
  process.stderr.write(`# outage: ${acks.length} acknowledged moves, served again ${resumed.join(' / ')} ms after PostgreSQL\n`);
  for (const p of procs) p.c.kill('SIGTERM');
});

test('a process started while PostgreSQL is down with a state key the database does not know exits once it is up, writing nothing', { timeout: 60_000 }, async () => {
  const wrong = Buffer.alloc(32, 0x77);
  const pool = db.pool(1);
  const { rows: known } = await pool.query('SELECT id FROM state_keys ORDER BY id');
  assert.deepEqual(known.map((r) => r.id), [keyId(STATE_KEY)]);
  const pg = await ensurePostgres(TEST_HOME);
  await pg.stop({ always: true });
  const c = spawn(process.execPath, [path.join(SERVER_DIR, 'bin', 'fairmines-server.js')], {
    env: { ...process.env, DATABASE_URL: db.url, FAIRMINES_STATE_KEY: wrong.toString('hex'), FAIRMINES_API_KEY: API_KEY,
      PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  c.stderr.on('data', (d) => { log += d; });
  const exited = new Promise((resolve) => c.on('exit', resolve));
  for (let i = 0; i < 100 && !/listening on/.test(log); i += 1) await sleep(100);
  const base = /listening on (http:\/\/\S+)/.exec(log)?.[1];
  assert.ok(base, log);
  assert.equal((await fetch(`${base}/healthz`)).status, 200);

  await ensurePostgres(TEST_HOME);
  const code = await Promise.race([exited, sleep(10_000).then(() => 'still running')]);
  c.kill('SIGKILL');
  assert.equal(code, 1, log);
  assert.match(log, /does not open this database's seed pairs: none of its keys is known/);
  assert.ok(log.includes(keyId(wrong)) && log.includes(keyId(STATE_KEY)), log);
  assert.ok(!log.includes(wrong.toString('hex')) && !log.includes(STATE_KEY.toString('hex')), 'a key in the log');
  const { rows: after } = await pool.query('SELECT id FROM state_keys ORDER BY id');
  assert.deepEqual(after, known);
  await pool.end();
});
