// Rotating the state key and the API key under load, as the README's "Rotating keys" says: two service
// processes, players playing throughout; each process restarted with the new keys added, then with the new
// keys first; `fairmines-server rekey`; then the old keys removed. No request is refused for its key and
// none fails (a process restarting is routed around, as a load balancer does); every player plays on.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { after, before, test } from 'node:test';
import { keyId } from '../src/keys.js';
import { migrate } from '../src/migrate.js';
import { pairsByKey } from '../src/rekey.js';
import { rng, startDatabase } from './helpers.js';
import { killChildren, runCommand, serve } from './service-helpers.js';

const PLAYERS = 16;
const K1 = Buffer.alloc(32, 0x31).toString('hex');
const K2 = Buffer.alloc(32, 0x32).toString('hex');

let db;
let stopping = false;
before(async () => { db = await startDatabase(); });
after(async () => {
  stopping = true;
  killChildren();
  await db.close();
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

test('state key and API key rotated under load on two processes, with rekey: every player plays on', { timeout: 120_000 }, async () => {
  await migrate(db.pool(1));
  const slots = [{ port: await freePort() }, { port: await freePort() }];
  const envOf = (slot, stateKey, apiKey) => ({ DATABASE_URL: db.url, PORT: String(slot.port), FAIRMINES_POOL_SIZE: '4',
    FAIRMINES_STATE_KEY: stateKey, FAIRMINES_API_KEY: apiKey });
  const up = async (slot, stateKey, apiKey) => {
    slot.proc = await serve(envOf(slot, stateKey, apiKey));
    slot.up = true;
  };
  /** A rolling restart: the slot taken out of rotation, drained, started again with the new keys. */
  const restart = async (slot, stateKey, apiKey) => {
    slot.up = false;
    await sleep(50);
    assert.equal(await slot.proc.stop(), 0, slot.proc.log);
    await up(slot, stateKey, apiKey);
  };
  await Promise.all(slots.map((s) => up(s, K1, 'api-a')));

  let apiKey = 'api-a';
  const failures = [];
  const statuses = new Map();
  const rand = rng(7);
  /** One request to a process in rotation, sent again (same body: idempotent) while none answers. */
  async function send(method, route, body, headers = {}) {
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const live = slots.filter((s) => s.up);
      const slot = live[rand(live.length)];
      if (slot) {
        try {
          const res = await fetch(`http://127.0.0.1:${slot.port}${route}`, { method, body: JSON.stringify(body),
            signal: AbortSignal.timeout(10_000),
            headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers } });
          const json = await res.json();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          // 503 while a process drains: not processed, sent again like a connection refused.
          if (res.status !== 503) {
            if (res.status >= 300) failures.push(`${res.status} ${method} ${route}: ${JSON.stringify(json)}`);
            return json;
          }
        } catch { /* the process is restarting: another one */ }
      }
      await sleep(20);
    }
    throw new Error(`no process answered ${method} ${route}`);
  }

  const finished = new Array(PLAYERS).fill(0);
  async function play(p) {
    const player = `rot${p}`;
    while (!stopping && failures.length === 0) {
      const r = await send('POST', `/v1/players/${player}/rounds`, { mines: 3 }, { 'idempotency-key': randomUUID() });
      if (!r.round) break;
      let move = 1;
      let lost = false;
      for (const tile of [3, 11, 19]) {
        lost = !(await send('POST', `/v1/players/${player}/rounds/${r.round}/reveal`, { tile, move })).safe;
        move += 1;
        if (lost) break;
      }
      if (!lost) await send('POST', `/v1/players/${player}/rounds/${r.round}/cash-out`, { move });
      finished[p] += 1;
    }
  }
  const load = Array.from({ length: PLAYERS }, (_, p) => play(p));
  /** Waits until every player has finished `n` more rounds (bounded). */
  const playersPlayOn = async (n = 1) => {
    const from = [...finished];
    for (let i = 0; i < 200 && finished.some((f, p) => f < from[p] + n); i += 1) await sleep(50);
    assert.deepEqual(finished.map((f, p) => f >= from[p] + n), new Array(PLAYERS).fill(true),
      `every player plays on; failures: ${failures.slice(0, 3).join('; ')}`);
  };

  try {
    await playersPlayOn();
    // 1. Every process opens under the new state key and accepts the new API key; the old ones still seal and work.
    for (const s of slots) await restart(s, `${K1},${K2}`, 'api-a,api-b');
    apiKey = 'api-b';
    await playersPlayOn();
    // 2. The new state key seals.
    for (const s of slots) await restart(s, `${K2},${K1}`, 'api-b,api-a');
    await playersPlayOn();
    // 3. Every active pair re-sealed under it, beside the running processes.
    const rekeyed = await runCommand(['rekey'], { DATABASE_URL: db.url, FAIRMINES_STATE_KEY: `${K2},${K1}`,
      FAIRMINES_API_KEY: 'api-b' });
    assert.equal(rekeyed.code, 0, rekeyed.log);
    assert.match(rekeyed.log, /re-sealed \d+ pairs; left under other keys: none/);
    await playersPlayOn();
    // 4. The old keys removed.
    for (const s of slots) await restart(s, K2, 'api-b');
    await playersPlayOn(2);
  } finally {
    stopping = true;
    await Promise.all(load);
  }
  assert.deepEqual(failures, []);
  assert.ok(![...statuses.keys()].some((s) => s === 401 || s >= 500 && s !== 503), JSON.stringify([...statuses]));
  assert.deepEqual(Object.keys(await pairsByKey(db.pool(1))), [keyId(Buffer.from(K2, 'hex'))]);

  // The old API key is refused now, and a process started with the old state key alone refuses to start.
  const old = await fetch(`http://127.0.0.1:${slots[0].port}/v1/players/rot0/seeds`, { headers: { authorization: 'Bearer api-a' } });
  assert.equal(old.status, 401);
  await assert.rejects(serve({ DATABASE_URL: db.url, FAIRMINES_STATE_KEY: K1, FAIRMINES_API_KEY: 'api-a' }),
    new RegExp(`a seed pair is sealed under ${keyId(Buffer.from(K2, 'hex'))}, which it lacks`));
  for (const s of slots) assert.equal(await s.proc.stop(), 0);
});
