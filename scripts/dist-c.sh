#!/usr/bin/env bash
# The C/C++ release archives, into dist/ (only these two files; nothing else there is touched):
#   dist/fairmines-X.Y.Z-x86_64-linux-gnu.tar.gz    built for glibc 2.17 (cargo-zigbuild): include/fairmines.h,
#       lib/libfairmines.a, lib/libfairmines.so.X.Y.Z with its SONAME links, lib/pkgconfig/fairmines.pc and
#       fairmines-static.pc, lib/cmake/fairmines/ (find_package), share/ (valgrind suppressions, licences),
#       LICENSE-MIT, LICENSE-APACHE, README.txt
#   dist/fairmines-X.Y.Z-x86_64-linux-musl.tar.gz   the same layout with the static library only (musl has no
#       cdylib); LLVM's libunwind (Rust's self-contained copy for musl) is merged into libfairmines.a, so a
#       static link needs only -lc (musl-gcc, Alpine's gcc)
# The prefix inside each archive is laid out by scripts/install-c.sh (make install-c), so the pkg-config and
# CMake files are the installed ones: relocatable (${pcfiledir}, CMAKE_CURRENT_LIST_DIR).
# X.Y.Z is the workspace version (Cargo.toml). Reproducible: no build paths (--remap-path-prefix), Rust's archive
# writer is deterministic (members dated 0, owner 0), the merged musl archive is written by ar in deterministic
# mode, and the tarballs have a fixed order, owners and mtimes (SOURCE_DATE_EPOCH: the last commit) and gzip -n.
# Tools: cargo-zigbuild and zig, pinned, from scripts/zig.sh. scripts/test-dist-c.sh checks what this writes.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export LC_ALL=C
umask 022   # the files install-c.sh writes with > get the umask's modes: the same for everyone

GLIBC_FLOOR=2.17

version=$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml", "rb"))["workspace"]["package"]["version"])')
export SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}
target_dir=${CARGO_TARGET_DIR:-$ROOT/target}
step() { printf '\n==> dist-c: %s\n' "$*"; }
fail() { echo "dist-c: $*" >&2; exit 1; }

# -- tools ------------------------------------------------------------------------------------------
# shellcheck source=scripts/zig.sh
source scripts/zig.sh
for tool in readelf objdump ar; do command -v "$tool" >/dev/null || fail "$tool (binutils) is required"; done
rustup target list --installed | grep -qx x86_64-unknown-linux-musl || rustup target add x86_64-unknown-linux-musl

# -- build --------------------------------------------------------------------------------------------
# RUSTFLAGS would override the target's flags (the release workflow sets it): not for these archives.
unset RUSTFLAGS CARGO_ENCODED_RUSTFLAGS
# Only the target's crates get these flags (--target), so host build scripts are unaffected. The same flags as
# scripts/dist.sh, so the musl builds share their artifacts (strip applies to the .so; an .a is not linked).
flags="-C strip=symbols --remap-path-prefix=$ROOT=/fairmines --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS=$flags CARGO_TARGET_X86_64_UNKNOWN_LINUX_MUSL_RUSTFLAGS=$flags

step "glibc $GLIBC_FLOOR: cargo zigbuild --release --target x86_64-unknown-linux-gnu.$GLIBC_FLOOR -p fairmines-c"
cargo zigbuild --locked --release --target "x86_64-unknown-linux-gnu.$GLIBC_FLOOR" -p fairmines-c
gnu_dir=$target_dir/x86_64-unknown-linux-gnu/release
newest=$(objdump -T "$gnu_dir/libfairmines.so" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -n 1)
[[ "$(printf '%s\n' "GLIBC_$GLIBC_FLOOR" "$newest" | sort -V | tail -n 1)" == "GLIBC_$GLIBC_FLOOR" ]] ||
    fail "libfairmines.so needs $newest, newer than glibc $GLIBC_FLOOR"

step "musl: cargo build --release --target x86_64-unknown-linux-musl -p fairmines-c (static library only)"
# rustc drops the cdylib for musl, with a warning.
cargo build --locked --release --target x86_64-unknown-linux-musl -p fairmines-c
musl_dir=$target_dir/x86_64-unknown-linux-musl/release
# rustc's native-static-libs for musl are "-lunwind -lc": its std unwinds with LLVM's libunwind, which rustc
# links into Rust programs from its self-contained directory but does not put into a staticlib. Merged in here,
# the archive needs only -lc, like a Rust program for musl (gcc's own unwinder is not pulled in then).
unwind=$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-musl/lib/self-contained/libunwind.a
[[ -f "$unwind" ]] || fail "$unwind is missing (rustup target add x86_64-unknown-linux-musl)"
merged=$target_dir/x86_64-unknown-linux-musl/dist-c
rm -rf "$merged" && mkdir -p "$merged"
# (ar's LTO plugin cannot read rustc's newer LLVM bitcode sections and says so for each member: kept out of the log.)
printf 'create %s\naddlib %s\naddlib %s\nsave\nend\n' "$merged/libfairmines.a" "$musl_dir/libfairmines.a" "$unwind" |
    ar -M 2>"$merged/ar.log" || { cat "$merged/ar.log" >&2; fail "ar -M failed"; }
# Deterministic: every member owned by 0/0 and dated 0 (GNU ar's D mode, Debian's default).
if ar tv "$merged/libfairmines.a" | grep -v ' 0/0 .* 1970 '; then fail "ar wrote owners or dates (above)"; fi

# -- the archives ---------------------------------------------------------------------------------------
stage_root=$target_dir/dist-c-stage
rm -rf "$stage_root"
mkdir -p dist "$stage_root"
pack() { # name, library dir, native static libs (empty: install-c.sh's), description
    local name=$1 stage=$stage_root/$1
    step "$name"
    mkdir -p "$stage"
    FAIRMINES_NO_BUILD=1 FAIRMINES_LIB_DIR=$2 FAIRMINES_STATIC_LIBS=$3 bash scripts/install-c.sh "$stage"
    cp LICENSE-MIT LICENSE-APACHE "$stage/"
    write_readme "$name" "$4" >"$stage/README.txt"
    chmod 0755 "$stage"
    chmod 0644 "$stage"/LICENSE-* "$stage/README.txt"
    find "$stage" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
    tar --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" --format=gnu \
        -C "$stage_root" -cf - "$name" | gzip -9n >"dist/$name.tar.gz.tmp"
    mv "dist/$name.tar.gz.tmp" "dist/$name.tar.gz"
    echo "dist/$name.tar.gz: $(stat -c %s "dist/$name.tar.gz") bytes, $(tar -tzf "dist/$name.tar.gz" | wc -l) entries"
}
write_readme() { # name, description
    local name=$1 soname files use
    if [[ $name == *-gnu ]]; then
        soname=$(readelf -d "$gnu_dir/libfairmines.so" | sed -n 's/.*Library soname: \[\(.*\)\]$/\1/p')
        files="  lib/libfairmines.a            the static library
$(printf '  %-30s' "lib/libfairmines.so.$version")the shared library (SONAME $soname, with its two links)
  lib/cmake/fairmines/          the CMake package: find_package(fairmines), targets fairmines::fairmines
                                (static) and fairmines::shared"
        use="  static:  cc app.c -o app \$(pkg-config --cflags --libs --static fairmines-static)
  shared:  cc app.c -o app \$(pkg-config --cflags --libs fairmines) -Wl,-rpath,\$FAIRMINES/lib"
    else
        files="  lib/libfairmines.a            the static library (with LLVM's libunwind, Rust's unwinder for musl:
                                Apache-2.0 WITH LLVM-exception); a static link needs only -lc
  lib/cmake/fairmines/          the CMake package: find_package(fairmines), target fairmines::fairmines"
        use="  static:  musl-gcc -static app.c -o app \$(pkg-config --cflags --libs --static fairmines-static)
           (on Alpine: gcc -static ...)"
    fi
    cat <<TXT
fairmines $version: the C library of the provably fair Mines game (Cloudbet), $2.

  include/fairmines.h           the header (C and C++)
$files
  lib/pkgconfig/                fairmines.pc and fairmines-static.pc (relocatable: found from their own folder)
  share/fairmines/valgrind.supp valgrind suppressions for programs using the library

Unpack anywhere (the folder can be moved), or copy include/, lib/ and share/ into a prefix such as
/usr/local (cp -a). With FAIRMINES=/path/to/this/folder and PKG_CONFIG_PATH=\$FAIRMINES/lib/pkgconfig:
$use
CMake:     find_package(fairmines $version REQUIRED)
           target_link_libraries(app PRIVATE fairmines::fairmines)
           cmake -S . -B build -DCMAKE_PREFIX_PATH=\$FAIRMINES && cmake --build build

API and examples: https://github.com/fairmines/fairmines/blob/v$version/bindings/c/README.md
Source: https://github.com/fairmines/fairmines (tag v$version); scripts/dist-c.sh rebuilds this archive bit for
bit at that tag (with the same Rust release). Licence: MIT OR Apache-2.0 (the two files here).
Check the archive against the release's SHA256SUMS: sha256sum -c --ignore-missing SHA256SUMS
TXT
}
pack "fairmines-$version-x86_64-linux-gnu" "$gnu_dir" "" "for x86_64 Linux with glibc $GLIBC_FLOOR or newer"
pack "fairmines-$version-x86_64-linux-musl" "$merged" "-lc" "for x86_64 Linux with musl (Alpine): static only"
rm -rf "$stage_root"
echo "dist-c: libfairmines.so needs glibc $GLIBC_FLOOR at most (newest symbol $newest)"
