// Test-only knowledge of a round's mines: the test holds the state key, so it can open the pair's sealed
// state and compute the grid, to pick safe tiles and mines on purpose.
import { createCipheriv, randomBytes } from 'node:crypto';
import { minePositions } from 'fairmines';
import { StateKeys } from '../src/keys.js';
import { STATE_KEY } from './helpers.js';

export async function minesOf(pool, roundId) {
  const { rows: [r] } = await pool.query(
    `SELECT r.nonce, r.mines, p.state, p.commitment, p.client_seed
       FROM rounds r JOIN seed_pairs p ON p.id = r.pair_id WHERE r.id = $1`, [roundId]);
  const state = JSON.parse(new StateKeys([STATE_KEY]).open(r.state, r.commitment));
  return minePositions(state.server_seed, r.client_seed, BigInt(r.nonce), r.mines);
}

/**
 * Every stored move's answer, by `round/move`, as the service answers a retry of it: the answer of the move
 * that ended a round with the round's record (stored once, in the round's row) as its last field.
 */
export async function storedAnswers(pool) {
  const { rows } = await pool.query('SELECT m.round_id, m.move, m.answer, r.record FROM moves m JOIN rounds r ON r.id = m.round_id');
  return new Map(rows.map((m) => {
    const answer = JSON.parse(m.answer);
    if (answer.finished && answer.record === undefined) answer.record = JSON.parse(m.record);
    return [`${m.round_id}/${m.move}`, answer];
  }));
}

/** The first `n` safe tiles of a grid, and its first mine. */
export function tiles(mines, n = 25) {
  const safe = [];
  for (let t = 1; t <= 25 && safe.length < n; t += 1) if (!mines.includes(t)) safe.push(t);
  return { safe, mine: mines[0] };
}

/** A state sealed as the first sealed layout did (no key id): version 1, IV, tag, ciphertext. */
export function sealV1(key, plaintext, aad) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad, 'utf8'));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), body]);
}
