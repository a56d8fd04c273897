#!/usr/bin/env bash
# The npm packages of `fairmines` (node/ over bindings/node), laid out as napi-rs lays them out, into dist/:
#   dist/fairmines-X.Y.Z.tgz                  the root package: index.js (the napi-rs loader), index.mjs,
#                                             index.d.ts, README.md, examples/, the licences; no addon inside;
#                                             optionalDependencies on the two packages below, at X.Y.Z
#   dist/fairmines-linux-x64-gnu-X.Y.Z.tgz    fairmines.linux-x64-gnu.node for glibc >= 2.17 (cargo-zigbuild),
#                                             with os ["linux"], cpu ["x64"], libc ["glibc"]
#   dist/fairmines-linux-x64-musl-X.Y.Z.tgz   fairmines.linux-x64-musl.node for musl (Alpine), libc ["musl"]
# The platform packages' package.json and README.md are written by `napi create-npm-dirs` (@napi-rs/cli, pinned
# in node/package-lock.json); the names are the ones the checked-in node/index.js requires when no local .node
# is next to it. Nothing is published. X.Y.Z is the workspace version (Cargo.toml). Only these three files of
# dist/ are written (scripts/dist.sh writes dist/SHA256SUMS). scripts/test-dist-node.sh checks them.
# Reproducible: no build paths in the addons (--remap-path-prefix), symbols stripped, npm pack's fixed mtimes
# and order, file modes set here. Tools: cargo-zigbuild and zig, pinned, from scripts/zig.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI=true npm_config_fund=false npm_config_audit=false npm_config_update_notifier=false

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
work=$PWD/target/dist-node
started=$SECONDS

# shellcheck source=scripts/zig.sh
source scripts/zig.sh
for t in x86_64-unknown-linux-gnu x86_64-unknown-linux-musl; do
    rustup target list --installed | grep -qx "$t" || rustup target add "$t"
done
# @napi-rs/cli (napi create-npm-dirs), from node/'s lock file, only when missing or stale.
if [[ ! -f node/node_modules/.package-lock.json || node/package-lock.json -nt node/node_modules/.package-lock.json ]]; then
    (cd node && npm ci --no-audit --no-fund --silent)
fi

# The addons: for glibc 2.17 in the shared target folder (the same flags as scripts/dist-c.sh's, so the two share
# their dependencies); for musl in a folder of its own (its flags differ from the static command line's).
# RUSTFLAGS would override the per-target flags below (the release workflow sets it): not for these packages.
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
remap="--remap-path-prefix=$PWD=/fairmines --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-C strip=symbols $remap"
# A cdylib on musl must link libc dynamically (the target's default is static, which allows no cdylib).
export CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS="-C target-feature=-crt-static -C strip=symbols $remap"
declare -A cargo_dir=([x86_64-unknown-linux-gnu]=${CARGO_TARGET_DIR:-$PWD/target} [x86_64-unknown-linux-musl]=$work/cargo)
cargo zigbuild --locked --release --quiet --target x86_64-unknown-linux-gnu.2.17 -p fairmines-node
cargo zigbuild --locked --release --quiet --target-dir "$work/cargo" --target x86_64-unknown-linux-musl -p fairmines-node
echo "dist-node: tools and the two addons ready after $((SECONDS - started)) s"

# The packages, staged under target/dist-node/stage.
stage=$work/stage
rm -rf "$stage" && mkdir -p "$stage/root" "$stage/napi"
# napi create-npm-dirs from a copy of package.json whose napi targets are the two built here.
node -e '
const fs = require("fs"); const [src, dst] = process.argv.slice(1);
const pkg = JSON.parse(fs.readFileSync(src, "utf8"));
pkg.napi.targets = ["x86_64-unknown-linux-gnu", "x86_64-unknown-linux-musl"];
fs.writeFileSync(dst, JSON.stringify(pkg, null, 2) + "\n");' node/package.json "$stage/napi/package.json"
node/node_modules/.bin/napi create-npm-dirs --cwd "$stage/napi" --npm-dir npm >/dev/null 2>"$stage/napi.log" \
    || { cat "$stage/napi.log" >&2; exit 1; }
platforms=(linux-x64-gnu linux-x64-musl)
declare -A triple=([linux-x64-gnu]=x86_64-unknown-linux-gnu [linux-x64-musl]=x86_64-unknown-linux-musl)

pack() { # dir: npm pack into dist/, the tarball's name on stdout
    find "$1" -type d -exec chmod 0755 {} + && find "$1" -type f -exec chmod 0644 {} +
    (cd "$1" && npm pack --ignore-scripts --silent --pack-destination "$OLDPWD/dist")
}
mkdir -p dist
packages=()
for p in "${platforms[@]}"; do
    dir=$stage/napi/npm/$p
    name=$(node -p "require('$dir/package.json').name")
    [[ "$name" == "fairmines-$p" ]] || { echo "dist-node: napi named the $p package $name" >&2; exit 1; }
    cp "${cargo_dir[${triple[$p]}]}/${triple[$p]}/release/libfairmines_node.so" "$dir/fairmines.$p.node"
    # The licences too (napi lists only the addon in "files"; npm adds LICENSE but not LICENSE-MIT by itself).
    cp LICENSE-MIT LICENSE-APACHE "$dir/"
    (cd "$dir" && npm pkg set 'files[]=LICENSE-MIT' 'files[]=LICENSE-APACHE')
    packages+=("$name")
    pack "$dir" >/dev/null
done

# The root package: node/'s published files (package.json's "files"; no addon), depending on the platform
# packages as napi pre-publish would make it (optionalDependencies, each at this version).
root=$stage/root
cp node/package.json node/index.js node/index.mjs node/index.d.ts node/README.md LICENSE-MIT LICENSE-APACHE "$root/"
cp -r node/examples "$root/"
for name in "${packages[@]}"; do
    (cd "$root" && npm pkg set "optionalDependencies.$name=$version")
done
pack "$root" >/dev/null

for f in "fairmines-$version.tgz" "${packages[@]/%/-$version.tgz}"; do
    [[ -f dist/$f ]] || { echo "dist-node: dist/$f was not written" >&2; exit 1; }
    echo "dist-node: dist/$f ($(stat -c %s "dist/$f") bytes)"
done
if tar -tzf "dist/fairmines-$version.tgz" | grep -q '\.node$'; then
    echo "dist-node: the root package holds an addon" >&2; exit 1
fi
echo "dist-node: done in $((SECONDS - started)) s"
