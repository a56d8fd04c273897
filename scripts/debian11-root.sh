# shellcheck shell=bash
# A Debian 11 (bullseye, glibc 2.31) root folder for the older-glibc tests of the release artifacts, made with
# debootstrap and kept under target/ (reused while its stamp matches). Sourced, not run:
#   source scripts/debian11-root.sh
#   debian11_root                       makes target/debian11-root once (about 2 minutes cold, from the Debian
#                                       mirror apt uses here; override with DEBIAN11_MIRROR), then reuses it
#   debian11_run DIR CMD [ARG...]       runs CMD as root inside it (chroot) with DIR at /work (bind-mounted, in a
#                                       mount namespace of its own, so nothing stays mounted; copied in where
#                                       mounts are not allowed), /proc mounted, cwd /work, a clean environment:
#                                       PATH, HOME=/root, LC_ALL=C, plus every NAME=VALUE in DEBIAN11_ENV (an array)
# The root has gcc, libc6-dev, make, pkg-config and cmake (Debian 11's: gcc 10, CMake 3.18), so a program is built
# there as a Debian 11 user builds it. Anything else is copied into DIR first: for instance this machine's Node
# (/usr/bin/node needs GLIBC_2.28 only): cp /usr/bin/node "$dir/" && debian11_run "$dir" ./node test.js
# Needs root (debootstrap, chroot) and installs debootstrap with apt when missing.
# DEBIAN11_ROOT (default target/debian11-root) moves the root elsewhere (a path outside a clone survives it).

DEBIAN11_ROOT=${DEBIAN11_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/debian11-root}
DEBIAN11_SUITE=bullseye
DEBIAN11_PACKAGES=gcc,libc6-dev,make,pkg-config,cmake
# The stamp says what the root was made from: a change here makes a new root.
DEBIAN11_STAMP="debootstrap --variant=minbase --include=$DEBIAN11_PACKAGES $DEBIAN11_SUITE (1)"

# The Debian mirror apt uses on this machine (deb822 .sources first, then sources.list), else deb.debian.org.
debian11_mirror() {
    local uri
    if [[ -n ${DEBIAN11_MIRROR:-} ]]; then echo "$DEBIAN11_MIRROR"; return; fi
    uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' | tr ' ' '\n' |
        grep -E '^https?://[^ ]*/debian/?$' | head -n 1 || true)
    [[ -n $uri ]] || uri=$(sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\(https\?:[^[:space:]]*\/debian\/\?\)[[:space:]].*/\2/p' \
        /etc/apt/sources.list 2>/dev/null | head -n 1 || true)
    echo "${uri:-http://deb.debian.org/debian}"
}

debian11_root() {
    local root=$DEBIAN11_ROOT lock status
    mkdir -p "$(dirname "$root")"
    # One maker at a time (two test scripts started together wait for the first one's root).
    exec {lock}>"$root.lock"
    flock "$lock"
    status=0
    debian11_make_root || status=$?
    exec {lock}>&-
    return "$status"
}

debian11_make_root() {
    local root=$DEBIAN11_ROOT stamp=$DEBIAN11_ROOT/.fairmines-stamp mirror start
    if [[ -f $stamp && $(cat "$stamp") == "$DEBIAN11_STAMP" ]]; then
        echo "debian11-root: reusing $root ($(cat "$root/etc/debian_version"))"
        return 0
    fi
    [[ $(id -u) == 0 ]] || { echo "debian11-root: must run as root (debootstrap, chroot)" >&2; return 1; }
    if ! command -v debootstrap >/dev/null; then
        echo "debian11-root: installing debootstrap"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
    fi
    mirror=$(debian11_mirror)
    start=$SECONDS
    echo "debian11-root: making $root: debootstrap --variant=minbase $DEBIAN11_SUITE from $mirror"
    # A half-made root from an interrupted run is discarded; the finished one replaces the old at once.
    rm -rf "$root.new"
    if ! debootstrap --variant=minbase --include="$DEBIAN11_PACKAGES" "$DEBIAN11_SUITE" "$root.new" "$mirror" \
        >"$root.log" 2>&1; then
        tail -n 30 "$root.log" >&2
        echo "debian11-root: debootstrap failed (log: $root.log)" >&2
        return 1
    fi
    rm -rf "$root.new"/var/cache/apt/archives/*.deb
    echo "$DEBIAN11_STAMP" >"$root.new/.fairmines-stamp"
    rm -rf "$root"
    mv "$root.new" "$root"
    echo "debian11-root: made $root in $((SECONDS - start)) s ($(du -sh "$root" | cut -f1))"
}

debian11_run() {
    local dir root=$DEBIAN11_ROOT
    dir=$(cd "$1" && pwd)
    shift
    local env=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C "${DEBIAN11_ENV[@]}")
    [[ -f $root/.fairmines-stamp ]] || { echo "debian11_run: no root at $root (debian11_root)" >&2; return 1; }
    mkdir -p "$root/work"
    if unshare --mount --propagation private true 2>/dev/null; then
        # shellcheck disable=SC2016
        unshare --mount --propagation private -- bash -c '
            set -e
            root=$1 dir=$2
            shift 2
            mount --bind "$dir" "$root/work"
            mount -t proc proc "$root/proc"
            exec chroot "$root" /usr/bin/env -i "$@"
        ' debian11_run "$root" "$dir" "${env[@]}" /bin/sh -c 'cd /work && exec "$@"' sh "$@"
    else
        # No mounts allowed: a copy of DIR (results written there stay in the root's /work).
        rm -rf "$root/work" && cp -a "$dir" "$root/work"
        chroot "$root" /usr/bin/env -i "${env[@]}" /bin/sh -c 'cd /work && exec "$@"' sh "$@"
    fi
}
