// The literals `sql` writes into statement text: each value comes back from PostgreSQL as it went in, and
// a value with no literal is refused rather than written.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { literal, sql, transaction } from '../src/sql.js';
import { startDatabase } from './helpers.js';

let db;
before(async () => { db = await startDatabase(); });
after(async () => { await db.close(); });

test('strings with quotes, backslashes and any Unicode; bytes; integers; arrays; NULL: read back unchanged', async () => {
  const pool = db.pool();
  const strings = ["it's", 'back\\slash\\', "\\'; DROP TABLE x; --", 'e\u0301\u{1F600}', '$1 $$ $tag$', '', 'new\nline'];
  for (const s of strings) {
    const { rows: [r] } = await pool.query(sql`SELECT ${s}::text AS v`);
    assert.equal(r.v, s);
  }
  const bytes = Buffer.from([0, 1, 0x27, 0x5c, 0xff]);
  const { rows: [r] } = await pool.query(sql`SELECT ${bytes} AS b, ${2n ** 63n - 1n}::bigint AS n, ${-7} AS i,
    ${[3, 1, 25]}::smallint[] AS a, ${null}::text AS z, ${true} AS t`);
  assert.deepEqual(r, { b: bytes, n: '9223372036854775807', i: -7, a: [3, 1, 25], z: null, t: true });
});

test('no literal for fractions, non-finite numbers or objects', () => {
  for (const v of [1.5, Number.NaN, Infinity, 2 ** 53, {}, Symbol('x')]) assert.throws(() => literal(v), TypeError);
});

test('a transaction commits with its last statement, and rolls back what it wrote when it throws', async () => {
  const pool = db.pool();
  await pool.query('CREATE TABLE sql_t (n int PRIMARY KEY)');
  await transaction(pool, async (t) => {
    await t.query(sql`INSERT INTO sql_t VALUES (${1})`);
    await t.commitWith(sql`INSERT INTO sql_t VALUES (${2}); INSERT INTO sql_t VALUES (${3})`);
  });
  await assert.rejects(transaction(pool, async (t) => {
    await t.query(sql`INSERT INTO sql_t VALUES (${4})`);
    throw new Error('refused');
  }), /refused/);
  // A failing statement in the commit's message: nothing of the transaction stays, the connection is reusable.
  await assert.rejects(transaction(pool, async (t) => {
    await t.query(sql`INSERT INTO sql_t VALUES (${5})`);
    await t.commitWith(sql`INSERT INTO sql_t VALUES (${1})`);
  }), { code: '23505' });
  const read = await transaction(pool, async (t) => (await t.query('SELECT array_agg(n ORDER BY n) AS ns FROM sql_t')).rows[0].ns);
  assert.deepEqual(read, [1, 2, 3]);
});
