'use strict';
// The package against the reference JavaScript of vectors/ (js-sha3), in the same process, on random
// rounds: random (well-formed) Unicode seeds, random nonces as numbers and bigints, every mine count.
// Set FAIRMINES_DIFF_SEED to replay a run; FAIRMINES_DIFF_ROUNDS to change its size.
const test = require('node:test');
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fm = require('fairmines');
const { loadReference } = require('./helpers');

const reference = loadReference();
const ROUNDS = Number(process.env.FAIRMINES_DIFF_ROUNDS || 10000);
const SEED = BigInt(process.env.FAIRMINES_DIFF_SEED || `0x${crypto.randomBytes(8).toString('hex')}`);

/** SplitMix64: a small PRNG, so that a failing run can be replayed from its seed. */
function prng(seed) {
  let state = BigInt.asUintN(64, seed);
  const next64 = () => {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
  const below = (n) => Number(next64() % BigInt(n));
  return { next64, below };
}

/** Code point ranges to draw from: ASCII (with ':' often), Latin-1, the rest of the BMP, astral planes. */
const RANGES = [
  [0x20, 0x7e], [0x3a, 0x3a], [0x00, 0x1f], [0xa0, 0xff], [0x100, 0x7ff], [0x800, 0xd7ff],
  [0xe000, 0xfffd], [0xfffd, 0xffff], [0x10000, 0x1ffff], [0x1f300, 0x1faff], [0x20000, 0x10ffff],
];

function randomText(rand) {
  const kind = rand.below(10);
  const length = kind === 0 ? 0 : kind < 8 ? rand.below(24) : 100 + rand.below(200); // > 136 bytes too
  let out = '';
  for (let i = 0; i < length; i++) {
    const [lo, hi] = RANGES[rand.below(RANGES.length)];
    out += String.fromCodePoint(lo + rand.below(hi - lo + 1));
  }
  return out;
}

function randomServerSeed(rand) {
  if (rand.below(4) > 0) {
    return Array.from({ length: 4 }, () => rand.next64().toString(16).padStart(16, '0')).join('');
  }
  return randomText(rand);
}

/** A nonce as the package takes it and as the reference takes it (both print the same decimal). */
function randomNonce(rand) {
  switch (rand.below(5)) {
    case 0: return rand.below(1000);
    case 1: return Number(rand.next64() >> 11n); // 0..2^53-1
    case 2: return Number.MAX_SAFE_INTEGER - rand.below(1000);
    case 3: return BigInt.asUintN(64, rand.next64()); // beyond 2^53: bigint only
    default: return BigInt(rand.below(2 ** 31));
  }
}

/** SHA3-256 by OpenSSL, over the exact UTF-8 bytes. */
const opensslSha3 = (text) => crypto.createHash('sha3-256').update(Buffer.from(text, 'utf8')).digest('hex');

/**
 * js-sha3 0.13.0 hashes a string wrongly when its last character is multi-byte in UTF-8 and straddles
 * a 136-byte (SHA3-256 rate) boundary. Signatures end with the nonce's digits and the SHAKE input is
 * hex, so only the commitment of an unusual (non-hex) server seed can meet it; there the package
 * follows the SHA-3 standard (checked against OpenSSL), not the reference.
 */
function jsSha3Misreads(text) {
  const chars = [...text];
  if (chars.length === 0) return false;
  const last = Buffer.byteLength(chars[chars.length - 1]);
  const total = Buffer.byteLength(text);
  return last > 1 && Math.floor((total - last) / 136) !== Math.floor((total - 1) / 136);
}

test('the js-sha3 end-of-message boundary case: the package follows the SHA-3 standard', (t) => {
  const seed = `${'a'.repeat(134)}\uf4a8`; // 137 bytes, the last character on bytes 134..136
  assert.ok(jsSha3Misreads(seed));
  assert.equal(fm.commitment(seed), opensslSha3(seed));
  t.diagnostic(`reference.commitment: ${reference.commitment(seed)}; SHA-3 (OpenSSL, this package): ${opensslSha3(seed)}`);
});

test(`${ROUNDS} random rounds agree with vectors/reference.js (seed ${SEED})`, (t) => {
  const rand = prng(SEED);
  const counts = new Array(25).fill(0);
  let bigNonces = 0;
  let misread = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const server = randomServerSeed(rand);
    const client = randomText(rand);
    const nonce = randomNonce(rand);
    const mines = (i % 24) + 1;
    counts[mines] += 1;
    if (typeof nonce === 'bigint' && nonce > BigInt(Number.MAX_SAFE_INTEGER)) bigNonces += 1;
    const at = `round ${i} of seed ${SEED}: ${JSON.stringify({ server, client, nonce: String(nonce), mines })}`;
    const expected = reference.round(server, client, nonce, mines);
    assert.equal(fm.commitment(server), opensslSha3(server), at);
    if (jsSha3Misreads(server)) {
      misread += 1;
    } else {
      assert.equal(fm.commitment(server), expected.commitment, at);
    }
    assert.equal(fm.roundSignature(server, client, nonce), expected.signature, at);
    assert.deepEqual(fm.drawOrder(server, client, nonce, mines), expected.drawOrder, at);
    assert.deepEqual(fm.minePositions(server, client, nonce, mines), expected.positions, at);
    // Numbers that are safe integers also go through as bigints, and the other way round.
    const other = typeof nonce === 'bigint' ? (nonce <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(nonce) : null) : BigInt(nonce);
    if (other !== null) {
      assert.deepEqual(fm.minePositions(server, client, other, mines), expected.positions, at);
    }
  }
  assert.ok(counts.slice(1).every((n) => n >= Math.floor(ROUNDS / 24)), 'every mine count is covered');
  assert.ok(ROUNDS < 1000 || bigNonces > ROUNDS / 10, 'nonces beyond 2^53 are covered');
  t.diagnostic(`${misread} server seeds hit the js-sha3 boundary case (commitment checked against OpenSSL only)`);
});

test('random batches agree with the reference, sync and async', async () => {
  const rand = prng(SEED ^ 0x5a5an);
  for (let b = 0; b < 48; b++) {
    const server = randomServerSeed(rand);
    const client = randomText(rand);
    const mines = (b % 24) + 1;
    const nonces = Array.from({ length: 1 + rand.below(60) }, () => randomNonce(rand));
    const expected = Uint8Array.from(nonces.flatMap((n) => reference.minePositions(server, client, n, mines)));
    const at = `batch ${b} of seed ${SEED}`;
    assert.deepEqual(fm.minePositionsBatch(server, client, nonces, mines), expected, at);
    const typed = BigUint64Array.from(nonces, (n) => BigInt(n));
    assert.deepEqual(await fm.minePositionsBatchAsync(server, client, typed, mines), expected, at);
  }
});

test('minePositions: every tile in and out of the list, fresh plain arrays, Array.prototype untouched', () => {
  // The list is built in JavaScript from a bit mask (see TILE_LIST_JS in bindings/node/src/lib.rs):
  // one mine lands on every tile 1..25, and with 24 mines every tile is the one left free.
  const server = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
  const client = 'tile list';
  for (const mines of [1, 24]) {
    const seen = new Set();
    for (let nonce = 0; seen.size < 25 && nonce < 5000; nonce++) {
      const got = fm.minePositions(server, client, nonce, mines);
      assert.deepEqual(got, reference.minePositions(server, client, nonce, mines), `${mines} mines, nonce ${nonce}`);
      assert.equal(got.length, mines);
      assert.equal(Object.keys(got).length, mines, 'no holes');
      for (let tile = 1; tile <= 25; tile++) {
        if (got.includes(tile) === (mines === 1)) seen.add(tile);
      }
    }
    assert.equal(seen.size, 25, `${mines} mines: every tile covered`);
  }
  const first = fm.minePositions(server, client, 7, 3);
  first.push(99);
  first[0] = 0;
  assert.deepEqual(fm.minePositions(server, client, 7, 3), reference.minePositions(server, client, 7, 3));
  // The list does not go through Array.prototype.push (which user code may replace).
  const push = Array.prototype.push;
  let got;
  Array.prototype.push = () => { throw new Error('Array.prototype.push was called'); };
  try {
    got = fm.minePositions(server, client, 7, 24);
  } finally {
    Array.prototype.push = push;
  }
  assert.deepEqual(got, reference.minePositions(server, client, 7, 24));
});
