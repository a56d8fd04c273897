#!/usr/bin/env bash
# Test of the fairmines C library (bindings/c). Runnable from any directory, as root on a fresh
# machine (installs missing Debian packages), non-interactive. Exits non-zero on any failure.
#  1. cargo test -p fairmines-c: the checked-in include/fairmines.h equals a fresh cbindgen generation,
#     every error kind of the core is its status (code, name, summary), and the panic boundary.
#  2. The release build; rustc's native-static-libs equal the documented static link flags.
#  3. The C11 suite (every case of vectors/vectors.json through every function, every argument's
#     conversion and status, a smoke of the game, threads sharing handles) against the static library,
#     the shared library, under ASan+UBSan and under valgrind.
#  4. scripts/install-c.sh into a temporary PREFIX, then consumers of the installed package:
#     C11 via pkg-config (static and shared), the examples mines.c and verify_round.c and every C
#     program of bindings/c/README.md (shared), C++17 via CMake find_package (static, ASan and valgrind).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
export CI="${CI:-true}"

step() { printf '\n==> %s\n' "$*"; }
need() { command -v "$1" >/dev/null 2>&1; }

# -- tools ----------------------------------------------------------------------------------------
missing=()
need cc || missing+=(gcc)
need c++ || missing+=(g++)
need make || missing+=(make)
need cmake || missing+=(cmake)
need pkg-config || missing+=(pkgconf)
need valgrind || missing+=(valgrind)
need readelf || missing+=(binutils)
if [ "${#missing[@]}" -gt 0 ]; then
    step "installing ${missing[*]}"
    if [ "$(id -u)" = 0 ] && need apt-get; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" libc6-dev
    else
        echo "test-c: missing ${missing[*]} (install them, or run as root on Debian)" >&2
        exit 1
    fi
fi
need cargo || { echo "test-c: cargo is required" >&2; exit 1; }

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
VECTORS="$ROOT/vectors/vectors.json"
[ -f "$VECTORS" ] || { echo "test-c: $VECTORS is missing" >&2; exit 1; }

# -- 1. header and Rust-side tests -----------------------------------------------------------------
step "cargo test -p fairmines-c (header up to date, status codes against the core's kinds, panic boundary)"
cargo test -p fairmines-c

# -- 2. release build and the static link flags -----------------------------------------------------
step "release build (cargo rustc --release -p fairmines-c --lib -- --print native-static-libs)"
# cargo replays rustc's note from its cache when nothing changed, so this is cheap on re-runs.
cargo rustc --release -p fairmines-c --lib -- --print native-static-libs 2>"$TMP/build.log" || {
    cat "$TMP/build.log" >&2
    exit 1
}
got="$(sed -n 's/^note: native-static-libs: //p' "$TMP/build.log" | head -n 1)"
documented="$(sed -n 's/^FAIRMINES_NATIVE_STATIC_LIBS="\(.*\)"$/\1/p' scripts/install-c.sh)"
echo "rustc:      $got"
echo "documented: $documented"
if [ -z "$got" ] || [ "$got" != "$documented" ]; then
    echo "test-c: the native static libraries changed; update FAIRMINES_NATIVE_STATIC_LIBS in" \
        "scripts/install-c.sh, bindings/c/README.md and STATIC_LIBS in bindings/c/tests/Makefile" >&2
    exit 1
fi
grep -qF -- "$documented" bindings/c/README.md || { echo "test-c: README lists other static link flags" >&2; exit 1; }
grep -qF -- "STATIC_LIBS ?= $documented" bindings/c/tests/Makefile || { echo "test-c: Makefile STATIC_LIBS differ" >&2; exit 1; }
readelf -d target/release/libfairmines.so | grep -q 'SONAME.*\[libfairmines.so\]' || {
    echo "test-c: libfairmines.so has no SONAME" >&2
    exit 1
}

# -- 3. the C11 suite ---------------------------------------------------------------------------------
step "C11 suite: static, shared, ASan+UBSan, valgrind"
make -C bindings/c/tests --no-print-directory VECTORS="$VECTORS" test shared asan valgrind

# The independent checker's link line: only -lpthread -ldl -lm besides the archive.
cc -std=c11 -Wall -Wextra -Werror -pedantic -pthread -O1 -Iinclude -o "$TMP/checker_link" \
    bindings/c/tests/test_fairmines.c bindings/c/tests/test_game.c bindings/c/tests/json.c \
    target/release/libfairmines.a -lpthread -ldl -lm
"$TMP/checker_link" "$VECTORS" >/dev/null

# -- 4. install, then consumers of the installed package ----------------------------------------------
PREFIX="$TMP/prefix"
step "scripts/install-c.sh $PREFIX"
FAIRMINES_NO_BUILD=1 scripts/install-c.sh "$PREFIX"
for f in include/fairmines.h lib/libfairmines.a lib/libfairmines.so lib/pkgconfig/fairmines.pc \
    lib/cmake/fairmines/fairmines-config.cmake lib/cmake/fairmines/fairmines-config-version.cmake; do
    [ -f "$PREFIX/$f" ] || { echo "test-c: $f was not installed" >&2; exit 1; }
done
cmp include/fairmines.h "$PREFIX/include/fairmines.h"

export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
step "pkg-config consumer, static: the C11 suite against the installed archive"
[ "$(pkg-config --modversion fairmines)" = "$(sed -n 's/^#define FAIRMINES_VERSION_STRING "\(.*\)"$/\1/p' include/fairmines.h)" ]
# Libs.private must carry exactly the documented flags (pkg-config may fold repeated flags).
libs_private="$(sed -n 's/^Libs.private: //p' "$PREFIX/lib/pkgconfig/fairmines.pc")"
[ "$(pkg-config --variable=native_static_libs fairmines)" = "$documented" ] && [ "$libs_private" = '${native_static_libs}' ]
for flag in $documented; do
    pkg-config --static --libs fairmines | tr ' ' '\n' | grep -qx -- "$flag" || {
        echo "test-c: pkg-config --static --libs fairmines lacks $flag" >&2
        exit 1
    }
done
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -pedantic -pthread -O2 -o "$TMP/pc_static" \
    bindings/c/tests/test_fairmines.c bindings/c/tests/test_game.c bindings/c/tests/json.c \
    $(pkg-config --cflags fairmines) \
    "$(pkg-config --variable=staticlib fairmines)" $(pkg-config --variable=native_static_libs fairmines)
if readelf -d "$TMP/pc_static" | grep -q 'NEEDED.*libfairmines'; then
    echo "test-c: the static consumer needs libfairmines.so" >&2
    exit 1
fi
"$TMP/pc_static" "$VECTORS"

step "pkg-config consumer, shared: the example program"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -pedantic -O2 -o "$TMP/mines" bindings/c/examples/mines.c \
    $(pkg-config --cflags --libs fairmines) -Wl,-rpath,"$PREFIX/lib"
readelf -d "$TMP/mines" | grep -q 'NEEDED.*\[libfairmines.so\]'
ws=b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a
wc=d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817
out="$("$TMP/mines" "$ws" "$wc" 1 3 19 10 7)"
echo "$out"
grep -qx 'positions  7 10 19' <<<"$out" && grep -qx 'declared positions VERIFIED' <<<"$out"
if "$TMP/mines" "$ws" "$wc" 1 3 7 10 20 >/dev/null; then
    echo "test-c: wrong declared positions verified" >&2
    exit 1
fi

step "pkg-config consumer, shared: examples/verify_round.c (exit 0 verified, 1 not, 2 bad input)"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -pedantic -O2 -o "$TMP/verify_round" bindings/c/examples/verify_round.c \
    $(pkg-config --cflags --libs fairmines) -Wl,-rpath,"$PREFIX/lib"
# The worked example's round (nonce 1, mines at 7 10 19), tiles 1 and 2 picked, cashed out at
# 25/22 x 24/21 x 99/100 = 9/7.
wcommit=f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42
record() { # picks outcome multiplier
    printf '{"commitment":"%s","client_seed":"%s","nonce":1,"mines":3,"rtp":"99/100","picks":[%s],"outcome":"%s","multiplier":%s}' \
        "$wcommit" "$wc" "$1" "$2" "$3"
}
expect_exit() { # status, then the command
    local want="$1" got=0
    shift
    "$@" >"$TMP/verify.out" 2>&1 || got=$?
    cat "$TMP/verify.out"
    if [ "$got" != "$want" ]; then
        echo "test-c: exit status $got, want $want: $*" >&2
        exit 1
    fi
}
expect_exit 0 "$TMP/verify_round" "$(record 1,2 cashed_out '"9/7"')" "$ws"
grep -qx 'verdict    VERIFIED' "$TMP/verify.out" && grep -qx 'mines      7 10 19' "$TMP/verify.out"
grep -qx 'replayed   cashed_out, multiplier 9/7 (1.28)' "$TMP/verify.out"
record 1,10 lost null >"$TMP/record.json"
expect_exit 0 "$TMP/verify_round" "@$TMP/record.json" "$ws"
expect_exit 0 "$TMP/verify_round" @- "$ws" <"$TMP/record.json"
expect_exit 1 "$TMP/verify_round" "$(record 1,2 cashed_out '"10/7"')" "$ws"
grep -q '^difference multiplier: ' "$TMP/verify.out" && grep -qx 'verdict    NOT VERIFIED' "$TMP/verify.out"
expect_exit 1 "$TMP/verify_round" "$(record 1,7 cashed_out '"9/7"')" "$ws"
expect_exit 1 "$TMP/verify_round" "$(record 1,2 cashed_out '"9/7"')" "$wc"
grep -q '^difference commitment: ' "$TMP/verify.out"
expect_exit 2 "$TMP/verify_round" '{"not":"a record"}' "$ws"
expect_exit 2 "$TMP/verify_round" "$(record 1,26 cashed_out '"9/7"')" "$ws"
expect_exit 2 "$TMP/verify_round" "@$TMP/no-such-file" "$ws"
expect_exit 2 "$TMP/verify_round" "$(record 1,2 cashed_out '"9/7"')"
expect_exit 2 "$TMP/verify_round" "$(printf '\377')" "$ws"
valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
    --suppressions=bindings/c/tests/valgrind.supp "$TMP/verify_round" "$(record 1,2 cashed_out '"10/7"')" "$ws" \
    >/dev/null || [ $? = 1 ] || { echo "test-c: verify_round under valgrind" >&2; exit 1; }

step "pkg-config consumer, shared: every C program of bindings/c/README.md"
awk -v dir="$TMP" '/^```c$/ { n++; file = dir "/readme_" n ".c"; inside = 1; next }
     inside && /^```$/ { inside = 0; close(file); next } inside { print > file }' bindings/c/README.md
[ -s "$TMP/readme_2.c" ] || { echo "test-c: bindings/c/README.md has fewer C programs than expected" >&2; exit 1; }
for src in "$TMP"/readme_*.c; do
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror -pedantic -O2 -o "${src%.c}" "$src" \
        $(pkg-config --cflags --libs fairmines) -Wl,-rpath,"$PREFIX/lib"
    "${src%.c}" | tee "${src%.c}.out"
done
# The usage example prints the worked example's mines; the game example ends with its verdict.
grep -qx '7 10 19' "$TMP/readme_1.out"
grep -qx 'VERIFIED' "$TMP/readme_2.out"

step "CMake consumer (C++17, find_package(fairmines), static): plain under valgrind, and ASan+UBSan"
cmake -S bindings/c/tests/cpp -B "$TMP/cpp" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$TMP/cpp" >/dev/null
if readelf -d "$TMP/cpp/smoke" | grep -q 'NEEDED.*libfairmines'; then
    echo "test-c: the CMake consumer is not linked statically" >&2
    exit 1
fi
valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
    --suppressions=bindings/c/tests/valgrind.supp "$TMP/cpp/smoke"
cmake -S bindings/c/tests/cpp -B "$TMP/cpp-asan" -DCMAKE_PREFIX_PATH="$PREFIX" -DCMAKE_BUILD_TYPE=Debug \
    -DFAIRMINES_SANITIZE=ON >/dev/null
cmake --build "$TMP/cpp-asan" >/dev/null
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 "$TMP/cpp-asan/smoke"

step "C library: all tests passed"
