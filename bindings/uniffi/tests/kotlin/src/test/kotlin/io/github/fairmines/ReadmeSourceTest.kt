package io.github.fairmines

import java.io.File
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/** The README's blocks are the programs the suites run, and it reads the same away from the repository. */
class ReadmeSourceTest {
    private val readme = File(System.getProperty("fairmines.readme.dir"))
    private val tests = File(System.getProperty("fairmines.tests.dir"))

    @Test
    fun `the README's Kotlin, Java, Ruby and Swift blocks are the programs the tests run`() {
        val examples = mapOf(
            "kotlin" to "kotlin/src/test/kotlin/ReadmeExample.kt", "java" to "java/ReadmeExample.java",
            "ruby" to "ruby/example.rb", "swift" to "swift/example.swift",
        )
        for ((block, file) in examples) {
            assertEquals(File(tests, file).readText(), File(readme, block).readText(), "the README's $block block is not $file")
        }
    }

    @Test
    fun `the README builds as the tests do and links only absolute addresses`() {
        val commands = File(readme, "build").readLines().map { it.replace(Regex(" *#.*$"), "") }
        assertEquals(listOf("cargo build -p fairmines-uniffi -p fairmines-uniffi-bindgen", "bindings/uniffi/generate.sh"), commands)
        val text = File(tests, "../README.md").readText()
        for (license in listOf("LICENSE-MIT", "LICENSE-APACHE")) {
            val link = "(https://github.com/fairmines/fairmines/blob/main/$license)"
            assertTrue(File(tests, "../../../$license").length() > 0 && text.contains(link), "the README does not link $license")
        }
        // The README is also the page inside the JAR, the sources JAR and the gem, away from the repository.
        val relative = Regex("""\]\((?!https://|#)([^)]*)\)""").findAll(text).map { it.groupValues[1] }.toList()
        assertEquals(emptyList<String>(), relative, "links that only work in the repository")
    }
}
