/* The C side of scripts/bench-c.sh: the same calls as bench/rust_core.rs, through libfairmines.a. */
#define _POSIX_C_SOURCE 199309L
#include <fairmines.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char S[] = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
static const char C[] = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
static volatile unsigned sink;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

enum { N = 200000 };

static double bench_positions(uint8_t mines) {
    double best = 1e30;
    uint8_t out[FAIRMINES_TILES];
    for (int run = 0; run < 5; run++) {
        double t0 = now();
        for (uint64_t i = 0; i < N; i++) {
            if (fairmines_mine_positions(S, sizeof S - 1, C, sizeof C - 1, i, mines, out, sizeof out)) abort();
            sink += out[0];
        }
        double per = (now() - t0) / N;
        if (per < best) best = per;
    }
    return best;
}

int main(void) {
    char hex[FAIRMINES_HEX_SIZE];
    double best = 1e30;
    for (int run = 0; run < 5; run++) {
        double t0 = now();
        for (int i = 0; i < N; i++) {
            if (fairmines_commitment(S, sizeof S - 1, hex)) abort();
            sink += (unsigned)hex[0];
        }
        double per = (now() - t0) / N;
        if (per < best) best = per;
    }
    printf("C     commitment            %8.1f ns/call\n", best);
    printf("C     mine_positions(3)     %8.1f ns/call\n", bench_positions(3));
    printf("C     mine_positions(24)    %8.1f ns/call\n", bench_positions(24));
    size_t count = 1000000;
    uint8_t *out = malloc(count * 3);
    if (!out) return 1;
    best = 1e30;
    for (int run = 0; run < 5; run++) {
        double t0 = now();
        if (fairmines_mine_positions_batch(S, sizeof S - 1, C, sizeof C - 1, 0, count, 3, out, count * 3)) abort();
        double per = (now() - t0) / (double)count;
        if (per < best) best = per;
    }
    printf("C     batch(3), per round   %8.1f ns/round\n", best);
    free(out);
    return 0;
}
