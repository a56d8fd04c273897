// The API's JSON schemas. Requests (the first part): shapes that refuse unknown fields and wrong JSON types;
// the values' ranges (mines, tile, RTP, stake) are judged by the addon, whose error code and message go back
// unchanged. Answers (DOCS): what each route sends back, for every status it can give, with the error codes
// each status carries. @fastify/swagger (openapi.js) writes them into the OpenAPI document; the answers are
// serialized by JSON.stringify, not from these schemas, so the API fuzzer (scripts/test-server-api.sh) checks
// that what leaves matches what is written here. A new route gets an entry in DOCS (its 2xx, and the parts
// of refusals it can give: AUTH, BODY, SEALED, NOT_FOUND, ...) spread into its schema; test/openapi.test.js
// fails for a route without one.
import { ApiError } from './errors.js';
import { KEY_SCHEMA } from './idempotency.js';

export const PLAYER = { type: 'string', pattern: '^[A-Za-z0-9_.:@-]{1,64}$', description: "the player's id" };
export const ROUND_ID = { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  description: "the round's id (a UUID)" };
export const MOVE = { type: 'integer', minimum: 1, maximum: 1000, description: "the move's number in the round: 1, 2, …" };
// Any JSON number: the addon says whether it is an amount the round can pay (so 2.5 or -1 get the core's words).
export const STAKE = { type: 'number', description: 'the stake in minor units (cents): an integer from 0 to 2^53 - 1' };
export const CURRENCY = { type: 'string', pattern: '^[A-Z0-9]{3,12}$',
  description: "the stake's currency: 3 to 12 capital letters or digits (ISO 4217 codes, or others such as USDT)" };
// Query values are strings (no type coercion): an integer's digits, its range checked by limitOf.
export const LIMIT = (max) => ({ type: 'string', pattern: '^[1-9][0-9]*$', maxLength: String(max).length,
  description: `how many at most: 1 to ${max}` });
export const CURSOR = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,200}$',
  description: 'where the previous page ended: the cursor that page gave' };
export const TIME = { type: 'string', format: 'date-time', description: 'an RFC 3339 time, e.g. 2026-12-06T00:00:00Z' };
export const obj = (properties, required = []) => ({ type: 'object', additionalProperties: false, properties, required });
// The writes without a move number take an Idempotency-Key (idempotency.js); other headers pass.
export const IDEMPOTENT = { type: 'object', properties: { 'idempotency-key': KEY_SCHEMA } };

/** A query's `limit` (digits, see LIMIT) as a number, at most `max`; undefined when not given. */
export function limitOf(limit, max) {
  if (limit === undefined) return undefined;
  const n = Number(limit);
  if (n > max) throw new ApiError(400, 'FAIRMINES_INVALID_REQUEST', `limit: must be from 1 to ${max}, got ${limit}`, 'limit');
  return n;
}

/** The header that names the next page of an export (routes/history.js). */
export const NEXT_CURSOR = 'fairmines-next-cursor';

const HEX64 = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const UUID = { type: 'string', format: 'uuid' };
const INT = { type: 'integer', minimum: 0 };
const TILES = { type: 'array', items: { type: 'integer', minimum: 1, maximum: 25 } };
// A multiplier or an RTP as the core writes it: an exact decimal or a fraction ("1.2375", "99/100").
const RATIO = { type: 'string', pattern: '^[0-9]+(\\.[0-9]+|/[0-9]+)?$' };
const nullable = (schema) => ({ ...schema, type: [schema.type, 'null'] });
const object = (properties, optional = []) => ({ type: 'object', additionalProperties: false, properties,
  required: Object.keys(properties).filter((k) => !optional.includes(k)) });

/** The core's round record JSON (recordToJson): what verifyRound checks in any fairmines package. */
const RECORD = object({ commitment: HEX64, client_seed: { type: 'string' }, nonce: INT,
  mines: { type: 'integer', minimum: 1, maximum: 24 }, rtp: RATIO, picks: TILES,
  outcome: { type: 'string', enum: ['lost', 'cashed_out', 'voided'] }, multiplier: nullable(RATIO) });
const OUTCOME = { type: 'string', enum: ['lost', 'cashed_out'] };
// Amounts in minor units: at most 2^53 - 1 (the core's MAX_AMOUNT); null without a stake.
const AMOUNT = { type: ['integer', 'null'], minimum: 0, maximum: 9007199254740991 };
const WAGER = { stake: { ...AMOUNT, description: 'the stake; null: none' },
  currency: { type: ['string', 'null'], pattern: '^[A-Z0-9]{3,12}$' } };
const PAYOUT = { ...AMOUNT, description: "what the round paid back, stake included, by the core's rule; null: no stake" };

const NEW_ROUND = object({ round: UUID, nonce: INT, mines: { type: 'integer' }, rtp: { type: 'string' },
  commitment: HEX64, clientSeed: { type: 'string' }, ...WAGER });
// A reveal's answer; the last four once the round is finished (a mine, or the last safe tile).
const REVEAL = object({ tile: { type: 'integer' }, safe: { type: 'boolean' }, safePicks: INT,
  multiplier: nullable(RATIO), finished: { type: 'boolean' }, outcome: OUTCOME, minePositions: TILES, payout: PAYOUT,
  record: RECORD }, ['outcome', 'minePositions', 'payout', 'record']);
const CASH_OUT = object({ multiplier: RATIO, safePicks: INT, finished: { type: 'boolean', const: true },
  outcome: OUTCOME, minePositions: TILES, payout: PAYOUT, record: RECORD });
const ROUND = object({ round: UUID, player: { type: 'string' }, commitment: HEX64, clientSeed: { type: 'string' },
  nonce: INT, mines: { type: 'integer' }, rtp: { type: 'string' }, moves: INT, ...WAGER, payout: PAYOUT,
  serverSeed: { ...HEX64, type: ['string', 'null'], description: 'once a rotation revealed the pair' },
  verifier: { type: ['string', 'null'], description: "the verifier page's URL fragment, once the pair is revealed" },
  status: { type: 'string', enum: ['in_play', 'lost', 'cashed_out', 'voided'] }, finished: { type: 'boolean' },
  picks: TILES, safePicks: INT, multiplier: nullable(RATIO), minePositions: nullable(TILES), record: nullable(RECORD) });
const ROUNDS = object({
  rounds: { type: 'array', items: object({ round: UUID, nonce: INT, mines: { type: 'integer' }, rtp: { type: 'string' },
    status: { type: 'string', enum: ['in_play', 'lost', 'cashed_out', 'voided'] }, ...WAGER, payout: PAYOUT,
    createdAt: { type: 'string', format: 'date-time' }, finishedAt: { type: ['string', 'null'], format: 'date-time' } }) },
  next: { type: ['string', 'null'], description: 'the cursor of the next page; null: this is the last' },
});
const SEEDS = object({ player: { type: 'string' }, commitment: HEX64, clientSeed: { type: 'string' }, nonce: INT,
  roundsInPlay: { type: 'array', items: object({ round: UUID, nonce: INT }) } });
const ROTATION = object({
  revealed: object({ serverSeed: HEX64, commitment: HEX64, clientSeed: { type: 'string' }, rounds: INT }),
  current: object({ commitment: HEX64, clientSeed: { type: 'string' }, nonce: INT }),
  voided: { type: 'array', items: UUID, description: 'the rounds voided by `void: true`' },
});
const OK = object({ ok: { type: 'boolean', const: true } });

/** The one error shape (http-errors.js), its `code` one of `codes`. */
function error(description, codes) {
  return { description, ...object({ error: object({ code: { type: 'string', enum: codes }, message: { type: 'string' },
    argument: { type: ['string', 'null'] } }) }) };
}

// Headers of some answers: a replay of a stored answer (idempotency.js), and the wait before a retry.
const REPLAYED = { 'idempotent-replayed': { type: 'string', enum: ['true'],
  description: 'present when the answer is the stored one of an earlier request with this Idempotency-Key' } };
const RETRY_AFTER = { 'retry-after': { type: 'string', pattern: '^[0-9]+$', description: 'seconds', 'x-required': true } };

// The refusals every route may give, by status.
const UNAVAILABLE = { ...error('the database is unavailable or not ready, or this process is stopping: retry',
  ['FAIRMINES_UNAVAILABLE']), headers: RETRY_AFTER };
const COMMON = {
  400: ['FAIRMINES_INVALID_REQUEST'], // a URL that does not decode, on any route
  500: error('a bug of the service, never the request', ['FAIRMINES_INTERNAL']),
  503: UNAVAILABLE,
};
const AUTH = { 401: error('no valid Bearer API key', ['FAIRMINES_UNAUTHORIZED']) };
// What a JSON body may be refused for before a route sees it.
const BODY = { 400: ['FAIRMINES_INVALID_REQUEST', 'FAIRMINES_INVALID_JSON', 'FAIRMINES_DUPLICATE_KEY'],
  413: error('the body is over 2 KiB', ['FAIRMINES_BODY_TOO_LARGE']),
  415: error('the body is not application/json', ['FAIRMINES_UNSUPPORTED_MEDIA_TYPE']) };
// A route that restores a player's seed pair: its key may be one this process lacks.
const SEALED = { 503: { ...error('the database is unavailable, this process is stopping, or the seed pair is sealed '
  + 'under a state key this process does not hold: retry', ['FAIRMINES_UNAVAILABLE', 'FAIRMINES_STATE_KEY_UNKNOWN']),
headers: RETRY_AFTER } };
const NOT_FOUND = (...codes) => ({ 404: error('no such route, round or player', ['FAIRMINES_NOT_FOUND', ...codes]) });
const IDEMPOTENCY = { 422: error('this Idempotency-Key was used with another body', ['FAIRMINES_IDEMPOTENCY_KEY_REUSED']) };
const MOVE_CONFLICTS = ['FAIRMINES_ROUND_FINISHED', 'FAIRMINES_ROUND_VOIDED', 'FAIRMINES_MOVE_CONFLICT',
  'FAIRMINES_MOVE_OUT_OF_ORDER'];

/**
 * A route's `response` schema: `ok` (status → schema) and the refusals of `parts`, merged; a 400's codes
 * gather from every part (plus `more400`), and a 409's are `conflicts`.
 */
function responses(ok, parts, { more400 = [], conflicts = [] } = {}) {
  const codes400 = new Set(more400);
  const out = { ...ok };
  for (const part of [COMMON, ...parts]) {
    for (const [status, schema] of Object.entries(part)) {
      if (status === '400') schema.forEach((c) => codes400.add(c));
      else out[status] = schema;
    }
  }
  out[400] = error('the request is malformed, or a value is refused (the core judges mines, tile and RTP)',
    [...codes400].sort());
  if (conflicts.length) out[409] = error("the game's state refuses the request", conflicts);
  return out;
}

const json = (description, schema, headers) => ({ description, ...schema, ...(headers && { headers }) });
const text = (description, types, headers) => ({ description,
  content: Object.fromEntries(types.map((t) => [t, { schema: { type: 'string' } }])), ...(headers && { headers }) });
const NEXT = { [NEXT_CURSOR]: { type: 'string', description: 'with `limit`: the `cursor` of the next page; absent after the last' } };

// OpenAPI links: from an answer to the next calls it makes possible (the fuzzer follows them to play rounds).
const link = (operationId, parameters) => ({ operationId, parameters });
const ROUND_LINKS = (round) => {
  const at = { player: '$request.path.player', round };
  return { reveal: link('reveal', at), cashOut: link('cashOut', at), round: link('round', at) };
};
const PLAYER_LINKS = { seeds: link('seeds', { player: '$request.path.player' }),
  rotate: link('rotate', { player: '$request.path.player' }) };

/**
 * Per route: `response`, with `operationId`, `tags`, `summary` (and `security: []` where no key is needed);
 * `x-body-example`, `x-links` (status → links) and `x-body-optional` are moved into place by openapi.js.
 */
export const DOCS = {
  newRound: { operationId: 'newRound', tags: ['rounds'], 'x-body-example': { mines: 3, rtp: '0.99' },
    'x-links': { 201: { ...ROUND_LINKS('$response.body#/round'), ...PLAYER_LINKS,
      rounds: link('rounds', { player: '$request.path.player' }) } },
    summary: "Start a round of the player's seed pair (made on first use)",
    response: responses({ 201: json('the round started', NEW_ROUND, REPLAYED) }, [AUTH, BODY, SEALED, IDEMPOTENCY],
      { more400: ['FAIRMINES_INVALID_MINES', 'FAIRMINES_INVALID_RTP', 'FAIRMINES_INVALID_NUMBER',
        'FAIRMINES_RTP_NOT_OFFERED'], conflicts: ['FAIRMINES_TOO_MANY_ROUNDS_IN_PLAY'] }) },
  reveal: { operationId: 'reveal', tags: ['rounds'], 'x-body-example': { tile: 13, move: 1 },
    'x-links': { 200: ROUND_LINKS('$request.path.round') },
    summary: 'Reveal a tile, as move number `move` of the round',
    response: responses({ 200: json('the tile, and the round once finished', REVEAL) },
      [AUTH, BODY, SEALED, NOT_FOUND('FAIRMINES_ROUND_NOT_FOUND')],
      { more400: ['FAIRMINES_INVALID_TILE'], conflicts: ['FAIRMINES_TILE_ALREADY_REVEALED', ...MOVE_CONFLICTS] }) },
  cashOut: { operationId: 'cashOut', tags: ['rounds'], 'x-body-example': { move: 2 },
    'x-links': { 200: { round: link('round', { player: '$request.path.player', round: '$request.path.round' }) } },
    summary: 'Cash out, as move number `move` of the round',
    response: responses({ 200: json('the round, finished', CASH_OUT) },
      [AUTH, BODY, SEALED, NOT_FOUND('FAIRMINES_ROUND_NOT_FOUND')],
      { conflicts: ['FAIRMINES_NOTHING_TO_CASH_OUT', ...MOVE_CONFLICTS] }) },
  round: { operationId: 'round', tags: ['rounds'],
    summary: 'A round: its picks, and its mines and record once finished',
    response: responses({ 200: json('the round', ROUND) }, [AUTH, SEALED, NOT_FOUND('FAIRMINES_ROUND_NOT_FOUND')]) },
  rounds: { operationId: 'rounds', tags: ['rounds'],
    summary: "The player's rounds, newest first, a page at a time",
    response: responses({ 200: json('a page of rounds, and the cursor of the next', ROUNDS) },
      [AUTH, NOT_FOUND('FAIRMINES_PLAYER_NOT_FOUND')]) },
  seeds: { operationId: 'seeds', tags: ['players'], 'x-links': { 200: { rotate: PLAYER_LINKS.rotate } },
    summary: "The player's current seed pair and its rounds in play",
    response: responses({ 200: json('the seed pair', SEEDS) }, [AUTH, SEALED, NOT_FOUND('FAIRMINES_PLAYER_NOT_FOUND')]) },
  rotate: { tags: ['players'], summary: "Reveal the player's server seed and start a new seed pair",
    operationId: 'rotate', 'x-body-optional': true, 'x-body-example': { clientSeed: 'lucky', void: true },
    response: responses({ 200: json('the revealed pair and the new one', ROTATION, REPLAYED) },
      [AUTH, BODY, SEALED, IDEMPOTENCY, NOT_FOUND('FAIRMINES_PLAYER_NOT_FOUND')],
      { conflicts: ['FAIRMINES_ROUNDS_IN_PLAY'] }) },
  history: { operationId: 'history', tags: ['history'],
    summary: 'Every round of every revealed pair, as `fairmines verify-history` reads it; filtered, paged',
    response: responses({ 200: text('one round a line (JSON lines), or CSV with a header line',
      ['application/x-ndjson', 'text/csv'], NEXT) }, [AUTH]) },
  revealed: { operationId: 'revealed', tags: ['history'],
    summary: 'The revealed pairs, one JSON object a line (`verify-history --revealed`)',
    response: responses({ 200: text('one pair a line', ['application/x-ndjson'], NEXT) }, [AUTH]) },
  metrics: { operationId: 'metrics', tags: ['operations'],
    summary: "This process's metrics (Prometheus text); an API key or a metrics token",
    response: responses({ 200: text('Prometheus text format 0.0.4', ['text/plain']) }, [AUTH]) },
  healthz: { operationId: 'healthz', tags: ['operations'],
    summary: 'Liveness: the process runs', security: [],
    response: responses({ 200: json('the process runs', OK) }, []) },
  readyz: { operationId: 'readyz', tags: ['operations'],
    summary: 'Readiness: the database answers, migrated, the state keys accepted',
    security: [], response: responses({ 200: json('ready', OK) }, []) },
  openapi: { operationId: 'openapi', tags: ['operations'],
    summary: 'This OpenAPI document', security: [],
    response: responses({ 200: { description: 'the OpenAPI 3.1 document', type: 'object', additionalProperties: true } },
      []) },
};
