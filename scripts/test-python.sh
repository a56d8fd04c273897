#!/usr/bin/env bash
# The Python package (python/ over bindings/python): pip install, clippy, stubs, pytest, the README's sh blocks, wheel and sdist.
#   --setup-only: venv + build + install (scripts/bench-python.sh);  FAIRMINES_SKIP_SDIST=1: no sdist install (the slowest step)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
VENV=$ROOT/python/.venv
need python3
python3 -c 'import venv, ensurepip' 2>/dev/null || bash scripts/bootstrap.sh python3-venv
python3 -c 'import sys; assert sys.version_info >= (3, 10), sys.version' || fail "python3 >= 3.10 is needed"
have cargo || fail "cargo (the Rust toolchain) is needed"
# The venv with the pinned tools, recreated when python/requirements-dev.txt changes; maturin is run from PATH.
if ! cmp -s python/requirements-dev.txt "$VENV/requirements-dev.txt" 2>/dev/null; then
    step "venv $VENV"
    rm -rf "$VENV" && python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check -r python/requirements-dev.txt
    cp python/requirements-dev.txt "$VENV/requirements-dev.txt"
fi
export PATH="$VENV/bin:$PATH" PIP_DISABLE_PIP_VERSION_CHECK=1

# The PEP 517 path users take; the tests' build adds the feature `testing` (hooks that let a test hold a move).
features=testing
[[ ${1:-} == --setup-only ]] && features=
step "pip install ./python${features:+ (cargo features: $features)}"
MATURIN_PEP517_ARGS=${features:+--features $features} pip install --quiet --no-build-isolation --no-deps --force-reinstall ./python
[[ -n $features ]] || exit 0

# The history crate's column-wise reader (feature arrow) is only turned on here: its unit tests run here.
step "clippy (bindings/python, fairmines-history --features arrow), cargo test -p fairmines-history --features arrow"
PYO3_PYTHON=$VENV/bin/python cargo clippy --quiet --locked -p fairmines-python --features testing --all-targets -- -D warnings
cargo clippy --quiet --locked -p fairmines-history --features arrow --all-targets -- -D warnings
cargo test --quiet --locked --release -p fairmines-history --features arrow --lib
step "the stub (stubtest), mypy --strict"
bash scripts/check-generated.sh stub
(cd python && mypy --strict --no-incremental fairmines tests)
step "pytest (the fairmines command makes tests/test_frames.py's history)"
cargo build --release --quiet -p fairmines-cli
FAIRMINES_CLI=${CARGO_TARGET_DIR:-$ROOT/target}/release/fairmines pytest python/tests -q -p no:cacheprovider

# Every ```sh block of python/README.md in order, with a fresh venv first on PATH (numpy pinned as for the tests);
# the wheel and sdist they build are found in target/wheels by being newer than this step.
step "the README's sh blocks in a fresh venv: install, the wheel and the sdist with both licences"
scratch
python3 -m venv "$TMP/venv"
# (pip takes no extras in a constraint: dask[dataframe,distributed]==X is written dask==X.)
grep -E '^(numpy|dask\[[a-z,]*\]|distributed|pandas|pyarrow)==' python/requirements-dev.txt | sed 's/\[[a-z,]*\]//' >"$TMP/constraints.txt"
touch "$TMP/before"
python3 scripts/readme_examples.py python/README.md --blocks sh "$TMP/blocks"
for block in "$TMP"/blocks/*; do
    sed 's/^/  $ /' "$block"
    PATH="$TMP/venv/bin:$PATH" PIP_CONSTRAINT="$TMP/constraints.txt" bash -euo pipefail "$block"
done
"$TMP/venv/bin/python" -c 'import fairmines; assert fairmines.mine_positions_batch("s", "c", range(2), 3).shape == (2, 3)'
# The Dask block runs with exactly what the README says to install before it (pip install 'fairmines[dask]'),
# in the venv of the blocks above: nothing else brought Dask into it.
python3 scripts/readme_examples.py python/README.md --blocks python "$TMP/python-blocks"
dask_block=$(grep -l 'fairmines.dask' "$TMP"/python-blocks/* | head -n 1)
[[ -n $dask_block ]] || fail "python/README.md has no Dask block"
grep -B12 -F 'import fairmines.dask' python/README.md | grep -qx "pip install 'fairmines\[dask\]'" ||
    fail "python/README.md's Dask block does not follow pip install 'fairmines[dask]'"
(cd "$TMP" && "$TMP/venv/bin/python" "$dask_block") | grep -q '^True <HistoryReport FAILED' ||
    fail "python/README.md's Dask block did not run in the venv that installed fairmines[dask]"
wheels=${CARGO_TARGET_DIR:-$ROOT/target}/wheels
wheel=$(find "$wheels" -name 'fairmines-*-cp310-abi3-*.whl' -newer "$TMP/before" | head -n 1)
sdist=$(find "$wheels" -name 'fairmines-*.tar.gz' -newer "$TMP/before" | head -n 1)
[[ -n $wheel && -n $sdist ]] || fail "the README's maturin build and sdist made no wheel or sdist in $wheels"
python3 - "$wheel" "$sdist" <<'PY'   # both licences, as the repository has them (python/LICENSE-* link to them)
import pathlib, sys, tarfile, zipfile
with zipfile.ZipFile(sys.argv[1]) as z, tarfile.open(sys.argv[2]) as t:
    files = {m.name: m for m in t.getmembers() if m.isfile()}
    archives = (({pathlib.PurePosixPath(n).name: z.read(n) for n in z.namelist() if ".dist-info/licenses/" in n},
                 next(z.read(n).decode() for n in z.namelist() if n.endswith(".dist-info/METADATA"))),
                ({pathlib.PurePosixPath(n).name: t.extractfile(m).read() for n, m in files.items() if "/LICENSE-" in n},
                 next(t.extractfile(m).read().decode() for n, m in files.items() if n.endswith("/PKG-INFO"))))
    for name in ("LICENSE-MIT", "LICENSE-APACHE"):
        for archive, (held, metadata) in zip(sys.argv[1:], archives):
            assert held.get(name) == pathlib.Path(name).read_bytes(), f"{archive} does not hold {name} as the repository has it"
            assert f"License-File: {name}" in metadata, f"{archive}: no License-File: {name}"
print("LICENSE-MIT and LICENSE-APACHE in", *(pathlib.Path(a).name for a in sys.argv[1:]))
PY
[[ ${FAIRMINES_SKIP_SDIST:-0} != 1 ]] || { echo "sdist install skipped (FAIRMINES_SKIP_SDIST=1)"; exit 0; }

# The sdist's files carry one old mtime, so cargo would take cached builds of the project's crates as fresh.
step "the sdist installed into the fresh venv (isolated build), as it ships"
rm -rf "$ROOT"/target/python-sdist/*/.fingerprint/fairmines-*
CARGO_TARGET_DIR=$ROOT/target/python-sdist "$TMP/venv/bin/pip" install --quiet --force-reinstall --no-deps "$sdist"
(cd "$TMP" && "$TMP/venv/bin/python" - <<'EOF'
import pathlib, fairmines
package = pathlib.Path(fairmines.__file__).parent
assert (package / "py.typed").is_file() and (package / "_native.pyi").is_file()
assert not hasattr(fairmines.Round, "_hold_for_testing") and not hasattr(fairmines._native, "_batch_blocks_for_testing"), "a test hook shipped"
assert fairmines.mine_positions("b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a",
    "d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817", 1, 3) == [7, 10, 19]
assert not fairmines.verify_history([]).ok and fairmines.HistoryReport.__module__ == "fairmines"  # no rounds; _reports.py
print("sdist", fairmines.__version__, "installs and runs from", package)
EOF
)
