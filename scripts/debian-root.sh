# shellcheck shell=bash
# Sourced: Debian root folders made by debootstrap and cached in target/ (root only).
# debian_root NAME SUITE ARCH PACKAGES: makes (once; stamped with its arguments) target/NAME, a minbase root of SUITE
# for ARCH (another architecture's runs under QEMU: arm64.sh) with PACKAGES (comma-separated); debian_run NAME DIR
# CMD... runs CMD as root in it with DIR at /work. The mirror: DEBIAN_MIRROR, else the one apt uses here, else
# deb.debian.org. The roots: debian11 (glibc 2.31, gcc 10, CMake 3.18: the oldest glibc the x86_64 files are
# tested on) and arm64 (bookworm: where the arm64 files are tested).
# shellcheck disable=SC2034,SC2054 # used by the scripts that source this; the packages are one argument
DEBIAN11=(debian11-root bullseye amd64 gcc,libc6-dev,make,pkg-config,cmake)
# shellcheck disable=SC2034,SC2054
ARM64=(arm64-root bookworm arm64 gcc,g++,libc6-dev,make,pkg-config,cmake,musl-tools,python3,python3-venv,curl)

debian_root() {
    local root=$ROOT/target/$1 suite=$2 arch=$3 packages=$4 lock mirror
    local stamp="debootstrap --arch=$arch --variant=minbase --include=$packages $suite (1)"
    mkdir -p "$(dirname "$root")"
    exec {lock}>"$root.lock"
    flock "$lock"
    if [[ $(cat "$root/.fairmines-stamp" 2>/dev/null) != "$stamp" ]]; then
        need debootstrap:debootstrap
        mirror=${DEBIAN_MIRROR:-$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
            grep -oE 'https?://[^ ]*/debian/?( |$)' | head -n 1 | tr -d ' ' || true)}
        step "making $root: $stamp, from ${mirror:=http://deb.debian.org/debian}"
        rm -rf "$root.new"
        debootstrap --arch="$arch" --variant=minbase --include="$packages" "$suite" "$root.new" "$mirror" \
            >"$root.log" 2>&1 || { tail -n 30 "$root.log" >&2; fail "debootstrap failed (log: $root.log)"; }
        rm -rf "$root.new"/var/cache/apt/archives/*.deb
        echo "$stamp" >"$root.new/.fairmines-stamp"
        rm -rf "$root" && mv "$root.new" "$root"
    fi
    exec {lock}>&-
}

# In a mount namespace of its own (DIR bind-mounted, /proc), else a copy of DIR; environment: PATH, HOME, LC_ALL=C.
debian_run() {
    local root=$ROOT/target/$1 dir
    dir=$(cd "$2" && pwd)
    shift 2
    local env=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C)
    mkdir -p "$root/work"
    if unshare --mount --propagation private true 2>/dev/null; then
        # shellcheck disable=SC2016
        unshare --mount --propagation private -- bash -c '
            set -e
            mount --bind "$2" "$1/work"
            mount -t proc proc "$1/proc"
            root=$1 && shift 2 && exec chroot "$root" /usr/bin/env -i "$@"
        ' debian_run "$root" "$dir" "${env[@]}" /bin/sh -c 'cd /work && exec "$@"' sh "$@"
    else
        rm -rf "$root/work" && cp -a "$dir" "$root/work"
        chroot "$root" /usr/bin/env -i "${env[@]}" /bin/sh -c 'cd /work && exec "$@"' sh "$@"
    fi
}
