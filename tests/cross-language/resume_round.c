/* Goes on with a round in play from a seed pair's stored state, as a restarted C service would, with
 * libfairmines:
 *
 *   resume_round STATE_FILE NONCE MOVE...
 *
 * Restores the pair from STATE_FILE, takes its round at NONCE back (fairmines_seed_pair_round), makes the
 * moves in order (a tile 1..25 to reveal, or `cash-out`), writes the pair's new state back to STATE_FILE,
 * and prints the round's record JSON once it has finished (nothing while it is still in play). Exit status:
 * 0 done, 2 an error (stderr: the status name and the message). */
#include <fairmines.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(fairmines_status status, const char *what) {
    fprintf(stderr, "%s: %s (%s)\n", what, fairmines_last_error(), fairmines_status_str(status));
    return 2;
}

/* A text output of the library into a new buffer (the caller frees it), or NULL with the status in *status. */
typedef fairmines_status (*text_out)(const void *, char *, size_t, size_t *);
static char *text_of(text_out call, const void *from, fairmines_status *status) {
    size_t needed = 0;
    char probe[1];
    *status = call(from, probe, 0, &needed);
    if (*status != FAIRMINES_BUFFER_TOO_SMALL) return NULL;
    char *text = malloc(needed);
    if (!text) return NULL;
    *status = call(from, text, needed, &needed);
    if (*status != FAIRMINES_OK) {
        free(text);
        return NULL;
    }
    return text;
}

static fairmines_status state_json(const void *pair, char *out, size_t capacity, size_t *needed) {
    return fairmines_seed_pair_to_state_json(pair, out, capacity, needed);
}

static fairmines_status record_json(const void *round, char *out, size_t capacity, size_t *needed) {
    return fairmines_round_record_json(round, out, capacity, needed);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: resume_round STATE_FILE NONCE MOVE...\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) return perror(argv[1]), 2;
    static char state[1 << 16];
    size_t len = fread(state, 1, sizeof state, f);
    fclose(f);
    fairmines_seed_pair *pair = NULL;
    fairmines_round *round = NULL;
    fairmines_status status = fairmines_seed_pair_from_state_json(state, len, &pair);
    if (status != FAIRMINES_OK) return fail(status, "fairmines_seed_pair_from_state_json");
    status = fairmines_seed_pair_round(pair, strtoull(argv[2], NULL, 10), &round);
    if (status != FAIRMINES_OK) return fail(status, "fairmines_seed_pair_round");
    for (int i = 3; i < argc; i++) {
        if (strcmp(argv[i], "cash-out") == 0) {
            fairmines_ratio paid;
            status = fairmines_round_cash_out(round, &paid);
        } else {
            fairmines_reveal reveal;
            status = fairmines_round_reveal(round, strtoll(argv[i], NULL, 10), &reveal);
        }
        if (status != FAIRMINES_OK) return fail(status, argv[i]);
    }
    char *saved = text_of(state_json, pair, &status);
    if (!saved) return fail(status, "fairmines_seed_pair_to_state_json");
    f = fopen(argv[1], "wb");
    if (!f || fputs(saved, f) == EOF || fclose(f) != 0) return perror(argv[1]), 2;
    free(saved);
    char *record = text_of(record_json, round, &status);
    if (record) {
        puts(record);
        free(record);
    } else if (status != FAIRMINES_ROUND_IN_PLAY) {
        return fail(status, "fairmines_round_record_json");
    }
    fairmines_round_free(round);
    fairmines_seed_pair_free(pair);
    return 0;
}
