#!/usr/bin/env bash
# Checks the Python artifacts of dist/: twine, abi3audit, auditwheel, the wheels' files, tags and libc, the sdist's files; each architecture's manylinux wheel installed without Rust in a fresh venv (aarch64's in the arm64 root under QEMU, from wheels fetched here), the package's own vector and batch suites run on it and its README's python blocks run in empty folders; the sdist compiled by pip, the same suites (make test compiles it only here: test-python skips its own).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
source scripts/debian-root.sh
source scripts/arm64.sh
export PIP_DISABLE_PIP_VERSION_CHECK=1
manylinux() { echo "fairmines-$version-cp310-abi3-manylinux2014_$1.manylinux_2_17_$1.whl"; }
musllinux() { echo "fairmines-$version-cp310-abi3-musllinux_1_2_$1.whl"; }
wheels=() && for arch in x86_64 aarch64; do wheels+=("$(manylinux $arch)" "$(musllinux $arch)"); done
sdist=fairmines-$version.tar.gz
tools=$(bash scripts/dist-python.sh --tools)
scratch

step "twine check, abi3audit, auditwheel show; the wheels' and the sdist's files"
"$tools/twine" check --strict "${wheels[@]/#/dist/}" "dist/$sdist"
for wheel in "${wheels[@]}"; do
    report=$("$tools/abi3audit" --strict --report "dist/$wheel") || { echo "$report" >&2; fail "abi3audit: $wheel"; }
    python3 -c '
import json, sys
[r] = [so["result"] for spec in json.loads(sys.argv[1])["specs"].values() for so in spec["wheel"]]
assert r["is_abi3"] and r["is_abi3_baseline_compatible"] and r["baseline"] == "3.10", r
assert not r["non_abi3_symbols"] and not r["future_abi3_objects"], r' "$report" || fail "abi3audit: $wheel is not abi3 for CPython 3.10"
done
for arch in x86_64 aarch64; do
    "$tools/auditwheel" show "dist/$(manylinux $arch)" | tr -s ' \n' ' ' | grep -q "consistent with the following platform tag: \"manylinux_2_17_$arch\"" ||
        fail "auditwheel show: $(manylinux $arch) is not manylinux_2_17_$arch"
done
python3 - "$TMP/unpacked" "$version" "${wheels[@]/#/dist/}" "dist/$sdist" <<'PY'
import pathlib, sys, tarfile, zipfile
out, version, *files = sys.argv[1:]
info = f"fairmines-{version}.dist-info"
for wheel in files[:-1]:
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
with tarfile.open(files[-1]) as t:
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
for arch in x86_64 aarch64; do
    so=$TMP/unpacked/manylinux2014_$arch.manylinux_2_17_$arch/fairmines/_native.abi3.so
    readelf -h "$so" | grep -q "Machine: *.*$(elf_machine $arch)" || fail "$(manylinux $arch): the extension is not for $arch"
    glibc_floor "$so" >/dev/null
    so=$TMP/unpacked/musllinux_1_2_$arch/fairmines/_native.abi3.so
    readelf -h "$so" | grep -q "Machine: *.*$(elf_machine $arch)" || fail "$(musllinux $arch): the extension is not for $arch"
    if objdump -T "$so" | grep GLIBC; then fail "$(musllinux $arch) references glibc"; fi
    [[ $(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | xargs) == libc.so ]] || fail "$(musllinux $arch) needs more than musl's libc.so"
done

# The suites out of the tree as laid out in it (conftest.py finds ../../vectors/vectors.json); not the tests of
# the testing-only hooks, whose absence is checked. suites.sh runs them in a venv where fairmines is installed
# (test_package: from site-packages, at the distribution's version).
mkdir -p "$TMP/suite/python/tests" "$TMP/suite/vectors"
cp python/tests/{conftest,spec_reference,test_vectors,test_batch,test_package}.py "$TMP/suite/python/tests/"
cp vectors/vectors.json "$TMP/suite/vectors/"
cat >"$TMP/suite/suites.sh" <<'SH'
set -eu
python -I -c '
import pathlib, fairmines as f
assert not hasattr(f.Round, "_hold_for_testing") and not hasattr(f._native, "_batch_blocks_for_testing"), "a test hook shipped"
assert all((pathlib.Path(f.__file__).parent / n).is_file() for n in ("py.typed", "_native.pyi")), "no py.typed or _native.pyi"'
cd "$(dirname "$0")/python/tests"
python -I -m pytest -q -p no:cacheprovider test_vectors.py test_batch.py \
    test_package.py::test_the_installed_package_is_tested test_package.py::test_version_is_the_distribution_version \
    -k 'not ordinary_writable and not ctrl_c and not releases_the_gil' >../../pytest.log || { cat ../../pytest.log >&2; exit 1; }
tail -n 1 ../../pytest.log
SH

# user.sh PYTHON WHEEL, in a folder holding it (dist/), the suites (suite/) and the pins: a fresh venv, the pins,
# the wheel from dist/ only, the suites; then the libraries the README's other blocks import, at
# python/requirements-dev.txt's pins, Dask only through what the README says to install before its Dask block (pip
# takes no extras in a constraint), and the README's python blocks, each in an empty folder.
cat >"$TMP/user.sh" <<'USER'
set -eu
python=$1 wheel=$2
"$python" -m venv user
PATH=$PWD/user/bin:$PATH
pip install --quiet -r pins.txt
pip install --quiet --no-index --find-links dist fairmines
python -I -c '
import pathlib, sys, zipfile, fairmines._native as n
assert pathlib.Path(n.__file__).read_bytes() == zipfile.ZipFile(sys.argv[1]).read("fairmines/_native.abi3.so"), "the installed extension is not the wheel'"'"'s"
' "dist/$wheel"
bash suite/suites.sh
pip install --quiet -r libraries.txt
if python -c 'import dask' 2>/dev/null; then echo "dask is installed before the README says to install it" >&2; exit 1; fi
python -I - <<'PY'
import importlib.metadata, os, re, subprocess
readme = importlib.metadata.metadata("fairmines").get_payload()
# The README's sh blocks that install an extra of the installed wheel, run as written (the wheel satisfies
# `fairmines`, the index gives the extra's libraries).
installs = [m.group(1).strip() for m in re.finditer(r"^```sh\n(.*?)^```$", readme, re.S | re.M) if "fairmines[" in m.group(1)]
assert installs == ["pip install 'fairmines[dask]'"], installs
for command in installs:
    subprocess.run(["bash", "-euc", command], check=True, env={**os.environ, "PIP_CONSTRAINT": "constraints.txt"})
PY
python -c 'import dask, distributed' || { echo "pip install 'fairmines[dask]' did not install Dask" >&2; exit 1; }
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
print(f"  the wheel's README (its METADATA): {len(blocks)} python blocks ran in empty folders, each printed what it shows")
PY
USER

# user_folder ARCH: TMP/ARCH with the wheels of ARCH, the suites, user.sh and the pins.
user_folder() {
    local dir=$TMP/$1
    mkdir -p "$dir/dist"
    cp "dist/$(manylinux "$1")" "dist/$(musllinux "$1")" "$dir/dist/"
    cp -r "$TMP/suite" "$TMP/user.sh" "$dir/"
    grep -E '^(numpy|pytest)==' python/requirements-dev.txt >"$dir/pins.txt"
    grep -E '^(pandas|polars|pyarrow|tqdm)==' python/requirements-dev.txt >"$dir/libraries.txt"
    grep -E '^(numpy|dask\[[a-z,]*\]|distributed|pandas|pyarrow)==' python/requirements-dev.txt | sed 's/\[[a-z,]*\]//' >"$dir/constraints.txt"
}

step "x86_64: the wheel into a fresh venv, outside the tree, no cargo or rustc on PATH: the suites, the README's python blocks"
user_path=$(tr : '\n' <<<"$PATH" | while read -r d; do [[ -z $d || -e $d/cargo || -e $d/rustc ]] || echo "$d"; done | paste -sd:)
if PATH=$user_path command -v cargo || PATH=$user_path command -v rustc; then fail "cargo or rustc still on PATH"; fi
python=$(python3 -c 'import sys; print(sys.executable)')
user_folder x86_64
arch_run x86_64 "$TMP/x86_64" env -u PYTHONPATH -u VIRTUAL_ENV -u CARGO_TARGET_DIR PATH="$user_path" \
    bash user.sh "$python" "$(manylinux x86_64)" || fail "x86_64: the wheel (above)"

step "aarch64: the same in the arm64 root under QEMU (its Python 3.11), the libraries from arm64 wheels fetched here"
# The root reaches no index: pip there takes every package from wheelhouse/, filled here from PyPI for CPython 3.11
# on manylinux aarch64 (cached in target/python-arm64-wheels while the pins are the same).
user_folder aarch64
wheelhouse=$target_dir/python-arm64-wheels
wanted=$(cat "$TMP/aarch64/pins.txt" "$TMP/aarch64/libraries.txt" && grep -E '^(dask\[[a-z,]*\]|distributed)==' python/requirements-dev.txt)
if [[ $wanted != "$(cat "$wheelhouse/pins.txt" 2>/dev/null)" ]]; then
    rm -rf "$wheelhouse" && mkdir -p "$wheelhouse"
    # shellcheck disable=SC2046,SC2086 # the platform options and the requirements, split
    python3 -m pip download --quiet --dest "$wheelhouse" --only-binary=:all: --python-version 3.11 --implementation cp \
        --platform manylinux2014_aarch64 $(for v in $(seq 17 36); do echo "--platform manylinux_2_${v}_aarch64"; done) $wanted ||
        fail "pip download of the arm64 wheels failed"
    echo "$wanted" >"$wheelhouse/pins.txt"
fi
mkdir -p "$TMP/aarch64/wheelhouse" && cp "$wheelhouse"/*.whl "$TMP/aarch64/wheelhouse/"
debian_root "${ARM64[@]}"
arch_run aarch64 "$TMP/aarch64" env PATH=/usr/bin:/bin HOME=/work TMPDIR=/work PIP_NO_INDEX=1 PIP_FIND_LINKS="/work/dist /work/wheelhouse" \
    bash user.sh /usr/bin/python3 "$(manylinux aarch64)" || fail "aarch64: the wheel (above)"

step "the sdist, compiled by pip into another fresh venv (cargo on PATH; dependencies cached in target/python-sdist)"
sdist_target=$target_dir/python-sdist
# The sdist's files carry the last commit's time: cargo could take a stale build of the project's crates as fresh.
rm -rf "$sdist_target"/*/.fingerprint/fairmines-*
(
    cd "$TMP"
    export CARGO_TARGET_DIR=$sdist_target PATH=$TMP/source/bin:$PATH
    unset PYTHONPATH VIRTUAL_ENV RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
    "$python" -m venv source
    pip install --quiet -r "$TMP/x86_64/pins.txt"
    nice -n 10 pip install --quiet "$ROOT/dist/$sdist"
    bash "$TMP/suite/suites.sh"
)
