// The documentation runs: every js block of README.md as an ES module from this package's folder (what it
// prints compared with the comment after each console.log) and type-checked with tsc --strict against
// index.d.ts; the sh block names the make targets that exist.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { repoRoot } from './helpers.js';

const PACKAGE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const README = fs.readFileSync(path.join(PACKAGE, 'README.md'), 'utf8');
const blocks = (lang) => [...README.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]);

/** What a block says it prints: the comment after each `console.log(…)`, in order (one line each). */
function shownOutput(code) {
  return code.split('\n').filter((line) => line.includes('console.log(')).map((line) => {
    const shown = /\);?\s+\/\/ (.*)$/.exec(line);
    assert.ok(shown, `a console.log without the output it prints in a comment: ${line}`);
    return shown[1];
  });
}

test('every js block of README.md runs as an ES module and prints what its comments show', () => {
  const js = blocks('js');
  assert.ok(js.length >= 5, `${js.length} js blocks`);
  for (const code of js) {
    assert.match(code, /^import /m, 'every block is an ES module');
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: PACKAGE, encoding: 'utf8' });
    assert.equal(result.status, 0, `${code.slice(0, 200)}…\n${result.stderr}`);
    assert.deepEqual(result.stdout.split('\n').slice(0, -1), shownOutput(code), code.slice(0, 200));
  }
});

test('every js block of README.md passes tsc --strict against index.d.ts', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fairmines-wasm-readme-'));
  try {
    const files = blocks('js').map((code, i) => {
      fs.writeFileSync(path.join(dir, `block${i + 1}.mts`), code);
      return `block${i + 1}.mts`;
    });
    const compilerOptions = {
      strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], module: 'nodenext', moduleResolution: 'nodenext',
      types: ['node'], typeRoots: [path.join(PACKAGE, 'node_modules', '@types')],
      paths: { 'fairmines-wasm': [path.join(PACKAGE, 'index.d.ts')], 'fairmines-wasm/init': [path.join(PACKAGE, 'init.d.ts')] },
    };
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc', { paths: [PACKAGE] });
    const result = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the make targets of README.md exist and run the scripts it names', () => {
  const makefile = fs.readFileSync(path.join(repoRoot, 'Makefile'), 'utf8');
  for (const line of blocks('sh').join('').split('\n').filter(Boolean)) {
    const [, target, script] = /^make ([\w-]+)\s+# bash ([\w/.-]+)/.exec(line);
    assert.match(makefile, new RegExp(`^${target}:\\n\\tbash ${script.replace('.', '\\.')}$`, 'm'), line);
  }
  assert.deepEqual([...new Set([...README.matchAll(/^```(\w+)$/gm)].map((m) => m[1]))].sort(), ['html', 'js', 'sh']);
});
