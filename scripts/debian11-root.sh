# shellcheck shell=bash
# Sourced: debian11_root makes (once; stamped) a Debian 11 root (glibc 2.31, gcc 10, CMake 3.18) in target/debian11-root by debootstrap; debian11_run DIR CMD... runs CMD as root in it with DIR at /work (root only).
DEBIAN11_ROOT=${DEBIAN11_ROOT:-$ROOT/target/debian11-root}
DEBIAN11_STAMP="debootstrap --variant=minbase --include=gcc,libc6-dev,make,pkg-config,cmake bullseye (1)"

debian11_root() {
    local root=$DEBIAN11_ROOT lock mirror
    mkdir -p "$(dirname "$root")"
    exec {lock}>"$root.lock"
    flock "$lock"
    if [[ $(cat "$root/.fairmines-stamp" 2>/dev/null) != "$DEBIAN11_STAMP" ]]; then
        need debootstrap:debootstrap
        # The Debian mirror apt uses here (DEBIAN11_MIRROR overrides), else deb.debian.org.
        mirror=${DEBIAN11_MIRROR:-$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
            grep -oE 'https?://[^ ]*/debian/?( |$)' | head -n 1 | tr -d ' ' || true)}
        step "making $root: debootstrap bullseye from ${mirror:=http://deb.debian.org/debian}"
        rm -rf "$root.new"
        debootstrap --variant=minbase --include=gcc,libc6-dev,make,pkg-config,cmake bullseye "$root.new" "$mirror" \
            >"$root.log" 2>&1 || { tail -n 30 "$root.log" >&2; fail "debootstrap failed (log: $root.log)"; }
        rm -rf "$root.new"/var/cache/apt/archives/*.deb
        echo "$DEBIAN11_STAMP" >"$root.new/.fairmines-stamp"
        rm -rf "$root" && mv "$root.new" "$root"
    fi
    exec {lock}>&-
}

# In a mount namespace of its own (DIR bind-mounted, /proc), else a copy of DIR; environment: PATH, HOME, LC_ALL=C.
debian11_run() {
    local dir root=$DEBIAN11_ROOT
    dir=$(cd "$1" && pwd)
    shift
    local env=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C)
    mkdir -p "$root/work"
    if unshare --mount --propagation private true 2>/dev/null; then
        # shellcheck disable=SC2016
        unshare --mount --propagation private -- bash -c '
            set -e
            mount --bind "$2" "$1/work"
            mount -t proc proc "$1/proc"
            root=$1 && shift 2 && exec chroot "$root" /usr/bin/env -i "$@"
        ' debian11_run "$root" "$dir" "${env[@]}" /bin/sh -c 'cd /work && exec "$@"' sh "$@"
    else
        rm -rf "$root/work" && cp -a "$dir" "$root/work"
        chroot "$root" /usr/bin/env -i "${env[@]}" /bin/sh -c 'cd /work && exec "$@"' sh "$@"
    fi
}
