// Verifies the worked example of ALGORITHM.md with fairmines_verify(), then shows how a refused argument
// reads: a status other than FAIRMINES_OK, and fairmines_last_error(), which names the argument.
#include <fairmines.h>

#include <cstdio>
#include <string_view>

namespace {

constexpr std::string_view kServer = "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a";
constexpr std::string_view kClient = "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817";
constexpr std::string_view kCommitment = "f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42";

}  // namespace

int main() {
    const std::uint8_t declared[] = {7, 10, 19};
    fairmines_verification v{};
    fairmines_status s = fairmines_verify(kServer.data(), kServer.size(), kClient.data(), kClient.size(), 1, 3,
                                          kCommitment.data(), kCommitment.size(), declared, sizeof declared, &v);
    if (s != FAIRMINES_OK) {
        std::fprintf(stderr, "%s: %s\n", fairmines_status_str(s), fairmines_last_error());
        return 2;
    }
    std::printf("positions");
    for (unsigned i = 0; i < v.mines; i++) std::printf(" %u", v.positions[i]);
    std::printf("\nverdict %s\n", v.ok ? "OK" : "MISMATCH");

    std::uint8_t positions[FAIRMINES_TILES];
    s = fairmines_mine_positions(kServer.data(), kServer.size(), kClient.data(), kClient.size(), 1, 25, positions,
                                 sizeof positions);
    if (s != FAIRMINES_OK) std::printf("25 mines refused: %s\n", fairmines_last_error());
    return v.ok ? 0 : 1;
}
