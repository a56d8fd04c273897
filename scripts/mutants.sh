#!/usr/bin/env bash
# Mutation testing of the core with cargo-mutants (pinned; installed into target/tools when missing): every
# mutant of crates/fairmines/src must make a test fail (.cargo/mutants.toml says which code and which tests).
# The report is in target/mutants/mutants.out (caught.txt, missed.txt, timeout.txt, unviable.txt).
#
#   scripts/mutants.sh                      every mutant (hours on 2 cores)
#   scripts/mutants.sh --list               the mutants, without running them
#   scripts/mutants.sh --file placement.rs  one file;  --shard 1/8  one eighth;  any other cargo-mutants option
# Exit status: cargo-mutants' (0 every mutant caught, 2 some missed, 3 timeouts, 4 the unmutated tree fails).
set -euo pipefail
cd "$(dirname "$0")/.."

version=27.1.0
tools=${CARGO_TARGET_DIR:-target}/tools
if [[ "$("$tools/bin/cargo-mutants" --version 2>/dev/null)" != "cargo-mutants $version" ]]; then
    cargo install --quiet --locked --root "$tools" "cargo-mutants@$version"
fi
PATH="$tools/bin:$PATH" exec cargo mutants --package fairmines --output "${CARGO_TARGET_DIR:-target}/mutants" "$@"
