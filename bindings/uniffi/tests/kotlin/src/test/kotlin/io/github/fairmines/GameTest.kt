package io.github.fairmines

import java.util.concurrent.Callable
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import java.util.stream.Stream
import org.json.JSONArray
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertNotNull
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.Arguments
import org.junit.jupiter.params.provider.MethodSource

private fun JSONArray.ints(): List<Int> = (0 until length()).map { getInt(it) }

/** The ratio a/b in lowest terms with its decimal rounded down to 2 places, computed here independently. */
private fun ratioOf(numerator: Long, denominator: Long): Ratio = ratioOf(numerator.toBigInteger(), denominator.toBigInteger())

private fun ratioOf(n: java.math.BigInteger, d: java.math.BigInteger): Ratio {
    val g = n.gcd(d)
    val exact = java.math.BigDecimal(n / g).divide(java.math.BigDecimal(d / g), 2, java.math.RoundingMode.DOWN)
    return Ratio((n / g).toString(), (d / g).toString(), exact.toPlainString())
}

/** Runs `call`, expects `T`, and checks its code, name, argument and message. */
private inline fun <reified T : FairminesException> expectError(
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

/** The rounds of the vector file whose server seed can be a SeedPair's (64 lowercase hex, as generated). */
object Playable {
    val cases: List<JSONObject> by lazy {
        Vectors.cases.filter { it.getString("server_seed").matches(Regex("[0-9a-f]{64}")) }
    }
}

class GameVectorTest {
    companion object {
        @JvmStatic
        fun cases(): Stream<Arguments> =
            Playable.cases.mapIndexed { i, c -> Arguments.of(c.getString("id"), i, c) }.stream()
    }

    @Test
    fun `most vector cases are playable`() {
        assertTrue(Playable.cases.size > 1000, "${Playable.cases.size} playable cases")
        assertTrue(Playable.cases.any { it.getJSONArray("rejected").length() > 0 }, "no rejection case to play")
    }

    /**
     * Plays the vector's round through SeedPair and Round: some safe tiles (the vector says where the mines
     * are), then a cash-out or a mine; checks every result against the vector and the payout functions, and
     * that the record verifies and survives JSON.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    fun `a round on every playable vector`(@Suppress("UNUSED_PARAMETER") id: String, index: Int, case: JSONObject) {
        val server = case.getString("server_seed")
        val client = case.getString("client_seed")
        val nonce = case.getLong("nonce").toULong()
        val mines = case.getInt("mines")
        val positions = case.getJSONArray("positions").ints()
        val safe = (1..25).filter { it !in positions }.let { if (index % 3 == 0) it.reversed() else it }
        val rtp = listOf("0.99", "1", "97/100")[index % 3]

        SeedPair.fromParts(server, client, nonce).use { pair ->
            pair.startRound(mines, rtp).use { round ->
                assertEquals(nonce + 1uL, pair.public().nonce)
                assertEquals(nonce, round.nonce())
                assertEquals(mines, round.mines())
                assertEquals(case.getString("commitment"), round.commitment())
                assertEquals(client, round.clientSeed())
                assertNull(round.minePositions())
                assertNull(round.multiplier())
                assertNull(round.record())

                val picks = 1 + index % safe.size
                for (k in 1..picks) {
                    val reveal = round.reveal(safe[k - 1])
                    assertEquals(Reveal(true, k, multiplier(mines, k, rtp)), reveal)
                    assertEquals(k, round.safePicks())
                }
                val expectedOutcome: Outcome
                val expectedMultiplier: Ratio?
                if (picks == safe.size) {
                    // Every safe tile is open: the round pays out by itself.
                    expectedOutcome = Outcome.CASHED_OUT
                    expectedMultiplier = multiplier(mines, picks, rtp)
                } else if (index % 2 == 0) {
                    expectedOutcome = Outcome.CASHED_OUT
                    expectedMultiplier = round.cashOut()
                    assertEquals(multiplier(mines, picks, rtp), expectedMultiplier)
                } else {
                    val mine = positions[index % positions.size]
                    assertEquals(Reveal(false, picks, null), round.reveal(mine))
                    expectedOutcome = Outcome.LOST
                    expectedMultiplier = null
                }
                assertTrue(round.isFinished())
                assertEquals(expectedOutcome, round.outcome())
                assertEquals(expectedMultiplier, round.multiplier())
                assertEquals(positions, round.minePositions())

                val record = round.record()!!
                assertEquals(round.picks(), record.picks)
                assertEquals(expectedOutcome, record.outcome)
                assertEquals(expectedMultiplier, record.multiplier)
                assertEquals(record, roundRecordFromJson(record.toJson()))
                val verdict = verifyRound(record, server)
                assertTrue(verdict.ok, verdict.differences.toString())
                assertTrue(verdict.commitmentOk)
                assertEquals(positions, verdict.minePositions)
                assertEquals(expectedOutcome, verdict.expectedOutcome)
                assertEquals(expectedMultiplier, verdict.expectedMultiplier)
            }
        }
    }
}

class GameTest {
    @Test
    fun `readme example`() {
        // The Kotlin game example of bindings/uniffi/README.md, as it stands there.
        val server = SERVER
        val client = CLIENT
        val pair = SeedPair.fromParts(server, client, 1uL)
        val commitment = pair.public().commitment          // shown to the player before play
        val round = pair.startRound(3, "0.99")             // nonce 1: mines at 7, 10 and 19
        val first = round.reveal(1)
        check(first.safe && first.safePicks == 1 && first.multiplier!!.decimal == "1.12")   // 9/8 rounded down
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
        assertEquals(emptyList<Int>(), next.picks())
    }

    @Test
    fun `seed pairs count nonces, rotate and keep their state`() {
        val pair = SeedPair("player seed")
        val first = pair.public()
        assertEquals("player seed", first.clientSeed)
        assertEquals(0uL, first.nonce)
        assertTrue(first.commitment.matches(Regex("[0-9a-f]{64}")))
        // Each round ends (a mine or a cash-out after one safe tile): the pair can rotate only then.
        repeat(3) { pair.startRound(1, "1").use { round -> if (round.reveal(1).safe) round.cashOut() } }
        assertEquals(3uL, pair.public().nonce)
        assertEquals(emptyList<ULong>(), pair.openRounds())

        // State JSON restores the same pair, server seed included.
        val state = pair.toStateJson()
        val restored = SeedPair.fromStateJson(state)
        assertEquals(pair.public(), restored.public())
        assertEquals(state, restored.toStateJson())

        val revealed = pair.rotate(null)
        assertEquals(first.commitment, revealed.commitment)
        assertEquals(commitment(revealed.serverSeed), revealed.commitment)
        assertEquals(3uL, revealed.rounds)
        assertEquals("player seed", revealed.clientSeed)
        val second = pair.public()
        assertNotEquals(first.commitment, second.commitment)
        assertEquals(0uL, second.nonce)
        assertEquals("player seed", second.clientSeed)

        // The restored pair still has the old seed: its rounds are those of the revealed seed.
        restored.startRound(3, "0.99").use { round ->
            assertEquals(3uL, round.nonce())
            val mines = minePositions(revealed.serverSeed, "player seed", 3uL, 3)
            round.reveal((1..25).first { it !in mines })
            round.cashOut()
            assertEquals(mines, round.minePositions())
            assertTrue(verifyRound(round.record()!!, revealed.serverSeed).ok)
        }

        val changed = pair.setClientSeed("new seed")
        assertEquals(second.commitment, changed.commitment)
        assertEquals(0uL, changed.rounds)
        assertEquals("new seed", pair.public().clientSeed)
        assertNotEquals(second.commitment, pair.public().commitment)

        val rotatedWithSeed = pair.rotate("third seed")
        assertEquals("new seed", rotatedWithSeed.clientSeed)
        assertEquals("third seed", pair.public().clientSeed)
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
        assertEquals(emptyList<ULong>(), pair.voidOpenRounds())
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
        assertEquals(0, round.safePicks())
        assertEquals(emptyList<Int>(), round.picks())
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
    fun `a round voided after safe picks keeps them in its record, which verifies`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 1uL)
        val round = pair.startRound(3, "0.99")             // nonce 1: mines at 7, 10 and 19
        round.reveal(1)
        round.reveal(2)
        assertEquals(listOf(1uL), pair.voidOpenRounds())
        expectError<FairminesException.RoundVoided>(17, "ROUND_VOIDED", null) { round.reveal(3) }
        expectError<FairminesException.RoundVoided>(17, "ROUND_VOIDED", null) { round.cashOut() }
        assertEquals(2, round.safePicks())
        assertNull(round.multiplier())
        val record = round.record()!!
        assertEquals(listOf(1, 2), record.picks)
        assertEquals(Outcome.VOIDED, record.outcome)
        assertNull(record.multiplier)
        assertEquals(SERVER, pair.rotate(null).serverSeed)
        assertTrue(verifyRound(record, SERVER).ok)
        // The same picks told as a cash-out with nothing paid, or as a void over a mine, do not verify.
        assertFalse(verifyRound(record.copy(outcome = Outcome.CASHED_OUT), SERVER).ok)
        assertFalse(verifyRound(record.copy(picks = listOf(1, 7)), SERVER).ok)
    }

    @Test
    fun `the state JSON keeps the rounds in play, and the restored pair refuses to rotate until it voids them`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 0uL)
        val first = pair.startRound(3, "0.99")
        val second = pair.startRound(3, "0.99")
        val third = pair.startRound(3, "0.99")
        second.reveal(minePositions(SERVER, CLIENT, 1uL, 3).first())   // ends nonce 1: lost
        assertEquals(listOf(0uL, 2uL), pair.openRounds())
        val state = pair.toStateJson()
        assertEquals(listOf(0, 2), JSONObject(state).getJSONArray("open_rounds").ints())

        val restored = SeedPair.fromStateJson(state)
        assertEquals(listOf(0uL, 2uL), restored.openRounds())
        assertEquals(state, restored.toStateJson())
        expectError<FairminesException.RoundsInPlay>(16, "ROUNDS_IN_PLAY", null) { restored.rotate(null) }
        expectError<FairminesException.RoundsInPlay>(16, "ROUNDS_IN_PLAY", null) { restored.setClientSeed("x") }
        assertEquals(listOf(0uL, 2uL), restored.voidOpenRounds())
        assertEquals(SERVER, restored.rotate(null).serverSeed)

        // The restored pair is a new value: the original's rounds are still its own, in play.
        assertFalse(first.isFinished())
        assertFalse(third.isFinished())
        assertEquals(listOf(0uL, 2uL), pair.voidOpenRounds())
        assertEquals(Outcome.VOIDED, first.outcome())
        assertEquals(Outcome.LOST, second.outcome())

        // A state that lists a nonce the pair has not used is refused.
        val unused = JSONObject(state).put("open_rounds", JSONArray(listOf(3))).toString()
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "state") { SeedPair.fromStateJson(unused) }
    }

    @Test
    fun `JSON with a misspelt field is refused, naming it`() {
        val record = playedRecord()
        // "multipler" for "multiplier": read as a record with no multiplier, it would be a silent wrong answer.
        val json = JSONObject(record.toJson())
        json.put("multipler", json.remove("multiplier"))
        val error = expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "record") { roundRecordFromJson(json.toString()) }
        assertTrue(error.reason.contains("unknown field `multipler`"), error.reason)

        val pair = SeedPair.fromParts(SERVER, CLIENT, 5uL)
        val public = JSONObject(pair.public().toJson()).put("nonse", 5).toString()
        val state = JSONObject(pair.toStateJson()).put("open_round", JSONArray()).toString()
        val revealed = JSONObject(pair.rotate(null).toJson()).put("round", 0).toString()
        for ((argument, call) in listOf<Pair<String, () -> Any>>(
            "public" to { publicSeedPairFromJson(public) },
            "state" to { SeedPair.fromStateJson(state) },
            "revealed" to { revealedSeedPairFromJson(revealed) },
        )) {
            val refused = expectError<FairminesException.InvalidState>(15, "INVALID_STATE", argument, call)
            assertTrue(refused.reason.contains("unknown field"), refused.reason)
        }
    }

    @Test
    fun `public and revealed pairs survive JSON`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 5uL)
        val public = pair.public()
        assertEquals(
            JSONObject(mapOf("commitment" to commitment(SERVER), "client_seed" to CLIENT, "nonce" to 5)).similar(JSONObject(public.toJson())),
            true,
        )
        assertEquals(public, publicSeedPairFromJson(public.toJson()))
        val revealed = pair.rotate(null)
        assertEquals(revealed, revealedSeedPairFromJson(revealed.toJson()))
        assertEquals(SERVER, JSONObject(revealed.toJson()).getString("server_seed"))
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "public") { publicSeedPairFromJson("{}") }
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "revealed") { revealedSeedPairFromJson("[") }
        expectError<FairminesException.InvalidHex>(4, "INVALID_HEX", "commitment") { public.copy(commitment = "abc").toJson() }
        expectError<FairminesException.InvalidHex>(4, "INVALID_HEX", "commitment") { revealed.copy(commitment = "x".repeat(64)).toJson() }
    }

    @Test
    fun `the server seed never shows in string forms`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 0uL)
        val shown = pair.toString()
        assertFalse(shown.contains(SERVER), shown)
        assertTrue(shown.contains(commitment(SERVER)), shown)
        assertEquals("SeedPair(commitment=${commitment(SERVER)}, client_seed=\"$CLIENT\", nonce=0, server_seed=<hidden>)", shown)
        val fresh = SeedPair("c")
        val state = JSONObject(fresh.toStateJson())
        assertFalse(fresh.toString().contains(state.getString("server_seed")))
        // A round in play does not show its grid either.
        pair.startRound(3, "0.99").use { round ->
            val text = round.toString()
            assertTrue(text.startsWith("Round {"), text)
            assertFalse(text.contains("placement"), text)
        }
    }

    @Test
    fun `every game error names its argument`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 1uL)
        for (mines in listOf(0, 25, -1)) {
            expectError<FairminesException.InvalidMines>(1, "INVALID_MINES", "mines") { pair.startRound(mines, "0.99") }
        }
        for (rtp in listOf("0", "1.01", "abc", "", "1/0", "-1")) {
            expectError<FairminesException.InvalidRtp>(12, "INVALID_RTP", "rtp") { pair.startRound(3, rtp) }
        }
        assertEquals(1uL, pair.public().nonce, "a failed start does not use a nonce")
        expectError<FairminesException.InvalidHex>(4, "INVALID_HEX", "server_seed") { SeedPair.fromParts("abc", CLIENT, 0uL) }
        expectError<FairminesException.InvalidHex>(4, "INVALID_HEX", "server_seed") { SeedPair.fromParts(SERVER.uppercase(), CLIENT, 0uL) }
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "state") { SeedPair.fromStateJson("{\"nonce\": 1}") }
        val state = JSONObject(pair.toStateJson()).put("commitment", "00".repeat(32)).toString()
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "state") { SeedPair.fromStateJson(state) }
        SeedPair.fromParts(SERVER, CLIENT, ULong.MAX_VALUE).use { last ->
            expectError<FairminesException.InvalidNonce>(2, "INVALID_NONCE", "nonce") { last.startRound(3, "0.99") }
        }

        val round = pair.startRound(3, "0.99")          // nonce 1: mines at 7, 10 and 19
        expectError<FairminesException.NothingToCashOut>(11, "NOTHING_TO_CASH_OUT", null) { round.cashOut() }
        for (tile in listOf(0, 26, -1, Int.MAX_VALUE, Int.MIN_VALUE)) {
            expectError<FairminesException.InvalidTile>(3, "INVALID_TILE", "tile") { round.reveal(tile) }
        }
        round.reveal(1)
        val twice = expectError<FairminesException.TileAlreadyRevealed>(9, "TILE_ALREADY_REVEALED", "tile") { round.reveal(1) }
        assertEquals("tile: tile 1 was already revealed in this round", twice.reason)
        assertEquals(listOf(1), round.picks(), "failed reveals are not picks")
        round.cashOut()
        expectError<FairminesException.RoundFinished>(10, "ROUND_FINISHED", null) { round.reveal(2) }
        expectError<FairminesException.RoundFinished>(10, "ROUND_FINISHED", null) { round.cashOut() }

        for (picks in listOf(0, 23, -1, 256)) {
            expectError<FairminesException.InvalidPicks>(13, "INVALID_PICKS", "safe_picks") { multiplier(3, picks, "0.99") }
        }
        expectError<FairminesException.InvalidMines>(1, "INVALID_MINES", "mines") { multiplier(0, 1, "0.99") }
        expectError<FairminesException.InvalidRtp>(12, "INVALID_RTP", "rtp") { multiplier(3, 1, "2") }
        expectError<FairminesException.InvalidRtp>(12, "INVALID_RTP", "rtp") { payoutTable("0") }
        expectError<FairminesException.InvalidMines>(1, "INVALID_MINES", "mines") { maxSafePicks(24 + 1) }
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "ratio") { ratioToDecimal(Ratio("1", "0", ""), 2u) }
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "ratio") { ratioToDecimal(Ratio("x", "1", ""), 2u) }
        // More places than 18 are refused, not clamped.
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "places") { ratioToDecimal(Ratio("9", "8", ""), 19u) }
        expectError<FairminesException.InvalidState>(15, "INVALID_STATE", "record") { roundRecordFromJson("{}") }
    }

    @Test
    fun `hand-made records are errors naming the field`() {
        val record = playedRecord()
        expectError<FairminesException.InvalidHex>(4, "INVALID_HEX", "commitment") { verifyRound(record.copy(commitment = "f5ec"), SERVER) }
        expectError<FairminesException.InvalidMines>(1, "INVALID_MINES", "mines") { verifyRound(record.copy(mines = 0), SERVER) }
        expectError<FairminesException.InvalidTile>(3, "INVALID_TILE", "picks") { verifyRound(record.copy(picks = listOf(1, 26)), SERVER) }
        expectError<FairminesException.InvalidTile>(3, "INVALID_TILE", "picks") { record.copy(picks = List(26) { 1 }).toJson() }
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "rtp") { verifyRound(record.copy(rtp = Ratio("99", "0", "")), SERVER) }
        expectError<FairminesException.InvalidNumber>(14, "INVALID_NUMBER", "multiplier") { record.copy(multiplier = Ratio("-1", "2", "")).toJson() }
        expectError<FairminesException.InvalidRtp>(12, "INVALID_RTP", "rtp") { verifyRound(record.copy(rtp = Ratio("3", "2", "")), SERVER) }
    }

    /** The worked example's round (nonce 1, mines at 7, 10 and 19), cashed out after `safe` picks. */
    private fun playedRecord(safe: List<Int> = listOf(1, 2, 3, 4, 5, 6, 8, 9, 11, 12, 13, 14)): RoundRecord {
        SeedPair.fromParts(SERVER, CLIENT, 1uL).use { pair ->
            pair.startRound(3, "0.99").use { round ->
                safe.forEach { assertTrue(round.reveal(it).safe) }
                round.cashOut()
                return round.record()!!
            }
        }
    }

    @Test
    fun `records survive JSON exactly`() {
        val record = playedRecord()
        val json = JSONObject(record.toJson())
        assertEquals(commitment(SERVER), json.getString("commitment"))
        assertEquals(CLIENT, json.getString("client_seed"))
        assertEquals(1, json.getInt("nonce"))
        assertEquals(3, json.getInt("mines"))
        assertEquals("99/100", json.getString("rtp"))
        assertEquals(record.picks, json.getJSONArray("picks").ints())
        assertEquals("cashed_out", json.getString("outcome"))
        val paid = record.multiplier!!
        assertEquals("${paid.numerator}/${paid.denominator}", json.getString("multiplier"))
        assertEquals(record, roundRecordFromJson(record.toJson()))
        // A lost round: no multiplier, outcome "lost".
        val lost = SeedPair.fromParts(SERVER, CLIENT, 1uL).startRound(3, "0.99").let { it.reveal(19); it.record()!! }
        assertEquals(Outcome.LOST, lost.outcome)
        assertNull(lost.multiplier)
        assertTrue(JSONObject(lost.toJson()).isNull("multiplier"))
        assertEquals("lost", JSONObject(lost.toJson()).getString("outcome"))
        assertEquals(lost, roundRecordFromJson(lost.toJson()))
    }

    @Test
    fun `verifyRound fails when any field of a real record is changed`() {
        val record = playedRecord()
        val verdict = verifyRound(record, SERVER)
        assertTrue(verdict.ok && verdict.commitmentOk && verdict.differences.isEmpty())
        assertEquals(listOf(7, 10, 19), verdict.minePositions)

        // Each change is one the replay must catch; the grids of the changed seeds put a mine under a pick.
        val otherClient = CLIENT + "x"
        assertTrue(minePositions(SERVER, otherClient, 1uL, 3).any { it in record.picks })
        assertTrue(minePositions(SERVER, CLIENT, 2uL, 3).any { it in record.picks })
        val changes = mapOf(
            "commitment" to record.copy(commitment = commitment(SERVER + "x")),
            "client_seed" to record.copy(clientSeed = otherClient),
            "nonce" to record.copy(nonce = 2uL),
            "mines" to record.copy(mines = 2),
            "rtp" to record.copy(rtp = ratioOf(97, 100)),
            "picks (a mine instead)" to record.copy(picks = record.picks.dropLast(1) + 7),
            "picks (one more)" to record.copy(picks = record.picks + 15),
            "outcome" to record.copy(outcome = Outcome.LOST),
            "multiplier" to record.copy(multiplier = ratioOf(2, 1)),
            "multiplier (none)" to record.copy(multiplier = null),
        )
        for ((field, changed) in changes) {
            val bad = verifyRound(changed, SERVER)
            assertFalse(bad.ok, "$field: $bad")
            assertTrue(bad.differences.isNotEmpty(), field)
        }
        val wrongSeed = verifyRound(record, SERVER.replaceRange(0, 1, "c"))
        assertFalse(wrongSeed.ok)
        assertFalse(wrongSeed.commitmentOk)
        assertTrue(wrongSeed.differences.first().startsWith("commitment: "), wrongSeed.differences.toString())
    }

    @Test
    fun `payouts are exact`() {
        assertEquals(22, maxSafePicks(3))
        assertEquals(1, maxSafePicks(24))
        assertEquals(ratioOf(9, 8), multiplier(3, 1, "0.99"))      // 25/22 × 99/100
        assertEquals(ratioOf(2300, 1), multiplier(3, 22, "1"))     // C(25,22) / C(22,22)
        assertEquals(ratioOf(25, 1), multiplier(24, 1, "1"))
        assertEquals(ratioOf(99, 4), multiplier(24, 1, "99/100"))
        assertEquals("24.75", multiplier(24, 1, "0.99").decimal)
        val m = multiplier(1, 1, "1")                                // 25/24
        assertEquals("1.04", m.decimal)
        assertEquals("1.0416", ratioToDecimal(m, 4u))
        assertEquals("1", ratioToDecimal(m, 0u))
        assertEquals("25/24", m.toString())
        assertEquals("2300", multiplier(3, 22, "1").toString())

        val table = payoutTable("0.99")
        assertEquals((1..24).sumOf { 25 - it }, table.size)
        var i = 0
        for (mines in 1..24) for (k in 1..25 - mines) {
            val entry = table[i++]
            assertEquals(TableEntry(mines, k, multiplier(mines, k, "0.99")), entry)
        }
        // Exactness: survival chance × multiplier is exactly the RTP for every entry (BigInteger arithmetic).
        for (entry in payoutTable("97/100")) {
            var num = java.math.BigInteger.ONE
            var den = java.math.BigInteger.ONE
            for (j in 0 until entry.safePicks) {
                num *= (25 - entry.mines - j).toBigInteger()
                den *= (25 - j).toBigInteger()
            }
            num *= entry.multiplier.numerator.toBigInteger()
            den *= entry.multiplier.denominator.toBigInteger()
            assertEquals(97.toBigInteger() * den, 100.toBigInteger() * num, entry.toString())
        }
        // Ratios wider than 64 bits stay exact: an RTP with 30 decimal places.
        val wide = multiplier(1, 1, "0.999999999999999999999999999999")
        val ten30 = java.math.BigInteger.TEN.pow(30)
        assertEquals(ratioOf(25.toBigInteger() * (ten30 - java.math.BigInteger.ONE), 24.toBigInteger() * ten30), wide)
        assertTrue(wide.denominator.toBigInteger() > ULong.MAX_VALUE.toString().toBigInteger(), wide.toString())
        assertEquals("1.04", wide.decimal)                          // 1.041666…, rounded down
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
                    (cases.indices).map { j ->
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
    fun `one seed pair and one round shared by many threads stay consistent`() {
        val pair = SeedPair.fromParts(SERVER, CLIENT, 0uL)
        val pool = Executors.newFixedThreadPool(8)
        try {
            // 8 threads × 25 rounds each: every nonce 0..199 is used exactly once.
            val rounds = pool.invokeAll((0 until 8).map { Callable { (0 until 25).map { pair.startRound(3, "0.99") } } })
                .flatMap { it.get() }
            assertEquals((0uL until 200uL).toList(), rounds.map { it.nonce() }.sorted())
            assertEquals(200uL, pair.public().nonce)
            for (round in rounds) {
                val mines = minePositions(SERVER, CLIENT, round.nonce(), 3)
                round.reveal(mines.first())
                assertEquals(mines, round.minePositions())
                round.close()
            }
            // 25 threads reveal the 25 tiles of one round: each tile is revealed once, by one thread.
            val round = pair.startRound(1, "1")
            val mine = minePositions(SERVER, CLIENT, 200uL, 1).single()
            val results = pool.invokeAll((1..25).map { tile ->
                Callable { runCatching { round.reveal(tile) } }
            }).map { it.get() }
            val picks = round.picks()
            assertTrue(round.isFinished())
            assertEquals(picks.toSet().size, picks.size, "a tile was revealed twice: $picks")
            assertEquals(results.count { it.isSuccess }, picks.size)
            assertTrue(results.all { it.isSuccess || it.exceptionOrNull() is FairminesException.RoundFinished })
            val record = round.record()!!
            assertTrue(verifyRound(record, SERVER).ok)
            assertEquals(if (mine in picks) Outcome.LOST else Outcome.CASHED_OUT, record.outcome)
        } finally {
            pool.shutdown()
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS))
        }
    }

    @Test
    fun `outcome and reveal types`() {
        assertEquals(listOf(Outcome.LOST, Outcome.CASHED_OUT, Outcome.VOIDED), Outcome.entries.toList())
        val round = SeedPair.fromParts(SERVER, CLIENT, 1uL).startRound(3, "1")
        assertNotNull(round.rtp())
        assertEquals(ratioOf(1, 1), round.rtp())
        assertEquals(Reveal(false, 0, null), round.reveal(7))
        assertEquals(0, round.safePicks())
        assertNull(round.multiplier())
    }
}
