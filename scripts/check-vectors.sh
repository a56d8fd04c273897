#!/usr/bin/env bash
# Regenerates the shared vectors with the reference JavaScript and fails if the checked-in copy differs.
set -euo pipefail
cd "$(dirname "$0")/../vectors"
npm ci --no-audit --no-fund --silent
fresh=$(mktemp)
trap 'rm -f "$fresh"' EXIT
node generate.js "$fresh"
if ! diff -q vectors.json "$fresh" >/dev/null; then
    diff -u vectors.json "$fresh" | head -40
    echo "vectors/vectors.json is out of date: run 'make vectors' and commit the result" >&2
    exit 1
fi
echo "vectors: vectors/vectors.json matches a fresh generation ($(node -p "require('./vectors.json').count") cases)"
