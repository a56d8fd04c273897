// Crashes: two service processes on one database, many players playing at once, service processes killed
// with SIGKILL at random moments and restarted, and PostgreSQL itself killed and restarted once. Clients
// retry a move until it is acknowledged, as a real client does after a timeout. Afterwards every
// acknowledged move is in the database with the answer the client saw, every round is finished, every
// player has rotated, and the export passes `fairmines verify-history`.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { migrate } from '../src/migrate.js';
import { ensurePostgres } from '../src/embedded-pg.js';
import { API_KEY, SERVER_DIR, STATE_KEY, TEST_HOME, fairminesCli, rng, startDatabase } from './helpers.js';
import { storedAnswers } from './game-helpers.js';

const PLAYERS = Number(process.env.FAIRMINES_CRASH_PLAYERS ?? 100);
const CHAOS_MS = Number(process.env.FAIRMINES_CRASH_MS ?? 15_000);
const KILLS = 10;

let db;
const procs = new Map();
let ended = false;
before(async () => { db = await startDatabase(); });
after(async () => {
  ended = true;
  for (const p of procs.values()) p.child?.kill('SIGKILL');
  await db.close();
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

// A phase that makes no progress for this long fails the test with what the services last said, rather
// than leaving it to the test's timeout with nothing to go on.
const STUCK_MS = 60_000;
let fault = null;
let fail;
const trouble = new Promise((_, reject) => { fail = (err) => { fault ??= err; reject(err); }; });
trouble.catch(() => {});
const tails = () => [...procs].map(([i, p]) => `--- service ${i}'s last output:\n${p.log ?? ''}`).join('\n');

/** Starts (or restarts) service process `i` on its own fixed port; resolves when it listens. */
function startService(i) {
  const slot = procs.get(i);
  const child = spawn(process.execPath, [path.join(SERVER_DIR, 'bin', 'fairmines-server.js')], {
    env: { ...process.env, DATABASE_URL: db.url, FAIRMINES_STATE_KEY: STATE_KEY.toString('hex'),
      FAIRMINES_API_KEY: API_KEY, PORT: String(slot.port), FAIRMINES_POOL_SIZE: '8' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  slot.child = child;
  slot.up = false;
  slot.log = '';
  const listening = new Promise((resolve) => {
    child.stderr.on('data', (d) => {
      slot.log = (slot.log + d).slice(-4000);
      if (!slot.up && slot.log.includes('listening on')) { slot.up = true; resolve(); }
    });
    child.on('exit', (code, signal) => {
      if (ended || slot.child !== child) return;
      // A process killed while starting (or refused by a database that is down) is started again.
      if (!slot.up) setTimeout(() => startService(i).then(resolve), 200);
      // One that was serving ends only by the killer's SIGKILL: anything else is a fault of the service.
      else if (signal !== 'SIGKILL') fail(new Error(`service ${i} exited by itself (code ${code}, signal ${signal})\n${tails()}`));
    });
  });
  let timer;
  const stuck = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`service ${i} did not listen within ${STUCK_MS} ms\n${tails()}`)), STUCK_MS);
  });
  return Promise.race([listening, stuck]).finally(() => clearTimeout(timer));
}

test(`${PLAYERS} players on 2 processes through ${KILLS} SIGKILLs of the service and one of PostgreSQL`, { timeout: 300_000 }, async () => {
  await migrate(db.pool(1));
  for (const i of [0, 1]) procs.set(i, { port: await freePort() });
  await Promise.all([startService(0), startService(1)]);
  const rand = rng(Number(process.env.FAIRMINES_TEST_SEED ?? 99));
  const acks = [];
  let retries = 0;

  /** One request, sent again (same body) to either process until it gets an answer that is not a failure. */
  async function req(method, route, body) {
    const since = Date.now();
    let last = null;
    for (;;) {
      if (ended) throw new Error('the test ended');
      if (fault) throw fault;
      if (Date.now() - since > STUCK_MS) {
        throw new Error(`${method} ${route}: no answer but failures for ${STUCK_MS} ms, the last: ${last}\n${tails()}`);
      }
      const slot = procs.get(rand(2));
      try {
        const res = await fetch(`http://127.0.0.1:${slot.port}${route}`, {
          method, body: body && JSON.stringify(body), signal: AbortSignal.timeout(10_000),
          headers: { authorization: `Bearer ${API_KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) } });
        const json = await res.json();
        if (res.status < 500) {
          assert.ok(res.status < 300, `${res.status} ${method} ${route} ${JSON.stringify(body)}: ${JSON.stringify(json)}`);
          return json;
        }
        last = `${res.status} ${JSON.stringify(json)}`;
      } catch (err) {
        if (err instanceof assert.AssertionError) throw err;
        last = `${err.message}${err.cause ? ` (${err.cause.code ?? err.cause.message})` : ''}`;
      }
      retries += 1;
      await sleep(20 + rand(80));
    }
  }

  /** Plays a round to its end from wherever it is (a round found in play after a crash included). */
  async function finishRound(player, round, r) {
    const info = await req('GET', `/v1/players/${player}/rounds/${round}`);
    const picked = new Set(info.picks);
    let move = info.moves;
    let safePicks = info.safePicks;
    for (let finished = info.finished; !finished;) {
      move += 1;
      let answer;
      if (safePicks > 0 && r(3) === 0) {
        answer = await req('POST', `/v1/players/${player}/rounds/${round}/cash-out`, { move });
        acks.push({ round, move, answer });
      } else {
        const closed = Array.from({ length: 25 }, (_, k) => k + 1).filter((t) => !picked.has(t));
        const tile = closed[r(closed.length)];
        picked.add(tile);
        answer = await req('POST', `/v1/players/${player}/rounds/${round}/reveal`, { tile, move });
        acks.push({ round, move, answer });
        safePicks = answer.safePicks;
      }
      finished = answer.finished;
    }
  }

  const stopAt = Date.now() + CHAOS_MS;
  const players = Array.from({ length: PLAYERS }, (_, k) => `crash-${k}`);
  const playing = players.map(async (player, k) => {
    const r = rng(k + 1);
    while (Date.now() < stopAt) {
      // A new round's answer lost to a crash leaves a round the client never saw: found and finished below.
      const { round } = await req('POST', `/v1/players/${player}/rounds`, { mines: 1 + r(12) });
      await finishRound(player, round, r);
    }
  });

  // The killer: service processes at random moments, PostgreSQL once, halfway.
  const killing = (async () => {
    for (let k = 0; k < KILLS; k += 1) {
      await sleep(CHAOS_MS / (KILLS + 1) * (0.5 + rand(100) / 100));
      if (k === KILLS / 2) {
        const pid = Number(fs.readFileSync(path.join(db.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
        process.kill(pid, 'SIGKILL');
        await sleep(300);
        // Its backends notice the postmaster died and exit; until then a start may be refused: try again.
        for (const since = Date.now(); ;) {
          try {
            await ensurePostgres(TEST_HOME);
            break;
          } catch (err) {
            if (Date.now() - since > STUCK_MS) {
              const log = fs.readFileSync(path.join(path.dirname(db.dataDir), 'postgres.log'), 'utf8').slice(-4000);
              throw new Error(`PostgreSQL did not start again within ${STUCK_MS} ms: ${err.message}\n${log}`);
            }
            await sleep(200);
          }
        }
      }
      const i = rand(2);
      procs.get(i).child.kill('SIGKILL');
      await startService(i);
    }
  })();
  await Promise.race([Promise.all([...playing, killing]), trouble]);

  // Every round the crashes left in play is finished, then every player rotates.
  const revealed = [];
  for (const player of players) {
    const seeds = await req('GET', `/v1/players/${player}/seeds`);
    for (const { round } of seeds.roundsInPlay) await finishRound(player, round, rand);
    const rot = await req('POST', `/v1/players/${player}/rotate`, {});
    revealed.push(rot.revealed);
  }

  const pool = db.pool(2);
  // Every acknowledged move is stored, with the very answer the client saw.
  const stored = await storedAnswers(pool);
  assert.ok(acks.length > PLAYERS, `only ${acks.length} moves`);
  for (const a of acks) assert.deepEqual(stored.get(`${a.round}/${a.move}`), a.answer, `${a.round} move ${a.move}`);
  const { rows: [counts] } = await pool.query(`SELECT count(*)::int AS rounds,
      count(*) FILTER (WHERE status = 'in_play')::int AS in_play,
      (SELECT count(*)::int FROM (SELECT 1 FROM rounds GROUP BY commitment, nonce HAVING count(*) > 1) d) AS twice,
      (SELECT count(DISTINCT player_id)::int FROM seed_pairs WHERE revealed_at IS NOT NULL) AS rotated FROM rounds`);
  assert.deepEqual(counts, { rounds: counts.rounds, in_play: 0, twice: 0, rotated: PLAYERS });

  // The export of everything: 0 failures, one row per round.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fairmines-crash-'));
  try {
    const slot = procs.get(0);
    const get = async (route) => (await fetch(`http://127.0.0.1:${slot.port}${route}`,
      { headers: { authorization: `Bearer ${API_KEY}` } })).text();
    fs.writeFileSync(path.join(dir, 'h.jsonl'), await get('/v1/history?format=jsonl'));
    fs.writeFileSync(path.join(dir, 'revealed.jsonl'), await get('/v1/history/revealed'));
    const out = execFileSync(fairminesCli(), ['verify-history', '--json', '--revealed', path.join(dir, 'revealed.jsonl'),
      path.join(dir, 'h.jsonl')], { encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(out.slice(0, -1), []);
    assert.equal(out.at(-1).all_ok, true);
    assert.equal(out.at(-1).rows_read, counts.rounds);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  process.stderr.write(`# crash: ${counts.rounds} rounds, ${acks.length} acknowledged moves, ${retries} retries\n`);
  for (const p of procs.values()) p.child.kill('SIGTERM');
});
