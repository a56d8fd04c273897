// Written by hand (not generated): bindings/uniffi/generate.sh puts it beside the generated fairmines.kt and makes
// the generated code load the native library through registerLibrary.
package io.github.fairmines

import com.sun.jna.Native
import com.sun.jna.Platform
import java.io.File

/** The JNA folders a fairmines JAR may hold (scripts/dist-uniffi.sh), each with the library's file name there. */
private val LIBRARY_FILES = mapOf(
    "linux-x86-64" to "libfairmines_uniffi.so", "linux-aarch64" to "libfairmines_uniffi.so",
    "darwin-x86-64" to "libfairmines_uniffi.dylib", "darwin-aarch64" to "libfairmines_uniffi.dylib",
    "win32-x86-64" to "fairmines_uniffi.dll",
)

/**
 * `Native.register(type, name)`, except that a library JNA cannot find anywhere is said in one line: the platform,
 * and the platforms the JAR has a library for (as the Ruby gem says it). A library that is there but does not load
 * keeps JNA's own error (and a missing one has it as its cause).
 */
internal fun registerLibrary(type: Class<*>, name: String) {
    try {
        Native.register(type, name)
    } catch (error: UnsatisfiedLinkError) {
        // JNA's search, with every path it tried, stays as the cause.
        throw missingLibrary(name, Platform.RESOURCE_PREFIX, type.classLoader)
            ?.let { UnsatisfiedLinkError(it).apply { initCause(error) } } ?: error
    }
}

/**
 * The one-line message when neither [loader]'s resources (the JAR) nor `jna.library.path` hold the library `name`
 * for [platform] (JNA's folder name, e.g. `darwin-aarch64`); null when one of them does.
 */
internal fun missingLibrary(name: String, platform: String, loader: ClassLoader?): String? {
    val file = LIBRARY_FILES[platform] ?: System.mapLibraryName(name)
    val resources = loader ?: ClassLoader.getSystemClassLoader()
    val paths = System.getProperty("jna.library.path").orEmpty().split(File.pathSeparator).filter { it.isNotEmpty() }
    if (resources.getResource("$platform/$file") != null || paths.any { File(it, file).exists() }) return null
    val held = LIBRARY_FILES.filter { (folder, lib) -> resources.getResource("$folder/$lib") != null }.keys
    val supported = if (held.isEmpty()) "it holds no library" else "it supports ${held.joinToString(", ")}"
    return "fairmines has no native library for $platform in this JAR: $supported " +
        "(use the JAR built for your platform, or put $file on jna.library.path)"
}
