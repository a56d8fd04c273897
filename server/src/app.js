// The HTTP API (Fastify). Every route but /healthz, /readyz and /v1/openapi.json needs the operator's API key as a
// Bearer token.
// Request shapes are JSON schemas (schemas.js); the rounds' routes are in routes/rounds.js, the export's in
// routes/history.js, the seed pair's here.
import Fastify from 'fastify';
import { ApiError } from './errors.js';
import { Database } from './database.js';
import { Game } from './game.js';
import { installHealth } from './health.js';
import { clientErrorHandler, frameworkErrors, installErrorHandling, sendError } from './http-errors.js';
import { idempotencyOf } from './idempotency.js';
import { Metrics } from './metrics.js';
import { Offer } from './offer.js';
import { installOpenApi } from './openapi.js';
import { historyRoutes } from './routes/history.js';
import { roundRoutes } from './routes/rounds.js';
import { DOCS, IDEMPOTENT, PLAYER, obj } from './schemas.js';
import { tokenChecker } from './secrets.js';

const SCHEMAS = {
  seeds: { ...DOCS.seeds, params: obj({ player: PLAYER }, ['player']) },
  rotate: { ...DOCS.rotate, params: obj({ player: PLAYER }, ['player']), headers: IDEMPOTENT,
    // No NUL: PostgreSQL's text cannot hold one.
    body: obj({ clientSeed: { type: 'string', minLength: 1, maxLength: 256, pattern: '^[^\\u0000]*$' },
      void: { type: 'boolean' } }) },
};

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

  roundRoutes(app, { game, offer, metrics });

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

  historyRoutes(app, { pool });

  return app;
}
