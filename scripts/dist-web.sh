#!/usr/bin/env bash
# The browser packages, into dist/ (part of `make dist`; scripts/test-dist-web.sh checks them):
#   dist/fairmines-wasm-X.Y.Z.tgz               the npm package fairmines-wasm (wasm/, built by `make wasm`):
#                                               package.json's "files" and package.json, as `npm pack` makes it
#   dist/fairmines-verifier-X.Y.Z.tar.gz        the verifier page (web/dist, built by `make web`) in the folder
#                                               fairmines-verifier-X.Y.Z/: index.html and its modules to serve,
#                                               and fairmines-verifier.html, one file that works opened from disk
# X.Y.Z is the workspace version (Cargo.toml), which wasm/package.json carries too. Only these two files of
# dist/ are written (scripts/dist.sh writes dist/SHA256SUMS). Reproducible: npm pack's fixed mtimes and order
# with file modes set here; the page archive with a fixed order, owners and mtimes (SOURCE_DATE_EPOCH) and
# gzip -n; the .wasm holds no build path (the workspace's crates are compiled from relative paths).
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
umask 022

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
fail() { echo "dist-web: $*" >&2; exit 1; }
[[ $(node -p 'require("./wasm/package.json").version') == "$version" ]] || fail "wasm/package.json is not at $version"

# wasm/build.sh finds its tool (target/tools) and the .wasm cargo built (target/wasm32-unknown-unknown) under
# ./target: in a checkout that builds into another target folder (scripts/check-reproducible.sh's), they are
# linked there from that folder.
if [[ -n ${CARGO_TARGET_DIR:-} && $(realpath -m "$CARGO_TARGET_DIR") != $(realpath -m target) ]]; then
    mkdir -p target "$CARGO_TARGET_DIR/tools" "$CARGO_TARGET_DIR/wasm32-unknown-unknown"
    for d in tools wasm32-unknown-unknown; do
        [[ -e target/$d ]] || ln -s "$(realpath "$CARGO_TARGET_DIR/$d")" "target/$d"
    done
fi
# make wasm, then make web (the Makefile's commands).
bash wasm/build.sh
node web/build.mjs
[[ -f web/dist/index.html && -f web/dist/fairmines-verifier.html ]] || fail "web/build.mjs wrote no page into web/dist"

stage=${CARGO_TARGET_DIR:-$PWD/target}/dist-web
rm -rf "$stage" && mkdir -p "$stage/wasm" dist
# The package's files ("files" of package.json; its prepack copies the licences, done here instead).
node -e '
const fs = require("fs"), path = require("path");
const [dst] = process.argv.slice(1);
const pkg = JSON.parse(fs.readFileSync("wasm/package.json", "utf8"));
for (const f of [...pkg.files, "package.json"]) {
  const from = ["LICENSE-MIT", "LICENSE-APACHE"].includes(f) ? f : path.join("wasm", f);
  fs.copyFileSync(from, path.join(dst, f));
}' "$stage/wasm"
find "$stage/wasm" -type d -exec chmod 0755 {} + && find "$stage/wasm" -type f -exec chmod 0644 {} +
rm -f "dist/fairmines-wasm-$version.tgz"
(cd "$stage/wasm" && npm pack --ignore-scripts --silent --pack-destination "$OLDPWD/dist" >/dev/null)
[[ -f dist/fairmines-wasm-$version.tgz ]] || fail "npm pack wrote no dist/fairmines-wasm-$version.tgz"

page=fairmines-verifier-$version
cp -r web/dist "$stage/$page"
find "$stage/$page" -type d -exec chmod 0755 {} + && find "$stage/$page" -type f -exec chmod 0644 {} +
find "$stage/$page" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" --format=gnu \
    -C "$stage" -cf - "$page" | gzip -9n >"dist/$page.tar.gz.tmp"
mv "dist/$page.tar.gz.tmp" "dist/$page.tar.gz"
rm -rf "$stage"
for f in "fairmines-wasm-$version.tgz" "$page.tar.gz"; do
    echo "dist-web: dist/$f ($(stat -c %s "dist/$f") bytes, $(tar -tzf "dist/$f" | wc -l) entries)"
done
