#!/usr/bin/env bash
# Checks the browser packages scripts/dist-web.sh wrote into dist/, as a user would use them (part of
# `make test-dist`):
# - dist/SHA256SUMS, when there, lists both and holds;
# - fairmines-wasm-X.Y.Z.tgz: its files (package.json's "files"), then `npm install` of the tarball into a new
#   folder outside the source tree (offline, a fresh cache, no Rust on PATH) and, in Node under env -i, the
#   worked example of ALGORITHM.md through `import ... from 'fairmines-wasm'` (commitment, positions, verdict);
# - fairmines-verifier-X.Y.Z.tar.gz: unpacked elsewhere, it holds index.html (and its modules) and the single
#   file; in Chromium (Debian's /usr/bin/chromium through playwright-core, as scripts/test-web.sh installs
#   them), index.html served by a plain static server (python3 -m http.server) and fairmines-verifier.html
#   opened from file:// both open ready on the worked example: verdict ok, mines 7, 10 and 19.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
fail() { echo "test-dist-web: $*" >&2; exit 1; }
step() { printf '\n==> test-dist-web: %s\n' "$*"; }

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
wasm_tgz=fairmines-wasm-$version.tgz
page=fairmines-verifier-$version
for f in "$wasm_tgz" "$page.tar.gz"; do
    [[ -f dist/$f ]] || fail "dist/$f is missing (scripts/dist-web.sh, part of make dist)"
    if [[ -f dist/SHA256SUMS ]]; then
        grep -q "  $f\$" dist/SHA256SUMS || fail "dist/SHA256SUMS does not list $f"
        (cd dist && grep "  $f\$" SHA256SUMS | sha256sum --quiet -c -)
    fi
done
tmp=$(mktemp -d)
server=
trap '[[ -z $server ]] || kill "$server" 2>/dev/null; rm -rf "$tmp"' EXIT

step "$wasm_tgz: its files, npm install into a new folder, the worked example in Node"
got=$(tar -tzf "dist/$wasm_tgz" | LC_ALL=C sort | tr '\n' ' ')
want=$(node -p 'require("./wasm/package.json").files.concat("package.json").map((f) => "package/" + f).sort().join(" ") + " "')
[[ $got == "$want" ]] || fail "$wasm_tgz holds: $got (want $want)"
node_bin=$(command -v node)
npm_cli=$(readlink -f "$(command -v npm)")
bare=$(dirname "$node_bin"):/usr/bin:/bin
for tool in cargo rustc; do
    if PATH=$bare command -v "$tool" >/dev/null; then fail "$tool is on the bare PATH ($bare)"; fi
done
app=$tmp/app
mkdir -p "$app"
printf '{ "name": "app", "version": "1.0.0", "private": true, "type": "module" }\n' >"$app/package.json"
(cd "$app" && env -i PATH="$bare" HOME="$tmp/home" npm_config_cache="$tmp/npm-cache" npm_config_update_notifier=false \
    "$node_bin" "$npm_cli" install --offline --no-audit --no-fund --loglevel=error "$ROOT/dist/$wasm_tgz" >/dev/null)
cat >"$app/worked.mjs" <<'JS'
import { commitment, minePositions, verify } from 'fairmines-wasm';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { version } = require('fairmines-wasm/package.json');
const serverSeed = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const clientSeed = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
const v = verify({ serverSeed, clientSeed, nonce: 1, mines: 3,
  commitment: 'f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42', positions: [19, 7, 10] });
console.log(version, commitment(serverSeed), minePositions(serverSeed, clientSeed, 1, 3).join(','), v.verdict);
JS
out=$(cd "$app" && env -i PATH="$bare" HOME="$tmp/home" "$node_bin" worked.mjs) || fail "the worked example failed: $out"
[[ $out == "$version f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42 7,10,19 ok" ]] ||
    fail "the worked example printed: $out"
[[ $(readlink -f "$app/node_modules/fairmines-wasm") == "$app/node_modules/fairmines-wasm" ]] || fail "fairmines-wasm is a link"
echo "$wasm_tgz: installed offline into a new folder; Node $($node_bin --version) under env -i: $out"

step "$page.tar.gz: unpacked elsewhere, index.html served and the single file from file:// in Chromium"
if tar -tvzf "dist/$page.tar.gz" | awk '$2 != "0/0"' | grep .; then fail "$page.tar.gz: owners other than 0/0 (above)"; fi
mkdir -p "$tmp/page"
tar -xzf "dist/$page.tar.gz" -C "$tmp/page"
site=$tmp/page/$page
for f in index.html fairmines-verifier.html app.js LICENSE-MIT LICENSE-APACHE; do
    [[ -f $site/$f ]] || fail "$page.tar.gz has no $page/$f"
done
(cd "$site" && sha256sum --quiet -c fairmines-verifier.html.sha256) || fail "fairmines-verifier.html.sha256 does not hold"
if [[ ! -x /usr/bin/chromium ]]; then
    echo "test-dist-web: installing Chromium (apt-get install chromium)" >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null ||
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null; }
fi
[[ -f web/node_modules/playwright-core/package.json ]] || (cd web && npm ci --no-audit --no-fund --silent)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port" >"$tmp/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/index.html')" 2>/dev/null && break
    sleep 0.2
done
cat >"$tmp/open.mjs" <<'JS'
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
const [webDir, served, single] = process.argv.slice(2);
const { chromium } = createRequire(pathToFileURL(`${webDir}/package.json`))('playwright-core');
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium' });
let failed = false;
for (const [how, url] of [['index.html, served', served], ['fairmines-verifier.html, from file://', single]]) {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  await page.waitForSelector('html[data-ready="true"], #verdict[data-verdict="error"]', { timeout: 30000 });
  const verdict = await page.getAttribute('#verdict', 'data-verdict');
  const positions = await page.getAttribute('#board', 'data-positions');
  const ok = verdict === 'ok' && positions === '7,10,19' && errors.length === 0;
  failed ||= !ok;
  console.log(`${how}: ${ok ? 'opens' : 'FAILED'}, verdict ${verdict}, mines ${positions}${errors.length ? `, errors: ${errors.join('; ')}` : ''}`);
  await page.close();
}
await browser.close();
process.exit(failed ? 1 : 0);
JS
node "$tmp/open.mjs" "$ROOT/web" "http://127.0.0.1:$port/index.html" "$(python3 -c 'import pathlib, sys; print(pathlib.Path(sys.argv[1]).as_uri())' "$site/fairmines-verifier.html")" ||
    fail "the page does not open on the worked example"
echo "test-dist-web: $wasm_tgz and $page.tar.gz: installed, unpacked and opened as a user would"
