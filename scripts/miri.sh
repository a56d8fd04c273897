#!/usr/bin/env bash
# The core's unit and game tests under Miri (nightly, installed when missing): undefined behaviour in its dependencies' unsafe code.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cargo +nightly miri --version >/dev/null 2>&1 || rustup toolchain install nightly --profile minimal --component miri,rust-src
# Isolation off: the seed tests read the OS random number generator, as the library does.
MIRIFLAGS="${MIRIFLAGS:--Zmiri-disable-isolation}" cargo +nightly miri test --locked -p fairmines --lib --test game
