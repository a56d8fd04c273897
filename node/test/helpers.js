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

/** `errno` of every `code` the core reports, from the package's own list (the core's `ErrorKind::ALL`). */
const ERRNO = Object.fromEntries(require('fairmines').errorKinds().map((kind) => [kind.code, kind.errno]));

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

module.exports = { repoRoot, loadVectors, loadReference, ERRNO, checkError, expectError };
