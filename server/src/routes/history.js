// The export an auditor reads (history.js): the rounds in the format `fairmines verify-history` checks, and
// the revealed pairs. With `limit`, one page, whose following page's cursor is in the `fairmines-next-cursor`
// header (absent on the last page); without, everything after `cursor`, streamed.
import { Readable } from 'node:stream';
import { ApiError } from '../errors.js';
import { History, Next } from '../history.js';
import { CURSOR, DOCS, LIMIT, NEXT_CURSOR, PLAYER, TIME, limitOf, obj } from '../schemas.js';

const MAX_PAGE = 10000;

const CSV_COLUMNS = ['round_id', 'server_seed', 'commitment', 'client_seed', 'nonce', 'mines', 'positions', 'rtp', 'picks',
  'outcome', 'multiplier', 'stake', 'currency', 'payout', 'player'];
function csvField(v) {
  const s = v === null || v === undefined ? '' : Array.isArray(v) ? v.join(',') : String(v);
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const FILTERS = { player: PLAYER, since: TIME, until: TIME, cursor: CURSOR, limit: LIMIT(MAX_PAGE) };
const SCHEMAS = {
  history: { ...DOCS.history, querystring: obj({ format: { type: 'string', enum: ['jsonl', 'csv'] }, ...FILTERS }) },
  revealed: { ...DOCS.revealed, querystring: obj(FILTERS) },
};

/**
 * An RFC 3339 time (the schema's date-time) as whole seconds and microseconds since 1970, so that PostgreSQL
 * gets the instant, whatever offset it was written with (PostgreSQL reads none beyond ±15:59) and whatever
 * year it falls in. Date.parse keeps milliseconds and drops further digits: the microseconds come from the text.
 */
function timeOf(text, argument) {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) {
    throw new ApiError(400, 'FAIRMINES_INVALID_REQUEST', `${argument}: not a time this service reads, got ${text}`, argument);
  }
  const seconds = Math.floor(ms / 1000);
  const fraction = /\.(\d+)/.exec(text.slice(text.search(/[Tt\s]/)))?.[1] ?? '';
  return { seconds, micros: (ms - seconds * 1000) * 1000 + Number(fraction.slice(3, 6).padEnd(3, '0')) };
}

/** The query's filters for History (since/until: the finished time; for pairs, the time revealed). */
function filtersOf(q) {
  return { player: q.player, since: timeOf(q.since, 'since'), until: timeOf(q.until, 'until'), cursor: q.cursor,
    limit: limitOf(q.limit, MAX_PAGE) };
}

/**
 * Sends `header`, then the lines of `items` (an export's rows, then maybe a Next): with a limit, as one text with
 * the next cursor in the header; without, streamed as they come.
 */
async function send(reply, items, line, paged, header = '') {
  if (!paged) {
    async function* lines() {
      if (header) yield header;
      for await (const item of items) yield line(item);
    }
    return reply.send(Readable.from(lines()));
  }
  let text = header;
  for await (const item of items) {
    if (item instanceof Next) reply.header(NEXT_CURSOR, item.cursor);
    else text += line(item);
  }
  return reply.send(text);
}

export function historyRoutes(app, { pool }) {
  const history = new History(pool);

  app.get('/v1/history', { schema: SCHEMAS.history }, async (req, reply) => {
    const csv = req.query.format === 'csv';
    const filters = filtersOf(req.query);
    const line = (row) => (csv ? `${CSV_COLUMNS.map((c) => csvField(row[c])).join(',')}\n` : `${JSON.stringify(row)}\n`);
    reply.type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson');
    return send(reply, history.rows(filters), line, filters.limit !== undefined, csv ? `${CSV_COLUMNS.join(',')}\n` : '');
  });

  // With the revealed pairs verify-history also reports rounds missing at either end of a pair.
  app.get('/v1/history/revealed', { schema: SCHEMAS.revealed }, async (req, reply) => {
    const filters = filtersOf(req.query);
    reply.type('application/x-ndjson');
    return send(reply, history.revealedPairs(filters), (pair) => `${JSON.stringify(pair)}\n`, filters.limit !== undefined);
  });
}
