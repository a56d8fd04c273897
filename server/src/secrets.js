// Reading secrets: the state keys (sealing is in keys.js), key files of the no-setup start, and the check
// of Bearer tokens.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** 32 bytes from 64 hex characters or base64; anything else is refused (a short key is a weak key). */
export function parseKey(text) {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  if (/^[A-Za-z0-9+/]{43}=?$/.test(t)) return Buffer.from(t, 'base64');
  throw new Error('FAIRMINES_STATE_KEY must be 32 bytes: 64 hex characters or 44 of base64');
}

/**
 * A secret from the environment, else from a file under home, made (mode 0600) on first use. `made` says
 * where it was written, for the log (the secret itself is never logged).
 */
export function secretFromFileOrNew(file, bytes, encoding) {
  if (fs.existsSync(file)) return { text: fs.readFileSync(file, 'utf8').trim(), made: null };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const text = randomBytes(bytes).toString(encoding);
  // wx: two processes starting at once must not both write a different key; the loser reads the winner's.
  try {
    fs.writeFileSync(file, `${text}\n`, { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if (err.code === 'EEXIST') return { text: fs.readFileSync(file, 'utf8').trim(), made: null };
    throw err;
  }
  return { text, made: file };
}

/** A comma-separated list of secrets (`FAIRMINES_API_KEY=new,old`): each trimmed; an empty one is refused. */
export function secretList(text, name) {
  const list = text.split(',').map((s) => s.trim());
  if (list.some((s) => s === '')) throw new Error(`${name}: an empty key in the comma-separated list`);
  return list;
}

/** The state keys of `FAIRMINES_STATE_KEY` (or its file): one or more, comma-separated, the sealing key first. */
export function parseKeys(text) {
  return secretList(text, 'FAIRMINES_STATE_KEY').map(parseKey);
}

/**
 * A check of presented tokens against several accepted ones, in constant time: every side is a SHA-256
 * digest (equal lengths whatever was presented), each accepted one compared without stopping at a match;
 * their digests are made once.
 */
export function tokenChecker(tokens) {
  const expected = (Array.isArray(tokens) ? tokens : [tokens]).map((t) => createHash('sha256').update(t).digest());
  return (presented) => {
    const digest = createHash('sha256').update(presented).digest();
    let match = false;
    for (const e of expected) match = timingSafeEqual(digest, e) || match;
    return match;
  };
}
