# Shared by the scripts: `source "$(dirname "$0")/lib.sh"` after `set -euo pipefail`.
# Moves to the repository root and sets ROOT; NAME is the script's name for messages.
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NAME=$(basename "$0" .sh)
cd "$ROOT"

step() { printf '\n==> %s: %s\n' "$NAME" "$*" >&2; }
fail() { echo "$NAME: $*" >&2; exit 1; }
have() { command -v "$1" >/dev/null 2>&1; }

# need COMMAND[:DEBIAN_PACKAGE] ...: installs the packages of the commands that are missing (scripts/bootstrap.sh).
need() {
    local missing=() spec
    for spec in "$@"; do
        have "${spec%%:*}" || missing+=("${spec#*:}")
    done
    ((${#missing[@]} == 0)) || bash "$ROOT/scripts/bootstrap.sh" "${missing[@]}"
}

# A fresh scratch folder in $TMP, removed on exit.
scratch() {
    TMP=$(mktemp -d)
    trap 'rm -rf "$TMP"' EXIT
}
