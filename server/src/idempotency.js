// Idempotency-Key for the writes that have no move number (a round start, a rotation), as payment APIs do
// it: the key, scoped by route and player, is stored with the hash of the request's body and the answer,
// in the transaction of the request itself (a crash cannot keep one without the other). The same key with
// the same body gets the stored answer; with another body, 422. Only answers that were sent are stored: a
// refused request stores nothing, so its retry is judged afresh. Keys are kept at least KEEP_HOURS.
import { createHash } from 'node:crypto';
import { ApiError } from './errors.js';
import { sql } from './sql.js';

export const KEEP_HOURS = 24;
// Printable ASCII, no space: a UUID or any client-made token fits.
export const KEY_SCHEMA = { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' };

/** JSON with the keys of every object sorted: one text per body, whatever the order or spacing it came in. */
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** The request's key and body hash (`{ key, hash }`), or null when it sent no Idempotency-Key. */
export function idempotencyOf(req) {
  const key = req.headers['idempotency-key'];
  if (key === undefined) return null;
  return { key, hash: createHash('sha256').update(canonical(req.body ?? {})).digest('hex') };
}

/**
 * The stored answer of `idem` for `route` and `player` (`{ answer, replay: true }`), null when the key is
 * new; 422 when it was used with another body. Run first in the request's transaction.
 */
export async function storedAnswer(t, route, player, idem) {
  const { rows: [r] } = await t.query(sql`SELECT body_hash, answer FROM idempotency_keys
    WHERE route = ${route} AND player_id = ${player} AND key = ${idem.key}`);
  if (!r) return null;
  if (r.body_hash !== idem.hash) {
    throw new ApiError(422, 'FAIRMINES_IDEMPOTENCY_KEY_REUSED',
      'idempotency-key: this key was used already with another body (use a new key for a new request)', 'idempotency-key');
  }
  return { answer: JSON.parse(r.answer), replay: true };
}

/** The statement that stores `answer` under `idem`: sent with the request's COMMIT. */
export function storeAnswer(route, player, idem, status, answer) {
  return sql`INSERT INTO idempotency_keys (route, player_id, key, body_hash, status, answer)
    VALUES (${route}, ${player}, ${idem.key}, ${idem.hash}, ${status}, ${JSON.stringify(answer)})`;
}

/**
 * Runs `run()` (a transaction that looks the key up first); when a concurrent request with the same key
 * committed first (its row makes this commit fail), once more: then it finds that request's answer.
 */
export async function once(idem, run) {
  try {
    return await run();
  } catch (err) {
    if (idem && err.code === '23505' && err.constraint === 'idempotency_keys_pkey') return run();
    throw err;
  }
}

/** Deletes keys older than KEEP_HOURS, a batch at a time, at most `maxBatches`; how many were deleted. */
export async function deleteExpired(pool, { batch = 1000, maxBatches = 100 } = {}) {
  let deleted = 0;
  for (let i = 0; i < maxBatches; i += 1) {
    const { rowCount } = await pool.query(`DELETE FROM idempotency_keys WHERE ctid IN (SELECT ctid FROM idempotency_keys
      WHERE created_at < now() - make_interval(hours => $1) LIMIT $2)`, [KEEP_HOURS, batch]);
    deleted += rowCount;
    if (rowCount < batch) break;
  }
  return deleted;
}

/** `deleteExpired` every `everyMs` (and once at start); failures are logged and tried again next time. */
export function startCleanup(pool, log, everyMs = 10 * 60_000) {
  let running = null;
  const tick = () => {
    running ??= deleteExpired(pool)
      .then((n) => { if (n > 0) log(`deleted ${n} idempotency keys older than ${KEEP_HOURS} h`); })
      .catch((err) => log(`deleting old idempotency keys failed (tried again later): ${err.message}`))
      .finally(() => { running = null; });
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
