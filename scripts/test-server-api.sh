#!/usr/bin/env bash
# The service's API contract: server/openapi.json is what the routes' schemas generate (drift check), and a
# property-based fuzzer driven by it (Schemathesis, pinned below, in target/schemathesis-venv) runs against the
# service started here on its own embedded PostgreSQL: no 5xx, and every status, content type, header and body
# as the document says. Bounded: FAIRMINES_API_EXAMPLES cases per operation (25) and FAIRMINES_API_SECONDS in
# all (90); FAIRMINES_API_SEED replays a run (its seed is printed). One worker: two threads race in CPython
# 3.11's ast.parse (hypothesis describes its filters with it) and fail the run.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
SCHEMATHESIS=4.32.5
VENV=$ROOT/target/schemathesis-venv
need python3 curl
python3 -c 'import venv, ensurepip' 2>/dev/null || bash scripts/bootstrap.sh python3-venv

step "server/openapi.json up to date"
bash scripts/check-generated.sh openapi

if [[ $(cat "$VENV/version" 2>/dev/null) != "$SCHEMATHESIS" ]]; then
    step "venv $VENV (schemathesis $SCHEMATHESIS)"
    rm -rf "$VENV" && python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS"
    echo "$SCHEMATHESIS" >"$VENV/version"
fi

scratch
# Readable by the user the embedded PostgreSQL runs as when this runs as root.
chmod 755 "$TMP"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
URL=http://127.0.0.1:$PORT
step "the service on $URL (its own PostgreSQL in a scratch folder)"
env -u DATABASE_URL $(env | grep -o '^FAIRMINES_[A-Z_]*' | sed 's/^/-u /') \
    PORT=$PORT FAIRMINES_HOME="$TMP/home" TMPDIR="$TMP" FAIRMINES_RTPS=0.99,0.97 \
    node server/bin/fairmines-server.js 2>"$TMP/server.log" &
SERVER=$!
stop() { kill -TERM "$SERVER" 2>/dev/null && wait "$SERVER" || true; rm -rf "$TMP"; }
trap stop EXIT
for _ in $(seq 120); do
    curl -sf "$URL/readyz" >/dev/null && break
    kill -0 "$SERVER" 2>/dev/null || { cat "$TMP/server.log" >&2; fail "the service did not start"; }
    sleep 0.5
done
curl -sf "$URL/readyz" >/dev/null || { cat "$TMP/server.log" >&2; fail "the service is not ready after 60 s"; }
# The document it serves is the checked-in one.
curl -sf "$URL/v1/openapi.json" | node -e 'const served = JSON.parse(require("fs").readFileSync(0));
require("assert").deepStrictEqual(served, require(process.argv[1]))' "$ROOT/server/openapi.json" ||
    fail "GET /v1/openapi.json differs from server/openapi.json"

step "schemathesis $SCHEMATHESIS against it"
# From the scratch folder: its example database (.schemathesis/) goes with it.
cd "$TMP"
"$VENV/bin/st" run "$ROOT/server/openapi.json" --url "$URL" \
    -H "Authorization: Bearer $(cat "$TMP/home/api.key")" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance,response_headers_conformance \
    --max-examples "${FAIRMINES_API_EXAMPLES:-25}" --max-time "${FAIRMINES_API_SECONDS:-90}" \
    ${FAIRMINES_API_SEED:+--seed "$FAIRMINES_API_SEED"} --workers 1 --request-timeout 10 --no-color \
    --report junit --report-dir "$ROOT/target/schemathesis-report"
