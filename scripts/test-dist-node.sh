#!/usr/bin/env bash
# Checks the npm packages of dist/ as a user uses them: their files and package.json, the addons' libc (the musl one loaded by musl's loader), then installed offline without Rust into a new folder and the vectors and conformance suite run on it; `--into DIR`: installs in DIR and keeps it (sh DIR/run.sh NODE, for Debian 11).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
need musl-gcc:musl-tools readelf:binutils
if [[ ${1:-} == --into ]]; then mkdir -p "$2" && TMP=$(cd "$2" && pwd); else scratch; fi
app=$TMP/app
mkdir -p "$app"
tgz=dist/fairmines-$version.tgz
step "the three tarballs: files, package.json, the addons' libc"
listing() { tar -tzf "$1" | LC_ALL=C sort | sed 's|^package/||' | xargs; }
[[ $(listing "$tgz") == "LICENSE-APACHE LICENSE-MIT README.md examples/play-round.mjs index.d.ts index.js index.mjs package.json" ]] ||
    fail "$tgz holds: $(listing "$tgz")"
for p in linux-x64-gnu linux-x64-musl; do
    [[ $(listing "dist/fairmines-$p-$version.tgz") == "LICENSE-APACHE LICENSE-MIT README.md fairmines.$p.node package.json" ]] ||
        fail "fairmines-$p-$version.tgz holds: $(listing "dist/fairmines-$p-$version.tgz")"
    mkdir -p "$TMP/$p" && tar -xzf "dist/fairmines-$p-$version.tgz" -C "$TMP/$p"
done
tar -xzOf "$tgz" package/package.json >"$TMP/root.json"
node - "$TMP" "$version" <<'JS' || fail "package.json (above)"
const assert = require('node:assert/strict');
const [tmp, version] = process.argv.slice(2);
const read = (f) => JSON.parse(require('fs').readFileSync(f, 'utf8'));
const root = read(`${tmp}/root.json`);
assert.deepEqual([root.name, root.version], ['fairmines', version]);
assert.deepEqual(root.optionalDependencies, { 'fairmines-linux-x64-gnu': version, 'fairmines-linux-x64-musl': version });
assert.deepEqual(root.exports['.'], { types: './index.d.ts', import: './index.mjs', require: './index.js' });
for (const [p, libc] of [['linux-x64-gnu', 'glibc'], ['linux-x64-musl', 'musl']]) {
  const pkg = read(`${tmp}/${p}/package/package.json`);
  assert.deepEqual([pkg.name, pkg.version, pkg.os, pkg.cpu, pkg.libc, pkg.main, pkg.license],
    [`fairmines-${p}`, version, ['linux'], ['x64'], [libc], `fairmines.${p}.node`, 'MIT OR Apache-2.0']);
  assert.deepEqual(pkg.files, [`fairmines.${p}.node`, 'LICENSE-MIT', 'LICENSE-APACHE']);
}
JS
gnu_node=$TMP/linux-x64-gnu/package/fairmines.linux-x64-gnu.node musl_node=$TMP/linux-x64-musl/package/fairmines.linux-x64-musl.node
newest=$(glibc_floor "$gnu_node")
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | LC_ALL=C sort | xargs; }
[[ -z $(needed "$gnu_node" | tr ' ' '\n' | grep -vxE 'lib(c|m)\.so\.6|lib(pthread|gcc_s)\.so\.[01]|lib(dl|rt)\.so\.[12]|ld-linux-x86-64\.so\.2') ]] ||
    fail "the gnu addon needs $(needed "$gnu_node")"
if objdump -T "$musl_node" | grep GLIBC; then fail "the musl addon has GLIBC symbols"; fi
[[ $(needed "$musl_node") =~ ^libc\.(so|musl-x86_64\.so\.1)$ ]] || fail "the musl addon needs $(needed "$musl_node")"
# No musl Node here: a musl-gcc program, with stand-ins for Node's napi_* functions, dlopen()s the musl addon.
{
    printf '#include <dlfcn.h>\n#include <stdio.h>\n'
    nm -D --undefined-only "$musl_node" | awk '$2 ~ /^napi_/ { print "void " $2 "(void) {}" }'
    echo 'int main(int c, char **v) { void *a = dlopen(v[1], RTLD_NOW); if (!a || !dlsym(a, "napi_register_module_v1")) { fprintf(stderr, "%s\n", dlerror()); return 1; } return 0; }'
} >"$TMP/musl-load.c"
musl-gcc -rdynamic -o "$TMP/musl-load" "$TMP/musl-load.c"
readelf -l "$TMP/musl-load" | grep -q 'ld-musl-x86_64' || fail "musl-gcc made a program without musl's loader"
"$TMP/musl-load" "$musl_node" || fail "the musl addon does not load under musl's dynamic linker"
echo "the gnu addon needs $newest at most; the musl addon loads under musl"

step "npm install offline, without Rust, in a new folder; npm ci; the package's vector suite"
node_bin=$(command -v node)
bare=$(dirname "$node_bin"):/usr/bin:/bin
for tool in cargo rustc rustup; do if PATH=$bare command -v "$tool" >/dev/null; then fail "$tool is on $bare"; fi; done
printf '{ "name": "app", "version": "1.0.0", "private": true }\n' >"$app/package.json"
user_npm() {
    (cd "$app" && env -i PATH="$bare" HOME="$TMP/home" npm_config_cache="$TMP/npm-cache" npm_config_update_notifier=false \
        "$node_bin" "$(readlink -f "$(command -v npm)")" "$@" --offline --no-audit --no-fund --loglevel=error >/dev/null)
}
# The documented install: the root package, then both platform packages as optional dependencies (the lock
# file then holds both; npm installs the gnu one here), then `npm ci` from the lock file alone.
user_npm install "$ROOT/$tgz"
user_npm install --save-optional "$ROOT/dist/fairmines-linux-x64-gnu-$version.tgz" "$ROOT/dist/fairmines-linux-x64-musl-$version.tgz"
rm -rf "$app/node_modules"
user_npm ci || fail "npm ci after the documented npm install failed"
[[ -f $app/node_modules/fairmines-linux-x64-gnu/fairmines.linux-x64-gnu.node && ! -e $app/node_modules/fairmines-linux-x64-musl ]] ||
    fail "npm did not install the gnu package alone"
[[ -z "$(find "$app/node_modules/fairmines" -name '*.node')" ]] || fail "an addon inside node_modules/fairmines"
# The batch vectors and the shared JavaScript conformance suite, laid out as in the repository.
mkdir -p "$app/suite/node/test" "$app/suite/vectors" "$app/suite/tests"
cp node/test/vectors.test.js node/test/conformance.test.js node/test/helpers.js "$app/suite/node/test/"
cp -r tests/js-conformance "$app/suite/tests/"
cp vectors/vectors.json "$app/suite/vectors/"
cat >"$app/origin.mjs" <<'JS'
// `require` and `import` load the installed package with the gnu platform package's addon.
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fm from 'fairmines';
import fmDefault from 'fairmines';
const require = createRequire(import.meta.url);
const dir = path.dirname(new URL(import.meta.url).pathname);
assert.equal(require.resolve('fairmines'), path.join(dir, 'node_modules', 'fairmines', 'index.js'));
assert.ok(import.meta.resolve('fairmines').endsWith('/node_modules/fairmines/index.mjs'));
assert.equal(fm.minePositions, fmDefault.minePositions);
assert.equal(require('fairmines').__napiBindingTarget, 'native');
const addons = Object.keys(require.cache).filter((f) => f.endsWith('.node')).map((f) => path.relative(dir, f));
assert.deepEqual(addons, [path.join('node_modules', 'fairmines-linux-x64-gnu', 'fairmines.linux-x64-gnu.node')]);
assert.deepEqual(fm.minePositions('b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a',
  'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817', 1, 3), [7, 10, 19]);
console.log(`  require and import: the installed package, the gnu addon; Node ${process.version}, ` +
  `glibc ${process.report.getReport().header.glibcVersionRuntime}`);
JS
cat >"$TMP/run.sh" <<'SH'
set -e
cd "$(dirname "$0")/app"
export NAPI_RS_ENFORCE_VERSION_CHECK=1
"${1:-node}" origin.mjs
"${1:-node}" --test --test-reporter=tap suite/node/test/vectors.test.js suite/node/test/conformance.test.js >vectors.tap || { cat vectors.tap; exit 1; }
grep -q '^# fail 0$' vectors.tap && grep -q '^# pass [1-9]' vectors.tap || { cat vectors.tap; exit 1; }
echo "  the vectors and the conformance suite on the installed package: $(grep '^# pass' vectors.tap | cut -c3-), $(grep '^# fail' vectors.tap | cut -c3-)"
SH
(cd / && env -i PATH="$bare" HOME="$TMP/home" sh "$TMP/run.sh" "$node_bin")
