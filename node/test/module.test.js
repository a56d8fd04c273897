'use strict';
// The package as users load it: require and import, the declared types, the classes, the files it ships.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const fm = require('fairmines');

const API = [
  'checkStake', 'commitment', 'drawOrder', 'errorKinds', 'generateServerSeed', 'maxSafePicks', 'minePositions',
  'minePositionsBatch', 'minePositionsBatchAsync', 'multiplier', 'payout', 'payoutTable', 'recordFromJson',
  'recordToJson', 'roundSignature', 'verify', 'verifyRound',
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
      assert.deepEqual([caught.code, 'argument' in caught], ['ERR_CONSTRUCT_CALL_REQUIRED', false]);
    }
  }
  assert.equal(typeof fm.minePositions, 'function');
  assert.ok(new fm.SeedPair('x') instanceof fm.SeedPair);
  assert.ok(fm.SeedPair.fromParts('a'.repeat(64), 'c', 0) instanceof fm.SeedPair);
  assert.ok(new fm.SeedPair('x').startRound(3, '0.99') instanceof fm.Round);
  assert.equal(fm.SeedPair.name, 'SeedPair');
});

test('napi-level failures are TypeErrors of the error model: detached statics, methods and getters; new of a class with no constructor', () => {
  const { checkError } = require('./helpers');
  const thrown = (fn) => { try { fn(); } catch (e) { return e; } assert.fail(`nothing thrown: ${fn}`); };
  const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
  // A static factory detached from its class (napi-rs threw its own Error, code 'InvalidArg').
  const { fromParts, fromStateJson } = fm.SeedPair;
  const { parse } = fm.Ratio;
  for (const [call, Class, name] of [[() => fromParts(S, 'c', 1), 'SeedPair', 'fromParts'],
    [() => fromStateJson('{}'), 'SeedPair', 'fromStateJson'], [() => parse('1/2'), 'Ratio', 'parse'],
    [() => fm.SeedPair.fromParts.call(null, S, 'c', 1), 'SeedPair', 'fromParts'],
    [() => fm.SeedPair.fromParts.call(fm.Ratio, S, 'c', 1), 'SeedPair', 'fromParts']]) {
    const caught = checkError(thrown(call), TypeError, 'ERR_INVALID_THIS', 'this');
    assert.match(caught.message, new RegExp(`^this: must be ${Class}, got .* \\(call ${Class}\\.${name}\\(…\\)`));
  }
  // Bound to the class, or called on a subclass, they work as before.
  assert.ok(fromParts.call(fm.SeedPair, S, 'c', 1) instanceof fm.SeedPair);
  assert.equal(fm.SeedPair.fromParts.name, 'fromParts');
  class Mine extends fm.SeedPair {}
  assert.ok(Mine.fromParts(S, 'c', 1) instanceof fm.SeedPair);
  assert.equal(new Mine('c').publicPart.nonce, 0n);
  // Methods and getters on anything but an instance (napi-rs: V8's 'Illegal invocation', or 'InvalidArg').
  const pair = fm.SeedPair.fromParts(S, 'c', 1);
  const round = pair.startRound(3, '0.99');
  const ratio = new fm.Ratio(1, 2);
  const getter = (Class, key) => Object.getOwnPropertyDescriptor(Class.prototype, key).get;
  for (const [call, Class, got] of [
    [() => { const { startRound } = pair; return startRound(3, '0.99'); }, 'SeedPair', 'undefined'],
    [() => fm.SeedPair.prototype.startRound.call(round, 3, '0.99'), 'SeedPair', 'a Round'],
    [() => fm.SeedPair.prototype.toStateJson.call({}), 'SeedPair', 'an object'],
    [() => getter(fm.SeedPair, 'publicPart').call({}), 'SeedPair', 'an object'],
    [() => { const { reveal } = round; return reveal(1); }, 'Round', 'undefined'],
    [() => getter(fm.Round, 'nonce').call(pair), 'Round', 'a SeedPair'],
    [() => fm.Round.prototype.toString.call({}), 'Round', 'an object'],
    [() => getter(fm.Ratio, 'text').call(3), 'Ratio', 'number'],
    [() => fm.Ratio.prototype.toDecimal.call(null, 2), 'Ratio', 'null'],
  ]) {
    const caught = checkError(thrown(call), TypeError, 'ERR_INVALID_THIS', 'this');
    assert.ok(caught.message.startsWith(`this: must be a ${Class}, got ${got} (`), caught.message);
  }
  assert.equal(pair.publicPart.nonce, 2n, 'nothing changed');
  assert.deepEqual([round.picks, ratio.text, round.reveal.name], [[], '1/2', 'reveal']);
  // new of a class with no constructor, and of a subclass of it (napi-rs: an Error with no code).
  for (const make of [() => new fm.Round(), () => { class Mine extends fm.Round {} return new Mine(); }]) {
    const caught = checkError(thrown(make), TypeError, 'ERR_ILLEGAL_CONSTRUCTOR', undefined);
    assert.match(caught.message, /^Illegal constructor: Round has no constructor \(a Round comes from seedPair\.startRound/);
  }
  assert.ok(round instanceof fm.Round && pair instanceof fm.SeedPair && ratio instanceof fm.Ratio);
  assert.equal(fm.Round.prototype, Object.getPrototypeOf(round));
  // A Ratio is a JavaScript class over the core's text: a subclass is a Ratio everywhere one is taken; an
  // object that only has its prototype holds no text, and is refused as `this` and as an argument.
  class Half extends fm.Ratio { constructor() { super(1, 2); } }
  assert.deepEqual([new Half().text, fm.multiplier(1, 1, new Half()).text, new Half().equals(ratio)], ['1/2', fm.multiplier(1, 1, '1/2').text, true]);
  const forged = Object.create(fm.Ratio.prototype);
  checkError(thrown(() => forged.text), TypeError, 'ERR_INVALID_THIS', 'this');
  checkError(thrown(() => forged.toDecimal(2)), TypeError, 'ERR_INVALID_THIS', 'this');
  for (const [call, argument] of [[() => pair.startRound(3, forged), 'rtp'], [() => ratio.equals(forged), 'other'],
    [() => fm.multiplier(1, 1, { text: '1/2' }), 'rtp']]) {
    const caught = checkError(thrown(call), TypeError, 'ERR_INVALID_ARG_TYPE', argument);
    assert.match(caught.message, /: must be a string such as '0\.99' or '99\/100', or a Ratio, got object$/);
  }
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
