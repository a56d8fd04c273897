// The command as an operator runs it: no setup at all (its own PostgreSQL and keys under the working
// directory), two processes on one database, a restart that resumes a round, SIGTERM that drains.
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { SERVER_DIR } from './helpers.js';
import { killChildren, request as api, serve as serveIn } from './service-helpers.js';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'fairmines-server-cli-'));
// As root the database runs as an unprivileged user, which must be able to enter the working directory.
fs.chmodSync(work, 0o755);
after(() => {
  killChildren();
  fs.rmSync(work, { recursive: true, force: true });
});

/** Starts the command in `work` (by default) and resolves once it listens: its URL, its log so far, the process. */
const serve = (env = {}, cwd = work) => serveIn(env, cwd);

test('no setup: its own database and keys, two processes, a restart that resumes, SIGTERM drains', async () => {
  const first = await serve();
  const home = path.join(work, '.fairmines-server');
  for (const f of ['state.key', 'api.key']) {
    assert.equal(fs.statSync(path.join(home, f)).mode & 0o777, 0o600, f);
    assert.ok(first.log.includes(path.join(home, f)), `the log says where ${f} is`);
  }
  const key = fs.readFileSync(path.join(home, 'api.key'), 'utf8').trim();
  const stateKey = fs.readFileSync(path.join(home, 'state.key'), 'utf8').trim();
  assert.ok(!first.log.includes(key) && !first.log.includes(stateKey), 'no key in the log');
  assert.equal((await fetch(`${first.url}/healthz`)).status, 200);
  assert.equal((await api(first.url, 'GET', '/v1/history', 'wrong')).status, 401);

  // A second process on the same working directory shares the running database and the keys.
  const second = await serve();
  assert.ok(!second.log.includes('started PostgreSQL'), second.log);
  const { json: r } = await api(first.url, 'POST', '/v1/players/p1/rounds', key, { mines: 24 });
  const moved = await api(second.url, 'POST', `/v1/players/p1/rounds/${r.round}/reveal`, key, { tile: 1, move: 1 });
  assert.equal(moved.status, 200);
  const inPlay = (await api(second.url, 'POST', '/v1/players/p1/rounds', key, { mines: 1 })).json;
  second.child.kill('SIGTERM');
  assert.equal(await second.exited, 0);
  assert.match(second.log, /draining[\s\S]*stopped/);

  // The first one stops its database on SIGTERM; a restart finds the round in play and goes on with it.
  first.child.kill('SIGTERM');
  assert.equal(await first.exited, 0);
  assert.ok(!fs.existsSync(path.join(home, 'pg', 'postmaster.pid')), 'PostgreSQL stopped');
  const third = await serve();
  const seeds = await api(third.url, 'GET', '/v1/players/p1/seeds', key);
  assert.deepEqual(seeds.json.roundsInPlay, [{ round: inPlay.round, nonce: 1 }]);
  const done = await api(third.url, 'POST', `/v1/players/p1/rounds/${inPlay.round}/reveal`, key, { tile: 5, move: 1 });
  assert.equal(done.status, 200);
  third.child.kill('SIGTERM');
  assert.equal(await third.exited, 0);
});

// CI as root in a clone under /root or a `mktemp -d` folder: PostgreSQL, run as `nobody`, cannot enter the
// working directory. Its data goes to a folder of its own in the temporary folder, the same one on restart.
test('no setup as root from a folder of mode 0700: the data beside it, the same cluster after a restart', {
  skip: process.getuid?.() !== 0 && 'needs root',
}, async () => {
  const closed = fs.mkdtempSync(path.join(os.tmpdir(), 'fairmines-server-closed-'));
  assert.equal(fs.statSync(closed).mode & 0o777, 0o700);
  const home = path.join(closed, '.fairmines-server');
  const hash = createHash('sha256').update(fs.realpathSync(closed) + path.sep + '.fairmines-server').digest('hex').slice(0, 12);
  const pgHome = path.join(os.tmpdir(), `fairmines-server-${hash}`);
  try {
    const first = await serve({}, closed);
    assert.ok(first.log.includes(`cannot reach ${home}: its data is in ${path.join(pgHome, 'pg')}`), first.log);
    const st = fs.statSync(pgHome);
    assert.equal(st.mode & 0o777, 0o700);
    assert.notEqual(st.uid, 0, 'the data folder belongs to the unprivileged user');
    assert.ok(fs.existsSync(path.join(pgHome, 'pg', 'postmaster.pid')), 'PostgreSQL runs on it');
    for (const f of ['state.key', 'api.key', 'pg.json']) {
      assert.equal(fs.statSync(path.join(home, f)).mode & 0o777, 0o600, f);
    }
    const key = fs.readFileSync(path.join(home, 'api.key'), 'utf8').trim();
    assert.equal((await fetch(`${first.url}/healthz`)).status, 200);
    const { json: inPlay } = await api(first.url, 'POST', '/v1/players/p1/rounds', key, { mines: 1 });
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 0);
    assert.ok(!fs.existsSync(path.join(pgHome, 'pg', 'postmaster.pid')), 'PostgreSQL stopped');

    const again = await serve({}, closed);
    assert.ok(again.log.includes(path.join(pgHome, 'pg')), again.log);
    const seeds = await api(again.url, 'GET', '/v1/players/p1/seeds', key);
    assert.deepEqual(seeds.json.roundsInPlay, [{ round: inPlay.round, nonce: inPlay.nonce }]);
    again.child.kill('SIGTERM');
    assert.equal(await again.exited, 0);
  } finally {
    fs.rmSync(closed, { recursive: true, force: true });
    fs.rmSync(pgHome, { recursive: true, force: true });
  }
});

test('with DATABASE_URL it needs FAIRMINES_STATE_KEY, and refuses a key that is not 32 bytes', async () => {
  await assert.rejects(serve({ DATABASE_URL: 'postgres://127.0.0.1:1/x' }), /set FAIRMINES_STATE_KEY/);
  await assert.rejects(serve({ DATABASE_URL: 'postgres://127.0.0.1:1/x', FAIRMINES_STATE_KEY: 'abcd' }), /must be 32 bytes/);
});

test('at the most verbose log level the log shows no server seed and no key', async () => {
  const svc = await serve({ FAIRMINES_LOG_LEVEL: 'trace' });
  const home = path.join(work, '.fairmines-server');
  const key = fs.readFileSync(path.join(home, 'api.key'), 'utf8').trim();
  const stateKey = fs.readFileSync(path.join(home, 'state.key'), 'utf8').trim();
  const seeds = [];
  for (let i = 0; i < 3; i += 1) {
    const { json: r } = await api(svc.url, 'POST', '/v1/players/quiet/rounds', key, { mines: 3 });
    await api(svc.url, 'POST', `/v1/players/quiet/rounds/${r.round}/reveal`, key, { tile: 4, move: 1 });
    await api(svc.url, 'POST', `/v1/players/quiet/rounds/${r.round}/reveal`, key, { tile: 4, move: 1 });
    await api(svc.url, 'POST', `/v1/players/quiet/rounds/${r.round}/reveal`, key, { tile: 26, move: 2 });
    await api(svc.url, 'GET', `/v1/players/quiet/rounds/${r.round}`, key);
    await api(svc.url, 'POST', '/v1/players/quiet/rounds', key, { mines: 1 });
    const rotated = await api(svc.url, 'POST', '/v1/players/quiet/rotate', key, { void: true });
    assert.equal(rotated.status, 200);
    seeds.push(rotated.json.revealed.serverSeed);
  }
  // Refused requests are logged too: a wrong key, a body that is not JSON.
  assert.equal((await api(svc.url, 'GET', '/v1/players/quiet/seeds', 'wrong')).status, 401);
  assert.equal((await fetch(`${svc.url}/v1/players/quiet/rounds`, { method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{"mines": 3,' })).status, 400);
  const history = await (await fetch(`${svc.url}/v1/history`, { headers: { authorization: `Bearer ${key}` } })).text();
  assert.ok(seeds.every((seed) => history.includes(seed)), 'the export shows the revealed seeds');
  svc.child.kill('SIGTERM');
  assert.equal(await svc.exited, 0);
  assert.match(svc.log, /"reqId"/, 'requests are logged at this level');
  for (const seed of seeds) assert.ok(!svc.log.includes(seed), 'a server seed is in the log');
  assert.ok(!svc.log.includes(key) && !svc.log.includes(stateKey), 'a key is in the log');
});

// The suite runs as whoever runs it; as root (CI) the service above always hands PostgreSQL to `nobody`.
// Here the service itself runs as that normal user, from a copy it can read, in a folder of its own.
test('as a normal user: the no-setup start, a round, SIGTERM', {
  skip: process.getuid?.() !== 0 && 'the whole suite runs as a normal user here',
}, async () => {
  const [uid, gid] = ['-u', '-g'].map((flag) => Number(execFileSync('id', [flag, 'nobody'], { encoding: 'utf8' })));
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fairmines-server-user-'));
  let child;
  try {
    fs.chmodSync(base, 0o755);
    // The service with its node_modules, and the addon its `fairmines` link points to (../../node).
    fs.cpSync(SERVER_DIR, path.join(base, 'server'), { recursive: true, verbatimSymlinks: true,
      filter: (src) => !/\/\.fairmines-[a-z]+$/.test(src) });
    fs.cpSync(path.join(SERVER_DIR, '..', 'node'), path.join(base, 'node'), { recursive: true,
      filter: (src) => !src.endsWith('/node_modules') });
    const work = path.join(base, 'work');
    fs.mkdirSync(work, { mode: 0o700 });
    fs.chownSync(work, uid, gid);
    child = spawn(process.execPath, [path.join(base, 'server', 'bin', 'fairmines-server.js')], {
      cwd: work, uid, gid, stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, HOME: work, TMPDIR: work, PORT: '0' } });
    let log = '';
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.stdout.on('data', (d) => { log += d; });
    const url = await new Promise((resolve, reject) => {
      child.stderr.on('data', (d) => {
        log += d;
        const m = /listening on (http:\/\/\S+)/.exec(log);
        if (m) resolve(m[1]);
      });
      exited.then((code) => reject(new Error(`exited ${code}: ${log}`)));
    });
    const home = path.join(work, '.fairmines-server');
    assert.equal(fs.statSync(path.join(home, 'pg')).uid, uid, 'the data folder is the user\'s own, in its home');
    assert.equal(fs.statSync(path.join(home, 'state.key')).mode & 0o777, 0o600);
    const key = fs.readFileSync(path.join(home, 'api.key'), 'utf8').trim();
    const { status, json } = await api(url, 'POST', '/v1/players/p1/rounds', key, { mines: 3 });
    assert.equal(status, 201, JSON.stringify(json));
    assert.equal((await api(url, 'POST', `/v1/players/p1/rounds/${json.round}/cash-out`, key, { move: 1 })).status, 409);
    child.kill('SIGTERM');
    assert.equal(await exited, 0, log);
    assert.ok(!fs.existsSync(path.join(home, 'pg', 'postmaster.pid')), 'PostgreSQL stopped');
  } finally {
    child?.kill('SIGKILL');
    fs.rmSync(base, { recursive: true, force: true });
  }
});

test('without the addon built it says in one line what to run, instead of napi\'s hint', () => {
  // A clone where node/ was never built: the service's files beside a fairmines package without its addon.
  const dir = path.join(work, 'no-addon');
  for (const part of ['bin', 'src', 'migrations']) fs.cpSync(path.join(SERVER_DIR, part), path.join(dir, part), { recursive: true });
  fs.copyFileSync(path.join(SERVER_DIR, 'package.json'), path.join(dir, 'package.json'));
  const modules = path.join(SERVER_DIR, 'node_modules');
  for (const name of fs.readdirSync(modules).filter((n) => n !== 'fairmines' && !n.startsWith('.'))) {
    fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    fs.symlinkSync(path.join(modules, name), path.join(dir, 'node_modules', name));
  }
  const addon = path.join(dir, 'node_modules', 'fairmines');
  fs.mkdirSync(addon);
  for (const f of ['package.json', 'index.js', 'index.mjs']) fs.copyFileSync(path.join(SERVER_DIR, '..', 'node', f), path.join(addon, f));
  for (const args of [[], ['rekey']]) {
    let failure;
    try {
      execFileSync(process.execPath, [path.join(dir, 'bin', 'fairmines-server.js'), ...args],
        { cwd: dir, encoding: 'utf8', stdio: 'pipe', env: { PATH: process.env.PATH } });
    } catch (err) { failure = err; }
    assert.equal(failure?.status, 1, `fairmines-server ${args.join(' ')} exited 0`);
    assert.equal(failure.stderr, 'fairmines-server: the fairmines addon is not built: run `make serve` from the repository '
      + 'root, or install the service from a release (README.md, "Install from the release")\n');
  }
});
