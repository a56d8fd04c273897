package io.github.fairmines

import java.io.File
import java.util.stream.Stream
import org.json.JSONArray
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertFalse
import org.junit.jupiter.api.Assertions.assertNotEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.assertThrows
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.Arguments
import org.junit.jupiter.params.provider.MethodSource
import org.junit.jupiter.params.provider.ValueSource

const val SERVER = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a"
const val CLIENT = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817"

/** The shared vector file, `vectors/vectors.json` at the repository root (path set by the pom). */
object Vectors {
    val file: File = File(
        System.getProperty("fairmines.vectors")
            ?: error("the system property fairmines.vectors (path of vectors/vectors.json) is not set"),
    )
    val document: JSONObject by lazy { JSONObject(file.readText()) }
    val cases: List<JSONObject> by lazy {
        val array = document.getJSONArray("cases")
        (0 until array.length()).map { array.getJSONObject(it) }
    }
}

private fun JSONArray.ints(): List<Int> = (0 until length()).map { getInt(it) }

class VectorTest {
    companion object {
        @JvmStatic
        fun cases(): Stream<Arguments> =
            Vectors.cases.map { Arguments.of(it.getString("id"), it) }.stream()
    }

    @Test
    fun `the vector file is complete`() {
        assertEquals(Vectors.document.getInt("count"), Vectors.cases.size)
        assertTrue(Vectors.cases.size > 1000, "expected the full vector set, got ${Vectors.cases.size} cases")
        assertTrue(Vectors.cases.any { it.getJSONArray("rejected").length() > 0 }, "no rejection case")
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    fun `every vector agrees`(@Suppress("UNUSED_PARAMETER") id: String, case: JSONObject) {
        val server = case.getString("server_seed")
        val client = case.getString("client_seed")
        // JSON numbers up to 2^53-1: exact as Long.
        val nonce = case.getLong("nonce")
        val mines = case.getInt("mines")
        val positions = case.getJSONArray("positions").ints()
        val order = case.getJSONArray("draw_order").ints()

        assertEquals(case.getString("commitment"), commitment(server))
        assertEquals(case.getString("signature"), roundSignature(server, client, nonce))
        assertEquals(order, drawOrder(server, client, nonce, mines))
        assertEquals(positions, minePositions(server, client, nonce, mines))

        val verdict = verify(server, client, nonce, mines, case.getString("commitment"), positions.reversed())
        assertEquals(true, verdict.commitmentOk)
        assertEquals(true, verdict.positionsOk)
        assertEquals(Verdict.OK, verdict.verdict)
        assertTrue(verdict.ok)
        assertEquals(case.getString("commitment"), verdict.commitment)
        assertEquals(case.getString("signature"), verdict.signature)
        assertEquals(positions, verdict.positions)
        assertEquals(order, verdict.drawOrder)
        assertEquals(case.getInt("words_used"), verdict.wordsUsed)
    }
}

class ApiTest {
    @Test
    fun `the worked example verifies, and a mine count out of range names it`() {
        // (The README's own Kotlin program is ../../../ReadmeExample.kt, run by ReadmeTest.)
        val server = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a"
        val client = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817"
        check(minePositions(server, client, 1L, 3) == listOf(7, 10, 19))
        val verdict = verify(server, client, 1L, 3,
            commitment = "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42", positions = listOf(7, 10, 19))
        check(verdict.ok && verdict.commitmentOk == true && verdict.positionsOk == true)
        try { minePositions(server, client, 1L, 25) } catch (e: FairminesException.InvalidMines) { println(e.reason) }
        // mines: must be a whole number from 1 to 24, got 25
        check(verdict.verdict == Verdict.OK)
        check(verify(server, client, 1L, 3).verdict == Verdict.UNCHECKED)   // nothing checked: ok is false
        var message: String? = null
        try { minePositions(server, client, 1L, 25) } catch (e: FairminesException.InvalidMines) { message = e.reason }
        assertEquals("mines: must be a whole number from 1 to 24, got 25", message)
    }

    @Test
    fun `worked example of the spec`() {
        assertEquals(listOf(7, 10, 19), minePositions(SERVER, CLIENT, 1L, 3))
        assertEquals(listOf(9, 6, 18), drawOrder(SERVER, CLIENT, 1L, 3))
        assertEquals("f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42", commitment(SERVER))
        assertEquals(
            "90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac",
            roundSignature(SERVER, CLIENT, 1L),
        )
    }

    @Test
    fun `verify takes server seed, client seed, nonce, mines, commitment, positions and maps every field`() {
        val verdict = verify(SERVER, CLIENT, 1L, 3, commitment(SERVER), listOf(19, 7, 10))
        assertEquals(
            Verification(commitment(SERVER), roundSignature(SERVER, CLIENT, 1L), listOf(7, 10, 19), listOf(9, 6, 18), 3, true, true, Verdict.OK, true),
            verdict,
        )
    }

    @Test
    fun `verify reports each failed check and skips what was not given`() {
        val wrong = verify(SERVER, CLIENT, 1L, 3, commitment = roundSignature(SERVER, CLIENT, 1L), positions = listOf(7, 10, 20))
        assertEquals(false, wrong.commitmentOk)
        assertEquals(false, wrong.positionsOk)
        assertEquals(Verdict.MISMATCH, wrong.verdict)
        assertFalse(wrong.ok)
        assertEquals(listOf(7, 10, 19), wrong.positions)
        // One check failing is enough for a mismatch.
        val half = verify(SERVER, CLIENT, 1L, 3, commitment = commitment(SERVER), positions = listOf(7, 10, 20))
        assertEquals(Pair(true, false), Pair(half.commitmentOk, half.positionsOk))
        assertEquals(Verdict.MISMATCH, half.verdict)
        assertFalse(half.ok)

        // Nothing to check: the round is recomputed, and the verdict says nothing was checked (not ok).
        val onlyRecompute = verify(SERVER, CLIENT, 1L, 3)
        assertNull(onlyRecompute.commitmentOk)
        assertNull(onlyRecompute.positionsOk)
        assertEquals(Verdict.UNCHECKED, onlyRecompute.verdict)
        assertFalse(onlyRecompute.ok)
        assertEquals(listOf(7, 10, 19), onlyRecompute.positions)
        assertEquals(listOf(Verdict.OK, Verdict.MISMATCH, Verdict.UNCHECKED), Verdict.entries.toList())

        // One check asked for and holding is ok.
        val onlyCommitment = verify(SERVER, CLIENT, 1L, 3, commitment = commitment(SERVER))
        assertEquals(Verdict.OK, onlyCommitment.verdict)
        assertTrue(onlyCommitment.ok)

        // A duplicated tile is not an error but a mismatch.
        assertEquals(false, verify(SERVER, CLIENT, 1L, 3, positions = listOf(7, 7, 19)).positionsOk)
        // Upper-case hex is accepted.
        assertEquals(true, verify(SERVER, CLIENT, 1L, 3, commitment = commitment(SERVER).uppercase()).commitmentOk)
    }

    @ParameterizedTest
    @ValueSource(ints = [0, 25, -1, 26, Int.MAX_VALUE, Int.MIN_VALUE])
    fun `mine counts outside 1 to 24 raise InvalidMines naming the argument`(mines: Int) {
        for (call in listOf<() -> Any>(
            { minePositions(SERVER, CLIENT, 1L, mines) },
            { drawOrder(SERVER, CLIENT, 1L, mines) },
            { verify(SERVER, CLIENT, 1L, mines) },
        )) {
            assertThrows<FairminesException> { call() } // the common base class catches it too
            val error = assertThrows<FairminesException.InvalidMines> { call() }
            assertTrue(error.reason.startsWith("mines: "), error.reason)
            assertTrue(error.reason.endsWith("got $mines"), error.reason)
            assertEquals(1, error.code)
            assertEquals("INVALID_MINES", error.name)
            assertEquals("mines", error.argument)
            assertEquals("code=1, name=INVALID_MINES, argument=mines, reason=${error.reason}", error.message)
        }
    }

    @Test
    fun `mine counts 1 and 24 are accepted`() {
        assertEquals(1, minePositions(SERVER, CLIENT, 1L, 1).size)
        val all = minePositions(SERVER, CLIENT, 1L, 24)
        assertEquals(24, all.toSet().size)
        assertTrue(all.all { it in 1..25 }, all.toString())
    }

    @Test
    fun `malformed published values raise errors naming the argument`() {
        val hex = assertThrows<FairminesException.InvalidHex> { verify(SERVER, CLIENT, 1L, 3, commitment = "f5ec") }
        assertTrue(hex.reason.startsWith("commitment: "), hex.reason)
        assertEquals("commitment", hex.argument)
        val notHex = assertThrows<FairminesException.InvalidHex> { verify(SERVER, CLIENT, 1L, 3, commitment = "z".repeat(64)) }
        assertTrue(notHex.reason.startsWith("commitment: "), notHex.reason)
        for (bad in listOf(listOf(0), listOf(26), listOf(7, -3), List(26) { 1 })) {
            val tile = assertThrows<FairminesException.InvalidTile> { verify(SERVER, CLIENT, 1L, 3, positions = bad) }
            assertTrue(tile.reason.startsWith("positions: "), tile.reason)
            assertEquals("positions", tile.argument)
        }
    }

    @Test
    fun `the whole u64 nonce range crosses the boundary`() {
        val max = roundSignature(SERVER, CLIENT, ULong.MAX_VALUE.toLong())
        assertEquals(64, max.length)
        assertNotEquals(max, roundSignature(SERVER, CLIENT, Long.MAX_VALUE))
        assertEquals(3, minePositions(SERVER, CLIENT, ULong.MAX_VALUE.toLong(), 3).size)
    }

    @Test
    fun `unicode seeds are hashed as UTF-8`() {
        val fromVectors = Vectors.cases.first { c -> c.getString("client_seed").any { it.code > 0x7f } }
        assertEquals(
            fromVectors.getString("signature"),
            roundSignature(fromVectors.getString("server_seed"), fromVectors.getString("client_seed"), fromVectors.getLong("nonce")),
        )
    }

    @Test
    fun `generated server seeds are fresh hex and never printed`() {
        generateServerSeed().use { seed ->
            generateServerSeed().use { other -> assertNotEquals(seed.reveal(), other.reveal()) }
            val text = seed.reveal()
            assertTrue(text.matches(Regex("[0-9a-f]{64}")), text)
            assertEquals(commitment(text), seed.commitment())
            val shown = seed.toString()
            assertFalse(shown.contains(text), shown)
            assertTrue(shown.contains(seed.commitment()), shown)
            assertFalse("$seed".contains(text))
        }
    }
}
