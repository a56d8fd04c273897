#!/usr/bin/env bash
# The browser packages into dist/: fairmines-wasm-X.Y.Z.tgz (npm pack of wasm/, make wasm) and fairmines-verifier-X.Y.Z.tar.gz (web/dist, make web: index.html and the single-file page).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
[[ $(node -p 'require("./wasm/package.json").version') == "$version" ]] || fail "wasm/package.json is not at $version"
# wasm/build.sh finds its tools and the .wasm under ./target: linked there from another target folder.
if [[ $target_dir != "$(realpath -m target)" ]]; then
    mkdir -p target "$target_dir/tools" "$target_dir/wasm32-unknown-unknown"
    for d in tools wasm32-unknown-unknown; do [[ -e target/$d ]] || ln -s "$target_dir/$d" "target/$d"; done
fi
bash wasm/build.sh
node web/build.mjs

stage=$target_dir/dist-web
rm -rf "$stage" && mkdir -p "$stage/wasm" dist
# package.json's "files" (its prepack copies the licences: done here).
node -e '
const fs = require("fs"), path = require("path");
const pkg = JSON.parse(fs.readFileSync("wasm/package.json", "utf8"));
for (const f of [...pkg.files, "package.json"])
  fs.copyFileSync(f.startsWith("LICENSE-") ? f : path.join("wasm", f), path.join(process.argv[1], f));' "$stage/wasm"
modes "$stage/wasm"
(cd "$stage/wasm" && npm pack --ignore-scripts --silent --pack-destination "$ROOT/dist" >/dev/null)
page=fairmines-verifier-$version
cp -r web/dist "$stage/$page"
# What the archive is and how to use it offline; it names only files the archive holds (test-dist-web.sh checks)
# and the release's SHA256SUMS, published beside the archive.
cat >"$stage/$page/README.md" <<TXT
# fairmines verifier $version: check Mines rounds in your browser

This folder is the fairmines verifier page: the fairmines core compiled to WebAssembly, with a page around it.
Everything runs in the browser; nothing you enter or drop on the page is sent anywhere (its
Content-Security-Policy forbids every request to another place).

## What the page checks

- **One round:** from the revealed server seed, your client seed, the nonce and the number of mines, it
  recomputes the mine positions and the commitment. Give the commitment the game showed before the round and
  the mine positions it declared, and the page says whether they hold (OK) or not (MISMATCH), and what differs.
  A seed that looks mistyped (a space around it, an empty seed, a server seed that is not 64 lowercase hex
  characters) is named under its field instead of a mismatch.
- **A whole history:** a JSON Lines or CSV export of your bets, with the revealed server seeds. Every row is
  verified, repeated or missing nonces are reported, and the rounds are audited: does every tile hold a mine
  as often as a uniform draw would?
- **The payout table:** the multiplier after each number of safe picks, for a return to player (RTP) you give,
  as an exact fraction and rounded down.

## Open it offline

- \`fairmines-verifier.html\` is the whole page in one file: open it from disk (double-click it, or
  \`file:///…/fairmines-verifier.html\` in the address bar). It needs no server and no network.
- \`index.html\` is the same page as separate files. Browsers run no module from a page opened from disk, so
  serve this folder with any static server, for example \`python3 -m http.server\` in this folder, then open
  http://127.0.0.1:8000/index.html.

## Check what you downloaded

- The archive: the release publishes a file SHA256SUMS beside it. In the folder holding both,
  \`sha256sum -c --ignore-missing SHA256SUMS\` must say \`$page.tar.gz: OK\`.
- The single file: in this folder, \`sha256sum -c fairmines-verifier.html.sha256\` must say
  \`fairmines-verifier.html: OK\`. Keep that digest: a copy of the page with the same digest is the same page.

Licence: MIT OR Apache-2.0 (\`LICENSE-MIT\`, \`LICENSE-APACHE\`).
TXT
modes "$stage/$page"
targz "$stage" "$page" "dist/$page.tar.gz"
rm -rf "$stage"
ls -l "dist/fairmines-wasm-$version.tgz" "dist/$page.tar.gz"
