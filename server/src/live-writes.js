// Writes from live pairs (live-pairs.js), written together: a write goes out at once when no batch is at
// PostgreSQL; otherwise it waits, and goes out with every write that waited meanwhile in one statement
// (migrations/007_write_batch.sql), one round trip and one commit for the lot (a group commit), when that
// batch comes back, or beside it once SECOND_BATCH_AT writes wait. Alone, a write takes as long as before;
// under load, PostgreSQL and the service spend their per-statement and per-commit work once a batch instead
// of once a move. Each write's caller gets its pair's new version (or null: another writer came first or
// holds the pair, nothing of it written) once the batch is committed. A batch never waits for a lock, so it
// cannot wait on another one.
import { literal } from './sql.js';

// Writes in one batch at most: its statement's size and its locks' time stay bounded.
const MAX_BATCH = 64;
// A second batch beside the one at PostgreSQL, once this many writes wait (never more than two at once).
// Measured on 2 cores (bench.js, 10 s runs, three pairs, moves/s at 16 / 128 connections on average): one
// batch at a time 3,448 / 4,482; a second once 8 wait 3,601 / 5,168; a second at once 2,949 at 16, three 2,616.
const SECOND_BATCH_AT = 8;

// fairmines_write_batch's parameters, each an array with one element a write: a write's field and its type.
const COLUMNS = [['pair', 'bigint'], ['version', 'bigint'], ['state', 'bytea'], ['round', 'uuid'],
  ['player', 'text'], ['commitment', 'text'], ['nonce', 'bigint'], ['mines', 'smallint'], ['rtp', 'text'],
  ['stake', 'bigint'], ['currency', 'text'], ['move', 'integer'], ['kind', 'text'], ['hash', 'text'],
  ['answer', 'text'], ['outcome', 'text'], ['record', 'text'], ['positions', 'text'], ['payout', 'bigint']];

const STATEMENT = `SELECT fairmines_write_batch(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) AS versions`;

/**
 * A write of a new round: `pair` (id), `version` (held), `state` (sealed), `round` (id), `player`,
 * `commitment`, `nonce`, `mines`, `rtp`, `stake`, `currency`; or of a move: `pair`, `version`, `state`,
 * `round`, `move`, `kind`, `hash`, `answer`, and when it ends the round `outcome`, `record`, `positions`
 * (the mines) and `payout`. Absent fields are NULL.
 */
const column = (writes, field) => writes.map((w) => {
  const v = w[field] ?? null;
  return field === 'positions' && v !== null ? `{${v.join(',')}}` : v;
});

/** The batch of `writes` as a prepared statement with parameters (parsed and planned once a connection). */
export function batchStatement(writes) {
  return { name: 'fairmines_write_batch', text: STATEMENT, values: COLUMNS.map(([field]) => column(writes, field)) };
}

/** `write` alone as a statement's text with literals, to go in a transaction's message: its new version. */
export function writeText(write) {
  const args = COLUMNS.map(([field, type]) => `${literal(column([write], field))}::${type}[]`);
  return `SELECT (fairmines_write_batch(${args.join(', ')}))[1] AS version`;
}

export class LiveWrites {
  /** `onWritten(result)` for each write: `written` or `superseded` (metrics). */
  constructor(pool, onWritten = () => {}) {
    this.pool = pool;
    this.onWritten = onWritten;
    this.waiting = [];
    this.inFlight = 0;
  }

  /** Writes `write` (see `column`) with the others ready: its pair's new version, or null when superseded. */
  write(write) {
    return new Promise((resolve, reject) => {
      this.waiting.push({ write, resolve, reject });
      this.pump();
    });
  }

  /** Sends the writes that wait, as many batches as may go now. */
  pump() {
    while (this.waiting.length > 0
      && (this.inFlight === 0 || (this.inFlight === 1 && this.waiting.length >= SECOND_BATCH_AT))) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      this.inFlight += 1;
      this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.pump();
      });
    }
  }

  async run(batch) {
    let client;
    try {
      client = await this.pool.connect();
    } catch (err) {
      batch.forEach((b) => b.reject(err));
      return;
    }
    let failure = await this.attempt(client, batch);
    if (failure && batch.length > 1) {
      // Nothing of the batch was written: each write alone, so that one write's failure is its own. On this
      // connection, which takes them only once the batch's transaction has ended: node-postgres reports an
      // error before PostgreSQL has let go of the batch's pairs, which another connection would find held.
      failure = null;
      for (const b of batch) {
        const err = await this.attempt(client, [b]);
        if (err) b.reject((failure = err));
      }
    } else if (failure) {
      batch[0].reject(failure);
    }
    // A connection that saw an error may be broken (PostgreSQL restarted): dropped, not pooled again.
    client.release(failure ?? undefined);
  }

  /** `batch` written on `client`, each write resolved: null; or the error, nothing written or resolved. */
  async attempt(client, batch) {
    let versions;
    try {
      ({ rows: [{ versions }] } = await client.query(batchStatement(batch.map((b) => b.write))));
    } catch (err) {
      return err;
    }
    // Versions as node-postgres reads a bigint (a string), as the locked path reads them.
    batch.forEach((b, i) => {
      this.onWritten(versions[i] === null ? 'superseded' : 'written');
      b.resolve(versions[i]);
    });
    return null;
  }
}
