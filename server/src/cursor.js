// Opaque cursors of the listings that page by keyset (a player's rounds, the export): the last key of a page,
// written so that a client passes it back as it is and cannot mistake it for a number or a time.
import { ApiError } from './errors.js';

/** An opaque cursor for `parts` (numbers and strings that hold no '.'), and back. */
export function encodeCursor(...parts) {
  return Buffer.from(parts.join('.')).toString('base64url');
}

/** The parts of `cursor`, each checked by `patterns` (regular expressions); a 400 naming `cursor` otherwise. */
export function decodeCursor(cursor, patterns) {
  const parts = Buffer.from(cursor, 'base64url').toString().split('.');
  if (parts.length !== patterns.length || !parts.every((p, i) => patterns[i].test(p))) {
    throw new ApiError(400, 'FAIRMINES_INVALID_REQUEST', 'cursor: not a cursor this listing gave', 'cursor');
  }
  return parts;
}
