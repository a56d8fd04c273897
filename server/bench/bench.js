// Moves per second, latency and CPU per move of fairmines-server against the services an operator would
// otherwise run on the same stack (Fastify, node-postgres, the same PostgreSQL), each its own process, one
// after another in this run under the same load: the floor (bench/floor.js: one autocommit UPDATE a request)
// and a hand-written game service (bench/handwritten.js: a transaction of parameterised statements a move).
// pgbench's one-row update transactions on the same PostgreSQL are shown beside them (information).
// Where the CPU goes: the service process (and, for fairmines-server, the addon's share, from /metrics),
// PostgreSQL and the load generator, per move, and the WAL PostgreSQL writes per move.
// Usage: node bench/bench.js [seconds per run, default 10]; BENCH_SERVER_NODE_ARGS: Node's options for the
// services (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile them); BENCH_SERVER_ONLY: one service's name,
// to measure it alone (no table of ratios then). Prints a table and `BENCH {json}` lines
// (collected by scripts/bench.sh into docs/benchmarks.md).
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { minePositions } from 'fairmines';
import pg from 'pg';
import { ensurePostgres } from '../src/embedded-pg.js';
import { minePositions as handwrittenMines } from './handwritten.js';
import { migrate } from '../src/migrate.js';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SECONDS = Number(process.argv[2] ?? 10);
const POOL = Number(process.env.FAIRMINES_POOL_SIZE ?? 16);
const KEY = 'bench-key';
const NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
const home = path.join(SERVER_DIR, '.fairmines-bench');
const TICK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })); // the unit of /proc's CPU times

const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});
const pct = (xs, p) => xs[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

/** A process's name and CPU seconds (user + system), from its /proc/PID/stat. */
function procStat(pid) {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const close = stat.lastIndexOf(')');
  const f = stat.slice(close + 2).split(' ');
  return { name: stat.slice(stat.indexOf('(') + 1, close), cpu: (Number(f[11]) + Number(f[12])) / TICK };
}

/** CPU seconds of every PostgreSQL process of this machine (backends, WAL writer, …), from /proc. */
function postgresCpu() {
  let seconds = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const { name, cpu } = procStat(pid);
      if (name === 'postgres') seconds += cpu;
    } catch {
      // gone meanwhile
    }
  }
  return seconds;
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
// The WAL PostgreSQL writes (bytes), to tell what a move costs it beside the CPU.
const walPool = new pg.Pool({ connectionString: url, max: 1 });
// pool.end() resolves before its idle client's connection has closed: PostgreSQL stopping right after may still
// end that connection ("terminating connection due to administrator command"), an error with no one to take it.
walPool.on('error', () => {});
const walPosition = async () => (await walPool.query('SELECT pg_current_wal_insert_lsn()::text AS lsn')).rows[0].lsn;
const walSince = async (lsn) => Number((await walPool.query('SELECT pg_wal_lsn_diff(pg_current_wal_insert_lsn(), $1) AS n', [lsn])).rows[0].n);
const setup = new pg.Pool({ connectionString: url, max: 2 });
await migrate(setup);
await setup.query('CREATE TABLE bench_one (id int PRIMARY KEY, n bigint NOT NULL)');
await setup.query('INSERT INTO bench_one SELECT g, 0 FROM generate_series(1, 1000) g');
await setup.end();

const SERVICES = [
  { name: 'floor', script: path.join(SERVER_DIR, 'bench', 'floor.js') },
  { name: 'hand-written', script: path.join(SERVER_DIR, 'bench', 'handwritten.js') },
  { name: 'fairmines-server', script: path.join(SERVER_DIR, 'bin', 'fairmines-server.js') },
].filter(({ name }) => !process.env.BENCH_SERVER_ONLY || name === process.env.BENCH_SERVER_ONLY);

/** The service's process started on a free port, once it listens: `{ child, port }`. */
async function startService({ script }) {
  const port = await freePort();
  const child = spawn(process.execPath, [...NODE_ARGS, script], {
    env: { ...process.env, DATABASE_URL: url, FAIRMINES_STATE_KEY: '11'.repeat(32), FAIRMINES_API_KEY: KEY,
      PORT: String(port), FAIRMINES_POOL_SIZE: String(POOL) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise((resolve, reject) => {
    let log = '';
    child.stderr.on('data', (d) => { log += d; if (log.includes('listening')) resolve(); });
    child.on('exit', (code) => reject(new Error(`${script} exited (${code}): ${log}`)));
  });
  return { child, port };
}

async function stopService({ child }) {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => { child.once('exit', resolve); });
  child.kill('SIGTERM');
  await exited;
}


let port;
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

/** fairmines-server's time in the addon, from its /metrics. */
async function coreSeconds() {
  const { body } = await request('GET', '/metrics');
  return Number(/^fairmines_core_seconds_total (\S+)$/m.exec(body)[1]);
}

/**
 * `conns` players at once, each in a loop for SECONDS: a round of 3 mines, reveals until a mine or 3 safe
 * picks, then a cash-out. A move is any of the three requests (each is one transaction).
 */
async function load(service, conns, duration = SECONDS) {
  const latencies = [];
  const post = async (route, body) => {
    const t = process.hrtime.bigint();
    const res = await request('POST', route, body);
    if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    latencies.push(Number(process.hrtime.bigint() - t) / 1e6);
    return res.body;
  };
  const fairmines = service.name === 'fairmines-server';
  const pid = service.child.pid;
  const before = { core: fairmines ? await coreSeconds() : 0, wal: await walPosition(), service: procStat(pid).cpu, postgres: postgresCpu(),
    load: process.cpuUsage() };
  const started = process.hrtime.bigint();
  const stopAt = Date.now() + duration * 1000;
  await Promise.all(Array.from({ length: conns }, async (_, i) => {
    const player = `bench-${service.name}-${conns}-${i}-${duration}`;
    while (Date.now() < stopAt) {
      const { round } = await post(`/v1/players/${player}/rounds`, { mines: 3 });
      let move = 0;
      let finished = false;
      for (let tile = 1; !finished && move < 3; tile += 1) finished = (await post(`/v1/players/${player}/rounds/${round}/reveal`, { tile, move: ++move })).finished;
      if (!finished) await post(`/v1/players/${player}/rounds/${round}/cash-out`, { move: ++move });
    }
  }));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const after = { service: procStat(pid).cpu, postgres: postgresCpu(), load: process.cpuUsage(before.load), wal: await walSince(before.wal),
    core: fairmines ? await coreSeconds() : 0 };
  const moves = latencies.length;
  latencies.sort((a, b) => a - b);
  const perMove = (s) => (1000 * s) / moves;
  const serviceCpu = after.service - before.service;
  return { rate: moves / seconds, p50: pct(latencies, 50), p99: pct(latencies, 99),
    serviceMs: perMove(serviceCpu), coreShare: fairmines ? (100 * (after.core - before.core)) / serviceCpu : null,
    postgresMs: perMove(after.postgres - before.postgres), walBytes: after.wal / moves,
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

// The hand-written service must place mines as fairmines does, or the comparison means nothing.
for (let nonce = 0; nonce < 200; nonce += 1) {
  const [server, client, mines] = ['11'.repeat(32), `client:${nonce}`, 1 + (nonce % 24)];
  const theirs = handwrittenMines(server, client, nonce, mines).join(',');
  const ours = Array.from(minePositions(server, client, BigInt(nonce), mines)).join(',');
  if (theirs !== ours) throw new Error(`the hand-written service's mines differ at nonce ${nonce}: ${theirs} vs ${ours}`);
}

const CONNECTIONS = [16, 128];
const results = {};
try {
  for (const spec of SERVICES) {
    const service = { ...spec, ...(await startService(spec)) };
    port = service.port;
    try {
      // Warm up first: the pool's connections opened, the JIT's code compiled, the statements' plans made.
      await load(service, 16, 2);
      results[spec.name] = {};
      for (const conns of CONNECTIONS) results[spec.name][conns] = await load(service, conns);
    } finally {
      agent.destroy();
      await stopService(service);
    }
  }
  results.pgbench = Object.fromEntries(CONNECTIONS.map((conns) => [conns, pgbench(conns)]));
} finally {
  await walPool.end();
  await embedded.stop({ always: true });
}

if (SERVICES.length < 3) {
  console.log(JSON.stringify(results, null, 1));
  process.exit(0);
}
const f1 = (x) => x.toFixed(1);
console.log(`fairmines-server benchmark: ${os.availableParallelism()} cores, Node ${process.version}, ${SECONDS} s per run, `
  + `one service process at a time (pool ${POOL}); load generator and PostgreSQL on the same machine\n`);
console.log('| service | connections | moves/s | p50 ms | p99 ms | CPU ms per move: service | of it fairmines | PostgreSQL '
  + '| load generator | WAL bytes per move |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const { name } of SERVICES) {
  for (const conns of CONNECTIONS) {
    const s = results[name][conns];
    console.log(`| ${name} | ${conns} | ${s.rate.toFixed(0)} | ${f1(s.p50)} | ${f1(s.p99)} | ${s.serviceMs.toFixed(3)} `
      + `| ${s.coreShare === null ? '' : `${f1(s.coreShare)}%`} | ${s.postgresMs.toFixed(3)} | ${s.loadMs.toFixed(3)} `
      + `| ${s.walBytes.toFixed(0)} |`);
  }
}
for (const conns of CONNECTIONS) console.log(`| pgbench one-row UPDATE | ${conns} | ${results.pgbench[conns].toFixed(0)} | | | | | | | |`);
console.log();
const result = (name, value, extra) => console.log(`BENCH ${JSON.stringify({ suite: 'server', name, value: Number(value.toFixed(2)), ...extra })}`);
for (const conns of CONNECTIONS) {
  const [ours, hand, floor] = ['fairmines-server', 'hand-written', 'floor'].map((n) => results[n][conns]);
  const vsHand = ours.rate / hand.rate;
  const vsFloor = (100 * ours.rate) / floor.rate;
  result(`server moves/s at ${conns} connections vs the hand-written service (${ours.rate.toFixed(0)} vs ${hand.rate.toFixed(0)})`,
    vsHand, { unit: 'x', target: 1.6, cmp: '>=', met: vsHand >= 1.6 });
  result(`server moves/s at ${conns} connections, % of the floor's (${ours.rate.toFixed(0)} vs ${floor.rate.toFixed(0)})`,
    vsFloor, { unit: '%', target: 50, cmp: '>=', met: vsFloor >= 50 });
  if (conns === 128) {
    result(`server p99 latency at ${conns} connections, ms, below the hand-written service's (p50 ${f1(ours.p50)} vs ${f1(hand.p50)})`,
      ours.p99, { unit: ' ms', target: Number(hand.p99.toFixed(1)), cmp: '<', met: ours.p99 < hand.p99 });
  } else {
    result(`server p99 latency at ${conns} connections, ms (hand-written ${f1(hand.p99)}, floor ${f1(floor.p99)})`, ours.p99,
      { unit: ' ms', cmp: 'info' });
  }
  result(`server: the fairmines addon's share of the service's CPU at ${conns} connections`, ours.coreShare,
    { unit: '%', target: 10, cmp: '<=', met: ours.coreShare <= 10 });
  // The table above, a row per service: what the ratios are made of, where the CPU goes.
  for (const { name } of SERVICES) {
    const s = results[name][conns];
    result(`server: ${name} at ${conns} connections: p50 ${f1(s.p50)} ms, p99 ${f1(s.p99)} ms; CPU ms per move: service `
      + `${s.serviceMs.toFixed(3)}${s.coreShare === null ? '' : ` (the addon ${f1(s.coreShare)}%)`}, PostgreSQL `
      + `${s.postgresMs.toFixed(3)}, load generator ${s.loadMs.toFixed(3)}; WAL ${s.walBytes.toFixed(0)} bytes per move`,
    s.rate, { unit: ' moves/s', cmp: 'info' });
  }
  result(`pgbench one-row UPDATEs/s at ${conns} connections on the same PostgreSQL (fairmines-server `
    + `${((100 * ours.rate) / results.pgbench[conns]).toFixed(0)}% of it)`, results.pgbench[conns], { unit: '/s', cmp: 'info' });
}
