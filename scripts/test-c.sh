#!/usr/bin/env bash
# Test of the fairmines C library (bindings/c). Runnable from any directory, as root on a fresh
# machine (installs missing Debian packages), non-interactive. Exits non-zero on any failure.
#  0. Every code block of bindings/c/README.md is tagged (<!-- test-c: NAME -->) and extracted, with
#     /some/prefix replaced by a temporary prefix; each is run below, and every output it shows is compared.
#  1. cargo test -p fairmines-c: the checked-in include/fairmines.h equals a fresh cbindgen generation,
#     every error kind of the core is its status (code, name, summary), and the panic boundary; then the
#     README's command that regenerates the header leaves it as it is.
#  2. rustc's native-static-libs equal the documented static link flags; the README's build and install
#     commands; the SONAME of target/release/libfairmines.so follows the version in Cargo.toml.
#  3. The C11 suite (every case of vectors/vectors.json through every function, every argument's
#     conversion and status, a smoke of the game, threads sharing handles) against the static library,
#     the shared library, under ASan+UBSan and under valgrind.
#  4. The installed prefix: files, the SONAME links (as ldconfig makes them), licenses, valgrind
#     suppressions, pkg-config modules (relocatable: also from a moved copy of the prefix).
#  5. Consumers of the installed package: the C11 suite statically through pkg-config; every program of
#     the README built as it says (pkg-config shared with its rpath, and static) and run with no
#     LD_LIBRARY_PATH, outputs compared; valgrind with the installed suppressions; examples/mines.c and
#     examples/verify_round.c; the README's CMakeLists.txt with fairmines::fairmines (static) and
#     fairmines::shared, built, installed and run; the C++17 smoke through find_package (static, valgrind,
#     ASan+UBSan).
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
PREFIX="$TMP/prefix"
fail() { echo "test-c: $*" >&2; exit 1; }
soname_of() { readelf -d "$1" | sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p'; }
needs_fairmines() { readelf -d "$1" | grep 'NEEDED' | grep -o 'libfairmines[^]]*' || true; }

# -- 0. the README's code blocks --------------------------------------------------------------------
# A tag line right before a fence names the block; an untagged block fails the test, and so does a tag
# this script does not know: every block is run or compared somewhere below.
README=bindings/c/README.md
BLOCKS="$TMP/readme"
mkdir -p "$BLOCKS"
awk -v dir="$BLOCKS" '
    inside && /^```$/ { inside = 0; close(file); next }
    inside { print > file; next }
    /^```/ {
        if (name == "") { printf "test-c: %s:%d: a code block without a <!-- test-c: NAME --> tag\n", FILENAME, NR > "/dev/stderr"; bad = 1; file = "/dev/null" }
        else { file = dir "/" name; printf "" > file }
        inside = 1; name = ""; next
    }
    /^<!-- test-c: [^ ]+ -->$/ { name = $3; next }
    { name = "" }
    END { exit bad }' "$README"
want="app.c app.out batch.c bless build cmake cmake-build game.c game.out link mines native-static-libs run valgrind"
got="$(cd "$BLOCKS" && ls | sort | xargs)"
[ "$got" = "$want" ] || fail "$README has the blocks [$got]; this script runs [$want]"
sed -i "s|/some/prefix|$PREFIX|g" "$BLOCKS"/*
# Runs the README block $1, a transcript of "$ command" lines and their output, in directory $2 with no
# LD_LIBRARY_PATH: the commands with their output (stdout and stderr) must give back the block exactly.
transcript() {
    local line
    {
        printf 'cd %q || exit 1\n' "$2"
        while IFS= read -r line; do
            case "$line" in '$ '*) printf 'printf "%%s\\n" %q\n%s\n' "$line" "${line#\$ }" ;; esac
        done <"$BLOCKS/$1"
    } >"$TMP/$1.sh"
    env -u LD_LIBRARY_PATH bash "$TMP/$1.sh" >"$TMP/$1.got" 2>&1 || true
    diff -u "$BLOCKS/$1" "$TMP/$1.got" || fail "the README's block '$1' does not run as shown (diff above: -README +actual)"
    cat "$TMP/$1.got"
}
# The output of a README program ($2...) must be the README block $1.
same_output() {
    local block="$1"
    shift
    env -u LD_LIBRARY_PATH "$@" >"$TMP/$block.got" 2>&1 || fail "$* exited with status $?"
    diff -u "$BLOCKS/$block" "$TMP/$block.got" || fail "$* does not print the README's block '$block'"
}

# -- 1. header and Rust-side tests -----------------------------------------------------------------
step "cargo test -p fairmines-c (header up to date, status codes against the core's kinds, panic boundary)"
cargo test -p fairmines-c
step "README: the command that regenerates the header leaves the up-to-date header as it is"
cp include/fairmines.h "$TMP/fairmines.h.before"
bash -e "$BLOCKS/bless"
cmp "$TMP/fairmines.h.before" include/fairmines.h

# -- 2. static link flags, the README's build and install, the SONAME -------------------------------
step "rustc's native static libraries (cargo rustc --release -p fairmines-c --lib -- --print native-static-libs)"
cargo rustc --release -p fairmines-c --lib -- --print native-static-libs 2>"$TMP/build.log" || {
    cat "$TMP/build.log" >&2
    exit 1
}
got="$(sed -n 's/^note: native-static-libs: //p' "$TMP/build.log" | head -n 1)"
documented="$(sed -n 's/^FAIRMINES_NATIVE_STATIC_LIBS="\(.*\)"$/\1/p' scripts/install-c.sh)"
echo "rustc:      $got"
echo "documented: $documented"
if [ -z "$got" ] || [ "$got" != "$documented" ]; then
    fail "the native static libraries changed; update FAIRMINES_NATIVE_STATIC_LIBS in" \
        "scripts/install-c.sh, bindings/c/README.md and STATIC_LIBS in bindings/c/tests/Makefile"
fi
[ "$(cat "$BLOCKS/native-static-libs")" = "$documented" ] || fail "the README lists other static link flags"
grep -qF -- "STATIC_LIBS ?= $documented" bindings/c/tests/Makefile || fail "Makefile STATIC_LIBS differ"

step "README: build and install into a temporary prefix"
bash -ex "$BLOCKS/build"
# The version is the workspace's (Cargo.toml); the header, the file names and the SONAME follow it.
version="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"$/\1/p' Cargo.toml)"
[ -n "$version" ] && [ "$version" = "$(sed -n 's/^#define FAIRMINES_VERSION_STRING "\(.*\)"$/\1/p' include/fairmines.h)" ] ||
    fail "the header's version is not Cargo.toml's ($version)"
IFS=. read -r major minor patch <<<"$version"
# Cargo's compatibility rule: 0.0.z, 0.y, x.
if [ "$major" = 0 ] && [ "$minor" = 0 ]; then abi="0.0.$patch"; elif [ "$major" = 0 ]; then abi="0.$minor"; else abi="$major"; fi
SONAME="libfairmines.so.$abi"
echo "version $version, SONAME $SONAME"
[ "$(soname_of target/release/libfairmines.so)" = "$SONAME" ] ||
    fail "target/release/libfairmines.so has the SONAME '$(soname_of target/release/libfairmines.so)', want $SONAME"
grep -qF "SONAME \`$SONAME\`" "$README" || fail "the README does not name the SONAME $SONAME"

# -- 3. the C11 suite ---------------------------------------------------------------------------------
step "C11 suite: static, shared, ASan+UBSan, valgrind"
make -C bindings/c/tests --no-print-directory VECTORS="$VECTORS" test shared asan valgrind
[ "$(needs_fairmines bindings/c/tests/build/test_shared)" = "$SONAME" ] || fail "test_shared does not need $SONAME"

# The independent checker's link line: only -lpthread -ldl -lm besides the archive.
cc -std=c11 -Wall -Wextra -Werror -pedantic -pthread -O1 -Iinclude -o "$TMP/checker_link" \
    bindings/c/tests/test_fairmines.c bindings/c/tests/test_game.c bindings/c/tests/json.c \
    target/release/libfairmines.a -lpthread -ldl -lm
"$TMP/checker_link" "$VECTORS" >/dev/null

# -- 4. the installed prefix --------------------------------------------------------------------------
step "the installed prefix $PREFIX"
real="libfairmines.so.$version"
for f in include/fairmines.h lib/libfairmines.a "lib/$real" lib/pkgconfig/fairmines.pc lib/pkgconfig/fairmines-static.pc \
    lib/cmake/fairmines/fairmines-config.cmake lib/cmake/fairmines/fairmines-config-version.cmake \
    share/fairmines/valgrind.supp share/doc/fairmines/LICENSE-MIT share/doc/fairmines/LICENSE-APACHE; do
    [ -f "$PREFIX/$f" ] && [ ! -L "$PREFIX/$f" ] || fail "$f was not installed (as a file)"
done
cmp include/fairmines.h "$PREFIX/include/fairmines.h"
cmp target/release/libfairmines.a "$PREFIX/lib/libfairmines.a"
cmp target/release/libfairmines.so "$PREFIX/lib/$real"
cmp bindings/c/valgrind.supp "$PREFIX/share/fairmines/valgrind.supp"
cmp LICENSE-MIT "$PREFIX/share/doc/fairmines/LICENSE-MIT"
cmp LICENSE-APACHE "$PREFIX/share/doc/fairmines/LICENSE-APACHE"
# libfairmines.so -> SONAME -> the file, relative links (the prefix can move).
[ "$(readlink "$PREFIX/lib/$SONAME")" = "$real" ] || fail "lib/$SONAME is not a link to $real"
[ "$(readlink "$PREFIX/lib/libfairmines.so")" = "$SONAME" ] || fail "lib/libfairmines.so is not a link to $SONAME"
[ "$(soname_of "$PREFIX/lib/libfairmines.so")" = "$SONAME" ]
# ldconfig makes the same SONAME link from the file alone (-n: only in that directory, no cache).
LDCONFIG="$(command -v ldconfig || echo /sbin/ldconfig)"
mkdir "$TMP/ldconfig"
cp "$PREFIX/lib/$real" "$TMP/ldconfig/"
"$LDCONFIG" -n "$TMP/ldconfig"
[ "$(readlink "$TMP/ldconfig/$SONAME")" = "$real" ] || fail "ldconfig -n does not make the link $SONAME -> $real"
echo "lib/: $(cd "$PREFIX/lib" && ls -l libfairmines.* | awk '{ print $9, $10, $11 }' | xargs)"

step "pkg-config modules fairmines and fairmines-static"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
for m in fairmines fairmines-static; do
    [ "$(pkg-config --modversion $m)" = "$version" ] || fail "pkg-config --modversion $m"
    [ "$(pkg-config --variable=native_static_libs $m)" = "$documented" ] || fail "$m: native_static_libs"
    grep -qx 'prefix=${pcfiledir}/../..' "$PREFIX/lib/pkgconfig/$m.pc" || fail "$m.pc is not relocatable"
done
[ "$(sed -n 's/^Libs.private: //p' "$PREFIX/lib/pkgconfig/fairmines.pc")" = '${native_static_libs}' ]
for args in "--libs fairmines" "--static --libs fairmines" "--libs fairmines-static" "--static --libs fairmines-static"; do
    # shellcheck disable=SC2086
    echo "pkg-config $args: $(pkg-config $args)"
done
# shellcheck disable=SC2046
for flag in $documented; do
    pkg-config --static --libs fairmines | tr ' ' '\n' | grep -qx -- "$flag" || fail "pkg-config --static --libs fairmines lacks $flag"
    pkg-config --libs fairmines-static | tr ' ' '\n' | grep -qx -- "$flag" || fail "pkg-config --libs fairmines-static lacks $flag"
done
# The static module links the archive, with or without --static; the shared one never names it.
for args in "--libs fairmines-static" "--static --libs fairmines-static"; do
    # shellcheck disable=SC2086
    pkg-config $args | tr ' ' '\n' | grep -qx -- "$PREFIX/lib/pkgconfig/../../lib/libfairmines.a" ||
        fail "pkg-config $args does not link libfairmines.a"
done
if pkg-config --static --libs fairmines | grep -q 'libfairmines\.a'; then fail "fairmines.pc names the archive"; fi

# -- 5. consumers of the installed package --------------------------------------------------------------
step "pkg-config fairmines-static: the C11 suite against the installed archive"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -pedantic -pthread -O2 -o "$TMP/pc_static" \
    bindings/c/tests/test_fairmines.c bindings/c/tests/test_game.c bindings/c/tests/json.c \
    $(pkg-config --cflags --libs --static fairmines-static)
[ -z "$(needs_fairmines "$TMP/pc_static")" ] || fail "the static consumer needs $(needs_fairmines "$TMP/pc_static")"
"$TMP/pc_static" "$VECTORS"

step "the prefix moved elsewhere: pkg-config still finds and links it"
cp -a "$PREFIX" "$TMP/moved"
rm -rf "$TMP/moved-from" && mv "$PREFIX" "$TMP/moved-from"   # nothing may point into the old place
# shellcheck disable=SC2046
cc -std=c11 -o "$TMP/moved_static" "$BLOCKS/app.c" \
    $(PKG_CONFIG_PATH="$TMP/moved/lib/pkgconfig" pkg-config --cflags --libs --static fairmines-static)
# shellcheck disable=SC2046
cc -std=c11 -o "$TMP/moved_shared" "$BLOCKS/app.c" \
    $(PKG_CONFIG_PATH="$TMP/moved/lib/pkgconfig" pkg-config --cflags --libs fairmines) -Wl,-rpath,"$TMP/moved/lib"
same_output app.out "$TMP/moved_static"
same_output app.out "$TMP/moved_shared"
# A prefix with the archive only: there `pkg-config --static --libs fairmines` links it (Libs.private).
mkdir -p "$TMP/archive-only/lib"
cp -a "$TMP/moved/include" "$TMP/archive-only/"
cp -a "$TMP/moved/lib/pkgconfig" "$TMP/moved/lib/libfairmines.a" "$TMP/archive-only/lib/"
# shellcheck disable=SC2046
cc -std=c11 -o "$TMP/archive_only" "$BLOCKS/app.c" \
    $(PKG_CONFIG_PATH="$TMP/archive-only/lib/pkgconfig" pkg-config --cflags --libs --static fairmines)
[ -z "$(needs_fairmines "$TMP/archive_only")" ] || fail "the archive-only link needs libfairmines.so"
same_output app.out "$TMP/archive_only"
mv "$TMP/moved-from" "$PREFIX"

step "README: app.c linked as the README says (shared with the rpath, and static), run without LD_LIBRARY_PATH"
WORK="$TMP/work"
mkdir "$WORK"
ln -s "$ROOT/bindings" "$WORK/bindings"   # the README's paths from the repository's root
cp "$BLOCKS/app.c" "$BLOCKS/game.c" "$BLOCKS/batch.c" "$WORK/"
# The README's programs are also clean under the strictest warnings.
for src in app game batch; do
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only $(pkg-config --cflags fairmines) "$WORK/$src.c"
done
(cd "$WORK" && bash -ex "$BLOCKS/link")
same_output app.out "$WORK/app"
same_output app.out "$WORK/app-static"
[ "$(needs_fairmines "$WORK/app")" = "$SONAME" ] || fail "app does not need $SONAME"
[ -z "$(needs_fairmines "$WORK/app-static")" ] || fail "app-static needs libfairmines"
transcript run "$WORK"

step "README: the game, linked both ways"
# The same two lines as the README's link block, for game.c.
sed -n 's/app\.c -o app\b/game.c -o game/p' "$BLOCKS/link" | grep -c '^cc ' | grep -qx 2 || fail "the link block changed: update this step"
(cd "$WORK" && export PKG_CONFIG_PATH && sed -n 's/app\.c -o app\b/game.c -o game/p' "$BLOCKS/link" | bash -ex)
same_output game.out "$WORK/game"
same_output game.out "$WORK/game-static"
valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
    --suppressions="$PREFIX/share/fairmines/valgrind.supp" "$WORK/game" >/dev/null

step "README: examples/mines.c"
transcript mines "$WORK"
if "$WORK/mines" b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a \
    d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817 1 3 7 10 20 >/dev/null; then
    fail "wrong declared positions verified"
fi

step "README: valgrind with the installed suppressions (batch.c)"
transcript valgrind "$WORK"
# Without them, memcheck reports the standard library's block (informative: a newer Rust may keep none).
if valgrind --quiet --leak-check=full --error-exitcode=1 "$WORK/batch" >/dev/null 2>"$TMP/nosupp.log"; then
    echo "note: without the suppressions valgrind found nothing with this Rust; the README says it reports a block"
else
    grep -q 'possibly lost' "$TMP/nosupp.log" && echo "without the suppressions: $(grep -c 'possibly lost' "$TMP/nosupp.log") possibly-lost report(s), as the README says"
fi

step "pkg-config fairmines (shared): examples/verify_round.c (exit 0 verified, 1 not, 2 bad input)"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -pedantic -O2 -o "$TMP/verify_round" bindings/c/examples/verify_round.c \
    $(pkg-config --cflags --libs fairmines) -Wl,-rpath,"$PREFIX/lib"
ws=b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a
wc=d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817
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
    env -u LD_LIBRARY_PATH "$@" >"$TMP/verify.out" 2>&1 || got=$?
    cat "$TMP/verify.out"
    [ "$got" = "$want" ] || fail "exit status $got, want $want: $*"
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
    --suppressions="$PREFIX/share/fairmines/valgrind.supp" "$TMP/verify_round" "$(record 1,2 cashed_out '"10/7"')" "$ws" \
    >/dev/null || [ $? = 1 ] || fail "verify_round under valgrind"

step "README: the CMakeLists.txt with fairmines::fairmines (static) and fairmines::shared; built, installed, run"
for kind in static shared; do
    dir="$WORK/cmake-$kind"
    mkdir "$dir"
    cp "$BLOCKS/app.c" "$dir/"
    if [ "$kind" = static ]; then
        cp "$BLOCKS/cmake" "$dir/CMakeLists.txt"
    else
        sed 's/fairmines::fairmines)/fairmines::shared)/' "$BLOCKS/cmake" >"$dir/CMakeLists.txt"
        grep -q 'fairmines::shared)' "$dir/CMakeLists.txt" || fail "the README's CMakeLists.txt changed: update this step"
        # The package's variables the README names.
        echo 'file(WRITE "${CMAKE_BINARY_DIR}/vars.txt" "${fairmines_VERSION} ${fairmines_INCLUDE_DIRS} ${fairmines_LIBRARIES} ${fairmines_VALGRIND_SUPPRESSIONS}")' \
            >>"$dir/CMakeLists.txt"
    fi
    (cd "$dir" && bash -e "$BLOCKS/cmake-build" >"$dir/cmake.log" 2>&1) || { cat "$dir/cmake.log" >&2; fail "CMake ($kind)"; }
    if [ "$kind" = shared ]; then
        [ "$(cat "$dir/build/vars.txt")" = "$version $PREFIX/include fairmines::fairmines $PREFIX/share/fairmines/valgrind.supp" ] ||
            fail "the CMake package's variables: $(cat "$dir/build/vars.txt")"
    fi
    cmake --install "$dir/build" --prefix "$dir/installed" >/dev/null
    for app in "$dir/build/app" "$dir/installed/bin/app"; do
        same_output app.out "$app"
        if [ "$kind" = static ]; then
            [ -z "$(needs_fairmines "$app")" ] || fail "the static CMake consumer needs libfairmines"
        else
            [ "$(needs_fairmines "$app")" = "$SONAME" ] || fail "the shared CMake consumer does not need $SONAME"
        fi
    done
    echo "CMake $kind: built, installed and run (needs: $(needs_fairmines "$dir/installed/bin/app" | xargs echo))"
done

step "CMake consumer (C++17, find_package(fairmines), static, from the moved prefix): plain under valgrind, and ASan+UBSan"
cmake -S bindings/c/tests/cpp -B "$TMP/cpp" -DCMAKE_PREFIX_PATH="$TMP/moved" -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build "$TMP/cpp" >/dev/null
[ -z "$(needs_fairmines "$TMP/cpp/smoke")" ] || fail "the CMake consumer is not linked statically"
valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
    --suppressions="$TMP/moved/share/fairmines/valgrind.supp" "$TMP/cpp/smoke"
cmake -S bindings/c/tests/cpp -B "$TMP/cpp-asan" -DCMAKE_PREFIX_PATH="$TMP/moved" -DCMAKE_BUILD_TYPE=Debug \
    -DFAIRMINES_SANITIZE=ON >/dev/null
cmake --build "$TMP/cpp-asan" >/dev/null
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 "$TMP/cpp-asan/smoke"

step "C library: all tests passed"
