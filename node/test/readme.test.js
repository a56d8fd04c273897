'use strict';
// The documentation runs: every code block of README.md and of its reference page docs/node.md (each js
// block as an ES module, what it prints compared with the comment after each console.log, and type-checked
// with tsc --strict; the sh example of play-round.mjs; the install commands are the ones
// scripts/test-node.sh runs), the README's error table is errorKinds(), and examples/play-round.mjs, whose
// output the Python and C packages verify in the cross-language test.
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const fm = require('fairmines');
const { loadVectors, repoRoot } = require('./helpers');

const PACKAGE = path.join(__dirname, '..');

function node(args, input) {
  return spawnSync(process.execPath, args, { cwd: PACKAGE, encoding: 'utf8', input, timeout: 60_000 });
}

const README = fs.readFileSync(path.join(PACKAGE, 'README.md'), 'utf8');
// The README's reference page: its blocks are run and type-checked as the README's are.
const DOCS = fs.readFileSync(path.join(repoRoot, 'docs', 'node.md'), 'utf8');

/** The code blocks in the language `lang` of `text` (the README unless given). */
function blocks(lang, text = README) {
  return [...text.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]);
}

/** Every js block of the README, then of docs/node.md. */
function jsBlocks() {
  return [...blocks('js'), ...blocks('js', DOCS)];
}

/** What a block says it prints: the comment after each `console.log(…)`, in order (one line each). */
function shownOutput(code) {
  const lines = code.split('\n').filter((line) => line.includes('console.log('));
  return lines.map((line) => {
    const shown = /\);?\s+\/\/ (.*)$/.exec(line);
    assert.ok(shown, `a console.log without the output it prints in a comment: ${line}`);
    return shown[1];
  });
}

test('every js block of README.md and docs/node.md runs as an ES module and prints what its comments show', () => {
  const js = jsBlocks();
  assert.ok(blocks('js').length >= 4 && blocks('js', DOCS).length >= 1, `${js.length} js blocks`);
  for (const code of js) {
    assert.match(code, /^import /m, 'every block is an ES module');
    assert.doesNotMatch(code, /\brequire\(/, 'no require in an ES module');
    const result = node(['--input-type=module', '-e', code]);
    assert.equal(result.status, 0, `${code.slice(0, 200)}…\n${result.stderr}`);
    assert.deepEqual(result.stdout.split('\n').slice(0, -1), shownOutput(code), code.slice(0, 200));
  }
});

test('every js block of README.md and docs/node.md passes tsc --strict (as an .mts module, with @types/node)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fairmines-readme-'));
  try {
    const files = jsBlocks().map((code, i) => {
      fs.writeFileSync(path.join(dir, `block${i + 1}.mts`), code);
      return `block${i + 1}.mts`;
    });
    const compilerOptions = {
      strict: true, noEmit: true, target: 'es2022', lib: ['es2022'], module: 'nodenext', moduleResolution: 'nodenext',
      types: ['node'], typeRoots: [path.join(PACKAGE, 'node_modules', '@types')],
      paths: { fairmines: [path.join(PACKAGE, 'index.d.ts')] },
    };
    fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
    const tsc = require.resolve('typescript/bin/tsc', { paths: [PACKAGE] });
    const result = spawnSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the install commands of README.md are the ones scripts/test-node.sh runs', () => {
  const install = blocks('sh').find((block) => block.startsWith('cd node\n'));
  const script = fs.readFileSync(path.join(repoRoot, 'scripts', 'test-node.sh'), 'utf8');
  const commands = install.split('\n').map((line) => line.replace(/#.*/, '').trim()).filter(Boolean);
  assert.deepEqual(commands, ['cd node', 'npm ci', 'npm run build', 'npm test']);
  for (const command of commands.slice(1)) assert.ok(script.includes(command), `test-node.sh does not run ${command}`);
  assert.match(script, /npm_ci vectors/, 'the vectors\' packages, as the comment says');
});

test('the error table of README.md lists every kind of errorKinds(), with its errno, and no other', () => {
  const rows = [...README.matchAll(/^\| [^|]+ \| .+ \| `(\w+)` \| (\d+|—) \|$/gm)].map((m) => [m[1], m[2]]);
  const kinds = fm.errorKinds().map((kind) => [kind.code, String(kind.errno)]);
  const own = [['ERR_INVALID_ARG_TYPE', '—'], ['ERR_INVALID_THIS', '—'], ['ERR_ILLEGAL_CONSTRUCTOR', '—'],
    ['ERR_CONSTRUCT_CALL_REQUIRED', '—'], ['ABORT_ERR', '—'], ['FAIRMINES_PANIC', '—']];
  assert.deepEqual(rows.filter(([code]) => !own.some(([c]) => c === code)), kinds);
  assert.deepEqual(rows.filter(([code]) => own.some(([c]) => c === code)), own);
});

test('the sh example of examples/play-round.mjs in README.md runs and prints what it says', () => {
  const [command, ...shown] = blocks('sh').find((block) => block.startsWith('node examples/play-round.mjs')).split('\n# ');
  const result = spawnSync('sh', ['-c', command], { cwd: PACKAGE, encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 0, result.stderr);
  const pattern = shown.join('').replace(/\s+/g, '').replace(/[.*+?^${}()|[\]\\\/]/g, '\\$&').replace(/…/g, '[0-9a-f]*');
  assert.match(result.stdout.trim(), new RegExp(`^${pattern}$`));
});

test('README.md has no other code blocks than js and sh', () => {
  const langs = [...README.matchAll(/^```(\w*)$/gm)].map((m) => m[1]).filter(Boolean);
  assert.deepEqual([...new Set(langs)].sort(), ['js', 'sh']);
});

test('docs/node.md has no other code blocks than js', () => {
  const langs = [...DOCS.matchAll(/^```(\w*)$/gm)].map((m) => m[1]).filter(Boolean);
  assert.deepEqual([...new Set(langs)], ['js']);
});

const PLAY = path.join('examples', 'play-round.mjs');

/** Plays a round with the example and returns its record text and parsed output. */
function play(args) {
  const result = node([PLAY, ...args]);
  assert.equal(result.status, 0, result.stderr);
  const line = result.stdout;
  assert.ok(line.endsWith('}\n') && line.indexOf('\n') === line.length - 1, `one JSON line: ${line}`);
  const recordText = line.slice('{"record":'.length, line.lastIndexOf(',"server_seed":'));
  const parsed = JSON.parse(line);
  assert.deepEqual(Object.keys(parsed), ['record', 'server_seed']);
  return { recordText, parsed, stderr: result.stderr };
}

test('examples/play-round.mjs: records that verify, in the core\'s JSON, for every kind of ending', () => {
  const hex = loadVectors().cases.filter((v) => /^[0-9a-f]{64}$/.test(v.server_seed) && !v.client_seed.startsWith('-'));
  // A few kinds of round (each run is a process): the worked example, 1 and 24 mines, a rejected
  // draw, a Unicode client seed.
  const picked = [
    hex.find((v) => v.id === 'worked-example'),
    hex.find((v) => v.mines === 1),
    hex.find((v) => v.mines === 24),
    hex.find((v) => v.rejected.length > 0),
    hex.find((v) => /[^\x00-\x7f]/.test(v.client_seed)),
  ];
  assert.ok(picked.every(Boolean));
  for (const v of picked) {
    const safe = [...Array(25).keys()].map((t) => t + 1).filter((t) => !v.positions.includes(t));
    const endings = [
      [safe.slice(0, 2), 'cashed_out', 0], // cashed out after the last pick
      [[v.positions[0], safe[0]], 'lost', 1], // a mine at once; the pick after it is not played
      [safe, 'cashed_out', 0], // every safe tile: paid out by the round itself
    ];
    if (safe.length > 1) endings.push([[safe[0], v.positions[0]], 'lost', 0]);
    for (const [picks, outcome, leftOver] of endings) {
      const args = ['--server-seed', v.server_seed, '--client-seed', v.client_seed, '--nonce', String(v.nonce),
        '--mines', String(v.mines), '--rtp', '99/100', '--picks', picks.join(',')];
      const { recordText, parsed, stderr } = play(args);
      const at = `${v.id}: ${picks}`;
      assert.equal(parsed.server_seed, v.server_seed, at);
      const record = fm.recordFromJson(recordText);
      assert.equal(fm.recordToJson(record), recordText, `${at}: the core's text, byte for byte`);
      assert.deepEqual([record.outcome, record.nonce, record.mines, record.clientSeed, record.commitment],
        [outcome, BigInt(v.nonce), v.mines, v.client_seed, v.commitment], at);
      assert.deepEqual(record.picks, picks.slice(0, picks.length - leftOver), at);
      if (leftOver) assert.match(stderr, /1 pick\(s\) not played/, at);
      const verdict = fm.verifyRound(record, v.server_seed);
      assert.ok(verdict.ok, `${at}: ${verdict.differences}`);
      assert.deepEqual(verdict.minePositions, v.positions, at);
    }
  }
});

test('examples/play-round.mjs: a u64 nonce stays exact, and bad input exits 2 naming the argument', () => {
  const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
  const { recordText } = play(['--server-seed', S, '--client-seed', 'c', '--nonce', '18446744073709551614', '--mines', '1', '--rtp', '1', '--picks', '25']);
  assert.match(recordText, /"nonce":18446744073709551614,/);
  assert.ok(fm.verifyRound(fm.recordFromJson(recordText), S).ok);
  const base = { '--server-seed': S, '--client-seed': 'c', '--nonce': '1', '--mines': '3', '--rtp': '0.99', '--picks': '1' };
  const bad = [
    [{ '--mines': '25' }, /^FAIRMINES_INVALID_MINES: mines: /],
    [{ '--rtp': '1.5' }, /^FAIRMINES_INVALID_RTP: rtp: /],
    [{ '--server-seed': 'abc' }, /^FAIRMINES_INVALID_HEX: serverSeed: /],
    [{ '--picks': '1,1' }, /^FAIRMINES_TILE_ALREADY_REVEALED: tile: /],
    [{ '--picks': '0' }, /^FAIRMINES_INVALID_TILE: tile: /],
    [{ '--nonce': '18446744073709551616' }, /^FAIRMINES_INVALID_NONCE: nonce: /],
    [{ '--nonce': '-1' }, /^usage: /],
    [{ '--picks': 'a' }, /^usage: --picks/],
    [{ '--rtp': undefined }, /^usage: --rtp is required/],
  ];
  for (const [change, message] of bad) {
    const args = Object.entries({ ...base, ...change }).filter(([, v]) => v !== undefined).flat();
    const result = node([PLAY, ...args]);
    assert.equal(result.status, 2, `${JSON.stringify(change)}: ${result.stdout}${result.stderr}`);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, message);
  }
});
