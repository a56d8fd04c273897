// The command as a child process on a test database: the service (resolves once it listens, or rejects
// with its log when it exits first) and `fairmines-server rekey`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { SERVER_DIR } from './helpers.js';

const BIN = path.join(SERVER_DIR, 'bin', 'fairmines-server.js');
const children = new Set();

/** Kills (SIGKILL) every child still running: for `after`. */
export function killChildren() {
  for (const c of children) c.kill('SIGKILL');
}

function launch(args, env, cwd) {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_URL|FAIRMINES_|PORT$)/.test(k)));
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...clean, PORT: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  const proc = { child, log: '' };
  proc.exited = new Promise((resolve) => child.on('exit', (code) => { children.delete(child); resolve(code); }));
  child.stdout.on('data', (d) => { proc.log += d; });
  child.stderr.on('data', (d) => { proc.log += d; });
  return proc;
}

/**
 * The service with `env`, in `cwd` (default: the test's); resolves with `{ url, log, child, exited, stop() }`
 * once it listens.
 */
export function serve(env, cwd) {
  const proc = launch([], env, cwd);
  return new Promise((resolve, reject) => {
    proc.child.stderr.on('data', () => {
      const m = /listening on (http:\/\/\S+)/.exec(proc.log);
      if (m && !proc.url) {
        proc.url = m[1];
        proc.stop = async () => { proc.child.kill('SIGTERM'); return proc.exited; };
        resolve(proc);
      }
    });
    proc.exited.then((code) => { if (!proc.url) reject(new Error(`exited ${code}: ${proc.log}`)); });
  });
}

/** `fairmines-server ...args` to its end: `{ code, log }`. */
export async function runCommand(args, env) {
  const proc = launch(args, env);
  const code = await proc.exited;
  return { code, log: proc.log };
}

/** A JSON request with a Bearer token: `{ status, json, headers }`. */
export async function request(url, method, route, token, body, headers = {}) {
  const res = await fetch(url + route, { method, signal: AbortSignal.timeout(10_000),
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  let json = null;
  try { json = JSON.parse(text); } catch { /* text */ }
  return { status: res.status, json, text, headers: res.headers };
}
