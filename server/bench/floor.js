// The floor of fairmines-server's stack, for the benchmark: Fastify and node-postgres serving the three routes
// the load generator calls, each request one autocommit UPDATE of one row (the player's counter) and nothing
// else: no game, no transaction, no validation. No service on this stack answers a move faster.
// Usage: DATABASE_URL=… PORT=… FAIRMINES_API_KEY=… [FAIRMINES_POOL_SIZE=16] node bench/floor.js
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.FAIRMINES_POOL_SIZE ?? 16) });
await pool.query('CREATE TABLE IF NOT EXISTS floor_players (id text PRIMARY KEY, moves bigint NOT NULL)');
const bearer = `Bearer ${process.env.FAIRMINES_API_KEY}`;

/** The player's one row: made on first use, then updated (one statement, one durable commit). */
const touch = (player) => pool.query({ name: 'touch', values: [player],
  text: 'INSERT INTO floor_players (id, moves) VALUES ($1, 1) ON CONFLICT (id) DO UPDATE SET moves = floor_players.moves + 1' });

const app = Fastify();
app.addHook('onRequest', async (req, reply) => {
  if (req.headers.authorization !== bearer) reply.code(401).send({ error: 'unauthorized' });
});
app.post('/v1/players/:player/rounds', async (req, reply) => {
  await touch(req.params.player);
  reply.code(201);
  return { round: randomUUID() };
});
app.post('/v1/players/:player/rounds/:round/reveal', async (req) => {
  await touch(req.params.player);
  return { tile: req.body.tile, safe: true, finished: false };
});
app.post('/v1/players/:player/rounds/:round/cash-out', async (req) => {
  await touch(req.params.player);
  return { finished: true };
});

await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
console.error('floor listening');
process.on('SIGTERM', async () => { await app.close(); await pool.end(); process.exit(0); });
