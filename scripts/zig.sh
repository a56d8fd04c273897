# shellcheck shell=bash
# Sourced by the dist scripts that build against glibc 2.17: cargo-zigbuild and zig, from PyPI at the versions
# pinned in scripts/zig-requirements.txt, in one venv under the target folder (installed once; the
# cargo-zigbuild wheel is the crate's own binary: seconds to install, where `cargo install` takes minutes on
# every fresh clone). Puts the venv first on
# PATH: cargo-zigbuild runs `python3 -m ziglang` when there is no zig on PATH, and maturin --zig finds it too.
zig_pins=$(dirname "${BASH_SOURCE[0]}")/zig-requirements.txt
CARGO_ZIGBUILD_VERSION=$(sed -n 's/^cargo-zigbuild==//p' "$zig_pins")
ZIGLANG_VERSION=$(sed -n 's/^ziglang==//p' "$zig_pins")
zig_venv=${CARGO_TARGET_DIR:-$PWD/target}/zig-venv
if [[ "$("$zig_venv/bin/cargo-zigbuild" --version 2>/dev/null)" != "cargo-zigbuild $CARGO_ZIGBUILD_VERSION" ||
      "$("$zig_venv/bin/python" -m ziglang version 2>/dev/null)" != "$ZIGLANG_VERSION" ]]; then
    echo "installing cargo-zigbuild $CARGO_ZIGBUILD_VERSION and zig $ZIGLANG_VERSION (PyPI ziglang) into $zig_venv"
    rm -rf "$zig_venv"
    python3 -m venv "$zig_venv"
    "$zig_venv/bin/pip" install --quiet --disable-pip-version-check -r "$zig_pins"
fi
export PATH=$zig_venv/bin:$PATH
