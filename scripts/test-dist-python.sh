#!/usr/bin/env bash
# Checks the Python artifacts of dist/: twine, abi3audit, auditwheel, the wheels' files, tags and libc, the sdist's files; the manylinux wheel installed without Rust in a fresh venv, the package's own vector and batch suites run on it and its README's python blocks run in empty folders; the sdist compiled by pip, the same suites.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
export PIP_DISABLE_PIP_VERSION_CHECK=1
manylinux=fairmines-$version-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl sdist=fairmines-$version.tar.gz
musllinux=fairmines-$version-cp310-abi3-musllinux_1_2_x86_64.whl
tools=$(bash scripts/dist-python.sh --tools)
scratch

step "twine check, abi3audit, auditwheel show; the wheels' and the sdist's files"
"$tools/twine" check --strict "dist/$manylinux" "dist/$musllinux" "dist/$sdist"
for wheel in "$manylinux" "$musllinux"; do
    report=$("$tools/abi3audit" --strict --report "dist/$wheel") || { echo "$report" >&2; fail "abi3audit: $wheel"; }
    python3 -c '
import json, sys
[r] = [so["result"] for spec in json.loads(sys.argv[1])["specs"].values() for so in spec["wheel"]]
assert r["is_abi3"] and r["is_abi3_baseline_compatible"] and r["baseline"] == "3.10", r
assert not r["non_abi3_symbols"] and not r["future_abi3_objects"], r' "$report" || fail "abi3audit: $wheel is not abi3 for CPython 3.10"
done
"$tools/auditwheel" show "dist/$manylinux" | tr -s ' \n' ' ' | grep -q 'consistent with the following platform tag: "manylinux_2_17_x86_64"' ||
    fail "auditwheel show: $manylinux is not manylinux_2_17_x86_64"
python3 - "$TMP/unpacked" "$version" "dist/$manylinux" "dist/$musllinux" "dist/$sdist" <<'PY'
import pathlib, sys, tarfile, zipfile
out, version, *files = sys.argv[1:]
info = f"fairmines-{version}.dist-info"
for wheel in files[:2]:
    python, abi, platforms = wheel.split(f"fairmines-{version}-", 1)[1].removesuffix(".whl").split("-")
    want = {f"fairmines/{n}" for n in ("__init__.py", "_history.py", "_native.abi3.so", "_native.pyi", "_reports.py", "dask.py", "py.typed")}
    want |= {f"{info}/{n}" for n in ("METADATA", "WHEEL", "RECORD", "licenses/LICENSE-MIT", "licenses/LICENSE-APACHE")}
    root = pathlib.Path(out) / platforms
    with zipfile.ZipFile(wheel) as z:
        assert set(z.namelist()) == want, f"{wheel}: extra {set(z.namelist()) - want}, missing {want - set(z.namelist())}"
        z.extractall(root)
    tags = [l[5:] for l in (root / info / "WHEEL").read_text().splitlines() if l.startswith("Tag: ")]
    assert tags == [f"{python}-{abi}-{p}" for p in platforms.split(".")], tags
    metadata = (root / info / "METADATA").read_text()
    assert f"\nVersion: {version}\n" in metadata and "\nRequires-Python: >=3.10\n" in metadata, "METADATA"
    for name in ("LICENSE-MIT", "LICENSE-APACHE"):
        assert (root / info / "licenses" / name).read_bytes() == pathlib.Path(name).read_bytes() and f"License-File: {name}" in metadata
top = f"fairmines-{version}"
with tarfile.open(files[2]) as t:
    members = {m.name: m for m in t.getmembers()}
    for name in ("PKG-INFO", "pyproject.toml", "Cargo.toml", "Cargo.lock", "README.md", "bindings/python/Cargo.toml", "bindings/python/src/lib.rs",
                 "crates/fairmines/src/lib.rs", "crates/fairmines-history/Cargo.toml", "fairmines/__init__.py", "fairmines/_native.pyi", "fairmines/py.typed"):
        assert f"{top}/{name}" in members, f"the sdist has no {name}"
    for name in ("LICENSE-MIT", "LICENSE-APACHE"):
        assert t.extractfile(members[f"{top}/{name}"]).read() == pathlib.Path(name).read_bytes(), name
    bad = [n for n in members if not n.startswith(f"{top}/") or "/target/" in n or n.startswith((f"{top}/tests/", f"{top}/python/"))]
    assert not bad, f"the sdist holds {bad[:5]}"
    assert f"\nVersion: {version}\n" in t.extractfile(members[f"{top}/PKG-INFO"]).read().decode()
PY
glibc_floor "$TMP/unpacked/manylinux2014_x86_64.manylinux_2_17_x86_64/fairmines/_native.abi3.so" >/dev/null
so=$TMP/unpacked/musllinux_1_2_x86_64/fairmines/_native.abi3.so
if objdump -T "$so" | grep GLIBC; then fail "$musllinux references glibc"; fi
[[ $(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | xargs) == libc.so ]] || fail "$musllinux needs more than musl's libc.so"

# The suites out of the tree as laid out in it (conftest.py finds ../../vectors/vectors.json); not the tests of
# the testing-only hooks, whose absence is checked.
mkdir -p "$TMP/suite/python/tests" "$TMP/suite/vectors" "$TMP/dist"
cp python/tests/{conftest,spec_reference,test_vectors,test_batch,test_package}.py "$TMP/suite/python/tests/"
cp vectors/vectors.json "$TMP/suite/vectors/"
cp "dist/$manylinux" "dist/$musllinux" "dist/$sdist" "$TMP/dist/"
pins=$(grep -E '^(numpy|pytest)==' python/requirements-dev.txt | xargs)
python=$(python3 -c 'import sys; print(sys.executable)')
suites() { # in a venv where fairmines is installed (test_package: from site-packages, at the distribution's version)
    python -I -c 'import fairmines as f; assert not hasattr(f.Round, "_hold_for_testing") and not hasattr(f._native, "_batch_blocks_for_testing")'
    (cd "$TMP/suite/python/tests" && python -I -m pytest -q -p no:cacheprovider test_vectors.py test_batch.py \
        test_package.py::test_the_installed_package_is_tested test_package.py::test_version_is_the_distribution_version \
        -k 'not ordinary_writable and not ctrl_c and not releases_the_gil' >"$TMP/pytest.log") || { cat "$TMP/pytest.log" >&2; fail "the suites failed"; }
    tail -n 1 "$TMP/pytest.log"
}

step "the wheel into a fresh venv, outside the tree, no cargo or rustc on PATH: the suites, the README's python blocks"
user_path=$(tr : '\n' <<<"$PATH" | while read -r d; do [[ -z $d || -e $d/cargo || -e $d/rustc ]] || echo "$d"; done | paste -sd:)
(
    cd "$TMP"
    export PATH=$TMP/user/bin:$user_path
    unset PYTHONPATH VIRTUAL_ENV CARGO_TARGET_DIR
    if command -v cargo || command -v rustc; then fail "cargo or rustc still on PATH"; fi
    "$python" -m venv user
    # shellcheck disable=SC2086
    pip install --quiet $pins
    pip install --quiet --no-index --find-links dist fairmines
    cmp <(unzip -p "dist/$manylinux" fairmines/_native.abi3.so) user/lib/python3*/site-packages/fairmines/_native.abi3.so ||
        fail "the installed extension is not the wheel's"
    suites
    # The libraries the README's other blocks import, at python/requirements-dev.txt's pins; Dask only through
    # what the README says to install before its Dask block (pip takes no extras in a constraint).
    # shellcheck disable=SC2046
    pip install --quiet $(grep -E '^(pandas|polars|pyarrow|tqdm)==' "$ROOT/python/requirements-dev.txt")
    if python -c 'import dask' 2>/dev/null; then fail "dask is installed before the README says to install it"; fi
    grep -E '^(numpy|dask\[[a-z,]*\]|distributed|pandas|pyarrow)==' "$ROOT/python/requirements-dev.txt" | sed 's/\[[a-z,]*\]//' >constraints.txt
    python -I - <<'PY'
import importlib.metadata, re, subprocess
readme = importlib.metadata.metadata("fairmines").get_payload()
# The README's sh blocks that install an extra of the installed wheel, run as written (the wheel satisfies
# `fairmines`, the index gives the extra's libraries).
installs = [m.group(1).strip() for m in re.finditer(r"^```sh\n(.*?)^```$", readme, re.S | re.M) if "fairmines[" in m.group(1)]
assert installs == ["pip install 'fairmines[dask]'"], installs
for command in installs:
    subprocess.run(["bash", "-euc", command], check=True, env={**__import__("os").environ, "PIP_CONSTRAINT": "constraints.txt"})
PY
    python -c 'import dask, distributed' || fail "pip install 'fairmines[dask]' did not install Dask"
    python -I - <<'PY'
import importlib.metadata, os, re, subprocess, sys, tempfile
readme = importlib.metadata.metadata("fairmines").get_payload()
fences = list(re.finditer(r"^```(\w*)\n(.*?)^```$", readme, re.S | re.M))
blocks = [(m.group(2), n.group(2) if n and n.group(1) == "text" and not readme[m.end():n.start()].strip() else "")
          for m, n in zip(fences, fences[1:] + [None]) if m.group(1) == "python"]
assert len(blocks) >= 8, len(blocks)
assert all('if __name__ == "__main__":' in code for code, _ in blocks if "fairmines.dask" in code), "a Dask block without the main guard"
for code, shown in blocks:
    folder = tempfile.mkdtemp()
    open(os.path.join(folder, "example.py"), "w", encoding="utf-8").write(code)
    r = subprocess.run([sys.executable, "example.py"], cwd=folder, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"{code}\nfailed in an empty folder:\n{r.stderr}"
    assert re.fullmatch("".join(".+?" if p == "…" else re.escape(p) for p in re.split("(…)", shown)), r.stdout), f"{code}\nprinted:\n{r.stdout}"
print(f"the wheel's README (its METADATA): {len(blocks)} python blocks ran in empty folders, each printed what it shows")
PY
)

step "the sdist, compiled by pip into another fresh venv (cargo on PATH; dependencies cached in target/python-sdist)"
sdist_target=$target_dir/python-sdist
# The sdist's files carry the last commit's time: cargo could take a stale build of the project's crates as fresh.
rm -rf "$sdist_target"/*/.fingerprint/fairmines-*
(
    cd "$TMP"
    export CARGO_TARGET_DIR=$sdist_target PATH=$TMP/source/bin:$PATH
    unset PYTHONPATH VIRTUAL_ENV RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
    "$python" -m venv source
    # shellcheck disable=SC2086
    pip install --quiet $pins
    nice -n 10 pip install --quiet "dist/$sdist"
    suites
)
