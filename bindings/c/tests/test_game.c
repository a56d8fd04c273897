/* The C tests of the game API: a short smoke of the game through handles (the worked example, no server
 * seed revealed under a round in play, rounds resumed after a restart: within one program and across two
 * processes), and what the C binding itself does: converting every argument and result, statuses and
 * messages, NULL and bad UTF-8 in every function, buffers, handle ownership, and threads (handles are
 * locked: a second move waits). The game's rules are tested in the core (crates/fairmines/tests/game.rs,
 * game_machine.rs, resume.rs). Part of the test_fairmines program (see test_fairmines.c and the Makefile). */
#define _POSIX_C_SOURCE 200809L

#include <fairmines.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "json.h"

static const char WS[] = WS_TEXT;
static const char WC[] = WC_TEXT;
static const char W_COMMITMENT[] = W_COMMITMENT_TEXT;
#define WSL (sizeof WS - 1)
#define WCL (sizeof WC - 1)
#define S(text) (text), strlen(text)

#define RECORD_SIZE 1024
#define DIFF_SIZE 4096

static int ratio_eq(fairmines_ratio a, uint64_t numer, uint64_t denom) { return a.numer == numer && a.denom == denom; }

static int is_mine(const uint8_t *positions, uint8_t mines, int tile) {
    return memchr(positions, tile, mines) != NULL;
}

static fairmines_seed_pair *pair_from_parts(const char *server, size_t server_len, const char *client,
                                            size_t client_len, uint64_t nonce) {
    fairmines_seed_pair *pair = NULL;
    CHECK_STATUS(fairmines_seed_pair_from_parts(server, server_len, client, client_len, nonce, &pair), FAIRMINES_OK,
                 "from_parts");
    return pair;
}

/* The safe tiles of the worked example's seeds at `nonce` with `mines` mines, ascending; returns their number. */
static int safe_tiles(uint64_t nonce, uint8_t mines, int *safe) {
    uint8_t grid[FAIRMINES_TILES];
    CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, nonce, mines, grid, sizeof grid), FAIRMINES_OK, "grid");
    int n = 0;
    for (int tile = 1; tile <= FAIRMINES_TILES; tile++)
        if (!is_mine(grid, mines, tile)) safe[n++] = tile;
    return n;
}

/* ---------------------------------------------------------------- the worked example, step by step */

static void test_worked_round(void) {
    /* Worked example: nonce 1, 3 mines at 7, 10, 19. */
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 1);
    if (!pair) return;
    char hex[FAIRMINES_HEX_SIZE], client[100], json[RECORD_SIZE];
    size_t needed = 0;
    uint64_t nonce = 99;
    CHECK_STATUS(fairmines_seed_pair_commitment(pair, hex), FAIRMINES_OK, "commitment");
    CHECK(strcmp(hex, W_COMMITMENT) == 0, "pair commitment %s", hex);
    CHECK_STATUS(fairmines_seed_pair_client_seed(pair, client, sizeof client, &needed), FAIRMINES_OK, "client seed");
    CHECK(strcmp(client, WC) == 0 && needed == WCL + 1, "client seed %s", client);
    CHECK_STATUS(fairmines_seed_pair_nonce(pair, &nonce), FAIRMINES_OK, "nonce");
    CHECK(nonce == 1, "nonce");
    CHECK_STATUS(fairmines_seed_pair_public_part_json(pair, json, sizeof json, &needed), FAIRMINES_OK, "public json");
    CHECK(strcmp(json, "{\"commitment\":\"" W_COMMITMENT_TEXT "\",\"client_seed\":\"" WC_TEXT "\",\"nonce\":1}") == 0,
          "public json %s", json);

    fairmines_round *round = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 3, S("0.99"), &round), FAIRMINES_OK, "start");
    if (!round) {
        fairmines_seed_pair_free(pair);
        return;
    }
    CHECK_STATUS(fairmines_seed_pair_nonce(pair, &nonce), FAIRMINES_OK, "nonce");
    CHECK(nonce == 2, "the round used nonce 1");
    fairmines_round_info info;
    CHECK_STATUS(fairmines_round_get_info(round, &info), FAIRMINES_OK, "info");
    CHECK(strcmp(info.commitment, W_COMMITMENT) == 0 && info.nonce == 1 && info.mines == 3 && info.pick_count == 0 &&
              info.safe_picks == 0 && !info.finished && info.outcome == FAIRMINES_OUTCOME_IN_PLAY &&
              !info.has_multiplier && ratio_eq(info.multiplier, 0, 1) && ratio_eq(info.rtp, 99, 100),
          "fresh round info");
    uint8_t picks[FAIRMINES_TILES];
    size_t count = 99;
    CHECK_STATUS(fairmines_round_picks(round, picks, 0, &count), FAIRMINES_OK, "no picks, capacity 0");
    CHECK(count == 0, "no picks yet");

    /* A refused cash-out (no safe pick yet) is the core's error, with its status and message. */
    fairmines_ratio paid = {7, 7};
    CHECK_STATUS(fairmines_round_cash_out(round, &paid), FAIRMINES_NOTHING_TO_CASH_OUT, "cash-out with no pick");
    CHECK(ratio_eq(paid, 7, 7), "cash-out output written on error");
    CHECK(strcmp(fairmines_last_error(), "cash-out needs at least one safe pick first") == 0, "message: %s",
          fairmines_last_error());

    /* Tiles are int64_t judged whole: none of these wraps into 1..=25 (257 would be 1 as a byte). */
    static const int64_t bad_tiles[] = {0, 26, -1, 256 + 1, INT64_MAX, INT64_MIN};
    fairmines_reveal r;
    for (size_t i = 0; i < sizeof bad_tiles / sizeof bad_tiles[0]; i++) {
        memset(&r, SENTINEL, sizeof r);
        CHECK_STATUS(fairmines_round_reveal(round, bad_tiles[i], &r), FAIRMINES_INVALID_TILE, "tile out of range");
        LAST_ERROR_NAMES("tile");
        CHECK(untouched(&r, sizeof r), "reveal result written on error");
    }
    CHECK(strcmp(fairmines_last_error(), "tile: must be from 1 to 25, got -9223372036854775808") == 0, "message: %s",
          fairmines_last_error());

    /* Tile 1 is safe: every field of the core's reveal, 25/22 x 99/100 = 9/8, shown as 1.12. */
    CHECK_STATUS(fairmines_round_reveal(round, 1, &r), FAIRMINES_OK, "reveal 1");
    CHECK(r.tile == 1 && r.safe && r.safe_picks == 1 && r.has_multiplier && ratio_eq(r.multiplier, 9, 8) &&
              !r.finished,
          "reveal 1: tile %u safe %d picks %u multiplier %llu/%llu finished %d", r.tile, r.safe, r.safe_picks,
          (unsigned long long)r.multiplier.numer, (unsigned long long)r.multiplier.denom, r.finished);
    char dec[32];
    CHECK_STATUS(fairmines_ratio_to_decimal(r.multiplier, 2, dec, sizeof dec, &needed), FAIRMINES_OK, "decimal");
    CHECK(strcmp(dec, "1.12") == 0 && needed == 5, "9/8 to 2 places: %s", dec);

    memset(&r, SENTINEL, sizeof r);
    CHECK_STATUS(fairmines_round_reveal(round, 1, &r), FAIRMINES_TILE_ALREADY_REVEALED, "double reveal");
    LAST_ERROR_NAMES("tile");
    CHECK(untouched(&r, sizeof r), "reveal result written on a double reveal");
    CHECK_STATUS(fairmines_round_reveal(round, 2, &r), FAIRMINES_OK, "reveal 2");
    CHECK(r.tile == 2 && ratio_eq(r.multiplier, 9, 7) && r.safe_picks == 2, "25*24/(22*21) x 0.99 = 9/7");

    /* Still in play: the grid and the record stay hidden (C's ROUND_IN_PLAY, naming the round). */
    uint8_t grid[FAIRMINES_TILES];
    memset(grid, SENTINEL, sizeof grid);
    CHECK_STATUS(fairmines_round_mine_positions(round, grid, sizeof grid), FAIRMINES_ROUND_IN_PLAY, "grid hidden");
    LAST_ERROR_NAMES("round");
    memset(json, SENTINEL, sizeof json);
    needed = 12345;
    CHECK_STATUS(fairmines_round_record_json(round, json, sizeof json, &needed), FAIRMINES_ROUND_IN_PLAY, "no record");
    CHECK(untouched(grid, sizeof grid) && untouched(json, sizeof json) && needed == 12345, "outputs while in play");

    CHECK_STATUS(fairmines_round_cash_out(round, &paid), FAIRMINES_OK, "cash out");
    CHECK(ratio_eq(paid, 9, 7), "paid 9/7");
    CHECK_STATUS(fairmines_ratio_to_decimal(paid, 4, dec, sizeof dec, &needed), FAIRMINES_OK, "decimal");
    CHECK(strcmp(dec, "1.2857") == 0, "9/7 rounded down: %s", dec);
    CHECK_STATUS(fairmines_round_get_info(round, &info), FAIRMINES_OK, "info");
    CHECK(info.outcome == FAIRMINES_OUTCOME_CASHED_OUT && info.finished && info.pick_count == 2 &&
              info.safe_picks == 2 && info.has_multiplier && ratio_eq(info.multiplier, 9, 7),
          "cashed-out round info");

    /* Finished: no more moves. */
    memset(&r, SENTINEL, sizeof r);
    CHECK_STATUS(fairmines_round_reveal(round, 3, &r), FAIRMINES_ROUND_FINISHED, "reveal after cash-out");
    CHECK_STATUS(fairmines_round_cash_out(round, &paid), FAIRMINES_ROUND_FINISHED, "second cash-out");
    CHECK(untouched(&r, sizeof r) && ratio_eq(paid, 9, 7), "outputs after a finished round");

    CHECK_STATUS(fairmines_round_picks(round, picks, 1, &count), FAIRMINES_BUFFER_TOO_SMALL, "picks buffer small");
    CHECK(count == 2, "picks count on a small buffer");
    CHECK(strcmp(fairmines_last_error(), "out_picks: the output needs 2 bytes, the buffer has 1") == 0,
          "message: %s", fairmines_last_error());
    CHECK_STATUS(fairmines_round_picks(round, picks, sizeof picks, &count), FAIRMINES_OK, "picks");
    CHECK(count == 2 && picks[0] == 1 && picks[1] == 2, "picks in order");
    CHECK_STATUS(fairmines_round_mine_positions(round, grid, 2), FAIRMINES_BUFFER_TOO_SMALL, "grid small");
    CHECK_STATUS(fairmines_round_mine_positions(round, grid, 3), FAIRMINES_OK, "grid");
    CHECK(grid[0] == 7 && grid[1] == 10 && grid[2] == 19, "grid %u %u %u", grid[0], grid[1], grid[2]);

    /* The record, byte for byte as documented; the text-output convention on it. */
    static const char want[] = "{\"commitment\":\"" W_COMMITMENT_TEXT "\",\"client_seed\":\"" WC_TEXT
                               "\",\"nonce\":1,\"mines\":3,\"rtp\":\"99/100\",\"picks\":[1,2],"
                               "\"outcome\":\"cashed_out\",\"multiplier\":\"9/7\"}";
    memset(json, SENTINEL, sizeof json);
    CHECK_STATUS(fairmines_round_record_json(round, json, sizeof want - 1, &needed), FAIRMINES_BUFFER_TOO_SMALL,
                 "record one byte short");
    CHECK(needed == sizeof want && untouched(json, sizeof json), "needed %zu, buffer untouched", needed);
    LAST_ERROR_NAMES("out");
    CHECK_STATUS(fairmines_round_record_json(round, json, needed, &needed), FAIRMINES_OK, "record exact size");
    CHECK(strcmp(json, want) == 0, "record %s", json);
    fairmines_round_free(round);

    /* Rotating reveals the seed with the commitment shown before play. */
    fairmines_revealed_seed_pair revealed;
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, NULL, 0, &revealed), FAIRMINES_OK, "rotate");
    CHECK(strcmp(revealed.server_seed, WS) == 0 && strcmp(revealed.commitment, W_COMMITMENT) == 0 &&
              revealed.rounds == 2,
          "revealed %s rounds %llu", revealed.commitment, (unsigned long long)revealed.rounds);
    CHECK_STATUS(fairmines_seed_pair_commitment(pair, hex), FAIRMINES_OK, "new commitment");
    CHECK(strcmp(hex, W_COMMITMENT) != 0, "a new server seed after rotation");
    CHECK_STATUS(fairmines_seed_pair_nonce(pair, &nonce), FAIRMINES_OK, "nonce");
    CHECK_STATUS(fairmines_seed_pair_client_seed(pair, client, sizeof client, &needed), FAIRMINES_OK, "client");
    CHECK(nonce == 0 && strcmp(client, WC) == 0, "nonce 0, client seed kept");
    /* A new client seed (with an embedded NUL: a span, not a C string). */
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, "new\0seed", 8, &revealed), FAIRMINES_OK, "rotate with a seed");
    CHECK(strcmp(revealed.commitment, hex) == 0 && revealed.rounds == 0, "the second pair's seed is revealed");
    char seed_recomputed[FAIRMINES_HEX_SIZE];
    CHECK_STATUS(fairmines_commitment(revealed.server_seed, 64, seed_recomputed), FAIRMINES_OK, "commitment");
    CHECK(strcmp(seed_recomputed, hex) == 0, "the revealed seed hashes to its commitment");
    CHECK_STATUS(fairmines_seed_pair_client_seed(pair, client, sizeof client, &needed), FAIRMINES_OK, "client");
    CHECK(needed == 9 && memcmp(client, "new\0seed", 9) == 0, "new client seed with its NUL");
    fairmines_seed_pair_free(pair);
}

/* ---------------------------------------------------------------- the replay of a record */

/* Verifies `json` with the worked example's seed; returns ok (or -1 on an error status) and the text. */
static int verify_text(const char *json, fairmines_round_verification *v, char *diff) {
    size_t needed;
    fairmines_status s = fairmines_verify_round_json(S(json), WS, WSL, v, diff, DIFF_SIZE, &needed);
    if (s != FAIRMINES_OK) return -1;
    /* The text has exactly difference_count lines. */
    size_t lines = 0;
    for (const char *p = diff; *p; p++) lines += *p == '\n';
    CHECK(lines == v->difference_count && needed == strlen(diff) + 1, "difference lines %zu vs %zu", lines,
          v->difference_count);
    return v->ok;
}

/* The worked example's record (tiles 1 and 2, cashed out) with `picks`, `rtp` and `multiplier` (JSON). */
static void record_text(char *buf, const char *picks, const char *rtp, const char *multiplier) {
    snprintf(buf, RECORD_SIZE,
             "{\"commitment\":\"%s\",\"client_seed\":\"%s\",\"nonce\":1,\"mines\":3,\"rtp\":\"%s\",\"picks\":[%s],"
             "\"outcome\":\"cashed_out\",\"multiplier\":%s}",
             W_COMMITMENT, WC, rtp, picks, multiplier);
}

static void test_replay(void) {
    char json[RECORD_SIZE], diff[DIFF_SIZE];
    fairmines_round_verification v;
    size_t needed = 0;
    record_text(json, "1,2", "99/100", "\"9/7\"");
    CHECK(verify_text(json, &v, diff) == 1, "the documented record verifies: %s", diff);
    CHECK(v.commitment_ok && v.expected_outcome == FAIRMINES_OUTCOME_CASHED_OUT && v.has_expected_multiplier &&
              ratio_eq(v.expected_multiplier, 9, 7) && v.mines == 3 && v.mine_positions[0] == 7 &&
              v.mine_positions[1] == 10 && v.mine_positions[2] == 19 && v.mine_positions[3] == 0 &&
              v.difference_count == 0 && diff[0] == '\0',
          "verification fields");

    /* A record that does not verify is a verdict with the differences as text, not an error. */
    record_text(json, "1,2", "99/100", "\"10/7\"");
    CHECK(verify_text(json, &v, diff) == 0 && v.commitment_ok && v.difference_count == 1 &&
              strncmp(diff, "multiplier: ", 12) == 0,
          "a changed multiplier: %s", diff);
    CHECK_STATUS(fairmines_verify_round_json(S(json), S("not the seed"), &v, diff, sizeof diff, &needed),
                 FAIRMINES_OK, "another seed");
    CHECK(!v.ok && !v.commitment_ok && strncmp(diff, "commitment:", 11) == 0, "another seed: %s", diff);

    /* Differences text: a buffer too small is reported with the size needed, nothing written. */
    record_text(json, "1,2", "99/100", "\"10/7\"");
    memset(diff, SENTINEL, 16);
    memset(&v, SENTINEL, sizeof v);
    CHECK_STATUS(fairmines_verify_round_json(S(json), WS, WSL, &v, diff, 16, &needed), FAIRMINES_BUFFER_TOO_SMALL,
                 "differences small");
    LAST_ERROR_NAMES("differences");
    CHECK(needed > 16 && untouched(diff, 16) && untouched(&v, sizeof v), "needed %zu, outputs untouched", needed);
    char *exact = malloc(needed);
    if (exact) {
        CHECK_STATUS(fairmines_verify_round_json(S(json), WS, WSL, &v, exact, needed, &needed), FAIRMINES_OK, "exact");
        CHECK(!v.ok && strncmp(exact, "multiplier:", 11) == 0 && exact[needed - 2] == '\n', "text %s", exact);
        free(exact);
    }
    /* A verified record needs 1 byte: the NUL. */
    record_text(json, "1,2", "99/100", "\"9/7\"");
    char one_byte = 'x';
    CHECK_STATUS(fairmines_verify_round_json(S(json), WS, WSL, &v, &one_byte, 1, &needed), FAIRMINES_OK, "1 byte");
    CHECK(one_byte == '\0' && needed == 1 && v.ok, "an empty differences text");

    /* Records that cannot describe a round are the core's errors, naming the field; the output untouched. */
    memset(&v, SENTINEL, sizeof v);
    CHECK_STATUS(fairmines_verify_round_json(S("{not json"), WS, WSL, &v, diff, DIFF_SIZE, &needed),
                 FAIRMINES_INVALID_STATE, "bad JSON");
    LAST_ERROR_NAMES("record");
    snprintf(json, sizeof json, "{\"commitment\":\"%s\",\"client_seed\":\"%s\",\"nonce\":1,\"mines\":25,\"rtp\":\"1\","
             "\"picks\":[1],\"outcome\":\"lost\",\"multiplier\":null}", W_COMMITMENT, WC);
    CHECK_STATUS(fairmines_verify_round_json(S(json), WS, WSL, &v, diff, DIFF_SIZE, &needed), FAIRMINES_INVALID_MINES,
                 "25 mines");
    record_text(json, "1,26", "99/100", "\"9/7\"");
    CHECK_STATUS(fairmines_verify_round_json(S(json), WS, WSL, &v, diff, DIFF_SIZE, &needed), FAIRMINES_INVALID_TILE,
                 "pick 26");
    LAST_ERROR_NAMES("picks");
    /* C's own: a valid RTP whose multipliers do not fit 64 bits. */
    record_text(json, "1,2", "1/100000000000000000000", "\"9/7\"");
    CHECK_STATUS(fairmines_verify_round_json(S(json), WS, WSL, &v, diff, DIFF_SIZE, &needed),
                 FAIRMINES_RATIO_TOO_LARGE, "huge rtp denominator");
    LAST_ERROR_NAMES("expected_multiplier");
    CHECK(untouched(&v, sizeof v), "verification written on error");
}

/* ---------------------------------------------------------------- seed pairs: new, state, ownership */

static int is_lower_hex64(const char *s) {
    for (size_t i = 0; i < 64; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
    return s[64] == '\0';
}

static void test_seed_pairs(void) {
    fairmines_seed_pair *a = NULL, *b = NULL, *restored = NULL;
    CHECK_STATUS(fairmines_seed_pair_new(S("player"), &a), FAIRMINES_OK, "new");
    CHECK_STATUS(fairmines_seed_pair_new("", 0, &b), FAIRMINES_OK, "new, empty client seed");
    if (!a || !b) return;
    char ca[FAIRMINES_HEX_SIZE], cb[FAIRMINES_HEX_SIZE], client[64];
    uint64_t nonce = 5;
    size_t needed;
    CHECK_STATUS(fairmines_seed_pair_commitment(a, ca), FAIRMINES_OK, "commitment");
    CHECK_STATUS(fairmines_seed_pair_commitment(b, cb), FAIRMINES_OK, "commitment");
    CHECK(is_lower_hex64(ca) && strcmp(ca, cb) != 0, "fresh pairs have different commitments");
    CHECK_STATUS(fairmines_seed_pair_nonce(a, &nonce), FAIRMINES_OK, "nonce");
    CHECK(nonce == 0, "a new pair starts at nonce 0");
    CHECK_STATUS(fairmines_seed_pair_client_seed(b, client, 1, &needed), FAIRMINES_OK, "empty client seed");
    CHECK(needed == 1 && client[0] == '\0', "empty client seed is \"\"");

    /* The state through JSON (text output: a small buffer reports the size), and back into a new handle. */
    fairmines_round *r1 = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(a, 5, S("0.99"), &r1), FAIRMINES_OK, "round");
    char state[512], small[8];
    memset(small, SENTINEL, sizeof small);
    CHECK_STATUS(fairmines_seed_pair_to_state_json(a, small, sizeof small, &needed), FAIRMINES_BUFFER_TOO_SMALL,
                 "small");
    CHECK(needed > sizeof small && needed < sizeof state && untouched(small, sizeof small), "state needs %zu", needed);
    CHECK_STATUS(fairmines_seed_pair_to_state_json(a, state, sizeof state, &needed), FAIRMINES_OK, "state");
    static const char version_2[] = "{\"version\":2,\"server_seed\":\"";
    CHECK(strncmp(state, version_2, sizeof version_2 - 1) == 0 && strstr(state, ca) &&
              strstr(state, "\"nonce\":1,\"rounds\":[{\"nonce\":0,\"mines\":5,\"rtp\":\"99/100\",\"picks\":[]}]}") &&
              needed == strlen(state) + 1,
          "state %s", state);
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(state), &restored), FAIRMINES_OK, "from_state_json");
    if (restored) {
        char again[512];
        CHECK_STATUS(fairmines_seed_pair_to_state_json(restored, again, sizeof again, &needed), FAIRMINES_OK, "state");
        CHECK(strcmp(state, again) == 0, "the state round trip: %s", again);
        fairmines_seed_pair_free(restored);
    }
    /* Handles do not own each other: a round outlives its pair, and stays usable. */
    fairmines_seed_pair_free(a);
    uint8_t picks[FAIRMINES_TILES];
    CHECK_STATUS(fairmines_round_picks(r1, picks, sizeof picks, &needed), FAIRMINES_OK, "round outlives its pair");
    fairmines_round_free(r1);
    fairmines_seed_pair_free(b);

    /* Saved state that does not hold together: the core's error, naming the state (and an unknown field). */
    fairmines_seed_pair *p = (fairmines_seed_pair *)&needed; /* a sentinel: must stay as it is */
    fairmines_seed_pair *const sentinel = p;
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S("[]"), &p), FAIRMINES_INVALID_STATE, "not an object");
    LAST_ERROR_NAMES("state");
    char bad[512];
    snprintf(bad, sizeof bad, "{\"server_seed\":\"%s\",\"commitment\":\"%s\",\"client_seed\":\"x\",\"nonce\":7,"
             "\"open_rounds\":[],\"opne_rounds\":[1]}", WS, W_COMMITMENT);
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(bad), &p), FAIRMINES_INVALID_STATE, "unknown field");
    LAST_ERROR_NAMES("state");
    CHECK(strstr(fairmines_last_error(), "opne_rounds") != NULL, "message %s", fairmines_last_error());
    /* from_parts: the server seed as stored, 64 lowercase hex characters (the core's rule). */
    CHECK_STATUS(fairmines_seed_pair_from_parts(WS, 63, WC, WCL, 0, &p), FAIRMINES_INVALID_HEX, "63 characters");
    LAST_ERROR_NAMES("server_seed");
    CHECK(p == sentinel, "out_pair written on error");
    /* Nonce 2^64 - 1 starts no round, by one rule of the core: start_round there and from_parts with it. */
    fairmines_seed_pair *last = pair_from_parts(WS, WSL, WC, WCL, UINT64_MAX - 1);
    fairmines_round *round = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(last, 3, S("0.99"), &round), FAIRMINES_OK, "nonce 2^64 - 2");
    fairmines_round_free(round);
    round = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(last, 3, S("0.99"), &round), FAIRMINES_INVALID_NONCE, "nonce 2^64 - 1");
    LAST_ERROR_NAMES("nonce");
    static const char *const NO_ROUND = "nonce: 18446744073709551615 starts no round: a seed pair plays nonces 0 to "
                                        "18446744073709551614 (it counts its rounds in 64 bits); rotate to a new seed pair";
    CHECK(strcmp(fairmines_last_error(), NO_ROUND) == 0, "message %s", fairmines_last_error());
    CHECK_STATUS(fairmines_seed_pair_from_parts(WS, WSL, WC, WCL, UINT64_MAX, &p), FAIRMINES_INVALID_NONCE, "from_parts");
    LAST_ERROR_NAMES("nonce");
    CHECK(strcmp(fairmines_last_error(), NO_ROUND) == 0, "message %s", fairmines_last_error());
    CHECK(p == sentinel, "out_pair written on error");
    fairmines_seed_pair_free(last);
}

/* ---------------------------------------------------------------- payouts and ratios */

static void test_payouts(void) {
    fairmines_ratio m = {0, 0};
    CHECK_STATUS(fairmines_multiplier(3, 1, S("0.99"), &m), FAIRMINES_OK, "multiplier");
    CHECK(ratio_eq(m, 9, 8), "25/22 x 0.99 = 9/8");
    CHECK_STATUS(fairmines_multiplier(3, 22, S("99/100"), &m), FAIRMINES_OK, "3 mines, 22 picks");
    CHECK(ratio_eq(m, 2277, 1), "2300 x 0.99 = 2277");

    /* int64_t arguments are judged whole by the core's rules: none of these wraps into range (257 would be
     * 1 as a byte, 259 would be 3, -1 would be 255), and the message names the argument and the value. */
    m = (fairmines_ratio){42, 43};
    static const int64_t bad_picks[] = {0, 23, 257, 256 + 22, -1, INT64_MAX, INT64_MIN};
    for (size_t b = 0; b < sizeof bad_picks / sizeof bad_picks[0]; b++) {
        CHECK_STATUS(fairmines_multiplier(3, bad_picks[b], S("1"), &m), FAIRMINES_INVALID_PICKS, "safe_picks");
        LAST_ERROR_NAMES("safe_picks");
    }
    CHECK(strcmp(fairmines_last_error(), "safe_picks: must be from 1 to 22 with 3 mines, got -9223372036854775808") == 0,
          "message %s", fairmines_last_error());
    static const int64_t bad_mines[] = {0, 25, 259, -1, INT64_MIN};
    for (size_t b = 0; b < sizeof bad_mines / sizeof bad_mines[0]; b++) {
        CHECK_STATUS(fairmines_multiplier(bad_mines[b], 1, S("1"), &m), FAIRMINES_INVALID_MINES, "mines");
        LAST_ERROR_NAMES("mines");
    }
    CHECK_STATUS(fairmines_multiplier(3, 1, S("1.01"), &m), FAIRMINES_INVALID_RTP, "rtp above 1");
    LAST_ERROR_NAMES("rtp");
    /* C's own limit: a valid RTP whose exact multipliers need more than 64 bits; 12 places always fit. */
    CHECK_STATUS(fairmines_multiplier(12, 12, S("0.1234567890123456789"), &m), FAIRMINES_RATIO_TOO_LARGE, "huge");
    LAST_ERROR_NAMES("multiplier");
    CHECK(ratio_eq(m, 42, 43), "out_ratio written on error");
    CHECK_STATUS(fairmines_multiplier(12, 12, S("0.999999999999"), &m), FAIRMINES_OK, "12 places");

    /* The table: 300 entries, in order, each the multiplier (the struct as C sees it). */
    fairmines_payout_entry *table = malloc(sizeof *table * (FAIRMINES_PAYOUT_TABLE_SIZE + 1));
    if (!table) return;
    memset(table, SENTINEL, sizeof *table * (FAIRMINES_PAYOUT_TABLE_SIZE + 1));
    CHECK_STATUS(fairmines_payout_table(S("0.99"), table, FAIRMINES_PAYOUT_TABLE_SIZE - 1), FAIRMINES_BUFFER_TOO_SMALL,
                 "table 299");
    LAST_ERROR_NAMES("out_entries");
    CHECK(untouched(table, sizeof *table * FAIRMINES_PAYOUT_TABLE_SIZE), "table written on error");
    CHECK_STATUS(fairmines_payout_table(S("nope"), table, FAIRMINES_PAYOUT_TABLE_SIZE), FAIRMINES_INVALID_RTP, "rtp");
    CHECK_STATUS(fairmines_payout_table(S("1/100000000000000000000"), table, FAIRMINES_PAYOUT_TABLE_SIZE),
                 FAIRMINES_RATIO_TOO_LARGE, "table rtp too fine");
    CHECK_STATUS(fairmines_payout_table(S("0.99"), table, FAIRMINES_PAYOUT_TABLE_SIZE + 1), FAIRMINES_OK, "table");
    CHECK(untouched(&table[FAIRMINES_PAYOUT_TABLE_SIZE], sizeof *table), "exactly 300 entries written");
    size_t i = 0;
    for (uint8_t mines = 1; mines <= 24; mines++) {
        for (uint8_t k = 1; k <= 25 - mines; k++, i++) {
            fairmines_payout_entry e = table[i];
            fairmines_ratio want;
            CHECK_STATUS(fairmines_multiplier(mines, k, S("0.99"), &want), FAIRMINES_OK, "multiplier");
            CHECK(e.mines == mines && e.safe_picks == k && ratio_eq(e.multiplier, want.numer, want.denom),
                  "entry %zu is (%u, %u)", i, e.mines, e.safe_picks);
        }
    }
    free(table);

    /* Decimals, rounded down; places judged whole; a zero denominator names the field. */
    char dec[64];
    size_t needed = 0;
    struct {
        fairmines_ratio r;
        int64_t places;
        const char *want;
    } decs[] = {{{2475, 100}, 2, "24.75"},
                {{2, 3}, 2, "0.66"},
                {{1, 3}, 18, "0.333333333333333333"},
                {{UINT64_MAX, 1}, 0, "18446744073709551615"}};
    for (size_t d = 0; d < sizeof decs / sizeof decs[0]; d++) {
        CHECK_STATUS(fairmines_ratio_to_decimal(decs[d].r, decs[d].places, dec, sizeof dec, &needed), FAIRMINES_OK,
                     "dec");
        CHECK(strcmp(dec, decs[d].want) == 0 && needed == strlen(dec) + 1, "decimal %s, want %s", dec, decs[d].want);
    }
    static const int64_t bad_places[] = {19, -1, ((int64_t)1 << 32) + 2, INT64_MAX, INT64_MIN};
    fairmines_ratio third = {1, 3};
    for (size_t b = 0; b < sizeof bad_places / sizeof bad_places[0]; b++) {
        memset(dec, SENTINEL, sizeof dec);
        needed = 777;
        CHECK_STATUS(fairmines_ratio_to_decimal(third, bad_places[b], dec, sizeof dec, &needed),
                     FAIRMINES_INVALID_NUMBER, "places out of range");
        LAST_ERROR_NAMES("places");
        CHECK(untouched(dec, sizeof dec) && needed == 777, "outputs written for refused places");
    }
    CHECK_STATUS(fairmines_ratio_to_decimal(third, 19, dec, sizeof dec, &needed), FAIRMINES_INVALID_NUMBER, "19");
    CHECK(strcmp(fairmines_last_error(), "places: must be a whole number from 0 to 18, got 19") == 0, "message %s",
          fairmines_last_error());
    fairmines_ratio zero = {1, 0};
    CHECK_STATUS(fairmines_ratio_to_decimal(zero, 2, dec, sizeof dec, &needed), FAIRMINES_INVALID_NUMBER, "denom 0");
    CHECK(strcmp(fairmines_last_error(), "ratio.denom: must not be 0") == 0, "message %s", fairmines_last_error());
    fairmines_ratio nine_eighths = {9, 8};
    needed = 0;
    memset(dec, SENTINEL, sizeof dec);
    CHECK_STATUS(fairmines_ratio_to_decimal(nine_eighths, 2, dec, 4, &needed), FAIRMINES_BUFFER_TOO_SMALL, "small");
    CHECK(needed == 5 && untouched(dec, sizeof dec), "needed 5 for \"1.12\"");
    CHECK_STATUS(fairmines_ratio_to_decimal(nine_eighths, 2, dec, 0, &needed), FAIRMINES_BUFFER_TOO_SMALL, "cap 0");

    /* Parsing: the core's parser, C's 64-bit limit. */
    fairmines_ratio r = {42, 43};
    CHECK_STATUS(fairmines_ratio_parse(S("198/200"), &r), FAIRMINES_OK, "parse 198/200");
    CHECK(ratio_eq(r, 99, 100), "lowest terms");
    r = (fairmines_ratio){42, 43};
    CHECK_STATUS(fairmines_ratio_parse(S("1/0"), &r), FAIRMINES_INVALID_NUMBER, "1/0");
    LAST_ERROR_NAMES("ratio");
    CHECK_STATUS(fairmines_ratio_parse(S("18446744073709551616"), &r), FAIRMINES_RATIO_TOO_LARGE, "2^64");
    CHECK_STATUS(fairmines_ratio_parse(S("1/18446744073709551616"), &r), FAIRMINES_RATIO_TOO_LARGE, "1/2^64");
    CHECK(ratio_eq(r, 42, 43), "out_ratio written on error");
    CHECK_STATUS(fairmines_ratio_parse(S("18446744073709551615/18446744073709551614"), &r), FAIRMINES_OK, "max");
    CHECK(ratio_eq(r, UINT64_MAX, UINT64_MAX - 1), "the largest ratio");

    /* start_round: C's RTP check before the nonce is used, and mines judged whole. */
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 1);
    if (pair) {
        fairmines_round *round = NULL;
        uint64_t nonce = 0;
        CHECK_STATUS(fairmines_seed_pair_start_round(pair, 12, S("1/100000000000000000000"), &round),
                     FAIRMINES_RATIO_TOO_LARGE, "start_round, rtp too fine");
        LAST_ERROR_NAMES("rtp");
        CHECK_STATUS(fairmines_seed_pair_start_round(pair, 3, S("1.5"), &round), FAIRMINES_INVALID_RTP, "rtp 1.5");
        for (size_t b = 0; b < sizeof bad_mines / sizeof bad_mines[0]; b++) {
            CHECK_STATUS(fairmines_seed_pair_start_round(pair, bad_mines[b], S("1"), &round), FAIRMINES_INVALID_MINES,
                         "mines");
            LAST_ERROR_NAMES("mines");
        }
        CHECK(strcmp(fairmines_last_error(), "mines: must be a whole number from 1 to 24, got -9223372036854775808") == 0,
              "message %s", fairmines_last_error());
        CHECK_STATUS(fairmines_seed_pair_nonce(pair, &nonce), FAIRMINES_OK, "nonce");
        CHECK(nonce == 1 && round == NULL, "failed starts use no nonce and give no round");
        fairmines_seed_pair_free(pair);
    }
}

/* ---------------------------------------------------------------- integrity: no move once the seed is revealed */

/* The nonces of a pair's open rounds into `nonces` (room for 8); returns their number. */
static size_t open_rounds(const fairmines_seed_pair *pair, uint64_t *nonces) {
    size_t count = 99;
    CHECK_STATUS(fairmines_seed_pair_open_rounds(pair, nonces, 8, &count), FAIRMINES_OK, "open_rounds");
    return count;
}

/* A round with 5 mines and RTP 99/100, then a rotation while it is in play: the server seed stays secret. */
static void test_rotation_with_a_round_in_play(void) {
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 0);
    if (!pair) return;
    fairmines_round *round = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 5, S("99/100"), &round), FAIRMINES_OK, "start 5 mines");
    if (!round) {
        fairmines_seed_pair_free(pair);
        return;
    }
    int safe[FAIRMINES_TILES];
    safe_tiles(0, 5, safe);
    fairmines_reveal r;
    CHECK_STATUS(fairmines_round_reveal(round, safe[0], &r), FAIRMINES_OK, "a safe tile");
    char public_before[RECORD_SIZE], public_after[RECORD_SIZE];
    size_t needed = 0;
    CHECK_STATUS(fairmines_seed_pair_public_part_json(pair, public_before, sizeof public_before, &needed), FAIRMINES_OK,
                 "public json");

    /* Rotation (and a new client seed, which is a rotation) is refused, naming the round's nonce. */
    fairmines_revealed_seed_pair revealed;
    memset(&revealed, SENTINEL, sizeof revealed);
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, NULL, 0, &revealed), FAIRMINES_ROUNDS_IN_PLAY, "rotate");
    CHECK(strcmp(fairmines_last_error(), "the seed pair has 1 round(s) in play (nonce 0): finish or void them "
                                         "before its server seed is revealed") == 0,
          "message %s", fairmines_last_error());
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, S("new client seed"), &revealed), FAIRMINES_ROUNDS_IN_PLAY,
                 "rotate with a new client seed");
    CHECK(untouched(&revealed, sizeof revealed), "the seed was written on a refused rotation");
    CHECK_STATUS(fairmines_seed_pair_public_part_json(pair, public_after, sizeof public_after, &needed), FAIRMINES_OK,
                 "public json");
    CHECK(strcmp(public_before, public_after) == 0, "a refused rotation changed the pair: %s", public_after);

    /* The round is still in play and may still move. */
    uint64_t nonces[8];
    memset(nonces, SENTINEL, sizeof nonces);
    CHECK(open_rounds(pair, nonces) == 1 && nonces[0] == 0 && untouched(&nonces[1], 7 * sizeof nonces[0]),
          "nonce 0 is in play");
    CHECK_STATUS(fairmines_round_reveal(round, safe[1], &r), FAIRMINES_OK, "a second safe tile");
    CHECK(r.safe_picks == 2 && !r.finished, "two safe picks");

    /* The list output: too small a buffer voids nothing, reports the count and leaves the buffer alone. */
    size_t count = 99;
    memset(nonces, SENTINEL, sizeof nonces);
    CHECK_STATUS(fairmines_seed_pair_open_rounds(pair, nonces, 0, &count), FAIRMINES_BUFFER_TOO_SMALL, "open, 0");
    CHECK(count == 1 && untouched(nonces, sizeof nonces), "open_rounds on a small buffer");
    LAST_ERROR_NAMES("out_nonces");
    count = 99;
    CHECK_STATUS(fairmines_seed_pair_void_open_rounds(pair, nonces, 0, &count), FAIRMINES_BUFFER_TOO_SMALL, "void, 0");
    CHECK(count == 1 && untouched(nonces, sizeof nonces), "void_open_rounds on a small buffer");
    CHECK(strcmp(fairmines_last_error(), "out_nonces: the output needs 8 bytes, the buffer has 0") == 0, "message %s",
          fairmines_last_error());
    fairmines_round_info info;
    CHECK_STATUS(fairmines_round_get_info(round, &info), FAIRMINES_OK, "info");
    CHECK(info.outcome == FAIRMINES_OUTCOME_IN_PLAY && open_rounds(pair, nonces) == 1, "nothing was voided");

    /* Void it; then the pair rotates and reveals the seed. */
    count = 99;
    CHECK_STATUS(fairmines_seed_pair_void_open_rounds(pair, nonces, 1, &count), FAIRMINES_OK, "void");
    CHECK(count == 1 && nonces[0] == 0, "voided nonce 0");
    CHECK(open_rounds(pair, nonces) == 0, "no round in play after voiding");
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, NULL, 0, &revealed), FAIRMINES_OK, "rotate after voiding");
    CHECK(strcmp(revealed.server_seed, WS) == 0 && revealed.rounds == 1, "the old seed is revealed");

    /* The voided round takes no more moves, not even the safe tiles the revealed seed now shows. */
    memset(&r, SENTINEL, sizeof r);
    CHECK_STATUS(fairmines_round_reveal(round, safe[2], &r), FAIRMINES_ROUND_VOIDED, "reveal a safe tile");
    CHECK(strcmp(fairmines_last_error(),
                 "the round was voided so its server seed could be revealed: no more reveals or cash-outs") == 0,
          "message %s", fairmines_last_error());
    CHECK(untouched(&r, sizeof r), "reveal result written on a voided round");
    fairmines_ratio paid = {7, 7};
    CHECK_STATUS(fairmines_round_cash_out(round, &paid), FAIRMINES_ROUND_VOIDED, "cash out");
    CHECK(ratio_eq(paid, 7, 7), "cash-out written on a voided round");
    CHECK_STATUS(fairmines_round_get_info(round, &info), FAIRMINES_OK, "info");
    CHECK(info.outcome == FAIRMINES_OUTCOME_VOIDED && info.finished && !info.has_multiplier &&
              ratio_eq(info.multiplier, 0, 1) && info.safe_picks == 2 && info.pick_count == 2,
          "voided round info: outcome %u", (unsigned)info.outcome);

    /* Its record says voided, with no multiplier, and verifies with the revealed seed. */
    char record[RECORD_SIZE], want[RECORD_SIZE], diff[DIFF_SIZE];
    CHECK_STATUS(fairmines_round_record_json(round, record, sizeof record, &needed), FAIRMINES_OK, "record");
    snprintf(want, sizeof want,
             "{\"commitment\":\"" W_COMMITMENT_TEXT "\",\"client_seed\":\"" WC_TEXT "\",\"nonce\":0,\"mines\":5,"
             "\"rtp\":\"99/100\",\"picks\":[%d,%d],\"outcome\":\"voided\",\"multiplier\":null}",
             safe[0], safe[1]);
    CHECK(strcmp(record, want) == 0, "voided record %s", record);
    fairmines_round_verification v;
    CHECK_STATUS(fairmines_verify_round_json(S(record), S(revealed.server_seed), &v, diff, sizeof diff, &needed),
                 FAIRMINES_OK, "verify the voided record");
    CHECK(v.ok && v.commitment_ok && v.difference_count == 0 && v.expected_outcome == FAIRMINES_OUTCOME_VOIDED &&
              !v.has_expected_multiplier && ratio_eq(v.expected_multiplier, 0, 1),
          "a voided record verifies: %s", diff);

    /* C's handles: a round freed while in play stays in play for its pair until voided. */
    fairmines_round *dropped = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 3, S("1"), &dropped), FAIRMINES_OK, "start");
    fairmines_round_free(dropped);
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, NULL, 0, &revealed), FAIRMINES_ROUNDS_IN_PLAY, "freed in play");
    CHECK(open_rounds(pair, nonces) == 1 && nonces[0] == 0, "the freed round is still open");
    CHECK_STATUS(fairmines_seed_pair_void_open_rounds(pair, nonces, 8, &count), FAIRMINES_OK, "void");
    CHECK(count == 1 && nonces[0] == 0, "voided the freed round");
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, NULL, 0, &revealed), FAIRMINES_OK, "rotate");

    fairmines_round_free(round);
    fairmines_seed_pair_free(pair);
}

/* ---------------------------------------------------------------- resuming rounds after a restart */

#define STATE_SIZE 2048
/* A client seed beyond ASCII, so the state carries UTF-8 through the restart. */
#define RESUME_CLIENT "player:seed \xc3\xa9"

/* A seed pair and its round in play (at most one here). `restart` makes the table store the pair's state
 * after every move and come back from it, the round resumed by its nonce, as a service that restarts between
 * any two moves; the other table plays the same moves without stopping. */
typedef struct {
    char seed[FAIRMINES_HEX_SIZE];
    int restart;
    fairmines_seed_pair *pair;
    fairmines_round *round; /* NULL when none is in play */
    char records[4][RECORD_SIZE]; /* each round's record as it finished */
    size_t record_count;
} table;

static int same_info(const fairmines_round_info *a, const fairmines_round_info *b) {
    return strcmp(a->commitment, b->commitment) == 0 && a->nonce == b->nonce && a->mines == b->mines &&
           a->pick_count == b->pick_count && a->safe_picks == b->safe_picks && a->finished == b->finished &&
           a->outcome == b->outcome && a->has_multiplier == b->has_multiplier &&
           ratio_eq(a->multiplier, b->multiplier.numer, b->multiplier.denom) &&
           ratio_eq(a->rtp, b->rtp.numer, b->rtp.denom);
}

static void state_of(const fairmines_seed_pair *pair, char *state) {
    size_t needed = 0;
    CHECK_STATUS(fairmines_seed_pair_to_state_json(pair, state, STATE_SIZE, &needed), FAIRMINES_OK, "state");
}

/* After every move: a finished round's record is kept and its handle freed; then the restarting table stores
 * its state, drops the pair and the round (the process stops), restores the pair and resumes the round, which
 * must be as it was, its grid still hidden. */
static void settle(table *t) {
    fairmines_round_info before, after;
    size_t needed = 0;
    if (t->round) {
        CHECK_STATUS(fairmines_round_get_info(t->round, &before), FAIRMINES_OK, "info");
        if (before.finished) {
            if (t->record_count < 4)
                CHECK_STATUS(fairmines_round_record_json(t->round, t->records[t->record_count++], RECORD_SIZE, &needed),
                             FAIRMINES_OK, "record");
            fairmines_round_free(t->round);
            t->round = NULL;
        }
    }
    if (!t->restart) return;
    char state[STATE_SIZE], again[STATE_SIZE];
    uint8_t picks[FAIRMINES_TILES], resumed_picks[FAIRMINES_TILES];
    size_t count = 0, resumed_count = 99;
    if (t->round) CHECK_STATUS(fairmines_round_picks(t->round, picks, sizeof picks, &count), FAIRMINES_OK, "picks");
    int in_play = t->round != NULL;
    state_of(t->pair, state);
    fairmines_round_free(t->round);
    fairmines_seed_pair_free(t->pair);
    t->round = NULL;
    t->pair = NULL;
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(state), &t->pair), FAIRMINES_OK, "restore");
    if (!t->pair) return;
    state_of(t->pair, again);
    CHECK(strcmp(state, again) == 0, "the restored pair writes the state it came from: %s", again);
    uint64_t nonces[8];
    size_t open = 99;
    CHECK_STATUS(fairmines_seed_pair_open_rounds(t->pair, nonces, 8, &open), FAIRMINES_OK, "open rounds");
    CHECK(open == (size_t)in_play && (!in_play || nonces[0] == before.nonce), "the rounds in play come back: %zu",
          open);
    if (!in_play) return;
    CHECK_STATUS(fairmines_seed_pair_round(t->pair, before.nonce, &t->round), FAIRMINES_OK, "resume");
    if (!t->round) return;
    CHECK_STATUS(fairmines_round_get_info(t->round, &after), FAIRMINES_OK, "info");
    CHECK_STATUS(fairmines_round_picks(t->round, resumed_picks, sizeof resumed_picks, &resumed_count), FAIRMINES_OK,
                 "picks");
    CHECK(same_info(&before, &after) && resumed_count == count && memcmp(picks, resumed_picks, count) == 0,
          "the round resumed at nonce %llu is the round that stopped", (unsigned long long)before.nonce);
    uint8_t grid[FAIRMINES_TILES];
    CHECK_STATUS(fairmines_round_mine_positions(t->round, grid, sizeof grid), FAIRMINES_ROUND_IN_PLAY,
                 "the grid of a resumed round stays hidden");
}

/* The grid of the round in play (its mines, ascending) and its safe tiles not yet picked; returns their number. */
static int closed_safe(const table *t, uint8_t *grid, int *safe) {
    fairmines_round_info info;
    uint8_t picks[FAIRMINES_TILES];
    size_t count = 0;
    CHECK_STATUS(fairmines_round_get_info(t->round, &info), FAIRMINES_OK, "info");
    CHECK_STATUS(fairmines_round_picks(t->round, picks, sizeof picks, &count), FAIRMINES_OK, "picks");
    CHECK_STATUS(fairmines_mine_positions(t->seed, 64, S(RESUME_CLIENT), info.nonce, info.mines, grid, FAIRMINES_TILES),
                 FAIRMINES_OK, "grid");
    int n = 0;
    for (int tile = 1; tile <= FAIRMINES_TILES; tile++)
        if (!is_mine(grid, info.mines, tile) && !memchr(picks, tile, count)) safe[n++] = tile;
    return n;
}

typedef enum { START, SAFE, MINE, CASH_OUT, CLEAR, VOID } move_kind;

typedef struct {
    move_kind kind;
    int k;           /* SAFE: which closed safe tile (modulo their number); MINE: which mine */
    const char *rtp; /* START */
} move;

/* One move on both tables, whose answers must be equal; then both settle (the restarting one restarts), and
 * their states must be equal. A move on a round is skipped when none is in play (it has finished). */
static void both(table t[2], int64_t mines, move m) {
    if (m.kind != START && m.kind != VOID && !t[0].round) return;
    CHECK((t[0].round == NULL) == (t[1].round == NULL), "both tables have a round in play, or neither");
    if (m.kind != START && m.kind != VOID && !t[1].round) return;
    int tiles[FAIRMINES_TILES], count = 1;
    uint8_t grid[FAIRMINES_TILES];
    if (m.kind == SAFE || m.kind == MINE || m.kind == CLEAR) {
        int n = closed_safe(&t[0], grid, tiles);
        if (m.kind == SAFE) tiles[0] = tiles[m.k % n];
        if (m.kind == MINE) tiles[0] = grid[m.k % mines];
        if (m.kind == CLEAR) count = n;
    }
    for (int i = 0; i < count; i++) {
        fairmines_status status[2];
        fairmines_reveal r[2];
        fairmines_ratio paid[2];
        uint64_t voided[2][8];
        size_t voided_count[2] = {99, 99};
        for (int j = 0; j < 2; j++) {
            switch (m.kind) {
            case START:
                status[j] = fairmines_seed_pair_start_round(t[j].pair, mines, S(m.rtp), &t[j].round);
                break;
            case CASH_OUT:
                status[j] = fairmines_round_cash_out(t[j].round, &paid[j]);
                break;
            case VOID:
                status[j] = fairmines_seed_pair_void_open_rounds(t[j].pair, voided[j], 8, &voided_count[j]);
                break;
            default:
                status[j] = fairmines_round_reveal(t[j].round, tiles[i], &r[j]);
            }
        }
        CHECK(status[0] == FAIRMINES_OK && status[1] == FAIRMINES_OK, "move %d with %lld mines: %u, %u (%s)",
              (int)m.kind, (long long)mines, status[0], status[1], fairmines_last_error());
        if (status[0] != FAIRMINES_OK || status[1] != FAIRMINES_OK) return;
        if (m.kind == CASH_OUT)
            CHECK(ratio_eq(paid[0], paid[1].numer, paid[1].denom), "the same payout after restarts: %llu/%llu",
                  (unsigned long long)paid[1].numer, (unsigned long long)paid[1].denom);
        if (m.kind == VOID)
            CHECK(voided_count[0] == voided_count[1] &&
                      memcmp(voided[0], voided[1], voided_count[0] * sizeof voided[0][0]) == 0,
                  "the same rounds voided");
        if (m.kind == SAFE || m.kind == MINE || m.kind == CLEAR)
            CHECK(r[0].tile == r[1].tile && r[0].safe == r[1].safe && r[0].safe_picks == r[1].safe_picks &&
                      r[0].has_multiplier == r[1].has_multiplier &&
                      ratio_eq(r[0].multiplier, r[1].multiplier.numer, r[1].multiplier.denom) &&
                      r[0].finished == r[1].finished && r[0].safe == (m.kind != MINE),
                  "the same reveal of tile %d after restarts", tiles[i]);
        char states[2][STATE_SIZE];
        for (int j = 0; j < 2; j++) {
            settle(&t[j]);
            if (t[j].pair) state_of(t[j].pair, states[j]);
        }
        CHECK(t[0].pair && t[1].pair && strcmp(states[0], states[1]) == 0, "the same state after restarts: %s",
              states[1]);
    }
}

/* Every way a round ends, with a restart after every move, gives the answers, records, payouts and states of
 * the same moves played without a stop: a loss after a safe pick, a cash-out after two, a full clear, and a
 * void after a safe pick; each record verifies once the seed is revealed. */
static void test_a_round_resumed_after_every_move_ends_as_if_never_stopped(void) {
    static const int64_t mine_counts[] = {1, 3, 12, 24};
    static const move moves[] = {
        {START, 0, "99/100"}, {SAFE, 0, NULL}, {MINE, 1, NULL},                     /* lost */
        {START, 0, "97/100"}, {SAFE, 3, NULL}, {SAFE, 5, NULL}, {CASH_OUT, 0, NULL}, /* cashed out */
        {START, 0, "1"},      {CLEAR, 0, NULL},                                      /* every safe tile */
        {START, 0, "96/100"}, {SAFE, 2, NULL}, {VOID, 0, NULL},                      /* voided */
    };
    for (size_t c = 0; c < sizeof mine_counts / sizeof mine_counts[0]; c++) {
        int64_t mines = mine_counts[c];
        table t[2] = {{.restart = 0}, {.restart = 1}};
        for (int j = 0; j < 2; j++) {
            for (int i = 0; i < 32; i++) snprintf(t[j].seed + 2 * i, 3, "%02x", (unsigned)(mines * 37 + i * 11) & 0xff);
            CHECK_STATUS(fairmines_seed_pair_from_parts(t[j].seed, 64, S(RESUME_CLIENT), 0, &t[j].pair), FAIRMINES_OK,
                         "from_parts");
        }
        if (!t[0].pair || !t[1].pair) return;
        for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) both(t, mines, moves[i]);

        /* One safe tile with 24 mines: the first safe pick already clears the board. */
        static const char *const endings[] = {"lost", "cashed_out", "cashed_out", "voided"};
        CHECK(t[0].record_count == 4 && t[1].record_count == 4, "four rounds finished with %lld mines",
              (long long)mines);
        for (size_t r = 0; r < 4 && r < t[1].record_count; r++) {
            char outcome[32];
            snprintf(outcome, sizeof outcome, "\"outcome\":\"%s\"", mines == 24 ? "cashed_out" : endings[r]);
            CHECK(strcmp(t[0].records[r], t[1].records[r]) == 0 && strstr(t[1].records[r], outcome),
                  "record %zu with %lld mines, after restarts: %s", r, (long long)mines, t[1].records[r]);
        }
        fairmines_revealed_seed_pair revealed;
        CHECK_STATUS(fairmines_seed_pair_rotate(t[1].pair, NULL, 0, &revealed), FAIRMINES_OK, "rotate");
        CHECK(strcmp(revealed.server_seed, t[1].seed) == 0 && revealed.rounds == 4, "the seed the rounds used");
        for (size_t r = 0; r < t[1].record_count; r++) {
            fairmines_round_verification v;
            char diff[DIFF_SIZE];
            size_t needed;
            CHECK_STATUS(fairmines_verify_round_json(S(t[1].records[r]), S(revealed.server_seed), &v, diff, sizeof diff,
                                                     &needed),
                         FAIRMINES_OK, "verify");
            CHECK(v.ok, "the record of a resumed round verifies: %s", diff);
        }
        for (int j = 0; j < 2; j++) {
            fairmines_round_free(t[j].round);
            fairmines_seed_pair_free(t[j].pair);
        }
    }
}

/* A refused fairmines_seed_pair_round: the status, the message naming `nonce` and saying why, and no handle. */
static void not_in_play(const fairmines_seed_pair *pair, uint64_t nonce, const char *says) {
    fairmines_round *const sentinel = (fairmines_round *)(void *)&nonce;
    fairmines_round *out = sentinel;
    CHECK_STATUS(fairmines_seed_pair_round(pair, nonce, &out), FAIRMINES_ROUND_NOT_IN_PLAY, "round");
    LAST_ERROR_NAMES("nonce: ");
    CHECK(strstr(fairmines_last_error(), says) != NULL, "nonce %llu: '%s' should say '%s'", (unsigned long long)nonce,
          fairmines_last_error(), says);
    CHECK(out == sentinel, "out_round written on error");
}

static void test_only_a_round_in_play_is_handed_out_and_once_at_a_time(void) {
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 0);
    if (!pair) return;
    not_in_play(pair, 0, "");
    CHECK(strcmp(fairmines_last_error(), "nonce: no round of this seed pair is in play at nonce 0: it was never "
                                         "started, has finished or was voided") == 0,
          "message %s", fairmines_last_error());
    fairmines_round *first = NULL, *again = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 3, S("99/100"), &first), FAIRMINES_OK, "start");
    if (!first) return;
    /* Handed out while its handle lives; nonces never started. */
    not_in_play(pair, 0, "");
    CHECK(strcmp(fairmines_last_error(),
                 "nonce: the round at nonce 0 is already handed out by this seed pair: go on with that round") == 0,
          "message %s", fairmines_last_error());
    not_in_play(pair, 1, "never started");
    not_in_play(pair, UINT64_MAX, "at nonce 18446744073709551615");

    /* Freed in play, it can be had again, with its pick, from the same pair; then once only. */
    int safe[FAIRMINES_TILES];
    safe_tiles(0, 3, safe);
    fairmines_reveal r;
    CHECK_STATUS(fairmines_round_reveal(first, safe[0], &r), FAIRMINES_OK, "a safe tile");
    fairmines_round_free(first);
    CHECK_STATUS(fairmines_seed_pair_round(pair, 0, &again), FAIRMINES_OK, "the freed round again");
    if (!again) return;
    uint8_t picks[FAIRMINES_TILES];
    size_t count = 0;
    fairmines_round_info info;
    CHECK_STATUS(fairmines_round_picks(again, picks, sizeof picks, &count), FAIRMINES_OK, "picks");
    CHECK_STATUS(fairmines_round_get_info(again, &info), FAIRMINES_OK, "info");
    CHECK(count == 1 && picks[0] == safe[0] && info.nonce == 0 && info.mines == 3 && ratio_eq(info.rtp, 99, 100) &&
              info.outcome == FAIRMINES_OUTCOME_IN_PLAY &&
              ratio_eq(info.multiplier, r.multiplier.numer, r.multiplier.denom),
          "the round handed back has its pick");
    not_in_play(pair, 0, "already handed out");

    /* Finished, or voided: nothing to go on with. */
    fairmines_ratio paid;
    CHECK_STATUS(fairmines_round_cash_out(again, &paid), FAIRMINES_OK, "cash out");
    not_in_play(pair, 0, "has finished");
    fairmines_round_free(again);
    not_in_play(pair, 0, "has finished");
    fairmines_round *voided = NULL;
    uint64_t nonces[8];
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 3, S("1"), &voided), FAIRMINES_OK, "start");
    CHECK_STATUS(fairmines_seed_pair_void_open_rounds(pair, nonces, 8, &count), FAIRMINES_OK, "void");
    CHECK(count == 1 && nonces[0] == 1, "voided nonce 1");
    not_in_play(pair, 1, "was voided");
    fairmines_round_free(voided);
    not_in_play(pair, 1, "was voided");
    fairmines_seed_pair_free(pair);
}

/* C's own limit on a resumed round: an RTP (from a state another binding wrote) whose multipliers do not fit
 * fairmines_ratio is refused before the round is handed out, so it stays to be voided. */
static void test_a_resumed_round_whose_multipliers_do_not_fit_is_refused(void) {
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 0);
    fairmines_round *round = NULL;
    if (!pair) return;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 12, S("99/100"), &round), FAIRMINES_OK, "start");
    char state[STATE_SIZE], changed[STATE_SIZE];
    state_of(pair, state);
    fairmines_round_free(round);
    fairmines_seed_pair_free(pair);
    const char *rtp = strstr(state, "\"rtp\":\"99/100\"");
    CHECK(rtp != NULL, "state %s", state);
    if (!rtp) return;
    snprintf(changed, sizeof changed, "%.*s\"rtp\":\"1/100000000000000000000\"%s", (int)(rtp - state), state,
             rtp + strlen("\"rtp\":\"99/100\""));
    pair = NULL;
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(changed), &pair), FAIRMINES_OK, "the core restores it");
    if (!pair) return;
    for (int attempt = 0; attempt < 2; attempt++) {
        fairmines_round *const sentinel = (fairmines_round *)(void *)&round;
        round = sentinel;
        CHECK_STATUS(fairmines_seed_pair_round(pair, 0, &round), FAIRMINES_RATIO_TOO_LARGE, "rtp too fine for C");
        LAST_ERROR_NAMES("rtp");
        CHECK(round == sentinel, "out_round written on error");
    }
    uint64_t nonces[8];
    size_t count = 0;
    CHECK_STATUS(fairmines_seed_pair_void_open_rounds(pair, nonces, 8, &count), FAIRMINES_OK, "void");
    CHECK(count == 1 && nonces[0] == 0, "the refused round is still in play, to be voided");
    fairmines_seed_pair_free(pair);
}

/* A state of the first version (the nonces of the rounds in play only) restores, and its rounds can only be
 * voided: written again in the current version they stay so. */
static void test_a_first_version_state_gives_void_only_rounds(void) {
    char old[STATE_SIZE], state[STATE_SIZE];
    snprintf(old, sizeof old, "{\"server_seed\":\"%s\",\"commitment\":\"%s\",\"client_seed\":\"c\",\"nonce\":4,"
             "\"open_rounds\":[3,1]}", WS, W_COMMITMENT);
    fairmines_seed_pair *pair = NULL;
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(old), &pair), FAIRMINES_OK, "a state of version 1");
    if (!pair) return;
    uint64_t nonces[8];
    CHECK(open_rounds(pair, nonces) == 2 && nonces[0] == 1 && nonces[1] == 3, "its rounds are in play");
    not_in_play(pair, 3, "");
    CHECK(strcmp(fairmines_last_error(), "nonce: the round at nonce 3 was saved by a version that kept only its "
                                         "nonce, without its picks: it can only be voided") == 0,
          "message %s", fairmines_last_error());
    not_in_play(pair, 2, "never started");
    fairmines_revealed_seed_pair revealed;
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, NULL, 0, &revealed), FAIRMINES_ROUNDS_IN_PLAY, "rotate");
    state_of(pair, state);
    static const char version_2[] = "{\"version\":2,";
    CHECK(strncmp(state, version_2, sizeof version_2 - 1) == 0 &&
              strstr(state, "\"rounds\":[{\"nonce\":1},{\"nonce\":3}]}") != NULL,
          "written in version 2: %s", state);
    fairmines_seed_pair_free(pair);
    pair = NULL;
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(state), &pair), FAIRMINES_OK, "restore version 2");
    if (!pair) return;
    not_in_play(pair, 1, "it can only be voided");
    size_t count = 0;
    CHECK_STATUS(fairmines_seed_pair_void_open_rounds(pair, nonces, 8, &count), FAIRMINES_OK, "void");
    CHECK(count == 2 && nonces[0] == 1 && nonces[1] == 3, "voided 1 and 3");
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, NULL, 0, &revealed), FAIRMINES_OK, "rotate once voided");
    CHECK(strcmp(revealed.server_seed, WS) == 0, "the seed is revealed");
    fairmines_seed_pair_free(pair);
}

/* ---------------------------------------------------------------- a restart between two processes */

/* The worked example's round (nonce 1, mines at 7, 10 and 19, RTP 0.99), played across two processes: the
 * first starts it, reveals tile 1 and stores the state in a file; the second restores the pair from the file,
 * resumes the round by its nonce, reveals tile 2 and cashes out. The Makefile runs the two, one after the
 * other. */
static const char RESTART_RECORD[] = "{\"commitment\":\"" W_COMMITMENT_TEXT "\",\"client_seed\":\"" WC_TEXT
                                     "\",\"nonce\":1,\"mines\":3,\"rtp\":\"99/100\",\"picks\":[1,2],"
                                     "\"outcome\":\"cashed_out\",\"multiplier\":\"9/7\"}";

static int report(const char *what) {
    printf("fairmines C tests: %s: %ld checks, %ld failures\n", what, checks, failures);
    return failures == 0 ? 0 : 1;
}

int restart_first_process(const char *state_path) {
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 1);
    fairmines_round *round = NULL;
    fairmines_reveal r;
    char state[STATE_SIZE];
    if (!pair) return 1;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 3, S("0.99"), &round), FAIRMINES_OK, "start");
    CHECK_STATUS(fairmines_round_reveal(round, 1, &r), FAIRMINES_OK, "reveal 1");
    CHECK(r.safe && r.safe_picks == 1 && !r.finished, "tile 1 is safe");
    state_of(pair, state);
    FILE *file = fopen(state_path, "w");
    CHECK(file != NULL, "cannot write %s", state_path);
    if (file) {
        CHECK(fputs(state, file) >= 0, "write %s", state_path);
        CHECK(fclose(file) == 0, "close %s", state_path);
    }
    fairmines_round_free(round);
    fairmines_seed_pair_free(pair);
    return report("before the restart, round 1 started, tile 1 revealed, the state stored");
}

/* The record of the round played in this process alone, with no restart. */
static void uninterrupted_record(char *record) {
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 1);
    fairmines_round *round = NULL;
    fairmines_reveal r;
    fairmines_ratio paid;
    size_t needed;
    record[0] = '\0';
    if (!pair) return;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 3, S("0.99"), &round), FAIRMINES_OK, "start");
    CHECK_STATUS(fairmines_round_reveal(round, 1, &r), FAIRMINES_OK, "reveal 1");
    CHECK_STATUS(fairmines_round_reveal(round, 2, &r), FAIRMINES_OK, "reveal 2");
    CHECK_STATUS(fairmines_round_cash_out(round, &paid), FAIRMINES_OK, "cash out");
    CHECK_STATUS(fairmines_round_record_json(round, record, RECORD_SIZE, &needed), FAIRMINES_OK, "record");
    fairmines_round_free(round);
    fairmines_seed_pair_free(pair);
}

int restart_second_process(const char *state_path) {
    char state[STATE_SIZE] = {0}, record[RECORD_SIZE], uninterrupted[RECORD_SIZE], diff[DIFF_SIZE];
    FILE *file = fopen(state_path, "r");
    CHECK(file != NULL, "cannot read %s: run --before-restart first", state_path);
    if (!file) return report("after the restart");
    size_t len = fread(state, 1, sizeof state - 1, file);
    fclose(file);
    fairmines_seed_pair *pair = NULL;
    fairmines_round *round = NULL;
    CHECK_STATUS(fairmines_seed_pair_from_state_json(state, len, &pair), FAIRMINES_OK, "restore the stored state");
    if (!pair) return report("after the restart");
    uint64_t nonces[8];
    CHECK(open_rounds(pair, nonces) == 1 && nonces[0] == 1, "round 1 is in play");
    CHECK_STATUS(fairmines_seed_pair_round(pair, 1, &round), FAIRMINES_OK, "resume round 1");
    if (!round) {
        fairmines_seed_pair_free(pair);
        return report("after the restart");
    }
    uint8_t picks[FAIRMINES_TILES];
    size_t count = 0, needed = 0;
    CHECK_STATUS(fairmines_round_picks(round, picks, sizeof picks, &count), FAIRMINES_OK, "picks");
    CHECK(count == 1 && picks[0] == 1, "the pick of the first process is in the round");
    fairmines_reveal r;
    fairmines_ratio paid;
    CHECK_STATUS(fairmines_round_reveal(round, 2, &r), FAIRMINES_OK, "reveal 2");
    CHECK(r.safe && r.safe_picks == 2 && ratio_eq(r.multiplier, 9, 7), "tile 2 is the second safe pick");
    CHECK_STATUS(fairmines_round_cash_out(round, &paid), FAIRMINES_OK, "cash out");
    CHECK(ratio_eq(paid, 9, 7), "paid 9/7");
    CHECK_STATUS(fairmines_round_record_json(round, record, sizeof record, &needed), FAIRMINES_OK, "record");
    uninterrupted_record(uninterrupted);
    CHECK(strcmp(record, uninterrupted) == 0 && strcmp(record, RESTART_RECORD) == 0,
          "the record across two processes is the uninterrupted one: %s", record);
    state_of(pair, state);
    CHECK(strstr(state, "\"rounds\":[]}") != NULL, "the finished round left the state: %s", state);

    /* Nothing in play: the pair rotates, and the record verifies with the revealed seed. */
    fairmines_revealed_seed_pair revealed;
    fairmines_round_verification v;
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, NULL, 0, &revealed), FAIRMINES_OK, "rotate");
    CHECK_STATUS(fairmines_verify_round_json(S(record), S(revealed.server_seed), &v, diff, sizeof diff, &needed),
                 FAIRMINES_OK, "verify");
    CHECK(v.ok && v.expected_outcome == FAIRMINES_OUTCOME_CASHED_OUT && ratio_eq(v.expected_multiplier, 9, 7),
          "the record verifies: %s", diff);
    fairmines_round_free(round);
    fairmines_seed_pair_free(pair);
    return report("after the restart, round 1 resumed from the stored state, cashed out and verified");
}

/* ---------------------------------------------------------------- NULLs and bad UTF-8 in every function */

static void test_game_nulls(void) {
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 1);
    fairmines_round *round = NULL, *lost = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 3, S("0.99"), &round), FAIRMINES_OK, "start");
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 3, S("0.99"), &lost), FAIRMINES_OK, "start");
    if (!pair || !round || !lost) return;
    fairmines_seed_pair *out_pair = NULL;
    fairmines_round *out_round = NULL;
    char buf[512];
    size_t needed;
    uint8_t tiles[FAIRMINES_TILES];
    uint64_t nonce;
    fairmines_ratio ratio = {1, 1};
    fairmines_reveal reveal;
    fairmines_round_info info;
    fairmines_revealed_seed_pair revealed;
    fairmines_round_verification v;
    fairmines_payout_entry table[FAIRMINES_PAYOUT_TABLE_SIZE];

#define NULL_CASE(call, argument)                                                  \
    do {                                                                           \
        CHECK_STATUS(call, FAIRMINES_NULL_POINTER, #call);                         \
        LAST_ERROR_NAMES(argument);                                                \
    } while (0)

    NULL_CASE(fairmines_seed_pair_new(NULL, 0, &out_pair), "client_seed");
    NULL_CASE(fairmines_seed_pair_new(S("x"), NULL), "out_pair");
    NULL_CASE(fairmines_seed_pair_from_parts(NULL, 64, WC, WCL, 0, &out_pair), "server_seed");
    NULL_CASE(fairmines_seed_pair_from_parts(WS, WSL, NULL, 0, 0, &out_pair), "client_seed");
    NULL_CASE(fairmines_seed_pair_from_parts(WS, WSL, WC, WCL, 0, NULL), "out_pair");
    NULL_CASE(fairmines_seed_pair_from_state_json(NULL, 0, &out_pair), "state");
    NULL_CASE(fairmines_seed_pair_from_state_json(S("{}"), NULL), "out_pair");
    NULL_CASE(fairmines_seed_pair_to_state_json(NULL, buf, sizeof buf, &needed), "pair");
    NULL_CASE(fairmines_seed_pair_to_state_json(pair, NULL, sizeof buf, &needed), "out");
    NULL_CASE(fairmines_seed_pair_to_state_json(pair, buf, sizeof buf, NULL), "out_needed");
    NULL_CASE(fairmines_seed_pair_public_part_json(NULL, buf, sizeof buf, &needed), "pair");
    NULL_CASE(fairmines_seed_pair_public_part_json(pair, NULL, 0, &needed), "out");
    NULL_CASE(fairmines_seed_pair_public_part_json(pair, buf, sizeof buf, NULL), "out_needed");
    NULL_CASE(fairmines_seed_pair_commitment(NULL, buf), "pair");
    NULL_CASE(fairmines_seed_pair_commitment(pair, NULL), "out_hex");
    NULL_CASE(fairmines_seed_pair_client_seed(NULL, buf, sizeof buf, &needed), "pair");
    NULL_CASE(fairmines_seed_pair_client_seed(pair, NULL, sizeof buf, &needed), "out");
    NULL_CASE(fairmines_seed_pair_client_seed(pair, buf, sizeof buf, NULL), "out_needed");
    NULL_CASE(fairmines_seed_pair_nonce(NULL, &nonce), "pair");
    NULL_CASE(fairmines_seed_pair_nonce(pair, NULL), "out_nonce");
    NULL_CASE(fairmines_seed_pair_start_round(NULL, 3, S("1"), &out_round), "pair");
    NULL_CASE(fairmines_seed_pair_start_round(pair, 3, NULL, 1, &out_round), "rtp");
    NULL_CASE(fairmines_seed_pair_start_round(pair, 3, S("1"), NULL), "out_round");
    NULL_CASE(fairmines_seed_pair_round(NULL, 1, &out_round), "pair");
    NULL_CASE(fairmines_seed_pair_round(pair, 1, NULL), "out_round");
    NULL_CASE(fairmines_seed_pair_round(pair, 7, NULL), "out_round");
    NULL_CASE(fairmines_seed_pair_rotate(NULL, NULL, 0, &revealed), "pair");
    NULL_CASE(fairmines_seed_pair_rotate(pair, NULL, 0, NULL), "out_revealed");
    uint64_t nonces[4];
    NULL_CASE(fairmines_seed_pair_open_rounds(NULL, nonces, 4, &needed), "pair");
    NULL_CASE(fairmines_seed_pair_open_rounds(pair, NULL, 0, &needed), "out_nonces");
    NULL_CASE(fairmines_seed_pair_open_rounds(pair, nonces, 4, NULL), "out_count");
    NULL_CASE(fairmines_seed_pair_void_open_rounds(NULL, nonces, 4, &needed), "pair");
    NULL_CASE(fairmines_seed_pair_void_open_rounds(pair, NULL, 0, &needed), "out_nonces");
    NULL_CASE(fairmines_seed_pair_void_open_rounds(pair, nonces, 4, NULL), "out_count");
    NULL_CASE(fairmines_round_reveal(NULL, 1, &reveal), "round");
    NULL_CASE(fairmines_round_reveal(round, 1, NULL), "out_reveal");
    NULL_CASE(fairmines_round_cash_out(NULL, &ratio), "round");
    NULL_CASE(fairmines_round_cash_out(round, NULL), "out_multiplier");
    NULL_CASE(fairmines_round_record_json(NULL, buf, sizeof buf, &needed), "round");
    NULL_CASE(fairmines_round_record_json(round, NULL, sizeof buf, &needed), "out");
    NULL_CASE(fairmines_round_record_json(round, buf, sizeof buf, NULL), "out_needed");
    NULL_CASE(fairmines_round_mine_positions(NULL, tiles, sizeof tiles), "round");
    NULL_CASE(fairmines_round_mine_positions(round, NULL, sizeof tiles), "out_positions");
    NULL_CASE(fairmines_round_picks(NULL, tiles, sizeof tiles, &needed), "round");
    NULL_CASE(fairmines_round_picks(round, NULL, 0, &needed), "out_picks");
    NULL_CASE(fairmines_round_picks(round, tiles, sizeof tiles, NULL), "out_count");
    NULL_CASE(fairmines_round_get_info(NULL, &info), "round");
    NULL_CASE(fairmines_round_get_info(round, NULL), "out_info");
    NULL_CASE(fairmines_verify_round_json(NULL, 0, WS, WSL, &v, buf, sizeof buf, &needed), "record_json");
    NULL_CASE(fairmines_verify_round_json(S("{}"), NULL, 0, &v, buf, sizeof buf, &needed), "server_seed");
    NULL_CASE(fairmines_verify_round_json(S("{}"), WS, WSL, NULL, buf, sizeof buf, &needed), "out");
    NULL_CASE(fairmines_verify_round_json(S("{}"), WS, WSL, &v, NULL, sizeof buf, &needed), "differences");
    NULL_CASE(fairmines_verify_round_json(S("{}"), WS, WSL, &v, buf, sizeof buf, NULL), "differences_needed");
    NULL_CASE(fairmines_multiplier(3, 1, NULL, 0, &ratio), "rtp");
    NULL_CASE(fairmines_multiplier(3, 1, S("1"), NULL), "out_ratio");
    NULL_CASE(fairmines_payout_table(NULL, 0, table, FAIRMINES_PAYOUT_TABLE_SIZE), "rtp");
    NULL_CASE(fairmines_payout_table(S("1"), NULL, FAIRMINES_PAYOUT_TABLE_SIZE), "out_entries");
    NULL_CASE(fairmines_ratio_to_decimal(ratio, 2, NULL, 10, &needed), "out");
    NULL_CASE(fairmines_ratio_to_decimal(ratio, 2, buf, 10, NULL), "out_needed");
    NULL_CASE(fairmines_ratio_parse(NULL, 0, &ratio), "ratio");
    NULL_CASE(fairmines_ratio_parse(S("1"), NULL), "out_ratio");
#undef NULL_CASE
    CHECK(out_pair == NULL && out_round == NULL, "no handle given on error");

    /* None of those calls changed the pair or the rounds (the NULL void voided nothing). */
    CHECK_STATUS(fairmines_seed_pair_nonce(pair, &nonce), FAIRMINES_OK, "nonce");
    CHECK(nonce == 3, "the pair is at nonce 3");
    CHECK_STATUS(fairmines_seed_pair_open_rounds(pair, nonces, 4, &needed), FAIRMINES_OK, "open rounds");
    CHECK(needed == 2 && nonces[0] == 1 && nonces[1] == 2, "both rounds still in play");
    CHECK_STATUS(fairmines_round_picks(round, tiles, sizeof tiles, &needed), FAIRMINES_OK, "picks");
    CHECK(needed == 0, "the round has no picks");

    /* A lost round: no more moves, and a cash-out is refused. */
    fairmines_reveal r;
    uint8_t grid[3], hidden[3];
    CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, 2, 3, grid, 3), FAIRMINES_OK, "positions of nonce 2");
    CHECK_STATUS(fairmines_round_reveal(lost, grid[1], &r), FAIRMINES_OK, "reveal a mine (nonce 2)");
    CHECK(r.tile == grid[1] && !r.safe && r.finished && r.safe_picks == 0 && !r.has_multiplier &&
              ratio_eq(r.multiplier, 0, 1),
          "a mine on the first pick: every field of the reveal");
    CHECK_STATUS(fairmines_round_mine_positions(lost, hidden, 3), FAIRMINES_OK, "grid");
    CHECK(memcmp(hidden, grid, 3) == 0, "the round's grid is fairmines_mine_positions of its nonce");
    CHECK_STATUS(fairmines_round_reveal(lost, grid[0], &r), FAIRMINES_ROUND_FINISHED, "reveal after a mine");
    CHECK_STATUS(fairmines_round_cash_out(lost, &ratio), FAIRMINES_ROUND_FINISHED, "cash-out after a mine");
    CHECK(strstr(fairmines_last_error(), "finished") != NULL, "message %s", fairmines_last_error());
    CHECK_STATUS(fairmines_round_get_info(lost, &info), FAIRMINES_OK, "info");
    CHECK(info.outcome == FAIRMINES_OUTCOME_LOST && info.finished && !info.has_multiplier && info.safe_picks == 0 &&
              info.pick_count == 1,
          "lost on the first pick");

    /* _free(NULL) is a no-op. */
    fairmines_seed_pair_free(NULL);
    fairmines_round_free(NULL);

    /* Invalid UTF-8 in every string argument. */
    static const char *const bad[] = {"\xff", "abc\xc3\x28", "\xed\xa0\x80"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        size_t n = strlen(bad[i]);
#define UTF8_CASE(call, argument)                                                  \
    do {                                                                           \
        CHECK_STATUS(call, FAIRMINES_INVALID_UTF8, #call);                         \
        LAST_ERROR_NAMES(argument);                                                \
    } while (0)
        UTF8_CASE(fairmines_seed_pair_new(bad[i], n, &out_pair), "client_seed");
        UTF8_CASE(fairmines_seed_pair_from_parts(bad[i], n, WC, WCL, 0, &out_pair), "server_seed");
        UTF8_CASE(fairmines_seed_pair_from_parts(WS, WSL, bad[i], n, 0, &out_pair), "client_seed");
        UTF8_CASE(fairmines_seed_pair_from_state_json(bad[i], n, &out_pair), "state");
        UTF8_CASE(fairmines_seed_pair_start_round(pair, 3, bad[i], n, &out_round), "rtp");
        UTF8_CASE(fairmines_seed_pair_rotate(pair, bad[i], n, &revealed), "new_client_seed");
        UTF8_CASE(fairmines_verify_round_json(bad[i], n, WS, WSL, &v, buf, sizeof buf, &needed), "record_json");
        UTF8_CASE(fairmines_verify_round_json(S("{}"), bad[i], n, &v, buf, sizeof buf, &needed), "server_seed");
        UTF8_CASE(fairmines_multiplier(3, 1, bad[i], n, &ratio), "rtp");
        UTF8_CASE(fairmines_payout_table(bad[i], n, table, FAIRMINES_PAYOUT_TABLE_SIZE), "rtp");
        UTF8_CASE(fairmines_ratio_parse(bad[i], n, &ratio), "ratio");
#undef UTF8_CASE
    }
    CHECK(out_pair == NULL && out_round == NULL, "no handle given on invalid UTF-8");
    char hex[FAIRMINES_HEX_SIZE];
    CHECK_STATUS(fairmines_seed_pair_commitment(pair, hex), FAIRMINES_OK, "commitment");
    CHECK(strcmp(hex, W_COMMITMENT) == 0, "a failed rotation left the pair alone");
    /* Impossible lengths. */
    CHECK_STATUS(fairmines_seed_pair_new(WC, SIZE_MAX, &out_pair), FAIRMINES_LENGTH_TOO_LARGE, "huge");
    CHECK_STATUS(fairmines_verify_round_json(WC, (size_t)PTRDIFF_MAX + 1, WS, WSL, &v, buf, sizeof buf, &needed),
                 FAIRMINES_LENGTH_TOO_LARGE, "huge record");
    LAST_ERROR_NAMES("record_json");

    fairmines_round_free(round);
    fairmines_round_free(lost);
    fairmines_seed_pair_free(pair);
}

/* ---------------------------------------------------------------- threads */

typedef struct {
    const json_value *cases;
    size_t start;
    long failures;
} thread_job;

/* Every case of the vectors from a different starting point in each thread, against the vectors, and a
 * failure whose message must stay this thread's own. The CHECK counters are not touched from threads. */
static void *thread_main(void *arg) {
    thread_job *job = arg;
    size_t n = job->cases->count;
    for (size_t step = 0; step < n; step++) {
        const json_value *c = &job->cases->items[(job->start + step) % n];
        const json_value *s = json_get(c, "server_seed"), *cl = json_get(c, "client_seed");
        const json_value *positions = json_get(c, "positions");
        uint8_t mines = (uint8_t)json_get(c, "mines")->uint, got[FAIRMINES_TILES];
        if (fairmines_mine_positions(s->str, s->len, cl->str, cl->len, json_get(c, "nonce")->uint, mines, got,
                                     sizeof got) != FAIRMINES_OK)
            job->failures++;
        for (size_t i = 0; i < mines; i++) job->failures += got[i] != positions->items[i].uint;
        /* Each thread fails with its own value at once: each reads its own message. */
        static const char prefix[] = "mines: must be a whole number from 1 to 24, got ";
        if (fairmines_mine_positions(s->str, s->len, cl->str, cl->len, 0, 25 + (int64_t)step, got, sizeof got) !=
                FAIRMINES_INVALID_MINES ||
            strncmp(fairmines_last_error(), prefix, sizeof prefix - 1) != 0 ||
            strtoull(fairmines_last_error() + sizeof prefix - 1, NULL, 10) != 25 + step)
            job->failures++;
    }
    return NULL;
}

/* One seed pair shared by threads with no lock of theirs: every nonce is used once. */
typedef struct {
    fairmines_seed_pair *pair;
    uint64_t nonces[50];
    long failures;
} shared_pair_job;

static void *shared_pair_main(void *arg) {
    shared_pair_job *job = arg;
    for (size_t i = 0; i < 50; i++) {
        fairmines_round *round = NULL;
        fairmines_round_info info;
        if (fairmines_seed_pair_start_round(job->pair, 5, S("0.99"), &round) != FAIRMINES_OK ||
            fairmines_round_get_info(round, &info) != FAIRMINES_OK)
            job->failures++;
        else
            job->nonces[i] = info.nonce;
        fairmines_round_free(round);
    }
    return NULL;
}

/* One round shared by threads with no lock of theirs: each reveals its own safe tiles, and every thread
 * reveals one tile they all try; a second move waits for the first, so none is lost. */
typedef struct {
    fairmines_round *round;
    int tiles[4]; /* the common tile first */
    fairmines_reveal reveals[4];
    fairmines_status statuses[4];
} shared_round_job;

static void *shared_round_main(void *arg) {
    shared_round_job *job = arg;
    for (int i = 0; i < 4; i++) job->statuses[i] = fairmines_round_reveal(job->round, job->tiles[i], &job->reveals[i]);
    return NULL;
}

enum { THREADS = 8 };

void game_thread_tests(const json_value *cases) {
    pthread_t threads[THREADS];
    thread_job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (thread_job){cases, (size_t)t * cases->count / THREADS, 0};
        CHECK(pthread_create(&threads[t], NULL, thread_main, &jobs[t]) == 0, "pthread_create");
    }
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        CHECK(jobs[t].failures == 0, "thread %d: %ld differences from the vectors", t, jobs[t].failures);
    }

    /* A shared seed pair: 200 rounds started from 4 threads use nonces 0..199 once each. */
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 0);
    if (!pair) return;
    shared_pair_job pair_jobs[4];
    pthread_t st[4];
    for (int t = 0; t < 4; t++) {
        pair_jobs[t] = (shared_pair_job){pair, {0}, 0};
        CHECK(pthread_create(&st[t], NULL, shared_pair_main, &pair_jobs[t]) == 0, "pthread_create");
    }
    unsigned char seen[200] = {0};
    for (int t = 0; t < 4; t++) {
        pthread_join(st[t], NULL);
        CHECK(pair_jobs[t].failures == 0, "shared pair, thread %d", t);
        for (size_t i = 0; i < 50; i++)
            if (pair_jobs[t].nonces[i] < 200) seen[pair_jobs[t].nonces[i]]++;
    }
    int each_once = 1;
    for (size_t i = 0; i < 200; i++) each_once &= seen[i] == 1;
    CHECK(each_once, "200 rounds of a shared pair used nonces 0..199 once each");

    /* A shared round (1 mine, 24 safe tiles): 8 threads at once each reveal one common safe tile, then three
     * of the 23 others (one of them twice in all). Each safe tile is revealed exactly once, the reveals
     * count safe picks 1..24 once each (the moves took turns, none was lost), and only the 24th finishes
     * the round; a refused move is a repeat or comes after the end. */
    fairmines_round *round = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 1, S("1"), &round), FAIRMINES_OK, "start");
    int safe[FAIRMINES_TILES];
    int nsafe = safe_tiles(200, 1, safe);
    CHECK(nsafe == 24, "24 safe tiles");
    shared_round_job round_jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        round_jobs[t] = (shared_round_job){.round = round, .tiles = {safe[0]}};
        for (int i = 1; i < 4; i++) round_jobs[t].tiles[i] = safe[1 + (t * 3 + i - 1) % 23];
        CHECK(pthread_create(&threads[t], NULL, shared_round_main, &round_jobs[t]) == 0, "pthread_create");
    }
    int common_ok = 0, refused_otherwise = 0, picks_seen[26] = {0};
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        common_ok += round_jobs[t].statuses[0] == FAIRMINES_OK;
        for (int i = 0; i < 4; i++) {
            fairmines_status s = round_jobs[t].statuses[i];
            const fairmines_reveal *r = &round_jobs[t].reveals[i];
            refused_otherwise += s != FAIRMINES_OK && s != FAIRMINES_TILE_ALREADY_REVEALED && s != FAIRMINES_ROUND_FINISHED;
            if (s != FAIRMINES_OK) continue;
            picks_seen[r->safe_picks]++;
            CHECK(r->safe && r->tile == round_jobs[t].tiles[i] && r->finished == (r->safe_picks == 24),
                  "thread %d reveal %d: tile %u, safe picks %u, finished %d", t, i, r->tile, r->safe_picks, r->finished);
        }
    }
    int each_count_once = 1;
    for (int k = 1; k <= 24; k++) each_count_once &= picks_seen[k] == 1;
    CHECK(common_ok == 1 && refused_otherwise == 0 && each_count_once,
          "concurrent reveals: the common tile %d times, other refusals %d, safe-pick counts once each: %d", common_ok,
          refused_otherwise, each_count_once);
    fairmines_round_info info;
    CHECK_STATUS(fairmines_round_get_info(round, &info), FAIRMINES_OK, "info");
    CHECK(info.safe_picks == 24 && info.finished && info.outcome == FAIRMINES_OUTCOME_CASHED_OUT, "the round ended");
    fairmines_round_free(round);
    fairmines_seed_pair_free(pair);
    printf("fairmines C tests: %d threads shared a seed pair and a round without a lock of theirs\n", THREADS);
}

void game_tests(void) {
    test_worked_round();
    test_replay();
    test_seed_pairs();
    test_payouts();
    test_rotation_with_a_round_in_play();
    test_a_round_resumed_after_every_move_ends_as_if_never_stopped();
    test_only_a_round_in_play_is_handed_out_and_once_at_a_time();
    test_a_resumed_round_whose_multipliers_do_not_fit_is_refused();
    test_a_first_version_state_gives_void_only_rounds();
    test_game_nulls();
}
