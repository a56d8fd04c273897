/* An operator's round from a stored server seed: a restart, a cash-out, a refused rotation, a void, the
 * player's verification. Its output is the README's game.out block (bindings/c/README.md, The game). */
#include <fairmines.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define S(text) (text), strlen(text)

static void ok(fairmines_status s) {
    if (s != FAIRMINES_OK) {
        fprintf(stderr, "%s: %s\n", fairmines_status_str(s), fairmines_last_error());
        exit(2);
    }
}

int main(void) {
    /* Operator: a seed pair for the player's client seed. A real one comes from the OS CSPRNG,
     * fairmines_seed_pair_new(S("player seed"), &pair); a stored seed (the worked example's, at nonce 1)
     * makes this program's output the same on every run. */
    fairmines_seed_pair *pair = NULL;
    ok(fairmines_seed_pair_from_parts(S("b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a"),
                                      S("d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817"), 1,
                                      &pair));
    char commitment[FAIRMINES_HEX_SIZE];
    ok(fairmines_seed_pair_commitment(pair, commitment));
    printf("commitment %s\n", commitment);                 /* shown before play */

    /* A round with 3 mines and an RTP factor of 0.99: the grid is fixed now (mines at 7, 10 and 19),
     * the nonce moves on. After every move the operator stores the pair's state (it holds the SECRET
     * server seed: store it encrypted, or where only the service can read it). */
    fairmines_round *round = NULL;
    ok(fairmines_seed_pair_start_round(pair, 3, S("0.99"), &round));
    char state[1024];
    size_t needed;
    fairmines_reveal r = {0};
    for (int tile = 1; tile <= 3 && !r.finished; tile++) {
        ok(fairmines_round_reveal(round, tile, &r));       /* tile, safe, safe_picks, multiplier, finished */
        ok(fairmines_seed_pair_to_state_json(pair, state, sizeof state, &needed));    /* it holds the pick */
        printf("tile %u: %s\n", r.tile, r.safe ? "safe" : "mine");
        if (tile == 1) {
            /* The service restarts here: the pair comes back from the stored state, the round by its nonce. */
            fairmines_round_free(round);
            fairmines_seed_pair_free(pair);
            ok(fairmines_seed_pair_from_state_json(state, needed - 1, &pair));
            ok(fairmines_seed_pair_round(pair, 1, &round));
            uint8_t picks[FAIRMINES_TILES];
            size_t count;
            ok(fairmines_round_picks(round, picks, sizeof picks, &count));
            printf("restarted: round 1 goes on after %zu pick(s)\n", count);
        }
    }
    if (!r.finished) {
        fairmines_ratio paid;
        char shown[32];
        ok(fairmines_round_cash_out(round, &paid));         /* exact: 207/140 after 3 safe picks */
        ok(fairmines_ratio_to_decimal(paid, 2, shown, sizeof shown, &needed));
        printf("cashed out at %llu/%llu = %s\n", (unsigned long long)paid.numer,
               (unsigned long long)paid.denom, shown);      /* rounded down: 1.47 */
    }
    char record[1024];
    ok(fairmines_round_record_json(round, record, sizeof record, &needed));
    printf("record %s\n", record);                           /* published */

    /* A round still in play keeps the server seed secret: rotation is refused until it is voided. */
    fairmines_round *open = NULL;
    ok(fairmines_seed_pair_start_round(pair, 5, S("0.99"), &open));
    fairmines_revealed_seed_pair old;
    if (fairmines_seed_pair_rotate(pair, NULL, 0, &old) != FAIRMINES_ROUNDS_IN_PLAY) return 2;
    printf("rotate refused: %s\n", fairmines_last_error());
    uint64_t voided[8];
    size_t count;
    ok(fairmines_seed_pair_void_open_rounds(pair, voided, 8, &count));  /* its stake is returned */
    printf("voided %zu round(s), nonce %llu\n", count, (unsigned long long)voided[0]);

    /* Rotation reveals the old server seed; anyone can now replay the record. */
    ok(fairmines_seed_pair_rotate(pair, NULL, 0, &old));
    printf("revealed %s\n", old.server_seed);
    fairmines_round_verification v;
    char differences[4096];
    ok(fairmines_verify_round_json(S(record), S(old.server_seed), &v, differences, sizeof differences,
                                   &needed));
    printf("%s%s\n", v.ok ? "VERIFIED" : "NOT VERIFIED\n", differences);

    fairmines_round_free(open);
    fairmines_round_free(round);
    fairmines_seed_pair_free(pair);
    return v.ok ? 0 : 1;
}
