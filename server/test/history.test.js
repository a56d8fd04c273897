// The export is what an auditor checks: many random rounds, every pair rotated, then both formats through
// `fairmines verify-history` (with the revealed pairs, so a round missing at either end would show).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { call, fairminesCli, rng, serviceForFile } from './helpers.js';
import { minesOf } from './game-helpers.js';

const svc = serviceForFile();

/** Plays one round: random reveals (some mines, some safe), then maybe a cash-out, maybe left in play. */
async function play(app, player, rand) {
  const mines = 1 + rand(24);
  // Most rounds staked: the export then carries stake, currency and payout, which verify-history checks.
  const wager = rand(4) === 0 ? {} : { stake: rand(1000000), currency: ['EUR', 'USDT'][rand(2)] };
  const { json: r } = await call(app, 'POST', `/v1/players/${player}/rounds`, { mines, rtp: ['0.99', '1', '97/100'][rand(3)],
    ...wager });
  const grid = await minesOf(svc.pool, r.round);
  const closed = Array.from({ length: 25 }, (_, i) => i + 1);
  let move = 0;
  for (;;) {
    const tile = closed.splice(rand(closed.length), 1)[0];
    const res = await call(app, 'POST', `/v1/players/${player}/rounds/${r.round}/reveal`, { tile, move: ++move });
    assert.equal(res.status, 200, res.body);
    if (res.json.finished) return 'finished';
    if (rand(3) === 0) {
      const paid = await call(app, 'POST', `/v1/players/${player}/rounds/${r.round}/cash-out`, { move: ++move });
      assert.equal(paid.status, 200, paid.body);
      return 'finished';
    }
    if (rand(8) === 0) return 'in_play';
    assert.ok(!grid.includes(tile));
  }
}

test('the export of random play passes fairmines verify-history with 0 failures, in JSON Lines and CSV', async () => {
  const rand = rng(Number(process.env.FAIRMINES_TEST_SEED ?? 20261204));
  const revealed = [];
  let rounds = 0;
  for (let p = 0; p < 6; p += 1) {
    const player = `auditee-${p}`;
    // Two pairs per player: one rotated while rounds are in play (voided), one after they all finished.
    for (let pair = 0; pair < 2; pair += 1) {
      for (let i = 0; i < 8; i += 1) {
        await play(svc.app, player, rand);
        rounds += 1;
      }
      if (pair === 0) {
        // A staked round surely in play at the rotation (random play leaves one there only now and then).
        const left = await call(svc.app, 'POST', `/v1/players/${player}/rounds`, { mines: 3, stake: 5000 + p, currency: 'EUR' });
        assert.equal(left.status, 201, left.body);
        rounds += 1;
      }
      const rot = await call(svc.app, 'POST', `/v1/players/${player}/rotate`, { void: true, clientSeed: `seed, "${p}-${pair}"` });
      assert.equal(rot.status, 200, rot.body);
      const { serverSeed, commitment, clientSeed, rounds: n } = rot.json.revealed;
      revealed.push({ server_seed: serverSeed, commitment, client_seed: clientSeed, rounds: n });
    }
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fairmines-history-'));
  try {
    // The service's list of revealed pairs is what the rotations revealed.
    const listed = await call(svc.app, 'GET', '/v1/history/revealed');
    assert.equal(listed.status, 200);
    assert.equal(listed.body, revealed.map((r) => `${JSON.stringify(r)}\n`).join(''));
    fs.writeFileSync(path.join(dir, 'revealed.jsonl'), listed.body);
    for (const format of ['jsonl', 'csv']) {
      const res = await call(svc.app, 'GET', `/v1/history?format=${format}`);
      assert.equal(res.status, 200);
      const file = path.join(dir, `history.${format}`);
      fs.writeFileSync(file, res.body);
      const out = execFileSync(fairminesCli(), ['verify-history', '--json', '--revealed', path.join(dir, 'revealed.jsonl'), file],
        { encoding: 'utf8' });
      const lines = out.trim().split('\n').map((l) => JSON.parse(l));
      const summary = lines.at(-1);
      assert.deepEqual(lines.slice(0, -1), [], `failures in ${format}`);
      assert.equal(summary.all_ok, true);
      assert.equal(summary.rows_read, rounds);
      assert.equal(summary.ok, rounds);
      assert.equal(summary.seed_pairs, 12);
      assert.equal(summary.missing_nonces, 0);
    }
    // The realised return of the staked rounds, as the audit reports it from the stakes and payouts.
    const rows = fs.readFileSync(path.join(dir, 'history.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const staked = rows.filter((x) => x.stake !== undefined);
    assert.ok(staked.length > rounds / 2 && staked.some((x) => x.outcome === 'voided' && x.payout === x.stake));
    assert.ok(staked.some((x) => x.outcome === 'cashed_out' && x.payout > x.stake));
    const audit = JSON.parse(execFileSync(fairminesCli(), ['audit', '--json', path.join(dir, 'history.jsonl')], { encoding: 'utf8' }));
    // The audit counts the rounds played out: voided ones returned the stake and are left out.
    const played = staked.filter((x) => x.outcome !== 'voided');
    const sum = (key) => played.reduce((acc, x) => acc + BigInt(x[key]), 0n);
    assert.equal(audit.payout.overall.staked_rounds, played.length);
    assert.equal(BigInt(audit.payout.overall.stake_total), sum('stake'));
    assert.equal(BigInt(audit.payout.overall.payout_total), sum('payout'));
    assert.equal(typeof audit.payout.overall.realised_return, 'number');
    assert.deepEqual(audit.payout.by_currency.map((g) => g.key).sort(), ['EUR', 'USDT']);
    // A tampered export is caught: the check is not vacuous.
    const jsonl = fs.readFileSync(path.join(dir, 'history.jsonl'), 'utf8').split('\n');
    const row = JSON.parse(jsonl[0]);
    row.positions = row.positions.map((t) => (t % 25) + 1);
    jsonl[0] = JSON.stringify(row);
    fs.writeFileSync(path.join(dir, 'tampered.jsonl'), jsonl.join('\n'));
    assert.throws(() => execFileSync(fairminesCli(), ['verify-history', path.join(dir, 'tampered.jsonl')], { stdio: 'pipe' }),
      { status: 1 });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
