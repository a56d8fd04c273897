/* Mines of 10,000 rounds on every core: clean under valgrind with the installed suppressions (README, valgrind). */
#include <fairmines.h>
#include <stdio.h>
#include <string.h>

#define ROUNDS 10000
#define MINES 3

int main(void) {
    const char *server = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
    const char *client = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
    /* The mines of rounds 0..9999 of one seed pair, row after row, computed on every core. */
    static uint8_t rows[ROUNDS * MINES];
    fairmines_status s = fairmines_mine_positions_batch(server, strlen(server), client, strlen(client),
                                                        /* first nonce */ 0, ROUNDS, MINES, rows, sizeof rows);
    if (s != FAIRMINES_OK) {
        fprintf(stderr, "%s: %s\n", fairmines_status_str(s), fairmines_last_error());
        return 1;
    }
    unsigned mines_on[FAIRMINES_TILES + 1] = {0};
    for (size_t i = 0; i < sizeof rows; i++) mines_on[rows[i]]++;
    printf("round 1: %u %u %u\n", rows[3], rows[4], rows[5]);
    printf("tile 1 held a mine in %u of %d rounds (expected %d)\n", mines_on[1], ROUNDS,
           ROUNDS * MINES / FAIRMINES_TILES);
    return 0;
}
