'use strict';
// Shared by the tests: where the repository's shared files are, and the package under test.
const path = require('node:path');
const fs = require('node:fs');
const assert = require('node:assert/strict');

const repoRoot = path.resolve(__dirname, '..', '..');

/** The shared vectors, read from the repository (never copied). */
function loadVectors() {
  const file = path.join(repoRoot, 'vectors', 'vectors.json');
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The reference JavaScript implementation of `vectors/` (js-sha3), loaded in this process. */
function loadReference() {
  return require(path.join(repoRoot, 'vectors', 'reference.js'));
}

/** The core's stable numbers (README of the repository), written out here independently of the binding. */
const ERRNO = {
  FAIRMINES_INVALID_MINES: 1,
  FAIRMINES_INVALID_NONCE: 2,
  FAIRMINES_INVALID_TILE: 3,
  FAIRMINES_INVALID_HEX: 4,
  FAIRMINES_INVALID_UTF8: 5,
  FAIRMINES_STREAM_EXHAUSTED: 6,
  FAIRMINES_RNG: 7,
  FAIRMINES_BUFFER_SIZE: 8,
  FAIRMINES_TILE_ALREADY_REVEALED: 9,
  FAIRMINES_ROUND_FINISHED: 10,
  FAIRMINES_NOTHING_TO_CASH_OUT: 11,
  FAIRMINES_INVALID_RTP: 12,
  FAIRMINES_INVALID_PICKS: 13,
  FAIRMINES_INVALID_NUMBER: 14,
  FAIRMINES_INVALID_STATE: 15,
  FAIRMINES_ROUNDS_IN_PLAY: 16,
  FAIRMINES_ROUND_VOIDED: 17,
};

/**
 * Checks a thrown error against the package's error model: its exact class, its `code`, `errno` (the
 * core's number, absent for a TypeError), `argument`, and a message that starts with `label:` (the
 * argument or the part of it at fault). `argument === undefined` means no argument is at fault.
 */
function checkError(caught, Class, code, argument, label = argument) {
  assert.ok(caught, `expected ${Class.name} ${code}, nothing thrown`);
  const at = `${caught.constructor.name} ${caught.code}: ${caught.message}`;
  assert.equal(caught.constructor, Class, at);
  assert.equal(caught.code, code, at);
  assert.equal(caught.errno, ERRNO[code], `errno of ${at}`);
  assert.equal(caught.argument, argument, `argument of ${at}`);
  if (label !== undefined) assert.ok(caught.message.startsWith(`${label}: `), `message does not start with ${label}: ${at}`);
  return caught;
}

/** The error `fn` throws, checked with {@link checkError}. */
function expectError(fn, Class, code, argument, label = argument) {
  let caught;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught, `expected ${Class.name} ${code}, nothing thrown: ${fn}`);
  return checkError(caught, Class, code, argument, label);
}

/** A small seeded PRNG (mulberry32) so that randomized tests replay exactly from their seed. */
function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)); // inclusive
  const pick = (list) => list[Math.floor(next() * list.length)];
  const hex = (n) => Array.from({ length: n }, () => '0123456789abcdef'[int(0, 15)]).join('');
  return { next, int, pick, hex };
}

/** The seed of a randomized test: `FAIRMINES_<NAME>_SEED` when set (to replay a run), else a fresh one. */
function testSeed(name) {
  const fromEnv = process.env[`FAIRMINES_${name}_SEED`];
  return fromEnv !== undefined ? Number(fromEnv) >>> 0 : (Math.random() * 2 ** 32) >>> 0;
}

module.exports = { repoRoot, loadVectors, loadReference, ERRNO, checkError, expectError, prng, testSeed };
