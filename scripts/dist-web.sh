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
modes "$stage/$page"
targz "$stage" "$page" "dist/$page.tar.gz"
rm -rf "$stage"
ls -l "dist/fairmines-wasm-$version.tgz" "dist/$page.tar.gz"
