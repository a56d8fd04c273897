#!/usr/bin/env bash
# Checks the npm packages scripts/dist-node.sh wrote into dist/, as a user would use them:
# - the tarballs: their files (no addon in the root package), the platform packages' os/cpu/libc/main/files,
#   the root's optionalDependencies (each platform package, at the version), dist/SHA256SUMS where it lists them;
# - the gnu addon needs no GLIBC symbol newer than 2.17; the musl addon has no GLIBC symbol, needs only musl's
#   libc, and loads under musl's dynamic linker (a musl-gcc program with stand-ins for Node's napi_* functions
#   dlopen()s it: every other symbol must resolve in musl). No musl Node runs here, so its vectors are not run;
# - an empty folder outside the source tree, a fresh npm cache, offline (no registry), PATH without cargo or
#   rustc: `npm install` of the root tarball, then `npm install --save-optional` of both platform tarballs
#   (the documented install: the lock file then holds both, the root's optional dependencies resolve to
#   them, the musl one is skipped), then `npm ci` from the lock file alone; `require('fairmines')` and `import`
#   must load the installed package with the addon of node_modules/fairmines-linux-x64-gnu, and the
#   package's own vector suite (node/test/vectors.test.js, every shared vector) passes on it.
#   scripts/test-dist-node.sh              all of it, with the `node` on PATH
#   scripts/test-dist-node.sh --into DIR   the checks and the install into DIR (new or empty), not run: DIR is
#                                          self-contained, for another system (a chroot) to run it with its own
#                                          Node: `sh DIR/run.sh [NODE]` (DIR at any path, e.g. chroot ROOT sh
#                                          /app/run.sh /usr/local/bin/node)
#   FAIRMINES_NODE=/path/to/node scripts/test-dist-node.sh   the vectors run with that Node binary
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD

into=
if [[ "${1:-}" == "--into" ]]; then
    into=${2:?usage: scripts/test-dist-node.sh [--into DIR]}
fi

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
fail() { echo "test-dist-node: $*" >&2; exit 1; }
root_tgz=dist/fairmines-$version.tgz
declare -A libc=([linux-x64-gnu]=glibc [linux-x64-musl]=musl)
for f in "$root_tgz" dist/fairmines-linux-x64-{gnu,musl}-"$version".tgz; do
    [[ -f $f ]] || fail "$f is missing (scripts/dist-node.sh)"
done
if [[ -f dist/SHA256SUMS ]] && grep -q " fairmines-\(linux-x64-[a-z]*-\)\?$version\.tgz\$" dist/SHA256SUMS; then
    (cd dist && grep " fairmines-\(linux-x64-[a-z]*-\)\?$version\.tgz\$" SHA256SUMS | sha256sum --quiet -c -)
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The tarballs' files and package.json fields.
listing() { tar -tzf "$1" | LC_ALL=C sort | tr '\n' ' '; }
want="package/LICENSE-APACHE package/LICENSE-MIT package/README.md package/examples/play-round.mjs package/index.d.ts package/index.js package/index.mjs package/package.json "
[[ "$(listing "$root_tgz")" == "$want" ]] || fail "$root_tgz holds: $(listing "$root_tgz")"
tar -xzOf "$root_tgz" package/package.json >"$tmp/root.json"
node - "$tmp/root.json" "$version" <<'JS' || fail "$root_tgz: package.json"
const assert = require('node:assert/strict');
const [file, version] = process.argv.slice(2);
const pkg = JSON.parse(require('fs').readFileSync(file, 'utf8'));
assert.equal(pkg.name, 'fairmines');
assert.equal(pkg.version, version);
assert.deepEqual(pkg.optionalDependencies, { 'fairmines-linux-x64-gnu': version, 'fairmines-linux-x64-musl': version });
assert.deepEqual(pkg.exports['.'], { types: './index.d.ts', import: './index.mjs', require: './index.js' });
JS
for p in linux-x64-gnu linux-x64-musl; do
    tgz=dist/fairmines-$p-$version.tgz
    want="package/LICENSE-APACHE package/LICENSE-MIT package/README.md package/fairmines.$p.node package/package.json "
    [[ "$(listing "$tgz")" == "$want" ]] || fail "$tgz holds: $(listing "$tgz")"
    mkdir "$tmp/$p" && tar -xzf "$tgz" -C "$tmp/$p"
    node - "$tmp/$p/package/package.json" "$version" "$p" "${libc[$p]}" <<'JS' || fail "$tgz: package.json"
const assert = require('node:assert/strict');
const [file, version, platform, libc] = process.argv.slice(2);
const pkg = JSON.parse(require('fs').readFileSync(file, 'utf8'));
assert.equal(pkg.name, `fairmines-${platform}`);
assert.equal(pkg.version, version);
assert.deepEqual([pkg.os, pkg.cpu, pkg.libc], [['linux'], ['x64'], [libc]]);
assert.equal(pkg.main, `fairmines.${platform}.node`);
assert.deepEqual(pkg.files, [`fairmines.${platform}.node`, 'LICENSE-MIT', 'LICENSE-APACHE']);
assert.equal(pkg.license, 'MIT OR Apache-2.0');
JS
done

# The addons' ELF: the glibc floor of the gnu one; musl only for the musl one.
gnu_node=$tmp/linux-x64-gnu/package/fairmines.linux-x64-gnu.node
musl_node=$tmp/linux-x64-musl/package/fairmines.linux-x64-musl.node
newest=$(objdump -T "$gnu_node" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -Vu | tail -1)
[[ -n "$newest" ]] || fail "no GLIBC symbol version in the gnu addon"
[[ "$(printf '%s\n' "$newest" 2.17 | sort -V | tail -1)" == 2.17 ]] || fail "the gnu addon needs GLIBC_$newest (> 2.17)"
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | LC_ALL=C sort | tr '\n' ' '; }
for lib in $(needed "$gnu_node"); do
    case $lib in libc.so.6 | libm.so.6 | libpthread.so.0 | libdl.so.2 | librt.so.1 | libgcc_s.so.1 | ld-linux-x86-64.so.2) ;;
        *) fail "the gnu addon needs $lib" ;;
    esac
done
if objdump -T "$musl_node" | grep -q GLIBC; then fail "the musl addon has GLIBC symbols"; fi
# musl's loader takes any libc.* (libc.so, libc.musl-x86_64.so.1) as itself.
[[ "$(needed "$musl_node")" =~ ^libc\.(so|musl-x86_64\.so\.1)\ $ ]] || fail "the musl addon needs $(needed "$musl_node")"
if ! command -v musl-gcc >/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq musl-tools >/dev/null
fi
{
    echo '#include <dlfcn.h>'
    echo '#include <stdio.h>'
    nm -D --undefined-only "$musl_node" | awk '$2 ~ /^napi_/ { print "void " $2 "(void) {}" }'
    cat <<'C'
int main(int argc, char **argv) {
    void *addon = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!addon) { fprintf(stderr, "%s\n", dlerror()); return 1; }
    if (!dlsym(addon, "napi_register_module_v1")) { fprintf(stderr, "no napi_register_module_v1\n"); return 1; }
    return 0;
}
C
} >"$tmp/musl-load.c"
musl-gcc -rdynamic -o "$tmp/musl-load" "$tmp/musl-load.c"
readelf -l "$tmp/musl-load" | grep -q 'ld-musl-x86_64' || fail "musl-gcc made a program without musl's loader"
"$tmp/musl-load" "$musl_node" || fail "the musl addon does not load under musl's dynamic linker"

# The install, as a user would: a new folder, nothing cached, no registry, no Rust on PATH.
node_bin=$(command -v "${FAIRMINES_NODE:-node}")
npm_cli=$(readlink -f "$(command -v npm)")   # npm-cli.js, run by that Node
app=${into:-$tmp/app}
mkdir -p "$app"
[[ -z "$(ls -A "$app")" ]] || fail "$app is not empty"
app=$(cd "$app" && pwd)
[[ "$app/" != "$src/"* ]] || fail "$app is inside the source tree"
bare=$(dirname "$node_bin"):/usr/bin:/bin
for tool in cargo rustc rustup; do
    if PATH=$bare command -v "$tool" >/dev/null; then fail "$tool is on the bare PATH ($bare)"; fi
done
printf '{ "name": "app", "version": "1.0.0", "private": true }\n' >"$app/package.json"
user_npm() { # npm ARGS... in the project, as the user runs it (offline, no Rust, a fresh cache)
    (cd "$app" && env -u CARGO_HOME -u RUSTUP_HOME PATH="$bare" HOME="$tmp/home" npm_config_cache="$tmp/npm-cache" \
        npm_config_update_notifier=false "$node_bin" "$npm_cli" "$@" --offline --no-audit --no-fund --loglevel=error >/dev/null)
}
# The documented install: the root package, then both platform packages as optional dependencies of the
# project, so that its lock file holds every optional dependency of the root package (npm installs the one
# for this libc and skips the other); with only the gnu one, `npm ci` fails (the lock lacks the musl one).
user_npm install "$src/$root_tgz"
user_npm install --save-optional "$src/dist/fairmines-linux-x64-gnu-$version.tgz" "$src/dist/fairmines-linux-x64-musl-$version.tgz"
# Then `npm ci` in that project, as a CI job or a second machine runs it: from the lock file alone, afresh.
rm -rf "$app/node_modules"
user_npm ci || fail "npm ci after the documented npm install failed"
[[ -f "$app/node_modules/fairmines-linux-x64-gnu/fairmines.linux-x64-gnu.node" ]] || fail "the gnu package was not installed"
[[ ! -e "$app/node_modules/fairmines-linux-x64-musl" ]] || fail "the musl package was installed on glibc"
[[ -z "$(find "$app/node_modules/fairmines" -name '*.node')" ]] || fail "an addon inside node_modules/fairmines"

# The checks, self-contained in the folder (for --into): the package's own vector suite
# (node/test/vectors.test.js with its helpers, under suite/ laid out as in the repository so that they
# find vectors/vectors.json; `require('fairmines')` there finds the folder's node_modules), run on the
# installed package; where the addon comes from, through require and
# import; and run.sh.
mkdir -p "$app/suite/node/test" "$app/suite/vectors"
cp node/test/vectors.test.js node/test/helpers.js "$app/suite/node/test/"
cp vectors/vectors.json "$app/suite/vectors/"
cat >"$app/origin.cjs" <<'JS'
'use strict';
// The `fairmines` that `require` and `import` load is the installed one, with the gnu platform package's
// addon (no .node sits beside the root package), and gives the worked example.
const assert = require('node:assert/strict');
const path = require('node:path');

module.exports = function origin(fm, how) {
  const { version } = require('fairmines/package.json');
  assert.equal(require.resolve('fairmines'), path.join(__dirname, 'node_modules', 'fairmines', 'index.js'));
  assert.equal(fm.__napiBindingTarget, 'native');
  const addons = Object.keys(require.cache).filter((f) => f.endsWith('.node')).map((f) => path.relative(__dirname, f));
  assert.deepEqual(addons, [path.join('node_modules', 'fairmines-linux-x64-gnu', 'fairmines.linux-x64-gnu.node')]);
  const s = 'b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a';
  const c = 'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817';
  assert.deepEqual(fm.minePositions(s, c, 1, 3), [7, 10, 19]);
  const report = process.report.getReport().header;
  console.log(`fairmines ${version} through ${how}: the installed package and the gnu addon, ` +
    `Node ${process.version}, glibc ${report.glibcVersionRuntime ?? 'none'}`);
};
JS
cat >"$app/origin-require.cjs" <<'JS'
'use strict';
require('./origin.cjs')(require('fairmines'), "require('fairmines')");
JS
cat >"$app/origin-import.mjs" <<'JS'
import { createRequire } from 'node:module';
import * as fm from 'fairmines';
import fmDefault, { minePositions } from 'fairmines';

const require = createRequire(import.meta.url);
const assert = require('node:assert/strict');
// `import` takes the package's ES module entry (exports["."].import), which re-exports the CommonJS one.
assert.ok(import.meta.resolve('fairmines').endsWith('/node_modules/fairmines/index.mjs'), import.meta.resolve('fairmines'));
assert.equal(minePositions, fmDefault.minePositions);
require('./origin.cjs')(fm, "import from 'fairmines'");
JS
cat >"$app/run.sh" <<'SH'
#!/bin/sh
# The installed `fairmines`: where it loads from (require and import), then the package's vector suite
# on it: sh run.sh [NODE]
set -e
cd "$(dirname "$0")"
# The loader then also checks that the platform package has the root package's version.
export NAPI_RS_ENFORCE_VERSION_CHECK=1
"${1:-node}" origin-require.cjs
"${1:-node}" origin-import.mjs
"${1:-node}" --test --test-reporter=tap suite/node/test/vectors.test.js >vectors.tap || { cat vectors.tap; exit 1; }
# Every test ran and passed (a suite that found no tests would pass too).
grep -q '^# fail 0$' vectors.tap && grep -q '^# pass [1-9]' vectors.tap || { cat vectors.tap; exit 1; }
echo "node/test/vectors.test.js on the installed package: $(grep '^# pass' vectors.tap | cut -c3-), $(grep '^# fail' vectors.tap | cut -c3-)"
SH

if [[ -n "$into" ]]; then
    echo "test-dist-node: the packages and checks are installed in $app; run them with: sh $app/run.sh [NODE]"
    exit 0
fi
(cd / && env -i PATH="$bare" HOME="$tmp/home" sh "$app/run.sh" "$node_bin")
echo "test-dist-node: fairmines $version: 3 tarballs as laid out, gnu addon GLIBC_$newest at most," \
    "musl addon loads under musl, installed offline without Rust, loaded through require and import, the package's vector suite passed"
