package io.github.fairmines

import java.io.File
import java.math.BigInteger
import java.nio.file.Path
import java.util.concurrent.Callable
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import org.json.JSONArray
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.api.io.TempDir

/*
 * The game through the binding: conversion of every type in and out, every argument's error naming it, the
 * errors of the game crossing with their code and name, a short game (the no-rotation-in-play sequence included), rounds
 * resumed from the pair's state (in this process and in another JVM) and the lock that makes a second move
 * wait. The rules of the game are tested once, in the core (crates/fairmines/tests/game.rs, game_machine.rs,
 * resume.rs).
 */

private fun JSONArray.ints(): List<Int> = (0 until length()).map { getInt(it) }

/** The ratio a/b in lowest terms with its decimal rounded down to 2 places, computed here independently. */
private fun ratioOf(n: BigInteger, d: BigInteger): Ratio {
    val g = n.gcd(d)
    val exact = java.math.BigDecimal(n / g).divide(java.math.BigDecimal(d / g), 2, java.math.RoundingMode.DOWN)
    return Ratio((n / g).toString(), (d / g).toString(), exact.toPlainString())
}

private fun ratioOf(numerator: Long, denominator: Long): Ratio = ratioOf(numerator.toBigInteger(), denominator.toBigInteger())

/** Runs `call`, expects `T`, and checks its code, name, argument and message. */
internal inline fun <reified T : FairminesException> expectError(
    code: Int,
    name: String,
    argument: String?,
    noinline call: () -> Any?,
): T {
    val error = assertThrows<T> { call() }
    val (actualCode, actualName, actualArgument, reason) = when (error) {
        is FairminesException.InvalidMines -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.InvalidNonce -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.InvalidTile -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.InvalidHex -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.TileAlreadyRevealed -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.RoundFinished -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.NothingToCashOut -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.InvalidRtp -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.InvalidPicks -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.InvalidNumber -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.InvalidState -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.RoundsInPlay -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.RoundVoided -> listOf(error.code, error.name, error.argument, error.reason)
        is FairminesException.RoundNotInPlay -> listOf(error.code, error.name, error.argument, error.reason)
        else -> error("unexpected error $error")
    }
    assertEquals(code, actualCode, error.message)
    assertEquals(name, actualName, error.message)
    assertEquals(argument, actualArgument, error.message)
    if (argument != null) assertTrue((reason as String).startsWith("$argument: "), reason)
    // Kotlin's message is UniFFI's summary of the fields: it names the argument too.
    assertTrue(error.message!!.startsWith("code=$code, name=$name, argument=$argument, reason="), error.message)
    return error
}

/** What a move answered, comparable between two runs: its result, or the error's class and message. */
private fun answer(call: () -> Any?): Any? =
    try { call() } catch (e: FairminesException) { "${e::class.simpleName}: ${e.message}" }

/**
 * One round of the worked example's pair at nonce 1 (with 3 mines: at 7, 10 and 19), played move by move. With
 * `restart`, after every move the pair's state is written and everything else let go, as a service that stops
 * between any two moves: the pair and the round are closed, the pair comes back from the text, and the round
 * from the pair by its nonce while it is in play (a finished round has left the state, and its object is kept
 * for its record).
 */
private class Table(mines: Int, private val restart: Boolean) {
    var pair = SeedPair.fromParts(SERVER, CLIENT, 1L)
    var round = pair.startRound(mines, "0.99")
    val answers = mutableListOf<Any?>()
    var restarts = 0

    fun reveal(tile: Int) = move { round.reveal(tile) }
    fun cashOut() = move { round.cashOut() }
    fun void() = move { pair.voidOpenRounds() }

    private fun move(call: () -> Any?) {
        answers += answer(call)
        if (!restart) return
        val state = pair.toStateJson()
        val picks = round.picks()
        pair.close()
        pair = SeedPair.fromStateJson(state)
        assertEquals(state, pair.toStateJson())
        if (round.isFinished()) {
            assertEquals(emptyList<Long>(), pair.openRounds(), "a finished round leaves the state")
        } else {
            round.close()
            round = pair.round(1L)
            assertEquals(picks, round.picks(), "the state held every pick")
            assertNull(round.minePositions())
        }
        restarts++
    }
}

/** Plays `moves` uninterrupted and with a restart after every move; both must answer the same. */
private fun bothWays(mines: Int, moves: Table.() -> Unit): Pair<List<Any?>, RoundRecord> {
    val straight = Table(mines, restart = false).apply(moves)
    val resumed = Table(mines, restart = true).apply(moves)
    assertEquals(straight.answers.size, resumed.restarts)
    assertEquals(straight.answers, resumed.answers)
    val record = straight.round.record()!!
    assertEquals(record, resumed.round.record())
    assertEquals(listOf(straight.round.outcome(), straight.round.multiplier(), straight.round.minePositions()),
        listOf(resumed.round.outcome(), resumed.round.multiplier(), resumed.round.minePositions()))
    assertTrue(verifyRound(record, SERVER).ok)
    return straight.answers to record
}

/**
 * One side of the two-process test, run in a JVM of its own so that nothing but the state file passes from the
 * process that starts a round to the one that ends it (here, not in a file of its own, so that this file alone
 * carries the test, as scripts/test-dist-uniffi.sh copies it):
 *
 *   start STATE_FILE SERVER CLIENT NONCE MINES TILE   a pair from its parts starts a round (RTP 0.99) at NONCE,
 *                                                      reveals TILE, and writes its state to STATE_FILE
 *   resume STATE_FILE NONCE TILE                      the pair restored from STATE_FILE gives back the round at
 *                                                      NONCE, which reveals TILE and cashes out; the pair's state is
 *                                                      written back, and the round's record printed as JSON
 */
object ResumeProcess {
    @JvmStatic
    fun main(args: Array<String>) {
        val file = File(args[1])
        when (args[0]) {
            "start" -> SeedPair.fromParts(args[2], args[3], args[4].toULong().toLong()).use { pair ->
                pair.startRound(args[5].toInt(), "0.99").use { round -> round.reveal(args[6].toInt()) }
                file.writeText(pair.toStateJson())
            }
            "resume" -> SeedPair.fromStateJson(file.readText()).use { pair ->
                pair.round(args[2].toULong().toLong()).use { round ->
                    round.reveal(args[3].toInt())
                    round.cashOut()
                    file.writeText(pair.toStateJson())
                    println(round.record()!!.toJson())
                }
            }
            else -> error("unknown step ${args[0]}")
        }
    }
}

/**
 * Runs ResumeProcess in a JVM of its own: this JVM's java, class path and library path (when one is set; without
 * it JNA finds the library on the class path, as from the released JAR). What it printed.
 */
private fun jvm(vararg args: String): String {
    val libraryPath = System.getProperty("jna.library.path")?.let { listOf("-Djna.library.path=$it") }.orEmpty()
    val command = listOf(File(System.getProperty("java.home"), "bin/java").path) + libraryPath +
        listOf("-cp", System.getProperty("java.class.path"), ResumeProcess::class.java.name) + args
    val process = ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start()
    val output = process.inputStream.bufferedReader().readText()
    assertEquals(0, process.waitFor(), "${args.toList()} failed; it printed: $output")
    return output
}

class GameTest {
    @Test
    fun `a round, a refused rotation, voiding and the record verified`() {
        // (The README's own Kotlin program is ../../../ReadmeExample.kt, run by ReadmeTest.)
        // The game (an operator would use SeedPair(clientSeed); a known seed shows the worked example's round).
        val server = SERVER
        val client = CLIENT
        val pair = SeedPair.fromParts(server, client, 1L)
        val commitment = pair.publicPart().commitment          // shown to the player before play
        val round = pair.startRound(3, "0.99")             // nonce 1: mines at 7, 10 and 19
        val first = round.reveal(1)
        check(first.safe && first.safePicks == 1 && !first.finished && first.multiplier!!.decimal == "1.12")   // 9/8 rounded down
        val paid = round.cashOut()
        check(paid.numerator == "9" && paid.denominator == "8" && paid.toString() == "9/8")
        val record = round.record()!!                      // publish record.toJson()
        val next = pair.startRound(3, "0.99")              // nonce 2, in play: its mines hang on the secret seed
        try { pair.rotate(null) } catch (e: FairminesException.RoundsInPlay) { println(e.code) }   // 16
        check(pair.voidOpenRounds() == listOf(2L))        // (or finish it) then the pair can rotate
        val revealed = pair.rotate(null)                   // the old server seed may now be published
        check(revealed.commitment == commitment)
        check(verifyRound(record, revealed.serverSeed).ok)
        try { round.reveal(2) } catch (e: FairminesException.RoundFinished) { println(e.code) }   // 10
        try { next.reveal(2) } catch (e: FairminesException.RoundVoided) { println(e.code) }     // 17
        assertEquals(SERVER, revealed.serverSeed)
        assertEquals(3L, revealed.rounds)
        assertEquals(Outcome.VOIDED, next.outcome())
    }

    @Test
    fun `a short game maps every result field for field`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 1L)
        val round = pair.startRound(3, "0.99")             // nonce 1: mines at 7, 10 and 19
        assertEquals(2L, pair.publicPart().nonce)
        assertEquals(listOf(1L), pair.openRounds())
        assertEquals(listOf(1L, 3, commitment(SERVER), CLIENT, ratioOf(99, 100)),
            listOf(round.nonce(), round.mines(), round.commitment(), round.clientSeed(), round.rtp()))
        assertNull(round.minePositions())
        assertNull(round.record())
        assertNull(round.outcome())
        assertNull(round.multiplier())
        assertEquals(Reveal(1, true, 1, ratioOf(9, 8), false), round.reveal(1))   // 25/22 × 99/100
        assertEquals(Reveal(2, true, 2, multiplier(3, 2, "0.99"), false), round.reveal(2))
        assertEquals(listOf(listOf(1, 2), 2, multiplier(3, 2, "0.99"), false),
            listOf(round.picks(), round.safePicks(), round.multiplier(), round.isFinished()))
        assertEquals(Reveal(19, false, 2, null, true), round.reveal(19))
        assertEquals(listOf(Outcome.LOST, listOf(7, 10, 19), true),
            listOf(round.outcome(), round.minePositions(), round.isFinished()))
        assertNull(round.multiplier())
        assertEquals(listOf(Outcome.LOST, Outcome.CASHED_OUT, Outcome.VOIDED), Outcome.entries.toList())

        val record = round.record()!!
        assertEquals(RoundRecord(commitment(SERVER), CLIENT, 1L, 3, ratioOf(99, 100), listOf(1, 2, 19), Outcome.LOST, null), record)
        val verdict = verifyRound(record, SERVER)
        assertEquals(RoundVerification(true, true, listOf(7, 10, 19), Outcome.LOST, null, emptyList()), verdict)
        val tampered = verifyRound(record.copy(outcome = Outcome.CASHED_OUT), SERVER)
        assertFalse(tampered.ok)
        assertTrue(tampered.differences.any { it.startsWith("outcome: ") }, tampered.differences.toString())

        // The last safe tile pays out by itself: finished, with the multiplier paid.
        val one = SeedPair.fromParts(SERVER, CLIENT, 1L).startRound(24, "1")
        val safe = (1..25).single { it !in minePositions(SERVER, CLIENT, 1L, 24) }
        assertEquals(Reveal(safe, true, 1, ratioOf(25, 1), true), one.reveal(safe))
        assertEquals(Outcome.CASHED_OUT, one.outcome())
    }

    @Test
    fun `no rotation while a round is in play, then a voided round refuses every move`() {
        val pair = SeedPair("player seed")
        val round = pair.startRound(5, "99/100")
        val before = pair.publicPart()
        val rotate = expectError<FairminesException.RoundsInPlay>(16, "ROUNDS_IN_PLAY", null) { pair.rotate(null) }
        assertTrue(rotate.reason.contains("(nonce 0)"), rotate.reason)
        val change = expectError<FairminesException.RoundsInPlay>(16, "ROUNDS_IN_PLAY", null) { pair.setClientSeed("other") }
        assertTrue(change.reason.contains("(nonce 0)"), change.reason)
        assertEquals(before, pair.publicPart(), "a refused rotation changes nothing")
        assertFalse(round.isFinished())
        assertEquals(listOf(0L), pair.openRounds())

        assertEquals(listOf(0L), pair.voidOpenRounds())
        assertEquals(emptyList<Long>(), pair.openRounds())
        val revealed = pair.rotate() // without an argument the client seed is kept
        assertEquals(before.commitment, revealed.commitment)
        assertEquals(1L, revealed.rounds)
        assertEquals(listOf(before.clientSeed, 0L), listOf(pair.publicPart().clientSeed, pair.publicPart().nonce))

        // With the revealed seed the grid is known: every safe tile is refused, and so is a cash-out.
        val mines = minePositions(revealed.serverSeed, "player seed", 0L, 5)
        for (tile in (1..25).filter { it !in mines }) {
            expectError<FairminesException.RoundVoided>(17, "ROUND_VOIDED", null) { round.reveal(tile) }
        }
        expectError<FairminesException.RoundVoided>(17, "ROUND_VOIDED", null) { round.cashOut() }
        assertTrue(round.isFinished())
        assertEquals(Outcome.VOIDED, round.outcome())
        assertNull(round.multiplier())
        assertEquals(mines, round.minePositions())

        val record = round.record()!!
        assertEquals(Outcome.VOIDED, record.outcome)
        assertNull(record.multiplier)
        assertEquals("voided", JSONObject(record.toJson()).getString("outcome"))
        assertEquals(record, roundRecordFromJson(record.toJson()))
        val verdict = verifyRound(record, revealed.serverSeed)
        assertTrue(verdict.ok && verdict.commitmentOk, verdict.toString())
        assertEquals(Outcome.VOIDED, verdict.expectedOutcome)
        assertNull(verdict.expectedMultiplier)
    }

    @Test
    fun `a round resumed after every move answers as an uninterrupted one - a loss, a cash-out, a full clear, a void`() {
        val safe = (1..25).filter { it !in listOf(7, 10, 19) }
        val (lost, lostRecord) = bothWays(3) { reveal(1); reveal(2); reveal(10); reveal(3); cashOut() }
        assertEquals(Reveal(10, false, 2, null, true), lost[2])
        assertTrue((lost[3] as String).startsWith("RoundFinished: "), lost[3].toString())
        assertEquals(listOf(Outcome.LOST, listOf(1, 2, 10), null), listOf(lostRecord.outcome, lostRecord.picks, lostRecord.multiplier))

        val (cashed, cashedRecord) = bothWays(3) { reveal(1); reveal(2); reveal(3); cashOut(); reveal(4) }
        assertEquals(multiplier(3, 3, "0.99"), cashed[3])
        assertTrue((cashed[4] as String).startsWith("RoundFinished: "), cashed[4].toString())
        assertEquals(listOf(Outcome.CASHED_OUT, multiplier(3, 3, "0.99")), listOf(cashedRecord.outcome, cashedRecord.multiplier))

        val (cleared, clearedRecord) = bothWays(3) { safe.forEach { reveal(it) }; cashOut() }
        assertEquals(Reveal(safe.last(), true, 22, multiplier(3, 22, "0.99"), true), cleared[21])
        assertTrue(cleared.take(21).all { it is Reveal && !it.finished }, cleared.toString())
        assertTrue((cleared[22] as String).startsWith("RoundFinished: "), cleared[22].toString())
        assertEquals(listOf(Outcome.CASHED_OUT, safe, multiplier(3, 22, "0.99")),
            listOf(clearedRecord.outcome, clearedRecord.picks, clearedRecord.multiplier))

        val (voided, voidedRecord) = bothWays(3) { reveal(1); reveal(2); void(); reveal(3); cashOut() }
        assertEquals(listOf(1L), voided[2])
        assertTrue(voided.drop(3).all { (it as String).startsWith("RoundVoided: ") }, voided.toString())
        assertEquals(listOf(Outcome.VOIDED, listOf(1, 2), null), listOf(voidedRecord.outcome, voidedRecord.picks, voidedRecord.multiplier))
    }

    @Test
    fun `the state holds each round in play whole, written by every move`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 1L)
        val round = pair.startRound(3, "99/100")         // nonce 1: mines at 7, 10 and 19
        val rounds = { JSONObject(pair.toStateJson()).getJSONArray("rounds") }
        val state = JSONObject(pair.toStateJson())
        assertEquals(2, state.getInt("version"))
        assertEquals(listOf(SERVER, commitment(SERVER), CLIENT, 2),
            listOf(state.getString("server_seed"), state.getString("commitment"), state.getString("client_seed"), state.getInt("nonce")))
        assertTrue(JSONObject(mapOf("nonce" to 1, "mines" to 3, "rtp" to "99/100", "picks" to emptyList<Int>())).similar(rounds().getJSONObject(0)))
        round.reveal(1)
        assertEquals(listOf(1), rounds().getJSONObject(0).getJSONArray("picks").ints())
        round.reveal(2)
        assertEquals(listOf(1, 2), rounds().getJSONObject(0).getJSONArray("picks").ints())
        round.cashOut()
        assertEquals(0, rounds().length(), "a finished round leaves the state")
    }

    @Test
    fun `round(nonce) refuses a nonce with no round to go on with as RoundNotInPlay naming the nonce`() {
        fun notInPlay(pair: SeedPair, nonce: Long, reason: String) {
            val error = expectError<FairminesException.RoundNotInPlay>(18, "ROUND_NOT_IN_PLAY", "nonce") { pair.round(nonce) }
            assertEquals("nonce: $reason", error.reason)
        }
        val none = { n: Long -> "no round of this seed pair is in play at nonce ${n.toULong()}: it was never started, has finished or was voided" }
        val handedOut = { n: Long -> "the round at nonce ${n.toULong()} is already handed out by this seed pair: go on with that round" }
        val voidOnly = { n: Long -> "the round at nonce ${n.toULong()} was saved by a version that kept only its nonce, without its picks: it can only be voided" }

        val pair = SeedPair.fromParts(SERVER, CLIENT, 1L)
        for (nonce in listOf(0L, 1L, 2L, ULong.MAX_VALUE.toLong())) notInPlay(pair, nonce, none(nonce))   // never started
        val lost = pair.startRound(3, "0.99")             // nonce 1: mines at 7, 10 and 19
        lost.reveal(7)
        val cashed = pair.startRound(3, "0.99")           // nonce 2: mines at 12, 20 and 23
        cashed.reveal(1)
        cashed.cashOut()
        pair.startRound(3, "0.99").use { voided ->        // nonce 3
            assertEquals(listOf(3L), pair.voidOpenRounds())
            assertTrue(voided.isFinished())
        }
        val restored = SeedPair.fromStateJson(pair.toStateJson())
        for (nonce in 1L..3L) {                         // finished, finished, voided
            notInPlay(pair, nonce, none(nonce))
            notInPlay(restored, nonce, none(nonce))
        }

        // Handed out already, by startRound or by round(nonce), while that Round lives; once closed, again.
        val safe = (1..25).first { it !in minePositions(SERVER, CLIENT, 4L, 3) }
        val round = pair.startRound(3, "0.99")            // nonce 4
        round.reveal(safe)
        notInPlay(pair, 4L, handedOut(4L))
        round.close()
        pair.round(4L).use { again ->
            assertEquals(listOf(safe), again.picks())
            notInPlay(pair, 4L, handedOut(4L))
        }
        val fromState = SeedPair.fromStateJson(pair.toStateJson())
        fromState.round(4L).use { resumed ->
            assertEquals(listOf(safe), resumed.picks())
            notInPlay(fromState, 4L, handedOut(4L))
        }
        assertEquals(listOf(safe), fromState.round(4L).picks())

        // A state written before rounds were saved whole (no version, bare nonces): its rounds can only be voided.
        val v1 = JSONObject(mapOf("server_seed" to SERVER, "commitment" to commitment(SERVER), "client_seed" to CLIENT,
            "nonce" to 4, "open_rounds" to listOf(1, 3))).toString()
        val old = SeedPair.fromStateJson(v1)
        assertEquals(listOf(1L, 3L), old.openRounds())
        notInPlay(old, 1L, voidOnly(1L))
        notInPlay(old, 3L, voidOnly(3L))
        notInPlay(old, 2L, none(2L))
        val rewritten = JSONObject(old.toStateJson())
        assertEquals(2, rewritten.getInt("version"))
        assertEquals("[{\"nonce\":1},{\"nonce\":3}]", rewritten.getJSONArray("rounds").toString())
        notInPlay(SeedPair.fromStateJson(rewritten.toString()), 3L, voidOnly(3L))
        expectError<FairminesException.RoundsInPlay>(16, "ROUNDS_IN_PLAY", null) { old.rotate(null) }
        assertEquals(listOf(1L, 3L), old.voidOpenRounds())
        assertEquals(4L, old.rotate(null).rounds)
    }

    @Test
    fun `a state that does not hold together is refused naming the field`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 1L)
        pair.startRound(3, "0.99").use { it.reveal(1) }    // nonce 1: mines at 7, 10 and 19
        fun refused(change: (JSONObject) -> Unit): String {
            val state = JSONObject(pair.toStateJson())
            change(state.getJSONArray("rounds").getJSONObject(0))
            return expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "state") { SeedPair.fromStateJson(state.toString()) }.reason
        }
        assertEquals("state: rounds[0].picks[1]: tile 1 is picked twice", refused { it.put("picks", JSONArray(listOf(1, 1))) })
        assertEquals("state: rounds[0].picks[1]: tile 7 is a mine, so the round would have finished",
            refused { it.put("picks", JSONArray(listOf(1, 7))) })
        assertEquals("state: rounds[0].nonce: 2 is not below the pair's next nonce 2", refused { it.put("nonce", 2) })
    }

    @Test
    fun `a round started in one process and resumed in another ends as an uninterrupted one`(@TempDir dir: Path) {
        val stateFile = dir.resolve("state.json").toFile()
        // Nonce 1 of the worked example's pair, 3 mines at 7, 10 and 19: tile 1 in the first JVM, tile 2 in the second.
        assertEquals("", jvm("start", stateFile.path, SERVER, CLIENT, "1", "3", "1"))
        val saved = JSONObject(stateFile.readText()).getJSONArray("rounds")
        assertEquals(listOf(1), saved.getJSONObject(0).getJSONArray("picks").ints())
        val printed = jvm("resume", stateFile.path, "1", "2").trim()

        val straight = SeedPair.fromParts(SERVER, CLIENT, 1L).startRound(3, "0.99")
        straight.reveal(1)
        straight.reveal(2)
        assertEquals(multiplier(3, 2, "0.99"), straight.cashOut())
        assertEquals(straight.record()!!.toJson(), printed)

        // The second process stored the pair after the cash-out: no round in play, so it rotates, and the record
        // verifies against the server seed it reveals.
        val after = SeedPair.fromStateJson(stateFile.readText())
        assertEquals(emptyList<Long>(), after.openRounds())
        val record = roundRecordFromJson(printed)
        val revealed = after.rotate(null)
        assertEquals(listOf(SERVER, record.commitment, 2L), listOf(revealed.serverSeed, revealed.commitment, revealed.rounds))
        val verdict = verifyRound(record, revealed.serverSeed)
        assertEquals(RoundVerification(true, true, listOf(7, 10, 19), Outcome.CASHED_OUT, multiplier(3, 2, "0.99"), emptyList()), verdict)
    }

    @Test
    fun `records and seed pairs cross JSON and the boundary exactly`() {
        val round = SeedPair.fromParts(SERVER, CLIENT, 1L).startRound(3, "0.99")
        listOf(1, 2, 3).forEach { round.reveal(it) }
        round.cashOut()
        val record = round.record()!!
        val json = JSONObject(record.toJson())
        assertEquals(commitment(SERVER), json.getString("commitment"))
        assertEquals(CLIENT, json.getString("client_seed"))
        assertEquals(1, json.getInt("nonce"))
        assertEquals(3, json.getInt("mines"))
        assertEquals("99/100", json.getString("rtp"))
        assertEquals(listOf(1, 2, 3), json.getJSONArray("picks").ints())
        assertEquals("cashed_out", json.getString("outcome"))
        assertEquals(record.multiplier.toString(), json.getString("multiplier"))
        assertEquals(record, roundRecordFromJson(record.toJson()))
        val lost = record.copy(picks = listOf(1, 2, 3, 7), outcome = Outcome.LOST, multiplier = null)
        assertTrue(JSONObject(lost.toJson()).isNull("multiplier"))
        assertEquals(lost, roundRecordFromJson(lost.toJson()))
        assertTrue(verifyRound(lost, SERVER).ok)

        val pair = SeedPair.fromParts(SERVER, CLIENT, 5L)
        val state = pair.toStateJson()
        assertEquals(state, SeedPair.fromStateJson(state).toStateJson())
        val public = pair.publicPart()
        assertTrue(JSONObject(mapOf("commitment" to commitment(SERVER), "client_seed" to CLIENT, "nonce" to 5)).similar(JSONObject(public.toJson())))
        assertEquals(public, publicSeedPairFromJson(public.toJson()))
        val revealed = pair.rotate("next seed")
        assertEquals(RevealedSeedPair(SERVER, commitment(SERVER), CLIENT, 5L), revealed)
        assertEquals(revealed, revealedSeedPairFromJson(revealed.toJson()))
        assertEquals("next seed", pair.publicPart().clientSeed)
        assertEquals("next seed", pair.setClientSeed("third").clientSeed)
        assertEquals("third", pair.publicPart().clientSeed)
    }

    @Test
    fun `every argument's error names it`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 1L)
        for (mines in listOf(0, 25, -1, Int.MAX_VALUE, Int.MIN_VALUE)) {
            expectError<FairminesException.InvalidMines>(1, "INVALID_MINES", "mines") { pair.startRound(mines, "0.99") }
            expectError<FairminesException.InvalidMines>(1, "INVALID_MINES", "mines") { multiplier(mines, 1, "0.99") }
            expectError<FairminesException.InvalidMines>(1, "INVALID_MINES", "mines") { maxSafePicks(mines) }
        }
        for (rtp in listOf("0", "abc")) {
            expectError<FairminesException.InvalidRtp>(12, "INVALID_RTP", "rtp") { pair.startRound(3, rtp) }
            expectError<FairminesException.InvalidRtp>(12, "INVALID_RTP", "rtp") { payoutTable(rtp) }
            expectError<FairminesException.InvalidRtp>(12, "INVALID_RTP", "rtp") { multiplier(3, 1, rtp) }
        }
        assertEquals(1L, pair.publicPart().nonce, "a refused start uses no nonce")
        val round = pair.startRound(3, "0.99")          // nonce 1: mines at 7, 10 and 19
        for (tile in listOf(0, 26, -1, Int.MAX_VALUE, Int.MIN_VALUE)) {
            val error = expectError<FairminesException.InvalidTile>(3, "INVALID_TILE", "tile") { round.reveal(tile) }
            assertEquals("tile: must be from 1 to 25, got $tile", error.reason)
        }
        for (picks in listOf(0, 23, -1, Int.MAX_VALUE)) {
            val error = expectError<FairminesException.InvalidPicks>(13, "INVALID_PICKS", "safe_picks") { multiplier(3, picks, "0.99") }
            assertEquals("safe_picks: must be from 1 to 22 with 3 mines, got $picks", error.reason)
        }
        // More places than 18 are refused, not clamped.
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "places") { ratioToDecimal(ratioOf(9, 8), 19) }
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "ratio.denominator") { ratioToDecimal(Ratio("1", "0", ""), 2) }
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "ratio.numerator") { ratioToDecimal(Ratio("x", "1", ""), 2) }
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "ratio.numerator") { ratioToDecimal(Ratio("+1", "1", ""), 2) }
        expectError<FairminesException.InvalidHex>(4, "INVALID_HEX", "server_seed") { SeedPair.fromParts("abc", CLIENT, 0L) }
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "state") { SeedPair.fromStateJson("{\"nonce\": 1}") }
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "record") { roundRecordFromJson("{}") }
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "public") { publicSeedPairFromJson("{}") }
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "revealed") { revealedSeedPairFromJson("[") }
        val public = pair.publicPart()
        expectError<FairminesException.InvalidHex>(4, "INVALID_HEX", "commitment") { public.copy(commitment = "abc").toJson() }
        val revealed = RevealedSeedPair(SERVER, "x".repeat(64), CLIENT, 0L)
        expectError<FairminesException.InvalidHex>(4, "INVALID_HEX", "commitment") { revealed.toJson() }
    }

    @Test
    fun `the errors of the game cross with their code and name`() {
        val round = SeedPair.fromParts(SERVER, CLIENT, 1L).startRound(3, "0.99")   // mines at 7, 10 and 19
        expectError<FairminesException.NothingToCashOut>(11, "NOTHING_TO_CASH_OUT", null) { round.cashOut() }
        round.reveal(1)
        val twice = expectError<FairminesException.TileAlreadyRevealed>(9, "TILE_ALREADY_REVEALED", "tile") { round.reveal(1) }
        assertEquals("tile: tile 1 was already revealed in this round", twice.reason)
        round.cashOut()
        expectError<FairminesException.RoundFinished>(10, "ROUND_FINISHED", null) { round.reveal(2) }
        // Nonce 2^64 - 1 starts no round, by one rule: startRound there and fromParts with it.
        SeedPair.fromParts(SERVER, CLIENT, (ULong.MAX_VALUE - 1uL).toLong()).use { last ->
            assertEquals(ULong.MAX_VALUE - 1uL, last.startRound(3, "0.99").nonce().toULong())
            val there = expectError<FairminesException.InvalidNonce>(2, "INVALID_NONCE", "nonce") { last.startRound(3, "0.99") }
            assertEquals("nonce: 18446744073709551615 starts no round: a seed pair plays nonces 0 to 18446744073709551614 (it counts its rounds in 64 bits); rotate to a new seed pair", there.reason)
            val made = expectError<FairminesException.InvalidNonce>(2, "INVALID_NONCE", "nonce") {
                SeedPair.fromParts(SERVER, CLIENT, ULong.MAX_VALUE.toLong())
            }
            assertEquals(there.reason, made.reason)
        }
    }

    @Test
    fun `hand-made records are errors naming the field`() {
        val record = SeedPair.fromParts(SERVER, CLIENT, 1L).startRound(3, "0.99").let { it.reveal(1); it.cashOut(); it.record()!! }
        expectError<FairminesException.InvalidHex>(4, "INVALID_HEX", "commitment") { verifyRound(record.copy(commitment = "f5ec"), SERVER) }
        expectError<FairminesException.InvalidMines>(1, "INVALID_MINES", "mines") { verifyRound(record.copy(mines = 0), SERVER) }
        expectError<FairminesException.InvalidTile>(3, "INVALID_TILE", "picks") { verifyRound(record.copy(picks = listOf(1, 26)), SERVER) }
        expectError<FairminesException.InvalidTile>(3, "INVALID_TILE", "picks") { record.copy(picks = List(26) { 1 }).toJson() }
        val zero = expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "rtp.denominator") { verifyRound(record.copy(rtp = Ratio("99", "0", "")), SERVER) }
        assertEquals("rtp.denominator: must not be 0", zero.reason)
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "multiplier.numerator") { record.copy(multiplier = Ratio("-1", "2", "")).toJson() }
        expectError<FairminesException.InvalidRtp>(12, "INVALID_RTP", "rtp") { verifyRound(record.copy(rtp = Ratio("3", "2", "")), SERVER) }
        // A hand-made ratio is reduced, its decimal ignored; parts beyond 2^127 are taken exactly.
        val max = "340282366920938463463374607431768211455"
        assertTrue(verifyRound(record.copy(rtp = Ratio("198", "200", "wrong")), SERVER).ok)
        assertEquals(ratioOf(25, 22), verifyRound(record.copy(rtp = Ratio(max, max, "")), SERVER).expectedMultiplier)
        assertEquals(max, ratioToDecimal(Ratio(max, "1", ""), 0))
    }

    @Test
    fun `payouts cross as exact ratios`() {
        assertEquals(22, maxSafePicks(3))
        assertEquals(ratioOf(9, 8), multiplier(3, 1, "0.99"))      // 25/22 × 99/100
        assertEquals(ratioOf(2300, 1), multiplier(3, 22, "1"))     // C(25,22) / C(22,22)
        assertEquals("24.75", multiplier(24, 1, "0.99").decimal)
        val m = multiplier(1, 1, "1")                                // 25/24
        assertEquals(listOf("1.04", "1.0416", "1", "25/24"), listOf(m.decimal, ratioToDecimal(m, 4), ratioToDecimal(m, 0), m.toString()))
        assertEquals("2300", multiplier(3, 22, "1").toString())
        val table = payoutTable("0.99")
        assertEquals(300, table.size)
        assertEquals(TableEntry(1, 1, multiplier(1, 1, "0.99")), table.first())
        assertEquals(TableEntry(24, 1, multiplier(24, 1, "0.99")), table.last())
        // Ratios wider than 64 bits stay exact: an RTP with 30 decimal places.
        val wide = multiplier(1, 1, "0.999999999999999999999999999999")
        val ten30 = BigInteger.TEN.pow(30)
        assertEquals(ratioOf(25.toBigInteger() * (ten30 - BigInteger.ONE), 24.toBigInteger() * ten30), wide)
        assertTrue(wide.denominator.toBigInteger() > ULong.MAX_VALUE.toString().toBigInteger(), wide.toString())
    }

    @Test
    fun `the server seed never shows in string forms`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 0L)
        assertEquals("SeedPair(commitment=${commitment(SERVER)}, client_seed=\"$CLIENT\", nonce=0, server_seed=<hidden>)", pair.toString())
        val fresh = SeedPair("c")
        assertFalse(fresh.toString().contains(JSONObject(fresh.toStateJson()).getString("server_seed")))
        // A round in play does not show its grid either.
        pair.startRound(3, "0.99").use { round ->
            val text = round.toString()
            assertTrue(text.startsWith("Round {"), text)
            assertFalse(text.contains("placement"), text)
        }
    }

    @Test
    fun `several threads computing mine positions at once get the single-threaded results`() {
        val cases = Vectors.cases
        val expected = cases.map { it.getJSONArray("positions").ints() }
        val pool = Executors.newFixedThreadPool(8)
        try {
            val tasks = (0 until 8).map { t ->
                Callable {
                    // Each thread runs the whole file, starting at a different place.
                    val offset = t * cases.size / 8
                    cases.indices.map { j ->
                        val i = (j + offset) % cases.size
                        val c = cases[i]
                        i to minePositions(c.getString("server_seed"), c.getString("client_seed"), c.getLong("nonce"), c.getInt("mines"))
                    }
                }
            }
            for (future in pool.invokeAll(tasks)) {
                for ((i, positions) in future.get()) assertEquals(expected[i], positions, cases[i].getString("id"))
            }
        } finally {
            pool.shutdown()
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS))
        }
    }

    @Test
    fun `a second move on one round waits for the first`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 0L)
        val pool = Executors.newFixedThreadPool(8)
        try {
            // 8 threads × 25 rounds each: every nonce 0..199 is used exactly once.
            val rounds = pool.invokeAll((0 until 8).map { Callable { (0 until 25).map { pair.startRound(3, "0.99") } } })
                .flatMap { it.get() }
            assertEquals((0L until 200L).toList(), rounds.map { it.nonce() }.sorted())
            rounds.forEach { it.close() }
            // 25 threads reveal the 25 tiles of one round: each tile is revealed once, by one thread.
            val round = pair.startRound(1, "1")
            val mine = minePositions(SERVER, CLIENT, 200L, 1).single()
            val results = pool.invokeAll((1..25).map { tile -> Callable { runCatching { round.reveal(tile) } } }).map { it.get() }
            val picks = round.picks()
            assertTrue(round.isFinished())
            assertEquals(picks.toSet().size, picks.size, "a tile was revealed twice: $picks")
            assertEquals(results.count { it.isSuccess }, picks.size)
            assertTrue(results.all { it.isSuccess || it.exceptionOrNull() is FairminesException.RoundFinished })
            assertEquals(1, results.count { it.getOrNull()?.finished == true }, "exactly one move ended the round")
            val record = round.record()!!
            assertTrue(verifyRound(record, SERVER).ok)
            assertEquals(if (mine in picks) Outcome.LOST else Outcome.CASHED_OUT, record.outcome)
        } finally {
            pool.shutdown()
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS))
        }
    }
}
