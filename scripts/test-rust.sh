#!/usr/bin/env bash
# The Rust crates: formatting, lints, unit, property, vector, doc and CLI tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --check -p fairmines -p fairmines-keccak -p fairmines-cli -p fairmines-history -p fairmines-js-errors -p rejection-search
cargo clippy --locked -p fairmines -p fairmines-keccak -p fairmines-cli -p fairmines-history -p fairmines-js-errors -p rejection-search --all-targets -- -D warnings
# Release mode: the search tool's agreement test scans thousands of rounds, and proptest runs faster.
cargo test --locked --release -p fairmines -p fairmines-keccak -p fairmines-cli -p fairmines-history -p fairmines-js-errors -p rejection-search
