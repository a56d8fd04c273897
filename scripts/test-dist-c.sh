#!/usr/bin/env bash
# Checks the C archives of dist/ as a user uses them: unpacked then moved, their layout and symbols, the C vector suite (bindings/c/tests) built through pkg-config and CMake (musl: musl-gcc -static), each README's sh blocks run as written; `--into DIR`: works in DIR and keeps it (DIR/run.sh: the gnu suite, for Debian 11).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
export LC_ALL=C
need cc:gcc g++:g++ cmake:cmake make:make pkg-config:pkgconf readelf:binutils musl-gcc:musl-tools
gnu=fairmines-$version-x86_64-linux-gnu musl=fairmines-$version-x86_64-linux-musl
if [[ ${1:-} == --into ]]; then mkdir -p "$2" && TMP=$(cd "$2" && pwd); else scratch; fi
mkdir -p "$TMP/src" && cp bindings/c/tests/{test_fairmines.c,test_game.c,json.c,json.h,check.h} bindings/c/tests/dist/CMakeLists.txt "$TMP/src/"
cp -r bindings/c/tests/cpp "$TMP/cpp" && cp vectors/vectors.json "$TMP/"
# The suite, in POSIX sh (Debian 11 runs it too): sh run.sh [musl], in a fresh folder out-gnu or out-musl.
{ echo "version=$version gnu=$gnu musl=$musl"; cat <<'SH'; } >"$TMP/run.sh"
set -eu
cd "$(dirname "$0")"
kind=gnu && test "${1:-}" != musl || kind=musl
rm -rf "out-$kind" && mkdir "out-$kind" && cd "out-$kind"
if [ $kind = gnu ]; then prefix=$(dirname "$PWD")/moved/$gnu; else prefix=$(dirname "$PWD")/moved/$musl; fi
vectors() {
    "$@" ../vectors.json >out.txt 2>&1 && tail -n 1 out.txt | grep -q '^fairmines C tests: [1-9][0-9]* vectors, [0-9]* checks, 0 failures$' ||
        { cat out.txt >&2; echo "FAILED: $*" >&2; exit 1; }
    echo "  $*: $(tail -n 1 out.txt)"
}
needs() { readelf -d "$1" | grep NEEDED | grep -o 'libfairmines[^]]*' || true; }
cflags="-std=c11 -Wall -Wextra -pedantic -pthread -O2"
src="../src/test_fairmines.c ../src/test_game.c ../src/json.c"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
test "$(pkg-config --modversion fairmines)" = "$version" || { echo "FAILED: pkg-config --modversion" >&2; exit 1; }
echo "$kind: $(. /etc/os-release && echo "$PRETTY_NAME"), $(ldd --version 2>&1 | head -n 1)"
if [ $kind = gnu ]; then
    # shellcheck disable=SC2046,SC2086
    cc $cflags -o pc_shared $src $(pkg-config --cflags --libs fairmines) -Wl,-rpath,"$prefix/lib"
    test -n "$(needs pc_shared)" || { echo "FAILED: pc_shared does not need libfairmines" >&2; exit 1; }
    vectors ./pc_shared
    # shellcheck disable=SC2046,SC2086
    cc $cflags -o pc_ldpath $src $(pkg-config --cflags --libs fairmines)
    vectors env LD_LIBRARY_PATH="$prefix/lib" ./pc_ldpath
    # shellcheck disable=SC2046,SC2086
    cc $cflags -o pc_static $src $(pkg-config --cflags --libs --static fairmines-static)
    test -z "$(needs pc_static)" || { echo "FAILED: pc_static needs libfairmines" >&2; exit 1; }
    vectors ./pc_static
    cmake -S ../src -B cmake -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release -DFAIRMINES_EXPECT_VERSION="$version" >cmake.log 2>&1 &&
        cmake --build cmake >>cmake.log 2>&1 || { cat cmake.log >&2; echo "FAILED: CMake" >&2; exit 1; }
    test -z "$(needs cmake/test_static)" && test -n "$(needs cmake/test_shared)" || { echo "FAILED: CMake's links" >&2; exit 1; }
    vectors cmake/test_static
    vectors cmake/test_shared
else
    for module in fairmines-static fairmines; do
        # shellcheck disable=SC2046,SC2086
        musl-gcc -static $cflags -o "musl_$module" $src $(pkg-config --cflags --libs --static $module)
        if readelf -lW "musl_$module" | grep -q INTERP; then echo "FAILED: musl_$module is not static" >&2; exit 1; fi
        vectors "./musl_$module"
    done
    CC=musl-gcc cmake -S ../src -B cmake -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release -DFAIRMINES_TEST_SHARED=OFF \
        -DFAIRMINES_EXPECT_VERSION="$version" -DCMAKE_EXE_LINKER_FLAGS=-static >cmake.log 2>&1 &&
        cmake --build cmake >>cmake.log 2>&1 || { cat cmake.log >&2; echo "FAILED: CMake (musl)" >&2; exit 1; }
    vectors cmake/test_static
fi
SH

# The ```sh blocks of README.md in order in one bash, FAIRMINES set: each "$ COMMAND" must succeed, printing the lines under it.
run_readme() { # prefix, folder
    mkdir -p "$2"
    python3 - "$1/README.md" "$2" <<'PY'
import pathlib, re, sys
text, work = pathlib.Path(sys.argv[1]).read_text(), pathlib.Path(sys.argv[2])
steps = []
for block in re.findall(r"^```sh\n(.*?)^```$", text, re.S | re.M):
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append([line[2:], ""])
        else:
            steps[-1][1] += line + "\n"
assert steps, "no command"
script = ["set -eo pipefail"]
for i, (command, shown) in enumerate(steps):
    (work / f"shown.{i}").write_text(shown)
    script.append(f"echo {i} >.step; {command} >out.{i} 2>err.{i}; [[ ! -s shown.{i} ]] || diff shown.{i} out.{i}")
(work / "steps.sh").write_text("\n".join(script) + "\n")
PY
    (cd "$2" && FAIRMINES=$1 env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH bash steps.sh) ||
        { cat "$2/err.$(cat "$2/.step")" >&2; fail "$1/README.md: block $(cat "$2/.step") failed or printed another output (above)"; }
    # A file named as if at hand is in the archive: the repository's pages are described, not named.
    if grep -n 'ALGORITHM\.md' "$1/README.md"; then fail "$1/README.md names ALGORITHM.md, which the archive does not hold"; fi
    echo "$(basename "$1")/README.md: every command ran as written, each printed what it shows"
}
declared=$(grep -oE '\bfairmines_[a-z0-9_]+\(' include/fairmines.h | tr -d '(' | sort -u | xargs)
common=$(printf '%s\n' include include/fairmines.h lib lib/cmake lib/cmake/fairmines lib/libfairmines.a lib/pkgconfig \
    lib/cmake/fairmines/fairmines-config{,-version}.cmake lib/pkgconfig/fairmines{,-static}.pc examples examples/cpp \
    examples/cpp/{CMakeLists.txt,verify_round.cpp} examples/{mines,verify_round}.c LICENSE-{APACHE,MIT} README.md \
    share share/doc share/doc/fairmines share/doc/fairmines/LICENSE-{APACHE,MIT} share/fairmines share/fairmines/valgrind.supp)
case $version in 0.0.*) soname=libfairmines.so.$version ;; 0.*) soname=libfairmines.so.0.$(cut -d. -f2 <<<"$version") ;;
    *) soname=libfairmines.so.${version%%.*} ;; esac
for name in "$gnu" "$musl"; do
    step "$name.tar.gz: unpacked, moved, its entries, owners, modes and symbols"
    want=$common
    [[ $name == "$gnu" ]] && want+=$'\n'$(printf '%s\n' lib/libfairmines.so "lib/$soname" "lib/libfairmines.so.$version")
    got=$(tar -tzf "dist/$name.tar.gz" | sed "s|^$name/||; /^\$/d; s|/\$||" | sort)
    diff <(sort <<<"$want") <(echo "$got") >&2 || fail "$name.tar.gz: unexpected entries (-want +got)"
    if tar -tvzf "dist/$name.tar.gz" | awk '$2 != "0/0" || $1 !~ /^(-rw-r--r--|-rwxr-xr-x|drwxr-xr-x|lrwxrwxrwx)$/' | grep .; then
        fail "$name.tar.gz: owners other than 0/0 or unusual modes (above)"
    fi
    mkdir -p "$TMP/unpack" "$TMP/moved" && tar -xzf "dist/$name.tar.gz" -C "$TMP/unpack"
    mv "$TMP/unpack/$name" "$TMP/moved/$name" && rmdir "$TMP/unpack"
    prefix=$TMP/moved/$name
    [[ $(nm -g --defined-only "$prefix/lib/libfairmines.a" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u | xargs) == "$declared" ]] ||
        fail "$name: libfairmines.a's global symbols are not exactly the header's functions"
done
prefix=$TMP/moved/$gnu mprefix=$TMP/moved/$musl so=$TMP/moved/$gnu/lib/libfairmines.so.$version
[[ $(readlink "$prefix/lib/libfairmines.so") == "$soname" && $(readlink "$prefix/lib/$soname") == "libfairmines.so.$version" ]] || fail "the links: $(ls -l "$prefix/lib")"
[[ $(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p') == "$soname" ]] || fail "the SONAME is not $soname"
if readelf -d "$so" | grep -E 'RPATH|RUNPATH'; then fail "libfairmines.so has an rpath"; fi
glibc_floor "$so" >/dev/null
if strings "$so" "$prefix/lib/libfairmines.a" | grep -E '/(root|home|work|tmp)/' | head -5 | grep .; then fail "build paths (above)"; fi
if grep -q -- '-lgcc_s' "$prefix"/lib/pkgconfig/*.pc "$prefix/lib/cmake/fairmines/fairmines-config.cmake"; then fail "-lgcc_s in the static flags"; fi
if nm "$mprefix/lib/libfairmines.a" 2>/dev/null | grep '@GLIBC_'; then fail "the musl archive references glibc"; fi
grep -q ' t _Unwind_Resume$' <<<"$(nm "$mprefix/lib/libfairmines.a" 2>/dev/null)" || fail "no unwinder inside the musl libfairmines.a"
grep -qx 'native_static_libs=-lc' "$mprefix/lib/pkgconfig/fairmines-static.pc" || fail "the musl .pc's native libraries"
if grep -q 'fairmines::shared' "$mprefix/lib/cmake/fairmines/fairmines-config.cmake"; then fail "fairmines::shared for musl"; fi

step "the vector suite against both archives"
sh "$TMP/run.sh"
sh "$TMP/run.sh" musl
{ cmake -S "$TMP/cpp" -B "$TMP/cmake-cpp" -DCMAKE_PREFIX_PATH="$prefix" && cmake --build "$TMP/cmake-cpp"; } >"$TMP/cpp.log" 2>&1 &&
    "$TMP/cmake-cpp/smoke" >/dev/null || { cat "$TMP/cpp.log" >&2; fail "the C++17 smoke test"; }
echo "  the C++17 smoke test through CMake: passed"
step "README.md's blocks"
run_readme "$prefix" "$TMP/readme-gnu"
run_readme "$mprefix" "$TMP/readme-musl"
