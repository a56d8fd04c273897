# shellcheck shell=bash
# Sourced by test-dist.sh: arm64_emulation lets this machine run Linux arm64 (aarch64) programs as a user on arm64
# runs them, `./program`: Debian's QEMU user-mode emulator registered with the kernel's binfmt_misc (root only).
arm64_emulation() {
    [[ $(uname -m) != aarch64 ]] || return 0
    need qemu-aarch64-static:qemu-user-static update-binfmts:binfmt-support
    [[ -e /proc/sys/fs/binfmt_misc/register ]] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc ||
        fail "cannot mount binfmt_misc (root only): arm64 programs cannot run here"
    [[ $(head -n 1 /proc/sys/fs/binfmt_misc/qemu-aarch64 2>/dev/null) == enabled ]] || update-binfmts --enable qemu-aarch64 ||
        fail "update-binfmts --enable qemu-aarch64 failed"
}
