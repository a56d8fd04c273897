#!/usr/bin/env bash
# Tests of the Python package `fairmines` (python/, extension crate bindings/python).
#
# Installs what it needs (Debian python3-venv if missing; pinned pip packages into python/.venv),
# builds and installs the package with `pip install ./python`, checks the stubs (stubtest, mypy
# --strict), runs pytest (every case of vectors/vectors.json, a differential test against a pure-Python
# implementation of ALGORITHM.md, the stub against the module, conversion and the error mapping, a short
# smoke of the game, many threads at once, whole histories), then builds the sdist and installs it into a
# fresh venv.
#
#   scripts/test-python.sh               everything
#   scripts/test-python.sh --setup-only  venv + build + install only (used by scripts/bench-python.sh)
#   FAIRMINES_SKIP_SDIST=1 ...           skip the sdist round trip (the slowest step)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VENV=$ROOT/python/.venv
SETUP_ONLY=0
[[ ${1:-} == --setup-only ]] && SETUP_ONLY=1

step() { printf '\n== %s\n' "$*"; }

# --- tools ------------------------------------------------------------------------------------
missing=()
command -v python3 >/dev/null || missing+=(python3)
python3 -c 'import venv, ensurepip' 2>/dev/null || missing+=(python3-venv)
if ((${#missing[@]})); then
  step "apt-get install ${missing[*]}"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
fi
python3 -c 'import sys; assert sys.version_info >= (3, 10), sys.version' || {
  echo "python3 >= 3.10 is needed" >&2
  exit 1
}
command -v cargo >/dev/null || {
  echo "cargo (the Rust toolchain) is needed" >&2
  exit 1
}

# --- venv with the pinned tools (recreated when python/requirements-dev.txt changes) ----------
if ! cmp -s python/requirements-dev.txt "$VENV/requirements-dev.txt" 2>/dev/null; then
  step "venv $VENV"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check -r python/requirements-dev.txt
  cp python/requirements-dev.txt "$VENV/requirements-dev.txt"
fi
# maturin (the build backend) is run from PATH.
export PATH="$VENV/bin:$PATH"
export PIP_DISABLE_PIP_VERSION_CHECK=1

# --- build and install: the PEP 517 path users take (release profile) -------------------------
# The tests' build adds the cargo feature `testing` (Round._hold_for_testing, which lets a test see a
# second move wait for the first); the benchmark's build (--setup-only) and the sdist are what ships.
features=testing
((SETUP_ONLY)) && features=
step "pip install ./python${features:+ (cargo features: $features)}"
start=$SECONDS
MATURIN_PEP517_ARGS=${features:+--features $features} \
  pip install --quiet --no-build-isolation --no-deps --force-reinstall ./python
echo "built and installed in $((SECONDS - start))s"
((SETUP_ONLY)) && exit 0

# --- stubs ------------------------------------------------------------------------------------
# Run from the repo root, so that the installed package is found, not python/fairmines (no .so).
# (pytest's test_stub.py compares every docstring and signature of the module with the stub.)
step "stubtest"
python -m mypy.stubtest fairmines
step "mypy --strict"
(cd python && mypy --strict --no-incremental fairmines tests)

# --- tests ------------------------------------------------------------------------------------
step "pytest"
pytest python/tests -q -p no:cacheprovider

# --- the sdist: built from python/, installed into a fresh venv with an isolated build --------
if [[ ${FAIRMINES_SKIP_SDIST:-0} == 1 ]]; then
  echo "sdist round trip skipped (FAIRMINES_SKIP_SDIST=1)"
  exit 0
fi
step "sdist round trip"
if [[ ! -f README.md ]]; then
  # crates/fairmines/Cargo.toml names ../../README.md as its readme; maturin sdist needs the file.
  echo "README.md is missing at the repo root: the sdist cannot be built without it" >&2
  exit 1
fi
start=$SECONDS
dist=$(mktemp -d)
trap 'rm -rf "$dist"' EXIT
(cd python && maturin sdist --out "$dist" 2>&1 | tail -n 1)
python3 -m venv "$dist/venv"
# A fixed target dir keeps the compiled dependencies between runs (the sdist unpacks elsewhere each time).
# The sdist's files carry one fixed old mtime, so cargo would take the cached builds of the project's own
# crates for fresh even after they changed: forget those (the dependencies stay cached).
rm -rf "$ROOT"/target/python-sdist/*/.fingerprint/fairmines-*
CARGO_TARGET_DIR=$ROOT/target/python-sdist "$dist/venv/bin/pip" install --quiet "$dist"/fairmines-*.tar.gz
(cd "$dist" && "$dist/venv/bin/python" - <<'EOF'
import pathlib, fairmines
package = pathlib.Path(fairmines.__file__).parent
assert (package / "py.typed").is_file() and (package / "_native.pyi").is_file()
assert not hasattr(fairmines.Round, "_hold_for_testing"), "a test-only hook in the shipped build"
assert fairmines.mine_positions(
    "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a",
    "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817", 1, 3) == [7, 10, 19]
assert fairmines.verify_history([]).ok and fairmines.HistoryReport.__module__ == "fairmines"  # _reports.py
print("sdist", fairmines.__version__, "installs and runs from", package)
EOF
)
echo "sdist round trip in $((SECONDS - start))s"
