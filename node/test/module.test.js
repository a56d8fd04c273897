'use strict';
// The package as users load it: require and import, the declared types, the generated seed.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const util = require('node:util');
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
  assert.deepEqual(named, cjs, 'index.mjs lists every function of index.js');
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
    'Verification', 'PublishedRound', 'ErrorKind']) {
    assert.match(dts, new RegExp(`\\*/\\nexport interface ${name} \\{`), `${name} is not declared with a doc comment`);
  }
  assert.doesNotMatch(dts, /RevealResult/, 'the reveal result is `Reveal` in every language');
  assert.match(dts, /^\/\* Generated .* do not edit/);
});

test('generateServerSeed: 64 hex characters, its commitment, distinct, hidden from inspection', () => {
  const a = fm.generateServerSeed();
  const b = fm.generateServerSeed();
  assert.match(a.serverSeed, /^[0-9a-f]{64}$/);
  assert.equal(a.commitment, fm.commitment(a.serverSeed));
  assert.notEqual(a.serverSeed, b.serverSeed);
  assert.deepEqual(Object.keys(a), ['serverSeed', 'commitment']);
  const { serverSeed, commitment } = a;
  assert.equal(serverSeed, a.serverSeed);
  assert.equal(commitment, a.commitment);
  for (const shown of [util.inspect(a), util.format('%o', a), util.format('%O', a), String(a), `${a}`]) {
    assert.ok(!shown.includes(a.serverSeed), `the seed shows in ${shown}`);
  }
  assert.ok(util.inspect(a).includes(a.commitment));
});
