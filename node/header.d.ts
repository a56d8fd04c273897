// The declarations napi-rs cannot generate from bindings/node/src: what functions take (inputs wider than
// what they give back), the reveal as a union on `safe`, and what bindings/node/src/helpers.js adds (the
// class Ratio, and the `toJSON` and `toString` of results and classes). build.mjs puts this file at the top of index.d.ts; the
// rest is generated from the Rust doc comments.

/**
 * What {@link generateServerSeed} gives: the secret seed and its commitment. Only the commitment is
 * enumerable and shown: `JSON.stringify` writes `{ commitment }`, `util.inspect` hides the seed.
 */
export interface GeneratedServerSeed {
  /** The secret server seed: 64 lowercase hex characters (not enumerable: a spread or `Object.keys` skips it). */
  serverSeed: string
  /** SHA3-256 of the seed, to publish before play. */
  commitment: string
  /** `{ commitment }`: the seed never reaches a JSON log. */
  toJSON(): { commitment: string }
}

/**
 * The nonces of a batch: `count` consecutive nonces from `start` (no array needed), a `BigUint64Array`
 * or `Uint32Array` (read in place, never copied; do not write to it while an async batch runs), or an
 * array of numbers or bigints (made a typed array first: about 3 ms per million numbers).
 */
export type Nonces = NonceRange | BigUint64Array | Uint32Array | ReadonlyArray<number | bigint>

/** `count` consecutive nonces from `start`; the last one must be at most 2^64 − 1. */
export interface NonceRange {
  start: number | bigint
  count: number | bigint
}

/** The options of {@link minePositionsBatch}. */
export interface BatchOptions {
  /**
   * The most threads the batch runs on, the calling one included: an integer of at least 1 (`1`: the
   * calling thread only). Default: every core.
   */
  threads?: number | null
}

/** The options of {@link minePositionsBatchAsync}. */
export interface BatchAsyncOptions extends BatchOptions {
  /**
   * Aborting it rejects the Promise at once with an `AbortError` (`name: 'AbortError'`,
   * `code: 'ABORT_ERR'`, `cause: signal.reason`) and stops the work within one chunk of the batch
   * (about a millisecond).
   */
  signal?: AbortSignal | null
}

/**
 * A round record as {@link recordToJson} and {@link verifyRound} take it: a {@link RoundRecord}, or a
 * plain object with numbers as `number`s or `bigint`s and ratios as strings (`'99/100'`) or `Ratio`s.
 */
export interface RoundRecordInput {
  commitment: string
  clientSeed: string
  nonce: number | bigint
  mines: number | bigint
  rtp: string | Ratio
  picks: ReadonlyArray<number | bigint> | Uint8Array
  outcome: 'lost' | 'cashed_out' | 'voided'
  multiplier: string | Ratio | null
}

/**
 * What `JSON.stringify(record)` writes: the core's record JSON, what {@link recordToJson} writes
 * (snake_case keys, the nonce a number, ratios as `'num/den'`), read back by {@link recordFromJson} and by
 * every fairmines package. A nonce above 2^53 − 1 is a raw JSON number (`JSON.rawJSON`, exact) on
 * Node.js 21 and later, and its decimal string on Node.js 20, which cannot write it exactly.
 */
export interface RoundRecordJson {
  commitment: string
  client_seed: string
  nonce: number | { readonly rawJSON: string } | string
  mines: number
  rtp: string
  picks: number[]
  outcome: 'lost' | 'cashed_out' | 'voided'
  multiplier: string | null
}

/**
 * What `JSON.stringify(round)` writes: the round's getters, the nonce in decimal and ratios as
 * `'num/den'` (`minePositions` only once the round has finished).
 */
export interface RoundJson {
  commitment: string
  clientSeed: string
  nonce: string
  mines: number
  rtp: string
  picks: number[]
  safePicks: number
  outcome: 'lost' | 'cashed_out' | 'voided' | null
  multiplier: string | null
  minePositions: number[] | null
}

export interface Round {
  /** The round's public state in one line (the mines only once it has finished). */
  toString(): string
  /** The round's public state for `JSON.stringify` (nonce in decimal, ratios as `'num/den'`). */
  toJSON(): RoundJson
}

/** What `JSON.stringify(seedPair)` and `JSON.stringify(seedPair.publicPart)` write: the nonce in decimal. */
export interface PublicSeedPairJson {
  commitment: string
  clientSeed: string
  nonce: string
}

export interface SeedPair {
  /** The public part in one line; the server seed shows as `<hidden>`. */
  toString(): string
  /** The public part (`JSON.stringify` never writes the server seed); the nonce as a decimal string. */
  toJSON(): PublicSeedPairJson
}

export interface RoundRecord {
  /**
   * The core's record JSON for `JSON.stringify`, as {@link recordToJson} writes it (a non-enumerable
   * property: spreads and `Object.keys` skip it).
   */
  toJSON(): RoundRecordJson
}

export interface PublicSeedPair {
  /** The public part for `JSON.stringify`, the nonce in decimal (non-enumerable). */
  toJSON(): PublicSeedPairJson
}

/** What `JSON.stringify(revealed)` writes: `rounds` in decimal. */
export interface RevealedSeedPairJson {
  serverSeed: string
  commitment: string
  clientSeed: string
  rounds: string
}

export interface RevealedSeedPair {
  /** The revealed pair for `JSON.stringify`, `rounds` in decimal (non-enumerable). */
  toJSON(): RevealedSeedPairJson
}

/** A reveal that found a safe tile: a cash-out now pays `multiplier`. */
export interface SafeReveal extends Reveal {
  safe: true
  multiplier: Ratio
}

/** A reveal that found a mine: the round is lost. */
export interface MineReveal extends Reveal {
  safe: false
  multiplier: null
  finished: true
}

/**
 * An exact, non-negative fraction in lowest terms (a multiplier, an RTP factor). `String(r)` and
 * `JSON.stringify` give `text`; there is no `valueOf`, so a ratio never becomes a float by accident.
 */
export declare class Ratio {
  /**
   * `numerator / denominator`, reduced to lowest terms.
   * @throws {TypeError} a part is neither a number nor a bigint
   * @throws {RangeError} a part is not an integer in 0..2^128, or `denominator` is 0
   * (`code: 'FAIRMINES_INVALID_NUMBER'`)
   */
  constructor(numerator: number | bigint, denominator: number | bigint)
  /**
   * Parses `"99/100"`, a decimal such as `"0.99"` (exactly 99/100) or a whole number, as the core does.
   * @throws {TypeError} `text` is not a string
   * @throws {RangeError} `text` does not parse (`code: 'FAIRMINES_INVALID_NUMBER'`)
   */
  static parse(text: string): Ratio
  /** The numerator, in lowest terms. */
  get numerator(): bigint
  /** The denominator, in lowest terms (never 0). */
  get denominator(): bigint
  /** `"num/den"`, or just `"num"` for a whole number: the form of the core's JSON. */
  get text(): string
  /**
   * The decimal shown to users: the value rounded **down** to `places` (0..=18) decimal places, so a
   * shown multiplier never promises more than the exact one (`'1.12'` for 9/8 at 2).
   * @throws {TypeError} `places` is neither a number nor a bigint
   * @throws {RangeError} `places` is not an integer in 0..=18 (`code: 'FAIRMINES_INVALID_NUMBER'`)
   */
  toDecimal(places: number | bigint): string
  /** The nearest `number`: for display and statistics only, never for paying out. */
  toNumber(): number
  /**
   * Whether `other` (a `Ratio` or a string such as `'99/100'` or `'0.99'`) is the same number.
   * @throws {TypeError} `other` is neither a string nor a `Ratio`
   * @throws {RangeError} `other` is a string that does not parse (`code: 'FAIRMINES_INVALID_NUMBER'`)
   */
  equals(other: Ratio | string): boolean
  /** `text`. */
  toString(): string
  /** `text`, so `JSON.stringify` writes a ratio as the core's JSON does. */
  toJSON(): string
}
