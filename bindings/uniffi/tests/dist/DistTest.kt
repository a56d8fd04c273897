package io.github.fairmines

import java.io.File
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertNull
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * The released JAR's origin (scripts/test-dist-uniffi.sh): run in a Maven project outside the source tree that
 * resolves io.github.fairmines:fairmines from dist/maven, with no jna.library.path, so the library can only be the
 * JAR's linux-x86-64/libfairmines_uniffi.so. The package's own FairminesTest (every vector) and GameTest run
 * beside it in the same project, so against the same JAR.
 */
class DistTest {
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
}
