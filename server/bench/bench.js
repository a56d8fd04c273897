// Moves per second and latency of the service at 16 and 128 connections, beside pgbench on the same
// PostgreSQL in the same run with a one-row update transaction (the durable-commit limit of this machine),
// and where the CPU goes: the service (and the fairmines addon's share of it, from its /metrics),
// PostgreSQL and the load generator, per move.
// Usage: node bench/bench.js [seconds per run, default 10]. Prints a table and `BENCH {json}` lines
// (collected by scripts/bench.sh into docs/benchmarks.md).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { ensurePostgres } from '../src/embedded-pg.js';
import { migrate } from '../src/migrate.js';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.argv[2] ?? 10);
const POOL = Number(process.env.FAIRMINES_POOL_SIZE ?? 16);
const KEY = 'bench-key';
const home = path.join(SERVER_DIR, '.fairmines-bench');
const TICK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })); // the unit of /proc's CPU times

const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

/** CPU seconds of every PostgreSQL process of this machine (backends, WAL writer, …), from /proc. */
function postgresCpu() {
  let ticks = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') continue;
      const f = stat.slice(close + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]); // utime, stime
    } catch {
      // gone meanwhile
    }
  }
  return ticks / TICK;
}

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
const setup = new pg.Pool({ connectionString: url, max: 2 });
await migrate(setup);
await setup.query('CREATE TABLE bench_one (id int PRIMARY KEY, n bigint NOT NULL)');
await setup.query('INSERT INTO bench_one SELECT g, 0 FROM generate_series(1, 1000) g');
await setup.end();

const port = await freePort();
const service = spawn(process.execPath, [path.join(SERVER_DIR, 'bin', 'fairmines-server.js')], {
  env: { ...process.env, DATABASE_URL: url, FAIRMINES_STATE_KEY: '11'.repeat(32), FAIRMINES_API_KEY: KEY,
    PORT: String(port), FAIRMINES_POOL_SIZE: String(POOL) },
  stdio: ['ignore', 'ignore', 'pipe'],
});
await new Promise((resolve, reject) => {
  let log = '';
  service.stderr.on('data', (d) => { log += d; if (log.includes('listening')) resolve(); });
  service.on('exit', (code) => reject(new Error(`the service exited (${code}): ${log}`)));
});

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
/** One request on a kept-alive connection: the status and the parsed JSON (or text) answer. */
function request(method, route, body) {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request({ host: '127.0.0.1', port, path: route, method, agent,
      headers: { authorization: `Bearer ${KEY}`, ...(data ? { 'content-type': 'application/json' } : {}) } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode,
        body: res.headers['content-type']?.startsWith('application/json') ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end(data);
  });
}

async function serviceCounters() {
  const { body } = await request('GET', '/metrics');
  const read = (name) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(body)[1]);
  return { core: read('fairmines_core_seconds_total'), cpu: read('process_cpu_seconds_total') };
}

/**
 * `conns` players at once, each in a loop for SECONDS: a round of 3 mines, reveals until a mine or 3 safe
 * picks, then a cash-out. A move is any of the three requests (each is one transaction).
 */
async function load(conns, duration = SECONDS) {
  const latencies = [];
  const post = async (route, body) => {
    const t = process.hrtime.bigint();
    const res = await request('POST', route, body);
    if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
    return res.body;
  };
  const before = { service: await serviceCounters(), postgres: postgresCpu(), load: process.cpuUsage() };
  const started = process.hrtime.bigint();
  const stopAt = Date.now() + duration * 1000;
  await Promise.all(Array.from({ length: conns }, async (_, i) => {
    const player = `bench-${conns}-${i}-${duration}`;
    while (Date.now() < stopAt) {
      const { round } = await post(`/v1/players/${player}/rounds`, { mines: 3 });
      let move = 0;
      let finished = false;
      for (let tile = 1; !finished && move < 3; tile += 1) finished = (await post(`/v1/players/${player}/rounds/${round}/reveal`, { tile, move: ++move })).finished;
      if (!finished) await post(`/v1/players/${player}/rounds/${round}/cash-out`, { move: ++move });
    }
  }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const after = { service: await serviceCounters(), postgres: postgresCpu(), load: process.cpuUsage(before.load) };
  const moves = latencies.length;
  latencies.sort((a, b) => a - b);
  const perMove = (s) => (1000 * s) / moves;
  const serviceCpu = after.service.cpu - before.service.cpu;
  return { rate: moves / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99),
    serviceMs: perMove(serviceCpu), coreShare: (100 * (after.service.core - before.service.core)) / serviceCpu,
    postgresMs: perMove(after.postgres - before.postgres),
    loadMs: perMove((after.load.user + after.load.system) / 1e6) };
}

/** pgbench's rate for a one-row UPDATE (autocommit: one durable commit each) at `conns` clients. */
function pgbench(conns) {
  const script = path.join(os.tmpdir(), `fairmines-pgbench-${process.pid}.sql`);
  fs.writeFileSync(script, '\\set id random(1, 1000)\nUPDATE bench_one SET n = n + 1 WHERE id = :id;\n');
  try {
    const out = execFileSync('pgbench', ['-n', '-f', script, '-c', String(conns), '-j', '2', '-T', String(SECONDS), url],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return Number(/tps = ([\d.]+)/.exec(out)[1]);
  } finally {
    fs.rmSync(script, { force: true });
  }
}

const runs = [];
try {
  // Warm up first: the pool's connections opened, the JIT's code compiled, the functions' plans made.
  await load(16, 2);
  for (const conns of [16, 128]) runs.push({ conns, service: await load(conns), pgbench: pgbench(conns) });
} finally {
  agent.destroy();
  service.kill('SIGTERM');
  await new Promise((resolve) => { service.once('exit', resolve); });
  await embedded.stop({ always: true });
}

const f1 = (x) => x.toFixed(1);
console.log(`fairmines-server benchmark: ${os.availableParallelism()} cores, Node ${process.version}, ${SECONDS} s per run, `
  + `one service process (pool ${POOL}); load generator and pgbench on the same machine\n`);
console.log('| connections | moves/s | p50 ms | p99 ms | pgbench updates/s | service / pgbench '
  + '| CPU ms per move: service | of it fairmines | PostgreSQL | load generator |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const { conns, service: s, pgbench: ref } of runs) {
  console.log(`| ${conns} | ${s.rate.toFixed(0)} | ${f1(s.p50)} | ${f1(s.p99)} | ${ref.toFixed(0)} | `
    + `${((100 * s.rate) / ref).toFixed(0)}% | ${s.serviceMs.toFixed(2)} | ${f1(s.coreShare)}% | ${s.postgresMs.toFixed(2)} `
    + `| ${s.loadMs.toFixed(2)} |`);
}
console.log();
const result = (name, value, extra) => console.log(`BENCH ${JSON.stringify({ suite: 'server', name, value: Number(value.toFixed(1)), ...extra })}`);
for (const { conns, service: s, pgbench: ref } of runs) {
  const ratio = (100 * s.rate) / ref;
  result(`server moves/s at ${conns} connections, % of pgbench's one-row updates/s (${s.rate.toFixed(0)} vs ${ref.toFixed(0)})`,
    ratio, { unit: '%', target: 50, cmp: '>=', met: ratio >= 50 });
  result(`server p99 latency at ${conns} connections, ms (p50 ${f1(s.p50)})`, s.p99,
    conns === 128 ? { unit: ' ms', target: 50, cmp: '<=', met: s.p99 <= 50 } : { unit: ' ms', cmp: 'info' });
  result(`server: the fairmines addon's share of the service's CPU at ${conns} connections`, s.coreShare,
    { unit: '%', target: 10, cmp: '<=', met: s.coreShare <= 10 });
  result(`server CPU time per move at ${conns} connections, ms (service ${s.serviceMs.toFixed(2)}, PostgreSQL `
    + `${s.postgresMs.toFixed(2)}, load generator ${s.loadMs.toFixed(2)})`, s.serviceMs + s.postgresMs + s.loadMs,
  { unit: ' ms', cmp: 'info' });
}
