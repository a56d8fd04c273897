#!/usr/bin/env bash
# Runs the core's unit tests under Miri (nightly), which checks every step for undefined behaviour.
# The core forbids unsafe code, so this guards its dependencies' unsafe code (sha3/keccak, subtle,
# zeroize) on the paths the core uses. Installs the nightly toolchain with Miri when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo +nightly miri --version >/dev/null 2>&1; then
    rustup toolchain install nightly --profile minimal --component miri,rust-src
fi
# Isolation off: the seed tests read the OS random number generator, as the library does.
export MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}"
# The unit tests, and the game tests, which run hashing, placement and verification end to end.
cargo +nightly miri test --locked -p fairmines --lib --test game
