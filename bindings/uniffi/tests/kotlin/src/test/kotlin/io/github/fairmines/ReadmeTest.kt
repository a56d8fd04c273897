package io.github.fairmines

import java.io.ByteArrayOutputStream
import java.io.File
import java.io.PrintStream
import java.nio.file.Files
import java.util.concurrent.TimeUnit
import javax.tools.ToolProvider
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The README's Kotlin and Java programs print the output the README shows. The blocks are in fairmines.readme.dir:
 * scripts/test-uniffi.sh extracts them from bindings/uniffi/README.md, scripts/test-dist-uniffi.sh from the README
 * inside the released JAR (where this test runs against the JAR, without jna.library.path).
 */
class ReadmeTest {
    private val readme = File(System.getProperty("fairmines.readme.dir"))

    private fun expected(block: String): String {
        val file = File(readme, block)
        check(file.isFile) { "$file is missing: run scripts/test-uniffi.sh, which extracts the README's blocks" }
        return file.readText()
    }

    @Test
    fun `the README's Kotlin program prints the output the README shows`() {
        // The program is ReadmeExample.kt in the default package, as a user's would be.
        val captured = ByteArrayOutputStream()
        val stdout = System.out
        System.setOut(PrintStream(captured, true, "UTF-8"))
        try {
            Class.forName("ReadmeExampleKt").getMethod("main").invoke(null)
        } finally {
            System.setOut(stdout)
        }
        assertEquals(expected("kotlin.out"), captured.toString("UTF-8"))
    }

    @Test
    fun `the README's Java program, compiled by javac, prints the output the README shows`() {
        // A Java user's classpath: the binding (target/classes, or the released JAR), kotlin-stdlib and JNA.
        val classpath = listOf(Verdict::class.java, Unit::class.java, com.sun.jna.Native::class.java)
            .map { File(it.protectionDomain.codeSource.location.toURI()).path }
        val work = Files.createTempDirectory("fairmines-java").toFile()
        try {
            val source = File(work, "ReadmeExample.java").apply { writeText(expected("java")) }
            val javac = checkNotNull(ToolProvider.getSystemJavaCompiler()) { "no javac: the tests need a JDK" }
            val messages = ByteArrayOutputStream()
            val compiled = javac.run(null, messages, messages, "-Xlint:all", "-Werror", "-d", work.path,
                "-cp", classpath.joinToString(File.pathSeparator), source.path)
            assertEquals(0, compiled, "javac: $messages")
            // Its own JVM, as a Java program runs: the library from jna.library.path when the tests set it, else
            // from the JAR's resources.
            val java = File(System.getProperty("java.home"), "bin/java").path
            val command = listOf(java) +
                listOfNotNull(System.getProperty("jna.library.path")?.let { "-Djna.library.path=$it" }) +
                listOf("-cp", (listOf(work.path) + classpath).joinToString(File.pathSeparator), "ReadmeExample")
            val process = ProcessBuilder(command).redirectErrorStream(true).start()
            val output = process.inputStream.bufferedReader().readText()
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the Java program did not end")
            assertEquals(0, process.exitValue(), output)
            assertEquals(expected("java.out"), output)
        } finally {
            work.deleteRecursively()
        }
    }
}
