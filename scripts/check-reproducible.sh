#!/usr/bin/env bash
# `make check-reproducible`: builds every release artifact a second time, from a second checkout at another
# path, and requires it to be byte-identical to what `make dist` wrote into dist/: the two SHA256SUMS files
# must be equal. The second checkout is a git clone of HEAD whose tracked files are then overwritten with the
# working tree's (so uncommitted changes count; the sdist's file list comes from git). It builds into this
# tree's target folder: the host tools (build scripts, proc-macros, zig) are reused, while everything that goes
# into an artifact is compiled again with the second checkout's path; and as that path is not the target
# folder's parent, a build path that leaked into an artifact would not be remapped there and would show.
#   scripts/check-reproducible.sh
# Environment: FAIRMINES_REPRO_DIR  where the second checkout goes (default target/repro).
# A user checks a release the same way: clone the tag, `make dist`, compare dist/SHA256SUMS with the release's.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
fail() { echo "check-reproducible: $*" >&2; exit 1; }

[[ -f dist/SHA256SUMS ]] || fail "dist/SHA256SUMS is missing: run make dist first"
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
repro=${FAIRMINES_REPRO_DIR:-$ROOT/target/repro}
case "$repro" in /*) ;; *) repro=$ROOT/$repro ;; esac
copy=$repro/fairmines
[[ "$copy" != "$ROOT" ]] || fail "the copy would be the source itself"

rm -rf "$copy"
git clone -q --shared --no-checkout "$ROOT" "$copy"
git -C "$copy" update-ref --no-deref HEAD "$(git rev-parse HEAD)"
git -C "$copy" read-tree HEAD
git ls-files -z | tar --null -T - --ignore-failed-read -cf - | tar -xf - -C "$copy"

started=$SECONDS
# No flags from outside.
(cd "$copy" && env -u RUSTFLAGS -u CARGO_ENCODED_RUSTFLAGS CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}" \
    SOURCE_DATE_EPOCH="$epoch" bash scripts/dist.sh) >"$repro/dist.log" 2>&1 || { tail -n 40 "$repro/dist.log" >&2; fail "make dist in $copy failed (log: $repro/dist.log)"; }

if ! diff -u dist/SHA256SUMS "$copy/dist/SHA256SUMS" >&2; then
    fail "the two builds differ (above: - $ROOT/dist, + $copy/dist); compare the files with diffoscope"
fi
echo "check-reproducible: $(wc -l <dist/SHA256SUMS) artifacts built again from $copy in $((SECONDS - started)) s: every one byte-identical"
