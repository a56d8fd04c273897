#!/usr/bin/env bash
# .github/workflows/*.yml pass actionlint (pinned, built with Go into target/tools), their run: steps through ShellCheck (Debian's); the release's cli, node-addon and c jobs build every command line, Node addon and C archive make dist builds.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
version=v1.7.12 actionlint=$ROOT/target/tools/actionlint
if [[ ! -x $actionlint || "$("$actionlint" -version | head -1)" != "$version" ]]; then
    go=$(command -v go || echo /usr/local/go/bin/go)
    [[ -x $go ]] || fail "Go is needed to install actionlint"
    GOBIN=$ROOT/target/tools GOFLAGS=-mod=mod "$go" install "github.com/rhysd/actionlint/cmd/actionlint@$version"
fi
have shellcheck || bash scripts/bootstrap.sh shellcheck || echo "check-workflows: no shellcheck: run steps not linted" >&2
shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
((${#workflows[@]})) || fail "no workflow in .github/workflows"
"$actionlint" -no-color "${workflows[@]}"
# The release builds the command line, the Node addons and the C archives of every Linux target `make dist` builds
# (its cli job through dist.sh, its c job through dist-c.sh).
(
    source scripts/zig.sh
    for target in "${CLI_TARGETS[@]}"; do
        grep -qE "^ +- \{ os: [^,]+, target: $target, exe: " .github/workflows/release.yml ||
            fail "release.yml's cli job does not build $target, which make dist builds"
    done
    for target in "${NODE_TARGETS[@]}"; do
        grep -qE "^ +- \{ os: [^,]+, target: $target, build: " .github/workflows/release.yml ||
            fail "release.yml's node-addon job does not build $target, which make dist builds"
    done
    for target in "${WHEEL_TARGETS[@]}"; do
        tag='"2014"' && [[ $target != *-musl ]] || tag=musllinux_1_2
        grep -qE "^ +- \{ platform: linux, os: [^,]+, target: ${target%%-*}, manylinux: $tag \}" .github/workflows/release.yml ||
            fail "release.yml's wheels job does not build the $target wheel ($tag), which make dist builds"
    done
    for arch in "${C_ARCHES[@]}"; do
        grep -qE "^ +- \{ os: [^,]+, target: [^,]+, linux: $arch, " .github/workflows/release.yml ||
            fail "release.yml's c job does not build the $arch C archives, which make dist builds"
    done
)
echo "check-workflows: ${#workflows[@]} workflow(s) pass actionlint $version$(have shellcheck && echo " with shellcheck $(shellcheck --version | sed -n "s/^version: //p")")"
