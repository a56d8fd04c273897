#!/usr/bin/env bash
# install-c.sh [PREFIX (/usr/local)]: the C library, relocatable: header, libfairmines.a, libfairmines.so with its SONAME links,
# pkg-config and CMake packages, valgrind suppressions, licences (bindings/c/README.md). FAIRMINES_NO_BUILD=1: what
# target/release holds; scripts/dist-c.sh also sets FAIRMINES_LIB_DIR (no .so there: static only) and FAIRMINES_STATIC_LIBS.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

PREFIX="${1:-${PREFIX:-/usr/local}}"
PREFIX="$(mkdir -p "$PREFIX" && cd "$PREFIX" && pwd)"
LIB_DIR="${FAIRMINES_LIB_DIR:-${CARGO_TARGET_DIR:-$PWD/target}/release}"
have readelf || fail "readelf (binutils) is required"

# What a program linking libfairmines.a needs, as rustc --print native-static-libs says on Linux (scripts/test-c.sh checks it).
FAIRMINES_NATIVE_STATIC_LIBS="-lc -lm -lrt -lpthread -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
[ -z "${FAIRMINES_STATIC_LIBS:-}" ] || FAIRMINES_NATIVE_STATIC_LIBS="$FAIRMINES_STATIC_LIBS"   # scripts/dist-c.sh (musl)

[ "${FAIRMINES_NO_BUILD:-0}" = 1 ] || cargo build --release -p fairmines-c   # the command of bindings/c/README.md

define() { sed -n "s/^#define FAIRMINES_VERSION_$1 \"\{0,1\}\([0-9.]*\)\"\{0,1\}\$/\1/p" include/fairmines.h; }
version=$(define STRING) major=$(define MAJOR) minor=$(define MINOR)
[ -n "$version" ] && [ -n "$major" ] && [ -n "$minor" ] || fail "no version in include/fairmines.h"
shared="$LIB_DIR/libfairmines.so" soname=
[ -z "${FAIRMINES_LIB_DIR:-}" ] || [ -e "$shared" ] || shared=   # a static-only target (musl)
if [ -n "$shared" ]; then
    soname="$(readelf -d "$shared" | sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p')"
    [[ $soname == libfairmines.so.?* ]] || fail "$shared has no versioned SONAME (got '$soname'); rebuild it"
fi
realname="libfairmines.so.$version"

install -d "$PREFIX/include" "$PREFIX/lib/pkgconfig" "$PREFIX/lib/cmake/fairmines" "$PREFIX/share/fairmines" \
    "$PREFIX/share/doc/fairmines"
install -m 644 include/fairmines.h "$PREFIX/include/fairmines.h"
install -m 644 "$LIB_DIR/libfairmines.a" "$PREFIX/lib/libfairmines.a"
if [ -n "$shared" ]; then
    # The real file, then the two links (what ldconfig and every distribution's packages lay out).
    rm -f "$PREFIX/lib/libfairmines.so" "$PREFIX/lib/$soname"
    install -m 755 "$shared" "$PREFIX/lib/$realname"
    [ "$soname" = "$realname" ] || ln -s "$realname" "$PREFIX/lib/$soname"   # the same name for 0.0.z
    ln -s "$soname" "$PREFIX/lib/libfairmines.so"
fi
install -m 644 bindings/c/valgrind.supp "$PREFIX/share/fairmines/valgrind.supp"
install -m 644 LICENSE-MIT LICENSE-APACHE "$PREFIX/share/doc/fairmines/"

# The package files from their templates (bindings/c/package/*.in): @name@ replaced by the value.
fill() { # template [name=value ...]
    local template=$1 args=() pair; shift
    for pair in version="$version" "$@"; do args+=(-e "s|@${pair%%=*}@|${pair#*=}|g"); done
    sed "${args[@]}" "bindings/c/package/$template.in"
}
# pkg-config: relocatable (the prefix from the .pc file's own directory, pcfiledir).
pc_head() { fill fairmines.pc name="$1" description="$2" native_static_libs="$FAIRMINES_NATIVE_STATIC_LIBS"; }
{
    pc_head fairmines "Provably fair Mines (Cloudbet): commitments, round signatures and mine placement (shared library)"
    # --static adds Libs.private, for toolchains that pick libfairmines.a for -lfairmines themselves.
    echo 'Libs: -L${libdir} -lfairmines'
    echo 'Libs.private: ${native_static_libs}'
} >"$PREFIX/lib/pkgconfig/fairmines.pc"
{
    pc_head fairmines-static "Provably fair Mines (Cloudbet): the static library libfairmines.a"
    # The archive by its path (a -l would find libfairmines.so first), and its native libraries, which
    # every link of the archive needs: the same line with or without --static.
    echo 'Libs: ${libdir}/libfairmines.a ${native_static_libs}'
} >"$PREFIX/lib/pkgconfig/fairmines-static.pc"

# CMake wants a list: one item per flag.
cmake_libs="$(printf '%s;' $FAIRMINES_NATIVE_STATIC_LIBS)" && cmake_libs="${cmake_libs%;}"
fill fairmines-config.cmake cmake_libs="$cmake_libs" realname="$realname" soname="$soname" >"$PREFIX/lib/cmake/fairmines/fairmines-config.cmake"
if [ -z "$shared" ]; then   # static-only: no fairmines::shared
    sed -i -e '/^if(NOT TARGET fairmines::shared)$/,/^$/d' \
        -e 's|# static; fairmines::shared for the \.so$|# static (this package has no shared library)|' \
        "$PREFIX/lib/cmake/fairmines/fairmines-config.cmake"
fi

fill fairmines-config-version.cmake major="$major" minor="$minor" >"$PREFIX/lib/cmake/fairmines/fairmines-config-version.cmake"

echo "installed fairmines $version (${soname:-static only}) into $PREFIX"
