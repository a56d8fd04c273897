#!/usr/bin/env bash
# The npm packages into dist/ as napi-rs lays them out: fairmines (the loader, optionalDependencies on the two others), fairmines-linux-x64-gnu (glibc 2.17), fairmines-linux-x64-musl.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false
work=$target_dir/dist-node
zig_tools
# @napi-rs/cli (napi create-npm-dirs), from node/'s lock file, when missing or stale.
if [[ ! -f node/node_modules/.package-lock.json || node/package-lock.json -nt node/node_modules/.package-lock.json ]]; then
    (cd node && npm ci --no-audit --no-fund --silent)
fi
# glibc in the shared target folder (dist-c.sh's flags); musl in its own (a cdylib there links libc dynamically).
release_flags x86_64-unknown-linux-gnu
release_flags "-C target-feature=-crt-static" x86_64-unknown-linux-musl
cargo zigbuild --locked --release --quiet --target x86_64-unknown-linux-gnu.2.17 -p fairmines-node
cargo zigbuild --locked --release --quiet --target-dir "$work/cargo" --target x86_64-unknown-linux-musl -p fairmines-node
declare -A addon=([linux-x64-gnu]=$target_dir/x86_64-unknown-linux-gnu/release/libfairmines_node.so
    [linux-x64-musl]=$work/cargo/x86_64-unknown-linux-musl/release/libfairmines_node.so)

stage=$work/stage
rm -rf "$stage" && mkdir -p "$stage/root" "$stage/napi" dist
# napi create-npm-dirs from a copy of package.json whose napi targets are the two built here.
node -e '
const fs = require("fs"); const [src, dst] = process.argv.slice(1);
const pkg = JSON.parse(fs.readFileSync(src, "utf8"));
pkg.napi.targets = ["x86_64-unknown-linux-gnu", "x86_64-unknown-linux-musl"];
fs.writeFileSync(dst, JSON.stringify(pkg, null, 2) + "\n");' node/package.json "$stage/napi/package.json"
node/node_modules/.bin/napi create-npm-dirs --cwd "$stage/napi" --npm-dir npm >"$stage/napi.log" 2>&1 ||
    { cat "$stage/napi.log" >&2; exit 1; }
pack() { modes "$1" && (cd "$1" && npm pack --ignore-scripts --silent --pack-destination "$ROOT/dist" >/dev/null); }
root=$stage/root
cp node/package.json node/index.js node/index.mjs node/index.d.ts node/README.md LICENSE-MIT LICENSE-APACHE "$root/"
cp -r node/examples "$root/"
for p in linux-x64-gnu linux-x64-musl; do
    dir=$stage/napi/npm/$p
    cp "${addon[$p]}" "$dir/fairmines.$p.node"
    cp LICENSE-MIT LICENSE-APACHE "$dir/"
    (cd "$dir" && npm pkg set 'files[]=LICENSE-MIT' 'files[]=LICENSE-APACHE')
    pack "$dir"
    (cd "$root" && npm pkg set "optionalDependencies.fairmines-$p=$version")
done
pack "$root"
ls -l dist/fairmines-"$version".tgz dist/fairmines-linux-x64-*-"$version".tgz
