// The database as the service sees it: PostgreSQL may go away (a restart, a failover, a crash) and come
// back at any moment. No failure of it ends the process: every connection error is handled, a request that
// meets one gets 503 FAIRMINES_UNAVAILABLE (retry), and the pool connects again on the next request once
// PostgreSQL accepts connections. Migrations are retried with a capped backoff until the database answers,
// so that a process may start before its database.
import pg from 'pg';
import { migrate, migrationFiles } from './migrate.js';

// SQLSTATEs that say the server is not there (now): the connection exceptions (class 08), and operator
// intervention: 57P01 terminated by a shutdown, 57P02 by a crash of another backend, 57P03 cannot connect
// now (starting up, shutting down, in recovery); 53300: no connection slot free.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
// Errors of the socket under a connection.
const UNAVAILABLE_SYSCALLS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT',
  'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// node-postgres' own words for a connection that ended or never came (they carry no code).
const UNAVAILABLE_MESSAGES = /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end|the database system is|terminating connection/i;

/** Whether `err` (or an error it wraps) says the database is unreachable rather than that something is wrong. */
export function isUnavailable(err) {
  for (let e = err, depth = 0; e && depth < 5; e = e.cause, depth += 1) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNAVAILABLE_SQLSTATES.has(code) || code.startsWith('08') || UNAVAILABLE_SYSCALLS.has(code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    if (Array.isArray(e.errors) && e.errors.some(isUnavailable)) return true; // AggregateError (IPv4 and IPv6)
  }
  return false;
}

/** A short description of a database error for the log: its code and message (neither holds a password). */
function describe(err) {
  const e = err?.cause && !err.code ? err.cause : err;
  return [e?.code, e?.message || String(e)].filter(Boolean).join(' ');
}

// Waiting for a connection (a new one, or a free one of the pool) longer than this is a 503, not a hang.
const CONNECT_TIMEOUT_MS = 5000;
// The retries of a start while the database is down: 100 ms, doubling, at most 1 s apart, so a process
// is ready within about a second of the database.
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 1000;

let KNOWN = null;

/** A node-postgres pool whose connections' errors never end the process (see Database). */
export function createPool(url, size) {
  return new pg.Pool({ connectionString: url, max: size, connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true });
}

/**
 * The pool, whether the schema is migrated (`ready`), and whether the database was seen answering last
 * (`up`, for the log and /metrics). The log says when the database goes away and when it is back, once each.
 */
export class Database {
  /**
   * `prepare`: run after the migrations and before `ready` (the check of the state keys). What it throws
   * ends the attempts, unless it is the database being unavailable: a process it refuses must not serve.
   */
  constructor(pool, { log = () => {}, ready = false, prepare = async () => {} } = {}) {
    this.pool = pool;
    this.log = log;
    this.prepare = prepare;
    this.ready = ready;
    this.up = true;
    this.downSince = 0;
    this.stopped = false;
    this.wake = null;
    // An idle connection dropped (PostgreSQL stopped): the pool has removed it already.
    pool.on('error', (err) => this.lost(err));
    pool.on('connect', (client) => {
      // A connection lost while checked out fails its query in flight, or the next one, which the request
      // answers (503); without a listener the 'error' event would end the process.
      client.on('error', () => {});
      this.back();
    });
  }

  /** A request or a connection met `err`, an unavailable database: logged once until it is back. */
  lost(err) {
    if (!this.up) return;
    this.up = false;
    this.downSince = Date.now();
    this.log(`the database is unavailable (${describe(err)}): requests get 503 FAIRMINES_UNAVAILABLE until it is back`);
  }

  back() {
    if (this.up) return;
    this.up = true;
    this.log(`the database is back after ${((Date.now() - this.downSince) / 1000).toFixed(1)} s`);
  }

  /**
   * Runs the migrations and `prepare` until they succeed (retrying whatever fails, with a capped backoff,
   * and saying so in the log), then sets `ready`. Resolves then, or when `stop()` ends the attempts; rejects
   * when `prepare` refuses. `onAttempt` is called after the first attempt, whatever its outcome.
   */
  async migrate(onAttempt = () => {}) {
    for (let attempt = 1; !this.stopped; attempt += 1) {
      try {
        await migrate(this.pool, this.log);
        try {
          await this.prepare();
        } catch (err) {
          if (!isUnavailable(err)) throw Object.assign(err, { refused: true });
          throw err;
        }
        this.ready = true;
        if (attempt > 1) this.log(`the database is ready (after ${attempt} attempts)`);
        onAttempt();
        return;
      } catch (err) {
        if (err.refused) throw err;
        if (isUnavailable(err)) this.lost(err);
        const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** (attempt - 1));
        // The first failure, then one line every 30 attempts (about every 30 s): enough to see it goes on.
        if (attempt === 1 || attempt % 30 === 0) {
          this.log(`the database is not ready (${describe(err)}): every request but /healthz gets 503 `
            + `FAIRMINES_UNAVAILABLE; trying again every ${RETRY_MAX_MS / 1000} s at most (attempt ${attempt})`);
        }
        onAttempt();
        await new Promise((resolve) => {
          this.wake = resolve;
          setTimeout(resolve, delay).unref();
        });
      }
    }
  }

  /** Ends the migration attempts (the process is stopping). */
  stop() {
    this.stopped = true;
    this.wake?.();
  }

  /**
   * Readiness, as `pg_isready` and the schema say: null when the database answers and every migration
   * of this version is applied, else why not.
   */
  async notReadyBecause() {
    if (!this.ready) return 'the database schema is not migrated, or the state keys not checked, yet';
    const { rows } = await this.pool.query('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    KNOWN ??= migrationFiles().map(({ version, name }) => ({ version, name }));
    const missing = KNOWN.filter((m) => !applied.has(m.version)).map((m) => m.name);
    return missing.length === 0 ? null : `migrations not applied: ${missing.join(', ')}`;
  }

  /** The pool's connections: in use (checked out), idle, and requests waiting for one. */
  poolStats() {
    const { totalCount, idleCount, waitingCount } = this.pool;
    return { inUse: totalCount - idleCount, idle: idleCount, waiting: waitingCount };
  }
}
