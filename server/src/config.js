// Settings from the environment; with none, a working service on this machine (the no-setup start).
import path from 'node:path';
import { DEFAULT_MAX_ROUNDS_IN_PLAY, DEFAULT_RTPS, parseRtps } from './offer.js';
import { parseKeys, secretFromFileOrNew, secretList } from './secrets.js';

/** The setting `name` of `env`, a whole number from 1 up, or `fallback` when it is not set. */
function count(env, name, fallback) {
  const text = env[name];
  if (text === undefined || text === '') return fallback;
  if (!/^[1-9][0-9]{0,8}$/.test(text.trim())) throw new Error(`${name}: must be a whole number from 1 up, got ${JSON.stringify(text)}`);
  return Number(text.trim());
}

export function loadConfig(env = process.env, log = () => {}) {
  const home = path.resolve(env.FAIRMINES_HOME || '.fairmines-server');
  const cfg = {
    home,
    host: env.HOST || '127.0.0.1',
    port: env.PORT === undefined ? 3000 : Number(env.PORT),
    databaseUrl: env.DATABASE_URL || null,
    poolSize: count(env, 'FAIRMINES_POOL_SIZE', 10),
    rtps: parseRtps(env.FAIRMINES_RTPS || DEFAULT_RTPS),
    maxRoundsInPlay: count(env, 'FAIRMINES_MAX_ROUNDS_IN_PLAY', DEFAULT_MAX_ROUNDS_IN_PLAY),
  };
  // Keys are comma-separated lists, so that they can be rotated: see "Rotating keys" in the README.
  if (env.FAIRMINES_STATE_KEY) {
    cfg.stateKeys = parseKeys(env.FAIRMINES_STATE_KEY);
  } else if (cfg.databaseUrl) {
    // Processes sharing a database must share the key: a key file made here would differ on each machine.
    throw new Error('with DATABASE_URL, set FAIRMINES_STATE_KEY (32 bytes: 64 hex characters or base64)');
  } else {
    const key = secretFromFileOrNew(path.join(home, 'state.key'), 32, 'hex');
    if (key.made) log(`generated the state key: ${key.made} (mode 0600; back it up: without it no seed pair can be restored)`);
    else log(`state key: ${path.join(home, 'state.key')}`);
    cfg.stateKeys = parseKeys(key.text);
  }
  if (env.FAIRMINES_API_KEY) {
    cfg.apiKeys = secretList(env.FAIRMINES_API_KEY, 'FAIRMINES_API_KEY');
  } else if (cfg.databaseUrl) {
    // Behind a load balancer every process must accept the same key: a key file made here would differ on each.
    throw new Error('with DATABASE_URL, set FAIRMINES_API_KEY: every process behind a load balancer must accept '
      + 'the same Bearer token, and a key file made by each machine would differ');
  } else {
    const key = secretFromFileOrNew(path.join(home, 'api.key'), 24, 'hex');
    if (key.made) log(`generated the API key: ${key.made} (mode 0600; send it as Authorization: Bearer <key>)`);
    else log(`API key: ${path.join(home, 'api.key')}`);
    cfg.apiKeys = secretList(key.text, 'FAIRMINES_API_KEY');
  }
  // A token that reads /metrics and nothing else, for Prometheus (an API key reads it too).
  cfg.metricsTokens = env.FAIRMINES_METRICS_TOKEN ? secretList(env.FAIRMINES_METRICS_TOKEN, 'FAIRMINES_METRICS_TOKEN') : [];
  if (cfg.metricsTokens.some((t) => cfg.apiKeys.includes(t))) {
    throw new Error('FAIRMINES_METRICS_TOKEN must differ from every FAIRMINES_API_KEY (a metrics token must not play)');
  }
  return cfg;
}
