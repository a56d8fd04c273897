package io.github.fairmines

import java.io.ByteArrayOutputStream
import java.io.File
import java.io.PrintStream
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Test

class ReadmeTest {
    @Test
    fun `the README's Kotlin program prints the output the README shows`() {
        // The program is ../ReadmeExample.kt (in the default package, as a user's would be), which
        // scripts/test-uniffi.sh checks is the README's Kotlin block; the README's output block is extracted by
        // the same script into fairmines.readme.dir.
        val expected = File(System.getProperty("fairmines.readme.dir"), "kotlin.out")
        check(expected.isFile) { "$expected is missing: run scripts/test-uniffi.sh, which extracts the README's blocks" }
        val captured = ByteArrayOutputStream()
        val stdout = System.out
        System.setOut(PrintStream(captured, true, "UTF-8"))
        try {
            Class.forName("ReadmeExampleKt").getMethod("main").invoke(null)
        } finally {
            System.setOut(stdout)
        }
        assertEquals(expected.readText(), captured.toString("UTF-8"))
    }
}
