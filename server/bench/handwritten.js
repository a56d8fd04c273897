// The service an operator would write by hand on fairmines-server's stack, for the benchmark: Fastify and
// node-postgres, the same three routes as the load generator calls, each move a transaction of parameterised
// statements (BEGIN, the round locked with SELECT … FOR UPDATE, the retry look-up, UPDATE, INSERT, COMMIT),
// the mines placed with node:crypto's SHA3-256 and SHAKE256 (ALGORITHM.md), seeds kept in clear. What it
// leaves out against fairmines-server (sealed seeds, payouts, records, rotation, idempotent starts) only
// makes it faster.
// Usage: DATABASE_URL=… PORT=… FAIRMINES_API_KEY=… [FAIRMINES_POOL_SIZE=16] node bench/handwritten.js
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import pg from 'pg';

const sha3 = (text) => createHash('sha3-256').update(text).digest('hex');

/** The round's mines, 1-based and sorted: the partial Fisher–Yates of ALGORITHM.md over SHAKE256's words. */
export function minePositions(serverSeed, clientSeed, nonce, mines) {
  const signature = sha3(`${serverSeed}:${clientSeed}:${nonce}`);
  let stream = createHash('shake256', { outputLength: 192 }).update(signature).digest();
  let word = 0;
  const available = Array.from({ length: 25 }, (_, i) => i);
  const drawn = [];
  while (drawn.length < mines) {
    if (word * 4 === stream.length) {
      stream = createHash('shake256', { outputLength: stream.length * 2 }).update(signature).digest();
    }
    const w = stream.readUInt32BE(4 * word++);
    const p = available.length;
    if (w >= Math.floor(2 ** 32 / p) * p) continue;
    drawn.push(available.splice(w % p, 1)[0] + 1);
  }
  return drawn.sort((a, b) => a - b);
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS hw_pairs (player text PRIMARY KEY, server_seed text NOT NULL, client_seed text NOT NULL,
    nonce bigint NOT NULL);
  CREATE TABLE IF NOT EXISTS hw_rounds (id uuid PRIMARY KEY, player text NOT NULL, server_seed text NOT NULL,
    client_seed text NOT NULL, nonce bigint NOT NULL, mines smallint NOT NULL, picks smallint[] NOT NULL DEFAULT '{}',
    status text NOT NULL DEFAULT 'in_play');
  CREATE TABLE IF NOT EXISTS hw_moves (round_id uuid NOT NULL REFERENCES hw_rounds (id), move integer NOT NULL,
    body text NOT NULL, answer text NOT NULL, PRIMARY KEY (round_id, move));`;

class Refused extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function inTransaction(pool, fn) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
}

function start() {
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.FAIRMINES_POOL_SIZE ?? 16) });
  const bearer = `Bearer ${process.env.FAIRMINES_API_KEY}`;
  const q = (client, name, text, values) => client.query({ name, text, values });

  const newRound = (player, mines) => inTransaction(pool, async (c) => {
    let { rows: [pair] } = await q(c, 'pair', 'SELECT * FROM hw_pairs WHERE player = $1 FOR UPDATE', [player]);
    if (!pair) {
      await q(c, 'new-pair', 'INSERT INTO hw_pairs VALUES ($1, $2, $3, 0) ON CONFLICT DO NOTHING',
        [player, randomBytes(32).toString('hex'), randomBytes(16).toString('hex')]);
      ({ rows: [pair] } = await q(c, 'pair', 'SELECT * FROM hw_pairs WHERE player = $1 FOR UPDATE', [player]));
    }
    const nonce = Number(pair.nonce) + 1;
    await q(c, 'next-nonce', 'UPDATE hw_pairs SET nonce = $2 WHERE player = $1', [player, nonce]);
    const round = randomUUID();
    await q(c, 'new-round', 'INSERT INTO hw_rounds (id, player, server_seed, client_seed, nonce, mines) VALUES ($1, $2, $3, $4, $5, $6)',
      [round, player, pair.server_seed, pair.client_seed, nonce, mines]);
    return { round, nonce, mines, commitment: sha3(pair.server_seed), clientSeed: pair.client_seed };
  });

  const move = (player, roundId, number, tile) => inTransaction(pool, async (c) => {
    const body = tile === undefined ? 'cash_out' : `reveal ${tile}`;
    const { rows: [r] } = await q(c, 'round', 'SELECT * FROM hw_rounds WHERE id = $1 AND player = $2 FOR UPDATE', [roundId, player]);
    if (!r) throw new Refused(404, 'no such round');
    const { rows: [past] } = await q(c, 'past', 'SELECT body, answer FROM hw_moves WHERE round_id = $1 AND move = $2', [roundId, number]);
    if (past) {
      if (past.body === body) return JSON.parse(past.answer);
      throw new Refused(409, 'move made already with another request');
    }
    if (r.status !== 'in_play' || number !== r.picks.length + 1) throw new Refused(409, 'not the next move');
    const mines = minePositions(r.server_seed, r.client_seed, r.nonce, r.mines);
    let answer;
    if (tile === undefined) {
      if (r.picks.length === 0) throw new Refused(409, 'nothing to cash out');
      answer = { safePicks: r.picks.length, finished: true, outcome: 'cashed_out' };
    } else {
      if (r.picks.includes(tile)) throw new Refused(409, 'tile revealed already');
      r.picks.push(tile);
      const safe = !mines.includes(tile);
      const finished = !safe || r.picks.length === 25 - r.mines;
      answer = { tile, safe, safePicks: safe ? r.picks.length : r.picks.length - 1, finished,
        ...(finished ? { outcome: safe ? 'cashed_out' : 'lost' } : {}) };
    }
    if (answer.finished) answer.minePositions = mines;
    await q(c, 'write-round', 'UPDATE hw_rounds SET picks = $2, status = $3 WHERE id = $1',
      [roundId, r.picks, answer.outcome ?? 'in_play']);
    await q(c, 'write-move', 'INSERT INTO hw_moves VALUES ($1, $2, $3, $4)', [roundId, number, body, JSON.stringify(answer)]);
    return answer;
  });

  const app = Fastify();
  app.addHook('onRequest', async (req, reply) => {
    if (req.headers.authorization !== bearer) reply.code(401).send({ error: 'unauthorized' });
  });
  app.setErrorHandler((err, req, reply) => {
    reply.code(err instanceof Refused ? err.status : err.statusCode ?? 500).send({ error: err.message });
  });
  const int = (min, max) => ({ type: 'integer', minimum: min, maximum: max });
  const body = (properties) => ({ body: { type: 'object', properties, required: Object.keys(properties) } });
  app.post('/v1/players/:player/rounds', { schema: body({ mines: int(1, 24) }) }, async (req, reply) => {
    reply.code(201);
    return newRound(req.params.player, req.body.mines);
  });
  app.post('/v1/players/:player/rounds/:round/reveal', { schema: body({ tile: int(1, 25), move: int(1, 25) }) },
    async (req) => move(req.params.player, req.params.round, req.body.move, req.body.tile));
  app.post('/v1/players/:player/rounds/:round/cash-out', { schema: body({ move: int(1, 25) }) },
    async (req) => move(req.params.player, req.params.round, req.body.move));

  return { pool, app };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { pool, app } = start();
  await pool.query(SCHEMA);
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
  console.error('hand-written service listening');
  process.on('SIGTERM', async () => { await app.close(); await pool.end(); process.exit(0); });
}
