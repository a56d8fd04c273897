#!/usr/bin/env bash
# `make test-dist`: checks what `make dist` wrote, as a user would use it: the C archives
# (scripts/test-dist-c.sh), the npm packages (scripts/test-dist-node.sh), the Python wheels and sdist
# (scripts/test-dist-python.sh), the JAR through a Maven project and the gem (scripts/test-dist-uniffi.sh, which
# also loads their library in Debian 11), the WASM package and the verifier page (scripts/test-dist-web.sh), the
# others on an older glibc (scripts/test-dist-oldglibc.sh, Debian 11);
# and here, the command line: dist/SHA256SUMS holds,
# the command-line archive unpacks into a new folder outside the source tree, holds the binary with its
# licences and README.md (whose worked example, run from the unpacked folder, prints what it shows), the binary is static (file and ldd say so), says its version, passes its selftest,
# and verifies the worked example of ALGORITHM.md (the arguments given: the Makefile passes `make verify`'s
# ARGS) with the verdict OK, run with an empty environment.
#   scripts/test-dist.sh VERIFY-ARGS...
set -euo pipefail
cd "$(dirname "$0")/.."
(( $# > 0 )) || { echo "usage: scripts/test-dist.sh VERIFY-ARGS... (make test-dist passes them)" >&2; exit 1; }

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
name=fairmines-$version-x86_64-unknown-linux-musl
[[ -f dist/$name.tar.gz ]] || { echo "test-dist: dist/$name.tar.gz is missing (make dist)" >&2; exit 1; }
(cd dist && sha256sum --quiet -c SHA256SUMS)
grep -q " $name.tar.gz\$" dist/SHA256SUMS || { echo "test-dist: SHA256SUMS does not list $name.tar.gz" >&2; exit 1; }

bash scripts/test-dist-c.sh
bash scripts/test-dist-node.sh
bash scripts/test-dist-python.sh
bash scripts/test-dist-uniffi.sh
bash scripts/test-dist-web.sh
bash scripts/test-dist-oldglibc.sh "$@"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tar -xzf "dist/$name.tar.gz" -C "$tmp"
want=$(printf '%s\n' "$name/" "$name/LICENSE-APACHE" "$name/LICENSE-MIT" "$name/README.md" "$name/fairmines")
got=$(tar -tzf "dist/$name.tar.gz" | LC_ALL=C sort)
[[ "$got" == "$want" ]] || { echo "test-dist: the archive holds:" >&2; echo "$got" >&2; exit 1; }
bin=$tmp/$name/fairmines

file "$bin" | grep -Eq 'static(-pie)? linked|statically linked' || { echo "test-dist: not static: $(file "$bin")" >&2; exit 1; }
# ldd prints "statically linked" (glibc's ldd on a static-pie) or "not a dynamic executable", exit 1 then.
ldd_out=$(ldd "$bin" 2>&1 || true)
grep -Eq 'statically linked|not a dynamic executable' <<<"$ldd_out" || { echo "test-dist: ldd: $ldd_out" >&2; exit 1; }
if readelf -d "$bin" | grep -q NEEDED; then echo "test-dist: the binary needs shared libraries" >&2; exit 1; fi

cd "$tmp"
run() { env -i "$bin" "$@"; }
[[ "$(run --version)" == "fairmines $version" ]] || { echo "test-dist: --version says $(run --version)" >&2; exit 1; }
run selftest >/dev/null
out=$(run verify "$@")
grep -qx 'verdict: OK, every check given holds' <<<"$out" || { echo "$out" >&2; echo "test-dist: verify did not say OK" >&2; exit 1; }
# The README's worked example: its command is `verify` with the arguments given (make verify's ARGS), and
# run from the unpacked folder it prints exactly the output the README shows.
readme=$tmp/$name/README.md
shown_cmd=$(awk '/^```sh$/ { on = 1; next } on && /^```$/ { exit } on' "$readme")
shown_out=$(awk '/^```text$/ { on = 1; next } on && /^```$/ { exit } on' "$readme")
[[ $shown_cmd == "\$ ./fairmines verify $*" ]] ||
    { echo "test-dist: README.md's command is '$shown_cmd', not ./fairmines verify with the worked example's arguments" >&2; exit 1; }
readme_out=$(cd "$tmp/$name" && env -i bash -c "${shown_cmd#\$ }")
[[ -n $shown_out && $readme_out == "$shown_out" ]] ||
    { diff <(echo "$shown_out") <(echo "$readme_out") >&2; echo "test-dist: README.md shows another output (diff above: -shown +run)" >&2; exit 1; }
echo "test-dist: $name.tar.gz ($(stat -c %s "$OLDPWD/dist/$name.tar.gz") bytes): static, $version, selftest and verify OK, README.md's worked example ($(wc -l <<<"$shown_out") lines of output) as shown"
