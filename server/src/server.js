// Starts the whole service: settings, the database (DATABASE_URL, or the embedded one), migrations,
// then the HTTP server; SIGTERM or SIGINT drain it (requests in flight are answered) before exit.
import pg from 'pg';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { ensurePostgres } from './embedded-pg.js';
import { startCleanup } from './idempotency.js';
import { StateKeys, checkStateKeys } from './keys.js';
import { migrate } from './migrate.js';

export async function start(env = process.env) {
  const say = (msg) => process.stderr.write(`fairmines-server: ${msg}\n`);
  const cfg = loadConfig(env, say);
  let embedded = null;
  let url = cfg.databaseUrl;
  if (!url) {
    embedded = await ensurePostgres(cfg.home, say);
    url = embedded.url;
  }
  const pool = new pg.Pool({ connectionString: url, max: Number(env.FAIRMINES_POOL_SIZE || 10) });
  // An idle client's connection dropped (PostgreSQL restarted): the pool replaces it; nothing to crash for.
  pool.on('error', (err) => say(`database connection lost: ${err.message}`));
  await migrate(pool, say);
  const stateKeys = new StateKeys(cfg.stateKeys);
  await checkStateKeys(pool, stateKeys);
  say(`state keys: ${stateKeys.ids.join(', ')} (the first seals)`);
  // Fastify's logger (JSON lines on stdout). At the default level, warn, only failures are logged; at info,
  // each request's method, URL and status too. No body is ever logged, so no seed can be.
  const logger = { level: env.FAIRMINES_LOG_LEVEL || 'warn' };
  const app = buildApp({ pool, stateKeys, apiKeys: cfg.apiKeys, metricsTokens: cfg.metricsTokens, logger });
  const address = await app.listen({ host: cfg.host, port: cfg.port });
  say(`listening on ${address}`);
  const stopCleanup = startCleanup(pool, say);

  let stopping = null;
  const stop = () => {
    stopping ??= (async () => {
      say('draining');
      await app.close();
      await stopCleanup();
      await pool.end();
      if (embedded) await embedded.stop();
      say('stopped');
    })();
    return stopping;
  };
  return { app, address, stop, pool };
}
