// C++17 smoke test of the installed fairmines package (static library through find_package):
// the worked example of ALGORITHM.md (its round resumed after a restart), errors, and concurrent calls
// from several threads.
#include <fairmines.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char *what) {
    if (!ok) {
        std::fprintf(stderr, "FAIL: %s (last error: %s)\n", what, fairmines_last_error());
        ++failures;
    }
}

// A small C++ wrapper: string_view in, std::array out, the status as the error.
fairmines_status positions(std::string_view server, std::string_view client, std::uint64_t nonce, std::int64_t mines,
                           std::vector<std::uint8_t> &out) {
    std::array<std::uint8_t, FAIRMINES_TILES> buf{};
    fairmines_status status = fairmines_mine_positions(server.data(), server.size(), client.data(), client.size(),
                                                       nonce, mines, buf.data(), buf.size());
    if (status == FAIRMINES_OK) out.assign(buf.begin(), buf.begin() + mines);
    return status;
}

constexpr std::string_view kServer = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
constexpr std::string_view kClient = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";

// Handles in std::unique_ptr: the deleter is the library's _free.
struct PairFree {
    void operator()(fairmines_seed_pair *p) const { fairmines_seed_pair_free(p); }
};
struct RoundFree {
    void operator()(fairmines_round *r) const { fairmines_round_free(r); }
};
using Pair = std::unique_ptr<fairmines_seed_pair, PairFree>;
using Round = std::unique_ptr<fairmines_round, RoundFree>;

}  // namespace

int main() {
    static_assert(FAIRMINES_HEX_SIZE == 65, "hex buffers hold 64 characters and a NUL");
    static_assert(std::is_enum_v<fairmines_status>, "in C++ the status is a real enum");

    std::array<char, FAIRMINES_HEX_SIZE> hex{};
    check(fairmines_commitment(kServer.data(), kServer.size(), hex.data()) == FAIRMINES_OK, "commitment");
    check(std::string(hex.data()) == "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42",
          "commitment value");

    std::vector<std::uint8_t> mines;
    check(positions(kServer, kClient, 1, 3, mines) == FAIRMINES_OK, "positions");
    check((mines == std::vector<std::uint8_t>{7, 10, 19}), "positions value");

    check(positions(kServer, kClient, 1, 0, mines) == FAIRMINES_INVALID_MINES, "mines 0");
    check(std::string_view(fairmines_last_error()).rfind("mines:", 0) == 0, "message names mines");
    int wide = 259;  // would be 3 as a byte: refused whole
    check(positions(kServer, kClient, 1, wide, mines) == FAIRMINES_INVALID_MINES, "mines 259");
    check(std::string_view(fairmines_last_error()) == "mines: must be a whole number from 1 to 24, got 259", "259 named");
    check(std::string_view(fairmines_status_str(FAIRMINES_NULL_POINTER)).size() > 0, "status_str");
    check(std::string(fairmines_version()) == FAIRMINES_VERSION_STRING, "version");

    fairmines_verification v{};
    const std::uint8_t declared[] = {19, 10, 7};
    check(fairmines_verify(kServer.data(), kServer.size(), kClient.data(), kClient.size(), 1, 3, nullptr, 0, declared,
                           3, &v) == FAIRMINES_OK && v.ok && v.verdict == FAIRMINES_VERDICT_OK &&
              v.positions_ok == FAIRMINES_CHECK_PASSED,
          "verify");
    check(fairmines_verify(kServer.data(), kServer.size(), kClient.data(), kClient.size(), 1, 3, nullptr, 0, nullptr,
                           0, &v) == FAIRMINES_OK && !v.ok && v.verdict == FAIRMINES_VERDICT_UNCHECKED,
          "nothing to check is unchecked, not ok");

    // The game: the worked example's round (mines at 7, 10, 19), tiles 1 and 2, cash-out at 9/7.
    fairmines_seed_pair *raw_pair = nullptr;
    check(fairmines_seed_pair_from_parts(kServer.data(), kServer.size(), kClient.data(), kClient.size(), 1,
                                         &raw_pair) == FAIRMINES_OK,
          "seed pair");
    Pair pair(raw_pair);
    fairmines_round *raw_round = nullptr;
    constexpr std::string_view rtp = "0.99";
    check(fairmines_seed_pair_start_round(pair.get(), 3, rtp.data(), rtp.size(), &raw_round) == FAIRMINES_OK,
          "start round");
    Round round(raw_round);
    fairmines_reveal reveal{};
    check(fairmines_round_reveal(round.get(), 1, &reveal) == FAIRMINES_OK && reveal.safe && reveal.tile == 1, "reveal 1");
    // A restart: the stored state holds the pick; the pair comes back from it, and the round by its nonce.
    std::string state(1024, '\0');
    std::size_t state_len = 0;
    check(fairmines_seed_pair_to_state_json(pair.get(), state.data(), state.size(), &state_len) == FAIRMINES_OK,
          "store the state");
    state.resize(state_len - 1);
    round.reset();
    pair.reset();
    check(fairmines_seed_pair_from_state_json(state.data(), state.size(), &raw_pair) == FAIRMINES_OK, "restore");
    pair.reset(raw_pair);
    raw_round = nullptr;
    check(fairmines_seed_pair_round(pair.get(), 1, &raw_round) == FAIRMINES_OK, "resume round 1");
    round.reset(raw_round);
    fairmines_round *again = nullptr;
    check(fairmines_seed_pair_round(pair.get(), 1, &again) == FAIRMINES_ROUND_NOT_IN_PLAY && again == nullptr,
          "a round is handed out once while its handle lives");
    check(fairmines_round_reveal(round.get(), 2, &reveal) == FAIRMINES_OK && reveal.safe_picks == 2, "reveal 2");
    // The seed stays secret while the round is in play: rotation is refused, the pair unchanged.
    fairmines_revealed_seed_pair revealed{};
    check(fairmines_seed_pair_rotate(pair.get(), nullptr, 0, &revealed) == FAIRMINES_ROUNDS_IN_PLAY &&
              revealed.server_seed[0] == '\0',
          "rotate with a round in play");
    std::array<std::uint64_t, 4> open{};
    std::size_t open_count = 0;
    check(fairmines_seed_pair_open_rounds(pair.get(), open.data(), open.size(), &open_count) == FAIRMINES_OK &&
              open_count == 1 && open[0] == 1,
          "the round in play is nonce 1");
    fairmines_ratio paid{};
    check(fairmines_round_cash_out(round.get(), &paid) == FAIRMINES_OK && paid.numer == 9 && paid.denom == 7,
          "cash out 9/7");
    std::string record(512, '\0');
    std::size_t needed = 0;
    check(fairmines_round_record_json(round.get(), record.data(), record.size(), &needed) == FAIRMINES_OK, "record");
    record.resize(needed - 1);
    fairmines_round_verification verdict{};
    std::array<char, 1024> differences{};
    check(fairmines_verify_round_json(record.data(), record.size(), kServer.data(), kServer.size(), &verdict,
                                      differences.data(), differences.size(), &needed) == FAIRMINES_OK &&
              verdict.ok,
          "the record verifies");
    check(fairmines_round_reveal(round.get(), 3, &reveal) == FAIRMINES_ROUND_FINISHED, "finished");
    // Finished: nothing in play, so the pair rotates and reveals the seed the record was played with.
    check(fairmines_seed_pair_rotate(pair.get(), nullptr, 0, &revealed) == FAIRMINES_OK &&
              std::string_view(revealed.server_seed) == kServer,
          "rotate once the round has finished");

    // Every thread computes its own rounds and keeps its own last error.
    std::vector<std::thread> threads;
    std::array<int, 4> thread_failures{};
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([t, &thread_failures] {
            for (std::uint64_t nonce = 0; nonce < 200; ++nonce) {
                std::vector<std::uint8_t> a, b;
                std::uint8_t mines_count = static_cast<std::uint8_t>(1 + (nonce + t) % 24);
                if (positions(kServer, kClient, nonce, mines_count, a) != FAIRMINES_OK ||
                    positions(kServer, kClient, nonce, mines_count, b) != FAIRMINES_OK || a != b ||
                    a.size() != mines_count)
                    ++thread_failures[t];
                if (fairmines_commitment(nullptr, 0, nullptr) != FAIRMINES_NULL_POINTER ||
                    std::string_view(fairmines_last_error()) != "server_seed: is NULL")
                    ++thread_failures[t];
            }
        });
    }
    for (auto &thread : threads) thread.join();
    for (int f : thread_failures) check(f == 0, "threads");

    std::printf("fairmines C++ smoke test: %s\n", failures == 0 ? "ok" : "FAILED");
    return failures == 0 ? 0 : 1;
}
