import Fairmines

let server = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a"
let client = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817"
print(try minePositions(serverSeed: server, clientSeed: client, nonce: 1, mines: 3))
let verdict = try verify(serverSeed: server, clientSeed: client, nonce: 1, mines: 3,
                         commitment: "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42",
                         positions: [7, 10, 19])
print("verdict \(verdict.verdict), ok \(verdict.ok)")
do {
    _ = try minePositions(serverSeed: server, clientSeed: client, nonce: 1, mines: 25)
} catch FairminesError.InvalidMines(_, _, _, let message) {
    print(message)
}

// The game (an operator would use SeedPair(clientSeed:); a known seed shows the worked example's round).
let pair = try SeedPair.fromParts(serverSeed: server, clientSeed: client, nonce: 1)
let commitment = pair.publicPart().commitment          // shown to the player before play
let round = try pair.startRound(mines: 3, rtp: "0.99")  // nonce 1: mines at 7, 10 and 19
let first = try round.reveal(tile: 1)
print("tile \(first.tile): safe=\(first.safe), safe picks \(first.safePicks), x\(first.multiplier?.decimal ?? "-")")
let paid = try round.cashOut()                          // exact: 9/8 (25/22 x 99/100)
print("cashed out at \(paid)")
let record = round.record()!
print(try record.toJson())                              // published
let next = try pair.startRound(mines: 3, rtp: "0.99")   // nonce 2, in play: mines at 12, 20 and 23
_ = try next.reveal(tile: 1)
let stored = pair.toStateJson()                         // store it after every move: it holds the picks (and the secret seed)

// After a restart only the stored text is left: the pair comes back from it, and the round by its nonce.
let restored = try SeedPair.fromStateJson(json: stored)
let resumed = try restored.round(nonce: 2)
print("nonce \(resumed.nonce()): picks \(resumed.picks())")
let second = try resumed.reveal(tile: 2)                // goes on as if the process had never stopped
print("tile \(second.tile): safe=\(second.safe), safe picks \(second.safePicks)")
do {
    _ = try restored.round(nonce: 1)
} catch FairminesError.RoundNotInPlay(let code, _, _, let message) {
    print(code, message)
}
do {
    _ = try restored.rotate(clientSeed: nil)
} catch FairminesError.RoundsInPlay(let code, _, _, let message) {
    print(code, message)
}
print(restored.voidOpenRounds())                        // (or finish it) then the pair can rotate
let revealed = try restored.rotate(clientSeed: nil)     // the old server seed may now be published
let verification = try verifyRound(record: record, serverSeed: revealed.serverSeed)
print(revealed.commitment == commitment && verification.ok)
do {
    _ = try round.reveal(tile: 2)
} catch FairminesError.RoundFinished(let code, _, _, _) {
    print(code)
}
do {
    _ = try resumed.reveal(tile: 3)
} catch FairminesError.RoundVoided(let code, _, _, _) {
    print(code)
}
