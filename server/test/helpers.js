// What every test file shares: a PostgreSQL server started through the service's own no-setup path
// (embedded binaries, loopback only) with a fresh database per test file, and an app built on it.
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { ensurePostgres } from '../src/embedded-pg.js';
import { migrate } from '../src/migrate.js';

export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TEST_HOME = path.join(SERVER_DIR, '.fairmines-test');
export const API_KEY = 'test-api-key';
export const STATE_KEY = Buffer.alloc(32, 0x5a);
export const AUTH = { authorization: `Bearer ${API_KEY}` };

/** A fresh, migrated database on the shared test cluster; `close()` drops it and stops the cluster. */
export async function startDatabase() {
  const embedded = await ensurePostgres(TEST_HOME);
  // Short-lived admin connections: a test may kill PostgreSQL under a long-lived one.
  const admin = async (sql) => {
    const c = new pg.Client(embedded.url);
    c.on('error', () => {});
    await c.connect();
    try { await c.query(sql); } finally { await c.end(); }
  };
  const name = `test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = embedded.url.replace(/\/postgres$/, `/${name}`);
  const pools = [];
  const db = {
    url,
    name,
    /** The cluster's data folder (beside TEST_HOME when PostgreSQL, run as another user, cannot reach it). */
    dataDir: embedded.dataDir,
    /** A pool on the test database (closed by `close()` if still open). */
    pool(max = 10) {
      const pool = new pg.Pool({ connectionString: url, max });
      pool.on('error', () => {});
      pools.push(pool);
      return pool;
    },
    async close() {
      await Promise.all(pools.map((p) => (p.ended ? null : p.end())));
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      // Test files run one after another: the last one out stops the cluster, so none is left running.
      await embedded.stop({ always: true });
    },
  };
  return db;
}

// The RTPs the tests' apps offer (the service's default offers 0.99 only).
export const TEST_RTPS = ['0.99', '0.97', '1'];

/** The app on a new pool of `db`, migrated; `options` go to buildApp. */
export async function startApp(db, max = 10, options = {}) {
  const pool = db.pool(max);
  await migrate(pool);
  const app = buildApp({ pool, stateKeys: [STATE_KEY], apiKeys: [API_KEY], rtps: TEST_RTPS, ...options });
  await app.ready();
  return { app, pool, async close() { await app.close(); await pool.end(); } };
}

/**
 * The usual test file's service: a fresh database and an app on it, started before the file's tests and
 * closed after them. The returned object gets `db`, and startApp's `app`, `pool` and `close`, in `before`;
 * `started(svc)` runs there too (Node 20 does not wait for one file-level `before` before the next).
 */
export function serviceForFile(started = async () => {}) {
  const svc = {};
  before(async () => {
    svc.db = await startDatabase();
    Object.assign(svc, await startApp(svc.db));
    await started(svc);
  });
  after(async () => {
    await svc.close();
    await svc.db.close();
  });
  return svc;
}

/** One request through the app (no socket); returns status and parsed JSON (or text). */
export async function call(app, method, url, payload, headers = AUTH) {
  const res = await app.inject({ method, url, payload, headers });
  let json = null;
  try { json = JSON.parse(res.body); } catch { /* not JSON: text */ }
  return { status: res.statusCode, json, body: res.body, headers: res.headers };
}

/** The `fairmines` command: FAIRMINES_CLI, else the workspace's release build (built when missing). */
export function fairminesCli() {
  if (process.env.FAIRMINES_CLI) return process.env.FAIRMINES_CLI;
  const root = path.resolve(SERVER_DIR, '..');
  const cli = path.join(root, 'target', 'release', 'fairmines');
  if (!fs.existsSync(cli)) {
    execFileSync('cargo', ['build', '--release', '--locked', '-p', 'fairmines-cli'], { cwd: root, stdio: 'inherit' });
  }
  return cli;
}

/** A small deterministic generator (`rand(n)` is in 0..n-1), so that a failing run can be replayed. */
export function rng(seed) {
  let s = seed >>> 0;
  return (n) => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s % n;
  };
}
