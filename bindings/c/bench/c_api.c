/* The C side of scripts/bench-c.sh: the same calls as bench/rust_core.rs, through libfairmines.a.
 * Prints `<case> <ns per call>` lines; the script runs both programs in turns and compares. */
#define _POSIX_C_SOURCE 199309L
#include <fairmines.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char S[] = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
static const char C[] = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
static volatile unsigned sink;

enum { CALLS = 100000, BATCH = 200000 };

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static double positions(uint8_t mines) {
    double best = 1e30;
    uint8_t out[FAIRMINES_TILES];
    for (int run = 0; run < 5; run++) {
        double t0 = now();
        for (uint64_t i = 0; i < CALLS; i++) {
            if (fairmines_mine_positions(S, sizeof S - 1, C, sizeof C - 1, i, mines, out, sizeof out)) abort();
            sink += out[0];
        }
        double per = (now() - t0) / CALLS;
        if (per < best) best = per;
    }
    return best;
}

int main(void) {
    char hex[FAIRMINES_HEX_SIZE];
    double best = 1e30;
    for (int run = 0; run < 5; run++) {
        double t0 = now();
        for (int i = 0; i < CALLS; i++) {
            if (fairmines_commitment(S, sizeof S - 1, hex)) abort();
            sink += (unsigned)hex[0];
        }
        double per = (now() - t0) / CALLS;
        if (per < best) best = per;
    }
    printf("commitment %.1f\n", best);
    const uint8_t mines[] = {1, 3, 24};
    for (size_t k = 0; k < sizeof mines; k++) printf("mine_positions/%u %.1f\n", mines[k], positions(mines[k]));
    uint8_t *out = malloc((size_t)BATCH * 3);
    if (!out) return 1;
    double t0 = now();
    if (fairmines_mine_positions_batch(S, sizeof S - 1, C, sizeof C - 1, 0, BATCH, 3, out, (size_t)BATCH * 3)) abort();
    printf("batch/3 %.1f\n", (now() - t0) / BATCH);
    free(out);
    return 0;
}
