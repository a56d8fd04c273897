#!/usr/bin/env bash
# `make check-reproducible`: `make dist` again from a second checkout at another path (FAIRMINES_REPRO_DIR, default target/repro; tracked files as in the working tree), building into this tree's target folder (niced: make test runs test-dist meanwhile); the two dist/SHA256SUMS must be equal.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
[[ -f dist/SHA256SUMS ]] || fail "dist/SHA256SUMS is missing: run make dist first"
repro=$(realpath -m "${FAIRMINES_REPRO_DIR:-target/repro}")
copy=$repro/fairmines
[[ $copy != "$ROOT" ]] || fail "the copy would be the source itself"
rm -rf "$copy"
git clone -q --shared --no-checkout "$ROOT" "$copy"
git -C "$copy" update-ref --no-deref HEAD "$(git rev-parse HEAD)"
git -C "$copy" read-tree HEAD
git ls-files -z | tar --null -T - --ignore-failed-read -cf - | tar -xf - -C "$copy"
(cd "$copy" && env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}" \
    SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}" nice -n 19 bash scripts/dist.sh) >"$repro/dist.log" 2>&1 ||
    { tail -n 40 "$repro/dist.log" >&2; fail "make dist in $copy failed (log: $repro/dist.log)"; }
diff -u dist/SHA256SUMS "$copy/dist/SHA256SUMS" >&2 || fail "the builds differ (- $ROOT/dist, + $copy/dist): compare them with diffoscope"
echo "check-reproducible: $(wc -l <dist/SHA256SUMS) artifacts built again from $copy: every one byte-identical"
