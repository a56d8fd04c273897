// Shared by the tests: the repository's shared files, the CLI, and the error model of the package.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorKinds } from 'fairmines-wasm';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The shared vectors, read from the repository (never copied). */
export const loadVectors = () => JSON.parse(fs.readFileSync(path.join(repoRoot, 'vectors', 'vectors.json'), 'utf8'));

/** The CLI built by scripts/test-wasm.sh (`cargo build --release -p fairmines-cli`). */
export const CLI = process.env.FAIRMINES_CLI ?? path.join(repoRoot, 'target', 'release', 'fairmines');

const ERRNO = Object.fromEntries(errorKinds().map((kind) => [kind.code, kind.errno]));

/**
 * The error `fn` throws, checked against the error model of the Node package: its exact class, `code`,
 * `errno` (the core's number; absent for a TypeError), `argument`, and a message starting with `label: `.
 */
export function expectError(fn, Class, code, argument, label = argument) {
  let caught;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  assert.ok(caught, `expected ${Class.name} ${code}, nothing thrown`);
  const at = `${caught.constructor.name} ${caught.code}: ${caught.message}`;
  assert.equal(caught.constructor, Class, at);
  assert.equal(caught.code, code, at);
  assert.equal(caught.errno, ERRNO[code], `errno of ${at}`);
  assert.equal(caught.argument, argument, `argument of ${at}`);
  if (label !== undefined) assert.ok(caught.message.startsWith(`${label}: `), `message does not start with ${label}: ${at}`);
  return caught;
}
