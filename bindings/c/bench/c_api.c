/* The C side of scripts/bench-c.sh: the same calls as bench/rust_core.rs, through libfairmines.a.
 * Prints `<case> <ns per call>` lines; the script runs both programs in turns and compares.
 * Environment: BENCH_CALLS (calls per run, default 100000), BENCH_RUNS (runs per case, best kept,
 * default 5), BENCH_ONLY (one case: commitment, mine_positions/N or batch/3). The calls are made in
 * the non-inlined functions commitment_calls and positions_calls, which the script's instruction
 * count (callgrind --toggle-collect) measures. */
#define _POSIX_C_SOURCE 199309L
#include <fairmines.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char S[] = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
static const char C[] = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
static volatile unsigned sink;

enum { BATCH = 200000 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
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

__attribute__((noinline)) void commitment_calls(uint64_t calls) {
    char hex[FAIRMINES_HEX_SIZE];
    for (uint64_t i = 0; i < calls; i++) {
        if (fairmines_commitment(S, sizeof S - 1, hex)) abort();
        sink += (unsigned)hex[0];
    }
}

__attribute__((noinline)) void positions_calls(uint8_t mines, uint64_t calls) {
    uint8_t out[FAIRMINES_TILES];
    for (uint64_t i = 0; i < calls; i++) {
        if (fairmines_mine_positions(S, sizeof S - 1, C, sizeof C - 1, i, mines, out, sizeof out)) abort();
        sink += out[0];
    }
}

int main(void) {
    const uint64_t calls = env_or("BENCH_CALLS", 100000);
    const unsigned long runs = env_or("BENCH_RUNS", 5);
    if (wanted("commitment")) {
        double best = 1e30;
        for (unsigned long run = 0; run < runs; run++) {
            double t0 = now();
            commitment_calls(calls);
            double per = (now() - t0) / (double)calls;
            if (per < best) best = per;
        }
        printf("commitment %.1f\n", best);
    }
    const uint8_t mines[] = {1, 3, 24};
    for (size_t k = 0; k < sizeof mines; k++) {
        char name[32];
        snprintf(name, sizeof name, "mine_positions/%u", mines[k]);
        if (!wanted(name)) continue;
        double best = 1e30;
        for (unsigned long run = 0; run < runs; run++) {
            double t0 = now();
            positions_calls(mines[k], calls);
            double per = (now() - t0) / (double)calls;
            if (per < best) best = per;
        }
        printf("%s %.1f\n", name, best);
    }
    if (wanted("batch/3")) {
        uint8_t *out = malloc((size_t)BATCH * 3);
        if (!out) return 1;
        double t0 = now();
        if (fairmines_mine_positions_batch(S, sizeof S - 1, C, sizeof C - 1, 0, BATCH, 3, out, (size_t)BATCH * 3)) abort();
        printf("batch/3 %.1f\n", (now() - t0) / BATCH);
        free(out);
    }
    return 0;
}
