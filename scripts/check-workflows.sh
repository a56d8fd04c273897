#!/usr/bin/env bash
# The GitHub Actions workflows (.github/workflows/*.yml) pass actionlint, which cannot run them but checks
# their syntax, expressions, action inputs, runner labels and the shell of every `run:` step (through
# ShellCheck when it is on PATH). actionlint is built from the Go module proxy at a pinned version into
# target/tools (cached there, never in git); Go is /usr/local/go/bin/go or the one on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."

ACTIONLINT_VERSION=v1.7.12
tools=$PWD/target/tools
actionlint=$tools/actionlint
if [[ ! -x "$actionlint" ]] || [[ "$("$actionlint" -version | head -1)" != "$ACTIONLINT_VERSION" ]]; then
    go=$(command -v go || echo /usr/local/go/bin/go)
    [[ -x "$go" ]] || { echo "check-workflows: Go is needed to install actionlint" >&2; exit 1; }
    mkdir -p "$tools"
    echo "check-workflows: installing actionlint $ACTIONLINT_VERSION into target/tools"
    GOBIN=$tools GOFLAGS=-mod=mod "$go" install "github.com/rhysd/actionlint/cmd/actionlint@$ACTIONLINT_VERSION"
fi

# ShellCheck for the `run:` steps: Debian's package, installed when missing (as the other scripts install
# theirs); without apt-get the steps are still parsed, only not linted.
if ! command -v shellcheck >/dev/null && command -v apt-get >/dev/null && (( EUID == 0 )); then
    echo "check-workflows: installing shellcheck (Debian)"
    apt-get install -y -qq shellcheck >/dev/null 2>&1 || { apt-get update -qq && apt-get install -y -qq shellcheck >/dev/null; }
fi
command -v shellcheck >/dev/null || echo "check-workflows: no shellcheck: run steps not linted" >&2

shopt -s nullglob
workflows=(.github/workflows/*.yml .github/workflows/*.yaml)
(( ${#workflows[@]} > 0 )) || { echo "check-workflows: no workflow in .github/workflows" >&2; exit 1; }
"$actionlint" -no-color "${workflows[@]}"
echo "check-workflows: ${#workflows[@]} workflow(s) pass actionlint $ACTIONLINT_VERSION$(command -v shellcheck >/dev/null && echo " with shellcheck $(shellcheck --version | sed -n "s/^version: //p")")"
