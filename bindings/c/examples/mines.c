/* Prints the commitment, signature and mine positions of a round, and verifies declared positions.
 *   mines SERVER_SEED CLIENT_SEED NONCE MINES [DECLARED_POSITION...]
 * Build: cc -std=c11 mines.c -o mines $(pkg-config --cflags --libs fairmines) -Wl,-rpath,PREFIX/lib   (shared), or
 *        cc -std=c11 mines.c -o mines $(pkg-config --cflags --libs --static fairmines-static)     (static)
 * (PREFIX: where scripts/install-c.sh installed the library; bindings/c/README.md tells why the rpath.) */
#include <fairmines.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(const char *what, fairmines_status status) {
    fprintf(stderr, "%s failed: %s (%s)\n", what, fairmines_status_str(status), fairmines_last_error());
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s SERVER_SEED CLIENT_SEED NONCE MINES [DECLARED_POSITION...]\n", argv[0]);
        return 2;
    }
    const char *server = argv[1], *client = argv[2];
    uint64_t nonce = strtoull(argv[3], NULL, 10);
    /* Passed whole: the library refuses a count outside 1..=24 (a byte would turn 259 into 3). */
    int64_t mines = strtoll(argv[4], NULL, 10);

    char commitment[FAIRMINES_HEX_SIZE], signature[FAIRMINES_HEX_SIZE];
    uint8_t positions[FAIRMINES_TILES];
    fairmines_status s;
    if ((s = fairmines_commitment(server, strlen(server), commitment)) != FAIRMINES_OK) return fail("commitment", s);
    if ((s = fairmines_round_signature(server, strlen(server), client, strlen(client), nonce, signature)))
        return fail("round signature", s);
    if ((s = fairmines_mine_positions(server, strlen(server), client, strlen(client), nonce, mines, positions,
                                      sizeof positions)))
        return fail("mine positions", s);

    printf("commitment %s\nsignature  %s\npositions ", commitment, signature);
    for (int64_t i = 0; i < mines; i++) printf(" %u", positions[i]);
    printf("\n");

    if (argc > 5) {
        uint8_t declared[FAIRMINES_TILES + 1];
        size_t n = 0;
        for (int i = 5; i < argc && n < sizeof declared; i++) {
            /* Tiles are bytes: a number that does not fit one is no tile (and must not wrap into one). */
            long tile = strtol(argv[i], NULL, 10);
            if (tile < 0 || tile > UINT8_MAX) {
                fprintf(stderr, "declared position %s: not a tile (1..=25)\n", argv[i]);
                return 2;
            }
            declared[n++] = (uint8_t)tile;
        }
        fairmines_verification v;
        if ((s = fairmines_verify(server, strlen(server), client, strlen(client), nonce, mines, NULL, 0, declared, n,
                                  &v)))
            return fail("verify", s);
        printf("declared positions %s\n", v.ok ? "VERIFIED" : "DO NOT MATCH");
        return v.ok ? 0 : 3;
    }
    return 0;
}
