// Writes from live pairs in batches (src/live-writes.js, migrations/007_write_batch.sql): each write of a
// batch is written only while its pair is at the version held and no other transaction holds it, the
// others of the batch whatever becomes of it; writes ready together go out together (in two batches at
// most at once); a batch that fails is written again write by write, so that a failure is only its own
// write's.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import { LiveWrites, batchStatement, writeText } from '../src/live-writes.js';
import { migrate } from '../src/migrate.js';
import { startDatabase } from './helpers.js';

let db;
let pool;
before(async () => {
  db = await startDatabase();
  pool = db.pool(4);
  await migrate(pool);
});
after(async () => { await db.close(); });

let players = 0;
/** A new player's pair with one staked round in play: `{ player, pair, version, round, commitment }`. */
async function pairWithRound() {
  const player = `lw-${(players += 1)}`;
  const commitment = `${player}-commitment`;
  await pool.query('INSERT INTO players (id) VALUES ($1)', [player]);
  const { rows: [{ id, version }] } = await pool.query(`INSERT INTO seed_pairs (player_id, commitment, client_seed, state)
    VALUES ($1, $2, 'client', '\\x00') RETURNING id, version`, [player, commitment]);
  const round = randomUUID();
  await pool.query(`INSERT INTO rounds (id, pair_id, player_id, commitment, nonce, mines, rtp, stake, currency)
    VALUES ($1, $2, $3, $4, 0, 3, '0.99', 500, 'EUR')`, [round, id, player, commitment]);
  return { player, pair: id, version, round, commitment };
}

const start = (p, state) => ({ pair: p.pair, version: p.version, state: Buffer.from(state), round: randomUUID(),
  player: p.player, commitment: p.commitment, nonce: 1n, mines: 5, rtp: '0.97', stake: 250, currency: 'EUR' });
const reveal = (p, state) => ({ pair: p.pair, version: p.version, state: Buffer.from(state), round: p.round, move: 1,
  kind: 'reveal', hash: 'reveal 7', answer: '{"tile":7}' });
const ending = (p, state) => ({ ...reveal(p, state), hash: 'cash_out', kind: 'cash_out', answer: '{"finished":true}',
  outcome: 'cashed_out', record: '{"r":1}', positions: [3, 9, 14], payout: 612 });

const pairRow = async (p) => (await pool.query('SELECT version, state FROM seed_pairs WHERE id = $1', [p.pair])).rows[0];
const movesOf = async (p) => (await pool.query('SELECT move, kind, body_hash, answer FROM moves WHERE round_id = $1', [p.round])).rows;

test('one batch: a new round, a move, a move that ends its round, a stale version and a pair held elsewhere', async () => {
  const [a, b, c, d, e] = [await pairWithRound(), await pairWithRound(), await pairWithRound(), await pairWithRound(),
    await pairWithRound()];
  const holder = await pool.connect();
  try {
    await holder.query('BEGIN');
    await holder.query('SELECT 1 FROM seed_pairs WHERE id = $1 FOR NO KEY UPDATE', [e.pair]);
    const stale = { ...reveal(d, 'd'), version: String(Number(d.version) + 1) };
    const writes = [start(a, 'a'), reveal(b, 'b'), ending(c, 'c'), stale, reveal(e, 'e')];
    const { rows: [{ versions }] } = await pool.query(batchStatement(writes));
    const next = String(Number(a.version) + 1);
    assert.deepEqual(versions, [next, next, next, null, null]);
  } finally {
    await holder.query('ROLLBACK');
    holder.release();
  }
  assert.deepEqual(await pairRow(a), { version: String(Number(a.version) + 1), state: Buffer.from('a') });
  const { rows: [r] } = await pool.query('SELECT nonce, mines, rtp, stake, currency, status FROM rounds WHERE pair_id = $1 AND nonce = 1', [a.pair]);
  assert.deepEqual(r, { nonce: '1', mines: 5, rtp: '0.97', stake: '250', currency: 'EUR', status: 'in_play' });
  assert.deepEqual(await movesOf(b), [{ move: 1, kind: 'reveal', body_hash: 'reveal 7', answer: '{"tile":7}' }]);
  const { rows: [ended] } = await pool.query('SELECT status, record, positions, payout, finished_at IS NOT NULL AS done FROM rounds WHERE id = $1', [c.round]);
  assert.deepEqual(ended, { status: 'cashed_out', record: '{"r":1}', positions: [3, 9, 14], payout: '612', done: true });
  for (const untouched of [d, e]) {
    assert.deepEqual(await pairRow(untouched), { version: untouched.version, state: Buffer.from([0]) });
    assert.deepEqual(await movesOf(untouched), []);
  }
});

test('a write as text with literals does what the prepared batch does', async () => {
  for (const make of [start, reveal, ending]) {
    const [x, y] = [await pairWithRound(), await pairWithRound()];
    const { rows: [{ version }] } = await pool.query(writeText(make(x, "it's \\ x")));
    const { rows: [{ versions: [prepared] }] } = await pool.query(batchStatement([make(y, "it's \\ x")]));
    assert.equal(version, prepared);
    assert.deepEqual((await pairRow(x)).state, (await pairRow(y)).state);
    assert.deepEqual((await movesOf(x)).map(({ answer }) => answer), (await movesOf(y)).map(({ answer }) => answer));
  }
});

test('writes ready together go out in one batch; a failing batch is written again write by write', async () => {
  const queries = [];
  const counting = {
    async connect() {
      const client = await pool.connect();
      return { query: (q) => { queries.push(q.values[0].length); return client.query(q); }, release: (e) => client.release(e) };
    },
  };
  const writes = new LiveWrites(counting);
  const pairs = [];
  for (let i = 0; i < 6; i += 1) pairs.push(await pairWithRound());
  const versions = await Promise.all(pairs.map((p) => writes.write(reveal(p, 'x'))));
  assert.deepEqual(versions, pairs.map((p) => String(Number(p.version) + 1)));
  // The first goes out alone; the five that came while it was at PostgreSQL, together.
  assert.deepEqual(queries, [1, 5]);
  // Eight waiting go out beside the batch at PostgreSQL; the two after them wait for one to come back.
  queries.length = 0;
  for (let i = 0; i < 11; i += 1) pairs.push(await pairWithRound());
  await Promise.all(pairs.slice(6).map((p) => writes.write(reveal(p, 'x'))));
  assert.deepEqual(queries, [1, 8, 2]);

  // Move 1 of a round stored already: that write fails (a unique violation), the others are written.
  queries.length = 0;
  const [ok1, bad, ok2] = [await pairWithRound(), await pairWithRound(), await pairWithRound()];
  await pool.query(`INSERT INTO moves (round_id, move, kind, body_hash, answer) VALUES ($1, 1, 'reveal', 'reveal 1', '{}')`, [bad.round]);
  const first = writes.write(reveal(await pairWithRound(), 'y'));
  const results = await Promise.allSettled([ok1, bad, ok2].map((p) => writes.write(reveal(p, 'z'))));
  await first;
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
  assert.equal(results[1].reason.code, '23505');
  assert.deepEqual(queries, [1, 3, 1, 1, 1]);
  assert.deepEqual((await movesOf(ok1)).length, 1);
  assert.deepEqual(await pairRow(bad), { version: bad.version, state: Buffer.from([0]) });
});
