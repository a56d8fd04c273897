#!/usr/bin/env bash
# Checks the C archives of dist/ as a user uses them: unpacked then moved, their layout and symbols, the C vector suite (bindings/c/tests) built through pkg-config and CMake (musl: musl-gcc -static), the C++ smoke test, each README's sh blocks run as written; the aarch64 archives inside an arm64 Debian root under QEMU with its own compilers (debian-root.sh, arm64.sh); `--into DIR`: works in DIR and keeps it (DIR/run.sh: the x86_64 gnu suite, for Debian 11).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
source scripts/debian-root.sh
source scripts/arm64.sh
export LC_ALL=C
need cc:gcc g++:g++ cmake:cmake make:make pkg-config:pkgconf readelf:binutils musl-gcc:musl-tools
if [[ ${1:-} == --into ]]; then mkdir -p "$2" && TMP=$(cd "$2" && pwd); else scratch; fi
# DIR/run.sh, the suite in POSIX sh (Debian 11 and the arm64 root run it too) against DIR/moved/{$gnu,$musl}:
# sh run.sh [musl], in a fresh folder out-gnu or out-musl; sh run.sh cpp: the C++17 smoke test through CMake.
suite() { # DIR
    mkdir -p "$1/src" && cp bindings/c/tests/{test_fairmines.c,test_game.c,json.c,json.h,check.h} bindings/c/tests/dist/CMakeLists.txt "$1/src/"
    cp -r bindings/c/tests/cpp "$1/cpp" && cp vectors/vectors.json "$1/"
    { echo "version=$version gnu=$gnu musl=$musl"; cat <<'SH'; } >"$1/run.sh"
set -eu
cd "$(dirname "$0")"
if [ "${1:-}" = cpp ]; then
    rm -rf cmake-cpp
    { cmake -S cpp -B cmake-cpp -DCMAKE_PREFIX_PATH="$PWD/moved/$gnu" && cmake --build cmake-cpp; } >cpp.log 2>&1 &&
        cmake-cpp/smoke >/dev/null || { cat cpp.log >&2; echo "FAILED: the C++17 smoke test" >&2; exit 1; }
    echo "  the C++17 smoke test through CMake: passed"
    exit 0
fi
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
echo "$kind: $(uname -m), $(. /etc/os-release && echo "$PRETTY_NAME"), $(ldd --version 2>&1 | head -n 1)"
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
}

# The ```sh blocks of README.md in order in one bash, FAIRMINES set: each "$ COMMAND" must succeed, printing the
# lines under it. `readme PREFIX FOLDER`: the script in TMP_ARCH/FOLDER, run there by `arch_run` with
# FAIRMINES=TMP_ARCH/PREFIX.
readme() {
    local prefix=$1 folder=$2
    mkdir -p "$TMP_ARCH/$folder"
    python3 - "$TMP_ARCH/$prefix/README.md" "$TMP_ARCH/$folder" <<'PY'
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
    # shellcheck disable=SC2016
    arch_run "$arch" "$TMP_ARCH" bash -c 'export FAIRMINES=$PWD/$1 && cd "$2" && bash steps.sh' readme "$prefix" "$folder" ||
        { cat "$TMP_ARCH/$folder/err.$(cat "$TMP_ARCH/$folder/.step")" >&2
          fail "$prefix/README.md: block $(cat "$TMP_ARCH/$folder/.step") failed or printed another output (above)"; }
    # A file named as if at hand is in the archive: the repository's pages are described, not named.
    if grep -n 'ALGORITHM\.md' "$TMP_ARCH/$prefix/README.md"; then fail "$prefix/README.md names ALGORITHM.md, which the archive does not hold"; fi
    echo "$(basename "$prefix")/README.md: every command ran as written, each printed what it shows"
}
declared=$(grep -oE '\bfairmines_[a-z0-9_]+\(' include/fairmines.h | tr -d '(' | sort -u | xargs)
common=$(printf '%s\n' include include/fairmines.h lib lib/cmake lib/cmake/fairmines lib/libfairmines.a lib/pkgconfig \
    lib/cmake/fairmines/fairmines-config{,-version}.cmake lib/pkgconfig/fairmines{,-static}.pc examples examples/cpp \
    examples/cpp/{CMakeLists.txt,verify_round.cpp} examples/{mines,verify_round}.c LICENSE-{APACHE,MIT} README.md \
    share share/doc share/doc/fairmines share/doc/fairmines/LICENSE-{APACHE,MIT} share/fairmines share/fairmines/valgrind.supp)
case $version in 0.0.*) soname=libfairmines.so.$version ;; 0.*) soname=libfairmines.so.0.$(cut -d. -f2 <<<"$version") ;;
    *) soname=libfairmines.so.${version%%.*} ;; esac

# The two archives of ARCH unpacked into TMP_ARCH/moved and checked from here; then, by `arch_run`, the suite, the C++
# smoke test and the READMEs.
check_arch() {
    arch=$1
    local machine
    machine=$(elf_machine "$arch")
    gnu=fairmines-$version-$arch-linux-gnu musl=fairmines-$version-$arch-linux-musl
    suite "$TMP_ARCH"
    for name in "$gnu" "$musl"; do
        step "$name.tar.gz: unpacked, moved, its entries, owners, modes and symbols"
        local want=$common
        [[ $name == "$gnu" ]] && want+=$'\n'$(printf '%s\n' lib/libfairmines.so "lib/$soname" "lib/libfairmines.so.$version")
        got=$(tar -tzf "dist/$name.tar.gz" | sed "s|^$name/||; /^\$/d; s|/\$||" | sort)
        diff <(sort <<<"$want") <(echo "$got") >&2 || fail "$name.tar.gz: unexpected entries (-want +got)"
        if tar -tvzf "dist/$name.tar.gz" | awk '$2 != "0/0" || $1 !~ /^(-rw-r--r--|-rwxr-xr-x|drwxr-xr-x|lrwxrwxrwx)$/' | grep .; then
            fail "$name.tar.gz: owners other than 0/0 or unusual modes (above)"
        fi
        mkdir -p "$TMP_ARCH/unpack" "$TMP_ARCH/moved" && tar -xzf "dist/$name.tar.gz" -C "$TMP_ARCH/unpack"
        mv "$TMP_ARCH/unpack/$name" "$TMP_ARCH/moved/$name" && rmdir "$TMP_ARCH/unpack"
        [[ $(nm -g --defined-only "$TMP_ARCH/moved/$name/lib/libfairmines.a" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u | xargs) == "$declared" ]] ||
            fail "$name: libfairmines.a's global symbols are not exactly the header's functions"
        # (readelf -h names the machine of each member of an archive.)
        if readelf -h "$TMP_ARCH/moved/$name"/lib/libfairmines.* | grep 'Machine:' | grep -v "$machine"; then fail "$name: not all $machine"; fi
    done
    local prefix=$TMP_ARCH/moved/$gnu mprefix=$TMP_ARCH/moved/$musl so=$TMP_ARCH/moved/$gnu/lib/libfairmines.so.$version
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

    step "$arch: the vector suite against both archives, the C++17 smoke test, README.md's blocks$([[ $arch != aarch64 ]] ||
        echo ' (in the arm64 root, its gcc and cmake, under QEMU)')"
    # At once, each in a folder of its own (under QEMU a compiler uses one core), their outputs shown in order.
    local job pids=() failed=
    for job in gnu musl cpp; do arch_run "$arch" "$TMP_ARCH" sh run.sh "$job" >"$TMP_ARCH/$job.out" 2>&1 & pids+=($!); done
    (readme "moved/$gnu" readme-gnu) >"$TMP_ARCH/readme-gnu.out" 2>&1 & pids+=($!)
    (readme "moved/$musl" readme-musl) >"$TMP_ARCH/readme-musl.out" 2>&1 & pids+=($!)
    for job in gnu musl cpp readme-gnu readme-musl; do
        wait "${pids[0]}" || failed+=" $job"
        pids=("${pids[@]:1}") && cat "$TMP_ARCH/$job.out"
    done
    [[ -z $failed ]] || fail "$arch:$failed failed (above)"
}

# x86_64 in TMP (Debian 11 runs its run.sh again: test-dist.sh); aarch64 in TMP/aarch64, in the arm64 root.
for arch in "${C_ARCHES[@]}"; do
    TMP_ARCH=$TMP
    if [[ $arch == aarch64 ]]; then
        TMP_ARCH=$TMP/$arch && mkdir -p "$TMP_ARCH"
        arm64_emulation && debian_root "${ARM64[@]}"
    fi
    check_arch "$arch"
done
