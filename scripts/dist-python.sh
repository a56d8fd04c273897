#!/usr/bin/env bash
# The Python release artifacts, into dist/ (part of `make dist`; scripts/test-dist-python.sh checks them):
#   dist/fairmines-X.Y.Z-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl   glibc >= 2.17
#   dist/fairmines-X.Y.Z-cp310-abi3-musllinux_1_2_x86_64.whl                         musl >= 1.2 (Alpine)
#   dist/fairmines-X.Y.Z.tar.gz                                                      the sdist
# One abi3 wheel per platform serves every CPython >= 3.10. Built by maturin (pinned in
# python/requirements-dev.txt) with zig (PyPI ziglang) as the C toolchain, which links against glibc 2.17
# and musl; the cargo feature `testing` is never on. Reproducible: SOURCE_DATE_EPOCH (the last commit's
# time) for the zip and tar entries, the source and cargo paths remapped in the binary
# (--remap-path-prefix through the target's RUSTFLAGS), symbols stripped, and no Rust SBOM (it would hold
# the build path: python/pyproject.toml). Writes only these three files into dist/ (old ones of its own
# replaced), never dist/SHA256SUMS.
#   scripts/dist-python.sh           build the three artifacts
#   scripts/dist-python.sh --tools   only the tools' venv (target/dist-python/venv); prints its bin folder
# The tools (maturin, auditwheel, abi3audit, twine: python/requirements-dist.txt; ziglang: scripts/zig-requirements.txt) go into
# target/dist-python/venv; cargo builds into ${CARGO_TARGET_DIR:-target}/dist-python/cargo.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TOOLS=$ROOT/target/dist-python/venv

# --- tools: a venv recreated when the pins change -------------------------------------------------------
pins=$(grep -E '^maturin==' python/requirements-dev.txt; cat python/requirements-dist.txt; grep -E '^ziglang==' scripts/zig-requirements.txt)
if [[ "$pins" != "$(cat "$TOOLS/pins.txt" 2>/dev/null)" ]]; then
  echo "== tools venv $TOOLS" >&2
  rm -rf "$TOOLS"
  python3 -m venv "$TOOLS"
  "$TOOLS/bin/pip" install --quiet --disable-pip-version-check -r /dev/stdin <<<"$pins"
  printf '%s\n' "$pins" >"$TOOLS/pins.txt"
fi
if [[ ${1:-} == --tools ]]; then
  echo "$TOOLS/bin"
  exit 0
fi

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
# The sdist's crates/fairmines names ../../README.md as its readme (maturin sdist fails without it).
[[ -f README.md ]] || { echo "dist-python: README.md is missing at the repository's root" >&2; exit 1; }

gnu=x86_64-unknown-linux-gnu
musl=x86_64-unknown-linux-musl
rustup target list --installed | grep -qx "$musl" || rustup target add "$musl"
# RUSTFLAGS would override the targets' flags below; only the targets' crates get these (maturin passes
# --target), the host's build scripts and proc macros are unaffected.
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
flags="-C strip=symbols --remap-path-prefix=$ROOT=/fairmines --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS=$flags CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS=$flags
# Its own target folder: the other builds of these targets (the musl CLI) use other flags and linkers.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$ROOT/target}/dist-python/cargo
export PATH=$TOOLS/bin:$PATH

out=$ROOT/target/dist-python/out
rm -rf "$out"
mkdir -p "$out"
cd python
start=$SECONDS
nice -n 10 maturin build --quiet --release --locked --zig --target "$gnu" --compatibility manylinux2014 --out "$out"
echo "dist-python: manylinux_2_17 wheel built in $((SECONDS - start))s"
start=$SECONDS
nice -n 10 maturin build --quiet --release --locked --zig --target "$musl" --compatibility musllinux_1_2 --out "$out"
echo "dist-python: musllinux_1_2 wheel built in $((SECONDS - start))s"
maturin sdist --out "$out" >/dev/null
cd "$ROOT"

names=(
  "fairmines-$version-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
  "fairmines-$version-cp310-abi3-musllinux_1_2_x86_64.whl"
  "fairmines-$version.tar.gz"
)
got=$(cd "$out" && find . -type f -printf '%f\n' | LC_ALL=C sort)
want=$(printf '%s\n' "${names[@]}" | LC_ALL=C sort)
[[ $got == "$want" ]] || { printf 'dist-python: built\n%s\nexpected\n%s\n' "$got" "$want" >&2; exit 1; }

mkdir -p dist
# Only this script's own files: earlier wheels of this package and sdists (fairmines-<version>.tar.gz, a
# version without "-"; the other parts' archives are fairmines-X.Y.Z-<target>.tar.gz).
find dist -maxdepth 1 -type f \( -name 'fairmines-*-cp3*-abi3-*.whl' -o \
  \( -name 'fairmines-[0-9]*.tar.gz' ! -name 'fairmines-*-*.tar.gz' \) \) -delete
for name in "${names[@]}"; do
  cp "$out/$name" "dist/$name"
  echo "dist-python: dist/$name ($(stat -c %s "dist/$name") bytes) $(sha256sum "dist/$name" | cut -c1-64)"
done
