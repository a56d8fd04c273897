/*
 * Calls libfairmines_uniffi through the C header generated for Swift (bindings/uniffi/generate.sh writes swift/fairminesFFI.h),
 * the same C ABI the generated Swift code uses: strings in as UTF-8 RustBuffers, results out as
 * RustBuffers in UniFFI's serialization (big-endian), errors as a RustCallStatus, objects (SeedPair,
 * Round) as handles of which every method call consumes a clone. This checks that the header matches
 * the library on this machine; it does not run any Swift.
 *
 * GCC has no nullability qualifiers (a Clang extension the header uses): the test script passes
 * -D_Nullable= -D_Nonnull= when the compiler is not Clang.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fairminesFFI.h"

static const char SERVER[] = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
static const char CLIENT[] = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";

static int checks = 0, failures = 0;

#define CHECK(cond, ...)                                   \
    do {                                                   \
        checks++;                                          \
        if (!(cond)) {                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                  \
            fputc('\n', stderr);                           \
            failures++;                                    \
        }                                                  \
    } while (0)

static RustBuffer bytes_buffer(const uint8_t *data, int32_t len) {
    RustCallStatus status = {0};
    ForeignBytes bytes = {len, data};
    RustBuffer buffer = ffi_fairmines_uniffi_rustbuffer_from_bytes(bytes, &status);
    if (status.code != 0) {
        fprintf(stderr, "rustbuffer_from_bytes failed\n");
        exit(2);
    }
    return buffer;
}

static RustBuffer string_buffer(const char *text) {
    return bytes_buffer((const uint8_t *)text, (int32_t)strlen(text));
}

static void free_buffer(RustBuffer buffer) {
    RustCallStatus status = {0};
    ffi_fairmines_uniffi_rustbuffer_free(buffer, &status);
}

static int32_t read_i32(const uint8_t *p) {
    return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3]);
}

/* A cursor over a returned buffer in UniFFI's serialization; a read past the end sets `bad`. */
typedef struct {
    const uint8_t *data;
    uint64_t len, at;
    int bad;
} reader;

static const uint8_t *take(reader *r, uint64_t n) {
    if (r->bad || r->len - r->at < n) {
        r->bad = 1;
        return NULL;
    }
    r->at += n;
    return r->data + r->at - n;
}

static int32_t take_i32(reader *r) {
    const uint8_t *p = take(r, 4);
    return p ? read_i32(p) : -1;
}

static uint64_t take_u64(reader *r) {
    const uint8_t *p = take(r, 8);
    uint64_t v = 0;
    for (int i = 0; p && i < 8; i++) v = v << 8 | p[i];
    return v;
}

static int take_i8(reader *r) {
    const uint8_t *p = take(r, 1);
    return p ? (int)(int8_t)p[0] : -1;
}

/* Whether the next value is a String equal to `expected` (NULL: any string, skipped). */
static int take_string(reader *r, const char *expected) {
    int32_t n = take_i32(r);
    const uint8_t *p = n >= 0 ? take(r, (uint64_t)n) : NULL;
    if (p == NULL) return 0;
    return expected == NULL || ((size_t)n == strlen(expected) && memcmp(p, expected, (size_t)n) == 0);
}

/* An error of FairminesError: variant (1-based), code, name, argument (optional string), message. */
static void check_error(RustCallStatus *status, const char *what, int32_t variant, const char *name,
                        const char *argument, const char *message_start) {
    CHECK(status->code == 1, "%s: status %d, expected 1 (error)", what, status->code);
    if (status->code != 1) return;
    reader r = {status->errorBuf.data, status->errorBuf.len, 0, 0};
    CHECK(take_i32(&r) == variant, "%s: wrong error variant, expected %d", what, variant);
    CHECK(take_i32(&r) == variant, "%s: wrong error code, expected %d", what, variant);
    CHECK(take_string(&r, name), "%s: wrong error name, expected %s", what, name);
    int has_argument = take_i8(&r);
    CHECK(has_argument == (argument != NULL), "%s: argument present %d", what, has_argument);
    if (has_argument == 1) CHECK(take_string(&r, argument), "%s: wrong argument, expected %s", what, argument);
    int32_t length = take_i32(&r);
    const uint8_t *message = length >= 0 ? take(&r, (uint64_t)length) : NULL;
    CHECK(message != NULL && r.at == r.len && (size_t)length >= strlen(message_start) &&
              memcmp(message, message_start, strlen(message_start)) == 0,
          "%s: message does not start with \"%s\"", what, message_start);
    if (message) printf("%s -> %s(\"%.*s\")\n", what, name, (int)length, (const char *)message);
}

int main(void) {
    RustCallStatus status = {0};

    /* A returned String is its UTF-8 bytes. */
    RustBuffer hex = uniffi_fairmines_uniffi_fn_func_commitment(string_buffer(SERVER), &status);
    CHECK(status.code == 0, "commitment: status %d", status.code);
    CHECK(hex.len == 64 && hex.data != NULL &&
              memcmp(hex.data, "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42", 64) == 0,
          "commitment: wrong digest");
    free_buffer(hex);

    /* A returned sequence<i32> is an i32 count followed by the i32 values. */
    memset(&status, 0, sizeof status);
    RustBuffer positions =
        uniffi_fairmines_uniffi_fn_func_mine_positions(string_buffer(SERVER), string_buffer(CLIENT), 1, 3, &status);
    CHECK(status.code == 0, "mine_positions: status %d", status.code);
    const int32_t expected[] = {7, 10, 19};
    CHECK(positions.len == 16 && read_i32(positions.data) == 3, "mine_positions: wrong length");
    for (int i = 0; positions.len == 16 && i < 3; i++) {
        CHECK(read_i32(positions.data + 4 + 4 * i) == expected[i], "mine_positions[%d] = %d", i,
              read_i32(positions.data + 4 + 4 * i));
    }
    free_buffer(positions);

    /* An error: status code 1, and the error buffer holds the variant (1-based) and its fields. */
    for (int32_t mines = 0; mines <= 25; mines += 25) {
        memset(&status, 0, sizeof status);
        RustBuffer none =
            uniffi_fairmines_uniffi_fn_func_mine_positions(string_buffer(SERVER), string_buffer(CLIENT), 1, mines, &status);
        CHECK(none.len == 0, "mines %d: a result buffer came with the error", mines);
        check_error(&status, mines ? "mine_positions(mines 25)" : "mine_positions(mines 0)", 1, "INVALID_MINES",
                    "mines", "mines: ");
        free_buffer(status.errorBuf);
    }

    /* Objects are handles; each method call consumes a clone of the handle, as the Swift code passes it. */
    memset(&status, 0, sizeof status);
    uint64_t pair = uniffi_fairmines_uniffi_fn_constructor_seedpair_from_parts(string_buffer(SERVER),
                                                                                string_buffer(CLIENT), 1, &status);
    CHECK(status.code == 0 && pair != 0, "SeedPair.fromParts: status %d", status.code);
    uint64_t round = uniffi_fairmines_uniffi_fn_method_seedpair_start_round(
        uniffi_fairmines_uniffi_fn_clone_seedpair(pair, &status), 3, string_buffer("0.99"), &status);
    CHECK(status.code == 0 && round != 0, "SeedPair.startRound: status %d", status.code);

    /* Reveal: tile (i32), safe (i8), safePicks (i32), multiplier (optional Ratio: numerator, denominator,
       decimal), finished (i8). */
    RustBuffer safe = uniffi_fairmines_uniffi_fn_method_round_reveal(
        uniffi_fairmines_uniffi_fn_clone_round(round, &status), 1, &status);
    CHECK(status.code == 0, "Round.reveal(1): status %d", status.code);
    reader r = {safe.data, safe.len, 0, 0};
    CHECK(take_i32(&r) == 1 && take_i8(&r) == 1 && take_i32(&r) == 1 && take_i8(&r) == 1 && take_string(&r, "9") &&
              take_string(&r, "8") && take_string(&r, "1.12") && take_i8(&r) == 0 && r.at == r.len,
          "Round.reveal(1): expected tile 1, safe, with multiplier 9/8 (1.12), not finished");
    free_buffer(safe);

    RustBuffer mine = uniffi_fairmines_uniffi_fn_method_round_reveal(
        uniffi_fairmines_uniffi_fn_clone_round(round, &status), 10, &status);
    CHECK(status.code == 0, "Round.reveal(10): status %d", status.code);
    r = (reader){mine.data, mine.len, 0, 0};
    CHECK(take_i32(&r) == 10 && take_i8(&r) == 0 && take_i32(&r) == 1 && take_i8(&r) == 0 && take_i8(&r) == 1 &&
              r.at == r.len,
          "Round.reveal(10): expected tile 10, the mine, after 1 safe pick, no multiplier, finished");
    free_buffer(mine);

    RustBuffer after = uniffi_fairmines_uniffi_fn_method_round_reveal(
        uniffi_fairmines_uniffi_fn_clone_round(round, &status), 2, &status);
    CHECK(after.len == 0, "Round.reveal(2): a result buffer came with the error");
    check_error(&status, "Round.reveal(2) after the mine", 10, "ROUND_FINISHED", NULL, "the round has finished");
    free_buffer(status.errorBuf);

    memset(&status, 0, sizeof status);
    RustBuffer positions_after = uniffi_fairmines_uniffi_fn_method_round_mine_positions(
        uniffi_fairmines_uniffi_fn_clone_round(round, &status), &status);
    r = (reader){positions_after.data, positions_after.len, 0, 0};
    CHECK(status.code == 0 && take_i8(&r) == 1 && take_i32(&r) == 3 && take_i32(&r) == 7 && take_i32(&r) == 10 &&
              take_i32(&r) == 19 && r.at == r.len,
          "Round.minePositions(): expected [7, 10, 19] once finished");
    free_buffer(positions_after);

    /* A round in play (nonce 2) holds the server seed back: rotate fails with ROUNDS_IN_PLAY until voided. */
    const uint8_t none_string = 0; /* an absent Option<String> */
    memset(&status, 0, sizeof status);
    uint64_t in_play = uniffi_fairmines_uniffi_fn_method_seedpair_start_round(
        uniffi_fairmines_uniffi_fn_clone_seedpair(pair, &status), 5, string_buffer("99/100"), &status);
    CHECK(status.code == 0 && in_play != 0, "SeedPair.startRound (nonce 2): status %d", status.code);

    /* SeedPair.round(nonce): the round is handed out already (ROUND_NOT_IN_PLAY, argument nonce), but a pair
       restored from the state written after a safe pick (tile 1; the mines are at 2, 6, 12, 20 and 23) gives it
       back with that pick. The state string goes back in as it came out: a RustBuffer owned by Rust. */
    RustBuffer first_pick = uniffi_fairmines_uniffi_fn_method_round_reveal(
        uniffi_fairmines_uniffi_fn_clone_round(in_play, &status), 1, &status);
    CHECK(status.code == 0, "Round.reveal(1) at nonce 2: status %d", status.code);
    free_buffer(first_pick);
    uniffi_fairmines_uniffi_fn_method_seedpair_round(uniffi_fairmines_uniffi_fn_clone_seedpair(pair, &status), 2,
                                                     &status);
    check_error(&status, "SeedPair.round(2) while its Round lives", 18, "ROUND_NOT_IN_PLAY", "nonce",
                "nonce: the round at nonce 2 is already handed out by this seed pair");
    free_buffer(status.errorBuf);
    memset(&status, 0, sizeof status);
    RustBuffer state = uniffi_fairmines_uniffi_fn_method_seedpair_to_state_json(
        uniffi_fairmines_uniffi_fn_clone_seedpair(pair, &status), &status);
    uint64_t restored = uniffi_fairmines_uniffi_fn_constructor_seedpair_from_state_json(state, &status);
    CHECK(status.code == 0 && restored != 0, "SeedPair.fromStateJson(toStateJson()): status %d", status.code);
    uint64_t resumed = uniffi_fairmines_uniffi_fn_method_seedpair_round(
        uniffi_fairmines_uniffi_fn_clone_seedpair(restored, &status), 2, &status);
    CHECK(status.code == 0 && resumed != 0, "restored SeedPair.round(2): status %d", status.code);
    RustBuffer resumed_picks = uniffi_fairmines_uniffi_fn_method_round_picks(
        uniffi_fairmines_uniffi_fn_clone_round(resumed, &status), &status);
    r = (reader){resumed_picks.data, resumed_picks.len, 0, 0};
    CHECK(status.code == 0 && take_i32(&r) == 1 && take_i32(&r) == 1 && r.at == r.len,
          "restored SeedPair.round(2).picks(): expected [1]");
    free_buffer(resumed_picks);
    uniffi_fairmines_uniffi_fn_method_seedpair_round(uniffi_fairmines_uniffi_fn_clone_seedpair(restored, &status), 1,
                                                     &status);
    check_error(&status, "restored SeedPair.round(1), finished", 18, "ROUND_NOT_IN_PLAY", "nonce",
                "nonce: no round of this seed pair is in play at nonce 1");
    free_buffer(status.errorBuf);
    memset(&status, 0, sizeof status);
    uniffi_fairmines_uniffi_fn_free_round(resumed, &status);
    uniffi_fairmines_uniffi_fn_free_seedpair(restored, &status);
    RustBuffer refused = uniffi_fairmines_uniffi_fn_method_seedpair_rotate(
        uniffi_fairmines_uniffi_fn_clone_seedpair(pair, &status), bytes_buffer(&none_string, 1), &status);
    CHECK(refused.len == 0, "SeedPair.rotate: a result buffer came with the error");
    check_error(&status, "SeedPair.rotate with a round in play", 16, "ROUNDS_IN_PLAY", NULL,
                "the seed pair has 1 round(s) in play (nonce 2)");
    free_buffer(status.errorBuf);

    /* voidOpenRounds: a sequence<u64>, here [2]. */
    memset(&status, 0, sizeof status);
    RustBuffer voided = uniffi_fairmines_uniffi_fn_method_seedpair_void_open_rounds(
        uniffi_fairmines_uniffi_fn_clone_seedpair(pair, &status), &status);
    r = (reader){voided.data, voided.len, 0, 0};
    CHECK(status.code == 0 && take_i32(&r) == 1 && take_u64(&r) == 2 && r.at == r.len,
          "SeedPair.voidOpenRounds(): expected [2]");
    free_buffer(voided);
    RustBuffer move = uniffi_fairmines_uniffi_fn_method_round_reveal(
        uniffi_fairmines_uniffi_fn_clone_round(in_play, &status), 1, &status);
    CHECK(move.len == 0, "Round.reveal on a voided round: a result buffer came with the error");
    check_error(&status, "Round.reveal(1) on a voided round", 17, "ROUND_VOIDED", NULL, "the round was voided");
    free_buffer(status.errorBuf);
    memset(&status, 0, sizeof status);
    RustBuffer revealed = uniffi_fairmines_uniffi_fn_method_seedpair_rotate(
        uniffi_fairmines_uniffi_fn_clone_seedpair(pair, &status), bytes_buffer(&none_string, 1), &status);
    r = (reader){revealed.data, revealed.len, 0, 0};
    CHECK(status.code == 0 && take_string(&r, SERVER), "SeedPair.rotate after voiding: status %d", status.code);
    free_buffer(revealed);
    uniffi_fairmines_uniffi_fn_free_round(in_play, &status);

    uniffi_fairmines_uniffi_fn_free_round(round, &status);
    uniffi_fairmines_uniffi_fn_free_seedpair(pair, &status);
    CHECK(status.code == 0, "free: status %d", status.code);

    printf("c-header: %d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
