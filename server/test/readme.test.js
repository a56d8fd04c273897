// README.md's shell and Node blocks, run as written, in order, in one shell from this folder (a Node block by
// node, with the shell's URL): the service on a free port with its home in a scratch folder, the fairmines
// command on PATH.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { SERVER_DIR, fairminesCli } from './helpers.js';

const freePort = () => new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
});

test("README.md's shell and Node blocks run and the export they check verifies", async () => {
  const text = fs.readFileSync(path.join(SERVER_DIR, 'README.md'), 'utf8');
  // From a clone: the untagged blocks and the one tagged `<!-- clone: … -->` (make test-dist runs the release's);
  // a Node block by node, with the shell's URL.
  const blocks = [...text.matchAll(/(?:<!-- (\w+): \S+ -->\n)?```(sh|js)\n([\s\S]*?)```/g)]
    .filter((m) => m[1] === undefined || m[1] === 'clone')
    .map(([, , lang, code]) => (lang === 'sh' ? code : `URL="$URL" node --input-type=module <<'README_JS'\n${code}README_JS\n`));
  assert.equal(blocks.length, 4);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'fairmines-readme-'));
  fs.chmodSync(home, 0o755);
  try {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(DATABASE_URL|FAIRMINES_)/.test(k)));
    const r = spawnSync('bash', ['-euo', 'pipefail', '-c', blocks.join('\n')], {
      cwd: SERVER_DIR, encoding: 'utf8', timeout: 120_000,
      env: { ...env, PORT: String(await freePort()), FAIRMINES_HOME: path.join(home, 'svc'), TMPDIR: home,
        PATH: `${path.dirname(fairminesCli())}:${process.env.PATH}` },
    });
    assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
    const out = r.stdout.split('\n');
    assert.ok(out.includes('{"ok":true}'));
    const reveals = out.filter((l) => l.startsWith('{"tile":7,'));
    assert.equal(reveals.length, 2);
    assert.equal(reveals[0], reveals[1], 'the retry got the same answer');
    assert.match(r.stdout, /"record":\{"commitment":"[0-9a-f]{64}"/);
    assert.match(r.stdout, /"roundsInPlay":\[\{"round":"[0-9a-f-]{36}","nonce":1\}\]/);
    assert.match(r.stdout, /"revealed":\{"serverSeed":"[0-9a-f]{64}"/);
    assert.match(r.stdout, /^#server_seed=[0-9a-f]{64}&client_seed=[^&]+&nonce=0&mines=24&commitment=[0-9a-f]{64}&positions=[\d,]+$/m);
    assert.match(r.stdout, /verdict: OK/);
    assert.match(r.stdout, /^fairmines-server: OpenAPI 3\.1\.0, \d+ paths$/m);
    assert.match(r.stdout, /^tile 13 is (safe: ×\d+([./]\d+)?|the mine)$/m);
    assert.match(r.stdout, /^409 FAIRMINES_MOVE_OUT_OF_ORDER$/m);
    assert.match(r.stderr, /draining[\s\S]*stopped/);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
});
