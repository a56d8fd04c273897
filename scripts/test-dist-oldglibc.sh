#!/usr/bin/env bash
# The release artifacts on an older glibc, for real: inside a Debian 11 root folder (bullseye, glibc 2.31,
# made by debootstrap and cached in target/debian11-root: scripts/debian11-root.sh), as a Debian 11 user:
#   - the C archive (dist/fairmines-X.Y.Z-x86_64-linux-gnu.tar.gz, scripts/dist-c.sh), unpacked and moved:
#     the C vector test built there with Debian 11's gcc 10 through pkg-config fairmines (shared, run with
#     LD_LIBRARY_PATH), pkg-config --static fairmines-static, and CMake 3.18 find_package (fairmines::fairmines
#     and fairmines::shared, run through CMake's rpath); ldd shows the archive's library with Debian's libc
#   - the static musl command line (dist/fairmines-X.Y.Z-x86_64-unknown-linux-musl.tar.gz, scripts/dist.sh):
#     --version, selftest, and `verify VERIFY-ARGS` says OK
#   - the npm packages (the root and linux-x64-gnu tarballs, scripts/dist-node.sh), installed offline by
#     scripts/test-dist-node.sh --into, their vectors run inside with this machine's Node binary (it needs
#     GLIBC_2.28 at most)
#   scripts/test-dist-oldglibc.sh VERIFY-ARGS...   (make passes `make verify`'s ARGS, as for test-dist.sh)
# Root only (debootstrap, chroot).
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C
(( $# > 0 )) || { echo "usage: scripts/test-dist-oldglibc.sh VERIFY-ARGS... (make passes them)" >&2; exit 1; }
fail() { echo "test-dist-oldglibc: $*" >&2; exit 1; }
# shellcheck source=scripts/debian11-root.sh
source scripts/debian11-root.sh

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
c_name=fairmines-$version-x86_64-linux-gnu
cli_name=fairmines-$version-x86_64-unknown-linux-musl
[[ -f dist/$c_name.tar.gz ]] || fail "dist/$c_name.tar.gz is missing (scripts/dist-c.sh)"
[[ -f dist/$cli_name.tar.gz ]] || fail "dist/$cli_name.tar.gz is missing (scripts/dist.sh)"

start=$SECONDS
debian11_root
echo "test-dist-oldglibc: root ready in $((SECONDS - start)) s"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/unpack" "$work/pkg" "$work/src"
tar -xzf "dist/$c_name.tar.gz" -C "$work/unpack"
mv "$work/unpack/$c_name" "$work/pkg/$c_name"   # moved after unpacking: nothing may point at the first place
tar -xzf "dist/$cli_name.tar.gz" -C "$work"
cp bindings/c/tests/{test_fairmines.c,test_game.c,json.c,json.h,check.h} bindings/c/tests/dist/CMakeLists.txt "$work/src/"
cp vectors/vectors.json "$work/"
cat >"$work/run.sh" <<'SH'
set -eu
version=$1 c_name=$2 cli_name=$3
shift 3
prefix=/work/pkg/$c_name
vectors() { # program, label (with the environment given before it)
    "$@" /work/vectors.json >out.txt 2>&1 || { cat out.txt >&2; echo "FAILED: $*" >&2; exit 1; }
    out=$(tail -n 1 out.txt)
    echo "$out" | grep -q '^fairmines C tests: [1-9][0-9]* vectors, [0-9]* checks, 0 failures$' || { echo "FAILED: $*: $out" >&2; exit 1; }
    echo "  $*: $out"
}
. /etc/os-release
echo "inside: $PRETTY_NAME, $(ldd --version | head -n 1), $(gcc --version | head -n 1), $(cmake --version | head -n 1)"
cflags="-std=c11 -Wall -Wextra -pedantic -pthread -O2"

export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
echo "pkg-config fairmines (shared, LD_LIBRARY_PATH) and --static fairmines-static, with gcc"
# shellcheck disable=SC2046,SC2086
gcc $cflags -o pc_shared src/test_fairmines.c src/test_game.c src/json.c $(pkg-config --cflags --libs fairmines)
LD_LIBRARY_PATH=$prefix/lib ldd ./pc_shared | grep -E 'libfairmines|libc\.so' | sed 's/^[[:space:]]*/  ldd: /'
vectors env LD_LIBRARY_PATH="$prefix/lib" ./pc_shared
# shellcheck disable=SC2046,SC2086
gcc $cflags -o pc_static src/test_fairmines.c src/test_game.c src/json.c $(pkg-config --cflags --libs --static fairmines-static)
vectors ./pc_static
unset PKG_CONFIG_PATH

echo "CMake find_package(fairmines): fairmines::fairmines (static) and fairmines::shared"
cmake -S src -B build -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release -DFAIRMINES_EXPECT_VERSION="$version" >cmake.log 2>&1 &&
    cmake --build build >>cmake.log 2>&1 || { cat cmake.log >&2; echo "FAILED: CMake" >&2; exit 1; }
vectors build/test_static
vectors build/test_shared

echo "the static musl command line"
cli=/work/$cli_name/fairmines
test "$($cli --version)" = "fairmines $version" || { echo "FAILED: --version says $($cli --version)" >&2; exit 1; }
$cli selftest >/dev/null
out=$($cli verify "$@")
echo "$out" | grep -qx 'verdict: OK, every check given holds' || { echo "$out" >&2; echo "FAILED: verify" >&2; exit 1; }
echo "  fairmines --version, selftest, verify: OK"
SH
debian11_run "$work" /bin/sh /work/run.sh "$version" "$c_name" "$cli_name" "$@" || fail "inside Debian 11 (above)"

bash scripts/test-dist-node.sh --into "$work/node"
cp "$(command -v node)" "$work/node/node"
debian11_run "$work/node" /bin/sh /work/run.sh /work/node || fail "the Node packages inside Debian 11 (above)"
echo "test-dist-oldglibc: the C archive, the command line and the npm packages passed in Debian 11 (glibc 2.31) in $((SECONDS - start)) s"
