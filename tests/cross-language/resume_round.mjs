#!/usr/bin/env node
// Goes on with a round in play from a seed pair's stored state, as a restarted Node service would:
//
//   node resume_round.mjs STATE_FILE NONCE MOVE...
//
// Restores the pair from STATE_FILE, takes its round at NONCE back (`pair.round(nonce)`), makes the moves in
// order (a tile 1..25 to reveal, or `cash-out`), writes the pair's new state back to STATE_FILE and prints
// the round's record JSON once it has finished (nothing while it is still in play).
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'

// The package is the repository's node/ folder, found from here.
const { SeedPair, recordToJson } = createRequire(import.meta.url)('../../node')

const [file, nonce, ...moves] = process.argv.slice(2)
const pair = SeedPair.fromStateJson(readFileSync(file, 'utf8'))
const round = pair.round(BigInt(nonce))
for (const move of moves) {
  if (move === 'cash-out') round.cashOut()
  else round.reveal(Number(move))
}
writeFileSync(file, pair.toStateJson())
const record = round.record()
if (record !== null) process.stdout.write(`${recordToJson(record)}\n`)
