#!/usr/bin/env bash
# `make test-dist VERIFY-ARGS`: checks every artifact of dist/ as a user uses it (test-dist-*.sh; fairmines-server by its README and as a podman image; the arm64 wheels, npm packages and C archives, and fairmines-server with them, in an arm64 root under QEMU), then the C archive, the command line (x86_64, and aarch64 under QEMU), the npm packages and the UniFFI library again inside a Debian 11 root (glibc 2.31; root only).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
source scripts/debian-root.sh
source scripts/arm64.sh
(($# > 0)) || fail "usage: scripts/test-dist.sh VERIFY-ARGS... (make test-dist passes them)"
[[ -f dist/SHA256SUMS ]] || fail "dist/SHA256SUMS is missing (make dist)"
(cd dist && sha256sum --quiet -c SHA256SUMS)
[[ $(wc -l <dist/SHA256SUMS) == $(find dist -maxdepth 1 -type f ! -name SHA256SUMS | wc -l) ]] || fail "dist/SHA256SUMS does not list every file"
scratch
# The two Debian roots, when not cached, are made meanwhile (minutes: arm64's under QEMU); the steps that use
# them wait for them (each root is locked while it is made) and make one again if this failed (log: target/roots.log).
arm64_emulation
need debootstrap:debootstrap
mkdir -p "$ROOT/target"
(debian_root "${ARM64[@]}" && debian_root "${DEBIAN11[@]}") >"$ROOT/target/roots.log" 2>&1 &
roots=$!
bash scripts/test-dist-uniffi.sh --into "$TMP/uniffi"
bash scripts/test-dist-web.sh
bash scripts/test-dist-container.sh
# These four check arm64 files in the arm64 root too.
bash scripts/test-dist-python.sh
bash scripts/test-dist-server.sh
bash scripts/test-dist-node.sh --into "$TMP/node"
bash scripts/test-dist-c.sh --into "$TMP/c"

# Each architecture's command line (arm64's in the arm64 root, under emulation on an x86_64 machine); $TMP/cli is
# x86_64's, for Debian 11 below.
for target in "${CLI_TARGETS[@]}"; do
    name=fairmines-$version-$target
    cli=$TMP/cli && [[ $target == x86_64-* ]] || cli=$TMP/cli-${target%%-*}
    machine=$(elf_machine "$target")
    step "$name.tar.gz: static $machine, --version, selftest, verify and README.md's worked example, in an empty environment$([[ $target != aarch64-* ]] || echo " (in the arm64 root)")"
    got=$(tar -tzf "dist/$name.tar.gz" | LC_ALL=C sort | xargs)
    [[ $got == "$name/ $name/LICENSE-APACHE $name/LICENSE-MIT $name/README.md $name/fairmines" ]] || fail "the archive holds $got"
    mkdir -p "$cli" && tar -xzf "dist/$name.tar.gz" -C "$cli"
    if readelf -lWd "$cli/$name/fairmines" | grep -E 'NEEDED|INTERP'; then fail "the command line is not static"; fi
    readelf -h "$cli/$name/fairmines" | grep -q "Machine: *.*$machine" || fail "$name/fairmines is not for $machine"
    { printf 'name=%s version=%s args="%s"\n' "$name" "$version" "$*"; cat <<'SH'; } >"$cli/run.sh"
set -eu
cd "$(dirname "$0")/$name"
test "$(./fairmines --version)" = "fairmines $version" || { echo "FAILED: --version says $(./fairmines --version)"; exit 1; }
./fairmines selftest >/dev/null
# shellcheck disable=SC2086
./fairmines verify $args | grep -qx 'verdict: OK, every check given holds' || { echo "FAILED: verify $args"; exit 1; }
cmd=$(awk '/^```sh$/ { on = 1; next } on && /^```$/ { exit } on' README.md)
shown=$(awk '/^```text$/ { on = 1; next } on && /^```$/ { exit } on' README.md)
test "$cmd" = "\$ ./fairmines verify $args" || { echo "FAILED: README.md's command is $cmd"; exit 1; }
test -n "$shown" && test "$(sh -c "${cmd#\$ }")" = "$shown" || { echo "FAILED: README.md's output"; exit 1; }
# The mistyped rule as the core has it: the form (64 lowercase hex) is the server seed's only.
tr '\n' ' ' <README.md | grep -q 'a server seed *that is empty, has a space around it or is not 64 lowercase hex characters' ||
    { echo "FAILED: README.md does not say the mistyped rule is about the server seed"; exit 1; }
tr '\n' ' ' <README.md | grep -q 'or a client seed that is empty or has a space around it' ||
    { echo "FAILED: README.md does not say what looks mistyped in a client seed"; exit 1; }
if grep -q 'ALGORITHM.md' README.md; then echo "FAILED: README.md names ALGORITHM.md, which the archive does not hold"; exit 1; fi
echo "  fairmines: $version, selftest, verify OK, README.md's worked example as shown"
SH
    arch_run "${target%%-*}" "$cli" env -i sh run.sh
done

step "Debian 11 (glibc 2.31): the C archive's suite, the command line, the npm packages, the UniFFI library"
wait "$roots" || echo "test-dist: making the Debian roots in the background failed (target/roots.log); once more:" >&2
debian_root "${DEBIAN11[@]}"
cp "$(command -v node)" "$TMP/node/node"
for part in c cli node uniffi; do
    debian_run "${DEBIAN11[0]}" "$TMP/$part" /bin/sh run.sh /work/node || fail "$part inside Debian 11 (above)"
done
echo "test-dist: every artifact passed"
