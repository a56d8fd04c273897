// Type-checked by test/types.test.js (tsc --strict --noEmit against index.d.ts): the declared types of
// the API are the documented ones. Never run.
import {
  SeedPair, Round, Ratio, verifyRound, recordToJson, recordFromJson, multiplier, payoutTable, maxSafePicks,
  minePositions, verify, errorKinds, minePositionsBatch, minePositionsBatchAsync, __napiBindingTarget,
  generateServerSeed, payout, checkStake,
} from 'fairmines'
import type {
  RoundRecord, RoundVerification, Reveal, TableEntry, PublicSeedPair, RevealedSeedPair, Verification, ErrorKind,
  RoundRecordInput, RoundRecordJson, PublicSeedPairJson, RevealedSeedPairJson, SafeReveal, MineReveal, Nonces,
  BatchOptions, BatchAsyncOptions, GeneratedServerSeed,
} from 'fairmines'

const pair: SeedPair = new SeedPair('client')
const replay: SeedPair = SeedPair.fromParts('00'.repeat(32), 'client', 5n)
const restored: SeedPair = SeedPair.fromStateJson(pair.toStateJson())
const pub: PublicSeedPair = restored.publicPart
const nonce: bigint = pub.nonce
const commitment: string = pub.commitment
// A round in play of a restored pair, by its nonce (a number or a bigint, as openRounds lists them).
const resumedRound: Round = restored.round(restored.openRounds()[0] ?? 0n)
restored.round(0)
// @ts-expect-error a nonce is a number or a bigint, never a string
restored.round('0')
// @ts-expect-error the nonce is required
restored.round()

const round: Round = pair.startRound(3, '0.99')
// @ts-expect-error a Round has no constructor: rounds come from a seed pair
new Round()
// @ts-expect-error nor can a class extend it
class MyRound extends Round {}
void MyRound
replay.startRound(3, new Ratio(99n, 100n))
// @ts-expect-error an RTP is never a number: binary floats are not exact
pair.startRound(3, 0.99)
// @ts-expect-error mines is a number or a bigint, never a string
pair.startRound('3', '0.99')
pair.startRound(3n, '0.99')

const result: Reveal = round.reveal(13)
// The reveal is a union on `safe`: a safe tile has a multiplier, a mine has none and ends the round.
const revealed13: SafeReveal | MineReveal = round.reveal(12)
if (revealed13.safe) {
  const pays: Ratio = revealed13.multiplier
  void pays
} else {
  const none: null = revealed13.multiplier
  const ended: true = revealed13.finished
  void [none, ended]
}
// @ts-expect-error without narrowing on `safe`, the multiplier may be null
round.reveal(11).multiplier.text
const tile: number = result.tile
const safe: boolean = result.safe
const revealedPicks: number = result.safePicks
const reached: Ratio | null = result.multiplier
const over: boolean = result.finished
round.reveal(14n)
const paid: Ratio = round.cashOut()
const grid: number[] | null = round.minePositions
const outcome: 'lost' | 'cashed_out' | 'voided' | null = round.outcome
const rtp: Ratio = round.rtp
const roundNonce: bigint = round.nonce
const finished: boolean = round.isFinished
const picks: number[] = round.picks
const safePicks: number = round.safePicks
const current: Ratio | null = round.multiplier
const roundCommitment: string = round.commitment
const clientSeed: string = round.clientSeed

const record: RoundRecord | null = round.record()
// @ts-expect-error record() is null while the round is in play
recordToJson(round.record())
if (record !== null) {
  const recordOutcome: 'lost' | 'cashed_out' | 'voided' = record.outcome
  const json: string = recordToJson(record)
  const shape: RoundRecordJson = record.toJSON()
  const clientSeedKey: string = shape.client_seed
  // @ts-expect-error the nonce is a number (a raw JSON number or a decimal string above 2^53 - 1), not only a string
  const nonceText: string = shape.nonce
  // What a record may be given as: numbers as numbers or bigints, ratios as strings or Ratios.
  const input: RoundRecordInput = { ...record, nonce: 1, mines: 3n, rtp: '99/100', multiplier: '9/8', picks: [1, 2n] }
  verifyRound(input, 'revealed seed')
  recordToJson({ ...record, outcome: record.outcome === 'lost' ? 'cashed_out' : 'lost', picks: new Uint8Array([1]) })
  // @ts-expect-error an outcome is one of three words
  recordToJson({ ...record, outcome: 'won' })
  void [shape, nonceText, clientSeedKey]
  const back: RoundRecord = recordFromJson(json)
  const verdict: RoundVerification = verifyRound(back, 'revealed seed')
  const ok: boolean = verdict.ok && verdict.commitmentOk
  const differences: string[] = verdict.differences
  const expected: Ratio | null = verdict.expectedMultiplier
  const positions: number[] = verdict.minePositions
  const expectedOutcome: 'lost' | 'cashed_out' | 'voided' = verdict.expectedOutcome
  void [recordOutcome, ok, differences, expected, positions, expectedOutcome]
}

// Rounds in play, and voiding them so that the pair can rotate.
const open: bigint[] = pair.openRounds()
const voided: bigint[] = pair.voidOpenRounds()

const checked: Verification = verify({ serverSeed: 's', clientSeed: 'c', nonce: 1, mines: 3, commitment: 'f5ec' })
const verdictText: 'ok' | 'mismatch' | 'unchecked' = checked.verdict
const checkedOk: boolean = checked.ok
const wordsUsed: number = checked.wordsUsed
verify({ serverSeed: 's', clientSeed: 'c', nonce: 1n, mines: 3n, commitment: null, positions: [7, 10n, 19] })
const kinds: ErrorKind[] = errorKinds()
const kind: [string, number, string] = [kinds[0].code, kinds[0].errno, kinds[0].summary]
// @ts-expect-error a misspelt field is not a field of PublishedRound (and the call throws at run time)
verify({ serverSeed: 's', clientSeed: 'c', nonce: 1, mines: 3, commitmnet: 'f5ec' })

const revealed: RevealedSeedPair = pair.rotate()
const revealedJson: RevealedSeedPairJson = revealed.toJSON()
const publicJson: PublicSeedPairJson = pair.publicPart.toJSON()
const rounds64: string = revealedJson.rounds + publicJson.nonce
pair.rotate(null)
pair.rotate('new client')
const seed: string = revealed.serverSeed
const rounds: bigint = revealed.rounds
pair.setClientSeed('other')

const m: Ratio = multiplier(3, 1, '0.99')
const parts: [bigint, bigint, string] = [m.numerator, m.denominator, m.text]
const shown: string = m.toDecimal(2)
const same: boolean = m.equals('9/8') && m.equals(Ratio.parse('1.125'))
const table: TableEntry[] = payoutTable('99/100')
const entry: [number, number, Ratio] = [table[0].mines, table[0].safePicks, table[0].multiplier]
const most: number = maxSafePicks(3)
const paidBack: bigint = payout({ commitment: 'c', clientSeed: 'c', nonce: 0, mines: 3, rtp: '0.99', picks: [1],
  outcome: 'cashed_out', multiplier: '9/8' }, 1000n)
const stakeChecked: number = checkStake(1000, 3, new Ratio(99, 100))
// @ts-expect-error a stake is a number or a bigint, never a string
checkStake('1000', 3, '0.99')
const mines: number[] = minePositions('s', 'c', 1n, 3)

// Batches: a range, typed arrays, arrays; a thread cap; an AbortSignal for the async form.
const forms: Nonces[] = [{ start: 0, count: 10 }, { start: 2n ** 60n, count: 3n }, new BigUint64Array(2), new Uint32Array(2), [1, 2n]]
const rows: Uint8Array = minePositionsBatch('s', 'c', forms[0], 3, { threads: 1 })
const capped: BatchOptions = { threads: 2 }
const controller = new AbortController()
const withSignal: BatchAsyncOptions = { signal: controller.signal, threads: 1 }
const later: Promise<Uint8Array> = minePositionsBatchAsync('s', 'c', { start: 0, count: 10 }, 3, withSignal)
minePositionsBatchAsync('s', 'c', [1, 2], 3, { signal: AbortSignal.timeout(1000) })
minePositionsBatchAsync('s', 'c', rows.length === 0 ? [] : new Uint32Array(1), 3)
verify({ serverSeed: 's', clientSeed: 'c', nonce: 1, mines: 3, positions: rows.subarray(0, 3) })
// @ts-expect-error the sync form cannot be aborted (the event loop is blocked while it runs)
minePositionsBatch('s', 'c', [1], 3, { signal: controller.signal })
// @ts-expect-error a range has a start and a count
minePositionsBatch('s', 'c', { start: 0, end: 10 }, 3)
// @ts-expect-error a Float64Array is not a list of nonces
minePositionsBatch('s', 'c', new Float64Array(2), 3)
// A generated seed: the seed and the commitment read; JSON.stringify gives the commitment only.
const generated: GeneratedServerSeed = generateServerSeed()
const { serverSeed: generatedSeed, commitment: generatedCommitment }: { serverSeed: string, commitment: string } = generated
const logged: { commitment: string } = generated.toJSON()

const target: 'native' | 'wasm32-wasi' | 'wasm32-wasip1' = __napiBindingTarget

void [nonce, commitment, safe, reached, paid, grid, outcome, rtp, roundNonce, finished, picks, safePicks, current,
  roundCommitment, clientSeed, seed, rounds, parts, shown, same, entry, most, mines, open, voided, verdictText, checkedOk,
  tile, revealedPicks, over, wordsUsed, kind, rounds64, capped, later, target, resumedRound, generatedSeed,
  generatedCommitment, logged]
