#!/usr/bin/env bash
# check-generated.sh [header|node [BUILT_DIR]|vectors|stub]...: the committed generated files regenerated into a temp folder and diffed.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
scratch
(($#)) || set -- header node vectors stub
stale=()
same() { # committed fresh how-to-update
    diff -u "$1" "$2" >"$TMP/diff" || { head -40 "$TMP/diff" >&2; stale+=("$1 (update: $3)"); }
}
npm_ci() { [[ -f $1/node_modules/.package-lock.json && ! $1/package-lock.json -nt $1/node_modules/.package-lock.json ]] ||
    (cd "$1" && npm ci --no-audit --no-fund --loglevel=error); }
while (($#)); do
    case $1 in
    header) # bindings/c/build.rs writes the header into its OUT_DIR
        out=$(cargo build --locked --quiet -p fairmines-c --message-format=json | python3 -c 'import json, sys
print(next(m["out_dir"] for m in map(json.loads, sys.stdin) if m["reason"] == "build-script-executed" and "/bindings/c#" in m["package_id"]))')
        same include/fairmines.h "$out/fairmines.h" "FAIRMINES_BLESS_HEADER=1 cargo test -p fairmines-c" ;;
    node)
        built=$TMP/node
        if [[ -d ${2:-} ]]; then built=$2 && shift; else npm_ci node && (cd node && npm run build --silent -- --output-dir "$built"); fi
        for f in index.js index.d.ts index.mjs; do same "node/$f" "$built/$f" "cd node && npm run build"; done ;;
    vectors)
        npm_ci vectors
        (cd vectors && node generate.js "$TMP/vectors.json")
        same vectors/vectors.json "$TMP/vectors.json" "make vectors" ;;
    stub) # python/fairmines/_native.pyi is written by hand: stubtest compares it with the built module
        (cd "$TMP" && "$ROOT/python/.venv/bin/python" -m mypy.stubtest fairmines) || stale+=("python/fairmines/_native.pyi (by hand)") ;;
    *) fail "unknown part '$1'" ;;
    esac
    shift
done
((${#stale[@]} == 0)) || fail "out of date, commit a fresh generation: ${stale[*]}"
echo "check-generated: up to date"
