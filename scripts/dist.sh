#!/usr/bin/env bash
# `make dist`: every release artifact into dist/ with SHA256SUMS (scripts/dist.sh TARGET: the command line only, for that musl target).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh

# dist/fairmines-VERSION-TARGET.tar.gz: the command line for TARGET, its licences and a README with the worked example.
cli_archive() {
    local target=$1
    release_flags "$target"
    if [[ $target == x86_64-unknown-linux-musl ]]; then
        cargo build --locked --release --target "$target" -p fairmines-cli
    else
        # Linked by zig, on any machine (this x86_64 one, the release's arm64 runner): the same file from both.
        zig_tools
        cargo zigbuild --locked --release --target "$target" -p fairmines-cli
    fi
    local name=fairmines-$version-$target
    local stage=dist/.stage/$name
    mkdir -p "$stage"
    cp "$target_dir/$target/release/fairmines" LICENSE-MIT LICENSE-APACHE "$stage/"
    # The worked example: the Makefile's ARGS, with the output of this binary (or of the host build of the same source).
    local example_args example_out
    example_args=$(env -u MAKEFLAGS -u MAKELEVEL make -s --no-print-directory -f Makefile \
        --eval 'print-worked-example: ; @echo $(ARGS)' print-worked-example)
    [[ $example_args == --server-seed\ * ]] || fail "no worked example in the Makefile's ARGS"
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

The worked example of the algorithm's description (server seed revealed after the round, the player's client
seed, the nonce, the number of mines, the commitment shown before the round and the mine positions the game
declared), from this folder:

\`\`\`sh
\$ ./fairmines verify $example_args
\`\`\`

\`\`\`text
$example_out
\`\`\`

The exit status is 0 for OK, 1 when a check given fails (MISMATCH), 2 for bad arguments, and 2 also for a
mismatch whose seeds look mistyped, which is more likely a typing slip than the operator's fault: a server seed
that is empty, has a space around it or is not 64 lowercase hex characters (the operator's form: upper-case hex
counts as mistyped), or a client seed that is empty or has a space around it (any other client seed is as the
player chose it). \`verify\` names the seed on an \`input\` line.

Source: https://github.com/fairmines/fairmines (tag v$version). Licence: MIT OR Apache-2.0 (the two files here).
Check the archive against the release's SHA256SUMS: sha256sum -c --ignore-missing SHA256SUMS
TXT
    chmod 0644 "$stage"/LICENSE-* "$stage/README.md"
    chmod 0755 "$stage" "$stage/fairmines"
    targz dist/.stage "$name" "dist/$name.tar.gz"
    rm -rf dist/.stage
}

rm -rf dist && mkdir -p dist
if [[ $# -eq 0 ]]; then targets=("${CLI_TARGETS[@]}"); else targets=("$1"); fi
for target in "${targets[@]}"; do cli_archive "$target"; done
if [[ $# -eq 0 ]]; then
    for part in c node server python uniffi web; do bash "scripts/dist-$part.sh"; done
fi
sums=$(cd dist && find . -maxdepth 1 -type f -printf '%f\n' | LC_ALL=C sort | xargs sha256sum)
printf '%s\n' "$sums" > dist/SHA256SUMS
cat dist/SHA256SUMS
