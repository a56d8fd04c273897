// Starts the whole service: settings, the database (DATABASE_URL, or the embedded one), migrations,
// then the HTTP server; SIGTERM or SIGINT drain it (requests in flight are answered) before exit.
// A database that is down does not stop the start: the process listens (503 but for /healthz) and
// migrates as soon as the database answers. State keys the database does not know stop it (`ready`
// rejects; before it listens, `start` does).
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { Database, createPool } from './database.js';
import { settingsDatabase } from './embedded-pg.js';
import { startCleanup } from './idempotency.js';
import { StateKeys, checkStateKeys } from './keys.js';

export async function start(env = process.env) {
  const say = (msg) => process.stderr.write(`fairmines-server: ${msg}\n`);
  const cfg = loadConfig(env, say);
  const { url, stop: stopDatabase } = await settingsDatabase(cfg, say);
  const pool = createPool(url, cfg.poolSize);
  const stateKeys = new StateKeys(cfg.stateKeys);
  // The keys are checked against the database's before the process is ready: refused, it never serves.
  const database = new Database(pool, { log: say, prepare: () => checkStateKeys(pool, stateKeys) });
  let stopCleanup = async () => {};
  // Ready: the migrations ran and the keys were accepted; rejects when the keys are refused.
  let firstAttempt;
  const attempted = new Promise((resolve) => { firstAttempt = resolve; });
  const ready = database.migrate(firstAttempt).then(() => {
    if (!database.ready || database.stopped) return;
    say(`state keys: ${stateKeys.ids.join(', ')} (the first seals)`);
    stopCleanup = startCleanup(pool, say);
  });
  // The first attempt is awaited (a database that is up is ready, or the keys refused, before the process
  // listens); the attempts after it go on while the process serves 503.
  try {
    await Promise.race([attempted, ready]);
  } catch (err) {
    await pool.end();
    await stopDatabase();
    throw err;
  }
  // Fastify's logger (JSON lines on stdout). At the default level, warn, only failures are logged; at info,
  // each request's method, URL and status too. No body is ever logged, so no seed can be.
  const logger = { level: env.FAIRMINES_LOG_LEVEL || 'warn' };
  const app = buildApp({ pool, stateKeys, apiKeys: cfg.apiKeys, metricsTokens: cfg.metricsTokens, logger, database,
    rtps: cfg.rtps, maxRoundsInPlay: cfg.maxRoundsInPlay });
  const address = await app.listen({ host: cfg.host, port: cfg.port });
  say(`listening on ${address}${database.ready ? '' : ' (not ready: the database does not answer yet)'}`);

  let stopping = null;
  const stop = () => {
    stopping ??= (async () => {
      say('draining');
      database.stop();
      await app.close();
      await stopCleanup();
      await pool.end();
      await stopDatabase();
      say('stopped');
    })();
    return stopping;
  };
  return { app, address, stop, pool, database, ready };
}
