// What the files of the conformance suite share: the shared vectors, the worked example's seeds, a round
// record, and the error model both JavaScript packages follow (checked against the package under test).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The shared vectors, read from the repository (never copied). */
export const loadVectors = () => JSON.parse(fs.readFileSync(path.join(repoRoot, 'vectors', 'vectors.json'), 'utf8'));

/** The seeds of the worked example of ALGORITHM.md, and its commitment. */
export const S = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
export const C = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
export const COMMITMENT = 'f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42';
/** The worked example played: tiles 1 and 2 safe, then cashed out (the core's JSON, as both packages write it). */
export const RECORD_JSON = `{"commitment":"${COMMITMENT}","client_seed":"${C}","nonce":1,"mines":3,"rtp":"99/100","picks":[1,2],"outcome":"cashed_out","multiplier":"9/7"}`;
export const LONE = 'a\uD800b'; // a lone surrogate: no UTF-8 form
export const WRONG_TYPES = [undefined, null, 3, 3n, true, {}, [], Symbol('x')];
export const T = TypeError;
export const R = RangeError;
export const TYPE = 'ERR_INVALID_ARG_TYPE';

/** The tiles 1..=25 that are not in `grid`. */
export const tilesBut = (grid) => [...Array(25).keys()].map((t) => t + 1).filter((t) => !grid.includes(t));

/**
 * The error model of the package `fm`: `checkError` checks a thrown error's exact class, its `code`, `errno`
 * (the core's number from `fm.errorKinds()`, absent for a TypeError), `argument`, and a message that starts
 * with `label: ` (the argument or the part of it at fault); `argument === undefined` means no argument is
 * at fault. `expectError` checks the error `fn` throws.
 */
export function errorModel(fm) {
  const ERRNO = Object.fromEntries(fm.errorKinds().map((kind) => [kind.code, kind.errno]));
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
  return { checkError, expectError };
}
