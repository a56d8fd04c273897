/* The core of mines.c: the mines of one round. Output: 7 10 19 (bindings/c/README.md, Usage). */
#include <fairmines.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    const char *server = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
    const char *client = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
    uint8_t positions[FAIRMINES_TILES];
    fairmines_status s = fairmines_mine_positions(server, strlen(server), client, strlen(client),
                                                  /* nonce */ 1, /* mines */ 3, positions, sizeof positions);
    if (s != FAIRMINES_OK) {
        fprintf(stderr, "%s: %s\n", fairmines_status_str(s), fairmines_last_error());
        return 1;
    }
    printf("%u %u %u\n", positions[0], positions[1], positions[2]);
    return 0;
}
