/* scripts/bench-c.sh's program: the C API (libfairmines.a, called from C) against the same calls
 * straight to the Rust core (bench/rust_core.rs, a cdylib linked beside it), timed in one process,
 * interleaved sample by sample: this machine's speed drifts by 20-30% over seconds, and a sample's two
 * halves are a few milliseconds apart, so the drift cancels in their ratio. Each sample times
 * BENCH_CALLS calls (default 2000) through C, then through Rust, the order swapped every sample.
 * Prints `<case> <C ns per call> <Rust ns per call>` per sample; the script takes medians.
 * Environment: BENCH_SAMPLES (default 300, after BENCH_WARMUP unprinted ones, default 10) and
 * BENCH_ONLY (one case: commitment, mine_positions/N or batch/3). The C loops are named c_api_*,
 * which no Rust loop is: the script counts each loop's instructions by exact name (callgrind). */
#define _POSIX_C_SOURCE 199309L
#include <fairmines.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* bench/rust_core.rs */
void rust_core_commitment_loop(uint64_t calls);
void rust_core_positions_loop(uint32_t mines, uint64_t calls);
void rust_core_batch(size_t count, uint32_t mines, uint8_t *out);

static const char S[] = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
static const char C[] = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
static volatile unsigned sink;

/* Nonces per batch sample: a batch spreads over all cores, so it needs more work than a loop. */
enum { BATCH = 20000 };
static uint8_t batch_out[BATCH * 3];

static double now(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static unsigned long env_or(const char *name, unsigned long fallback) {
    const char *text = getenv(name);
    return text && *text ? strtoul(text, NULL, 10) : fallback;
}

static int wanted(const char *name) {
    const char *only = getenv("BENCH_ONLY");
    return !only || !*only || strcmp(only, name) == 0;
}

__attribute__((noinline)) void c_api_commitment_loop(uint64_t calls) {
    char hex[FAIRMINES_HEX_SIZE];
    for (uint64_t i = 0; i < calls; i++) {
        if (fairmines_commitment(S, sizeof S - 1, hex)) abort();
        sink += (unsigned)hex[0];
    }
}

__attribute__((noinline)) void c_api_positions_loop(uint32_t mines, uint64_t calls) {
    uint8_t out[FAIRMINES_TILES];
    for (uint64_t i = 0; i < calls; i++) {
        if (fairmines_mine_positions(S, sizeof S - 1, C, sizeof C - 1, i, mines, out, sizeof out)) abort();
        sink += out[0];
    }
}

__attribute__((noinline)) void c_api_batch(size_t count, uint32_t mines, uint8_t *out) {
    if (fairmines_mine_positions_batch(S, sizeof S - 1, C, sizeof C - 1, 0, count, mines, out, count * mines))
        abort();
}

/* side 0: C API, side 1: Rust core. */
static void run(int side, const char *name, uint32_t mines, uint64_t calls) {
    if (strcmp(name, "commitment") == 0)
        side ? rust_core_commitment_loop(calls) : c_api_commitment_loop(calls);
    else if (strncmp(name, "batch/", 6) == 0)
        side ? rust_core_batch(calls, mines, batch_out) : c_api_batch(calls, mines, batch_out);
    else
        side ? rust_core_positions_loop(mines, calls) : c_api_positions_loop(mines, calls);
}

static void bench(const char *name, uint32_t mines, uint64_t calls, unsigned long warmup, unsigned long samples) {
    if (!wanted(name)) return;
    /* The loops run on this thread: its CPU time leaves out the time other processes take from it on
     * this shared machine. A batch runs on all cores: wall time. */
    const clockid_t clock = strncmp(name, "batch/", 6) == 0 ? CLOCK_MONOTONIC : CLOCK_THREAD_CPUTIME_ID;
    for (unsigned long s = 0; s < warmup + samples; s++) {
        double ns[2];
        for (int k = 0; k < 2; k++) {
            int side = (int)(s & 1) ^ k;
            double t0 = now(clock);
            run(side, name, mines, calls);
            ns[side] = (now(clock) - t0) / (double)calls;
        }
        if (s >= warmup) printf("%s %.2f %.2f\n", name, ns[0], ns[1]);
    }
}

int main(void) {
    const uint64_t calls = env_or("BENCH_CALLS", 2000);
    const unsigned long samples = env_or("BENCH_SAMPLES", 300), warmup = env_or("BENCH_WARMUP", 10);
    bench("commitment", 0, calls, warmup, samples);
    bench("mine_positions/1", 1, calls, warmup, samples);
    bench("mine_positions/3", 3, calls, warmup, samples);
    bench("mine_positions/24", 24, calls, warmup, samples);
    /* Informational (no target); fewer samples, each ~10 times longer. */
    bench("batch/3", 3, BATCH, warmup ? 2 : 0, samples / 10 ? samples / 10 : 1);
    return 0;
}
