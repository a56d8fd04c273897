'use strict';
// The package as users load it: require and import, the declared types, the classes, the files it ships.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const fm = require('fairmines');

const API = [
  'commitment', 'drawOrder', 'errorKinds', 'generateServerSeed', 'maxSafePicks', 'minePositions', 'minePositionsBatch',
  'minePositionsBatchAsync', 'multiplier', 'payoutTable', 'recordFromJson', 'recordToJson', 'roundSignature',
  'verify', 'verifyRound',
];
const CLASSES = ['Ratio', 'Round', 'SeedPair'];

test('require("fairmines") exports the API', () => {
  for (const name of [...API, ...CLASSES]) assert.equal(typeof fm[name], 'function', name);
  for (const name of CLASSES) assert.equal(fm[name].name, name);
});

test('import from "fairmines" exports the same functions (index.mjs is generated from index.js)', async () => {
  const esm = await import('fairmines');
  for (const name of [...API, ...CLASSES]) assert.equal(esm[name], fm[name], name);
  assert.equal(esm.default, fm);
  const named = Object.keys(esm).filter((k) => k !== 'default').sort();
  const cjs = Object.keys(fm).filter((k) => typeof fm[k] === 'function').sort();
  assert.deepEqual(named, [...cjs, '__napiBindingTarget'].sort(), 'index.mjs lists every function of index.js, and the marker');
  // index.d.ts declares the loader's marker: ES modules can import it too.
  assert.equal(esm.__napiBindingTarget, 'native');
  assert.equal(fm.__napiBindingTarget, 'native');
  assert.match(fs.readFileSync(path.join(__dirname, '..', 'index.mjs'), 'utf8'), /^\/\* Generated .* do not edit/);
});

test('index.d.ts declares every export, with TSDoc', () => {
  const dts = fs.readFileSync(path.join(__dirname, '..', 'index.d.ts'), 'utf8');
  const declared = [...dts.matchAll(/export declare function (\w+)/g)].map((m) => m[1]).sort();
  assert.deepEqual(declared, [...API].sort());
  for (const name of API) {
    assert.match(dts, new RegExp(`\\*/\\nexport declare function ${name}\\(`), `${name} has no doc comment`);
  }
  const classes = [...dts.matchAll(/export declare class (\w+)/g)].map((m) => m[1]).sort();
  assert.deepEqual(classes, CLASSES);
  for (const name of CLASSES) {
    assert.match(dts, new RegExp(`\\*/\\nexport declare class ${name} \\{`), `${name} has no doc comment`);
  }
  for (const name of ['RoundRecord', 'RoundVerification', 'Reveal', 'TableEntry', 'PublicSeedPair', 'RevealedSeedPair',
    'Verification', 'PublishedRound', 'ErrorKind', 'RoundRecordInput', 'RoundRecordJson', 'RevealedSeedPairJson',
    'SafeReveal', 'MineReveal', 'NonceRange', 'BatchOptions', 'BatchAsyncOptions']) {
    assert.match(dts, new RegExp(`\\*/\\nexport interface ${name}( extends \\w+)? \\{`), `${name} is not declared with a doc comment`);
  }
  assert.doesNotMatch(dts, /RevealResult/, 'the reveal result is `Reveal` in every language');
  assert.match(dts, /^\/\* Generated .* do not edit/);
  assert.ok(dts.includes(fs.readFileSync(path.join(__dirname, '..', 'header.d.ts'), 'utf8').trimEnd()), 'header.d.ts at its top');
});

test('a class called without new throws a TypeError naming the class, and changes nothing', () => {
  for (const [Class, args] of [[fm.SeedPair, ['x']], [fm.Round, []]]) { // Ratio: in tests/js-conformance
    for (const call of [() => Class(...args), () => Class.call(fm, ...args), () => Class.apply({}, args)]) {
      const caught = (() => { try { call(); } catch (e) { return e; } return undefined; })();
      assert.ok(caught instanceof TypeError, `${Class.name}: ${caught}`);
      assert.match(caught.message, new RegExp(`^Class constructor ${Class.name} cannot be invoked without 'new'`));
    }
  }
  assert.equal(typeof fm.minePositions, 'function');
  assert.ok(new fm.SeedPair('x') instanceof fm.SeedPair);
  assert.ok(fm.SeedPair.fromParts('a'.repeat(64), 'c', 0) instanceof fm.SeedPair);
  assert.ok(new fm.SeedPair('x').startRound(3, '0.99') instanceof fm.Round);
  assert.equal(fm.SeedPair.name, 'SeedPair');
});

test('the npm package carries LICENSE-MIT and LICENSE-APACHE, the repository\'s own texts', () => {
  const root = path.join(__dirname, '..');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const pack = spawnSync(npm, ['pack', '--dry-run', '--json', '--ignore-scripts=false'], { cwd: root, encoding: 'utf8', timeout: 120_000, shell: process.platform === 'win32' });
  assert.equal(pack.status, 0, pack.stderr);
  const files = JSON.parse(pack.stdout)[0].files.map((f) => f.path).sort();
  for (const licence of ['LICENSE-MIT', 'LICENSE-APACHE']) {
    assert.ok(files.includes(licence), `${licence} is not in the package: ${files}`);
    assert.equal(fs.readFileSync(path.join(root, licence), 'utf8'), fs.readFileSync(path.join(root, '..', licence), 'utf8'), `${licence} is the root's`);
  }
  for (const file of ['index.js', 'index.mjs', 'index.d.ts', 'README.md', 'package.json', 'examples/play-round.mjs']) {
    assert.ok(files.includes(file), `${file} is not in the package`);
  }
  assert.ok(files.some((f) => f.endsWith('.node')), 'the addon is in the package');
  assert.ok(!files.some((f) => f.startsWith('test/') || f === 'header.d.ts'), 'nothing else');
});
