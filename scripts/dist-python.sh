#!/usr/bin/env bash
# The Python artifacts into dist/: abi3 wheels for manylinux_2_17 and musllinux_1_2, x86_64 and aarch64 (maturin --zig), and the sdist; `--tools`: only the tools venv (maturin, auditwheel, abi3audit, twine, ziglang), its bin folder printed.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
TOOLS=$target_dir/dist-python/venv
pins=$(grep -E '^maturin==' python/requirements-dev.txt; cat python/requirements-dist.txt; grep -E '^ziglang==' scripts/zig-requirements.txt)
if [[ "$pins" != "$(cat "$TOOLS/pins.txt" 2>/dev/null)" ]]; then
    step "tools venv $TOOLS"
    rm -rf "$TOOLS" && python3 -m venv "$TOOLS" && "$TOOLS/bin/pip" install --quiet --disable-pip-version-check -r /dev/stdin <<<"$pins"
    printf '%s\n' "$pins" >"$TOOLS/pins.txt"
fi
if [[ ${1:-} == --tools ]]; then echo "$TOOLS/bin"; exit 0; fi

release_flags "${WHEEL_TARGETS[@]}"
# Its own target folder: the other builds of these targets use other flags and linkers.
export CARGO_TARGET_DIR=$target_dir/dist-python/cargo PATH=$TOOLS/bin:$PATH
out=$target_dir/dist-python/out
rm -rf "$out" && mkdir -p "$out" dist
(cd python
for target in "${WHEEL_TARGETS[@]}"; do
    if [[ $target == *-gnu ]]; then tag=manylinux2014; else tag=musllinux_1_2; fi
    nice -n 10 maturin build --quiet --release --locked --zig --target "$target" --compatibility "$tag" --out "$out"
done
maturin sdist --out "$out" >/dev/null)
got=$(cd "$out" && ls | LC_ALL=C sort | xargs)
want="fairmines-$version-cp310-abi3-manylinux2014_aarch64.manylinux_2_17_aarch64.whl fairmines-$version-cp310-abi3-manylinux2014_x86_64.manylinux_2_17_x86_64.whl"
want+=" fairmines-$version-cp310-abi3-musllinux_1_2_aarch64.whl fairmines-$version-cp310-abi3-musllinux_1_2_x86_64.whl fairmines-$version.tar.gz"
[[ $got == "$want" ]] || fail "built $got, expected $want"
cp "$out"/* dist/
