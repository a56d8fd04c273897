// The state key (AES-256-GCM over the pair's state, which holds the secret server seed) and the API key.
import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from 'node:crypto';
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

// Sealed layout: version byte 1, 12-byte IV, 16-byte tag, ciphertext. The AAD binds a sealed state to its
// seed pair (its commitment), so a state copied onto another pair's row does not open.
export function seal(key, plaintext, aad) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), body]);
}

export function open(key, sealed, aad) {
  if (sealed[0] !== 1) throw new Error('sealed state: unknown version');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(1, 13));
  decipher.setAAD(Buffer.from(aad, 'utf8'));
  decipher.setAuthTag(sealed.subarray(13, 29));
  return Buffer.concat([decipher.update(sealed.subarray(29)), decipher.final()]).toString('utf8');
}

/**
 * A check of presented tokens against the API key, in constant time: both sides are SHA-256 digests
 * (equal lengths whatever was presented); the key's digest is made once.
 */
export function tokenChecker(apiKey) {
  const expected = createHash('sha256').update(apiKey).digest();
  return (presented) => timingSafeEqual(createHash('sha256').update(presented).digest(), expected);
}
