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

# pkg-config: prefix from the .pc file's own directory (pkgconf and pkg-config both define pcfiledir).
pc_head() { # module description
    cat <<EOF
# pkg-config module $1 of the fairmines C library $version (written by scripts/install-c.sh).
# Relocatable: the prefix is found from this file's directory.
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib
includedir=\${prefix}/include
# rustc --print native-static-libs: what a program linking libfairmines.a needs besides it.
native_static_libs=$FAIRMINES_NATIVE_STATIC_LIBS

Name: $1
Description: $2
URL: https://github.com/fairmines/fairmines
Version: $version
Cflags: -I\${includedir}
EOF
}
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
cat > "$PREFIX/lib/cmake/fairmines/fairmines-config.cmake" <<EOF
# CMake package of the fairmines C library $version (written by scripts/install-c.sh).
#   find_package(fairmines REQUIRED)
#   target_link_libraries(app PRIVATE fairmines::fairmines)   # static; fairmines::shared for the .so
# Relocatable: paths are relative to this file.
get_filename_component(_fairmines_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET fairmines::static)
  add_library(fairmines::static STATIC IMPORTED)
  set_target_properties(fairmines::static PROPERTIES
    IMPORTED_LOCATION "\${_fairmines_prefix}/lib/libfairmines.a"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "\${_fairmines_prefix}/include"
    # The native libraries of the static library (rustc --print native-static-libs).
    INTERFACE_LINK_LIBRARIES "$cmake_libs")
endif()

if(NOT TARGET fairmines::shared)
  add_library(fairmines::shared SHARED IMPORTED)
  # CMake puts this directory in the build tree's RPATH; installed programs need CMAKE_INSTALL_RPATH
  # (or ldconfig): see bindings/c/README.md.
  set_target_properties(fairmines::shared PROPERTIES
    IMPORTED_LOCATION "\${_fairmines_prefix}/lib/$realname"
    IMPORTED_SONAME "$soname"
    INTERFACE_INCLUDE_DIRECTORIES "\${_fairmines_prefix}/include")
endif()

if(NOT TARGET fairmines::fairmines)
  add_library(fairmines::fairmines INTERFACE IMPORTED)
  set_target_properties(fairmines::fairmines PROPERTIES INTERFACE_LINK_LIBRARIES fairmines::static)
endif()

set(fairmines_VERSION "$version")
set(fairmines_INCLUDE_DIRS "\${_fairmines_prefix}/include")
set(fairmines_LIBRARIES fairmines::fairmines)
# valgrind --suppressions=\${fairmines_VALGRIND_SUPPRESSIONS}
set(fairmines_VALGRIND_SUPPRESSIONS "\${_fairmines_prefix}/share/fairmines/valgrind.supp")
unset(_fairmines_prefix)
EOF
if [ -z "$shared" ]; then   # static-only: no fairmines::shared
    sed -i -e '/^if(NOT TARGET fairmines::shared)$/,/^$/d' \
        -e 's|# static; fairmines::shared for the \.so$|# static (this package has no shared library)|' \
        "$PREFIX/lib/cmake/fairmines/fairmines-config.cmake"
fi

cat > "$PREFIX/lib/cmake/fairmines/fairmines-config-version.cmake" <<EOF
# fairmines $version: a request is compatible when it has the same major version (and, while the
# major version is 0, the same minor version: the SONAME's rule) and is not newer than this one.
set(PACKAGE_VERSION "$version")
set(PACKAGE_VERSION_COMPATIBLE FALSE)
if(NOT PACKAGE_FIND_VERSION VERSION_GREATER PACKAGE_VERSION
   AND "\${PACKAGE_FIND_VERSION_MAJOR}" STREQUAL "$major"
   AND ("$major" STRGREATER "0" OR "\${PACKAGE_FIND_VERSION_MINOR}" STREQUAL "$minor" OR "\${PACKAGE_FIND_VERSION_MINOR}" STREQUAL ""))
  set(PACKAGE_VERSION_COMPATIBLE TRUE)
endif()
if(PACKAGE_FIND_VERSION STREQUAL PACKAGE_VERSION)
  set(PACKAGE_VERSION_EXACT TRUE)
endif()
if(NOT CMAKE_SIZEOF_VOID_P STREQUAL "8")
  set(PACKAGE_VERSION_UNSUITABLE TRUE)
endif()
EOF

echo "installed fairmines $version (${soname:-static only}) into $PREFIX"
