// The export an auditor reads: every finished round of every revealed pair, in the format
// `fairmines verify-history` checks, and the revealed pairs. Both filter by player and by time, and page with
// an opaque cursor in a stable order (keyset: pair and nonce; pair id), so pages concatenate to the whole
// export whatever is written meanwhile. Without a limit, everything after the cursor is streamed.
import { decodeCursor, encodeCursor } from './cursor.js';

/** Rows read from PostgreSQL at a time while streaming: the export holds one batch in memory. */
const BATCH = 1000;

// Keys as the cursor held them; at most 18 digits, so that every one is a bigint PostgreSQL reads.
const ID = /^(0|[1-9][0-9]{0,17})$/;
const NONCE = /^(-1|0|[1-9][0-9]{0,17})$/;

/**
 * The WHERE clause and values of the filters shared by both exports (`at` is the time column filtered;
 * `since` and `until` are `{ seconds, micros }` since 1970: exact in interval arithmetic at any year).
 */
function filters({ player, since, until }, at, values) {
  const where = [];
  const instant = ({ seconds, micros }) => `('epoch'::timestamptz + $${values.push(seconds)}::bigint * interval '1 second'
    + $${values.push(micros)}::bigint * interval '1 microsecond')`;
  if (player !== undefined) where.push(`p.player_id = $${values.push(player)}`);
  if (since !== undefined) where.push(`${at} >= ${instant(since)}`);
  if (until !== undefined) where.push(`${at} < ${instant(until)}`);
  return where;
}

/** One history row in the format verify-history reads (the wager fields only where the round has a stake). */
function historyRow(r) {
  const record = JSON.parse(r.record);
  const row = { round_id: r.id, server_seed: r.server_seed, commitment: r.commitment, client_seed: r.client_seed,
    nonce: Number(r.nonce), mines: r.mines, positions: r.positions, rtp: record.rtp, picks: record.picks,
    outcome: record.outcome, multiplier: record.multiplier };
  if (r.stake !== null) Object.assign(row, { stake: Number(r.stake), currency: r.currency, payout: Number(r.payout) });
  row.player = r.player_id;
  return row;
}

/** The cursor of the page after a page of `limit` rows, when there is one: the last item an export yields. */
export class Next {
  constructor(cursor) {
    this.cursor = cursor;
  }
}

/**
 * Pages of a keyset query: `page(after, n)` reads up to `n` rows after the key `after`; `key(row)` is a
 * row's key. With `limit`, `limit` rows at most, then a `Next` when more follow; without, every row after
 * `after`, streamed in batches.
 */
async function* keyset(page, key, after, limit) {
  let left = limit ?? Infinity;
  for (;;) {
    const want = Math.min(BATCH, left);
    // One row more than asked tells whether more follow.
    const rows = await page(after, want + 1);
    const taken = rows.slice(0, want);
    for (const r of taken) yield r;
    if (rows.length <= want) return;
    after = key(taken[taken.length - 1]);
    left -= want;
    if (left === 0) {
      yield new Next(encodeCursor(...after));
      return;
    }
  }
}

export class History {
  constructor(pool) {
    this.pool = pool;
  }

  /**
   * Every finished round of every revealed pair (a revealed pair has no round in play), in pair and nonce
   * order, filtered by `player` and the round's finished time (`since` inclusive, `until` exclusive), after
   * `cursor`; `limit` rows at most. Yields rows, then `{ next }` when a page of `limit` has more after it.
   */
  rows({ player, since, until, cursor, limit }) {
    const after = cursor === undefined ? ['0', '-1'] : decodeCursor(cursor, [ID, NONCE]);
    const page = async ([pair, nonce], n) => {
      const values = [pair, nonce];
      const where = ['p.revealed_at IS NOT NULL', '(r.pair_id, r.nonce) > ($1::bigint, $2::bigint)',
        ...filters({ player, since, until }, 'r.finished_at', values)];
      const { rows } = await this.pool.query(
        `SELECT r.id, r.pair_id, r.nonce, r.mines, r.record, r.positions, r.stake, r.currency, r.payout, r.player_id,
                p.server_seed, p.commitment, p.client_seed
           FROM rounds r JOIN seed_pairs p ON p.id = r.pair_id
          WHERE ${where.join(' AND ')} ORDER BY r.pair_id, r.nonce LIMIT ${n}`, values);
      return rows;
    };
    return mapRows(keyset(page, (r) => [r.pair_id, r.nonce], after, limit), historyRow);
  }

  /**
   * Every revealed pair as rotation revealed it (what `fairmines verify-history --revealed` reads), by pair
   * id, filtered by `player` and the time it was revealed, after `cursor`, `limit` at most.
   */
  revealedPairs({ player, since, until, cursor, limit }) {
    const after = cursor === undefined ? ['0'] : decodeCursor(cursor, [ID]);
    const page = async ([id], n) => {
      const values = [id];
      const where = ['p.revealed_at IS NOT NULL', 'p.id > $1::bigint',
        ...filters({ player, since, until }, 'p.revealed_at', values)];
      const { rows } = await this.pool.query(
        `SELECT p.id, p.server_seed, p.commitment, p.client_seed, p.rounds FROM seed_pairs p
          WHERE ${where.join(' AND ')} ORDER BY p.id LIMIT ${n}`, values);
      return rows;
    };
    return mapRows(keyset(page, (r) => [r.id], after, limit), (r) => ({ server_seed: r.server_seed,
      commitment: r.commitment, client_seed: r.client_seed, rounds: Number(r.rounds) }));
  }
}

async function* mapRows(rows, fn) {
  for await (const r of rows) yield r instanceof Next ? r : fn(r);
}
