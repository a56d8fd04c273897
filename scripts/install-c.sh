#!/usr/bin/env bash
# Builds and installs the fairmines C library (Linux):
#   scripts/install-c.sh [PREFIX]        (or PREFIX=/some/dir scripts/install-c.sh; default /usr/local)
# Installs, for version X.Y.Z (the workspace version in Cargo.toml) and its SONAME (see below):
#   PREFIX/include/fairmines.h
#   PREFIX/lib/libfairmines.a
#   PREFIX/lib/libfairmines.so.X.Y.Z                        the shared library, SONAME libfairmines.so.0.Y (X = 0)
#   PREFIX/lib/libfairmines.so.0.Y -> libfairmines.so.X.Y.Z   the name programs record and the loader looks for
#   PREFIX/lib/libfairmines.so -> libfairmines.so.0.Y       the name the linker finds for -lfairmines
#   PREFIX/lib/pkgconfig/fairmines.pc                       pkg-config fairmines (shared library)
#   PREFIX/lib/pkgconfig/fairmines-static.pc                pkg-config fairmines-static (libfairmines.a)
#   PREFIX/lib/cmake/fairmines/fairmines-config.cmake       find_package(fairmines): fairmines::static, ::shared
#   PREFIX/lib/cmake/fairmines/fairmines-config-version.cmake
#   PREFIX/share/fairmines/valgrind.supp                    valgrind suppressions for programs using the library
#   PREFIX/share/doc/fairmines/LICENSE-MIT, LICENSE-APACHE  the licenses (MIT OR Apache-2.0)
# Everything is relocatable: the .pc and CMake files find the prefix from their own location.
# The SONAME is the one build.rs gave target/release/libfairmines.so (Cargo's compatibility rule: 0.Y while
# the major version is 0, then X), read back here with readelf.
# Set FAIRMINES_NO_BUILD=1 to install what target/release already holds. scripts/dist-c.sh (the release
# archives) also sets FAIRMINES_LIB_DIR (where the built libraries are, instead of target/release; with no
# libfairmines.so there, a static-only prefix: no .so, no fairmines::shared) and FAIRMINES_STATIC_LIBS (the
# native static libraries of that target, when they differ from the list below).
set -euo pipefail
cd "$(dirname "$0")/.."

PREFIX="${1:-${PREFIX:-/usr/local}}"
mkdir -p "$PREFIX"
PREFIX="$(cd "$PREFIX" && pwd)"
TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
LIB_DIR="${FAIRMINES_LIB_DIR:-$TARGET_DIR/release}"
command -v readelf >/dev/null || { echo "install-c: readelf (binutils) is required" >&2; exit 1; }

# The native libraries a program linking libfairmines.a needs, exactly as
# `cargo rustc --release -p fairmines-c --lib -- --print native-static-libs` prints them on Linux.
# Documented in bindings/c/README.md; scripts/test-c.sh fails when rustc's list changes.
FAIRMINES_NATIVE_STATIC_LIBS="-lc -lm -lrt -lpthread -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"
[ -z "${FAIRMINES_STATIC_LIBS:-}" ] || FAIRMINES_NATIVE_STATIC_LIBS="$FAIRMINES_STATIC_LIBS"   # scripts/dist-c.sh (musl)

if [ "${FAIRMINES_NO_BUILD:-0}" != 1 ]; then
    # The command of bindings/c/README.md.
    cargo build --release -p fairmines-c
fi

version="$(sed -n 's/^#define FAIRMINES_VERSION_STRING "\(.*\)"$/\1/p' include/fairmines.h)"
major="$(sed -n 's/^#define FAIRMINES_VERSION_MAJOR \([0-9]*\)$/\1/p' include/fairmines.h)"
minor="$(sed -n 's/^#define FAIRMINES_VERSION_MINOR \([0-9]*\)$/\1/p' include/fairmines.h)"
[ -n "$version" ] && [ -n "$major" ] && [ -n "$minor" ] || { echo "install-c: no version in include/fairmines.h" >&2; exit 1; }
shared="$LIB_DIR/libfairmines.so"
soname=
if [ -n "${FAIRMINES_LIB_DIR:-}" ] && [ ! -e "$shared" ]; then
    shared=   # a static-only target (musl)
else
    soname="$(readelf -d "$shared" | sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p')"
    case "$soname" in
        libfairmines.so.?*) ;;
        *) echo "install-c: $shared has no versioned SONAME (got '$soname'); rebuild it" >&2; exit 1 ;;
    esac
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
cmake_libs="$(printf '%s;' $FAIRMINES_NATIVE_STATIC_LIBS)"
cmake_libs="${cmake_libs%;}"
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
