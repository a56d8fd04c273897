#!/usr/bin/env bash
# Checks the browser packages of dist/: fairmines-wasm npm-installed offline without Rust into a new folder, the worked example through it in Node under env -i; the verifier page unpacked elsewhere, index.html served and the single file from file:// opening ready on the worked example in Chromium.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
need chromium:chromium curl:curl
wasm_tgz=fairmines-wasm-$version.tgz page=fairmines-verifier-$version server=
scratch
trap '[[ -z $server ]] || kill "$server" 2>/dev/null; rm -rf "$TMP"' EXIT

step "$wasm_tgz: its files, npm install into a new folder, the worked example in Node"
got=$(tar -tzf "dist/$wasm_tgz" | LC_ALL=C sort | xargs)
want=$(node -p 'require("./wasm/package.json").files.concat("package.json").map((f) => "package/" + f).sort().join(" ")')
[[ $got == "$want" ]] || fail "$wasm_tgz holds: $got (want $want)"
node_bin=$(command -v node)
bare=$(dirname "$node_bin"):/usr/bin:/bin
for tool in cargo rustc; do if PATH=$bare command -v "$tool" >/dev/null; then fail "$tool is on $bare"; fi; done
app=$TMP/app && mkdir -p "$app"
printf '{ "name": "app", "version": "1.0.0", "private": true, "type": "module" }\n' >"$app/package.json"
(cd "$app" && env -i PATH="$bare" HOME="$TMP/home" npm_config_cache="$TMP/npm-cache" npm_config_update_notifier=false \
    "$node_bin" "$(readlink -f "$(command -v npm)")" install --offline --no-audit --no-fund --loglevel=error "$ROOT/dist/$wasm_tgz" >/dev/null)
[[ ! -L $app/node_modules/fairmines-wasm ]] || fail "fairmines-wasm is a link"
cat >"$app/worked.mjs" <<'JS'
import { commitment, minePositions, verify } from 'fairmines-wasm';
import { createRequire } from 'node:module';
const { version } = createRequire(import.meta.url)('fairmines-wasm/package.json');
const serverSeed = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
const clientSeed = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
const v = verify({ serverSeed, clientSeed, nonce: 1, mines: 3,
  commitment: 'f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42', positions: [19, 7, 10] });
console.log(version, commitment(serverSeed), minePositions(serverSeed, clientSeed, 1, 3).join(','), v.verdict);
JS
out=$(cd "$app" && env -i PATH="$bare" HOME="$TMP/home" "$node_bin" worked.mjs) || fail "the worked example failed: $out"
[[ $out == "$version f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42 7,10,19 ok" ]] || fail "the worked example printed: $out"
echo "$wasm_tgz: installed offline; Node $($node_bin --version) under env -i: $out"

step "$page.tar.gz: unpacked elsewhere, index.html served and the single file from file:// in Chromium"
if tar -tvzf "dist/$page.tar.gz" | awk '$2 != "0/0"' | grep .; then fail "$page.tar.gz: owners other than 0/0 (above)"; fi
mkdir -p "$TMP/page" && tar -xzf "dist/$page.tar.gz" -C "$TMP/page"
site=$TMP/page/$page
for f in index.html fairmines-verifier.html app.js LICENSE-MIT LICENSE-APACHE README.md; do [[ -f $site/$f ]] || fail "$page.tar.gz has no $page/$f"; done
# README.md: says what the page checks, how to open it offline and how to check the checksums; every file it
# names (in backquotes) is in the archive, but for the release's SHA256SUMS beside it.
for words in 'What the page checks' 'from disk' 'python3 -m http.server' 'sha256sum -c --ignore-missing SHA256SUMS' \
    "$page.tar.gz: OK" 'sha256sum -c fairmines-verifier.html.sha256'; do
    grep -qF -- "$words" "$site/README.md" || fail "$page/README.md does not say: $words"
done
named=$(grep -oE '[A-Za-z0-9._-]+\.(html|js|css|json|md|sha256|wasm|txt)|LICENSE-[A-Z]+' "$site/README.md" | LC_ALL=C sort -u)
for f in $named; do
    [[ $f == "$page.tar.gz" || -e $site/$f ]] || fail "$page/README.md names $f, which the archive does not hold"
done
echo "$page/README.md: names only its own files: $(echo $named | xargs)"
(cd "$site" && sha256sum --quiet -c fairmines-verifier.html.sha256) || fail "fairmines-verifier.html.sha256 does not hold"
[[ -f web/node_modules/playwright-core/package.json ]] || (cd web && npm ci --no-audit --no-fund --silent)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server --bind 127.0.0.1 --directory "$site" "$port" >"$TMP/server.log" 2>&1 &
server=$!
for _ in $(seq 50); do curl -fso /dev/null "http://127.0.0.1:$port/index.html" && break || sleep 0.2; done
cat >"$TMP/open.mjs" <<'JS'
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
  console.log(`${how}: ${ok ? 'opens' : 'FAILED'}, verdict ${verdict}, mines ${positions} ${errors.join('; ')}`);
  await page.close();
}
await browser.close();
process.exit(failed ? 1 : 0);
JS
node "$TMP/open.mjs" "$ROOT/web" "http://127.0.0.1:$port/index.html" "file://$site/fairmines-verifier.html" ||
    fail "the page does not open on the worked example"
