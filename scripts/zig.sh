# shellcheck shell=bash
# Sourced by the dist scripts after lib.sh: the command line's targets, the version, SOURCE_DATE_EPOCH, the release flags, reproducible archives, and zig_tools (cargo-zigbuild and zig from PyPI at zig-requirements.txt's pins, in target/zig-venv, first on PATH).
# The static command line of each Linux architecture the release serves (dist.sh builds, test-dist.sh runs them).
CLI_TARGETS=(x86_64-unknown-linux-musl aarch64-unknown-linux-musl)
# The architectures of the C archives (dist-c.sh: glibc 2.17 and musl each; test-dist-c.sh runs aarch64's in an arm64 root).
C_ARCHES=(x86_64 aarch64)
# The npm platform packages' targets (dist-node.sh builds an addon for each; gnu for glibc 2.17) and their napi-rs
# names, linux-ARCH-LIBC with Node's architecture names (x64, arm64).
NODE_TARGETS=(x86_64-unknown-linux-gnu x86_64-unknown-linux-musl aarch64-unknown-linux-gnu aarch64-unknown-linux-musl)
napi_platform() { local arch=${1%%-*} && arch=${arch/x86_64/x64} && echo "linux-${arch/aarch64/arm64}-${1##*-}"; }
# The Python wheels' targets (dist-python.sh: manylinux2014 for gnu, musllinux_1_2 for musl).
WHEEL_TARGETS=(x86_64-unknown-linux-gnu x86_64-unknown-linux-musl aarch64-unknown-linux-gnu aarch64-unknown-linux-musl)
# The name readelf -h gives the machine of an architecture or target (x86_64…, aarch64…).
elf_machine() { if [[ $1 == aarch64* ]]; then echo AArch64; else echo X86-64; fi; }
version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
target_dir=$(realpath -m "${CARGO_TARGET_DIR:-$ROOT/target}")
umask 022
# RUSTFLAGS would override the per-target flags (the release workflow sets it); only --target crates get these.
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
release_flags() { # [EXTRA] TARGET...: no build paths, symbols stripped
    local extra= && [[ $1 != -* ]] || { extra="$1 " && shift; }
    for t in "$@"; do
        rustup target list --installed | grep -qx "$t" || rustup target add "$t"
        export "CARGO_TARGET_$(tr 'a-z-' 'A-Z_' <<<"$t")_RUSTFLAGS=$extra-C strip=symbols --remap-path-prefix=$ROOT=/fairmines --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
    done
}
targz() { # DIR NAME OUT: DIR/NAME as OUT, fixed order, owners and times, gzip -n
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" --format=gnu -C "$1" -cf - "$2" |
        gzip -9n >"$3.tmp"
    mv "$3.tmp" "$3"
}
modes() { find "$@" -type d -exec chmod 0755 {} + && find "$@" -type f -exec chmod 0644 {} +; }
zig_tools() {
    local venv=$target_dir/zig-venv pins=$ROOT/scripts/zig-requirements.txt
    if [[ "$("$venv/bin/cargo-zigbuild" --version 2>/dev/null)" != "cargo-zigbuild $(sed -n 's/^cargo-zigbuild==//p' "$pins")" ||
        "$("$venv/bin/python" -m ziglang version 2>/dev/null)" != "$(sed -n 's/^ziglang==//p' "$pins")" ]]; then
        step "cargo-zigbuild and zig into $venv"
        rm -rf "$venv" && python3 -m venv "$venv"
        "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$pins"
    fi
    export PATH=$venv/bin:$PATH
}
# GLIBC_2.17 at most in the ELF files given, else fail; prints the newest.
glibc_floor() {
    local newest && newest=$(objdump -T "$@" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -n 1)
    [[ -n $newest && $(printf '%s\n' GLIBC_2.17 "$newest" | sort -V | tail -n 1) == GLIBC_2.17 ]] || fail "$* needs $newest"
    echo "$newest"
}

# npm_cache_fill PLATFORM-TARBALL... -- TARBALL...: npm installs the release's tarballs into a scratch project through
# npm's cache of their dependencies (target/npm-cache-dist, kept between runs), so that an install elsewhere runs
# offline from a copy of it: the platform packages first, saved as optional dependencies (as the documented install
# does, so that npm never asks the registry for them), then the others. npm_config_cpu/os/libc in the environment
# fill it for another platform.
npm_cache_fill() {
    local project platforms=()
    while [[ $1 != -- ]]; do platforms+=("$1") && shift; done
    shift
    project=$(mktemp -d) && echo '{ "name": "fill", "private": true }' >"$project/package.json"
    mkdir -p "$target_dir/npm-cache-dist"
    (cd "$project" && export npm_config_cache="$target_dir/npm-cache-dist" npm_config_prefer_offline=true \
        npm_config_audit=false npm_config_fund=false npm_config_loglevel=error &&
        npm install --save-optional "${platforms[@]}" >/dev/null && npm install "$@" >/dev/null) ||
        { rm -rf "$project"; return 1; }
    rm -rf "$project"
}
