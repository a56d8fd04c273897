#!/usr/bin/env bash
# Checks dist/fairmines-server-X.Y.Z.tgz as an operator uses it: its files and package.json, then server/README.md's release block and the two blocks after it, run as written beside a copy of the release's files with no cargo on PATH: installed from the tarballs, started with its own PostgreSQL, a round played, the pair rotated, the export passed by the release's fairmines command.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
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

step "server/README.md's release blocks as written, in a folder beside the release's files, without cargo"
release=$TMP/release
mkdir -p "$release" "$TMP/home"
chmod 0755 "$TMP"  # as root the embedded PostgreSQL runs as nobody, which must reach its data
cp "dist/fairmines-$version.tgz" dist/fairmines-linux-x64-{gnu,musl}-"$version.tgz" "$tgz" \
    "dist/fairmines-$version-x86_64-unknown-linux-musl.tar.gz" "$release/"
# The release block, then the untagged ones (play, check); not the clone's start.
blocks=$(node -e '
const text = require("fs").readFileSync("server/README.md", "utf8");
const found = [...text.matchAll(/(?:<!-- (\w+): \S+ -->\n)?```sh\n([\s\S]*?)```/g)];
const release = found.filter((m) => m[1] === "release"), after = found.filter((m) => m[1] === undefined);
if (release.length !== 1 || after.length !== 2) throw new Error(`${release.length} release block(s), ${after.length} untagged`);
process.stdout.write([...release, ...after].map((m) => m[2]).join("\n"));')
node_bin=$(command -v node)
bare=$(dirname "$node_bin"):/usr/bin:/bin
for tool in cargo rustc rustup; do if PATH=$bare command -v "$tool" >/dev/null; then fail "$tool is on $bare"; fi; done
port=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
# The service's other dependencies come from npm's registry, through a cache kept between runs.
mkdir -p "$target_dir/npm-cache-dist"
(cd "$release" && exec setsid env -i PATH="$bare" HOME="$TMP/home" TMPDIR="$TMP" PORT="$port" \
    npm_config_cache="$target_dir/npm-cache-dist" npm_config_prefer_offline=true npm_config_audit=false \
    npm_config_fund=false npm_config_update_notifier=false npm_config_loglevel=error \
    timeout 600 bash -euo pipefail -c "$blocks") >"$TMP/out" 2>"$TMP/err" &
pid=$!
# (|| true: under set -e a failing command in the trap would be the script's status, and the group is gone by now.)
trap 'kill -- -$pid 2>/dev/null || true; rm -rf "$TMP"' EXIT
wait "$pid" || { cat "$TMP/out" "$TMP/err" >&2; fail "the README's blocks failed (above)"; }
app=$release/fairmines-server/node_modules
grep -qx '{"ok":true}' "$TMP/out" || fail "never ready: $(cat "$TMP/out" "$TMP/err")"
grep -q '"revealed":{"serverSeed":"[0-9a-f]\{64\}"' "$TMP/out" || fail "no rotation: $(cat "$TMP/out")"
[[ $(tail -n 1 "$TMP/out") == 'verdict: OK'* ]] || fail "verify-history: $(tail -n 3 "$TMP/out")"
cli=fairmines-$version-x86_64-unknown-linux-musl/fairmines
cmp -s <(tar -xzOf "dist/fairmines-$version-x86_64-unknown-linux-musl.tar.gz" "$cli") "$release/fairmines-server/fairmines" ||
    fail "verify-history was not the release's fairmines command"
node -e '
const assert = require("node:assert/strict"), fs = require("fs");
const [app, version] = process.argv.slice(1), read = (p) => JSON.parse(fs.readFileSync(`${app}/${p}/package.json`, "utf8"));
for (const p of ["fairmines", "fairmines-linux-x64-gnu", "fairmines-server"]) assert.equal(read(p).version, version, p);
assert.ok(!fs.existsSync(`${app}/fairmines-linux-x64-musl`), "the musl addon installed on glibc");
assert.ok(!fs.existsSync(`${app}/fairmines-server/node_modules/fairmines`), "a second fairmines under the service");
const lock = JSON.parse(fs.readFileSync(`${app}/../package-lock.json`, "utf8")).packages;
for (const p of ["fairmines", "fairmines-linux-x64-gnu", "fairmines-server"])
  assert.match(lock[`node_modules/${p}`].resolved, new RegExp(`^file:\\.\\./${p}-${version}\\.tgz$`), p);' "$app" "$version" ||
    fail "the installed packages (above)"
grep -q 'draining' "$TMP/err" || fail "no drain on SIGTERM: $(cat "$TMP/err")"
echo "  installed from $tgz and the release's fairmines packages, no cargo: ready, a round, a rotation, $(tail -n 1 "$TMP/out")"
