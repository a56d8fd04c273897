package io.github.fairmines

import java.math.BigInteger
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

/*
 * The game through the binding: conversion of every type in and out, every argument's error naming it, the
 * errors of the game crossing with their code and name, a short game (the issue-21 sequence included) and the
 * lock that makes a second move wait. The rules of the game are tested once, in the core
 * (crates/fairmines/tests/game.rs, game_machine.rs).
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
        else -> error("unexpected error $error")
    }
    assertEquals(code.toUInt(), actualCode, error.message)
    assertEquals(name, actualName, error.message)
    assertEquals(argument, actualArgument, error.message)
    if (argument != null) assertTrue((reason as String).startsWith("$argument: "), reason)
    // Kotlin's message is UniFFI's summary of the fields: it names the argument too.
    assertTrue(error.message!!.startsWith("code=$code, name=$name, argument=$argument, reason="), error.message)
    return error
}

class GameTest {
    @Test
    fun `a round, a refused rotation, voiding and the record verified`() {
        // (The README's own Kotlin program is ../../../ReadmeExample.kt, run by ReadmeTest.)
        // The game (an operator would use SeedPair(clientSeed); a known seed shows the worked example's round).
        val server = SERVER
        val client = CLIENT
        val pair = SeedPair.fromParts(server, client, 1uL)
        val commitment = pair.public().commitment          // shown to the player before play
        val round = pair.startRound(3, "0.99")             // nonce 1: mines at 7, 10 and 19
        val first = round.reveal(1)
        check(first.safe && first.safePicks == 1 && !first.finished && first.multiplier!!.decimal == "1.12")   // 9/8 rounded down
        val paid = round.cashOut()
        check(paid.numerator == "9" && paid.denominator == "8" && paid.toString() == "9/8")
        val record = round.record()!!                      // publish record.toJson()
        val next = pair.startRound(3, "0.99")              // nonce 2, in play: its mines hang on the secret seed
        try { pair.rotate(null) } catch (e: FairminesException.RoundsInPlay) { println(e.code) }   // 16
        check(pair.voidOpenRounds() == listOf(2uL))        // (or finish it) then the pair can rotate
        val revealed = pair.rotate(null)                   // the old server seed may now be published
        check(revealed.commitment == commitment)
        check(verifyRound(record, revealed.serverSeed).ok)
        try { round.reveal(2) } catch (e: FairminesException.RoundFinished) { println(e.code) }   // 10
        try { next.reveal(2) } catch (e: FairminesException.RoundVoided) { println(e.code) }     // 17
        assertEquals(SERVER, revealed.serverSeed)
        assertEquals(3uL, revealed.rounds)
        assertEquals(Outcome.VOIDED, next.outcome())
    }

    @Test
    fun `a short game maps every result field for field`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 1uL)
        val round = pair.startRound(3, "0.99")             // nonce 1: mines at 7, 10 and 19
        assertEquals(2uL, pair.public().nonce)
        assertEquals(listOf(1uL), pair.openRounds())
        assertEquals(listOf(1uL, 3, commitment(SERVER), CLIENT, ratioOf(99, 100)),
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
        assertEquals(RoundRecord(commitment(SERVER), CLIENT, 1uL, 3, ratioOf(99, 100), listOf(1, 2, 19), Outcome.LOST, null), record)
        val verdict = verifyRound(record, SERVER)
        assertEquals(RoundVerification(true, true, listOf(7, 10, 19), Outcome.LOST, null, emptyList()), verdict)
        val tampered = verifyRound(record.copy(outcome = Outcome.CASHED_OUT), SERVER)
        assertFalse(tampered.ok)
        assertTrue(tampered.differences.any { it.startsWith("outcome: ") }, tampered.differences.toString())

        // The last safe tile pays out by itself: finished, with the multiplier paid.
        val one = SeedPair.fromParts(SERVER, CLIENT, 1uL).startRound(24, "1")
        val safe = (1..25).single { it !in minePositions(SERVER, CLIENT, 1uL, 24) }
        assertEquals(Reveal(safe, true, 1, ratioOf(25, 1), true), one.reveal(safe))
        assertEquals(Outcome.CASHED_OUT, one.outcome())
    }

    @Test
    fun `the issue sequence - no rotation while a round is in play, then a voided round refuses every move`() {
        val pair = SeedPair("player seed")
        val round = pair.startRound(5, "99/100")
        val before = pair.public()
        val rotate = expectError<FairminesException.RoundsInPlay>(16, "ROUNDS_IN_PLAY", null) { pair.rotate(null) }
        assertTrue(rotate.reason.contains("(nonce 0)"), rotate.reason)
        val change = expectError<FairminesException.RoundsInPlay>(16, "ROUNDS_IN_PLAY", null) { pair.setClientSeed("other") }
        assertTrue(change.reason.contains("(nonce 0)"), change.reason)
        assertEquals(before, pair.public(), "a refused rotation changes nothing")
        assertFalse(round.isFinished())
        assertEquals(listOf(0uL), pair.openRounds())

        assertEquals(listOf(0uL), pair.voidOpenRounds())
        assertEquals(emptyList<ULong>(), pair.openRounds())
        val revealed = pair.rotate(null)
        assertEquals(before.commitment, revealed.commitment)
        assertEquals(1uL, revealed.rounds)

        // With the revealed seed the grid is known: every safe tile is refused, and so is a cash-out.
        val mines = minePositions(revealed.serverSeed, "player seed", 0uL, 5)
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
    fun `records and seed pairs cross JSON and the boundary exactly`() {
        val round = SeedPair.fromParts(SERVER, CLIENT, 1uL).startRound(3, "0.99")
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

        val pair = SeedPair.fromParts(SERVER, CLIENT, 5uL)
        val state = pair.toStateJson()
        assertEquals(state, SeedPair.fromStateJson(state).toStateJson())
        val public = pair.public()
        assertTrue(JSONObject(mapOf("commitment" to commitment(SERVER), "client_seed" to CLIENT, "nonce" to 5)).similar(JSONObject(public.toJson())))
        assertEquals(public, publicSeedPairFromJson(public.toJson()))
        val revealed = pair.rotate("next seed")
        assertEquals(RevealedSeedPair(SERVER, commitment(SERVER), CLIENT, 5uL), revealed)
        assertEquals(revealed, revealedSeedPairFromJson(revealed.toJson()))
        assertEquals("next seed", pair.public().clientSeed)
        assertEquals("next seed", pair.setClientSeed("third").clientSeed)
        assertEquals("third", pair.public().clientSeed)
    }

    @Test
    fun `every argument's error names it`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 1uL)
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
        assertEquals(1uL, pair.public().nonce, "a refused start uses no nonce")
        val round = pair.startRound(3, "0.99")          // nonce 1: mines at 7, 10 and 19
        for (tile in listOf(0, 26, -1, Int.MAX_VALUE, Int.MIN_VALUE)) {
            val error = expectError<FairminesException.InvalidTile>(3, "INVALID_TILE", "tile") { round.reveal(tile) }
            assertEquals("tile: must be in 1..=25, got $tile", error.reason)
        }
        for (picks in listOf(0, 23, -1, Int.MAX_VALUE)) {
            val error = expectError<FairminesException.InvalidPicks>(13, "INVALID_PICKS", "safe_picks") { multiplier(3, picks, "0.99") }
            assertEquals("safe_picks: must be in 1..=22 with 3 mines, got $picks", error.reason)
        }
        // More places than 18 are refused, not clamped.
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "places") { ratioToDecimal(ratioOf(9, 8), 19u) }
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "ratio.denominator") { ratioToDecimal(Ratio("1", "0", ""), 2u) }
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "ratio.numerator") { ratioToDecimal(Ratio("x", "1", ""), 2u) }
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "ratio.numerator") { ratioToDecimal(Ratio("+1", "1", ""), 2u) }
        expectError<FairminesException.InvalidHex>(4, "INVALID_HEX", "server_seed") { SeedPair.fromParts("abc", CLIENT, 0uL) }
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "state") { SeedPair.fromStateJson("{\"nonce\": 1}") }
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "record") { roundRecordFromJson("{}") }
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "public") { publicSeedPairFromJson("{}") }
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "revealed") { revealedSeedPairFromJson("[") }
        val public = pair.public()
        expectError<FairminesException.InvalidHex>(4, "INVALID_HEX", "commitment") { public.copy(commitment = "abc").toJson() }
        val revealed = RevealedSeedPair(SERVER, "x".repeat(64), CLIENT, 0uL)
        expectError<FairminesException.InvalidHex>(4, "INVALID_HEX", "commitment") { revealed.toJson() }
    }

    @Test
    fun `the errors of the game cross with their code and name`() {
        val round = SeedPair.fromParts(SERVER, CLIENT, 1uL).startRound(3, "0.99")   // mines at 7, 10 and 19
        expectError<FairminesException.NothingToCashOut>(11, "NOTHING_TO_CASH_OUT", null) { round.cashOut() }
        round.reveal(1)
        val twice = expectError<FairminesException.TileAlreadyRevealed>(9, "TILE_ALREADY_REVEALED", "tile") { round.reveal(1) }
        assertEquals("tile: tile 1 was already revealed in this round", twice.reason)
        round.cashOut()
        expectError<FairminesException.RoundFinished>(10, "ROUND_FINISHED", null) { round.reveal(2) }
        SeedPair.fromParts(SERVER, CLIENT, ULong.MAX_VALUE).use { last ->
            expectError<FairminesException.InvalidNonce>(2, "INVALID_NONCE", "nonce") { last.startRound(3, "0.99") }
        }
    }

    @Test
    fun `hand-made records are errors naming the field`() {
        val record = SeedPair.fromParts(SERVER, CLIENT, 1uL).startRound(3, "0.99").let { it.reveal(1); it.cashOut(); it.record()!! }
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
        assertEquals(max, ratioToDecimal(Ratio(max, "1", ""), 0u))
    }

    @Test
    fun `payouts cross as exact ratios`() {
        assertEquals(22, maxSafePicks(3))
        assertEquals(ratioOf(9, 8), multiplier(3, 1, "0.99"))      // 25/22 × 99/100
        assertEquals(ratioOf(2300, 1), multiplier(3, 22, "1"))     // C(25,22) / C(22,22)
        assertEquals("24.75", multiplier(24, 1, "0.99").decimal)
        val m = multiplier(1, 1, "1")                                // 25/24
        assertEquals(listOf("1.04", "1.0416", "1", "25/24"), listOf(m.decimal, ratioToDecimal(m, 4u), ratioToDecimal(m, 0u), m.toString()))
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
        val pair = SeedPair.fromParts(SERVER, CLIENT, 0uL)
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
                        i to minePositions(c.getString("server_seed"), c.getString("client_seed"), c.getLong("nonce").toULong(), c.getInt("mines"))
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
        val pair = SeedPair.fromParts(SERVER, CLIENT, 0uL)
        val pool = Executors.newFixedThreadPool(8)
        try {
            // 8 threads × 25 rounds each: every nonce 0..199 is used exactly once.
            val rounds = pool.invokeAll((0 until 8).map { Callable { (0 until 25).map { pair.startRound(3, "0.99") } } })
                .flatMap { it.get() }
            assertEquals((0uL until 200uL).toList(), rounds.map { it.nonce() }.sorted())
            rounds.forEach { it.close() }
            // 25 threads reveal the 25 tiles of one round: each tile is revealed once, by one thread.
            val round = pair.startRound(1, "1")
            val mine = minePositions(SERVER, CLIENT, 200uL, 1).single()
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
