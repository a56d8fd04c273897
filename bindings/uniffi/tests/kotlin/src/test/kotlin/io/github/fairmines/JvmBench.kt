package io.github.fairmines

import java.io.File
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.condition.EnabledIfSystemProperty

/*
 * Per-call time of the JVM binding against the Python wheel's, run by scripts/bench-jvm.sh (`make bench`), never by
 * the tests (it needs -Dfairmines.bench.python, the Python with fairmines installed, and -Dfairmines.bench.out).
 *
 * Python runs in a process of its own that times what it is asked on its standard input; each sample times both
 * sides back to back (the order swapped every sample), so that the machine's drift cancels in their ratio, and the
 * median of the per-sample ratios is reported as a BENCH line (target: the JVM within 5x of Python per call).
 */
@EnabledIfSystemProperty(named = "fairmines.bench.python", matches = ".+")
class JvmBench {
    private val python = """
import sys, time, fairmines
S, C = sys.argv[1], sys.argv[2]
cases = {
    "minePositions": lambda k: [fairmines.mine_positions(S, C, n, 3) for n in range(k)],
    "commitment": lambda k: [fairmines.commitment(S) for _ in range(k)],
}
for line in sys.stdin:
    case, k = line.split()
    start = time.perf_counter()
    cases[case](int(k))
    print(time.perf_counter() - start, flush=True)
""".trimIndent()

    private fun jvm(case: String, k: Int): Double {
        var sink = 0L
        val start = System.nanoTime()
        when (case) {
            "minePositions" -> for (n in 0 until k) sink += minePositions(SERVER, CLIENT, n.toLong(), 3).size
            "commitment" -> for (n in 0 until k) sink += commitment(SERVER).length
        }
        val seconds = (System.nanoTime() - start) / 1e9
        check(sink > 0)
        return seconds
    }

    @Test
    fun `per-call time of minePositions and commitment against the Python wheel`() {
        val out = File(System.getProperty("fairmines.bench.out"))
        val samples = System.getProperty("fairmines.bench.samples", "21").toInt()
        val calls = System.getProperty("fairmines.bench.calls", "20000").toInt()
        val process = ProcessBuilder(System.getProperty("fairmines.bench.python"), "-c", python, SERVER, CLIENT)
            .redirectError(ProcessBuilder.Redirect.INHERIT).start()
        val toPython = process.outputStream.bufferedWriter()
        val fromPython = process.inputStream.bufferedReader()
        fun python(case: String, k: Int): Double {
            toPython.write("$case $k\n")
            toPython.flush()
            return fromPython.readLine().toDouble()
        }
        val lines = mutableListOf<String>()
        try {
            for ((case, pythonName) in listOf("minePositions" to "mine_positions, 3 mines", "commitment" to "commitment")) {
                repeat(5) { jvm(case, calls); python(case, calls) } // JIT and caches warm
                val ratios = mutableListOf<Double>()
                val jvmTimes = mutableListOf<Double>()
                val pythonTimes = mutableListOf<Double>()
                for (sample in 0 until samples) {
                    val (j, p) = if (sample % 2 == 0) {
                        val j = jvm(case, calls)
                        j to python(case, calls)
                    } else {
                        val p = python(case, calls)
                        jvm(case, calls) to p
                    }
                    jvmTimes += j / calls
                    pythonTimes += p / calls
                    ratios += j / p
                }
                val ratio = ratios.sorted()[samples / 2]
                val jvmCall = jvmTimes.sorted()[samples / 2]
                val pythonCall = pythonTimes.sorted()[samples / 2]
                val name = "JVM $case per call (%.2f us) / Python $pythonName (%.2f us)".format(jvmCall * 1e6, pythonCall * 1e6)
                println("$name: ${"%.2f".format(ratio)}x")
                lines += """BENCH {"suite": "jvm", "name": "$name", "value": ${"%.3f".format(ratio)}, "target": 5.0, "cmp": "<=", """ +
                    """"met": ${ratio <= 5.0}, "unit": "x", "rounds_per_s": ${(1 / jvmCall).toLong()}}"""
            }
        } finally {
            toPython.close()
            process.waitFor()
        }
        out.writeText(lines.joinToString("\n", postfix = "\n"))
    }
}
