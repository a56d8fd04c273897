#!/usr/bin/env bash
# The C library (bindings/c): its Rust tests, the C11 suite (bindings/c/tests/Makefile), the installed prefix, and
# every block and example of bindings/c/README.md built and run as written (bindings/c/README.md, Tests, says what).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
need cc:gcc c++:g++ make cmake pkg-config:pkgconf valgrind readelf:binutils
have cargo || fail "cargo is required"
export CI="${CI:-true}"
scratch
VECTORS="$ROOT/vectors/vectors.json" PREFIX="$TMP/prefix" BLOCKS="$TMP/readme" WORK="$TMP/work" README=bindings/c/README.md
soname_of() { readelf -d "$1" | sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p'; }
needs_fairmines() { readelf -d "$1" | grep 'NEEDED' | grep -o 'libfairmines[^]]*' || true; }
grind() { valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect,possible "$@"; }

# Every block tagged <!-- test-c: NAME -->, each run or compared below, /some/prefix made the temporary prefix.
python3 scripts/readme_examples.py "$README" --extract test-c "$BLOCKS" \
    --expect "app.out bless build cmake cmake-build game.out link mines native-static-libs run valgrind"
sed -i "s|/some/prefix|$PREFIX|g" "$BLOCKS"/*
# transcript BLOCK DIR: the block's "$ command" lines run in DIR (no LD_LIBRARY_PATH) must print the block back.
transcript() {
    { printf 'cd %q || exit 1\n' "$2"
      sed -n 's/^\$ //p' "$BLOCKS/$1" | while IFS= read -r line; do printf 'printf "%%s\\n" %q\n%s\n' "\$ $line" "$line"; done
    } >"$TMP/$1.sh"
    env -u LD_LIBRARY_PATH bash "$TMP/$1.sh" >"$TMP/$1.got" 2>&1 || true
    diff -u "$BLOCKS/$1" "$TMP/$1.got" || fail "the README's block '$1' does not run as shown (diff above: -README +actual)"
    cat "$TMP/$1.got"
}
# same_output BLOCK PROGRAM...: the program's output is the README block.
same_output() {
    local block="$1"; shift
    env -u LD_LIBRARY_PATH "$@" >"$TMP/$block.got" 2>&1 || fail "$* exited with status $?"
    diff -u "$BLOCKS/$block" "$TMP/$block.got" || fail "$* does not print the README's block '$block'"
}

step "cargo test -p fairmines-c, the header against a fresh generation; the README's command that regenerates it leaves it"
cargo test -p fairmines-c
bash scripts/check-generated.sh header
cp include/fairmines.h "$TMP/fairmines.h.before"
bash -e "$BLOCKS/bless"
cmp "$TMP/fairmines.h.before" include/fairmines.h

step "rustc's native static libraries against the documented ones"
cargo rustc --release -p fairmines-c --lib -- --print native-static-libs 2>"$TMP/build.log" || { cat "$TMP/build.log" >&2; exit 1; }
got="$(sed -n 's/^note: native-static-libs: //p' "$TMP/build.log" | head -n 1)"
documented="$(sed -n 's/^FAIRMINES_NATIVE_STATIC_LIBS="\(.*\)"$/\1/p' scripts/install-c.sh)"
echo "rustc:      $got"$'\n'"documented: $documented"
[ -n "$got" ] && [ "$got" = "$documented" ] || fail "the native static libraries changed; update FAIRMINES_NATIVE_STATIC_LIBS" \
    "in scripts/install-c.sh, bindings/c/README.md and STATIC_LIBS in bindings/c/tests/Makefile"
[ "$(cat "$BLOCKS/native-static-libs")" = "$documented" ] || fail "the README lists other static link flags"
grep -qF -- "STATIC_LIBS ?= $documented" bindings/c/tests/Makefile || fail "Makefile STATIC_LIBS differ"

step "README: build and install into a temporary prefix; the SONAME follows Cargo.toml's version"
bash -ex "$BLOCKS/build"
version="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"$/\1/p' Cargo.toml)"
[ -n "$version" ] && [ "$version" = "$(sed -n 's/^#define FAIRMINES_VERSION_STRING "\(.*\)"$/\1/p' include/fairmines.h)" ] ||
    fail "the header's version is not Cargo.toml's ($version)"
IFS=. read -r major minor patch <<<"$version"
# Cargo's compatibility rule: 0.0.z, 0.y, x.
if [ "$major" = 0 ] && [ "$minor" = 0 ]; then abi="0.0.$patch"; elif [ "$major" = 0 ]; then abi="0.$minor"; else abi="$major"; fi
SONAME="libfairmines.so.$abi" real="libfairmines.so.$version"
echo "version $version, SONAME $SONAME"
[ "$(soname_of target/release/libfairmines.so)" = "$SONAME" ] || fail "target/release/libfairmines.so's SONAME is not $SONAME"
grep -qF "SONAME \`$SONAME\`" "$README" || fail "the README does not name the SONAME $SONAME"

step "C11 suite: static, shared, ASan+UBSan, valgrind, and linked with only -lpthread -ldl -lm"
make -C bindings/c/tests --no-print-directory VECTORS="$VECTORS" test shared asan valgrind minimal
[ "$(needs_fairmines bindings/c/tests/build/test_shared)" = "$SONAME" ] || fail "test_shared does not need $SONAME"
SUITE=(bindings/c/tests/test_fairmines.c bindings/c/tests/test_game.c bindings/c/tests/json.c)

step "the installed prefix $PREFIX"
# Installed files (SOURCE:FILE: a copy of SOURCE), none a link.
for pair in include/fairmines.h:include/fairmines.h target/release/libfairmines.a:lib/libfairmines.a \
    target/release/libfairmines.so:"lib/$real" bindings/c/valgrind.supp:share/fairmines/valgrind.supp \
    LICENSE-MIT:share/doc/fairmines/LICENSE-MIT LICENSE-APACHE:share/doc/fairmines/LICENSE-APACHE :lib/pkgconfig/fairmines.pc \
    :lib/pkgconfig/fairmines-static.pc :lib/cmake/fairmines/fairmines-config.cmake :lib/cmake/fairmines/fairmines-config-version.cmake; do
    f=${pair#*:} && [ -f "$PREFIX/$f" ] && [ ! -L "$PREFIX/$f" ] || fail "$f was not installed (as a file)"
    [ -z "${pair%%:*}" ] || cmp "${pair%%:*}" "$PREFIX/$f"
done
# libfairmines.so -> SONAME -> the file, relative links (the prefix can move); ldconfig -n makes the same one.
[ "$(readlink "$PREFIX/lib/$SONAME")" = "$real" ] || fail "lib/$SONAME is not a link to $real"
[ "$(readlink "$PREFIX/lib/libfairmines.so")" = "$SONAME" ] || fail "lib/libfairmines.so is not a link to $SONAME"
[ "$(soname_of "$PREFIX/lib/libfairmines.so")" = "$SONAME" ]
mkdir "$TMP/ldconfig" && cp "$PREFIX/lib/$real" "$TMP/ldconfig/"
"$(command -v ldconfig || echo /sbin/ldconfig)" -n "$TMP/ldconfig"
[ "$(readlink "$TMP/ldconfig/$SONAME")" = "$real" ] || fail "ldconfig -n does not make the link $SONAME -> $real"

step "pkg-config modules fairmines and fairmines-static"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
for m in fairmines fairmines-static; do
    [ "$(pkg-config --modversion $m)" = "$version" ] || fail "pkg-config --modversion $m"
    [ "$(pkg-config --variable=native_static_libs $m)" = "$documented" ] || fail "$m: native_static_libs"
    grep -qx 'prefix=${pcfiledir}/../..' "$PREFIX/lib/pkgconfig/$m.pc" || fail "$m.pc is not relocatable"
done
[ "$(sed -n 's/^Libs.private: //p' "$PREFIX/lib/pkgconfig/fairmines.pc")" = '${native_static_libs}' ]
# Every documented flag (the static module also the archive, with or without --static); the shared one never names it.
for args in "--static --libs fairmines" "--libs fairmines-static" "--static --libs fairmines-static"; do
    [[ $args == *-static ]] && archive="$PREFIX/lib/pkgconfig/../../lib/libfairmines.a" || archive=
    for flag in $documented $archive; do
        # shellcheck disable=SC2086
        pkg-config $args | tr ' ' '\n' | grep -qx -- "$flag" || fail "pkg-config $args lacks $flag"
    done
done
if pkg-config --static --libs fairmines | grep -q 'libfairmines\.a'; then fail "fairmines.pc names the archive"; fi

step "pkg-config fairmines-static: the C11 suite against the installed archive"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -pedantic -pthread -O2 -o "$TMP/pc_static" "${SUITE[@]}" $(pkg-config --cflags --libs --static fairmines-static)
[ -z "$(needs_fairmines "$TMP/pc_static")" ] || fail "the static consumer needs $(needs_fairmines "$TMP/pc_static")"
"$TMP/pc_static" "$VECTORS"

step "the prefix moved elsewhere, and one with the archive only: pkg-config still finds and links it"
APP=bindings/c/examples/app.c
cp -a "$PREFIX" "$TMP/moved"
mv "$PREFIX" "$TMP/moved-from"   # nothing may point into the old place
mkdir -p "$TMP/archive-only/lib"
cp -a "$TMP/moved/include" "$TMP/archive-only/"
cp -a "$TMP/moved/lib/pkgconfig" "$TMP/moved/lib/libfairmines.a" "$TMP/archive-only/lib/"
pc() { PKG_CONFIG_PATH="$TMP/$1/lib/pkgconfig" pkg-config --cflags --libs "${@:2}"; }
# shellcheck disable=SC2046
{ cc -std=c11 -o "$TMP/moved_static" "$APP" $(pc moved --static fairmines-static)
  cc -std=c11 -o "$TMP/moved_shared" "$APP" $(pc moved fairmines) -Wl,-rpath,"$TMP/moved/lib"
  cc -std=c11 -o "$TMP/archive_only" "$APP" $(pc archive-only --static fairmines); }
[ -z "$(needs_fairmines "$TMP/archive_only")" ] || fail "the archive-only link needs libfairmines.so"
for app in moved_static moved_shared archive_only; do same_output app.out "$TMP/$app"; done
mv "$TMP/moved-from" "$PREFIX"

step "README: app.c linked as the README says (shared with the rpath, and static), run without LD_LIBRARY_PATH"
mkdir "$WORK"
ln -s "$ROOT/bindings" "$WORK/bindings"   # the README's paths from the repository's root
cp bindings/c/examples/{app,game,batch}.c "$WORK/"
for src in app game batch; do   # also clean under the strictest warnings
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only $(pkg-config --cflags fairmines) "$WORK/$src.c"
done
(cd "$WORK" && bash -ex "$BLOCKS/link")
for app in app app-static; do same_output app.out "$WORK/$app"; done
[ "$(needs_fairmines "$WORK/app")" = "$SONAME" ] || fail "app does not need $SONAME"
[ -z "$(needs_fairmines "$WORK/app-static")" ] || fail "app-static needs libfairmines"
transcript run "$WORK"

step "README: examples/game.c linked both ways (the link block's two lines), and under valgrind"
sed -n 's/app\.c -o app\b/game.c -o game/p' "$BLOCKS/link" | grep -c '^cc ' | grep -qx 2 || fail "the link block changed: update this step"
(cd "$WORK" && sed -n 's/app\.c -o app\b/game.c -o game/p' "$BLOCKS/link" | bash -ex)
for app in game game-static; do same_output game.out "$WORK/$app"; done
grind --suppressions="$PREFIX/share/fairmines/valgrind.supp" "$WORK/game" >/dev/null

step "README: examples/mines.c; examples/batch.c under valgrind with the installed suppressions"
transcript mines "$WORK"
if "$WORK/mines" b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a \
    d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817 1 3 7 10 20 >/dev/null; then
    fail "wrong declared positions verified"
fi
transcript valgrind "$WORK"
# Without them, memcheck reports the standard library's block (informative: a newer Rust may keep none).
if valgrind --quiet --leak-check=full --error-exitcode=1 "$WORK/batch" >/dev/null 2>"$TMP/nosupp.log"; then
    echo "note: without the suppressions valgrind found nothing with this Rust; the README says it reports a block"
else
    echo "without the suppressions: $(grep -c 'possibly lost' "$TMP/nosupp.log") possibly-lost report(s), as the README says"
fi

step "pkg-config fairmines (shared): examples/verify_round.c (exit 0 verified, 1 not, 2 bad input)"
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -pedantic -O2 -o "$TMP/verify_round" bindings/c/examples/verify_round.c \
    $(pkg-config --cflags --libs fairmines) -Wl,-rpath,"$PREFIX/lib"
cc -std=c11 -Wall -Wextra -Werror -pedantic -o "$TMP/test_verify_round" bindings/c/tests/test_verify_round.c
env -u LD_LIBRARY_PATH "$TMP/test_verify_round" "$TMP/verify_round" "$TMP"
grind --suppressions="$PREFIX/share/fairmines/valgrind.supp" "$TMP/verify_round" @"$TMP/mismatch.json" \
    b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a >/dev/null || [ $? = 1 ] || fail "verify_round under valgrind"

step "README: the CMakeLists.txt with fairmines::fairmines (static) and fairmines::shared; built, installed, run"
for kind in static shared; do
    dir="$WORK/cmake-$kind"
    mkdir "$dir" && cp "$APP" "$dir/"
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
    [ "$kind" = static ] || [ "$(cat "$dir/build/vars.txt")" = "$version $PREFIX/include fairmines::fairmines $PREFIX/share/fairmines/valgrind.supp" ] ||
        fail "the CMake package's variables: $(cat "$dir/build/vars.txt")"
    cmake --install "$dir/build" --prefix "$dir/installed" >/dev/null
    for app in "$dir/build/app" "$dir/installed/bin/app"; do
        same_output app.out "$app"
        want=$SONAME && [ "$kind" = shared ] || want=""
        [ "$(needs_fairmines "$app")" = "$want" ] || fail "the $kind CMake consumer needs '$(needs_fairmines "$app")'"
    done
done

step "CMake consumer (C++17, find_package(fairmines), static, from the moved prefix): plain under valgrind, and ASan+UBSan"
for sanitize in OFF ON; do
    cmake -S bindings/c/tests/cpp -B "$TMP/cpp-$sanitize" -DCMAKE_PREFIX_PATH="$TMP/moved" -DCMAKE_BUILD_TYPE=Debug \
        -DFAIRMINES_SANITIZE=$sanitize >/dev/null
    cmake --build "$TMP/cpp-$sanitize" >/dev/null
done
[ -z "$(needs_fairmines "$TMP/cpp-OFF/smoke")" ] || fail "the CMake consumer is not linked statically"
grind --suppressions="$TMP/moved/share/fairmines/valgrind.supp" "$TMP/cpp-OFF/smoke"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 "$TMP/cpp-ON/smoke"
step "all tests passed"
