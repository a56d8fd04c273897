import io.github.fairmines.*

fun main() {
    val server = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a"
    val client = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817"
    println(minePositions(server, client, 1L, 3))
    val verdict = verify(server, client, 1L, 3,
        commitment = "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42", positions = listOf(7, 10, 19))
    println("verdict ${verdict.verdict}, ok ${verdict.ok}")
    try { minePositions(server, client, 1L, 25) } catch (e: FairminesException.InvalidMines) { println(e.reason) }

    // The game (an operator would use SeedPair(clientSeed); a known seed shows the worked example's round).
    val pair = SeedPair.fromParts(server, client, 1L)
    val commitment = pair.publicPart().commitment      // shown to the player before play
    val round = pair.startRound(3, "0.99")             // nonce 1: mines at 7, 10 and 19
    val first = round.reveal(1)
    println("tile ${first.tile}: safe=${first.safe}, safe picks ${first.safePicks}, x${first.multiplier?.decimal}")
    val paid = round.cashOut()                         // exact: 9/8 (25/22 x 99/100)
    println("cashed out at $paid")
    val record = round.record()!!
    println(record.toJson())                           // published
    val next = pair.startRound(3, "0.99")              // nonce 2, in play: mines at 12, 20 and 23
    next.reveal(1)
    val stored = pair.toStateJson()                    // store it after every move: it holds the picks (and the secret seed)

    // After a restart only the stored text is left: the pair comes back from it, and the round by its nonce.
    val restored = SeedPair.fromStateJson(stored)
    val resumed = restored.round(2L)
    println("nonce ${resumed.nonce()}: picks ${resumed.picks()}")
    val second = resumed.reveal(2)                     // goes on as if the process had never stopped
    println("tile ${second.tile}: safe=${second.safe}, safe picks ${second.safePicks}")
    try { restored.round(1L) } catch (e: FairminesException.RoundNotInPlay) { println("${e.code} ${e.reason}") }
    try { restored.rotate(null) } catch (e: FairminesException.RoundsInPlay) { println("${e.code} ${e.reason}") }
    println(restored.voidOpenRounds())                 // (or finish it) then the pair can rotate
    val revealed = restored.rotate(null)               // the old server seed may now be published
    println(revealed.commitment == commitment && verifyRound(record, revealed.serverSeed).ok)
    try { round.reveal(2) } catch (e: FairminesException.RoundFinished) { println(e.code) }
    try { resumed.reveal(3) } catch (e: FairminesException.RoundVoided) { println(e.code) }
}
