#!/usr/bin/env bash
# Checks the C/C++ archives that scripts/dist-c.sh wrote into dist/, as a user would use them: each is unpacked
# into a new folder outside the source tree, then MOVED to another folder (nothing may point at where it was
# unpacked), and the C vector test (bindings/c/tests: every case of vectors/vectors.json through every function,
# threads sharing handles), copied out of the tree, is built against it and run:
#   x86_64-linux-gnu:  the layout, the SONAME and its links, glibc 2.17 at most (objdump -T); pkg-config
#                      fairmines (shared, run through the rpath and through LD_LIBRARY_PATH) and --static
#                      fairmines-static; CMake (find_package, -DCMAKE_PREFIX_PATH=<moved>) fairmines::fairmines
#                      (static) and fairmines::shared; the C++17 smoke (bindings/c/tests/cpp) through CMake;
#                      no -lgcc_s in the static flags
#   both:              libfairmines.a's global symbols are exactly the header's functions (Rust's runtime
#                      hidden); README.md's sh blocks run as written (C with pkg-config, -static, the shared
#                      library through $ORIGIN/../lib after its folder is moved, C++ with CMake; musl:
#                      musl-gcc -static), each output compared with the one shown
#   x86_64-linux-musl: the layout (no .so), no glibc symbol versions; with musl-gcc (Debian's musl-tools,
#                      installed when missing): static through pkg-config fairmines-static and fairmines
#                      --static, and through CMake (CC=musl-gcc); without musl-gcc, the symbol checks only
# dist/SHA256SUMS, when there, must list both archives and hold. Runs as root on a fresh Debian (installs the
# missing packages). The glibc floor for real, in a Debian 11 root: scripts/test-dist-oldglibc.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export LC_ALL=C

step() { printf '\n==> test-dist-c: %s\n' "$*"; }
fail() { echo "test-dist-c: $*" >&2; exit 1; }
need() { command -v "$1" >/dev/null 2>&1; }
needs_fairmines() { readelf -d "$1" | grep 'NEEDED' | grep -o 'libfairmines[^]]*' || true; }

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
gnu=fairmines-$version-x86_64-linux-gnu
musl=fairmines-$version-x86_64-linux-musl
for name in "$gnu" "$musl"; do
    [[ -f dist/$name.tar.gz ]] || fail "dist/$name.tar.gz is missing (scripts/dist-c.sh)"
done
if [[ -f dist/SHA256SUMS ]]; then
    for name in "$gnu" "$musl"; do
        grep -q " $name.tar.gz\$" dist/SHA256SUMS || fail "dist/SHA256SUMS does not list $name.tar.gz"
    done
    (cd dist && sha256sum --quiet -c --ignore-missing SHA256SUMS)
fi

missing=()
need cc || missing+=(gcc)
need cmake || missing+=(cmake)
need make || missing+=(make)
need pkg-config || missing+=(pkgconf)
need readelf || missing+=(binutils)
need musl-gcc || missing+=(musl-tools)
if (( ${#missing[@]} )); then
    step "installing ${missing[*]}"
    if [[ $(id -u) == 0 ]] && need apt-get; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq --no-install-recommends "${missing[@]}" libc6-dev >/dev/null ||
            echo "test-dist-c: could not install ${missing[*]}"
    fi
fi
for tool in cc cmake make pkg-config readelf objdump nm; do need "$tool" || fail "$tool is required"; done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The test's sources and the vectors, out of the source tree.
src=$tmp/src
mkdir -p "$src"
cp bindings/c/tests/{test_fairmines.c,test_game.c,json.c,json.h,check.h} bindings/c/tests/dist/CMakeLists.txt "$src/"
cp -r bindings/c/tests/cpp "$tmp/cpp"
cp vectors/vectors.json "$tmp/vectors.json"
VECTORS=$tmp/vectors.json
cd "$tmp"
sources=("$src/test_fairmines.c" "$src/test_game.c" "$src/json.c")
cflags=(-std=c11 -Wall -Wextra -pedantic -pthread -O2)

# Unpacks dist/$1.tar.gz into a new folder, moves the result to $tmp/moved/$1, removes the first folder and
# checks the list of entries against $2 (one per line, sorted, relative to the archive's folder).
unpack_moved() {
    local name=$1 want=$2 got
    got=$(tar -tzf "$ROOT/dist/$name.tar.gz" | sed "s|^$name/||; /^\$/d; s|/\$||" | sort)
    diff <(echo "$want") <(echo "$got") >&2 || fail "$name.tar.gz: unexpected entries (diff above: -want +got)"
    if tar -tvzf "$ROOT/dist/$name.tar.gz" | awk '$2 != "0/0" || $1 !~ /^(-rw-r--r--|-rwxr-xr-x|drwxr-xr-x|lrwxrwxrwx)$/' | grep .; then
        fail "$name.tar.gz: owners other than 0/0 or unusual modes (above)"
    fi
    mkdir -p "$tmp/unpack-$name" "$tmp/moved"
    tar -xzf "$ROOT/dist/$name.tar.gz" -C "$tmp/unpack-$name"
    mv "$tmp/unpack-$name/$name" "$tmp/moved/$name"
    rmdir "$tmp/unpack-$name"
}
common="include
include/fairmines.h
lib
lib/cmake
lib/cmake/fairmines
lib/cmake/fairmines/fairmines-config-version.cmake
lib/cmake/fairmines/fairmines-config.cmake
lib/libfairmines.a
lib/pkgconfig
lib/pkgconfig/fairmines-static.pc
lib/pkgconfig/fairmines.pc
examples
examples/cpp
examples/cpp/CMakeLists.txt
examples/cpp/verify_round.cpp
examples/mines.c
examples/verify_round.c
LICENSE-APACHE
LICENSE-MIT
README.md
share
share/doc
share/doc/fairmines
share/doc/fairmines/LICENSE-APACHE
share/doc/fairmines/LICENSE-MIT
share/fairmines
share/fairmines/valgrind.supp"
run_vectors() { # program, label
    local out
    out=$(env -u LD_LIBRARY_PATH "$1" "$VECTORS") || { echo "$out" >&2; fail "$2: the vector test failed"; }
    out=$(tail -n 1 <<<"$out")
    grep -q '^fairmines C tests: [1-9][0-9]* vectors, [0-9]* checks, 0 failures$' <<<"$out" || fail "$2: $out"
    echo "$2: $out"
}

# libfairmines.a defines, as global symbols, exactly the functions the header declares: Rust's runtime
# inside it is local, so it links beside other Rust static libraries or a C++ runtime.
declared=$(grep -oE '\bfairmines_[a-z0-9_]+\(' "$ROOT/include/fairmines.h" | tr -d '(' | sort -u)
exports_only_the_api() { # archive, label
    local got
    got=$(nm -g --defined-only "$1" 2>/dev/null | awk 'NF == 3 { print $3 }' | sort -u)
    diff <(echo "$declared") <(echo "$got") >&2 ||
        fail "$2: libfairmines.a's global symbols are not the header's functions (diff above: -header +archive)"
    echo "$2: libfairmines.a exports $(wc -l <<<"$got") symbols, the header's $(wc -l <<<"$declared") fairmines_* functions, nothing else"
}
# Every ```sh block of the archive's README.md, run as written, in order, in one bash (so exports carry on),
# in a new folder, with FAIRMINES set to the moved archive folder: each line "$ COMMAND" is run and must
# succeed; the lines under it, when there are any, are what it must print on standard output.
run_readme() { # archive folder, work folder, label
    local dir=$1 work=$2 label=$3
    mkdir -p "$work"
    python3 - "$dir/README.md" "$work" <<'PY' || fail "$label: README.md has no runnable block"
import pathlib, re, sys
readme, work = sys.argv[1:]
text = pathlib.Path(readme).read_text()
steps = []
for block in re.findall(r"^```sh\n(.*?)^```$", text, re.S | re.M):
    for line in block.splitlines():
        if line.startswith("$ "):
            steps.append([line[2:], []])
        else:
            steps[-1][1].append(line)
assert steps, "no command"
work = pathlib.Path(work)
script = ["set -eo pipefail"]
for i, (command, shown) in enumerate(steps):
    (work / f"cmd.{i}").write_text(command + "\n")
    (work / f"shown.{i}").write_text("".join(l + "\n" for l in shown))
    script.append(f"echo {i} > .step; {command} > out.{i} 2> err.{i}")
(work / "steps.sh").write_text("\n".join(script) + "\n")
(work / "count").write_text(str(len(steps)))
PY
    (cd "$work" && FAIRMINES=$dir env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH bash steps.sh) || {
        local i; i=$(cat "$work/.step")
        cat "$work/err.$i" >&2
        fail "$label: README.md's command failed: $(cat "$work/cmd.$i")"
    }
    local i n; n=$(cat "$work/count")
    for ((i = 0; i < n; i++)); do
        [[ ! -s $work/shown.$i ]] && continue
        diff "$work/shown.$i" "$work/out.$i" >&2 ||
            fail "$label: README.md's $(cat "$work/cmd.$i") printed another output (diff above: -shown +printed)"
    done
    echo "$label: README.md's $n commands run as written, their outputs as shown"
}

# -- glibc -----------------------------------------------------------------------------------------------
step "$gnu.tar.gz ($(stat -c %s "$ROOT/dist/$gnu.tar.gz") bytes): unpacked, moved"
abi=$(sed -n 's/^#define FAIRMINES_VERSION_STRING "\(.*\)"$/\1/p' "$ROOT/include/fairmines.h")
[[ $abi == "$version" ]] || fail "include/fairmines.h says $abi, Cargo.toml $version"
case $version in 0.0.*) soname=libfairmines.so.$version ;; 0.*) soname=libfairmines.so.0.$(cut -d. -f2 <<<"$version") ;;
    *) soname=libfairmines.so.${version%%.*} ;; esac
unpack_moved "$gnu" "$(printf '%s\n' "$common" lib/libfairmines.so "lib/$soname" "lib/libfairmines.so.$version" | sort)"
prefix=$tmp/moved/$gnu
so=$prefix/lib/libfairmines.so.$version
[[ $(readlink "$prefix/lib/libfairmines.so") == "$soname" && $(readlink "$prefix/lib/$soname") == "libfairmines.so.$version" ]] ||
    fail "the links: $(ls -l "$prefix/lib")"
got=$(readelf -d "$so" | sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p')
[[ $got == "$soname" ]] || fail "SONAME $got, want $soname"
newest=$(objdump -T "$so" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -n 1)
[[ $(printf '%s\n' GLIBC_2.17 "$newest" | sort -V | tail -n 1) == GLIBC_2.17 ]] || fail "libfairmines.so needs $newest"
if readelf -d "$so" | grep -E 'RPATH|RUNPATH'; then fail "libfairmines.so has an rpath"; fi
if strings "$so" "$prefix/lib/libfairmines.a" | grep -E '/(root|home|work|tmp)/' | head -5 | grep .; then
    fail "build paths in the libraries (above)"
fi
[[ $(cat "$prefix"/lib/pkgconfig/*.pc | grep -c "^Version: $version\$") == 2 ]] || fail "the .pc files' version"
echo "SONAME $soname, newest symbol $newest, no rpath, no build paths"

step "gnu: pkg-config fairmines (shared), PKG_CONFIG_PATH=<moved>/lib/pkgconfig"
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
[[ $(pkg-config --modversion fairmines) == "$version" ]] || fail "pkg-config --modversion fairmines"
# shellcheck disable=SC2046
cc "${cflags[@]}" -o pc_shared "${sources[@]}" $(pkg-config --cflags --libs fairmines) -Wl,-rpath,"$prefix/lib"
[[ $(needs_fairmines pc_shared) == "$soname" ]] || fail "pc_shared needs '$(needs_fairmines pc_shared)'"
run_vectors ./pc_shared "pkg-config shared (rpath)"
# shellcheck disable=SC2046
cc "${cflags[@]}" -o pc_shared_noroot "${sources[@]}" $(pkg-config --cflags --libs fairmines)
out=$(LD_LIBRARY_PATH=$prefix/lib ./pc_shared_noroot "$VECTORS") || fail "LD_LIBRARY_PATH run: $out"
echo "pkg-config shared (LD_LIBRARY_PATH): $(tail -n 1 <<<"$out")"

step "gnu: pkg-config --static fairmines-static"
# shellcheck disable=SC2046
cc "${cflags[@]}" -o pc_static "${sources[@]}" $(pkg-config --cflags --libs --static fairmines-static)
[[ -z $(needs_fairmines pc_static) ]] || fail "pc_static needs $(needs_fairmines pc_static)"
run_vectors ./pc_static "pkg-config static"
unset PKG_CONFIG_PATH

step "gnu: CMake, find_package(fairmines) with -DCMAKE_PREFIX_PATH=<moved>: fairmines::fairmines (static), fairmines::shared"
cmake -S "$src" -B cmake-gnu -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
    -DFAIRMINES_EXPECT_VERSION="$version" >cmake-gnu.log 2>&1 || { cat cmake-gnu.log >&2; fail "CMake configure (gnu)"; }
grep 'fairmines .* from' cmake-gnu.log
cmake --build cmake-gnu >>cmake-gnu.log 2>&1 || { cat cmake-gnu.log >&2; fail "CMake build (gnu)"; }
[[ -z $(needs_fairmines cmake-gnu/test_static) ]] || fail "CMake test_static needs libfairmines"
[[ $(needs_fairmines cmake-gnu/test_shared) == "$soname" ]] || fail "CMake test_shared does not need $soname"
run_vectors cmake-gnu/test_static "CMake fairmines::fairmines (static)"
run_vectors cmake-gnu/test_shared "CMake fairmines::shared"
{ cmake -S "$tmp/cpp" -B cmake-cpp -DCMAKE_PREFIX_PATH="$prefix" >cmake-cpp.log 2>&1 &&
    cmake --build cmake-cpp >>cmake-cpp.log 2>&1; } || { cat cmake-cpp.log >&2; fail "CMake C++17 smoke"; }
./cmake-cpp/smoke >/dev/null || fail "the C++17 smoke failed"
echo "CMake C++17 smoke (static): passed"
exports_only_the_api "$prefix/lib/libfairmines.a" gnu
if grep -q -- '-lgcc_s' "$prefix"/lib/pkgconfig/*.pc "$prefix/lib/cmake/fairmines/fairmines-config.cmake"; then
    fail "gnu: the static link flags name -lgcc_s (a -static link has none)"
fi
step "gnu: README.md's blocks (C with pkg-config, static and -static; the shared library through \$ORIGIN after a move; C++ with CMake)"
run_readme "$prefix" "$tmp/readme-gnu" gnu

# -- musl ------------------------------------------------------------------------------------------------
step "$musl.tar.gz ($(stat -c %s "$ROOT/dist/$musl.tar.gz") bytes): unpacked, moved"
unpack_moved "$musl" "$(sort <<<"$common")"
mprefix=$tmp/moved/$musl
if nm "$mprefix/lib/libfairmines.a" 2>/dev/null | grep '@GLIBC_'; then fail "the musl archive references glibc"; fi
exports_only_the_api "$mprefix/lib/libfairmines.a" musl
# The unwinder is inside (local): a static link needs only -lc.
grep -q ' t _Unwind_Resume$' <<<"$(nm "$mprefix/lib/libfairmines.a" 2>/dev/null)" || fail "libfairmines.a (musl) has no unwinder inside"
grep -qx 'native_static_libs=-lc' "$mprefix/lib/pkgconfig/fairmines-static.pc" || fail "musl .pc: native libs"
if grep -q 'fairmines::shared' "$mprefix/lib/cmake/fairmines/fairmines-config.cmake"; then fail "musl CMake: fairmines::shared"; fi
echo "static library only, exports fairmines_* only, the unwinder inside, no glibc symbols; .pc and CMake files static"
if need musl-gcc; then
    step "musl: musl-gcc -static, pkg-config fairmines-static and fairmines --static"
    export PKG_CONFIG_PATH=$mprefix/lib/pkgconfig
    for module in fairmines-static fairmines; do
        # shellcheck disable=SC2046
        musl-gcc -static "${cflags[@]}" -o "musl_$module" "${sources[@]}" $(pkg-config --cflags --libs --static "$module")
        file "musl_$module" | grep -Eq 'statically linked|static-pie linked' || fail "musl_$module: $(file "musl_$module")"
        run_vectors "./musl_$module" "musl-gcc -static, pkg-config --static $module"
    done
    unset PKG_CONFIG_PATH
    step "musl: CMake with CC=musl-gcc, fairmines::fairmines"
    { CC=musl-gcc cmake -S "$src" -B cmake-musl -DCMAKE_PREFIX_PATH="$mprefix" -DCMAKE_BUILD_TYPE=Release \
        -DFAIRMINES_TEST_SHARED=OFF -DFAIRMINES_EXPECT_VERSION="$version" -DCMAKE_EXE_LINKER_FLAGS=-static \
        >cmake-musl.log 2>&1 && cmake --build cmake-musl >>cmake-musl.log 2>&1; } ||
        { cat cmake-musl.log >&2; fail "CMake (musl)"; }
    run_vectors cmake-musl/test_static "CMake fairmines::fairmines (musl-gcc, static)"
    step "musl: README.md's blocks (musl-gcc -static with pkg-config)"
    run_readme "$mprefix" "$tmp/readme-musl" musl
else
    echo "test-dist-c: NOTE: no musl-gcc here (apt-get install musl-tools): the musl archive was checked by its symbols only"
fi

step "C/C++ archives: all checks passed"
