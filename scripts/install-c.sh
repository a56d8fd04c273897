#!/usr/bin/env bash
# Builds and installs the fairmines C library:
#   scripts/install-c.sh [PREFIX]        (or PREFIX=/some/dir scripts/install-c.sh; default /usr/local)
# Installs
#   PREFIX/include/fairmines.h
#   PREFIX/lib/libfairmines.a, PREFIX/lib/libfairmines.so
#   PREFIX/lib/pkgconfig/fairmines.pc                       (pkg-config fairmines)
#   PREFIX/lib/cmake/fairmines/fairmines-config.cmake       (find_package(fairmines))
#   PREFIX/lib/cmake/fairmines/fairmines-config-version.cmake
# Set FAIRMINES_NO_BUILD=1 to install what target/release already holds.
set -euo pipefail
cd "$(dirname "$0")/.."

PREFIX="${1:-${PREFIX:-/usr/local}}"
mkdir -p "$PREFIX"
PREFIX="$(cd "$PREFIX" && pwd)"
TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"

# The native libraries a program linking libfairmines.a needs, exactly as
# `cargo rustc --release -p fairmines-c --lib -- --print native-static-libs` prints them on Linux.
# Documented in bindings/c/README.md; scripts/test-c.sh fails when rustc's list changes.
FAIRMINES_NATIVE_STATIC_LIBS="-lc -lm -lrt -lpthread -lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"

if [ "${FAIRMINES_NO_BUILD:-0}" != 1 ]; then
    # The same command the test script uses (so neither rebuilds the other's output).
    cargo rustc --release -p fairmines-c --lib -- --print native-static-libs 2>&1 | sed '/^note: native-static-libs/d' >&2
fi

version="$(sed -n 's/^#define FAIRMINES_VERSION_STRING "\(.*\)"$/\1/p' include/fairmines.h)"
major="$(sed -n 's/^#define FAIRMINES_VERSION_MAJOR \([0-9]*\)$/\1/p' include/fairmines.h)"
minor="$(sed -n 's/^#define FAIRMINES_VERSION_MINOR \([0-9]*\)$/\1/p' include/fairmines.h)"
[ -n "$version" ] && [ -n "$major" ] && [ -n "$minor" ] || { echo "install-c: no version in include/fairmines.h" >&2; exit 1; }

install -d "$PREFIX/include" "$PREFIX/lib/pkgconfig" "$PREFIX/lib/cmake/fairmines"
install -m 644 include/fairmines.h "$PREFIX/include/fairmines.h"
install -m 644 "$TARGET_DIR/release/libfairmines.a" "$PREFIX/lib/libfairmines.a"
install -m 755 "$TARGET_DIR/release/libfairmines.so" "$PREFIX/lib/libfairmines.so"

cat > "$PREFIX/lib/pkgconfig/fairmines.pc" <<EOF
prefix=$PREFIX
exec_prefix=\${prefix}
libdir=\${exec_prefix}/lib
includedir=\${prefix}/include
# Static linking: \$(pkg-config --variable=staticlib fairmines) \$(pkg-config --variable=native_static_libs fairmines)
staticlib=\${libdir}/libfairmines.a
native_static_libs=$FAIRMINES_NATIVE_STATIC_LIBS

Name: fairmines
Description: Provably fair Mines (Cloudbet): commitments, round signatures and mine placement
URL: https://github.com/fairmines/fairmines
Version: $version
Cflags: -I\${includedir}
Libs: -L\${libdir} -lfairmines
Libs.private: \${native_static_libs}
EOF

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
  set_target_properties(fairmines::shared PROPERTIES
    IMPORTED_LOCATION "\${_fairmines_prefix}/lib/libfairmines.so"
    IMPORTED_SONAME "libfairmines.so"
    INTERFACE_INCLUDE_DIRECTORIES "\${_fairmines_prefix}/include")
endif()

if(NOT TARGET fairmines::fairmines)
  add_library(fairmines::fairmines INTERFACE IMPORTED)
  set_target_properties(fairmines::fairmines PROPERTIES INTERFACE_LINK_LIBRARIES fairmines::static)
endif()

set(fairmines_VERSION "$version")
set(fairmines_INCLUDE_DIRS "\${_fairmines_prefix}/include")
set(fairmines_LIBRARIES fairmines::fairmines)
unset(_fairmines_prefix)
EOF

cat > "$PREFIX/lib/cmake/fairmines/fairmines-config-version.cmake" <<EOF
# fairmines $version: a request is compatible when it has the same major version (and, while the
# major version is 0, the same minor version) and is not newer than this one.
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

echo "installed fairmines $version into $PREFIX"
