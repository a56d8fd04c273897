/* The C test suite of libfairmines: every case of vectors/vectors.json through every function, then
 * every error case. Usage: test_fairmines path/to/vectors.json
 * With --before-restart STATE_FILE, then --after-restart STATE_FILE, two runs play one round across a
 * restart (test_game.c).
 * Built with -std=c11 -Wall -Wextra -Werror -pedantic (see Makefile); exits non-zero on any failure. */
#include <fairmines.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json.h"

long checks = 0;
long failures = 0;

/* ---------------------------------------------------------------- worked example (ALGORITHM.md) */

static const char WS[] = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
static const char WC[] = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
static const char W_COMMITMENT[] = "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42";
static const char W_SIGNATURE[] = "90afadce62a96e641ac9a64d4bac3d5417a28c109561687871f0114f5dc397ac";
#define WSL (sizeof WS - 1)
#define WCL (sizeof WC - 1)

static void test_worked_example(void) {
    char hex[FAIRMINES_HEX_SIZE];
    uint8_t tiles[FAIRMINES_TILES];
    CHECK_STATUS(fairmines_commitment(WS, WSL, hex), FAIRMINES_OK, "commitment");
    CHECK(strcmp(hex, W_COMMITMENT) == 0, "commitment %s", hex);
    CHECK_STATUS(fairmines_round_signature(WS, WSL, WC, WCL, 1, hex), FAIRMINES_OK, "signature");
    CHECK(strcmp(hex, W_SIGNATURE) == 0, "signature %s", hex);
    CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, 1, 3, tiles, sizeof tiles), FAIRMINES_OK, "positions");
    CHECK(tiles[0] == 7 && tiles[1] == 10 && tiles[2] == 19, "positions %u %u %u", tiles[0], tiles[1], tiles[2]);
    CHECK_STATUS(fairmines_draw_order(WS, WSL, WC, WCL, 1, 3, tiles, 3), FAIRMINES_OK, "draw order");
    CHECK(tiles[0] == 9 && tiles[1] == 6 && tiles[2] == 18, "draw order %u %u %u", tiles[0], tiles[1], tiles[2]);
}

/* ---------------------------------------------------------------- shared vectors */

static int tiles_equal(const json_value *array, const uint8_t *tiles, size_t n) {
    if (!array || array->kind != JSON_ARRAY || array->count != n) return 0;
    for (size_t i = 0; i < n; i++) {
        if (!array->items[i].is_uint || array->items[i].uint != tiles[i]) return 0;
    }
    return 1;
}

static const json_value *member(const json_value *c, const char *key, json_kind kind) {
    const json_value *v = json_get(c, key);
    if (!v || v->kind != kind) {
        fprintf(stderr, "vectors.json: a case lacks '%s' of the right type\n", key);
        exit(2);
    }
    return v;
}

static void run_case(const json_value *c, int *worked_example_seen) {
    const char *id = member(c, "id", JSON_STRING)->str;
    const json_value *server = member(c, "server_seed", JSON_STRING);
    const json_value *client = member(c, "client_seed", JSON_STRING);
    const json_value *nonce_v = member(c, "nonce", JSON_NUMBER);
    const json_value *mines_v = member(c, "mines", JSON_NUMBER);
    const char *commitment = member(c, "commitment", JSON_STRING)->str;
    const char *signature = member(c, "signature", JSON_STRING)->str;
    const json_value *draw = member(c, "draw_order", JSON_ARRAY);
    const json_value *positions = member(c, "positions", JSON_ARRAY);
    const json_value *words_used = member(c, "words_used", JSON_NUMBER);
    if (!nonce_v->is_uint || !mines_v->is_uint || mines_v->uint > 24) {
        fprintf(stderr, "vectors.json: case %s has a bad nonce or mine count\n", id);
        exit(2);
    }
    uint64_t nonce = nonce_v->uint;
    uint8_t mines = (uint8_t)mines_v->uint;
    if (strcmp(id, "worked-example") == 0) *worked_example_seen = 1;

    char hex[FAIRMINES_HEX_SIZE];
    CHECK_STATUS(fairmines_commitment(server->str, server->len, hex), FAIRMINES_OK, id);
    CHECK(strcmp(hex, commitment) == 0, "%s: commitment %s, want %s", id, hex, commitment);
    CHECK_STATUS(fairmines_round_signature(server->str, server->len, client->str, client->len, nonce, hex),
                 FAIRMINES_OK, id);
    CHECK(strcmp(hex, signature) == 0, "%s: signature %s, want %s", id, hex, signature);

    /* Exactly `mines` bytes written into a larger buffer, the rest untouched. */
    uint8_t tiles[FAIRMINES_TILES + 1];
    memset(tiles, SENTINEL, sizeof tiles);
    CHECK_STATUS(fairmines_mine_positions(server->str, server->len, client->str, client->len, nonce, mines, tiles,
                                          sizeof tiles),
                 FAIRMINES_OK, id);
    CHECK(tiles_equal(positions, tiles, mines), "%s: positions differ", id);
    CHECK(untouched(tiles + mines, sizeof tiles - mines), "%s: wrote past `mines` bytes", id);

    uint8_t order[FAIRMINES_TILES];
    CHECK_STATUS(fairmines_draw_order(server->str, server->len, client->str, client->len, nonce, mines, order, mines),
                 FAIRMINES_OK, id);
    CHECK(tiles_equal(draw, order, mines), "%s: draw order differs", id);

    /* verify: declared values as published (positions reversed: order must not matter) pass... */
    uint8_t declared[FAIRMINES_TILES];
    for (size_t i = 0; i < mines; i++) declared[i] = (uint8_t)positions->items[mines - 1 - i].uint;
    fairmines_verification v;
    CHECK_STATUS(fairmines_verify(server->str, server->len, client->str, client->len, nonce, mines, commitment,
                                  strlen(commitment), declared, mines, &v),
                 FAIRMINES_OK, id);
    CHECK(v.ok && v.verdict == FAIRMINES_VERDICT_OK && v.commitment_ok == FAIRMINES_CHECK_PASSED &&
              v.positions_ok == FAIRMINES_CHECK_PASSED,
          "%s: verify should pass", id);
    CHECK(strcmp(v.commitment, commitment) == 0 && strcmp(v.signature, signature) == 0, "%s: verify digests", id);
    CHECK(v.mines == mines && tiles_equal(positions, v.positions, mines) && tiles_equal(draw, v.draw_order, mines) &&
              v.words_used == words_used->uint,
          "%s: verify placement (words used %u)", id, v.words_used);
    /* ...and one moved mine fails the positions check only. */
    uint8_t moved = 1;
    while (memchr(declared, moved, mines)) moved++;
    declared[0] = moved;
    CHECK_STATUS(fairmines_verify(server->str, server->len, client->str, client->len, nonce, mines, commitment,
                                  strlen(commitment), declared, mines, &v),
                 FAIRMINES_OK, id);
    CHECK(!v.ok && v.verdict == FAIRMINES_VERDICT_MISMATCH && v.commitment_ok == FAIRMINES_CHECK_PASSED &&
              v.positions_ok == FAIRMINES_CHECK_FAILED,
          "%s: verify should fail on a moved mine", id);

    /* The batch over nonce-1..nonce+1 agrees with the single call in its row for `nonce`. */
    uint64_t start = nonce > 0 ? nonce - 1 : 0;
    size_t row = (size_t)(nonce - start);
    uint8_t batch[3 * FAIRMINES_TILES];
    CHECK_STATUS(fairmines_mine_positions_batch(server->str, server->len, client->str, client->len, start, 3, mines,
                                                batch, 3 * (size_t)mines),
                 FAIRMINES_OK, id);
    CHECK(tiles_equal(positions, batch + row * mines, mines), "%s: batch row differs", id);
}

static char *read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            char *bigger = realloc(buf, cap *= 2);
            if (!bigger) free(buf);
            buf = bigger;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

static size_t test_vectors(const char *path) {
    size_t len;
    char *text = read_file(path, &len);
    if (!text) {
        fprintf(stderr, "cannot read %s\n", path);
        exit(2);
    }
    char error[128];
    json_value *root = json_parse(text, len, error, sizeof error);
    free(text);
    if (!root) {
        fprintf(stderr, "%s: %s\n", path, error);
        exit(2);
    }
    const json_value *cases = member(root, "cases", JSON_ARRAY);
    const json_value *count = member(root, "count", JSON_NUMBER);
    CHECK(cases->count > 0 && count->uint == cases->count, "vector count %zu vs %llu", cases->count,
          (unsigned long long)count->uint);
    int worked_example_seen = 0;
    for (size_t i = 0; i < cases->count; i++) run_case(&cases->items[i], &worked_example_seen);
    CHECK(worked_example_seen, "the worked example is not among the vectors");
    game_thread_tests(cases);
    size_t n = cases->count;
    json_free(root);
    return n;
}

/* ---------------------------------------------------------------- error cases */

static void test_null_pointers(void) {
    char hex[FAIRMINES_HEX_SIZE], hex2[FAIRMINES_HEX_SIZE];
    uint8_t tiles[FAIRMINES_TILES];
    fairmines_verification v;

    memset(hex, SENTINEL, sizeof hex);
    CHECK_STATUS(fairmines_commitment(NULL, 64, hex), FAIRMINES_NULL_POINTER, "NULL seed");
    LAST_ERROR_NAMES("server_seed");
    CHECK_STATUS(fairmines_commitment(NULL, 0, hex), FAIRMINES_NULL_POINTER, "NULL seed, length 0");
    CHECK(untouched(hex, sizeof hex), "out_hex written on error");
    CHECK_STATUS(fairmines_commitment(WS, WSL, NULL), FAIRMINES_NULL_POINTER, "NULL out_hex");
    LAST_ERROR_NAMES("out_hex");

    CHECK_STATUS(fairmines_round_signature(NULL, WSL, WC, WCL, 1, hex), FAIRMINES_NULL_POINTER, "sig NULL server");
    LAST_ERROR_NAMES("server_seed");
    CHECK_STATUS(fairmines_round_signature(WS, WSL, NULL, WCL, 1, hex), FAIRMINES_NULL_POINTER, "sig NULL client");
    LAST_ERROR_NAMES("client_seed");
    CHECK_STATUS(fairmines_round_signature(WS, WSL, WC, WCL, 1, NULL), FAIRMINES_NULL_POINTER, "sig NULL out");
    LAST_ERROR_NAMES("out_hex");
    CHECK(untouched(hex, sizeof hex), "out_hex written on error");

    memset(tiles, SENTINEL, sizeof tiles);
    CHECK_STATUS(fairmines_mine_positions(NULL, WSL, WC, WCL, 1, 3, tiles, 3), FAIRMINES_NULL_POINTER, "pos server");
    CHECK_STATUS(fairmines_mine_positions(WS, WSL, NULL, 0, 1, 3, tiles, 3), FAIRMINES_NULL_POINTER, "pos client");
    LAST_ERROR_NAMES("client_seed");
    CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, 1, 3, NULL, 3), FAIRMINES_NULL_POINTER, "pos out");
    LAST_ERROR_NAMES("out_positions");
    CHECK_STATUS(fairmines_draw_order(NULL, WSL, WC, WCL, 1, 3, tiles, 3), FAIRMINES_NULL_POINTER, "draw server");
    CHECK_STATUS(fairmines_draw_order(WS, WSL, WC, WCL, 1, 3, NULL, 3), FAIRMINES_NULL_POINTER, "draw out");
    LAST_ERROR_NAMES("out_draw_order");
    CHECK_STATUS(fairmines_mine_positions_batch(NULL, WSL, WC, WCL, 0, 2, 3, tiles, 6), FAIRMINES_NULL_POINTER,
                 "batch server");
    CHECK_STATUS(fairmines_mine_positions_batch(WS, WSL, WC, WCL, 0, 2, 3, NULL, 6), FAIRMINES_NULL_POINTER,
                 "batch out");
    CHECK_STATUS(fairmines_mine_positions_batch(WS, WSL, WC, WCL, 0, 0, 3, NULL, 0), FAIRMINES_NULL_POINTER,
                 "batch out, count 0");
    CHECK(untouched(tiles, sizeof tiles), "tiles written on error");

    memset(&v, SENTINEL, sizeof v);
    CHECK_STATUS(fairmines_verify(NULL, WSL, WC, WCL, 1, 3, NULL, 0, NULL, 0, &v), FAIRMINES_NULL_POINTER, "v srv");
    CHECK_STATUS(fairmines_verify(WS, WSL, NULL, WCL, 1, 3, NULL, 0, NULL, 0, &v), FAIRMINES_NULL_POINTER, "v cli");
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, NULL, 0, NULL, 0, NULL), FAIRMINES_NULL_POINTER, "v out");
    LAST_ERROR_NAMES("out");
    CHECK(untouched(&v, sizeof v), "verification written on error");

    memset(hex, SENTINEL, sizeof hex);
    memset(hex2, SENTINEL, sizeof hex2);
    CHECK_STATUS(fairmines_server_seed_generate(NULL, hex2), FAIRMINES_NULL_POINTER, "seed NULL");
    LAST_ERROR_NAMES("out_seed_hex");
    CHECK_STATUS(fairmines_server_seed_generate(hex, NULL), FAIRMINES_NULL_POINTER, "commitment NULL");
    LAST_ERROR_NAMES("out_commitment_hex");
    CHECK(untouched(hex, sizeof hex) && untouched(hex2, sizeof hex2), "seed outputs written on error");
}

static void test_invalid_utf8(void) {
    static const char *const bad[] = {
        "\xff",             /* never valid */
        "abc\xc3\x28",      /* bad continuation */
        "\xc0\xaf",         /* overlong '/' */
        "\xed\xa0\x80",     /* UTF-16 surrogate */
        "\xe2\x82",         /* truncated sequence */
        "\xf4\x90\x80\x80", /* above U+10FFFF */
    };
    char hex[FAIRMINES_HEX_SIZE];
    uint8_t tiles[FAIRMINES_TILES];
    fairmines_verification v;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t n = strlen(bad[i]);
        memset(hex, SENTINEL, sizeof hex);
        memset(tiles, SENTINEL, sizeof tiles);
        CHECK_STATUS(fairmines_commitment(bad[i], n, hex), FAIRMINES_INVALID_UTF8, "utf8 commitment");
        LAST_ERROR_NAMES("server_seed");
        CHECK_STATUS(fairmines_round_signature(WS, WSL, bad[i], n, 1, hex), FAIRMINES_INVALID_UTF8, "utf8 client");
        LAST_ERROR_NAMES("client_seed");
        CHECK_STATUS(fairmines_round_signature(bad[i], n, WC, WCL, 1, hex), FAIRMINES_INVALID_UTF8, "utf8 server");
        CHECK_STATUS(fairmines_mine_positions(WS, WSL, bad[i], n, 1, 3, tiles, 3), FAIRMINES_INVALID_UTF8, "utf8");
        LAST_ERROR_NAMES("client_seed");
        CHECK_STATUS(fairmines_draw_order(bad[i], n, WC, WCL, 1, 3, tiles, 3), FAIRMINES_INVALID_UTF8, "utf8 d");
        CHECK_STATUS(fairmines_mine_positions_batch(WS, WSL, bad[i], n, 0, 1, 3, tiles, 3), FAIRMINES_INVALID_UTF8,
                     "utf8 batch");
        CHECK_STATUS(fairmines_verify(WS, WSL, bad[i], n, 1, 3, NULL, 0, NULL, 0, &v), FAIRMINES_INVALID_UTF8, "v");
        CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, bad[i], n, NULL, 0, &v), FAIRMINES_INVALID_UTF8, "vc");
        LAST_ERROR_NAMES("commitment");
        CHECK(untouched(hex, sizeof hex) && untouched(tiles, sizeof tiles), "output written on invalid UTF-8");
    }
    /* An embedded NUL is just a byte of the span: accepted, and it changes the digest. */
    char with_nul[FAIRMINES_HEX_SIZE], without[FAIRMINES_HEX_SIZE];
    CHECK_STATUS(fairmines_commitment("a\0b", 3, with_nul), FAIRMINES_OK, "embedded NUL");
    CHECK_STATUS(fairmines_commitment("a", 1, without), FAIRMINES_OK, "a");
    CHECK(strcmp(with_nul, without) != 0, "the span length must be honoured past a NUL");
}

static void test_mines_and_buffers(void) {
    /* Judged whole, never narrowed: 259 and 256 + 3 would be 3 as a byte, -1 would be 255. */
    static const int64_t bad_mines[] = {0, 25, 26, 255, 259, -1, -253, 256 + 24, INT64_MAX, INT64_MIN};
    uint8_t tiles[FAIRMINES_TILES + 8];
    fairmines_verification v;
    for (size_t i = 0; i < sizeof bad_mines / sizeof bad_mines[0]; i++) {
        int64_t m = bad_mines[i];
        memset(tiles, SENTINEL, sizeof tiles);
        CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, 1, m, tiles, sizeof tiles), FAIRMINES_INVALID_MINES,
                     "mines");
        LAST_ERROR_NAMES("mines");
        CHECK_STATUS(fairmines_draw_order(WS, WSL, WC, WCL, 1, m, tiles, sizeof tiles), FAIRMINES_INVALID_MINES, "m");
        CHECK_STATUS(fairmines_mine_positions_batch(WS, WSL, WC, WCL, 1, 1, m, tiles, sizeof tiles),
                     FAIRMINES_INVALID_MINES, "batch mines");
        CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, m, NULL, 0, NULL, 0, &v), FAIRMINES_INVALID_MINES, "vm");
        CHECK(untouched(tiles, sizeof tiles), "tiles written for a bad mine count");
    }
    /* A C caller's `int mines = 259` arrives whole and is refused, naming its value. */
    int mines = 259;
    memset(tiles, SENTINEL, sizeof tiles);
    CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, 1, mines, tiles, sizeof tiles), FAIRMINES_INVALID_MINES,
                 "int mines = 259");
    CHECK(strcmp(fairmines_last_error(), "mines: must be a whole number from 1 to 24, got 259") == 0, "message: %s",
          fairmines_last_error());
    CHECK(untouched(tiles, sizeof tiles), "tiles written for 259 mines");
    mines = -1;
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, mines, NULL, 0, NULL, 0, &v), FAIRMINES_INVALID_MINES, "-1");
    CHECK(strcmp(fairmines_last_error(), "mines: must be a whole number from 1 to 24, got -1") == 0, "message: %s",
          fairmines_last_error());
    /* 1 and 24 are the edges that work. */
    CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, 1, 1, tiles, 1), FAIRMINES_OK, "mines 1");
    CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, 1, 24, tiles, 24), FAIRMINES_OK, "mines 24");

    memset(tiles, SENTINEL, sizeof tiles);
    CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, 1, 3, tiles, 2), FAIRMINES_BUFFER_TOO_SMALL, "small");
    CHECK(strcmp(fairmines_last_error(), "out_positions: the output needs 3 bytes, the buffer has 2") == 0,
          "message: %s", fairmines_last_error());
    CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, 1, 24, tiles, 23), FAIRMINES_BUFFER_TOO_SMALL, "23");
    CHECK_STATUS(fairmines_draw_order(WS, WSL, WC, WCL, 1, 3, tiles, 0), FAIRMINES_BUFFER_TOO_SMALL, "cap 0");
    LAST_ERROR_NAMES("out_draw_order");
    CHECK_STATUS(fairmines_mine_positions_batch(WS, WSL, WC, WCL, 0, 2, 3, tiles, 5), FAIRMINES_BUFFER_TOO_SMALL,
                 "batch small");
    CHECK(strcmp(fairmines_last_error(), "out_positions: the output needs 6 bytes, the buffer has 5") == 0,
          "message: %s", fairmines_last_error());
    /* One batch writes at most 4 GiB, whatever the buffer: the core's rule, named after the nonces. */
    CHECK_STATUS(fairmines_mine_positions_batch(WS, WSL, WC, WCL, 0, SIZE_MAX, 3, tiles, sizeof tiles),
                 FAIRMINES_INVALID_NUMBER, "batch count * mines overflows");
    LAST_ERROR_NAMES("nonces");
    CHECK_STATUS(fairmines_mine_positions_batch(WS, WSL, WC, WCL, 0, ((size_t)1 << 32) + 1, 1, tiles, sizeof tiles),
                 FAIRMINES_INVALID_NUMBER, "batch over 4 GiB");
    CHECK(strncmp(fairmines_last_error(), "nonces: 4294967297 rounds at mines = 1 need 4294967297 bytes", 60) == 0,
          "message: %s", fairmines_last_error());
    CHECK(untouched(tiles, sizeof tiles), "tiles written for a small buffer");

    /* Impossible lengths are refused before the memory is touched. */
    char hex[FAIRMINES_HEX_SIZE];
    memset(hex, SENTINEL, sizeof hex);
    CHECK_STATUS(fairmines_commitment(WS, SIZE_MAX, hex), FAIRMINES_LENGTH_TOO_LARGE, "huge length");
    LAST_ERROR_NAMES("server_seed");
    CHECK_STATUS(fairmines_round_signature(WS, WSL, WC, (size_t)PTRDIFF_MAX + 1, 0, hex), FAIRMINES_LENGTH_TOO_LARGE,
                 "length past PTRDIFF_MAX");
    LAST_ERROR_NAMES("client_seed");
    CHECK(untouched(hex, sizeof hex), "out_hex written for a huge length");
}

static void test_batch(void) {
    /* Nonce ranges: the last nonce may be 2^64 - 1 but not beyond. */
    uint8_t row[3], single[3];
    memset(row, SENTINEL, sizeof row);
    CHECK_STATUS(fairmines_mine_positions_batch(WS, WSL, WC, WCL, UINT64_MAX, 2, 3, row, sizeof row * 2),
                 FAIRMINES_INVALID_NONCE, "range past 2^64 - 1");
    CHECK(strcmp(fairmines_last_error(), "nonce: the range from 18446744073709551615 with 2 nonces passes 2^64 - 1") == 0,
          "message: %s", fairmines_last_error());
    CHECK(untouched(row, sizeof row), "batch wrote on error");
    CHECK_STATUS(fairmines_mine_positions_batch(WS, WSL, WC, WCL, UINT64_MAX, 1, 3, row, sizeof row), FAIRMINES_OK,
                 "last nonce");
    CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, UINT64_MAX, 3, single, sizeof single), FAIRMINES_OK,
                 "nonce 2^64 - 1");
    CHECK(memcmp(row, single, 3) == 0, "batch and single call differ at nonce 2^64 - 1");
    CHECK_STATUS(fairmines_mine_positions_batch(WS, WSL, WC, WCL, 5, 0, 3, row, 0), FAIRMINES_OK, "count 0");

    /* A batch large enough to run on several threads equals the single calls, row by row. */
    enum { COUNT = 6000, MINES = 5 };
    uint8_t *out = malloc((size_t)COUNT * MINES);
    CHECK(out != NULL, "malloc");
    if (!out) return;
    CHECK_STATUS(fairmines_mine_positions_batch(WS, WSL, WC, WCL, 1000, COUNT, MINES, out, (size_t)COUNT * MINES),
                 FAIRMINES_OK, "big batch");
    for (size_t i = 0; i < COUNT; i += 97) {
        uint8_t one[MINES];
        CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, 1000 + i, MINES, one, MINES), FAIRMINES_OK, "row");
        CHECK(memcmp(one, out + i * MINES, MINES) == 0, "batch row %zu differs", i);
    }
    free(out);
}

static void test_verify_inputs(void) {
    fairmines_verification v;
    static const uint8_t declared[] = {19, 7, 10};
    memset(&v, SENTINEL, sizeof v);
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, NULL, 123, NULL, 456, &v), FAIRMINES_OK, "no checks");
    /* Nothing checked is not a pass: the verdict says so, and ok is false. */
    CHECK(!v.ok && v.verdict == FAIRMINES_VERDICT_UNCHECKED && v.commitment_ok == FAIRMINES_CHECK_SKIPPED &&
              v.positions_ok == FAIRMINES_CHECK_SKIPPED,
          "nothing to check: verdict %u, ok %d", (unsigned)v.verdict, v.ok);
    CHECK(strcmp(v.commitment, W_COMMITMENT) == 0 && strcmp(v.signature, W_SIGNATURE) == 0, "recomputed digests");
    CHECK(v.positions[0] == 7 && v.positions[1] == 10 && v.positions[2] == 19 && v.positions[3] == 0 &&
              v.positions[24] == 0 && v.draw_order[0] == 9 && v.draw_order[3] == 0 && v.words_used == 3,
          "recomputed placement, zero padded");

    /* Upper-case hex is accepted; a wrong commitment fails the check but is not an error. */
    char upper[65];
    for (size_t i = 0; i < 64; i++) upper[i] = (char)(W_COMMITMENT[i] >= 'a' ? W_COMMITMENT[i] - 32 : W_COMMITMENT[i]);
    upper[64] = '\0';
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, upper, 64, declared, 3, &v), FAIRMINES_OK, "upper");
    CHECK(v.ok && v.verdict == FAIRMINES_VERDICT_OK && v.commitment_ok == FAIRMINES_CHECK_PASSED,
          "upper-case commitment passes");
    /* One check alone is enough for a verdict. */
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, W_COMMITMENT, 64, NULL, 0, &v), FAIRMINES_OK, "commitment");
    CHECK(v.ok && v.verdict == FAIRMINES_VERDICT_OK && v.positions_ok == FAIRMINES_CHECK_SKIPPED,
          "the commitment alone");
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, NULL, 0, declared, 3, &v), FAIRMINES_OK, "positions");
    CHECK(v.ok && v.verdict == FAIRMINES_VERDICT_OK && v.commitment_ok == FAIRMINES_CHECK_SKIPPED,
          "the positions alone");
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, W_SIGNATURE, 64, NULL, 0, &v), FAIRMINES_OK, "wrong");
    CHECK(!v.ok && v.verdict == FAIRMINES_VERDICT_MISMATCH && v.commitment_ok == FAIRMINES_CHECK_FAILED &&
              v.positions_ok == FAIRMINES_CHECK_SKIPPED,
          "a wrong commitment fails");
    static const uint8_t two[] = {7, 10};
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, NULL, 0, two, 2, &v), FAIRMINES_OK, "too few");
    CHECK(!v.ok && v.verdict == FAIRMINES_VERDICT_MISMATCH && v.positions_ok == FAIRMINES_CHECK_FAILED,
          "too few declared positions fail");

    memset(&v, SENTINEL, sizeof v);
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, W_COMMITMENT, 63, NULL, 0, &v), FAIRMINES_INVALID_HEX, "63");
    LAST_ERROR_NAMES("commitment");
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, "g" "5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42",
                                  64, NULL, 0, &v),
                 FAIRMINES_INVALID_HEX, "non-hex");
    static const uint8_t zero[] = {0, 7, 10}, big[] = {7, 10, 26};
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, NULL, 0, zero, 3, &v), FAIRMINES_INVALID_TILE, "tile 0");
    LAST_ERROR_NAMES("positions");
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, NULL, 0, big, 3, &v), FAIRMINES_INVALID_TILE, "tile 26");
    uint8_t many[26];
    for (size_t i = 0; i < sizeof many; i++) many[i] = (uint8_t)(i % 25 + 1);
    CHECK_STATUS(fairmines_verify(WS, WSL, WC, WCL, 1, 3, NULL, 0, many, 26, &v), FAIRMINES_INVALID_TILE, "26 tiles");
    CHECK(untouched(&v, sizeof v), "verification written on error");
}

static int is_lower_hex(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
    }
    return s[n] == '\0';
}

static void test_seed_generation(void) {
    char seed1[FAIRMINES_HEX_SIZE], seed2[FAIRMINES_HEX_SIZE], c1[FAIRMINES_HEX_SIZE], c2[FAIRMINES_HEX_SIZE];
    char recomputed[FAIRMINES_HEX_SIZE];
    CHECK_STATUS(fairmines_server_seed_generate(seed1, c1), FAIRMINES_OK, "generate");
    CHECK_STATUS(fairmines_server_seed_generate(seed2, c2), FAIRMINES_OK, "generate");
    CHECK(is_lower_hex(seed1, 64) && is_lower_hex(c1, 64), "64 lowercase hex characters and a NUL");
    CHECK(strcmp(seed1, seed2) != 0 && strcmp(c1, c2) != 0, "two seeds differ");
    CHECK_STATUS(fairmines_commitment(seed1, 64, recomputed), FAIRMINES_OK, "commitment of a seed");
    CHECK(strcmp(recomputed, c1) == 0, "the commitment is SHA3-256 of the seed text");
}

static void test_status_and_version(void) {
    static const unsigned codes[] = {FAIRMINES_OK, FAIRMINES_INVALID_MINES, FAIRMINES_INVALID_NONCE,
                                     FAIRMINES_INVALID_TILE, FAIRMINES_INVALID_HEX, FAIRMINES_INVALID_UTF8,
                                     FAIRMINES_STREAM_EXHAUSTED, FAIRMINES_RNG_FAILED, FAIRMINES_BUFFER_TOO_SMALL,
                                     FAIRMINES_TILE_ALREADY_REVEALED, FAIRMINES_ROUND_FINISHED,
                                     FAIRMINES_NOTHING_TO_CASH_OUT, FAIRMINES_INVALID_RTP, FAIRMINES_INVALID_PICKS,
                                     FAIRMINES_INVALID_NUMBER, FAIRMINES_INVALID_STATE, FAIRMINES_ROUNDS_IN_PLAY,
                                     FAIRMINES_ROUND_VOIDED, FAIRMINES_ROUND_NOT_IN_PLAY, FAIRMINES_NULL_POINTER,
                                     FAIRMINES_LENGTH_TOO_LARGE, FAIRMINES_PANIC, FAIRMINES_UNKNOWN_ERROR,
                                     FAIRMINES_RATIO_TOO_LARGE, FAIRMINES_ROUND_IN_PLAY};
    const size_t n = sizeof codes / sizeof codes[0];
    const char *unknown = fairmines_status_str(9999);
    CHECK(unknown && strcmp(unknown, "unknown status") == 0, "unknown code");
    CHECK(strcmp(fairmines_status_str(FAIRMINES_OK), "Success: the outputs were written.") == 0, "OK");
    /* Codes 1..=18 are described by the core's summary of the kind (a Rust test walks every kind). */
    CHECK(strcmp(fairmines_status_str(FAIRMINES_INVALID_MINES), "The mine count is not a whole number from 1 to 24.") == 0,
          "the core's summary: %s", fairmines_status_str(FAIRMINES_INVALID_MINES));
    for (size_t i = 0; i < n; i++) {
        const char *s = fairmines_status_str(codes[i]);
        CHECK(s != NULL && s[0] != '\0' && strcmp(s, unknown) != 0, "code %u has a description", codes[i]);
        for (size_t j = 0; j < i; j++) CHECK(strcmp(s, fairmines_status_str(codes[j])) != 0, "distinct %u", codes[i]);
    }
    /* The codes shared with every binding are fixed. */
    CHECK(FAIRMINES_OK == 0 && FAIRMINES_INVALID_MINES == 1 && FAIRMINES_INVALID_UTF8 == 5 &&
              FAIRMINES_BUFFER_TOO_SMALL == 8 && FAIRMINES_TILE_ALREADY_REVEALED == 9 &&
              FAIRMINES_ROUND_FINISHED == 10 && FAIRMINES_NOTHING_TO_CASH_OUT == 11 && FAIRMINES_INVALID_RTP == 12 &&
              FAIRMINES_INVALID_PICKS == 13 && FAIRMINES_INVALID_NUMBER == 14 && FAIRMINES_INVALID_STATE == 15 &&
              FAIRMINES_ROUNDS_IN_PLAY == 16 && FAIRMINES_ROUND_VOIDED == 17 && FAIRMINES_ROUND_NOT_IN_PLAY == 18 &&
              FAIRMINES_NULL_POINTER == 100 && FAIRMINES_LENGTH_TOO_LARGE == 101 && FAIRMINES_PANIC == 102 &&
              FAIRMINES_UNKNOWN_ERROR == 103 && FAIRMINES_RATIO_TOO_LARGE == 104 && FAIRMINES_ROUND_IN_PLAY == 105,
          "stable codes");
    CHECK(FAIRMINES_VERDICT_UNCHECKED == 0 && FAIRMINES_VERDICT_OK == 1 && FAIRMINES_VERDICT_MISMATCH == 2 &&
              FAIRMINES_OUTCOME_VOIDED == 3,
          "stable verdicts and outcomes");

    char version[64];
    snprintf(version, sizeof version, "%d.%d.%d", FAIRMINES_VERSION_MAJOR, FAIRMINES_VERSION_MINOR,
             FAIRMINES_VERSION_PATCH);
    CHECK(strcmp(version, FAIRMINES_VERSION_STRING) == 0, "macros %s vs %s", version, FAIRMINES_VERSION_STRING);
    CHECK(strcmp(fairmines_version(), FAIRMINES_VERSION_STRING) == 0, "library %s, header %s", fairmines_version(),
          FAIRMINES_VERSION_STRING);

    /* A successful call leaves the last error alone (errno-like). */
    char hex[FAIRMINES_HEX_SIZE];
    fairmines_commitment(NULL, 0, hex);
    fairmines_commitment(WS, WSL, hex);
    LAST_ERROR_NAMES("server_seed");
}

int main(int argc, char **argv) {
    if (argc == 3 && strcmp(argv[1], "--before-restart") == 0) return restart_first_process(argv[2]);
    if (argc == 3 && strcmp(argv[1], "--after-restart") == 0) return restart_second_process(argv[2]);
    if (argc != 2) {
        fprintf(stderr, "usage: %s path/to/vectors.json\n       %s --before-restart|--after-restart STATE_FILE\n",
                argv[0], argv[0]);
        return 2;
    }
    test_worked_example();
    size_t vectors = test_vectors(argv[1]);
    test_null_pointers();
    test_invalid_utf8();
    test_mines_and_buffers();
    test_batch();
    test_verify_inputs();
    test_seed_generation();
    test_status_and_version();
    game_tests();
    printf("fairmines C tests: %zu vectors, %ld checks, %ld failures\n", vectors, checks, failures);
    return failures == 0 ? 0 : 1;
}
