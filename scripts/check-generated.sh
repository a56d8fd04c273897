#!/usr/bin/env bash
# check-generated.sh [--update] [header|node [BUILT_DIR]|vectors|openapi|stub]...: the committed generated files regenerated into a
# temp folder and diffed; --update writes the fresh ones over them instead (the stub, written by hand, is only checked).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
scratch
update=0 && [[ ${1:-} == --update ]] && update=1 && shift
(($#)) || set -- header node vectors stub
stale=()
same() { # committed fresh
    if ((update)); then cp "$2" "$1"; return; fi
    diff -u "$1" "$2" >"$TMP/diff" || { head -40 "$TMP/diff" >&2; stale+=("$1"); }
}
npm_ci() { [[ -f $1/node_modules/.package-lock.json && ! $1/package-lock.json -nt $1/node_modules/.package-lock.json ]] ||
    (cd "$1" && npm ci --no-audit --no-fund --loglevel=error); }
while (($#)); do
    case $1 in
    header) # bindings/c/build.rs writes the header into its OUT_DIR
        out=$(cargo build --locked --quiet -p fairmines-c --message-format=json | python3 -c 'import json, sys
messages = [json.loads(line) for line in sys.stdin]  # all of them: stopping early would break cargo'"'"'s pipe
print(next(m["out_dir"] for m in messages if m["reason"] == "build-script-executed" and "/bindings/c#" in m["package_id"]))')
        same include/fairmines.h "$out/fairmines.h" ;;
    node)
        built=$TMP/node
        if [[ -d ${2:-} && ! ${2:-} =~ ^(header|node|vectors|openapi|stub)$ ]]; then built=$2 && shift; else npm_ci node && (cd node && npm run build --silent -- --output-dir "$built"); fi
        for f in index.js index.d.ts index.mjs; do same "node/$f" "$built/$f"; done ;;
    vectors)
        npm_ci vectors
        (cd vectors && node generate.js "$TMP/vectors.json")
        same vectors/vectors.json "$TMP/vectors.json" ;;
    openapi) # the service's OpenAPI document, from the routes' schemas
        npm_ci server
        (cd server && node scripts/openapi.js "$TMP/openapi.json")
        same server/openapi.json "$TMP/openapi.json" ;;
    stub) # python/fairmines/_native.pyi is written by hand: stubtest compares it with the built module
        (cd "$TMP" && "$ROOT/python/.venv/bin/python" -m mypy.stubtest fairmines) || stale+=("python/fairmines/_native.pyi (by hand)") ;;
    *) fail "unknown part '$1'" ;;
    esac
    shift
done
((${#stale[@]} == 0)) || fail "out of date: ${stale[*]} (scripts/check-generated.sh --update, then commit)"
((update)) && echo "check-generated: updated" || echo "check-generated: up to date"
