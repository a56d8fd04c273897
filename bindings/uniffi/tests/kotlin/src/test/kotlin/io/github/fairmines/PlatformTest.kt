package io.github.fairmines

import java.io.File
import java.nio.file.Files
import java.util.concurrent.TimeUnit
import java.util.zip.ZipFile
import java.util.zip.ZipOutputStream
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * Loaded where it has no library for the platform, the binding says so in one line, naming the platforms it has one
 * for. Run on the built classes (scripts/test-uniffi.sh) and on the released JAR (scripts/test-dist-uniffi.sh): a
 * program runs in its own JVM on the binding without its native folders, beside a darwin-aarch64 one (an empty file,
 * never loaded), with no jna.library.path.
 */
class PlatformTest {
    @Test
    fun `without this platform's library the first call fails with one line naming the platforms it has`() {
        val work = Files.createTempDirectory("fairmines-platform").toFile()
        try {
            val binding = File(Verdict::class.java.protectionDomain.codeSource.location.toURI())
            val classes = if (binding.isFile) withoutNativeFolders(binding, File(work, "fairmines.jar")) else binding
            val other = File(work, "other").apply { File(this, "darwin-aarch64").mkdirs() }
            File(other, "darwin-aarch64/libfairmines_uniffi.dylib").writeText("")
            val classpath = listOf(classes, other) + listOf(Unit::class.java, com.sun.jna.Native::class.java, MissingLibrary::class.java)
                .map { File(it.protectionDomain.codeSource.location.toURI()) }
            val java = File(System.getProperty("java.home"), "bin/java").path
            val process = ProcessBuilder(java, "-cp", classpath.joinToString(File.pathSeparator), MissingLibrary::class.java.name)
                .redirectErrorStream(true).start()
            val output = process.inputStream.bufferedReader().readText()
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the program did not end")
            assertEquals(
                "java.lang.UnsatisfiedLinkError: fairmines has no native library for ${com.sun.jna.Platform.RESOURCE_PREFIX} " +
                    "in this JAR: it supports darwin-aarch64 (use the JAR built for your platform, or put " +
                    "${System.mapLibraryName("fairmines_uniffi")} on jna.library.path)\nJNA's error as the cause: true\n",
                output,
            )
        } finally {
            work.deleteRecursively()
        }
    }

    /** A copy of [jar] without the native library folders (linux-x86-64/, …): only classes and META-INF/. */
    private fun withoutNativeFolders(jar: File, copy: File): File {
        ZipFile(jar).use { zip ->
            ZipOutputStream(copy.outputStream()).use { out ->
                for (entry in zip.entries()) {
                    if (!entry.name.startsWith("io/") && !entry.name.startsWith("META-INF/")) continue
                    out.putNextEntry(java.util.zip.ZipEntry(entry.name))
                    zip.getInputStream(entry).use { it.copyTo(out) }
                    out.closeEntry()
                }
            }
        }
        return copy
    }
}

/** What a program sees when it calls the binding without a library: one line (JNA's search is its cause). */
object MissingLibrary {
    @JvmStatic
    fun main(args: Array<String>) {
        try {
            commitment("seed")
        } catch (error: UnsatisfiedLinkError) {
            println(error)
            println("JNA's error as the cause: ${error.cause is UnsatisfiedLinkError}")
        }
    }
}
