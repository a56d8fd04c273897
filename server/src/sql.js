// A transaction in as few round trips as its statements: BEGIN goes out in the message of the first
// statement and COMMIT in the message of the last. PostgreSQL's simple query protocol runs the statements
// of one message in order and stops at the first error, but it takes no parameters: values enter the text
// only through `sql`, which writes each one as a quoted literal of its type.
import pg from 'pg';

/** A literal for `value`: NULL, an integer, a quoted string, a bytea, or an ARRAY of these. */
export function literal(value) {
  if (value === null || value === undefined) return 'NULL';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new TypeError(`sql: ${value} is not a safe integer`);
    return String(value);
  }
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return pg.escapeLiteral(value);
  if (Buffer.isBuffer(value)) return `'\\x${value.toString('hex')}'::bytea`;
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(', ')}]`;
  throw new TypeError(`sql: no literal for a value of type ${typeof value}`);
}

/** The tagged template's text with each `${value}` written by `literal`. */
export function sql(strings, ...values) {
  let text = strings[0];
  values.forEach((v, i) => { text += literal(v) + strings[i + 1]; });
  return text;
}

/** One transaction's statements on one connection (see `transaction`). */
class Transaction {
  constructor(client) {
    this.client = client;
    this.begun = false;
    this.committed = false;
  }

  /** Runs `text` (one statement), the first one with BEGIN before it; its result. */
  async query(text) {
    if (this.begun) return this.client.query(text);
    this.begun = true;
    return (await this.client.query(`BEGIN; ${text}`))[1];
  }

  /**
   * Runs `text` (one or more statements) and COMMIT: once this returns, all of it is durable. The result of
   * the first statement of `text`.
   */
  async commitWith(text) {
    const first = !this.begun;
    this.begun = true;
    const results = await this.client.query(`${first ? 'BEGIN; ' : ''}${text}; COMMIT`);
    this.committed = true;
    return results[first ? 1 : 0];
  }
}

/**
 * Runs `fn(t)` in a transaction on a connection of `pool` and returns its result. Statements go through
 * `t.query` and, for the last, `t.commitWith`; when `fn` returns without it, COMMIT follows on its own.
 * When `fn` throws, the transaction is rolled back.
 */
export async function transaction(pool, fn) {
  const client = await pool.connect();
  const t = new Transaction(client);
  let broken = false;
  try {
    const result = await fn(t);
    if (t.begun && !t.committed) await client.query('COMMIT');
    return result;
  } catch (err) {
    // A connection that cannot even roll back (PostgreSQL restarted) is dropped, not pooled again.
    if (t.begun) await client.query('ROLLBACK').catch(() => { broken = true; });
    throw err;
  } finally {
    client.release(broken);
  }
}
