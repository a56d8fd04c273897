// Starts the whole service: settings, the database (DATABASE_URL, or the embedded one), migrations,
// then the HTTP server; SIGTERM or SIGINT drain it (requests in flight are answered) before exit.
// A database that is down does not stop the start: the process listens (503 but for /healthz) and
// migrates as soon as the database answers.
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { Database, createPool } from './database.js';
import { ensurePostgres } from './embedded-pg.js';

export async function start(env = process.env) {
  const say = (msg) => process.stderr.write(`fairmines-server: ${msg}\n`);
  const cfg = loadConfig(env, say);
  let embedded = null;
  let url = cfg.databaseUrl;
  if (!url) {
    embedded = await ensurePostgres(cfg.home, say);
    url = embedded.url;
  }
  const pool = createPool(url, cfg.poolSize);
  const database = new Database(pool, { log: say });
  // The first attempt is awaited (a database that is up is ready before the process listens); the
  // attempts after it go on while the process serves 503.
  await new Promise((resolve) => { database.migrate(resolve); });
  // Fastify's logger (JSON lines on stdout). At the default level, warn, only failures are logged; at info,
  // each request's method, URL and status too. No body is ever logged, so no seed can be.
  const logger = { level: env.FAIRMINES_LOG_LEVEL || 'warn' };
  const app = buildApp({ pool, stateKey: cfg.stateKey, apiKey: cfg.apiKey, logger, database, rtps: cfg.rtps,
    maxRoundsInPlay: cfg.maxRoundsInPlay });
  const address = await app.listen({ host: cfg.host, port: cfg.port });
  say(`listening on ${address}${database.ready ? '' : ' (not ready: the database does not answer yet)'}`);

  let stopping = null;
  const stop = () => {
    stopping ??= (async () => {
      say('draining');
      database.stop();
      await app.close();
      await pool.end();
      if (embedded) await embedded.stop();
      say('stopped');
    })();
    return stopping;
  };
  return { app, address, stop, pool, database };
}
