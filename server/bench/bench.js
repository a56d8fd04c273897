// Moves per second and latency of the service at 16 and 128 connections, beside pgbench on the same
// PostgreSQL in the same run with a one-row update transaction (the durable-commit limit of this machine).
// Usage: node bench/bench.js [seconds per run, default 10]. Prints a Markdown table.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ensurePostgres } from '../src/embedded-pg.js';
import { migrate } from '../src/migrate.js';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.argv[2] ?? 10);
const KEY = 'bench-key';
const home = path.join(SERVER_DIR, '.fairmines-bench');

const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

// 128 connections of pgbench beside the service's pool need more than PostgreSQL's default 100.
let embedded = await ensurePostgres(home);
let admin = new pg.Client(embedded.url);
await admin.connect();
if (Number((await admin.query('SHOW max_connections')).rows[0].max_connections) < 300) {
  await admin.query('ALTER SYSTEM SET max_connections = 300');
  await admin.end();
  await embedded.stop({ always: true });
  embedded = await ensurePostgres(home);
  admin = new pg.Client(embedded.url);
  await admin.connect();
}
await admin.query('DROP DATABASE IF EXISTS bench WITH (FORCE)');
await admin.query('CREATE DATABASE bench');
await admin.end();
const url = embedded.url.replace(/\/postgres$/, '/bench');
const pool = new pg.Pool({ connectionString: url, max: 2 });
await migrate(pool);
await pool.query('CREATE TABLE bench_one (id int PRIMARY KEY, n bigint NOT NULL)');
await pool.query('INSERT INTO bench_one SELECT g, 0 FROM generate_series(1, 1000) g');
await pool.end();

const port = await freePort();
const service = spawn(process.execPath, [path.join(SERVER_DIR, 'bin', 'fairmines-server.js')], {
  env: { ...process.env, DATABASE_URL: url, FAIRMINES_STATE_KEY: '11'.repeat(32), FAIRMINES_API_KEY: KEY,
    PORT: String(port), FAIRMINES_POOL_SIZE: process.env.FAIRMINES_POOL_SIZE ?? '16' },
  stdio: ['ignore', 'ignore', 'pipe'],
});
await new Promise((resolve) => { let log = ''; service.stderr.on('data', (d) => { log += d; if (log.includes('listening')) resolve(); }); });
const base = `http://127.0.0.1:${port}`;
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };

/** `conns` players, each in a loop: a round of 3 mines, reveals until a mine or 3 safe picks, then a cash-out. */
async function load(conns) {
  const latencies = [];
  let moves = 0;
  const stopAt = Date.now() + SECONDS * 1000;
  const post = async (route, body) => {
    const t = process.hrtime.bigint();
    const res = await fetch(base + route, { method: 'POST', headers, body: JSON.stringify(body) });
    const json = await res.json();
    if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(json)}`);
    latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
    moves += 1;
    return json;
  };
  await Promise.all(Array.from({ length: conns }, async (_, i) => {
    const player = `bench-${conns}-${i}`;
    while (Date.now() < stopAt) {
      const { round } = await post(`/v1/players/${player}/rounds`, { mines: 3 });
      let move = 0;
      let finished = false;
      for (let tile = 1; !finished && move < 3; tile += 1) finished = (await post(`/v1/rounds/${round}/reveal`, { tile, move: ++move })).finished;
      if (!finished) await post(`/v1/rounds/${round}/cash-out`, { move: ++move });
    }
  }));
  latencies.sort((a, b) => a - b);
  return { rate: moves / SECONDS, p50: pct(latencies, 50), p99: pct(latencies, 99) };
}

function pgbench(conns) {
  const script = path.join(os.tmpdir(), `fairmines-pgbench-${process.pid}.sql`);
  fs.writeFileSync(script, '\\set id random(1, 1000)\nUPDATE bench_one SET n = n + 1 WHERE id = :id;\n');
  try {
    const out = execFileSync('pgbench', ['-n', '-f', script, '-c', String(conns), '-j', '2', '-T', String(SECONDS), url],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const tps = Number(/tps = ([\d.]+)/.exec(out)[1]);
    const lat = Number(/latency average = ([\d.]+) ms/.exec(out)[1]);
    return { rate: tps, lat };
  } catch {
    return null; // no pgbench on this machine
  } finally {
    fs.rmSync(script, { force: true });
  }
}

const rows = [];
try {
  for (const conns of [16, 128]) {
    const svc = await load(conns);
    const ref = pgbench(conns);
    rows.push(`| ${conns} | ${svc.rate.toFixed(0)} | ${svc.p50.toFixed(1)} | ${svc.p99.toFixed(1)} | `
      + `${ref ? ref.rate.toFixed(0) : 'no pgbench'} | ${ref ? `${((100 * svc.rate) / ref.rate).toFixed(0)}%` : '—'} |`);
  }
} finally {
  service.kill('SIGTERM');
  await embedded.stop({ always: true });
}
console.log(`${os.cpus().length} cores, ${SECONDS} s per run, one service process (pool ${process.env.FAIRMINES_POOL_SIZE ?? 16}), the load generator in another process on the same machine\n`);
console.log('| connections | moves/s | p50 ms | p99 ms | pgbench one-row updates/s | service / pgbench |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
