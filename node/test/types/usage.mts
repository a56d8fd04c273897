// Type-checked by test/types.test.js (tsc --strict --noEmit against index.d.ts): the declared types of
// the game API are the documented ones. Never run.
import {
  SeedPair, Round, Ratio, verifyRound, recordToJson, recordFromJson, multiplier, payoutTable, maxSafePicks,
  minePositions, verify, errorKinds,
} from 'fairmines'
import type {
  RoundRecord, RoundVerification, Reveal, TableEntry, PublicSeedPair, RevealedSeedPair, Verification, ErrorKind,
} from 'fairmines'

const pair: SeedPair = new SeedPair('client')
const replay: SeedPair = SeedPair.fromParts('00'.repeat(32), 'client', 5n)
const restored: SeedPair = SeedPair.fromStateJson(pair.toStateJson())
const pub: PublicSeedPair = restored.public
const nonce: bigint = pub.nonce
const commitment: string = pub.commitment

const round: Round = pair.startRound(3, '0.99')
replay.startRound(3, new Ratio(99n, 100n))
// @ts-expect-error an RTP is never a number: binary floats are not exact
pair.startRound(3, 0.99)
// @ts-expect-error mines is a number or a bigint, never a string
pair.startRound('3', '0.99')
pair.startRound(3n, '0.99')

const result: Reveal = round.reveal(13)
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
if (record !== null) {
  const recordOutcome: 'lost' | 'cashed_out' | 'voided' = record.outcome
  const json: string = recordToJson(record)
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
const mines: number[] = minePositions('s', 'c', 1n, 3)

void [nonce, commitment, safe, reached, paid, grid, outcome, rtp, roundNonce, finished, picks, safePicks, current,
  roundCommitment, clientSeed, seed, rounds, parts, shown, same, entry, most, mines, open, voided, verdictText, checkedOk,
  tile, revealedPicks, over, wordsUsed, kind]
