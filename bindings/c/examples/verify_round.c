/* Verifies the published record of a finished Mines round against the server seed revealed after
 * rotation, with libfairmines.
 *
 *   verify_round RECORD SERVER_SEED
 *
 * RECORD is the record's JSON text (as fairmines_round_record_json() and every fairmines package write
 * it), or @PATH to read it from a file (@- for standard input). Prints the verdict, the replayed grid
 * and outcome, and every difference. Exit status: 0 the record verifies, 1 it does not, 2 bad input
 * (usage, an unreadable file, a record that is not a record).
 *
 *   cc -std=c11 verify_round.c -o verify_round $(pkg-config --cflags --libs fairmines) -Wl,-rpath,PREFIX/lib
 * (or statically: $(pkg-config --cflags --libs --static fairmines-static); see bindings/c/README.md) */
#include <fairmines.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads all of `f` into a new NUL-terminated buffer (the caller frees it), or NULL. */
static char *read_all(FILE *f, size_t *len) {
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        char *bigger = realloc(buf, cap *= 2);
        if (!bigger) free(buf);
        buf = bigger;
    }
    if (!buf || ferror(f)) {
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    *len = n;
    return buf;
}

static const char *outcome_name(fairmines_outcome outcome) {
    switch (outcome) {
    case FAIRMINES_OUTCOME_LOST: return "lost";
    case FAIRMINES_OUTCOME_CASHED_OUT: return "cashed_out";
    case FAIRMINES_OUTCOME_VOIDED: return "voided";
    default: return "in_play";
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %s RECORD_JSON|@PATH|@- SERVER_SEED\n", argc > 0 ? argv[0] : "verify_round");
        return 2;
    }
    char *owned = NULL;
    const char *record = argv[1];
    size_t record_len = strlen(record);
    if (record[0] == '@') {
        FILE *f = strcmp(record + 1, "-") == 0 ? stdin : fopen(record + 1, "rb");
        if (f) {
            owned = read_all(f, &record_len);
            if (f != stdin) fclose(f);
        }
        if (!owned) {
            fprintf(stderr, "verify_round: cannot read %s\n", record + 1);
            return 2;
        }
        record = owned;
    }
    const char *server_seed = argv[2];

    fairmines_round_verification v;
    size_t needed = 0, capacity = 4096;
    char *differences = malloc(capacity);
    fairmines_status s = FAIRMINES_BUFFER_TOO_SMALL;
    while (differences && s == FAIRMINES_BUFFER_TOO_SMALL) {
        s = fairmines_verify_round_json(record, record_len, server_seed, strlen(server_seed), &v, differences,
                                        capacity, &needed);
        if (s == FAIRMINES_BUFFER_TOO_SMALL) {
            /* Grow to the size the library asks for and call again. */
            free(differences);
            differences = malloc(capacity = needed);
        }
    }
    free(owned);
    if (!differences) {
        fprintf(stderr, "verify_round: out of memory\n");
        return 2;
    }
    if (s != FAIRMINES_OK) {
        fprintf(stderr, "verify_round: %s: %s\n", fairmines_status_str(s), fairmines_last_error());
        free(differences);
        return 2;
    }

    printf("verdict    %s\n", v.ok ? "VERIFIED" : "NOT VERIFIED");
    printf("commitment %s\n", v.commitment_ok ? "matches the server seed" : "DOES NOT match the server seed");
    printf("mines     ");
    for (size_t i = 0; i < v.mines; i++) printf(" %u", v.mine_positions[i]);
    printf("\nreplayed   %s", outcome_name(v.expected_outcome));
    if (v.has_expected_multiplier) {
        char decimal[64];
        if (fairmines_ratio_to_decimal(v.expected_multiplier, 2, decimal, sizeof decimal, &needed) == FAIRMINES_OK)
            printf(", multiplier %llu/%llu (%s)", (unsigned long long)v.expected_multiplier.numer,
                   (unsigned long long)v.expected_multiplier.denom, decimal);
    }
    printf("\n");
    /* One difference per line. */
    for (char *line = differences; *line;) {
        char *end = strchr(line, '\n');
        printf("difference %.*s\n", (int)(end - line), line);
        line = end + 1;
    }
    free(differences);
    return v.ok ? 0 : 1;
}
