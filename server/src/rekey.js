// `fairmines-server rekey`: every active seed pair's state re-sealed under the current state key (the first
// of FAIRMINES_STATE_KEY), online. Batches of pairs in id order, each batch one UPDATE that writes a row only
// when its state is still the one read (a move written meanwhile wins, and sealed it under its process's
// current key); the row lock of that UPDATE orders it with the moves. Nothing is remembered between runs:
// a run stopped anywhere is resumed by running it again, which skips what is already current.
import pg from 'pg';
import { loadConfig } from './config.js';
import { settingsDatabase } from './embedded-pg.js';
import { StateKeys, checkStateKeys } from './keys.js';
import { migrate } from './migrate.js';
import { sql } from './sql.js';

const BATCH = 200;
// Passes over the table: pairs whose state changed between the read and the write are tried again.
const PASSES = 3;

/** The active pairs by the key that sealed them: `{ id: count }`, `v1` for states that predate key ids. */
export async function pairsByKey(pool) {
  const { rows } = await pool.query(`SELECT CASE WHEN get_byte(state, 0) = 2
      THEN encode(substring(state FROM 2 FOR 8), 'hex') ELSE 'v1' END AS id, count(*)::int AS n
    FROM seed_pairs WHERE revealed_at IS NULL GROUP BY 1 ORDER BY 1`);
  return Object.fromEntries(rows.map((r) => [r.id, r.n]));
}

/**
 * One pass: every active pair not sealed under the current key, re-sealed. `{ resealed, changed, unopened }`:
 * pairs written, pairs whose state changed under it (left for the next pass), pairs no key here opens.
 */
async function pass(pool, keys, log, batch) {
  const out = { resealed: 0, changed: 0, unopened: 0 };
  let after = 0;
  for (;;) {
    const { rows } = await pool.query(sql`SELECT id, commitment, state FROM seed_pairs
      WHERE revealed_at IS NULL AND id > ${after} AND substring(state FROM 1 FOR 9) <> ${keys.header}
      ORDER BY id LIMIT ${batch}`);
    if (rows.length === 0) return out;
    after = rows[rows.length - 1].id;
    const values = [];
    for (const r of rows) {
      let plain;
      try {
        plain = keys.open(r.state, r.commitment);
      } catch {
        out.unopened += 1;
        continue;
      }
      values.push(sql`(${BigInt(r.id)}, ${r.state}, ${keys.seal(plain, r.commitment)})`);
    }
    if (values.length > 0) {
      const { rowCount } = await pool.query(`UPDATE seed_pairs p SET state = v.sealed
        FROM (VALUES ${values.join(', ')}) AS v (id, read, sealed)
        WHERE p.id = v.id AND p.state = v.read AND p.revealed_at IS NULL`);
      out.resealed += rowCount;
      out.changed += values.length - rowCount;
    }
    log(`re-sealed ${out.resealed} pairs so far (up to pair ${after})`);
  }
}

/**
 * Re-seals every active pair under `keys`' current key; the counts left under each other key (`left`),
 * and how many were re-sealed.
 */
export async function rekey(pool, keys, log = () => {}, batch = BATCH) {
  let resealed = 0;
  let last = null;
  for (let i = 0; i < PASSES; i += 1) {
    last = await pass(pool, keys, log, batch);
    resealed += last.resealed;
    if (last.changed === 0) break;
  }
  const left = await pairsByKey(pool);
  delete left[keys.current.id];
  return { resealed, left, unopened: last.unopened };
}

/** The command: settings as the service reads them; exit status 0 when no pair is left under another key. */
export async function main(env = process.env) {
  const say = (msg) => process.stderr.write(`fairmines-server rekey: ${msg}\n`);
  const cfg = loadConfig(env, say);
  const { url, stop: stopDatabase } = await settingsDatabase(cfg, say);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', (err) => say(`database connection lost: ${err.message}`));
  try {
    await migrate(pool, say);
    const keys = new StateKeys(cfg.stateKeys);
    await checkStateKeys(pool, keys);
    say(`re-sealing every active seed pair under ${keys.current.id}`);
    const { resealed, left, unopened } = await rekey(pool, keys, say);
    const rest = Object.entries(left);
    say(`re-sealed ${resealed} pairs; left under other keys: ${rest.length === 0 ? 'none'
      : rest.map(([id, n]) => `${id}: ${n}`).join(', ')}${unopened ? ` (${unopened} that these keys do not open)` : ''}`);
    return rest.length === 0 ? 0 : 1;
  } finally {
    await pool.end();
    await stopDatabase();
  }
}
