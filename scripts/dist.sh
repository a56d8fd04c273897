#!/usr/bin/env bash
# `make dist`: the release artifacts this machine builds, into dist/ with dist/SHA256SUMS:
#   dist/fairmines-X.Y.Z-x86_64-unknown-linux-musl.tar.gz   the static `fairmines` command line (any x86_64
#                                                            Linux), with LICENSE-MIT, LICENSE-APACHE and
#                                                            README.md (the worked example and its output)
#   the C archives (scripts/dist-c.sh), the npm packages (scripts/dist-node.sh), the Python wheels and
#   sdist (scripts/dist-python.sh), the JAR with its POM and Maven repository folder dist/maven and the Ruby
#   gem (scripts/dist-uniffi.sh), the WASM npm package and the verifier page (scripts/dist-web.sh), each
#   described in its script
#   scripts/dist.sh [TARGET]   the command line only, for another musl target (the release workflow's
#                              aarch64-unknown-linux-musl)
# X.Y.Z is the workspace version (Cargo.toml). Reproducible: no build paths in the binary
# (--remap-path-prefix), symbols stripped, the archive with a fixed order, owners and mtimes
# (SOURCE_DATE_EPOCH: the last commit's time) and gzip without a name or time stamp.
# scripts/test-dist.sh (make test-dist) checks what this writes.
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
target=${1:-x86_64-unknown-linux-musl}
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
target_dir=${CARGO_TARGET_DIR:-$PWD/target}

rustup target list --installed | grep -qx "$target" || rustup target add "$target"
# RUSTFLAGS would override the target's flags below (the release workflow sets it): not for this archive.
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
# Only this target's crates get these flags (--target), so the host build scripts are unaffected.
flags_var=CARGO_TARGET_$(tr 'a-z-' 'A-Z_' <<<"$target")_RUSTFLAGS
export "$flags_var"="-C strip=symbols --remap-path-prefix=$PWD=/fairmines --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
cargo build --locked --release --target "$target" -p fairmines-cli

name=fairmines-$version-$target
rm -rf dist && mkdir -p "dist/.stage/$name"
stage=dist/.stage/$name
cp "$target_dir/$target/release/fairmines" "$stage/"
cp LICENSE-MIT LICENSE-APACHE "$stage/"
# The worked example of ALGORITHM.md: the Makefile's ARGS (its default, not an override), shown with the output
# of this binary (or, for a target this machine cannot run, of the host build of the same source).
example_args=$(env -u MAKEFLAGS -u MAKELEVEL make -s --no-print-directory -f Makefile \
    --eval 'print-worked-example: ; @echo $(ARGS)' print-worked-example)
[[ $example_args == --server-seed\ * ]] || { echo "dist: no worked example in the Makefile's ARGS" >&2; exit 1; }
if [[ $target == "$(uname -m)"-*-linux-* ]]; then
    # shellcheck disable=SC2086 # the arguments, split
    example_out=$(env -i "$stage/fairmines" verify $example_args)
else
    # shellcheck disable=SC2086
    example_out=$(cargo run --locked --release --quiet -p fairmines-cli -- verify $example_args)
fi
cat > "$stage/README.md" <<TXT
# fairmines $version: the command-line verifier

The command-line verifier of the provably fair Mines game (Cloudbet), a static binary for any ${target%%-*}
Linux (musl, no shared libraries needed). \`./fairmines --help\` lists the commands, \`./fairmines verify --help\`
the arguments of \`verify\`.

The worked example of ALGORITHM.md (server seed revealed after the round, the player's client seed, the nonce,
the number of mines, the commitment shown before the round and the mine positions the game declared), from this
folder:

\`\`\`sh
\$ ./fairmines verify $example_args
\`\`\`

\`\`\`text
$example_out
\`\`\`

The exit status is 0 for OK, 1 when a check given fails (MISMATCH), 2 for bad arguments (also a mismatch
whose seeds look mistyped: a space around them, upper-case hex, an empty seed; \`verify\` names it).

Source: https://github.com/fairmines/fairmines (tag v$version). Licence: MIT OR Apache-2.0 (the two files here).
Check the archive against the release's SHA256SUMS: sha256sum -c --ignore-missing SHA256SUMS
TXT
chmod 0755 "$stage/fairmines"
chmod 0644 "$stage"/LICENSE-* "$stage/README.md"
touch -d "@$SOURCE_DATE_EPOCH" "$stage" "$stage"/*
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" --format=gnu \
    -C dist/.stage -cf - "$name" | gzip -9n > "dist/$name.tar.gz"
rm -rf dist/.stage

if [[ $# -eq 0 ]]; then
    bash scripts/dist-c.sh
    bash scripts/dist-node.sh
    bash scripts/dist-python.sh
    bash scripts/dist-uniffi.sh
    bash scripts/dist-web.sh
fi

sums=$(cd dist && find . -maxdepth 1 -type f -printf '%f\n' | LC_ALL=C sort | xargs sha256sum)
printf '%s\n' "$sums" > dist/SHA256SUMS
echo "dist: $(find dist -maxdepth 1 -type f -printf '%f (%s bytes) ' | LC_ALL=C sort)"
cat dist/SHA256SUMS
