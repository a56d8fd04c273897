#!/usr/bin/env bash
# Checks the Python artifacts that scripts/dist-python.sh wrote into dist/ (part of `make test-dist`):
#  1. the archives: twine check --strict (all three), abi3audit --strict (both wheels: only the limited API
#     of CPython 3.10), the manylinux wheel's platform by auditwheel show (manylinux_2_17_x86_64) and by its
#     symbols (objdump -T: the newest GLIBC_ version is <= 2.17), the musllinux wheel's (no GLIBC_ version,
#     it needs only musl's libc.so), each wheel's tag, files and licences, the sdist's files;
#  2. as a user installs it: a fresh venv, a folder outside the source tree, no cargo or rustc on PATH,
#     `pip install --no-index --find-links dist fairmines` (numpy first, from PyPI, for the [numpy] extra),
#     then every case of vectors/vectors.json through the installed package
#     (scripts/test-dist-python-vectors.py, copied there with the vector file), and every python block of
#     the package's README (python/README.md, as the wheel's METADATA carries it) run in a new empty folder
#     (pandas, polars, pyarrow, Dask and tqdm from PyPI at python/requirements-dev.txt's pins), its output
#     the one shown; the Dask block must be under `if __name__ == "__main__":`;
#  3. the sdist, installed by pip into another fresh venv (where cargo is: it compiles, the dependencies
#     cached in target/python-sdist, which scripts/test-python.sh shares), then the same vectors.
# The musllinux wheel cannot be installed on this glibc machine (no musl CPython here): its checks are (1).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
manylinux=fairmines-$version-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl
musllinux=fairmines-$version-cp310-abi3-musllinux_1_2_x86_64.whl
sdist=fairmines-$version.tar.gz
for name in "$manylinux" "$musllinux" "$sdist"; do
  [[ -f dist/$name ]] || { echo "test-dist-python: dist/$name is missing (scripts/dist-python.sh)" >&2; exit 1; }
done
fail() { echo "test-dist-python: $*" >&2; exit 1; }
export PIP_DISABLE_PIP_VERSION_CHECK=1
step() { printf '\n== %s\n' "$*"; }
start_all=$SECONDS

tools=$(bash scripts/dist-python.sh --tools)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- 1. the archives --------------------------------------------------------------------------------
step "twine check --strict, abi3audit --strict, auditwheel show"
"$tools/twine" check --strict "dist/$manylinux" "dist/$musllinux" "dist/$sdist"
for wheel in "$manylinux" "$musllinux"; do
  report=$("$tools/abi3audit" --strict --report "dist/$wheel") || { echo "$report" >&2; fail "abi3audit: $wheel"; }
  python3 -c '
import json, sys
results = [so["result"] for spec in json.loads(sys.argv[1])["specs"].values() for so in spec["wheel"]]
assert len(results) == 1, results
r = results[0]
assert r["is_abi3"] and r["is_abi3_baseline_compatible"] and r["baseline"] == "3.10", r
assert not r["non_abi3_symbols"] and not r["future_abi3_objects"], r
' "$report" || { echo "$report" >&2; fail "abi3audit: $wheel is not abi3 for CPython 3.10"; }
  echo "abi3audit: $wheel: abi3, CPython 3.10 baseline, no other symbols"
done
shown=$("$tools/auditwheel" show "dist/$manylinux")
grep -q 'is consistent with the following platform tag: "manylinux_2_17_x86_64"' <<<"$(tr -s ' \n' ' ' <<<"$shown")" ||
  { echo "$shown" >&2; fail "auditwheel show: $manylinux is not manylinux_2_17_x86_64"; }
echo "auditwheel show: $manylinux is consistent with manylinux_2_17_x86_64"

step "the wheels' files, tags and symbols; the sdist's files"
# Each wheel unpacked: its files exactly, the WHEEL tag, the metadata's version and licences.
for wheel in "$manylinux" "$musllinux"; do
  dir=$tmp/unpacked/$wheel
  mkdir -p "$dir"
  python3 - "dist/$wheel" "$dir" "$version" <<'PY'
import pathlib, sys, zipfile
wheel, out, version = sys.argv[1:]
tag = wheel.split(f"fairmines-{version}-", 1)[1].removesuffix(".whl")
python, abi, platforms = tag.split("-")
info = f"fairmines-{version}.dist-info"
want = {f"fairmines/{n}" for n in ("__init__.py", "_history.py", "_native.abi3.so", "_native.pyi", "_reports.py",
                                   "dask.py", "py.typed")}
want |= {f"{info}/{n}" for n in ("METADATA", "WHEEL", "RECORD", "licenses/LICENSE-MIT", "licenses/LICENSE-APACHE")}
with zipfile.ZipFile(wheel) as z:
    names = set(z.namelist())
    assert names == want, f"{wheel}: extra {sorted(names - want)}, missing {sorted(want - names)}"
    z.extractall(out)
root = pathlib.Path(out)
tags = [l.split(": ", 1)[1] for l in (root / info / "WHEEL").read_text().splitlines() if l.startswith("Tag: ")]
assert tags == [f"{python}-{abi}-{p}" for p in platforms.split(".")], tags
metadata = (root / info / "METADATA").read_text()
assert f"\nVersion: {version}\n" in metadata and "\nRequires-Python: >=3.10\n" in metadata, "METADATA"
for name in ("LICENSE-MIT", "LICENSE-APACHE"):
    assert (root / info / "licenses" / name).read_bytes() == pathlib.Path(name).read_bytes(), name
    assert f"License-File: {name}" in metadata, name
print(f"{pathlib.Path(wheel).name}: tags {', '.join(tags)}; {len(names)} files as expected, both licences")
PY
done

so=$tmp/unpacked/$manylinux/fairmines/_native.abi3.so
newest=$(objdump -T "$so" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -n 1)
[[ -n $newest ]] || fail "$manylinux: no GLIBC_ symbol versions found in its extension"
[[ $(printf '%s\n' "$newest" GLIBC_2.17 | sort -V | tail -n 1) == GLIBC_2.17 ]] ||
  fail "$manylinux: needs $newest (newer than GLIBC_2.17)"
echo "$manylinux: newest symbol version $newest (<= GLIBC_2.17); needs $(readelf -d "$so" | grep -o 'NEEDED.*' | grep -o '\[.*\]' | tr -d '[]' | xargs)"

so=$tmp/unpacked/$musllinux/fairmines/_native.abi3.so
grep -q 'Advanced Micro Devices X86-64' <<<"$(readelf -h "$so")" || fail "$musllinux: not an x86_64 ELF"
symbols=$(objdump -T "$so")
(($(grep -c 'GLIBC' <<<"$symbols") == 0)) || fail "$musllinux: references GLIBC symbol versions"
needed=$(readelf -d "$so" | grep -o 'Shared library: \[.*\]' | grep -o '\[.*\]' | tr -d '[]' | xargs)
[[ $needed == libc.so ]] || fail "$musllinux: needs '$needed' (only musl's libc.so expected)"
echo "$musllinux: no GLIBC symbol versions, needs only $needed (musl)"

python3 - "dist/$sdist" "$version" <<'PY'
import pathlib, sys, tarfile
sdist, version = sys.argv[1:]
top = f"fairmines-{version}"
with tarfile.open(sdist) as t:
    members = {m.name: m for m in t.getmembers()}
    for name in ("PKG-INFO", "pyproject.toml", "Cargo.toml", "Cargo.lock", "README.md", "bindings/python/Cargo.toml",
                 "bindings/python/src/lib.rs", "crates/fairmines/src/lib.rs", "crates/fairmines-history/Cargo.toml",
                 "fairmines/__init__.py", "fairmines/_native.pyi", "fairmines/py.typed"):
        assert f"{top}/{name}" in members, f"{sdist}: no {name}"
    for name in ("LICENSE-MIT", "LICENSE-APACHE"):
        assert t.extractfile(members[f"{top}/{name}"]).read() == pathlib.Path(name).read_bytes(), name
    bad = [n for n in members if not n.startswith(f"{top}/") or "/target/" in n or n.startswith((f"{top}/tests/", f"{top}/python/"))]
    assert not bad, f"{sdist}: unexpected {bad[:5]}"
    assert f"\nVersion: {version}\n" in t.extractfile(members[f"{top}/PKG-INFO"]).read().decode()
print(f"{pathlib.Path(sdist).name}: {len(members)} entries, the crates, the package, Cargo.lock and both licences")
PY

# --- 2. the manylinux wheel as a user installs it ---------------------------------------------------
step "the wheel into a fresh venv, outside the source tree, with no cargo or rustc on PATH"
start=$SECONDS
# PATH without any folder that holds cargo or rustc (~/.cargo/bin, rustup's): the wheel must not compile.
user_path=
IFS=: read -ra dirs <<<"$PATH"
for d in "${dirs[@]}"; do
  [[ -n $d && ! -e $d/cargo && ! -e $d/rustc ]] && user_path+=${user_path:+:}$d
done
python=$(python3 -c 'import sys; print(sys.executable)')
mkdir -p "$tmp/user/dist"
cp "dist/$manylinux" "dist/$musllinux" "dist/$sdist" "$tmp/user/dist/"
cp vectors/vectors.json scripts/test-dist-python-vectors.py "$tmp/user/"
numpy=$(grep -E '^numpy==' python/requirements-dev.txt)
(
  cd "$tmp/user"
  # shellcheck disable=SC2030 # this subshell's own PATH, on purpose
  export PATH=$user_path
  unset PYTHONPATH VIRTUAL_ENV CARGO_TARGET_DIR
  if command -v cargo || command -v rustc; then fail "cargo or rustc still on PATH"; fi
  "$python" -m venv venv
  export PATH=$tmp/user/venv/bin:$PATH
  if command -v cargo; then fail "cargo on the venv's PATH"; fi
  echo "PATH has no cargo and no rustc; working directory $PWD"
  pip install --quiet "$numpy"
  pip install --quiet --no-index --find-links dist fairmines
  python -I -c '
import hashlib, pathlib, sys, zipfile, fairmines
info = next(pathlib.Path(fairmines.__file__).parent.parent.glob("fairmines-*.dist-info"))
tags = [l for l in (info / "WHEEL").read_text().splitlines() if l.startswith("Tag: ")]
assert tags == ["Tag: cp310-abi3-manylinux2014_x86_64", "Tag: cp310-abi3-manylinux_2_17_x86_64"], tags
installed = (pathlib.Path(fairmines.__file__).parent / "_native.abi3.so").read_bytes()
with zipfile.ZipFile(sys.argv[1]) as z:
    assert installed == z.read("fairmines/_native.abi3.so"), "the installed extension is not the wheel'\''s"
print("installed from", pathlib.Path(sys.argv[1]).name)
' "dist/$manylinux"
  python -I test-dist-python-vectors.py vectors.json "$version" --numpy
  # The package's PyPI page (python/README.md, the wheel's METADATA): each python block as a file, run in a
  # new empty folder, prints exactly the text block under it (… stands for a part that varies, in one line).
  # The libraries its blocks import, at python/requirements-dev.txt's pins.
  # shellcheck disable=SC2046 # one requirement per word
  pip install --quiet $(grep -E '^(pandas|polars|pyarrow|dask\[[a-z,]*\]|distributed|tqdm)==' "$ROOT/python/requirements-dev.txt")
  python -I - <<'PY'
import importlib.metadata, os, re, subprocess, sys, tempfile
readme = importlib.metadata.metadata("fairmines").get_payload()
assert "## Whole histories" in readme, "the wheel's METADATA has no README"
fences = list(re.finditer(r"^```(\w*)\n(.*?)^```$", readme, re.S | re.M))
blocks = []
for i, m in enumerate(fences):
    if m.group(1) != "python":
        continue
    nxt = fences[i + 1] if i + 1 < len(fences) else None
    under = nxt is not None and nxt.group(1) == "text" and not readme[m.end():nxt.start()].strip()
    blocks.append((readme.count("\n", 0, m.start()) + 1, m.group(2), nxt.group(2) if under else ""))
assert len(blocks) >= 8, len(blocks)
dask_blocks = [code for _, code, _ in blocks if "fairmines.dask" in code]
assert dask_blocks and all('if __name__ == "__main__":' in code for code in dask_blocks), "a Dask block without the main guard"
for line, code, shown in blocks:
    folder = tempfile.mkdtemp()
    with open(os.path.join(folder, "example.py"), "w", encoding="utf-8") as f:
        f.write(code)
    r = subprocess.run([sys.executable, "example.py"], cwd=folder, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, f"README line {line} failed in an empty folder:\n{r.stderr}"
    pattern = "".join(".+?" if part == "…" else re.escape(part) for part in re.split("(…)", shown))
    assert re.fullmatch(pattern, r.stdout), f"README line {line} printed:\n{r.stdout}\nnot:\n{shown}"
print(f"the wheel's README (its METADATA): {len(blocks)} python blocks run in empty folders, each printed what it shows")
PY
)
echo "wheel: installed and tested in $((SECONDS - start))s"

# --- 3. the sdist, compiled by pip -----------------------------------------------------------------
step "the sdist into another fresh venv (compiles: cargo on PATH)"
start=$SECONDS
# The dependencies stay compiled in target/python-sdist between runs (scripts/test-python.sh uses it too);
# the sdist's files carry the last commit's time, so cargo could take a stale build of the project's own
# crates for fresh: forget those.
sdist_target=${CARGO_TARGET_DIR:-$ROOT/target}/python-sdist
rm -rf "$sdist_target"/*/.fingerprint/fairmines-*
mkdir -p "$tmp/source"
cp vectors/vectors.json scripts/test-dist-python-vectors.py "$tmp/source/"
(
  cd "$tmp/source"
  export CARGO_TARGET_DIR=$sdist_target
  unset PYTHONPATH VIRTUAL_ENV RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
  "$python" -m venv venv
  # shellcheck disable=SC2031 # the full PATH (with cargo), not the subshell's above
  export PATH=$tmp/source/venv/bin:$PATH
  command -v cargo >/dev/null || fail "the sdist needs cargo on PATH"
  pip install --quiet "$numpy"
  nice -n 10 pip install --quiet "$tmp/user/dist/$sdist"
  python -I test-dist-python-vectors.py vectors.json "$version" --numpy
)
echo "sdist: built, installed and tested in $((SECONDS - start))s"

echo
echo "test-dist-python: $manylinux ($(stat -c %s "dist/$manylinux") bytes, $newest), $musllinux" \
  "($(stat -c %s "dist/$musllinux") bytes), $sdist ($(stat -c %s "dist/$sdist") bytes): every check passed" \
  "in $((SECONDS - start_all))s"
