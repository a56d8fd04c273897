#!/usr/bin/env bash
# The npm package fairmines-server into dist/: the service (bin, src, migrations), its OpenAPI document, its Containerfile and compose.yaml, its README and licences, depending on the release's fairmines package by version (scripts/dist-node.sh packs it).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
stage=$target_dir/dist-server/package
rm -rf "$stage" && mkdir -p "$stage" dist
cp -r server/bin server/src server/migrations server/openapi.json server/Containerfile server/compose.yaml LICENSE-MIT LICENSE-APACHE "$stage/"
# The README's links into the repository point to the release's tag, as the package leaves the repository behind.
sed "s|](\.\./|](https://github.com/fairmines/fairmines/blob/v$version/|g" server/README.md >"$stage/README.md"
node - server/package.json "$stage/package.json" "$version" <<'JS'
const fs = require('fs');
const [src, dst, version] = process.argv.slice(2);
const pkg = JSON.parse(fs.readFileSync(src, 'utf8'));
if (pkg.version !== version) throw new Error(`server/package.json is ${pkg.version}, the workspace ${version}`);
delete pkg.private;
delete pkg.scripts.test;
pkg.dependencies.fairmines = version;  // in the repository file:../node, in a release the release's package
pkg.files = ['bin/', 'src/', 'migrations/', 'openapi.json', 'Containerfile', 'compose.yaml', 'README.md', 'LICENSE-MIT', 'LICENSE-APACHE'];
fs.writeFileSync(dst, JSON.stringify(pkg, null, 2) + '\n');
JS
modes "$stage"
chmod 0755 "$stage/bin/fairmines-server.js"
(cd "$stage" && npm pack --ignore-scripts --silent --pack-destination "$ROOT/dist" >/dev/null)
ls -l "dist/fairmines-server-$version.tgz"
