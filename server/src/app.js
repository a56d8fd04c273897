// The HTTP API (Fastify). Every route but /healthz, /readyz and /v1/openapi.json needs the operator's API key as a Bearer token.
// Request shapes are JSON schemas that refuse unknown fields and wrong JSON types; the values' ranges
// (mines, tile, RTP) are judged by the addon, whose error code and message go back unchanged.
import { Readable } from 'node:stream';
import Fastify from 'fastify';
import { ApiError } from './errors.js';
import { Database } from './database.js';
import { Game } from './game.js';
import { installHealth } from './health.js';
import { clientErrorHandler, frameworkErrors, installErrorHandling, sendError } from './http-errors.js';
import { KEY_SCHEMA, idempotencyOf } from './idempotency.js';
import { Metrics } from './metrics.js';
import { Offer } from './offer.js';
import { installOpenApi } from './openapi.js';
import { DOCS } from './schemas.js';
import { tokenChecker } from './secrets.js';

const PLAYER = { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,64}$' };
const ROUND = { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' };
// Any JSON number: the addon says whether it is an integer in range (so 3.5 or 26 get the core's words).
const MOVE = { type: 'integer', minimum: 1, maximum: 1000 };
const obj = (properties, required = []) => ({ type: 'object', additionalProperties: false, properties, required });
// The writes without a move number take an Idempotency-Key (idempotency.js); other headers pass.
const IDEMPOTENT = { type: 'object', properties: { 'idempotency-key': KEY_SCHEMA } };

const SCHEMAS = {
  newRound: { ...DOCS.newRound, params: obj({ player: PLAYER }, ['player']), headers: IDEMPOTENT,
    body: obj({ mines: { type: 'number' }, rtp: { type: 'string', maxLength: 64 } }, ['mines']) },
  reveal: { ...DOCS.reveal, params: obj({ round: ROUND }, ['round']),
    body: obj({ tile: { type: 'number' }, move: MOVE }, ['tile', 'move']) },
  cashOut: { ...DOCS.cashOut, params: obj({ round: ROUND }, ['round']), body: obj({ move: MOVE }, ['move']) },
  round: { ...DOCS.round, params: obj({ round: ROUND }, ['round']) },
  seeds: { ...DOCS.seeds, params: obj({ player: PLAYER }, ['player']) },
  rotate: { ...DOCS.rotate, params: obj({ player: PLAYER }, ['player']), headers: IDEMPOTENT,
    body: obj({ clientSeed: { type: 'string', minLength: 1, maxLength: 256 }, void: { type: 'boolean' } }) },
  history: { ...DOCS.history, querystring: obj({ format: { type: 'string', enum: ['jsonl', 'csv'] } }) },
};

const CSV_COLUMNS = ['round_id', 'server_seed', 'commitment', 'client_seed', 'nonce', 'mines', 'positions', 'rtp', 'picks',
  'outcome', 'multiplier'];
function csvField(v) {
  const s = v === null ? '' : Array.isArray(v) ? v.join(',') : String(v);
  return /[",\r\n]|^\s|\s$/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/**
 * The app over `pool`. `stateKeys`: the state keys (keys.js), the sealing one first; `apiKeys`: the Bearer
 * tokens accepted everywhere, `metricsTokens` those accepted on /metrics only. `database` (database.js) says
 * whether the schema is migrated (default: it is); `rtps` and `maxRoundsInPlay` are what the operator
 * offers (offer.js).
 */
export function buildApp({ pool, stateKeys, apiKeys, metricsTokens = [], logger = false,
  database = new Database(pool, { ready: true }), rtps, maxRoundsInPlay }) {
  const metrics = new Metrics(database);
  const tokenMatches = tokenChecker(apiKeys);
  const metricsTokenMatches = tokenChecker(metricsTokens);
  const offer = new Offer({ rtps, maxRoundsInPlay });
  const game = new Game(pool, stateKeys, metrics, offer);
  const app = Fastify({
    logger,
    // The largest valid body is a rotation with a 256-character client seed.
    bodyLimit: 2048,
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
    // On close, keep-alive connections that are idle are closed; requests in flight are answered first.
    forceCloseConnections: 'idle',
    // The drain's 503 is answered in the error shape (http-errors.js), not Fastify's.
    return503OnClosing: false,
    frameworkErrors: frameworkErrors(metrics),
    clientErrorHandler: clientErrorHandler(metrics),
  });
  app.decorate('game', game);
  app.decorate('metrics', metrics);
  app.addHook('onClose', async () => metrics.close());
  installOpenApi(app);

  installErrorHandling(app, { metrics, database });
  app.addHook('onRequest', async (req, reply) => {
    if (req.routeOptions.config?.public) return;
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : null;
    // A route with `config.metricsToken` (/metrics) takes a metrics token too: it cannot play.
    const ok = token !== null && (tokenMatches(token) || (req.routeOptions.config?.metricsToken === true
      && metricsTokenMatches(token)));
    if (!ok) {
      return sendError(reply, new ApiError(401, 'FAIRMINES_UNAUTHORIZED', 'authorization: a valid Bearer API key is required',
        'authorization'), metrics);
    }
  });
  app.addHook('onResponse', async (req, reply) => {
    metrics.response(reply.statusCode);
    metrics.observe(req.routeOptions?.url ?? 'unknown', reply.elapsedTime / 1000);
  });
  installHealth(app, { database, metrics });

  app.get('/metrics', { schema: DOCS.metrics, config: { beforeReady: true, metricsToken: true } }, async (req, reply) => reply.type('text/plain; version=0.0.4').send(metrics.text()));

  app.post('/v1/players/:player/rounds', { schema: SCHEMAS.newRound }, async (req, reply) => {
    const { answer, replay } = await game.newRound(req.params.player, req.body.mines, offer.rtp(req.body.rtp),
      idempotencyOf(req));
    if (replay) reply.header('idempotent-replayed', 'true');
    else metrics.move('start');
    return reply.code(201).send(answer);
  });

  app.post('/v1/rounds/:round/reveal', { schema: SCHEMAS.reveal }, async (req) => {
    const { answer, replay } = await game.move(req.params.round, req.body.move, 'reveal', req.body.tile);
    if (!replay) metrics.move('reveal');
    return answer;
  });

  app.post('/v1/rounds/:round/cash-out', { schema: SCHEMAS.cashOut }, async (req) => {
    const { answer, replay } = await game.move(req.params.round, req.body.move, 'cash_out');
    if (!replay) metrics.move('cash_out');
    return answer;
  });

  app.get('/v1/rounds/:round', { schema: SCHEMAS.round }, async (req) => game.getRound(req.params.round));

  app.get('/v1/players/:player/seeds', { schema: SCHEMAS.seeds }, async (req) => game.seeds(req.params.player));

  // A rotation's body is optional: no body means keep the client seed, void nothing. A JSON null is a body,
  // and not an object: refused by the schema.
  app.post('/v1/players/:player/rotate', {
    schema: SCHEMAS.rotate,
    preValidation: async (req) => { if (req.body === undefined) req.body = {}; },
  }, async (req, reply) => {
    const { answer, replay } = await game.rotate(req.params.player, req.body.clientSeed, req.body.void === true,
      idempotencyOf(req));
    if (replay) reply.header('idempotent-replayed', 'true');
    else metrics.move('rotate');
    return answer;
  });

  // The format `fairmines verify-history` reads, one row per round, streamed page by page.
  app.get('/v1/history', { schema: SCHEMAS.history }, async (req, reply) => {
    const csv = req.query.format === 'csv';
    async function* lines() {
      if (csv) yield `${CSV_COLUMNS.join(',')}\n`;
      for await (const row of game.historyRows()) {
        yield csv ? `${CSV_COLUMNS.map((c) => csvField(row[c])).join(',')}\n` : `${JSON.stringify(row)}\n`;
      }
    }
    return reply.type(csv ? 'text/csv; charset=utf-8' : 'application/x-ndjson').send(Readable.from(lines()));
  });

  // The revealed pairs, one JSON object a line: with them verify-history also reports rounds missing at
  // either end of a pair.
  app.get('/v1/history/revealed', { schema: DOCS.revealed }, async (req, reply) => {
    async function* lines() {
      for await (const pair of game.revealedPairs()) yield `${JSON.stringify(pair)}\n`;
    }
    return reply.type('application/x-ndjson').send(Readable.from(lines()));
  });

  return app;
}
