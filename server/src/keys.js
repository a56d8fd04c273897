// The state keys: AES-256-GCM over a seed pair's state (which holds the secret server seed). Several keys
// may be configured at once so that they can be rotated: the first seals, every one opens. Each key has an
// id, a fingerprint that names it in sealed states, in the database and in messages without revealing it.
import { createCipheriv, createDecipheriv, createHmac, randomFillSync } from 'node:crypto';
import { sql } from './sql.js';

// Sealed layouts. Version 1 (the first one): 1, 12-byte IV, 16-byte tag, ciphertext. Version 2: 2, the
// 8-byte id of the sealing key, 12-byte IV, 16-byte tag, ciphertext. The AAD binds a sealed state to its
// seed pair (its commitment), so a state copied onto another pair's row does not open; in version 2 the
// header (version and key id) is authenticated too.
const V2 = 2;
const ID_BYTES = 8;
const HEADER = 1 + ID_BYTES;

// A seal's IV: 12 bytes of the OS CSPRNG, taken from a pool filled 340 IVs at a time (as node:crypto pools
// the randomness of randomUUID): one call into the CSPRNG per 340 seals instead of one per seal, which was
// 5% of the service's CPU. No byte of the pool is handed out twice.
const IV_BYTES = 12;
const ivPool = Buffer.alloc(IV_BYTES * 340);
let ivNext = ivPool.length;

/** A fresh IV, a view of the pool: use it before the next call (seal does, synchronously). */
function freshIv() {
  if (ivNext === ivPool.length) {
    randomFillSync(ivPool);
    ivNext = 0;
  }
  ivNext += IV_BYTES;
  return ivPool.subarray(ivNext - IV_BYTES, ivNext);
}

/** The id of a key: the first 8 bytes of HMAC-SHA-256 under the key over a fixed label, in hex. */
export function keyId(key) {
  return createHmac('sha256', key).update('fairmines-server state key id').digest().subarray(0, ID_BYTES).toString('hex');
}

/** The id of the key that sealed `sealed` (hex), or null for a version 1 state (it names none). */
export function sealedBy(sealed) {
  return sealed[0] === V2 ? sealed.subarray(1, HEADER).toString('hex') : null;
}

function decrypt(key, iv, tag, body, aad) {
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
}

/**
 * A sealed state that none of these keys opens because it was sealed under a key they lack: `keyId` names
 * that key (null for a state of the first layout, which names none). Not a broken state: a process that
 * holds the key opens it.
 */
export class UnknownStateKey extends Error {
  constructor(message, keyId) {
    super(message);
    this.name = 'UnknownStateKey';
    this.keyId = keyId;
  }
}

export class StateKeys {
  /** `keys`: 32-byte Buffers, the sealing key first. */
  constructor(keys) {
    if (keys.length === 0) throw new Error('no state key');
    this.keys = keys.map((key) => ({ key, id: keyId(key) }));
    this.byId = new Map(this.keys.map((k) => [k.id, k]));
    this.current = this.keys[0];
    this.header = Buffer.concat([Buffer.from([V2]), Buffer.from(this.current.id, 'hex')]);
  }

  /** A StateKeys from itself, one key (a Buffer) or a list of keys. */
  static from(keys) {
    if (keys instanceof StateKeys) return keys;
    return new StateKeys(Buffer.isBuffer(keys) ? [keys] : keys);
  }

  get ids() {
    return this.keys.map((k) => k.id);
  }

  /** `plaintext` sealed under the current key, bound to `aad` (the pair's commitment). */
  seal(plaintext, aad) {
    const iv = freshIv();
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.concat([this.header, Buffer.from(aad, 'utf8')]));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([this.header, iv, cipher.getAuthTag(), body]);
  }

  /** The plaintext of a state sealed under any of these keys, in either layout; throws when none opens it. */
  open(sealed, aad) {
    const bound = Buffer.from(aad, 'utf8');
    if (sealed[0] === V2) {
      const id = sealedBy(sealed);
      const k = this.byId.get(id);
      if (!k) throw new UnknownStateKey(`sealed state: sealed under state key ${id}, which is not in FAIRMINES_STATE_KEY`, id);
      return decrypt(k.key, sealed.subarray(HEADER, HEADER + 12), sealed.subarray(HEADER + 12, HEADER + 28),
        sealed.subarray(HEADER + 28), Buffer.concat([sealed.subarray(0, HEADER), bound]));
    }
    if (sealed[0] !== 1) throw new Error('sealed state: unknown version');
    const opened = this.openV1(sealed, bound);
    if (!opened) throw new UnknownStateKey('sealed state: none of the keys in FAIRMINES_STATE_KEY opens it', null);
    return opened.plaintext;
  }

  /**
   * A version 1 state opened (`{ key, plaintext }`), or null: it names no key, being sealed by the only key
   * of its time, so each key is tried in turn (GCM says which).
   */
  openV1(sealed, bound) {
    for (const key of this.keys) {
      try {
        const plaintext = decrypt(key.key, sealed.subarray(1, 13), sealed.subarray(13, 29), sealed.subarray(29), bound);
        return { key, plaintext };
      } catch { /* not this one */ }
    }
    return null;
  }

  /** The key (`{ key, id }`) that opens `sealed`, or null. */
  opener(sealed, aad) {
    if (sealed[0] === V2) return this.byId.get(sealedBy(sealed)) ?? null;
    return this.openV1(sealed, Buffer.from(aad, 'utf8'))?.key ?? null;
  }

  /** Whether `sealed` is sealed under the current key in the current layout (nothing to re-seal). */
  isCurrent(sealed) {
    return sealed.subarray(0, HEADER).equals(this.header);
  }
}

// Any fixed number: the lock that orders the key checks of processes starting at once.
const CHECK_LOCK = 0x66616973;

/**
 * Refuses (throws, writing nothing) when these keys do not open the database's seed pairs: none of their
 * ids is one the database knows, or a recent pair is sealed under a key they lack, or, in a database
 * whose states predate key ids, they do not open its first active pair. Else records their ids as known.
 */
export async function checkStateKeys(pool, keys) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [CHECK_LOCK]);
    const known = (await client.query('SELECT id FROM state_keys ORDER BY first_used_at, id')).rows.map((r) => r.id);
    const mine = keys.ids;
    const refuse = (why) => {
      throw new Error(`FAIRMINES_STATE_KEY does not open this database's seed pairs: ${why}. This process's keys are `
        + `${mine.join(', ')} (the first seals); the database knows ${known.join(', ') || 'none'}. Nothing was written; `
        + 'set the keys the other processes use (see "Rotating keys" in the README)');
    };
    if (known.length > 0 && !known.some((id) => mine.includes(id))) refuse('none of its keys is known to the database');
    // The newest pairs' sealing keys: one this process lacks means another process seals under it.
    const { rows } = await client.query(`SELECT state, commitment FROM seed_pairs WHERE id IN
      (SELECT id FROM seed_pairs WHERE revealed_at IS NULL ORDER BY id DESC LIMIT 100)`);
    for (const r of rows) {
      const id = sealedBy(r.state);
      if (id !== null && !mine.includes(id)) refuse(`a seed pair is sealed under ${id}, which it lacks`);
    }
    const legacy = rows.find((r) => sealedBy(r.state) === null);
    if (legacy && known.length === 0) {
      if (!keys.opener(legacy.state, legacy.commitment)) refuse('its keys do not open the seed pairs sealed before key ids');
    }
    await client.query(sql`INSERT INTO state_keys (id) SELECT unnest(${mine}::text[]) ON CONFLICT DO NOTHING`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
