// Every error answer is {"error": {"code": "FAIRMINES_…", "message", "argument"}}. Where the addon judged
// the input, its code, message and argument go out unchanged (the core's words, the same in every
// language); the server's own codes cover what only the service knows (auth, routes, move numbers).
import { errorKinds } from 'fairmines';

export class ApiError extends Error {
  constructor(status, code, message, argument = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.argument = argument;
  }
}

const SUMMARIES = new Map(errorKinds().map((k) => [k.code, k.summary]));

/** An error of a core kind that the service finds itself (a round finished in the database, say). */
export function coreError(status, code) {
  return new ApiError(status, code, SUMMARIES.get(code) ?? code);
}

// Kinds that say the game's state refuses the move (the request may be fine on another round): 409.
const CONFLICTS = new Set(['FAIRMINES_TILE_ALREADY_REVEALED', 'FAIRMINES_ROUND_FINISHED', 'FAIRMINES_ROUND_VOIDED',
  'FAIRMINES_NOTHING_TO_CASH_OUT', 'FAIRMINES_ROUNDS_IN_PLAY', 'FAIRMINES_ROUND_NOT_IN_PLAY']);
// Kinds that are never the caller's fault: a failure of this machine, left to the 500 path.
const SERVER_FAULTS = new Set(['FAIRMINES_RNG_FAILED', 'FAIRMINES_INVALID_STATE', 'FAIRMINES_PANIC']);

/** The addon's error as an ApiError, or null when it is not a caller's error (then it is a 500). */
export function fromAddon(err) {
  if (typeof err?.code !== 'string' || !err.code.startsWith('FAIRMINES_') || SERVER_FAULTS.has(err.code)) return null;
  return new ApiError(CONFLICTS.has(err.code) ? 409 : 400, err.code, err.message, err.argument ?? null);
}

export function body(err) {
  return { error: { code: err.code, message: err.message, argument: err.argument } };
}
