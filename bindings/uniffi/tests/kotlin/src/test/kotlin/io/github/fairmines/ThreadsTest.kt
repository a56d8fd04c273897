package io.github.fairmines

import java.io.File
import java.util.concurrent.TimeUnit
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/*
 * Many threads of calls in a small heap: the binding must not allocate per call what one cleaner thread frees
 * later (bindings/uniffi/patch_kotlin.py). As UniFFI generates it, 8 threads calling maxSafePicks in 64 MB of heap
 * ran out of memory ("JNA: failed to create structure") and the JVM then hung, ignoring SIGTERM. Each case runs in
 * a JVM of its own with -Xmx64m and -XX:+ExitOnOutOfMemoryError, under a time limit after which it is killed.
 * No timing is asserted: the limit only turns a hang into a failure.
 */


/** The child JVM: `KIND THREADS CALLS`; prints the calls made and its peak RSS in MiB (Linux; -1 elsewhere). */
object ThreadsProcess {
    @JvmStatic
    fun main(args: Array<String>) {
        val (kind, threads, calls) = Triple(args[0], args[1].toInt(), args[2].toInt())
        val made = java.util.concurrent.atomic.AtomicLong()
        val workers = (0 until threads).map { t ->
            Thread {
                // Objects are left to the cleaner (no use/close), as a careless caller would leave them.
                val pair = SeedPair.fromParts(SERVER, CLIENT, t.toLong() shl 32)
                for (i in 0 until calls) {
                    when (kind) {
                        "maxSafePicks" -> check(maxSafePicks(3) == 22)
                        "minePositions" -> check(minePositions(SERVER, CLIENT, i.toLong(), 3).size == 3)
                        "commitment" -> check(commitment(SERVER).length == 64)
                        "round" -> {
                            val round = pair.startRound(3, "0.99")
                            if (round.reveal(1).safe) round.cashOut()
                        }
                        else -> error("unknown kind $kind")
                    }
                    made.incrementAndGet()
                }
            }.apply { start() }
        }
        workers.forEach { it.join() }
        val status = File("/proc/self/status")
        val peak = if (status.isFile) status.readLines().first { it.startsWith("VmHWM:") }.split(Regex("\\s+"))[1].toLong() / 1024 else -1
        println("${made.get()} $peak")
    }
}

class ThreadsTest {
    private fun run(kind: String, threads: Int, calls: Int) {
        val libraryPath = System.getProperty("jna.library.path")?.let { listOf("-Djna.library.path=$it") }.orEmpty()
        val command = listOf(File(System.getProperty("java.home"), "bin/java").path, "-Xmx64m", "-XX:+ExitOnOutOfMemoryError") +
            libraryPath + listOf("-cp", System.getProperty("java.class.path"), ThreadsProcess::class.java.name, kind, "$threads", "$calls")
        val process = ProcessBuilder(command).redirectErrorStream(true).start()
        val output = StringBuilder()
        val reader = Thread { output.append(process.inputStream.bufferedReader().readText()) }.apply { start() }
        if (!process.waitFor(240, TimeUnit.SECONDS)) {
            process.destroyForcibly() // SIGKILL: a JVM hung after an OutOfMemoryError ignored SIGTERM
            process.waitFor()
            reader.join()
            throw AssertionError("$kind: $threads threads x $calls calls did not finish in 240 s; it printed: $output")
        }
        reader.join()
        assertEquals(0, process.exitValue(), "$kind: $threads threads x $calls calls in -Xmx64m failed; it printed: $output")
        val (made, peakMiB) = output.trim().lines().last().split(" ").map { it.toLong() }
        assertEquals(threads.toLong() * calls, made, output.toString())
        // The JVM's own RSS with a 64 MB heap is ~60 MB; before the patch it grew past a gigabyte with the default heap.
        assertTrue(peakMiB <= 300, "$kind: peak RSS $peakMiB MiB")
    }

    @Test
    fun `8 threads of maxSafePicks in a 64 MB heap`() = run("maxSafePicks", 8, 400_000)

    @Test
    fun `8 threads of rounds started, revealed and cashed out, in a 64 MB heap, objects left to the cleaner`() =
        run("round", 8, 12_500)
}
