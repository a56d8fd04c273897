/*
 * Calls libfairmines_uniffi through the C header generated for Swift (generated/swift/fairminesFFI.h),
 * the same C ABI the generated Swift code uses: strings in as UTF-8 RustBuffers, results out as
 * RustBuffers in UniFFI's serialization (big-endian), errors as a RustCallStatus. This checks that
 * the header matches the library on this machine; it does not run any Swift.
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

static RustBuffer string_buffer(const char *text) {
    RustCallStatus status = {0};
    ForeignBytes bytes = {(int32_t)strlen(text), (const uint8_t *)text};
    RustBuffer buffer = ffi_fairmines_uniffi_rustbuffer_from_bytes(bytes, &status);
    if (status.code != 0) {
        fprintf(stderr, "rustbuffer_from_bytes failed\n");
        exit(2);
    }
    return buffer;
}

static void free_buffer(RustBuffer buffer) {
    RustCallStatus status = {0};
    ffi_fairmines_uniffi_rustbuffer_free(buffer, &status);
}

static int32_t read_i32(const uint8_t *p) {
    return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3]);
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

    /* An error: status code 1, and the error buffer holds the variant (1-based) and the message. */
    for (int32_t mines = 0; mines <= 25; mines += 25) {
        memset(&status, 0, sizeof status);
        RustBuffer none =
            uniffi_fairmines_uniffi_fn_func_mine_positions(string_buffer(SERVER), string_buffer(CLIENT), 1, mines, &status);
        CHECK(status.code == 1, "mines %d: status %d, expected 1 (error)", mines, status.code);
        CHECK(none.len == 0, "mines %d: a result buffer came with the error", mines);
        if (status.code == 1 && status.errorBuf.len >= 8) {
            const uint8_t *e = status.errorBuf.data;
            int32_t length = read_i32(e + 4);
            CHECK(read_i32(e) == 1, "mines %d: error variant %d, expected 1 (InvalidMines)", mines, read_i32(e));
            CHECK(length >= 7 && (uint64_t)length + 8 == status.errorBuf.len && memcmp(e + 8, "mines: ", 7) == 0,
                  "mines %d: message does not start with the argument", mines);
            printf("mines %d -> InvalidMines(\"%.*s\")\n", mines, (int)length, (const char *)e + 8);
        }
        free_buffer(status.errorBuf);
    }

    printf("c-header: %d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
