#!/usr/bin/env bash
# The npm packages into dist/ as napi-rs lays them out: fairmines (the loader, optionalDependencies on the others) and one per target of NODE_TARGETS (zig.sh): fairmines-linux-{x64,arm64}-gnu (glibc 2.17), fairmines-linux-{x64,arm64}-musl.
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
declare -A addon
for target in "${NODE_TARGETS[@]}"; do
    if [[ $target == *-gnu ]]; then
        release_flags "$target"
        cargo zigbuild --locked --release --quiet --target "$target.2.17" -p fairmines-node
        addon[$(napi_platform "$target")]=$target_dir/$target/release/libfairmines_node.so
    else
        release_flags "-C target-feature=-crt-static" "$target"
        cargo zigbuild --locked --release --quiet --target-dir "$work/cargo" --target "$target" -p fairmines-node
        addon[$(napi_platform "$target")]=$work/cargo/$target/release/libfairmines_node.so
    fi
done

stage=$work/stage
rm -rf "$stage" && mkdir -p "$stage/root" "$stage/napi" dist
# napi create-npm-dirs from a copy of package.json whose napi targets are the ones built here.
node -e '
const fs = require("fs"); const [src, dst, ...targets] = process.argv.slice(1);
const pkg = JSON.parse(fs.readFileSync(src, "utf8"));
pkg.napi.targets = targets;
fs.writeFileSync(dst, JSON.stringify(pkg, null, 2) + "\n");' node/package.json "$stage/napi/package.json" "${NODE_TARGETS[@]}"
node/node_modules/.bin/napi create-npm-dirs --cwd "$stage/napi" --npm-dir npm >"$stage/napi.log" 2>&1 ||
    { cat "$stage/napi.log" >&2; exit 1; }
pack() { modes "$1" && (cd "$1" && npm pack --ignore-scripts --silent --pack-destination "$ROOT/dist" >/dev/null); }
root=$stage/root
cp node/package.json node/index.js node/index.mjs node/index.d.ts node/README.md LICENSE-MIT LICENSE-APACHE "$root/"
cp -r node/examples "$root/"
for target in "${NODE_TARGETS[@]}"; do
    p=$(napi_platform "$target") && dir=$stage/napi/npm/$p
    cp "${addon[$p]}" "$dir/fairmines.$p.node"
    cp LICENSE-MIT LICENSE-APACHE "$dir/"
    (cd "$dir" && npm pkg set 'files[]=LICENSE-MIT' 'files[]=LICENSE-APACHE')
    pack "$dir"
    (cd "$root" && npm pkg set "optionalDependencies.fairmines-$p=$version")
done
pack "$root"
ls -l dist/fairmines-"$version".tgz dist/fairmines-linux-*-"$version".tgz
