#!/usr/bin/env node
// Plays one round of Mines through the `fairmines` package and prints its public record with the
// server seed, as one JSON line, for other implementations to verify:
//
//   node examples/play-round.mjs --server-seed <64 hex> --client-seed <text> --nonce <n> \
//        --mines <1..24> --rtp <0.99 | 99/100> --picks 3,14,25 [--void] [--stringify]
//
//   {"record":{"commitment":"…","client_seed":"…","nonce":0,"mines":3,"rtp":"99/100","picks":[3,14,25],
//    "outcome":"cashed_out","multiplier":"…"},"server_seed":"…"}
//
// The picks are revealed in order. The round ends at a mine (lost), after the last safe tile (paid
// out), or, when neither happened, with a cash-out after the last pick (with --void: the seed pair
// voids the round instead, as an operator does before rotating). Picks left after the round
// ended are not played (stderr says so). `record` is the core's JSON text, byte for byte as every
// fairmines package writes it: recordToJson's, or with --stringify what JSON.stringify(record) writes, as a
// backend's JSON log holds it (the same text; a nonce above 2^53 - 1 exact only where JSON.rawJSON exists). Exit status: 0 printed, 2 bad input (stderr: `code: message`).
import { parseArgs } from 'node:util'
import { SeedPair, recordToJson, verifyRound } from 'fairmines'

function fail(code, message) {
  process.stderr.write(`${code}: ${message}\n`)
  process.exit(2)
}

let values
try {
  ;({ values } = parseArgs({
    options: {
      'server-seed': { type: 'string' },
      'client-seed': { type: 'string' },
      nonce: { type: 'string' },
      mines: { type: 'string' },
      rtp: { type: 'string' },
      picks: { type: 'string' },
      void: { type: 'boolean' },
      stringify: { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  }))
} catch (error) {
  fail('usage', error.message)
}
for (const name of ['server-seed', 'client-seed', 'nonce', 'mines', 'rtp', 'picks']) {
  if (values[name] === undefined) fail('usage', `--${name} is required`)
}
if (!/^[0-9]+$/.test(values.nonce)) fail('usage', `--nonce: must be a decimal integer, got ${JSON.stringify(values.nonce)}`)
if (!/^[0-9]+$/.test(values.mines)) fail('usage', `--mines: must be a decimal integer, got ${JSON.stringify(values.mines)}`)
const picks = values.picks.split(',').map((p) => p.trim())
if (picks.some((p) => !/^[0-9]+$/.test(p))) fail('usage', `--picks: must be tiles such as 3,14,25, got ${JSON.stringify(values.picks)}`)

try {
  const serverSeed = values['server-seed']
  const pair = SeedPair.fromParts(serverSeed, values['client-seed'], BigInt(values.nonce))
  const round = pair.startRound(Number(values.mines), values.rtp)
  let played = 0
  for (const tile of picks) {
    if (round.isFinished) break
    round.reveal(Number(tile))
    played += 1
  }
  if (played < picks.length) {
    process.stderr.write(`play-round: the round ended (${round.outcome}) at pick ${played}; ${picks.length - played} pick(s) not played\n`)
  }
  if (!round.isFinished) {
    if (values.void) pair.voidOpenRounds()
    else round.cashOut()
  }
  const record = round.record()
  // The record must hold against the seed it was played with, before anyone else is asked to check it.
  const verdict = verifyRound(record, serverSeed)
  if (!verdict.ok) throw new Error(`the package's own record does not verify: ${verdict.differences.join('; ')}`)
  if (values.stringify) process.stdout.write(`${JSON.stringify({ record, server_seed: serverSeed })}\n`)
  else process.stdout.write(`{"record":${recordToJson(record)},"server_seed":${JSON.stringify(serverSeed)}}\n`)
} catch (error) {
  if (!error.code) throw error
  fail(error.code, error.message)
}
