// The declarations wasm-bindgen cannot generate from bindings/wasm/src: the objects functions take and
// return, and what api.js adds (loading, histories over any source). build.sh puts this file at the top of
// index.d.ts; the rest is generated from the Rust doc comments.

/** One kind of error the core reports, as this package throws it. */
export interface ErrorKind {
  /** The error's `code`: `'FAIRMINES_'` and the core's name of the kind (`'FAIRMINES_INVALID_MINES'`). */
  code: string
  /** The error's `errno`: the core's stable number of the kind (1, 2, …). */
  errno: number
  /** What the kind means, in one sentence. */
  summary: string
}

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

/** What the operator published about a finished round: the input of {@link verify} (no other key). */
export interface PublishedRound {
  serverSeed: string
  clientSeed: string
  /** The round's nonce, 0..=2^64 − 1. */
  nonce: number | bigint
  /** The round's mine count, 1..=24. */
  mines: number | bigint
  /** The commitment shown before play (64 hex characters, either case); checked when given. */
  commitment?: string | null
  /** The declared mine positions (1-based, in any order); checked when given. */
  positions?: ReadonlyArray<number | bigint> | Uint8Array | null
}

/** The verdict on a round: everything recomputed from the seeds, and each check that was asked for. */
export interface Verification {
  /** SHA3-256 of the revealed server seed (lowercase hex). */
  commitment: string
  /** The recomputed round signature (lowercase hex). */
  signature: string
  /** The recomputed mine positions: sorted, 1-based. */
  positions: number[]
  /** The recomputed draw order: 0-based, unsorted. */
  drawOrder: number[]
  /** The 32-bit words of the SHAKE256 stream the placement read (more than `mines` after a rejection). */
  wordsUsed: number
  /** Whether the given commitment matches; `null` when no commitment was given. */
  commitmentOk: boolean | null
  /** Whether the declared positions match (in any order); `null` when no positions were given. */
  positionsOk: boolean | null
  /** `'ok'` (every check asked for holds), `'mismatch'` (one fails) or `'unchecked'` (none was asked for). */
  verdict: 'ok' | 'mismatch' | 'unchecked'
  /** `true` when at least one check was asked for and every one holds (`verdict` is `'ok'`). */
  ok: boolean
  /**
   * When a check fails: what in the seeds looks mistyped (empty, white space around them, a server seed not
   * 64 lowercase hex characters), the likelier cause of the mismatch; `[]` when the round is ok.
   */
  inputDoubts: InputDoubt[]
}

/** A seed that looks mistyped (`argument`: `'serverSeed'` or `'clientSeed'`), in the core's words. */
export interface InputDoubt {
  argument: 'serverSeed' | 'clientSeed'
  detail: string
}

/** One entry of the payout table. */
export interface TableEntry {
  mines: number
  safePicks: number
  multiplier: Ratio
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

/** The public record of a finished round, as {@link recordFromJson} reads it. */
export interface RoundRecord {
  commitment: string
  clientSeed: string
  nonce: bigint
  mines: number
  rtp: Ratio
  picks: number[]
  outcome: 'lost' | 'cashed_out' | 'voided'
  multiplier: Ratio | null
  /**
   * The core's record JSON for `JSON.stringify`, as {@link recordToJson} writes it: snake_case keys, the
   * nonce a number (above 2^53 − 1 a raw JSON number where `JSON.rawJSON` exists, else its decimal string),
   * ratios as `'num/den'` (non-enumerable).
   */
  toJSON(): { [key: string]: unknown }
}

/** The replay of a finished round against its revealed server seed. */
export interface RoundVerification {
  commitmentOk: boolean
  minePositions: number[]
  expectedOutcome: 'lost' | 'cashed_out' | 'voided'
  expectedMultiplier: Ratio | null
  /** Each way the record differs from the replay, in words; empty when it holds. */
  differences: string[]
  ok: boolean
}

/** How a history is read. Every field is optional. */
export interface HistoryOptions {
  /** `'auto'` (default: from the first byte), `'jsonl'` or `'csv'`. */
  format?: 'auto' | 'jsonl' | 'json' | 'ndjson' | 'csv' | null
  /** The CSV delimiter: one ASCII character (`';'`, `'\t'`); default `','`. */
  delimiter?: string | null
  /** Other names for the fields: the input's name → the field (`{ serverSeed: 'server_seed' }`). */
  columns?: Record<string, string> | null
  /** Seed pairs whose nonces are held at once (default 100000). */
  maxOpenPairs?: number | bigint | null
  /** Failures kept in the report (default 10000); the ones past it are counted in `failures_omitted`. */
  maxFailures?: number | bigint | null
  /**
   * How the `multiplier` of a row without a `multiplier_form` column is written: `'exact'` (the default) or
   * `'displayed'` (as the operator's site shows it: the exact multiplier rounded down to its decimals).
   */
  multiplierForm?: 'exact' | 'displayed' | null
  /** What an audit report names as its `source` (default `'input'`). */
  source?: string | null
}

/** The options of {@link verifyHistory} and {@link audit}. */
export interface RunOptions extends HistoryOptions {
  /** Called after every chunk read: rows checked (or counted) and bytes read so far. */
  onProgress?: ((progress: Progress) => void) | null
  /** Aborting it rejects the Promise with an `AbortError` (`code: 'ABORT_ERR'`) at the next chunk. */
  signal?: AbortSignal | null
}

/** How far a run has got. */
export interface Progress {
  rows: number
  bytes: number
}

/**
 * What a history can be read from: its bytes, a `Blob` (a `File`), a stream of bytes, or an async iterable
 * of bytes (a Node stream: `fs.createReadStream(path)`).
 */
export type HistorySource = Uint8Array | ArrayBuffer | ArrayBufferView | Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>

/** The last line of `fairmines verify-history --json`. */
export interface HistorySummary {
  type: 'summary'
  all_ok: boolean
  rows_read: number
  ok: number
  mismatched: number
  malformed: number
  commitment_mismatches: number
  position_mismatches: number
  play_mismatches: number
  duplicate_nonces: number
  nonce_gaps: number
  missing_nonces: number
  nonces_past_end: number
  seed_pairs: number
  blank_lines: number
  pairs_closed_early: number
  unterminated_last_line: boolean
  /** Failures listed (in `failures`): every one found, or the first `maxFailures`. */
  failures_listed: number
  /** Failures found past `maxFailures`: counted above, not listed. */
  failures_omitted: number
  /** The counts in one line of words: rows read, ok, failed by kind, malformed, gaps, failures listed and not. */
  text: string
}

/** A failure line of `fairmines verify-history --json`. */
export interface HistoryFailure {
  type: 'failure'
  kind: 'malformed' | 'commitment' | 'positions' | 'play' | 'duplicate_nonce' | 'nonce_gap' | 'nonce_past_end'
  /** The row's first line (1-based; a CSV header is line 1); `null` for gaps. */
  line: number | null
  round_id: string | null
  pair_commitment: string | null
  client_seed: string | null
  nonce: number | null
  last_nonce: number | null
  field: string | null
  expected: string | null
  declared: string | null
  message: string
}

/** What {@link verifyHistory} gives: the lines of `fairmines verify-history --json`. */
export interface HistoryReport {
  summary: HistorySummary
  failures: HistoryFailure[]
}

/** A chi-square test as the audit reports it. */
export interface ChiSquareJson {
  statistic: number
  degrees_of_freedom: number
  p_value: number
}

/** One p-value of an audit and what it tests. */
export interface AuditPValue {
  /** `'3 mines'`, `'combined'`, `'first draw'`, `'holm'` or `'overall'`. */
  name: string
  p_value: number
  /** What a small value says is not uniform, and how the p-value is computed. */
  what: string
}

/** An audit's conclusion, from the core: the same words in the CLI, Python and the page. */
export interface AuditVerdict {
  /** From the overall p-value: below `thresholds.strong_evidence` (1e-6), below `thresholds.unusual` (0.01), else consistent; too few rounds below `thresholds.min_rounds` (125). */
  level: 'too_few_rounds' | 'consistent' | 'unusual' | 'strong_evidence'
  /** The level in words: `'consistent with fair draws'`, `'unusual, look closer'`, `'strong evidence of bias'`, `'too few rounds to say anything'`. */
  words: string
  /** Why this level, with the numbers it rests on. */
  explanation: string
  /** The rounds tested. */
  rounds: number
  /** The overall p-value judged. */
  p_value: number | null
  /** The effect size: the tile furthest from its expected mines (percent: −100 is never a mine; z in standard deviations). */
  largest_deviation: { tile: number, percent: number, z: number } | null
  thresholds: { unusual: number, strong_evidence: number, min_rounds: number }
}

/** What a group of rounds returned, from the core's payout audit. */
export interface PayoutGroup {
  /** Rounds counted (voided rounds are refunds, not counted). */
  rounds: number
  /** Of them, with a stake and a payout. */
  staked_rounds: number
  /** Σ stake and Σ payout, in minor units. */
  stake_total: number
  payout_total: number
  /** Σ payout / Σ stake; without stakes, the mean multiplier at unit stake (a lost round 0). */
  realised_return: number | null
  /** From the rounds' own variance (the ratio estimator's). */
  standard_error: number | null
  /** The 95% confidence interval. */
  ci_low: number | null
  ci_high: number | null
  /** The RTP the rows declare (weighted by stake where there are several), and the distinct ones as fractions. */
  declared_rtp: number | null
  declared_rtps: string[]
  /** Whether `declared_rtp` lies inside the interval: false says the game did not pay what it declares. */
  declared_inside: boolean | null
}

/** The share of the k-th reveals that were safe, against its exact probability (25 − mines − k + 1)/(25 − k + 1). */
export interface HitRate {
  mines: number
  pick: number
  reveals: number
  safe: number
  rate: number
  expected: number
  /** The exact probability as a fraction (`'22/25'`). */
  expected_exact: string
  z: number
}

/** The payout audit: realised return against the declared RTP, per group, and the hit rates. */
export interface PayoutAudit {
  overall: PayoutGroup
  by_mines: (PayoutGroup & { mines: number })[]
  by_currency: (PayoutGroup & { key: string })[]
  by_player: (PayoutGroup & { key: string })[]
  /** `key`: `'commitment:client_seed'`. */
  by_seed_pair: (PayoutGroup & { key: string })[]
  /** Rounds left out of the per-currency, per-player and per-seed-pair groups (at most 1,000 of each kind). */
  groups_omitted: number
  hit_rates: HitRate[]
}

/** What {@link audit} gives: the object `fairmines audit --json` writes. */
export interface AuditReport {
  source: string
  rows_read: number
  malformed: number
  skipped: number
  by_mines: { mines: number, rounds: number, tile_counts: number[], chi_square: ChiSquareJson | null, holm_p_value: number | null }[]
  /** The mine counts' statistics added up: only where they are independent (a history); null otherwise. */
  combined: ChiSquareJson | null
  first_draw_counts: number[]
  first_draw: ChiSquareJson | null
  /** The smallest Holm-adjusted p-value of the mine counts (valid under any dependence). */
  holm_p_value: number | null
  /** The smallest Holm-adjusted p-value over every test, the first draw too (valid under any dependence). */
  overall_p_value: number | null
  /** Whether the mine counts share their rounds (a seed-pair audit): then there is no `combined`. */
  shared_rounds: boolean
  /** Every p-value above with what it tests. */
  p_values: AuditPValue[]
  /** The conclusion: what to show as the audit's verdict. */
  verdict: AuditVerdict
  /** The payout audit; null when no row has a play. */
  payout: PayoutAudit | null
}

/**
 * Verifies a whole history (JSON Lines or CSV; gzip is read through), read chunk by chunk in constant
 * memory, as `fairmines verify-history --json` does.
 * @throws {TypeError} `source` or an option has the wrong type (`code: 'ERR_INVALID_ARG_TYPE'`)
 * @throws {RangeError} an option that cannot be used (`code: 'ERR_INVALID_ARG_VALUE'`)
 * @throws {Error} the input cannot be read as a history (`code: 'FAIRMINES_HISTORY_UNREADABLE'`), or
 * `signal` aborted (`name: 'AbortError'`)
 */
export declare function verifyHistory(source: HistorySource, options?: RunOptions | null): Promise<HistoryReport>

/** Audits a whole history as `fairmines audit --json` does; the errors of {@link verifyHistory}. */
export declare function audit(source: HistorySource, options?: RunOptions | null): Promise<AuditReport>

/** Loads the WebAssembly module from its bytes or a compiled module (`fairmines-wasm/init` only). */
export declare function initSync(module: BufferSource | WebAssembly.Module): void

/** Loads the WebAssembly module from bytes, a module, a URL, a `Request` or a `Response` (default: the file next to the package). */
export declare function init(source?: BufferSource | WebAssembly.Module | URL | string | Request | Response | Promise<Response> | null): Promise<void>

/** Whether the WebAssembly module has been loaded. */
export declare function isInitialized(): boolean
