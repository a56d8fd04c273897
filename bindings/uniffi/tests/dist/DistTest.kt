package io.github.fairmines

import java.io.File
import org.json.JSONArray
import org.json.JSONObject
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The vector test of the released JAR (scripts/test-dist-uniffi.sh): run in a Maven project outside the source
 * tree that resolves io.github.fairmines:fairmines from dist/maven, with no jna.library.path, so the library can
 * only be the JAR's linux-x86-64/libfairmines_uniffi.so. Every case of the vector file (system property
 * fairmines.vectors) through every function; prints how many were checked.
 */
class DistTest {
    private fun JSONArray.ints(): List<Int> = (0 until length()).map { getInt(it) }

    @Test
    fun `the binding and its library come from the released JAR`() {
        val version = System.getProperty("fairmines.version") ?: error("fairmines.version is not set")
        assertNull(System.getProperty("jna.library.path"), "jna.library.path is set")
        val jar = File(Verdict::class.java.protectionDomain.codeSource.location.toURI())
        assertEquals("fairmines-$version.jar", jar.name, "the binding's classes come from $jar")
        val lib = Verdict::class.java.classLoader.getResource("linux-x86-64/libfairmines_uniffi.so")
        assertTrue(lib != null && lib.toString().startsWith("jar:${jar.toURI()}!"), "the library resource is $lib")
        println("kotlin: classes and linux-x86-64/libfairmines_uniffi.so from $jar")
    }

    @Test
    fun `every vector`() {
        val document = JSONObject(File(System.getProperty("fairmines.vectors")).readText())
        val cases = document.getJSONArray("cases")
        var checked = 0
        for (i in 0 until cases.length()) {
            val case = cases.getJSONObject(i)
            val id = case.getString("id")
            val server = case.getString("server_seed")
            val client = case.getString("client_seed")
            val nonce = case.getLong("nonce").toULong()
            val mines = case.getInt("mines")
            val positions = case.getJSONArray("positions").ints()
            val order = case.getJSONArray("draw_order").ints()
            assertEquals(case.getString("commitment"), commitment(server), id)
            assertEquals(case.getString("signature"), roundSignature(server, client, nonce), id)
            assertEquals(order, drawOrder(server, client, nonce, mines), id)
            assertEquals(positions, minePositions(server, client, nonce, mines), id)
            val verdict = verify(server, client, nonce, mines, case.getString("commitment"), positions.reversed())
            assertEquals(Verdict.OK, verdict.verdict, id)
            assertTrue(verdict.ok && verdict.commitmentOk == true && verdict.positionsOk == true, id)
            assertEquals(positions, verdict.positions, id)
            assertEquals(order, verdict.drawOrder, id)
            assertEquals(case.getInt("words_used").toUInt(), verdict.wordsUsed, id)
            // A wrong position is a mismatch.
            val wrong = positions.dropLast(1) + ((1..25).first { it !in positions })
            assertEquals(Verdict.MISMATCH, verify(server, client, nonce, mines, null, wrong).verdict, id)
            checked++
        }
        assertEquals(document.getInt("count"), checked)
        assertTrue(checked > 1000, "only $checked vectors")
        println("kotlin: $checked vectors checked through the JAR")
    }
}
