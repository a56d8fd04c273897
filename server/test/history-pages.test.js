// The export page by page, as an auditor reads a large one: 10,000 real rounds (played by the addon, written
// with one statement per seed pair), exported in pages of 1,000 whose concatenation is exactly the unpaged
// export and passes `fairmines verify-history --revealed`; and the filters by player and finished time.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { SeedPair, payout, recordToJson } from 'fairmines';
import { call, fairminesCli, rng } from './helpers.js';
import { serviceForFile } from './helpers.js';

const svc = serviceForFile();
const NEXT = 'fairmines-next-cursor';
const T0 = Date.parse('2026-01-01T00:00:00Z');

/**
 * Writes `count` finished rounds of one new seed pair of `player`, then reveals the pair, as the service
 * would have stored them: each round played by the addon (random picks, cashed out or lost), its record,
 * mines, stake and the core's payout; round i finished at T0 + `offset` + i seconds.
 */
async function writePair(player, count, rand, offset) {
  const pair = new SeedPair(`client-${player}`);
  const { commitment, clientSeed } = pair.publicPart;
  const rows = [];
  for (let i = 0; i < count; i += 1) {
    const round = pair.startRound(1 + rand(24), ['0.99', '1'][rand(2)]);
    for (let tile = 1 + rand(25), n = 0; !round.isFinished; tile = (tile % 25) + 1, n += 1) {
      if (n > 0 && rand(3) === 0 && round.safePicks > 0) round.cashOut();
      else if (!round.picks.includes(tile)) round.reveal(tile);
    }
    const record = round.record();
    const stake = rand(100000);
    const at = new Date(T0 + (offset + i) * 1000).toISOString();
    rows.push({ id: randomUUID(), player_id: player, commitment, nonce: Number(round.nonce), mines: round.mines,
      rtp: round.rtp.text, status: round.outcome, record: recordToJson(record), positions: round.minePositions,
      stake, currency: 'EUR', payout: Number(payout(record, stake)), created_at: at, finished_at: at });
  }
  const revealed = pair.rotate();
  await svc.pool.query('INSERT INTO players (id) VALUES ($1) ON CONFLICT DO NOTHING', [player]);
  const { rows: [{ id }] } = await svc.pool.query(`INSERT INTO seed_pairs (player_id, commitment, client_seed, server_seed,
    rounds, revealed_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
  [player, commitment, clientSeed, revealed.serverSeed, Number(revealed.rounds), new Date(T0 + offset * 1000)]);
  await svc.pool.query(`INSERT INTO rounds SELECT * FROM json_populate_recordset(NULL::rounds, $1)`,
    [JSON.stringify(rows.map((r) => ({ ...r, pair_id: id })))]);
}

/** Every page of `url` (`limit` rows each), following the cursor header: the bodies and the page count. */
async function pages(url, limit) {
  const bodies = [];
  let cursor = null;
  for (let n = 0; n < 1000; n += 1) {
    const res = await call(svc.app, 'GET', `${url}${url.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    assert.equal(res.status, 200, res.body);
    bodies.push(res.body);
    cursor = res.headers[NEXT] ?? null;
    if (cursor === null) return bodies;
  }
  throw new Error('the cursor never ended');
}

test('10,000 rounds in pages of 1,000 are exactly the unpaged export, and verify with the revealed pairs', async () => {
  const rand = rng(Number(process.env.FAIRMINES_TEST_SEED ?? 6));
  // 10 players, one pair each, interleaved in time.
  for (let p = 0; p < 10; p += 1) await writePair(`pager-${p}`, 1000, rand, p * 1000);
  const whole = await call(svc.app, 'GET', '/v1/history');
  assert.equal(whole.headers[NEXT], undefined, 'the unbounded export has no cursor');
  const paged = await pages('/v1/history', 1000);
  assert.equal(paged.length, 10);
  assert.ok(paged.every((b) => b.split('\n').length === 1001), 'pages of 1,000 rows');
  assert.equal(paged.join(''), whole.body);
  const revealed = await pages('/v1/history/revealed', 3);
  assert.equal(revealed.length, 4);
  assert.equal(revealed.join(''), (await call(svc.app, 'GET', '/v1/history/revealed')).body);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fairmines-pages-'));
  try {
    fs.writeFileSync(path.join(dir, 'history.jsonl'), paged.join(''));
    fs.writeFileSync(path.join(dir, 'revealed.jsonl'), revealed.join(''));
    const out = execFileSync(fairminesCli(), ['verify-history', '--json', '--revealed', path.join(dir, 'revealed.jsonl'),
      path.join(dir, 'history.jsonl')], { encoding: 'utf8' });
    const lines = out.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(lines.slice(0, -1), []);
    assert.equal(lines.at(-1).all_ok, true);
    assert.equal(lines.at(-1).ok, 10000);
    assert.equal(lines.at(-1).missing_nonces, 0);
    // A payout off by one unit is caught: verify-history checks every payout by the core's rule.
    const rows = paged.join('').trim().split('\n');
    const row = JSON.parse(rows[0]);
    row.payout += 1;
    rows[0] = JSON.stringify(row);
    fs.writeFileSync(path.join(dir, 'tampered.jsonl'), `${rows.join('\n')}\n`);
    assert.throws(() => execFileSync(fairminesCli(), ['verify-history', path.join(dir, 'tampered.jsonl')], { stdio: 'pipe' }),
      { status: 1 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the filters: one player, a finished-time window, and pages of it; the revealed pairs likewise', async () => {
  const rows = (body) => body.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  const one = rows((await call(svc.app, 'GET', '/v1/history?player=pager-3')).body);
  assert.equal(one.length, 1000);
  assert.ok(one.every((r) => r.player === 'pager-3' && r.currency === 'EUR' && Number.isInteger(r.payout)));
  // Rounds finished in [T0 + 2500 s, T0 + 4000 s): the last 500 of pager-2 and all of pager-3.
  const since = new Date(T0 + 2500 * 1000).toISOString();
  const until = new Date(T0 + 4000 * 1000).toISOString();
  const window = `/v1/history?since=${since}&until=${until}`;
  const inWindow = rows((await call(svc.app, 'GET', window)).body);
  assert.deepEqual([...new Set(inWindow.map((r) => r.player))], ['pager-2', 'pager-3']);
  assert.equal(inWindow.length, 1500);
  assert.equal((await pages(window, 400)).join(''), inWindow.map((r) => `${JSON.stringify(r)}\n`).join(''));
  const csv = await pages(`${window}&format=csv`, 1000);
  assert.equal(csv.length, 2);
  assert.match(csv[0], /^round_id,.*,stake,currency,payout,player\n/);
  const pairs = rows((await call(svc.app, 'GET', `/v1/history/revealed?player=pager-3`)).body);
  assert.equal(pairs.length, 1);
  assert.equal(pairs[0].rounds, 1000);
  // Microseconds count, and any offset and year RFC 3339 allows is read (PostgreSQL reads no offset past ±15:59).
  const justAfter = since.replace('.000Z', '.000001Z');
  assert.equal(rows((await call(svc.app, 'GET', `/v1/history?since=${justAfter}&until=${until}`)).body).length, 1499);
  for (const [q, n] of [['until=2693-11-07T03:19:55.7-16:07', 10000], ['since=0044-02-25T16:11:08-23:23', 10000],
    ['until=0000-01-01T00:00:00%2B01:00', 0], [`since=${encodeURIComponent(since.replace('Z', '+23:59'))}`, 10000]]) {
    const res = await call(svc.app, 'GET', `/v1/history?${q}`);
    assert.equal(res.status, 200, `${q}: ${res.body}`);
    assert.equal(rows(res.body).length, n, q);
  }
  const leap = await call(svc.app, 'GET', '/v1/history/revealed?since=2016-12-31T23:59:60Z');
  assert.deepEqual([leap.status, leap.json.error.argument], [400, 'since']);
  const bad = await call(svc.app, 'GET', '/v1/history?since=yesterday');
  assert.deepEqual([bad.status, bad.json.error.argument], [400, 'since']);
  for (const [url, forged] of [['/v1/history', 'nope'], ['/v1/history', '1.99999999999999999999'], ['/v1/history', '1'],
    ['/v1/history/revealed', '1.2'], ['/v1/history/revealed', '99999999999999999999']]) {
    const res = await call(svc.app, 'GET', `${url}?limit=5&cursor=${Buffer.from(forged).toString('base64url')}`);
    assert.deepEqual([res.status, res.json.error.code, res.json.error.argument], [400, 'FAIRMINES_INVALID_REQUEST', 'cursor']);
  }
});
