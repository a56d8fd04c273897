/* The C tests of the game API: seed pairs and rounds (handles), reveals, cash-outs, records and their
 * replay, exact payouts, every status of these functions, and many threads at once.
 * Part of the test_fairmines program (see test_fairmines.c and the Makefile). */
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

static const char *const RTPS[] = {"0.99", "97/100", "1", "0.5"};

static uint64_t gcd64(uint64_t a, uint64_t b) {
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

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

/* Reveals tiles 1, 2, ... until the round ends (a mine, or the last safe tile, which cashes out). */
static void finish_round(fairmines_round *round) {
    fairmines_reveal r = {0};
    for (int tile = 1; tile <= FAIRMINES_TILES && !r.is_finished; tile++)
        CHECK_STATUS(fairmines_round_reveal(round, tile, &r), FAIRMINES_OK, "reveal to the end");
    CHECK(r.is_finished, "the round has finished");
}

/* ---------------------------------------------------------------- a round played on a known grid */

/* The result of playing one round: what every thread must reproduce. */
typedef struct {
    fairmines_status status;
    char record[RECORD_SIZE];
    uint8_t positions[FAIRMINES_TILES];
} played_round;

/* Plays one round of (server, client, nonce, mines) on the grid `positions` (from the vectors): `lose`
 * reveals one safe tile and then a mine; otherwise up to three safe tiles (from the bottom-right) and a
 * cash-out, unless the reveals already opened every safe tile. Checks every step against the grid and
 * fairmines_multiplier(); stores the record. Returns the number of failed checks it saw. */
static long play_round(const char *server, size_t server_len, const char *client, size_t client_len, uint64_t nonce,
                       uint8_t mines, const uint8_t *positions, const char *rtp, int lose, played_round *out) {
    long before = failures;
    memset(out, 0, sizeof *out);
    fairmines_seed_pair *pair = NULL;
    fairmines_round *round = NULL;
    out->status = fairmines_seed_pair_from_parts(server, server_len, client, client_len, nonce, &pair);
    if (out->status != FAIRMINES_OK) return failures - before;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, mines, S(rtp), &round), FAIRMINES_OK, "start_round");
    uint64_t next = 0;
    CHECK_STATUS(fairmines_seed_pair_nonce(pair, &next), FAIRMINES_OK, "nonce");
    CHECK(next == nonce + 1, "the nonce increments: %llu", (unsigned long long)next);
    fairmines_seed_pair_free(pair);
    if (!round) return failures - before;

    uint8_t hidden[FAIRMINES_TILES];
    CHECK_STATUS(fairmines_round_mine_positions(round, hidden, sizeof hidden), FAIRMINES_ROUND_IN_PLAY, "hidden");

    fairmines_reveal r;
    uint8_t safe = 0, max_safe = (uint8_t)(FAIRMINES_TILES - mines);
    int finished = 0;
    for (int tile = FAIRMINES_TILES; tile >= 1 && !finished; tile--) {
        if (is_mine(positions, mines, tile)) continue;
        CHECK_STATUS(fairmines_round_reveal(round, tile, &r), FAIRMINES_OK, "reveal safe");
        safe++;
        fairmines_ratio want;
        CHECK_STATUS(fairmines_multiplier(mines, safe, S(rtp), &want), FAIRMINES_OK, "multiplier");
        CHECK(!r.is_mine && r.safe_picks == safe && ratio_eq(r.multiplier, want.numer, want.denom),
              "reveal of safe tile %d: mine %d, picks %u", tile, r.is_mine, r.safe_picks);
        finished = r.is_finished;
        CHECK(finished == (safe == max_safe), "finished exactly when every safe tile is open");
        if (lose || safe == 3) break;
    }
    if (lose && !finished) {
        CHECK_STATUS(fairmines_round_reveal(round, positions[mines - 1], &r), FAIRMINES_OK, "reveal mine");
        CHECK(r.is_mine && r.is_finished && r.safe_picks == safe && ratio_eq(r.multiplier, 0, 1), "mine result");
    } else if (!finished) {
        fairmines_ratio paid, want;
        CHECK_STATUS(fairmines_round_cash_out(round, &paid), FAIRMINES_OK, "cash_out");
        CHECK_STATUS(fairmines_multiplier(mines, safe, S(rtp), &want), FAIRMINES_OK, "multiplier");
        CHECK(ratio_eq(paid, want.numer, want.denom), "cash-out pays the multiplier");
    }
    fairmines_round_info info;
    CHECK_STATUS(fairmines_round_get_info(round, &info), FAIRMINES_OK, "info");
    int lost = lose && !finished;
    CHECK(info.outcome == (lost ? FAIRMINES_OUTCOME_LOST : FAIRMINES_OUTCOME_CASHED_OUT) && info.mines == mines &&
              info.nonce == nonce && info.safe_picks == safe && info.picks == safe + (lost ? 1 : 0) &&
              info.has_multiplier == !lost,
          "round info after play");

    CHECK_STATUS(fairmines_round_mine_positions(round, out->positions, mines), FAIRMINES_OK, "mine positions");
    CHECK(memcmp(out->positions, positions, mines) == 0, "the round's grid is the vectors' grid");
    size_t needed = 0;
    CHECK_STATUS(fairmines_round_record_json(round, out->record, sizeof out->record, &needed), FAIRMINES_OK, "record");
    CHECK(needed == strlen(out->record) + 1, "needed counts the NUL");
    fairmines_round_free(round);

    /* The record verifies against the server seed, and the replay shows the same grid. */
    fairmines_round_verification v;
    char diff[DIFF_SIZE];
    CHECK_STATUS(fairmines_verify_round_json(S(out->record), server, server_len, &v, diff, sizeof diff, &needed),
                 FAIRMINES_OK, "verify_round_json");
    CHECK(v.ok && v.commitment_ok && v.difference_count == 0 && diff[0] == '\0' && needed == 1,
          "a played round verifies: %s", diff);
    CHECK(v.mines == mines && memcmp(v.mine_positions, positions, mines) == 0 && v.mine_positions[mines] == 0,
          "verification grid");
    CHECK(v.expected_outcome == info.outcome && v.has_expected_multiplier == info.has_multiplier &&
              ratio_eq(v.expected_multiplier, info.multiplier.numer, info.multiplier.denom),
          "verification outcome and multiplier");
    /* With another server seed it does not. */
    CHECK_STATUS(fairmines_verify_round_json(S(out->record), S("not the seed"), &v, diff, sizeof diff, &needed),
                 FAIRMINES_OK, "verify with a wrong seed");
    CHECK(!v.ok && !v.commitment_ok && v.difference_count >= 1 && strncmp(diff, "commitment:", 11) == 0,
          "a wrong server seed fails the commitment: %s", diff);
    return failures - before;
}

static size_t cases_played = 0;

void game_run_case(const json_value *c) {
    const json_value *server = json_get(c, "server_seed"), *client = json_get(c, "client_seed");
    const json_value *positions_v = json_get(c, "positions");
    uint64_t nonce = json_get(c, "nonce")->uint;
    uint8_t mines = (uint8_t)json_get(c, "mines")->uint;
    uint8_t positions[FAIRMINES_TILES];
    for (size_t i = 0; i < mines; i++) positions[i] = (uint8_t)positions_v->items[i].uint;

    fairmines_seed_pair *pair = NULL;
    fairmines_status s = fairmines_seed_pair_from_parts(server->str, server->len, client->str, client->len, nonce, &pair);
    fairmines_seed_pair_free(pair);
    if (s != FAIRMINES_OK) {
        /* Only a seed that is not 64 lowercase hex characters (the vectors have such cases) is refused. */
        CHECK(s == FAIRMINES_INVALID_HEX || s == FAIRMINES_INVALID_UTF8, "from_parts refused %s", server->str);
        return;
    }
    played_round out;
    const char *rtp = RTPS[cases_played % 4];
    play_round(server->str, server->len, client->str, client->len, nonce, mines, positions, rtp, 0, &out);
    play_round(server->str, server->len, client->str, client->len, nonce, mines, positions, rtp, 1, &out);
    cases_played++;
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
    CHECK_STATUS(fairmines_seed_pair_public_json(pair, json, sizeof json, &needed), FAIRMINES_OK, "public json");
    CHECK(strcmp(json, "{\"commitment\":\"" W_COMMITMENT_TEXT "\",\"client_seed\":\"" WC_TEXT "\",\"nonce\":1}") == 0,
          "public json %s", json);

    fairmines_round *round = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 3, S("0.99"), &round), FAIRMINES_OK, "start");
    if (!round) {
        fairmines_seed_pair_free(pair);
        return;
    }
    fairmines_round_info info;
    CHECK_STATUS(fairmines_round_get_info(round, &info), FAIRMINES_OK, "info");
    CHECK(strcmp(info.commitment, W_COMMITMENT) == 0 && info.nonce == 1 && info.mines == 3 && info.picks == 0 &&
              info.safe_picks == 0 && info.outcome == FAIRMINES_OUTCOME_IN_PLAY && !info.has_multiplier &&
              ratio_eq(info.multiplier, 0, 1) && ratio_eq(info.rtp, 99, 100),
          "fresh round info");
    uint8_t picks[FAIRMINES_TILES];
    size_t count = 99;
    CHECK_STATUS(fairmines_round_picks(round, picks, 0, &count), FAIRMINES_OK, "no picks, capacity 0");
    CHECK(count == 0, "no picks yet");

    /* Nothing to cash out before a safe pick; the round stays in play. */
    fairmines_ratio paid = {7, 7};
    CHECK_STATUS(fairmines_round_cash_out(round, &paid), FAIRMINES_NOTHING_TO_CASH_OUT, "cash-out with no pick");
    CHECK(ratio_eq(paid, 7, 7), "cash-out output written on error");
    CHECK(strstr(fairmines_last_error(), "safe pick") != NULL, "message: %s", fairmines_last_error());

    fairmines_reveal r;
    memset(&r, SENTINEL, sizeof r);
    CHECK_STATUS(fairmines_round_reveal(round, 0, &r), FAIRMINES_INVALID_TILE, "tile 0");
    LAST_ERROR_NAMES("tile");
    CHECK_STATUS(fairmines_round_reveal(round, 26, &r), FAIRMINES_INVALID_TILE, "tile 26");
    CHECK_STATUS(fairmines_round_reveal(round, -1, &r), FAIRMINES_INVALID_TILE, "tile -1");
    CHECK_STATUS(fairmines_round_reveal(round, INT64_MAX, &r), FAIRMINES_INVALID_TILE, "tile INT64_MAX");
    CHECK_STATUS(fairmines_round_reveal(round, 256 + 1, &r), FAIRMINES_INVALID_TILE, "tile 257 (1 modulo 256: no truncation)");
    CHECK(untouched(&r, sizeof r), "reveal result written on error");

    /* Tile 1 is safe: 25/22 x 99/100 = 9/8, shown as 1.12. */
    CHECK_STATUS(fairmines_round_reveal(round, 1, &r), FAIRMINES_OK, "reveal 1");
    CHECK(!r.is_mine && !r.is_finished && r.safe_picks == 1 && ratio_eq(r.multiplier, 9, 8), "reveal 1 result %llu/%llu",
          (unsigned long long)r.multiplier.numer, (unsigned long long)r.multiplier.denom);
    char dec[32];
    CHECK_STATUS(fairmines_ratio_decimal(r.multiplier, 2, dec, sizeof dec, &needed), FAIRMINES_OK, "decimal");
    CHECK(strcmp(dec, "1.12") == 0 && needed == 5, "9/8 to 2 places: %s", dec);

    memset(&r, SENTINEL, sizeof r);
    CHECK_STATUS(fairmines_round_reveal(round, 1, &r), FAIRMINES_TILE_ALREADY_REVEALED, "double reveal");
    LAST_ERROR_NAMES("tile");
    CHECK(untouched(&r, sizeof r), "reveal result written on a double reveal");
    CHECK_STATUS(fairmines_round_reveal(round, 2, &r), FAIRMINES_OK, "reveal 2");
    CHECK(ratio_eq(r.multiplier, 9, 7) && r.safe_picks == 2, "25*24/(22*21) x 0.99 = 9/7");

    /* Still in play: the grid and the record stay hidden. */
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
    CHECK_STATUS(fairmines_ratio_decimal(paid, 4, dec, sizeof dec, &needed), FAIRMINES_OK, "decimal");
    CHECK(strcmp(dec, "1.2857") == 0, "9/7 rounded down: %s", dec);

    /* Finished: no more moves. */
    memset(&r, SENTINEL, sizeof r);
    CHECK_STATUS(fairmines_round_reveal(round, 3, &r), FAIRMINES_ROUND_FINISHED, "reveal after cash-out");
    CHECK_STATUS(fairmines_round_reveal(round, 7, &r), FAIRMINES_ROUND_FINISHED, "reveal a mine after cash-out");
    CHECK_STATUS(fairmines_round_cash_out(round, &paid), FAIRMINES_ROUND_FINISHED, "second cash-out");
    CHECK(untouched(&r, sizeof r) && ratio_eq(paid, 9, 7), "outputs after a finished round");

    CHECK_STATUS(fairmines_round_picks(round, picks, 1, &count), FAIRMINES_BUFFER_TOO_SMALL, "picks buffer small");
    CHECK(count == 2, "picks count on a small buffer");
    LAST_ERROR_NAMES("out_picks");
    CHECK_STATUS(fairmines_round_picks(round, picks, sizeof picks, &count), FAIRMINES_OK, "picks");
    CHECK(count == 2 && picks[0] == 1 && picks[1] == 2, "picks in order");
    CHECK_STATUS(fairmines_round_mine_positions(round, grid, 2), FAIRMINES_BUFFER_TOO_SMALL, "grid small");
    CHECK_STATUS(fairmines_round_mine_positions(round, grid, 3), FAIRMINES_OK, "grid");
    CHECK(grid[0] == 7 && grid[1] == 10 && grid[2] == 19, "grid %u %u %u", grid[0], grid[1], grid[2]);

    /* The record, byte for byte as documented. */
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

    /* The pair moved on to nonce 2. Rotating reveals the seed with the commitment shown before play. */
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

/* ---------------------------------------------------------------- records: round trip, any field changed */

typedef struct {
    const char *commitment;
    const char *client_seed;
    uint64_t nonce;
    int mines;
    const char *rtp;
    const int *picks;
    size_t npicks;
    const char *outcome;
    const char *multiplier; /* NULL: JSON null */
} record_fields;

static void make_record(char *buf, size_t size, const record_fields *f) {
    char picks[200] = "";
    size_t n = 0;
    for (size_t i = 0; i < f->npicks; i++)
        n += (size_t)snprintf(picks + n, sizeof picks - n, "%s%d", i ? "," : "", f->picks[i]);
    char multiplier[64];
    if (f->multiplier)
        snprintf(multiplier, sizeof multiplier, "\"%s\"", f->multiplier);
    else
        strcpy(multiplier, "null");
    snprintf(buf, size,
             "{\"commitment\":\"%s\",\"client_seed\":\"%s\",\"nonce\":%llu,\"mines\":%d,\"rtp\":\"%s\","
             "\"picks\":[%s],\"outcome\":\"%s\",\"multiplier\":%s}",
             f->commitment, f->client_seed, (unsigned long long)f->nonce, f->mines, f->rtp, picks, f->outcome,
             multiplier);
}

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

static void test_records(void) {
    static const int picks[] = {1, 2};
    const record_fields good = {W_COMMITMENT, WC, 1, 3, "99/100", picks, 2, "cashed_out", "9/7"};
    char json[RECORD_SIZE], diff[DIFF_SIZE];
    fairmines_round_verification v;
    make_record(json, sizeof json, &good);
    CHECK(verify_text(json, &v, diff) == 1, "the documented record verifies: %s", diff);
    CHECK(v.commitment_ok && v.expected_outcome == FAIRMINES_OUTCOME_CASHED_OUT && v.has_expected_multiplier &&
              ratio_eq(v.expected_multiplier, 9, 7) && v.mines == 3 && v.mine_positions[0] == 7 &&
              v.mine_positions[1] == 10 && v.mine_positions[2] == 19 && v.mine_positions[3] == 0,
          "verification fields");

    /* Each field changed, one at a time: the record no longer verifies, and the text says why. */
    char other_commitment[65];
    strcpy(other_commitment, W_COMMITMENT);
    other_commitment[0] = '0';
    static const int mine_pick[] = {1, 7}, repeat[] = {1, 1}, one[] = {1}, after_mine[] = {7, 1};
    record_fields f;
    struct {
        const char *what, *expect;
    } cases[] = {{"commitment", "commitment:"}, {"outcome", "outcome:"},    {"multiplier", "multiplier:"},
                 {"mine pick", "outcome:"},     {"repeat", "picks:"},       {"fewer picks", "multiplier:"},
                 {"mines", "multiplier:"},      {"rtp", "multiplier:"},     {"no multiplier", "multiplier:"},
                 {"after mine", "picks:"},      {"nonce", NULL},            {"client seed", NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        f = good;
        switch (i) {
        case 0: f.commitment = other_commitment; break;
        case 1: f.outcome = "lost"; break;
        case 2: f.multiplier = "10/7"; break;
        case 3: f.picks = mine_pick; break;
        case 4: f.picks = repeat; break;
        case 5: f.picks = one; f.npicks = 1; break;
        case 6: f.mines = 2; break; /* 2 mines: the grid changes, and so does the multiplier */
        case 7: f.rtp = "98/100"; break;
        case 8: f.multiplier = NULL; break;
        case 9: f.picks = after_mine; f.outcome = "lost"; f.multiplier = NULL; break;
        case 10: {
            /* Another nonce: pick a tile that is safe at nonce 1 and a mine at the new nonce. */
            uint8_t pos[3];
            for (uint64_t n = 2; n < 100; n++) {
                CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, n, 3, pos, 3), FAIRMINES_OK, "positions");
                if (!is_mine(pos, 3, 1) || !is_mine(pos, 3, 2)) continue;
                f.nonce = n;
                break;
            }
            if (f.nonce == 1) {
                /* Tiles 1 and 2 both mines at some nonce is rare; fall back to: tile 1 a mine. */
                for (uint64_t n = 2; n < 1000 && f.nonce == 1; n++) {
                    CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, n, 3, pos, 3), FAIRMINES_OK, "pos");
                    if (is_mine(pos, 3, 1)) f.nonce = n;
                }
            }
            CHECK(f.nonce != 1, "a nonce that puts a mine under tile 1");
            break;
        }
        case 11: {
            /* Another client seed: the same search over a few candidates. */
            static char seed[32];
            uint8_t pos[3];
            for (int k = 0; k < 1000; k++) {
                snprintf(seed, sizeof seed, "client-%d", k);
                CHECK_STATUS(fairmines_mine_positions(WS, WSL, S(seed), 1, 3, pos, 3), FAIRMINES_OK, "pos");
                if (is_mine(pos, 3, 1)) {
                    f.client_seed = seed;
                    break;
                }
            }
            CHECK(f.client_seed != WC, "a client seed that puts a mine under tile 1");
            break;
        }
        }
        make_record(json, sizeof json, &f);
        int ok = verify_text(json, &v, diff);
        CHECK(ok == 0, "record with %s changed: verify gave %d (%s)", cases[i].what, ok, fairmines_last_error());
        CHECK(v.difference_count >= 1 && diff[0] != '\0', "%s: the differences are given", cases[i].what);
        if (cases[i].expect) CHECK(strstr(diff, cases[i].expect) != NULL, "%s: differences %s", cases[i].what, diff);
        CHECK(v.commitment_ok == (i != 0), "%s: commitment check", cases[i].what);
    }

    /* Differences text: a buffer too small is reported with the size needed, nothing written. */
    f = good;
    f.multiplier = "10/7";
    make_record(json, sizeof json, &f);
    size_t needed = 0;
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
    make_record(json, sizeof json, &good);
    char one_byte = 'x';
    CHECK_STATUS(fairmines_verify_round_json(S(json), WS, WSL, &v, &one_byte, 1, &needed), FAIRMINES_OK, "1 byte");
    CHECK(one_byte == '\0' && needed == 1 && v.ok, "an empty differences text");

    /* Records that cannot describe a round are errors, not verdicts. */
    memset(&v, SENTINEL, sizeof v);
    CHECK_STATUS(fairmines_verify_round_json(S("{not json"), WS, WSL, &v, diff, DIFF_SIZE, &needed),
                 FAIRMINES_INVALID_STATE, "bad JSON");
    LAST_ERROR_NAMES("record");
    CHECK_STATUS(fairmines_verify_round_json(S("{\"nonce\":1}"), WS, WSL, &v, diff, DIFF_SIZE, &needed),
                 FAIRMINES_INVALID_STATE, "missing fields");
    f = good;
    f.mines = 25;
    make_record(json, sizeof json, &f);
    CHECK_STATUS(fairmines_verify_round_json(S(json), WS, WSL, &v, diff, DIFF_SIZE, &needed), FAIRMINES_INVALID_MINES,
                 "25 mines");
    static const int tile26[] = {1, 26};
    f = good;
    f.picks = tile26;
    make_record(json, sizeof json, &f);
    CHECK_STATUS(fairmines_verify_round_json(S(json), WS, WSL, &v, diff, DIFF_SIZE, &needed), FAIRMINES_INVALID_TILE,
                 "pick 26");
    LAST_ERROR_NAMES("picks");
    f = good;
    f.rtp = "2";
    make_record(json, sizeof json, &f);
    CHECK_STATUS(fairmines_verify_round_json(S(json), WS, WSL, &v, diff, DIFF_SIZE, &needed), FAIRMINES_INVALID_STATE,
                 "rtp 2 in a record");
    f = good;
    f.rtp = "1/100000000000000000000"; /* a valid RTP whose multipliers do not fit 64 bits */
    make_record(json, sizeof json, &f);
    CHECK_STATUS(fairmines_verify_round_json(S(json), WS, WSL, &v, diff, DIFF_SIZE, &needed),
                 FAIRMINES_RATIO_TOO_LARGE, "huge rtp denominator");
    LAST_ERROR_NAMES("expected_multiplier");
    CHECK(untouched(&v, sizeof v), "verification written on error");
}

/* ---------------------------------------------------------------- seed pairs: new, state, rotation */

static int is_lower_hex64(const char *s) {
    for (size_t i = 0; i < 64; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f'))) return 0;
    return s[64] == '\0';
}

/* A seed pair's state JSON (client seed "x"); `open` is the JSON after "open_rounds": (more fields
 * may follow it). */
static void state_text(char *buf, size_t size, const char *server, const char *commitment, const char *nonce,
                       const char *open) {
    snprintf(buf, size, "{\"server_seed\":\"%s\",\"commitment\":\"%s\",\"client_seed\":\"x\",\"nonce\":%s,"
             "\"open_rounds\":%s}", server, commitment, nonce, open);
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

    /* Two rounds, then the state through JSON: same seed, same nonce, same grids from here on. */
    fairmines_round *r1 = NULL, *r2 = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(a, 5, S("0.99"), &r1), FAIRMINES_OK, "round");
    finish_round(r1); /* finished, so that `a` can rotate below */
    fairmines_round_free(r1);
    char state[512], small[8];
    memset(small, SENTINEL, sizeof small);
    CHECK_STATUS(fairmines_seed_pair_state_json(a, small, sizeof small, &needed), FAIRMINES_BUFFER_TOO_SMALL, "small");
    CHECK(needed > sizeof small && needed < sizeof state && untouched(small, sizeof small), "state needs %zu", needed);
    CHECK_STATUS(fairmines_seed_pair_state_json(a, state, sizeof state, &needed), FAIRMINES_OK, "state");
    CHECK(strstr(state, "\"server_seed\":\"") && strstr(state, ca) && strstr(state, "\"nonce\":1") &&
              strstr(state, "\"open_rounds\":[]"),
          "state %s", state);
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(state), &restored), FAIRMINES_OK, "from_state_json");
    if (restored) {
        char cr[FAIRMINES_HEX_SIZE];
        CHECK_STATUS(fairmines_seed_pair_commitment(restored, cr), FAIRMINES_OK, "commitment");
        CHECK_STATUS(fairmines_seed_pair_nonce(restored, &nonce), FAIRMINES_OK, "nonce");
        CHECK(strcmp(cr, ca) == 0 && nonce == 1, "restored pair");
        /* Play the same losing move in both: same grid (compared once both are finished). */
        CHECK_STATUS(fairmines_seed_pair_start_round(a, 24, S("1"), &r1), FAIRMINES_OK, "round a");
        CHECK_STATUS(fairmines_seed_pair_start_round(restored, 24, S("1"), &r2), FAIRMINES_OK, "round restored");
        fairmines_reveal x, y;
        int tile = 1;
        do {
            CHECK_STATUS(fairmines_round_reveal(r1, tile, &x), FAIRMINES_OK, "reveal a");
            CHECK_STATUS(fairmines_round_reveal(r2, tile, &y), FAIRMINES_OK, "reveal restored");
            CHECK(x.is_mine == y.is_mine && x.is_finished == y.is_finished, "same result");
            tile++;
        } while (!x.is_finished && tile <= 25);
        uint8_t g1[24], g2[24];
        CHECK_STATUS(fairmines_round_mine_positions(r1, g1, 24), FAIRMINES_OK, "grid a");
        CHECK_STATUS(fairmines_round_mine_positions(r2, g2, 24), FAIRMINES_OK, "grid restored");
        CHECK(memcmp(g1, g2, 24) == 0, "the same grid after a state round trip");
        /* The record of a's round verifies once a is rotated (the seed revealed). */
        char record[RECORD_SIZE], diff[DIFF_SIZE];
        fairmines_revealed_seed_pair revealed;
        fairmines_round_verification v;
        CHECK_STATUS(fairmines_round_record_json(r1, record, sizeof record, &needed), FAIRMINES_OK, "record");
        CHECK_STATUS(fairmines_seed_pair_rotate(a, S("next"), &revealed), FAIRMINES_OK, "rotate");
        CHECK(strcmp(revealed.commitment, ca) == 0 && revealed.rounds == 2, "revealed");
        CHECK_STATUS(fairmines_verify_round_json(S(record), S(revealed.server_seed), &v, diff, sizeof diff, &needed),
                     FAIRMINES_OK, "verify");
        CHECK(v.ok, "a round of a new pair verifies with its revealed seed: %s", diff);
        /* The rounds do not refer to the pairs: free the pairs first. */
        fairmines_seed_pair_free(restored);
        fairmines_seed_pair_free(a);
        a = NULL;
        CHECK_STATUS(fairmines_round_picks(r1, g1, sizeof g1, &needed), FAIRMINES_OK, "round outlives its pair");
        fairmines_round_free(r1);
        fairmines_round_free(r2);
    }
    fairmines_seed_pair_free(a);
    fairmines_seed_pair_free(b);

    /* Saved state that does not hold together. */
    fairmines_seed_pair *p = (fairmines_seed_pair *)&needed; /* a sentinel: must stay as it is */
    fairmines_seed_pair *const sentinel = p;
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S("[]"), &p), FAIRMINES_INVALID_STATE, "not an object");
    LAST_ERROR_NAMES("state");
    char bad[512];
    state_text(bad, sizeof bad, WS, "0000000000000000000000000000000000000000000000000000000000000000", "1", "[]");
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(bad), &p), FAIRMINES_INVALID_STATE, "wrong commitment");
    state_text(bad, sizeof bad, "short", W_COMMITMENT, "1", "[]");
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(bad), &p), FAIRMINES_INVALID_STATE, "bad seed in state");
    state_text(bad, sizeof bad, WS, W_COMMITMENT, "-1", "[]");
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(bad), &p), FAIRMINES_INVALID_STATE, "negative nonce");
    /* Open rounds must be distinct nonces the pair has used. */
    state_text(bad, sizeof bad, WS, W_COMMITMENT, "7", "[7]");
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(bad), &p), FAIRMINES_INVALID_STATE, "open round 7 at nonce 7");
    CHECK(strstr(fairmines_last_error(), "open_rounds") != NULL, "message %s", fairmines_last_error());
    state_text(bad, sizeof bad, WS, W_COMMITMENT, "7", "[1,1]");
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(bad), &p), FAIRMINES_INVALID_STATE, "open round twice");
    /* open_rounds is required, and an unknown field is refused by name. */
    snprintf(bad, sizeof bad, "{\"server_seed\":\"%s\",\"commitment\":\"%s\",\"client_seed\":\"x\",\"nonce\":7}", WS,
             W_COMMITMENT);
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(bad), &p), FAIRMINES_INVALID_STATE, "no open_rounds");
    CHECK(strstr(fairmines_last_error(), "open_rounds") != NULL, "message %s", fairmines_last_error());
    state_text(bad, sizeof bad, WS, W_COMMITMENT, "7", "[],\"opne_rounds\":[1]");
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(bad), &p), FAIRMINES_INVALID_STATE, "unknown field");
    LAST_ERROR_NAMES("state");
    CHECK(strstr(fairmines_last_error(), "opne_rounds") != NULL, "message %s", fairmines_last_error());
    state_text(bad, sizeof bad, WS, W_COMMITMENT, "7", "[]");
    CHECK(p == sentinel, "out_pair written on error");
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(bad), &p), FAIRMINES_OK, "a good state");
    CHECK(p != sentinel, "a good state gives a handle");
    if (p != sentinel) {
        CHECK_STATUS(fairmines_seed_pair_nonce(p, &nonce), FAIRMINES_OK, "nonce");
        CHECK(nonce == 7, "state nonce");
        fairmines_seed_pair_free(p);
    }

    /* from_parts: the server seed as stored, 64 lowercase hex characters. */
    p = sentinel;
    char upper[65];
    for (size_t i = 0; i < 64; i++) upper[i] = (char)(WS[i] >= 'a' ? WS[i] - 32 : WS[i]);
    upper[64] = '\0';
    CHECK_STATUS(fairmines_seed_pair_from_parts(upper, 64, WC, WCL, 0, &p), FAIRMINES_INVALID_HEX, "upper-case seed");
    LAST_ERROR_NAMES("server_seed");
    CHECK_STATUS(fairmines_seed_pair_from_parts(WS, 63, WC, WCL, 0, &p), FAIRMINES_INVALID_HEX, "63 characters");
    CHECK_STATUS(fairmines_seed_pair_from_parts(S("my seed"), WC, WCL, 0, &p), FAIRMINES_INVALID_HEX, "not hex");
    CHECK(p == sentinel, "out_pair written on error");

    /* The last nonce: a round needs a next nonce, so a pair at 2^64 - 1 must be rotated first. */
    fairmines_seed_pair *last = pair_from_parts(WS, WSL, WC, WCL, UINT64_MAX);
    if (last) {
        fairmines_round *r = (fairmines_round *)&needed;
        CHECK_STATUS(fairmines_seed_pair_start_round(last, 3, S("0.99"), &r), FAIRMINES_INVALID_NONCE, "last nonce");
        LAST_ERROR_NAMES("nonce");
        CHECK(r == (fairmines_round *)&needed, "out_round written on error");
        CHECK_STATUS(fairmines_seed_pair_nonce(last, &nonce), FAIRMINES_OK, "nonce");
        CHECK(nonce == UINT64_MAX, "the pair is unchanged");
        fairmines_seed_pair_free(last);
    }
}

/* ---------------------------------------------------------------- payouts and ratios */

static void test_payouts(void) {
    fairmines_ratio m = {0, 0};
    CHECK_STATUS(fairmines_multiplier(3, 1, S("0.99"), &m), FAIRMINES_OK, "multiplier");
    CHECK(ratio_eq(m, 9, 8), "25/22 x 0.99 = 9/8");
    CHECK_STATUS(fairmines_multiplier(1, 1, S("1"), &m), FAIRMINES_OK, "1 mine");
    CHECK(ratio_eq(m, 25, 24), "C(25,1)/C(24,1)");
    CHECK_STATUS(fairmines_multiplier(24, 1, S("1"), &m), FAIRMINES_OK, "24 mines");
    CHECK(ratio_eq(m, 25, 1), "24 mines, one pick: 25");
    CHECK_STATUS(fairmines_multiplier(3, 22, S("1"), &m), FAIRMINES_OK, "3 mines, 22 picks");
    CHECK(ratio_eq(m, 2300, 1), "C(25,22)/C(22,22) = 2300");
    CHECK_STATUS(fairmines_multiplier(3, 22, S("99/100"), &m), FAIRMINES_OK, "with rtp");
    CHECK(ratio_eq(m, 2277, 1), "2300 x 0.99 = 2277");

    m.numer = 42;
    m.denom = 43;
    CHECK_STATUS(fairmines_multiplier(3, 0, S("1"), &m), FAIRMINES_INVALID_PICKS, "0 picks");
    LAST_ERROR_NAMES("safe_picks");
    CHECK_STATUS(fairmines_multiplier(3, 23, S("1"), &m), FAIRMINES_INVALID_PICKS, "23 picks with 3 mines");
    CHECK_STATUS(fairmines_multiplier(0, 1, S("1"), &m), FAIRMINES_INVALID_MINES, "0 mines");
    CHECK_STATUS(fairmines_multiplier(25, 1, S("1"), &m), FAIRMINES_INVALID_MINES, "25 mines");
    /* Wide values are judged whole: none of these wraps into range (257 would be 1 as a byte, 259 would
     * be 3, -1 would be 255). */
    static const int64_t bad_picks[] = {257, 256 + 22, -1, -255, INT64_MAX, INT64_MIN};
    for (size_t b = 0; b < sizeof bad_picks / sizeof bad_picks[0]; b++) {
        CHECK_STATUS(fairmines_multiplier(3, bad_picks[b], S("1"), &m), FAIRMINES_INVALID_PICKS, "wide safe_picks");
        LAST_ERROR_NAMES("safe_picks");
    }
    int picks = 257;
    CHECK_STATUS(fairmines_multiplier(3, picks, S("1"), &m), FAIRMINES_INVALID_PICKS, "int picks = 257");
    CHECK(strcmp(fairmines_last_error(), "safe_picks: must be in 1..=22 with 3 mines, got 257") == 0, "message %s",
          fairmines_last_error());
    int mines = 259;
    CHECK_STATUS(fairmines_multiplier(mines, 1, S("1"), &m), FAIRMINES_INVALID_MINES, "int mines = 259");
    CHECK(strcmp(fairmines_last_error(), "mines: must be an integer in 1..=24, got 259") == 0, "message %s",
          fairmines_last_error());
    CHECK_STATUS(fairmines_multiplier(-1, 1, S("1"), &m), FAIRMINES_INVALID_MINES, "-1 mines");
    CHECK(ratio_eq(m, 42, 43), "out_ratio written for a refused count");
    static const char *const bad_rtps[] = {"0", "1.01", "abc", "", "-0.5", "99/0", "2/1"};
    for (size_t i = 0; i < sizeof bad_rtps / sizeof bad_rtps[0]; i++) {
        CHECK_STATUS(fairmines_multiplier(3, 1, S(bad_rtps[i]), &m), FAIRMINES_INVALID_RTP, bad_rtps[i]);
        LAST_ERROR_NAMES("rtp");
    }
    /* A valid RTP whose exact multipliers need more than 64 bits. */
    CHECK_STATUS(fairmines_multiplier(12, 12, S("0.1234567890123456789"), &m), FAIRMINES_RATIO_TOO_LARGE, "huge");
    LAST_ERROR_NAMES("multiplier");
    CHECK(ratio_eq(m, 42, 43), "out_ratio written on error");
    /* 12 decimal places always fit (the documented bound). */
    CHECK_STATUS(fairmines_multiplier(12, 12, S("0.999999999999"), &m), FAIRMINES_OK, "12 places");

    /* The table: 300 entries, in order, each the multiplier, and each fixed-pick strategy returns the RTP. */
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
            CHECK(e.mines == mines && e.safe_picks == k, "entry %zu is (%u, %u)", i, e.mines, e.safe_picks);
            fairmines_ratio want;
            CHECK_STATUS(fairmines_multiplier(mines, k, S("0.99"), &want), FAIRMINES_OK, "multiplier");
            CHECK(ratio_eq(e.multiplier, want.numer, want.denom), "entry %zu multiplier", i);
            /* survival(m, k) = prod (25 - m - j) / (25 - j); survival x multiplier = 99/100 exactly. */
            uint64_t sn = 1, sd = 1;
            for (uint8_t j = 0; j < k; j++) {
                sn *= (uint64_t)(25 - mines - j);
                sd *= (uint64_t)(25 - j);
                uint64_t g = gcd64(sn, sd);
                sn /= g;
                sd /= g;
            }
            CHECK(e.multiplier.numer * sn * 100 == 99 * e.multiplier.denom * sd, "expected return of (%u, %u)", mines,
                  k);
        }
    }
    CHECK(i == FAIRMINES_PAYOUT_TABLE_SIZE, "table size %zu", i);
    free(table);

    /* Ratios: decimals rounded down, parsing. */
    char dec[64];
    size_t needed = 0;
    struct {
        fairmines_ratio r;
        int64_t places;
        const char *want;
    } decs[] = {{{2475, 100}, 2, "24.75"}, {{2, 3}, 2, "0.66"}, {{5, 1}, 0, "5"},   {{199, 100}, 1, "1.9"},
                {{1, 3}, 4, "0.3333"},     {{2, 4}, 1, "0.5"},  {{1, 3}, 18, "0.333333333333333333"},
                {{UINT64_MAX, 1}, 0, "18446744073709551615"}};
    for (size_t d = 0; d < sizeof decs / sizeof decs[0]; d++) {
        CHECK_STATUS(fairmines_ratio_decimal(decs[d].r, decs[d].places, dec, sizeof dec, &needed), FAIRMINES_OK, "dec");
        CHECK(strcmp(dec, decs[d].want) == 0 && needed == strlen(dec) + 1, "decimal %s, want %s", dec, decs[d].want);
    }
    /* More than 18 places is refused, naming places, never clamped; so are values that would wrap. */
    static const int64_t bad_places[] = {19, 40, -1, ((int64_t)1 << 32) + 2, INT64_MAX, INT64_MIN};
    fairmines_ratio third = {1, 3};
    for (size_t b = 0; b < sizeof bad_places / sizeof bad_places[0]; b++) {
        memset(dec, SENTINEL, sizeof dec);
        needed = 777;
        CHECK_STATUS(fairmines_ratio_decimal(third, bad_places[b], dec, sizeof dec, &needed), FAIRMINES_INVALID_NUMBER,
                     "places out of range");
        LAST_ERROR_NAMES("places");
        CHECK(untouched(dec, sizeof dec) && needed == 777, "outputs written for refused places");
    }
    CHECK_STATUS(fairmines_ratio_decimal(third, 19, dec, sizeof dec, &needed), FAIRMINES_INVALID_NUMBER, "19");
    CHECK(strcmp(fairmines_last_error(), "places: must be an integer in 0..=18, got 19") == 0, "message %s",
          fairmines_last_error());
    fairmines_ratio zero = {1, 0};
    memset(dec, SENTINEL, sizeof dec);
    CHECK_STATUS(fairmines_ratio_decimal(zero, 2, dec, sizeof dec, &needed), FAIRMINES_INVALID_NUMBER, "denom 0");
    LAST_ERROR_NAMES("ratio");
    fairmines_ratio nine_eighths = {9, 8};
    needed = 0;
    CHECK_STATUS(fairmines_ratio_decimal(nine_eighths, 2, dec, 4, &needed), FAIRMINES_BUFFER_TOO_SMALL, "dec small");
    CHECK(needed == 5 && untouched(dec, sizeof dec), "needed 5 for \"1.12\"");
    CHECK_STATUS(fairmines_ratio_decimal(nine_eighths, 2, dec, 0, &needed), FAIRMINES_BUFFER_TOO_SMALL, "capacity 0");

    fairmines_ratio r = {42, 43};
    CHECK_STATUS(fairmines_ratio_parse(S("0.99"), &r), FAIRMINES_OK, "parse 0.99");
    CHECK(ratio_eq(r, 99, 100), "0.99 is 99/100");
    CHECK_STATUS(fairmines_ratio_parse(S("198/200"), &r), FAIRMINES_OK, "parse 198/200");
    CHECK(ratio_eq(r, 99, 100), "lowest terms");
    CHECK_STATUS(fairmines_ratio_parse(S("2277"), &r), FAIRMINES_OK, "parse 2277");
    CHECK(ratio_eq(r, 2277, 1), "whole number");
    r.numer = 42;
    r.denom = 43;
    static const char *const bad_ratios[] = {"", "x", "1/0", "0.", "-1", "1.2.3", "1/-2"};
    for (size_t b = 0; b < sizeof bad_ratios / sizeof bad_ratios[0]; b++) {
        CHECK_STATUS(fairmines_ratio_parse(S(bad_ratios[b]), &r), FAIRMINES_INVALID_NUMBER, bad_ratios[b]);
        LAST_ERROR_NAMES("ratio");
    }
    CHECK_STATUS(fairmines_ratio_parse(S("18446744073709551616"), &r), FAIRMINES_RATIO_TOO_LARGE, "2^64");
    CHECK_STATUS(fairmines_ratio_parse(S("1/18446744073709551616"), &r), FAIRMINES_RATIO_TOO_LARGE, "1/2^64");
    CHECK(ratio_eq(r, 42, 43), "out_ratio written on error");
    CHECK_STATUS(fairmines_ratio_parse(S("18446744073709551615/18446744073709551614"), &r), FAIRMINES_OK, "max");
    CHECK(ratio_eq(r, UINT64_MAX, UINT64_MAX - 1), "the largest ratio");

    /* start_round refuses an RTP whose multipliers would not fit, before using the nonce. */
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 1);
    if (pair) {
        fairmines_round *round = NULL;
        uint64_t nonce = 0;
        CHECK_STATUS(fairmines_seed_pair_start_round(pair, 12, S("1/100000000000000000000"), &round),
                     FAIRMINES_RATIO_TOO_LARGE, "start_round, rtp too fine");
        LAST_ERROR_NAMES("rtp");
        CHECK_STATUS(fairmines_seed_pair_start_round(pair, 3, S("1.5"), &round), FAIRMINES_INVALID_RTP, "rtp 1.5");
        CHECK_STATUS(fairmines_seed_pair_start_round(pair, 0, S("1"), &round), FAIRMINES_INVALID_MINES, "0 mines");
        CHECK_STATUS(fairmines_seed_pair_start_round(pair, 25, S("1"), &round), FAIRMINES_INVALID_MINES, "25 mines");
        /* Judged whole: 259 would be 3 as a byte, -1 would be 255. */
        int wide = 259;
        CHECK_STATUS(fairmines_seed_pair_start_round(pair, wide, S("99/100"), &round), FAIRMINES_INVALID_MINES, "259");
        CHECK(strcmp(fairmines_last_error(), "mines: must be an integer in 1..=24, got 259") == 0, "message %s",
              fairmines_last_error());
        CHECK_STATUS(fairmines_seed_pair_start_round(pair, -1, S("99/100"), &round), FAIRMINES_INVALID_MINES, "-1");
        LAST_ERROR_NAMES("mines");
        CHECK_STATUS(fairmines_seed_pair_start_round(pair, INT64_MIN, S("1"), &round), FAIRMINES_INVALID_MINES, "min");
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

/* The sequence: a round with 5 mines and RTP 99/100, then a rotation while it is in play. */
static void test_rotation_with_a_round_in_play(void) {
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 0);
    if (!pair) return;
    fairmines_round *round = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 5, S("99/100"), &round), FAIRMINES_OK, "start 5 mines");
    if (!round) {
        fairmines_seed_pair_free(pair);
        return;
    }
    uint8_t grid[5];
    CHECK_STATUS(fairmines_mine_positions(WS, WSL, WC, WCL, 0, 5, grid, sizeof grid), FAIRMINES_OK, "grid of nonce 0");
    int safe[FAIRMINES_TILES], nsafe = 0;
    for (int tile = 1; tile <= FAIRMINES_TILES; tile++)
        if (!is_mine(grid, 5, tile)) safe[nsafe++] = tile;
    fairmines_reveal r;
    CHECK_STATUS(fairmines_round_reveal(round, safe[0], &r), FAIRMINES_OK, "a safe tile");
    char public_before[RECORD_SIZE], public_after[RECORD_SIZE];
    size_t needed = 0;
    CHECK_STATUS(fairmines_seed_pair_public_json(pair, public_before, sizeof public_before, &needed), FAIRMINES_OK,
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
    CHECK(strstr(fairmines_last_error(), "(nonce 0)") != NULL, "message %s", fairmines_last_error());
    CHECK(untouched(&revealed, sizeof revealed), "the seed was written on a refused rotation");
    CHECK_STATUS(fairmines_seed_pair_public_json(pair, public_after, sizeof public_after, &needed), FAIRMINES_OK,
                 "public json");
    CHECK(strcmp(public_before, public_after) == 0, "a refused rotation changed the pair: %s", public_after);
    CHECK(strstr(public_after, W_COMMITMENT_TEXT) && strstr(public_after, "\"nonce\":1"), "same seed, same nonce");

    /* The round is still in play and may still move. */
    uint64_t nonces[8];
    memset(nonces, SENTINEL, sizeof nonces);
    CHECK(open_rounds(pair, nonces) == 1 && nonces[0] == 0 && untouched(&nonces[1], 7 * sizeof nonces[0]),
          "nonce 0 is in play");
    CHECK_STATUS(fairmines_round_reveal(round, safe[1], &r), FAIRMINES_OK, "a second safe tile");
    CHECK(r.safe_picks == 2 && !r.is_finished, "two safe picks");

    /* Too small a buffer: nothing voided, the count reported, the buffer untouched. */
    size_t count = 99;
    memset(nonces, SENTINEL, sizeof nonces);
    CHECK_STATUS(fairmines_seed_pair_open_rounds(pair, nonces, 0, &count), FAIRMINES_BUFFER_TOO_SMALL, "open, 0");
    CHECK(count == 1 && untouched(nonces, sizeof nonces), "open_rounds on a small buffer");
    LAST_ERROR_NAMES("out_nonces");
    count = 99;
    CHECK_STATUS(fairmines_seed_pair_void_open_rounds(pair, nonces, 0, &count), FAIRMINES_BUFFER_TOO_SMALL, "void, 0");
    CHECK(count == 1 && untouched(nonces, sizeof nonces), "void_open_rounds on a small buffer");
    LAST_ERROR_NAMES("out_nonces");
    fairmines_round_info info;
    CHECK_STATUS(fairmines_round_get_info(round, &info), FAIRMINES_OK, "info");
    CHECK(info.outcome == FAIRMINES_OUTCOME_IN_PLAY && open_rounds(pair, nonces) == 1, "nothing was voided");

    /* Void it; then the pair rotates and reveals the seed. */
    count = 99;
    CHECK_STATUS(fairmines_seed_pair_void_open_rounds(pair, nonces, 1, &count), FAIRMINES_OK, "void");
    CHECK(count == 1 && nonces[0] == 0, "voided nonce 0");
    CHECK(open_rounds(pair, nonces) == 0, "no round in play after voiding");
    CHECK_STATUS(fairmines_seed_pair_void_open_rounds(pair, nonces, 0, &count), FAIRMINES_OK, "void nothing");
    CHECK(count == 0, "nothing left to void");
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, NULL, 0, &revealed), FAIRMINES_OK, "rotate after voiding");
    CHECK(strcmp(revealed.server_seed, WS) == 0 && revealed.rounds == 1, "the old seed is revealed");

    /* The voided round takes no more moves: not the safe tiles the revealed seed now shows, not a cash-out. */
    memset(&r, SENTINEL, sizeof r);
    CHECK_STATUS(fairmines_round_reveal(round, safe[2], &r), FAIRMINES_ROUND_VOIDED, "reveal a safe tile");
    CHECK(strcmp(fairmines_last_error(),
                 "the round was voided so its server seed could be revealed: no more reveals or cash-outs") == 0,
          "message %s", fairmines_last_error());
    CHECK_STATUS(fairmines_round_reveal(round, grid[0], &r), FAIRMINES_ROUND_VOIDED, "reveal a mine");
    CHECK_STATUS(fairmines_round_reveal(round, 99, &r), FAIRMINES_ROUND_VOIDED, "reveal off the board");
    CHECK(untouched(&r, sizeof r), "reveal result written on a voided round");
    fairmines_ratio paid = {7, 7};
    CHECK_STATUS(fairmines_round_cash_out(round, &paid), FAIRMINES_ROUND_VOIDED, "cash out");
    CHECK(ratio_eq(paid, 7, 7), "cash-out written on a voided round");

    /* Its state: finished as voided, no multiplier, two safe picks, the grid shown. */
    CHECK_STATUS(fairmines_round_get_info(round, &info), FAIRMINES_OK, "info");
    CHECK(info.outcome == FAIRMINES_OUTCOME_VOIDED && !info.has_multiplier && ratio_eq(info.multiplier, 0, 1) &&
              info.safe_picks == 2 && info.picks == 2 && info.nonce == 0 && info.mines == 5,
          "voided round info: outcome %u", (unsigned)info.outcome);
    uint8_t shown[5];
    CHECK_STATUS(fairmines_round_mine_positions(round, shown, sizeof shown), FAIRMINES_OK, "grid of a voided round");
    CHECK(memcmp(shown, grid, 5) == 0, "the voided round's grid");

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
    /* It pays nothing: the same picks with a multiplier do not verify. */
    snprintf(want, sizeof want,
             "{\"commitment\":\"" W_COMMITMENT_TEXT "\",\"client_seed\":\"" WC_TEXT "\",\"nonce\":0,\"mines\":5,"
             "\"rtp\":\"99/100\",\"picks\":[%d,%d],\"outcome\":\"voided\",\"multiplier\":\"2/1\"}",
             safe[0], safe[1]);
    CHECK(verify_text(want, &v, diff) == 0 && strstr(diff, "multiplier:") != NULL, "a voided record with a multiplier");
    /* A void cannot come after a mine, or after every safe tile (the last one cashes out). */
    snprintf(want, sizeof want,
             "{\"commitment\":\"" W_COMMITMENT_TEXT "\",\"client_seed\":\"" WC_TEXT "\",\"nonce\":0,\"mines\":5,"
             "\"rtp\":\"99/100\",\"picks\":[%d,%d],\"outcome\":\"voided\",\"multiplier\":null}",
             safe[0], grid[0]);
    CHECK(verify_text(want, &v, diff) == 0 && v.expected_outcome == FAIRMINES_OUTCOME_LOST, "voided after a mine");
    char all[200] = "";
    for (int i = 0, n = 0; i < nsafe; i++) n += snprintf(all + n, sizeof all - (size_t)n, "%s%d", i ? "," : "", safe[i]);
    snprintf(want, sizeof want,
             "{\"commitment\":\"" W_COMMITMENT_TEXT "\",\"client_seed\":\"" WC_TEXT "\",\"nonce\":0,\"mines\":5,"
             "\"rtp\":\"99/100\",\"picks\":[%s],\"outcome\":\"voided\",\"multiplier\":null}",
             all);
    CHECK(verify_text(want, &v, diff) == 0 && v.expected_outcome == FAIRMINES_OUTCOME_CASHED_OUT,
          "voided with every safe tile open");
    /* Records refuse unknown fields, naming them. */
    snprintf(want, sizeof want, "%.*s,\"commitmnet\":\"x\"}", (int)strlen(record) - 1, record);
    CHECK_STATUS(fairmines_verify_round_json(S(want), WS, WSL, &v, diff, sizeof diff, &needed),
                 FAIRMINES_INVALID_STATE, "a record with an unknown field");
    LAST_ERROR_NAMES("record");
    CHECK(strstr(fairmines_last_error(), "commitmnet") != NULL, "message %s", fairmines_last_error());

    /* The new pair starts clean: a finished round needs no voiding, the client seed change rotates. */
    fairmines_round *lost = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 24, S("1"), &lost), FAIRMINES_OK, "start");
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, S("next"), &revealed), FAIRMINES_ROUNDS_IN_PLAY, "in play");
    finish_round(lost);
    CHECK(open_rounds(pair, nonces) == 0, "a finished round is not in play");
    CHECK_STATUS(fairmines_seed_pair_rotate(pair, S("next"), &revealed), FAIRMINES_OK, "rotate after finishing");
    fairmines_round_free(lost);

    /* A round freed while in play stays in play for its pair until voided. */
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

/* The state JSON keeps the open rounds, and a restored pair refuses to rotate until it voids them. */
static void test_state_keeps_open_rounds(void) {
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 0), *restored = NULL;
    if (!pair) return;
    fairmines_round *a = NULL, *b = NULL, *c = NULL;
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 5, S("99/100"), &a), FAIRMINES_OK, "round 0");
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 24, S("1"), &b), FAIRMINES_OK, "round 1");
    CHECK_STATUS(fairmines_seed_pair_start_round(pair, 3, S("1"), &c), FAIRMINES_OK, "round 2");
    finish_round(b);
    char state[RECORD_SIZE];
    size_t needed = 0;
    CHECK_STATUS(fairmines_seed_pair_state_json(pair, state, sizeof state, &needed), FAIRMINES_OK, "state");
    CHECK(strstr(state, "\"nonce\":3,\"open_rounds\":[0,2]}") != NULL, "state %s", state);
    CHECK_STATUS(fairmines_seed_pair_from_state_json(S(state), &restored), FAIRMINES_OK, "restore");
    if (restored) {
        uint64_t nonces[8];
        CHECK(open_rounds(restored, nonces) == 2 && nonces[0] == 0 && nonces[1] == 2, "restored open rounds");
        fairmines_revealed_seed_pair revealed;
        memset(&revealed, SENTINEL, sizeof revealed);
        CHECK_STATUS(fairmines_seed_pair_rotate(restored, NULL, 0, &revealed), FAIRMINES_ROUNDS_IN_PLAY,
                     "a restored pair with open rounds");
        CHECK(strstr(fairmines_last_error(), "2 round(s) in play (nonce 0, 2)") != NULL, "message %s",
              fairmines_last_error());
        CHECK(untouched(&revealed, sizeof revealed), "revealed written on a refused rotation");
        char again[RECORD_SIZE];
        CHECK_STATUS(fairmines_seed_pair_state_json(restored, again, sizeof again, &needed), FAIRMINES_OK, "state");
        CHECK(strcmp(state, again) == 0, "the state round trip: %s", again);
        size_t count = 0;
        CHECK_STATUS(fairmines_seed_pair_void_open_rounds(restored, nonces, 8, &count), FAIRMINES_OK, "void");
        CHECK(count == 2 && nonces[0] == 0 && nonces[1] == 2, "voided the restored open rounds");
        CHECK_STATUS(fairmines_seed_pair_rotate(restored, NULL, 0, &revealed), FAIRMINES_OK, "rotate when voided");
        CHECK(strcmp(revealed.server_seed, WS) == 0 && revealed.rounds == 3, "revealed after voiding");
        fairmines_seed_pair_free(restored);
    }
    /* The original pair still holds its own rounds (one live copy of a pair: see the header). */
    uint64_t nonces[8];
    CHECK(open_rounds(pair, nonces) == 2, "the original's rounds");
    fairmines_round_free(a);
    fairmines_round_free(b);
    fairmines_round_free(c);
    fairmines_seed_pair_free(pair);
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
    NULL_CASE(fairmines_seed_pair_state_json(NULL, buf, sizeof buf, &needed), "pair");
    NULL_CASE(fairmines_seed_pair_state_json(pair, NULL, sizeof buf, &needed), "out");
    NULL_CASE(fairmines_seed_pair_state_json(pair, buf, sizeof buf, NULL), "out_needed");
    NULL_CASE(fairmines_seed_pair_public_json(NULL, buf, sizeof buf, &needed), "pair");
    NULL_CASE(fairmines_seed_pair_public_json(pair, NULL, 0, &needed), "out");
    NULL_CASE(fairmines_seed_pair_public_json(pair, buf, sizeof buf, NULL), "out_needed");
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
    NULL_CASE(fairmines_round_reveal(round, 1, NULL), "out_result");
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
    NULL_CASE(fairmines_ratio_decimal(ratio, 2, NULL, 10, &needed), "out");
    NULL_CASE(fairmines_ratio_decimal(ratio, 2, buf, 10, NULL), "out_needed");
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
    CHECK(r.is_mine && r.is_finished && r.safe_picks == 0 && ratio_eq(r.multiplier, 0, 1), "a mine on the first pick");
    CHECK_STATUS(fairmines_round_mine_positions(lost, hidden, 3), FAIRMINES_OK, "grid");
    CHECK(memcmp(hidden, grid, 3) == 0, "the round's grid is fairmines_mine_positions of its nonce");
    CHECK_STATUS(fairmines_round_reveal(lost, grid[0], &r), FAIRMINES_ROUND_FINISHED, "reveal after a mine");
    CHECK_STATUS(fairmines_round_cash_out(lost, &ratio), FAIRMINES_ROUND_FINISHED, "cash-out after a mine");
    CHECK(strstr(fairmines_last_error(), "finished") != NULL, "message %s", fairmines_last_error());
    CHECK_STATUS(fairmines_round_get_info(lost, &info), FAIRMINES_OK, "info");
    CHECK(info.outcome == FAIRMINES_OUTCOME_LOST && !info.has_multiplier && info.safe_picks == 0 && info.picks == 1,
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
    const played_round *expected; /* one per case, from this thread's own single-threaded run */
    size_t start;
    long failures;
    size_t rounds;
} thread_job;

static void case_fields(const json_value *c, const char **server, size_t *server_len, const char **client,
                        size_t *client_len, uint64_t *nonce, uint8_t *mines, uint8_t *positions) {
    const json_value *s = json_get(c, "server_seed"), *cl = json_get(c, "client_seed");
    const json_value *pos = json_get(c, "positions");
    *server = s->str;
    *server_len = s->len;
    *client = cl->str;
    *client_len = cl->len;
    *nonce = json_get(c, "nonce")->uint;
    *mines = (uint8_t)json_get(c, "mines")->uint;
    for (size_t i = 0; i < *mines; i++) positions[i] = (uint8_t)pos->items[i].uint;
}

/* Every case, from a different starting point in each thread: positions (fairmines_mine_positions)
 * and a round played on the grid must equal the single-threaded results exactly. The CHECK counters
 * are not touched from threads; each thread counts its own failures. */
static void *thread_main(void *arg) {
    thread_job *job = arg;
    size_t n = job->cases->count;
    for (size_t step = 0; step < n; step++) {
        size_t i = (job->start + step) % n;
        const char *server, *client;
        size_t server_len, client_len;
        uint64_t nonce;
        uint8_t mines, positions[FAIRMINES_TILES], got[FAIRMINES_TILES];
        case_fields(&job->cases->items[i], &server, &server_len, &client, &client_len, &nonce, &mines, positions);
        if (fairmines_mine_positions(server, server_len, client, client_len, nonce, mines, got, sizeof got) !=
                FAIRMINES_OK ||
            memcmp(got, positions, mines) != 0)
            job->failures++;
        const played_round *want = &job->expected[i];
        if (want->status != FAIRMINES_OK) continue;
        /* Play the same round as the single-threaded run, without the CHECK counters. */
        fairmines_seed_pair *pair = NULL;
        fairmines_round *round = NULL;
        char record[RECORD_SIZE];
        size_t needed;
        if (fairmines_seed_pair_from_parts(server, server_len, client, client_len, nonce, &pair) != FAIRMINES_OK ||
            fairmines_seed_pair_start_round(pair, mines, S(RTPS[i % 4]), &round) != FAIRMINES_OK) {
            job->failures++;
            fairmines_seed_pair_free(pair);
            continue;
        }
        fairmines_seed_pair_free(pair);
        fairmines_reveal r = {0};
        int safe = 0;
        for (int tile = FAIRMINES_TILES; tile >= 1 && !r.is_finished && safe < 3; tile--) {
            if (is_mine(positions, mines, tile)) continue;
            if (fairmines_round_reveal(round, tile, &r) != FAIRMINES_OK || r.is_mine) job->failures++;
            safe++;
        }
        fairmines_ratio paid;
        if (!r.is_finished && fairmines_round_cash_out(round, &paid) != FAIRMINES_OK) job->failures++;
        if (fairmines_round_mine_positions(round, got, sizeof got) != FAIRMINES_OK ||
            memcmp(got, want->positions, mines) != 0)
            job->failures++;
        if (fairmines_round_record_json(round, record, sizeof record, &needed) != FAIRMINES_OK ||
            strcmp(record, want->record) != 0)
            job->failures++;
        /* Each thread keeps its own last error. */
        if (fairmines_round_reveal(round, 0, &r) != FAIRMINES_ROUND_FINISHED ||
            strcmp(fairmines_last_error(), "the round has finished: no more reveals or cash-outs") != 0)
            job->failures++;
        fairmines_round_free(round);
        job->rounds++;
    }
    return NULL;
}

/* One seed pair shared by threads under a lock (the documented rule): every nonce is used once. */
typedef struct {
    fairmines_seed_pair *pair;
    pthread_mutex_t *lock;
    uint64_t nonces[50];
    long failures;
} shared_job;

static void *shared_main(void *arg) {
    shared_job *job = arg;
    for (size_t i = 0; i < 50; i++) {
        fairmines_round *round = NULL;
        pthread_mutex_lock(job->lock);
        fairmines_status s = fairmines_seed_pair_start_round(job->pair, 5, S("0.99"), &round);
        pthread_mutex_unlock(job->lock);
        fairmines_round_info info;
        if (s != FAIRMINES_OK || fairmines_round_get_info(round, &info) != FAIRMINES_OK)
            job->failures++;
        else
            job->nonces[i] = info.nonce;
        fairmines_round_free(round); /* the round is this thread's own: no lock */
    }
    return NULL;
}

enum { THREADS = 8 };

void game_thread_tests(const json_value *cases) {
    played_round *expected = calloc(cases->count, sizeof *expected);
    if (!expected) return;
    /* Single-threaded first: the results every thread must reproduce. */
    for (size_t i = 0; i < cases->count; i++) {
        const char *server, *client;
        size_t server_len, client_len;
        uint64_t nonce;
        uint8_t mines, positions[FAIRMINES_TILES];
        case_fields(&cases->items[i], &server, &server_len, &client, &client_len, &nonce, &mines, positions);
        play_round(server, server_len, client, client_len, nonce, mines, positions, RTPS[i % 4], 0, &expected[i]);
    }
    pthread_t threads[THREADS];
    thread_job jobs[THREADS];
    for (int t = 0; t < THREADS; t++) {
        jobs[t] = (thread_job){cases, expected, (size_t)t * cases->count / THREADS, 0, 0};
        CHECK(pthread_create(&threads[t], NULL, thread_main, &jobs[t]) == 0, "pthread_create");
    }
    size_t rounds = 0, playable = 0;
    for (size_t i = 0; i < cases->count; i++) playable += expected[i].status == FAIRMINES_OK;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(threads[t], NULL);
        CHECK(jobs[t].failures == 0, "thread %d: %ld differences from the single-threaded results", t,
              jobs[t].failures);
        CHECK(jobs[t].rounds == playable, "thread %d played %zu rounds of %zu", t, jobs[t].rounds, playable);
        rounds += jobs[t].rounds;
    }
    CHECK(playable > 1000, "rounds to play: %zu", playable);
    free(expected);

    /* A shared handle behind a mutex. */
    fairmines_seed_pair *pair = pair_from_parts(WS, WSL, WC, WCL, 0);
    if (!pair) return;
    pthread_mutex_t lock;
    pthread_mutex_init(&lock, NULL);
    shared_job shared[4];
    pthread_t st[4];
    for (int t = 0; t < 4; t++) {
        shared[t] = (shared_job){pair, &lock, {0}, 0};
        pthread_create(&st[t], NULL, shared_main, &shared[t]);
    }
    unsigned char seen[200] = {0};
    for (int t = 0; t < 4; t++) {
        pthread_join(st[t], NULL);
        CHECK(shared[t].failures == 0, "shared pair, thread %d", t);
        for (size_t i = 0; i < 50; i++)
            if (shared[t].nonces[i] < 200) seen[shared[t].nonces[i]]++;
    }
    int each_once = 1;
    for (size_t i = 0; i < 200; i++) each_once &= seen[i] == 1;
    CHECK(each_once, "200 rounds of a shared pair used nonces 0..199 once each");
    pthread_mutex_destroy(&lock);
    fairmines_seed_pair_free(pair);
    printf("fairmines C tests: %d threads played %zu rounds at once, as single-threaded\n", THREADS, rounds);
}

void game_tests(void) {
    test_worked_round();
    test_records();
    test_seed_pairs();
    test_payouts();
    test_rotation_with_a_round_in_play();
    test_state_keeps_open_rounds();
    test_game_nulls();
    printf("fairmines C tests: %zu vector cases played as rounds (won and lost)\n", cases_played);
}
