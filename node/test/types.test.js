'use strict';
// index.d.ts is valid TypeScript and declares the documented types: test/types/usage.mts, which uses the
// whole game API (and marks what must not type-check), compiles with tsc --strict.
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

test('tsc --strict accepts test/types/usage.mts against index.d.ts', () => {
  const root = path.join(__dirname, '..');
  const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '--strict', '--target', 'es2022', '--lib', 'es2022',
    '--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node', path.join('test', 'types', 'usage.mts')],
  { cwd: root, encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
});
