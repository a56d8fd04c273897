#!/usr/bin/env bash
# mutants.sh [--list | --file F | --shard K/N | cargo-mutants options]: every mutant of the core must fail a test (.cargo/mutants.toml);
# cargo-mutants pinned in target/tools; the report in target/mutants/mutants.out; exit 0 all caught, 2 missed, 3 timeouts.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
tools=${CARGO_TARGET_DIR:-target}/tools
[[ "$("$tools/bin/cargo-mutants" --version 2>/dev/null)" == "cargo-mutants 27.1.0" ]] ||
    cargo install --quiet --locked --root "$tools" "cargo-mutants@27.1.0"
PATH="$tools/bin:$PATH" exec cargo mutants --package fairmines --output "${CARGO_TARGET_DIR:-target}/mutants" "$@"
