#!/usr/bin/env bash
# Tests of the Python package `fairmines` (python/, extension crate bindings/python).
#
# Installs what it needs (Debian python3-venv if missing; pinned pip packages into python/.venv),
# builds and installs the package with `pip install ./python`, checks the stubs (stubtest, mypy
# --strict), runs pytest (every case of vectors/vectors.json, a differential test against a pure-Python
# implementation of ALGORITHM.md, the stub against the module, conversion and the error mapping, a short
# smoke of the game, many threads at once, whole histories and DataFrames, every python block of
# python/README.md), then runs the README's sh blocks as written (install into a fresh venv, build the
# wheel and the sdist), checks both archives for the licences and installs the sdist into that venv.
#
#   scripts/test-python.sh               everything
#   scripts/test-python.sh --setup-only  venv + build + install only (used by scripts/bench-python.sh)
#   FAIRMINES_SKIP_SDIST=1 ...           skip installing the sdist (the slowest step)
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

# --- the Rust this package adds ----------------------------------------------------------------
# The history crate's column-wise reader (feature `arrow`, which only this package turns on: its unit
# tests run here, the crate's others in scripts/test-rust.sh) and the extension crate, under clippy.
step "clippy (bindings/python, fairmines-history --features arrow), cargo test -p fairmines-history --features arrow"
PYO3_PYTHON=$VENV/bin/python cargo clippy --quiet --locked -p fairmines-python --features testing --all-targets -- -D warnings
cargo clippy --quiet --locked -p fairmines-history --features arrow --all-targets -- -D warnings
cargo test --quiet --locked --release -p fairmines-history --features arrow --lib

# --- stubs ------------------------------------------------------------------------------------
# Run from the repo root, so that the installed package is found, not python/fairmines (no .so).
# (pytest's test_stub.py compares every docstring and signature of the module with the stub.)
step "stubtest"
python -m mypy.stubtest fairmines
step "mypy --strict"
(cd python && mypy --strict --no-incremental fairmines tests)

# --- tests ------------------------------------------------------------------------------------
# The `fairmines` command makes the 1,000,000-row history of tests/test_frames.py (simulate-history).
step "cargo build --release -p fairmines-cli"
cargo build --release --quiet -p fairmines-cli
export FAIRMINES_CLI=${CARGO_TARGET_DIR:-$ROOT/target}/release/fairmines
step "pytest"
pytest python/tests -q -p no:cacheprovider

# --- the README's sh blocks as written, the wheel and the sdist (licences), the sdist installed -
step "the README's sh blocks: install into a fresh venv, build the wheel and the sdist"
start=$SECONDS
dist=$(mktemp -d)
trap 'rm -rf "$dist"' EXIT
python3 -m venv "$dist/venv"
# Every ```sh block of python/README.md, in order, from the repository's root, with the fresh venv first
# on PATH (its pip, an isolated build; maturin from the test venv after it). numpy, for the [numpy]
# extra, is pinned as in requirements-dev.txt. The wheel and the sdist are found in target/wheels by
# being newer than the start of this step.
grep -E '^numpy==' python/requirements-dev.txt >"$dist/constraints.txt"
touch "$dist/before"
python3 - python/README.md "$dist/block" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
for i, block in enumerate(re.findall(r"^```sh\n(.*?)^```$", text, re.S | re.M)):
    open(f"{sys.argv[2]}.{i}", "w", encoding="utf-8").write(block)
PY
for block in "$dist"/block.*; do
  sed 's/^/  $ /' "$block"
  (cd "$ROOT" && PATH="$dist/venv/bin:$PATH" PIP_CONSTRAINT="$dist/constraints.txt" bash -euo pipefail "$block")
done
"$dist/venv/bin/python" -c 'import fairmines; assert fairmines.mine_positions_batch("s", "c", range(2), 3).shape == (2, 3)'
wheels=${CARGO_TARGET_DIR:-$ROOT/target}/wheels
wheel=$(find "$wheels" -name 'fairmines-*-cp310-abi3-*.whl' -newer "$dist/before" | head -n 1)
sdist=$(find "$wheels" -name 'fairmines-*.tar.gz' -newer "$dist/before" | head -n 1)
[[ -n $wheel && -n $sdist ]] || {
  echo "the README's maturin build and sdist made no wheel or sdist in $wheels" >&2
  exit 1
}
# Both licence texts in both archives, identical to the repository's (python/LICENSE-* are symbolic links
# to them, named by pyproject's license-files).
python3 - "$wheel" "$sdist" <<'PY'
import pathlib, sys, tarfile, zipfile
wheel, sdist = sys.argv[1:]
with zipfile.ZipFile(wheel) as z:
    in_wheel = {pathlib.PurePosixPath(n).name: z.read(n) for n in z.namelist() if ".dist-info/licenses/" in n}
    wheel_metadata = next(z.read(n).decode() for n in z.namelist() if n.endswith(".dist-info/METADATA"))
with tarfile.open(sdist) as t:
    files = {m.name: m for m in t.getmembers() if m.isfile()}
    in_sdist = {pathlib.PurePosixPath(n).name: t.extractfile(m).read() for n, m in files.items() if "/LICENSE-" in n}
    sdist_metadata = next(t.extractfile(m).read().decode() for n, m in files.items() if n.endswith("/PKG-INFO"))
for name in ("LICENSE-MIT", "LICENSE-APACHE"):
    text = pathlib.Path(name).read_bytes()
    for archive, held, metadata in ((wheel, in_wheel, wheel_metadata), (sdist, in_sdist, sdist_metadata)):
        assert held.get(name) == text, f"{archive} does not hold {name} as the repository has it"
        assert f"License-File: {name}" in metadata, f"{archive}: no License-File: {name}"
print("LICENSE-MIT and LICENSE-APACHE in", pathlib.Path(wheel).name, "and", pathlib.Path(sdist).name)
PY
if [[ ${FAIRMINES_SKIP_SDIST:-0} == 1 ]]; then
  echo "sdist install skipped (FAIRMINES_SKIP_SDIST=1)"
  exit 0
fi
step "the sdist installed into the fresh venv (isolated build)"
# A fixed target dir keeps the compiled dependencies between runs (the sdist unpacks elsewhere each time).
# The sdist's files carry one fixed old mtime, so cargo would take the cached builds of the project's own
# crates for fresh even after they changed: forget those (the dependencies stay cached).
rm -rf "$ROOT"/target/python-sdist/*/.fingerprint/fairmines-*
CARGO_TARGET_DIR=$ROOT/target/python-sdist "$dist/venv/bin/pip" install --quiet --force-reinstall --no-deps "$sdist"
(cd "$dist" && "$dist/venv/bin/python" - <<'EOF'
import pathlib, fairmines
package = pathlib.Path(fairmines.__file__).parent
assert (package / "py.typed").is_file() and (package / "_native.pyi").is_file()
assert not hasattr(fairmines.Round, "_hold_for_testing"), "a test-only hook in the shipped build"
assert not hasattr(fairmines._native, "_batch_blocks_for_testing"), "a test-only hook in the shipped build"
assert fairmines.mine_positions(
    "b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a",
    "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817", 1, 3) == [7, 10, 19]
assert not fairmines.verify_history([]).ok and fairmines.HistoryReport.__module__ == "fairmines"  # no rounds; _reports.py
print("sdist", fairmines.__version__, "installs and runs from", package)
EOF
)
echo "README blocks, wheel, sdist and its install in $((SECONDS - start))s"
