#!/usr/bin/env bash
# Checks dist/fairmines-server-X.Y.Z.tgz as an operator uses it: its files and package.json, then server/README.md's release block and the two blocks after it, run as written beside a copy of the release's files with no cargo on PATH: installed from the tarballs, started with its own PostgreSQL, a round played, the pair rotated, the export passed by the release's fairmines command; here (x86_64), then in the arm64 Debian root under QEMU (debian-root.sh, arm64.sh).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
source scripts/debian-root.sh
source scripts/arm64.sh
arm64_emulation
scratch
tgz=dist/fairmines-server-$version.tgz
step "$tgz: files, package.json"
want=$( (cd server && git ls-files bin src migrations openapi.json Containerfile compose.yaml README.md package.json) | LC_ALL=C sort | xargs)
got=$(tar -tzf "$tgz" | sed 's|^package/||' | grep -vxE 'LICENSE-MIT|LICENSE-APACHE' | LC_ALL=C sort | xargs)
[[ $got == "$want" ]] || fail "$tgz holds $got; the service is $want"
[[ $(tar -tzf "$tgz" | grep -cxE 'package/LICENSE-(MIT|APACHE)') == 2 ]] || fail "$tgz lacks a licence file"
tar -xzOf "$tgz" package/package.json | node -e '
const assert = require("node:assert/strict");
const pkg = JSON.parse(require("fs").readFileSync(0, "utf8")), version = process.argv[1];
assert.deepEqual([pkg.name, pkg.version, pkg.private, pkg.license], ["fairmines-server", version, undefined, "MIT OR Apache-2.0"]);
assert.equal(pkg.dependencies.fairmines, version, "fairmines of the release, by version");
assert.deepEqual(pkg.bin, { "fairmines-server": "bin/fairmines-server.js" });' "$version" || fail "package.json (above)"

# The release block, then the untagged ones (play, check); not the clone's start.
blocks=$(node -e '
const text = require("fs").readFileSync("server/README.md", "utf8");
const found = [...text.matchAll(/(?:<!-- (\w+): \S+ -->\n)?```sh\n([\s\S]*?)```/g)];
const release = found.filter((m) => m[1] === "release"), after = found.filter((m) => m[1] === undefined);
if (release.length !== 1 || after.length !== 2) throw new Error(`${release.length} release block(s), ${after.length} untagged`);
process.stdout.write([...release, ...after].map((m) => m[2]).join("\n"));')
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
# release_files DIR ARCH: the release's files the blocks use, the addons of every platform, ARCH's command line.
release_files() {
    mkdir -p "$1/release" "$1/home"
    cp "dist/fairmines-$version.tgz" dist/fairmines-linux-*-"$version.tgz" "$tgz" "dist/fairmines-$version-$2-unknown-linux-musl.tar.gz" "$1/release/"
}
# checked DIR ARCH NPM-ARCH: what the blocks printed in DIR/out and DIR/err, and what they installed.
checked() {
    local dir=$1 arch=$2 app=$1/release/fairmines-server/node_modules cli=fairmines-$version-$2-unknown-linux-musl
    grep -qx '{"ok":true}' "$dir/out" || fail "$arch: never ready: $(cat "$dir/out" "$dir/err")"
    grep -q '"revealed":{"serverSeed":"[0-9a-f]\{64\}"' "$dir/out" || fail "$arch: no rotation: $(cat "$dir/out")"
    [[ $(tail -n 1 "$dir/out") == 'verdict: OK'* ]] || fail "$arch: verify-history: $(tail -n 3 "$dir/out")"
    cmp -s <(tar -xzOf "dist/$cli.tar.gz" "$cli/fairmines") "$dir/release/fairmines-server/fairmines" ||
        fail "$arch: verify-history was not the release's fairmines command"
    node -e '
const assert = require("node:assert/strict"), fs = require("fs");
const [app, version, arch] = process.argv.slice(1), read = (p) => JSON.parse(fs.readFileSync(`${app}/${p}/package.json`, "utf8"));
const addon = `fairmines-linux-${arch}-gnu`;
for (const p of ["fairmines", addon, "fairmines-server"]) assert.equal(read(p).version, version, p);
const others = fs.readdirSync(app).filter((p) => p.startsWith("fairmines-linux-") && p !== addon);
// (npm before 10.9, Node 20 for arm64 here, also installs the musl package of the machine: the loader takes the gnu one.)
assert.ok(others.every((p) => p === `fairmines-linux-${arch}-musl`) && (arch === "arm64" || !others.length), `installed ${others}`);
assert.ok(!fs.existsSync(`${app}/fairmines-server/node_modules/fairmines`), "a second fairmines under the service");
const lock = JSON.parse(fs.readFileSync(`${app}/../package-lock.json`, "utf8")).packages;
for (const p of ["fairmines", addon, "fairmines-server"])
  assert.match(lock[`node_modules/${p}`].resolved, new RegExp(`^file:\\.\\./${p}-${version}\\.tgz$`), p);' "$app" "$version" "$3" ||
        fail "$arch: the installed packages (above)"
    grep -q 'draining' "$dir/err" || fail "$arch: no drain on SIGTERM: $(cat "$dir/err")"
    echo "  $arch: installed from $tgz and the release's fairmines packages, no cargo: ready, a round, a rotation, $(tail -n 1 "$dir/out")"
}

step "x86_64: server/README.md's release blocks as written, in a folder beside the release's files, without cargo"
chmod 0755 "$TMP"  # as root the embedded PostgreSQL runs as nobody, which must reach its data
release_files "$TMP" x86_64
node_bin=$(command -v node)
bare=$(dirname "$node_bin"):/usr/bin:/bin
for tool in cargo rustc rustup; do if PATH=$bare command -v "$tool" >/dev/null; then fail "$tool is on $bare"; fi; done
# The service's other dependencies come from npm's registry, through a cache kept between runs.
mkdir -p "$target_dir/npm-cache-dist"
(cd "$TMP/release" && exec setsid env -i PATH="$bare" HOME="$TMP/home" TMPDIR="$TMP" PORT="$port" \
    npm_config_cache="$target_dir/npm-cache-dist" npm_config_prefer_offline=true npm_config_audit=false \
    npm_config_fund=false npm_config_update_notifier=false npm_config_loglevel=error \
    timeout 600 bash -euo pipefail -c "$blocks") >"$TMP/out" 2>"$TMP/err" &
pid=$!
# (|| true: under set -e a failing command in the trap would be the script's status, and the group is gone by now.)
trap 'kill -- -$pid 2>/dev/null || true; rm -rf "$TMP"' EXIT
wait "$pid" || { cat "$TMP/out" "$TMP/err" >&2; fail "x86_64: the README's blocks failed (above)"; }
checked "$TMP" x86_64 x64

step "arm64: the same blocks in the arm64 root under QEMU (Node.js and npm for arm64, PostgreSQL's arm64 binaries)"
# The root has no registry: npm there runs offline from a copy of the cache, filled here for arm64 Linux with glibc.
dir=$TMP/aarch64
release_files "$dir" aarch64
arm64_node "$dir/node"
npm_config_cpu=arm64 npm_config_os=linux npm_config_libc=glibc npm_cache_fill "$dir"/release/fairmines-linux-*.tgz -- \
    "$dir/release/fairmines-$version.tgz" "$dir/release/fairmines-server-$version.tgz"
cp -r "$target_dir/npm-cache-dist" "$dir/npm-cache"
debian_root "${ARM64[@]}"
# The blocks in a file, with a trap that stops the service if a block fails before the last one stops it.
{ echo 'trap '"'"'kill ${SERVER:-} 2>/dev/null || true'"'"' EXIT'; printf '%s\n' "$blocks"; } >"$dir/blocks.sh"
debian_run "${ARM64[0]}" "$dir" env PATH=/work/node/bin:/usr/bin:/bin HOME=/work/home TMPDIR=/work PORT="$port" \
    npm_config_cache=/work/npm-cache npm_config_offline=true npm_config_audit=false npm_config_fund=false \
    npm_config_update_notifier=false npm_config_loglevel=error \
    bash -c 'cd release && exec timeout 600 bash -euo pipefail ../blocks.sh' >"$dir/out" 2>"$dir/err" ||
    { cat "$dir/out" "$dir/err" >&2; fail "arm64: the README's blocks failed (above)"; }
checked "$dir" aarch64 arm64
