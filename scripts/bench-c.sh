#!/usr/bin/env bash
# Per-call cost of the C API (libfairmines.a, called from C) against the same calls made directly to the
# Rust core. Not part of the tests; run it on a quiet machine. Prints ns per call, best of 5 runs.
set -euo pipefail
cd "$(dirname "$0")/.."
TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
STATIC_LIBS="$(sed -n 's/^FAIRMINES_NATIVE_STATIC_LIBS="\(.*\)"$/\1/p' scripts/install-c.sh)"

cargo rustc --release -p fairmines-c --lib -- --print native-static-libs 2>/dev/null
cargo build --release -p fairmines-c --example bench-core 2>/dev/null
# shellcheck disable=SC2086
cc -std=c11 -O2 -Iinclude -o "$TMP/c_api" bindings/c/bench/c_api.c target/release/libfairmines.a $STATIC_LIBS

echo "machine: $(nproc) cores; $(uname -sm)"
target/release/examples/bench-core
"$TMP/c_api"
