package io.github.fairmines

import java.io.ByteArrayOutputStream
import java.io.File
import java.io.PrintStream
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

class ReadmeTest {
    @Test
    fun `the README's Kotlin program prints the output the README shows`() {
        // The program is ../ReadmeExample.kt (in the default package, as a user's would be), the README's Kotlin
        // block (below); scripts/test-uniffi.sh extracts the README's blocks into fairmines.readme.dir.
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

    private val readme = File(System.getProperty("fairmines.readme.dir"))
    private val tests = File(System.getProperty("fairmines.tests.dir"))

    @Test
    fun `the README's Kotlin, Ruby and Swift blocks are the programs the tests run`() {
        val examples = mapOf(
            "kotlin" to "kotlin/src/test/kotlin/ReadmeExample.kt", "ruby" to "ruby/example.rb", "swift" to "swift/example.swift",
        )
        for ((block, file) in examples) {
            assertEquals(File(tests, file).readText(), File(readme, block).readText(), "the README's $block block is not $file")
        }
    }

    @Test
    fun `the README builds as the tests do and links the licenses`() {
        val commands = File(readme, "build").readLines().map { it.replace(Regex(" *#.*$"), "") }
        assertEquals(listOf("cargo build -p fairmines-uniffi -p fairmines-uniffi-bindgen", "bindings/uniffi/generate.sh"), commands)
        val text = File(tests, "../README.md").readText()
        for (license in listOf("LICENSE-MIT", "LICENSE-APACHE")) {
            // Absolute links: the README is also the page of the JAR and the gem, away from the repository.
            val link = "(https://github.com/fairmines/fairmines/blob/main/$license)"
            assertTrue(File(tests, "../../../$license").length() > 0 && text.contains(link), "the README does not link $license")
        }
    }
}
