// Rounds belong to their player (another player's round is not found), stakes and the core's payouts, and
// the listing of a player's rounds page by page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, serviceForFile } from './helpers.js';
import { minesOf, tiles } from './game-helpers.js';

let app;
const svc = serviceForFile((s) => { app = s.app; });

const start = (player, body) => call(app, 'POST', `/v1/players/${player}/rounds`, body);
const move = (player, round, what, body) => call(app, 'POST', `/v1/players/${player}/rounds/${round}/${what}`, body);
const error = (res, status, code, argument) => {
  assert.equal(res.status, status, res.body);
  assert.deepEqual(Object.keys(res.json.error), ['code', 'message', 'argument']);
  assert.equal(res.json.error.code, code, res.body);
  if (argument !== undefined) assert.equal(res.json.error.argument, argument, res.body);
};

describe('rounds belong to their player', () => {
  test("another player's round is 404 for every route, as an unknown one, and nothing moves", async () => {
    const { json: r } = await start('owner', { mines: 3 });
    const { safe } = tiles(await minesOf(svc.pool, r.round));
    await start('intruder', { mines: 3 });
    error(await move('intruder', r.round, 'reveal', { tile: safe[0], move: 1 }), 404, 'FAIRMINES_ROUND_NOT_FOUND', 'round');
    error(await move('intruder', r.round, 'cash-out', { move: 1 }), 404, 'FAIRMINES_ROUND_NOT_FOUND', 'round');
    error(await call(app, 'GET', `/v1/players/intruder/rounds/${r.round}`), 404, 'FAIRMINES_ROUND_NOT_FOUND', 'round');
    error(await call(app, 'GET', `/v1/players/ghost/rounds/${r.round}`), 404, 'FAIRMINES_ROUND_NOT_FOUND', 'round');
    // The owner's move 1 is still free.
    const own = await move('owner', r.round, 'reveal', { tile: safe[0], move: 1 });
    assert.equal(own.status, 200, own.body);
    assert.equal((await call(app, 'GET', `/v1/players/owner/rounds/${r.round}`)).json.moves, 1);
  });
});

describe('stakes and payouts', () => {
  test('a cash-out pays floor(stake × exact multiplier); the answer, the round and its row carry it', async () => {
    const { json: r } = await start('staker', { mines: 1, rtp: '0.99', stake: 3199, currency: 'EUR' });
    assert.deepEqual([r.stake, r.currency], [3199, 'EUR']);
    const { safe } = tiles(await minesOf(svc.pool, r.round));
    await move('staker', r.round, 'reveal', { tile: safe[0], move: 1 });
    const paid = await move('staker', r.round, 'cash-out', { move: 2 });
    assert.equal(paid.status, 200, paid.body);
    // One mine, one safe pick at 0.99: 25/24 × 99/100 = 33/32; 3199 × 33/32 = 3298.96…
    assert.equal(paid.json.multiplier, '33/32');
    assert.equal(paid.json.payout, 3298);
    const got = (await call(app, 'GET', `/v1/players/staker/rounds/${r.round}`)).json;
    assert.deepEqual([got.stake, got.currency, got.payout], [3199, 'EUR', 3298]);
    const { rows: [row] } = await svc.pool.query('SELECT stake, currency, payout FROM rounds WHERE id = $1', [r.round]);
    assert.deepEqual(row, { stake: '3199', currency: 'EUR', payout: '3298' });
  });

  test('a lost round pays 0, a voided one the stake back; a round without a stake has no payout', async () => {
    const { json: lost } = await start('loser', { mines: 2, stake: 500, currency: 'USDT' });
    const { mine } = tiles(await minesOf(svc.pool, lost.round));
    const res = await move('loser', lost.round, 'reveal', { tile: mine, move: 1 });
    assert.deepEqual([res.json.outcome, res.json.payout], ['lost', 0]);
    const { json: kept } = await start('loser', { mines: 2, stake: 9007199254740991 / 25 | 0, currency: 'BTC' });
    const { json: free } = await start('loser', { mines: 2 });
    const rot = await call(app, 'POST', '/v1/players/loser/rotate', { void: true });
    assert.equal(rot.status, 200, rot.body);
    const voided = (await call(app, 'GET', `/v1/players/loser/rounds/${kept.round}`)).json;
    assert.deepEqual([voided.status, voided.payout], ['voided', kept.stake]);
    const none = (await call(app, 'GET', `/v1/players/loser/rounds/${free.round}`)).json;
    assert.deepEqual([none.status, none.stake, none.currency, none.payout], ['voided', null, null, null]);
  });

  test('the largest stake is 2^53 − 1, and only while the round can pay it in full', async () => {
    const most = 9007199254740991;
    // 1 mine at 0.99 pays at most 25 × 0.99 = 24.75 times the stake: the core refuses what it could not pay.
    const big = await start('whale', { mines: 1, stake: most, currency: 'EUR' });
    error(big, 400, 'FAIRMINES_INVALID_NUMBER', 'stake');
    assert.match(big.json.error.message, /^stake: .*above the largest payout, 9007199254740991/);
    const fits = await start('whale', { mines: 1, stake: Math.floor(most * 100 / 2475) - 1, currency: 'EUR' });
    assert.equal(fits.status, 201, fits.body);
  });

  test('fractions, negatives, strings, a stake without a currency and bad currencies are 400 naming the field', async () => {
    for (const stake of [2.5, -1, 9007199254740992, 1e300]) {
      const res = await start('picky', { mines: 3, stake, currency: 'EUR' });
      error(res, 400, 'FAIRMINES_INVALID_NUMBER', 'stake');
      assert.match(res.json.error.message, /^stake: must be a whole number of minor units from 0 to 9007199254740991/);
    }
    error(await start('picky', { mines: 3, stake: '100', currency: 'EUR' }), 400, 'FAIRMINES_INVALID_REQUEST', 'stake');
    error(await start('picky', { mines: 3, stake: null, currency: 'EUR' }), 400, 'FAIRMINES_INVALID_REQUEST', 'stake');
    error(await start('picky', { mines: 3, stake: 100 }), 400, 'FAIRMINES_INVALID_REQUEST', 'currency');
    error(await start('picky', { mines: 3, currency: 'EUR' }), 400, 'FAIRMINES_INVALID_REQUEST', 'stake');
    for (const currency of ['eur', 'EU', 'E'.repeat(13), 'EUR ', 7]) {
      error(await start('picky', { mines: 3, stake: 1, currency }), 400, 'FAIRMINES_INVALID_REQUEST', 'currency');
    }
    // Nothing was made for any of them.
    error(await call(app, 'GET', '/v1/players/picky/seeds'), 404, 'FAIRMINES_PLAYER_NOT_FOUND', 'player');
  });
});

describe('GET /v1/players/:player/rounds', () => {
  test('newest first, filtered by status, page by page with a cursor that holds while rounds are added', async () => {
    const made = [];
    for (let i = 0; i < 7; i += 1) made.push((await start('lister', { mines: 24, stake: i, currency: 'EUR' })).json.round);
    // Finish the first three (24 mines: the first reveal ends the round).
    for (const round of made.slice(0, 3)) await move('lister', round, 'reveal', { tile: 1, move: 1 });
    const pages = [];
    let cursor = null;
    for (let n = 0; n < 10; n += 1) {
      const res = await call(app, 'GET', `/v1/players/lister/rounds?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(res.status, 200, res.body);
      pages.push(res.json.rounds);
      // A round added meanwhile is newer than every page: it never shifts the next one.
      if (n === 0) await start('lister', { mines: 24 });
      cursor = res.json.next;
      if (cursor === null) break;
    }
    assert.deepEqual(pages.map((p) => p.length), [3, 3, 1]);
    assert.deepEqual(pages.flat().map((x) => x.round), [...made].reverse());
    const first = pages[0][0];
    assert.deepEqual(Object.keys(first).sort(), ['createdAt', 'currency', 'finishedAt', 'mines', 'nonce', 'payout', 'round',
      'rtp', 'stake', 'status']);
    assert.deepEqual([first.stake, first.status, first.payout, first.finishedAt], [6, 'in_play', null, null]);
    const finished = (await call(app, 'GET', '/v1/players/lister/rounds?status=finished')).json;
    assert.deepEqual(finished.rounds.map((x) => x.round), made.slice(0, 3).reverse());
    assert.equal(finished.next, null);
    const inPlay = (await call(app, 'GET', '/v1/players/lister/rounds?status=in_play&limit=100')).json.rounds;
    assert.equal(inPlay.length, 5);
    error(await call(app, 'GET', '/v1/players/lister/rounds?limit=1001'), 400, 'FAIRMINES_INVALID_REQUEST', 'limit');
    error(await call(app, 'GET', '/v1/players/lister/rounds?limit=0'), 400, 'FAIRMINES_INVALID_REQUEST', 'limit');
    // Cursors that are not this listing's: never passed on to PostgreSQL (an overflow there would be a 500).
    for (const forged of ['nope', `99999999999999999999.${made[0]}`, `1.${'-'.repeat(36)}`, `1.${made[0]}.x`]) {
      const cursor = Buffer.from(forged).toString('base64url');
      error(await call(app, 'GET', `/v1/players/lister/rounds?cursor=${cursor}`), 400, 'FAIRMINES_INVALID_REQUEST', 'cursor');
    }
    error(await call(app, 'GET', '/v1/players/lister/rounds?status=lost'), 400, 'FAIRMINES_INVALID_REQUEST', 'status');
    error(await call(app, 'GET', '/v1/players/nobody-here/rounds'), 404, 'FAIRMINES_PLAYER_NOT_FOUND', 'player');
  });
});
