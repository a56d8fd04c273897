// The WebAssembly package in the cross-language test (scripts/test-cross.sh): round records played by
// the Node package (in this process) and by the Python package are read, written back byte for byte and
// verified by the WASM package; records the WASM package writes (recordToJson of rounds it replays from
// its own minePositions and multiplier) are verified by the Node package, the Python package and the C
// library; and every side rejects the same records with one field changed.
// Usage: node wasm/test/cross.mjs PYTHON VERIFY_ROUND_BINARY
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as wasm from 'fairmines-wasm';
import { repoRoot } from './helpers.js';

const [python, verifyRoundC] = process.argv.slice(2);
const node = createRequire(import.meta.url)(path.join(repoRoot, 'node', 'index.js'));
const CLIENT_SEEDS = ['', 'player seed', 'a:b:c', 'Grüße, 세계 🎲', 'x'.repeat(150)];
const RTPS = ['0.99', '97/100', '1', '0.5'];
const sha3 = (text) => createHash('sha3-256').update(text).digest('hex');

// A small deterministic generator (mulberry32), so that the rounds are the same on every run.
let state = 20261201;
const random = () => {
  state = (state + 0x6d2b79f5) | 0;
  let t = Math.imul(state ^ (state >>> 15), 1 | state);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
};
const pick = (list) => list[Math.floor(random() * list.length)];
const shuffled = (list) => list.map((x) => [random(), x]).sort((a, b) => a[0] - b[0]).map(([, x]) => x);

function parameters(i) {
  const mines = (i % 24) + 1;
  return {
    serverSeed: sha3(`cross-language wasm server seed ${i}`),
    clientSeed: CLIENT_SEEDS[i % CLIENT_SEEDS.length],
    nonce: pick([0n, 1n, 2n ** 32n, 2n ** 53n - 1n, 2n ** 64n - 2n, BigInt(Math.floor(random() * 2 ** 52)) * 4099n]),
    mines,
    rtp: RTPS[i % RTPS.length],
    picks: shuffled([...Array(25).keys()].map((t) => t + 1)).slice(0, i % 3 === 2 ? 1 : pick([1, 2, 1 + Math.floor(random() * (25 - mines))])),
  };
}

/** Plays a round through the Node package: the picks in order, then a cash-out (or void) if still in play. */
function playInNode({ serverSeed, clientSeed, nonce, mines, rtp, picks }, i) {
  const pair = node.SeedPair.fromParts(serverSeed, clientSeed, nonce);
  const round = pair.startRound(mines, rtp);
  for (const tile of picks) if (!round.isFinished) round.reveal(tile);
  if (!round.isFinished) (i % 3 === 2 ? () => pair.voidOpenRounds() : () => round.cashOut())();
  return node.recordToJson(round.record());
}

/** The same round replayed with the WASM package only: the picks against its board, its multiplier. */
function recordInWasm({ serverSeed, clientSeed, nonce, mines, rtp, picks }) {
  const board = new Set(wasm.minePositions(serverSeed, clientSeed, nonce, mines));
  const played = [];
  for (const tile of picks) {
    played.push(tile);
    if (board.has(tile)) break;
  }
  const lost = played.some((tile) => board.has(tile));
  return wasm.recordToJson({
    commitment: wasm.commitment(serverSeed),
    clientSeed,
    nonce,
    mines,
    rtp: wasm.Ratio.parse(rtp),
    picks: played,
    outcome: lost ? 'lost' : 'cashed_out',
    multiplier: lost ? null : wasm.multiplier(mines, played.length, rtp),
  });
}

/** Single-field changes no genuine round can explain (made on the text: a nonce may exceed 2^53). */
function tampered(json) {
  const commitment = /"commitment":"(.)/.exec(json);
  const changes = [json.replace(commitment[0], `"commitment":"${commitment[1] === '0' ? '1' : '0'}`)];
  const multiplier = /"multiplier":(null|"[^"]*")/;
  if (json.includes('"outcome":"cashed_out"')) {
    changes.push(json.replace('"outcome":"cashed_out"', '"outcome":"lost"').replace(multiplier, '"multiplier":null'));
    changes.push(json.replace(multiplier, '"multiplier":"1000"'));
  } else if (json.includes('"outcome":"voided"')) {
    changes.push(json.replace(multiplier, '"multiplier":"1"'));
  } else {
    changes.push(json.replace('"outcome":"lost"', '"outcome":"cashed_out"'));
  }
  return changes;
}

// Python: plays rounds (the same parameters, given as JSON lines) and verifies records, in one process each.
const PY_PLAY = `
import json, sys, fairmines
for line in sys.stdin:
    p = json.loads(line)
    pair = fairmines.SeedPair.from_parts(p["serverSeed"], p["clientSeed"], int(p["nonce"]))
    r = pair.start_round(p["mines"], p["rtp"])
    for tile in p["picks"]:
        if not r.is_finished:
            r.reveal(tile)
    if not r.is_finished:
        r.cash_out()
    print(r.record().to_json())
`;
const PY_VERIFY = `
import json, sys, fairmines
for line in sys.stdin:
    record_json, seed = json.loads(line)
    record = fairmines.RoundRecord.from_json(record_json)
    assert record.to_json() == record_json, (record.to_json(), record_json)
    print(json.dumps(fairmines.verify_round(record, seed).ok))
`;
function runPython(code, lines) {
  const run = spawnSync(python, ['-c', code], { input: lines.map((l) => `${l}\n`).join(''), encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return run.stdout.trim().split('\n');
}
const cVerifies = (json, seed) => {
  const status = spawnSync(verifyRoundC, [json, seed]).status;
  assert.ok(status === 0 || status === 1, `verify_round exited ${status} on ${json}`);
  return status === 0;
};

const rounds = Array.from({ length: 48 }, (_, i) => parameters(i));
const fromPython = runPython(PY_PLAY, rounds.map((p) => JSON.stringify({ ...p, nonce: String(p.nonce) })));
let read = 0;
let rejected = 0;
const outcomes = { lost: 0, cashed_out: 0, voided: 0 };
const wasmRecords = [];
rounds.forEach((p, i) => {
  // Records made elsewhere, read and verified here.
  for (const json of [playInNode(p, i), fromPython[i]]) {
    const record = wasm.recordFromJson(json);
    assert.equal(wasm.recordToJson(record), json, 'written back byte for byte');
    const verdict = wasm.verifyRound(record, p.serverSeed);
    assert.ok(verdict.ok, `${json}: ${verdict.differences}`);
    for (const change of tampered(json)) {
      assert.equal(wasm.verifyRound(wasm.recordFromJson(change), p.serverSeed).ok, false, change);
      rejected++;
    }
    outcomes[record.outcome]++;
    read++;
  }
  // A record made here, for the others.
  const json = recordInWasm(p);
  assert.equal(wasm.verifyRound(wasm.recordFromJson(json), p.serverSeed).ok, true, json);
  wasmRecords.push([json, p.serverSeed]);
});
// The WASM package's records: verified by Node, Python and C; their tampered forms rejected by all three.
const checks = wasmRecords.flatMap(([json, seed]) => [[json, seed, true], ...tampered(json).map((t) => [t, seed, false])]);
const pythonSays = runPython(PY_VERIFY, checks.map(([json, seed]) => JSON.stringify([json, seed])));
checks.forEach(([json, seed, genuine], i) => {
  assert.equal(node.verifyRound(node.recordFromJson(json), seed).ok, genuine, `Node on ${json}`);
  assert.equal(pythonSays[i], String(genuine), `Python on ${json}`);
  assert.equal(cVerifies(json, seed), genuine, `C on ${json}`);
});
assert.ok(Object.values(outcomes).every((n) => n >= 5), JSON.stringify(outcomes));
console.log(`cross-language (WASM): ${read} records from Node and Python verified by the WASM package `
  + `(${outcomes.lost} lost, ${outcomes.cashed_out} cashed out, ${outcomes.voided} voided), ${rejected} altered ones rejected; `
  + `${wasmRecords.length} records written by it verified by Node, Python and C, ${checks.length - wasmRecords.length} altered ones rejected by all three`);
