#!/usr/bin/env bash
# Checks the npm packages of dist/ as a user uses them: their files and package.json, each addon's machine and libc (the musl ones loaded by musl's loader), then, for each architecture, installed offline without Rust into a new folder by the documented npm commands and the vectors and conformance suite run on it: x86_64 here, arm64 in the arm64 Debian root under QEMU with Node.js and npm for arm64 (debian-root.sh, arm64.sh); `--into DIR`: installs in DIR and keeps it (sh DIR/run.sh NODE, for Debian 11).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
source scripts/debian-root.sh
source scripts/arm64.sh
need musl-gcc:musl-tools readelf:binutils
if [[ ${1:-} == --into ]]; then mkdir -p "$2" && TMP=$(cd "$2" && pwd); else scratch; fi
tgz=dist/fairmines-$version.tgz
platforms=() && for target in "${NODE_TARGETS[@]}"; do platforms+=("$(napi_platform "$target")"); done
# The arm64 root is wanted below (made meanwhile by test-dist.sh, or here).
arm64_emulation

step "the tarballs: their files and package.json"
listing() { tar -tzf "$1" | LC_ALL=C sort | sed 's|^package/||' | xargs; }
[[ $(listing "$tgz") == "LICENSE-APACHE LICENSE-MIT README.md examples/play-round.mjs index.d.ts index.js index.mjs package.json" ]] ||
    fail "$tgz holds: $(listing "$tgz")"
for p in "${platforms[@]}"; do
    [[ $(listing "dist/fairmines-$p-$version.tgz") == "LICENSE-APACHE LICENSE-MIT README.md fairmines.$p.node package.json" ]] ||
        fail "fairmines-$p-$version.tgz holds: $(listing "dist/fairmines-$p-$version.tgz")"
    mkdir -p "$TMP/pkg/$p" && tar -xzf "dist/fairmines-$p-$version.tgz" -C "$TMP/pkg/$p"
done
tar -xzOf "$tgz" package/package.json >"$TMP/pkg/root.json"
node - "$TMP/pkg" "$version" "${platforms[@]}" <<'JS' || fail "package.json (above)"
const assert = require('node:assert/strict');
const [dir, version, ...platforms] = process.argv.slice(2);
const read = (f) => JSON.parse(require('fs').readFileSync(f, 'utf8'));
const root = read(`${dir}/root.json`);
assert.deepEqual([root.name, root.version], ['fairmines', version]);
assert.deepEqual(root.optionalDependencies, Object.fromEntries(platforms.map((p) => [`fairmines-${p}`, version])));
assert.deepEqual(root.exports['.'], { types: './index.d.ts', import: './index.mjs', require: './index.js' });
for (const p of platforms) {
  const [, cpu, libc] = p.split('-');
  const pkg = read(`${dir}/${p}/package/package.json`);
  assert.deepEqual([pkg.name, pkg.version, pkg.os, pkg.cpu, pkg.libc, pkg.main, pkg.license],
    [`fairmines-${p}`, version, ['linux'], [cpu], [libc === 'gnu' ? 'glibc' : 'musl'], `fairmines.${p}.node`, 'MIT OR Apache-2.0']);
  assert.deepEqual(pkg.files, [`fairmines.${p}.node`, 'LICENSE-MIT', 'LICENSE-APACHE']);
}
JS

needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | LC_ALL=C sort | xargs; }
for target in "${NODE_TARGETS[@]}"; do
    p=$(napi_platform "$target") arch=${target%%-*}
    addon=$TMP/pkg/$p/package/fairmines.$p.node machine=$(elf_machine "$target")
    step "fairmines-$p: the addon's machine ($machine), its libc and the libraries it needs"
    readelf -h "$addon" | grep -q "Machine: *.*$machine" || fail "$p: the addon is not for $machine"
    if [[ $target == *-gnu ]]; then
        newest=$(glibc_floor "$addon")
        ! needed "$addon" | tr ' ' '\n' | grep -vxE 'lib(c|m)\.so\.6|lib(pthread|gcc_s)\.so\.[01]|lib(dl|rt)\.so\.[12]|ld-linux-(x86-64|aarch64)\.so\.[12]' ||
            fail "$p: the addon needs $(needed "$addon")"
        echo "the $p addon needs $newest at most"
        continue
    fi
    if objdump -T "$addon" | grep GLIBC; then fail "$p: the addon has GLIBC symbols"; fi
    [[ $(needed "$addon") =~ ^libc\.(so|musl-$arch\.so\.1)$ ]] || fail "$p: the addon needs $(needed "$addon")"
    # No musl Node here: a musl-gcc program, with stand-ins for Node's napi_* functions, dlopen()s the addon.
    load=$TMP/musl-load-$arch && mkdir -p "$load" && cp "$addon" "$load/addon.node"
    {
        printf '#include <dlfcn.h>\n#include <stdio.h>\n'
        nm -D --undefined-only "$addon" | awk '$2 ~ /^napi_/ { print "void " $2 "(void) {}" }'
        echo 'int main(int c, char **v) { void *a = dlopen(v[1], RTLD_NOW); if (!a || !dlsym(a, "napi_register_module_v1")) { fprintf(stderr, "%s\n", dlerror()); return 1; } return 0; }'
    } >"$load/musl-load.c"
    [[ $arch == x86_64 ]] || debian_root "${ARM64[@]}"
    arch_run "$arch" "$load" musl-gcc -rdynamic -o musl-load musl-load.c
    readelf -l "$load/musl-load" | grep -q "ld-musl-$arch" || fail "musl-gcc made a program without musl's loader"
    arch_run "$arch" "$load" ./musl-load ./addon.node || fail "$p: the addon does not load under musl's dynamic linker"
    echo "the $p addon loads under musl ($arch)"
done

# The documented install in DIR/app, from DIR/tarballs: the root package, then every platform package as optional
# dependencies (the lock file then holds them all; npm installs this machine's gnu one), then `npm ci` from the lock
# file alone. `install.sh NODE NPM-CLI`, offline, in an empty environment; then run.sh NODE: the vectors and the
# shared JavaScript conformance suite on the installed package, laid out as in the repository.
app_for() {
    local dir=$1 app=$1/app
    mkdir -p "$app/suite/node/test" "$app/suite/vectors" "$app/suite/tests" "$dir/tarballs"
    cp "$tgz" dist/fairmines-linux-*-"$version".tgz "$dir/tarballs/"
    printf '{ "name": "app", "version": "1.0.0", "private": true }\n' >"$app/package.json"
    cp node/test/vectors.test.js node/test/conformance.test.js node/test/helpers.js "$app/suite/node/test/"
    cp -r tests/js-conformance "$app/suite/tests/"
    cp vectors/vectors.json "$app/suite/vectors/"
    cat >"$app/origin.mjs" <<'JS'
// `require` and `import` load the installed package with the addon of this machine's gnu platform package.
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
const platform = `linux-${process.arch}-gnu`;
const addons = Object.keys(require.cache).filter((f) => f.endsWith('.node')).map((f) => path.relative(dir, f));
assert.deepEqual(addons, [path.join('node_modules', `fairmines-${platform}`, `fairmines.${platform}.node`)]);
assert.deepEqual(fm.minePositions('b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a',
  'd0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817', 1, 3), [7, 10, 19]);
console.log(`  require and import: the installed package, the ${platform} addon; Node ${process.version}, ` +
  `glibc ${process.report.getReport().header.glibcVersionRuntime}`);
JS
    { echo "version=$version"; cat <<'SH'; } >"$dir/install.sh"
set -e
node=$1 npm_cli=$2
cd "$(dirname "$0")/app"
npm() { "$node" "$npm_cli" "$@" --offline --no-audit --no-fund --loglevel=error --cache ../npm-cache >/dev/null; }
npm install "../tarballs/fairmines-$version.tgz"
npm install --save-optional ../tarballs/fairmines-linux-*.tgz
rm -rf node_modules
npm ci || { echo "FAILED: npm ci after the documented npm install"; exit 1; }
SH
    cat >"$dir/run.sh" <<'SH'
set -e
cd "$(dirname "$0")/app"
export NAPI_RS_ENFORCE_VERSION_CHECK=1
"${1:-node}" origin.mjs
"${1:-node}" --test --test-reporter=tap suite/node/test/vectors.test.js suite/node/test/conformance.test.js >vectors.tap || { cat vectors.tap; exit 1; }
grep -q '^# fail 0$' vectors.tap && grep -q '^# pass [1-9]' vectors.tap || { cat vectors.tap; exit 1; }
echo "  the vectors and the conformance suite on the installed package ($(uname -m)): $(grep '^# pass' vectors.tap | cut -c3-), $(grep '^# fail' vectors.tap | cut -c3-)"
SH
}
# ARCH's (npm's name) gnu package alone among the installed platform packages (on arm64, Node 20's npm, before 10.9,
# also installs the musl one: the loader takes the gnu one, origin.mjs checks); no addon in the root's.
installed() {
    local modules=$1/app/node_modules want=fairmines-linux-$2-gnu got
    got=$(find "$modules" -mindepth 1 -maxdepth 1 -name 'fairmines-linux-*' -printf '%f\n' | sort | xargs)
    [[ -f $modules/$want/fairmines.${want#fairmines-}.node ]] || fail "npm installed $got, not $want"
    [[ $got == "$want" || ($2 == arm64 && $got == "$want fairmines-linux-$2-musl") ]] || fail "npm installed $got, not $want alone"
    [[ -z "$(find "$modules/fairmines" -name '*.node')" ]] || fail "an addon inside node_modules/fairmines"
}

step "x86_64: npm install offline, without Rust, in a new folder; npm ci; the package's vectors and conformance suite"
node_bin=$(command -v node)
bare=$(dirname "$node_bin"):/usr/bin:/bin
for tool in cargo rustc rustup; do if PATH=$bare command -v "$tool" >/dev/null; then fail "$tool is on $bare"; fi; done
app_for "$TMP"
(cd / && env -i PATH="$bare" HOME="$TMP/home" npm_config_update_notifier=false sh "$TMP/install.sh" "$node_bin" "$(readlink -f "$(command -v npm)")")
installed "$TMP" x64
(cd / && env -i PATH="$bare" HOME="$TMP/home" sh "$TMP/run.sh" "$node_bin")

step "arm64: the same, in the arm64 root under QEMU, with Node.js and npm for arm64"
dir=$TMP/aarch64
arm64_node "$dir/node"
app_for "$dir"
debian_root "${ARM64[@]}"
debian_run "${ARM64[0]}" "$dir" sh install.sh /work/node/bin/node /work/node/bin/npm || fail "arm64: the install (above)"
installed "$dir" arm64
debian_run "${ARM64[0]}" "$dir" sh run.sh /work/node/bin/node || fail "arm64: the vectors (above)"
