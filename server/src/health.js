// Liveness and readiness, for a load balancer or an orchestrator, both without a key and with any query
// string: /healthz says the process runs (restart it only when this fails), /readyz that it can serve (the
// database answers and its schema is this version's: send it traffic only while this is 200). Until the
// migrations have run (a start while the database is down), every request to a route without
// `config.beforeReady` gets 503.
import { sendError, unavailable } from './http-errors.js';
import { DOCS } from './schemas.js';

export function installHealth(app, { database, metrics }) {
  app.addHook('onRequest', async (req, reply) => {
    if (database.ready || req.routeOptions.config?.beforeReady) return;
    return sendError(reply, unavailable('the database is not ready (unreachable, or its schema not migrated or the '
      + 'state keys not checked yet): retry'), metrics);
  });

  app.get('/healthz', { schema: DOCS.healthz, config: { public: true, liveness: true, beforeReady: true } }, async () => ({ ok: true }));

  app.get('/readyz', { schema: DOCS.readyz, config: { public: true, beforeReady: true } }, async (req, reply) => {
    const why = await database.notReadyBecause();
    if (why !== null) return sendError(reply, unavailable(`not ready: ${why}`), metrics);
    return { ok: true };
  });
}
