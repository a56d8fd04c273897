/* Shared by the C test files: counters and the CHECK macros. */
#ifndef FAIRMINES_TEST_CHECK_H
#define FAIRMINES_TEST_CHECK_H

#include <fairmines.h>

#include <stdio.h>
#include <string.h>

#include "json.h"

extern long checks;
extern long failures;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        checks++;                                                                         \
        if (!(cond)) {                                                                    \
            failures++;                                                                   \
            if (failures <= 50) {                                                         \
                fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);           \
                fprintf(stderr, __VA_ARGS__);                                             \
                fputc('\n', stderr);                                                      \
            }                                                                             \
        }                                                                                 \
    } while (0)

#define CHECK_STATUS(call, want, what)                                                      \
    do {                                                                                    \
        fairmines_status got_ = (call);                                                     \
        CHECK(got_ == (want), "%s: got %u (%s), want %u; last error: %s", what, (unsigned)got_, \
              fairmines_status_str(got_), (unsigned)(want), fairmines_last_error());          \
    } while (0)

#define LAST_ERROR_NAMES(argument)                                                              \
    CHECK(strstr(fairmines_last_error(), argument) == fairmines_last_error(),                  \
          "last error should start with '%s', is '%s'", argument, fairmines_last_error())

/* A byte pattern that the library never writes, to see that a failed call left a buffer alone. */
#define SENTINEL 0xA5

static inline int untouched(const void *buf, size_t len) {
    const unsigned char *p = buf;
    for (size_t i = 0; i < len; i++) {
        if (p[i] != SENTINEL) return 0;
    }
    return 1;
}

/* The worked example of ALGORITHM.md. */
#define WS_TEXT "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a"
#define WC_TEXT "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817"
#define W_COMMITMENT_TEXT "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42"

/* test_game.c: the game API. */
void game_tests(void);
/* Many threads at once over every case, and handles shared between threads. */
void game_thread_tests(const json_value *cases);
/* The two halves of the restart test, each run as its own process (see main and the Makefile): the first
 * plays a move and stores the seed pair's state in the file, the second restores it and goes on. */
int restart_first_process(const char *state_path);
int restart_second_process(const char *state_path);

#endif
