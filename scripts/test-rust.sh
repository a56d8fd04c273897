#!/usr/bin/env bash
# The Rust crates: formatting, lints, then unit, property, vector, doc and CLI tests (release: proptest and the search tool's scan are faster).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
crates=(-p fairmines -p fairmines-keccak -p fairmines-cli -p fairmines-history -p fairmines-js-errors -p rejection-search)
cargo fmt --check "${crates[@]}"
cargo clippy --locked "${crates[@]}" --all-targets -- -D warnings
cargo test --locked --release "${crates[@]}"
