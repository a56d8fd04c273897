// The JSON schemas of the API's requests and answers, shared by the routes (routes/*.js). Requests refuse
// unknown fields and wrong JSON types; the values' ranges (mines, tile, RTP, stake) are judged by the addon,
// whose error code and message go back unchanged. Answers are described field by field, so that an OpenAPI
// document can be made from them (Fastify serializes an answer by its schema: a field not listed is dropped).
import { ApiError } from './errors.js';
import { KEY_SCHEMA } from './idempotency.js';

export const PLAYER = { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,64}$', description: 'the player\'s id' };
export const ROUND = { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  description: 'the round\'s id (a UUID)' };
export const MOVE = { type: 'integer', minimum: 1, maximum: 1000, description: 'the move\'s number in the round: 1, 2, …' };
// Any JSON number: the addon says whether it is an amount the round can pay (so 2.5 or -1 get the core's words).
export const STAKE = { type: 'number', description: 'the stake in minor units (cents): an integer from 0 to 2^53 - 1' };
export const CURRENCY = { type: 'string', pattern: '^[A-Z0-9]{3,12}$',
  description: 'the stake\'s currency: 3 to 12 capital letters or digits (ISO 4217 codes, or others such as USDT)' };
// Query values are strings (no type coercion): an integer's digits.
export const LIMIT = (max) => ({ type: 'string', pattern: `^[1-9][0-9]*$`, maxLength: String(max).length,
  description: `how many at most: 1 to ${max}` });
/** A query's `limit` (digits, see LIMIT) as a number, at most `max`; undefined when not given. */
export function limitOf(limit, max) {
  if (limit === undefined) return undefined;
  const n = Number(limit);
  if (n > max) throw new ApiError(400, 'FAIRMINES_INVALID_REQUEST', `limit: must be from 1 to ${max}, got ${limit}`, 'limit');
  return n;
}
export const CURSOR = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,200}$',
  description: 'where the previous page ended: the cursor that page gave' };
export const TIME = { type: 'string', format: 'date-time', description: 'an RFC 3339 time, e.g. 2026-12-06T00:00:00Z' };

export const obj = (properties, required = []) => ({ type: 'object', additionalProperties: false, properties, required });
// The writes without a move number take an Idempotency-Key (idempotency.js); other headers pass.
export const IDEMPOTENT = { type: 'object', properties: { 'idempotency-key': KEY_SCHEMA } };

const nullable = (type, extra = {}) => ({ type: [type, 'null'], ...extra });
const INT = { type: 'integer' };
const STR = { type: 'string' };
const TILES = nullable('array', { items: INT });

export const ERROR = {
  description: 'every refusal: the code, the message and the argument at fault',
  type: 'object',
  properties: { error: { type: 'object', properties: { code: STR, message: STR, argument: nullable('string') } } },
};
/** The answers of a route: `ok` for its success status, the error shape for every refusal. */
export const answers = (status, ok) => ({ [status]: ok, '4xx': ERROR, '5xx': ERROR });

const WAGER = {
  stake: nullable('integer', { description: 'the stake in minor units; null: no stake' }),
  currency: nullable('string'),
  payout: nullable('integer', { description: 'what the round paid back, stake included, in minor units, once finished' }),
};
const RECORD = nullable('object', { additionalProperties: true, description: 'the core\'s round record JSON, once finished' });
const FINISH = {
  outcome: { type: 'string', enum: ['lost', 'cashed_out', 'voided'] },
  minePositions: TILES,
  payout: WAGER.payout,
  record: RECORD,
};

export const NEW_ROUND = {
  type: 'object',
  properties: { round: STR, nonce: INT, mines: INT, rtp: STR, commitment: STR, clientSeed: STR,
    stake: WAGER.stake, currency: WAGER.currency },
};
export const REVEAL = {
  type: 'object',
  properties: { tile: INT, safe: { type: 'boolean' }, safePicks: INT, multiplier: nullable('string'),
    finished: { type: 'boolean' }, ...FINISH },
};
export const CASH_OUT = {
  type: 'object',
  properties: { multiplier: STR, safePicks: INT, finished: { type: 'boolean' }, ...FINISH },
};
export const ROUND_STATE = {
  type: 'object',
  properties: { round: STR, player: STR, commitment: STR, clientSeed: STR, nonce: INT, mines: INT, rtp: STR,
    moves: INT, ...WAGER, serverSeed: nullable('string'), verifier: nullable('string'),
    status: { type: 'string', enum: ['in_play', 'lost', 'cashed_out', 'voided'] }, finished: { type: 'boolean' },
    picks: { type: 'array', items: INT }, safePicks: INT, multiplier: nullable('string'), minePositions: TILES,
    record: RECORD },
};
export const ROUND_LIST = {
  type: 'object',
  properties: {
    rounds: { type: 'array', items: { type: 'object', properties: { round: STR, nonce: INT, mines: INT, rtp: STR,
      status: STR, ...WAGER, createdAt: STR, finishedAt: nullable('string') } } },
    next: nullable('string', { description: 'the cursor of the next page; null: this is the last' }),
  },
};
